"""Canasta advice with the game score: each option valued by the game equity it leads to
(P(we win the game) after the hand: 1 or 0 where the hand ends the game, else the equity
table's at the totals it leaves, :mod:`cardodds.canasta.equity`)."""

from __future__ import annotations

import numpy as np
import pytest

from cardodds.canasta import Position, advise
from cardodds.canasta import _advise as A
from cardodds.canasta._advise import EQUITY_SCALE
from cardodds.canasta.equity import equity, equity_grid
from cardodds.canasta.rules import CanastaRules
from cardodds.canasta.scoring import Meld, score_side

#: I go out now (K K K melded, a canasta of aces down); every other hand is known: the hand's
#: score is the same on every deal.
OUT = dict(melds="us: A A A A A A A; them: 8 8 8", decision="out", counts=(1, 1, 1),
           known={1: "5", 2: "4", 3: "6"})
#: The issue's positions: a discard (9 or 3b) near the middle of a game, and a rich listed pile
#: with Q Q in hand.
DISCARD = dict(melds="us: A A A A A A A, 8 8 8 8 2; them: 9 9 9 9 9 9 2, 6 6 6", pile="7", pile_size=10,
               counts=(5, 6, 4), decision="discard")
RICH = dict(melds="us: A A A; them: 8 8 8", pile="3b Jk 2 K K 9 A A 10 10 J 6 5 Q", counts=(7, 8, 7),
            decision="take")


def mean_equity(us: int, them: int) -> float:
    """Our side's P(win the game) before the next hand at ``us, them``, by the public lookup,
    the mean of the two sides dealing it."""
    return 0.5 * sum(equity((us, them), dealer=d).win[0].value for d in (0, 1))


def test_going_out_is_valued_by_the_table_at_the_score_it_leaves():
    ours = score_side([Meld("A", naturals=7), Meld("K", naturals=3)], left="4h", went_out=True).total
    theirs = score_side([Meld("8", naturals=3)], left="5h 6h").total
    a = advise(Position("K K K", score=(2000, 2500), **OUT), samples=40, rng=1)
    out = a.options.index("go out: meld K K K")
    assert a.ranked_by == "equity"
    assert a.figures["margin"][out].value == ours - theirs and a.figures["margin"][out].se == 0
    e = a.figures["equity"][out]
    assert e.se == 0 and e.value == pytest.approx(mean_equity(2000 + ours, 2500 + theirs), abs=1 / EQUITY_SCALE)
    assert 0.3 < e.value < 0.8  # the game goes on: neither 0 nor 1
    # a hand that ends the game is worth all of it
    won = advise(Position("K K K", score=(9500, 9800), **OUT), samples=40, rng=1)
    assert won.figures["equity"][out].value == 1.0 and won.figures["win_game"][out].value == 1.0
    assert won.ranked_by == "equity" and won.figures["equity"][1 - out].value <= 1.0


def test_the_kernel_reads_the_table_as_the_lookup_does():
    rules = CanastaRules()
    game = np.zeros(A.G_LEN, dtype=np.int64)
    game[A.G_TARGET] = rules.target
    etab = equity_grid(rules, game)
    assert game[A.G_STEP] == 50 and game[A.G_SCALE] == EQUITY_SCALE
    for us, them in ((6200, 5400), (6215, 5430), (9990, 9985), (-1235, 3010), (10000, 10000), (10250, 10250)):
        assert A.game_equity(us, them, game, etab) == pytest.approx(mean_equity(us, them), abs=1e-12), (us, them)
    # the game ends as the engine ends it: the target reached, the totals apart
    assert A.game_equity(10005, 9000, game, etab) == 1.0 and A.game_equity(9000, 10005, game, etab) == 0.0
    assert A.game_equity(11000, 10990, game, etab) == 1.0
    assert 0 < A.game_equity(10000, 10000, game, etab) < 1  # a tie at the target plays another hand


def test_same_figures_on_one_and_two_threads_with_a_score():
    kw = dict(samples=48, rng=5)
    p = Position("K K 9 7 5 3b Q", score=(4500, 4000), options="9,3b", **DISCARD)
    one, two = advise(p, threads=1, **kw), advise(p, threads=2, **kw)
    assert (one.counts == two.counts).all() and one.to_dict() == two.to_dict()
    assert A.advice_layout(2).view(one.counts).pair_eq_sq > 0 and one.samples == 48


def test_same_verdict_on_dask_with_a_score():
    pytest.importorskip("distributed")
    kw = dict(rng=7, budget_seconds=None, budget_rounds=2)
    p = Position("K K 9 7 5 3b Q", score=(4500, 4000), options="9,3b", **DISCARD)
    here, there = advise(p, threads=1, **kw), advise(p, backend="local:2", **kw)
    assert here.decision == there.decision and (here.counts == there.counts).all()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_discard_9_or_3b_position_is_decided_for_3b(seed):
    a = advise(Position("K K 9 7 5 3b Q", score=(4500, 4000), **DISCARD), rng=seed, budget_seconds=None,
               budget_rounds=8)
    assert a.ranked_by == "equity" and a.best == "discard 3b"
    assert "discard 9" in a.clearly_worse


def test_the_rich_pile_keeps_a_decisive_take():
    a = advise(Position("Q Q K 9 7 5 4", score=(6200, 5400), **RICH), rng=1, budget_seconds=None, budget_rounds=4)
    assert a.ranked_by == "equity" and a.best == "take the pile: meld Q Q Q"
    points = advise(Position("Q Q K 9 7 5 4", **RICH), rng=1, budget_seconds=None, budget_rounds=4)
    assert points.ranked_by == "margin" and points.best == "take the pile: meld Q Q Q"


def test_bad_scores_are_refused():
    for bad, words in (((10000, 9995), "the game is over"), ((4501, 4000), "multiple of 5"),
                       ((1, 2, 3), "score")):
        with pytest.raises(ValueError, match=words):
            advise(Position("K K 9 7 5 3b Q", score=bad, **DISCARD), samples=4, rng=1)
    tie = advise(Position("K K 9 7 5 3b Q", score=(10000, 10000), **DISCARD), samples=8, rng=1)
    assert tie.ranked_by == "equity"  # an exact tie at the target plays another hand


def test_a_review_mid_game_rates_by_the_equity():
    from cardodds.canasta import review, trace

    t = trace("heuristic2", rng=7, score=(4500, 4000))
    r = review(t, samples=64, rng=7)
    rated = [d for d in r.decisions if d.label != "forced"]
    # far from the target no hand ends the game, yet every decision is rated by P(win the game)
    assert rated and all(d.win_cost is not None for d in rated)
    assert all(d.win is not None and all(0 < e.value < 1 for e in d.win) for d in rated)
