"""Kanalje's strategy tables: each table's build time at the shipped precision on one and two
threads, and the agreement of the shipped tables with the advisor.

Agreement: positions drawn from each table's classes as the build draws them (deals played by
the tables' lineup, one position a deal, a seed of their own), each put to ``kanalje.advise``
with its defaults (``lookahead`` at every seat, 40 worlds) as the deciding seat knows it (its
hand, the turned card, the tricks so far; two players also the face-up cards, or in phase 2 the
trump card and the phase-1 cards). The advisor's best card is mapped to the table's action by
the action's class (``ACTION OF``, below); the table's cell and the advisor agree where both are
decisive (the cell's margin and every one of the advisor's paired differences exclude zero).
The cell's verdict is taken among the actions the position allows (``StrategyTable.cell(...,
among=)``): a cell whose best is ``shed`` says nothing of a position without a jack to shed.
Beside it, the *leaning* agreement: where the cell is decisive, the advisor's highest-mean card
(decisive or not) mapped to its action against the cell's best.

    python benchmarks/kanalje_tables.py --times --threads 1 2      # the build times (~15 minutes)
    python benchmarks/kanalje_tables.py --agreement 200 --threads 2 --cache advice.json  # ~20 minutes
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from cardodds.cards import card_str, format_cards
from cardodds.kanalje import KanaljeRules, Position, advise
from cardodds.kanalje import _strategy as KS
from cardodds.kanalje._bits import JACKS
from cardodds.kanalje._defaults import DEFAULT_LOOKAHEAD_SAMPLES, TABLE_POLICIES
from cardodds.kanalje._policies import calls
from cardodds.kanalje.policies import resolve_policies
from cardodds.kanalje.strategy import _BUILD, TABLES, strategy_table
from cardodds.kanalje.view import compile_policy
from cardodds.rng import chunk_state
from cardodds.stats import Estimate

#: The positions' seed (not the tables' own).
SEED = 5151


def times(threads_list) -> list[dict]:
    rows = []
    shipped = strategy_table()
    strategy_table(build=True, samples=8, threads=1)  # compiled first: the times are the runs'
    for threads in threads_list:
        for spec in TABLES:
            t0, c0 = time.perf_counter(), time.process_time()
            r = strategy_table(spec.name, build=True, threads=threads)
            wall, cpu = time.perf_counter() - t0, time.process_time() - c0
            same = r[spec.name].counts.tolist() == shipped[spec.name].counts.tolist()
            rows.append({"table": spec.name, "threads": threads, "seconds": round(wall, 1), "cpu": round(cpu, 1),
                         "same_as_shipped": same})
            print(json.dumps(rows[-1]), flush=True)
    return rows


def positions(name: str, n: int, seed: int) -> np.ndarray:
    """Records of ``n`` positions of table ``name`` (deals played by the tables' lineup)."""
    spec = next(s for s in TABLES if s.name == name)
    kind, players = _BUILD[name]
    rules = KanaljeRules(players=players)
    codes, _, _ = resolve_policies(TABLE_POLICIES, players)
    codes = np.array(codes, np.int64)
    phase1 = True if players == 2 else None
    rows = []
    chunk = 0
    while len(rows) < n:
        rec = np.zeros((16, KS.RECORD.size), np.int64)
        out = np.zeros(spec.size, np.int64)
        KS.strategy_kernel(chunk_state(np.random.SeedSequence(seed), chunk), 16, out, rules.pack(),
                           getattr(KS, kind), len(spec.actions), codes, DEFAULT_LOOKAHEAD_SAMPLES,
                           calls(compile_policy(None), codes, phase1), phase1, rec)
        rows += [r for r in rec if r[KS.P.cell] >= 0]
        chunk += 1
    return np.array(rows[:n])


def _tricks(plays, n) -> str:
    groups = [plays[i:i + n] for i in range(0, len(plays), n)]
    return "; ".join(f"{g[0] // 64}: " + " ".join(card_str(p % 64) for p in g) for g in groups) or None


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if (int(mask) >> c) & 1]


