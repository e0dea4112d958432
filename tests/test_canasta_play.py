"""Polish Canasta played (docs/rules/canasta.md): every rule on a hand-built table, checked random and
heuristic hands across the rules options, and the pure-Python twin on the same random stream."""

from __future__ import annotations

import numpy as np
import pytest

from . import naive_canasta_play as naive
from cardodds.canasta import _play as P
from cardodds.canasta import _policies
from cardodds.canasta import _table as T
from cardodds.canasta._kernels import score_side
from cardodds.canasta.cards import BLACK3, JOKER, KING, N_KINDS, RED3, TWO, deck_counts, deck_kinds, hand_counts
from cardodds.canasta.policies import resolve_policies
from cardodds.canasta.rules import CanastaRules, meld_rules
from cardodds.rng import as_seed_sequence, chunk_state

SA = T.SA
QUEEN, NINE, SEVEN, FIVE = 11, 8, 6, 4

OPTIONS = [
    CanastaRules(),
    CanastaRules(wild_limit="three"),
    CanastaRules(wild_limit="none"),
    CanastaRules(min_first_meld=50),
    CanastaRules(min_first_meld=0),
    CanastaRules(jokers=6),
    CanastaRules(going_out="meld_all"),
    CanastaRules(swap_twos=True),
    CanastaRules(going_out_needs_canasta=True),
    CanastaRules(wild_melds=False),
]
#: The other defaults of docs/rules/canasta.md as options.
SEATING_OPTIONS = [
    CanastaRules(direction="counterclockwise"),
    CanastaRules(first_player="dealer"),
    CanastaRules(empty_stock="take_pile"),
    CanastaRules(added_cards="adder"),
]


# ---- a hand-built table ---------------------------------------------------------------------
def table(hands=None, melds=(), pile=(), stock=(), seat=0, turn=8, opened=(False, False), red3=(0, 0),
          empty_stock=False):
    """A table: ``hands`` {seat: "cards"}, ``melds`` [(side, kind, naturals, twos, jokers)],
    ``pile`` kinds bottom to top, ``stock`` the next kinds to draw; the rest of the pack lies
    under them, so every card is somewhere (``empty_stock``: no stock at all)."""
    t = np.zeros(T.S.size, dtype=np.int64)
    for side in range(2):
        for sl in range(T.SLOTS):
            t[T.meld_at(side, sl)] = -1 if sl == T.WILD_SLOT else sl + 3
    used = np.zeros(N_KINDS, dtype=np.int64)
    for s, text in (hands or {}).items():
        c = hand_counts(text) if isinstance(text, str) else np.asarray(text)
        t[SA.hand + 15 * s:SA.hand + 15 * s + 15] = c
        used += c
    for side, kind, n, tw, jk in melds:
        o = T.meld_at(side, T.WILD_SLOT if kind < 0 else kind - 3)
        t[o + 1:o + 4] = (n, tw, jk)
        if kind >= 0:
            used[kind] += n
        used[TWO] += tw
        used[JOKER] += jk
        t[SA.opened + side] = 1
    for side in range(2):
        if opened[side]:
            t[SA.opened + side] = 1
        t[SA.red3 + side] = red3[side]
        used[RED3] += red3[side]
    for i, k in enumerate(pile):
        t[SA.pile + i] = k
        used[k] += 1
    t[SA.pile_len] = len(pile)
    stock = list(stock)
    for k in stock:
        used[k] += 1
    if not empty_stock:
        stock += list(np.repeat(np.arange(N_KINDS), deck_counts(4) - used))
    size = 108
    start = size - len(stock)
    for i, k in enumerate(stock):
        t[SA.stock + start + i] = k
    t[SA.stock_pos] = start
    t[SA.deck_size] = size
    t[SA.seat] = seat
    t[SA.turn] = turn
    t[SA.went_out] = -1
    t[SA.can_take] = 1
    for side in range(2):
        t[SA.open_turn + side] = -1
        t[SA.canasta_turn + side] = -1
    return t


