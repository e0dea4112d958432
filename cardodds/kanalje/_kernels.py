"""Compiled Kanalje: dealing, trick play, the three built-in players, chunk kernels.

Everything here works on int64 scalars and arrays, no validation (the public functions in
``analysis.py`` check their input). A hand is a 52-bit mask of card codes
(``rank * 4 + suit``), so "cards of the led suit" is one AND and the lowest card of a
suit is one count-trailing-zeros.

The state of a deal in progress is one int64 array, the *table* (layout ``T_*`` below). Trick
play (:func:`play_card`, :func:`play_out`) only reads the table, so the same code plays
the three-player deal and, later, the second phase of the two-player game (``T_NP = 2``,
13-card hands, a trump drawn from the first phase's tricks), and a look-ahead player can
copy the table and play it out.

A policy is ``policy(state, legal, seat, view) -> card`` (see ``policies.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from .._random import bounded, next_u64

# ---- table layout ------------------------------------------------------------------------
T_HAND = 0  # 4 slots: hand mask of seats 0..3
T_NP = 4  # number of players at the table
T_TRUMP = 5  # trump suit, -1 for none
T_LEADER = 6  # seat that led the current trick
T_TLEN = 7  # cards in the current trick
T_TRICK = 8  # 4 slots: cards of the current trick in playing order
T_PLAYED = 12  # mask of every card played so far (finished tricks and the current one)
T_VOID = 13  # 4 slots: suits (bit s) each seat has shown void in by not following
T_TRICKS = 17  # 4 slots: tricks taken
T_PEN = 21  # 4 slots: jack penalties paid
T_JTAKER = 25  # 4 slots by suit: seat that took the jack, -1 (not taken), -2 (out of play)
T_JLEAD = 29  # 4 slots by suit: 1 when the jack's taker had led that trick
T_TURNED = 33  # the face-up turned card (seen by all), -1 for none
T_NTRICK = 34  # tricks finished
T_LASTWIN = 35  # winner of the last finished trick
T_KNOWN = 36  # 4 slots: cards everybody knows to be in that seat's hand (two-player game)
T_TJRULE = 40  # turned_jack rule: 0 dead, 1 to the last trick's winner
T_PENS = 41  # 4 slots: penalty of the jack of each suit
T_TP = 45  # points per trick
T_BAD = 46  # broken-invariant count (checked play only)
T_CHECK = 47  # 1: check every card played is legal and present
# two-player game (RULES.md 2.2): phase 1 state
T_PHASE = 48  # 1 while phase 1 of the two-player game is played, else 0
T_FACEUP = 49  # the face-up stock card, -1 for none
T_SPOS = 50  # index in the stock of the face-up card (26: stock empty)
T_P1J = 51  # 1: jacks in phase-1 tricks cost their winner
T_TRUMPCARD = 52  # the phase-1 trick card drawn for the phase-2 trump (dead), -1 for none
T_FUTAKER = 53  # 4 slots by suit: seat that took that jack face up from the stock, -1
T_P1WINS = 57  # 2 slots: phase-1 tricks won
T_FUMASK = 59  # cards that were face up in phase 1
T_FULEAD = 60  # of those, the ones the trick's leader won
T_P1PLAYED = 61  # cards of the phase-1 tricks
T_P1JACKS = 62  # jacks that fell in phase-1 tricks
T_STOCK = 63  # 26 slots: the stock from its top
T_TRUMPK = 89  # preset draw (0..25) for the phase-2 trump card, -1: draw it when phase 2 starts
T_SIZE = 90

# ---- out layout of the deal kernel (int64 counts) -----------------------------------------
O_DEALS = 0
O_TAKER = 1  # [jack suit 4][seat 0..2, 3 = out of play]
O_HOLDER_TAKES = 17  # [4]
O_LEADER_TAKES = 21  # [4]
O_INPLAY = 25  # [4]
O_SEAT = 29  # [seat 3][score, score^2, penalty, penalty^2, tricks, tricks^2]
O_TOTAL = 47  # deal total, its square
O_PENDIST = 49  # [seat 3][penalty 0..10]
PEN_BINS = 11
O_SCOREDIST = 82  # [seat 3][score + SCORE_OFFSET, 0..27]
SCORE_OFFSET = 10
SCORE_BINS = 28
O_HOLD = 166  # [jack suit 4][trump? 2][holder's length in the suit 0..13]: deals
O_HOLD_TAKES = 278  # same: the holder took it
O_BAD = 390
O_SIZE = 391
# two-player extras, after the common layout
O2_FU_N = 391  # [card 52]: phase-1 tricks played with that card face up
O2_FU_LEAD = 443  # [card 52]: ... and won (so the card taken) by the trick's leader
O2_FUJ_N = 495  # [jack suit 4]: the jack was taken face up
O2_FUJ_PAY = 499  # [4]: ... and its taker ended up paying it
O2_P1JACK = 503  # [4]: the jack fell in a phase-1 trick
O2_PHASE1_TRICKS = 507  # [seat 2]: phase-1 tricks won, and squares
O2_SIZE = 511

# ---- out layout of the paired match kernel ------------------------------------------------
M_DEALS, M_SUM, M_SUMSQ, M_A, M_B, M_PLUS, M_MINUS, M_BAD, M_SIZE = 0, 1, 2, 3, 4, 5, 6, 7, 8

# ---- out layout of the game kernel --------------------------------------------------------
MAX_DEALS = 200  # a game still open after this many deals is counted as unfinished
G_GAMES, G_WIN, G_UNFINISHED, G_DEALS, G_DEALSQ, G_HIST, G_BAD = 0, 1, 4, 5, 6, 7, 7 + MAX_DEALS + 1
G_SIZE = G_BAD + 1

# ---- policies -----------------------------------------------------------------------------
P_RANDOM, P_HEURISTIC, P_LOOKAHEAD, P_USER = 0, 1, 2, 3

JACK_RANK = 9
FULL = (1 << 52) - 1
JACKS = sum(1 << (JACK_RANK * 4 + s) for s in range(4))
SUIT_MASK = np.array([sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)], dtype=np.int64)


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@njit(inline="always", cache=True)
def popcount(x):
    return np.int64(_ctpop(np.int64(x)))


@njit(inline="always", cache=True)
def lowest(x):
    """Lowest card code in a non-empty mask (the lowest rank, ties to clubs)."""
    return np.int64(trailing_zeros(np.int64(x)))


@njit(inline="always", cache=True)
def highest(x):
    return np.int64(63 - leading_zeros(np.int64(x)))


@njit(inline="always", cache=True)
def bit(c):
    return np.int64(1) << c


@njit(inline="always", cache=True)
def above(c):
    """Cards of ``c``'s suit that outrank it."""
    return SUIT_MASK[c & 3] & ~((np.int64(2) << c) - 1)


@njit(inline="always", cache=True)
def below(c):
    return SUIT_MASK[c & 3] & ((np.int64(1) << c) - 1)


def _host_has_bmi2() -> bool:
    try:
        import llvmlite.binding as ll

        return bool(ll.get_host_cpu_features().get("bmi2", False))
    except Exception:  # pragma: no cover - feature query unavailable: take the portable path
        return False


#: BMI2's pdep deposits a bit at the r-th set bit of a mask in one instruction; without
#: it the r-th card is found by clearing the lowest bit r times.
HAS_BMI2 = _host_has_bmi2()


@intrinsic
def _pdep(typingctx, src, mask):
    if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, [args[0], args[1]])

    return types.int64(types.int64, types.int64), codegen


