"""Polish Canasta's review (``canasta.review``, ``cardodds canasta review``): each decision of a
seat in a played hand rated on the position as that seat knew it.

Records typed by hand have a known answer per decision kind; two records the seat cannot tell
apart give the same review; a hand of the strongest player shows no blunder, and the same hand
with one move swapped for a bad one names it the costliest; the moves the rules forbid are
reported at their line. Sample counts are small: the verdicts tested are wide apart.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
import subprocess
import sys

import pytest

from cardodds.canasta import CanastaRules, Position, advise, positions, review, trace
from cardodds.canasta.review import THRESHOLDS
from cardodds.review import rate
from cardodds.trace import Move, Trace

HEAD = "# cardodds trace: canasta\nplayers: 4\ndealer: 3\nupcard: 5\n"
#: Seat 0 leaves a pile it could take with K K K (two Aces in it, and it opens).
LEAVE = HEAD + """0: deal K K Q Q 9 8 7 6 4 4 3b A
0: draw J
0: discard J
1: draw
1: discard A
2: draw
2: discard A
3: draw
3: discard K
0: draw 7
0: discard 3b
"""
#: Seat 0 throws a Joker away in its first turn.
JOKER = HEAD + "0: deal Jk K Q Q 9 8 7 6 4 4 3b A\n0: draw J\n0: discard Jk\n"
#: Seat 0 opens with a canasta; in its second turn it holds 9 9 9, which would go out: it throws a 9.
STAY = HEAD + """0: deal K K K K K K K Q Q Q 9 9
0: draw J
0: meld K K K K K K K
0: meld Q Q Q
0: discard J
1: draw
1: discard 6
2: draw
2: discard 6
3: draw
3: discard 7
0: draw 9
0: discard 9
"""
OUT = STAY.replace("0: discard 9\n", "0: meld 9 9 9\n")
SAMPLES = 300


def _by_what(r, what):
    return [d for d in r.decisions if d.what == what]


def test_leaving_a_rich_pile_that_opens_is_rated_a_loss_at_its_line():
    r = review(LEAVE, samples=SAMPLES, rng=1)
    (take,) = _by_what(r, "take")
    assert (take.line, take.taken, take.options) == (15, "leave the pile", ("leave the pile", "K K K"))
    assert take.best == "K K K" and take.label in ("mistake", "blunder") and take.cost.lo > 0
    assert [(d.line, d.what) for d in r.decisions] == [(7, "discard"), (15, "take"), (15, "discard")]
    assert r.costliest(0)[0] is take and r.violation is None


def test_a_joker_thrown_away_is_a_blunder_or_a_mistake():
    r = review(JOKER, rng=2, budget_rounds=5)  # priced until clear, five rounds at most: 1,984 deals
    assert [(d.what, d.taken) for d in r.decisions] == [("meld", "hold"), ("discard", "Jk")]  # Q Q Jk could open
    d = r.decisions[1]
    assert d.line == 7
    assert d.label in ("mistake", "blunder") and d.best != "Jk" and "Jk" in d.options
    assert d.cost.lo >= THRESHOLDS.mistake and d.cost.n == 1_984


def test_staying_in_when_a_meld_goes_out_with_a_canasta_is_rated_at_that_chance():
    r = review(STAY, samples=SAMPLES, rng=3)
    assert [(d.what, d.line) for d in r.decisions] == [("meld", 7), ("meld", 8), ("discard", 9), ("out", 17),
                                                       ("discard", 17)]
    assert r.decisions[0].options[0] == "hold" and "K K K K K K K" in r.decisions[0].options
    out = r.decisions[3]
    assert (out.taken, out.best, out.options) == ("stay in", "meld 9 9 9", ("stay in", "meld 9 9 9"))
    assert out.label == "blunder" and r.costliest(0)[0] is out
    assert (r.decisions[4].taken, r.decisions[4].label) == ("9", "forced")  # nothing but 9s to throw
    gone = review(OUT, samples=SAMPLES, rng=3)
    assert [(d.what, d.taken, d.label) for d in gone.decisions[3:]] == [("out", "meld 9 9 9", "good")]


def test_each_decision_holds_the_position_the_seat_knew():
    r = review(LEAVE, samples=SAMPLES, rng=1)
    take = _by_what(r, "take")[0]
    assert take.known.startswith("hand 3b 4 4 6 7 7 8 9 Q Q K K A; melds none; pile 5 J A A K (5 cards)")
    assert "left 12, partner 12, right 12" in take.known and "table turn 5" in take.known


def test_positions_are_the_reviews_and_read_back():
    turns = positions(LEAVE)
    assert turns[0][0].what == "discard" and turns[0][1].turn == 0  # seat 0's first turn: it may not take
    turn, first = turns[1]
    assert (turn.what, turn.taken, turn.key) == ("take", "leave the pile", 4) and first.decision == "take"
    assert first == Position("3b 4 4 6 7 7 8 9 Q Q K K A", pile="5 J A A K", thrown="0: J; 1: A; 2: A; 3: K", turn=4,
                             decision="take")
    assert Position(**first.to_dict()) == first and eval(repr(first)) == first
    assert str(first) == ('--hand "3b 4 4 6 7 7 8 9 Q Q K K A" --pile "5 J A A K" --thrown "0: J; 1: A; 2: A; 3: K" '
                          '--turn 4 --decision take')
    assert [t.what for t, _ in turns] == [d.what for d in review(LEAVE, samples=SAMPLES, rng=1).decisions]
    with pytest.raises(ValueError, match="seat 1: the record does not hold its cards"):
        positions(LEAVE, seat=1)


# ---- only what the seat knew ------------------------------------------------------------------------
def _deals(one: str, three: str) -> str:
    """A full deal: seat 1 and seat 3 hold ``one`` and ``three`` among cards they never play; in
    its second turn seat 0 throws a K on a pile of five with a 2 in it."""
    return HEAD + f"""0: deal K Q Q 9 8 7 6 4 4 3b A J
