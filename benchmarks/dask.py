"""Benchmark: the Dask backend against the thread backend, per game.

For each game's headline call (Känä odds, Kanalje jack risk, Canasta meld odds) it measures
wall time and deals per second on the thread backend (every core) and on a ``LocalCluster``
with 1 and 2 worker processes (one thread each; the cluster is started and warmed up
before timing, so compile and start-up are not counted). Then the per-task overhead:
many one-deal tasks on one worker, wall time per task; and from it the task length at
which the overhead is under 2%. Same seed everywhere; the counts are checked equal.

    python benchmarks/dask.py          # writes benchmarks/RESULTS_dask.md
    python benchmarks/dask.py --quick  # smaller runs, prints only
"""

from __future__ import annotations

import logging
import platform
import sys
import time
from pathlib import Path

# This file is named after the package it measures: keep its folder from shadowing it.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]

import numpy as np  # noqa: E402

import cardodds  # noqa: E402
from cardodds import _backend, engine  # noqa: E402
from cardodds.engine import default_threads  # noqa: E402

QUICK = "--quick" in sys.argv
if {"-h", "--help"} & set(sys.argv):
    print(__doc__)
    sys.exit(0)


def calls():
    from cardodds.canasta.analysis import melds
    from cardodds.kana.analysis import odds
    from cardodds.kanalje.analysis import jack_risk

    k = 4 if QUICK else 1
    return {
        "Känä odds, 4 players (rounds)": (lambda **kw: odds(4, **kw), 24_000_000 // k),
        "Kanalje jack risk, heuristic (deals)": (lambda **kw: jack_risk("heuristic", **kw), 1_200_000 // k),
        "Canasta meld odds, 12 cards (deals)": (lambda **kw: melds(12, **kw), 3_000_000 // k),
    }


def timed(fn, n, **kw):
    t0 = time.perf_counter()
    res = fn(samples=n, rng=1, **kw)
    return time.perf_counter() - t0, res


def strip(d):
    if isinstance(d, dict):
        return {k: strip(v) for k, v in d.items() if k != "seconds"}
    if isinstance(d, list):
        return [strip(v) for v in d]
    return d


def task_overhead(client, tasks: int = 400) -> float:
    """Seconds per task when tasks do (almost) nothing: one-deal chunks, one chunk a task."""
    from cardodds.kana._kernels import play_rounds, round_layout
    from cardodds.kana.analysis import _kernel_args, _positions
    from cardodds.kana.rules import KanaRules

    args = _kernel_args(KanaRules(players=4), {}, _positions("random", 4))
    n_out = round_layout(4).size
    old = _backend.TASK_SECONDS
    _backend.TASK_SECONDS = 1e-12
    try:
        with cardodds.backend(client):
            engine.run(play_rounds, args, n_out, samples=20, chunk_size=1, rng=0)  # warm
        t0 = time.perf_counter()
        with cardodds.backend(client):
            engine.run(play_rounds, args, n_out, samples=tasks, chunk_size=1, rng=0)
        return (time.perf_counter() - t0) / tasks
    finally:
        _backend.TASK_SECONDS = old


def main() -> None:
    import distributed

    rows = []
    threads = default_threads()
    games = calls()
    ref = {}
    for name, (fn, n) in games.items():
        fn(samples=20_000, rng=1)  # compile / load the cache
        wall, res = timed(fn, n)
        ref[name] = strip(res.to_dict())
        rows.append((name, f"threads ({threads})", n, wall))
        print(rows[-1], flush=True)
    overhead = None
    for workers in (1, 2):
        with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                      dashboard_address=None, silence_logs=logging.ERROR) as cluster, \
                distributed.Client(cluster) as client:
            with cardodds.backend(client):
                for name, (fn, n) in games.items():
                    fn(samples=20_000, rng=1)  # workers import and load the kernels
                    wall, res = timed(fn, n)
                    assert strip(res.to_dict()) == ref[name], f"{name}: counts differ from threads"
                    rows.append((name, f"LocalCluster, {workers} worker{'s' * (workers > 1)}", n, wall))
                    print(rows[-1], flush=True)
            if workers == 1:
                overhead = task_overhead(client)
                print("per-task overhead", overhead, flush=True)

    lines = [
        "# The Dask backend against threads",
        "",
        f"`python benchmarks/dask.py` on {platform.machine()}, {threads} cores available "
        f"(shared with other jobs while measured), Python {platform.python_version()}, "
        f"cardodds {cardodds.__version__}, dask.distributed {distributed.__version__}. One run each; the "
        "cluster is started and warmed up before timing. Every cluster run's figures were checked "
        "identical to the thread run's (same seed).",
        "",
        "| call | backend | samples | wall s | samples/s |",
        "|---|---|---:|---:|---:|",
    ]
    for name, how, n, wall in rows:
        lines.append(f"| {name} | {how} | {n:,} | {wall:.2f} | {n / wall:,.0f} |")
    need = overhead / 0.02
    lines += [
        "",
        f"Per-task overhead (one worker, {_backend.TASKS_PER_THREAD} tasks in flight, one-deal tasks): "
        f"**{overhead * 1e3:.1f} ms** per task. The overhead is under 2% of a task that runs "
        f"**{need:.2f} s** or more; the backend batches chunks into tasks of about "
        f"{_backend.TASK_SECONDS:g} s (overhead about {100 * overhead / _backend.TASK_SECONDS:.1f}%).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not QUICK:
        Path(__file__).with_name("RESULTS_dask.md").write_text(text)


if __name__ == "__main__":
    np.seterr(all="ignore")
    main()
