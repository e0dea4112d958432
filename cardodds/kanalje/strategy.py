"""Kanalje's strategy tables: the best action in each situation, like blackjack's basic strategy chart.

Each table is a grid of situations (:data:`TABLES`): the opening lead by my longest side suit,
my trump length and my jacks (``lead``; two players, phase 2: ``lead2``); second or third in a
trick that holds a jack, by the jacks' penalty and my holding in the led suit (``jack``,
``jack2``); two players, phase 1: fight for the face-up card or give it up, by its rank and my
hand's high-card points (``faceup``). Positions are drawn from deals played by the lineup (at
most one a deal), every action of a position is played out to the end of the deal on the same
deal and random draws, and each cell gives its verdict (the best action with its paired
margin over the next best, the actions equal within a quarter point a deal, or undecided) and
the positions it rests on (:mod:`cardodds.strategy`). Each action plays one card by the rule its classifier
documents (:mod:`._strategy`).

The shipped tables (``strategy.json``, the default rules: three players, and two for the
two-player tables) print at once; ``build=True`` computes them, for any rules.

>>> t = strategy_table("jack")
>>> t.shipped, t["jack"].cell("2nd", "4+", "both").short()      # duck under a trick holding Jh
(True, 'duck +3.02 (444)')
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

from .._validate import check_run
from ..rng import as_seed_sequence, child
from ..strategy import StrategyTablesResult, TableSpec, read_tables, select, write_tables
from ._defaults import DEFAULT_LOOKAHEAD_SAMPLES, TABLE_DEALS, TABLE_POLICIES, TABLE_SEED
from .rules import KanaljeRules, check_rules

__all__ = ["TABLES", "cell_of", "ship", "strategy_table"]

#: The shipped tables (for the default rules), written by :func:`ship`.
SHIPPED = Path(__file__).with_name("strategy.json")

_LEAD_ACTIONS = ("long low", "long high", "short", "trump", "jack")
_JACK_ACTIONS = ("duck", "win", "shed")
_PENALTY = ("penalty in the trick", ("1", "2", "3", "4+"))
_HOLDING = ("my led suit", ("void", "void+trump", "under", "both"))
_JACKS_HELD = ("jacks I hold", ("0", "1", "2+"))
_UNIT = "points a deal"
#: Two actions within a quarter point a deal of each other are equal for the game: taking the
#: worse one every time costs at most a point in four deals.
_EQUAL = 0.25
#: Every table, in the order of their seed streams (``child(seed, k)`` for the k-th).
TABLES = (
    TableSpec("lead", "Opening lead, three players", "which card leads the first trick",
              (("longest side suit", ("0-4", "5", "6", "7+")), ("trumps", ("0-2", "3-4", "5-6", "7+")), _JACKS_HELD),
              _LEAD_ACTIONS, _UNIT, _EQUAL),
    TableSpec("jack", "A trick holding a jack, three players", "duck, win or shed, second or third to play",
              (("seat", ("2nd", "3rd")), _PENALTY, _HOLDING), _JACK_ACTIONS, _UNIT, _EQUAL),
    TableSpec("lead2", "Opening lead of phase 2, two players", "which card leads phase 2's first trick",
              (("longest side suit", ("0-3", "4", "5", "6+")), ("trumps", ("0-1", "2-3", "4-5", "6+")), _JACKS_HELD),
              _LEAD_ACTIONS, _UNIT, _EQUAL),
    TableSpec("jack2", "A phase-2 trick holding a jack, two players", "duck, win or shed, second to play",
              (_PENALTY, _HOLDING), _JACK_ACTIONS, _UNIT, _EQUAL),
    TableSpec("faceup", "The face-up card, two players (phase 1)", "fight for the face-up card or give it up",
              (("I play", ("lead", "second")), ("face-up card", ("2-6", "7-9", "T", "J", "Q", "K", "A")),
               ("my high-card points", ("0-6", "7-9", "10-12", "13+"))), ("fight", "give"), _UNIT, _EQUAL),
)
#: Each table's kind (the kernel's classifier, ``._strategy``) and its players.
_BUILD = {"lead": ("LEAD", 3), "jack": ("JACK", 3), "lead2": ("LEAD", 2), "jack2": ("JACK", 2),
          "faceup": ("FACEUP", 2)}
#: Deals a chunk: fixed by the lineup alone, so the same seed gives the same counts on any threads.
_CHUNK = (1 << 12, 4)


def _players(spec: TableSpec) -> int:
    return _BUILD[spec.name][1]


def _tables_for(tables, rules):
    """The specs named (all: those of ``rules``' player count, or every table for None)."""
    specs = select(TABLES, tables)
    if rules is None:
        return specs
    if not tables:
        return [s for s in specs if _players(s) == rules.players]
    other = [s.name for s in specs if _players(s) != rules.players]
    if other:
        raise ValueError(f"table {other[0]!r} is a {5 - rules.players}-player table and the rules have "
                         f"players={rules.players}: pass rules with players={5 - rules.players}, or no rules")
    return specs


def strategy_table(tables=None, *, rules: KanaljeRules | None = None, samples: int | None = None, rng=TABLE_SEED,
                   threads: int | None = None, policies=None, build: bool = False,
                   progress: bool = False) -> StrategyTablesResult:
    """Kanalje's strategy tables (:data:`TABLES`; ``tables``: a name or a list, None for all):
    the shipped ones, or with ``build=True`` computed, ``samples`` deals a table (default the
    shipped precision) with ``policies`` playing every action out (default ``lookahead``), each
    table seeded by its own stream of ``rng`` (the shipped seed unless told). ``rules`` None: the
    default rules (two players for the two-player tables); given, only its player count's tables.

    >>> strategy_table("faceup")["faceup"].spec.actions
    ('fight', 'give')
    """
    threads = check_run(samples=samples, threads=threads, rng=rng)
    if rules is not None:
        rules = check_rules(rules)
    specs = _tables_for(tables, rules)
    if not build:
        shipped_seed = rng is None or (isinstance(rng, int) and rng == TABLE_SEED)
        given = [n for n, v in (("samples", samples), ("rng", None if shipped_seed else rng), ("threads", threads),
                                ("policies", policies)) if v is not None]
        if given or (rules is not None and rules != KanaljeRules(players=rules.players)):
            what = f"{given[0]}=" if given else "rules other than the defaults"
            raise ValueError(f"the shipped tables are for the default rules and precision; {what} asks for tables "
                             "computed: pass build=True (--build) to compute tables for those rules")
        res = read_tables(SHIPPED, TABLES, KanaljeRules())
        return dataclasses.replace(res, tables=tuple(res[s.name] for s in specs),
                                   rules=rules or KanaljeRules())
    return _build(specs, rules, TABLE_DEALS if samples is None else samples, rng,
                  threads, TABLE_POLICIES if policies is None else policies, progress)


def _build(specs, rules, samples, rng, threads, policies, progress) -> StrategyTablesResult:
    from ..engine import InOrder, run
    from ..strategy import summarise
    from . import _strategy as KS
    from ._common import lineup, searches
    from ._policies import P_USER, calls
    from ._table import phase1_arg
    from .view import compile_policy

    ss, seed = as_seed_sequence(rng)
    steps = InOrder()
    tables = []
    names = None
    for spec in specs:
        players = _players(spec)
        r = rules or KanaljeRules(players=players)
        codes, names, user, _ = lineup(policies, r)
        slow = searches(codes) or P_USER in codes
        phase1 = phase1_arg(players, 1)
        args = (r.pack(), getattr(KS, _BUILD[spec.name][0]), len(spec.actions), codes, DEFAULT_LOOKAHEAD_SAMPLES,
                calls(compile_policy(user), codes, phase1) if slow else None, phase1)
        res = steps.step(run, KS.strategy_kernel, args, spec.size, samples=samples,
                         rng=child(ss, TABLES.index(spec)), chunk_size=_CHUNK[slow], threads=threads,
                         progress=progress)
        if res is None:
            break
        tables.append(summarise(spec, res.counts))
    who = policies if isinstance(policies, str) else "/".join(names or ())
    return StrategyTablesResult(game="kanalje", policies=who, tables=tuple(tables), shipped=False,
                                rules=rules or KanaljeRules(), samples=samples, seed=seed, partial=steps.partial)


def cell_of(names, position) -> tuple[str, int, dict[str, str]] | None:
    """The first table of ``names`` (of the position's player count) ``position`` (a
    :class:`~cardodds.kanalje.Position`) falls in, as the tables' kernel classifies a decision:
    ``(table, cell index, {action: the card it plays})`` for the actions the position allows, or
    None. :meth:`~cardodds.strategy.StrategyTablesResult.lookup` reads it.

    >>> from cardodds.kanalje import Position
    >>> p = Position(seat=2, hand="Ah 2h Ac Kc Qc 9c 8c 3c As Ks 7s 6s 2s Ad 3d 4d 5d", turned="Td",
    ...              played="0: Qh Jh")
    >>> found = strategy_table("jack").lookup(p)          # third to a trick holding the J♥
    >>> found.cell.key, found.options, found.best
    (('3rd', '4+', 'both'), {'duck': '2h', 'win': 'Ah'}, '2h')
    """
    import numpy as np

    from ..cards import card_str
    from . import _strategy as KS
    from .position import Position

    if not isinstance(position, Position):
        raise ValueError(f"position={position!r} must be a kanalje.Position, e.g. Position(seat=0, hand=\"Ah 7c "
                         "...\", turned=\"7h\")")
    known = position._known
    for spec in select(TABLES, list(names)):
        if _players(spec) != position.rules.players:
            continue
        cards = np.zeros(KS.MAX_ACTIONS, np.int64)
        possible = np.zeros(KS.MAX_ACTIONS, np.int64)
        cell = int(KS.classify(known.table.copy(), np.int64(known.seat), np.int64(getattr(KS, _BUILD[spec.name][0])),
                               cards, possible))
        if cell >= 0:
            return spec.name, cell, {a: card_str(int(cards[i])) for i, a in enumerate(spec.actions) if possible[i]}
    return None


def ship(progress: bool = True) -> Path:
    """Build every table at the shipped precision and seed and write the shipped copy."""
    return write_tables(strategy_table(build=True, progress=progress), SHIPPED)


if __name__ == "__main__":  # python -m cardodds.kanalje.strategy --ship
    if sys.argv[1:] != ["--ship"]:
        sys.exit("usage: python -m cardodds.kanalje.strategy --ship")
    print(ship())
