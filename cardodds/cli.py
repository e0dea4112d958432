"""The ``cardodds`` command: a thin front end over the public API.

Each game adds its own sub-commands from ``cardodds/<game>/cli.py`` through a function
``add_commands(subparsers)``; the handler of a command is stored as ``func`` on its parser
and returns the process exit status. Any ``ValueError`` from the API becomes one line on
stderr and exit status 2; so does a bad argument (argparse's own convention).

Ctrl-C stops the simulation within a second; the command prints what was counted, marked
partial (``partial: true`` in JSON, an ``interrupted: partial result`` line in text), and
exits with status 130. A second Ctrl-C exits at once.

As the program (``argv`` not given), the command also owns the process: it collects cyclic
garbage less often while numba compiles, and ends without tearing the interpreter down once
its answer is out (see :func:`_leave`).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import gc
import importlib
import os
import signal
import sys

from . import __version__, engine
from ._cliutil import (
    Parser,
    WordedError,
    compile_notice,
    error_line,
    flag_words,
    join_dash_values,
    option_strings,
    settle_run_options,
    show_progress,
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
    from . import sweep_cli

    sweep_cli.add_commands(sub)
    from . import warmup_cli

    warmup_cli.add_commands(sub)
    _add_dask_option(parser)
    return parser


def _add_dask_option(parser: argparse.ArgumentParser) -> None:
    """``--dask ADDRESS|local[:N]`` on every command that simulates (those taking ``--threads``)."""
    from ._backend import DASK_HELP, cli_type

    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in set(action.choices.values()):
                _add_dask_option(child)
    dests = {a.dest for a in parser._actions}
    if "threads" in dests and "dask" not in dests:
        parser.add_argument("--dask", type=cli_type, default=None, metavar="ADDRESS|local[:N]", help=DASK_HELP)


_SIGINTS = 0


def _on_sigint(signum, frame):
    global _SIGINTS
    _SIGINTS += 1
    if _SIGINTS > 1:  # the second Ctrl-C: the user does not want the partial result
        os._exit(130)
    if engine.defer_interrupt():  # a command of several runs: the runs stop themselves
        return
    raise KeyboardInterrupt


#: The garbage collector's thresholds (generations 0, 1, 2) while the command is the program;
#: Python's are (700, 10, 10). Numba's compiler allocates millions of short-lived objects, and
#: at Python's thresholds the collector runs hundreds of times in a first call that compiles,
#: at these far fewer (``benchmarks/RESULTS_program.md``).
PROGRAM_GC_THRESHOLDS = (50_000, 50, 100)


#: Whether this process is the ``cardodds`` program (:func:`main` without arguments), not a
#: user's session: only then does cardodds skip numba's BLAS check (``cardodds._jit``).
AS_PROGRAM = False


def main(argv: list[str] | None = None) -> int:
    """Run the ``cardodds`` command ``argv`` (default: the process's arguments, as the program)
    and return its exit status."""
    global AS_PROGRAM
    if argv is not None:
        return _run(argv, as_program=False)
    AS_PROGRAM = True
    gc.set_threshold(*PROGRAM_GC_THRESHOLDS)
    status = _run(sys.argv[1:], as_program=True)
    _leave(status)
    return status


def _leave(status: int) -> None:
    """End the program with ``status`` once its answer is out: flush, run the exit handlers
    (:mod:`atexit`: temporary folders, dask, multiprocessing), and exit without tearing the
    interpreter down. The teardown frees every object numba made, for nothing: its seconds after
    a first call are in ``benchmarks/RESULTS_program.md``. Returns, for the normal exit, while a thread
    that is not a daemon runs (its join is part of the exit; the engine's workers are daemons,
    which no exit waits for) or when the output cannot be flushed (Python then reports it)."""
    import threading

    first = threading.main_thread()
    if any(not t.daemon for t in threading.enumerate() if t is not first):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    atexit._run_exitfuncs()
    with contextlib.suppress(OSError, ValueError):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(status)


def _run(argv: list[str], as_program: bool) -> int:
    parser = build_parser()
    argv = join_dash_values(argv, parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) or a bad argument (2, already printed)
        return int(exc.code or 0) if not isinstance(exc.code, str) else 2
    func = getattr(args, "func", None)
    if func is None:
        parser.print_help(sys.stderr)
        return 2
    from ._backend import backend

    global _SIGINTS
    _SIGINTS = 0
    # A command started with SIGINT ignored (e.g. in the background of a script) keeps ignoring it.
    installed = threading_main() and signal.getsignal(signal.SIGINT) is not signal.SIG_IGN
    previous = signal.signal(signal.SIGINT, _on_sigint) if installed else None
    try:
        notes = settle_run_options(args)
        # the report and warm-up show their own compiling; a game's command says it waits for it
        notice = compile_notice(args.game in GAMES and show_progress(args))
        with engine.session() as sess, backend(getattr(args, "dask", None) or "threads"), notice:
            status = int(func(args) or 0)
        for note in notes:
            print(note, file=sys.stderr)
        if sess.interrupted or status == 130:
            line = sess.partial_line()
            if line and getattr(args, "partial_line", True) and not (getattr(args, "json", False)
                                                                      or getattr(args, "csv", False)):
                print(line)
            return _interrupted_exit(as_program)
        return status
    except (ValueError, OverflowError) as exc:
        text = str(exc) if isinstance(exc, WordedError) else flag_words(
            str(exc), option_strings(getattr(args, "parser", parser)))
        print(error_line(text), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("cardodds: interrupted", file=sys.stderr)
        return _interrupted_exit(as_program)
    except OSError as exc:
        if isinstance(exc, BrokenPipeError):
            # The reader (e.g. `| head`) left: stop quietly, as command-line tools do.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        where = f" {exc.filename}" if exc.filename else ""
        print(error_line(f"cannot write{where}: {exc.strerror or exc}"), file=sys.stderr)
        return 2
    finally:
        if previous is not None:
            # As the program, the answer is out: a Ctrl-C while the interpreter shuts down
            # (numba's threads take a moment) is ignored, so the process ends with its status
            # instead of being killed by the signal (Python restores the default handler of a
            # Python function there, but leaves an ignored signal ignored).
            signal.signal(signal.SIGINT, signal.SIG_IGN if as_program else previous)


def _interrupted_exit(as_program: bool) -> int:
    """Status 130; as the program itself, exit at once: tearing down numba and its threads
    takes a second, and a user who pressed Ctrl-C is waiting."""
    if as_program:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(130)
    return 130


def threading_main() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
