"""Kanalje advice with the game at stake (``Position(score=...)``, ``--score``): each card valued
by my P(win the game) after the deal. The kernel's equity of a world against a Python lookup
through :func:`cardodds.kanalje.equity` on the last card of a deal (every seat's points known),
the ranking by equity where it differs from the ranking by points, bad scores refused in one
line, the same figures on any number of threads."""

from __future__ import annotations

import dataclasses
import importlib
import json
import subprocess
import sys

import pytest

from cardodds import kanalje
from cardodds.kanalje import Position, advise
from cardodds.kanalje import _advise as KA

from .test_kanalje_advise import same_everywhere

HAND = "Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d"
EARLY = dict(seat=2, hand=HAND, turned="Td", played="0: Kh 3h")


@pytest.fixture(scope="module")
def last_card():
    """The last card of a heuristic deal (seat 1 plays the 17th trick's third card, its only
    one): every hand is known, so each world ends the deal with the same points a seat."""
    tr = kanalje.trace("heuristic", rng=3)
    turn, pos = tr.positions("all")[-1]
    assert pos.seat == 1 and pos.options == ("Js",) and tr.result["score"] == (-2, 2, 7)
    return pos, tr.result["score"]


def _python_equity(before, points, seat: int) -> float:
    """My P(win the game) after the deal by the game's rules and :func:`kanalje.equity`: the next
    deal is dealt by this one's leader (seat 0), so seat 1 leads it."""
    after = [b + p for b, p in zip(before, points)]
    top = max(after)
    if top >= 21 and after.count(top) == 1:
        return 1.0 if after[seat] == top else 0.0
    return kanalje.equity(after, dealer=0).win[seat].value


@pytest.mark.parametrize("before, path", [
    ((10, 8, 3), "table"),     # after: 8, 10, 10
    ((5, 19, 4), "won"),       # after: 3, 21, 11 (seat 1 alone at 21)
    ((5, 4, 14), "lost"),      # after: 3, 6, 21
    ((0, 20, 15), "tie"),      # after: -2, 22, 22 (a tie at the top plays on)
])
def test_equity_of_the_last_card_is_the_tables(last_card, before, path):
    pos, points = last_card
    r = advise(dataclasses.replace(pos, score=before), policies="heuristic", samples=40, rng=1)
    want = _python_equity(before, points, pos.seat)
    assert {"won": want == 1.0, "lost": want == 0.0}.get(path, 0.0 < want < 1.0)
    e = r.figures["equity"][0]
    assert r.ranked_by == "equity" and e.se == 0.0
    assert abs(e.value - want) <= 0.5 / KA.EQUITY_SCALE + 1e-12
    assert r.figures["score"][0].value == points[pos.seat]


def test_without_a_score_points_rank_and_no_equity():
    r = advise(Position(**EARLY), policies="heuristic", samples=200, rng=2)
    assert r.ranked_by == "score" and "equity" not in r.figures and list(r.pairs) == ["score"]


def test_the_same_worlds_the_same_points_with_a_score():
    """A score changes the ranking, not the worlds: the points are the same figures."""
    a = advise(Position(**EARLY), policies="heuristic", samples=300, rng=4)
    b = advise(Position(**EARLY, score=(12, 17, 5)), policies="heuristic", samples=300, rng=4)
    assert [e.value for e in a.figures["score"]] == [e.value for e in b.figures["score"]]
    assert b.ranked_by == "equity" and list(b.pairs) == ["equity", "score"]
    assert all(0.0 <= e.value <= 1.0 for e in b.figures["equity"])


def test_json_carries_the_equity_and_what_ranked():
    r = advise(Position(**EARLY, score=(12, 17, 5)), policies="heuristic", samples=200, rng=5)
    d = json.loads(json.dumps(r.to_dict()))
    assert d["ranked_by"] == "equity" and d["position"]["score"] == [12, 17, 5]
    assert "equity" in json.dumps(d)


def test_same_figures_on_any_number_of_threads():
    def call(**kw):
        return advise(Position(**EARLY, score=(12, 17, 5)), policies="heuristic", samples=3000, rng=6, **kw)
    same_everywhere(call)


