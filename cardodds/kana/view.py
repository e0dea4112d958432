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

A function in the order of earlier releases, ``decide(seat, hand, peeked, kanad, n_kanad,
state)``, still works, with a ``DeprecationWarning``: it is recognised by its last argument's
name (``state``, ``s`` or ``rng``) or, failing that, by compiling to the old order only.

>>> from numba import njit
>>> @njit
... def keep_high_peek(state, seat, hand, peeked, kanad, n_kanad):
...     return 0 if (hand[0] >> 2) < 6 else 1
>>> compile_policy(keep_high_peek) is compile_policy(keep_high_peek)
True
"""

from __future__ import annotations

import inspect
import warnings

from .._deprecate import renamed
from ..policy import compile_user
from ._policies import CUSTOM_SIGNATURE, OLD_CUSTOM_SIGNATURE, no_custom

__all__ = ["CALL", "SIGNATURE", "compile_policy", "in_order"]

#: The user policy's numba signature.
SIGNATURE = CUSTOM_SIGNATURE
#: ... as the user writes it.
CALL = "decide(state, seat, hand, peeked, kanad, n_kanad) -> position"
#: The order of earlier releases, accepted with a warning.
OLD_CALL = "decide(seat, hand, peeked, kanad, n_kanad, state) -> position"
WHAT = "the custom Känä policy"
#: Names of the random state that mark a function written in the old order (state last).
_STATE_NAMES = ("state", "s", "rng", "random_state")

#: ``compile_custom`` was the name of :func:`compile_policy`.
__getattr__ = renamed(globals(), {"compile_custom": "compile_policy"})

#: Old-order functions and their new-order adapters, so a function is adapted (and compiled) once.
_adapters: dict = {}


def compile_policy(decide):
    """The kernels' user-policy argument: ``decide`` compiled to :data:`SIGNATURE`, or the
    stand-in when ``decide`` is None; a :class:`ValueError` when it does not compile to it.

    A function written in the old order (:data:`OLD_CALL`) is adapted, with a
    ``DeprecationWarning`` (:func:`in_order`)."""
    if decide is None:
        return no_custom
    return compile_user(in_order(decide), SIGNATURE, WHAT, CALL, no_custom)


def in_order(decide, stacklevel: int = 2):
    """``decide`` itself when it takes the random state first; a function written in the old
    order (:data:`OLD_CALL`) wrapped in an ``@njit`` adapter (the same one every time), with a
    ``DeprecationWarning`` pointing at the line ``stacklevel`` means for the caller (as
    ``warnings.warn`` would in the caller: 2, the caller's caller)."""
    if not _old_order(decide):
        return decide
    warnings.warn(f"{WHAT} {getattr(decide, '__name__', decide)!r} takes the random state last; write it "
                  f"{CALL} (the old order will go in a later release)", DeprecationWarning, stacklevel=stacklevel + 1)
    return _adapter(decide)


def _old_order(decide) -> bool:
    """Whether ``decide`` is written state last: by its arguments' names, else by the order it
    compiles to (new first)."""
    try:
        names = list(inspect.signature(decide.py_func).parameters)
    except (AttributeError, TypeError, ValueError):
        return False
    if len(names) == 6:
        if names[0] in _STATE_NAMES:
            return False
        if names[-1] in _STATE_NAMES:
            return True
    try:
        compile_user(decide, SIGNATURE, WHAT, CALL)
        return False
    except ValueError:
        pass
    try:
        compile_user(decide, OLD_CUSTOM_SIGNATURE, WHAT, OLD_CALL)
    except ValueError:
        return False  # neither: the new order's error is the one to show
    return True


def _adapter(decide):
    """An ``@njit`` function in the new order that calls ``decide`` in the old one."""
    if any(hit[1] is decide for hit in _adapters.values()):
        return decide  # an adapter already
    hit = _adapters.get(id(decide))
    if hit is not None and hit[0] is decide:
        return hit[1]
    from numba import njit

    @njit
    def adapted(state, seat, hand, peeked, kanad, n_kanad):
        return decide(seat, hand, peeked, kanad, n_kanad, state)

    _adapters[id(decide)] = (decide, adapted)
    return adapted
