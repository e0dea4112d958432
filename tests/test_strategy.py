"""The strategy tables' shared core (cardodds.strategy): the compiled count of a position
against its Python twin, each cell's verdict from hand-built counts (the verdict engine's rule on
the positions each pair of actions shares; an action seen on too few positions decides nothing),
and the shipped copy's writer and reader."""

import json
import math

import numpy as np
import pytest

from cardodds._tally import add_actions
from cardodds.strategy import (
    ALPHA, MIN_POSITIONS, StrategyTablesResult, TableSpec, add_positions, read_tables, select, summarise,
    write_tables,
)
from cardodds.verdict import critical_value

SPEC = TableSpec("jack", "A jack trick", "duck, win or shed", (("seat", ("2nd", "3rd")), ("holding", ("low", "both"))),
                 ("duck", "win", "shed"), "points a deal", 0.25)


def test_the_compiled_count_is_its_python_twin():
    rng = np.random.default_rng(5)
    compiled = np.zeros(SPEC.size, np.int64)
    twin = np.zeros(SPEC.size, np.int64)
    for _ in range(300):
        cell = int(rng.integers(SPEC.cells))
        values = rng.integers(-8, 9, 3).astype(np.int64)
        possible = (rng.random(3) < 0.7).astype(np.int64)
        add_actions(compiled, cell * SPEC.stride, values, possible, 3)
        add_positions(SPEC, twin, cell, [values], [possible])
    assert compiled.tolist() == twin.tolist() and compiled.any()


def test_a_cell_names_the_best_action_and_its_paired_margin_over_the_next():
    counts = np.zeros(SPEC.size, np.int64)
    # cell 3 ("3rd", "both"): win beats duck by 1, 2 and 3 points, ten times each; shed is never possible
    add_positions(SPEC, counts, 3, [[0, 1, 0], [-2, 0, 0], [1, 4, 0]] * 10, [[1, 1, 0]] * 30)
    t = summarise(SPEC, counts)
    c = t.cell("3rd", "both")
    assert (c.kind, c.positions, c.best, c.next, c.group) == ("best", 30, "win", "duck", ("win",))
    assert set(c.values) == {"duck", "win"} and c.values["win"].n == 30 and c.decisive
    # the simultaneous interval: with two actions, one comparison with the best, a t quantile at 29 df
    se = math.sqrt(20 / 29 / 30)  # the differences 1, 2, 3: variance 2/3 * 30/29
    crit = critical_value(29, ALPHA, 1, 2)
    assert c.margin.value == pytest.approx(2.0) and c.margin.se == pytest.approx(se)
    assert (c.margin.lo, c.margin.hi) == pytest.approx((2 - crit * se, 2 + crit * se))
    assert c.short() == "win +2.00 (30)" and "against duck" in c.verdict
    empty = t.cell("2nd", "both")
    assert (empty.kind, empty.best, empty.positions, empty.short()) == ("none", None, 0, "·")
    with pytest.raises(ValueError, match="its dimensions are seat: 2nd/3rd, holding: low/both"):
        t.cell("4th", "low")


def test_an_action_on_too_few_positions_decides_nothing():
    counts = np.zeros(SPEC.size, np.int64)
    # cell 0: duck on 25 positions, win beside it on 2 only (where it would win by 10)
    add_positions(SPEC, counts, 0, [[-1, 0, 0]] * 23 + [[0, 10, 0]] * 2, [[1, 0, 0]] * 23 + [[1, 1, 0]] * 2)
    # cell 1: three positions in all
    add_positions(SPEC, counts, 1, [[0, 2, 1]] * 3)
    t = summarise(SPEC, counts)
    only = t.cell("2nd", "low")
    assert (only.kind, only.best, only.too_few, only.positions) == ("only", "duck", ("win",), 25)
    assert only.short() == "duck only (25)" and not only.decisive and "win 2" in only.verdict
    few = t.cell("2nd", "both")
    assert (few.kind, few.best, few.group, few.too_few, few.short()) == ("too few", None, (), ("duck", "win", "shed"),
                                                                           "? (3)")
    assert MIN_POSITIONS == 20


def test_a_rival_seen_on_two_positions_does_not_decide_a_cell():
    """The issue's Kanalje cell: duck beats win by 3.28 on 1,098 positions, shed was possible on 2
    (and won there): duck is the best, not '(shed)'."""
    counts = np.zeros(SPEC.size, np.int64)
    diffs = [4] * 307 + [3] * 791  # mean 3.2796
    values = [[d, 0, 0] for d in diffs]
    possible = [[1, 1, 0]] * 1096 + [[1, 1, 1]] * 2
    values[-2:] = [[3, 0, 13]] * 2  # shed 10 better than duck where it was possible
    add_positions(SPEC, counts, 3, values, possible)
    c = summarise(SPEC, counts).cell("3rd", "both")
    assert (c.kind, c.best, c.next, c.too_few, c.positions) == ("best", "duck", "win", ("shed",), 1098)
    assert c.margin.value == pytest.approx(3.2796, abs=1e-4) and c.margin.lo > 3.2
    assert c.short() == "duck +3.28 (1,098)"
    assert c.values["shed"].n == 2 and c.values["shed"].value > c.values["duck"].value


