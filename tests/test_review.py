"""The review core (cardodds/review.py): ratings by their thresholds, the points lost added with
their interval, records read and refused, seats chosen, decisions run in order with Ctrl-C,
and the result as a table, JSON, a frame and a page (the page in a real browser)."""

from __future__ import annotations

import json
import math

import pytest

from cardodds.review import (LABELS, Place, ReviewResult, Thresholds, Violation, decision, forced, rate, rate_in_order,
                             read_record, review_seats)
from cardodds.stats import Z95, Estimate
from cardodds.trace import Trace

from .conftest import browser_or_skip

TH = Thresholds(mistake=0.5, blunder=1.5, unit="points a deal", good=0.1, win_good=0.01)
RECORD = """# cardodds trace: kanalje
players: 3
turned: 8c
0: deal Ac Kc
0: play Ac
1: play 2c

0: play Kc
result score: 0 1 0
"""


def est(value: float, se: float, n: int = 40) -> Estimate:
    return Estimate(value, se, value - Z95 * se, value + Z95 * se, n)


ZERO = Estimate.exact_value(0.0)


def played(taken: str, cost: Estimate, line: int = 5, move: int = 1, seat: int = 0, **kw):
    """A two-option decision: Ac the best, Kc costing ``cost``."""
    return decision(Place(seat, line, move, "play", "hand Ac Kc, turned 8c"), options=("Ac", "Kc"),
                    taken=taken, best="Ac", values=(est(1.0, 0.1), est(1.0 - cost.value, 0.1)),
                    versus_best=(ZERO, cost), thresholds=TH, samples=40, **kw)


# ---- ratings ------------------------------------------------------------------------------------
@pytest.mark.parametrize("value, se, label, about", [
    (0.2, 0.02, "inaccuracy", False), (0.49, 0.005, "inaccuracy", False), (0.52, 0.005, "mistake", False),
    (1.2, 0.1, "mistake", False), (1.6, 0.01, "blunder", False), (4.0, 0.1, "blunder", False),
    (0.5, 0.05, "inaccuracy", True),  # the interval crosses the mistake cut: about, the milder label
    (1.5, 0.1, "mistake", True),
    (0.05, 0.02, "good", False),   # within the advice's margin (0.1) of the best: good
    (4.0, 2.5, "good", True),      # the interval crosses every cut: no more than about good is shown
    (-0.3, 0.1, "good", False),    # the option taken scored above the one ranked first
    (0.1, 0.0, "good", False),     # a cut itself: good up to the margin, the higher band beyond it
])
def test_a_loss_is_rated_by_the_band_of_its_cost_and_about_while_its_interval_crosses_a_cut(value, se, label, about):
    assert rate(est(value, se), 3, TH) == (label, about)


def test_one_option_is_forced_and_p_win_has_its_own_thresholds():
    assert rate(est(9.0, 0.1), 1, TH) == ("forced", False)
    assert rate(est(0.005, 0.001), 2, TH, by_win=True) == ("good", False)
    assert rate(est(0.04, 0.004), 2, TH, by_win=True) == ("inaccuracy", False)
    assert rate(est(0.06, 0.001), 2, TH, by_win=True) == ("mistake", False)
    assert rate(est(0.2, 0.01), 2, TH, by_win=True) == ("blunder", False)
    assert rate(Estimate.exact_value(0.0), 2, TH) == ("good", False)


def test_a_decision_is_rated_by_the_option_taken_and_by_p_win_where_it_is_ranked_so():
    assert played("Ac", est(0.8, 0.1)).label == "good"
    assert played("Kc", est(0.8, 0.1)).label == "mistake"
    d = decision(Place(0, 3, 0, "discard", ""), options=("K", "5"), taken="5", best="K",
                 values=(est(100, 5), est(120, 5)), versus_best=(ZERO, est(-20, 3)), thresholds=TH,
                 win=(est(0.7, 0.01), est(0.5, 0.01)), win_versus_best=(ZERO, est(0.2, 0.01)))
    assert d.label == "blunder" and d.cost.value == -20 and d.win_cost.value == 0.2  # more points, the game lost
    with pytest.raises(ValueError, match="not among the options"):
        played("Qc", est(0.8, 0.1))


