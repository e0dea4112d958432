"""How a player känäs: the policies, as data (docs/rules/kana.md §5).

A :class:`Policy` is one seat's decision rule; any mix can sit at a table. Rules that look
at cards are tables, so every table compiles once:

- official (nobody looks): :func:`blind` - a fixed position among the three face-down
  cards, or a random one. It is valid in every variant (a player may ignore a peek).
- ``"peek-one"``: :func:`threshold` and :func:`kana_ranks` - the set of peeked ranks the
  player känäs (otherwise it känäs an unseen card and keeps the peeked one).
- ``"peek-all"``: :func:`best_pair` (Superkänä first), :func:`highest_sum` (ignores
  Superkänä), :func:`kana_highest`, :func:`random_kana`, or any table by rank combination
  (:func:`peek_all_table`).
- Reacting to what was känäd before: every table may have one row per *context*, the
  highest rank känäd before the player (``None`` when it is first), e.g.
  ``kana_ranks({None: "2-7", "K": "2-9"})``.
- :func:`custom`: a user ``@njit`` function
  ``decide(state, seat, hand, peeked, kanad, n_kanad) -> position``; the signature and what
  it may read are documented in :mod:`cardodds.kana.view`.

A game-theory *strategy table* (``strategy_table``, ``StrategyTableResult``) keeps its
name: it is the table of best actions a policy may play, not the policy.

>>> threshold(7).kanas("5h"), threshold(7).kanas("9h")
(True, False)
>>> best_pair().choose("2c 2d Ah")      # keeps the Superkänä
'Ah'
>>> highest_sum().choose("2c 2d Ah")    # keeps 2 + A = 16
'2c'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ..cards import RANKS, card_str, parse_card, parse_cards
from ..policy import is_njit
from ._policies import KIND_BLIND, KIND_CUSTOM, KIND_PEEK_ALL, KIND_PEEK_ONE, NCTX, NO_CONTEXT, Policies
from ._table import COMBO, COMBOS, SUPERKANA
from .view import compile_policy

__all__ = [
    "Policy",
    "best_pair",
    "blind",
    "combos",
    "custom",
    "from_actions",
    "guess_variant",
    "highest_sum",
    "kana_highest",
    "kana_ranks",
    "parse_policy",
    "peek_all_table",
    "random_kana",
    "resolve_policies",
    "threshold",
]

_POSITIONS = {"first": 0, "second": 1, "third": 2, "random": -1}


@dataclass(frozen=True, eq=False)
class Policy:
    """One seat's känä rule. Build it with the functions of this module."""

    name: str
    variant: str  # "any", "peek-one" or "peek-all": where it can be used
    kind: int
    position: int = 0
    table: np.ndarray | None = field(default=None, repr=False)
    context: bool = False
    decide: Callable | None = field(default=None, repr=False)

    def __repr__(self) -> str:
        return f"Policy({self.name!r}, {self.variant})"

    def rows(self) -> np.ndarray:
        """The policy's table (peek-one and peek-all policies have one)."""
        if self.table is None:
            raise ValueError(f"{self.name} has no strategy table (a blind or custom policy)")
        return self.table

    def actions(self) -> np.ndarray:
        """The action for each key when nothing was känäd before (the table's last row): per
        peeked rank 0 känä, 1 keep (peek-one); per rank combination 0, 1, 2 känä the lowest,
        middle, highest card, -1 a random one (peek-all). :func:`from_actions` is its inverse.

        >>> threshold(8).actions().tolist()
        [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1]
        """
        row = self.rows()[-1]  # the no-context row
        if self.variant == "peek-one":
            return np.where(row == 1, 0, 1).astype(np.int64)
        return row.astype(np.int64)

    def __eq__(self, other) -> bool:
        if not isinstance(other, Policy):
            return NotImplemented
        same_table = (self.table is None and other.table is None) or (
            self.table is not None and other.table is not None and np.array_equal(self.table, other.table)
        )
        return (self.kind, self.position, self.context, self.decide, self.variant) == (
            other.kind, other.position, other.context, other.decide, other.variant
        ) and same_table

    def __hash__(self) -> int:
        return hash((self.kind, self.position, self.context, self.variant,
                     None if self.table is None else self.table.tobytes()))

    def fits(self, variant: str) -> bool:
        return self.variant in ("any", variant)

    # --- questions a player can ask of it ----------------------------------------------
    def kanas(self, peeked: str | int, seen=None) -> bool:
        """Peek-one: does it känä the peeked card? ``seen`` lists the känäd cards before it."""
        if self.kind != KIND_PEEK_ONE:
            raise ValueError(f"{self.name} is not a peek-one policy")
        card = parse_card(peeked) if isinstance(peeked, str) else int(peeked)
        return bool(self.rows()[_context(seen, self.context), card >> 2])

    def choose(self, hand: str, seen=None) -> str:
        """Peek-all: which of three known cards it känäs (random policies return '?')."""
        if self.kind != KIND_PEEK_ALL:
            raise ValueError(f"{self.name} is not a peek-all policy")
        cards = parse_cards(hand)
        if len(cards) != 3:
            raise ValueError(f"a hand has 3 cards, got {len(cards)}")
        order = sorted(range(3), key=lambda j: (cards[j] >> 2, j))
        ranks = sorted(c >> 2 for c in cards)
        j = int(self.rows()[_context(seen, self.context), COMBO[ranks[0], ranks[1], ranks[2]]])
        return "?" if j < 0 else card_str(cards[order[j]])


