"""Where a fresh install's first answers wait: numba compile time, kernel by kernel.

    python benchmarks/compile.py [--before OLD_TREE] [--before-extra ARGS] [--repeats 5] [--no-report] [--only kana]

Every command a user runs first, and the main job (``cardodds report``), runs as typed, as the
program a user starts (``cardodds.cli.main()``), in a fresh interpreter with an empty numba
cache (``NUMBA_CACHE_DIR`` a new folder: the first call after installing; Python's bytecode
written, as an install writes it), then again with that
cache filled (every later call). Each compile is logged (``CARDODDS_COMPILE_LOG``, through
``_compile_probe.py``, in every process the command starts): the kernel, its argument types and
its CPU seconds without those of the kernels it compiled meanwhile. With ``--before`` the same
runs are made on an older tree (a git worktree), each command in both trees one after the other,
so the ratios compare like with like on a shared machine. One such pair scatters by about a
tenth on a noisy machine, so every command is measured ``--repeats`` times, the trees taking
turns to go first, and the table gives the medians and the median of the paired ratios with
their range (the main job, minutes long, once). Writes ``RESULTS_compile.md``: per command,
first-call wall and CPU seconds, compile CPU seconds and the warm wall time; for the main job
the same, its fresh/warm ratio, the share of its fresh wall time spent compiling, and every
kernel it compiles, sorted, with the total.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBE = HERE / "_compile_probe.py"
sys.path.insert(0, str(HERE))
from _timing import bytecode, installed_env  # noqa: E402

_HAND = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"
_PHASE2 = "1: 9d 3d; 1: 4d 2d; 1: Kh 7h; 1: 5c 6c; 0: Th 9h; 0: Qd 6d; 0: 7d Jc; 1: 5s 4s; 1: 8h Qh; 0: Jd"
#: (game, arguments after ``cardodds``): the commands that answer one question, as the docs type them.
COMMANDS = [
    ("kana", ["kana", "odds", "--players", "4", "--samples", "200000", "--seed", "1"]),
    ("kana", ["kana", "advise", "--players", "4", "--seat", "2", "--hand", "9h,?,?", "--kanad", "5c,Kd", "--seed",
              "1"]),
    ("kanalje", ["kanalje", "risk", "--policies", "random", "--seed", "1"]),
    ("kanalje", ["kanalje", "risk", "--policies", "heuristic", "--seed", "1"]),
    ("kanalje", ["kanalje", "risk", "--players", "2", "--seed", "1"]),
    ("kanalje", ["kanalje", "risk", "--policies", "lookahead,heuristic,heuristic", "--samples", "200", "--seed", "1"]),
    ("kanalje", ["kanalje", "risk", "--policies", "pimc,heuristic,heuristic", "--samples", "20", "--seed", "1"]),
    ("kanalje", ["kanalje", "hand", "--hand", _HAND, "--turned", "7h", "--seed", "1"]),
    ("kanalje", ["kanalje", "advise", "--seat", "0", "--hand", _HAND, "--turned", "7h", "--seed", "1"]),
    ("kanalje", ["kanalje", "advise", "--players", "2", "--seat", "1", "--hand",
                 "As Ks 3s 4c 8c Tc 2d 6d 9d Qd 5h 8h Ah", "--faceup", "Jh", "--played", "0: Qs", "--seed", "7"]),
    ("kanalje", ["kanalje", "advise", "--players", "2", "--seat", "1", "--hand", "6h 8s Jh Qs", "--trump", "2c",
                 "--played", _PHASE2, "--seed", "7"]),
    ("canasta", ["canasta", "melds", "--samples", "200000", "--seed", "1"]),
    ("canasta", ["canasta", "hand", "--hand", "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", "--turns", "3", "--samples",
                 "20000", "--seed", "1"]),
    ("canasta", ["canasta", "play", "--policies", "heuristic", "--seed", "1"]),
    ("canasta", ["canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b 4", "--melds", "us: A A A; them: 8 8 8",
                 "--pile", "Jk 2 2 A A ? ? 9 K", "--counts", "10,9,11", "--known", "1: Q Q", "--score", "9200,8800",
                 "--seed", "1"]),
]
REPORT = ["report", "--no-progress"]


def run(tree: Path, argv: list[str], cache: str, out: Path | None = None) -> dict:
    """Wall and CPU seconds of ``cardodds argv`` on ``tree`` with numba's cache in ``cache``,
    and the compiles it logged (every process it started)."""
    with tempfile.NamedTemporaryFile(prefix="cardodds-compiles-", suffix=".jsonl", delete=False) as f:
        log = f.name
    env = dict(installed_env(tree), NUMBA_CACHE_DIR=cache, CARDODDS_COMPILE_LOG=log)
    args = argv + (["--out", str(out)] if out is not None else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    done = subprocess.run([sys.executable, str(PROBE), *args], env=env, capture_output=True, text=True, cwd=tree)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"cardodds {' '.join(argv)} failed on {tree} ({done.returncode}): {done.stderr[-400:]}")
    kernels: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
    pids = set()
    for line in Path(log).read_text().splitlines():
        rec = json.loads(line)
        kernels[rec["kernel"]][0] += rec["cpu"]
        kernels[rec["kernel"]][1] += 1
        pids.add(rec.get("pid"))
    os.unlink(log)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return {"wall": wall, "cpu": cpu, "compile": sum(v[0] for v in kernels.values()), "kernels": dict(kernels),
            "processes": len(pids)}


def measure(tree: Path, argv: list[str], report: bool = False) -> dict:
    """The first call on an empty cache and a later one with it filled."""
    with tempfile.TemporaryDirectory(prefix="cardodds-numba-") as cache, \
            tempfile.TemporaryDirectory(prefix="cardodds-out-") as out:
        first = run(tree, argv, cache, Path(out) if report else None)
        warm = run(tree, argv, cache, Path(out) if report else None)
    return {"first": first, "warm": warm}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--before", type=Path, default=None, help="an older tree to compare with (a git worktree)")
    ap.add_argument("--no-report", action="store_true", help="skip the main job (cardodds report, minutes)")
    ap.add_argument("--only", choices=("kana", "kanalje", "canasta"), action="append",
                    help="measure only this game's commands (repeatable)")
    ap.add_argument("--repeats", type=int, default=5,
                    help="runs of each command in each tree, the trees taking turns to go first (default 5)")
    ap.add_argument("--skip", action="append", default=[],
                    help="leave out the commands holding this text, e.g. one the older tree lacks (repeatable)")
    ap.add_argument("--before-extra", default="",
                    help="arguments added to each command in the older tree only, e.g. '--policies heuristic' "
                         "(its players then against this tree's defaults)")
    ap.add_argument("--out", type=Path, default=HERE / "RESULTS_compile.md")
    a = ap.parse_args(argv)
    if not 1 <= a.repeats <= 50:
        ap.error(f"--repeats {a.repeats}: give 1 to 50 runs of each command")
    if a.before is not None and not (a.before / "cardodds" / "__init__.py").is_file():
        ap.error(f"--before {a.before}: no cardodds/__init__.py there; give a checkout or git worktree of the commit")
    trees = {"after": HERE.parent} | ({"before": a.before.resolve()} if a.before else {})
    for tree in trees.values():
        bytecode(tree)
    extra = shlex.split(a.before_extra)
    load_before = os.getloadavg()
    t0 = time.perf_counter()
    rows = []
    for game, command in COMMANDS:
        if a.only and game not in a.only or any(text in " ".join(command) for text in a.skip):
            continue
        got: dict[str, list[dict]] = {name: [] for name in trees}
        for r in range(a.repeats):
            for name in (list(trees) if r % 2 == 0 else list(trees)[::-1]):
                got[name].append(measure(trees[name], command + (extra if name == "before" else [])))
            print(f"cardodds {' '.join(command)} ({r + 1}/{a.repeats}): " + "; ".join(
                f"{n} first {g[-1]['first']['wall']:.1f} s wall, compile {g[-1]['first']['compile']:.1f} s CPU"
                for n, g in got.items()), file=sys.stderr, flush=True)
        rows.append((command, got))
    job = {}
    if not a.no_report:
        for name, tree in trees.items():
            job[name] = measure(tree, REPORT, report=True)
            j = job[name]
            print(f"cardodds report ({name}): first {j['first']['wall']:.1f} s, warm {j['warm']['wall']:.1f} s, "
                  f"compile {j['first']['compile']:.1f} s CPU", file=sys.stderr, flush=True)
    a.out.write_text(render(rows, job, trees, load_before, os.getloadavg(), time.perf_counter() - t0, a.repeats,
                            a.skip, a.before_extra, a.only or ()))
    print(a.out)


def _cpu_model() -> str:
    """The processor's model name (Linux), which differs between machines of one kind."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "processor unknown"


