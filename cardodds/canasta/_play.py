"""Compiled Polish Canasta played by four players in two partnerships (RULES.md 3).

The whole table is one int64 array laid out by :data:`S` (counts per kind for the hands,
meld records per side, the pile and the stock as kind codes), the rules one int64 array laid
out by :data:`R`. A turn is a sequence of *decisions*; at each one :func:`gen_moves` lists
every legal move as an int64 record ``(type, a, b, c, d)`` (see the ``MV_*`` codes) and the
seat's player picks one by its index. Because players only ever pick from that list, no
player can break a rule, and the checked mode (:func:`check_table`) verifies the table
after every move anyway.

Rule choices where RULES.md is silent (each documented in ``play.py``):

- a side holds at most one meld of each rank and one meld of wilds alone (cards of a rank the
  side has melded are added to that meld);
- a side that has not opened may neither add to melds nor swap Jokers; its first
  combination (from the hand, or holding the pile's top card) must reach ``min_first_meld``;
- the pile may be taken only before the player's other moves of the turn (laying red 3s
  aside); the top card may go into a new combination or onto any meld on the table;
- laying a red 3 is a choice; its replacement, if a red 3 again, is laid at once with a new
  replacement; with an empty stock there is no replacement;
- going out: the hand becomes empty by melding or (``going_out="meld_or_discard"``) by the
  final discard; never in the player's first turn; with ``going_out_needs_canasta`` only
  when the side holds a canasta. A player left with one card it may not discard (red 3s laid
  on an empty stock) ends the turn without a discard (``MV_PASS``).
"""

from __future__ import annotations

import numpy as np
from numba import types

from .._jit import callback, helper, inline, kernel
from .._random import bounded, shuffle_prefix
from .._tally import add_paired
from ..layout import Layout
from ._kernels import (ACE, BLACK3, CANASTA_NONE, FOUR, JOKER, N_KINDS, RED3, TWO, WILDS_ONLY,
                       canasta_kind, meld_is_legal, score_side, wild_room)

SEATS = 4
HAND = 12
SLOTS = 12  # slot 0..10 the ranks 4..A, slot 11 the meld of wilds alone
WILD_SLOT = 11
REC = 4  # a meld record: kind, naturals, twos, jokers
MAX_CARDS = 110
MAX_TURNS = 64
MAX_ROUNDS = 17
BIG_ROOM = 1 << 20

#: The table. ``hand`` 4 seats x 15 kinds; ``meld`` 2 sides x 12 slots x (kind, naturals,
#: twos, jokers); ``red3`` red 3s laid per side; ``opened`` per side; ``pile`` kinds bottom
#: to top; ``stock`` the shuffled pack, drawn from ``stock_pos`` on; ``phase`` 0 acting,
#: 1 a freed wild must be melded, 2 the hand is over; ``can_take`` the pile may still be
#: taken this turn; ``freed`` the kind of the freed wild; ``went_out`` the seat that went
#: out or -1; ``score`` of each side for the hand; ``open_turn``/``canasta_turn`` the turn
#: (0-based, counted over the table) a side opened / made its first canasta, -1 if not yet.
S = Layout("canasta table", [
    ("hand", SEATS * N_KINDS), ("meld", 2 * SLOTS * REC), ("red3", 2), ("opened", 2),
    ("pile", MAX_CARDS), ("pile_len", 1), ("stock", MAX_CARDS), ("stock_pos", 1), ("deck_size", 1),
    ("seat", 1), ("turn", 1), ("dealer", 1), ("phase", 1), ("can_take", 1), ("freed", 1),
    ("went_out", 1), ("score", 2), ("open_turn", 2), ("canasta_turn", 2),
    ("pile_takes", 2), ("pile_taken", 2), ("bad_moves", 1), ("hand_count", SEATS),
])
SA = S.at
S_SIZE = S.size

#: The rules as the kernels read them.
R = Layout("canasta play rules", [
    ("points", N_KINDS), ("wild_code", 1), ("min_first", 1), ("wild_melds", 1), ("swap_twos", 1),
    ("jokers", 1), ("meld_all", 1), ("out_bonus", 1), ("out_needs_canasta", 1), ("target", 1),
    ("max_hands", 1),
])
RA = R.at

PH_ACT = 0
PH_FREED = 1
PH_OVER = 2

#: Move records ``(type, a, b, c, d)``.
MV_DISCARD = 0   # a = kind
MV_RED3 = 1      # lay one red 3
MV_NEW = 2       # a = kind (-1 wilds only), b naturals, c twos, d jokers
MV_ADD = 3       # a = side of the meld, b = slot, c = kind of the card added
MV_SWAP = 4      # a = side, b = slot, c = the wild swapped out (JOKER, or TWO with swap_twos)
MV_TAKE_NEW = 5  # take the pile: new meld (a kind, b naturals, c twos, d jokers) holding the top card
MV_TAKE_ADD = 6  # take the pile: top card onto meld (a side, b slot)
MV_PASS = 7      # end the turn without a discard: only when the stock is empty and the last card may not go
MOVE_NAMES = ("discard", "red3", "meld", "add", "swap", "take+meld", "take+add", "pass")
MW = 5
MAX_MOVES = 16384

