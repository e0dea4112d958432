"""The chunk kernel of Canasta's strategy tables (:mod:`cardodds.canasta.strategy`): positions
drawn from played hands, every action of a position played out on the same deal.

Each hand is dealt and played by the lineup. At every decision of the table's class (the
table :data:`TAKE`, :data:`OUT`, :data:`OUT_GAME` or :data:`DISCARD`) the kernel classifies
the cell; one of those decisions of the hand is kept, each equally likely (reservoir
sampling: the k-th replaces the kept one with probability 1/k), so the positions are
independent, one a hand at most. The hand goes on with the lineup's own choice; at its end
each possible action of the kept position is played out from a copy of the table, every
action from the same random state (paired), by the advisor's play-out
(:func:`cardodds.canasta._lookahead.play_option`), and counted in its cell
(:func:`cardodds._tally.add_actions`). The value of an action is the deciding side's hand
score minus the other's; in :data:`OUT_GAME` the advisor's game equity after the hand
(:func:`cardodds.canasta._advise.game_equity`: 1 for a won game, 0 for a lost one, else the
equity table's at the totals the hand leaves), in ``game[G_SCALE]`` units.

An action is one move by a fixed rule: heuristic2's choice (:func:`heuristic_choose`) among
the moves of the action (the ways of taking the pile, the moves that go out, the discards
of a kind); "leave the pile" and "stay in" are the advisor's options of those names.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._jit import helper, kernel
from .._random import bounded
from .._tally import add_actions
from ..layout import Layout
from ._advise import G_SCALE, game_equity
from ._lookahead import _goes_out, lookahead_choose, play_option, play_option_alone
from ._play import _scratch
from ._policies import SMART, choose, heuristic_choose
from ._table import (MAX_MOVES, MV_DISCARD, MV_TAKE_ADD, MV_TAKE_NEW, MW, PH_OVER, S_SIZE, SA, SEATS, SLOTS, R,
                     apply_move, gen_moves, hand_at, hand_dealer, hand_size, meld_size, new_hand, next_seat)
from ._worlds import OPT_LEAVE, OPT_STAY, copy_into
from .cards import ACE, BLACK3, FOUR, JOKER, N_KINDS, TWO

#: The tables, by their index in ``strategy.TABLES``.
TAKE = 0
OUT = 1
OUT_GAME = 2
DISCARD = 3
#: The discard table's actions, in the order of its spec.
D_BLACK3 = 0
D_THROWN = 1
D_THEIR_MELD = 2
D_SINGLE = 3
D_PAIR = 4
D_WILD = 5
MAX_ACTIONS = 6
#: The game score in :data:`OUT_GAME`: each side's total before the hand is drawn uniformly
#: from the :data:`NEAR` points below the target; "level" is a difference within :data:`LEVEL`.
NEAR = 2500
LEVEL = 400

_SMART = np.int64(SMART)

#: A position's actions: their move records, whether possible (1/0) and their values.
Actions = namedtuple("Actions", ["recs", "possible", "values"])
#: Which table (:data:`TAKE` ...) and its number of actions.
Kind = namedtuple("Kind", ["which", "n_actions"])

#: A kept position (a row of ``keep``): the table, its cell (-1: none in the hand), the
#: actions possible, their move records and their values.
KEPT = Layout("kept position", [("table", S_SIZE), ("cell", 1), ("possible", MAX_ACTIONS),
                                ("recs", MAX_ACTIONS * MW), ("values", MAX_ACTIONS)])
KA = KEPT.at


@helper
def _band3(x, a, b):
    """0 below ``a``, 1 below ``b``, else 2."""
    return 0 if x < a else (1 if x < b else 2)


@helper
def _pile_band(n):
    """The pile's size: 1-2 (0-2 for a discard), 3-5, 6-9, 10+."""
    return 0 if n <= 2 else (1 if n <= 5 else (2 if n <= 9 else 3))


@helper
def discard_class(t, rl, seat, kind):
    """What discarding ``kind`` is (a :data:`D_BLACK3` ... :data:`D_WILD` action), or -1 (a red 3):
    a natural on a meld of the next player's side first, then one the next player threw this
    hand (and has not taken back), then one of a pair or more in the hand, else a single."""
    if kind == BLACK3:
        return D_BLACK3
    if kind == TWO or kind == JOKER:
        return D_WILD
    if kind < FOUR or kind > ACE:
        return -1
    nxt = next_seat(rl, seat)
    if meld_size(t, nxt % 2, kind - FOUR) > 0:
        return D_THEIR_MELD
    if t[SA.threw + nxt * N_KINDS + kind] > 0 and t[SA.took + nxt * N_KINDS + kind] == 0:
        return D_THROWN
    return D_PAIR if t[hand_at(seat, kind)] >= 2 else D_SINGLE


