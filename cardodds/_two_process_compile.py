"""A command's first call compiles in two processes: :func:`two_processes`.

On an empty cache a command waits for numba, which compiles one function at a time: one core
works and the other waits. Where a command's kernels form a tree rather than a chain (Canasta's
moves beside its scores and heuristic; Kanalje's advice: the play-outs beside the position and
its hidden cards; Kanalje's deal loop beside what it calls through a pointer: a look-ahead or
``pimc`` player's search, or the heuristic lineup's play-out), a second process compiles one
part into the on-disk cache, which numba shares between processes, while the command compiles
the rest. When the command's compiling reaches a function of that part, it waits until the
second process has compiled it (one line on a pipe per function), then loads it from the cache.
Where the part is the longer, the command first compiles functions the part calls (:data:`FIRST`),
which the second process then loads from the cache.
:data:`SPLITS` names each part: functions with the argument types the command calls them with
(``tests/test_warmup.py`` runs each command and checks that the second process compiled every
one and the command none). A chain has nothing to split: each function waits for the one below.

The second process starts only on a fresh cache (a function of the part without a cache entry),
with two or more cores, outside a warm-up task (the warm-up and the report run their own
processes), and only from the command line: a call from Python compiles in its own process, as
numba does. A second process that fails or is killed costs nothing but its time: the command
then compiles what it needed itself. It ends with the command: it is killed when the command
ends, and it stops by itself at its next line once the command has gone (Ctrl-C at a terminal
reaches both). On Linux it is a fork of the command, which has numba and the kernels imported
already; elsewhere a fresh interpreter.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Iterator
from typing import IO, cast

__all__ = ["FIRST", "SPLITS", "two_processes"]

#: The argument types of Kanalje's exact end-of-deal search and of a search, which the kernels
#: call through a pointer (``kanalje._policies.ENDGAME_SIGNATURE``, ``SEARCH_SIGNATURE``, a
#: :class:`cardodds._jit.Pointer`).
_ENDGAME = "(int64[::1], int64, int64[:, ::1], int64)"
_SEARCH = (f"(uint64[::1], int64[::1], int64, int64, int64, int64[:, ::1], uint64[:, ::1], "
           f"FunctionType(int64{_ENDGAME}))")


def _kanalje_advise(phase1: bool) -> tuple[tuple[str, str], ...]:
    """The advisor's part for a look-ahead lineup: the search's part without the deal records,
    which an advisor never reaches (it records options, not deals). Without phase 1 the part
    also holds the card choice of the advice loop's play-outs (``choose``), which the command
    otherwise compiled after the heuristic it waited for, and leaves the worlds' deal
    (``sample_world``) to the command (:data:`FIRST`); with phase 1 the two parts are even."""
    search = tuple(f for f in _kanalje_search("look-ahead", phase1) if not f[0].endswith(".record_deal"))
    if phase1:
        return search
    choose = (("cardodds.kanalje._policies.choose", "(uint64[::1], int64[::1], int64, int64, int64, LOOKAHEAD_CALLS, "
                                                    "int64[:, ::1], uint64[:, ::1], none)"),)
    world = _kanalje_play_outs(False)[-1]
    return search[:1] + choose + tuple(f for f in search[1:] if f != world)  # after the heuristic


def _kanalje_play_outs(phase1: bool) -> tuple[tuple[str, str], ...]:
    """The heuristic and the play-outs of a Kanalje search (its worlds), whose deals start in
    phase 1 or not: the kernels' ``phase1`` argument is then True or None
    (``kanalje._table.phase1_arg``), and without phase 1 they compile no phase-1 code."""
    p = "bool" if phase1 else "none"
    heuristic1 = (("cardodds.kanalje._policies.heuristic1_choose", "(int64[::1], int64, int64)"),) if phase1 else ()
    # the heuristic first: the play-outs and the command's own heuristic seats call it
    return heuristic1 + (
        ("cardodds.kanalje._policies.heuristic_card", "(int64[::1], int64, int64)"),
        ("cardodds.kanalje._policies.play_heuristic_until", f"(uint64[::1], int64[::1], int64, int64, {p})"),
        ("cardodds.kanalje._policies.sample_world", f"(uint64[::1], int64[::1], int64, int64[::1], int64[::1], {p})"))


def _kanalje_search(search: str, phase1: bool) -> tuple[tuple[str, str], ...]:
    """The part of a Kanalje lineup with a ``search`` (``look-ahead`` or ``pimc``) whose deals
    start in phase 1 or not (:func:`_kanalje_play_outs`). ``pimc``: its exact search; the command
    compiles the play-outs and the player (:func:`_kanalje_pimc_player`, :data:`FIRST`)."""
    k = "" if phase1 else "_TRICK_PLAY"
    if search == "pimc":
        return (("cardodds.kanalje._policies.ENDGAME", _ENDGAME),)
    *heuristic, until, world = _kanalje_play_outs(phase1)
    p = "bool" if phase1 else "none"
    return (*heuristic,
            ("cardodds.kanalje._table.record_deal", f"(int64[::1], int64[::1], int64, int64[::1], int64[::1], {p})"),
            until, world, (f"cardodds.kanalje._policies.LOOKAHEAD{k}", _SEARCH))


def _kanalje_pimc_player(phase1: bool) -> tuple[tuple[str, str], ...]:
    """The play-outs and the ``pimc`` player, which calls the exact search through a pointer: the
    command compiles them while the second process compiles the search."""
    return (*_kanalje_play_outs(phase1), (f"cardodds.kanalje._policies.PIMC{'' if phase1 else '_TRICK_PLAY'}", _SEARCH))


#: What the second process compiles for each command, in the order the command reaches it: the
#: qualified name of each function (or :class:`~cardodds._jit.Pointer`), with the numba types of
#: its arguments. Each part is chosen from ``CARDODDS_COMPILE_LOG`` timelines so that it ends about
#: when the command reaches it: the look-ahead's deal records (``record_deal``), reached last,
#: are compiled here early; ``play_any`` stays with the command, beside the heuristic compiled
#: here (``benchmarks/RESULTS_design.md``).
SPLITS: dict[str, tuple[tuple[str, str], ...]] = {
    "canasta advise": (
        ("cardodds.canasta._policies.heuristic_choose", "(int64[::1], int64[::1], int64[:, ::1], int64, "
                                                        "int64[::1], int64)"),
        ("cardodds.canasta._table.score_hand", "(int64[::1], int64[::1], int64[::1])"),
        ("cardodds.canasta._table.apply_move", "(int64[::1], int64[::1], int64[::1])"),
    ),
    "canasta play": (
        ("cardodds.canasta._policies.heuristic_choose", "(int64[::1], int64[::1], int64[:, ::1], int64, "
                                                        "int64[::1], none)"),
        ("cardodds.canasta._table.apply_move", "(int64[::1], int64[::1], int64[::1])"),
        ("cardodds.canasta._table.score_hand", "(int64[::1], int64[::1], int64[::1])"),
        ("cardodds.canasta._play.record_hand", "(int64[::1], int64[::1], int64)"),
    ),
    "kanalje advise": (
        ("cardodds.kanalje._policies.heuristic1_choose", "(int64[::1], int64, int64)"),
        ("cardodds.kanalje._table.start_phase2", "(uint64[::1], int64[::1])"),
        ("cardodds.kanalje._advise.PLAY_OUT_OPTIONS", "(int64[::1], int64[::1], uint64[:, ::1], int64, int64[::1], "
                                                      "int64[::1], int64[:, ::1])"),
    ),
    "kanalje advise look-ahead": _kanalje_advise(False),
    "kanalje advise look-ahead, phase 1": _kanalje_advise(True),
    "kanalje risk heuristic": (
        ("cardodds.kanalje._policies.heuristic1_choose", "(int64[::1], int64, int64)"),
        ("cardodds.kanalje._table.start_phase2", "(uint64[::1], int64[::1])"),
        ("cardodds.kanalje._policies.PLAY_OUT_HEURISTIC", "(uint64[::1], int64[::1])"),
    ),
    "kanalje risk look-ahead": _kanalje_search("look-ahead", False),
    "kanalje risk look-ahead, phase 1": _kanalje_search("look-ahead", True),
    "kanalje risk pimc": _kanalje_search("pimc", False),
    "kanalje risk pimc, phase 1": _kanalje_search("pimc", True),
}


#: What the command compiles at once, before its own work, while the second process compiles
#: its part: functions the part calls, which the second process then loads from the on-disk
#: cache, or that call the part through a pointer (the ``pimc`` player). Where the part holds
#: the longer compile (``pimc``'s exact search; a look-ahead advisor's search without phase 1),
#: the command would otherwise wait for it with nothing to do.
FIRST: dict[str, tuple[tuple[str, str], ...]] = {
    "kanalje advise look-ahead": _kanalje_play_outs(False)[-1:],
    "kanalje risk pimc": _kanalje_pimc_player(False),
    "kanalje risk pimc, phase 1": _kanalje_pimc_player(True),
}


def _function(name: str):
    module, _, attr = name.rpartition(".")
    return getattr(importlib.import_module(module), attr)


#: Types a part's argument types name that numba's own names cannot spell (a named tuple of
#: functions): the name, and the function that gives the type.
_NAMED_TYPES = {"LOOKAHEAD_CALLS": "cardodds.kanalje._policies.lookahead_calls_type"}


def _types(text: str) -> tuple:
    """The numba types of a part's argument types ``text``, as numba reads a signature, with
    the names of :data:`_NAMED_TYPES`."""
    from numba.core import sigutils, types

    names = {name: _function(fn)() for name, fn in _NAMED_TYPES.items() if re.search(rf"\b{name}\b", text)}
    return sigutils.normalize_signature(eval(text, {}, {**types.__dict__, **names}) if names else text)[0]


def _cached(name: str) -> bool:
    """Whether the function has an entry in the on-disk cache (of any argument types)."""
    try:
        index = _function(name)._cache._cache_file._index_path  # numba 0.68.1 keeps it there
    except AttributeError:  # another layout: say cached, and the command compiles alone
        return True
    return os.path.exists(index)


def _wanted(command: str) -> bool:
    from ._cliutil import cores_available
    from .warmup import in_task

    return (command in SPLITS and not in_task() and cores_available() >= 2
            and not all(_cached(n) for n, _ in SPLITS[command]))


class _Forked:
    """A forked child, killed and waited for as a :class:`subprocess.Popen` is."""

    def __init__(self, pid: int):
        self.pid = pid

    def kill(self) -> None:
        os.kill(self.pid, signal.SIGKILL)

    def wait(self) -> None:
        os.waitpid(self.pid, 0)


def _start(command: str) -> tuple[_Forked | subprocess.Popen, IO[str]]:
    """The second process, and the read end of its pipe. On Linux a fork of this process, which
    has numba and the command's kernels imported, and numba's typing set up, already: a fresh
    interpreter spends a second or more on them before its first compile. Elsewhere, or once
    this process runs a second thread (a fork copies only the calling thread, and a lock another
    thread holds stays held in the child), a fresh interpreter (a fork of a process with LLVM
    loaded is not safe on every platform)."""
    if sys.platform.startswith("linux") and threading.active_count() == 1:
        read, write = os.pipe()
        try:
            pid = os.fork()
        except OSError:
            os.close(read)
            os.close(write)
            raise
        if pid == 0:
            _forked(command, read, write)
        os.close(write)
        return _Forked(pid), os.fdopen(read)
    proc = subprocess.Popen([sys.executable, "-m", "cardodds._two_process_compile", command],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return proc, cast(IO[str], proc.stdout)  # a pipe: stdout=PIPE


def _forked(command: str, read: int, write: int) -> None:
    """The forked second process: what :func:`_main` does, its lines on the pipe ``write``, and
    nothing of the command's (no terminal, none of its buffered output, none of its exit
    handlers: ``os._exit``)."""
    status = 1
    try:
        os.close(read)
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        _main(command, os.fdopen(write, "w"))
        status = 0
    finally:
        os._exit(status)


class _Second:
    """The second process, and what it has compiled so far (read from its pipe on demand)."""

    def __init__(self, command: str):
        self.proc, self.out = _start(command)
        self.done: set[str] = set()
        self.ended = False
        self.lock = threading.Lock()

    def wait_for(self, name: str) -> None:
        """Until the second process has compiled ``name`` (or has ended)."""
        with self.lock:  # the engine's worker threads compile too
            while name not in self.done and not self.ended:
                line = self.out.readline()
                if line:
                    self.done.add(line.strip())
                else:
                    self.ended = True

    def stop(self) -> None:
        with contextlib.suppress(OSError):
            self.proc.kill()
        self.proc.wait()
        self.out.close()


@contextlib.contextmanager
def two_processes(command: str | None) -> Iterator[None]:
    """Inside the block, on a fresh cache, a second process compiles ``SPLITS[command]``, and
    this process's compile of any of them waits for it and loads it from the cache.

    >>> with two_processes("a command with no split"):
    ...     pass
    """
    second = None
    if command is not None and _wanted(command):
        with contextlib.suppress(OSError):  # no process to start: the command compiles alone
            second = _Second(command)
    if command is None or second is None:
        yield
        return
    waiting = []
    for name, _ in SPLITS[command]:
        dispatcher = _function(name)

        def compile_after_second(sig, _name=name, _dispatcher=dispatcher):
            second.wait_for(_name)
            return type(_dispatcher).compile(_dispatcher, sig)

        # numba compiles a callee, and a function called from Python, through ``self.compile``
        dispatcher.compile = compile_after_second
        waiting.append(dispatcher)
    try:
        for name, types in FIRST.get(command, ()):
            _function(name).compile(_types(types))
        yield
    finally:
        for dispatcher in waiting:
            del dispatcher.compile
        second.stop()


def _main(command: str, out: IO[str] | None = None) -> None:
    """The second process: compile ``SPLITS[command]`` in order, a line to ``out`` (stdout) after each."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # Ctrl-C at the terminal ends it with the command
    out = out or sys.stdout
    for name, types in SPLITS[command]:
        _function(name).compile(_types(types))
        print(name, file=out, flush=True)  # once the command has gone: BrokenPipeError, and the process ends


if __name__ == "__main__":
    from cardodds import cli

    cli.AS_PROGRAM = True  # a process of the cardodds program, as its fork on Linux is
    _main(sys.argv[1])
