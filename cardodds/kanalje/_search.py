"""Kanalje's exact end-of-deal solver, compiled: the perfect-information search of the ``pimc`` player.

:func:`endgame_score` plays the rest of a deal whose every hand is known (a sampled world)
perfectly: each seat, at each of its cards, plays the card that maximises its own points for
the rest of the deal, every seat reasoning the same way (*max-n*, docs/rules/kanalje.md §3 scoring: +1 a
trick, the jacks' penalties to their takers, a turned jack to the last trick's winner under
``turned_jack="last_trick"``). Max-n rather than *paranoid* (everybody else against me): in
Kanalje each player scores for itself and a jack one opponent takes is a jack the other one
does not, so the other two do not play as one; a paranoid search would duck jacks and
tricks it never has to. Ties go to the lowest card, so the search is deterministic.

The search is a depth-first loop over an explicit stack kept in rows of the chunk's scratch
(:data:`SOLVE_ROWS` rows of ``scr`` from row ``base``): it allocates nothing and is compiled
without reference counting (``@loop``, see ``cardodds/_jit.py``). It works on the table in
place (hands taken out and put back), so the table is as it was when it returns. Cards of
one suit in one hand with no card of that suit still in play between them (no jack among
them) take the same tricks whatever is played: only the lowest of each such run is searched.
The last three tricks are not searched ply by ply: where they start, loops over the first
trick's cards solve them (:func:`_three_tricks`), and where the last two start, a loop over
their at most eight first tricks (:func:`_two_tricks`), both through the table. With two
players the seats share a fixed total, so a node is cut against any node above (alpha-beta);
the second seat of a trick tries first the reply most often best (:func:`_reply_first`); one
value is searched in the last three tricks, with the last two directly
(:func:`_three_tricks_two`), and the reply before them by a loop (:func:`_reply_then_three`).
"""

from __future__ import annotations

import numpy as np

from .._jit import inline, loop
from ._bits import JACK_RANK, JACKS, SUIT_MASK, above, below, bit, highest, lowest, popcount
from ._table import T, score, seat_after

#: Rows of scratch the search uses, from its ``base`` row: per ply the cards still to try,
#: the card tried (shifted by :data:`OFF`, room for the trick in progress at the root), the
#: seat to play, the trick's leader and length before the card, the trick's winner (-1 while
#: the trick is open) and what it gained, whether a value was offered, the best value vector
#: (4 a ply), the points gained so far per seat (then the total still to share, :data:`SUM`,
#: the key bits of the rules, :data:`RULE_BITS`, and a turned jack's penalty,
#: :data:`LAST_PEN`), the node's transposition-table slot (-1: none, or a cut node), the
#: least and the most any seat can still gain from the node, with two players what each seat
#: already has for sure at a node above and that node (4 a ply); then the transposition
#: table (:data:`TT_ROWS` rows).
MOVES, CARDS, MOVER, LEADER, TLEN, WIN, GAIN, HAVE, BEST, ACC, SLOT, LOW, HIGH, ALPHA, TT = range(15)
#: Columns of the ``ACC`` row past the four seats.
SUM, RULE_BITS, LAST_PEN, PENS = 4, 5, 6, 8
#: The transposition table: entries of 8 int64 (the key: its tag and the three hands; the
#: value: what each seat gains from there, or with two cards a hand the two tricks' winners
#: and gains), 8 to a row, :data:`TT_ENTRIES` of them.
TT_ENTRIES = 2048
TT_ROWS = TT_ENTRIES // 8
SOLVE_ROWS = TT + TT_ROWS
SOLVE_WIDTH = 64
#: Where ply 0's card sits in the ``CARDS`` row: the cards of the trick in progress before it.
OFF = 4
#: Beyond any value.
FAR = np.int64(1) << 40
#: The most tricks the search is asked to solve (the scratch rows are sized for it).
MAX_ENDGAME = 5
#: Tricks left when the ``pimc`` player stops the heuristic and solves the rest exactly. Three
#: players: the whole rest at a decision :data:`LAST_THREE` tricks from the end or nearer,
#: :data:`ENDGAME_THREE` tricks at one :data:`NEAR_THREE` or nearer, :data:`ENDGAME_THREE_FAR`
#: before: four tricks at every decision cost three times as much and were no stronger, three
#: were weaker, and the whole rest from five no weaker (``benchmarks/RESULTS_pimc.md``). Two
#: players, whose tricks have two cards: :data:`ENDGAME_TWO` (four from phase 1 is weaker).
ENDGAME_THREE_FAR = 3
ENDGAME_THREE = 4
NEAR_THREE = 7
LAST_THREE = 5
ENDGAME_TWO = 5
assert max(LAST_THREE, ENDGAME_TWO) <= MAX_ENDGAME


