import math

import pytest


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
