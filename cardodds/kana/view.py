"""What a user's Känä policy sees, and how it is handed to the kernels.

A user's policy (:func:`cardodds.kana.policies.custom`) is an ``@njit`` function

``decide(state, seat, hand, peeked, kanad, n_kanad) -> position``

of :data:`SIGNATURE`, the random state first as in every game of the library:

========== =================== ==============================================================
``state``  uint64[::1] (4)     the chunk's generator state, for random choices only through
                               :func:`cardodds._random.bounded` (``bounded(state, 3)``)
``seat``   int64               the deciding seat (0 is the first to känä)
``hand``   int64[::1] (3)      the seat's three face-down cards as card codes (``rank * 4 +
                               suit``, :mod:`cardodds.cards`); only ``hand[:peeked]`` may be
                               looked at (the others are there but unseen by the rules)
``peeked`` int64               how many of them the variant lets the seat see: 0 official,
                               1 peek-one, 3 peek-all
``kanad``  int64[::1]          ``kanad[:n_kanad]`` the cards känäd before the seat, in order
``n_kanad`` int64              how many were känäd before
========== =================== ==============================================================

It returns the position 0..2 of the card it känäs. ``hand`` and ``kanad`` are the deal
itself, not copies: read them, never write them (a write changes the deal every other
policy and seat sees). The function is compiled once more, to a ``cfunc`` of
:data:`SIGNATURE` (:func:`compile_policy`, through :func:`cardodds.policy.compile_user`, the
one user-function mechanism of every game); the kernels receive it as an argument and are not
recompiled for it.

>>> from numba import njit
>>> @njit
... def keep_high_peek(state, seat, hand, peeked, kanad, n_kanad):
...     return 0 if (hand[0] >> 2) < 6 else 1
>>> compile_policy(keep_high_peek) is compile_policy(keep_high_peek)
True
"""

from __future__ import annotations

from ..policy import compile_user
from ._policies import CUSTOM_SIGNATURE, no_custom

__all__ = ["CALL", "SIGNATURE", "compile_policy"]

#: The user policy's numba signature.
SIGNATURE = CUSTOM_SIGNATURE
#: ... as the user writes it.
CALL = "decide(state, seat, hand, peeked, kanad, n_kanad) -> position"
WHAT = "the custom Känä policy"


def compile_policy(decide):
    """The kernels' user-policy argument: ``decide`` compiled to :data:`SIGNATURE`, or the
    stand-in when ``decide`` is None; a :class:`ValueError` when it does not compile to it."""
    if decide is None:
        return no_custom
    return compile_user(decide, SIGNATURE, WHAT, CALL, no_custom)
