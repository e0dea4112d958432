"""Start-up cost of the ``cardodds`` command: wall time and modules imported, before any kernel runs.

    python benchmarks/startup.py [--before OLD_SOURCE_TREE] [--repeats 5] && python benchmarks/collect.py

Each figure is the median wall time of ``--repeats`` fresh interpreters (``python -m
cardodds.cli ...`` exactly as a user's ``cardodds ...`` runs it, Python's bytecode written as an
install has it) and the number of modules ``python -X importtime`` lists. "start-up" rows parse a
command's arguments and import the module its handler calls, which is everything the command does
before its first kernel call.
``--before`` measures a second source tree (e.g. ``git archive <commit> | tar -x -C DIR``) the
same way, in the same run, for a before/after table. Writes ``RESULTS_startup.md``.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _timing import bytecode, installed_env  # noqa: E402
HEAVY = ("numba", "pandas", "matplotlib", "scipy")


def startup(argv: list[str], module: str) -> list[str]:
    return ["-c", f"from cardodds.cli import build_parser; build_parser().parse_args({argv!r}); import {module}"]


CASES = [
    ("cardodds --help", ["-m", "cardodds.cli", "--help"]),
    ("cardodds kana --help", ["-m", "cardodds.cli", "kana", "--help"]),
    ("cardodds kana odds --help", ["-m", "cardodds.cli", "kana", "odds", "--help"]),
    ("cardodds kanalje --help", ["-m", "cardodds.cli", "kanalje", "--help"]),
    ("cardodds canasta --help", ["-m", "cardodds.cli", "canasta", "--help"]),
    ("import cardodds.kana", ["-c", "import cardodds.kana"]),
    ("start-up of cardodds kana odds", startup(["kana", "odds"], "cardodds.kana.analysis")),
    ("start-up of cardodds kana advise", startup(["kana", "advise"], "cardodds.kana.advise")),
    ("start-up of cardodds kanalje risk", startup(["kanalje", "risk"], "cardodds.kanalje.analysis")),
    ("start-up of cardodds canasta melds", startup(["canasta", "melds"], "cardodds.canasta.analysis")),
    ("start-up of cardodds canasta play", startup(["canasta", "play"], "cardodds.canasta.play")),
]


def measure(tree: Path, args: list[str], repeats: int) -> tuple[float, int, list[str]]:
    env = installed_env(tree)
    cmd = [sys.executable, *args]
    walls = []
    for _ in range(repeats):
        t = time.perf_counter()
        subprocess.run(cmd, cwd=tree, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        walls.append(time.perf_counter() - t)
    run = subprocess.run([sys.executable, "-X", "importtime", *args], cwd=tree, env=env, capture_output=True,
                         text=True, check=True)
    names = [ln.rsplit("|", 1)[1].strip() for ln in run.stderr.splitlines() if ln.startswith("import time:")]
    names = [n for n in names if n != "package"]
    heavy = sorted({n.split(".")[0] for n in names if n.split(".")[0] in HEAVY})
    return statistics.median(walls), len(names), heavy


def check_tree(tree: Path) -> None:
    where = subprocess.run([sys.executable, "-c", "import cardodds; print(cardodds.__file__)"], cwd=tree,
                           env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True, check=True)
    if not Path(where.stdout.strip()).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"{tree} does not provide the cardodds that runs there ({where.stdout.strip()})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, default=None, help="an older source tree to measure alongside")
    ap.add_argument("--before-label", default="OLD_TREE", help="how the table names the older tree, e.g. a commit")
    ap.add_argument("--repeats", type=int, default=5)
    a = ap.parse_args()
    trees = {"now": HERE.parent} | ({"before": a.before} if a.before else {})
    for tree in trees.values():
        check_tree(tree)
        bytecode(tree)
    rows = []
    for label, args in CASES:
        figures = {name: measure(tree, args, a.repeats) for name, tree in trees.items()}
        rows.append((label, figures))
        print(label, {k: (round(v[0], 3), v[1], v[2]) for k, v in figures.items()}, file=sys.stderr)
    load = os.getloadavg()
    import numpy
    lines = [
        "# Start-up",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} logical cores, Linux {platform.release()}; Python "
        f"{platform.python_version()}, numpy {numpy.__version__}. Load average after the run: "
        f"{load[0]:.2f}, {load[1]:.2f}, {load[2]:.2f} (shared machine: read the module counts, which do not vary, "
        "before the seconds, which do).",
        "",
        f"Median wall time of {a.repeats} fresh interpreters and the modules `python -X importtime` lists "
        "(interpreter start-up included). Reproduce: `python benchmarks/startup.py"
        + (f" --before OLD_TREE --before-label {a.before_label}` with OLD_TREE from "
           f"`git archive {a.before_label} | tar -x -C OLD_TREE`" if a.before else "`")
        + "; one row by hand, e.g. "
        "`for i in 1 2 3 4 5; do /usr/bin/time -f %e python -m cardodds.cli --help >/dev/null; done`.",
        "",
    ]
    if a.before:
        lines += ["| what runs | before: s | before: modules | now: s | now: modules | heavy modules before / now |",
                  "|---|---:|---:|---:|---:|---|"]
        for label, f in rows:
            b, n = f["before"], f["now"]
            heavy = f"{', '.join(b[2]) or 'none'} / {', '.join(n[2]) or 'none'}"
            lines.append(f"| `{label}` | {b[0]:.2f} | {b[1]:,} | {n[0]:.2f} | {n[1]:,} | {heavy} |")
    else:
        lines += ["| what runs | s | modules | heavy modules |", "|---|---:|---:|---|"]
        for label, f in rows:
            n = f["now"]
            lines.append(f"| `{label}` | {n[0]:.2f} | {n[1]:,} | {', '.join(n[2]) or 'none'} |")
    lines += ["", "\"start-up of X\" runs `python -c \"from cardodds.cli import build_parser; "
              "build_parser().parse_args([...]); import <the handler's module>\"`: what X does before its first "
              "kernel call (a cached kernel then loads on that call)."]
    (HERE / "RESULTS_startup.md").write_text("\n".join(lines) + "\n")
    print(HERE / "RESULTS_startup.md")


if __name__ == "__main__":
    main()
