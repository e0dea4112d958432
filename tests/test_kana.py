"""Känä official rules (docs/rules/kana.md): kernel, exact odds, live odds."""

from fractions import Fraction

import numpy as np
import pytest

from cardodds.cards import parse_card, parse_cards
from cardodds.kana import KanaRules, exact_odds, live_odds, odds
from cardodds.kana import exact as ex
from cardodds.kana._kernels import play_rounds, round_layout
from cardodds.kana._table import EXTRA, SUPERKANA, best_holders, hand_key
from cardodds.kana.analysis import _kernel_args
from cardodds.kana.rules import RULES

from .conftest import assert_within_4se, run_twice_on_a_fresh_cache
from .naive import kana_rounds


def C(text):
    return parse_cards(text)


def _kernel_counts(rules, shown, positions, state, nrounds):
    args = _kernel_args(rules, shown, positions)
    out = round_layout(rules.players).zeros()
    play_rounds(state.copy(), nrounds, out, *args)
    return out, args


def _check_invariants(out, n, nrounds):
    v = round_layout(n).view(out)
    e = EXTRA.view(v.extra)
    assert v.wins.sum() == nrounds  # exactly one winner a round
    assert v.hand_value.sum() == nrounds
    assert v.last_round_starter.sum() == nrounds
    assert e.per_round.sum() == nrounds
    assert e.per_round[0] == nrounds - e.needed  # rounds with no extra round
    assert e.by_players.sum() == e.played
    assert e.played - e.tied_again.sum() == e.needed  # each extra-round run ends once
    assert (e.tied_again <= e.by_players).all()


# --- the kernel against its slow twin --------------------------------------------------

TWIN_CASES = [
    (KanaRules(players=4), {}, [0, 1, 2, -1]),
    (KanaRules(players=3, tiebreak_deck="fresh", extra_round="all", last_round_tie="latest"), {}, [2, 2, -1]),
    (KanaRules(players=17), {}, [0] * 17),  # 51 cards dealt: every tie reshuffles the stock
    (KanaRules(players=2), {}, [-1, 1]),
    (KanaRules(players=5), {0: tuple(C("5h Ks Qd")), 1: tuple(C("2c Ah")), 2: tuple(C("9d"))}, [0] * 5),
]


@pytest.mark.parametrize("rules,shown,positions", TWIN_CASES)
def test_kernel_equals_naive_twin_on_the_same_stream(rules, shown, positions, chunk):
    # The twin checks card conservation on every deal it plays; equal counts mean the
    # kernel played the very same deals.
    n = rules.players
    out, args = _kernel_counts(rules, shown, positions, chunk(), 3000)
    packed, _, _, fixed, base_deck = args
    fixed = fixed.tolist() if fixed is not None else [[-1, -1, -1]] * n
    p = RULES.view(packed)  # the twin takes the rules unpacked
    ref = kana_rounds(chunk(), 3000, n, p.fresh_deck, p.extra_round_all, p.last_round_latest, list(positions), fixed,
                      base_deck.tolist())
    assert out.tolist() == ref
    _check_invariants(out, n, 3000)


# --- rules on hand-built deals ---------------------------------------------------------


def test_hand_value_is_the_sum_and_superkana_beats_everything():
    assert hand_key(parse_card("Ah"), parse_card("As")) == 28
    assert hand_key(parse_card("9h"), parse_card("Jc")) == 20
    assert hand_key(parse_card("2h"), parse_card("2s")) == SUPERKANA > 28
    assert hand_key(parse_card("2h"), parse_card("3s")) == 5


def test_last_round_starter_is_lowest_first_turned_card_ties_to_earliest():
    # First-turned cards 9h, 4c, Ks, 4d: the two 4s tie for lowest.
    shown = {0: "2c 9h 3s", 1: "2d 4c 3h", 2: "2h Ks 3d", 3: "2s 4d 3c"}
    r = _mc(shown, KanaRules(players=4), samples=2000)
    assert r.last_round_starter[1].value == 1.0
    r = _mc(shown, KanaRules(players=4, last_round_tie="latest"), samples=2000)
    assert r.last_round_starter[3].value == 1.0
    # With some seats' turned cards unknown the starter varies, ties still go to the earliest.
    r = _mc({0: "3c 2h", 1: "5d"}, KanaRules(players=2), samples=2000)
    assert r.last_round_starter[0].value == 1.0  # nothing is lower than a 2, and seat 0 is earliest


