"""The advisor's worlds (:mod:`cardodds.canasta.advise`, and the ``lookahead`` player's): one deal
consistent with what a seat knows, and the options that are not one move."""

from __future__ import annotations

from .._jit import helper
from .._random import shuffle_prefix
from ._table import MV_ADD, MV_DISCARD, MV_NEW, MV_PASS, MV_RED3, MW, SA, SEATS, hand_at, hand_size

#: Options that are not one move (``options[o, 0]``): leave the pile (it may no longer be taken
#: this turn); hold the melds (no meld, addition or swap for the rest of my turn); do not go
#: out this turn (no move that empties my hand, unless every move would).
OPT_LEAVE = -1
OPT_HOLD = -2
OPT_STAY = -3


@helper
def copy_into(dst, src):
    """``dst[:] = src`` for arrays of one size, as a loop: the slice assignment compiles numba's
    message for arrays of different shapes (its string formatting, a quarter second)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@helper
def deal_world(rng, u, base, world, hidden, pile_slots):
    """One deal consistent with the position: ``base`` holds every card the player to act
    (``base[seat]``, seat 0 in the advisor) knows where it is (its hand, the cards known in
    other hands, the melds, the listed pile cards); the ``u`` cards not seen are shuffled and
    dealt in order to the hidden places: ``hidden[s]`` more cards to the seat ``s + 1`` places
    after it, then the unknown pile positions ``pile_slots``, then the stock (the rest, its
    order the shuffle's). Every arrangement of the unseen cards is equally likely, so the deal
    is uniform over those consistent with the position."""
    size = u.shape[0]
    if size > 1:
        shuffle_prefix(rng, u, size - 1, size)
    copy_into(world, base)
    me = base[SA.seat]
    p = 0
    for s in range(1, SEATS):
        for _c in range(hidden[s - 1]):
            world[hand_at((me + s) % SEATS, u[p])] += 1
            p += 1
    for i in range(pile_slots.shape[0]):
        world[SA.pile + pile_slots[i]] = u[p]
        p += 1
    start = world[SA.deck_size] - (size - p)
    world[SA.stock_pos] = start
    for i in range(size - p):
        world[SA.stock + start + i] = u[p + i]


@helper
def allowed(t, mv, nm, hold):
    """Keep the moves ``hold`` allows (:data:`OPT_HOLD`: discards, red 3s and passes;
    :data:`OPT_STAY`: moves that leave a card in the hand), packed at the front; returns how
    many, or ``nm`` when none is left (the player cannot hold)."""
    h = hand_size(t, t[SA.seat])
    keep = 0
    for i in range(nm):
        typ = mv[i, 0]
        if hold == OPT_HOLD:
            ok = typ == MV_DISCARD or typ == MV_RED3 or typ == MV_PASS
        elif typ == MV_DISCARD or typ == MV_ADD:
            ok = h > 1
        elif typ == MV_NEW:
            ok = h > mv[i, 2] + mv[i, 3] + mv[i, 4]
        else:
            ok = True
        if ok:
            for c in range(MW):
                mv[keep, c] = mv[i, c]
            keep += 1
    return keep if keep > 0 else nm
