"""A Polish Canasta position: what I (seat 0) know at one decision of mine.

:class:`Position` reads the position in the words of ``cardodds canasta advise`` (my hand, the
melds of both sides, the red 3s, the pile as known, the other hands, the cards known there and
those each player threw, the table turn, the game score, the decision and the options asked
about), checks it once under its rules (:mod:`cardodds.canasta._position`: every refusal one
line naming the argument and the fix) and prints it back in the same words.
:func:`~cardodds.canasta.advise` takes it; so does :func:`~cardodds.canasta.positions` (each
decision a record shows a seat, as that seat knew it).

>>> p = Position("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", top="K", pile_size=6,
...              counts=(10, 9, 11))
>>> print(p)
--hand "K K 9 9 5 7 Q Jk 3b" --melds "us: A A A; them: 8 8 8" --pile-size 6 --top K --counts 10,9,11 --decision discard
>>> p.labels[:2]
('discard 3b', 'discard 5')
>>> Position("K K Q", counts=(1, 2))
Traceback (most recent call last):
...
ValueError: counts=(1, 2): give three card counts >= 1 (left opponent, partner, right opponent), e.g. (12, 11, 12)
"""

from __future__ import annotations

import re
from dataclasses import KW_ONLY, dataclass, field
from typing import Any

import numpy as np

from .. import advice
from . import _position as P
from ._defaults import ADVICE_COUNTS, ADVICE_DECISIONS, ADVICE_RED3, ADVICE_TURN
from .cards import KIND_NAMES
from .rules import CanastaRules, check_rules

__all__ = ["Position"]


def _tokens(value) -> list[str]:
    """Cards as words: text split at spaces and commas, a kind's number as its name."""
    if isinstance(value, str):
        return [x for x in re.split(r"[\s,]+", value.strip()) if x]
    out = []
    for x in value:
        if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
            out.append("?" if x == P.UNKNOWN else KIND_NAMES[int(x)] if 0 <= x < len(KIND_NAMES) else str(x))
        else:
            out.append(str(x).strip())
    return out


def _cards(value) -> str | None:
    """Cards as text, None for none."""
    if value is None:
        return None
    return " ".join(_tokens(value)) or None


def _per_seat(value) -> str | None:
    """``{1: "K K 9"}`` or ``"1: K K 9; 3: Q"`` as text (the parser checks the seats)."""
    if value is None:
        return None
    if isinstance(value, dict):
        value = "; ".join(f"{s}: {_cards(c)}" for s, c in value.items())
    elif not isinstance(value, str):
        raise ValueError(f"{value!r}: give a dict such as {{1: \"K K 9\"}} or text \"1: K K 9; 3: Q\"")
    value = value.strip()
    return value or None


def _numbers(value, what: str, n: int, example: str, low: int | None = 0) -> tuple[int, ...]:
    return tuple(P.whole_numbers(value, what, n, example, low))


def _choices(value) -> tuple[str, ...] | None:
    if value is None:
        return None
    names = value.split(",") if isinstance(value, str) else [str(x) for x in value]
    return tuple(x.strip() for x in names)