def test_dark_card_compares_rank_only_ace_high():
    holders = np.empty(3, np.int64)
    ranks = np.array([c >> 2 for c in C("Ah Kh 2s")])
    assert best_holders(ranks, 3, holders) == 1 and holders[0] == 0
    ranks = np.array([c >> 2 for c in C("7h 7s 5d")])  # suits never matter: a tie
    assert best_holders(ranks, 3, holders) == 2 and holders[:2].tolist() == [0, 1]


def _mc(shown, rules, samples=20_000, rng=5):
    return live_odds(shown, rules=rules, method="monte carlo", samples=samples, rng=rng)


def test_highest_hand_wins_without_extra_round():
    rules = KanaRules(players=3)
    r = _mc({0: "2c 9h 9s", 1: "3c Kh Ks", 2: "4c Qh Qs"}, rules)
    assert [w.value for w in r.win] == [0.0, 1.0, 0.0]
    assert r.extra_round.value == 0.0
    # 9 + 9 = 18 for seat 0, every round
    assert r.hand_value[18].value == 1.0
    # First-turned 9h, Kh, Qh: seat 0 turned the lowest and starts the last turn round.
    assert r.last_round_starter[0].value == 1.0


def test_superkana_beats_two_aces_and_two_superkanas_tie():
    rules = KanaRules(players=2)
    r = _mc({0: "5c 2c 2d", 1: "6c Ah As"}, rules)
    assert r.win[0].value == 1.0 and r.superkana.value == 1.0 and r.hand_value[4].value == 1.0
    r = _mc({0: "5c 2c 2d", 1: "6c 2h 2s"}, rules)
    assert r.extra_round.value == 1.0
    assert_within_4se(r.win[0], 0.5)


def test_extra_round_only_among_the_tied_players():
    shown = {0: "2c Ah Kd", 1: "3c 9h 9d", 2: "4c As Kc"}  # 27, 18, 27
    r = _mc(shown, KanaRules(players=3))
    assert r.win[1].value == 0.0 and r.extra_round.value == 1.0
    assert_within_4se(r.win[0], 0.5)
    assert r.tie_again[2].n >= 20_000  # every round played at least one extra round of two
    # The "all" option: everyone plays the extra round, so the 18 can still win.
    r = _mc(shown, KanaRules(players=3, extra_round="all"))
    assert_within_4se(r.win[1], 1 / 3)
    assert r.tie_again[3].n >= 20_000  # every round's first extra round has all three


def _seventeen_with_four_aces_tied():
    """17 seats, 51 cards shown; seats 0 and 1 hold all four aces (28 each)."""
    shown = {0: C("2c Ac Ad"), 1: C("2d Ah As")}
    rest = [c for c in range(52) if c not in {c for v in shown.values() for c in v}]
    rest.remove(parse_card("Ks"))  # the one card left in the stock
    for s in range(2, 17):
        shown[s] = rest[3 * (s - 2): 3 * (s - 1)]  # low cards: at most K + K = 26
    return shown


def test_remaining_stock_runs_short_and_reshuffles_without_the_tied_hands():
    shown = _seventeen_with_four_aces_tied()
    r = live_odds(shown, rules=KanaRules(players=17), method="monte carlo", samples=200_000, rng=11)
    assert r.win[0].value + r.win[1].value == 1.0
    assert_within_4se(r.win[0], 0.5)
    # The stock holds one card, so the extra round reshuffles every card but the four aces:
    # two dark cards from 48 (twelve ranks of four) tie with probability 3/47, not 3/51.
    assert_within_4se(r.tie_again[2], 3 / 47)
    assert abs(r.tie_again[2].value - 3 / 51) > 4 * r.tie_again[2].se


