"""A Känä position: what one seat knows at its känä (docs/rules/kana.md §5).

:class:`Position` reads the position in the words of ``cardodds kana advise`` (my seat in the
känä order, what I know of my cards, the cards känäd before me), checks it once (one-line
refusals) and prints it back in the same words. :func:`~cardodds.kana.advise` takes it, checked
against the rules' variant and table (:func:`check_rules_fit`); :func:`~cardodds.kana.positions`
gives each position a record shows a seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import advice
from ..cards import card_str, format_cards, parse_cards
from .rules import MAX_PLAYERS, KanaRules

__all__ = ["Position"]


def _check_seat(seat) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < MAX_PLAYERS:
        raise ValueError(f"seat={seat!r}: my seat is my place in the känä order, a whole number from 0 (the starter) "
                         f"to {MAX_PLAYERS - 1} (a table seats {MAX_PLAYERS} at most)")
    return int(seat)


def _check_hand(cards) -> tuple[int, int, int]:
    """My three cards as I know them (-1 for those not seen)."""
    mine = parse_cards(cards, allow_unknown=True) if cards is not None else [-1, -1, -1]
    if len(mine) != 3:
        raise ValueError(f"a hand holds 3 cards; give all three, '?' for those not seen (e.g. '9h ? ?'), "
                         f"got {len(mine)}")
    return mine[0], mine[1], mine[2]


def check_rules_fit(rules: KanaRules, pos: Position) -> None:
    """What the variant lets me know of my cards, and my seat at a table of ``rules.players``."""
    n = rules.players
    if not pos.seat < n:
        raise ValueError(f"seat {pos.seat} does not exist at a table of {n}; my seat in the känä order is 0..{n - 1}")
    mine = pos.hand
    known = [c for c in mine if c >= 0]
    if rules.variant == "official" and known:
        raise ValueError("under the official rules nobody may look at their cards: give '? ? ?', "
                         "or choose a peek variant")
    if rules.variant == "peek-one" and (len(known) > 1 or (known and mine[0] < 0)):
        raise ValueError("in peek-one I know one card, the peeked one, written first: e.g. '9h ? ?'")
    if rules.variant == "peek-all" and len(known) != 3:
        raise ValueError("in peek-all I have seen all three cards: give them all, e.g. '9h Kd 2c'")
    if rules.variant == "peek-one" and not known:
        raise ValueError("in peek-one give the card I peeked first, e.g. '9h ? ?'")


def _kanad_from_sequence(cards) -> dict[int, int]:
    """``"5c ? Kd"`` or ``["5c", "?", "Kd"]``: seats 0, 1, ... in order, ``?`` for one not seen."""
    if isinstance(cards, str) and not cards.strip():
        return {}
    return {s: c for s, c in enumerate(parse_cards(cards, allow_unknown=True)) if c >= 0}


def _kanad_from_mapping(cards) -> dict[int, int]:
    """``{seat: card}`` with a card as text or as its number."""
    return {int(s): (c if isinstance(c, int) else parse_cards([c])[0]) for s, c in dict(cards).items()}


def _parse_kanad(kanad) -> dict[int, int]:
    if kanad is None:
        return {}
    if isinstance(kanad, (str, list, tuple)):
        return _kanad_from_sequence(kanad)
    return _kanad_from_mapping(kanad)


def _check_kanad(kanad: dict[int, int], seat: int, mine) -> tuple[int, ...]:
    """Känäd cards can only be the earlier seats', and no card can be seen twice: the card
    känäd by each seat before mine, -1 where not seen."""
    for s in kanad:
        if not 0 <= s < seat:
            raise ValueError(
                f"a känäd card is given for seat {s}, but only the {seat} seat(s) before mine (0..{seat - 1}) have "
                "känäd when it is my turn"
            )
    clash = {c for c in mine if c >= 0} & set(kanad.values())
    if clash:
        raise ValueError(f"card {card_str(min(clash))} is both in my hand and among the känäd cards; "
                         "each card exists once")
    if len(set(kanad.values())) != len(kanad):
        raise ValueError("a känäd card is given twice; each card exists once")
    return tuple(kanad.get(s, -1) for s in range(seat))


@dataclass(frozen=True, init=False, repr=False)
class Position(advice.Position):
    """What one seat knows at its känä: ``seat`` (its place in the känä order, 0 = the
    starter), ``hand`` (what it knows of its three cards, -1 for one not seen; in peek-one the
    peeked card first) and ``kanad`` (the card känäd by each seat before it, -1 for one it did
    not see). Read from the player's words and checked at once; the variant and the table's
    size are the rules' (checked against them by :func:`advise`).

    ``hand``: ``"9h ? ?"`` (default ``"? ? ?"``); ``kanad``: ``"5c Kd"`` for seats 0 and 1 in
    order, ``"? Kd"`` when I missed seat 0's, or ``{1: "Kd"}``.

    >>> p = Position("9h ? ?", seat=2, kanad="? Kd")
    >>> print(p)
    --seat 2 --hand "9h ? ?" --kanad "? Kd"
    >>> Position(**p.to_dict()) == p
    True
    """

    seat: int
    hand: tuple[int, int, int]
    kanad: tuple[int, ...]

    game = "kana"

    def __init__(self, hand=None, *, seat: int = 0, kanad=None):
        seat = _check_seat(seat)
        mine = _check_hand(hand)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "hand", mine)
        object.__setattr__(self, "kanad", _check_kanad(_parse_kanad(kanad), seat, mine))

    @property
    def kanad_by_seat(self) -> dict[int, int]:
        """The känäd cards I saw, by seat."""
        return {s: c for s, c in enumerate(self.kanad) if c >= 0}

    def _kanad_words(self) -> str:
        last = max(self.kanad_by_seat, default=-1)
        return format_cards(self.kanad[:last + 1])

    def words(self) -> dict[str, str | None]:
        """The flags of ``cardodds kana advise`` and their words (None: left out)."""
        return {"seat": str(self.seat), "hand": format_cards(self.hand), "kanad": self._kanad_words() or None}

    def __repr__(self) -> str:
        kanad = self._kanad_words()
        return (f"Position({format_cards(self.hand)!r}, seat={self.seat}" + (f", kanad={kanad!r}" if kanad else "")
                + ")")
