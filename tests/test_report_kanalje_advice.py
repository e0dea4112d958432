"""The Kanalje section's jack risk under pimc and its Advice part: each hand-built position gets
the verdict an experienced Kanalje player gives, and the section builds at a tiny scale."""

from __future__ import annotations

import pytest

from cardodds.kanalje import advise
from cardodds.report import kanalje as section
from cardodds.report.kanalje_advice import POSITIONS, Example


def _verdict(p: Example, samples: int) -> str | None:
    return advise(p.position, policies=p.policies, samples=samples, rng=5).best


def _position(title: str) -> Example:
    return next(p for p in POSITIONS if p.title == title)


def test_duck_under_the_jack():
    # Taking the Q♥ J♥ trick with the A♥ earns one trick and pays four: duck with the 2♥.
    p = _position("Duck under a trick that holds a jack")
    assert p.expected == "2h" and _verdict(p, 1_000) == "2h"


def test_throw_the_singleton_jack_when_void():
    # A singleton J♥ falls on the first heart led; thrown now on the A♣ it costs seat 0 instead.
    p = _position("Throw the dangerous jack when void")
    assert p.expected == "Jh" and _verdict(p, 1_000) == "Jh"


@pytest.mark.parametrize("policies", ["heuristic", "pimc"])
def test_take_the_trick_with_the_top_trump(policies):
    # With the A♣ gone and the Q♣ turned, the K♣ takes the 8♣ trick surely; the 7♣ never can.
    p = next(q for q in POSITIONS if q.played.endswith("0: 8c") and q.policies == policies)
    assert p.expected == "Kc" and _verdict(p, 1_000 if policies == "heuristic" else 200) == "Kc"


def test_every_position_is_tested_and_the_section_prints_each_verdict(tmp_path):
    # Four positions (three hand-built, one of them also under pimc); the section builds at 0.01.
    assert len(POSITIONS) == 4
    text = section.write(tmp_path, seed=3, scale=0.01, progress=False).read_text()
    assert "## Advice: hand-built positions" in text and "### Under the strongest player: all `pimc`" in text
    verdicts = [line for line in text.splitlines() if line.startswith("Verdict:")]
    assert len(verdicts) == len(POSITIONS)
    for line, p in zip(verdicts, POSITIONS):  # the card to play, then what the others lose
        assert line == f"Verdict: play {p.expected}." or line.startswith(f"Verdict: play {p.expected}; "), line
