"""Strategy tables: a grid of situations, the best action in each, as in blackjack's basic
strategy chart; Kanalje's and Canasta's ``strategy_table`` (Känä's are in ``kana.decisions``).

A game declares each table as a :class:`TableSpec`: its situations (the cells, one label per
dimension, the first dimension slowest), its actions and the margin within which two actions are
equal for the game. Its kernel draws positions from played games, plays every possible action of
a position out on the same deal, and counts each position in its cell with
``_tally.add_actions`` (the layout of a cell's counts is :data:`CELL`). From those counts
:func:`summarise` gives each cell its verdict by the rule of :mod:`cardodds.verdict` (one look):
the best action, the actions equal within the margin, or undecided; an action seen on fewer
than :data:`MIN_POSITIONS` positions of the cell takes no part. Every cell shows its positions.

>>> spec = TableSpec("t", "A table", "what to do", (("holding", ("low", "high")),), ("duck", "win"), "points", 0.25)
>>> counts = np.zeros(spec.size, np.int64)
>>> add_positions(spec, counts, 1, [[0, 2], [1, 2], [0, 1]] * 10)     # 30 positions of cell "high"
>>> cell = summarise(spec, counts).cells[1]
>>> cell.kind, cell.best, cell.next, cell.positions, round(cell.margin.value, 3), cell.short()
('best', 'win', 'duck', 30, 1.333, 'win +1.33 (30)')
>>> add_positions(spec, counts, 0, [[0, 2]] * 3)                       # 3 positions of cell "low"
>>> summarise(spec, counts).cells[0].short()
'? (3)'
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from itertools import product
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ._fields import rules_words
from ._html import result_html
from .results import Result, counts_field
from .stats import Estimate
from .verdict import critical_value, paired_mean

__all__ = ["CELL", "KINDS", "MIN_POSITIONS", "Cell", "Lookup", "StrategyTable", "StrategyTablesResult",
           "TableSpec", "read_tables", "select", "summarise", "write_tables"]


class CellLayout(NamedTuple):
    """Where a cell's counts sit: the positions, then three actions-by-actions matrices, row
    major. ``both[a, b]``: positions where a and b were both possible (``[a, a]``: where a was);
    ``diff[a, b]``: the sum over those of v_a - v_b (``[a, a]``: of v_a); ``sq[a, b]``: of
    (v_a - v_b)² (``[a, a]``: of v_a²). v is the deciding seat's value of the action."""

    positions: int
    both: int
    diff: int
    sq: int

    def stride(self, n_actions: int) -> int:
        return 1 + 3 * n_actions * n_actions


#: A cell's counts from its start: matrix ``m`` of ``A`` actions begins at ``m * A * A + 1``.
CELL = CellLayout(0, 0, 1, 2)


class TableSpec(NamedTuple):
    """One strategy table: ``name`` (what a user types), ``title``, ``question`` (one line),
    ``dims`` (each a dimension's name and its values' labels), ``actions``, ``unit`` (what a
    margin is counted in: "points a deal") and ``equal_within``: actions whose values differ by
    at most this much (in ``unit``) are equal for the game; ``scale``: the counts' units in one
    ``unit`` (fixed point)."""

    name: str
    title: str
    question: str
    dims: tuple[tuple[str, tuple[str, ...]], ...]
    actions: tuple[str, ...]
    unit: str
    equal_within: float
    scale: float = 1.0

    @property
    def cells(self) -> int:
        return math.prod(len(labels) for _, labels in self.dims)

    @property
    def stride(self) -> int:
        return CELL.stride(len(self.actions))

    @property
    def size(self) -> int:
        return self.cells * self.stride

    def keys(self) -> list[tuple[str, ...]]:
        """Every cell's labels, in the order of the counts."""
        return list(product(*(labels for _, labels in self.dims)))


def select(specs, names) -> list:
    """The specs named (all for None or an empty list); an unknown name is a ValueError."""
    by_name = {s.name: s for s in specs}
    if not names:
        return list(specs)
    if isinstance(names, str):
        names = [names]
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise ValueError(f"no strategy table {unknown[0]!r}: the tables are {', '.join(by_name)}")
    return [by_name[n] for n in dict.fromkeys(names)]


