"""Polish Canasta: the strength ladder of the built-in players, paired, in hands and in games.

Run: ``python benchmarks/canasta_ladder.py [--pairs N] [--lookahead-pairs M] [--game-pairs G]
[--lookahead-game-pairs L] [--seed S]``; writes ``benchmarks/RESULTS_canasta_ladder.md``.

Every pair of players (random, heuristic, heuristic2, lookahead) plays
``cardodds.canasta.strength``: each deal twice from the same random stream, A at seats 0+2
then at seats 1+3, so the luck of the deal cancels. For each pair: A's edge in points a hand
(A's side minus B's, the mean over the pair) and P(A's side better over the pair), with 95%
intervals. Then the same pairs in whole games to 10,000 (``game_strength(...)``: each
pair of games from the same stream and pack order, A's side dealing first in one, B's in the
other): P(A's side wins a game). ``heuristic2 (old)`` is heuristic2 as it was before its
memory of the discards and its going out for the game (``HeuristicParams(match_discards=0,
out_for_game=0)``): the new one must beat it to earn its place. Each match runs from its own
child seed of ``--seed`` (child i for the i-th match of :data:`MATCHES`).

The ladder's claims: lookahead beats heuristic2 and heuristic2 beats heuristic, each with an
interval excluding zero. The look-ahead player plays out every option of its take / discard /
go-out decisions on 16 sampled worlds, so its matches run ``--lookahead-pairs`` deal pairs and
``--lookahead-game-pairs`` game pairs; every match's wall time is reported (both cores).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

from cardodds.canasta import HeuristicParams, game_strength, strength
from cardodds.canasta._play import M
from cardodds.rng import as_seed_sequence, child
from cardodds.stats import Estimate

OLD = "heuristic2 (old)"
#: heuristic2 before the discard memory and going out for the game.
OLD_PARAMS = HeuristicParams(match_discards=0, out_for_game=0)
#: ``(A, B, look-ahead sized)``: played in hands, then in games.
MATCHES = (("heuristic2", "heuristic", False), ("heuristic2", "random", False), ("heuristic", "random", False),
           ("heuristic2", OLD, False), ("lookahead", "heuristic2", True), ("lookahead", "heuristic", True),
           ("lookahead", "random", True))
#: The claims: A beats B with an interval excluding zero.
CLAIMS = (("lookahead", "heuristic2"), ("heuristic2", "heuristic"), ("heuristic2", OLD))
OUT = Path(__file__).with_name("RESULTS_canasta_ladder.md")


def _match(a: str, b: str, n: int, seed, games: bool):
    params_b = OLD_PARAMS if b == OLD else None
    t0 = time.perf_counter()
    ask = game_strength if games else strength
    r = ask(a, "heuristic2" if b == OLD else b, samples=n, rng=seed, params_b=params_b)
    return r, time.perf_counter() - t0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pairs", type=int, default=50_000, help="deal pairs a match (default 50,000)")
    ap.add_argument("--lookahead-pairs", type=int, default=1_000,
                    help="deal pairs of a lookahead match (default 1,000; 0 skips them)")
    ap.add_argument("--game-pairs", type=int, default=2_000, help="game pairs a match (default 2,000)")
    ap.add_argument("--lookahead-game-pairs", type=int, default=100,
                    help="game pairs of a lookahead match (default 100; 0 skips them)")
    ap.add_argument("--seed", type=int, default=19, help="seed of the ladder (default 19)")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args(argv)
    load0 = os.getloadavg()
    ss, _ = as_seed_sequence(args.seed)
    strength("lookahead", "heuristic2", samples=2, rng=0)  # compiled before the clocks start
    game_strength("lookahead", "heuristic2", samples=1, rng=0)
    hands, games = [], []
    t_all = time.perf_counter()
    for i, (a, b, look) in enumerate(MATCHES):
        for rows, g, n in ((hands, False, args.lookahead_pairs if look else args.pairs),
                           (games, True, args.lookahead_game_pairs if look else args.game_pairs)):
            if n <= 0:
                continue
            r, wall = _match(a, b, n, child(ss, i, int(g)), g)
            rows.append((a, b, r, wall))
            what = f"wins {r.win.format()}" if g else f"better {r.better.format()}"
            print(f"{a} vs {b} ({'games' if g else 'hands'}): {r.points.format(1, sign=True)} points, {what} "
                  f"({wall:.0f} s)", flush=True)
    wall_all = time.perf_counter() - t_all
    load1 = os.getloadavg()
    cmd = "python benchmarks/canasta_ladder.py" + ("" if argv is None and len(sys.argv) == 1
                                                   else " " + " ".join(argv if argv is not None else sys.argv[1:]))
    lines = [
        "# Polish Canasta: the strength ladder (paired)", "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}; load average "
        f"at the start {load0[0]:.1f} / {load0[1]:.1f} / {load0[2]:.1f}, at the end {load1[0]:.1f} / {load1[1]:.1f} / "
        f"{load1[2]:.1f} (other jobs share the cores); {wall_all:.0f} s wall for the whole ladder on "
        f"{os.cpu_count()} cores, compiled first (each match's wall time in its row).", "",
        f"Command: `{cmd}` ({args.pairs:,} deal pairs a match and {args.game_pairs:,} game pairs, "
        f"{args.lookahead_pairs:,} and {args.lookahead_game_pairs:,} for lookahead; seed {args.seed}; the i-th match "
        "of `MATCHES` from child (i, 0) of the seed in hands, (i, 1) in games). Each deal is played twice, A at seats "
        "0+2 then at seats 1+3, on the same random stream; each game pair likewise, A's side dealing the first hand "
        "in one game and B's in the other. Rules: the defaults of docs/rules/canasta.md (games to 10,000). "
        f"`{OLD}` is heuristic2 before its memory of the discards and its going out for the game "
        "(`HeuristicParams(match_discards=0, out_for_game=0)`).", "",
        "## Points a hand", "",
        "| A | B | A minus B, points a hand | P(A's side better over the pair) | P(B's side better) | pairs | wall |",
        "|---|---|---:|---:|---:|---:|---:|",
    ]
    lines += [f"| {a} | {b} | {r.points.format(1, sign=True)} | {r.better.format()} | "
              f"{Estimate.proportion(int(M.view(r.counts).worse), r.pairs).format()} | {r.pairs:,} | {w:.0f} s |"
              for a, b, r, w in hands]
    lines += ["", "A pair neither side wins is a tie (both plays alike, or the margins cancel): the two "
              "probabilities need not add to 1.", "",
              "## Games to 10,000", "",
              "| A | B | P(A's side wins a game) | A minus B, points a game | hands a game | game pairs | wall |",
              "|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {a} | {b} | {r.win.format()} | {r.points.format(0, sign=True)} | {r.mean_hands.format(1)} | "
              f"{r.pairs:,}{'' if not r.unfinished else f' ({r.unfinished} games unfinished)'} | {w:.0f} s |"
              for a, b, r, w in games]
    lines += ["", "P(A's side wins a game) is the mean over the pairs of the share of the pair's two games A won "
              "(0, 1/2 or 1), with its normal 95% interval; 0.5 is no difference (1.0000 [1.0000, 1.0000]: A's side "
              "won every game, and the normal interval has no width).", "", "## Verdicts", ""]
    for a, b in CLAIMS:
        for rows, unit in ((hands, "hand"), (games, "game")):
            for a2, b2, r, _w in rows:
                if (a2, b2) == (a, b):
                    lines += [_verdict(a, b, r, unit), ""]
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


def _verdict(a: str, b: str, r, unit: str) -> str:
    if unit == "game":
        e = r.win
        if e.lo > 0.5:
            return f"In games, {a} beats {b}: it wins {e.format()} of the games, the interval excludes one half."
        return (f"In games, {a} does NOT beat {b} at this precision: it wins {e.format()} of {2 * r.pairs:,} games; "
                f"the interval's lower end falls {0.5 - e.lo:.4f} short of one half.")
    e = r.points
    if e.lo > 0:
        return f"{a} beats {b}: {e.format(1, sign=True)} points a hand, the interval excludes zero."
    return (f"{a} does NOT beat {b} at this precision: {e.format(1, sign=True)} points a hand over {r.pairs:,} pairs; "
            f"the interval's lower end falls {-e.lo:.1f} points short of zero.")


if __name__ == "__main__":
    sys.exit(main())