1: deal {one} 8 8 9 9 T T J J 6 2
2: deal 4 5 6 7 8 9 T J Q A 3b 3b
3: deal {three} 2 T T Q Q A A 7 7 6
0: draw 9
0: discard J
1: draw 4
1: discard 2
2: draw 5
2: discard A
3: draw 9
3: discard 6
0: draw T
0: discard K
"""


def test_the_review_uses_only_what_the_seat_could_see():
    # the next player (seat 1) holds K K in one record, the player before seat 0 (3) in the other
    a, b = _deals("K K", "5 5"), _deals("5 5", "K K")
    ra, rb = review(a, samples=SAMPLES, rng=4), review(b, samples=SAMPLES, rng=4)
    assert [d.to_dict() for d in ra.decisions] == [d.to_dict() for d in rb.decisions]
    assert ra.decisions[-1].known == ("hand 3b 4 4 6 7 8 9 9 T Q Q K A; melds none; pile 5 J 2 A 6 (5 cards); "
                                      "cards: left 12, partner 12, right 12; table turn 5")
    # ... though the K K would change the verdict on throwing the K, had the review used them
    where = dict(pile="5 J 2 A 6", counts=(12, 12, 12), thrown="0: J; 1: 2; 2: A; 3: 6", turn=4)
    left = advise(Position("K Q Q 9 9 8 7 6 4 4 3b A T", known={1: "K K"}, **where), samples=8000, rng=5)
    right = advise(Position("K Q Q 9 9 8 7 6 4 4 3b A T", known={3: "K K"}, **where), samples=8000, rng=5)
    i = left.options.index("discard K")
    assert rate(left.versus_best[i], 13, THRESHOLDS)[0] == "blunder" != rate(right.versus_best[i], 13, THRESHOLDS)[0]


def _seat0_only(text: str) -> str:
    """The record as seat 0 saw it: no other seat's deal, the others' draws and red 3
    replacements not known (a red 3 drawn again is seen: it is laid)."""
    out = []
    for line in text.splitlines():
        body = line.split("  #")[0]
        head, _, rest = body.partition(": ")
        words = rest.split()
        if not head.isdigit() or head == "0" or not words:
            out.append(body)
        elif words[0] == "draw":
            out.append(f"{head}: draw")
        elif words[0] == "red3":
            again = [c for c in words[2:] if c == "3r"]
            out.append(" ".join([f"{head}: red3 3r", *again] + ["?"] * (len(words) > 2 and words[-1] != "3r")))
        elif words[0] != "deal":
            out.append(body)
    return "\n".join(out)


@pytest.mark.parametrize("policies, seed, rules", [("heuristic2", 5, None), ("random", 3, None),
                                                   ("heuristic", 7, CanastaRules(swap_twos=True)),
                                                   ("random", 11, CanastaRules(direction="counterclockwise"))])
def test_a_record_of_only_what_the_seat_saw_gets_the_same_review(policies, seed, rules):
    full = str(trace(policies, rng=seed, rules=rules))
    seen = _seat0_only(full)
    assert "1: deal" not in seen and "1: deal" in full

    def figures(text):
        r = review(text, samples=20, rng=seed, rules=rules)
        assert r.violation is None
        return [{k: v for k, v in d.to_dict().items() if k not in ("line", "move")} for d in r.decisions]

    assert figures(seen) == figures(full)


# ---- the strongest player, and one move swapped ---------------------------------------------------------
#: A lookahead hand (the ladder's strongest player) where seat 0 takes a pile as it starts a turn.
STRONG_SEED = 26


def _biggest_take(t: Trace) -> int:
    """The move where seat 0 took its biggest pile as its turn's first move after the draw."""
    takes = [(len(m.note.split("; the pile held ")[1].split()), i) for i, m in enumerate(t.moves)
             if m.seat == 0 and m.action == "take" and t.moves[i - 1].action == "draw"]
    return max(takes)[1]


