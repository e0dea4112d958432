"""The Kanalje players: the heuristic's documented rules, the look-ahead's sampling, user
policies, and the strength ordering random < heuristic < lookahead in paired matches."""

import numpy as np
import pytest
from numba import njit

from cardodds.cards import parse_card
from cardodds.kanalje import _kernels as K, _policies as P, _table as TB
from cardodds.kanalje import jack_risk, strength
from cardodds.kanalje.policies import resolve_policies
from cardodds.kanalje.view import T, compile_policy, lowest

from .conftest import run_twice_on_a_fresh_cache
from .test_kanalje_rules import mask, table


def h(t, seat):
    return int(P.heuristic_choose(t, seat, TB.legal_cards(t, seat)))


# ---- heuristic --------------------------------------------------------------------------------
def test_heuristic_sheds_jack_of_led_suit_under_a_higher_card():
    t = table(["Ac 2d", "Jc 5c 3c", "Kd 6c"], trump="h", trick=["Ac"])
    assert h(t, 1) == parse_card("Jc")


def test_heuristic_sheds_dearest_side_jack_when_void():
    t = table(["Ac 2d", "Js Jd 5h 9s", "Kc 6c"], trump="h", trick=["Ac"])
    assert h(t, 1) == parse_card("Jd")


def test_heuristic_keeps_trump_jack_unless_under_a_higher_trump():
    t = table(["Ac 2d", "Jh 4h 9s Ks", "Kc 6c"], trump="h", trick=["Ac"])
    assert h(t, 1) != parse_card("Jh")
    t = table(["Ac 2d", "Qh 2c", "Jh 4h 9s"], trump="h", trick=["Ac", "Qh"], leader=0)
    # seat 1 had no club? it holds 2c, so rebuild: seat 1 void in clubs trumps with Qh
    t = table(["Ac 2d", "Qh 5d", "Jh 4h 9s"], trump="h", trick=["Ac", "Qh"])
    assert h(t, 2) == parse_card("Jh")


def test_heuristic_takes_a_clean_trick_last_with_lowest_winner():
    t = table(["5c 2d", "8c 3d", "9c Kc Ac 4d"], trump="h", trick=["5c", "8c"])
    assert h(t, 2) == parse_card("9c")


def test_heuristic_ducks_a_trick_with_a_jack_in_it():
    t = table(["5c 2d", "Jc 3d", "9c Kc 2c 4d"], trump="h", trick=["5c", "Jc"])
    assert h(t, 2) == parse_card("9c")  # its highest card under the jack


def test_heuristic_trumps_a_clean_trick_when_last():
    t = table(["5c 2d", "8c 3d", "9h 3h Ks 4d"], trump="h", trick=["5c", "8c"])
    assert h(t, 2) == parse_card("3h")


def test_heuristic_does_not_trump_a_trick_holding_a_jack():
    t = table(["5c 2d", "Jc 3d", "9h 3h Ks 4d"], trump="h", trick=["5c", "Jc"])
    assert h(t, 2) == parse_card("Ks")  # throws its highest side card


def test_heuristic_leads_a_jack_that_must_be_overtaken():
    # Every unseen spade is above the J of spades: whoever follows must take it.
    others = "Qs Ks As 2c 3c 4c"
    t = table(["Js 5d 6d 7d 8d", "Qs Ks 2c", "As 3c 4c"], trump="h")
    t[T.played] = mask(" ".join(f"{r}s" for r in "23456789T"))
    assert h(t, 0) == parse_card("Js")
    assert others  # (documentation of the unseen cards above)


# ---- look-ahead -------------------------------------------------------------------------------
def _state(seed=1):
    from cardodds.rng import as_seed_sequence, chunk_state

    return chunk_state(as_seed_sequence(seed)[0], 0)


def test_sample_world_respects_voids_sizes_and_my_hand():
    t = table(["2c 3c Jh", "4c 5c 6d 7d", "8c 9d Td Jd"], trump="s", trick=["2c", "4c", "9d"])
    # seat 2 has shown void in clubs; it is seat 0's turn
    w = np.empty_like(t)
    s = _state()
    seen_a = set()
    for _ in range(200):
        P.sample_world(s, t, 0, w, np.empty(52, dtype=np.int64), None)
        assert w[T.hand] == t[T.hand]
        assert TB.popcount(w[T.hand + 1]) == TB.popcount(t[T.hand + 1])
        assert TB.popcount(w[T.hand + 2]) == TB.popcount(t[T.hand + 2])
        assert w[T.hand + 1] | w[T.hand + 2] == t[T.hand + 1] | t[T.hand + 2]
        assert w[T.hand + 2] & TB.SUIT_MASK[0] == 0  # never a club to the void seat
        seen_a.add(int(w[T.hand + 1]))
    assert len(seen_a) > 1


