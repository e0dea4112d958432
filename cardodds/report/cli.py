"""``cardodds report``: rebuild the reports (the project's main job)."""

from __future__ import annotations

import os
import queue
import sys
import threading
import time
from pathlib import Path

from .. import _cliutil as cu
from . import SECTIONS, SEED

_scale = cu.positive_float(0.0, 100.0, " (multiplies every sample count; 0.01 for a quick look)")


def add_commands(sub) -> None:
    """Write reports/<game>.md and its PNG charts for every game, and reports/index.html: every
    section as one self-contained web page with lookups. The same seed and scale rebuild the same
    files byte for byte. Each stage of every section is named on stderr; progress bars show when
    stderr is a terminal (--progress to force)."""
    p = cu.command(sub, "report", add_commands,
                   "rebuild the reports with charts into reports/ (byte-identical for the same seed)")
    p.add_argument("--out", default="reports", metavar="DIR", help="output folder (default reports/)")
    p.add_argument("--seed", type=cu.seed, default=SEED, metavar="S", help=f"seed (default {SEED})")
    p.add_argument("--scale", type=_scale, default=1.0, metavar="F",
                   help="multiply every sample count by F, above 0 and at most 100 (e.g. 0.01 for a quick look; "
                        "default 1)")
    p.add_argument("--section", action="append", type=cu.choice(*SECTIONS), default=None, metavar="GAME",
                   help=f"build only this section (repeatable): {', '.join(SECTIONS)}")
    p.add_argument("--screenshots", action="store_true",
                   help="also save a screenshot of each section of index.html at desktop and phone width in "
                        "DIR/screenshots/ (needs Chromium: apt-get install chromium chromium-driver, and selenium)")
    cu.add_progress_options(p)
    p.set_defaults(func=_run, partial_line=False)


def writable_folder(text: str, flag: str = "--out") -> Path:
    """The folder ``text``, created if need be; a folder that cannot be written is a usage error."""
    out = Path(text)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cu.UsageError(f"{flag} {cu.shorten(text)}: cannot create the folder ({exc.strerror or exc}); "
                            "give a folder you can write") from None
    if not out.is_dir() or not os.access(out, os.W_OK | os.X_OK):
        raise cu.UsageError(f"{flag} {cu.shorten(text)}: not a folder you can write; give one you can")
    return out


def _run(args) -> int:
    from . import Interrupted, build

    out = writable_folder(args.out)
    if args.screenshots:
        _check_browser()
    log = args.progress is not False
    compiling = _Compiling.start(args, log)
    timings: dict[str, float] = {}
    try:
        written = build(out, seed=args.seed, scale=args.scale, sections=args.section,
                        progress=cu.show_progress(args), log=log, timings=timings,
                        next_section=compiling.next_section)
    except Interrupted as stop:
        compiling.stop()
        if stop.written:
            _print_times(args, stop.written, timings, compiling.waited, partial=True)
        if stop.section is None and not stop.written:
            print("cardodds: report interrupted while compiling its kernels; no file written", file=sys.stderr)
            return 130
        done = ", ".join(p.name for p in stop.written) or "none"
        where = "while its kernels compiled" if stop.section is None else f"in section {stop.section}"
        print(f"cardodds: report interrupted {where} (its files left as they were); sections written: {done}",
              file=sys.stderr)
        return 130
    finally:
        compiling.stop()
    _print_times(args, written, timings, compiling.waited)
    if args.screenshots:
        from .browser import screenshots

        shots = screenshots(out / "index.html", out / "screenshots")
        print(f"Screenshots: {len(shots)} in {out / 'screenshots'}")
    return 0


