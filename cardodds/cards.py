"""Card codes for the 52-card deck: parsing and printing of the forms players type.

A card is the integer ``rank * 4 + suit`` (rank-major), with ranks 0..12 for 2..A and
suits 0..3 for clubs, diamonds, hearts, spades. Rank-major order keeps "same rank" a
shift away (``code >> 2``), which is what every game here compares first. An unknown
card (``?``) is :data:`UNKNOWN` (-1).

>>> parse_card("Ah"), parse_card("10♥"), parse_card("td")
(50, 34, 33)
>>> card_str(50)
'Ah'
>>> parse_cards("9h ? ?", allow_unknown=True)
[30, -1, -1]
>>> format_cards([48, 49, 50, 51])
'Ac Ad Ah As'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = [
    "DECK_SIZE",
    "RANKS",
    "SUITS",
    "UNKNOWN",
    "card_rank",
    "card_str",
    "card_suit",
    "card_value",
    "format_cards",
    "make_card",
    "parse_card",
    "parse_cards",
]

DECK_SIZE = 52
UNKNOWN = -1
#: Rank letters, index = rank code (2 = 0 ... A = 12).
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")
#: Suit letters, index = suit code.
SUITS = ("c", "d", "h", "s")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

_RANK_ALIASES = {r.lower(): i for i, r in enumerate(RANKS)}
_RANK_ALIASES["10"] = RANKS.index("T")
_SUIT_ALIASES = {s: i for i, s in enumerate(SUITS)}
# Outline symbols are what some keyboards and fonts produce for the same suits.
_SUIT_ALIASES.update({"♣": 0, "♧": 0, "♦": 1, "♢": 1, "♥": 2, "♡": 2, "♠": 3, "♤": 3})
_TOKEN = re.compile(r"^(10|[2-9tjqka])([cdhs♣♧♦♢♥♡♠♤])$", re.IGNORECASE)
_ACCEPTED = (
    "a rank 2-10, T, J, Q, K or A followed by a suit c, d, h, s or ♣ ♦ ♥ ♠ "
    "(e.g. 'Ah', '10h', 'Th', 'A♥')"
)


def make_card(rank: int, suit: int) -> int:
    """The code of the card of rank code ``rank`` (0 = 2 ... 12 = A) and suit code ``suit``."""
    return rank * 4 + suit


def card_rank(card: int) -> int:
    """Rank code 0..12 (2..A)."""
    return card >> 2


def card_suit(card: int) -> int:
    """Suit code 0..3 (clubs, diamonds, hearts, spades)."""
    return card & 3


def card_value(card: int) -> int:
    """Face value: 2..10, J 11, Q 12, K 13, A 14."""
    return (card >> 2) + 2


def parse_card(token: str, *, allow_unknown: bool = False) -> int:
    """Parse one card token; ``?`` gives :data:`UNKNOWN` when ``allow_unknown``.

    Raises ``ValueError`` naming the token and the accepted forms.
    """
    if not isinstance(token, str):
        raise ValueError(f"card {token!r} is not text; write cards like 'Ah', '10h' or 'A♥'")
    t = token.strip()
    if t == "?":
        if allow_unknown:
            return UNKNOWN
        raise ValueError("'?' (an unknown card) is not allowed here; name the card, e.g. 'Ah'")
    m = _TOKEN.match(t)
    if m is None:
        extra = " or '?' for an unknown card" if allow_unknown else ""
        raise ValueError(f"cannot read card {token!r}: write {_ACCEPTED}{extra}")
    return make_card(_RANK_ALIASES[m.group(1).lower()], _SUIT_ALIASES[m.group(2).lower()])


def parse_cards(
    text: str | Iterable[str | int],
    *,
    allow_unknown: bool = False,
    allow_duplicates: bool = False,
) -> list[int]:
    """Parse cards separated by spaces or commas (or an iterable of tokens or codes).

    A card named twice raises ``ValueError`` unless ``allow_duplicates``; ``?`` may repeat.
    """
    if isinstance(text, str):
        tokens: Sequence[str | int] = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    else:
        tokens = list(text)
    cards = []
    for tok in tokens:
        if isinstance(tok, (int,)) and not isinstance(tok, bool):
            if tok == UNKNOWN and allow_unknown:
                cards.append(UNKNOWN)
                continue
            if not 0 <= tok < DECK_SIZE:
                raise ValueError(f"card code {tok} is outside 0..51; pass codes from cardodds.cards or text like 'Ah'")
            cards.append(int(tok))
        else:
            cards.append(parse_card(str(tok), allow_unknown=allow_unknown))
    if not allow_duplicates:
        seen: set[int] = set()
        for c in cards:
            if c != UNKNOWN and c in seen:
                raise ValueError(f"card {card_str(c)} is given twice; each card of the deck exists once")
            seen.add(c)
    return cards


def card_str(card: int, *, symbols: bool = False) -> str:
    """Short name of a card: ``'Ah'`` (or ``'A♥'`` with ``symbols``); ``'?'`` for unknown."""
    if card == UNKNOWN:
        return "?"
    if not 0 <= card < DECK_SIZE:
        raise ValueError(f"card code {card} is outside 0..51")
    suit = SUIT_SYMBOLS[card & 3] if symbols else SUITS[card & 3]
    return RANKS[card >> 2] + suit


def format_cards(cards: Iterable[int], *, symbols: bool = False) -> str:
    """Cards joined by spaces, as :func:`parse_cards` reads them back."""
    return " ".join(card_str(int(c), symbols=symbols) for c in cards)