#: Players.
P_RANDOM = 0
P_HEURISTIC = 1
P_USER = 2

#: Violation counters of the checked mode (indices into the play kernels' ``viol`` block).
V_CARDS = 0      # a kind's cards are not all in one place each
V_MELD = 1       # an illegal meld on the table
V_SCORE = 2      # a side's score differs from score_side of its table
V_FIRST_OUT = 3  # a player went out in its first turn
V_STUCK = 4      # a decision with no legal move
V_POLICY = 5     # a player answered with an index outside the move list
V_OPEN = 6       # a side's first meld below the minimum, or melds of an unopened side
N_VIOL = 7


# ---- small accessors ------------------------------------------------------------------
@inline
def hand_at(seat, kind):
    return SA.hand + seat * N_KINDS + kind


@inline
def meld_at(side, slot):
    return SA.meld + (side * SLOTS + slot) * REC


@inline
def slot_of(kind):
    return WILD_SLOT if kind == WILDS_ONLY else kind - FOUR


@inline
def hand_size(t, seat):
    h = 0
    for k in range(N_KINDS):
        h += t[SA.hand + seat * N_KINDS + k]
    return h


@inline
def meld_size(t, side, slot):
    o = meld_at(side, slot)
    return t[o + 1] + t[o + 2] + t[o + 3]


@inline
def stock_left(t):
    return t[SA.deck_size] - t[SA.stock_pos]


@helper
def side_has_canasta(t, side):
    for sl in range(SLOTS):
        if meld_size(t, side, sl) >= 7:
            return True
    return False


@inline
def may_go_out(t, rl, canasta_after):
    """Going out is allowed: not in the player's first turn; with the canasta option, only
    with a canasta on the side (counting the one the move itself makes)."""
    if t[SA.turn] < SEATS:
        return False
    return rl[RA.out_needs_canasta] == 0 or canasta_after


@inline
def keep_ok(h_after, t, rl, canasta_after):
    """May a move leave ``h_after`` cards in the hand? 0 is going out by melding; 1 means
    the final discard goes out, which ``going_out="meld_all"`` does not allow."""
    if h_after >= 2:
        return True
    if not may_go_out(t, rl, canasta_after):
        return False
    if h_after == 1:
        return rl[RA.meld_all] == 0
    return h_after == 0


# ---- the deal ---------------------------------------------------------------------------
@helper
def new_hand(rng, t, deck, dealer):
    """Shuffle the pack, deal 12 cards to each seat, turn the upcard onto the pile; the
    player left of the dealer moves first."""
    size = deck.shape[0]
    shuffle_prefix(rng, deck, size - 1, size)
    t[:] = 0
    for side in range(2):
        for sl in range(SLOTS):
            t[meld_at(side, sl)] = WILDS_ONLY if sl == WILD_SLOT else sl + FOUR
    for i in range(SEATS):
        seat = (dealer + 1 + i) % SEATS
        for c in range(HAND):
            t[hand_at(seat, deck[HAND * i + c])] += 1
    for i in range(size):
        t[SA.stock + i] = deck[i]
    t[SA.pile] = deck[SEATS * HAND]
    t[SA.pile_len] = 1
    t[SA.stock_pos] = SEATS * HAND + 1
    t[SA.deck_size] = size
    t[SA.dealer] = dealer
    t[SA.seat] = (dealer + 1) % SEATS
    t[SA.went_out] = -1
    for side in range(2):
        t[SA.open_turn + side] = -1
        t[SA.canasta_turn + side] = -1
    t[SA.phase] = PH_ACT
    start_turn(t)


@helper
def start_turn(t):
    """The player draws from the stock first; an empty stock ends the hand."""
    if stock_left(t) <= 0:
        t[SA.phase] = PH_OVER
        return
    seat = t[SA.seat]
    t[hand_at(seat, t[SA.stock + t[SA.stock_pos]])] += 1
    t[SA.stock_pos] += 1
    t[SA.can_take] = 1
    t[SA.phase] = PH_ACT


# Constants handed to a compiled helper are typed as literals, and numba compiles the helper
# once per combination of literal and plain arguments (play_hand four times, _new_melds five,
# _play_recorded twice):
# passed through these they are plain int64 and bool, and each helper compiles once.
_I = np.int64
_NO = np.bool_(False)
_YES = np.bool_(True)


