"""Kanalje for two players (docs/rules/kanalje.md §4), rule by rule on hand-built deals; kernel vs its
naive twin; invariants on every simulated deal; the analyses for two players."""

import subprocess
import sys

import numpy as np
import pytest

from cardodds.cards import parse_card, parse_cards
from cardodds.kanalje import Hand, KanaljeRules, evaluate_hand, game, jack_risk, trace
from cardodds.kanalje import _kernels as K, _policies as P, _table as TB
from cardodds.kanalje._counts import DEALS
from cardodds.kanalje.view import TABLE, T
from cardodds.rng import as_seed_sequence, chunk_state
from cardodds.stats import Estimate

from . import naive_kanalje as naive
from .naive_kanalje import deal_record
from .conftest import assert_within_4se

D = DEALS.at

TWO = KanaljeRules(players=2)


def mask(text):
    m = 0
    for c in parse_cards(text):
        m |= 1 << c
    return m


def cards_of(m):
    return [c for c in range(52) if (m >> c) & 1]


def table1(hands, stock, leader=0, trick=(), p1j=1):
    """A phase-1 table near the end of phase 1: ``stock`` are the last stock cards (from the
    face-up one down); the hands hold what is left to play."""
    st = np.zeros(26, dtype=np.int64)
    sc = parse_cards(stock)
    st[26 - len(sc):] = sc
    t = TABLE.zeros()
    TB.new_table(t, KanaljeRules(players=2, phase1_jacks_cost=bool(p1j)).pack(), leader, -1, 1)
    t[TABLE.slice("stock")] = st
    TB.open_phase1(t, leader)
    t[T.stock_pos] = 26 - len(sc)
    t[T.faceup] = sc[0]
    for s, h in enumerate(hands):
        t[T.hand + s] = mask(h)
    for i, c in enumerate(parse_cards(" ".join(trick))):
        TB.play_card1(t, (leader + i) % 2, c)
    return t


# ---- the rules object -----------------------------------------------------------------------
def test_two_player_rules_and_their_options():
    assert TWO.hand_size == 13 and TWO.phase1_jacks_cost and TWO.phase1_leader == "non_dealer"
    assert TWO.phase2_leader == "last_trick" and TWO.phase2_trump == "trick_card"
    assert TWO.deal_total() == 3
    for bad in (dict(players=4), dict(players=2, phase1_leader="x"), dict(players=2, phase2_trump="turned"),
                dict(players=2, phase1_jacks_cost="yes"), dict(players=True)):
        with pytest.raises(ValueError):
            KanaljeRules(**bad)


# ---- deal: 13 each, a 26-card stock, the top card face up, not trump -------------------------
def test_deal_gives_13_each_and_a_26_card_stock_with_face_up_top():
    t = TABLE.zeros()
    ss, _ = as_seed_sequence(3)
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.zeros(4, dtype=np.int64)
    TB.start_deal(chunk_state(ss, 0), t, deck, 52, TWO.pack(), -1, 0, -1, 1, 0, 1, hand0)
    stock = 0
    for i in range(26):
        stock |= 1 << int(t[T.stock + i])
    assert TB.popcount(t[T.hand]) == 13 and TB.popcount(t[T.hand + 1]) == 13 and TB.popcount(stock) == 26
    assert (t[T.hand] | t[T.hand + 1] | stock) == TB.FULL
    assert t[T.faceup] == t[T.stock] and t[T.trump] == -1 and t[T.phase] == 1
    assert t[T.leader] == 0  # the non-dealer leads phase 1
    r = KanaljeRules(players=2, phase1_leader="dealer").pack()
    TB.start_deal(chunk_state(ss, 0), t, deck, 52, r, -1, 0, -1, 1, 0, 1, hand0)
    assert t[T.leader] == 1


# ---- phase 1: no duty to follow; no jack of another suit from the second player ----------------
def test_phase1_no_duty_to_follow_suit():
    t = table1(["5c 9c", "Kc 2d"], "Ah 3h Qs 4s", trick=["5c"])
    assert cards_of(TB.legal_cards1(t, 1)) == sorted(parse_cards("Kc 2d"))


