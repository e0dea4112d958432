"""``cardodds.kanalje.review`` and ``cardodds kanalje review``: every card a seat played in a
recorded deal, rated against the advisor's best on the position as that seat knew it.

The reviews that need the advisor's own players (a ``pimc`` deal, its copy with a jack thrown
into the seat's own trick, one and two threads) run at its defaults (``lookahead``, 40 worlds
twice a card) once each, shared by the tests; the others run heuristic or random players on a
few hundred worlds.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cardodds.cards import card_str, parse_card
from cardodds.kanalje import KanaljeRules, Position, advise, positions, review, trace
from cardodds.kanalje._defaults import ADVISE_SAMPLES
from cardodds.kanalje.advise import _versus
from cardodds.kanalje.review import THRESHOLDS
from cardodds.rng import child
from cardodds.trace import Move, Trace

DATA = Path(__file__).parent / "data" / "kanalje_review.txt"  # 4 tricks of a heuristic deal, every hand known
FAST = dict(policies="heuristic", samples=300)
CLI = [sys.executable, "-c", "import sys; from cardodds.cli import main; sys.exit(main())"]


def _record(*lines: str, turned: str = "2s") -> str:
    return "\n".join(["# cardodds trace: kanalje", "players: 3", f"turned: {turned}", *lines])


def _text(t: Trace, moves) -> str:
    """A record with ``t``'s header and ``moves``."""
    return str(Trace("kanalje", t.players, tuple(moves), info=dict(t.info), rules=None, seed=t.seed))


def _figures(r) -> dict:
    """A review's JSON without the record's line and move numbers."""
    d = r.to_dict()
    for x in d["decisions"]:
        del x["line"], x["move"]
    return d


def _plays(moves) -> list[int]:
    return [k for k, m in enumerate(moves) if m.action == "play"]


# ---- hand-built records with a known answer ---------------------------------------------------
#: The late position of ``docs/kanalje-advise.md``: 14 tricks and the 8c led, seat 1 holding Kc 7c 4s.
LATE = ("0: 2h 7h Qh; 2: Ad 6d Qd; 2: Kd 4d 9d; 2: Td Jh 8d; 2: 2d Js 5d; 1: Ah Kh Th; 1: 9h 5h 8h; "
        "1: As 5s Ts; 1: Ks 2s 9s; 1: Qs Jd 8s; 1: 3s 7d 5c; 0: 6h 7s 4h; 0: 3h 6s 2c; 2: 3d Ac Jc; 0: 8c")


def _late_record(card: str) -> str:
    """Only seat 1's deal is known; seat 1 plays ``card`` to the 8c."""
    tricks = [(int(lead), cs.split()) for lead, cs in (g.split(":") for g in LATE.split(";"))]
    plays = [((lead + i) % 3, c) for lead, cs in tricks for i, c in enumerate(cs)]
    mine = [c for s, c in plays if s == 1] + ["Kc", "7c", "4s"]
    return _record(f"1: deal {' '.join(mine)}", *(f"{s}: play {c}" for s, c in plays), f"1: play {card}",
                   turned="Qc")


