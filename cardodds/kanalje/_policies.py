"""Kanalje's built-in policies, compiled: random, heuristic, look-ahead, and the call of a user's policy.

A policy is ``policy(state, seat, view, legal) -> card`` (see ``policies.py``); a user's
compiled policy (:data:`POLICY_SIGNATURE`; None when there is none) and the
look-ahead and ``pimc`` searches (:data:`SEARCH_SIGNATURE`) reach the kernels as their last
argument, :func:`calls`, and are called through a pointer, as the heuristic lineups' deal loop
calls their play-out (:data:`PLAY_OUT_HEURISTIC`). The play-outs, which play a deal to its end
by these policies, are in :mod:`._play`. Where a table is never in phase 1, the functions'
``phase1`` argument is None and they compile no two-player phase-1 code (:func:`._table.phase1_arg`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import types

from .._jit import Pointer, callback, first_use, helper, inline, inlined, loop
from .._random import bounded, next_u64, shuffle_prefix
from ._bits import FULL, JACK_RANK, JACKS, SUIT_MASK, above, below, bit, highest, lowest, nth_card, popcount
from ._table import (
    STOCK,
    TABLE_SIZE,
    T,
    copy_into,
    legal_cards,
    legal_cards1,
    play_card,
    play_card1,
    score,
    seat_after,
    start_phase2,
    to_play,
    trick_winner_index,
)
from ._search import (
    MAX_ENDGAME,
    SOLVE_ROWS,
    SOLVE_WIDTH,
    endgame_score,
    endgame_tricks,
    lowest_of_runs,
    tricks_left,
)


# ---- policies -----------------------------------------------------------------------------
P_RANDOM, P_HEURISTIC, P_LOOKAHEAD, P_USER, P_PIMC = 0, 1, 2, 3, 4


# ---- scratch: what a look-ahead or user decision works in, allocated once per chunk ----------------
#: Rows of the int64 scratch (:func:`new_scratch`): the sampled world, the table a candidate is
#: played out on, a user policy's view, the candidate cards, their totals, a shuffle pool; from
#: row ``SOLVE`` the exact end-of-deal search's stack (:mod:`._search`).
WORLD, PLAY, VIEW, CANDS, TOTALS, POOL, SOLVE = range(7)
SCRATCH_ROWS = SOLVE + SOLVE_ROWS
SCRATCH_WIDTH = max(TABLE_SIZE, 52)
assert 4 * (3 * MAX_ENDGAME + 1) <= SCRATCH_WIDTH  # the search's value vectors, 4 a ply, fit a row
assert SOLVE_WIDTH <= SCRATCH_WIDTH  # and its transposition table's rows
#: Rows of the uint64 scratch: the random state a world's play-outs share, and its copy per candidate.
SUB, SUB_COPY = 0, 1


# ---- the heuristic player -----------------------------------------------------------------
@inline
def _unseen(t, seat):
    """Cards the seat cannot see: in other players' hands (the turned card is public)."""
    x = FULL & ~(t[T.hand + seat] | t[T.played])
    if t[T.turned] >= 0:
        x &= ~bit(t[T.turned])
    return x


@helper
def _non_jack_low(mask):
    nj = mask & ~JACKS
    return lowest(nj) if nj != 0 else lowest(mask)


@helper
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
    """The rule-based player (documented in ``policies.py``)."""
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


@loop(forceinline=True)
def heuristic_card(t, seat, legal):
    """:func:`heuristic_choose` compiled once, as a function of its own that LLVM inlines into
    every caller (``forceinline``): every play-out and every lineup's heuristic seats share one
    compile of the heuristic (``benchmarks/RESULTS_compile.md``)."""
    return heuristic_choose(t, seat, legal)


@inline
def sure_cards(cards, unseen):
    """The cards of ``cards`` that no ``unseen`` card of their suit outranks (phase 1: a lead
    nobody can beat)."""
    sure = np.int64(0)
    x = cards
    while x != 0:
        c = lowest(x)
        x &= x - 1
        if (unseen & above(c)) == 0:
            sure |= bit(c)
    return sure


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
            sure = sure_cards(nonjack, unseen)
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


@inline
def _phase1_heuristic(state, t, first):
    """Two players in phase 1: the seat to play plays ``first`` (-1: none), then both play the
    heuristic to the phase's end, and phase 2 starts. Returns ``first`` if still to play, else -1."""
    if t[T.phase] == 1:
        while True:
            seat = to_play(t)
            c = first if first >= 0 else heuristic1_choose(t, seat, legal_cards1(t, seat))
            first = -1
            if play_card1(t, seat, c):
                break
        start_phase2(state, t)
    return first


