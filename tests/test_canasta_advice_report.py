"""The report's Canasta advice: each hand-built position's verdict is the one an experienced
player gives (modest samples, fixed seeds), and the section builds."""

from __future__ import annotations

import pytest

from cardodds.canasta import Position, advise
from cardodds.report import SECTIONS
from cardodds.report import canasta_advice as rep

CASES = {c.key: c for c in rep.CASES}


def _advice(key: str, seed: int = 5, samples: int = 400):
    return advise(Position(**CASES[key].position), samples=samples, rng=seed)


def test_rich_pile_is_taken():
    """Two Jokers and three Aces under an Ace, with an A pair in hand, make a canasta's worth: take it."""
    a = _advice("rich_pile")
    assert a.best == "take the pile: meld A A A"
    assert a.versus_best[a.options.index("leave the pile")].lo > 500


def test_close_discards_are_even():
    """A loose 5 and a loose 6 nobody melds are worth the same to throw: no option is better."""
    a = _advice("close_discard")
    assert a.options == ("discard 5", "discard 6")
    assert a.best is None
    assert all(v.contains_zero() for v in a.versus_best)


def test_stay_in_when_behind_without_a_canasta():
    """Behind with no canasta, one card short of one, against 12-card hands: going out scores our melds negative."""
    a = _advice("out_behind")
    assert a.best == "stay in (do not go out this turn)"
    out = a.options.index("go out: meld Q Q Jk")
    assert a.figures["margin"][out].hi < 0 and a.figures["ahead"][out].value < 0.02


def test_go_out_to_win_the_game():
    """At 9,500 to 9,600 with a clean canasta down, going out takes us past 10,000 ahead: go out."""
    a = _advice("out_to_win")
    assert a.best == "go out: meld K K K"
    stay, out = a.figures["win_game"]
    assert out.lo > stay.hi and out.value > 0.8


@pytest.mark.parametrize("seed", [11, 12])
def test_verdicts_hold_on_other_seeds(seed):
    """The verdicts are the position's, not one stream's."""
    for key, best in (("rich_pile", "take the pile: meld A A A"), ("out_behind", "stay in (do not go out this turn)"),
                      ("out_to_win", "go out: meld K K K")):
        assert _advice(key, seed=seed, samples=300).best == best, key


def test_section_builds(tmp_path):
    """The section builds at --scale 0.01 with a table per position, the verdicts and the ladder chart
    (lookahead included, its small match marked)."""
    assert "canasta_advice" in SECTIONS
    md = rep.write(tmp_path, seed=3, scale=0.01, progress=False)
    text = md.read_text(encoding="utf-8")
    for c in rep.CASES:
        assert f"### {c.title}" in text
    assert text.count("*Verdict: ") == len(rep.CASES)
    assert "heuristic2 vs heuristic" in text and "canasta_advice_ladder.png" in text
    assert "| lookahead vs heuristic2 |" in text and "(lookahead: a small match)" in text
    assert (tmp_path / "canasta_advice_ladder.png").stat().st_size > 0

