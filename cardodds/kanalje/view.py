"""What a Kanalje policy sees: the table layout, field by field, and the card-mask helpers.

A deal in progress is one int64 array, the *table*. A user policy
``policy(state, seat, view, legal) -> card`` (see :mod:`cardodds.kanalje.policies`) receives
it as ``view``, as its seat may see it (the other hands zeroed). Read it by name through
:data:`T`, the offsets of :data:`TABLE` (numba reads them as constants):

>>> from numba import njit
>>> from cardodds.kanalje.view import T, lowest, SUIT_MASK
>>> @njit
... def low_trump_first(state, seat, view, legal):
...     trump = view[T.trump]
...     mine = legal & SUIT_MASK[trump] if trump >= 0 else 0
...     return lowest(mine) if mine != 0 else lowest(legal)

A field of size k spans ``view[T.name:T.name + k]``; seats are numbered from the player left
of the dealer (seat 0), suits 0..3 clubs, diamonds, hearts, spades, cards ``rank * 4 + suit``
(ranks 0..12 for 2..A, so jacks are rank 9), and a *mask* has bit ``c`` set for card ``c``.

Fields (:data:`FIELDS`, in table order):
"""

from __future__ import annotations

from ..policy import compile_user
from . import _policies
from ._bits import FULL, JACK_RANK, JACKS, SUIT_MASK, above, below, bit, highest, lowest, nth_card, popcount
from ._policies import POLICY_SIGNATURE
from ._table import FIELDS, TABLE, T

__all__ = ["FIELDS", "FULL", "JACK_RANK", "JACKS", "POLICY_SIGNATURE", "SUIT_MASK", "T", "TABLE", "above", "below",
           "bit", "compile_policy", "highest", "lowest", "nth_card", "popcount"]


def compile_policy(user):
    """The kernels' policy argument: ``user`` (an ``@njit`` policy) compiled to
    :data:`POLICY_SIGNATURE` by :func:`cardodds.policy.compile_user`, or the built-in
    stand-in for None."""
    return compile_user(user, POLICY_SIGNATURE, "the Kanalje policy",
                        "policy(state, seat, view, legal) -> card", _policies.no_user_policy if user is None else None)


__doc__ += "\n".join(f"- ``{n}``{f' [{s}]' if s > 1 else ''}: {what}" for n, s, what in FIELDS) + "\n"
