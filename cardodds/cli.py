"""The ``cardodds`` command: a thin front end over the public API.

Each game adds its own sub-commands from ``cardodds/<game>/cli.py`` through a function
``add_commands(subparsers)``; the handler of a command is stored as ``func`` on its parser
and returns the process exit status. Any ``ValueError`` from the API becomes one line on
stderr and exit status 2; so does a bad argument (argparse's own convention).
"""

from __future__ import annotations

import argparse
import importlib
import sys

from . import __version__
from ._cliutil import (
    Parser,
    error_line,
    flag_words,
    join_dash_values,
    option_strings,
    settle_run_options,
)

#: Games whose commands the CLI offers, in the order ``--help`` lists them.
GAMES = ("kana", "kanalje", "canasta")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="cardodds",
        description=(
            "Odds with their uncertainty for Känä, Kanalje and Polish Canasta. "
            "Every probability is printed with its 95% interval; --json gives one JSON object for scripts."
        ),
    )
    parser.add_argument("--version", action="version", version=f"cardodds {__version__}")
    sub = parser.add_subparsers(dest="game", metavar="COMMAND", parser_class=Parser)
    for game in GAMES:
        try:
            module = importlib.import_module(f"cardodds.{game}.cli")
        except ModuleNotFoundError as exc:
            if exc.name and exc.name.startswith(f"cardodds.{game}"):
                continue  # that game is not part of this build
            raise
        module.add_commands(sub)
    from .report import cli as report_cli

    report_cli.add_commands(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = join_dash_values(sys.argv[1:] if argv is None else argv, parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a bad argument (2, already printed)
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        notes = settle_run_options(args)
        code = int(func(args) or 0)
        for note in notes:
            print(note, file=sys.stderr)
        return code
    except (ValueError, OverflowError) as exc:
        print(error_line(flag_words(str(exc), option_strings(getattr(args, "parser", parser)))), file=sys.stderr)
        return 2
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            # The reader (e.g. `| head`) left: stop quietly, as command-line tools do.
            import os

            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        where = f" {exc.filename}" if exc.filename else ""
        print(error_line(f"cannot write{where}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardodds: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
