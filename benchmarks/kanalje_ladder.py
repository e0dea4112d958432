"""Kanalje's player ladder: random, heuristic, lookahead, pimc, in paired strength matches.

Run: ``python benchmarks/kanalje_ladder.py [--deals 1000] [--players 3|2|both] [--threads 2]``;
writes ``benchmarks/RESULTS_kanalje_ladder.md``.

Each rung is :func:`cardodds.kanalje.strength` (the same deals, B in every seat, then A in
each seat in turn with B elsewhere): A's points a deal more than B's in the same seat, with
its 95% interval, the wall and CPU time of the match and the load average around it. Then
the ``pimc`` and look-ahead players' decisions per CPU second on one thread: every decision
with more than one legal card met while heuristic players play deals (the same positions
for both players), each timed through the compiled decision itself.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import sys
import time
from pathlib import Path

import numpy as np

from cardodds.kanalje import KanaljeRules, strength
from cardodds.kanalje import _policies as P, _table as TB
from cardodds.kanalje._defaults import DEFAULT_LOOKAHEAD_SAMPLES
from cardodds.kanalje._table import T
from cardodds.rng import as_seed_sequence, chunk_state

HERE = Path(__file__).resolve().parent
OUT = HERE / "RESULTS_kanalje_ladder.md"
#: ``(A, B, deals as a multiple of --deals)``: each rung against the one below, and pimc against the heuristic.
PAIRS = (("heuristic", "random", 20), ("lookahead", "heuristic", 1), ("pimc", "lookahead", 1),
         ("pimc", "heuristic", 1))


def cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def rung(a, b, deals, players, threads, seed):
    """One paired match, timed; returns its table row and the command reproducing it."""
    rules = KanaljeRules(players=players)
    load0 = os.getloadavg()[0]
    c0, w0 = cpu_seconds(), time.perf_counter()
    m = strength(a, b, rules=rules, samples=deals, rng=seed, threads=threads)
    wall, cpu = time.perf_counter() - w0, cpu_seconds() - c0
    load1 = os.getloadavg()[0]
    adv = m.points
    print(f"{players}p {a} vs {b}: {adv.format(3)} in {wall:.0f} s", flush=True)
    cmd = (f"strength({a!r}, {b!r}, rules=KanaljeRules(players={players}), samples={deals}, rng={seed}, "
           f"threads={threads})")
    return (f"| {a} | {b} | {deals:,} | {m.mean_a:.3f} | {m.mean_b:.3f} | {adv.format(3)} | "
            f"{'yes' if adv.lo > 0 else 'no'} | {wall:.0f} | {cpu:.0f} | {load0:.2f} / {load1:.2f} | `{cmd}` |")


def positions(deals, players, seed):
    """Tables at every decision with a choice, met while heuristic players play ``deals`` deals."""
    rules = KanaljeRules(players=players)
    state = chunk_state(as_seed_sequence(seed)[0], 0)
    t = TB.TABLE.zeros()
    deck = np.arange(52, dtype=np.int64)
    hand0 = np.zeros(4, dtype=np.int64)
    out = []
    for _ in range(deals):
        TB.start_deal(state, t, deck, 52, rules.pack(), -1, 0, -1, 1, 0, 0, hand0)
        while True:
            seat = TB.to_play(t)
            p1 = t[T.phase] == 1
            legal = TB.legal_cards1(t, seat) if p1 else TB.legal_cards(t, seat)
            if legal & (legal - 1):
                out.append((t.copy(), seat, legal))
            c = P.heuristic1_choose(t, seat, legal) if p1 else P.heuristic_card(t, seat, legal)
            if TB.play_any(state, t, seat, c, True):
                break
    return out


def decision_rate(choose, pos, samples):
    """Decisions per CPU second of ``choose`` over the positions ``pos`` (one thread)."""
    scr, rs = P.new_scratch()
    state = chunk_state(as_seed_sequence(1)[0], 0)
    w = pos[0][0].copy()
    choose(state, w, pos[0][1], pos[0][2], samples, scr, rs)  # compiled before the clock starts
    c0 = time.process_time()
    for t, seat, legal in pos:
        w[:] = t
        choose(state, w, seat, legal, samples, scr, rs)
    return len(pos) / (time.process_time() - c0)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals of each match with a searching player")
    ap.add_argument("--players", choices=("3", "2", "both"), default="both")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args(argv)
    counts = (3, 2) if args.players == "both" else (int(args.players),)
    cmd = f"python benchmarks/kanalje_ladder.py --deals {args.deals} --players {args.players} --threads {args.threads}"
    lines = ["# Kanalje: the player ladder", "",
             f"`{cmd}` on {platform.node() or 'this machine'} ({os.cpu_count()} cores, Python "
             f"{platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}); "
             f"{DEFAULT_LOOKAHEAD_SAMPLES} worlds a decision for lookahead and pimc (their default).", "",
             "Paired matches (`cardodds.kanalje.strength`: the same deals, A in each seat in turn against B "
             "elsewhere, versus B everywhere): A's points a deal more than B's in the same seat, 95% interval. "
             "Wall and CPU seconds of the match (on `--threads` threads, numba compiled beforehand), load "
             "average (1 min) before / after it."]
    for n in counts:
        strength("pimc", "lookahead", rules=KanaljeRules(players=n), samples=2, rng=0, threads=1)  # compile
        lines += ["", f"## {'Three' if n == 3 else 'Two'} players", "",
                  "| A | B | deals | A scores | B scores | advantage of A | excludes 0 | wall s | CPU s | load | "
                  "call |", "|---|---|---:|---:|---:|---|---|---:|---:|---|---|"]
        for i, (a, b, mult) in enumerate(PAIRS):
            lines.append(rung(a, b, args.deals * mult, n, args.threads, 100 * n + i))
        pos = positions(40 if n == 3 else 60, n, 7 + n)
        pimc = decision_rate(P.pimc_choose, pos, DEFAULT_LOOKAHEAD_SAMPLES)
        look = decision_rate(P.lookahead_choose, pos, DEFAULT_LOOKAHEAD_SAMPLES)
        lines += ["", f"Decisions per CPU second on one thread, {DEFAULT_LOOKAHEAD_SAMPLES} worlds a decision, "
                  f"over the {len(pos):,} decisions with more than one legal card met in heuristic deals: "
                  f"pimc {pimc:,.0f}, lookahead {look:,.0f} (pimc takes {look / pimc:.1f}x the look-ahead's time)."]
        print(lines[-1], flush=True)
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
