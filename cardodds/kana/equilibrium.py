"""Känä's equilibrium strategy tables: best responses iterated until no action changes, and
the tables shipped with the package (RULES.md 1.2).

:func:`equilibrium` iterates best responses from a starting table; :func:`table_strategy` is
the policy the advisor and ``expected_value`` play by default ("the table"): the shipped
table for a variant and player count when there is one, else computed. The shipped file,
``cardodds/kana/equilibrium.json``, is written by :func:`write_tables` from what ``cardodds
report --section kana`` builds (``reports/kana_equilibrium.json``); after a report run,
``python -m cardodds.kana.equilibrium`` (:func:`ship`) rewrites the shipped copy from it.

The paired runs behind a table live here too: a *focal* seat plays each pure action on the
same deals as the others play a table (``_run_focal``), and the differences between actions
are paired. ``compare`` and ``strategy_table`` (:mod:`cardodds.kana.decisions`) and
``advise`` (:mod:`cardodds.kana.advise`) use them.

>>> table_strategy("peek-one", 4).kanas("9h"), table_strategy("peek-one", 4).kanas("Th")
(True, False)
"""

from __future__ import annotations

import json
import math
import sys
from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np

from .._validate import check_run
from ..engine import InOrder, run, takes_backend
from ..rng import RngLike, as_seed_sequence, child
from ..stats import Z95, Estimate, paired_difference
from ._defaults import DECISION_SAMPLES, TABLE_SAMPLES
from ._kernels import config_layout, play_configs
from ._table import COMBOS
from .policies import Policy, best_pair, from_actions, kana_ranks, pack_lineups, peek_all_table
from .rules import KanaRules

__all__ = ["MAX_ITERATIONS", "TABLES_FILE", "equilibrium", "ship", "table_entry", "table_strategy", "write_tables"]

#: Best-response steps :func:`equilibrium` makes at most.
MAX_ITERATIONS = 12
#: The seed of the tables :func:`table_strategy` computes when none is shipped.
TABLE_SEED = 20261129


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
def equilibrium(variant: str, players: int, *, samples: int = TABLE_SAMPLES, rng: RngLike = TABLE_SEED,
                threads: int | None = None, progress: bool = False, start: Policy | None = None,
                max_iterations: int = MAX_ITERATIONS) -> tuple[Policy, int, bool]:
    """Iterate best responses from ``start`` until the table stops changing.

    Returns ``(policy, iterations, converged)``. Every player uses the same table; an
    action changes only when the paired difference says so at the 95% level. Interrupted
    (Ctrl-C), it returns the table the finished steps reached, not converged.
    """
    KanaRules(players=players, variant=variant)  # refuses a bad player count or variant
    if variant not in ("peek-one", "peek-all"):
        raise ValueError(f"variant {variant!r} has no decisions to tabulate; choose 'peek-one' or 'peek-all'")
    check_run(samples=samples, threads=threads, rng=rng)
    if samples is None:
        samples = TABLE_SAMPLES
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


#: The shipped tables' file in the package.
TABLES_FILE = "equilibrium.json"


@lru_cache(maxsize=None)
def _shipped() -> dict:
    try:
        text = resources.files("cardodds.kana").joinpath(TABLES_FILE).read_text()
    except (FileNotFoundError, OSError):
        return {}
    return json.loads(text)


@lru_cache(maxsize=None)
def table_strategy(variant: str, players: int) -> Policy:
    """The equilibrium table for ``variant`` and ``players``: shipped if built, else computed."""
    entry = _shipped().get(f"{variant}/{players}")
    if entry is not None:
        return from_actions(variant, np.array(entry["actions"], np.int64), f"table({variant},{players})")
    s, _, _, partial = _equilibrium(variant, players, TABLE_SAMPLES, TABLE_SEED, None, False, None, MAX_ITERATIONS)
    if partial:  # not an equilibrium: never kept (lru_cache keeps no exception), nothing to answer with
        raise KeyboardInterrupt
    return from_actions(variant, s.actions(), f"table({variant},{players})")


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


def ship(source="reports/kana_equilibrium.json", target=None) -> Path:
    """Rewrite the shipped tables (``cardodds/kana/equilibrium.json``, or ``target``) from the
    report's ``source``, through :func:`write_tables`: run it after ``cardodds report --section
    kana`` has rebuilt the tables (``python -m cardodds.kana.equilibrium [SOURCE]``)."""
    tables = json.loads(Path(source).read_text())
    _shipped.cache_clear()
    table_strategy.cache_clear()
    return write_tables(tables, Path(__file__).with_name(TABLES_FILE) if target is None else target)


if __name__ == "__main__":  # python -m cardodds.kana.equilibrium [reports/kana_equilibrium.json]
    print(f"wrote {ship(*sys.argv[1:2])}")
