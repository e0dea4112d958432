"""Polish Canasta: each player's time to play out the advice of the docs' worst position.

Run: ``python benchmarks/canasta_advise_players.py [--repeats R] [--lookahead-samples N]``;
writes ``benchmarks/RESULTS_canasta_advise_players.md``.

The position is the first example of ``docs/canasta-play.md`` (take a nine-card pile: four
options, the most play-outs of the docs' examples): ``cardodds canasta advise`` as a user types
it, once compiled (a first call warms the cache), with and without ``--score``, for each player
of the ladder at every seat (``--policies``): wall time of the whole command, the median of
``--repeats`` runs, on the cores available. The look-ahead player plays every option of its own
decisions out on 16 worlds, so it runs ``--lookahead-samples`` deals; its time for the default
2,000 deals is that scaled. The speed targets: the default players answer in <= 2 s, and in <=
3 s with ``--score``.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

WORST = ["canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b 4", "--melds", "us: A A A; them: 8 8 8", "--pile",
         "Jk 2 2 A A ? ? 9 K", "--counts", "10,9,11", "--known", "1: Q Q", "--seed", "1"]
PLAYERS = ("heuristic", "heuristic2", "lookahead")
DEFAULT_SAMPLES = 2_000


def _time(argv: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system) of one run of the command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardodds.cli", *argv], check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--lookahead-samples", type=int, default=20)
    args = ap.parse_args()
    rows = []
    load0 = os.getloadavg()
    for player in PLAYERS:
        samples = args.lookahead_samples if player == "lookahead" else DEFAULT_SAMPLES
        for score in ([], ["--score", "9200,8800"]):
            argv = WORST + ["--policies", player, "--samples", str(samples)] + score
            _time(argv)  # compiled from here on
            runs = [_time(argv) for _ in range(args.repeats)]
            wall, cpu = statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)
            scaled = wall * DEFAULT_SAMPLES / samples
            rows.append((player, "with --score" if score else "without --score", samples, wall, cpu, scaled))
            print(rows[-1], flush=True)
    load = os.getloadavg()
    start = f"{load0[0]:.2f}"
    lines = ["# Canasta advise: each player's time on the docs' worst position", "",
             f"`python benchmarks/canasta_advise_players.py --repeats {args.repeats} --lookahead-samples "
             f"{args.lookahead_samples}`; {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} cores "
             f"({platform.processor() or platform.machine()}), load {start} at the start, {load[0]:.2f} at the end; "
             f"Python "
             f"{platform.python_version()}. The command: `cardodds {' '.join(WORST[:2])} --hand "
             f"\"{WORST[3]}\" --melds \"{WORST[5]}\" --pile \"{WORST[7]}\" --counts {WORST[9]} --known "
             f"\"{WORST[11]}\" --seed 1 --policies P [--score 9200,8800]`, compiled, wall time of the whole "
             f"command and its CPU (user + system), medians of {args.repeats}.", "",
             "| player | | deals | wall, s | CPU, s | wall for 2,000 deals, s |", "|---|---|---:|---:|---:|---:|"]
    lines += [f"| {p} | {s} | {n:,} | {w:.2f} | {c:.2f} | {x:.1f} |" for p, s, n, w, c, x in rows]
    lines += ["", "Targets: the default players <= 2 s, <= 3 s with --score. heuristic2, the strongest "
              "player meeting them, is the advisor's default; lookahead is offered with --policies lookahead "
              "(give --samples: its time grows with the deals)."]
    out = Path(__file__).with_name("RESULTS_canasta_advise_players.md")
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(out.read_text())


if __name__ == "__main__":
    main()
