"""The advisor's chunk kernel (:mod:`cardodds.canasta.advise`): each option of one decision
played out on the same sampled deals."""

from __future__ import annotations

import numpy as np

from .._jit import helper, kernel
from .._random import shuffle_prefix
from ..layout import Layout
from ._policies import choose
from ._table import MAX_MOVES, MW, PH_OVER, S_SIZE, SA, SEATS, apply_move, gen_moves, hand_at, score_hand
from .cards import N_KINDS


def advice_layout(k: int) -> Layout:
    """Counts of :func:`advise_kernel` for ``k`` options: each option's margin (our side's
    hand score minus theirs), its square and the deals it was ahead; for every pair i < j (in
    order), the paired difference of margins i - j, its square and its sum of signs."""
    pairs = k * (k - 1) // 2
    return Layout("canasta advice counts", [
        ("margin", k), ("margin_sq", k), ("ahead", k), ("pair", pairs), ("pair_sq", pairs), ("pair_sign", pairs)])


#: Field numbers of :func:`advice_layout` (its sizes depend on the options; the kernel gets the offsets).
ADV = advice_layout(2).index


# ---- the advisor: options played out on the same sampled deals --------------------------------------
@helper
def play_out(rng, t, rl, pol, hp, mv, work, user):
    """Play the hand on from table ``t`` to its end; the scores go to ``t[score]``."""
    while t[SA.phase] != PH_OVER:
        nm = gen_moves(t, rl, mv, work)
        if nm == 0:
            t[SA.phase] = PH_OVER
            break
        i = choose(rng, t, rl, mv, nm, pol, hp, user)
        apply_move(t, rl, mv[i])
    score_hand(t, rl, work)


@kernel
def advise_kernel(rng, n, out, base, unseen, hidden, options, rl, pol, hp, lay, user):
    """Each sample deals the ``unseen`` kinds to the hidden places (``hidden``: cards of
    seats 1, 2, 3, then the pile under its top card; the rest is the stock), then plays each
    option from that same deal on the same random stream. An option is a move record, or
    type -1 "leave the pile" (the pile may no longer be taken this turn). ``out`` per option
    ``i`` (k options): ``[3 i]`` sum of side 0's margin, ``[3 i + 1]`` its square,
    ``[3 i + 2]`` hands side 0 scored more; then for each pair ``i < j`` the sum and sum of
    squares of margin_i - margin_j and the count of margin_i > margin_j minus the reverse."""
    k = options.shape[0]
    t = np.zeros(S_SIZE, dtype=np.int64)
    world = np.zeros(S_SIZE, dtype=np.int64)
    mv = np.zeros((MAX_MOVES, MW), dtype=np.int64)
    work = np.zeros(N_KINDS, dtype=np.int64)
    u = unseen.copy()
    m = np.zeros(k, dtype=np.int64)
    saved = rng.copy()
    size = u.shape[0]
    for _ in range(n):
        if size > 1:
            shuffle_prefix(rng, u, size - 1, size)
        world[:] = base
        p = 0
        for s in range(1, SEATS):
            for _c in range(hidden[s - 1]):
                world[hand_at(s, u[p])] += 1
                p += 1
        under = hidden[3]
        top = world[SA.pile + world[SA.pile_len] - 1]
        for i in range(under):
            world[SA.pile + i] = u[p]
            p += 1
        world[SA.pile + under] = top
        world[SA.pile_len] = under + 1
        start = world[SA.deck_size] - (size - p)
        world[SA.stock_pos] = start
        for i in range(size - p):
            world[SA.stock + start + i] = u[p + i]
        saved[:] = rng
        for o in range(k):
            t[:] = world
            rng[:] = saved
            if options[o, 0] < 0:
                t[SA.can_take] = 0
            else:
                apply_move(t, rl, options[o])
            play_out(rng, t, rl, pol, hp, mv, work, user)
            m[o] = t[SA.score] - t[SA.score + 1]
            out[lay[ADV.margin] + o] += m[o]
            out[lay[ADV.margin_sq] + o] += m[o] * m[o]
            if m[o] > 0:
                out[lay[ADV.ahead] + o] += 1
        q = 0
        for i in range(k):
            for j in range(i + 1, k):
                d = m[i] - m[j]
                out[lay[ADV.pair] + q] += d
                out[lay[ADV.pair_sq] + q] += d * d
                out[lay[ADV.pair_sign] + q] += 1 if d > 0 else (-1 if d < 0 else 0)
                q += 1

