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
    ``(type, a, b, c, d)`` described there. An index outside the list is replaced by the
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

from . import _play as P

__all__ = ["POLICIES", "HeuristicParams", "resolve_policies"]

POLICIES = {"random": P.P_RANDOM, "heuristic": P.P_HEURISTIC}


@dataclass(frozen=True)
class HeuristicParams:
    """Named parameters of the ``heuristic`` player (see the module text)."""

    open_from_turn: int = 0
    take_min_pile: int = 2
    take_min_gain: int = 20
    discard_care: int = 1
    out_needs_canasta: int = 1
    feed_opponents: int = 0
    keep_wilds: int = 1
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


def _is_njit(obj) -> bool:
    return hasattr(obj, "py_func") and hasattr(obj, "compile")


def resolve_policies(policies, params: HeuristicParams | None = None):
    """``(codes int64[4], names, user function, heuristic parameters int64[4, H.size])``."""
    if params is None:
        params = HeuristicParams()
    if not isinstance(params, HeuristicParams):
        raise ValueError("params must be a HeuristicParams object, e.g. HeuristicParams(take_min_pile=3)")
    if isinstance(policies, str):
        items = [p.strip() for p in policies.split(",") if p.strip()]
    elif _is_njit(policies):
        items = [policies]
    else:
        try:
            items = list(policies)
        except TypeError:
            raise ValueError(f"policies={policies!r}: give a name like 'heuristic' or a list of 4") from None
    if len(items) == 1:
        items = items * 4
    if len(items) != 4:
        raise ValueError(f"{len(items)} policies given for 4 seats; give one for every seat "
                         "(e.g. 'heuristic,random,heuristic,random') or one for all")
    codes, names, user = [], [], None
    for p in items:
        if isinstance(p, str):
            key = p.strip().lower()
            if key not in POLICIES:
                raise ValueError(f"unknown policy {p!r}; choose from {', '.join(POLICIES)} or pass an @njit function")
            codes.append(POLICIES[key])
            names.append(key)
        elif _is_njit(p):
            if user is not None and p is not user:
                raise ValueError("at most one user @njit policy per run; give the same function for several seats")
            user = p
            codes.append(P.P_USER)
            names.append("user")
        else:
            raise ValueError(f"policy {p!r} is neither a name ({', '.join(POLICIES)}) nor an @njit function")
    hp = np.tile(params.pack(), (4, 1))
    return (np.asarray(codes, dtype=np.int64), tuple(names), user if user is not None else P.no_user_policy, hp)