RULES = CanastaRules().pack()


def moves(t, rules=RULES):
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    n = T.gen_moves(t, rules, mv, np.zeros(N_KINDS, dtype=np.int64))
    return [tuple(int(x) for x in mv[i]) for i in range(n)]


def of_type(ms, typ):
    return [m for m in ms if m[0] == typ]


def play(t, m, rules=RULES):
    T.apply_move(t, rules, np.asarray(m, dtype=np.int64))


def hand(t, seat):
    return t[SA.hand + 15 * seat:SA.hand + 15 * seat + 15]


def violations(t, rules=RULES, counts=None):
    viol = np.zeros(T.N_VIOL, dtype=np.int64)
    T.check_table(t, rules, deck_counts(4) if counts is None else counts, viol, np.zeros(N_KINDS, dtype=np.int64))
    return viol


# ---- the deal and the turn ------------------------------------------------------------------------------
def test_deal_gives_twelve_each_upcard_on_pile_and_the_player_left_of_the_dealer_draws_first():
    ss, _ = as_seed_sequence(7)
    t = np.zeros(T.S.size, dtype=np.int64)
    for dealer in range(4):
        T.new_hand(chunk_state(ss, dealer), t, CanastaRules().pack(), deck_kinds(4), dealer)
        first = (dealer + 1) % 4
        assert t[SA.seat] == first
        for s in range(4):
            assert hand(t, s).sum() == (13 if s == first else 12)
        assert t[SA.pile_len] == 1 and t[SA.stock_pos] == 50  # 48 dealt, the upcard, one drawn
        assert not violations(t).any()


def test_draw_first_then_the_turn_ends_with_a_discard_and_passes_left():
    t = table({0: "Kh Kd 9c 4s", 1: "5s 6s 7s 8s"}, pile=[NINE], stock=[FIVE, SEVEN, SEVEN])
    play(t, (T.MV_DISCARD, KING, 0, 0, 0))
    assert t[SA.seat] == 1 and t[SA.turn] == 9
    assert hand(t, 1)[FIVE] == 2  # drew the stock's top card before anything else
    assert t[SA.pile + t[SA.pile_len] - 1] == KING


def test_empty_stock_ends_the_hand_without_a_going_out_bonus():
    t = table({0: "Kh Kd 9c 4s", 1: "5s 6s 7s 8s"}, pile=[NINE], empty_stock=True)
    play(t, (T.MV_DISCARD, NINE, 0, 0, 0))
    assert t[SA.phase] == T.PH_OVER and t[SA.went_out] == -1


# ---- the pile ---------------------------------------------------------------------------------------------
def test_black_three_on_top_blocks_the_pile():
    t = table({0: "Kh Kd Ks Jk 2c 9c"}, pile=[KING, BLACK3], opened=(True, False))
    assert not of_type(moves(t), T.MV_TAKE_NEW) and not of_type(moves(t), T.MV_TAKE_ADD)
    t = table({0: "Kh Kd Ks Jk 2c 9c"}, pile=[BLACK3, KING], opened=(True, False))
    assert of_type(moves(t), T.MV_TAKE_NEW)


def test_unopened_side_takes_the_pile_only_with_a_first_meld_holding_the_top_card():
    # K K + top K = 30 points: enough for min_first_meld=30
    t = table({0: "Kh Kd 9c 4s"}, pile=[FIVE, KING])
    takes = of_type(moves(t), T.MV_TAKE_NEW)
    assert takes == [(T.MV_TAKE_NEW, KING, 3, 0, 0)]
    # 9 9 + top 9 = 30 but the 9s are not the top card's rank: no take with top 5
    t = table({0: "9h 9d 5c 4s"}, pile=[KING, FIVE])
    assert of_type(moves(t), T.MV_TAKE_NEW) == []  # 5 5 + top 5 = 15 < 30
    r50 = CanastaRules(min_first_meld=50).pack()
    t = table({0: "Kh Kd 9c 4s"}, pile=[FIVE, KING])
    assert of_type(moves(t, r50), T.MV_TAKE_NEW) == []


