"""Polish Canasta: the strength ladder of the built-in players, paired.

Run: ``python benchmarks/canasta_ladder.py [--pairs N] [--lookahead-pairs M] [--seed S]``; writes
``benchmarks/RESULTS_canasta_ladder.md``.

Every pair of players (random, heuristic, heuristic2) plays ``cardodds.canasta.strength``:
each deal twice from the same random stream, A at seats 0+2 then at seats 1+3, so the luck of
the deal cancels. For each pair: A's edge in points a hand (A's side minus B's, the mean over
the pair) and P(A's side better over the pair), with 95% intervals; each match from its own
child seed of ``--seed``. The ladder's claims: heuristic2 beats heuristic, and lookahead beats
heuristic2, each with an interval excluding zero. The look-ahead player plays out every option
of its take / discard / go-out decisions on 16 sampled worlds, so its match against heuristic2
runs ``--lookahead-pairs`` pairs (default 1,000, the issue's timed match; its wall time is
reported, on every core of the machine).
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
LOOKAHEAD = ("lookahead", "heuristic2")
OUT = Path(__file__).with_name("RESULTS_canasta_ladder.md")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=50_000, help="deal pairs a match (default 50,000)")
    ap.add_argument("--lookahead-pairs", type=int, default=1_000,
                    help="deal pairs of the lookahead vs heuristic2 match (default 1,000; 0 skips it)")
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
    look_wall = None
    if args.lookahead_pairs > 0:
        a, b = LOOKAHEAD
        strength(a, b, samples=2, rng=0)  # compiled before the clock starts
        t1 = time.perf_counter()
        r = strength(a, b, samples=args.lookahead_pairs, rng=child(ss, len(PAIRS)))
        look_wall = time.perf_counter() - t1
        rows.insert(0, (a, b, r))
        print(f"{a} vs {b}: {r.points.format(1, sign=True)} points a hand, better {r.better.format()} "
              f"({look_wall:.0f} s)", flush=True)
    load1 = os.getloadavg()
    verdict = "\n\n".join(_verdict(a, b, r) for a, b, r in rows if (a, b) in (PAIRS[0], LOOKAHEAD))
    cmd = "python benchmarks/canasta_ladder.py" + ("" if argv is None and len(sys.argv) == 1
                                                   else " " + " ".join(argv if argv is not None else sys.argv[1:]))
    lines = [
        "# Polish Canasta: the strength ladder (paired)", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"at the start {load0[0]:.1f} / {load0[1]:.1f} / {load0[2]:.1f}, at the end {load1[0]:.1f} / {load1[1]:.1f} / "
        f"{load1[2]:.1f} (other jobs share the cores); {wall:.0f} s wall for the three matches of "
        f"{args.pairs:,} pairs"
        + ("" if look_wall is None else f"; {look_wall:.0f} s wall for lookahead vs heuristic2, "
           f"{args.lookahead_pairs:,} pairs on {os.cpu_count()} cores (compiled first; the issue's target for "
           "1,000 pairs: 10 minutes)") + ".", "",
        f"Command: `{cmd}` ({args.pairs:,} deal pairs a match, {args.lookahead_pairs:,} for lookahead vs heuristic2; "
        f"seed {args.seed}; match i from child i of the seed, the lookahead match child 3). "
        "Each deal is played twice, A at seats 0+2 then at seats 1+3, on the same random stream; rules: the "
        "defaults of RULES.md 3.", "",
        "| A | B | A minus B, points a hand | P(A's side better over the pair) | P(B's side better) |",
        "|---|---|---:|---:|---:|",
    ]
    lines += [f"| {a} | {b} | {r.points.format(1, sign=True)} | {r.better.format()} | "
              f"{Estimate.proportion(int(M.view(r.counts).worse), r.pairs).format()} |" for a, b, r in rows]
    lines += ["", "A pair neither side wins is a tie (both plays alike, or the margins cancel): the two "
              "probabilities need not add to 1."]
    lines += ["", verdict, ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def _verdict(a: str, b: str, r) -> str:
    e = r.points
    if e.lo > 0:
        return f"{a} beats {b}: {e.format(1, sign=True)} points a hand, the interval excludes zero."
    return (f"{a} does NOT beat {b} at this precision: {e.format(1, sign=True)} points a hand over {r.pairs:,} pairs; "
            f"the interval's lower end falls {-e.lo:.1f} points short of zero.")


if __name__ == "__main__":
    sys.exit(main())
