"""Känä decisions (docs/rules/kana.md §5): policies, comparisons, the advisor, strategy tables."""

import math

import numpy as np
import pytest
from numba import njit

from cardodds.kana import KanaRules, Position, advise, compare, equilibrium, odds, strategy_table
from cardodds.kana import policies as st
from cardodds.kana._advise import (
    PositionArrays, Posterior, advice_layout, advise_by_rejection, advise_worlds, posterior_tables, rejection_layout,
)
from cardodds.kana._kernels import _configs_loop, config_layout, play_configs
from cardodds.cards import parse_cards
from cardodds.engine import run
from cardodds.stats import Estimate

from .conftest import assert_within_4se


OFFICIAL = KanaRules(4, "official")


# --- strategies as data -------------------------------------------------------------------


def test_peek_one_tables():
    t = st.threshold(7)
    assert [t.kanas(c) for c in ("2c", "7d", "8h", "As")] == [True, True, False, False]
    assert not st.threshold(1).kanas("2c")
    r = st.kana_ranks("2-4, A")
    assert r.kanas("Ah") and r.kanas("3c") and not r.kanas("5c")


def test_peek_one_reacts_to_what_it_has_seen():
    s = st.kana_ranks({None: "2-7", "K": "2-9"})
    assert not s.kanas("9h") and not s.kanas("9h", seen="5c 7d")
    assert s.kanas("9h", seen="Kd 3c")  # the highest känäd card so far is a king


def test_peek_all_strategies():
    assert st.best_pair().choose("2c 2d Ah") == "Ah"  # Superkänä first
    assert st.highest_sum().choose("2c 2d Ah") == "2c"  # keeps 2 + A = 16
    assert st.best_pair().choose("9c Kd 5h") == "5h"
    assert st.kana_highest().choose("9c Kd 5h") == "Kd"
    assert st.random_kana().choose("9c Kd 5h") == "?"
    assert len(st.combos()) == 455


@pytest.mark.parametrize("spec,variant,message", [
    ("threshold:x", "peek-one", "threshold:V"),
    ("threshold:20", "peek-one", "card value 1..14"),
    ("best-pair", "peek-one", "is for peek-all"),
    ("threshold:7", "official", "is for peek-one"),
    ("psychic", "peek-one", "policy 'psychic' is not known"),
    ("kana:2-Z", "peek-one", "rank 'Z' is not known"),
    ("kana:9-2", "peek-one", "runs backwards"),
])
def test_bad_strategies(spec, variant, message):
    with pytest.raises(ValueError, match=message):
        st.parse_policy(spec, variant)


@njit(cache=True)
def _custom_threshold8(state, seat, hand, peeked, kanad, n_kanad):
    return 0 if (hand[0] >> 2) + 2 <= 8 else 1


def test_custom_decision_function_plays_like_the_same_table():
    rules = KanaRules(players=3, variant="peek-one")
    a = odds(rules=rules, policies=[st.custom(_custom_threshold8, "peek-one")] * 3, samples=30_000, rng=4)
    b = odds(rules=rules, policies=[st.threshold(8)] * 3, samples=30_000, rng=4)
    assert a.to_dict()["win"] == b.to_dict()["win"]


@njit
def _custom_keep_aces(state, seat, hand, peeked, kanad, n_kanad):
    return 1 if (hand[0] >> 2) == 12 else 0


def test_a_custom_strategy_does_not_recompile_the_kernels():
    rules = KanaRules(players=3, variant="peek-one")
    odds(rules=rules, policies=[st.threshold(8)] * 3, samples=200, rng=4)
    before = len(_configs_loop.signatures)
    odds(rules=rules, policies=[st.custom(_custom_threshold8, "peek-one")] * 3, samples=200, rng=4)
    odds(rules=rules, policies=[st.custom(_custom_keep_aces, "peek-one"), st.threshold(8), st.threshold(8)],
         samples=200, rng=4)
    # the built-in run, and both custom functions, share the one compilation of the kernel
    assert len(_configs_loop.signatures) == before
    from cardodds.kana.view import compile_policy
    assert compile_policy(_custom_keep_aces) is compile_policy(_custom_keep_aces)


