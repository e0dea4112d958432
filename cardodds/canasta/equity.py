"""What is at stake in Canasta: P(each side wins the game) from the game score before a hand.

:func:`equity` reads the game equity table (:mod:`cardodds.equity`) of the rules: one hand's
joint outcome (each side's score, rounded to :data:`EQUITY_STEP` points) measured under the
default lineup, the game to ``rules.target`` solved over the scores from it by value
iteration (a hand can lower a total), an exact tie at or past the target playing another hand
as :func:`~cardodds.canasta.play.game` plays it. The default rules' table is shipped, written by
:func:`ship`; other rules' are built on demand and cached.

>>> r = equity([6200, 5400])
>>> r.win[0].value > 0.5 > r.win[1].value
True
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import numpy as np

from .. import engine
from .. import equity as eq
from .._validate import check_run
from ..rng import as_seed_sequence, child
from . import _advise as A
from . import _policies
from ._defaults import DEFAULT_POLICIES, EQUITY_HANDS, EQUITY_SEED, EQUITY_STEP
from ._equity import JOINT, outcome_kernel
from .cards import deck_kinds
from .play import _look, check_score
from .policies import resolve_policies
from .rules import CanastaRules, check_rules
from .view import kernel_policy

__all__ = ["equity", "equity_grid", "ship"]

#: A hand's scores the tally holds a side (points; beyond them a score is counted at the edge).
HAND_LOW, HAND_HIGH = -6000, 14000
#: The file of the shipped table.
FILE = "equity.npz"


def measure(rules: CanastaRules, samples: int, rng, threads, progress):
    """One hand's outcomes under the default lineup, side 0 moving first: ``(points a side,
    counts, seed, partial)``, each score rounded to :data:`EQUITY_STEP`."""
    bins = (HAND_HIGH - HAND_LOW) // EQUITY_STEP + 1
    codes, _, user, hp = resolve_policies(DEFAULT_POLICIES, None)
    res = engine.run(outcome_kernel, (deck_kinds(rules.jokers), rules.pack(), _play_seats(codes, hp), None,
                                      kernel_policy(user), _look(codes), _policies.smart_arg(codes),
                                      np.array([HAND_LOW, EQUITY_STEP, bins], dtype=np.int64)),
                     JOINT + bins * bins, samples=samples, rng=rng, threads=threads, progress=progress,
                     chunk_size=1024, unit="hand")
    joint = res.counts[JOINT:]
    k = np.flatnonzero(joint)
    pts = np.stack(np.unravel_index(k, (bins, bins)), axis=1) * EQUITY_STEP + HAND_LOW
    return pts, joint[k], res.seed, res.partial


def _play_seats(codes, hp):
    from ._play import Seats

    return Seats(codes, hp)


def _build(rules: CanastaRules, samples: int, rng, threads, progress) -> eq.EquityTable:
    pts, counts, seed, partial = measure(rules, samples, rng, threads, progress)
    if partial:
        raise KeyboardInterrupt
    ss, _ = as_seed_sequence(rng)
    lo = -(rules.target // 2) // EQUITY_STEP * EQUITY_STEP
    hi = rules.target + int(pts.max())
    measured = eq.Measured("canasta", seed, DEFAULT_POLICIES, rules.to_dict())
    return eq.build(measured, pts, counts, lo=lo, hi=hi, step=EQUITY_STEP, target=rules.target,
                    rng=child(ss, 1 << 20), threads=threads)


@lru_cache(maxsize=None)
def _shipped() -> eq.EquityTable | None:
    return eq.shipped("cardodds.canasta", FILE)


def table(rules: CanastaRules | None = None, *, samples: int | None = None, rng=None, threads: int | None = None,
          progress: bool = False) -> eq.EquityTable:
    """The equity table of ``rules``: the shipped one for the default rules, else built
    (``samples`` hands, default :data:`EQUITY_HANDS`, from ``rng``, default :data:`EQUITY_SEED`)
    and cached."""
    rules = check_rules(rules)
    threads = check_run(samples=samples, threads=threads, rng=rng)
    eq.check_size((rules.target + rules.target // 2 + HAND_HIGH) // EQUITY_STEP + 1, 2)
    if samples is None and rng is None and rules == CanastaRules():
        shipped = _shipped()
        if shipped is not None:
            return shipped
    return eq.built({"game": "canasta", "rules": rules.to_dict(), "policies": DEFAULT_POLICIES, "step": EQUITY_STEP},
                    EQUITY_HANDS if samples is None else int(samples), EQUITY_SEED if rng is None else rng,
                    lambda n, seed: _build(rules, n, seed, threads, progress))


def equity(score, *, rules: CanastaRules | None = None, samples: int | None = None, rng=None,
           threads: int | None = None, dealer: int | None = None, progress: bool = False) -> eq.EquityResult:
    """P(each side wins the game) from ``score`` (side 0's and side 1's totals) before a hand
    that side ``dealer`` deals (default 0, as in a new game), by the equity table of ``rules``
    under the default lineup (``samples`` and ``rng`` build a table of their own)."""
    rules = check_rules(rules)
    if dealer is None:
        dealer = 0
    if isinstance(dealer, bool) or dealer not in (0, 1):
        raise ValueError(f"dealer={dealer!r} must be a side, 0 or 1")
    vals = check_score(score, rules)
    t = table(rules, samples=samples, rng=rng, threads=threads, progress=progress)
    if min(vals) < t.lo:
        raise ValueError(f"a total below {t.lo} is outside the equity table (it holds {t.lo}..{rules.target - 5})")
    if max(vals) > t.hi:
        raise ValueError(f"a tie at {max(vals)} is outside the equity table (it holds ties up to {t.hi})")
    leader = int(dealer) if rules.first_player == "dealer" else 1 - int(dealer)
    return eq.lookup(t, vals, dealer=int(dealer), leader=leader, label="side", unit="hand", rules=rules)


def equity_grid(rules: CanastaRules, game: np.ndarray) -> np.ndarray:
    """Our side's P(win the game) before the next hand at each grid score (ours, theirs) of the
    equity table of ``rules`` (NaN where the game is over), the mean of the two sides dealing it
    (a position does not say who deals); the grid and :data:`~cardodds.canasta._advise.EQUITY_SCALE`
    written into ``game`` (the layout of :func:`cardodds.canasta._advise.game_equity`'s)."""
    t = table(rules)
    n = t.size
    e = np.zeros((n, n))
    for dealer in (0, 1):
        leader = dealer if rules.first_player == "dealer" else 1 - dealer
        v = t.value[leader].reshape(n, n)  # our side's equity in the frame of the side that leads
        e += 0.5 * (v if leader == 0 else v.T)
    game[[A.G_LO, A.G_STEP, A.G_SIZE, A.G_SCALE]] = (t.lo, t.step, n, A.EQUITY_SCALE)
    return e


def ship(threads: int | None = None, progress: bool = False):
    """Build the default rules' table and write it into the package."""
    t = _build(CanastaRules(), EQUITY_HANDS, EQUITY_SEED, threads, progress)
    with resources.as_file(resources.files("cardodds.canasta").joinpath(FILE)) as p:
        path = t.save(p)
    _shipped.cache_clear()
    return path
