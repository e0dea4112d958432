"""The strategy tables' kernel (:mod:`cardodds.kanalje.strategy`): positions drawn from played
deals, every action of a position played out on the same deal.

A deal is played by the lineup decision by decision (:func:`._policies.choose`, or the random and
heuristic players' own choice); at each decision the table's classifier (:func:`lead_position`,
:func:`jack_position`, :func:`faceup_position`) says whether it is a position of the table, its
cell, and the card each action plays. One position a deal is kept, drawn uniformly among the
deal's positions (reservoir sampling: the m-th replaces the kept one with probability 1/m), so
the positions are independent. A deal is played only as far as a position can still arise.
Then each possible action's card is played on a copy of the kept table and the deal played out
to its end by the lineup, every action from the same random state (a paired comparison), and
the deciding seat's score for the deal is counted in the cell (``_tally.add_actions``).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._jit import inline, loop
from .._random import bounded, next_u64
from .._tally import add_actions
from ..layout import Layout
from ._bits import FULL, JACK_RANK, JACKS, SUIT_MASK, above, bit, highest, lowest, popcount
from ._play import _basic_choose1, _basic_choose_trick, play_option_out
from ._policies import choose, new_scratch, sure_cards
from ._table import (
    STOCK,
    TABLE_SIZE,
    T,
    copy_into,
    legal_cards,
    legal_cards1,
    play_any,
    score,
    start_deal,
    to_play,
    trick_winner_index,
)
from .rules import R

#: The kinds of table (a table's ``kind``): the first lead of the trick play, a trick holding a
#: jack, the two-player phase 1's face-up card.
LEAD, JACK, FACEUP = 0, 1, 2
#: The most actions a table has (the lead's five).
MAX_ACTIONS = 5
#: A recorded position (a row of :func:`strategy_kernel`'s ``record``): its cell, the seat, the
#: plays before it, each action's card, whether it was possible and its value, the plays of the
#: deal so far (``seat * 64 + card``, in order), my hand, the turned card (two players: the
#: face-up card in phase 1, the card that named trump in phase 2) and the stock's face-up cards.
RECORD = Layout("kanalje strategy position", [
    ("cell", 1), ("seat", 1), ("plays", 1), ("cards", MAX_ACTIONS), ("possible", MAX_ACTIONS),
    ("values", MAX_ACTIONS), ("log", 52), ("hand", 1), ("card", 1), ("faceups", STOCK // 2)])
P = RECORD.at


# ---- the classifiers: a position's cell (-1: not a position of the table) and its actions' cards ----
@inline
def _dearest_jack(t, mask):
    """The jack of ``mask`` with the highest penalty (-1 for none)."""
    j = -1
    for s in range(4):
        c = JACK_RANK * 4 + s
        if (mask & bit(c)) != 0 and (j < 0 or t[T.jack_penalty + s] > t[T.jack_penalty + (j & 3)]):
            j = c
    return j


@inline
def _choices(possible, n):
    k = 0
    for a in range(n):
        k += possible[a]
    return k


@loop
def lead_position(t, seat, cards, possible):
    """The first lead of the trick play (three players; two: of phase 2). Actions: ``long low``
    and ``long high``, the lowest and the highest non-jack card of my longest side suit (of
    equal lengths, the one with the higher top card); ``short``, the lowest non-jack card of my
    shortest other side suit (of equal lengths, the lower top card); ``trump``, my lowest
    non-jack trump; ``jack``, my dearest side jack. Cell: the longest side suit's length, my
    trump length, the jacks I hold."""
    if t[T.phase] != 0 or t[T.n_tricks] != 0 or t[T.trick_len] != 0:
        return -1
    hand = t[T.hand + seat]
    trump = t[T.trump]
    tmask = SUIT_MASK[trump] if trump >= 0 else np.int64(0)
    longest = 0
    ls = -1
    for s in range(4):
        m = hand & SUIT_MASK[s]
        if s == trump or m == 0:
            continue
        longest = max(longest, popcount(m))
        nj = m & ~JACKS
        if nj != 0 and (ls < 0 or popcount(m) > popcount(hand & SUIT_MASK[ls])
                        or (popcount(m) == popcount(hand & SUIT_MASK[ls]) and highest(nj) > highest(
                            hand & SUIT_MASK[ls] & ~JACKS))):
            ls = s
    ss = -1
    for s in range(4):
        nj = hand & SUIT_MASK[s] & ~JACKS
        if s == trump or s == ls or nj == 0:
            continue
        if ss < 0 or popcount(hand & SUIT_MASK[s]) < popcount(hand & SUIT_MASK[ss]) or (
                popcount(hand & SUIT_MASK[s]) == popcount(hand & SUIT_MASK[ss])
                and highest(nj) < highest(hand & SUIT_MASK[ss] & ~JACKS)):
            ss = s
    for a in range(MAX_ACTIONS):
        possible[a] = 0
    if ls >= 0:
        nj = hand & SUIT_MASK[ls] & ~JACKS
        cards[0] = lowest(nj)
        cards[1] = highest(nj)
        possible[0] = 1
        possible[1] = 1 if cards[1] != cards[0] else 0
    if ss >= 0:
        cards[2] = lowest(hand & SUIT_MASK[ss] & ~JACKS)
        possible[2] = 1
    tr = hand & tmask & ~JACKS
    if tr != 0:
        cards[3] = lowest(tr)
        possible[3] = 1
    j = _dearest_jack(t, hand & ~tmask)
    if j >= 0:
        cards[4] = j
        possible[4] = 1
    if _choices(possible, MAX_ACTIONS) < 2:
        return -1
    tl = popcount(hand & tmask)
    if t[T.players] == 3:
        side = min(max(longest - 4, 0), 3)
        tband = min(max(tl - 1, 0) // 2, 3)
    else:
        side = min(max(longest - 3, 0), 3)
        tband = min(tl // 2, 3)
    return (side * 4 + tband) * 3 + min(popcount(hand & JACKS), 2)


@loop
def jack_position(t, seat, cards, possible):
    """Second or third in a trick that holds a jack (the trick play). ``win``: my lowest
    non-jack card that takes the trick as it stands; ``duck``: my highest non-jack card that
    does not; ``shed``: my dearest jack that does not. Cell: the seat, the penalty of the
    jacks in the trick (1, 2, 3, 4 or more), my holding in the led suit against the card
    winning now: void without a card that wins, void with one (a trump), all under it, or
    cards under and over it (all over it leaves no choice)."""
    tlen = t[T.trick_len]
    if t[T.phase] != 0 or tlen == 0:
        return -1
    pen = 0
    jacks = 0
    for i in range(tlen):
        x = t[T.trick + i]
        if (x >> 2) == JACK_RANK:
            pen += t[T.jack_penalty + (x & 3)]
            jacks += 1
    if jacks == 0:
        return -1
    trump = t[T.trump]
    led = t[T.trick] & 3
    best = t[T.trick + trick_winner_index(t, tlen, trump)]
    legal = legal_cards(t, seat)
    win = legal & above(best)
    if trump >= 0 and (best & 3) != trump:
        win |= legal & SUIT_MASK[trump]
    lose = legal & ~win
    for a in range(3):
        possible[a] = 0
    if (lose & ~JACKS) != 0:
        cards[0] = highest(lose & ~JACKS)
        possible[0] = 1
    if (win & ~JACKS) != 0:
        cards[1] = lowest(win & ~JACKS)
        possible[1] = 1
    j = _dearest_jack(t, lose)
    if j >= 0:
        cards[2] = j
        possible[2] = 1
    if _choices(possible, 3) < 2:
        return -1
    follow = t[T.hand + seat] & SUIT_MASK[led]
    if follow == 0:
        hold = 1 if possible[1] != 0 else 0
    else:  # all over the winning card is no choice (win or play the jack, which wins too)
        hold = 3 if (follow & win) != 0 else 2
    return ((tlen - 1) * 4 + min(max(pen, 1), 4) - 1) * 4 + hold


@loop
def faceup_position(t, seat, cards, possible):
    """Two players, phase 1: fight for the face-up card or give it up. Leading, ``fight`` is
    my lowest non-jack card no unseen card beats, else my highest non-jack card, and ``give``
    my lowest non-jack card; second, ``fight`` is my lowest non-jack card that beats the lead
    and ``give`` my lowest non-jack card that does not. Cell: leading or second, the face-up
    card's rank, my hand's high-card points (A 4, K 3, Q 2, T 1)."""
    fu = t[T.faceup]
    if t[T.phase] != 1 or fu < 0:
        return -1
    hand = t[T.hand + seat]
    nonjack = legal_cards1(t, seat) & ~JACKS
    possible[0] = 0
    possible[1] = 0
    if nonjack == 0:
        return -1
    role = t[T.trick_len]
    if role == 0:
        sure = sure_cards(nonjack, FULL & ~(hand | t[T.played]) & ~bit(fu))
        cards[0] = lowest(sure) if sure != 0 else highest(nonjack)
        cards[1] = lowest(nonjack)
        if cards[0] == cards[1]:
            return -1
    else:
        win = nonjack & above(t[T.trick])
        lose = nonjack & ~win
        if win == 0 or lose == 0:
            return -1
        cards[0] = lowest(win)
        cards[1] = lowest(lose)
    possible[0] = 1
    possible[1] = 1
    r = fu >> 2
    rank = 0 if r <= 4 else (1 if r <= 7 else r - 6)
    points = (popcount(hand & (np.int64(15) << 32)) + 2 * popcount(hand & (np.int64(15) << 40))
              + 3 * popcount(hand & (np.int64(15) << 44)) + 4 * popcount(hand & (np.int64(15) << 48)))
    strength = 0 if points <= 6 else (1 if points <= 9 else (2 if points <= 12 else 3))
    return (role * 7 + rank) * 4 + strength


@loop
def classify(t, seat, kind, cards, possible):
    """The cell of the decision of ``seat`` now in a table of ``kind`` (-1: none), with the
    cards its actions play (``cards``, ``possible``)."""
    if kind == LEAD:
        return lead_position(t, seat, cards, possible)
    if kind == JACK:
        return jack_position(t, seat, cards, possible)
    return faceup_position(t, seat, cards, possible)


# ---- the kernel ---------------------------------------------------------------------------------
#: What the loop allocates once: the table, the kept position's table, a play-out's table, the
#: deck, the dealt hands, the kept position's action cards, possibles, values, the work copies of
#: them, the deal's plays, the random states of the play-outs.
Work = namedtuple("Work", ["t", "kept", "t2", "deck", "hand0", "cards", "possible", "values", "cards2",
                           "possible2", "log", "sub"])


def strategy_kernel(state, n, out, rules, kind, n_actions, pol, samples, calls, phase1, record=None):
    """``n`` deals, at most one position of a table of ``kind`` from each, counted into ``out``
    (the table's counts, :data:`cardodds.strategy.CELL` a cell). ``pol``: the lineup's policy
    codes; ``calls``: :func:`._policies.calls` for a lineup with a look-ahead, ``pimc`` or user
    player, else None (the random and heuristic players' own loop is compiled instead);
    ``phase1``: :func:`._table.phase1_arg`. ``record`` (None, or ``n`` rows of
    :data:`RECORD.size`): each deal's position, for the advisor's benchmark. Plain Python
    around the compiled loop, as every deals kernel."""
    work = Work(np.empty(TABLE_SIZE, np.int64), np.empty(TABLE_SIZE, np.int64), np.empty(TABLE_SIZE, np.int64),
                np.arange(52, dtype=np.int64), np.empty(4, np.int64), np.zeros(MAX_ACTIONS, np.int64),
                np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS, np.int64), np.zeros(MAX_ACTIONS, np.int64),
                np.zeros(MAX_ACTIONS, np.int64), np.zeros(52, np.int64), np.zeros((2, 4), np.uint64))
    _strategy_loop(state, n, out, rules, (kind, n_actions), (pol, samples), calls, pol if calls is None else None,
                   phase1, record, work, new_scratch())


@inline
def _past(t, kind):
    """No position of a table of ``kind`` can arise any more in this deal: the first lead of the
    trick play is past, or phase 1 is over."""
    if kind == LEAD:
        return t[T.phase] == 0 and (t[T.n_tricks] > 0 or t[T.trick_len] > 0)
    return kind == FACEUP and t[T.phase] == 0


@inline
def _decide(state, t, seat, pol, samples, calls, basic, scr, rs, phase1):
    if calls is not None:
        return choose(state, t, seat, pol[seat], samples, calls, scr, rs, phase1)
    if basic is not None:
        if phase1 is not None and t[T.phase] == 1:
            return _basic_choose1(state, t, seat, basic[seat])
        return _basic_choose_trick(state, t, seat, basic[seat])
    return -1


@loop
def play_actions(state, kept, seat, actions, n_actions, pol, samples, calls, basic, phase1, work, scratch):
    """``values[a]`` = ``seat``'s score at the end of the deal when it plays ``cards[a]`` in the
    table ``kept`` and the lineup plays the deal out, for each ``possible`` action
    (``actions``: the three arrays), every action from the same random state (drawn from
    ``state``); ``work``: a table and a (2, 4) uint64 array to play on."""
    cards, possible, values = actions
    t2, sub = work
    for j in range(4):
        sub[0, j] = next_u64(state)
    for a in range(n_actions):
        values[a] = 0
        if possible[a] != 0:
            play_option_out(sub, t2, kept, seat, cards[a], pol, samples, calls, basic, scratch, phase1)
            values[a] = score(t2, seat)


@loop(from_python=True)
def _strategy_loop(state, n, out, rules, table, lineup, calls, basic, phase1, record, work, scratch):
    kind, n_actions = table
    pol, samples = lineup
    players = rules[R.players]
    t, kept, t2, deck, hand0, cards, possible, values, cards2, possible2, log, sub = work
    scr, rs = scratch
    stride = 1 + 3 * n_actions * n_actions
    for i in range(n):
        start_deal(state, t, deck, 52, rules, -1, 0, -1, 1, 0, 0, hand0)
        if players == 2:
            t[T.trump_draw] = bounded(state, STOCK)
        m = 0
        cell = -1
        seat = 0
        plays = 0
        kept_plays = 0
        while True:
            s = to_play(t)
            c2 = classify(t, s, kind, cards2, possible2)
            if c2 >= 0:
                m += 1
                if m == 1 or bounded(state, m) == 0:
                    cell = c2
                    seat = s
                    kept_plays = plays
                    copy_into(kept, t)
                    copy_into(cards, cards2)
                    copy_into(possible, possible2)
                    if kind == LEAD:
                        break  # one lead a deal: the rest of the deal is not needed
            c = _decide(state, t, s, pol, samples, calls, basic, scr, rs, phase1)
            if record is not None:
                log[plays] = s * 64 + c
            plays += 1
            if play_any(state, t, s, c, phase1) or _past(t, kind):
                break
        if cell < 0:
            if record is not None:
                record[i, P.cell] = -1
            continue
        play_actions(state, kept, seat, (cards, possible, values), n_actions, pol, samples, calls, basic, phase1,
                     (t2, sub), scratch)
        add_actions(out, cell * stride, values, possible, n_actions)
        if record is not None:
            record[i, P.cell] = cell
            record[i, P.seat] = seat
            record[i, P.plays] = kept_plays
            for a in range(n_actions):
                record[i, P.cards + a] = cards[a]
                record[i, P.possible + a] = possible[a]
                record[i, P.values + a] = values[a]
            for k in range(kept_plays):
                record[i, P.log + k] = log[k]
            record[i, P.hand] = kept[T.hand + seat]
            record[i, P.card] = kept[T.turned] if players == 3 else (
                kept[T.faceup] if kept[T.phase] == 1 else kept[T.trump_card])
            for k in range(STOCK // 2):
                record[i, P.faceups + k] = kept[T.stock + 2 * k]
