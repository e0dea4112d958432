"""The interval for a median that the benchmarks print (``benchmarks/_timing.py``): the speed
tables in ``benchmarks/RESULTS_*.md`` quote it for every before/after ratio."""

from __future__ import annotations

import importlib.util
import math
from pathlib import Path

import numpy as np
import pytest

# Loaded by path: putting benchmarks/ on sys.path would let its dask.py shadow the dask package
# for every later test.
_spec = importlib.util.spec_from_file_location(
    "_benchmark_timing", Path(__file__).resolve().parents[1] / "benchmarks" / "_timing.py")
_timing = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_timing)
median_interval = _timing.median_interval


def _coverage(n: int, k: int) -> float:
    """P(x_(k) <= median <= x_(n+1-k)) for n independent draws: 1 - 2 P(Binomial(n, 1/2) < k)."""
    return 1 - 2 * sum(math.comb(n, i) for i in range(k)) / 2 ** n


@pytest.mark.parametrize("n", [6, 7, 9, 10, 13, 20])
def test_the_narrowest_order_statistics_that_reach_95_percent(n):
    x = list(np.random.default_rng(n).permutation(n) / 10)
    lo, hi = median_interval(x)
    k = sorted(x).index(lo) + 1
    assert sorted(x)[n - k] == hi
    assert _coverage(n, k) >= 0.95
    assert k == n // 2 or _coverage(n, k + 1) < 0.95


@pytest.mark.parametrize("n", [7, 10])
def test_the_interval_covers_the_median_as_often_as_it_says(n):
    rng = np.random.default_rng(2026 + n)
    trials = 4000
    hits = 0
    for _ in range(trials):
        lo, hi = median_interval(rng.standard_normal(n))
        hits += lo <= 0.0 <= hi
    lo, hi = median_interval(list(range(n)))
    expected = _coverage(n, lo + 1)
    se = math.sqrt(expected * (1 - expected) / trials)
    assert abs(hits / trials - expected) < 4 * se


def test_too_few_values_give_no_interval():
    assert median_interval([1.0, 0.99, 1.01, 0.98, 1.02]) is None
    assert median_interval([]) is None


def test_timed_commands_read_bytecode_as_an_install_has_it(tmp_path, monkeypatch):
    # a shell with PYTHONDONTWRITEBYTECODE would have every timed start compile its sources
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = _timing.installed_env(tmp_path)
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["PYTHONPATH"] == str(tmp_path)
    (tmp_path / "cardodds").mkdir()
    (tmp_path / "cardodds" / "a.py").write_text("x = 1\n")
    _timing.bytecode(tmp_path)
    assert list((tmp_path / "cardodds" / "__pycache__").glob("a.*.pyc"))
    (tmp_path / "cardodds" / "b.py").write_text("x = (\n")
    with pytest.raises(SystemExit, match="do not compile"):
        _timing.bytecode(tmp_path)
