"""Polish Canasta played: the public answers, the advisor, the tuner, the CLI and bad input."""

from __future__ import annotations

import inspect
import json

import numpy as np
import pytest
from numba import njit

from cardodds.canasta import (CanastaRules, HeuristicParams, Position, advise, game, game_strength, house_options,
                              play, strength, trace, tune)
from cardodds.canasta.view import AT, MV_DISCARD
from cardodds.cli import main as cli_main
from cardodds.trace import Trace


def test_play_figures_are_consistent_and_repeatable_on_any_thread_count():
    a = play("heuristic", samples=600, rng=5, threads=1, check=True)
    b = play("heuristic", samples=600, rng=5, threads=2, check=True)
    assert (a.counts == b.counts).all()
    assert not any(a.violations.values())
    assert a.went_out.value + a.stock_out.value == pytest.approx(1.0)
    for s in range(2):
        by = [e.value for e in a.opened_by_round[s]]
        assert by == sorted(by) and by[-1] <= a.opened[s].value + 1e-12
        cb = [e.value for e in a.canasta_by_round[s]]
        assert cb == sorted(cb)
        total = sum(e.value for e in a.canastas[s].values())
        assert total == pytest.approx(a.canastas_per_hand[s].value)
        assert sum(a.score_distribution[s].values()) == pytest.approx(1.0)
    assert a.score_difference.value == pytest.approx(a.score[0].value - a.score[1].value)
    assert sum(a.end_turn_distribution["went_out"].values()) == pytest.approx(a.went_out.value)
    d = json.loads(json.dumps(a.to_dict()))
    assert d["question"] == "play" and d["hands"] == 600 and len(d["opened_by_round"]["side0"]) == 15
    assert len(a.to_frame()) > 50 and "side 0 opened" in repr(a)


def test_random_and_heuristic_differ_and_heuristic_is_stronger():
    s = strength("heuristic", "random", samples=200, rng=3, check=True)
    assert s.points.lo > 0 and not any(s.violations.values())
    # the same player on both sides: the edge is zero up to noise, and exactly antisymmetric
    same = strength("random", "random", samples=200, rng=3)
    assert same.points.contains_zero()


def test_strength_in_whole_games_pairs_the_games_with_the_sides_swapped():
    # the same player on both sides plays each pair's two games alike: one each, to the point
    same = game_strength("heuristic", "heuristic", rules=CanastaRules(target=3000), samples=12, rng=4, check=True)
    assert same.win.value == 0.5 and same.win.se == 0 and same.points.value == 0
    assert same.mean_hands.value >= 1 and same.unfinished == 0 and not any(same.violations.values())
    s = game_strength("heuristic", "random", rules=CanastaRules(target=3000), samples=12, rng=4)
    assert s.win.lo > 0.5 and s.points.value > 0 and s.pairs == 12
    d = json.loads(json.dumps(s.to_dict()))
    assert d["question"] == "game_strength" and d["win"]["value"] == s.win.value and "games to 3,000" in repr(s)
    assert "games" not in inspect.signature(strength).parameters  # the question in games is game_strength


def test_game_to_a_small_target():
    g = game("heuristic", rules=CanastaRules(target=2000), samples=60, rng=2, check=True)
    assert g.games == 60 and g.unfinished == 0 and sum(e.value for e in g.win) == pytest.approx(1.0)
    assert g.mean_hands.value >= 1 and 0 <= g.win[0].value <= 1
    assert sum(e.value for e in g.hands_distribution.values()) == pytest.approx(1.0)
    # asked for a precision, it plays until P(side 0 wins) is known to it
    p = game("heuristic", rules=CanastaRules(target=2000), target_halfwidth=0.2, rng=2)
    assert p.win[0].halfwidth <= 0.2 and p.games < 2_000
    assert not any(g.violations.values())


def test_house_options_pair_the_same_deals():
    h = house_options("heuristic", options=["min_first_meld=0", "going_out=meld_all"], samples=300, rng=4, check=True)
    assert set(h.options) == {"min_first_meld=0", "going_out=meld_all"}
    # an option equal to the base gives exactly the same hands: a zero paired difference
    same = house_options("heuristic", options={"same": {"min_first_meld": 30}}, samples=200, rng=4)
    assert same.side0_change["same"].value == 0.0 and same.side0_change["same"].se == 0.0
    assert (same.base.counts == same.options["same"].counts).all()
    assert "side-0 score change" in repr(h)
    g = house_options("heuristic", options=["going_out=meld_all"], samples=100, rng=4, games=10)
    assert set(g.games) == {"base", "going_out=meld_all"} and g.games["base"].games == 10