@inline
def tricks_left(t):
    """Tricks still to finish in the trick play (the current one included)."""
    return popcount(t[T.hand + seat_after(t[T.leader], t[T.trick_len], t[T.players])])


@inline
def endgame_tricks(t):
    """The tricks the ``pimc`` player solves exactly at the end of a play-out from the
    decision at ``t``."""
    if t[T.players] == 2:
        return ENDGAME_TWO
    left = tricks_left(t)
    return LAST_THREE if left <= LAST_THREE else (ENDGAME_THREE if left <= NEAR_THREE else ENDGAME_THREE_FAR)


@inline
def lowest_of_runs(legal, separating, across):
    """Of the non-jacks of ``legal`` in each suit, the lowest of every run of cards that no
    card of ``separating`` lies between and no card of ``across`` in another suit ranks
    between (0: none); every jack of ``legal`` is kept."""
    reps = legal & JACKS
    for s in range(4):
        m = legal & SUIT_MASK[s] & ~JACKS
        last = -1
        while m != 0:
            c = lowest(m)
            m &= m - 1
            if last < 0 or (above(last) & below(c) & separating) != 0 \
                    or (across & ~SUIT_MASK[s] & (bit(c) - 1) & ~((bit(last) << 1) - 1)) != 0:
                reps |= bit(c)
            last = c
    return reps


@loop(forceinline=True)
def _moves(t, mover, led, inplay):
    """The cards ``mover`` may play worth searching: follow suit if able (``led`` is the
    trick's first card, -1 when leading); of non-jacks of a suit with no card of that suit
    in ``inplay`` between them, the lowest (they take the same tricks: the search compares
    cards within a suit, and trumps). Branch-free: each card looks down its suit through the
    cards out of play (a fill doubling its reach, 1, 2, 4 then 8 ranks) for a card it plays."""
    hand = t[T.hand + mover]
    legal = hand
    if led >= 0:
        f = hand & SUIT_MASK[led & 3]
        if f != 0:
            legal = f
    x = legal & ~JACKS
    if (x & (x - 1)) == 0:
        return legal
    fill = x
    gap = ~inplay
    fill |= gap & (fill << 4)
    gap &= gap << 4
    fill |= gap & (fill << 8)
    gap &= gap << 8
    fill |= gap & (fill << 16)
    gap &= gap << 16
    fill |= gap & (fill << 32)
    return legal & ~(x & (fill << 4))


@loop(forceinline=True)
def _in_play(t, scr, base, p, tlen):
    """Every card still in a hand or in the trick in progress."""
    x = t[T.hand] | t[T.hand + 1] | t[T.hand + 2] | t[T.hand + 3]
    for i in range(tlen):
        x |= bit(scr[base + CARDS, OFF + p - tlen + i])
    return x


@loop(forceinline=True)
def _offer(scr, base, p, n, src_row, src_off):
    """Offer node ``p`` the value vector at ``scr[src_row, src_off:]``: kept when it is the
    first or better for the seat to play there (ties to the card tried first, the lowest)."""
    best = scr[base + BEST]
    src = scr[src_row]
    mover = scr[base + MOVER, p]
    if scr[base + HAVE, p] == 0 or src[src_off + mover] > best[4 * p + mover]:
        for s in range(n):
            best[4 * p + s] = src[src_off + s]
        scr[base + HAVE, p] = 1


@loop(forceinline=True)
def _cut(scr, base, p, n):
    """Node ``p`` (the points gained so far its own, in the ``ACC`` row) stops trying cards
    when none can change what is chosen: when its seat has its best all it can still gain,
    or (*shallow pruning*, sound because what is left to gain is a fixed total) when what
    its best leaves the seat above cannot beat that seat's best; with two players, the best
    of any seat above that chose (alpha-beta). A node cut that way is not exact, nor are the
    nodes between it and the one it was cut against (never stored); that one keeps its best,
    ties included."""
    if scr[base + MOVES, p] == 0:
        return
    acc = scr[base + ACC]
    mover = scr[base + MOVER, p]
    v = scr[base + BEST, 4 * p + mover]
    if v >= acc[mover] + scr[base + HIGH, p]:
        scr[base + MOVES, p] = 0
    elif p > 0 and scr[base + HAVE, p - 1] != 0:
        j = scr[base + MOVER, p - 1]
        if j != mover:
            bound = acc[SUM] - v  # the most the seat above can end with here
            if n == 3:
                bound -= acc[3 - mover - j] + scr[base + LOW, p]
            if bound <= scr[base + BEST, 4 * (p - 1) + j]:
                scr[base + MOVES, p] = 0
                scr[base + SLOT, p] = -1
    if n == 2 and scr[base + MOVES, p] != 0 and acc[SUM] - v <= scr[base + ALPHA, 4 * p + 1 - mover]:
        # alpha-beta: two seats share a fixed total, so a cut against any node above is sound;
        # the nodes between that one and this are no longer exact (never stored)
        scr[base + MOVES, p] = 0
        _inexact(scr, base, p, scr[base + ALPHA, 4 * p + 3 - mover])


