"""The verdict engine (:mod:`cardodds.verdict`) on Kanalje positions drawn from played deals,
against today's advice.

    python benchmarks/verdict_kanalje.py [--positions 30] [--seed 1] [--seeds 1,2,3] [--advise]
        [--margin 0.25] [--budget-seconds 6] [--round-worlds 16] [--rounds 10] [--spread 4]
        [--control 20000] [--threads 2] [--jsonl FILE] [--no-today]

Positions: deal ``i`` is played by ``heuristic`` at every seat from a seed drawn from
``--seed``; one card play of seat 0 in tricks 4 to 14 with two legal cards or more is drawn
at random (the same generator), and seat 0 is given it as it knew it (hand, turned card, every
trick so far). Each position is decided by :func:`cardodds.verdict.decide` with the advice's
default lineup (``lookahead`` at every seat, its default worlds a decision), playing only the
options still in the running on each round's worlds through the advice kernel (its
``PositionArrays`` given the active cards), cards equal by the rules (touching ranks of a suit
with no unseen card between, :func:`cardodds.kanalje._advise.interchangeable`) played once, at
each seed of ``--seeds`` (each round a run of its own, seeded by the seed and the round's
number). With ``--control N``, heuristic players also play every option out on each world
from the same random state, and their difference, whose mean ``N`` other worlds measure, is a
control variate (the verdict's ``control_gain``). Today's ``advise`` (its default 40 worlds,
seed 1) is run on the same positions for its verdict rate (``best`` named). Printed: a line a
position, then the targets' figures.
With ``--advise`` each position is decided by the public call at its defaults
(``kanalje.advise(Position(...), rng=seed)``: the figures a player gets). Results: ``RESULTS_verdict.md``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

# Run as a script, this folder comes first on the path, where dask.py would hide the dask package
# from the Dask check.
if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)

from cardodds.verdict import Budget, Sums, decide


def draw_positions(n: int, seed: int, first: int = 4, last: int = 14) -> list[tuple[int, dict]]:
    """``n`` card plays of seat 0 in tricks ``first`` to ``last`` (1 = the first trick), one a deal."""
    from cardodds.cards import card_str, parse_cards
    from cardodds.kanalje import KanaljeRules, trace
    from cardodds.kanalje._position import check_position

    rules = KanaljeRules()
    g = np.random.default_rng(seed)
    out: list[tuple[int, dict]] = []
    while len(out) < n:
        deal_seed = int(g.integers(2**31))
        t = trace("heuristic", rng=deal_seed)
        hands = {m.seat: set(parse_cards(list(m.cards))) for m in t.moves if m.action == "deal"}
        turned = t.info["turned"]
        plays = [m for m in t.moves if m.action == "play"]
        candidates = []
        for k, m in enumerate(plays):
            if m.seat != 0 or not first <= k // 3 + 1 <= last:
                continue
            done = plays[:k]
            mine = hands[0] - set(parse_cards([c for p in done if p.seat == 0 for c in p.cards]))
            tricks = [done[j:j + 3] for j in range(0, len(done), 3)]
            played = "; ".join(f"{tr[0].seat}: " + " ".join(p.cards[0] for p in tr) for tr in tricks)
            pos = dict(seat=0, hand=" ".join(card_str(c) for c in sorted(mine)), turned=turned, played=played or None)
            if len(check_position(0, pos["hand"], turned, pos["played"], rules).options) >= 2:
                candidates.append(pos)
        if candidates:
            out.append((deal_seed, candidates[int(g.integers(len(candidates)))]))
    return out


def _sums(counts, a: int, partial: bool) -> Sums:
    """:class:`Sums` of my points for the deal from an advice run's counts of ``a`` options."""
    from cardodds.kanalje import _advise as KA

    v = KA.ADVICE.view(counts)
    score = v.score.reshape(4, KA.MAX_OPTIONS)
    pair = v.pair.reshape(4, KA.PAIRS)
    return Sums.of_counts(int(v.deals), score[0, :a], score[1, :a], pair[0], pair[1], KA.pair_index, partial)


