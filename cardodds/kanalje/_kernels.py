"""Compiled Kanalje: trick play, the three built-in players, dealing, chunk kernels.

Everything here works on int64 scalars and arrays, no validation (the public functions in
``analysis.py`` check their input). A hand is a 52-bit mask (:mod:`._bits`).

The state of a deal in progress is one int64 array, the *table*, laid out by
:data:`cardodds.kanalje.view.TABLE` (offsets ``T.name``). Three players and two are one
engine: the table carries the player count and, for two players (RULES.md 2.2), the phase;
phase 1 has its own card play (:func:`play_card1`), phase 2 is the three-player trick play
with two seats. Every loop below switches on those fields, so a look-ahead player can copy
the table at any point of either game and play it out.

A policy is ``policy(state, legal, seat, view) -> card`` (see ``policies.py``); a user's
compiled policy reaches the kernels as their last argument (:func:`no_user_policy` when
there is none), compiled to :data:`POLICY_SIGNATURE`.
"""

from __future__ import annotations

import numpy as np
from numba import types

from .._jit import callback, helper, inline, kernel, loop
from .._random import bounded, next_u64, shuffle_prefix
from .._tally import add_paired
from ._bits import FULL, JACK_RANK, JACKS, SUIT_MASK, above, below, bit, highest, lowest, nth_card, popcount
from ._counts import (
    DEALS,
    GAME,
    LENGTHS,
    MATCH,
    MAX_DEALS,
    OUT_OF_PLAY,
    PEN_BINS,
    SCORE_BINS,
    SCORE_OFFSET,
    SEAT_SUMS,
    SQUARE,
    SUM_PENALTY,
    SUM_SCORE,
    SUM_TRICKS,
    TAKER_BINS,
    TRACE,
)
from .rules import PHASE1_LEADER_CHOICES, PHASE2_LEADER_CHOICES, PHASE2_TRUMP_CHOICES, R
from .view import TABLE, T

D = DEALS.at
G = GAME.at
M = MATCH.at
TR = TRACE.at
TABLE_SIZE = TABLE.size

# ---- scratch: what a look-ahead or user decision works in, allocated once per chunk ----------------
#: Rows of the int64 scratch (:func:`new_scratch`): the sampled world, the table a candidate is
#: played out on, a user policy's view, the candidate cards, their totals, a shuffle pool.
WORLD, PLAY, VIEW, CANDS, TOTALS, POOL = range(6)
SCRATCH_ROWS = 6
SCRATCH_WIDTH = max(TABLE_SIZE, 52)
#: Rows of the uint64 scratch: the random state a world's play-outs share, and its copy per candidate.
SUB, SUB_COPY = 0, 1

# Functions that allocate nothing are compiled with ``@loop`` (no reference counting, see
# cardodds/_jit.py): the reference counts took three quarters of a look-ahead decision's time.
# Only the chunk kernels, which allocate their tables, keep it.

# ---- policies -----------------------------------------------------------------------------
P_RANDOM, P_HEURISTIC, P_LOOKAHEAD, P_USER = 0, 1, 2, 3
# ---- two-player rule choices, as ``KanaljeRules.to_kernel`` packs them ------------------------
P1LEAD_NON_DEALER = PHASE1_LEADER_CHOICES.index("non_dealer")
P2LEAD_LAST_TRICK, P2LEAD_NON_DEALER = (PHASE2_LEADER_CHOICES.index(c) for c in ("last_trick", "non_dealer"))
P2TRUMP_TRICK_CARD, P2TRUMP_NONE = (PHASE2_TRUMP_CHOICES.index(c) for c in ("trick_card", "none"))
STOCK = 26  # two players: cards in the stock


@inline
def beats(c, w, trump):
    """Does card ``c`` take a trick that ``w`` is winning (``w`` is of the led suit or trump)?"""
    if (c & 3) == (w & 3):
        return c > w
    return (c & 3) == trump


@inline
def legal_cards(t, seat):
    """Follow suit if able, else anything (trumping allowed, never forced)."""
    hand = t[T.hand + seat]
    if t[T.trick_len] == 0:
        return hand
    f = hand & SUIT_MASK[t[T.trick] & 3]
    return f if f != 0 else hand


@inline
def seat_after(seat, k, n):
    """The seat ``k`` places clockwise after ``seat`` (0 <= k < n); no division, which
    would cost more than the rest of a card play."""
    s = seat + k
    return s - n if s >= n else s


@inline
def _copy(dst, src):
    """``dst[:] = src`` for the functions compiled without reference counting (numba's slice
    assignment needs it)."""
    for i in range(src.shape[0]):
        dst[i] = src[i]


@inline
def to_play(t):
    return seat_after(t[T.leader], t[T.trick_len], t[T.players])


@inline
def trick_winner_index(t, n, trump):
    """Index (in playing order) of the card that takes the trick's first ``n`` cards."""
    best = t[T.trick]
    wi = 0
    for i in range(1, n):
        if beats(t[T.trick + i], best, trump):
            best = t[T.trick + i]
            wi = i
    return wi



@loop
def new_table(t, rules, leader, turned, check):
    """A fresh table for ``rules``, phase 0 (the trick play), hands empty; ``turned`` (or -1)
    is face up and names trump."""
    for i in range(t.shape[0]):
        t[i] = 0
    t[T.players] = rules[R.players]
    t[T.trump] = (turned & 3) if turned >= 0 else -1
    t[T.leader] = leader
    t[T.turned] = turned
    t[T.last_winner] = -1
    for s in range(4):
        t[T.jack_taker + s] = -1
        t[T.faceup_jack_taker + s] = -1
        t[T.jack_penalty + s] = rules[R.jack_penalty + s]
    if turned >= 0 and (turned >> 2) == JACK_RANK:
        t[T.jack_taker + (turned & 3)] = -2
    t[T.turned_jack_rule] = rules[R.turned_jack]
    t[T.trick_points] = rules[R.trick_points]
    t[T.check] = check
    t[T.faceup] = -1
    t[T.trump_card] = -1
    t[T.trump_draw] = -1
    t[T.phase1_jacks_cost] = rules[R.phase1_jacks_cost]
    t[T.phase2_leader] = rules[R.phase2_leader]
    t[T.phase2_trump] = rules[R.phase2_trump]
    t[T.non_dealer] = leader


@loop
def open_phase1(t, non_dealer):
    """Two players: start phase 1 on a fresh table whose stock is in place."""
    t[T.phase] = 1
    t[T.stock_pos] = 0
    t[T.faceup] = t[T.stock]
    t[T.non_dealer] = non_dealer


