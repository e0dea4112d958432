"""Every public call of the three games against ARCHITECTURE.md's table ("One API").

The table writes each call as ``name(what it is about)`` → ``Result``: the arguments before
``rules=`` (those after ``*`` keyword-only) and the result class. Each call of a game package's
``__all__`` is in its game's column once, with those arguments in that order and that return
annotation; after them every call takes, keyword-only and in this order, ``rules=``, ``samples=``,
``target_halfwidth=``, ``rng=``, ``threads=``, ``backend=`` (``engine.takes_backend``), its own
options, ``check=``, ``progress=`` (each where it has it). The rows are read from the page, so a redesigned call
is checked against its row as soon as the row says what it is.
"""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest

from cardodds import canasta, kana, kanalje

ROOT = Path(__file__).resolve().parent.parent
API = {"kana": kana, "kanalje": kanalje, "canasta": canasta}
COLUMNS = ("kana", "kanalje", "canasta")
#: The arguments after the question's, in their order; a call's own options go between.
RUN = ("rules", "samples", "target_halfwidth", "rng", "threads", "backend")
LAST = ("check", "progress")
#: Calls whose signature is being redesigned (a Position object, ARCHITECTURE's advise row):
#: their order is checked, and expected to fail until the new signature lands.
REDESIGNED: set[tuple[str, str]] = set()

CALL = re.compile(r"`(\w+)\(([^)`]*)\)` → `([^`]+)`")


def _table() -> dict[str, dict[str, tuple[list[str], str]]]:
    """game -> call -> (its arguments as the table writes them, its result class)."""
    text = (ROOT / "ARCHITECTURE.md").read_text()
    section = text[text.index("## One API"):]
    section = section[:section.index("\n## ", 1)]
    rows = [ln for ln in section.splitlines() if ln.startswith("| ") and not ln.startswith("| question")]
    found: dict[str, dict] = {g: {} for g in COLUMNS}
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        for game, cell in zip(COLUMNS, cells[1:]):
            for name, args, result in CALL.findall(cell):
                assert name not in found[game], f"{game}.{name} is in the table twice"
                found[game][name] = ([a.strip() for a in args.split(",") if a.strip()], result)
    return found


TABLE = _table()


def _public(game: str) -> set[str]:
    module = API[game]
    return {n for n in module.__all__ if n[0].islower() and callable(getattr(module, n))}


def test_the_table_names_every_public_call_and_no_other():
    for game in COLUMNS:
        assert set(TABLE[game]) == _public(game), game


CALLS = sorted((g, n) for g in COLUMNS for n in _public(g))


@pytest.mark.parametrize("game,name", CALLS)
def test_a_call_takes_what_the_table_says_and_returns_its_result(game, name):
    args, result = TABLE[game][name]
    params = inspect.signature(getattr(API[game], name)).parameters
    names = list(params)
    question = names[:names.index("rules")] if "rules" in names else names
    assert [a for a in args if a != "*"] == question, (game, name, question)
    keyword = args[args.index("*") + 1:] if "*" in args else []
    for n in question:
        kind = params[n].kind
        assert (kind is kind.KEYWORD_ONLY) == (n in keyword), f"{game}.{name}: {n} is {kind.description}"
    annotation = inspect.signature(getattr(API[game], name)).return_annotation
    def bare(text: str) -> str:
        return re.sub(r"\w+\.(?=\w)", "", text)

    assert bare(result) == bare(str(annotation).replace("'", "")), (game, name, annotation)


def _order_problem(fn) -> str | None:
    """What is out of :data:`RUN`/:data:`LAST` order in ``fn``'s arguments after ``rules=``, or None."""
    params = inspect.signature(fn).parameters
    names = list(params)
    if "rules" not in names:
        return None
    rest = names[names.index("rules"):]
    if not all(params[n].kind is params[n].KEYWORD_ONLY for n in rest):
        return f"not keyword-only after rules=: {rest}"
    run = [n for n in rest if n in RUN]
    own = [n for n in rest if n not in RUN + LAST]
    if rest != run + own + [n for n in LAST if n in rest] or run != [n for n in RUN if n in run]:
        return f"out of order: {rest}"
    return None


@pytest.mark.parametrize("game,name", [
    pytest.param(g, n, marks=pytest.mark.xfail(strict=True, reason="being redesigned (the Position API): remove "
                                                "from REDESIGNED when its new signature lands"))
    if (g, n) in REDESIGNED else (g, n) for g, n in CALLS])
def test_after_the_question_the_run_arguments_come_in_one_order(game, name):
    assert _order_problem(getattr(API[game], name)) is None, (game, name, _order_problem(getattr(API[game], name)))


def test_the_order_check_can_fail():
    def late_rng(policies, *, rules=None, samples=None, threads=None, rng=None, progress=False):
        pass

    def check_last(policies, *, rules=None, samples=None, check=False, progress=False, games=0):
        pass

    def positional(policies, rules=None, samples=None):
        pass

    from cardodds.engine import takes_backend

    assert "out of order" in _order_problem(late_rng)
    assert "out of order" in _order_problem(check_last)
    assert "keyword-only" in _order_problem(positional)
    assert _order_problem(takes_backend(lambda policies, *, rules=None, samples=None, threads=None,
                                        progress=False: None)) is None