def test_a_hand_of_the_strongest_player_shows_no_blunder_and_a_pile_left_is_the_costliest():
    t = trace("lookahead", rng=STRONG_SEED)
    r = review(t, samples=600, rng=6)
    assert r.decisions and all(d.label != "blunder" for d in r.decisions), repr(r)
    i = _biggest_take(t)
    hand = t.moves[i - 1].note.split("hand ")[1].split()  # the draw before the take: its note holds the hand
    throw = next(k for k in hand if k not in ("Jk", "2", "3r"))
    worse = review(replace(t, moves=t.moves[:i] + (Move(0, "discard", (throw,)),)), samples=600, rng=6)
    top = worse.costliest(0)[0]
    assert (top.move, top.what, top.taken) == (i, "take", "leave the pile") and top.label in ("mistake", "blunder")


def test_same_seed_same_review_on_one_and_two_threads():
    t = trace("heuristic2", rng=5)
    one, two = review(t, samples=64, rng=9, threads=1), review(t, samples=64, rng=9, threads=2)
    assert [d.to_dict() for d in one.decisions] == [d.to_dict() for d in two.decisions]


# ---- the game score ------------------------------------------------------------------------------------
def test_with_the_game_score_the_options_are_rated_by_p_win():
    t = trace("heuristic2", rng=7, score=(9700, 9600))
    assert t.info["score"] == "9700 9600" and Trace.parse(str(t)).info == t.info
    r = review(t, samples=200, rng=7)
    assert any(d.win_cost is not None for d in r.decisions)
    unscored = replace(t, info={k: v for k, v in t.info.items() if k != "score"})
    same = review(unscored, score=(9700, 9600), samples=200, rng=7)
    assert [d.to_dict() for d in same.decisions] == [d.to_dict() for d in r.decisions]
    assert all(d.win_cost is None for d in review(unscored, samples=200, rng=7).decisions)
    with pytest.raises(ValueError, match="the game is over"):
        review(t, score=(10000, 0), samples=10)


