"""Kanalje's exact end search: microseconds a search from its depth, one trick deeper and one less.

Run: ``python benchmarks/kanalje_endgame.py``. The end positions: every candidate card of every
third decision met while heuristic players play the deals of ``kanalje_pimc.py``'s cost table,
played out by the heuristic to four tricks left with three players (the player's search near the
end), five with two, or one trick more (or less); each set searched from one seat, a fresh transposition table per
pass, the fastest of five passes (one thread, CPU time). What a deeper ``pimc`` would cost.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from numba import njit

from cardodds.kanalje import _policies as P, _search as S
from cardodds.kanalje._table import T
from cardodds.rng import as_seed_sequence, chunk_state

sys.path.insert(0, str(Path(__file__).resolve().parent))
from kanalje_ladder import positions  # noqa: E402


@njit
def _run(ends, seats, scr):
    tot = 0
    for i in range(ends.shape[0]):
        tot += S.endgame_score(ends[i], seats[i], scr, P.SOLVE)
    return tot


def per_search(n, extra):
    """Microseconds a search at ``extra`` tricks past the end search's depth, and the positions."""
    state = chunk_state(as_seed_sequence(1)[0], 0)
    depth = S.ENDGAME_THREE if n == 3 else S.ENDGAME_TWO
    ends, seats = [], []
    for t, seat, legal in positions(40 if n == 3 else 60, n, 7 + n)[::3]:
        if t[T.phase] == 1:
            continue
        for c in range(52):
            if (legal >> c) & 1:
                w = t.copy()
                P.play_heuristic_until(state, w, depth + extra, c, True)
                ends.append(w)
                seats.append(seat)
    e, s = np.array(ends), np.array(seats, dtype=np.int64)
    scr = P.new_scratch()[0]
    _run(e[:5], s[:5], scr)
    best = float("inf")
    for _ in range(5):
        scr[:] = 0
        c0 = time.process_time()
        _run(e, s, scr)
        best = min(best, time.process_time() - c0)
    return best / len(e) * 1e6, len(e)


def main() -> None:
    for n in (3, 2):
        depth = S.ENDGAME_THREE if n == 3 else S.ENDGAME_TWO
        (a, m), (b, _) = per_search(n, 0), per_search(n, 1)
        line = (f"{n} players, {m:,} end positions: {a:.2f} us a search from {depth} tricks, {b:.2f} us from "
                f"{depth + 1}: {b / a:.1f} times")
        if n == 3:
            c, _ = per_search(n, -1)
            line += f"; {c:.2f} us from {depth - 1}: {a / c:.1f} times less than from {depth}"
        print(line, flush=True)


if __name__ == "__main__":
    main()
