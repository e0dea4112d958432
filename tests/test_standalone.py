"""The repository stands alone: no tracked file refers to a file outside it, and every citation of
the rules names a section that exists in the page it cites.

The rules are the pages of ``docs/rules/`` (one a game, numbered sections). Two citation forms:

- in code, errors, help, reports and docstrings: ``docs/rules/kanalje.md §2.4`` (a page alone,
  ``docs/rules/kanalje.md``, cites the whole page; a further ``§4`` shortly after cites the same page);
- in the Markdown of ``docs/``, the README and the notebooks: a link
  ``[Kanalje rules 2.4](rules/kanalje.md#24-playing-to-a-trick)``, its path relative to the page,
  its anchor the heading's (``[Kanalje rules](rules/kanalje.md)`` cites the whole page).

Every tracked text file is read, ``reports/`` included (it is generated: rebuild it with
``cardodds report`` when a citation in the code that writes it changes).
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "docs" / "rules"
#: The game each page is, as the link form names it.
GAMES = {"Känä": "kana", "Kanalje": "kanalje", "Canasta": "canasta"}

#: What no tracked file may name (spelt in pieces so that this file does not name them itself).
OUTSIDE = [
    (re.compile(re.escape("RULES" + ".md")), "the rules file outside the repository: cite docs/rules/<game>.md"),
    (re.compile(re.escape("DESIGN" + ".md")), "the design file outside the repository: cite docs/developers.md"),
    (re.compile(re.escape("../" + "shared")), "a folder outside the repository"),
    (re.compile(re.escape("/" + "work/")), "a path of the development machine"),
    (re.compile("shared " + "folder", re.I), "a folder outside the repository"),
]

CODE = re.compile(r"docs/rules/(\w+)\.md(?: §(\d+(?:\.\d+)*))?")
SECTION_SIGN = re.compile(r"§(\d+(?:\.\d+)*)")
LINK = re.compile(r"\[(Känä|Kanalje|Canasta) rules(?: (\d+(?:\.\d+)*))?\]\(([^)\s#]*)(?:#([^)\s]*))?\)")
UNLINKED = re.compile(r"(?<!\[)\b(Känä|Kanalje|Canasta) rules \d")
#: How far back (characters) a bare ``§N`` looks for the page it belongs to.
REACH = 160


def _slug(heading: str) -> str:
    """The anchor GitHub gives a heading (as ``tests/test_readme.py`` computes it)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def sections(page: Path) -> dict[str, str]:
    """``{number: anchor}`` of the numbered headings of a rules page: ``## 2. A round`` and
    ``### 2.3 The känä round`` give ``"2"`` and ``"2.3"``."""
    found = {}
    for heading in re.findall(r"^#{2,6} (.*)$", page.read_text(encoding="utf-8"), re.M):
        m = re.match(r"(\d+(?:\.\d+)*)\.? ", heading)
        if m:
            found[m.group(1)] = _slug(heading)
    return found


def tracked() -> list[str]:
    """Every file of the repository: git's list in a checkout, else every file in the tree."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
        return [f for f in out.decode().split("\0") if f]
    except (OSError, subprocess.CalledProcessError):
        skip = {".git", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"}
        return [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                if p.is_file() and not skip & set(p.relative_to(ROOT).parts)
                and not any(part.endswith(".egg-info") for part in p.parts)]


def text_of(name: str) -> str | None:
    """The file's text, or None for a binary file (one that is not UTF-8, or holds a NUL)."""
    path = ROOT / name
    if not path.is_file():  # deleted in the working tree, not yet in git's index
        return None
    data = path.read_bytes()
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def problems(name: str, text: str, rules_dir: Path = RULES_DIR, citations: bool = True) -> list[str]:
    """What is wrong in file ``name`` (relative to the root) with text ``text``: references to files
    outside the repository and (``citations``) citations of the rules that lead nowhere."""
    found = []

    def at(pos: int) -> str:
        return f"{name}:{text.count(chr(10), 0, pos) + 1}"

    pages = {p.stem: sections(p) for p in rules_dir.glob("*.md")}  # README, the index: no sections
    for pattern, why in OUTSIDE:
        for m in pattern.finditer(text):
            found.append(f"{at(m.start())}: {m.group(0)!r}: {why}")
    if not citations:
        return found
    cited = []  # (start, end, page) of every code-form citation
    for m in CODE.finditer(text):
        page, number = m.group(1), m.group(2)
        cited.append((m.start(), m.end(), page))
        if page not in pages:
            found.append(f"{at(m.start())}: {m.group(0)!r}: no such rules page")
        elif number is not None and number not in pages[page]:
            found.append(f"{at(m.start())}: {m.group(0)!r}: docs/rules/{page}.md has no section {number}")
    for m in SECTION_SIGN.finditer(text):
        if any(start <= m.start() < end for start, end, _ in cited):
            continue
        before = [page for start, end, page in cited if end <= m.start() and m.start() - end <= REACH]
        if not before:
            found.append(f"{at(m.start())}: {m.group(0)!r}: a section without its page (docs/rules/<game>.md §N)")
        elif before[-1] in pages and m.group(1) not in pages[before[-1]]:
            found.append(f"{at(m.start())}: {m.group(0)!r}: docs/rules/{before[-1]}.md has no section {m.group(1)}")
    for m in LINK.finditer(text):
        game, number, target, anchor = m.groups()
        dest = ((ROOT / name).parent / target).resolve()
        if dest.parent != rules_dir.resolve() or dest.stem != GAMES[game] or dest.suffix != ".md":
            found.append(f"{at(m.start())}: {m.group(0)!r}: does not lead to docs/rules/{GAMES[game]}.md")
            continue
        heads = pages.get(dest.stem, {})
        if number is None:
            if anchor:
                found.append(f"{at(m.start())}: {m.group(0)!r}: a whole-page citation with an anchor")
        elif number not in heads:
            found.append(f"{at(m.start())}: {m.group(0)!r}: {dest.name} has no section {number}")
        elif anchor != heads[number]:
            found.append(f"{at(m.start())}: {m.group(0)!r}: the anchor of section {number} is #{heads[number]}")
    for m in UNLINKED.finditer(text):
        found.append(f"{at(m.start())}: {m.group(0)!r}...: cite as a link "
                     f"[{m.group(1)} rules N](.../rules/<game>.md#...) or as docs/rules/<game>.md §N")
    return found


