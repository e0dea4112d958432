"""Kanalje rules (docs/rules/kanalje.md §2 and §3), one by one, on hand-built deals; kernel vs its naive twin;
invariants on every simulated deal."""

import numpy as np
import pytest

from cardodds.cards import parse_card, parse_cards
from cardodds.kanalje import KanaljeRules, jack_risk, trace
from cardodds.kanalje import _kernels as K, _play as PL, _policies as P, _table as TB
from cardodds.kanalje._counts import DEALS, PEN_BINS
from cardodds.kanalje.view import TABLE, T
from cardodds.rng import as_seed_sequence, chunk_state

from . import naive_kanalje as naive
from .naive_kanalje import deal_record

D = DEALS.at


def mask(text):
    m = 0
    for c in parse_cards(text):
        m |= 1 << c
    return m


def table(hands, trump="h", leader=0, turned=None, trick=(), rules=KanaljeRules()):
    t = TABLE.zeros()
    TB.new_table(t, rules.pack(), leader, parse_card(turned) if turned else -1, 1)
    t[T.trump] = "cdhs".index(trump) if trump else -1
    for s, h in enumerate(hands):
        t[T.hand + s] = mask(h)
    for i, c in enumerate(parse_cards(" ".join(trick))):
        seat = (leader + i) % 3
        t[T.hand + seat] |= 1 << c
        TB.play_card(t, seat, c)
    return t


def cards_of(m):
    return [c for c in range(52) if (m >> c) & 1]


# ---- 52 cards, 2 low .. A high; highest card of the led suit wins ---------------------------
def test_higher_rank_of_led_suit_wins_and_ace_is_high():
    d = deal_record(trace(hands=["Ac", "2c", "Kc"], turned="5d", leader=1, policies="random"))
    assert d["tricks"] == [(1, [parse_card("2c"), parse_card("Kc"), parse_card("Ac")], 0)]
    assert d["taken"] == [1, 0, 0]


def test_off_suit_card_never_wins_without_trump():
    # Seat 1 is void in clubs and throws the ace of spades; spades are not trump.
    d = deal_record(trace(hands=["2c", "As", "3c"], turned="5d", policies="random"))
    assert d["tricks"][0][2] == 2


# ---- the turned card's suit is trump; trick to the highest trump -------------------------------
def test_lowest_trump_beats_ace_of_led_suit():
    d = deal_record(trace(hands=["Ac", "2h", "Kc"], turned="3h", policies="random"))
    assert d["tricks"][0][2] == 1
    d = deal_record(trace(hands=["Ac", "2h", "Kc"], turned="3d", policies="random"))  # hearts not trump: ace wins
    assert d["tricks"][0][2] == 0


def test_highest_trump_wins_among_trumps():
    d = deal_record(trace(hands=["Ac", "2h", "5h"], turned="3h", policies="random"))
    assert d["tricks"][0][2] == 2


def test_trump_led_is_won_by_highest_trump():
    d = deal_record(trace(hands=["4h", "Ah", "Ac"], turned="3h", policies="random"))
    assert d["tricks"][0][2] == 1


# ---- follow suit if able; if void any card; trumping allowed, never forced ---------------------
def test_must_follow_suit():
    t = table(["2c 3c", "Kc Ah", "4c 5d"], trick=["2c"])
    assert cards_of(TB.legal_cards(t, 1)) == [parse_card("Kc")]


def test_void_may_play_anything_and_need_not_trump():
    t = table(["2c 3c", "Ah 5d", "4c 5c"], trump="h", trick=["2c"])
    assert sorted(cards_of(TB.legal_cards(t, 1))) == sorted(parse_cards("Ah 5d"))


def test_leader_may_lead_anything():
    t = table(["2c Jh As", "Kc Ah 4d", "4c 5d 6d"])
    assert sorted(cards_of(TB.legal_cards(t, 0))) == sorted(parse_cards("2c Jh As"))


def test_void_is_recorded_when_not_following():
    t = table(["2c 3c", "Ah 5d", "4c 5c"], trump="h", trick=["2c", "5d"])
    assert t[T.void + 1] == 1 << 0  # shown void in clubs
    assert t[T.void + 0] == 0