def test_a_custom_strategy_of_the_wrong_signature_is_a_value_error_naming_it():
    @njit
    def two_arguments(seat, hand):
        return 0

    with pytest.raises(ValueError, match=r"two_arguments.*does not compile as decide\(state, seat, hand, peeked, "
                                         r"kanad, n_kanad\) -> position"):
        odds(rules=KanaRules(players=3, variant="peek-one"),
             policies=[st.custom(two_arguments, "peek-one")] * 3, samples=10, rng=1)
    with pytest.raises(ValueError, match="@njit"):
        st.custom(lambda *a: 0, "peek-one")


# --- playing strategies: invariants, official equality --------------------------------


def test_play_configs_invariants(chunk):
    n, C = 4, 2
    configs = [[st.threshold(8)] * n, [st.threshold(8)] * n]
    configs[1][2] = st.threshold(1)
    table, custom = st.pack_lineups(configs, n)
    layout = config_layout(n, C, 13)
    out = layout.zeros()
    play_configs(chunk(), 5000, out, KanaRules(players=n, variant="peek-one").pack(), layout.offsets_array(), table,
                 2, custom)
    v = layout.view(out)
    assert v.deals.sum() == 5000  # one focal key a deal
    wins = v.wins.reshape(C, n)
    assert (wins.sum(axis=1) == 5000).all()  # one winner a deal
    assert (v.hand_value.reshape(C, 25).sum(axis=1) == 5000).all()
    fw = v.focal_wins.reshape(C, 13).sum(axis=1)
    assert fw.tolist() == wins[:, 2].tolist()  # focal wins = seat 2's wins
    assert fw[0] - fw[1] == v.plus.sum() - v.minus.sum()  # pairing adds up


@pytest.mark.parametrize("a,b,seat", [("blind-first", "blind-third", 1), ("blind", "blind-second", 0),
                                      ("blind-first", "blind-second", 3)])
def test_official_rules_every_choice_is_equal(a, b, seat):
    c = compare(a, b, seat=seat, players=4, samples=200_000, rng=seat)
    assert c.rules.variant == "official"
    assert c.difference.contains_zero() and c.better is None
    assert "no difference at this precision" in c.verdict
    assert_within_4se(c.win_a, 0.25)


def test_official_odds_with_strategies_match_exact():
    r = odds(rules=KanaRules(players=3), policies=["blind-first", "blind", "blind-third"], samples=200_000, rng=9)
    for w in r.win:
        assert_within_4se(w, 1 / 3)


def test_peeking_pays_and_is_measured_paired():
    c = compare("threshold:8", "blind", seat=1, players=4, samples=100_000, rng=1)
    assert c.rules.variant == "peek-one" and c.better == "threshold(8)"
    assert c.difference.lo > 0.05
    c = compare("best-pair", "kana-highest", seat=0, players=3, samples=50_000, rng=1)
    assert c.better == "best-pair"


def test_compare_reaches_its_precision():
    c = compare("threshold:8", "threshold:9", seat=2, players=4, target_halfwidth=0.004, rng=3)
    assert c.difference.halfwidth <= 0.004


# --- the advisor: conditioning on what was känäd -------------------------------------------


def _advice_counts(kernel, rules, seat, cards, kanad, opponents, samples, rng):
    n = rules.players
    mine = parse_cards(cards, allow_unknown=True)
    kanad_arr = np.full(n, -1, np.int64)
    for s, c in kanad.items():
        kanad_arr[s] = parse_cards(c)[0]
    table, custom = st.pack_lineups([opponents], n)
    known = {c for c in mine if c >= 0} | {int(c) for c in kanad_arr if c >= 0}
    pool = np.array([c for c in range(52) if c not in known], np.int64)
    opts = np.array([0, 1] if rules.variant == "peek-one" else [0, 1, 2], np.int64)
    C = len(opts)
    if kernel is advise_worlds:
        post = Posterior(*posterior_tables(n, seat, kanad_arr, pool, table))
        lay = advice_layout(C)
        r = run(advise_worlds, (rules.pack(), lay.offsets_array(), table,
                                PositionArrays(seat, np.array(mine, np.int64), kanad_arr, opts, pool), post, custom),
                lay.size, samples=samples, rng=rng)
        return r.counts[lay.slice("wins")], r.samples
    # The twin deals the känäd cards too: only my own known cards are out of its deck.
    deck = np.array([c for c in range(52) if c not in set(mine)], np.int64)
    lay = rejection_layout(C)
    r = run(advise_by_rejection, (rules.pack(), lay.offsets_array(), table,
                                  PositionArrays(seat, np.array(mine, np.int64), kanad_arr, opts, deck), custom),
            lay.size, samples=samples, rng=rng)
    return r.counts[lay.slice("wins")], lay.view(r.counts).accepted


