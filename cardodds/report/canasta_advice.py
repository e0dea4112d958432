"""Report section: Polish Canasta advice (``reports/canasta_advice.md`` and its chart).

Hand-built positions, each run through :func:`cardodds.canasta.advise` with every option
played out on the same sampled deals, and the strength ladder of the built-in players (each
pair on the same deals with the sides swapped, :func:`cardodds.canasta.strength`). Every
stream is a child of the report's seed under the key :data:`STREAM` (after every stream the
other sections draw), so adding this section changes no other figure.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import numpy as np

from .. import __version__
from ..canasta import CanastaRules, advise, strength
from ..canasta import Position
from ..canasta.advise import against_words
from ..rng import child
from ._common import Stages, figure, label, md_table, pct, samples, signed, write_section

#: The key of this section's streams under the report's seed (``child(seed, STREAM, i)``).
STREAM = 19


class Case(NamedTuple):
    """A hand-built position: its title, the keywords of its :class:`~cardodds.canasta.Position`
    and the reason an experienced player gives for the verdict."""

    key: str
    title: str
    position: dict
    reason: str


#: The positions, in the order they are shown (the tests hold each verdict).
CASES = (
    Case("rich_pile", "Taking a rich pile",
         dict(hand="A A 9 9 5 7 Q 4 6 8", melds="us: K K K; them: 8 8 8", pile="Jk Jk A A A ? ? 6 A",
              counts=(10, 9, 11), decision="take"),
         "a pile of two Jokers and three Aces under an Ace on top is worth taking with an A pair in hand: the "
         "pair, the top card and the pile make six Aces and two Jokers, a canasta's worth at once"),
    Case("close_discard", "A close choice between two discards",
         dict(hand="K K 9 9 5 6 Q Q Jk", melds="us: A A A; them: 8 8 8", pile="K", pile_size=6,
              counts=(10, 9, 11), decision="discard", options="5,6"),
         "a loose 5 and a loose 6, neither melded by anyone nor known in another hand, are worth the same to throw: "
         "no option is better"),
    Case("out_behind", "Going out while behind",
         dict(hand="Q Q Jk", melds="us: A A A A A 2; them: K K K K K K K", pile="7", pile_size=5,
              counts=(12, 12, 12), decision="out"),
         "behind without a canasta, our Ace meld one card short of one and every other player holding 12 cards: "
         "going out now scores our melds negative, staying in gives the canasta time"),
    Case("out_to_win", "Going out to win the game",
         dict(hand="K K K", melds="us: A A A A A A A; them: 8 8 8 8 8 8 8", pile="7", pile_size=5,
              counts=(10, 9, 11), decision="out", score=(9500, 9600)),
         "at 9,500 to 9,600, going out with a clean canasta down takes us past 10,000 ahead of them: go out and "
         "win the game now rather than give them turns"),
)

#: The strength ladder: each pair plays the same deals with the sides swapped.
LADDER = (("heuristic2", "heuristic"), ("heuristic2", "random"), ("heuristic", "random"), ("lookahead", "heuristic2"))
#: The look-ahead player plays out every option of its decisions on sampled worlds: its match
#: runs this many deal pairs at full scale (the others 20,000), marked in the chart and table.
LOOKAHEAD_PAIRS = 60


def write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool = False) -> Path:
    """Write ``canasta_advice.md`` and its chart into ``outdir``; returns the markdown's path."""
    outdir = Path(outdir)
    data = _data(seed, scale, progress, Stages("canasta_advice", 2, log))
    lines = _intro(data, seed) + _cases_tables(data) + _ladder_table(data)
    return write_section(outdir, "canasta_advice", data, (("canasta_advice_ladder.png", _ladder_chart),), lines)


# ---- data -------------------------------------------------------------------------------------
def _data(seed: int, scale: float, progress: bool, stage: Stages) -> dict:
    rules = CanastaRules()
    root = np.random.SeedSequence(seed)
    n_deals = samples(2_000, scale, 200)
    n_pairs = samples(20_000, scale, 200)
    n_look = samples(LOOKAHEAD_PAIRS, scale, 20, task=2)
    stage(f"{len(CASES)} hand-built positions, {n_deals:,} sampled deals each")
    advice = {c.key: advise(Position(**c.position, rules=rules), samples=n_deals, rng=child(root, STREAM, i),
                            progress=progress) for i, c in enumerate(CASES)}
    stage(f"strength ladder: {n_pairs:,} paired deals per pair of players ({n_look:,} with lookahead)")
    ladder = {(a, b): strength(a, b, rules=rules, samples=n_look if "lookahead" in (a, b) else n_pairs,
                               rng=child(root, STREAM, len(CASES) + i), progress=progress)
              for i, (a, b) in enumerate(LADDER)}
    return {"rules": rules, "n_deals": n_deals, "n_pairs": n_pairs, "n_look": n_look, "advice": advice,
            "ladder": ladder}