if HAS_BMI2:

    @njit(inline="always", cache=True)
    def nth_card(mask, r):
        """The ``r``-th lowest card (from 0) of a mask."""
        return lowest(_pdep(np.int64(1) << r, mask))

else:  # pragma: no cover - CPUs without BMI2

    @njit(inline="always", cache=True)
    def nth_card(mask, r):
        """The ``r``-th lowest card (from 0) of a mask."""
        for _ in range(r):
            mask &= mask - 1
        return lowest(mask)


@njit(inline="always", cache=True)
def beats(c, w, trump):
    """Does card ``c`` take a trick that ``w`` is winning (``w`` is of the led suit or trump)?"""
    if (c & 3) == (w & 3):
        return c > w
    return (c & 3) == trump


@njit(inline="always", cache=True)
def legal_cards(t, seat):
    """Follow suit if able, else anything (trumping allowed, never forced)."""
    hand = t[T_HAND + seat]
    if t[T_TLEN] == 0:
        return hand
    f = hand & SUIT_MASK[t[T_TRICK] & 3]
    return f if f != 0 else hand


@njit(inline="always", cache=True)
def seat_after(seat, k, n):
    """The seat ``k`` places clockwise after ``seat`` (0 <= k < n); no division, which
    would cost more than the rest of a card play."""
    s = seat + k
    return s - n if s >= n else s


@njit(inline="always", cache=True)
def to_play(t):
    return seat_after(t[T_LEADER], t[T_TLEN], t[T_NP])


@njit(inline="always", cache=True)
def trick_winner_index(t, n, trump):
    """Index (in playing order) of the card that takes the trick's first ``n`` cards."""
    best = t[T_TRICK]
    wi = 0
    for i in range(1, n):
        if beats(t[T_TRICK + i], best, trump):
            best = t[T_TRICK + i]
            wi = i
    return wi


@njit(cache=True, nogil=True)
def new_table(t, n, trump, leader, turned, tjrule, pens, tp, check):
    t[:] = 0
    t[T_NP] = n
    t[T_TRUMP] = trump
    t[T_LEADER] = leader
    t[T_TURNED] = turned
    t[T_LASTWIN] = -1
    for s in range(4):
        t[T_JTAKER + s] = -1
        t[T_PENS + s] = pens[s]
    if turned >= 0 and (turned >> 2) == JACK_RANK:
        t[T_JTAKER + (turned & 3)] = -2
    t[T_TJRULE] = tjrule
    t[T_TP] = tp
    t[T_CHECK] = check


@njit(inline="always", cache=True)
def _take_jack(t, s, seat, led):
    t[T_PEN + seat] += t[T_PENS + s]
    t[T_JTAKER + s] = seat
    t[T_JLEAD + s] = 1 if led else 0


@njit(inline="always", cache=True)
def play_card(t, seat, c):
    """``seat`` plays ``c``; a full trick is taken at once. Returns True when the deal is over."""
    n = t[T_NP]
    b = bit(c)
    if t[T_CHECK] != 0:
        if seat != to_play(t) or (legal_cards(t, seat) & b) == 0 or (t[T_PLAYED] & b) != 0:
            t[T_BAD] += 1
    tlen = t[T_TLEN]
    if tlen > 0 and (c & 3) != (t[T_TRICK] & 3):
        t[T_VOID + seat] |= np.int64(1) << (t[T_TRICK] & 3)
    t[T_HAND + seat] &= ~b
    t[T_PLAYED] |= b
    t[T_TRICK + tlen] = c
    tlen += 1
    if tlen < n:
        t[T_TLEN] = tlen
        return False
    leader = t[T_LEADER]
    wi = trick_winner_index(t, n, t[T_TRUMP])
    w = seat_after(leader, wi, n)
    t[T_TRICKS + w] += 1
    for i in range(n):
        x = t[T_TRICK + i]
        if (x >> 2) == JACK_RANK:  # rare: four jacks in 17 tricks
            _take_jack(t, x & 3, w, w == leader)
    t[T_LEADER] = w
    t[T_TLEN] = 0
    t[T_NTRICK] += 1
    t[T_LASTWIN] = w
    if (t[T_HAND] | t[T_HAND + 1] | t[T_HAND + 2] | t[T_HAND + 3]) != 0:  # unused seats hold 0
        return False
    turned = t[T_TURNED]
    if t[T_TJRULE] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        _take_jack(t, turned & 3, w, w == leader)
    return True


@njit(inline="always", cache=True)
def score(t, seat):
    return t[T_TRICKS + seat] * t[T_TP] - t[T_PEN + seat]


# ---- the heuristic player -----------------------------------------------------------------
@njit(inline="always", cache=True)
def _unseen(t, seat):
    """Cards the seat cannot see: in other players' hands (the turned card is public)."""
    x = FULL & ~(t[T_HAND + seat] | t[T_PLAYED])
    if t[T_TURNED] >= 0:
        x &= ~bit(t[T_TURNED])
    return x


@njit(inline="always", cache=True)
def _non_jack_low(mask):
    nj = mask & ~JACKS
    return lowest(nj) if nj != 0 else lowest(mask)


@njit(inline="always", cache=True)
def _non_jack_high(mask):
    nj = mask & ~JACKS
    return highest(nj) if nj != 0 else highest(mask)


@njit(inline="always", cache=True)
def _heuristic_lead(t, seat, hand, unseen, trump):
    n = t[T_NP]
    # Everybody else shown void in a suit: a lead there is taken by nobody but me.
    all_void = np.int64(15)
    for k in range(1, n):
        all_void &= t[T_VOID + (seat + k) % n]
    # 1. A jack all of whose unseen suit-mates outrank it: whoever follows must take it.
    best_pen = -1
    jack_lead = -1
    for s in range(4):
        j = JACK_RANK * 4 + s
        if (hand & bit(j)) != 0 and s != trump and ((all_void >> s) & 1) == 0:
            if (unseen & below(j)) == 0 and (unseen & above(j)) != 0 and t[T_PENS + s] > best_pen:
                best_pen = t[T_PENS + s]
                jack_lead = j
    if jack_lead >= 0:
        return jack_lead
    # 2. A cheap safe trick: the best card left in a suit nobody has shown void in, when
    #    that suit's jack is not unseen (its holder would shed it under the winner).
    best = -1
    best_len = -1
    nonjack = hand & ~JACKS
    any_void = np.int64(0)
    for k in range(1, n):
        any_void |= t[T_VOID + (seat + k) % n]
    for s in range(4):
        mine = nonjack & SUIT_MASK[s]
        if mine == 0 or ((any_void >> s) & 1) != 0:
            continue
        top = highest(mine)
        others = unseen & SUIT_MASK[s]
        if others == 0 or (others & above(top)) != 0:
            continue
        if (unseen & bit(JACK_RANK * 4 + s)) != 0:
            continue
        if popcount(others) > best_len:
            best_len = popcount(others)
            best = top
    if best >= 0:
        return best
    # 3. Otherwise give the lead away: my lowest card of a side suit, else lowest trump,
    #    else the cheapest jack.
    side = nonjack
    if trump >= 0:
        side &= ~SUIT_MASK[trump]
    if side != 0:
        return lowest(side)
    if nonjack != 0:
        return lowest(nonjack)
    cheapest = -1
    for s in range(4):
        j = JACK_RANK * 4 + s
        if (hand & bit(j)) != 0 and (cheapest < 0 or t[T_PENS + s] < t[T_PENS + (cheapest & 3)]):
            cheapest = j
    return cheapest


