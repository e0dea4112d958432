"""The Känä advisor's verdict (``kana.advise`` by default: :mod:`cardodds.verdict`) on drawn
positions, against the fixed run and its old rule.

    python benchmarks/verdict_kana.py [--positions 10] [--seed 1] [--seeds 1,2,3] [--players 3,4,5]
        [--variants peek-one,peek-all] [--policies table] [--threads 2] [--jsonl FILE]

Positions: for each variant and player count, ``--positions`` deals drawn from ``--seed``; a
seat drawn at random knows its cards as the variant lets it (peek-one: the first, peek-all: all
three) and the känäd cards of the seats before it, each the känä of that seat's three cards by
the others' strategy (``table``: the equilibrium table; ``blind``: a card at random). Each is
put to ``kana.advise`` with its defaults (margin 0.005 antes, rounds of 4,096 deals doubling, 12
at most, 3 s budget) at each seed of ``--seeds``, wall time counted with the kernel compiled
beforehand. The old advice (a million deals, the best named when its paired difference to each
other option excludes zero, :func:`cardodds.advice.decide`) is run at seed 1 for comparison.
Printed: a line a position and seed, then the figures. Results: ``RESULTS_verdict.md`` (Känä).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

if sys.path and Path(sys.path[0] or ".").resolve() == Path(__file__).resolve().parent:
    sys.path.pop(0)  # as a script, this folder comes first on the path (its dask.py hides dask)

from cardodds.cards import card_str  # noqa: E402
from cardodds.kana import KanaRules, Position, advise  # noqa: E402
from cardodds.kana._defaults import DECISION_SAMPLES  # noqa: E402
from cardodds.kana.equilibrium import table_strategy  # noqa: E402


def _kana(variant: str, strategy, hand: list[str], seen: list[str], g: np.random.Generator) -> str:
    """The card a seat before mine känäs: the equilibrium table's choice (None: blind, at random)."""
    if strategy is None:
        return hand[int(g.integers(3))]
    if variant == "peek-one":
        return hand[0] if strategy.kanas(hand[0], seen=" ".join(seen) or None) else hand[1 + int(g.integers(2))]
    c = strategy.choose(" ".join(hand), seen=" ".join(seen) or None)
    return hand[int(g.integers(3))] if c == "?" else c


def positions(variant: str, players: int, count: int, g: np.random.Generator, policies: str):
    """``count`` positions of ``variant`` at ``players``: (position, rules)."""
    rules = KanaRules(players, variant)
    strategy = table_strategy(variant, players) if policies == "table" else None
    out: list[tuple[Position, KanaRules]] = []
    while len(out) < count:
        deal = g.choice(52, 3 * players, replace=False).reshape(players, 3)
        seat = int(g.integers(players))
        mine = [card_str(int(c)) for c in deal[seat]]
        hand = f"{mine[0]} ? ?" if variant == "peek-one" else " ".join(mine)
        seen: list[str] = []
        for s in range(seat):
            seen.append(_kana(variant, strategy, [card_str(int(c)) for c in deal[s]], seen, g))
        kanad = " ".join(seen) or None
        pos = Position(hand, seat=seat, kanad=kanad)
        try:
            advise(pos, rules=rules, policies=policies, samples=16, rng=0)
        except ValueError:
            continue  # a känäd card this strategy never känäs
        out.append((pos, rules))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--players", default="3,4,5")
    ap.add_argument("--variants", default="peek-one,peek-all")
    ap.add_argument("--policies", default="table")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--jsonl", default=None)
    args = ap.parse_args(argv)
    seeds = [int(s) for s in args.seeds.split(",")]
    g = np.random.default_rng(args.seed)
    drawn = [p for v in args.variants.split(",") for n in args.players.split(",")
             for p in positions(v, int(n), args.positions, g, args.policies)]
    for rules in {r for _, r in drawn}:  # compile
        pos = next(p for p, r in drawn if r == rules)
        advise(pos, rules=rules, policies=args.policies, rng=0, budget_rounds=1)
    rows = []
    sink = open(args.jsonl, "w") if args.jsonl else None
    for i, (pos, rules) in enumerate(drawn):
        t = time.perf_counter()
        old = advise(pos, rules=rules, policies=args.policies, samples=DECISION_SAMPLES, rng=1, threads=args.threads)
        old_s = time.perf_counter() - t
        row = {"i": i, "variant": rules.variant, "players": rules.players, "position": str(pos),
               "old_best": None if old.ranking.best is None else old.options[old.ranking.best], "old_seconds": old_s,
               "runs": []}
        for seed in seeds:
            t = time.perf_counter()
            a = advise(pos, rules=rules, policies=args.policies, rng=seed, threads=args.threads)
            s = time.perf_counter() - t
            d = a.decision
            row["runs"].append({"seed": seed, "kind": d.kind, "seconds": s, "rounds": d.rounds, "deals": a.samples,
                                "top": a.options[d.top], "group": [a.options[j] for j in d.group],
                                "excluded": [a.options[j] for j in d.excluded], "verdict": a.verdict,
                                "budget_limited": d.budget_limited})
            print(f"{i:3d} {rules.variant} {rules.players} {str(pos):40s} seed {seed}: {d.kind:9s} {s:6.2f} s "
                  f"{d.rounds:2d} rounds {a.samples:>10,} deals  {a.verdict}", flush=True)
        rows.append(row)
        if sink:
            sink.write(json.dumps(row) + "\n")
    if sink:
        sink.close()
    report(rows, seeds)
    return 0


