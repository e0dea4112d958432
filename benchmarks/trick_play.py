"""Kanalje's look-ahead lineup with and without the phase-1 code, in one interpreter.

    python benchmarks/trick_play.py [--rounds 40]

A three-player deal never reaches phase 1, and its kernels compile without the phase-1 code
(``kanalje._table.phase1_arg``). This times, on the same seeds and the thread's CPU clock, the
deals kernel of a look-ahead player and two heuristic players called with the look-ahead that
leaves phase 1 out (``LOOKAHEAD_TRICK_PLAY``) against the one that keeps it (``LOOKAHEAD``),
and the deal loop with ``phase1`` None against True; the order alternates every round. Both
of each pair must give the same counts. Prints the median of the rounds' speed ratios (the
pruned over the full) with their quartiles: one tree, one interpreter, so the code's placement
in memory, which moves a two-tree comparison by a few points, is the same for both.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from cardodds.kanalje import _kernels as K
from cardodds.kanalje import _policies as P
from cardodds.kanalje import view
from cardodds.kanalje._counts import DEALS
from cardodds.kanalje.rules import KanaljeRules
from cardodds.rng import chunk_state

DEALS_A_CALL = 60
LOOKAHEAD_SAMPLES = 8  # as before_after.py's and side_by_side.py's look-ahead call
#: Nothing fixed, unchecked, from the start of the deal (as side_by_side.py's chunk)
FIXED = dict(fixed_seat=-1, fixed_hand=0, fixed_card=-1, start_phase=1, check=0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=40, help="pairs of calls (default 40)")
    args = ap.parse_args(argv)
    rules = KanaljeRules().pack()
    codes = np.array([P.P_LOOKAHEAD, P.P_HEURISTIC, P.P_HEURISTIC], dtype=np.int64)
    user = view.compile_policy(None)
    ss = np.random.SeedSequence(1)

    def searches(search_phase1, seed):
        out = np.zeros(DEALS.size, dtype=np.int64)
        calls = P.calls(user, codes, search_phase1)
        t0 = time.thread_time()
        K.deals_kernel(chunk_state(ss, seed), DEALS_A_CALL, out, rules, codes, LOOKAHEAD_SAMPLES, **FIXED,
                       calls=calls)
        return time.thread_time() - t0, out

    def loops(loop_phase1, seed):
        out = np.zeros(DEALS.size, dtype=np.int64)
        calls = P.calls(user, codes, None)
        t0 = time.thread_time()
        *fixed, _check = FIXED.values()
        K._deals_loop(chunk_state(ss, seed), DEALS_A_CALL, out, rules, codes, LOOKAHEAD_SAMPLES, K.Fixed(*fixed), calls,
                      K.deal_work(FIXED["fixed_hand"], FIXED["fixed_card"]), P.new_scratch(), None,
                      loop_phase1)
        return time.thread_time() - t0, out

    print("| what | pruned / full speed | quartiles of the rounds |\n|---|---:|---:|")
    for label, call in (("the look-ahead (LOOKAHEAD_TRICK_PLAY / LOOKAHEAD)", searches),
                        ("the deal loop (phase1 None / True)", loops)):
        call(None, 0), call(True, 0)  # compiled before timing
        ratios = []
        for r in range(args.rounds):
            order = (None, True) if r % 2 else (True, None)
            got = {k: call(k, r) for k in order}
            if not (got[None][1] == got[True][1]).all():
                raise AssertionError("the pruned and the full code counted differently")
            ratios.append(got[True][0] / got[None][0])
        q = statistics.quantiles(ratios, n=4)
        print(f"| {label} | {statistics.median(ratios):.3f} | {q[0]:.3f} to {q[2]:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
