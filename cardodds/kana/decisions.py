"""Känä decisions: which card to känä, strategies compared, strategy tables.

>>> from cardodds.kana import compare, advise, strategies as st
>>> c = compare(st.blind("first"), st.blind("third"), seat=1, players=4, samples=100_000, rng=1)
>>> c.better is None         # official rules: no choice changes anything
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from fractions import Fraction
from functools import lru_cache
from importlib import resources

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from .._deprecate import renamed
from .._validate import check_threads
from ..cards import RANKS, card_str, format_cards, parse_cards
from ..engine import InOrder, check_run_size, run, takes_backend
from .._html import result_html
from ..results import Result, counts_field
from ..rng import RngLike, as_seed_sequence
from ..stats import Z95, Estimate, paired_difference
from ._defaults import DECISION_SAMPLES, TABLE_SAMPLES
from ._play import (
    COMBOS, KIND_BLIND, Posterior, advice_layout, advise_worlds, config_layout, play_configs, posterior_tables,
)
from .rules import KanaRules
from .strategies import (
    Strategy, best_pair, blind, combos, kana_ranks, pack, parse_strategy, peek_all_table,
)

__all__ = [
    "AdviceResult", "ComparisonResult", "StrategyTableResult", "advise", "compare", "equilibrium", "expected_value",
    "strategy_table",
]

#: Old result names, kept working with a DeprecationWarning.
_DEPRECATED = {
    "Advice": "AdviceResult", "Comparison": "ComparisonResult", "StrategyTable": "StrategyTableResult",
}
__getattr__ = renamed(globals(), _DEPRECATED)

DEFAULT_SAMPLES = DECISION_SAMPLES
MAX_ITERATIONS = 12


def _rules(players, variant, rules) -> KanaRules:
    if rules is not None:
        if not isinstance(rules, KanaRules):
            raise ValueError("rules= must be a cardodds.kana.KanaRules")
        if players is not None and players != rules.players:
            raise ValueError(f"players={players} disagrees with rules.players={rules.players}")
        if variant is not None and variant != rules.variant:
            raise ValueError(f"variant={variant!r} disagrees with rules.variant={rules.variant!r}")
        return rules
    return KanaRules(players=4 if players is None else players, variant=variant or "official")


def _run_size(samples, target_halfwidth, threads=None, default=DEFAULT_SAMPLES):
    check_run_size(samples, target_halfwidth)
    check_threads(threads)
    if samples is None and target_halfwidth is None:
        return default, None
    return samples, target_halfwidth


def _seat_list(table, rules: KanaRules, what: str) -> list[Strategy]:
    n = rules.players
    if isinstance(table, (str, Strategy)):
        table = [table] * n
    table = list(table)
    if len(table) != n:
        raise ValueError(f"{what} lists {len(table)} strategies for {n} seats; give one per seat or one for all")
    return [parse_strategy(s, rules.variant) for s in table]


def _keys_of(variant: str) -> int:
    """How many focal keys a variant breaks results down by (peeked rank, rank combination)."""
    return {"official": 1, "peek-one": 13}.get(variant, COMBOS)


def _configs_run(rules, configs, focal, samples, target_halfwidth, rng, threads, progress, headline):
    """Play ``configs`` on the same deals; returns the run and its counts layout."""
    n = rules.players
    table, custom = pack(configs, n)
    C = len(configs)
    K = _keys_of(rules.variant)
    layout = config_layout(n, C, K)
    kargs = (rules.pack(), layout.offsets_array(), table, focal, custom)
    res = run(play_configs, kargs, layout.size, samples=samples, target_halfwidth=target_halfwidth,
              halfwidth=headline(layout), rng=rng, threads=threads, progress=progress, unit="round")
    return res, layout, K


def _by_key(counts, layout, name: str, K: int) -> np.ndarray:
    """Field ``name`` of the configuration counts as rows of ``K`` keys."""
    return counts[layout.slice(name)].reshape(-1, K)


# ---------------------------------------------------------------------------------------
# Comparing strategies
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class ComparisonResult(Result):
    """Strategy ``a`` against strategy ``b`` in one seat, on the same deals.

    ``difference`` = P(win with a) - P(win with b), paired; ``better`` names the better one
    only when its 95% interval excludes zero, else it is None: no difference at this precision.
    """

    seat: int
    a: str
    b: str
    opponents: tuple[str, ...]
    win_a: Estimate
    win_b: Estimate
    difference: Estimate
    counts: np.ndarray | None = counts_field(default=None)

    @property
    def better(self) -> str | None:
        if self.difference.contains_zero():
            return None
        return self.a if self.difference.value > 0 else self.b

    @property
    def verdict(self) -> str:
        if self.better is None:
            return f"no difference at this precision ({self.samples:,} paired rounds)"
        d = self.difference
        return f"{self.better} is better by {abs(d.value):.4f} [{d.lo:+.4f}, {d.hi:+.4f}]"

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = [
            {"strategy": self.a, "win": self.win_a.value, "lo": self.win_a.lo, "hi": self.win_a.hi},
            {"strategy": self.b, "win": self.win_b.value, "lo": self.win_b.lo, "hi": self.win_b.hi},
            {"strategy": "difference (paired)", "win": self.difference.value, "lo": self.difference.lo,
             "hi": self.difference.hi},
        ]
        return pd.DataFrame(rows).set_index("strategy")

    def to_dict(self) -> dict:
        return {
            "players": self.rules.players, "variant": self.rules.variant, "seat": self.seat, "a": self.a,
            "b": self.b, "opponents": list(self.opponents), "samples": self.samples, "seed": self.seed,
            "partial": self.partial, "rules": self.rules.to_dict(), "version": self.version,
            "win_a": self.win_a.to_dict(), "win_b": self.win_b.to_dict(), "difference": self.difference.to_dict(),
            "better": self.better,
        }

    def __repr__(self) -> str:
        r = self.rules
        return (
            f"Känä, {r.players} players, {r.variant}: seat {self.seat}, {self.a} vs {self.b}\n"
            f"  {self.a:<20} {self.win_a.format(4)}\n  {self.b:<20} {self.win_b.format(4)}\n"
            f"  difference           {self.difference.format(4, sign=True)}"
            f"\n  {self.verdict}"
        )

    def _repr_html_(self) -> str:
        return result_html(self.verdict, self.to_frame())

    def plot(self, ax=None):
        """Both win probabilities and their paired difference, with 95% intervals."""
        return _plot_estimates(ax, [(self.a, self.win_a), (self.b, self.win_b)], "P(win)",
                               ("a - b", self.difference))


def _plot_estimates(ax, rows, ylabel, diff=None):
    """Points with 95% interval bars; a paired difference on a second axis, with its zero line."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.2))
    x = np.arange(len(rows))
    v = np.array([e.value for _, e in rows])
    ax.errorbar(x, v, yerr=[v - [e.lo for _, e in rows], [e.hi for _, e in rows] - v], fmt="o", capsize=3)
    ax.set_xticks(x, [name for name, _ in rows])
    ax.set_ylabel(ylabel)
    if diff is not None:
        name, d = diff
        twin = ax.twinx()
        twin.errorbar([len(rows)], [d.value], yerr=[[d.value - d.lo], [d.hi - d.value]], fmt="s", color="#c0392b",
                      capsize=3)
        twin.axhline(0, color="#c0392b", lw=0.8, ls=":")
        twin.set_ylabel(f"difference ({name})", color="#c0392b")
        ax.set_xticks(list(x) + [len(rows)], [n for n, _ in rows] + [name])
    return ax