def _controlled_kernel(state, n, out, look, cheap, a):
    """``n`` worlds, each played out by the look-ahead lineup (``look``: the advice kernel's
    arguments) and by heuristic players (``cheap``) from the same random state: the same world,
    the same draws. ``out``: ``[n, x (a, 2), d (a, a, 2), c (a, a, 3)]``."""
    from cardodds.kanalje import _advise as KA

    o = np.zeros(KA.ADVICE.size, dtype=np.int64)
    h = np.zeros(KA.ADVICE.size, dtype=np.int64)
    xs = np.empty((n, a), dtype=np.int64)
    ys = np.empty((n, a), dtype=np.int64)
    for w in range(n):
        s2 = state.copy()
        o[:] = 0
        KA.advise_kernel(state, 1, o, *look)
        h[:] = 0
        KA.advise_kernel(s2, 1, h, *cheap)
        xs[w] = KA.ADVICE.view(o).score[:a]
        ys[w] = KA.ADVICE.view(h).score[:a]
    s = Sums.of(xs, control=ys)
    out += np.concatenate([[s.n], s.x.ravel(), s.d.ravel(), s.c.ravel()]).astype(np.int64)


def kanalje_play(pos: dict, policies: str = "lookahead", threads: int | None = 2, control: int = 0, seed: int = 0):
    """``(play, names, same, control)``: the advice kernel playing the active cards of ``pos`` on
    each round's worlds (:class:`cardodds.verdict.Sums` of my points for the deal), the cards'
    names, the cards equal by the rules, and with ``control`` worlds the heuristic players'
    mean differences on that many other worlds (``play`` then plays heuristic players on each
    world too, for the control variate)."""
    from cardodds.cards import card_str
    from cardodds.engine import run
    from cardodds.kanalje import KanaljeRules
    from cardodds.kanalje import _advise as KA
    from cardodds.kanalje._policies import calls
    from cardodds.kanalje._position import check_position
    from cardodds.kanalje.policies import DEFAULT_LOOKAHEAD_SAMPLES, resolve_policies
    from cardodds.rng import child

    rules = KanaljeRules()
    p = check_position(pos["seat"], pos["hand"], pos["turned"], pos["played"], rules)
    codes, _, _ = resolve_policies(policies, rules.players)
    cards = np.array(p.options, dtype=np.int64)
    k = len(cards)
    same = KA.interchangeable(p.table, p.seat, cards)
    pol = np.array(codes, dtype=np.int64)
    kernel_calls = calls(None, codes, None)

    def arrays(sub):
        return KA.PositionArrays(p.table, p.deal, p.seat, sub, np.arange(len(sub), dtype=np.int64))

    def look(sub):
        return (arrays(sub), pol, DEFAULT_LOOKAHEAD_SAMPLES, kernel_calls, None, None)

    def cheap(sub):
        return (arrays(sub), None, DEFAULT_LOOKAHEAD_SAMPLES, None, None, None)

    def play(active: np.ndarray, n: int, rng) -> Sums:
        sub = cards[active]
        a = len(sub)
        if not control:
            res = run(KA.advise_kernel, look(sub), KA.ADVICE.size, samples=n, rng=rng, chunk_size=4,
                      threads=threads, unit="world")
            return _sums(res.counts, a, res.partial)
        size = 1 + 2 * a + 5 * a * a
        res = run(_controlled_kernel, (look(sub), cheap(sub), a), size, samples=n, rng=rng, chunk_size=4,
                  threads=threads, unit="world")
        c = res.counts.astype(np.float64)
        return Sums(int(c[0]), c[1:1 + 2 * a].reshape(a, 2), c[1 + 2 * a:1 + 2 * a + 2 * a * a].reshape(a, a, 2),
                    res.partial, c[1 + 2 * a + 2 * a * a:].reshape(a, a, 3))

    mu_var = None
    if control:
        res = run(KA.advise_kernel, cheap(cards), KA.ADVICE.size, samples=control,
                  rng=child(np.random.SeedSequence(seed), 10**6), chunk_size=1024, threads=threads)
        s = _sums(res.counts, k, False)
        m = s.n
        mu = s.d[:, :, 0] / m
        mu_var = (mu, np.maximum(s.d[:, :, 1] / m - mu * mu, 0.0) / (m - 1))
    return play, [card_str(c) for c in p.options], same, mu_var


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--margin", type=float, default=0.25)
    ap.add_argument("--budget-seconds", type=float, default=6.0)
    ap.add_argument("--round-worlds", type=int, default=16)
    ap.add_argument("--spread", type=float, default=4.0)
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                    help="what --budget-seconds counts: wall seconds, or this process's CPU seconds (on a shared "
                         "machine, CPU seconds / threads is about the wall time on a free one)")
    ap.add_argument("--control", type=int, default=0,
                    help="heuristic worlds measuring the control variate's mean (0: no control variate)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--jsonl")
    ap.add_argument("--check-backends", type=int, default=0, metavar="N",
                    help="only check the first N positions' verdicts (seed 1, --budget-worlds, no time budget) on "
                         "1 and 2 threads and on local:2 Dask")
    ap.add_argument("--budget-worlds", type=int, default=240)
    ap.add_argument("--no-today", action="store_true")
    ap.add_argument("--advise", action="store_true",
                    help="decide each position by the public call, kanalje.advise(Position(...), rng=seed), at its "
                         "defaults (margin, rounds, time budget): the figures a player gets")
    args = ap.parse_args()
    from cardodds.kanalje import Position, advise

    seeds = [int(s) for s in args.seeds.split(",")]
    print(f"load average at the start: {os.getloadavg()[0]:.2f}", flush=True)
    positions = draw_positions(args.positions, args.seed)
    if args.check_backends:
        check_backends(positions[:args.check_backends], args)
        return
    done = {}
    if args.jsonl and Path(args.jsonl).exists():
        for line in Path(args.jsonl).read_text().splitlines():
            old = json.loads(line)
            done[old["i"]] = old
    advise(Position(**positions[0][1]), samples=4, rng=0, threads=args.threads)  # compile
    warm, *_ = kanalje_play(positions[0][1], threads=args.threads, control=args.control and 2048)
    warm(np.arange(2), 4, np.random.SeedSequence(0))
    records = []
    for i, (deal_seed, pos) in enumerate(positions):
        if i in done:
            records.append(done[i])
            continue
        rec: dict = {"i": i, "deal_seed": deal_seed, "position": pos, "options": [], "verdicts": {}}
        for s in seeds:
            t0, c0 = time.perf_counter(), time.process_time()
            if args.advise:
                r = advise(Position(**pos), rng=s, threads=args.threads)
                names = list(r.options)
                rec["options"] = names
                rec["verdicts"][str(s)] = {**r.decision.to_dict(names), "time": time.perf_counter() - t0,
                                           "cpu": time.process_time() - c0}
                continue
            play, names, same, control = kanalje_play(pos, threads=args.threads, control=args.control, seed=s)
            clock = time.process_time if args.clock == "cpu" else time.perf_counter
            budget = Budget(args.round_worlds, args.rounds, budget_seconds=args.budget_seconds, clock=clock)
            v = decide(play, len(names), margin=args.margin, rng=s, budget=budget, same=same, spread=args.spread,
                       control=control, unit="points")
            rec["options"] = names
            dt, cpu = time.perf_counter() - t0, time.process_time() - c0
            rec["verdicts"][str(s)] = {**v.to_dict(names), "time": dt, "cpu": cpu}
        if not args.no_today:
            t0 = time.perf_counter()
            r = advise(Position(**pos), samples=40, rng=1, threads=args.threads)
            rec["today"] = {"best": r.best, "time": time.perf_counter() - t0, "verdict": r.verdict,
                            "clearly_worse": r.clearly_worse}
        records.append(rec)
        v1 = rec["verdicts"][str(seeds[0])]
        print(f"{i}: {len(pos['hand'].split())} cards, {len(names)} options | "
              + " | ".join(f"seed {s}: {rec['verdicts'][str(s)]['kind']} {rec['verdicts'][str(s)]['time']:.1f} s"
                           for s in seeds)
              + f" | {v1['words']}"
              + (f" | today: {rec['today']['best']} ({rec['today']['time']:.1f} s)" if "today" in rec else ""),
              flush=True)
        if args.jsonl:
            with open(args.jsonl, "a") as f:
                f.write(json.dumps(rec) + "\n")
    print(summary(records, seeds))
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


