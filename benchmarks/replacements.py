"""What each of cardodds' replacements of a numba internal saves of a fresh install's first calls.

    python benchmarks/replacements.py [--repeats 3] [--only kanalje] [--out RESULTS_replacements.md]

Every one-question command of ``compile.py`` runs as the program on an empty numba cache, with
every replacement (:data:`cardodds._compiler.REPLACEMENTS`) and with each one left out alone
(``CARDODDS_COMPILER_WITHOUT``), one after the other in a rotating order, ``--repeats`` times.
For each replacement and command: the median compile CPU (numba's compile events) and process
CPU of the first call with and without it, and the median of the paired ratios with their range.
A replacement keeps its place if it saves at least a tenth of some command's compile CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

import compile as _compile  # noqa: E402  (benchmarks/compile.py: the commands and one timed run)

from cardodds._compiler import REPLACEMENTS  # noqa: E402

#: The least share of some command's first-call compile CPU a replacement must save.
EARNS = 0.10


def first_call(argv: list[str], without: str) -> dict:
    """The first call of ``cardodds argv`` on an empty cache, ``without`` a replacement ("" none)."""
    os.environ["CARDODDS_COMPILER_WITHOUT"] = without
    try:
        with tempfile.TemporaryDirectory(prefix="cardodds-numba-") as cache:
            return _compile.run(HERE.parent, argv, cache)
    finally:
        del os.environ["CARDODDS_COMPILER_WITHOUT"]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3, help="first calls of each command in each form (default 3)")
    ap.add_argument("--only", choices=("kana", "kanalje", "canasta"), action="append",
                    help="measure only this game's commands (repeatable)")
    ap.add_argument("--replacement", choices=REPLACEMENTS, action="append",
                    help="measure only this replacement (repeatable)")
    ap.add_argument("--command", type=int, action="append",
                    help="measure only the compile.py command of this index, from 0 (repeatable)")
    ap.add_argument("--out", type=Path, default=HERE / "RESULTS_replacements.md")
    a = ap.parse_args(argv)
    if not 1 <= a.repeats <= 20:
        ap.error(f"--repeats {a.repeats}: give 1 to 20 first calls of each command")
    names = a.replacement or list(REPLACEMENTS)
    forms = ["", *names]
    t0, load = time.perf_counter(), os.getloadavg()
    got: dict = {}
    for i, (game, command) in enumerate(_compile.COMMANDS):
        if a.only and game not in a.only or a.command and i not in a.command:
            continue
        runs = got.setdefault(" ".join(command), {f: [] for f in forms})
        for r in range(a.repeats):
            for f in forms[r % len(forms):] + forms[:r % len(forms)]:
                runs[f].append(first_call(command, f))
            print(f"cardodds {' '.join(command)} ({r + 1}/{a.repeats}): " + ", ".join(
                f"{f or 'all'} {runs[f][-1]['compile']:.2f}" for f in forms), file=sys.stderr, flush=True)
    cmd = " ".join(["python benchmarks/replacements.py", *(sys.argv[1:] if argv is None else argv)])
    a.out.write_text(render(got, names, cmd, a.repeats, load, os.getloadavg(), time.perf_counter() - t0))
    print(a.out)


def _ratios(runs: dict, name: str, key: str) -> list[float]:
    """Paired ratios with/without ``name``: the run with all of them over the run without it."""
    return [w[key] / o[key] for w, o in zip(runs[""], runs[name])]


def render(got: dict, names: list[str], cmd: str, repeats: int, load_before, load_after, seconds: float) -> str:
    import numba

    lines = [
        "# What each replacement of a numba internal saves",
        "",
        f"`{cmd}`, {_compile._when(seconds)}, on "
        f"{_compile._commit()}, numba {numba.__version__}, {_compile._cpu_model()}, {os.cpu_count()} cores, "
        f"load {load_before[0]:.2f} before and {load_after[0]:.2f} after.",
        "",
        "Each command's first call on an empty cache, as the program, with every replacement and with",
        "one left out (`CARDODDS_COMPILER_WITHOUT`), in rotating order. Compile CPU: numba's compile",
        "events (`CARDODDS_COMPILE_LOG`); process CPU: every process of the call. Medians of "
        f"{repeats}; ratio: the median of the paired ratios with / without, and their range.",
        f"A replacement keeps its place if it saves at least {EARNS:.0%} of some command's compile CPU.",
        "",
    ]
    for name in names:
        best = 0.0
        rows = []
        for command, runs in got.items():
            comp, proc = _ratios(runs, name, "compile"), _ratios(runs, name, "cpu")
            best = max(best, 1 - statistics.median(comp))
            without, every = (statistics.median(r["compile"] for r in runs[f]) for f in (name, ""))
            rows.append(f"| `{command}` | {without:.2f} | {every:.2f} "
                        f"| {statistics.median(comp):.2f} ({min(comp):.2f}-{max(comp):.2f}) "
                        f"| {statistics.median(proc):.2f} ({min(proc):.2f}-{max(proc):.2f}) |")
        verdict = "keeps its place" if best >= EARNS else "goes"
        lines += [f"## `{name}`: saves up to {best:.0%} of a first call's compile CPU; {verdict}", "",
                  "| command | compile CPU s without | with | ratio | process CPU ratio |",
                  "|---|---|---|---|---|", *rows, ""]
    return "\n".join(lines)


if __name__ == "__main__":
    main()