def test_user_policy_gets_the_view_and_its_bad_answers_are_counted():
    @njit
    def first_discard(state, seat, view, moves, n_moves):
        if view[AT.hand_count + seat] < 1 or view[AT.hand + 15 * ((seat + 1) % 4)] != 0:
            return n_moves + 100  # the view is wrong: answer badly so the test sees it
        for i in range(n_moves):
            if moves[i, 0] == MV_DISCARD:
                return i
        return 0

    r = play([first_discard, "heuristic", "heuristic", "heuristic"], samples=100, rng=1, check=True)
    assert r.policies[0] == "user" and not any(r.violations.values())

    @njit
    def broken(state, seat, view, moves, n_moves):
        return n_moves + 5

    r = play(broken, samples=20, rng=1, check=True)
    assert r.violations["policy"] > 0


def test_a_user_policy_does_not_recompile_the_kernels():
    from cardodds.canasta import _play as P
    from cardodds.canasta.view import compile_policy

    @njit
    def first_move(state, seat, view, moves, n_moves):
        return 0

    @njit
    def last_move(state, seat, view, moves, n_moves):
        return n_moves - 1

    play("heuristic", samples=20, rng=1)
    built_in = len(P.hands_kernel.signatures)
    play([first_move, "heuristic", "heuristic", "heuristic"], samples=20, rng=1)
    before = len(P.hands_kernel.signatures)
    # a lineup without a user policy passes None (its kernel leaves the user's call out), so
    # the first user policy compiles the kernel at most once more ...
    assert before <= built_in + 1
    play([last_move, "random", "heuristic", "random"], samples=20, rng=1)
    # ... and every user policy shares that one compilation
    assert len(P.hands_kernel.signatures) == before
    assert compile_policy(last_move) is compile_policy(last_move)


def test_trace_plays_a_user_policy_through_the_same_argument():
    @njit
    def first_move(state, seat, view, moves, n_moves):
        return 0

    t = trace([first_move, "heuristic", "random", "heuristic"], rng=3)
    assert t.info["policies"] == "user, heuristic, random, heuristic" and len(t.result["score"]) == 2


def test_a_user_policy_of_the_wrong_signature_is_a_value_error_naming_it():
    @njit
    def no_moves(rng, view):
        return 0

    with pytest.raises(ValueError, match=r"no_moves.*does not compile as policy\(state, seat, view, moves, n_moves\)"):
        play([no_moves, "heuristic", "heuristic", "heuristic"], samples=10, rng=1)


def test_trace_names_every_move_and_ends_with_the_scores():
    t = trace("random", rng=9)
    assert [m.action for m in t.moves[:4]] == ["deal"] * 4 and t.moves[4].action == "draw"
    assert any(m.action == "discard" for m in t.moves) and set(t.result) == {"score", "went out", "turns"}
    assert Trace.parse(str(t)).moves == t.moves  # the text reads back


def _replay_trace(t):
    """Follow a trace's hands card by card: each seat's hand from its 12 dealt cards, every
    card drawn, taken, melded, swapped and discarded as the moves name them; at each turn the
    hand the draw's note shows must be the one followed. Returns the kinds of move seen."""
    from collections import Counter

    hands = {m.seat: Counter(m.cards) for m in t.moves[:4]}
    assert [m.action for m in t.moves[:4]] == ["deal"] * 4 and all(len(m.cards) == 12 for m in t.moves[:4])
    seen = set()
    for m in t.moves[4:]:
        h = hands[m.seat]
        cards = list(m.cards[:next((i for i, w in enumerate(m.cards) if w in ("to", "from")), None)])  # not the meld
        if m.action == "draw":
            h.update(m.cards)
            if m.cards:
                assert sorted(h.elements()) == sorted(m.note.split("; hand ")[1].split()), m
            continue
        if m.action == "discard" or m.action == "add":
            h.subtract(cards)
        elif m.action == "red3":
            seen.add("red3")
            h["3r"] -= 1
            drawn = [] if "draws nothing" in m.note else m.note.split("draws ")[1].split()
            assert cards[1:] == drawn, m  # the replacements drawn, as the note says
            for c in cards[1:]:
                h[c] += 1
                if c == "3r":  # a red 3 drawn is laid at once
                    h["3r"] -= 1
        elif m.action == "meld":
            h.subtract(cards)
        elif m.action == "swap":
            h.update(cards)
            h[m.note.split()[-1]] -= 1
        elif m.action == "take":
            seen.add("take")
            held = m.note.split("; the pile held ")[1].split()
            size = int(m.note.split("(")[1].split()[0])
            assert len(held) == size and held[-1] == m.note.split(", ")[1].split()[0], m
            h.update(held)
            h.subtract(cards)
        assert min(h.values(), default=0) >= 0, m
    return seen


def test_trace_shows_the_deal_every_card_drawn_and_every_pile_taken():
    seen = set()
    for seed in (25, 3, 11, 4):
        t = trace("heuristic", rng=seed)
        seen |= _replay_trace(t)
        assert not any("replacement" in m.note for m in t.moves)
    assert seen == {"red3", "take"}  # the traces lay red 3s and take piles


