"""The sampled look-ahead player ``lookahead`` (the played kernels call it only in a lineup with it).

At a take, discard or go-out decision the player deals :data:`WORLDS` worlds consistent with
what its seat knows (the advisor's own dealing, :func:`cardodds.canasta._worlds.deal_world`:
its hand, every meld, the pile, the cards each player took with the pile and has not played
since; the rest of the other hands and the stock dealt uniformly from the cards it has not
seen), plays each option out to the end of the hand with ``heuristic2`` at every seat
(:func:`play_option`, the advisor's play-out, on the same worlds and
the same random stream for every option) and picks the option with the best mean margin of
its side, provided its paired gain over heuristic2's own choice is :data:`Z_SWITCH` standard
errors above zero; else heuristic2's move. Every other decision is ``heuristic2``'s.

The options, as the advisor's: take the pile in each way offered, or leave it; discard each
kind held; each move that goes out now, or stay in (no move that empties the hand this turn).

The play-out (:func:`play_out`) is here, below the player: the advisor plays its options out
with it, the look-ahead seats deciding by this player when its ``look`` is not None; the
player's own play-outs pass None, and numba leaves the player out of them.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, inline, linked
from ._policies import P_HEURISTIC2, P_LOOKAHEAD, SMART, heuristic_choose
from ._policies import choose as choose_basic
from ._table import (MAX_MOVES, MV_ADD, MV_DISCARD, MV_NEW, MV_TAKE_ADD, MV_TAKE_NEW, MW, PH_OVER, S_SIZE, SA, SEATS,
                     apply_move, gen_moves, hand_at, hand_size, score_hand)
from ._worlds import OPT_LEAVE, OPT_STAY, allowed, copy_into, deal_world
from .cards import N_KINDS

#: Worlds dealt at each decision of the look-ahead player.
WORLDS = 16
#: The player leaves heuristic2's move only for an option whose paired gain over it on the
#: worlds is this many standard errors above zero (with few worlds, the best mean of many
#: options is mostly noise).
Z_SWITCH = 2.0

_SMART = np.int64(SMART)


@inline
def play_out(rng, t, rl, pol, hp, mv, work, user, hold, smart, look):
    """Play the hand on from table ``t`` to its end; the scores go to ``t[score]``. ``hold``
    (:data:`OPT_HOLD`, :data:`OPT_STAY` or 0) restricts the moves of the seat to act for
    the rest of its turn; ``smart`` as for :func:`cardodds.canasta._policies.choose`; ``look``
    None unless a seat plays ``lookahead`` (numba then leaves the player out)."""
    turn0 = t[SA.turn]
    while t[SA.phase] != PH_OVER:
        nm = gen_moves(t, rl, mv, work)
        if nm == 0:
            t[SA.phase] = PH_OVER
            break
        if hold != 0 and t[SA.turn] == turn0:
            nm = allowed(t, mv, nm, hold)
        if look is None:
            i = choose_basic(rng, t, rl, mv, nm, pol, hp, user, smart)
        else:
            i = lookahead_choose(rng, t, rl, mv, nm, pol, hp, user, smart)
        apply_move(t, rl, mv[i])
    score_hand(t, rl, work)


@inline
def play_option(rng, t, rl, pol, hp, mv, work, user, option, smart, look):
    """Play ``option`` (a move record, or :data:`OPT_LEAVE`, :data:`OPT_HOLD` or
    :data:`OPT_STAY` in its type) from table ``t``, then the hand on to its end."""
    if option[0] == OPT_LEAVE:
        t[SA.can_take] = 0
    elif option[0] >= 0:
        apply_move(t, rl, option)
    play_out(rng, t, rl, pol, hp, mv, work, user, option[0] if option[0] < OPT_LEAVE else 0, smart, look)


#: :func:`play_option` compiled on its own, for the player's own play-outs (``look`` None): a
#: function of its own, typed with ``look`` None, leaves the player out of its code, so the player
#: does not call itself.
play_option_alone = linked(play_option)


@helper
def _copy_move(dst, k, src, i):
    """``dst[k] = src[i]`` for move records, as a loop: the row assignment compiles numba's message
    for arrays of different shapes, string formatting and all."""
    for c in range(MW):
        dst[k, c] = src[i, c]


@helper
def _goes_out(t, m):
    """Move ``m`` empties the hand of the seat to act."""
    h = hand_size(t, t[SA.seat])
    if m[0] == MV_DISCARD or m[0] == MV_ADD:
        return h == 1
    if m[0] == MV_NEW:
        return h == m[2] + m[3] + m[4]
    return False


@helper
def _options(t, mv, nm, pick, opts):
    """The options of the decision at ``t`` into ``opts``; returns how many (0: not a take,
    discard or go-out decision). ``pick`` is heuristic2's move."""
    k = 0
    takes = 0
    outs = 0
    for i in range(nm):
        if mv[i, 0] == MV_TAKE_NEW or mv[i, 0] == MV_TAKE_ADD:
            takes += 1
        elif _goes_out(t, mv[i]):
            outs += 1
    if takes > 0:
        opts[0, 0] = OPT_LEAVE
        k = 1
        for i in range(nm):
            if mv[i, 0] == MV_TAKE_NEW or mv[i, 0] == MV_TAKE_ADD:
                _copy_move(opts, k, mv, i)
                k += 1
    elif outs > 0:
        if outs < nm:
            opts[0, 0] = OPT_STAY
            k = 1
        for i in range(nm):
            if _goes_out(t, mv[i]):
                _copy_move(opts, k, mv, i)
                k += 1
    elif mv[pick, 0] == MV_DISCARD:
        for i in range(nm):
            if mv[i, 0] == MV_DISCARD:
                _copy_move(opts, k, mv, i)
                k += 1
    return k if k > 1 else 0


