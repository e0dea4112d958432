"""Pieces every game's CLI shares: run-size options, JSON output, tables."""

from __future__ import annotations

import argparse
import json
import math
import sys

import numpy as np


def positive_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be positive")
    return value


def precision(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number; give a 95% half-width such as 0.002") from None
    if not (0 < value < 1) or math.isnan(value):
        raise argparse.ArgumentTypeError(f"{text!r} must be a 95% half-width between 0 and 1, e.g. 0.002")
    return value


def seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be >= 0")
    return value


def add_run_options(p: argparse.ArgumentParser, default_samples: int) -> None:
    """``--samples N | --precision H``, ``--seed``, ``--threads``, ``--no-progress``, ``--json``."""
    size = p.add_mutually_exclusive_group()
    size.add_argument(
        "--samples", type=positive_int, default=None, metavar="N",
        help=f"number of simulated deals (default {default_samples:,})",
    )
    size.add_argument(
        "--precision", type=precision, default=None, metavar="H",
        help="simulate until the headline figure's 95%% interval is ±H (e.g. 0.001)",
    )
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="random seed; the same seed gives the same numbers on any number of threads")
    p.add_argument("--threads", type=positive_int, default=None, metavar="T",
                   help="worker threads (default: all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def run_size(args, default_samples: int) -> dict:
    """The API's ``samples=`` / ``target_halfwidth=`` from the options."""
    if args.precision is not None:
        return {"samples": None, "target_halfwidth": args.precision}
    return {"samples": args.samples or default_samples, "target_halfwidth": None}


def show_progress(args) -> bool:
    return not args.no_progress and not args.json and sys.stderr.isatty()


def _default(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"cannot write {type(o).__name__} as JSON")


def print_json(obj) -> None:
    json.dump(obj, sys.stdout, indent=2, ensure_ascii=False, default=_default, allow_nan=False)
    sys.stdout.write("\n")
