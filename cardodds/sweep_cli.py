"""``cardodds sweep FILE QUESTION --grid KEY=V1,V2 ...``: a durable sweep over a grid."""

from __future__ import annotations

import argparse
import sys

from . import _cliutil as cu


def _value(text: str):
    low = text.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def _grid_item(text: str) -> tuple[str, list]:
    key, eq, values = text.partition("=")
    if not eq or not key.strip() or not values.strip():
        raise argparse.ArgumentTypeError(f"{text[:40]!r} is not KEY=V1,V2,...; e.g. players=3,4,5")
    return key.strip().replace("-", "_"), [_value(v) for v in values.split(",")]


def add_commands(sub) -> None:
    from .sweep import QUESTIONS

    p = sub.add_parser(
        "sweep", help="one question over a grid of options, kept in a file that resumes",
        description="Ask one question at every combination of the --grid values. Every finished chunk is "
        "committed to FILE (SQLite); running the same command again resumes without recomputing or counting "
        "anything twice. Every point uses the same seed, so differences between points are paired.")
    p.add_argument("file", metavar="FILE", help="the sweep's SQLite file (created, or resumed)")
    p.add_argument("question", metavar="QUESTION", choices=list(QUESTIONS), help=f"one of {', '.join(QUESTIONS)}")
    p.add_argument("--grid", type=_grid_item, action="append", default=[], metavar="KEY=V1,V2",
                   help="a rules option or argument and its values, e.g. players=3,4,5 (repeat for more keys)")
    cu.add_run_options(p, 0)
    p.add_argument("--csv", action="store_true", help="print the table as CSV")
    p.set_defaults(func=_sweep)


def _sweep(args) -> int:
    from .sweep import sweep

    if args.json and args.csv:
        raise ValueError("choose one of --json and --csv")
    grid = {}
    for key, values in args.grid:
        if key in grid:
            raise ValueError(f"--grid {key} given twice; list its values once, e.g. {key}=1,2")
        grid[key] = values
    res = sweep(args.file, args.question, grid, samples=args.samples, target_halfwidth=args.precision,
                rng=args.seed, threads=args.threads, progress=cu.show_progress(args))
    frame = res.to_frame()
    if args.json:
        sys.stdout.write(cu.json_text(res.to_dict()))
    elif args.csv:
        frame.to_csv(sys.stdout, index=False, float_format="%.6f")
    else:
        print(f"Sweep of {res.question}: {len(res.points)} points, seed {res.seed}, file {res.path}"
              f" ({res.computed} chunks computed now)")
        print(frame.to_string(index=False, float_format=lambda x: f"{x:.4f}"))
    return 0
