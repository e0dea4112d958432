"""Känä's shape: the user policy takes the random state first, the package's verbs, the
shipped equilibrium tables are the report's."""

from pathlib import Path

import numpy as np
import pytest
from numba import njit

from cardodds import kana
from cardodds.kana import KanaRules, policies
from cardodds.kana.equilibrium import TABLES_FILE, ship, write_tables

ROOT = Path(__file__).resolve().parents[1]
PEEK_ONE = KanaRules(players=3, variant="peek-one")


@njit
def _state_first(state, seat, hand, peeked, kanad, n_kanad):
    return 0 if (hand[0] >> 2) + 2 <= 8 else 1


def _odds(policy, **kw):
    return kana.odds(rules=PEEK_ONE, policies=[policies.custom(policy, "peek-one")] * 3, samples=20_000, rng=4, **kw)


def test_the_state_comes_first_and_plays_like_the_table():
    new = _odds(_state_first)
    table = kana.odds(rules=PEEK_ONE, policies=[policies.threshold(8)] * 3, samples=20_000, rng=4)
    assert new.to_dict()["win"] == table.to_dict()["win"]


def test_trace_is_a_package_verb():
    t = kana.trace("blind", players=3, rounds=3, rng=1)
    # a round: three deals, three känäs, the winner
    assert t.game == "kana" and t.result["rounds"] == (3,) and len(t.to_frame()) == len(t.moves) == 21


def test_policy_actions_round_trip():
    t = kana.equilibrium.__module__  # the function, not the module, is kana.equilibrium
    assert t == "cardodds.kana.equilibrium"
    for p in (policies.threshold(8), policies.best_pair()):
        assert policies.from_actions(p.variant, p.actions(), "x") == p
    with pytest.raises(ValueError, match="no strategy table"):
        policies.blind().actions()


def test_the_shipped_tables_are_the_reports_byte_for_byte(tmp_path):
    report = ROOT / "reports" / "kana_equilibrium.json"
    shipped = ROOT / "cardodds" / "kana" / TABLES_FILE
    assert shipped.read_bytes() == report.read_bytes()
    # ...and the one writer reproduces them: ship() rewrites the shipped copy from the report
    import json

    again = write_tables(json.loads(report.read_text()), tmp_path / "written.json")
    assert again.read_bytes() == report.read_bytes()
    assert ship(report, tmp_path / "shipped.json").read_bytes() == shipped.read_bytes()


def test_bad_run_arguments_are_refused_before_running():
    for call in (lambda **kw: kana.session("blind", players=3, rounds=2, **kw),
                 lambda **kw: kana.session_table(3, rounds=2, max_iterations=1, **kw),
                 lambda **kw: kana.equilibrium("peek-one", 3, max_iterations=1, **kw),
                 lambda **kw: kana.expected_value("threshold:8", 3, **kw),
                 lambda **kw: kana.compare("threshold:8", "blind", players=3, variant="peek-one", **kw),
                 lambda **kw: kana.advise(kana.Position("9h ? ?"), rules=kana.KanaRules(3, "peek-one"), **kw),
                 lambda **kw: kana.strategy_table("peek-one", 3, **kw),
                 lambda **kw: kana.odds(3, **kw),
                 lambda **kw: kana.live_odds("0: 9h", 3, method="monte carlo", **kw)):
        for bad, match in ((dict(threads=-5), "threads=-5"), (dict(rng="x"), "rng='x'"),
                           (dict(samples=0), "samples=0"), (dict(rng=-1), "negative")):
            with pytest.raises(ValueError, match=match):
                call(**bad)
    with pytest.raises(ValueError, match="rng='x'"):
        kana.trace("blind", players=3, rounds=2, rng="x")
    assert np.isfinite(kana.session("blind", players=3, rounds=2, samples=20, rng=1).ev[0].value)


def test_a_strategy_table_is_seeded_from_the_root_of_its_seed():
    # The committed reports pass spawned SeedSequences; strategy_table has always seeded its
    # runs from their root (the spawn key dropped), and the reports rebuild byte for byte so.
    spawned = np.random.SeedSequence(5).spawn(2)[1]
    a = kana.strategy_table("peek-one", 2, opponents="blind", samples=5_000, rng=spawned)
    b = kana.strategy_table("peek-one", 2, opponents="blind", samples=5_000, rng=5)
    assert a.rows.equals(b.rows)


def test_the_table_questions_take_rules_as_compare_and_session_do():
    import inspect

    for f in (kana.strategy_table, kana.expected_value, kana.equilibrium, kana.session_table, kana.compare,
              kana.session):
        p = inspect.signature(f).parameters["rules"]
        assert p.kind is p.KEYWORD_ONLY and p.default is None, f.__name__
    two = KanaRules(players=2, variant="peek-one")
    a = kana.strategy_table(rules=two, opponents="blind", samples=5_000, rng=5)
    b = kana.strategy_table("peek-one", 2, opponents="blind", samples=5_000, rng=5)
    assert a.rows.equals(b.rows) and a.rules == b.rules
    fresh = KanaRules(players=2, variant="peek-one", tiebreak_deck="fresh")
    assert kana.strategy_table(rules=fresh, opponents="blind", samples=2_000, rng=5).rules == fresh
    ev = dict(opponents="blind", samples=20_000, rng=6)
    assert kana.expected_value("threshold:8", rules=KanaRules(players=4, variant="peek-one"), **ev) == \
        kana.expected_value("threshold:8", 4, "peek-one", **ev)
    assert kana.equilibrium(rules=PEEK_ONE, samples=5_000, rng=1, max_iterations=1) == \
        kana.equilibrium("peek-one", 3, samples=5_000, rng=1, max_iterations=1)
    st = dict(rounds=3, samples=100, rng=1, max_iterations=1)
    assert kana.session_table(rules=PEEK_ONE, **st).rows.equals(kana.session_table(3, **st).rows)
    # a players or variant that disagrees with rules= is refused, as compare and session refuse it
    for call in (lambda: kana.strategy_table("peek-all", rules=PEEK_ONE),
                 lambda: kana.strategy_table(players=4, rules=PEEK_ONE),
                 lambda: kana.expected_value("threshold:8", 4, rules=PEEK_ONE),
                 lambda: kana.equilibrium("peek-one", 4, rules=PEEK_ONE),
                 lambda: kana.session_table(4, rules=PEEK_ONE),
                 lambda: kana.session("blind", players=4, rules=PEEK_ONE)):
        with pytest.raises(ValueError, match="disagrees with rules"):
            call()
    with pytest.raises(ValueError, match="no decisions"):
        kana.strategy_table(rules=KanaRules(players=3))
    with pytest.raises(ValueError, match="peek-one tables"):
        kana.session_table(rules=KanaRules(players=3, variant="peek-all"))
