"""The 108-card Canasta pack: two 52-card decks and four Jokers (six with ``jokers=6``).

Suits matter in Canasta only for the colour of a 3, so the kernels see a hand as counts
per **kind** (15 kinds): the wild 2, the black 3, the red 3, the natural ranks 4..A, and
the Joker. Text is read with :mod:`cardodds.cards` for the 52 cards, plus ``Jk`` or ``*``
(also ``Joker``) for a Joker; a card may appear at most twice (two decks).

>>> counts = hand_counts("Kh Kd Ks 2c Jk 3h 3s")
>>> format_counts(counts)
'Jk 2 3b 3r K K K'
>>> int(counts[KING]), int(counts[JOKER]), int(counts[RED3])
(3, 1, 1)
>>> int(deck_counts(4).sum())
108
>>> kind_of("3d"), kind_of("3c"), kind_of("*") == JOKER
(2, 1, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import numpy as np

from .. import cards as _cards

__all__ = [
    "ACE",
    "BLACK3",
    "JOKER",
    "KING",
    "KIND_NAMES",
    "N_KINDS",
    "NATURAL_KINDS",
    "RED3",
    "TWO",
    "WILD_KINDS",
    "deck_counts",
    "deck_kinds",
    "format_counts",
    "hand_counts",
    "kind_of",
    "card_code",
    "parse_kind",
    "parse_hand",
]

#: Kind codes. The natural ranks 4..A are kinds 3..13, in rank order.
TWO, BLACK3, RED3 = 0, 1, 2
FOUR, KING, ACE = 3, 12, 13
JOKER = 14
N_KINDS = 15
NATURAL_KINDS = tuple(range(FOUR, ACE + 1))
WILD_KINDS = (TWO, JOKER)
KIND_NAMES = ("2", "3b", "3r", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "Jk")
#: Pseudo card code of a Joker next to the 52 codes of :mod:`cardodds.cards`.
JOKER_CODE = 52
#: Card points of the wild cards, the seed's own values under every house option.
JOKER_POINTS = 50
TWO_POINTS = 20

_JOKER_TOKENS = {"jk", "*", "joker", "🃏"}
_KIND_ALIASES: dict[str, int | None] = {n.lower(): i for i, n in enumerate(KIND_NAMES)}
_KIND_ALIASES.update({"10": 9, "*": JOKER, "joker": JOKER, "3": None})


def _code_kind(code: int) -> int:
    if code == JOKER_CODE:
        return JOKER
    rank = code >> 2
    if rank == 0:
        return TWO
    if rank == 1:  # diamonds (1) and hearts (2) are red
        return RED3 if (code & 3) in (1, 2) else BLACK3
    return rank + 1


def deck_counts(jokers: int = 4) -> np.ndarray:
    """Cards of each kind in the full pack: 8 of each rank, 4 of each colour of 3, the Jokers."""
    c = np.full(N_KINDS, 8, dtype=np.int64)
    c[BLACK3] = 4
    c[RED3] = 4
    c[JOKER] = jokers
    return c


def deck_kinds(jokers: int = 4) -> np.ndarray:
    """The pack as one kind code per card (108 or 110 entries), the dealer's array."""
    return np.repeat(np.arange(N_KINDS, dtype=np.int64), deck_counts(jokers))


def parse_hand(text: str | Iterable[str | int], *, jokers: int = 4) -> list[int]:
    """Card codes (0..51, Joker = 52) of a hand; at most two of each card, ``jokers`` Jokers.

    >>> parse_hand("Ah ah * Jk")
    [50, 50, 52, 52]
    """
    if isinstance(text, str):
        tokens = [t for t in re.split(r"[\s,]+", text.strip()) if t]
    else:
        tokens = list(text)
    codes: list[int] = []
    for tok in tokens:
        if isinstance(tok, str) and tok.strip().lower() in _JOKER_TOKENS:
            codes.append(JOKER_CODE)
        elif isinstance(tok, (int, np.integer)) and not isinstance(tok, bool) and int(tok) == JOKER_CODE:
            codes.append(JOKER_CODE)
        else:
            try:
                codes.extend(_cards.parse_cards([tok], allow_duplicates=True))
            except ValueError as exc:
                raise ValueError(f"{exc}; a Joker is 'Jk' or '*'") from None
    seen: dict[int, int] = {}
    for c in codes:
        seen[c] = seen.get(c, 0) + 1
    for c, k in seen.items():
        if c == JOKER_CODE:
            if k > jokers:
                raise ValueError(f"the hand holds {k} Jokers but the pack has only {jokers}; "
                                 "remove Jokers or use jokers=6 for the 110-card pack")
        elif k > 2:
            raise ValueError(f"card {_cards.card_str(c)} is given {k} times; the Canasta pack (two decks) "
                             "holds each card twice")
    return codes


def hand_counts(text: str | Iterable[str | int], *, jokers: int = 4) -> np.ndarray:
    """The hand as counts per kind (int64[15]), the form every kernel takes."""
    out = np.zeros(N_KINDS, dtype=np.int64)
    for c in parse_hand(text, jokers=jokers):
        out[_code_kind(c)] += 1
    return out


def kind_of(token: str | int) -> int:
    """Kind code of one card (``'Kh'``, ``'3d'``, ``'Jk'``, or a card code)."""
    (code,) = parse_hand([token], jokers=99)
    return _code_kind(code)


def parse_kind(text: str) -> int:
    """Kind code from a kind name: ``'K'``, ``'10'``, ``'3r'``, ``'2'``, ``'Jk'`` or a card ``'Kh'``."""
    t = str(text).strip().lower()
    kind = _KIND_ALIASES.get(t)
    if kind is not None:
        return kind
    try:
        return kind_of(text)
    except ValueError:
        raise ValueError(f"cannot read card kind {text!r}: write a rank 4..A (e.g. 'K', '10'), "
                         "'2', '3r', '3b', 'Jk' or a card such as 'Kh'") from None


def card_code(text: str) -> int | None:
    """The card code (0..51) of a card given with its suit (``'Kh'``), None for a kind name
    (``'K'``, ``'3r'``, ``'Jk'``): a rank alone stands for any card of it.

    >>> card_code("Kh") == card_code("kh"), card_code("K"), card_code("Jk")
    (True, None, None)
    """
    t = str(text).strip().lower()
    if t in _KIND_ALIASES or t in _JOKER_TOKENS:
        return None
    (code,) = parse_hand([text], jokers=99)
    return None if code == JOKER_CODE else code


def format_counts(counts) -> str:
    """Kinds of a hand, wilds first, e.g. ``'Jk 2 3r K K K'``."""
    order = (JOKER, TWO, BLACK3, RED3) + NATURAL_KINDS
    return " ".join(KIND_NAMES[k] for k in order for _ in range(int(counts[k])))