# ---- rules violations, and what is not a record ------------------------------------------------------------
@pytest.mark.parametrize("line, bad, message", [
    (15, "0: discard 5", "seat 0 plays 5 from its hand but holds no 5"),
    (15, "0: take K K K K", "seat 0 plays K K K from its hand but holds K K"),
    (15, "0: meld Q Q", "a meld has at least three cards"),
    (15, "0: take Q Q K", "mixes ranks"),
    (15, "2: discard 4", "out of turn: it is seat 0's turn"),
    (14, "0: discard 3b", "seat 0's turn begins with a draw from the stock"),
])
def test_a_move_the_rules_forbid_is_reported_at_its_line_after_the_decisions_before(line, bad, message):
    text = LEAVE.replace("0: draw 7\n0: discard 3b\n", "0: draw 7\n" * (line == 15) + bad + "\n")
    r = review(text, samples=60, rng=1)
    assert r.violation is not None and r.violation.line == line and message in r.violation.message
    assert [d.line for d in r.decisions] == [7]  # the first turn's discard, rated
    assert f"rules violation at line {line}" in repr(r)


def test_a_first_meld_below_the_minimum_and_too_many_wilds_are_violations():
    low = HEAD + "0: deal 4 4 4 2 2 Jk K K Q 9 8 7\n0: draw 6\n0: meld 4 4 4\n"
    r = review(low, samples=60, rng=1)
    assert r.violation.line == 7 and "first meld must be worth at least 30 points; 4 4 4 is worth 15" in \
        r.violation.message
    wild = low.replace("0: meld 4 4 4", "0: meld K K 2 2 Jk")
    assert "wild limit" in review(wild, samples=60, rng=1).violation.message


def test_a_move_after_going_out_and_a_second_draw_are_violations():
    r = review(OUT + "0: discard 5\n", samples=60, rng=1)
    assert (r.violation.line, r.violation.message) == (18, "the hand is over: seat 0 went out")
    assert r.decisions[-1].what == "out" and r.decisions[-1].taken == "meld 9 9 9"
    twice = LEAVE.replace("0: discard 3b\n", "0: draw 4\n")
    assert "draws again" in review(twice, samples=60, rng=1).violation.message


@pytest.mark.parametrize("text, message", [
    ("hello\nworld", "line 1: expected '# cardodds trace: GAME'"),
    (HEAD + "0: deal K K\n", "line 5: seat 0 is dealt 2 cards; a deal is 12"),
    (LEAVE.replace("0: discard J\n", "0: fly J\n"), "line 7: 0: fly: unknown action"),
    (LEAVE.replace("0: discard J\n", "0: discard Zz\n"), "line 7: 0: discard: cannot read card kind 'Zz'"),
    (LEAVE.replace("upcard: 5\n", ""), "no 'upcard: CARD' line"),
    (LEAVE.replace("0: draw 7\n", "0: draw ?\n"), "seat 0: the record does not hold its cards"),
])
def test_a_text_that_is_not_a_record_is_one_error_naming_its_line(text, message):
    with pytest.raises(ValueError) as e:
        review(text, samples=10)
    assert message in str(e.value) and "\n" not in str(e.value)


def test_bad_seat_wrong_game_missing_file_are_value_errors(tmp_path):
    with pytest.raises(ValueError, match=r"seat=5: give a seat 0 to 3 or 'all'"):
        review(LEAVE, seat=5)
    with pytest.raises(ValueError, match="seat 1: the record does not hold its cards"):
        review(LEAVE, seat=1)
    from cardodds.kanalje import trace as kanalje_trace

    with pytest.raises(ValueError, match="the record is of kanalje"):
        review(kanalje_trace("random", rng=1))
    with pytest.raises(ValueError, match="no such file"):
        review(str(tmp_path / "nope.txt"))
    with pytest.raises(ValueError, match="samples=0 must be positive"):
        review(LEAVE, samples=0)


# ---- the command ------------------------------------------------------------------------------------------
def _cli(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", "import sys; from cardodds.cli import main; sys.exit(main())",
                           "canasta", "review", *args], capture_output=True, text=True, **kw)


