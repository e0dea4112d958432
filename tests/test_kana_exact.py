"""Tests for cardodds.kana.exact: exact Känä odds, checked against the figures of docs/rules/kana.md §4.2 and
independent brute-force enumerations written here from scratch."""

from __future__ import annotations

import doctest
import itertools
from fractions import Fraction
from math import comb

import pytest

from cardodds.kana import exact
from cardodds.kana.exact import (
    hand_value_distribution,
    last_round_starter_probabilities,
    p_extra_round,
    p_extra_ties_again,
    p_superkana,
    win_probabilities,
)

RULES_COUNTS = [6, 16, 22, 32, 38, 48, 54, 64, 70, 80, 86, 96, 102, 96, 86, 80, 70, 64, 54, 48, 38, 32, 22, 16, 6]


def _rank(card: int) -> int:
    return card // 4  # cardodds card code = rank * 4 + suit


def _key(r1: int, r2: int) -> int:
    """Brute-force key: Superkänä (two 2s) above everything, else the sum of values."""
    return 100 if r1 == r2 == 0 else (r1 + 2) + (r2 + 2)


# --- one player's hand ---------------------------------------------------------------


def test_hand_value_counts_match_rules():
    dist = hand_value_distribution()
    assert sorted(dist) == list(range(4, 29))
    assert [dist[v] * 1326 for v in range(4, 29)] == RULES_COUNTS
    assert all(isinstance(p, Fraction) for p in dist.values())


def test_hand_value_distribution_sums_to_one():
    assert sum(hand_value_distribution().values()) == 1


def test_p_superkana():
    assert p_superkana() == Fraction(1, 221)
    assert p_superkana() == hand_value_distribution()[4]


# --- P(extra round) -------------------------------------------------------------------


def test_p_extra_round_rules_oracles():
    assert p_extra_round(2) == Fraction(839, 16575)
    assert p_extra_round(3) == Fraction(38313, 519350)
    assert round(float(p_extra_round(4)), 6) == 0.088617


def _brute_extra_round_two_players() -> Fraction:
    """All ordered pairs of disjoint card pairs, enumerated at rank level with weights."""
    rank_pairs = [(a, b) for a in range(13) for b in range(a, 13)]
    tied = total = 0
    for a, b in rank_pairs:
        w1 = comb(4, 2) if a == b else 16
        left = [4] * 13
        left[a] -= 1
        left[b] -= 1
        k1 = _key(a, b)
        for c, d in rank_pairs:
            w2 = comb(left[c], 2) if c == d else left[c] * left[d]
            if w2 == 0:
                continue
            total += w1 * w2
            if _key(c, d) == k1:
                tied += w1 * w2
    assert total == 1326 * 1225
    return Fraction(tied, total)


def test_p_extra_round_two_players_brute_force():
    assert p_extra_round(2) == _brute_extra_round_two_players()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_p_extra_round_matches_sequential_dp(players):
    # the player-by-player DP shares no code with the threshold-graph counting
    assert exact._p_extra_round_sequential(players) == p_extra_round(players)


def test_p_extra_round_five_players_matches_the_sequential_dp_value():
    # The sequential DP gave this value for n=5 (about 9 s, too slow for this suite); n=6
    # is checked against Monte Carlo in test_kana.py.
    assert p_extra_round(5) == Fraction(371609953496, 3737480721975)


def test_p_extra_round_full_range_is_a_probability_and_grows():
    values = [p_extra_round(n) for n in range(2, 18)]
    assert all(isinstance(v, Fraction) and 0 < v < 1 for v in values)
    assert values == sorted(values)  # more players, more ties for best


def test_threshold_matching_count_against_brute_force_small_deck():
    # a small deck: two 2s, one 3, two 5s, one 9, one ace (7 cards)
    counts = [2, 1, 0, 2, 0, 0, 0, 1, 0, 0, 0, 0, 1]
    cards = [r for r, c in enumerate(counts) for _ in range(c)]
    pairs = list(itertools.combinations(range(len(cards)), 2))
    for k in (1, 2, 3):
        for key in (5, 8, 12, 16, 20, 28, 29):
            brute = 0
            for combo in itertools.permutations(pairs, k):
                used = [i for p in combo for i in p]
                if len(set(used)) != len(used):
                    continue
                if all(_key(cards[i], cards[j]) <= (key if key < 29 else 100) for i, j in combo):
                    brute += 1
            assert exact._ordered_all_below(tuple(counts), k, key) == brute, (k, key)


