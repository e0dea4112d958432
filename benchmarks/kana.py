"""Throughput of Känä odds: the public call against its references, in one process, and the
time each Känä command takes on an empty compile cache.

    python benchmarks/kana.py            # writes benchmarks/RESULTS_kana.md (keeps its later sections)
    python benchmarks/kana.py --quick    # a short run to check the script

Measured, each as the median of several repeats, every figure as a ratio to its reference in
the same run (this machine is shared and noisy; the ratios within one run are what to compare):
- ``cardodds.kana.odds(players=4)``, the public call with extra rounds played out, against a
  tuned reference kernel that deals the same rounds with the same dealer but only counts ties
  (plays none off): one thread on CPU time, and all cores on wall time;
- the public call against a pure-Python round (``random.Random``) and a vectorised numpy round;
- ``cardodds kana odds``, ``kana advise`` and ``kana table`` as a user runs them, each in a fresh
  interpreter with an empty numba cache and again with it warm (CPU and wall seconds); the
  difference is the compile time.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import resource
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
sys.path.insert(0, str(HERE))
from _timing import median_rate  # noqa: E402

PLAYERS = 4
#: Sections of RESULTS_kana.md written by other scripts start with this; a run keeps them.
KEEP_FROM = "\n## Advisor kernel before and after"
#: The commands whose first run (empty numba cache) is measured, as a user types them.
COMMANDS = {
    "kana odds": ["kana", "odds"],
    "kana advise": ["kana", "advise", "--seat", "2", "--hand", "9h ? ?", "--kanad", "5c Kd"],
    "kana table": ["kana", "table", "--samples", "20000"],
}


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


def command_seconds(argv: list[str], cache_dir: str) -> tuple[float, float]:
    """(CPU seconds, wall seconds) of ``cardodds ARGV`` in a fresh interpreter using ``cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    code = "import sys; from cardodds.cli import main; sys.exit(main(sys.argv[1:]))"
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *argv], capture_output=True, text=True, env=env, check=True)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


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


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="small sizes, to check the script runs")
    ap.add_argument("--out", default=str(HERE / "RESULTS_kana.md"))
    args = ap.parse_args(argv)
    big = 2_000_000 if args.quick else 20_000_000
    reps = 3 if args.quick else 5
    load_start = load()

    compiles = {}
    for name, cmd in COMMANDS.items():
        with tempfile.TemporaryDirectory() as cache:
            cold = command_seconds(cmd, cache)
            warm = command_seconds(cmd, cache)
        compiles[name] = (cold, warm)

    odds(PLAYERS, samples=10_000, rng=1, threads=1)  # compile outside the clock
    run(tuned_ties_only, (PLAYERS,), 2, samples=1000, rng=1, threads=1)
    cpu = time.process_time

    def public(threads):
        return lambda k: odds(PLAYERS, samples=k, rng=1, threads=threads)

    def reference(threads):
        return lambda k: run(tuned_ties_only, (PLAYERS,), 2, samples=k, rng=1, threads=threads)

    # Public and reference alternate, so a change in the machine's load hits both alike.
    one, ref_one, all_, ref_all = [], [], [], []
    for _ in range(reps):
        one.append(median_rate(public(1), big, 1, clock=cpu))
        ref_one.append(median_rate(reference(1), big, 1, clock=cpu))
        all_.append(median_rate(public(None), big, 1))
        ref_all.append(median_rate(reference(None), big, 1))
    one, ref_one, all_, ref_all = (statistics.median(x) for x in (one, ref_one, all_, ref_all))
    numpy_rate = median_rate(lambda k: numpy_rounds(k), big // 20, max(3, reps // 2), clock=cpu)
    python_rate = median_rate(lambda k: python_rounds(k), 100_000 if not args.quick else 20_000, 3, clock=cpu)

    lines = [
        "# Känä benchmark",
        "",
        f"Machine: {machine()}. Load average (1, 5, 15 min) at the start: {load_start}; at the end: {load()} "
        "(2 cores shared with other work: the all-cores figures are held back by it).",
        "",
        "    python benchmarks/kana.py",
        "",
        f"Rounds per second of `kana.odds(players={PLAYERS})` (extra rounds played out), median of {reps} "
        "alternating repeats, compile time excluded; one thread on CPU time, all cores on wall time. The "
        "reference is the tuned kernel above (same dealer, ties counted but not played).",
        "",
        "| call | threads | rounds/s | reference rounds/s | public / reference |",
        "|---|---|---:|---:|---:|",
        f"| `kana.odds(4)` vs tuned reference | 1 | {one / 1e6:,.1f} M | {ref_one / 1e6:,.1f} M | "
        f"{one / ref_one:.2f} |",
        f"| `kana.odds(4)` vs tuned reference | all ({default_threads()}) | {all_ / 1e6:,.1f} M | "
        f"{ref_all / 1e6:,.1f} M | {all_ / ref_all:.2f} |",
        f"| `kana.odds(4)` vs numpy, vectorised | 1 | {one / 1e6:,.1f} M | {numpy_rate / 1e6:,.2f} M | "
        f"{one / numpy_rate:,.0f} |",
        f"| `kana.odds(4)` vs pure Python | 1 | {one / 1e6:,.1f} M | {python_rate / 1e6:,.2f} M | "
        f"{one / python_rate:,.0f} |",
        "",
        "Each Känä command as a user runs it, in a fresh interpreter: first with an empty numba cache, then "
        "with the cache it left (seconds; CPU is user + system of the process, wall includes waiting for "
        "the shared cores). The difference is the compile time.",
        "",
        "| command | empty cache, CPU | empty cache, wall | warm, CPU | warm, wall | compile (CPU) |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, ((c_cpu, c_wall), (w_cpu, w_wall)) in compiles.items():
        cmd = " ".join(f'"{a}"' if " " in a else a for a in COMMANDS[name])
        lines.append(f"| `cardodds {cmd}` | {c_cpu:.1f} | {c_wall:.1f} | {w_cpu:.1f} | {w_wall:.1f} | "
                     f"{c_cpu - w_cpu:.1f} |")
    lines.append("")
    out = Path(args.out)
    keep = ""
    if out.exists() and KEEP_FROM in out.read_text():
        old = out.read_text()
        keep = old[old.index(KEEP_FROM):]
    out.write_text("\n".join(lines) + keep)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
