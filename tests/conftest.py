"""Shared fixtures.

Debug job: ``python -m pytest --boundscheck ...`` (or ``CARDODDS_BOUNDSCHECK=1 python -m pytest ...``)
compiles every kernel with bounds checking (``cardodds._jit``), so an index outside an array
fails the test with ``IndexError`` instead of reading stray memory. The flag is part of
numba's cache key: the checked and the fast builds keep separate cache entries.
"""

import math
import os
import sys

import pytest


def pytest_addoption(parser):
    parser.addoption("--boundscheck", action="store_true",
                     help="compile cardodds kernels with bounds checking (sets CARDODDS_BOUNDSCHECK=1)")


def pytest_configure(config):
    if config.getoption("boundscheck"):
        if "cardodds._jit" in sys.modules and not sys.modules["cardodds._jit"].BOUNDSCHECK:
            raise pytest.UsageError("--boundscheck must take effect before cardodds is imported; "
                                    "set CARDODDS_BOUNDSCHECK=1 in the environment instead")
        os.environ["CARDODDS_BOUNDSCHECK"] = "1"


def assert_within_4se(estimate, exact: float, n: int | None = None):
    """A Monte Carlo proportion within 4 standard errors of its exact value.

    The standard error is the exact one, sqrt(p (1 - p) / n), so a rare event whose
    estimate happens to be 0 is still judged fairly.
    """
    n = estimate.n if n is None else n
    se = math.sqrt(exact * (1.0 - exact) / n)
    assert abs(estimate.value - exact) <= 4 * se, (
        f"{estimate.value:.6f} is {abs(estimate.value - exact) / se:.1f} standard errors from the exact {exact:.6f}"
    )


@pytest.fixture
def chunk():
    """chunk(i): the generator state of chunk i of seed 12345, a fixed random stream."""
    from cardodds.rng import as_seed_sequence, chunk_state

    ss, _ = as_seed_sequence(12345)
    return lambda i=0: chunk_state(ss, i)


def run_twice_on_a_fresh_cache(code: str, cache) -> str:
    """Run ``code`` in two fresh interpreters with numba's cache in the empty folder ``cache``:
    the first compiles and stores, the second loads what the first stored. Both must exit 0;
    returns the second run's stdout."""
    import subprocess

    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache)}
    for _ in range(2):
        run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
        assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout
