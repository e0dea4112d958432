"""The players of Polish Canasta played (:mod:`cardodds.canasta.play`).

At each decision the engine lists every legal move (``cardodds.canasta._play.gen_moves``) and
the player picks one by its index, so no player can break a rule.

``random``
    A uniformly random move among the legal ones at each decision (a discard is one move per
    kind held, a new meld one move per way of forming it, and so on).
``heuristic``
    A partnership player steered by :class:`HeuristicParams`: it lays red 3s at once; takes
    the pile when it holds at least ``take_min_pile`` cards and the meld it makes plus the
    pile's cards are worth ``take_min_gain`` points; opens from its own turn
    ``open_from_turn`` on; melds new combinations of at least ``min_naturals`` naturals with
    as few wilds as it can; adds naturals to its side's melds, wilds only to make a canasta
    or when it holds more than ``keep_wilds`` of them; adds to the opponents' melds only with
    ``feed_opponents`` (naturals, never the card that completes their canasta); goes out only
    with a canasta on the side when ``out_needs_canasta``; and discards, with
    ``discard_care``, a black 3 first (it blocks the pile), then the natural the next opponent
    can least use (no meld of that rank on the table), cheapest and least held first;
    never a wild unless nothing else is left.
Your own policy
    An ``@njit`` function ``policy(rng, view, moves, n_moves, seat) -> int`` returning the index
    of a move in ``moves[:n_moves]``. ``rng`` is the chunk's xoshiro256** state (draw with
    :func:`cardodds._random.bounded`); ``view`` the table as ``seat`` sees it, read with the
    named offsets of :mod:`cardodds.canasta.view`; ``moves`` the int64 records
    ``(type, a, b, c, d)`` described there (with the exact numba signature). It is compiled once
    more, to a function the kernels receive as an argument; the kernels are not recompiled. An index
    outside the list is replaced by the
    first move and counted (``violations["policy"]`` of a ``check=True`` run).

>>> from numba import njit
>>> from cardodds.canasta import play
>>> from cardodds.canasta.view import MV_DISCARD
>>> @njit
... def discard_at_once(rng, view, moves, n_moves, seat):
...     for i in range(n_moves):
...         if moves[i, 0] == MV_DISCARD:
...             return i
...     return 0
>>> play([discard_at_once, "heuristic", "heuristic", "heuristic"], samples=20, rng=1).policies
('user', 'heuristic', 'heuristic', 'heuristic')
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

import numpy as np

from ..engine import InOrder, takes_backend
from ..policy import lineup
from ..results import Result
from ..stats import Estimate
from . import _play as P

__all__ = ["POLICIES", "HeuristicParams", "resolve_policies"]

POLICIES = {"random": P.P_RANDOM, "heuristic": P.P_HEURISTIC}


@dataclass(frozen=True)
class HeuristicParams:
    """Named parameters of the ``heuristic`` player (see the module text).

    The defaults are the tuner's best set (:func:`tune`, seed 7, 1,500 paired deals a match):
    against the hand-set start ``take_min_gain=20, out_needs_canasta=1, keep_wilds=1`` it
    gained 277 [254, 301] points a hand on fresh deals."""

    open_from_turn: int = 0
    take_min_pile: int = 2
    take_min_gain: int = 0
    discard_care: int = 1
    out_needs_canasta: int = 0
    feed_opponents: int = 0
    keep_wilds: int = 0
    min_naturals: int = 3

    def __post_init__(self):
        for f in fields(self):
            v = getattr(self, f.name)
            if isinstance(v, bool):
                object.__setattr__(self, f.name, int(v))
            elif not isinstance(v, (int, np.integer)) or v < 0 or v > 10_000:
                raise ValueError(f"heuristic parameter {f.name}={v!r} must be a whole number 0..10000")

    def pack(self) -> np.ndarray:
        return P.H.pack(**asdict(self))

    def to_dict(self) -> dict:
        return asdict(self)


assert HeuristicParams().to_dict() == P.HEURISTIC_DEFAULTS


def resolve_policies(policies, params: HeuristicParams | None = None):
    """``(codes int64[4], names, user function or None, heuristic parameters int64[4, H.size])``."""
    if params is None:
        params = HeuristicParams()
    if not isinstance(params, HeuristicParams):
        raise ValueError("params must be a HeuristicParams object, e.g. HeuristicParams(take_min_pile=3)")
    codes, names, user = lineup(policies, 4, POLICIES, P.P_USER, "heuristic,random,heuristic,random")
    hp = np.tile(params.pack(), (4, 1))
    return np.asarray(codes, dtype=np.int64), tuple(names), user, hp


# ---- the tuner ------------------------------------------------------------------------------------------------
#: Values the tuner tries for each named parameter.
TUNE_GRID = {
    "open_from_turn": (0, 2, 4),
    "take_min_pile": (1, 2, 4, 8),
    "take_min_gain": (0, 20, 60, 150),
    "discard_care": (0, 1),
    "out_needs_canasta": (0, 1),
    "feed_opponents": (0, 1),
    "keep_wilds": (0, 1, 2, 3),
    "min_naturals": (2, 3),
}


@takes_backend
def tune(rules=None, *, samples: int = 2000, rounds: int = 1, grid: dict | None = None, rng=None,
         threads: int | None = None, confirm_samples: int | None = None):
    """Search the heuristic's parameters by paired matches (the same deals, sides swapped).

    Coordinate search: for each parameter in turn, each value of ``grid`` plays ``samples``
    paired deals against the best set so far and replaces it only when its edge's 95%
    interval lies above zero. The best set's edge over the defaults is then measured on fresh
    deals (``confirm_samples``, default ``2 * samples``), so the search's luck does not
    inflate it. Returns a :class:`TuneResult`.

    >>> r = tune(samples=40, grid={"take_min_pile": (2, 8)}, rng=1)
    >>> sorted(r.best.to_dict()) == sorted(HeuristicParams().to_dict())
    True
    """
    from dataclasses import replace

    from .play import strength
    from .rules import CanastaRules
    from ..rng import as_seed_sequence

    rules = CanastaRules() if rules is None else rules
    grid = TUNE_GRID if grid is None else grid
    for name in grid:
        if name not in P.HEURISTIC_DEFAULTS:
            raise ValueError(f"tune: {name!r} is no heuristic parameter; "
                             f"choose from {', '.join(P.HEURISTIC_DEFAULTS)}")
    ss, seed = as_seed_sequence(rng)
    seeds = iter(ss.spawn(10_000))
    best = HeuristicParams()
    history = []
    # Interrupted (Ctrl-C), the matches stop: the best set so far (an interrupted match
    # changes nothing) and, if its match was not reached, an edge of NaN; partial=True.
    steps = InOrder()
    candidates = ((name, v) for _ in range(rounds) for name, values in grid.items() for v in values)
    for name, v in candidates:
        if getattr(best, name) == v:
            continue
        cand = replace(best, **{name: v})
        res = steps.step(strength, "heuristic", "heuristic", rules, samples=samples, rng=next(seeds),
                         threads=threads, params_a=cand, params_b=best)
        if res is None or steps.partial:
            break
        history.append((name, v, res.points))
        if res.points.lo > 0:
            best = cand
    final = steps.step(strength, "heuristic", "heuristic", rules, samples=confirm_samples or 2 * samples,
                       rng=next(seeds), threads=threads, params_a=best, params_b=HeuristicParams())
    edge = final.points if final is not None else Estimate.mean(0.0, 0.0, 0)
    return TuneResult(best=best, edge=edge, history=tuple(history), rules=rules, samples=samples, seed=seed,
                      partial=steps.partial)


@dataclass(frozen=True, repr=False, kw_only=True)
class TuneResult(Result):
    """The tuner's best parameter set and its edge over the defaults (points a hand, paired)."""

    best: HeuristicParams
    edge: Estimate
    history: tuple

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({"game": "canasta", "question": "tune", "best": self.best.to_dict(), "edge": self.edge.to_dict(),
                  "history": [{"parameter": n, "value": v, "edge": e.to_dict()} for n, v, e in self.history]})
        return d

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([{"parameter": n, "value": v, "edge": e.value, "lo": e.lo, "hi": e.hi}
                             for n, v, e in self.history])

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.best.to_dict().items() if v != P.HEURISTIC_DEFAULTS[k]}
        verdict = " (no difference at this precision)" if self.edge.contains_zero() else ""
        return (f"Canasta heuristic tuned ({len(self.history)} paired matches of {self.samples:,} deals, seed "
                f"{self.seed}): changes {changed or 'none'}; edge over the defaults {self.edge.format()} points "
                f"a hand on fresh deals{verdict}")