def test_phase1_second_player_may_not_play_a_jack_of_another_suit():
    t = table1(["5c 9c", "Jh Jc 2d"], "Ah 3h Qs 4s 5s 6s", trick=["5c"])
    assert cards_of(TB.legal_cards1(t, 1)) == sorted(parse_cards("Jc 2d"))  # the led suit's jack is fine


def test_phase1_leading_a_jack_is_allowed():
    t = table1(["Jh 9c", "Kc 2d"], "Ah 3h Qs 4s")
    assert cards_of(TB.legal_cards1(t, 0)) == sorted(parse_cards("Jh 9c"))


def test_phase1_second_player_holding_only_other_jacks_plays_one():
    # docs/rules/kanalje.md §4.3: the rule cannot be kept, so any of those jacks may be played.
    t = table1(["5c", "Jh"], "Ah 3h", trick=["5c"])
    assert cards_of(TB.legal_cards1(t, 1)) == [parse_card("Jh")]


def test_checked_phase1_play_counts_an_off_suit_jack_from_the_second_player():
    t = table1(["5c 9c", "Jh 2d"], "Ah 3h Qs 4s", trick=["5c"])
    TB.play_card1(t, 1, parse_card("Jh"))
    assert t[T.violations] == 1


# ---- phase 1: the highest card of the led suit wins; no trump --------------------------------
@pytest.mark.parametrize("lead,follow,winner", [("5c", "Kc", 1), ("Kc", "5c", 0), ("2c", "As", 0),
                                                ("9h", "Th", 1)])
def test_phase1_highest_card_of_led_suit_wins(lead, follow, winner):
    t = table1([lead, follow], "Ah 3h", trick=[lead, follow])
    assert t[T.last_winner] == winner and t[T.phase1_wins + winner] == 1


# ---- phase 1: winner takes the face-up card, loser the next face down; next is turned --------
def test_phase1_winner_takes_face_up_card_loser_the_next_and_the_next_is_turned():
    t = table1(["5c 9c", "Kc 2d"], "Ah 3h Qs 4s", trick=["5c", "Kc"])
    assert cards_of(t[T.hand + 1]) == sorted(parse_cards("2d Ah"))
    assert cards_of(t[T.hand]) == sorted(parse_cards("9c 3h"))
    assert t[T.faceup] == parse_card("Qs") and t[T.leader] == 1
    assert t[T.known + 1] == mask("Ah") and t[T.known] == 0  # the hidden card stays unseen
    assert t[T.tricks] == t[T.tricks + 1] == 0  # phase-1 tricks score no trick points


def test_phase1_ends_with_the_stock_and_13_cards_each():
    ss, _ = as_seed_sequence(8)
    state = chunk_state(ss, 0)
    t = TABLE.zeros()
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.zeros(4, dtype=np.int64)
    for _ in range(50):
        TB.start_deal(state, t, deck, 52, TWO.pack(), -1, 0, -1, 1, 0, 1, hand0)
        for _trick in range(13):
            assert TB.popcount(t[T.hand]) == 13 and TB.popcount(t[T.hand + 1]) == 13
            done = False
            for _ in range(2):
                seat = TB.to_play(t)
                done = TB.play_card1(t, seat, P.random_choose(state, TB.legal_cards1(t, seat)))
        assert done and t[T.stock_pos] == 26 and t[T.faceup] == -1
        assert TB.popcount(t[T.hand]) == 13 and TB.popcount(t[T.hand + 1]) == 13
        assert TB.popcount(t[T.played]) == 26 and t[T.violations] == 0


# ---- phase 1: jacks cost the trick's winner (option phase1_jacks_cost) ------------------------
def test_phase1_jack_costs_the_trick_winner():
    t = table1(["Jh 9c", "Kh 2d"], "Ah 3h Qs 4s", trick=["Jh", "Kh"])
    assert t[T.penalty + 1] == 4 and t[T.jack_taker + 2] == 1
    t = table1(["Jh 9c", "Kc 2d"], "Ah 3h Qs 4s", trick=["Jh", "Kc"])
    assert t[T.penalty] == 4 and t[T.jack_taker + 2] == 0


