"""The README is tested: every ``$ cardodds ...`` console example prints what the README shows,
and every Python snippet runs.

A console example is a ``$ cardodds`` line in a ```console block followed by the lines it
prints. Only reproducible examples may show output (a fixed ``--seed``, or an exact answer).
``python tests/test_readme.py --update`` rewrites the shown output from the real one.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.S | re.M)


def blocks(kind: str) -> list[str]:
    return [m.group(2) for m in FENCE.finditer(README.read_text(encoding="utf-8")) if m.group(1) == kind]


def console_examples() -> list[tuple[str, list[str]]]:
    """``(command, shown output lines)`` for every ``$ cardodds`` line of the console blocks."""
    found = []
    for body in blocks("console"):
        command, shown = None, []
        for line in body.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, shown))
                command, shown = line[2:], []
            elif command is not None:
                shown.append(line)
        if command is not None:
            found.append((command, shown))
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
    return "--seed" in command or "--exact" in command or "--shown" in command


def test_readme_keeps_its_set_up_commands():
    first, second = blocks("bash")[:2]
    assert "pip install -e . && cardodds report" in first
    assert "pip install -e '.[test]' && python -m pytest -q" in second


def test_every_console_example_is_reproducible_and_shows_output():
    examples = console_examples()
    assert len(examples) >= 8
    for command, shown in examples:
        assert _reproducible(command), f"README example without a fixed seed: {command}"
        assert shown, f"README example shows no output: {command}"


@pytest.mark.parametrize("command,shown", console_examples(), ids=[c[9:60] for c, _ in console_examples()])
def test_console_example_prints_what_the_readme_shows(command, shown):
    code, out, err = run(command)
    assert code == 0, err
    assert out.rstrip("\n").splitlines() == shown


@pytest.mark.parametrize("index", range(len(blocks("python"))))
def test_python_snippet_runs(index, monkeypatch, tmp_path):
    import matplotlib

    monkeypatch.chdir(tmp_path)  # snippets that write files (a sweep's SQLite file) write them there

    matplotlib.use("Agg")
    code = blocks("python")[index]
    exec(compile(code, f"README.md python block {index}", "exec"), {"__name__": "readme"})
    import matplotlib.pyplot as plt

    plt.close("all")


def update() -> None:
    """Rewrite the output shown under every console example with what the command prints."""
    text = README.read_text(encoding="utf-8")

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

    README.write_text(FENCE.sub(fill, text), encoding="utf-8")


if __name__ == "__main__" and "--update" in sys.argv:
    update()
