"""The discard rules of meld odds (``melds``/``hand_odds`` ``discard=``): what a hand drawing
toward its first meld discards, as data (the game's played policies are :mod:`.policies`).

``"keep"`` keeps every card drawn (no discard): the by-turn figures then say what the cards
seen so far hold, an upper bound for any real player, and they can be computed exactly.
``"weakest"`` keeps the hand at its dealt size: after each draw (and the chance to meld) it
discards a black 3, else a red 3, else a natural of the rank it holds fewest of (the cheapest
such rank on a tie), and a wild only when it holds nothing else. Monte Carlo only.

>>> DISCARD_RULES
('keep', 'weakest')
>>> from cardodds.canasta.cards import hand_counts, KIND_NAMES
>>> from cardodds.canasta.rules import CanastaRules
>>> KIND_NAMES[weakest_card(hand_counts("Kh Kd 9c 4s 2c"), CanastaRules().points())]
'4'
"""

from .._jit import helper
from ._defaults import DISCARD_RULES
from .cards import ACE, BLACK3, FOUR, JOKER, RED3, TWO

__all__ = ["DISCARD_RULES", "KEEP", "WEAKEST", "weakest_card"]

KEEP = 0
WEAKEST = 1


@helper
def weakest_card(counts, pts):
    """Kind of the card the ``"weakest"`` policy discards from ``counts`` (-1 if empty)."""
    if counts[BLACK3] > 0:  # a black 3 can never be melded
        return BLACK3
    if counts[RED3] > 0:  # nor a red 3
        return RED3
    best = -1
    for k in range(FOUR, ACE + 1):
        c = counts[k]
        if c == 0:
            continue
        if best < 0 or c < counts[best] or (c == counts[best] and pts[k] < pts[best]):
            best = k
    if best >= 0:
        return best
    if counts[TWO] > 0:  # a 2 is the cheaper wild
        return TWO
    if counts[JOKER] > 0:
        return JOKER
    return -1