# ---- listing the legal moves ----------------------------------------------------------
@helper
def _new_melds(t, rl, seat, cnt, need, fixed_kind, extra, mv, nm, mtype, count_only, has_can):
    """Append every legal new meld formed from the counts ``cnt``.

    ``need`` (TWO/JOKER or -1): the meld must hold that wild; ``fixed_kind`` (or -2): the
    meld's rank; ``extra`` cards join the hand after the move (the rest of a taken pile).
    The hand left is ``sum(cnt) - meld + extra``. With ``count_only`` the moves are only
    counted (used to tell whether a swap can meld its freed wild)."""
    side = seat % 2
    code = rl[RA.wild_code]
    wm = rl[RA.wild_melds]
    opened = t[SA.opened + side] != 0
    total = 0
    for k in range(N_KINDS):
        total += cnt[k]
    pts_two = rl[RA.points + TWO]
    pts_jk = rl[RA.points + JOKER]
    T = cnt[TWO]
    J = cnt[JOKER]
    for kk in range(FOUR, ACE + 2):
        kind = WILDS_ONLY if kk == ACE + 1 else kk
        if fixed_kind != -2 and kind != fixed_kind:
            continue
        if meld_size(t, side, slot_of(kind)) > 0:
            continue
        if kind == WILDS_ONLY:
            if wm == 0:
                continue
            nlo, nhi, p = 0, 0, 0
        else:
            nlo, nhi, p = 1, cnt[kind], rl[RA.points + kind]
        for n in range(nlo, nhi + 1):
            # wilds beyond the limit are never legal: bound the loops (same moves, same order)
            room = BIG_ROOM if kind == WILDS_ONLY else wild_room(n, code)
            if room < 0:
                continue
            for tw in range(min(T, room) + 1):
                for jk in range(min(J, room - tw) + 1):
                    if need == TWO and tw == 0:
                        continue
                    if need == JOKER and jk == 0:
                        continue
                    size = n + tw + jk
                    if not meld_is_legal(kind, n, tw, jk, code, wm):
                        continue
                    if not opened and n * p + tw * pts_two + jk * pts_jk < rl[RA.min_first]:
                        continue
                    if not keep_ok(total - size + extra, t, rl, has_can or size >= 7):
                        continue
                    if not count_only:
                        mv[nm, 0] = mtype
                        mv[nm, 1] = kind
                        mv[nm, 2] = n
                        mv[nm, 3] = tw
                        mv[nm, 4] = jk
                    nm += 1
    return nm


@inline
def _put(mv, nm, a, b, c, d, e):
    mv[nm, 0] = a
    mv[nm, 1] = b
    mv[nm, 2] = c
    mv[nm, 3] = d
    mv[nm, 4] = e
    return nm + 1


@helper
def fits(t, rl, side, slot, card):
    """Can one card of kind ``card`` be added to meld (side, slot)?"""
    o = meld_at(side, slot)
    if t[o + 1] + t[o + 2] + t[o + 3] == 0:
        return False
    kind = t[o]
    n, tw, jk = t[o + 1], t[o + 2], t[o + 3]
    if card == TWO:
        tw += 1
    elif card == JOKER:
        jk += 1
    elif card == kind and kind != WILDS_ONLY:
        n += 1
    else:
        return False
    return meld_is_legal(kind, n, tw, jk, rl[RA.wild_code], rl[RA.wild_melds])


@helper
def gen_moves(t, rl, mv, work):
    """Every legal move of the seat to act, in a fixed order; returns how many.

    ``work`` is an int64[15] scratch array."""
    seat = t[SA.seat]
    side = seat % 2
    hb = SA.hand + seat * N_KINDS
    h = hand_size(t, seat)
    nm = 0
    if t[SA.phase] == PH_FREED:
        for k in range(N_KINDS):
            work[k] = t[hb + k]
        return _new_melds(t, rl, seat, work, t[SA.freed], _I(-2), _I(0), mv, _I(0), _I(MV_NEW), _NO,
                          side_has_canasta(t, side))
    opened = t[SA.opened + side] != 0
    has_can = side_has_canasta(t, side)
    # red 3s
    if t[hb + RED3] > 0:
        h_after = h - 1 + (1 if stock_left(t) > 0 else 0)
        if h_after >= 2 or (h_after == 1 and rl[RA.meld_all] == 0 and may_go_out(t, rl, has_can)):
            nm = _put(mv, nm, MV_RED3, 0, 0, 0, 0)
    # taking the pile
    if t[SA.can_take] != 0 and t[SA.pile_len] > 0:
        top = t[SA.pile + t[SA.pile_len] - 1]
        rest = t[SA.pile_len] - 1
        if top != BLACK3 and top != RED3:
            for k in range(N_KINDS):
                work[k] = t[hb + k]
            work[top] += 1
            if top == TWO or top == JOKER:
                nm = _new_melds(t, rl, seat, work, top, _I(-2), rest, mv, nm, _I(MV_TAKE_NEW), _NO, has_can)
            else:
                nm = _new_melds(t, rl, seat, work, _I(-1), top, rest, mv, nm, _I(MV_TAKE_NEW), _NO, has_can)
            if opened:
                for s2 in range(2):
                    ms = side if s2 == 0 else 1 - side
                    for sl in range(SLOTS):
                        if fits(t, rl, ms, sl, top):
                            mk = ms == side and meld_size(t, ms, sl) + 1 >= 7
                            if keep_ok(h + rest, t, rl, has_can or mk):
                                nm = _put(mv, nm, MV_TAKE_ADD, ms, sl, 0, 0)
    # new melds from the hand
    for k in range(N_KINDS):
        work[k] = t[hb + k]
    nm = _new_melds(t, rl, seat, work, _I(-1), _I(-2), _I(0), mv, nm, _I(MV_NEW), _NO, has_can)
    if opened:
        # adding one card to a meld, own side's first
        for s2 in range(2):
            ms = side if s2 == 0 else 1 - side
            for sl in range(SLOTS):
                if meld_size(t, ms, sl) == 0:
                    continue
                for ci in range(3):
                    # only a 2, the meld's rank or a Joker can join it (ascending: same order)
                    card = TWO if ci == 0 else (t[meld_at(ms, sl)] if ci == 1 else JOKER)
                    if card < 0 or t[hb + card] == 0:
                        continue
                    if fits(t, rl, ms, sl, card):
                        mk = ms == side and meld_size(t, ms, sl) + 1 >= 7
                        if keep_ok(h - 1, t, rl, has_can or mk):
                            nm = _put(mv, nm, MV_ADD, ms, sl, card, 0)
        # swapping a Joker (a 2 with swap_twos) out for the natural it stands for
        for s2 in range(2):
            ms = side if s2 == 0 else 1 - side
            for sl in range(WILD_SLOT):
                o = meld_at(ms, sl)
                kind = t[o]
                if t[o + 1] + t[o + 2] + t[o + 3] == 0 or t[hb + kind] == 0:
                    continue
                for wi in range(2):
                    wild = JOKER if wi == 0 else TWO
                    if wild == TWO and rl[RA.swap_twos] == 0:
                        continue
                    if t[o + (3 if wild == JOKER else 2)] == 0:
                        continue
                    for k in range(N_KINDS):
                        work[k] = t[hb + k]
                    work[kind] -= 1
                    work[wild] += 1
                    if _new_melds(t, rl, seat, work, wild, _I(-2), _I(0), mv, _I(0), _I(MV_NEW), _YES, has_can) > 0:
                        nm = _put(mv, nm, MV_SWAP, ms, sl, wild, 0)
    # the discard that ends the turn
    for card in range(N_KINDS):
        if t[hb + card] == 0:
            continue
        if h - 1 >= 1 or (rl[RA.meld_all] == 0 and may_go_out(t, rl, has_can)):
            nm = _put(mv, nm, MV_DISCARD, card, 0, 0, 0)
    if nm == 0 and stock_left(t) <= 0:
        # Red 3s laid with no replacement left one card that may not be discarded (meld_all):
        # the turn ends without a discard, and the next player's draw ends the hand.
        nm = _put(mv, nm, MV_PASS, 0, 0, 0, 0)
    return nm


