"""The Känä advisor's verdict (cardodds.verdict): rounds of fresh deals until one känä is best,
the känäs left are equal within the margin (in antes), or the budget ends; one look with samples=."""

import json

import numpy as np
import pytest
from numba import njit

from cardodds.cli import main
from cardodds.kana import KanaRules, Position, advise
from cardodds.kana import policies as st
from cardodds.kana._advise import advice_layout
from cardodds.kana._defaults import ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS
from cardodds.rng import child

PEEK_ONE = KanaRules(4, "peek-one")
PEEK_ALL = KanaRules(4, "peek-all")


def test_by_default_rounds_of_deals_until_a_verdict():
    a = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, rng=1, budget_seconds=None)
    d = a.decision
    assert d.kind in ("best", "equal") and d.planned_rounds == ADVISE_ROUNDS and not d.budget_limited
    assert a.samples == sum(ADVISE_ROUND_WORLDS << i for i in range(d.rounds)) == max(a.worlds)
    assert d.margin == ADVISE_MARGIN and d.unit == "antes" and a.seed == d.seed == 1
    # the verdict's figure is P(win) times the players: the antes of the pot a känä wins on average
    assert d.means == pytest.approx([4 * e.value for e in a.value])
    j = a.to_dict()
    assert j["decision"]["kind"] == d.kind and j["decision"]["unit"] == "antes"
    assert [o["worlds"] for o in j["options"]] == list(a.worlds) and j["verdict"] == a.verdict


@pytest.mark.parametrize("position,kw", [
    (Position("7s 2h 3d", seat=0), dict(policies="blind")),
    # margin 0: seven rounds, the last two of more than one chunk of deals (on both threads)
    (Position("7c 8d Qh", seat=2, kanad="Ks 3d"), dict(margin=0.0, budget_rounds=7)),
])
def test_same_seed_same_verdict_on_one_and_two_threads(position, kw):
    one = advise(position, rules=PEEK_ALL, rng=1, budget_seconds=None, threads=1, **kw)
    two = advise(position, rules=PEEK_ALL, rng=1, budget_seconds=None, threads=2, **kw)
    assert one.decision == two.decision and one.verdict == two.verdict
    assert np.array_equal(one.counts, two.counts) and one.value == two.value
    if "budget_rounds" in kw:
        assert one.decision.rounds == 7 and one.decision.budget_limited and one.samples == 4_096 * 127


def test_an_option_shown_to_lose_is_played_no_more_and_each_figure_rests_on_its_deals():
    a = advise(Position("7s 2h 3d", seat=0), rules=PEEK_ALL, policies="blind", rng=1, budget_seconds=None)
    d = a.decision
    assert d.kind == "best" and a.best == "2h" and len(set(a.worlds)) > 1  # 7s went first, then 3d
    assert a.worlds[1] == a.samples > a.worlds[0] and set(d.excluded) == {0, 2}
    wins = a.counts[advice_layout(3).slice("wins")]
    for i in range(3):
        assert a.value[i].value == pytest.approx(wins[i] / a.worlds[i])
    assert a.verdict.startswith("känä 2h; 7s 3d lose ")


def test_one_round_is_the_fixed_run_on_that_rounds_deals():
    # round r plays on the deals of child(seed, r): a verdict cut after one round holds the counts
    # of a run of every option on those 4,096 deals
    cut = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, rng=5, budget_rounds=1)
    fixed = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, samples=ADVISE_ROUND_WORLDS,
                   rng=child(np.random.SeedSequence(5), 0))
    assert cut.decision.rounds == 1 and cut.samples == ADVISE_ROUND_WORLDS
    assert np.array_equal(cut.counts, fixed.counts) and cut.value == fixed.value
    assert cut.difference(0, 1) == fixed.difference(0, 1)


def test_keeping_a_pair_of_twos_is_best():
    # peek-all with 2c 2d Ah: känä the ace and keep the Superkänä; the two 2s are one choice
    a = advise(Position("2c 2d Ah", seat=1), rules=PEEK_ALL, rng=3, budget_seconds=None)
    d = a.decision
    assert d.kind == "best" and a.best == "Ah" and d.same == (0, 0, 2) and d.excluded == (0, 1)
    assert a.clearly_worse == ["2c", "2d"] and a.verdict.startswith("känä Ah; 2c 2d lose ")
    assert d.loss[0][0] > 3  # a Superkänä nearly always takes the pot of 4 antes
    assert a.worlds[0] == a.worlds[1] and a.value[0] == a.value[1]


