"""Playing a deal out, and the chunk kernels of :mod:`cardodds.kanalje.play`.

:func:`play_out` and its leaner twins play a deal to its end from any point of either game,
each seat choosing by its policy code (:mod:`._policies`), on the table mechanics of
:mod:`._table`: every kernel's deals end here. The kernels of ``play.py`` follow: strength
matches, games to the target, a traced deal.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._jit import inline, kernel, loop
from .._random import bounded
from .._tally import add_paired
from ._bits import JACK_RANK, SUIT_MASK, bit
from ._counts import GAME, MATCH, MAX_DEALS, TRACE
from ._policies import (
    P_HEURISTIC,
    P_RANDOM,
    choose,
    heuristic1_choose,
    heuristic_card,
    new_scratch,
    play_heuristic_until,
    random_choose,
    scratch,
)
from ._table import (
    STOCK,
    TABLE_SIZE,
    T,
    beats_linked,
    check_deal_end,
    copy_into,
    legal_cards,
    legal_cards1,
    phase1_arg,
    play_any,
    play_card,
    play_card1,
    score,
    seat_after,
    start_deal,
    start_phase2,
    take_jack,
    to_play,
)
from .rules import R

G = GAME.at
M = MATCH.at
TR = TRACE.at


# ---- play-outs --------------------------------------------------------------------------------
@loop
def play_out_random3(state, t):
    """Three random players from the start of a deal to its end, in a tight loop.

    The same deal, the same random draws and the same table at the end as :func:`play_out`
    with three random policies, except that shown voids are not recorded and plays are
    not checked (it is used only in unchecked runs; the tests compare both). Hands are
    indexed by seat rather than chosen by branches, which the seat order makes unpredictable."""
    trump = t[T.trump]
    leader = t[T.leader]
    played = t[T.played]
    w = leader
    trick_leader = leader
    while (t[T.hand] | t[T.hand + 1] | t[T.hand + 2]) != 0:
        trick_leader = leader
        c = random_choose(state, t[T.hand + leader])
        t[T.hand + leader] ^= bit(c)
        t[T.trick] = c
        led_mask = SUIT_MASK[c & 3]
        best = c
        w = leader
        seat = leader
        for j in range(1, 3):
            seat = seat + 1 if seat < 2 else 0
            hand = t[T.hand + seat]
            f = hand & led_mask
            c = random_choose(state, f if f != 0 else hand)
            t[T.hand + seat] = hand ^ bit(c)
            t[T.trick + j] = c
            if beats_linked(c, best, trump):
                best = c
                w = seat
        played |= bit(t[T.trick]) | bit(t[T.trick + 1]) | bit(t[T.trick + 2])
        t[T.tricks + w] += 1
        for j in range(3):
            x = t[T.trick + j]
            if (x >> 2) == JACK_RANK:
                take_jack(t, x & 3, w, w == leader)
        t[T.n_tricks] += 1
        leader = w
    t[T.played] = played
    t[T.leader] = leader
    t[T.last_winner] = w
    turned = t[T.turned]
    if t[T.turned_jack_rule] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        take_jack(t, turned & 3, w, w == trick_leader)


@inline
def _basic_choose1(state, t, seat, code):
    legal = legal_cards1(t, seat)
    return heuristic1_choose(t, seat, legal) if code == P_HEURISTIC else random_choose(state, legal)


@inline
def _basic_choose_trick(state, t, seat, code):
    legal = legal_cards(t, seat)
    return heuristic_card(t, seat, legal) if code == P_HEURISTIC else random_choose(state, legal)


@inline
def _played_out_lean(state, t, pol):
    """Play the deal out with a leaner loop when the lineup has one (three random players from
    the start of a trick, unchecked; heuristic players alone: they draw no card at random, so
    the play is the same); True if it did."""
    n = t[T.players]
    if t[T.check] == 0 and n == 3 and t[T.trick_len] == 0 and pol[0] == P_RANDOM and pol[1] == P_RANDOM \
            and pol[2] == P_RANDOM:
        play_out_random3(state, t)
        return True
    if pol[0] == P_HEURISTIC and pol[1] == P_HEURISTIC and (n == 2 or pol[2] == P_HEURISTIC):
        play_heuristic_until(state, t, 0, -1, True)
        return True
    return False


@loop
def play_out_basic(state, t, pol):
    """:func:`play_out` for lineups of random and heuristic players alone: the same play and
    the same draws, without the look-ahead and user-policy code compiled in."""
    if _played_out_lean(state, t, pol):
        return
    if t[T.phase] == 1:
        while True:
            seat = to_play(t)
            if play_card1(t, seat, _basic_choose1(state, t, seat, pol[seat])):
                break
        start_phase2(state, t)
    while True:
        seat = to_play(t)
        if play_card(t, seat, _basic_choose_trick(state, t, seat, pol[seat])):
            return


@inline
def _play_out_choosing(state, t, pol, samples, calls, scr, rs, phase1):
    while True:
        seat = to_play(t)
        if play_any(state, t, seat, choose(state, t, seat, pol[seat], samples, calls, scr, rs, phase1), phase1):
            return


@loop
def play_out(state, t, pol, samples, calls, scr, rs, phase1):
    """Play the deal to its end from any point of either game, seat ``s`` choosing by policy
    code ``pol[s]`` (``scr``/``rs``: the chunk's scratch, :func:`new_scratch`; ``phase1``:
    ``._table.phase1_arg``)."""
    if _played_out_lean(state, t, pol):
        return
    _play_out_choosing(state, t, pol, samples, calls, scr, rs, phase1)


@loop
def play_out_searching(state, t, pol, samples, calls, scr, rs, phase1):
    """:func:`play_out` without the lean loops of :func:`_played_out_lean` compiled in: the same
    play for any lineup, for the deals and advice kernels, which run it only for a lineup with a
    look-ahead, ``pimc`` or user player (one that never takes those loops). The heuristic's
    play-out is then compiled only in the searches, which a second process compiles beside the
    deal loop (:mod:`cardodds._two_process_compile`)."""
    _play_out_choosing(state, t, pol, samples, calls, scr, rs, phase1)


@inline
def play_option_out(sub, t, src, seat, card, pol, samples, calls, basic, scratch, phase1):
    """``t`` = the table ``src`` with ``seat`` playing ``card``, then the deal played to its end
    from the random state ``sub[0]`` (copied into ``sub[1]``, so that every option of a position
    plays from the same draws): by :func:`play_out_searching` where ``calls`` is given, else by
    the random and heuristic players' :func:`play_out_basic` (``basic``: their codes). An option
    of an advice, an action of a strategy table."""
    copy_into(t, src)
    copy_into(sub[1], sub[0])
    if not play_any(sub[1], t, seat, card, phase1):
        if calls is not None:
            play_out_searching(sub[1], t, pol, samples, calls, scratch[0], scratch[1], phase1)
        elif basic is not None:
            play_out_basic(sub[1], t, basic)


# ---- the kernels of play.py ---------------------------------------------------------------------


@kernel
def play_traced(state, t, pol, samples, rec, calls, phase1):
    """Play ``t`` to its end, writing each trick as a row of ``rec`` (:data:`TRACE`)."""
    scr, rs = scratch()
    i = 0
    while True:
        seat = to_play(t)
        if t[T.trick_len] == 0:
            rec[i, TR.leader] = seat
            rec[i, TR.faceup] = t[T.faceup] if t[T.phase] == 1 else -1
        c = choose(state, t, seat, pol[seat], samples, calls, scr, rs, phase1)
        rec[i, TR.cards + t[T.trick_len]] = c
        done = play_any(state, t, seat, c, phase1)
        if t[T.trick_len] == 0:
            rec[i, TR.winner] = t[T.last_winner]
            i += 1
        if done:
            return


#: The match loop's arrays: the table, the deal as dealt, the deck, the dealt hands, the
#: seats' policy codes of one playing and B's scores when B plays every seat.
MatchWork = namedtuple("MatchWork", ["t", "t0", "deck", "hand0", "pol", "base"])
#: The game loop's arrays: the table, the deck, the dealt hands, the seats' game totals, and
#: where a game starts: each seat's total, then the first deal's dealer.
GameWork = namedtuple("GameWork", ["t", "deck", "hand0", "totals", "start"])


def match_kernel(state, n, out, rules, pol_a, pol_b, samples, check, calls):
    """Paired strength match on the same deals (hands, turned card or stock, and phase-2
    trump draw): B in every seat, then for each seat r A in seat r and B elsewhere; out sums
    A's score minus B's in seat r over the seats (one figure per deal, :data:`MATCH`). Like the
    deals kernels (``._kernels.deals_kernel``), the compiled loop called with its tables
    allocated here, in Python: a compiled kernel around it cost about as much of the first call
    as the loop itself. ``calls`` are for deals of ``rules`` from phase 1 (:func:`._policies.calls`
    with their ``._table.phase1_arg``), as :func:`game_kernel`'s."""
    players = rules[R.players]
    work = MatchWork(np.empty(TABLE_SIZE, dtype=np.int64), np.empty(TABLE_SIZE, dtype=np.int64),
                     np.arange(52, dtype=np.int64), np.empty(4, dtype=np.int64), np.empty(players, dtype=np.int64),
                     np.empty(players, dtype=np.int64))
    _match_loop(state, n, out, rules, pol_a, pol_b, samples, check, calls, work, new_scratch(),
                phase1_arg(players, 1))


