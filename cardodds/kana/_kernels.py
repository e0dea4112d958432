"""Compiled Känä rounds. Private: integer arrays in, counts out, no validation.

Seats count clockwise from the round's starter (seat 0). A seat's three cards have *roles*
once the känä round is over: 0 = the känäd card, 1 = the first turned card, 2 = the
second turned card. ``fixed[seat, role]`` holds a card already shown (live odds) or -1.

Strategies are data (see ``cardodds.kana.strategies``), so every mix of players at a
table runs through one compiled kernel.

The packed rules are ``KanaRules.pack()`` (layout ``rules.RULES``); the counts of ``out`` for
``n`` players are laid out by :func:`round_layout` (wins, seat 0's hand value, the last turn
round's starter, and the extra-round block :data:`EXTRA`). Kernels read both by field name.
"""

import numpy as np

from .._jit import helper, inline, kernel, loop
from .._random import bounded, deal3_from, deal_from
from ..layout import Layout
from .rules import RULES

_U1 = np.uint64(1)
SUPERKANA = 29  # key of two 2s: above the best sum, 28
PER_ROUND_BINS = 16  # rounds by number of extra rounds played, the last bin "15 or more"


#: Counts of the extra rounds after a tie, one block per table played (``block`` + field).
EXTRA = Layout("kana extra rounds", [
    ("needed", 1),  # rounds needing an extra round
    ("played", 1),  # extra rounds played
    ("by_players", 18),  # extra rounds by number of players in them
    ("tied_again", 18),  # extra rounds tied again, by number of players
    ("reshuffles", 1),  # stock reshuffles
    ("per_round", PER_ROUND_BINS),  # rounds by number of extra rounds
])
EXTRA_BLOCK = EXTRA.size
X = EXTRA.at
R = RULES.at


def round_layout(n: int) -> Layout:
    """Counts of :func:`play_rounds` at a table of ``n``."""
    return Layout("kana round counts", [
        ("wins", n),
        ("hand_value", 25),  # seat 0's hand value 4..28
        ("last_round_starter", n),
        ("extra", EXTRA.size),
    ])


#: Field numbers of :func:`round_layout` (its sizes depend on ``n``; the kernel gets the offsets).
ROUND = round_layout(2).index


@inline
def unpack_rules(rules):
    """``(players, fresh_deck, extra_round_all, last_round_latest, variant)`` of the packed rules:
    every kernel reads them once per chunk."""
    return (rules[R.players], rules[R.fresh_deck], rules[R.extra_round_all], rules[R.last_round_latest],
            rules[R.variant])


@inline
def hand_key(a, b):
    """Order of a kept pair: the sum of values, Superkänä (two 2s) above everything."""
    ra = a >> 2
    rb = b >> 2
    if ra == 0 and rb == 0:
        return SUPERKANA
    return ra + rb + 4


@inline
def hand_value(a, b):
    """The hand's printed value 4..28 (Superkänä is 2 + 2 = 4)."""
    return (a >> 2) + (b >> 2) + 4


@inline
def best_so_far(kk, p, best, count, lead):
    """Seat ``p``'s key ``kk`` joins the best key so far, how many seats hold it, and the
    first of them. Scalars only, so inlining it is free."""
    if kk > best:
        return kk, 1, p
    if kk == best:
        return best, count + 1, lead
    return best, count, lead


@helper
def best_holders(key, n, holders):
    """Write the seats holding the highest key into ``holders``; return how many."""
    top = key[0]
    for p in range(1, n):
        if key[p] > top:
            top = key[p]
    k = 0
    for p in range(n):
        if key[p] == top:
            holders[k] = p
            k += 1
    return k


@helper
def _restock(deck, base_deck):
    m = base_deck.shape[0]
    for j in range(m):
        deck[j] = base_deck[j]
    return m


@helper
def _reshuffle_stock(deck, keep_out):
    """Every card not in ``keep_out`` (a bit mask) becomes the stock ``deck[:m]``."""
    m = 0
    for c in range(52):
        if (keep_out >> np.uint64(c)) & _U1 == np.uint64(0):
            deck[m] = c
            m += 1
    return m


@helper
def random_position(s):
    """A blind känä at a uniformly random one of three positions.

    Out of line on purpose: inlined, the rejection loop of the bounded draw keeps LLVM
    from keeping the round loop in registers (about 30% slower).
    """
    return bounded(s, 3)


@helper
def deal_kept(s, deck, i, m, a, b):
    """The kept cards of a seat whose känäd card is shown: those not shown (-1) are dealt."""
    if a < 0:
        a, _, _ = deal_from(s, deck, i, m, np.uint64(0), 0)
        i += 1
    if b < 0:
        b, _, _ = deal_from(s, deck, i, m, np.uint64(0), 0)
        i += 1
    return a, b, i


