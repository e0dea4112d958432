"""Kernel speed before and after a change: CPU-time rates of public calls of every game, the two
trees alternating in one session (this machine is shared; CPU time is what one free core does,
wall time is inflated by other work).

    python benchmarks/before_after.py /path/to/old/tree [--repeats 5] [--only kana]

Each measurement is a fresh interpreter with ``PYTHONPATH`` set to the tree: it compiles
outside the clock (a small call first), then times the call on one thread three times and
reports the median rate. The trees take turns, so each repeat is a pair measured under the
same load. Prints a markdown table: each call's median rates, the median of its paired ratios
after / before, and a 95% interval for that median (order statistics of the ratios, which
needs 6 repeats or more); the last line gives the median ratio over the calls. Fresh
interpreters of one tree differ by a few per cent on this machine, so a ratio is ruled out
only by an interval that excludes it. The calls use names both trees know (an advisor's call
reads its position as its tree's ``advise`` takes it: a ``Position``, or before it the keywords). Its tables are
recorded by hand in ``RESULTS_speed.md`` (``compile.py`` writes the whole of
``RESULTS_compile.md``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _timing import median_interval  # noqa: E402

#: name -> (module, function, keyword arguments, deals a timed call plays[, the keywords a tree with
#: the game's ``Position`` gives to it])
_KANALJE_POSITION = ("seat", "hand", "turned", "faceup", "played", "rules")
CALLS = {
    "kana.odds, 4 players": ("cardodds.kana", "odds", "dict(players=4)", 4_000_000),
    "kana.advise peek-one, seat 2, 9h, känäd 5c Kd": (
        "cardodds.kana", "advise",
        "dict(position=game.Position('9h ? ?', seat=2, kanad='5c Kd'), rules=game.KanaRules(4, 'peek-one'), "
        "policies='table') if POSITION else "
        "dict(players=4, variant='peek-one', seat=2, cards='9h ? ?', kanad='5c Kd', opponents='table')", 300_000),
    "kana.advise peek-all, seat 1, 9h Kd 2c": (
        "cardodds.kana", "advise",
        "dict(position=game.Position('9h Kd 2c', seat=1, kanad='5c'), rules=game.KanaRules(4, 'peek-all'), "
        "policies='table') if POSITION else "
        "dict(players=4, variant='peek-all', seat=1, cards='9h Kd 2c', kanad='5c', opponents='table')", 300_000),
    "kana.compare threshold:8 vs blind": (
        "cardodds.kana", "compare", "dict(a='threshold:8', b='blind', players=4, variant='peek-one')", 1_000_000),
    "kana.session, 4 players, 50 rounds": (
        "cardodds.kana", "session", "dict(players=4, variant='peek-one', rounds=50)", 20_000),
    "kanalje.jack_risk random": ("cardodds.kanalje", "jack_risk", "dict(policies='random')", 1_000_000),
    "kanalje.jack_risk heuristic": ("cardodds.kanalje", "jack_risk", "dict(policies='heuristic')", 300_000),
    "kanalje.jack_risk lookahead,heuristic,heuristic": (
        "cardodds.kanalje", "jack_risk", "dict(policies='lookahead,heuristic,heuristic', lookahead_samples=8)",
        2_400),
    "kanalje.jack_risk random,heuristic,heuristic": (
        "cardodds.kanalje", "jack_risk", "dict(policies='random,heuristic,heuristic')", 300_000),
    "kanalje.jack_risk pimc,heuristic,heuristic": (
        "cardodds.kanalje", "jack_risk", "dict(policies='pimc,heuristic,heuristic', lookahead_samples=8)", 60),
    "kanalje.advise seat 0, 17 cards, 7h turned": (
        "cardodds.kanalje", "advise",
        "dict(seat=0, hand='Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s', turned='7h', policies='heuristic')",
        100_000, _KANALJE_POSITION),
    "kanalje.advise look-ahead players (the default), seat 0": (
        "cardodds.kanalje", "advise",
        "dict(seat=0, hand='Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s', turned='7h', policies='lookahead')",
        120, _KANALJE_POSITION),
    "kanalje.advise two players, phase 1": (
        "cardodds.kanalje", "advise",
        "dict(rules=__import__('cardodds.kanalje', fromlist=['x']).KanaljeRules(players=2), seat=1, "
        "hand='As Ks 3s 4c 8c Tc 2d 6d 9d Qd 5h 8h Ah', faceup='Jh', played='0: Qs', policies='heuristic')", 100_000,
        _KANALJE_POSITION),
    "canasta.melds, 12 cards": ("cardodds.canasta", "melds", "dict(hand_size=12)", 2_000_000),
    "canasta.hand_odds": ("cardodds.canasta", "hand_odds", "dict(hand='Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h')",
                          1_000_000),
    "canasta.play heuristic": ("cardodds.canasta", "play", "dict(policies='heuristic')", 5_000),
    "canasta.advise take, the docs' worst position": (
        "cardodds.canasta", "advise",
        "(lambda **w: dict(position=game.Position(**w)) if POSITION else w)(hand='K K 9 9 5 7 Q Jk 3b 4', "
        "melds='us: A A A; them: 8 8 8', pile='Jk 2 2 A A ? ? 9 K', counts=(10, 9, 11), known={1: 'Q Q'}, "
        "score=(9200, 8800), decision='take')", 2_000),
}

CODE = """
import importlib, statistics, time, warnings
warnings.simplefilter("ignore", DeprecationWarning)
from {module} import {function} as call
game = importlib.import_module("{module}")
POSITION = hasattr(game, "Position")  # the game's advise takes a Position (before: the position's keywords)
kw = {kw}
args = ()
game = importlib.import_module("{module}")
if {position} and hasattr(game, "Position"):  # this tree's advise reads a Position
    args = (game.Position(**{{k: kw.pop(k) for k in {position} if k in kw}}),)