CONDITIONING_CASES = [
    # peek-one, thresholds: a känäd king was not peeked, so that player kept a card above 8
    (KanaRules(players=4, variant="peek-one"), 1, "9h ? ?", {0: "Kd"}, [st.threshold(8)] * 4),
    # a low känäd card may have been peeked and thrown away, or not
    (KanaRules(players=3, variant="peek-one"), 1, "Jh ? ?", {0: "4c"}, [st.threshold(8)] * 3),
    # a strategy that reacts to what it saw: seat 1's känä depends on seat 0's, unseen by me
    (KanaRules(players=4, variant="peek-one"), 2, "Th ? ?", {1: "9d"},
     [st.kana_ranks({None: "2-7", "Q": "2-10", "K": "2-10", "A": "2-10"})] * 4),
    # peek-all: a känäd 6 says the player's other two cards are 6 or higher (or two 2s)
    (KanaRules(players=3, variant="peek-all"), 1, "7c 9d Jh", {0: "6s"}, [st.best_pair()] * 3),
]


@pytest.mark.parametrize("rules,seat,cards,kanad,opponents", CONDITIONING_CASES)
def test_conditioning_matches_rejection_sampling(rules, seat, cards, kanad, opponents):
    fast, n_fast = _advice_counts(advise_worlds, rules, seat, cards, kanad, opponents, 100_000, 1)
    slow, n_slow = _advice_counts(advise_by_rejection, rules, seat, cards, kanad, opponents, 3_000_000, 2)
    assert n_slow > 10_000
    for f, s in zip(fast, slow):
        pf, ps = f / n_fast, s / n_slow
        se = math.sqrt(pf * (1 - pf) / n_fast + ps * (1 - ps) / n_slow)
        assert abs(pf - ps) <= 4 * se, (pf, ps, se)


def test_conditioning_changes_the_answer():
    # Against threshold(8) players a känäd king means that player kept a card above 8:
    # my chances drop compared with a känäd 5, which is the peeked card thrown away.
    base = dict(policies=[st.threshold(8)] * 4, rules=KanaRules(4, "peek-one"), samples=200_000, rng=5)
    low = advise(Position("9h ? ?", seat=1, kanad="5c"), **base)
    high = advise(Position("9h ? ?", seat=1, kanad="Kc"), **base)
    assert high.value[1].hi < low.value[1].lo


def test_advice_on_a_hand_built_deal():
    # Seat 0 plays best-pair and känäd a king: its kept pair beats anything with a king,
    # so my 2 + A = 16 can never win; keeping my two 2s (a Superkänä) nearly always does.
    a = advise(Position("2c 2d Ah", seat=1, kanad="Kd"), policies=[st.best_pair()] * 3,
               rules=KanaRules(3, "peek-all"), samples=50_000, rng=1)
    wins = dict(zip(a.options, a.value))
    assert wins["2c"].value == 0.0 and wins["2d"].value == 0.0
    assert a.best == "Ah" and a.difference(a.best_index, 0).lo > 0.9 and a.difference(2, 1).lo > 0.9


def test_official_advice_names_no_winner():
    # the three unseen cards are one choice by the rules: the verdict names them together, none loses
    a = advise(Position("? ? ?", seat=2), rules=OFFICIAL, samples=200_000, rng=1)
    assert a.options == ("1st card", "2nd card", "3rd card") and a.clearly_worse == []
    assert a.decision.same == (0, 0, 0) and a.decision.group == (0, 1, 2) and a.worlds == (200_000,) * 3
    assert a.verdict == "känä 1st card, 2nd card or 3rd card (the same by the rules)"
    assert all(a.difference(0, j).contains_zero() for j in (1, 2))  # measured on the deals: no difference either


def test_official_advice_with_default_size_is_exact_and_agrees_with_monte_carlo():
    exact = advise(Position(seat=2, kanad="5c Kd"), rules=OFFICIAL)
    assert exact.samples == 0 and exact.best is None and exact.difference(0, 1).value == 0
    assert exact.difference(1, 2).exact and exact.verdict == "every card scores the same on these deals"
    assert [e.value for e in exact.value] == [0.25] * 3
    mc = advise(Position(seat=2, kanad="5c Kd"), rules=OFFICIAL, samples=200_000, rng=3)
    for e, m in zip(exact.value, mc.value):
        assert_within_4se(m, e.value)
    # an explicit run size still samples
    assert advise(Position(seat=1), policies="blind", rules=OFFICIAL, samples=1000, rng=1).samples == 1000


