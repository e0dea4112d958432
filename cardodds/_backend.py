"""Where the engine's chunks run: threads in this process (default) or a Dask cluster.

On a cluster, chunks become tasks of several consecutive chunks, so that a task runs for
about :data:`TASK_SECONDS`; each task returns the counts of each of its chunks. Chunk ``i``
is seeded and sized exactly as on threads, so the summed counts are bit-identical. What a
task carries: the kernel as (module, name) when it is a module-level function (the worker
imports it, so it compiles, or loads from numba's cache, once per process), the run's
arguments (sent to each worker once), the run's ``SeedSequence`` and the chunk indices.
"""

from __future__ import annotations

import contextlib
import contextvars
import importlib
import os
import re
import sys
import time

import numpy as np

from ._version import __version__
from .rng import chunk_state

__all__ = ["backend"]

#: Seconds to wait for a Dask scheduler (and its first worker) before giving up.
CONNECT_TIMEOUT = 3.0
#: Aimed-at run time of one task: long enough that the per-task overhead is noise.
TASK_SECONDS = 1.0
#: Tasks in flight per worker thread.
TASKS_PER_THREAD = 2

DASK_HELP = ("run the simulation on a Dask cluster: a scheduler address (tcp://host:8786) or local[:N] "
             "(N worker processes on this machine); same seed, same numbers")

#: What a chunk that was cancelled before it ran yields in place of its counts (threads or Dask).
SKIPPED = object()

_BACKEND: contextvars.ContextVar = contextvars.ContextVar("cardodds_backend", default=None)

_ADDRESS = re.compile(r"^(?:(tcp|tls|ws|wss|ucx|inproc)://)?(\[[0-9a-fA-F:]+\]|[A-Za-z0-9][A-Za-z0-9.\-]*)(?::(\d{1,5}))?$")


