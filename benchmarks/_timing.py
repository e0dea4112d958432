"""Timing helpers the benchmark scripts share (run as ``python benchmarks/<game>.py``)."""

from __future__ import annotations

import os
import resource
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


def median_interval(values, level=0.95):
    """A distribution-free interval for the median of ``values`` (independent draws, such as
    the paired after/before ratios of fresh interpreters): the order statistics
    ``(x_(k), x_(n+1-k))`` with the largest ``k`` whose coverage ``1 - 2 P(Binomial(n, 1/2) < k)``
    is at least ``level``; None when not even the smallest and the largest value reach it (at
    95%, fewer than 6 values).

    >>> median_interval([0.98, 1.01, 0.97, 1.00, 0.99, 1.02, 0.96])  # 7 values: min and max, 98.4%
    (0.96, 1.02)
    >>> median_interval([1.0, 0.99, 1.01, 0.98, 1.02]) is None  # 5 values: at most 93.8%
    True
    """
    from scipy.stats import binom

    x = sorted(values)
    n = len(x)
    k = 0
    while k < n // 2 and 1 - 2 * binom.cdf(k, n, 0.5) >= level:
        k += 1
    return None if k == 0 else (x[k - 1], x[n - k])


def compile_seconds(code: str, cache_dir: str) -> float:
    """Run ``code`` (which prints its own elapsed seconds last) in a fresh interpreter with
    numba's cache in ``cache_dir``: the first call with an empty folder is the cold compile."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return float(out.stdout.strip().splitlines()[-1])


def cpu_rate(fn, n):
    """``n / CPU seconds`` of one call ``fn(n)`` (this process's CPU time)."""
    t = time.process_time()
    fn(n)
    return n / (time.process_time() - t)


def wall_rate(fn, n):
    """``n / wall seconds`` of one call ``fn(n)``."""
    t = time.perf_counter()
    fn(n)
    return n / (time.perf_counter() - t)


def cold_command(args, cache_dir):
    """``(CPU seconds, wall seconds)`` of ``python args...`` with numba's cache in ``cache_dir``
    (and this checkout's bytecode, as :func:`installed_env` has it)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    bytecode(root)
    env = dict(installed_env(root), NUMBA_CACHE_DIR=cache_dir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, *args], env=env, check=True, capture_output=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime, wall


def bytecode(tree) -> None:
    """Python's bytecode of the sources in ``tree`` written, as ``pip install`` writes it, so that a
    timed command pays for numba's compiling and not Python's (a larger tree would pay more)."""
    import compileall
    from pathlib import Path

    if not compileall.compile_dir(Path(tree) / "cardodds", quiet=1):
        raise SystemExit(f"{tree}: the sources do not compile")


def installed_env(tree) -> dict:
    """The environment of a timed command on ``tree``: its cardodds first on the path, and
    Python's bytecode read as an install has it (:func:`bytecode`), whatever this shell says."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env
