"""Kanalje throughput: deals per second of the public call, per core and on all cores.

Run: ``python benchmarks/kanalje.py [--quick] [--players 2]``; writes ``benchmarks/RESULTS_kanalje.md``
(``--players 2`` measures only the two-player game and replaces its section in that file).
``--cpu-rates`` prints, and writes nothing, the single-thread rate of every public call on CPU
time (best of 5), which a busy machine disturbs far less than wall-clock time: run it on two
checkouts (``PYTHONPATH=/path/to/old python benchmarks/kanalje.py --cpu-rates``) to compare them.

Measured in one run on one machine: ``jack_risk`` with random, heuristic and look-ahead
players (compile time apart: the first call in a fresh process with an empty cache, and
with a warm cache), a pure-Python random player, a vectorised numpy random player, and the
peer OpenSpiel ``hearts`` with its C++ uniform random bots (``pip install 'cardodds[bench]'``;
skipped with a note when ``open_spiel`` is not installed).
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from _timing import compile_seconds, median_rate  # noqa: E402


#: Times the first call of the public API in a fresh interpreter (see _timing.compile_seconds).
COMPILE_CODE = ("import time; t=time.perf_counter(); from cardodds.kanalje import jack_risk; "
            "jack_risk('heuristic', samples=1000, rng=1, threads=1); print(time.perf_counter()-t)")


# ---- the tuned reference kernel -----------------------------------------------------------------
from cardodds._jit import kernel  # noqa: E402
from cardodds._random import bounded, shuffle_prefix  # noqa: E402
from cardodds.kanalje._bits import JACKS, SUIT_MASK, lowest, nth_card, popcount  # noqa: E402

#: Penalties of the jacks of clubs, diamonds, hearts, spades (RULES.md 2.1).
_JACK_PENALTY = np.array([2, 3, 4, 1], dtype=np.int64)


@kernel
def reference_random3(state, n, out):
    """The lean loop for ``n`` all-random three-player deals that the public call is measured
    against: deal (partial Fisher-Yates), a random legal card per turn (follow suit), the
    trick's winner, and per seat the jacks taken and the penalty paid (``out[4 * seat + suit]``,
    ``out[12 + seat]``); nothing else. It draws the same random numbers as cardodds (one
    bounded pick per card play with a choice), so the ratio measures bookkeeping alone."""
    deck = np.arange(52, dtype=np.int64)
    hands = np.empty(3, dtype=np.int64)
    for _ in range(n):
        shuffle_prefix(state, deck, 51, 52)
        for p in range(3):
            h = np.int64(0)
            for i in range(17 * p, 17 * p + 17):
                h |= np.int64(1) << deck[i]
            hands[p] = h
        trump = deck[51] & 3
        leader = 0
        for _t in range(17):
            best = -1
            w = leader
            seat = leader
            trick = np.int64(0)
            led = np.int64(0)
            for j in range(3):
                h = hands[seat]
                legal = h
                if j > 0:
                    f = h & led
                    if f != 0:
                        legal = f
                k = popcount(legal)
                c = lowest(legal) if k == 1 else nth_card(legal, bounded(state, k))
                hands[seat] = h ^ (np.int64(1) << c)
                trick |= np.int64(1) << c
                if j == 0:
                    led = SUIT_MASK[c & 3]
                    best = c
                elif ((c & 3) == (best & 3) and c > best) or ((c & 3) == trump and (best & 3) != trump):
                    best = c
                    w = seat
                seat = seat + 1 if seat < 2 else 0
            jk = trick & JACKS
            while jk != 0:
                s = lowest(jk) & 3
                jk &= jk - 1
                out[4 * w + s] += 1
                out[12 + w] += _JACK_PENALTY[s]
            leader = w


# ---- measuring what a user runs ------------------------------------------------------------------
#: The ``cardodds`` command of this interpreter's environment.
CARDODDS = str(Path(sys.executable).with_name("cardodds"))


def reference_rate(n: int, threads: int, clock=time.perf_counter) -> float:
    """Deals per second of :func:`reference_random3` on ``threads`` threads (``n`` deals split
    evenly, one xoshiro state per thread; the kernel releases the GIL)."""
    from cardodds.rng import chunk_state

    ss = np.random.SeedSequence(1)
    states = [chunk_state(ss, i) for i in range(threads)]
    outs = [np.zeros(16, dtype=np.int64) for _ in range(threads)]
    part = n // threads
    t0 = clock()
    if threads == 1:
        reference_random3(states[0], part, outs[0])
    else:
        ts = [threading.Thread(target=reference_random3, args=(states[i], part, outs[i])) for i in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
    return part * threads / (clock() - t0)


def cli_rate(argv: list[str], n: int) -> tuple[float, float]:
    """``cardodds ARGV`` in a fresh process: (deals per wall second, per CPU second), start-up
    included, as the user waits for it."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([CARDODDS, *argv], check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return n / wall, n / cpu


