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
_SECTIONS = ("kanalje", "canasta_advice", "canasta_play", "kana", "canasta", "kana_session")

_KANALJE_HAND = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"
_PHASE2_PLAYED = "1: 9d 3d; 1: 4d 2d; 1: Kh 7h; 1: 5c 6c; 0: Th 9h; 0: Qd 6d; 0: 7d Jc; 1: 5s 4s; 1: 8h Qh; 0: Jd"

#: name -> the ``cardodds`` arguments of the task (``--out`` is added for report sections).
TASKS: dict[str, tuple[str, ...]] = {
    **{f"report {s}": ("report", "--section", s, "--scale", str(TINY_SCALE), "--no-progress") for s in _SECTIONS},
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
    "kanalje hand": ("kanalje", "hand", "--hand", _KANALJE_HAND, "--turned", "7h", "--samples", "20", "--seed", "1"),
    "canasta advise": ("canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b 4", "--melds", "us: A A A; them: 8 8 8",
                       "--pile", "Jk 2 2 A A ? ? 9 K", "--counts", "10,9,11", "--samples", "8", "--seed", "1"),
    "canasta melds": ("canasta", "melds", "--samples", "200", "--seed", "1"),
    "canasta hand": ("canasta", "hand", "--hand", "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", "--samples", "200",
                     "--seed", "1"),
    "canasta play": ("canasta", "play", "--samples", "4", "--seed", "1"),
    "kana odds": ("kana", "odds", "--samples", "200", "--seed", "1"),
    "kana advise": ("kana", "advise", "--players", "4", "--seat", "2", "--cards", "9h,?,?", "--kanad", "5c,Kd",
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


def _start(name: str, out: str) -> subprocess.Popen:
    """Task ``name`` as a ``cardodds`` process of its own, in the folder ``out`` (its messages in
    ``out/stderr``, for an error message)."""
    os.makedirs(out, exist_ok=True)
    argv = list(TASKS[name]) + (["--out", out] if TASKS[name][0] == "report" else [])
    env = dict(os.environ, **{TASK_ENV: name})
    with open(os.path.join(out, "stderr"), "w") as err:
        # Ctrl-C reaches the whole process group: the warm-up stops its tasks itself, they print nothing
        return subprocess.Popen([sys.executable, "-m", "cardodds.cli", *argv], env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=err,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))


def _folder(out: str, name: str) -> str:
    return os.path.join(out, name.replace(" ", "-").replace(",", ""))


def _ended(proc: subprocess.Popen) -> tuple[int, float] | None:
    """``(status, CPU seconds)`` of a finished task process, None while it runs."""
    pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
    if pid == 0:
        return None
    proc.returncode = os.waitstatus_to_exitcode(status)
    return proc.returncode, usage.ru_utime + usage.ru_stime


def _status(name: str, code: int, out: str) -> str:
    if code == 0:
        mark = _mark(name)
        mark.parent.mkdir(parents=True, exist_ok=True)
        mark.touch()
        return "compiled"
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
    todo = names if force else pending(names)
    status = {n: ("already warm", 0.0) for n in names if n not in todo}
    if on_done is not None:
        for name in status:
            on_done(name, "already warm")
    jobs = max(1, min(jobs, len(todo) or 1))
    bar = None
    if progress and todo:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="compiling", unit="task", file=sys.stderr)
    t0 = time.perf_counter()
    partial = False
    waiting = list(todo)
    running: dict[str, subprocess.Popen] = {}
    with tempfile.TemporaryDirectory(prefix="cardodds-warm-up-") as out:
        try:
            while waiting or running:
                if stop is not None and stop.is_set():
                    partial = True
                    break
                while waiting and len(running) < jobs:
                    name = waiting.pop(0)
                    running[name] = _start(name, _folder(out, name))
                for name, proc in list(running.items()):
                    ended = _ended(proc)
                    if ended is not None:
                        del running[name]
                        status[name] = (_status(name, ended[0], _folder(out, name)), ended[1])
                        if on_done is not None:
                            on_done(name, status[name][0])
                        if bar is not None:
                            bar.update(1)
                time.sleep(0.05)
        except KeyboardInterrupt:
            partial = True
        finally:
            for proc in running.values():
                proc.kill()
                proc.wait()
            if bar is not None:
                bar.close()
    rows = tuple((n, *status.get(n, ("not run", 0.0))) for n in names)
    return WarmUpResult(rules=None, tasks=rows, jobs=jobs, wall=time.perf_counter() - t0, cache=str(CACHE_DIR),
                        partial=partial)
