"""A Kanalje hand: my cards at the deal's start, what :func:`~cardodds.kanalje.evaluate_hand` values.

:class:`Hand` reads the hand in the words of ``cardodds kanalje hand`` (my cards, the card beside
them, my seat), checks it once under its rules (every refusal one line naming the argument and
the fix) and prints it back in the same words. A :class:`~cardodds.kanalje.Position` is a seat's
decision in the middle of a deal; a hand is the deal's start, in any seat.

>>> h = Hand("Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", "7h", seat=1)
>>> print(h)
--hand "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s" --turned 7h --seat 1
>>> Hand("Ac Kc 4c", "7h")
Traceback (most recent call last):
...
ValueError: the hand has 3 cards; a Kanalje hand for 3 players has 17, e.g. --hand "2c 5c ... Ah" (17 cards)
"""

from __future__ import annotations

from dataclasses import KW_ONLY, dataclass
from typing import Any

import numpy as np

from .._fields import rule_fields, value_words
from ..advice import _quote
from ..cards import card_str, format_cards, parse_card, parse_cards
from .rules import KanaljeRules, check_rules

__all__ = ["Hand"]

#: The argument that names the hand's card, by phase.
_CARD_ARG = ("turned", "faceup", "trump")
#: Rules fields the hand's command has no flag for: they do not change one deal (nor does a rule of
#: the other player count, which a command refuses).
_NOT_A_DEAL = ("target",)


def _check_hand(hand, turned, seat, rules, faceup=None, trump=None):
    """Validate a hand; returns ``(cards, card, seat, phase)``: ``card`` is the turned card
    (three players, ``phase`` 0), the face-up stock card (two players, ``phase`` 1) or the dead
    card that named the phase-2 trump (two players, ``phase`` 2)."""
    cards = parse_cards(hand) if isinstance(hand, str) else parse_cards(list(hand))
    if len(cards) != rules.hand_size:
        example = "17" if rules.players == 3 else "13"
        raise ValueError(f"the hand has {len(cards)} cards; a Kanalje hand for {rules.players} players has "
                         f"{rules.hand_size}, e.g. --hand \"2c 5c ... Ah\" ({example} cards)")
    if rules.players == 3:
        if faceup is not None or trump is not None:
            raise ValueError("faceup= and trump= belong to the two-player game (players=2); with three players "
                             "give the turned card, e.g. turned='7h'")
        if turned is None:
            raise ValueError("give the turned card (it names trump), e.g. turned='7h'")
        card, phase, what = turned, 0, "turned card"
    else:
        if turned is not None:
            raise ValueError("two players have no turned card: give faceup='7h' (the face-up stock card, phase 1) "
                             "or trump='7h' (the dead phase-1 card that named trump, phase 2)")
        if (faceup is None) == (trump is None):
            raise ValueError("give exactly one of faceup='7h' (phase 1: my 13 cards and the face-up stock card) "
                             "or trump='7h' (phase 2: my 13 cards and the dead card that named trump)")
        card, phase, what = (faceup, 1, "face-up card") if faceup is not None else (trump, 2, "trump card")
    t = parse_card(card) if isinstance(card, str) else parse_cards([card])[0]
    if t in cards:
        raise ValueError(f"the {what} {card_str(t)} is also in the hand; each card exists once")
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < rules.players:
        raise ValueError(f"seat={seat!r} must be 0..{rules.players - 1} (0 leads the first trick)")
    return cards, t, int(seat), phase


@dataclass(frozen=True, repr=False)
class Hand:
    """My cards at the deal's start (see the module).

    ``cards``: my 17 cards (13 with two players). Three players give ``turned``, the turned
    card (its suit is trump); two players (``rules=KanaljeRules(players=2)``) ``faceup``, the
    face-up stock card (phase 1: the whole deal), or ``trump``, the dead phase-1 card that
    named trump (phase 2 alone). ``seat``: mine, 0 leads (two players: the non-dealer in phase 1).

    Cards read as text (``"Ah 7c"``), a list of names or of codes; they are kept as codes.
    """

    # Read as given (text, names or codes), kept as codes: the types are the kept ones.
    cards: tuple[int, ...] | Any
    turned: int | Any = None
    _: KW_ONLY
    faceup: int | Any = None
    trump: int | Any = None
    seat: int = 0
    rules: KanaljeRules = None  # type: ignore[assignment]  # None reads as KanaljeRules()

    def __post_init__(self) -> None:
        rules = check_rules(self.rules)
        cards, card, seat, phase = _check_hand(self.cards, self.turned, self.seat, rules, self.faceup, self.trump)
        put = object.__setattr__
        put(self, "rules", rules)
        put(self, "cards", tuple(cards))
        put(self, "seat", seat)
        for p, name in enumerate(_CARD_ARG):
            put(self, name, card if p == phase else None)

    @property
    def phase(self) -> int:
        """0 three players; two players: 1 the deal from phase 1, 2 phase 2 alone."""
        return 0 if self.turned is not None else 1 if self.faceup is not None else 2

    @property
    def card(self) -> int:
        """The card beside my cards: the turned card, the face-up card or the trump card."""
        return (self.turned, self.faceup, self.trump)[self.phase]

    @property
    def card_name(self) -> str:
        """The argument that names it: ``"turned"``, ``"faceup"`` or ``"trump"``."""
        return _CARD_ARG[self.phase]

    def words(self) -> dict[str, str]:
        """The flags of ``cardodds kanalje hand`` (without ``--``, ``_`` for ``-``) and their
        words (``""`` for a switch)."""
        w = {"hand": format_cards(self.cards), self.card_name: card_str(self.card), "seat": str(self.seat)}
        for f in rule_fields(self.rules):
            name, value, players = f.name, getattr(self.rules, f.name), f.metadata.get("players")
            if value == f.default or name in _NOT_A_DEAL or players not in (None, self.rules.players):
                continue
            if isinstance(value, bool):
                w[name if value else f"no_{name}"] = ""
            else:
                w[name] = value_words(value)
        return w

    def __str__(self) -> str:
        return " ".join(f"--{k.replace('_', '-')}" + (f" {_quote(v)}" if v else "") for k, v in self.words().items())

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the cards in words, the seat, the phase (two players) and the rules."""
        d: dict[str, Any] = {"hand": format_cards(self.cards), self.card_name: card_str(self.card), "seat": self.seat}
        if self.rules.players == 2:
            d["phase"] = self.phase
        d["rules"] = self.rules.to_dict()
        return d

    def __repr__(self) -> str:
        w: dict[str, Any] = {self.card_name: card_str(self.card)}
        if self.seat:
            w["seat"] = self.seat
        if self.rules != KanaljeRules():
            w["rules"] = self.rules
        return f"Hand({format_cards(self.cards)!r}, " + ", ".join(f"{k}={v!r}" for k, v in w.items()) + ")"
