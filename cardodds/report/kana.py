"""The Känä report: ``reports/kana.md`` and its charts.

Every figure is simulated from the one seed (or computed exactly) and printed with its
95% interval; the same seed and scale rebuild the same files byte for byte. Each section
has a data function (the simulations, seeds drawn in a fixed order), a table function (its
markdown) and a chart function (a matplotlib figure).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import __version__
from ..rng import child
from ..kana import KanaRules, compare, expected_value, odds, strategy_table
from ..kana import exact as kana_exact
from ..kana.equilibrium import BUILT_FILE, built_table, table_entry, write_tables
from ..stats import Estimate
from . import SEED
from ._common import STYLE, Stages, est, figure, md_table, page_data, plt, save, signed

PLAYER_RANGE = range(2, 9)
POSITIONS = ("first", "second", "third", "random")
PEEK_ONE_STRATEGIES = ("blind", "threshold:6", "threshold:7", "threshold:8", "threshold:9", "threshold:10")
PEEK_ALL_STRATEGIES = ("best-pair", "highest-sum", "kana-highest", "random")
SELECTED_HANDS = ["22A", "22K", "2KA", "9TJ", "AAA"]
RANKS = "2 3 4 5 6 7 8 9 T J Q K A".split()


def _n(base: int, scale: float) -> int:
    return max(2_000, int(base * scale))


def write(outdir: Path, *, seed: int = SEED, scale: float = 1.0, progress: bool = False,
          log: bool = False) -> Path:
    """Write ``kana.md`` and its charts into ``outdir``; returns the markdown's path."""
    with plt().rc_context(STYLE):
        return _write(Path(outdir), seed=seed, scale=scale, progress=progress, stage=Stages("kana", 4, log))


def _write(outdir: Path, *, seed: int, scale: float, progress: bool, stage: Stages) -> Path:
    seeds = iter([child(np.random.SeedSequence(seed), i) for i in range(64)])
    n = {"odds": _n(4_000_000, scale), "cmp": _n(2_000_000, scale), "tab": _n(400_000, scale),
         "all": _n(2_000_000, scale), "extra": _n(1_000_000, scale)}
    md = _intro(seed, scale)

    stage("official rules: win rate by känä position, paired comparisons")
    official = _official_data(n, seeds, progress)
    md += _official_table(official, n)
    save(_official_chart(official), outdir / "kana_official.png")

    stage("hand values and extra rounds against the exact figures")
    values = _hand_values_data(official, n, seeds, progress)
    save(_hand_values_chart(values), outdir / "kana_hand_values.png")
    md += _hand_values_table(values)

    stage(f"peek-one strategy tables, {PLAYER_RANGE.start}..{PLAYER_RANGE.stop - 1} players")
    peek_one = _peek_one_data(n, seeds, progress)
    md += _peek_one_table(peek_one, n)
    save(_peek_one_chart(peek_one), outdir / "kana_peek_one.png")
    md += _peek_one_detail(peek_one)

    stage("peek-all strategy tables")
    peek_all = _peek_all_data(n, seeds, progress)
    peek_all["built"] = {p: built_table("peek-all", p) for p in PLAYER_RANGE if p not in peek_all["tables"]}
    md += _peek_all_table(peek_all, n)
    equilibrium = {**peek_one["equilibrium"], **peek_all["equilibrium"]}
    write_tables(equilibrium, outdir / "kana_equilibrium.json")
    page_data(outdir, "kana", _lookup_data(peek_one, peek_all, seed))
    md += ["The equilibrium tables are in `kana_equilibrium.json` (the advisor's default opponents).", ""]
    path = outdir / "kana.md"
    path.write_text("\n".join(md))
    return path


def _intro(seed: int, scale: float) -> list[str]:
    defaults = ", ".join(f"{k}={v!r}" for k, v in KanaRules().to_dict().items() if k != "players")
    return ["# Känä: which card should I känä?", "",
            f"Built by `cardodds report` with cardodds {__version__}, seed {seed}, scale {scale:g} "
            f"(sample counts below). Rules: docs/rules/kana.md with its defaults ({defaults}). "
            "Every figure is a 95% interval or exact; comparisons are paired (the same deals for both choices).", ""]