def test_a_known_position_gets_the_advisors_figures_on_exactly_what_the_seat_knew():
    size = ADVISE_SAMPLES[0]
    r = review(_late_record("7c"), seat=1, policies="random", samples=size, rng=11)
    assert r.violation is None and len(r.decisions) == 15 and r.decisions[0].line == 6
    last = r.decisions[-1]
    assert (last.line, last.what, last.taken, last.best, last.options) == (48, "trick 15, 2nd", "7c", "Kc",
                                                                           ("7c", "Kc"))
    # the K takes the 8c for sure, the 7 cannot (0.30 points a deal in the advisor's docs): a loss
    # beyond the advice's margin, under the mistake threshold
    assert 0.25 < last.cost.value < 0.35 and last.cost.lo > 0 and last.label == "inaccuracy"
    # the figures are the advisor's on the position as seat 1 knew it (its hand now, the turned card,
    # the tricks), ranked on the worlds of child(seed, 43, 0) (the 44th card of the deal); the card
    # played priced against the best on those of round 0 of child(seed, 43, 1)
    pos = Position(seat=1, hand="Kc 7c 4s", turned="Qc", played=LATE)
    key = child(np.random.SeedSequence(11), 43)
    direct = advise(pos, policies="random", samples=size, rng=child(key, 0))  # the review's worlds
    assert last.values == direct.value
    (priced,), _ = _versus(pos, "random", (1, 0), size, child(child(key, 1), 0), None)
    assert last.cost.value == priced.value and last.cost.n == size
    assert last.known == f"hand 4s 7c Kc; turned Qc; played {LATE}"
    # the best card played costs nothing
    best = review(_late_record("Kc"), seat=1, policies="random", samples=size, rng=11).decisions[-1]
    assert (best.taken, best.label, best.cost.value, best.cost.se) == ("Kc", "good", 0.0, 0.0)


def test_at_its_defaults_the_card_played_is_priced_until_its_rating_is_clear():
    # 7c against Kc loses 0.30 points a deal: beyond the margin (0.25), so an inaccuracy once the
    # interval clears 0.25; the rounds double from 16 worlds until it does
    r = review(_late_record("7c"), seat=1, policies="random", rng=11, budget_rounds=10)
    last = r.decisions[-1]
    assert (last.label, last.about) == ("inaccuracy", False) and 0.25 < last.cost.lo < last.cost.hi < 1.0
    assert last.cost.n in {16 * (2 ** k - 1) for k in range(2, 11)} and "priced against Kc" in last.note
    assert r.budget.budget_rounds == 10 and "until its rating is clear (at most 10 rounds each)" in repr(r)
    cut = review(_late_record("7c"), seat=1, policies="random", rng=11, budget_rounds=1).decisions[-1]
    assert cut.cost.n == 16 and cut.about and cut.rating == f"about {cut.label}"  # 16 worlds decide nothing


def test_a_single_legal_card_is_forced_and_runs_nothing():
    # seat 0 holds one heart, the Jh, when seat 1 leads hearts
    r = review(_record("0: deal Ac Kc Qc Jh 3d 4d 5d 6d 7d 8d 9d 3s 4s 5s 6s 7s 8s",
                       "0: play Ac", "1: play 2c", "2: play 3c", "0: win Ac 2c 3c",
                       "0: play 3d", "1: play Td", "2: play 2d", "1: win 3d Td 2d",
                       "1: play 2h", "2: play 3h", "0: play Jh", "0: win 2h 3h Jh",
                       "0: play 4s", "1: play 2s", "2: play Ks", turned="9c"), seat=0, **FAST, rng=1)
    assert [d.what for d in r.decisions] == ["trick 1, lead", "trick 2, lead", "trick 3, 3rd", "trick 4, lead"]
    assert [d.label == "forced" for d in r.decisions] == [False, False, True, False]
    forced = r.decisions[2]
    assert forced.options == ("Jh",) and forced.values == () and forced.samples == 0 and forced.cost.value == 0
    assert all(d.samples == 300 and len(d.values) == len(d.options) > 1 for d in r.decisions if d is not forced)
    assert r.ratings(0)["forced"] == 1 and r.violation is None


def test_its_own_jack_led_into_a_trick_the_others_duck_is_a_blunder():
    text = _record("0: deal Ac Kc Qc Jh Kh 9h 3d 4d 5d 6d 7d 8d 3s 4s 5s 6s 7s",
                   "0: play Ac", "1: play 2c", "2: play 3c", "0: play Jh", "1: play 2h", "2: play 3h")
    r = review(text, seat=0, **FAST, rng=1)
    worst = r.costliest(0)[0]
    assert (worst.taken, worst.label) == ("Jh", "blunder") and worst.cost.lo >= THRESHOLDS.blunder
    # heuristic followers duck a led jack: it costs its 4 points less the trick, and more
    assert 3 < worst.cost.value < 5


