"""Kanalje analyses: Monte Carlo against exact values, thread independence, results, CLI."""

import json
import math
import re
import subprocess
import sys

import pytest

from cardodds.cli import main
from cardodds.kanalje import Hand, KanaljeRules, evaluate_hand, game, jack_risk, strength

JACKS = ("spades", "clubs", "diamonds", "hearts")
HAND = "2c 3c 4c 5c 6c 7c 8c 9c Tc 2d 3d 4d 5d 6d 7d 8d 9d"


@pytest.fixture(scope="module")
def risk():
    return jack_risk("random,heuristic,heuristic", samples=100_000, rng=20261129)


# ---- Monte Carlo vs exact values ------------------------------------------------------------------
def test_each_jack_is_turned_one_deal_in_52(risk):
    for suit in JACKS:
        e = risk.out_of_play(suit)
        assert abs(e.value - 1 / 52) <= 4 * math.sqrt((1 / 52) * (51 / 52) / risk.samples)


def test_mean_deal_total_is_7_plus_the_turned_jacks_expected_penalty(risk):
    exact = 7 + 10 / 52  # each jack is turned (and paid by nobody) with probability 1/52
    e = risk.mean_total
    assert abs(e.value - exact) <= 4 * e.se
    assert sum(m.value for m in risk.mean_score) == pytest.approx(e.value)


