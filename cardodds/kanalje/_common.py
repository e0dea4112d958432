"""What the Kanalje analyses (``analysis.py``) and played games (``play.py``) share: the jacks'
order, the look-ahead check, the lineup with its chunk and run size, and the result base."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import SUIT_NAMES
from .._html import result_html
from .._validate import check_totals
from ..results import Result, counts_field
from ..stats import Estimate
from ._counts import DEALS
from ._defaults import DEFAULT_LOOKAHEAD_SAMPLES, MAX_LOOKAHEAD_SAMPLES
from ._policies import P_LOOKAHEAD, P_PIMC
from .policies import resolve_policies

#: Suits in the order jacks are reported: J♠ -1, J♣ -2, J♦ -3, J♥ -4.
JACK_ORDER = ("spades", "clubs", "diamonds", "hearts")
SUIT_INDEX = {name: i for i, name in enumerate(SUIT_NAMES)}
#: Chunk sizes: the look-ahead player is ~1000x slower, so its chunks are small enough for a
#: progress bar and Ctrl-C, and depend only on the lineup (the seed-to-count map stays fixed).
CHUNK_FAST = 1 << 16
CHUNK_LOOKAHEAD = 64


def check_lookahead_samples(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0 or n > MAX_LOOKAHEAD_SAMPLES:
        raise ValueError(f"lookahead_samples={n!r} must be a whole number 1..{MAX_LOOKAHEAD_SAMPLES}, "
                         f"e.g. {DEFAULT_LOOKAHEAD_SAMPLES}")
    return int(n)


def searches(codes) -> bool:
    """Does the lineup hold a player that searches sampled worlds (look-ahead or ``pimc``)?"""
    return any(c in (P_LOOKAHEAD, P_PIMC) for c in list(codes))


def lineup(policies, rules):
    """``(codes, names, user policy, chunk size)`` of a lineup for ``rules``."""
    codes, names, user = resolve_policies(policies, rules.players)
    chunk = CHUNK_LOOKAHEAD if searches(codes) else CHUNK_FAST
    return np.array(codes, dtype=np.int64), names, user, chunk


def default_samples(codes, sizes: tuple[int, int]) -> int:
    """The run size of a question (``sizes``, :mod:`._defaults`) for a lineup."""
    return sizes[1] if searches(codes) else sizes[0]


def est_dict(e: Estimate) -> dict:
    return e.to_dict()


@dataclass(frozen=True, repr=False, kw_only=True)
class KanaljeResult(Result):
    """What every Kanalje result records besides the base fields: the look-ahead player's
    sample count and the kernel's raw counts (out of ``==`` and ``repr``)."""

    lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES
    counts: np.ndarray = counts_field(default=None)

    def _lineup(self) -> tuple[str, ...]:
        return self.policies  # type: ignore[attr-defined]

    def meta(self) -> dict:
        return {"rules": self.rules.to_dict(), "policies": list(self._lineup()), "samples": int(self.samples),
                "seed": self.seed, "lookahead_samples": self.lookahead_samples, "partial": bool(self.partial),
                "version": self.version}

    @property
    def violations(self) -> int:
        """Broken invariants counted in a checked run (always 0 unless something is wrong)."""
        return int(self._layout.view(self.counts).violations)

    _layout = DEALS

    def _repr_html_(self) -> str:
        return result_html("", self.to_frame(), pre=repr(self))


def check_score(score, rules) -> list[int]:
    """One whole total a seat, the game not yet won (a tie at the top plays on)."""
    n = rules.players
    vals = check_totals(score, n, "seat", ",".join(["12", "17", "5"][:n]), f"the game has {n} players")
    top = max(vals)
    if top >= rules.target and vals.count(top) == 1:
        raise ValueError(f"the game is over at {','.join(map(str, vals))}: seat {vals.index(top)} has reached "
                         f"{rules.target} alone at the top")
    return vals


def check_dealer(dealer, players: int) -> int:
    """The dealing seat, default the last (a new game's: seat 0 leads)."""
    if dealer is None:
        return players - 1
    if isinstance(dealer, bool) or not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < players:
        raise ValueError(f"dealer={dealer!r} must be a seat 0..{players - 1}")
    return int(dealer)


def game_start(score, dealer, rules) -> np.ndarray:
    """``game``'s ``start``: each seat's total, then the first deal's dealer."""
    n = rules.players
    tots = [0] * n if score is None else check_score(score, rules)
    return np.array(tots + [check_dealer(dealer, n)], dtype=np.int64)