@helper
def classify(t, rl, mv, nm, pick, which, cls):
    """The cell of the decision at ``t`` in table ``which`` (-1: not a decision of its class);
    ``cls[i]`` the action move ``i`` belongs to (-1: none). ``pick``: the lineup's move."""
    seat = t[SA.seat]
    side = seat % 2
    n_act = 0
    for i in range(nm):
        cls[i] = -1
    if which == TAKE:
        for i in range(nm):
            if mv[i, 0] == MV_TAKE_NEW or mv[i, 0] == MV_TAKE_ADD:
                cls[i] = 1
                n_act = 1
        if n_act == 0:
            return -1
        size = t[SA.pile_len]
        top = t[SA.pile + size - 1]
        inside = 0  # 1: a wild in the pile, 2: a black 3, 3: both
        for j in range(size):
            c = t[SA.pile + j]
            if c == TWO or c == JOKER:
                inside |= 1
            elif c == BLACK3:
                inside |= 2
        opened = 1 if t[SA.opened + side] != 0 else 0
        fit = 2
        if FOUR <= top <= ACE:
            if meld_size(t, side, top - FOUR) > 0:
                fit = 1
            elif t[hand_at(seat, top)] >= 2:
                fit = 0
        return ((_pile_band(size) * 4 + inside) * 2 + opened) * 3 + fit
    if which == OUT or which == OUT_GAME:
        outs = 0
        for i in range(nm):
            if _goes_out(t, mv[i]):
                cls[i] = 1
                outs += 1
        if outs == 0 or outs == nm:
            return -1
        ours = 0
        theirs = 0
        for sl in range(SLOTS):
            ours += 1 if meld_size(t, side, sl) >= 7 else 0
            theirs += 1 if meld_size(t, 1 - side, sl) >= 7 else 0
        cards = hand_size(t, (seat + 1) % SEATS) + hand_size(t, (seat + 3) % SEATS)
        cell = (min(ours, 2) * 3 + min(theirs, 2)) * 3 + _band3(cards, 7, 12)
        if which == OUT:
            return cell
        lead = t[SA.game + side] - t[SA.game + 1 - side]
        return (0 if lead < -LEVEL else (1 if lead <= LEVEL else 2)) * 27 + cell
    # the discard: where the lineup discards, keeping a card
    if mv[pick, 0] != MV_DISCARD or hand_size(t, seat) < 2:
        return -1
    seen = 0
    for i in range(nm):
        if mv[i, 0] == MV_DISCARD:
            a = discard_class(t, rl, seat, mv[i, 1])
            cls[i] = a
            if a >= 0 and (seen >> a) & 1 == 0:
                seen |= 1 << a
                n_act += 1
    if n_act < 2:
        return -1
    black3 = 1 if t[hand_at(seat, BLACK3)] > 0 else 0
    return (_pile_band(t[SA.pile_len]) * 3 + _band3(hand_size(t, next_seat(rl, seat)), 5, 9)) * 2 + black3


@helper
def pick_among(t, rl, mv, nm, hp, cls, a, sub, idx):
    """heuristic2's choice among the moves of action ``a`` (``cls[i] == a``), as an index into
    ``mv``; -1 when there is none."""
    n2 = 0
    for i in range(nm):
        if cls[i] == a:
            for c in range(MW):
                sub[n2, c] = mv[i, c]
            idx[n2] = i
            n2 += 1
    if n2 == 0:
        return -1
    return idx[heuristic_choose(t, rl, sub, n2, hp, _SMART)]


@helper
def actions(t, rl, mv, nm, hp, kind, cls, sub, idx, acts):
    """Each action's move record (``acts.recs[a]``; an ``OPT_*`` code in its type for leave
    and stay) and whether the position allows it (``acts.possible[a]``)."""
    which, n_actions = kind
    recs, possible, _values = acts
    first = 0
    if which != DISCARD:
        recs[0, 0] = OPT_LEAVE if which == TAKE else OPT_STAY
        for c in range(1, MW):
            recs[0, c] = 0
        possible[0] = 1
        first = 1
    for a in range(first, n_actions):
        i = pick_among(t, rl, mv, nm, hp, cls, a, sub, idx)
        possible[a] = 0 if i < 0 else 1
        if i >= 0:
            for c in range(MW):
                recs[a, c] = mv[i, c]