# ---- chart ------------------------------------------------------------------------------------
def _ladder_chart(data: dict):
    """Each pair's edge in points a hand with its 95% interval, one panel per pair (the
    scales differ by fifty times)."""
    fig, axes = figure((13, 2.6), ncols=len(LADDER))
    for ax, ((a, b), s) in zip(axes, data["ladder"].items()):
        e = s.points
        ax.errorbar([e.value], [0], xerr=[[e.value - e.lo], [e.hi - e.value]], fmt="o", capsize=4, color="C0")
        ax.axvline(0, color="k", lw=0.8)
        ax.set_yticks([])
        lo, hi = min(0.0, e.lo), max(0.0, e.hi)
        pad = 0.15 * (hi - lo)
        ax.set_xlim(lo - pad, hi + pad)
        small = ": a small match" if "lookahead" in (a, b) else ""
        label(ax, "A minus B, points a hand", "A's edge", f"A = {a}, B = {b}\n({s.pairs:,} deal pairs{small})",
              legend=None)
    fig.suptitle(f"Strength ladder, paired ({data['n_pairs']:,} deals a match, {data['n_look']:,} with lookahead; "
                 "each deal played with the sides swapped; 95% intervals)")
    return fig


# ---- tables -----------------------------------------------------------------------------------
def _intro(data: dict, seed: int) -> list[str]:
    return ["# Polish Canasta advice", "",
            (f"cardodds {__version__}, seed {seed}. Each position is given as the player at seat 0 knows it and run "
             f"through `cardodds.canasta.advise`: {data['n_deals']:,} deals of the hidden cards consistent with it, "
             "every option played out to the end of the hand on the same deals by the advisor's default players, "
             f"`{_players(data)}` at every seat (paired). For each option: our side's margin this hand in points "
             "(our hand score minus theirs), P(our side ahead at the end of the hand), P(we win the game) after the "
             "hand when the game score is given (1 or 0 where the hand ends the game, else the game equity table's at "
             "the totals it leaves), and what it loses against the best (paired). The options are ranked by "
             "P(we win the game) when the game score is given, else by points; the verdict (`cardodds.verdict`, one "
             "look at these deals) names the best when its simultaneous intervals show it beats every other option, "
             "options within 25 points (one percentage point of P(win)) of each other equal, else no option better "
             "at this precision. Rules: docs/rules/canasta.md with the defaults; "
             "95% intervals in brackets."), ""]


def _players(data: dict) -> str:
    return ",".join(sorted({p for a in data["advice"].values() for p in a.policies}))


def _position_words(p: dict) -> str:
    words = [f"hand `{p['hand']}`", f"melds `{p['melds']}`",
             f"pile `{p['pile']}`" + (f" of {p['pile_size']} cards" if "pile_size" in p else ""),
             "other hands " + ", ".join(str(c) for c in p["counts"]) + " cards"]
    if "score" in p:
        words.append(f"game score {p['score'][0]:,} to {p['score'][1]:,}")
    if "options" in p:
        words.append(f"options `{p['options']}`")
    return "; ".join(words)


def _cases_tables(data: dict) -> list[str]:
    lines = ["## Hand-built positions and their verdicts", ""]
    for c in CASES:
        a = data["advice"][c.key]
        win_game = a.figures.get("equity")
        game = win_game is not None
        rows = []
        for i, o in enumerate(a.options):
            rows.append((o, signed(a.figures["margin"][i], 1), pct(a.figures["ahead"][i], 1))
                        + ((pct(win_game[i], 1),) if game else ()) + (against_words(a, i),))
        header = (("option", "our margin this hand, points", "P(our side ahead)")
                  + ("P(win the game) after the hand",) * game + ("against the best",))
        ranked = "P(we win the game) after the hand" if a.ranked_by == "equity" else "points"
        verdict = a.verdict.removeprefix("best: ")
        lines += ([f"### {c.title}", "", f"Decision `{a.position.decision}`: {_position_words(c.position)}. Ranked by "
                   f"{ranked}.", ""]
                  + md_table(header, rows, align="l" + "r" * (len(header) - 1))
                  + ["", f"*Verdict: {verdict}.* Why: {c.reason}.", ""])
    return lines


def _ladder_table(data: dict) -> list[str]:
    rows = [(f"{a} vs {b}", signed(s.points, 1) + (" (no difference at this precision)"
                                                   if s.points.contains_zero() else ""), pct(s.better, 1))
            + (f"{s.pairs:,}" + (" (lookahead: a small match)" if "lookahead" in (a, b) else ""),)
            for (a, b), s in data["ladder"].items()]
    return (["## The players behind the verdicts: the strength ladder", "",
             "![strength ladder](canasta_advice_ladder.png)", ""]
            + md_table(("A vs B", "A's edge, points a hand", "A's side better over the pair", "deal pairs"), rows,
                       align="lrrr")
            + ["", ("Each deal is played twice from the same random stream, A at seats 0+2 then at seats 1+3, so the "
                    "luck of the deal cancels (`cardodds canasta strength A B`). The look-ahead player plays "
                    "out every option of its take, discard and go-out decisions on 16 sampled worlds, so its match "
                    "here is small; the full ladder (50,000 pairs a match, 1,000 with lookahead, and whole games to "
                    "10,000) is `python benchmarks/canasta_ladder.py`."), ""])
