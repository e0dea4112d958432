"""The one Monte Carlo engine every game runs on.

A *chunk kernel* is a function ``kernel(state, n, out, *args)`` that plays ``n`` deals
from the xoshiro256** ``state`` (uint64[4]) and adds integer counts into ``out`` (int64[:]):
a compiled kernel, or plain Python that allocates the chunk's arrays and calls a compiled
loop. The engine cuts the work into chunks of fixed size, seeds chunk ``i`` from the
``i``-th child of the run's ``SeedSequence``, runs them on worker threads (the compiled code
runs with ``nogil=True``) or on a Dask cluster, and sums the counts. Because a chunk's
seed and size depend only on its index, the totals are bit-identical on any number of
threads or workers.

It stops after ``samples`` deals, or, with ``target_halfwidth``, when the 95% interval of
the caller's headline figure is that narrow. The plan of chunks is made as the run goes and
only a few chunks per thread are in flight, so memory and overhead do not grow with the
sample count. Ctrl-C returns within a second what was counted so far, marked ``partial``.

Run-size limits: at most :data:`MAX_SAMPLES` deals per run; a precision finer than
:data:`MIN_HALFWIDTH` (what :data:`MAX_SAMPLES` deals give a proportion near 1/2) is refused
(both checked in :mod:`cardodds._validate`, with every other run argument).
"""

from __future__ import annotations

import contextlib
import contextvars
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from . import _backend, _interactive
from ._backend import SKIPPED as _SKIPPED
from ._backend import available_cores
from ._validate import MAX_SAMPLES, MIN_HALFWIDTH, check_run_size, check_threads
from .rng import RngLike, as_seed_sequence, chunk_state

__all__ = [
    "DEFAULT_CHUNK", "MAX_SAMPLES", "MIN_HALFWIDTH", "RunResult", "available_cores", "cap_threads",
    "InOrder", "check_run_size", "default_threads", "defer_interrupts", "interrupted", "run", "session",
    "takes_backend",
]

#: Deals per chunk: large enough that Python's dispatch is noise (< 1%), small enough
#: that a Ctrl-C or a precision target is answered within milliseconds.
DEFAULT_CHUNK = 1 << 17
#: Samples a precision-targeted run may spend at most unless told otherwise.
DEFAULT_MAX_SAMPLES = 1 << 34
#: Chunks in flight per worker thread: enough to keep every thread busy, few enough that
#: an interruption or a precision target wastes little.
IN_FLIGHT_PER_THREAD = 4
#: How long an interrupted run waits for the chunks already running.
INTERRUPT_GRACE = 0.4


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
    goal: int = 0


def default_threads() -> int:
    """Threads used when ``threads=None``: every core this process may run on."""
    return available_cores()


def cap_threads(threads: int | None) -> tuple[int | None, str | None]:
    """``threads`` capped at the cores available, and a one-line notice when it was capped.

    More threads than cores only add switching: the counts are the same on any number.
    """
    if threads is None:
        return None, None
    cores = available_cores()
    if threads > cores:
        cores_text = f"{cores} core{'s' * (cores != 1)}"
        return cores, f"cardodds: note: {threads:,} threads asked, {cores_text} available; using {cores}"
    return threads, None


# ---- what a command's runs record (the CLI's exit status and partial marker) --------------


class Session:
    """The runs of one command: whether one was interrupted, and how far they got.

    Inside :func:`session`, a run started after an interruption raises ``KeyboardInterrupt``
    at once, so a command that makes several runs stops within a second too.
    """

    def __init__(self) -> None:
        self.interrupted = False
        self.runs: list[tuple[int, int, str]] = []  # (samples done, samples aimed at, unit)
        self.cut_short = False  # a run returned a partial result, or was not made

    def partial_line(self) -> str | None:
        """``interrupted: partial result, N of M deals`` for the interrupted run, or None
        (also when Ctrl-C came after the last run, which left every result whole)."""
        if not self.interrupted:
            return None
        for i, (done, goal, unit) in enumerate(self.runs):
            if done < goal:
                line = f"interrupted: partial result, {done:,} of {goal:,} {unit}s"
                if len(self.runs) > 1:  # a command of several runs: which one stopped
                    line += f" in run {i + 1}"
                return line
        return "interrupted: partial result" if self.cut_short else None


_SESSION: contextvars.ContextVar[Session | None] = contextvars.ContextVar("cardodds_session", default=None)


@contextlib.contextmanager
def session() -> Iterator[Session]:
    """Record the runs made in the block (the CLI wraps each command in one). Inside another
    session block, the enclosing session is used, so an interruption is seen by both."""
    s = _SESSION.get()
    if s is not None:
        yield s
        return
    s = Session()
    token = _SESSION.set(s)
    try:
        yield s
    finally:
        _SESSION.reset(token)


_DEFERRING = 0  # depth of defer_interrupts() blocks


