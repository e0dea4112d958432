"""Report section: Polish Canasta played by four (``reports/canasta_play.md`` and its charts).

Every figure is a simulation from the fixed seed, so the section is rebuilt byte for byte.
One data function runs everything; each part of the page has its table function and its
chart function.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import __version__
from ..canasta import CanastaRules, game, house_options, melds, play, strength
from ..canasta.play import CANASTA_KINDS, MAX_ROUNDS
from ._common import Stages, est, figure, label, md_table, page_data, pct, signed, write_section

PLAYERS = ("heuristic", "random")
PAIRS = (("heuristic", "random"), ("random", "random"))
NO_DIFFERENCE = " (no difference at this precision)"


def write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool = False) -> Path:
    """Write ``canasta_play.md`` and its charts into ``outdir``; returns the markdown's path."""
    outdir = Path(outdir)
    data = _data(seed, scale, progress, Stages("canasta_play", 5, log))
    charts = (("canasta_play_by_round.png", _by_round_chart), ("canasta_play_canastas_pile.png", _canastas_pile_chart),
              ("canasta_play_scores.png", _scores_chart), ("canasta_play_house_options.png", _house_options_chart))
    lines = (_intro(data, seed) + _by_round_table(data) + _canastas_table(data) + _strength_table(data)
             + _games_table(data) + _house_options_table(data))
    page_data(outdir, "canasta_play", _lookup_data(data))
    return write_section(outdir, "canasta_play", data, charts, lines)


# ---- data -------------------------------------------------------------------------------------
def _data(seed: int, scale: float, progress: bool, stage: Stages) -> dict:
    rules = CanastaRules()
    n = max(300, round(50_000 * scale))
    n_pairs = max(100, round(10_000 * scale))
    n_games = max(30, round(2_000 * scale))
    n_opt = max(200, round(10_000 * scale))
    stage(f"{n:,} hands each by heuristic and random players")
    res = {p: play(p, rules=rules, samples=n, rng=seed, progress=progress) for p in PLAYERS}
    stage("deal-time first meld by turn (exact)")
    deal = melds(12, rules=rules, exact=True, turns=MAX_ROUNDS)
    stage(f"strength: {n_pairs:,} paired deals per pair of players")
    st = {(a, b): strength(a, b, rules=rules, samples=n_pairs, rng=seed + 1, progress=progress) for a, b in PAIRS}
    stage(f"{n_games:,} whole games")
    g = game("heuristic", rules=rules, samples=n_games, rng=seed + 2, progress=progress)
    stage(f"house options, {n_opt:,} paired hands each")
    ho = house_options("heuristic", rules=rules, samples=n_opt, rng=seed + 3, progress=progress)
    return {"rules": rules, "n": n, "play": res, "deal": deal, "strength": st, "game": g, "house": ho}


# ---- charts -----------------------------------------------------------------------------------
def _errors(es) -> list[list[float]]:
    return [[e.value - e.lo for e in es], [e.hi - e.value for e in es]]


def _by_round_chart(data: dict):
    """Opened and first canasta by round, under play, next to the deal-time figure."""
    res, deal = data["play"], data["deal"]
    fig, axes = figure((10, 3.6), ncols=2, sharey=True)
    rs = np.arange(1, MAX_ROUNDS + 1)
    for ax, attr, title in ((axes[0], "opened_by_round", "side has opened"),
                            (axes[1], "canasta_by_round", "side has a canasta")):
        for p, r in res.items():
            for s in range(2):
                e = getattr(r, attr)[s]
                ax.errorbar(rs, [x.value for x in e], yerr=_errors(e), fmt="o-" if s == 0 else "s--", ms=3,
                            capsize=2, lw=1, label=f"{p}, side {s}")
        if attr == "opened_by_round":
            ax.plot(rs, [deal.first_meld_by_turn[r].value for r in rs], "k:", lw=1,
                    label="deal-time: one player could open\n(cards kept, no pile; exact)")
        ax.set_ylim(0, 1.02)
        label(ax, "round (each player's turns)", "probability" if ax is axes[0] else "", title, legend=None,
              integer_x=True)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside right center", fontsize=8, frameon=False)
    fig.suptitle("Polish Canasta played by four: how soon a side opens and makes a canasta")
    return fig


