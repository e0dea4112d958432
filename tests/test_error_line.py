"""An error line too long for :data:`cardodds._cliutil.MAX_ERROR` loses its middle, never its end:
the bad card a hand names and the hint that follows it survive whatever the hand's length."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cardodds._cliutil import MAX_ERROR, PREFIX, error_line

TWELVE = "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h".split()
HINT = "a Joker is 'Jk' or '*'"


def refusal(*argv: str) -> str:
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", *argv], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "" and "Traceback" not in p.stderr, p.stderr
    assert p.stderr.endswith("\n") and p.stderr.count("\n") == 1, p.stderr
    return p.stderr.strip()


@pytest.mark.parametrize("hand", [
    TWELVE[:-1] + ["3x"],                    # the last of twelve misspelt
    TWELVE[:5] + ["6x"] + TWELVE[6:],        # one in the middle
    TWELVE * 4 + ["3x"] + TWELVE * 4,        # a long hand, its bad card inside
    [",".join(TWELVE[:-1] + ["3x"])],        # written with commas: one long word
])
def test_a_misspelt_card_in_a_long_hand_keeps_its_name_and_hint(hand):
    bad = next(c for c in " ".join(hand).replace(",", " ").split() if c.endswith("x"))
    line = refusal("canasta", "hand", "--hand", " ".join(hand))
    assert len(line) <= MAX_ERROR and line.startswith(PREFIX + "--hand '"), line
    assert f"cannot read card '{bad}'" in line and line.endswith(HINT), line


def test_a_long_line_keeps_its_start_and_end_and_cuts_the_middle():
    words = " ".join(f"w{i}" for i in range(200))
    line = error_line(f"--flag 'a typed value {'x ' * 100}': {words}; do this")
    assert len(line) <= MAX_ERROR and line.startswith(PREFIX + "--flag 'a typed") and line.endswith("; do this")
    short = "--seat 5: give a seat 0 to 3"
    assert error_line(short) == PREFIX + short  # a line that fits is untouched
    # a quote inside a word (record's) is no quoted value; the fix quoted at the end is kept whole
    line = error_line("the record's line: " + "y " * 120 + "write it again with 'cardodds kana trace --json'")
    assert len(line) <= MAX_ERROR and line.endswith("'cardodds kana trace --json'"), line