@helper
def play_actions(rng, start, table, saved, rl, seats, user, acts, kind, smart, look, stake):
    """Each possible action of the position ``saved`` played out from ``acts.recs[a]`` on a
    copy (``table.t``), every one from the random state ``start``; its value for the deciding
    side into ``acts.values[a]`` (0 where it is not possible). In :data:`OUT_GAME`: the game
    equity after the hand (:func:`~cardodds.canasta._advise.game_equity` on ``stake``'s
    ``(game, etab)``; the totals of ``game`` it ignores)."""
    game, etab = stake
    t, mv, work, _viol = table
    pol, hp = seats
    recs, possible, values = acts
    which, n_actions = kind
    side = saved[SA.seat] % 2
    for a in range(n_actions):
        values[a] = 0
        if possible[a] == 0:
            continue
        copy_into(t, saved)
        copy_into(rng, start)
        if look is None:
            play_option_alone(rng, t, rl, pol, hp, mv, work, user, recs[a], smart, None)
        else:
            play_option(rng, t, rl, pol, hp, mv, work, user, recs[a], smart, look)
        if which == OUT_GAME:
            e = game_equity(saved[SA.game + side] + t[SA.score + side],
                            saved[SA.game + 1 - side] + t[SA.score + 1 - side], game, etab)
            values[a] = np.int64(np.rint(e * game[G_SCALE]))
        else:
            values[a] = t[SA.score + side] - t[SA.score + 1 - side]


@kernel
def table_kernel(rng, n, out, rules, seats, user, smart, look, kind, keep, game, etab):
    """Play ``n`` hands, each counting at most one position of table ``kind.which`` (with
    ``kind.n_actions`` actions) into ``out`` (cell ``c`` at ``c * stride``). ``rules`` a
    :data:`RulesSet`, ``seats`` the lineup's :data:`Seats`; ``look`` None unless a seat plays
    ``lookahead``; ``keep`` (None, or an int64 array of ``n`` rows of :data:`KEPT`) gets each
    hand's position; ``game`` and ``etab`` the equity grid that values :data:`OUT_GAME`'s
    actions (:func:`play_actions`)."""
    deck, rl = rules
    pol, hp = seats
    which, n_actions = kind
    d = deck.copy()
    table = _scratch()
    t, mv, work, _viol = table
    saved = np.zeros(S_SIZE, dtype=np.int64)
    sub = np.zeros((MAX_MOVES, MW), dtype=np.int64)
    idx = np.zeros(MAX_MOVES, dtype=np.int64)
    cls = np.zeros(MAX_MOVES, dtype=np.int64)
    acts = Actions(np.zeros((MAX_ACTIONS, MW), dtype=np.int64), np.zeros(MAX_ACTIONS, dtype=np.int64),
                   np.zeros(MAX_ACTIONS, dtype=np.int64))
    recs, possible, values = acts
    stride = 1 + 3 * n_actions * n_actions
    start = rng.copy()
    for h in range(n):
        if which == OUT_GAME:
            for side in range(2):
                t[SA.game + side] = rl[R.target] - 1 - bounded(rng, NEAR)
        new_hand(rng, t, rl, d, hand_dealer(rl))
        seen = 0
        cell = -1
        while t[SA.phase] != PH_OVER:
            nm = gen_moves(t, rl, mv, work)
            if nm == 0:
                break
            if look is None:
                i = choose(rng, t, rl, mv, nm, pol, hp, user, smart)
            else:
                i = lookahead_choose(rng, t, rl, mv, nm, pol, hp, user, smart)
            c = classify(t, rl, mv, nm, i, which, cls)
            if c >= 0:
                seen += 1
                if bounded(rng, seen) == 0:
                    cell = c
                    copy_into(saved, t)
                    actions(t, rl, mv, nm, hp[t[SA.seat]], kind, cls, sub, idx, acts)
            apply_move(t, rl, mv[i])
        if keep is not None:
            keep[h, KA.cell] = cell
        if cell < 0:
            continue
        copy_into(start, rng)
        play_actions(rng, start, table, saved, rl, seats, user, acts, kind, smart, look, (game, etab))
        add_actions(out, cell * stride, values, possible, n_actions)
        if keep is not None:
            for j in range(S_SIZE):
                keep[h, KA.table + j] = saved[j]
            for a in range(n_actions):
                keep[h, KA.possible + a] = possible[a]
                keep[h, KA.values + a] = values[a]
                for c in range(MW):
                    keep[h, KA.recs + a * MW + c] = recs[a, c]


@kernel
def position_cell(t, rl, which, possible):
    """The cell of table ``which`` that the position at ``t`` (the seat to act's decision) falls
    in, as :func:`classify` finds it for the tables (-1: not a decision of the table's class),
    and in ``possible[a]`` 1 for each action the position allows (leave and stay always)."""
    mv = np.zeros((MAX_MOVES, MW), dtype=np.int64)
    cls = np.zeros(MAX_MOVES, dtype=np.int64)
    nm = gen_moves(t, rl, mv, np.zeros(N_KINDS, dtype=np.int64))
    pick = 0
    for i in range(nm):
        if mv[i, 0] == MV_DISCARD:
            pick = i
            break
    cell = classify(t, rl, mv, nm, pick, which, cls)
    for a in range(possible.shape[0]):
        possible[a] = 1 if a == 0 and which != DISCARD else 0
    for i in range(nm):
        if cls[i] >= 0:
            possible[cls[i]] = 1
    return cell
