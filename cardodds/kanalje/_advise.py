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

from collections import namedtuple

import numpy as np
from numba import types

from .._jit import Pointer, helper, kernel, loop
from .._random import next_u64, shuffle_prefix
from ..layout import Layout
from ._bits import JACK_RANK, bit, lowest, popcount
from ._play import play_option_out
from ._policies import (
    P_HEURISTIC,
    heuristic_card,
    new_scratch,
    play_heuristic_until_inlined,
    representatives,
    sample_phase1,
)
from ._table import (
    STOCK,
    TABLE_SIZE,
    T,
    copy_into,
    legal_cards,
    new_table,
    open_phase1,
    play_any,
    score,
)

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
#: how many free cards seat ``a`` receives (seat ``b`` the rest). ``mode``: :data:`HIDDEN_SEATS`
#: (three players: ``a`` and ``b`` are the other seats), :data:`HIDDEN_DEAD` (two players, phase 2:
#: ``a`` is the opponent, ``b`` the dead phase-1 tricks I do not know) or :data:`HIDDEN_PHASE1` (two
#: players, phase 1: the opponent ``a``'s cards other than the face-up ones it took and the stock under
#: the face-up card redealt as the look-ahead player does, :func:`~._policies.sample_world`).
DEAL = Layout("kanalje advice deal", [("a", 1), ("b", 1), ("forced_a", 1), ("forced_b", 1), ("free", 1),
                                      ("need_a", 1), ("mode", 1)])
HIDDEN_SEATS, HIDDEN_DEAD, HIDDEN_PHASE1 = 0, 1, 2
#: Counts of an advice run. Each world counted has an integer weight ``w`` (1 without
#: inference; with it, the likelihood of the other seats' plays relative to its most,
#: times :data:`WEIGHT_SCALE`, rounded up or down at random so that its mean is exact, see
#: :func:`likelihood_ratio`). A *figure* is four sums (``[4, size]``): of ``w x``, ``w x²``,
#: ``w² x`` and ``w² x²`` (a weighted mean and its standard error), for my score, tricks and
#: penalty for the whole deal per option ``i`` (the ``i``-th card offered), and for every
#: pair ``i < j`` my score under ``i`` minus under ``j`` on the same world (``pair``). ``jack``
#: is ``[2, option, suit]``: the sums of ``w`` and ``w²`` over the worlds in which I took that jack.
#: With the game at stake (``stake``), ``equity`` is my P(win the game) after the deal in
#: :data:`EQUITY_SCALE` steps, and ``pair_equity`` its paired differences; else zero.
ADVICE = Layout("kanalje advice", [
    ("deals", 1),  # worlds counted (weight above 0)
    ("dealt", 1),  # worlds dealt
    ("weight", 1), ("weight_sq", 1),  # sums of w and w²
    ("score", 4 * MAX_OPTIONS), ("tricks", 4 * MAX_OPTIONS), ("penalty", 4 * MAX_OPTIONS),
    ("jack", 2 * 4 * MAX_OPTIONS),
    ("pair", 4 * PAIRS),
    ("violations", 1),
    ("equity", 4 * MAX_OPTIONS), ("pair_equity", 4 * PAIRS),
])
#: The integer steps of one P(win) in ``equity`` (the shipped tables' 1/65535, halved: a tie
#: shared by two or three seats is whole steps).
EQUITY_SCALE = 131070
#: ``stake`` of :func:`advise_kernel`: each seat's total before the deal (int64), the equity
#: table's ``grid`` (its lowest score, scores a seat, the target) and ``value[j, state]`` (the
#: frame of the deal's leader, :class:`cardodds.equity.EquityTable`).
Stake = namedtuple("Stake", ["before", "grid", "value"])
#: The weight of a world whose likelihood is the most it can be (with inference).
WEIGHT_SCALE = 4096
DL = DEAL.at
A = ADVICE.at


def pair_index(i: int, j: int) -> int:
    """Where the pair ``i < j`` sits in :data:`ADVICE`'s ``pair`` fields."""
    return i * (2 * MAX_OPTIONS - i - 1) // 2 + (j - i - 1)


