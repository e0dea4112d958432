"""Känä decisions: policies compared, strategy tables, a policy's expected value.

>>> from cardodds.kana import compare, policies as pol
>>> c = compare(pol.blind("first"), pol.blind("third"), seat=1, players=4, samples=100_000, rng=1)
>>> c.better is None         # official rules: no choice changes anything
True

The advisor is :mod:`cardodds.kana.advise`, the equilibrium and the shipped tables
:mod:`cardodds.kana.equilibrium`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from ..cards import RANKS, card_str
from ..engine import InOrder, takes_backend
from .._html import result_html
from ..results import Result, counts_field
from ..rng import RngLike, as_seed_sequence, child
from ..stats import Z95, Estimate, paired_difference
from ._defaults import DECISION_SAMPLES, OPPONENTS, TABLE_PLAYERS, TABLE_SAMPLES
from .equilibrium import (
    MAX_ITERATIONS, _actions, _by_key, _chosen, _configs_run, _equilibrium, _forced, _keys, _keys_of, _margins,
    _paired_headline, _per_key, _run_focal, _run_size, table_rules, table_strategy,
)
from .policies import (
    Policy, blind, from_actions, guess_variant, parse_policy, resolve_policies,
)
from .position import Position
from .rules import KanaRules, rules_for

__all__ = ["ComparisonResult", "StrategyTableResult", "compare", "expected_value", "strategy_table"]

#: Sampled rounds per policy of ``compare`` and ``expected_value`` (and per option of ``advise``) by default.
DEFAULT_SAMPLES = DECISION_SAMPLES


@dataclass(frozen=True, repr=False)
class ComparisonResult(Result):
    """Policy ``a`` against policy ``b`` in one seat, on the same deals.

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


@takes_backend
def compare(a, b, *, players: int | None = None, variant: str | None = None, rules: KanaRules | None = None,
            samples: int | None = None, target_halfwidth: float | None = None, rng: RngLike = None,
            threads: int | None = None, seat: int = 0, table="blind", progress: bool = False) -> ComparisonResult:
    """Win rate of policy ``a`` and of ``b`` in ``seat`` against the others' ``table``
    (one policy for all or one per seat), and their paired difference on the same deals.

    The variant comes from ``rules``, ``variant``, or the policies themselves (a
    threshold is peek-one, best-pair peek-all, blind fits all: official). With
    ``target_halfwidth`` the run goes on until the difference's 95% interval is that
    narrow. Under the official rules every comparison comes out equal within its interval.
    """
    if rules is None and variant is None:
        variant = guess_variant(a, b, *(table if isinstance(table, (list, tuple)) else [table]))
    rules = rules_for(players, variant, rules)
    n = rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} does not exist at a table of {n}; seats count 0..{n - 1} from the starter")
    others = resolve_policies(table, rules, "table")
    sa = parse_policy(a, rules.variant)
    sb = parse_policy(b, rules.variant)
    ca = list(others)
    cb = list(others)
    ca[seat] = sa
    cb[seat] = sb
    samples, thw = _run_size(samples, target_halfwidth, threads, rng, DEFAULT_SAMPLES)
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


@dataclass(frozen=True, repr=False)
class StrategyTableResult(Result):
    """The best känä for each peeked rank (peek-one) or rank combination (peek-all).

    ``rows`` has one row per key with the table's action, the win probability of a player
    using it given that key against blind opponents and against opponents who use the
    table (the equilibrium), and the paired difference to the next best action there.
    ``iterations`` counts best-response rounds until the table stopped changing.
    """

    strategy: Policy
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

    def lookup(self, position: Position) -> tuple[str, str, str | None]:
        """Where a :class:`~cardodds.kana.Position` falls in the table: its row's key (the peeked
        rank; in peek-all the rank combination, lowest first), the table's action there and the
        option of :func:`~cardodds.kana.advise` it is (None for a random action).

        >>> t = strategy_table("peek-one", 3, opponents="blind", samples=20_000, rng=1)
        >>> t.lookup(Position("2h ? ?", seat=1))
        ('2', 'känä', '2h')
        """
        from .position import check_rules_fit

        if not isinstance(position, Position):
            raise ValueError(f"position={position!r}: give a cardodds.kana.Position")
        check_rules_fit(self.rules, position)
        hand = position.hand
        if self.rules.variant == "peek-one":
            key = RANKS[hand[0] >> 2]
            action = self.rows.loc[key, "action"]
            return key, action, {"känä": card_str(hand[0]), "keep": "?"}.get(action)
        ordered = sorted(hand, key=lambda c: (c >> 2, hand.index(c)))
        key = "".join(RANKS[c >> 2] for c in ordered)
        action = self.rows.loc[key, "action"]
        where = {"low": 0, "middle": 1, "high": 2}.get(action)
        return key, action, None if where is None else card_str(ordered[where])

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


