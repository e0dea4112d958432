"""Reviewing an evening of Känä: each känä of a seat rated against the advisor (docs/rules/kana.md §5).

The record is what ``cardodds kana trace`` prints, or the same typed by hand: a header
(``players:``, ``variant:``, and ``house rules:`` when they are not the defaults), then round
after round each seat's ``deal`` (its three cards), in peek-one its ``peek``, the ``känä``
lines clockwise from the starter (the previous round's winner; in the first round, whoever
känäs first) and the round's ``win``::

    # cardodds trace: kana
    players: 3
    variant: peek-one
    0: deal 9h 2c Kd
    0: peek 9h
    0: känä 2c
    1: känä 5s
    2: känä Qd
    2: win

A seat's decision is its känä, on the position it knew then: its place in the känä order,
its own cards as the variant lets it see them (official: none; peek-one: the peeked card;
peek-all: all three) and the cards känäd before it, never a card it could not see. A seat is
reviewed in the rounds whose record holds what it knew: its ``peek`` in peek-one (the others'
peeks are seldom known at a real table), its ``deal`` in the other variants.
:func:`~cardodds.kana.advise` plays every option on the same deals with the others playing
``policies``. The cost is in **antes**: the pot is ``players`` antes, so a känä that lowers
P(win the round) by d costs ``players x d`` antes of the evening's money (:data:`THRESHOLDS`).
Under the official rules every känä wins exactly 1/n: each is good, at an exact cost of 0, and
no deal is played.

>>> r = review("# cardodds trace: kana\\nplayers: 3\\nvariant: official\\n0: deal 9h 2c Kd\\n0: känä 2c", rng=1)
>>> r.decisions[0].label, r.decisions[0].cost.format(2)
('good', '0.00 (exact)')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Sequence

from .._validate import check_run
from ..advice import AdviceResult, Turn
from ..cards import card_str, format_cards, parse_cards
from ..engine import takes_backend
from ..review import (Decision, Place, ReviewResult, Thresholds, Violation, decision, price, rate_in_order,
                      read_record, review_budget, review_seats, unpriced)
from ..rng import RngLike, as_seed_sequence, child
from ..stats import Estimate
from ..trace import Trace
from ._defaults import ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, ADVISE_SPREAD, OPPONENTS, REVIEW_SECONDS
from ._policies import KIND_CUSTOM
from .advise import _options, advise
from .position import Position
from .exact import _pair_key
from .policies import Policy, resolve_policies
from .rules import MAX_PLAYERS, MIN_PLAYERS, VARIANTS, KanaRules, rules_for
from .session import HOUSE_RULES

__all__ = ["THRESHOLDS", "positions", "review"]

#: Where a loss becomes a mistake and a blunder, in antes (the review's unit): a tenth of an
#: ante, and half of one; within the advice's margin it is good. The equilibrium table's own
#: choices near its indifferent ranks cost less than a tenth; keeping a peeked 7 or känäing a
#: peeked 10 costs more.
THRESHOLDS = Thresholds(mistake=0.1, blunder=0.5, unit="antes", good=ADVISE_MARGIN)
#: The numbers of players a record may name, and that in words (a record naming another is refused).
PLAYERS = (range(MIN_PLAYERS, MAX_PLAYERS + 1),
           f"Känä is played by {MIN_PLAYERS} to {MAX_PLAYERS} players (three cards each from one deck)")
#: The words a record's moves may use (``kana`` for ``känä``, as a keyboard without ä types it).
_ACTIONS = {"deal": "deal", "peek": "peek", "känä": "känä", "kana": "känä", "win": "win"}
_ORDINAL = ("1st", "2nd", "3rd")


@dataclass(frozen=True)
class _Kana:
    """One känä as its seat knew it: where it is in the record, its round, the seat that
    started it, the position (its place in the känä order, what it knew of its cards, the cards
    känäd before it; None when the record lacks its cards), the card känäd and where it lay in
    the seat's deal (None: deal unknown)."""

    move: int
    line: int
    seat: int
    round: int
    starter: int
    position: Position | None
    card: int
    slot: int | None


