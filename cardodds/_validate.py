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
ValueError: rng='x' is not understood; pass None, a non-negative int seed, a numpy.random.Generator or ...
"""

from __future__ import annotations

import math
import numbers

import numpy as np

from ._backend import available_cores

__all__ = ["MAX_SAMPLES", "MIN_HALFWIDTH", "check_rng", "check_run", "check_run_size", "check_threads"]

#: The largest run accepted: 10^12 deals (about a day on a fast game and a 16-core machine).
MAX_SAMPLES = 10**12
#: The finest precision accepted: the 95% half-width of a proportion near 1/2 after
#: :data:`MAX_SAMPLES` deals (about 1e-6).
MIN_HALFWIDTH = 1.96 * 0.5 / math.sqrt(MAX_SAMPLES)
#: Deals per second and core of the fastest cardodds game; refusals quote times at this
#: rate, so the estimated time is a lower bound.
FASTEST_RATE = 10_000_000

#: "Not given": the argument is not one the caller takes, so it is not checked.
_ABSENT = object()


def _duration(seconds: float) -> str:
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600), ("minutes", 60)):
        if seconds >= size:
            return f"{seconds / size:,.0f} {unit}"
    return f"{seconds:.0f} seconds"


def _time_at_best(samples: float) -> str:
    cores = available_cores()
    return f"at least {_duration(samples / (FASTEST_RATE * cores))} on {cores} core{'s' * (cores != 1)}"


def samples_problem(samples: int) -> str | None:
    """Why ``samples`` deals are too many for one run, or None."""
    if samples > MAX_SAMPLES:
        shown = f"{samples:,}" if len(str(samples)) <= 16 else f"{float(samples):.3g}"
        return (f"{shown} samples would take {_time_at_best(samples)}; the most one run takes is "
                f"{MAX_SAMPLES:.0e} (split the work, or ask for fewer)")
    return None


def precision_problem(halfwidth: float) -> str | None:
    """Why a 95% half-width is finer than a run may aim for, or None."""
    if 0 < halfwidth < MIN_HALFWIDTH:
        need = (1.96 * 0.5 / halfwidth) ** 2
        return (f"precision {halfwidth:g} may need {need:.2g} samples ({_time_at_best(need)}); the finest "
                f"accepted is {MIN_HALFWIDTH:.2g} ({MAX_SAMPLES:.0e} samples)")
    return None


def check_run_size(samples, target_halfwidth) -> None:
    """Validate ``samples=`` / ``target_halfwidth=`` as every public function takes them."""
    if samples is not None and target_halfwidth is not None:
        raise ValueError("give either samples= or target_halfwidth= (a precision), not both")
    if samples is not None:
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
            raise ValueError(f"samples={samples!r} must be a whole number, e.g. samples=1_000_000")
        if samples <= 0:
            raise ValueError(f"samples={samples} must be positive, e.g. samples=1_000_000")
        problem = samples_problem(int(samples))
        if problem:
            raise ValueError(problem)
    if target_halfwidth is not None:
        if isinstance(target_halfwidth, bool) or not isinstance(target_halfwidth, (int, float, np.floating)):
            raise ValueError(f"precision {target_halfwidth!r} must be a number, e.g. 0.001")
        if not (0 < target_halfwidth < 1) or math.isnan(target_halfwidth):
            raise ValueError(
                f"precision {target_halfwidth} must be a 95% half-width between 0 and 1, e.g. 0.001 for ±0.1 points"
            )
        problem = precision_problem(float(target_halfwidth))
        if problem:
            raise ValueError(problem)


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
            raise ValueError(f"rng={rng} is a negative seed; pass a seed >= 0")
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
    if samples is not _ABSENT:
        check_run_size(samples, target_halfwidth)
    elif target_halfwidth is not None:
        check_run_size(None, target_halfwidth)
    if rng is not _ABSENT:
        check_rng(rng)
    return check_threads(threads) if threads is not _ABSENT else None


def check_totals(score, count: int, who: str, example: str, game: str) -> list[int]:
    """``score`` (a sequence, or a string ``"12,17,5"``) as ``count`` whole totals, one a ``who``
    (seat, side); ``example`` is a valid score, ``game`` what has ``count`` of them in the error's
    words ("the game has 3 players")."""
    if isinstance(score, str):
        score = score.replace(",", " ").split()
    try:
        vals = [int(v) for v in score]
        ok = all(not isinstance(v, bool) and float(v) == int(v) for v in score)
    except (TypeError, ValueError):
        ok = False
    if not ok:
        raise ValueError(f"score={score!r} must be one whole total a {who}, e.g. {example}")
    if len(vals) != count:
        totals = f"{len(vals)} total" + "s" * (len(vals) != 1)
        raise ValueError(f"score has {totals} but {game}: give one total a {who}, e.g. {example}")
    return vals
