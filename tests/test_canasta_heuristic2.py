"""The ``heuristic2`` player on hand-built tables: what it remembers, and each of its four
changes to ``heuristic`` where the two choose differently (docs/rules/canasta.md; issue point 3)."""

from __future__ import annotations

import numpy as np

from cardodds.canasta import _policies as P
from cardodds.canasta import _table as T
from cardodds.canasta.cards import ACE, KING, deck_kinds
from cardodds.canasta.policies import POLICIES, HeuristicParams

from .test_canasta_play import FIVE, NINE, RULES, SEVEN, moves, play, table

SA = T.SA
EIGHT = 7
HP = HeuristicParams().pack()


def pick(t, smart, **params):
    ms = moves(t)
    mv = np.asarray(ms, dtype=np.int64)
    hp = HeuristicParams(**params).pack() if params else HP
    return ms[P.heuristic_choose(t, RULES, mv, len(ms), hp, np.int64(P.SMART if smart else 0))]


def test_heuristic2_is_a_policy_by_name_and_heuristic_stays():
    assert POLICIES["heuristic"] == P.P_HEURISTIC and POLICIES["heuristic2"] == P.P_HEURISTIC2


def test_the_table_remembers_the_cards_taken_with_the_pile_until_they_are_played():
    t = table({0: "Kh Kd 9c 4s"}, melds=[(0, ACE, 3, 0, 0)], pile=[FIVE, SEVEN, SEVEN, KING])
    play(t, (T.MV_TAKE_NEW, KING, 3, 0, 0))
    took = t[SA.took:SA.took + 15]
    assert took[FIVE] == 1 and took[SEVEN] == 2 and took.sum() == 3  # the top card went into the meld
    play(t, (T.MV_DISCARD, SEVEN, 0, 0, 0))
    assert t[SA.took + SEVEN] == 1 and t[SA.discarded + SEVEN] == 1


def test_it_discards_away_from_a_pair_the_next_player_took_with_the_pile():
    t = table({0: "8d 9c Kh Kd Qs Qh", 1: "8h 8s 4c 4d 5c"}, pile=[FIVE])
    t[SA.took + 15 + EIGHT] = 2  # seat 1 took two 8s with the pile and still holds them
    assert pick(t, False) == (T.MV_DISCARD, EIGHT, 0, 0, 0)  # the old player feeds them
    assert pick(t, True) == (T.MV_DISCARD, NINE, 0, 0, 0)


def test_it_discards_a_rank_the_next_player_threw_away_itself():
    t = table({0: "9c 5d Kh Kd Qs Qh", 1: "8h 8s 4c 4d 5c"}, pile=[FIVE])
    assert pick(t, True) == (T.MV_DISCARD, FIVE, 0, 0, 0)  # nothing remembered: the cheapest single
    t[SA.threw + 15 + NINE] = 1  # seat 1, next to play, discarded a 9 this hand
    # it is unlikely to hold a pair of what it threw away: the 9 is the safer discard
    assert pick(t, True) == (T.MV_DISCARD, NINE, 0, 0, 0)
    assert pick(t, True, match_discards=0) == (T.MV_DISCARD, FIVE, 0, 0, 0)  # heuristic2 before the memory
    t[SA.took + 15 + NINE] = 1  # ... but it took a 9 back with the pile and holds it
    assert pick(t, True) == (T.MV_DISCARD, FIVE, 0, 0, 0)


def test_the_table_remembers_who_discarded_what_and_a_game_score_across_the_deal():
    t = table({0: "8d 9c Kh Kd Qs Qh", 1: "8h 8s 4c 4d 5c"}, pile=[FIVE])
    play(t, (T.MV_DISCARD, NINE, 0, 0, 0))
    assert t[SA.threw + NINE] == 1 and t[SA.threw:SA.threw + 60].sum() == 1
    t[SA.game:SA.game + 2] = (4200, 3900)
    T.new_hand(np.arange(1, 5, dtype=np.uint64), t, RULES, deck_kinds(4).copy(), 3)  # the next hand of a game
    assert tuple(t[SA.game:SA.game + 2]) == (4200, 3900) and t[SA.threw:SA.threw + 60].sum() == 0


def test_it_keeps_its_wilds_until_a_canasta_comes_near():
    t = table({0: "Jk 2h 9c 8d 5s 6h 7c"}, melds=[(0, KING, 3, 0, 0)])
    old, new = pick(t, False), pick(t, True)
    assert old[0] == T.MV_ADD and old[3] in (0, 14)  # the old player spends a wild on a 3-card meld
    assert not (new[0] == T.MV_ADD and new[3] in (0, 14))


def test_it_goes_out_when_going_out_wins_the_hand_not_when_behind():
    behind = table({0: "5c 5d 5h", 1: "4c 4d 6c 6d 9h", 3: "4h 4s 6h 6s 9s"},
                   melds=[(0, ACE, 3, 0, 0), (1, KING, 7, 0, 0)])
    assert T.hand_size(behind, 0) == 3
    for smart, empties in ((False, True), (True, False)):
        m = pick(behind.copy(), smart)
        assert (m[0] == T.MV_NEW and m[2] == 3) == empties, (smart, m)
    ahead = table({0: "5c 5d 5h", 1: "4c 4d 6c 6d 9h", 3: "4h 4s 6h 6s 9s"},
                  melds=[(0, ACE, 7, 0, 0), (1, KING, 3, 0, 0)])
    assert pick(ahead, True)[:3] == (T.MV_NEW, FIVE, 3)


def test_it_goes_out_when_going_out_wins_the_game():
    # behind in the hand (their canasta, no canasta of ours): heuristic2 stays in ...
    t = table({0: "5c 5d 5h", 1: "4c 4d 6c 6d 9h", 3: "4h 4s 6h 6s 9s"},
              melds=[(0, ACE, 3, 0, 0), (1, KING, 7, 0, 0)])
    t[SA.game:SA.game + 2] = (9990, 5000)
    # ... but at 9,990 to 5,000 going out takes us past 10,000 ahead of them: the game is won
    assert pick(t.copy(), True)[:3] == (T.MV_NEW, FIVE, 3)
    assert pick(t.copy(), True, out_for_game=0)[:3] != (T.MV_NEW, FIVE, 3)


def test_it_does_not_go_out_when_going_out_loses_the_game():
    # ahead in the hand (a canasta each, our side scoring more): heuristic2 would go out ...
    t = table({0: "5c 5d 5h", 1: "4c 4d 6c 6d 9h", 3: "4h 4s 6h 6s 9s"},
              melds=[(0, ACE, 7, 0, 0), (1, KING, 7, 0, 0)])
    assert pick(t.copy(), True)[:3] == (T.MV_NEW, FIVE, 3)
    # ... but at 5,000 to 9,600 the hand ending now takes them past 10,000 ahead: it stays in
    t[SA.game:SA.game + 2] = (5000, 9600)
    assert pick(t.copy(), True)[:3] != (T.MV_NEW, FIVE, 3)
    assert pick(t.copy(), True, out_for_game=0)[:3] == (T.MV_NEW, FIVE, 3)
