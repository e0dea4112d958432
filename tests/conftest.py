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
    # equity tables built on demand are cached in the test run's own folder, never the user's
    if "CARDODDS_CACHE_DIR" not in os.environ:
        import tempfile

        os.environ["CARDODDS_CACHE_DIR"] = tempfile.mkdtemp(prefix="cardodds-cache-")
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


def in_ci() -> bool:
    """Whether the tests run in CI (``CI`` set, as CI services set it, and not "0" or "false")."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def browser_or_skip() -> tuple[str, str]:
    """The paths of Chromium and its driver (``cardodds.report.browser.locate``) for a test that
    opens the report's page in a browser. Without them the test is skipped, its reason the line
    that installs them (the README's test command passes on a machine with no browser); under
    ``CI=true`` it fails instead, so CI never passes with the browser tests unrun."""
    from cardodds.report.browser import BrowserMissing, locate

    try:
        return locate()
    except BrowserMissing as exc:
        missing = str(exc)
    if in_ci():
        pytest.fail(f"CI=true and the browser tests need headless Chromium: {missing}", pytrace=False)
    # Not a hollow skip: under CI=true the same test fails (above), and the reason says what to install.
    pytest.skip(f"needs headless Chromium: {missing}")


@pytest.fixture(scope="session")
def chromium() -> tuple[str, str]:
    """Chromium and its driver, or the test skipped (failed under ``CI=true``): :func:`browser_or_skip`."""
    return browser_or_skip()


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