def add_positions(spec: TableSpec, counts: np.ndarray, cell: int, values, possible=None) -> None:
    """Python's twin of ``_tally.add_actions``: count positions (one row of action values each)
    in ``cell``; ``possible`` (rows of 0/1) marks the actions a position allowed (all: None)."""
    A = len(spec.actions)
    at = cell * spec.stride
    for k, row in enumerate(values):
        ok = np.ones(A, bool) if possible is None else np.asarray(possible[k], bool)
        v = np.asarray(row, np.int64)
        counts[at] += 1
        pair = np.outer(ok, ok)
        d = v[:, None] - v[None, :]
        counts[at + 1:at + 1 + A * A] += pair.ravel()
        counts[at + 1 + A * A:at + 1 + 2 * A * A] += np.where(pair, np.where(np.eye(A, dtype=bool), v[:, None], d),
                                                              0).ravel()
        counts[at + 1 + 2 * A * A:at + 1 + 3 * A * A] += np.where(
            pair, np.where(np.eye(A, dtype=bool), v[:, None] ** 2, d * d), 0).ravel()


#: A cell's verdicts: one action is ``"best"``; the actions left are ``"equal"`` within the
#: table's ``equal_within``; ``"undecided"`` at this precision; ``"only"`` one action was seen
#: on enough positions; ``"too few"``: none was; ``"none"``: no position was drawn.
KINDS = ("best", "equal", "undecided", "only", "too few", "none")
#: The positions an action needs in a cell to take part in its verdict (and a pair of actions
#: to be compared): below 20 a t interval on a paired difference is not to be trusted, for a
#: deal's or hand's score is skewed by rare large swings (a jack lost, a canasta missed) that
#: a few positions seldom show, and its Student t quantile grows fast (2.1 at 19 degrees of
#: freedom, 4.3 at 2).
MIN_POSITIONS = 20
#: The widest line of a table's text before its positions print in thousands.
WIDTH = 100
#: The simultaneous intervals' error rate (every comparison with a cell's best at once).
ALPHA = 0.05


@dataclass(frozen=True)
class Cell:
    """One situation: its labels (``key``), the ``positions`` drawn in it, each possible
    action's mean ``values`` (``values[a].n``: the positions where it was possible), and the
    verdict (:data:`KINDS`) by the rule of :mod:`cardodds.verdict` on one look: a simultaneous
    interval (MCB, a Bonferroni share per comparison with the best) on each pair's paired
    difference, on the positions where both were possible; an action another is shown to beat
    is ``excluded``; one left is the best, those left equal within the table's ``equal_within``
    are ``"equal"``, else ``"undecided"``. Actions seen on fewer than :data:`MIN_POSITIONS`
    positions are ``too_few`` and take no part. ``group``: the best, or the actions left, the
    one leading on paired differences first; ``next``: its closest rival and ``margin``, the
    leader's paired edge over it with its simultaneous interval."""

    key: tuple[str, ...]
    positions: int
    values: dict[str, Estimate]
    kind: str
    group: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    too_few: tuple[str, ...] = ()
    next: str | None = None
    margin: Estimate | None = None
    equal_within: float = 0.0

    @property
    def best(self) -> str | None:
        """The action to play: the best, or the only one seen on enough positions (else None)."""
        return self.group[0] if self.kind in ("best", "only") else None

    @property
    def decisive(self) -> bool:
        """One action is shown better than every other seen on enough positions."""
        return self.kind == "best"

    @property
    def verdict(self) -> str:
        """In words: the verdict, its margin, and the actions seen on too few positions."""
        m = "" if self.margin is None else self.margin.format(2, sign=True)
        text = {"none": "no positions",
                "too few": f"too few positions: no action seen on {MIN_POSITIONS} or more",
                "only": f"{self.group[0]}: the only action seen on {MIN_POSITIONS} positions or more",
                "best": f"{self.group[0]}, {m} against {self.next}",
                "equal": f"{' or '.join(self.group)}: equal within {_number(self.equal_within)}",
                "undecided": f"no action is better at this precision ({self.group[0]} {m} against {self.next})",
                }[self.kind]
        if self.too_few:
            few = ", ".join(f"{a} {self.values[a].n}" for a in self.too_few)
            text += f"; seen on too few positions: {few}"
        return text

    @property
    def edge(self) -> str:
        """The best's margin as the grid prints it (``+3.28``; ``+722`` in points a hand), else ""."""
        return _edge(self.margin.value, self.equal_within) if self.kind == "best" and self.margin else ""

    def short(self, compact: bool = False) -> str:
        """The grid's text and the positions behind it (``compact``: in thousands, ``4.8k``):
        ``duck +3.28 (1,098)``, ``duck=win (412)``,
        ``duck/win? (60)``, ``short=+2 (900)`` / ``short?+2`` (three or more: the leader and how
        many more), ``duck only (25)``, ``? (3)``; ``·`` where no position was drawn."""
        n = f" ({_count(self.positions, compact)})"
        if self.kind == "none":
            return "·"
        if self.kind == "too few":
            return "?" + n
        if self.kind == "only":
            return f"{self.group[0]} only" + n
        if self.kind == "best":
            return f"{self.group[0]} {self.edge}" + n if self.margin else self.group[0] + n
        mark = "=" if self.kind == "equal" else "/"
        ask = "" if self.kind == "equal" else "?"
        if len(self.group) == 2:
            return mark.join(self.group) + ask + n
        return f"{self.group[0]}{ask or mark}+{len(self.group) - 1}" + n

    def to_dict(self) -> dict[str, Any]:
        return {"key": list(self.key), "positions": self.positions, "kind": self.kind, "group": list(self.group),
                "best": self.best, "next": self.next, "margin": self.margin.to_dict() if self.margin else None,
                "decisive": self.decisive, "excluded": list(self.excluded), "too_few": list(self.too_few),
                "values": {a: {**e.to_dict(), "positions": e.n} for a, e in self.values.items()}}


