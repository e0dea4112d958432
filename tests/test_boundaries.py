"""What may import what (ARCHITECTURE.md), checked on the source with ``ast``: nothing is imported.

The rules:

- a game package (a subpackage of ``cardodds`` with a ``rules.py``) never imports another game;
- ``cardodds/report/`` and the command-line modules (``cli.py`` anywhere, ``*_cli.py``,
  ``_cliutil.py``) import only public modules and public names of a game: no module or name
  starting with ``_`` (a package's ``__init__`` is public). One exception, from the role
  table: a game's own ``cli.py`` reads its parsers' defaults from the game's ``_defaults.py``;
- a kernel module (one defining a function decorated with ``kernel``, ``loop``, ``inline``,
  ``helper`` or ``callback`` from ``cardodds._jit``, or with ``numba.njit``) never imports
  pandas or scipy;
- no import cycle among the modules of ``cardodds``;
- no commit hash quoted in ``cardodds/``, and no docstring past 40 lines (a module's) or 20 (a
  function's or class's): history and measurements live in the commit log and ``benchmarks/``.

Every ``import`` statement counts, at module level or inside a function: an import made
inside a function to dodge a cycle at start-up is still a module that needs the other, and
the two cannot be understood, tested or moved apart (both cycles this test first found,
``engine`` <-> ``_backend`` and ``canasta.play`` <-> ``canasta.players``, were made that way).
Imports under ``if TYPE_CHECKING:`` are never executed and do not count. ``from P import x``
is an edge to module ``P.x`` when there is one, else to ``P`` (a package's ``__init__``);
importing a submodule is not counted as importing its parent packages (Python initialises
them first, but that order cannot make a cycle of the code's own making).

Each rule is also run on a small synthetic tree, so each is shown to fail when broken.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "cardodds"

#: The decorators of compiled code: names in ``cardodds._jit`` and ``numba``.
JIT_DECORATORS = {"kernel", "loop", "inline", "helper", "callback"}
NUMBA_DECORATORS = {"njit"}
#: What a kernel module may not import.
KERNEL_FORBIDDEN = ("pandas", "scipy")


@dataclass(frozen=True)
class Import:
    source: str  # the importing module, dotted
    target: str  # the module imported (a package stands for its __init__)
    name: str | None  # the name taken from ``target`` when it is not a module itself
    line: int

    def where(self, tree: Tree) -> str:
        return f"{tree.files[self.source].relative_to(tree.root)}:{self.line}"


class Tree:
    """The modules of package ``package`` under ``root`` and the imports each makes."""

    def __init__(self, root: Path, package: str = PACKAGE) -> None:
        self.root = root
        self.package = package
        self.files: dict[str, Path] = {}
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            self.files[".".join(parts)] = path
        self.trees = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in self.files.items()}
        self.imports = {name: list(self._imports(name)) for name in self.files}

    def is_package(self, module: str) -> bool:
        return self.files[module].name == "__init__.py"

    def _resolve(self, module: str, level: int, what: str | None) -> str:
        if level == 0:
            return what or ""
        base = module.split(".") if self.is_package(module) else module.split(".")[:-1]
        if level > 1:
            base = base[: len(base) - (level - 1)]
        return ".".join(base + ([what] if what else []))

    def _imports(self, module: str):
        for node in _executed_imports(self.trees[module]):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    yield Import(module, alias.name, None, node.lineno)
            else:
                target = self._resolve(module, node.level, node.module)
                for alias in node.names:
                    sub = f"{target}.{alias.name}"
                    if sub in self.files:
                        yield Import(module, sub, None, node.lineno)
                    else:
                        yield Import(module, target, alias.name, node.lineno)

    # ---- the parts of the package the rules speak of ----------------------------------

    def games(self) -> list[str]:
        """Subpackages holding a game: the ones with a ``rules.py`` (the role table's first file)."""
        return sorted(m.rsplit(".", 1)[0] for m in self.files
                      if m.count(".") == 2 and m.endswith(".rules") and m.rsplit(".", 1)[0] in self.files)

    def game_of(self, module: str) -> str | None:
        return next((g for g in self.games() if module == g or module.startswith(g + ".")), None)

    def front_ends(self) -> list[str]:
        """``report/`` and every command-line module."""
        report = f"{self.package}.report"
        return sorted(m for m in self.files
                      if m == report or m.startswith(report + ".")
                      or m.rsplit(".", 1)[-1] in ("cli", "_cliutil") or m.endswith("_cli"))

    def kernel_modules(self) -> list[str]:
        return sorted(m for m in self.files if _compiles(self.trees[m]))

    def edges(self) -> dict[str, set[str]]:
        return {m: {i.target for i in self.imports[m] if i.target in self.files} for m in self.files}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _executed_imports(node: ast.AST):
    """Every import statement under ``node`` except those in ``if TYPE_CHECKING:`` blocks."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child
        elif isinstance(child, ast.If) and _is_type_checking(child.test):
            for other in child.orelse:
                yield from _executed_imports(ast.Module(body=[other], type_ignores=[]))
        else:
            yield from _executed_imports(child)


def _compiles(tree: ast.Module) -> bool:
    """Whether the module defines a function decorated with a numba decorator (ours or numba's)."""
    names: set[str] = set()  # decorator names bound in the module
    modules: dict[str, set[str]] = {}  # a module alias -> the decorators read from it
    for node in _executed_imports(tree):
        if isinstance(node, ast.ImportFrom):
            source = (node.module or "").rsplit(".", 1)[-1]
            for alias in node.names:
                if source == "_jit" and alias.name in JIT_DECORATORS:
                    names.add(alias.asname or alias.name)
                elif source == "numba" and alias.name in NUMBA_DECORATORS:
                    names.add(alias.asname or alias.name)
                elif alias.name == "_jit":
                    modules[alias.asname or alias.name] = JIT_DECORATORS
        else:
            for alias in node.names:
                if alias.name == "numba":
                    modules[alias.asname or "numba"] = NUMBA_DECORATORS
                elif alias.name.endswith("._jit"):
                    modules[alias.asname or alias.name] = JIT_DECORATORS

    def is_jit(dec: ast.expr) -> bool:
        if isinstance(dec, ast.Call):
            dec = dec.func
        if isinstance(dec, ast.Name):
            return dec.id in names
        if isinstance(dec, ast.Attribute):
            return dec.attr in modules.get(ast.unparse(dec.value), set())
        return False

    return any(isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(map(is_jit, node.decorator_list))
               for node in ast.walk(tree))


def _private(parts: list[str]) -> bool:
    return any(p.startswith("_") and not (p.startswith("__") and p.endswith("__")) for p in parts)


# ---- the rules: each returns its violations, one line each -----------------------------------


def games_importing_games(tree: Tree) -> list[str]:
    found = []
    for module in tree.files:
        game = tree.game_of(module)
        if game is None:
            continue
        for imp in tree.imports[module]:
            other = tree.game_of(imp.target)
            if other is not None and other != game:
                found.append(f"{imp.where(tree)}: {module} imports {imp.target} (game {other})")
    return found


def front_ends_importing_private(tree: Tree) -> list[str]:
    found = []
    for module in tree.front_ends():
        for imp in tree.imports[module]:
            game = tree.game_of(imp.target)
            if game is None:
                continue
            inside = imp.target[len(game):].lstrip(".")
            parts = (inside.split(".") if inside else []) + ([imp.name] if imp.name else [])
            if not _private(parts):
                continue
            own_defaults = module == f"{game}.cli" and inside == "_defaults"
            if not own_defaults:
                shown = imp.target + (f" import {imp.name}" if imp.name else "")
                found.append(f"{imp.where(tree)}: {module} imports a private part of {game}: {shown}")
    return found


def kernels_importing_heavy(tree: Tree) -> list[str]:
    return [f"{imp.where(tree)}: kernel module {module} imports {imp.target}"
            for module in tree.kernel_modules() for imp in tree.imports[module]
            if imp.target.split(".")[0] in KERNEL_FORBIDDEN]


def import_cycles(tree: Tree) -> list[str]:
    """Each strongly connected group of modules (more than one, or one importing itself): its
    modules, and a shortest cycle through the first of them."""
    edges = tree.edges()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:  # Tarjan; the package is small enough for recursion
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1 or v in edges[v]:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return [f"{', '.join(group)}: {' -> '.join(_a_cycle(group, edges))}" for group in sorted(groups)]


def _a_cycle(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle through the group's first module (breadth first), for the message."""
    start, members = group[0], set(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(edges[v] & members):
                if w == start:
                    return paths[v] + [start]
                if w not in paths:
                    paths[w] = paths[v] + [w]
                    nxt.append(w)
        frontier = nxt
    return group  # pragma: no cover - a strongly connected group always has a cycle


# ---- the package as it is ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def tree() -> Tree:
    return Tree(ROOT)


def test_the_tree_is_read(tree):
    assert tree.games() == ["cardodds.canasta", "cardodds.kana", "cardodds.kanalje"]
    assert {"cardodds.cli", "cardodds._cliutil", "cardodds.sweep_cli", "cardodds.report.cli", "cardodds.kana.cli",
            "cardodds.report"} <= set(tree.front_ends())
    assert {"cardodds._random", "cardodds.kana._kernels"} <= set(tree.kernel_modules())
    assert "cardodds.engine" not in tree.kernel_modules()
    assert "cardodds.stats" in tree.edges()["cardodds._cliutil"]


def test_games_never_import_each_other(tree):
    assert games_importing_games(tree) == []


def test_report_and_clis_use_only_the_public_api_of_a_game(tree):
    assert front_ends_importing_private(tree) == []


def test_kernel_modules_import_no_pandas_or_scipy(tree):
    assert kernels_importing_heavy(tree) == []


def test_no_import_cycles(tree):
    assert import_cycles(tree) == []


# ---- each rule can fail: a small synthetic package --------------------------------------------


def _write(root: Path, files: dict[str, str]) -> Tree:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return Tree(root)


GOOD = {
    "cardodds/__init__.py": "",
    "cardodds/engine.py": "import numpy as np\nfrom .rng import child\n",
    "cardodds/rng.py": "def child():\n    pass\n",
    "cardodds/_jit.py": "def kernel(fn):\n    return fn\n",
    "cardodds/cli.py": "from .alpha import odds\nfrom . import beta\n",
    "cardodds/report/__init__.py": "",
    "cardodds/report/alpha.py": "from ..alpha import odds\nfrom ..alpha.analysis import Result\n",
    "cardodds/alpha/__init__.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..beta import rules\n",
    "cardodds/alpha/rules.py": "",
    "cardodds/alpha/_defaults.py": "N = 1\n",
    "cardodds/alpha/cli.py": "from ._defaults import N\nfrom .. import _cliutil\n",
    "cardodds/alpha/analysis.py": "from .. import engine\nfrom . import _kernels\n\ndef f():\n    import pandas\n",
    "cardodds/alpha/_kernels.py": "from .._jit import kernel as K\n\n@K\ndef k(state):\n    return 0\n",
    "cardodds/_cliutil.py": "",
    "cardodds/beta/__init__.py": "",
    "cardodds/beta/rules.py": "",
    "cardodds/beta/view.py": "import numba as nb\n\n@nb.njit(cache=True)\ndef f():\n    pass\n",
}


#: A file longer than this holds more than one role: split it by role (ARCHITECTURE.md, the role table).
MAX_LINES = 800


def long_files(root: Path) -> list[str]:
    """``path: N lines`` for every Python file under ``root`` longer than :data:`MAX_LINES`."""
    found = []
    for path in sorted(root.rglob("*.py")):
        n = len(path.read_text(encoding="utf-8").splitlines())
        if n > MAX_LINES:
            found.append(f"{path.relative_to(root.parent)}: {n} lines")
    return found


def test_no_file_holds_more_than_one_role():
    assert long_files(ROOT / PACKAGE) == []


def test_a_long_file_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "big.py").write_text("x = 1\n" * (MAX_LINES + 1))
    (tmp_path / "pkg" / "small.py").write_text("x = 1\n" * MAX_LINES)
    assert long_files(tmp_path / "pkg") == [f"pkg/big.py: {MAX_LINES + 1} lines"]


def test_a_clean_tree_passes(tmp_path):
    t = _write(tmp_path, GOOD)
    assert t.games() == ["cardodds.alpha", "cardodds.beta"]
    assert t.kernel_modules() == ["cardodds.alpha._kernels", "cardodds.beta.view"]
    # relative imports resolved: a module of a package, a package's __init__, a name in a module
    assert t.edges()["cardodds.alpha.analysis"] == {"cardodds.engine", "cardodds.alpha._kernels"}
    assert t.edges()["cardodds.report.alpha"] == {"cardodds.alpha", "cardodds.alpha.analysis"}
    assert t.edges()["cardodds.alpha"] == set()  # TYPE_CHECKING imports are not executed
    for rule in (games_importing_games, front_ends_importing_private, kernels_importing_heavy, import_cycles):
        assert rule(t) == [], rule.__name__


def test_a_game_importing_another_game_fails(tmp_path):
    t = _write(tmp_path, {**GOOD, "cardodds/beta/rules.py": "def f():\n    from ..alpha.rules import X\n"})
    assert games_importing_games(t) == ["cardodds/beta/rules.py:2: cardodds.beta.rules imports cardodds.alpha.rules "
                                        "(game cardodds.alpha)"]


@pytest.mark.parametrize("where, text", [
    ("cardodds/report/alpha.py", "from ..alpha import _kernels\n"),
    ("cardodds/report/alpha.py", "from ..alpha.analysis import _helper\n"),
    ("cardodds/cli.py", "import cardodds.alpha._kernels\n"),
    ("cardodds/_cliutil.py", "def f():\n    from .alpha._kernels import k\n"),
    ("cardodds/alpha/cli.py", "from ._kernels import k\n"),
    ("cardodds/beta/cli.py", "from ..alpha._defaults import N\n"),  # only a game's own _defaults
])
def test_a_front_end_importing_a_private_part_of_a_game_fails(tmp_path, where, text):
    t = _write(tmp_path, {**GOOD, where: text})
    found = front_ends_importing_private(t)
    assert len(found) == 1 and "private part of cardodds.alpha" in found[0], found


@pytest.mark.parametrize("text", ["import pandas as pd\n", "def g():\n    from scipy.stats import norm\n"])
def test_a_kernel_module_importing_pandas_or_scipy_fails(tmp_path, text):
    kernels = GOOD["cardodds/alpha/_kernels.py"]
    t = _write(tmp_path, {**GOOD, "cardodds/alpha/_kernels.py": text + kernels})
    assert len(kernels_importing_heavy(t)) == 1
    t = _write(tmp_path, {**GOOD, "cardodds/alpha/_kernels.py": text})  # no compiled code: not a kernel module
    assert kernels_importing_heavy(t) == []


def test_an_import_cycle_fails_even_through_a_function(tmp_path):
    t = _write(tmp_path, {**GOOD, "cardodds/rng.py": "def child():\n    from .engine import run\n"})
    assert import_cycles(t) == ["cardodds.engine, cardodds.rng: cardodds.engine -> cardodds.rng -> cardodds.engine"]
    t = _write(tmp_path, {**GOOD, "cardodds/a.py": "from . import b\n", "cardodds/b.py": "from .c import x\n",
                          "cardodds/c.py": "import cardodds.a\n"})
    assert import_cycles(t) == ["cardodds.a, cardodds.b, cardodds.c: "
                                "cardodds.a -> cardodds.b -> cardodds.c -> cardodds.a"]


#: A commit hash as quoted in prose: a 7-12 character lowercase hex word with a digit next to a letter
#: (a hex constant is written ``0x...``, so the ``x`` before it keeps it out).
_HASH = re.compile(r"(?<![0-9A-Za-z_])[0-9a-f]{7,12}(?![0-9A-Za-z_])")
_DIGIT_BY_LETTER = re.compile(r"[0-9][a-f]|[a-f][0-9]")


def quoted_hashes(root: Path) -> list[str]:
    """``path:line: word`` for every word under ``root`` that looks like a commit hash.

    History belongs in the commit log and ``benchmarks/RESULTS_*.md``, not in the code."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            found += [f"{path.relative_to(root.parent)}:{i}: {w}" for w in _HASH.findall(line)
                      if _DIGIT_BY_LETTER.search(w)]
    return found


def test_no_commit_hash_is_quoted_in_the_code():
    assert quoted_hashes(ROOT / PACKAGE) == []


def test_a_quoted_hash_is_found_and_hex_constants_are_not(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(
        "K = 0x9e3779b97f4a7c15  # 0x9E3779B9\nN = 1000000\nname = 'deadbeef'\nx = f_2b3c4d5e\n"
        "# measured before 42b3ee2\n")
    assert quoted_hashes(tmp_path / "pkg") == ["pkg/a.py:5: 42b3ee2"]



#: Limits on docstrings, in lines as written: past them the explanation hides the code.
MAX_MODULE_DOC = 40
MAX_DEF_DOC = 20


def long_docstrings(root: Path) -> list[str]:
    """``path:line name: N lines`` for every docstring under ``root`` past its limit."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            first = node.body[0] if node.body else None
            if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                    and isinstance(first.value.value, str)):
                continue
            n = first.end_lineno - first.lineno + 1
            limit, name = (MAX_MODULE_DOC, "module") if isinstance(node, ast.Module) else (MAX_DEF_DOC, node.name)
            if n > limit:
                found.append(f"{path.relative_to(root.parent)}:{first.lineno} {name}: {n} lines")
    return found


def test_docstrings_stay_within_their_limits():
    assert long_docstrings(ROOT / PACKAGE) == []


def _doc(n: int, indent: str = "") -> str:
    """A docstring of ``n`` lines."""
    return '"""' + f"\n{indent}x" * (n - 2) + f'\n{indent}"""'


def test_a_long_docstring_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "ok.py").write_text(f"{_doc(MAX_MODULE_DOC)}\n\n\ndef f():\n    {_doc(MAX_DEF_DOC, '    ')}\n")
    (tmp_path / "pkg" / "long.py").write_text(
        f"{_doc(MAX_MODULE_DOC + 1)}\nclass C:\n    {_doc(MAX_DEF_DOC + 1, '    ')}\n")
    assert long_docstrings(tmp_path / "pkg") == [
        f"pkg/long.py:1 module: {MAX_MODULE_DOC + 1} lines",
        f"pkg/long.py:{MAX_MODULE_DOC + 3} C: {MAX_DEF_DOC + 1} lines"]


MAX_PARAMETERS = 12


def wide_functions(root: Path) -> list[str]:
    """Functions with more than MAX_PARAMETERS positional parameters: arguments that travel
    together go as a named bundle (ARCHITECTURE.md, Bundles). A public function's keyword-only
    options (the run arguments every question shares) are not counted."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                n = len(node.args.posonlyargs) + len(node.args.args) + (node.args.vararg is not None)
                if n > MAX_PARAMETERS:
                    found.append(f"{path.relative_to(root.parent)}:{node.lineno} {node.name}: {n} parameters")
    return found


def test_no_function_takes_more_than_twelve_positional_parameters():
    assert wide_functions(ROOT / PACKAGE) == []


def test_a_wide_function_is_found(tmp_path):
    (tmp_path / "pkg").mkdir()
    args = ", ".join(f"a{i}" for i in range(MAX_PARAMETERS))
    (tmp_path / "pkg" / "m.py").write_text(
        f"def ok({args}, *, k=1, j=2):\n    pass\n\n\ndef wide({args}, b):\n    pass\n")
    assert wide_functions(tmp_path / "pkg") == [f"pkg/m.py:5 wide: {MAX_PARAMETERS + 1} parameters"]
