"""``cardodds sweep FILE QUESTION --grid KEY=V1,V2 ...``: a durable sweep over a grid."""

from __future__ import annotations

import argparse

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


#: Arguments every point shares (set by the run options, not by the grid).
_RUN_KEYS = {"samples", "target_halfwidth", "precision", "rng", "seed", "threads", "progress", "backend", "rules"}
_RUN_FLAGS = ("--samples", "--precision", "--seed", "--threads")


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
    cu.add_run_options(p, "the question's own default")
    p.add_argument("--csv", action="store_true", help="print the table as CSV")
    # Without --seed a sweep resumes with the seed stored in its file (a new file draws one).
    p.set_defaults(func=_sweep, seed_from_file=True)


def _sweep(args) -> int:
    from .sweep import sweep

    if args.json and args.csv:
        raise cu.UsageError("choose one of --json and --csv")
    grid = {}
    for key, values in args.grid:
        if key in grid:
            raise cu.WordedError(f"--grid {key} given twice; list its values once, e.g. {key}=1,2")
        if key in _RUN_KEYS:
            raise cu.WordedError(f"--grid {key}: the run's size, seed and threads are the same at every point; "
                                 "give them as --samples or --precision, --seed, --threads")
        grid[key] = values
    try:
        res = sweep(args.file, args.question, grid, samples=args.samples, target_halfwidth=args.precision,
                    **cu.run_options(args))
    except cu.UsageError:
        raise
    except ValueError as exc:
        # The question's own messages name grid keys as key=value, as --grid takes them; only the
        # run options are this command's flags.
        raise cu.WordedError(cu.flag_words(str(exc), _RUN_FLAGS)) from None
    if args.csv:
        cu.write_out(res.to_frame().to_csv(index=False, float_format="%.6f"))
        return 130 if cu.is_partial(res) else 0
    return cu.emit(args, res, sweep_text)


def sweep_text(res) -> str:
    head = (f"Sweep of {res.question}: {len(res.points)} points, seed {res.seed}, file {res.path} "
            f"({res.computed} chunks computed now)")
    frame = res.to_frame().to_string(index=False, float_format=lambda x: f"{x:.4f}")
    return cu.block(head, res, ["  " + line for line in frame.splitlines()])
