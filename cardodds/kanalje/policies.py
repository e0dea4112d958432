"""The players (policies) of Kanalje, and how to write your own.

Built-in policies, by name:

``random``
    A uniformly random legal card.
``heuristic``
    A rule-based player, deterministic, in this order of concerns:

    *Following suit.* A card under the trick's current best can never take the trick, so
    holding the jack of the led suit under it, it sheds that jack. Last to play, it takes a
    trick that holds no jack with its lowest winning card (a cheap safe trick); otherwise it
    ducks with its highest losing card. Forced to beat the card, it plays its lowest winner
    (not the jack) when the trick holds a jack or the led suit's jack is still unseen (a
    later player holding it would shed it under a high card), else its highest.

    *Void in the led suit.* An off-suit card never takes the trick, so it sheds its dearest
    jack of a side suit; the trump jack it sheds only under a higher trump. It trumps a trick
    worth taking (no jack in it) when it plays last, with its lowest winning trump, or earlier
    with a trump nobody can beat when no later player has shown a void in the led suit and
    the led suit's jack is no longer unseen.
    Otherwise it throws its highest side-suit card (the card likeliest to win a later trick),
    and only then a trump.

    *Leading.* A jack all of whose unseen cards of the suit outrank it (whoever follows must
    take it); else the best remaining card of a suit nobody has shown void in (a cheap safe
    trick) when that suit's jack is not unseen (its holder would shed it there); else its lowest
    side-suit card, then its lowest trump, then its cheapest jack.
    *Two players, phase 1* (RULES.md 2.2: no trump, no duty to follow; the trick's winner
    takes the face-up stock card, the loser the next one unseen). The face-up card's worth
    to its taker is judged for phase 2 and for its danger: a jack is worth minus its
    penalty (never fight for it), a ten, queen, king or ace +1 (a likely phase-2 trick:
    fight for it), a lower card 0 (not worth a good card). *Leading*, it fights for a +1
    card with its lowest card nobody can beat (else its highest card), and otherwise leads
    its lowest non-jack card (a jack only when it holds nothing else, the cheapest).
    *Second*, holding the jack of the led suit under a higher lead it sheds it (the leader
    pays it); it wins the trick with its lowest winning non-jack card when the face-up
    card's worth exceeds the cost of a jack led to it; otherwise it throws its lowest card
    that does not win (jacks of other suits it may not throw), keeping high cards and trumps
    for phase 2. Phase 2 is the trick play above.
``lookahead``
    At each decision it samples the unseen cards consistently with what it has seen (cards
    played, the turned card, and the voids players showed by not following suit), plays
    each legal card followed by the heuristic for every seat to the end of the deal, and
    chooses the card with the best total score over its samples (``samples`` worlds, the
    same worlds for every candidate card, so the comparison is paired).
    With two players, in phase 1 it samples what it cannot see: the opponent's cards other
    than the face-up cards it saw the opponent take (still in hand), and the order of the
    stock under the face-up card; it plays each legal card and then the heuristic for both
    seats through phase 1 and phase 2 (the phase-2 trump drawn the same way for every
    candidate). In phase 2 nothing is hidden (every other card lies in the phase-1 tricks or
    my hand), so the worlds are the true deal.
``pimc``
    Perfect-information Monte Carlo, the look-ahead made exact at the end of the deal: the
    same worlds (``samples`` of them, dealt as the look-ahead deals them), each legal card
    played in each, the heuristic for every seat until the last tricks, and those solved
    exactly (four tricks with three players, five with two): every seat plays the card that
    is best for its own points when every hand is known (a *max-n* search; ties to the lowest
    card). Inside the last tricks each decision is thus a full PIMC decision, the card with
    the best mean over the worlds of their exact values. With two players, phase 1 is
    sampled as the look-ahead samples it and phase 2 (nothing hidden) is one world.

Your own policy
    An ``@njit`` function ``policy(state, legal, seat, view) -> card`` where ``state`` is the
    chunk's xoshiro256** state (uint64[4]; draw with :func:`cardodds._random.bounded`),
    ``legal`` the int64 bit mask of the cards you may play (bit ``c`` for card code ``c``),
    ``seat`` your seat and ``view`` the int64 table array as your seat sees it (other hands
    zeroed). :mod:`cardodds.kanalje.view` names its fields (``T``, every field documented)
    and gives the card-mask helpers, e.g. ``view[T.hand + seat]`` your hand,
    ``view[T.trick:T.trick + view[T.trick_len]]`` the current trick, ``view[T.trump]`` the
    trump suit, ``view[T.void + s]`` the suits seat ``s`` has shown void in. In the two-player
    game ``view[T.phase]`` is 1 during phase 1, where ``view[T.faceup]`` is the face-up stock
    card, ``view[T.known + s]`` the face-up cards seat ``s`` took, and the stock under the
    face-up card and the cards dealt face down read -1. Return a card in ``legal``: anything
    else is replaced by the lowest legal card and counted (``result.violations`` of a run with
    ``check=True``). The policy is compiled once more, to a function the kernels receive as an
    argument (:func:`cardodds.kanalje.view.compile_policy`, through :func:`cardodds.policy.compile_user`, the one
    mechanism of every game); the kernels themselves are not recompiled.

>>> from numba import njit
>>> from cardodds.kanalje import jack_risk
>>> from cardodds.kanalje.view import lowest
>>> @njit
... def lowest_card(state, legal, seat, view):
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