def _context(seen, uses_context: bool) -> int:
    if not uses_context or not seen:
        return NO_CONTEXT
    cards = parse_cards(seen) if isinstance(seen, str) else list(seen)
    return max(c >> 2 for c in cards) if cards else NO_CONTEXT


# ---------------------------------------------------------------------------------------
# Official: no looking
# ---------------------------------------------------------------------------------------


def blind(position="random") -> Policy:
    """Känä a face-down card without looking: ``"first"``, ``"second"``, ``"third"`` (or
    0, 1, 2) of the three as dealt, or ``"random"``."""
    if isinstance(position, str) and position in _POSITIONS:
        pos = _POSITIONS[position]
    elif isinstance(position, int) and not isinstance(position, bool) and position in (0, 1, 2):
        pos = position
    else:
        raise ValueError(f"blind position {position!r} is not known; choose 'first', 'second', 'third' or 'random'")
    name = "blind" if pos < 0 else f"blind-{['first', 'second', 'third'][pos]}"
    return Policy(name, "any", KIND_BLIND, pos)


# ---------------------------------------------------------------------------------------
# Peek-one: which peeked ranks to känä
# ---------------------------------------------------------------------------------------


def _ranks(spec) -> set[int]:
    """Rank codes from "2-7", "2,3,A", ["2", "K"], a value 2..14 set, or a range."""
    if isinstance(spec, str):
        out: set[int] = set()
        for part in re.split(r"[\s,]+", spec.strip()):
            if not part:
                continue
            if "-" in part:
                a, b = part.split("-", 1)
                lo, hi = _rank(a), _rank(b)
                if lo > hi:
                    raise ValueError(f"rank range {part!r} runs backwards; write it low-high, e.g. '2-7'")
                out.update(range(lo, hi + 1))
            else:
                out.add(_rank(part))
        return out
    return {_rank(r) for r in spec}


def _rank(token) -> int:
    if isinstance(token, int) and not isinstance(token, bool):
        if 2 <= token <= 14:
            return token - 2
        raise ValueError(f"rank value {token} is outside 2..14 (A = 14)")
    t = str(token).strip().upper()
    t = "T" if t == "10" else t
    if t in RANKS:
        return RANKS.index(t)
    if t.isdigit() and 2 <= int(t) <= 14:
        return int(t) - 2
    raise ValueError(f"rank {token!r} is not known; use 2-10, J, Q, K, A (or values 2..14)")


def kana_ranks(ranks, name: str | None = None) -> Policy:
    """Peek-one: känä the peeked card when its rank is in ``ranks``, else keep it.

    ``ranks`` is a set ("2-7", "2,3,4", ``{2, 3}``), or a mapping from the highest rank
    känäd before the player (``None`` = nothing seen yet; a rank such as "K") to a set; a
    context not listed falls back to ``None``'s set.

    >>> s = kana_ranks({None: "2-7", "A": "2-9"})
    >>> s.kanas("8h"), s.kanas("8h", seen="Ad 4c")
    (False, True)
    """
    table = np.zeros((NCTX, 13), np.int8)
    if isinstance(ranks, Mapping):
        if None not in ranks:
            raise ValueError("a context table needs a None entry: the ranks to känä when nothing was seen")
        default = _ranks(ranks[None])
        for ctx in range(NCTX):
            table[ctx, list(default)] = 1
        for seen, spec in ranks.items():
            if seen is None:
                continue
            ctx = _rank(seen)
            table[ctx] = 0
            table[ctx, list(_ranks(spec))] = 1
        context = True
        label = name or "kana-ranks(by context)"
    else:
        chosen = _ranks(ranks)
        for ctx in range(NCTX):
            table[ctx, list(chosen)] = 1
        context = False
        label = name or f"kana-ranks({','.join(RANKS[r] for r in sorted(chosen)) or 'none'})"
    table.setflags(write=False)
    return Policy(label, "peek-one", KIND_PEEK_ONE, table=table, context=context)


