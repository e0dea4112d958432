"""The compiled policies of Polish Canasta played: random, the heuristic partnership player,
and the call of a user's ``@njit`` policy (names and parser: :mod:`cardodds.canasta.policies`).

Every policy picks the index of a move in the list :func:`cardodds.canasta._table.gen_moves`
made, so no policy can break a rule.
"""

from __future__ import annotations

from numba import types

from .._jit import callback, first_use, helper, inline
from .._random import bounded
from ..layout import Layout
import numpy as np

from ._kernels import WILDS_ONLY, score_side
from ._table import (MAX_CARDS, MV_ADD, MV_DISCARD, MV_NEW, MV_RED3, MV_SWAP, MV_TAKE_ADD, MV_TAKE_NEW, PH_FREED,
                     REC, SA, SEATS, SLOTS, R, hand_at, hand_size, meld_at, meld_size, next_seat,
                     side_has_canasta,
                     stock_left)
from .cards import ACE, BLACK3, FOUR, JOKER, N_KINDS, RED3, TWO

#: Policy codes (names in :mod:`cardodds.canasta.policies`).
P_RANDOM = 0
P_HEURISTIC = 1
P_USER = 2
P_HEURISTIC2 = 3
#: The sampled look-ahead player (:mod:`cardodds.canasta._lookahead`; the played kernels dispatch it).
P_LOOKAHEAD = 4
#: What heuristic2 changes, as bits of ``smart``: the pile valued by what it holds, discards
#: away from what the opponents are known to hold, wilds kept for a canasta, going out to win.
SMART_TAKE = 1
SMART_DISCARD = 2
SMART_WILDS = 4
SMART_OUT = 8
SMART = SMART_TAKE | SMART_DISCARD | SMART_WILDS | SMART_OUT


# ---- a user's policy -----------------------------------------------------------------------------------
#: ``policy(state, seat, view, moves, n_moves) -> move index``: the play loop calls a user's
#: policy through a pointer of this type (documented in :mod:`cardodds.canasta.view`), so the
#: kernels are compiled, and cached, once, whatever the policy.
POLICY_SIGNATURE = types.int64(types.uint64[::1], types.int64, types.int64[::1], types.int64[:, ::1], types.int64)


def _no_user_policy(state, seat, view, moves, n_moves):
    """Stands in for a user policy in runs without one (never called there)."""
    return 0


# ``no_user_policy`` is compiled on first use: the played kernels leave the user's call out when
# there is none (``view.kernel_policy``), so a command without a user policy never needs it.
__getattr__ = first_use(__name__, no_user_policy=lambda: callback(POLICY_SIGNATURE)(_no_user_policy))


@helper
def user_view(t):
    """The table as the seat to act sees it: the other hands hidden (0; their sizes are in
    ``hand_count``), the stock's order hidden (-1)."""
    v = t.copy()
    seat = t[SA.seat]
    for s in range(SEATS):
        v[SA.hand_count + s] = hand_size(t, s)
        if s != seat:
            for k in range(N_KINDS):
                v[hand_at(s, k)] = 0
    for i in range(MAX_CARDS):
        v[SA.stock + i] = -1
    return v


# ---- the heuristic partnership player ---------------------------------------------------------
#: Its named parameters (documented in policies.py); integers, so they pack like the rules.
H = Layout("canasta heuristic", [
    ("open_from_turn", 1),     # open no earlier than this own turn (0 = as soon as it can)
    ("take_min_pile", 1),      # take the pile only when it holds at least this many cards
    ("take_min_gain", 1),      # ... and the meld it makes plus the pile's naturals are worth this
    ("discard_care", 1),       # 1: discard what the next opponent can least use; 0: the cheapest card
    ("out_needs_canasta", 1),  # 1: go out only with a canasta on the side
    ("feed_opponents", 1),     # 1: add naturals to the opponents' melds to shed cards
    ("keep_wilds", 1),         # wilds kept back in hand until the side has a canasta
    ("min_naturals", 1),       # naturals a new meld needs (besides the first meld)
    ("match_discards", 1),     # heuristic2: points for discarding a rank the next player threw itself
    ("out_for_game", 1),       # heuristic2: 1 to go out when it wins the game, never when it loses it
])
HA = H.at
#: The tuner's best set (play.tune, seed 7, 1,500 paired deals a match), which beat the
#: hand-set start (take_min_gain=20, out_needs_canasta=1, keep_wilds=1) by 277 [254, 301]
#: points a hand on fresh deals.
HEURISTIC_DEFAULTS = dict(open_from_turn=0, take_min_pile=2, take_min_gain=0, discard_care=1,
                          out_needs_canasta=0, feed_opponents=0, keep_wilds=0, min_naturals=3,
                          match_discards=20, out_for_game=1)


