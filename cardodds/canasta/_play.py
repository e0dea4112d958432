"""The chunk kernels of :mod:`cardodds.canasta.play`: single hands, hands paired under two
rules sets, whole games, paired strength matches; and the counts they fill."""

from __future__ import annotations

from collections import namedtuple

import numpy as np

from .._jit import helper, inline, kernel
from .._tally import add_paired
from ..layout import Layout
from ._kernels import CANASTA_NONE, canasta_kind
from ._worlds import copy_into
from ._lookahead import lookahead_choose
from ._policies import choose
from ._table import (MAX_CARDS, MAX_MOVES, MAX_TURNS, MV_TAKE_ADD, MV_TAKE_NEW, MW, N_VIOL, PH_OVER, S_SIZE, SA, SEATS,
                     SLOTS, V_POLICY, V_STUCK, R, _I, apply_move, check_score, check_table, gen_moves, hand_dealer,
                     meld_at, new_hand, score_hand)
from .cards import N_KINDS


#: A kernel's table, its move list, kind counts and violation counters (:func:`_scratch`).
Table = namedtuple("Table", ["t", "mv", "work", "viol"])
#: The seats' policy codes and heuristic parameters, or one side's (a code and its parameters).
Seats = namedtuple("Seats", ["pol", "hp"])
#: A rules set of a paired run: its pack (card kinds) and its packed rules.
RulesSet = namedtuple("RulesSet", ["deck", "rl"])


def check_arg(check: bool, counts):
    """The ``check`` argument of the kernels: the pack's kind ``counts`` the table is checked
    against, or None when off, so that numba leaves the checks out of the compiled kernel."""
    return counts if check else None


@inline
def play_hand(rng, table, rl, deck, dealer, seats, check, user, out, base, look, smart):
    """Deal and play one hand to its end; scores in ``table.t[score]``. With ``base >= 0`` the
    size of every pile taken is counted in the block of ``out`` at ``base``. ``look`` is None
    unless a seat plays ``lookahead`` (numba then leaves the look-ahead player out of the kernel),
    ``smart`` None unless a seat plays heuristic2 (:func:`cardodds.canasta._policies.smart_arg`)."""
    t, mv, work, viol = table
    pol, hp = seats
    new_hand(rng, t, rl, deck, dealer)
    if check is not None:
        check_table(t, rl, check, viol, work)
    while t[SA.phase] != PH_OVER:
        nm = gen_moves(t, rl, mv, work)
        if nm == 0:
            viol[V_STUCK] += 1
            t[SA.phase] = PH_OVER
            break
        if look is None:
            i = choose(rng, t, rl, mv, nm, pol, hp, user, smart)
        else:
            i = lookahead_choose(rng, t, rl, mv, nm, pol, hp, user, smart)
        if base >= 0 and (mv[i, 0] == MV_TAKE_NEW or mv[i, 0] == MV_TAKE_ADD):
            out[base + OA.take_size + t[SA.pile_len]] += 1
        apply_move(t, rl, mv[i])
        if check is not None:
            check_table(t, rl, check, viol, work)
    score_hand(t, rl, work)
    if check is not None:
        check_score(t, rl, viol)
    if t[SA.bad_moves] > 0:
        viol[V_POLICY] += t[SA.bad_moves]


#: Counts of the hands kernels, per block (one block per rules set in a paired run).
SCORE_BINS = 240   # hand score per side in 100-point bins from -8000
SCORE_LO = -8000
HC = Layout("canasta play counts", [
    ("hands", 1), ("violations", N_VIOL),
    ("open_turn", 2 * (MAX_TURNS + 1)),     # side x the turn it opened (last bin: never)
    ("canasta_turn", 2 * (MAX_TURNS + 1)),  # side x the turn of its first canasta (last: never)
    ("canastas", 2 * 4),                    # side x kind (none unused, mixed, clean, joker): total
    ("canastas_sq", 2),                     # side: sum of squares of canastas a hand
    ("takes", 2), ("takes_sq", 2),          # side: pile takes a hand
    ("take_size", MAX_CARDS + 1),           # cards taken with the pile (both sides)
    ("end_turn", 2 * (MAX_TURNS + 1)),      # (went out, stock empty) x turns played
    ("score", 2), ("score_sq", 2),          # side: hand score sum and sum of squares
    ("score_hist", 2 * SCORE_BINS),
    ("diff_sq", 1),                         # sum of squares of (side 0 - side 1)
    ("red3", 2),                            # red 3s laid, side totals
])
OA = HC.at
O_SIZE = HC.size