def test_phase1_jack_falls_dead_without_phase1_jacks_cost():
    t = table1(["Jh 9c", "Kh 2d"], "Ah 3h Qs 4s", trick=["Jh", "Kh"], p1j=0)
    assert t[T.penalty + 1] == 0 and t[T.jack_taker + 2] == -2


# ---- phase 2: trump from a phase-1 trick card; the last phase-1 winner leads -----------------
def test_phase2_trump_is_a_dead_phase1_card_and_last_winner_leads():
    ss, _ = as_seed_sequence(4)
    state = chunk_state(ss, 0)
    seen = set()
    for _ in range(100):
        t = table1(["5c", "Kc"], "Ah 3h", trick=["5c", "Kc"])
        t[T.played] |= mask("2s 3s 4s 5s 6s 7s 8s 9s Ts Qs Ks As 2d 3d 4d 5d 6d 7d 8d 9d Td Qd Kd Ad")
        TB.start_phase2(state, t)  # the defaults: the last trick's winner leads, a trick card names trump
        assert t[T.played] >> t[T.trump_card] & 1 and t[T.trump] == t[T.trump_card] & 3
        assert t[T.leader] == 1 and t[T.phase] == 0
        seen.add(int(t[T.trump]))
    assert seen == {0, 1, 3}  # clubs, diamonds and spades were in the tricks, hearts not
    t[T.phase2_leader] = TB.P2LEAD_NON_DEALER
    t[T.phase2_trump] = TB.P2TRUMP_NONE
    TB.start_phase2(state, t)
    assert t[T.leader] == 0 and t[T.trump] == -1


def test_phase2_follows_the_three_player_trick_rules():
    t = TABLE.zeros()
    TB.new_table(t, TWO.pack(), 0, -1, 1)
    t[T.trump] = 2  # hearts trump
    t[T.hand] = mask("Ac Jd")
    t[T.hand + 1] = mask("Kc 2h")
    TB.play_card(t, 0, parse_card("Ac"))
    assert cards_of(TB.legal_cards(t, 1)) == [parse_card("Kc")]  # follow suit
    t[T.hand + 1] = mask("2h 3d")
    t[T.hand] = mask("Jd")
    t2 = t.copy()
    TB.play_card(t2, 1, parse_card("2h"))  # void: trumping allowed ...
    assert t2[T.last_winner] == 1 and t2[T.tricks + 1] == 1
    TB.play_card(t, 1, parse_card("3d"))  # ... never forced
    assert t[T.last_winner] == 0 and t[T.tricks] == 1
    TB.play_card(t, 0, parse_card("Jd"))
    assert TB.play_card(t, 1, parse_card("2h")) and t[T.penalty + 1] == 3  # jack costs its taker
    assert t[T.violations] == 0


def test_a_traced_two_player_deal_shows_both_phases():
    deck = list(range(52))
    d = deal_record(trace("random", hands=[deck[0:13], deck[13:26]], stock=deck[26:], rules=TWO, rng=1))
    assert len(d["tricks"]) == 26 and d["faceup"] == deck[26::2]
    assert sum(d["phase1_won"]) == 13 and sum(d["taken"]) == 13
    p1 = {c for _, cs, _ in d["tricks"][:13] for c in cs}
    assert d["trump_card"] in p1
    assert d["tricks"][13][0] == d["tricks"][12][2]  # the last phase-1 winner leads phase 2
    assert sum(d["score"]) == 3


