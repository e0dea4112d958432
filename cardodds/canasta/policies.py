"""The policies of Polish Canasta played (:mod:`cardodds.canasta.play`): their names, codes and parser.

At each decision the engine lists every legal move (``cardodds.canasta._table.gen_moves``) and
the seat's policy picks one by its index, so no policy can break a rule.

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
``heuristic2``
    ``heuristic`` (the same parameters) with a memory and five changes. It remembers what
    every player saw: the cards each player took with the pile and has not played since
    (the table's ``took``), and who discarded what this hand (``threw``). It values a pile by
    what it holds under the top card (wilds and red 3s in full, a natural it can meld at its
    points, a black 3 and a natural it cannot use against it) and takes it, whatever its size,
    when that plus the meld it makes is worth ``take_min_gain``; it discards away from what the
    opponents are known to hold (a pair the next player took is a pile handed over, the more so
    the bigger the pile) and, by ``match_discards`` points (more with a bigger pile), towards a
    rank the next player discarded itself and has not taken back, with no meld of it on the
    table (it is unlikely to hold a pair of it); it adds a wild to its side's meld only where a
    canasta comes near (the meld at 4+ cards holding 2+ wilds, or the seventh card) or to empty
    a small hand; and with 7 cards or fewer it goes out only when going out wins: with
    ``out_for_game`` the game score before the hand first (going out that takes its side to the
    target ahead wins the game; going out that ends the game with the other side ahead is never
    chosen), then the hand: its side ahead after going out (its estimate: the table scored now,
    each unknown card in a hand at 10 points, the cards taken with the pile at theirs) or the
    hand about to end anyway (8 or fewer cards in the stock, an opponent with 2 cards or fewer).
    ``HeuristicParams(match_discards=0, out_for_game=0)`` plays heuristic2 as it was before
    the last two.
``lookahead``
    ``heuristic2`` with a sampled look-ahead (:mod:`cardodds.canasta._lookahead`): at each
    take, discard or go-out decision it deals 16 worlds consistent with what its seat knows
    (the advisor's dealing: its hand, the melds, the pile, the cards each player took with the
    pile and has not played since), plays every option out to the end of the hand with
    ``heuristic2`` at every seat on the same worlds, and plays the option with the best mean
    margin of its side when its paired gain over heuristic2's own move is 2 standard errors
    above zero, else heuristic2's move. Not offered in the advisor's play-outs.
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

from ..policy import lineup
from . import _policies as P

__all__ = ["POLICIES", "HeuristicParams", "resolve_policies"]

POLICIES = {"random": P.P_RANDOM, "heuristic": P.P_HEURISTIC, "heuristic2": P.P_HEURISTIC2, "lookahead": P.P_LOOKAHEAD}


@dataclass(frozen=True)
class HeuristicParams:
    """Named parameters of the ``heuristic`` player (see the module text).

    The defaults are the tuner's best set (:func:`cardodds.canasta.play.tune`, seed 7, 1,500
    paired deals a match): against the hand-set start ``take_min_gain=20, out_needs_canasta=1, keep_wilds=1`` it
    gained 277 [254, 301] points a hand on fresh deals. ``match_discards`` and ``out_for_game``
    steer ``heuristic2`` only (``heuristic`` ignores them)."""

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
