"""How long ``kanalje.review`` takes on a whole deal, and the figures its thresholds rest on.

    python benchmarks/review_kanalje.py [--deals 5] [--repeats 3]      # a deal reviewed, compiled
    python benchmarks/review_kanalje.py --first-call [--repeats 3]     # on an empty numba cache
    python benchmarks/review_kanalje.py --study [--deals 20]           # the thresholds' figures

Timing: deals played by ``pimc`` at every seat (seeds 1..``--deals``), each reviewed for seat 0
(17 cards) at the advisor's defaults (``lookahead`` at every seat, 40 worlds, twice a card) on
1 and 2 threads, once to compile and ``--repeats`` times each; the median wall time a deal, and
where it goes: the advice runs by cards in the hand. ``--first-call``: ``cardodds kanalje
review`` on an empty cache (a fresh ``NUMBA_CACHE_DIR``), against ``cardodds kanalje advise``
on the same cache state followed by the review once compiled (what a first review may cost at
most). ``--study``: deals played by each player (``pimc``, ``lookahead``, ``heuristic``), every
seat reviewed: the costs of the cards played against the thresholds, the points lost a seat
measured on independent worlds and on the worlds the best was chosen on, and the cost of a jack
a seat last to play could throw into a trick it wins. Results: ``RESULTS_review_kanalje.md``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict

import numpy as np

from cardodds.cards import parse_card
from cardodds.kanalje import Position, advise, review, trace
from cardodds.kanalje.review import THRESHOLDS
from cardodds.rng import child

#: The review's module (``cardodds.kanalje.review`` the package attribute is the function).
review_module = importlib.import_module("cardodds.kanalje.review")
CLI = [sys.executable, "-c", "import sys; from cardodds.cli import main; sys.exit(main())"]


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def timing(deals: int, repeats: int) -> None:
    records = [trace("pimc", rng=seed) for seed in range(1, deals + 1)]
    review(records[0], seat=0, samples=4, rng=1)  # compile
    calls: dict[int, list[float]] = defaultdict(list)  # advice seconds by cards in the hand

    def timed(position, **kw):
        t0 = time.perf_counter()
        r = advise(position, **kw)
        calls[len(position.hand)].append(time.perf_counter() - t0)
        return r

    print(f"load average at the start: {_load()}")
    for threads in (1, 2):
        walls, forced = [], []
        calls.clear()
        review_module.advise = timed  # type: ignore[attr-defined]
        try:
            for _ in range(repeats):
                for seed, t in enumerate(records, 1):
                    t0 = time.perf_counter()
                    r = review(t, seat=0, rng=seed, threads=threads)
                    walls.append(time.perf_counter() - t0)
                    forced.append(r.ratings(0)["forced"])
        finally:
            review_module.advise = advise  # type: ignore[attr-defined]
        total = sum(sum(v) for v in calls.values())
        share = ", ".join(f"{k} cards {100 * sum(calls[k]) / total:.0f}%" for k in sorted(calls, reverse=True)
                          if sum(calls[k]) / total >= 0.05)
        print(f"threads {threads}: a deal for one seat, median {statistics.median(walls):.2f} s (min "
              f"{min(walls):.2f}, max {max(walls):.2f}, {len(walls)} reviews, {statistics.mean(forced):.1f} "
              f"forced cards a deal); advice runs: {sum(len(v) for v in calls.values())}, "
              f"{1000 * total / sum(len(v) for v in calls.values()):.0f} ms each on average; time by cards in the "
              f"hand: {share}", flush=True)
    print(f"load average at the end: {_load()}")


def _run(args: list[str], cache: str) -> float:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache)
    t0 = time.perf_counter()
    subprocess.run(CLI + args, env=env, check=True, capture_output=True)
    return time.perf_counter() - t0


def first_call(repeats: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        record = os.path.join(folder, "deal.txt")
        t = trace("pimc", rng=1)
        t.save(record)
        first = next(m for m in t.moves if m.action == "deal" and m.seat == 0)
        advise_args = ["kanalje", "advise", "--seat", "0", "--hand", " ".join(first.cards), "--turned",
                       t.info["turned"], "--seed", "1"]
        review_args = ["kanalje", "review", record, "--seat", "0", "--seed", "1"]
        print(f"load average at the start: {_load()}")
        for k in range(repeats):
            cold_review = _run(review_args, tempfile.mkdtemp(dir=folder))
            cache = tempfile.mkdtemp(dir=folder)
            cold_advise = _run(advise_args, cache)
            warm_review = _run(review_args, cache)
            print(f"run {k + 1}: first review {cold_review:.1f} s; first advise {cold_advise:.1f} s, then the review "
                  f"{warm_review:.1f} s: {cold_advise + warm_review:.1f} s (load {_load()})", flush=True)


def _same_worlds_cost(d, seed: int) -> float:
    """The cost of ``d`` on the worlds its best card was chosen on (the review's ranking run)."""
    head, played = d.known.split("; played ", 1)
    hand, turned = head[len("hand "):].split("; turned ")
    played = None if played == "nothing yet" else played
    i = 0 if played is None else sum(len(g.split(":")[1].split()) for g in played.split(";"))
    r = advise(Position(seat=d.seat, hand=hand, turned=turned, played=played),
               rng=child(np.random.SeedSequence(seed), i, 0))
    assert r.options[r.best_index] == d.best
    return r.versus_best[r.options.index(d.taken)].value


def _own_jacks(d, trump: int) -> list[tuple[float, float]]:
    """(cost, lower end) of each jack the seat, last to play, could throw into the trick and win it."""
    last = d.known.split("; played ")[1].split("; ")[-1]
    if not d.what.endswith("3rd"):
        return []
    trick = [parse_card(c) for c in last.split(": ")[1].split()]
    out = []
    for option, cost in zip(d.options, d.versus_best):
        j = parse_card(option)
        if j >> 2 != 9:
            continue
        cards = trick + [j]
        best = 0
        for i, c in enumerate(cards[1:], 1):
            b = cards[best]
            if c & 3 == b & 3 and c > b or c & 3 == trump and b & 3 != trump:
                best = i
        if best == 2:
            out.append((cost.value, cost.lo))
    return out


def study(deals: int, players=("pimc", "lookahead", "heuristic")) -> None:
    print(f"load average at the start: {_load()}; thresholds {THRESHOLDS.words()}")
    print("| deals played by | cards rated | clear losses | >= 1 point (mistake or worse) | >= 2.5 (blunder) | "
          "costliest | lost a seat, independent worlds | lost a seat, the ranking worlds | own jack: cards | "
          "priced >= 1 | >= 2.5 | no clear loss |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for player in players:
        costs, lost, lost_same, jacks = [], [], [], []
        t0 = time.perf_counter()
        for seed in range(1, deals + 1):
            t = trace(player, rng=seed)
            r = review(t, seat="all", rng=seed)
            trump = parse_card(t.info["turned"]) & 3
            same = defaultdict(float)
            for d in r.decisions:
                if d.label == "forced":
                    continue
                costs.append((d.cost.value, d.cost.lo))
                jacks += _own_jacks(d, trump)
                if d.taken != d.best:
                    same[d.seat] += _same_worlds_cost(d, seed)
            lost += [r.lost(s).value for s in r.seats]
            lost_same += [same[s] for s in r.seats]
        clear = [v for v, lo in costs if lo > 0]

        def mean(xs):
            m = statistics.mean(xs)
            return f"{m:.2f} ± {1.96 * statistics.stdev(xs) / len(xs) ** 0.5:.2f}"

        print(f"| {player} | {len(costs)} | {len(clear)} | {sum(v >= THRESHOLDS.mistake for v in clear)} | "
              f"{sum(v >= THRESHOLDS.blunder for v in clear)} | {max(clear):.2f} | {mean(lost)} | {mean(lost_same)} | "
              f"{len(jacks)} | {sum(lo > 0 and v >= 1 for v, lo in jacks)} | "
              f"{sum(lo > 0 and v >= 2.5 for v, lo in jacks)} | {sum(lo <= 0 for v, lo in jacks)} |", flush=True)
        print(f"  ({player}: {time.perf_counter() - t0:.0f} s, load {_load()})", file=sys.stderr, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=None, help="deals (default 5 timed, 20 in the study)")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--first-call", action="store_true")
    ap.add_argument("--study", action="store_true")
    ap.add_argument("--players", default="pimc,lookahead,heuristic", help="the study's players, by name")
    args = ap.parse_args()
    if args.study:
        study(args.deals or 20, args.players.split(","))
    elif args.first_call:
        first_call(args.repeats)
    else:
        timing(args.deals or 5, args.repeats)


if __name__ == "__main__":
    main()