# ---- kernel vs naive twin (random play) --------------------------------------------------------
@pytest.mark.parametrize("p1j", [True, False])
def test_two_player_kernel_matches_naive_twin(p1j):
    rules = KanaljeRules(players=2, phase1_jacks_cost=p1j)
    ss, _ = as_seed_sequence(21)
    n = 120
    out = DEALS.zeros()
    K.deals_kernel(chunk_state(ss, 0), n, out, rules.pack(), np.zeros(2, dtype=np.int64), 1, -1, 0, -1, 1, 1,
                   P.calls(P.no_user_policy, [P.P_RANDOM]))
    state = naive.Xoshiro(chunk_state(ss, 0))
    deck = naive.Stock(range(52))
    exp = DEALS.zeros()
    for _ in range(n):
        scores, pen, tricks, taker, won1, faceups, _trump = naive.play_random_deal2(state, deck, p1j)
        for p in range(2):
            o = D.seat_sums + 6 * p
            exp[o:o + 6] += [scores[p], scores[p] ** 2, pen[p], pen[p] ** 2, tricks[p], tricks[p] ** 2]
            exp[D.phase1_tricks + 2 * p:D.phase1_tricks + 2 * p + 2] += [won1[p], won1[p] ** 2]
        exp[D.total] += sum(scores)
        for s in range(4):
            who = taker.get(s)
            exp[D.jack_taker + 4 * s + (3 if who is None else who)] += 1
        for c, lead_won in faceups:
            exp[D.faceup_n + c] += 1
            exp[D.faceup_leader + c] += lead_won
    assert out[D.violations] == 0
    for lo, hi in [(D.seat_sums, D.seat_sums + 12), (D.total, D.total + 1), (D.jack_taker, D.jack_taker + 16),
                   (D.faceup_n, D.faceup_leader + 52), (D.phase1_tricks, D.phase1_tricks + 4)]:
        assert out[lo:hi].tolist() == exp[lo:hi].tolist()


# ---- invariants on every simulated deal ---------------------------------------------------------
@pytest.mark.parametrize("policies,n", [("random", 20_000), ("heuristic", 20_000), ("random,heuristic", 5_000),
                                        ("lookahead,heuristic", 40), ("heuristic,lookahead", 40)])
@pytest.mark.parametrize("p1j", [True, False])
def test_conservation_and_jacks_paid_once_on_every_deal(policies, n, p1j):
    r = jack_risk(policies, rules=KanaljeRules(players=2, phase1_jacks_cost=p1j), samples=n, rng=2, check=True,
                  lookahead_samples=3)
    assert r.violations == 0
    for s in range(4):
        assert r.counts[D.jack_taker + 4 * s:D.jack_taker + 4 * s + 4].sum() == n
        if p1j:
            assert r.counts[D.jack_taker + 4 * s + 3] == 0  # every jack paid
    if p1j:
        assert r.mean_total.value == 3 and r.mean_total.se == 0


def test_checked_two_player_runs_count_a_broken_deal():
    t = table1(["5c", "Kc"], "Ah 3h", trick=["5c", "Kc"])
    assert TB.check_deal_end(t, TWO.pack(), 1) > 0  # phase 2 not played, cards missing


# ---- Monte Carlo vs exact facts of the deal --------------------------------------------------------
def test_deal_facts_match_their_exact_probabilities():
    r = jack_risk("random", rules=TWO, samples=20_000, rng=5)
    n = r.samples
    # each card is one of the 13 face-up cards with probability 13/52
    assert_within_4se(Estimate.proportion(int(r.counts[D.faceup_n + parse_card("Jh")]), n), 0.25)
    # a jack is dealt to a player (not into the stock) with probability 26/52
    dealt = int(r.counts[D.held + 28 * 2:D.held + 28 * 3].sum())
    assert_within_4se(Estimate.proportion(dealt, n), 0.5)


def test_same_seed_same_counts_on_one_and_two_threads():
    a = jack_risk("random,heuristic", rules=TWO, samples=100_000, rng=9, threads=1)
    b = jack_risk("random,heuristic", rules=TWO, samples=100_000, rng=9, threads=2)
    assert a.counts.tolist() == b.counts.tolist()
    ha = evaluate_hand(Hand(HAND, faceup="Ah", rules=TWO), samples=200, rng=9, threads=1,
                       policies="lookahead,heuristic", lookahead_samples=2)
    hb = evaluate_hand(Hand(HAND, faceup="Ah", rules=TWO), samples=200, rng=9, threads=2,
                       policies="lookahead,heuristic", lookahead_samples=2)
    assert ha.counts.tolist() == hb.counts.tolist()


HAND = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d"


