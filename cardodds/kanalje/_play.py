"""The chunk kernels of :mod:`cardodds.kanalje.play`: strength matches, games to the target, a traced deal.

The table mechanics are in :mod:`._table`, the policies in :mod:`._policies`.
"""

from __future__ import annotations

import numpy as np

from .._jit import kernel, loop
from .._random import bounded
from .._tally import add_paired
from ._counts import GAME, MATCH, MAX_DEALS, TRACE
from ._policies import choose, new_scratch, play_out, scratch
from ._table import STOCK, TABLE_SIZE, T, check_deal_end, copy_into, play_any, score, seat_after, start_deal, to_play
from .rules import R

G = GAME.at
M = MATCH.at
TR = TRACE.at


@kernel
def play_traced(state, t, pol, samples, rec, calls):
    """Play ``t`` to its end, writing each trick as a row of ``rec`` (:data:`TRACE`)."""
    scr, rs = scratch()
    i = 0
    while True:
        seat = to_play(t)
        if t[T.trick_len] == 0:
            rec[i, TR.leader] = seat
            rec[i, TR.faceup] = t[T.faceup] if t[T.phase] == 1 else -1
        c = choose(state, t, seat, pol[seat], samples, calls, scr, rs)
        rec[i, TR.cards + t[T.trick_len]] = c
        done = play_any(state, t, seat, c)
        if t[T.trick_len] == 0:
            rec[i, TR.winner] = t[T.last_winner]
            i += 1
        if done:
            return


def match_kernel(state, n, out, rules, pol_a, pol_b, samples, check, calls):
    """Paired strength match on the same deals (hands, turned card or stock, and phase-2
    trump draw): B in every seat, then for each seat r A in seat r and B elsewhere; out sums
    A's score minus B's in seat r over the seats (one figure per deal, :data:`MATCH`). Like the
    deals kernels (``._kernels.deals_kernel``), the compiled loop called with its tables
    allocated here, in Python: a compiled kernel around it cost about as much of the first call
    as the loop itself."""
    players = rules[R.players]
    t = np.empty(TABLE_SIZE, dtype=np.int64)
    t0 = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    pol = np.empty(players, dtype=np.int64)
    base = np.empty(players, dtype=np.int64)
    _match_loop(state, n, out, rules, pol_a, pol_b, samples, check, calls, t, t0, deck, hand0, pol, base,
                *new_scratch())


@loop(from_python=True)
def _match_loop(state, n, out, rules, pol_a, pol_b, samples, check, calls, t, t0, deck, hand0, pol, base, scr, rs):
    players = rules[R.players]
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
            play_out(state, t, pol, samples, calls, scr, rs)
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


def game_kernel(state, n, out, rules, pol, samples, check, max_deals, calls):
    """``n`` games to ``target`` (:data:`GAME`); the last seat deals the first deal (seat 0
    leads; two players: leads phase 1 by default), the deal passes clockwise. The compiled loop
    called with its tables allocated here, as :func:`match_kernel` is."""
    players = rules[R.players]
    t = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    totals = np.zeros(players, dtype=np.int64)
    _game_loop(state, n, out, rules, pol, samples, check, max_deals, calls, t, deck, hand0, totals, *new_scratch())


@loop(from_python=True)
def _game_loop(state, n, out, rules, pol, samples, check, max_deals, calls, t, deck, hand0, totals, scr, rs):
    players = rules[R.players]
    target = rules[R.target]
    for _ in range(n):
        for s in range(players):
            totals[s] = 0
        dealer = players - 1
        deals = 0
        winner = -1
        while winner < 0 and deals < max_deals:
            first = seat_after(dealer, 1, players)
            start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, first, check, hand0)
            play_out(state, t, pol, samples, calls, scr, rs)
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
