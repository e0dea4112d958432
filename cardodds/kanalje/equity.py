"""What is at stake in Kanalje: P(each seat wins the game) from the scores before a deal.

:func:`equity` reads the game equity table (:mod:`cardodds.equity`) of the rules: one deal's
joint outcome (each seat's points) measured under the default lineup, the game to
``rules.target`` solved over the scores from it, a tie at the top playing another deal as
:func:`~cardodds.kanalje.play.game` plays it. The default rules' tables (three and two players)
are shipped, written by :func:`ship`; other rules' are built on demand and cached.

>>> r = equity([12, 17, 5])
>>> r.win[1].value > r.win[0].value > r.win[2].value
True
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import numpy as np

from .. import equity as eq
from .._validate import check_run
from ..engine import run
from ._common import check_dealer, check_score, lineup
from ._defaults import DEFAULT_POLICIES, EQUITY_DEALS, EQUITY_SEED
from ._equity import outcome_kernel, outcome_layout
from ._policies import calls
from ._table import phase1_arg
from .rules import KanaljeRules, check_rules

__all__ = ["check_game_score", "equity", "ship"]

#: The lowest total a table holds, as a share of the target below zero (a seat at -21 of a game to 21).
LOWEST = 1.0


def _span(rules: KanaljeRules) -> tuple[int, int]:
    """The lowest points a seat can score in a deal and the bins from there to the highest."""
    pens = rules.jack_penalties
    tricks = rules.hand_size * rules.trick_points
    low = -sum(max(p, 0) for p in pens) + min(tricks, 0)
    high = max(tricks, 0) + sum(max(-p, 0) for p in pens)
    return low, high - low + 1


def measure(rules: KanaljeRules, samples: int, rng, threads, progress):
    """One deal's outcomes under the default lineup: ``(points a seat, counts, seed)``, seat 0
    left of the dealer."""
    low, bins = _span(rules)
    if bins ** rules.players > 1 << 22:
        raise ValueError(f"a deal's points span {bins} values a seat under these rules: too many for an equity table")
    codes, _, _, chunk = lineup(DEFAULT_POLICIES, rules)
    layout = outcome_layout(rules.players, bins)
    res = run(outcome_kernel, (rules.pack(), codes, 16, 0, calls(None, codes, phase1_arg(rules.players, 1)),
                               np.array([low, bins], dtype=np.int64)),
              layout.size, samples=samples, rng=rng, chunk_size=chunk, threads=threads, progress=progress)
    joint = layout.view(res.counts).joint
    k = np.flatnonzero(joint)
    pts = np.stack(np.unravel_index(k, (bins,) * rules.players), axis=1) + low
    return pts, joint[k], res.seed, res.partial


def _build(rules: KanaljeRules, samples: int, rng, threads, progress) -> eq.EquityTable:
    pts, counts, seed, partial = measure(rules, samples, rng, threads, progress)
    if partial:
        raise KeyboardInterrupt
    from ..rng import as_seed_sequence, child

    ss, _ = as_seed_sequence(rng)
    measured = eq.Measured("kanalje", seed, DEFAULT_POLICIES, rules.to_dict())
    return eq.build(measured, pts, counts, lo=-int(LOWEST * rules.target), step=1, target=rules.target,
                    rng=child(ss, 1 << 20), threads=threads)


def _file(players: int) -> str:
    return f"equity_{players}.npz"


@lru_cache(maxsize=None)
def _shipped(players: int) -> eq.EquityTable | None:
    return eq.shipped("cardodds.kanalje", _file(players))


def table(rules: KanaljeRules | None = None, *, samples: int | None = None, rng=None, threads: int | None = None,
          progress: bool = False) -> eq.EquityTable:
    """The equity table of ``rules``: the shipped one for the default rules, else built
    (``samples`` deals, default :data:`EQUITY_DEALS`, from ``rng``, default :data:`EQUITY_SEED`)
    and cached."""
    rules = check_rules(rules)
    threads = check_run(samples=samples, threads=threads, rng=rng)
    low, bins = _span(rules)
    eq.check_size(int(LOWEST * rules.target) + rules.target + 2 * (low + bins - 1) + 1, rules.players)
    if samples is None and rng is None and rules == KanaljeRules(players=rules.players):
        shipped = _shipped(rules.players)
        if shipped is not None:
            return shipped
    return eq.built({"game": "kanalje", "rules": rules.to_dict(), "policies": DEFAULT_POLICIES},
                    EQUITY_DEALS if samples is None else int(samples), EQUITY_SEED if rng is None else rng,
                    lambda n, seed: _build(rules, n, seed, threads, progress))


def _check_score(score, rules: KanaljeRules, t: eq.EquityTable, whole: bool = True) -> tuple[int, ...]:
    """``score`` checked against the table; ``whole``: totals of whole deals (their sum one that
    deals reach), else totals within a deal (two players' phase 2: the phase-1 jacks paid)."""
    vals = check_score(score, rules)
    top = max(vals)
    if min(vals) < t.lo:
        raise ValueError(f"a total below {t.lo} is outside the equity table (it holds {t.lo}..{t.target - 1})")
    if top > t.hi:
        raise ValueError(f"a tie at {top} is outside the equity table (it holds ties up to {t.hi})")
    totals = sorted(set(int(v) for v in t.offsets.sum(axis=1)))
    if whole and not eq.reachable(sum(vals), totals):
        raise ValueError(f"no game reaches a score sum of {sum(vals)}: a deal adds {totals[0]}..{totals[-1]} "
                         f"points in all ({', '.join(map(str, totals))})")
    return tuple(vals)


def check_game_score(score, rules: KanaljeRules, whole: bool = True) -> tuple[int, ...]:
    """``score`` (a total a seat) checked as :func:`equity` checks it, by the rules' table
    (``whole=False``: totals within a deal, whose sum no deal need reach)."""
    check_score(score, rules)
    return _check_score(score, rules, table(rules), whole)


def equity(score, *, rules: KanaljeRules | None = None, samples: int | None = None, rng=None,
           threads: int | None = None, dealer: int | None = None, progress: bool = False) -> eq.EquityResult:
    """P(each seat wins the game) from ``score`` (a total a seat) before a deal that ``dealer``
    deals (default the last seat, as in a new game: seat 0 leads), by the equity table of
    ``rules`` under the default lineup (``samples`` and ``rng`` build a table of their own)."""
    rules = check_rules(rules)
    n = rules.players
    dealer = check_dealer(dealer, n)
    check_score(score, rules)
    t = table(rules, samples=samples, rng=rng, threads=threads, progress=progress)
    vals = _check_score(score, rules, t)
    return eq.lookup(t, vals, dealer=int(dealer), leader=(int(dealer) + 1) % n, label="seat", unit="deal",
                     rules=rules)


def ship(threads: int | None = None, progress: bool = False) -> list:
    """Build the default rules' tables (three and two players) and write them into the package."""
    out = []
    for players in (3, 2):
        t = _build(KanaljeRules(players=players), EQUITY_DEALS, EQUITY_SEED, threads, progress)
        with resources.as_file(resources.files("cardodds.kanalje").joinpath(_file(players))) as p:
            out.append(t.save(p))
        _shipped.cache_clear()
    return out
