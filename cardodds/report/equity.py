"""The game equity section of the reports (``reports/equity.md``): P(each seat or side wins the
game) over the scores before a deal (hand), from the equity tables shipped with the package
(Kanalje with three and two players, Polish Canasta), as heat maps and a few scores; and the
page's lookup and heat map of it.

The section reads the shipped tables (``equity(...).table``, built once by each game's
``equity.ship``): it plays no deal, so the report's seed and scale do not change it. The page
holds each table on a box of scores (:data:`GAMES`: the lowest total and the step; the box ends
below the target), each seat's chance printed as ``cardodds <game> equity`` prints it; the
command and the Python API read the whole table.

A state's chances are stored as text (:func:`encode`): every seat but the last as two characters
of :data:`ALPHABET`, its chance in thousandths and whether its interval's ends differ from it (by
0.001 at most), the last seat as one character, its chance given by the others' (they sum to 1
within a thousandth either way) and its interval's ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .. import __version__
from ..equity import estimates
from ._common import STYLE, Stages, md_table, page_data, plt, save

#: The characters of a state's code (a base-64 digit each: letters, digits, ``-`` and ``_``).
ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
DPI = 100


@dataclass(frozen=True)
class Game:
    """One table on the page: ``key``, its name, the game's package, its players' or sides'
    count, the page's lowest total and step, the heat map's step (a multiple of it), the flags
    the command needs for it and a score to show."""

    key: str
    name: str
    game: str
    players: int
    lo: int
    step: int
    heat_step: int
    flags: str
    example: tuple[int, ...]
    scores: tuple[tuple[int, ...], ...]


#: The tables on the page, in its order. Kanalje's box: every total from -5 (three players; -21
#: with two) to 20; Canasta's: -2,000 to 9,900 every 100 points (the table's grid is 50), its
#: heat map every 200.
GAMES = (
    Game("kanalje3", "Kanalje, three players", "kanalje", 3, -5, 1, 1, "", (12, 17, 5),
         ((0, 0, 0), (12, 17, 5), (18, 18, 15), (20, 14, 13))),
    Game("kanalje2", "Kanalje, two players", "kanalje", 2, -21, 1, 1, " --players 2", (12, 18),
         ((0, 0), (12, 18), (15, 15), (20, 16))),
    Game("canasta", "Polish Canasta", "canasta", 2, -2000, 100, 200, "", (6200, 5400),
         ((0, 0), (6200, 5400), (9000, 9500), (9900, 5000))),
)


def result(g: Game, score=None, dealer: int | None = None):
    """``equity(score)`` of ``g``'s game under the default rules (the shipped table)."""
    if g.game == "kanalje":
        from ..kanalje import KanaljeRules, equity

        return equity(list(score or g.example), rules=KanaljeRules(players=g.players), dealer=dealer)
    from ..canasta import equity as canasta_equity

    return canasta_equity(list(score or g.example), dealer=dealer)


def size(g: Game, target: int) -> int:
    """The page's totals a seat of ``g``: from ``g.lo`` every ``g.step`` points, below ``target``."""
    return (target - 1 - g.lo) // g.step + 1


def thousandths(text: str) -> int:
    """``"0.188"`` as 188.

    >>> thousandths("0.188"), thousandths("1.000"), thousandths("0.000")
    (188, 1000, 0)
    """
    whole, frac = text.split(".")
    return int(whole) * 1000 + int(frac)


def digits3(e) -> tuple[int, int, int]:
    """An estimate as the command prints it (``value [lo, hi]`` to 3 places), in thousandths."""
    text = e.format(3)
    value, rest = text.split(" [")
    lo, hi = rest.rstrip("]").split(", ")
    return thousandths(value), thousandths(lo), thousandths(hi)


