"""How good is the advice: each advisor's regret against a slow reference, on positions drawn
from played games.

    python benchmarks/advice_regret.py --game kanalje|canasta [--positions 200] [--seed 1]
        [--reference lookahead] [--reference-worlds 400] [--players heuristic,lookahead,lookahead@40]
        [--jsonl FILE] [--out FILE]

Positions: deal ``i`` of the run is played by the game's default lineup (``heuristic`` at every
seat) from a seed drawn from ``--seed``; one decision of it is drawn at random (the same
generator), among the decisions with two options or more: Kanalje any card play, Canasta the
discard (the hand after the draw and the melds). The advisor is given the position as that seat
knew it: Kanalje its hand, the turned card and every trick so far; Canasta its hand, both sides'
melds and red 3s, the whole pile (every card of it was discarded face up), the others' card
counts, the cards each took with the pile and still holds (``known``), the cards each threw
(``thrown``, for the players that remember them) and the turn.

For each position the reference (``--reference`` with ``--reference-worlds``, seed
``--reference-seed`` + i, default 10**6)
values every option; each advisor of ``--players`` (its default worlds, seed i: other worlds
than the reference's) names an option (its ``best``, or its highest mean when it names none).
Regret = reference value of the reference's best option - reference value of the named option
(Kanalje: my points for the deal; Canasta: our margin for the hand). The table gives its mean
with a 95% interval, the share of positions where the advisor named the reference's best, the
median wall time of one advice (compiled), and the paired difference of regret between the last
player and the first (the new default and the old one). ``--jsonl`` keeps one line a position
and resumes from it. Results: ``RESULTS_advice_regret.md``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from pathlib import Path

import numpy as np

from cardodds.stats import Z95

REF_SEED = 10**6
DEFAULTS = {"kanalje": ("lookahead", 400, "heuristic,lookahead"),
            "canasta": ("heuristic2", 20_000, "heuristic,heuristic2")}


# ---- Kanalje ----------------------------------------------------------------------------------
def kanalje_position(deal_seed: int, g: np.random.Generator):
    """One card play of a three-player deal played by heuristic players (None if none has two
    legal cards)."""
    from cardodds.cards import card_str, parse_cards
    from cardodds.kanalje import KanaljeRules, trace
    from cardodds.kanalje._position import check_position

    rules = KanaljeRules()
    t = trace("heuristic", rng=deal_seed)
    hands = {m.seat: set(parse_cards(list(m.cards))) for m in t.moves if m.action == "deal"}
    turned = t.info["turned"]
    plays = [m for m in t.moves if m.action == "play"]
    candidates = []
    for k, m in enumerate(plays):
        done = plays[:k]
        mine = hands[m.seat] - set(parse_cards([c for p in done if p.seat == m.seat for c in p.cards]))
        tricks = [done[j:j + 3] for j in range(0, len(done), 3)]
        played = "; ".join(f"{tr[0].seat}: " + " ".join(p.cards[0] for p in tr) for tr in tricks)
        pos = dict(seat=m.seat, hand=" ".join(card_str(c) for c in sorted(mine)), turned=turned,
                   played=played or None)
        if len(check_position(pos["seat"], pos["hand"], turned, pos["played"], rules).options) >= 2:
            candidates.append(pos)
    return candidates[int(g.integers(len(candidates)))] if candidates else None


def kanalje_values(pos: dict, policies: str, samples: int | None, rng: int) -> dict:
    from cardodds.kanalje import Position, advise

    r = advise(Position(**pos), policies=policies, samples=samples, rng=rng, threads=2, progress=False)
    return {"options": list(r.options), "values": [e.value for e in r.value], "se": [e.se for e in r.value],
            "named": r.best if r.best is not None else r.options[r.best_index], "kind": _kind(r)}


# ---- Canasta ----------------------------------------------------------------------------------
def canasta_position(deal_seed: int, g: np.random.Generator):
    """One discard of a hand played by heuristic players, as the discarding seat knew it (None
    if no discard offered two cards)."""
    from cardodds.canasta import _lookahead, _policies, _table as T
    from cardodds.canasta._position import _meld_words, position
    from cardodds.canasta.cards import KIND_NAMES, N_KINDS, deck_kinds, format_counts
    from cardodds.canasta.policies import resolve_policies
    from cardodds.canasta.rules import CanastaRules
    from cardodds.canasta.view import compile_policy
    from cardodds.rng import as_seed_sequence, chunk_state

    rules = CanastaRules()
    rl = rules.pack()
    codes, _names, _user, hp = resolve_policies("heuristic", None)
    ss, _ = as_seed_sequence(deal_seed)
    state = chunk_state(ss, 0)  # the same hand as canasta.trace("heuristic", rng=deal_seed)
    t = np.zeros(T.S.size, dtype=np.int64)
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    work = np.zeros(15, dtype=np.int64)
    T.new_hand(state, t, rl, deck_kinds(rules.jokers), T.hand_dealer(rl))
    policy, smart = compile_policy(None), _policies.smart_arg(codes)

    def kinds(offset: int) -> str:
        return format_counts(t[offset:offset + N_KINDS])

    candidates = []
    while t[T.SA.phase] != T.PH_OVER:
        nm = T.gen_moves(t, rl, mv, work)
        i = _lookahead.lookahead_choose(state, t, rl, mv, nm, codes, hp, policy, smart)
        discards = {int(mv[j, 1]) for j in range(nm) if mv[j, 0] == T.MV_DISCARD}
        if mv[i, 0] == T.MV_DISCARD and len(discards) >= 2:
            s = int(t[T.SA.seat])
            seat = [(s + j) % 4 for j in range(4)]  # clockwise (the default): 1 left, 2 partner, 3 right
            side = s % 2
            melds = {}
            for sd in (side, 1 - side):
                ms = []
                for sl in range(T.SLOTS):
                    o = T.meld_at(sd, sl)
                    if t[o + 1] + t[o + 2] + t[o + 3]:
                        ms.append(_meld_words(*(int(x) for x in t[o:o + 4])))
                if ms:
                    melds["us" if sd == side else "them"] = ", ".join(ms)
            pile = " ".join(KIND_NAMES[int(k)] for k in t[T.SA.pile:T.SA.pile + t[T.SA.pile_len]])
            known = {j: kinds(T.SA.took + seat[j] * N_KINDS) for j in (1, 2, 3)}
            thrown = {j: kinds(T.SA.threw + seat[j] * N_KINDS) for j in range(4)}
            pos = dict(hand=kinds(T.hand_at(s, 0)), melds="; ".join(f"{k}: {v}" for k, v in melds.items()) or None,
                       pile=pile or None, counts=[int(T.hand_size(t, seat[j])) for j in (1, 2, 3)],
                       red3=[int(t[T.SA.red3 + side]), int(t[T.SA.red3 + 1 - side])],
                       known={j: v for j, v in known.items() if v} or None,
                       thrown={j: v for j, v in thrown.items() if v} or None,
                       turn=int(t[T.SA.turn]), decision="discard")
            try:
                position(**pos, rules=rules)
                candidates.append(pos)
            except ValueError as e:  # a position the advisor refuses: say so, keep going
                print(f"  refused (deal seed {deal_seed}): {e}", flush=True)
        T.apply_move(t, rl, mv[i])
    return candidates[int(g.integers(len(candidates)))] if candidates else None


def canasta_values(pos: dict, policies: str, samples: int | None, rng: int) -> dict:
    from cardodds.canasta import Position, advise

    given = dict(pos) if policies != "heuristic" else {**pos, "thrown": None}  # heuristic remembers no discard
    r = advise(Position(**given), policies=policies, samples=samples, rng=rng, threads=2, progress=False)
    margin = r.figures["margin"]
    return {"options": list(r.options), "values": [e.value for e in margin], "se": [e.se for e in margin],
            "named": r.best if r.best is not None else r.options[r.best_index], "kind": _kind(r)}


def _kind(r) -> str | None:
    """The advice's verdict: best, equal or undecided (None: no verdict, weighted worlds)."""
    return None if r.decision is None else r.decision.kind