# ---- phase-1 players ---------------------------------------------------------------------------
def _state(seed=0):
    ss, _ = as_seed_sequence(seed)
    return chunk_state(ss, 0)


def h1(t, seat):
    return P.heuristic1_choose(t, seat, TB.legal_cards1(t, seat))


def test_heuristic1_sheds_the_led_suits_jack_under_a_higher_lead():
    t = table1(["Qh 2c", "Jh 3h 2d"], "Ah 3s", trick=["Qh"])
    assert h1(t, 1) == parse_card("Jh")


def test_heuristic1_fights_for_a_high_face_up_card_with_its_lowest_winner():
    t = table1(["5c 2d", "9c Kc 3d"], "Ah 3s", trick=["5c"])
    assert h1(t, 1) == parse_card("9c")


def test_heuristic1_ducks_a_face_up_jack_and_a_low_card_with_its_lowest_loser():
    t = table1(["5c 2d", "9c Kc 3d 4s"], "Js 3s", trick=["5c"])
    assert h1(t, 1) == parse_card("3d")
    t = table1(["5c 2d", "9c Kc 3d 4s"], "4h 3s", trick=["5c"])
    assert h1(t, 1) == parse_card("3d")


def test_heuristic1_does_not_win_a_led_jack_for_a_card_worth_less():
    t = table1(["Jc 2d", "Qc 3d"], "Ah 3s", trick=["Jc"])  # Ah is worth +1, the Jc costs 2
    assert h1(t, 1) == parse_card("3d")


def test_heuristic1_leads_a_sure_winner_for_a_high_card_else_its_lowest():
    t = table1(["Ac Kd 2h Js", "3c 4d 5h 6s"], "Ah 3s 4s 5s")
    t[T.played] |= mask("Kc Qc Tc 9c 8c 7c 6c 5c 4c 2c")  # nothing unseen above Ac but ... Ac is the boss
    assert h1(t, 0) == parse_card("Ac")
    t = table1(["Ac Kd 2h Js", "3c 4d 5h 6s"], "2s 3s 4s 5s")
    assert h1(t, 0) == parse_card("2h")  # a low face-up card: lead the cheapest non-jack card


def test_phase1_sampler_is_consistent_with_what_the_seat_saw():
    # Seat 1 took the Ah face up; seat 0 must keep seeing it in seat 1's hand, and the hidden
    # cards (seat 1's others and the stock under the face-up card) are reshuffled among themselves.
    t = table1(["5c 9c 2d", "Kc 3d 4d"], "Ah 3h Qs 4s 6h 7h", trick=["5c", "Kc"])
    pos = int(t[T.stock_pos])
    hidden = (t[T.hand + 1] & ~mask("Ah")) | sum(1 << int(t[T.stock + i]) for i in range(pos + 1, 26))
    seen = set()
    w = TABLE.zeros()
    state = _state(1)
    for _ in range(200):
        P.sample_world(state, t, 0, w, np.empty(52, dtype=np.int64), True)
        assert w[T.hand] == t[T.hand] and w[T.faceup] == t[T.faceup]
        assert w[T.stock + pos] == t[T.stock + pos]
        assert w[T.hand + 1] & mask("Ah") and TB.popcount(w[T.hand + 1]) == TB.popcount(t[T.hand + 1])
        rest = (w[T.hand + 1] & ~mask("Ah")) | sum(1 << int(w[T.stock + i]) for i in range(pos + 1, 26))
        assert rest == hidden
        seen.add(int(w[T.hand + 1]))
    assert len(seen) > 3


def test_phase1_lookahead_does_not_peek():
    # Seat 1 won the Ah face up and leads; seat 0 took the 3h unseen. Two tables that differ
    # only in how seat 0's hidden card and the hidden stock are split.
    a = table1(["5c 9c 2d", "Kc 3d 4d"], "Ah 3h Qs 4s 6h 7h", trick=["5c", "Kc"])
    assert a[T.hand] & mask("3h") and TB.to_play(a) == 1
    b = a.copy()
    b[T.hand] = a[T.hand] & ~mask("3h") | mask("7h")
    for i in range(26):
        if b[T.stock + i] == parse_card("7h"):
            b[T.stock + i] = parse_card("3h")
    for seed in range(4):
        ca = P.lookahead_choose(_state(seed), a, 1, TB.legal_cards1(a, 1), 6, *P.new_scratch(), P.NO_ENDGAME)
        cb = P.lookahead_choose(_state(seed), b, 1, TB.legal_cards1(b, 1), 6, *P.new_scratch(), P.NO_ENDGAME)
        assert ca == cb