def available_cores() -> int:
    """Cores this process may run on (``local`` without N starts one worker per core)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def _short(text: str, n: int = 60) -> str:
    return text if len(text) <= n else text[: n - 3] + "..."


def parse(spec):
    """``None`` (threads), ``("local", N)``, ``("address", "tcp://host:port")`` or ``("client", c)``."""
    try:
        return _parse(spec)
    except _BadSpec as exc:
        raise ValueError(f"backend {exc}") from None


class _BadSpec(Exception):
    pass


def _parse(spec):
    if spec is None or (isinstance(spec, str) and spec.strip().lower() == "threads"):
        return None  # the default: no need to import Dask (a third of a second) to know that
    try:
        from distributed import Client
    except ImportError:  # pragma: no cover - without the cluster extra
        clients: tuple[type, ...] = ()
    else:
        clients = (Client,)
    if isinstance(spec, clients):
        return ("client", spec)
    if not isinstance(spec, str):
        raise _BadSpec(f"{_short(repr(spec))} is not understood; give \"threads\", a "
                         "dask.distributed.Client, a scheduler address such as tcp://host:8786, or local[:N]")
    text = spec.strip()
    low = text.lower()
    if low == "local" or low.startswith("local:"):
        if low == "local":
            return ("local", available_cores())
        n = low[6:]
        if not n.isdigit() or not 1 <= int(n) <= 256:
            raise _BadSpec(f"{_short(text)!r}: local:N needs N worker processes, a whole number 1..256, "
                             "e.g. local:2")
        return ("local", int(n))
    m = _ADDRESS.match(text)
    if not m or m.group(3) is None and m.group(1) is None or (m.group(3) and not 0 < int(m.group(3)) < 65536):
        raise _BadSpec(f"{_short(text)!r} is not a scheduler address; give tcp://host:8786 (the address "
                         "`dask scheduler` prints), host:8786, or local[:N]")
    return ("address", text if m.group(1) else "tcp://" + text)


def cli_type(text: str):
    """argparse ``type=`` for ``--dask``: the value checked, kept as given."""
    import argparse

    try:
        _parse(text)
    except _BadSpec as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


def _dask():
    try:
        import distributed
    except ImportError:
        raise ValueError("the Dask backend needs dask.distributed: pip install 'cardodds[cluster]'") from None
    return distributed


def _check_workers(client) -> None:
    """Every worker can import this cardodds (same version), or a ValueError saying what to fix."""
    if getattr(client, "_cardodds_checked", False):
        return
    try:
        client.wait_for_workers(1, timeout=CONNECT_TIMEOUT)
    except Exception:  # noqa: BLE001 - dask raises TimeoutError subclasses that vary by version
        raise ValueError(f"the Dask scheduler at {client.scheduler.address} has no workers; start some with "
                         f"`dask worker {client.scheduler.address}`") from None
    found = client.run(eval, "__import__('cardodds').__version__", on_error="return")
    for address, got in sorted(found.items()):
        if isinstance(got, BaseException):
            raise ValueError(f"Dask worker {address} cannot import cardodds ({_short(str(got))}); install cardodds "
                             f"{__version__} where the workers run (pip install cardodds)")
        if got != __version__:
            raise ValueError(f"Dask worker {address} runs cardodds {got}, this process {__version__}; install the "
                             "same version on every worker so the numbers agree")
    client._cardodds_checked = True


def _open(spec, stack: contextlib.ExitStack):
    """A checked ``Client`` for ``spec`` (closed with ``stack`` when opened here), or None."""
    how = parse(spec)
    if how is None:
        return None
    kind, value = how
    distributed = _dask()
    if kind == "client":
        _check_workers(value)
        return value
    import logging

    if kind == "local":
        cluster = stack.enter_context(distributed.LocalCluster(
            n_workers=value, threads_per_worker=1, processes=True, dashboard_address=":0",
            silence_logs=logging.ERROR))
        client = stack.enter_context(distributed.Client(cluster, set_as_default=False))
    else:
        try:
            client = distributed.Client(value, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            raise ValueError(f"cannot reach the Dask scheduler at {_short(value)} within {CONNECT_TIMEOUT:g} s; start "
                             f"one with `dask scheduler`, or check the address ({_short(str(exc), 50)})") from None
        stack.enter_context(client)
    _check_workers(client)
    return client


@contextlib.contextmanager
def backend(spec="threads"):
    """Run every simulation in the block on ``spec``: ``"threads"``, a ``dask.distributed.Client``,
    a scheduler address (``"tcp://host:8786"``) or ``"local"`` / ``"local:N"`` (N worker
    processes started for the block). Yields the ``Client`` (None for threads).

    >>> import cardodds
    >>> with cardodds.backend("threads") as client:
    ...     client is None
    True
    """
    with contextlib.ExitStack() as stack:
        client = _open(spec, stack)
        token = _BACKEND.set(client if client is not None else "threads")
        try:
            yield client
        finally:
            _BACKEND.reset(token)


def resolve_for_run(spec, stack: contextlib.ExitStack):
    """The Client a run uses (None for threads); ``spec=None`` takes the one set by :func:`backend`."""
    if spec is None:
        spec = _BACKEND.get()
    if spec is None or isinstance(spec, str) and spec == "threads":
        return None
    return _open(spec, stack)


# ---- what travels to the workers -------------------------------------------------------------


class _Ref:
    """A module-level function named by (module, qualified name), imported where it is used."""

    __slots__ = ("module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __reduce__(self):
        return (_Ref, (self.module, self.name))

    def get(self):
        obj = importlib.import_module(self.module)
        for part in self.name.split("."):
            obj = getattr(obj, part)
        return obj


class _UserCallback:
    """A user's policy compiled by :func:`cardodds.policy.compile_user`: sent as the user's
    ``@njit`` function (numba pickles it, by reference or by value) and its signature, and
    compiled again on the worker (once per worker process)."""

    __slots__ = ("args",)

    def __init__(self, *args) -> None:
        self.args = args

    def __reduce__(self):
        return (_UserCallback, self.args)

    def get(self):
        from .policy import compile_user

        return compile_user(*self.args)


def _user_origin(obj):
    # Only a process that imported cardodds.policy can hold a user's callback.
    if "cardodds.policy" not in sys.modules:
        return None
    from .policy import origin

    return origin(obj)


def _compiled(obj) -> bool:
    # An @njit dispatcher (py_func) or a compiled callback (numba's CFunc keeps _pyfunc).
    return hasattr(obj, "py_func") or hasattr(obj, "_pyfunc")


def _ref(obj):
    made = _user_origin(obj)
    if made is not None:
        return _UserCallback(*made)
    fn = getattr(obj, "py_func", None) or getattr(obj, "_pyfunc", obj)
    module, name = getattr(fn, "__module__", None), getattr(fn, "__qualname__", None)
    if callable(obj) and module and name and "<" not in name:
        with contextlib.suppress(Exception):
            if _Ref(module, name).get() is obj:
                return _Ref(module, name)
        # A compiled callback kept under a name of its own (one made on first use by a module
        # ``__getattr__``): found among the module's names, and made again there by that name.
        for attr, value in list(vars(sys.modules.get(module, object)).items()):
            if value is obj:
                return _Ref(module, attr)
    return obj


def _rebuild(like, items):
    # A named tuple (a bundle of kernel arguments) keeps its type: the kernels read its fields.
    return type(like)(*items) if hasattr(like, "_fields") else tuple(items)


def _pack_args(args):
    return _rebuild(args, [_pack_args(a) if isinstance(a, tuple) else (_ref(a) if _compiled(a) else a) for a in args])


def _unpack_args(args):
    sent = (_Ref, _UserCallback)
    return _rebuild(args, [_unpack_args(a) if isinstance(a, tuple) else (a.get() if isinstance(a, sent) else a)
                           for a in args])


_RESOLVED: dict = {}


def _task(payload, chunks):
    """On a worker: counts of each chunk ``(index, size)`` as rows, and the seconds taken."""
    t0 = time.perf_counter()
    key = id(payload)
    hit = _RESOLVED.get(key)
    if hit is None or hit[0] is not payload:
        kref, args, ss, n_out = payload
        kernel = kref.get() if isinstance(kref, _Ref) else kref
        _RESOLVED.clear()
        hit = _RESOLVED[key] = (payload, kernel, _unpack_args(args), ss, n_out)
    _, kernel, args, ss, n_out = hit
    out = np.zeros((len(chunks), n_out), dtype=np.int64)
    for j, (index, size) in enumerate(chunks):
        kernel(chunk_state(ss, index), size, out[j], *args)
    return out, time.perf_counter() - t0


def _scatter(client, payload, tries: int = 3):
    """Send the run's arguments to the cluster once. A connection closed under it (a worker
    just lost, a pooled connection gone stale) is retried on a fresh connection."""
    from distributed.comm.core import CommClosedError

    for attempt in range(tries):
        try:
            [future] = client.scatter([payload], hash=False)
            return future
        except (CommClosedError, OSError):
            if attempt == tries - 1:
                raise
            time.sleep(0.2 * (attempt + 1))


class DaskChunks:
    """The engine's chunk runner on a Dask cluster (same interface as the thread runner)."""

    def __init__(self, client, kernel, args, n_out, ss) -> None:
        from distributed import as_completed

        self.client = client
        self.nthreads = max(1, sum(client.nthreads().values()))
        self.sent = (_ref(kernel), _pack_args(args), ss, n_out)
        self.payload = _scatter(client, self.sent)
        self.ac = as_completed(with_results=False, loop=client.loop)
        self.pending: dict = {}  # future -> chunks
        self.ready: list = []
        self.in_flight = 0  # chunks
        self.batch = 1  # chunks per task, grown from measured task times
        self.per_chunk: float | None = None
        self.retries: dict = {}

    def room(self) -> int:
        return max(0, TASKS_PER_THREAD * self.nthreads - len(self.pending)) * self.batch

    def _submit_task(self, chunks) -> None:
        fut = self.client.submit(_task, self.payload, chunks, pure=False)
        self.pending[fut] = chunks
        self.ac.add(fut)

    def submit(self, chunks) -> None:
        # Spread the chunks over the free task slots: near the end of a run (or of a precision
        # step) smaller tasks keep every worker busy instead of leaving one with the tail.
        free = max(1, TASKS_PER_THREAD * self.nthreads - len(self.pending))
        per = max(1, min(self.batch, -(-len(chunks) // free)))
        for i in range(0, len(chunks), per):
            self._submit_task(chunks[i:i + per])
        self.in_flight += len(chunks)

    def collect(self, timeout: float) -> list:
        got = self.ready
        self.ready = []
        deadline = time.monotonic() + timeout
        while not got and not self.ac.has_ready() and time.monotonic() < deadline:
            time.sleep(0.005)
        if self.ac.has_ready():
            for fut in self.ac.next_batch(block=False):
                got.extend(self._finished(fut))
        self.in_flight -= len(got)
        return got

    def _finished(self, fut) -> list:
        chunks = self.pending.pop(fut, None)
        if chunks is None:
            return []
        exc = None
        if fut.status == "finished":
            try:
                rows, seconds = fut.result()
            except Exception as e:  # the worker holding its result died before it was fetched
                exc = e
            else:
                per = seconds / len(chunks)
                self.per_chunk = per if self.per_chunk is None else 0.7 * self.per_chunk + 0.3 * per
                self.batch = int(min(4096, max(1, round(TASK_SECONDS / max(self.per_chunk, 1e-6)))))
                return [(c, rows[j]) for j, c in enumerate(chunks)]
        elif fut.status == "error":
            exc = fut.exception()
        lost = exc is None or type(exc).__name__ in ("KilledWorker", "CommClosedError", "FutureCancelledError")
        tries = self.retries.get(tuple(chunks), 0)
        if lost and tries < 5:
            # The worker holding it died: compute the same chunks again (counted once, when they arrive),
            # after sending the run's arguments again if they died with it (the only worker holding them).
            self.retries[tuple(chunks)] = tries + 1
            if self.payload.status != "finished":
                self.payload = _scatter(self.client, self.sent)
            self._submit_task(chunks)
            return []
        return [(chunks[0], exc if exc is not None else RuntimeError("a Dask task was lost"))] + [
            (c, SKIPPED) for c in chunks[1:]]

    def cancel(self) -> None:
        if self.pending:
            done = [f for f in self.pending if f.status == "finished"]
            for fut in done:
                self.ready.extend(self._finished(fut))
            rest = list(self.pending)
            self.pending.clear()
            with contextlib.suppress(Exception):
                self.client.cancel(rest)
        self.in_flight = len(self.ready)

    def close(self) -> None:
        self.cancel()
        with contextlib.suppress(Exception):
            self.payload.release()