def test_taking_the_pile_melds_the_top_card_and_takes_the_whole_pile():
    t = table({0: "Kh Kd 9c 4s"}, pile=[FIVE, SEVEN, KING])
    play(t, (T.MV_TAKE_NEW, KING, 3, 0, 0))
    assert t[SA.pile_len] == 0
    h = hand(t, 0)
    assert h[KING] == 0 and h[FIVE] == 1 and h[SEVEN] == 1 and h.sum() == 4
    o = T.meld_at(0, KING - 3)
    assert tuple(t[o:o + 4]) == (KING, 3, 0, 0) and t[SA.opened] == 1
    assert not violations(t).any()
    assert not of_type(moves(t), T.MV_TAKE_NEW)  # once a turn


def test_pile_top_can_go_onto_any_meld_once_opened_and_only_before_other_moves():
    t = table({0: "9c 4s 5s"}, melds=[(1, KING, 3, 0, 0)], pile=[FIVE, KING], opened=(True, False))
    assert (T.MV_TAKE_ADD, 1, KING - 3, 0, 0) in moves(t)
    play(t, (T.MV_TAKE_ADD, 1, KING - 3, 0, 0))
    o = T.meld_at(1, KING - 3)
    assert t[o + 1] == 4  # the card joins their meld, which stays theirs
    assert hand(t, 0)[FIVE] == 2
    t = table({0: "9c 9d 9h 4s"}, melds=[(0, KING, 3, 0, 0)], pile=[KING], opened=(True, False))
    play(t, (T.MV_NEW, NINE, 3, 0, 0))
    assert not of_type(moves(t), T.MV_TAKE_ADD)


# ---- melds ------------------------------------------------------------------------------------------------------
def test_first_meld_of_a_side_reaches_the_minimum_then_any_legal_meld():
    t = table({0: "5h 5d 5c Kh Kd Ks 9c"})
    new = of_type(moves(t), T.MV_NEW)
    assert (T.MV_NEW, KING, 3, 0, 0) in new and (T.MV_NEW, FIVE, 3, 0, 0) not in new
    play(t, (T.MV_NEW, KING, 3, 0, 0))
    assert (T.MV_NEW, FIVE, 3, 0, 0) in moves(t)


def test_unopened_side_may_not_add_or_swap():
    t = table({0: "Kh 5c 9c 4s"}, melds=[(1, KING, 3, 0, 1)])
    ms = moves(t)
    assert not of_type(ms, T.MV_ADD) and not of_type(ms, T.MV_SWAP)


def test_adding_to_the_opponents_meld_leaves_it_and_its_points_with_them():
    t = table({0: "Kh 5c 9c 4s"}, melds=[(1, KING, 6, 0, 0), (0, NINE, 3, 0, 0)])
    m = (T.MV_ADD, 1, KING - 3, KING, 0)
    assert m in moves(t)
    play(t, m)
    o = T.meld_at(1, KING - 3)
    assert t[o + 1] == 7  # their clean canasta now
    left = np.zeros(N_KINDS, dtype=np.int64)
    T.score_hand(t, RULES, left)
    pts = CanastaRules().points()
    recs1 = t[SA.meld + 48:SA.meld + 96].reshape(12, 4)
    recs0 = t[SA.meld:SA.meld + 48].reshape(12, 4)
    l0 = hand(t, 0) + hand(t, 2)
    l1 = hand(t, 1) + hand(t, 3)
    assert t[SA.score + 1] == score_side(recs1, 12, 0, l1, 0, pts, 100, 0) == 500 + 70
    assert t[SA.score] == score_side(recs0, 12, 0, l0, 0, pts, 100, 0) == -30 - 5 - 10 - 5


