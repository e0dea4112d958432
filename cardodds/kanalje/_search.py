"""Kanalje's exact end-of-deal solver, compiled: the perfect-information search of the ``pimc`` player.

:func:`endgame_score` plays the rest of a deal whose every hand is known (a sampled world)
perfectly: each seat, at each of its cards, plays the card that maximises its own points for
the rest of the deal, every seat reasoning the same way (*max-n*, RULES.md 2.1 scoring: +1 a
trick, the jacks' penalties to their takers, a turned jack to the last trick's winner under
``turned_jack="last_trick"``). Max-n rather than *paranoid* (everybody else against me): in
Kanalje each player scores for itself and a jack one opponent takes is a jack the other one
does not, so the other two do not play as one; a paranoid search would duck jacks and
tricks it never has to. Ties go to the lowest card, so the search is deterministic.

The search is a depth-first loop over an explicit stack kept in rows of the chunk's scratch
(:data:`SOLVE_ROWS` rows of ``scr`` from row ``base``): it allocates nothing and is compiled
without reference counting (``@loop``, see ``cardodds/_jit.py``). It works on the table in
place (hands taken out and put back), so the table is as it was when it returns. Cards of
one suit in one hand with no card still in play between them (no jack among them) take the
same tricks whatever is played: only the lowest of each such run is searched.
"""

from __future__ import annotations

from .._jit import inline, loop
from ._bits import JACK_RANK, JACKS, SUIT_MASK, above, below, bit, lowest, popcount
from ._table import T, beats, score, seat_after

#: Rows of scratch the search uses, from its ``base`` row: per ply the cards still to try,
#: the card tried (shifted by :data:`OFF`, room for the trick in progress at the root), the
#: seat to play, the trick's leader and length before the card, the trick's winner (-1 while
#: the trick is open) and what it gained, whether a value was offered, the best value vector
#: (4 a ply) and the points gained so far per seat.
MOVES, CARDS, MOVER, LEADER, TLEN, WIN, GAIN, HAVE, BEST, ACC = range(10)
SOLVE_ROWS = 10
#: Where ply 0's card sits in the ``CARDS`` row: the cards of the trick in progress before it.
OFF = 4
#: The most tricks the search is asked to solve (the scratch rows are sized for it).
MAX_ENDGAME = 5
#: Tricks left when the ``pimc`` player stops the heuristic and solves the rest exactly
#: (three players; with two players, whose tricks have two cards, :data:`ENDGAME_TWO`).
#: Four is the most whose strength match still runs in minutes; three is weaker
#: (``benchmarks/RESULTS_design.md``).
ENDGAME_THREE = 4
ENDGAME_TWO = 5
assert max(ENDGAME_THREE, ENDGAME_TWO) <= MAX_ENDGAME


@inline
def endgame_tricks(t):
    """The tricks the ``pimc`` player solves exactly at the end of a deal of ``t``'s size."""
    return ENDGAME_THREE if t[T.players] == 3 else ENDGAME_TWO


@inline
def tricks_left(t):
    """Tricks still to finish in the trick play (the current one included)."""
    return popcount(t[T.hand + seat_after(t[T.leader], t[T.trick_len], t[T.players])])


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


@inline
def _moves(t, mover, led, inplay):
    """The cards ``mover`` may play worth searching: follow suit if able (``led`` is the
    trick's first card, -1 when leading); of non-jacks of a suit with no card in ``inplay``
    between them, the lowest."""
    hand = t[T.hand + mover]
    legal = hand
    if led >= 0:
        f = hand & SUIT_MASK[led & 3]
        if f != 0:
            legal = f
    return lowest_of_runs(legal, inplay, 0)


@inline
def _in_play(t, scr, base, p, tlen):
    """Every card still in a hand or in the trick in progress."""
    x = t[T.hand] | t[T.hand + 1] | t[T.hand + 2] | t[T.hand + 3]
    for i in range(tlen):
        x |= bit(scr[base + CARDS, OFF + p - tlen + i])
    return x


@inline
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