def test_remaining_stock_without_reshuffle_and_fresh_deck():
    shown = {0: "2c As Kd", 1: "2d Ah Kc"}  # 27 each; the stock lacks 2c 2d As Ah Kd Kc
    r = _mc(shown, KanaRules(players=2), samples=200_000)
    # Dark cards are two of the 46 left: ranks 2, K, A have 2 each, ten ranks have 4.
    assert_within_4se(r.tie_again[2], (10 * 4 * 3 + 3 * 2 * 1) / (46 * 45))
    r = _mc(shown, KanaRules(players=2, tiebreak_deck="fresh"), samples=200_000)
    assert_within_4se(r.tie_again[2], 3 / 51)


def test_ante_and_pot():
    rules = KanaRules(players=3, ante=1.0)
    r = _mc({0: "2c 9h 9s", 1: "3c Kh Ks", 2: "4c Qh Qs"}, rules, samples=1000)
    assert [g.value for g in r.net] == [-1.0, 2.0, -1.0]  # the winner takes the pot of 3


# --- Monte Carlo against the exact figures ---------------------------------------------


def test_four_players_against_exact():
    r = odds(4, samples=1_000_000, rng=2024)
    ex4 = exact_odds(4)
    for w in r.win:
        assert_within_4se(w, 0.25)
    assert sum(c.value * r.samples for c in r.win) == r.samples
    assert_within_4se(r.extra_round, ex4.extra_round.value)
    assert_within_4se(r.superkana, 1 / 221)
    for v in range(4, 29):
        assert_within_4se(r.hand_value[v], ex4.hand_value[v].value)
    for s in range(4):
        assert_within_4se(r.last_round_starter[s], ex4.last_round_starter[s].value)


@pytest.mark.parametrize("n", [2, 3, 5, 6, 17])
def test_extra_round_probability_against_exact(n):
    r = odds(n, samples=300_000, rng=n)
    assert_within_4se(r.extra_round, float(ex.p_extra_round(n)))
    for w in r.win:
        assert_within_4se(w, 1 / n)


@pytest.mark.parametrize("k,players", [(2, 2), (3, 3)])
def test_fresh_deck_tie_again_against_exact(k, players):
    # All tied from the start with "all": every extra round starts with all players.
    rules = KanaRules(players=players, tiebreak_deck="fresh", extra_round="all")
    r = odds(rules=rules, samples=1_000_000, rng=k)
    assert_within_4se(r.tie_again[k], float(ex.p_extra_ties_again(k)))


def test_every_blind_choice_gives_the_same_odds():
    for kana_choice in ("first", "third", "random", [0, 1, 2, -1]):
        r = odds(4, kana=kana_choice, samples=300_000, rng=8)
        for w in r.win:
            assert_within_4se(w, 0.25)


def test_same_seed_same_numbers_on_any_thread_count():
    a = odds(4, samples=300_001, rng=3, threads=1)
    b = odds(4, samples=300_001, rng=3, threads=2)
    assert a.to_dict() == b.to_dict()
    c = odds(4, samples=300_001, rng=4, threads=2)
    assert a.to_dict()["win"] != c.to_dict()["win"]


def test_target_halfwidth():
    r = odds(3, target_halfwidth=0.004, rng=1)
    assert max(w.halfwidth for w in r.win) <= 0.004
    assert r.samples < 400_000


def test_exact_odds_are_exact():
    r = exact_odds(2)
    assert r.extra_round.fraction == Fraction(839, 16575)
    assert r.method == "exact" and all(w.se == 0 and w.lo == w.hi == 0.5 for w in r.win)
    assert sum(e.fraction for e in r.hand_value.values()) == 1
    assert r.hand_value[16].fraction == Fraction(102, 1326)
    assert exact_odds(rules=KanaRules(players=3, tiebreak_deck="fresh")).tie_again[2].fraction == Fraction(3, 51)
    assert exact_odds(3).tie_again == {}  # not exact with the remaining stock


# --- live odds ---------------------------------------------------------------------------