def ask(name: str, row, threads, seed):
    """The advisor on a recorded position."""
    players = _BUILD[name][1]
    rules = KanaljeRules(players=players)
    seat, plays = int(row[KS.P.seat]), [int(p) for p in row[KS.P.log:KS.P.log + row[KS.P.plays]]]
    hand = format_cards(_cards(row[KS.P.hand]))
    card = int(row[KS.P.card])
    kw = dict(seat=seat, hand=hand, rules=rules)
    if players == 3:
        pos = Position(turned=card_str(card), played=_tricks(plays, 3), **kw)
    elif name == "faceup":
        done = len(plays) // 2
        faceups = format_cards([int(row[KS.P.faceups + k]) for k in range(done + 1)])
        pos = Position(faceup=faceups, played=_tricks(plays, 2), **kw)
    else:
        phase1 = [p % 64 for p in plays[:26]]
        dead = format_cards([c for c in phase1 if c != card])
        pos = Position(trump=card_str(card), dead=dead, played=_tricks(plays[26:], 2), **kw)
    return advise(pos, rng=seed, threads=threads)


def action_of(name: str, row, best: int) -> int | None:
    """The table's action whose class the advisor's card ``best`` falls in (None: outside them).

    Lead: a side jack is ``jack``, a non-jack trump ``trump``, a card of the suit ``long low``
    leads from is ``long high`` if it is that suit's highest non-jack card, else ``long low``; a card
    of the suit ``short`` leads from is ``short``; the other side suit's cards are outside.
    Jack: a card that takes the trick as it stands is ``win`` (a jack that does: outside); a jack
    that does not, ``shed``; any other, ``duck``. Face-up card: second, a card that beats the lead
    is ``fight``, else ``give``; leading, the ``fight`` card or my highest non-jack card is
    ``fight``, else ``give``."""
    cards = {a: int(row[KS.P.cards + a]) for a in range(KS.MAX_ACTIONS) if row[KS.P.possible + a]}
    for a, c in cards.items():
        if c == best:
            return a
    jack = (best >> 2) == 9
    plays = int(row[KS.P.plays])
    trump = int(row[KS.P.card]) & 3
    if name in ("lead", "lead2"):
        if jack:
            return 4 if (best & 3) != trump else None
        if (best & 3) == trump:
            return 3
        if 0 in cards and (best & 3) == (cards[0] & 3):
            return 0
        if 2 in cards and (best & 3) == (cards[2] & 3):
            return 2
        return None
    if name in ("jack", "jack2"):
        players = _BUILD[name][1]
        tlen = (plays - (26 if players == 2 else 0)) % players
        trick = [int(row[KS.P.log + k]) % 64 for k in range(plays - tlen, plays)]
        top = trick[0]
        for c in trick[1:]:
            top = c if _beats(c, top, trump) else top
        if _beats(best, top, trump):
            return None if jack else 1
        return 2 if jack else 0
    hand = int(row[KS.P.hand])
    if plays % 2 == 1:  # second: beats the lead or not
        lead = int(row[KS.P.log + plays - 1]) % 64
        return 0 if (best & 3) == (lead & 3) and best > lead else 1
    nonjack = hand & ~JACKS
    return 0 if nonjack and best == max(_cards(nonjack)) else 1


def _beats(c: int, w: int, trump: int) -> bool:
    """Does card ``c`` take a trick that ``w`` is winning (docs/rules/kanalje.md §2.5)?"""
    return c > w if (c & 3) == (w & 3) else (c & 3) == trump