def test_advisor_prefers_taking_a_big_pile_it_can_meld():
    a = advise(Position("K K 9 9 5 7 Q Jk 3b 4", melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A Q Q 9 K",
                        counts=(10, 9, 11), decision="take"), samples=300, rng=1)
    assert a.options[0] == "leave the pile" and len(a.options) >= 2
    # taking beats leaving on the same deals (the ways of melding the K may tie among themselves)
    assert a.options[a.best_index] != "leave the pile" and a.versus_best[0].lo > 0
    assert a.best is None or a.best == a.options[a.best_index]
    d = a.to_dict()
    assert d["position"]["decision"] == "take" and len(d["options"]) == len(a.options)


def test_advisor_names_no_best_when_options_are_the_same():
    # two copies of the same worthless card: discarding either is the same option, so no
    # best is named unless every difference excludes zero
    a = advise(Position("K K Q 9 5 7 3b", melds="us: A A A", pile="K", pile_size=5, decision="discard"), samples=60,
               rng=2)
    assert all(o.startswith("discard") for o in a.options)
    assert a.versus_best[int(np.argmax([m.value for m in a.figures["margin"]]))].value == 0.0


@pytest.mark.parametrize("kwargs,match", [
    (dict(hand="K K Zz"), "cannot read"),
    (dict(hand="K K 3"), "colour"),
    (dict(hand="K K K K K K K K K"), "more K"),
    (dict(hand="K K Q", melds="us: K K"), "not a legal meld"),
    (dict(hand="K K Q", melds="us: K K K; us: K K K"), "two melds"),
    (dict(hand="K K Q", melds="ours: K K K"), "side"),
    (dict(hand="K K Q", pile="5 ? K", pile_size=2), "pile_size"),
    (dict(hand="K K Q", counts=(60, 40, 12)), "cards not seen"),
    (dict(hand="K K Q", decision="maybe"), "decision"),
    (dict(hand="K K Q", pile="5 7 K", top="Q"), "contradicts"),
    (dict(hand="K K Q", pile="5 7 K", pile_size=2), "contradicts the pile listed"),
])
def test_advisor_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        advise(Position(**kwargs), samples=10)


def test_bad_play_input():
    with pytest.raises(ValueError, match="unknown policy"):
        play("genius", samples=10)
    with pytest.raises(ValueError, match="4 seats"):
        play("random,heuristic", samples=10)
    with pytest.raises(ValueError, match="going_out"):
        CanastaRules(going_out="never")
    with pytest.raises(ValueError, match="house option"):
        house_options(options=["jokers=8"], samples=10)
    with pytest.raises(ValueError, match="heuristic parameter"):
        HeuristicParams(keep_wilds=-1)
    with pytest.raises(ValueError, match="no heuristic parameter"):
        tune(grid={"bluff": (1,)}, samples=10)


def test_cli_play_advise_trace(capsys):
    assert cli_main(["canasta", "play", "--samples", "200", "--seed", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["hands"] == 200 and "canastas" in d
    assert cli_main(["canasta", "trace", "--seed", "2", "--policies", "random"]) == 0
    assert Trace.parse(capsys.readouterr().out).moves == trace("random", rng=2).moves
    assert cli_main(["canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b", "--melds", "us: A A A; them: 8 8 8",
                     "--pile", "K", "--pile-size", "4", "--decision", "discard", "--samples", "30",
                     "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "discard 3b" in out and ("best:" in out or "no option is better at this precision" in out)
    assert cli_main(["canasta", "play", "--policies", "genius", "--samples", "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown policy" in err
    assert cli_main(["canasta", "advise", "--hand", "K K Q", "--counts", "1,2"]) == 2
    assert "--counts" in capsys.readouterr().err


def test_tuner_reports_an_edge_with_its_interval():
    r = tune(samples=60, grid={"take_min_pile": (8,), "keep_wilds": (2,)}, rng=1)
    assert len(r.history) == 2
    assert r.edge.lo <= r.edge.value <= r.edge.hi
    assert "edge over the defaults" in repr(r)


def test_report_section_is_byte_identical(tmp_path):
    from cardodds.report import SECTIONS
    from cardodds.report import canasta_play as rep

    assert "canasta_play" in SECTIONS
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = rep.write(tmp_path / "a", seed=3, scale=0.001, progress=False)
    b = rep.write(tmp_path / "b", seed=3, scale=0.001, progress=False)
    text = a.read_text()
    assert "House options" in text and "canasta_play_by_round.png" in text
    for name in ("canasta_play.md", "canasta_play_by_round.png", "canasta_play_canastas_pile.png",
                 "canasta_play_scores.png", "canasta_play_house_options.png"):
        assert (a.parent / name).read_bytes() == (b.parent / name).read_bytes(), name
