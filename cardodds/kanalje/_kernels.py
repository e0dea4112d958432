"""The chunk kernels of :mod:`cardodds.kanalje.analysis`: deals played out and counted.

One call plays ``n`` deals from one random state and adds their counts to ``out``
(:data:`~._counts.DEALS`): :func:`deals_kernel` for any lineup, and the same deals and counts
compiled per kind of lineup (all heuristic, random and heuristic, three random players), so
a run compiles only the players it has. The table mechanics are in :mod:`._table`, the
policies in :mod:`._policies`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._jit import inline, loop
from .._random import shuffle_prefix
from ._bits import JACK_RANK, JACKS, SUIT_MASK, bit, lowest, popcount
from ._counts import DEALS, LENGTHS, OUT_OF_PLAY, TAKER_BINS
from ._play import play_out_basic, play_out_searching
from ._policies import PLAY_OUT_HEURISTIC, new_scratch, random_choose
from ._table import (
    TABLE_SIZE,
    beats_linked,
    check_deal_end,
    jack_holders,
    phase1_arg,
    record_deal,
    record_deal_inlined,
    record_seat,
    start_deal,
    start_deal_inlined,
)
from .rules import R

D = DEALS.at
#: What every deal of a run starts from: the seat whose hand is given (-1 none), that hand
#: (card bits), the turned or face-up card given (-1 none), the phase the deal starts in.
Fixed = namedtuple("Fixed", ["seat", "hand", "card", "phase"])
#: What a deals kernel allocates once: the table, the deck (the free cards first), how many,
#: jack holders, dealt hands.
DealWork = namedtuple("DealWork", ["t", "deck", "nfree", "held", "hand0"])


def deals_kernel(state, n, out, rules, pol, samples, fixed_seat, fixed_hand, fixed_card, start_phase, check, calls):
    """``n`` deals, seat 0 left of the dealer: jack takers, scores and their distributions
    (:data:`DEALS`); two players also phase 1 and the face-up card.

    Plain Python around the compiled loop, as every deals kernel: numba would link the loop into a
    compiled kernel and optimise it all again. ``calls``: :func:`._policies.calls` for these deals."""
    _deals_loop(state, n, out, rules, pol, samples, Fixed(fixed_seat, fixed_hand, fixed_card, start_phase), calls,
                deal_work(fixed_hand, fixed_card), new_scratch(), _checked(check),
                phase1_arg(rules[R.players], start_phase))


def deal_work(fixed_hand, fixed_card) -> DealWork:
    """The :data:`DealWork` of a run whose deals fix ``fixed_hand`` and ``fixed_card``."""
    free = [c for c in range(52) if (int(fixed_hand) >> c) & 1 == 0 and c != fixed_card]
    deck = np.zeros(52, dtype=np.int64)
    deck[:len(free)] = free
    return DealWork(np.empty(TABLE_SIZE, dtype=np.int64), deck, len(free), np.empty(4, dtype=np.int64),
                    np.empty(4, dtype=np.int64))


# The deal loops allocate nothing, so they are compiled without reference counting (see cardodds/_jit.py).
@loop(from_python=True)
def _deals_loop(state, n, out, rules, pol, samples, fixed, calls, work, scratch, checked, phase1):
    """The deals of :func:`deals_kernel`; ``scratch`` is :func:`._policies.new_scratch`'s."""
    players = rules[R.players]
    check = 0 if checked is None else 1
    fixed_seat, fixed_hand, fixed_card, start_phase = fixed
    t, deck, nfree, held, hand0 = work
    scr, rs = scratch
    for _ in range(n):
        start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check, hand0)
        jack_holders(hand0, players, held)
        play_out_searching(state, t, pol, samples, calls, scr, rs, phase1)
        record_deal(out, t, players, held, hand0, phase1)
        if checked is not None:
            out[D.violations] += check_deal_end(t, rules, start_phase)


def _checked(check):
    """None for an unchecked run: the deal loops then compile no check of the deal's end
    (:func:`._table.check_deal_end`)."""
    return True if check else None


# Kernels compiled per kind of lineup, so a run compiles only the players it has: the same
# deals and counts as :func:`deals_kernel` for those lineups (the tests compare them).
def deals_heuristic_kernel(state, n, out, rules, fixed_seat, fixed_hand, fixed_card, start_phase, check):
    """:func:`deals_kernel` for a lineup of heuristic players, whose play-out the loop calls
    through a pointer (:data:`._policies.PLAY_OUT_HEURISTIC`)."""
    _deals_heuristic_loop(state, n, out, rules, Fixed(fixed_seat, fixed_hand, fixed_card, start_phase), check,
                          PLAY_OUT_HEURISTIC, deal_work(fixed_hand, fixed_card), _checked(check))


# noalias: its one caller allocates the tables, so LLVM may keep the random state in
# registers across the deck's and the table's writes
@loop(noalias=True, from_python=True)
def _deals_heuristic_loop(state, n, out, rules, fixed, check, play_out, work, checked):
    players = rules[R.players]
    fixed_seat, fixed_hand, fixed_card, start_phase = fixed
    t, deck, nfree, held, hand0 = work
    for _ in range(n):
        start_deal_inlined(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check,
                           hand0)
        jack_holders(hand0, players, held)
        play_out(state, t)
        record_deal_inlined(out, t, players, held, hand0, True)
        if checked is not None:
            out[D.violations] += check_deal_end(t, rules, start_phase)


def deals_basic_kernel(state, n, out, rules, pol, fixed_seat, fixed_hand, fixed_card, start_phase, check):
    """:func:`deals_kernel` for a lineup of random and heuristic players."""
    _deals_basic_loop(state, n, out, rules, pol, Fixed(fixed_seat, fixed_hand, fixed_card, start_phase), check,
                      deal_work(fixed_hand, fixed_card), _checked(check))


@loop(from_python=True)
def _deals_basic_loop(state, n, out, rules, pol, fixed, check, work, checked):
    players = rules[R.players]
    fixed_seat, fixed_hand, fixed_card, start_phase = fixed
    t, deck, nfree, held, hand0 = work
    for _ in range(n):
        start_deal(state, t, deck, nfree, rules, fixed_seat, fixed_hand, fixed_card, start_phase, 0, check, hand0)
        jack_holders(hand0, players, held)
        play_out_basic(state, t, pol)
        record_deal(out, t, players, held, hand0, True)
        if checked is not None:
            out[D.violations] += check_deal_end(t, rules, start_phase)


# ---- three random players: the lean chunk kernel ----------------------------------------------
def deals_random3_kernel(state, n, out, rules):
    """:func:`deals_kernel` for three random players, unchecked, nothing fixed: the same random
    draws and the same counts (the tests compare both), in a loop that keeps a deal in
    registers and small arrays instead of the table, and skips what random play never reads
    (shown voids, the played mask). Its tables allocated here, as every deals kernel's."""
    _deals_random3_loop(state, n, out, rules, np.arange(52, dtype=np.int64), np.empty((8, 4), dtype=np.int64))


@inline
def _follow_at_random(state, hands, seat, led_mask):
    """``seat`` plays a random card of the led suit if it has one, else any card."""
    h = hands[seat]
    f = h & led_mask
    c = random_choose(state, f if f != 0 else h)
    hands[seat] = h ^ bit(c)
    return c


@loop(from_python=True)
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
            if beats_linked(c1, best, trump):
                best = c1
                w = s1
            s2 = s1 + 1 if s1 < 2 else 0
            c2 = _follow_at_random(state, hands, s2, led_mask)
            if beats_linked(c2, best, trump):
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
            record_seat(out, p, sc, pe, tr)
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
