"""Polish Canasta's strategy tables, as blackjack's basic strategy chart (the core:
:mod:`cardodds.strategy`): each cell a situation, its verdict (the best action and its paired
margin over the next best, the actions equal within 25 points a hand, or undecided) and the
positions behind it.

- ``take``: leave the pile or take it, by the pile's size, a wild or a black 3 in it, whether
  our side has opened and how the top card fits ("pair": a natural pair of it in hand, "our meld":
  our meld of its rank, "neither": a wild on top, or one natural with wilds).
- ``out``: stay in or go out now, by both sides' canastas and the cards the two opponents hold.
- ``out-game``: the same with both sides' game totals drawn within 2,500 below the target, by
  the score too (behind or ahead by 400 or more, or level); valued by the game equity after the
  hand, as the advisor values it with a score (100 for a won game, else 100 x our P(win the
  game) from the equity table at the totals the hand leaves): points would miss what is at stake.
- ``discard``: which kind of card to throw, by the pile, the next player's cards and whether
  we hold a black 3. A natural is "on their meld" (the next player's side has melded its rank),
  else "they threw it" (the next player discarded it this hand, not taken back), else "from a
  pair" (we hold two or more), else a "single"; a black 3 and a wild are kinds of their own.

An action is one move by a fixed rule: heuristic2's choice among the moves of that action
(the ways to take the pile, the moves that go out, the discards of that kind; the first when
it would choose none); "leave" and "stay" are the advisor's options (the pile not taken; no
move that empties the hand this turn). Positions come from hands played by ``policies``
(``heuristic2`` at every seat: the advisor's player; ``lookahead`` costs hundreds of times
as much a hand), one a hand at most (each decision of the table's kind in a hand equally likely); every
action is played out to the end of the hand on the same deal from the same random state by the
same players, and valued by our side's hand score minus theirs (``out-game``: 100 x the game
equity after the hand). The shipped tables (the default rules, ``cardodds/canasta/strategy.json``)
are read without numba; ``python -m cardodds.canasta.strategy --ship`` rebuilds them.

>>> r = strategy_table("take")
>>> r.shipped, r["take"].spec.actions
(True, ('leave', 'take'))
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

from .._validate import check_run
from ..rng import as_seed_sequence, child
from ._advise import EQUITY_SCALE
from ..strategy import StrategyTablesResult, TableSpec, read_tables, select, write_tables
from ._defaults import ADVISE_MARGIN, STRATEGY_POLICIES, STRATEGY_SAMPLES, STRATEGY_SEED, STRATEGY_TABLES
from .rules import CanastaRules, check_rules

__all__ = ["SHIPPED_SAMPLES", "SHIPPED_SEED", "TABLES", "lookup", "ship", "strategy_table"]

_CANASTAS = ("0", "1", "2+")
_THEIR_CARDS = ("2-6", "7-11", "12+")
#: Two actions within 25 points a hand of each other are equal for the game (a few cards'
#: points: docs/rules/canasta.md §1.4); with the game at stake, within one percentage point of
#: the game equity: the advisor's margins.
_EQUAL, _EQUAL_GAME = ADVISE_MARGIN[0], 100 * ADVISE_MARGIN[1]

#: The tables, in the order of their seed streams (``rng.child(seed, k)`` for the k-th).
TABLES = (
    TableSpec("take", "Take the pile", "leave it or take it?",
              (("pile", ("1-2 cards", "3-5 cards", "6-9 cards", "10+ cards")),
               ("in it", ("no wild, no 3b", "a wild", "a black 3", "a wild and a 3b")),
               ("our side", ("not opened", "opened")), ("top card", ("pair", "our meld", "neither"))),
              ("leave", "take"), "points a hand", _EQUAL),
    TableSpec("out", "Go out", "stay in or go out now?",
              (("our canastas", _CANASTAS), ("their canastas", _CANASTAS), ("their cards", _THEIR_CARDS)),
              ("stay", "go out"), "points a hand", _EQUAL),
    TableSpec("out-game", "Go out, game at stake", "stay in or go out near the target?",
              (("score", ("behind 400+", "level", "ahead 400+")), ("our canastas", _CANASTAS),
               ("their canastas", _CANASTAS), ("their cards", _THEIR_CARDS)),
              ("stay", "go out"), "% game equity", _EQUAL_GAME, EQUITY_SCALE / 100),
    TableSpec("discard", "The discard", "which kind of card to throw the next player?",
              (("pile", ("0-2 cards", "3-5 cards", "6-9 cards", "10+ cards")),
               ("next player", ("holds 1-4", "holds 5-8", "holds 9+")), ("black 3", ("none", "held"))),
              ("black 3", "they threw it", "on their meld", "single", "from a pair", "wild"), "points a hand", _EQUAL),
)
assert tuple(s.name for s in TABLES) == STRATEGY_TABLES
#: The shipped tables' hands a table, their seed and players.
SHIPPED_SAMPLES = STRATEGY_SAMPLES
SHIPPED_SEED = STRATEGY_SEED
SHIPPED_POLICIES = STRATEGY_POLICIES
_FILE = Path(__file__).with_name("strategy.json")
#: Hands a chunk: each hand plays several play-outs.
CHUNK = 256


def strategy_table(tables=None, *, rules: CanastaRules | None = None, samples: int | None = None,
                   rng=STRATEGY_SEED, threads: int | None = None, policies=None, build: bool = False,
                   progress: bool = False) -> StrategyTablesResult:
    """The strategy tables named (all for None): ``"take"``, ``"out"``, ``"out-game"``, ``"discard"``.

    ``build=False``: the shipped tables (default rules, ``SHIPPED_SAMPLES`` hands a table,
    seed ``SHIPPED_SEED``, heuristic2). ``build=True``: computed on ``samples`` hands a table
    (default the shipped count) from seed ``rng`` (the shipped seed unless told; None: a fresh
    one), each table from its own stream, so a table rebuilt alone has the counts it has in the
    full build.
    """
    check_run(samples=samples, threads=threads, rng=rng)
    specs = select(TABLES, tables)
    shipped_seed = isinstance(rng, int) and rng == STRATEGY_SEED
    given = {"rules": rules, "samples": samples, "rng": None if shipped_seed else rng, "threads": threads,
             "policies": policies}
    if not build:
        off = [k for k, v in given.items() if v is not None and not (k == "rules" and check_rules(v) == CanastaRules())]
        if off:
            what = "rules other than the defaults need" if off[0] == "rules" else f"{off[0]}= needs"
            raise ValueError(f"{what} build=True; the shipped tables are for the default rules ({SHIPPED_SAMPLES:,} "
                             f"hands a table, seed {SHIPPED_SEED}, {SHIPPED_POLICIES})")
        shipped = read_tables(_FILE, TABLES, CanastaRules())
        keep = {s.name for s in specs}
        return replace(shipped, tables=tuple(t for t in shipped.tables if t.name in keep))
    return _build(specs, check_rules(rules), samples, rng, threads, policies, progress)


def lookup(position, tables: StrategyTablesResult | None = None):
    """The table a :class:`~cardodds.canasta.Position` asks about (its decision: ``take``;
    ``out``, ``out-game`` with a score where both sides stand within 2,500 below the target;
    ``discard``), the cell it falls in and the cell's verdict among the actions the position
    allows: ``(table name, Cell)``. ``tables``: a :func:`strategy_table` result (default the
    shipped tables). The cell is read from what the seat sees: its hand, the melds, the pile (its
    unknown cards count as no wild and no black 3), the other hands' sizes, the discards thrown,
    the score.

    >>> from cardodds.canasta import Position
    >>> name, cell = lookup(Position("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K",
    ...                              pile_size=4, decision="take"))
    >>> name, cell.key, cell.best
    ('take', ('3-5 cards', 'no wild, no 3b', 'opened', 'pair'), 'take')
    """
    from . import _strategy as K
    from . import _table as T
    from .cards import BLACK3, N_KINDS
    from .position import Position

    if not isinstance(position, Position):
        raise ValueError(f"position={position!r}: give a cardodds.canasta.Position")
    d = position.decision
    near = position.score is not None and min(position.score) >= position.rules.target - K.NEAR
    name = {"take": "take", "out": "out-game" if near else "out", "discard": "discard"}.get(d)
    if name is None:
        raise ValueError(f"decision={d!r}: no strategy table is about it; the tables are about "
                         "take, out and discard")
    if tables is None:
        tables = strategy_table(name) if position.rules == CanastaRules() else None
    if tables is None:
        raise ValueError("the shipped tables are for the default rules: give the tables built for the position's "
                         "rules (tables=strategy_table(..., rules=..., build=True))")
    table = tables[name]
    t = position._packed.base.copy()
    for seat, held in zip((1, 2, 3), position.counts):  # the cards not known, as black 3s (only their number counts)
        t[T.hand_at(seat, BLACK3)] += held - int(t[T.SA.hand + seat * N_KINDS:T.SA.hand + (seat + 1) * N_KINDS].sum())
    if position.score is not None:
        t[T.SA.game:T.SA.game + 2] = position.score
    possible = np.zeros(len(table.spec.actions), dtype=np.int64)
    which = [s.name for s in TABLES].index(name)
    cell = int(K.position_cell(t, position.rules.pack(), np.int64(which), possible))
    if cell < 0:
        raise ValueError(f"the position is not a decision of table {name!r}: "
                         + ("it holds one card, or no discard keeps a card" if d == "discard"
                            else "every move goes out" if d == "out" else "the pile cannot be taken"))
    among = [a for a, p in zip(table.spec.actions, possible) if p]
    return name, table.cell(*table.spec.keys()[cell], among=among)


def _lineup(policies):
    from .policies import resolve_policies

    return resolve_policies(SHIPPED_POLICIES if policies is None else policies)


def _args(spec, rules, codes, hp, user, keep=None) -> tuple:
    """The arguments of table ``spec``'s kernel after its run arguments."""
    from ._policies import P_LOOKAHEAD, smart_arg
    from .cards import deck_kinds
    from .view import kernel_policy

    from . import _advise as A
    from . import _strategy as K
    from ._play import RulesSet, Seats
    from .equity import equity_grid

    look = 1 if P_LOOKAHEAD in codes else None
    kind = K.Kind(np.int64([s.name for s in TABLES].index(spec.name)), np.int64(len(spec.actions)))
    game = np.zeros(A.G_LEN, dtype=np.int64)
    game[A.G_TARGET] = rules.target
    etab = equity_grid(rules, game) if spec.name == "out-game" else np.zeros((0, 0))
    return (RulesSet(deck_kinds(rules.jokers), rules.pack()), Seats(codes, hp), kernel_policy(user),
            smart_arg(codes), look, kind, keep, game, etab)