def test_one_meld_per_rank_per_side():
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, KING, 3, 0, 0)])
    assert not [m for m in of_type(moves(t), T.MV_NEW) if m[1] == KING]
    assert (T.MV_ADD, 0, KING - 3, KING, 0) in moves(t)


def test_wild_limits_apply_to_new_melds_and_additions():
    t = table({0: "Kh Kd 2c 2d Jk 9c 4s"}, opened=(True, False))
    kings = [m for m in of_type(moves(t), T.MV_NEW) if m[1] == KING]
    assert max(m[3] + m[4] for m in kings) == 2  # no more wilds than naturals
    r3 = CanastaRules(wild_limit="three").pack()
    assert max(m[3] + m[4] for m in of_type(moves(t, r3), T.MV_NEW) if m[1] == KING) == 3
    t = table({0: "2c 9c 4s"}, melds=[(0, KING, 2, 1, 1)])
    assert (T.MV_ADD, 0, KING - 3, TWO, 0) not in moves(t)


def test_meld_of_wilds_alone_grows_only_with_wilds():
    t = table({0: "2c 2d Jk 9c 4s"}, opened=(True, False))
    assert (T.MV_NEW, -1, 0, 2, 1) in moves(t)
    assert (T.MV_NEW, -1, 0, 2, 1) not in moves(t, CanastaRules(wild_melds=False).pack())
    t = table({0: "2c Kh 9c 4s"}, melds=[(0, -1, 0, 2, 1)])
    adds = of_type(moves(t), T.MV_ADD)
    assert (T.MV_ADD, 0, T.WILD_SLOT, TWO, 0) in adds and not [a for a in adds if a[3] == KING]


# ---- red 3s -------------------------------------------------------------------------------------------------------
def test_red_three_is_laid_with_a_replacement_and_a_red_three_again_is_laid_too():
    t = table({0: "3h Kh 9c 4s"}, stock=[RED3, RED3, FIVE, SEVEN])
    assert (T.MV_RED3, 0, 0, 0, 0) in moves(t)
    play(t, (T.MV_RED3, 0, 0, 0, 0))
    assert t[SA.red3] == 3 and hand(t, 0)[RED3] == 0 and hand(t, 0)[FIVE] == 1
    assert hand(t, 0).sum() == 4 and not violations(t).any()


def test_red_three_can_be_kept_or_discarded():
    t = table({0: "3h Kh 9c 4s"})
    assert (T.MV_DISCARD, RED3, 0, 0, 0) in moves(t)


# ---- the Joker swap ------------------------------------------------------------------------------------------------
def test_joker_swap_gives_the_natural_and_the_freed_joker_must_be_melded_at_once():
    t = table({0: "Kh 9c 9d 4s"}, melds=[(1, KING, 3, 0, 1), (0, QUEEN, 3, 0, 0)])
    m = (T.MV_SWAP, 1, KING - 3, JOKER, 0)
    assert m in moves(t)
    play(t, m)
    o = T.meld_at(1, KING - 3)
    assert tuple(t[o + 1:o + 4]) == (4, 0, 0)
    assert t[SA.phase] == T.PH_FREED
    forced = moves(t)
    assert forced and all(x[0] == T.MV_NEW and x[4] >= 1 for x in forced)
    play(t, forced[0])
    assert t[SA.phase] == T.PH_ACT and hand(t, 0)[JOKER] == 0
    assert not violations(t).any()


def test_no_swap_without_a_new_combination_for_the_joker_and_twos_only_with_swap_twos():
    t = table({0: "Kh 9c 4s"}, melds=[(1, KING, 3, 0, 1), (0, QUEEN, 3, 0, 0)])
    assert not of_type(moves(t), T.MV_SWAP)  # 9 4 + Joker is no meld
    t = table({0: "Kh 9c 9d 4s"}, melds=[(1, KING, 3, 1, 0), (0, QUEEN, 3, 0, 0)])
    assert not of_type(moves(t), T.MV_SWAP)
    assert of_type(moves(t, CanastaRules(swap_twos=True).pack()), T.MV_SWAP)