@helper
def record_hand(t, out, base):
    """Add one finished hand's figures to the counts block at ``base``."""
    out[base + OA.hands] += 1
    for side in range(2):
        ot = t[SA.open_turn + side]
        out[base + OA.open_turn + side * (MAX_TURNS + 1) + (ot if ot >= 0 else MAX_TURNS)] += 1
        ct = t[SA.canasta_turn + side]
        out[base + OA.canasta_turn + side * (MAX_TURNS + 1) + (ct if ct >= 0 else MAX_TURNS)] += 1
        nc = 0
        for sl in range(SLOTS):
            o = meld_at(side, sl)
            ck = canasta_kind(t[o], t[o + 1], t[o + 2], t[o + 3])
            if ck != CANASTA_NONE:
                out[base + OA.canastas + side * 4 + ck] += 1
                nc += 1
        out[base + OA.canastas_sq + side] += nc * nc
        tk = t[SA.pile_takes + side]
        out[base + OA.takes + side] += tk
        out[base + OA.takes_sq + side] += tk * tk
        s = t[SA.score + side]
        out[base + OA.score + side] += s
        out[base + OA.score_sq + side] += s * s
        b = (s - SCORE_LO) // 100
        b = 0 if b < 0 else (SCORE_BINS - 1 if b >= SCORE_BINS else b)
        out[base + OA.score_hist + side * SCORE_BINS + b] += 1
        out[base + OA.red3 + side] += t[SA.red3 + side]
    d = t[SA.score] - t[SA.score + 1]
    out[base + OA.diff_sq] += d * d
    how = 0 if t[SA.went_out] >= 0 else 1
    out[base + OA.end_turn + how * (MAX_TURNS + 1) + min(t[SA.turn] + 1, MAX_TURNS)] += 1


#: Counts of :func:`paired_kernel`: a :data:`HC` block per rules set, then the paired change
#: of side 0's hand score (B - A): its sum, sum of squares and sum of signs.
PAIRED = Layout("canasta paired counts", [("a", O_SIZE), ("b", O_SIZE), ("change", 1), ("change_sq", 1),
                                          ("change_sign", 1)])
PA = PAIRED.at



@helper
def _scratch():
    """A kernel's :data:`Table`."""
    return Table(np.zeros(S_SIZE, dtype=np.int64), np.zeros((MAX_MOVES, MW), dtype=np.int64),
                 np.zeros(N_KINDS, dtype=np.int64), np.zeros(N_VIOL, dtype=np.int64))


@kernel
def hands_kernel(rng, n, out, deck, rl, seats, check, user, look, smart):
    """Play ``n`` single hands (seat 3 deals, so seat 0 of side 0 moves first)."""
    d = deck.copy()
    table = _scratch()
    for _ in range(n):
        _play_recorded(rng, table, rl, d, hand_dealer(rl), seats, check, out, _I(0), user, look, smart)
    for v in range(N_VIOL):
        out[OA.violations + v] += table.viol[v]


@inline
def _play_recorded(rng, table, rl, d, dealer, seats, check, out, base, user, look, smart):
    """Play a hand and record it, the pile takes' sizes included."""
    play_hand(rng, table, rl, d, dealer, seats, check, user, out, base, look, smart)
    record_hand(table.t, out, base)


