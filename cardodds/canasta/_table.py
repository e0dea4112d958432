"""Compiled Polish Canasta table: the deal, the legal moves, a move played, the score (docs/rules/canasta.md).

The whole table is one int64 array laid out by :data:`S` (counts per kind for the hands,
meld records per side, the pile and the stock as kind codes), the rules the one int64 array
of :meth:`CanastaRules.pack` (layout :data:`cardodds.canasta.rules.RULES`). A turn is a
sequence of *decisions*; at each one :func:`gen_moves` lists every legal move as an int64
record ``(type, a, b, c, d)`` (see the ``MV_*`` codes) and the seat's policy picks one by its
index (:mod:`cardodds.canasta._policies`). Because policies only ever pick from that list, no
policy can break a rule, and the checked mode (:func:`check_table`) verifies the table after
every move anyway.

Rule choices where the original rules are silent (each documented in ``play.py`` and docs/rules/canasta.md):

- a side holds at most one meld of each rank and one meld of wilds alone (cards of a rank the
  side has melded are added to that meld);
- a side that has not opened may neither add to melds nor swap Jokers; its first
  combination (from the hand, or holding the pile's top card) must reach ``min_first_meld``;
- the pile may be taken only before the player's other moves of the turn (laying red 3s
  aside); the top card may go into a new combination or onto any meld on the table;
- laying a red 3 is a choice; its replacement, if a red 3 again, is laid at once with a new
  replacement; with an empty stock there is no replacement;
- seating (``direction``, ``first_player``), the empty stock (``empty_stock``) and the points
  of cards added to the opponents' melds (``added_cards``) are rules options, the defaults
  of docs/rules/canasta.md by default; a wild swapped out of a meld is, for ``added_cards="adder"``, one the
  swapping side laid there if it laid one, else one of the meld's side;
- going out: the hand becomes empty by melding or (``going_out="meld_or_discard"``) by the
  final discard; never in the player's first turn; with ``going_out_needs_canasta`` only
  when the side holds a canasta. A player left with one card it may not discard (red 3s laid
  on an empty stock) ends the turn without a discard (``MV_PASS``).
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, inline, kernel
from .._random import shuffle_prefix
from ..layout import Layout
from ._kernels import WILDS_ONLY, meld_is_legal, score_side, wild_room
from .cards import ACE, BLACK3, FOUR, JOKER, N_KINDS, RED3, TWO
from .rules import RULES

SEATS = 4
HAND = 12
SLOTS = 12  # slot 0..10 the ranks 4..A, slot 11 the meld of wilds alone
WILD_SLOT = 11
REC = 4  # a meld record: kind, naturals, twos, jokers
MAX_CARDS = 110
MAX_TURNS = 64
BIG_ROOM = 1 << 20

#: The table. ``hand`` 4 seats x 15 kinds; ``meld`` 2 sides x 12 slots x (kind, naturals,
#: twos, jokers); ``red3`` red 3s laid per side; ``opened`` per side; ``pile`` kinds bottom
#: to top; ``stock`` the shuffled pack, drawn from ``stock_pos`` on; ``phase`` 0 acting,
#: 1 a freed wild must be melded, 2 the hand is over; ``can_take`` the pile may still be
#: taken this turn; ``freed`` the kind of the freed wild; ``went_out`` the seat that went
#: out or -1; ``score`` of each side for the hand; ``open_turn``/``canasta_turn`` the turn
#: (0-based, counted over the table) a side opened / made its first canasta, -1 if not yet;
#: ``lent`` per meld record (side x slot) the naturals, 2s and Jokers the *other* side added
#: to it (scored for the adder with ``added_cards="adder"``); ``no_draw`` 1 in a turn that
#: began on an empty stock (``empty_stock="take_pile"``: take the pile or end the hand);
#: what every player saw (the memory of ``heuristic2``): ``took`` per seat x kind the cards
#: it took with the pile and has not played since, ``discarded`` per kind the discards so far,
#: ``threw`` per seat x kind the cards it discarded this hand; ``game`` each side's game score
#: before this hand (0 in single hands; :func:`new_hand` keeps it).
S = Layout("canasta table", [
    ("hand", SEATS * N_KINDS), ("meld", 2 * SLOTS * REC), ("red3", 2), ("opened", 2),
    ("pile", MAX_CARDS), ("pile_len", 1), ("stock", MAX_CARDS), ("stock_pos", 1), ("deck_size", 1),
    ("seat", 1), ("turn", 1), ("dealer", 1), ("phase", 1), ("can_take", 1), ("freed", 1),
    ("went_out", 1), ("score", 2), ("open_turn", 2), ("canasta_turn", 2),
    ("pile_takes", 2), ("pile_taken", 2), ("bad_moves", 1), ("hand_count", SEATS),
    ("lent", 2 * SLOTS * 3), ("no_draw", 1), ("took", SEATS * N_KINDS), ("discarded", N_KINDS),
    ("threw", SEATS * N_KINDS), ("game", 2),
])
SA = S.at
S_SIZE = S.size

#: The rules as the kernels read them: offsets into :meth:`CanastaRules.pack`.
R = RULES.at

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
MV_END = 8       # leave the pile on an empty stock (empty_stock="take_pile"): the hand ends
MW = 5
MAX_MOVES = 16384

#: Violation counters of the checked mode (indices into the play kernels' ``viol`` block).
V_CARDS = 0      # a kind's cards are not all in one place each
V_MELD = 1       # an illegal meld on the table
V_SCORE = 2      # a side's score differs from score_side of its table
V_FIRST_OUT = 3  # a player went out in its first turn
V_STUCK = 4      # a decision with no legal move
V_POLICY = 5     # a player answered with an index outside the move list
V_OPEN = 6       # a side's first meld below the minimum, or melds of an unopened side
N_VIOL = 7


# ---- small accessors (kernels: the advisor's Python code places a position with them) ----
@kernel
def hand_at(seat, kind):
    return SA.hand + seat * N_KINDS + kind


@kernel
def meld_at(side, slot):
    return SA.meld + (side * SLOTS + slot) * REC


@kernel
def slot_of(kind):
    return WILD_SLOT if kind == WILDS_ONLY else kind - FOUR


@helper
def hand_size(t, seat):
    h = 0
    for k in range(N_KINDS):
        h += t[SA.hand + seat * N_KINDS + k]
    return h


@helper
def meld_size(t, side, slot):
    o = meld_at(side, slot)
    return t[o + 1] + t[o + 2] + t[o + 3]


@helper
def lent_at(side, slot):
    """Offset of the (naturals, 2s, Jokers) the other side added to meld (side, slot)."""
    return SA.lent + (side * SLOTS + slot) * 3


@helper
def next_seat(rl, seat):
    """The seat after ``seat`` in the direction of play."""
    return (seat + SEATS + rl[R.direction]) % SEATS


@helper
def hand_dealer(rl):
    """The dealer of a single hand: the seat that makes seat 0 (side 0) move first."""
    return _I(0) if rl[R.first_dealer] != 0 else (SEATS - rl[R.direction]) % SEATS


@helper
def stock_left(t):
    return t[SA.deck_size] - t[SA.stock_pos]


@helper
def side_has_canasta(t, side):
    for sl in range(SLOTS):
        if meld_size(t, side, sl) >= 7:
            return True
    return False


@helper
def may_go_out(t, rl, canasta_after):
    """Going out is allowed: not in the player's first turn; with the canasta option, only
    with a canasta on the side (counting the one the move itself makes)."""
    if t[SA.turn] < SEATS:
        return False
    return rl[R.going_out_needs_canasta] == 0 or canasta_after


@helper
def keep_ok(h_after, t, rl, canasta_after):
    """May a move leave ``h_after`` cards in the hand? 0 is going out by melding; 1 means
    the final discard goes out, which ``going_out="meld_all"`` does not allow."""
    if h_after >= 2:
        return True
    if not may_go_out(t, rl, canasta_after):
        return False
    if h_after == 1:
        return rl[R.meld_all] == 0
    return h_after == 0


# ---- the deal ---------------------------------------------------------------------------
@helper
def new_hand(rng, t, rl, deck, dealer):
    """Shuffle the pack, deal 12 cards to each seat (from the player after the dealer, in
    the direction of play), turn the upcard onto the pile; the player after the dealer
    (left of the dealer, clockwise) moves first, or the dealer with ``first_player="dealer"``."""
    size = deck.shape[0]
    shuffle_prefix(rng, deck, size - 1, size)
    g0, g1 = t[SA.game], t[SA.game + 1]
    t[:] = 0
    t[SA.game], t[SA.game + 1] = g0, g1
    for side in range(2):
        for sl in range(SLOTS):
            t[meld_at(side, sl)] = WILDS_ONLY if sl == WILD_SLOT else sl + FOUR
    for i in range(SEATS):
        seat = (dealer + SEATS + rl[R.direction] * (1 + i)) % SEATS
        for c in range(HAND):
            t[hand_at(seat, deck[HAND * i + c])] += 1
    for i in range(size):
        t[SA.stock + i] = deck[i]
    t[SA.pile] = deck[SEATS * HAND]
    t[SA.pile_len] = 1
    t[SA.stock_pos] = SEATS * HAND + 1
    t[SA.deck_size] = size
    t[SA.dealer] = dealer
    t[SA.seat] = dealer if rl[R.first_dealer] != 0 else next_seat(rl, dealer)
    t[SA.went_out] = -1
    for side in range(2):
        t[SA.open_turn + side] = -1
        t[SA.canasta_turn + side] = -1
    t[SA.phase] = PH_ACT
    start_turn(t, rl)


@helper
def start_turn(t, rl):
    """The player draws from the stock first; an empty stock ends the hand (with
    ``empty_stock="take_pile"`` and a pile to take, the player may take it instead)."""
    t[SA.no_draw] = 0
    if stock_left(t) <= 0:
        if rl[R.empty_stock] != 0 and t[SA.pile_len] > 0:
            t[SA.no_draw] = 1
            t[SA.can_take] = 1
            t[SA.phase] = PH_ACT
            return
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
    code = rl[R.wild_code]
    wm = rl[R.wild_melds]
    opened = t[SA.opened + side] != 0
    total = 0
    for k in range(N_KINDS):
        total += cnt[k]
    pts_two = rl[R.points + TWO]
    pts_jk = rl[R.points + JOKER]
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
            nlo, nhi, p = 1, cnt[kind], rl[R.points + kind]
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
                    if not opened and n * p + tw * pts_two + jk * pts_jk < rl[R.min_first_meld]:
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


@helper
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
    return meld_is_legal(kind, n, tw, jk, rl[R.wild_code], rl[R.wild_melds])


@inline
def _take_moves(t, rl, mv, nm, work, seat, h, opened, has_can):
    """Append every legal way of taking the pile for ``seat`` (to act, holding ``h`` cards);
    returns the count."""
    side = seat % 2
    hb = SA.hand + seat * N_KINDS
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
    return nm


@kernel
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
    # a turn on an empty stock (empty_stock="take_pile"): take the pile or end the hand
    no_draw = t[SA.no_draw] != 0 and t[SA.can_take] != 0
    if no_draw:
        nm = _put(mv, nm, MV_END, 0, 0, 0, 0)
    elif t[hb + RED3] > 0:  # red 3s
        h_after = h - 1 + (1 if stock_left(t) > 0 else 0)
        if h_after >= 2 or (h_after == 1 and rl[R.meld_all] == 0 and may_go_out(t, rl, has_can)):
            nm = _put(mv, nm, MV_RED3, 0, 0, 0, 0)
    # the pile's moves' one call site: inlined, as a helper of its own it compiles longer
    nm = _take_moves(t, rl, mv, nm, work, seat, h, opened, has_can)
    if no_draw:
        return nm
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
                    if wild == TWO and rl[R.swap_twos] == 0:
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
        if h - 1 >= 1 or (rl[R.meld_all] == 0 and may_go_out(t, rl, has_can)):
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


# apply_move's parts (_lay_red3, _swap_lent, _take_rest) are each called from one place in it,
# and inlined there: as helpers of their own they compile longer.
@inline
def _lay_red3(t, seat):
    side = seat % 2
    _forget(t, seat, RED3, 1)
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
    if typ == MV_END:
        t[SA.phase] = PH_OVER
        return
    if typ == MV_PASS:
        t[SA.turn] += 1
        t[SA.seat] = next_seat(rl, seat)
        start_turn(t, rl)
        return
    if typ == MV_DISCARD:
        t[hb + m[1]] -= 1
        _forget(t, seat, m[1], 1)
        t[SA.discarded + m[1]] += 1
        t[SA.threw + seat * N_KINDS + m[1]] += 1
        t[SA.pile + t[SA.pile_len]] = m[1]
        t[SA.pile_len] += 1
        if hand_size(t, seat) == 0:
            t[SA.went_out] = seat
            t[SA.phase] = PH_OVER
            return
        t[SA.turn] += 1
        t[SA.seat] = next_seat(rl, seat)
        start_turn(t, rl)
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
            _forget(t, seat, kind, m[2])
        t[hb + TWO] -= m[3]
        t[hb + JOKER] -= m[4]
        _forget(t, seat, TWO, m[3])
        _forget(t, seat, JOKER, m[4])
        t[o + 1] = m[2]
        t[o + 2] = m[3]
        t[o + 3] = m[4]
        if t[SA.phase] == PH_FREED:
            t[SA.phase] = PH_ACT
        _note_melds(t, side)
    elif typ == MV_ADD or typ == MV_TAKE_ADD:
        o = meld_at(m[1], m[2])
        if typ == MV_ADD:
            card = m[3]
            t[hb + card] -= 1
            _forget(t, seat, card, 1)
        else:
            card = t[SA.pile + t[SA.pile_len] - 1]
            t[SA.pile_len] -= 1
        cls = 1 if card == TWO else (2 if card == JOKER else 0)
        t[o + 1 + cls] += 1
        if m[1] != side:  # a card the opponents' meld holds from this side
            t[lent_at(m[1], m[2]) + cls] += 1
        _note_melds(t, m[1])
    elif typ == MV_SWAP:
        o = meld_at(m[1], m[2])
        wild = m[3]
        t[hb + t[o]] -= 1
        _forget(t, seat, t[o], 1)
        t[o + 1] += 1
        t[o + (3 if wild == JOKER else 2)] -= 1
        t[hb + wild] += 1
        _swap_lent(t, side, m[1], m[2], wild)
        t[SA.freed] = wild
        t[SA.phase] = PH_FREED
        _note_melds(t, m[1])
    if typ == MV_TAKE_NEW or typ == MV_TAKE_ADD:
        # the rest of the pile to the hand (one call site: inlined); it touches no meld, so
        # after the meld's bookkeeping as before it
        _take_rest(t, seat)
    if typ != MV_RED3 and typ != MV_SWAP:
        t[SA.can_take] = 0
    if typ == MV_SWAP:
        t[SA.can_take] = 0
    if hand_size(t, seat) == 0:
        t[SA.went_out] = seat
        t[SA.phase] = PH_OVER


@helper
def _forget(t, seat, kind, n):
    """``seat`` played ``n`` cards of ``kind``: those it took with the pile go first."""
    o = SA.took + seat * N_KINDS + kind
    t[o] = t[o] - n if t[o] > n else 0


@inline
def _swap_lent(t, side, ms, sl, wild):
    """Keep ``lent`` after ``side`` swapped ``wild`` out of meld (ms, sl) for a natural: the
    natural is the swapping side's; the wild taken back is one the swapping side laid there
    if it laid one, else one of the meld's side."""
    lo = lent_at(ms, sl)
    w = lo + (2 if wild == JOKER else 1)
    o = meld_at(ms, sl)
    if ms != side:
        t[lo] += 1
        if t[w] > 0:
            t[w] -= 1
    elif t[o + (3 if wild == JOKER else 2)] < t[w]:  # the meld's side had none of that wild left
        t[w] -= 1


