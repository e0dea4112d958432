"""The Canasta advisor with the game score: each option valued by the game equity it leads to.

    python benchmarks/canasta_equity_advice.py [--seeds 3] [--threads 2] [--repeats 3]
        [--search 40] [--search-seed 1] [--out benchmarks/RESULTS_canasta_equity_advice.md]

Part 1, the issue's positions and the page's first example: ``advise`` with its defaults
(``heuristic2`` at every seat, the verdict in rounds within the default time budget) with the
score on seeds 1..``--seeds``, each run's wall time (compiled: one small run first), the verdict,
the option ranked first and the deals; the same without the score beside. Part 2, a search over
played games: hands of ``heuristic2`` at every seat from game scores near the target or
mid-game (``canasta.trace(score=)``), seat 0's decisions with two options or more
(``canasta.positions``), each advised with the score and without it (seed 1, the defaults); the
positions where both verdicts name one best option and the two differ are printed with both
verdicts. Markdown to ``--out``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from typing import Any

import numpy as np

DISCARD = dict(melds="us: A A A A A A A, 8 8 8 8 2; them: 9 9 9 9 9 9 2, 6 6 6", pile="7", pile_size=10,
               counts=(5, 6, 4), decision="discard")
RICH = dict(melds="us: A A A; them: 8 8 8", pile="3b Jk 2 K K 9 A A 10 10 J 6 5 Q", counts=(7, 8, 7),
            decision="take")
PAGE = dict(melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A ? ? 9 K", counts=(10, 9, 11), known={1: "Q Q"},
            decision="take")
#: (name, hand, position keywords, score)
POSITIONS: list[tuple[str, str, dict[str, Any], tuple[int, int]]] = [
             ("discard 9 or 3b (issue)", "K K 9 7 5 3b Q", DISCARD, (4500, 4000)),
             ("rich listed pile (issue)", "Q Q K 9 7 5 4", RICH, (6200, 5400)),
             ("the page's first example", "K K 9 9 5 7 Q Jk 3b 4", PAGE, (9200, 8800))]
#: Game scores of the searched hands (side 0 first).
SCORES = [(9200, 8800), (8800, 9200), (9500, 9600), (9700, 9000), (6200, 5400), (4500, 4000)]


def _run(pos, seed: int, threads: int):
    from cardodds.canasta import advise

    t0 = time.perf_counter()
    a = advise(pos, rng=seed, threads=threads)
    return a, time.perf_counter() - t0


def part1(args, out: list[str]) -> None:
    from cardodds.canasta import Position

    out += ["## The issue's positions (defaults, seeds 1..%d, %d threads)" % (args.seeds, args.threads), "",
            "| position | score | seed | ranked by | verdict | first | deals | median s of %d |" % args.repeats,
            "|---|---|---:|---|---|---|---:|---:|"]
    for name, hand, kw, score in POSITIONS:
        for sc in (score, None):
            pos = Position(hand, score=sc, **kw)
            for seed in range(1, args.seeds + 1):
                runs = [_run(pos, seed, args.threads) for _ in range(args.repeats)]
                a = runs[0][0]
                med = statistics.median(t for _, t in runs)
                line = (f"| {name} | {'none' if sc is None else '%d,%d' % sc} | {seed} | {a.ranked_by} | "
                        f"{a.decision.kind} | {a.options[a.best_index]} | {a.samples:,} | {med:.2f} |")
                print(line, flush=True)
                out.append(line)
    out.append("")


def part2(args, out: list[str]) -> None:
    from cardodds.canasta import positions, trace

    g = np.random.default_rng(args.search_seed)
    found, tried = [], 0
    out += [f"## Search over played games ({args.search} positions, seed {args.search_seed})", ""]
    while tried < args.search:
        hand_seed = int(g.integers(2**31))
        score = SCORES[int(g.integers(len(SCORES)))]
        cands = [p for turn, p in positions(trace("heuristic2", rng=hand_seed, score=score), seat=0)
                 if len(p.labels) >= 2]
        if not cands:
            continue
        pos = cands[int(g.integers(len(cands)))]
        tried += 1
        by_eq, _ = _run(pos, 1, args.threads)
        by_pts, _ = _run(_unscored(pos), 1, args.threads)
        differ = by_eq.best is not None and by_pts.best is not None and by_eq.best != by_pts.best
        print(f"{tried:3d} hand {hand_seed} score {score}: equity {by_eq.best} / points {by_pts.best}"
              + ("  <- differ" if differ else ""), flush=True)
        if differ:
            found.append((hand_seed, score, by_eq, by_pts))
    out.append(f"{len(found)} of {tried} positions decided for one option both ways name different options.")
    out.append("")
    for hand_seed, score, e, p in found:
        out += [f"- hand seed {hand_seed}, score {score[0]},{score[1]}: `cardodds canasta advise {e.position}`",
                f"  - by equity: {e.verdict}",
                f"  - by points: {p.verdict}"]
    out.append("")


def _unscored(pos):
    from dataclasses import replace

    return replace(pos, score=None)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--search", type=int, default=40)
    ap.add_argument("--search-seed", type=int, default=1)
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    from cardodds.canasta import Position, advise

    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    advise(Position(POSITIONS[0][1], score=POSITIONS[0][3], **POSITIONS[0][2]), samples=4, rng=0)  # compile
    out = ["# Canasta advice with the game score (game equity)", "",
           f"`python benchmarks/canasta_equity_advice.py --seeds {args.seeds} --threads {args.threads} --repeats "
           f"{args.repeats} --search {args.search} --search-seed {args.search_seed}`; "
           f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC, load {os.getloadavg()[0]:.2f} at the start", ""]
    part1(args, out)
    if args.search:
        part2(args, out)
    out.append(f"load average at the end: {os.getloadavg()[0]:.2f}")
    text = "\n".join(out) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text)


if __name__ == "__main__":
    main()
