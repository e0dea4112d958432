"""What every report section shares: sample sizes, figure formatting, markdown tables,
charts (saved the same way) and the stage log of ``cardodds report``.

Every estimate in a report is written by :meth:`cardodds.stats.Estimate.format` through
:func:`est` (probabilities and means) or :func:`signed` (differences and gains).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from ..stats import Estimate

#: Local chart style: the sections of one report run must not change each other's charts.
STYLE = {"font.size": 9}


def plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as pyplot

    return pyplot


def figure(figsize=(7, 3.5), ncols: int = 1, **kwargs):
    """A figure whose titles, labels and legends are laid out inside it (nothing clipped)."""
    return plt().subplots(1, ncols, figsize=figsize, layout="constrained", **kwargs)


#: True while :func:`cardodds.report.build` writes a section: charts are then also kept as SVG
#: and lookup data as JSON, the parts of the web page. A section written on its own (``write``
#: called directly) leaves only its markdown and PNGs.
_PAGE_PARTS = False


@contextmanager
def page_parts() -> Iterator[None]:
    """Keep the web page's parts (SVG charts, lookup data) beside the markdown while inside."""
    global _PAGE_PARTS
    _PAGE_PARTS, before = True, _PAGE_PARTS
    try:
        yield
    finally:
        _PAGE_PARTS = before


def save(fig, path: Path, dpi: int = 110) -> None:
    """Write a chart as PNG, reproducibly (no software stamp), and close it; inside
    :func:`page_parts` also as ``<name>.svg`` for the web page (after the PNG: the PNG stays
    what it was). In a warm-up task (:mod:`cardodds.warmup`), whose files are thrown away, the
    chart is closed undrawn: drawing compiles no kernel, and it costs CPU."""
    from ..warmup import in_task

    if in_task():
        plt().close(fig)
        return
    fig.set_dpi(dpi)
    fig.canvas.draw()  # a first layout pass, so tick labels have their final size when laid out
    fig.savefig(path, dpi=dpi, metadata={"Software": None})
    if _PAGE_PARTS:
        save_svg(fig, Path(path).with_suffix(".svg"))
    plt().close(fig)


def save_svg(fig, path: Path) -> None:
    """A chart as SVG, byte for byte the same on every run: no date, ids hashed from a fixed
    salt (the file's name, so the charts of one page never share an id), text kept as text
    (a fraction of the size of glyph outlines, and it can be searched and read aloud)."""
    with plt().rc_context({"svg.hashsalt": path.stem, "svg.fonttype": "none", "svg.id": path.stem}):
        fig.savefig(path, format="svg", metadata={"Date": None, "Creator": None})


def page_data(outdir: Path, section: str, data) -> None:
    """The data a section's lookups read on the web page, as ``<section>.lookup.json`` (only
    inside :func:`page_parts`)."""
    if _PAGE_PARTS:
        text = json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        (Path(outdir) / f"{section}.lookup.json").write_text(text, encoding="utf-8")


def label(ax, xlabel: str, ylabel: str, title: str, legend: str | None = "right", integer_x: bool = False) -> None:
    """Axis labels, title and legend of a chart; ``legend="right"`` puts it beside the plot,
    clear of the data, another value is a matplotlib ``loc`` inside it, None: no legend."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if integer_x:
        integer_ticks(ax.xaxis)
    if legend == "right":
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
    elif legend is not None:
        ax.legend(fontsize=8, loc=legend)


def integer_ticks(axis) -> None:
    """Ticks on whole numbers only (an axis counting turns, cards or deals)."""
    from matplotlib.ticker import MaxNLocator

    axis.set_major_locator(MaxNLocator(integer=True))


def samples(base: int, scale: float, least: int, task: int | None = None) -> int:
    """``base`` samples scaled, never fewer than ``least``; ``task`` samples instead in a warm-up
    task (:mod:`cardodds.warmup`), for a run whose floor is most of the task's time: a task's
    figures are thrown away, and its kernels compile the same for any count."""
    if task is not None:
        from ..warmup import in_task

        if in_task():
            return task
    return max(int(base * scale), least)


def est(e: Estimate, digits: int = 4) -> str:
    """``value [lo, hi]`` or ``value (exact)``."""
    return e.format(digits)


def signed(e: Estimate, digits: int = 4) -> str:
    """``+value [+lo, +hi]``: a difference or a gain."""
    return e.format(digits, sign=True)


def pct(e: Estimate, digits: int = 2) -> str:
    """A probability in percent: ``85.32% [85.10, 85.54]``, an exact one ``85.32%``."""
    if e.exact:
        return f"{100 * e.value:.{digits}f}%"
    return e.format(digits + 2, percent=True)


def md_table(header: Sequence[str], rows: Iterable[Sequence[object]], align: str | None = None) -> list[str]:
    """A markdown table: the header, the rule (``align``: one of ``l`` / ``r`` per column) and rows."""
    rule = "|" + "".join("---:|" if a == "r" else "---|" for a in (align or "l" * len(header)))
    return ["| " + " | ".join(header) + " |", rule] + ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]


class Stages:
    """Names each stage of a section on stderr: ``kanalje [2/6] strength matches``."""

    def __init__(self, section: str, total: int, log: bool):
        self.section, self.total, self.log, self.done = section, total, log, 0

    def __call__(self, text: str) -> None:
        self.done += 1
        if self.log:
            print(f"{self.section} [{self.done}/{self.total}] {text}", file=sys.stderr, flush=True)


def write_section(outdir: Path, name: str, data, charts: Sequence, lines: list[str]) -> Path:
    """Draw each ``(filename, chart)`` of ``charts`` (``chart(data)`` returns a figure) in the
    shared style into ``outdir``, then write ``lines`` as ``<name>.md``; returns its path."""
    with plt().rc_context(STYLE):
        for filename, chart in charts:
            save(chart(data), outdir / filename)
    path = outdir / f"{name}.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path
