"""Polish Canasta rules as data (docs/rules/canasta.md): every option a field, with its default.

>>> r = CanastaRules()
>>> r.jokers, r.wild_limit, r.min_first_meld, r.swap_twos, r.target
(4, 'naturals', 30, False, 10000)
>>> RULES.view(CanastaRules(wild_limit="three").pack()).wild_code
1
>>> RULES.view(CanastaRules(min_first_meld=50).pack()).min_first_meld
50
>>> CanastaRules(jokers=5)
Traceback (most recent call last):
...
ValueError: jokers=5 is not a pack the rules know; use jokers=4 (108 cards) or jokers=6 (110 cards)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from .._fields import rule
from ..layout import Layout
from .cards import ACE, BLACK3, FOUR, JOKER, JOKER_POINTS, KING, N_KINDS, RED3, TWO, TWO_POINTS

__all__ = ["ADDED_CARDS", "DIRECTIONS", "EMPTY_STOCK", "FIRST_PLAYERS", "GOING_OUT", "RULES", "WILD_LIMITS",
           "MAX_FIRST_MELD", "MELD_FIELDS", "CanastaRules", "check_rules"]

#: Wild-limit options in kernel-code order.
WILD_LIMITS = ("naturals", "three", "none")
#: Ways of going out in played hands.
GOING_OUT = ("meld_or_discard", "meld_all")
#: The direction of play (and of the deal passing), the rules' default first (docs/rules/canasta.md §1.1).
DIRECTIONS = ("clockwise", "counterclockwise")
#: The options of ``first_player``, ``empty_stock`` and ``added_cards`` (:class:`CanastaRules`).
FIRST_PLAYERS = ("after_dealer", "dealer")
EMPTY_STOCK = ("end", "take_pile")
ADDED_CARDS = ("meld_owner", "adder")
#: Highest ``min_first_meld``: the kernels count meld values up to 400 points.
MAX_FIRST_MELD = 400

#: The packed rules every kernel reads (:meth:`CanastaRules.pack`: meld odds and played
#: hands alike); kernels name a field as ``RULES.at.wild_code``, wrappers as
#: ``RULES.view(packed).wild_code``.
RULES = Layout("canasta rules", [
    ("points", N_KINDS),  # card points per kind
    ("wild_code", 1),  # index into WILD_LIMITS
    ("min_first_meld", 1),
    ("wild_melds", 1),
    ("swap_twos", 1),
    ("jokers", 1),
    ("going_out_bonus", 1),
    ("going_out_needs_canasta", 1),
    ("meld_all", 1),  # 1 with going_out="meld_all": the last card may not be discarded
    ("target", 1),
    ("direction", 1),       # +1 clockwise, -1 counterclockwise: the next seat is seat + direction
    ("first_dealer", 1),    # 1: the dealer moves first; 0: the player after the dealer
    ("empty_stock", 1),     # index into EMPTY_STOCK
    ("added_cards", 1),     # index into ADDED_CARDS
])


@dataclass(frozen=True)
class CanastaRules:
    """Options of Polish Canasta (docs/rules/canasta.md); the defaults are the rules' defaults.

    - ``jokers``: 4 (108-card pack) or 6 (110 cards). ``target``: the game's end (10000).
    - ``wild_limit``: wilds in a natural meld: ``"naturals"`` (default: 2+ naturals, no more wilds
      than naturals), ``"three"`` (2+ naturals, 3 wilds at most) or ``"none"`` (1+ natural).
    - ``min_first_meld`` (30); ``swap_twos``: a 2 swaps out like a Joker (False); ``wild_melds``:
      a meld of wilds only, which grows only into a joker canasta (True).
    - ``ace_points``, ``high_points`` (8..Q), ``low_points`` (4..7): what the seed leaves open
      (20, 10, 5); Joker 50, 2 20, K 10, every 3 100 are fixed.
    - ``going_out_bonus`` (100); ``going_out_needs_canasta`` (False); ``going_out``:
      ``"meld_or_discard"`` (default) or ``"meld_all"`` (the last card may not be discarded).
    - ``direction``: ``"clockwise"`` (default: seats 0, 1, 2, 3) or ``"counterclockwise"``
      (0, 3, 2, 1); seats 0 and 2 are partners either way. ``first_player``: ``"after_dealer"``
      (default) or ``"dealer"``.
    - ``empty_stock``: ``"end"`` (default: a draw from an empty stock ends the hand, no bonus) or
      ``"take_pile"`` (the player may take the pile instead; else the hand ends).
    - ``added_cards``: a card added to the opponents' meld scores for ``"meld_owner"`` (default)
      or for the ``"adder"`` (positive with a canasta on its side, else negative).
    """

    jokers: int = rule(4, "Jokers in the pack: 4 (108 cards) or 6 (110)", choices=(4, 6))
    wild_limit: str = rule("naturals", "wilds a meld may hold: naturals (no more wilds than naturals), three (at "
                           "most 3) or none (any number)", choices=WILD_LIMITS)
    min_first_meld: int = rule(30, "points a side's first meld must reach", low=0, high=MAX_FIRST_MELD,
                               why="points; the rules use 30")
    swap_twos: bool = rule(False, "a 2 may be swapped out of a meld like a Joker")
    wild_melds: bool = rule(True, "a meld of wilds only, which grows only into a joker canasta, may be laid")
    target: int = rule(10000, "points that end the game", low=1, high=1_000_000)
    ace_points: int = rule(20, "points of an ace", low=0, high=1_000)
    high_points: int = rule(10, "points of an 8, 9, 10, J or Q", low=0, high=1_000)
    low_points: int = rule(5, "points of a 4, 5, 6 or 7", low=0, high=1_000)
    going_out_bonus: int = rule(100, "points a side scores for going out", low=0, high=10_000)
    going_out_needs_canasta: bool = rule(False, "going out needs a canasta on the side")
    going_out: str = rule("meld_or_discard", "how a hand goes out: meld-or-discard (the last card may be "
                          "discarded) or meld-all", choices=GOING_OUT)
    direction: str = rule("clockwise", "direction of play and of the deal: clockwise (seat 1 after seat 0) or "
                          "counterclockwise", choices=DIRECTIONS)
    first_player: str = rule("after_dealer", "who moves first: after-dealer (left of the dealer, clockwise) or "
                             "dealer", choices=FIRST_PLAYERS)
    empty_stock: str = rule("end", "a player facing an empty stock: end (the hand ends) or take-pile (may take the "
                            "pile instead; the hand ends when it does not)", choices=EMPTY_STOCK)
    added_cards: str = rule("meld_owner", "a card added to the opponents' meld scores for: meld-owner (the meld and "
                            "its points stay with them) or adder (the side that added it)", choices=ADDED_CARDS)

    def __post_init__(self):
        if isinstance(self.jokers, bool) or self.jokers not in (4, 6):
            raise ValueError(f"jokers={self.jokers!r} is not a pack the rules know; "
                             "use jokers=4 (108 cards) or jokers=6 (110 cards)")
        if self.wild_limit not in WILD_LIMITS:
            raise ValueError(f"wild_limit={self.wild_limit!r} is unknown; choose one of "
                             + ", ".join(repr(w) for w in WILD_LIMITS))
        for name in ("min_first_meld", "target", "ace_points", "high_points", "low_points", "going_out_bonus"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 0:
                raise ValueError(f"{name}={v!r} must be a whole number >= 0")
        if self.target <= 0:
            raise ValueError(f"target={self.target} must be positive, e.g. 10000")
        for name, known in (("going_out", GOING_OUT), ("direction", DIRECTIONS), ("first_player", FIRST_PLAYERS),
                            ("empty_stock", EMPTY_STOCK), ("added_cards", ADDED_CARDS)):
            if getattr(self, name) not in known:
                raise ValueError(f"{name}={getattr(self, name)!r} is unknown; choose one of "
                                 + ", ".join(repr(g) for g in known))
        for name in ("swap_twos", "wild_melds", "going_out_needs_canasta"):
            if not isinstance(getattr(self, name), (bool, np.bool_)):
                raise ValueError(f"{name}={getattr(self, name)!r} must be True or False")

    @property
    def deck_size(self) -> int:
        return 104 + self.jokers

    @property
    def wild_code(self) -> int:
        return WILD_LIMITS.index(self.wild_limit)

    def points(self) -> np.ndarray:
        """Card points per kind (int64[15]) as the kernels use them."""
        p = np.empty(N_KINDS, dtype=np.int64)
        p[TWO] = TWO_POINTS
        p[BLACK3] = p[RED3] = 100
        p[FOUR:FOUR + 4] = self.low_points  # 4 5 6 7
        p[FOUR + 4:KING] = self.high_points  # 8 9 10 J Q
        p[KING] = 10  # the seed's own value
        p[ACE] = self.ace_points
        p[JOKER] = JOKER_POINTS
        return p

    def pack(self) -> np.ndarray:
        """The rules as the int64 array the kernels read, laid out by :data:`RULES`."""
        return RULES.pack(
            points=self.points(), wild_code=self.wild_code, min_first_meld=int(self.min_first_meld),
            wild_melds=int(bool(self.wild_melds)), swap_twos=int(bool(self.swap_twos)), jokers=int(self.jokers),
            going_out_bonus=int(self.going_out_bonus),
            going_out_needs_canasta=int(bool(self.going_out_needs_canasta)),
            meld_all=int(self.going_out == "meld_all"), target=int(self.target),
            direction=1 if self.direction == "clockwise" else -1, first_dealer=int(self.first_player == "dealer"),
            empty_stock=EMPTY_STOCK.index(self.empty_stock), added_cards=ADDED_CARDS.index(self.added_cards),
        )

    def to_dict(self) -> dict:
        return asdict(self)


def check_rules(rules) -> CanastaRules:
    """``rules`` as given if it is a :class:`CanastaRules`, the defaults for None, else ``ValueError``."""
    if rules is None:
        return CanastaRules()
    if not isinstance(rules, CanastaRules):
        raise ValueError("rules must be a CanastaRules object, e.g. CanastaRules(wild_limit='three')")
    return rules


#: The fields meld odds read (:func:`meld_rules` and the pack's size): the flags of ``melds`` and ``hand``.
MELD_FIELDS = ("jokers", "wild_limit", "min_first_meld", "wild_melds", "ace_points", "high_points", "low_points")


def meld_rules(rules: CanastaRules) -> tuple:
    """``(points, wild_code, min_first_meld, wild_melds)`` as the meld helpers of
    :mod:`cardodds.canasta._kernels` take them, read from :meth:`CanastaRules.pack`."""
    v = RULES.view(rules.pack())
    return (v.points.copy(), v.wild_code, v.min_first_meld, v.wild_melds)
