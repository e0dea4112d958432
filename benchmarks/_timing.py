"""Timing helpers the benchmark scripts share (run as ``python benchmarks/<game>.py``)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time


def median_rate(fn, n, repeats, clock=time.perf_counter):
    """Median of ``n / seconds`` over ``repeats`` calls of ``fn(n)``; ``clock=time.process_time``
    counts this process's CPU time, closer to what one free core does on a shared machine."""
    rates = []
    for _ in range(repeats):
        t0 = clock()
        fn(n)
        rates.append(n / (clock() - t0))
    return statistics.median(rates)


def compile_seconds(code: str, cache_dir: str) -> float:
    """Run ``code`` (which prints its own elapsed seconds last) in a fresh interpreter with
    numba's cache in ``cache_dir``: the first call with an empty folder is the cold compile."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])
