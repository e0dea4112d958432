"""Pieces every game's CLI shares: the parser, option types, run-size options, errors, output.

One pattern for every command:

- :func:`add_run_options` adds ``--samples N | --precision H [| --exact]`` (one exclusive
  group), ``--seed``, ``--threads``, ``--progress/--no-progress`` and ``--json``;
  :func:`run_size` turns them into the API's ``samples=`` / ``target_halfwidth=`` / ``exact=``.
- A handler builds its whole output first and hands it to :func:`emit` (JSON or a titled
  table), so an error never leaves half an answer on stdout.
- Every error is one line, ``cardodds: error: ...``, at most :data:`MAX_ERROR` characters
  (a longer one cut in its middle, its end kept), naming the flag as typed (:func:`error_line`,
  :func:`flag_words`); exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import re
import secrets
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from .stats import Estimate

PREFIX = "cardodds: error: "
#: Longest error line (prefix included); longer tokens are shortened to fit.
MAX_ERROR = 200
#: Longest token echoed whole in an error; a longer one is cut with its length noted.
MAX_TOKEN = 40
#: Bits of a seed the CLI draws when none is given: exact as a JSON number in any parser
#: (IEEE doubles hold 53-bit integers), and passing it back with ``--seed`` repeats the run.
SEED_BITS = 53


# ---- errors ---------------------------------------------------------------------------------
def shorten(text: str, limit: int = MAX_TOKEN) -> str:
    """``text`` with every whitespace-free token longer than ``limit`` cut to its ends."""
    def cut(m: re.Match) -> str:
        t = m.group(0)
        end = re.search(r"""['"]?[,.:;)]*$""", t).group(0)  # type: ignore[union-attr]  # a closing quote stays
        return f"{t[:limit // 2]}...({len(t) - len(end):,} characters){end}"
    return re.sub(r"\S{%d,}" % (limit + 1), cut, text)


#: A quoted value in a message (``'Kh Kd 3x'``, ``"x.json"``); a quote inside a word (``record's``) is none.
_QUOTED = re.compile(r"""(?<!\w)('[^'\n]*'|"[^"\n]*")(?!\w)""")
#: The shortest a quoted value is cut to (its quotes excluded) to make a line fit.
_MIN_QUOTED = 16


def error_line(message: str) -> str:
    """One line, one prefix, at most :data:`MAX_ERROR` characters. A longer line loses the middle
    of the longest quoted values of its first half (a hand, a path: what the user typed) first,
    then its own middle: the end of a message, where the fix is named, always stays."""
    text = " ".join(str(message).split())
    for old in ("cardodds: error: ", "error: "):
        if text.startswith(old):
            text = text[len(old):]
    room = MAX_ERROR - len(PREFIX)
    while len(text) > room:
        # a value echoed from the input comes first; the fix, maybe quoted too, comes last
        early = [m for m in _QUOTED.finditer(text) if m.start() < len(text) // 2]
        quoted = max(early, key=lambda m: len(m.group(0)), default=None)
        if quoted is None or len(quoted.group(0)) - 2 <= _MIN_QUOTED:
            break
        value = quoted.group(0)
        keep = min(max(_MIN_QUOTED, len(value) - 2 - (len(text) - room)), MAX_TOKEN - 4) - 3
        inner = value[1:1 + (keep + 1) // 2] + "..." + value[len(value) - 1 - keep // 2:-1]
        text = text[:quoted.start()] + value[0] + inner + value[-1] + text[quoted.end():]
    text = shorten(text)
    if len(text) > room:
        head = (room - 5) // 3
        text = text[:head].rstrip() + " ... " + text[len(text) - (room - 5 - head):].lstrip()
    return PREFIX + text


class UsageError(ValueError):
    """Bad command-line input found after parsing; printed like an argparse error."""


class WordedError(UsageError):
    """A usage error already in the command's own words: printed as it is, no ``name=value``
    rewritten as a flag (e.g. a sweep's ``--grid players=4``, whose keys are not its flags)."""


def about(flag: str, value, check: Callable, *args, **kwargs):
    """``check(*args, **kwargs)``; its ``ValueError`` as a usage error that names ``flag`` and ``value``."""
    try:
        return check(*args, **kwargs)
    except ValueError as exc:
        message = str(exc)
        if message.startswith(flag):
            raise
        raise UsageError(f"{flag} {repr(value) if isinstance(value, str) else value}: {message}") from None


class Parser(argparse.ArgumentParser):
    """argparse with cardodds' error convention: one line on stderr, exit status 2."""

    def error(self, message):
        self.exit(2, error_line(f"{message} (see {self.prog} --help)") + "\n")


def command(sub, name: str, declare: Callable, help: str, **kwargs) -> argparse.ArgumentParser:
    """Sub-command ``name`` of ``sub``; its description is the docstring of ``declare``, the
    function that declares it (one paragraph, as ``--help`` prints it)."""
    return sub.add_parser(name, help=help, description=" ".join((declare.__doc__ or "").split()), **kwargs)


def help_exit(parser: argparse.ArgumentParser) -> Callable[[argparse.Namespace], int]:
    """Handler of a bare game command: its help on stderr, exit status 2."""
    def run(args) -> int:
        parser.print_help(sys.stderr)
        return 2
    return run


# Python argument names the API's messages use, and the flag a CLI user typed instead.
_RENAMED = {"target_halfwidth": "--precision", "rng": "--seed"}


def flag_words(message: str, flags: Iterable[str] = ()) -> str:
    """Rewrite ``name=value`` in an API message as ``--name value`` for the flags this command has.

    ``seat=5 must be 0..2`` reads ``--seat 5 must be 0..2``; ``exact=True`` reads ``--exact``,
    ``exact=False`` "without --exact"; values lose their Python quotes and use hyphens
    (``turned_jack='last_trick'`` reads ``--turned-jack last-trick``).
    """
    known = set(flags)

    def flag_of(name: str) -> str | None:
        flag = _RENAMED.get(name, "--" + name.replace("_", "-"))
        return flag if flag in known else None

    def sub(m: re.Match) -> str:
        name, value = m.group(1), m.group(2)
        flag = flag_of(name)
        if flag is None:
            return m.group(0)
        if value in ("True", "False"):
            return flag if value == "True" else f"without {flag}"
        value = value.strip("'\"")
        if re.fullmatch(r"[a-z_]+", value):
            value = value.replace("_", "-")
        return f"{flag} {value}"

    text = re.sub(r"\b([a-z][a-z0-9_]*)=('[^']*'|\"[^\"]*\"|[^\s,;)]+)", sub, message)
    text = re.sub(r"\b([a-z][a-z0-9_]*)=(?=[\s,;)]|$)", lambda m: flag_of(m.group(1)) or m.group(0), text)
    # A bare Python argument name in the message, e.g. "give samples or target_halfwidth".
    for name, flag in _RENAMED.items():
        if flag in known:
            text = re.sub(rf"(?<![-\w]){name}\b(?!=)", flag, text)
    return text


def option_strings(parser: argparse.ArgumentParser) -> set[str]:
    """Every option string of ``parser`` and of its sub-commands."""
    found: set[str] = set()
    for action in parser._actions:
        found.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for p in action.choices.values():
                found |= option_strings(p)
    return found


def value_options(parser: argparse.ArgumentParser) -> set[str]:
    """Options (of ``parser`` and its sub-commands) that take one value."""
    found: set[str] = set()
    for action in parser._actions:
        if action.option_strings and action.nargs is None:
            found.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for p in action.choices.values():
                found |= value_options(p)
    return found


def join_dash_values(argv: Sequence[str], parser: argparse.ArgumentParser) -> list[str]:
    """``--shown -1:5h`` as ``--shown=-1:5h``: argparse would take ``-1:5h`` for an option.

    Only a value that is not itself one of the command's options is joined, so
    ``--seed --json`` still reports the missing seed.
    """
    takes = value_options(parser)
    known = option_strings(parser)
    out: list[str] = []
    i = 0
    argv = list(argv)
    while i < len(argv):
        tok = argv[i]
        if tok == "--":
            out.extend(argv[i:])
            break
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        if (tok in takes and nxt is not None and nxt.startswith("-") and nxt != "--"
                and nxt.split("=", 1)[0] not in known):
            out.append(f"{tok}={nxt}")
            i += 2
            continue
        out.append(tok)
        i += 1
    return out


# ---- option types ---------------------------------------------------------------------------
def _whole(text: str) -> int:
    t = text.strip().replace("_", "")
    if not re.fullmatch(r"[+-]?\d{1,30}", t):
        raise argparse.ArgumentTypeError(f"{shorten(repr(text))} is not a whole number")
    return int(t)


def int_range(low: int, high: int | None = None, what: str = "") -> Callable[[str], int]:
    """Type: a whole number in ``low..high`` (``high`` None: no upper bound)."""
    def check(text: str) -> int:
        value = _whole(text)
        if value < low or (high is not None and value > high):
            accepted = f"{low:,}..{high:,}" if high is not None else f"{low:,} or more"
            raise argparse.ArgumentTypeError(f"{shorten(text)} is outside {accepted}{what}")
        return value
    check.__name__ = "whole number"
    return check


def positive_int(text: str) -> int:
    value = _whole(text)
    if value <= 0:
        raise argparse.ArgumentTypeError(f"{shorten(text)} must be a positive whole number")
    return value


def positive_float(low_ok: float = 0.0, high: float | None = None, example: str = "") -> Callable[[str], float]:
    """Type: a finite number above ``low_ok`` (and at most ``high``)."""
    def check(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shorten(repr(text))} is not a number{example}") from None
        if not math.isfinite(value) or value <= low_ok or (high is not None and value > high):
            top = f" and at most {high:g}" if high is not None else ""
            raise argparse.ArgumentTypeError(f"{shorten(text)} must be a finite number above {low_ok:g}{top}{example}")
        return value
    check.__name__ = "number"
    return check


def precision(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{shorten(repr(text))} is not a number; give a 95% half-width "
                                         "such as 0.002") from None
    if not (0 < value < 1):
        raise argparse.ArgumentTypeError(f"{shorten(text)} must be a 95% half-width between 0 and 1, e.g. 0.002")
    return value


def seed(text: str) -> int:
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{shorten(text)} must be >= 0")
    return value


def choice(*names: str) -> Callable[[str], str]:
    """Type: one of ``names`` (hyphenated, or with underscores)."""
    aliases = {n: n for n in names}
    aliases.update({n.replace("-", "_"): n for n in names})

    def check(text: str) -> str:
        if text in aliases:
            return aliases[text]
        raise argparse.ArgumentTypeError(f"{shorten(repr(text))} is not one of {', '.join(names)}")
    check.__name__ = "choice"
    return check


def python_name(value: str) -> str:
    """A hyphenated CLI value as the API spells it (``last-trick`` -> ``last_trick``)."""
    return value.replace("-", "_")


# ---- the shared run options -----------------------------------------------------------------
#: ``--exact``'s help wherever a command can enumerate.
EXACT_HELP = "enumerate exactly instead of simulating"


def add_run_options(p: argparse.ArgumentParser, default_samples: str, *, exact: str | None = None,
                    unit: str = "deals", precision_in: str | None = None, precision_flag: bool = True) -> None:
    """``--samples N | --precision H [| --exact]``, ``--seed``, ``--threads``, progress, ``--json``.

    ``default_samples`` is the help text's default (the API's own default is used when neither
    is given); ``exact`` the help of ``--exact`` where the command can enumerate;
    ``precision_in`` the help of a ``--precision`` counted in other units than a probability
    (any positive number then); ``precision_flag=False``: no ``--precision`` (the question's
    function takes no ``target_halfwidth``).
    """
    size = p.add_mutually_exclusive_group()
    size.add_argument("--samples", type=positive_int, default=None, metavar="N",
                      help=f"number of simulated {unit} (default {default_samples})")
    if precision_flag:
        size.add_argument("--precision", default=None, metavar="H",
                          type=precision if precision_in is None else positive_float(example=", e.g. 20"),
                          help=precision_in or "simulate until the headline figure's 95%% interval is ±H (e.g. 0.001)")
    if exact is not None:
        size.add_argument("--exact", action="store_true", help=exact)
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="random seed; the same seed gives the same numbers on any number of threads "
                        "(default: a fresh seed, printed with the result)")
    p.add_argument("--threads", type=positive_int, default=None, metavar="T",
                   help="worker threads (default: all cores; more than the cores available are capped)")
    add_progress_options(p)
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def _rule_type(f) -> tuple[Callable[[str], object], str]:
    """A rules field's flag type and metavar, from the field's default and metadata."""
    meta, default = f.metadata, f.default
    if "choices" in meta:
        values = meta["choices"]
        words = {str(v).replace("_", "-"): v for v in values}
        words.update({str(v): v for v in values})

        def pick(text: str):
            key = text.strip().replace("_", "-")
            if key in words:
                return words[key]
            raise argparse.ArgumentTypeError(f"{shorten(repr(text))} is not one of "
                                             f"{', '.join(str(v).replace('_', '-') for v in values)}")
        pick.__name__ = "choice"
        return pick, "|".join(str(v).replace("_", "-") for v in values)
    low, high, why = meta.get("low", 0), meta.get("high"), meta.get("why")
    why = f" ({why})" if why else ""
    if isinstance(default, tuple):
        one = int_range(int(low), None if high is None else int(high), why)

        def several(text: str) -> tuple:
            parts = [t for t in text.replace(",", " ").split() if t]
            if len(parts) != len(default):
                raise argparse.ArgumentTypeError(f"{shorten(repr(text))}: give {len(default)} whole numbers, "
                                                 f"comma-separated, e.g. {','.join(map(str, default))}")
            return tuple(one(t) for t in parts)
        several.__name__ = "whole numbers"
        return several, ",".join("N" for _ in default)
    if isinstance(default, float):
        return positive_float(float(low), high, why), "X"
    return int_range(int(low), None if high is None else int(high), why), "N"


def add_rules_flags(p: argparse.ArgumentParser, rules_cls, *, only: Iterable[str] | None = None,
                    skip: Iterable[str] = (), title: str | None = None) -> None:
    """One flag a field of ``rules_cls`` (the game's rules dataclass), made from the field:
    ``--wild-limit`` for ``wild_limit``, its help from the field's ``rule(...)`` with the default,
    its values or range from the field; a yes/no field is ``--swap-twos`` when off by default,
    ``--no-phase1-jacks-cost`` when on. ``only``: these fields alone; ``skip``: not these. A flag
    not given is None (:func:`rules_of` then keeps the default)."""
    from ._fields import rule_fields, value_words

    fields = [f for f in rule_fields(rules_cls) if f.name not in set(skip) and (only is None or f.name in only)]
    g = p.add_argument_group(title) if title else p
    for f in fields:
        flag = "--" + f.name.replace("_", "-")
        text = f.metadata.get("help", f.name.replace("_", " "))
        if isinstance(f.default, bool):
            if f.default:
                g.add_argument("--no-" + flag[2:], dest=f.name, action="store_false", default=None,
                               help=f"{text}: on by default, off with this flag")
            else:
                g.add_argument(flag, dest=f.name, action="store_true", default=None, help=text)
            continue
        kind, metavar = _rule_type(f)
        low, high = f.metadata.get("low"), f.metadata.get("high")
        span = "" if "choices" in f.metadata or high is None else f", {value_words(low)}..{high:,}"
        g.add_argument(flag, dest=f.name, type=kind, default=None, metavar=metavar,
                       help=f"{text}{span} (default {value_words(f.default)})".replace("%", "%%"))


def given_rules(args, rules_cls) -> dict:
    """The rules fields whose flag was given (:func:`add_rules_flags`), by field name."""
    from ._fields import rule_fields

    return {f.name: getattr(args, f.name) for f in rule_fields(rules_cls) if getattr(args, f.name, None) is not None}


def rules_of(args, rules_cls, **fixed):
    """``rules_cls`` with every rules flag given and ``fixed`` (a command's own, e.g. ``variant``);
    a flag for another player count than the rules' is a usage error naming it."""
    from ._fields import rule_fields

    given = given_rules(args, rules_cls)
    rules = rules_cls(**{**given, **fixed})
    for f in rule_fields(rules_cls):
        n = f.metadata.get("players")
        if f.name in given and n is not None and getattr(rules, "players", n) != n:
            flag = ("--no-" if given[f.name] is False and f.default is True else "--") + f.name.replace("_", "-")
            raise UsageError(f"{flag} applies to {n} players, not {rules.players} (drop it, or use --players {n})")
    return rules


def rules_line(rules, shown: tuple[str, ...] = ()) -> str:
    """The header's words for the house rules: every rule that differs from the default, or ''."""
    from ._fields import rules_words

    words = rules_words(rules, shown)
    return f"house rules: {words}" if words else ""


#: ``--check``'s help wherever a command can check the table.
CHECK_HELP = "verify the table after every move; report violations"


def add_check(p: argparse.ArgumentParser) -> None:
    """``--check``: the API's ``check=True`` (a command whose question can check its invariants)."""
    p.add_argument("--check", action="store_true", help=CHECK_HELP)


def violations(r) -> list[str]:
    """The line a checked run prints when its table broke a rule (none when it kept every one)."""
    found = getattr(r, "violations", None) or {}
    bad = {k: v for k, v in (found if isinstance(found, dict) else {"invariants": found}).items() if v}
    return [f"RULE VIOLATIONS in checked play: {bad}"] if bad else []


def max_deals(p: argparse.ArgumentParser, default: int, most: int, unit: str = "deals") -> None:
    """``--max-deals``: the deals (a game's own word: ``unit``) after which an open game counts as unfinished."""
    own = "" if unit == "deals" else f" ({unit})"
    p.add_argument("--max-deals", type=int_range(1, most, f" {unit}"), default=default, metavar="D",
                   help=f"an open game counts as unfinished after this many deals{own} (no one wins it), "
                        f"1..{most:,} (default {default})")


def table_seed(p: argparse.ArgumentParser, seed: int) -> None:
    """A ``table`` command's ``--seed``: the shipped tables' seed unless given, also ``--build``'s."""
    p.set_defaults(seed=seed)
    for action in p._actions:
        if "--seed" in action.option_strings:
            action.help = (f"random seed of --build, each table seeded by its own stream of it; the same seed gives "
                           f"the same tables on any number of threads (default {seed}, the shipped tables')")


def add_trace_options(p: argparse.ArgumentParser) -> None:
    """A ``trace`` command's ``--seed`` and ``--json`` (one deal: no run size, no threads)."""
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="random seed of the deal and the players' draws (default: a fresh seed, printed)")
    p.add_argument("--json", action="store_true", help="print one JSON object (the trace) instead of its text")


def add_progress_options(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--progress", dest="progress", action="store_true", default=None,
                   help="show progress on stderr even when it is not a terminal")
    g.add_argument("--no-progress", dest="progress", action="store_false", help="no progress on stderr")


def page_path(text: str) -> str:
    """Type: a file the page can be written to (checked before the run, not after it)."""
    path = Path(text).expanduser()
    why = ("is a folder; give a file name for the page" if path.is_dir()
           else ": its folder does not exist" if not path.parent.is_dir()
           else ": its folder is not writable" if not os.access(path.parent, os.W_OK) else None)
    if why:
        fix = "" if path.is_dir() else "; give a file in a folder you can write"
        raise argparse.ArgumentTypeError(f"{shorten(text)}{'' if why.startswith(':') else ' '}{why}{fix}")
    return text


def add_review_options(p: argparse.ArgumentParser, game: str, budget: tuple[float, int], unit: str) -> None:
    """A ``review`` command's record, ``--seat``, ``--html``, budget and run options (every
    game's); ``budget``: the game's seconds a decision and rounds at most."""
    p.add_argument("record", metavar="FILE",
                   help=f"the record of the game: what 'cardodds {game} trace' prints (text or --json), or the "
                        "same typed by hand (docs: the record format)")
    p.add_argument("--seat", default="0", metavar="S|all",
                   help="my seat: the seat whose decisions are rated, or all (every seat whose cards the record "
                        "holds; default 0)")
    p.add_argument("--html", default=None, metavar="FILE", type=page_path,
                   help="also write the review as one self-contained web page (the decisions, their options, a "
                        "chart of the cost of each)")
    seconds, rounds = budget
    p.add_argument("--budget-seconds", type=positive_float(0.0, 86_400.0, " (seconds)"), default=seconds,
                   metavar="S", help="without --samples: start no round that would end after S seconds, in each "
                   f"decision's advice and in pricing the move made (default {seconds:g}); a rating cut short says "
                   "'about'")
    p.add_argument("--budget-rounds", type=int_range(1, rounds), default=None, metavar="R",
                   help=f"without --samples: play at most R rounds in each (at most {rounds}), whatever the time: "
                   "the same review on any machine")
    add_run_options(p, "rounds until a verdict, then the move made priced against the best on fresh ones until its "
                    "rating is clear; N: each on N, one look", unit=unit, precision_flag=False)


def review_budget(args) -> dict:
    """A review command's ``budget_seconds=`` and ``budget_rounds=`` for the API."""
    return {"budget_seconds": args.budget_seconds, "budget_rounds": args.budget_rounds}


def review_output(args, result) -> int:
    """Print a review (and write its page, ``--html``): every game's ``review`` command ends here."""
    if args.html:
        try:
            result.write_html(args.html)
        except ValueError as e:
            raise UsageError(f"--html {args.html}: {e}") from None
    return emit(args, result, repr)


def add_strength_players(p: argparse.ArgumentParser, a: str, b: str, names: str) -> None:
    """A ``strength`` command's two policies, ``A`` and ``B`` (as ``strength(a, b)``)."""
    p.add_argument("a", nargs="?", default=a, metavar="A", help=f"policy A: {names} (default {a})")
    p.add_argument("b", nargs="?", default=b, metavar="B", help=f"policy B, A's opponent: {names} (default {b})")


def run_size(args) -> dict:
    """The API's ``samples=`` / ``target_halfwidth=`` (None, None: the API's default size)."""
    return {"samples": args.samples, "target_halfwidth": getattr(args, "precision", None)}


def run_options(args) -> dict:
    """``rng=``, ``threads=``, ``progress=`` for the API."""
    return {"rng": args.seed, "threads": args.threads, "progress": show_progress(args)}


def show_progress(args) -> bool:
    """Progress bars only in a terminal, unless ``--progress`` / ``--no-progress`` says otherwise."""
    forced = getattr(args, "progress", None)
    if forced is not None:
        return bool(forced)
    return sys.stderr.isatty()


#: What a command says on stderr when it first waits for numba (with progress shown).
COMPILE_NOTICE = ("cardodds: compiling the kernels this command runs (once after an install or an upgrade: "
                  "they are kept on disk; `cardodds warm-up` compiles every command's ahead)")


def compile_notice(show: bool) -> contextlib.AbstractContextManager:
    """While a command runs: one line on stderr (:data:`COMPILE_NOTICE`) the first time it waits
    for numba to compile one of cardodds' functions, so that a first call of several seconds does
    not look hung; nothing when every kernel comes from the on-disk cache, or when ``show`` is
    False (no progress shown). The API calls the command makes say nothing of their own
    (:func:`cardodds._interactive.compile_notice`).

    >>> with compile_notice(False):
    ...     pass
    """
    from ._interactive import compile_notice as block

    return block(COMPILE_NOTICE if show else None)


def cores_available() -> int:
    try:
        return len(os.sched_getaffinity(0)) or 1
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def settle_run_options(args) -> list[str]:
    """Once per command, after parsing: cap ``--threads`` at the cores, and draw a seed when
    none is given, so every run prints the seed that repeats it (not where a seed would build a table of
    its own instead of reading the shipped one: ``draw_seed=False``). Returns the notices to print
    once the command has succeeded (an error stays the only line on stderr)."""
    notes = []
    threads = getattr(args, "threads", None)
    if threads is not None:
        most = cores_available()
        if threads > most:
            notes.append(f"cardodds: note: --threads {threads} capped at the {most} cores available")
            args.threads = most
    if hasattr(args, "seed") and args.seed is None and not getattr(args, "exact", False) \
            and not getattr(args, "seed_from_file", False) and getattr(args, "draw_seed", True):
        args.seed = secrets.randbits(SEED_BITS)
    return notes


# ---- output ---------------------------------------------------------------------------------
def _default(o):
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.bool_):
        return bool(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"cannot write {type(o).__name__} as JSON")