def _edge(x: float, equal_within: float) -> str:
    """A margin in the grid, to the precision the table's margin of equality warrants: two
    decimals for a margin under 1, one under 10, none above."""
    return f"{x:+.{2 if equal_within < 1 else 1 if equal_within < 10 else 0}f}"


def _count(n: int, compact: bool = False) -> str:
    """Positions in the grid: 1,098; ``compact``: 973, 4.8k, 48k, 1.2M."""
    if not compact or n < 1000:
        return f"{n:,}"
    return f"{n / 1e3:.1f}k" if n < 9950 else f"{round(n / 1e3)}k" if n < 999_500 else f"{n / 1e6:.1f}M"


def _number(x: float) -> str:
    return f"{x:g}"


def _cell(spec: TableSpec, key, c: np.ndarray, among=None) -> Cell:
    """The verdict of one cell's counts ``c`` (``among``: among those actions only)."""
    A = len(spec.actions)
    n = int(c[CELL.positions])

    def matrix(m):
        return c[1 + m * A * A:1 + (m + 1) * A * A].reshape(A, A)

    both = matrix(CELL.both)
    diff, sq = matrix(CELL.diff) / spec.scale, matrix(CELL.sq) / spec.scale ** 2
    seen = [a for a in range(A) if both[a, a] > 0 and (among is None or spec.actions[a] in among)]
    name = spec.actions
    values = {name[a]: Estimate.mean(float(diff[a, a]), float(sq[a, a]), int(both[a, a])) for a in seen}
    enough = [a for a in seen if both[a, a] >= MIN_POSITIONS]
    too_few = tuple(name[a] for a in seen if both[a, a] < MIN_POSITIONS)

    def made(kind: str, group=(), excluded=(), nxt: int | None = None, margin: Estimate | None = None) -> Cell:
        return Cell(key, n, values, kind, tuple(name[a] for a in group), tuple(name[a] for a in excluded), too_few,
                    None if nxt is None else name[nxt], margin, spec.equal_within)

    if not seen:
        return made("none")
    if len(enough) < 2:
        return made("only" if enough else "too few", enough)
    k = len(enough)
    # v_i - v_j on the positions where both were possible, with its simultaneous interval; a
    # pair that shares fewer than MIN_POSITIONS positions has none (it tells nothing apart)
    edges: dict[tuple[int, int], Estimate] = {}
    for i in enough:
        for j in enough:
            m = int(both[i, j])
            if i != j and m >= MIN_POSITIONS:
                mean, var, df = paired_mean(m, float(diff[i, j]), float(sq[i, j]))
                se = math.sqrt(var)
                h = critical_value(df, ALPHA, 1, k) * se
                edges[i, j] = Estimate(mean, se, mean - h, mean + h, m)

    def beats(i: int, j: int) -> bool:
        return (i, j) in edges and edges[i, j].lo > 0

    def closest(i: int, among: list[int]) -> int | None:
        """The action of ``among`` that ``i`` beats by the least (paired means)."""
        rivals = [j for j in among if (i, j) in edges]
        return min(rivals, key=lambda j: (edges[i, j].value, j)) if rivals else None

    left = [j for j in enough if not any(beats(i, j) for i in enough)]
    if not left:
        # a cycle (each action beaten by another, on different positions): none is told apart
        left = list(enough)
    if len(left) == 1:
        # the one left must beat each rival it shares enough positions with on those positions
        # (an action beaten only by a third, on other positions, is not beaten by it)
        left += [j for j in enough if (left[0], j) in edges and not beats(left[0], j)]

    def lead(i: int) -> tuple:
        j = closest(i, left)
        return (-math.inf if j is None else -edges[i, j].value, i)

    group = sorted(left, key=lead)
    top = group[0]
    if len(left) == 1:
        kind = "best"
    elif all((i, j) in edges and -spec.equal_within <= edges[i, j].lo and edges[i, j].hi <= spec.equal_within
             for i in left for j in left if i != j):
        kind = "equal"
    else:
        kind = "undecided"
    nxt = closest(top, enough if kind == "best" else left)
    return made(kind, group, [a for a in enough if a not in left], nxt, None if nxt is None else edges[top, nxt])