def check_backends(positions, args) -> None:
    """The same verdict, figure for figure, on 1 and 2 threads and on two Dask workers."""
    import cardodds

    for i, (_, pos) in enumerate(positions):
        got = []
        for label, threads, spec in (("1 thread", 1, "threads"), ("2 threads", 2, "threads"),
                                     ("local:2 Dask", None, "local:2")):
            play, names, same, _ = kanalje_play(pos, threads=threads)
            t0 = time.perf_counter()
            with cardodds.backend(spec):
                v = decide(play, len(names), margin=args.margin, rng=1, same=same, spread=args.spread, unit="points",
                           budget=Budget(round_worlds=args.round_worlds, budget_worlds=args.budget_worlds))
            got.append(v)
            print(f"position {i}, {label}: {v.words(names)} | worlds {v.worlds} | means "
                  f"{[round(m, 4) for m in v.means]} ({time.perf_counter() - t0:.1f} s)", flush=True)
        same_all = all(g == got[0] and g.means == got[0].means for g in got)
        print(f"position {i}: {'the same' if same_all else 'DIFFERENT'} on 1 and 2 threads and local:2 Dask",
              flush=True)


def summary(records: list[dict], seeds: list[int]) -> str:
    """The targets' figures over ``records``."""
    n = len(records)
    lines = []
    for s in seeds:
        vs = [r["verdicts"][str(s)] for r in records]
        decided = sum(v["kind"] != "undecided" for v in vs)
        times = [v["time"] for v in vs]
        cpus = [v["cpu"] / 2 for v in vs]
        kinds = {k: sum(v["kind"] == k for v in vs) for k in ("best", "equal", "undecided")}
        worlds = [max(w["worlds"] for w in v["worlds"]) for v in vs]
        spent = [sum(w["worlds"] for w in v["worlds"] if w["same_as"] == w["option"]) for v in vs]
        gains = [v["control_gain"] for v in vs if v.get("control_gain") is not None]
        lines.append(f"seed {s}: verdict in {decided}/{n} ({100 * decided / n:.0f}%): {kinds}; time median "
                     f"{statistics.median(times):.2f} s, slowest {max(times):.2f} s (CPU s / 2: median "
                     f"{statistics.median(cpus):.2f}, slowest {max(cpus):.2f}); worlds of the most played option "
                     f"median {statistics.median(worlds):.0f} (max {max(worlds)}); option-worlds median "
                     f"{statistics.median(spent):.0f}"
                     + (f"; control variate: variance without / with, median {statistics.median(gains):.2f} "
                        f"(range {min(gains):.2f} to {max(gains):.2f})" if gains else ""))
    # stability: the option named best at one seed is never clearly worse (excluded) at another;
    # the groups of two seeds overlap
    bad = overlap = pairs = 0
    for r in records:
        for a in seeds:
            for b in seeds:
                if a >= b:
                    continue
                va, vb = r["verdicts"][str(a)], r["verdicts"][str(b)]
                pairs += 1
                overlap += bool(set(va["group"]) & set(vb["group"]))
                for x, y in ((va, vb), (vb, va)):
                    if x["kind"] == "best" and set(x["group"]) & {e["option"] for e in y["excluded"]}:
                        bad += 1
    lines.append(f"stability over seeds {seeds}: a best at one seed excluded at another in {bad} cases; "
                 f"groups overlap in {overlap}/{pairs} seed pairs")
    per_pos = sum(all(set(r["verdicts"][str(a)]["group"]) & set(r["verdicts"][str(b)]["group"])
                      for a in seeds for b in seeds if a < b) for r in records)
    lines.append(f"positions whose groups overlap at every pair of seeds: {per_pos}/{n} ({100 * per_pos / n:.0f}%)")
    today = [r["today"] for r in records if "today" in r]
    if today:
        named = sum(t["best"] is not None for t in today)
        median = statistics.median(t["time"] for t in today)
        lines.append(f"today's advise (40 worlds, seed 1): best named in {named}/{len(today)} "
                     f"({100 * named / len(today):.0f}%); time median {median:.2f} s, "
                     f"slowest {max(t['time'] for t in today):.2f} s")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