@loop
def play_extra_rounds(s, out, block, deck, i, m, n, k, tied, kept, fresh, extra_all, dark):
    """Extra rounds after a tie for the best hand, until one player wins; returns
    ``(winner, i, m, restocked)``. ``tied[:k]`` holds the tied seats on entry (``kept`` their
    kept cards); their counts go to the extra-round block of ``out`` at ``block``.

    Compiled without reference counting: the callers' hot loops are too, and a call from
    there then costs no atomic update per array argument (with them, the call cost the lean
    round loop a third of its time).
    """
    out[block + X.needed] += 1
    if extra_all:
        k = n
        for p in range(n):
            tied[p] = p
    word = np.uint64(0)
    have = 0
    rounds = 0
    restocked = False
    while True:
        rounds += 1
        out[block + X.played] += 1
        out[block + X.by_players + k] += 1
        if fresh:
            m = _reshuffle_stock(deck, np.uint64(0))
            i = 0
            restocked = True
        elif m - i < 2 * k:
            # Cards in the tied players' hands stay out of the new stock: their kept cards in
            # the first extra round, their dark cards after.
            handmask = np.uint64(0)
            for j in range(k):
                if rounds == 1:
                    handmask |= (_U1 << np.uint64(kept[tied[j], 0])) | (_U1 << np.uint64(kept[tied[j], 1]))
                else:
                    handmask |= _U1 << np.uint64(dark[j])
            m = _reshuffle_stock(deck, handmask)
            i = 0
            restocked = True
            out[block + X.reshuffles] += 1
        top = -1
        h = 0
        winner = 0
        for j in range(k):
            _c1, word, have = deal_from(s, deck, i, m, word, have)
            c2, word, have = deal_from(s, deck, i + 1, m, word, have)
            i += 2
            dark[j] = c2  # both cards unseen: känäing the first is as good as any blind choice
            r = c2 >> 2
            if r > top:
                top = r
                h = 1
                winner = tied[j]
            elif r == top:
                h += 1
        if h == 1:
            out[block + X.per_round + min(rounds, PER_ROUND_BINS - 1)] += 1
            return winner, i, m, restocked
        out[block + X.tied_again + k] += 1
        h = 0
        for j in range(k):
            if dark[j] >> 2 == top:
                tied[h] = tied[j]
                dark[h] = dark[j]
                h += 1
        k = h


@inline
def kept_pair(h0, h1, h2, pos):
    """The kept cards when the card at ``pos`` is känäd, in turning order: of the two the lower
    position is turned first (a blind choice too). Scalars only, so inlining it is free."""
    if pos == 0:
        return h1, h2
    if pos == 1:
        return h0, h2
    return h0, h1


@inline
def _kept_offsets(pos):
    """Where a seat's kept cards lie in its three dealt cards when it känäs position ``pos``:
    of the two the lower position is turned first (a blind choice too)."""
    return (1 if pos == 0 else 0), (1 if pos == 2 else 2)


@helper
def _unshown_rounds(s, nrounds, out, n, fresh, extra_all, last_latest, o_wins, o_hist, o_last, o_extra, args,
                    base_deck):
    """:func:`play_rounds` with no card shown: the common path, kept lean. Allocates the
    chunk's arrays; the rounds are :func:`_unshown_loop`."""
    kept = np.empty((n, 2), np.int64)
    tied = np.empty(n, np.int64)
    dark = np.empty(n, np.int64)  # the tied players' dark cards in an extra round
    pos_of = np.empty(n, np.int64)  # each seat's känä this round
    # Rounds by (seat 0's hand value, last round's starter, winner or n for a tie): one count
    # per round instead of three keeps the round loop as lean as a loop that only deals.
    tally = np.zeros(25 * n * (n + 1), np.int64)
    deck = np.empty(52, np.int64)
    _unshown_loop(s, nrounds, out, n, fresh, extra_all, last_latest, o_wins, o_hist, o_last, o_extra, args,
                  base_deck, kept, tied, dark, pos_of, tally, deck)