# ---- official rules ---------------------------------------------------------------------------
def _official_data(n: dict, seeds, progress: bool) -> dict:
    by_pos = {pos: odds(4, kana=pos, samples=n["odds"], rng=next(seeds), progress=progress) for pos in POSITIONS}
    comparisons = [compare("blind-first", "blind-third", seat=seat, players=4, samples=n["cmp"], rng=next(seeds),
                           progress=progress) for seat in range(4)]
    return {"by_pos": by_pos, "comparisons": comparisons}


def _official_table(data: dict, n: dict) -> list[str]:
    md = ["## Official rules: every choice is the same", "",
          "Nobody may look at a face-down card, so a känä is a blind pick among exchangeable cards. "
          f"Each seat's win rate with each känä position, {n['odds']:,} rounds at 4 players, against the exact 1/4:",
          ""]
    md += md_table(("känä position", "seat 0", "seat 1", "seat 2", "seat 3"),
                   [[pos] + [est(w) for w in r.win] for pos, r in data["by_pos"].items()])
    md += ["", "Paired comparisons of two positions in one seat (same deals):", ""]
    md += md_table(("seat", "first - third", "verdict"),
                   [(seat, signed(c.difference), c.verdict) for seat, c in enumerate(data["comparisons"])])
    md.append("")
    md += ["![Win rate by känä position](kana_official.png)", ""]
    return md


def _official_chart(data: dict):
    fig, ax = figure((7, 3.2))
    width = 0.2
    for k, (pos, r) in enumerate(data["by_pos"].items()):
        v = np.array([w.value for w in r.win])
        err = np.array([[w.value - w.lo for w in r.win], [w.hi - w.value for w in r.win]])
        ax.errorbar(np.arange(4) + (k - 1.5) * width, v, yerr=err, fmt="o", ms=4, capsize=3, label=pos)
    ax.axhline(0.25, color="grey", lw=0.8, ls=":", label="exact 1/4")
    ax.set_xticks(range(4), [f"seat {s}" for s in range(4)])
    ax.set_xlabel("seat (clockwise from the starter)")
    ax.set_ylabel("P(win)")
    ax.set_title("Official rules, 4 players: win rate by känä position (95% intervals)")
    fig.legend(frameon=False, ncol=5, fontsize=7, loc="outside lower center")
    return fig


# ---- hand values and extra rounds --------------------------------------------------------------
def _hand_values_data(official: dict, n: dict, seeds, progress: bool) -> dict:
    extra = {p: (odds(p, samples=n["extra"], rng=next(seeds), progress=progress), kana_exact.p_extra_round(p))
             for p in range(2, 7)}
    return {"r4": official["by_pos"]["first"], "exact": kana_exact.hand_value_distribution(), "extra": extra}


def _hand_values_chart(data: dict):
    r4 = data["r4"]
    fig, ax = figure((7, 3.2))
    r4.plot(ax=ax, exact={v: float(p) for v, p in data["exact"].items()})
    ax.set_title(f"Seat 0's hand value, {r4.samples:,} rounds against the exact distribution")
    return fig


def _hand_values_table(data: dict) -> list[str]:
    r4 = data["r4"]
    md = ["## Hand values and extra rounds against the exact figures", "",
          "![Hand value distribution](kana_hand_values.png)", ""]
    md += md_table(("players", "P(extra round), simulated", "exact"),
                   [(p, est(r.extra_round), f"{float(e):.6f} ({e.numerator}/{e.denominator})")
                    for p, (r, e) in data["extra"].items()])
    md += ["", f"P(Superkänä) for one player: simulated {est(r4.superkana, 5)}, exact 1/221 = {1 / 221:.5f}. "
           f"Mean extra rounds per round at 4 players: {est(r4.extra_rounds_per_round)}. "
           f"P(an extra round of 2 ties again), fresh deck: exact {float(kana_exact.p_extra_ties_again(2)):.5f} "
           f"(3/51); with the remaining stock at 4 players: {est(r4.tie_again[2])}.", ""]
    return md


