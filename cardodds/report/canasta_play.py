"""Report section: Polish Canasta played by four (``reports/canasta_play.md`` and its charts).

Every figure is a simulation from the fixed seed, so the section is rebuilt byte for byte.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from .. import __version__  # noqa: E402
from ..canasta import CanastaRules, game, house_options, melds, play, strength  # noqa: E402
from ..canasta.play import CANASTA_KINDS, MAX_ROUNDS  # noqa: E402

_SAVE = {"dpi": 110, "metadata": {"Software": None}}


def _save(fig, path):
    fig.tight_layout()
    fig.savefig(path, **_SAVE)
    plt.close(fig)


def _f(e, d=1):
    return f"{e.value:.{d}f} [{e.lo:.{d}f}, {e.hi:.{d}f}]"


def _pct(e, d=1):
    return f"{100 * e.value:.{d}f}% [{100 * e.lo:.{d}f}, {100 * e.hi:.{d}f}]"


def write(outdir: Path, *, seed: int, scale: float, progress: bool) -> Path:
    outdir = Path(outdir)
    rules = CanastaRules()
    n = max(300, int(round(50_000 * scale)))
    n_pairs = max(100, int(round(10_000 * scale)))
    n_games = max(30, int(round(2_000 * scale)))
    n_opt = max(200, int(round(10_000 * scale)))
    res = {p: play(p, rules, samples=n, rng=seed, progress=progress) for p in ("heuristic", "random")}
    deal = melds(12, rules, exact=True, turns=MAX_ROUNDS)
    st = {(a, b): strength(a, b, rules, samples=n_pairs, rng=seed + 1, progress=progress)
          for a, b in (("heuristic", "random"), ("random", "random"))}
    g = game("heuristic", rules, samples=n_games, rng=seed + 2, progress=progress)
    ho = house_options("heuristic", rules, samples=n_opt, rng=seed + 3, progress=progress)

    # chart 1: opened and first canasta by round, under play, next to the deal-time figure
    fig, axes = plt.subplots(1, 2, figsize=(9.5, 3.5))
    rs = np.arange(1, MAX_ROUNDS + 1)
    for ax, attr, title in ((axes[0], "opened_by_round", "side has opened"),
                            (axes[1], "canasta_by_round", "side has a canasta")):
        for p, r in res.items():
            for s in range(2):
                e = getattr(r, attr)[s]
                ax.errorbar(rs, [x.value for x in e], yerr=[[x.value - x.lo for x in e], [x.hi - x.value for x in e]],
                            fmt="o-" if s == 0 else "s--", ms=3, capsize=2, lw=1, label=f"{p}, side {s}")
        if attr == "opened_by_round":
            ax.plot(rs, [deal.first_meld_by_turn[r].value for r in rs], "k:", lw=1,
                    label="deal-time: one player could open\n(cards kept, no pile; exact)")
        ax.set_title(title)
        ax.set_xlabel("round (each player's turns)")
        ax.set_ylim(0, 1.02)
        ax.legend(fontsize=7)
    axes[0].set_ylabel("probability")
    _save(fig, outdir / "canasta_play_by_round.png")

    # chart 2: canastas by kind and pile takes
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.3))
    x = np.arange(len(CANASTA_KINDS))
    for i, (p, r) in enumerate(res.items()):
        v = [r.canastas[0][k] for k in CANASTA_KINDS]
        axes[0].bar(x + 0.38 * i, [e.value for e in v], 0.38, yerr=[[e.value - e.lo for e in v],
                                                                    [e.hi - e.value for e in v]],
                    capsize=3, label=p)
        sizes = r.counts[_take_slice()]
        tot = sizes.sum()
        if tot:
            ks = np.arange(len(sizes))
            axes[1].plot(ks[1:31], sizes[1:31] / tot, "o-", ms=3, label=p)
    axes[0].set_xticks(x + 0.19, CANASTA_KINDS)
    axes[0].set_title("canastas a hand, side 0")
    axes[0].legend(fontsize=8)
    axes[1].set_title("cards taken with the pile")
    axes[1].set_xlabel("pile size when taken")
    axes[1].legend(fontsize=8)
    takes = [res[p].pile_takes[0] for p in res]
    axes[2].bar(list(res), [e.value for e in takes], yerr=[[e.value - e.lo for e in takes],
                                                           [e.hi - e.value for e in takes]], capsize=3)
    axes[2].set_title("pile takes a hand, side 0")
    _save(fig, outdir / "canasta_play_canastas_pile.png")

    # chart 3: hand score distribution per side (heuristic)
    fig, ax = plt.subplots(figsize=(7, 3.3))
    for s in range(2):
        d = res["heuristic"].score_distribution[s]
        ks = sorted(d)
        ax.step(ks, [d[k] for k in ks], where="post", label=f"side {s}")
    ax.set_xlabel("hand score (100-point bins)")
    ax.set_ylabel("probability")
    ax.set_title("hand score, heuristic players")
    ax.legend()
    _save(fig, outdir / "canasta_play_scores.png")

    # chart 4: house options side by side
    names = ["base"] + list(ho.options)
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    y = np.arange(len(names))
    allr = [ho.base] + list(ho.options.values())
    axes[0].barh(y, [r.canastas_per_hand[0].value for r in allr],
                 xerr=[[r.canastas_per_hand[0].value - r.canastas_per_hand[0].lo for r in allr],
                       [r.canastas_per_hand[0].hi - r.canastas_per_hand[0].value for r in allr]], capsize=3)
    axes[0].set_yticks(y, names, fontsize=8)
    axes[0].set_title("canastas a hand, side 0")
    ch = [ho.side0_change[k] for k in ho.options]
    axes[1].errorbar([e.value for e in ch], y[1:], xerr=[[e.value - e.lo for e in ch], [e.hi - e.value for e in ch]],
                     fmt="o", capsize=3)
    axes[1].axvline(0, color="k", lw=0.8)
    axes[1].set_yticks(y, names, fontsize=8)
    axes[1].set_title("side 0 hand score: option - base (paired)")
    _save(fig, outdir / "canasta_play_house_options.png")

    h = res["heuristic"]
    rnd = res["random"]
    L = ["# Polish Canasta played by four", "",
         f"cardodds {__version__}, seed {seed}. Four players in two partnerships (seats 0+2 against 1+3; in single "
         f"hands seat 3 deals, so side 0 moves first). Rules RULES.md 3 with the defaults "
         f"(wild_limit='naturals', min_first_meld=30, 4 Jokers, going_out='meld_or_discard'). "
         f"{n:,} hands per player type; 95% intervals in brackets.", "",
         "## How soon a side opens and makes a canasta", "",
         "![by round](canasta_play_by_round.png)", "",
         "| figure | heuristic | random |", "|---|---|---|"]
    for r_ in (1, 2, 3, 5, 10):
        L.append(f"| side 0 opened by round {r_} | {_pct(h.opened_by_round[0][r_ - 1])} | "
                 f"{_pct(rnd.opened_by_round[0][r_ - 1])} |")
    for r_ in (5, 10, 15):
        L.append(f"| side 0 first canasta by round {r_} | {_pct(h.canasta_by_round[0][r_ - 1])} | "
                 f"{_pct(rnd.canasta_by_round[0][r_ - 1])} |")
    L.append(f"| deal-time: one player can open by turn 5 (exact, cards kept, no pile) | "
             f"{100 * deal.first_meld_by_turn[5].value:.1f}% | |")
    L += ["", "## Canastas, the pile, how hands end", "", "![canastas and pile](canasta_play_canastas_pile.png)", "",
          "| figure | heuristic | random |", "|---|---|---|"]
    for k in CANASTA_KINDS:
        L.append(f"| side 0 {k} canastas a hand | {_f(h.canastas[0][k], 3)} | {_f(rnd.canastas[0][k], 3)} |")
    L += [f"| side 0 pile takes a hand | {_f(h.pile_takes[0], 2)} | {_f(rnd.pile_takes[0], 2)} |",
          f"| cards taken with the pile | {_f(h.pile_size, 2)} | {_f(rnd.pile_size, 2)} |",
          f"| hand ends by going out | {_pct(h.went_out)} | {_pct(rnd.went_out)} |",
          f"| hand ends on an empty stock | {_pct(h.stock_out)} | {_pct(rnd.stock_out)} |",
          f"| table turns a hand | {_f(h.end_turn)} | {_f(rnd.end_turn)} |",
          f"| side 0 hand score | {_f(h.score[0])} | {_f(rnd.score[0])} |",
          f"| side 1 hand score | {_f(h.score[1])} | {_f(rnd.score[1])} |",
          "", "![scores](canasta_play_scores.png)", "",
          "## Strength, points a hand (paired: each deal played twice with the sides swapped)", "",
          "| A vs B | A's edge, points a hand | A's side better |", "|---|---|---|"]
    for (a, b), s in st.items():
        tag = " (no difference at this precision)" if s.points.contains_zero() else ""
        L.append(f"| {a} vs {b} | {_f(s.points)}{tag} | {_pct(s.better)} |")
    L += ["", "Each deal is played twice from the same random stream with the sides swapped, so a player against "
          "itself scores exactly 0: the row random vs random checks the pairing.", "",
          f"## Whole games to {rules.target:,} (heuristic players, side 0 deals first)", "",
          f"- side dealing first wins: {_pct(g.first_dealer_wins)} of {g.games:,} games",
          f"- hands a game: {_f(g.hands, 2)}; winning margin {_f(g.margin, 0)} points",
          f"- unfinished after {g.max_hands} hands: {_pct(g.unfinished)}", "",
          "## House options, each paired with the defaults on the same deals (heuristic players)", "",
          "![house options](canasta_play_house_options.png)", "",
          "| rules | side 0 opened by round 5 | canastas a hand | pile takes | going out | turns | "
          "side 0 score change |", "|---|---|---|---|---|---|---|"]
    for name, r in [("base", ho.base)] + list(ho.options.items()):
        c = ho.side0_change.get(name)
        ctxt = "" if c is None else _f(c) + (" (no difference at this precision)" if c.contains_zero() else "")
        L.append(f"| {name} | {_pct(r.opened_by_round[0][4])} | {_f(r.canastas_per_hand[0], 3)} | "
                 f"{_f(r.pile_takes[0], 2)} | {_pct(r.went_out)} | {_f(r.end_turn)} | {ctxt} |")
    L += ["", "With jokers=6 the pack differs, so only the random stream is shared, not the deal.", ""]
    path = outdir / "canasta_play.md"
    path.write_text("\n".join(L) + "\n", encoding="utf-8")
    return path


def _take_slice():
    from ..canasta._play import HC

    return HC.slice("take_size")