def _paired_headline(layout):
    plus, minus = layout.slice("plus"), layout.slice("minus")

    def hw(counts, total):
        return Z95 * paired_difference(counts[plus].sum(), counts[minus].sum(), total).se if total > 1 else math.inf

    return hw


@takes_backend
def compare(a, b, *, seat: int = 0, table="blind", players: int | None = None, variant: str | None = None,
            rules: KanaRules | None = None, samples: int | None = None, target_halfwidth: float | None = None,
            rng: RngLike = None, threads: int | None = None, progress: bool = False) -> ComparisonResult:
    """Win rate of strategy ``a`` and of ``b`` in ``seat`` against the others' ``table``
    (one strategy for all or one per seat), and their paired difference on the same deals.

    The variant comes from ``rules``, ``variant``, or the strategies themselves (a
    threshold is peek-one, best-pair peek-all, blind fits all: official). With
    ``target_halfwidth`` the run goes on until the difference's 95% interval is that
    narrow. Under the official rules every comparison comes out equal within its interval.
    """
    if rules is None and variant is None:
        variant = _guess_variant(a, b, *(table if isinstance(table, (list, tuple)) else [table]))
    rules = _rules(players, variant, rules)
    n = rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} does not exist at a table of {n}; seats count 0..{n - 1} from the starter")
    others = _seat_list(table, rules, "table")
    sa = parse_strategy(a, rules.variant)
    sb = parse_strategy(b, rules.variant)
    ca = list(others)
    cb = list(others)
    ca[seat] = sa
    cb[seat] = sb
    samples, thw = _run_size(samples, target_halfwidth, threads)
    res, layout, K = _configs_run(rules, [ca, cb], seat, samples, thw, rng, threads, progress, _paired_headline)
    N = res.samples
    focal_wins = _by_key(res.counts, layout, "focal_wins", K).sum(axis=1)
    plus, minus = (int(_by_key(res.counts, layout, name, K).sum()) for name in ("plus", "minus"))
    return ComparisonResult(
        rules=rules, seat=seat, a=sa.name, b=sb.name,
        opponents=tuple(s.name for i, s in enumerate(others) if i != seat),
        win_a=Estimate.proportion(focal_wins[0], N), win_b=Estimate.proportion(focal_wins[1], N),
        difference=paired_difference(plus, minus, N), samples=N, seed=res.seed,
        partial=res.partial, counts=res.counts,
    )


def _guess_variant(*specs) -> str:
    for s in specs:
        if isinstance(s, Strategy) and s.variant != "any":
            return s.variant
        if isinstance(s, str):
            t = s.lower()
            if t.startswith(("threshold", "kana:")):
                return "peek-one"
            if t in ("best-pair", "highest-sum", "kana-highest"):
                return "peek-all"
    return "official"