def test_the_thresholds():
    assert (THRESHOLDS.mistake, THRESHOLDS.blunder, THRESHOLDS.unit) == (1.0, 2.5, "points a deal")


# ---- only what the seat saw ---------------------------------------------------------------------
def _win(cards, trump):
    best = 0
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if c & 3 == b & 3 and c > b or c & 3 == trump and b & 3 != trump:
            best = i
    return best


def _legal(hand, trick):
    return sorted(c for c in hand if trick and c & 3 == trick[0] & 3) or sorted(hand)


def _max_n(hands, trick, leader, trump):
    """Each seat's points from here when every hand is seen and each seat plays the card best for
    itself (max-n, ties to the lowest card): what a reviewer who peeked would compute."""
    if not trick and not any(hands):
        return (0, 0, 0)
    seat = (leader + len(trick)) % 3
    best = None
    for c in _legal(hands[seat], trick):
        v = _after(hands, trick, leader, trump, seat, c)
        if best is None or v[seat] > best[seat]:
            best = v
    return best


def _after(hands, trick, leader, trump, seat, c):
    hs = [set(h) for h in hands]
    hs[seat].discard(c)
    t = trick + [c]
    if len(t) < 3:
        return _max_n(hs, t, leader, trump)
    w = (leader + _win(t, trump)) % 3
    v = list(_max_n(hs, [], w, trump))
    v[w] += 1 - sum((2, 3, 4, 1)[x & 3] for x in t if x >> 2 == 9)
    return tuple(v)


def _peek(text: str, seat: int) -> dict[str, int]:
    """Each legal card of ``seat``'s last decision in ``text``, valued with every hand seen."""
    t = Trace.parse(text)
    trump = parse_card(t.info["turned"]) & 3
    hands = {m.seat: {parse_card(c) for c in m.cards} for m in t.moves if m.action == "deal"}
    plays = [(m.seat, parse_card(m.cards[0])) for m in t.moves if m.action == "play"][:-1]
    for s, c in plays:
        hands[s].discard(c)
    k = len(plays) - len(plays) % 3
    trick = [c for _, c in plays[k:]]
    leader = plays[k][0] if trick else None
    return {card_str(c): _after([hands[0], hands[1], hands[2]], trick, leader, trump, seat, c)[seat]
            for c in _legal(hands[seat], trick)}


def test_the_review_uses_only_what_the_seat_saw_though_the_hidden_cards_decide_the_best_card():
    # A heuristic deal cut after seat 0's card in trick 14, and the same with the Ah of seat 1 and the
    # 8h of seat 2 changing hands (every card played the same; seat 0 cannot tell the two apart).
    t = trace("heuristic", rng=9)
    moves = list(t.moves)
    cut = moves[:_plays(moves)[40] + 1]
    a = _text(t, cut)
    b = _text(t, [Move(m.seat, "deal", tuple({"Ah": "8h", "8h": "Ah"}.get(c, c) for c in m.cards))
                  if m.action == "deal" else m for m in cut])
    assert a != b and cut[-1] == Move(0, "play", ("7h",))
    # seen whole, the deals call for different cards: the Jh in the first, the 7h in the second
    assert _peek(a, 0) == {"7h": -3, "Jh": 0} and _peek(b, 0) == {"7h": 0, "Jh": -3}
    only_mine = _text(t, [m for m in cut if m.action != "deal" or m.seat == 0])
    ra, rb, rm = (review(x, seat=0, **FAST, rng=4) for x in (a, b, only_mine))
    assert ra.violation is rb.violation is None
    assert ra.to_dict() == rb.to_dict()
    assert _figures(ra) == _figures(rm)  # a record of seat 0's deal alone: its lines numbered otherwise
    assert ra.decisions[-1].taken == "7h" and ra.decisions[-1].options == ("7h", "Jh")