def test_a_best_whose_margin_is_negative_is_never_named():
    """The issue's Canasta cell: on the positions they share, shed edges duck (not significantly)
    while win, which duck beats, beats shed: duck is the one not shown to lose, but it does not
    beat shed on their positions, so the cell is undecided between them."""
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 0, [[10, 0, 0]] * 30, [[1, 1, 0]] * 30)  # duck beats win by 10
    add_positions(SPEC, counts, 0, [[0, 10, 0]] * 30, [[0, 1, 1]] * 30)  # win beats shed by 10
    add_positions(SPEC, counts, 0, [[0, 0, 40], [0, 0, -40]] * 15 + [[38, 0, 0]], [[1, 0, 1]] * 31)
    c = summarise(SPEC, counts).cell("2nd", "low")
    assert c.kind == "undecided" and set(c.group) == {"duck", "shed"} and c.excluded == ("win",)
    assert c.best is None and not c.decisive and c.short() in ("duck/shed? (91)", "shed/duck? (91)")


def test_no_best_has_a_margin_at_or_below_zero():
    rng = np.random.default_rng(11)
    named = 0
    for _ in range(200):
        counts = np.zeros(SPEC.size, np.int64)
        n = int(rng.integers(20, 120))
        values = rng.integers(-6, 7, (n, 3)) + rng.integers(-2, 3, 3)
        possible = (rng.random((n, 3)) < 0.75).astype(np.int64)
        add_positions(SPEC, counts, 0, values, possible)
        c = summarise(SPEC, counts).cell("2nd", "low")
        if c.kind == "best":
            named += 1
            assert c.margin.lo > 0 and all(c.values[a].n >= MIN_POSITIONS for a in c.group)
    assert named > 10


def test_actions_within_the_margin_are_equal():
    counts = np.zeros(SPEC.size, np.int64)
    rng = np.random.default_rng(3)
    base = rng.integers(-10, 11, 2000)
    noise = rng.choice([-1, 0, 0, 0, 1], 2000)  # win - duck: mean about 0, sd 0.6
    add_positions(SPEC, counts, 2, np.stack([base, base + noise, base - 2], axis=1))  # shed loses 2
    c = summarise(SPEC, counts).cell("3rd", "low")
    assert c.kind == "equal" and set(c.group) == {"duck", "win"} and c.excluded == ("shed",)
    assert -0.25 <= c.margin.lo and c.margin.hi <= 0.25 and c.best is None
    assert c.short() in ("duck=win (2,000)", "win=duck (2,000)") and "equal within 0.25" in c.verdict
    wide = summarise(SPEC._replace(equal_within=0.01), counts).cell("3rd", "low")
    assert wide.kind == "undecided" and wide.short().endswith("? (2,000)")


def test_an_interval_holding_zero_is_undecided():
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 1, [[1, 0, 0], [0, 1, 0], [2, 0, 0], [0, 1, 0]] * 5)
    c = summarise(SPEC, counts).cell("2nd", "both")
    assert (c.kind, c.group, c.excluded, c.best) == ("undecided", ("duck", "win"), ("shed",), None)
    assert c.short() == "duck/win? (20)" and c.verdict.startswith("no action is better at this precision")


def test_three_or_more_left_print_the_leader_and_how_many_more():
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 1, [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]] * 10)
    c = summarise(SPEC, counts).cell("2nd", "both")
    assert c.kind == "undecided" and len(c.group) == 3 and c.short() == f"{c.group[0]}?+2 (40)"


def test_a_cells_verdict_among_the_actions_a_position_allows():
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 1, [[0, 1, 3], [0, 2, 4], [1, 2, 5]] * 10)  # shed best, then win, then duck
    t = summarise(SPEC, counts)
    assert t.cell("2nd", "both").best == "shed"
    c = t.cell("2nd", "both", among=("duck", "win"))
    assert (c.best, c.next, set(c.values)) == ("win", "duck", {"duck", "win"})
    assert c.margin.value == pytest.approx(4 / 3)  # differences 1, 2, 1
    with pytest.raises(ValueError, match="no action 'pass' in table 'jack'"):
        t.cell("2nd", "both", among=("pass",))


def test_select_names_the_tables_it_knows():
    other = SPEC._replace(name="lead")
    assert select([SPEC, other], None) == [SPEC, other]
    assert select([SPEC, other], ["lead", "lead"]) == [other]
    with pytest.raises(ValueError, match="no strategy table 'leed': the tables are jack, lead"):
        select([SPEC, other], "leed")


def _result(counts):
    return StrategyTablesResult(game="kanalje", policies="heuristic", tables=(summarise(SPEC, counts),), rules=None,
                                samples=10, seed=7)


