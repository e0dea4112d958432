"""Kanalje throughput: deals per second of the public call, per core and on all cores.

Run: ``python benchmarks/kanalje.py [--quick] [--players 2]``; writes ``benchmarks/RESULTS_kanalje.md``
(``--players 2`` measures only the two-player game and replaces its section in that file).
``--cpu-rates`` prints, and writes nothing, the single-thread rate of every public call on CPU
time (best of 5), which a busy machine disturbs far less than wall-clock time: run it on two
checkouts (``PYTHONPATH=/path/to/old python benchmarks/kanalje.py --cpu-rates``) to compare them.

Measured in one run on one machine, each figure beside its reference and the command that
reproduces it: the cold compile (empty numba cache) and warm start of ``cardodds kanalje risk``
for the random, heuristic and look-ahead players; all-random deals through ``jack_risk`` and the
CLI against a tuned reference kernel (:func:`reference_random3`, one thread and all threads);
the heuristic and look-ahead players; a pure-Python and a vectorised numpy random player; the
peer OpenSpiel ``hearts`` with its C++ uniform random bots (``pip install 'cardodds[bench]'``;
skipped with a note when ``open_spiel`` is not installed). ``--random-only`` prints the
all-random table alone.
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
from _timing import median_rate  # noqa: E402




# ---- the tuned reference kernel -----------------------------------------------------------------
from cardodds._jit import kernel  # noqa: E402
from cardodds._random import bounded, shuffle_prefix  # noqa: E402
from cardodds.kanalje._bits import JACKS, SUIT_MASK, lowest, nth_card, popcount  # noqa: E402

#: Penalties of the jacks of clubs, diamonds, hearts, spades (docs/rules/kanalje.md §3.2).
_JACK_PENALTY = np.array([2, 3, 4, 1], dtype=np.int64)


@kernel
def reference_random3(state, n, out):
    """The lean loop for ``n`` all-random three-player deals that the public call is measured
    against: deal (partial Fisher-Yates), a random legal card per turn (follow suit), the
    trick's winner, and per seat the jacks taken and the penalty paid (``out[4 * seat + suit]``,
    ``out[12 + seat]``); nothing else. It draws the same random numbers as cardodds (one
    bounded pick per card play with a choice), so the ratio measures bookkeeping alone."""
    _reference_loop(state, n, out, np.arange(52, dtype=np.int64), np.empty(3, dtype=np.int64))


@kernel(_nrt=False)
def _reference_loop(state, n, out, deck, hands):
    # allocates nothing, so compiled without reference counting (as cardodds's loops are)
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


def cli_seconds(argv: list[str]) -> tuple[float, float]:
    """``cardodds ARGV`` in a fresh process, start-up included as the user waits for it:
    (CPU seconds, wall seconds) of that process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([CARDODDS, *argv], check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def cold_compile(argv: list[str], cache_dir: str) -> tuple[float, float]:
    """``cardodds ARGV`` in a fresh process with numba's cache in ``cache_dir`` (empty: a cold
    compile): (CPU seconds, wall seconds) of that process."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([CARDODDS, *argv], check=True, capture_output=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def random_vs_reference(n: int, repeats: int, cores: int) -> tuple[list[str], float, float]:
    """All-random three-player deals: the public call and the CLI against the tuned reference
    kernel, alternating in one run; one thread on CPU time, all threads on wall time. Returns
    the table's lines and the reference's rates (one thread, all threads)."""
    from cardodds.kanalje import jack_risk

    jack_risk("random", samples=1_000, rng=0, threads=1)  # compiled (the CLI rows load it from the cache)
    reference_random3(np.array([1, 2, 3, 4], dtype=np.uint64), 100, np.zeros(16, dtype=np.int64))
    base = ["kanalje", "risk", "--policies", "random", "--seed", "1"]
    cmd1 = [*base, "--samples", str(n), "--threads", "1"]
    cmdn = [*base, "--samples", str(n), "--threads", str(cores)]
    start = [*base, "--samples", "1000", "--threads", "1"]
    got: dict[str, list[float]] = {k: [] for k in ("ref1", "refn", "api1", "apin", "cli1", "clin", "start_cpu",
                                                   "start_wall")}
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
        got["cli1"].append(n / cli_seconds(cmd1)[0])
        got["clin"].append(n / cli_seconds(cmdn)[1])
        cpu, wall = cli_seconds(start)
        got["start_cpu"].append(cpu)
        got["start_wall"].append(wall)
    med = {k: statistics.median(v) for k, v in got.items()}
    r1, rn = med["ref1"], med["refn"]
    # the CLI with its start-up (a 1,000-deal run of the same command) taken off
    cli1_run = n / (n / med["cli1"] - med["start_cpu"])
    clin_run = n / (n / med["clin"] - med["start_wall"])
    lines = [f"Deals a call: {n:,}. Medians of {repeats} rounds; each round runs every row once, alternating. "
             "One thread: deals per CPU second (the CLI: of its process, start-up included); all threads "
             f"({cores}): deals per wall-clock second. Load average (1 min) at the rounds' starts: "
             f"{', '.join(f'{x:.2f}' for x in loads)}. CLI start-up (the same command with `--samples 1000`): "
             f"{med['start_cpu']:.2f} s CPU, {med['start_wall']:.2f} s wall.", "",
             "| what | 1 thread (CPU) | / reference | all threads (wall) | / reference |", "|---|---:|---:|---:|---:|",
             f"| tuned reference kernel (`reference_random3` in this file) | {r1:,.0f} | 1.00 | {rn:,.0f} | 1.00 |",
             f"| `jack_risk('random', samples={n:_}, rng=1, threads=1)` | {med['api1']:,.0f} | "
             f"{med['api1'] / r1:.2f} | | |",
             f"| `jack_risk('random', samples={n:_}, rng=1)` ({cores} threads, the default) | | | "
             f"{med['apin']:,.0f} | {med['apin'] / rn:.2f} |",
             f"| `cardodds {' '.join(cmd1)}` | {med['cli1']:,.0f} | {med['cli1'] / r1:.2f} | | |",
             f"| same, start-up taken off | {cli1_run:,.0f} | {cli1_run / r1:.2f} | | |",
             f"| `cardodds {' '.join(cmdn)}` | | | {med['clin']:,.0f} | {med['clin'] / rn:.2f} |",
             f"| same, start-up taken off | | | {clin_run:,.0f} | {clin_run / rn:.2f} |", ""]
    return lines, r1, rn


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


TWO_HEADER = "## Two players (docs/rules/kanalje.md §4)"


def cpu_rates(repeats: int = 5) -> None:
    """Single-thread deals (games) per CPU second of each public call, best of ``repeats``."""
    from cardodds.kanalje import KanaljeRules, evaluate_hand, jack_risk

    try:
        from cardodds.kanalje import game, strength
    except ImportError:  # a tree from before the played games took the verbs every game shares
        from cardodds.kanalje import game_odds as game, strength_match as strength

    two = KanaljeRules(players=2)
    hand = "2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d 7d 8d 9d 2h"
    try:
        from cardodds.kanalje import Hand

        def value(k):
            return evaluate_hand(Hand(hand, "Ah"), samples=k, rng=1, threads=1)
    except ImportError:  # a tree from before the hand was a Hand
        def value(k):
            return evaluate_hand(hand, "Ah", samples=k, rng=1, threads=1)
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
        "evaluate_hand(heuristic)": (value, 300_000),
        "game('heuristic'), games": (lambda k: game("heuristic", samples=k, rng=1, threads=1), 40_000),
        "two players: game('heuristic'), games": (
            lambda k: game("heuristic", rules=two, samples=k, rng=1, threads=1), 30_000),
        "strength('heuristic', 'random')": (
            lambda k: strength("heuristic", "random", samples=k, rng=1, threads=1), 100_000),
        "two players: strength('heuristic', 'random')": (
            lambda k: strength("heuristic", "random", rules=two, samples=k, rng=1, threads=1), 100_000),
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
    """Deals per second of the two-player game (both phases), one thread (CPU time) and all
    threads (wall time)."""
    from cardodds.kanalje import KanaljeRules, jack_risk

    two = KanaljeRules(players=2)
    rows = []
    load = os.getloadavg()[0]
    for name, n in (("random", 100_000 if q else 1_000_000), ("heuristic", 100_000 if q else 1_000_000),
                    ("lookahead,heuristic", 32 if q else 500)):
        jack_risk(name, rules=two, samples=8, rng=0, threads=1)  # compiled
        one = median_rate(lambda k: jack_risk(name, rules=two, samples=k, rng=1, threads=1), n, repeats,
                          time.process_time)
        allc = median_rate(lambda k: jack_risk(name, rules=two, samples=k, rng=1), n, repeats)
        rows.append((name, n, one, allc))
    lines = [TWO_HEADER, "",
             "Deals per second of `jack_risk(POLICIES, rules=KanaljeRules(players=2), samples=N, rng=1, threads=1)` "
             "(one thread, CPU time) and of the same call with the default threads "
             f"({cores}, wall time), both phases; medians of {repeats} runs; load average {load:.2f} when this "
             "part started.", "",
             "| POLICIES | N | 1 thread (CPU) | all threads (wall) |", "|---|---:|---:|---:|"]
    for name, n, one, allc in rows:
        lines.append(f"| `{name}` | {n:,} | {one:,.0f} | {allc:,.0f} |")
    la_one, la_all = rows[-1][2], rows[-1][3]
    lines += ["", f"Look-ahead decisions per second (26 decisions of the look-ahead seat a deal, 13 in each phase, "
              f"each sampling 16 worlds and playing every distinct legal card out through both phases): "
              f"**{26 * la_one:,.0f}** on 1 thread (CPU), {26 * la_all:,.0f} on all threads (wall).", ""]
    return lines


# ---- main ---------------------------------------------------------------------------------------
COLD_COMMANDS = (
    ["kanalje", "risk", "--policies", "heuristic", "--samples", "1000", "--seed", "1"],
    ["kanalje", "risk", "--policies", "random", "--samples", "1000", "--seed", "1"],
    ["kanalje", "risk", "--policies", "lookahead,heuristic,heuristic", "--samples", "4", "--seed", "1"],
)

#: Why the all-random figure recorded before did not reproduce (see the report of this change).
RECORDED_NOTE = """\
### Why an earlier run recorded 3.18 M all-random deals a second on both cores

That figure (this file as of commit 29d8b00, 2026-11-29, load average 0.74) was
`median_rate(lambda k: jack_risk('random', samples=k, rng=1, threads=2), 2_000_000, 3)`: the median
of three calls in one warm process, wall-clock, after a warm-up call, on a quiet machine, with the
code of that commit. A user's `jack_risk("random", samples=10_000_000)` measured 1.2-1.5 M later
for three reasons, found by running `jack_risk('random', samples=n, rng=1, threads=1)` on CPU time
in one session with `PYTHONPATH` pointing at each checkout (n = 2 M and 10 M gave the same rates):
(1) the code: 1.71 M deals per CPU second at 29d8b00, 1.38 M at the commit before this change (the
merge into one kernel family for two and three players sent all-random deals through the general
loop, about 0.66 of the tuned reference kernel), 1.97 M now (a lean kernel for three random
players, about 0.95 of the reference, the table above); (2) the machine: other processes held
the 2 cores (load average 4-10 during these runs), which halves a two-thread wall-clock rate while
the CPU time per deal barely moves; (3) start-up: a fresh process imports numba and loads the
kernel from the cache (the CLI start-up above) before its first deal. The chunk size and the
sample count are not the cause. The tables above measure the calls a user makes, with the command
beside each figure.
"""


def throughput(q: bool, repeats: int, cores: int, ref_one: float, ref_all: float) -> list[str]:
    """The other public calls and the pure-Python and numpy baselines, as ratios to the tuned
    reference kernel's rates of this run."""
    from cardodds.kanalje import jack_risk

    rows = []
    for name, n in (("heuristic", 100_000 if q else 1_000_000), ("lookahead,heuristic,heuristic", 32 if q else 1_000)):
        jack_risk(name, samples=8, rng=0, threads=1)  # compiled
        one = median_rate(lambda k: jack_risk(name, samples=k, rng=1, threads=1), n, repeats, time.process_time)
        allc = median_rate(lambda k: jack_risk(name, samples=k, rng=1), n, repeats)
        rows.append((f"`jack_risk('{name}', samples={n:_}, rng=1, threads=1)` / `(..., rng=1)`", one, allc))
    py = median_rate(python_random_deals, 2_000 if q else 10_000, repeats, time.process_time)
    npy = median_rate(numpy_random_deals, 8_192 if q else 65_536, repeats, time.process_time)
    lines = ["## Throughput of the other calls", "",
             f"Deals per second; one thread on CPU time, all threads ({cores}) on wall time; medians of {repeats}. "
             f"The ratio is to the tuned reference kernel's rate measured above ({ref_one:,.0f} / {ref_all:,.0f}). "
             f"Load average at the start: {os.getloadavg()[0]:.2f}.", "",
             "| call | 1 thread | / reference | all threads | / reference |", "|---|---:|---:|---:|---:|"]
    for name, one, allc in rows:
        lines.append(f"| {name} | {one:,.0f} | {one / ref_one:.4f} | {allc:,.0f} | {allc / ref_all:.4f} |")
    lines.append(f"| pure Python, random players (`python_random_deals` here) | {py:,.0f} | {py / ref_one:.4f} | | |")
    lines.append(f"| numpy, 4096 deals a step, random players (`numpy_random_deals` here) | {npy:,.0f} | "
                 f"{npy / ref_one:.4f} | | |")
    try:
        hearts = statistics.median(openspiel_hearts(2_000 if q else 20_000) for _ in range(repeats))
        lines.append(f"| peer: OpenSpiel `hearts`, C++ uniform random bots (games/s, wall) | {hearts:,.0f} | "
                     f"{hearts / ref_one:.4f} | | |")
    except ImportError:
        lines += ["", "OpenSpiel (the peer, `pip install -e '.[bench]'`) is not installed here: not measured."]
    la_one, la_all = rows[-1][1], rows[-1][2]
    lines += ["", f"Look-ahead decisions per second (17 a deal for the look-ahead seat, 16 sampled worlds each, "
              f"every distinct legal card played out): **{17 * la_one:,.0f}** on 1 thread (CPU), "
              f"{17 * la_all:,.0f} on all threads (wall).", ""]
    return lines


def compile_table() -> list[str]:
    """Cold compile (empty numba cache) and warm start of each command, CPU and wall seconds."""
    lines = ["## Compile time of each command", "",
             "A fresh process with an empty numba cache (`NUMBA_CACHE_DIR=$(mktemp -d)`), then the same command "
             "with the cache it left (warm); CPU seconds (user + sys of the process) and wall seconds. "
             f"Load average at the start: {os.getloadavg()[0]:.2f}.", "",
             "| command | cold CPU s | cold wall s | warm CPU s | warm wall s |", "|---|---:|---:|---:|---:|"]
    for argv in COLD_COMMANDS:
        with tempfile.TemporaryDirectory() as d:
            cold = cold_compile(argv, d)
            warm = cold_compile(argv, d)
        lines.append(f"| `cardodds {' '.join(argv)}` | {cold[0]:.1f} | {cold[1]:.1f} | {warm[0]:.2f} | {warm[1]:.2f} |")
    with tempfile.TemporaryDirectory() as d:
        cpu, wall = cold_compile(["kanalje", "risk", "--help"], d)
    lines += [f"| `cardodds kanalje risk --help` | {cpu:.2f} | {wall:.2f} | | |", ""]
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="small runs (a smoke test of the script)")
    ap.add_argument("--players", type=int, choices=(2, 3), default=None,
                    help="2: measure only the two-player game and replace its section in --out")
    ap.add_argument("--out", default=str(HERE / "RESULTS_kanalje.md"))
    ap.add_argument("--cpu-rates", action="store_true", help="print single-thread rates on CPU time; write nothing")
    ap.add_argument("--random-only", action="store_true", help="print the all-random rows only; write nothing")
    args = ap.parse_args()
    from cardodds.engine import default_threads

    cores = default_threads()
    q = args.quick
    n_random = 2_000_000 if q else 10_000_000
    if args.random_only:
        print("\n".join(random_vs_reference(n_random, 3, cores)[0]))
        return
    if args.cpu_rates:
        cpu_rates()
        return
    repeats = 3
    import numba

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
              "```", "", "Run: `python benchmarks/kanalje.py`. The machine may be shared: each part records the load "
              f"average (1 min) when it started ({cores} cores). Compare the ratios within one part: every figure is "
              "measured in the same run as its reference, alternating with it.", ""]
    lines += compile_table()
    random_lines, ref_one, ref_all = random_vs_reference(n_random, repeats, cores)
    lines += ["## All-random deals: the public call against a tuned kernel", ""] + random_lines
    lines += throughput(q, repeats, cores, ref_one, ref_all)
    lines += [RECORDED_NOTE]
    if args.players is None:
        lines += two_players(q, repeats, cores)
    text = "\n".join(lines)
    Path(args.out).write_text(text)
    print(text)


if __name__ == "__main__":
    main()
