"""The defaults of docs/rules/canasta.md as named rules options, each on a hand-built table where the option
changes what happens: the direction of play and who moves first, the empty stock, and whose
points a card added to the opponents' meld is."""

from __future__ import annotations

import numpy as np
import pytest

from cardodds.canasta import CanastaRules, play as play_hands, trace
from cardodds.canasta import _table as T
from cardodds.canasta.cards import JOKER, KING, N_KINDS, deck_kinds
from cardodds.rng import as_seed_sequence, chunk_state

from .test_canasta_play import FIVE, NINE, SEVEN, _run, hand, moves, of_type, play, table, violations

SA = T.SA
CCW = CanastaRules(direction="counterclockwise").pack()
DEALER = CanastaRules(first_player="dealer").pack()
TAKE = CanastaRules(empty_stock="take_pile").pack()
ADDER = CanastaRules(added_cards="adder").pack()


def test_defaults_are_the_rules_defaults_and_bad_values_are_named():
    r = CanastaRules()
    assert (r.direction, r.first_player, r.empty_stock, r.added_cards) == \
        ("clockwise", "after_dealer", "end", "meld_owner")
    assert {"direction", "first_player", "empty_stock", "added_cards"} <= set(r.to_dict())
    for name in ("direction", "first_player", "empty_stock", "added_cards"):
        with pytest.raises(ValueError, match=f"{name}='left' is unknown; choose one of"):
            CanastaRules(**{name: "left"})


# ---- seating: the direction of play, who moves first -------------------------------------------------
def test_counterclockwise_play_passes_the_turn_to_the_right():
    for rules, nxt in ((None, 1), (CCW, 3)):
        t = table({0: "Kh Kd 9c 4s", 1: "5s 6s 7s 8s", 3: "5d 6d 7d 8d"}, pile=[NINE], stock=[FIVE, SEVEN])
        play(t, (T.MV_DISCARD, KING, 0, 0, 0), CanastaRules().pack() if rules is None else rules)
        assert t[SA.seat] == nxt and hand(t, nxt)[FIVE] == 2  # the next seat drew the stock's top card


@pytest.mark.parametrize("rules, first", [(CanastaRules(), 0), (CanastaRules(direction="counterclockwise"), 2),
                                          (CanastaRules(first_player="dealer"), 3),
                                          (CanastaRules(direction="counterclockwise", first_player="dealer"), 3)])
def test_who_moves_first_after_dealer_3_deals(rules, first):
    ss, _ = as_seed_sequence(7)
    t = np.zeros(T.S.size, dtype=np.int64)
    T.new_hand(chunk_state(ss, 0), t, rules.pack(), deck_kinds(4), 3)
    assert t[SA.seat] == first
    assert [hand(t, s).sum() for s in range(4)] == [13 if s == first else 12 for s in range(4)]
    assert not violations(t, rules.pack()).any()


@pytest.mark.parametrize("rules", [CanastaRules(direction="counterclockwise"), CanastaRules(first_player="dealer")])
def test_single_hands_are_dealt_so_that_seat_0_moves_first(rules):
    dealer = int(T.hand_dealer(rules.pack()))
    assert dealer == (1 if rules.direction == "counterclockwise" else 0)
    t = trace("random", rules=rules, rng=3)
    draws = [m.seat for m in t.moves if m.action == "draw"]
    assert t.info["dealer"] == str(dealer) and draws[:2] == [0, 3 if rules.direction == "counterclockwise" else 1]


# ---- the empty stock ------------------------------------------------------------------------------------
def test_on_an_empty_stock_the_next_player_may_take_the_pile_instead_of_ending_the_hand():
    t = table({0: "Kh Kd 5d 4s", 1: "5s 5c 7s 8s 9d", 2: "Qh Qd 4d"}, melds=[(1, NINE, 3, 0, 0)], pile=[SEVEN],
              empty_stock=True)
    t0 = t.copy()
    play(t, (T.MV_DISCARD, FIVE, 0, 0, 0))
    assert t[SA.phase] == T.PH_OVER  # the default: the hand ends
    t = t0
    play(t, (T.MV_DISCARD, FIVE, 0, 0, 0), TAKE)
    assert t[SA.phase] == T.PH_ACT and t[SA.seat] == 1 and t[SA.no_draw] == 1
    assert hand(t, 1).sum() == 5  # no draw
    ms = moves(t, TAKE)
    assert ms[0] == (T.MV_END, 0, 0, 0, 0) and of_type(ms, T.MV_TAKE_NEW)
    assert all(m[0] in (T.MV_END, T.MV_TAKE_NEW, T.MV_TAKE_ADD) for m in ms)
    ended = t.copy()
    play(ended, ms[0], TAKE)
    assert ended[SA.phase] == T.PH_OVER and ended[SA.went_out] == -1
    take = of_type(ms, T.MV_TAKE_NEW)[0]
    play(t, take, TAKE)
    assert t[SA.pile_len] == 0 and hand(t, 1)[SEVEN] == 2 and t[SA.phase] == T.PH_ACT
    assert not of_type(moves(t, TAKE), T.MV_END) and of_type(moves(t, TAKE), T.MV_DISCARD)
    play(t, (T.MV_DISCARD, SEVEN, 0, 0, 0), TAKE)
    # the next player faces a pile of one 7 it cannot meld: leaving it is its only move
    assert t[SA.seat] == 2 and moves(t, TAKE) == [(T.MV_END, 0, 0, 0, 0)]