# --- extra rounds ---------------------------------------------------------------------


def test_p_extra_ties_again_two():
    assert p_extra_ties_again(2) == Fraction(3, 51)


def test_p_extra_ties_again_three_brute_force():
    tied = total = 0
    for seq in itertools.permutations(range(52), 3):
        ranks = [_rank(c) for c in seq]
        total += 1
        if ranks.count(max(ranks)) >= 2:
            tied += 1
    assert total == 52 * 51 * 50
    assert p_extra_ties_again(3) == Fraction(tied, total)


def test_p_extra_ties_again_range():
    values = [p_extra_ties_again(k) for k in range(2, 18)]
    assert all(0 < v < 1 for v in values)
    assert values == sorted(values)


def test_p_extra_ties_again_rejects_remaining_deck():
    with pytest.raises(ValueError, match="fresh"):
        p_extra_ties_again(2, deck="remaining")


# --- last turn round starter ----------------------------------------------------------


def _brute_starter(players: int, tie: str) -> tuple[Fraction, ...]:
    wins = [0] * players
    total = 0
    for seq in itertools.permutations(range(52), players):
        ranks = [_rank(c) for c in seq]
        low = min(ranks)
        holders = [s for s in range(players) if ranks[s] == low]
        wins[holders[0] if tie == "earliest" else holders[-1]] += 1
        total += 1
    return tuple(Fraction(w, total) for w in wins)


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("tie", ["earliest", "latest"])
def test_last_round_starter_brute_force(players, tie):
    assert last_round_starter_probabilities(players, tie) == _brute_starter(players, tie)


@pytest.mark.parametrize("players", range(2, 18))
def test_last_round_starter_sums_to_one_and_earliest_favours_seat0(players):
    early = last_round_starter_probabilities(players)
    late = last_round_starter_probabilities(players, tie="latest")
    assert sum(early) == 1 and sum(late) == 1
    assert len(early) == players
    assert early[0] >= early[1]
    assert list(early) == sorted(early, reverse=True)
    assert late == tuple(reversed(early))


# --- win probabilities ----------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_win_probabilities_genuine_calculation(players):
    assert win_probabilities(players) == tuple(Fraction(1, players) for _ in range(players))


def test_seat_tracking_dp_outcomes():
    # the seat-tracking DP deals seat 0 first and handles the last seat separately; the
    # equal weights of "seat s alone holds the best" are its output, not an input
    out = exact._sequential_outcomes(3, track_seats=True)
    assert sum(out.values()) == 52 * 51 * 50 * 49 * 48 * 47 // 8
    solo = {next(iter(h)): w for h, w in out.items() if len(h) == 1}
    assert solo[0] == solo[1] == solo[2]  # equal totals arise from the sum, not by construction
    assert len(out) == 7  # every non-empty subset of the three seats can hold the best


@pytest.mark.parametrize("players", [5, 10, 17])
def test_win_probabilities_large(players):
    probs = win_probabilities(players)
    assert probs == tuple(Fraction(1, players) for _ in range(players))
    assert sum(probs) == 1


# --- bad input ------------------------------------------------------------------------


@pytest.mark.parametrize("bad", [1, 18, "x", 0, 2.0, True])
@pytest.mark.parametrize(
    "func", [p_extra_round, win_probabilities, last_round_starter_probabilities, p_extra_ties_again]
)
def test_bad_players_raise(func, bad):
    with pytest.raises(ValueError, match=r"2\.\.17"):
        func(bad)


def test_bad_tie_rule_raises():
    with pytest.raises(ValueError, match="earliest"):
        last_round_starter_probabilities(3, tie="x")


def test_doctests():
    result = doctest.testmod(exact)
    assert result.attempted > 0 and result.failed == 0
