"""The policies of Polish Canasta played (:mod:`cardodds.canasta.play`): their names, codes and parser.

The engine lists every legal move and the seat's policy picks one, so no policy breaks a rule.

``random``
    A uniformly random move among the legal ones at each decision (a discard is one move per
    kind held, a new meld one move per way of forming it, and so on).
``heuristic``
    A partnership player steered by :class:`HeuristicParams`: it lays red 3s at once; takes the
    pile when it holds ``take_min_pile`` cards and the pile plus the meld it makes are worth
    ``take_min_gain``; opens from its turn ``open_from_turn``; melds at least ``min_naturals``
    naturals with as few wilds as it can; adds wilds only for a canasta or beyond ``keep_wilds``;
    feeds the opponents' melds only with ``feed_opponents``; goes out only with a canasta when
    ``out_needs_canasta``; discards (``discard_care``) a black 3 first, then the natural the next
    opponent can least use, never a wild while it has another card.
``heuristic2``
    ``heuristic`` with a memory of what each player took and threw: it values the pile by its
    cards, discards away from what the opponents hold and towards what the next player threw
    (``match_discards``), and goes out only when that wins the hand or, with ``out_for_game``,
    the game (``docs/canasta-play.md`` has every rule).
``lookahead``
    ``heuristic2``, but at each take, discard or go-out decision it plays every option out on 16
    worlds; it takes the best when its paired gain over heuristic2's move exceeds 2 standard errors.
Your own policy
    An ``@njit`` function ``policy(state, seat, view, moves, n_moves) -> int``: the index of a move
    in ``moves[:n_moves]``; :mod:`cardodds.canasta.view` names the table and the moves. An index
    outside the list becomes the first move and is counted (``violations["policy"]``).

>>> from numba import njit
>>> from cardodds.canasta import play
>>> from cardodds.canasta.view import MV_DISCARD
>>> @njit
... def discard_at_once(state, seat, view, moves, n_moves):
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

from ..policy import lineup
from . import _policies as P

__all__ = ["POLICIES", "HeuristicParams", "resolve_policies"]

POLICIES = {"random": P.P_RANDOM, "heuristic": P.P_HEURISTIC, "heuristic2": P.P_HEURISTIC2, "lookahead": P.P_LOOKAHEAD}


@dataclass(frozen=True)
class HeuristicParams:
    """Named parameters of the ``heuristic`` player (see the module text); the defaults are
    :func:`cardodds.canasta.play.tune`'s best set (``docs/canasta-play.md``). ``match_discards``
    and ``out_for_game`` steer ``heuristic2`` only."""

    open_from_turn: int = 0
    take_min_pile: int = 2
    take_min_gain: int = 0
    discard_care: int = 1
    out_needs_canasta: int = 0
    feed_opponents: int = 0
    keep_wilds: int = 0
    min_naturals: int = 3
    match_discards: int = 20
    out_for_game: int = 1

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