@takes_backend
def strategy_table(variant: str | None = None, players: int | None = None, *, rules: KanaRules | None = None,
                   samples: int | None = None, target_halfwidth: float | None = None, rng: RngLike = None,
                   threads: int | None = None, opponents: str = OPPONENTS,
                   progress: bool = False) -> StrategyTableResult:
    """The strategy table for ``variant`` at ``players``: per key the action of the table
    (the equilibrium with ``opponents="table"``, the best response to blind opponents with
    ``"blind"``) and its win probability against blind opponents and against the table.

    ``variant`` (default peek-one) and ``players`` (default 4), or ``rules`` (keyword-only: the
    house rules too; ``variant`` and ``players`` given with it must agree). ``samples`` is spent
    on each best-response step and on each of the two final runs. Interrupted (Ctrl-C), it
    returns what was reached, ``partial=True``: the table so far (not converged) and the figures
    of the runs made; those of runs not reached are NaN.
    """
    import pandas as pd
    rules = table_rules(variant, players, rules)
    variant, players = rules.variant, rules.players
    if opponents not in ("table", "blind"):
        raise ValueError(f"opponents={opponents!r} is not known; choose 'table' or 'blind'")
    lo, hi = TABLE_PLAYERS
    if not lo <= players <= hi:
        raise ValueError(f"players={players!r}: strategy tables are built for {lo}..{hi} players")
    samples, _ = _run_size(samples, target_halfwidth, threads, rng, default=TABLE_SAMPLES)
    if target_halfwidth is not None:
        samples = int(min(4e7, max(1e5, (Z95 * 0.5 / target_halfwidth) ** 2 * (13 if variant == "peek-one" else 455))))
    ss, seed = as_seed_sequence(rng)
    # The runs are seeded from the root of rng= (a SeedSequence's spawn key is dropped), as they
    # always were: the committed reports pass spawned SeedSequences and are built that way.
    root = np.random.SeedSequence(ss.entropy, pool_size=ss.pool_size)
    forced = _forced(variant)
    C = len(forced)
    K = _keys_of(variant)
    # Interrupted (Ctrl-C), the steps stop: the table is the one reached so far, and the
    # figures of a run not reached are NaN (null in JSON).
    steps = InOrder()
    if opponents == "blind":
        got = steps.step(_run_focal, rules, forced, blind("random"), samples, child(root, 0), threads, progress,
                         partial_of=lambda g: g[0][3])
        (counts, N, _, _), layout, _ = got
        deals, wins, plus, minus = _per_key(counts, layout, K, C)
        actions = np.argmax(wins, axis=0).astype(np.int64)
        table, iterations = from_actions(variant, actions, f"best-vs-blind({players})"), 1
        converged = not steps.partial
    else:
        table, iterations, converged, _ = steps.step(
            _equilibrium, rules, samples, child(root, 0), threads, progress, None, MAX_ITERATIONS,
            partial_of=lambda g: g[3])
    actions = table.actions()
    missing = [Estimate.mean(0.0, 0.0, 0)] * K
    rows = {"vs_blind": missing, "at_table": missing, "diff": missing}
    overall = {"vs_blind": missing[0], "at_table": missing[0]}
    for label, opp, key in (("vs_blind", blind("random"), 1), ("at_table", table, 2)):
        got = steps.step(_run_focal, rules, forced, opp, samples, child(root, key), threads, progress,
                         partial_of=lambda g: g[0][3])
        if got is None:
            break
        (counts, N, _, _), layout, _ = got
        deals, wins, plus, minus = _per_key(counts, layout, K, C)
        chosen, rows[label] = _chosen(actions, deals, wins)
        overall[label] = Estimate.proportion(int(chosen.sum()), int(deals.sum()))
        if label == "at_table":
            rows["diff"] = _margins(actions, deals, wins, plus, minus, C)
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
def expected_value(strategy, players: int | None = None, variant: str | None = None, *, rules: KanaRules | None = None,
                   samples: int | None = None, rng: RngLike = None, threads: int | None = None, opponents=OPPONENTS,
                   progress: bool = False) -> Estimate:
    """Expected gain per round, in antes, of one player using the policy ``strategy`` against
    ``opponents`` (``"table"``, ``"blind"`` or a policy for all of them): n P(win) - 1,
    averaged over the seats (the starter rotates). ``players`` (default 4) and ``variant``
    (default: from the policies), or ``rules`` (keyword-only; they must agree with it).

    >>> ev = expected_value("threshold:8", 4, opponents="blind", samples=100_000, rng=1)
    >>> ev.lo > 0
    True
    """
    if variant is None and rules is None:
        variant = guess_variant(strategy, opponents if not isinstance(opponents, str) or ":" in opponents else None)
    rules = rules_for(players, variant, rules)
    s = parse_policy(strategy, rules.variant)
    if isinstance(opponents, str) and opponents in ("table", "blind"):
        if opponents == "blind" or rules.variant == "official":
            opp = blind("random")
        else:
            opp = table_strategy(rules.variant, rules.players)
    else:
        opp = parse_policy(opponents, rules.variant)
    samples, _ = _run_size(samples, None, threads, rng, DEFAULT_SAMPLES)
    (counts, N, _, _), layout, K = _run_focal(rules, [s], opp, samples, rng, threads, progress)
    return Estimate.proportion(int(_by_key(counts, layout, "focal_wins", K).sum()), N).scaled(rules.players, -1)
