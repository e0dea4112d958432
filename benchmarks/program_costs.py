"""What the ``cardodds`` program saves around numba: garbage collection, teardown, scipy's import.

    python benchmarks/program_costs.py [--repeats 5] && python benchmarks/collect.py

Each repeat runs one first call (``canasta play --policies heuristic --seed 1`` on an empty
``NUMBA_CACHE_DIR``) twice, the two ways taking turns to go first:

- **as the program** (``sys.exit(main())``): the collector's threshold ``cli.PROGRAM_GC_THRESHOLDS``
  and the exit by ``cli._leave``;
- **as a script calling** ``main(argv)``: Python's default thresholds and the interpreter's
  normal exit (its teardown), the code before these changes.

In the command's own process (a split first call's second process is not counted) it records
the collector's collections and CPU seconds (``gc.callbacks``), its peak memory (``wait4``), and
the seconds from the last exit handler to the end of the process (the teardown). Separately,
the import of ``scipy.linalg`` after numba's, which numba's BLAS check made at import and
``cardodds._jit`` now avoids. Writes ``RESULTS_program.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
COMMAND = ["canasta", "play", "--policies", "heuristic", "--seed", "1"]

#: Runs the command one way and, from an exit handler registered first (so it runs last), writes
#: the collector's figures and the time the handlers ended to the file named in argv[1].
_RUNNER = """
import atexit, gc, json, sys, time
out, way, argv = sys.argv[1], sys.argv[2], sys.argv[3:]
spent = [0.0, 0, 0.0]
def timer(phase, info):
    if phase == "start":
        spent[2] = time.process_time()
    else:
        spent[0] += time.process_time() - spent[2]
        spent[1] += 1
gc.callbacks.append(timer)
def report():
    with open(out, "w") as f:
        json.dump({"gc_cpu": spent[0], "collections": spent[1], "threshold": gc.get_threshold(),
                   "handlers_done": time.time()}, f)
atexit.register(report)
from cardodds.cli import main
if way == "program":
    sys.argv = ["cardodds", *argv]
    sys.exit(main())
sys.exit(main(argv))
"""

WAYS = ("program", "script")


def run_once(way: str) -> dict:
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as d:
        out = Path(d) / "figures.json"
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(HERE.parent)}
        proc = subprocess.Popen([sys.executable, "-c", _RUNNER, str(out), way, *COMMAND], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _, status, usage = os.wait4(proc.pid, 0)
        ended = time.time()
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"{way}: exit status {proc.returncode}")
        figures = json.loads(out.read_text())
    figures["teardown"] = ended - figures.pop("handlers_done")
    figures["peak_mb"] = usage.ru_maxrss / 1024
    return figures


def scipy_import_seconds() -> float:
    code = ("import time, numba, numba.core.registry; t = time.perf_counter(); import scipy.linalg; "
            "print(time.perf_counter() - t)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(run.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=5, help="first calls each way (default 5)")
    a = ap.parse_args()
    if not 1 <= a.repeats <= 50:
        ap.error(f"--repeats {a.repeats}: give 1 to 50")
    load_before, t0 = os.getloadavg(), time.perf_counter()
    runs: dict[str, list[dict]] = {way: [] for way in WAYS}
    for r in range(a.repeats):
        for way in (WAYS if r % 2 == 0 else WAYS[::-1]):
            runs[way].append(run_once(way))
            print(f"{way} ({r + 1}/{a.repeats}): {runs[way][-1]}", file=sys.stderr)
    scipy = [scipy_import_seconds() for _ in range(a.repeats)]
    load_after = os.getloadavg()

    def cell(way: str, key: str, fmt: str) -> str:
        values = [run[key] for run in runs[way]]
        return f"{statistics.median(values):{fmt}} ({min(values):{fmt}}–{max(values):{fmt}})"

    def paired(key: str, fmt: str) -> str:
        diffs = [s[key] - p[key] for p, s in zip(runs["program"], runs["script"], strict=True)]
        return f"{statistics.median(diffs):{fmt}} ({min(diffs):{fmt}}–{max(diffs):{fmt}})"

    rows = [("collector CPU s", "gc_cpu", ".2f"), ("collections", "collections", ".0f"),
            ("teardown s (last exit handler to the end)", "teardown", ".2f"), ("peak memory MB", "peak_mb", ".1f")]
    lines = [
        "# What the program saves around numba",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} logical cores, Linux {platform.release()}; Python "
        f"{platform.python_version()}. Load average {load_before[0]:.2f} before the run and {load_after[0]:.2f} "
        f"after it ({(time.perf_counter() - t0) / 60:.0f} min). Reproduce: `python benchmarks/program_costs.py "
        f"--repeats {a.repeats}`.",
        "",
        f"`cardodds {' '.join(COMMAND)}` on an empty compile cache, {a.repeats} times each way, the ways taking "
        "turns to go first; figures of the command's own process: median (range), and the paired difference "
        "(script minus program, run by run).",
        "",
        f"| figure | as the program (thresholds {tuple(runs['program'][0]['threshold'])}) | as a script calling "
        f"`main(argv)` (thresholds {tuple(runs['script'][0]['threshold'])}) | script − program |",
        "|---|---:|---:|---:|",
    ]
    lines += [f"| {label} | {cell('program', key, fmt)} | {cell('script', key, fmt)} | {paired(key, fmt)} |"
              for label, key, fmt in rows]
    lines += ["", f"Importing `scipy.linalg` after numba (what numba's BLAS check did on every command before "
                  f"`cardodds._jit` skipped it): {statistics.median(scipy):.2f} s wall, median of {a.repeats} fresh "
                  f"interpreters ({min(scipy):.2f}–{max(scipy):.2f})."]
    (HERE / "RESULTS_program.md").write_text("\n".join(lines) + "\n")
    print(HERE / "RESULTS_program.md")


if __name__ == "__main__":
    main()