@inline
def _take_jack(t, s, seat, led):
    t[T.penalty + seat] += t[T.jack_penalty + s]
    t[T.jack_taker + s] = seat
    t[T.jack_led + s] = 1 if led else 0


@inline
def play_card(t, seat, c):
    """``seat`` plays ``c``; a full trick is taken at once. Returns True when the deal is over."""
    n = t[T.players]
    b = bit(c)
    if t[T.check] != 0:
        if seat != to_play(t) or (legal_cards(t, seat) & b) == 0 or (t[T.played] & b) != 0:
            t[T.violations] += 1
    tlen = t[T.trick_len]
    if tlen > 0 and (c & 3) != (t[T.trick] & 3):
        t[T.void + seat] |= np.int64(1) << (t[T.trick] & 3)
    t[T.hand + seat] &= ~b
    t[T.played] |= b
    t[T.trick + tlen] = c
    tlen += 1
    if tlen < n:
        t[T.trick_len] = tlen
        return False
    leader = t[T.leader]
    wi = trick_winner_index(t, n, t[T.trump])
    w = seat_after(leader, wi, n)
    t[T.tricks + w] += 1
    for i in range(n):
        x = t[T.trick + i]
        if (x >> 2) == JACK_RANK:  # rare: four jacks in 17 tricks
            _take_jack(t, x & 3, w, w == leader)
    t[T.leader] = w
    t[T.trick_len] = 0
    t[T.n_tricks] += 1
    t[T.last_winner] = w
    if (t[T.hand] | t[T.hand + 1] | t[T.hand + 2] | t[T.hand + 3]) != 0:  # unused seats hold 0
        return False
    turned = t[T.turned]
    if t[T.turned_jack_rule] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        _take_jack(t, turned & 3, w, w == leader)
    return True


@inline
def score(t, seat):
    return t[T.tricks + seat] * t[T.trick_points] - t[T.penalty + seat]


# ---- the heuristic player -----------------------------------------------------------------
@inline
def _unseen(t, seat):
    """Cards the seat cannot see: in other players' hands (the turned card is public)."""
    x = FULL & ~(t[T.hand + seat] | t[T.played])
    if t[T.turned] >= 0:
        x &= ~bit(t[T.turned])
    return x


@inline
def _non_jack_low(mask):
    nj = mask & ~JACKS
    return lowest(nj) if nj != 0 else lowest(mask)


@inline
def _non_jack_high(mask):
    nj = mask & ~JACKS
    return highest(nj) if nj != 0 else highest(mask)


@inline
def _cheapest_jack(t, mask):
    """The jack of ``mask`` with the lowest penalty, -1 for none."""
    cheapest = -1
    for s in range(4):
        j = JACK_RANK * 4 + s
        if (mask & bit(j)) != 0 and (cheapest < 0 or t[T.jack_penalty + s] < t[T.jack_penalty + (cheapest & 3)]):
            cheapest = j
    return cheapest


@inline
def _heuristic_lead(t, seat, hand, unseen, trump):
    n = t[T.players]
    # Everybody else shown void in a suit: a lead there is taken by nobody but me.
    all_void = np.int64(15)
    for k in range(1, n):
        all_void &= t[T.void + seat_after(seat, k, n)]
    # 1. A jack all of whose unseen suit-mates outrank it: whoever follows must take it.
    best_pen = -1
    jack_lead = -1
    for s in range(4):
        j = JACK_RANK * 4 + s
        if (hand & bit(j)) != 0 and s != trump and ((all_void >> s) & 1) == 0:
            if (unseen & below(j)) == 0 and (unseen & above(j)) != 0 and t[T.jack_penalty + s] > best_pen:
                best_pen = t[T.jack_penalty + s]
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
        any_void |= t[T.void + seat_after(seat, k, n)]
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
    return _cheapest_jack(t, hand)


