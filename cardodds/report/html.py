"""The report as one web page: ``reports/index.html``, self-contained (styles, script, data and
SVG charts inline; nothing is fetched), for a player with a phone at the card table.

Each section feeds the page through a fragment, ``<section>.part.html``, made in the
section's staging folder by :func:`fragment` from what the section wrote there: its markdown
(turned into HTML, so the page shows the same figures and intervals), an SVG copy of each
chart (``_common.save`` inside ``_common.page_parts``) and its lookup data
(``<section>.lookup.json``). The fragment is published with the section; :func:`write_page`
then assembles ``index.html`` from every fragment in the folder, in the order of the sections
it is given (``cardodds.report.SECTIONS``: this module is imported by the package), so
``cardodds report --section X`` replaces X's part of the page and keeps the others.
"""

from __future__ import annotations

import html
import json
import os
import re
import unicodedata
from collections.abc import Sequence
from pathlib import Path

from .. import __version__
from .._html import TABLE_CSS
from .lookups import LOOKUPS, SCRIPT

#: Short names of the sections for the navigation bar.
NAV = {"kana": "Känä", "kana_session": "Känä evening", "kanalje": "Kanalje", "canasta": "Canasta odds",
       "canasta_play": "Canasta play", "canasta_advice": "Canasta advice",
       "strategy": "Strategy tables", "equity": "Game equity"}
PAGE = "index.html"

_IMAGE = re.compile(r"^!\[([^\]]*)\]\(([^)\s]+)\)$")
_HEADING = re.compile(r"^(#{1,4}) (.*)$")

# ---- markdown -> HTML (the subset the sections write) -------------------------------------------


def inline(text: str) -> str:
    """Escape ``text`` and mark up its `code` and *emphasis*.

    >>> inline("the *real rule* in `kana.md` <here>")
    'the <em>real rule</em> in <code>kana.md</code> &lt;here&gt;'
    """
    out = []
    for k, part in enumerate(re.split(r"(`[^`]*`)", text)):
        if k % 2:
            out.append(f"<code>{html.escape(part[1:-1], quote=False)}</code>")
        else:
            part = html.escape(part, quote=False)
            out.append(re.sub(r"(?<![\w*])\*(\S[^*]*?)\*(?![\w*])", r"<em>\1</em>", part))
    return "".join(out)


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip()[1:-1].split("|")]


def table(lines: list[str]) -> str:
    """A markdown table as a ``co-table``; every cell carries its column's name (``data-label``),
    so a table too wide for a phone is shown row by row there (the page's CSS).

    >>> print(table(["| a | b |", "|---|---:|", "| x | 1 |"]))
    <table class="co-table"><thead><tr><th>a</th><th class="r">b</th></tr></thead><tbody>
    <tr><td data-label="a">x</td><td data-label="b" class="r">1</td></tr>
    </tbody></table>
    """
    head, rule, rows = _cells(lines[0]), _cells(lines[1]), [_cells(line) for line in lines[2:]]
    right = [c.endswith(":") for c in rule]
    cls = [' class="r"' if r else "" for r in right]
    wide = " stack" if len(head) > 3 else ""
    out = [f'<table class="co-table{wide}"><thead><tr>'
           + "".join(f"<th{c}>{inline(h)}</th>" for h, c in zip(head, cls)) + "</tr></thead><tbody>"]
    for row in rows:
        out.append("<tr>" + "".join(f'<td data-label="{html.escape(h)}"{c}>{inline(v)}</td>'
                                    for h, c, v in zip(head, cls, row)) + "</tr>")
    return "\n".join(out + ["</tbody></table>"])