@loop(from_python=True)
def _match_loop(state, n, out, rules, pol_a, pol_b, samples, check, calls, work, scratch, phase1):
    players = rules[R.players]
    t, t0, deck, hand0, pol, base = work
    scr, rs = scratch
    for _ in range(n):
        start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, 0, check, hand0)
        if players == 2:
            t[T.trump_draw] = bounded(state, STOCK)
        copy_into(t0, t)
        d = 0
        for r in range(-1, players):
            for s in range(players):
                pol[s] = pol_a if s == r else pol_b
            copy_into(t, t0)
            play_out(state, t, pol, samples, calls, scr, rs, phase1)
            if check != 0:
                out[M.violations] += check_deal_end(t, rules, 1)
            if r < 0:
                for s in range(players):
                    base[s] = score(t, s)
            else:
                a = score(t, r)
                out[M.score_a] += a
                out[M.score_b] += base[r]
                d += a - base[r]
        add_paired(out, M.deals, M.sum, M.sum_sq, M.plus, M.minus, d)


@loop
def game_winner(totals, n, target):
    """The seat that has won the game after a deal, or -1 to play on: somebody must have
    reached ``target`` and the highest total must be alone at the top."""
    top = totals[0]
    for s in range(1, n):
        if totals[s] > top:
            top = totals[s]
    if top < target:
        return -1
    w = -1
    for s in range(n):
        if totals[s] == top:
            if w >= 0:
                return -1
            w = s
    return w


