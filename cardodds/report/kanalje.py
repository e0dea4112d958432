"""The Kanalje section of the reports: jack risk by player strength, holder-takes tables,
score distributions, strength matches and the game to 21, for three players and for the
two-player game (``reports/kanalje.md``)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .. import __version__  # noqa: E402
from ..kanalje import KanaljeRules, game_odds, jack_risk, strength_match  # noqa: E402
from ..kanalje.analysis import JACK_ORDER  # noqa: E402

LINEUPS = ("random", "heuristic", "lookahead")
LOOKAHEAD_SAMPLES = 16


def _n(base: int, scale: float, least: int) -> int:
    return max(int(base * scale), least)


def _save(fig, path: Path) -> None:
    fig.tight_layout()
    fig.savefig(path, dpi=100, metadata={"Software": None})
    plt.close(fig)


def _fmt(e, d=3) -> str:
    return e.format(d)


def write(outdir: Path, *, seed: int, scale: float, progress: bool) -> Path:
    outdir = Path(outdir)
    rules = KanaljeRules()
    sizes = {"random": _n(400_000, scale, 2_000), "heuristic": _n(400_000, scale, 2_000),
             "lookahead": _n(6_000, scale, 24)}
    risks = {p: jack_risk(p, rules=rules, samples=sizes[p], rng=seed, lookahead_samples=LOOKAHEAD_SAMPLES,
                          progress=progress) for p in LINEUPS}
    matches = [
        strength_match("heuristic", "random", samples=_n(100_000, scale, 500), rng=seed, progress=progress),
        strength_match("lookahead", "heuristic", samples=_n(3_000, scale, 16), rng=seed,
                       lookahead_samples=LOOKAHEAD_SAMPLES, progress=progress),
        strength_match("lookahead", "random", samples=_n(3_000, scale, 16), rng=seed,
                       lookahead_samples=LOOKAHEAD_SAMPLES, progress=progress),
    ]
    games = [
        game_odds("heuristic", rules=rules, samples=_n(20_000, scale, 200), rng=seed, progress=progress),
        game_odds("random,heuristic,lookahead", rules=rules, samples=_n(2_000, scale, 8), rng=seed,
                  lookahead_samples=LOOKAHEAD_SAMPLES, progress=progress),
    ]

    # Chart 1: P(holder takes own jack) per jack, by lineup.
    fig, ax = plt.subplots(figsize=(7, 3.5))
    x = np.arange(4)
    for i, p in enumerate(LINEUPS):
        es = [risks[p].holder_takes(s) for s in JACK_ORDER]
        v = np.array([e.value for e in es])
        err = np.array([[e.value - e.lo for e in es], [e.hi - e.value for e in es]])
        ax.bar(x + (i - 1) * 0.27, v, 0.27, yerr=err, capsize=2, label=f"all {p}")
    ax.set_xticks(x, [f"J{s[0]} (-{rules.jack_penalty(s)})" for s in JACK_ORDER])
    ax.set_ylabel("P(dealt holder takes it)")
    ax.set_title("Who is stuck with their own jack, by player strength")
    ax.legend(fontsize=8)
    _save(fig, outdir / "kanalje_holder_takes.png")

    # Chart 2: holder takes own jack by length in the suit, trump or not (heuristic, all jacks).
    tab = risks["heuristic"].holder_table()
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for tr, label in ((False, "side suit"), (True, "trump suit")):
        sub = tab[tab["trump"] == tr].groupby("length")[["deals"]].sum()
        taken = tab[tab["trump"] == tr].assign(k=lambda d: d["holder_takes"] * d["deals"]).groupby("length")["k"].sum()
        sub = sub[sub["deals"] >= 50]
        p = (taken.loc[sub.index] / sub["deals"]).to_numpy()
        se = np.sqrt(p * (1 - p) / sub["deals"].to_numpy())
        ax.errorbar(sub.index, p, yerr=1.96 * se, marker="o", capsize=2, label=label)
    ax.set_xlabel("holder's length in the jack's suit (cards dealt)")
    ax.set_ylabel("P(holder takes own jack)")
    ax.set_title("All-heuristic table, all four jacks")
    ax.legend(fontsize=8)
    _save(fig, outdir / "kanalje_holder_by_length.png")

    # Chart 3: score distribution of seat 0 by lineup.
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for i, p in enumerate(LINEUPS):
        dist = risks[p].score_distribution(0)
        ax.plot(list(dist), [e.value for e in dist.values()], marker=".", label=f"all {p}")
    ax.set_xlabel("seat 0's score in a deal")
    ax.set_ylabel("probability")
    ax.legend(fontsize=8)
    _save(fig, outdir / "kanalje_scores.png")

    # Chart 4: game win rates.
    fig, ax = plt.subplots(figsize=(7, 3))
    labels = []
    for i, g in enumerate(games):
        es = g.win
        pos = np.arange(3) + 4 * i
        ax.bar(pos, [e.value for e in es], yerr=np.array([[e.value - e.lo, e.hi - e.value] for e in es]).T,
               capsize=2, color=f"C{i}", label="/".join(g.policies))
        labels += [f"seat {s}\n{g.policies[s]}" for s in range(3)]
    ax.set_xticks([p for i in range(len(games)) for p in np.arange(3) + 4 * i], labels, fontsize=7)
    ax.set_ylabel("P(wins the game to 21)")
    ax.legend(fontsize=8)
    _save(fig, outdir / "kanalje_game.png")

    L = ["# Kanalje (three players)", "",
         f"Rules: RULES.md 2.1, `{rules!r}`. cardodds {__version__}, seed {seed}. "
         "Seats are numbered clockwise from the player left of the dealer: seat 0 leads the first trick. "
         "Every figure carries its 95% interval.", "",
         "Players: `random` (a uniformly random legal card), `heuristic` (the documented rule-based "
         "player of `cardodds.kanalje.policies`), `lookahead` (samples the unseen cards consistently with "
         f"the play so far, {LOOKAHEAD_SAMPLES} worlds a decision, plays each legal card out with the heuristic).", "",
         "## Strength: paired matches on the same deals", "",
         "Each deal is played with B in every seat and with A in seat 0, 1, 2 in turn; the advantage is A's "
         "score minus B's in the same seat, per deal.", "",
         "| A | B | deals | A's mean score | B's mean score | advantage (points a deal) |", "|---|---|---:|---:|---:|---|"]
    for m in matches:
        L.append(f"| {m.policy_a} | {m.policy_b} | {m.samples:,} | {m.mean_a:.3f} | {m.mean_b:.3f} | "
                 f"{_fmt(m.advantage)} |")
    L += ["", "## Jack risk", "", "![holder takes own jack](kanalje_holder_takes.png)", ""]
    for p in LINEUPS:
        r = risks[p]
        L += [f"### All players `{p}` ({r.samples:,} deals)", "",
              "| jack | penalty | seat 0 takes | seat 1 takes | seat 2 takes | out of play | holder takes own | "
              "trick's leader takes |", "|---|---:|---|---|---|---|---|---|"]
        for s in JACK_ORDER:
            by = " | ".join(_fmt(e) for e in r.taken_by_seat(s))
            L.append(f"| J{s[0]} | -{rules.jack_penalty(s)} | {by} | {_fmt(r.out_of_play(s))} | "
                     f"{_fmt(r.holder_takes(s))} | {_fmt(r.leader_takes(s))} |")
        L += ["", "| seat | mean score | mean penalty | mean tricks |", "|---|---|---|---|"]
        for seat in range(3):
            L.append(f"| {seat} | {_fmt(r.mean_score[seat])} | {_fmt(r.mean_penalty[seat])} | "
                     f"{_fmt(r.mean_tricks[seat])} |")
        L += ["", f"Mean deal total {_fmt(r.mean_total)} (exact: 7 + 10/52 = {7 + 10 / 52:.4f}, the turned jack "
              "being paid by nobody).", ""]
    L += ["### Holder takes own jack, by length in the suit and trump (all heuristic)", "",
          "![by length](kanalje_holder_by_length.png)", "",
          "Rows with at least 1,000 deals.", "",
          "| jack | trump | length | deals | P(holder takes it) |", "|---|---|---:|---:|---|"]
    for _, row in tab[tab["deals"] >= 1000].iterrows():
        L.append(f"| J{row['jack'][0]} | {'yes' if row['trump'] else 'no'} | {row['length']} | {row['deals']:,} | "
                 f"{row['holder_takes']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}] |")
    L += ["", "## Score distributions", "", "![scores](kanalje_scores.png)", "",
          "| lineup | seat 0 P(score <= 0) |", "|---|---|"]
    for p in LINEUPS:
        d = risks[p].score_distribution(0)
        L.append(f"| all {p} | {sum(e.value for v, e in d.items() if v <= 0):.3f} |")
    L += ["", "## The game to 21", "",
          "Highest total once somebody has 21 wins; a tie at the top plays another deal; the deal passes "
          "clockwise, seat 2 dealing first.", "", "![game](kanalje_game.png)", "",
          "| lineup | games | seat 0 wins | seat 1 wins | seat 2 wins | deals a game |", "|---|---:|---|---|---|---|"]
    for g in games:
        L.append(f"| {'/'.join(g.policies)} | {g.samples:,} | " + " | ".join(_fmt(e) for e in g.win)
                 + f" | {_fmt(g.mean_deals, 2)} |")
    L.append("")
    L += _two_players(outdir, seed=seed, scale=scale, progress=progress)
    path = outdir / "kanalje.md"
    path.write_text("\n".join(L))
    return path


def _two_players(outdir: Path, *, seed: int, scale: float, progress: bool) -> list[str]:
    """The two-player game (RULES.md 2.2): strength, jack risk, the face-up card, the game."""
    rules = KanaljeRules(players=2)
    sizes = {"random": _n(400_000, scale, 2_000), "heuristic": _n(400_000, scale, 2_000),
             "lookahead": _n(2_000, scale, 16)}
    risks = {p: jack_risk(p, rules=rules, samples=sizes[p], rng=seed, lookahead_samples=LOOKAHEAD_SAMPLES,
                          progress=progress) for p in LINEUPS}
    matches = [
        strength_match("heuristic", "random", rules=rules, samples=_n(100_000, scale, 500), rng=seed,
                       progress=progress),
        strength_match("lookahead", "heuristic", rules=rules, samples=_n(1_000, scale, 8), rng=seed,
                       lookahead_samples=LOOKAHEAD_SAMPLES, progress=progress),
    ]
    games = [game_odds("heuristic", rules=rules, samples=_n(20_000, scale, 200), rng=seed, progress=progress),
             game_odds("random,heuristic", rules=rules, samples=_n(20_000, scale, 200), rng=seed, progress=progress)]

    # Chart: P(the trick's leader takes the face-up card) by its rank, per lineup.
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for i, p in enumerate(LINEUPS):
        d = risks[p].faceup_leader_takes("rank")
        es = list(d.values())
        err = np.array([[e.value - e.lo for e in es], [e.hi - e.value for e in es]])
        ax.errorbar(np.arange(13) + (i - 1) * 0.15, [e.value for e in es], yerr=err, marker="o", capsize=2,
                    linestyle="-", label=f"both {p}")
    ax.set_xticks(np.arange(13), list(risks["random"].faceup_leader_takes("rank")))
    ax.set_xlabel("rank of the face-up stock card")
    ax.set_ylabel("P(leader wins it)")
    ax.set_title("Two players, phase 1: who takes the face-up card")
    ax.legend(fontsize=8)
    _save(fig, outdir / "kanalje2_faceup.png")

    L = ["# Kanalje (two players)", "",
         f"Rules: RULES.md 2.2, `{rules!r}`. Seat 0 is the non-dealer and leads phase 1; the winner of the last "
         "phase-1 trick leads phase 2, whose trump is the suit of a random phase-1 trick card. Phase-1 jacks cost "
         "the trick's winner. Scores per deal add up to 13 - 10 = 3.", "",
         "## Strength: paired matches on the same deals (two players)", "",
         "Each deal (hands, stock, phase-2 trump draw) is played with B in both seats and with A in seat 0 and "
         "1 in turn; the advantage is A's score minus B's in the same seat, per deal.", "",
         "| A | B | deals | A's mean score | B's mean score | advantage (points a deal) |",
         "|---|---|---:|---:|---:|---|"]
    for m in matches:
        L.append(f"| {m.policy_a} | {m.policy_b} | {m.samples:,} | {m.mean_a:.3f} | {m.mean_b:.3f} | "
                 f"{_fmt(m.advantage)} |")
    L += ["", "## Jack risk and scores (two players)", ""]
    for p in LINEUPS:
        r = risks[p]
        L += [f"### Both players `{p}` ({r.samples:,} deals)", "",
              "| jack | penalty | seat 0 takes | seat 1 takes | falls in phase 1 | holder takes own | "
              "taken face up | face-up taker pays | cost of taking it face up |",
              "|---|---:|---|---|---|---|---|---|---|"]
        for s in JACK_ORDER:
            by = " | ".join(_fmt(e) for e in r.taken_by_seat(s))
            fj = r.faceup_jack(s)
            L.append(f"| J{s[0]} | -{rules.jack_penalty(s)} | {by} | {_fmt(fj['falls_in_phase1'])} | "
                     f"{_fmt(r.holder_takes(s))} | {_fmt(fj['taken_face_up'])} | {_fmt(fj['taker_pays'])} | "
                     f"{_fmt(fj['cost'])} |")
        L += ["", "| seat | mean score | mean penalty | phase-2 tricks | phase-1 tricks won |", "|---|---|---|---|---|"]
        for seat in range(2):
            L.append(f"| {seat} | {_fmt(r.mean_score[seat])} | {_fmt(r.mean_penalty[seat])} | "
                     f"{_fmt(r.mean_tricks[seat])} | {_fmt(r.phase1_tricks[seat])} |")
        L += ["", f"Mean deal total {_fmt(r.mean_total)} (exact: 3).", ""]
    L += ["## The face-up card", "",
          "The winner of a phase-1 trick takes the face-up stock card. P(the trick's leader wins it), by the "
          "card's rank and suit; the follower takes it otherwise.", "", "![face-up](kanalje2_faceup.png)", "",
          "| rank | " + " | ".join(f"both {p}" for p in LINEUPS) + " |", "|---|" + "---|" * len(LINEUPS)]
    by_rank = {p: risks[p].faceup_leader_takes("rank") for p in LINEUPS}
    for k in by_rank["random"]:
        L.append(f"| {k} | " + " | ".join(_fmt(by_rank[p][k]) for p in LINEUPS) + " |")
    by_suit = {p: risks[p].faceup_leader_takes("suit") for p in LINEUPS}
    L += ["", "| suit | " + " | ".join(f"both {p}" for p in LINEUPS) + " |", "|---|" + "---|" * len(LINEUPS)]
    for k in by_suit["random"]:
        L.append(f"| {k} | " + " | ".join(_fmt(by_suit[p][k]) for p in LINEUPS) + " |")
    L += ["", "The cost of taking a jack face up is its penalty times the probability its taker ends up paying "
          "it (the jack tables above).", "",
          "## The game to 21 (two players)", "",
          "Seat 1 deals first (seat 0 leads the first phase 1); the deal alternates.", "",
          "| lineup | games | seat 0 wins | seat 1 wins | deals a game |", "|---|---:|---|---|---|"]
    for g in games:
        L.append(f"| {'/'.join(g.policies)} | {g.samples:,} | " + " | ".join(_fmt(e) for e in g.win)
                 + f" | {_fmt(g.mean_deals, 2)} |")
    L.append("")
    return L
