"""What a player discards while drawing toward the first meld (policies as data).

``"keep"`` keeps every card drawn (no discard): the by-turn figures then say what the cards
seen so far hold, an upper bound for any real player, and they can be computed exactly.
``"weakest"`` keeps the hand at its dealt size: after each draw (and the chance to meld) it
discards a black 3, else a red 3, else a natural of the rank it holds fewest of (the cheapest
such rank on a tie), and a wild only when it holds nothing else. Monte Carlo only.

>>> DISCARD_POLICIES
('keep', 'weakest')
>>> from cardodds.canasta.cards import hand_counts, KIND_NAMES
>>> from cardodds.canasta.rules import CanastaRules
>>> KIND_NAMES[weakest_card(hand_counts("Kh Kd 9c 4s 2c"), CanastaRules().points())]
'4'
"""

from .._jit import helper

__all__ = ["DISCARD_POLICIES", "KEEP", "WEAKEST", "weakest_card"]

DISCARD_POLICIES = ("keep", "weakest")
KEEP = 0
WEAKEST = 1


@helper
def weakest_card(counts, pts):
    """Kind of the card the ``"weakest"`` policy discards from ``counts`` (-1 if empty)."""
    if counts[1] > 0:  # a black 3 can never be melded
        return 1
    if counts[2] > 0:  # nor a red 3
        return 2
    best = -1
    for k in range(3, 14):
        c = counts[k]
        if c == 0:
            continue
        if best < 0 or c < counts[best] or (c == counts[best] and pts[k] < pts[best]):
            best = k
    if best >= 0:
        return best
    if counts[0] > 0:  # a 2 is the cheaper wild
        return 0
    if counts[14] > 0:
        return 14
    return -1