# ---- applying a move ----------------------------------------------------------------------
@helper
def _note_melds(t, side):
    if t[SA.opened + side] == 0:
        t[SA.opened + side] = 1
        t[SA.open_turn + side] = t[SA.turn]
    if t[SA.canasta_turn + side] < 0 and side_has_canasta(t, side):
        t[SA.canasta_turn + side] = t[SA.turn]


@helper
def _lay_red3(t, seat):
    side = seat % 2
    while True:
        t[hand_at(seat, RED3)] -= 1
        t[SA.red3 + side] += 1
        if stock_left(t) <= 0:
            return
        c = t[SA.stock + t[SA.stock_pos]]
        t[SA.stock_pos] += 1
        t[hand_at(seat, c)] += 1
        if c != RED3:
            return


@helper
def apply_move(t, rl, m):
    """Play move record ``m`` for the seat to act; ends the turn after a discard and the
    hand when the stock is empty or the player went out."""
    seat = t[SA.seat]
    side = seat % 2
    hb = SA.hand + seat * N_KINDS
    typ = m[0]
    if typ == MV_PASS:
        t[SA.turn] += 1
        t[SA.seat] = (seat + 1) % SEATS
        start_turn(t)
        return
    if typ == MV_DISCARD:
        t[hb + m[1]] -= 1
        t[SA.pile + t[SA.pile_len]] = m[1]
        t[SA.pile_len] += 1
        if hand_size(t, seat) == 0:
            t[SA.went_out] = seat
            t[SA.phase] = PH_OVER
            return
        t[SA.turn] += 1
        t[SA.seat] = (seat + 1) % SEATS
        start_turn(t)
        return
    if typ == MV_RED3:
        _lay_red3(t, seat)
    elif typ == MV_NEW or typ == MV_TAKE_NEW:
        kind = m[1]
        o = meld_at(side, slot_of(kind))
        if typ == MV_TAKE_NEW:
            top = t[SA.pile + t[SA.pile_len] - 1]
            t[hb + top] += 1
            t[SA.pile_len] -= 1
        if kind != WILDS_ONLY:
            t[hb + kind] -= m[2]
        t[hb + TWO] -= m[3]
        t[hb + JOKER] -= m[4]
        t[o + 1] = m[2]
        t[o + 2] = m[3]
        t[o + 3] = m[4]
        if typ == MV_TAKE_NEW:
            _take_rest(t, seat)
        if t[SA.phase] == PH_FREED:
            t[SA.phase] = PH_ACT
        _note_melds(t, side)
    elif typ == MV_ADD or typ == MV_TAKE_ADD:
        o = meld_at(m[1], m[2])
        if typ == MV_ADD:
            card = m[3]
            t[hb + card] -= 1
        else:
            card = t[SA.pile + t[SA.pile_len] - 1]
            t[SA.pile_len] -= 1
        if card == TWO:
            t[o + 2] += 1
        elif card == JOKER:
            t[o + 3] += 1
        else:
            t[o + 1] += 1
        if typ == MV_TAKE_ADD:
            _take_rest(t, seat)
        _note_melds(t, m[1])
    elif typ == MV_SWAP:
        o = meld_at(m[1], m[2])
        wild = m[3]
        t[hb + t[o]] -= 1
        t[o + 1] += 1
        t[o + (3 if wild == JOKER else 2)] -= 1
        t[hb + wild] += 1
        t[SA.freed] = wild
        t[SA.phase] = PH_FREED
        _note_melds(t, m[1])
    if typ != MV_RED3 and typ != MV_SWAP:
        t[SA.can_take] = 0
    if typ == MV_SWAP:
        t[SA.can_take] = 0
    if hand_size(t, seat) == 0:
        t[SA.went_out] = seat
        t[SA.phase] = PH_OVER


