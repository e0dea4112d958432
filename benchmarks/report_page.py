"""What the web page adds to ``cardodds report``: the time spent on its parts, per section.

    python benchmarks/report_page.py [--scale 1] [--out DIR]

Builds the report in-process with the page's steps timed: each chart's SVG copy
(``_common.save_svg``), each section's fragment (``html.fragment``) and the page's assembly
(``html.write_page``). Prints, per section, the section's wall time and the page's share of
it (wall and CPU seconds of those steps; the page's work runs while no simulation does, so
its CPU time is its own even on a busy machine). The number of charts and their points do not
grow with ``--scale``, so the page's seconds are nearly the same at any scale; only the share
needs the full report (``--scale 1``).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from cardodds import report
from cardodds.report import _common, html


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--out", default=None, help="output folder (default: a temporary one)")
    a = ap.parse_args()
    spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    current = {"section": "page"}

    def timed(fn, key=None):
        def wrapper(*args, **kwargs):
            w, c = time.perf_counter(), time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                s = spent[key or current["section"]]
                s[0] += time.perf_counter() - w
                s[1] += time.process_time() - c
        return wrapper

    real_fragment = html.fragment

    def fragment(folder, section, md):
        current["section"] = section
        return real_fragment(folder, section, md)

    _common.save_svg = timed(_common.save_svg)
    html.fragment = timed(fragment)
    html.write_page = timed(html.write_page, "page")
    # name the section as it starts, so its SVGs are credited to it
    real_import = report.importlib.import_module

    def import_module(name, package=None):
        if name.startswith("cardodds.report."):
            current["section"] = name.rsplit(".", 1)[1]
        return real_import(name, package)

    report.importlib.import_module = import_module
    timings: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="cardodds-page-") as tmp:
        out = Path(a.out or tmp)
        report.build(out, scale=a.scale, timings=timings)
        size = (out / "index.html").stat().st_size
    total = sum(timings.values())
    print(f"cardodds report --scale {a.scale:g}: the web page's parts (SVG charts, fragments, assembly)")
    print(f"  {'section':14} {'section wall':>12} {'page wall':>10} {'page CPU':>9} {'share':>7}")
    for name, t in timings.items():
        w, c = spent[name]
        print(f"  {name:14} {t:10.1f} s {w:8.2f} s {c:7.2f} s {100 * w / t:6.1f}%")
    w_all = sum(v[0] for v in spent.values())
    c_all = sum(v[1] for v in spent.values())
    print(f"  {'assembly':14} {'':12} {spent['page'][0]:8.2f} s {spent['page'][1]:7.2f} s")
    print(f"  {'total':14} {total:10.1f} s {w_all:8.2f} s {c_all:7.2f} s {100 * w_all / total:6.1f}%")
    print(f"  index.html: {size:,} bytes")


if __name__ == "__main__":
    main()
