"""Checks of run arguments that every public function shares.

Every public function that runs deals validates ``samples=`` (with ``target_halfwidth=``),
``threads=`` and ``rng=`` through :func:`check_run`, so every game answers bad input with the
same message, before anything is compiled or run:

>>> check_run(samples=1000, threads=2, rng=7)
2
>>> check_run(threads=-5)
Traceback (most recent call last):
...
ValueError: threads=-5 must be a positive whole number (or None for every core)
>>> check_run(samples=0)
Traceback (most recent call last):
...
ValueError: samples=0 must be positive, e.g. samples=1_000_000
>>> check_run(rng="x")
Traceback (most recent call last):
...
ValueError: rng='x' is not understood; pass None, a non-negative int seed, a numpy.random.Generator or a numpy.random.SeedSequence
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["check_rng", "check_run", "check_threads"]

#: "Not given": the argument is not one the caller takes, so it is not checked.
_ABSENT = object()


def check_threads(threads) -> int | None:
    """``threads`` as given if it is None or a positive whole number, else ``ValueError``."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1:
        raise ValueError(f"threads={threads!r} must be a positive whole number (or None for every core)")
    return int(threads)


def check_rng(rng) -> None:
    """``ValueError`` unless ``rng`` is None, a seed >= 0, a ``Generator`` or a ``SeedSequence``.

    Checks the type and sign only: a ``Generator`` is not advanced here (the run draws from it).
    """
    if rng is None or isinstance(rng, (np.random.Generator, np.random.SeedSequence)):
        return
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if rng < 0:
            raise ValueError(f"seed {rng} is negative; pass a seed >= 0")
        return
    raise ValueError(
        f"rng={rng!r} is not understood; pass None, a non-negative int seed, "
        "a numpy.random.Generator or a numpy.random.SeedSequence"
    )


def check_run(*, samples=_ABSENT, target_halfwidth=None, threads=_ABSENT, rng=_ABSENT) -> int | None:
    """Validate the run arguments a public function takes; returns ``threads`` as validated.

    Pass only the arguments the function has: one not passed is not checked. ``samples=None``
    means "the function's default" and is accepted.
    """
    from .engine import check_run_size

    if samples is not _ABSENT:
        check_run_size(samples, target_halfwidth)
    elif target_halfwidth is not None:
        check_run_size(None, target_halfwidth)
    if rng is not _ABSENT:
        check_rng(rng)
    return check_threads(threads) if threads is not _ABSENT else None