class _Compiling:
    """On a fresh install, the sections' kernels compiled in one process per core
    (:mod:`cardodds.warmup`) while the report builds each section whose kernels are ready:
    compiling holds a process, so the report alone would compile on one core, and waiting for
    all of it would leave a core idle whenever one task runs longer than the rest.
    ``waited`` is the seconds the report spent with no section it could build."""

    def __init__(self, todo: list[str], jobs: int, log: bool) -> None:
        self.todo = set(todo)
        self.log = log
        self.waited = 0.0
        self.ready: queue.SimpleQueue[str] = queue.SimpleQueue()
        self.done: set[str] = set()
        self.halt = threading.Event()
        self.thread: threading.Thread | None = None
        if todo:
            from .. import warmup

            self.thread = threading.Thread(
                target=warmup.warm_up, args=(todo,), daemon=True, name="cardodds-compiling",
                kwargs={"jobs": jobs, "on_done": lambda name, status: self.ready.put(name), "stop": self.halt})
            self.thread.start()

    @classmethod
    def start(cls, args, log: bool) -> _Compiling:
        from .. import warmup

        todo = warmup.pending(warmup.report_tasks(args.section))
        if warmup.in_task() or cu.cores_available() < 2:
            todo = []
        jobs = min(len(todo), cu.cores_available())
        if todo and log:
            print(f"compiling the kernels of {len(todo)} section(s) in {jobs} processes (once per installed "
                  "version); each section is built as soon as its kernels are ready", file=sys.stderr)
        return cls(todo, jobs, log)

    @staticmethod
    def rank(section: str) -> int:
        """Where ``section`` comes in the warm-up's order, the longest compiling first (a
        section's compiling and building take long together)."""
        from .. import warmup

        return warmup.report_tasks().index(f"report {section}")

    def next_section(self, names: list[str]) -> str:
        """The section of ``names`` to build next: the first in :meth:`rank` order whose kernels
        are compiled (or need no compiling), waiting for one if need be. A task that failed
        lets its section run: it compiles in this process then, and says what is wrong itself."""
        if not self.todo:
            return names[0]
        start = time.perf_counter()
        try:
            while True:
                # the longest first among those ready: Kanalje's section, two thirds of the
                # report, then starts as soon as its kernels are compiled
                for name in sorted(names, key=self.rank):
                    if f"report {name}" not in self.todo or f"report {name}" in self.done:
                        return name
                try:
                    task = self.ready.get(timeout=0.1)
                except queue.Empty:
                    if self.thread is not None and not self.thread.is_alive():
                        return names[0]  # the compiling ended without saying so: build in this process
                    continue
                self.done.add(task)
                if self.log:
                    print(f"kernels of section {task.removeprefix('report ')} compiled", file=sys.stderr)
        finally:
            self.waited += time.perf_counter() - start

    def stop(self) -> None:
        """Stop the compiling processes (after Ctrl-C; a no-op once they finished)."""
        if self.thread is not None:
            self.halt.set()
            self.thread.join()
            self.thread = None


def _check_browser() -> None:
    """--screenshots needs the browser: said in one line before the report is built."""
    from .browser import BrowserMissing, locate

    try:
        locate()
    except BrowserMissing as exc:
        raise cu.UsageError(f"--screenshots: {exc}") from None


def _print_times(args, written, timings: dict[str, float], compiling: float, partial: bool = False) -> None:
    """The closing table: the time spent waiting for kernels to compile (on a fresh install),
    each section written, its markdown and its wall time."""
    rows = [("(compiling)", "waiting for kernels to compile", f"{compiling:7.1f} s")] if compiling else []
    rows += [(name, str(path), f"{timings[name]:7.1f} s") for name, path in zip(timings, written)]
    rows.append(("total", "", f"{sum(timings.values()) + compiling:7.1f} s"))
    head = f"Reports written (seed {args.seed}, scale {args.scale:g}): wall time per section"
    if partial:
        head += " [PARTIAL: interrupted, the sections finished before it]"
    sys.stdout.write("\n".join([head] + cu.table(("section", "markdown", "wall time"), rows)) + "\n")
    sys.stdout.flush()
