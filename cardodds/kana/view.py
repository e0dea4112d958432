"""What a custom Känä strategy sees, and how it is handed to the kernels.

A custom strategy (:func:`cardodds.kana.strategies.custom`) is an ``@njit`` function

``decide(seat, hand, peeked, kanad, n_kanad, state) -> position``

of :data:`SIGNATURE`:

========== =================== ==============================================================
``seat``   int64               the deciding seat (0 is the first to känä)
``hand``   int64[::1] (3)      the seat's three face-down cards as card codes (``rank * 4 +
                               suit``, :mod:`cardodds.cards`); only ``hand[:peeked]`` may be
                               looked at (the others are there but unseen by the rules)
``peeked`` int64               how many of them the variant lets the seat see: 0 official,
                               1 peek-one, 3 peek-all
``kanad``  int64[::1]          ``kanad[:n_kanad]`` the cards känäd before the seat, in order
``n_kanad`` int64              how many were känäd before
``state``  uint64[::1] (4)     the chunk's generator state, for random choices only through
                               :func:`cardodds._random.bounded` (``bounded(state, 3)``)
========== =================== ==============================================================

It returns the position 0..2 of the card it känäs. ``hand`` and ``kanad`` are the deal
itself, not copies: read them, never write them (a write changes the deal every other
strategy and seat sees). The function is compiled once more, to a
``cfunc`` of :data:`SIGNATURE` (:func:`compile_custom`, through
:func:`cardodds.policy.compile_user`, the one user-function mechanism of every game); the
kernels receive it as an argument and are not recompiled for it.

>>> from numba import njit
>>> @njit
... def keep_high_peek(seat, hand, peeked, kanad, n_kanad, state):
...     return 0 if (hand[0] >> 2) < 6 else 1
>>> compile_custom(keep_high_peek) is compile_custom(keep_high_peek)
True
"""

from __future__ import annotations

from ..policy import compile_user
from ._play import CUSTOM_SIGNATURE, no_custom

__all__ = ["CALL", "SIGNATURE", "compile_custom"]

#: The custom strategy's numba signature.
SIGNATURE = CUSTOM_SIGNATURE
#: ... as the user writes it.
CALL = "decide(seat, hand, peeked, kanad, n_kanad, state) -> position"


def compile_custom(decide):
    """The kernels' custom-strategy argument: ``decide`` compiled to :data:`SIGNATURE`, or the
    stand-in when ``decide`` is None; a :class:`ValueError` when it does not compile to it."""
    return compile_user(decide, SIGNATURE, "the custom Känä strategy", CALL, no_custom)