@njit
def _first_heart(state, seat, hand, peeked, kanad, n_kanad):
    """A custom player who känäs a heart when it has one: suits matter to it."""
    for j in range(3):
        if hand[j] & 3 == 2:
            return j
    return 0


def test_options_equal_by_the_rules():
    from cardodds.kana.advise import _same

    blind = [st.blind("random")] * 4
    assert _same(PEEK_ALL, [0, 1, 50], blind).tolist() == [0, 0, 2]  # 2c 2d Ah: suits never matter
    assert _same(PEEK_ALL, [0, 4, 50], blind).tolist() == [0, 1, 2]  # 2c 3c Ah
    assert _same(PEEK_ALL, [1, 2, 3], blind).tolist() == [0, 0, 0]  # three 2s
    assert _same(KanaRules(4, "official"), [-1, -1, -1], blind).tolist() == [0, 0, 0]
    assert _same(PEEK_ONE, [0, -1, -1], blind).tolist() == [0, 1]
    # a custom player sees the känäd card's suit: two cards of a rank are two options then
    assert _same(PEEK_ALL, [0, 1, 50], [st.custom(_first_heart, "peek-all")] * 4).tolist() == [0, 1, 2]


def test_the_official_rules_are_one_choice():
    exact = advise(Position("? ? ?", seat=1), rules=KanaRules(4, "official"))
    assert exact.samples == 0 and exact.decision is None and exact.best is None  # exact: no deal is played
    assert exact.verdict == "every card scores the same on these deals"
    sampled = advise(Position("? ? ?", seat=1), rules=KanaRules(4, "official"), samples=5_000, rng=2)
    assert sampled.decision.same == (0, 0, 0) and sampled.clearly_worse == []
    assert sampled.verdict == "känä 1st card, 2nd card or 3rd card (the same by the rules)"


def test_options_close_together_are_equal_within_the_margin():
    # every känä here loses the round (two kings and a queen are out): all equal, in one round
    a = advise(Position("7c 8d Qh", seat=2, kanad="Ks 3d"), rules=PEEK_ALL, rng=1, budget_seconds=None)
    d = a.decision
    assert d.kind == "equal" and d.group == (0, 1, 2) and a.best is None
    assert a.verdict.startswith("känä 7c, 8d or Qh (within ")
    wide = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, rng=1, margin=1.0, budget_seconds=None)
    assert wide.decision.kind == "equal" and wide.decision.margin == 1.0  # a whole ante: equal


def test_with_samples_one_look_by_the_same_rule():
    a = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, samples=20_000, rng=1)
    d = a.decision
    assert d.planned_rounds == 1 and a.samples == 20_000 and a.worlds == (20_000, 20_000)
    assert a.to_dict()["decision"]["kind"] == d.kind


@pytest.mark.parametrize("kw,message", [
    (dict(margin=-0.1), "margin=-0.1 must be a number of antes"),
    (dict(margin="x"), "margin='x'"),
    (dict(budget_seconds=0), "budget_seconds=0 must be"),
    (dict(budget_rounds=0), "budget_rounds=0 must be"),
    (dict(budget_rounds=0, samples=1_000), "budget_rounds=0 must be"),
    (dict(budget_seconds=-1, rules=KanaRules(4, "official")), "budget_seconds=-1 must be"),
])
def test_bad_margin_or_budget(kw, message):
    kw.setdefault("rules", PEEK_ONE)
    position = Position("? ? ?" if kw["rules"].variant == "official" else "9h ? ?", seat=1)
    with pytest.raises(ValueError, match=message):
        advise(position, rng=1, **kw)


ARGV = ["kana", "advise", "--players", "4", "--variant", "peek-one", "--seat", "2", "--hand", "9h ? ?", "--seed", "1"]