def test_lookahead_does_not_peek_at_other_hands():
    # Two deals that differ only in how the unseen cards are split between the others:
    # with the same random state the look-ahead must choose the same card.
    a = table(["2c 9c Ah Jd", "3c Kc 5d Qs", "Ac 4d 6s 7s"], trump="h")
    b = table(["2c 9c Ah Jd", "Ac 4d 6s 7s", "3c Kc 5d Qs"], trump="h")
    for seed in range(5):
        ca = P.lookahead_choose(_state(seed), a, 0, TB.legal_cards(a, 0), 8, *P.new_scratch(), P.NO_ENDGAME)
        cb = P.lookahead_choose(_state(seed), b, 0, TB.legal_cards(b, 0), 8, *P.new_scratch(), P.NO_ENDGAME)
        assert ca == cb


# ---- user policies ----------------------------------------------------------------------------
@njit
def lowest_card(state, seat, view, legal):
    return lowest(legal)


@njit
def honest_view(state, seat, view, legal):
    # answers illegally (-1) if the view shows another seat's hand, or a trump that is not
    # the turned card's suit: a checked run counts every such answer
    for s in range(view[T.players]):
        if s != seat and view[T.hand + s] != 0:
            return -1
    if view[T.trump] != (view[T.turned] & 3) or (view[T.hand + seat] & legal) != legal:
        return -1
    return lowest(legal)


@njit
def cheat(state, seat, view, legal):
    # plays a card it does not hold: the checked run must count it
    return 0 if (legal & 1) == 0 else 1


def test_user_policy_runs_in_every_seat():
    r = jack_risk([lowest_card, "heuristic", lowest_card], samples=3_000, rng=1, check=True)
    assert r.policies == ("user", "heuristic", "user")
    assert r.violations == 0
    assert abs(r.mean_total.value - 7.19) < 0.2


def test_user_policy_sees_its_own_hand_and_the_named_fields_only():
    r = jack_risk([honest_view, "heuristic", "random"], samples=2_000, rng=1, check=True)
    assert r.violations == 0
    assert jack_risk([cheat, "heuristic", "random"], samples=200, rng=1, check=True).violations > 0


def test_user_policy_is_compiled_once_and_the_kernels_not_again():
    assert compile_policy(lowest_card) is compile_policy(lowest_card)
    jack_risk([lowest_card, "heuristic", "heuristic"], samples=100, rng=1)
    before = len(K._deals_loop.signatures)
    jack_risk([honest_view, "heuristic", "heuristic"], samples=100, rng=1)
    assert len(K._deals_loop.signatures) == before


def test_illegal_user_card_is_counted_and_replaced():
    t = table(["2c 3c", "Kc Ah", "4c 5d"], trick=["2c"])
    c = P.choose(_state(), t, 1, P.P_USER, 1, P.calls(compile_policy(cheat), [P.P_USER]), *P.new_scratch(), True)
    assert c == parse_card("Kc") and t[T.violations] == 1


def test_a_policy_that_does_not_compile_is_a_value_error():
    @njit
    def wrong(state, legal):
        return lowest(legal)

    with pytest.raises(ValueError, match=r"wrong.*does not compile as policy\(state, seat, view, legal\) -> card"):
        jack_risk([wrong, "heuristic", "heuristic"], samples=10, rng=1)


def test_policy_names_and_errors():
    assert resolve_policies("random,heuristic,lookahead")[1] == ("random", "heuristic", "lookahead")
    assert resolve_policies("heuristic")[1] == ("heuristic",) * 3
    for bad in ("foo", "random,random", ["random", 3, "random"]):
        with pytest.raises(ValueError):
            resolve_policies(bad)


# ---- strength ordering, paired ----------------------------------------------------------------
def test_heuristic_beats_random():
    m = strength("heuristic", "random", samples=3_000, rng=1, check=True)
    assert m.violations == {"invariants": 0}
    assert m.points.lo > 0.5


def test_lookahead_beats_heuristic():
    m = strength("lookahead", "heuristic", samples=80, rng=1, lookahead_samples=8, check=True)
    assert m.violations == {"invariants": 0}
    assert m.points.lo > 0


def test_heuristic_leads_a_boss_only_when_its_suits_jack_is_not_unseen():
    t = table(["Ac 2d 3d", "Jc 5c 9d", "4c 6c Kd"], trump="h")
    assert h(t, 0) == parse_card("2d")  # the Jc holder would shed it under the ace
    t = table(["Ac 2d 3d", "Qh 5c 9d", "4c 6c Kd"], trump="h")
    t[T.played] = mask("Jc")
    assert h(t, 0) == parse_card("Ac")  # a cheap safe trick