# ---- going out -------------------------------------------------------------------------------------------------------
def test_going_out_by_melding_or_discarding_scores_the_bonus():
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 3, 0, 0)])
    play(t, (T.MV_NEW, KING, 3, 0, 0))
    play(t, (T.MV_DISCARD, NINE, 0, 0, 0))
    assert t[SA.went_out] == 0 and t[SA.phase] == T.PH_OVER
    left = np.zeros(N_KINDS, dtype=np.int64)
    T.score_hand(t, RULES, left)
    opp = hand(t, 1) + hand(t, 3)
    assert t[SA.score] == -(30 + 30) - 0 + 100 - int((hand(t, 2) * CanastaRules().points()).sum())
    assert t[SA.score + 1] == -int((opp * CanastaRules().points()).sum())
    viol = np.zeros(T.N_VIOL, dtype=np.int64)
    T.check_score(t, RULES, viol)
    assert not viol.any()


def test_meld_all_forbids_going_out_by_the_last_discard():
    r = CanastaRules(going_out="meld_all").pack()
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 3, 0, 0)])
    assert (T.MV_NEW, KING, 3, 0, 0) not in moves(t, r)  # would leave one card to discard
    assert (T.MV_ADD, 0, NINE - 3, NINE, 0) in moves(t, r)
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 3, 0, 0)])
    play(t, (T.MV_ADD, 0, NINE - 3, NINE, 0), r)
    assert (T.MV_NEW, KING, 3, 0, 0) in moves(t, r)  # melding every card goes out
    play(t, (T.MV_NEW, KING, 3, 0, 0), r)
    assert t[SA.went_out] == 0


def test_nobody_goes_out_in_the_first_turn():
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 3, 0, 0)], turn=2)
    assert (T.MV_NEW, KING, 3, 0, 0) not in moves(t)
    assert (T.MV_ADD, 0, NINE - 3, NINE, 0) in moves(t)
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 3, 0, 0)], turn=4)
    assert (T.MV_NEW, KING, 3, 0, 0) in moves(t)


def test_going_out_needs_a_canasta_with_that_option():
    r = CanastaRules(going_out_needs_canasta=True).pack()
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 3, 0, 0)])
    assert (T.MV_NEW, KING, 3, 0, 0) not in moves(t, r)
    t = table({0: "Kh Kd Ks 9c"}, melds=[(0, NINE, 7, 0, 0)])
    assert (T.MV_NEW, KING, 3, 0, 0) in moves(t, r)


# ---- checked play and the twin ---------------------------------------------------------------------------------------
def _run(policy, rules, n, seed=11, chunk=0):
    ss, _ = as_seed_sequence(seed)
    codes, _, _, hp = resolve_policies(policy)
    out = np.zeros(P.HC.size, dtype=np.int64)
    P.hands_kernel(chunk_state(ss, chunk), n, out, deck_kinds(rules.jokers), rules.pack(), P.Seats(codes, hp),
                   deck_counts(rules.jokers), _policies.no_user_policy, None, 1)
    return P.HC.view(out)


@pytest.mark.parametrize("rules", OPTIONS + SEATING_OPTIONS,
                         ids=lambda r: next((f"{k}={v}" for k, v in r.to_dict().items()
                                             if v != getattr(CanastaRules(), k)), "default"))
@pytest.mark.parametrize("policy", ["random", "heuristic", "heuristic2", "random,heuristic,random,heuristic"])
def test_checked_hands_have_no_violation(policy, rules):
    v = _run(policy, rules, 300)
    assert v.hands == 300
    assert not v.violations.any(), v.violations
    # both ways of ending happen, and real play happens: canastas, pile takes
    assert v.canastas.sum() > 0


