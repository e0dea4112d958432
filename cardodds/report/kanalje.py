"""The Kanalje section of the reports: jack risk by player strength, holder-takes tables,
score distributions, strength matches and the game to 21, for three players and for the
two-player game (``reports/kanalje.md``).

Each part has a data function (the simulations), table functions (markdown) and chart
functions (matplotlib figures); the formatting helpers are shared with the other sections.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .. import __version__
from ..kanalje import KanaljeRules, game, jack_risk, strength
from ..kanalje.analysis import JACK_ORDER
from ..rng import child
from ..stats import Estimate
from ._common import STYLE, Stages, est, figure, label, md_table, page_data, plt, samples, save
from .kanalje_advice import advice_data, advice_tables

LINEUPS = ("random", "heuristic", "lookahead")
LOOKAHEAD_SAMPLES = 16
#: All-pimc deals of the three-player jack risk at ``--scale 1`` (about 50 pimc decisions a deal).
PIMC_DEALS = 320
DPI = 100
#: The all-pimc jack risk run is seeded with ``child(SeedSequence(seed), PIMC_KEY)``: a spawn key
#: no earlier run uses (they are seeded with ``seed`` itself), so every other figure stays as it was.
PIMC_KEY = 2000
#: Rows of the holder-by-length comparison need this many all-pimc deals.
PIMC_LEAST = 20


def _fmt(e, d=3) -> str:
    return est(e, d)


def _jack(suit: str) -> str:
    return f"J{suit[0]}"


def write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool = False) -> Path:
    outdir = Path(outdir)
    stage = Stages("kanalje", 8, log)
    with plt().rc_context(STYLE):
        three = _three_data(seed, scale, progress, stage)
        for name, fig in _three_charts(three).items():
            save(fig, outdir / name, dpi=DPI)
        two = _two_data(seed, scale, progress, stage)
        save(_faceup_chart(two), outdir / "kanalje2_faceup.png", dpi=DPI)
    stage("three players: jack risk, all pimc")
    three["pimc"] = jack_risk("pimc", rules=three["rules"], samples=samples(PIMC_DEALS, scale, 8, task=2),
                              rng=child(np.random.SeedSequence(seed), PIMC_KEY), lookahead_samples=LOOKAHEAD_SAMPLES,
                              progress=progress, check=True)
    stage("three players: advice on hand-built positions")
    advice = advice_data(seed, scale, progress)
    lines = _three_tables(three, seed) + advice_tables(advice) + _two_tables(two)
    page_data(outdir, "kanalje", _lookup_data(three))
    path = outdir / "kanalje.md"
    path.write_text("\n".join(lines))
    return path


# ---- data ---------------------------------------------------------------------------------------
def _data(rules, seed, scale, progress, stage, *, lookahead_deals, matches, games, players: str) -> dict:
    sizes = {"random": samples(400_000, scale, 2_000), "heuristic": samples(400_000, scale, 2_000),
             "lookahead": lookahead_deals}
    stage(f"{players}: jack risk, all random / heuristic / lookahead")
    risks = {p: jack_risk(p, rules=rules, samples=sizes[p], rng=seed, lookahead_samples=LOOKAHEAD_SAMPLES,
                          progress=progress) for p in LINEUPS}
    stage(f"{players}: strength matches on the same deals")
    played = [strength(a, b, rules=rules, samples=n, rng=seed, lookahead_samples=LOOKAHEAD_SAMPLES,
                       progress=progress) for a, b, n in matches]
    stage(f"{players}: the game to {rules.target}")
    finished = [game(lineup, rules=rules, samples=n, rng=seed, lookahead_samples=LOOKAHEAD_SAMPLES,
                     progress=progress) for lineup, n in games]
    return {"rules": rules, "risks": risks, "matches": played, "games": finished}


def _three_data(seed, scale, progress, stage) -> dict:
    return _data(KanaljeRules(), seed, scale, progress, stage, players="three players",
                 lookahead_deals=samples(6_000, scale, 24),
                 matches=[("heuristic", "random", samples(100_000, scale, 500)),
                          ("lookahead", "heuristic", samples(3_000, scale, 16)),
                          ("lookahead", "random", samples(3_000, scale, 16))],
                 games=[("heuristic", samples(20_000, scale, 200)),
                        ("random,heuristic,lookahead", samples(2_000, scale, 8))])


def _two_data(seed, scale, progress, stage) -> dict:
    return _data(KanaljeRules(players=2), seed, scale, progress, stage, players="two players",
                 lookahead_deals=samples(2_000, scale, 16),
                 matches=[("heuristic", "random", samples(100_000, scale, 500)),
                          ("lookahead", "heuristic", samples(1_000, scale, 8))],
                 games=[("heuristic", samples(20_000, scale, 200)),
                        ("random,heuristic", samples(20_000, scale, 200))])


# ---- tables shared by both player counts -----------------------------------------------------------
def _match_table(matches) -> list[str]:
    return md_table(("A", "B", "deals", "A's mean score", "B's mean score", "advantage (points a deal)"),
                    [(m.a, m.b, f"{m.samples:,}", f"{m.mean_a:.3f}", f"{m.mean_b:.3f}",
                      _fmt(m.points)) for m in matches], align="llrrrl")


def _game_table(games, players: int) -> list[str]:
    return md_table(["lineup", "games"] + [f"seat {s} wins" for s in range(players)] + ["deals a game"],
                    [["/".join(g.policies), f"{g.samples:,}"] + [_fmt(e) for e in g.win] + [_fmt(g.mean_deals, 2)]
                     for g in games], align="lr" + "l" * (players + 1))


def _holder_by_length(tab, trump: bool):
    """P(holder takes own jack) by length in the suit (all jacks), with its 95% half-width."""
    rows = tab[tab["trump"] == trump]
    sub = rows.groupby("length")[["deals"]].sum()
    taken = rows.assign(k=lambda d: d["holder_takes"] * d["deals"]).groupby("length")["k"].sum()
    sub = sub[sub["deals"] >= 50]
    p = (taken.loc[sub.index] / sub["deals"]).to_numpy()
    se = np.sqrt(p * (1 - p) / sub["deals"].to_numpy())
    return sub.index, p, 1.96 * se


# ---- three players ---------------------------------------------------------------------------------
def _three_charts(data: dict) -> dict:
    return {"kanalje_holder_takes.png": _holder_takes_chart(data),
            "kanalje_holder_by_length.png": _by_length_chart(data),
            "kanalje_scores.png": _scores_chart(data),
            "kanalje_game.png": _game_chart(data)}


def _holder_takes_chart(data: dict):
    rules, risks = data["rules"], data["risks"]
    fig, ax = figure((7, 3.5))
    x = np.arange(4)
    for i, p in enumerate(LINEUPS):
        es = [risks[p].holder_takes(s) for s in JACK_ORDER]
        v = np.array([e.value for e in es])
        err = np.array([[e.value - e.lo for e in es], [e.hi - e.value for e in es]])
        ax.bar(x + (i - 1) * 0.27, v, 0.27, yerr=err, capsize=2, label=f"all {p}")
    ax.set_xticks(x, [f"{_jack(s)} (-{rules.jack_penalty(s)})" for s in JACK_ORDER])
    label(ax, "jack (penalty)", "P(dealt holder takes it)", "Who is stuck with their own jack, by player strength")
    return fig


def _by_length_chart(data: dict):
    tab = data["risks"]["heuristic"].holder_table()
    fig, ax = figure((7, 3.5))
    for trump, suit in ((False, "side suit"), (True, "trump suit")):
        length, p, err = _holder_by_length(tab, trump)
        ax.errorbar(length, p, yerr=err, marker="o", capsize=2, label=suit)
    label(ax, "holder's length in the jack's suit (cards dealt)", "P(holder takes own jack)",
          "All-heuristic table, all four jacks", integer_x=True)
    return fig


def _scores_chart(data: dict):
    fig, ax = figure((7, 3.5))
    for p in LINEUPS:
        dist = data["risks"][p].score_distribution(0)
        ax.plot(list(dist), [e.value for e in dist.values()], marker=".", label=f"all {p}")
    label(ax, "seat 0's score in a deal (points)", "probability", "Seat 0's score distribution, by player strength",
          integer_x=True)
    return fig


def _game_chart(data: dict):
    games = data["games"]
    fig, ax = figure((7, 3.4))
    labels = []
    for i, g in enumerate(games):
        es = g.win
        pos = np.arange(3) + 4 * i
        ax.bar(pos, [e.value for e in es], yerr=np.array([[e.value - e.lo, e.hi - e.value] for e in es]).T,
               capsize=2, color=f"C{i}", label="/".join(g.policies))
        labels += [f"seat {s}\n{g.policies[s]}" for s in range(3)]
    ax.set_xticks([p for i in range(len(games)) for p in np.arange(3) + 4 * i], labels, fontsize=7)
    label(ax, "seat and its player, by lineup", "P(wins the game to 21)", "The game to 21: each seat's chance to win")
    return fig


def _three_tables(data: dict, seed: int) -> list[str]:
    rules, risks = data["rules"], data["risks"]
    L = ["# Kanalje (three players)", "",
         f"Rules: docs/rules/kanalje.md, `{rules!r}`. cardodds {__version__}, seed {seed}. "
         "Seats are numbered clockwise from the player left of the dealer: seat 0 leads the first trick. "
         "Every figure carries its 95% interval.", "",
         "Players: `random` (a uniformly random legal card), `heuristic` (the documented rule-based "
         "player of `cardodds.kanalje.policies`), `lookahead` (samples the unseen cards consistently with "
         f"the play so far, {LOOKAHEAD_SAMPLES} worlds a decision, plays each legal card out with the heuristic).", "",
         "## Strength: paired matches on the same deals", "",
         "Each deal is played with B in every seat and with A in seat 0, 1, 2 in turn; the advantage is A's "
         "score minus B's in the same seat, per deal.", ""]
    L += _match_table(data["matches"])
    L += ["", "## Jack risk", "", "![holder takes own jack](kanalje_holder_takes.png)", ""]
    for p in LINEUPS:
        L += _risk_lines(rules, risks[p], p)
    tab = risks["heuristic"].holder_table()
    L += ["### Holder takes own jack, by length in the suit and trump (all heuristic)", "",
          "![by length](kanalje_holder_by_length.png)", "",
          "Rows with at least 1,000 deals.", ""]
    L += md_table(("jack", "trump", "length", "deals", "P(holder takes it)"),
                  [(f"J{row['jack'][0]}", "yes" if row["trump"] else "no", row["length"], f"{row['deals']:,}",
                    f"{row['holder_takes']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]")
                   for _, row in tab[tab["deals"] >= 1000].iterrows()], align="llrrl")
    L += [""] + _pimc_lines(data)
    L += ["## Score distributions", "", "![scores](kanalje_scores.png)", ""]
    L += md_table(("lineup", "seat 0 P(score <= 0)"),
                  [(f"all {p}", f"{sum(e.value for v, e in risks[p].score_distribution(0).items() if v <= 0):.3f}")
                   for p in LINEUPS])
    L += ["", "## The game to 21", "",
          "Highest total once somebody has 21 wins; a tie at the top plays another deal; the deal passes "
          "clockwise, seat 2 dealing first.", "", "![game](kanalje_game.png)", ""]
    L += _game_table(data["games"], 3)
    L.append("")
    return L


def _risk_lines(rules, r, p: str) -> list[str]:
    """One lineup's jack risk: who takes each jack, and each seat's mean score."""
    L = [f"### All players `{p}` ({r.samples:,} deals)", ""]
    L += md_table(("jack", "penalty", "seat 0 takes", "seat 1 takes", "seat 2 takes", "out of play",
                   "holder takes own", "trick's leader takes"),
                  [[_jack(s), f"-{rules.jack_penalty(s)}"] + [_fmt(e) for e in r.taken_by_seat(s)]
                   + [_fmt(r.out_of_play(s)), _fmt(r.holder_takes(s)), _fmt(r.leader_takes(s))]
                   for s in JACK_ORDER], align="lrllllll")
    L += [""] + md_table(("seat", "mean score", "mean penalty", "mean tricks"),
                         [(seat, _fmt(r.mean_score[seat]), _fmt(r.mean_penalty[seat]), _fmt(r.mean_tricks[seat]))
                          for seat in range(3)])
    L += ["", f"Mean deal total {_fmt(r.mean_total)} (exact: 7 + 10/52 = {7 + 10 / 52:.4f}, the turned jack "
          "being paid by nobody).", ""]
    return L


def _holder_counts(tab, trump: bool) -> dict:
    """(deals, times the holder took its own jack) by length in the suit, all four jacks."""
    rows = tab[tab["trump"] == trump]
    taken = (rows["holder_takes"] * rows["deals"]).round().astype(int)
    return {int(n): (int(rows["deals"][rows["length"] == n].sum()), int(taken[rows["length"] == n].sum()))
            for n in sorted(rows["length"].unique())}


def _pimc_lines(data: dict) -> list[str]:
    """The strongest player beside the heuristic: jack risk and holder-takes by length, all pimc."""
    rules, risks, strong = data["rules"], data["risks"], data["pimc"]
    heur = risks["heuristic"]
    L = ["### Under the strongest player: all `pimc`", "",
         f"`pimc` at every seat (perfect-information Monte Carlo, {LOOKAHEAD_SAMPLES} worlds a decision, the last "
         "tricks of every world solved exactly; it beats `lookahead` head to head: docs/kanalje.md). It is slow "
         f"(about 50 decisions a deal), so these figures rest on {strong.samples:,} deals only against "
         f"{heur.samples:,} for the heuristic: their intervals are several times wider.", ""]
    L += _risk_lines(rules, strong, "pimc")
    L += [f"Card conservation and each deal's total were checked on every all-pimc deal: {strong.violations} "
          "violations (with this few deals the mean total's interval misses the exact value now and then).", ""]
    L += ["Holder takes own jack and the trick's leader takes it, side by side:", ""]
    L += md_table(("jack", "penalty", "holder takes own: all heuristic", "all lookahead", "all pimc",
                   "leader takes: all heuristic", "all pimc"),
                  [[_jack(s), f"-{rules.jack_penalty(s)}", _fmt(heur.holder_takes(s)),
                    _fmt(risks["lookahead"].holder_takes(s)), _fmt(strong.holder_takes(s)),
                    _fmt(heur.leader_takes(s)), _fmt(strong.leader_takes(s))] for s in JACK_ORDER],
                  align="lrlllll")
    L += ["", f"P(holder takes own jack) by length in the suit and trump, all four jacks together; rows with at "
          f"least {PIMC_LEAST} all-pimc deals:", ""]
    rows = []
    for trump in (False, True):
        h, p = _holder_counts(heur.holder_table(), trump), _holder_counts(strong.holder_table(), trump)
        for n, (deals, taken) in p.items():
            if deals >= PIMC_LEAST and n in h:
                rows.append(("yes" if trump else "no", n, f"{h[n][0]:,}", _fmt(Estimate.proportion(h[n][1], h[n][0])),
                             f"{deals:,}", _fmt(Estimate.proportion(taken, deals))))
    if rows:
        L += md_table(("trump", "length", "heuristic deals", "all heuristic", "pimc deals", "all pimc"), rows,
                      align="lrrlrl")
    else:
        L.append(f"(No length has {PIMC_LEAST} all-pimc deals at this scale.)")
    L.append("")
    return L


# ---- two players -----------------------------------------------------------------------------------
def _faceup_chart(data: dict):
    """P(the trick's leader takes the face-up card) by its rank, per lineup."""
    risks = data["risks"]
    fig, ax = figure((7, 3.5))
    for i, p in enumerate(LINEUPS):
        es = list(risks[p].faceup_leader_takes("rank").values())
        err = np.array([[e.value - e.lo for e in es], [e.hi - e.value for e in es]])
        ax.errorbar(np.arange(13) + (i - 1) * 0.15, [e.value for e in es], yerr=err, marker="o", capsize=2,
                    linestyle="-", label=f"both {p}")
    ax.set_xticks(np.arange(13), list(risks["random"].faceup_leader_takes("rank")))
    label(ax, "rank of the face-up stock card", "P(leader wins it)", "Two players, phase 1: who takes the face-up card")
    return fig


def _two_tables(data: dict) -> list[str]:
    """The two-player game (docs/rules/kanalje.md §4): strength, jack risk, the face-up card, the game."""
    rules, risks = data["rules"], data["risks"]
    L = ["# Kanalje (two players)", "",
         f"Rules: docs/rules/kanalje.md §4, `{rules!r}`. Seat 0 is the non-dealer and leads phase 1; the winner of "
         "the last phase-1 trick leads phase 2, whose trump is the suit of a random phase-1 trick card. Phase-1 "
         "jacks cost the trick's winner. Scores per deal add up to 13 - 10 = 3.", "",
         "## Strength: paired matches on the same deals (two players)", "",
         "Each deal (hands, stock, phase-2 trump draw) is played with B in both seats and with A in seat 0 and "
         "1 in turn; the advantage is A's score minus B's in the same seat, per deal.", ""]
    L += _match_table(data["matches"])
    L += ["", "## Jack risk and scores (two players)", ""]
    for p in LINEUPS:
        r = risks[p]
        L += [f"### Both players `{p}` ({r.samples:,} deals)", ""]
        rows = []
        for s in JACK_ORDER:
            fj = r.faceup_jack(s)
            rows.append([_jack(s), f"-{rules.jack_penalty(s)}"] + [_fmt(e) for e in r.taken_by_seat(s)]
                        + [_fmt(fj["falls_in_phase1"]), _fmt(r.holder_takes(s)), _fmt(fj["taken_face_up"]),
                           _fmt(fj["taker_pays"]), _fmt(fj["cost"])])
        L += md_table(("jack", "penalty", "seat 0 takes", "seat 1 takes", "falls in phase 1", "holder takes own",
                       "taken face up", "face-up taker pays", "cost of taking it face up"), rows, align="lrlllllll")
        L += [""] + md_table(("seat", "mean score", "mean penalty", "phase-2 tricks", "phase-1 tricks won"),
                             [(seat, _fmt(r.mean_score[seat]), _fmt(r.mean_penalty[seat]), _fmt(r.mean_tricks[seat]),
                               _fmt(r.phase1_tricks[seat])) for seat in range(2)])
        L += ["", f"Mean deal total {_fmt(r.mean_total)} (exact: 3).", ""]
    L += ["## The face-up card", "",
          "The winner of a phase-1 trick takes the face-up stock card. P(the trick's leader wins it), by the "
          "card's rank and suit; the follower takes it otherwise.", "", "![face-up](kanalje2_faceup.png)", ""]
    for by in ("rank", "suit"):
        table = {p: risks[p].faceup_leader_takes(by) for p in LINEUPS}
        L += md_table([by] + [f"both {p}" for p in LINEUPS],
                      [[k] + [_fmt(table[p][k]) for p in LINEUPS] for k in table["random"]])
        L.append("")
    L += ["The cost of taking a jack face up is its penalty times the probability its taker ends up paying "
          "it (the jack tables above).", "",
          "## The game to 21 (two players)", "",
          "Seat 1 deals first (seat 0 leads the first phase 1); the deal alternates.", ""]
    L += _game_table(data["games"], 2)
    L.append("")
    return L


# ---- the web page's lookup ----------------------------------------------------------------------
def _lookup_data(data: dict) -> dict:
    """P(the dealt holder takes own jack) by jack, trump and length, for each three-player
    lineup: every holding seen (the markdown prints those seen in 1,000 deals or more)."""
    rules = data["rules"]
    lineups = {}
    for p in LINEUPS:
        tab = data["risks"][p].holder_table()
        lineups[p] = {"deals": data["risks"][p].samples,
                      "rows": [[row["jack"], int(row["trump"]), int(row["length"]), int(row["deals"]),
                                f"{row['holder_takes']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]"]
                               for _, row in tab.iterrows()]}
    return {"jacks": [[s, _jack(s), rules.jack_penalty(s)] for s in JACK_ORDER], "lineups": lineups}
