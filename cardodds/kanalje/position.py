"""A Kanalje position: what one seat knows when it is its turn to play a card.

:class:`Position` reads the position in the words of ``cardodds kanalje advise`` (my seat, my
hand now, the turned card, the tricks so far; two players: the face-up cards in phase 1, or the
card that named trump and the phase-1 cards I remember in phase 2), checks it once (every
refusal one line naming the argument and the fix) and prints it back in the same words.
:func:`~cardodds.kanalje.advise` takes it; so do :func:`~cardodds.kanalje.positions` (each
position a record shows a seat) and the strategy tables' :meth:`~cardodds.strategy.StrategyTablesResult.lookup`.

>>> p = Position(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d", turned="Td", played="0: Kh 3h")
>>> print(p)
--seat 2 --hand "Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d" --turned Td --played "0: Kh 3h"
>>> p.options, p.phase
(('2h', 'Ah'), 0)
>>> Position(seat=1, hand="Ah", turned="Td")
Traceback (most recent call last):
...
ValueError: hand: 1 cards, but seat 1 has played 0 of its 17, so it holds 17; give my cards now
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from .. import advice
from ..cards import card_str, format_cards
from ._common import check_lookahead_samples
from ._defaults import DEFAULT_LOOKAHEAD_SAMPLES
from .equity import check_game_score
from ._position import CARD_ARG, PHASE1, PHASE2, THREE, Known, check_position, played_text
from .rules import KanaljeRules, check_rules

__all__ = ["Position"]

_DEFAULT_RULES = {3: KanaljeRules(players=3), 2: KanaljeRules(players=2)}


def _card_words(value):
    """A card given as its code reads as its name (the checks read names and lists)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        return card_str(int(value))
    return value


