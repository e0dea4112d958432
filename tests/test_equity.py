"""Game equity tables (cardodds.equity, kanalje.equity, canasta.equity): the solver against exact
races, each game's table against whole games simulated from 20 scores (4 standard errors), the
table's own properties, the same figures on 1 and 2 threads and on two Dask workers, the cache,
and bad scores refused in one line."""

from __future__ import annotations

import importlib
import math
import os
import subprocess
import sys

import numpy as np
import pytest

from cardodds import equity as eq
from cardodds.canasta import CanastaRules
from cardodds.canasta.play import game as canasta_game
from cardodds.kanalje import KanaljeRules
from cardodds.kanalje.play import game as kanalje_game

# the modules (the packages' attribute ``equity`` is the function of the same name)
keq = importlib.import_module("cardodds.kanalje.equity")
ceq = importlib.import_module("cardodds.canasta.equity")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def _cache(tmp_path_factory, monkeypatch):
    """Every test's tables cached in one folder of its own (never the user's)."""
    monkeypatch.setenv("CARDODDS_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "equity-cache"))


def _race(a: int, b: int, p: float) -> float:
    """P(the first to need ``a`` more points wins a race against ``b`` more, each point its with ``p``)."""
    return sum(math.comb(a - 1 + k, k) * p ** a * (1 - p) ** k for k in range(b))


#: The solver's tests' tables: a race of coins, measured under nothing else.
COIN = eq.Measured("coin")


# ---- the solver ------------------------------------------------------------------------------------
def test_a_race_of_fair_coins_is_the_negative_binomial():
    t = eq.build(COIN, np.array([[1, 0], [0, 1]]), np.array([1, 1]), lo=0, step=1, target=6, rng=1, bootstrap=0)
    for x in [(0, 0), (3, 1), (5, 0), (1, 5), (4, 4)]:
        v, _ = t.at(x)
        assert v[0] == pytest.approx(_race(6 - x[0], 6 - x[1], 0.5), abs=1e-12)
        assert v.sum() == pytest.approx(1.0, abs=1e-12)


def test_the_leader_biased_race_alternates_the_frame():
    # the leader of each deal scores with 0.7: from (0, 0) seat 0 leads deals 1, 3, 5...
    t = eq.build(COIN, np.array([[1, 0], [0, 1]]), np.array([7, 3]), lo=0, step=1, target=2, rng=1, bootstrap=0)
    # deal 1: seat 0 leads; deal 2: seat 1 leads; deal 3: seat 0 leads
    p00 = 0.7 * (0.3 + 0.7 * 0.7) + 0.3 * (0.3 * 0.7)  # 0 wins: +,+ | +,-,+ | -,+,+
    assert t.at((0, 0))[0][0] == pytest.approx(p00, abs=1e-12)


def test_a_won_score_is_one_and_a_tie_at_the_top_plays_on():
    # every deal gives the leader 2 and the other 0: from (2, 3) to 4, the leader (seat 0) reaches 4
    t = eq.build(COIN, np.array([[2, 0]]), np.array([1]), lo=0, step=1, target=4, rng=1, bootstrap=0)
    assert t.at((2, 3))[0][0] == 1.0
    # from (2, 2): seat 0 reaches 4 first and wins; from a tie at (4, 4) the leader wins at 6
    assert t.at((2, 2))[0][0] == 1.0 and t.at((4, 4))[0][0] == 1.0
    # (3, 4) is over: seat 1 has reached 4 alone at the top (no equity: refused)
    with pytest.raises(ValueError, match="outside the table"):
        t.at((3, 4))
    assert t.at((3, 3))[0][0] == 1.0


def test_value_iteration_of_two_sides_matches_the_sweeps():
    """A hand can lower the totals (cycles): the FFT value iteration and Gauss-Seidel sweeps agree."""
    from cardodds._equity import sweep

    rng = np.random.default_rng(3)
    offs = np.array([[a, b] for a in range(-2, 5) for b in range(-2, 5)])
    prob = rng.random(len(offs))
    prob /= prob.sum()
    size, target = 16, 10
    w, sweeps, change = eq._solve(offs, prob, 2, size, target)
    assert sweeps > 1 and change <= eq.TOL
    free = eq._open_mask(2, size, target)
    idx = np.flatnonzero(free)
    coords = np.indices((size, size)).reshape(2, -1)
    order = idx[np.argsort(-coords[:, idx].sum(axis=0), kind="stable")].astype(np.int64)
    g = np.full((size * size, 2), 0.5)
    sweep(g, order, offs.astype(np.int64), prob, 2, 0, size, target, 5000, 1e-12)
    assert np.nanmax(np.abs(w[:, free] - g.T[:, free])) < 1e-5
    assert np.allclose(w[0, free] + w[1, free], 1.0)


def test_reachable_sums():
    assert eq.reachable(0, [7, 8]) and eq.reachable(15, [7, 8]) and not eq.reachable(13, [7, 8])
    assert not eq.reachable(4, [3]) and eq.reachable(9, [3])


# ---- Kanalje ---------------------------------------------------------------------------------------
K_DEALS = 200_000
K_SEED = 5


def _k_table(players):
    return keq.table(KanaljeRules(players=players), samples=K_DEALS, rng=K_SEED, threads=2)


def _starts(players):
    rng = np.random.default_rng(players)
    out = []
    while len(out) < 20:
        s = [int(v) for v in rng.integers(-4, 21, players)]
        if players == 3 and not eq.reachable(sum(s), [7, 8, 9, 10, 11]):
            continue
        if players == 2 and sum(s) % 3:
            continue
        out.append((tuple(s), int(rng.integers(players))))
    return out


@pytest.mark.parametrize("players", [3, 2])
def test_kanalje_table_against_whole_games(players):
    rules = KanaljeRules(players=players)
    for k, (score, dealer) in enumerate(_starts(players)):
        e = keq.equity(score, rules=rules, dealer=dealer, samples=K_DEALS, rng=K_SEED)
        g = kanalje_game(rules=rules, score=score, dealer=dealer, samples=1500, rng=100 + k, threads=2)
        assert g.unfinished == 0
        for s in range(players):
            # the games' binomial error at the table's value (the test of "the table is right"): a
            # chance of 0.4% seen once in 1,500 games has a Wald error a sixth of the true one
            p = e.win[s].value
            se = math.hypot(e.win[s].se, math.sqrt(max(p * (1 - p), 1e-4) / g.samples))
            assert abs(p - g.win[s].value) <= 4 * se, (score, dealer, s, e.win[s], g.win[s])


@pytest.mark.parametrize("players", [3, 2])
def test_kanalje_table_properties(players):
    t = _k_table(players)
    free = ~np.isnan(t.value[0])
    # each seat's chance is kept to the nearest 1/65535 (EquityTable.save): their sum to within half that a seat
    assert np.abs(t.value[:, free].sum(axis=0) - 1.0).max() <= players * 0.5 / 65535 + 1e-12
    # symmetry: the same deal with every seat moved one on (and the dealer too) moves the equities with them
    rules = KanaljeRules(players=players)
    score = (12, 17, 5)[:players] if players == 3 else (12, 18)
    a = keq.equity(score, rules=rules, dealer=0, samples=K_DEALS, rng=K_SEED)
    moved = tuple(score[(s - 1) % players] for s in range(players))
    b = keq.equity(moved, rules=rules, dealer=1 % players, samples=K_DEALS, rng=K_SEED)
    for s in range(players):
        assert b.win[(s + 1) % players].value == a.win[s].value
    # monotone in one's own score: a point more never lowers the chance (within 4 standard errors)
    v = t.value[0].reshape((t.size,) * players)
    se = t.se[0].reshape((t.size,) * players)
    d = v[1:] - v[:-1]
    s = np.hypot(se[1:], se[:-1])
    ok = ~np.isnan(d)
    assert ok.sum() > 100 and (d[ok] >= -4 * s[ok] - 1e-12).all()


def test_kanalje_same_figures_on_one_and_two_threads():
    rules = KanaljeRules(players=2)
    a = keq._build(rules, 30_000, 9, 1, False)
    b = keq._build(rules, 30_000, 9, 2, False)
    assert np.array_equal(a.counts, b.counts) and np.array_equal(a.offsets, b.offsets)
    assert np.array_equal(a.value, b.value, equal_nan=True) and np.array_equal(a.se, b.se, equal_nan=True)


def test_kanalje_same_figures_on_two_dask_workers():
    distributed = pytest.importorskip("distributed")
    import logging

    import cardodds

    rules = KanaljeRules(players=2)
    here = keq._build(rules, 8_192 * 3, 9, 2, False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, distributed.Client(cluster) as c, \
            cardodds.backend(c):
        there = keq._build(rules, 8_192 * 3, 9, 2, False)
    assert np.array_equal(here.counts, there.counts)
    assert np.array_equal(here.value, there.value, equal_nan=True)


def test_kanalje_deal_totals_and_the_refusals():
    rules = KanaljeRules()
    t = _k_table(3)
    assert sorted(set(t.offsets.sum(axis=1).tolist())) == [7, 8, 9, 10, 11]  # 7 and a dead turned jack's penalty
    assert set(_k_table(2).offsets.sum(axis=1).tolist()) == {3}  # 13 tricks less every jack
    kw = dict(rules=rules, samples=K_DEALS, rng=K_SEED)
    for bad, words in [((21, 17, 5), "the game is over"), ((12, 17), "3 players"), ((12, 17, 5, 1), "3 players"),
                       ((1, 2, 3), "no game reaches a score sum of 6"), ((12, 13, "x"), "whole total"),
                       ((-30, 30, 7), "the game is over"), ((-30, 20, 17), "outside the equity table")]:
        with pytest.raises(ValueError, match=words):
            keq.equity(bad, **kw)
    with pytest.raises(ValueError, match="dealer"):
        keq.equity((12, 17, 5), dealer=3, **kw)
    with pytest.raises(ValueError, match="target"):
        keq.equity((0, 0, 0), rules=KanaljeRules(target=1000), samples=10, rng=1)
    # a tie at the top past the target plays on: a valid score
    assert 0 < keq.equity((22, 22, 10), **kw).win[0].value < 1


def test_kanalje_shipped_table_answers():
    r = keq.equity([12, 17, 5])
    assert r.table.source == "shipped" and r.policies == "heuristic"
    assert r.win[1].value > r.win[0].value > r.win[2].value
    assert sum(e.value for e in r.win) == pytest.approx(1.0)
    d = r.to_dict()
    assert d["question"] == "equity" and d["score"] == [12, 17, 5] and len(d["win"]) == 3
    assert "seat 1 (17)" in repr(r) and list(r.to_frame().columns) == ["score", "win", "lo", "hi", "se"]
    r2 = keq.equity([12, 18], rules=KanaljeRules(players=2))
    assert r2.table.source == "shipped" and r2.win[1].value > 0.5


# ---- Canasta ---------------------------------------------------------------------------------------
C_RULES = CanastaRules(target=3000)
C_HANDS = 30_000


def test_canasta_table_against_whole_games():
    rng = np.random.default_rng(7)
    starts = [((int(a) * 5, int(b) * 5), int(d)) for a, b, d in
              zip(rng.integers(-100, 590, 20), rng.integers(-100, 590, 20), rng.integers(0, 2, 20))]
    for k, (score, dealer) in enumerate(starts):
        e = ceq.equity(score, rules=C_RULES, dealer=dealer, samples=C_HANDS, rng=3)
        g = canasta_game(rules=C_RULES, score=score, dealer=dealer, samples=300, rng=200 + k, threads=2)
        assert g.unfinished == 0
        for s in range(2):
            p = e.win[s].value  # the games' binomial error at the table's value, as in Kanalje's test
            se = math.hypot(e.win[s].se, math.sqrt(max(p * (1 - p), 1e-3) / g.samples))
            assert abs(p - g.win[s].value) <= 4 * se, (score, dealer, s, e.win[s], g.win[s])


def test_canasta_table_properties_and_refusals():
    t = ceq.table(C_RULES, samples=C_HANDS, rng=3)
    free = ~np.isnan(t.value[0])
    # each side's chance is kept to the nearest 1/65535 (EquityTable.save): their sum to within half that a side
    assert np.abs(t.value[:, free].sum(axis=0) - 1.0).max() <= 2 * 0.5 / 65535 + 1e-12
    kw = dict(rules=C_RULES, samples=C_HANDS, rng=3)
    # the sides swapped with the deal: the same hand from the other side
    a = ceq.equity((2000, 1500), dealer=0, **kw)
    b = ceq.equity((1500, 2000), dealer=1, **kw)
    assert a.win[0].value == b.win[1].value
    # monotone in our score
    vals = [ceq.equity((x, 1500), **kw).win[0].value for x in range(0, 3000, 250)]
    assert all(b >= a - 1e-9 for a, b in zip(vals, vals[1:]))
    for bad, words in [((3000, 2000), "the game is over"), ((100,), "2 sides"), ((101, 0), "multiple of 5"),
                       ((-2000, 0), "outside the equity table")]:
        with pytest.raises(ValueError, match=words):
            ceq.equity(bad, **kw)
    with pytest.raises(ValueError, match="dealer"):
        ceq.equity((0, 0), dealer=2, **kw)
    assert 0 < ceq.equity((3000, 3000), **kw).win[0].value < 1  # an exact tie at the target plays on


def test_canasta_shipped_table_answers():
    r = ceq.equity([6200, 5400])
    assert r.table.source == "shipped" and r.table.step == 50
    assert r.win[0].value > 0.5 > r.win[1].value
    assert sum(e.value for e in r.win) == pytest.approx(1.0)


# ---- the cache and the command line ----------------------------------------------------------------
def test_a_table_is_cached_and_an_unwritable_cache_is_said_once(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CARDODDS_CACHE_DIR", str(tmp_path / "c"))
    rules = KanaljeRules(players=2, target=15)
    a = keq.table(rules, samples=5_000, rng=2)
    assert a.source == "built" and list((tmp_path / "c" / "equity").glob("*.npz"))
    b = keq.table(rules, samples=5_000, rng=2)
    assert b.source == "cached" and np.allclose(a.value, b.value, atol=1 / 65535, equal_nan=True)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    monkeypatch.setenv("CARDODDS_CACHE_DIR", str(blocked))
    keq.table(rules, samples=5_001, rng=2)
    keq.table(rules, samples=5_002, rng=2)
    err = capsys.readouterr().err
    assert err.count("not cached") == 1


def _cli(*args):
    env = dict(os.environ, PYTHONPATH=ROOT)
    return subprocess.run([sys.executable, "-m", "cardodds.cli", *args], capture_output=True, text=True, env=env,
                          timeout=600)


def test_cli_equity_answers_and_refuses_in_one_line():
    r = _cli("kanalje", "equity", "--score", "12,17,5")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("Kanalje game equity to 21") and "wins the game" in r.stdout
    assert "shipped table" in r.stdout  # no --seed: the shipped table, not one of its own from a drawn seed
    r = _cli("canasta", "equity", "--score", "6200,5400", "--json")
    assert r.returncode == 0, r.stderr
    assert '"question": "equity"' in r.stdout and '"source": "shipped"' in r.stdout
    for args in (["kanalje", "equity", "--score", "21,3,5"], ["kanalje", "equity", "--score", "1,2"],
                 ["canasta", "equity", "--score", "10050,3"], ["kanalje", "equity", "--score", "1,2,3"]):
        r = _cli(*args)
        assert r.returncode == 2 and r.stderr.count("\n") == 1 and "Traceback" not in r.stderr, r.stderr
