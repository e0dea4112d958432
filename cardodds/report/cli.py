"""``cardodds report``: rebuild the reports (the project's main job)."""

from __future__ import annotations

import argparse

from .._cliutil import seed as _seed


def _scale(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return v


def add_commands(sub) -> None:
    p = sub.add_parser(
        "report",
        help="rebuild the reports with charts into reports/ (byte-identical for the same seed)",
        description="Write reports/<game>.md and its PNG charts for every game. The same seed and "
        "scale rebuild the same files byte for byte.",
    )
    p.add_argument("--out", default="reports", metavar="DIR", help="output folder (default reports/)")
    p.add_argument("--seed", type=_seed, default=20261129, metavar="S", help="seed (default 20261129)")
    p.add_argument("--scale", type=_scale, default=1.0, metavar="F",
                   help="multiply every sample count by F (e.g. 0.01 for a quick look; default 1)")
    p.add_argument("--section", action="append", default=None, metavar="GAME",
                   help="build only this section (repeatable): kana, kana_session, kanalje, canasta")
    p.add_argument("--no-progress", action="store_true", help="no progress output")
    p.set_defaults(func=_run)


def _run(args) -> int:
    import sys

    from . import build

    for path in build(args.out, seed=args.seed, scale=args.scale, sections=args.section,
                      progress=not args.no_progress):
        print(path)
        sys.stdout.flush()
    return 0