GAMES = {"kanalje": (kanalje_position, kanalje_values, "my points for the deal", "worlds"),
         "canasta": (canasta_position, canasta_values, "our margin for the hand, points", "deals")}


# ---- the run ------------------------------------------------------------------------------------
def draw_positions(game: str, n: int, seed: int):
    """The first ``n`` positions of ``seed``: a prefix of any longer run's."""
    make = GAMES[game][0]
    g = np.random.default_rng(seed)
    out = []
    while len(out) < n:
        deal_seed = int(g.integers(2**31))
        pos = make(deal_seed, g)
        if pos is not None:
            out.append((deal_seed, pos))
    return out


def mean_ci(xs) -> tuple[float, float, float]:
    xs = [float(x) for x in xs]
    m = statistics.fmean(xs)
    se = statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else math.inf
    return m, m - Z95 * se, m + Z95 * se


def run(args) -> list[dict]:
    values = GAMES[args.game][1]
    players = args.players.split(",")
    done = {}
    if args.jsonl and Path(args.jsonl).exists():
        for line in Path(args.jsonl).read_text().splitlines():
            rec = json.loads(line)
            done[rec["i"]] = rec
    positions = draw_positions(args.game, args.positions, args.seed)
    print(f"{len(positions)} positions drawn; {len(done)} already in {args.jsonl}", flush=True)
    if len(done) < len(positions):  # compile every player once, outside the timings
        for p in players:
            values(positions[0][1], p.partition("@")[0], 4, 0)
        values(positions[0][1], args.reference, 4, 0)
    records = []
    for i, (deal_seed, pos) in enumerate(positions):
        if i in done:
            records.append(done[i])
            continue
        t0 = time.perf_counter()
        ref = values(pos, args.reference, args.reference_worlds, args.reference_seed + i)
        ref_time = time.perf_counter() - t0
        rec = {"i": i, "deal_seed": deal_seed, "position": pos, "reference": ref,
               "reference_time": ref_time, "players": {}}
        best = max(ref["values"])
        for p in players:
            t0 = time.perf_counter()
            name, _, worlds = p.partition("@")  # "lookahead@40": on 40 worlds, not the advisor's default
            a = values(pos, name, int(worlds) if worlds else None, i)
            dt = time.perf_counter() - t0
            regret = best - ref["values"][ref["options"].index(a["named"])]
            rec["players"][p] = {"named": a["named"], "regret": regret, "time": dt, "kind": a.get("kind"),
                                 "hit": a["named"] == ref["options"][int(np.argmax(ref["values"]))]}
        records.append(rec)
        print(f"{i}: {len(ref['options'])} options, reference {ref_time:.1f} s; "
              + "; ".join(f"{p} {r['named']} regret {r['regret']:.3f} ({r['time']:.2f} s)"
                          for p, r in rec["players"].items()), flush=True)
        if args.jsonl:
            with open(args.jsonl, "a") as f:
                f.write(json.dumps(rec) + "\n")
    return records