def threshold(value: int) -> Policy:
    """Peek-one: känä the peeked card when its value is at most ``value`` (2..14; 8 is the
    mean of an unseen card), else keep it. ``threshold(1)`` never känäs the peeked card.

    >>> threshold(8).name
    'threshold(8)'
    """
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 14:
        raise ValueError(f"threshold {value!r} must be a card value 1..14 (1 = never känä the peeked card)")
    return kana_ranks(range(2, value + 1), name=f"threshold({value})")


# ---------------------------------------------------------------------------------------
# Peek-all: which of three known cards
# ---------------------------------------------------------------------------------------


def _combos():
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                yield a, b, c


def _pair_key(x: int, y: int) -> int:
    return SUPERKANA if x == y == 0 else x + y + 4


def _rank_table(choose) -> np.ndarray:
    row = np.empty(COMBOS, np.int8)
    for k, ranks in enumerate(_combos()):
        row[k] = choose(ranks)
    table = np.repeat(row[None, :], NCTX, axis=0)
    table.setflags(write=False)
    return table


def best_pair() -> Policy:
    """Peek-all: keep the best pair (two 2s, a Superkänä, first; then the highest sum)."""

    def choose(r):
        keys = [_pair_key(r[1], r[2]), _pair_key(r[0], r[2]), _pair_key(r[0], r[1])]
        return keys.index(max(keys))

    return Policy("best-pair", "peek-all", KIND_PEEK_ALL, table=_rank_table(choose))


def highest_sum() -> Policy:
    """Peek-all: keep the highest sum, ignoring Superkänä (känä the lowest card)."""
    return Policy("highest-sum", "peek-all", KIND_PEEK_ALL, table=_rank_table(lambda r: 0))


def kana_highest() -> Policy:
    """Peek-all: känä the highest card."""
    return Policy("kana-highest", "peek-all", KIND_PEEK_ALL, table=_rank_table(lambda r: 2))


def random_kana() -> Policy:
    """Peek-all: look, then känä a random card anyway."""
    return Policy("random", "peek-all", KIND_PEEK_ALL, table=_rank_table(lambda r: -1))


def peek_all_table(choices, name: str = "peek-all-table", by_context=None) -> Policy:
    """Peek-all from a table: ``choices[combo]`` = 0, 1, 2 (känä the lowest, middle, highest
    ranked card) or -1 (random), for the 455 rank combinations in the order of
    ``cardodds.kana.policies.combos()``; ``by_context`` optionally maps a seen rank to
    another such row."""
    row = np.asarray(choices, dtype=np.int64)
    if row.shape != (COMBOS,) or not np.isin(row, (-1, 0, 1, 2)).all():
        raise ValueError(f"a peek-all table has {COMBOS} entries, each -1, 0, 1 or 2")
    table = np.repeat(row.astype(np.int8)[None, :], NCTX, axis=0)
    for seen, other in (by_context or {}).items():
        other = np.asarray(other)
        if other.shape != (COMBOS,):
            raise ValueError(f"a peek-all table row has {COMBOS} entries")
        table[_rank(seen)] = other
    table.setflags(write=False)
    return Policy(name, "peek-all", KIND_PEEK_ALL, table=table, context=bool(by_context))


def combos() -> list[tuple[str, str, str]]:
    """The 455 rank combinations (lowest rank first) in table order, as rank letters."""
    return [(RANKS[a], RANKS[b], RANKS[c]) for a, b, c in _combos()]


# ---------------------------------------------------------------------------------------
# The user's own
# ---------------------------------------------------------------------------------------


def custom(decide: Callable, variant: str, name: str = "custom") -> Policy:
    """A policy from the user's ``@njit`` function (signature in the module docstring).

    >>> from numba import njit
    >>> @njit
    ... def keep_high_peek(state, seat, hand, peeked, kanad, n_kanad):
    ...     return 0 if (hand[0] >> 2) < 6 else 1
    >>> custom(keep_high_peek, "peek-one").name
    'custom'
    """
    if not is_njit(decide):
        raise ValueError("a custom policy needs a numba @njit function "
                         "decide(state, seat, hand, peeked, kanad, n_kanad) -> position (see cardodds.kana.view)")
    if variant not in ("official", "peek-one", "peek-all"):
        raise ValueError(f"variant {variant!r} is not known; choose 'official', 'peek-one' or 'peek-all'")
    return Policy(name, variant, KIND_CUSTOM, decide=decide)


