"""What a user ``@njit`` policy sees of the Canasta table, by name.

A policy ``policy(rng, view, moves, n_moves, seat) -> int`` (see :mod:`cardodds.canasta.players`)
of :data:`SIGNATURE`: ``rng`` uint64[::1] (the chunk's generator state, draw with
:func:`cardodds._random.bounded`), ``view`` int64[::1], ``moves`` int64[:, ::1] (``n_moves``
rows), ``n_moves`` and ``seat`` int64; it returns the index of its move in ``moves``. It is
compiled once more, to a ``cfunc`` of that signature (:func:`compile_policy`, through
:func:`cardodds.policy.compile_user`, the one user-function mechanism of every game), which the
kernels receive as an argument: they are not recompiled for it.

``view`` is an int64 array laid out by :data:`TABLE`. Read it with the offsets of
:data:`AT` (numba reads them as constants): ``view[AT.hand + 15 * seat + kind]`` your cards of
a kind (kinds of :mod:`cardodds.canasta.cards`: 0 = 2, 1 = black 3, 2 = red 3, 3..13 = 4..A,
14 = Joker); the other seats' hands read 0, their sizes are ``view[AT.hand_count + s]``;
``view[AT.meld + 4 * (12 * side + slot) + i]`` the meld records of each side (slot 0..10 the
ranks 4..A, slot 11 wilds alone; ``i`` = 0 kind, 1 naturals, 2 twos, 3 Jokers; an empty slot
holds 0 cards); ``view[AT.pile + i]`` for ``i < view[AT.pile_len]`` the pile bottom to top;
``view[AT.red3 + side]``, ``view[AT.opened + side]``, ``view[AT.turn]`` (table turns so far),
``view[AT.deck_size] - view[AT.stock_pos]`` cards left in the stock (its order reads -1).
Sides: seat % 2.

Moves are int64 records ``(type, a, b, c, d)``:

========================  ==============================================================
``MV_DISCARD``            discard one card of kind ``a`` (ends the turn)
``MV_RED3``               lay a red 3, draw a replacement
``MV_NEW``                meld kind ``a`` (-1 wilds alone): ``b`` naturals, ``c`` 2s, ``d`` Jokers
``MV_ADD``                add one card of kind ``c`` to meld slot ``b`` of side ``a``
``MV_SWAP``               swap wild ``c`` out of meld ``b`` of side ``a`` (then meld it)
``MV_TAKE_NEW``           take the pile, the top card in the new meld ``(a, b, c, d)``
``MV_TAKE_ADD``           take the pile, the top card onto meld ``b`` of side ``a``
``MV_PASS``               end the turn without a discard (only with an empty stock and a last
                          card that may not be discarded)
========================  ==============================================================

>>> AT.hand, TABLE.sizes.meld
(0, 96)
"""

from ..policy import compile_user
from ._play import (MV_ADD, MV_DISCARD, MV_NEW, MV_PASS, MV_RED3, MV_SWAP, MV_TAKE_ADD, MV_TAKE_NEW,
                    POLICY_SIGNATURE, S, SLOTS, WILD_SLOT, no_user_policy)

__all__ = ["AT", "CALL", "MV_ADD", "MV_DISCARD", "MV_NEW", "MV_PASS", "MV_RED3", "MV_SWAP", "MV_TAKE_ADD",
           "MV_TAKE_NEW", "SIGNATURE", "SLOTS", "TABLE", "WILD_SLOT", "compile_policy"]

#: The table layout (:class:`cardodds.layout.Layout`).
TABLE = S
#: Its offsets by name.
AT = S.at

#: The policy's numba signature.
SIGNATURE = POLICY_SIGNATURE
#: ... as the user writes it.
CALL = "policy(rng, view, moves, n_moves, seat) -> move index"


def compile_policy(user):
    """The kernels' policy argument: ``user`` (an ``@njit`` policy) compiled to :data:`SIGNATURE`,
    or the stand-in for None; a :class:`ValueError` when it does not compile to it."""
    return compile_user(user, SIGNATURE, "the Canasta policy", CALL, no_user_policy)