# ---- the winner leads the next trick --------------------------------------------------------
def test_winner_leads_next_trick():
    hands = ["2c 9d", "Ac 3d", "3c Td"]
    leaders = set()
    for seed in range(6):
        d = deal_record(trace(hands=hands, turned="2h", policies="random", rng=seed))
        for a, b in zip(d["tricks"], d["tricks"][1:]):
            assert b[0] == a[2]
        leaders.add(d["tricks"][1][0])
    assert leaders == {1, 2}  # 2c led: Ac wins; 9d led: Td wins


# ---- +1 a trick; J♠ -1, J♣ -2, J♦ -3, J♥ -4 --------------------------------------------------
@pytest.mark.parametrize("jack,penalty", [("Js", 1), ("Jc", 2), ("Jd", 3), ("Jh", 4)])
def test_jack_penalty_goes_to_trick_winner(jack, penalty):
    s = jack[1]
    d = deal_record(trace(hands=[f"A{s}", jack, f"2{s}"], turned="3h" if s != "h" else "3c", policies="random"))
    assert d["taken"] == [1, 0, 0]
    assert d["penalty"] == [penalty, 0, 0]
    assert d["score"] == [1 - penalty, 0, 0]
    assert d["jack_taker"][{"s": "spades", "c": "clubs", "d": "diamonds", "h": "hearts"}[s]] == 0


def test_jack_penalties_follow_the_rules_object():
    r = KanaljeRules(jack_penalties=(1, 1, 1, 5))
    d = deal_record(trace(hands=["As", "Js", "2s"], turned="3h", policies="random", rules=r))
    assert d["penalty"] == [5, 0, 0]


# ---- the turned card: dead, or a turned jack to the last trick's winner ------------------------
def test_turned_jack_dead_is_paid_by_nobody():
    d = deal_record(trace(hands=["Ac", "2c", "3c"], turned="Jh", policies="random"))
    assert d["penalty"] == [0, 0, 0]
    assert d["jack_taker"]["hearts"] == -2


def test_turned_jack_last_trick_goes_to_last_trick_winner():
    r = KanaljeRules(turned_jack="last_trick")
    for seed in range(4):
        d = deal_record(trace(hands=["2c 3d", "Ac 4d", "5c Ad"], turned="Jh", policies="random", rules=r, rng=seed))
        last = d["tricks"][-1][2]
        assert d["penalty"] == [4 if s == last else 0 for s in range(3)]
        assert d["jack_taker"]["hearts"] == last


def test_turned_non_jack_with_last_trick_changes_nothing():
    r = KanaljeRules(turned_jack="last_trick")
    d = deal_record(trace(hands=["2c", "Ac", "5c"], turned="Qh", policies="random", rules=r))
    assert d["penalty"] == [0, 0, 0] and d["taken"] == [0, 1, 0]


# ---- left of the dealer leads; the deal passes clockwise; game to 21 -------------------------
def test_first_leader_is_left_of_dealer():
    # trace's leader is the player left of the dealer; the game kernel passes the deal on.
    d = deal_record(trace(hands=["2c", "3c", "4c"], turned="5d", leader=2, policies="random"))
    assert d["tricks"][0][0] == 2


@pytest.mark.parametrize("totals,expect", [
    ([21, 5, 3], 0), ([22, 25, 0], 1), ([21, 21, 3], -1), ([20, 20, 20], -1), ([-5, 21, 21], -1),
    ([-3, 30, 29], 1), ([20, 19, -4], -1), ([24, 23, 25], 2),
])
def test_game_winner_highest_total_once_target_reached(totals, expect):
    assert PL.game_winner(np.array(totals, dtype=np.int64), 3, 21) == expect


def test_game_rotates_dealer_and_ends_at_target():
    from cardodds.kanalje import game

    g = game("random", samples=400, rng=3, check=True)
    assert g.violations == 0
    assert sum(e.value for e in g.win) == pytest.approx(1.0)
    assert g.unfinished == 0
    # 7.2 points a deal: from 21 upward somebody reaches the target in about 8-12 deals
    assert 6 < g.mean_deals.value < 14
    assert min(g.deals_distribution) >= 2  # at most 17 points a deal: one deal never reaches 21