def test_same_verdict_on_any_number_of_threads_in_rounds():
    def call(**kw):
        return advise(Position(**EARLY, score=(12, 17, 5)), policies="heuristic", budget_rounds=4, rng=7, **kw)
    one, two = call(threads=1), call(threads=2)
    assert (one.counts == two.counts).all() and one.to_dict() == two.to_dict() and one.ranked_by == "equity"


@pytest.mark.parametrize("score, words", [
    ((12, 21, 5), "score: the game is over at 12,21,5"),
    ((12, 17), "score: score has 2 totals but the game has 3 players"),
    ((1, 2, 3), "score: no game reaches a score sum of 6"),
])
def test_bad_scores_refused_in_one_line(score, words):
    with pytest.raises(ValueError, match="^" + words.replace("(", r"\(")) as e:
        Position(**EARLY, score=score)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("score, words", [("12,21,5", "the game is over"), ("12,17", "2 totals"),
                                          ("1,2,3", "no game reaches")])
def test_bad_scores_refused_by_the_cli(score, words):
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kanalje", "advise", "--seat", "2", "--hand", HAND,
                        "--turned", "Td", "--played", "0: Kh 3h", "--score", score, "--samples", "10"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardodds: error: --score: ") and words in lines[0], r.stderr


def test_score_printed_back():
    p = Position(**EARLY, score=[12, 17, 5])
    assert str(p).endswith("--score 12,17,5") and "score=(12, 17, 5)" in repr(p) and p.score == (12, 17, 5)
    assert Position(**EARLY) != p


def test_cli_shows_both_columns(capsys):
    from cardodds.cli import main

    argv = ["kanalje", "advise", "--policies", "heuristic", "--seat", "2", "--hand", HAND, "--turned", "Td",
            "--played", "0: Kh 3h", "--score", "12,17,5", "--samples", "300", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "P(win the game)" in out and "my points a deal" in out and "P(win)" in out.split("verdict:")[1]


#: Found by benchmarks/kanalje_equity_search.py (heuristic deal rng=1, trick 16): I lead with the
#: last two clubs (trump); seat 0 stands at 19 of 21. The ten wins a point more, the queen the game more often.
FLIP = dict(seat=2, hand="Tc Qc", turned="8c", played=(
    "0: As Ks Ts; 0: 2h Kh Ah; 2: 2s 9s Qs; 1: Ac Kc 9c; 1: Qh 8h 9h; 1: Th 6h Js; 1: 2d 6d 7d; 0: 8s 5s 6s; "
    "0: 3d Kd Ad; 2: 3h 9d 4h; 1: 7h 5h 4c; 0: 3s Jh Qd; 0: 4d Td 2c; 2: 3c 7c 5c; 0: 4s Jd 6c"))


def test_the_game_at_stake_changes_the_card():
    points = advise(Position(**FLIP), policies="heuristic", samples=4000, rng=1)
    game = advise(Position(**FLIP, score=(19, 17, 14)), policies="heuristic", samples=4000, rng=1)
    assert points.ranked_by == "score" and points.best == "Tc" and points.decision.kind == "best"
    assert game.ranked_by == "equity" and game.best == "Qc" and game.decision.kind == "best"
    # the ten still wins more points on the same worlds: equity, not points, decided
    assert game.figures["score"][0].value > game.figures["score"][1].value
    assert game.figures["equity"][1].value > game.figures["equity"][0].value
    assert "P(win)" in game.verdict and "points" in points.verdict


# ---- review ---------------------------------------------------------------------------------
def test_review_reads_the_records_score_and_rates_by_p_win():
    tr = kanalje.trace("heuristic", rng=1, score=(19, 17, 14))
    assert "\nscore: 19 17 14\n" in str(tr)
    r = kanalje.review(str(tr), seat=2, policies="heuristic", samples=400, rng=1)
    rated = [d for d in r.decisions if d.label != "forced"]
    assert rated and all(d.win is not None and d.win_versus_best is not None for d in rated)
    # the same as score= given, and neither without: points alone
    again = kanalje.review(str(tr).replace("score: 19 17 14\n", ""), seat=2, policies="heuristic", samples=400,
                           rng=1, score=(19, 17, 14))
    def ratings(res):
        return [(d.move, d.taken, d.best, d.label, d.cost, d.win_cost) for d in res.decisions]
    assert ratings(again) == ratings(r)
    plain = kanalje.review(kanalje.trace("heuristic", rng=1), seat=2, policies="heuristic", samples=400, rng=1)
    assert all(d.win is None for d in plain.decisions)


def test_review_at_the_flip_position_rates_the_ten_by_p_win():
    """The 16th trick of the FLIP deal: seat 2 led the ten; by points the best, by the game not."""
    tr = kanalje.trace("heuristic", rng=1)
    text = str(tr).replace("seed: 1\n", "seed: 1\nscore: 19 17 14\n")
    r = kanalje.review(text, seat=2, policies="heuristic", samples=4000, rng=1)
    d = next(d for d in r.decisions if d.what == "trick 16, lead")
    assert (d.taken, d.best) == ("Tc", "Qc") and d.win_cost.lo > 0 and d.cost.hi < 0


def test_review_refuses_a_bad_score_in_one_line(tmp_path):
    tr = kanalje.trace("heuristic", rng=1)
    path = tmp_path / "deal.txt"
    path.write_text(str(tr))
    with pytest.raises(ValueError, match="^score: the game is over at 30,1,2"):
        kanalje.review(tr, score=(30, 1, 2), samples=10)
    with pytest.raises(ValueError, match="^score: score has 2 totals"):
        kanalje.trace("heuristic", rng=1, score=(3, 4))
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kanalje", "review", str(path), "--score", "1,2,3",
                        "--samples", "10"], capture_output=True, text=True, timeout=120)
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1 and "--score: no game reaches a score sum of 6" in lines[0], r.stderr


