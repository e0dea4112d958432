"""The advisor's chunk kernel (:mod:`cardodds.canasta.advise`): each option of one decision
played out on the same sampled deals."""

from __future__ import annotations

import numpy as np

from .._jit import helper, inline, kernel
from .._random import shuffle_prefix
from ..layout import Layout
from ._policies import choose
from ._table import (MAX_MOVES, MV_ADD, MV_DISCARD, MV_NEW, MV_PASS, MV_RED3, MW, PH_OVER, S_SIZE, SA, SEATS,
                     apply_move, gen_moves, hand_at, hand_size, score_hand)
from .cards import N_KINDS

#: Options that are not one move (``options[o, 0]``): leave the pile (it may no longer be taken
#: this turn); hold the melds (no meld, addition or swap for the rest of my turn); do not go
#: out this turn (no move that empties my hand, unless every move would).
OPT_LEAVE = -1
OPT_HOLD = -2
OPT_STAY = -3

#: ``game`` argument of :func:`advise_kernel`: the game score before the hand and the target.
G_US = 0
G_THEM = 1
G_TARGET = 2


def advice_layout(k: int) -> Layout:
    """Counts of :func:`advise_kernel` for ``k`` options: each option's margin (our side's
    hand score minus theirs), its square, the deals it was ahead and the deals it won the
    game with; for every pair i < j (in order), the paired difference of margins i - j, its
    square and its sum of signs; ``pile_listed`` the listed pile cards found in place and
    ``pile_cards`` the pile's cards, summed over the sampled deals before any play (a check
    that every listed card is in every deal)."""
    pairs = k * (k - 1) // 2
    return Layout("canasta advice counts", [
        ("margin", k), ("margin_sq", k), ("ahead", k), ("win_game", k), ("pair", pairs), ("pair_sq", pairs),
        ("pair_sign", pairs), ("pile_listed", 1), ("pile_cards", 1)])


#: Field numbers of :func:`advice_layout` (its sizes depend on the options; the kernel gets the offsets).
ADV = advice_layout(2).index


@helper
def copy_into(dst, src):
    """``dst[:] = src`` for arrays of one size, as a loop: the slice assignment compiles numba's
    message for arrays of different shapes (its string formatting, a quarter second)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


# ---- the sampled deal -------------------------------------------------------------------------------
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
def _allowed(t, mv, nm, hold):
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


@inline
def play_out(rng, t, rl, pol, hp, mv, work, user, hold, smart):
    """Play the hand on from table ``t`` to its end; the scores go to ``t[score]``. ``hold``
    (:data:`OPT_HOLD`, :data:`OPT_STAY` or 0) restricts the moves of the seat to act for
    the rest of its turn; ``smart`` as for :func:`cardodds.canasta._policies.choose`."""
    turn0 = t[SA.turn]
    while t[SA.phase] != PH_OVER:
        nm = gen_moves(t, rl, mv, work)
        if nm == 0:
            t[SA.phase] = PH_OVER
            break
        if hold != 0 and t[SA.turn] == turn0:
            nm = _allowed(t, mv, nm, hold)
        i = choose(rng, t, rl, mv, nm, pol, hp, user, smart)
        apply_move(t, rl, mv[i])
    score_hand(t, rl, work)


@inline
def play_option(rng, t, rl, pol, hp, mv, work, user, option, smart):
    """Play ``option`` (a move record, or :data:`OPT_LEAVE`, :data:`OPT_HOLD` or
    :data:`OPT_STAY` in its type) from table ``t``, then the hand on to its end."""
    if option[0] == OPT_LEAVE:
        t[SA.can_take] = 0
    elif option[0] >= 0:
        apply_move(t, rl, option)
    play_out(rng, t, rl, pol, hp, mv, work, user, option[0] if option[0] < OPT_LEAVE else 0, smart)


@kernel
def advise_kernel(rng, n, out, base, unseen, hidden, pile_slots, options, rl, pol, hp, lay, user, game, smart):
    """Each sample deals a world (:func:`deal_world`), then plays each option from that same
    deal on the same random stream. An option is a move record, or :data:`OPT_LEAVE`,
    :data:`OPT_HOLD` or :data:`OPT_STAY` in its type. ``game``: the score before the hand of each
    side and the target (:data:`G_US`, ...); an option wins the game when our total after the
    hand reaches the target and is above theirs. ``out`` by ``lay`` (:func:`advice_layout`); ``smart``
    None unless a seat plays heuristic2 (:func:`cardodds.canasta._policies.smart_arg`)."""
    k = options.shape[0]
    t = np.zeros(S_SIZE, dtype=np.int64)
    world = np.zeros(S_SIZE, dtype=np.int64)
    mv = np.zeros((MAX_MOVES, MW), dtype=np.int64)
    work = np.zeros(N_KINDS, dtype=np.int64)
    u = unseen.copy()
    m = np.zeros(k, dtype=np.int64)
    saved = rng.copy()
    for _ in range(n):
        deal_world(rng, u, base, world, hidden, pile_slots)
        out[lay[ADV.pile_cards]] += world[SA.pile_len]
        for i in range(world[SA.pile_len]):
            if base[SA.pile + i] >= 0 and world[SA.pile + i] == base[SA.pile + i]:
                out[lay[ADV.pile_listed]] += 1
        copy_into(saved, rng)
        for o in range(k):
            copy_into(t, world)
            copy_into(rng, saved)
            play_option(rng, t, rl, pol, hp, mv, work, user, options[o], smart)
            m[o] = t[SA.score] - t[SA.score + 1]
            out[lay[ADV.margin] + o] += m[o]
            out[lay[ADV.margin_sq] + o] += m[o] * m[o]
            if m[o] > 0:
                out[lay[ADV.ahead] + o] += 1
            us = game[G_US] + t[SA.score]
            if us >= game[G_TARGET] and us > game[G_THEM] + t[SA.score + 1]:
                out[lay[ADV.win_game] + o] += 1
        q = 0
        for i in range(k):
            for j in range(i + 1, k):
                d = m[i] - m[j]
                out[lay[ADV.pair] + q] += d
                out[lay[ADV.pair_sq] + q] += d * d
                out[lay[ADV.pair_sign] + q] += 1 if d > 0 else (-1 if d < 0 else 0)
                q += 1