def agreement(n: int, threads, tables, cache_path=None) -> dict:
    """The agreement on ``n`` positions a table; the advisor's answers are kept in ``cache_path``
    (JSON, read back when it exists), so that the comparison can be made again without them."""
    shipped = strategy_table()
    cache = json.loads(open(cache_path).read()) if cache_path and os.path.exists(cache_path) else {}
    report = {}
    for spec in TABLES:
        if tables and spec.name not in tables:
            continue
        t0 = time.perf_counter()
        rows = positions(spec.name, n, SEED + TABLES.index(spec))
        table = shipped[spec.name]
        both = agree = adv_decisive = tab_decisive = outside = lean_n = lean_agree = 0
        disagreements = []
        answers = cache.setdefault(spec.name, {})
        for i, row in enumerate(rows):
            if str(i) not in answers:
                res = ask(spec.name, row, threads, SEED * 1000 + i)
                rivals = [v.value for j, v in enumerate(res.versus_best) if j != res.best_index and v.se > 0]
                answers[str(i)] = {"best": None if res.best is None else res.cards[res.options.index(res.best)],
                                   "top": res.cards[res.best_index], "edge": min(rivals) if rivals else None}
                if cache_path:
                    with open(cache_path, "w") as f:
                        json.dump(cache, f)
            ans = answers[str(i)]
            among = [spec.actions[a] for a in range(len(spec.actions)) if row[KS.P.possible + a]]
            cell = table.cell(*table.spec.keys()[int(row[KS.P.cell])], among=among)
            tab_decisive += cell.decisive
            top = action_of(spec.name, row, ans["top"])
            if cell.decisive and top is not None:  # the advisor's highest mean, decisive or not
                lean_n += 1
                lean_agree += spec.actions[top] == cell.best
            if ans["best"] is None:
                continue
            adv_decisive += 1
            a = action_of(spec.name, row, ans["best"])
            if a is None:
                outside += 1
                continue
            if not cell.decisive:
                continue
            both += 1
            if spec.actions[a] == cell.best:
                agree += 1
            else:
                plays = [int(p) for p in row[KS.P.log:KS.P.log + row[KS.P.plays]]]
                disagreements.append({"position": i, "cell": list(cell.key), "among": among, "table": cell.best,
                                      "margin": cell.margin.format(2), "cell_positions": cell.positions,
                                      "advisor": f"{card_str(ans['best'])} ({spec.actions[a]})",
                                      "advisor_edge": ans["edge"], "seat": int(row[KS.P.seat]),
                                      "hand": format_cards(_cards(row[KS.P.hand])),
                                      "card": card_str(int(row[KS.P.card])),
                                      "last_trick": _tricks(plays[len(plays) - len(plays) % _BUILD[spec.name][1]:]
                                                            if spec.name != "lead" else [], _BUILD[spec.name][1])})
        rate = Estimate.proportion(agree, both) if both else None
        lean = Estimate.proportion(lean_agree, lean_n) if lean_n else None
        report[spec.name] = {"positions": len(rows), "advisor_decisive": adv_decisive, "table_decisive": tab_decisive,
                             "outside_actions": outside, "both_decisive": both, "agree": agree,
                             "rate": rate.format(3) if rate else None, "leaning_positions": lean_n,
                             "leaning_agree": lean_agree, "leaning_rate": lean.format(3) if lean else None,
                             "seconds": round(time.perf_counter() - t0), "disagreements": disagreements}
        print(json.dumps({k: v for k, v in report[spec.name].items() if k != "disagreements"}), flush=True)
        for d in disagreements:
            print("  ", json.dumps(d), flush=True)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--times", action="store_true")
    ap.add_argument("--threads", type=int, nargs="+", default=[2])
    ap.add_argument("--agreement", type=int, default=0, metavar="N", help="positions a table")
    ap.add_argument("--tables", nargs="*", default=None)
    ap.add_argument("--out", default=None, help="write the figures as JSON here")
    ap.add_argument("--cache", default=None, help="keep the advisor's answers here (JSON), and read them back")
    args = ap.parse_args()
    result = {}
    if args.times:
        result["times"] = times(args.threads)
    if args.agreement:
        result["agreement"] = agreement(args.agreement, args.threads[-1], args.tables, args.cache)
    if args.out:
        with open(args.out, "w") as f:
            json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
