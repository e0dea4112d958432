"""Reviews at their defaults: the same labels on three seeds, and how long a deal or hand takes.

    python benchmarks/review_stability.py --game kanalje [--records 6] [--seeds 1,2,3] [--player lookahead]
        [--budget-seconds S] [--only 3,6]
    python benchmarks/review_stability.py --game canasta [--records 3] [--seeds 1,2,3] [--player heuristic2]
    python benchmarks/review_stability.py --game kana [--records 3] [--seeds 1,2,3] [--player threshold:8]

Records: record ``i`` (1 to ``--records``) is played by ``--player`` at every seat from seed
``i`` (Kanalje: a deal; Canasta: a hand; Känä: an evening of 10 rounds at 4 players,
peek-one); seat 0 is reviewed at the review's defaults (rounds until a verdict, then the move
made priced until its rating is clear, within the game's seconds a decision) at each seed of
``--seeds``, compiled first. Printed: a line a record and seed (wall time, rated decisions, how
many ``about``), then over every rated decision the share whose label is the same at every seed
(the label alone, and the rating with ``about``), the same share were an unsettled decision
labelled by its estimate's band or by its interval's upper end instead of its lower end (the
review's rule), and the median and slowest wall time of a record. Results:
``RESULTS_review_stability.md``.
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import time


def _review(game: str):
    if game == "kanalje":
        from cardodds.kanalje import review, trace

        return review, lambda player, seed: trace(player, rng=seed)
    if game == "canasta":
        from cardodds.canasta import review, trace

        return review, lambda player, seed: trace(player, rng=seed)
    from cardodds.kana import KanaRules, review, trace

    return review, lambda player, seed: trace(player, rules=KanaRules(4, "peek-one"), rounds=10, first=0, rng=seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=("kanalje", "canasta", "kana"), required=True)
    ap.add_argument("--records", type=int, default=None, help="records (default 6 Kanalje, 3 Canasta, 3 Känä)")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--player", default=None, help="who plays the records (default lookahead, heuristic2, "
                    "threshold:8)")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--budget-seconds", type=float, default=None, help="a decision's budget (default the review's)")
    ap.add_argument("--only", default=None, help="records to run, e.g. 3,6 (default all)")
    a = ap.parse_args()
    records = a.records or {"kanalje": 6, "canasta": 3, "kana": 3}[a.game]
    player = a.player or {"kanalje": "lookahead", "canasta": "heuristic2", "kana": "threshold:8"}[a.game]
    seeds = [int(s) for s in a.seeds.split(",")]
    review, record = _review(a.game)
    review(record(player, 1), seat=0, samples=16, rng=0)  # compile
    print(f"{a.game}: {records} records played by {player}, seat 0 reviewed at seeds {seeds}; load "
          f"{os.getloadavg()[0]:.1f}")
    walls: list[float] = []
    labels: dict[tuple[int, int], list[tuple[str, str]]] = {}
    costs: dict[tuple[int, int], list] = {}
    module = importlib.import_module(f"cardodds.{a.game}.review")
    cuts = module.THRESHOLDS.cuts()
    budget = {} if a.budget_seconds is None else {"budget_seconds": a.budget_seconds}
    for i in range(1, records + 1):
        if a.only and str(i) not in a.only.split(","):
            continue
        t = record(player, i)
        for s in seeds:
            t0 = time.perf_counter()
            r = review(t, seat=0, rng=s, threads=a.threads, **budget)
            wall = time.perf_counter() - t0
            walls.append(wall)
            rated = [d for d in r.decisions if d.label != "forced"]
            for n, d in enumerate(r.decisions):
                if d.label != "forced":
                    labels.setdefault((i, n), []).append((d.label, d.rating))
                    costs.setdefault((i, n), []).append((d.rated_cost, d.win_cost is not None))
            print(f"  record {i} seed {s}: {wall:5.1f} s, {len(rated)} rated, {sum(d.about for d in rated)} about: "
                  + " ".join(d.rating.replace("about ", "~") for d in rated), flush=True)
    full = [v for v in labels.values() if len(v) == len(seeds)]
    same = sum(len({x[0] for x in v}) == 1 for v in full)
    same_rating = sum(len({x[1] for x in v}) == 1 for v in full)
    print(f"labels the same at every seed: {same}/{len(full)} ({100 * same / max(len(full), 1):.1f}%); "
          f"ratings with 'about' the same: {same_rating}/{len(full)} ({100 * same_rating / max(len(full), 1):.1f}%)")
    from cardodds.review import _band

    for name, at in (("its estimate", lambda c: c.value), ("its interval's upper end", lambda c: c.hi)):
        def band(c, win):
            return _band(at(c), module.THRESHOLDS.cuts(win) if win else cuts)
        same_by = sum(len({band(c, w) for c, w in v}) == 1 for v in costs.values() if len(v) == len(seeds))
        print(f"  an unsettled decision labelled by {name} instead: {same_by}/{len(full)} the same "
              f"({100 * same_by / max(len(full), 1):.1f}%)")
    differ = [(k, v) for k, v in labels.items() if len({x[0] for x in v}) > 1]
    for (i, n), v in differ:
        print(f"  record {i} decision {n + 1}: " + ", ".join(x[1] for x in v))
    print(f"a record: median {statistics.median(walls):.1f} s, slowest {max(walls):.1f} s; load "
          f"{os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