# ---- two players ----------------------------------------------------------------------------
def _phase1_paid(tr, rules):
    """Each seat's penalties for the jacks in its phase-1 tricks, read off the record's moves."""
    paid = [0, 0]
    wins = [m for m in tr.moves if m.action == "win"]
    for m in wins[:13]:
        paid[m.seat] += sum(rules.jack_penalty(c) for c in m.cards if c[0] == "J")
    return paid


@pytest.mark.parametrize("before", [(10, 8), (19, 5), (5, 19), (3, 3)])
def test_two_players_phase_2_last_card_is_the_tables(before):
    """Phase 2's figures leave the phase-1 jacks out: the position's score has them paid."""
    from cardodds.kanalje import KanaljeRules

    rules = KanaljeRules(players=2)
    tr = kanalje.trace("heuristic", rules=rules, rng=3)
    turn, pos = tr.positions("all")[-1]
    points = tr.result["score"]
    paid = _phase1_paid(tr, rules)
    assert pos.phase == 2 and pos.seat == 0 and points == (-5, 8) and sum(paid) > 0
    r = advise(dataclasses.replace(pos, score=tuple(b - p for b, p in zip(before, paid))), policies="heuristic",
               samples=20, rng=1)
    assert r.figures["score"][0].value == points[0] + paid[0]
    want = _python_equity(before, points, 0) if max(b + p for b, p in zip(before, points)) >= 21 else \
        kanalje.equity([b + p for b, p in zip(before, points)], rules=rules, dealer=0).win[0].value
    assert abs(r.figures["equity"][0].value - want) <= 0.5 / KA.EQUITY_SCALE + 1e-12


def test_review_of_phase_2_pays_the_phase_1_jacks():
    from cardodds.kanalje import KanaljeRules
    R = importlib.import_module("cardodds.kanalje.review")

    rules = KanaljeRules(players=2)
    tr = kanalje.trace("heuristic", rules=rules, rng=3, score=(10, 8))
    w, _ = R._walk(tr, rules)
    found, violation = R._positions(w, w.points, None, score=(10, 8))
    paid = _phase1_paid(tr, rules)
    phase2 = [pos for _, _, pos in found if pos.phase == 2]
    assert violation is None and phase2 and {pos.score for pos in phase2} == {(10 - paid[0], 8 - paid[1])}
    assert {pos.score for _, _, pos in found if pos.phase == 1} == {(10, 8)}
