"""Känä's equilibrium strategy tables: best responses iterated until no action changes, and
the tables shipped with the package (docs/rules/kana.md §5).

:func:`equilibrium` iterates best responses from a starting table; :func:`table_strategy` is
the policy the advisor and ``expected_value`` play by default ("the table"): the shipped
table for a variant and player count when there is one, else computed. Two files are shipped:

- ``cardodds/kana/equilibrium.json``, written by :func:`write_tables` from what ``cardodds
  report --section kana`` builds (``reports/kana_equilibrium.json``); after a report run,
  ``python -m cardodds.kana.equilibrium`` (:func:`ship`) rewrites the shipped copy from it.
- ``cardodds/kana/equilibrium_built.json``, the tables the report does not compute (peek-all
  at 2, 5, 6, 7 and 8 players), built once by ``python -m cardodds.kana.equilibrium --build
  peek-all 2,5,6,7,8`` (:func:`build_table`): each is exactly the table :func:`table_strategy`
  would compute (:data:`TABLE_SAMPLES` rounds a step, seed :data:`TABLE_SEED`), with the
  counts of one run of :data:`ROWS_SAMPLES` rounds against it, from which
  :func:`built_table` gives each key's P(win) at the table and margin over the next best
  action (the web page's lookup reads them). The report's file wins where both have a table.

The paired runs behind a table live here too: a *focal* seat plays each pure action on the
same deals as the others play a table (``_run_focal``), and the differences between actions
are paired. ``compare`` and ``strategy_table`` (:mod:`cardodds.kana.decisions`) and
``advise`` (:mod:`cardodds.kana.advise`) use them.

>>> table_strategy("peek-one", 4).kanas("9h"), table_strategy("peek-one", 4).kanas("Th")
(True, False)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from .._validate import check_run
from ..cards import RANKS
from ..engine import InOrder, run, takes_backend
from ..rng import RngLike, as_seed_sequence, child
from ..stats import Z95, Estimate, paired_difference
from ._defaults import DECISION_SAMPLES, TABLE_PLAYERS_DEFAULT, TABLE_SAMPLES, TABLE_VARIANT
from ._kernels import config_layout, play_configs
from ._table import COMBOS
from .policies import Policy, best_pair, combos, from_actions, kana_ranks, pack_lineups, peek_all_table
from .rules import KanaRules, rules_for

__all__ = ["BUILT_FILE", "MAX_ITERATIONS", "ROWS_SAMPLES", "TABLES_FILE", "TABLE_SEED", "BuiltTable", "build",
           "build_table", "built_table", "equilibrium", "ship", "table_entry", "table_strategy", "write_built",
           "write_tables"]

#: Best-response steps :func:`equilibrium` makes at most.
MAX_ITERATIONS = 12
#: The seed of the tables :func:`table_strategy` computes when none is shipped (and of the built ones).
TABLE_SEED = 20261129
#: Rounds of the run against a built table that gives its rows (the report's peek-all rows at scale 1).
ROWS_SAMPLES = 2_000_000


def _run_size(samples, target_halfwidth, threads, rng, default=DECISION_SAMPLES):
    """``(samples, target_halfwidth)`` after :func:`~cardodds._validate.check_run`: ``default``
    samples when neither is given."""
    check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    if samples is None and target_halfwidth is None:
        return default, None
    return samples, target_halfwidth


def _keys_of(variant: str) -> int:
    """How many focal keys a variant breaks results down by (peeked rank, rank combination)."""
    return {"official": 1, "peek-one": 13}.get(variant, COMBOS)


def _configs_run(rules, configs, focal, samples, target_halfwidth, rng, threads, progress, headline):
    """Play ``configs`` on the same deals; returns the run and its counts layout."""
    n = rules.players
    table, custom = pack_lineups(configs, n)
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


def _paired_headline(layout):
    plus, minus = layout.slice("plus"), layout.slice("minus")

    def hw(counts, total):
        return Z95 * paired_difference(counts[plus].sum(), counts[minus].sum(), total).se if total > 1 else math.inf

    return hw


def _forced(variant: str) -> list[Policy]:
    """The focal player's pure actions, each as a policy."""
    if variant == "peek-one":
        return [kana_ranks("2-A", "känä peeked"), kana_ranks([], "keep peeked")]
    return [peek_all_table(np.full(COMBOS, j), name) for j, name in enumerate(("känä low", "känä middle", "känä high"))]


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
        got = steps.step(_configs_run, rules, configs, seat, per, None, child(ss, 1_000_000 + seat), threads,
                         progress, _paired_headline, partial_of=lambda g: g[0].partial)
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