def test_advice_at_precision_and_json():
    a = advise(Position("8h ? ?"), policies="blind", rules=KanaRules(4, "peek-one"), target_halfwidth=0.003, rng=2)
    assert a.difference(0, 1).halfwidth <= 0.003
    d = a.to_dict()
    assert d["position"] == {"seat": 0, "hand": "8h ? ?"}
    assert [o["option"] for o in d["options"]] == ["8h", "?"] and d["unit"] == "P(win)"
    assert set(d["options"][1]["versus_best"]) == {"value", "se", "lo", "hi"}
    assert d["command"] == '--seat 0 --hand "8h ? ?"'
    assert d["best"] in (None, "8h", "?")


@pytest.mark.parametrize("kwargs,message", [
    (dict(variant="peek-one", seat=1, hand="9h ? ?", kanad="9h"), "both in my hand and among the känäd"),
    (dict(variant="peek-one", seat=1, hand="9h Kd ?"), "peeked one"),
    (dict(variant="peek-one", seat=1, hand="9h ? ? ?"), "a hand holds 3 cards"),
    (dict(variant="official", seat=1, hand="9h ? ?"), "nobody may look"),
    (dict(variant="peek-all", seat=1, hand="9h ? ?"), "seen all three"),
    (dict(variant="peek-one", seat=4, hand="9h ? ?"), "seat 4 does not exist"),
    (dict(variant="peek-one", seat=-1, hand="9h ? ?"), "seat=-1"),
    (dict(variant="peek-one", seat=1, hand="9h ? ?", kanad="5c 6c"), "only the 1 seat"),
    (dict(variant="peeking", seat=1, hand="9h ? ?"), "variant='peeking'"),
    (dict(variant="peek-one", seat=1, hand="9h ? ?", policies="psychic"), "not known"),
])
def test_advice_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        variant, policies = kwargs.pop("variant"), kwargs.pop("policies", "table")
        advise(Position(**kwargs), policies=policies, rules=KanaRules(4, variant), samples=1000, rng=1)


def test_advice_asks_for_a_position():
    with pytest.raises(ValueError, match="give a cardodds.kana.Position"):
        advise("9h ? ?", samples=1000)  # type: ignore[arg-type]


# --- strategy tables and the equilibrium ---------------------------------------------------


def test_equilibrium_is_a_fixed_point():
    s, iterations, converged = equilibrium("peek-one", 3, samples=60_000, rng=1)
    assert converged and iterations >= 1
    again, it2, conv2 = equilibrium("peek-one", 3, samples=60_000, rng=2, start=s)
    # On fresh deals a best response to the table changes nothing the paired difference can see.
    assert conv2 and it2 == 1 and again == s
    assert s.kanas("2c") and not s.kanas("Ac")  # throw a 2 away, keep an ace


def test_strategy_table_rows_and_json():
    t = strategy_table("peek-one", 2, opponents="blind", samples=60_000, rng=3)
    assert list(t.rows.index) == ["2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A"]
    assert t.rows.loc["2", "action"] == "känä" and t.rows.loc["A", "action"] == "keep"
    assert t.win_vs_blind.lo > 0.5  # peeking beats a blind opponent
    d = t.to_dict()
    assert len(d["rows"]) == 13 and set(d["win"]) == {"value", "se", "lo", "hi"}
    assert d["ev_vs_blind"]["value"] == pytest.approx(2 * d["win_vs_blind"]["value"] - 1)


def test_peek_all_table_keeps_superkana():
    t = strategy_table("peek-all", 3, opponents="blind", samples=200_000, rng=4)
    assert len(t.rows) == 455
    assert t.rows.loc["22A", "action"] == "high"  # känä the ace, keep two 2s
    assert t.rows.loc["KAA", "action"] == "low"


def test_table_bad_input():
    with pytest.raises(ValueError, match="2..8 players"):
        strategy_table("peek-one", 9, samples=1000)
    with pytest.raises(ValueError, match="no decisions to tabulate"):
        strategy_table("official", 4, samples=1000)
    with pytest.raises(ValueError, match="opponents="):
        strategy_table("peek-one", 4, opponents="strong", samples=1000)