# ---- the strongest player's deal, and a jack thrown into one's own trick --------------------------
#: A deal played by ``pimc`` at every seat (the top of the ladder, docs/kanalje.md), reviewed for seat
#: 0 at the advisor's defaults. In trick 12 seat 0 wins with the 8d while holding the Jd, which it
#: throws to seat 1's trick 17; the copy plays the Jd in trick 12 (seat 0 takes its own jack) and
#: the 8d in trick 17 (every trick won by the same seat as before).
PIMC_SEED, SWAP = 32, ("8d", "Jd")
#: The review's rounds (16 + 32 worlds), not its time: the same on any machine.
BUDGET_ROUNDS = 2


@pytest.fixture(scope="module")
def pimc_deal():
    return trace("pimc", rng=PIMC_SEED)


@pytest.fixture(scope="module")
def pimc_review(pimc_deal):
    return review(pimc_deal, seat=0, rng=1, threads=2, budget_rounds=BUDGET_ROUNDS)


def _swapped(t: Trace) -> str:
    moves = [m for m in t.moves if m.action != "win"]
    x, j = (next(k for k, m in enumerate(moves) if m == Move(0, "play", (c,))) for c in SWAP)
    moves[x], moves[j] = moves[j], moves[x]
    return _text(t, moves)


def test_a_deal_the_strongest_player_played_shows_no_blunder(pimc_review):
    r = pimc_review
    assert r.policies == "lookahead at every seat, 16 worlds a decision" and r.budget.budget_rounds == 2
    assert len(r.decisions) == 17 and r.violation is None and not r.partial
    assert r.ratings(0)["blunder"] == 0, r
    assert all(d.cost.value < THRESHOLDS.blunder for d in r.decisions)


def test_the_same_deal_with_its_own_jack_thrown_into_its_trick_names_that_card_the_costliest(pimc_deal,
                                                                                           pimc_review):
    r = review(_swapped(pimc_deal), seat=0, rng=1, threads=2, budget_rounds=BUDGET_ROUNDS)
    assert r.violation is None
    worst = r.costliest(0)[0]
    assert (worst.what, worst.taken, worst.label) == ("trick 12, 3rd", "Jd", "blunder")
    assert worst.cost.lo > THRESHOLDS.blunder  # the J♦'s 3 points: a blunder beyond doubt
    # the cards before it were played alike and are seeded by their place in the deal: the same figures
    before = [d for d in r.decisions if d.move < worst.move]
    assert len(before) == 11 and [d.to_dict() | {"line": 0, "move": 0} for d in before] == [
        d.to_dict() | {"line": 0, "move": 0} for d in pimc_review.decisions[:11]]  # no win lines in the copy


def test_the_same_seed_gives_the_same_review_on_one_and_two_threads(pimc_deal, pimc_review):
    assert review(pimc_deal, seat=0, rng=1, threads=1, budget_rounds=BUDGET_ROUNDS).to_dict() == pimc_review.to_dict()


# ---- the result ---------------------------------------------------------------------------------
def test_every_seat_a_frame_json_and_a_titled_table():
    r = review(DATA, seat="all", **FAST, rng=2)
    assert r.seats == (0, 1, 2) and len(r.decisions) == 12
    assert [d.seat for d in r.decisions[:4]] == [0, 1, 2, 0]  # in the order they were played
    frame = r.to_frame()
    assert len(frame) == 12 and list(frame["line"])[:3] == [10, 11, 12]
    d = json.loads(json.dumps(r.to_dict()))
    assert d["game"] == "kanalje" and d["unit"] == "points a deal" and set(d["summary"]) == {"0", "1", "2"}
    assert d["thresholds"]["blunder"] == 2.5 and len(d["decisions"]) == 12
    text = repr(r)
    assert text.startswith("Kanalje review, seats 0, 1, 2: 12 decisions") and "played out by heuristic" in text
    assert all(len(line) <= 100 for line in text.splitlines())