@loop
def play_heuristic_until(state, t, depth, first, phase1):
    """The seat to play plays ``first`` (-1: none; an option or candidate being valued), then
    every seat plays the heuristic, from any point of either game, until ``depth`` tricks are
    left (0: to the end of the deal; ``state`` draws only the two-player phase-2 trump). The
    card plays are inlined into this loop, and so is the heuristic (:func:`heuristic_card`, by
    LLVM); this loop is inlined into the two play-outs called through a pointer
    (:func:`play_out_heuristic`, and the heuristic advice's, :func:`._advise.play_out_options`):
    every other heuristic play-out calls it straight (a wrapper would only add compile time)."""
    if phase1 is not None:
        first = _phase1_heuristic(state, t, first)
    while first >= 0 or depth == 0 or tricks_left(t) > depth:
        seat = to_play(t)
        c = first if first >= 0 else heuristic_card(t, seat, legal_cards(t, seat))
        first = -1
        if play_card(t, seat, c):
            return


play_heuristic_until_inlined = inlined(play_heuristic_until)


def play_out_heuristic(state, t):
    """Every seat plays the heuristic to the end of the deal (returns 0): the all-heuristic deals
    loop calls it through a pointer (:data:`PLAY_OUT_HEURISTIC`), so that it compiles once, beside
    the loop (in a second process, :mod:`cardodds._two_process_compile`), instead of once on its own and again
    inside the loop. :func:`play_heuristic_until` is inlined here with its ``depth`` and
    ``first`` constant, which LLVM folds (faster than a call)."""
    play_heuristic_until_inlined(state, t, 0, -1, True)
    return 0


#: ``play_out(state, t) -> 0``: a whole play-out as a deals loop calls it through a pointer.
PLAY_OUT_SIGNATURE = types.int64(types.uint64[::1], types.int64[::1])
PLAY_OUT_HEURISTIC = Pointer(play_out_heuristic, PLAY_OUT_SIGNATURE)


@inline
def exact_value(state, t, seat, c, scr, phase1, endgame):
    """``seat``'s score at the end of the deal after it plays ``c`` in the world ``t`` (every
    hand known): the heuristic for every seat until :func:`._search.endgame_tricks` tricks
    are left, then the exact search (``endgame``, :data:`ENDGAME`; the score itself when the
    deal is over). ``t`` is played on. Inlined into the ``pimc`` player, its one caller: as a
    function of its own it would be optimised once more before being linked, for no speed."""
    play_heuristic_until(state, t, endgame_tricks(t), c, phase1)
    return endgame(t, seat, scr, SOLVE)


def _no_endgame(t, seat, scr, base):
    """Stands in for the exact search in a lineup without ``pimc`` (never called there)."""
    return 0


#: ``endgame(t, seat, scr, base) -> score``: the exact end-of-deal search
#: (:func:`._search.endgame_score`) as the ``pimc`` player calls it, through a pointer: the
#: search compiles once, on its own, beside the player (in a second process,
#: :mod:`cardodds._two_process_compile`), instead of once more inside the player that linked it.
ENDGAME_SIGNATURE = types.int64(types.int64[::1], types.int64, types.int64[:, ::1], types.int64)
ENDGAME = Pointer(endgame_score, ENDGAME_SIGNATURE)
NO_ENDGAME = Pointer(_no_endgame, ENDGAME_SIGNATURE)


# ---- the look-ahead player ----------------------------------------------------------------
@inline
def sample_phase1(state, t, seat, w, a):
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
def sample_world(state, t, seat, w, pool, phase1):
    """Copy ``t`` into ``w`` with what ``seat`` cannot see redealt at random, consistently with
    what it has seen (``pool``: 52 int64 of scratch). In the two-player phase 2 nothing is
    hidden (every other card lies in the phase-1 tricks or my hand): the world is the true deal."""
    copy_into(w, t)
    if phase1 is not None and t[T.phase] == 1:
        sample_phase1(state, t, seat, w, pool)
    elif t[T.players] == 3:
        _sample_three(state, t, seat, w)


@inline
def representatives(t, seat, legal):
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
    # my cards of other suits ranked between two cards separate them too: the heuristic
    # compares its cards across suits (highest side card), which interchanging would reorder
    return lowest_of_runs(legal, JACKS | ~seen, t[T.hand + seat])


@inline
def candidates(t, seat, legal, cands, totals):
    """The cards worth playing out (:func:`representatives`) into ``cands``, lowest first, and
    their ``totals`` zeroed: how many."""
    k = 0
    x = representatives(t, seat, legal)
    while x != 0:
        cands[k] = lowest(x)
        totals[k] = 0
        x &= x - 1
        k += 1
    return k


def new_scratch():
    """The scratch a chunk's look-ahead and user decisions work in: (int64 rows, uint64 rows)."""
    return np.zeros((SCRATCH_ROWS, SCRATCH_WIDTH), dtype=np.int64), np.zeros((2, 4), dtype=np.uint64)