@helper
def _take_rest(t, seat):
    """The rest of the pile goes to the hand of the player who took it."""
    side = seat % 2
    n = t[SA.pile_len]
    for i in range(n):
        t[hand_at(seat, t[SA.pile + i])] += 1
    t[SA.pile_takes + side] += 1
    t[SA.pile_taken + side] += n + 1
    t[SA.pile_len] = 0
    t[SA.can_take] = 0


# ---- scoring ------------------------------------------------------------------------------
@helper
def score_hand(t, rl, left):
    """Each side's score for the finished hand by the shared ``score_side``."""
    for side in range(2):
        for k in range(N_KINDS):
            left[k] = t[hand_at(side, k)] + t[hand_at(side + 2, k)]
        recs = t[SA.meld + side * SLOTS * REC:SA.meld + (side + 1) * SLOTS * REC].reshape((SLOTS, REC))
        out = 1 if t[SA.went_out] >= 0 and t[SA.went_out] % 2 == side else 0
        t[SA.score + side] = score_side(recs, SLOTS, t[SA.red3 + side], left, out, rl[RA.points:RA.points + N_KINDS],
                                        rl[RA.out_bonus], rl[RA.out_needs_canasta])


# ---- checked mode -----------------------------------------------------------------------------
@helper
def check_table(t, rl, deck_counts, viol, work):
    """Verify the table: every card in exactly one place, every meld legal, no meld of a
    side that has not opened. Adds to ``viol`` (``V_*``)."""
    for k in range(N_KINDS):
        work[k] = 0
    for s in range(SEATS):
        for k in range(N_KINDS):
            c = t[hand_at(s, k)]
            if c < 0:
                viol[V_CARDS] += 1
            work[k] += c
    for i in range(t[SA.pile_len]):
        work[t[SA.pile + i]] += 1
    for i in range(t[SA.stock_pos], t[SA.deck_size]):
        work[t[SA.stock + i]] += 1
    for side in range(2):
        work[RED3] += t[SA.red3 + side]
        for sl in range(SLOTS):
            o = meld_at(side, sl)
            n, tw, jk = t[o + 1], t[o + 2], t[o + 3]
            if n + tw + jk == 0:
                continue
            if t[SA.opened + side] == 0:
                viol[V_OPEN] += 1
            if not meld_is_legal(t[o], n, tw, jk, rl[RA.wild_code], rl[RA.wild_melds]) or slot_of(t[o]) != sl:
                viol[V_MELD] += 1
            if t[o] != WILDS_ONLY:
                work[t[o]] += n
            work[TWO] += tw
            work[JOKER] += jk
    for k in range(N_KINDS):
        if work[k] != deck_counts[k]:
            viol[V_CARDS] += 1
            break


@helper
def check_score(t, rl, viol):
    """Each side's score recomputed from the rules' words, against ``score_side``."""
    pts = rl[RA.points:RA.points + N_KINDS]
    for side in range(2):
        canastas = 0
        table = 0
        bonus = 0
        for sl in range(SLOTS):
            o = meld_at(side, sl)
            n, tw, jk = t[o + 1], t[o + 2], t[o + 3]
            if n + tw + jk == 0:
                continue
            if t[o] != WILDS_ONLY:
                table += n * pts[t[o]]
            table += tw * pts[TWO] + jk * pts[JOKER]
            if n + tw + jk >= 7:
                canastas += 1
                if n == 0:
                    bonus += 1000
                elif n >= 7:
                    bonus += 500
                else:
                    bonus += 300
        table += 100 * t[SA.red3 + side]
        s = bonus + table if canastas > 0 else -table
        for seat in (side, side + 2):
            for k in range(N_KINDS):
                s -= t[hand_at(seat, k)] * pts[k]
        wo = t[SA.went_out]
        if wo >= 0 and wo % 2 == side and (rl[RA.out_needs_canasta] == 0 or canastas > 0):
            s += rl[RA.out_bonus]
        if s != t[SA.score + side]:
            viol[V_SCORE] += 1
    wo = t[SA.went_out]
    if wo >= 0 and t[SA.turn] < SEATS:
        viol[V_FIRST_OUT] += 1