@dataclass(frozen=True, repr=False)
class Position(advice.Position):
    """What I (seat 0; my partner seat 2, seat 1 on my left) know at one decision (see the module).

    ``hand``: my cards after my draw (``Kh`` is that card, ``K`` any king). ``melds``: ``"us: K
    K K 2; them: 9 9 9"``. ``red3``: the red 3s laid (us, them). ``pile``: bottom to top, ``?``
    unknown (``"5 7 ? ? K"``); ``pile_size`` when fewer are listed (the rest unknown, underneath);
    ``top``: the top card. ``counts``: the cards of seats 1 (left), 2 (partner), 3 (right);
    ``known``: cards known there, ``{1: "K K 9"}``; ``thrown``: the cards each seat discarded this
    hand (0 me), which heuristic2 remembers. ``turn``: table turns before mine (checked against the
    cards out; None: not checked). ``score``: the game score before the hand (us, them): the
    options are then ranked by P(we win the game). ``decision``: ``"take"`` (each way of taking
    the pile, or leave it), ``"discard"``, ``"out"`` (each move that goes out now, or stay in),
    ``"meld"`` (each new meld, or hold). ``options``: only these (names as printed, or a discard's
    card). ``rules``: the rules the position is read under (None: the defaults).

    Cards are kept as the words given (a list of kinds reads as their names), the numbers as
    tuples; :attr:`labels` are the options of the decision, in the advice's order.
    """

    hand: Any
    _: KW_ONLY
    melds: str | None = None
    red3: Any = ADVICE_RED3
    pile: Any = None
    pile_size: int | None = None
    top: Any = None
    counts: Any = ADVICE_COUNTS
    known: Any = None
    thrown: Any = None
    turn: int | None = ADVICE_TURN
    score: Any = None
    decision: str = "discard"
    options: Any = None
    rules: CanastaRules = None  # type: ignore[assignment]  # None reads as CanastaRules()
    seat: int = 0
    _packed: P.Position = field(init=False, repr=False, compare=False, hash=False)
    _opts: tuple = field(init=False, repr=False, compare=False, hash=False)

    game = "canasta"

    def __post_init__(self) -> None:
        put = object.__setattr__
        rules = check_rules(self.rules)
        if isinstance(self.seat, bool) or self.seat != 0:
            raise ValueError(f"seat={self.seat!r}: the advisor's seat is 0 (me; 1 my left opponent, 2 my partner, "
                             "3 my right opponent); give the position as I see it")
        if self.decision not in ADVICE_DECISIONS:
            raise ValueError(f"decision={self.decision!r} is unknown; choose "
                             + ", ".join(repr(d) for d in ADVICE_DECISIONS))
        hand = _cards(self.hand)
        melds = None if self.melds is None or not str(self.melds).strip() else str(self.melds).strip()
        pile = _cards(self.pile)
        top = _cards(self.top)
        known, thrown = _per_seat(self.known), _per_seat(self.thrown)
        counts = _numbers(self.counts, "counts", 3, "three card counts >= 1 (left opponent, partner, right "
                          "opponent), e.g. (12, 11, 12)")
        red3 = _numbers(self.red3, "red3", 2, "the red 3s laid by us and by them, e.g. (1, 0)")
        score = P.game_score(self.score, rules)
        packed = P.position(hand, melds=melds, pile=pile, pile_size=self.pile_size, top=top, counts=counts,
                            red3=red3, known=known, thrown=thrown, turn=self.turn, decision=self.decision,
                            rules=rules)
        options = _choices(self.options)
        opts, labels = P.options_of(packed.base, rules.pack(), self.decision, options)
        for name, value in (("hand", hand), ("melds", melds), ("pile", pile), ("top", top), ("known", known),
                            ("thrown", thrown), ("counts", counts), ("red3", red3), ("rules", rules),
                            ("options", options), ("score", None if score is None else tuple(score)),
                            ("pile_size", None if self.pile_size is None else int(self.pile_size)),
                            ("turn", None if self.turn is None else int(self.turn))):
            put(self, name, value)
        put(self, "_packed", packed)
        put(self, "_opts", (opts, tuple(labels)))

    # ---- what the position is -----------------------------------------------------------
    @property
    def labels(self) -> tuple[str, ...]:
        """The options of the decision (those of ``options`` alone when it is given), as the advice names them."""
        return self._opts[1]

    # ---- in words -----------------------------------------------------------------------
    def words(self) -> dict[str, str | None]:
        """The flags of ``cardodds canasta advise`` and their words (None: left out)."""
        def nums(v, default=None) -> str | None:
            return None if v is None or tuple(v) == default else ",".join(map(str, v))

        return {"hand": self.hand, "melds": self.melds, "pile": self.pile,
                "pile_size": None if self.pile_size is None else str(self.pile_size), "top": self.top,
                "counts": nums(self.counts, tuple(ADVICE_COUNTS)), "known": self.known, "thrown": self.thrown,
                "red3": nums(self.red3, tuple(ADVICE_RED3)), "turn": None if self.turn is None else str(self.turn),
                "score": nums(self.score), "decision": self.decision,
                "options": None if self.options is None else ",".join(self.options)}

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, as the constructor reads it back (``Position(**d)``, the rules aside)."""
        d: dict[str, Any] = {"hand": self.hand, "melds": self.melds, "pile": self.pile, "pile_size": self.pile_size,
                             "top": self.top, "counts": list(self.counts), "red3": list(self.red3),
                             "known": self.known, "thrown": self.thrown, "turn": self.turn,
                             "score": None if self.score is None else list(self.score), "decision": self.decision,
                             "options": None if self.options is None else list(self.options)}
        return {k: v for k, v in d.items() if v is not None}

    def __repr__(self) -> str:
        d = self.to_dict()
        hand = d.pop("hand")
        for key, default in (("counts", ADVICE_COUNTS), ("red3", ADVICE_RED3), ("decision", "discard")):
            if d[key] == list(default) or d[key] == default:
                del d[key]
        if self.rules != CanastaRules():
            d["rules"] = self.rules
        return f"Position({hand!r}" + "".join(f", {k}={v!r}" for k, v in d.items()) + ")"
