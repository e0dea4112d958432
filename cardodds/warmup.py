"""Compile the kernels into numba's on-disk cache up front, every core busy: ``cardodds warm-up``.

The first call of a command on a fresh install waits for numba to compile the kernels it runs;
every later call loads them from the on-disk cache (:data:`cardodds._jit.CACHE_DIR`, one folder
per source tree). Compiling holds a process's interpreter, so threads cannot share it out:
:func:`warm_up` runs its tasks in separate processes, one per core, all writing the same cache.

A task is a command run at a tiny size: each section of ``cardodds report`` (at scale
:data:`TINY_SCALE`, into a temporary folder) and each command that answers one question. So the
tasks compile exactly the kernels, with exactly the argument types, that the real runs use. A
finished task leaves a mark in the cache folder; ``cardodds report`` runs the tasks of its
sections that have no mark before it builds them, so on a fresh install both cores compile.
The report's sections share their processes (:func:`_batches`): a process starting numba and
cardodds costs over half a second of CPU, which six sections paid six times.

>>> sorted(TASKS)[:3]
['canasta advise', 'canasta hand', 'canasta melds']
>>> TASKS["report kanalje"][:3]
('report', '--section', 'kanalje')
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from .results import Result

__all__ = ["TASKS", "TINY_SCALE", "WarmUpResult", "pending", "report_tasks", "warm_up"]

#: The report's scale in a warm-up task: every kernel runs, on a handful of deals.
TINY_SCALE = 0.001

#: Report sections in the order their compiling takes longest first (so the processes finish
#: together); ``report.SECTIONS`` is checked against it by the tests.
_SECTIONS = ("kanalje", "canasta_advice", "canasta_play", "kana", "canasta", "kana_session", "strategy", "equity")

_KANALJE_HAND = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"
_PHASE2_PLAYED = "1: 9d 3d; 1: 4d 2d; 1: Kh 7h; 1: 5c 6c; 0: Th 9h; 0: Qd 6d; 0: 7d Jc; 1: 5s 4s; 1: 8h Qh; 0: Jd"


def _report_argv(sections) -> tuple[str, ...]:
    """The ``cardodds`` arguments that build report ``sections`` at the tiny scale, in that order."""
    return ("report", *(a for s in sections for a in ("--section", s)), "--scale", str(TINY_SCALE), "--no-progress")


#: name -> the ``cardodds`` arguments of the task (``--out`` is added for report sections).
TASKS: dict[str, tuple[str, ...]] = {
    **{f"report {s}": _report_argv([s]) for s in _SECTIONS},
    "kanalje advise": ("kanalje", "advise", "--seat", "0", "--hand", _KANALJE_HAND, "--turned", "7h",
                       "--samples", "8", "--seed", "1"),
    "kanalje advise two players": ("kanalje", "advise", "--players", "2", "--seat", "1", "--hand",
                                   "As Ks 3s 4c 8c Tc 2d 6d 9d Qd 5h 8h Ah", "--faceup", "Jh", "--played", "0: Qs",
                                   "--samples", "8", "--seed", "1"),
    "kanalje advise two players, phase 2": ("kanalje", "advise", "--players", "2", "--seat", "1", "--hand",
                                            "6h 8s Jh Qs", "--trump", "2c", "--played", _PHASE2_PLAYED,
                                            "--samples", "8", "--seed", "1"),
    "kanalje risk": ("kanalje", "risk", "--samples", "20", "--seed", "1"),
    "kanalje risk two players": ("kanalje", "risk", "--players", "2", "--samples", "20", "--seed", "1"),
    "kanalje table": ("kanalje", "table", "--build", "--samples", "2", "--seed", "1", "--no-progress"),
    "kanalje hand": ("kanalje", "hand", "--hand", _KANALJE_HAND, "--turned", "7h", "--samples", "20", "--seed", "1"),
    "canasta advise": ("canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b 4", "--melds", "us: A A A; them: 8 8 8",
                       "--pile", "Jk 2 2 A A ? ? 9 K", "--counts", "10,9,11", "--known", "1: Q Q", "--samples", "8",
                       "--seed", "1"),
    "canasta melds": ("canasta", "melds", "--samples", "200", "--seed", "1"),
    "canasta hand": ("canasta", "hand", "--hand", "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", "--samples", "200",
                     "--seed", "1"),
    "canasta play": ("canasta", "play", "--samples", "4", "--seed", "1"),
    "canasta table": ("canasta", "table", "--build", "--samples", "4", "--seed", "1", "--no-progress"),
    "kana odds": ("kana", "odds", "--samples", "200", "--seed", "1"),
    "kana advise": ("kana", "advise", "--players", "4", "--seat", "2", "--hand", "9h,?,?", "--kanad", "5c,Kd",
                    "--samples", "200", "--seed", "1"),
}


def report_tasks(sections=None) -> list[str]:
    """The tasks of the report's ``sections`` (all when None)."""
    return [f"report {s}" for s in _SECTIONS if sections is None or s in sections]