def _json_ready(d: dict, result) -> dict:
    """Every JSON object carries ``partial``, ``seed``, ``samples``, ``rules`` and ``version``."""
    from . import __version__

    d = dict(d)
    d.setdefault("samples", int(getattr(result, "samples", 0) or 0))
    d.setdefault("seed", getattr(result, "seed", None))
    d.setdefault("partial", is_partial(result))
    rules = getattr(result, "rules", None)
    d.setdefault("rules", rules.to_dict() if rules is not None and hasattr(rules, "to_dict") else rules)
    d.setdefault("version", getattr(result, "version", __version__))
    return d


def json_text(obj) -> str:
    """``obj`` as one JSON document (no NaN or infinity: a figure that is not a number is null)."""
    return json.dumps(_clean(obj), indent=2, ensure_ascii=False, default=_default, allow_nan=False) + "\n"


def _clean(obj):
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    return obj


def emit(args, result, text: Callable[[object], str], data: Callable[[object], dict] | None = None) -> int:
    """Print ``result`` as JSON (``--json``) or as ``text(result)``; the whole output is built
    before anything is written, so an error leaves stdout empty. Returns the exit status: 0, or
    130 for a run interrupted by Ctrl-C (its partial result is printed first, marked partial)."""
    if getattr(args, "json", False):
        out = json_text(_json_ready(data(result) if data else result.to_dict(), result))
    else:
        out = text(result).rstrip("\n") + "\n"
    write_out(out)
    return 130 if is_partial(result) else 0