def test_live_exact_by_hand():
    # Seat 0 holds K + Q = 25. Seat 1 shows Ah and needs Q, K or A (9 unseen) to win and a
    # J (4 unseen) to tie: 11/47 with the tie split, 4/47 for an extra round.
    r = live_odds({0: "5h Ks Qd", 1: "2c Ah"}, players=2)
    assert r.method == "exact"
    assert r.win[1].value == pytest.approx(11 / 47, abs=1e-12)
    assert r.extra_round.value == pytest.approx(4 / 47, abs=1e-12)
    assert sum(w.value for w in r.win) == pytest.approx(1.0, abs=1e-12)


def test_live_exact_agrees_with_monte_carlo():
    shown = {0: "5h Ks", 1: "2c Qs", 2: "9d"}
    e = live_odds(shown, players=3)
    m = live_odds(shown, players=3, method="monte carlo", samples=300_000, rng=7)
    assert e.method == "exact" and m.method == "monte carlo"
    for we, wm in zip(e.win, m.win):
        assert_within_4se(wm, we.value)
    assert_within_4se(m.extra_round, e.extra_round.value)
    for v in range(4, 29):
        assert_within_4se(m.hand_value[v], e.hand_value[v].value)


def test_live_at_the_start_equals_exact_odds():
    r = live_odds({}, players=3)
    assert r.method == "exact"
    assert [w.value for w in r.win] == pytest.approx([1 / 3] * 3, abs=1e-12)
    assert r.extra_round.value == pytest.approx(float(ex.p_extra_round(3)), abs=1e-12)


def test_live_uses_monte_carlo_when_too_many_unknowns():
    r = live_odds({0: "5h"}, players=6, samples=50_000, rng=1)
    assert r.method == "monte carlo"
    r = live_odds({0: "5h"}, players=6, rng=1, method="auto", samples=None, target_halfwidth=0.01)
    assert r.method == "monte carlo"
    with pytest.raises(ValueError, match="exact enumeration would visit"):
        live_odds({}, players=9, method="exact")


@pytest.mark.parametrize(
    "shown,players,message",
    [
        ({5: "Ah"}, 4, "seat 5 does not exist"),
        ({-1: "Ah"}, 4, "seat -1 does not exist"),
        ({0: "Ah Kd Qc Jh"}, 4, "at most 3"),
        ({0: "Ah", 1: "Ah"}, 4, "shown twice"),
        ({0: "Zz"}, 4, "cannot read card 'Zz'"),
        ({1: "Ah"}, 4, "seat 1 has känäd before seat 0"),
        ({0: "Ah Kd"}, 2, "seat 0 shows 2 cards but seat 1 has not känäd"),
        ({0: "Ah Kd", 1: "2c", 2: "3c 4c"}, 3, "seat 1 has not turned its first card"),
        ({0: "Ah Kd Qc", 1: "2c"}, 2, "last turn round cannot have started"),
        ({0: "Ah 5d Qc", 1: "2c 2d Qd", 2: "5c 9d"}, 3, "seat 2 has not turned its last card, so seat 0"),
        ({0: "Ah 5d Qc", 1: "2c 2d", 2: "5c 9d"}, 3, "starts at seat 1"),
    ],
)
def test_live_bad_input(shown, players, message):
    with pytest.raises(ValueError, match=message):
        live_odds(shown, players=players)


def test_shown_in_cli_form():
    r = live_odds(["1:5h Ks", "0:2c Qs"], players=2)
    assert r.shown == {0: tuple(C("2c Qs")), 1: tuple(C("5h Ks"))}
    with pytest.raises(ValueError, match="SEAT:CARDS"):
        live_odds(["5h Ks"], players=2)


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(players=1), "players=1 is outside 2..17"),
        (dict(players=18), "players=18 is outside 2..17"),
        (dict(players=4, samples=0), "samples=0 must be positive"),
        (dict(players=4, target_halfwidth=0), "precision 0 must be"),
        (dict(players=4, kana="middle"), "känä choice 'middle' is not known"),
        (dict(rules=KanaRules(variant="peek-one")), "needs policies="),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        odds(**kwargs)


def test_rules_options_are_checked():
    with pytest.raises(ValueError, match="tiebreak_deck='new'"):
        KanaRules(tiebreak_deck="new")
    with pytest.raises(ValueError, match="ante"):
        KanaRules(ante=0)
    with pytest.raises(ValueError, match="variant"):
        KanaRules(variant="peek")
    assert KanaRules(players=3, ante=0.5).pot == 1.5