@pytest.mark.slow
def test_a_million_checked_random_hands_have_no_violation():
    from cardodds import engine

    for i, rules in enumerate(OPTIONS + SEATING_OPTIONS):
        codes, _, _, hp = resolve_policies("random")
        res = engine.run(P.hands_kernel, (deck_kinds(rules.jokers), rules.pack(), P.Seats(codes, hp),
                                          deck_counts(rules.jokers), _policies.no_user_policy, None, 1),
                         P.HC.size, samples=100_000, rng=1000 + i, chunk_size=4096)
        v = P.HC.view(res.counts)
        assert v.hands == 100_000 and not v.violations.any(), (rules, v.violations)


def _twin_rules(r):
    return dict(points=[int(x) for x in r.points()], code=r.wild_code, min_first=r.min_first_meld,
                wild_melds=bool(r.wild_melds), swap_twos=bool(r.swap_twos), meld_all=r.going_out == "meld_all",
                bonus=r.going_out_bonus, needs_canasta=bool(r.going_out_needs_canasta),
                direction=1 if r.direction == "clockwise" else -1, first_dealer=r.first_player == "dealer",
                take_pile=r.empty_stock == "take_pile", adder=r.added_cards == "adder")


@pytest.mark.parametrize("rules", OPTIONS + SEATING_OPTIONS,
                         ids=lambda r: next((f"{k}={v}" for k, v in r.to_dict().items()
                                             if v != getattr(CanastaRules(), k)), "default"))
def test_random_play_equals_the_python_twin_on_the_same_stream(rules):
    n = 300
    v = _run("random", rules, n, seed=21)
    ss, _ = as_seed_sequence(21)
    rows = naive.random_hands(chunk_state(ss, 0), n, _twin_rules(rules), [int(x) for x in deck_kinds(rules.jokers)],
                              [int(x) for x in deck_counts(rules.jokers)])
    assert list(v.score) == [sum(r[0] for r in rows), sum(r[1] for r in rows)]
    assert list(v.score_sq) == [sum(r[0] ** 2 for r in rows), sum(r[1] ** 2 for r in rows)]
    assert list(v.takes) == [sum(r[4] for r in rows), sum(r[5] for r in rows)]
    T1 = T.MAX_TURNS + 1
    ends = np.zeros((2, T1), dtype=np.int64)
    opened = np.zeros((2, T1), dtype=np.int64)
    can = np.zeros((2, T1), dtype=np.int64)
    for r in rows:
        ends[0 if r[2] >= 0 else 1, min(r[3] + 1, T.MAX_TURNS)] += 1
        for s in range(2):
            opened[s, r[6 + s] if r[6 + s] >= 0 else T.MAX_TURNS] += 1
            can[s, r[8 + s] if r[8 + s] >= 0 else T.MAX_TURNS] += 1
    assert (v.end_turn.reshape(2, T1) == ends).all()
    assert (v.open_turn.reshape(2, T1) == opened).all()
    assert (v.canasta_turn.reshape(2, T1) == can).all()


# ---- the deal-time figure "first meld by taking the upcard" counts the card drawn first ---------------
def _pile_open_brute(hand_size, rules):
    """P(the dealt cards + the card drawn + the upcard make a legal meld holding the upcard
    worth min_first_meld, one card kept back), by brute force over kinds (hypergeometric)."""
    import itertools
    import math
    from fractions import Fraction

    from cardodds.canasta._kernels import best_meld_with_top

    full = deck_counts(rules.jokers)
    n = int(full.sum())
    pts, code, min_first, wm = meld_rules(rules)
    k_cards = hand_size + 1
    meld = np.zeros(4, dtype=np.int64)
    total = Fraction(0)
    for top in range(N_KINDS):
        avail = full.copy()
        avail[top] -= 1
        ways = 0
        for combo in itertools.combinations_with_replacement(range(N_KINDS), k_cards):
            c = np.bincount(combo, minlength=N_KINDS).astype(np.int64)
            if (c > avail).any():
                continue
            w = math.prod(math.comb(int(avail[k]), int(c[k])) for k in range(N_KINDS))
            if top not in (BLACK3, RED3) and best_meld_with_top(c, top, pts, code, wm, meld) >= max(min_first, 1):
                ways += w
        total += Fraction(int(full[top]), n) * Fraction(ways, math.comb(n - 1, k_cards))
    return total