@inline
def heuristic_choose(t, seat, legal):
    """The documented rule-based player (see ``policies.py``)."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    n = t[T.players]
    trump = t[T.trump]
    hand = t[T.hand + seat]
    tlen = t[T.trick_len]
    unseen = _unseen(t, seat)
    if tlen == 0:
        return _heuristic_lead(t, seat, hand, unseen, trump)
    led = t[T.trick] & 3
    wi = trick_winner_index(t, tlen, trump)
    best = t[T.trick + wi]
    tpen = 0
    for i in range(tlen):
        x = t[T.trick + i]
        if (x >> 2) == JACK_RANK:
            tpen += t[T.jack_penalty + (x & 3)]
    last = tlen == n - 1
    gain = t[T.trick_points] - tpen  # what taking the trick as it stands is worth
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
            dearer = bj < 0 or t[T.jack_penalty + s] > t[T.jack_penalty + (bj & 3)]
            if (side_jacks & bit(JACK_RANK * 4 + s)) != 0 and dearer:
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
                later_void |= t[T.void + seat_after(seat, k, n)]
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



# ---- the random player --------------------------------------------------------------------
@inline
def random_choose(state, legal):
    k = popcount(legal)
    if k == 1:
        return lowest(legal)
    return nth_card(legal, bounded(state, k))



# ==== two players, phase 1 (RULES.md 2.2) ==================================================
# No trump, no duty to follow suit, but the second player may not play a jack of a suit other
# than the led suit; the highest card of the led suit wins; the winner takes the face-up stock
# card, the loser the next one face down; the next is turned. Phase 2 is the trick play above
# with two seats and a trump drawn from the 26 phase-1 trick cards.
@inline
def legal_cards1(t, seat):
    """Phase 1: anything, except that the second player may not play a jack of a suit other
    than the led suit. A second player holding nothing else plays one of those jacks
    (RULES.md is silent on that case; the rule cannot be kept)."""
    hand = t[T.hand + seat]
    if t[T.trick_len] == 0:
        return hand
    ok = hand & ~(JACKS & ~SUIT_MASK[t[T.trick] & 3])
    return ok if ok != 0 else hand


@inline
def play_card1(t, seat, c):
    """Phase 1: ``seat`` plays ``c``; a full trick is taken and the stock dealt from at once.
    Returns True when phase 1 is over (the caller then starts phase 2)."""
    b = bit(c)
    if t[T.check] != 0:
        if seat != to_play(t) or (legal_cards1(t, seat) & b) == 0 or (t[T.played] & b) != 0 \
                or (t[T.hand + seat] & b) == 0:
            t[T.violations] += 1
    tlen = t[T.trick_len]
    t[T.hand + seat] &= ~b
    t[T.played] |= b
    t[T.trick + tlen] = c
    if tlen == 0:
        t[T.trick_len] = 1
        return False
    leader = t[T.leader]
    lead = t[T.trick]
    w = seat if ((c & 3) == (lead & 3) and c > lead) else leader
    lo = 1 - w
    for i in range(2):
        x = t[T.trick + i]
        if (x >> 2) == JACK_RANK:
            t[T.phase1_jacks] |= bit(x)
            if t[T.phase1_jacks_cost] != 0:
                _take_jack(t, x & 3, w, w == leader)
            else:
                t[T.jack_taker + (x & 3)] = -2
    pos = t[T.stock_pos]
    fu = t[T.stock + pos]
    t[T.hand + w] |= bit(fu)
    t[T.known + w] |= bit(fu)
    t[T.faceup_cards] |= bit(fu)
    if w == leader:
        t[T.faceup_leader_won] |= bit(fu)
    if (fu >> 2) == JACK_RANK:
        t[T.faceup_jack_taker + (fu & 3)] = w
    t[T.hand + lo] |= bit(t[T.stock + pos + 1])
    pos += 2
    t[T.stock_pos] = pos
    t[T.faceup] = t[T.stock + pos] if pos < 26 else -1
    t[T.phase1_wins + w] += 1
    t[T.leader] = w
    t[T.last_winner] = w
    t[T.trick_len] = 0
    return pos >= 26



@loop
def start_phase2(state, t):
    """Two players, end of phase 1: draw the phase-2 trump from the 26 phase-1 trick cards
    (the card stays dead; ``trump_draw`` presets the draw) and set the phase-2 leader."""
    t[T.phase] = 0
    t[T.phase1_played] = t[T.played]
    if t[T.phase2_trump] == P2TRUMP_TRICK_CARD:
        k = t[T.trump_draw]
        if k < 0:
            k = bounded(state, popcount(t[T.played]))
        c = nth_card(t[T.played], k)
        t[T.trump_card] = c
        t[T.trump] = c & 3
    else:
        t[T.trump_card] = -1
        t[T.trump] = -1
    t[T.leader] = t[T.last_winner] if t[T.phase2_leader] == P2LEAD_LAST_TRICK else t[T.non_dealer]


# ---- phase-1 heuristic ------------------------------------------------------------------------
@inline
def faceup_value(t, fu):
    """What the face-up card is worth to its taker, in the heuristic's eyes: a jack is its
    danger (minus its penalty), a ten, queen, king or ace a likely phase-2 trick (+1), a
    lower card nothing."""
    if fu < 0:
        return 0
    r = fu >> 2
    if r == JACK_RANK:
        return -t[T.jack_penalty + (fu & 3)]
    return 1 if r >= 8 else 0


@loop
def heuristic_card(t, seat, legal):
    """:func:`heuristic_choose` compiled once, as a function of its own: the play-outs of mixed
    lineups call it (a call per card) instead of each compiling the heuristic inline, which
    cost about ten seconds of the first compile per play-out; the all-heuristic loop, where
    speed matters, inlines it."""
    return heuristic_choose(t, seat, legal)


@loop
def heuristic1_choose(t, seat, legal):
    """The phase-1 rule-based player (documented in ``policies.py``)."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    hand = t[T.hand + seat]
    fu = t[T.faceup]
    v = faceup_value(t, fu)
    unseen = FULL & ~(hand | t[T.played])
    if fu >= 0:
        unseen &= ~bit(fu)
    if t[T.trick_len] == 0:
        nonjack = legal & ~JACKS
        if nonjack == 0:  # only jacks: the cheapest
            return _cheapest_jack(t, legal)
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
    lead = t[T.trick]
    led = lead & 3
    jl = JACK_RANK * 4 + led
    if (legal & bit(jl)) != 0 and lead > jl:
        return jl  # shed my jack of the led suit under a higher card: the leader pays it
    cost = 0
    if (lead >> 2) == JACK_RANK and t[T.phase1_jacks_cost] != 0:
        cost = t[T.jack_penalty + led]
    win = legal & above(lead)
    lose = legal & ~win
    if v - cost > 0:
        wnj = win & ~JACKS
        if wnj != 0:
            return lowest(wnj)
    if lose != 0:
        return _non_jack_low(lose)
    return _non_jack_low(win)


# ==== one engine for both games ===============================================================
@inline
def play_any(state, t, seat, c):
    """``seat`` plays ``c`` in whichever phase; phase 2 starts as soon as phase 1 ends.
    Returns True when the deal is over."""
    if t[T.phase] == 1:
        if play_card1(t, seat, c):
            start_phase2(state, t)
        return False
    return play_card(t, seat, c)


@loop
def play_out_heuristic(state, t):
    """Every seat plays the heuristic until the deal ends, from any point of either game
    (``state`` draws only the two-player phase-2 trump)."""
    if t[T.phase] == 1:
        while True:
            seat = to_play(t)
            if play_card1(t, seat, heuristic1_choose(t, seat, legal_cards1(t, seat))):
                break
        start_phase2(state, t)
    while True:
        seat = to_play(t)
        if play_card(t, seat, heuristic_choose(t, seat, legal_cards(t, seat))):
            return


# ---- the look-ahead player ----------------------------------------------------------------
@inline
def _sample_phase1(state, t, seat, w, a):
    """Phase 1: what ``seat`` cannot see redealt at random: the opponent's cards other than
    the face-up cards it took, and the stock under the face-up card."""
    opp = 1 - seat
    known = t[T.known + opp] & t[T.hand + opp]
    hidden = t[T.hand + opp] & ~known
    pos = t[T.stock_pos]
    pool = hidden
    for i in range(pos + 1, STOCK):
        pool |= bit(t[T.stock + i])
    m = popcount(pool)
    x = pool
    for i in range(m):
        a[i] = lowest(x)
        x &= x - 1
    shuffle_prefix(state, a, m - 1, m)
    k = popcount(hidden)
    h = known
    for i in range(k):
        h |= bit(a[i])
    w[T.hand + opp] = h
    for i in range(pos + 1, STOCK):
        w[T.stock + i] = a[k + i - pos - 1]


@inline
def _sample_three(state, t, seat, w):
    """Three players: the two other hands redealt consistently with their sizes, the cards
    known to be in them and the voids they showed."""
    n = 3
    a = seat_after(seat, 1, n)
    b = seat_after(seat, 2, n)
    pool = t[T.hand + a] | t[T.hand + b]
    ka = t[T.known + a] & pool
    kb = t[T.known + b] & pool
    free = pool & ~ka & ~kb
    va = np.int64(0)
    vb = np.int64(0)
    for s in range(4):
        if (t[T.void + a] >> s) & 1:
            va |= SUIT_MASK[s]
        if (t[T.void + b] >> s) & 1:
            vb |= SUIT_MASK[s]
    to_a = ka | (free & vb & ~va)
    to_b = kb | (free & va & ~vb)
    free &= ~(to_a | to_b)
    need_a = popcount(t[T.hand + a]) - popcount(to_a)
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
    w[T.hand + a] = to_a
    w[T.hand + b] = to_b


