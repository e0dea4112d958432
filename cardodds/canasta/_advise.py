"""The advisor's chunk kernel (:mod:`cardodds.canasta.advise`): each option of one decision
played out on the same sampled deals."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._jit import inline, kernel
from ..layout import Layout
from ._lookahead import play_option
from ._table import MAX_MOVES, MW, S_SIZE, SA
from ._worlds import copy_into, deal_world
from .cards import N_KINDS

#: ``game`` argument of :func:`advise_kernel`: the game score before the hand and the target;
#: with a score, the equity grid (its lowest score, step and scores a side) and ``G_SCALE``, the
#: units of 1 in the equity counts (fixed point: the same sums on any number of threads).
G_US = 0
G_THEM = 1
G_TARGET = 2
G_LO = 3
G_STEP = 4
G_SIZE = 5
G_SCALE = 6
G_LEN = 7
#: Units of 1 in the kernels' equity counts (fixed point).
EQUITY_SCALE = 1 << 20


def advice_layout(k: int) -> Layout:
    """Counts of :func:`advise_kernel` for ``k`` options: each option's margin (our side's
    hand score minus theirs), its square, the deals it was ahead and the deals it won the
    game with; for every pair i < j (in order), the paired difference of margins i - j, its
    square and its sum of signs, and the deals won by i and not j (``pair_win_only``) and by j
    and not i (``pair_win_other``); ``pile_listed`` the listed pile cards found in place and
    ``pile_cards`` the pile's cards, summed over the sampled deals before any play (a check
    that every listed card is in every deal); with a score, each option's game equity (P(we
    win the game) after the hand: 1 or 0 where the hand ends the game, else the equity
    table's) and its square, in ``game[G_SCALE]`` units, and each pair's paired difference
    of equities and its square (``pair_eq``, ``pair_eq_sq``)."""
    pairs = k * (k - 1) // 2
    return Layout("canasta advice counts", [
        ("margin", k), ("margin_sq", k), ("ahead", k), ("win_game", k), ("pair", pairs), ("pair_sq", pairs),
        ("pair_sign", pairs), ("pair_win_only", pairs), ("pair_win_other", pairs), ("pile_listed", 1),
        ("pile_cards", 1), ("equity", k), ("equity_sq", k), ("pair_eq", pairs), ("pair_eq_sq", pairs)])


#: Field numbers of :func:`advice_layout` (its sizes depend on the options; the kernel gets the offsets).
ADV = advice_layout(2).index


#: The advised position as the kernel reads it: the table as I know it (``base``), the unseen
#: cards, the hidden places and the pile's slots (:func:`cardodds.canasta._worlds.deal_world`)
#: and the options.
PositionArrays = namedtuple("PositionArrays", ["base", "unseen", "hidden", "pile_slots", "options"])


@inline
def game_equity(us, them, game, etab):
    """Our side's P(win the game) after a hand that leaves the totals ``us``, ``them``: the game
    ends as :func:`cardodds.canasta._play.game_decided` ends it, else ``etab`` (our equity at
    the grid's scores before the next hand) read as :meth:`cardodds.equity.EquityTable.at` reads
    it: bilinear between the open grid scores around (a score off the grid at its edge)."""
    target = game[G_TARGET]
    if (us >= target or them >= target) and us != them:
        return 1.0 if us > them else 0.0
    lo = game[G_LO]
    step = game[G_STEP]
    size = game[G_SIZE]
    qa = (us - lo) / step
    qb = (them - lo) / step
    fa = np.floor(qa)
    fb = np.floor(qb)
    ta = qa - fa
    tb = qb - fb
    v = 0.0
    total = 0.0
    for ca in range(2):
        wa = 1.0 - ta if ca == 0 else ta
        if wa <= 0.0:
            continue
        ia = min(max(int(fa) + ca, 0), size - 1)
        for cb in range(2):
            wb = 1.0 - tb if cb == 0 else tb
            if wb <= 0.0:
                continue
            ib = min(max(int(fb) + cb, 0), size - 1)
            e = etab[ia, ib]
            if not np.isnan(e):
                v += wa * wb * e
                total += wa * wb
    return v / total if total > 0.0 else 0.5


@kernel
def advise_kernel(rng, n, out, position, rl, pol, hp, lay, user, stake, smart, look):
    """Each sample deals a world of the :data:`PositionArrays`
    (:func:`cardodds.canasta._worlds.deal_world`), then plays each option from that same deal on
    the same random stream (:func:`cardodds.canasta._lookahead.play_option`; ``look`` None unless a
    seat plays ``lookahead``). An option is a move record, or an ``OPT_*`` code of
    :mod:`cardodds.canasta._worlds` in its type. ``stake``: ``(game, etab)``. ``game``: the
    score before the hand of each side and the target (:data:`G_US`, ...); an option wins the
    game when our total after the
    hand reaches the target and is above theirs; ``etab`` (empty without a score) our equity
    before the next hand on the grid of ``game`` (:func:`game_equity`). ``out`` by ``lay``
    (:func:`advice_layout`); ``smart`` None unless a seat plays heuristic2
    (:func:`cardodds.canasta._policies.smart_arg`)."""
    base, unseen, hidden, pile_slots, options = position
    k = options.shape[0]
    t = np.zeros(S_SIZE, dtype=np.int64)
    world = np.zeros(S_SIZE, dtype=np.int64)
    mv = np.zeros((MAX_MOVES, MW), dtype=np.int64)
    work = np.zeros(N_KINDS, dtype=np.int64)
    u = unseen.copy()
    m = np.zeros(k, dtype=np.int64)
    won = np.zeros(k, dtype=np.int64)
    eqs = np.zeros(k, dtype=np.int64)
    game, etab = stake
    scored = etab.shape[0] > 0
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
            play_option(rng, t, rl, pol, hp, mv, work, user, options[o], smart, look)
            m[o] = t[SA.score] - t[SA.score + 1]
            out[lay[ADV.margin] + o] += m[o]
            out[lay[ADV.margin_sq] + o] += m[o] * m[o]
            if m[o] > 0:
                out[lay[ADV.ahead] + o] += 1
            us = game[G_US] + t[SA.score]
            won[o] = 1 if us >= game[G_TARGET] and us > game[G_THEM] + t[SA.score + 1] else 0
            out[lay[ADV.win_game] + o] += won[o]
            if scored:
                eqs[o] = np.int64(np.rint(game_equity(us, game[G_THEM] + t[SA.score + 1], game, etab)
                                          * game[G_SCALE]))
                out[lay[ADV.equity] + o] += eqs[o]
                out[lay[ADV.equity_sq] + o] += eqs[o] * eqs[o]
        q = 0
        for i in range(k):
            for j in range(i + 1, k):
                d = m[i] - m[j]
                out[lay[ADV.pair] + q] += d
                out[lay[ADV.pair_sq] + q] += d * d
                out[lay[ADV.pair_sign] + q] += 1 if d > 0 else (-1 if d < 0 else 0)
                out[lay[ADV.pair_win_only] + q] += won[i] * (1 - won[j])
                out[lay[ADV.pair_win_other] + q] += won[j] * (1 - won[i])
                e = eqs[i] - eqs[j]
                out[lay[ADV.pair_eq] + q] += e
                out[lay[ADV.pair_eq_sq] + q] += e * e
                q += 1