@contextlib.contextmanager
def defer_interrupts() -> Iterator[None]:
    """In the block, Ctrl-C (the CLI's SIGINT handler, through :func:`defer_interrupt`) marks
    the session interrupted instead of raising where the main thread happens to be: the run
    under way stops at its next look (every 0.1 s), later runs do not start, and the Python
    code between runs is never cut short, so a command of several runs always has its answer
    so far to print. Only for blocks that do no long work outside runs."""
    global _DEFERRING
    _DEFERRING += 1
    try:
        yield
    finally:
        _DEFERRING -= 1


def defer_interrupt() -> bool:
    """For a SIGINT handler: inside :func:`defer_interrupts` and a :func:`session`, mark the
    session interrupted and return True (the handler then returns); else False (it raises)."""
    s = _SESSION.get()
    if _DEFERRING and s is not None:
        s.interrupted = True
        return True
    return False


def interrupted() -> bool:
    """Whether a run of the current :func:`session` was interrupted (False outside one)."""
    s = _SESSION.get()
    return s is not None and s.interrupted


def _note_interrupt() -> None:
    """An answer's step was dropped by an interruption: the answer is partial."""
    s = _SESSION.get()
    if s is not None:
        s.interrupted = s.cut_short = True


class InOrder:
    """Several runs made one after another for one answer, stopping at the first interrupted.

    ``step(call, *args)`` returns ``call(*args)`` (a run, or a result with ``partial``) until a step is
    interrupted; that step's partial result is still returned, every later step returns None
    without running. A step interrupted before it counted anything returns None too, unless
    it is the first: with nothing counted at all there is nothing to show, and the
    ``KeyboardInterrupt`` goes on to the caller. The caller builds its answer from the steps
    it got and marks it partial when :attr:`partial` is True.

    >>> steps = InOrder()
    >>> [steps.step(int, seat) for seat in range(3)]
    [0, 1, 2]
    >>> steps.partial
    False
    """

    def __init__(self) -> None:
        self.partial = False
        self.done = 0  # steps that returned a result

    def step(self, call: Callable, *args, partial_of: Callable[[Any], bool] | None = None, **kwargs):
        """``call(*args, **kwargs)``, or None once a step was interrupted; ``partial_of(result)``
        tells whether a result is partial (default: its ``partial`` attribute)."""
        if self.partial:
            return None
        try:
            got = call(*args, **kwargs)
        except KeyboardInterrupt:
            _note_interrupt()  # an interruption between runs stops the command's later runs too
            self.partial = True
            if self.done == 0:
                raise
            return None
        self.done += 1
        if partial_of(got) if partial_of is not None else getattr(got, "partial", False):
            self.partial = True
        return got


def takes_backend(func: Callable) -> Callable:
    """Give a public stochastic function the keyword ``backend=`` (``"threads"``, a
    ``dask.distributed.Client``, a scheduler address or ``"local[:N]"``): the call runs inside
    :func:`cardodds.backend`. Without it, the backend set by an enclosing ``cardodds.backend``
    block applies (threads by default). In an interactive session the call says once when it
    compiles (:func:`cardodds._interactive.call`). The call's signature (``inspect.signature``,
    ``help``) has ``backend=`` where ARCHITECTURE.md orders it: keyword-only, right after ``threads=``."""
    import functools
    import inspect

    sig = inspect.signature(func)
    names = list(sig.parameters)
    if "backend" in names or "threads" not in names:
        raise TypeError(f"{func.__qualname__}: takes_backend adds backend= after threads=; the function must "
                        "take threads= and not declare backend=")

    @functools.wraps(func)
    def call(*args, backend=None, **kwargs):
        with _interactive.call():  # in a notebook, one line when the call compiles
            if backend is None:
                return func(*args, **kwargs)
            with _backend.backend(backend):
                return func(*args, **kwargs)

    params = list(sig.parameters.values())
    at = names.index("threads") + 1
    params.insert(at, inspect.Parameter("backend", inspect.Parameter.KEYWORD_ONLY, default=None))
    call.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    return call


# ---- where chunks run -----------------------------------------------------------------------