def test_holders_length_in_the_jacks_suit_is_hypergeometric(risk):
    # Given who holds a jack, the holder's other 16 cards are a uniform draw from the other
    # 51, of which 12 are of the jack's suit; the turned card is of that suit with prob. 12/51.
    from scipy.stats import hypergeom

    from cardodds.kanalje._counts import DEALS

    D = DEALS.at
    c = risk.counts
    for s in range(4):
        held = c[D.held + 28 * s:D.held + 28 * s + 28].reshape(2, 14)
        n = int(held.sum())
        trump = int(held[1].sum())
        p = 12 / 51
        assert abs(trump / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
        for length in range(1, 10):
            p = hypergeom(51, 12, 16).pmf(length - 1)
            k = int(held[:, length].sum())
            assert abs(k / n - p) <= 4 * math.sqrt(p * (1 - p) / n), (s, length)


def test_last_trick_rule_makes_the_total_exactly_7():
    r = jack_risk("random", rules=KanaljeRules(turned_jack="last_trick"), samples=20_000, rng=4)
    assert r.mean_total.value == 7 and r.mean_total.se == 0
    for suit in JACKS:
        assert r.out_of_play(suit).value == 0


def test_random_seats_tricks_sum_to_17(risk):
    assert sum(e.value for e in risk.mean_tricks) == pytest.approx(17)


def test_random_player_loses_to_heuristics(risk):
    assert risk.mean_score[0].hi < min(risk.mean_score[1].lo, risk.mean_score[2].lo)


# ---- determinism ----------------------------------------------------------------------------------
def test_same_seed_same_counts_on_any_number_of_threads():
    a = jack_risk("heuristic", samples=150_000, rng=9, threads=1)
    b = jack_risk("heuristic", samples=150_000, rng=9, threads=2)
    assert (a.counts == b.counts).all()
    ha = evaluate_hand(Hand(HAND, "Ah"), samples=3_000, rng=9, threads=1, policies="random,heuristic,lookahead",
                       lookahead_samples=2)
    hb = evaluate_hand(Hand(HAND, "Ah"), samples=3_000, rng=9, threads=2, policies="random,heuristic,lookahead",
                       lookahead_samples=2)
    assert (ha.counts == hb.counts).all()


@pytest.mark.parametrize("policies,players,n", [("random", 3, 200_000), ("random,heuristic,random", 3, 150_000),
                                                 ("random", 2, 150_000), ("lookahead,heuristic", 2, 130)])
def test_each_kernel_gives_the_same_counts_on_one_and_two_threads(policies, players, n):
    # the lean random kernel, the random-and-heuristic kernel, the general one (several chunks each)
    rules = KanaljeRules(players=players)
    a = jack_risk(policies, rules=rules, samples=n, rng=4, threads=1, lookahead_samples=2)
    b = jack_risk(policies, rules=rules, samples=n, rng=4, threads=2, lookahead_samples=2)
    assert a.samples == b.samples == n and (a.counts == b.counts).all()


# ---- jack risk results ----------------------------------------------------------------------------
def test_jack_risk_result_figures(risk):
    d = risk.to_dict()
    assert d["deals"] == 100_000 and len(d["mean_score"]) == 3 and len(d["mean_penalty"]) == 3
    for suit in JACKS:
        j = d["jacks"][suit]
        assert set(j["holder_takes"]) == {"value", "se", "lo", "hi"}
        assert len(j["taken_by_seat"]) == 3
        total = sum(x["value"] for x in j["taken_by_seat"]) + j["out_of_play"]["value"]
        assert total == pytest.approx(1.0)
    tab = risk.holder_table()
    assert set(tab.columns) >= {"jack", "trump", "length", "deals", "holder_takes"}
    assert tab["deals"].sum() == sum(risk.counts[1 + 4 * s + p] for s in range(4) for p in range(3))
    for p in range(3):
        assert sum(e.value for e in risk.penalty_distribution(p)) == pytest.approx(1.0)
    assert "seat 0 (random)" in repr(risk)
    assert risk.to_frame().shape[0] == 4
    json.dumps(d, allow_nan=False)


# ---- one hand -------------------------------------------------------------------------------------
def test_hand_turned_jack_is_exactly_zero_and_scores_add_up():
    h = evaluate_hand(Hand(HAND, "Jh"), samples=5_000, rng=1)
    assert h.jacks["hearts"].exact and h.jacks["hearts"].value == 0
    d = h.to_dict()
    assert set(d) >= {"tricks", "penalty", "score", "jacks"}
    assert d["jacks"]["hearts"] == {"value": 0.0, "se": 0.0, "lo": 0.0, "hi": 0.0}
    assert h.score.value == pytest.approx(h.tricks.value - h.penalty.value)
    assert sum(e.value for e in h.score_distribution.values()) == pytest.approx(1.0)


def test_hand_holding_every_top_card_takes_its_jacks_never_lost():
    # All four aces, kings, queens and four tens: nobody can ever overtake, so whoever leads...
    strong = "Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc Td Th Ts 9s"
    h = evaluate_hand(Hand(strong, "2c"), samples=2_000, rng=2)
    weak = evaluate_hand(Hand(HAND, "2h"), samples=2_000, rng=2)
    assert h.tricks.lo > weak.tricks.hi


@pytest.mark.parametrize("hand,turned,seat,msg", [
    ("2c 3c", "Ah", 0, "17"),
    (HAND.replace("9d", "9c"), "Ah", 0, "twice"),
    (HAND, "2c", 0, "also in the hand"),
    (HAND, "Ah", 3, "seat"),
    (HAND, "Zz", 0, "cannot read"),
])
def test_hand_bad_input(hand, turned, seat, msg):
    with pytest.raises(ValueError, match=msg):
        Hand(hand, turned, seat=seat)


TWO = KanaljeRules(players=2)
HAND13 = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d"


@pytest.mark.parametrize("make,msg", [
    (lambda: Hand(HAND.replace("9d", "Xx"), "Ah"), "cannot read card 'Xx'"),
    (lambda: Hand(HAND13, "Ah"), "the hand has 13 cards; a Kanalje hand for 3 players has 17"),
    (lambda: Hand(HAND, "Ah", rules=TWO), "the hand has 17 cards; a Kanalje hand for 2 players has 13"),
    (lambda: Hand(HAND13, "Ah", rules=TWO), "two players have no turned card"),
    (lambda: Hand(HAND13, faceup="Ah", trump="Kh", rules=TWO), "give exactly one of faceup="),
    (lambda: Hand(HAND13, rules=TWO), "give exactly one of faceup="),
    (lambda: Hand(HAND, "Ah", faceup="Kh"), "faceup= and trump= belong to the two-player game"),
    (lambda: Hand(HAND, "Ah", seat=3), r"seat=3 must be 0\.\.2"),
    (lambda: Hand(HAND13, trump="Ah", seat=2, rules=TWO), r"seat=2 must be 0\.\.1"),
    (lambda: Hand(HAND, "Ah", seat=True), "seat=True"),
    (lambda: Hand(HAND, "Ah", rules="two"), "must be a KanaljeRules"),
])
def test_hand_refuses_in_one_line(make, msg):
    with pytest.raises(ValueError, match=msg) as e:
        make()
    assert "\n" not in str(e.value)


@pytest.mark.parametrize("hand", [
    Hand(HAND, "Ah", seat=2),
    Hand(HAND13, faceup="Jh", seat=1, rules=TWO),
    Hand(HAND13, trump="7h", rules=KanaljeRules(players=2, phase1_jacks_cost=False, jack_penalties=(1, 2, 3, 4))),
    Hand(HAND, "Jd", rules=KanaljeRules(turned_jack="last_trick", trick_points=2)),
])
def test_a_hand_prints_the_words_the_command_reads_back(hand):
    import shlex

    from cardodds.cli import build_parser
    from cardodds.kanalje.cli import _rules

    args = build_parser().parse_args(["kanalje", "hand", *shlex.split(str(hand))])
    again = Hand(args.hand, args.turned, faceup=args.faceup, trump=args.trump, seat=args.seat, rules=_rules(args))
    assert again == hand and str(again) == str(hand)
    assert str(hand).startswith(f'--hand "{HAND if hand.rules.players == 3 else HAND13}" --{hand.card_name} ')
    assert eval(repr(hand), {"Hand": Hand, "KanaljeRules": KanaljeRules}) == hand
    d = hand.to_dict()
    assert json.loads(json.dumps(d)) == d and d["seat"] == hand.seat and d["rules"]["players"] == hand.rules.players


def test_a_hand_reads_names_and_codes_and_keeps_codes():
    from cardodds.cards import parse_card, parse_cards

    h = Hand(HAND, "Ah", seat=1)
    assert h.cards == tuple(parse_cards(HAND)) and h.turned == h.card == parse_card("Ah") and h.phase == 0
    assert Hand(HAND.split(), "Ah", seat=1) == h == Hand(list(h.cards), h.card, seat=1)
    assert str(h) == f'--hand "{HAND}" --turned Ah --seat 1'
    assert repr(h) == f"Hand({HAND!r}, turned='Ah', seat=1)"
    p2 = Hand(HAND13, trump="Jh", rules=TWO)
    assert (p2.phase, p2.card_name, p2.turned, p2.faceup) == (2, "trump", None, None)


def test_evaluate_hand_takes_a_hand_and_its_rules_may_be_replaced():
    with pytest.raises(ValueError, match=r"must be a kanalje.Hand: give Hand\('2c 3c', turned='7h'\)"):
        evaluate_hand("2c 3c", samples=100)
    with pytest.raises(ValueError, match="must be a kanalje.Hand"):
        evaluate_hand(HAND.split(), samples=100)
    # rules= replaces the hand's, and the hand is checked again under them
    with pytest.raises(ValueError, match="a Kanalje hand for 2 players has 13"):
        evaluate_hand(Hand(HAND, "Ah"), rules=TWO, samples=100)
    a = evaluate_hand(Hand(HAND, "Jh", rules=KanaljeRules(turned_jack="last_trick")), samples=300, rng=3)
    b = evaluate_hand(Hand(HAND, "Jh"), rules=KanaljeRules(turned_jack="last_trick"), samples=300, rng=3)
    c = evaluate_hand(Hand(HAND, "Jh"), samples=300, rng=3)
    assert a == b and (a.counts == b.counts).all() and a.rules.turned_jack == "last_trick"
    assert c.rules.turned_jack == "dead" and not (a.counts == c.counts).all()
    assert (a.hand, a.turned, a.seat, a.phase) == (Hand(HAND, "Jh").cards, Hand(HAND, "Jh").card, 0, 0)


def test_unknown_policy_is_an_error():
    with pytest.raises(ValueError, match="unknown policy"):
        jack_risk("clever", samples=10)


# ---- game -------------------------------------------------------------------------------------------
def test_game_result():
    g = game("heuristic,heuristic,random", samples=1_000, rng=5)
    assert g.win[2].hi < min(g.win[0].lo, g.win[1].lo)
    d = g.to_dict()
    assert len(d["win"]) == 3 and "mean_deals" in d and d["games"] == 1_000


def test_results_compare_by_figures_and_keep_counts_out_of_repr():
    from cardodds.results import Result

    two = KanaljeRules(players=2)
    for make in (lambda: game("random", samples=300, rng=4),
                 lambda: jack_risk("random", rules=two, samples=300, rng=4),
                 lambda: evaluate_hand(Hand("Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc", trump="2c", rules=two),
                                       samples=300, rng=4),
                 lambda: strength("heuristic", "random", samples=100, rng=4)):
        a, b = make(), make()
        assert isinstance(a, Result) and type(a).__name__.endswith("Result")
        assert a == b and (a.counts == b.counts).all()
        assert "counts" not in repr(a) and "array" not in repr(a)
        assert a.to_dict()["samples"] == a.samples and a.to_dict()["version"] == a.version
    assert game("random", samples=300, rng=4) != game("random", samples=300, rng=5)


# ---- CLI ----------------------------------------------------------------------------------------------
def run_cli(args, capsys):
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_risk_json(capsys):
    code, out, _ = run_cli(["kanalje", "risk", "--policies", "random,heuristic,heuristic", "--samples", "5000",
                            "--seed", "3", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert set(d) >= {"deals", "mean_score", "mean_penalty", "mean_total", "jacks"}
    assert set(d["jacks"]) == set(JACKS)
    assert set(d["jacks"]["hearts"]) >= {"holder_takes", "taken_by_seat"}


def test_cli_hand_json_and_text(capsys):
    code, out, _ = run_cli(["kanalje", "hand", "--hand", HAND, "--turned", "7h", "--samples", "2000", "--seed",
                            "1", "--json"], capsys)
    assert code == 0
    d = json.loads(out)
    assert set(d) >= {"tricks", "penalty", "score", "jacks"}
    code, out, _ = run_cli(["kanalje", "hand", "--hand", HAND, "--turned", "7h", "--samples", "500", "--seed",
                            "1", "--policies", "lookahead", "--lookahead-samples", "2"], capsys)
    assert code == 0 and "score" in out and "[" in out


def test_cli_game_json(capsys):
    code, out, _ = run_cli(["kanalje", "game", "--samples", "300", "--seed", "1", "--json"], capsys)
    assert code == 0 and len(json.loads(out)["win"]) == 3


@pytest.mark.parametrize("args", [
    ["kanalje", "hand", "--hand", "2c 3c", "--turned", "7h"],
    ["kanalje", "hand", "--hand", HAND.replace("9d", "9c"), "--turned", "7h"],
    ["kanalje", "hand", "--hand", HAND, "--turned", "2c"],
    ["kanalje", "risk", "--policies", "nobody"],
])
def test_cli_bad_input_one_line_exit_2(args):
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", *args], capture_output=True, text=True)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


# ---- report section and notebook ---------------------------------------------------------------
def test_report_section_is_byte_identical_for_the_same_seed(tmp_path):
    from cardodds.report import build

    a = build(tmp_path / "a", seed=5, scale=0.002, sections=["kanalje"])[0]
    b = build(tmp_path / "b", seed=5, scale=0.002, sections=["kanalje"])[0]
    assert a.read_text() == b.read_text()
    assert "holder takes own" in a.read_text()
    for png in sorted((tmp_path / "a").glob("kanalje_*.png")):
        assert png.read_bytes() == (tmp_path / "b" / png.name).read_bytes()
    assert len(list((tmp_path / "a").glob("kanalje_*.png"))) == 4
    # the two-player section: its text, and its chart byte-identical too
    assert "# Kanalje (two players)" in a.read_text() and "cost of taking it face up" in a.read_text()
    png2 = "kanalje2_faceup.png"
    assert (tmp_path / "a" / png2).read_bytes() == (tmp_path / "b" / png2).read_bytes()


def test_notebook_runs(monkeypatch):
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    monkeypatch.setenv("CARDODDS_QUICK", "1")
    path = Path(__file__).resolve().parent.parent / "analysis" / "kanalje.ipynb"
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(path.parent)}}).execute()
    assert any("HandResult" in str(o) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
    assert any("faceup Jh" in str(o) for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))