def test_pile_open_uses_the_dealt_cards_the_drawn_card_and_the_upcard():
    from cardodds.canasta import exact, melds

    rules = CanastaRules()
    # Two dealt cards alone can never take the upcard (a meld needs 3 cards and one card stays
    # back for the discard); with the card drawn first they can: K K in hand + K on the pile.
    p = exact.pile_open_probability(2, rules=rules)
    assert p > 0
    assert p == _pile_open_brute(2, rules)
    assert exact.pile_open_probability(3, rules=CanastaRules()) == _pile_open_brute(3, CanastaRules())
    from cardodds.canasta._kernels import best_meld_with_top

    meld = np.zeros(4, dtype=np.int64)
    pts, code, _, wm = meld_rules(rules)
    assert best_meld_with_top(hand_counts("Kh Kd"), KING, pts, code, wm, meld) == 0
    assert best_meld_with_top(hand_counts("Kh Kd 5c"), KING, pts, code, wm, meld) == 30
    n = 40_000
    mc = melds(2, rules=rules, samples=n, rng=4, turns=0, chunk_size=8192)
    se = (float(p) * (1 - float(p)) / n) ** 0.5
    assert abs(mc.pile_open.value - float(p)) <= 4 * se


def test_a_last_card_that_may_not_be_discarded_passes_the_turn_on_an_empty_stock():
    # meld_all: red 3, replacement red 3 again, laid too, and the stock is empty: one card
    # left that may not be discarded; the turn ends without a discard and the hand is over.
    r = CanastaRules(going_out="meld_all").pack()
    t = table({0: "3h 9c"}, stock=[RED3], empty_stock=True)
    assert (T.MV_RED3, 0, 0, 0, 0) in moves(t, r)
    play(t, (T.MV_RED3, 0, 0, 0, 0), r)
    assert t[SA.red3] == 2 and hand(t, 0).sum() == 1
    assert moves(t, r) == [(T.MV_PASS, 0, 0, 0, 0)]
    play(t, (T.MV_PASS, 0, 0, 0, 0), r)
    assert t[SA.phase] == T.PH_OVER and t[SA.went_out] == -1 and hand(t, 0)[NINE] == 1
    # with the default rules the last card may be discarded instead: going out
    t = table({0: "3h 9c"}, stock=[RED3], empty_stock=True)
    play(t, (T.MV_RED3, 0, 0, 0, 0))
    assert moves(t) == [(T.MV_DISCARD, NINE, 0, 0, 0)]


def test_game_ends_when_a_side_reaches_the_target_and_an_exact_tie_plays_on():
    assert P.game_decided(10_000, 9_000, 10_000) and P.game_decided(-500, 10_020, 10_000)
    assert not P.game_decided(9_990, 9_000, 10_000)
    assert not P.game_decided(10_500, 10_500, 10_000)  # tie at the top: another hand
    assert P.game_decided(12_000, 15_000, 10_000)      # the higher side wins


def test_the_deal_rotates_in_a_game():
    # the game kernel deals hand h with dealer h % 4; the seat left of it moves first
    ss, _ = as_seed_sequence(3)
    t = np.zeros(T.S.size, dtype=np.int64)
    for h in range(8):
        T.new_hand(chunk_state(ss, h), t, CanastaRules().pack(), deck_kinds(4), h % 4)
        assert t[SA.dealer] == h % 4 and t[SA.seat] == (h + 1) % 4
