"""What a user ``@njit`` policy sees of the Canasta table, by name.

A policy ``policy(state, seat, view, moves, n_moves) -> int`` (see :mod:`cardodds.canasta.policies`)
of :data:`SIGNATURE` returns the index of its move in ``moves``. It is compiled to a ``cfunc``
(:func:`compile_policy`) that the kernels receive as an argument, so they are not recompiled.

``view`` is laid out by :data:`TABLE`; read it with the offsets of :data:`AT` (numba reads them
as constants): ``view[AT.hand + 15 * seat + kind]`` your cards of
a kind (kinds of :mod:`cardodds.canasta.cards`: 0 = 2, 1 = black 3, 2 = red 3, 3..13 = 4..A,
14 = Joker); the other seats' hands read 0, their sizes are ``view[AT.hand_count + s]``;
``view[AT.meld + 4 * (12 * side + slot) + i]`` the meld records of each side (slot 0..10 the
ranks 4..A, slot 11 wilds alone; ``i`` = 0 kind, 1 naturals, 2 twos, 3 Jokers; an empty slot
holds 0 cards); ``view[AT.pile + i]`` for ``i < view[AT.pile_len]`` the pile bottom to top;
``view[AT.red3 + side]``, ``view[AT.opened + side]``, ``view[AT.turn]`` (table turns so far),
``view[AT.deck_size] - view[AT.stock_pos]`` cards left in the stock (its order reads -1);
``view[AT.took + 15 * seat + kind]`` the cards a seat took with the pile and has not played
since, ``view[AT.discarded + kind]`` the hand's discards;
``view[AT.lent + 3 * (12 * side + slot) + i]`` the naturals, 2s and Jokers (``i`` = 0, 1, 2)
the other side added to a meld. Sides: seat % 2.

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
``MV_END``                leave the pile in a turn on an empty stock: the hand ends (only with
                          ``empty_stock="take_pile"``, listed first, beside the ways to take it)
========================  ==============================================================

>>> AT.hand, TABLE.sizes.meld
(0, 96)
"""

import numpy as np

from ..policy import compile_user
from . import _policies
from ._policies import POLICY_SIGNATURE
from ._table import (MV_ADD, MV_DISCARD, MV_END, MV_NEW, MV_PASS, MV_RED3, MV_SWAP, MV_TAKE_ADD, MV_TAKE_NEW, SA, SLOTS,
                     WILD_SLOT, S, meld_at)
from .cards import KIND_NAMES

__all__ = ["ACTIONS", "AT", "CALL", "MV_ADD", "MV_DISCARD", "MV_END", "MV_NEW", "MV_PASS", "MV_RED3", "MV_SWAP",
           "MV_TAKE_ADD", "MV_TAKE_NEW", "SIGNATURE", "SLOTS", "TABLE", "WILD_SLOT", "compile_policy", "describe_move",
           "move_cards"]

#: The table layout (:class:`cardodds.layout.Layout`).
TABLE = S
#: Its offsets by name.
AT = S.at

#: The policy's numba signature.
SIGNATURE = POLICY_SIGNATURE
#: ... as the user writes it.
CALL = "policy(state, seat, view, moves, n_moves) -> move index"


def compile_policy(user):
    """The kernels' policy argument: ``user`` (an ``@njit`` policy) compiled to :data:`SIGNATURE`,
    or the stand-in for None; a :class:`ValueError` when it does not compile to it."""
    return compile_user(user, SIGNATURE, "the Canasta policy", CALL, _policies.no_user_policy)


def kernel_policy(user):
    """The played kernels' ``user`` argument: None without a user policy, so that numba leaves
    the call through a user's pointer (and the table view it is handed) out of the compiled
    kernel (less to compile for built-in lineups); else :func:`compile_policy`."""
    return None if user is None else compile_policy(user)


#: A move's action in a :class:`~cardodds.trace.Trace`, by its type.
ACTIONS = {MV_DISCARD: "discard", MV_END: "end", MV_PASS: "pass", MV_RED3: "red3", MV_NEW: "meld", MV_ADD: "add",
           MV_SWAP: "swap", MV_TAKE_NEW: "take", MV_TAKE_ADD: "take"}


def move_cards(t: np.ndarray, m) -> tuple[str, ...]:
    """The cards move ``m`` lays, adds, swaps in or discards, read before it is played on ``t``
    (a pile taken: the cards it melds, or the top card it adds)."""
    typ = int(m[0])
    if typ in (MV_NEW, MV_TAKE_NEW):
        kind = int(m[1])
        return (KIND_NAMES[kind],) * int(m[2]) * (kind >= 0) + ("2",) * int(m[3]) + ("Jk",) * int(m[4])
    if typ == MV_DISCARD:
        return (KIND_NAMES[int(m[1])],)
    if typ in (MV_ADD, MV_SWAP):
        return (KIND_NAMES[int(m[3])],)
    if typ == MV_TAKE_ADD:
        return (KIND_NAMES[int(t[SA.pile + t[SA.pile_len] - 1])],)
    if typ == MV_RED3:
        return ("3r",)
    return ()


def describe_move(t: np.ndarray, m) -> str:
    """A move in the game's words, read before it is played on table ``t``."""
    typ = int(m[0])
    seat = int(t[SA.seat])

    def meld_txt(kind, n, tw, jk):
        parts = []
        if kind >= 0:
            parts += [KIND_NAMES[kind]] * n
        parts += ["2"] * tw + ["Jk"] * jk
        return " ".join(parts)

    def owner(side):
        return "our" if side == seat % 2 else "their"
    if typ == MV_DISCARD:
        return f"discards {KIND_NAMES[m[1]]}"
    if typ == MV_END:
        return "leaves the pile on the empty stock: the hand ends"
    if typ == MV_PASS:
        return "cannot discard its last card and ends the turn (the stock is empty)"
    if typ == MV_RED3:
        return "lays a red 3 and draws a replacement"
    if typ == MV_NEW:
        return f"melds {meld_txt(m[1], m[2], m[3], m[4])}"
    if typ == MV_ADD:
        kind = int(t[meld_at(m[1], m[2])])
        return f"adds {KIND_NAMES[m[3]]} to {owner(m[1])} {('wild' if kind < 0 else KIND_NAMES[kind])} meld"
    if typ == MV_SWAP:
        kind = int(t[meld_at(m[1], m[2])])
        return f"swaps {KIND_NAMES[m[3]]} out of {owner(m[1])} {KIND_NAMES[kind]} meld for a natural {KIND_NAMES[kind]}"
    top = KIND_NAMES[int(t[SA.pile + t[SA.pile_len] - 1])]
    size = int(t[SA.pile_len])
    cards = f"{size} card{'s' if size != 1 else ''}"
    if typ == MV_TAKE_NEW:
        return f"takes the pile ({cards}, {top} on top) melding {meld_txt(m[1], m[2], m[3], m[4])}"
    kind = int(t[meld_at(m[1], m[2])])
    return f"takes the pile ({cards}, {top} on top) adding {top} to {owner(m[1])} " \
           f"{('wild' if kind < 0 else KIND_NAMES[kind])} meld"
