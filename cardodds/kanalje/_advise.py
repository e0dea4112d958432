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
from ._bits import bit, lowest, popcount
from ._kernels import (P_HEURISTIC, TABLE_SIZE, _copy, _scratch, heuristic_card, legal_cards, new_table, play_card,
                       play_out, play_out_basic, play_out_heuristic, score)
from .view import T

#: The most cards I can choose from: a lead with a full hand.
MAX_OPTIONS = 17
#: Pairs of options (i < j) whose paired differences are summed.
PAIRS = MAX_OPTIONS * (MAX_OPTIONS - 1) // 2

#: One observed play, for inference (rows of the ``obs`` array, in the order played): the seat,
#: the card, and for another seat's play its policy code and ``bound``, the fewest legal cards
#: it can have had there in any world (a random policy's likelihood of the play is 1 / legal
#: cards; -1 for my own plays, whose likelihood is the same in every world).
OBS = Layout("kanalje advice play", [("seat", 1), ("card", 1), ("code", 1), ("bound", 1)])
OB = OBS.at
#: What the kernel deals: the two other seats, the cards each must hold, the free cards, and
#: how many free cards seat ``a`` receives (seat ``b`` the rest).
DEAL = Layout("kanalje advice deal", [("a", 1), ("b", 1), ("forced_a", 1), ("forced_b", 1), ("free", 1),
                                      ("need_a", 1)])
#: Counts of an advice run, per option ``i`` (the ``i``-th card offered): my score, tricks
#: and penalty for the whole deal (sums and squares), the deals in which I took each jack
#: (``jack[4 * i + suit]``), and for every pair ``i < j`` the sum and square sum of my score
#: under ``i`` minus under ``j`` on the same world.
#:
#: With inference a world is kept with probability proportional to the likelihood of the
#: other seats' plays so far under their policies (:func:`accept`), so the worlds counted
#: are distributed as the worlds weighted by that likelihood.
ADVICE = Layout("kanalje advice", [
    ("deals", 1),  # worlds counted (with inference: those accepted)
    ("dealt", 1),  # worlds dealt
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


_TWO53 = 1.0 / 9007199254740992.0


@loop
def accept(state, w, deal, start, obs, r):
    """Keep the world ``w``? The deal is replayed from ``start`` (the table at the first lead,
    my whole hand in it and each other seat's played cards) with the hidden hands of ``w``
    added, and each play of another seat (:data:`OBS`) weighs the world: a heuristic seat's
    play must be the heuristic's choice there, a random seat's has likelihood 1 / (its legal
    cards), ``bound`` / (legal cards) relative to the most it can be. Kept with probability
    the product of those ratios, so the worlds kept are distributed as the worlds weighted by
    the likelihood of the plays. ``r``: a table of scratch."""
    _copy(r, start)
    a = deal[DL.a]
    b = deal[DL.b]
    r[T.hand + a] |= w[T.hand + a]
    r[T.hand + b] |= w[T.hand + b]
    acc = 1.0
    for i in range(obs.shape[0]):
        s = obs[i, OB.seat]
        c = obs[i, OB.card]
        code = obs[i, OB.code]
        if code >= 0:
            legal = legal_cards(r, s)
            if code == P_HEURISTIC:
                if heuristic_card(r, s, legal) != c:
                    return False
            else:
                acc *= obs[i, OB.bound] / popcount(legal)
        play_card(r, s, c)
    if acc >= 1.0:
        return True
    return (next_u64(state) >> np.uint64(11)) * _TWO53 < acc


@kernel
def sample_hands(state, n, t0, deal, hands, infer):
    """``n`` worlds of :func:`deal_hidden`: ``hands[i]`` the two hidden hands (``a``, ``b``) of world
    i, or -1 for a world :func:`accept` refuses when ``infer`` is ``(start, obs)`` (for the
    tests of the sampler)."""
    w = np.empty(TABLE_SIZE, dtype=np.int64)
    r = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    for i in range(n):
        deal_hidden(state, t0, deal, w, deck)
        ok = True
        if infer is not None:
            ok = accept(state, w, deal, infer[0], infer[1], r)
        hands[i, 0] = w[T.hand + deal[DL.a]] if ok else -1
        hands[i, 1] = w[T.hand + deal[DL.b]] if ok else -1


@kernel
def advise_kernel(state, n, out, t0, deal, seat, cards, pol, samples, user, infer):
    """``n`` worlds of the position ``t0``; in each, every card of ``cards`` played by ``seat``
    and the deal played out by policy codes ``pol`` (:data:`ADVICE`). Every card is played
    out from the same random state (drawn once per world), so the options are paired.
    ``pol`` is None for heuristic players alone, and ``user`` None for lineups of random and
    heuristic players: each compiles only its own play-out (the leanest first); else ``user``
    is the compiled user policy (or its stand-in). ``infer`` is None, or ``(start, obs)``
    to keep each world with the likelihood of the other seats' plays (:func:`accept`)."""
    w = np.empty(TABLE_SIZE, dtype=np.int64)
    t = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    sc = np.empty(MAX_OPTIONS, dtype=np.int64)
    sub = np.empty((2, 4), dtype=np.uint64)
    scr, rs = _scratch()
    _advise_loop(state, n, out, t0, deal, seat, cards, pol, samples, user, infer, w, t, deck, sc, sub, scr, rs)


@loop
def _advise_loop(state, n, out, t0, deal, seat, cards, pol, samples, user, infer, w, t, deck, sc, sub, scr, rs):
    k = cards.shape[0]
    for _ in range(n):
        deal_hidden(state, t0, deal, w, deck)
        out[A.dealt] += 1
        if infer is not None:
            if not accept(state, w, deal, infer[0], infer[1], t):
                continue
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