def test_the_command_prints_each_options_deals_and_the_verdict(capsys):
    assert main(ARGV) == 0
    out = capsys.readouterr().out
    a = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, rng=1)
    assert f"({a.samples:,} deals in " in out and "a känä shown to lose is played no more" in out
    assert "deals" in out.splitlines()[4] and f"  {a.worlds[0]:,}" in out and a.verdict in out
    assert main(ARGV + ["--budget-rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "4,096 deals in 1 round," in out and "--budget-rounds 1 repeats it" in out


def test_the_command_passes_margin_and_budget_and_json_has_the_decision(capsys):
    assert main(ARGV + ["--margin", "1", "--budget-seconds", "30", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decision"]["kind"] == "equal" and d["decision"]["margin"] == 1.0 and d["decision"]["unit"] == "antes"
    assert main(ARGV + ["--samples", "2000", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["decision"]["planned_rounds"] == 1 and d["samples"] == 2000


@pytest.mark.parametrize("flag,value", [("--margin", "0"), ("--margin", "x"), ("--margin", "18"),
                                        ("--budget-seconds", "0"), ("--budget-seconds", "soon"),
                                        ("--budget-rounds", "0"), ("--budget-rounds", str(ADVISE_ROUNDS + 1))])
def test_bad_flags_are_one_line_and_exit_2(flag, value, capsys):
    assert main(ARGV + [flag, value]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and flag in err and "Traceback" not in err


def test_an_interrupted_round_ends_the_run_with_a_partial_verdict(monkeypatch, capsys):
    import dataclasses
    import importlib

    module = importlib.import_module("cardodds.kana.advise")  # the module, not the function of its name

    real, calls = module.run, []

    def run(*args, **kwargs):  # the third run (the second round of deals) comes back as Ctrl-C leaves it
        calls.append(1)
        res = real(*args, **kwargs)
        return dataclasses.replace(res, partial=True) if len(calls) == 3 else res

    monkeypatch.setattr(module, "run", run)
    a = advise(Position("9h ? ?", seat=2), rules=PEEK_ONE, rng=1, budget_seconds=None)
    assert a.partial and a.decision.partial and a.decision.rounds == 2 and len(calls) == 3
    calls.clear()
    assert main(ARGV + ["--no-progress"]) == 130
    assert "[PARTIAL: interrupted" in capsys.readouterr().out


def test_three_cards_of_one_rank_are_one_choice_played_on_the_default_deals():
    from cardodds.kana._defaults import DECISION_SAMPLES

    # nothing to decide: the options are measured on the fixed run's deals, and named as one choice
    a = advise(Position("7c 7d 7h", seat=1), rules=KanaRules(3, "peek-all"), rng=1)
    d = a.decision
    assert a.samples == DECISION_SAMPLES and d.planned_rounds == 1 and d.same == (0, 0, 0)
    assert a.worlds == (DECISION_SAMPLES,) * 3 and a.value[0] == a.value[1] == a.value[2]
    assert a.verdict == "känä 7c, 7d or 7h (the same by the rules)" and a.clearly_worse == []


def test_the_rounds_figures_agree_with_a_long_fixed_run():
    # each option's P(win) from its rounds against two million deals of another seed, within 4 standard errors
    a = advise(Position("7s 2h 3d", seat=0), rules=PEEK_ALL, policies="blind", rng=1, budget_seconds=None)
    ref = advise(Position("7s 2h 3d", seat=0), rules=PEEK_ALL, policies="blind", samples=2_000_000, rng=9)
    for e, r in zip(a.value, ref.value):
        assert abs(e.value - r.value) <= 4 * (e.se ** 2 + r.se ** 2) ** 0.5, (e, r)


@pytest.mark.parametrize("seat", [10**30, 17, -1, True, 1.0])
def test_a_seat_no_table_has_is_refused_at_once(seat):
    # a seat past any table once built a tuple of that many känäd cards (10**30: memory without end)
    with pytest.raises(ValueError, match=r"^seat=.*: my seat is my place in the känä order, a whole number from 0 "
                                         r"\(the starter\) to 16 \(a table seats 17 at most\)$"):
        Position("9h ? ?", seat=seat)
    assert Position("9h ? ?", seat=16).seat == 16