# ---------------------------------------------------------------------------------------
# Strategy tables and the equilibrium
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class StrategyTableResult(Result):
    """The best känä for each peeked rank (peek-one) or rank combination (peek-all).

    ``rows`` has one row per key with the table's action, the win probability of a player
    using it given that key against blind opponents and against opponents who use the
    table (the equilibrium), and the paired difference to the next best action there.
    ``iterations`` counts best-response rounds until the table stopped changing.
    """

    strategy: Strategy
    win_vs_blind: Estimate
    win_at_table: Estimate
    iterations: int
    converged: bool
    rows: pd.DataFrame = counts_field()  # a frame has no ==; the estimates above summarise it

    @property
    def ev_vs_blind(self) -> Estimate:
        """Expected gain per round in antes against blind opponents: n P(win) - 1."""
        return self.win_vs_blind.scaled(self.rules.players, -1)

    @property
    def ev_at_table(self) -> Estimate:
        return self.win_at_table.scaled(self.rules.players, -1)

    def to_frame(self) -> pd.DataFrame:
        return self.rows.copy()

    def to_dict(self) -> dict:
        rows = []
        for key, r in self.rows.iterrows():
            rows.append({
                "key": key, "action": r["action"],
                "win_vs_blind": _est(r, "vs_blind"), "win_at_table": _est(r, "at_table"),
                "difference": _est(r, "diff"),
            })
        return {
            "players": self.rules.players, "variant": self.rules.variant, "samples": self.samples, "seed": self.seed,
            "rules": self.rules.to_dict(), "version": self.version, "iterations": self.iterations,
            "converged": self.converged, "rows": rows, "win": self.win_at_table.to_dict(),
            "win_vs_blind": self.win_vs_blind.to_dict(), "ev_vs_blind": self.ev_vs_blind.to_dict(),
            "ev_at_table": self.ev_at_table.to_dict(),
        }

    def __repr__(self) -> str:
        r = self.rules
        head = (f"Känä {r.variant} strategy table, {r.players} players ({self.samples:,} rounds a step, "
                f"{self.iterations} best-response iterations{'' if self.converged else ', NOT converged'})")
        lines = [head]
        show = self.rows if len(self.rows) <= 20 else self.rows.head(20)
        lines.append(f"  {'key':<8} {'action':<10} {'win vs blind':<26} {'win at table':<26}")
        for key, row in show.iterrows():
            lines.append(f"  {key:<8} {row['action']:<10} {row['vs_blind']:.4f} [{row['vs_blind_lo']:.4f}, "
                         f"{row['vs_blind_hi']:.4f}]   {row['at_table']:.4f} [{row['at_table_lo']:.4f}, "
                         f"{row['at_table_hi']:.4f}]")
        if len(self.rows) > 20:
            lines.append(f"  ... {len(self.rows) - 20} more rows (.to_frame())")
        lines.append(f"  table vs blind opponents: win {self.win_vs_blind.format(4)}, "
                     f"EV {self.ev_vs_blind.value:+.4f} antes")
        lines.append(f"  table vs itself:          win {self.win_at_table.format(4)}, "
                     f"EV {self.ev_at_table.value:+.4f} antes")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return result_html(self.__repr__().splitlines()[0], self.rows)

    def plot(self, ax=None):
        """Win probability by key against blind opponents and at the table, with intervals."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(8, 3.5), layout="constrained")
        x = np.arange(len(self.rows))
        for col, label, colour in (("vs_blind", "vs blind", "#7a9cc6"), ("at_table", "at the table", "#c0392b")):
            v = self.rows[col].to_numpy()
            ax.errorbar(x, v, yerr=[v - self.rows[col + "_lo"], self.rows[col + "_hi"] - v], fmt="o-", ms=3,
                        capsize=2, label=label, color=colour)
        ax.axhline(1 / self.rules.players, color="grey", lw=0.8, ls=":")
        if len(self.rows) <= 20:
            ax.set_xticks(x, [str(k) for k in self.rows.index])
            ax.set_xlabel("peeked rank" if self.rules.variant == "peek-one" else "hand (ranks)")
        else:
            ax.set_xlabel("hand (rank combinations in table order)")
        ax.set_ylabel("P(win)")
        ax.set_title(f"Känä {self.rules.variant} strategy table, {self.rules.players} players: win rate by key")
        ax.legend(frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))  # beside the plot, clear of the curves
        return ax


def _est(row, col) -> dict:
    v = row[col]
    return {"value": float(v), "se": float(row[col + "_se"]), "lo": float(row[col + "_lo"]),
            "hi": float(row[col + "_hi"])}


def _keys(variant: str) -> list[str]:
    if variant == "peek-one":
        return list(RANKS)
    return ["".join(c) for c in combos()]


def _actions(variant: str) -> list[str]:
    return ["känä", "keep"] if variant == "peek-one" else ["low", "middle", "high"]


def _forced(variant: str) -> list[Strategy]:
    """The focal player's pure actions, each as a strategy."""
    if variant == "peek-one":
        return [kana_ranks("2-A", "känä peeked"), kana_ranks([], "keep peeked")]
    return [peek_all_table(np.full(COMBOS, j), name) for j, name in enumerate(("känä low", "känä middle", "känä high"))]