@loop(forceinline=True)
def _inexact(scr, base, p, q):
    """The nodes below node ``q`` down to node ``p``: not exact, never stored."""
    for r in range(q + 1, p + 1):
        scr[base + SLOT, r] = -1


@loop(forceinline=True)
def _tag(t, scr, base, leader):
    """The transposition key's first word: the leader, the trump and the rules' bits."""
    return leader | ((t[T.trump] + 1) << 2) | (scr[base + ACC, RULE_BITS] << 5) | (np.int64(1) << 62)


@loop(forceinline=True)
def _slot(t, tag):
    """The transposition table's slot for the position at a trick's start."""
    x = (t[T.hand] * np.int64(-7046029254386353131)) ^ (t[T.hand + 1] * np.int64(-4658895280553007687)) \
        ^ (t[T.hand + 2] * np.int64(6364136223846793005)) ^ (tag * np.int64(-3335678366873096957))
    return (x >> 40) & (TT_ENTRIES - 1)


@loop(forceinline=True)
def _probe(t, scr, base, tag, k):
    """Is the entry of slot ``k`` the position of ``t`` with this ``tag``?"""
    row = scr[base + TT + (k >> 3)]
    o = (k & 7) * 8
    return row[o] == tag and row[o + 1] == t[T.hand] and row[o + 2] == t[T.hand + 1] \
        and row[o + 3] == t[T.hand + 2]


@loop(forceinline=True)
def _key(t, row, o, tag):
    """Write the position's key (``tag`` and the three hands) into the entry at ``row[o:]``."""
    row[o] = tag
    row[o + 1] = t[T.hand]
    row[o + 2] = t[T.hand + 1]
    row[o + 3] = t[T.hand + 2]


@loop(forceinline=True)
def _store(t, scr, base, p, n):
    """Node ``p`` (a trick's start, exact) is searched: what each seat gains from it, stored."""
    k = scr[base + SLOT, p]
    row = scr[base + TT + (k >> 3)]
    o = (k & 7) * 8
    _key(t, row, o, _tag(t, scr, base, scr[base + LEADER, p]))
    for s in range(n):
        row[o + 4 + s] = scr[base + BEST, 4 * p + s] - scr[base + ACC, s]


@loop(forceinline=True)
def _two_tricks_stored(t, n, scr, base, leader, trump, tp, last_pen):
    """:func:`_two_tricks` through the transposition table (its entries hold the winners and
    gains of the two tricks: a position with two cards a hand has no other kind of entry)."""
    tag = _tag(t, scr, base, leader)
    k = _slot(t, tag)
    row = scr[base + TT + (k >> 3)]
    o = (k & 7) * 8
    if _probe(t, scr, base, tag, k):
        return row[o + 4], row[o + 5], row[o + 6], row[o + 7]
    wa, ga, wb, gb = _two_tricks(t, n, leader, trump, tp, last_pen)
    _key(t, row, o, tag)
    row[o + 4] = wa
    row[o + 5] = ga
    row[o + 6] = wb
    row[o + 7] = gb
    return wa, ga, wb, gb