@kernel
def paired_kernel(rng, n, out, set_a, set_b, seats, check_a, check_b, user, look, smart):
    """Each sample plays the same deal (the same random stream from the deal on) under rules
    A and rules B (each a :data:`RulesSet`); counts by :data:`PAIRED`: a block of figures for each,
    and the paired change of side 0's hand score (B - A): sum, sum of squares, and the hands
    where B's side-0 score was higher minus lower (for a sign test)."""
    deck_a, rl_a = set_a
    deck_b, rl_b = set_b
    da = deck_a.copy()
    db = deck_b.copy()
    keep = deck_a.copy()
    same = deck_a.shape[0] == deck_b.shape[0]
    table = _scratch()
    t = table.t
    saved = rng.copy()
    for _ in range(n):
        copy_into(saved, rng)
        copy_into(keep, da)
        _play_recorded(rng, table, rl_a, da, hand_dealer(rl_a), seats, check_a, out, _I(PA.a), user, look, smart)
        sa = t[SA.score]
        after = rng.copy()
        copy_into(rng, saved)
        if same:
            copy_into(db, keep)  # the same pack order, so the same shuffle deals the same cards
        _play_recorded(rng, table, rl_b, db, hand_dealer(rl_b), seats, check_b, out, _I(PA.b), user, look, smart)
        sb = t[SA.score]
        copy_into(rng, after)
        dd = sb - sa
        out[PA.change] += dd
        out[PA.change_sq] += dd * dd
        out[PA.change_sign] += 1 if dd > 0 else (-1 if dd < 0 else 0)
    for v in range(N_VIOL):
        out[OA.violations + v] += table.viol[v]


#: Counts of the game kernel.
MAX_GAME_HANDS = 400
G = Layout("canasta game counts", [
    ("games", 1), ("violations", N_VIOL), ("first_dealer_wins", 1), ("unfinished", 1),
    ("hands", MAX_GAME_HANDS + 1), ("hands_sum", 1), ("hands_sq", 1), ("margin", 1), ("margin_sq", 1),
])
GA = G.at


@helper
def game_decided(tot0, tot1, target):
    """After a hand: a side has reached the target and the totals differ (an exact tie plays on)."""
    return (tot0 >= target or tot1 >= target) and tot0 != tot1


@helper
def play_game(rng, table, rl, d, max_hands, seats, check, user, out, look, smart, start):
    """Play one game to ``target`` from ``start`` (side 0's and side 1's totals, then the
    first hand's dealer: a new game is zeros, seat 0 deals); the deal passes in the direction
    of play; each hand starts with the game score in ``t[game]``. After a hand in which a side
    reached the target the higher total wins, an exact tie plays on. Returns the two totals,
    the hands played and whether the game ended within ``max_hands``."""
    t = table.t
    tot0 = start[0]
    tot1 = start[1]
    hands = 0
    while hands < max_hands:
        dealer = (start[2] + SEATS + rl[R.direction] * (hands % SEATS)) % SEATS
        t[SA.game] = tot0
        t[SA.game + 1] = tot1
        play_hand(rng, table, rl, d, dealer, seats, check, user, out, _I(-1), look, smart)
        hands += 1
        tot0 += t[SA.score]
        tot1 += t[SA.score + 1]
        if game_decided(tot0, tot1, rl[R.target]):
            return tot0, tot1, hands, True
    return tot0, tot1, hands, False


@kernel
def game_kernel(rng, n, out, deck, rl, max_hands, seats, check, user, look, smart, start):
    """Play ``n`` games to ``target`` from ``start`` (:func:`play_game`). A game still open
    after ``max_hands`` hands counts as unfinished."""
    d = deck.copy()
    table = _scratch()
    for _ in range(n):
        tot0, tot1, hands, done = play_game(rng, table, rl, d, max_hands, seats, check, user, out, look, smart, start)
        out[GA.games] += 1
        if not done:
            out[GA.unfinished] += 1
            continue
        if tot0 > tot1:
            out[GA.first_dealer_wins] += 1
        out[GA.hands + min(hands, MAX_GAME_HANDS)] += 1
        out[GA.hands_sum] += hands
        out[GA.hands_sq] += hands * hands
        m = tot0 - tot1 if tot0 > tot1 else tot1 - tot0
        out[GA.margin] += m
        out[GA.margin_sq] += m * m
    for v in range(N_VIOL):
        out[GA.violations + v] += table.viol[v]


#: Counts of the strength match.
M = Layout("canasta match counts", [
    ("pairs", 1), ("violations", N_VIOL), ("diff2", 1), ("diff2_sq", 1), ("better", 1), ("worse", 1),
])
MA = M.at