def _keys(variant: str) -> list[str]:
    """The focal keys' names: peeked ranks (peek-one) or rank combinations (peek-all)."""
    if variant == "peek-one":
        return list(RANKS)
    return ["".join(c) for c in combos()]


def _actions(variant: str) -> list[str]:
    """The focal player's pure actions' names, in :func:`_forced`'s order."""
    return ["känä", "keep"] if variant == "peek-one" else ["low", "middle", "high"]


def _chosen(actions, deals, wins) -> tuple[np.ndarray, list[Estimate]]:
    """Per key, the wins of the table's action (the first when it is random) and its P(win)."""
    chosen = np.array([wins[actions[k] if actions[k] >= 0 else 0, k] for k in range(len(actions))])
    return chosen, [Estimate.proportion(chosen[k], deals[k]) for k in range(len(actions))]


def _margins(actions, deals, wins, plus, minus, C) -> list[Estimate]:
    """Per key, the paired difference of the table's action minus the next best action (the
    other action winning most often on the same deals)."""
    diffs = []
    for k in range(len(actions)):
        a = int(actions[k]) if actions[k] >= 0 else 0
        others = [c for c in range(C) if c != a]
        nxt = max(others, key=lambda c: wins[c, k])
        diffs.append(_diff(plus, minus, deals, C, a, nxt, k) if deals[k] else Estimate.proportion(0, 0))
    return diffs


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


def table_rules(variant, players, rules) -> KanaRules:
    """The rules a strategy table is made under: ``rules`` (``variant`` and ``players``, given
    too, must agree with it), else the official house rules with ``variant`` (default
    peek-one) and ``players`` (default 4); refused for a variant with no decisions."""
    if rules is None:
        variant = TABLE_VARIANT if variant is None else variant
        players = TABLE_PLAYERS_DEFAULT if players is None else players
        if variant not in ("peek-one", "peek-all"):
            raise ValueError(f"variant {variant!r} has no decisions to tabulate; choose 'peek-one' or 'peek-all'")
    rules = rules_for(players, variant, rules)
    if rules.variant not in ("peek-one", "peek-all"):
        raise ValueError(f"rules.variant={rules.variant!r} has no decisions to tabulate; choose 'peek-one' or "
                         "'peek-all'")
    return rules


@takes_backend
def equilibrium(variant: str | None = None, players: int | None = None, *, rules: KanaRules | None = None,
                samples: int = TABLE_SAMPLES, rng: RngLike = TABLE_SEED, threads: int | None = None,
                start: Policy | None = None, max_iterations: int = MAX_ITERATIONS,
                progress: bool = False) -> tuple[Policy, int, bool]:
    """Iterate best responses from ``start`` until the table stops changing.

    Returns ``(policy, iterations, converged)``. Every player uses the same table; an
    action changes only when the paired difference says so at the 95% level. Interrupted
    (Ctrl-C), it returns the table the finished steps reached, not converged. ``rules``
    (keyword-only) gives the house rules; ``variant`` and ``players`` then agree with it.
    """
    rules = table_rules(variant, players, rules)
    check_run(samples=samples, threads=threads, rng=rng)
    if samples is None:
        samples = TABLE_SAMPLES
    table, iterations, converged, _ = _equilibrium(rules, samples, rng, threads, progress, start, max_iterations)
    return table, iterations, converged


def _equilibrium(rules, samples, rng, threads, progress, start, max_iterations):
    """:func:`equilibrium`, and whether it was interrupted: then the table is the one the
    steps made so far reached (an interrupted step changes nothing), not converged."""
    variant, players = rules.variant, rules.players
    forced = _forced(variant)
    C = len(forced)
    K = _keys_of(variant)
    current = _initial_actions(variant) if start is None else start.actions()
    ss, _ = as_seed_sequence(rng)
    iterations = 0
    converged = False
    steps = InOrder()
    while iterations < max_iterations:
        iterations += 1
        table = from_actions(variant, current, "table")
        got = steps.step(_run_focal, rules, forced, table, samples, child(ss, iterations), threads, progress,
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
    return from_actions(variant, current, f"equilibrium({players})"), iterations, converged, steps.partial


def _initial_actions(variant) -> np.ndarray:
    if variant == "peek-all":
        return best_pair().actions()
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


#: The shipped tables' file in the package: the report's tables.
TABLES_FILE = "equilibrium.json"
#: The shipped tables built once by :func:`build_table` (``python -m cardodds.kana.equilibrium --build``).
BUILT_FILE = "equilibrium_built.json"


def _read(name: str) -> dict:
    try:
        text = resources.files("cardodds.kana").joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, OSError):
        return {}
    return json.loads(text)