@loop(forceinline=True)
def _open(t, n, scr, base, p, leader, tlen, slot):
    """Start node ``p``: its seat to play, the cards it will try, its table slot and bounds."""
    mover = seat_after(leader, tlen, n)
    scr[base + MOVER, p] = mover
    led = scr[base + CARDS, OFF + p - tlen] if tlen > 0 else -1
    inplay = _in_play(t, scr, base, p, tlen)
    scr[base + MOVES, p] = _moves(t, mover, led, inplay)
    scr[base + HAVE, p] = 0
    scr[base + SLOT, p] = slot
    tp = t[T.trick_points]
    lose = scr[base + ACC, PENS + ((inplay >> (4 * JACK_RANK)) & 15)] + scr[base + ACC, LAST_PEN]
    # a seat gains at most a point a trick left, and loses at most every penalty left, less
    # the trick it takes with them
    scr[base + HIGH, p] = tp * popcount(t[T.hand + mover])  # the mover has a card a trick left
    if n == 2:  # what each seat has for sure above (its best where it chose), and at which node
        alpha = scr[base + ALPHA]
        for j in range(2):
            a = alpha[4 * p - 4 + j] if p > 0 else -FAR
            q = alpha[4 * p - 2 + j] if p > 0 else -1
            if p > 0 and scr[base + HAVE, p - 1] != 0 and scr[base + MOVER, p - 1] == j \
                    and scr[base + BEST, 4 * p - 4 + j] > a:
                a = scr[base + BEST, 4 * p - 4 + j]
                q = p - 1
            alpha[4 * p + j] = a
            alpha[4 * p + 2 + j] = q
    scr[base + LOW, p] = min(0, tp - lose) if lose > 0 else 0


@loop(forceinline=True)
def _take_back(t, scr, base, p):
    """Undo ply ``p``'s card: back into its hand, its trick's gain (if it closed one) taken off."""
    t[T.hand + scr[base + MOVER, p]] |= bit(scr[base + CARDS, OFF + p])
    w = scr[base + WIN, p]
    if w >= 0:
        scr[base + ACC, w] -= scr[base + GAIN, p]


@loop(forceinline=True)
def _back(t, scr, base, p, n, left):
    """Back at node ``p`` from its child: ply ``p``'s card undone, then :func:`_cut`. Returns
    the cards left, the trick's leader and length at node ``p``."""
    _take_back(t, scr, base, p)
    _cut(scr, base, p, n)
    return left + 1, scr[base + LEADER, p], scr[base + TLEN, p]


@inline
def _pen(t, x):
    """Card ``x``'s penalty: its jack's, else 0 (no branch)."""
    return t[T.jack_penalty + (x & 3)] * np.int64((x >> 2) == JACK_RANK)


@loop(forceinline=True)
def _last_trick(t, n, leader, trump, tp, last_pen, left):
    """The last trick, one card a seat, led by ``leader``: forced, scored from the hands
    without being searched (``left`` 0: no trick, nothing gained). Returns its winner and
    gain twice (the leaf's two tricks, :func:`_two_tricks`, the second gaining nothing)."""
    if left == 0:
        return 0, 0, 0, 0
    x0 = lowest(t[T.hand + leader])
    x1 = lowest(t[T.hand + seat_after(leader, 1, n)])
    x2 = lowest(t[T.hand + seat_after(leader, 2, n)]) if n == 3 else x1
    g = tp - last_pen - _pen(t, x0) - _pen(t, x1) - (_pen(t, x2) if n == 3 else 0)
    return seat_after(leader, _winner(n, trump, x0, x1, x2), n), g, 0, 0


@inline
def _rank_key(x, led, trump, i):
    """Card ``x``'s strength in a trick of suit ``led`` (a trump above the led suit above the
    rest, then by rank), with its place ``i`` in the two low bits: no branch."""
    return ((x >> 2) << 2 | np.int64((x & 3) == led) << 6 | np.int64((x & 3) == trump) << 7) | i


@inline
def _winner_of(n, trump, led, x0, x1, x2):
    """The index of the card taking a trick of suit ``led`` of the cards ``x0 x1 x2`` (``x2``
    unused with two seats): the greatest :func:`_rank_key`, compared without a branch. The
    order of the cards is the seats', whoever led: the taking card is the only one of its kind."""
    k = max(_rank_key(x0, led, trump, 0), _rank_key(x1, led, trump, 1))
    if n == 3:
        k = max(k, _rank_key(x2, led, trump, 2))
    return k & 3


@inline
def _winner(n, trump, x0, x1, x2):
    """The index (0 the leader) of the card taking the trick ``x0 x1 x2``, led by ``x0``."""
    return _winner_of(n, trump, x0 & 3, x0, x1, x2)


