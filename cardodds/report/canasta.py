"""Report section: Polish Canasta meld odds (``reports/canasta.md`` and its charts).

Exact values come from enumeration; every Monte Carlo figure beside them is from the same
seed, so the section is rebuilt byte for byte. One data function runs everything; each
part of the page has its table function and its chart function.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import __version__
from ..canasta import CanastaRules, hand_odds, melds
from ..canasta.rules import WILD_LIMITS
from ._common import Stages, figure, label, md_table, pct, write_section

EXAMPLE_HAND = "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h"
TURNS = 20
TABLE_TURNS = (0, 1, 2, 3, 5, 10, 15, 20)


def write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool = False) -> Path:
    outdir = Path(outdir)
    data = _data(seed, scale, progress, Stages("canasta", 4, log))
    charts = (("canasta_by_turn.png", _by_turn_chart), ("canasta_best_value.png", _best_value_chart),
              ("canasta_wilds_red3.png", _wilds_chart))
    lines = _intro(data, seed) + _deal_table(data) + _draws_table(data) + _distributions_table(data)
    return write_section(outdir, "canasta", data, charts, lines)


# ---- data -------------------------------------------------------------------------------------
def _data(seed: int, scale: float, progress: bool, stage: Stages) -> dict:
    rules = CanastaRules()
    n = max(2000, int(round(2_000_000 * scale)))
    n_hand = max(2000, int(round(200_000 * scale)))
    stage("12-card hands over 20 draws: Monte Carlo and exact")
    mc = melds(12, rules=rules, samples=n, rng=seed, turns=TURNS, progress=progress)
    ex = melds(12, rules=rules, exact=True, turns=TURNS)
    stage("12-card hands, discarding the weakest card")
    weak = melds(12, rules=rules, samples=n, rng=seed, turns=TURNS, discard="weakest", progress=progress)
    stage("11-card hands from the deal")
    mc11 = melds(11, rules=rules, samples=n, rng=seed + 1, turns=0, progress=progress)
    ex11 = melds(11, rules=rules, exact=True, turns=0)
    stage(f"the example hand {EXAMPLE_HAND}")
    ho = hand_odds(EXAMPLE_HAND, 10, rules=rules, samples=n_hand, rng=seed + 2, progress=progress)
    ho_ex = hand_odds(EXAMPLE_HAND, 10, rules=rules, exact=True)
    return {"rules": rules, "n": n, "mc": mc, "ex": ex, "weak": weak, "mc11": mc11, "ex11": ex11,
            "hand": ho, "hand_exact": ho_ex}


# ---- charts -----------------------------------------------------------------------------------
def _by_turn_chart(data: dict):
    """First meld and 7 naturals by turn, Monte Carlo against exact."""
    mc, ex, n = data["mc"], data["ex"], data["n"]
    fig, axes = figure((9, 3.6), ncols=2)
    ks = np.arange(TURNS + 1)
    for ax, (m, e, title, where) in zip(axes, (
            (mc.first_meld_by_turn, ex.first_meld_by_turn, "first meld >= 30 possible", "lower right"),
            (mc.canasta_by_turn, ex.canasta_by_turn, "7 naturals of one rank", "upper left"))):
        ax.errorbar(ks, [x.value for x in m], yerr=[[x.value - x.lo for x in m], [x.hi - x.value for x in m]],
                    fmt="o", ms=3, capsize=2, label=f"Monte Carlo ({n:,} deals)")
        ax.plot(ks, [x.value for x in e], "-", lw=1, label="exact")
        label(ax, "cards drawn after the deal (turns)", "probability", title, legend=where, integer_x=True)
    fig.suptitle("A 12-card hand over the draws")
    return fig


def _best_value_chart(data: dict):
    ex, mc, rules = data["ex"], data["mc"], data["rules"]
    fig, ax = figure((9, 3.4))
    vals = sorted(ex.best_value)
    ax.bar(vals, [ex.best_value[v].value for v in vals], width=4, label="exact")
    mv = sorted(mc.best_value)
    ax.plot(mv, [mc.best_value[v].value for v in mv], "k.", ms=4, label="Monte Carlo")
    ax.axvline(rules.min_first_meld - 2.5, color="red", lw=1, ls="--", label="first-meld minimum")
    ax.set_xlim(-5, 250)
    label(ax, "value of the best single meld in a 12-card hand (points; 0 = no meld)", "probability",
          "The best first meld a dealt hand can lay", legend="upper right")
    return fig


def _wilds_chart(data: dict):
    ex, mc = data["ex"], data["mc"]
    fig, axes = figure((9, 3.6), ncols=2)
    for ax, (a, b, title) in zip(axes, (("wild_cards", "partnership_wild_cards", "wild cards (2s and Jokers)"),
                                         ("red_threes", "partnership_red_threes", "red 3s"))):
        for name, off, whose in ((a, -0.2, "per hand"), (b, 0.2, "per partnership")):
            d = getattr(ex, name)
            ax.bar(np.array(list(d)) + off, [e.value for e in d.values()], width=0.4, label=f"{whose} (exact)")
            dm = getattr(mc, name)
            ax.plot(np.array(list(dm)) + off, [e.value for e in dm.values()], "k.", ms=4)
        label(ax, "cards", "probability", title + "  (dots: Monte Carlo)", legend="upper right", integer_x=True)
    fig.suptitle("Wild cards and red 3s per hand (12 cards) and per partnership (24)")
    return fig


# ---- tables -----------------------------------------------------------------------------------
def _intro(data: dict, seed: int) -> list[str]:
    return ["# Polish Canasta: meld odds\n",
            f"cardodds {__version__}, seed {seed}, {data['n']:,} simulated deals per Monte Carlo figure; "
            f"exact values by enumeration over card-kind counts. Rules (docs/rules/canasta.md): "
            f"{data['rules'].to_dict()}.\n",
            "Monte Carlo figures show their 95% interval; exact figures are marked exact. The draws model "
            "one player drawing one card a turn from the cards it has not seen and keeping it "
            "(no discard, no pile): the by-turn figures say what the cards seen by turn k hold.\n"]


def _deal_table(data: dict) -> list[str]:
    mc, ex = data["mc"], data["ex"]
    L = ["## First meld from the deal\n"]
    L += md_table(("hand", "wild limit", "exact", "Monte Carlo"),
                  [(f"{size} cards", w, pct(e.first_meld_by_limit[w]), pct(m.first_meld_by_limit[w]))
                   for size, m, e in ((12, mc, ex), (11, data["mc11"], data["ex11"])) for w in WILD_LIMITS])
    L += ["",
          f"Opening by taking the upcard (it must be in the meld): exact {pct(ex.pile_open)}, "
          f"Monte Carlo {pct(mc.pile_open)}.\n",
          f"A pair of some rank 4..A: {pct(ex.pair)} (MC {pct(mc.pair)}); three of a rank: "
          f"{pct(ex.three)} (MC {pct(mc.three)}).\n",
          "What wild cards are worth for opening: the first-meld probability of a 12-card hand "
          "given the number of wilds (2s and Jokers) dealt to it.\n"]
    L += md_table(("wilds dealt", "P(first meld), exact", "Monte Carlo"),
                  [(w, pct(ex.first_meld_by_wilds[w]),
                    pct(mc.first_meld_by_wilds[w]) if w in mc.first_meld_by_wilds else "-") for w in range(0, 5)])
    L.append("")
    return L


def _draws_table(data: dict) -> list[str]:
    mc, ex, weak = data["mc"], data["ex"], data["weak"]
    L = ["## Over the draws\n", "![first meld and 7 naturals by turn](canasta_by_turn.png)\n"]
    L += md_table(("turn", "first meld (exact)", "first meld (MC)", "7 naturals (exact)", "7 naturals (MC)",
                   "first meld, discarding (MC)", "7 naturals, discarding (MC)"),
                  [(k, pct(ex.first_meld_by_turn[k]), pct(mc.first_meld_by_turn[k]), pct(ex.canasta_by_turn[k], 3),
                    pct(mc.canasta_by_turn[k], 3), pct(weak.first_meld_by_turn[k]), pct(weak.canasta_by_turn[k], 3))
                   for k in TABLE_TURNS])
    L += ["",
          "\"Discarding\" keeps the hand at 12 cards: after each draw the player discards a black 3, "
          "else a red 3, else a natural of the rank it holds fewest of (policy `\"weakest\"`, same deals "
          "and draws as the columns beside it, so it can only be lower).\n",
          f"A given hand, `{EXAMPLE_HAND}` (a pair of kings, no wild):\n"]
    ho, ho_ex = data["hand"], data["hand_exact"]
    L += md_table(("turn", "first meld (exact)", "first meld (MC)"),
                  [(k, pct(ho_ex.first_meld_by_turn[k]), pct(ho.first_meld_by_turn[k])) for k in range(0, 11)])
    L.append("")
    return L


def _distributions_table(data: dict) -> list[str]:
    mc, ex = data["mc"], data["ex"]
    L = ["## Best first meld, wilds and red 3s\n", "![best first-meld value](canasta_best_value.png)\n",
         "![wild cards and red 3s](canasta_wilds_red3.png)\n"]
    names = ("wild_cards", "partnership_wild_cards", "red_threes", "partnership_red_threes")
    L += md_table(("count", "wilds per hand", "wilds per partnership", "red 3s per hand", "red 3s per partnership"),
                  [[c] + [pct(getattr(ex, name)[c]) if c in getattr(ex, name) else "" for name in names]
                   for c in range(0, 9)])
    L += ["", "Most naturals of one rank (4..A) in a 12-card hand:\n"]
    L += md_table(("naturals", "exact", "Monte Carlo"),
                  [(c, pct(e, 3), pct(mc.best_rank_naturals[c], 3) if c in mc.best_rank_naturals else "-")
                   for c, e in ex.best_rank_naturals.items()])
    L.append("")
    return L