# ---------------------------------------------------------------------------------------
# Names the CLI and the API accept
# ---------------------------------------------------------------------------------------


def parse_policy(spec, variant: str) -> Policy:
    """A policy from its name (or a :class:`Policy`, checked to fit ``variant``): ``blind``,
    ``blind-first``.., ``threshold:7``, ``kana:2-7``, ``best-pair``, ``highest-sum``,
    ``kana-highest``, ``random``."""
    if isinstance(spec, Policy):
        s = spec
    elif not isinstance(spec, str):
        raise ValueError(f"policy {spec!r} must be a Policy or a name such as 'threshold:7'")
    else:
        raw = spec.strip()
        t = raw.lower()
        if t in ("blind", "blind-random"):
            s = blind("random")
        elif t.startswith("blind-") and t[6:] in _POSITIONS:
            s = blind(t[6:])
        elif t.startswith("threshold:"):
            try:
                v = int(t.split(":", 1)[1])
            except ValueError:
                raise ValueError(f"{spec!r}: write threshold:V with a card value V from 1 to 14") from None
            s = threshold(v)
        elif t.startswith("kana:"):
            s = kana_ranks(raw.split(":", 1)[1])
        elif t == "best-pair":
            s = best_pair()
        elif t == "highest-sum":
            s = highest_sum()
        elif t == "kana-highest":
            s = kana_highest()
        elif t == "random":
            s = random_kana() if variant == "peek-all" else blind("random")
        else:
            raise ValueError(
                f"policy {spec!r} is not known; choose blind, blind-first/second/third, threshold:V, kana:RANKS "
                "(peek-one), best-pair, highest-sum, kana-highest, random (peek-all)"
            )
    if not s.fits(variant):
        raise ValueError(f"policy {s.name} is for {s.variant}, not for variant {variant!r}")
    return s


def resolve_policies(table, rules, what: str = "policies") -> list[Policy]:
    """One policy a seat for ``rules`` from ``table``: one policy (a name or a :class:`Policy`)
    for every seat, or one per seat; ``what`` names the argument in errors."""
    n = rules.players
    if isinstance(table, (str, Policy)):
        table = [table] * n
    table = list(table)
    if len(table) != n:
        raise ValueError(f"{what} lists {len(table)} policies for {n} seats; give one per seat or one for all")
    return [parse_policy(s, rules.variant) for s in table]


def guess_variant(*specs) -> str:
    """The variant policies are made for: the first that needs one (a threshold is peek-one,
    best-pair peek-all), else ``"official"`` (blind fits every variant).

    >>> guess_variant("blind", "threshold:8")
    'peek-one'
    """
    for s in specs:
        if isinstance(s, Policy) and s.variant != "any":
            return s.variant
        if isinstance(s, str):
            t = s.lower()
            if t.startswith(("threshold", "kana:")):
                return "peek-one"
            if t in ("best-pair", "highest-sum", "kana-highest"):
                return "peek-all"
    return "official"


def from_actions(variant: str, actions, name: str) -> Policy:
    """The policy that plays ``actions`` (as :meth:`Policy.actions` gives them) in ``variant``.

    >>> from_actions("peek-one", threshold(8).actions(), "t8") == threshold(8)
    True
    """
    if variant == "peek-one":
        return kana_ranks([r for r in range(2, 15) if actions[r - 2] == 0], name=name)
    return peek_all_table(actions, name=name)


def pack_lineups(configs: list[list[Policy]], n: int) -> tuple[Policies, object]:
    """The kernels' ``_policies.Policies`` bundle from configurations of per-seat policies, and
    the kernels' user-policy argument: the one user decision function they use compiled by
    :func:`cardodds.kana.view.compile_policy` (the stand-in if none)."""
    C = len(configs)
    kinds = np.zeros((C, n), np.int64)
    args = np.zeros((C, n), np.int64)
    ctxmode = np.zeros((C, n), np.int64)
    t1 = np.zeros((C, n, NCTX, 13), np.int8)
    t3 = np.zeros((C, n, NCTX, COMBOS), np.int8)
    fn = None
    for c, seats in enumerate(configs):
        for p, s in enumerate(seats):
            kinds[c, p] = s.kind
            args[c, p] = s.position
            ctxmode[c, p] = int(s.context)
            if s.kind == KIND_PEEK_ONE:
                t1[c, p] = s.rows()
            elif s.kind == KIND_PEEK_ALL:
                t3[c, p] = s.rows()
            elif s.kind == KIND_CUSTOM:
                if fn is not None and fn is not s.decide:
                    raise ValueError("one table can use one custom decision function at a time")
                fn = s.decide
    return Policies(kinds, args, ctxmode, t1, t3), compile_policy(fn)
