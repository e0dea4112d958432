"""The game equity tables: the default rules' table build on one and two threads, and a lookup.

Run: ``python benchmarks/equity.py [--games kanalje3,kanalje2,canasta] [--threads 1,2]``; prints
a markdown table (``benchmarks/RESULTS_equity.md`` quotes it).

Each build is the shipped table's (``equity._build`` with the default sizes and seed: the deals
or hands measured, the solve, the bootstrap), compiled first by a tiny build, wall seconds, and
whether it gives the shipped table's counts (it must: the same seed). A lookup is
``equity(score)`` on the shipped table: the first call of a process (the table file read) and
the median of 20 calls after it.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import statistics
import time

import numpy as np

from cardodds.canasta.rules import CanastaRules
from cardodds.kanalje.rules import KanaljeRules

keq = importlib.import_module("cardodds.kanalje.equity")
ceq = importlib.import_module("cardodds.canasta.equity")

GAMES = {
    "kanalje3": (keq, KanaljeRules(players=3), keq.EQUITY_DEALS, "kanalje", (12, 17, 5)),
    "kanalje2": (keq, KanaljeRules(players=2), keq.EQUITY_DEALS, "kanalje", (12, 18)),
    "canasta": (ceq, CanastaRules(), ceq.EQUITY_HANDS, "canasta", (6200, 5400)),
}


def _shipped(mod, rules):
    return mod._shipped(rules.players) if hasattr(rules, "turned_jack") else mod._shipped()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--threads", default="1,2")
    args = ap.parse_args()
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; load "
          f"{os.getloadavg()[0]:.1f}")
    print("| table | threads | build, s | the shipped counts |")
    print("|---|---|---|---|")
    for name in args.games.split(","):
        mod, rules, size, _, _ = GAMES[name]
        mod._build(rules, 2_000, 1, 1, False)  # compiled first
        seed = mod.EQUITY_SEED
        for threads in (int(t) for t in args.threads.split(",")):
            t0 = time.perf_counter()
            t = mod._build(rules, size, seed, threads, False)
            took = time.perf_counter() - t0
            shipped = _shipped(mod, rules)
            same = shipped is not None and np.array_equal(shipped.counts, t.counts)
            print(f"| {name} | {threads} | {took:.1f} | {'yes' if same else 'NO'} |", flush=True)
    print()
    print("| lookup | first call, s | median of 20, ms |")
    print("|---|---|---|")
    for name in args.games.split(","):
        mod, rules, _, _, score = GAMES[name]
        if hasattr(mod, "_shipped"):
            (mod._shipped.cache_clear)()
        t0 = time.perf_counter()
        mod.equity(score, rules=rules)
        first = time.perf_counter() - t0
        runs = []
        for _ in range(20):
            t0 = time.perf_counter()
            mod.equity(score, rules=rules)
            runs.append(time.perf_counter() - t0)
        print(f"| {name} {score} | {first:.3f} | {1000 * statistics.median(runs):.2f} |", flush=True)


if __name__ == "__main__":
    main()
