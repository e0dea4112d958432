"""Exact meld probabilities by enumeration over counts per kind (multivariate hypergeometric).

Which melds a hand holds depends on its Jokers, its 2s and the count of each natural rank;
suits do not matter (3s are never melded). So, for every number of Jokers and 2s drawn, the
ways to draw the natural ranks multiply as polynomials (one factor per rank, the power of x
counting cards), and the coefficient of the cards still to draw counts the hands in which
every rank passes its test. All counts are Python integers; results are exact ``Fraction``s.

>>> from cardodds.canasta.rules import CanastaRules
>>> p = first_meld_probability(12, rules=CanastaRules())
>>> 0.5 < float(p) < 0.9
True
>>> wild_distribution(12)[0] == Fraction(math.comb(96, 12), math.comb(108, 12))
True
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import numpy as np

from . import _kernels as _k
from .cards import BLACK3, JOKER, JOKER_POINTS, NATURAL_KINDS, RED3, TWO, TWO_POINTS, deck_counts
from .rules import CanastaRules, check_rules, meld_rules

__all__ = [
    "best_meld_distribution",
    "canasta_by_turn",
    "first_meld_by_turn",
    "first_meld_by_wilds",
    "first_meld_probability",
    "max_natural_distribution",
    "pile_open_probability",
    "red_three_distribution",
    "wild_distribution",
]


# ---- the meld values: the kernels' own, cached for the enumeration ---------------------
@lru_cache(maxsize=None)
def _rank_value(c, p, jokers, twos, room, code, need=0):
    return int(_k.rank_meld(c, p, jokers, twos, room, code, need)[0])


@lru_cache(maxsize=None)
def _wild_value(jokers, twos, room, wild_melds, need=0):
    return int(_k.wild_meld(jokers, twos, room, int(wild_melds), need)[0])


# ---- the enumeration ---------------------------------------------------------------
def _mul(a, b, deg):
    out = [0] * min(len(a) + len(b) - 1, deg + 1)
    for i, x in enumerate(a):
        if x == 0 or i > deg:
            continue
        for j, y in enumerate(b):
            if i + j > deg:
                break
            out[i + j] += x * y
    return out


def _count(base, avail, ndraw, rank_ok, wild_ok) -> int:
    """Ways to draw ``ndraw`` cards from ``avail`` so that, with the final counts
    (``base`` + drawn), ``wild_ok(J, T)`` and ``rank_ok(kind, count, J, T)`` for every
    natural kind hold. 3s of both colours are free cards here."""
    aj, at = int(avail[JOKER]), int(avail[TWO])
    free = int(avail[BLACK3] + avail[RED3])
    free_poly = [math.comb(free, d) for d in range(min(free, ndraw) + 1)]
    total = 0
    for dj in range(min(aj, ndraw) + 1):
        for dt in range(min(at, ndraw - dj) + 1):
            J = int(base[JOKER]) + dj
            T = int(base[TWO]) + dt
            if not wild_ok(J, T):
                continue
            rest = ndraw - dj - dt
            poly = free_poly[: rest + 1]
            # Ranks alike in (held, available) give the same factor: build it once.
            groups: dict[tuple, list[int]] = {}
            for k in NATURAL_KINDS:
                key = (rank_ok.key(k), int(base[k]), int(avail[k]))
                if key not in groups:
                    groups[key] = [0, k]
                groups[key][0] += 1
            for (_, b, a), (mult, k) in groups.items():
                f = [math.comb(a, d) if rank_ok(k, b + d, J, T) else 0 for d in range(min(a, rest) + 1)]
                for _ in range(mult):
                    poly = _mul(poly, f, rest)
            if len(poly) > rest:
                total += math.comb(aj, dj) * math.comb(at, dt) * poly[rest]
    return total


class _RankTest:
    """``rank_ok`` callable; ``key(kind)`` tells which kinds the test treats alike (e.g. by
    their points), so ranks alike in key, held and available cards share one factor."""

    def __init__(self, fn, key):
        self.fn = fn
        self.key = key

    def __call__(self, k, c, J, T):
        return self.fn(k, c, J, T)


def _best_below(v, room, pts, code, wild_melds):
    """Tests for "every single meld is worth less than ``v``"."""
    rank_ok = _RankTest(lambda k, c, J, T: _rank_value(c, int(pts[k]), J, T, room, code) < v, lambda k: int(pts[k]))

    def wild_ok(J, T):
        return _wild_value(J, T, room, wild_melds) < v

    return rank_ok, wild_ok


def _hand_arrays(hand, rules):
    full = deck_counts(rules.jokers)
    if hand is None:
        return np.zeros_like(full), full
    base = np.asarray(hand, dtype=np.int64)
    return base, full - base


def first_meld_probability(hand_size: int, *, rules: CanastaRules | None = None, hand=None,
                           draws: int = 0) -> Fraction:
    """Probability that the hand can lay a first meld worth at least ``rules.min_first_meld``.

    A random ``hand_size``-card hand, or the given ``hand`` (counts per kind) after ``draws``
    cards from the rest of the pack. One card stays back for the discard.
    """
    rules = check_rules(rules)
    base, avail = _hand_arrays(hand, rules)
    ndraw = hand_size if hand is None else draws
    size = int(base.sum()) + ndraw
    pts, code, min_first, wm = meld_rules(rules)
    rank_ok, wild_ok = _best_below(min_first, size - 1, pts, code, wm)
    ways = _count(base, avail, ndraw, rank_ok, wild_ok)
    return 1 - Fraction(ways, math.comb(int(avail.sum()), ndraw))


def first_meld_by_wilds(hand_size: int, *, rules: CanastaRules | None = None) -> dict[int, Fraction]:
    """Probability of a first meld given the number of wild cards dealt: {wilds: probability}."""
    rules = check_rules(rules)
    base, avail = _hand_arrays(None, rules)
    pts, code, min_first, wm = meld_rules(rules)
    rank_ok, wild_ok = _best_below(min_first, hand_size - 1, pts, code, wm)
    n_wild = int(avail[JOKER] + avail[TWO])
    out = {}
    for w in range(min(n_wild, hand_size) + 1):
        dealt = math.comb(n_wild, w) * math.comb(int(avail.sum()) - n_wild, hand_size - w)
        closed = _count(base, avail, hand_size, rank_ok, lambda J, T, w=w: J + T == w and wild_ok(J, T))
        out[w] = 1 - Fraction(closed, dealt)
    return out


def first_meld_by_turn(turns: int, *, rules: CanastaRules | None = None, hand=None,
                       hand_size: int = 12) -> list[Fraction]:
    """Entry k: able to lay the first meld after k draws (cards kept, no pile)."""
    rules = check_rules(rules)
    if hand is None:
        return [first_meld_probability(hand_size + k, rules=rules) for k in range(turns + 1)]
    return [first_meld_probability(0, rules=rules, hand=hand, draws=k) for k in range(turns + 1)]


def canasta_by_turn(turns: int, *, rules: CanastaRules | None = None, hand=None,
                    hand_size: int = 12) -> list[Fraction]:
    """Entry k: holding 7 naturals of one rank after k draws."""
    rules = check_rules(rules)
    base, avail = _hand_arrays(hand, rules)
    rank_ok = _RankTest(lambda k, c, J, T: c < 7, lambda k: 0)
    out = []
    for k in range(turns + 1):
        ndraw = hand_size + k if hand is None else k
        ways = _count(base, avail, ndraw, rank_ok, lambda J, T: True)
        out.append(1 - Fraction(ways, math.comb(int(avail.sum()), ndraw)))
    return out


def max_natural_distribution(hand_size: int, *, rules: CanastaRules | None = None) -> dict[int, Fraction]:
    """Distribution of the most naturals of one rank (4..A) in a hand: {count: probability}."""
    rules = check_rules(rules)
    base, avail = _hand_arrays(None, rules)
    total = math.comb(int(avail.sum()), hand_size)
    cdf = []
    for m in range(9):
        rank_ok = _RankTest(lambda k, c, J, T, m=m: c <= m, lambda k: 0)
        cdf.append(Fraction(_count(base, avail, hand_size, rank_ok, lambda J, T: True), total))
    return {m: cdf[m] - (cdf[m - 1] if m else 0) for m in range(9)}


def _achievable_values(hand_size, rules):
    pts = rules.points()
    values = set()
    for p in {int(pts[k]) for k in NATURAL_KINDS}:
        for n in range(1, 9):
            for j in range(rules.jokers + 1):
                for t in range(9):
                    if n + j + t <= hand_size:
                        values.add(n * p + JOKER_POINTS * j + TWO_POINTS * t)
    for j in range(rules.jokers + 1):
        for t in range(9):
            values.add(JOKER_POINTS * j + TWO_POINTS * t)
    return sorted(v for v in values if v > 0)


def best_meld_distribution(hand_size: int, *, rules: CanastaRules | None = None) -> dict[int, Fraction]:
    """Distribution of the best first-meld value of a dealt hand (0 = no meld at all)."""
    rules = check_rules(rules)
    base, avail = _hand_arrays(None, rules)
    pts, code, _, wm = meld_rules(rules)
    total = math.comb(int(avail.sum()), hand_size)
    values = _achievable_values(hand_size, rules)
    out: dict[int, Fraction] = {}
    prev = Fraction(0)
    for lo, hi in zip([0] + values, values + [None]):
        if hi is None:
            below = Fraction(1)
        else:
            rank_ok, wild_ok = _best_below(hi, hand_size - 1, pts, code, wm)
            below = Fraction(_count(base, avail, hand_size, rank_ok, wild_ok), total)
        if below != prev:
            out[lo] = below - prev
        prev = below
        if below == 1:
            break
    return out


def pile_open_probability(hand_size: int, *, rules: CanastaRules | None = None) -> Fraction:
    """Probability that a dealt hand can lay a first meld holding the upcard (taking the pile).

    The player draws from the stock before the pile may be taken, so the meld is made from
    the ``hand_size`` dealt cards, the card drawn and the upcard."""
    rules = check_rules(rules)
    full = deck_counts(rules.jokers)
    pts, code, min_first, wm = meld_rules(rules)
    n = int(full.sum())
    room = hand_size + 1  # hand + drawn card + top card - one card for the discard
    prob = Fraction(0)
    for top in range(len(full)):
        if top in (BLACK3, RED3) or full[top] == 0:
            continue
        avail = full.copy()
        avail[top] -= 1
        base = np.zeros_like(full)
        if top in NATURAL_KINDS:
            rank_ok = _RankTest(lambda k, c, J, T, top=top: k != top
                                or _rank_value(c + 1, int(pts[k]), J, T, room, code) < min_first,
                                lambda k, top=top: (k == top, int(pts[k])))

            def wild_ok(J, T, need=0, add=None):  # the same parameters as the other branch's test
                return True
        else:
            need = 1 if top == JOKER else 2

            def add(J, T, top=top):
                return (J + 1, T) if top == JOKER else (J, T + 1)

            rank_ok = _RankTest(lambda k, c, J, T, need=need, add=add:
                                _rank_value(c, int(pts[k]), *add(J, T), room, code, need) < min_first,
                                lambda k: int(pts[k]))

            def wild_ok(J, T, need=need, add=add):
                return _wild_value(*add(J, T), room, wm, need) < min_first
        ways = _count(base, avail, hand_size + 1, rank_ok, wild_ok)
        p_top = Fraction(int(full[top]), n)
        prob += p_top * (1 - Fraction(ways, math.comb(n - 1, hand_size + 1)))
    return prob


def _hypergeom(population, good, draws):
    total = math.comb(population, draws)
    return {k: Fraction(math.comb(good, k) * math.comb(population - good, draws - k), total)
            for k in range(min(good, draws) + 1)}


def wild_distribution(cards: int, *, rules: CanastaRules | None = None) -> dict[int, Fraction]:
    """Wild cards (2s and Jokers) among ``cards`` dealt cards (12: a hand, 24: a partnership)."""
    rules = check_rules(rules)
    return _hypergeom(rules.deck_size, 8 + rules.jokers, cards)


def red_three_distribution(cards: int, *, rules: CanastaRules | None = None) -> dict[int, Fraction]:
    """Red 3s among ``cards`` dealt cards (12: a hand, 24: a partnership)."""
    rules = check_rules(rules)
    return _hypergeom(rules.deck_size, 4, cards)