@dataclass(frozen=True)
class StrategyTable:
    """One table's cells (:class:`Cell`, in the order of :meth:`TableSpec.keys`)."""

    spec: TableSpec
    cells: tuple[Cell, ...]
    counts: np.ndarray = field(repr=False, compare=False)

    @property
    def name(self) -> str:
        return self.spec.name

    def cell(self, *key: str, among=None) -> Cell:
        """The cell of ``key`` (one label per dimension); ``among``: its verdict among those
        actions only (a position where the others are not possible)."""
        for i, c in enumerate(self.cells):
            if c.key == tuple(key):
                if among is None:
                    return c
                unknown = [a for a in among if a not in self.spec.actions]
                if unknown:
                    raise ValueError(f"no action {unknown[0]!r} in table {self.name!r}: its actions are "
                                     f"{', '.join(self.spec.actions)}")
                s = self.spec.stride
                return _cell(self.spec, c.key, self.counts[i * s:(i + 1) * s], among)
        dims = ", ".join(f"{d}: {'/'.join(labels)}" for d, labels in self.spec.dims)
        raise ValueError(f"no cell {key!r} in table {self.name!r}: its dimensions are {dims}")

    def to_frame(self):
        """One row a cell: the dimensions, ``kind``, ``group`` (the actions, leader first, joined
        by " / "), ``best``, ``next``, ``margin`` with ``lo``/``hi`` (simultaneous), ``positions``,
        ``decisive``, ``too_few``."""
        import pandas as pd

        rows = []
        for c in self.cells:
            m = c.margin
            rows.append({**dict(zip((d for d, _ in self.spec.dims), c.key)), "kind": c.kind,
                         "group": " / ".join(c.group), "best": c.best, "next": c.next,
                         "margin": m.value if m else math.nan, "lo": m.lo if m else math.nan,
                         "hi": m.hi if m else math.nan, "positions": c.positions, "decisive": c.decisive,
                         "too_few": " / ".join(c.too_few)})
        return pd.DataFrame(rows)

    def kinds(self) -> dict[str, int]:
        """How many cells have each verdict (:data:`KINDS`)."""
        return {k: sum(c.kind == k for c in self.cells) for k in KINDS}

    def grid(self, compact: bool = False) -> tuple[list[str], list[list[str]]]:
        """The chart: a header (``rows \\ columns``, the dimensions down and across, then the
        last dimension's values) and a row for each combination of the others, each cell's
        :meth:`Cell.short` text (``compact``: the positions in thousands)."""
        *rows_dims, (last, cols) = self.spec.dims
        rows = " / ".join(d for d, _ in rows_dims)
        head = [f"{rows} \\ {last}" if rows else last] + list(cols)
        lines = []
        for i in range(0, len(self.cells), len(cols)):
            part = self.cells[i:i + len(cols)]
            lines.append([" / ".join(part[0].key[:-1])] + [c.short(compact) for c in part])
        return head, lines

    def to_dict(self) -> dict[str, Any]:
        s = self.spec
        return {"name": s.name, "title": s.title, "question": s.question, "unit": s.unit,
                "equal_within": s.equal_within, **({"scale": s.scale} if s.scale != 1 else {}),
                "min_positions": MIN_POSITIONS, "alpha": ALPHA,
                "dims": [{"name": d, "values": list(v)} for d, v in s.dims], "actions": list(s.actions),
                "cells": [c.to_dict() for c in self.cells], "counts": [int(x) for x in self.counts]}