@helper
def _base(t, base, u, hidden):
    """What the seat to act knows, as the advisor's position: ``base`` the table with the other
    hands cut to the cards known there (taken with the pile, not played since), ``u`` the
    cards it has not seen (the rest of those hands and the stock); ``hidden`` how many of them
    each seat after it holds. Returns the number of unseen cards."""
    copy_into(base, t)
    me = t[SA.seat]
    n = 0
    for s in range(1, SEATS):
        seat = (me + s) % SEATS
        hidden[s - 1] = 0
        for k in range(N_KINDS):
            have = t[hand_at(seat, k)]
            known = min(have, t[SA.took + seat * N_KINDS + k])
            base[hand_at(seat, k)] = known
            for _c in range(have - known):
                u[n] = k
                n += 1
            hidden[s - 1] += have - known
    for i in range(t[SA.stock_pos], t[SA.deck_size]):
        u[n] = t[SA.stock + i]
        n += 1
    return n


@helper
def _heuristic_among(t, rl, mv, nm, hp, opt, pick):
    """heuristic2's move once ``opt`` (leave the pile, or stay in) is chosen: its pick among
    the moves that option allows, as an index into ``mv``."""
    sub = mv[:nm].copy()
    if opt == OPT_LEAVE:
        n2 = 0
        for i in range(nm):
            if mv[i, 0] != MV_TAKE_NEW and mv[i, 0] != MV_TAKE_ADD:
                _copy_move(sub, n2, mv, i)
                n2 += 1
    else:
        n2 = allowed(t, sub, nm, OPT_STAY)
    if n2 == 0:
        return pick
    return _index_of(mv, nm, sub[heuristic_choose(t, rl, sub, n2, hp, _SMART)], pick)


@helper
def _clearly_better(total, total_sq, n):
    """The paired gain ``total`` over ``n`` worlds is above zero by more than :data:`Z_SWITCH`
    standard errors."""
    mean = total / n
    var = (total_sq - total * mean) / (n - 1)
    return mean > 0 and mean * mean * n > Z_SWITCH * Z_SWITCH * max(var, 0.0)


@helper
def _index_of(mv, nm, rec, default):
    """The index of move record ``rec`` in ``mv[:nm]`` (``default`` if it is not there)."""
    for i in range(nm):
        same = True
        for c in range(MW):
            if mv[i, c] != rec[c]:
                same = False
        if same:
            return i
    return default


@helper
def lookahead_choose(rng, t, rl, mv, nm, pol, hp, user, smart):
    """The move of the seat to act by its policy, ``lookahead`` here (see the module text), the
    others by :func:`cardodds.canasta._policies.choose` (``smart`` as there: an argument, so
    that numba leaves out the branch it does not take; never None with a look-ahead seat)."""
    seat = t[SA.seat]
    if pol[seat] != P_LOOKAHEAD:
        return choose_basic(rng, t, rl, mv, nm, pol, hp, user, smart)
    pick = heuristic_choose(t, rl, mv, nm, hp[seat], _SMART)
    opts = np.zeros((nm + 1, MW), dtype=np.int64)
    k = _options(t, mv, nm, pick, opts)
    if k == 0:
        return pick
    base = np.zeros(S_SIZE, dtype=np.int64)
    world = np.zeros(S_SIZE, dtype=np.int64)
    t2 = np.zeros(S_SIZE, dtype=np.int64)
    u = np.zeros(S_SIZE, dtype=np.int64)
    hidden = np.zeros(SEATS - 1, dtype=np.int64)
    n = _base(t, base, u, hidden)
    unseen = u[:n].copy()
    no_slots = np.zeros(0, dtype=np.int64)
    mv2 = np.zeros((MAX_MOVES, MW), dtype=np.int64)
    work = np.zeros(N_KINDS, dtype=np.int64)
    pol = np.full(SEATS, P_HEURISTIC2, dtype=np.int64)
    m = np.zeros(k, dtype=np.int64)
    diff = np.zeros(k, dtype=np.float64)
    diff_sq = np.zeros(k, dtype=np.float64)
    h = _index_of(opts, k, mv[pick], 0)  # heuristic2's own option (leave or stay when none)
    side = seat % 2
    saved = rng.copy()
    for _w in range(WORLDS):
        deal_world(rng, unseen, base, world, hidden, no_slots)
        copy_into(saved, rng)
        for o in range(k):
            copy_into(t2, world)
            copy_into(rng, saved)
            play_option_alone(rng, t2, rl, pol, hp, mv2, work, user, opts[o], smart, None)
            m[o] = t2[SA.score + side] - t2[SA.score + 1 - side]
        for o in range(k):
            d = m[o] - m[h]
            diff[o] += d
            diff_sq[o] += d * d
    best = h
    for o in range(k):
        if diff[o] > diff[best]:
            best = o
    if best == h or not _clearly_better(diff[best], diff_sq[best], WORLDS):
        return pick
    if opts[best, 0] < 0:
        return _heuristic_among(t, rl, mv, nm, hp[seat], opts[best, 0], pick)
    return _index_of(mv, nm, opts[best], pick)