# The heuristic's parts below are each called from one place in heuristic_choose, and inlined
# there: as helpers of their own (each a dispatcher, its wrappers and its machine code) they
# compile longer.
@inline
def _danger(t, card, side):
    """How much the opponents (the next seat) could use ``card`` on top of the pile."""
    if card == BLACK3:
        return -1000  # it blocks the pile
    if card == TWO or card == JOKER:
        return 500
    if card == RED3:
        return 300
    d = 0
    for s in range(2):
        if meld_size(t, s, card - FOUR) > 0:
            d += 200  # the next player may add it to that meld and take the pile
    return d


# ---- what heuristic2 adds: memory of the pile takes and discards, the pile valued, going out to win ---
@inline
def _known_danger(t, rl, card, seat):
    """How much discarding ``card`` feeds the opponents by what they are known to hold (the
    cards they took with the pile and have not played): a pair of it in the next player's
    hand takes the pile; the bigger the pile, the worse."""
    if card < FOUR or card > ACE:
        return 0
    nxt = next_seat(rl, seat)
    far = (nxt + 2) % SEATS
    d = 400 * min(t[SA.took + nxt * N_KINDS + card], 2) + 100 * min(t[SA.took + far * N_KINDS + card], 2)
    return min(d * (4 + t[SA.pile_len]) // 4, 450)  # below a wild's danger: never a wild for it


@inline
def _matched(t, rl, card, seat, w):
    """What discarding ``card`` gains by the discards seen: ``w`` (more with a bigger pile) for a
    rank the next player discarded itself this hand and has not taken back, with no meld of it
    on the table (it is unlikely to hold a pair of what it threw away)."""
    if w == 0 or card < FOUR or card > ACE:
        return 0
    nxt = next_seat(rl, seat)
    if t[SA.threw + nxt * N_KINDS + card] == 0 or t[SA.took + nxt * N_KINDS + card] > 0:
        return 0
    if meld_size(t, 0, card - FOUR) > 0 or meld_size(t, 1, card - FOUR) > 0:
        return 0
    return min(w * (4 + t[SA.pile_len]) // 4, 3 * w)


@inline
def _pile_value(t, rl, seat, pts):
    """What the pile under its top card is worth to ``seat``: a red 3 its 100 (laid at once,
    with a replacement), a black 3 a safe discard to come (20: it blocks the pile), a wild its
    points and 30, a natural its points and 10 more when it can meld it (its side's meld of
    that rank, or one more in hand). More cards make canastas: a pile is never worth less
    than nothing."""
    side = seat % 2
    v = 0
    for j in range(t[SA.pile_len] - 1):
        c = t[SA.pile + j]
        if c == BLACK3:
            v += 20
        elif c == RED3:
            v += 100
        elif c == TWO or c == JOKER:
            v += pts[c] + 30
        else:
            v += pts[c] + (10 if meld_size(t, side, c - FOUR) > 0 or t[hand_at(seat, c)] > 0 else 0)
    return v


@helper
def _side_estimate(t, rl, side, out):
    """A side's score if the hand ended now, its players' unknown cards at 10 points each
    and the cards they took with the pile at their points (what every player saw)."""
    left = np.zeros(N_KINDS, dtype=np.int64)
    recs = t[SA.meld + side * SLOTS * REC:SA.meld + (side + 1) * SLOTS * REC].reshape((SLOTS, REC))
    sc = score_side(recs, SLOTS, t[SA.red3 + side], left, out, rl[R.points:R.points + N_KINDS],
                    rl[R.going_out_bonus], rl[R.going_out_needs_canasta])
    for seat in (side, side + 2):
        if out != 0 and seat == t[SA.seat]:
            continue  # the player going out holds nothing
        known = 0
        for k in range(N_KINDS):
            c = t[SA.took + seat * N_KINDS + k]
            sc -= c * rl[R.points + k]
            known += c
        sc -= 10 * max(hand_size(t, seat) - known, 0)
    return sc


@inline
def _out_wins(t, rl, side, for_game):
    """Going out now is worth it: our side ahead after it, or the hand about to end anyway
    (a short stock, an opponent close to going out). With ``for_game`` the game score before
    the hand decides first: going out that takes our side to the target ahead of theirs wins
    the game; going out that ends the game with theirs ahead loses it."""
    if for_game != 0:
        us = t[SA.game + side] + _side_estimate(t, rl, side, 1)
        them = t[SA.game + 1 - side] + _side_estimate(t, rl, 1 - side, 0)
        if us >= rl[R.target] and us > them:
            return True
        if them >= rl[R.target] and them >= us:
            return False
    if stock_left(t) <= 8:
        return True
    for s in range(SEATS):
        if s % 2 != side and hand_size(t, s) <= 2:
            return True
    return _side_estimate(t, rl, side, 1) >= _side_estimate(t, rl, 1 - side, 0)


@helper
def heuristic_choose(t, rl, mv, nm, hp, smart):
    """Pick a move by the named parameters ``hp`` (layout :data:`H`); ties to the first move.
    With ``smart`` (``heuristic2``) it also values the pile by what it holds, discards by
    what the opponents are known to hold and what the next player threw away, keeps wilds
    back for a canasta and goes out only when going out wins the game or the hand (or the
    hand is about to end), never when it loses the game. ``smart`` None is 0, and numba then
    leaves heuristic2's parts out of that compiled version."""
    seat = t[SA.seat]
    side = seat % 2
    hb = SA.hand + seat * N_KINDS
    h = hand_size(t, seat)
    pts = rl[R.points:R.points + N_KINDS]
    own_turn = t[SA.turn] // SEATS
    has_can = side_has_canasta(t, side)
    wilds = t[hb + TWO] + t[hb + JOKER]
    allow_out = hp[HA.out_needs_canasta] == 0 or has_can
    if smart is not None and smart & SMART_OUT and allow_out and h <= 7:
        allow_out = _out_wins(t, rl, side, hp[HA.out_for_game])
    best = -1 << 40
    bi = 0
    pile_gain = 0
    pile_seen = False
    for i in range(nm):
        typ = mv[i, 0]
        sc = -1 << 40
        if typ == MV_DISCARD:
            card = mv[i, 1]
            if h == 1:
                sc = 100000 if allow_out else -10000
            elif hp[HA.discard_care] != 0:
                sc = -_danger(t, card, side) - pts[card]
                if card >= FOUR:
                    sc -= 10 * t[hb + card]  # break up small groups before pairs
            else:
                sc = -pts[card]
            if smart is not None and smart & SMART_DISCARD:
                sc += _matched(t, rl, card, seat, hp[HA.match_discards]) - _known_danger(t, rl, card, seat)
            if card == BLACK3:
                sc = 50
            sc -= 100000  # a discard ends the turn: only when nothing else is worth doing
        elif typ == MV_RED3:
            sc = 10000
        elif typ == MV_NEW:
            n, tw, jk = mv[i, 2], mv[i, 3], mv[i, 4]
            if t[SA.phase] == PH_FREED:
                sc = 1000 - 10 * (tw + jk) + n
            elif t[SA.opened + side] == 0 and own_turn < hp[HA.open_from_turn]:
                sc = -1 << 40
            elif mv[i, 1] == WILDS_ONLY:
                sc = -1 << 40
            elif t[SA.opened + side] != 0 and n < hp[HA.min_naturals]:
                sc = -1 << 40
            else:
                sc = 2000 + 20 * n - 30 * (tw + jk)
                if not has_can and wilds - tw - jk < hp[HA.keep_wilds] and tw + jk > 0 and t[SA.opened + side] != 0:
                    sc = -1 << 40
            if sc > -(1 << 40) and h - n - tw - jk == 0 and not allow_out:
                sc = -1 << 40
        elif typ == MV_ADD:
            ms, sl, card = mv[i, 1], mv[i, 2], mv[i, 3]
            if ms == side:
                if card == TWO or card == JOKER:
                    size = meld_size(t, ms, sl)
                    if smart is not None and smart & SMART_WILDS:
                        # a wild goes where it brings a canasta near, or out of a small hand
                        if size == 6 or h <= 3 or (size >= 4 and wilds >= 2):
                            sc = 1500 + size
                    elif size == 6 or (has_can and wilds > hp[HA.keep_wilds]) or wilds > hp[HA.keep_wilds] + 1:
                        sc = 1500 + size
                else:
                    sc = 3000 + meld_size(t, ms, sl)
            elif hp[HA.feed_opponents] != 0 and card != TWO and card != JOKER:
                o = meld_at(ms, sl)
                if meld_size(t, ms, sl) + 1 != 7 and t[o + 1] + 1 != 7:
                    sc = 500
            if sc > -(1 << 40) and h == 1 and not allow_out:
                sc = -1 << 40
        elif typ == MV_SWAP:
            sc = 1200 if mv[i, 1] == side else 800
        elif typ == MV_TAKE_NEW or typ == MV_TAKE_ADD:
            size = t[SA.pile_len]
            if not pile_seen and smart is not None and smart & SMART_TAKE:
                pile_seen = True
                pile_gain = _pile_value(t, rl, seat, pts)
            elif not pile_seen:
                pile_seen = True
                pile_gain = 0
                for j in range(size):
                    c = t[SA.pile + j]
                    if FOUR <= c <= ACE or c == TWO or c == JOKER:
                        pile_gain += pts[c]
            gain = pile_gain
            if typ == MV_TAKE_NEW:
                gain += mv[i, 2] * (pts[mv[i, 1]] if mv[i, 1] != WILDS_ONLY else 0) - 20 * (mv[i, 3] + mv[i, 4])
                if mv[i, 1] == WILDS_ONLY:
                    gain -= 1000
            else:
                gain += 50 if mv[i, 1] == side else -50
            take = (smart is not None and smart & SMART_TAKE) or size >= hp[HA.take_min_pile]
            if take and gain >= hp[HA.take_min_gain]:
                sc = 20000 + gain
        if sc > best:
            best = sc
            bi = i
    return bi


# ---- choosing ------------------------------------------------------------------------------------------
@helper
def _user_choice(rng, t, mv, nm, seat, user):
    i = user(rng, seat, user_view(t), mv[:nm], nm)
    if i < 0 or i >= nm:
        # A wrong answer is counted (checked runs report it) and replaced by the first move.
        t[SA.bad_moves] += 1
        return 0
    return i


_I0 = np.int64(0)
_SMART = np.int64(SMART)


def smart_arg(codes):
    """The kernels' ``smart`` argument: None unless a seat plays heuristic2 (or lookahead, which
    plays heuristic2), so that the other lineups compile the heuristic without its parts."""
    return 1 if any(int(c) in (P_HEURISTIC2, P_LOOKAHEAD) for c in codes) else None


@inline
def choose(rng, t, rl, mv, nm, pol, hp, user, smart):
    """The move of the seat to act by its policy code. Inlined into the play loops: a dispatcher
    of its own would link and optimise heuristic_choose's code once more. ``smart`` is None when
    no seat plays heuristic2 (:func:`smart_arg`): the heuristic then compiles without its parts."""
    seat = t[SA.seat]
    code = pol[seat]
    if code == P_RANDOM:
        return bounded(rng, nm)
    if smart is None:  # no heuristic2 in the lineup
        if code == P_HEURISTIC:
            # ``smart``, not a literal None: where smart is a number numba still types this
            # branch, and then with the number, as below, not a second form without its parts
            return heuristic_choose(t, rl, mv, nm, hp[seat], smart)
    elif code == P_HEURISTIC:
        return heuristic_choose(t, rl, mv, nm, hp[seat], _I0)
    elif code == P_HEURISTIC2:
        return heuristic_choose(t, rl, mv, nm, hp[seat], _SMART)
    if user is None:  # no user policy in the lineup (never reached): numba leaves the call out
        return _I0
    # The call through the user's pointer stays out of this hot function (a separate helper).
    return _user_choice(rng, t, mv, nm, seat, user)