# ---- the summary --------------------------------------------------------------------------------
def result(*decisions, violation=None, partial=False, seats=(0,)) -> ReviewResult:
    return ReviewResult(game="kanalje", seats=seats, decisions=decisions, thresholds=TH, policies="lookahead",
                        record=Trace.parse(RECORD), violation=violation, rules=None, samples=40, seed=7,
                        partial=partial)


def test_points_lost_add_up_with_their_variances_and_the_costliest_come_first():
    a, b = played("Kc", est(0.3, 0.1), line=5), played("Kc", est(2.0, 0.2), line=8, move=3)
    f = forced(Place(0, 9, 4, "play", "hand Kc"), taken="Kc")
    r = result(a, f, b)
    lost = r.lost(0)
    assert lost.value == pytest.approx(2.3) and lost.se == pytest.approx(math.hypot(0.1, 0.2))
    assert lost.lo == pytest.approx(2.3 - Z95 * lost.se)
    assert r.costliest(0) == (b, a)  # the blunder, then the inaccuracy; the forced move is not rated
    assert r.ratings(0) == {"forced": 1, "good": 0, "inaccuracy": 1, "mistake": 0, "blunder": 1}
    assert r.lost(1).exact and r.lost(1).value == 0  # a seat with no decision lost nothing


def test_the_table_names_each_decision_its_cost_and_rating_in_at_most_100_columns():
    r = result(played("Kc", est(0.8, 0.1)), forced(Place(0, 9, 4, "play", ""), taken="Kc"),
               violation=Violation(8, 3, 0, "seat 0 plays Kc, which it already played"))
    text = repr(r)
    assert text.splitlines()[0] == "Kanalje review, seat 0: 2 decisions (1 rated), seed 7"
    assert max(map(len, text.splitlines())) <= 100
    row = next(line for line in text.splitlines() if line.strip().startswith("1 "))
    assert row.split()[1:7] == ["5", "0", "play", "Kc", "Ac", "0.80"] and row.split()[-1] == "mistake"
    assert "only move" in text and "forced" in text
    assert "seat 0: lost 0.80 [0.60, 1.00] points a deal; 1 forced, 1 mistake" in text
    assert "rules violation at line 8: seat 0 plays Kc, which it already played" in text
    assert "good <= 0.1 < inaccuracy < 0.5 <= mistake < 1.5 <= blunder" in text
    assert repr(result(partial=True)).splitlines()[0].endswith("[PARTIAL: interrupted, figures from the deals "
                                                               "counted so far]")


def test_json_and_frame_carry_every_decision():
    r = result(played("Kc", est(0.8, 0.1)), played("Ac", est(0.8, 0.1), line=8, move=3))
    d = json.loads(json.dumps(r.to_dict()))
    assert d["question"] == "review" and d["seats"] == [0] and d["unit"] == "points a deal"
    assert [x["label"] for x in d["decisions"]] == ["mistake", "good"]
    assert d["decisions"][0]["options"][1] == {"option": "Kc", "value": est(1.0 - 0.8, 0.1).to_dict(),
                                               "versus_best": est(0.8, 0.1).to_dict(), "win": None,
                                               "win_versus_best": None}
    assert d["summary"]["0"]["costliest"] == [1] and d["summary"]["0"]["ratings"]["mistake"] == 1
    frame = r.to_frame()
    assert list(frame.label) == ["mistake", "good"] and list(frame.line) == [5, 8]
    assert frame.cost_lo[0] == pytest.approx(0.8 - Z95 * 0.1)


