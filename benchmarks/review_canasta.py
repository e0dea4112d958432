"""Polish Canasta's review: its time for one seat's hand, and the costs its thresholds are chosen from.

Run: ``python benchmarks/review_canasta.py [--hands N] [--compile]``; writes
``benchmarks/RESULTS_review_canasta.md``.

Hands played by ``lookahead`` (the ladder's strongest player) and by ``heuristic2`` (the
advisor's), seeds 1..N, are reviewed seat by seat with the advisor's defaults (heuristic2 at every
seat, 2,000 sampled deals a decision) on 2 threads, once compiled: each seat's review is timed
(the issue's target: a hand for one seat in <= 60 s on 2 cores), the first hands' seat 0 on 1
thread too. The same reviews give the costs: how often a strong player's seat-hand shows a loss
of at least each threshold (the thresholds must leave a strong player's hand without a
blunder), and what known bad moves cost (a wild discarded, a pile left that was best taken: the
thresholds must name them). Hands of a game near its end (scores 9,000 to 9,800 of 10,000,
drawn from the seed) are reviewed by P(win the game) the same way. ``--compile`` also times the
command's first call on an empty compile cache (its two processes), once.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from cardodds.canasta import review, trace
from cardodds.canasta.review import THRESHOLDS

POINTS = (50, 100, 150, 200, 300, 400)
WINS = (0.02, 0.05, 0.1, 0.15, 0.2)
RECORD = Path(__file__).resolve().parents[1] / "docs" / "canasta-hand.txt"


def _score(seed: int) -> tuple[int, int]:
    g = np.random.default_rng(seed)
    return int(9000 + 100 * g.integers(0, 9)), int(9000 + 100 * g.integers(0, 9))


def _reviews(player: str, hands: int, scored: bool) -> list[dict]:
    """Each seat of each hand reviewed on 2 threads: its seconds and its decisions."""
    out = []
    for seed in range(1, hands + 1):
        t = trace(player, rng=seed, score=_score(seed) if scored else None)
        for seat in range(4):
            t0 = time.perf_counter()
            r = review(t, seat=seat, rng=100 * seed + seat, threads=2)
            out.append({"seed": seed, "seat": seat, "seconds": time.perf_counter() - t0,
                        "decisions": r.decisions, "turns": t.result["turns"][0]})
        print(player, "scored" * scored, seed, f"{sum(o['seconds'] for o in out[-4:]):.1f} s", flush=True)
    return out


def _quantiles(values) -> str:
    if not values:
        return "-"
    v = sorted(values)
    return " / ".join(f"{v[int(q * (len(v) - 1))]:.3g}" for q in (0.1, 0.5, 0.9))


def _share(rows, th: float, win: bool) -> int:
    """Seat-hands with a decision whose clear loss (its interval above 0) is at least ``th``."""
    def cost(d):
        return d.win_cost if win else d.cost
    return sum(any(d.label != "forced" and cost(d) is not None and cost(d).lo > 0 and cost(d).value >= th
                   for d in r["decisions"]) for r in rows)


def _bad_moves(rows, win: bool) -> dict[str, list[float]]:
    """What known bad options cost (each option's difference to the best, where it is clear)."""
    found: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        for d in r["decisions"]:
            diffs = d.win_versus_best if win else d.versus_best
            if d.label == "forced" or not diffs:
                continue
            for o, x in zip(d.options, diffs):
                if o == d.best or x is None or not x.lo > 0:
                    continue
                if d.what == "discard" and o in ("Jk", "2"):
                    found["a wild discarded"].append(x.value)
                if d.what == "take" and o == "leave the pile":
                    found["the pile left (taking it best)"].append(x.value)
                if d.what == "out" and o == "stay in":
                    found["staying in (going out best)"].append(x.value)
                found["any option not the best"].append(x.value)
    return found


def _timing_lines(rows: list[dict], one: list[float], two: list[float]) -> list[str]:
    secs = [r["seconds"] for r in rows]
    rated = [sum(d.label != "forced" for d in r["decisions"]) for r in rows]
    worst = max(rows, key=lambda r: r["seconds"])
    lines = ["| | seat-hands | median, s | 90%, s | slowest, s | rated decisions (median, most) |",
             "|---|---:|---:|---:|---:|---:|",
             f"| one seat's hand, 2 threads | {len(secs)} | {statistics.median(secs):.1f} | "
             f"{sorted(secs)[int(0.9 * (len(secs) - 1))]:.1f} | {max(secs):.1f} | {statistics.median(rated):.0f}, "
             f"{max(rated)} |"]
    if one:
        lines.append(f"| seat 0, 1 thread (the same hands: 2 threads) | {len(one)} | {statistics.median(one):.1f} "
                     f"({statistics.median(two):.1f}) | | {max(one):.1f} ({max(two):.1f}) | |")
    lines += ["", f"The slowest: seed {worst['seed']} seat {worst['seat']}, {worst['turns']} table turns, "
              f"{len(worst['decisions'])} decisions."]
    return lines


def _cost_lines(rows: list[dict], win: bool) -> list[str]:
    ths = WINS if win else POINTS
    unit = "P(win)" if win else "points"
    n = sum(1 for r in rows if any(d.label != "forced" for d in r["decisions"]))
    lines = [f"| {unit} lost, at least | " + " | ".join(f"{t:g}" for t in ths) + " |",
             "|---|" + "---:|" * len(ths),
             f"| seat-hands with such a loss, of {n} | " + " | ".join(str(_share(rows, t, win)) for t in ths) + " |",
             "", f"| known bad option ({unit} below the best, where clear) | n | 10% / median / 90% |",
             "|---|---:|---:|"]
    for name, values in sorted(_bad_moves(rows, win).items()):
        lines.append(f"| {name} | {len(values)} | {_quantiles(values)} |")
    return lines


def _first_call() -> float:
    """Wall seconds of the command's first call on an empty compile cache (two processes)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-m", "cardodds.cli", "canasta", "review", str(RECORD), "--samples", "20",
                        "--seed", "1"], check=True, capture_output=True, env=env)
        return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20)
    ap.add_argument("--compile", action="store_true")
    args = ap.parse_args()
    load0 = os.getloadavg()
    first = _first_call() if args.compile else None
    review(str(RECORD), samples=20, rng=1)  # compiled from here on
    strong = _reviews("lookahead", args.hands, False)
    h2 = _reviews("heuristic2", args.hands, False)
    scored = _reviews("lookahead", args.hands, True)
    hands = [r for r in strong if r["seat"] == 0][:5]
    one, two = [], []
    for r in hands:
        t = trace("lookahead", rng=r["seed"])
        t0 = time.perf_counter()
        review(t, seat=0, rng=100 * r["seed"], threads=1)
        one.append(time.perf_counter() - t0)
        two.append(r["seconds"])
    load = os.getloadavg()
    lines = ["# Canasta review: one seat's hand, its time and the costs of its thresholds", "",
             f"`python benchmarks/review_canasta.py --hands {args.hands}{' --compile' * args.compile}`; "
             f"{time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores "
             f"({platform.processor() or platform.machine()}), load {load0[0]:.2f} at the start, {load[0]:.2f} at "
             f"the end; Python {platform.python_version()}. Each "
             f"seat of {args.hands} hands (seeds 1..{args.hands}) reviewed with the advisor's defaults (heuristic2 at "
             "every seat, 2,000 sampled deals a decision, a move not the best priced again on 2,000 fresh deals), "
             "compiled; `review(trace(P, rng=seed), seat=s, threads=2)`.", "",
             "## Time", "", "Hands of lookahead, then of heuristic2, then of lookahead near the game's end "
             "(`score=`, the options ranked by P(win)):", ""]
    for name, rows in (("lookahead", strong), ("heuristic2", h2), ("lookahead, scores 9,000-9,800", scored)):
        lines += [f"**{name}**", ""] + _timing_lines(rows, one if rows is strong else [], two) + [""]
    if first is not None:
        lines += [f"The command's first call on an empty compile cache (`cardodds canasta review "
                  f"docs/canasta-hand.txt --samples 20`, its two processes): {first:.0f} s.", ""]
    lines += ["Target: a hand for one seat in <= 60 s on 2 cores, compiled.", "",
              "## Costs, in points (hands without a game score)", "",
              f"The thresholds: inaccuracy < {THRESHOLDS.mistake:g} <= mistake < {THRESHOLDS.blunder:g} <= blunder "
              "(a clear loss: its interval above 0).", "", "**lookahead** (the strongest player)", ""]
    lines += _cost_lines(strong, False) + ["", "**heuristic2**", ""] + _cost_lines(h2, False)
    lines += ["", "## Costs in P(win the game) (lookahead, scores 9,000 to 9,800)", "",
              f"The thresholds: mistake >= {THRESHOLDS.win_mistake:g}, blunder >= {THRESHOLDS.win_blunder:g} "
              "(decisions whose options differ in P(win)).", ""]
    lines += _cost_lines(scored, True)
    out = Path(__file__).with_name("RESULTS_review_canasta.md")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())


if __name__ == "__main__":
    main()
