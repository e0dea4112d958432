"""Polish Canasta's strategy tables: each table's build time, and its agreement with the advisor.

Run: ``python benchmarks/canasta_tables.py [--time] [--agreement] [--positions 200]``; writes
``benchmarks/RESULTS_canasta_tables_<part>.json`` (the figures ``RESULTS_canasta_tables.md`` quotes).

``--time``: each table built alone at the shipped precision (``strategy_table(name,
build=True)``), on one thread and on two, compiled first (a tiny build), wall seconds, and
whether its counts are the shipped table's (they must be: its own seed stream); then
``lookahead``'s cost: the seconds a hand of each table with ``policies="lookahead"`` (16 hands,
compiled).

``--agreement``: for each table, ``--positions`` positions drawn at random from its classes
(hands played by heuristic2, seed 2, not the shipped seed), each given to ``canasta.advise``
with its defaults as the deciding seat knows it (its hand, the melds, the red 3s, the pile,
the other hands' sizes and the cards known there, the discards each seat made, the turn, and
for ``out-game`` the game score). The advisor's best option is mapped to the table's action
(a take to "take", a way of going out to "go out", a discard to the kind of card it is); the
advisor is decisive about the action when its verdict shows every option of another action
losing (simultaneous intervals). Agreement: the share of positions where both the advisor and the shipped
table's cell are decisive and name the same action (Wilson 95% interval); each disagreement
is listed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import time
from pathlib import Path

import numpy as np

from cardodds.canasta import _strategy as K
from cardodds.canasta import _table as T
from cardodds.canasta import Position, advise, strategy as S
from cardodds.canasta._position import _meld_words
from cardodds.canasta.cards import KIND_NAMES, N_KINDS
from cardodds.canasta.rules import CanastaRules
from cardodds.stats import Estimate

HERE = Path(__file__).parent
DECISION = {"take": "take", "out": "out", "out-game": "out", "discard": "discard"}


def _words(kinds) -> str:
    return " ".join(KIND_NAMES[k] for k in kinds)


def _cards(t, seat, field) -> list[int]:
    at = getattr(T.SA, field) + seat * N_KINDS
    return [k for k in range(N_KINDS) for _ in range(int(t[at + k]))]


def advice_words(t: np.ndarray, name: str) -> dict:
    """The keyword arguments of the :class:`~cardodds.canasta.Position` of the seat to act at table ``t``."""
    me = int(t[T.SA.seat])
    seats = [(me + s) % T.SEATS for s in range(T.SEATS)]  # clockwise: 1 my left opponent
    melds = []
    for who, side in (("us", me % 2), ("them", 1 - me % 2)):
        parts = []
        for sl in range(T.SLOTS):
            o = T.meld_at(side, sl)
            n, tw, jk = (int(x) for x in t[o + 1:o + 4])
            if n + tw + jk:
                parts.append(_meld_words(int(t[o]), n, tw, jk))
        if parts:
            melds.append(f"{who}: " + ", ".join(parts))
    hands = [_cards(t, s, "hand") for s in seats]
    known = {}
    for i in (1, 2, 3):
        took = _cards(t, seats[i], "took")
        have = list(hands[i])
        held = []
        for k in took:
            if k in have:
                have.remove(k)
                held.append(k)
        if held:
            known[i] = _words(held)
    threw = [_cards(t, s, "threw") for s in seats]
    thrown = {i: _words(cards) for i, cards in enumerate(threw) if cards}
    words = dict(hand=_words(hands[0]), melds="; ".join(melds) or None,
                 pile=_words(int(k) for k in t[T.SA.pile:T.SA.pile + t[T.SA.pile_len]]) or None,
                 counts=tuple(len(h) for h in hands[1:]), known=known or None, thrown=thrown or None,
                 red3=(int(t[T.SA.red3 + me % 2]), int(t[T.SA.red3 + 1 - me % 2])), turn=int(t[T.SA.turn]),
                 decision=DECISION[name])
    if name == "out-game":
        words["score"] = (int(t[T.SA.game + me % 2]), int(t[T.SA.game + 1 - me % 2]))
    return words


def option_action(name: str, t: np.ndarray, label: str) -> str:
    """The table's action of the advisor's option ``label``."""
    spec = S.select(S.TABLES, name)[0]
    if name == "take":
        return "leave" if label.startswith("leave") else "take"
    if name in ("out", "out-game"):
        return "stay" if label.startswith("stay") else "go out"
    kind = KIND_NAMES.index(label.removeprefix("discard "))
    a = K.discard_class(t, CanastaRules().pack(), int(t[T.SA.seat]), kind)
    return spec.actions[a] if a >= 0 else "red 3"


def advisor_verdict(name: str, t: np.ndarray, r) -> tuple[str, bool]:
    """The advisor's best action and whether it is decisive about it."""
    acts = [option_action(name, t, o) for o in r.options]
    best = acts[r.best_index]
    return best, all(i in r.decision.excluded for i, a in enumerate(acts) if a != best)