call(*args, **kw, samples=max(1, {samples} // 100), rng=1, threads=1)
rates = []
for _ in range(3):
    t = time.process_time()
    call(*args, **kw, samples={samples}, rng=1, threads=1)
    rates.append({samples} / (time.process_time() - t))
print(statistics.median(rates))
"""


def one(tree: str, call: tuple, samples: int) -> float:
    module, function, kw = call[:3]
    position = call[4] if len(call) > 4 else ()
    env = dict(os.environ, PYTHONPATH=tree)
    code = CODE.format(module=module, function=function, kw=kw, samples=samples, position=position)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True, cwd="/")
    return float(out.stdout.strip().splitlines()[-1])


def _rate(x: float) -> str:
    return f"{x / 1e3:,.1f} k" if x >= 1e4 else f"{x:,.1f}"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before", help="the tree to compare against (a git worktree of the old commit)")
    ap.add_argument("--after", default=str(HERE.parent), help="the tree with the change (default: this one)")
    ap.add_argument("--repeats", type=int, default=7, help="pairs of fresh interpreters a call (default 7)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every call's deals")
    ap.add_argument("--only", default="", help="only the calls whose name starts with this (e.g. kana.)")
    args = ap.parse_args(argv)
    for flag, tree in (("before", args.before), ("--after", args.after)):
        # PYTHONPATH pointing at no tree would time the installed cardodds instead, silently
        if not (Path(tree) / "cardodds" / "__init__.py").is_file():
            ap.error(f"{flag} {tree}: no cardodds/__init__.py there; give a checkout or git worktree of the commit")
    if args.repeats < 1 or args.scale <= 0:
        ap.error("--repeats must be at least 1 and --scale above 0")
    if not any(name.startswith(args.only) for name in CALLS):
        ap.error(f"--only {args.only!r} matches no call; the calls are: " + "; ".join(CALLS))
    print("| call | before deals/s (CPU) | after deals/s (CPU) | after / before | 95% interval |")
    print("|---|---:|---:|---:|---:|")
    ratios = []
    for name, call in CALLS.items():
        if not name.startswith(args.only):
            continue
        samples = max(1, int(call[3] * args.scale))
        before, after = [], []
        for _ in range(args.repeats):
            before.append(one(args.before, call, samples))
            after.append(one(args.after, call, samples))
        paired = [a / b for a, b in zip(after, before)]
        ratio, interval = statistics.median(paired), median_interval(paired)
        ratios.append(ratio)
        shown = "needs 6 repeats" if interval is None else f"{interval[0]:.3f} to {interval[1]:.3f}"
        print(f"| {name} | {_rate(statistics.median(before))} | {_rate(statistics.median(after))} "
              f"| {ratio:.3f} | {shown} |", flush=True)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"\nMedian after / before over {len(ratios)} calls: {statistics.median(ratios):.3f}. "
          f"Load average after the run: {load}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