class _Threads:
    """Daemon threads pulling chunks from a queue; the caller never blocks uninterruptibly."""

    def __init__(self, kernel, args, n_out, ss, nthreads: int) -> None:
        self.todo: queue.SimpleQueue = queue.SimpleQueue()
        self.done: queue.SimpleQueue = queue.SimpleQueue()
        self.stop = threading.Event()
        self.capacity = IN_FLIGHT_PER_THREAD * nthreads
        self.nthreads = nthreads
        self.in_flight = 0

        def work() -> None:
            while True:
                item = self.todo.get()
                if item is None:
                    return
                index, size = item
                if self.stop.is_set():
                    self.done.put(((index, size), _SKIPPED))
                    continue
                try:
                    out = np.zeros(n_out, dtype=np.int64)
                    kernel(chunk_state(ss, index), size, out, *args)
                    self.done.put(((index, size), out))
                except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread
                    self.stop.set()
                    self.done.put(((index, size), exc))

        self.threads = [threading.Thread(target=work, daemon=True, name=f"cardodds-{i}") for i in range(nthreads)]
        for t in self.threads:
            t.start()

    def room(self) -> int:
        return self.capacity - self.in_flight

    def submit(self, chunks: list[tuple[int, int]]) -> None:
        for c in chunks:
            self.todo.put(c)
        self.in_flight += len(chunks)

    def collect(self, timeout: float) -> list:
        """Finished chunks as ``[((index, size), counts | exception | _SKIPPED), ...]``."""
        try:
            first = self.done.get(timeout=timeout)
        except queue.Empty:
            return []
        got = [first]
        while True:
            try:
                got.append(self.done.get_nowait())
            except queue.Empty:
                break
        self.in_flight -= len(got)
        return got

    def cancel(self) -> None:
        self.stop.set()

    def close(self) -> None:
        self.stop.set()
        for _ in self.threads:
            self.todo.put(None)


_STORE: contextvars.ContextVar = contextvars.ContextVar("cardodds_chunk_store", default=None)


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
    (:func:`cardodds._validate.check_run`); this function trusts its arguments but ``threads``,
    refused as ``check_run`` refuses it, and capped at the cores available (the counts do not
    depend on it). It runs on the backend :func:`cardodds.backend` sets (threads by default; a
    public function's ``backend=`` sets it for its call).
    """
    threads = check_threads(threads)
    sess = _SESSION.get()
    if sess is not None and sess.interrupted:
        sess.cut_short = True  # a run of the answer is not made: the answer is partial
        raise KeyboardInterrupt  # this command was interrupted in an earlier run or between runs
    ss, seed = as_seed_sequence(rng)
    store = _STORE.get()
    store_run = store.begin_run(n_out) if store is not None else None
    total = np.zeros(n_out, dtype=np.int64)
    t0 = time.perf_counter()

    bar = _interactive.progress_bar(samples, unit) if progress else None

    done = 0  # samples counted
    planned = 0  # samples handed to chunks so far
    next_index = 0
    goal = int(samples) if samples is not None else 0
    partial = False

    with contextlib.ExitStack() as stack:
        stack.enter_context(_interactive.call())  # in a notebook, one line when the kernel compiles
        target = _backend.resolve_for_run(None, stack)
        ex: _Threads | _backend.DaskChunks
        if target is None:
            nthreads = default_threads() if threads is None else min(threads, available_cores())
            ex = _Threads(kernel, args, n_out, ss, nthreads)
        else:
            ex = _backend.DaskChunks(target, kernel, args, n_out, ss)
            nthreads = ex.nthreads

        def take(finished) -> None:
            nonlocal total, done
            for (index, size), out in finished:
                if out is _SKIPPED:
                    continue
                if isinstance(out, BaseException):
                    raise out
                total += out
                done += size
                if store_run is not None:
                    store_run.put(index, size, out)
                if bar is not None:
                    bar.update(size)

        def run_to(goal: int) -> None:
            """Count chunks until ``done == goal``. The plan depends on the goals alone, and
            they on the counts, so it is the same on any number of threads."""
            nonlocal next_index, planned, total, done
            while done < goal:
                if sess is not None and sess.interrupted:  # Ctrl-C deferred by defer_interrupts()
                    raise KeyboardInterrupt
                room = ex.room()
                batch = []
                while planned < goal and room > 0:
                    size = min(chunk_size, goal - planned)
                    index = next_index
                    next_index += 1
                    planned += size
                    stored = store_run.get(index, size) if store_run is not None else None
                    if stored is not None:
                        total += stored
                        done += size
                        if bar is not None:
                            bar.update(size)
                        continue
                    batch.append((index, size))
                    room -= 1
                if batch:
                    ex.submit(batch)
                if done < goal:
                    take(ex.collect(0.1))

        try:
            try:
                if target_halfwidth is None:
                    run_to(goal)
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
                # Chunks already running finish (they take milliseconds) and are kept; the
                # rest are dropped, so the counts stay a sum of whole chunks. A second
                # Ctrl-C stops the wait.
                ex.cancel()
                deadline = time.monotonic() + INTERRUPT_GRACE
                with contextlib.suppress(KeyboardInterrupt):
                    while ex.in_flight > 0 and time.monotonic() < deadline:
                        for (index, size), out in ex.collect(0.05):
                            if isinstance(out, np.ndarray):
                                take([((index, size), out)])
        finally:
            ex.close()
            if bar is not None:
                bar.close()
    if sess is not None:
        sess.runs.append((done, max(goal, done), unit))
        if partial:
            sess.interrupted = True
            sess.cut_short = True
    if done == 0 and partial:
        raise KeyboardInterrupt
    return RunResult(total, done, next_index, seed, partial, time.perf_counter() - t0, nthreads, max(goal, done))