@dataclass
class _Round:
    """What the record has shown of the round under way."""

    number: int
    starter: int | None
    deals: dict[int, tuple[int, ...]] = field(default_factory=dict)
    peeks: dict[int, list[int]] = field(default_factory=dict)
    kanad: list[tuple[int, int]] = field(default_factory=list)  # (seat, card) in order
    owner: dict[int, int] = field(default_factory=dict)  # card -> the seat it was seen with

    def clash(self, seat: int, cards: Sequence[int]) -> str | None:
        """A card seen twice this round (with another seat, or twice in one line)."""
        for j, c in enumerate(cards):
            if self.owner.get(c, seat) != seat or c in cards[:j]:
                return f"{card_str(c)} is dealt twice in round {self.number}"
        return None

    def own(self, seat: int, cards: Sequence[int]) -> None:
        for c in cards:
            self.owner[c] = seat

    def has_kanad(self, seat: int) -> bool:
        return any(s == seat for s, _ in self.kanad)


def _record_rules(trace: Trace, rules: KanaRules | None) -> KanaRules:
    """The rules of the record's header (a trace object's own rules first), checked against ``rules``."""
    if isinstance(trace.rules, KanaRules) and rules is None:
        return trace.rules
    variant = trace.info.get("variant")
    if variant is not None and variant not in VARIANTS:
        raise ValueError(f"the record's variant {variant!r} is not known: write 'variant: official', "
                         "'variant: peek-one' or 'variant: peek-all'")
    if variant is None and rules is None:
        raise ValueError("the record names no variant: add a line 'variant: official' (or peek-one, peek-all)")
    house: dict[str, float | str] = {}
    for item in filter(None, (x.strip() for x in trace.info.get("house rules", "").split(","))):
        key, eq, value = (x.strip() for x in item.partition("="))
        if not eq or key not in HOUSE_RULES:
            raise ValueError(f"the record's house rules {item!r}: write key=value with a key of "
                             f"{', '.join(HOUSE_RULES)}")
        try:
            house[key] = float(value) if key == "ante" else value
        except ValueError:
            raise ValueError(f"the record's house rules: ante={value!r} is not a number (e.g. ante=0.4)") from None
    if rules is None:
        return KanaRules(players=trace.players, variant=str(variant), **house)  # type: ignore[arg-type]
    for key, want in house.items():
        if getattr(rules, key) != want:
            raise ValueError(f"rules.{key}={getattr(rules, key)!r} disagrees with the record's house rules "
                             f"({key}={want}); give rules that agree, or none")
    return rules_for(trace.players, variant, rules)


def _lineup(rules: KanaRules, policies) -> tuple[str | list[Policy], str]:
    """How the others play (``"table"``, ``"blind"`` or one policy a seat of the record) and in words."""
    if rules.variant == "official":
        words = "nobody: under the official rules every känä wins exactly 1/n"
    else:
        words = {"table": "the others at the equilibrium strategy table (policies table)",
                 "blind": "the others känäing without looking (policies blind)"}.get(str(policies), "")
    if isinstance(policies, str) and policies in ("table", "blind"):
        return policies, words
    if isinstance(policies, str) and "," in policies:
        policies = [s.strip() for s in policies.split(",")]
    lineup = resolve_policies(policies, rules, "policies")
    if any(p.kind == KIND_CUSTOM for p in lineup):
        raise ValueError("policies: a review weighs each känä by the cards känäd before it, which a custom "
                         "@njit policy cannot be conditioned on; give built-in policies (names such as blind, "
                         "threshold:8)")
    return lineup, words or "the others as " + ", ".join(p.name for p in lineup) + " (by seat)"


def _seat_knew(variant: str, rnd: _Round, seat: int) -> tuple[int, ...] | None:
    """What ``seat`` knew of its own three cards (-1 unseen), or None when the record lacks it."""
    deal = rnd.deals.get(seat)
    if variant == "peek-one":
        peek = rnd.peeks.get(seat)
        return (peek[0], -1, -1) if peek else None
    if deal is None:
        return None
    return deal if variant == "peek-all" else (-1, -1, -1)


def _cards_of(trace: Trace, i: int, action: str, variant: str) -> list[int]:
    """The cards of move ``i``, read and counted as its action takes them (a line a record
    cannot hold is a ``ValueError`` naming it)."""
    m = trace.moves[i]
    where = f"line {trace.line_of(i)}" if trace.line_of(i) else f"move {i + 1}"
    try:
        cards = parse_cards(list(m.cards), allow_duplicates=True) if m.cards else []  # twice: a violation
    except ValueError as e:
        raise ValueError(f"{where}: {e}") from None
    free = variant != "peek-one"
    counts, words = {"deal": ((3,), "three cards"), "känä": ((1,), "one card"), "win": ((0,), "no card"),
                     "peek": ((1, 2, 3) if free else (1,), "one to three cards" if free else "one card")}[action]
    if len(cards) not in counts:
        raise ValueError(f"{where}: '{m.seat}: {action}' takes {words}, got {len(cards)}")
    return cards


