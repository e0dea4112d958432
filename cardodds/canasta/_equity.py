"""The chunk kernel of :mod:`cardodds.canasta.equity`: hands tallied by their joint outcome."""

from __future__ import annotations

from .._jit import kernel
from ._play import _scratch, play_hand
from ._table import N_VIOL, SA, _I, hand_dealer

#: The counts: hands, broken rules by kind, then the hands by their outcome.
HANDS, VIOLATIONS, JOINT = 0, 1, 1 + N_VIOL


@kernel
def outcome_kernel(rng, n, out, deck, rl, seats, check, user, look, smart, span):
    """``n`` single hands, side 0 moving first, counted by the sides' scores rounded to the
    nearest multiple of ``span[1]`` (half to even) from ``span[0]``, ``span[2]`` bins a side
    (side 0's the major index) at :data:`JOINT`."""
    d = deck.copy()
    table = _scratch()
    low = span[0]
    step = span[1]
    bins = span[2]
    for _ in range(n):
        play_hand(rng, table, rl, d, hand_dealer(rl), seats, check, user, out, _I(-1), look, smart)
        k = 0
        for side in range(2):
            v = table.t[SA.score + side] - low
            q = v // step
            r = v - q * step
            if 2 * r > step or (2 * r == step and q % 2 == 1):
                q += 1
            q = 0 if q < 0 else (bins - 1 if q >= bins else q)
            k = k * bins + q
        out[JOINT + k] += 1
        out[HANDS] += 1
    for v in range(N_VIOL):
        out[VIOLATIONS + v] += table.viol[v]
