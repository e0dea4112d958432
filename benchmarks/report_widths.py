"""Compare the width of every interval two builds of the reports print.

    python benchmarks/report_widths.py OLD_DIR NEW_DIR [--section kanalje ...]

Every ``[lo, hi]`` in ``OLD_DIR/<section>.md`` is paired with the one at the same place in
``NEW_DIR/<section>.md``: same line once its numbers are blanked out (so a row keeps its place
when its figures or sample counts change), same position on that line. A new interval wider than
the old by more than the rounding of the printed digits is a regression; one wider by at most one
unit of the last printed digit is listed apart as rounding. Intervals present in one build only
are listed too. Exit status 1 when any interval got wider or went missing.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

SECTIONS = ("kana", "kana_session", "kanalje", "canasta", "canasta_play", "canasta_advice")
INTERVAL = re.compile(r"\[([+-]?\d[\d,]*(?:\.\d+)?)%?, ([+-]?\d[\d,]*(?:\.\d+)?)%?\]")
NUMBER = re.compile(r"[+-]?\d[\d,]*(?:\.\d+)?")


def _unit(text: str) -> float:
    """One unit of the last digit printed in ``text`` (0.001 for ``0.327``, 1 for ``12``)."""
    return 10.0 ** -len(text.split(".")[1]) if "." in text else 1.0


def intervals(path: Path) -> dict[tuple[str, int], tuple[float, float, str]]:
    """``(blanked line, position on it) -> (width, one printed unit, the interval as printed)``."""
    found: dict[tuple[str, int], tuple[float, float, str]] = {}
    seen: dict[str, int] = defaultdict(int)
    for line in path.read_text(encoding="utf-8").splitlines():
        key = NUMBER.sub("#", line)
        for i, m in enumerate(INTERVAL.finditer(line)):
            lo, hi = (float(g.replace(",", "")) for g in m.groups())
            occurrence = seen[key]
            found[(f"{key}@{occurrence}", i)] = (hi - lo, max(_unit(m.group(1)), _unit(m.group(2))), m.group(0))
        seen[key] += 1
    return found


def compare(old: Path, new: Path) -> dict[str, list[str]]:
    """The intervals of ``new`` wider than in ``old`` (``wider``), wider by rounding only
    (``rounding``), narrower or equal (counted in ``same_or_narrower``) and unmatched."""
    a, b = intervals(old), intervals(new)
    out: dict[str, list[str]] = {"wider": [], "rounding": [], "same_or_narrower": [], "missing": [], "added": []}
    for key, (w_old, unit, text_old) in a.items():
        if key not in b:
            out["missing"].append(f"{text_old}  on  {key[0].rsplit('@', 1)[0].strip()[:90]}")
            continue
        w_new, unit_new, text_new = b[key]
        slack = 1e-9 + max(unit, unit_new)
        where = key[0].rsplit("@", 1)[0].strip()[:90]
        if w_new <= w_old + 1e-12:
            out["same_or_narrower"].append(where)
        elif w_new <= w_old + slack:
            out["rounding"].append(f"{text_old} -> {text_new}  on  {where}")
        else:
            out["wider"].append(f"{text_old} -> {text_new}  on  {where}")
    out["added"] = [f"{b[k][2]}  on  {k[0].rsplit('@', 1)[0].strip()[:90]}" for k in b if k not in a]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="folder of the earlier build (e.g. a checkout's reports/)")
    ap.add_argument("new", type=Path, help="folder of the new build")
    ap.add_argument("--section", action="append", choices=SECTIONS, help="only this section (repeatable)")
    a = ap.parse_args()
    bad = False
    for name in a.section or SECTIONS:
        old, new = a.old / f"{name}.md", a.new / f"{name}.md"
        if not (old.exists() and new.exists()):
            print(f"{name}: not in both folders, skipped")
            continue
        res = compare(old, new)
        print(f"{name}: {len(res['same_or_narrower'])} same or narrower, {len(res['rounding'])} wider by rounding "
              f"only, {len(res['wider'])} wider, {len(res['missing'])} missing, {len(res['added'])} added")
        for kind in ("wider", "missing", "rounding", "added"):
            for line in res[kind]:
                print(f"  {kind}: {line}")
        bad |= bool(res["wider"] or res["missing"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