def test_the_shipped_copy_reads_back_and_writes_the_same_bytes(tmp_path):
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 3, [[0, 1, 0], [-2, 0, 0], [1, 4, 0]] * 10, [[1, 1, 0]] * 30)
    add_positions(SPEC, counts, 2, [[5, 1, 2]])  # one position: an unbounded interval, null in JSON
    r = _result(counts)
    first = write_tables(r, tmp_path / "a.json")
    back = read_tables(first, [SPEC], None)
    assert back.shipped and back["jack"].cells == r["jack"].cells
    assert write_tables(back, tmp_path / "b.json").read_bytes() == first.read_bytes()
    frame = back.to_frame()
    assert len(frame) == SPEC.cells and frame.loc[3, "best"] == "win" and frame.loc[3, "situation"] == "3rd, both"
    assert frame.loc[3, "kind"] == "best" and frame.loc[2, "kind"] == "too few" and frame.loc[2, "positions"] == 1
    text = repr(back)
    assert "A jack trick: duck, win or shed\n  margins in points a deal, equal within 0.25" in text
    assert "win +2.00 (30)" in text and "? (1)" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_json_and_text_show_each_cells_verdict_and_positions():
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 3, [[0, 1, 0], [-2, 0, 0], [1, 4, 0]] * 10, [[1, 1, 0]] * 30)
    add_positions(SPEC, counts, 1, [[1, 0, 0], [0, 1, 0], [2, 0, 0], [0, 1, 0]] * 5)
    add_positions(SPEC, counts, 0, [[0, 2, 1]] * 3)
    d = json.loads(json.dumps(_result(counts).to_dict()))
    t = d["tables"][0]
    assert (t["equal_within"], t["min_positions"], t["alpha"]) == (0.25, MIN_POSITIONS, ALPHA)
    cells = {tuple(c["key"]): c for c in t["cells"]}
    best = cells["3rd", "both"]
    assert (best["kind"], best["group"], best["positions"], best["best"], best["next"]) == ("best", ["win"], 30, "win",
                                                                                             "duck")
    assert best["margin"]["value"] == pytest.approx(2.0) and best["decisive"]
    assert best["values"]["win"]["positions"] == 30
    undecided = cells["2nd", "both"]
    assert (undecided["kind"], undecided["group"], undecided["excluded"], undecided["positions"]) == (
        "undecided", ["duck", "win"], ["shed"], 20)
    few = cells["2nd", "low"]
    assert (few["kind"], few["too_few"], few["positions"], few["best"]) == ("too few", ["duck", "win", "shed"], 3, None)
    assert cells["3rd", "low"]["kind"] == "none"
    text = repr(_result(counts))
    assert "duck/win? (20)" in text and "? (3)" in text and "win +2.00 (30)" in text
    assert "(n): the cell's positions" in text


def test_a_table_too_wide_prints_its_positions_in_thousands():
    long = ("the first value, a long one, longer still", "the second one")
    wide = SPEC._replace(dims=(("a long name of a dimension", long), ("another", ("x" * 12, "y" * 12, "z" * 12))))
    counts = np.zeros(wide.size, np.int64)
    for cell in range(wide.cells):
        add_positions(wide, counts, cell, [[0, 1, 3], [0, 2, 4], [1, 2, 5]] * 4000)  # shed best
    t = summarise(wide, counts)
    assert t.cells[0].short() == "shed +2.33 (12,000)" and t.grid()[1][0][1] == "shed +2.33 (12,000)"
    exact = "  ".join(["the first value, a long one, longer still"] + ["shed +2.33 (12,000)"] * 3)
    assert len(exact) + 2 > 100  # exact counts would not fit
    text = repr(StrategyTablesResult(game="kanalje", policies="heuristic", tables=(t,), rules=None, samples=10,
                                     seed=7))
    assert "shed +2.33 (12k)" in text and "(12,000)" not in text and max(len(line) for line in text.splitlines()) <= 100
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 0, [[0, 1, 3], [0, 2, 4], [1, 2, 5]] * 4000)
    assert "shed +2.33 (12,000)" in repr(_result(counts))


def test_where_every_action_is_beaten_by_another_no_action_is_told_apart():
    counts = np.zeros(SPEC.size, np.int64)
    # a cycle on the positions each pair shares: duck beats win by 1, win beats shed by 2, shed beats duck by 3
    add_positions(SPEC, counts, 0, [[1, 0, 0]] * 25, [[1, 1, 0]] * 25)
    add_positions(SPEC, counts, 0, [[0, 2, 0]] * 25, [[0, 1, 1]] * 25)
    add_positions(SPEC, counts, 0, [[0, 0, 3]] * 25, [[1, 0, 1]] * 25)
    c = summarise(SPEC, counts).cell("2nd", "low")
    assert c.kind == "undecided" and set(c.group) == {"duck", "win", "shed"} and c.excluded == ()
    assert not c.decisive and c.best is None
