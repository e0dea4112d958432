"""The sampled look-ahead player ``lookahead`` (issue point 3): it plays only legal moves, and
on hand-built tables it takes a rich pile, keeps heuristic2's move where the options are even,
and stays in rather than go out behind without a canasta."""

from __future__ import annotations

import numpy as np

from cardodds.canasta import _lookahead as L
from cardodds.canasta import _policies as P
from cardodds.canasta import _table as T
from cardodds.canasta import play, strength, trace
from cardodds.canasta.cards import ACE, JOKER, KING
from cardodds.canasta.policies import POLICIES, HeuristicParams

from .test_canasta_play import FIVE, QUEEN, RULES, SEVEN, moves, table

SA = T.SA
SIX = 5
HP = np.tile(HeuristicParams().pack(), (4, 1))
POL = np.full(4, P.P_LOOKAHEAD, dtype=np.int64)


def _state(seed: int) -> np.ndarray:
    from cardodds.rng import as_seed_sequence, chunk_state

    return chunk_state(as_seed_sequence(seed)[0], 0)


def choices(t, seed=1):
    """The look-ahead player's move and heuristic2's on table ``t``."""
    ms = moves(t)
    mv = np.asarray(ms, dtype=np.int64)
    i = L.lookahead_choose(_state(seed), t.copy(), RULES, mv, len(ms), POL, HP, P.no_user_policy, 1)
    h = P.heuristic_choose(t, RULES, mv, len(ms), HP[0], np.int64(P.SMART))
    return ms[i], ms[h]


def test_lookahead_is_a_policy_by_name():
    assert POLICIES["lookahead"] == P.P_LOOKAHEAD


def test_it_plays_only_legal_moves():
    """Checked runs: every card in one place, every meld legal, no policy answer out of range."""
    s = strength("lookahead", "heuristic2", samples=6, rng=4, check=True)
    assert not any(s.violations.values()), s.violations
    r = play("lookahead,random,lookahead,random", samples=4, rng=5, check=True)
    assert not any(r.violations.values()), r.violations
    assert len(trace("lookahead", rng=2).result["score"]) == 2


def test_it_takes_a_rich_pile():
    """Two Jokers and three Aces under an Ace, with an A pair in hand: take the pile and meld the Aces."""
    t = table({0: "Ah Ad 9c 9d 5s 7h Qc 4s 6h 8d", 1: "4c 4d 5c 5d 6c 6d 7c 7d 9h 9s",
               2: "Kc Kd Kh 10c 10d 10h Jc Jd Jh", 3: "Qh Qs 8h 8s 8c 10s Js 4h 5h 6s 7s"},
              melds=[(0, KING, 3, 0, 0), (1, 7, 3, 0, 0)], pile=[JOKER, JOKER, ACE, ACE, ACE, FIVE, SEVEN, SIX, ACE])
    la, _h2 = choices(t)
    assert la[0] == T.MV_TAKE_NEW and la[1] == ACE


def test_it_leaves_heuristic2s_move_only_for_a_clearly_better_option():
    """A gain of 2+ standard errors over heuristic2's choice on the worlds is needed to switch."""
    assert L._clearly_better(160.0, 16 * 100.0 + 15 * 100.0, 16)      # mean 10, sd 10: 4 se
    assert not L._clearly_better(40.0, 16 * 100.0, 16)                 # mean 2.5, sd ~10: 1 se
    assert not L._clearly_better(-160.0, 16 * 100.0 + 15 * 100.0, 16)  # a loss never switches


def test_its_discard_is_one_of_the_discards_offered():
    """At a discard it compares every discard offered and returns one of them."""
    t = table({0: "Kc Kd 9c 9d 5s 6h Qc Qd Jk", 1: "4c 4d 5c 7c 7d 9h 10s 10h 4h 8h",
               2: "Jc Jd Jh 10c 10d 6c 6d 8c 8d", 3: "Qh Qs 8s Js 4s 5h 6s 7s 9s Jh 10c"},
              melds=[(0, ACE, 3, 0, 0), (1, 7, 3, 0, 0)], pile=[SEVEN, KING], opened=(True, True))
    t[SA.can_take] = 0
    la, h2 = choices(t)
    assert h2[0] == T.MV_DISCARD and la in moves(t) and la[0] == T.MV_DISCARD and la[1] != JOKER


def test_it_stays_in_rather_than_go_out_behind_without_a_canasta():
    """Our Ace meld one short of a canasta, theirs made, 12 cards in every other hand: stay in."""
    t = table({0: "Qc Qd Jk", 1: "4c 4d 5c 5d 6c 6d 7c 7d 9h 9s 10c 10d", 2: "Jc Jd Jh 10h 10s 8c 8d 8h 9c 9d 4h 4s",
               3: "Qh Qs 8s Js 5h 5s 6h 6s 7h 7s 9h 10c"},
              melds=[(0, ACE, 5, 1, 0), (1, KING, 7, 0, 0)], pile=[SEVEN, FIVE, SIX, SEVEN, QUEEN])
    t[SA.can_take] = 0
    ms = moves(t)
    assert any(m[0] == T.MV_NEW and m[2] + m[3] + m[4] == 3 for m in ms)  # going out is offered
    la, _h2 = choices(t)
    assert not (la[0] == T.MV_NEW and la[2] + la[3] + la[4] == 3), la
    assert la in ms


def test_same_seed_same_figures_on_one_and_two_threads():
    """Its sampled worlds come from the chunk's stream: two threads give the same counts as one."""
    one = strength("lookahead", "heuristic2", samples=257, rng=9, threads=1)
    two = strength("lookahead", "heuristic2", samples=257, rng=9, threads=2)
    assert (one.counts == two.counts).all()
