"""Känä reviews: each känä of a played evening rated on what its seat knew.

Hand-built records with a known answer for each variant, the seat's knowledge alone deciding,
the library's strongest player (the equilibrium table) against one swapped bad känä, the same
review on one and two threads, rules violations at their line, and the command on a real process.
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest

from cardodds import kana
from cardodds.kana.equilibrium import table_strategy
from cardodds.kana.review import THRESHOLDS
from cardodds.rng import as_seed_sequence, child
from cardodds.trace import Move, Trace

ROOT = Path(__file__).resolve().parents[1]
#: The typed evening of docs/kana.md (peek-one, three players, seat 0's peeks; round 2 känäs a peeked ace).
EVENING = ROOT / "docs" / "kana-evening.txt"
SMALL = 20_000


def record(variant: str, *lines: str, players: int = 3) -> str:
    return "\n".join([f"# cardodds trace: kana\nplayers: {players}\nvariant: {variant}", *lines])


# ---- a known answer for each variant --------------------------------------------------------------
def test_official_rules_every_kana_is_good_at_an_exact_zero_cost_without_a_deal():
    text = record("official", "0: deal 9h 2c Kd", "1: deal 5s 6s 7s", "2: deal Qd Qh 3c",
                  "0: känä Kd", "1: känä 6s", "2: känä 3c", "2: win")
    r = kana.review(text, seat="all", rng=1)
    assert r.seats == (0, 1, 2) and r.samples == 0 and [d.taken for d in r.decisions] == ["3rd card", "2nd card",
                                                                                            "3rd card"]
    for d in r.decisions:
        assert d.label == "good" and d.cost.exact and d.cost.value == 0 and d.samples == 0
        assert all(v.exact and v.value == 0 for v in d.values)  # 1/3 of a pot of 3 antes, less the ante
        assert "exactly 1/3" in d.note
    assert r.lost(0).exact and r.lost(0).value == 0
    assert "played out by nobody" in repr(r)


def test_peek_one_a_peeked_ace_kanad_is_a_blunder_and_the_figures_are_the_advisors():
    r = kana.review(EVENING, samples=SMALL, rng=3)
    d = {x.line: x for x in r.decisions}
    assert sorted(d) == [8, 16, 25] and d[16].taken == "Ac (peeked)" and d[16].best == "an unseen card"
    assert d[16].label == "blunder" and r.costliest(0)[0] is d[16]
    assert d[25].label == "good" and d[25].taken == d[25].best == "6c (peeked)"  # känä a peeked 6
    # The decision is the advisor's answer on the position seat 0 knew, in antes (3 players: 3 x P(win) - 1):
    # the options ranked on one run, the känä made priced against the best on fresh deals (one round of SMALL).
    ask = dict(rules=kana.KanaRules(3, "peek-one"), samples=SMALL)
    key = child(as_seed_sequence(3)[0], 2, 0)  # round 2, first to känä
    ranked = kana.advise(kana.Position("Ac ? ?", seat=0), rng=child(key, 0), **ask)
    priced = kana.advise(kana.Position("Ac ? ?", seat=0), rng=child(child(key, 1), 0), **ask)
    assert d[16].cost.value == pytest.approx(3 * priced.difference(1, 0).value)
    assert d[16].values[0].value == pytest.approx(3 * ranked.value[0].value - 1)
    assert d[16].known == "1st to känä of 3 (seat 0 started); my cards Ac ? ?; känäd before me: none"
    assert d[16].cost.lo > THRESHOLDS.blunder
    # Round 3: seat 2 (round 2's winner) starts; seat 0 känäs second, having seen 4h.
    assert d[25].known.startswith("2nd to känä of 3 (seat 2 started)") and d[25].known.endswith("before me: 4h")


def test_peek_all_breaking_a_superkana_is_a_blunder_keeping_it_is_best():
    lines = ["0: deal 2c 2d Ah", "1: deal 5s 6s 7s", "2: deal Qd Qh 3c"]
    good = kana.review(record("peek-all", *lines, "0: känä Ah"), samples=SMALL, rng=1).decisions[0]
    bad = kana.review(record("peek-all", *lines, "0: känä 2c"), samples=SMALL, rng=1).decisions[0]
    assert good.options == bad.options == ("2c", "2d", "Ah") and good.best == bad.best == "Ah"
    assert good.label == "good" and good.cost.value == 0
    assert bad.label == "blunder" and bad.cost.value > 2  # P(win) falls from about 99% to a few %: near 3 antes


# ---- only what the seat knew -----------------------------------------------------------------------
def test_cards_the_seat_could_not_see_do_not_change_its_review():
    # Seat 1 peeked a 9 and känäd an unseen card. In the first record it kept a 3 with the 9 and
    # lost; in the second an ace, and the others' cards and later känäs differ too. Judged by
    # the outcome the verdicts would differ; on what seat 1 knew they are the same, to the bit.
    a = record("peek-one", "0: deal 5c 6d Tc", "1: deal 9h 2c 3d", "1: peek 9h", "2: deal Kc Ks 7h",
               "0: känä 5c", "1: känä 2c", "2: känä 7h", "2: win")
    b = record("peek-one", "0: deal 5c 8s 8h", "1: deal 9h Ac Ad", "1: peek 9h", "2: deal 2s 2h Js",
               "0: känä 5c", "1: känä Ac", "2: känä Js", "2: win")
    ra, rb = (kana.review(t, seat=1, samples=SMALL, rng=5) for t in (a, b))
    assert ra == rb and ra.decisions[0].taken == "an unseen card"
    assert ra.to_dict()["decisions"] == rb.to_dict()["decisions"]


# ---- the strongest player, and one bad känä swapped in ------------------------------------------
def test_the_equilibrium_player_shows_no_blunder_and_a_swapped_kana_is_the_costliest():
    table = table_strategy("peek-one", 4)
    # Round 1 dealt by hand: seat 0 peeks an ace and keeps it (känäs an unseen 3c); seat 1 keeps
    # K K and wins. Känäing the ace instead leaves seat 0 with 3 + 4: seat 1 still wins.
    deals = [["Ah 3c 4d", "5c Kh Kd", "2s 3s 4s", "2h 3h 4h"]]
    t = kana.trace(table, players=4, variant="peek-one", rounds=12, first=0, deals=deals, rng=11)
    r = kana.review(t, samples=SMALL, rng=2)
    assert len(r.decisions) == 12 and r.ratings(0)["blunder"] == r.ratings(0)["mistake"] == 0
    i = next(i for i, m in enumerate(t.moves) if m.action == "känä")
    assert t.moves[i] == Move(0, "känä", ("3c",)) and t.moves[i + 4] == Move(1, "win", (), "round 1")
    swapped = replace(t, moves=t.moves[:i] + (Move(0, "känä", ("Ah",)),) + t.moves[i + 1:])
    s = kana.review(swapped, samples=SMALL, rng=2)
    assert s.violation is None and s.costliest(0)[0].move == i and s.costliest(0)[0].label == "blunder"
    assert s.decisions[1:] == r.decisions[1:]  # each decision's run is its own


def test_same_seed_same_review_on_one_and_two_threads():
    t = kana.trace("threshold:8", players=3, variant="peek-one", rounds=4, first=0, rng=4)
    one, two = (kana.review(t, seat="all", samples=SMALL, rng=9, threads=k) for k in (1, 2))
    assert one == two and one.to_dict() == two.to_dict() and len(one.decisions) == 12


# ---- the record: what it says, its mistakes, what is not one -------------------------------------
ROUND1 = ("0: deal 9h 2c Kd", "0: peek 9h", "1: deal 5s 6s 7s", "1: peek 5s", "2: deal Qd Qh 3c", "2: peek Qd",
          "0: känä 2c", "1: känä 5s", "2: känä 3c")
VIOLATIONS = [
    (ROUND1 + ("2: win", "0: deal 9h 2c Kd", "0: peek 9h", "2: känä Kd"), 16, "Kd is dealt twice in round 2"),
    (ROUND1 + ("2: win", "2: deal 4c 4d 4h", "2: känä 5h"), 15, "seat 2 känäs 5h, a card it was not dealt"),
    (ROUND1 + ("2: win", "0: peek 9h", "0: känä 9h"), 15, "seat 0 känäs out of turn in round 2: seat 2 is next"),
    (ROUND1[:7] + ("0: känä 9h",), 11, "seat 0 känäs twice in round 1"),
    (ROUND1 + ("0: win",), 13, "seat 0 wins round 1, but seat 2 kept the higher hand (Qd Qh = 24 against 9h Kd = 22)"),
    (ROUND1[:4] + ("0: känä 2c", "1: känä 5s", "1: win"), 10, "round 1 ends before every seat känäd: seat 2"),
    (ROUND1 + ("0: deal 4c 4d 4h",), 13, "round 1 has every känä but no winner"),
    (("0: deal 9h 2c Kd", "0: peek Ah"), 5, "seat 0 peeks a card it was not dealt"),
    (("0: deal 9h 2c Kd", "0: peek 9h", "0: peek 2c"), 6, "in peek-one a player looks at one card"),
    (("0: deal 9h 2c Kd", "0: peek 9h", "0: win"), 6, "round 1 ends before any seat känäd"),
    (("0: peek 9h", "0: deal 2c Kd 5h"), 5, "seat 0 peeked a card that is not in its deal"),
    (("0: peek 9h", "0: känä 2c", "0: peek 9h"), 6, "seat 0 peeks after its känä"),
    (("0: deal 9h 2c Kd", "0: peek 9h", "1: deal 5s 5s 7s"), 6, "5s is dealt twice in round 1"),
    (("0: deal 9h 2c Kd", "0: peek 9h", "0: deal 9h 2c Kd"), 6, "seat 0 is dealt a second hand"),
]


@pytest.mark.parametrize("moves, line, message", VIOLATIONS)
def test_a_move_the_rules_forbid_is_reported_at_its_line_after_the_kanas_before_it(moves, line, message):
    r = kana.review(record("peek-one", *moves), seat="all", samples=2_000, rng=1)
    assert r.violation is not None and r.violation.line == line and message in r.violation.message
    # the record's moves start at line 4; every seat that känäs before the violation peeked
    assert [d.line for d in r.decisions] == [4 + j for j, m in enumerate(moves) if "känä" in m and 4 + j < line]
    assert f"rules violation at line {line}: " in repr(r) and r.to_dict()["violation"]["line"] == line


def test_a_peek_under_the_official_rules_is_a_violation():
    r = kana.review(record("official", "0: deal 9h 2c Kd", "0: peek 9h"), rng=1)
    assert r.violation.line == 5 and "nobody may look" in r.violation.message and r.decisions == ()


def test_a_record_from_json_text_a_trace_or_kana_without_umlauts_reads_the_same(tmp_path):
    t = kana.trace("best-pair", players=3, variant="peek-all", rounds=2, first=1, rng=6,
                   rules=kana.KanaRules(players=3, variant="peek-all", tiebreak_deck="fresh"))
    assert t.info["house rules"] == "tiebreak_deck=fresh"
    (tmp_path / "t.json").write_text(json.dumps(t.to_dict()))
    (tmp_path / "t.txt").write_text(str(t).replace("känä", "kana"))
    reviews = [kana.review(x, seat="all", samples=2_000, rng=1)
               for x in (t, tmp_path / "t.json", str(tmp_path / "t.txt"))]
    assert reviews[0] == reviews[1] and reviews[0].rules == t.rules
    lines = [n for n, text in enumerate((tmp_path / "t.txt").read_text().splitlines(), 1) if ": kana " in text]
    assert [d.line for d in reviews[2].decisions] == lines[:len(reviews[2].decisions)]  # read from text: its lines
    assert [replace(d, line=0) for d in reviews[2].decisions] == list(reviews[0].decisions)


@pytest.mark.parametrize("text, message", [
    ("hello\nworld", "line 1: expected '# cardodds trace: GAME'"),
    (record("peek-one", "0: play 9h"), "line 4: a Känä record's moves are deal, peek, känä and win"),
    (record("peek-one", "0: deal 9h 2c"), "line 4: '0: deal' takes three cards, got 2"),
    (record("peek-one", "0: deal 9h 2c Zz"), "line 4: cannot read card 'Zz'"),
    (record("peek-one", "0: win 9h"), "line 4: '0: win' takes no card"),
    ("# cardodds trace: kana\nplayers: 3\n0: deal 9h 2c Kd", "names no variant: add a line 'variant: official'"),
    (record("peek-two", "0: deal 9h 2c Kd"), "variant 'peek-two' is not known"),
    ("# cardodds trace: kanalje\nplayers: 3\n0: play Ac", "the record is of kanalje, not kana"),
])
def test_what_is_not_a_kana_record_is_one_line_naming_where(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        kana.review(text, samples=1_000, rng=1)


def test_bad_seats_policies_and_files_are_refused(tmp_path):
    for seat, message in ((3, "give a seat 0 to 2 or 'all'"), ("x", "seat='x'"), (True, "seat=True"),
                          (1, "seat 1: the record does not hold its cards (it holds seat 0)")):
        with pytest.raises(ValueError, match=re.escape(message)):
            kana.review(EVENING, seat=seat, samples=1_000)
    with pytest.raises(ValueError, match="no such file"):
        kana.review(tmp_path / "none.txt")
    with pytest.raises(ValueError, match="policy best-pair is for peek-all"):
        kana.review(EVENING, policies="best-pair")
    with pytest.raises(ValueError, match="3 seats"):
        kana.review(EVENING, policies="threshold:8,blind")
    with pytest.raises(ValueError, match="disagrees"):
        kana.review(EVENING, rules=kana.KanaRules(players=4, variant="peek-one"))
    fresh = record("peek-one", "0: peek 9h").replace("variant: peek-one", "variant: peek-one\nhouse rules: "
                                                                             "tiebreak_deck=fresh")
    assert kana.review(fresh, samples=1_000, rng=1).rules.tiebreak_deck == "fresh"
    with pytest.raises(ValueError, match="rules.tiebreak_deck='remaining' disagrees with the record's house rules"):
        kana.review(fresh, rules=kana.KanaRules(players=3, variant="peek-one"))
    with pytest.raises(ValueError, match="house rules 'deck=fresh': write key=value with a key of ante"):
        kana.review(fresh.replace("tiebreak_deck", "deck"))
    with pytest.raises(ValueError, match="samples=0"):
        kana.review(EVENING, samples=0)


def test_policies_one_a_seat_follow_the_seats_round_by_round():
    # In round 3 seat 2 starts: the advisor's seats (känä order) are the record's 2, 0, 1.
    r = kana.review(EVENING, policies="blind,threshold:8,kana:2-3", samples=SMALL, rng=3)
    d = r.decisions[2]
    turn, position = kana.positions(EVENING, seat=0)[2]
    assert position == kana.Position("6c ? ?", seat=1, kanad="4h")
    assert (turn.line, turn.key, turn.taken) == (25, 3, "6c")
    a = kana.advise(position, policies=["kana:2-3", "blind", "threshold:8"], rules=kana.KanaRules(3, "peek-one"),
                    samples=SMALL, rng=child(as_seed_sequence(3)[0], 3, 1, 0))  # round 3, second: ranked
    assert d.values[0].value == pytest.approx(3 * a.value[0].value - 1)
    assert "blind, threshold(8), kana" in r.policies


def test_the_frame_has_one_row_a_decision_and_the_page_is_self_contained():
    r = kana.review(EVENING, samples=SMALL, rng=3)
    f = r.to_frame()
    assert len(f) == 3 and list(f["label"]) == ["good", "blunder", "good"] and list(f["line"]) == [8, 16, 25]
    page = r.html()
    assert page.count('class="bar"') == 3 and "<script" not in page and "src=" not in page


def test_the_page_in_headless_chromium_draws_a_bar_a_kana_and_fetches_nothing(tmp_path):
    from cardodds.report.browser import open_browser, set_viewport

    from .conftest import browser_or_skip

    browser_or_skip()
    path = kana.review(EVENING, samples=SMALL, rng=3).write_html(tmp_path / "review.html")
    browser = open_browser()
    try:
        browser.get(path.as_uri())
        events = [json.loads(e["message"])["message"] for e in browser.get_log("performance")]
        requests = {m["params"]["request"]["url"] for m in events if m["method"] == "Network.requestWillBeSent"}
        assert requests == {path.as_uri()}  # the page itself, nothing more
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        bars = browser.execute_script("return Array.from(document.querySelectorAll('rect.bar'), "
                                      "b => [b.dataset.label, b.getBoundingClientRect().height])")
        assert [b[0] for b in bars] == ["good", "blunder", "good"] and bars[1][1] > 5 * max(bars[0][1], bars[2][1])
        set_viewport(browser, 390, 800)  # a phone: nothing wider than the screen but the table's own scroll
        width = browser.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390
    finally:
        browser.quit()


# ---- the command on a real process ---------------------------------------------------------------
def _cardodds() -> list[str]:
    return [sys.executable, "-c", "import sys; from cardodds.cli import main; sys.exit(main())"]


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(_cardodds() + ["kana", "review", *args], capture_output=True, text=True, timeout=600)


def test_the_command_prints_the_table_json_and_writes_the_page(tmp_path):
    page = tmp_path / "review.html"
    text = _run(str(EVENING), "--samples", "20000", "--seed", "3", "--html", str(page))
    assert text.returncode == 0 and text.stderr == "", text.stderr
    assert text.stdout.startswith("Känä review, seat 0: 3 decisions (3 rated), seed 3")
    assert "line 16, round 2 känä Ac (peeked): blunder, the best was an unseen card" in text.stdout
    assert page.read_text().startswith("<!doctype html>") and "round 2 känä" in page.read_text()
    js = _run(str(EVENING), "--samples", "20000", "--seed", "3", "--seat", "all", "--json")
    obj = json.loads(js.stdout)
    assert js.returncode == 0 and obj["seats"] == [0] and obj["unit"] == "antes" and obj["partial"] is False
    assert [d["label"] for d in obj["decisions"]] == ["good", "blunder", "good"]
    bad = _run(str(EVENING), "--html", str(tmp_path / "no" / "such" / "folder.html"), "--samples", "1000")
    assert bad.returncode == 2 and bad.stdout == "" and len(bad.stderr.strip().splitlines()) == 1
    assert bad.stderr.startswith("cardodds: error: argument --html: ") and "its folder does not exist" in bad.stderr
    for args in (["--seat", "7"], [str(tmp_path / "none.txt")]):
        out = _run(*([str(EVENING)] if args[0] == "--seat" else []), *args)
        assert out.returncode == 2 and out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_ctrl_c_prints_the_kanas_rated_so_far_marked_partial_and_exits_130(tmp_path):
    # An evening of 30 rounds at 5,000,000 deals a känä: about a second each. SIGINT once the
    # progress bar (on stderr, forced) shows a känä rated.
    t = kana.trace("threshold:8", players=3, variant="peek-one", rounds=30, first=0, rng=1)
    path = tmp_path / "evening.txt"
    t.save(path)
    proc = subprocess.Popen(_cardodds() + ["kana", "review", str(path), "--samples", "5000000", "--seed", "1",
                                           "--threads", "2", "--progress"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    seen = bytearray()
    def pump() -> None:
        for chunk in iter(lambda: proc.stderr.read1(4096), b""):
            seen.extend(chunk)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    deadline = time.monotonic() + 600
    while not re.search(rb"\b[1-9]\d*/30\b", bytes(seen)) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert proc.poll() is None, f"the review ended before it was interrupted: {bytes(seen)[-300:]!r}"
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    reader.join(5)
    text = out.decode()
    assert proc.returncode == 130, text[-300:]
    assert "PARTIAL" in text.splitlines()[0] and "Traceback" not in bytes(seen).decode(errors="replace")
    rows = re.findall(r"^\s+\d+\s+\d+\s+0\s+round \d+ känä", text, re.M)
    assert 1 <= len(rows) < 30


def test_the_record_of_the_docs_is_typed_by_hand():
    t = Trace.read(EVENING)
    assert t.players == 3 and t.info == {"variant": "peek-one"} and len(t.moves) == 24
    assert [m.seat for m in t.moves if m.action == "peek"] == [0, 0, 0]  # only my own peeks are known


def test_positions_are_what_each_seat_knew_and_the_option_it_took():
    text = record("official", "0: deal 9h 2c Kd", "1: deal 5s 6s 7s", "0: känä Kd", "1: känä 6s", "2: känä 3c",
                  "2: win")
    (turn, position), = kana.positions(text, seat=1)
    assert position == kana.Position("? ? ?", seat=1, kanad="Kd") and turn.taken == "2nd card"
    assert (turn.line, turn.move, turn.seat, turn.what, turn.key) == (7, 3, 1, "round 1 känä", 1)
    assert kana.positions(text, seat=2) == []  # its deal is not in the record
    assert Trace.parse(text).positions(seat=0)[0][1] == kana.Position(seat=0)
    with pytest.raises(ValueError, match="give a seat of the record, 0..2"):
        kana.positions(text, seat=3)