@helper
def scratch():
    return np.zeros((SCRATCH_ROWS, SCRATCH_WIDTH), dtype=np.int64), np.zeros((2, 4), dtype=np.uint64)


@inline
def sampled_choose(state, t, seat, legal, samples, scr, rs, exact, phase1, endgame):
    """Sample the unseen cards ``samples`` times; in each world play every legal card and
    then the heuristic for everybody to the end of the deal (through phase 2 from phase 1,
    with the same phase-2 trump draw for every candidate: a paired comparison); pick the
    best total score. Interchangeable cards (:func:`representatives`) are played out once.
    ``exact`` (the ``pimc`` player, a constant where it is inlined): the last tricks of each
    play-out are solved exactly (:func:`exact_value`, by ``endgame``); a world with nothing
    hidden (the two-player phase 2) is solved once.
    ``scr``/``rs`` are the chunk's scratch (:func:`new_scratch`): nothing is allocated here
    (compiled without reference counting, numba would refuse an allocation), and the random
    draws are those of a comparison of every card, whatever is skipped. Inlined into each
    player (:func:`lookahead_choose`, :func:`pimc_choose`) with ``exact`` a constant, so numba
    prunes the other player's play-outs: the look-ahead compiles no exact search."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    w = scr[WORLD]
    w2 = scr[PLAY]
    cands = scr[CANDS]
    totals = scr[TOTALS]
    sub = rs[SUB]
    s2 = rs[SUB_COPY]
    k = candidates(t, seat, legal, cands, totals)
    p1 = t[T.phase] == 1
    worlds = 1 if exact and not p1 and t[T.players] == 2 else samples  # nothing hidden: one world
    for _ in range(worlds):
        sample_world(state, t, seat, w, scr[POOL], phase1)
        w[T.check] = 0
        if p1:
            for j in range(4):
                sub[j] = next_u64(state)
        if k == 1:
            continue  # the draws above keep the random stream of a full comparison
        for i in range(k):
            copy_into(w2, w)
            copy_into(s2, sub)
            if exact:
                totals[i] += exact_value(s2, w2, seat, cands[i], scr, phase1, endgame)
            else:
                play_heuristic_until(s2, w2, 0, cands[i], phase1)
                totals[i] += score(w2, seat)
    best = 0
    for i in range(1, k):
        if totals[i] > totals[best]:  # ties to the lowest card
            best = i
    return cands[best]


@loop
def lookahead_choose(state, t, seat, legal, samples, scr, rs, endgame):
    """The look-ahead player's card (:func:`sampled_choose`, heuristic play-outs)."""
    return sampled_choose(state, t, seat, legal, samples, scr, rs, False, True, endgame)


@loop
def pimc_choose(state, t, seat, legal, samples, scr, rs, endgame):
    """The ``pimc`` player's card: perfect-information Monte Carlo, the look-ahead's worlds with
    the last tricks of every play-out solved exactly (:func:`sampled_choose`)."""
    return sampled_choose(state, t, seat, legal, samples, scr, rs, True, True, endgame)


# The same players for a table never in phase 1 (three players, two in phase 2): no phase-1 code.
@loop
def lookahead_choose_trick_play(state, t, seat, legal, samples, scr, rs, endgame):
    return sampled_choose(state, t, seat, legal, samples, scr, rs, False, None, endgame)


@loop
def pimc_choose_trick_play(state, t, seat, legal, samples, scr, rs, endgame):
    return sampled_choose(state, t, seat, legal, samples, scr, rs, True, None, endgame)


def _no_search(state, t, seat, legal, samples, scr, rs, endgame):
    """Stands in for the searches of a lineup that has none (never called there)."""
    return lowest(legal)


#: ``search(state, t, seat, legal, samples, scr, rs, endgame) -> card``: the look-ahead and
#: ``pimc`` players as the kernels call them, through a pointer of this type (:func:`calls`);
#: ``endgame``, the exact search ``pimc`` calls (:data:`ENDGAME`).
SEARCH_SIGNATURE = types.int64(types.uint64[::1], types.int64[::1], types.int64, types.int64, types.int64,
                               types.int64[:, ::1], types.uint64[:, ::1], types.FunctionType(ENDGAME_SIGNATURE))
LOOKAHEAD = Pointer(lookahead_choose, SEARCH_SIGNATURE)
PIMC = Pointer(pimc_choose, SEARCH_SIGNATURE)
LOOKAHEAD_TRICK_PLAY = Pointer(lookahead_choose_trick_play, SEARCH_SIGNATURE)
PIMC_TRICK_PLAY = Pointer(pimc_choose_trick_play, SEARCH_SIGNATURE)
NO_SEARCH = Pointer(_no_search, SEARCH_SIGNATURE)