def cold_compile(argv: list[str]) -> tuple[float, float]:
    """``cardodds ARGV`` in a fresh process with an empty numba cache: (CPU seconds, wall seconds)."""
    with tempfile.TemporaryDirectory() as d:
        env = dict(os.environ, NUMBA_CACHE_DIR=d)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run([CARDODDS, *argv], check=True, capture_output=True, env=env)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def random_vs_reference(n: int, repeats: int, cores: int) -> list[str]:
    """All-random three-player deals: the public call and the CLI against the tuned reference
    kernel, alternating in one run; one thread on CPU time, all threads on wall time."""
    from cardodds.kanalje import jack_risk

    jack_risk("random", samples=1_000, rng=0, threads=1)  # compiled (the CLI rows pay it from the cache)
    reference_random3(np.array([1, 2, 3, 4], dtype=np.uint64), 100, np.zeros(16, dtype=np.int64))
    cmd1 = ["kanalje", "risk", "--policies", "random", "--samples", str(n), "--seed", "1", "--threads", "1"]
    cmdn = ["kanalje", "risk", "--policies", "random", "--samples", str(n), "--seed", "1", "--threads", str(cores)]
    names = {
        "ref1": "tuned reference kernel (`reference_random3` in this file)",
        "api1": f"`jack_risk('random', samples={n:_}, rng=1, threads=1)`",
        "apin": f"`jack_risk('random', samples={n:_}, rng=1)` ({cores} threads, the default)",
        "cli1": f"`cardodds {' '.join(cmd1)}` (start-up included)",
        "clin": f"`cardodds {' '.join(cmdn)}` (start-up included)",
    }
    got: dict[str, list[float]] = {k: [] for k in ("ref1", "refn", "api1", "apin", "clin", "cli1cpu")}
    loads = []
    for _ in range(repeats):
        loads.append(os.getloadavg()[0])
        got["ref1"].append(reference_rate(n, 1, time.process_time))
        t0 = time.process_time()
        jack_risk("random", samples=n, rng=1, threads=1)
        got["api1"].append(n / (time.process_time() - t0))
        got["refn"].append(reference_rate(n, cores))
        t0 = time.perf_counter()
        jack_risk("random", samples=n, rng=1)
        got["apin"].append(n / (time.perf_counter() - t0))
        got["cli1cpu"].append(cli_rate(cmd1, n)[1])
        got["clin"].append(cli_rate(cmdn, n)[0])
    med = {k: statistics.median(v) for k, v in got.items()}
    lines = [f"### All-random deals against the tuned reference kernel ({n:,} deals a call)", "",
             f"Medians of {repeats} rounds; each round runs every row once, alternating. One thread: deals per "
             f"CPU second of this process (the CLI: of its child process, start-up and cache load included); "
             f"all threads ({cores}): deals per wall-clock second. Load average (1 min) at the rounds' starts: "
             f"{', '.join(f'{x:.2f}' for x in loads)}.", "",
             "| what | 1 thread (CPU) | / reference | all threads (wall) | / reference |", "|---|---:|---:|---:|---:|"]
    lines.append(f"| {names['ref1']} | {med['ref1']:,.0f} | 1.00 | {med['refn']:,.0f} | 1.00 |")
    lines.append(f"| {names['api1']} | {med['api1']:,.0f} | {med['api1'] / med['ref1']:.2f} | | |")
    lines.append(f"| {names['apin']} | | | {med['apin']:,.0f} | {med['apin'] / med['refn']:.2f} |")
    lines.append(f"| {names['cli1']} | {med['cli1cpu']:,.0f} | {med['cli1cpu'] / med['ref1']:.2f} | | |")
    lines.append(f"| {names['clin']} | | | {med['clin']:,.0f} | {med['clin'] / med['refn']:.2f} |")
    lines.append("")
    return lines