def _build(specs, rules, samples, rng, threads, policies, progress) -> StrategyTablesResult:
    from .. import engine
    from ..strategy import summarise
    from . import _strategy as K
    from ._policies import P_LOOKAHEAD

    samples = SHIPPED_SAMPLES if samples is None else samples
    check_run(samples=samples, threads=threads, rng=rng)
    ss, seed = as_seed_sequence(rng)
    codes, names, user, hp = _lineup(policies)
    tables = []
    partial = False
    for spec in specs:
        k = [s.name for s in TABLES].index(spec.name)
        res = engine.run(K.table_kernel, _args(spec, rules, codes, hp, user), spec.size, samples=samples,
                         rng=child(ss, k), threads=threads, progress=progress,
                         chunk_size=8 if P_LOOKAHEAD in codes else CHUNK, unit="hand")
        partial = partial or res.partial
        tables.append(summarise(spec, res.counts))
    who = ",".join(names) if len(set(names)) > 1 else names[0]
    return StrategyTablesResult(game="canasta", policies=who, tables=tuple(tables), unit="hand", rules=rules,
                                samples=int(samples), seed=seed, partial=partial)


def _kept(name: str, hands: int, rng, rules: CanastaRules | None = None, policies=None):
    """The positions of table ``name`` drawn from ``hands`` hands (one chunk from ``rng``): the
    kernel's counts and its rows of :data:`cardodds.canasta._strategy.KEPT`, one a hand (cell
    -1 where the hand had none)."""
    from ..rng import chunk_state
    from . import _strategy as K

    spec = select(TABLES, name)[0]
    rules = check_rules(rules)
    codes, _names, user, hp = _lineup(policies)
    keep = np.zeros((hands, K.KEPT.size), np.int64)
    out = np.zeros(spec.size, np.int64)
    K.table_kernel(chunk_state(as_seed_sequence(rng)[0], 0), hands, out, *_args(spec, rules, codes, hp, user, keep))
    return out, keep


def ship(path=_FILE) -> Path:
    """Build every table at the shipped precision and write the shipped copy."""
    return write_tables(strategy_table(build=True, progress=True), path)


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--ship"]:
        print(ship())
    else:
        sys.exit("usage: python -m cardodds.canasta.strategy --ship")
