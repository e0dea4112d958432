"""The strategy tables' shared core (cardodds.strategy): the compiled count of a position
against its Python twin, each cell's verdict from hand-built counts, and the shipped copy's
writer and reader."""

import numpy as np
import pytest

from cardodds._tally import add_actions
from cardodds.stats import Estimate
from cardodds.strategy import (
    StrategyTablesResult, TableSpec, add_positions, read_tables, select, summarise, write_tables,
)

SPEC = TableSpec("jack", "A jack trick", "duck, win or shed", (("seat", ("2nd", "3rd")), ("holding", ("low", "both"))),
                 ("duck", "win", "shed"), "points a deal")


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
    # cell 3 ("3rd", "both"): win beats duck by 1, 2 and 3 points; shed is never possible
    add_positions(SPEC, counts, 3, [[0, 1, 0], [-2, 0, 0], [1, 4, 0]], [[1, 1, 0]] * 3)
    # cell 0: only duck is possible
    add_positions(SPEC, counts, 0, [[-1, 0, 0]], [[1, 0, 0]])
    t = summarise(SPEC, counts)
    c = t.cell("3rd", "both")
    assert (c.positions, c.best, c.next) == (3, "win", "duck") and set(c.values) == {"duck", "win"}
    assert c.margin == Estimate.mean(6.0, 14.0, 3)  # differences 1, 2, 3
    assert c.decisive and c.short() == "win +2.00" and "against duck" in c.verdict
    assert c.values["win"] == Estimate.mean(5.0, 17.0, 3)
    only = t.cell("2nd", "low")
    assert (only.best, only.margin, only.short()) == ("duck", None, "duck only")
    empty = t.cell("2nd", "both")
    assert (empty.best, empty.positions, empty.short()) == (None, 0, "·")
    with pytest.raises(ValueError, match="its dimensions are seat: 2nd/3rd, holding: low/both"):
        t.cell("4th", "low")


def test_the_best_is_ranked_by_paired_margins_where_actions_were_possible_on_different_positions():
    counts = np.zeros(SPEC.size, np.int64)
    # shed was possible only in good positions, where it lost a point to duck: its mean (4) is the
    # highest, but on the positions it shares with duck it is worse
    add_positions(SPEC, counts, 0, [[5, 0, 4]] * 3, [[1, 0, 1]] * 3)
    add_positions(SPEC, counts, 0, [[0, -2, 0]] * 3, [[1, 1, 0]] * 3)
    c = summarise(SPEC, counts).cell("2nd", "low")
    assert c.values["shed"].value == 4 and c.values["duck"].value == 2.5
    assert (c.best, c.next) == ("duck", "shed") and c.margin == Estimate.mean(3.0, 3.0, 3)


def test_a_cells_verdict_among_the_actions_a_position_allows():
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 1, [[0, 1, 3], [0, 2, 4], [1, 2, 5]])  # shed best, then win, then duck
    t = summarise(SPEC, counts)
    assert t.cell("2nd", "both").best == "shed"
    c = t.cell("2nd", "both", among=("duck", "win"))
    assert (c.best, c.next, set(c.values)) == ("win", "duck", {"duck", "win"})
    assert c.margin == Estimate.mean(4.0, 6.0, 3)  # differences 1, 2, 1
    with pytest.raises(ValueError, match="no action 'pass' in table 'jack'"):
        t.cell("2nd", "both", among=("pass",))


def test_an_interval_holding_zero_is_no_difference():
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 1, [[1, 0, 0], [0, 1, 0], [2, 0, 0], [0, 1, 0]])
    c = summarise(SPEC, counts).cell("2nd", "both")
    assert c.best == "duck" and not c.decisive
    assert c.short() == "(duck)" and c.verdict.startswith("no difference at this precision")


def test_select_names_the_tables_it_knows():
    other = SPEC._replace(name="lead")
    assert select([SPEC, other], None) == [SPEC, other]
    assert select([SPEC, other], ["lead", "lead"]) == [other]
    with pytest.raises(ValueError, match="no strategy table 'leed': the tables are jack, lead"):
        select([SPEC, other], "leed")


def test_the_shipped_copy_reads_back_and_writes_the_same_bytes(tmp_path):
    counts = np.zeros(SPEC.size, np.int64)
    add_positions(SPEC, counts, 3, [[0, 1, 0], [-2, 0, 0], [1, 4, 0]], [[1, 1, 0]] * 3)
    add_positions(SPEC, counts, 2, [[5, 1, 2]])  # one position: an unbounded interval, null in JSON
    r = StrategyTablesResult(game="kanalje", policies="heuristic", tables=(summarise(SPEC, counts),), rules=None,
                             samples=10, seed=7)
    first = write_tables(r, tmp_path / "a.json")
    back = read_tables(first, [SPEC], None)
    assert back.shipped and back["jack"].cells == r["jack"].cells
    assert write_tables(back, tmp_path / "b.json").read_bytes() == first.read_bytes()
    frame = back.to_frame()
    assert len(frame) == SPEC.cells and frame.loc[3, "best"] == "win" and frame.loc[3, "situation"] == "3rd, both"
    text = repr(back)
    assert "A jack trick: duck, win or shed\n  margins in points a deal" in text and "win +2.00" in text
    assert max(len(line) for line in text.splitlines()) <= 100


def test_the_best_is_the_action_no_other_beats_on_the_positions_they_share():
    counts = np.zeros(SPEC.size, np.int64)
    # shed is possible only where every action scores high: its mean is the highest, but duck
    # beats it on the positions both allowed
    add_positions(SPEC, counts, 0, [[10, 0, 8], [12, 0, 9]], [[1, 1, 1]] * 2)
    add_positions(SPEC, counts, 0, [[-5, -6, 0]] * 4, [[1, 1, 0]] * 4)
    c = summarise(SPEC, counts).cell("2nd", "low")
    assert c.values["shed"].value > c.values["duck"].value
    assert (c.best, c.next) == ("duck", "shed") and c.margin.value == 2.5


def test_where_every_action_is_beaten_by_another_the_best_is_the_least_beaten_and_not_decisive():
    counts = np.zeros(SPEC.size, np.int64)
    # a cycle on the positions each pair shares: duck beats win by 1, win beats shed by 2, shed beats duck by 3
    add_positions(SPEC, counts, 0, [[1, 0, 0]] * 5, [[1, 1, 0]] * 5)
    add_positions(SPEC, counts, 0, [[0, 2, 0]] * 5, [[0, 1, 1]] * 5)
    add_positions(SPEC, counts, 0, [[0, 0, 3]] * 5, [[1, 0, 1]] * 5)
    c = summarise(SPEC, counts).cell("2nd", "low")
    assert (c.best, c.next, c.margin.value) == ("win", "duck", -1.0)  # beaten by 1 only
    assert not c.decisive and c.short() == "(win)"