def encode(figures: list[tuple[int, int, int]]) -> str:
    """One state's code: each seat's ``(value, lo, hi)`` in thousandths, the ends at most 1 away.

    >>> encode([(188, 188, 188), (794, 793, 794), (18, 18, 19)])
    'LwxqF'
    >>> decode('LwxqF', 3)
    [(188, 188, 188), (794, 793, 794), (18, 18, 19)]
    """
    out = []
    for k, (v, lo, hi) in enumerate(figures):
        down, up = v - lo, hi - v
        if down not in (0, 1) or up not in (0, 1):
            raise ValueError(f"an interval {v} [{lo}, {hi}] (thousandths) is more than 0.001 from its value")
        if k < len(figures) - 1:
            code = v * 4 + down * 2 + up
            out.append(ALPHABET[code // 64] + ALPHABET[code % 64])
        else:
            gap = v - (1000 - sum(f[0] for f in figures[:-1]))
            if gap not in (-1, 0, 1):
                raise ValueError(f"the chances {[f[0] for f in figures]} (thousandths) do not sum to 1")
            out.append(ALPHABET[(gap + 1) * 4 + down * 2 + up])
    return "".join(out)


def decode(code: str, n: int) -> list[tuple[int, int, int]]:
    """The figures of :func:`encode` (what the page's script does)."""
    out, total = [], 0
    for k in range(n - 1):
        c = ALPHABET.index(code[2 * k]) * 64 + ALPHABET.index(code[2 * k + 1])
        v = c // 4
        total += v
        out.append((v, v - (c >> 1 & 1), v + (c & 1)))
    c = ALPHABET.index(code[2 * (n - 1)])
    v = 1000 - total + c // 4 - 1
    out.append((v, v - (c >> 1 & 1), v + (c & 1)))
    return out


def game_data(g: Game) -> dict:
    """One table's part of the lookup's data: its box and every state's code, in the frame of
    the seat (side) that leads (frame seat 0 leads: flat index in C order), and what the script
    needs to answer and to refuse as the command does."""
    r = result(g)
    t = r.table
    n, m = g.players, size(g, t.target)
    if g.step % t.step or (g.lo - t.lo) % t.step or g.lo < t.lo:
        raise ValueError(f"{g.key}: the page's grid ({g.lo}, every {g.step}) is not on the table's")
    page = g.lo + g.step * np.arange(m)
    cols = (page - t.lo) // t.step
    flat = np.zeros(1, dtype=np.int64)
    for _ in range(n):
        flat = (flat[:, None] * t.size + cols[None, :]).ravel()
    codes = []
    for i in flat:
        figs = [digits3(e) for e in estimates(t.value[:, i] * 1.0, t.se[:, i] * 1.0, t.samples)]
        codes.append(encode(figs))
    shift = (result(g, dealer=0).leader - 0) % n
    if g.game == "kanalje":
        totals = sorted({int(v) for v in t.offsets.sum(axis=1)})
        over = " alone at the top"
    else:
        totals = []
        over = " and is ahead"
    return {"key": g.key, "name": g.name, "game": g.game, "who": r.label, "n": n, "lo": g.lo, "step": g.step,
            "size": m, "heat": g.heat_step // g.step, "target": int(t.target), "table_lo": int(t.lo),
            "table_hi": int(t.hi), "table_top": int(t.target) - (1 if g.game == "kanalje" else 5),
            "table_step": int(t.step), "multiple": 5 if g.game == "canasta" else 1, "shift": shift,
            "dealer": r.dealer, "totals": totals, "over": over, "example": list(g.example),
            "command": f"cardodds {g.game} equity{g.flags}", "made": r.made, "codes": "".join(codes)}


def lookup_data() -> dict:
    """The lookup's data: every table of :data:`GAMES` (:func:`game_data`)."""
    return {"games": [game_data(g) for g in GAMES]}


def box(d: dict, seat: int = 0, dealer: int | None = None, fixed: dict | None = None) -> np.ndarray:
    """P(``seat`` wins) in thousandths over the page's box of one table's data ``d``: rows the
    seat's (side's) own total, columns the next seat's, ``fixed`` totals for the others (seat:
    total), ``dealer`` dealing (default the table's)."""
    n, m, lo, step = d["n"], d["size"], d["lo"], d["step"]
    dealer = d["dealer"] if dealer is None else dealer
    leader = (dealer + d["shift"]) % n
    per = 2 * (n - 1) + 1
    out = np.zeros((m, m), dtype=np.int64)
    other = (seat + 1) % n
    for a in range(m):
        for b in range(m):
            s = {seat: lo + a * step, other: lo + b * step, **(fixed or {})}
            frame = [(s[(leader + j) % n] - lo) // step for j in range(n)]
            idx = 0
            for x in frame:
                idx = idx * m + x
            figs = decode(d["codes"][idx * per:(idx + 1) * per], n)
            out[a, b] = figs[(seat - leader) % n][0]
    return out


# ---- the section --------------------------------------------------------------------------------
def write(outdir: Path, *, seed: int, scale: float, progress: bool, log: bool = False) -> Path:
    """Write ``equity.md`` and its chart into ``outdir``; returns the markdown's path."""
    outdir = Path(outdir)
    stage = Stages("equity", 1, log)
    stage("the shipped tables")
    data = lookup_data()
    lines = _intro(data)
    for g, d in zip(GAMES, data["games"]):
        lines += [f"## {g.name}", "", f"`{d['command']}`: {d['made']}.", "", *score_table(g), ""]
    chart = "equity_chances.png"
    with plt().rc_context(STYLE):
        save(chance_chart(data), outdir / chart, dpi=DPI)
    lines += ["## The chance against the score", "",
              "Seat (side) 0's chance to win the game against its own total, a line for each of a few of seat "
              "(side) 1's totals, who deals as in a new game; with three players seat 2 at 0. The page's lookup "
              "draws the whole table as a heat map.", "",
              f"![P(seat or side 0 wins the game) against its total]({chart})", ""]
    page_data(outdir, "equity", data)
    path = outdir / "equity.md"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _intro(data: dict) -> list[str]:
    boxes = "; ".join(f"{d['name']}: totals {d['lo']:,} to {d['target'] - d['step']:,}"
                      + (f" every {d['step']} points" if d["step"] > 1 else "") for d in data["games"])
    return [
        "# Game equity: the chance to win the game from the score",
        "",
        (f"Shipped with cardodds {__version__}, for the default rules. Near the end of a game a player plays for "
         "the game, not for this deal's points: these tables give each seat's (side's) chance to win the game "
         "from the scores before a deal (hand), like backgammon's match equity tables. Each was solved over the "
         "scores from one deal's outcomes measured with `heuristic` at every seat; a chance's 95% interval is "
         "a bootstrap of the measured deals. Who deals matters: the seat (side) that leads moves first. "
         f"The page's lookup holds each table on a box of scores ({boxes}); `cardodds kanalje equity` and "
         "`cardodds canasta equity` read the whole table, every score the game can reach."),
        "",
    ]


def score_table(g: Game) -> list[str]:
    """A few scores of ``g`` and each seat's chance, as the command prints them."""
    rows = []
    for score in g.scores:
        r = result(g, score)
        rows.append((",".join(map(str, score)),
                     *(e.format(3) for e in r.win)))
    head = ("score", *(f"{'seat' if g.game == 'kanalje' else 'side'} {s} wins" for s in range(g.players)))
    return md_table(head, rows, "l" + "r" * g.players)


#: The other seat's (side's) totals the chart draws a line for, a table.
LINES = {"kanalje3": (0, 10, 18), "kanalje2": (-10, 5, 18), "canasta": (0, 6000, 9000)}


def chance_chart(data: dict):
    """Each table's P(seat or side 0 wins) against its own total over the page's box, a line for
    each of a few of seat (side) 1's totals (the dealer as in a new game; three players: seat 2
    at 0; Canasta every 200 points). Lines, not an image: the page's heat map is drawn by its script."""
    games = data["games"]
    fig, axes = plt().subplots(1, len(games), figsize=(3.1 * len(games) + 0.6, 3.3), layout="constrained")
    for ax, d in zip(axes, games):
        m = box(d, fixed={2: 0} if d["n"] == 3 else None)[::d["heat"]] / 1000
        x = d["lo"] + d["step"] * d["heat"] * np.arange(m.shape[0])
        who = d["who"]
        for them in LINES[d["key"]]:
            ax.plot(x, m[:, (them - d["lo"]) // d["step"]], label=f"{who} 1 at {them:,}")
        ax.set_ylim(0, 1)
        ax.set_xlabel(f"{who} 0's total")
        ax.set_ylabel(f"P({who} 0 wins the game)")
        ax.set_title(f"{d['name']}, {who} {d['dealer']} deals", fontsize=9)
        ax.legend(fontsize=7, loc="upper left", frameon=False)
    return fig