def test_every_game_has_its_rules_page_with_numbered_sections():
    for page in GAMES.values():
        heads = sections(RULES_DIR / f"{page}.md")
        assert {"1", "1.1", "2", "2.1"} <= set(heads), f"docs/rules/{page}.md: numbered sections missing"
    index = (RULES_DIR / "README.md").read_text(encoding="utf-8")
    for page in GAMES.values():
        assert f"]({page}.md)" in index, f"docs/rules/README.md does not list {page}.md"


def test_no_tracked_file_refers_outside_the_repository_and_every_rules_citation_exists():
    names = tracked()
    assert "docs/rules/kanalje.md" in names and "cardodds/kanalje/cli.py" in names
    me = Path(__file__).resolve().relative_to(ROOT).as_posix()  # its examples of bad citations are meant
    found = [p for name in names if (text := text_of(name)) is not None
             for p in problems(name, text, citations=name != me)]
    assert not found, f"{len(found)} problem(s):\n" + "\n".join(found[:60])


@pytest.mark.parametrize("name, text, expected", [
    # the old citations and paths
    ("cardodds/kanalje/cli.py", "2 players (RULES" + ".md 2.2)", "outside the repository"),
    ("ARCHITECTURE.md", "the shared `DESIGN" + ".md`", "outside the repository"),
    ("README.md", "in the project's shared " + "folder", "outside the repository"),
    ("docs/x.md", "see ../" + "shared/seeds", "outside the repository"),
    ("tests/x.py", "open('/" + "work/shared/x')", "development machine"),
    # code form: a page or a section that does not exist, a bare section
    ("cardodds/x.py", "(docs/rules/kanalje.md §9.9)", "has no section 9.9"),
    ("cardodds/x.py", "(docs/rules/bridge.md §1)", "no such rules page"),
    ("cardodds/x.py", "(docs/rules/kana.md §2.2), and then §7.1", "has no section 7.1"),
    ("cardodds/x.py", "the two-player rules (§4.3)", "a section without its page"),
    # link form: wrong anchor, wrong page, wrong section, a path that leads elsewhere, no link at all
    ("docs/kanalje.md", "[Kanalje rules 2.2](rules/kanalje.md#two-players)", "the anchor of section 2.2"),
    ("docs/kanalje.md", "[Kanalje rules 2.2](rules/kana.md#22-who-starts)", "does not lead to"),
    ("docs/kanalje.md", "[Kanalje rules 8](rules/kanalje.md#8-x)", "has no section 8"),
    ("analysis/kanalje.ipynb", "[Kanalje rules 4](docs/rules/kanalje.md#4-two-players)", "does not lead to"),
    ("docs/kanalje.md", "as Kanalje rules 2.2 says", "cite as a link"),
])
def test_each_kind_of_bad_reference_is_found(name, text, expected):
    found = problems(name, text)
    assert any(expected in p for p in found), found


@pytest.mark.parametrize("name, text", [
    ("cardodds/x.py", "(docs/rules/kanalje.md §4.3); check the tricks"),
    ("cardodds/x.py", "(docs/rules/kanalje.md §2 and §3 for three players, §4 for two)"),
    ("cardodds/x.py", "Rules: docs/rules/canasta.md with the defaults"),
    ("docs/kanalje.md", "[Kanalje rules 4.3](rules/kanalje.md#43-phase-1-playing-a-card)"),
    ("README.md", "[Känä rules 2.2](docs/rules/kana.md#22-who-starts)"),
    ("analysis/kanalje.ipynb", "[Kanalje rules 4](../docs/rules/kanalje.md#4-two-players)"),
    ("docs/rules/README.md", "[Kanalje rules 2.4](kanalje.md#24-playing-to-a-trick)"),
    ("docs/canasta.md", "([Canasta rules](rules/canasta.md))"),
])
def test_each_form_of_good_citation_passes(name, text):
    assert problems(name, text) == []
