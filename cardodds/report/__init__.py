"""Reports: markdown with PNG charts, rebuilt by ``cardodds report`` (one command, fixed seed).

Each game's section lives in ``cardodds/report/<game>.py`` with a function
``write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool) -> Path`` that
writes ``<game>.md`` and its charts into ``outdir`` and returns the markdown's path. ``scale``
multiplies every sample count (1.0 for the published report, small in tests); ``progress``
shows progress bars, ``log`` names each stage of the section on stderr.
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path

#: Sections in the order they are built.
SECTIONS = ("kana", "kana_session", "kanalje", "canasta", "canasta_play")


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


def build(outdir: str | Path = "reports", *, seed: int = 20261129, scale: float = 1.0,
          sections=None, progress: bool = False, log: bool = False,
          timings: dict[str, float] | None = None) -> list[Path]:
    """Write every report section into ``outdir``; returns the markdown files written.

    ``timings``, a dict, receives each section's wall time in seconds as it finishes (the
    ``cardodds report`` command prints them at the end of the run)."""
    names = available_sections() if sections is None else list(sections)
    unknown = sorted(set(names) - set(SECTIONS))
    if unknown:
        raise ValueError(f"unknown report section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    if not (scale > 0):
        raise ValueError(f"scale={scale} must be positive (1.0 for the full report)")
    out = Path(outdir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in names:
        start = time.perf_counter()
        module = importlib.import_module(f"cardodds.report.{name}")
        written.append(module.write(out, seed=seed, scale=scale, progress=progress, log=log))
        if timings is not None:
            timings[name] = time.perf_counter() - start
    return written