def _strategy_from(variant: str, actions: np.ndarray, name: str) -> Strategy:
    if variant == "peek-one":
        return kana_ranks([r for r in range(2, 15) if actions[r - 2] == 0], name=name)
    return peek_all_table(actions, name=name)


def _run_focal(rules, forced, opponents, samples, rng, threads, progress):
    """Deals where one seat plays each forced action (paired) and the others ``opponents``.

    Every seat takes the focal place for an equal share of the samples, as the starter
    rotates at a real table, each share from its own child of the seed. Returns
    ``(counts, rounds, seed, partial)``, layout, keys; an interrupted run ends the seats
    (``partial``), the counts being those of the seats played so far."""
    n = rules.players
    total = None
    N = 0
    per = -(-samples // n)
    ss, seed = as_seed_sequence(rng)
    steps = InOrder()
    for seat in range(n):
        configs = []
        for s in forced:
            row = [opponents] * n
            row[seat] = s
            configs.append(row)
        child = np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + (1_000_000 + seat,))
        got = steps.step(_configs_run, rules, configs, seat, per, None, child, threads, progress, _paired_headline,
                         partial_of=lambda g: g[0].partial)
        if got is None:
            break
        res, layout, K = got
        total = res.counts if total is None else total + res.counts
        N += res.samples
        if steps.partial:
            break
    return (total, N, seed, steps.partial), layout, K


def _per_key(counts, layout, K, C):
    """Deals, wins per action, and the paired plus/minus counts, each by focal key."""
    deals = _by_key(counts, layout, "deals", K)[0]
    wins = _by_key(counts, layout, "focal_wins", K)
    plus = _by_key(counts, layout, "plus", K) if C > 1 else None
    minus = _by_key(counts, layout, "minus", K) if C > 1 else None
    return deals, wins, plus, minus


def _pair_index(C, c1, c2):
    k = 0
    for a in range(C):
        for b in range(a + 1, C):
            if (a, b) == (c1, c2):
                return k
            k += 1
    raise IndexError


def _diff(plus, minus, deals, C, c1, c2, key) -> Estimate:
    """Paired difference of action c1 minus action c2 at ``key``."""
    if c1 == c2:
        return Estimate.exact_value(0.0)
    a, b = (c1, c2) if c1 < c2 else (c2, c1)
    p = _pair_index(C, a, b)
    d = paired_difference(plus[p, key], minus[p, key], deals[key])
    return d if c1 < c2 else d.scaled(-1)


@takes_backend
def equilibrium(variant: str, players: int, *, samples: int = TABLE_SAMPLES, rng: RngLike = 20261129,
                threads: int | None = None, progress: bool = False, start: Strategy | None = None,
                max_iterations: int = MAX_ITERATIONS):
    """Iterate best responses from ``start`` until the table stops changing.

    Returns ``(strategy, iterations, converged)``. Every player uses the same table; an
    action changes only when the paired difference says so at the 95% level. Interrupted
    (Ctrl-C), it returns the table the finished steps reached, not converged.
    """
    KanaRules(players=players, variant=variant)  # refuses a bad player count or variant
    if variant not in ("peek-one", "peek-all"):
        raise ValueError(f"variant {variant!r} has no decisions to tabulate; choose 'peek-one' or 'peek-all'")
    check_threads(threads)
    table, iterations, converged, _ = _equilibrium(variant, players, samples, rng, threads, progress, start,
                                                   max_iterations)
    return table, iterations, converged


def _equilibrium(variant, players, samples, rng, threads, progress, start, max_iterations):
    """:func:`equilibrium`, and whether it was interrupted: then the table is the one the
    steps made so far reached (an interrupted step changes nothing), not converged."""
    rules = KanaRules(players=players, variant=variant)
    forced = _forced(variant)
    C = len(forced)
    K = _keys_of(variant)
    current = _initial_actions(variant) if start is None else _actions_of(start)
    ss, _ = as_seed_sequence(rng)
    iterations = 0
    converged = False
    steps = InOrder()
    while iterations < max_iterations:
        iterations += 1
        table = _strategy_from(variant, current, "table")
        child = np.random.SeedSequence(ss.entropy, spawn_key=tuple(ss.spawn_key) + (iterations,))
        got = steps.step(_run_focal, rules, forced, table, samples, child, threads, progress,
                         partial_of=lambda g: g[0][3])
        if steps.partial:
            iterations -= 1  # the interrupted step counts as not made
            break
        (counts, N, _, _), layout, _ = got
        deals, wins, plus, minus = _per_key(counts, layout, K, C)
        new = _improve(current, deals, wins, plus, minus, C)
        if (new == current).all():
            converged = True
            break
        current = new
    return _strategy_from(variant, current, f"equilibrium({players})"), iterations, converged, steps.partial


