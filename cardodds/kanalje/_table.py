"""Kanalje's table mechanics, compiled: the table, legal cards, tricks, dealing, the records of a deal.

Everything here works on int64 scalars and arrays, no validation (the public functions in
``analysis.py`` and ``play.py`` check their input). A hand is a 52-bit mask (:mod:`._bits`).

The state of a deal in progress is one int64 array, the *table*, laid out by :data:`TABLE`
(offsets ``T.name``; :mod:`cardodds.kanalje.view` shows it to user policies). Three players
and two are one engine: the table carries the player count and, for two players
(docs/rules/kanalje.md §4), the phase; phase 1 has its own card play (:func:`play_card1`),
phase 2 is the three-player trick play with two seats. Every loop switches on those fields, so a look-ahead
player can copy the table at any point of either game and play it out. The policies that
choose the cards are in :mod:`._policies`; the chunk kernels in :mod:`._kernels` and :mod:`._play`.
"""

from __future__ import annotations

import numpy as np

from .._jit import helper, inline, inlined, linked, loop
from .._random import bounded, shuffle_prefix
from ..layout import Layout
from ._bits import FULL, JACK_RANK, JACKS, SUIT_MASK, bit, lowest, nth_card, popcount
from ._counts import (
    DEALS,
    LENGTHS,
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
)
from .rules import PHASE1_LEADER_CHOICES, PHASE2_LEADER_CHOICES, PHASE2_TRUMP_CHOICES, R


#: ``(name, size, meaning)`` of every table field.
FIELDS = (
    ("hand", 4, "hand mask of seats 0..3 (unused seats 0; other seats' hands 0 in a policy's view)"),
    ("players", 1, "players at the table, 3 or 2"),
    ("trump", 1, "trump suit, -1 for none (two players: none in phase 1)"),
    ("leader", 1, "seat that led the current trick"),
    ("trick_len", 1, "cards in the current trick"),
    ("trick", 4, "cards of the current trick in playing order"),
    ("played", 1, "mask of every card played so far (finished tricks and the current one)"),
    ("void", 4, "per seat: suits (bit s) the seat has shown void in by not following"),
    ("tricks", 4, "per seat: tricks taken (two players: in phase 2)"),
    ("penalty", 4, "per seat: jack penalties paid"),
    ("jack_taker", 4, "per suit: seat that took that jack, -1 not yet, -2 out of play"),
    ("jack_led", 4, "per suit: 1 when the jack's taker had led that trick"),
    ("turned", 1, "the face-up turned card (three players), -1 for none"),
    ("n_tricks", 1, "tricks finished (two players: in phase 2)"),
    ("last_winner", 1, "winner of the last finished trick, -1 before the first"),
    ("known", 4, "per seat: cards everybody knows to be in that hand (face-up stock cards it took)"),
    ("turned_jack_rule", 1, "0: a turned jack is dead; 1: it goes to the last trick's winner"),
    ("jack_penalty", 4, "per suit: the penalty of that jack"),
    ("trick_points", 1, "points per trick taken"),
    ("violations", 1, "broken invariants counted so far (checked play, illegal policy answers)"),
    ("check", 1, "1: every card played is checked to be legal and present"),
    ("phase", 1, "two players: 1 while phase 1 is played, else 0"),
    ("faceup", 1, "two players, phase 1: the face-up stock card, -1 for none"),
    ("stock_pos", 1, "two players: index in the stock of the face-up card (26: stock used up)"),
    ("phase1_jacks_cost", 1, "two players: 1 when jacks in phase-1 tricks cost their winner"),
    ("trump_card", 1, "two players: the dead phase-1 trick card that named the phase-2 trump, -1 for none"),
    ("faceup_jack_taker", 4, "two players, per suit: seat that took that jack face up from the stock, -1"),
    ("phase1_wins", 2, "two players, per seat: phase-1 tricks won"),
    ("faceup_cards", 1, "two players: mask of the cards that were face up in phase 1"),
    ("faceup_leader_won", 1, "two players: of those, the ones the trick's leader won"),
    ("phase1_played", 1, "two players: mask of the phase-1 trick cards"),
    ("phase1_jacks", 1, "two players: mask of the jacks that fell in phase-1 tricks"),
    ("stock", 26, "two players: the stock from its top (a policy sees -1 below the face-up card "
                  "and at the positions dealt face down)"),
    ("trump_draw", 1, "two players: preset draw 0..25 of the phase-2 trump card, -1 to draw it then"),
    ("phase2_leader", 1, "two players: who leads phase 2, 0 the last phase-1 trick's winner, 1 the non-dealer"),
    ("phase2_trump", 1, "two players: 0 the phase-2 trump is a drawn phase-1 trick card, 1 no trump"),
    ("non_dealer", 1, "two players: the non-dealer's seat"),
)

#: The table layout.
TABLE = Layout("kanalje table", [(n, s) for n, s, _ in FIELDS])
#: Offsets of the table fields by name: ``view[T.hand + seat]``, ``view[T.trump]``.
T = TABLE.at
TABLE_SIZE = TABLE.size
D = DEALS.at


# Functions that allocate nothing are compiled with ``@loop`` (no reference counting, see
# cardodds/_jit.py): the reference counts took three quarters of a look-ahead decision's time.
# Only the chunk kernels, which allocate their tables, keep it.

# ---- two-player rule choices, as ``KanaljeRules.pack`` packs them ------------------------------
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


