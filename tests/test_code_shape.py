"""The shape of the code (ARCHITECTURE.md, Bundles): no function in ``cardodds/`` takes more than
:data:`MOST` parameters, keyword-only ones counted (``self`` and ``cls`` not), read with ``ast``.

Arguments that travel together are one named bundle. A class named ``Position`` (a game's
position as a player knows it) may have constructors as long as the position is. The functions
of :data:`OVER` are the ones still over the limit, each with what it waits for: the test fails
when another function goes over, and when one of them comes under (then strike it here).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MOST = 12
#: Functions still over :data:`MOST` ("path:function"), and why.
OVER: dict[str, str] = {}


def parameters(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, method: bool) -> int:
    a = node.args
    n = len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)
    first = (a.posonlyargs + a.args)[:1]
    return n - (1 if method and first and first[0].arg in ("self", "cls") else 0)


def too_many(source: str) -> dict[str, int]:
    """Every function of ``source`` (a module's text) over :data:`MOST` parameters, but those of a
    class named ``Position``, by name (``Class.name`` for a method)."""
    found: dict[str, int] = {}

    def walk(node: ast.AST, cls: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                walk(child, child.name)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = parameters(child, cls is not None)
                if n > MOST and cls != "Position":
                    found[f"{cls}.{child.name}" if cls else child.name] = n
                walk(child, None)
            else:
                walk(child, cls)

    walk(ast.parse(source), None)
    return found


def test_no_function_takes_more_than_twelve_parameters():
    found = {}
    for path in sorted((ROOT / "cardodds").rglob("*.py")):
        for name, n in too_many(path.read_text(encoding="utf-8")).items():
            found[f"{path.relative_to(ROOT).as_posix()}:{name}"] = n
    new = {k: v for k, v in found.items() if k not in OVER}
    assert new == {}, f"over {MOST} parameters: {new}; bundle the arguments that travel together"
    fixed = set(OVER) - set(found)
    assert not fixed, f"now within {MOST} parameters, strike from OVER: {sorted(fixed)}"


def test_the_count_sees_keyword_only_and_skips_self_and_positions():
    src = """
def f(a, b, c, d, e, f, g, *, h, i, j, k, l, m): pass
class C:
    def m(self, a, b, c, d, e, f, g, h, i, j, k, l): pass
    def n(self, a, b, c, d, e, f, g, h, i, j, k, l, *rest): pass
class Position:
    def __init__(self, a, b, c, d, e, f, g, h, i, j, k, l, m, n): pass
def outer():
    def inner(a, b, c, d, e, f, g, h, i, j, k, l, m): pass
"""
    assert too_many(src) == {"f": 13, "C.n": 13, "inner": 13}
