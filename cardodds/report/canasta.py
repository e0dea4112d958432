"""Report section: Polish Canasta meld odds (``reports/canasta.md`` and its charts).

Exact values come from enumeration; every Monte Carlo figure beside them is from the same
seed, so the section is rebuilt byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .. import __version__  # noqa: E402
from ..canasta import CanastaRules, hand_odds, melds  # noqa: E402
from ..canasta.rules import WILD_LIMITS  # noqa: E402

_SAVE = {"dpi": 110, "metadata": {"Software": None}}
EXAMPLE_HAND = "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h"


def _pct(e, digits=2):
    if e.exact:
        return f"{100 * e.value:.{digits}f}%"
    return f"{100 * e.value:.{digits}f}% [{100 * e.lo:.{digits}f}, {100 * e.hi:.{digits}f}]"


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, **_SAVE)
    plt.close(fig)


def write(outdir: Path, *, seed: int, scale: float, progress: bool) -> Path:
    outdir = Path(outdir)
    rules = CanastaRules()
    n = max(2000, int(round(1_000_000 * scale)))
    n_hand = max(2000, int(round(200_000 * scale)))
    mc = melds(12, rules, samples=n, rng=seed, turns=20, progress=progress)
    ex = melds(12, rules, exact=True, turns=20)
    weak = melds(12, rules, samples=n, rng=seed, turns=20, discard="weakest", progress=progress)
    mc11 = melds(11, rules, samples=n, rng=seed + 1, turns=0, progress=progress)
    ex11 = melds(11, rules, exact=True, turns=0)
    ho = hand_odds(EXAMPLE_HAND, 10, rules, samples=n_hand, rng=seed + 2, progress=progress)
    ho_ex = hand_odds(EXAMPLE_HAND, 10, rules, exact=True)

    # chart 1: first meld and 7 naturals by turn
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.4))
    ks = np.arange(21)
    for ax, (m, e, title) in zip(axes, ((mc.first_meld_by_turn, ex.first_meld_by_turn, "first meld >= 30 possible"),
                                         (mc.canasta_by_turn, ex.canasta_by_turn, "7 naturals of one rank"))):
        ax.errorbar(ks, [x.value for x in m],
                    yerr=[[x.value - x.lo for x in m], [x.hi - x.value for x in m]],
                    fmt="o", ms=3, capsize=2, label=f"Monte Carlo ({n:,} deals)")
        ax.plot(ks, [x.value for x in e], "-", lw=1, label="exact")
        ax.set_title(title)
        ax.set_xlabel("cards drawn after the deal (turns)")
        ax.set_ylabel("probability")
        ax.legend(fontsize=8)
    _save(fig, outdir / "canasta_by_turn.png")

    # chart 2: best first-meld value
    fig, ax = plt.subplots(figsize=(9, 3.2))
    vals = sorted(ex.best_value)
    ax.bar(vals, [ex.best_value[v].value for v in vals], width=4, label="exact")
    mv = sorted(mc.best_value)
    ax.plot(mv, [mc.best_value[v].value for v in mv], "k.", ms=4, label="Monte Carlo")
    ax.axvline(rules.min_first_meld - 2.5, color="red", lw=1, ls="--", label="first-meld minimum")
    ax.set_xlim(-5, 250)
    ax.set_xlabel("value of the best single meld in a 12-card hand (0 = no meld)")
    ax.set_ylabel("probability")
    ax.legend(fontsize=8)
    _save(fig, outdir / "canasta_best_value.png")

    # chart 3: wilds and red 3s per hand and per partnership
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2))
    for ax, (a, b, title) in zip(axes, (("wild_cards", "partnership_wild_cards", "wild cards (2s and Jokers)"),
                                         ("red_threes", "partnership_red_threes", "red 3s"))):
        for name, off, label in ((a, -0.2, "per hand"), (b, 0.2, "per partnership")):
            d = getattr(ex, name)
            ax.bar(np.array(list(d)) + off, [e.value for e in d.values()], width=0.4, label=f"{label} (exact)")
            dm = getattr(mc, name)
            ax.plot(np.array(list(dm)) + off, [e.value for e in dm.values()], "k.", ms=4)
        ax.set_title(title + "  (dots: Monte Carlo)")
        ax.set_xlabel("cards")
        ax.legend(fontsize=8)
    _save(fig, outdir / "canasta_wilds_red3.png")

    L = []
    L.append("# Polish Canasta: meld odds\n")
    L.append(f"cardodds {__version__}, seed {seed}, {n:,} simulated deals per Monte Carlo figure; "
             f"exact values by enumeration over card-kind counts. Rules (RULES.md 3): "
             f"{rules.to_dict()}.\n")
    L.append("Monte Carlo figures show their 95% interval; exact figures are marked exact. The draws model "
             "one player drawing one card a turn from the cards it has not seen and keeping it "
             "(no discard, no pile): the by-turn figures say what the cards seen by turn k hold.\n")
    L.append("## First meld from the deal\n")
    L.append("| hand | wild limit | exact | Monte Carlo |")
    L.append("|---|---|---|---|")
    for size, m, e in ((12, mc, ex), (11, mc11, ex11)):
        for w in WILD_LIMITS:
            L.append(f"| {size} cards | {w} | {_pct(e.first_meld_by_limit[w])} | {_pct(m.first_meld_by_limit[w])} |")
    L.append("")
    L.append(f"Opening by taking the upcard (it must be in the meld): exact {_pct(ex.pile_open)}, "
             f"Monte Carlo {_pct(mc.pile_open)}.\n")
    L.append(f"A pair of some rank 4..A: {_pct(ex.pair)} (MC {_pct(mc.pair)}); three of a rank: "
             f"{_pct(ex.three)} (MC {_pct(mc.three)}).\n")
    L.append("What wild cards are worth for opening: the first-meld probability of a 12-card hand "
             "given the number of wilds (2s and Jokers) dealt to it.\n")
    L.append("| wilds dealt | P(first meld), exact | Monte Carlo |")
    L.append("|---|---|---|")
    for w in range(0, 5):
        m = mc.first_meld_by_wilds.get(w)
        L.append(f"| {w} | {_pct(ex.first_meld_by_wilds[w])} | {_pct(m) if m is not None else '-'} |")
    L.append("")
    L.append("## Over the draws\n")
    L.append("![first meld and 7 naturals by turn](canasta_by_turn.png)\n")
    L.append("| turn | first meld (exact) | first meld (MC) | 7 naturals (exact) | 7 naturals (MC) |"
             " first meld, discarding (MC) | 7 naturals, discarding (MC) |")
    L.append("|---|---|---|---|---|---|---|")
    for k in (0, 1, 2, 3, 5, 10, 15, 20):
        L.append(f"| {k} | {_pct(ex.first_meld_by_turn[k])} | {_pct(mc.first_meld_by_turn[k])} | "
                 f"{_pct(ex.canasta_by_turn[k], 3)} | {_pct(mc.canasta_by_turn[k], 3)} | "
                 f"{_pct(weak.first_meld_by_turn[k])} | {_pct(weak.canasta_by_turn[k], 3)} |")
    L.append("")
    L.append("\"Discarding\" keeps the hand at 12 cards: after each draw the player discards a black 3, "
             "else a red 3, else a natural of the rank it holds fewest of (policy `\"weakest\"`, same deals "
             "and draws as the columns beside it, so it can only be lower).\n")
    L.append(f"A given hand, `{EXAMPLE_HAND}` (a pair of kings, no wild):\n")
    L.append("| turn | first meld (exact) | first meld (MC) |")
    L.append("|---|---|---|")
    for k in range(0, 11):
        L.append(f"| {k} | {_pct(ho_ex.first_meld_by_turn[k])} | {_pct(ho.first_meld_by_turn[k])} |")
    L.append("")
    L.append("## Best first meld, wilds and red 3s\n")
    L.append("![best first-meld value](canasta_best_value.png)\n")
    L.append("![wild cards and red 3s](canasta_wilds_red3.png)\n")
    L.append("| count | wilds per hand | wilds per partnership | red 3s per hand | red 3s per partnership |")
    L.append("|---|---|---|---|---|")
    for c in range(0, 9):
        cells = []
        for name in ("wild_cards", "partnership_wild_cards", "red_threes", "partnership_red_threes"):
            d = getattr(ex, name)
            cells.append(_pct(d[c]) if c in d else "")
        L.append(f"| {c} | " + " | ".join(cells) + " |")
    L.append("")
    L.append("Most naturals of one rank (4..A) in a 12-card hand:\n")
    L.append("| naturals | exact | Monte Carlo |")
    L.append("|---|---|---|")
    for c, e in ex.best_rank_naturals.items():
        m = mc.best_rank_naturals.get(c)
        L.append(f"| {c} | {_pct(e, 3)} | {_pct(m, 3) if m is not None else '-'} |")
    L.append("")
    path = outdir / "canasta.md"
    path.write_text("\n".join(L) + "\n", encoding="utf-8")
    return path
