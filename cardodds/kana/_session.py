"""Compiled Känä sessions: many rounds at one table, the winner starting the next (docs/rules/kana.md §2.2). Private.

Players keep their chairs 0..n-1 for the whole session. A round's känä order starts at its
starter and goes clockwise, so position ``p`` of a round is player ``(starter + p) % n``.

A *table* is one strategy per player and a starter rule: ``rotation[t] == 0`` is the rule
of docs/rules/kana.md §2.2 (the previous round's winner starts), ``1`` a rotation (the starter moves one
chair clockwise every round, so every player starts equally often: the assumption behind
the library's one-round figures). Several tables play one session in lockstep on common
random numbers: every round the same cards go to the same player at every table, each
player's own random choices (a blind random känä, a custom function's draws) come from the
same private stream whatever its position, and extra rounds draw from one shared stream.
Tables are therefore compared paired, session by session (``ref[t]`` names the table that
table ``t`` is compared with, ``less[t]`` a pair whose difference is subtracted from that).

Policies are configurations packed by ``policies.pack`` with one configuration per
table and starter: configuration ``t * n + starter`` lists, by position, the policies of
the players in that round's order. The one-round decision (``_policies.decide``) and
settlement (``_table.settle``) are called unchanged, user ``@njit`` functions included.

Net winnings are counted in antes: the winner of a round gains ``n - 1`` (the pot of ``n``
antes less its own), every other player loses 1. The leave rule (``leave > 0``) ends the
session after the first round in which some player's net at table 0 is ``-leave`` or less;
the other tables play the same rounds.
"""

from collections import namedtuple

import numpy as np

from .._jit import helper, loop
from .._random import bounded, deal3_from, next_u64
from ..layout import Layout
from ._policies import decide
from ._table import EXTRA_BLOCK, kana_card, peeked_cards, settle, unpack_rules
from .rules import RULES


def session_layout(n: int, tables: int, rounds: int) -> Layout:
    """Counts of a session run with ``n`` players, ``tables`` tables and at most ``rounds`` rounds.

    Per table and player (index ``t * n + q``): rounds won, and for the session totals of
    the started rounds, the net winnings, the paired net difference to the table's
    reference and the wins by position, their sum, sum of squares and sum of products with
    the session's length (for ratio estimates with session-level errors). The *contrast* of
    table ``t`` is its paired difference less that of table ``less[t, 0]`` against table
    ``less[t, 1]`` (a difference of differences, e.g. how much the starter rule changes what
    a switch of strategy gains); ``less[t] = (t, t)`` makes it the plain difference. Table 0 alone:
    who left, the histogram of each player's final net (index ``net + rounds``, one row of
    ``n * rounds + 1`` per player) and of each player's longest losing run (``0..rounds``).
    """
    tn = tables * n
    return Layout("kana session", [
        ("sessions", 1), ("rounds", 1), ("rounds_sq", 1),
        ("wins", tn),
        ("starts", tn), ("starts_sq", tn), ("starts_rounds", tn),
        ("net", tn), ("net_sq", tn), ("net_rounds", tn),
        ("diff", tn), ("diff_sq", tn), ("diff_rounds", tn),
        ("contrast", tn), ("contrast_sq", tn), ("contrast_rounds", tn),
        ("position_wins", tn), ("position_sq", tn), ("position_rounds", tn),
        ("left", n),
        ("final", n * (n * rounds + 1)),
        ("longest", n * (rounds + 1)),
        ("extra", tables * EXTRA_BLOCK),
    ])


def trace_layout(n: int) -> Layout:
    """One row of a session trace: a round at one table, each player's three cards as dealt
    (``dealt[3 * q + j]``, in the order the policies see them), the card it peeked (peek-one:
    the first dealt; -1 in the other variants), the card it känäd, and what it won."""
    return Layout("kana session trace", [
        ("session", 1), ("table", 1), ("round", 1), ("starter", 1), ("winner", 1), ("kanad", n), ("net", n),
        ("dealt", 3 * n), ("peeked", n),
    ])


R = RULES.at
# Field numbers are the same for every run size; kernels index the offsets array with them.
IX = session_layout(2, 1, 1).index
TX = trace_layout(2).index