def _actions_of(s: Strategy) -> np.ndarray:
    if s.table is None:
        raise ValueError(f"{s.name} has no strategy table (a blind or custom strategy)")
    row = s.table[-1]  # the no-context row
    if s.variant == "peek-one":
        return np.where(row == 1, 0, 1).astype(np.int64)
    return row.astype(np.int64)


def _initial_actions(variant) -> np.ndarray:
    if variant == "peek-all":
        return _actions_of(best_pair())
    # peek-one: känä below the mean of an unseen card (8), keep above
    return np.array([0 if r + 2 <= 8 else 1 for r in range(13)], np.int64)


def _improve(current, deals, wins, plus, minus, C) -> np.ndarray:
    new = current.copy()
    for key in range(len(current)):
        if deals[key] == 0:
            continue
        best = int(np.argmax(wins[:, key]))
        cur = int(current[key]) if current[key] >= 0 else best
        if best != cur and not _diff(plus, minus, deals, C, best, cur, key).contains_zero():
            new[key] = best
    return new


@takes_backend
def strategy_table(variant: str = "peek-one", players: int = 4, *, opponents: str = "table",
                   samples: int | None = None, target_halfwidth: float | None = None, rng: RngLike = None,
                   threads: int | None = None, progress: bool = False) -> StrategyTableResult:
    """The strategy table for ``variant`` at ``players``: per key the action of the table
    (the equilibrium with ``opponents="table"``, the best response to blind opponents with
    ``"blind"``) and its win probability against blind opponents and against the table.

    ``samples`` is spent on each best-response step and on each of the two final runs.
    Interrupted (Ctrl-C), it returns what was reached, ``partial=True``: the table so far
    (not converged) and the figures of the runs made; those of runs not reached are NaN.
    """
    import pandas as pd
    if variant not in ("peek-one", "peek-all"):
        raise ValueError(f"variant {variant!r} has no decisions to tabulate; choose 'peek-one' or 'peek-all'")
    if opponents not in ("table", "blind"):
        raise ValueError(f"opponents={opponents!r} is not known; choose 'table' or 'blind'")
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 8:
        raise ValueError(f"players={players!r}: strategy tables are built for 2..8 players")
    samples, _ = _run_size(samples, target_halfwidth, threads, default=TABLE_SAMPLES)
    if target_halfwidth is not None:
        samples = int(min(4e7, max(1e5, (Z95 * 0.5 / target_halfwidth) ** 2 * (13 if variant == "peek-one" else 455))))
    rules = KanaRules(players=players, variant=variant)
    ss, seed = as_seed_sequence(rng)
    forced = _forced(variant)
    C = len(forced)
    K = _keys_of(variant)
    # Interrupted (Ctrl-C), the steps stop: the table is the one reached so far, and the
    # figures of a run not reached are NaN (null in JSON).
    steps = InOrder()
    if opponents == "blind":
        got = steps.step(_run_focal, rules, forced, blind("random"), samples,
                         np.random.SeedSequence(ss.entropy, spawn_key=(0,)), threads, progress,
                         partial_of=lambda g: g[0][3])
        (counts, N, _, _), layout, _ = got
        deals, wins, plus, minus = _per_key(counts, layout, K, C)
        actions = np.argmax(wins, axis=0).astype(np.int64)
        table, iterations = _strategy_from(variant, actions, f"best-vs-blind({players})"), 1
        converged = not steps.partial
    else:
        table, iterations, converged, _ = steps.step(
            _equilibrium, variant, players, samples, np.random.SeedSequence(ss.entropy, spawn_key=(0,)), threads,
            progress, None, MAX_ITERATIONS, partial_of=lambda g: g[3])
    actions = _actions_of(table)
    missing = [Estimate.mean(0.0, 0.0, 0)] * K
    rows = {"vs_blind": missing, "at_table": missing, "diff": missing}
    overall = {"vs_blind": missing[0], "at_table": missing[0]}
    for label, opp, key in (("vs_blind", blind("random"), 1), ("at_table", table, 2)):
        got = steps.step(_run_focal, rules, forced, opp, samples, np.random.SeedSequence(ss.entropy, spawn_key=(key,)),
                         threads, progress, partial_of=lambda g: g[0][3])
        if got is None:
            break
        (counts, N, _, _), layout, _ = got
        deals, wins, plus, minus = _per_key(counts, layout, K, C)
        chosen = np.array([wins[actions[k] if actions[k] >= 0 else 0, k] for k in range(K)])
        rows[label] = [Estimate.proportion(chosen[k], deals[k]) for k in range(K)]
        overall[label] = Estimate.proportion(int(chosen.sum()), int(deals.sum()))
        if label == "at_table":
            diffs = []
            for k in range(K):
                a = int(actions[k]) if actions[k] >= 0 else 0
                others = [c for c in range(C) if c != a]
                nxt = max(others, key=lambda c: wins[c, k])
                diffs.append(_diff(plus, minus, deals, C, a, nxt, k) if deals[k] else Estimate.proportion(0, 0))
            rows["diff"] = diffs
        if steps.partial:
            break
    names = _actions(variant)
    data = []
    for k, keyname in enumerate(_keys(variant)):
        a = int(actions[k])
        row: dict[str, Any] = {"key": keyname, "action": "random" if a < 0 else names[a]}
        for col in ("vs_blind", "at_table", "diff"):
            e = rows[col][k]
            row.update({col: e.value, col + "_se": e.se, col + "_lo": e.lo, col + "_hi": e.hi})
        data.append(row)
    frame = pd.DataFrame(data).set_index("key")
    return StrategyTableResult(rules=rules, strategy=table, rows=frame, win_vs_blind=overall["vs_blind"],
                         win_at_table=overall["at_table"], iterations=iterations, converged=converged,
                         samples=samples, seed=seed, partial=steps.partial)


