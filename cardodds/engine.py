"""The one Monte Carlo engine every game runs on.

A *chunk kernel* is a compiled function ``kernel(state, n, out, *args)`` that plays ``n``
deals from the xoshiro256** ``state`` (uint64[4]) and adds integer counts into ``out``
(int64[:]). The engine cuts the work into chunks of fixed size, seeds chunk ``i`` from the
``i``-th child of the run's ``SeedSequence``, runs them on a thread pool (kernels are
compiled with ``nogil=True``) and sums the counts. Because a chunk's seed and size depend
only on its index, the totals are bit-identical on any number of threads.

It stops after ``samples`` deals, or, with ``target_halfwidth``, when the 95% interval of
the caller's headline figure is that narrow. Ctrl-C returns what was counted so far,
marked ``partial``. Memory does not grow with the sample count: chunks return counts.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, ThreadPoolExecutor, wait
from dataclasses import dataclass, field

import numpy as np

from .rng import RngLike, as_seed_sequence, chunk_state

__all__ = ["DEFAULT_CHUNK", "RunResult", "check_run_size", "default_threads", "run"]

#: Deals per chunk: large enough that Python's dispatch is noise (< 1%), small enough
#: that a Ctrl-C or a precision target is answered within milliseconds.
DEFAULT_CHUNK = 1 << 17
#: Samples a precision-targeted run may spend at most unless told otherwise.
DEFAULT_MAX_SAMPLES = 1 << 34


@dataclass(frozen=True)
class RunResult:
    """Summed counts of a run and how they were obtained."""

    counts: np.ndarray = field(repr=False)
    samples: int
    chunks: int
    seed: object
    partial: bool
    seconds: float
    threads: int


def default_threads() -> int:
    """Threads used when ``threads=None``: every core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def check_run_size(samples, target_halfwidth) -> None:
    """Validate ``samples=`` / ``target_halfwidth=`` as every public function takes them."""
    if samples is not None and target_halfwidth is not None:
        raise ValueError("give either samples= or target_halfwidth= (a precision), not both")
    if samples is not None:
        if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
            raise ValueError(f"samples={samples!r} must be a whole number, e.g. samples=1_000_000")
        if samples <= 0:
            raise ValueError(f"samples={samples} must be positive, e.g. samples=1_000_000")
    if target_halfwidth is not None:
        if isinstance(target_halfwidth, bool) or not isinstance(target_halfwidth, (int, float, np.floating)):
            raise ValueError(f"precision {target_halfwidth!r} must be a number, e.g. 0.001")
        if not (0 < target_halfwidth < 1) or math.isnan(target_halfwidth):
            raise ValueError(
                f"precision {target_halfwidth} must be a 95% half-width between 0 and 1, e.g. 0.001 for ±0.1 points"
            )


def run(
    kernel: Callable,
    args: tuple,
    n_out: int,
    *,
    samples: int | None = None,
    target_halfwidth: float | None = None,
    halfwidth: Callable[[np.ndarray, int], float] | None = None,
    rng: RngLike = None,
    chunk_size: int = DEFAULT_CHUNK,
    threads: int | None = None,
    progress: bool = False,
    max_samples: int = DEFAULT_MAX_SAMPLES,
    unit: str = "deal",
) -> RunResult:
    """Run ``kernel`` over chunks until ``samples`` deals or ``target_halfwidth`` is met.

    ``halfwidth(counts, n)`` gives the 95% half-width of the headline figure from the summed
    counts; it is needed with ``target_halfwidth``. Callers validate user input first
    (:func:`check_run_size`); this function trusts its arguments.
    """
    ss, seed = as_seed_sequence(rng)
    nthreads = default_threads() if threads is None else max(1, int(threads))
    total = np.zeros(n_out, dtype=np.int64)
    t0 = time.perf_counter()

    def one_chunk(index: int, size: int) -> np.ndarray:
        out = np.zeros(n_out, dtype=np.int64)
        kernel(chunk_state(ss, index), size, out, *args)
        return out

    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=samples, unit=unit, unit_scale=True, file=sys.stderr, leave=False, dynamic_ncols=True)

    done = 0  # samples counted
    planned = 0  # samples handed to chunks so far
    next_index = 0
    partial = False
    pool = ThreadPoolExecutor(max_workers=nthreads) if nthreads > 1 else None

    def run_to(goal: int) -> None:
        """Count chunks until ``done == goal``. The plan depends on the goals alone, and
        they on the counts, so it is the same on any number of threads."""
        nonlocal done, next_index, total, planned
        plan = []
        while planned < goal:
            size = min(chunk_size, goal - planned)
            plan.append((next_index, size))
            next_index += 1
            planned += size
        if pool is None:
            for index, size in plan:
                total += one_chunk(index, size)
                done += size
                if bar is not None:
                    bar.update(size)
            return
        pending = {pool.submit(one_chunk, i, n): n for i, n in plan}
        try:
            while pending:
                finished, _ = wait(pending, timeout=0.25, return_when=FIRST_COMPLETED)
                for fut in finished:
                    size = pending.pop(fut)
                    total += fut.result()
                    done += size
                    if bar is not None:
                        bar.update(size)
        except BaseException:
            # Chunks already running finish (they take milliseconds) and are kept; the
            # rest are dropped. The counts stay a sum of whole chunks.
            for fut in pending:
                fut.cancel()
            for fut, size in pending.items():
                if not fut.cancelled():
                    try:
                        total += fut.result()
                        done += size
                    except BaseException:
                        pass
            raise

    try:
        if target_halfwidth is None:
            run_to(int(samples))
        else:
            if halfwidth is None:
                raise ValueError("target_halfwidth needs a halfwidth function")  # a programming error
            cap = int(max_samples if samples is None else samples)
            # A small pilot: a loose target is met at once, a tight one grows from here.
            goal = min(cap, max(chunk_size // 4, 1))
            while True:
                if bar is not None:
                    bar.total = goal
                    bar.refresh()
                run_to(goal)
                h = halfwidth(total, done)
                if h <= target_halfwidth or done >= cap:
                    break
                # Half-widths shrink as 1/sqrt(n): aim a little past the estimate, grow at
                # most 4x per step so a noisy pilot cannot overshoot far; whole chunks only.
                need = done * (h / target_halfwidth) ** 2 * 1.05 if h == h else 4.0 * done
                goal = int(min(cap, max(done + 1024, min(need, 4.0 * done))))
    except KeyboardInterrupt:
        partial = True
    finally:
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)
        if bar is not None:
            bar.close()
    if done == 0 and partial:
        raise KeyboardInterrupt
    return RunResult(total, done, next_index, seed, partial, time.perf_counter() - t0, nthreads)
