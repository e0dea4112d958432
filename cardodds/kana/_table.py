"""Känä table mechanics, compiled: one round's hands, the känä, the turn rounds and the extra
rounds after a tie (docs/rules/kana.md §3.4). Private: integer arrays in, no validation.

Seats count clockwise from the round's starter (seat 0). A *key* orders kept pairs (the sum
of values, Superkänä above all); a hand's *combination* is its three ranks, lowest first, one
of :data:`COMBOS`. The chunk kernels (:mod:`._kernels`, :mod:`._advise`, :mod:`._session`)
play their rounds with these functions; the policies' decisions are :mod:`._policies`.

The packed rules are ``KanaRules.pack()`` (layout ``rules.RULES``): :func:`unpack_rules`
reads them once per chunk. Extra-round counts go to a block laid out by :data:`EXTRA`.
"""

from collections import namedtuple

import numpy as np

from .._jit import helper, inline, loop
from .._random import bounded, deal_from
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


#: A chunk's scratch arrays (:func:`new_work`).
Work = namedtuple("Work", ["hands", "kept", "kanad", "key", "tied", "dark", "winners", "deck", "saved", "state"])

COMBOS = 455  # multisets of three ranks


def _combo_table():
    t = np.full((13, 13, 13), -1, np.int64)
    k = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                t[a, b, c] = k
                k += 1
    return t


COMBO = _combo_table()


@helper
def unpack_rules(rules):
    """``(players, fresh_deck, extra_round_all, last_round_latest, variant)`` of the packed rules:
    every kernel reads them once per chunk."""
    return (rules[R.players], rules[R.fresh_deck], rules[R.extra_round_all], rules[R.last_round_latest],
            rules[R.variant])


@helper
def hand_key(a, b):
    """Order of a kept pair: the sum of values, Superkänä (two 2s) above everything."""
    ra = a >> 2
    rb = b >> 2
    if ra == 0 and rb == 0:
        return SUPERKANA
    return ra + rb + 4


@helper
def hand_value(a, b):
    """The hand's printed value 4..28 (Superkänä is 2 + 2 = 4)."""
    return (a >> 2) + (b >> 2) + 4


@inline
def best_so_far(kk, p, best, count, lead):
    """Seat ``p``'s key ``kk`` joins the best key so far, how many seats hold it, and the
    first of them. Scalars only, so inlining it is free; inlined (two call sites), it saves
    the first odds a compiled function of its own."""
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

    Out of line on purpose: inlined, the bounded draw's rejection loop keeps LLVM from
    keeping the round loop in registers.
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
def play_extra_rounds(s, out, block, deck, i, m, n, k, tied, kept, extra_rules, dark):
    """Extra rounds after a tie for the best hand, until one player wins; returns
    ``(winner, i, m, restocked)``. ``tied[:k]`` holds the tied seats on entry (``kept`` their
    kept cards); their counts go to the extra-round block of ``out`` at ``block``.
    ``extra_rules`` is ``(fresh_deck, extra_round_all)`` of the rules.

    Compiled without reference counting: the callers' hot loops are too, and a call from
    there then costs no atomic update per array argument.
    """
    fresh, extra_all = extra_rules
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
        for j in range(2 * k):
            # Two cards each, both unseen: känäing the first is as good as any blind choice,
            # so the second is the dark card. One call site of the inlined deal_from, not two:
            # each would be typed and lowered again.
            dark[j >> 1], word, have = deal_from(s, deck, i, m, word, have)
            i += 1
        top = -1
        h = 0
        winner = 0
        for j in range(k):
            r = dark[j] >> 2
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
    position is turned first (a blind choice too). Scalars only, so inlining it is free; inlined
    (two call sites), it saves the first odds a compiled function of its own."""
    if pos == 0:
        return h1, h2
    if pos == 1:
        return h0, h2
    return h0, h1


@helper
def sort3(r0, r1, r2):
    """Positions 0..2 ordered by rank (ties keep position order)."""
    a, b, c = 0, 1, 2
    ra, rb, rc = r0, r1, r2
    if rb < ra:
        a, b = b, a
        ra, rb = rb, ra
    if rc < rb:
        b, c = c, b
        rb, rc = rc, rb
        if rb < ra:
            a, b = b, a
            ra, rb = rb, ra
    return a, b, c, ra, rb, rc


@helper
def combo_of(h0, h1, h2):
    a, b, c, ra, rb, rc = sort3(h0 >> 2, h1 >> 2, h2 >> 2)
    return COMBO[ra, rb, rc]


@helper
def kana_card(hand, pos, p, kanad, kept):
    """Seat ``p`` känäs ``hand[pos]``; the other two, in order, are its kept cards."""
    h0 = hand[0]
    h1 = hand[1]
    h2 = hand[2]
    kanad[p] = hand[pos]
    # Selects, not a loop over the three: a hot loop's branch on the position mispredicts.
    kept[p, 0] = h1 if pos == 0 else h0
    kept[p, 1] = h1 if pos == 2 else h2


def new_work(n, C):
    """Scratch arrays for a table of ``n`` played under ``C`` configurations or options.

    Plain Python, called by the chunk functions before their compiled loop (less to compile)."""
    return Work(np.empty((n, 3), np.int64), np.empty((n, 2), np.int64), np.empty(n, np.int64),
                np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(C, np.int64),
                np.empty(52, np.int64), np.empty(52, np.int64), np.empty(4, np.uint64))


@helper
def peeked_cards(variant):
    """How many of its cards a player has seen: 0 official, 1 peek-one, 3 peek-all."""
    return 0 if variant == 0 else (1 if variant == 1 else 3)


@inline
def settle(s, out, block, deck, i, m, n, extra_rules, kept, key, tied, dark):
    """The turn rounds and any extra rounds of the hands in ``kept``: returns ``(winner,
    restocked)``; extra-round counts go to the block at ``block``. Scratch arrays come apart
    (bound once by the caller), as for :func:`decide`."""
    best = -1
    for p in range(n):
        kk = hand_key(kept[p, 0], kept[p, 1])
        key[p] = kk
        if kk > best:
            best = kk
    k = np.int64(0)  # not the literal 0: numba would compile play_extra_rounds twice
    for p in range(n):
        if key[p] == best:
            tied[k] = p
            k += 1
    if k == 1:
        out[block + X.per_round] += 1  # settled without an extra round
        return tied[0], False
    winner, i, m, restocked = play_extra_rounds(s, out, block, deck, i, m, n, k, tied, kept, extra_rules, dark)
    return winner, restocked
