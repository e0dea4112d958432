"""Benchmark: Polish Canasta hands dealt and evaluated per second (the public call).

Measures ``cardodds.canasta.melds`` (deal four 12-card hands and the upcard, find the best
first meld under all three wild limits and with the upcard, count wilds and red 3s), with
compile time apart (first call in a fresh process with an empty cache, then with the cache
warm), on one core and on all cores, against a vectorised numpy version and a pure-Python
version of the deal plus best-first-meld evaluation, in the same run. Medians of repeats.

    python benchmarks/canasta.py            # writes benchmarks/RESULTS_canasta.md
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from cardodds import __version__
from cardodds.canasta import _kernels as K
from cardodds.canasta import melds
from cardodds.canasta.cards import JOKER, NATURAL_KINDS, TWO, deck_kinds
from cardodds.canasta.rules import CanastaRules
from cardodds.engine import default_threads

REPEATS = 5
N_PUBLIC = 2_000_000
N_NUMPY = 200_000
N_PYTHON = 5_000
PTS = CanastaRules().points()


def machine() -> str:
    cpu = platform.processor() or "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import numba

    return (f"{cpu}, {default_threads()} cores usable, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}, "
            f"cardodds {__version__}")


def median_rate(fn, n, repeats=REPEATS):
    rates = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        rates.append(n / (time.perf_counter() - t))
    return statistics.median(rates)


# ---- numpy baseline: whole batches at once ------------------------------------------------
def numpy_best_values(rng, batch, hand=12):
    deck = deck_kinds(4)
    pick = np.argpartition(rng.random((batch, deck.size)), hand, axis=1)[:, :hand]
    kinds = deck[pick]
    counts = np.zeros((batch, 15), dtype=np.int64)
    np.add.at(counts, (np.repeat(np.arange(batch), hand), kinds.ravel()), 1)
    J = counts[:, JOKER]
    T = counts[:, TWO]
    room = hand - 1
    w = np.minimum(J + T, room)
    j = np.minimum(J, w)
    best = np.where(w >= 3, 50 * j + 20 * (w - j), 0)
    for k in NATURAL_KINDS:
        c = counts[:, k]
        for n in range(2, 9):  # wild limit "naturals": 2+ naturals, no more wilds than naturals
            w = np.minimum(np.minimum(n, J + T), room - n)
            ok = (c >= n) & (n + w >= 3)
            j = np.minimum(J, w)
            v = n * PTS[k] + 50 * j + 20 * (w - j)
            best = np.where(ok & (v > best), v, best)
    return counts, best


# ---- pure Python baseline: one hand at a time ------------------------------------------------
def python_best_value(counts, room=11):
    J, T = counts[JOKER], counts[TWO]
    best = 0
    w = min(J + T, room)
    if w >= 3:
        j = min(J, w)
        best = 50 * j + 20 * (w - j)
    for k in NATURAL_KINDS:
        for n in range(counts[k], 1, -1):
            w = min(n, J + T, room - n)
            if n + w >= 3:
                j = min(J, w)
                best = max(best, n * int(PTS[k]) + 50 * j + 20 * (w - j))
    return best


def python_hands(rng, n, hand=12):
    deck = deck_kinds(4).tolist()
    opened = 0
    for _ in range(n):
        counts = [0] * 15
        for i in rng.choice(108, hand, replace=False):
            counts[deck[i]] += 1
        opened += python_best_value(counts) >= 30
    return opened


COMPILE_SNIPPET = ("import time; t=time.perf_counter(); from cardodds.canasta import melds; "
                   "melds(samples=1000, rng=1, threads=1, turns=20); print(time.perf_counter()-t)")


def compile_times():
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        cold = float(subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True,
                                    text=True, check=True).stdout)
        warm = float(subprocess.run([sys.executable, "-c", COMPILE_SNIPPET], env=env, capture_output=True,
                                    text=True, check=True).stdout)
    return cold, warm


def main():
    out = Path(__file__).with_name("RESULTS_canasta.md")
    cold, warm = compile_times()
    melds(samples=10_000, rng=0, turns=0, threads=1)  # compile in this process
    melds(samples=10_000, rng=0, turns=20, threads=1)
    cores = default_threads()
    rows = []
    for turns in (0, 20):
        for threads in (1, cores):
            r = median_rate(lambda: melds(samples=N_PUBLIC, rng=1, turns=turns, threads=threads), N_PUBLIC)
            rows.append((f"`melds(turns={turns})`, {threads} thread{'s' if threads > 1 else ''}", r))
    # numpy and the kernel agree on the same hands (a check that the baseline does the same work)
    counts, best = numpy_best_values(np.random.default_rng(3), 2000)
    for c, b in zip(counts, best):
        assert K.best_meld_value(c, 11, PTS, 0, 1) == b
    r_np = median_rate(lambda: numpy_best_values(np.random.default_rng(1), N_NUMPY), N_NUMPY)
    r_py = median_rate(lambda: python_hands(np.random.default_rng(1), N_PYTHON), N_PYTHON, repeats=3)
    rows.append(("numpy, vectorised (one 12-card hand + best first meld, one core)", r_np))
    rows.append(("pure Python (one 12-card hand + best first meld, one core)", r_py))
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    lines = ["## Polish Canasta", "", f"Machine: {machine()}. Load average when measured: {load} "
             "(the cores are shared with other work, which caps the gain from the second thread).", "",
             "Hands dealt and evaluated per second, median of "
             f"{REPEATS} runs ({N_PUBLIC:,} deals per cardodds run, {N_NUMPY:,} numpy, {N_PYTHON:,} pure Python). "
             "A cardodds deal is four 12-card hands and the upcard; it finds the best first meld under all "
             "three wild limits and with the upcard, and counts wilds, red 3s and pairs; `turns=20` also "
             "draws 20 cards and re-evaluates the first meld and the 7-naturals test after each. The "
             "baselines deal one hand and find its best first meld only (less work).", "",
             "| what | hands / s |", "|---|---|"]
    lines += [f"| {name} | {rate:,.0f} |" for name, rate in rows]
    lines += ["", f"Compile time (first call of `melds`, fresh process): {cold:.1f} s with an empty numba cache, "
              f"{warm:.2f} s with the cache warm.", ""]
    out.write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