@takes_backend
def expected_value(strategy, players: int = 4, variant: str | None = None, *, opponents="table",
                   samples: int | None = None, rng: RngLike = None, threads: int | None = None,
                   progress: bool = False) -> Estimate:
    """Expected gain per round, in antes, of one player using ``strategy`` against
    ``opponents`` (``"table"``, ``"blind"`` or a strategy for all of them): n P(win) - 1,
    averaged over the seats (the starter rotates).

    >>> ev = expected_value("threshold:8", 4, opponents="blind", samples=100_000, rng=1)
    >>> ev.lo > 0
    True
    """
    if variant is None:
        variant = _guess_variant(strategy, opponents if not isinstance(opponents, str) or ":" in opponents else None)
    rules = _rules(players, variant, None)
    s = parse_strategy(strategy, rules.variant)
    if isinstance(opponents, str) and opponents in ("table", "blind"):
        if opponents == "blind" or rules.variant == "official":
            opp = blind("random")
        else:
            opp = table_strategy(rules.variant, rules.players)
    else:
        opp = parse_strategy(opponents, rules.variant)
    samples, _ = _run_size(samples, None, threads)
    (counts, N, _, _), layout, K = _run_focal(rules, [s], opp, samples, rng, threads, progress)
    return Estimate.proportion(int(_by_key(counts, layout, "focal_wins", K).sum()), N).scaled(rules.players, -1)


# ---------------------------------------------------------------------------------------
# Equilibrium tables shipped with the package (built by `cardodds report`)
# ---------------------------------------------------------------------------------------

TABLES_FILE = "equilibrium.json"


@lru_cache(maxsize=None)
def _shipped() -> dict:
    try:
        text = resources.files("cardodds.kana").joinpath(TABLES_FILE).read_text()
    except (FileNotFoundError, OSError):
        return {}
    return json.loads(text)


@lru_cache(maxsize=None)
def table_strategy(variant: str, players: int) -> Strategy:
    """The equilibrium table for ``variant`` and ``players``: shipped if built, else computed."""
    entry = _shipped().get(f"{variant}/{players}")
    if entry is not None:
        return _strategy_from(variant, np.array(entry["actions"], np.int64), f"table({variant},{players})")
    s, _, _, partial = _equilibrium(variant, players, TABLE_SAMPLES, 20261129, None, False, None, MAX_ITERATIONS)
    if partial:  # not an equilibrium: never kept (lru_cache keeps no exception), nothing to answer with
        raise KeyboardInterrupt
    return _strategy_from(variant, _actions_of(s), f"table({variant},{players})")


# ---------------------------------------------------------------------------------------
# The advisor
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class AdviceResult(Result):
    """Each känä I can make, its win probability, and whether one is better.

    ``best`` is the card to känä (``"?"`` for an unseen one), or None when the best option's
    paired difference to the next best has an interval containing zero: no choice is
    better at this precision.
    """

    seat: int
    cards: tuple[int, ...]
    kanad: dict[int, int]
    opponents: str
    options: tuple[tuple[str, Estimate], ...]
    best: str | None
    difference: Estimate
    counts: np.ndarray | None = counts_field(default=None)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = [{"kana": k, "win": e.value, "se": e.se, "lo": e.lo, "hi": e.hi} for k, e in self.options]
        return pd.DataFrame(rows).set_index("kana")

    def to_dict(self) -> dict:
        return {
            "players": self.rules.players, "variant": self.rules.variant, "seat": self.seat,
            "cards": format_cards(self.cards), "kanad": {str(s): card_str(c) for s, c in self.kanad.items()},
            "opponents": self.opponents, "samples": self.samples, "seed": self.seed, "partial": self.partial,
            "rules": self.rules.to_dict(), "version": self.version,
            "options": [{"kana": k, "win": e.to_dict()} for k, e in self.options],
            "best": self.best, "difference": self.difference.to_dict(),
        }

    @property
    def verdict(self) -> str:
        if self.best is None:
            if not self.samples:
                return "no choice is better: every känä wins with the same probability (exact)"
            return "no choice is better at this precision"
        return f"känä {self.best}"

    def __repr__(self) -> str:
        r = self.rules
        seen = ", ".join(f"seat {s} känäd {card_str(c)}" for s, c in self.kanad.items()) or "none known"
        lines = [
            f"Känä {r.variant}, {r.players} players, seat {self.seat}, cards {format_cards(self.cards)} "
            f"(känäd before: {seen}; opponents: {self.opponents}; {self.samples:,} deals, seed {self.seed})"
        ]
        for k, e in self.options:
            lines.append(f"  känä {k:<4} win {e.format(4)}")
        d = self.difference
        lines.append(f"  best vs next: {d.value:+.4f} [{d.lo:+.4f}, {d.hi:+.4f}]  ->  {self.verdict}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return result_html(self.verdict, self.to_frame())

    def plot(self, ax=None):
        """Each option's win probability with its 95% interval."""
        return _plot_estimates(ax, [(f"känä {k}", e) for k, e in self.options], "P(win)")


def _check_seat(rules: KanaRules, seat) -> int:
    n = rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} does not exist at a table of {n}; my seat in the känä order is 0..{n - 1}")
    return seat