def _mark(name: str) -> Path:
    from ._jit import CACHE_DIR

    return Path(CACHE_DIR) / "warm-up" / name.replace(" ", "-")


def pending(names=None) -> list[str]:
    """The tasks among ``names`` (all when None) that have not run on this source tree."""
    return [n for n in (TASKS if names is None else names) if not _mark(n).exists()]


@dataclass(frozen=True, repr=False, kw_only=True)
class WarmUpResult(Result):
    """What :func:`warm_up` did: each task's status (``compiled``, ``already warm``, ``failed``
    or ``not run``) and CPU seconds, in the order given, the processes used and the wall time."""

    tasks: tuple[tuple[str, str, float], ...]
    jobs: int
    wall: float
    cache: str

    @property
    def failed(self) -> list[str]:
        return [n for n, status, _ in self.tasks if status.startswith("failed")]

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame(self.tasks, columns=["task", "status", "cpu_seconds"])

    def to_dict(self) -> dict:
        tasks = [{"task": n, "status": s, "cpu_seconds": round(c, 2)} for n, s, c in self.tasks]
        return {**self.meta(), "tasks": tasks, "jobs": self.jobs, "wall_seconds": round(self.wall, 2),
                "cache": self.cache}

    def __repr__(self) -> str:
        done = sum(s == "compiled" for _, s, _ in self.tasks)
        return (f"WarmUpResult({done} of {len(self.tasks)} tasks compiled, {self.jobs} processes, "
                f"{self.wall:.1f} s wall{', partial' if self.partial else ''})")


#: Set in a task's environment: a report section run as a task does not warm up again.
TASK_ENV = "CARDODDS_WARM_UP_TASK"


def in_task() -> bool:
    """Whether this process runs a warm-up task."""
    return bool(os.environ.get(TASK_ENV))


#: The niceness of every process but the first (the longest task): they take the cores the
#: first leaves idle. In ``cardodds report`` on two cores, Kanalje's compiling otherwise shared
#: them with the other process and the sections being built, and the report waited for it longest.
BEHIND_FIRST = 10


def _section(name: str) -> str | None:
    """The report section task ``name`` builds, None for a command."""
    return name.removeprefix("report ") if TASKS[name][0] == "report" else None


def _batches(todo: list[str], jobs: int) -> list[list[str]]:
    """The tasks of each process, in the order started: the report's sections share ``jobs``
    processes, the first section (the longest) alone when there are two or more, the others
    dealt out in turn; every command runs in a process of its own.

    >>> _batches(report_tasks() + ["kana odds"], 2)  # doctest: +NORMALIZE_WHITESPACE
    [['report kanalje'], ['report canasta_advice', 'report canasta_play', 'report kana', 'report canasta',
      'report kana_session', 'report strategy', 'report equity'], ['kana odds']]
    """
    sections = [n for n in todo if _section(n) is not None]
    commands = [[n] for n in todo if _section(n) is None]
    k = max(1, min(jobs, len(sections)))
    groups = [sections] if k == 1 else [sections[:1]] + [sections[1 + i::k - 1] for i in range(k - 1)]
    return [g for g in groups if g] + commands


def _niced(nice: int) -> None:
    """In a task's process before it starts: Ctrl-C reaches the whole process group, and the
    warm-up stops its tasks itself (they print nothing); ``nice`` lowers its priority."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if nice:
        os.nice(nice)


def _start(batch: list[str], out: str, nice: int = 0) -> subprocess.Popen:
    """The tasks of ``batch`` as a ``cardodds`` process of their own, in the folder ``out`` (its
    messages in ``out/stderr``, for an error message), at niceness ``nice`` above this process's."""
    os.makedirs(out, exist_ok=True)
    sections = [_section(n) for n in batch]
    if None in sections:
        argv = list(TASKS[batch[0]])
    else:
        argv = [*_report_argv(sections), "--out", out]
    env = dict(os.environ, **{TASK_ENV: ", ".join(batch)})
    with open(os.path.join(out, "stderr"), "w") as err:
        return subprocess.Popen([sys.executable, "-m", "cardodds.cli", *argv], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err, preexec_fn=lambda: _niced(nice))


def _folder(out: str, name: str) -> str:
    return os.path.join(out, name.replace(" ", "-").replace(",", ""))


#: ``utime`` and ``stime`` in ``/proc/PID/stat`` (fields 14 and 15 of proc(5)), counted from the
#: field after the command name, which ends at the last ")".
_UTIME, _STIME = 11, 12


