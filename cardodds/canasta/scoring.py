"""Melds, the first meld, the Joker swap and the score of a side (docs/rules/canasta.md), for people.

These wrap the compiled kernels in :mod:`cardodds.canasta._kernels`, which a later
four-player game reuses. A meld keeps its naturals, 2s and Jokers apart, since they score
differently and only Jokers may be swapped out (2s too with ``swap_twos``).

>>> m = Meld("K", naturals=7, twos=2, jokers=1)
>>> m.canasta, m.points(), m.score()
('clean', 160, 660)
>>> best_first_meld("Ah Ad Ac 2c 7s 7h 3d 9c").meld
Meld('A', naturals=3, twos=1, jokers=0)
>>> score_side([Meld("K", 7, 2, 1)]).total
660
>>> score_side([Meld("Q", 3, 0, 0)], red_threes=1, left="3s").total
-230
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _kernels as K
from .cards import JOKER, KIND_NAMES, NATURAL_KINDS, TWO, deck_counts, hand_counts, parse_kind
from .rules import CanastaRules, check_rules, meld_rules

__all__ = ["FirstMeld", "Meld", "SideScore", "best_first_meld", "can_swap", "meld_options", "score_side"]

_CANASTA_NAMES = (None, "mixed", "clean", "joker")


def _as_counts(hand, rules) -> np.ndarray:
    if isinstance(hand, np.ndarray) and hand.shape == (15,):
        counts = hand.astype(np.int64)
        if (counts < 0).any() or (counts > K.BIG).any():
            raise ValueError("hand counts must be non-negative")
        return counts
    return hand_counts(hand, jokers=rules.jokers)


@dataclass(frozen=True)
class Meld:
    """A meld: its rank (``'4'``..``'A'``, or ``'wild'`` for wild cards alone), naturals, 2s, Jokers."""

    rank: str
    naturals: int = 0
    twos: int = 0
    jokers: int = 0

    def __post_init__(self):
        if self.rank != "wild":
            k = parse_kind(self.rank)
            if k not in NATURAL_KINDS:
                raise ValueError(f"a meld's rank must be 4..A or 'wild', not {self.rank!r} "
                                 "(2s and Jokers are wild, 3s are never melded)")
            object.__setattr__(self, "rank", KIND_NAMES[k])
        for name in ("naturals", "twos", "jokers"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"{name}={v!r} must be a whole number >= 0")

    @property
    def kind(self) -> int:
        return K.WILDS_ONLY if self.rank == "wild" else KIND_NAMES.index(self.rank)

    @property
    def size(self) -> int:
        return self.naturals + self.twos + self.jokers

    def record(self) -> np.ndarray:
        """The kernels' int64[4] record ``(kind, naturals, twos, jokers)``."""
        return np.array([self.kind, self.naturals, self.twos, self.jokers], dtype=np.int64)

    @classmethod
    def from_record(cls, rec) -> Meld:
        kind = int(rec[0])
        return cls("wild" if kind == K.WILDS_ONLY else KIND_NAMES[kind], int(rec[1]), int(rec[2]), int(rec[3]))

    def is_legal(self, *, rules: CanastaRules | None = None) -> bool:
        """3+ cards of one rank within the wild limit, or 3+ wilds alone (if allowed)."""
        rules = check_rules(rules)
        if self.rank == "wild" and self.naturals:
            return False
        return bool(K.meld_is_legal(self.kind, self.naturals, self.twos, self.jokers, rules.wild_code,
                                    int(rules.wild_melds)))

    @property
    def canasta(self) -> str | None:
        """``'joker'`` (7+ wilds alone), ``'clean'`` (7+ naturals), ``'mixed'``, or None (under 7)."""
        return _CANASTA_NAMES[K.canasta_kind(self.kind, self.naturals, self.twos, self.jokers)]

    def points(self, *, rules: CanastaRules | None = None) -> int:
        """Card points of the melded cards (no canasta bonus)."""
        rules = check_rules(rules)
        return int(K.meld_points(self.record(), rules.points()))

    def score(self, *, rules: CanastaRules | None = None) -> int:
        """Card points plus the canasta bonus (1000 joker, 500 clean, 300 mixed)."""
        ck = K.canasta_kind(self.kind, self.naturals, self.twos, self.jokers)
        return self.points(rules=rules) + int(K.CANASTA_BONUS[ck])

    def __repr__(self) -> str:
        return f"Meld({self.rank!r}, naturals={self.naturals}, twos={self.twos}, jokers={self.jokers})"


@dataclass(frozen=True)
class FirstMeld:
    """The most valuable single meld a hand can lay, and whether it opens (reaches the minimum)."""

    meld: Meld | None
    value: int
    minimum: int
    with_top: str | None = None

    @property
    def opens(self) -> bool:
        return self.meld is not None and self.value >= self.minimum

    def to_dict(self) -> dict:
        m = self.meld
        return {"meld": None if m is None else {"rank": m.rank, "naturals": m.naturals, "twos": m.twos,
                                                 "jokers": m.jokers},
                "value": self.value, "minimum": self.minimum, "opens": self.opens, "with_top": self.with_top}


