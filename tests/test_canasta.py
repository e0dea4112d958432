"""Polish Canasta: cards, rules, melds, scoring (docs/rules/canasta.md), exact vs Monte Carlo, CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from . import naive_canasta as naive
from cardodds import cards as core_cards
from cardodds import engine
from cardodds.canasta import (CanastaRules, Meld, best_first_meld, can_swap, hand_counts, hand_odds,
                              meld_options, melds, parse_hand, score_side)
from cardodds.canasta import _kernels as K
from cardodds.canasta import exact
from cardodds.canasta.cards import (ACE, BLACK3, JOKER, KING, N_KINDS, RED3, TWO, deck_counts, deck_kinds,
                                    format_counts, kind_of, parse_kind)
from cardodds.canasta.rules import meld_rules
from cardodds.cli import main as cli_main

R = CanastaRules()
PTS = R.points()


# ---- cards ------------------------------------------------------------------------
def test_pack_has_108_cards_and_110_with_six_jokers():
    c = deck_counts(4)
    assert c.sum() == 108 and c[JOKER] == 4 and c[TWO] == 8 and c[RED3] == 4 and c[BLACK3] == 4
    assert (c[3:14] == 8).all()
    assert deck_counts(6).sum() == 110 and len(deck_kinds(6)) == 110


def test_red_and_black_threes_are_apart():
    assert kind_of("3d") == kind_of("3h") == RED3
    assert kind_of("3c") == kind_of("3s") == BLACK3
    assert kind_of("Jk") == kind_of("*") == JOKER
    assert kind_of("2h") == TWO and kind_of("Ks") == KING and kind_of("Ac") == ACE


def test_hand_counts_and_errors():
    c = hand_counts("Ah Ah 2c Jk * 3h 3s 10d")
    assert c.sum() == 8 and c[ACE] == 2 and c[JOKER] == 2 and c[RED3] == 1 and c[BLACK3] == 1
    with pytest.raises(ValueError, match="twice"):
        hand_counts("Ah Ah Ah")
    with pytest.raises(ValueError, match="Jokers"):
        hand_counts("Jk Jk Jk Jk Jk")
    assert hand_counts("Jk Jk Jk Jk Jk", jokers=6)[JOKER] == 5
    with pytest.raises(ValueError, match="cannot read card"):
        hand_counts("Zz")


_card_tokens = st.sampled_from([core_cards.card_str(c) for c in range(52)] + ["Jk", "*"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_card_tokens, max_size=30))
def test_parse_hand_counts_every_card_or_refuses(tokens):
    text = " ".join(tokens)
    norm = ["Jk" if t == "*" else t for t in tokens]
    too_many = norm.count("Jk") > 4 or any(norm.count(t) > 2 for t in norm if t != "Jk")
    if too_many:
        with pytest.raises(ValueError):
            parse_hand(text)
        return
    codes = parse_hand(text)
    assert len(codes) == len(tokens)
    counts = hand_counts(text)
    assert counts.sum() == len(tokens)
    # format_counts lists kinds; reading them back as kinds gives the same counts
    back = np.zeros(N_KINDS, dtype=np.int64)
    for name in format_counts(counts).split():
        back[parse_kind(name)] += 1
    assert (back == counts).all()


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=12))
def test_parse_hand_never_crashes(text):
    try:
        parse_hand(text)
    except ValueError:
        pass


# ---- rules ------------------------------------------------------------------------
def test_rules_defaults_and_points():
    assert (R.jokers, R.wild_limit, R.min_first_meld, R.swap_twos, R.target) == (4, "naturals", 30, False, 10000)
    assert PTS[JOKER] == 50 and PTS[TWO] == 20 and PTS[KING] == 10 and PTS[RED3] == 100 and PTS[BLACK3] == 100
    assert PTS[ACE] == 20 and PTS[kind_of("Qh")] == 10 and PTS[kind_of("8h")] == 10
    assert PTS[kind_of("7h")] == 5 and PTS[kind_of("4h")] == 5


@pytest.mark.parametrize("kw", [{"jokers": 5}, {"wild_limit": "some"}, {"min_first_meld": -1},
                                {"target": 0}, {"swap_twos": "yes"}])
def test_rules_reject_unknown_options(kw):
    with pytest.raises(ValueError):
        CanastaRules(**kw)


# ---- melds (docs/rules/canasta.md §3) ---------------------------------------------------
@pytest.mark.parametrize("meld, naturals, three, none", [
    (Meld("K", 3), True, True, True),
    (Meld("K", 2), False, False, False),          # under 3 cards
    (Meld("K", 2, 1, 0), True, True, True),
    (Meld("K", 2, 1, 1), True, True, True),
    (Meld("K", 2, 2, 1), False, True, True),     # more wilds than naturals
    (Meld("K", 4, 2, 2), True, False, True),     # four wilds
    (Meld("K", 1, 1, 1), False, False, True),    # one natural
    (Meld("K", 0, 2, 1), False, False, False),   # a rank needs a natural
    (Meld("wild", 0, 2, 1), True, True, True),   # wilds alone
    (Meld("wild", 0, 1, 1), False, False, False),
])
def test_meld_legality_for_every_wild_limit(meld, naturals, three, none):
    for limit, want in zip(("naturals", "three", "none"), (naturals, three, none)):
        assert meld.is_legal(rules=CanastaRules(wild_limit=limit)) is want, (meld, limit)


def test_wild_melds_option():
    assert not Meld("wild", 0, 2, 1).is_legal(rules=CanastaRules(wild_melds=False))


def test_threes_and_twos_are_not_meld_ranks():
    for bad in ("3", "3r", "3b", "2", "Jk"):
        with pytest.raises(ValueError):
            Meld(bad, 3)


def test_canasta_kinds():
    assert Meld("K", 6).canasta is None
    assert Meld("K", 7).canasta == "clean"
    assert Meld("K", 7, 2, 1).canasta == "clean"      # wilds on top of 7 naturals
    assert Meld("K", 6, 1).canasta == "mixed"
    assert Meld("K", 4, 2, 1).canasta == "mixed"
    assert Meld("wild", 0, 4, 3).canasta == "joker"


def test_seed_example_seven_kings_two_twos_and_a_joker_score_660():
    m = Meld("K", naturals=7, twos=2, jokers=1)
    assert m.score() == 500 + 70 + 40 + 50 == 660
    assert score_side([m]).total == 660


def test_canasta_bonuses():
    assert Meld("wild", 0, 4, 3).score() == 1000 + 80 + 150
    assert Meld("A", 5, 1, 1).score() == 300 + 100 + 20 + 50


def test_score_without_canasta_counts_negative():
    s = score_side([Meld("Q", 3), Meld("7", 2, 1)], red_threes=1)
    assert s.total == -(30 + 10 + 20 + 100)
    assert s.canastas == 0


def test_score_with_canasta_counts_melds_and_red_threes_positive():
    s = score_side([Meld("K", 7), Meld("Q", 3)], red_threes=2)
    assert s.total == 500 + 70 + 30 + 200


def test_cards_left_in_hand_count_negative_and_threes_minus_100():
    assert score_side([Meld("K", 7)], left="3h").total == 570 - 100
    assert score_side([Meld("K", 7)], left="3s").total == 570 - 100
    assert score_side([Meld("K", 7)], left="Jk 2c Ah 4d").total == 570 - 50 - 20 - 20 - 5
    assert score_side([], left="Kh").total == -10


def test_going_out_bonus():
    assert score_side([Meld("K", 7)], went_out=True).total == 570 + 100
    assert score_side([Meld("K", 3)], went_out=True).total == -30 + 100
    needs = CanastaRules(going_out_needs_canasta=True)
    assert score_side([Meld("K", 3)], went_out=True, rules=needs).total == -30


def test_score_side_matches_naive_twin():
    rng = np.random.default_rng(5)
    for _ in range(200):
        ms = []
        for _ in range(rng.integers(0, 4)):
            if rng.random() < 0.2:
                ms.append(Meld("wild", 0, int(rng.integers(1, 5)), int(rng.integers(2, 4))))
            else:
                n = int(rng.integers(2, 9))
                w = int(rng.integers(max(0, 3 - n), n + 1))
                t = int(rng.integers(0, w + 1))
                ms.append(Meld(str(rng.choice(list("456789TJQKA"))), n, t, w - t))
        left = rng.integers(0, 2, size=N_KINDS)
        red3 = int(rng.integers(0, 3))
        out = bool(rng.integers(0, 2))
        got = score_side(ms, red_threes=red3, left=left, went_out=out).total
        want = naive.score_side([(None if m.rank == "wild" else m.kind, m.naturals, m.twos, m.jokers) for m in ms],
                                red3, left.tolist(), out, PTS.tolist())
        assert got == want


def test_score_side_rejects_illegal_melds():
    with pytest.raises(ValueError, match="not a legal meld"):
        score_side([Meld("K", 2, 2, 1)])
    with pytest.raises(ValueError, match="red_threes"):
        score_side([], red_threes=5)


# ---- first meld -----------------------------------------------------------------------
def test_best_first_meld_examples():
    fm = best_first_meld("Ah Ad Ac 2c 7s 7h 3d 9c")
    assert fm.meld == Meld("A", 3, 1, 0) and fm.value == 80 and fm.opens
    fm = best_first_meld("4h 4d 5c 6s 7h 9c Th Js")   # a 4-4 needs a wild; nothing melds
    assert fm.meld is None and not fm.opens
    fm = best_first_meld("4h 4d 4c 9c")                # 15 < 30: a meld, but no opening
    assert fm.value == 15 and not fm.opens
    fm = best_first_meld("4h 4d 4c 4s 9c", rules=CanastaRules(min_first_meld=20))
    assert fm.value == 20 and fm.opens
    fm = best_first_meld("Jk Jk 2c 5d")                # wilds alone
    assert fm.meld == Meld("wild", 0, 1, 2) and fm.value == 120


def test_first_meld_keeps_a_card_for_the_discard():
    assert best_first_meld("Kh Kd Ks").meld is None
    assert best_first_meld("Kh Kd Ks 4c").value == 30
    assert best_first_meld("Jk Jk Jk").meld is None


def test_wild_limit_changes_the_first_meld():
    hand = "Ah Ad Jk Jk 2c 5s"
    assert best_first_meld(hand).meld == Meld("A", 2, 0, 2)
    assert best_first_meld(hand, rules=CanastaRules(wild_limit="three")).meld == Meld("A", 2, 1, 2)
    assert best_first_meld("Kh Jk Jk 5s", rules=CanastaRules(wild_limit="none")).meld == Meld("K", 1, 0, 2)
    assert best_first_meld("Kh Jk 2c 5s", rules=CanastaRules(wild_limit="naturals")).meld is None


def test_first_meld_with_the_top_card_of_the_pile():
    hand = "Kh Ks 9c 9d Ac Ad Ah"
    assert best_first_meld(hand, top="Kd").meld == Meld("K", 3)       # the top card fixes the rank
    assert best_first_meld(hand, top="9h").value == 30
    assert best_first_meld("Kh 9c 9d", top="Kd").meld is None            # K K alone is no meld
    assert best_first_meld("Kh 9c 9d 2c", top="Kd").meld == Meld("K", 2, 1, 0)
    assert best_first_meld(hand, top="3s").meld is None                # a black 3 is never taken
    assert best_first_meld(hand, top="3h").meld is None                # nor a red 3 (never melded)
    fm = best_first_meld("Jk Kh Kd 5c", top="2c")                       # a wild on top must be melded
    assert fm.meld.twos == 1 and fm.meld == Meld("K", 2, 1, 1)
    fm = best_first_meld("Jk Jk Kh Kd 5c", top="2c")
    assert fm.meld == Meld("wild", 0, 1, 2) and fm.value == 120
    fm = best_first_meld("Jk Jk Ah Ad Ac 5c", top="2c")    # A A A Jk Jk beats A A A Jk 2 but lacks the 2
    assert fm.meld == Meld("A", 3, 1, 2) and fm.value == 60 + 20 + 100
    with pytest.raises(ValueError, match="more"):
        best_first_meld("Jk Jk Jk Jk Kc", top="Jk")


def test_meld_options_lists_best_meld_per_rank():
    opts = meld_options("Kh Kd 9c 9d 9h Jk 2c 3s")
    assert opts[0] == Meld("9", 3, 1, 1)
    assert Meld("K", 2, 1, 1) in opts
    assert meld_options("4c 5d 6h") == []


def test_kernel_best_meld_matches_brute_force():
    rng = np.random.default_rng(11)
    rec = np.zeros(4, dtype=np.int64)
    for trial in range(400):
        counts = np.zeros(N_KINDS, dtype=np.int64)
        size = int(rng.integers(3, 20))
        for x in rng.choice(deck_kinds(4), size=size, replace=False):
            counts[x] += 1
        limit = trial % 3
        room = size - 1 if trial % 5 else int(rng.integers(0, size))
        got = K.best_meld(counts, room, PTS, limit, 1, rec)
        assert got == naive.best_value(counts.tolist(), room, PTS.tolist(), naive.LIMITS[limit])
        top = int(rng.integers(0, N_KINDS))
        if counts[top] < deck_counts(4)[top]:
            assert K.best_meld_with_top(counts, top, PTS, limit, 1, rec) == \
                naive.best_with_top(counts.tolist(), top, PTS.tolist(), naive.LIMITS[limit])


# ---- the Joker swap ---------------------------------------------------------------------
def test_joker_swap():
    m = Meld("K", 3, 0, 1)
    assert can_swap(m, "Kh 9c 9d")                      # freed Joker + 9 9
    assert not can_swap(m, "Kh 9c 8d")                  # nowhere to lay the freed Joker
    assert not can_swap(m, "Qh 9c 9d")                  # no natural King to give
    assert not can_swap(Meld("K", 3, 1, 0), "Kh 9c 9d")  # no Joker in the meld
    assert can_swap(m, "Kh 2c Jk")                      # a new meld of wilds alone
    assert can_swap(m, "Kh Kd Kc")                      # the freed Joker with the other Kings
    assert not can_swap(Meld("wild", 0, 2, 1), "Kh 9c 9d")  # wilds alone stand for no rank


def test_two_swap_needs_the_option():
    m = Meld("K", 3, 1, 0)
    assert not can_swap(m, "Kh 9c 9d", wild="2")
    assert can_swap(m, "Kh 9c 9d", rules=CanastaRules(swap_twos=True), wild="2")
    with pytest.raises(ValueError):
        can_swap(m, "Kh 9c 9d", wild="Kc")


def test_swap_respects_the_wild_limit():
    m = Meld("K", 3, 0, 1)
    assert not can_swap(m, "Kh 9c Jk")                  # 9 + Jk + Jk: two wilds on one natural
    assert can_swap(m, "Kh 9c Jk", rules=CanastaRules(wild_limit="none"))


# ---- exact enumeration, checked by hand -------------------------------------------------
def test_exact_small_cases_by_hand():
    # A given hand that needs a King or a wild: 6 Kings + 4 Jokers + 8 twos of 96 unseen cards.
    h = hand_counts("Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h")
    assert exact.first_meld_by_turn(1, rules=R, hand=h)[1] == exact.Fraction(18, 96)
    # red 3s per hand: hypergeometric
    d = exact.red_three_distribution(12)
    assert d[0] == exact.Fraction(math.comb(104, 12), math.comb(108, 12))
    assert sum(d.values()) == 1
    assert sum(exact.best_meld_distribution(12, rules=R).values()) == 1
    assert sum(exact.max_natural_distribution(12, rules=R).values()) == 1


def test_exact_first_meld_matches_brute_force_on_a_small_hand():
    # A 5-card hand with 2 draws: enumerate the 94*93/2 draws one by one.
    h = hand_counts("Kh 9c 9d 4s 3h")
    rest = deck_kinds(4).tolist()
    for k in range(N_KINDS):
        for _ in range(int(h[k])):
            rest.remove(k)
    hits = 0
    n = 0
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            c = h.copy()
            c[rest[i]] += 1
            c[rest[j]] += 1
            n += 1
            hits += K.best_meld_value(c, 6, PTS, 0, 1) >= 30
    assert exact.first_meld_by_turn(2, rules=R, hand=h)[2] == exact.Fraction(hits, n)


# ---- Monte Carlo vs exact (4 standard errors, fixed seed) ------------------------------
def _close(mc, p, n):
    se = math.sqrt(max(p * (1 - p), 0.0) / n)
    return abs(mc - p) <= 4 * se + 1e-12


@pytest.fixture(scope="module")
def mc_and_exact():
    n = 30_000
    mc = melds(samples=n, rng=2026, turns=20, threads=2, chunk_size=8192)
    ex = melds(exact=True, turns=20)
    return mc, ex, n


def test_monte_carlo_matches_exact(mc_and_exact):
    mc, ex, n = mc_and_exact
    assert mc.bad_deals == 0
    pairs = [(mc.first_meld, ex.first_meld), (mc.pile_open, ex.pile_open), (mc.pair, ex.pair),
             (mc.three, ex.three)]
    pairs += [(mc.first_meld_by_limit[w], ex.first_meld_by_limit[w]) for w in ex.first_meld_by_limit]
    pairs += list(zip(mc.first_meld_by_turn, ex.first_meld_by_turn))
    pairs += list(zip(mc.canasta_by_turn, ex.canasta_by_turn))
    for name in ("wild_cards", "red_threes", "partnership_wild_cards", "partnership_red_threes",
                 "best_rank_naturals", "best_value"):
        m, e = getattr(mc, name), getattr(ex, name)
        assert set(m) <= set(e), name                   # the simulation never sees an impossible value
        pairs += [(m.get(k, None), e[k]) for k in e]
    for m, e in pairs:
        mv = 0.0 if m is None else m.value
        assert _close(mv, e.value, n), (m, e)
    # conditional on the wilds dealt: each has its own sample count
    for w, m in mc.first_meld_by_wilds.items():
        assert _close(m.value, ex.first_meld_by_wilds[w].value, m.n), (w, m, ex.first_meld_by_wilds[w])
    assert ex.first_meld_by_wilds[3].value == 1.0       # three wilds are a meld of 120 alone


def test_monte_carlo_matches_exact_eleven_cards_six_jokers():
    n = 20_000
    r = CanastaRules(jokers=6, wild_limit="none")
    mc = melds(11, rules=r, samples=n, rng=7, turns=2, chunk_size=8192)
    assert _close(mc.first_meld.value, float(exact.first_meld_probability(11, rules=r)), n)
    assert _close(mc.first_meld_by_turn[2].value, float(exact.first_meld_probability(13, rules=r)), n)
    assert _close(mc.pile_open.value, float(exact.pile_open_probability(11, rules=r)), n)


def test_hand_odds_monte_carlo_matches_exact():
    n = 20_000
    hand = "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h"
    mc = hand_odds(hand, turns=6, samples=n, rng=3, chunk_size=8192)
    ex = hand_odds(hand, turns=6, exact=True)
    assert mc.bad_draws == 0
    for m, e in zip(mc.first_meld_by_turn + mc.canasta_by_turn, ex.first_meld_by_turn + ex.canasta_by_turn):
        assert _close(m.value, e.value, n), (m, e)
    many = hand_odds("Kh Kd Kc Ks Kh Kd 9c", turns=3, samples=n, rng=4, chunk_size=8192)
    many_ex = hand_odds("Kh Kd Kc Ks Kh Kd 9c", turns=3, exact=True)
    for m, e in zip(many.canasta_by_turn, many_ex.canasta_by_turn):
        assert _close(m.value, e.value, n), (m, e)


# ---- kernels: naive twin, invariants, threads ---------------------------------------------
@pytest.mark.parametrize("discard", [0, 1])
def test_deal_kernel_matches_naive_twin(discard):
    hand, turns, n = 12, 3, 40
    layout = K.deal_layout(turns, 4)
    state = np.array([1, 2, 3, 4], dtype=np.uint64)
    out = layout.zeros()
    K.deal_kernel(state.copy(), n, out, deck_kinds(4), deck_counts(4), hand, turns, R.pack(), layout.offsets_array(),
                  K.discard_arg(discard), 1)
    lay = {name: layout.slice(name).start for name in layout.names()}
    want = naive.deal_counts(state, n, deck_kinds(4), hand, turns, PTS.tolist(), 0, 30, layout.size, lay, 12,
                             discard)
    assert out.tolist() == want


OTHER_RULES = [
    CanastaRules(wild_limit="three", min_first_meld=50, ace_points=15, low_points=10),
    CanastaRules(wild_limit="none", wild_melds=False, jokers=6, min_first_meld=70, high_points=15),
    CanastaRules(min_first_meld=0, ace_points=5, high_points=5, low_points=5),
]


@pytest.mark.parametrize("rules,hand,turns,discard", [(OTHER_RULES[0], 12, 4, 0), (OTHER_RULES[1], 15, 3, 1),
                                                      (OTHER_RULES[2], 11, 2, 0)])
def test_deal_kernel_matches_naive_twin_under_other_rules(rules, hand, turns, discard):
    # The kernel looks meld values up in tables built per chunk from the rules' points and
    # wild limits; the twin searches every meld of every hand.
    n = 60
    layout = K.deal_layout(turns, rules.jokers)
    state = np.array([5, 6, 7, 8], dtype=np.uint64)
    out = layout.zeros()
    K.deal_kernel(state.copy(), n, out, deck_kinds(rules.jokers), deck_counts(rules.jokers), hand, turns,
                  rules.pack(), layout.offsets_array(), K.discard_arg(discard), 1)
    lay = {name: layout.slice(name).start for name in layout.names()}
    want = naive.deal_counts(state, n, deck_kinds(rules.jokers), hand, turns, rules.points().tolist(),
                             rules.wild_code, rules.min_first_meld, layout.size, lay, 8 + rules.jokers, discard,
                             rules.wild_melds)
    assert out.tolist() == want


@pytest.mark.parametrize("rules", [R] + OTHER_RULES)
def test_value_tables_match_the_meld_search(rules):
    pts, code, _, wm = meld_rules(rules)
    class_of, class_points, n_classes = K.point_classes(pts)
    rng = np.random.default_rng(2)
    deck = deck_kinds(rules.jokers)
    for room in (5, 11, 16):
        tab, _ = K.meld_tables(class_points, n_classes, room + 1, code, wm)
        for _ in range(300):
            counts = np.bincount(rng.choice(deck, room + 1, replace=False), minlength=N_KINDS).astype(np.int64)
            for c in range(3):
                got = max(tab[c, class_of[k], counts[k], counts[JOKER], counts[TWO]] for k in range(3, 14))
                assert got == K.best_meld_value(counts, room, pts, c, wm), (counts, room, c)


@pytest.mark.parametrize("rules", [R] + OTHER_RULES)
def test_draw_table_matches_the_meld_search_at_every_room(rules):
    # Rooms past ROOM_CAP are read at ROOM_CAP: the search must agree there too.
    pts, code, _, wm = meld_rules(rules)
    class_of, class_points, n_classes = K.point_classes(pts)
    tab = K.draw_table(class_points, n_classes, code, wm)
    rng = np.random.default_rng(3)
    deck = deck_kinds(rules.jokers)
    for room in (0, 2, 3, 7, 12, K.ROOM_CAP - 1, K.ROOM_CAP, K.ROOM_CAP + 9):
        for _ in range(200):
            size = int(rng.integers(1, 40))
            counts = np.bincount(rng.choice(deck, size, replace=False), minlength=N_KINDS).astype(np.int64)
            r = min(room, K.ROOM_CAP)
            got = max(tab[r, class_of[k], counts[k], counts[JOKER], counts[TWO]] for k in range(3, 14))
            assert got == K.best_meld_value(counts, room, pts, code, wm), (counts, room)


def test_weakest_discard_on_hand_built_positions():
    from cardodds.canasta.discard import weakest_card

    def w(text):
        return weakest_card(hand_counts(text), PTS)
    assert w("Kh Kd 3s 3h 4c") == BLACK3
    assert w("Kh Kd 3h 4c") == RED3
    assert w("Kh Kd 9c 4c 4d") == kind_of("9c")          # fewest held
    assert w("Kh 9c 4c Ah") == kind_of("4c")             # fewest held, then cheapest
    assert w("Jk 2c") == TWO and w("Jk") == JOKER


def test_discarding_never_beats_keeping_on_the_same_draws():
    keep = melds(samples=8192, rng=11, turns=20, chunk_size=4096)
    weak = melds(samples=8192, rng=11, turns=20, discard="weakest", chunk_size=4096)
    assert weak.bad_deals == 0 and keep.bad_deals == 0
    assert keep.first_meld_by_turn[0] == weak.first_meld_by_turn[0]
    for a, b in zip(keep.first_meld_by_turn + keep.canasta_by_turn, weak.first_meld_by_turn + weak.canasta_by_turn):
        assert a.value >= b.value
    # Discarding costs little (about 1 deal in 1,000 by turn 10), so check it where it costs most;
    # by turn 3 it is a deal or two in 8,192 and may be none for a given stream.
    assert keep.first_meld_by_turn[10].value > weak.first_meld_by_turn[10].value
    h = hand_counts("Kh Kd 9c")
    rest = np.repeat(np.arange(N_KINDS), deck_counts(4) - h)
    lay = K.hand_layout(5)
    out = engine.run(K.hand_kernel, (h, rest, 5, R.pack(), lay.offsets_array(), 1, 1), lay.size, samples=4096, rng=1,
                     chunk_size=4096)
    assert lay.view(out.counts).bad == 0


def test_card_conservation_on_every_deal():
    layout = K.deal_layout(20, 4)
    res = engine.run(K.deal_kernel, (deck_kinds(4), deck_counts(4), 12, 20, R.pack(), layout.offsets_array(), None,
                                     1),
                     layout.size,
                     samples=20_000, rng=9, chunk_size=8192)
    v = layout.view(res.counts)
    assert v.bad == 0
    # every deal is counted once in each distribution
    for name in ("best_value", "wild_cards", "red_threes", "partnership_wild_cards", "partnership_red_threes",
                 "best_rank_naturals"):
        assert getattr(v, name).sum() == 20_000, name
    h = hand_counts("Kh Kd 9c")
    rest = np.repeat(np.arange(N_KINDS), deck_counts(4) - h)
    lay = K.hand_layout(5)
    out = engine.run(K.hand_kernel, (h, rest, 5, R.pack(), lay.offsets_array(), 0, 1), lay.size, samples=5000, rng=1,
                     chunk_size=4096)
    assert lay.view(out.counts).bad == 0


@pytest.mark.parametrize("discard", ["keep", "weakest"])
def test_same_seed_same_counts_on_one_and_two_threads(discard):
    a = melds(samples=20_000, rng=5, turns=20, discard=discard, threads=1, chunk_size=4096)
    b = melds(samples=20_000, rng=5, turns=20, discard=discard, threads=2, chunk_size=4096)
    assert a.to_dict()["first_meld_by_turn"] == b.to_dict()["first_meld_by_turn"]
    assert a.to_dict() == b.to_dict()
    assert (a.counts == b.counts).all()


# ---- API and CLI errors ------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda: melds(hand_size=0, samples=10),
    lambda: melds(hand_size=30, samples=10),
    lambda: melds(samples=0),
    lambda: melds(exact=True, samples=10),
    lambda: melds(turns=99, samples=10),
    lambda: hand_odds("Ah Ah Ah", samples=10),
    lambda: hand_odds("", samples=10),
    lambda: hand_odds("Qx", samples=10),
    lambda: melds(rules="default", samples=10),
    lambda: melds(discard="sometimes", samples=10),
    lambda: melds(discard="weakest", exact=True),
    lambda: hand_odds("Kh", turns=108, samples=10),
])
def test_bad_input_raises_value_error(call):
    with pytest.raises(ValueError):
        call()


@pytest.mark.parametrize("argv", [
    ["canasta", "hand", "--hand", "Ah Ah Ah"],
    ["canasta", "hand", "--hand", "Kh Qx"],
    ["canasta", "melds", "--hand-size", "40"],
    ["canasta", "melds", "--jokers", "5"],
    ["canasta", "melds", "--exact", "--samples", "10"],
])
def test_cli_bad_input_exit_2_one_line(argv, capsys):
    try:
        status = cli_main(argv)
    except SystemExit as exc:  # argparse's own errors leave through sys.exit
        status = exc.code
    assert status == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_json(capsys):
    assert cli_main(["canasta", "melds", "--samples", "5000", "--seed", "1", "--turns", "3", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert set(d["first_meld"]) == {"value", "se", "lo", "hi"}
    assert len(d["first_meld_by_turn"]) == 4 and "red_threes" in d and "wild_cards" in d
    assert d["seed"] == 1 and d["samples"] == 5000
    assert cli_main(["canasta", "melds", "--exact", "--turns", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["exact"] and d["first_meld"]["se"] == 0.0
    assert cli_main(["canasta", "hand", "--hand", "Ah Ad 2c Jk 7s", "--turns", "3", "--samples", "4000",
                     "--seed", "2", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert len(d["first_meld_by_turn"]) == 4 and len(d["canasta_by_turn"]) == 4
    assert d["first_meld_by_turn"][0]["value"] == 1.0    # A A + 2 + Jk opens as given


def test_cli_entry_point_subprocess():
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", "canasta", "hand", "--hand", "Ah Ah Ah"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and p.stderr.count("\n") == 1


def test_results_have_frames_and_reprs():
    r = melds(exact=True, turns=2)
    df = r.to_frame()
    assert {"figure", "key", "value", "lo", "hi"} <= set(df.columns)
    assert "first meld" in repr(r) and "<pre>" in r._repr_html_()
    h = hand_odds("Kh Kd 9c", turns=2, exact=True)
    assert len(h.to_frame()) == 3 and "turn" in repr(h)


# ---- report section and notebook ---------------------------------------------------------
def test_report_section_is_byte_identical(tmp_path):
    from cardodds.report import canasta as rep

    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a = rep.write(tmp_path / "a", seed=3, scale=0.002, progress=False)
    b = rep.write(tmp_path / "b", seed=3, scale=0.002, progress=False)
    text = a.read_text()
    assert "First meld from the deal" in text and "canasta_by_turn.png" in text
    for name in ("canasta.md", "canasta_by_turn.png", "canasta_best_value.png", "canasta_wilds_red3.png"):
        assert (a.parent / name).read_bytes() == (b.parent / name).read_bytes(), name


def test_notebook_runs(tmp_path):
    import os
    from pathlib import Path

    import nbformat
    from nbclient import NotebookClient

    path = Path(__file__).resolve().parent.parent / "analysis" / "canasta.ipynb"
    nb = nbformat.read(path, as_version=4)
    os.environ["CARDODDS_QUICK"] = "1"
    try:
        NotebookClient(nb, timeout=300, kernel_name="python3",
                       resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        os.environ.pop("CARDODDS_QUICK", None)


def test_doctests_of_the_canasta_modules():
    import doctest
    import importlib

    names = ("", ".cards", ".rules", ".scoring", ".discard", ".exact", ".analysis")
    for mod in (importlib.import_module("cardodds.canasta" + n) for n in names):
        res = doctest.testmod(mod, optionflags=doctest.ELLIPSIS)
        assert res.failed == 0 and res.attempted > 0, mod.__name__


# ---- one result protocol, shared validation ------------------------------------------------
def test_results_follow_the_result_protocol():
    from cardodds.results import Result

    r = melds(samples=2000, rng=1, turns=2)
    h = hand_odds("Kh Kd 9c", turns=1, samples=2000, rng=1)
    for x in (r, h):
        assert isinstance(x, Result) and type(x).__name__.endswith("Result")
        assert x.meta()["samples"] == 2000 and x.to_dict()["seed"] == 1
        assert x.counts is not None and len(x.to_frame()) > 0 and "<pre>" in x._repr_html_()


@pytest.mark.parametrize("threads", [-5, 0, "x", 1.5, True])
def test_threads_must_be_a_positive_whole_number(threads):
    with pytest.raises(ValueError, match="positive whole number"):
        melds(samples=2000, rng=1, threads=threads)
    with pytest.raises(ValueError, match="positive whole number"):
        hand_odds("Kh Kd 9c", turns=1, samples=2000, threads=threads)


def test_packed_rules_read_by_name():
    from cardodds.canasta.rules import RULES

    v = RULES.view(CanastaRules(wild_limit="none", jokers=6, min_first_meld=50).pack())
    assert (v.wild_code, v.jokers, v.min_first_meld) == (2, 6, 50)
    assert v.points.tolist() == CanastaRules().points().tolist()