def _check_my_cards(rules: KanaRules, cards) -> list[int]:
    """My three cards (-1 for those not seen), as the variant lets me know them."""
    mine = parse_cards(cards, allow_unknown=True) if cards is not None else [-1, -1, -1]
    if len(mine) != 3:
        raise ValueError(f"a hand holds 3 cards; give all three, '?' for those not seen (e.g. '9h ? ?'), "
                         f"got {len(mine)}")
    known = [c for c in mine if c >= 0]
    if rules.variant == "official" and known:
        raise ValueError("under the official rules nobody may look at their cards: give '? ? ?', "
                         "or choose a peek variant")
    if rules.variant == "peek-one" and (len(known) > 1 or (known and mine[0] < 0)):
        raise ValueError("in peek-one I know one card, the peeked one, written first: e.g. '9h ? ?'")
    if rules.variant == "peek-all" and len(known) != 3:
        raise ValueError("in peek-all I have seen all three cards: give them all, e.g. '9h Kd 2c'")
    if rules.variant == "peek-one" and not known:
        raise ValueError("in peek-one give the card I peeked first, e.g. '9h ? ?'")
    return mine


def _kanad_from_sequence(cards) -> dict[int, int]:
    """``"5c ? Kd"`` or ``["5c", "?", "Kd"]``: seats 0, 1, ... in order, ``?`` for one not seen."""
    if isinstance(cards, str) and not cards.strip():
        return {}
    return {s: c for s, c in enumerate(parse_cards(cards, allow_unknown=True)) if c >= 0}


def _kanad_from_mapping(cards) -> dict[int, int]:
    """``{seat: card}`` with a card as text or as its number."""
    return {int(s): (c if isinstance(c, int) else parse_cards([c])[0]) for s, c in dict(cards).items()}


def _parse_kanad(kanad) -> dict[int, int]:
    if kanad is None:
        return {}
    if isinstance(kanad, (str, list, tuple)):
        return _kanad_from_sequence(kanad)
    return _kanad_from_mapping(kanad)


def _check_kanad(kanad: dict[int, int], seat: int, mine: list[int]) -> dict[int, int]:
    """Känäd cards can only be the earlier seats', and no card can be seen twice."""
    for s in kanad:
        if not 0 <= s < seat:
            raise ValueError(
                f"a känäd card is given for seat {s}, but only the {seat} seat(s) before mine (0..{seat - 1}) have "
                "känäd when it is my turn"
            )
    clash = {c for c in mine if c >= 0} & set(kanad.values())
    if clash:
        raise ValueError(f"card {card_str(min(clash))} is both in my hand and among the känäd cards; "
                         "each card exists once")
    if len(set(kanad.values())) != len(kanad):
        raise ValueError("a känäd card is given twice; each card exists once")
    return dict(sorted(kanad.items()))


def _check_advice_input(rules: KanaRules, seat, cards, kanad):
    """``(my cards, känäd cards by seat)`` from the advisor's inputs, each checked on its own."""
    seat = _check_seat(rules, seat)
    mine = _check_my_cards(rules, cards)
    return mine, _check_kanad(_parse_kanad(kanad), seat, mine)


def _options(rules: KanaRules, mine: list[int]) -> list[tuple[str, int]]:
    if rules.variant == "official":
        return [("?", 0), ("?", 1), ("?", 2)]
    if rules.variant == "peek-one":
        return [(card_str(mine[0]), 0), ("?", 1)]
    return [(card_str(c), j) for j, c in enumerate(mine)]