def _grid_lines(t: StrategyTable, compact: bool = False) -> list[str]:
    """A table's grid as text: the dimensions on a line of their own (the labels' column stays
    narrow), then the columns' labels and a line a row."""
    head, rows = t.grid(compact)
    head = [""] + head[1:]
    width = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    return ["  " + t.grid()[0][0]] + ["  " + "  ".join(c.ljust(w) for c, w in zip(r, width)).rstrip()
                                     for r in [head] + rows]


def summarise(spec: TableSpec, counts: np.ndarray) -> StrategyTable:
    """The table of ``spec`` from its counts (``spec.size`` int64, cells in key order)."""
    counts = np.asarray(counts, np.int64)
    if counts.shape != (spec.size,):
        raise ValueError(f"table {spec.name!r} needs {spec.size} counts, got {counts.shape}")
    cells = tuple(_cell(spec, key, counts[i * spec.stride:(i + 1) * spec.stride])
                  for i, key in enumerate(spec.keys()))
    return StrategyTable(spec, cells, counts.copy())


@dataclass(frozen=True)
class Lookup:
    """Where a position (the game's ``Position``, as its ``advise`` takes it) falls in a strategy
    table: the ``table``'s name, its ``cell`` (the verdict among the actions the position allows)
    and the option each of those actions plays there (``options``: action -> the option as the
    game's advice names it, e.g. a card)."""

    table: str
    cell: Cell
    options: dict[str, str]

    @property
    def best(self) -> str | None:
        """The option the cell's action to play plays (None: the cell names none, see its ``kind``)."""
        return None if self.cell.best is None else self.options[self.cell.best]

    @property
    def verdict(self) -> str:
        """In words: the table, the cell, its verdict and the option its action to play plays."""
        where = f"{self.table}: {', '.join(self.cell.key)}: {self.cell.verdict}"
        return where if self.best is None else f"{where} (plays {self.best})"


