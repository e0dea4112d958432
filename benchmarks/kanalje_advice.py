"""How long ``kanalje.advise`` takes with each player, compiled, on the docs' positions.

    python benchmarks/kanalje_advice.py [--policies heuristic,lookahead] [--repeats 5] [--threads 2]

Each position of ``docs/kanalje-advise.md`` (the full 17-card hand of the docs is the worst for
three players, the phase-1 hand of 13 cards for two) is advised once to compile, then
``--repeats`` times with the lineup's default worlds; the median wall time is printed with the
runs and the verdict. The load average is printed too: on a shared machine it moves the figures
more than anything else. Results: ``RESULTS_kanalje_advice.md``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from cardodds.kanalje import KanaljeRules, Position, advise

TWO = KanaljeRules(players=2)
POSITIONS = {
    "three players, the full 17-card hand": dict(seat=0, hand="Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s",
                                                 turned="7h"),
    "three players, follow hearts": dict(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d",
                                         turned="Td", played="0: Kh 3h"),
    "two players, phase 1 (13 cards)": dict(seat=1, hand="As Ks 3s 4c 8c Tc 2d 6d 9d Qd 5h 8h Ah", faceup="Jh",
                                            played="0: Qs", rules=TWO),
    "two players, phase 2": dict(seat=1, hand="6h 8s Jh Qs", trump="2c", rules=TWO,
                                 played="1: 9d 3d; 1: 4d 2d; 1: Kh 7h; 1: 5c 6c; 0: Th 9h; 0: Qd 6d; 0: 7d Jc; "
                                 "1: 5s 4s; 1: 8h Qh; 0: Jd"),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--policies", default="heuristic,lookahead")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.2f}")
    for policies in args.policies.split(","):
        for name, pos in POSITIONS.items():
            advise(Position(**pos), policies=policies, samples=4, rng=1, threads=args.threads)  # compile
            runs = []
            for _ in range(args.repeats):
                t0 = time.perf_counter()
                r = advise(Position(**pos), policies=policies, rng=1, threads=args.threads)
                runs.append(time.perf_counter() - t0)
            print(f"{policies:9s} | {name} | {r.samples:,} worlds | median {statistics.median(runs):.2f} s "
                  f"({', '.join(f'{t:.2f}' for t in runs)}) | {r.verdict}", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