@njit(inline="always", cache=True)
def heuristic_choose(t, seat, legal):
    """The documented rule-based player (see ``policies.py``)."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    n = t[T_NP]
    trump = t[T_TRUMP]
    hand = t[T_HAND + seat]
    tlen = t[T_TLEN]
    unseen = _unseen(t, seat)
    if tlen == 0:
        return _heuristic_lead(t, seat, hand, unseen, trump)
    led = t[T_TRICK] & 3
    wi = trick_winner_index(t, tlen, trump)
    best = t[T_TRICK + wi]
    tpen = 0
    for i in range(tlen):
        x = t[T_TRICK + i]
        if (x >> 2) == JACK_RANK:
            tpen += t[T_PENS + (x & 3)]
    last = tlen == n - 1
    gain = t[T_TP] - tpen  # what taking the trick as it stands is worth
    follow = legal & SUIT_MASK[led]
    if follow != 0:
        if (best & 3) == led:
            win = follow & above(best)
        else:
            win = np.int64(0)
        lose = follow & ~win
        jl = bit(JACK_RANK * 4 + led)
        # A card under the current best can never take the trick: a losing jack is shed.
        if (lose & jl) != 0:
            return JACK_RANK * 4 + led
        if last:
            wnj = win & ~JACKS
            if wnj != 0 and gain > 0:
                return lowest(wnj)  # a cheap safe trick
            if lose != 0:
                return highest(lose)
            return _non_jack_low(win)
        if lose != 0:
            return highest(lose)
        if tpen > 0 or (unseen & jl) != 0:
            # hope a later player overtakes; a low winner also stays under an unseen jack,
            # which its holder then cannot shed here
            return _non_jack_low(win)
        return _non_jack_high(win)
    # Void in the led suit.
    tmask = SUIT_MASK[trump] if trump >= 0 else np.int64(0)
    jacks = hand & JACKS
    side_jacks = jacks & ~tmask
    if side_jacks != 0:
        # An off-suit card never takes the trick: shed the dearest jack.
        bj = -1
        for s in range(4):
            if (side_jacks & bit(JACK_RANK * 4 + s)) != 0 and (bj < 0 or t[T_PENS + s] > t[T_PENS + (bj & 3)]):
                bj = JACK_RANK * 4 + s
        return bj
    trumps = hand & tmask
    if trumps != 0:
        tj = JACK_RANK * 4 + trump
        best_is_trump = (best & 3) == trump
        if (trumps & bit(tj)) != 0 and best_is_trump and best > tj:
            return tj  # under a higher trump the trump jack is safe to shed
        wt = trumps & ~JACKS
        if best_is_trump:
            wt &= above(best)
        if wt != 0 and gain > 0:
            if last:
                return lowest(wt)
            # Not last: trump only with a trump nobody can beat, when no later player has
            # shown a void that lets them throw a jack on it.
            later_void = np.int64(0)
            for k in range(1, n - tlen):
                later_void |= t[T_VOID + (seat + k) % n]
            topt = highest(wt)
            led_jack_out = (unseen & bit(JACK_RANK * 4 + led)) == 0
            if (unseen & above(topt)) == 0 and ((later_void >> led) & 1) == 0 and led_jack_out:
                return topt
    side = hand & ~tmask & ~JACKS
    if side != 0:
        return highest(side)  # throw the card most likely to win a later trick
    if trumps != 0:
        if (best & 3) == trump:
            under = trumps & below(best)
            if under != 0:
                return highest(under)
        return _non_jack_low(trumps)
    return lowest(hand)


@njit(cache=True, nogil=True)
def play_out_heuristic(t):
    """Every seat plays the heuristic until the deal ends."""
    while True:
        seat = to_play(t)
        c = heuristic_choose(t, seat, legal_cards(t, seat))
        if play_card(t, seat, c):
            return


# ---- the random player --------------------------------------------------------------------
@njit(inline="always", cache=True)
def random_choose(state, legal):
    k = popcount(legal)
    if k == 1:
        return lowest(legal)
    return nth_card(legal, bounded(state, k))


# ---- the look-ahead player ----------------------------------------------------------------
@njit(cache=True, nogil=True)
def sample_world(state, t, seat, w):
    """Copy ``t`` into ``w`` with the other hands redealt at random, consistently with what
    ``seat`` has seen: hand sizes, cards known to be in a hand, and shown voids."""
    w[:] = t
    n = t[T_NP]
    pool = np.int64(0)
    for k in range(1, n):
        o = (seat + k) % n
        pool |= t[T_HAND + o]
    if n == 2:
        return
    # Three players: two other hands a, b.
    a = (seat + 1) % n
    b = (seat + 2) % n
    ka = t[T_KNOWN + a] & pool
    kb = t[T_KNOWN + b] & pool
    free = pool & ~ka & ~kb
    va = np.int64(0)
    vb = np.int64(0)
    for s in range(4):
        if (t[T_VOID + a] >> s) & 1:
            va |= SUIT_MASK[s]
        if (t[T_VOID + b] >> s) & 1:
            vb |= SUIT_MASK[s]
    to_a = ka | (free & vb & ~va)
    to_b = kb | (free & va & ~vb)
    free &= ~(to_a | to_b)
    need_a = popcount(t[T_HAND + a]) - popcount(to_a)
    left = popcount(free)
    # Selection sampling: each free card goes to a with probability need/left.
    x = free
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if need_a > 0 and bounded(state, left) < need_a:
            to_a |= bit(c)
            need_a -= 1
        else:
            to_b |= bit(c)
        left -= 1
    w[T_HAND + a] = to_a
    w[T_HAND + b] = to_b


@njit(cache=True)
def _cards_of(mask):
    """The cards of a mask, lowest first."""
    out = np.empty(popcount(mask), dtype=np.int64)
    x = mask
    for i in range(out.shape[0]):
        out[i] = lowest(x)
        x &= x - 1
    return out


@njit(cache=True, nogil=True)
def lookahead_choose(state, t, seat, legal, samples):
    """Sample the unseen cards ``samples`` times; in each world play every legal card and
    then the heuristic for everybody; pick the best average final score."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    cands = _cards_of(legal)
    k = cands.shape[0]
    totals = np.zeros(k, dtype=np.int64)
    w = np.empty(T_SIZE, dtype=np.int64)
    w2 = np.empty(T_SIZE, dtype=np.int64)
    for _ in range(samples):
        sample_world(state, t, seat, w)
        w[T_CHECK] = 0
        for i in range(k):
            w2[:] = w
            if not play_card(w2, seat, cands[i]):
                play_out_heuristic(w2)
            totals[i] += score(w2, seat)
    return cands[np.argmax(totals)]  # ties to the lowest card, as argmax takes the first


@njit(cache=True, nogil=True)
def no_user_policy(state, legal, seat, view):
    """Stands in for a user's policy in the built-in kernels (never called there)."""
    return lowest(legal)


USER_POLICY = no_user_policy


@njit(cache=True, nogil=True)
def user_view(t, seat):
    """The table as ``seat`` may see it: the other hands are hidden (zeroed)."""
    v = t.copy()
    for s in range(t[T_NP]):
        if s != seat:
            v[T_HAND + s] = 0
    return v


