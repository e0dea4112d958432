"""Känä advisor kernel before and after a change: CPU-time rates of one ``kana.advise`` call,
the two trees alternating in one session (this machine is shared; CPU time is what one free
core does, wall time is inflated by other work).

    python benchmarks/kana_before_after.py /path/to/old/tree [--repeats 5] [--samples 300000]

Each measurement is a fresh interpreter with ``PYTHONPATH`` set to the tree: it compiles
outside the clock, then times ``samples`` deals on one thread, three times, and reports the
median rate. Prints a markdown table; the ratio is after / before.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CALLS = {
    "peek-one, seat 2, 9h, känäd 5c Kd, table": (
        "dict(players=4, variant='peek-one', seat=2, cards='9h ? ?', kanad='5c Kd', opponents='table')"
    ),
    "peek-all, seat 1, 9h Kd 2c, känäd 5c, table": (
        "dict(players=4, variant='peek-all', seat=1, cards='9h Kd 2c', kanad='5c', opponents='table')"
    ),
}

CODE = """
import statistics, time
from cardodds.kana import advise
kw = {kw}
advise(**kw, samples=2000, rng=1, threads=1)
rates = []
for _ in range(3):
    t = time.process_time()
    advise(**kw, samples={samples}, rng=1, threads=1)
    rates.append({samples} / (time.process_time() - t))
print(statistics.median(rates))
"""


def one(tree: str, kw: str, samples: int) -> float:
    env = dict(os.environ, PYTHONPATH=tree)
    out = subprocess.run([sys.executable, "-c", CODE.format(kw=kw, samples=samples)], capture_output=True,
                         text=True, env=env, check=True, cwd="/")
    return float(out.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="the tree to compare against (a git worktree of the old commit)")
    ap.add_argument("--after", default=str(HERE.parent), help="the tree with the change (default: this one)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--samples", type=int, default=1_000_000)
    args = ap.parse_args(argv)
    print("| call | before deals/s (CPU) | after deals/s (CPU) | after / before |")
    print("|---|---:|---:|---:|")
    for name, kw in CALLS.items():
        before, after = [], []
        for _ in range(args.repeats):
            before.append(one(args.before, kw, args.samples))
            after.append(one(args.after, kw, args.samples))
        b, a = statistics.median(before), statistics.median(after)
        print(f"| {name} | {b / 1e3:,.0f} k | {a / 1e3:,.0f} k | {a / b:.3f} |", flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nLoad average after the run: {load}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
