"""Kanalje's ``pimc`` player: its cost against the look-ahead's, its strength, and against an older tree.

Run: ``python benchmarks/kanalje_pimc.py [--deals 1000] [--worlds 16 64] [--before TREE] [--threads 2]``;
writes ``benchmarks/RESULTS_pimc.md``.

1. Decisions per CPU second on one thread of the ``pimc`` and look-ahead players at the same
   worlds, over every decision with more than one legal card met while heuristic players play
   deals (the same positions for both), each player timed in turn, ``--repeats`` times: the
   median of the ratio pimc / look-ahead time, with its range (the machine is shared: a ratio
   measured within one run, not a rate, is what compares across runs).
2. ``cardodds kanalje advise`` on the docs' opening position with ``--policies pimc`` and with
   ``--policies lookahead`` (40 worlds each, compiled beforehand): wall seconds, median of
   ``--repeats`` runs in turn.
3. ``strength("pimc", "lookahead", lookahead_samples=K)`` for each ``--worlds`` K, three and
   two players (``--deals`` deals at the fewest worlds, fewer in proportion at more):
   pimc's points a deal more than the look-ahead's, 95% interval.
4. With ``--before TREE`` (a worktree of the code before): the same strength matches run in
   TREE in a subprocess (at the fewest worlds, where the search's values and depths are
   TREE's); their counts compared to this tree's (the same seed deals the same cards and the
   players draw the same random numbers, so a player that chooses the same cards gives the same
   counts to the last deal).
5. Three players: the new pimc against the old (:func:`pimc_before`) at each ``--worlds``,
   paired on the same deals, and their cost.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cardodds._jit import inline
from cardodds._random import next_u64
from cardodds.kanalje import _policies as P, _search as S
from cardodds.kanalje._bits import lowest
from cardodds.kanalje._table import T, copy_into

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "RESULTS_pimc.md"
HAND = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"
ADVISE = ["kanalje", "advise", "--seat", "0", "--hand", HAND, "--turned", "7h", "--seed", "1"]
#: What the tables show (written after them).
NOTE = """
## What changed