@njit(inline="always", cache=True)
def choose(state, t, seat, code, samples):
    legal = legal_cards(t, seat)
    if code == P_RANDOM:
        return random_choose(state, legal)
    if code == P_HEURISTIC:
        return heuristic_choose(t, seat, legal)
    if code == P_LOOKAHEAD:
        return lookahead_choose(state, t, seat, legal, samples)
    c = USER_POLICY(state, legal, seat, user_view(t, seat))
    if c < 0 or c > 51 or (legal & bit(c)) == 0:
        # An illegal answer is counted (checked runs report it) and replaced, so a buggy
        # policy cannot stall the deal.
        t[T_BAD] += 1
        return lowest(legal)
    return c


@njit(cache=True, nogil=True)
def play_out_random3(state, t):
    """Three random players from the start of a deal to its end, in a tight loop.

    The same deal, the same random draws and the same table at the end as :func:`play_out`
    with three random policies, except that shown voids are not recorded and plays are
    not checked (it is used only in unchecked runs; the tests compare both). Hands are
    indexed by seat rather than chosen by branches, which the seat order makes unpredictable."""
    trump = t[T_TRUMP]
    leader = t[T_LEADER]
    played = t[T_PLAYED]
    w = leader
    trick_leader = leader
    while (t[T_HAND] | t[T_HAND + 1] | t[T_HAND + 2]) != 0:
        trick_leader = leader
        c = random_choose(state, t[T_HAND + leader])
        t[T_HAND + leader] ^= bit(c)
        t[T_TRICK] = c
        led_mask = SUIT_MASK[c & 3]
        best = c
        w = leader
        seat = leader
        for j in range(1, 3):
            seat = seat + 1 if seat < 2 else 0
            hand = t[T_HAND + seat]
            f = hand & led_mask
            c = random_choose(state, f if f != 0 else hand)
            t[T_HAND + seat] = hand ^ bit(c)
            t[T_TRICK + j] = c
            if beats(c, best, trump):
                best = c
                w = seat
        played |= bit(t[T_TRICK]) | bit(t[T_TRICK + 1]) | bit(t[T_TRICK + 2])
        t[T_TRICKS + w] += 1
        for j in range(3):
            x = t[T_TRICK + j]
            if (x >> 2) == JACK_RANK:
                _take_jack(t, x & 3, w, w == leader)
        t[T_NTRICK] += 1
        leader = w
    t[T_PLAYED] = played
    t[T_LEADER] = leader
    t[T_LASTWIN] = w
    turned = t[T_TURNED]
    if t[T_TJRULE] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        _take_jack(t, turned & 3, w, w == trick_leader)


@njit(cache=True, nogil=True)
def play_out(state, t, pol, samples):
    """Play the deal to its end, seat ``s`` choosing by policy code ``pol[s]``."""
    if (t[T_CHECK] == 0 and t[T_NP] == 3 and t[T_TLEN] == 0 and pol[0] == P_RANDOM and pol[1] == P_RANDOM
            and pol[2] == P_RANDOM):
        play_out_random3(state, t)
        return
    if pol[0] == P_HEURISTIC and pol[1] == P_HEURISTIC and (t[T_NP] == 2 or pol[2] == P_HEURISTIC):
        play_out_heuristic(t)  # the heuristic draws no random numbers: the same play, a leaner loop
        return
    while True:
        seat = to_play(t)
        if play_card(t, seat, choose(state, t, seat, pol[seat], samples)):
            return


@njit(cache=True, nogil=True)
def play_traced(state, t, pol, samples, rec):
    """Play ``t`` to its end with built-in policies, writing each trick as a row of ``rec``:
    leader, the cards in seat order from the leader (4 slots), winner."""
    i = 0
    while True:
        seat = to_play(t)
        if t[T_TLEN] == 0:
            rec[i, 0] = seat
        c = choose(state, t, seat, pol[seat], samples)
        rec[i, 1 + t[T_TLEN]] = c
        done = play_card(t, seat, c)
        if t[T_TLEN] == 0:
            rec[i, 5] = t[T_LASTWIN]
            i += 1
        if done:
            return


# ---- dealing ------------------------------------------------------------------------------
@njit(inline="always", cache=True)
def _bounded32(x, bound):
    """Lemire's multiply on a 32-bit draw ``x``: ``(value, ok)``; ``ok`` is False on the
    rare rejection (probability < bound / 2**32), when the caller draws again."""
    m = x * np.uint64(bound)
    low = m & np.uint64(0xFFFFFFFF)
    if low < np.uint64(bound):
        threshold = (np.uint64(0x100000000) - np.uint64(bound)) % np.uint64(bound)
        if low < threshold:
            return np.int64(0), False
    return np.int64(m >> np.uint64(32)), True


@njit(inline="always", cache=True)
def shuffle(state, a, m):
    """Shuffle the first ``m`` entries of ``a`` (Fisher-Yates), two exact bounded draws
    from each 64-bit word."""
    i = m - 1
    while i > 0:
        word = next_u64(state)
        for half in range(2):
            x = word >> np.uint64(32) if half == 0 else word & np.uint64(0xFFFFFFFF)
            j, ok = _bounded32(x, i + 1)
            if not ok:
                break  # a rejected draw discards the rest of its word
            tmp = a[i]
            a[i] = a[j]
            a[j] = tmp
            i -= 1
            if i == 0:
                break


@njit(cache=True, nogil=True)
def deal3(state, t, deck, nfree, fixed_seat, fixed_hand, fixed_turned, hand_size):
    """Deal the ``nfree`` cards of ``deck`` to the seats (all but ``fixed_seat``, which holds
    ``fixed_hand``); the card left over is turned unless ``fixed_turned >= 0``.
    Returns the turned card."""
    shuffle(state, deck, nfree)
    k = 0
    for s in range(3):
        if s == fixed_seat:
            t[T_HAND + s] = fixed_hand
            continue
        h = np.int64(0)
        for _ in range(hand_size):
            h |= bit(deck[k])
            k += 1
        t[T_HAND + s] = h
    if fixed_turned >= 0:
        return fixed_turned
    return deck[k]


@njit(cache=True, nogil=True)
def free_cards(fixed_hand, fixed_turned):
    deck = np.empty(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if (fixed_hand & bit(c)) == 0 and c != fixed_turned:
            deck[m] = c
            m += 1
    return deck, m


@njit(cache=True, nogil=True)
def check_deal_end(t, turned, tp, pens, hand_size):
    """Broken invariants at the end of a three-player deal: 0 when all is well."""
    bad = 0
    total_cards = t[T_PLAYED]
    if turned >= 0:
        if (total_cards & bit(turned)) != 0:
            bad += 1
        total_cards |= bit(turned)
    if total_cards != FULL or popcount(t[T_PLAYED]) != 3 * hand_size:
        bad += 1
    total = 0
    tricks = 0
    for s in range(3):
        if t[T_HAND + s] != 0:
            bad += 1
        total += score(t, s)
        tricks += t[T_TRICKS + s]
    expect = hand_size * tp - (pens[0] + pens[1] + pens[2] + pens[3])
    if (turned >> 2) == JACK_RANK and t[T_TJRULE] == 0:
        expect += pens[turned & 3]
    if tricks != hand_size or total != expect:
        bad += 1
    return bad + t[T_BAD]


@njit(cache=True, nogil=True)
def start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_turned, leader, check, hand0):
    """Deal a three-player deal into a fresh table ``t`` (``hand0`` keeps the dealt hands);
    returns the turned card, whose suit is trump."""
    turned = deal3(state, t, deck, nfree, fixed_seat, fixed_hand, fixed_turned, rules[8])
    for s in range(3):
        hand0[s] = t[T_HAND + s]
    new_table(t, 3, turned & 3, leader, turned, rules[1], rules[4:8], rules[3], check)
    for s in range(3):
        t[T_HAND + s] = hand0[s]
    return turned


