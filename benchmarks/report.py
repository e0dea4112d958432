"""The main job's wall time, per section, warm and on an empty compile cache.

    python benchmarks/report.py [--warm-only] && python benchmarks/collect.py

Runs ``cardodds report`` exactly as a user does (``python -m cardodds.cli report``) into a
scratch folder: first with an empty numba cache folder (``NUMBA_CACHE_DIR``; what a fresh install
pays), then again with that folder filled (every later rebuild). Each section's wall time is read
from the table the command prints at its end; the load average is recorded beside it. The
reports it writes are then compared with the committed ``reports/`` by
``benchmarks/report_widths.py`` (no interval may be wider). Writes ``RESULTS_report.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from report_widths import SECTIONS, compare  # noqa: E402


def run_report(out: Path, cache: str | None) -> tuple[dict[str, float], float, float]:
    """Section wall times, total wall and CPU seconds of one ``cardodds report`` into ``out``."""
    env = dict(os.environ)
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "cardodds.cli", "report", "--out", str(out), "--no-progress"],
                         env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0:
        raise SystemExit(f"cardodds report failed ({run.returncode}): {run.stderr.strip()[-400:]}")
    sections = {}
    for line in run.stdout.splitlines():
        words = line.split()
        if len(words) >= 3 and words[0] in SECTIONS and words[-1] == "s":
            sections[words[0]] = float(words[-2])
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return sections, wall, cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--warm-only", action="store_true", help="skip the empty-cache run (uses numba's usual cache)")
    a = ap.parse_args()
    runs = {}
    loads = {}
    with tempfile.TemporaryDirectory(prefix="cardodds-report-") as tmp:
        out = Path(tmp) / "reports"
        cache = None if a.warm_only else str(Path(tmp) / "numba")
        if not a.warm_only:
            loads["empty cache"] = os.getloadavg()[0]
            runs["empty cache"] = run_report(out, cache)
            print(f"empty cache: {runs['empty cache'][1]:.0f} s", file=sys.stderr)
        else:
            run_report(out, cache)  # fills numba's usual cache if it is empty
        loads["warm"] = os.getloadavg()[0]
        runs["warm"] = run_report(out, cache)
        print(f"warm: {runs['warm'][1]:.0f} s", file=sys.stderr)
        widths = {name: compare(HERE.parent / "reports" / f"{name}.md", out / f"{name}.md") for name in SECTIONS
                  if (out / f"{name}.md").exists() and (HERE.parent / "reports" / f"{name}.md").exists()}
    import numba
    load = os.getloadavg()
    labels = list(runs)
    lines = [
        "# The main job: `cardodds report`",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} logical cores, Linux {platform.release()}; Python "
        f"{platform.python_version()}, numba {numba.__version__}. Load average (1 min) when each run started: "
        + ", ".join(f"{k} {v:.2f}" for k, v in loads.items())
        + f"; {load[0]:.2f} after (2 cores; another process holding a core slows the wall times).",
        "",
        "Wall seconds per section, as `cardodds report` prints them at its end; `empty cache` is the first "
        "run after installing (numba compiles the sections' kernels in one process per core, and each section is "
        "built once its own are compiled, while the others compile: its row includes that sharing of the cores, "
        "and only the whole command's rows include the wait for the first), `warm` a later rebuild. "
        "Reproduce: `python benchmarks/report.py`.",
        "",
        "| section | " + " | ".join(f"{k}: s" for k in labels) + " |",
        "|---|" + "---:|" * len(labels),
    ]
    for name in SECTIONS:
        if all(name in runs[k][0] for k in labels):
            lines.append(f"| {name} | " + " | ".join(f"{runs[k][0][name]:.1f}" for k in labels) + " |")
    lines.append("| whole command, wall | " + " | ".join(f"{runs[k][1]:.1f}" for k in labels) + " |")
    lines.append("| whole command, CPU (both cores) | " + " | ".join(f"{runs[k][2]:.1f}" for k in labels) + " |")
    lines += ["", "Intervals of this build against the committed `reports/` (`python benchmarks/report_widths.py "
              "reports NEW_DIR`): "
              + "; ".join(f"{name}: {len(r['wider'])} wider, {len(r['rounding'])} wider by rounding only, "
                          f"{len(r['same_or_narrower'])} same or narrower, {len(r['missing'])} missing"
                          for name, r in widths.items()) + "."]
    (HERE / "RESULTS_report.md").write_text("\n".join(lines) + "\n")
    print(HERE / "RESULTS_report.md")


if __name__ == "__main__":
    main()