@loop
def deal_hidden(state, t0, deal, w, deck, phase1):
    """``w`` = the position ``t0`` with the hidden cards dealt at random as ``deal``
    (:data:`DEAL`) says; ``deck`` is 52 int64 of scratch. Returns what ``b`` receives (phase 1:
    the card under the face-up one, which the trick's loser draws face down). ``phase1`` is
    None except in phase 1 (mode :data:`HIDDEN_PHASE1`): numba then compiles no phase-1 code."""
    copy_into(w, t0)
    if phase1 is not None:
        # sample_world's phase-1 branch, inlined: phase-1 advice then compiles no other sampler
        sample_phase1(state, t0, 1 - deal[DL.a], w, deck)
        return bit(w[T.stock + w[T.stock_pos] + 1])
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
    b = deal[DL.forced_b] | (free & ~a)
    if deal[DL.mode] == HIDDEN_DEAD:  # the phase-1 tricks: dead, known to the players of the world
        w[T.played] |= b
        w[T.phase1_played] |= b
    else:
        w[T.hand + deal[DL.b]] = b
    return b


_TWO53 = 1.0 / 9007199254740992.0


@loop
def likelihood_ratio(state, w, deal, start, obs, r):
    """The weight of the world ``w``: the likelihood of the other seats' plays in it relative
    to the most it can be, times :data:`WEIGHT_SCALE`, rounded down or up at random (so its
    mean is exact). The deal is replayed from ``start`` (the table at the first lead, my whole
    hand in it and each other seat's played cards) with the hidden hands of ``w`` added; each
    play of another seat (:data:`OBS`) weighs the world: a heuristic seat's play must be the
    heuristic's choice there (else the weight is 0), a random seat's has likelihood
    1 / (its legal cards), ``bound`` / (legal cards) relative to the most it can be in any
    world. ``r``: a table of scratch."""
    copy_into(r, start)
    a = deal[DL.a]
    b = deal[DL.b]
    r[T.hand + a] |= w[T.hand + a]
    r[T.hand + b] |= w[T.hand + b]
    r[T.played] |= w[T.phase1_played]  # two players, phase 2: the dead cards of the world
    r[T.phase1_played] |= w[T.phase1_played]
    acc = 1.0
    for i in range(obs.shape[0]):
        s = obs[i, OB.seat]
        c = obs[i, OB.card]
        code = obs[i, OB.code]
        if code >= 0:
            legal = legal_cards(r, s)
            if code == P_HEURISTIC:
                if heuristic_card(r, s, legal) != c:
                    acc = 0.0
            else:
                acc *= obs[i, OB.bound] / popcount(legal)
        play_any(state, r, s, c, None)  # the trick play: inference is refused in phase 1
    return np.int64(acc * WEIGHT_SCALE + (next_u64(state) >> np.uint64(11)) * _TWO53)


#: Columns of :func:`sample_hands`' record of a world: the two hidden hands and the world's weight.
HAND_A, HAND_B, WEIGHT = 0, 1, 2


@kernel
def sample_hands(state, n, t0, deal, hands, infer):
    """``n`` worlds of :func:`deal_hidden`: ``hands[i]`` the two hidden hands (``a``, ``b``) of world
    i and its weight (1, or :func:`likelihood_ratio` when ``infer`` is ``(start, obs)``), for
    the tests of the sampler."""
    w = np.empty(TABLE_SIZE, dtype=np.int64)
    r = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.empty(52, dtype=np.int64)
    for i in range(n):
        if deal[DL.mode] == HIDDEN_PHASE1:
            hands[i, HAND_B] = deal_hidden(state, t0, deal, w, deck, True)
        else:
            hands[i, HAND_B] = deal_hidden(state, t0, deal, w, deck, None)
        hands[i, WEIGHT] = 1 if infer is None else likelihood_ratio(state, w, deal, infer[0], infer[1], r)
        hands[i, HAND_A] = w[T.hand + deal[DL.a]]


