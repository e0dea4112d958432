"""Strategy tables: a grid of situations, the best action in each, as in blackjack's basic
strategy chart; Kanalje's and Canasta's ``strategy_table`` (Känä's are in ``kana.decisions``).

A game declares each table as a :class:`TableSpec`: its situations (the cells, one label per
dimension, the first dimension slowest) and its actions. Its kernel draws positions from played
games, plays every possible action of a position out on the same deal, and counts each position
in its cell with ``_tally.add_actions`` (the layout of a cell's counts is :data:`CELL`). From
those counts :func:`summarise` gives each cell its best action, the paired margin over the next
best with its 95% interval, and the number of positions behind it.

>>> spec = TableSpec("t", "A table", "what to do", (("holding", ("low", "high")),), ("duck", "win"), "points")
>>> counts = np.zeros(spec.size, np.int64)
>>> for values in ([0, 2], [1, 2], [0, 1]):          # three positions of cell "high"
...     add_positions(spec, counts, 1, [values])
>>> cell = summarise(spec, counts).cells[1]
>>> cell.best, cell.next, cell.positions, round(cell.margin.value, 3)
('win', 'duck', 3, 1.333)
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

__all__ = ["CELL", "Cell", "Lookup", "StrategyTable", "StrategyTablesResult", "TableSpec", "read_tables", "select",
           "summarise", "write_tables"]


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
    ``dims`` (each a dimension's name and its values' labels), ``actions``, and ``unit``
    (what a margin is counted in: "points a deal")."""

    name: str
    title: str
    question: str
    dims: tuple[tuple[str, tuple[str, ...]], ...]
    actions: tuple[str, ...]
    unit: str

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


@dataclass(frozen=True)
class Cell:
    """One situation: its labels (``key``), the ``positions`` drawn in it, each possible
    action's mean ``values``, the ``best`` action, the ``next`` best and ``margin``, the best's
    paired edge over the next on the positions where both were possible (None where fewer than
    two actions were). The best is the action whose paired edge over its closest rival is the
    largest (the highest mean where every action was possible on the same positions).
    ``decisive``: the margin's interval lies above zero."""

    key: tuple[str, ...]
    positions: int
    values: dict[str, Estimate]
    best: str | None
    next: str | None
    margin: Estimate | None

    @property
    def decisive(self) -> bool:
        return self.margin is not None and self.margin.lo > 0

    @property
    def verdict(self) -> str:
        """In words: the best action and its margin, or why there is none."""
        if self.best is None:
            return "no positions"
        if self.margin is None:
            return f"{self.best} (the only action)"
        if not self.decisive:
            return f"no difference at this precision ({self.best} {self.margin.format(2, sign=True)})"
        return f"{self.best}, {self.margin.format(2, sign=True)} against {self.next}"

    def short(self) -> str:
        """The grid's text: ``duck +0.31``; ``(duck)`` where no action is better at this precision."""
        if self.best is None:
            return "·"
        if self.margin is None:
            return f"{self.best} only"
        return f"{self.best} {self.margin.value:+.2f}" if self.decisive else f"({self.best})"


def _cell(spec: TableSpec, key, c: np.ndarray, among=None) -> Cell:
    A = len(spec.actions)
    n = int(c[CELL.positions])

    def matrix(m):
        return c[1 + m * A * A:1 + (m + 1) * A * A].reshape(A, A)

    both, diff, sq = matrix(CELL.both), matrix(CELL.diff), matrix(CELL.sq)
    values = {spec.actions[a]: Estimate.mean(float(diff[a, a]), float(sq[a, a]), int(both[a, a]))
              for a in range(A) if both[a, a] > 0 and (among is None or spec.actions[a] in among)}
    if not values:
        return Cell(key, n, {}, None, None, None)
    order = sorted(values, key=lambda a: -values[a].value)
    if len(order) == 1:
        return Cell(key, n, values, order[0], None, None)
    # Each action's paired margin over its closest rival, on the positions where both were
    # possible; the best is the action whose closest margin is the largest. Where every action
    # was possible on the same positions that is the highest mean; where not, the means rest on
    # different positions and may rank two actions against their paired difference.
    paired = {}
    for a in order:
        i = spec.actions.index(a)
        margins = {o: Estimate.mean(float(diff[i, spec.actions.index(o)]), float(sq[i, spec.actions.index(o)]),
                                    int(both[i, spec.actions.index(o)]))
                   for o in order if o != a and both[i, spec.actions.index(o)] > 0}
        if margins:
            nxt = min(margins, key=lambda o: margins[o].value)
            paired[a] = (nxt, margins[nxt])
    if not paired:
        return Cell(key, n, values, order[0], None, None)
    best = max(paired, key=lambda a: (paired[a][1].value, -order.index(a)))
    return Cell(key, n, values, best, *paired[best])


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
        """One row a cell: the dimensions, ``best``, ``next``, ``margin`` with ``lo``/``hi``,
        ``positions``, ``decisive``."""
        import pandas as pd

        rows = []
        for c in self.cells:
            m = c.margin
            rows.append({**dict(zip((d for d, _ in self.spec.dims), c.key)), "best": c.best, "next": c.next,
                         "margin": m.value if m else math.nan, "lo": m.lo if m else math.nan,
                         "hi": m.hi if m else math.nan, "positions": c.positions, "decisive": c.decisive})
        return pd.DataFrame(rows)

    def grid(self) -> tuple[list[str], list[list[str]]]:
        """The chart: a header (``rows \\ columns``, the dimensions down and across, then the
        last dimension's values) and a row for each combination of the others, each cell's
        :meth:`Cell.short` text."""
        *rows_dims, (last, cols) = self.spec.dims
        rows = " / ".join(d for d, _ in rows_dims)
        head = [f"{rows} \\ {last}" if rows else last] + list(cols)
        lines = []
        for i in range(0, len(self.cells), len(cols)):
            part = self.cells[i:i + len(cols)]
            lines.append([" / ".join(part[0].key[:-1])] + [c.short() for c in part])
        return head, lines

    def to_dict(self) -> dict[str, Any]:
        s = self.spec
        return {"name": s.name, "title": s.title, "question": s.question, "unit": s.unit,
                "dims": [{"name": d, "values": list(v)} for d, v in s.dims], "actions": list(s.actions),
                "cells": [{"key": list(c.key), "positions": c.positions, "best": c.best, "next": c.next,
                           "margin": c.margin.to_dict() if c.margin else None, "decisive": c.decisive,
                           "values": {a: e.to_dict() for a, e in c.values.items()}} for c in self.cells],
                "counts": [int(x) for x in self.counts]}


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
        """The option the cell's best action plays (None: no position of the cell was drawn)."""
        return None if self.cell.best is None else self.options[self.cell.best]

    @property
    def verdict(self) -> str:
        """In words: the table, the cell, its verdict and the option its best action plays."""
        where = f"{self.table}: {', '.join(self.cell.key)}"
        if self.cell.best is None:
            return f"{where}: no positions"
        return f"{where}: {self.cell.verdict} (plays {self.best})"


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
        """Each table as a titled grid, then the legend."""
        out = []
        for t in self.tables:
            head, rows = t.grid()
            width = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
            out += ["", f"{t.spec.title}: {t.spec.question}", f"  margins in {t.spec.unit}"]
            out += ["  " + "  ".join(c.ljust(w) for c, w in zip(r, width)).rstrip() for r in [head] + rows]
        out += ["", "  action +m: the best action, m better than the next best (its 95% interval above 0);",
                "  (action): no difference at this precision; ·: no position of this kind was drawn."]
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