def test_a_record_read_back_from_json_and_a_trace_object_give_the_same_review(tmp_path):
    t = trace("heuristic", rng=3)
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(t.to_dict()))
    by_object = review(t, seat=2, **FAST, rng=5)
    assert review(path, seat=2, **FAST, rng=5).to_dict() == by_object.to_dict()
    assert _figures(review(str(t), seat=2, **FAST, rng=5)) == _figures(by_object)  # its text: lines numbered


def test_a_deal_led_by_another_seat_asks_the_advisor_with_the_seats_turned():
    # the advisor's seat 0 leads the first trick: seat s of a deal led by seat 2 is its seat s + 1
    t = trace("heuristic", rng=6, leader=2)
    r = review(t, seat=1, **FAST, rng=8)
    assert r.violation is None and len(r.decisions) == 17
    d = next(x for x in r.decisions[3:] if x.label != "forced")
    moves = list(t.moves)
    done = [m for m in moves[:d.move] if m.action == "play"]
    hand = [c for c in moves[1].cards if Move(1, "play", (c,)) not in done]
    groups = [done[k:k + 3] for k in range(0, len(done), 3)]
    played = "; ".join(f"{(g[0].seat + 1) % 3}: {' '.join(m.cards[0] for m in g)}" for g in groups)
    direct = advise(Position(seat=2, hand=" ".join(hand), turned=t.info["turned"], played=played), rng=child(
        np.random.SeedSequence(8), len(done), 0), **FAST)  # the worlds that rank the cards
    assert d.values == direct.value


def test_positions_are_what_the_review_rates():
    # each card the seat played: where it is in the record and the position as it knew it, in the
    # advisor's seats (the record's first leader is seat 0), which advise takes
    t = trace("heuristic", rng=6, leader=2)
    found = positions(t, seat=1)
    assert found == t.positions(1) and len(found) == 17
    turn, pos = found[3]
    assert (turn.seat, pos.seat) == (1, 2) and turn.what.startswith("trick 4, ")
    assert turn.taken in pos.options and len(pos.hand) == 14 and pos.card_text == t.info["turned"]
    assert Position(**{k: getattr(pos, k) for k in ("seat", "hand", "turned", "played")}) == pos
    r = review(t, seat=1, **FAST, rng=8)
    assert [(d.line, d.move, d.what, d.taken) for d in r.decisions] == [(w.line, w.move, w.what, w.taken)
                                                                         for w, _ in found]
    record = "\n".join(["# cardodds trace: kanalje", "players: 3", "turned: 2s",
                        "0: deal Ac Kc Qc Jh Kh 9h 3d 4d 5d 6d 7d 8d 3s 4s 5s 6s 7s", "0: play Ac", "2: play 3c"])
    with pytest.raises(ValueError, match="^line 6: seat 2 plays 3c out of turn"):
        positions(record, seat=0)


# ---- two players -------------------------------------------------------------------------------
TWO = KanaljeRules(players=2)


def test_two_players_are_reviewed_through_both_phases():
    t = trace("heuristic", rules=TWO, rng=3)
    r = review(t, seat="all", **FAST, rng=2)
    assert r.violation is None and r.seats == (0, 1) and len(r.decisions) == 52
    first, late = r.decisions[2], r.decisions[-4]
    assert first.what == "phase 1, trick 2, lead" and late.what.startswith("phase 2, trick 12")
    # phase 1: the face-up cards so far go to the advisor, the opponent's draws never
    faceups = [m.cards[0] for m in t.moves if m.action == "take"]
    assert first.known.endswith("; face up " + " ".join(faceups[:2]) + "; played 0: 4d 2c")
    direct = advise(Position(seat=0, hand=first.known.split(";")[0][5:], faceup=" ".join(faceups[:2]),
                             played="0: 4d 2c", rules=TWO), rng=child(np.random.SeedSequence(2), 2, 0), **FAST)
    assert first.values == direct.value
    # phase 2: the trump card and the 25 other phase-1 cards seen
    assert f"trump {t.info['trump']}, the 25 other phase-1 cards seen" in late.known