def write_out(text: str) -> None:
    """Write ``text`` to stdout whole: a Ctrl-C meanwhile is deferred (the command then exits
    with status 130). A signal whose handler returns can cut Python's buffered write to a full
    pipe short without an error, so on POSIX the bytes go out through ``os.write``, which says
    how many it wrote."""
    try:
        fd = sys.stdout.fileno() if os.name == "posix" else -1
    except (AttributeError, OSError, ValueError):  # stdout captured or replaced (tests, notebooks)
        fd = -1
    if fd < 0:
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    from .engine import defer_interrupts

    sys.stdout.flush()
    view = memoryview(text.encode(sys.stdout.encoding or "utf-8", sys.stdout.errors or "strict"))
    with defer_interrupts():  # a Ctrl-C now waits for the answer to be out whole (a second one exits)
        while view:
            view = view[os.write(fd, view):]


def is_partial(result) -> bool:
    if isinstance(result, (list, tuple)):
        return any(is_partial(r) for r in result)
    return bool(getattr(result, "partial", False))


# ---- tables ---------------------------------------------------------------------------------
def est(e: Estimate, digits: int = 4, sign: bool = False) -> str:
    """One estimate as every command prints it: ``value [lo, hi]`` or ``value (exact)``."""
    return e.format(digits, sign=sign)