@loop
def sample_world(state, t, seat, w, pool):
    """Copy ``t`` into ``w`` with what ``seat`` cannot see redealt at random, consistently with
    what it has seen (``pool``: 52 int64 of scratch). In the two-player phase 2 nothing is
    hidden (every other card lies in the phase-1 tricks or my hand): the world is the true deal."""
    _copy(w, t)
    if t[T.phase] == 1:
        _sample_phase1(state, t, seat, w, pool)
    elif t[T.players] == 3:
        _sample_three(state, t, seat, w)


@inline
def _representatives(t, seat, legal):
    """The legal cards worth playing out: of non-jacks of one suit that no card another player
    may hold separates (only my cards, cards of finished tricks or the turned card lie between
    them, no jack, and none of my cards of another suit ranks between them), the lowest. In
    the trick play such cards are interchangeable: every comparison any player makes
    afterwards comes out the same, so their play-outs score the same and the lowest is what
    the full comparison picks. Phase 1 keeps every card: its phase-2 trump is drawn by
    position among the played cards, which interchanging would change."""
    if t[T.phase] == 1:
        return legal
    seen = t[T.hand + seat] | t[T.played]
    if t[T.turned] >= 0:
        seen |= bit(t[T.turned])
    for i in range(t[T.trick_len]):
        seen &= ~bit(t[T.trick + i])  # still in play: my card is compared with it
    mine = t[T.hand + seat]
    reps = legal & JACKS
    for s in range(4):
        m = legal & SUIT_MASK[s] & ~JACKS
        last = -1
        while m != 0:
            c = lowest(m)
            m &= m - 1
            if last < 0:
                reps |= bit(c)
            else:
                gap = above(last) & below(c)
                # my cards of other suits ranked between them: the heuristic compares its cards
                # across suits (highest side card), which interchanging would reorder
                across = mine & ~SUIT_MASK[s] & ((bit(c) - 1) & ~((bit(last) << 1) - 1))
                if (gap & JACKS) != 0 or (gap & ~seen) != 0 or across != 0:
                    reps |= bit(c)
            last = c
    return reps


def new_scratch():
    """The scratch a chunk's look-ahead and user decisions work in: (int64 rows, uint64 rows)."""
    return np.zeros((SCRATCH_ROWS, SCRATCH_WIDTH), dtype=np.int64), np.zeros((2, 4), dtype=np.uint64)


@inline
def _scratch():
    return np.zeros((SCRATCH_ROWS, SCRATCH_WIDTH), dtype=np.int64), np.zeros((2, 4), dtype=np.uint64)


@loop
def lookahead_choose(state, t, seat, legal, samples, scr, rs):
    """Sample the unseen cards ``samples`` times; in each world play every legal card and
    then the heuristic for everybody to the end of the deal (through phase 2 from phase 1,
    with the same phase-2 trump draw for every candidate: a paired comparison); pick the
    best total score. Interchangeable cards (:func:`_representatives`) are played out once.
    ``scr``/``rs`` are the chunk's scratch (:func:`new_scratch`): nothing is allocated here
    (compiled without reference counting, numba would refuse an allocation), and the random
    draws are those of a comparison of every card, whatever is skipped."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    reps = _representatives(t, seat, legal)
    w = scr[WORLD]
    w2 = scr[PLAY]
    cands = scr[CANDS]
    totals = scr[TOTALS]
    sub = rs[SUB]
    s2 = rs[SUB_COPY]
    k = 0
    x = reps
    while x != 0:
        cands[k] = lowest(x)
        totals[k] = 0
        x &= x - 1
        k += 1
    p1 = t[T.phase] == 1
    for _ in range(samples):
        sample_world(state, t, seat, w, scr[POOL])
        w[T.check] = 0
        if p1:
            for j in range(4):
                sub[j] = next_u64(state)
        if k == 1:
            continue  # the draws above keep the random stream of a full comparison
        for i in range(k):
            _copy(w2, w)
            _copy(s2, sub)
            if not play_any(s2, w2, seat, cands[i]):
                play_out_heuristic(s2, w2)
            totals[i] += score(w2, seat)
    best = 0
    for i in range(1, k):
        if totals[i] > totals[best]:  # ties to the lowest card
            best = i
    return cands[best]


# ---- the user's policy ----------------------------------------------------------------------
#: ``policy(state, legal, seat, view) -> card``: the kernels call a user's policy through a
#: pointer of this type, so they are compiled (and cached) once, whatever the policy.
POLICY_SIGNATURE = types.int64(types.uint64[::1], types.int64, types.int64, types.int64[::1])


def _no_user_policy(state, legal, seat, view):
    """Stands in for a user's policy in runs without one (never called there)."""
    return lowest(legal)


def __getattr__(name):
    # ``no_user_policy`` is compiled (or loaded from the cache) on first use, not at import:
    # only the kernels that take a user's policy need it, and random or heuristic runs never do.
    if name == "no_user_policy":
        fn = globals()["no_user_policy"] = callback(POLICY_SIGNATURE)(_no_user_policy)
        return fn
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


@loop
def user_view(t, seat, v):
    """The table as ``seat`` may see it, written into ``v``: the other hands hidden (zeroed); in
    phase 1 also the stock under the face-up card and the cards dealt face down (-1)."""
    _copy(v, t)
    for s in range(t[T.players]):
        if s != seat:
            v[T.hand + s] = 0
    if t[T.phase] == 1:
        pos = t[T.stock_pos]
        for i in range(STOCK):
            if i > pos or (i & 1) == 1:
                v[T.stock + i] = -1
    return v


@helper
def _ask_user(state, t, seat, legal, user, scr):
    """The call into a user's policy, compiled with numba's reference counting (not ``@loop``):
    the user's function is compiled with it, and called from a loop compiled without it the
    process's heap was corrupted (a crash at the next allocation)."""
    v = scr[VIEW]
    user_view(t, seat, v)
    return user(state, legal, seat, v)


@inline
def _user_card(state, t, seat, legal, user, scr):
    c = _ask_user(state, t, seat, legal, user, scr)
    if c < 0 or c > 51 or (legal & bit(c)) == 0:
        # An illegal answer is counted (checked runs report it) and replaced, so a buggy
        # policy cannot stall the deal.
        t[T.violations] += 1
        return lowest(legal)
    return c