# ---- players -----------------------------------------------------------------------------------
#: ``policy(rng, view, moves, n_moves, seat) -> move index``: the play loop calls a user's
#: policy through a pointer of this type (documented in :mod:`cardodds.canasta.view`), so the
#: kernels are compiled, and cached, once, whatever the policy.
POLICY_SIGNATURE = types.int64(types.uint64[::1], types.int64[::1], types.int64[:, ::1], types.int64, types.int64)


@callback(POLICY_SIGNATURE)
def no_user_policy(rng, view, moves, n_moves, seat):
    """Stands in for a user policy in runs without one (never called there)."""
    return 0


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
#: Its named parameters (documented in players.py); integers, so they pack like the rules.
H = Layout("canasta heuristic", [
    ("open_from_turn", 1),     # open no earlier than this own turn (0 = as soon as it can)
    ("take_min_pile", 1),      # take the pile only when it holds at least this many cards
    ("take_min_gain", 1),      # ... and the meld it makes plus the pile's naturals are worth this
    ("discard_care", 1),       # 1: discard what the next opponent can least use; 0: the cheapest card
    ("out_needs_canasta", 1),  # 1: go out only with a canasta on the side
    ("feed_opponents", 1),     # 1: add naturals to the opponents' melds to shed cards
    ("keep_wilds", 1),         # wilds kept back in hand until the side has a canasta
    ("min_naturals", 1),       # naturals a new meld needs (besides the first meld)
])
HA = H.at
#: The tuner's best set (players.tune, seed 7, 1,500 paired deals a match), which beat the
#: hand-set start (take_min_gain=20, out_needs_canasta=1, keep_wilds=1) by 277 [254, 301]
#: points a hand on fresh deals.
HEURISTIC_DEFAULTS = dict(open_from_turn=0, take_min_pile=2, take_min_gain=0, discard_care=1,
                          out_needs_canasta=0, feed_opponents=0, keep_wilds=0, min_naturals=3)


@helper
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


@helper
def heuristic_choose(t, rl, mv, nm, hp):
    """Pick a move by the named parameters ``hp`` (layout :data:`H`); ties to the first move."""
    seat = t[SA.seat]
    side = seat % 2
    hb = SA.hand + seat * N_KINDS
    h = hand_size(t, seat)
    pts = rl[RA.points:RA.points + N_KINDS]
    own_turn = t[SA.turn] // SEATS
    has_can = side_has_canasta(t, side)
    wilds = t[hb + TWO] + t[hb + JOKER]
    allow_out = hp[HA.out_needs_canasta] == 0 or has_can
    best = -1 << 40
    bi = 0
    pile_gain = -1
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
                    if size == 6 or (has_can and wilds > hp[HA.keep_wilds]) or wilds > hp[HA.keep_wilds] + 1:
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
            if pile_gain < 0:
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
            if size >= hp[HA.take_min_pile] and gain >= hp[HA.take_min_gain]:
                sc = 20000 + gain
        if sc > best:
            best = sc
            bi = i
    return bi


# ---- playing a hand and a game -----------------------------------------------------------------
@helper
def _user_choice(rng, t, mv, nm, seat, user):
    i = user(rng, user_view(t), mv[:nm], nm, seat)
    if i < 0 or i >= nm:
        # A wrong answer is counted (checked runs report it) and replaced by the first move.
        t[SA.bad_moves] += 1
        return 0
    return i


@inline
def choose(rng, t, rl, mv, nm, pol, hp, user):
    seat = t[SA.seat]
    code = pol[seat]
    if code == P_RANDOM:
        return bounded(rng, nm)
    if code == P_HEURISTIC:
        return heuristic_choose(t, rl, mv, nm, hp[seat])
    # The call through the user's pointer stays out of this hot function (a separate helper).
    return _user_choice(rng, t, mv, nm, seat, user)


@helper
def play_hand(rng, t, rl, deck, dealer, pol, hp, mv, work, check, deck_counts, viol, user, out, base):
    """Deal and play one hand to its end; scores in ``t[score]``. With ``base >= 0`` the size
    of every pile taken is counted in the block of ``out`` at ``base``."""
    new_hand(rng, t, deck, dealer)
    if check != 0:
        check_table(t, rl, deck_counts, viol, work)
    while t[SA.phase] != PH_OVER:
        nm = gen_moves(t, rl, mv, work)
        if nm == 0:
            viol[V_STUCK] += 1
            t[SA.phase] = PH_OVER
            break
        i = choose(rng, t, rl, mv, nm, pol, hp, user)
        if base >= 0 and (mv[i, 0] == MV_TAKE_NEW or mv[i, 0] == MV_TAKE_ADD):
            out[base + OA.take_size + t[SA.pile_len]] += 1
        apply_move(t, rl, mv[i])
        if check != 0:
            check_table(t, rl, deck_counts, viol, work)
    score_hand(t, rl, work)
    if check != 0:
        check_score(t, rl, viol)
    if t[SA.bad_moves] > 0:
        viol[V_POLICY] += t[SA.bad_moves]