def _check(rnd: _Round, n: int, variant: str, seat: int, action: str, cards: list[int]) -> str | None:
    """What the rules forbid in this move, in words (None: nothing)."""
    r = rnd.number
    if len(rnd.kanad) == n and action != "win":
        return f"round {r} has every känä but no winner: a line 'SEAT: win' ends a round"
    if action == "deal":
        if seat in rnd.deals:
            return f"seat {seat} is dealt a second hand in round {r}"
        if rnd.has_kanad(seat):
            return f"seat {seat} is dealt after its känä in round {r}"
        if any(c not in cards for c in rnd.peeks.get(seat, [])):
            return f"seat {seat} peeked a card that is not in its deal in round {r}"
        return rnd.clash(seat, cards)
    if action == "peek":
        if variant == "official":
            return "under the official rules nobody may look at their cards (docs/rules/kana.md §2.1): no peek lines"
        if rnd.has_kanad(seat):
            return f"seat {seat} peeks after its känä in round {r}: a peek comes before the känä round"
        if variant == "peek-one" and seat in rnd.peeks:
            return f"seat {seat} peeks a second card in round {r}: in peek-one a player looks at one card"
        if seat in rnd.deals and any(c not in rnd.deals[seat] for c in cards):
            return f"seat {seat} peeks a card it was not dealt in round {r}"
        return rnd.clash(seat, cards)
    if action == "känä":
        if rnd.has_kanad(seat):
            return f"seat {seat} känäs twice in round {r}"
        if rnd.starter is not None:
            due = (rnd.starter + len(rnd.kanad)) % n
            if seat != due:
                return (f"seat {seat} känäs out of turn in round {r}: seat {due} is next (clockwise from the "
                        f"starter, seat {rnd.starter}, the previous round's winner)")
        if seat in rnd.deals and cards[0] not in rnd.deals[seat]:
            return f"seat {seat} känäs {card_str(cards[0])}, a card it was not dealt in round {r}"
        return rnd.clash(seat, cards)
    if rnd.starter is None:
        return f"round {r} ends before any seat känäd"
    if len(rnd.kanad) < n:
        return f"round {r} ends before every seat känäd: seat {(rnd.starter + len(rnd.kanad)) % n} has not"
    return _wrong_winner(rnd, seat)


def _kept(deal: tuple[int, ...], kanad: int) -> tuple[int, int, int]:
    """The two kept cards and their key (the sum, a Superkänä above all)."""
    a, b = (c for c in deal if c != kanad)
    return a, b, _pair_key(a >> 2, b >> 2)


def _wrong_winner(rnd: _Round, winner: int) -> str | None:
    """A seat whose kept hand the record shows beat the winner's (a tie is an extra round's)."""
    gone = dict(rnd.kanad)
    kept = {q: _kept(d, gone[q]) for q, d in rnd.deals.items()}
    if winner not in kept:
        return None
    better = [q for q in kept if kept[q][2] > kept[winner][2]]
    if not better:
        return None

    def hand(q: int) -> str:
        a, b, key = kept[q]
        return f"{card_str(a)} {card_str(b)} = " + ("Superkänä" if key > 28 else str(key))

    b = max(better, key=lambda q: kept[q][2])
    return (f"seat {winner} wins round {rnd.number}, but seat {b} kept the higher hand ({hand(b)} against "
            f"{hand(winner)})")


def _walk(trace: Trace, rules: KanaRules) -> tuple[list[_Kana], Violation | None]:
    """Every känä of the record as its seat knew it, up to the first move the rules forbid."""
    n, variant = rules.players, rules.variant
    kanas: list[_Kana] = []
    rnd = _Round(1, None)
    for i, m in enumerate(trace.moves):
        action = _ACTIONS.get(m.action.lower())
        line = trace.line_of(i)
        if action is None:
            where = f"line {line}" if line else f"move {i + 1}"
            raise ValueError(f"{where}: a Känä record's moves are deal, peek, känä and win (e.g. '2: känä 5h'), "
                             f"got {m.action!r}")
        cards = _cards_of(trace, i, action, variant)
        problem = _check(rnd, n, variant, m.seat, action, cards)
        if problem is not None:
            return kanas, Violation(line, i, m.seat, problem)
        if action == "deal":
            rnd.deals[m.seat] = tuple(cards)
        elif action == "peek":
            rnd.peeks.setdefault(m.seat, []).extend(cards)
        elif action == "känä":
            if rnd.starter is None:
                rnd.starter = m.seat
            deal = rnd.deals.get(m.seat)
            mine = _seat_knew(variant, rnd, m.seat)
            pos = None if mine is None else Position(mine, seat=len(rnd.kanad), kanad=[c for _, c in rnd.kanad])
            kanas.append(_Kana(i, line, m.seat, rnd.number, rnd.starter, pos, cards[0],
                               None if deal is None else deal.index(cards[0])))
            rnd.kanad.append((m.seat, cards[0]))
        else:
            rnd = _Round(rnd.number + 1, m.seat)
            continue
        rnd.own(m.seat, cards)
    return kanas, None