@inline
def _choose_drawn(state, t, seat, code, samples, user, legal, scr, rs):
    """The card of a random, look-ahead or user policy (the same in either phase)."""
    if code == P_RANDOM:
        return random_choose(state, legal)
    if code == P_LOOKAHEAD:
        return lookahead_choose(state, t, seat, legal, samples, scr, rs)
    return _user_card(state, t, seat, legal, user, scr)


@inline
def choose_trick(state, t, seat, code, samples, user, scr, rs):
    """The card policy ``code`` plays for ``seat`` in the trick play (three players, or phase 2)."""
    legal = legal_cards(t, seat)
    if code == P_HEURISTIC:
        return heuristic_card(t, seat, legal)
    return _choose_drawn(state, t, seat, code, samples, user, legal, scr, rs)


@loop
def choose1(state, t, seat, code, samples, user, scr, rs):
    """The card policy ``code`` plays for ``seat`` in phase 1 of the two-player game."""
    legal = legal_cards1(t, seat)
    return heuristic1_choose(t, seat, legal) if code == P_HEURISTIC else \
        _choose_drawn(state, t, seat, code, samples, user, legal, scr, rs)


@inline
def choose(state, t, seat, code, samples, user, scr, rs):
    """The card policy ``code`` plays for ``seat`` now (``user`` is the user's policy)."""
    if t[T.phase] == 1:
        return choose1(state, t, seat, code, samples, user, scr, rs)
    return choose_trick(state, t, seat, code, samples, user, scr, rs)


@loop
def play_out_random3(state, t):
    """Three random players from the start of a deal to its end, in a tight loop.

    The same deal, the same random draws and the same table at the end as :func:`play_out`
    with three random policies, except that shown voids are not recorded and plays are
    not checked (it is used only in unchecked runs; the tests compare both). Hands are
    indexed by seat rather than chosen by branches, which the seat order makes unpredictable."""
    trump = t[T.trump]
    leader = t[T.leader]
    played = t[T.played]
    w = leader
    trick_leader = leader
    while (t[T.hand] | t[T.hand + 1] | t[T.hand + 2]) != 0:
        trick_leader = leader
        c = random_choose(state, t[T.hand + leader])
        t[T.hand + leader] ^= bit(c)
        t[T.trick] = c
        led_mask = SUIT_MASK[c & 3]
        best = c
        w = leader
        seat = leader
        for j in range(1, 3):
            seat = seat + 1 if seat < 2 else 0
            hand = t[T.hand + seat]
            f = hand & led_mask
            c = random_choose(state, f if f != 0 else hand)
            t[T.hand + seat] = hand ^ bit(c)
            t[T.trick + j] = c
            if beats(c, best, trump):
                best = c
                w = seat
        played |= bit(t[T.trick]) | bit(t[T.trick + 1]) | bit(t[T.trick + 2])
        t[T.tricks + w] += 1
        for j in range(3):
            x = t[T.trick + j]
            if (x >> 2) == JACK_RANK:
                _take_jack(t, x & 3, w, w == leader)
        t[T.n_tricks] += 1
        leader = w
    t[T.played] = played
    t[T.leader] = leader
    t[T.last_winner] = w
    turned = t[T.turned]
    if t[T.turned_jack_rule] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        _take_jack(t, turned & 3, w, w == trick_leader)


@inline
def _basic_choose1(state, t, seat, code):
    legal = legal_cards1(t, seat)
    return heuristic1_choose(t, seat, legal) if code == P_HEURISTIC else random_choose(state, legal)


@inline
def _basic_choose_trick(state, t, seat, code):
    legal = legal_cards(t, seat)
    return heuristic_card(t, seat, legal) if code == P_HEURISTIC else random_choose(state, legal)


@inline
def _played_out_lean(state, t, pol):
    """Play the deal out with a leaner loop when the lineup has one (three random players from
    the start of a trick, unchecked; heuristic players alone: they draw no card at random, so
    the play is the same); True if it did."""
    n = t[T.players]
    if t[T.check] == 0 and n == 3 and t[T.trick_len] == 0 and pol[0] == P_RANDOM and pol[1] == P_RANDOM \
            and pol[2] == P_RANDOM:
        play_out_random3(state, t)
        return True
    if pol[0] == P_HEURISTIC and pol[1] == P_HEURISTIC and (n == 2 or pol[2] == P_HEURISTIC):
        play_out_heuristic(state, t)
        return True
    return False


@loop
def play_out_basic(state, t, pol):
    """:func:`play_out` for lineups of random and heuristic players alone: the same play and
    the same draws, without the look-ahead and user-policy code compiled in."""
    if _played_out_lean(state, t, pol):
        return
    if t[T.phase] == 1:
        while True:
            seat = to_play(t)
            if play_card1(t, seat, _basic_choose1(state, t, seat, pol[seat])):
                break
        start_phase2(state, t)
    while True:
        seat = to_play(t)
        if play_card(t, seat, _basic_choose_trick(state, t, seat, pol[seat])):
            return


@loop
def play_out(state, t, pol, samples, user, scr, rs):
    """Play the deal to its end from any point of either game, seat ``s`` choosing by policy
    code ``pol[s]`` (``scr``/``rs``: the chunk's scratch, :func:`new_scratch`)."""
    if _played_out_lean(state, t, pol):
        return
    if t[T.phase] == 1:
        while True:
            seat = to_play(t)
            if play_card1(t, seat, choose1(state, t, seat, pol[seat], samples, user, scr, rs)):
                break
        start_phase2(state, t)
    while True:
        seat = to_play(t)
        if play_card(t, seat, choose_trick(state, t, seat, pol[seat], samples, user, scr, rs)):
            return


@kernel
def play_traced(state, t, pol, samples, rec, user):
    """Play ``t`` to its end, writing each trick as a row of ``rec`` (:data:`TRACE`)."""
    scr, rs = _scratch()
    i = 0
    while True:
        seat = to_play(t)
        if t[T.trick_len] == 0:
            rec[i, TR.leader] = seat
            rec[i, TR.faceup] = t[T.faceup] if t[T.phase] == 1 else -1
        c = choose(state, t, seat, pol[seat], samples, user, scr, rs)
        rec[i, TR.cards + t[T.trick_len]] = c
        done = play_any(state, t, seat, c)
        if t[T.trick_len] == 0:
            rec[i, TR.winner] = t[T.last_winner]
            i += 1
        if done:
            return