@inline
def _take_rest(t, seat):
    """The rest of the pile goes to the hand of the player who took it."""
    side = seat % 2
    n = t[SA.pile_len]
    for i in range(n):
        t[hand_at(seat, t[SA.pile + i])] += 1
        t[SA.took + seat * N_KINDS + t[SA.pile + i]] += 1
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
        t[SA.score + side] = score_side(recs, SLOTS, t[SA.red3 + side], left, out, rl[R.points:R.points + N_KINDS],
                                        rl[R.going_out_bonus], rl[R.going_out_needs_canasta])
    if rl[R.added_cards] != 0:
        for side in range(2):
            # the points the other side added to this side's melds change hands
            moved = lent_points(t, rl, side)
            t[SA.score + side] += -moved if side_has_canasta(t, side) else moved
            t[SA.score + 1 - side] += moved if side_has_canasta(t, 1 - side) else -moved


@inline
def lent_points(t, rl, side):
    """Card points of the cards the other side added to ``side``'s melds (called from
    score_hand only: inlined there)."""
    p = 0
    for sl in range(SLOTS):
        lo = lent_at(side, sl)
        kind = t[meld_at(side, sl)]
        if kind != WILDS_ONLY:
            p += t[lo] * rl[R.points + kind]
        p += t[lo + 1] * rl[R.points + TWO] + t[lo + 2] * rl[R.points + JOKER]
    return p


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
            if not meld_is_legal(t[o], n, tw, jk, rl[R.wild_code], rl[R.wild_melds]) or slot_of(t[o]) != sl:
                viol[V_MELD] += 1
            lo = lent_at(side, sl)
            if not (0 <= t[lo] <= n and 0 <= t[lo + 1] <= tw and 0 <= t[lo + 2] <= jk):
                viol[V_MELD] += 1  # more cards of the other side in the meld than it holds
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
    pts = rl[R.points:R.points + N_KINDS]
    adder = rl[R.added_cards] != 0
    for side in range(2):
        canastas = 0
        table = 0
        bonus = 0
        for s2 in range(2):
            if adder or s2 == side:
                for sl in range(SLOTS):
                    o = meld_at(s2, sl)
                    lo = lent_at(s2, sl)
                    # this side's cards in meld (s2, sl): with added_cards="adder", its own
                    # cards in its melds and the cards it added to the other side's
                    n, tw, jk = t[o + 1], t[o + 2], t[o + 3]
                    if adder and s2 == side:
                        n, tw, jk = n - t[lo], tw - t[lo + 1], jk - t[lo + 2]
                    elif adder:
                        n, tw, jk = t[lo], t[lo + 1], t[lo + 2]
                    if t[o] != WILDS_ONLY:
                        table += n * pts[t[o]]
                    table += tw * pts[TWO] + jk * pts[JOKER]
        for sl in range(SLOTS):
            o = meld_at(side, sl)
            n, tw, jk = t[o + 1], t[o + 2], t[o + 3]
            if n + tw + jk == 0:
                continue
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
        if wo >= 0 and wo % 2 == side and (rl[R.going_out_needs_canasta] == 0 or canastas > 0):
            s += rl[R.going_out_bonus]
        if s != t[SA.score + side]:
            viol[V_SCORE] += 1
    wo = t[SA.went_out]
    if wo >= 0 and t[SA.turn] < SEATS:
        viol[V_FIRST_OUT] += 1