def test_two_player_strength_ordering():
    from cardodds.kanalje import strength

    m = strength("heuristic", "random", rules=TWO, samples=2_000, rng=1, check=True)
    assert m.violations == {"invariants": 0} and m.points.lo > 1
    m = strength("lookahead", "heuristic", rules=TWO, samples=30, rng=1, lookahead_samples=6, check=True)
    assert m.violations == {"invariants": 0} and m.points.lo > 0


def test_user_policy_plays_both_phases():
    # the same @njit function as the three-player test: its play loop compiles once
    from .test_kanalje_policies import lowest_card

    r = jack_risk([lowest_card, "heuristic"], rules=TWO, samples=2_000, rng=1, check=True)
    assert r.violations == 0 and r.policies == ("user", "heuristic") and r.mean_total.value == 3


# ---- analyses for two players --------------------------------------------------------------------
def test_jack_risk_two_players_answers_with_intervals_and_faceup_figures():
    r = jack_risk("heuristic", rules=TWO, samples=20_000, rng=3)
    d = r.to_dict()
    assert len(d["mean_score"]) == 2 and len(d["jacks"]["hearts"]["taken_by_seat"]) == 2
    assert set(d["faceup_leader_takes"]["rank"]) == set("23456789TJQKA")
    jh = r.faceup_jack("hearts")
    assert 0 < jh["taken_face_up"].value < 1 and jh["cost"].value == pytest.approx(4 * jh["taker_pays"].value)
    assert jh["cost"].lo <= jh["cost"].value <= jh["cost"].hi
    # the heuristic never fights for a face-up jack: the follower ducks, the leader takes it
    assert r.faceup_leader_takes("rank")["J"].value > 0.9
    assert sum(e.value for e in r.phase1_tricks) == pytest.approx(13)
    with pytest.raises(ValueError):
        jack_risk("heuristic", samples=100, rng=1).faceup_jack("hearts")


def test_evaluate_hand_two_players_phase1_and_phase2():
    strong = "Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc"
    h2 = evaluate_hand(Hand(strong, trump="2c", rules=TWO), samples=2_000, rng=1, check=True)
    assert h2.violations == 0 and h2.tricks.value > 10 and h2.phase == 2
    d = h2.to_dict()
    assert d["trump"] == "2c" and d["phase"] == 2 and "turned" not in d
    h1_ = evaluate_hand(Hand(strong, faceup="Jh", rules=TWO), samples=2_000, rng=1, check=True)
    assert h1_.violations == 0 and h1_.to_dict()["faceup"] == "Jh"
    weak = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d"
    hw = evaluate_hand(Hand(weak, faceup="Jh", rules=TWO), samples=2_000, rng=1)
    assert hw.score.hi < h1_.score.lo
    # a jack that is the dead trump card is taken by nobody
    hj = evaluate_hand(Hand(weak, trump="Jh", rules=TWO), samples=500, rng=1)
    assert hj.jacks["hearts"].value == 0 and hj.jacks["hearts"].se == 0


@pytest.mark.parametrize("kwargs", [dict(faceup="Ah", trump="2c"), dict(), dict(turned="Ah"),
                                    dict(faceup="2c"), dict(trump="3c"), dict(faceup="Xx")])
def test_evaluate_hand_two_players_bad_input(kwargs):
    with pytest.raises(ValueError):
        evaluate_hand(Hand("2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d", rules=TWO, **kwargs), samples=100)


@pytest.mark.parametrize("hand", ["2c 3c 4c", "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 5d",
                                  "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d 7d"])