@inline
def _pair_scratch(rng, deck, hp_a):
    """A paired match's pack (played, and kept for the pair's second play), the seats'
    policies and parameters, and the stream saved for the second play."""
    return (deck.copy(), deck.copy(), np.zeros(SEATS, dtype=np.int64), np.zeros((SEATS, hp_a.shape[0]), dtype=np.int64),
            rng.copy())


@helper
def _seat_sides(rng, saved, d, keep, pol, hp, rep, side_a, side_b):
    """Seat A at seats 0+2 for the first play of a pair (``rep`` 0: the stream and the pack
    saved), at seats 1+3 for the second (the stream and the pack as the first play found them);
    ``side_a`` and ``side_b`` are :data:`Seats` of one code and its parameters."""
    code_a, hp_a = side_a
    code_b, hp_b = side_b
    # Copies as loops (copy_into), not slice assignments: those compile numba's message for
    # arrays of different shapes.
    for s in range(SEATS):
        a_here = (s % 2 == 0) == (rep == 0)
        pol[s] = code_a if a_here else code_b
        copy_into(hp[s], hp_a if a_here else hp_b)
    if rep == 0:
        copy_into(saved, rng)
        copy_into(keep, d)
    else:
        copy_into(rng, saved)
        copy_into(d, keep)


@kernel
def match_kernel(rng, n, out, deck, rl, side_a, side_b, check, user, look, smart):
    """Paired strength: each deal is played twice, A at seats 0+2 then A at seats 1+3, from
    the same random stream. ``diff2`` adds twice A's mean margin over the pair (points of A's
    side minus B's, summed over the two plays)."""
    d, keep, pol, hp, saved = _pair_scratch(rng, deck, side_a.hp)
    seats = Seats(pol, hp)
    table = _scratch()
    t = table.t
    for _ in range(n):
        total = 0
        for rep in range(2):
            _seat_sides(rng, saved, d, keep, pol, hp, rep, side_a, side_b)
            play_hand(rng, table, rl, d, hand_dealer(rl), seats, check, user, out, _I(-1), look, smart)
            m = t[SA.score] - t[SA.score + 1]
            total += m if rep == 0 else -m
        add_paired(out, MA.pairs, MA.diff2, MA.diff2_sq, MA.better, MA.worse, total)
    for v in range(N_VIOL):
        out[MA.violations + v] += table.viol[v]


#: Counts of the paired game match: the margin of A's total over B's a game (``diff2`` the
#: sum over the pair's two games), the games A won (0..2 a pair) and their squares, the
#: hands a game (sum and squares) and the games left unfinished.
GM = Layout("canasta game match counts", [
    ("pairs", 1), ("violations", N_VIOL), ("diff2", 1), ("diff2_sq", 1), ("better", 1), ("worse", 1),
    ("wins", 1), ("wins_sq", 1), ("hands", 1), ("hands_sq", 1), ("unfinished", 1),
])
GMA = GM.at


@kernel
def game_match_kernel(rng, n, out, deck, rl, max_hands, side_a, side_b, check, user, look, smart):
    """Paired games: each pair plays two whole games (:func:`play_game`) from the same random
    stream and pack order, A at seats 0+2 (dealing first) then at seats 1+3."""
    d, keep, pol, hp, saved = _pair_scratch(rng, deck, side_a.hp)
    seats = Seats(pol, hp)
    table = _scratch()
    start = np.zeros(3, dtype=np.int64)
    for _ in range(n):
        wins = 0
        total = 0
        for rep in range(2):
            _seat_sides(rng, saved, d, keep, pol, hp, rep, side_a, side_b)
            tot0, tot1, hands, done = play_game(rng, table, rl, d, max_hands, seats, check, user, out, look, smart,
                                                start)
            m = tot0 - tot1 if rep == 0 else tot1 - tot0
            total += m
            if done and m > 0:
                wins += 1
            out[GMA.hands] += hands
            out[GMA.hands_sq] += hands * hands
            if not done:
                out[GMA.unfinished] += 1
        add_paired(out, GMA.pairs, GMA.diff2, GMA.diff2_sq, GMA.better, GMA.worse, total)
        out[GMA.wins] += wins
        out[GMA.wins_sq] += wins * wins
    for v in range(N_VIOL):
        out[GMA.violations + v] += table.viol[v]