def how(result, unit: str = "deals") -> str:
    """``exact`` or ``Monte Carlo, N unit, seed S``."""
    if getattr(result, "exact", False) or getattr(result, "method", "") == "exact" or not result.samples:
        return "exact"
    return f"Monte Carlo, {result.samples:,} {unit}, seed {result.seed}"


def title(text: str, result=None) -> str:
    if result is not None and getattr(result, "partial", False):
        text += " [PARTIAL: interrupted, figures from the deals counted so far]"
    return text


def table(header: Sequence[str] | None, rows: Iterable[Sequence[object]], indent: int = 2) -> list[str]:
    """Aligned columns, two spaces apart, left-aligned (figures in one style line up because
    they have the same width); ``header`` None: label-value rows without a header line."""
    lines = [[str(c) for c in r] for r in rows]
    if header is not None:
        lines.insert(0, list(header))
    width = [max(len(r[i]) for r in lines) for i in range(len(lines[0]))]
    pad = " " * indent
    return [pad + "  ".join(c.ljust(w) for c, w in zip(r, width)).rstrip() for r in lines]


def tables_text(r, rules: str) -> str:
    """A :class:`~cardodds.strategy.StrategyTablesResult` as every game's ``table`` prints it:
    its heading, the ``rules`` in words, then each table's grid."""
    title, made = r.heading()
    return block(title, r, made, f"rules: {rules}", r.lines())