@loop(forceinline=True)
def _two_tricks(t, n, leader, trump, tp, last_pen):
    """The last two tricks from their start, two cards a hand, solved directly (max-n, ties
    to the lowest card: the search's choices): each seat's every legal card, in a loop of at
    most eight first tricks rather than a search. Returns each trick's winner (seat) and gain.
    The two tricks' penalties add up to those of the six cards, so the second's gain follows
    from the first's; each card's penalty is read once, and the second trick's taker is found
    in the seats' order, with the suit its leader plays."""
    s1 = seat_after(leader, 1, n)
    s2 = seat_after(leader, 2, n) if n == 3 else leader
    h0 = t[T.hand + leader]
    h1 = t[T.hand + s1]
    h2 = t[T.hand + s2] if n == 3 else np.int64(0)
    a0, a1, b0, b1 = lowest(h0), highest(h0), lowest(h1), highest(h1)
    c0 = lowest(h2) if n == 3 else a0
    c1 = highest(h2) if n == 3 else a0
    pa0, pa1, pb0, pb1 = _pen(t, a0), _pen(t, a1), _pen(t, b0), _pen(t, b1)
    pc0 = _pen(t, c0) if n == 3 else 0
    pc1 = _pen(t, c1) if n == 3 else 0
    both = tp + tp - last_pen - pa0 - pa1 - pb0 - pb1 - pc0 - pc1
    none = -FAR  # below any value: the first card tried is kept
    bw1 = bg1 = bw2 = 0
    v0 = none
    for i in range(2):
        x0, r0, p0 = (a0, a1, pa0) if i == 0 else (a1, a0, pa1)
        led = x0 & 3
        f1 = np.int64((b0 & 3) == led) | np.int64((b1 & 3) == led) << 1
        l1 = f1 if f1 != 0 else 3  # the cards seat 1 may play, by their index
        f2 = np.int64((c0 & 3) == led) | np.int64((c1 & 3) == led) << 1
        l2 = (f2 if f2 != 0 else 3) if n == 3 else 1
        cw1 = cg1 = cw2 = 0
        v1 = none
        for j in range(2):
            if (l1 >> j) & 1 == 0:
                continue
            x1, r1, p1 = (b0, b1, pb0) if j == 0 else (b1, b0, pb1)
            dw1 = dg1 = dw2 = 0
            v2 = none
            for k in range(2):
                if (l2 >> k) & 1 == 0:
                    continue
                x2, r2, p2 = (c0, c1, pc0) if k == 0 else (c1, c0, pc1)
                w1 = _winner_of(n, trump, led, x0, x1, x2)
                g1 = tp - p0 - p1 - (p2 if n == 3 else 0)
                w2 = _winner_of(n, trump, (r0 if w1 == 0 else (r1 if w1 == 1 else r2)) & 3, r0, r1, r2)
                v = (g1 if w1 == 2 else 0) + (both - g1 if w2 == 2 else 0)
                if v > v2 or n == 2:
                    dw1, dg1, dw2, v2 = w1, g1, w2, v
            v = (dg1 if dw1 == 1 else 0) + (both - dg1 if dw2 == 1 else 0)
            if v > v1:
                cw1, cg1, cw2, v1 = dw1, dg1, dw2, v
        v = (cg1 if cw1 == 0 else 0) + (both - cg1 if cw2 == 0 else 0)
        if v > v0:
            bw1, bg1, bw2, v0 = cw1, cg1, cw2, v
    return seat_after(leader, bw1, n), bg1, seat_after(leader, bw2, n), both - bg1


@inline
def _of(s, v0, v1, v2):
    """Seat ``s``'s entry of the value vector ``(v0, v1, v2)`` (no array: kept in registers)."""
    return v0 if s == 0 else (v1 if s == 1 else v2)


@inline
def _reply_first(n, trump, led, m):
    """Of the cards ``m``, the one a trick's second seat tries first: with two players the
    lowest non-jack that takes a trick led by a non-jack, else the lowest that leaves a led
    jack to the leader (the other seat's best reply is often one of these, and its trying it
    first cuts sooner); the lowest with three, whose ties go to the lowest card. The two
    seats share a fixed total, so the order changes no value."""
    if n != 2:
        return lowest(m)
    ls = led & 3
    follow = m & SUIT_MASK[ls]
    if follow != 0:
        win = follow & above(led)
    elif trump >= 0 and ls != trump:
        win = m & SUIT_MASK[trump]
    else:
        win = np.int64(0)
    prefer = (win & ~JACKS) if (led >> 2) != JACK_RANK else (m & ~win)
    return lowest(prefer) if prefer != 0 else lowest(m)