@lru_cache(maxsize=None)
def _shipped() -> dict:
    """Every shipped table by ``"variant/players"``: the report's, and the built ones it lacks."""
    return {**_read(BUILT_FILE), **_read(TABLES_FILE)}


def _table_equilibrium(variant, players, threads, progress):
    """The table :func:`table_strategy` computes when none is shipped, and :func:`build_table`
    ships: :data:`TABLE_SAMPLES` rounds a step from seed :data:`TABLE_SEED`. Returns
    ``(policy, iterations, converged)``; interrupted, it raises ``KeyboardInterrupt`` (a table
    the steps did not finish is no equilibrium, nothing to answer or ship)."""
    s, iterations, converged, partial = _equilibrium(KanaRules(players=players, variant=variant), TABLE_SAMPLES,
                                                     TABLE_SEED, threads, progress, None, MAX_ITERATIONS)
    if partial:
        raise KeyboardInterrupt
    return s, iterations, converged


@lru_cache(maxsize=None)
def table_strategy(variant: str, players: int) -> Policy:
    """The equilibrium table for ``variant`` and ``players``: shipped if built, else computed."""
    entry = _shipped().get(f"{variant}/{players}")
    if entry is not None:
        return from_actions(variant, np.array(entry["actions"], np.int64), f"table({variant},{players})")
    # interrupted: KeyboardInterrupt, never kept (lru_cache keeps no exception)
    s, _, _ = _table_equilibrium(variant, players, None, False)
    return from_actions(variant, s.actions(), f"table({variant},{players})")


def build_table(variant: str, players: int, *, rows_samples: int = ROWS_SAMPLES, threads: int | None = None,
                progress: bool = False) -> dict:
    """A table's entry in the built file (:data:`BUILT_FILE`): the equilibrium
    :func:`table_strategy` computes for ``variant`` and ``players`` when none is shipped (its
    ``actions``, ``iterations``, ``converged``, and the ``samples`` a step and ``seed`` it was
    built with), and under ``rows`` the counts of one run of ``rows_samples`` rounds in which
    one seat plays each action on the same deals and the others play the table (seeded from
    child 0 of :data:`TABLE_SEED`, which the equilibrium's steps never use): by key the
    ``deals``, the ``wins`` of each action and the paired ``plus``/``minus`` counts of each pair
    of actions. :func:`built_table` turns them into each key's P(win) and margin, the way
    :func:`~cardodds.kana.decisions.strategy_table` does its ``at_table`` and ``diff`` columns."""
    check_run(samples=rows_samples, threads=threads, rng=TABLE_SEED)
    s, iterations, converged = _table_equilibrium(variant, players, threads, progress)
    rules = KanaRules(players=players, variant=variant)
    forced = _forced(variant)
    (counts, N, _, partial), layout, K = _run_focal(rules, forced, s, rows_samples,
                                                    child(as_seed_sequence(TABLE_SEED)[0], 0), threads, progress)
    if partial:
        raise KeyboardInterrupt
    deals, wins, plus, minus = _per_key(counts, layout, K, len(forced))
    return {"actions": s.actions().tolist(), "iterations": iterations, "converged": converged,
            "samples": TABLE_SAMPLES, "seed": TABLE_SEED,
            "rows": {"samples": N, "deals": deals.tolist(), "wins": wins.tolist(), "plus": plus.tolist(),
                     "minus": minus.tolist()}}


@dataclass(frozen=True)
class BuiltTable:
    """A built table (:data:`BUILT_FILE`) as the web page shows it: the steps' ``samples`` and
    ``seed``, the rounds of the run behind the rows (``rows_samples``), and ``rows``: per key
    ``(key, action, P(win) at the table, margin over the next best action)``, the margin a
    paired difference on the same deals."""

    variant: str
    players: int
    iterations: int
    converged: bool
    samples: int
    seed: int
    rows_samples: int
    rows: list[tuple[str, str, Estimate, Estimate]]


def built_table(variant: str, players: int) -> BuiltTable | None:
    """The built table for ``variant`` and ``players`` (:func:`build_table`, shipped in
    :data:`BUILT_FILE`), or None when none is built.

    >>> t = built_table("peek-all", 5)
    >>> len(t.rows), t.rows[0][:2], t.seed == TABLE_SEED
    (455, ('222', 'low'), True)
    """
    entry = _read(BUILT_FILE).get(f"{variant}/{players}")
    if entry is None:
        return None
    actions = np.array(entry["actions"], np.int64)
    r = entry["rows"]
    deals, wins = np.array(r["deals"], np.int64), np.array(r["wins"], np.int64)
    plus, minus = np.array(r["plus"], np.int64), np.array(r["minus"], np.int64)
    _, win = _chosen(actions, deals, wins)
    margin = _margins(actions, deals, wins, plus, minus, len(wins))
    names = _actions(variant)
    rows = [(key, "random" if actions[k] < 0 else names[actions[k]], win[k], margin[k])
            for k, key in enumerate(_keys(variant))]
    return BuiltTable(variant, players, entry["iterations"], entry["converged"], entry["samples"], entry["seed"],
                      r["samples"], rows)