# ---- rules object ---------------------------------------------------------------------------
def test_rules_options_and_errors():
    assert KanaljeRules().deal_total() == 7
    assert KanaljeRules().deal_total(parse_card("Jh")) == 11
    assert KanaljeRules(turned_jack="last_trick").deal_total(parse_card("Jh")) == 7
    for bad in ({"turned_jack": "x"}, {"target": 0}, {"players": 4}, {"jack_penalties": (1, 2)},
                {"players": 1}, {"trick_points": -1}):
        with pytest.raises(ValueError):
            KanaljeRules(**bad)


# ---- kernel vs naive twin -------------------------------------------------------------------
@pytest.mark.parametrize("lean", [False, True])
@pytest.mark.parametrize("turned_jack", ["dead", "last_trick"])
def test_kernel_matches_naive_twin(turned_jack, lean):
    # lean: the three-random-players kernel jack_risk("random") runs (unchecked)
    rules = KanaljeRules(turned_jack=turned_jack)
    ss, _ = as_seed_sequence(11)
    n = 150
    out = DEALS.zeros()
    if lean:
        K.deals_random3_kernel(chunk_state(ss, 0), n, out, rules.pack())
    else:
        K.deals_kernel(chunk_state(ss, 0), n, out, rules.pack(), np.zeros(3, dtype=np.int64), 1, -1, 0, -1, 0,
                       1, P.calls(P.no_user_policy, [P.P_RANDOM]))
    state = naive.Xoshiro(chunk_state(ss, 0))
    deck = naive.Stock(range(52))
    exp = DEALS.zeros()
    for _ in range(n):
        scores, pen, tricks, taker, holder, turned = naive.play_random_deal(state, deck, turned_jack)
        for p in range(3):
            o = D.seat_sums + 6 * p
            exp[o:o + 6] += [scores[p], scores[p] ** 2, pen[p], pen[p] ** 2, tricks[p], tricks[p] ** 2]
            exp[D.penalty_dist + PEN_BINS * p + min(pen[p], 10)] += 1
        exp[D.total] += sum(scores)
        for s in range(4):
            who = taker.get(s, -1)
            if who is None:
                exp[D.jack_taker + 4 * s + 3] += 1
            else:
                exp[D.jack_taker + 4 * s + who] += 1
                if holder[s] is not None and holder[s] == who:
                    exp[D.holder_takes + s] += 1
    assert out[D.violations] == 0
    for lo, hi in [(D.seat_sums, D.seat_sums + 18), (D.penalty_dist, D.penalty_dist + 33), (D.total, D.total + 1),
                   (D.jack_taker, D.jack_taker + 16), (D.holder_takes, D.holder_takes + 4)]:
        assert out[lo:hi].tolist() == exp[lo:hi].tolist()


# ---- invariants on every simulated deal -------------------------------------------------------
@pytest.mark.parametrize("policies,n", [("random", 40_000), ("heuristic", 40_000),
                                        ("random,heuristic,lookahead", 100)])
@pytest.mark.parametrize("turned_jack", ["dead", "last_trick"])
def test_conservation_and_deal_total_on_every_deal(policies, n, turned_jack):
    r = jack_risk(policies, rules=KanaljeRules(turned_jack=turned_jack), samples=n, rng=2, check=True,
                  lookahead_samples=4)
    assert r.violations == 0
    # every jack is taken by exactly one seat or out of play
    for suit in ("spades", "clubs", "diamonds", "hearts"):
        k = sum(r.counts[D.jack_taker + 4 * "cdhs".index(suit[0]) + p] for p in range(4))
        assert k == n


def test_checked_run_counts_an_illegal_play():
    t = table(["2c 3c", "Kc Ah", "4c 5d"], trick=["2c"])
    TB.play_card(t, 1, parse_card("Ah"))  # revokes: holds Kc
    assert t[T.violations] == 1


