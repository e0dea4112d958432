"""The ``heuristic2`` player on hand-built tables: what it remembers, and each of its four
changes to ``heuristic`` where the two choose differently (RULES.md 3; issue point 3)."""

from __future__ import annotations

import numpy as np

from cardodds.canasta import _policies as P
from cardodds.canasta import _table as T
from cardodds.canasta.cards import ACE, KING
from cardodds.canasta.policies import POLICIES, HeuristicParams

from .test_canasta_play import FIVE, NINE, RULES, SEVEN, moves, play, table

SA = T.SA
EIGHT = 7
HP = HeuristicParams().pack()


def pick(t, smart):
    ms = moves(t)
    mv = np.asarray(ms, dtype=np.int64)
    return ms[P.heuristic_choose(t, RULES, mv, len(ms), HP, np.int64(P.SMART if smart else 0))]


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