def slug(text: str, taken: set[str], section: str = "") -> str:
    """An id for a heading, unique in ``taken`` (which it joins); in a ``section``, it begins
    with the section's name, so that no two sections' headings share an id on the page.

    >>> taken = set(); slug("Känä: which card?", taken), slug("Känä: which card?", taken)
    ('kana-which-card', 'kana-which-card-2')
    >>> slug("Kanalje", set(), "strategy"), slug("Kanalje (three players)", set(), "kanalje")
    ('strategy-kanalje', 'kanalje-three-players')
    """
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    base = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-") or "part"
    if section and not base.startswith(section + "-"):
        base = f"{section}-{base}"
    name, k = base, 1
    while name in taken:
        k += 1
        name = f"{base}-{k}"
    taken.add(name)
    return name


def chart(alt: str, svg: str | None) -> str:
    """A chart inline: its SVG titled by ``alt`` (a chart whose SVG is missing says so in words:
    the page loads nothing from outside itself)."""
    if svg is None:
        return f'<p class="missing">[chart: {html.escape(alt)}]</p>'
    body = svg[svg.index("<svg"):]
    body = body.replace("<svg ", f'<svg role="img" aria-label="{html.escape(alt)}" ', 1)
    return f'<figure class="chart">{body.strip()}<figcaption>{html.escape(alt)}</figcaption></figure>'


def scoped(svg: str, prefix: str) -> str:
    """``svg`` with every id it defines begun with ``prefix``, and its references to them
    (``href="#x"``, ``url(#x)``) with it: matplotlib numbers each chart's ids from 1, and the
    page holds many charts.

    >>> scoped('<g id="patch_1"><use xlink:href="#m1"/></g><path id="m1" clip-path="url(#c)"/>', "k-")
    '<g id="k-patch_1"><use xlink:href="#k-m1"/></g><path id="k-m1" clip-path="url(#c)"/>'
    """
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    svg = re.sub(r'\bid="([^"]+)"', lambda m: f'id="{prefix}{m.group(1)}"', svg)
    return re.sub(r'(href="#|url\(#)([^")]+)', lambda m: m.group(1) + (prefix * (m.group(2) in ids)) + m.group(2), svg)


def markdown(text: str, charts: dict[str, str], taken: set[str],
             section: str = "") -> tuple[str, list[tuple[int, str, str]]]:
    """The HTML of a section's markdown and its headings ``(level, id, text)``, their ids begun
    with ``section`` (:func:`slug`); an image whose SVG is in ``charts`` (keyed by the PNG's
    name) is drawn inline.

    >>> body, heads = markdown("# Odds\\n\\nSee `x`.\\n\\n![chart](c.png)", {"c.png": "<svg x></svg>"}, set())
    >>> print(body)
    <h2 id="odds">Odds</h2>
    <p>See <code>x</code>.</p>
    <figure class="chart"><svg role="img" aria-label="chart" x></svg><figcaption>chart</figcaption></figure>
    >>> heads
    [(2, 'odds', 'Odds')]
    """
    blocks: list[list[str]] = [[]]
    for line in text.replace("\r", "").split("\n"):
        if not line.strip():
            blocks.append([])
        elif _HEADING.match(line) or _IMAGE.match(line.strip()):
            blocks += [[line], []]
        elif blocks[-1] and (blocks[-1][0].startswith("|") != line.startswith("|")):
            blocks.append([line])
        else:
            blocks[-1].append(line)
    out, headings = [], []
    for block in filter(None, blocks):
        first = block[0].strip()
        if m := _HEADING.match(first):
            level = len(m.group(1)) + 1  # the page's <h1> is its own title
            hid = slug(m.group(2), taken, section)
            headings.append((level, hid, m.group(2)))
            out.append(f'<h{level} id="{hid}">{inline(m.group(2))}</h{level}>')
        elif m := _IMAGE.match(first):
            out.append(chart(m.group(1), charts.get(m.group(2))))
        elif first.startswith("|"):
            out.append(table(block))
        elif first.startswith("- "):
            out.append("<ul>" + "".join(f"<li>{inline(x[2:])}</li>" for x in block) + "</ul>")
        else:
            out.append(f"<p>{inline(' '.join(x.strip() for x in block))}</p>")
    return "\n".join(out), headings


# ---- a section's fragment ----------------------------------------------------------------------


