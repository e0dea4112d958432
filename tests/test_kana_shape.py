"""Känä's old names still work, with a DeprecationWarning, and give the same answers as the new
ones; the user policy's two argument orders; the shipped equilibrium tables are the report's."""

import warnings
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
def _new_order(state, seat, hand, peeked, kanad, n_kanad):
    return 0 if (hand[0] >> 2) + 2 <= 8 else 1


@njit
def _old_order(seat, hand, peeked, kanad, n_kanad, state):
    return 0 if (hand[0] >> 2) + 2 <= 8 else 1


@njit
def _old_order_other_names(p, h, k, seen, n, rs):
    return 0 if (h[0] >> 2) + 2 <= 8 else 1


def _odds(policy, **kw):
    return kana.odds(rules=PEEK_ONE, policies=[policies.custom(policy, "peek-one")] * 3, samples=20_000, rng=4, **kw)


def test_the_state_comes_first_and_plays_like_the_table():
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        new = _odds(_new_order)
    table = kana.odds(rules=PEEK_ONE, policies=[policies.threshold(8)] * 3, samples=20_000, rng=4)
    assert new.to_dict()["win"] == table.to_dict()["win"]


@pytest.mark.parametrize("fn", [_old_order, _old_order_other_names])
def test_the_old_order_still_works_with_a_warning(fn):
    # by the last argument's name, or (other names) because only the old order compiles
    with pytest.warns(DeprecationWarning, match="takes the random state last"):
        old = _odds(fn)
    assert old.to_dict()["win"] == _odds(_new_order).to_dict()["win"]


def test_compile_custom_is_compile_policy():
    from cardodds.kana import view

    with pytest.warns(DeprecationWarning, match="compile_custom is renamed compile_policy"):
        compile_custom = view.compile_custom
    assert compile_custom(_new_order) is view.compile_policy(_new_order)


def test_the_strategies_module_strategy_and_parse_strategy():
    import importlib
    import sys

    sys.modules.pop("cardodds.kana.strategies", None)
    with pytest.warns(DeprecationWarning, match="renamed cardodds.kana.policies"):
        old = importlib.import_module("cardodds.kana.strategies")
    assert old.threshold(8) == policies.threshold(8)
    with pytest.warns(DeprecationWarning, match="Strategy is renamed Policy"):
        assert old.Strategy is policies.Policy
    with pytest.warns(DeprecationWarning, match="parse_strategy is renamed parse_policy"):
        assert old.parse_strategy("threshold:8", "peek-one") == policies.parse_policy("threshold:8", "peek-one")


def test_the_strategies_keyword():
    new = kana.odds(rules=PEEK_ONE, policies=["threshold:8"] * 3, samples=5_000, rng=2)
    with pytest.warns(DeprecationWarning, match="strategies= is renamed policies="):
        old = kana.odds(rules=PEEK_ONE, strategies=["threshold:8"] * 3, samples=5_000, rng=2)
    assert old.to_dict() == new.to_dict()
    args = dict(players=3, variant="peek-one", rounds=5, samples=200, rng=3)
    with pytest.warns(DeprecationWarning, match="strategies= is renamed policies="):
        old = kana.session(strategies="threshold:8,blind,blind", **args)
    assert old.to_dict() == kana.session("threshold:8,blind,blind", **args).to_dict()
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError, match="policies= only"):
        kana.session("threshold:8,blind,blind", strategies="blind", **args)


def test_the_strategies_flag(capsys):
    import json

    from cardodds.cli import main

    argv = ["kana", "session", "--players", "3", "--rounds", "5", "--samples", "200", "--seed", "3", "--json"]
    assert main(argv + ["--policies", "threshold:8,blind,blind"]) == 0
    new = json.loads(capsys.readouterr().out)
    assert main(argv + ["--strategies", "threshold:8,blind,blind"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out) == new and "--strategies is renamed --policies" in err
    assert main(argv + ["--strategies", "blind", "--policies", "threshold:8"]) == 2
    text = _help(["kana", "session"])
    assert "--policies" in text and "--strategies" not in text


def _help(argv) -> str:
    import contextlib
    import io

    from cardodds.cli import main

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.suppress(SystemExit):
        main(argv + ["--help"])
    return buf.getvalue()


def test_moved_decisions_names_and_to_kernel():
    import importlib

    from cardodds.kana import decisions

    # the modules, not the functions of the same names the package serves
    advise, equilibrium = (importlib.import_module(f"cardodds.kana.{m}") for m in ("advise", "equilibrium"))
    for name, new in (("advise", advise.advise), ("equilibrium", equilibrium.equilibrium),
                      ("AdviceResult", advise.AdviceResult),
                      ("Advice", advise.AdviceResult)):
        with pytest.warns(DeprecationWarning, match=f"decisions.{name} moved to"):
            assert getattr(decisions, name) is new
    with pytest.warns(DeprecationWarning, match="to_kernel"):
        assert KanaRules(players=5).to_kernel() == (5, 0, 0, 0)


def test_trace_is_a_package_verb():
    t = kana.trace("blind", players=3, rounds=3, rng=1)
    assert t.game == "kana" and t.result["rounds"] == (3,) and len(t.to_frame()) == len(t.moves) == 12


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
                 lambda **kw: kana.advise(3, "peek-one", cards="9h ? ?", **kw),
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
