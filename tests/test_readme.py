"""The README and the pages of ``docs/`` and ``docs/rules/`` are tested: every ``$ cardodds ...`` console example
prints what its page shows, every Python snippet runs, and every link between the pages leads
somewhere.

A console example is a ``$ cardodds`` line in a ```console block followed by the lines it
prints. Only reproducible examples may show output (a fixed ``--seed``, or an exact answer).
``python tests/test_readme.py --update`` rewrites the shown output of every page from the real one.
Each example's test id names its page and line, e.g. ``docs/kana.md:12``, so
``pytest tests/test_readme.py -k docs/kana.md`` runs one page.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
PAGES = [README, *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "rules").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def blocks(kind: str, page: Path = README) -> list[tuple[int, str]]:
    """``(line of the block's first line, body)`` for every fenced block of ``kind`` in ``page``."""
    text = page.read_text(encoding="utf-8")
    return [(text.count("\n", 0, m.start(2)) + 1, m.group(2)) for m in FENCE.finditer(text)
            if m.group(1) == kind]


def console_examples(page: Path = README) -> list[tuple[int, str, list[str]]]:
    """``(line, command, shown output lines)`` for every ``$ cardodds`` line of the console blocks."""
    found = []
    for first, body in blocks("console", page):
        line, command, shown = 0, None, []
        for k, text in enumerate(body.splitlines()):
            if text.startswith("$ "):
                if command is not None:
                    found.append((line, command, shown))
                line, command, shown = first + k, text[2:], []
            elif command is not None:
                shown.append(text)
        if command is not None:
            found.append((line, command, shown))
    return found


def run(command: str) -> tuple[int, str, str]:
    from cardodds.cli import main

    argv = shlex.split(command)
    assert argv[0] == "cardodds"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv[1:])
    return code, out.getvalue(), err.getvalue()


def _reproducible(command: str) -> bool:
    shipped = " table" in command and "--build" not in command and " kana " not in command  # the shipped tables
    equity = " equity " in command and "--samples" not in command  # the shipped equity tables
    return "--seed" in command or "--exact" in command or "--shown" in command or shipped or equity


CONSOLE = [(page, line, command, shown) for page in PAGES for line, command, shown in console_examples(page)]
PYTHON = [(page, line, code) for page in PAGES for line, code in blocks("python", page)]


def test_readme_keeps_its_set_up_commands():
    (_, first), (_, second) = blocks("bash")[:2]
    assert "pip install -e . && cardodds report" in first
    assert "pip install -e '.[test]' && python -m pytest -q" in second


def test_readme_shows_one_example_per_game_and_lists_every_page():
    commands = [command for _, command, _ in console_examples(README)]
    for game in ("kana", "kanalje", "canasta"):
        assert any(c.split()[1] == game for c in commands), f"README has no {game} example"
    text = README.read_text(encoding="utf-8")
    for page in PAGES[1:]:
        assert f"]({name(page)})" in text, f"README's 'where to read on' does not list {name(page)}"


def test_every_console_example_is_reproducible_and_shows_output():
    assert len(CONSOLE) >= 8
    for page, line, command, shown in CONSOLE:
        assert _reproducible(command), f"{name(page)}:{line}: example without a fixed seed: {command}"
        assert shown, f"{name(page)}:{line}: example shows no output: {command}"


@pytest.mark.parametrize("page,line,command,shown", CONSOLE,
                         ids=[f"{name(p)}:{n}" for p, n, _, _ in CONSOLE])
def test_console_example_prints_what_the_page_shows(page, line, command, shown):
    code, out, err = run(command)
    assert code == 0, err
    assert out.rstrip("\n").splitlines() == shown


@pytest.mark.parametrize("page,line,code", PYTHON, ids=[f"{name(p)}:{n}" for p, n, _ in PYTHON])
def test_python_snippet_runs(page, line, code, monkeypatch, tmp_path):
    import matplotlib

    monkeypatch.chdir(tmp_path)  # snippets that write files (a sweep's SQLite file) write them there

    matplotlib.use("Agg")
    exec(compile("\n" * (line - 1) + code, str(page), "exec"), {"__name__": "readme"})
    import matplotlib.pyplot as plt

    plt.close("all")


LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchors(page: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``page``."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-")
            for h in re.findall(r"^#+ (.*)$", text, re.M)}


@pytest.mark.parametrize("page", PAGES, ids=[name(p) for p in PAGES])
def test_links_between_pages_lead_somewhere(page):
    for target in LINK.findall(FENCE.sub("", page.read_text(encoding="utf-8"))):
        if re.match(r"\w+://", target):
            continue
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{name(page)}: link to {target}: no such file"
        if anchor and dest.suffix == ".md":
            assert anchor in _anchors(dest), f"{name(page)}: link to {target}: no such heading"


def update() -> None:
    """Rewrite the output shown under every console example of every page with what the command prints."""

    def fill(m: re.Match) -> str:
        if m.group(1) != "console":
            return m.group(0)
        lines = []
        for line in m.group(2).splitlines():
            if line.startswith("$ "):
                code, out, err = run(line[2:])
                if code != 0:
                    raise SystemExit(f"{line}: {err}")
                lines += [line] + out.rstrip("\n").splitlines()
        return "```console\n" + "\n".join(lines) + "\n```"

    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        new = FENCE.sub(fill, text)
        if new != text:
            page.write_text(new, encoding="utf-8")


if __name__ == "__main__" and "--update" in sys.argv:
    update()
