"""Layouts of the int64 counts the Kanalje chunk kernels add up (one per kernel family).

The kernels write through the offsets (``out[D.deals] += 1``); the result objects read the
same counts through named views (``DEALS.view(counts).seat_sums``).
"""

from __future__ import annotations

from ..layout import Layout
from ._defaults import MAX_DEALS

#: Penalty bins per seat: 0..9, and 10 or more.
PEN_BINS = 11
#: Score bins per seat: score + SCORE_OFFSET, clipped to 0..SCORE_BINS-1.
SCORE_OFFSET = 10
SCORE_BINS = 28
#: Seat slots in the per-seat counts (three players; two leave the last empty).
SEATS = 3
#: Per-seat sums: score, score², penalty, penalty², tricks, tricks²; the offset of each
#: figure's sum in a seat's record (its square follows at ``+ SQUARE``).
SEAT_SUMS = 6
SUM_SCORE, SUM_PENALTY, SUM_TRICKS = 0, 2, 4
SQUARE = 1
#: Jack-taker bins per jack: seats 0..2, then OUT_OF_PLAY (turned dead, or fallen dead in phase 1).
TAKER_BINS = 4
OUT_OF_PLAY = 3
#: Holder-length bins per jack and trump flag: the holder's length in the jack's suit, 0..13.
LENGTHS = 14
#: Deals (``jack_risk``, ``evaluate_hand``): the two-player fields stay 0 with three players.
DEALS = Layout("kanalje deals", [
    ("deals", 1),
    ("jack_taker", 4 * TAKER_BINS),  # [jack suit][seat 0..2, OUT_OF_PLAY]
    ("holder_takes", 4),  # [jack suit]: the seat dealt the jack took it
    ("leader_takes", 4),  # [jack suit]: taken by the trick's leader
    ("in_play", 4),  # [jack suit]: taken by somebody
    ("seat_sums", SEATS * SEAT_SUMS),  # [seat][SEAT_SUMS]
    ("total", 1),  # the deal's total score
    ("total_sq", 1),
    ("penalty_dist", SEATS * PEN_BINS),  # [seat][penalty bin]
    ("score_dist", SEATS * SCORE_BINS),  # [seat][score bin]
    ("held", 4 * 2 * LENGTHS),  # [jack suit][trump? 0/1][holder's length in the suit]: deals
    ("held_taken", 4 * 2 * LENGTHS),  # same: the holder took it
    ("violations", 1),
    # two players (docs/rules/kanalje.md §4)
    ("faceup_n", 52),  # [card]: phase-1 tricks played with that card face up
    ("faceup_leader", 52),  # [card]: ... won (so the card taken) by the trick's leader
    ("faceup_jack", 4),  # [jack suit]: the jack was taken face up
    ("faceup_jack_paid", 4),  # [jack suit]: ... and its taker ended up paying it
    ("phase1_jack", 4),  # [jack suit]: the jack fell in a phase-1 trick
    ("phase1_tricks", 4),  # [seat 2][sum, + SQUARE]: phase-1 tricks won
])

#: One traced trick (``trace``): leader, the cards in playing order, winner, and the
#: face-up card (two players' phase 1, else -1).
TRACE = Layout("kanalje trick", [("leader", 1), ("cards", 4), ("winner", 1), ("faceup", 1)])

#: Paired strength matches: per deal d = sum over seats of A's score minus B's in that seat.
MATCH = Layout("kanalje match", [
    ("deals", 1), ("sum", 1), ("sum_sq", 1), ("score_a", 1), ("score_b", 1), ("plus", 1), ("minus", 1),
    ("violations", 1),
])

#: Games to the target (a game still open after ``max_deals`` deals, at most MAX_DEALS of
#: :mod:`._defaults`, is counted in the histogram's last bin).
GAME = Layout("kanalje game", [
    ("games", 1), ("win", SEATS), ("unfinished", 1), ("deals", 1), ("deals_sq", 1),
    ("deals_hist", MAX_DEALS + 1),  # [deals in the game]; unfinished games in the last bin
    ("violations", 1),
])