def test_shipped_equilibrium_tables_load():
    from cardodds.kana.equilibrium import _shipped, table_strategy

    shipped = _shipped()
    assert sorted(shipped) == sorted(f"{v}/{n}" for v in ("peek-one", "peek-all") for n in range(2, 9))
    for n in range(2, 9):
        entry = shipped[f"peek-one/{n}"]
        assert len(entry["actions"]) == 13 and entry["converged"]
        s = table_strategy("peek-one", n)
        assert s.kanas("2c") and not s.kanas("As")
        assert len(shipped[f"peek-all/{n}"]["actions"]) == 455
        assert table_strategy("peek-all", n).choose("2c 2d Ah") == "Ah"  # Superkänä


def test_built_tables_are_the_tables_table_strategy_would_compute(tmp_path):
    """The built file holds exactly what ``table_strategy`` computes when nothing is shipped
    (TABLE_SAMPLES rounds a step, TABLE_SEED), and a fresh build of the smallest table gives
    its entry byte for byte; the report's tables and the built ones never overlap."""
    import importlib
    import json
    from pathlib import Path

    from cardodds.kana.equilibrium import (
        BUILT_FILE, TABLE_SAMPLES, TABLE_SEED, TABLES_FILE, _read, _table_equilibrium, build_table, write_built,
    )

    built, report = _read(BUILT_FILE), _read(TABLES_FILE)
    assert sorted(built) == [f"peek-all/{n}" for n in (2, 5, 6, 7, 8)] and not set(built) & set(report)
    for key, entry in built.items():
        variant, n = key.split("/")
        s, iterations, converged = _table_equilibrium(variant, int(n), None, False)
        assert (entry["actions"], entry["iterations"], entry["converged"]) == (s.actions().tolist(), iterations,
                                                                                converged), key
        assert (entry["samples"], entry["seed"]) == (TABLE_SAMPLES, TABLE_SEED)
        assert len(entry["rows"]["deals"]) == 455 and sum(entry["rows"]["deals"]) == entry["rows"]["samples"]
    assert build_table("peek-all", 2) == built["peek-all/2"]
    shipped = Path(importlib.import_module("cardodds.kana.equilibrium").__file__).with_name(BUILT_FILE)
    assert write_built(json.loads(shipped.read_text()), tmp_path / "again.json").read_bytes() == shipped.read_bytes()


def test_the_build_command_writes_the_shipped_entry_and_refuses_the_reports_tables(tmp_path, capsys):
    import json

    from cardodds.kana.equilibrium import BUILT_FILE, _read, main

    out = tmp_path / "built.json"
    main(["--build", "peek-all", "2", "--out", str(out), "--threads", "1"])
    assert capsys.readouterr().out == f"wrote {out}\n"
    assert json.loads(out.read_text()) == {"peek-all/2": _read(BUILT_FILE)["peek-all/2"]}
    with pytest.raises(ValueError, match="peek-all/4: built by `cardodds report --section kana`"):
        main(["--build", "peek-all", "2,4", "--out", str(out)])


def test_a_built_table_gives_the_rows_strategy_table_would_from_its_counts():
    from cardodds.kana.equilibrium import BUILT_FILE, _read, built_table

    assert built_table("peek-one", 4) is None and built_table("peek-all", 4) is None  # the report's
    t = built_table("peek-all", 5)
    entry = _read(BUILT_FILE)["peek-all/5"]
    assert (t.players, t.samples, t.rows_samples) == (5, 400_000, 2_000_000)
    keys = ["".join(c) for c in st.combos()]
    assert [r[0] for r in t.rows] == keys
    assert [r[1] for r in t.rows] == [("low", "middle", "high")[a] for a in entry["actions"]]
    r = entry["rows"]
    for k in (0, 1, 200, 454):
        a = entry["actions"][k]
        assert t.rows[k][2] == Estimate.proportion(r["wins"][a][k], r["deals"][k])
        others = [c for c in range(3) if c != a]
        nxt = max(others, key=lambda c: r["wins"][c][k])
        margin = t.rows[k][3]
        assert margin.value == pytest.approx((r["wins"][a][k] - r["wins"][nxt][k]) / r["deals"][k])
    assert t.rows[keys.index("AAA")][2].value > 0.8  # the best hand wins most of the time