# ---- dealing ------------------------------------------------------------------------------
@kernel
def free_cards(fixed_hand, fixed_card):
    """The cards not in ``fixed_hand`` and not ``fixed_card``, and how many."""
    deck = np.empty(52, dtype=np.int64)
    m = 0
    for c in range(52):
        if (fixed_hand & bit(c)) == 0 and c != fixed_card:
            deck[m] = c
            m += 1
    return deck, m


@loop
def start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, first, check, hand0):
    """Deal the ``nfree`` cards of ``deck`` into a fresh table ``t`` (``hand0`` keeps the dealt
    hands); seat ``fixed_seat`` holds ``fixed_hand``, ``first`` is the seat left of the dealer.

    Three players: 17 cards each; ``fixed_card`` (or the card left over) is turned and names
    trump; ``first`` leads. Two players, ``start_phase`` 1: 13 cards each and a 26-card stock
    whose top (``fixed_card`` if >= 0) is face up; ``rules`` say who leads. ``start_phase`` 2:
    the table at the start of phase 2 with ``fixed_card`` the dead card that named trump, 13
    cards each, the other 25 dead (played in phase 1; their jacks out of play); ``first`` leads.
    """
    n = rules[R.players]
    size = rules[R.hand_size]
    need = nfree if (n == 3 or start_phase == 1) else size * (n - (1 if fixed_seat >= 0 else 0))
    shuffle_prefix(state, deck, min(need, nfree - 1), nfree)
    k = 0
    for s in range(n):
        if s == fixed_seat:
            hand0[s] = fixed_hand
            continue
        h = np.int64(0)
        for _ in range(size):
            h |= bit(deck[k])
            k += 1
        hand0[s] = h
    if n == 3:
        new_table(t, rules, first, fixed_card if fixed_card >= 0 else deck[k], check)
    elif start_phase == 1:
        new_table(t, rules, first if rules[R.phase1_leader] == P1LEAD_NON_DEALER else 1 - first, -1, check)
        i0 = 0
        if fixed_card >= 0:
            t[T.stock] = fixed_card
            i0 = 1
        for i in range(i0, STOCK):
            t[T.stock + i] = deck[k]
            k += 1
        open_phase1(t, first)
    else:
        new_table(t, rules, first, -1, check)
        dead = bit(fixed_card)
        while k < nfree:
            dead |= bit(deck[k])
            k += 1
        t[T.trump] = fixed_card & 3
        t[T.played] = dead
        t[T.phase1_played] = dead
        t[T.trump_card] = fixed_card
        t[T.stock_pos] = STOCK
        for s in range(4):
            if (dead & bit(JACK_RANK * 4 + s)) != 0:
                t[T.jack_taker + s] = -2
    for s in range(n):
        t[T.hand + s] = hand0[s]


@loop
def check_deal_end(t, rules, start_phase):
    """Broken invariants at the end of a deal: 0 when all is well.

    Every card was played once (or is turned, or dead), every hand is empty, the tricks
    and the scores add up. Two players: 26 cards in phase 1 and 26 in phase 2, or dead; the
    stock used up; 13 phase-2 tricks; each jack paid exactly once across both phases (or
    fallen in a phase-1 trick without ``phase1_jacks_cost``)."""
    bad = 0
    size = rules[R.hand_size]
    tp = rules[R.trick_points]
    n = t[T.players]
    expect = size * tp
    tricks = 0
    total = 0
    for s in range(n):
        if t[T.hand + s] != 0:
            bad += 1
        tricks += t[T.tricks + s]
        total += score(t, s)
    if tricks != size or t[T.n_tricks] != size:
        bad += 1
    if n == 3:
        turned = t[T.turned]
        cards = t[T.played]
        if turned >= 0:
            if (cards & bit(turned)) != 0:
                bad += 1
            cards |= bit(turned)
        if cards != FULL or popcount(t[T.played]) != 3 * size:
            bad += 1
        for s in range(4):
            expect -= rules[R.jack_penalty + s]
        if (turned >> 2) == JACK_RANK and t[T.turned_jack_rule] == 0:
            expect += rules[R.jack_penalty + (turned & 3)]
        if total != expect:
            bad += 1
        return bad + t[T.violations]
    if t[T.played] != FULL:
        bad += 1
    if popcount(t[T.phase1_played]) != STOCK or t[T.stock_pos] != STOCK or t[T.phase] != 0:
        bad += 1
    if t[T.trump_card] >= 0 and (t[T.phase1_played] & bit(t[T.trump_card])) == 0:
        bad += 1
    if start_phase == 1 and t[T.phase1_wins] + t[T.phase1_wins + 1] != size:
        bad += 1
    for s in range(4):
        taker = t[T.jack_taker + s]
        if taker >= 0:
            expect -= rules[R.jack_penalty + s]
        elif taker == -2:
            fell = (t[T.phase1_played] & bit(JACK_RANK * 4 + s)) != 0
            if not fell or (start_phase == 1 and rules[R.phase1_jacks_cost] != 0):
                bad += 1
        else:
            bad += 1
    if total != expect or t[T.penalty] + t[T.penalty + 1] != size * tp - expect:
        bad += 1
    return bad + t[T.violations]


# ---- chunk kernels ------------------------------------------------------------------------
@inline
def _jack_holders(hand0, players, held):
    """``held[s]``: the seat dealt the jack of suit ``s``, or -2 when no seat was."""
    for s in range(4):
        j = bit(JACK_RANK * 4 + s)
        held[s] = -2
        for p in range(players):
            if (hand0[p] & j) != 0:
                held[s] = p


@inline
def _record_seat(out, p, sc, pen, tr):
    """Seat ``p``'s score, penalty and tricks of one deal: sums, squares and distributions."""
    o = D.seat_sums + SEAT_SUMS * p
    out[o + SUM_SCORE] += sc
    out[o + SUM_SCORE + SQUARE] += sc * sc
    out[o + SUM_PENALTY] += pen
    out[o + SUM_PENALTY + SQUARE] += pen * pen
    out[o + SUM_TRICKS] += tr
    out[o + SUM_TRICKS + SQUARE] += tr * tr
    out[D.penalty_dist + PEN_BINS * p + min(pen, PEN_BINS - 1)] += 1
    out[D.score_dist + SCORE_BINS * p + min(max(sc + SCORE_OFFSET, 0), SCORE_BINS - 1)] += 1


@inline
def _record_seats(out, t, players):
    """Each seat's score, penalty and tricks (sums and squares) and their distributions."""
    total = 0
    for p in range(players):
        sc = score(t, p)
        pen = t[T.penalty + p]
        tr = t[T.tricks + p]
        total += sc
        _record_seat(out, p, sc, pen, tr)
    out[D.total] += total
    out[D.total_sq] += total * total