def test_take_pile_plays_on_past_the_stock_in_checked_hands():
    base = _run("random", CanastaRules(), 300)
    more = _run("random", CanastaRules(empty_stock="take_pile"), 300)
    assert not more.violations.any()
    # the same deals: play is the same up to the empty stock, then the piles taken instead of ending
    assert more.takes.sum() > base.takes.sum()


# ---- whose points a card added to the opponents' meld is ---------------------------------------------------
def _scores(t, rules):
    T.score_hand(t, rules, np.zeros(N_KINDS, dtype=np.int64))
    viol = np.zeros(T.N_VIOL, dtype=np.int64)
    T.check_score(t, rules, viol)
    assert not viol.any()
    return int(t[SA.score]), int(t[SA.score + 1])


def test_a_card_added_to_the_opponents_meld_scores_for_them_or_for_the_adder():
    t = table({0: "Kh 5c 9c 4s"}, melds=[(1, KING, 6, 0, 0), (0, NINE, 3, 0, 0)])
    play(t, (T.MV_ADD, 1, KING - 3, KING, 0))
    assert tuple(t[T.lent_at(1, KING - 3):T.lent_at(1, KING - 3) + 3]) == (1, 0, 0)
    assert _scores(t.copy(), CanastaRules().pack()) == (-30 - 20, 500 + 70)
    # the adder's side has no canasta: its K counts against it; the canasta stays theirs
    assert _scores(t.copy(), ADDER) == (-30 - 10 - 20, 500 + 60)
    assert not violations(t, ADDER).any()


def test_a_joker_swapped_out_of_the_opponents_meld_leaves_the_natural_with_the_swapper():
    t = table({0: "Kh 9c 9d 4s"}, melds=[(1, KING, 3, 0, 1), (0, FIVE + 7, 3, 0, 0)])
    play(t, (T.MV_SWAP, 1, KING - 3, JOKER, 0))
    lo = T.lent_at(1, KING - 3)
    assert tuple(t[lo:lo + 3]) == (1, 0, 0)  # the K seat 0 put in is side 0's
    play(t, moves(t)[0])
    assert not violations(t, ADDER).any()
    a, b = _scores(t.copy(), CanastaRules().pack()), _scores(t.copy(), ADDER)
    assert (b[0] - a[0], b[1] - a[1]) == (-10, +10)  # neither side has a canasta: the K's 10 change sides


def test_the_meld_owner_swapping_out_a_joker_the_opponents_added_takes_theirs():
    t = table({0: "Kh 9c 9d 4s"}, melds=[(0, KING, 3, 0, 1), (1, FIVE + 7, 3, 0, 0)])
    lo = T.lent_at(0, KING - 3)
    t[lo + 2] = 1  # side 1 added that Joker
    play(t, (T.MV_SWAP, 0, KING - 3, JOKER, 0))
    assert tuple(t[lo:lo + 3]) == (0, 0, 0)
    play(t, moves(t)[0])
    assert not violations(t, ADDER).any()


def test_added_cards_adder_plays_checked_hands_without_violation():
    v = _run("heuristic", CanastaRules(added_cards="adder"), 300)
    assert not v.violations.any()
    r = play_hands("random", rules=CanastaRules(added_cards="adder", direction="counterclockwise",
                                                first_player="dealer", empty_stock="take_pile"),
                   samples=300, rng=1, check=True)
    assert not any(r.violations.values())


def test_each_option_is_a_flag_of_play_and_advise_defaulting_to_the_rules(capsys):
    import json

    from cardodds.cli import main as cli_main

    flags = ["--direction", "counterclockwise", "--first-player", "dealer", "--empty-stock", "take-pile",
             "--added-cards", "adder"]
    want = dict(direction="counterclockwise", first_player="dealer", empty_stock="take_pile", added_cards="adder")
    for cmd in (["canasta", "play", "--samples", "50"],
                ["canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b", "--samples", "20"]):
        assert cli_main(cmd + ["--seed", "1", "--json"]) == 0
        rules = json.loads(capsys.readouterr().out)["rules"]
        assert {k: rules[k] for k in want} == {k: getattr(CanastaRules(), k) for k in want}
        assert cli_main(cmd + flags + ["--seed", "1", "--json"]) == 0
        rules = json.loads(capsys.readouterr().out)["rules"]
        assert {k: rules[k] for k in want} == want