def table(args, records: list[dict]) -> str:
    players = args.players.split(",")
    n = len(records)
    unit = GAMES[args.game][2]
    lines = [f"### {args.game}: {n} positions, seed {args.seed}; reference {args.reference}, "
             f"{args.reference_worlds:,} {GAMES[args.game][3]}, seeds {args.reference_seed:,} + i", "",
             f"Regret in {unit}: reference value of its best option - reference value of the option named.", "",
             "| advisor (default worlds) | mean regret [95%] | named the reference's best | a verdict (best or "
             "equal) | median time a position, s |", "|---|---:|---:|---:|---:|"]
    for p in players:
        m, lo, hi = mean_ci([r["players"][p]["regret"] for r in records])
        hits = sum(r["players"][p]["hit"] for r in records)
        t = statistics.median(r["players"][p]["time"] for r in records)
        kinds = [r["players"][p].get("kind") for r in records]
        verdicts = (f"{sum(k in ('best', 'equal') for k in kinds)}/{n}" if all(k is not None for k in kinds)
                    else "not recorded")
        lines.append(f"| {p} | {m:.3f} [{lo:.3f}, {hi:.3f}] | {hits}/{n} ({100 * hits / n:.0f}%) | {verdicts} | "
                     f"{t:.2f} |")
    if len(players) >= 2:
        old, new = players[0], players[-1]
        m, lo, hi = mean_ci([r["players"][new]["regret"] - r["players"][old]["regret"] for r in records])
        words = "no difference at this precision" if lo <= 0 <= hi else (
            f"{new} lower" if hi < 0 else f"{new} higher")
        differ = sum(r["players"][new]["named"] != r["players"][old]["named"] for r in records)
        lines += ["", f"Paired difference of regret, {new} - {old}, over the same {n} positions: "
                  f"{m:+.3f} [{lo:+.3f}, {hi:+.3f}] ({words}); the two named different options in {differ} "
                  "of them."]
    ses = [max(r["reference"]["se"]) for r in records]
    opts = [len(r["reference"]["options"]) for r in records]
    rt = statistics.median(r["reference_time"] for r in records)
    lines += ["", f"The reference's own noise: its per-option standard error, the largest of a position's options, "
              f"median {statistics.median(ses):.3f} (max {max(ses):.3f}); options a position median "
              f"{statistics.median(opts):.0f} (2 to {max(opts)}); reference time a position median {rt:.1f} s. "
              "A reference is not the truth: it is one player's play-out with its own errors and noise."]
    return "\n".join(lines)


