"""Polish Canasta's review: every decision of one seat in a played hand, rated against the
advisor's options (:mod:`cardodds.review`; docs/canasta-play.md, "Reviewing a game").

The record is what :func:`cardodds.canasta.play.trace` prints (its words:
:mod:`cardodds.canasta._record`), or the same typed by hand: the header (``dealer``, ``upcard``,
``score`` when the hand is one of a game), the ``deal`` of the seat reviewed (the others' too
when known), then every move. The hand is replayed on the engine's own table, each move checked
against the legal moves there (the first move the rules forbid ends the review, the decisions
before it rated). At each decision of the seat (take the pile or leave it, each new meld or
hold, go out or stay in, the discard) :func:`cardodds.canasta.advise` plays every option out on
the position exactly as the seat knew it: its hand, the melds, the red 3s, the pile card by card
(every discard is public), the other hands' sizes and the cards known there (taken with the pile
and not played since), the discards each seat made, the table turn and the game score; never a
card it could not see. A decision with one legal option is ``forced`` (no run).

The cost of the move made is the paired margin lost against the option ranked first, in points
(our side's hand score minus theirs); with the game score known, the options are ranked by
the game equity after the hand (P(we win the game)) as the advisor ranks them and rated by it
(points beside). Ratings by :data:`THRESHOLDS`.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from .._validate import check_run
from ..advice import Turn
from ..engine import takes_backend
from ..review import (Decision, Place, ReviewResult, Thresholds, decision, forced, price, rate_in_order,
                      read_record, review_budget, review_seats, unpriced)
from ..stats import Estimate
from ..rng import as_seed_sequence, child
from ._defaults import (ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, DEFAULT_ADVICE_POLICIES,
                        REVIEW_SECONDS)
from ._policies import smart_arg
from ._position import game_score
from ._record import option_words
from ._review import Point, known_seats, position_words, walk
from .position import Position
from .policies import HeuristicParams, resolve_policies
from .rules import CanastaRules, check_rules

__all__ = ["THRESHOLDS", "positions", "review"]

#: Where a loss becomes a mistake and a blunder: in points of our side's margin this hand, and in
#: P(we win the game) where the score is known (docs/canasta-play.md says why these); within the
#: advice's margin it is good.
THRESHOLDS = Thresholds(mistake=100.0, blunder=300.0, unit="points", win_mistake=0.05, win_blunder=0.15,
                        good=ADVISE_MARGIN[0], win_good=ADVISE_MARGIN[1])
#: The numbers of players a record may name, and that in words (a record naming another is refused).
PLAYERS = ((4,), "Polish Canasta is played by 4")


def _players(names) -> str:
    """Who plays the options out, as the advisor's header names them."""
    if len(set(names)) == 1:
        return f"{names[0]} at every seat (the reviewed seat's too)"
    return ", ".join(f"{p} (seat {s} from the reviewed one)" for s, p in enumerate(names))


def _score(score, trace, rules) -> list[int] | None:
    """The game score before the hand (side 0, side 1): ``score=``, else the record's ``score:`` line."""
    if score is not None:
        return game_score(score, rules, "side 0 (seats 0+2) and side 1")
    line = trace.info.get("score")
    if line is None:
        return None
    try:
        return game_score(line, rules, "side 0 (seats 0+2) and side 1")
    except ValueError as e:
        raise ValueError(f"the record's 'score:' line: {e}") from None


def _read(record, rules, score):
    """The record, the rules it was played by, the game score before the hand by side."""
    trace = read_record(record, "canasta", PLAYERS)
    if rules is None and isinstance(trace.rules, CanastaRules):
        rules = trace.rules
    rules = check_rules(rules)
    return trace, rules, _score(score, trace, rules)


def positions(record, *, seat: int = 0, rules: CanastaRules | None = None,
              score=None) -> list[tuple[Turn, Position]]:
    """Each decision of ``seat`` (0..3) in one played hand (``record``: a
    :class:`~cardodds.trace.Trace`, a path to one, or its text), in the record's order, as
    ``(turn, position)``: where it is (:class:`~cardodds.advice.Turn`: ``what`` take, meld, out or
    discard; ``taken`` the option as :func:`~cardodds.canasta.advise` names it; ``key`` the table
    turn) and what the seat knew then (:class:`Position`, the seat as the advisor's seat 0, the
    discards each player threw included), up to the first move the rules forbid: what
    :func:`review` puts to the advisor. ``score`` and ``rules`` as for :func:`review`.

    >>> from cardodds.canasta import trace
    >>> turn, position = positions(trace("heuristic2", rng=5))[0]
    >>> turn.what, position.decision, turn.taken in position.labels
    ('take', 'take', True)
    """
    trace, rules, game = _read(record, rules, score)
    if isinstance(seat, bool) or seat not in range(4):
        raise ValueError(f"seat={seat!r}: give a seat of the record, 0..3")
    if seat not in known_seats(trace):
        raise ValueError(f"seat {seat}: the record does not hold its cards (a 'deal' line and every card it drew)")
    done = walk(trace, rules, (seat,), game, True)
    return [(Turn(trace.line_of(p.move), p.move, p.seat, p.what, p.position.labels[p.option], p.key[0]), p.position)
            for p in done.points]


