"""The Canasta advisor's verdict (:func:`cardodds.canasta.advise` deciding by
:mod:`cardodds.verdict`) on take and discard positions drawn from played hands.

    python benchmarks/verdict_canasta.py [--positions 30] [--seed 1] [--threads 2]
        [--budget-seconds 3] [--spread-positions 6] [--spread-deals 200] [--jsonl FILE]
    python benchmarks/verdict_canasta.py --seeds 1,2,3 [--positions 30] [--seed 1]

Positions: hand ``i`` is played by ``heuristic2`` at every seat (``canasta.trace``) from a seed
drawn from ``--seed``; among seat 0's decisions with two options or more (``canasta.positions``:
the position as the seat knew it), a take for even ``i`` and a discard for odd ``i`` (the other
kind when the hand has none) is drawn at random (the same generator). Each position is given to
``advise`` with its defaults (``heuristic2`` at every seat, the verdict in rounds of deals, the
time budget ``--budget-seconds``), seeded ``i``; the same position with ``samples=2000`` (the
advisor's fixed run before the verdict) gives the comparison: its old rule (a best named when
every other option's paired difference excludes zero, ``AdviceResult.ranking``) and the verdict
of one look. ``--spread-positions``: on the first positions, each option played on
``--spread-deals`` deals one at a time, the quantiles of a pair's |difference| on one deal (the
verdict's ``spread``). Printed: a line a position, then the figures of ``RESULTS_verdict.md``.
With ``--seeds``: each position advised at its defaults at each seed (``rng=seed * 1000 + i``),
and the stability figures of ``verdict_kanalje.py`` (a best at one seed excluded at another, the
groups of two seeds overlapping) instead of the comparison.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time

import numpy as np


def draw_positions(n: int, seed: int) -> list[tuple[int, str, object]]:
    """``n`` (hand seed, decision, Position) of seat 0, take and discard in turn."""
    from cardodds.canasta import positions, trace

    g = np.random.default_rng(seed)
    out: list[tuple[int, str, object]] = []
    while len(out) < n:
        hand_seed = int(g.integers(2**31))
        found = {"take": [], "discard": []}
        for turn, pos in positions(trace("heuristic2", rng=hand_seed), seat=0):
            if turn.what in found and len(pos.labels) >= 2:
                found[turn.what].append(pos)
        want = "take" if len(out) % 2 == 0 else "discard"
        kind = want if found[want] else ("discard" if want == "take" else "take")
        if found[kind]:
            out.append((hand_seed, kind, found[kind][int(g.integers(len(found[kind])))]))
    return out


def spread_quantiles(pos, deals: int) -> list[float]:
    """The |difference| of every pair of options on each of ``deals`` deals, one deal a run."""
    from cardodds.canasta import _advise as A
    from cardodds.canasta import advise

    ds: list[float] = []
    for s in range(deals):
        a = advise(pos, samples=1, rng=s, threads=1)
        ds += np.abs(np.atleast_1d(A.advice_layout(len(a.options)).view(a.counts).pair)).tolist()
    return ds


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--budget-seconds", type=float, default=None, help="default: the advisor's")
    ap.add_argument("--spread-positions", type=int, default=6)
    ap.add_argument("--spread-deals", type=int, default=200)
    ap.add_argument("--jsonl")
    ap.add_argument("--seeds", default=None, help="e.g. 1,2,3: each position at each seed, the stability figures")
    args = ap.parse_args()
    from cardodds.canasta import advise
    from cardodds.canasta._defaults import ADVISE_SECONDS

    budget = ADVISE_SECONDS if args.budget_seconds is None else args.budget_seconds
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    drawn = draw_positions(args.positions, args.seed)
    advise(drawn[0][2], samples=4, rng=0, threads=args.threads)  # compile
    if args.seeds:
        return stability(drawn, [int(x) for x in args.seeds.split(",")], args.threads, budget)
    records = []
    for i, (hand_seed, kind, pos) in enumerate(drawn):
        t0 = time.perf_counter()
        r = advise(pos, rng=i, threads=args.threads, budget_seconds=budget)
        dt = time.perf_counter() - t0
        t0 = time.perf_counter()
        old = advise(pos, samples=2000, rng=i, threads=args.threads)
        dt_old = time.perf_counter() - t0
        d = r.decision
        rec = {"i": i, "hand_seed": hand_seed, "decision": kind, "options": list(r.options), "kind": d.kind,
               "ranked_by": r.ranked_by, "time": dt, "rounds": d.rounds, "budget_limited": d.budget_limited,
               "worlds": list(d.worlds), "words": r.verdict, "old_best": old.ranking.best is not None,
               "old_kind": old.decision.kind, "old_time": dt_old, "position": str(pos)}
        records.append(rec)
        print(f"{i}: {kind}, {len(r.options)} options, {d.kind} in {dt:.2f} s ({d.rounds} round(s), "
              f"{max(d.worlds):,} deals{', budget' if d.budget_limited else ''}) | 2,000 deals: "
              f"{'best' if rec['old_best'] else 'no best'} by the old rule, {old.decision.kind} by one look | "
              f"{r.verdict}", flush=True)
        if args.jsonl:
            with open(args.jsonl, "a") as f:
                f.write(json.dumps(rec) + "\n")
    n = len(records)
    decided = sum(r["kind"] != "undecided" for r in records)
    kinds = {k: sum(r["kind"] == k for r in records) for k in ("best", "equal", "undecided")}
    times = [r["time"] for r in records]
    print(f"verdict (best or equal) in {decided}/{n} ({100 * decided / n:.0f}%): {kinds}; "
          f"time median {statistics.median(times):.2f} s, slowest {max(times):.2f} s; "
          f"budget-limited {sum(r['budget_limited'] for r in records)}; "
          f"deals of the most played option median {statistics.median(max(r['worlds']) for r in records):.0f}")
    for kind in ("take", "discard"):
        part = [r for r in records if r["decision"] == kind]
        if part:
            print(f"  {kind}: {len(part)} positions, verdict in {sum(r['kind'] != 'undecided' for r in part)}, "
                  f"time median {statistics.median(r['time'] for r in part):.2f} s")
    print(f"2,000 deals: a best by the old rule in {sum(r['old_best'] for r in records)}/{n}; one look: "
          + str({k: sum(r['old_kind'] == k for r in records) for k in ('best', 'equal', 'undecided')})
          + f"; time median {statistics.median(r['old_time'] for r in records):.2f} s")
    if args.spread_positions:
        ds: list[float] = []
        for _, _, pos in drawn[:args.spread_positions]:
            ds += spread_quantiles(pos, args.spread_deals)
        q = np.percentile(ds, [50, 75, 90, 95, 99, 100])
        print(f"|difference| of a pair on one deal ({len(ds):,} pairs and deals, {args.spread_positions} positions): "
              f"quantiles 50/75/90/95/99/max {' / '.join(f'{x:.0f}' for x in q)}; "
              f"zero on {100 * np.mean(np.asarray(ds) == 0):.0f}%; rms {np.sqrt(np.mean(np.square(ds))):.0f}")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def stability(drawn, seeds: list[int], threads: int, budget: float) -> None:
    """Each position advised at each seed; the verdicts' stability across seeds."""
    from cardodds.canasta import advise
    from verdict_kanalje import summary  # this folder is on the path when run as a script

    records = []
    for i, (_, kind, pos) in enumerate(drawn):
        rec: dict = {"i": i, "decision": kind, "verdicts": {}}
        for s in seeds:
            t0, c0 = time.perf_counter(), time.process_time()
            r = advise(pos, rng=s * 1000 + i, threads=threads, budget_seconds=budget)
            rec["verdicts"][str(s)] = r.decision.to_dict(r.options) | {
                "time": time.perf_counter() - t0, "cpu": time.process_time() - c0}
        records.append(rec)
        print(f"{i}: {kind}, " + " | ".join(f"seed {s}: {rec['verdicts'][str(s)]['words']}" for s in seeds),
              flush=True)
    print(summary(records, seeds))
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
