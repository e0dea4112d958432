"""Throughput of Känä odds: the public call against baselines, in one process.

    python benchmarks/kana.py            # writes benchmarks/RESULTS_kana.md
    python benchmarks/kana.py --quick    # a short run to check the script

Measured, each as the median of several repeats (this machine is shared and noisy; the
ratios within one run are what to compare):
- ``cardodds.kana.odds(players=4)``, the public call with extra rounds played out, on one
  thread and on all cores, compile time excluded;
- a tuned reference kernel that deals the same rounds but only counts ties (does not play
  them off), the figure the target is stated against;
- a pure-Python round (``random.Random``) and a vectorised numpy round;
- compile time of the Känä kernels on first use (empty cache) and with the cache warm,
  each in a fresh interpreter.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np
from numba import njit

from cardodds import __version__
from cardodds._random import deal3_from
from cardodds.engine import default_threads, run
from cardodds.kana import odds

HERE = Path(__file__).resolve().parent
PLAYERS = 4


# --- baselines --------------------------------------------------------------------------


def python_rounds(nrounds: int, n: int = PLAYERS, seed: int = 1) -> list[int]:
    """Plain Python: shuffle, känä the first card, sum the kept pair, play off ties."""
    rnd = random.Random(seed)
    deck = list(range(52))
    wins = [0] * n
    for _ in range(nrounds):
        cards = rnd.sample(deck, 3 * n)
        keys = []
        for p in range(n):
            a, b = cards[3 * p + 1] >> 2, cards[3 * p + 2] >> 2
            keys.append(29 if a == b == 0 else a + b + 4)
        top = max(keys)
        tied = [p for p in range(n) if keys[p] == top]
        while len(tied) > 1:  # extra rounds from a fresh deck
            dark = rnd.sample(deck, 2 * len(tied))[1::2]
            best = max(c >> 2 for c in dark)
            tied = [p for p, c in zip(tied, dark) if c >> 2 == best]
        wins[tied[0]] += 1
    return wins


def numpy_rounds(nrounds: int, n: int = PLAYERS, seed: int = 1, batch: int = 1 << 16) -> np.ndarray:
    """Vectorised numpy: a batch of rounds at a time; ties played off on the tied subset."""
    rng = np.random.default_rng(seed)
    wins = np.zeros(n, np.int64)
    done = 0
    while done < nrounds:
        r = min(batch, nrounds - done)
        cards = np.argpartition(rng.random((r, 52)), 3 * n, axis=1)[:, : 3 * n].reshape(r, n, 3)
        ranks = cards[:, :, 1:] >> 2
        keys = ranks.sum(axis=2) + 4
        keys[(ranks == 0).all(axis=2)] = 29
        top = keys.max(axis=1, keepdims=True)
        tied = keys == top
        while True:
            multi = tied.sum(axis=1) > 1
            if not multi.any():
                break
            m = int(multi.sum())
            dark = np.argpartition(rng.random((m, 52)), n, axis=1)[:, :n] >> 2
            dark = np.where(tied[multi], dark, -1)
            best = dark.max(axis=1, keepdims=True)
            tied[multi] = dark == best
        wins += np.bincount(tied.argmax(axis=1), minlength=n)
        done += r
    return wins


@njit(nogil=True, cache=True)
def tuned_ties_only(s, nrounds, out, n):
    """Reference: deal the same rounds with the same dealer, count ties, play none off."""
    deck = np.arange(52)
    for _ in range(nrounds):
        i = 0
        best = -1
        cnt = 0
        for _p in range(n):
            h0, h1, h2 = deal3_from(s, deck, i, 52)
            i += 3
            a = h1 >> 2
            b = h2 >> 2
            kk = 29 if (a | b) == 0 else a + b + 4
            if kk > best:
                best = kk
                cnt = 1
            elif kk == best:
                cnt += 1
        out[0 if cnt == 1 else 1] += 1


# --- measurement --------------------------------------------------------------------------


def rate(fn, samples: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn(samples)
        times.append(time.perf_counter() - t)
    return samples / statistics.median(times)


def compile_seconds(cache_dir: str) -> tuple[float, float]:
    """(import seconds, seconds of the first calls) in a fresh interpreter using ``cache_dir``."""
    code = (
        "import time; t0=time.perf_counter(); from cardodds.kana import odds; t1=time.perf_counter(); "
        "odds(4, samples=1000, rng=1, threads=1); odds(4, samples=1000, rng=1, threads=1, kana='random'); "
        "print(t1-t0, time.perf_counter()-t1)"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    imp, first = (float(x) for x in out.stdout.split())
    return imp, first


def machine() -> str:
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        model = next((ln.split(":", 1)[1].strip() for ln in lscpu.splitlines() if ln.startswith("Model name")), "?")
    except OSError:
        model = platform.processor() or "?"
    return (
        f"{model}, {os.cpu_count()} logical cores ({default_threads()} usable), {platform.system()} "
        f"{platform.release()}; Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
        f"cardodds {__version__}"
    )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, to check the script runs")
    ap.add_argument("--out", default=str(HERE / "RESULTS_kana.md"))
    args = ap.parse_args(argv)
    big = 2_000_000 if args.quick else 40_000_000
    reps = 3 if args.quick else 7

    with tempfile.TemporaryDirectory() as cache:
        _, cold = compile_seconds(cache)
        imports, warm = compile_seconds(cache)

    odds(PLAYERS, samples=10_000, rng=1, threads=1)  # compile outside the clock
    out = np.zeros(2, np.int64)
    tuned_ties_only(np.array([1, 2, 3, 4], np.uint64), 1000, out, PLAYERS)

    figures = {}
    figures["public, 1 thread"] = rate(lambda k: odds(PLAYERS, samples=k, rng=1, threads=1), big, reps)
    figures["public, all cores"] = rate(lambda k: odds(PLAYERS, samples=k, rng=1), big, reps)
    figures["tuned reference (ties counted, not played), 1 thread"] = rate(
        lambda k: run(tuned_ties_only, (PLAYERS,), 2, samples=k, rng=1, threads=1), big, reps
    )
    figures["tuned reference, all cores"] = rate(
        lambda k: run(tuned_ties_only, (PLAYERS,), 2, samples=k, rng=1), big, reps
    )
    figures["numpy, vectorised"] = rate(lambda k: numpy_rounds(k), big // 20, max(3, reps // 2))
    figures["pure Python"] = rate(lambda k: python_rounds(k), 100_000 if not args.quick else 20_000, 3)

    one = figures["public, 1 thread"]
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = [
        "# Känä benchmark",
        "",
        f"Machine: {machine()}. Load average after the run: {load} (2 cores; other work on the machine "
        "holds back the all-cores figures).",
        "",
        f"Rounds per second at {PLAYERS} players, median of {reps} repeats, compile time excluded. "
        "Extra rounds are played out except in the tuned reference.",
        "",
        "| implementation | rounds/s | vs public 1 thread |",
        "|---|---:|---:|",
    ]
    for name, r in figures.items():
        lines.append(f"| {name} | {r / 1e6:,.2f} M | {r / one:.3f} |")
    lines += [
        "",
        "Public call / tuned reference, one thread: "
        f"{one / figures['tuned reference (ties counted, not played), 1 thread']:.2f}.",
        "",
        "Compile time of the Känä kernels (first calls of both känä choices), fresh interpreter, imports apart:",
        f"- first use, empty cache: {cold:.1f} s",
        f"- cache warm: {warm:.2f} s",
        f"- importing cardodds.kana (numpy, numba, pandas, scipy): {imports:.2f} s",
        "",
    ]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