class Calls(NamedTuple):
    """What the kernels call through a pointer (:func:`calls`). A named tuple: numba types a
    plain tuple of functions by unifying them, with a warning that the feature is experimental."""

    user: object
    lookahead: object
    pimc: object
    endgame: object


def calls(user, codes, phase1=True) -> Calls:
    """The kernels' ``calls`` argument for a lineup of policy ``codes``: the user's compiled
    policy (:func:`~.view.compile_policy`; None without one, and no kernel compiles its call) and
    the searches. A search the lineup does not have
    is never called, and is another search of the lineup or :data:`NO_SEARCH`, so that a run
    compiles only the searches it has; so with the exact end-of-deal search ``pimc`` calls,
    the larger (:data:`ENDGAME`, or :data:`NO_ENDGAME`).
    ``phase1``: the kernels' own; None, the searches without phase-1 code.

    >>> calls(None, [P_LOOKAHEAD, P_HEURISTIC, P_HEURISTIC]).pimc
    Pointer(cardodds.kanalje._policies.lookahead_choose)
    >>> calls(None, [P_PIMC, P_HEURISTIC, P_HEURISTIC], None).pimc
    Pointer(cardodds.kanalje._policies.pimc_choose_trick_play)
    """
    have = {int(c) for c in codes}
    look = (LOOKAHEAD if phase1 else LOOKAHEAD_TRICK_PLAY) if P_LOOKAHEAD in have else None
    pimc = (PIMC if phase1 else PIMC_TRICK_PLAY) if P_PIMC in have else None
    either = look or pimc or NO_SEARCH
    return Calls(user, look or either, pimc or either, ENDGAME if pimc else NO_ENDGAME)


def lookahead_calls_type():
    """Numba's type of :func:`calls` for a look-ahead lineup without a user's policy whose
    deals are never in phase 1 (``cardodds._two_process_compile`` names it in the advisor's part)."""
    from numba import typeof

    return typeof(calls(None, [P_LOOKAHEAD], None))


# ---- the user's policy ----------------------------------------------------------------------
#: ``policy(state, seat, view, legal) -> card``: the kernels call a user's policy through a
#: pointer of this type, so they are compiled (and cached) once, whatever the policy.
POLICY_SIGNATURE = types.int64(types.uint64[::1], types.int64, types.int64[::1], types.int64)


def _no_user_policy(state, seat, view, legal):
    """Stands in for a user's policy in runs without one (never called there)."""
    return lowest(legal)


# ``no_user_policy`` is compiled on first use: only the kernels that take a user's policy need it,
# and random or heuristic runs never do.
__getattr__ = first_use(__name__, no_user_policy=lambda: callback(POLICY_SIGNATURE)(_no_user_policy))


@loop
def user_view(t, seat, v):
    """The table as ``seat`` may see it, written into ``v``: the other hands hidden (zeroed); in
    phase 1 also the stock under the face-up card and the cards dealt face down (-1)."""
    copy_into(v, t)
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
    process's heap was corrupted (a crash at the next allocation). ``user`` None (a run without a
    user's policy, which never asks): numba compiles neither the view nor the call."""
    if user is None:
        return lowest(legal)
    v = scr[VIEW]
    user_view(t, seat, v)
    return user(state, seat, v, legal)


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
def _choose_drawn(state, t, seat, code, samples, calls, legal, scr, rs):
    """The card of a random, look-ahead, ``pimc`` or user policy (the same in either phase);
    ``calls``: :class:`Calls`."""
    if code == P_RANDOM:
        return random_choose(state, legal)
    if code == P_LOOKAHEAD:
        return calls.lookahead(state, t, seat, legal, samples, scr, rs, calls.endgame)
    if code == P_PIMC:
        return calls.pimc(state, t, seat, legal, samples, scr, rs, calls.endgame)
    return _user_card(state, t, seat, legal, calls.user, scr)


@loop
def choose(state, t, seat, code, samples, calls, scr, rs, phase1):
    """The card policy ``code`` plays for ``seat`` now, in either phase (``calls``: the user's
    policy and the searches, :func:`calls`). A call per card: ``._play.play_out`` serves lineups
    with a look-ahead, ``pimc`` or user player, whose decisions cost far more than the call."""
    if phase1 is not None and t[T.phase] == 1:
        legal = legal_cards1(t, seat)
        if code == P_HEURISTIC:
            return heuristic1_choose(t, seat, legal)
    else:
        legal = legal_cards(t, seat)
        if code == P_HEURISTIC:
            return heuristic_card(t, seat, legal)
    return _choose_drawn(state, t, seat, code, samples, calls, legal, scr, rs)
