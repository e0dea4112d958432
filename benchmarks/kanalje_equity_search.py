"""Search played Kanalje deals for a position where the card that wins the game differs from the
card that wins the most points (docs/kanalje-advise.md, "The game at stake").

Deals are played by heuristic players (``kanalje.trace``); at each of their last tricks' decisions
with two or more legal cards, the advisor (heuristic players, a fixed number of worlds) is asked
without a score and with each of a few close scores; a position is kept where both verdicts name
a best card and the two differ.

    python benchmarks/kanalje_equity_search.py [--deals 200] [--samples 4000] [--from-trick 10]
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools

from cardodds import kanalje

#: Totals a seat tried: far, near and at the doorstep of 21.
TOTALS = (8, 14, 17, 19, 20)


def scores(players: int):
    for s in itertools.product(TOTALS, repeat=players):
        yield s


def main(argv=None) -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--samples", type=int, default=4000)
    ap.add_argument("--from-trick", type=int, default=10)
    ap.add_argument("--first", type=int, default=0, help="the first deal's seed")
    a = ap.parse_args(argv)
    found = 0
    for k in range(a.first, a.first + a.deals):
        tr = kanalje.trace("heuristic", rng=k)
        for turn, pos in tr.positions("all"):
            if len(pos.options) < 2 or len(pos.played) < a.from_trick:
                continue
            plain = kanalje.advise(pos, policies="heuristic", samples=a.samples, rng=1)
            if plain.decision is None or plain.decision.kind != "best":
                continue
            for sc in scores(pos.rules.players):
                try:
                    p = dataclasses.replace(pos, score=sc)
                except ValueError:
                    continue
                r = kanalje.advise(p, policies="heuristic", samples=a.samples, rng=1)
                if r.decision is not None and r.decision.kind == "best" and r.best != plain.best:
                    found += 1
                    print(f"deal rng={k} {turn.what}: points say {plain.best}, the game at {sc} says {r.best}")
                    print(f"  {p}")
                    print(f"  points: {plain.verdict}")
                    print(f"  equity: {r.verdict}")
                    break
    print(f"{found} positions found")


if __name__ == "__main__":
    main()
