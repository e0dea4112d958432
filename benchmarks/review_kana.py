"""How long a Känä evening's review takes: 30 rounds, one seat and every seat, once compiled.

    python benchmarks/review_kana.py            # writes benchmarks/RESULTS_review_kana.md
    python benchmarks/review_kana.py --quick    # a short run to check the script

The evening is 30 rounds at 4 players, peek-one, every seat the equilibrium table (the record
``cardodds kana trace`` writes, seed 1). ``kana.review`` rates seat 0's 30 känäs (and, with
``seat="all"``, the 120 of the table) at the review's default run size, on 1 and 2 threads:
medians of repeats of the wall and CPU seconds, compile excluded (a first call warms every kernel). Where the time goes:
the same review at fewer deals a känä, and one känä's advice with almost no deals (the fixed
cost of a decision). The first call's compile is measured apart, as the program a user starts
(``cardodds kana review``) in a fresh interpreter with an empty numba cache, then with it filled.
The machine is shared: compare figures within one run.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from _timing import cold_command  # noqa: E402

from cardodds import __version__  # noqa: E402
from cardodds.kana import KanaRules, Position, advise, review, trace  # noqa: E402
from cardodds.kana._defaults import REVIEW_SAMPLES  # noqa: E402
from cardodds.kana.equilibrium import table_strategy  # noqa: E402

PLAYERS, VARIANT, ROUNDS = 4, "peek-one", 30
#: The issue's target: an evening of 30 rounds reviewed within this many seconds on 2 cores.
TARGET = 10.0


def _median_seconds(fn, repeats: int) -> tuple[float, float]:
    """Median wall seconds and CPU seconds (this process's, every thread) of ``fn()``."""
    times, cpu = [], []
    for _ in range(repeats):
        t, c = time.perf_counter(), time.process_time()
        fn()
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(times), statistics.median(cpu)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    repeats = 1 if a.quick else 5
    load = os.getloadavg()[0]
    record = trace(table_strategy(VARIANT, PLAYERS), players=PLAYERS, variant=VARIANT, rounds=ROUNDS, rng=1)
    review(record, samples=1_000, rng=1)  # compile and warm
    rows = []
    for threads in (1, 2):
        for seat, label in ((0, "seat 0: 30 känäs"), ("all", "every seat: 120 känäs")):
            if seat == "all" and a.quick:
                continue
            s = _median_seconds(lambda: review(record, seat=seat, rng=1, threads=threads),
                                repeats if seat == 0 else max(1, repeats // 2))
            rows.append((f"{label}, {REVIEW_SAMPLES:,} deals a känä (the default)", threads, s))
    for samples in (100_000, 500_000, 1_000_000):  # 1,000,000: the advisor's own default
        s = _median_seconds(lambda: review(record, seat=0, samples=samples, rng=1, threads=2), repeats)
        rows.append((f"seat 0: 30 känäs, {samples:,} deals a känä", 2, s))
    fixed, _ = _median_seconds(lambda: advise(Position("9h ? ?", seat=2, kanad="5c Kd"),
                                              rules=KanaRules(PLAYERS, VARIANT), samples=1_000, rng=1, threads=2), 20)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "evening.txt"
        record.save(path)
        cli = ["-c", "import sys; from cardodds.cli import main; sys.exit(main())", "kana", "review", str(path),
               "--samples", "20000", "--seed", "1"]
        with tempfile.TemporaryDirectory() as cache:
            cold_cpu, cold_wall = cold_command(cli, cache)
            warm_cpu, warm_wall = cold_command(cli, cache)
    md = ["# Känä review benchmark", "",
          f"Machine: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores; Python "
          f"{platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, cardodds {__version__}. "
          f"Load average (1 minute) at the start {load:.2f}, after the run "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}.", "",
          "Command: `python benchmarks/review_kana.py`. The evening: `kana.trace(table_strategy('peek-one', 4), "
          f"players=4, variant='peek-one', rounds=30, rng=1)` (every seat the equilibrium table). Seconds of "
          f"`kana.review(record, seat=..., rng=1, threads=...)` once compiled, median of {repeats} repeats "
          f"(every seat: {max(1, repeats // 2)}). Target: an evening of 30 rounds within {TARGET:g} s on 2 cores.", "",
          "| review | threads | wall s | CPU s | wall per känä |", "|---|---:|---:|---:|---:|"]
    md += [f"| {name} | {threads} | {s:.2f} | {c:.2f} | {s / (120 if 'every' in name else 30) * 1000:.0f} ms |"
           for name, threads, (s, c) in rows]
    md += ["", f"One känä's advice with 1,000 deals (the fixed cost of a decision: the position checked, the "
               f"posterior weights of the earlier känäs, the run set up): {fixed * 1000:.1f} ms.", "",
           "The first call, as the program (`cardodds kana review FILE --samples 20000 --seed 1`), fresh "
           "interpreter:", "", "| numba cache | CPU s | wall s |", "|---|---:|---:|",
           f"| empty (compiles) | {cold_cpu:.1f} | {cold_wall:.1f} |", f"| filled | {warm_cpu:.1f} | {warm_wall:.1f} |"]
    text = "\n".join(md) + "\n"
    print(text)
    if not a.quick:
        (HERE / "RESULTS_review_kana.md").write_text(text)


if __name__ == "__main__":
    main()