# ---- chunk kernels ------------------------------------------------------------------------
@njit(cache=True, inline="always")
def _jack_holders(hand0, players, held):
    """``held[s]``: the seat dealt the jack of suit ``s``, or -2 when no seat was."""
    for s in range(4):
        j = bit(JACK_RANK * 4 + s)
        held[s] = -2
        for p in range(players):
            if (hand0[p] & j) != 0:
                held[s] = p


@njit(cache=True, inline="always")
def _record_seats(out, t, players):
    """Each seat's score, penalty and tricks (sums and squares) and their distributions;
    returns the deal's total score."""
    total = 0
    for p in range(players):
        sc = score(t, p)
        pen = t[T_PEN + p]
        tr = t[T_TRICKS + p]
        total += sc
        o = O_SEAT + 6 * p
        out[o] += sc
        out[o + 1] += sc * sc
        out[o + 2] += pen
        out[o + 3] += pen * pen
        out[o + 4] += tr
        out[o + 5] += tr * tr
        out[O_PENDIST + PEN_BINS * p + min(pen, PEN_BINS - 1)] += 1
        b = min(max(sc + SCORE_OFFSET, 0), SCORE_BINS - 1)
        out[O_SCOREDIST + SCORE_BINS * p + b] += 1
    out[O_TOTAL] += total
    out[O_TOTAL + 1] += total * total
    return total


@njit(cache=True, inline="always")
def _record_jack(out, t, s, held, hand0, trump_suit):
    """Who took the jack of suit ``s``: by seat, by its holder (by the holder's length in
    the suit and whether it is trump), by the trick's leader; out of play in bin 3."""
    taker = t[T_JTAKER + s]
    if taker < 0:
        out[O_TAKER + 4 * s + 3] += 1
        return
    out[O_TAKER + 4 * s + taker] += 1
    out[O_INPLAY + s] += 1
    out[O_LEADER_TAKES + s] += t[T_JLEAD + s]
    h = held[s]
    if h >= 0:
        length = popcount(hand0[h] & SUIT_MASK[s])
        o = 28 * s + 14 * (1 if s == trump_suit else 0) + length
        out[O_HOLD + o] += 1
        if taker == h:
            out[O_HOLDER_TAKES + s] += 1
            out[O_HOLD_TAKES + o] += 1


@njit(cache=True, nogil=True)
def deals_kernel(state, n, out, rules, pol, samples, fixed_seat, fixed_hand, fixed_turned, check):
    """``n`` deals with seat 0 leading: jack takers, scores and their distributions."""
    t = np.empty(T_SIZE, dtype=np.int64)
    deck, nfree = free_cards(fixed_hand, fixed_turned)
    held = np.empty(4, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    tp = rules[3]
    pens = rules[4:8]
    hand_size = rules[8]
    for _ in range(n):
        turned = start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_turned, 0, check, hand0)
        _jack_holders(hand0, 3, held)
        play_out(state, t, pol, samples)
        out[O_DEALS] += 1
        _record_seats(out, t, 3)
        for s in range(4):
            _record_jack(out, t, s, held, hand0, turned & 3)
        if check != 0:
            out[O_BAD] += check_deal_end(t, turned, tp, pens, hand_size)