def test_the_command_prints_the_table_json_and_a_page(tmp_path):
    rec = tmp_path / "hand.txt"
    rec.write_text(STAY)
    text = _cli(str(rec), "--samples", "300", "--seed", "3")
    assert text.returncode == 0 and text.stdout.startswith("Canasta review, seat 0:"), text.stderr
    assert "line 17, out stay in: blunder, the best was meld 9 9 9, loses" in text.stdout
    js = _cli(str(rec), "--samples", "300", "--seed", "3", "--json")
    obj = json.loads(js.stdout)
    assert obj["game"] == "canasta" and obj["seats"] == [0] and obj["unit"] == "points"
    assert obj["thresholds"]["mistake"] == THRESHOLDS.mistake and obj["decisions"][-1]["label"] == "forced"
    assert obj["summary"]["0"]["costliest"][0] == 4 and obj["decisions"][3]["best"] == "meld 9 9 9"
    page = tmp_path / "review.html"
    assert _cli(str(rec), "--samples", "100", "--seed", "3", "--html", str(page)).returncode == 0
    html = page.read_text()
    assert html.startswith("<!doctype html>") and "<script" not in html and "src=" not in html
    assert "meld 9 9 9" in html and html.count('<rect class="bar"') == len(obj["decisions"])
    bad = _cli(str(rec), "--samples", "100", "--html", str(tmp_path / "no" / "such" / "review.html"))
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
    assert bad.stderr.startswith("cardodds: error: argument --html: ") and "its folder does not exist" in bad.stderr


def test_the_command_reviews_every_seat_whose_cards_it_holds(tmp_path):
    rec = tmp_path / "hand.txt"
    rec.write_text(str(trace("heuristic2", rng=5)))
    out = _cli(str(rec), "--seat", "all", "--samples", "30", "--seed", "1")
    assert out.returncode == 0 and out.stdout.startswith("Canasta review, seats 0, 1, 2, 3:"), out.stderr
    for seat in range(4):
        assert f"  seat {seat}: lost " in out.stdout


@pytest.mark.parametrize("args, message", [
    (["--seat", "7"], "--seat 7: give a seat 0 to 3 or 'all'"),
    (["--score", "10000,5"], "the game is over"),
    (["--policies", "nobody"], "nobody"),
])
def test_the_command_refuses_bad_flags_in_one_line(tmp_path, args, message):
    rec = tmp_path / "hand.txt"
    rec.write_text(LEAVE)
    out = _cli(str(rec), "--samples", "10", *args)
    assert out.returncode == 2 and out.stdout == "" and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_ctrl_c_prints_the_decisions_rated_so_far_marked_partial(tmp_path):
    from tests.test_interrupt import _sigint_when

    rec = tmp_path / "hand.txt"
    rec.write_text(str(trace("heuristic2", rng=5)))
    done = re.compile(rb"\| *[1-9]\d*/\d+ \[")  # the progress bar over decisions: one rated
    status, out, term, _ = _sigint_when(["canasta", "review", str(rec), "--samples", "20000", "--seed", "1",
                                         "--threads", "2", "--progress"], lambda seen: bool(done.search(seen)), 0.2)
    assert status == 130 and "Traceback" not in term, term[-500:]
    assert "[PARTIAL: interrupted" in out.splitlines()[0]
    assert re.search(r"^  1 +12 +0 +take", out, re.M), out


def test_the_page_opens_in_a_browser_whole_a_bar_and_a_summary_a_decision(chromium, tmp_path):
    from cardodds.report.browser import open_browser

    r = review(STAY, samples=100, rng=3)
    url = r.write_html(tmp_path / "review.html").as_uri()
    driver = open_browser()
    try:
        driver.get(url)
        events = [json.loads(e["message"])["message"] for e in driver.get_log("performance")]
        asked = {m["params"]["request"]["url"] for m in events if m["method"] == "Network.requestWillBeSent"}
        assert asked == {url}  # self-contained: nothing fetched beside the page
        assert [e for e in driver.get_log("browser") if e["level"] == "SEVERE"] == []
        bars = driver.find_elements("css selector", "svg.review-chart rect.bar")
        assert [b.get_attribute("data-label") for b in bars] == [d.label for d in r.decisions]
        assert all(b.size["width"] > 0 for b in bars)
        summaries = driver.find_elements("css selector", "details.decision summary")
        assert len(summaries) == len(r.decisions) and "out stay in: blunder" in summaries[3].text
    finally:
        driver.quit()