def report(rows, seeds) -> None:
    groups = [("all", rows)] + [(f"{v} {n}", [r for r in rows if r["variant"] == v and r["players"] == n])
                                for v in ("peek-one", "peek-all") for n in sorted({r["players"] for r in rows})]
    print("\n| positions | n " + " ".join(f"| seed {s}: a verdict (best / equal) " for s in seeds)
          + "| median s | slowest s | old rule: a best named |")
    for name, rs in groups:
        if not rs:
            continue
        cells = []
        for k in range(len(seeds)):
            runs = [r["runs"][k] for r in rs]
            decided = sum(x["kind"] != "undecided" for x in runs)
            best = sum(x["kind"] == "best" for x in runs)
            cells.append(f"{decided}/{len(runs)} ({best} / {decided - best})")
        secs = [x["seconds"] for r in rs for x in r["runs"]]
        old = sum(r["old_best"] is not None for r in rs)
        print(f"| {name} | {len(rs)} | " + " | ".join(cells)
              + f" | {statistics.median(secs):.3f} | {max(secs):.2f} | {old}/{len(rs)} |")
    # stability: a känä named best at one seed excluded at another
    clashes = pairs = overlap = 0
    for r in rows:
        for a in r["runs"]:
            for b in r["runs"]:
                if a is b:
                    continue
                pairs += 1
                if a["kind"] == "best" and a["top"] in b["excluded"]:
                    clashes += 1
                if set(a["group"]) & set(b["group"]):
                    overlap += 1
    deals = [x["deals"] for r in rows for x in r["runs"]]
    print(f"\nbest at one seed excluded at another: {clashes} of {pairs} ordered seed pairs; groups overlap in "
          f"{overlap} of {pairs}; deals a run (median / max): {int(statistics.median(deals)):,} / {max(deals):,}; "
          f"old run {statistics.median([r['old_seconds'] for r in rows]):.2f} s median")
    old_agree = sum(1 for r in rows if r["old_best"] is not None and r["runs"][0]["kind"] == "best"
                    and r["runs"][0]["top"] == r["old_best"])
    print(f"old best named and the verdict's best at seed {seeds[0]} the same: {old_agree} of "
          f"{sum(r['old_best'] is not None for r in rows)}")


if __name__ == "__main__":
    raise SystemExit(main())