@takes_backend
def review(record, *, seat=0, policies=DEFAULT_ADVICE_POLICIES, rules: CanastaRules | None = None,
           samples: int | None = None, rng=None, threads: int | None = None, score=None,
           params: HeuristicParams | None = None, budget_seconds: float | None = REVIEW_SECONDS,
           budget_rounds: int | None = None, progress: bool = False) -> ReviewResult:
    """Rate every decision of ``seat`` (0..3, or ``"all"``: every seat whose cards the record
    holds) in one played hand (``record``: a :class:`~cardodds.trace.Trace`, a path to one, or
    its text) against the advisor's options, played out by ``policies`` (default heuristic2):
    :func:`~cardodds.canasta.advise` plays them in rounds until a verdict, then the move made is
    priced against the best on fresh deals until its rating is clear
    (:func:`cardodds.review.price`), each stopping when a round would end after
    ``budget_seconds`` (``budget_rounds``: after that many rounds instead, the same on any
    machine); with ``samples``, each on that many deals, one look. Seeded from ``rng`` and the
    decision's place in the hand (its table turn, the seat's move in it). ``score``: the game
    score before the hand (side 0, side 1), else the record's ``score:`` line: the options are
    then ranked by P(we win the game). ``rules``: the rules the hand was played by (default: the
    record's, else the defaults).

    >>> from cardodds.canasta import trace
    >>> r = review(trace("heuristic2", rng=5), samples=50, rng=1)
    >>> r.seats, r.decisions[0].what
    ((0,), 'take')
    """
    check_run(samples=samples, threads=threads, rng=rng)
    codes, names, _user, _hp = resolve_policies(policies, params)
    budget = review_budget(samples, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, budget_seconds, budget_rounds)
    trace, rules, game = _read(record, rules, score)
    seats = review_seats(seat, 4, known_seats(trace))
    done = walk(trace, rules, seats, game, smart_arg(codes) is not None)  # heuristic2 remembers the discards
    ss, seed = as_seed_sequence(rng)
    run = dict(policies=policies, params=params, threads=threads)
    steps = [_step(p, trace, ss, run, samples, budget) for p in done.points]
    decisions, partial = rate_in_order(steps, progress)
    return ReviewResult(game="canasta", seats=seats, decisions=decisions, thresholds=THRESHOLDS,
                        policies=_players(names), record=trace, violation=done.violation, title="Canasta review",
                        rules=rules, samples=0 if samples is None else int(samples), seed=seed, partial=partial,
                        budget=None if samples is not None else budget)


def _against(a, figure: str, best: str, taken: str, n: int) -> Estimate:
    """``best`` minus ``taken`` in ``figure`` (an advice's paired differences; a figure the
    advice does not rank by was the same on its ``n`` deals: 0 on each)."""
    if figure not in a.pairs:
        return Estimate.mean(0.0, 0.0, n)
    return a.difference(a.options.index(best), a.options.index(taken), figure)


def _step(p: Point, trace, ss, run: dict, samples: int | None, budget) -> Callable[[], Decision]:
    """The decision at point ``p``: its options (forced when one), the advice, the rating."""
    from .advise import SPREADS, advise

    def rate() -> Decision:
        line = trace.line_of(p.move)
        pos = p.position
        known = position_words(pos)
        base = pos._packed.base
        opts, labels = pos._opts
        i = p.option
        words = tuple(option_words(base, o, p.what) for o in opts)
        if len(labels) == 1:
            return forced(Place(p.seat, line, p.move, p.what, known), taken=words[i])
        a = advise(pos, rng=child(ss, *p.key), samples=samples, budget_seconds=budget.budget_seconds,
                   budget_rounds=budget.budget_rounds, **run)
        if tuple(a.options) != tuple(labels):
            raise AssertionError(f"line {line}: the advisor's options {a.options} are not {labels}")
        best = a.best_index
        by_win = a.ranked_by == "equity"
        points = [a.difference(best, j, "margin") for j in range(len(labels))]
        wins = list(a.versus_best) if by_win else None
        partial, note = a.partial, a.verdict
        cost = unpriced(a, i)
        if cost is not None:
            (wins if wins is not None else points)[i] = cost
        elif not partial:
            # the best of many options leads the others by more than its due on the deals that chose
            # it: the move made is priced against it again, on fresh deals
            figures = ("equity", "margin") if by_win else ("margin",)

            def measure(size: int, s):
                again = advise(replace(pos, options=(labels[i], labels[best])), samples=size, rng=s, **run)
                return tuple(_against(again, f, labels[best], labels[i], size) for f in figures), again.partial

            priced = price(measure, THRESHOLDS, by_win=by_win, budget=budget, rng=child(ss, *p.key, 1),
                           spread=SPREADS[a.ranked_by])
            if wins is not None:
                wins[i], points[i] = priced.costs
            else:
                points[i] = priced.costs[0]
            partial = priced.partial
            note += f"; the move made against {words[best]} on {priced.costs[0].n:,} fresh deals"
        if wins is not None and (wins[i].value == 0 and wins[i].se == 0):
            wins = None  # the same equity on every deal: points decide
        return decision(Place(p.seat, line, p.move, p.what, known), options=words,
                        taken=words[i], best=words[best], values=a.figures["margin"], versus_best=points,
                        thresholds=THRESHOLDS, win=a.figures.get("equity"), win_versus_best=wins, samples=a.samples,
                        note=note, partial=partial)

    return rate