def test_heuristic_forced_to_win_stays_low_under_an_unseen_jack():
    # Seat 1 must beat the 2c; the Jc is unseen, so it wins low (Tc) rather than high (Ac).
    t = table(["2c 5d", "Tc Ac", "Jc 3c"], trump="h", trick=["2c"])
    assert h(t, 1) == parse_card("Tc")
    t = table(["2c 5d", "Tc Ac", "Qc 3c"], trump="h", trick=["2c"])
    t[T.played] |= mask("Jc")
    assert h(t, 1) == parse_card("Ac")


# ---- the look-ahead plays out one card of each interchangeable run ---------------------------------
def _mid_deal_tables(players, n_tables, seed):
    """Tables part-way through the trick play (three players, or the two-player phase 2),
    reached by heuristic play from random deals."""
    from cardodds.kanalje import KanaljeRules
    from cardodds.rng import chunk_state

    rules = KanaljeRules(players=players).pack()
    rng = np.random.default_rng(seed)
    state = chunk_state(np.random.SeedSequence(seed), 0)
    hand0 = np.empty(4, dtype=np.int64)
    for _ in range(n_tables):
        t = np.zeros(TB.TABLE_SIZE, dtype=np.int64)
        if players == 3:
            TB.start_deal(state, t, np.arange(52, dtype=np.int64), 52, rules, -1, 0, -1, 1, 0, 0, hand0)
        else:
            card = int(rng.integers(52))
            _, deck, nfree, _, _ = K.deal_work(0, card)
            TB.start_deal(state, t, deck, nfree, rules, -1, 0, card, 2, 0, 0, hand0)
        for _ in range(int(rng.integers(0, (51 if players == 3 else 26) - 5))):
            seat = TB.to_play(t)
            TB.play_card(t, seat, P.heuristic_choose(t, seat, TB.legal_cards(t, seat)))
        yield state, t


@pytest.mark.parametrize("players", [3, 2])
def test_interchangeable_cards_score_alike_in_every_world(players):
    # The look-ahead skips a legal card that representatives finds interchangeable with a lower
    # one; that is exact only if both play out to the same score in every sampled world.
    pairs = 0
    w = np.empty(TB.TABLE_SIZE, dtype=np.int64)
    pool = np.empty(52, dtype=np.int64)
    for state, t in _mid_deal_tables(players, 300, seed=players):
        seat = TB.to_play(t)
        legal = int(TB.legal_cards(t, seat))
        reps = int(P.representatives(t, seat, legal))
        assert reps & legal == reps and reps != 0
        skipped = [c for c in range(52) if (legal >> c) & 1 and not (reps >> c) & 1]
        for c in skipped:
            # its representative: the highest kept card of its suit below it
            r = max(x for x in range(c % 4, c, 4) if (reps >> x) & 1)
            for _ in range(4):
                P.sample_world(state, t, seat, w, pool, None)
                scores = []
                for card in (r, c):
                    w2 = w.copy()
                    if not TB.play_any(state, w2, seat, card, None):
                        P.play_heuristic_until(state, w2, 0, -1, None)
                    scores.append(int(TB.score(w2, seat)))
                assert scores[0] == scores[1], (t.tolist(), r, c)
            pairs += 1
    assert pairs > 20  # the runs this checks do occur


def test_a_user_policy_leaves_the_process_sound(tmp_path):
    # A user's policy is called from loops compiled without reference counting; the call once
    # corrupted the heap, and the process crashed when it next loaded a kernel from the cache.
    code = (
        "import numpy as np\n"
        "from numba import njit\n"
        "from cardodds.kanalje import jack_risk\n"
        "from cardodds.kanalje import _policies as P, _table as TB\n"
        "from cardodds.kanalje.view import compile_policy\n"
        "@njit\n"
        "def plays_card_5(state, seat, view, legal):\n"
        "    return 5 if view[0] >= 0 else 6\n"
        "r = jack_risk([plays_card_5, 'heuristic', 'heuristic'], samples=300, rng=1, check=True)\n"
        "t = np.zeros(TB.TABLE_SIZE, dtype=np.int64)\n"
        "P.choose(np.array([1, 2, 3, 4], dtype=np.uint64), t, 1, P.P_USER, 1,"
        " P.calls(compile_policy(plays_card_5), [P.P_USER]), *P.new_scratch(), True)\n"
        "print(P.no_user_policy)\n"
        "print(jack_risk('lookahead,heuristic,heuristic', samples=3, rng=1).samples)\n"
    )
    assert run_twice_on_a_fresh_cache(code, tmp_path / "cache").split()[-1] == "3"