def best_first_meld(hand, *, rules: CanastaRules | None = None, top=None) -> FirstMeld:
    """The most valuable legal first meld of ``hand`` (text or counts per kind).

    One combination at card points; one card of the hand stays back for the discard. With
    ``top`` (the top card of the discard pile, e.g. ``'Kh'``), the meld must hold that card,
    as taking the pile requires; a 3 on top can never be taken.

    >>> best_first_meld("Kh Ks 9c 9d", top="Kd").meld
    Meld('K', naturals=3, twos=0, jokers=0)
    >>> best_first_meld("Kh Ks 9c 9d", top="Kd").opens
    True
    """
    rules = check_rules(rules)
    counts = _as_counts(hand, rules)
    if counts.sum() == 0:
        raise ValueError("the hand is empty; give at least one card, e.g. 'Kh Kd Ks 7c'")
    pts, code, min_first, wm = meld_rules(rules)
    rec = np.zeros(4, dtype=np.int64)
    if top is None:
        v = int(K.best_meld(counts, int(counts.sum()) - 1, pts, code, wm, rec))
        top_name = None
    else:
        t = parse_kind(top)
        if counts[t] + 1 > deck_counts(rules.jokers)[t]:
            raise ValueError(f"the hand and the top card {top!r} hold more {KIND_NAMES[t]} than the pack has")
        v = int(K.best_meld_with_top(counts, t, pts, code, wm, rec))
        top_name = KIND_NAMES[t]
    meld = Meld.from_record(rec) if v > 0 else None
    return FirstMeld(meld, v, int(min_first), top_name)


def meld_options(hand, *, rules: CanastaRules | None = None) -> list[Meld]:
    """For each rank the hand can meld, its most valuable legal meld (and a wild meld), best first.

    >>> meld_options("Kh Kd 9c 9d 9h Jk")
    [Meld('9', naturals=3, twos=0, jokers=1), Meld('K', naturals=2, twos=0, jokers=1)]
    """
    rules = check_rules(rules)
    counts = _as_counts(hand, rules)
    pts, code, _, wm = meld_rules(rules)
    room = max(int(counts.sum()) - 1, 0)
    out = []
    v, t, j = K.wild_meld(counts[JOKER], counts[TWO], room, wm, 0)
    if v > 0:
        out.append((v, Meld("wild", 0, int(t), int(j))))
    for k in NATURAL_KINDS:
        if counts[k]:
            v, n, t, j = K.rank_meld(counts[k], pts[k], counts[JOKER], counts[TWO], room, code, 0)
            if v > 0:
                out.append((v, Meld(KIND_NAMES[k], int(n), int(t), int(j))))
    out.sort(key=lambda x: -x[0])
    return [m for _, m in out]


def can_swap(meld: Meld, hand, *, rules: CanastaRules | None = None, wild: str = "Jk") -> bool:
    """May the hand swap a Joker (or, with ``swap_twos``, a 2) out of ``meld``?

    The hand gives the natural the wild stands for and must lay the freed wild at once in a
    new combination.

    >>> can_swap(Meld("K", 3, 0, 1), "Kh 9c 9d")
    True
    >>> can_swap(Meld("K", 3, 0, 1), "Kh 9c 8d")
    False
    """
    w = parse_kind(wild)
    if w not in (JOKER, TWO):
        raise ValueError(f"only a wild card can be swapped out of a meld; give wild='Jk' or '2', not {wild!r}")
    rules = check_rules(rules)
    counts = _as_counts(hand, rules)
    return bool(K.swap_is_legal(meld.record(), w, counts, rules.wild_code, int(rules.wild_melds),
                                int(rules.swap_twos)))


@dataclass(frozen=True)
class SideScore:
    """A side's score for one hand, with its parts (docs/rules/canasta.md §5.1)."""

    total: int
    canastas: int
    canasta_bonus: int
    melded_points: int
    red_threes: int
    left_in_hand: int
    going_out: int

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def score_side(melds, *, red_threes: int = 0, left="", went_out: bool = False,
               rules: CanastaRules | None = None) -> SideScore:
    """Score of a side: its melds, red 3s laid, the cards left in its hands, going out.

    With at least one canasta: bonuses + melded card points + 100 per red 3. Without: melded
    cards and laid red 3s count negative. Cards left in hand always count negative; going out
    gives 100.
    """
    rules = check_rules(rules)
    melds = list(melds)
    for m in melds:
        if not isinstance(m, Meld):
            raise ValueError(f"{m!r} is not a Meld; build melds as Meld('K', naturals=7, twos=2, jokers=1)")
        if not m.is_legal(rules=rules):
            raise ValueError(f"{m!r} is not a legal meld under wild_limit={rules.wild_limit!r}")
    if isinstance(red_threes, bool) or not isinstance(red_threes, (int, np.integer)) or not 0 <= red_threes <= 4:
        raise ValueError(f"red_threes={red_threes!r} must be 0..4 (the pack holds four red 3s)")
    left_counts = _as_counts(left, rules)
    recs = np.array([m.record() for m in melds], dtype=np.int64).reshape(-1, 4)
    pts = rules.points()
    total = int(K.score_side(recs, len(melds), red_threes, left_counts, int(bool(went_out)), pts,
                             rules.going_out_bonus, int(rules.going_out_needs_canasta)))
    kinds = [K.canasta_kind(*m.record()) for m in melds]
    canastas = sum(1 for k in kinds if k)
    bonus = int(sum(K.CANASTA_BONUS[k] for k in kinds))
    melded = sum(m.points(rules=rules) for m in melds)
    left_pts = int((left_counts * pts).sum())
    out_bonus = rules.going_out_bonus if went_out and (canastas or not rules.going_out_needs_canasta) else 0
    return SideScore(total, canastas, bonus, melded, red_threes * int(pts[2]), left_pts, out_bonus)