def _option_names(variant: str, mine: tuple[int, ...]) -> tuple[str, ...]:
    """The advisor's options (in its order) as the review names them."""
    if variant == "official":
        return tuple(f"{o} card" for o in _ORDINAL)
    if variant == "peek-one":
        return (f"{card_str(mine[0])} (peeked)", "an unseen card")
    return tuple(card_str(c) for c in mine)


def _taken(variant: str, k: _Kana) -> int:
    """The option the record's känä is (the official rules: where the card lay in the deal)."""
    assert k.position is not None
    mine = k.position.hand
    if variant == "official":
        return k.slot or 0
    if variant == "peek-one":
        return 0 if k.card == mine[0] else 1
    return mine.index(k.card)


def _rate(k: _Kana, rules: KanaRules, lineup, samples: int | None, budget, rng, threads) -> Decision:
    """Seat ``k.seat``'s känä rated: the advisor on the position it knew, the cost in antes."""
    pos = k.position
    assert pos is not None
    n, variant = rules.players, rules.variant
    names = _option_names(variant, pos.hand)
    t = _taken(variant, k)
    policies = lineup if isinstance(lineup, str) else [lineup[(k.starter + p) % n] for p in range(n)]
    exact = variant == "official"
    ask = dict(rules=rules, policies=policies, threads=threads)
    ranked = advise(pos, rng=child(rng, 0), samples=None if exact else samples, budget_seconds=budget.budget_seconds,
                    budget_rounds=budget.budget_rounds, **ask)
    wins = list(ranked.value)
    b = t if exact else ranked.best_index
    versus_best = [_versus(ranked, b, j).scaled(n) for j in range(len(wins))]
    cost = None if exact else unpriced(ranked, t)
    partial, priced = ranked.partial, None
    if cost is not None:
        versus_best[t] = cost  # the verdict's loss is in antes already
    elif not (exact or partial):
        # the option ranked first is priced against the känä made on fresh deals: measured on the
        # deals that chose it, its lead would carry their noise (every cost too high)
        def measure(size: int, s):
            again = advise(pos, rng=s, samples=size, **ask)
            return (_versus(again, b, t).scaled(n),), again.partial

        priced = price(measure, THRESHOLDS, budget=budget, rng=child(rng, 1), spread=ADVISE_SPREAD * n)
        versus_best[t] = priced.costs[0]
        partial = priced.partial
    before = format_cards(pos.kanad) or "none"
    known = (f"{_nth(pos.seat)} to känä of {n} (seat {k.starter} started); my cards {format_cards(pos.hand)}; "
             f"känäd before me: {before}")
    note = (f"official rules: nobody sees a card, every känä wins exactly 1/{n} (docs/rules/kana.md §4.1)" if exact else
            "P(win the round): " + ", ".join(f"{o} {w.format(3, percent=True)}" for o, w in zip(names, wins))
            + ("" if priced is None else f"; {names[t]} priced against {names[b]} on {priced.costs[0].n:,} fresh "
               "deals"))
    return decision(Place(k.seat, k.line, k.move, f"round {k.round} känä", known), options=names,
                    taken=names[t], best=names[b], values=[w.scaled(n, -1) for w in wins],
                    versus_best=versus_best, thresholds=THRESHOLDS, samples=ranked.samples, note=note,
                    partial=partial)


def _versus(advice: AdviceResult, i: int, j: int) -> Estimate:
    """Option ``i``'s P(win) minus option ``j``'s, paired (exactly 0 for an option against itself)."""
    return Estimate.exact_value(0.0) if i == j else advice.difference(i, j)


def _nth(place: int) -> str:
    return _ORDINAL[place] if place < 3 else f"{place + 1}th"