def game_kernel(state, n, out, rules, pol, samples, check, max_deals, calls, start):
    """``n`` games to ``target`` (:data:`GAME`) from ``start``: each seat's total, then the
    first deal's dealer (a new game: zeros and the last seat, so seat 0 leads; two players:
    leads phase 1 by default); the deal passes clockwise. The compiled loop called with its
    tables allocated here, as :func:`match_kernel` is."""
    players = rules[R.players]
    work = GameWork(np.empty(TABLE_SIZE, dtype=np.int64), np.arange(52, dtype=np.int64), np.empty(4, dtype=np.int64),
                    np.zeros(players, dtype=np.int64), start)
    _game_loop(state, n, out, rules, pol, samples, check, max_deals, calls, work, new_scratch(),
               phase1_arg(players, 1))


@loop(from_python=True)
def _game_loop(state, n, out, rules, pol, samples, check, max_deals, calls, work, scratch, phase1):
    players = rules[R.players]
    t, deck, hand0, totals, start = work
    scr, rs = scratch
    target = rules[R.target]
    for _ in range(n):
        for s in range(players):
            totals[s] = start[s]
        dealer = start[players]
        deals = 0
        winner = -1
        while winner < 0 and deals < max_deals:
            first = seat_after(dealer, 1, players)
            start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, first, check, hand0)
            play_out(state, t, pol, samples, calls, scr, rs, phase1)
            if check != 0:
                out[G.violations] += check_deal_end(t, rules, 1)
            for s in range(players):
                totals[s] += score(t, s)
            deals += 1
            dealer = first
            winner = game_winner(totals, players, target)
        out[G.games] += 1
        if winner >= 0:
            out[G.win + winner] += 1
            out[G.deals_hist + deals] += 1
        else:
            out[G.unfinished] += 1
            out[G.deals_hist + MAX_DEALS] += 1
        out[G.deals] += deals
        out[G.deals_sq] += deals * deals