@loop(forceinline=True)
def _three_tricks(t, scr, base, leader, trump, tp, last_pen):
    """Three players: the last three tricks from their start (three cards a hand), solved by
    loops over the first trick's cards worth trying (:func:`_moves`), each ending in the last
    two tricks (:func:`_two_tricks_stored`): what each seat gains, as a vector of three
    (max-n, ties to the lowest card: the search's choices, and its value). Loops rather than
    the search's stack: most of a search's nodes were these, and each kept its state in memory."""
    s1 = seat_after(leader, 1, 3)
    s2 = seat_after(leader, 2, 3)
    inplay = t[T.hand] | t[T.hand + 1] | t[T.hand + 2]
    b0 = b1 = b2 = np.int64(0)
    first0 = True
    m0 = _moves(t, leader, -1, inplay)
    while m0 != 0:
        x0 = lowest(m0)
        m0 &= m0 - 1
        t[T.hand + leader] ^= bit(x0)
        c0 = c1 = c2 = np.int64(0)
        first1 = True
        m1 = _moves(t, s1, x0, inplay)
        while m1 != 0:
            x1 = lowest(m1)
            m1 &= m1 - 1
            t[T.hand + s1] ^= bit(x1)
            d0 = d1 = d2 = np.int64(0)
            first2 = True
            m2 = _moves(t, s2, x0, inplay)
            while m2 != 0:
                x2 = lowest(m2)
                m2 &= m2 - 1
                t[T.hand + s2] ^= bit(x2)
                w = seat_after(leader, _winner(3, trump, x0, x1, x2), 3)
                g = tp - _pen(t, x0) - _pen(t, x1) - _pen(t, x2)
                wa, ga, wb, gb = _two_tricks_stored(t, 3, scr, base, w, trump, tp, last_pen)
                t[T.hand + s2] ^= bit(x2)
                e0 = (g if w == 0 else 0) + (ga if wa == 0 else 0) + (gb if wb == 0 else 0)
                e1 = (g if w == 1 else 0) + (ga if wa == 1 else 0) + (gb if wb == 1 else 0)
                e2 = (g if w == 2 else 0) + (ga if wa == 2 else 0) + (gb if wb == 2 else 0)
                if first2 or _of(s2, e0, e1, e2) > _of(s2, d0, d1, d2):
                    d0, d1, d2 = e0, e1, e2
                    first2 = False
            t[T.hand + s1] ^= bit(x1)
            if first1 or _of(s1, d0, d1, d2) > _of(s1, c0, c1, c2):
                c0, c1, c2 = d0, d1, d2
                first1 = False
        t[T.hand + leader] ^= bit(x0)
        if first0 or _of(leader, c0, c1, c2) > _of(leader, b0, b1, b2):
            b0, b1, b2 = c0, c1, c2
            first0 = False
    return b0, b1, b2


@inline
def _three_tricks_two(t, leader, trump, tp, last_pen):
    """:func:`_three_tricks` for two players: the two seats share a fixed total, so one value
    is searched, the leader's gain (max over its cards, min over the replies), and a reply
    stops the loop when it leaves the leader no more than a card tried before. Returns the
    leader's gain and the other seat's."""
    s1 = 1 - leader
    h0 = t[T.hand + leader]
    h1 = t[T.hand + s1]
    inplay = h0 | h1
    best = -FAR
    total = 0
    m0 = _moves(t, leader, -1, inplay)
    while m0 != 0:
        x0 = lowest(m0)
        m0 &= m0 - 1
        t[T.hand + leader] = h0 ^ bit(x0)
        worst = FAR
        m1 = _moves(t, s1, x0, inplay)
        while m1 != 0:
            x1 = _reply_first(2, trump, x0, m1)
            m1 &= ~bit(x1)
            t[T.hand + s1] = h1 ^ bit(x1)
            w = leader if _winner(2, trump, x0, x1, x1) == 0 else s1
            g = tp - _pen(t, x0) - _pen(t, x1)
            wa, ga, wb, gb = _two_tricks(t, 2, w, trump, tp, last_pen)
            total = g + ga + gb
            v = (g if w == leader else 0) + (ga if wa == leader else 0) + (gb if wb == leader else 0)
            worst = min(worst, v)
            if worst <= best:
                break
        t[T.hand + s1] = h1
        best = max(best, worst)
    t[T.hand + leader] = h0
    return best, total - best


@loop
def _three_tricks_stored(t, n, scr, base, leader, trump, tp, last_pen):
    """:func:`_three_tricks` through the transposition table (an entry at a trick's start
    holds what each seat gains from there, as the search stores it)."""
    tag = _tag(t, scr, base, leader)
    k = _slot(t, tag)
    row = scr[base + TT + (k >> 3)]
    o = (k & 7) * 8
    if _probe(t, scr, base, tag, k):
        return row[o + 4], row[o + 5], row[o + 6]
    if n == 2:
        a, b = _three_tricks_two(t, leader, trump, tp, last_pen)
        v0, v1, v2 = (a, b, np.int64(0)) if leader == 0 else (b, a, np.int64(0))
    else:
        v0, v1, v2 = _three_tricks(t, scr, base, leader, trump, tp, last_pen)
    _key(t, row, o, tag)  # after the loops, whose entries may have taken this slot
    row[o + 4] = v0
    row[o + 5] = v1
    row[o + 6] = v2
    return v0, v1, v2


