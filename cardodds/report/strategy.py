"""The strategy tables section of the reports: Kanalje's and Polish Canasta's shipped tables
(``reports/strategy.md``), each as a coloured grid and a table, and the page's lookup.

The section reads the tables shipped with the package (``strategy_table()``, built once by
``cardodds <game> table --build``): it plays no deal, so the report's seed and scale do not
change it.
"""

from __future__ import annotations

from pathlib import Path

from .. import __version__
from ..strategy import MIN_POSITIONS
from ._common import STYLE, Stages, md_table, page_data, plt, save

#: The games whose tables the section shows, in page order: (package, the name printed).
GAMES = (("kanalje", "Kanalje"), ("canasta", "Polish Canasta"))
DPI = 100
#: An action's colour in the grids (the n-th action of a table: the same colour on every chart).
COLOURS = ("#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860")


def write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool = False) -> Path:
    """Write ``strategy.md`` and its charts into ``outdir``; returns the markdown's path."""
    outdir = Path(outdir)
    stage = Stages("strategy", 1, log)
    stage("the shipped tables")
    results = shipped_tables()
    lines = _intro()
    with plt().rc_context(STYLE):
        for (game, name), result in zip(GAMES, results):
            lines += [f"## {name}", "", _source(game, result), ""]
            for t in result.tables:
                chart = f"strategy_{game}_{t.name}.png"
                save(grid_chart(t), outdir / chart, dpi=DPI)
                lines += table_lines(t, chart)
    page_data(outdir, "strategy", lookup_data(results))
    path = outdir / "strategy.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def shipped_tables() -> list:
    """Each game of :data:`GAMES`: its shipped strategy tables."""
    from importlib import import_module

    return [import_module(f"cardodds.{game}").strategy_table() for game, _ in GAMES]


def _intro() -> list[str]:
    return [
        "# Strategy tables: Kanalje and Polish Canasta",
        "",
        (f"Shipped with cardodds {__version__}, for the default rules. Like blackjack's basic strategy chart, "
         "each table is a grid of situations with the best action in each. A cell's positions were drawn from "
         "played deals (hands); every action possible there was played out on the same deal, so the margin of the "
         "best action over the next best is a paired difference, shown with a simultaneous 95% interval (every "
         "comparison with the cell's best at once). A cell names its best action only when it is shown better "
         "than every other; `a=b`: the actions are equal within the table's margin; `a/b?`: undecided at this "
         f"precision (in the charts: pale, marked = or ?); an action seen on fewer than {MIN_POSITIONS} of the "
         "cell's positions takes no part (`?`: none had that many). Each cell shows the positions it rests on; "
         "a blank cell had no position drawn. Look a situation up "
         "with `cardodds kanalje table` or `cardodds canasta table`; `--build` computes the tables for other "
         "house rules."),
        "",
    ]


def _source(game: str, r) -> str:
    return (f"Every action played out by `{r.policies}`, {r.samples:,} {r.unit}s a table, seed {r.seed}: "
            f"`cardodds {game} table --build` rebuilds them.")


def table_lines(t, chart: str) -> list[str]:
    """A table's heading, question, chart and grid as markdown."""
    head, rows = t.grid()
    margins = f"Margins in {t.spec.unit}, equal within {t.spec.equal_within:g}."
    return [f"### {t.spec.title}", "", f"{t.spec.question} {margins}", "",
            f"![{t.spec.title}: the best action in each situation]({chart})", "",
            *md_table(head, rows), ""]


#: A cell's mark in the charts, by its verdict (a best shows its margin).
MARKS = {"best": "", "equal": "=", "undecided": "?", "only": "only", "too few": "?", "none": ""}


def grid_chart(t):
    """A table as a coloured grid: each cell the colour of its best action (of the leader where
    the actions left are equal or undecided: pale, marked = or ?), white where no action was
    seen on enough positions or none was drawn."""
    from matplotlib.patches import Patch, Rectangle

    head, rows = t.grid()
    n_rows, n_cols = len(rows), len(head) - 1
    fig, ax = plt().subplots(figsize=(1.6 + 1.25 * n_cols, 0.9 + 0.42 * n_rows), layout="constrained")
    for i in range(n_rows):
        for j in range(n_cols):
            cell = t.cells[i * n_cols + j]
            lead = cell.group[0] if cell.group else None
            colour = COLOURS[t.spec.actions.index(lead) % len(COLOURS)] if lead else "white"
            alpha = 0.9 if cell.decisive else 0.3
            ax.add_patch(Rectangle((j, i), 1, 1, facecolor=colour, alpha=alpha, edgecolor="white", linewidth=1.5))
            text = cell.edge or MARKS.get(cell.kind, "")
            ax.text(j + 0.5, i + 0.5, text, ha="center", va="center", fontsize=8)
    ax.set_xlim(0, n_cols)
    ax.set_ylim(n_rows, 0)
    ax.set_xticks([j + 0.5 for j in range(n_cols)], t.spec.dims[-1][1], fontsize=8)
    ax.set_yticks([i + 0.5 for i in range(n_rows)], [r[0] for r in rows], fontsize=8)
    ax.xaxis.tick_top()
    ax.set_xlabel(t.spec.dims[-1][0])
    ax.xaxis.set_label_position("top")
    ax.set_ylabel(" / ".join(d for d, _ in t.spec.dims[:-1]))
    ax.tick_params(length=0)
    for side in ax.spines.values():
        side.set_visible(False)
    ax.set_title(t.spec.title, fontsize=10)
    shown = [a for a in t.spec.actions if any(c.group and c.group[0] == a for c in t.cells)]
    ax.legend(handles=[Patch(facecolor=COLOURS[t.spec.actions.index(a) % len(COLOURS)], label=a) for a in shown],
              loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    return fig


def lookup_data(results) -> dict:
    """The lookup's data: for each game and table, its dimensions and every cell's answer
    (:func:`answer`)."""
    games: list[dict] = []
    for (game, name), r in zip(GAMES, results):
        tables = []
        for t in r.tables:
            cells = [answer(c, t.spec.unit) for c in t.cells]
            tables.append({"name": t.name, "title": t.spec.title, "question": t.spec.question,
                           "dims": [[d, list(v)] for d, v in t.spec.dims], "cells": cells})
        games.append({"game": game, "name": name, "tables": tables})
    return {"games": games, "dims": max(len(t.spec.dims) for r in results for t in r.tables)}


def answer(c, unit: str) -> list:
    """A cell as the lookup prints it: the action (or actions), the margin, the verdict in
    words and the positions behind it."""
    m = "" if c.margin is None else f"{c.margin.format(2, sign=True)} {unit} against {c.next}"
    within = f"{c.equal_within:g} {unit}"
    action, verdict = {
        "none": ("no position of this kind was drawn", ""),
        "too few": ("too few positions to say", f"no action was seen on {MIN_POSITIONS} positions or more here"),
        "only": (c.group[0] if c.group else "", f"the only action seen on {MIN_POSITIONS} positions or more here"),
        "best": (c.group[0] if c.group else "", "better than every other action at this precision"),
        "equal": (" or ".join(c.group), f"equal within {within}: any of them will do"),
        "undecided": (" or ".join(c.group), "no action is better at this precision"),
    }[c.kind]
    if c.kind in ("too few", "only", "none"):
        m = ""
    few = "" if not c.too_few else "; too few to count: " + ", ".join(f"{a} ({c.values[a].n:,})" for a in c.too_few)
    return [action, m, verdict, f"from {c.positions:,} positions{few}"]
