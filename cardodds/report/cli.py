"""``cardodds report``: rebuild the reports (the project's main job)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .. import _cliutil as cu
from . import SECTIONS, SEED

_scale = cu.positive_float(0.0, 100.0, " (multiplies every sample count; 0.01 for a quick look)")


def add_commands(sub) -> None:
    p = sub.add_parser(
        "report",
        help="rebuild the reports with charts into reports/ (byte-identical for the same seed)",
        description="Write reports/<game>.md and its PNG charts for every game, and reports/index.html: every "
        "section as one self-contained web page with lookups. The same seed and "
        "scale rebuild the same files byte for byte. Each stage of every section is named on stderr; "
        "progress bars show when stderr is a terminal (--progress to force).",
    )
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
    compiling = _warm_up_first(args, log)
    if compiling is None:
        print("cardodds: report interrupted while compiling its kernels; no file written", file=sys.stderr)
        return 130
    timings: dict[str, float] = {}
    try:
        written = build(out, seed=args.seed, scale=args.scale, sections=args.section,
                        progress=cu.show_progress(args), log=log, timings=timings)
    except Interrupted as stop:
        if stop.written:
            _print_times(args, stop.written, timings, compiling, partial=True)
        done = ", ".join(p.name for p in stop.written) or "none"
        print(f"cardodds: report interrupted in section {stop.section} (its files left as they were); "
              f"sections written: {done}", file=sys.stderr)
        return 130
    _print_times(args, written, timings, compiling)
    if args.screenshots:
        from .browser import screenshots

        shots = screenshots(out / "index.html", out / "screenshots")
        print(f"Screenshots: {len(shots)} in {out / 'screenshots'}")
    return 0


def _warm_up_first(args, log: bool) -> float | None:
    """On a fresh install, compile the sections' kernels first in one process per core
    (:mod:`cardodds.warmup`): compiling holds a process, so the report alone would compile on one
    core. Returns the seconds it took (0.0 when nothing was to compile), None when interrupted."""
    from .. import warmup

    todo = warmup.pending(warmup.report_tasks(args.section))
    if warmup.in_task() or not todo or cu.cores_available() < 2:
        return 0.0
    if log:
        print(f"compiling the kernels of {len(todo)} section(s) first, in {min(len(todo), cu.cores_available())} "
              "processes (once per installed version)", file=sys.stderr)
    res = warmup.warm_up(todo, jobs=cu.cores_available(), progress=cu.show_progress(args))
    return None if res.partial else res.wall


def _check_browser() -> None:
    """--screenshots needs the browser: said in one line before the report is built."""
    from .browser import BrowserMissing, locate

    try:
        locate()
    except BrowserMissing as exc:
        raise cu.UsageError(f"--screenshots: {exc}") from None


def _print_times(args, written, timings: dict[str, float], compiling: float, partial: bool = False) -> None:
    """The closing table: the kernels' compiling first (on a fresh install), each section
    written, its markdown and its wall time."""
    rows = [("(compiling)", "kernels of the sections, first", f"{compiling:7.1f} s")] if compiling else []
    rows += [(name, str(path), f"{timings[name]:7.1f} s") for name, path in zip(timings, written)]
    rows.append(("total", "", f"{sum(timings.values()) + compiling:7.1f} s"))
    head = f"Reports written (seed {args.seed}, scale {args.scale:g}): wall time per section"
    if partial:
        head += " [PARTIAL: interrupted, the sections finished before it]"
    sys.stdout.write("\n".join([head] + cu.table(("section", "markdown", "wall time"), rows)) + "\n")
    sys.stdout.flush()