@loop
def _unshown_loop(s, nrounds, out, n, fresh, extra_all, last_latest, o_wins, o_hist, o_last, o_extra, args,
                  base_deck, kept, tied, dark, pos_of, tally, deck):
    """The rounds of :func:`_unshown_rounds`.

    A seat's three cards stay where they were dealt, ``deck[3p:3p+3]``, so its kept cards
    are read back from there only when a tie needs them.
    """
    m = _restock(deck, base_deck)
    for p in range(n):
        pos_of[p] = args[p]
    flip = 31 if last_latest else 0
    o_per = o_extra + X.per_round
    ties = 0
    zero = np.int64(0)  # not the literal 0: numba would compile play_extra_rounds twice
    for _ in range(nrounds):
        i = zero
        best = -1
        count = 0
        lead = 0
        low = 1 << 20
        v0 = 0
        for p in range(n):
            h0, h1, h2 = deal3_from(s, deck, i, m)
            i += 3
            pos = args[p]
            if pos < 0:
                pos = random_position(s)
                pos_of[p] = pos
            a, b = kept_pair(h0, h1, h2, pos)
            ra = a >> 2
            rb = b >> 2
            kk = ra + rb + 4
            if p == 0:
                v0 = kk
            if (ra | rb) == 0:
                kk = SUPERKANA
            best, count, lead = best_so_far(kk, p, best, count, lead)
            # The lowest first-turned card starts the last round; ties go to the earliest
            # seat, or the latest (flip = 31). A minimum, not a branch: the branch would
            # mispredict about once a round.
            low = min(low, ra * 32 + (p ^ flip))
        starter = (low & 31) ^ flip
        if count == 1:
            tally[((v0 - 4) * n + starter) * (n + 1) + lead] += 1
            continue
        tally[((v0 - 4) * n + starter) * (n + 1) + n] += 1
        ties += 1
        # Only now are the kept cards needed (about one round in eleven at four players).
        k = zero
        for p in range(n):
            ka, kb = _kept_offsets(pos_of[p])
            kept[p, 0] = deck[3 * p + ka]
            kept[p, 1] = deck[3 * p + kb]
            if hand_key(kept[p, 0], kept[p, 1]) == best:
                tied[k] = p
                k += 1
        winner, i, m, restocked = play_extra_rounds(s, out, o_extra, deck, i, m, n, k, tied, kept, fresh, extra_all,
                                                    dark)
        out[o_wins + winner] += 1
        if restocked:
            m = _restock(deck, base_deck)
    # Fold the tally into the counts' own fields.
    for v in range(25):
        for st in range(n):
            for w in range(n + 1):
                c = tally[(v * n + st) * (n + 1) + w]
                out[o_hist + v] += c
                out[o_last + st] += c
                if w < n:
                    out[o_wins + w] += c
    out[o_per] += nrounds - ties  # rounds settled without an extra round


@kernel
def play_rounds(s, nrounds, out, rules, lay, args, fixed, base_deck):
    """Play ``nrounds`` rounds under the official rules (blind känä) and add their counts.

    ``rules`` is ``KanaRules.pack()``; ``lay`` the offsets of :func:`round_layout`.
    ``args[seat]`` is the position (0..2) a seat känäs, -1 for a random one. ``fixed`` holds
    the shown cards (rows of seats with a shown känäd card come first, as the känä round
    goes) or is None: numba then compiles only the lean path (:func:`_unshown_rounds`), the
    common case, and never the shown-card one. ``base_deck`` lists the cards not shown.
    """
    n, fresh, extra_all, last_latest, _variant = unpack_rules(rules)
    o_wins = lay[ROUND.wins]
    o_hist = lay[ROUND.hand_value]
    o_last = lay[ROUND.last_round_starter]
    o_extra = lay[ROUND.extra]
    if fixed is None:  # known when compiling: the other branch is not compiled
        _unshown_rounds(s, nrounds, out, n, fresh, extra_all, last_latest, o_wins, o_hist, o_last, o_extra, args,
                        base_deck)
    else:
        _shown_rounds(s, nrounds, out, n, fresh, extra_all, last_latest, o_wins, o_hist, o_last, o_extra, args,
                      fixed, base_deck)


@helper
def _shown_rounds(s, nrounds, out, n, fresh, extra_all, last_latest, o_wins, o_hist, o_last, o_extra, args, fixed,
                  base_deck):
    """:func:`play_rounds` with cards shown (live odds): a seat's shown cards are fixed."""
    o_per = o_extra + X.per_round
    kept = np.empty((n, 2), np.int64)
    key = np.empty(n, np.int64)
    tied = np.empty(n, np.int64)
    dark = np.empty(n, np.int64)
    deck = np.empty(52, np.int64)
    m = _restock(deck, base_deck)
    nshown = 0
    while nshown < n and fixed[nshown, 0] >= 0:
        nshown += 1
    ties = 0
    for _ in range(nrounds):
        i = 0
        best = -1
        count = 0
        lead = 0
        low = 99
        starter = 0
        # Känä round, clockwise from the starter. The first and last turn rounds only show
        # the kept cards, so the best hand and the last round's starter are known right here.
        for p in range(n):
            if p < nshown:
                a, b, i = deal_kept(s, deck, i, m, fixed[p, 1], fixed[p, 2])
            else:
                h0, h1, h2 = deal3_from(s, deck, i, m)
                i += 3
                pos = args[p]
                if pos < 0:
                    pos = random_position(s)
                a, b = kept_pair(h0, h1, h2, pos)
            kept[p, 0] = a
            kept[p, 1] = b
            kk = hand_key(a, b)
            best, count, lead = best_so_far(kk, p, best, count, lead)
            r = a >> 2
            if r < low or (last_latest and r == low):
                low = r
                starter = p
        out[o_last + starter] += 1
        out[o_hist + hand_value(kept[0, 0], kept[0, 1]) - 4] += 1
        if count == 1:
            out[o_wins + lead] += 1
            continue
        ties += 1
        # Only now are the keys needed again (about one round in eleven at four players).
        for p in range(n):
            key[p] = hand_key(kept[p, 0], kept[p, 1])
        best_holders(key, n, tied)
        winner, i, m, restocked = play_extra_rounds(
            s, out, o_extra, deck, i, m, n, count, tied, kept, fresh, extra_all, dark
        )
        out[o_wins + winner] += 1
        if restocked:
            m = _restock(deck, base_deck)
    out[o_per] += nrounds - ties  # rounds settled without an extra round