@pytest.mark.parametrize("turned_jack", ["dead", "last_trick"])
def test_fast_random_path_equals_the_general_play(turned_jack):
    # Unchecked all-random runs take play_out_random3; checked runs the general loop.
    rules = KanaljeRules(turned_jack=turned_jack)
    ss, _ = as_seed_sequence(5)
    outs = []
    for check in (0, 1):
        out = DEALS.zeros()
        K.deals_kernel(chunk_state(ss, 0), 3_000, out, rules.pack(), np.zeros(3, dtype=np.int64), 1,
                       -1, 0, -1, 0, check, P.calls(P.no_user_policy, [P.P_RANDOM]))
        outs.append(out)
    lean = DEALS.zeros()
    K.deals_random3_kernel(chunk_state(ss, 0), 3_000, lean, rules.pack())
    assert outs[1][D.violations] == 0
    assert outs[0].tolist() == outs[1].tolist()
    assert lean.tolist() == outs[1].tolist()  # every field, the holder-by-length table too


def test_jack_risk_random_takes_the_lean_kernel_with_the_same_counts():
    # the public call (lean kernel) and a checked run (general loop) count the same deals alike
    fast = jack_risk("random", samples=5_000, rng=4, threads=2)
    checked = jack_risk("random", samples=5_000, rng=4, threads=1, check=True)
    assert checked.violations == 0
    assert fast.counts.tolist() == checked.counts.tolist()


@pytest.mark.parametrize("players", [3, 2])
@pytest.mark.parametrize("lineup", ["heuristic", "random,heuristic"])
def test_kernels_per_lineup_count_as_the_general_kernel(players, lineup):
    # jack_risk compiles a kernel per kind of lineup; each must count exactly as deals_kernel
    from cardodds.kanalje.policies import resolve_policies

    if players == 3 and lineup != "heuristic":
        lineup = "random,heuristic,random"

    rules = KanaljeRules(players=players).pack()
    codes = np.array(resolve_policies(lineup, players)[0], dtype=np.int64)
    ss, _ = as_seed_sequence(8)
    for check in (0, 1):
        general, special = DEALS.zeros(), DEALS.zeros()
        K.deals_kernel(chunk_state(ss, 0), 2_000, general, rules, codes, 1, -1, 0, -1, 1, check,
                       P.calls(P.no_user_policy, codes))
        if lineup == "heuristic":
            K.deals_heuristic_kernel(chunk_state(ss, 0), 2_000, special, rules, -1, 0, -1, 1, check)
        else:
            K.deals_basic_kernel(chunk_state(ss, 0), 2_000, special, rules, codes, -1, 0, -1, 1, check)
        assert general[D.violations] == 0
        assert special.tolist() == general.tolist()


@pytest.mark.parametrize("players, lineup, start_phase", [(3, "lookahead,pimc,heuristic", 0),
                                                          (2, "lookahead,pimc", 2)])
def test_the_deals_without_phase1_code_count_as_with_it(players, lineup, start_phase):
    # A table never in phase 1 (three players, two from phase 2) runs with phase1 None: the deal
    # loop, its play-outs and the searches compile no phase-1 code, and must deal, play and count
    # exactly as the same loop compiled with it (phase1 True, the searches that keep phase 1).
    from cardodds.kanalje.policies import resolve_policies

    rules = KanaljeRules(players=players).pack()
    codes = np.array(resolve_policies(lineup, players)[0], dtype=np.int64)
    assert TB.phase1_arg(players, start_phase) is None
    trump_card = parse_card("7h") if start_phase == 2 else -1
    ss, _ = as_seed_sequence(12)
    counts = {}
    for phase1 in (True, None):
        out = DEALS.zeros()
        K._deals_loop(chunk_state(ss, 0), 6, out, rules, codes, 2, K.Fixed(-1, 0, trump_card, start_phase),
                      P.calls(P.no_user_policy, codes, phase1), K.deal_work(0, trump_card), P.new_scratch(), True,
                      phase1)
        assert out[D.deals] == 6 and out[D.violations] == 0
        counts[phase1] = out.tolist()
    assert counts[None] == counts[True]