def agreement(positions: int, hands: int) -> dict:
    shipped = S.strategy_table()
    out = {}
    for name in [s.name for s in S.TABLES]:
        spec = S.select(S.TABLES, name)[0]
        _counts, keep = S._kept(name, hands, 2)
        rows = keep[keep[:, K.KEPT.at.cell] >= 0]
        pick = np.random.default_rng(2).permutation(len(rows))[:positions]
        table = shipped[name]
        both = agree = refused = 0
        seen = []
        t0 = time.perf_counter()
        for j in pick:
            t = rows[j, K.KEPT.slice("table")]
            cell = table.cells[int(rows[j, K.KEPT.at.cell])]
            try:
                r = advise(Position(**advice_words(t, name)), rng=int(j))
            except ValueError as exc:
                refused += 1
                seen.append({"refused": str(exc)})
                continue
            best, decisive = advisor_verdict(name, t, r)
            row = {"cell": list(cell.key), "table": cell.best, "table_decisive": cell.decisive, "advisor": best,
                   "advisor_decisive": decisive, "advisor_best_option": r.options[r.best_index],
                   "position": r.position.to_dict()}
            if decisive and cell.decisive:
                both += 1
                agree += best == cell.best
                if best != cell.best:
                    row["margin"] = cell.margin.format(1)
                    row["advisor_options"] = {o: f"{m.value:+.0f}" for o, m in zip(r.options, r.margin)}
                    seen.append(row)
        rate = Estimate.proportion(agree, both) if both else None
        out[name] = {"positions": len(pick), "both_decisive": both, "agree": agree, "refused": refused,
                     "rate": rate.to_dict() if rate else None, "seconds": time.perf_counter() - t0,
                     "disagreements": seen, "unit": spec.unit}
        print(name, both, agree, rate.format(percent=True) if rate else "-", refused, flush=True)
    return out


def timing(threads_list=(1, 2)) -> dict:
    out: dict = {"shipped_samples": S.SHIPPED_SAMPLES}
    shipped = S.strategy_table()
    S.strategy_table(build=True, samples=64)  # compiled
    for name in [s.name for s in S.TABLES]:
        for threads in threads_list:
            t0 = time.perf_counter()
            r = S.strategy_table(name, build=True, threads=threads)
            out[f"{name}, {threads} thread{'s' * (threads > 1)}"] = time.perf_counter() - t0
            # the table built alone has the shipped counts
            out[f"{name}, {threads} thread{'s' * (threads > 1)}, the shipped counts"] = \
                r[name].counts.tolist() == shipped[name].counts.tolist()
            print(name, threads, out[f"{name}, {threads} thread{'s' * (threads > 1)}"], flush=True)
    S.strategy_table(build=True, samples=2, policies="lookahead")  # compiled
    for name in [s.name for s in S.TABLES]:
        for policies in ("heuristic2", "lookahead"):
            n = 16 if policies == "lookahead" else 16_000
            t0 = time.perf_counter()
            S.strategy_table(name, build=True, samples=n, threads=1, policies=policies)
            out[f"{name}, {policies}, seconds a hand"] = (time.perf_counter() - t0) / n
            print(name, policies, out[f"{name}, {policies}, seconds a hand"], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--time", action="store_true")
    ap.add_argument("--agreement", action="store_true")
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--hands", type=int, default=4000, help="hands played to draw the positions from")
    args = ap.parse_args()
    machine = {"machine": platform.processor() or platform.machine(), "cores": os.cpu_count(),
               "load": os.getloadavg()}
    if args.time:
        res = {"timing": timing(), **machine}
        (HERE / "RESULTS_canasta_tables_time.json").write_text(json.dumps(res, indent=1) + "\n")
    if args.agreement:
        res = {"agreement": agreement(args.positions, args.hands), **machine}
        (HERE / "RESULTS_canasta_tables_agreement.json").write_text(json.dumps(res, indent=1, default=str) + "\n")


if __name__ == "__main__":
    main()
