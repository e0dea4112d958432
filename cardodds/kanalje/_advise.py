"""Compiled Kanalje advice: the hidden hands of a position dealt consistently, every legal
card played out on the same worlds (see ``advise.py`` for the public function).

A *position* is the table of :mod:`cardodds.kanalje.view` after the tricks played so far,
with my hand in it and the two other hands empty; what the kernel deals into those hands is
described by a :data:`DEAL` array the wrapper fills from what I saw: the cards each other
seat must hold (the unseen cards of a suit the other seat has shown void in), the free
cards, and how many of them go to the first of the two seats. Every split of the free cards
that fills the hand sizes is equally likely, so taking a uniform ordered draw of that many
free cards (:func:`cardodds._random.shuffle_prefix`, the one dealing routine) deals the
hidden hands uniformly over every deal consistent with the position.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, loop
from .._random import next_u64, shuffle_prefix
from ..layout import Layout
from ._bits import bit, lowest
from ._kernels import (TABLE_SIZE, _copy, _scratch, new_table, play_card, play_out, play_out_basic,
                       play_out_heuristic, score)
from .view import T

#: The most cards I can choose from: a lead with a full hand.
MAX_OPTIONS = 17
#: Pairs of options (i < j) whose paired differences are summed.
PAIRS = MAX_OPTIONS * (MAX_OPTIONS - 1) // 2

#: What the kernel deals: the two other seats, the cards each must hold, the free cards, and
#: how many free cards seat ``a`` receives (seat ``b`` the rest).
DEAL = Layout("kanalje advice deal", [("a", 1), ("b", 1), ("forced_a", 1), ("forced_b", 1), ("free", 1),
                                      ("need_a", 1)])
#: Counts of an advice run, per option ``i`` (the ``i``-th card offered): my score, tricks
#: and penalty for the whole deal (sums and squares), the deals in which I took each jack
#: (``jack[4 * i + suit]``), and for every pair ``i < j`` the sum and square sum of my score
#: under ``i`` minus under ``j`` on the same world.
ADVICE = Layout("kanalje advice", [
    ("deals", 1),
    ("score", MAX_OPTIONS), ("score_sq", MAX_OPTIONS),
    ("tricks", MAX_OPTIONS), ("tricks_sq", MAX_OPTIONS),
    ("penalty", MAX_OPTIONS), ("penalty_sq", MAX_OPTIONS),
    ("jack", 4 * MAX_OPTIONS),
    ("pair", PAIRS), ("pair_sq", PAIRS),
    ("violations", 1),
])
DL = DEAL.at
A = ADVICE.at


def pair_index(i: int, j: int) -> int:
    """Where the pair ``i < j`` sits in :data:`ADVICE`'s ``pair`` fields."""
    return i * (2 * MAX_OPTIONS - i - 1) // 2 + (j - i - 1)


@loop
def deal_hidden(state, t0, deal, w, deck):
    """``w`` = the position ``t0`` with the two hidden hands dealt at random as ``deal``
    (:data:`DEAL`) says; ``deck`` is 52 int64 of scratch."""
    _copy(w, t0)
    free = deal[DL.free]
    m = 0
    x = free
    while x != 0:
        deck[m] = lowest(x)
        x &= x - 1
        m += 1
    need = deal[DL.need_a]
    if m > 1:
        shuffle_prefix(state, deck, min(need, m - 1), m)
    a = deal[DL.forced_a]
    for i in range(need):
        a |= bit(deck[i])
    w[T.hand + deal[DL.a]] = a
    w[T.hand + deal[DL.b]] = deal[DL.forced_b] | (free & ~a)


@kernel
def sample_hands(state, n, t0, deal, hands):
    """``n`` worlds of :func:`deal_hidden`: ``hands[i]`` the two hidden hands (``a``, ``b``) of world i
    (for the tests of the sampler)."""
    w = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    for i in range(n):
        deal_hidden(state, t0, deal, w, deck)
        hands[i, 0] = w[T.hand + deal[DL.a]]
        hands[i, 1] = w[T.hand + deal[DL.b]]


@kernel
def advise_kernel(state, n, out, t0, deal, seat, cards, pol, samples, user):
    """``n`` worlds of the position ``t0``; in each, every card of ``cards`` played by ``seat``
    and the deal played out by policy codes ``pol`` (:data:`ADVICE`). Every card is played
    out from the same random state (drawn once per world), so the options are paired.
    ``pol`` is None for heuristic players alone, and ``user`` None for lineups of random and
    heuristic players: each compiles only its own play-out (the leanest first); else ``user``
    is the compiled user policy (or its stand-in)."""
    w = np.empty(TABLE_SIZE, dtype=np.int64)
    t = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    sc = np.empty(MAX_OPTIONS, dtype=np.int64)
    sub = np.empty((2, 4), dtype=np.uint64)
    scr, rs = _scratch()
    _advise_loop(state, n, out, t0, deal, seat, cards, pol, samples, user, w, t, deck, sc, sub, scr, rs)


@loop
def _advise_loop(state, n, out, t0, deal, seat, cards, pol, samples, user, w, t, deck, sc, sub, scr, rs):
    k = cards.shape[0]
    for _ in range(n):
        deal_hidden(state, t0, deal, w, deck)
        for j in range(4):
            sub[0, j] = next_u64(state)
        for i in range(k):
            _copy(t, w)
            _copy(sub[1], sub[0])
            if not play_card(t, seat, cards[i]):
                if pol is None:
                    play_out_heuristic(sub[1], t)
                elif user is None:
                    play_out_basic(sub[1], t, pol)
                else:
                    play_out(sub[1], t, pol, samples, user, scr, rs)
            sc[i] = _record_option(out, t, seat, i)
        _record_pairs(out, sc, k)
        out[A.deals] += 1


@loop
def _record_option(out, t, seat, i):
    """Option ``i``'s figures on a finished world; returns my score."""
    s = score(t, seat)
    tr = t[T.tricks + seat]
    pen = t[T.penalty + seat]
    out[A.score + i] += s
    out[A.score_sq + i] += s * s
    out[A.tricks + i] += tr
    out[A.tricks_sq + i] += tr * tr
    out[A.penalty + i] += pen
    out[A.penalty_sq + i] += pen * pen
    for s4 in range(4):
        if t[T.jack_taker + s4] == seat:
            out[A.jack + 4 * i + s4] += 1
    out[A.violations] += t[T.violations]
    return s


@loop
def _record_pairs(out, sc, k):
    q = 0
    for i in range(k):
        for j in range(i + 1, MAX_OPTIONS):
            if j < k:
                d = sc[i] - sc[j]
                out[A.pair + q] += d
                out[A.pair_sq + q] += d * d
            q += 1


@kernel
def position(t, rules, turned, hands, seats, cards):
    """``t`` = a new deal (seat 0 leads, ``turned`` turned) whose seats hold ``hands``, after
    ``cards[i]`` was played by ``seats[i]`` in order (the tricks of a position)."""
    new_table(t, rules, 0, turned, 0)
    for s in range(hands.shape[0]):
        t[T.hand + s] = hands[s]
    for i in range(cards.shape[0]):
        play_card(t, seats[i], cards[i])