#: The advised position as the kernel reads it (:class:`._position.Known`'s arrays): its
#: table ``t0``, hidden-card layout ``deal``, the seat, its legal ``cards`` and ``same``
#: (:func:`interchangeable`).
PositionArrays = namedtuple("PositionArrays", ["t0", "deal", "seat", "cards", "same"])
#: The advice loop's arrays: a world, a table to play it on, a deck, the options' results, the
#: random states of a world, the searches' scratch (:func:`._policies.new_scratch`), and the
#: worlds a look-ahead or pimc decision samples.
AdviceWork = namedtuple("AdviceWork", ["w", "t", "deck", "res", "sub", "scr", "rs", "samples"])


def advise_kernel(state, n, out, position, pol, samples, calls, infer, phase1, stake=None):
    """``n`` worlds of the :data:`PositionArrays`; in each, every card of ``cards`` played by ``seat``
    and the deal played out by policy codes ``pol`` (:data:`ADVICE`). Every card is played
    out from the same random state (drawn once per world), so the options are paired.
    ``pol`` is None for heuristic players alone, and ``calls`` None for lineups of random and
    heuristic players: each compiles only its own play-out (the leanest first); else ``calls``
    is what the play-outs call through a pointer (:func:`._policies.calls`); heuristic players
    alone play a world's options out through a pointer too (:data:`PLAY_OUT_OPTIONS`). ``infer`` is
    None, or ``(start, obs)`` to weigh each world by the likelihood of the other seats' plays
    (:func:`likelihood_ratio`).
    ``phase1`` is None, or True for a two-player phase-1 position (:func:`deal_hidden`).
    ``same[i]`` is the option whose heuristic play-out option ``i`` repeats card for card
    (:func:`interchangeable`; ``i`` itself for none): with ``pol`` None, its figures are copied.
    ``stake`` is None, or a :data:`Stake`: each option's equity is counted too (:func:`equity_after`)."""
    # Plain Python around the compiled loop, as the deals kernels: a compiled kernel here is one
    # more compile of the whole loop.
    # Each play-out an argument that is None where the lineup does not take it: numba prunes a
    # branch on an argument only where the argument is None.
    _advise_loop(state, n, out, position, pol, calls, infer, phase1, stake,
                 PLAY_OUT_OPTIONS if pol is None else None, pol if calls is None else None,
                 AdviceWork(np.empty(TABLE_SIZE, dtype=np.int64), np.empty(TABLE_SIZE, dtype=np.int64),
                            np.empty(52, dtype=np.int64), np.empty((MAX_OPTIONS, RESULT), dtype=np.int64),
                            np.empty((2, 4), dtype=np.uint64), *new_scratch(), samples))


def interchangeable(t0, seat, cards) -> np.ndarray:
    """``same[i]``: the option whose heuristic play-out option ``i`` repeats card for card, ``i``
    for none. ``cards`` are the legal cards in suit order, lowest first. Of non-jacks of one suit
    that no card another player may hold separates (:func:`._policies.representatives`, which the
    look-ahead player's candidates come from), each repeats the lowest: every comparison any
    heuristic player makes afterwards comes out the same, so every figure of the deal is the same."""
    legal = 0
    for c in cards:
        legal |= 1 << int(c)
    reps = int(representatives.py_func(t0, seat, np.int64(legal)))
    same = np.arange(len(cards), dtype=np.int64)
    run = {}  # suit -> the option that starts the run of the suit's last card
    for i, c in enumerate(int(c) for c in cards):
        if (c >> 2) == JACK_RANK:
            continue
        if (reps >> c) & 1:
            run[c & 3] = i
        else:
            same[i] = run[c & 3]
    return same


#: Columns of an option's result on one world: my score, tricks, penalty, the plays that broke
#: a rule (checked runs), for each suit whether I took its jack, each seat's score, and my
#: equity after the deal (with a ``stake``).
R_SCORE, R_TRICKS, R_PENALTY, R_VIOLATIONS, R_JACKS = 0, 1, 2, 3, 4
R_POINTS = R_JACKS + 4
R_EQUITY = R_POINTS + 3
RESULT = R_EQUITY + 1