@inline
def _reply_then_three(t, scr, base, p, x0, trump, tp, last_pen):
    """Two players, node ``p`` having led ``x0`` to the fourth-to-last trick: the reply's node
    solved by a loop over its cards (each ending in :func:`_three_tricks_stored`) rather than
    on the stack, cut as :func:`_cut` would (against the best of the leader above), and its
    best offered to node ``p``."""
    acc = scr[base + ACC]
    o = scr[base + MOVER, p]
    f = 1 - o
    inplay = t[T.hand] | t[T.hand + 1] | bit(x0)
    alpha = scr[base + ALPHA, 4 * p + o]
    q = scr[base + ALPHA, 4 * p + 2 + o]
    if scr[base + HAVE, p] != 0 and scr[base + BEST, 4 * p + o] > alpha:
        alpha = scr[base + BEST, 4 * p + o]
        q = p
    bf = -FAR
    bo = np.int64(0)
    m1 = _moves(t, f, x0, inplay)
    while m1 != 0:
        x1 = _reply_first(2, trump, x0, m1)
        m1 &= ~bit(x1)
        t[T.hand + f] ^= bit(x1)
        w = o if _winner(2, trump, x0, x1, x1) == 0 else f
        g = tp - _pen(t, x0) - _pen(t, x1)
        v0, v1, v2 = _three_tricks_stored(t, 2, scr, base, w, trump, tp, last_pen)
        t[T.hand + f] ^= bit(x1)
        vf = acc[f] + (g if w == f else 0) + (v1 if f == 1 else v0)
        if vf > bf:
            bf = vf
            bo = acc[o] + (g if w == o else 0) + (v1 if o == 1 else v0)
        if acc[SUM] - bf <= alpha:
            _inexact(scr, base, p, q)
            break
    best = scr[base + BEST]
    best[4 * p + 4 + f] = bf
    best[4 * p + 4 + o] = bo
    _offer(scr, base, p, 2, base + BEST, 4 * (p + 1))