@dataclass(frozen=True, repr=False, kw_only=True)
class StrategyTablesResult(Result):
    """A game's strategy tables (``result["lead"]``), computed by playing every action out with
    ``policies`` on positions drawn from ``samples`` played deals (hands), or read from the
    shipped copy (``shipped``)."""

    game: str
    policies: str
    tables: tuple[StrategyTable, ...]
    unit: str = "deal"
    shipped: bool = False
    counts: dict | None = counts_field(default=None)

    def __getitem__(self, name: str) -> StrategyTable:
        return self.table(name)

    def table(self, name: str) -> StrategyTable:
        for t in self.tables:
            if t.name == name:
                return t
        raise ValueError(f"no strategy table {name!r} here: the tables are {', '.join(t.name for t in self.tables)}")

    def lookup(self, position) -> Lookup | None:
        """The cell of these tables ``position`` (the game's ``Position``) falls in, its best action
        among those the position allows and the option each plays; None when it falls in none
        (the game's ``strategy.cell_of`` classifies it as the tables' kernel does)."""
        from importlib import import_module

        cell_of = getattr(import_module(f"cardodds.{self.game}.strategy"), "cell_of", None)
        if cell_of is None:
            raise ValueError(f"{self.game}'s strategy tables do not read a position")
        found = cell_of([t.name for t in self.tables], position)
        if found is None:
            return None
        name, index, options = found
        t = self.table(name)
        among = list(options) if len(options) < len(t.spec.actions) else None
        return Lookup(name, t.cell(*t.cells[index].key, among=among), options)

    def to_frame(self):
        """One row a cell of every table: ``table``, ``situation`` (the labels joined), then as
        :meth:`StrategyTable.to_frame`."""
        import pandas as pd

        frames = []
        for t in self.tables:
            f = t.to_frame()
            dims = [d for d, _ in t.spec.dims]
            situation = f[dims].astype(str).agg(", ".join, axis=1)
            frames.append(f.drop(columns=dims).assign(table=t.name, situation=situation))
        out = pd.concat(frames, ignore_index=True)
        return out[["table", "situation"] + [c for c in out.columns if c not in ("table", "situation")]]

    def to_dict(self) -> dict[str, Any]:
        d = self.meta()
        d.update({"game": self.game, "question": "table", "policies": self.policies, "unit": self.unit,
                  "shipped": self.shipped, "house_rules": self.house_rules(),
                  "tables": [t.to_dict() for t in self.tables]})
        return d

    def lines(self) -> list[str]:
        """Each table as a titled grid (the positions in thousands where exact counts would make
        it wider than :data:`WIDTH`), then the legend."""
        out = []
        for t in self.tables:
            out += ["", f"{t.spec.title}: {t.spec.question}",
                    f"  margins in {t.spec.unit}, equal within {_number(t.spec.equal_within)}"]
            text = _grid_lines(t)
            if max(len(line) for line in text) > WIDTH:
                text = _grid_lines(t, compact=True)
            out += text
        out += ["", "  (n): the cell's positions; action +m: the best, m better than the next best (simultaneous",
                "  95% intervals); a=b: equal within the margin; a/b?: undecided at this precision; a=+2, a?+2:",
                f"  a and two more; a only: the only action seen on {MIN_POSITIONS}+ positions; ?: none was; "
                "·: none drawn."]
        return out

    def heading(self) -> tuple[str, str]:
        """The title and the line saying how the tables were made."""
        how = f"seed {self.seed}" + (", shipped" if self.shipped else "")
        return (f"{self.game.capitalize()} strategy tables ({how})",
                f"every action played out by {self.policies}, {self.samples:,} {self.unit}s a table")

    def house_rules(self) -> str:
        """The rules that differ from the game's defaults, in words (``''``: the defaults, or no rules)."""
        return "" if self.rules is None else rules_words(self.rules)

    def __repr__(self) -> str:
        title, made = self.heading()
        house = self.house_rules()
        return "\n".join([title, "  " + made] + ([f"  house rules: {house}"] if house else []) + self.lines())

    def _repr_html_(self) -> str:
        return result_html("", self.to_frame(), pre=repr(self))


def write_tables(result: StrategyTablesResult, path) -> Path:
    """Write ``result`` as the shipped copy reads it: its JSON, keys sorted, one trailing newline."""
    path = Path(path)
    d = result.to_dict()
    d["shipped"] = True
    path.write_text(json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n")
    return path


def read_tables(path, specs, rules) -> StrategyTablesResult:
    """The tables written by :func:`write_tables` to ``path``, rebuilt from their counts
    (``specs`` and ``rules``: the game's, which the file must match)."""
    d = json.loads(Path(path).read_text())
    by_name = {s.name: s for s in specs}
    tables = []
    for t in d["tables"]:
        spec = by_name[t["name"]]
        tables.append(summarise(spec, np.asarray(t["counts"], np.int64)))
    return StrategyTablesResult(game=d["game"], policies=d["policies"], tables=tuple(tables), unit=d["unit"],
                                shipped=True,
                                rules=rules, samples=d["samples"], seed=d["seed"], partial=d["partial"],
                                version=d["version"])