def test_result_prints_and_tabulates():
    r = odds(3, samples=20_000, rng=1)
    text = repr(r)
    assert "seat" in text and "[" in text and "seed 1" in text
    df = r.to_frame()
    assert list(df.columns) == ["win", "se", "lo", "hi", "net"] and len(df) == 3
    assert "<table" in r._repr_html_()
    assert r.hand_value_frame()["p"].sum() == pytest.approx(1.0)
    assert "(exact)" in repr(exact_odds(3))


# --- one result protocol, shared validation ---------------------------------------------


@pytest.mark.parametrize("threads", [-5, 0, "x", 2.0, True])
def test_threads_must_be_a_positive_whole_number(threads):
    with pytest.raises(ValueError, match=r"threads=.* must be a positive whole number"):
        odds(4, samples=1000, rng=1, threads=threads)
    with pytest.raises(ValueError, match="positive whole number"):
        live_odds({0: "5h"}, players=2, method="monte carlo", samples=1000, threads=threads)


def test_results_follow_the_result_protocol():
    from cardodds.results import Result

    mc = odds(3, samples=20_000, rng=2)
    ex = exact_odds(3)
    for r in (mc, ex):
        assert isinstance(r, Result) and type(r).__name__ == "OddsResult"
        assert r.meta()["rules"] == r.rules.to_dict() and "<table" in r._repr_html_()
    assert mc.counts is not None and mc.counts.sum() > 0 and ex.counts is None
    assert mc == odds(3, samples=20_000, rng=2)  # counts stay out of ==, the figures are equal


def test_packed_rules_read_by_name():
    v = RULES.view(KanaRules(players=5, variant="peek-all", tiebreak_deck="fresh", last_round_tie="latest").pack())
    assert (v.players, v.variant, v.fresh_deck, v.extra_round_all, v.last_round_latest) == (5, 2, 1, 0, 1)


def test_a_custom_strategy_leaves_the_process_sound(tmp_path):
    # Custom strategies are called from loops compiled without reference counting; a process
    # that ran one must still load and run other kernels from the cache (a Kanalje user policy
    # called that way once corrupted the heap).
    code = (
        "from numba import njit\n"
        "from cardodds import kana\n"
        "from cardodds.kana import policies as st\n"
        "@njit\n"
        "def low_first(s, seat, hand, peeked, kanad, n_kanad):\n"
        "    return 0 if (hand[0] >> 2) < 6 else 1\n"
        "kana.compare(st.custom(low_first, 'peek-one'), 'blind', players=4, samples=20000, rng=1, threads=2)\n"
        "kana.session([st.custom(low_first, 'peek-one'), 'blind', 'blind', 'blind'], rounds=20, samples=100, rng=1)\n"
        "print(kana.odds(players=5, samples=10000, rng=1).samples)\n"
    )
    assert run_twice_on_a_fresh_cache(code, tmp_path / "cache").split()[-1] == "10000"


@pytest.mark.parametrize("players", [14, 17])
def test_everyone_in_the_extra_round_from_the_stock_is_refused_when_it_cannot_be_dealt(players):
    # Every player keeps two cards, so the restock holds 52 - 2n cards and must give each two:
    # past 13 players the round could never be dealt (the run used to spin for ever).
    with pytest.raises(ValueError, match=r"extra_round='all' with tiebreak_deck='remaining' needs at most 13 players"):
        KanaRules(players=players, extra_round="all")
    fresh = odds(rules=KanaRules(players=players, extra_round="all", tiebreak_deck="fresh"), samples=3000, rng=2)
    tied = odds(rules=KanaRules(players=players), samples=3000, rng=2)
    assert fresh.samples == tied.samples == 3000


def test_everyone_in_the_extra_round_from_the_stock_at_thirteen_players_ends():
    # 13 x 3 cards dealt leave 13 in the stock; the restock of the 26 not in hands gives each two.
    r = odds(rules=KanaRules(players=13, extra_round="all"), samples=20_000, rng=3)
    assert r.samples == 20_000 and abs(sum(e.value for e in r.win) - 1) < 1e-12
