"""Polish Canasta played: hands per second of the public call, one core and all cores.

Run: ``python benchmarks/canasta_play.py [--quick]``; writes ``benchmarks/RESULTS_canasta_play.md``.

Measured in one run on one machine: ``play`` with random and heuristic players (compile time
apart: the first call in a fresh process with an empty numba cache, and with a warm cache),
and the nearest rummy engine, OpenSpiel's ``gin_rummy`` with its C++ uniform random bots
(``pip install 'cardodds[bench]'``; skipped with a note when ``open_spiel`` is not installed).
A hand of Canasta is 20-40 turns of four players; a game of gin rummy two players.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _timing import compile_seconds, median_rate  # noqa: E402


#: Times the first call of the public API in a fresh interpreter (see _timing.compile_seconds).
COMPILE_CODE = ("import time; t=time.perf_counter(); from cardodds.canasta import play; "
            "play('heuristic', samples=200, rng=1, threads=1); print(time.perf_counter()-t)")


def openspiel_gin_rummy(n_games, seed=1):
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    for i in range(n_games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--out", default=str(HERE / "RESULTS_canasta_play.md"))
    args = ap.parse_args()
    from cardodds.canasta import play
    from cardodds.engine import default_threads

    q = args.quick
    repeats = 1 if q else 3
    n1 = 2_000 if q else 20_000
    cores = default_threads()
    with tempfile.TemporaryDirectory() as d:
        cold = compile_seconds(COMPILE_CODE, d)
        warm = compile_seconds(COMPILE_CODE, d)
    play("random", samples=100, rng=1, threads=1)
    rows = []
    for pol in ("random", "heuristic"):
        one = median_rate(lambda n, p=pol: play(p, samples=n, rng=1, threads=1), n1, repeats)
        cpu = median_rate(lambda n, p=pol: play(p, samples=n, rng=1, threads=1), n1, repeats, clock=time.process_time)
        allc = median_rate(lambda n, p=pol: play(p, samples=n, rng=1, threads=cores), n1 * cores, repeats)
        rows.append((pol, one, cpu, allc))
    try:
        import pyspiel  # noqa: F401

        n_os = 200 if q else 2_000
        os_rate = median_rate(openspiel_gin_rummy, n_os, repeats)
        os_note = f"{os_rate:,.0f} games/s (one core, C++ uniform random bots via `pyspiel.evaluate_bots`)"
    except ImportError:
        os_rate = None
        os_note = "not measured: open_spiel is not installed (`pip install 'cardodds[bench]'`)"
    load = os.getloadavg()
    lines = [
        "# Polish Canasta played: throughput", "",
        f"Machine: {platform.processor() or platform.machine()}, {cores} cores, Python {platform.python_version()}; "
        f"load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} (other jobs share the cores, "
        "so these are lower bounds).", "",
        f"Compile time (first call, fresh process): {cold:.1f} s with an empty numba cache, {warm:.1f} s with a warm "
        "cache (imports included).", "",
        "| player | hands/s one core (wall clock) | hands per CPU second, one thread | hands/s all cores |",
        "|---|---|---|---|",
    ]
    for pol, one, cpu, allc in rows:
        lines.append(f"| {pol} | {one:,.0f} | {cpu:,.0f} | {allc:,.0f} |")
    heur_cpu = rows[1][2]
    verdict = "met" if heur_cpu >= 20_000 else "not met on this run"
    lines += ["", f"OpenSpiel `gin_rummy`, random players: {os_note}.", "",
              f"Target: 20,000 heuristic hands/s per core: {verdict} ({heur_cpu:,.0f} hands per CPU second; the "
              "wall-clock figures are shared with the other jobs on the machine). "
              "Reproduce: `python benchmarks/canasta_play.py`.", ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
