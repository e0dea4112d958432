"""The Känä report: ``reports/kana.md`` and its charts.

Every figure is simulated from the one seed (or computed exactly) and printed with its
95% interval; the same seed and scale rebuild the same files byte for byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .. import __version__
from ..kana import KanaRules, compare, expected_value, odds, strategy_table
from ..kana import exact as kana_exact
from ..kana.decisions import _actions_of

PLAYER_RANGE = range(2, 9)


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> None:
    fig.savefig(path, dpi=110, metadata={"Software": None}, bbox_inches="tight")
    _plt().close(fig)


def _n(base: int, scale: float) -> int:
    return max(2_000, int(base * scale))


def _est(e, digits=4) -> str:
    return e.format(digits)


def write(outdir: Path, *, seed: int = 20261129, scale: float = 1.0, progress: bool = False) -> Path:
    """Write ``kana.md`` and its charts into ``outdir``; returns the markdown's path."""
    # Local style only: the sections of one report run must not change each other's charts.
    with _plt().rc_context({"font.size": 9}):
        return _write(outdir, seed=seed, scale=scale, progress=progress)


def _write(outdir: Path, *, seed: int, scale: float, progress: bool) -> Path:
    import sys

    def stage(text: str) -> None:
        if progress:
            print(f"kana: {text}", file=sys.stderr, flush=True)

    plt = _plt()
    outdir = Path(outdir)
    ss = np.random.SeedSequence(seed)
    seeds = iter(ss.spawn(64))
    md: list[str] = []
    n_odds = _n(4_000_000, scale)
    n_cmp = _n(2_000_000, scale)
    n_tab = _n(400_000, scale)
    n_all = _n(2_000_000, scale)
    md += [
        "# Känä: which card should I känä?",
        "",
        f"Built by `cardodds report` with cardodds {__version__}, seed {seed}, scale {scale:g} "
        f"(sample counts below). Rules: RULES.md 1 with its defaults "
        f"({', '.join(f'{k}={v!r}' for k, v in KanaRules().to_dict().items() if k != 'players')}). "
        "Every figure is a 95% interval or exact; comparisons are paired (the same deals for both choices).",
        "",
    ]

    # --- official rules -------------------------------------------------------------------
    stage("official rules")
    md += ["## Official rules: every choice is the same", "",
           "Nobody may look at a face-down card, so a känä is a blind pick among exchangeable cards. "
           f"Each seat's win rate with each känä position, {n_odds:,} rounds at 4 players, against the exact 1/4:", "",
           "| känä position | seat 0 | seat 1 | seat 2 | seat 3 |", "|---|---|---|---|---|"]
    by_pos = {}
    for pos in ("first", "second", "third", "random"):
        r = odds(4, kana=pos, samples=n_odds, rng=next(seeds))
        by_pos[pos] = r
        md.append(f"| {pos} | " + " | ".join(_est(w) for w in r.win) + " |")
    md += ["", "Paired comparisons of two positions in one seat (same deals):", "",
           "| seat | first - third | verdict |", "|---|---|---|"]
    for seat in range(4):
        c = compare("blind-first", "blind-third", seat=seat, players=4, samples=n_cmp, rng=next(seeds))
        d = c.difference
        md.append(f"| {seat} | {d.value:+.4f} [{d.lo:+.4f}, {d.hi:+.4f}] | {c.verdict} |")
    md.append("")
    fig, ax = plt.subplots(figsize=(7, 3))
    width = 0.2
    for k, (pos, r) in enumerate(by_pos.items()):
        v = np.array([w.value for w in r.win])
        err = np.array([[w.value - w.lo for w in r.win], [w.hi - w.value for w in r.win]])
        ax.errorbar(np.arange(4) + (k - 1.5) * width, v, yerr=err, fmt="o", ms=4, capsize=3, label=pos)
    ax.axhline(0.25, color="grey", lw=0.8, ls=":", label="exact 1/4")
    ax.set_xticks(range(4), [f"seat {s}" for s in range(4)])
    ax.set_ylabel("P(win)")
    ax.set_title("Official rules, 4 players: win rate by känä position (95% intervals)")
    ax.legend(frameon=False, ncol=5, fontsize=7)
    _save(fig, outdir / "kana_official.png")
    md += ["![Win rate by känä position](kana_official.png)", ""]

    # --- hand values and extra rounds against exact ---------------------------------------
    stage("hand values and extra rounds")
    r4 = by_pos["first"]
    hv = kana_exact.hand_value_distribution()
    fig, ax = plt.subplots(figsize=(7, 3))
    r4.plot(ax=ax, exact={v: float(p) for v, p in hv.items()})
    ax.set_title(f"Seat 0's hand value, {r4.samples:,} rounds against the exact distribution")
    _save(fig, outdir / "kana_hand_values.png")
    md += ["## Hand values and extra rounds against the exact figures", "",
           "![Hand value distribution](kana_hand_values.png)", "",
           "| players | P(extra round), simulated | exact |", "|---|---|---|"]
    for n in range(2, 7):
        r = odds(n, samples=_n(1_000_000, scale), rng=next(seeds))
        e = kana_exact.p_extra_round(n)
        md.append(f"| {n} | {_est(r.extra_round)} | {float(e):.6f} ({e.numerator}/{e.denominator}) |")
    md += ["", f"P(Superkänä) for one player: simulated {_est(r4.superkana, 5)}, exact 1/221 = {1 / 221:.5f}. "
           f"Mean extra rounds per round at 4 players: {_est(r4.extra_rounds_per_round)}. "
           f"P(an extra round of 2 ties again), fresh deck: exact {float(kana_exact.p_extra_ties_again(2)):.5f} (3/51); "
           f"with the remaining stock at 4 players: {_est(r4.tie_again[2])}.", ""]

    # --- peek-one -------------------------------------------------------------------------
    stage("peek-one strategy tables, 2..8 players")
    md += ["## Peek-one: känä the peeked card or keep it?", "",
           "Each player looks at one of its three cards, then känäs it or an unseen card. For each player count "
           "the table below is the equilibrium: best responses are iterated until no action changes by a "
           f"significant paired difference ({n_tab:,} rounds a step). A cell shows the action for the peeked rank "
           "(K = känä it, k = keep it).", "",
           "| players | " + " | ".join("2 3 4 5 6 7 8 9 T J Q K A".split()) + " | iterations | EV vs blind (antes) | EV at table |",
           "|---|" + "---|" * 13 + "---|---|---|"]
    tables = {}
    equilibrium_data = {}
    for n in PLAYER_RANGE:
        t = strategy_table("peek-one", n, opponents="table", samples=n_tab, rng=next(seeds))
        tables[n] = t
        equilibrium_data[f"peek-one/{n}"] = {"actions": _actions_of(t.strategy).tolist(), "iterations": t.iterations,
                                              "converged": t.converged}
        cells = ["K" if a == "känä" else "k" for a in t.rows["action"]]
        md.append(f"| {n} | " + " | ".join(cells) + f" | {t.iterations}{'' if t.converged else ' (not converged)'} | "
                  f"{t.ev_vs_blind.value:+.3f} [{t.ev_vs_blind.lo:+.3f}, {t.ev_vs_blind.hi:+.3f}] | "
                  f"{t.ev_at_table.value:+.3f} [{t.ev_at_table.lo:+.3f}, {t.ev_at_table.hi:+.3f}] |")
    md.append("")
    fig, axes = plt.subplots(1, 2, figsize=(9, 3.2), sharey=True)
    for n, t in tables.items():
        x = np.arange(13)
        for ax, col in zip(axes, ("vs_blind", "at_table")):
            line, = ax.plot(x, t.rows[col], "o-", ms=3, label=f"{n}")
            ax.fill_between(x, t.rows[col + "_lo"], t.rows[col + "_hi"], color=line.get_color(), alpha=0.15, lw=0)
    for ax, title in zip(axes, ("against blind players", "at the equilibrium table")):
        ax.set_xticks(range(13), list("23456789TJQKA"))
        ax.set_xlabel("peeked rank")
        ax.set_title(title)
    axes[0].set_ylabel("P(win) playing the table (95% bands)")
    axes[1].legend(title="players", frameon=False, fontsize=7)
    _save(fig, outdir / "kana_peek_one.png")
    md += ["![Win rate by peeked rank](kana_peek_one.png)", "",
           "Win rate given the peeked rank at 4 players, playing the equilibrium table:", "",
           "| peeked | action | vs blind | at the table | best - next best (paired) |", "|---|---|---|---|---|"]
    t4 = tables[4]
    for key, row in t4.rows.iterrows():
        md.append(f"| {key} | {row['action']} | {row['vs_blind']:.4f} [{row['vs_blind_lo']:.4f}, {row['vs_blind_hi']:.4f}] | "
                  f"{row['at_table']:.4f} [{row['at_table_lo']:.4f}, {row['at_table_hi']:.4f}] | "
                  f"{row['diff']:+.4f} [{row['diff_lo']:+.4f}, {row['diff_hi']:+.4f}] |")
    md.append("")

    md += ["Expected value per round in antes (n P(win) - 1) of one player using each strategy at 4 players, "
           "the others blind or playing the equilibrium table:", "",
           "| strategy | vs blind | vs the table |", "|---|---|---|"]
    for name in ("blind", "threshold:6", "threshold:7", "threshold:8", "threshold:9", "threshold:10"):
        evs = [expected_value(name, 4, "peek-one", opponents=opp, samples=n_tab, rng=next(seeds))
               for opp in ("blind", "table")]
        md.append(f"| {name} | " + " | ".join(f"{e.value:+.4f} [{e.lo:+.4f}, {e.hi:+.4f}]" for e in evs) + " |")
    md.append("")

    # --- peek-all -------------------------------------------------------------------------
    stage("peek-all strategy tables")
    md += ["## Peek-all: the best känä for every hand", "",
           f"Each player sees all three cards. Best response to blind players and equilibrium ({n_all:,} rounds a "
           "step); counts of the 455 rank combinations by the card to känä:", "",
           "| players | opponents | känä lowest | middle | highest | EV (antes) of the table |", "|---|---|---|---|---|---|"]
    for n in (3, 4):
        for opp in ("blind", "table"):
            t = strategy_table("peek-all", n, opponents=opp, samples=n_all, rng=next(seeds))
            counts = t.rows["action"].value_counts()
            ev = t.ev_vs_blind if opp == "blind" else t.ev_at_table
            md.append(f"| {n} | {opp} | {counts.get('low', 0)} | {counts.get('middle', 0)} | {counts.get('high', 0)} | "
                      f"{ev.value:+.3f} [{ev.lo:+.3f}, {ev.hi:+.3f}] |")
            if opp == "table":
                equilibrium_data[f"peek-all/{n}"] = {"actions": _actions_of(t.strategy).tolist(),
                                                     "iterations": t.iterations, "converged": t.converged}
                if n == 4:
                    keep = t.rows.loc[["22A", "22K", "2KA", "9TJ", "AAA"]]
    md += ["", "Expected value per round in antes of one player using each named strategy at 4 players:", "",
           "| strategy | vs blind | vs the table |", "|---|---|---|"]
    for name in ("best-pair", "highest-sum", "kana-highest", "random"):
        evs = [expected_value(name, 4, "peek-all", opponents=opp, samples=n_tab, rng=next(seeds))
               for opp in ("blind", "table")]
        md.append(f"| {name} | " + " | ".join(f"{e.value:+.4f} [{e.lo:+.4f}, {e.hi:+.4f}]" for e in evs) + " |")
    md += ["", "Selected hands at 4 players (equilibrium):", "", "| hand | känä | win at the table |", "|---|---|---|"]
    for key, row in keep.iterrows():
        md.append(f"| {key} | {row['action']} | {row['at_table']:.4f} [{row['at_table_lo']:.4f}, {row['at_table_hi']:.4f}] |")
    md.append("")
    (outdir / "kana_equilibrium.json").write_text(json.dumps(equilibrium_data, indent=1, sort_keys=True) + "\n")
    md += ["The equilibrium tables are in `kana_equilibrium.json` (the advisor's default opponents).", ""]
    path = outdir / "kana.md"
    path.write_text("\n".join(md))
    return path