@helper
def _place(deck, cards, k):
    """Move ``cards[:k]`` (distinct) to ``deck[:k]`` in order; ``deck`` stays a permutation."""
    for j in range(k):
        c = cards[j]
        at = j
        while deck[at] != c:
            at += 1
        deck[at] = deck[j]
        deck[j] = c


#: How the sessions are played: at most ``rounds`` rounds, the leave rule, the first starter
#: (-1 random) and, per table, its starter rule, reference table and contrast pair.
Plan = namedtuple("Plan", ["rounds", "leave", "first", "rotation", "ref", "less"])
#: Scratch arrays of :func:`_sessions_loop`.
SessionWork = namedtuple("SessionWork", [
    "hands", "flat", "private", "mine", "shared", "stream", "kept", "kanad", "key", "tied", "dark", "hand", "deck",
    "saved", "starter", "total", "starts", "poswins", "losing", "longest"])


def play_sessions(s, nsessions, out, rules, plan, pol, custom, o, preset, trace, to):
    """Play ``nsessions`` sessions of up to ``plan.rounds`` rounds at every table and add their counts.

    ``rules`` is ``KanaRules.pack()``, ``plan`` a :data:`Plan`, ``pol`` the policies' bundle.
    ``o`` holds the offsets of :func:`session_layout`. ``preset[r, q]`` (rows ``r < preset.shape[0]``)
    are the three cards player ``q`` is dealt in round ``r`` of every session, for hand-built
    tests; a real run passes zero rows. When ``trace`` has rows, every round at every table is
    written to one row of it (offsets ``to`` of :func:`trace_layout`) until it is full.

    Plain Python, allocating the chunk's arrays for the compiled :func:`_sessions_loop` (a
    compiled kernel would compile the loop again). The loop copies arrays element by element:
    numba compiles much of its own code for a whole-array copy.
    """
    n = int(rules[R.players])
    T = plan.rotation.shape[0]
    _sessions_loop(s, nsessions, out, rules, plan, pol, custom, o, preset, trace, to, SessionWork(
        np.empty((n, 3), np.int64), np.empty(3 * n, np.int64), np.empty((n, 4), np.uint64),
        np.empty((n, 4), np.uint64), np.empty(4, np.uint64), np.empty(4, np.uint64),
        np.empty((n, 2), np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
        np.empty(n, np.int64), np.empty(3, np.int64), np.arange(52, dtype=np.int64), np.empty(52, np.int64),
        np.empty(T, np.int64), np.zeros((T, n), np.int64), np.zeros((T, n), np.int64),
        np.zeros((T, n), np.int64), np.zeros(n, np.int64), np.zeros(n, np.int64)))


@loop(from_python=True)
def _sessions_loop(s, nsessions, out, rules, plan, pol, custom, o, preset, trace, to, work):
    """The sessions of :func:`play_sessions`, on its scratch arrays ``work`` (``deck`` holds the 52 cards)."""
    n, fresh, extra_all, _latest, variant = unpack_rules(rules)
    extra_rules = (fresh, extra_all)  # of the extra rounds
    peeked = peeked_cards(variant)
    rounds, leave, first, rotation, ref, less = plan
    (hands, flat, private, mine, shared, stream, kept, kanad, key, tied, dark, hand, deck, saved, starter, total,
     starts, poswins, losing, longest) = work
    kinds, args, ctxmode, t1, t3 = pol
    T = rotation.shape[0]
    final_row = n * rounds + 1
    row = 0
    for sess in range(nsessions):
        f = first
        if f < 0:
            f = bounded(s, n)
        for t in range(T):
            starter[t] = f
        for t in range(T):
            for q in range(n):
                total[t, q] = 0
                starts[t, q] = 0
                poswins[t, q] = 0
        for q in range(n):
            losing[q] = 0
            longest[q] = 0
        played = 0
        for r in range(rounds):
            if r < preset.shape[0]:
                for q in range(n):
                    for j in range(3):
                        flat[3 * q + j] = preset[r, q, j]
                _place(deck, flat, 3 * n)
                for q in range(n):
                    for j in range(3):
                        hands[q, j] = deck[3 * q + j]
            else:
                for q in range(n):
                    hands[q, 0], hands[q, 1], hands[q, 2] = deal3_from(s, deck, 3 * q, 52)
            for q in range(n):
                for j in range(4):
                    private[q, j] = next_u64(s)
            for j in range(4):
                shared[j] = next_u64(s)
            for j in range(52):
                saved[j] = deck[j]
            for t in range(T):
                for j in range(52):
                    deck[j] = saved[j]
                for q in range(n):
                    for j in range(4):
                        mine[q, j] = private[q, j]
                for j in range(4):
                    stream[j] = shared[j]
                st = starter[t]
                c = t * n + st
                for p in range(n):
                    q = (st + p) % n
                    for j in range(3):
                        hand[j] = hands[q, j]
                    pos = decide(mine[q], c, p, kinds, args, ctxmode, t1, t3, hand, kanad, custom, peeked)
                    kana_card(hand, pos, p, kanad, kept)
                wpos, _restocked = settle(stream, out, o[IX.extra] + t * EXTRA_BLOCK, deck, 3 * n, 52, n, extra_rules,
                                          kept, key, tied, dark)
                w = (st + wpos) % n
                out[o[IX.wins] + t * n + w] += 1
                poswins[t, wpos] += 1
                starts[t, st] += 1
                for q in range(n):
                    total[t, q] -= 1
                total[t, w] += n
                if row < trace.shape[0]:
                    trace[row, to[TX.session]] = sess
                    trace[row, to[TX.table]] = t
                    trace[row, to[TX.round]] = r
                    trace[row, to[TX.starter]] = st
                    trace[row, to[TX.winner]] = w
                    for p in range(n):
                        q = (st + p) % n
                        trace[row, to[TX.kanad] + q] = kanad[p]
                        trace[row, to[TX.net] + q] = n - 1 if q == w else -1
                        for j in range(3):
                            trace[row, to[TX.dealt] + 3 * q + j] = hands[q, j]
                        trace[row, to[TX.peeked] + q] = hands[q, 0] if peeked == 1 else -1
                    row += 1
                if rotation[t]:
                    starter[t] = (st + 1) % n
                else:
                    starter[t] = w
                if t == 0:
                    for q in range(n):
                        if q == w:
                            losing[q] = 0
                        else:
                            losing[q] += 1
                            if losing[q] > longest[q]:
                                longest[q] = losing[q]
            for j in range(52):
                deck[j] = saved[j]
            played += 1
            if leave > 0:
                gone = False
                for q in range(n):
                    if total[0, q] <= -leave:
                        gone = True
                        out[o[IX.left] + q] += 1
                if gone:
                    break
        R = played
        out[o[IX.sessions]] += 1
        out[o[IX.rounds]] += R
        out[o[IX.rounds_sq]] += R * R
        for t in range(T):
            for q in range(n):
                i = t * n + q
                x = total[t, q]
                out[o[IX.net] + i] += x
                out[o[IX.net_sq] + i] += x * x
                out[o[IX.net_rounds] + i] += x * R
                d = x - total[ref[t], q]
                out[o[IX.diff] + i] += d
                out[o[IX.diff_sq] + i] += d * d
                out[o[IX.diff_rounds] + i] += d * R
                d -= total[less[t, 0], q] - total[less[t, 1], q]
                out[o[IX.contrast] + i] += d
                out[o[IX.contrast_sq] + i] += d * d
                out[o[IX.contrast_rounds] + i] += d * R
                x = starts[t, q]
                out[o[IX.starts] + i] += x
                out[o[IX.starts_sq] + i] += x * x
                out[o[IX.starts_rounds] + i] += x * R
                x = poswins[t, q]
                out[o[IX.position_wins] + i] += x
                out[o[IX.position_sq] + i] += x * x
                out[o[IX.position_rounds] + i] += x * R
        for q in range(n):
            out[o[IX.final] + q * final_row + total[0, q] + rounds] += 1
            out[o[IX.longest] + q * (rounds + 1) + longest[q]] += 1