def _canastas_pile_chart(data: dict):
    """Canastas by kind, the size of the pile when taken, pile takes a hand."""
    res = data["play"]
    fig, axes = figure((11.5, 3.4), ncols=3)
    x = np.arange(len(CANASTA_KINDS))
    for i, (p, r) in enumerate(res.items()):
        v = [r.canastas[0][k] for k in CANASTA_KINDS]
        axes[0].bar(x + 0.38 * i, [e.value for e in v], 0.38, yerr=_errors(v), capsize=3, color=f"C{i}", label=p)
        sizes = r.pile_size_counts
        tot = sizes.sum()
        if tot:
            ks = np.arange(len(sizes))
            axes[1].plot(ks[1:31], sizes[1:31] / tot, "o-", ms=3, color=f"C{i}")
    axes[0].set_xticks(x + 0.19, CANASTA_KINDS)
    label(axes[0], "canasta kind", "canastas a hand", "canastas a hand, side 0", legend=None)
    label(axes[1], "pile size when taken (cards)", "share of pile takes", "cards taken with the pile", legend=None,
          integer_x=True)
    takes = [res[p].pile_takes[0] for p in res]
    axes[2].bar(list(res), [e.value for e in takes], yerr=_errors(takes), capsize=3,
                color=[f"C{i}" for i in range(len(takes))])
    label(axes[2], "players", "pile takes a hand", "pile takes a hand, side 0", legend=None)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside right center", fontsize=8, frameon=False)
    fig.suptitle(f"Canastas and the pile ({data['n']:,} hands per player type)")
    return fig


def _scores_chart(data: dict):
    fig, ax = figure((7.5, 3.3))
    for s in range(2):
        d = data["play"]["heuristic"].score_distribution[s]
        ks = sorted(d)
        ax.step(ks, [d[k] for k in ks], where="post", label=f"side {s}")
    label(ax, "hand score (points, 100-point bins)", "probability", "Hand score, heuristic players")
    return fig


def _house_options_chart(data: dict):
    ho = data["house"]
    names = ["base"] + list(ho.options)
    fig, axes = figure((11, 3.6), ncols=2, sharey=True)
    y = np.arange(len(names))
    c = [ho.base.canastas_per_hand[0]] + [r.canastas_per_hand[0] for r in ho.options.values()]
    axes[0].barh(y, [e.value for e in c], xerr=_errors(c), capsize=3)
    axes[0].set_yticks(y, names, fontsize=8)
    axes[0].invert_yaxis()
    label(axes[0], "canastas a hand, side 0", "rules", "canastas a hand, side 0", legend=None)
    ch = [ho.side0_change[k] for k in ho.options]
    axes[1].errorbar([e.value for e in ch], y[1:], xerr=_errors(ch), fmt="o", capsize=3)
    axes[1].axvline(0, color="k", lw=0.8)
    label(axes[1], "side 0 hand score: option - base (points, paired)", "", "change of side 0's hand score",
          legend=None)
    fig.suptitle("House options against the defaults (heuristic players, same deals)")
    return fig


# ---- tables -----------------------------------------------------------------------------------
def _intro(data: dict, seed: int) -> list[str]:
    return ["# Polish Canasta played by four", "",
            (f"cardodds {__version__}, seed {seed}. Four players in two partnerships (seats 0+2 against 1+3; in single "
            f"hands seat 3 deals, so side 0 moves first). Rules: docs/rules/canasta.md with the defaults "
            f"(wild_limit='naturals', min_first_meld=30, 4 Jokers, going_out='meld_or_discard'). "
            f"{data['n']:,} hands per player type; 95% intervals in brackets."), ""]


def _by_round_table(data: dict) -> list[str]:
    h, rnd, deal = data["play"]["heuristic"], data["play"]["random"], data["deal"]
    rows = [(f"side 0 opened by round {r}", pct(h.opened_by_round[0][r - 1], 1),
             pct(rnd.opened_by_round[0][r - 1], 1)) for r in (1, 2, 3, 5, 10)]
    rows += [(f"side 0 first canasta by round {r}", pct(h.canasta_by_round[0][r - 1], 1),
              pct(rnd.canasta_by_round[0][r - 1], 1)) for r in (5, 10, 15)]
    rows.append(("deal-time: one player can open by turn 5 (exact, cards kept, no pile)",
                 pct(deal.first_meld_by_turn[5], 1), ""))
    return (["## How soon a side opens and makes a canasta", "", "![by round](canasta_play_by_round.png)", ""]
            + md_table(("figure", "heuristic", "random"), rows, align="lrr") + [""])