@njit(cache=True, nogil=True)
def match_kernel(state, n, out, rules, pol_a, pol_b, samples, check):
    """Paired strength match on the same deals: for each seat r, the deal is played with
    policy A in seat r and B elsewhere, and with B everywhere; out sums A's score minus
    B's score in seat r over the three seats (one figure per deal)."""
    t = np.empty(T_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(3, dtype=np.int64)
    pol = np.empty(3, dtype=np.int64)
    base = np.empty(3, dtype=np.int64)
    tp = rules[3]
    pens = rules[4:8]
    hand_size = rules[8]
    for _ in range(n):
        turned = start_deal(state, t, deck, 52, rules, -1, 0, -1, 0, check, hand0)
        for s in range(3):
            pol[s] = pol_b
        play_out(state, t, pol, samples)
        if check != 0:
            out[M_BAD] += check_deal_end(t, turned, tp, pens, hand_size)
        for s in range(3):
            base[s] = score(t, s)
        d = 0
        for r in range(3):
            for s in range(3):
                pol[s] = pol_a if s == r else pol_b
            new_table(t, 3, turned & 3, 0, turned, rules[1], pens, tp, check)
            for s in range(3):
                t[T_HAND + s] = hand0[s]
            play_out(state, t, pol, samples)
            if check != 0:
                out[M_BAD] += check_deal_end(t, turned, tp, pens, hand_size)
            a = score(t, r)
            out[M_A] += a
            out[M_B] += base[r]
            d += a - base[r]
        out[M_DEALS] += 1
        out[M_SUM] += d
        out[M_SUMSQ] += d * d
        if d > 0:
            out[M_PLUS] += 1
        elif d < 0:
            out[M_MINUS] += 1


@njit(cache=True, nogil=True)
def game_winner(totals, n, target):
    """The seat that has won the game after a deal, or -1 to play on: somebody must have
    reached ``target`` and the highest total must be alone at the top."""
    top = totals[0]
    for s in range(1, n):
        if totals[s] > top:
            top = totals[s]
    if top < target:
        return -1
    w = -1
    for s in range(n):
        if totals[s] == top:
            if w >= 0:
                return -1
            w = s
    return w


@njit(cache=True, nogil=True)
def game_kernel(state, n, out, rules, pol, samples, check):
    """``n`` games to ``target``; seat 2 deals the first deal (seat 0 leads), the deal
    passes clockwise."""
    t = np.empty(T_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(3, dtype=np.int64)
    totals = np.zeros(3, dtype=np.int64)
    tp = rules[3]
    pens = rules[4:8]
    hand_size = rules[8]
    target = rules[2]
    for _ in range(n):
        totals[:] = 0
        dealer = 2
        deals = 0
        winner = -1
        while winner < 0 and deals < MAX_DEALS:
            turned = start_deal(state, t, deck, 52, rules, -1, 0, -1, (dealer + 1) % 3, check, hand0)
            play_out(state, t, pol, samples)
            if check != 0:
                out[G_BAD] += check_deal_end(t, turned, tp, pens, hand_size)
            for s in range(3):
                totals[s] += score(t, s)
            deals += 1
            dealer = (dealer + 1) % 3
            winner = game_winner(totals, 3, target)
        out[G_GAMES] += 1
        if winner >= 0:
            out[G_WIN + winner] += 1
            out[G_HIST + deals] += 1
        else:
            out[G_UNFINISHED] += 1
            out[G_HIST + MAX_DEALS] += 1
        out[G_DEALS] += deals
        out[G_DEALSQ] += deals * deals


# ==== the two-player game (RULES.md 2.2) ======================================================
# Phase 1: no trump, no duty to follow suit, but the second player may not play a jack of a
# suit other than the led suit; the highest card of the led suit wins; the winner takes the
# face-up stock card, the loser the next one face down; the next is turned. Phase 2 is the
# trick play above with T_NP = 2 and a trump drawn from the 26 phase-1 trick cards.
P1LEAD_NON_DEALER, P1LEAD_DEALER = 0, 1
P2LEAD_LAST_TRICK, P2LEAD_NON_DEALER = 0, 1
P2TRUMP_TRICK_CARD, P2TRUMP_NONE = 0, 1


@njit(inline="always", cache=True)
def legal_cards1(t, seat):
    """Phase 1: anything, except that the second player may not play a jack of a suit other
    than the led suit. A second player holding nothing else plays one of those jacks
    (RULES.md is silent on that case; the rule cannot be kept)."""
    hand = t[T_HAND + seat]
    if t[T_TLEN] == 0:
        return hand
    ok = hand & ~(JACKS & ~SUIT_MASK[t[T_TRICK] & 3])
    return ok if ok != 0 else hand


@njit(inline="always", cache=True)
def play_card1(t, seat, c):
    """Phase 1: ``seat`` plays ``c``; a full trick is taken and the stock dealt from at once.
    Returns True when phase 1 is over (the caller then starts phase 2)."""
    b = bit(c)
    if t[T_CHECK] != 0:
        if seat != to_play(t) or (legal_cards1(t, seat) & b) == 0 or (t[T_PLAYED] & b) != 0 \
                or (t[T_HAND + seat] & b) == 0:
            t[T_BAD] += 1
    tlen = t[T_TLEN]
    t[T_HAND + seat] &= ~b
    t[T_PLAYED] |= b
    t[T_TRICK + tlen] = c
    if tlen == 0:
        t[T_TLEN] = 1
        return False
    leader = t[T_LEADER]
    lead = t[T_TRICK]
    w = seat if ((c & 3) == (lead & 3) and c > lead) else leader
    lo = 1 - w
    for i in range(2):
        x = t[T_TRICK + i]
        if (x >> 2) == JACK_RANK:
            t[T_P1JACKS] |= bit(x)
            if t[T_P1J] != 0:
                _take_jack(t, x & 3, w, w == leader)
            else:
                t[T_JTAKER + (x & 3)] = -2
    pos = t[T_SPOS]
    fu = t[T_STOCK + pos]
    t[T_HAND + w] |= bit(fu)
    t[T_KNOWN + w] |= bit(fu)
    t[T_FUMASK] |= bit(fu)
    if w == leader:
        t[T_FULEAD] |= bit(fu)
    if (fu >> 2) == JACK_RANK:
        t[T_FUTAKER + (fu & 3)] = w
    t[T_HAND + lo] |= bit(t[T_STOCK + pos + 1])
    pos += 2
    t[T_SPOS] = pos
    t[T_FACEUP] = t[T_STOCK + pos] if pos < 26 else -1
    t[T_P1WINS + w] += 1
    t[T_LEADER] = w
    t[T_LASTWIN] = w
    t[T_TLEN] = 0
    return pos >= 26


@njit(cache=True, nogil=True)
def start_phase2(state, t, p2lead, p2trump, non_dealer):
    """Draw the phase-2 trump from the 26 phase-1 trick cards (the card stays dead) and set
    the phase-2 leader."""
    t[T_PHASE] = 0
    t[T_P1PLAYED] = t[T_PLAYED]
    if p2trump == P2TRUMP_TRICK_CARD:
        k = t[T_TRUMPK]
        if k < 0:
            k = bounded(state, popcount(t[T_PLAYED]))
        c = nth_card(t[T_PLAYED], k)
        t[T_TRUMPCARD] = c
        t[T_TRUMP] = c & 3
    else:
        t[T_TRUMPCARD] = -1
        t[T_TRUMP] = -1
    t[T_LEADER] = t[T_LASTWIN] if p2lead == P2LEAD_LAST_TRICK else non_dealer


@njit(cache=True, nogil=True)
def new_table2(t, stock, leader, pens, tp, p1j, check):
    """A fresh two-player table in phase 1: hands are set by the caller; ``stock`` holds 26 cards."""
    new_table(t, 2, -1, leader, -1, 0, pens, tp, check)
    t[T_PHASE] = 1
    t[T_SPOS] = 0
    t[T_P1J] = p1j
    t[T_TRUMPCARD] = -1
    t[T_TRUMPK] = -1
    for s in range(4):
        t[T_FUTAKER + s] = -1
    for i in range(26):
        t[T_STOCK + i] = stock[i]
    t[T_FACEUP] = stock[0]


# ---- phase-1 heuristic ------------------------------------------------------------------------
@njit(inline="always", cache=True)
def faceup_value(t, fu):
    """What the face-up card is worth to its taker, in the heuristic's eyes: a jack is its
    danger (minus its penalty), a ten, queen, king or ace a likely phase-2 trick (+1), a
    lower card nothing."""
    if fu < 0:
        return 0
    r = fu >> 2
    if r == JACK_RANK:
        return -t[T_PENS + (fu & 3)]
    return 1 if r >= 8 else 0


@njit(inline="always", cache=True)
def _lowest_rank(mask):
    """The card of lowest rank in a mask, jacks last."""
    nj = mask & ~JACKS
    return lowest(nj) if nj != 0 else lowest(mask)


@njit(cache=True, nogil=True)
def heuristic1_choose(t, seat, legal):
    """The phase-1 rule-based player (documented in ``policies.py``)."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    hand = t[T_HAND + seat]
    fu = t[T_FACEUP]
    v = faceup_value(t, fu)
    unseen = FULL & ~(hand | t[T_PLAYED])
    if fu >= 0:
        unseen &= ~bit(fu)
    if t[T_TLEN] == 0:
        nonjack = legal & ~JACKS
        if nonjack == 0:  # only jacks: the cheapest
            cheapest = -1
            for s in range(4):
                j = JACK_RANK * 4 + s
                if (legal & bit(j)) != 0 and (cheapest < 0 or t[T_PENS + s] < t[T_PENS + (cheapest & 3)]):
                    cheapest = j
            return cheapest
        if v > 0:
            # fight: the lowest card nobody can beat, else the highest card
            sure = np.int64(0)
            x = nonjack
            while x != 0:
                c = lowest(x)
                x &= x - 1
                if (unseen & above(c)) == 0:
                    sure |= bit(c)
            if sure != 0:
                return lowest(sure)
            return highest(nonjack)
        return lowest(nonjack)  # nothing to win: lead the cheapest card
    lead = t[T_TRICK]
    led = lead & 3
    jl = JACK_RANK * 4 + led
    if (legal & bit(jl)) != 0 and lead > jl:
        return jl  # shed my jack of the led suit under a higher card: the leader pays it
    cost = 0
    if (lead >> 2) == JACK_RANK and t[T_P1J] != 0:
        cost = t[T_PENS + led]
    win = legal & above(lead)
    lose = legal & ~win
    if v - cost > 0:
        wnj = win & ~JACKS
        if wnj != 0:
            return lowest(wnj)
    if lose != 0:
        return _lowest_rank(lose)
    return _lowest_rank(win)


@njit(cache=True, nogil=True)
def play_out1_heuristic(t):
    """The heuristic for both seats to the end of phase 1."""
    while True:
        seat = to_play(t)
        if play_card1(t, seat, heuristic1_choose(t, seat, legal_cards1(t, seat))):
            return


@njit(cache=True, nogil=True)
def sample_world1(state, t, seat, w):
    """Copy ``t`` into ``w`` with what ``seat`` cannot see in phase 1 redealt at random: the
    opponent's cards other than the face-up cards it took, and the stock under the face-up
    card."""
    w[:] = t
    opp = 1 - seat
    known = t[T_KNOWN + opp] & t[T_HAND + opp]
    hidden = t[T_HAND + opp] & ~known
    pos = t[T_SPOS]
    pool = hidden
    for i in range(pos + 1, 26):
        pool |= bit(t[T_STOCK + i])
    m = popcount(pool)
    a = np.empty(52, dtype=np.int64)
    x = pool
    for i in range(m):
        a[i] = lowest(x)
        x &= x - 1
    shuffle(state, a, m)
    k = popcount(hidden)
    h = known
    for i in range(k):
        h |= bit(a[i])
    w[T_HAND + opp] = h
    for i in range(pos + 1, 26):
        w[T_STOCK + i] = a[k + i - pos - 1]


@njit(cache=True, nogil=True)
def finish_heuristic2(state, t, p2lead, p2trump, non_dealer):
    """Both seats play the heuristic to the end of the two-player deal, from either phase."""
    if t[T_PHASE] == 1:
        if t[T_TLEN] != 0 or t[T_SPOS] < 26:
            play_out1_heuristic(t)
        start_phase2(state, t, p2lead, p2trump, non_dealer)
    play_out_heuristic(t)


@njit(cache=True, nogil=True)
def lookahead1_choose(state, t, seat, legal, samples, p2lead, p2trump, non_dealer):
    """Phase-1 look-ahead: in ``samples`` worlds consistent with what ``seat`` saw, play each
    legal card, then the heuristic for both seats through both phases; best total score."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    cands = _cards_of(legal)
    k = cands.shape[0]
    totals = np.zeros(k, dtype=np.int64)
    w = np.empty(T_SIZE, dtype=np.int64)
    w2 = np.empty(T_SIZE, dtype=np.int64)
    sub = np.empty(4, dtype=np.uint64)
    for _ in range(samples):
        sample_world1(state, t, seat, w)
        w[T_CHECK] = 0
        for j in range(4):  # the same trump draw for every candidate: a paired comparison
            sub[j] = next_u64(state)
        for i in range(k):
            w2[:] = w
            s2 = sub.copy()
            if play_card1(w2, seat, cands[i]):
                start_phase2(s2, w2, p2lead, p2trump, non_dealer)
                play_out_heuristic(w2)
            else:
                finish_heuristic2(s2, w2, p2lead, p2trump, non_dealer)
            totals[i] += score(w2, seat)
    return cands[np.argmax(totals)]  # ties to the lowest card, as argmax takes the first


@njit(cache=True, nogil=True)
def user_view1(t, seat):
    """Phase 1 as ``seat`` may see it: the other hand, the stock under the face-up card and
    the cards dealt face down (odd stock positions) hidden; the face-up cards stay."""
    v = user_view(t, seat)
    pos = t[T_SPOS]
    for i in range(26):
        if i > pos or (i & 1) == 1:
            v[T_STOCK + i] = -1
    return v


@njit(cache=True, nogil=True)
def choose1(state, t, seat, code, samples, p2lead, p2trump, non_dealer):
    legal = legal_cards1(t, seat)
    if code == P_RANDOM:
        return random_choose(state, legal)
    if code == P_HEURISTIC:
        return heuristic1_choose(t, seat, legal)
    if code == P_LOOKAHEAD:
        return lookahead1_choose(state, t, seat, legal, samples, p2lead, p2trump, non_dealer)
    c = USER_POLICY(state, legal, seat, user_view1(t, seat))
    if c < 0 or c > 51 or (legal & bit(c)) == 0:
        t[T_BAD] += 1
        return lowest(legal)
    return c


@njit(cache=True, nogil=True)
def play_out2(state, t, pol, samples, p2lead, p2trump, non_dealer):
    """Play a two-player deal to its end from either phase, seat ``s`` by policy ``pol[s]``."""
    if t[T_PHASE] == 1:
        while True:
            seat = to_play(t)
            if play_card1(t, seat, choose1(state, t, seat, pol[seat], samples, p2lead, p2trump, non_dealer)):
                break
        start_phase2(state, t, p2lead, p2trump, non_dealer)
    play_out(state, t, pol, samples)


@njit(cache=True, nogil=True)
def play_traced2(state, t, pol, samples, p2lead, p2trump, non_dealer, rec):
    """Like :func:`play_traced` for both phases: row = leader, 2 cards, (2 unused), winner,
    face-up card (phase 1, else -1); returns nothing, rows 0..12 phase 1, 13..25 phase 2."""
    i = 0
    while True:
        seat = to_play(t)
        p1 = t[T_PHASE] == 1
        if t[T_TLEN] == 0:
            rec[i, 0] = seat
            rec[i, 6] = t[T_FACEUP] if p1 else -1
        if p1:
            c = choose1(state, t, seat, pol[seat], samples, p2lead, p2trump, non_dealer)
        else:
            c = choose(state, t, seat, pol[seat], samples)
        rec[i, 1 + t[T_TLEN]] = c
        if p1:
            done = play_card1(t, seat, c)
            if t[T_TLEN] == 0:
                rec[i, 5] = t[T_LASTWIN]
                i += 1
            if done:
                start_phase2(state, t, p2lead, p2trump, non_dealer)
        else:
            done = play_card(t, seat, c)
            if t[T_TLEN] == 0:
                rec[i, 5] = t[T_LASTWIN]
                i += 1
            if done:
                return


@njit(cache=True, nogil=True)
def start_deal2(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, non_dealer, check,
                hand0):
    """Deal a two-player deal into ``t``. ``start_phase`` 1: 13 cards each and a 26-card
    stock whose top (``fixed_card`` if >= 0) is face up; 2: the table at the start of phase 2
    with ``fixed_card`` the dead card that named trump, 13 cards each, the other 25 dead
    (played in phase 1; their jacks out of play). ``fixed_seat`` holds ``fixed_hand``."""
    shuffle(state, deck, nfree)
    k = 0
    for s in range(2):
        if s == fixed_seat:
            hand0[s] = fixed_hand
            continue
        h = np.int64(0)
        for _ in range(13):
            h |= bit(deck[k])
            k += 1
        hand0[s] = h
    leader = non_dealer if rules[10] == P1LEAD_NON_DEALER else 1 - non_dealer
    stock = np.empty(26, dtype=np.int64)
    if start_phase == 1:
        i0 = 0
        if fixed_card >= 0:
            stock[0] = fixed_card
            i0 = 1
        for i in range(i0, 26):
            stock[i] = deck[k]
            k += 1
        new_table2(t, stock, leader, rules[4:8], rules[3], rules[9], check)
        t[T_HAND] = hand0[0]
        t[T_HAND + 1] = hand0[1]
        return
    new_table(t, 2, fixed_card & 3, non_dealer, -1, 0, rules[4:8], rules[3], check)
    dead = bit(fixed_card)
    while k < nfree:
        dead |= bit(deck[k])
        k += 1
    t[T_HAND] = hand0[0]
    t[T_HAND + 1] = hand0[1]
    t[T_PLAYED] = dead
    t[T_P1PLAYED] = dead
    t[T_TRUMPCARD] = fixed_card
    t[T_SPOS] = 26
    t[T_FACEUP] = -1
    t[T_TRUMPCARD] = fixed_card
    for s in range(4):
        t[T_FUTAKER + s] = -1
        if (dead & bit(JACK_RANK * 4 + s)) != 0:
            t[T_JTAKER + s] = -2


@njit(cache=True, nogil=True)
def check_deal_end2(t, rules, start_phase):
    """Broken invariants at the end of a two-player deal: 0 when all is well. Every card
    was played once (26 in phase 1 and 26 in phase 2, or dead), the stock was used up,
    phase 2 had 13 tricks, each jack was paid exactly once across both phases (or fell in a
    phase-1 trick without ``phase1_jacks_cost``), and the scores add up."""
    bad = 0
    if t[T_PLAYED] != FULL or t[T_HAND] != 0 or t[T_HAND + 1] != 0:
        bad += 1
    if popcount(t[T_P1PLAYED]) != 26 or t[T_SPOS] != 26 or t[T_PHASE] != 0:
        bad += 1
    if t[T_TRUMPCARD] >= 0 and (t[T_P1PLAYED] & bit(t[T_TRUMPCARD])) == 0:
        bad += 1
    if start_phase == 1 and t[T_P1WINS] + t[T_P1WINS + 1] != 13:
        bad += 1
    if t[T_TRICKS] + t[T_TRICKS + 1] != 13 or t[T_NTRICK] != 13:
        bad += 1
    expect = 13 * rules[3]
    pens = 0
    for s in range(4):
        j = bit(JACK_RANK * 4 + s)
        taker = t[T_JTAKER + s]
        if taker >= 0:
            expect -= rules[4 + s]
        elif taker == -2:
            if (t[T_P1PLAYED] & j) == 0 or (start_phase == 1 and rules[9] != 0):
                bad += 1
        else:
            bad += 1
    for s in range(2):
        pens += t[T_PEN + s]
    if score(t, 0) + score(t, 1) != expect or pens != 13 * rules[3] - expect:
        bad += 1
    return bad + t[T_BAD]


@njit(cache=True, nogil=True)
def deals2_kernel(state, n, out, rules, pol, samples, fixed_seat, fixed_hand, fixed_card, start_phase, check):
    """``n`` two-player deals, seat 0 the non-dealer: jack takers, scores, the face-up card."""
    t = np.empty(T_SIZE, dtype=np.int64)
    deck, nfree = free_cards(fixed_hand, fixed_card)
    held = np.empty(4, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    for _ in range(n):
        start_deal2(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check, hand0)
        _jack_holders(hand0, 2, held)
        play_out2(state, t, pol, samples, rules[11], rules[12], 0)
        out[O_DEALS] += 1
        _record_seats(out, t, 2)
        for p in range(2):
            w1 = t[T_P1WINS + p]
            out[O2_PHASE1_TRICKS + 2 * p] += w1
            out[O2_PHASE1_TRICKS + 2 * p + 1] += w1 * w1
        trump = t[T_TRUMP]
        for s in range(4):
            jb = bit(JACK_RANK * 4 + s)
            if (t[T_P1JACKS] & jb) != 0:
                out[O2_P1JACK + s] += 1
            ft = t[T_FUTAKER + s]
            if ft >= 0:
                out[O2_FUJ_N + s] += 1
                if t[T_JTAKER + s] == ft:
                    out[O2_FUJ_PAY + s] += 1
            _record_jack(out, t, s, held, hand0, trump)
        x = t[T_FUMASK]
        while x != 0:
            c = lowest(x)
            x &= x - 1
            out[O2_FU_N + c] += 1
            if (t[T_FULEAD] & bit(c)) != 0:
                out[O2_FU_LEAD + c] += 1
        if check != 0:
            out[O_BAD] += check_deal_end2(t, rules, start_phase)


@njit(cache=True, nogil=True)
def game2_kernel(state, n, out, rules, pol, samples, check):
    """``n`` two-player games to ``target``; seat 1 deals the first deal, the deal alternates."""
    t = np.empty(T_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    totals = np.zeros(2, dtype=np.int64)
    target = rules[2]
    for _ in range(n):
        totals[:] = 0
        dealer = 1
        deals = 0
        winner = -1
        while winner < 0 and deals < MAX_DEALS:
            nd = 1 - dealer
            start_deal2(state, t, deck, 52, rules, -1, 0, -1, 1, nd, check, hand0)
            play_out2(state, t, pol, samples, rules[11], rules[12], nd)
            if check != 0:
                out[G_BAD] += check_deal_end2(t, rules, 1)
            for s in range(2):
                totals[s] += score(t, s)
            deals += 1
            dealer = 1 - dealer
            winner = game_winner(totals, 2, target)
        out[G_GAMES] += 1
        if winner >= 0:
            out[G_WIN + winner] += 1
            out[G_HIST + deals] += 1
        else:
            out[G_UNFINISHED] += 1
            out[G_HIST + MAX_DEALS] += 1
        out[G_DEALS] += deals
        out[G_DEALSQ] += deals * deals


@njit(cache=True, nogil=True)
def match2_kernel(state, n, out, rules, pol_a, pol_b, samples, check):
    """Two-player paired match on the same deals (hands, stock and phase-2 trump draw): B in
    both seats, then A in seat r and B in the other for r = 0, 1; out sums A's score minus B's
    in seat r over both seats (one figure per deal)."""
    t = np.empty(T_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    stock = np.empty(26, dtype=np.int64)
    pol = np.empty(2, dtype=np.int64)
    base = np.empty(2, dtype=np.int64)
    leader = 0 if rules[10] == P1LEAD_NON_DEALER else 1
    for _ in range(n):
        start_deal2(state, t, deck, 52, rules, -1, 0, -1, 1, 0, check, hand0)
        for i in range(26):
            stock[i] = t[T_STOCK + i]
        k = bounded(state, 26)
        d = 0
        for r in range(-1, 2):
            for s in range(2):
                pol[s] = pol_a if s == r else pol_b
            new_table2(t, stock, leader, rules[4:8], rules[3], rules[9], check)
            t[T_HAND] = hand0[0]
            t[T_HAND + 1] = hand0[1]
            t[T_TRUMPK] = k
            play_out2(state, t, pol, samples, rules[11], rules[12], 0)
            if check != 0:
                out[M_BAD] += check_deal_end2(t, rules, 1)
            if r < 0:
                base[0] = score(t, 0)
                base[1] = score(t, 1)
            else:
                a = score(t, r)
                out[M_A] += a
                out[M_B] += base[r]
                d += a - base[r]
        out[M_DEALS] += 1
        out[M_SUM] += d
        out[M_SUMSQ] += d * d
        if d > 0:
            out[M_PLUS] += 1
        elif d < 0:
            out[M_MINUS] += 1


_USER_BUILT = ("choose", "play_out", "deals_kernel", "match_kernel", "game_kernel", "choose1",
               "play_out2", "play_traced2", "deals2_kernel", "game2_kernel")


def kernels_for(user=None):
    """``{name: kernel}`` for the chunk kernels; with a user ``@njit`` policy, a fresh
    (uncached) compilation of the play loop and kernels that call it in place of
    :data:`USER_POLICY`, so the built-in kernels keep their on-disk cache."""
    if user is None:
        return {name: globals()[name] for name in _USER_BUILT}
    key = id(user)
    hit = _user_cache.get(key)
    if hit is not None and hit[0] is user:
        return hit[1]
    import types as _types

    g = dict(globals())
    g["USER_POLICY"] = user
    for name in _USER_BUILT:
        f = globals()[name].py_func
        g[name] = njit(nogil=True)(_types.FunctionType(f.__code__, g, name, f.__defaults__, f.__closure__))
    built = {name: g[name] for name in _USER_BUILT}
    _user_cache[key] = (user, built)
    return built


_user_cache: dict = {}