def cross(args, records: list[dict], other: list[dict]) -> str:
    """The regret with the best picked by this run's reference and valued by an independent one
    (``--second``): free of the upward bias a reference gets from picking its own noisy best."""
    players = args.players.split(",")
    pairs = [(r, o) for r, o in zip(records, other) if r["i"] == o["i"]]
    agree = sum(r["reference"]["options"][int(np.argmax(r["reference"]["values"]))]
                == o["reference"]["options"][int(np.argmax(o["reference"]["values"]))] for r, o in pairs)
    lines = ["", f"Against a second reference (`{args.second}`, other seeds): the two references' best options "
             f"agree in {agree} of {len(pairs)} positions. Regret with the best picked by the first reference "
             "and every option valued by the second:", ""]
    for p in players:
        def loss(r, o):
            v, opts = o["reference"]["values"], o["reference"]["options"]
            pick = r["reference"]["options"][int(np.argmax(r["reference"]["values"]))]
            return v[opts.index(pick)] - v[opts.index(r["players"][p]["named"])]
        m, lo, hi = mean_ci([loss(r, o) for r, o in pairs])
        lines.append(f"- {p}: {m:.3f} [{lo:.3f}, {hi:.3f}]")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=sorted(GAMES), required=True)
    ap.add_argument("--positions", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reference", default=None, help="the reference's players (default: see DEFAULTS)")
    ap.add_argument("--reference-worlds", type=int, default=None)
    ap.add_argument("--reference-seed", type=int, default=REF_SEED, help="position i's reference runs on this + i")
    ap.add_argument("--players", default=None, help="the advisors to rate, old default first, new default last; "
                    "NAME@N plays NAME on N worlds instead of the advisor's default (e.g. lookahead@40)")
    ap.add_argument("--jsonl", default=None, help="keep each position's figures here, and resume from them")
    ap.add_argument("--out", default=None, help="write the markdown table here too")
    ap.add_argument("--second", default=None, help="the --jsonl of a run with another --reference-seed: "
                    "value this run's reference picks by it")
    args = ap.parse_args()
    ref, worlds, players = DEFAULTS[args.game]
    args.reference = args.reference or ref
    args.reference_worlds = args.reference_worlds or worlds
    args.players = args.players or players
    records = run(args)
    text = table(args, records)
    if args.second:
        other = [json.loads(line) for line in Path(args.second).read_text().splitlines()]
        text += "\n" + cross(args, records, sorted(other, key=lambda r: r["i"]))
    print(text)
    if args.out:
        Path(args.out).write_text(text + "\n")


if __name__ == "__main__":
    main()