def _cmd(argv: list[str]) -> str:
    return "`cardodds " + " ".join(f'"{x}"' if " " in x else x for x in argv) + "`"


def _when(seconds: float) -> str:
    """The day and the hours of a run that ended now and took ``seconds``."""
    start, end = time.localtime(time.time() - seconds), time.localtime()
    return f"{time.strftime('%Y-%m-%d from %H:%M', start)} to {time.strftime('%H:%M', end)}"


def _commit() -> str:
    """This tree's commit (short), with ``+`` if it has changes not committed."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(HERE.parent), *args], capture_output=True, text=True).stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "this tree"
    return head + ("+" if git("status", "--porcelain", "--", "cardodds") else "")


def render(rows, job, trees, load_before, load_after, seconds, repeats=1, skip=(), before_extra="", only=()) -> str:
    import numba

    both = "before" in trees
    lines = [
        "# First answers on a fresh install: compile time, command by command and kernel by kernel",
        "",
        f"Machine: {platform.machine()} ({_cpu_model()}), {os.cpu_count()} logical cores, Linux {platform.release()}; "
        f"Python "
        f"{platform.python_version()}, numba {numba.__version__}. The run: {_when(seconds)}, on {_commit()}; load "
        f"average {load_before[0]:.2f} before the run and {load_after[0]:.2f} after it ({seconds / 60:.0f} min); "
        "wall time includes waiting for a core, "
        "CPU time does not. Reproduce: `python benchmarks/compile.py"
        + (" --before OLD_TREE" if both else "") + ("" if repeats == 5 else f" --repeats {repeats}")
        + "".join(f" --only {game}" for game in only)
        + "".join(f" --skip '{text}'" if ' ' in text else f" --skip {text}" for text in skip)
        + (f" --before-extra '{before_extra}'" if before_extra else "")
        + (" --no-report`" if not job else "`") + (
            f" (before: {trees['before']}, after: this tree; each command in both trees one after the other"
            + (f", in the older tree with `{before_extra}` added" if before_extra else "") + ")."
            if both else "."),
        "",
        "`first`: the command started as the program (`cardodds.cli.main()`) in a fresh interpreter with an empty "
        "numba cache (`NUMBA_CACHE_DIR` a new folder) and Python's bytecode written, as an install has it; "
        "`compile`: the CPU seconds numba spent compiling in it (every process it started, each compile "
        "without the kernels it compiled meanwhile); `warm`: the same command again with the cache filled.",
        "",
        f"Each command ran {repeats} time{'s' if repeats > 1 else ''} in each tree"
        + (", the trees taking turns to go first; every figure is the median of its runs, and `after / before` "
           "the median of the paired ratios of compile CPU seconds (one per run) with their range, `first wall "
           "after / before` the same of the first calls' wall seconds; after the first wall time's "
           "median, the range of its runs." if repeats > 1 else ".")
        + (" The main job ran once in each tree." if job else ""),
        "",
    ]
    head = "| command | first: wall s | first: CPU s | compile CPU s | warm: wall s |"
    if both:
        head = ("| command | first wall s (before → after) | compile CPU s (before → after) | after / before | "
                "warm wall s (before → after) | first wall after / before |")
    rule = "|---|---:|---:|---:|---:|" + ("---:|" if both else "")
    lines += [head, rule]
    split = False
    for command, got in rows:
        two = all(m["first"]["processes"] > 1 for m in got["after"])
        split |= two
        lines.append(_row(_cmd(command) + (" ‡" if two else ""), got, both))
    if split:
        lines += ["", "‡ the first call compiled in two processes (`cardodds/_split.py`: a second process compiles "
                  "part of its kernels while the command compiles the rest)."]
    if job:
        lines += ["", "## The main job: `cardodds report`", ""]
        lines += [head, rule, _row("`cardodds report`", {n: [j] for n, j in job.items()}, both), ""]
        for name, j in job.items():
            f, w = j["first"], j["warm"]
            lines.append(f"- {name}: fresh {f['wall']:.1f} s wall against {w['wall']:.1f} s warm: "
                         f"**{f['wall'] / w['wall']:.2f}x**; compiling {f['compile']:.1f} CPU s, "
                         f"{f['compile'] / f['wall']:.0%} of the fresh wall time in CPU seconds "
                         f"(CPU {f['cpu']:.1f} s fresh, {w['cpu']:.1f} s warm).")
        lines += ["", "### Every kernel the main job compiles (compile CPU seconds, largest first)", ""]
        names = list(job)
        lines.append("| kernel | " + " | ".join(f"{n}: CPU s (compiles)" for n in names) + " |")
        lines.append("|---|" + "---:|" * len(names))
        total = defaultdict(float)
        keys = sorted({k for j in job.values() for k in j["first"]["kernels"]},
                      key=lambda k: -job[names[0]]["first"]["kernels"].get(k, [0, 0])[0])
        for k in keys:
            cells = []
            for n in names:
                cpu, count = job[n]["first"]["kernels"].get(k, [0.0, 0])
                total[n] += cpu
                cells.append(f"{cpu:.2f} ({count})" if count else "")
            lines.append(f"| `{k}` | " + " | ".join(cells) + " |")
        lines.append("| **total** | " + " | ".join(f"**{total[n]:.1f}**" for n in names) + " |")
    return "\n".join(lines) + "\n"


def _row(label: str, got: dict, both: bool) -> str:
    """A command's row from its runs in each tree (``got[tree]``: a list of :func:`measure`)."""
    def med(tree: str, run: str, key: str) -> float:
        return statistics.median([m[run][key] for m in got[tree]])

    if not both:
        return (f"| {label} | {med('after', 'first', 'wall'):.1f} | {med('after', 'first', 'cpu'):.1f} | "
                f"{med('after', 'first', 'compile'):.1f} | {med('after', 'warm', 'wall'):.2f} |")
    def paired(key: str) -> str:
        """The median of the paired ratios of the first calls' ``key``, with their range."""
        ratios = [a["first"][key] / b["first"][key] if b["first"][key] else float("nan")
                  for a, b in zip(got["after"], got["before"])]
        return f"{statistics.median(ratios):.2f}" + (f" ({min(ratios):.2f}–{max(ratios):.2f})" if len(ratios) > 1
                                                     else "")

    walls = [m["first"]["wall"] for m in got["after"]]
    spread = f" ({min(walls):.1f}–{max(walls):.1f})" if len(walls) > 1 else ""  # the 8 s limit holds for every run
    return (f"| {label} | {med('before', 'first', 'wall'):.1f} → {med('after', 'first', 'wall'):.1f}{spread} | "
            f"{med('before', 'first', 'compile'):.1f} → {med('after', 'first', 'compile'):.1f} | {paired('compile')} | "
            f"{med('before', 'warm', 'wall'):.2f} → {med('after', 'warm', 'wall'):.2f} | {paired('wall')} |")


if __name__ == "__main__":
    main()