@inline
def _open(t, n, scr, base, p, leader, tlen):
    """Start node ``p``: its seat to play and the cards it will try."""
    mover = seat_after(leader, tlen, n)
    scr[base + MOVER, p] = mover
    led = scr[base + CARDS, OFF + p - tlen] if tlen > 0 else -1
    scr[base + MOVES, p] = _moves(t, mover, led, _in_play(t, scr, base, p, tlen))
    scr[base + HAVE, p] = 0


@inline
def _take_back(t, scr, base, p):
    """Undo ply ``p``'s card: back into its hand, its trick's gain (if it closed one) taken off."""
    t[T.hand + scr[base + MOVER, p]] |= bit(scr[base + CARDS, OFF + p])
    w = scr[base + WIN, p]
    if w >= 0:
        scr[base + ACC, w] -= scr[base + GAIN, p]


@loop
def endgame_score(t, seat, scr, base):
    """``seat``'s score at the end of the deal ``t`` (three players, or two in phase 2) when
    every seat plays the rest perfectly for itself (max-n, every hand known). ``scr`` rows
    ``base`` .. ``base + SOLVE_ROWS``: the search's stack; at most :data:`MAX_ENDGAME` tricks.
    The last trick, one card a seat, is forced: it is scored where it starts rather than
    searched ply by ply, most of a four-trick search's nodes (the same value vectors, so the
    same choices, ties included; ``tests/test_kanalje_pimc.py`` against brute force)."""
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
    p = 0
    _open(t, n, scr, base, 0, leader, tlen)
    while True:
        m = scr[base + MOVES, p]
        if m == 0:  # node p searched: its best vector is offered to its parent
            if p == 0:
                break
            p -= 1
            _take_back(t, scr, base, p)
            left += 1
            leader = scr[base + LEADER, p]
            tlen = scr[base + TLEN, p]
            _offer(scr, base, p, n, base + BEST, 4 * (p + 1))
            continue
        c = lowest(m)
        scr[base + MOVES, p] = m & (m - 1)
        cards[OFF + p] = c
        scr[base + LEADER, p] = leader
        scr[base + TLEN, p] = tlen
        scr[base + WIN, p] = -1
        t[T.hand + scr[base + MOVER, p]] ^= bit(c)
        left -= 1
        tlen += 1
        if tlen == n:
            first = OFF + p - n + 1
            top = cards[first]
            wi = 0
            g = t[T.trick_points]
            for i in range(n):
                x = cards[first + i]
                if i > 0 and beats(x, top, trump):
                    top = x
                    wi = i
                if (x >> 2) == JACK_RANK:
                    g -= t[T.jack_penalty + (x & 3)]
            if left == 0:
                g -= last_pen
            w = seat_after(leader, wi, n)
            acc[w] += g
            scr[base + WIN, p] = w
            scr[base + GAIN, p] = g
            leader = w
            tlen = 0
        if left > 0 and not (tlen == 0 and left == n):
            p += 1
            _open(t, n, scr, base, p, leader, tlen)
            continue
        w = -1
        g = 0
        if left > 0:  # the last trick, one card a seat: forced, scored without searching it
            # Its cards are read from the hands, not written into ``cards`` for the loop that
            # closes a trick above: with that one loop for both, the pimc kernel ran 0.953 and
            # 0.926 as fast (quartiles 0.875-1.028; benchmarks/side_by_side.py --kernel pimc).
            top = lowest(t[T.hand + leader])
            wi = 0
            g = t[T.trick_points] - last_pen
            for i in range(n):
                x = lowest(t[T.hand + seat_after(leader, i, n)])
                if i > 0 and beats(x, top, trump):
                    top = x
                    wi = i
                if (x >> 2) == JACK_RANK:
                    g -= t[T.jack_penalty + (x & 3)]
            w = seat_after(leader, wi, n)
            acc[w] += g
        _offer(scr, base, p, n, base + ACC, 0)  # a leaf: the deal is over
        if w >= 0:
            acc[w] -= g
        _take_back(t, scr, base, p)
        left += 1
        leader = scr[base + LEADER, p]
        tlen = scr[base + TLEN, p]
    return score(t, seat) + scr[base + BEST, seat]