#: :func:`beats` compiled on its own and linked: LLVM makes it a select, not a branch, which is
#: faster in the random players' loops (their trick winners defeat a branch predictor); the
#: heuristic's table moves keep the inlined branch, faster there.
beats_linked = linked(beats)


@inline
def legal_cards(t, seat):
    """Follow suit if able, else anything (trumping allowed, never forced)."""
    hand = t[T.hand + seat]
    if t[T.trick_len] == 0:
        return hand
    f = hand & SUIT_MASK[t[T.trick] & 3]
    return f if f != 0 else hand


@helper
def seat_after(seat, k, n):
    """The seat ``k`` places clockwise after ``seat`` (0 <= k < n); no division, which
    would cost more than the rest of a card play."""
    s = seat + k
    return s - n if s >= n else s


@inline
def copy_into(dst, src):
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
def take_jack(t, s, seat, led):
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
            take_jack(t, x & 3, w, w == leader)
    t[T.leader] = w
    t[T.trick_len] = 0
    t[T.n_tricks] += 1
    t[T.last_winner] = w
    if (t[T.hand] | t[T.hand + 1] | t[T.hand + 2] | t[T.hand + 3]) != 0:  # unused seats hold 0
        return False
    turned = t[T.turned]
    if t[T.turned_jack_rule] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        take_jack(t, turned & 3, w, w == leader)
    return True


@inline
def score(t, seat):
    return t[T.tricks + seat] * t[T.trick_points] - t[T.penalty + seat]


# ==== two players, phase 1 (docs/rules/kanalje.md §4.3) ==============================================
# No trump, no duty to follow suit, but the second player may not play a jack of a suit other
# than the led suit; the highest card of the led suit wins; the winner takes the face-up stock
# card, the loser the next one face down; the next is turned. Phase 2 is the trick play above
# with two seats and a trump drawn from the 26 phase-1 trick cards.
@inline
def legal_cards1(t, seat):
    """Phase 1: anything, except that the second player may not play a jack of a suit other
    than the led suit. A second player holding nothing else plays one of those jacks
    (docs/rules/kanalje.md §4.3: the rule cannot be kept)."""
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
                take_jack(t, x & 3, w, w == leader)
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


# ==== one engine for both games ===============================================================
def phase1_arg(players, start_phase):
    """The kernels' ``phase1`` argument for deals of ``players`` from ``start_phase``: True where
    a deal starts in phase 1 (two players), else None, where no table reaches phase 1 (three
    players, or two from phase 2) and numba compiles no phase-1 code: ``phase1 is not None`` is
    a branch it leaves out where the argument is None (what it saves a first call:
    ``docs/performance.md``, row P8).

    >>> phase1_arg(3, 0), phase1_arg(2, 1), phase1_arg(2, 2)
    (None, True, None)
    """
    return True if players == 2 and start_phase == 1 else None


@loop
def play_any(state, t, seat, c, phase1):
    """``seat`` plays ``c`` in whichever phase; phase 2 starts as soon as phase 1 ends
    (``phase1``: None where the table is never in phase 1, :func:`phase1_arg`).
    Returns True when the deal is over. A call, not inlined: it serves the places that play
    one card and then a whole play-out (an option, a candidate, a traced card), where a call
    costs nothing, and the two card plays are compiled here once instead of at each of them."""
    if phase1 is not None and t[T.phase] == 1:
        if play_card1(t, seat, c):
            start_phase2(state, t)
        return False
    return play_card(t, seat, c)


# ---- dealing ------------------------------------------------------------------------------
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


# ---- records: what the deals kernels count about a finished deal -------------------------------
@inline
def jack_holders(hand0, players, held):
    """``held[s]``: the seat dealt the jack of suit ``s``, or -2 when no seat was."""
    for s in range(4):
        j = bit(JACK_RANK * 4 + s)
        held[s] = -2
        for p in range(players):
            if (hand0[p] & j) != 0:
                held[s] = p


@inline
def record_seat(out, p, sc, pen, tr):
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
        record_seat(out, p, sc, pen, tr)
    out[D.total] += total
    out[D.total_sq] += total * total


@inline
def _record_jacks(out, t, held, hand0):
    """Who took each jack: by seat, by its holder (by the holder's length in the suit and
    whether it is trump), by the trick's leader; out of play in bin 3."""
    trump_suit = t[T.trump]
    for s in range(4):
        taker = t[T.jack_taker + s]
        if taker < 0:
            out[D.jack_taker + TAKER_BINS * s + OUT_OF_PLAY] += 1
            continue
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


@loop
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


@loop
def record_deal(out, t, players, held, hand0, phase1):
    """Everything :data:`DEALS` counts about a finished deal but its broken invariants (the
    deals loops add :func:`check_deal_end` in checked runs), the seats' and jacks' records
    inlined: one call a deal, compiled once, for every deals loop but the heuristic players'.
    ``phase1`` (:func:`phase1_arg`) None: no phase-1 records, which a deal from phase 2 leaves at 0."""
    out[D.deals] += 1
    _record_seats(out, t, players)
    _record_jacks(out, t, held, hand0)
    if phase1 is not None and players == 2:
        _record_phase1(out, t)


# Only the heuristic players' deals loop inlines the deal and its records: its deals are short
# enough for two calls to show; inlined everywhere they would cost much compile time.
start_deal_inlined = inlined(start_deal)
record_deal_inlined = inlined(record_deal)