@inline
def _record_jack(out, t, s, held, hand0, trump_suit):
    """Who took the jack of suit ``s``: by seat, by its holder (by the holder's length in
    the suit and whether it is trump), by the trick's leader; out of play in bin 3."""
    taker = t[T.jack_taker + s]
    if taker < 0:
        out[D.jack_taker + TAKER_BINS * s + OUT_OF_PLAY] += 1
        return
    out[D.jack_taker + TAKER_BINS * s + taker] += 1
    out[D.in_play + s] += 1
    out[D.leader_takes + s] += t[T.jack_led + s]
    h = held[s]
    if h >= 0:
        length = popcount(hand0[h] & SUIT_MASK[s])
        o = LENGTHS * (2 * s + (1 if s == trump_suit else 0)) + length
        out[D.held + o] += 1
        if taker == h:
            out[D.holder_takes + s] += 1
            out[D.held_taken + o] += 1


@inline
def _record_phase1(out, t):
    """Two players: phase-1 tricks won, jacks fallen in phase 1 or taken face up, and who
    took each face-up card."""
    for p in range(2):
        w1 = t[T.phase1_wins + p]
        out[D.phase1_tricks + 2 * p] += w1
        out[D.phase1_tricks + 2 * p + SQUARE] += w1 * w1
    for s in range(4):
        if (t[T.phase1_jacks] & bit(JACK_RANK * 4 + s)) != 0:
            out[D.phase1_jack + s] += 1
        ft = t[T.faceup_jack_taker + s]
        if ft >= 0:
            out[D.faceup_jack + s] += 1
            if t[T.jack_taker + s] == ft:
                out[D.faceup_jack_paid + s] += 1
    x = t[T.faceup_cards]
    while x != 0:
        c = lowest(x)
        x &= x - 1
        out[D.faceup_n + c] += 1
        if (t[T.faceup_leader_won] & bit(c)) != 0:
            out[D.faceup_leader + c] += 1


@kernel
def deals_kernel(state, n, out, rules, pol, samples, fixed_seat, fixed_hand, fixed_card, start_phase, check, user):
    """``n`` deals, seat 0 left of the dealer: jack takers, scores and their distributions
    (:data:`DEALS`); two players also phase 1 and the face-up card."""
    t, deck, nfree, held, hand0 = _deal_work(fixed_hand, fixed_card)
    scr, rs = _scratch()
    _deals_loop(state, n, out, rules, pol, samples, fixed_seat, fixed_hand, fixed_card, start_phase, check, user,
                t, deck, nfree, held, hand0, scr, rs)


@inline
def _deal_work(fixed_hand, fixed_card):
    """What a deals kernel allocates once: the table, the deck, jack holders, dealt hands."""
    deck, nfree = free_cards(fixed_hand, fixed_card)
    return np.empty(TABLE_SIZE, dtype=np.int64), deck, nfree, np.empty(4, dtype=np.int64), \
        np.empty(4, dtype=np.int64)


# The deal loops allocate nothing, so they are compiled without reference counting (see the top).
@loop
def _deals_loop(state, n, out, rules, pol, samples, fixed_seat, fixed_hand, fixed_card, start_phase, check, user,
                t, deck, nfree, held, hand0, scr, rs):
    players = rules[R.players]
    for _ in range(n):
        start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check, hand0)
        _jack_holders(hand0, players, held)
        play_out(state, t, pol, samples, user, scr, rs)
        _record_deal(out, t, rules, players, held, hand0, start_phase, check)


@inline
def _record_deal(out, t, rules, players, held, hand0, start_phase, check):
    """Everything :data:`DEALS` counts about a finished deal."""
    out[D.deals] += 1
    _record_seats(out, t, players)
    trump = t[T.trump]
    for s in range(4):
        _record_jack(out, t, s, held, hand0, trump)
    if players == 2:
        _record_phase1(out, t)
    if check != 0:
        out[D.violations] += check_deal_end(t, rules, start_phase)


# Kernels compiled per kind of lineup, so a run compiles only the players it has: the same
# deals and counts as :func:`deals_kernel` for those lineups (the tests compare them).
@kernel
def deals_heuristic_kernel(state, n, out, rules, fixed_seat, fixed_hand, fixed_card, start_phase, check):
    """:func:`deals_kernel` for a lineup of heuristic players."""
    t, deck, nfree, held, hand0 = _deal_work(fixed_hand, fixed_card)
    _deals_heuristic_loop(state, n, out, rules, fixed_seat, fixed_hand, fixed_card, start_phase, check,
                          t, deck, nfree, held, hand0)


@loop
def _deals_heuristic_loop(state, n, out, rules, fixed_seat, fixed_hand, fixed_card, start_phase, check,
                          t, deck, nfree, held, hand0):
    players = rules[R.players]
    for _ in range(n):
        start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check, hand0)
        _jack_holders(hand0, players, held)
        play_out_heuristic(state, t)
        _record_deal(out, t, rules, players, held, hand0, start_phase, check)


@kernel
def deals_basic_kernel(state, n, out, rules, pol, fixed_seat, fixed_hand, fixed_card, start_phase, check):
    """:func:`deals_kernel` for a lineup of random and heuristic players."""
    t, deck, nfree, held, hand0 = _deal_work(fixed_hand, fixed_card)
    _deals_basic_loop(state, n, out, rules, pol, fixed_seat, fixed_hand, fixed_card, start_phase, check,
                      t, deck, nfree, held, hand0)


@loop
def _deals_basic_loop(state, n, out, rules, pol, fixed_seat, fixed_hand, fixed_card, start_phase, check,
                      t, deck, nfree, held, hand0):
    players = rules[R.players]
    for _ in range(n):
        start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check, hand0)
        _jack_holders(hand0, players, held)
        play_out_basic(state, t, pol)
        _record_deal(out, t, rules, players, held, hand0, start_phase, check)


@kernel
def match_kernel(state, n, out, rules, pol_a, pol_b, samples, check, user):
    """Paired strength match on the same deals (hands, turned card or stock, and phase-2
    trump draw): B in every seat, then for each seat r A in seat r and B elsewhere; out sums
    A's score minus B's in seat r over the seats (one figure per deal, :data:`MATCH`)."""
    players = rules[R.players]
    t = np.empty(TABLE_SIZE, dtype=np.int64)
    t0 = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    pol = np.empty(players, dtype=np.int64)
    base = np.empty(players, dtype=np.int64)
    scr, rs = _scratch()
    _match_loop(state, n, out, rules, pol_a, pol_b, samples, check, user, t, t0, deck, hand0, pol, base, scr, rs)