def test_two_players_phase_one_violations():
    lines = str(trace("heuristic", rules=TWO, rng=3)).splitlines()
    assert lines[8:12] == ["0: play 4d", "1: play 2c", "0: win 4d 2c", "0: take 3d"]
    jack = review("\n".join(lines[:9] + ["1: play Jh"] + lines[10:]), seat=0, **FAST, rng=1)
    assert jack.violation.line == 10 and "a jack of another suit than the led diamonds" in jack.violation.message
    assert len(jack.decisions) == 1
    taker = review("\n".join(lines[:11] + ["1: take 3d"] + lines[12:]), seat=0, **FAST, rng=1)
    assert taker.violation.line == 12 and "seat 1 takes the face-up 3d, but seat 0 won the trick" == \
        taker.violation.message


def test_two_players_without_a_trump_card_are_reviewed_through_phase_one_only():
    t = trace("heuristic", rules=TWO, rng=3)
    text = str(t).replace(f"trump: {t.info['trump']}", "trump: none")
    lines = text.splitlines()
    last = [i for i, x in enumerate(lines) if ": win " in x][12] + 2  # the 13th trick's draw line (0-based)
    assert len(review("\n".join(lines[:last + 1]), seat=0, **FAST, rng=1).decisions) == 13
    with pytest.raises(ValueError, match=f"line {last + 2}: a phase-2 card, but the record names no trump"):
        review(text, seat=0, **FAST, rng=1)


# ---- a record with mistakes of its own ----------------------------------------------------------
LINES = DATA.read_text().splitlines()


def _with(changes: dict[int, str], drop_deal: int | None = None) -> str:
    """DATA with its lines (1-based) replaced as ``changes`` says, and a seat's deal line dropped."""
    out = [changes.get(n, x) for n, x in enumerate(LINES, 1)]
    return "\n".join(x for x in out if drop_deal is None or not x.startswith(f"{drop_deal}: deal"))


@pytest.mark.parametrize("line, text, words", [
    (19, "1: play Qs", "seat 1 plays Qs out of turn: seat 0 plays next to trick 3"),
    (19, "0: play 9c", "seat 0 plays 9c without following spades, yet it holds 3s: a revoke"),
    (19, "0: play As", "seat 0 plays As, which was played at line 10"),
    (19, "0: play Qs", "seat 0 plays Qs, which seat 1 holds"),
    (19, "0: play 8c", "seat 0 plays 8c, which was the turned card, out of play"),
    (21, "0: win 2s 9s Qs", "seat 0 is named the winner of 2s 9s Qs, but seat 1 won it with Qs"),
    (21, "1: win 2s Qs 9s", "the win line names 2s Qs 9s, but the trick was 2s 9s Qs"),
    (16, "2: win 2h Kh", "a win line before the trick's 3 cards are played"),
])
def test_a_move_the_rules_forbid_is_reported_at_its_line_and_the_cards_before_it_are_rated(line, text, words):
    r = review(_with({line: text}), seat="all", **FAST, rng=3)
    assert r.violation is not None and (r.violation.line, r.violation.message) == (line, words)
    assert r.decisions and all(d.line < line for d in r.decisions)
    assert len(r.decisions) == sum(1 for x in LINES[9:line - 1] if ": play " in x)
    assert f"rules violation at line {line}" in repr(r)


def test_a_revoke_by_an_unseen_hand_shows_later_and_is_placed_where_it_happened():
    # seat 1's deal is not in the record: it plays Kd to a heart lead (void in hearts, as far as
    # anybody knows), then leads the Qh: it held a heart when it did not follow
    text = _with({15: "1: play Kd", 17: "2: win 2h Kd Ah"}, drop_deal=1) + "\n1: play Qh"
    r = review(text, seat=0, **FAST, rng=3)
    assert r.violation.line == 14 and r.violation.seat == 1  # line 15 of DATA, one deal line fewer
    assert r.violation.message == ("seat 1 played Kd without following hearts, yet held Qh (played at line 25): "
                                   "a revoke")
    assert [d.line for d in r.decisions] == [9, 13]