# ---- baselines ------------------------------------------------------------------------------------
def python_random_deals(n, seed=1):
    """Pure Python: lists of cards, follow suit, random legal card."""
    rng = np.random.default_rng(seed)
    pen = {0: 2, 1: 3, 2: 4, 3: 1}
    for _ in range(n):
        deck = rng.permutation(52).tolist()
        hands = [deck[0:17], deck[17:34], deck[34:51]]
        trump = deck[51] % 4
        u = rng.random(51).tolist()
        k = 0
        leader = 0
        score = [0, 0, 0]
        for _ in range(17):
            trick = []
            for j in range(3):
                seat = (leader + j) % 3
                h = hands[seat]
                legal = [c for c in h if c % 4 == trick[0] % 4] if trick else h
                if not legal:
                    legal = h
                c = legal[int(u[k] * len(legal))]
                k += 1
                h.remove(c)
                trick.append(c)
            best = 0
            for i in (1, 2):
                c, b = trick[i], trick[best]
                if (c % 4 == b % 4 and c > b) or (c % 4 == trump and b % 4 != trump):
                    best = i
            w = (leader + best) % 3
            score[w] += 1 - sum(pen[c % 4] for c in trick if c // 4 == 9)
            leader = w


def numpy_random_deals(n, seed=1, batch=4096):
    """Vectorised numpy: ``batch`` deals at a time, one card play per step for all of them."""
    rng = np.random.default_rng(seed)
    suit = np.arange(52) % 4
    penalty = np.where(np.arange(52) // 4 == 9, np.array([2, 3, 4, 1])[suit], 0)
    done = 0
    while done < n:
        b = min(batch, n - done)
        perm = np.argsort(rng.random((b, 52)), axis=1)
        owner = np.empty((b, 52), dtype=np.int64)
        rows = np.arange(b)[:, None]
        owner[rows, perm] = np.minimum(np.arange(52) // 17, 3)
        hold = np.stack([owner == s for s in range(3)], axis=1)  # (b, 3, 52)
        trump = perm[:, 51] % 4
        leader = np.zeros(b, dtype=np.int64)
        score = np.zeros((b, 3), dtype=np.int64)
        ar = np.arange(b)
        for _ in range(17):
            cards = np.empty((b, 3), dtype=np.int64)
            for j in range(3):
                seat = (leader + j) % 3
                h = hold[ar, seat]
                if j == 0:
                    legal = h
                else:
                    follow = h & (suit[None, :] == (cards[:, 0] % 4)[:, None])
                    legal = np.where(follow.any(axis=1)[:, None], follow, h)
                key = np.where(legal, rng.random((b, 52)), -1.0)
                c = key.argmax(axis=1)
                hold[ar, seat, c] = False
                cards[:, j] = c
            s = cards % 4
            led = s[:, :1]
            is_trump = s == trump[:, None]
            rank_key = np.where(is_trump, 100 + cards, np.where(s == led, cards, -1))
            w = (leader + rank_key.argmax(axis=1)) % 3
            score[ar, w] += 1 - penalty[cards].sum(axis=1)
            leader = w
        done += b


def openspiel_hearts(n_games, seed=1):
    import pyspiel

    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    t0 = time.perf_counter()
    for _ in range(n_games):
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
    return n_games / (time.perf_counter() - t0)


TWO_HEADER = "## Two players (RULES.md 2.2)"


def cpu_rates(repeats: int = 5) -> None:
    """Single-thread deals (games) per CPU second of each public call, best of ``repeats``."""
    from cardodds.kanalje import KanaljeRules, evaluate_hand, game_odds, jack_risk, strength_match

    two = KanaljeRules(players=2)
    hand = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d 7d 8d 9d 2h"
    cases = {
        "jack_risk('random')": (lambda k: jack_risk("random", samples=k, rng=1, threads=1), 1_000_000),
        "jack_risk('heuristic')": (lambda k: jack_risk("heuristic", samples=k, rng=1, threads=1), 400_000),
        "jack_risk('lookahead,heuristic,heuristic')": (
            lambda k: jack_risk("lookahead,heuristic,heuristic", samples=k, rng=1, threads=1), 128),
        "two players: jack_risk('random')": (lambda k: jack_risk("random", rules=two, samples=k, rng=1, threads=1),
                                             500_000),
        "two players: jack_risk('heuristic')": (
            lambda k: jack_risk("heuristic", rules=two, samples=k, rng=1, threads=1), 300_000),
        "two players: jack_risk('lookahead,heuristic')": (
            lambda k: jack_risk("lookahead,heuristic", rules=two, samples=k, rng=1, threads=1), 64),
        "evaluate_hand(heuristic)": (lambda k: evaluate_hand(hand, "Ah", samples=k, rng=1, threads=1), 300_000),
        "game_odds('heuristic'), games": (lambda k: game_odds("heuristic", samples=k, rng=1, threads=1), 40_000),
        "two players: game_odds('heuristic'), games": (
            lambda k: game_odds("heuristic", rules=two, samples=k, rng=1, threads=1), 30_000),
        "strength_match('heuristic', 'random')": (
            lambda k: strength_match("heuristic", "random", samples=k, rng=1, threads=1), 100_000),
        "two players: strength_match('heuristic', 'random')": (
            lambda k: strength_match("heuristic", "random", rules=two, samples=k, rng=1, threads=1), 100_000),
    }
    for name, (fn, n) in cases.items():
        fn(max(n // 100, 8))  # compiled
        rates = []
        for _ in range(repeats):
            t0 = time.process_time()
            fn(n)
            rates.append(n / (time.process_time() - t0))
        print(f"{name}\t{max(rates):.0f}", flush=True)


def two_players(q: bool, repeats: int, cores: int) -> list[str]:
    """Deals per second of the two-player game (both phases), per core and on all cores."""
    from cardodds.kanalje import KanaljeRules, jack_risk

    two = KanaljeRules(players=2)
    rows = []
    for name, n in (("random", 100_000 if q else 1_000_000), ("heuristic", 100_000 if q else 1_000_000),
                    ("lookahead,heuristic", 32 if q else 128)):
        jack_risk(name, rules=two, samples=64, rng=0, threads=1)  # compiled
        one = median_rate(lambda k: jack_risk(name, rules=two, samples=k, rng=1, threads=1), n, repeats)
        allc = median_rate(lambda k: jack_risk(name, rules=two, samples=k, rng=1, threads=cores), n, repeats)
        rows.append((name, one, allc))
    lines = [TWO_HEADER, "",
             f"Deals per second of `jack_risk(..., rules=KanaljeRules(players=2))`, both phases; medians of "
             f"{repeats} runs; load average {os.getloadavg()[0]:.2f} when this part started.", "",
             "| players | 1 core | all cores |", "|---|---:|---:|"]
    for name, one, allc in rows:
        extra = ", 16 samples" if "lookahead" in name else ""
        lines.append(f"| `{name}`{extra} | {one:,.0f} | {allc:,.0f} |")
    la_one, la_all = rows[-1][1], rows[-1][2]
    lines += ["", f"Look-ahead decisions per second (26 decisions of the look-ahead seat a deal, 13 in each phase, "
              f"each sampling 16 worlds and playing every legal card out through both phases): "
              f"{26 * la_one:,.0f} on 1 core, {26 * la_all:,.0f} on all cores.", ""]
    return lines


# ---- main ---------------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small runs (a smoke test of the script)")
    ap.add_argument("--players", type=int, choices=(2, 3), default=None,
                    help="2: measure only the two-player game and replace its section in --out")
    ap.add_argument("--out", default=str(HERE / "RESULTS_kanalje.md"))
    ap.add_argument("--cpu-rates", action="store_true", help="print single-thread rates on CPU time; write nothing")
    ap.add_argument("--random-only", action="store_true", help="print the all-random rows only; write nothing")
    args = ap.parse_args()
    if args.random_only:
        from cardodds.engine import default_threads

        print("\n".join(random_vs_reference(2_000_000 if args.quick else 10_000_000, 3, default_threads())))
        return
    if args.cpu_rates:
        cpu_rates()
        return
    q = args.quick
    repeats = 3
    import numba

    from cardodds.engine import default_threads
    from cardodds.kanalje import jack_risk

    cores = default_threads()
    if args.players == 2:
        out = Path(args.out)
        old = out.read_text() if out.exists() else ""
        head = old.split(TWO_HEADER)[0].rstrip("\n")
        text = (head + "\n\n" if head else "") + "\n".join(two_players(q, repeats, cores))
        out.write_text(text)
        print(text)
        return
    lines = ["# Kanalje benchmark", ""]
    lscpu = subprocess.run("lscpu | head -n 15", shell=True, capture_output=True, text=True).stdout
    lines += ["Machine:", "", "```", lscpu.rstrip(),
              f"python {platform.python_version()}, numpy {np.__version__}, numba {numba.__version__}",
              "```", "", f"Medians of {repeats} runs; compile time excluded (measured apart).",
              f"The machine is shared: load average {os.getloadavg()[0]:.2f} when the run started "
              f"({cores} cores), so 'all cores' may include time another process held a core.", ""]

    with tempfile.TemporaryDirectory() as d:
        cold = compile_seconds(COMPILE_CODE, d)
        warm = compile_seconds(COMPILE_CODE, d)
    lines += ["## Compile time", "",
              f"- first call in a fresh process, empty cache: {cold:.1f} s",
              f"- first call in a fresh process, warm cache: {warm:.2f} s", ""]

    rows = []
    for name, n in (("random", 200_000 if q else 2_000_000), ("heuristic", 100_000 if q else 1_000_000)):
        jack_risk(name, samples=1000, rng=0, threads=1)  # compiled
        one = median_rate(lambda k: jack_risk(name, samples=k, rng=1, threads=1), n, repeats)
        allc = median_rate(lambda k: jack_risk(name, samples=k, rng=1, threads=cores), n, repeats)
        rows.append((f"cardodds `jack_risk('{name}')`", one, allc))
    la_n = 64 if q else 256
    jack_risk("lookahead,heuristic,heuristic", samples=64, rng=0, threads=1)
    la_one = median_rate(lambda k: jack_risk("lookahead,heuristic,heuristic", samples=k, rng=1, threads=1),
                         la_n, repeats)
    la_all = median_rate(lambda k: jack_risk("lookahead,heuristic,heuristic", samples=k, rng=1, threads=cores),
                         la_n, repeats)
    rows.append(("cardodds `jack_risk('lookahead,heuristic,heuristic')`, 16 samples", la_one, la_all))
    py = median_rate(python_random_deals, 2_000 if q else 10_000, repeats)
    rows.append(("pure Python, random players", py, float("nan")))
    npy = median_rate(numpy_random_deals, 8_192 if q else 65_536, repeats)
    rows.append(("numpy (vectorised, 4096 deals a step), random players", npy, float("nan")))
    peer_note = ""
    try:
        hearts = statistics.median(openspiel_hearts(2_000 if q else 20_000) for _ in range(repeats))
        rows.append(("peer: OpenSpiel `hearts`, C++ uniform random bots (games/s)", hearts, float("nan")))
    except ImportError:
        peer_note = ("OpenSpiel is not installed here (`pip install open-spiel` failed or was not run), "
                     "so the peer was not measured in this run.")

    lines += ["## Throughput", "", f"Deals per second; all cores = {cores} threads.", "",
              "| what | 1 core | all cores |", "|---|---:|---:|"]
    for name, one, allc in rows:
        a = "" if allc != allc else f"{allc:,.0f}"
        lines.append(f"| {name} | {one:,.0f} | {a} |")
    lines += ["", f"Look-ahead decisions per second (17 decisions of the look-ahead seat a deal, each "
              f"sampling 16 worlds and playing every legal card out): {17 * la_one:,.0f} on 1 core, "
              f"{17 * la_all:,.0f} on all cores.", ""]
    if peer_note:
        lines += [peer_note, ""]
    lines += ["Targets: random >= 1.5 million deals/s per core, heuristic >= 0.5 million.", ""]
    if args.players is None:
        lines += two_players(q, repeats, cores)
    text = "\n".join(lines)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