@takes_backend
def advise(players: int | None = None, variant: str | None = None, *, seat: int = 0, cards=None, kanad=None,
           opponents="table", rules: KanaRules | None = None, samples: int | None = None,
           target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None,
           progress: bool = False) -> AdviceResult:
    """Which card should I känä? Each option's win probability, the best, and its edge.

    ``seat`` is my place in the känä order (0 = the starter), ``cards`` what I know of my
    three (``"9h ? ?"``: I peeked the 9 of hearts; all three in peek-all; ``"? ? ?"`` in the
    official rules), ``kanad`` the cards känäd before me that I know (``"5c Kd"`` for seats
    0 and 1 in order, ``"? Kd"`` when I missed seat 0's, or ``{1: "Kd"}``), ``opponents``
    how the others play: ``"table"`` (the equilibrium strategy table, default), ``"blind"``
    (they känä without looking), or one strategy / a list per seat.

    Deals are sampled consistent with everything I know, including what each earlier
    player's känäd card says about the cards it kept under its strategy; every option is
    played on the same deals, and the best is named only when its paired difference to the
    next best excludes zero. Under the official rules with blind opponents (``"table"`` and
    ``"blind"`` both are) and no run size given, the answer is exact: every option wins with
    probability 1/n, since nobody's känä depends on their cards.

    >>> a = advise(4, "peek-one", seat=2, cards="2h ? ?", opponents="blind", samples=100_000, rng=1)
    >>> a.best
    '2h'
    """
    rules = _rules(players, variant, rules)
    mine, known_kanad = _check_advice_input(rules, seat, cards, kanad)
    default_size = samples is None and target_halfwidth is None
    samples, thw = _run_size(samples, target_halfwidth, threads)
    opp, label = _advice_opponents(rules, opponents, seat, known_kanad)
    if default_size and rules.variant == "official" and all(s.kind == KIND_BLIND for s in opp):
        return _official_advice(rules, seat, mine, known_kanad, label)
    table, custom = pack([opp], rules.players)
    kanad_arr = np.full(rules.players, -1, np.int64)
    for s, c in known_kanad.items():
        kanad_arr[s] = c
    known = {c for c in mine if c >= 0} | set(known_kanad.values())
    pool = np.array([c for c in range(52) if c not in known], np.int64)
    post = Posterior(*posterior_tables(rules.players, seat, kanad_arr, pool, table))
    if any(known_kanad) and any(post.total[s].max() == 0 for s in known_kanad):
        bad = next(s for s in known_kanad if post.total[s].max() == 0)
        raise ValueError(f"seat {bad} could not have känäd {card_str(known_kanad[bad])} under its strategy; "
                         "check the card or the opponents' strategy")
    opts = _options(rules, mine)
    C = len(opts)
    layout = advice_layout(C)

    def hw(counts, N):
        if N < 2:
            return math.inf
        b = int(np.argmax(counts[layout.slice("wins")]))
        return max(_adv_diff(counts, layout, b, c, N).halfwidth for c in range(C) if c != b)

    kargs = (rules.pack(), layout.offsets_array(), table, seat, np.array(mine, np.int64), kanad_arr,
             np.array([j for _, j in opts], np.int64), pool, post, custom)
    res = run(advise_worlds, kargs, layout.size, samples=samples, target_halfwidth=thw, halfwidth=hw, rng=rng,
              threads=threads, progress=progress, unit="deal")
    wins = res.counts[layout.slice("wins")]
    N = res.samples
    order = sorted(range(C), key=lambda j: -wins[j])
    diff = _adv_diff(res.counts, layout, order[0], order[1], N)
    best = None if diff.contains_zero() else opts[order[0]][0]
    return AdviceResult(rules=rules, seat=seat, cards=tuple(mine), kanad=known_kanad, opponents=label,
                        options=tuple((opts[j][0], Estimate.proportion(wins[j], N)) for j in range(C)), best=best,
                        difference=diff, samples=N, seed=res.seed, partial=res.partial, counts=res.counts)


def _official_advice(rules: KanaRules, seat: int, mine, known_kanad, label: str) -> AdviceResult:
    """The official rules with blind opponents, exactly: nobody's känä depends on their cards,
    so every seat's kept pair is a uniform pair of the unseen cards, the seats are exchangeable
    and each wins with probability 1/n whichever card I känä; the difference is exactly zero."""
    win = Estimate.exact_value(Fraction(1, rules.players))
    return AdviceResult(rules=rules, seat=seat, cards=tuple(mine), kanad=known_kanad, opponents=label,
                        options=tuple((k, win) for k, _ in _options(rules, mine)), best=None,
                        difference=Estimate.exact_value(0.0), samples=0, seed=None)


def _advice_opponents(rules: KanaRules, opponents, seat: int, known_kanad) -> tuple[list[Strategy], str]:
    """The other seats' strategies and how to name them."""
    n = rules.players
    if isinstance(opponents, str) and opponents in ("table", "blind"):
        if opponents == "blind" or rules.variant == "official":
            opp = [blind("random")] * n
        else:
            opp = [table_strategy(rules.variant, n)] * n
        label = opponents
    else:
        opp = _seat_list(opponents, rules, "opponents")
        label = ",".join(s.name for s in opp)
    if any(s.kind == 3 for i, s in enumerate(opp) if i < seat and i in known_kanad):
        raise ValueError("a custom strategy cannot be conditioned on its känäd card; give it as unseen")
    return opp, label


def _adv_diff(counts, layout, c1, c2, N) -> Estimate:
    """Paired difference of my wins with option c1 minus option c2."""
    C = layout.sizes.wins
    a, b = (c1, c2) if c1 < c2 else (c2, c1)
    p = _pair_index(C, a, b)
    d = paired_difference(counts[layout.slice("plus")][p], counts[layout.slice("minus")][p], N)
    return d if c1 < c2 else d.scaled(-1)