@pytest.mark.parametrize("text, words", [
    ("hello\nworld", "line 1: expected '# cardodds trace: GAME'"),
    (_record("0: deal Ac Kc", "0: play Ac"), "line 4: seat 0's deal names 2 cards; expected 17"),
    (_record("0: deal " + " ".join(LINES[6].split()[2:]), "0: take Ac"),
     "line 5: expected 'seat: action cards' with an action of deal, play, win; got 'take'"),
    (_record("0: deal " + " ".join(LINES[6].split()[2:]), "0: play Zz"), "line 5: cannot read card 'Zz'"),
    (_record("0: deal " + " ".join(LINES[6].split()[2:]), "0: play 2h 3d"), "line 5: a play names 2 cards"),
    (_record("0: deal " + " ".join(LINES[6].split()[2:]), "0: play 2h", "1: deal Ac"),
     "line 6: a deal line after the first card played"),
    (_record("0: deal " + " ".join(LINES[6].split()[2:]), turned="2h"), "line 4: 2h in seat 0's deal is the turned"),
    ("\n".join(x for x in LINES if not x.startswith("turned")), "the record has no 'turned: CARD' line"),
])
def test_a_file_that_is_not_a_record_is_one_line_naming_the_line(text, words):
    with pytest.raises(ValueError) as e:
        review(text, seat=0, **FAST, rng=1)
    assert str(e.value).startswith(words) and "\n" not in str(e.value)


def test_bad_seats_games_files_and_rules_are_refused(tmp_path):
    from cardodds.kana import trace as kana_trace

    for seat, words in ((3, "seat=3: give a seat 0 to 2 or 'all'"), ("x", "seat='x'"),
                        (-1, "seat=-1"), (True, "seat=True")):
        with pytest.raises(ValueError, match=re.escape(words)):
            review(DATA, seat=seat, **FAST, rng=1)
    with pytest.raises(ValueError, match="seat 0: the record does not hold its cards"):
        review(_late_record("7c"), seat=0, **FAST, rng=1)
    with pytest.raises(ValueError, match="the record is of kana, not kanalje"):
        review(kana_trace("blind", rng=1), seat=0, **FAST)
    with pytest.raises(ValueError, match="no such file"):
        review(str(tmp_path / "nope.txt"), seat=0, **FAST)
    with pytest.raises(ValueError, match=r"rules: KanaljeRules\(players=2\), but the record is of 3 players"):
        review(DATA, seat=0, rules=TWO, **FAST)
    for bad in (dict(samples=0), dict(threads=0), dict(rng=-1), dict(lookahead_samples=0), dict(policies="x")):
        with pytest.raises(ValueError):
            review(DATA, seat=0, **{**FAST, **bad})


# ---- the command -------------------------------------------------------------------------------
def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=timeout)


def test_cli_text_html_and_json(tmp_path):
    page = tmp_path / "review.html"
    run = _cli("kanalje", "review", str(DATA), "--seat", "all", "--policies", "heuristic", "--samples", "300",
               "--seed", "3", "--html", str(page))
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Kanalje review, seats 0, 1, 2: 12 decisions (12 rated), seed")
    assert "ratings: good <= 0.25 < inaccuracy < 1 <= mistake < 2.5 <= blunder" in run.stdout
    html = page.read_text()
    assert html.startswith("<!doctype html>") and html.count('class="bar"') == 12
    assert not re.search(r"<script|<link|src=|https?://", html)  # one self-contained page
    js = _cli("kanalje", "review", str(DATA), "--seat", "all", "--policies", "heuristic", "--samples", "300",
              "--seed", "3", "--json")
    assert js.returncode == 0, js.stderr
    assert json.loads(js.stdout) == json.loads(json.dumps(
        review(DATA, seat="all", **FAST, rng=3).to_dict()))


