"""The one table style of cardodds' HTML: the report's web page (``reports/index.html``) and
every result's ``_repr_html_`` in Jupyter draw their tables with :data:`TABLE_CSS`.

The colours are translucent greys, so the same table reads on a light or a dark background
(a notebook's theme is not the system's colour scheme, which the page follows).

>>> import pandas as pd
>>> out = result_html("Two coins", pd.DataFrame({"heads": [0.5]}), index=False)
>>> out.startswith('<div class="cardodds"><style>') and '<table class="co-table">' in out
True
>>> '<td class="r">0.5000</td>' in out
True
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from typing import Any

__all__ = ["TABLE_CSS", "result_html"]

#: Tables of the page and of Jupyter: one definition (numbers right-aligned in ``td.r``).
TABLE_CSS = (
    ".cardodds table.co-table{border-collapse:collapse;margin:.6em 0;font-variant-numeric:tabular-nums;"
    "font-size:.92em;line-height:1.35}"
    ".cardodds table.co-table th,.cardodds table.co-table td{padding:.3em .6em;text-align:left;vertical-align:top;"
    "border:0;border-bottom:1px solid rgba(128,128,128,.3)}"
    ".cardodds table.co-table th{font-weight:600;border-bottom:2px solid rgba(128,128,128,.6)}"
    ".cardodds table.co-table .r{text-align:right}"
    ".cardodds table.co-table tbody tr:nth-child(even){background:rgba(128,128,128,.08)}"
    ".cardodds .co-head{font-weight:600;margin:.4em 0}"
)

_NUMBER = re.compile(r"^[+-]?[\d.,]+(e[+-]?\d+)?%?$")


def _cell(text: str, tag: str = "td") -> str:
    cls = ' class="r"' if _NUMBER.match(text.strip()) else ""
    return f"<{tag}{cls}>{html.escape(text)}</{tag}>"


def frame_table(frame, float_format: Callable[[float], str] | None = None, index: bool = True) -> str:
    """A pandas frame as a ``co-table`` (numbers right-aligned, floats to 4 places by default).

    >>> import pandas as pd
    >>> frame_table(pd.DataFrame({"p": [0.25]}, index=["seat 0"])).split("<tbody>")[1]
    '<tr><th>seat 0</th><td class="r">0.2500</td></tr></tbody></table>'
    """
    fmt = float_format or (lambda x: f"{x:.4f}")

    def text(v: Any) -> str:
        return fmt(v) if isinstance(v, float) else str(v)

    names = [str(c) for c in frame.columns]
    head = ([""] if index else []) + names
    rows = []
    for key, row in frame.iterrows():
        cells = ([f"<th>{html.escape(str(key))}</th>"] if index else []) + [_cell(text(v)) for v in row.tolist()]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return ('<table class="co-table"><thead><tr>' + "".join(f"<th>{html.escape(h)}</th>" for h in head)
            + "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>")


def result_html(head: str, frame, float_format: Callable[[float], str] | None = None, index: bool = True,
                pre: str | None = None) -> str:
    """A result in Jupyter: its heading (``pre``: a block of text kept as printed, e.g. a
    repr) and its frame, in the page's table style."""
    top = f'<p class="co-head">{html.escape(head)}</p>' if head else ""
    if pre:
        top += f"<pre>{html.escape(pre)}</pre>"
    return f'<div class="cardodds"><style>{TABLE_CSS}</style>{top}{frame_table(frame, float_format, index)}</div>'