def _cpu_so_far(pid: int) -> float | None:
    """CPU seconds a running process has used (Linux; None elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[_UTIME]) + int(fields[_STIME])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


@dataclass
class _Process:
    """A running process: its tasks not yet finished, in order, its folder, and the CPU seconds
    already counted to its finished tasks."""

    todo: list[str]
    proc: subprocess.Popen
    folder: str
    counted: float = 0.0

    def finished(self, ended: tuple[int, float] | None) -> list[tuple[str, str, float]]:
        """``(task, status, CPU seconds)`` of the tasks finished since the last call: a report
        section once its markdown is published (a section is published whole, after its kernels
        ran), every task left once the process ended (after a failure, the first of them failed
        and the others did not run)."""
        done: list[tuple[str, str, float]] = []
        while self.todo and (ended is not None or self._published(self.todo[0])):
            name = self.todo.pop(0)
            code, cpu = ended if ended is not None else (0, _cpu_so_far(self.proc.pid))
            if code == 0 or self._published(name):
                said = "compiled"
            elif any(d[1].startswith("failed") for d in done):
                said = "not run"  # its process failed in an earlier task
            else:
                said = _failed(code, self.folder)
            cpu = self.counted if cpu is None else cpu
            done.append((name, said, cpu - self.counted))
            self.counted = cpu
        return done

    def _published(self, name: str) -> bool:
        section = _section(name)
        return section is not None and Path(self.folder, f"{section}.md").exists()


def _ended(proc: subprocess.Popen) -> tuple[int, float] | None:
    """``(status, CPU seconds)`` of a finished task process, None while it runs."""
    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
    if pid == 0:
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def _marked(name: str) -> None:
    mark = _mark(name)
    mark.parent.mkdir(parents=True, exist_ok=True)
    mark.touch()


def _failed(code: int, out: str) -> str:
    """The status of a task whose process ended with ``code`` (not 0), from its ``out/stderr``."""
    if code < 0:
        return f"failed: its process died ({signal.Signals(-code).name})"
    said = Path(out, "stderr").read_text(errors="replace").strip().splitlines()
    return f"failed: {(said[-1] if said else f'exit status {code}')[:200]}"


def warm_up(tasks=None, *, jobs: int | None = None, progress: bool = False, force: bool = False,
            on_done=None, stop=None) -> WarmUpResult:
    """Compile the kernels of ``tasks`` (names of :data:`TASKS`; all when None) into the on-disk
    cache, in ``jobs`` processes at once (default: one per core). Tasks that already ran on
    this source tree are skipped unless ``force``. Interrupted (Ctrl-C, or ``stop``, a
    ``threading.Event``, set from another thread), the workers stop and the result is marked
    partial; what they finished stays compiled. ``on_done(name, status)`` is called as each
    task ends (``cardodds report`` builds a section as soon as its kernels are compiled).

    >>> r = warm_up(["kana odds"], jobs=1)   # doctest: +SKIP
    >>> r.tasks[0][:2]                       # doctest: +SKIP
    ('kana odds', 'compiled')
    """
    from ._jit import CACHE_DIR

    names = list(TASKS) if tasks is None else list(tasks)
    unknown = [n for n in names if n not in TASKS]
    if unknown:
        raise ValueError(f"unknown warm-up task {unknown[0]!r}; choose from {', '.join(TASKS)}")
    if jobs is None:
        jobs = os.cpu_count() or 1
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs={jobs!r}: give a whole number of processes, 1 or more")
    os.makedirs(CACHE_DIR, exist_ok=True)  # an unwritable cache folder: one line, before any task
    todo = names if force else pending(names)
    status = {n: ("already warm", 0.0) for n in names if n not in todo}
    if on_done is not None:
        for name in status:
            on_done(name, "already warm")
    jobs = max(1, min(jobs, len(todo) or 1))
    bar = None
    if progress and todo:
        from ._interactive import progress_bar

        bar = progress_bar(len(todo), "task", unit_scale=False, desc="compiling", leave=True)
    t0 = time.perf_counter()
    partial = False
    waiting = _batches(todo, jobs)
    jobs = max(1, min(jobs, len(waiting)))
    running: list[_Process] = []
    with tempfile.TemporaryDirectory(prefix="cardodds-warm-up-") as out:
        try:
            while waiting or running:
                if stop is not None and stop.is_set():
                    partial = True
                    break
                while waiting and len(running) < jobs:
                    batch = waiting.pop(0)
                    folder = _folder(out, batch[0])
                    nice = 0 if batch[0] == todo[0] else BEHIND_FIRST
                    running.append(_Process(batch, _start(batch, folder, nice), folder))
                for p in list(running):
                    ended = _ended(p.proc)
                    for name, said, cpu in p.finished(ended):
                        if said == "compiled":
                            _marked(name)
                        status[name] = (said, cpu)
                        if on_done is not None:
                            on_done(name, said)
                        if bar is not None:
                            bar.update(1)
                    if ended is not None:
                        running.remove(p)
                time.sleep(0.05)
        except KeyboardInterrupt:
            partial = True
        finally:
            for p in running:
                p.proc.kill()
                p.proc.wait()
            if bar is not None:
                bar.close()
    rows = tuple((n, *status.get(n, ("not run", 0.0))) for n in names)
    return WarmUpResult(rules=None, tasks=rows, jobs=jobs, wall=time.perf_counter() - t0, cache=str(CACHE_DIR),
                        partial=partial)
