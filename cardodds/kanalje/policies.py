"""The players (policies) of Kanalje, by name, and your own.

``random``
    A uniformly random legal card.
``heuristic``
    Rule-based, deterministic. *Following suit:* it sheds the led suit's jack under the trick's
    best card; last to play, it takes a jackless trick with its lowest winner, else ducks with its
    highest loser; forced to beat, its lowest non-jack winner when the trick holds a jack or the
    led suit's jack is unseen, else its highest. *Void:* it sheds its dearest side-suit jack (the
    trump jack only under a higher trump); it trumps a jackless trick last with its lowest winning
    trump, or earlier with an unbeatable trump when nobody after it has shown void in the led suit
    and that suit's jack is seen; else it throws its highest side-suit card, then a trump.
    *Leading:* a jack that every unseen card of its suit outranks; else the best remaining card of
    a suit nobody has shown void in whose jack is seen; else its lowest side-suit card, lowest
    trump, cheapest jack. *Two players, phase 1* (docs/rules/kanalje.md §4): the face-up card is worth minus
    its penalty if a jack, +1 if ten or better, else 0. Leading, it fights for a +1 card with its
    lowest unbeatable card (else its highest), else leads its lowest non-jack. Second, it sheds the
    led suit's jack under a higher lead; it wins with its lowest non-jack winner when the face-up
    card is worth more than a led jack costs; else it throws its lowest losing non-jack.
``lookahead``
    Plays each legal card, then the heuristic, on the same ``samples`` worlds dealt consistently
    with what it saw (cards, voids, phase-1 face-up cards), and picks the best total score.
``pimc``
    The look-ahead, its last three to five tricks solved exactly (max-n search).

Your own policy is an ``@njit`` function ``policy(state, seat, view, legal) -> card``: ``state``
the chunk's xoshiro256** state (draw with :func:`cardodds._random.bounded`), ``legal`` the mask
of playable cards, ``view`` the table as ``seat`` sees it (:mod:`cardodds.kanalje.view`). A card
not in ``legal`` becomes the lowest legal card and is counted (``result.violations``).

>>> from numba import njit
>>> from cardodds.kanalje import jack_risk
>>> from cardodds.kanalje.view import lowest
>>> @njit
... def lowest_card(state, seat, view, legal):
...     return lowest(legal)
>>> r = jack_risk([lowest_card, "heuristic", "heuristic"], samples=2000, rng=1)
>>> r.policies
('user', 'heuristic', 'heuristic')
"""

from __future__ import annotations


from ..policy import lineup
from ._defaults import DEFAULT_LOOKAHEAD_SAMPLES, POLICY_NAMES
from ._policies import P_HEURISTIC, P_LOOKAHEAD, P_PIMC, P_RANDOM, P_USER

__all__ = ["DEFAULT_LOOKAHEAD_SAMPLES", "POLICIES", "resolve_policies"]

#: The built-in players by name (the names the parsers know, :mod:`._defaults`) and their kernel codes.
POLICIES = dict(zip(POLICY_NAMES, (P_RANDOM, P_HEURISTIC, P_LOOKAHEAD, P_PIMC)))


def resolve_policies(policies, players: int = 3):
    """Turn ``policies`` (a comma list, one name for every seat, or a sequence of names and
    at most one ``@njit`` function) into ``(codes, names, user_function)``."""
    example = "random,heuristic,lookahead" if players == 3 else "random,heuristic"
    return lineup(policies, players, POLICIES, P_USER, example)
