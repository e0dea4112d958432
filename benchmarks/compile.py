"""What the first call of each command costs: numba compilation on an empty cache.

    python benchmarks/compile.py [--only kana] && python benchmarks/collect.py

Each command runs as a user types it (``python -m cardodds.cli ...``), with a small sample count
so compiling dominates, three times in fresh interpreters: once with an empty numba cache folder
(``NUMBA_CACHE_DIR``, the first call on a fresh install), then twice with that folder filled (every
later call). Wall time and CPU time (user + system of the process) are recorded; on a shared
machine the CPU seconds are the steadier figure. Writes ``RESULTS_compile.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: (label, arguments after ``cardodds``): the commands a user runs first.
COMMANDS = [
    ("kana", "kana odds --players 4 --samples 20000 --seed 1"),
    ("kana", "kana advise --players 4 --seat 2 --cards 9h,?,? --kanad 5c,Kd --samples 2000 --seed 1"),
    ("kanalje", "kanalje risk --policies random --samples 2000 --seed 1"),
    ("kanalje", "kanalje risk --policies heuristic --samples 2000 --seed 1"),
    ("kanalje", "kanalje risk --policies lookahead,heuristic,heuristic --samples 20 --seed 1"),
    ("canasta", "canasta melds --samples 20000 --seed 1"),
    ("canasta", "canasta play --samples 20 --seed 1"),
]


def timed(argv: list[str], cache: str) -> tuple[float, float]:
    """Wall and CPU seconds of ``cardodds argv`` in a fresh interpreter with numba's cache in ``cache``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "cardodds.cli", *argv], env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"cardodds {' '.join(argv)} failed ({run.returncode}): {run.stderr.strip()[-300:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--only", choices=("kana", "kanalje", "canasta"), action="append",
                    help="measure only this game's commands (repeatable)")
    a = ap.parse_args()
    rows = []
    load_before = os.getloadavg()[0]
    for game, command in COMMANDS:
        if a.only and game not in a.only:
            continue
        argv = command.split()
        with tempfile.TemporaryDirectory(prefix="cardodds-numba-") as cache:
            cold = timed(argv, cache)
            warm = min(timed(argv, cache), timed(argv, cache))
        rows.append((command, cold, warm))
        print(f"cardodds {command}: cold {cold[0]:.1f} s wall / {cold[1]:.1f} s CPU, "
              f"warm {warm[0]:.2f} s / {warm[1]:.2f} s", file=sys.stderr)
    load = os.getloadavg()
    import numba
    lines = [
        "# First call: compile time per command",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} logical cores, Linux {platform.release()}; Python "
        f"{platform.python_version()}, numba {numba.__version__}. Load average {load_before:.2f} before the run, "
        f"{load[0]:.2f} after (2 cores; wall time includes waiting for a core, CPU time does not).",
        "",
        "Each command in a fresh interpreter: `empty cache` with `NUMBA_CACHE_DIR` pointing at a new folder "
        "(the first call after installing), `warm` the better of two later runs with that folder filled. "
        "Reproduce: `python benchmarks/compile.py`; one row by hand: "
        "`NUMBA_CACHE_DIR=$(mktemp -d) /usr/bin/time -f '%e s wall, %U+%S s CPU' cardodds kana odds --players 4 "
        "--samples 20000 --seed 1`.",
        "",
        "| command | empty cache: wall s | empty cache: CPU s | warm: wall s | warm: CPU s |",
        "|---|---:|---:|---:|---:|",
    ]
    for command, cold, warm in rows:
        lines.append(f"| `cardodds {command}` | {cold[0]:.1f} | {cold[1]:.1f} | {warm[0]:.2f} | {warm[1]:.2f} |")
    (HERE / "RESULTS_compile.md").write_text("\n".join(lines) + "\n")
    print(HERE / "RESULTS_compile.md")


if __name__ == "__main__":
    main()