@loop
def endgame_score(t, seat, scr, base):
    """``seat``'s score at the end of the deal ``t`` (three players, or two in phase 2) when
    every seat plays the rest perfectly for itself (max-n, every hand known). ``scr`` rows
    ``base`` .. ``base + SOLVE_ROWS``: the search's stack and its transposition table, whose
    entries stay valid for any later call (their key is the whole position and the rules);
    at most :data:`MAX_ENDGAME` tricks. The last three tricks are solved where they start
    (:func:`_three_tricks`), the last alone (forced) where a search begins inside the one
    before it. A position at a trick's start is searched once (the table), and a node
    stops when no card left can change what the seats above it choose (:func:`_cut`): the
    same value vectors as the full search, so the same choices, ties included
    (``tests/test_kanalje_pimc.py`` against brute force)."""
    n = t[T.players]
    trump = t[T.trump]
    left = 0
    for s in range(n):
        left += popcount(t[T.hand + s])
    if left == 0:
        return score(t, seat)
    turned = t[T.turned]
    last_pen = 0  # the turned jack's penalty, paid by the last trick's winner
    if t[T.turned_jack_rule] == 1 and turned >= 0 and (turned >> 2) == JACK_RANK:
        last_pen = t[T.jack_penalty + (turned & 3)]
    cards = scr[base + CARDS]
    acc = scr[base + ACC]
    leader = t[T.leader]
    tlen = t[T.trick_len]
    for i in range(tlen):
        cards[OFF - tlen + i] = t[T.trick + i]
    for s in range(4):
        acc[s] = 0
    tp = t[T.trick_points]
    acc[LAST_PEN] = last_pen
    acc[RULE_BITS] = tp | (t[T.jack_penalty] << 7) | (t[T.jack_penalty + 1] << 14) \
        | (t[T.jack_penalty + 2] << 21) | (t[T.jack_penalty + 3] << 28) | (last_pen << 35) | (n << 42)
    inplay = _in_play(t, scr, base, 0, tlen)
    acc[PENS] = 0
    for j in range(1, 16):  # the penalties of every set of jacks, by their four bits
        acc[PENS + j] = acc[PENS + (j & (j - 1))] + t[T.jack_penalty + lowest(np.int64(j))]
    acc[SUM] = tp * (popcount(inplay) // n) - acc[PENS + ((inplay >> (4 * JACK_RANK)) & 15)] - last_pen
    if tlen == 0 and left == 2 * n:
        wa, ga, wb, gb = _two_tricks(t, n, leader, trump, tp, last_pen)
        return score(t, seat) + (ga if wa == seat else 0) + (gb if wb == seat else 0)
    if tlen == 0 and left == 3 * n:
        v0, v1, v2 = _three_tricks_stored(t, n, scr, base, leader, trump, tp, last_pen)
        return score(t, seat) + _of(seat, v0, v1, v2)
    slot = -1
    if tlen == 0 and left > n:
        tag = _tag(t, scr, base, leader)
        slot = _slot(t, tag)
        if _probe(t, scr, base, tag, slot):
            return score(t, seat) + scr[base + TT + (slot >> 3), (slot & 7) * 8 + 4 + seat]
    p = 0
    _open(t, n, scr, base, 0, leader, tlen, slot)
    while True:
        m = scr[base + MOVES, p]
        if m == 0:  # node p searched: its best vector is offered to its parent
            if scr[base + SLOT, p] >= 0:
                _store(t, scr, base, p, n)
            if p == 0:
                break
            p -= 1
            _offer(scr, base, p, n, base + BEST, 4 * (p + 1))
            left, leader, tlen = _back(t, scr, base, p, n, left)
            continue
        c = _reply_first(n, trump, cards[OFF + p - 1], m) if tlen == 1 else lowest(m)
        scr[base + MOVES, p] = m & ~bit(c)
        cards[OFF + p] = c
        scr[base + LEADER, p] = leader
        scr[base + TLEN, p] = tlen
        scr[base + WIN, p] = -1
        t[T.hand + scr[base + MOVER, p]] ^= bit(c)
        left -= 1
        tlen += 1
        if tlen == n:
            first = OFF + p - n + 1
            x0 = cards[first]
            x1 = cards[first + 1]
            x2 = cards[first + 2] if n == 3 else x1
            g = tp - _pen(t, x0) - _pen(t, x1) - (_pen(t, x2) if n == 3 else 0)
            if left == 0:
                g -= last_pen
            w = seat_after(leader, _winner(n, trump, x0, x1, x2), n)
            acc[w] += g
            scr[base + WIN, p] = w
            scr[base + GAIN, p] = g
            leader = w
            tlen = 0
        elif n == 2 and left == 7:  # the reply closing the trick before the last three: a loop
            _reply_then_three(t, scr, base, p, c, trump, tp, last_pen)
            left, leader, tlen = _back(t, scr, base, p, n, left)
            continue
        if tlen == 0 and left == 3 * n:  # three tricks left: solved by loops, a leaf
            v0, v1, v2 = _three_tricks_stored(t, n, scr, base, leader, trump, tp, last_pen)
            acc[0] += v0
            acc[1] += v1
            acc[2] += v2
            _offer(scr, base, p, n, base + ACC, 0)
            acc[0] -= v0
            acc[1] -= v1
            acc[2] -= v2
            left, leader, tlen = _back(t, scr, base, p, n, left)
            continue
        if tlen == 0 and left == 2 * n:  # two tricks left: solved directly, a leaf
            wa, ga, wb, gb = _two_tricks_stored(t, n, scr, base, leader, trump, tp, last_pen)
        elif left == 0 or (tlen == 0 and left == n):  # the deal is over, or its last trick forced
            wa, ga, wb, gb = _last_trick(t, n, leader, trump, tp, last_pen, left)
        else:
            if tlen == 0:
                tag = _tag(t, scr, base, leader)
                slot = _slot(t, tag)
                if _probe(t, scr, base, tag, slot):  # searched before: a leaf worth what it gains
                    row = scr[base + TT + (slot >> 3)]
                    o = (slot & 7) * 8 + 4
                    for s in range(n):
                        acc[s] += row[o + s]
                    _offer(scr, base, p, n, base + ACC, 0)
                    for s in range(n):
                        acc[s] -= row[o + s]
                    left, leader, tlen = _back(t, scr, base, p, n, left)
                    continue
            else:
                slot = -1
            p += 1
            _open(t, n, scr, base, p, leader, tlen, slot)
            continue
        acc[wa] += ga
        acc[wb] += gb
        _offer(scr, base, p, n, base + ACC, 0)  # a leaf
        acc[wa] -= ga
        acc[wb] -= gb
        left, leader, tlen = _back(t, scr, base, p, n, left)
    return score(t, seat) + scr[base + BEST, seat]
