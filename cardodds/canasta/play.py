"""Polish Canasta played: whole hands and games by four players in two partnerships.

Seats 0 and 2 (side 0) play against seats 1 and 3 (side 1). In single hands seat 3 deals,
so side 0 moves first; in games side 0 deals the first hand and the deal passes left.
Every figure comes with its 95% interval.

>>> from cardodds.canasta import play
>>> res = play("heuristic", samples=300, rng=1)
>>> res.hands
300
>>> 0.0 < res.opened_by_round[0][-1].value <= 1.0
True
>>> sorted(res.to_dict()["canastas"]["side0"])
['clean', 'joker', 'mixed']

Rule choices the engine makes where the original rules are silent (docs/rules/canasta.md;
:mod:`cardodds.canasta._table`): one meld per rank per side; a side opens with its own
combination before adding to any meld; the pile is taken before other moves; a replacement
red 3 is laid at once; going out is never allowed in a player's first turn.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace

import numpy as np

from .. import engine
from .._validate import check_run, check_totals
from ..engine import InOrder, takes_backend
from ..results import Result, StrengthResult, counts_field
from ..rng import as_seed_sequence, child
from ..stats import Z95, Estimate
from ..trace import Trace
from . import _play as P
from . import _policies, _record, _table as T
from ._defaults import (DEFAULT_GAMES, DEFAULT_HANDS, DEFAULT_HOUSE_HANDS, DEFAULT_MAX_HANDS, DEFAULT_POLICIES,
                        DEFAULT_STRENGTH_PAIRS, DEFAULT_TUNE_SAMPLES, STRENGTH_A, STRENGTH_B)
from ._position import game_score
from .cards import deck_counts, deck_kinds
from .policies import HeuristicParams, resolve_policies
from .rules import CanastaRules, check_rules
from .view import compile_policy, kernel_policy

__all__ = ["GameResult", "GameStrengthResult", "HouseOptionsResult", "PlayResult", "StrengthResult", "TuneResult",
           "game", "game_strength", "house_options", "play", "strength", "trace", "tune"]

MAX_ROUNDS = 15
CANASTA_KINDS = ("mixed", "clean", "joker")
#: A small chunk: a hand is a few thousand moves, so chunks stay short for Ctrl-C.
CHUNK = 1 << 10


def _mean(total, total_sq, n) -> Estimate:
    return Estimate.mean(float(total), float(total_sq), int(n))


def _hist_mean(hist, values) -> Estimate:
    hist = np.asarray(hist, dtype=np.float64)
    values = np.asarray(values, dtype=np.float64)
    n = hist.sum()
    return Estimate.mean(float((hist * values).sum()), float((hist * values * values).sum()), int(n))


def _by_round(turn_hist: np.ndarray, seat_offset: int, n: int) -> tuple:
    """P(done by the side's round r), r = 1..MAX_ROUNDS, from a histogram of table turns.

    Round r of a side ends with the table turn 4(r - 1) + seat_offset (its first player's
    r-th turn is that turn; its partner's comes two turns later, counted with round r)."""
    cum = np.cumsum(turn_hist[:-1])
    out = []
    for r in range(1, MAX_ROUNDS + 1):
        last = min(4 * (r - 1) + seat_offset + 2, len(cum) - 1)
        out.append(Estimate.proportion(int(cum[last]), n))
    return tuple(out)


# ---- single hands ----------------------------------------------------------------------------

def _look(codes):
    """The kernels' ``look`` argument: None unless a seat plays ``lookahead``, so the kernels of
    the other lineups compile without the look-ahead player."""
    return 1 if any(int(c) == _policies.P_LOOKAHEAD for c in codes) else None


@dataclass(frozen=True, repr=False, kw_only=True)
class PlayResult(Result):
    """Figures of played hands (see :func:`play`). Sides: 0 = seats 0+2 (moves first), 1 = seats 1+3."""

    policies: tuple
    hands: int
    opened_by_round: tuple          # [side][r-1]: P(side opened by its round r)
    canasta_by_round: tuple         # [side][r-1]: P(side made its first canasta by its round r)
    opened: tuple                   # [side]: P(side opened in the hand)
    canastas: dict                  # {side: {kind: mean a hand}}
    canastas_per_hand: tuple        # [side]: mean canastas a hand
    pile_takes: tuple               # [side]: mean takes a hand
    pile_size: Estimate             # mean cards taken with the pile (over takes)
    went_out: Estimate              # P(the hand ends by a player going out)
    stock_out: Estimate             # P(the hand ends on an empty stock)
    end_turn: Estimate              # mean table turns a hand lasts
    end_turn_distribution: dict     # {"went_out"|"stock_out": {turns: probability of all hands}}
    score: tuple                    # [side]: mean hand score
    score_difference: Estimate      # side 0 - side 1, mean
    score_distribution: dict        # {side: {bin_low: probability}} in 100-point bins
    violations: dict
    counts: np.ndarray = counts_field()

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({
            "game": "canasta", "question": "play", "policies": list(self.policies), "hands": self.hands,
            "opened_by_round": {f"side{s}": [e.to_dict() for e in self.opened_by_round[s]] for s in range(2)},
            "canasta_by_round": {f"side{s}": [e.to_dict() for e in self.canasta_by_round[s]] for s in range(2)},
            "opened": {f"side{s}": self.opened[s].to_dict() for s in range(2)},
            "canastas": {f"side{s}": {k: e.to_dict() for k, e in self.canastas[s].items()} for s in range(2)},
            "canastas_per_hand": {f"side{s}": self.canastas_per_hand[s].to_dict() for s in range(2)},
            "pile_takes": {f"side{s}": self.pile_takes[s].to_dict() for s in range(2)},
            "pile_size": self.pile_size.to_dict(),
            "went_out": self.went_out.to_dict(), "stock_out": self.stock_out.to_dict(),
            "end_turn": self.end_turn.to_dict(),
            "end_turn_distribution": {how: {str(k): v for k, v in d.items()}
                                      for how, d in self.end_turn_distribution.items()},
            "score": {f"side{s}": self.score[s].to_dict() for s in range(2)},
            "score_difference": self.score_difference.to_dict(),
            "score_distribution": {f"side{s}": {str(k): v for k, v in self.score_distribution[s].items()}
                                   for s in range(2)},
            "violations": dict(self.violations),
        })
        return d

    def to_frame(self):
        """One row per figure: ``figure``, ``side``, ``key``, ``value``, ``se``, ``lo``, ``hi``."""
        import pandas as pd

        rows = []

        def add(fig, side, key, e):
            rows.append({"figure": fig, "side": side, "key": key, "value": e.value, "se": e.se, "lo": e.lo,
                         "hi": e.hi})
        for s in range(2):
            for r, e in enumerate(self.opened_by_round[s], 1):
                add("opened_by_round", s, r, e)
            for r, e in enumerate(self.canasta_by_round[s], 1):
                add("canasta_by_round", s, r, e)
            for k, e in self.canastas[s].items():
                add("canastas", s, k, e)
            add("pile_takes", s, "", self.pile_takes[s])
            add("score", s, "", self.score[s])
        add("pile_size", "", "", self.pile_size)
        add("went_out", "", "", self.went_out)
        add("stock_out", "", "", self.stock_out)
        add("end_turn", "", "", self.end_turn)
        add("score_difference", "", "", self.score_difference)
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        pol = ",".join(self.policies)
        lines = [f"Polish Canasta played: {self.hands:,} hands, policies {pol}, seed {self.seed} "
                 f"(side 0 = seats 0+2 moves first)"]
        for s in range(2):
            ob = self.opened_by_round[s]
            lines.append(f"  side {s} opened by round 1 / 3 / 5 / 10: " + " / ".join(
                ob[r - 1].format(percent=True) for r in (1, 3, 5, 10)))
        for s in range(2):
            cb = self.canasta_by_round[s]
            lines.append(f"  side {s} first canasta by round 5 / 10 / 15: " + " / ".join(
                cb[r - 1].format(percent=True) for r in (5, 10, 15)))
        for s in range(2):
            c = self.canastas[s]
            lines.append(f"  side {s} canastas a hand: " + ", ".join(f"{k} {c[k].format()}" for k in CANASTA_KINDS))
        for s in range(2):
            lines.append(f"  side {s} pile takes a hand: {self.pile_takes[s].format()}")
        lines.append(f"  cards taken with the pile: {self.pile_size.format()}")
        lines.append(f"  hand ends by going out: {self.went_out.format(percent=True)}; on an empty stock: "
                     f"{self.stock_out.format(percent=True)}; after {self.end_turn.format()} turns")
        for s in range(2):
            lines.append(f"  side {s} hand score: {self.score[s].format()}")
        if any(self.violations.values()):
            lines.append(f"  VIOLATIONS: {self.violations}")
        return "\n".join(lines)

    def plot(self, ax=None):
        """P(opened) and P(first canasta) by round for both sides, with 95% intervals."""
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        if ax is None:
            _, ax = plt.subplots(figsize=(7.5, 3.5), layout="constrained")
        rs = np.arange(1, MAX_ROUNDS + 1)
        for s in range(2):
            for series, label in ((self.opened_by_round[s], "opened"), (self.canasta_by_round[s], "first canasta")):
                ax.plot(rs, [e.value for e in series], marker="o", ms=3, label=f"side {s} {label}")
                ax.fill_between(rs, [e.lo for e in series], [e.hi for e in series], alpha=0.2)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds are whole turns
        ax.set_xlabel("round (each player's turns)")
        ax.set_ylabel("probability")
        ax.set_ylim(0, 1.02)
        ax.set_title(f"Polish Canasta played: opened and first canasta ({self.hands:,} hands)\n"
                     f"seats 0-3: {', '.join(self.policies)}")
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        return ax

    @property
    def pile_size_counts(self) -> np.ndarray:
        """Pile takes by the cards taken (entry k: takes of k cards), both sides, all hands."""
        return self.counts[P.HC.slice("take_size")]


def _violations(v) -> dict:
    names = ("cards", "meld", "score", "first_turn_out", "stuck", "policy", "open")
    return {n: int(x) for n, x in zip(names, v)}


def _play_result(c: np.ndarray, policies, rules, n, seed, partial) -> PlayResult:
    v = P.HC.view(c)
    T1 = T.MAX_TURNS + 1
    opened_t = v.open_turn.reshape(2, T1)
    can_t = v.canasta_turn.reshape(2, T1)
    canastas = v.canastas.reshape(2, 4)
    ends = v.end_turn.reshape(2, T1)
    turns = np.arange(T1)
    hist = v.score_hist.reshape(2, P.SCORE_BINS)
    total_c = canastas.sum(axis=1)
    return PlayResult(
        policies=tuple(policies), hands=int(n),
        opened_by_round=tuple(_by_round(opened_t[s], s, n) for s in range(2)),
        canasta_by_round=tuple(_by_round(can_t[s], s, n) for s in range(2)),
        opened=tuple(Estimate.proportion(int(n - opened_t[s, -1]), n) for s in range(2)),
        canastas={s: {k: _poisson_mean(int(canastas[s, i + 1]), n) for i, k in enumerate(CANASTA_KINDS)}
                  for s in range(2)},
        canastas_per_hand=tuple(_mean(total_c[s], v.canastas_sq[s], n) for s in range(2)),
        pile_takes=tuple(_mean(v.takes[s], v.takes_sq[s], n) for s in range(2)),
        pile_size=_hist_mean(v.take_size, np.arange(T.MAX_CARDS + 1)),
        went_out=Estimate.proportion(int(ends[0].sum()), n),
        stock_out=Estimate.proportion(int(ends[1].sum()), n),
        end_turn=_hist_mean(ends.sum(axis=0), turns),
        end_turn_distribution={how: {int(k): float(x) / n for k, x in enumerate(ends[i]) if x > 0}
                               for i, how in enumerate(("went_out", "stock_out"))},
        score=tuple(_mean(v.score[s], v.score_sq[s], n) for s in range(2)),
        score_difference=_mean(int(v.score[0]) - int(v.score[1]), v.diff_sq, n),
        score_distribution={s: {P.SCORE_LO + 100 * b: float(x) / n for b, x in enumerate(hist[s]) if x > 0}
                            for s in range(2)},
        violations=_violations(v.violations),
        counts=c, rules=rules, samples=int(n), seed=seed, partial=partial,
    )


def _poisson_mean(k: int, n: int) -> Estimate:
    """Mean count a hand of a rare, at most one or two a hand, event: k over n with a
    Poisson standard error (a canasta kind is 0 or 1 a hand almost always)."""
    if n <= 0:
        return Estimate(float("nan"), float("nan"), float("nan"), float("nan"), 0)
    m = k / n
    se = (max(k, 1) ** 0.5) / n
    return Estimate(m, se, max(0.0, m - Z95 * se), m + Z95 * se, n)


def _size(samples, target_halfwidth, default):
    if samples is None and target_halfwidth is None:
        return default
    return samples


@takes_backend
def play(policies=DEFAULT_POLICIES, *, rules: CanastaRules | None = None, samples: int | None = None,
         target_halfwidth: float | None = None, rng=None, threads: int | None = None,
         params: HeuristicParams | None = None, check: bool = False, progress: bool = False) -> PlayResult:
    """Play single hands and report how they go, with 95% intervals.

    ``policies``: one name for every seat (``"random"``, ``"heuristic"``), a comma list of four,
    or a list with at most one ``@njit`` user policy (:mod:`cardodds.canasta.policies`).
    ``samples`` hands (default 20,000) or until the 95% interval of P(side 0 makes a canasta
    in the hand) is ``target_halfwidth`` wide. ``check=True`` verifies the table after every move and
    reports violations (all zero unless something is broken).
    """
    rules = check_rules(rules)
    check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    samples = _size(samples, target_halfwidth, DEFAULT_HANDS)
    codes, names, user, hp = resolve_policies(policies, params)

    def halfwidth(c, n):
        v = P.HC.view(c)
        never = v.canasta_turn[T.MAX_TURNS]  # side 0 made no canasta
        return Estimate.proportion(n - never, n).halfwidth

    res = engine.run(P.hands_kernel, (deck_kinds(rules.jokers), rules.pack(), P.Seats(codes, hp),
                                      P.check_arg(check, deck_counts(rules.jokers)), kernel_policy(user), _look(codes),
                                      _policies.smart_arg(codes)),
                     P.HC.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=halfwidth,
                     rng=rng, threads=threads, progress=progress, chunk_size=CHUNK, unit="hand")
    return _play_result(res.counts, names, rules, res.samples, res.seed, res.partial)


# ---- games ------------------------------------------------------------------------------------------
def game_start(score, dealer, rules: CanastaRules) -> np.ndarray:
    """``game``'s ``start``: the sides' totals (multiples of 5, the game not yet won) and the
    seat dealing the first hand, from ``dealer``, the side that deals it."""
    if dealer is None:
        dealer = 0
    if isinstance(dealer, bool) or dealer not in (0, 1):
        raise ValueError(f"dealer={dealer!r} must be a side, 0 or 1")
    tots = [0, 0] if score is None else check_score(score, rules)
    seat = 0 if dealer == 0 else (4 + (1 if rules.direction == "clockwise" else -1)) % 4
    return np.array([tots[0], tots[1], seat], dtype=np.int64)


def check_score(score, rules: CanastaRules) -> list[int]:
    """Each side's total, checked: two whole multiples of 5, the game not yet won."""
    vals = check_totals(score, 2, "side", "6200,5400", "Canasta has 2 sides")
    if any(v % 5 for v in vals):
        raise ValueError(f"no game reaches {vals[0]},{vals[1]}: every Canasta score is a multiple of 5")
    if max(vals) >= rules.target and vals[0] != vals[1]:
        raise ValueError(f"the game is over at {vals[0]},{vals[1]}: side {vals.index(max(vals))} has reached "
                         f"{rules.target} and is ahead")
    return vals


def _check_max_hands(max_hands) -> None:
    if isinstance(max_hands, bool) or not isinstance(max_hands, (int, np.integer)) or not 1 <= max_hands <= 10_000:
        raise ValueError(f"max_hands={max_hands!r} must be a whole number 1..10000")


@dataclass(frozen=True, repr=False, kw_only=True)
class GameResult(Result):
    """Whole games to ``rules.target`` (see :func:`game`): ``win[s]`` P(side ``s`` wins the
    game; side 0 deals first), ``mean_hands`` and ``hands_distribution`` the hands a finished
    game lasts, ``margin`` the winning margin, ``unfinished`` the games still open after
    ``max_hands`` hands (no side wins them)."""

    policies: tuple
    games: int
    win: tuple                      # [side]: P(the side wins the game)
    mean_hands: Estimate            # mean hands a finished game lasts
    hands_distribution: dict        # {hands: Estimate of its probability} over finished games
    margin: Estimate                # mean winning margin
    unfinished: int                 # games still open after max_hands hands
    max_hands: int
    violations: dict
    counts: np.ndarray = counts_field()

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({"game": "canasta", "question": "game", "policies": list(self.policies), "games": self.games,
                  "win": [e.to_dict() for e in self.win], "mean_hands": self.mean_hands.to_dict(),
                  "hands_distribution": {str(k): e.to_dict() for k, e in self.hands_distribution.items()},
                  "margin": self.margin.to_dict(), "unfinished": self.unfinished, "max_hands": self.max_hands,
                  "violations": dict(self.violations)})
        return d

    def to_frame(self):
        """One row a side: ``policy`` (its seats'), ``win``, ``lo``, ``hi``."""
        import pandas as pd

        rows = [{"side": s, "policy": ",".join(self.policies[s::2]), "win": e.value, "lo": e.lo, "hi": e.hi}
                for s, e in enumerate(self.win)]
        return pd.DataFrame(rows).set_index("side")

    def __repr__(self) -> str:
        wins = ", ".join(f"side {s} {e.format(percent=True)}" for s, e in enumerate(self.win))
        return (f"Polish Canasta games to {self.rules.target:,}, {self.games:,} games, policies "
                f"{','.join(self.policies)}, seed {self.seed}: wins {wins} (side 0 deals first); hands a game "
                f"{self.mean_hands.format()}; winning margin {self.margin.format()}; {self.unfinished:,} unfinished "
                f"after {self.max_hands} hands")


@takes_backend
def game(policies=DEFAULT_POLICIES, *, rules: CanastaRules | None = None, samples: int | None = None,
         target_halfwidth: float | None = None, rng=None, threads: int | None = None,
         params: HeuristicParams | None = None, max_hands: int = DEFAULT_MAX_HANDS,
         score=None, dealer: int | None = None, check: bool = False, progress: bool = False) -> GameResult:
    """P(each side wins the game to ``rules.target``) and the hands it takes: ``samples`` whole
    games (default 2,000), or until P(side 0 wins)'s 95% interval is ``target_halfwidth`` wide;
    side 0 deals first. A game still open after ``max_hands`` hands is ``unfinished``.
    ``score`` (each side's total) and ``dealer`` (the side dealing the first hand) start the
    games from a game in progress: by default 0 each and side 0 deals.

    >>> g = game("heuristic", rules=CanastaRules(target=1500), samples=50, rng=1)
    >>> g.games, round(sum(e.value for e in g.win), 6)
    (50, 1.0)
    """
    rules = check_rules(rules)
    check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    samples = _size(samples, target_halfwidth, DEFAULT_GAMES)
    _check_max_hands(max_hands)
    start = game_start(score, dealer, rules)
    codes, names, user, hp = resolve_policies(policies, params)

    def halfwidth(c, n):
        return Estimate.proportion(P.G.view(c).first_dealer_wins, n).halfwidth

    res = engine.run(P.game_kernel, (deck_kinds(rules.jokers), rules.pack(), int(max_hands), P.Seats(codes, hp),
                                     P.check_arg(check, deck_counts(rules.jokers)), kernel_policy(user),
                                     _look(codes), _policies.smart_arg(codes), start),
                     P.G.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=halfwidth, rng=rng,
                     threads=threads, progress=progress, chunk_size=64, unit="game")
    c = res.counts
    v = P.G.view(c)
    n = res.samples
    done = n - v.unfinished
    win = tuple(Estimate.proportion(k, n) for k in (v.first_dealer_wins, done - v.first_dealer_wins))
    dist = {h: Estimate.proportion(x, done) for h, x in enumerate(v.hands) if x > 0} if done else {}
    return GameResult(policies=names, games=int(n), win=win, mean_hands=_mean(v.hands_sum, v.hands_sq, done),
                      hands_distribution=dist, margin=_mean(v.margin, v.margin_sq, done),
                      unfinished=int(v.unfinished), max_hands=int(max_hands), violations=_violations(v.violations),
                      counts=c, rules=rules, samples=int(n), seed=res.seed, partial=res.partial)


# ---- house options, paired on the same deals --------------------------------------------------------
HOUSE_OPTIONS = {
    "wild_limit=three": {"wild_limit": "three"},
    "wild_limit=none": {"wild_limit": "none"},
    "min_first_meld=50": {"min_first_meld": 50},
    "min_first_meld=0": {"min_first_meld": 0},
    "jokers=6": {"jokers": 6},
    "going_out=meld_all": {"going_out": "meld_all"},
    "swap_twos=True": {"swap_twos": True},
}


@dataclass(frozen=True, repr=False, kw_only=True)
class HouseOptionsResult(Result):
    """Each house option against the base rules on the same deals (see :func:`house_options`)."""

    policies: tuple
    base: PlayResult
    options: dict        # {name: PlayResult}
    side0_change: dict   # {name: Estimate} paired change of side 0's hand score (option - base)
    games: dict = field(default_factory=dict)  # {"base" | name: GameResult} with games= > 0

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({"game": "canasta", "question": "house_options", "policies": list(self.policies),
                  "base": self.base.to_dict(),
                  "options": {k: {"rules": v.rules.to_dict(), "figures": v.to_dict(),
                                  "side0_change": self.side0_change[k].to_dict()} for k, v in self.options.items()},
                  "games": {k: g.to_dict() for k, g in self.games.items()}})
        return d

    def to_frame(self):
        import pandas as pd

        rows = []
        for name, r in [("base", self.base)] + list(self.options.items()):
            rows.append({"rules": name, "opened_by_round5_side0": r.opened_by_round[0][4].value,
                         "canastas_side0": r.canastas_per_hand[0].value, "pile_takes_side0": r.pile_takes[0].value,
                         "went_out": r.went_out.value, "end_turn": r.end_turn.value, "score_side0": r.score[0].value,
                         "side0_change": self.side0_change[name].value if name in self.side0_change else 0.0,
                         "side0_change_lo": self.side0_change[name].lo if name in self.side0_change else 0.0,
                         "side0_change_hi": self.side0_change[name].hi if name in self.side0_change else 0.0})
        return pd.DataFrame(rows)

    def __repr__(self) -> str:
        lines = [f"Polish Canasta house options, {self.base.hands:,} hands each on the same deals, policies "
                 f"{','.join(self.policies)}, seed {self.seed}",
                 f"  {'rules':22} {'opened r5':>10} {'canastas':>9} {'takes':>7} {'out':>7} {'turns':>7}"
                 f"  side-0 score change (paired)"]
        for name, r in [("base", self.base)] + list(self.options.items()):
            ch = self.side0_change.get(name)
            txt = "" if ch is None else (ch.format() + ("  (no difference at this precision)"
                                                        if ch.contains_zero() else ""))
            lines.append(f"  {name:22} {r.opened_by_round[0][4].value:10.3f} {r.canastas_per_hand[0].value:9.3f} "
                         f"{r.pile_takes[0].value:7.2f} {r.went_out.value:7.3f} {r.end_turn.value:7.1f}  {txt}")
        if self.games:
            lines.append("  whole games (same seed for every rules set): side dealing first wins / hands a game")
            for name, g in self.games.items():
                lines.append(f"  {name:22} {g.win[0].format(percent=True)} / {g.mean_hands.format()}")
        return "\n".join(lines)


@takes_backend
def house_options(policies=DEFAULT_POLICIES, *, rules: CanastaRules | None = None, samples: int | None = None,
                  rng=None, threads: int | None = None, options=None, params: HeuristicParams | None = None,
                  games: int = 0, check: bool = False, progress: bool = False) -> HouseOptionsResult:
    """The figures of :func:`play` under each house option, each paired with the base ``rules``
    on the same deals (the same random stream from the shuffle on; with ``jokers=6`` the pack
    differs, so only the stream is shared). ``options``: names of :data:`HOUSE_OPTIONS`
    (default all) or a dict ``{name: {field: value}}``. ``games`` > 0 also plays that many
    whole games under each rules set (from the same seed): P(the side dealing first wins) and
    hands a game. Interrupted (Ctrl-C), it returns the options run so far, ``partial=True``;
    those not reached are absent."""
    rules = check_rules(rules)
    check_run(samples=samples, threads=threads, rng=rng)
    samples = _size(samples, None, DEFAULT_HOUSE_HANDS)
    if options is None:
        options = HOUSE_OPTIONS
    elif not isinstance(options, dict):
        bad = [o for o in options if o not in HOUSE_OPTIONS]
        if bad:
            raise ValueError(f"unknown house option(s) {', '.join(map(repr, bad))}; choose from "
                             + ", ".join(HOUSE_OPTIONS))
        options = {o: HOUSE_OPTIONS[o] for o in options}
    codes, names, user, hp = resolve_policies(policies, params)
    alts = {}
    for name, fields in options.items():
        try:
            alts[name] = replace(rules, **fields)
        except TypeError:
            raise ValueError(f"house option {name!r} names an unknown rules field: {fields}") from None
    if games and (isinstance(games, bool) or not isinstance(games, (int, np.integer)) or games < 0):
        raise ValueError(f"games={games!r} must be a whole number >= 0")
    # Interrupted (Ctrl-C), the runs stop: the options (and games) not reached are absent.
    steps = engine.InOrder()
    base = None
    out_opts, change = {}, {}
    for name, alt in alts.items():
        res = steps.step(engine.run, P.paired_kernel,
                         (P.RulesSet(deck_kinds(rules.jokers), rules.pack()),
                          P.RulesSet(deck_kinds(alt.jokers), alt.pack()),
                          P.Seats(codes, hp), P.check_arg(check, deck_counts(rules.jokers)),
                          P.check_arg(check, deck_counts(alt.jokers)), kernel_policy(user), _look(codes),
                          _policies.smart_arg(codes)),
                         P.PAIRED.size, samples=samples, rng=rng, threads=threads, progress=progress,
                         chunk_size=CHUNK, unit="hand")
        if res is None:
            break
        c = res.counts
        n = res.samples
        v = P.PAIRED.view(c)
        if base is None:
            base = _play_result(v.a.copy(), names, rules, n, res.seed, res.partial)
        out_opts[name] = _play_result(v.b.copy(), names, alt, n, res.seed, res.partial)
        change[name] = _mean(v.change, v.change_sq, n)
        if steps.partial:
            break
    game_res = {}
    if games and not steps.partial:
        assert base is not None  # the first option ran, or the runs would be partial
        _, gseed = as_seed_sequence(rng if rng is not None else base.seed)
        for name, alt in [("base", rules)] + list(alts.items()):
            g = steps.step(game, policies, rules=alt, samples=int(games), rng=gseed, threads=threads, params=params)
            if g is None:
                break
            game_res[name] = g
            if steps.partial:
                break
    # base is None only when the first run was interrupted (a partial result)
    return HouseOptionsResult(policies=names, base=base,  # type: ignore[arg-type]
                              options=out_opts, side0_change=change, games=game_res, rules=rules,
                              samples=int(samples), seed=base.seed if base else None,
                              partial=steps.partial)


# ---- strength: in hands, and in whole games ----------------------------------------------------------------
@dataclass(frozen=True, repr=False, kw_only=True)
class GameStrengthResult(Result):
    """Player A against player B in whole games to ``rules.target``, paired (see
    :func:`game_strength`): ``win`` P(A's side wins a game), ``points`` A's margin a game,
    ``better`` P(A's side scored more over the pair's two games), ``mean_hands`` hands a game,
    ``unfinished`` games still open after ``max_hands`` hands (no winner)."""

    a: str
    b: str
    pairs: int
    win: Estimate
    points: Estimate
    better: Estimate
    mean_hands: Estimate
    unfinished: int
    max_hands: int
    violations: dict
    counts: np.ndarray = counts_field()

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({"game": "canasta", "question": "game_strength", "a": self.a, "b": self.b, "pairs": self.pairs,
                  "win": self.win.to_dict(), "points": self.points.to_dict(), "better": self.better.to_dict(),
                  "mean_hands": self.mean_hands.to_dict(), "unfinished": self.unfinished,
                  "max_hands": self.max_hands, "violations": dict(self.violations)})
        return d

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([{"a": self.a, "b": self.b, "pairs": self.pairs, "win": self.win.value,
                              "lo": self.win.lo, "hi": self.win.hi, "points": self.points.value,
                              "mean_hands": self.mean_hands.value, "unfinished": self.unfinished}])

    def __repr__(self) -> str:
        verdict = " (no difference at this precision)" if self.win.lo <= 0.5 <= self.win.hi else ""
        return (f"Canasta game strength {self.a} vs {self.b} in games to {self.rules.target:,}: {self.a}'s side "
                f"wins {self.win.format(percent=True)} of the games{verdict}, {self.points.format()} points a game; "
                f"{self.pairs:,} paired games (seed {self.seed})")


def _match(a, b, rules, samples, rng, threads, params_a, params_b, check, progress, max_hands=None):
    """A's partnership against B's on the same deals, sides swapped: in hands, or with
    ``max_hands`` in games. Returns the names, the run and its counts' view."""
    rules = check_rules(rules)
    check_run(samples=samples, threads=threads, rng=rng)
    games = max_hands is not None
    if games:
        _check_max_hands(max_hands)
    ca, na, ua, ha = resolve_policies(a, params_a)
    cb, nb, ub, hb = resolve_policies(b, params_b)
    user = ua if na[0] == "user" else ub
    if na[0] == "user" and nb[0] == "user" and ua is not ub:
        raise ValueError("at most one user @njit policy per run")
    tail = (P.Seats(int(ca[0]), ha[0]), P.Seats(int(cb[0]), hb[0]), P.check_arg(check, deck_counts(rules.jokers)),
            kernel_policy(user), _look((ca[0], cb[0])), _policies.smart_arg((ca[0], cb[0])))
    head = (deck_kinds(rules.jokers), rules.pack())
    look = _look((ca[0], cb[0])) is not None
    # a look-ahead pair costs hundreds of plain ones: small chunks keep both cores busy on a small
    # match and Ctrl-C quick
    kern, lay, size = ((P.game_match_kernel, P.GM, 8) if games else (P.match_kernel, P.M, 16 if look else 256))
    res = engine.run(kern, head + ((int(max_hands),) if games else ()) + tail, lay.size,
                     samples=_size(samples, None, DEFAULT_STRENGTH_PAIRS), rng=rng, threads=threads,
                     progress=progress, chunk_size=size, unit="game pair" if games else "pair")
    v = lay.view(res.counts)
    n = int(res.samples)
    common = dict(a=na[0], b=nb[0], pairs=n, points=_mean(v.diff2, v.diff2_sq, n).scaled(0.5),
                  better=Estimate.proportion(v.better, n), violations=_violations(v.violations), counts=res.counts,
                  rules=rules, samples=n, seed=res.seed, partial=res.partial)
    return v, common


@takes_backend
def strength(a=STRENGTH_A, b=STRENGTH_B, *, rules: CanastaRules | None = None, samples: int | None = None,
             rng=None, threads: int | None = None, params_a: HeuristicParams | None = None,
             params_b: HeuristicParams | None = None, check: bool = False, progress: bool = False) -> StrengthResult:
    """A's partnership against B's on the same deals with the sides swapped: A's edge in points
    a hand with its 95% interval (a :class:`~cardodds.results.StrengthResult`; ``samples`` deal
    pairs, default 5,000). :func:`game_strength` asks the same in whole games.

    >>> s = strength("heuristic", "random", samples=100, rng=1)
    >>> s.points.value > 0, s.unit
    (True, 'hand')
    """
    _, common = _match(a, b, rules, samples, rng, threads, params_a, params_b, check, progress)
    return StrengthResult(game="canasta", unit="hand", **common)


@takes_backend
def game_strength(a=STRENGTH_A, b=STRENGTH_B, *, rules: CanastaRules | None = None, samples: int | None = None,
                  rng=None, threads: int | None = None, params_a: HeuristicParams | None = None,
                  params_b: HeuristicParams | None = None, max_hands: int = DEFAULT_MAX_HANDS, check: bool = False,
                  progress: bool = False) -> GameStrengthResult:
    """A's partnership against B's in whole games to ``rules.target``: each of the ``samples``
    pairs (default 5,000) is two games from the same random stream and pack order, A's side
    dealing first in one and B's in the other. ``win`` is P(A's side wins a game) (the mean
    over the pair), ``points`` A's margin a game, ``better`` P(A's side scored more than B's
    over the pair's two games), ``mean_hands`` the hands a game.

    >>> g = game_strength("heuristic", "random", rules=CanastaRules(target=1500), samples=4, rng=1)
    >>> g.win.value > 0.5
    True
    """
    v, common = _match(a, b, rules, samples, rng, threads, params_a, params_b, check, progress, max_hands)
    n = common["pairs"]
    return GameStrengthResult(win=_mean(v.wins, v.wins_sq, n).scaled(0.5), mean_hands=_mean(v.hands, v.hands_sq, 2 * n),
                              unfinished=int(v.unfinished), max_hands=int(max_hands), **common)


# ---- a traced hand -------------------------------------------------------------------------------------------
def trace(policies=DEFAULT_POLICIES, *, rules: CanastaRules | None = None, rng=None,
          params: HeuristicParams | None = None, score=None) -> Trace:
    """Every move of one hand (:class:`~cardodds.trace.Trace`): each seat's 12 cards dealt, then
    turn by turn the card drawn and every move, in the record's words
    (:mod:`cardodds.canasta._record`; what :func:`cardodds.canasta.review.review` reads), the
    game's words in each move's note; ``result`` holds each side's score and the seat that went
    out (-1: the stock ran out). ``score``: the game score before the hand (side 0, side 1), a
    hand of a game: the players know it (heuristic2 goes out to win the game) and the record's
    ``score:`` line says it.

    >>> t = trace("random", rng=3)
    >>> [m.action for m in t.moves[:5]]
    ['deal', 'deal', 'deal', 'deal', 'draw']
    """
    from ..rng import chunk_state

    rules = check_rules(rules)
    check_run(rng=rng)
    score = game_score(score, rules, "side 0 (seats 0+2) and side 1")
    codes, names, user, hp = resolve_policies(policies, params)
    ss, seed = as_seed_sequence(rng)
    moves, info, result = _record.play_hand(chunk_state(ss, 0), rules, codes, hp, compile_policy(user), score)
    return Trace("canasta", 4, moves, info={"policies": ", ".join(names), **info}, result=result, rules=rules,
                 seed=seed)


# ---- the tuner ------------------------------------------------------------------------------------------------
#: Values the tuner tries for each named parameter.
TUNE_GRID = {
    "open_from_turn": (0, 2, 4),
    "take_min_pile": (1, 2, 4, 8),
    "take_min_gain": (0, 20, 60, 150),
    "discard_care": (0, 1),
    "out_needs_canasta": (0, 1),
    "feed_opponents": (0, 1),
    "keep_wilds": (0, 1, 2, 3),
    "min_naturals": (2, 3),
}


@takes_backend
def tune(*, rules: CanastaRules | None = None, samples: int = DEFAULT_TUNE_SAMPLES, rng=None,
         threads: int | None = None, rounds: int = 1, grid: dict | None = None,
         confirm_samples: int | None = None) -> TuneResult:
    """Search the heuristic's parameters by paired matches (the same deals, sides swapped).

    Coordinate search: for each parameter in turn, each value of ``grid`` plays ``samples``
    paired deals against the best set so far and replaces it only when its edge's 95%
    interval lies above zero. The best set's edge over the defaults is then measured on fresh
    deals (``confirm_samples``, default ``2 * samples``), so the search's luck does not
    inflate it. Returns a :class:`TuneResult`.

    >>> r = tune(samples=40, grid={"take_min_pile": (2, 8)}, rng=1)
    >>> sorted(r.best.to_dict()) == sorted(HeuristicParams().to_dict())
    True
    """
    rules = check_rules(rules)
    check_run(samples=samples, threads=threads, rng=rng)
    if confirm_samples is not None:
        check_run(samples=confirm_samples)
    grid = TUNE_GRID if grid is None else grid
    for name in grid:
        if name not in _policies.HEURISTIC_DEFAULTS:
            raise ValueError(f"tune: {name!r} is no heuristic parameter; "
                             f"choose from {', '.join(_policies.HEURISTIC_DEFAULTS)}")
    ss, seed = as_seed_sequence(rng)
    seeds = (child(ss, i) for i in itertools.count())  # match i seeded by child i of the run's seed
    best = HeuristicParams()
    history = []
    # Interrupted (Ctrl-C), the matches stop: the best set so far (an interrupted match
    # changes nothing) and, if its match was not reached, an edge of NaN; partial=True.
    steps = InOrder()
    candidates = ((name, v) for _ in range(rounds) for name, values in grid.items() for v in values)
    for name, v in candidates:
        if getattr(best, name) == v:
            continue
        cand = replace(best, **{name: v})
        res = steps.step(strength, "heuristic", "heuristic", rules=rules, samples=samples, rng=next(seeds),
                         threads=threads, params_a=cand, params_b=best)
        if res is None or steps.partial:
            break
        history.append((name, v, res.points))
        if res.points.lo > 0:
            best = cand
    final = steps.step(strength, "heuristic", "heuristic", rules=rules, samples=confirm_samples or 2 * samples,
                       rng=next(seeds), threads=threads, params_a=best, params_b=HeuristicParams())
    edge = final.points if final is not None else Estimate.mean(0.0, 0.0, 0)
    return TuneResult(best=best, edge=edge, history=tuple(history), rules=rules, samples=samples, seed=seed,
                      partial=steps.partial)


@dataclass(frozen=True, repr=False, kw_only=True)
class TuneResult(Result):
    """The tuner's best parameter set and its edge over the defaults (points a hand, paired)."""

    best: HeuristicParams
    edge: Estimate
    history: tuple

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({"game": "canasta", "question": "tune", "best": self.best.to_dict(), "edge": self.edge.to_dict(),
                  "history": [{"parameter": n, "value": v, "edge": e.to_dict()} for n, v, e in self.history]})
        return d

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([{"parameter": n, "value": v, "edge": e.value, "lo": e.lo, "hi": e.hi}
                             for n, v, e in self.history])

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.best.to_dict().items() if v != _policies.HEURISTIC_DEFAULTS[k]}
        verdict = " (no difference at this precision)" if self.edge.contains_zero() else ""
        return (f"Canasta heuristic tuned ({len(self.history)} paired matches of {self.samples:,} deals, seed "
                f"{self.seed}): changes {changed or 'none'}; edge over the defaults {self.edge.format()} points "
                f"a hand on fresh deals{verdict}")
