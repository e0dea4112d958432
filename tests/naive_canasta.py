"""Slow, obviously-correct twins of the Canasta kernels (pure Python, brute force).

The random numbers are the same xoshiro256** words and Lemire bounds as cardodds._random,
so a twin run from the same state must give exactly the kernel's counts.
"""

from __future__ import annotations

from .naive import bounded, next_u64, shuffle_prefix  # noqa: F401  (the shared xoshiro256** twin)

TWO, BLACK3, RED3, JOKER = 0, 1, 2, 14
NATURALS = range(3, 14)


def legal(kind, nat, twos, jokers, limit, wild_melds=True):
    """Melds as docs/rules/canasta.md §3 has them, written from the text."""
    if nat + twos + jokers < 3:
        return False
    if kind is None:
        return nat == 0 and wild_melds
    w = twos + jokers
    if limit == "naturals":
        return nat >= 2 and w <= nat
    if limit == "three":
        return nat >= 2 and w <= 3
    return nat >= 1


LIMITS = ("naturals", "three", "none")


def best_value(counts, room, pts, limit, wild_melds=True, need=None, rank=None):
    """Most valuable meld by trying every (rank, naturals, 2s, Jokers) the hand holds."""
    best = 0
    kinds = [None] + list(NATURALS) if rank is None else [rank]
    for kind in kinds:
        cmax = 0 if kind is None else counts[kind]
        for n in range(cmax + 1):
            for t in range(counts[TWO] + 1):
                for j in range(counts[JOKER] + 1):
                    if n + t + j > room or not legal(kind, n, t, j, limit, wild_melds):
                        continue
                    if need == JOKER and j == 0 or need == TWO and t == 0:
                        continue
                    if rank is not None and n == 0:
                        continue
                    v = (n * pts[kind] if kind is not None else 0) + 20 * t + 50 * j
                    best = max(best, v)
    return best


def best_with_top(counts, top, pts, limit, wild_melds=True):
    if top in (BLACK3, RED3):
        return 0
    c = list(counts)
    c[top] += 1
    room = sum(counts)
    if top in NATURALS:
        return best_value(c, room, pts, limit, wild_melds, rank=top)
    return best_value(c, room, pts, limit, wild_melds, need=top)


def score_side(melds, red3, left, went_out, pts):
    """melds: (kind or None, naturals, twos, jokers)."""
    bonus = 0
    points = 0
    canastas = 0
    for kind, n, t, j in melds:
        if n + t + j >= 7:
            canastas += 1
            bonus += 1000 if n == 0 else (500 if n >= 7 else 300)
        points += (n * pts[kind] if kind is not None else 0) + 20 * t + 50 * j
    table = points + 100 * red3
    s = bonus + table if canastas else -table
    s -= sum(c * p for c, p in zip(left, pts))
    return s + (100 if went_out else 0)


def weakest(counts, pts):
    """The "weakest" discard: a black 3, a red 3, the natural of the fewest-held (then cheapest)
    rank, a 2, a Joker."""
    for k in (BLACK3, RED3):
        if counts[k]:
            return k
    held = [k for k in NATURALS if counts[k]]
    if held:
        return min(held, key=lambda k: (counts[k], pts[k], k))
    return TWO if counts[TWO] else JOKER


def deal_counts(state, n, deck, hand, turns, pts, code, min_first, n_out, lay, wild_max, discard=0, wild_melds=True):
    """Twin of _kernels.deal_kernel: the same deals, evaluated by brute force.

    ``lay`` maps each count's name (``_kernels.deal_layout``) to its offset.
    """
    s = [int(x) for x in state]
    d = [int(x) for x in deck]
    out = [0] * n_out
    limit = LIMITS[code]
    used = 2 * hand + 1 + max(turns, 1)  # seat 0, seat 2, the upcard, the draws (the first before the pile)
    for _ in range(n):
        shuffle_prefix(s, d, used)
        counts = [0] * 15
        partner = [0] * 15
        for i in range(hand):
            counts[d[i]] += 1
            partner[d[hand + i]] += 1
        for c in range(3):
            if best_value(counts, hand - 1, pts, LIMITS[c], wild_melds) >= min_first:
                out[lay["first_meld_by_limit"] + c] += 1
        drawn = list(counts)
        drawn[d[2 * hand + 1]] += 1
        if best_with_top(drawn, d[2 * hand], pts, limit, wild_melds) >= min_first:
            out[lay["pile_open"]] += 1
        v = best_value(counts, hand - 1, pts, limit, wild_melds)
        out[lay["best_value"] + v // 5] += 1
        w = counts[TWO] + counts[JOKER]
        out[lay["wild_cards"] + w] += 1
        out[lay["red_threes"] + counts[RED3]] += 1
        out[lay["partnership_wild_cards"] + w + partner[TWO] + partner[JOKER]] += 1
        out[lay["partnership_red_threes"] + counts[RED3] + partner[RED3]] += 1
        out[lay["best_rank_naturals"] + max(counts[k] for k in NATURALS)] += 1
        if v >= min_first:
            out[lay["first_meld_by_wilds"] + w] += 1
        opened = canasta = False
        for k in range(turns + 1):
            if k > 0:
                counts[d[2 * hand + k]] += 1
            room = hand + k - 1 if (discard == 0 or k == 0) else hand
            opened = opened or best_value(counts, room, pts, limit, wild_melds) >= min_first
            canasta = canasta or max(counts[x] for x in NATURALS) >= 7
            out[lay["first_meld_by_turn"] + k] += opened
            out[lay["canasta_by_turn"] + k] += canasta
            if k > 0 and discard:
                counts[weakest(counts, pts)] -= 1
    return out