def fragment(folder: Path, section: str, markdown_name: str) -> Path:
    """Write ``<section>.part.html`` in ``folder`` from the section's markdown, SVG charts and
    lookup data there, and remove those SVG and JSON copies (the PNGs stay for the markdown)."""
    folder = Path(folder)
    svgs = {p.with_suffix(".png").name: p for p in sorted(folder.glob("*.svg"))}
    data_file = folder / f"{section}.lookup.json"
    data = json.loads(data_file.read_text(encoding="utf-8")) if data_file.exists() else None
    charts = {name: scoped(p.read_text(encoding="utf-8"), f"{section}-{p.stem}-") for name, p in svgs.items()}
    body, headings = markdown((folder / markdown_name).read_text(encoding="utf-8"), charts, {section}, section)
    title = headings[0][2] if headings else NAV.get(section, section)
    toc = "".join(f'<li><a href="#{hid}">{inline(text)}</a></li>' for level, hid, text in headings[1:] if level <= 3)
    top = ""  # under the section's title: its lookup first (what a player opens the page for), then its contents
    if data is not None and section in LOOKUPS:
        top += LOOKUPS[section](data)
        top += f'\n<script type="application/json" id="data-{section}">{_json(data)}</script>\n'
    if toc:
        top += f'<nav class="toc" aria-label="In this section"><ul>{toc}</ul></nav>\n'
    end = body.find("</h2>") + len("</h2>\n") if body.startswith("<h2") else 0
    parts = [f'<section id="{section}" class="report" aria-label="{html.escape(title)}">',
             body[:end] + top + body[end:], "</section>", ""]
    path = folder / f"{section}.part.html"
    path.write_text("\n".join(parts), encoding="utf-8")
    for p in list(svgs.values()) + ([data_file] if data is not None else []):
        p.unlink()
    return path


