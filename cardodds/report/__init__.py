"""Reports: markdown with PNG charts, rebuilt by ``cardodds report`` (one command, fixed seed).

Each game's section lives in ``cardodds/report/<game>.py`` with a function
``write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool) -> Path`` that
writes ``<game>.md`` and its charts into ``outdir`` and returns the markdown's path. The web
page ``index.html`` is assembled from every section's fragment (``report/html.py``). ``scale``
multiplies every sample count (1.0 for the published report, small in tests); ``progress``
shows progress bars, ``log`` names each stage of the section on stderr.

A section is written into a staging folder and its files moved into ``outdir`` only once it
is complete, so an interrupted build (Ctrl-C) leaves every file whole: those of the finished
sections new, the others as they were.
"""

from __future__ import annotations

import importlib
import os
import shutil
import tempfile
import time
from pathlib import Path

#: The seed the committed reports are built from (``cardodds report --seed`` changes it).
SEED = 20261129
#: Sections in the order they are built.
SECTIONS = ("kana", "kana_session", "kanalje", "canasta", "canasta_play", "canasta_advice", "strategy", "equity")


def available_sections() -> list[str]:
    found = []
    for name in SECTIONS:
        try:
            importlib.import_module(f"cardodds.report.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cardodds.report.{name}":
                continue
            raise
        found.append(name)
    return found


def build(outdir: str | Path = "reports", *, seed: int = SEED, scale: float = 1.0,
          sections=None, progress: bool = False, log: bool = False,
          timings: dict[str, float] | None = None, next_section=None) -> list[Path]:
    """Write every report section into ``outdir``; returns the markdown files written.

    ``timings``, a dict, receives each section's wall time in seconds as it finishes (the
    ``cardodds report`` command prints them at the end of the run). ``next_section(names)``,
    when given, picks which of the sections still to build comes next, and may wait until one
    can start (``cardodds report`` on a fresh install: the longest whose kernels are compiled);
    by default they are built in the order given. Every section draws its seeds from ``seed``
    by itself, so the order changes no figure."""
    names = available_sections() if sections is None else list(sections)
    unknown = sorted(set(names) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown report section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    if not (scale > 0):
        raise ValueError(f"scale={scale} must be positive (1.0 for the full report)")
    from .. import engine
    from . import html
    from ._common import page_parts

    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    building = None  # the section being built; None while the next one is chosen
    try:
        with engine.session() as sess, page_parts():
            todo = list(names)
            while todo:
                name = todo[0] if next_section is None else next_section(list(todo))
                todo.remove(name)
                building = name
                start = time.perf_counter()
                module = importlib.import_module(f"cardodds.report.{name}")
                staging = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=out))
                try:
                    md = module.write(staging, seed=seed, scale=scale, progress=progress, log=log)
                    if sess.interrupted:  # a run's figures are partial: the section is not written
                        raise KeyboardInterrupt
                    html.fragment(staging, name, Path(md).name)
                    with engine.defer_interrupts():  # a finished section goes in whole
                        if timings is not None:
                            timings[name] = time.perf_counter() - start
                        written.append(_publish(staging, out, Path(md).name))
                        building = None
                finally:
                    shutil.rmtree(staging, ignore_errors=True)
                if sess.interrupted:  # Ctrl-C while the section was published: no next section
                    raise KeyboardInterrupt
    except KeyboardInterrupt:  # wherever it lands: between two sections too
        raise Interrupted(building, written) from None
    finally:
        if written:  # the page shows every section finished, this run's and earlier ones
            html.write_page(out, SECTIONS)
    return written


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`build`: ``section`` was being built (None: the next one was not
    chosen yet, e.g. its kernels were compiling), ``written`` lists the markdown files of the
    sections finished before it (their files are complete)."""

    def __init__(self, section: str | None, written: list[Path]) -> None:
        super().__init__(section)
        self.section = section
        self.written = list(written)


def _publish(staging: Path, out: Path, markdown: str) -> Path:
    """Move a finished section's files into ``out``, its markdown last; each move is atomic."""
    for f in sorted(staging.iterdir(), key=lambda f: f.name == markdown):
        os.replace(f, out / f.name)
    return out / markdown
