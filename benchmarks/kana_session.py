"""Throughput of Känä sessions: the public call against the one-round strategy kernel.

    python benchmarks/kana_session.py            # writes benchmarks/RESULTS_kana_session.md
    python benchmarks/kana_session.py --quick    # a short run to check the script

A session plays every round at two tables (the real starter rule and, paired, a rotating
starter), so its figure is compared per table-round with ``kana.odds`` given the same
strategies (one table, one round at a time). Medians of several repeats, compile excluded;
the machine is shared, so compare the ratios within one run.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import time
from pathlib import Path

import numba
import numpy as np

from cardodds import __version__
from cardodds.engine import default_threads
from cardodds.kana import KanaRules, odds, session

HERE = Path(__file__).resolve().parent
TABLE = ["threshold:8", "blind", "blind", "blind"]
ROUNDS = 50


def _median_rate(fn, units: int, repeats: int) -> float:
    fn()  # compile and warm
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return units / statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    sessions = 400 if a.quick else 8_000
    repeats = 2 if a.quick else 5
    rules = KanaRules(players=4, variant="peek-one")
    rows = []
    for threads in (1, default_threads()):
        r = _median_rate(lambda: session(TABLE, rules=rules, rounds=ROUNDS, samples=sessions, rng=1, threads=threads),
                         sessions * ROUNDS * 2, repeats)
        rows.append((f"kana.session, 2 tables, {threads} thread(s)", r))
        o = _median_rate(lambda: odds(rules=rules, policies=TABLE, samples=sessions * ROUNDS, rng=1, threads=threads),
                         sessions * ROUNDS, repeats)
        rows.append((f"kana.odds with the same strategies, {threads} thread(s)", o))
    base = rows[1][1]
    md = ["# Känä sessions benchmark", "",
          f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores; Python "
          f"{platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, cardodds {__version__}. "
          f"Load average after the run: {', '.join(f'{x:.2f}' for x in os.getloadavg())}.", "",
          f"Table-rounds per second, 4 players, peek-one, {TABLE}, sessions of {ROUNDS} rounds; median of "
          f"{repeats} repeats.", "", "| call | table-rounds/s | vs kana.odds, 1 thread |", "|---|---:|---:|"]
    md += [f"| {name} | {rate / 1e6:.2f} M | {rate / base:.2f} |" for name, rate in rows]
    text = "\n".join(md) + "\n"
    print(text)
    if not a.quick:
        (HERE / "RESULTS_kana_session.md").write_text(text)


if __name__ == "__main__":
    main()