# ---- peek-one ----------------------------------------------------------------------------------
def _peek_one_data(n: dict, seeds, progress: bool) -> dict:
    tables, equilibrium = {}, {}
    for p in PLAYER_RANGE:
        t = strategy_table("peek-one", p, opponents="table", samples=n["tab"], rng=next(seeds), progress=progress)
        tables[p] = t
        equilibrium[f"peek-one/{p}"] = table_entry(t)
    evs = {name: [expected_value(name, 4, "peek-one", opponents=opp, samples=n["tab"], rng=next(seeds),
                                 progress=progress) for opp in ("blind", "table")]
           for name in PEEK_ONE_STRATEGIES}
    return {"tables": tables, "equilibrium": equilibrium, "evs": evs}


def _peek_one_table(data: dict, n: dict) -> list[str]:
    md = ["## Peek-one: känä the peeked card or keep it?", "",
          "Each player looks at one of its three cards, then känäs it or an unseen card. For each player count "
          "the table below is the equilibrium: best responses are iterated until no action changes by a "
          f"significant paired difference ({n['tab']:,} rounds a step). A cell shows the action for the peeked rank "
          "(K = känä it, k = keep it).", ""]
    rows = []
    for p, t in data["tables"].items():
        cells = ["K" if a == "känä" else "k" for a in t.rows["action"]]
        rows.append([p] + cells + [f"{t.iterations}{'' if t.converged else ' (not converged)'}",
                                   signed(t.ev_vs_blind, 3), signed(t.ev_at_table, 3)])
    md += md_table(["players"] + RANKS + ["iterations", "EV vs blind (antes)", "EV at table"], rows)
    md += ["", "![Win rate by peeked rank](kana_peek_one.png)", ""]
    return md


def _peek_one_chart(data: dict):
    fig, axes = figure((9, 3.4), ncols=2, sharey=True)
    x = np.arange(13)
    for p, t in data["tables"].items():
        for ax, col in zip(axes, ("vs_blind", "at_table")):
            line, = ax.plot(x, t.rows[col], "o-", ms=3, label=f"{p}")
            ax.fill_between(x, t.rows[col + "_lo"], t.rows[col + "_hi"], color=line.get_color(), alpha=0.15, lw=0)
    for ax, title in zip(axes, ("against blind players", "at the equilibrium table")):
        ax.set_xticks(range(13), RANKS)
        ax.set_xlabel("peeked rank")
        ax.set_title(title)
    axes[0].set_ylabel("P(win) playing the table (95% bands)")
    axes[1].legend(title="players", frameon=False, fontsize=7, loc="center left", bbox_to_anchor=(1.0, 0.5))
    fig.suptitle("Peek-one: win rate by peeked rank and player count")
    return fig


def _peek_one_detail(data: dict) -> list[str]:
    md = ["Win rate given the peeked rank at 4 players, playing the equilibrium table:", ""]
    rows = [(key, row["action"], _row_est(row, "vs_blind"), _row_est(row, "at_table"), _row_signed(row, "diff"))
            for key, row in data["tables"][4].rows.iterrows()]
    md += md_table(("peeked", "action", "vs blind", "at the table", "best - next best (paired)"), rows)
    md += ["", "Expected value per round in antes (n P(win) - 1) of one player using each strategy at 4 players, "
           "the others blind or playing the equilibrium table:", ""]
    md += md_table(("strategy", "vs blind", "vs the table"),
                   [[name] + [signed(e) for e in evs] for name, evs in data["evs"].items()])
    md.append("")
    return md


def _row_estimate(row, col: str) -> Estimate:
    return Estimate(float(row[col]), float(row.get(col + "_se", 0.0)), float(row[col + "_lo"]),
                    float(row[col + "_hi"]), 1)


def _row_est(row, col: str) -> str:
    return est(_row_estimate(row, col))


def _row_signed(row, col: str) -> str:
    return signed(_row_estimate(row, col))