def test_expected_value_in_antes():
    from cardodds.kana import expected_value

    # Blind against blind: every seat wins 1/n, so the expected gain is zero.
    ev = expected_value("blind", 4, "official", opponents="blind", samples=200_000, rng=1)
    assert ev.contains(0.0)
    assert_within_4se(ev.scaled(0.25, 0.25), 0.25)  # back to a win rate
    ev = expected_value("best-pair", 3, opponents="blind", samples=100_000, rng=2)
    assert ev.lo > 0.3


# --- the advisor's inputs, one checker per form ---------------------------------------------


def test_kanad_cards_in_every_form_mean_the_same():
    want = {0: parse_cards("5c")[0], 1: parse_cards("Kd")[0]}
    for kanad in ("5c Kd", ["5c", "Kd"], ("5c", "Kd"), {0: "5c", 1: "Kd"}, {1: want[1], 0: "5c"}):
        assert Position("9h ? ?", seat=2, kanad=kanad).kanad_by_seat == want
    p = Position("9h ? ?", seat=2, kanad="? Kd")
    assert p.kanad_by_seat == {1: want[1]} and p.kanad == (-1, want[1])
    assert Position("9h ? ?", seat=2, kanad="").kanad == (-1, -1) == Position("9h ? ?", seat=2).kanad
    with pytest.raises(ValueError, match="seat 2, but only the 2 seat"):
        Position("9h ? ?", seat=2, kanad={2: "5c"})
    with pytest.raises(ValueError, match="both in my hand"):
        Position("9h ? ?", seat=2, kanad="9h")
    with pytest.raises(ValueError, match="peeked one, written first"):
        advise(Position("? 9h ?", seat=2), rules=KanaRules(4, "peek-one"), samples=1000)


def test_a_position_is_printed_back_in_the_command_lines_words():
    p = Position("9h ? ?", seat=2, kanad={1: "Kd"})
    assert str(p) == '--seat 2 --hand "9h ? ?" --kanad "? Kd"'
    assert repr(p) == "Position('9h ? ?', seat=2, kanad='? Kd')"
    assert Position(**p.to_dict()) == p and eval(repr(p)) == p
    assert str(Position()) == '--seat 0 --hand "? ? ?"'


@pytest.mark.parametrize("threads", [-5, "x"])
def test_every_decision_function_checks_threads(threads):
    with pytest.raises(ValueError, match="positive whole number"):
        compare("threshold:8", "blind", samples=1000, threads=threads)
    with pytest.raises(ValueError, match="positive whole number"):
        advise(Position("9h ? ?", seat=1), policies="blind", rules=KanaRules(4, "peek-one"), samples=1000,
               threads=threads)
    with pytest.raises(ValueError, match="positive whole number"):
        strategy_table("peek-one", 3, samples=1000, threads=threads)


def test_decision_results_share_the_protocol():
    from cardodds.results import Result

    c = compare("threshold:8", "blind", seat=1, samples=20_000, rng=1)
    a = advise(Position("9h ? ?", seat=1), policies="blind", rules=KanaRules(4, "peek-one"), samples=20_000, rng=1)
    for r in (c, a):
        assert isinstance(r, Result) and type(r).__name__.endswith("Result")
        assert r.to_dict()["samples"] == 20_000 and len(r.to_frame()) >= 2 and r.counts is not None
    import matplotlib

    matplotlib.use("Agg")
    assert c.plot() is not None and a.plot() is not None


def test_a_position_is_looked_up_in_the_strategy_table():
    one = strategy_table("peek-one", 3, opponents="blind", samples=20_000, rng=1)
    assert one.lookup(Position("2h ? ?", seat=1)) == ("2", "känä", "2h")  # a peeked 2: känä it
    assert one.lookup(Position("Ah ? ?", seat=1)) == ("A", "keep", "?")  # a peeked ace: keep it
    assert one.lookup(Position("Ah ? ?"))[1] == one.rows.loc["A", "action"]
    every = strategy_table("peek-all", 3, opponents="blind", samples=20_000, rng=1)
    assert every.lookup(Position("Ah 2c 2d", seat=1)) == ("22A", "high", "Ah")  # keep the Superkänä
    with pytest.raises(ValueError, match="in peek-one I know one card"):
        one.lookup(Position("Ah Kd 2c"))