@dataclass(frozen=True, kw_only=True, repr=False)
class Position(advice.Position):
    """What one Kanalje seat knows when it is its turn (see the module).

    ``seat``: mine (0 leads the first trick; two players: the non-dealer). ``hand``: my cards
    now. ``played``: the tricks so far, ``"L: c c c; ..."`` (the leader, then its cards in
    order), a last short group being the trick I play to next (two players: the phase's tricks).
    Three players give ``turned``, the turned card; two players (``rules=KanaljeRules(players=2)``)
    in phase 1 ``faceup``, every trick's face-up stock card, the current one last; in phase 2
    ``trump``, the dead card that named trump, and ``dead``, the phase-1 cards I remember.
    ``infer=True``: the advice weighs each world by the others' plays (three players, or phase
    2). ``lookahead_samples``: the worlds the lookahead and pimc players sample a decision.
    ``score``: the game's totals before this deal, one a seat (seat 0 sits left of the dealer
    and leads; the next deal's dealer is seat 0): the advice then values a card by my chance
    to win the game (:func:`~cardodds.kanalje.equity`). Two players in phase 2: the totals with
    this deal's phase-1 jacks paid (the figures are phase 2's).

    Cards read as text (``"Ah 7c"``), a list of names or of codes; they are kept as codes, the
    tricks as ``((leader, (card, ...)), ...)``.
    """

    # Read as given (text, names or codes), kept as codes: the types are the kept ones.
    seat: int
    hand: tuple[int, ...] | Any
    turned: int | Any = None
    played: tuple[tuple[int, tuple[int, ...]], ...] | Any = ()
    faceup: tuple[int, ...] | Any = None
    trump: int | Any = None
    dead: tuple[int, ...] | Any = None
    rules: KanaljeRules = None  # type: ignore[assignment]  # None reads as KanaljeRules()
    infer: bool = False
    lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES
    score: tuple[int, ...] | Any = None
    _known: Known = field(init=False, repr=False, compare=False, hash=False)

    game: ClassVar[str] = "kanalje"

    def __post_init__(self) -> None:
        rules = check_rules(self.rules)
        samples = check_lookahead_samples(self.lookahead_samples)
        if not isinstance(self.infer, (bool, np.bool_)):
            raise ValueError(f"infer={self.infer!r} must be True or False")
        k = check_position(self.seat, self.hand, _card_words(self.turned), self.played, rules,
                           trump=_card_words(self.trump), faceup=self.faceup, dead=self.dead)
        if self.infer and k.phase == PHASE1:
            raise ValueError("infer=True weighs the plays in the trick play (three players, or phase 2); in phase 1 "
                             "every consistent world is dealt alike")
        put = object.__setattr__
        if self.score is not None:
            if self.infer:
                raise ValueError("infer=True and a score: the advice weighs worlds or values the game, not both here; "
                                 "leave out one")
            try:
                put(self, "score", check_game_score(self.score, rules, whole=k.phase != PHASE2))
            except ValueError as e:
                raise ValueError(f"score: {e}") from None
        put(self, "rules", rules)
        put(self, "lookahead_samples", samples)
        put(self, "infer", bool(self.infer))
        put(self, "seat", k.seat)
        put(self, "hand", k.hand)
        put(self, "played", k.played)
        put(self, "turned", k.turned if k.phase == THREE else None)
        put(self, "faceup", k.faceups if k.phase == PHASE1 else None)
        put(self, "trump", k.turned if k.phase == PHASE2 else None)
        put(self, "dead", k.dead if k.phase == PHASE2 else None)
        put(self, "_known", k)

    # ---- what the position is -----------------------------------------------------------
    @property
    def phase(self) -> int:
        """0 three players, 1 two players' phase 1, 2 their phase 2."""
        return self._known.phase

    @property
    def card(self) -> int:
        """The position's card: the turned card, the face-up card now (phase 1), the trump card (phase 2)."""
        return self._known.turned

    @property
    def card_name(self) -> str:
        """The argument that names it: ``"turned"``, ``"faceup"`` or ``"trump"``."""
        return CARD_ARG[self.phase]

    @property
    def card_text(self) -> str:
        """Its words (phase 1: every face-up card, in order)."""
        return format_cards(self.faceup) if self.faceup is not None else card_str(self.card)

    @property
    def played_text(self) -> str:
        """The tricks as ``played`` reads them."""
        return played_text(self.played)

    @property
    def options(self) -> tuple[str, ...]:
        """My legal cards, by suit and rank (the order of an advice's options)."""
        return tuple(card_str(c) for c in self._known.options)

    @property
    def jacks_out(self) -> tuple[int, ...]:
        """The suits of the jacks nobody has taken yet (and that can still be taken)."""
        return self._known.jacks_out

    # ---- in words -----------------------------------------------------------------------
    def words(self) -> dict[str, str | None]:
        """The flags of ``cardodds kanalje advise`` and their words (None: left out)."""
        r = self.rules
        default = _DEFAULT_RULES[r.players]
        return {
            "seat": str(self.seat), "hand": format_cards(self.hand), self.card_name: self.card_text,
            "dead": format_cards(self.dead) if self.dead else None,
            "played": self.played_text or None,
            "players": "2" if r.players == 2 else None,
            "turned_jack": r.turned_jack.replace("_", "-") if r.turned_jack != default.turned_jack else None,
            "no_phase1_jacks_cost": "" if r.players == 2 and not r.phase1_jacks_cost else None,
            "infer": "" if self.infer else None,
            "lookahead_samples": (str(self.lookahead_samples) if self.lookahead_samples != DEFAULT_LOOKAHEAD_SAMPLES
                                  else None),
            "score": ",".join(map(str, self.score)) if self.score is not None else None,
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the seat, the cards in words, the tricks as ``played`` reads them, the phase
        (two players), ``infer``, ``lookahead_samples`` and the game's ``score`` (when given)."""
        d: dict[str, Any] = {"seat": self.seat, "hand": format_cards(self.hand), self.card_name: self.card_text}
        if self.phase == PHASE2:
            d["dead"] = format_cards(self.dead or ())
        d["played"] = self.played_text
        if self.phase != THREE:
            d["phase"] = self.phase
        d.update(players=self.rules.players, infer=self.infer, lookahead_samples=self.lookahead_samples)
        if self.score is not None:
            d["score"] = list(self.score)
        return d

    def __repr__(self) -> str:
        w = {"seat": self.seat, "hand": format_cards(self.hand), self.card_name: self.card_text}
        if self.dead:
            w["dead"] = format_cards(self.dead)
        if self.played:
            w["played"] = self.played_text
        if self.rules != KanaljeRules():
            w["rules"] = self.rules
        if self.infer:
            w["infer"] = True
        if self.lookahead_samples != DEFAULT_LOOKAHEAD_SAMPLES:
            w["lookahead_samples"] = self.lookahead_samples
        if self.score is not None:
            w["score"] = self.score
        return "Position(" + ", ".join(f"{k}={v!r}" for k, v in w.items()) + ")"