The search gives the old search's value vectors, ties included (`tests/test_kanalje_pimc.py`
compares it with a brute force under four rules, with one transposition table kept across
positions, and a table kept across thousands of searches with an empty one), faster: the last
three tricks are solved where they start by loops over the first trick's cards, each ending in
the last two tricks' loop, which now reads each card's penalty once and finds the second trick's
taker in the seats' order; with two players (two seats sharing a fixed total) a node is cut
against any seat above it that chose, not only its parent (alpha-beta), and the nodes between
are never stored. With two players, too, the second seat of a trick tries first the reply most
often best (the lowest card that takes a trick led without a jack, or that leaves a led jack
to the leader); the last three tricks search one value, the leader's gain, a reply stopping the
loop when it leaves the leader no more than a card tried before, with the last two tricks'
loop called directly (faster than the table for four first tricks); and the reply that leaves
three tricks is a loop rather than a node of the stack, cut as that node would be: a
two-player search from five tricks takes 1.11 microseconds, 1.42 at b1788bd
(`python benchmarks/kanalje_endgame.py`). Its helpers are typed once and inlined by LLVM (a
quarter of the search's compile time, `RESULTS_compile.md`).

The player: with three players the exact search covers the whole rest at a decision five
tricks from the end or nearer, the last four tricks at one seven or nearer, and the last three
before. Far from the end a decision's play-outs run eight or more tricks of the heuristic before
the search, and an exactly played fourth-to-last trick changes little of what they measure,
while a search over three tricks costs a fraction of one over four; part of the saving pays for
the whole rest near the end, where each trick decides jacks. Three tricks at every decision is
weaker, and the same player without the whole rest from five (`eight-four`, four tricks from
eight) neither stronger nor weaker at this precision (the last table). Two players: the same
player as before (four tricks after a phase-1 decision is weaker).

## Against the targets

A pimc decision was to cost at least ten times less than when the target was set: 42 times a
look-ahead decision with three players and 46 with two (`RESULTS_kanalje_ladder.md` as of
2026-12-04, before the search's transposition table),
at the same strength. The first table gives today's cost: 3.9 times with three players and 4.2
with two (11 times less: met with both; the two-player player plays the cards it played, its
counts TREE's, its search faster). The fourth table gives the strength: the new
three-player pimc against the old on 8,000 deals, and on 1,000 at 64 worlds, is as strong at this
precision, neither interval excluding zero, so no gain in strength is shown; with `--long`, on
40,000 fresh deals at 16 worlds and 8,000 at 64, neither excludes zero either: any gain is under
0.016 points a deal at 16 worlds and under 0.030 at 64 (a player scores about 2.4). Against the
look-ahead it wins at 16 and at 64 worlds (the third table). Spending the saving on a deeper
search everywhere is out of reach: `python benchmarks/kanalje_endgame.py` puts a search from
five tricks at 17 times one from four.
"""
@inline
def _played_out(state, t, seat, legal, samples, scr, rs, endgame, far, near_from, near, last, phase1_depth):
    """The pimc player with other depths of the exact search (tricks left when the heuristic
    stops): three players, ``far`` at a decision more than ``near_from`` tricks from the end,
    ``near`` within, ``last`` within :data:`_search.LAST_THREE`; two players, ``phase1_depth``
    at a phase-1 decision and :data:`_search.ENDGAME_TWO` in phase 2 (its one world). Otherwise
    :func:`_policies.sampled_choose`: the same worlds, candidates and random draws."""
    if (legal & (legal - 1)) == 0:
        return lowest(legal)
    w, w2, cands, totals = scr[P.WORLD], scr[P.PLAY], scr[P.CANDS], scr[P.TOTALS]
    sub, s2 = rs[P.SUB], rs[P.SUB_COPY]
    k = P.candidates(t, seat, legal, cands, totals)
    p1 = t[T.phase] == 1
    left = S.tricks_left(t)
    if t[T.players] == 2:
        depth = phase1_depth if p1 else S.ENDGAME_TWO
    else:
        depth = far if left > near_from else (near if left > S.LAST_THREE else last)
    for _ in range(1 if not p1 and t[T.players] == 2 else samples):
        P.sample_world(state, t, seat, w, scr[P.POOL], True)
        w[T.check] = 0
        if p1:
            for j in range(4):
                sub[j] = next_u64(state)
        if k == 1:
            continue
        for i in range(k):
            copy_into(w2, w)
            copy_into(s2, sub)
            P.play_heuristic_until(s2, w2, depth, cands[i], True)
            totals[i] += endgame(w2, seat, scr, P.SOLVE)
    best = 0
    for i in range(1, k):
        if totals[i] > totals[best]:
            best = i
    return cands[best]


def pimc_before(state, t, seat, legal, samples, scr, rs, endgame):
    """The pimc the issue measured (4a179ac): the exact search over the last four tricks after
    every three-player decision, however far from the end (the search gives the old search's
    values, so this plays the old pimc's cards: its match against the look-ahead had the old
    tree's counts, ``benchmarks/RESULTS_pimc.md`` of 2026-12-05 05:05)."""
    return _played_out(state, t, seat, legal, samples, scr, rs, endgame, 4, 17, 4, 4, 5)


def pimc_three(state, t, seat, legal, samples, scr, rs, endgame):
    """Three tricks solved after every three-player decision."""
    return _played_out(state, t, seat, legal, samples, scr, rs, endgame, 3, 17, 3, 3, 5)


def pimc_eight_four(state, t, seat, legal, samples, scr, rs, endgame):
    """Three players: three tricks solved far from the end, four at a decision eight tricks from
    the end or nearer, never the whole rest from five."""
    return _played_out(state, t, seat, legal, samples, scr, rs, endgame, 3, 8, 4, 4, 5)


def pimc_phase1_four(state, t, seat, legal, samples, scr, rs, endgame):
    """Two players: four tricks solved after a phase-1 decision instead of five."""
    return _played_out(state, t, seat, legal, samples, scr, rs, endgame, 3, 7, 4, 5, 4)


#: The other players :func:`variant_match` knows, by name.
VARIANTS = {"before": pimc_before, "three": pimc_three, "eight-four": pimc_eight_four,
            "phase1-four": pimc_phase1_four}


def variant_match(a, b, deals, seed, k, threads, players=3):
    """``strength``: player ``a`` against ``b`` (the names of :data:`VARIANTS`, or "pimc" or
    "lookahead", the library's), paired on the same deals."""
    from cardodds._jit import Pointer
    from cardodds.kanalje import KanaljeRules, play, strength

    def pointer(name):
        if name in VARIANTS:
            return Pointer(VARIANTS[name], P.SEARCH_SIGNATURE)
        return {"pimc": P.PIMC, "lookahead": P.LOOKAHEAD}[name]

    first, second = pointer(a), pointer(b)
    calls = play.calls
    play.calls = lambda user, codes, phase1=True: P.Calls(user, second, first, P.ENDGAME)
    try:
        return strength("pimc", "lookahead", rules=KanaljeRules(players=players), samples=deals, rng=seed,
                        lookahead_samples=k, threads=threads)
    finally:
        play.calls = calls


MATCH = ("import json, sys; from cardodds.kanalje import KanaljeRules, strength; "
         "m = strength('pimc', 'lookahead', rules=KanaljeRules(players={n}), samples={deals}, rng={seed}, "
         "lookahead_samples={k}, threads={threads}); print(json.dumps(m.counts.tolist()))")


def rates(n, worlds, repeats):
    """Median and range of pimc's time / the look-ahead's over the heuristic deals' decisions."""
    sys.path.insert(0, str(HERE))
    from kanalje_ladder import decision_rate, positions

    from cardodds.kanalje import _policies as P

    pos = positions(40 if n == 3 else 60, n, 7 + n)
    ratios, pimc, look = [], [], []
    for _ in range(repeats):
        p = decision_rate(P.pimc_choose, pos, worlds)
        lk = decision_rate(P.lookahead_choose, pos, worlds)
        ratios.append(lk / p)
        pimc.append(p)
        look.append(lk)
    return len(pos), statistics.median(ratios), min(ratios), max(ratios), statistics.median(pimc), \
        statistics.median(look)


def before_ratio(worlds, repeats):
    """Median (range) of :func:`pimc_before`'s time over the library pimc's, as :func:`rates` (three players)."""
    import numba

    sys.path.insert(0, str(HERE))
    from kanalje_ladder import decision_rate, positions

    pos = positions(40, 3, 10)
    old = numba.njit(pimc_before)
    ratios = [decision_rate(P.pimc_choose, pos, worlds) / decision_rate(old, pos, worlds) for _ in range(repeats)]
    return f"{statistics.median(ratios):.1f} ({min(ratios):.1f}-{max(ratios):.1f})"


def tree_rates(tree, n, worlds, repeats):
    """:func:`rates` measured in ``tree`` (a subprocess importing that tree's code)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = (f"import json, sys; sys.path.insert(0, {str(HERE)!r}); from kanalje_pimc import rates; "
            f"print(json.dumps(rates({n}, {worlds}, {repeats})))")
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def advise_seconds(policies, repeats, tree=ROOT):
    """Median wall seconds of ``cardodds kanalje advise`` (compiled by a first run not timed),
    with the range, and the median CPU seconds of the same runs."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = "import sys; from cardodds.cli import main; sys.argv = ['cardodds'] + sys.argv[1:]; main()"
    cmd = [sys.executable, "-c", code, *ADVISE, "--policies", policies, "--threads", "2"]
    # run from the tree: ``python -c`` puts the working folder first on the path
    subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=tree)
    times, cpu = [], []
    for _ in range(repeats):
        c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True, cwd=tree)
        times.append(time.perf_counter() - t0)
        c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime)
    return statistics.median(times), min(times), max(times), statistics.median(cpu)


def match_counts(tree, n, deals, seed, k, threads):
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = MATCH.format(n=n, deals=deals, seed=seed, k=k, threads=threads)
    out = subprocess.run([sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True, cwd=tree)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=1000, help="deals of each strength match")
    ap.add_argument("--worlds", type=int, nargs="+", default=[16, 64], help="worlds a decision (both players)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--before", type=Path, help="a worktree of the code before: its matches' counts compared")
    ap.add_argument("--long", action="store_true",
                    help="also the new pimc against the old on 40 times --deals at the fewest worlds and 8 times "
                         "at the others (half an hour at the defaults)")
    args = ap.parse_args(argv)
    from cardodds.kanalje import KanaljeRules, strength

    cmd = (f"python benchmarks/kanalje_pimc.py --deals {args.deals} --worlds {' '.join(map(str, args.worlds))} "
           f"--threads {args.threads} --repeats {args.repeats}" + (" --before TREE" if args.before else "")
           + (" --long" if args.long else ""))
    tree = ""
    if args.before:
        head = subprocess.run(["git", "-C", str(args.before), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        tree = f"; TREE: {head or args.before}"
    lines = ["# Kanalje: the pimc player's cost and strength", "",
             f"`{cmd}` on {platform.node() or 'this machine'} ({os.cpu_count()} cores shared with other work, "
             f"Python {platform.python_version()}, {time.strftime('%Y-%m-%d %H:%M')}, load average "
             f"{os.getloadavg()[0]:.2f} at the start{tree}). The machine was shared: compare the ratios, each "
             "measured within one run, rather than the rates.", "",
             "## Cost: a pimc decision against a look-ahead decision at the same worlds", "",
             "Every decision with more than one legal card met while heuristic players play deals (40 deals "
             "with three players, 60 with two), one thread, CPU time; each player timed in turn, "
             f"{args.repeats} times: median (range) of pimc's time over the look-ahead's; rows TREE: the "
             "code before, in a subprocess right after.", "",
             "| players | worlds | decisions | pimc / lookahead time | pimc decisions / CPU s | lookahead |",
             "|---|---:|---:|---|---:|---:|"]
    for n in (3, 2):
        strength("pimc", "lookahead", rules=KanaljeRules(players=n), samples=2, rng=0, threads=1)  # compile
        for k in args.worlds:
            npos, med, lo, hi, p, lk = rates(n, k, args.repeats)
            lines.append(f"| {n} | {k} | {npos:,} | {med:.1f} ({lo:.1f}-{hi:.1f}) | {p:,.0f} | {lk:,.0f} |")
            print(lines[-1], flush=True)
        if args.before:
            k = min(args.worlds)
            npos, med, lo, hi, p, lk = tree_rates(args.before, n, k, args.repeats)
            lines.append(f"| {n}, TREE | {k} | {npos:,} | {med:.1f} ({lo:.1f}-{hi:.1f}) | {p:,.0f} | {lk:,.0f} |")
            print(lines[-1], flush=True)
    lines += ["", "## `cardodds kanalje advise` on the docs' opening position", "",
              f"`cardodds kanalje advise {shlex.join(ADVISE[2:])} --policies P --threads 2`, "
              f"40 worlds, compiled beforehand; wall seconds, median (range) of "
              f"{args.repeats} runs, and their median CPU seconds (both threads).", "",
              "| policies | wall s | CPU s |", "|---|---|---:|"]
    runs = [("pimc", ROOT, "pimc"), ("lookahead", ROOT, "lookahead")]
    if args.before:
        runs.append(("pimc", args.before, "pimc, TREE"))
    for pol, tree, name in runs:
        med, lo, hi, cpu = advise_seconds(pol, args.repeats, tree)
        lines.append(f"| {name} | {med:.1f} ({lo:.1f}-{hi:.1f}) | {cpu:.1f} |")
        print(lines[-1], flush=True)
    lines += ["", "## Strength: pimc against the look-ahead, the same worlds for both", "",
              "`strength('pimc', 'lookahead', ...)`: the same deals, pimc in each seat in turn against the "
              "look-ahead elsewhere, versus the look-ahead everywhere: pimc's points a deal more, 95% interval.",
              "", "| players | worlds | deals | pimc scores | lookahead scores | advantage of pimc | excludes 0 | "
              "wall s | same counts as TREE | call |", "|---|---:|---:|---:|---:|---|---|---:|---|---|"]
    for n in (3, 2):
        for i, k in enumerate(args.worlds):
            seed = 500 + 10 * n + i
            deals = args.deals * min(args.worlds) // k
            t0 = time.perf_counter()
            m = strength("pimc", "lookahead", rules=KanaljeRules(players=n), samples=deals, rng=seed,
                         lookahead_samples=k, threads=args.threads)
            wall = time.perf_counter() - t0
            same = "-"
            if args.before and i == 0:  # where the search's values and depths are as before
                same = "yes" if match_counts(args.before, n, deals, seed, k, args.threads) == \
                    m.counts.tolist() else "NO"
            adv = m.points
            call = (f"strength('pimc', 'lookahead', rules=KanaljeRules(players={n}), samples={deals}, "
                    f"rng={seed}, lookahead_samples={k}, threads={args.threads})")
            lines.append(f"| {n} | {k} | {deals:,} | {m.mean_a:.3f} | {m.mean_b:.3f} | {adv.format(3)} | "
                         f"{'yes' if adv.lo > 0 else 'no'} | {wall:.0f} | {same} | `{call}` |")
            print(lines[-1], flush=True)
    lines += ["", "## The new pimc against the old (three players)", "",
              "`pimc_before` (this script): the pimc of 4a179ac, the exact search over the last four "
              "tricks after every decision (the search gives the same values, so it plays the same cards: its "
              "match against the look-ahead had 4a179ac's counts). The library's pimc (A) in each seat in turn "
              "against B elsewhere, versus B everywhere: A's points a deal more, 95% interval; the row "
              "`before-lookahead` is `pimc_before` against the look-ahead. The old pimc's time over the new one's, "
              f"measured as above at {args.worlds[0]} worlds: {before_ratio(args.worlds[0], args.repeats)}.", "",
              "| B | worlds | deals | A scores | B scores | A minus B | excludes 0 | wall s | call |",
              "|---|---:|---:|---:|---:|---|---|---:|---|"]
    # the new against the old at the fewest worlds on 8 times the deals, at more worlds on as many:
    # a difference of a few hundredths of a point a deal needs them
    plan = [(("pimc", "before"), k, 900 if i == 0 else 700 + i, args.deals * (8 if i == 0 else 1))
            for i, k in enumerate(args.worlds)]
    if args.long:  # fresh deals: a gain below a hundredth of a point a deal needs tens of thousands
        plan += [(("pimc", "before"), k, 902 if i == 0 else 702 + i, args.deals * (40 if i == 0 else 8))
                 for i, k in enumerate(args.worlds)]
    plan.append((("before", "lookahead"), min(args.worlds), 530, args.deals))
    for pair, k, seed, deals in plan:
        b = pair[1] if pair[0] == "pimc" else "-".join(pair)
        t0 = time.perf_counter()
        m = variant_match(*pair, deals, seed, k, args.threads)
        wall = time.perf_counter() - t0
        adv = m.points
        lines.append(f"| {b} | {k} | {deals:,} | {m.mean_a:.3f} | {m.mean_b:.3f} | {adv.format(3)} | "
                     f"{'yes' if adv.lo > 0 or adv.hi < 0 else 'no'} | {wall:.0f} | "
                     f"`variant_match({pair[0]!r}, {pair[1]!r}, {deals}, {seed}, {k}, {args.threads})` |")
        print(lines[-1], flush=True)
    k = min(args.worlds)
    lines += ["", "## Other depths of the exact search, against the library's pimc", "",
              "A (this script's `VARIANTS`) in each seat in turn against the library's pimc elsewhere, versus pimc "
              f"everywhere, {k} worlds: A's points a deal more, 95% interval. `three`: the last three tricks "
              "solved after every decision; `eight-four`: three tricks far from the end, four at a decision "
              "eight tricks from the end or nearer, never the whole rest from five; `phase1-four`: two "
              "players, four tricks solved after a phase-1 decision instead of five.", "",
              "| players | A | deals | A scores | pimc scores | A minus pimc | excludes 0 | wall s | call |",
              "|---|---|---:|---:|---:|---|---|---:|---|"]
    for a, n, seed in (("three", 3, 710), ("eight-four", 3, 711), ("phase1-four", 2, 712)):
        deals = 4 * args.deals if n == 3 else args.deals
        t0 = time.perf_counter()
        m = variant_match(a, "pimc", deals, seed, k, args.threads, n)
        adv = m.points
        lines.append(f"| {n} | {a} | {deals:,} | {m.mean_a:.3f} | {m.mean_b:.3f} | {adv.format(3)} | "
                     f"{'yes' if adv.lo > 0 or adv.hi < 0 else 'no'} | {time.perf_counter() - t0:.0f} | "
                     f"`variant_match({a!r}, 'pimc', {deals}, {seed}, {k}, {args.threads}, {n})` |")
        print(lines[-1], flush=True)
    lines += NOTE.splitlines()
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