# ---- peek-all ----------------------------------------------------------------------------------
def _peek_all_data(n: dict, seeds, progress: bool) -> dict:
    rows, equilibrium, keep, tables = [], {}, None, {}
    for p in (3, 4):
        for opp in ("blind", "table"):
            t = strategy_table("peek-all", p, opponents=opp, samples=n["all"], rng=next(seeds), progress=progress)
            counts = t.rows["action"].value_counts()
            ev = t.ev_vs_blind if opp == "blind" else t.ev_at_table
            rows.append((p, opp, counts.get("low", 0), counts.get("middle", 0), counts.get("high", 0), signed(ev, 3)))
            if opp == "table":
                tables[p] = t
                equilibrium[f"peek-all/{p}"] = table_entry(t)
                if p == 4:
                    keep = t.rows.loc[SELECTED_HANDS]
    evs = {name: [expected_value(name, 4, "peek-all", opponents=opp, samples=n["tab"], rng=next(seeds),
                                 progress=progress) for opp in ("blind", "table")]
           for name in PEEK_ALL_STRATEGIES}
    return {"rows": rows, "equilibrium": equilibrium, "selected": keep, "evs": evs, "tables": tables}


def _peek_all_table(data: dict, n: dict) -> list[str]:
    md = ["## Peek-all: the best känä for every hand", "",
          f"Each player sees all three cards. Best response to blind players and equilibrium ({n['all']:,} rounds a "
          "step); counts of the 455 rank combinations by the card to känä:", ""]
    md += md_table(("players", "opponents", "känä lowest", "middle", "highest", "EV (antes) of the table"),
                   data["rows"])
    md += ["", "Expected value per round in antes of one player using each named strategy at 4 players:", ""]
    md += md_table(("strategy", "vs blind", "vs the table"),
                   [[name] + [signed(e) for e in evs] for name, evs in data["evs"].items()])
    md += ["", "Selected hands at 4 players (equilibrium):", ""]
    md += md_table(("hand", "känä", "win at the table"),
                   [(key, row["action"], _row_est(row, "at_table")) for key, row in data["selected"].iterrows()])
    built = {p: b for p, b in data["built"].items() if b is not None}
    if built:
        b = next(iter(built.values()))
        md += ["", f"The web page's lookup also answers peek-all at {_and(built)} players from the tables shipped "
               f"with the package (`cardodds/kana/{BUILT_FILE}`, built once, not by this report: "
               f"`python -m cardodds.kana.equilibrium --build peek-all {','.join(map(str, built))}`, seed {b.seed}, "
               f"{b.samples:,} rounds a step, each hand's P(win) and margin from {b.rows_samples:,} rounds)."]
    md.append("")
    return md


def _and(items) -> str:
    """``2, 5 and 6``."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# ---- the web page's lookup ----------------------------------------------------------------------
def _lookup_data(peek_one: dict, peek_all: dict, seed: int) -> dict:
    """For each variant and player count, each key's row of the equilibrium table: the key
    (peeked rank or rank combination), its action, P(win) at the table, the paired margin
    over the next best action (printed as in the markdown) and whether that margin's interval
    excludes 0 (the action is better at this precision). The tables are this report's, and
    for the peek-all player counts it does not compute, the ones built and shipped with the
    package (``built``); ``source`` says where each table comes from."""
    def rows(t) -> list:
        return [[key, row["action"], _row_est(row, "at_table"), _row_signed(row, "diff"),
                 not _row_estimate(row, "diff").contains_zero()] for key, row in t.rows.iterrows()]

    def built_rows(b) -> list:
        return [[key, action, est(win), signed(margin), not margin.contains_zero()]
                for key, action, win, margin in b.rows]

    data: dict = {"ranks": RANKS, "built": [], "source": {}}
    for variant, d in (("peek-one", peek_one), ("peek-all", peek_all)):
        data[variant] = {str(p): rows(t) for p, t in d["tables"].items()}
        data["source"][variant] = {str(p): f"this report's table (seed {seed}, {t.samples:,} rounds a step)"
                                   for p, t in d["tables"].items()}
        for p, b in d.get("built", {}).items():
            if b is not None:
                data[variant][str(p)] = built_rows(b)
                data["source"][variant][str(p)] = (
                    f"the table shipped with the package (seed {b.seed}, {b.samples:,} rounds a step; "
                    f"P(win) and margin from {b.rows_samples:,} rounds)")
                data["built"].append(f"{variant}/{p}")
    return data