def strength_text(r, swapped: str, digits: int, *notes: str) -> str:
    """A :class:`~cardodds.results.StrengthResult` as every game's ``strength`` prints it:
    A's edge in points a deal (hand) and P(A did better over the pair); ``swapped`` names
    what the pair swaps ("seats", "sides")."""
    head = (f"{r.game.capitalize()} strength, {r.a} against {r.b}, {swapped} swapped on the same deals "
            f"({how(r, f'paired {r.unit}s')})")
    verdict = ("no difference at this precision" if r.points.contains_zero()
               else f"{r.a if r.points.value > 0 else r.b} is stronger")
    rows = [(f"{r.a} minus {r.b}, points a {r.unit}", est(r.points, digits, sign=True)),
            (f"{r.a} better over the pair", est(r.better))]
    if r.mean_a is not None:
        rows += [(f"{r.a}'s mean score a {r.unit}", f"{r.mean_a:.{digits}f}"),
                 (f"{r.b}'s mean score in the same seat", f"{r.mean_b:.{digits}f}")]
    house = rules_line(r.rules) if getattr(r, "rules", None) is not None else ""
    return block(head, r, *([house] if house else []), table(("figure", "estimate"), rows), verdict, *notes)


def block(head: str, result, *parts: Sequence[str] | str) -> str:
    """A titled answer: the title line, then each part (a table's lines or a line)."""
    lines = [title(head, result)]
    for part in parts:
        if isinstance(part, str):
            lines.append("  " + part if part else "")
        else:
            lines.extend(part)
    return "\n".join(lines)