def test_evaluate_hand_two_players_wrong_hands(hand):
    with pytest.raises(ValueError):
        evaluate_hand(Hand(hand, faceup="Ah", rules=TWO), samples=100)
    with pytest.raises(ValueError):
        jack_risk("heuristic,foo", rules=TWO, samples=100)


def test_game_to_21_two_players():
    g = game("random,heuristic", rules=TWO, samples=300, rng=1, check=True)
    assert g.violations == 0 and len(g.win) == 2
    assert sum(e.value for e in g.win) == pytest.approx(1.0) and g.win[1].lo > 0.5
    assert min(g.deals_distribution) >= 2  # at most 13 points a deal


def test_cli_two_players(capsys):
    import json

    from cardodds.cli import main

    assert main(["kanalje", "risk", "--players", "2", "--samples", "2000", "--seed", "1", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["rules"]["players"] == 2 and len(d["mean_score"]) == 2 and "faceup_jacks" in d
    assert main(["kanalje", "hand", "--players", "2", "--hand", "Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc",
                 "--faceup", "Jh", "--samples", "500", "--seed", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["faceup"] == "Jh"
    assert main(["kanalje", "game", "--players", "2", "--samples", "50", "--seed", "1"]) == 0
    assert "\n  1     heuristic  " in capsys.readouterr().out  # seat 1's row of the table


@pytest.mark.parametrize("extra", [["--faceup", "Ac"], ["--trump", "Ac"], ["--turned", "2h"], [],
                                   ["--faceup", "2h", "--trump", "3h"]])
def test_cli_two_players_bad_input_one_line_exit_2(extra):
    args = ["kanalje", "hand", "--players", "2", "--hand", "Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc", *extra]
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", *args], capture_output=True, text=True)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_user_view_in_phase1_hides_the_other_hand_the_stock_and_face_down_cards():
    ss, _ = as_seed_sequence(2)
    state = chunk_state(ss, 0)
    t = TABLE.zeros()
    hand0 = np.zeros(4, dtype=np.int64)
    TB.start_deal(state, t, np.arange(52, dtype=np.int64), 52, TWO.pack(), -1, 0, -1, 1, 0, 1, hand0)
    for _ in range(6):  # three phase-1 tricks
        seat = TB.to_play(t)
        TB.play_card1(t, seat, P.random_choose(state, TB.legal_cards1(t, seat)))
    v = np.empty_like(t)
    P.user_view(t, 0, v)
    assert v[T.hand] == t[T.hand] and v[T.hand + 1] == 0
    assert [int(v[T.stock + i]) for i in range(26)] == \
        [int(t[T.stock + i]) if i % 2 == 0 and i <= 6 else -1 for i in range(26)]
    assert v[T.faceup] == t[T.stock + 6]


def test_hand_evaluation_deals_match_their_exact_probabilities():
    weak = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d"
    # phase 2: a jack not in my hand and not the trump card is dead (in the 25 phase-1 cards) w.p. 25/38
    h = evaluate_hand(Hand(weak, trump="7h", rules=TWO), samples=4_000, rng=4)
    s = "cdhs".index("s")
    assert_within_4se(Estimate.proportion(int(h.counts[D.jack_taker + 4 * s + 3]), h.samples), 25 / 38)
    # phase 1: such a jack is dealt to the other hand (not into the stock) w.p. 13/38
    h = evaluate_hand(Hand(weak, faceup="7h", rules=TWO), samples=4_000, rng=4)
    dealt = int(h.counts[D.held + 28 * s:D.held + 28 * s + 28].sum())
    assert_within_4se(Estimate.proportion(dealt, h.samples), 13 / 38)


@pytest.mark.parametrize("opts", [dict(phase1_leader="dealer"), dict(phase2_leader="non_dealer"),
                                  dict(phase2_trump="none")])
def test_rule_options_keep_the_invariants_on_every_deal(opts):
    rules = KanaljeRules(players=2, **opts)
    r = jack_risk("random,heuristic", rules=rules, samples=5_000, rng=6, check=True)
    assert r.violations == 0 and r.mean_total.value == 3
    g = game("heuristic", rules=rules, samples=100, rng=6, check=True)
    assert g.violations == 0
