"""Polish Canasta: the strength ladder of the built-in players, paired.

Run: ``python benchmarks/canasta_ladder.py [--pairs N] [--seed S]``; writes
``benchmarks/RESULTS_canasta_ladder.md``.

Every pair of players (random, heuristic, heuristic2) plays ``cardodds.canasta.strength``:
each deal twice from the same random stream, A at seats 0+2 then at seats 1+3, so the luck of
the deal cancels. For each pair: A's edge in points a hand (A's side minus B's, the mean over
the pair) and P(A's side better over the pair), with 95% intervals; each match from its own
child seed of ``--seed``. The ladder's claim: heuristic2 beats heuristic with an interval
excluding zero.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

from cardodds.canasta import strength
from cardodds.canasta._play import M
from cardodds.rng import as_seed_sequence, child
from cardodds.stats import Estimate

PLAYERS = ("random", "heuristic", "heuristic2")
PAIRS = (("heuristic2", "heuristic"), ("heuristic2", "random"), ("heuristic", "random"))
OUT = Path(__file__).with_name("RESULTS_canasta_ladder.md")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=50_000, help="deal pairs a match (default 50,000)")
    ap.add_argument("--seed", type=int, default=19, help="seed of the ladder (default 19)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    ss, _ = as_seed_sequence(args.seed)
    rows = []
    t0 = time.perf_counter()
    for i, (a, b) in enumerate(PAIRS):
        r = strength(a, b, samples=args.pairs, rng=child(ss, i))
        rows.append((a, b, r))
        print(f"{a} vs {b}: {r.points.format(1, sign=True)} points a hand, better {r.better.format()}", flush=True)
    wall = time.perf_counter() - t0
    load1 = os.getloadavg()
    edge = rows[0][2].points
    verdict = ("heuristic2 beats heuristic: the interval excludes zero" if edge.lo > 0 else
               f"heuristic2 does NOT beat heuristic at this precision ({edge.format(1, sign=True)} points a hand)")
    cmd = "python benchmarks/canasta_ladder.py" + ("" if argv is None and len(sys.argv) == 1
                                                   else " " + " ".join(argv if argv is not None else sys.argv[1:]))
    lines = [
        "# Polish Canasta: the strength ladder (paired)", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"at the start {load0[0]:.1f} / {load0[1]:.1f} / {load0[2]:.1f}, at the end {load1[0]:.1f} / {load1[1]:.1f} / "
        f"{load1[2]:.1f} (other jobs share the cores); {wall:.0f} s wall for the ladder.", "",
        f"Command: `{cmd}` ({args.pairs:,} deal pairs a match, seed {args.seed}; match i from child i of the seed). "
        "Each deal is played twice, A at seats 0+2 then at seats 1+3, on the same random stream; rules: the "
        "defaults of RULES.md 3.", "",
        "| A | B | A minus B, points a hand | P(A's side better over the pair) | P(B's side better) |",
        "|---|---|---:|---:|---:|",
    ]
    lines += [f"| {a} | {b} | {r.points.format(1, sign=True)} | {r.better.format()} | "
              f"{Estimate.proportion(int(M.view(r.counts).worse), r.pairs).format()} |" for a, b, r in rows]
    lines += ["", "A pair neither side wins is a tie (both plays alike, or the margins cancel): the two "
              "probabilities need not add to 1."]
    lines += ["", verdict + ".", ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