# ---- records, seats, the run --------------------------------------------------------------------
def test_a_record_is_read_from_text_a_file_or_a_trace_and_keeps_its_lines(tmp_path):
    t = read_record(RECORD, "kanalje")
    assert [t.line_of(i) for i in range(len(t.moves))] == [4, 5, 6, 8]
    f = tmp_path / "deal.txt"
    f.write_text(RECORD)
    assert read_record(str(f), "kanalje") == t == read_record(t, "kanalje")
    (tmp_path / "deal.json").write_text(json.dumps(t.to_dict()))
    assert read_record(tmp_path / "deal.json", "kanalje") == t


@pytest.mark.parametrize("record, message", [
    (RECORD, "the record is of kanalje, not canasta: review it with cardodds kanalje review"),
    ("no-such-file.txt", "no such file"),
    ("# cardodds trace: canasta\nplayers: 4\n0 deal K", "line 3: expected 'seat: action cards'"),
    ("hello\nworld", "line 1: expected '# cardodds trace: GAME'"),
    (3, "give a Trace, a record's path or its text"),
])
def test_what_is_not_a_record_is_refused_in_one_line(record, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")) as e:
        read_record(record, "canasta")
    assert "\n" not in str(e.value)


def test_a_binary_file_is_not_a_record(tmp_path):
    f = tmp_path / "x.bin"
    f.write_bytes(bytes(range(256)))
    with pytest.raises(ValueError, match="is not text"):
        read_record(str(f), "kana")


def test_seats_are_one_whose_cards_are_known_or_all_of_them():
    assert review_seats("all", 3, (0, 2)) == (0, 2) and review_seats(2, 3, (0, 2)) == (2,)
    assert review_seats("1", 3, (1,)) == (1,)
    for bad, message in ((3, "give a seat 0 to 2 or 'all'"), ("x", "give a seat"), (True, "give a seat"),
                         (1, "the record does not hold its cards")):
        with pytest.raises(ValueError, match=message):
            review_seats(bad, 3, (0, 2))
    with pytest.raises(ValueError, match="holds none"):
        review_seats("all", 3, ())


def test_decisions_run_in_order_and_ctrl_c_keeps_those_rated():
    a, b = played("Kc", est(0.8, 0.1)), played("Ac", est(0.8, 0.1), line=8, move=3)
    assert rate_in_order([lambda: a, lambda: b]) == ((a, b), False)

    def interrupted():
        raise KeyboardInterrupt

    assert rate_in_order([lambda: a, interrupted, lambda: b]) == ((a,), True)
    assert rate_in_order([interrupted, lambda: b]) == ((), True)
    cut = played("Kc", est(0.8, 0.1), partial=True)  # its advice was interrupted: dropped, the review stops
    assert rate_in_order([lambda: a, lambda: cut, lambda: b]) == ((a,), True)


def test_the_page_is_one_self_contained_file_and_an_unwritable_path_is_refused(tmp_path):
    r = result(played("Kc", est(0.8, 0.1)), forced(Place(0, 9, 4, "play", ""), taken="Kc"))
    page = r.write_html(tmp_path / "review.html").read_text()
    assert page.count('<rect class="bar"') == 2 and "<script" not in page and "src=" not in page
    assert "0: deal Ac Kc" in page  # the record itself
    with pytest.raises(ValueError, match="give a path in a folder you can write"):
        r.write_html(tmp_path / "missing" / "review.html")


# ---- the page in a browser ----------------------------------------------------------------------
def test_the_page_in_a_browser_shows_each_decision_its_bar_and_options_at_phone_width(tmp_path):
    browser_or_skip()
    from selenium.webdriver.common.by import By

    from cardodds.report.browser import open_browser, set_viewport

    decisions = [played("Kc", est(c, 0.1), line=5 + i, move=i) for i, c in enumerate((0.0, 0.3, 0.8, 2.0))]
    r = result(*decisions, forced(Place(0, 20, 9, "play", "hand Kc"), taken="Kc"))
    path = r.write_html(tmp_path / "review.html")
    driver = open_browser()
    try:
        driver.get(path.as_uri())
        bars = driver.find_elements(By.CSS_SELECTOR, "svg.review-chart rect.bar")
        assert [b.get_attribute("data-label") for b in bars] == ["good", "inaccuracy", "mistake", "blunder", "forced"]
        heights = [float(b.get_attribute("height")) for b in bars]
        assert heights[1] < heights[2] < heights[3]  # the bar grows with the cost
        rows = driver.find_elements(By.CSS_SELECTOR, "table.review tbody tr")
        assert [row.find_elements(By.TAG_NAME, "td")[-1].text for row in rows] == [d.rating for d in r.decisions]
        first = driver.find_elements(By.CSS_SELECTOR, "details.decision")[2]
        first.find_element(By.TAG_NAME, "summary").click()
        cells = [td.text for td in first.find_elements(By.CSS_SELECTOR, "tbody td")]
        assert cells[:3] == ["Ac", "1.00 [0.80, 1.20]", "the best"] and cells[4] == "Kc (taken)"
        assert driver.get_log("browser") == []
        set_viewport(driver, 375, 812)
        driver.get(path.as_uri())
        assert driver.execute_script("return document.documentElement.scrollWidth") <= 375
    finally:
        driver.quit()


def test_labels_are_in_the_order_of_their_cost():
    assert LABELS.index("good") < LABELS.index("inaccuracy") < LABELS.index("mistake") < LABELS.index("blunder")


def test_an_html_path_is_checked_before_the_review_runs(tmp_path):
    import argparse

    from cardodds._cliutil import page_path

    assert page_path(str(tmp_path / "review.html")) == str(tmp_path / "review.html")
    with pytest.raises(argparse.ArgumentTypeError, match="its folder does not exist; give a file in a folder"):
        page_path(str(tmp_path / "missing" / "review.html"))
    with pytest.raises(argparse.ArgumentTypeError, match="is a folder; give a file name for the page"):
        page_path(str(tmp_path))


# ---- pricing the move made until its rating is clear ------------------------------------------
def normal_measure(cost: float, sd: float = 1.0, calls: list | None = None):
    """``measure`` of :func:`price`: per world a difference ``cost + sd * z``, seeded by the round."""
    import numpy as np

    def measure(n: int, seed):
        x = cost + sd * np.random.default_rng(seed).standard_normal(n)
        if calls is not None:
            calls.append(n)
        return (Estimate.mean(float(x.sum()), float((x * x).sum()), n),), False

    return measure


@pytest.mark.parametrize("cost, label", [(0.0, "good"), (0.3, "inaccuracy"), (0.9, "mistake"), (2.5, "blunder")])
def test_pricing_stops_when_the_interval_lies_in_one_band_and_repeats_on_its_seed(cost, label):
    from cardodds.review import price
    from cardodds.verdict import Budget

    calls: list[int] = []
    p = price(normal_measure(cost, calls=calls), TH, budget=Budget(16, 12), rng=5)
    got, about = rate(p.costs[0], 2, TH)
    assert (got, about, p.budget_limited, p.partial) == (label, False, False, False)
    assert calls == [16 * 2 ** r for r in range(p.rounds)] and p.costs[0].n == sum(calls)
    assert p.rounds < 12  # it stopped early: a clear rating
    assert price(normal_measure(cost), TH, budget=Budget(16, 12), rng=5) == p  # the same seed, the same figures


def test_a_cost_on_a_cut_ends_with_the_budget_and_its_rating_says_about():
    from cardodds.review import price
    from cardodds.verdict import Budget

    p = price(normal_measure(0.5), TH, budget=Budget(16, 6), rng=1)  # exactly at the mistake cut
    assert p.rounds == 6 and p.budget_limited and rate(p.costs[0], 2, TH)[1] is True
    q = price(normal_measure(0.5), TH, budget=Budget(16, 6, budget_rounds=2), rng=1)
    assert q.rounds == 2 and q.budget_limited and q.costs[0].n == 48
    ticks = iter(range(0, 1000, 3))  # every clock reading 3 s later: no second round fits in 4 s
    r = price(normal_measure(0.5), TH, budget=Budget(16, 6, budget_seconds=4.0, clock=lambda: next(ticks)), rng=1)
    assert r.rounds == 1 and r.budget_limited


def test_the_priced_interval_holds_the_true_cost_at_every_look_at_least_95_percent_of_the_time():
    from cardodds.review import price
    from cardodds.verdict import Budget

    th = Thresholds(mistake=1e9, blunder=2e9, unit="points", good=0.55)  # one cut near the cost: many looks
    misses = 0
    for seed in range(300):
        c = price(normal_measure(0.5, sd=2.0), th, budget=Budget(16, 6), rng=seed).costs[0]
        misses += not c.lo <= 0.5 <= c.hi
    assert misses <= 15 + 4 * math.sqrt(300 * 0.05 * 0.95)  # at most 5% miss, 4 standard errors of slack


def test_pricing_interrupted_keeps_the_rounds_done_or_raises_before_any():
    from cardodds.review import price
    from cardodds.verdict import Budget

    def stop(n, seed):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        price(stop, TH, budget=Budget(16, 4), rng=1)
    first = normal_measure(0.5)
    seen = []

    def once(n, seed):
        if seen:
            raise KeyboardInterrupt
        seen.append(n)
        return first(n, seed)

    p = price(once, TH, budget=Budget(16, 4), rng=1)
    assert p.partial and p.rounds == 1 and p.costs[0].n == 16


def test_the_cost_the_advice_already_tells_is_not_priced_again():
    from cardodds.advice import AdviceResult
    from cardodds.review import unpriced
    from cardodds.verdict import Sums, judge

    import numpy as np

    g = np.random.default_rng(3)
    world = g.normal(size=(400, 1))

    def advice(means, same=None, margin=0.1):
        sums = Sums.of(world + np.array(means) + 0.3 * g.normal(size=(400, len(means))))
        d = judge(sums, margin=margin, same=same, unit="points")
        return AdviceResult(game="coins", position=None, options=tuple("abc"[:len(means)]), unit="points",
                            ranked_by="x", figures={"x": tuple(est(m, 0.01) for m in means)}, pairs={"x": ()},
                            policies=("p",), verb="play", noun="option", sampled="world", decision=d, rules=None,
                            samples=400, seed=1)

    best = advice([1.0, 0.0, 0.0])
    assert best.decision.kind == "best" and unpriced(best, 0) == Estimate.exact_value(0.0)
    assert unpriced(best, 1) is None  # a loser is priced on fresh worlds
    same = advice([1.0, 1.0, 0.0], same=[0, 0, 2])
    assert unpriced(same, 1) == Estimate.exact_value(0.0)  # the same as the best by the rules
    equal = advice([1.0, 0.98, 0.0])
    assert equal.decision.kind == "equal" and unpriced(equal, equal.decision.top) == Estimate.exact_value(0.0)
    close = advice([1.0, 0.98, 0.0], margin=0.001)
    assert close.decision.kind == "undecided"
    top = close.decision.top
    c = unpriced(close, top)
    assert c.value == 0.0 and c.lo == 0.0 and c.hi == pytest.approx(close.decision.loss[top][1]) and c.hi > 0
    assert rate(c, 3, TH) == ("good", c.hi > TH.good)  # about good while a rival may still be better


def test_a_review_in_rounds_gives_the_same_ratings_on_one_and_two_threads_and_two_dask_workers():
    # the advice's rounds and the pricing's, bounded by rounds (not time): the same figures anywhere
    import cardodds
    from cardodds.kanalje import review, trace

    t = trace("heuristic", rng=4)
    kw = dict(seat=0, policies="heuristic", budget_rounds=3, rng=7)
    one, two = review(t, threads=1, **kw), review(t, threads=2, **kw)
    priced = [d for d in one.decisions if "priced against" in d.note]
    assert priced and one.to_dict() == two.to_dict()
    with cardodds.backend("local:2"):
        there = review(t, **kw)
    assert there.to_dict() == one.to_dict()