def table_entry(table) -> dict:
    """A strategy table's entry in the equilibrium file: the actions of its policy (as
    :meth:`~cardodds.kana.policies.Policy.actions` gives them), its iterations and whether
    it converged. ``table`` is a :class:`~cardodds.kana.decisions.StrategyTableResult`."""
    return {"actions": table.strategy.actions().tolist(), "iterations": table.iterations,
            "converged": table.converged}


def write_tables(tables: dict, path) -> Path:
    """Write ``tables`` (``"variant/players"`` -> :func:`table_entry`) as the equilibrium file:
    the one writer of both ``reports/kana_equilibrium.json`` and the shipped copy."""
    path = Path(path)
    path.write_text(json.dumps(tables, indent=1, sort_keys=True) + "\n")
    return path


def write_built(tables: dict, path) -> Path:
    """Write the built tables (``"variant/players"`` -> :func:`build_table`) as :data:`BUILT_FILE`:
    one line a table, its keys sorted, so the same tables give the same bytes."""
    path = Path(path)
    lines = [f"{json.dumps(k)}: {json.dumps(v, sort_keys=True, separators=(',', ':'))}"
             for k, v in sorted(tables.items())]
    path.write_text("{\n" + ",\n".join(lines) + "\n}\n", encoding="utf-8")
    return path


def build(variant: str, players, target=None, threads: int | None = None, progress: bool = False) -> Path:
    """Build the tables of ``variant`` at each of ``players`` (:func:`build_table`) and write them
    into the built file (``cardodds/kana/equilibrium_built.json``, or ``target``), keeping its
    other tables. A table the report builds (in :data:`TABLES_FILE`) is refused: the report's
    would be the one used."""
    path = Path(__file__).with_name(BUILT_FILE) if target is None else Path(target)
    report = _read(TABLES_FILE)
    keys = [f"{variant}/{p}" for p in players]
    taken = [k for k in keys if k in report]
    if taken:
        raise ValueError(f"{', '.join(taken)}: built by `cardodds report --section kana` (in {TABLES_FILE}); "
                         "build only the tables the report does not compute")
    tables = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    for key, p in zip(keys, players):
        tables[key] = build_table(variant, p, threads=threads, progress=progress)
    _shipped.cache_clear()
    table_strategy.cache_clear()
    return write_built(tables, path)


def ship(source="reports/kana_equilibrium.json", target=None) -> Path:
    """Rewrite the shipped tables (``cardodds/kana/equilibrium.json``, or ``target``) from the
    report's ``source``, through :func:`write_tables`: run it after ``cardodds report --section
    kana`` has rebuilt the tables (``python -m cardodds.kana.equilibrium [SOURCE]``)."""
    tables = json.loads(Path(source).read_text())
    _shipped.cache_clear()
    table_strategy.cache_clear()
    return write_tables(tables, Path(__file__).with_name(TABLES_FILE) if target is None else target)


def main(argv=None) -> None:
    """``python -m cardodds.kana.equilibrium [SOURCE]``: :func:`ship` the report's tables;
    ``python -m cardodds.kana.equilibrium --build peek-all 2,5,6,7,8 [--threads N]``:
    :func:`build` the tables the report does not compute."""
    parser = argparse.ArgumentParser(
        prog="python -m cardodds.kana.equilibrium",
        description="Copy the report's Känä equilibrium tables into the package, or --build (once) the tables "
                    "the report does not compute: python -m cardodds.kana.equilibrium --build peek-all 2,5,6,7,8")
    parser.add_argument("source", nargs="?", default="reports/kana_equilibrium.json",
                        help="the report's tables to ship (default reports/kana_equilibrium.json)")
    parser.add_argument("--build", nargs=2, metavar=("VARIANT", "PLAYERS"),
                        help="build the tables of VARIANT at PLAYERS (comma-separated) into the built file")
    parser.add_argument("--out", help="the built file to write (default: the package's)")
    parser.add_argument("--threads", type=int, help="threads of each run (default: every core)")
    args = parser.parse_args(argv)
    if args.build:
        variant, players = args.build
        players_list = [int(p) for p in players.split(",")]
        print(f"wrote {build(variant, players_list, args.out, args.threads, sys.stderr.isatty())}")
    else:
        print(f"wrote {ship(args.source)}")


if __name__ == "__main__":
    main()