def test_the_page_in_a_browser_loads_nothing_else_and_draws_a_bar_a_card(tmp_path, chromium):
    from cardodds.report.browser import open_browser, set_viewport

    page = review(DATA, seat="all", **FAST, rng=3).write_html(tmp_path / "review.html").resolve()
    driver = open_browser()
    try:
        driver.get(page.as_uri())
        errors = [m for m in driver.get_log("browser") if m["level"] == "SEVERE"]
        events = [json.loads(e["message"])["message"] for e in driver.get_log("performance")]
        requests = [m["params"]["request"]["url"] for m in events if m["method"] == "Network.requestWillBeSent"]
        assert errors == [] and requests == [page.as_uri()]
        count = "return document.querySelectorAll(arguments[0]).length"
        assert driver.execute_script(count, "rect.bar") == driver.execute_script(count, "table.review tbody tr") == 12
        assert driver.execute_script(count, "details.decision") == 12
        set_viewport(driver, 390, 800)  # a phone: the page itself never scrolls sideways
        assert driver.execute_script("return document.documentElement.scrollWidth <= window.innerWidth")
    finally:
        driver.quit()


@pytest.mark.parametrize("args, words", [
    (["--html", "/proc/nope/review.html"], "cardodds: error: argument --html: /proc/nope/review.html: its folder "
                                           "does not exist; give a file in a folder you can write"),
    (["--seat", "5"], "cardodds: error: --seat 5: give a seat 0 to 2 or 'all'"),
    (["--players", "2"], "cardodds: error: --players 2: the record is of 3 players; drop --players"),
])
def test_cli_refusals_are_one_line(args, words):
    run = _cli("kanalje", "review", str(DATA), "--policies", "heuristic", "--samples", "30", *args)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(words) and len(run.stderr.strip().splitlines()) == 1, run.stderr


def test_ctrl_c_prints_the_cards_rated_so_far_marked_partial(tmp_path):
    from .test_interrupt import _sigint_when

    deal = tmp_path / "deal.txt"
    trace("heuristic", rng=1).save(deal)
    counted = re.compile(rb"\| *([1-9]\d*)/17 ")  # the progress bar has rated a card or more
    status, out, term, _ = _sigint_when(["kanalje", "review", str(deal), "--policies", "heuristic",
                                         "--samples", "400000", "--threads", "2", "--seed", "1"],
                                        lambda seen: bool(counted.search(seen)), 0.2)
    assert status == 130, out
    assert "PARTIAL" in out.splitlines()[0] and "Traceback" not in term
    rows = [x for x in out.splitlines() if re.match(r"\s+\d+\s+\d+\s+0\s+trick", x)]
    assert 1 <= len(rows) < 17


def test_ctrl_c_in_rounds_until_a_verdict_keeps_the_cards_rated_and_drops_the_one_under_way(tmp_path):
    # at its defaults (rounds of the advice, then of the pricing) with a long budget: a card takes
    # seconds; SIGINT once one is rated
    from .test_interrupt import _sigint_when

    deal = tmp_path / "deal.txt"
    trace("heuristic", rng=1).save(deal)
    counted = re.compile(rb"\| *([1-9]\d*)/17 ")
    status, out, term, _ = _sigint_when(["kanalje", "review", str(deal), "--budget-seconds", "5", "--threads", "2",
                                         "--seed", "1"], lambda seen: bool(counted.search(seen)), 0.2)
    assert status == 130, out
    assert "PARTIAL" in out.splitlines()[0] and "Traceback" not in term
    rows = [x for x in out.splitlines() if re.match(r"\s+\d+\s+\d+\s+0\s+trick", x)]
    assert 1 <= len(rows) < 17 and "until its rating is clear (about 5 s each)" in out