def positions(record, *, seat: int = 0, rules: KanaRules | None = None) -> list[tuple[Turn, Position]]:
    """Each känä of ``seat`` in ``record`` (a :class:`~cardodds.trace.Trace`, a path to one, or
    its text), in the record's order, as ``(turn, position)``: where it is
    (:class:`~cardodds.advice.Turn`: ``key`` the round, ``taken`` the option as
    :func:`~cardodds.kana.advise` names it) and what the seat knew then (:class:`Position`:
    its place in the känä order, its cards, the cards känäd before it). The rounds whose record
    holds what it knew (its ``peek`` in peek-one, its ``deal`` otherwise), up to the first move
    the rules forbid: what :func:`review` puts to the advisor.

    >>> text = ("# cardodds trace: kana\\nplayers: 3\\nvariant: peek-one\\n"
    ...         "0: deal 9h 2c Kd\\n0: peek 9h\\n2: känä 5s\\n0: känä 2c")
    >>> [(turn.what, turn.taken, position) for turn, position in positions(text, seat=0)]
    [('round 1 känä', '?', Position('9h ? ?', seat=1, kanad='5s'))]
    """
    trace = read_record(record, "kana")
    rules = _record_rules(trace, rules)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ValueError(f"seat={seat!r}: give a seat of the record, 0..{rules.players - 1}")
    kanas, _violation = _walk(trace, rules)
    out = []
    for k in kanas:
        if k.seat != seat or k.position is None:
            continue
        taken = _options(rules, list(k.position.hand))[_taken(rules.variant, k)][0]
        out.append((Turn(k.line, k.move, k.seat, f"round {k.round} känä", taken, k.round), k.position))
    return out


@takes_backend
def review(record, *, seat=0, policies=OPPONENTS, rules: KanaRules | None = None, samples: int | None = None,
           rng: RngLike = None, threads: int | None = None, budget_seconds: float | None = REVIEW_SECONDS,
           budget_rounds: int | None = None, progress: bool = False) -> ReviewResult:
    """Every känä of ``seat`` (a seat of the record, or ``"all"``: every seat whose cards it
    holds) in ``record`` (a :class:`~cardodds.trace.Trace`, a path to one, or its text), rated
    on what that seat knew against the options of :func:`~cardodds.kana.advise`, in antes.

    ``rules`` (keyword-only) must agree with the record's ``players:`` and ``variant:``;
    ``policies`` is how the others play, as for ``advise`` (``"table"``, ``"blind"``, or one
    policy for all or one a seat of the record, ``"threshold:8,blind,blind"``). The advisor plays
    the options in rounds until a verdict, then the känä made is priced against the best on fresh
    deals until its rating is clear (:func:`cardodds.review.price`), each within
    ``budget_seconds`` (``budget_rounds``: rounds instead, the same on any machine); ``samples``:
    one look at that many. Seeded from ``rng``, the round and the seat's place in it. The first
    move the rules forbid is the result's ``violation``: the känäs before it are rated.

    >>> from cardodds.kana import trace
    >>> r = review(trace("threshold:8", players=3, variant="peek-one", rounds=2, first=0, rng=2),
    ...            samples=20_000, rng=1)
    >>> [d.label for d in r.decisions]
    ['good', 'good']
    """
    check_run(samples=samples, threads=threads, rng=rng)
    trace = read_record(record, "kana", PLAYERS)
    rules = _record_rules(trace, rules)
    kanas, violation = _walk(trace, rules)
    knew = "peek" if rules.variant == "peek-one" else "deal"
    known = sorted({m.seat for m in trace.moves if m.action == knew})
    seats = review_seats(seat, rules.players, known)
    lineup, words = _lineup(rules, policies)
    budget = review_budget(samples, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, budget_seconds, budget_rounds)
    ss, seed = as_seed_sequence(rng)
    steps = [partial(_rate, k, rules, lineup, samples, budget, child(ss, k.round, k.position.seat), threads)
             for k in kanas if k.seat in seats and k.position is not None]
    decisions, cut = rate_in_order(steps, progress)
    return ReviewResult(game="kana", seats=seats, decisions=decisions, thresholds=THRESHOLDS, policies=words,
                        record=trace, violation=violation, title="Känä review", rules=rules,
                        samples=0 if rules.variant == "official" or samples is None else int(samples), seed=seed,
                        partial=cut, budget=None if samples is not None or rules.variant == "official" else budget)