#: Counts of the hands kernels, per block (one block per rules set in a paired run).
SCORE_BINS = 240   # hand score per side in 100-point bins from -8000
SCORE_LO = -8000
HC = Layout("canasta play counts", [
    ("hands", 1), ("violations", N_VIOL),
    ("open_turn", 2 * (MAX_TURNS + 1)),     # side x the turn it opened (last bin: never)
    ("canasta_turn", 2 * (MAX_TURNS + 1)),  # side x the turn of its first canasta (last: never)
    ("canastas", 2 * 4),                    # side x kind (none unused, mixed, clean, joker): total
    ("canastas_sq", 2),                     # side: sum of squares of canastas a hand
    ("takes", 2), ("takes_sq", 2),          # side: pile takes a hand
    ("take_size", MAX_CARDS + 1),           # cards taken with the pile (both sides)
    ("end_turn", 2 * (MAX_TURNS + 1)),      # (went out, stock empty) x turns played
    ("score", 2), ("score_sq", 2),          # side: hand score sum and sum of squares
    ("score_hist", 2 * SCORE_BINS),
    ("diff_sq", 1),                         # sum of squares of (side 0 - side 1)
    ("red3", 2),                            # red 3s laid, side totals
])
OA = HC.at
O_SIZE = HC.size


@helper
def record_hand(t, out, base):
    """Add one finished hand's figures to the counts block at ``base``."""
    out[base + OA.hands] += 1
    for side in range(2):
        ot = t[SA.open_turn + side]
        out[base + OA.open_turn + side * (MAX_TURNS + 1) + (ot if ot >= 0 else MAX_TURNS)] += 1
        ct = t[SA.canasta_turn + side]
        out[base + OA.canasta_turn + side * (MAX_TURNS + 1) + (ct if ct >= 0 else MAX_TURNS)] += 1
        nc = 0
        for sl in range(SLOTS):
            o = meld_at(side, sl)
            ck = canasta_kind(t[o], t[o + 1], t[o + 2], t[o + 3])
            if ck != CANASTA_NONE:
                out[base + OA.canastas + side * 4 + ck] += 1
                nc += 1
        out[base + OA.canastas_sq + side] += nc * nc
        tk = t[SA.pile_takes + side]
        out[base + OA.takes + side] += tk
        out[base + OA.takes_sq + side] += tk * tk
        s = t[SA.score + side]
        out[base + OA.score + side] += s
        out[base + OA.score_sq + side] += s * s
        b = (s - SCORE_LO) // 100
        b = 0 if b < 0 else (SCORE_BINS - 1 if b >= SCORE_BINS else b)
        out[base + OA.score_hist + side * SCORE_BINS + b] += 1
        out[base + OA.red3 + side] += t[SA.red3 + side]
    d = t[SA.score] - t[SA.score + 1]
    out[base + OA.diff_sq] += d * d
    how = 0 if t[SA.went_out] >= 0 else 1
    out[base + OA.end_turn + how * (MAX_TURNS + 1) + min(t[SA.turn] + 1, MAX_TURNS)] += 1


#: Counts of :func:`paired_kernel`: a :data:`HC` block per rules set, then the paired change
#: of side 0's hand score (B - A): its sum, sum of squares and sum of signs.
PAIRED = Layout("canasta paired counts", [("a", O_SIZE), ("b", O_SIZE), ("change", 1), ("change_sq", 1),
                                          ("change_sign", 1)])
PA = PAIRED.at


def advice_layout(k: int) -> Layout:
    """Counts of :func:`advise_kernel` for ``k`` options: each option's margin (our side's
    hand score minus theirs), its square and the deals it was ahead; for every pair i < j (in
    order), the paired difference of margins i - j, its square and its sum of signs."""
    pairs = k * (k - 1) // 2
    return Layout("canasta advice counts", [
        ("margin", k), ("margin_sq", k), ("ahead", k), ("pair", pairs), ("pair_sq", pairs), ("pair_sign", pairs)])


#: Field numbers of :func:`advice_layout` (its sizes depend on the options; the kernel gets the offsets).
ADV = advice_layout(2).index


@inline
def _scratch():
    """A kernel's table, move list, kind counts and violation counters."""
    return (np.zeros(S_SIZE, dtype=np.int64), np.zeros((MAX_MOVES, MW), dtype=np.int64),
            np.zeros(N_KINDS, dtype=np.int64), np.zeros(N_VIOL, dtype=np.int64))


@kernel
def hands_kernel(rng, n, out, deck, rl, pol, hp, check, deck_counts, user):
    """Play ``n`` single hands (seat 3 deals, so seat 0 of side 0 moves first)."""
    d = deck.copy()
    t, mv, work, viol = _scratch()
    for _ in range(n):
        _play_recorded(rng, t, rl, d, _I(3), pol, hp, mv, work, check, deck_counts, viol, out, _I(0), user)
    for v in range(N_VIOL):
        out[OA.violations + v] += viol[v]


@helper
def _play_recorded(rng, t, rl, d, dealer, pol, hp, mv, work, check, deck_counts, viol, out, base, user):
    """Play a hand and record it, the pile takes' sizes included."""
    play_hand(rng, t, rl, d, dealer, pol, hp, mv, work, check, deck_counts, viol, user, out, base)
    record_hand(t, out, base)