@loop
def equity_after(stake, r, seat, n):
    """My equity (P(I win the game), in :data:`EQUITY_SCALE` steps) after a deal whose points
    each seat ``s`` of ``n`` scored are ``r[R_POINTS + s]`` (seat 0 led it): the game over as
    ``game_winner`` ends it (a seat alone at the top at the target), a tie at the top past the
    table's grid shared, else the table's value at the next deal, which seat 1 leads (a total
    below the grid reads its lowest score, as the table is solved)."""
    before, grid, value = stake
    lo = grid[0]
    size = grid[1]
    target = grid[2]
    top = before[0] + r[R_POINTS]
    for s in range(1, n):
        v = before[s] + r[R_POINTS + s]
        if v > top:
            top = v
    at_top = 0
    winner = 0
    for s in range(n):
        if before[s] + r[R_POINTS + s] == top:
            at_top += 1
            winner = s
    if top >= target and at_top == 1:
        return EQUITY_SCALE if winner == seat else 0
    if top > lo + size - 1:
        return EQUITY_SCALE // at_top if before[seat] + r[R_POINTS + seat] == top else 0
    z = 0
    for j in range(n):  # the next deal's frame: its seat j is seat j + 1 here
        s = (j + 1) % n
        v = before[s] + r[R_POINTS + s]
        if v < lo:
            v = lo
        z = z * size + (v - lo)
    return np.int64(np.floor(value[(seat + n - 1) % n, z] * EQUITY_SCALE + 0.5))


@loop(from_python=True)
def _advise_loop(state, n, out, position, pol, calls, infer, phase1, stake, heuristic_out, basic, work):
    t0, deal, seat, cards, same = position
    w, t, deck, res, sub, scr, rs, samples = work
    k = cards.shape[0]
    for _ in range(n):
        deal_hidden(state, t0, deal, w, deck, phase1)
        out[A.dealt] += 1
        wt = np.int64(1)
        if infer is not None:
            wt = likelihood_ratio(state, w, deal, infer[0], infer[1], t)
            if wt == 0:
                continue
        for j in range(4):
            sub[0, j] = next_u64(state)
        if pol is None:  # heuristic players alone: every option in one call
            # numba prunes a branch on an argument's type only where the argument is None
            if heuristic_out is not None:
                heuristic_out(w, t, sub, seat, cards, same, res)
        else:
            for i in range(k):
                play_option_out(sub, t, w, seat, cards[i], pol, samples, calls, basic, (scr, rs), phase1)
                _result(t, seat, res[i])
        for i in range(k):
            _record_option(out, res[i], i, wt)
        _record_pairs(out, res, k, wt, A.pair, R_SCORE)
        if stake is not None:
            for i in range(k):
                res[i, R_EQUITY] = equity_after(stake, res[i], seat, t0[T.players])
                _add(out, A.equity, MAX_OPTIONS, i, wt, res[i, R_EQUITY])
            _record_pairs(out, res, k, wt, A.pair_equity, R_EQUITY)
        out[A.deals] += 1
        out[A.weight] += wt
        out[A.weight_sq] += wt * wt


@helper
def _add(out, o, size, i, w, x):
    """Entry ``i`` of the figure at ``o`` (four sums of ``size``) gets the world's ``x``, weight ``w``."""
    out[o + i] += w * x
    out[o + size + i] += w * x * x
    out[o + 2 * size + i] += w * w * x
    out[o + 3 * size + i] += w * w * x * x


@loop
def _result(t, seat, r):
    """``r`` = the finished world ``t``'s result for ``seat`` (columns ``R_*``)."""
    r[R_SCORE] = score(t, seat)
    r[R_TRICKS] = t[T.tricks + seat]
    r[R_PENALTY] = t[T.penalty + seat]
    r[R_VIOLATIONS] = t[T.violations]
    for s4 in range(4):
        r[R_JACKS + s4] = t[T.jack_taker + s4] == seat
    for s in range(t[T.players]):
        r[R_POINTS + s] = score(t, s)


