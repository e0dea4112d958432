"""Kanalje chunk kernels of several trees timed side by side in one interpreter.

    python benchmarks/side_by_side.py OLD_TREE [OTHER_TREE ...] [--kernel heuristic] [--rounds 100]

Each tree's package is copied into a temporary folder under a name of its own (``tree0``,
``tree1``, ...: the package imports itself relatively), so one interpreter holds every tree's
kernels at once. The chunk kernel of the lineup (``deals_heuristic_kernel``,
``deals_random3_kernel``, or ``deals_kernel`` for a look-ahead player) is then called in turn
for each tree, ``--rounds`` times on the same seeds, the order reversed every other round, and
timed on this thread's CPU clock. A round's ratio is the first tree's time over the other's
(above 1: faster than the first tree).

The pairs are a fraction of a second apart in one process, so a change of the machine's load
between them cancels out: on this shared machine the middle half of the rounds lay within 1 to
4% of the median (the quieter the machine, the narrower). What one run leaves out is how the
compiled code lands in memory, fixed within an interpreter and different in the next: the same
two trees' median ratio moved by up to 3% between runs (``RESULTS_speed.md``), so run it a few
times before reading a difference that small; and the public call's Python around the kernel. It is
a tool for finding where a difference comes from (copy the tree, change one thing, compare);
``before_after.py`` remains the measure at the public call.
"""

from __future__ import annotations

import argparse
import importlib
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent


#: --kernel: the lineup whose chunk kernel is timed, and the deals a call plays by default
KERNELS = {"heuristic": 30_000, "random": 30_000, "lookahead": 100, "pimc": 4, "advise": 3_000}
LOOKAHEAD_SAMPLES = 8  # the look-ahead player's worlds a decision (before_after.py's call)
#: --kernel advise: the heuristic players' advice kernel on before_after.py's position (its worlds are the deals)
ADVISE_POSITION = dict(seat=0, hand="Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", turned="7h", played="")


def load(tree: str, name: str, root: Path):
    """``tree``'s Kanalje package, packed rules and a counts array, imported as package ``name``."""
    shutil.copytree(Path(tree) / "cardodds", root / name, ignore=shutil.ignore_patterns("__pycache__"))
    kanalje = importlib.import_module(f"{name}.kanalje")
    rules = importlib.import_module(f"{name}.kanalje.rules").KanaljeRules().pack()
    out = np.zeros(importlib.import_module(f"{name}.kanalje._counts").DEALS.size, dtype=np.int64)
    return kanalje, rules, out


def chunk(kind: str, kanalje, rules, out):
    """One chunk of ``n`` deals from ``state``: the lineup's kernel, nothing fixed, unchecked."""
    kernels = kanalje._kernels
    if kind == "advise":
        return _advise_chunk(kanalje)
    if kind == "random":
        return lambda state, n: kernels.deals_random3_kernel(state, n, out, rules)
    fixed = dict(fixed_seat=-1, fixed_hand=0, fixed_card=-1, start_phase=1, check=0)
    if kind in ("lookahead", "pimc"):
        pol = kanalje._policies
        codes = np.array([pol.P_LOOKAHEAD if kind == "lookahead" else pol.P_PIMC, pol.P_HEURISTIC, pol.P_HEURISTIC],
                         dtype=np.int64)
        user = kanalje.view.compile_policy(None)
        # since the searches are called through a pointer the kernels take (user, look-ahead, pimc)
        calls = pol.calls(user, codes) if hasattr(pol, "calls") else user
        if hasattr(kanalje._table, "phase1_arg"):  # since three players' searches leave phase 1 out, as a run's do
            calls = pol.calls(user, codes, None)
        return lambda state, n: kernels.deals_kernel(state, n, out, rules, codes, LOOKAHEAD_SAMPLES,
                                                     *fixed.values(), calls)
    return lambda state, n: kernels.deals_heuristic_kernel(state, n, out, rules, **fixed)


def _advise_chunk(kanalje):
    """The advice kernel of three heuristic players on :data:`ADVISE_POSITION`, as ``advise`` calls it."""
    ka = kanalje._advise
    rules = importlib.import_module(f"{kanalje.__name__}.rules").KanaljeRules()
    advise = importlib.import_module(f"{kanalje.__name__}.advise")
    check = getattr(advise, "_check_position", None) or importlib.import_module(  # moved with kanalje.Position
        f"{kanalje.__name__}._position").check_position
    pos = check(rules=rules, **ADVISE_POSITION)
    cards = np.array(pos.options, dtype=np.int64)
    same = ka.interchangeable(pos.table, pos.seat, cards)
    out = np.zeros(ka.ADVICE.size, dtype=np.int64)
    if hasattr(ka, "PositionArrays"):  # the position as one bundle
        position = ka.PositionArrays(pos.table, pos.deal, pos.seat, cards, same)
        return lambda state, n: ka.advise_kernel(state, n, out, position, None, LOOKAHEAD_SAMPLES, None, None, None)
    return lambda state, n: ka.advise_kernel(state, n, out, pos.table, pos.deal, pos.seat, cards, same, None,
                                             LOOKAHEAD_SAMPLES, None, None, None)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trees", nargs="+", help="trees to compare, the first the reference (this tree: .)")
    ap.add_argument("--kernel", choices=tuple(KERNELS), default="heuristic",
                    help="three heuristic or three random players, or a look-ahead or pimc player (8 worlds a "
                         "decision) and two heuristic ones, or the advice of three heuristic players (a deal: a "
                         "world, every option played out; default heuristic)")
    ap.add_argument("--rounds", type=int, default=100, help="calls of each tree's kernel (default 100)")
    ap.add_argument("--deals", type=int, default=None,
                    help="deals a call (default 30,000; look-ahead 100, pimc 4, advice 3,000)")
    args = ap.parse_args(argv)
    for tree in args.trees:
        if not (Path(tree) / "cardodds" / "__init__.py").is_file():
            ap.error(f"{tree}: no cardodds/__init__.py there; give a checkout or git worktree")
    if args.deals is None:
        args.deals = KERNELS[args.kernel]
    if args.rounds < 2 or args.deals < 1:
        ap.error("--rounds must be at least 2 and --deals at least 1")
    with tempfile.TemporaryDirectory(prefix="cardodds-side-by-side-") as work:
        sys.path.insert(0, work)
        runs = []
        for i, tree in enumerate(args.trees):
            run = chunk(args.kernel, *load(tree, f"tree{i}", Path(work)))
            run(np.array([1, 2, 3, 4], dtype=np.uint64), 100)  # compiles (or loads) outside the clock
            runs.append(run)
        seconds: list[list[float]] = [[] for _ in runs]
        for r in range(args.rounds):
            order = range(len(runs)) if r % 2 == 0 else reversed(range(len(runs)))
            for i in order:
                state = np.array([1, 2, 3, 5 + r], dtype=np.uint64)
                t = time.thread_time()
                runs[i](state, args.deals)
                seconds[i].append(time.thread_time() - t)
    print(f"| tree | {args.kernel} deals/s (CPU) | speed / first tree | quartiles of the rounds |")
    print("|---|---:|---:|---:|")
    for tree, times in zip(args.trees, seconds):
        ratios = sorted(a / b for a, b in zip(seconds[0], times))
        k = len(ratios)
        rate = args.deals / statistics.median(times)
        shown = f"{rate / 1e3:,.1f} k" if rate >= 1e4 else f"{rate:,.1f}"
        print(f"| {tree} | {shown} | {statistics.median(ratios):.3f} "
              f"| {ratios[k // 4]:.3f} to {ratios[(3 * k) // 4]:.3f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