def test_docstring_examples():
    import doctest

    import cardodds.kanalje as pkg
    from cardodds.kanalje import analysis, hand, play, rules

    for mod in (rules, hand, analysis, play, pkg):
        assert doctest.testmod(mod).failed == 0, mod.__name__


@pytest.mark.parametrize("bad, message", [
    ({"threads": -5}, "threads=-5"), ({"threads": 1.5}, "threads=1.5"), ({"samples": 0}, "samples=0"),
    ({"rng": -1}, "rng=-1"), ({"rng": "x"}, "rng='x'"), ({"lookahead_samples": 0}, "lookahead_samples=0"),
])
def test_every_kanalje_run_checks_its_run_arguments(bad, message):
    from cardodds.kanalje import trace

    hand = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"
    calls = [lambda **kw: jack_risk("random", **kw), lambda **kw: evaluate_hand(Hand(hand, "7h"), **kw),
             lambda **kw: game("random", **kw), lambda **kw: strength("heuristic", "random", **kw)]
    if set(bad) <= {"rng", "lookahead_samples"}:
        calls.append(lambda **kw: trace("random", hands=["Ac", "2c", "Kc"], turned="5d", **kw))
    for call in calls:
        with pytest.raises(ValueError, match=re.escape(message)):
            call(**bad)