def _json(data) -> str:
    """JSON safe inside a ``<script>`` element (no ``</`` can close it)."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":")).replace("</", "<\\/")


# ---- the page ----------------------------------------------------------------------------------

#: No request can leave the page: everything it needs is inline.
_CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:")

PAGE_CSS = TABLE_CSS + """
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#fff;--muted:#57606a;--accent:#0b5cad;--panel:#f3f5f7;--line:#d0d7de}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0f1216;--muted:#9da7b3;--accent:#6cb6ff;
--panel:#1a1f26;--line:#39414a}}
*{box-sizing:border-box}
[hidden]{display:none!important}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,
sans-serif;overflow-wrap:anywhere}
a{color:var(--accent)}
header.top{position:sticky;top:0;z-index:2;background:var(--bg);border-bottom:1px solid var(--line);
padding:.4em .8em}
header.top h1{font-size:1.05em;margin:0}
header.top nav ul,nav.toc ul{list-style:none;margin:.2em 0 0;padding:0;display:flex;flex-wrap:wrap;gap:.2em .9em}
header.top nav a{text-decoration:none;font-weight:600}
main{max-width:60em;margin:0 auto;padding:0 .8em 3em}
section.report{padding-top:.5em;border-top:3px solid var(--line);margin-top:1.5em;scroll-margin-top:4.5em}
h2,h3,h4{scroll-margin-top:4.5em;line-height:1.25}
h2{font-size:1.45em}h3{font-size:1.2em}h4{font-size:1.05em}
nav.toc{font-size:.9em;color:var(--muted)}
code{font-family:ui-monospace,"DejaVu Sans Mono",Menlo,Consolas,monospace;font-size:.88em;
background:var(--panel);padding:0 .2em;border-radius:3px}
figure.chart{margin:1em 0;background:#fff;color:#000;border-radius:6px;padding:4px}
figure.chart svg{display:block;width:100%;height:auto}
figure.chart figcaption{font-size:.85em;padding:.2em .4em;color:#444}
.lookup{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:.6em .9em;margin:1em 0}
.lookup h3{margin:.1em 0 .4em}
.lookup form{display:flex;flex-wrap:wrap;gap:.5em 1em;align-items:end}
.lookup label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted);min-width:0;max-width:100%}
.lookup select,.lookup input{font:inherit;font-size:1rem;min-height:2.4em;min-width:4.5em;max-width:100%;
color:var(--fg);background:var(--bg);border:1px solid var(--line);border-radius:6px}
.lookup input{width:7em;padding:0 .3em}
.lookup figure.heat{max-width:26em}
.lookup figure.heat:empty{display:none}
pre{max-width:100%;overflow-x:auto}
main img,main svg{max-width:100%}
.lookup .answer{margin:.6em 0 .2em;font-size:1.05em}
.lookup .answer b{font-size:1.15em}
.lookup .note{font-size:.85em;color:var(--muted);margin:.3em 0 0}
.lookup table button{font:inherit;font-weight:600;color:var(--accent);background:none;border:0;padding:0;
cursor:pointer;text-align:inherit}
.lookup table .better{font-weight:600}
p.back{margin:1.5em 0 0;font-size:.9em}
footer{max-width:60em;margin:0 auto;padding:1em .8em 2em;color:var(--muted);font-size:.85em}
@media (max-width:640px){
body{font-size:15px}
header.top{position:static}
section.report,h2,h3,h4{scroll-margin-top:.3em}
.cardodds table.co-table{font-size:.9em}
.cardodds table.stack,.cardodds table.stack tbody,.cardodds table.stack tr,.cardodds table.stack td{display:block;
width:100%}
.cardodds table.stack thead{display:none}
.cardodds table.stack tr{padding:.3em 0;border-bottom:2px solid rgba(128,128,128,.45)}
.cardodds table.stack td{display:grid;grid-template-columns:42% 58%;gap:.5em;text-align:left;border:0;
padding:.12em .2em}
.cardodds table.stack td::before{content:attr(data-label);color:var(--muted);font-size:.88em}
}
@media print{
header.top nav,nav.toc,.lookup form,.lookup .note,p.back{display:none}
header.top{position:static}
body{background:#fff;color:#000;font-size:11pt}
section.report{break-before:page;border:0}
figure.chart,tr{break-inside:avoid}
a{color:#000;text-decoration:none}
}
"""


def page(fragments: dict[str, str]) -> str:
    """The whole page from the sections' fragments (``{section: html}``, in page order)."""
    nav = "".join(f'<li><a href="#{name}">{html.escape(NAV.get(name, name))}</a></li>' for name in fragments)
    # on a phone the header scrolls away: each section ends with the way back to it
    back = '<p class="back"><a href="#top">&uarr; all sections</a></p>'

    return "\n".join([
        "<!doctype html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">',
        '<meta name="color-scheme" content="light dark">',
        "<title>cardodds: the odds at the card table</title>",
        f"<style>{PAGE_CSS}</style>",
        "</head>",
        '<body class="cardodds">',
        '<header class="top" id="top"><h1>cardodds: the odds at the card table</h1>',
        f'<nav aria-label="Sections"><ul>{nav}</ul></nav></header>',
        "<main>",
        *(part + back for part in fragments.values()),
        "</main>",
        f"<footer>Built by <code>cardodds report</code> (cardodds {html.escape(__version__)}). Every figure "
        "carries its 95% interval; the page needs no network.</footer>",
        f"<script>{SCRIPT}</script>",
        "</body>",
        "</html>",
        "",
    ])


def write_page(out: Path, sections: Sequence[str]) -> Path | None:
    """Assemble ``index.html`` in ``out`` from the fragments there of ``sections``, in that
    order (None when there is none); written to a temporary name and moved in, so the page is
    always whole."""
    out = Path(out)
    found = {name: (out / f"{name}.part.html").read_text(encoding="utf-8") for name in sections
             if (out / f"{name}.part.html").exists()}
    if not found:
        return None
    path = out / PAGE
    tmp = out / f".{PAGE}.tmp"
    tmp.write_text(page(found), encoding="utf-8")
    os.replace(tmp, path)
    return path
