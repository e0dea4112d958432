"""Benchmark: Polish Canasta deals dealt and evaluated per second, as ratios to references.

The public call is ``cardodds.canasta.melds`` (what ``cardodds canasta melds`` runs): deal four
12-card hands and the upcard, find the best first meld under all three wild limits and with the
upcard, count wilds, red 3s and naturals per hand and per partnership, and with ``turns=20`` draw
20 cards and re-test the first meld and the 7-naturals event after each. Its references, run in
the same process and alternated with it:

- **numpy, same figures**: a vectorised numpy program that computes the same counts (a partial
  Fisher-Yates shuffle down the columns of a batch of packs, counts by ``np.bincount``, the meld
  search over point classes, the draws on the hands not yet open). It deals only the cards the
  figures look at (seat 0, its partner, the upcard, the draws), which is the same distribution.
- **numpy, one hand + best first meld**: the less work the baseline of earlier versions did
  (one 12-card hand, its best first meld), done as fast as numpy does it.
- **pure Python**, one hand + best first meld.

One-thread figures are CPU time of this process (other jobs share the machine); all-thread
figures are wall clock, numpy then runs one batch per thread (it releases the GIL in most of
its loops). The cold compile of ``cardodds canasta melds`` is timed in a fresh process with an
empty numba cache (CPU seconds of the child, and wall), and with the cache warm.

    python benchmarks/canasta.py [--quick]      # writes benchmarks/RESULTS_canasta.md
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from _timing import cold_command, cpu_rate, wall_rate

from cardodds import __version__
from cardodds.canasta import _kernels as K
from cardodds.canasta import melds
from cardodds.canasta.cards import JOKER, NATURAL_KINDS, RED3, TWO, deck_kinds
from cardodds.canasta.rules import CanastaRules
from cardodds.engine import default_threads

HERE = Path(__file__).resolve().parent
RULES = CanastaRules()
PTS = RULES.points()
NAT = np.array(NATURAL_KINDS)
#: Natural ranks grouped by points: only the largest count of a group can make the best meld.
CLASSES = [(int(p), NAT[PTS[NAT] == p]) for p in np.unique(PTS[NAT])]
ROWS_CHUNK = 1 << 16  # numpy batch: large enough for vectorised loops, small enough for the cache


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


def load() -> str:
    return " / ".join(f"{x:.1f}" for x in os.getloadavg())


# ---- numpy references -----------------------------------------------------------------------
def numpy_deal(rng, batch, m, jokers=4):
    """``m`` cards of each of ``batch`` packs, a uniform ordered draw (partial Fisher-Yates)."""
    deck = deck_kinds(jokers).astype(np.int8)
    packs = np.tile(deck, (batch, 1))
    flat = packs.ravel()
    base = np.arange(batch) * deck.size
    for i in range(m):
        j = base + i + rng.integers(0, deck.size - i, batch)
        a = flat[j]
        flat[j] = flat[base + i]
        flat[base + i] = a
    return packs[:, :m].astype(np.intp)


def numpy_counts(cards):
    """Counts per kind of each row of ``cards``."""
    batch = cards.shape[0]
    return np.bincount((np.arange(batch)[:, None] * 15 + cards).ravel(), minlength=batch * 15).reshape(batch, 15)


def numpy_best(counts, room, code=0, need=0, rank=None, jk=None, tw=None):
    """Best meld value per row (0 for none), the rules of ``_kernels.rank_meld`` vectorised.

    ``rank``: a per-row natural kind the meld must be of (the pile's top card); ``need`` 1 or 2:
    the meld must hold a Joker or a 2; ``jk``/``tw`` override the wilds in hand.
    """
    J = counts[:, JOKER] if jk is None else jk
    T = counts[:, TWO] if tw is None else tw
    W = J + T

    def wilds(w):
        j = np.minimum(J, w)
        t = w - j
        ok = np.ones(len(w), dtype=bool)
        if need == 1:
            ok = j > 0
        elif need == 2:
            swap = t == 0
            ok = ~swap | ((w > 0) & (T > 0))
            j = np.where(swap, j - 1, j)
            t = np.where(swap, t + 1, t)
        return ok, 50 * j + 20 * t

    best = np.zeros(len(counts), dtype=np.int64)
    if rank is None:
        w = np.minimum(W, room)
        ok, val = wilds(w)
        best = np.where(ok & (w >= 3), val, 0)
        groups = [(p, counts[:, ks].max(axis=1)) for p, ks in CLASSES]
    else:  # the top card joins the hand's naturals of its rank
        groups = [(PTS[rank], counts[np.arange(len(counts)), rank] + 1)]
    for p, c in groups:
        for n in range(1, 9):
            cap = (n if n >= 2 else -1) if code == 0 else ((3 if n >= 2 else -1) if code == 1 else 99)
            w = np.minimum(np.minimum(cap, W), room - n)
            ok, val = wilds(w)
            ok &= (c >= n) & (w >= 0) & (n + w >= 3)
            v = n * p + val
            best = np.where(ok & (v > best), v, best)
    return best


def numpy_melds(rng, batch, hand=12, turns=20):
    """The counts of ``melds(hand, turns=turns)`` (default rules, cards kept) for ``batch`` deals."""
    m = 2 * hand + 1 + max(turns, 1)
    cards = numpy_deal(rng, batch, m)
    counts = numpy_counts(cards[:, :hand])
    partner = numpy_counts(cards[:, hand:2 * hand])
    rows = np.arange(batch)
    out = {}
    by_limit = [numpy_best(counts, hand - 1, code) for code in range(3)]
    out["first_meld_by_limit"] = [int((v >= 30).sum()) for v in by_limit]
    v = by_limit[RULES.wild_code]
    top = cards[:, 2 * hand]
    drawn = counts.copy()
    drawn[rows, cards[:, 2 * hand + 1]] += 1
    pile = np.zeros(batch, dtype=np.int64)
    nat = (top >= NAT[0]) & (top <= NAT[-1])
    pile[nat] = numpy_best(drawn[nat], hand + 1, rank=top[nat], jk=drawn[nat, JOKER], tw=drawn[nat, TWO])
    for kind, need in ((JOKER, 1), (TWO, 2)):
        on = top == kind
        d = drawn[on]
        pile[on] = numpy_best(d, hand + 1, need=need, jk=d[:, JOKER] + (kind == JOKER), tw=d[:, TWO] + (kind == TWO))
    out["pile_open"] = int((pile >= 30).sum())
    out["best_value"] = np.bincount(np.minimum(v // 5, K.N_VALUE_BINS - 1), minlength=K.N_VALUE_BINS)
    w = counts[:, JOKER] + counts[:, TWO]
    out["wild_cards"] = np.bincount(w, minlength=13)
    out["red_threes"] = np.bincount(counts[:, RED3], minlength=5)
    out["partnership_wild_cards"] = np.bincount(w + partner[:, JOKER] + partner[:, TWO], minlength=13)
    out["partnership_red_threes"] = np.bincount(counts[:, RED3] + partner[:, RED3], minlength=5)
    most = counts[:, NAT].max(axis=1)
    out["best_rank_naturals"] = np.bincount(most, minlength=9)
    out["first_meld_by_wilds"] = np.bincount(w[v >= 30], minlength=13)
    opened = v >= 30
    canasta = most >= 7
    by_turn = [int(opened.sum())]
    canasta_by_turn = [int(canasta.sum())]
    for k in range(1, turns + 1):
        x = cards[:, 2 * hand + k]
        counts[rows, x] += 1
        shut = np.flatnonzero(~opened)
        opened[shut] = numpy_best(counts[shut], hand + k - 1) >= 30
        canasta |= (counts[rows, x] >= 7) & (x >= NAT[0]) & (x <= NAT[-1])
        by_turn.append(int(opened.sum()))
        canasta_by_turn.append(int(canasta.sum()))
    out["first_meld_by_turn"] = by_turn
    out["canasta_by_turn"] = canasta_by_turn
    return out


def numpy_melds_run(n, turns, seed=1):
    rng = np.random.default_rng(seed)
    first = 0
    for start in range(0, n, ROWS_CHUNK):
        first += numpy_melds(rng, min(ROWS_CHUNK, n - start), turns=turns)["first_meld_by_limit"][0]
    return first


def numpy_one_hand(n, seed=1, hand=12):
    """One 12-card hand and its best first meld, ``n`` times (the earlier baseline's work)."""
    rng = np.random.default_rng(seed)
    opened = 0
    for start in range(0, n, ROWS_CHUNK):
        counts = numpy_counts(numpy_deal(rng, min(ROWS_CHUNK, n - start), hand))
        opened += int((numpy_best(counts, hand - 1) >= 30).sum())
    return opened


def numpy_one_hand_earlier(n, seed=1, hand=12):
    """The earlier baseline's form of the same work: ``argpartition`` of 108 random keys a
    hand, counts by ``np.add.at``, every rank searched; kept to show what it measured."""
    rng = np.random.default_rng(seed)
    deck = deck_kinds(4)
    opened = 0
    for start in range(0, n, ROWS_CHUNK):
        batch = min(ROWS_CHUNK, n - start)
        pick = np.argpartition(rng.random((batch, deck.size)), hand, axis=1)[:, :hand]
        counts = np.zeros((batch, 15), dtype=np.int64)
        np.add.at(counts, (np.repeat(np.arange(batch), hand), deck[pick].ravel()), 1)
        J, T = counts[:, JOKER], counts[:, TWO]
        w = np.minimum(J + T, hand - 1)
        j = np.minimum(J, w)
        best = np.where(w >= 3, 50 * j + 20 * (w - j), 0)
        for k in NATURAL_KINDS:
            c = counts[:, k]
            for m in range(2, 9):
                w = np.minimum(np.minimum(m, J + T), hand - 1 - m)
                j = np.minimum(J, w)
                v = m * PTS[k] + 50 * j + 20 * (w - j)
                best = np.where((c >= m) & (m + w >= 3) & (v > best), v, best)
        opened += int((best >= 30).sum())
    return opened


def on_threads(fn, n, threads):
    """``fn(n // threads, seed=i)`` on ``threads`` threads at once."""
    with ThreadPoolExecutor(threads) as ex:
        list(ex.map(lambda i: fn(n // threads, seed=i + 1), range(threads)))


# ---- pure Python reference: one hand at a time -----------------------------------------------
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


def python_hands(n, seed=1, hand=12):
    rng = np.random.default_rng(seed)
    deck = deck_kinds(4).tolist()
    opened = 0
    for _ in range(n):
        counts = [0] * 15
        for i in rng.choice(108, hand, replace=False):
            counts[deck[i]] += 1
        opened += python_best_value(counts) >= 30
    return opened


def check_references():
    """The references do the public call's work: same meld values on the same hands, and the
    same figures within sampling error."""
    rng = np.random.default_rng(3)
    for hand in (11, 12, 15):
        cards = numpy_deal(rng, 3000, hand + 1)
        counts = numpy_counts(cards[:, :hand])
        for code in range(3):
            got = numpy_best(counts, hand - 1, code)
            want = [K.best_meld_value(c.astype(np.int64), hand - 1, PTS, code, 1) for c in counts]
            assert (got == want).all(), (hand, code)
        top = cards[:, hand]
        for i, c in enumerate(counts):
            if top[i] in (JOKER, TWO) or NAT[0] <= top[i] <= NAT[-1]:
                rec = np.zeros(4, dtype=np.int64)
                want = K.best_meld_with_top(c.astype(np.int64), top[i], PTS, 0, 1, rec)
                if NAT[0] <= top[i] <= NAT[-1]:
                    got = numpy_best(counts[i:i + 1], hand, rank=top[i:i + 1])[0]
                else:
                    need = 1 if top[i] == JOKER else 2
                    got = numpy_best(counts[i:i + 1], hand, need=need,
                                     jk=counts[i:i + 1, JOKER] + (top[i] == JOKER),
                                     tw=counts[i:i + 1, TWO] + (top[i] == TWO))[0]
                assert got == want, (c, top[i], got, want)
    n = 100_000
    ref = numpy_melds(np.random.default_rng(5), n, turns=20)
    res = melds(samples=n, rng=5, turns=20)
    lay = K.deal_layout(20, 4)
    mine = lay.view(res.counts)
    for name in ("first_meld_by_limit", "first_meld_by_turn", "canasta_by_turn"):
        for a, b in zip(np.atleast_1d(getattr(mine, name)), ref[name]):
            se = max(1.0, np.sqrt(n * (a / n) * (1 - a / n)))
            assert abs(a - b) < 5 * np.sqrt(2) * se, (name, a, b)


# ---- timing -----------------------------------------------------------------------------------


COMPILE_MELDS = ["-c", "import sys; from cardodds.cli import main; sys.argv = ['cardodds', 'canasta', 'melds']; "
                 "sys.exit(main())"]



def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer deals and repeats (a smoke run)")
    ap.add_argument("--out", default=str(HERE / "RESULTS_canasta.md"))
    args = ap.parse_args()
    repeats = 1 if args.quick else 5
    n_pub = 200_000 if args.quick else 2_000_000
    n_np = 65_536 if args.quick else 262_144
    n_py = 1_000 if args.quick else 5_000
    load_start = load()
    check_references()
    with tempfile.TemporaryDirectory() as d:
        cold = cold_command(COMPILE_MELDS, d)
        warm = cold_command(COMPILE_MELDS, d)
    melds(samples=10_000, rng=0, turns=0, threads=1)  # compile (or load) in this process
    cores = default_threads()
    rows = []
    for turns in (0, 20):
        pub1, pubn, ref1, refn = [], [], [], []
        for _ in range(repeats):  # alternate the public call and its reference
            pub1.append(cpu_rate(lambda n: melds(samples=n, rng=1, turns=turns, threads=1), n_pub))
            ref1.append(cpu_rate(lambda n: numpy_melds_run(n, turns), n_np))
            pubn.append(wall_rate(lambda n: melds(samples=n, rng=1, turns=turns, threads=cores), n_pub))
            refn.append(wall_rate(lambda n: on_threads(lambda m, seed: numpy_melds_run(m, turns, seed), n, cores),
                                  n_np))
        rows.append((turns, *map(statistics.median, (pub1, ref1, pubn, refn))))
    one1, one_n, old1, py1 = [], [], [], []
    for _ in range(repeats):
        one1.append(cpu_rate(numpy_one_hand, n_np))
        one_n.append(wall_rate(lambda n: on_threads(numpy_one_hand, n, cores), n_np))
        old1.append(cpu_rate(numpy_one_hand_earlier, n_np // 2))
        py1.append(cpu_rate(python_hands, n_py))
    one1, one_n, old1, py1 = map(statistics.median, (one1, one_n, old1, py1))
    lines = ["# Polish Canasta: meld odds throughput", "",
             f"Machine: {machine()}. Load average at the start {load_start}, at the end {load()} (the cores are "
             "shared with other work: one-thread figures are rates per CPU second, all-thread figures wall clock).",
             "", f"Deals per second, median of {repeats} alternated runs ({n_pub:,} deals per cardodds run, "
             f"{n_np:,} per numpy run). `melds` deals four 12-card hands and the upcard and computes every figure "
             "of `cardodds canasta melds`; the numpy reference computes the same counts (checked on the same "
             "hands and within sampling error of the public call before timing).", "",
             "| what | 1 thread | numpy, same figures | ratio | " f"{cores} threads | numpy, {cores} threads | ratio |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for turns, p1, r1, pn, rn in rows:
        lines.append(f"| `melds(turns={turns})` | {p1:,.0f} | {r1:,.0f} | {p1 / r1:.1f}x | {pn:,.0f} | {rn:,.0f} | "
                     f"{pn / rn:.1f}x |")
    p0_1, p0_n = rows[0][1], rows[0][3]
    lines += ["", "The public call against the less work of one 12-card hand and its best first meld (the "
              "baseline of earlier versions; its earlier numpy form drew 108 random keys a hand for "
              "`argpartition` and counted with `np.add.at`, which made it several times slower than numpy "
              "needs to be):", "",
              "| reference, one hand + best first meld | 1 thread | `melds(turns=0)` / it | "
              f"{cores} threads | `melds(turns=0)` / it |", "|---|---:|---:|---:|---:|",
              f"| numpy, vectorised (partial Fisher-Yates, `np.bincount`) | {one1:,.0f} | {p0_1 / one1:.1f}x | "
              f"{one_n:,.0f} | {p0_n / one_n:.1f}x |",
              f"| numpy, the earlier form (`argpartition`, `np.add.at`) | {old1:,.0f} | {p0_1 / old1:.1f}x | | |",
              f"| pure Python | {py1:,.0f} | {p0_1 / py1:.0f}x | | |", "",
              f"Cold compile of `cardodds canasta melds` (fresh process, empty numba cache): {cold[0]:.1f} CPU s, "
              f"{cold[1]:.1f} s wall; with the cache warm: {warm[0]:.2f} CPU s, {warm[1]:.2f} s wall (imports and "
              "the default run of 200,000 deals included).", "",
              "Reproduce: `python benchmarks/canasta.py` (about three minutes).", ""]
    Path(args.out).write_text("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
