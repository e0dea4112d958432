"""Polish Canasta played: hands per second of the public call, as ratios to references.

Run: ``python benchmarks/canasta_play.py [--quick]``; writes ``benchmarks/RESULTS_canasta_play.md``.

Measured in one run on one machine, the public call and its references alternated:

- ``play`` (what ``cardodds canasta play`` runs) with random and heuristic players; one thread
  as hands per CPU second of this process, all threads as hands per wall-clock second;
- the pure-Python twin of random play (``tests/naive_canasta_play.py``: the same rules, moves
  and random numbers, so the same hands; it also checks the table after every move);
- the nearest rummy engine, OpenSpiel's ``gin_rummy`` with its C++ uniform random bots
  (``pip install 'cardodds[bench]'``; skipped with a note when ``open_spiel`` is not installed),
  one process per core for the all-core figure. A hand of Canasta is 20-40 turns of four
  players; a game of gin rummy two players.

The cold compile of ``cardodds canasta play`` is timed in a fresh process with an empty numba
cache (CPU seconds of the child, and wall), and with the cache warm.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the pure-Python twin lives with the tests
sys.path.insert(0, str(HERE))
from _timing import cold_command, cpu_rate, wall_rate  # noqa: E402

PLAY_COMMAND = ["-c", "import sys; from cardodds.cli import main; "
                "sys.argv = ['cardodds', 'canasta', 'play', '--samples', '2000']; sys.exit(main())"]


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())



def twin_random_hands(n, seed=21):
    """``n`` hands of random play by the pure-Python twin, from the engine's first chunk state."""
    from tests import naive_canasta_play as naive

    from cardodds.canasta.cards import deck_counts, deck_kinds
    from cardodds.canasta.rules import CanastaRules
    from cardodds.rng import as_seed_sequence, chunk_state

    r = CanastaRules()
    rules = dict(points=[int(x) for x in r.points()], code=r.wild_code, min_first=r.min_first_meld,
                 wild_melds=bool(r.wild_melds), swap_twos=bool(r.swap_twos), meld_all=r.going_out == "meld_all",
                 bonus=r.going_out_bonus, needs_canasta=bool(r.going_out_needs_canasta))
    ss, _ = as_seed_sequence(seed)
    naive.random_hands(chunk_state(ss, 0), n, rules, [int(x) for x in deck_kinds(4)], [int(x) for x in deck_counts(4)])


def openspiel_gin_rummy(n_games, seed=1):
    import pyspiel

    game = pyspiel.load_game("gin_rummy")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    for i in range(n_games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + i)


def openspiel_on_cores(n_games, cores):
    with ProcessPoolExecutor(cores) as ex:
        list(ex.map(openspiel_gin_rummy, [n_games // cores] * cores, range(1, cores + 1)))


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
    n_twin = 20 if q else 300
    n_os = 200 if q else 2_000
    cores = default_threads()
    load_start = load()
    with tempfile.TemporaryDirectory() as d:
        cold = cold_command(PLAY_COMMAND, d)
        warm = cold_command(PLAY_COMMAND, d)
    play("random", samples=100, rng=1, threads=1)
    play("heuristic", samples=100, rng=1, threads=1)
    try:
        import pyspiel  # noqa: F401

        have_os = True
    except ImportError:
        have_os = False
    rates: dict[str, list[float]] = {}

    def add(name, value):
        rates.setdefault(name, []).append(value)

    for _ in range(repeats):  # alternate the public call and its references
        for pol in ("random", "heuristic"):
            add(f"{pol} 1", cpu_rate(lambda n, p=pol: play(p, samples=n, rng=1, threads=1), n1))
            add(f"{pol} n", wall_rate(lambda n, p=pol: play(p, samples=n, rng=1, threads=cores), n1 * cores))
        add("twin 1", cpu_rate(twin_random_hands, n_twin))
        if have_os:
            add("os 1", cpu_rate(openspiel_gin_rummy, n_os))
            add("os n", wall_rate(lambda n: openspiel_on_cores(n, cores), n_os * cores))
    m = {k: statistics.median(v) for k, v in rates.items()}
    lines = [
        "# Polish Canasta played: throughput", "",
        f"Machine: {platform.processor() or platform.machine()}, {cores} cores, Python {platform.python_version()}; "
        f"load average at the start {load_start}, at the end {load()} (other jobs share the cores: one-thread "
        "figures are hands per CPU second of this process, all-core figures wall clock).", "",
        f"Cold compile of `cardodds canasta play --samples 2000` (fresh process, empty numba cache): {cold[0]:.1f} CPU "
        f"s, {cold[1]:.1f} s wall; with the cache warm: {warm[0]:.1f} CPU s, {warm[1]:.1f} s wall (imports and the "
        "run included).", "",
        f"Medians of {repeats} alternated runs ({n1:,} hands per thread per `play` run, {n_twin} twin hands, "
        f"{n_os:,} gin rummy games per process).", "",
        f"| player | hands/s, 1 thread | hands/s, {cores} threads | 1 thread / pure-Python twin (random play) |",
        "|---|---:|---:|---:|",
    ]
    for pol in ("random", "heuristic"):
        ratio = f"{m[f'{pol} 1'] / m['twin 1']:,.0f}x" if pol == "random" else ""
        lines.append(f"| {pol} | {m[f'{pol} 1']:,.0f} | {m[f'{pol} n']:,.0f} | {ratio} |")
    lines += ["", f"Pure-Python twin of random play (same hands; it checks the table after every move): "
              f"{m['twin 1']:,.1f} hands per CPU second.", ""]
    if have_os:
        lines += [f"OpenSpiel `gin_rummy`, C++ uniform random bots via `pyspiel.evaluate_bots`: {m['os 1']:,.0f} "
                  f"games per CPU second on one core, {m['os n']:,.0f} games/s on {cores} processes; random Canasta "
                  f"hands per gin rummy game: {m['random 1'] / m['os 1']:,.0f}x on one core, "
                  f"{m['random n'] / m['os n']:,.0f}x on all cores.", ""]
    else:
        lines += ["OpenSpiel `gin_rummy`: not measured, open_spiel is not installed (`pip install 'cardodds[bench]'`).",
                  ""]
    heur = m["heuristic 1"]
    verdict = "met" if heur >= 20_000 else "not met on this run"
    lines += [f"Target: 20,000 heuristic hands/s per core: {verdict} ({heur:,.0f} hands per CPU second). "
              "Reproduce: `python benchmarks/canasta_play.py` (a few minutes, most of it the cold compile and the "
              "pure-Python twin).", ""]
    Path(args.out).write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