@kernel
def paired_kernel(rng, n, out, deck_a, rl_a, deck_b, rl_b, pol, hp, check, dc_a, dc_b, user):
    """Each sample plays the same deal (the same random stream from the deal on) under rules
    A and rules B; counts by :data:`PAIRED`: a block of figures for each, and the paired change
    of side 0's hand score (B - A): sum, sum of squares, and the hands where B's side-0 score was
    higher minus lower (for a sign test)."""
    da = deck_a.copy()
    db = deck_b.copy()
    keep = deck_a.copy()
    same = deck_a.shape[0] == deck_b.shape[0]
    t, mv, work, viol = _scratch()
    saved = rng.copy()
    for _ in range(n):
        saved[:] = rng
        keep[:] = da
        _play_recorded(rng, t, rl_a, da, _I(3), pol, hp, mv, work, check, dc_a, viol, out, _I(PA.a), user)
        sa = t[SA.score]
        after = rng.copy()
        rng[:] = saved
        if same:
            db[:] = keep  # the same pack order, so the same shuffle deals the same cards
        _play_recorded(rng, t, rl_b, db, _I(3), pol, hp, mv, work, check, dc_b, viol, out, _I(PA.b), user)
        sb = t[SA.score]
        rng[:] = after
        dd = sb - sa
        out[PA.change] += dd
        out[PA.change_sq] += dd * dd
        out[PA.change_sign] += 1 if dd > 0 else (-1 if dd < 0 else 0)
    for v in range(N_VIOL):
        out[OA.violations + v] += viol[v]


#: Counts of the game kernel.
MAX_GAME_HANDS = 400
G = Layout("canasta game counts", [
    ("games", 1), ("violations", N_VIOL), ("first_dealer_wins", 1), ("unfinished", 1),
    ("hands", MAX_GAME_HANDS + 1), ("hands_sum", 1), ("hands_sq", 1), ("margin", 1), ("margin_sq", 1),
])
GA = G.at


@helper
def game_decided(tot0, tot1, target):
    """After a hand: a side has reached the target and the totals differ (an exact tie plays on)."""
    return (tot0 >= target or tot1 >= target) and tot0 != tot1


@kernel
def game_kernel(rng, n, out, deck, rl, pol, hp, check, deck_counts, user):
    """Play ``n`` games to ``target``; side 0 (seat 0) deals the first hand, the deal passes
    to the left; after a hand in which a side reached the target the higher total wins, an
    exact tie plays on. A game still open after ``max_hands`` hands counts as unfinished."""
    d = deck.copy()
    t, mv, work, viol = _scratch()
    for _ in range(n):
        tot0 = 0
        tot1 = 0
        hands = 0
        done = False
        while hands < rl[RA.max_hands]:
            play_hand(rng, t, rl, d, hands % SEATS, pol, hp, mv, work, check, deck_counts, viol, user, out, _I(-1))
            hands += 1
            tot0 += t[SA.score]
            tot1 += t[SA.score + 1]
            if game_decided(tot0, tot1, rl[RA.target]):
                done = True
                break
        out[GA.games] += 1
        if not done:
            out[GA.unfinished] += 1
            continue
        if tot0 > tot1:
            out[GA.first_dealer_wins] += 1
        out[GA.hands + min(hands, MAX_GAME_HANDS)] += 1
        out[GA.hands_sum] += hands
        out[GA.hands_sq] += hands * hands
        m = tot0 - tot1 if tot0 > tot1 else tot1 - tot0
        out[GA.margin] += m
        out[GA.margin_sq] += m * m
    for v in range(N_VIOL):
        out[GA.violations + v] += viol[v]


#: Counts of the strength match.
M = Layout("canasta match counts", [
    ("pairs", 1), ("violations", N_VIOL), ("diff2", 1), ("diff2_sq", 1), ("better", 1), ("worse", 1),
])
MA = M.at


@kernel
def match_kernel(rng, n, out, deck, rl, code_a, code_b, hp_a, hp_b, check, deck_counts, user):
    """Paired strength: each deal is played twice, A at seats 0+2 then A at seats 1+3, from
    the same random stream. ``diff2`` adds twice A's mean margin over the pair (points of A's
    side minus B's, summed over the two plays)."""
    d = deck.copy()
    keep = deck.copy()
    t, mv, work, viol = _scratch()
    pol = np.zeros(SEATS, dtype=np.int64)
    hp = np.zeros((SEATS, hp_a.shape[0]), dtype=np.int64)
    saved = rng.copy()
    for _ in range(n):
        saved[:] = rng
        keep[:] = d
        total = 0
        for rep in range(2):
            for s in range(SEATS):
                a_here = (s % 2 == 0) == (rep == 0)
                pol[s] = code_a if a_here else code_b
                hp[s] = hp_a if a_here else hp_b
            if rep == 1:
                rng[:] = saved
                d[:] = keep
            play_hand(rng, t, rl, d, _I(3), pol, hp, mv, work, check, deck_counts, viol, user, out, _I(-1))
            m = t[SA.score] - t[SA.score + 1]
            total += m if rep == 0 else -m
        add_paired(out, MA.pairs, MA.diff2, MA.diff2_sq, MA.better, MA.worse, total)
    for v in range(N_VIOL):
        out[MA.violations + v] += viol[v]


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