@loop
def _match_loop(state, n, out, rules, pol_a, pol_b, samples, check, user, t, t0, deck, hand0, pol, base, scr, rs):
    players = rules[R.players]
    for _ in range(n):
        start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, 0, check, hand0)
        if players == 2:
            t[T.trump_draw] = bounded(state, STOCK)
        _copy(t0, t)
        d = 0
        for r in range(-1, players):
            for s in range(players):
                pol[s] = pol_a if s == r else pol_b
            _copy(t, t0)
            play_out(state, t, pol, samples, user, scr, rs)
            if check != 0:
                out[M.violations] += check_deal_end(t, rules, 1)
            if r < 0:
                for s in range(players):
                    base[s] = score(t, s)
            else:
                a = score(t, r)
                out[M.score_a] += a
                out[M.score_b] += base[r]
                d += a - base[r]
        add_paired(out, M.deals, M.sum, M.sum_sq, M.plus, M.minus, d)


@loop
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


@kernel
def game_kernel(state, n, out, rules, pol, samples, check, max_deals, user):
    """``n`` games to ``target`` (:data:`GAME`); the last seat deals the first deal (seat 0
    leads; two players: leads phase 1 by default), the deal passes clockwise."""
    players = rules[R.players]
    t = np.empty(TABLE_SIZE, dtype=np.int64)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.empty(4, dtype=np.int64)
    totals = np.zeros(players, dtype=np.int64)
    scr, rs = _scratch()
    _game_loop(state, n, out, rules, pol, samples, check, max_deals, user, t, deck, hand0, totals, scr, rs)


@loop
def _game_loop(state, n, out, rules, pol, samples, check, max_deals, user, t, deck, hand0, totals, scr, rs):
    players = rules[R.players]
    target = rules[R.target]
    for _ in range(n):
        for s in range(players):
            totals[s] = 0
        dealer = players - 1
        deals = 0
        winner = -1
        while winner < 0 and deals < max_deals:
            first = seat_after(dealer, 1, players)
            start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, first, check, hand0)
            play_out(state, t, pol, samples, user, scr, rs)
            if check != 0:
                out[G.violations] += check_deal_end(t, rules, 1)
            for s in range(players):
                totals[s] += score(t, s)
            deals += 1
            dealer = first
            winner = game_winner(totals, players, target)
        out[G.games] += 1
        if winner >= 0:
            out[G.win + winner] += 1
            out[G.deals_hist + deals] += 1
        else:
            out[G.unfinished] += 1
            out[G.deals_hist + MAX_DEALS] += 1
        out[G.deals] += deals
        out[G.deals_sq] += deals * deals


# ---- three random players: the lean chunk kernel ----------------------------------------------
@kernel
def deals_random3_kernel(state, n, out, rules):
    """:func:`deals_kernel` for three random players, unchecked, nothing fixed: the same random
    draws and the same counts (the tests compare both), in a loop that keeps a deal in
    registers and small arrays instead of the table, and skips what random play never reads
    (shown voids, the played mask)."""
    _deals_random3_loop(state, n, out, rules, np.arange(52, dtype=np.int64), np.empty((8, 4), dtype=np.int64))


@inline
def _follow_at_random(state, hands, seat, led_mask):
    """``seat`` plays a random card of the led suit if it has one, else any card."""
    h = hands[seat]
    f = h & led_mask
    c = random_choose(state, f if f != 0 else h)
    hands[seat] = h ^ bit(c)
    return c


@loop
def _deals_random3_loop(state, n, out, rules, deck, work):
    hands = work[0]
    hand0 = work[1]
    tricks = work[2]
    pen = work[3]
    taker = work[4]
    led = work[5]
    jpen = work[6]
    for s in range(4):
        jpen[s] = rules[R.jack_penalty + s]
    tp = rules[R.trick_points]
    turned_last = rules[R.turned_jack] == 1
    for _ in range(n):
        shuffle_prefix(state, deck, 51, 52)
        k = 0
        for p in range(3):
            h = np.int64(0)
            for _i in range(17):
                h |= bit(deck[k])
                k += 1
            hand0[p] = h
            hands[p] = h
            tricks[p] = 0
            pen[p] = 0
        turned = deck[51]
        trump = turned & 3
        for s in range(4):
            taker[s] = -1
        if (turned >> 2) == JACK_RANK:
            taker[trump] = -2
        leader = 0
        w = 0
        trick_leader = 0
        for _t in range(17):
            c0 = random_choose(state, hands[leader])
            hands[leader] ^= bit(c0)
            led_mask = SUIT_MASK[c0 & 3]
            best = c0
            w = leader
            s1 = leader + 1 if leader < 2 else 0
            c1 = _follow_at_random(state, hands, s1, led_mask)
            if beats(c1, best, trump):
                best = c1
                w = s1
            s2 = s1 + 1 if s1 < 2 else 0
            c2 = _follow_at_random(state, hands, s2, led_mask)
            if beats(c2, best, trump):
                w = s2
            tricks[w] += 1
            jk = (bit(c0) | bit(c1) | bit(c2)) & JACKS
            while jk != 0:  # rare: four jacks in 17 tricks
                s = lowest(jk) & 3
                jk &= jk - 1
                pen[w] += jpen[s]
                taker[s] = w
                led[s] = 1 if w == leader else 0
            trick_leader = leader
            leader = w
        if turned_last and (turned >> 2) == JACK_RANK:
            pen[w] += jpen[trump]
            taker[trump] = w
            led[trump] = 1 if w == trick_leader else 0
        out[D.deals] += 1
        total = 0
        for p in range(3):
            pe = pen[p]
            tr = tricks[p]
            sc = tr * tp - pe
            total += sc
            _record_seat(out, p, sc, pe, tr)
        out[D.total] += total
        out[D.total_sq] += total * total
        for s in range(4):
            tk = taker[s]
            if tk < 0:
                out[D.jack_taker + TAKER_BINS * s + OUT_OF_PLAY] += 1
                continue
            out[D.jack_taker + TAKER_BINS * s + tk] += 1
            out[D.in_play + s] += 1
            out[D.leader_takes + s] += led[s]
            j = bit(JACK_RANK * 4 + s)
            h = 0 if (hand0[0] & j) != 0 else (1 if (hand0[1] & j) != 0 else (2 if (hand0[2] & j) != 0 else -1))
            if h >= 0:
                o = LENGTHS * (2 * s + (1 if s == trump else 0)) + popcount(hand0[h] & SUIT_MASK[s])
                out[D.held + o] += 1
                if tk == h:
                    out[D.holder_takes + s] += 1
                    out[D.held_taken + o] += 1
