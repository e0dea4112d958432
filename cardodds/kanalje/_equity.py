"""The chunk kernel of :mod:`cardodds.kanalje.equity`: deals tallied by their joint outcome."""

from __future__ import annotations

import numpy as np

from .._jit import loop
from ..layout import Layout
from ._play import GameWork, play_out
from ._policies import new_scratch
from ._table import TABLE_SIZE, check_deal_end, phase1_arg, score, start_deal
from .rules import R


def outcome_layout(players: int, bins: int) -> Layout:
    """Deals, broken rules, and the deals by their outcome: each seat's points (seat 0 left of
    the dealer) less the lowest a seat can score, as a number in base ``bins``."""
    return Layout("kanalje deal outcomes", [("deals", 1), ("violations", 1), ("joint", bins ** players)])


def outcome_kernel(state, n, out, rules, pol, samples, check, calls, span):
    """``n`` deals, seat 0 left of the dealer, counted by their outcome; ``span`` is
    ``(the lowest points a seat can score, bins a seat)``; the counts start with deals and
    violations, as :func:`outcome_layout` lays them out."""
    players = rules[R.players]
    work = GameWork(np.empty(TABLE_SIZE, dtype=np.int64), np.arange(52, dtype=np.int64), np.empty(4, dtype=np.int64),
                    np.zeros(players, dtype=np.int64), np.zeros(players + 1, dtype=np.int64))
    _outcome_loop(state, n, out, rules, pol, samples, check, calls, work, new_scratch(), phase1_arg(players, 1), span)


@loop(from_python=True)
def _outcome_loop(state, n, out, rules, pol, samples, check, calls, work, scratch, phase1, span):
    players = rules[R.players]
    t, deck, hand0, _, _ = work
    scr, rs = scratch
    low = span[0]
    bins = span[1]
    for _ in range(n):
        start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, 0, check, hand0)
        play_out(state, t, pol, samples, calls, scr, rs, phase1)
        if check != 0:
            out[1] += check_deal_end(t, rules, 1)
        k = 0
        for s in range(players):
            b = score(t, s) - low
            b = 0 if b < 0 else (bins - 1 if b >= bins else b)
            k = k * bins + b
        out[2 + k] += 1
        out[0] += 1