def _canastas_table(data: dict) -> list[str]:
    h, rnd = data["play"]["heuristic"], data["play"]["random"]
    rows = [(f"side 0 {k} canastas a hand", est(h.canastas[0][k], 3), est(rnd.canastas[0][k], 3))
            for k in CANASTA_KINDS]
    rows += [("side 0 pile takes a hand", est(h.pile_takes[0], 2), est(rnd.pile_takes[0], 2)),
             ("cards taken with the pile", est(h.pile_size, 2), est(rnd.pile_size, 2)),
             ("hand ends by going out", pct(h.went_out, 1), pct(rnd.went_out, 1)),
             ("hand ends on an empty stock", pct(h.stock_out, 1), pct(rnd.stock_out, 1)),
             ("table turns a hand", est(h.end_turn, 1), est(rnd.end_turn, 1)),
             ("side 0 hand score", est(h.score[0], 1), est(rnd.score[0], 1)),
             ("side 1 hand score", est(h.score[1], 1), est(rnd.score[1], 1))]
    return (["## Canastas, the pile, how hands end", "", "![canastas and pile](canasta_play_canastas_pile.png)", ""]
            + md_table(("figure", "heuristic", "random"), rows, align="lrr")
            + ["", "![scores](canasta_play_scores.png)", ""])


def _strength_table(data: dict) -> list[str]:
    rows = [(f"{a} vs {b}", signed(s.points, 1) + (NO_DIFFERENCE if s.points.contains_zero() else ""),
             pct(s.better, 1)) for (a, b), s in data["strength"].items()]
    return (["## Strength, points a hand (paired: each deal played twice with the sides swapped)", ""]
            + md_table(("A vs B", "A's edge, points a hand", "A's side better"), rows, align="lrr")
            + ["", ("Each deal is played twice from the same random stream with the sides swapped, so a player "
               "against itself scores exactly 0: the row random vs random checks the pairing."), ""])


def _games_table(data: dict) -> list[str]:
    g = data["game"]
    return [f"## Whole games to {data['rules'].target:,} (heuristic players, side 0 deals first)", "",
            f"- side dealing first wins: {pct(g.win[0], 1)} of {g.games:,} games",
            f"- hands a game: {est(g.mean_hands, 2)}; winning margin {est(g.margin, 0)} points",
            f"- unfinished after {g.max_hands} hands: {g.unfinished:,} of {g.games:,} games", ""]


def _house_options_table(data: dict) -> list[str]:
    ho = data["house"]
    rows = []
    for name, r in [("base", ho.base)] + list(ho.options.items()):
        c = ho.side0_change.get(name)
        change = "" if c is None else signed(c, 1) + (NO_DIFFERENCE if c.contains_zero() else "")
        rows.append((name, pct(r.opened_by_round[0][4], 1), est(r.canastas_per_hand[0], 3), est(r.pile_takes[0], 2),
                     pct(r.went_out, 1), est(r.end_turn, 1), change))
    return (["## House options, each paired with the defaults on the same deals (heuristic players)", "",
             "![house options](canasta_play_house_options.png)", ""]
            + md_table(("rules", "side 0 opened by round 5", "canastas a hand", "pile takes", "going out", "turns",
                        "side 0 score change"), rows, align="lrrrrrr")
            + ["", "With jokers=6 the pack differs, so only the random stream is shared, not the deal.", ""])


# ---- the web page's lookup ----------------------------------------------------------------------
def _lookup_data(data: dict) -> dict:
    """Each house option's paired change of side 0's score a hand (option - defaults, same
    deals): its name, the change as printed in the markdown, and the figures to sort by."""
    ho = data["house"]
    return {"samples": ho.base.hands,
            "options": [[name, signed(c, 1), round(c.value, 6) if np.isfinite(c.value) else None,
                         not c.contains_zero()] for name, c in ho.side0_change.items()]}