@loop
def _record_option(out, r, i, w):
    """Option ``i``'s figures from its result ``r`` on a world of weight ``w``."""
    _add(out, A.score, MAX_OPTIONS, i, w, r[R_SCORE])
    _add(out, A.tricks, MAX_OPTIONS, i, w, r[R_TRICKS])
    _add(out, A.penalty, MAX_OPTIONS, i, w, r[R_PENALTY])
    for s4 in range(4):
        if r[R_JACKS + s4] != 0:
            out[A.jack + 4 * i + s4] += w
            out[A.jack + 4 * MAX_OPTIONS + 4 * i + s4] += w * w
    out[A.violations] += r[R_VIOLATIONS]


def play_out_options(w, t, sub, seat, cards, same, res):
    """Every card of ``cards`` played by ``seat`` on the world ``w``, then the heuristic for
    everybody, each from the random state ``sub[0]`` (``t`` and ``sub[1]``: work), its result into
    ``res``; a card that ``same`` names as repeating an earlier one copies that one's result
    (returns 0). The advice loop of heuristic players alone calls it through a pointer
    (:data:`PLAY_OUT_OPTIONS`), once a world: its compiling, the longest of that first call's,
    then runs in a second process beside the loop's instead of before it (:mod:`cardodds._two_process_compile`).
    Once a world, not once a card: a call a card is slower."""
    for i in range(cards.shape[0]):
        if same[i] != i:  # the play-out of an earlier option, mirrored
            copy_into(res[i], res[same[i]])
        else:
            copy_into(t, w)
            copy_into(sub[1], sub[0])
            play_heuristic_until_inlined(sub[1], t, 0, cards[i], True)
            _result(t, seat, res[i])
    return 0


#: ``play_out_options(w, t, sub, seat, cards, same, res) -> 0`` as the advice loop calls it through a pointer.
OPTIONS_SIGNATURE = types.int64(types.int64[::1], types.int64[::1], types.uint64[:, ::1], types.int64,
                                types.int64[::1], types.int64[::1], types.int64[:, ::1])
PLAY_OUT_OPTIONS = Pointer(play_out_options, OPTIONS_SIGNATURE)


@loop
def _record_pairs(out, res, k, w, at, col):
    """The paired differences of column ``col`` of the options' results into the figure at ``at``."""
    q = 0
    for i in range(k):
        for j in range(i + 1, MAX_OPTIONS):
            if j < k:
                _add(out, at, PAIRS, q, w, res[i, col] - res[j, col])
            q += 1


@kernel
def position(t, rules, leader, turned, trump_card, stock, hands, seats, cards, phase1, state):
    """``t`` = a new deal whose seats hold ``hands``, after ``cards[i]`` was played by
    ``seats[i]`` in order (the tricks of a position); ``leader`` leads the first trick. Three
    players: ``turned`` is turned. Two players: ``stock`` (26 cards) given, phase 1 from its
    start (``phase1`` True, else None); else phase 2 with ``trump_card`` the dead card that named
    trump. The cards are played by :func:`~._table.play_any`, as the advice loop plays them (its
    ``phase1``): the card play compiles once. ``state``: a random state it never reads (a
    phase-1 position ends before phase 1 does, so phase 2 never starts here)."""
    new_table(t, rules, leader, turned, 0)
    if stock is not None:
        for i in range(STOCK):
            t[T.stock + i] = stock[i]
        open_phase1(t, 0)
    elif trump_card >= 0:
        t[T.trump] = trump_card & 3
        t[T.trump_card] = trump_card
        t[T.played] = bit(trump_card)
        t[T.phase1_played] = bit(trump_card)
        t[T.stock_pos] = STOCK
        t[T.non_dealer] = 0
        if (trump_card >> 2) == JACK_RANK:
            t[T.jack_taker + (trump_card & 3)] = -2
    for s in range(hands.shape[0]):
        t[T.hand + s] = hands[s]
    for i in range(cards.shape[0]):
        play_any(state, t, seats[i], cards[i], phase1)
