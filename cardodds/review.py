"""Reviews of a played deal (round, hand, evening): each decision of a seat rated against the
advisor's options, every game's.

A game's ``review`` reads a record (a :class:`~cardodds.trace.Trace`: what its ``trace``
prints, or a person typed in the same form), rebuilds each decision of the seat as the seat
knew it then, asks the game's advisor for every option on that position, and makes a
:class:`Decision` with :func:`decision`. This module rates it (:func:`rate`), runs the
decisions in order (:func:`rate_in_order`: progress, Ctrl-C keeps those rated) and holds the
answer (:class:`ReviewResult`: a titled table, JSON, a frame, a web page).

A decision's **cost** is the paired difference between the option ranked first (by the
game's advisor, :mod:`cardodds.verdict`) and the option taken, priced on fresh worlds by
:func:`price`: in rounds until its interval lies within one band of :data:`LABELS` cut by the
game's :class:`Thresholds` (``good`` up to the advice's margin, then ``inaccuracy``,
``mistake``, ``blunder``), or the budget ends; a label whose interval still straddles a cut is
``about``, and the mildest the interval allows.

>>> t = Thresholds(mistake=0.5, blunder=1.5, unit="points a deal", good=0.1)
>>> rate(Estimate(0.9, 0.1, 0.7, 1.1, 100), 3, t), rate(Estimate(0.9, 0.6, -0.3, 2.1, 100), 3, t)
(('mistake', False), ('good', True))
"""

from __future__ import annotations

import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Container, Iterable, NamedTuple, Sequence

from .results import Result
from .rng import RngLike, as_seed_sequence, child
from .stats import Z95, Estimate
from .trace import Trace, _read
from .verdict import DEFAULT_ALPHA, Budget, critical_value, paired_mean

__all__ = ["LABELS", "Decision", "Place", "Priced", "ReviewResult", "Thresholds", "Violation", "decision", "forced",
           "price", "rate", "rate_in_order", "read_record", "review_budget", "review_seats", "unpriced"]

#: The ratings, from no choice at all to the costliest: ``forced`` (one legal option),
#: ``good`` (the best, or within the advice's margin of it), then a loss by its size.
LABELS = ("forced", "good", "inaccuracy", "mistake", "blunder")
#: Where a review's progress bar appears: a review that takes longer shows it.
PROGRESS_AFTER = 2.0
_EXACT_ZERO = Estimate.exact_value(0.0)


@dataclass(frozen=True)
class Thresholds:
    """The cuts between the ratings of a loss, in ``unit`` (points): up to ``good`` (the advice's
    margin: equal for the player) ``good``, then ``inaccuracy`` up to ``mistake``, ``mistake``
    up to ``blunder``, ``blunder`` beyond; ``win_*`` the same in P(win the game), for a
    decision ranked by it."""

    mistake: float
    blunder: float
    unit: str
    win_mistake: float = 0.05
    win_blunder: float = 0.15
    good: float = 0.0
    win_good: float = 0.0

    def cuts(self, win: bool = False) -> tuple[float, float, float]:
        """The cuts between good, inaccuracy, mistake and blunder (``win``: in P(win the game))."""
        return (self.win_good, self.win_mistake, self.win_blunder) if win else (self.good, self.mistake,
                                                                                 self.blunder)

    def words(self, win: bool = False) -> str:
        """The thresholds in one line (``win``: those of P(win the game) too)."""
        text = (f"good <= {self.good:g} < inaccuracy < {self.mistake:g} <= mistake < {self.blunder:g} <= blunder, "
                f"{self.unit} lost; 'about': the interval still crosses a cut when the budget ended (the mildest "
                "label it allows)")
        if win:
            text += (f"; by P(win the game): good <= {100 * self.win_good:g}% < inaccuracy < "
                     f"{100 * self.win_mistake:g}% <= mistake < {100 * self.win_blunder:g}% <= blunder")
        return text


def _band(x: float, cuts: Sequence[float]) -> int:
    """0 good, 1 inaccuracy, 2 mistake, 3 blunder: the cuts ``x`` lies above (a cut itself is
    the band below it for good, the band above for the others)."""
    return int(x > cuts[0]) + sum(x >= c for c in cuts[1:])


def rate(cost: Estimate, options: int, thresholds: Thresholds, by_win: bool = False) -> tuple[str, bool]:
    """The rating of a decision among ``options`` whose cost against the best is ``cost``, and
    whether it is ``about``: the cost's interval crosses a cut, and the label is the mildest the
    interval allows (a loss no larger than shown: noise never reads as a mistake)."""
    if options < 2:
        return "forced", False
    cuts = thresholds.cuts(by_win)
    label = LABELS[1 + _band(cost.lo, cuts)]
    return label, not (cost.exact or _band(cost.lo, cuts) == _band(cost.hi, cuts))


def unpriced(advice, taken: int) -> Estimate | None:
    """The cost of option ``taken`` when the advice (an :class:`~cardodds.advice.AdviceResult`)
    already tells it: 0 for the option ranked first (or one the same as it by the rules); while
    the best is undecided, 0 with the verdict's interval of the loss against the best of the
    options left (up to ``hi``). None: it is priced (:func:`price`)."""
    if taken != advice.best_index and not advice.same_as_best(taken):
        return None
    d = advice.decision
    if d is None or d.kind != "undecided":
        return _EXACT_ZERO
    lo, hi = d.loss[taken]
    return Estimate(0.0, (hi - lo) / (2 * Z95), lo, hi, d.worlds[taken])


def review_budget(samples: int | None, round_worlds: int, rounds: int, budget_seconds: float | None,
                  budget_rounds: int | None) -> Budget:
    """A review's :class:`~cardodds.verdict.Budget` for each decision's advice and pricing:
    ``samples`` given, one look at that many worlds; else the game's rounds within
    ``budget_seconds`` (or ``budget_rounds``)."""
    if samples is not None:
        return Budget(int(samples), 1)
    return Budget(round_worlds, rounds, budget_seconds=budget_seconds, budget_rounds=budget_rounds)


class Priced(NamedTuple):
    """The move made priced against the best (:func:`price`): per figure the best's value minus
    its (``costs``, the rated figure first, its interval simultaneous over the planned rounds),
    the rounds played, whether the budget ended them before the rating was clear, and whether
    Ctrl-C did."""

    costs: tuple[Estimate, ...]
    rounds: int
    budget_limited: bool
    partial: bool


def _sums(e: Estimate) -> tuple[int, float, float]:
    """The worlds, the sum and the sum of squares behind a mean's :class:`Estimate` (as
    :meth:`Estimate.mean` made it)."""
    n = int(e.n)
    return n, e.value * n, (n - 1) * e.se * e.se * n + n * e.value * e.value


def price(measure: Callable[[int, Any], tuple[Sequence[Estimate], bool]], thresholds: Thresholds, *,
          by_win: bool = False, budget: Budget, rng: RngLike = None, spread: float | None = None,
          alpha: float = DEFAULT_ALPHA) -> Priced:
    """Price the move made against the best on fresh worlds, in rounds (``budget``'s plan and
    stops, as :func:`cardodds.verdict.decide`'s) until the cost's interval lies within one band
    of ``thresholds`` (``by_win``: P(win the game)'s), or the budget ends.

    ``measure(n, seed)`` plays both on ``n`` fresh worlds seeded by ``seed`` (round ``r``:
    ``child(rng, r)``) and returns the best-minus-taken paired differences per figure (the rated
    figure first, each a mean's :class:`Estimate`) and whether it was interrupted. The rated
    interval is a Student t with a share ``alpha / rounds planned`` (two-sided) and ``spread``'s
    floor, as the verdict's: it holds at every look. Ctrl-C before a round ends:
    ``KeyboardInterrupt`` if none ended, else ``partial``.
    """
    from . import engine

    ss, _ = as_seed_sequence(rng)
    sizes = budget.sizes()
    budget_rounds = budget.budget_rounds
    budget_seconds = None if budget_rounds is not None else budget.budget_seconds
    cuts = thresholds.cuts(by_win)
    tally: list[list[float]] = []
    costs: tuple[Estimate, ...] = ()
    done, partial, limited, settled = 0, False, False, False
    t0, pace = budget.clock(), None
    for r, size in enumerate(sizes):
        if settled:
            break
        if engine.interrupted():
            partial = True
            break
        if budget_rounds is not None and r >= budget_rounds or budget_seconds is not None and pace is not None \
                and budget.clock() - t0 + pace * size > budget_seconds:
            limited = True
            break
        started = budget.clock()
        try:
            got, cut = measure(size, child(ss, r))
        except KeyboardInterrupt:
            partial = True
            break
        pace = (budget.clock() - started) / max(size, 1)
        if not tally:
            tally = [[0, 0.0, 0.0] for _ in got]
        for acc, e in zip(tally, got):
            for q, v in enumerate(_sums(e)):
                acc[q] += v
        done = r + 1
        n, sd, sdd = tally[0]
        m, var, df = paired_mean(int(n), sd, sdd, spread)
        h = critical_value(df, alpha, len(sizes), 2) * math.sqrt(var) if df >= 1 else math.inf
        costs = (Estimate(m, math.sqrt(var), m - h, m + h, int(n)),
                 *(Estimate.mean(sd_, sdd_, int(n_)) for n_, sd_, sdd_ in tally[1:]))
        settled = _band(m - h, cuts) == _band(m + h, cuts)
        if cut:
            partial = True
            break
    if done == 0 and partial:
        raise KeyboardInterrupt
    return Priced(costs, done, limited or (done == len(sizes) and not settled), partial)


@dataclass(frozen=True)
class Violation:
    """A move the rules forbid, at its line of the record (``line`` 0: a record read from JSON,
    ``move`` then places it): the review stops before it."""

    line: int
    move: int
    seat: int
    message: str

    def where(self) -> str:
        return f"line {self.line}" if self.line else f"move {self.move + 1}"

    def to_dict(self) -> dict:
        return {"line": self.line, "move": self.move, "seat": self.seat, "message": self.message}


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: the position as it knew it (``known``, in words), the options,
    the one taken and the one ranked first, each option's value and paired difference to the
    best (``versus_best``, best minus option, in the review's unit), the same in P(win the
    game) where that is at stake (``win``, ``win_versus_best``), and its rating."""

    seat: int
    line: int
    move: int
    what: str
    known: str
    options: tuple[str, ...]
    taken: str
    best: str
    values: tuple[Estimate, ...]
    versus_best: tuple[Estimate, ...]
    label: str
    win: tuple[Estimate, ...] | None = None
    win_versus_best: tuple[Estimate, ...] | None = None
    samples: int = 0
    note: str = ""
    partial: bool = False  # its advice was interrupted: dropped from the review
    about: bool = False  # the budget ended with the cost's interval across a cut: the label is about right

    @property
    def rating(self) -> str:
        """The label as printed: ``"about mistake"`` when the budget ended before it was clear."""
        return f"about {self.label}" if self.about else self.label

    @property
    def taken_index(self) -> int:
        return self.options.index(self.taken)

    @property
    def cost(self) -> Estimate:
        """The option taken against the best, in the review's unit (0 for the best)."""
        return self.versus_best[self.taken_index] if self.versus_best else _EXACT_ZERO

    @property
    def win_cost(self) -> Estimate | None:
        """The option taken against the best in P(win the game), where the game is at stake."""
        return None if self.win_versus_best is None else self.win_versus_best[self.taken_index]

    @property
    def rated_cost(self) -> Estimate:
        """The cost the rating reads: in P(win the game) where the decision is ranked by it."""
        return self.cost if self.win_cost is None else self.win_cost

    def where(self) -> str:
        return f"line {self.line}" if self.line else f"move {self.move + 1}"

    def to_dict(self) -> dict:
        wins = self.win or (None,) * len(self.options)
        wvs = self.win_versus_best or (None,) * len(self.options)
        return {"seat": self.seat, "line": self.line, "move": self.move, "decision": self.what, "known": self.known,
                "taken": self.taken, "best": self.best, "label": self.label, "about": self.about,
                "cost": self.cost.to_dict(),
                "win_cost": None if self.win_cost is None else self.win_cost.to_dict(), "samples": self.samples,
                "note": self.note,
                "options": [{"option": o, "value": v.to_dict(), "versus_best": d.to_dict(),
                             "win": None if w is None else w.to_dict(),
                             "win_versus_best": None if x is None else x.to_dict()}
                            for o, v, d, w, x in zip(self.options, self.values, self.versus_best, wins, wvs)]}


class Place(NamedTuple):
    """Where a seat decided, as a review shows it: the ``seat``, the record's ``line`` and ``move``,
    the decision in words (``what``) and what the seat knew (``known``)."""

    seat: int
    line: int
    move: int
    what: str
    known: str


def decision(place: Place, *, options: Sequence[str], taken: str, best: str, values: Sequence[Estimate],
             versus_best: Sequence[Estimate], thresholds: Thresholds, win: Sequence[Estimate] | None = None,
             win_versus_best: Sequence[Estimate] | None = None, samples: int = 0, note: str = "",
             partial: bool = False) -> Decision:
    """A rated decision at ``place`` (the rating read from the cost of ``taken``, ``about`` when
    its interval crosses a cut; by P(win) when given); ``partial``: its advice was interrupted
    (the review then stops before it)."""
    options = tuple(options)
    if taken not in options or best not in options:
        raise ValueError(f"{place.what} at line {place.line}: {taken!r} or {best!r} is not among the options "
                         f"{options}")
    i = options.index(taken)
    by_win = win_versus_best is not None
    cost = tuple(win_versus_best)[i] if by_win else tuple(versus_best)[i]  # type: ignore[arg-type]
    label, about = rate(cost, len(options), thresholds, by_win)
    return Decision(*place, options, taken, best, tuple(values), tuple(versus_best), label,
                    None if win is None else tuple(win), None if win_versus_best is None else tuple(win_versus_best),
                    samples, note, partial, about)


def forced(place: Place, *, taken: str, note: str = "") -> Decision:
    """A decision with one legal option at ``place``: nothing to rate, no cost."""
    return Decision(*place, (taken,), taken, taken, (), (), "forced", note=note)


def _sum(costs: Iterable[Estimate]) -> Estimate:
    """The sum of independent estimates: the values add, and so do their variances."""
    costs = list(costs)
    if all(c.exact for c in costs):
        return Estimate.exact_value(sum(c.value for c in costs))
    value = sum(c.value for c in costs)
    se = math.sqrt(sum(c.se ** 2 for c in costs))
    return Estimate(value, se, value - Z95 * se, value + Z95 * se, sum(c.n for c in costs))


# ---- reading a record, choosing seats, running the decisions ------------------------------------
def read_record(record, game: str, players: tuple[Container[int], str] | None = None) -> Trace:
    """``record`` as a :class:`Trace` of ``game``: a trace, a path to one (text or JSON), or its text.
    ``players``: the numbers of players the game is played by and that in words (the error of
    a record of another number names its line)."""
    source = "the record"
    if isinstance(record, Trace):
        trace = record
    elif isinstance(record, (str, Path)):
        text = str(record)
        if isinstance(record, str) and ("\n" in text or text.lstrip().startswith("# cardodds trace")):
            trace = Trace.parse(text)
        else:
            path, source = Path(record), f"record {text!r}"
            if path.is_dir():
                raise ValueError(f"record {text!r} is a folder; give the path of a record file (what 'cardodds "
                                 f"{game} trace > FILE' writes, or the same typed by hand)")
            if not path.is_file():
                raise ValueError(f"record {text!r}: no such file; give the path of a record (what 'cardodds "
                                 f"{game} trace' prints, or the same typed by hand)")
            try:
                trace = _read(path, game)
            except UnicodeDecodeError:
                raise ValueError(f"record {text!r} is not text: give a record as cardodds trace prints it") from None
    else:
        raise ValueError(f"record={record!r}: give a Trace, a record's path or its text")
    if trace.game != game:
        raise ValueError(f"the record is of {trace.game}, not {game}: review it with cardodds {trace.game} review")
    if players is not None and trace.players not in players[0]:
        where = trace.where("players", trace.players)
        raise ValueError(f"{source}, {where}: {players[1]}; correct that {where.split()[0]}")
    return trace


def review_seats(seat, players: int, known: Sequence[int]) -> tuple[int, ...]:
    """The seats to review: ``seat`` (a number) or ``"all"`` (every seat in ``known``, whose
    cards the record holds)."""
    if isinstance(seat, str) and seat.strip().lower() == "all":
        if not known:
            raise ValueError("seat='all' reviews the seats whose cards the record holds, and it holds none")
        return tuple(known)
    if isinstance(seat, bool) or not isinstance(seat, (int, str)) or not str(seat).strip().isdigit() \
            or int(seat) >= players:
        raise ValueError(f"seat={seat!r}: give a seat 0 to {players - 1} or 'all'")
    if int(seat) not in known:
        raise ValueError(f"seat {int(seat)}: the record does not hold its cards (it holds seat "
                         f"{', '.join(map(str, known)) or 'none'}); give their deal line or another seat")
    return (int(seat),)


def rate_in_order(steps: Sequence[Callable[[], Decision]], progress: bool = False) -> tuple[tuple[Decision, ...], bool]:
    """Run each decision's advice in order; returns the decisions rated and whether the review
    is partial (Ctrl-C: the decision under way is dropped, those rated are kept; a step
    returns its decision, or raises ``KeyboardInterrupt``). A progress
    bar over the decisions appears on stderr when the review runs longer than
    :data:`PROGRESS_AFTER` seconds (``progress=True``)."""
    from .engine import InOrder, interrupted

    inorder = InOrder()
    done: list[Decision] = []
    bar = None
    if progress and steps:
        from ._interactive import progress_bar

        bar = progress_bar(len(steps), "decision", unit_scale=False, delay=PROGRESS_AFTER)  # a notebook's in a notebook
    try:
        for step in steps:
            got = inorder.step(step)
            if got is None or got.partial or interrupted():
                inorder.partial = True
                break
            done.append(got)
            if bar is not None:
                bar.update(1)
    except KeyboardInterrupt:  # before any decision was rated: an empty review, partial
        inorder.partial = True
    finally:
        if bar is not None:
            bar.close()
    return tuple(done), inorder.partial


# ---- the result ---------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False, kw_only=True)
class ReviewResult(Result):
    """Every decision of the seats reviewed, rated (see :mod:`cardodds.review`).

    Each decision's options are ranked by the game's advisor, then the move made is priced
    against the best on fresh worlds (priced on the worlds that chose the best, its lead would
    carry their noise). ``budget``: both run in rounds until a verdict and a clear rating
    (:func:`price`), within its seconds (or rounds) each; None: ``samples`` worlds each, one
    look. ``seed`` gives the same figures again (each decision's runs are seeded from it and the
    decision's place in the record; with a time budget, ``budget_rounds`` repeats a cut run).
    """

    game: str
    seats: tuple[int, ...]
    decisions: tuple[Decision, ...]
    thresholds: Thresholds
    policies: str
    record: Trace = field(compare=False)
    violation: Violation | None = None
    title: str = ""
    budget: Budget | None = None

    def of(self, seat: int | None = None) -> tuple[Decision, ...]:
        return tuple(d for d in self.decisions if seat is None or d.seat == seat)

    def lost(self, seat: int | None = None) -> Estimate:
        """Expected points lost over the record (the costs of the rated decisions added, in the
        review's unit), with its interval: each decision's run is independent."""
        return _sum(d.cost for d in self.of(seat) if d.label != "forced")

    def ratings(self, seat: int | None = None) -> dict[str, int]:
        """How many decisions got each rating."""
        return {label: sum(d.label == label for d in self.of(seat)) for label in LABELS}

    def costliest(self, seat: int | None = None, k: int = 5) -> tuple[Decision, ...]:
        """The decisions rated below ``good``, the costliest first (by the figure they are rated by)."""
        bad = [d for d in self.of(seat) if d.label in LABELS[2:]]
        return tuple(sorted(bad, key=lambda d: (-LABELS.index(d.label), -d.rated_cost.value))[:k])

    def to_frame(self):
        """One row a decision: where, who, what was taken and what was best, the cost with its
        interval (and in P(win) where at stake), the rating, the options and the position."""
        import pandas as pd

        rows = []
        for n, d in enumerate(self.decisions, 1):
            w = d.win_cost
            rows.append({"decision": n, "line": d.line, "seat": d.seat, "what": d.what, "taken": d.taken,
                         "best": d.best, "cost": d.cost.value, "cost_lo": d.cost.lo, "cost_hi": d.cost.hi,
                         "win_cost": math.nan if w is None else w.value, "label": d.label, "about": d.about,
                         "options": " | ".join(d.options), "known": d.known})
        return pd.DataFrame(rows, columns=["decision", "line", "seat", "what", "taken", "best", "cost", "cost_lo",
                                           "cost_hi", "win_cost", "label", "about", "options", "known"])

    def to_dict(self) -> dict[str, Any]:
        d = self.meta()
        b = self.budget
        d.update({"game": self.game, "question": "review", "seats": list(self.seats), "policies": self.policies,
                  "budget": None if b is None else {"seconds": b.budget_seconds, "rounds": b.budget_rounds},
                  "unit": self.thresholds.unit,
                  "thresholds": {"mistake": self.thresholds.mistake, "blunder": self.thresholds.blunder,
                                 "win_mistake": self.thresholds.win_mistake,
                                 "win_blunder": self.thresholds.win_blunder},
                  "violation": None if self.violation is None else self.violation.to_dict(),
                  "summary": {str(s): {"lost": self.lost(s).to_dict(), "ratings": self.ratings(s),
                                       "costliest": [self.decisions.index(c) + 1 for c in self.costliest(s)]}
                              for s in self.seats},
                  "decisions": [x.to_dict() for x in self.decisions]})
        return d

    def heading(self) -> str:
        seats = ", ".join(map(str, self.seats))
        rated = sum(d.label != "forced" for d in self.decisions)
        return (f"{self.title or self.game.capitalize() + ' review'}, seat{'s' * (len(self.seats) > 1)} {seats}: "
                f"{len(self.decisions)} decision{'s' * (len(self.decisions) != 1)} ({rated} rated), seed {self.seed}")

    def lines(self) -> list[str]:
        """The table and the summary, as the command prints them (at most 100 columns)."""
        from ._cliutil import table

        unit = self.thresholds.unit
        wins = any(d.win_cost is not None for d in self.decisions)
        rows = []
        for n, d in enumerate(self.decisions, 1):
            cost = "only move" if d.label == "forced" else ("the best" if d.taken == d.best else d.cost.format(2))
            row = [n, d.where().split()[-1], d.seat, d.what, _short(d.taken), _short(d.best), cost]
            if wins:
                row.append("" if d.win_cost is None else d.win_cost.format(1, percent=True))
            rows.append(row + [d.rating])
        head = ["#", "line" if any(d.line for d in self.decisions) else "move", "seat", "decision", "taken", "best",
                f"cost, {unit}"] + (["P(win) lost"] if wins else []) + ["rating"]
        b = self.budget
        limit = ("" if b is None else f"at most {b.budget_rounds} rounds each" if b.budget_rounds is not None
                 else f"about {b.budget_seconds:g} s each" if b.budget_seconds is not None else "")
        runs = ("exact (no deals sampled)" if not self.samples and b is None else
                f"the options ranked on {self.samples:,} sampled deals, the move made priced on as many fresh ones"
                if b is None else "the options played in rounds until a verdict, the move made priced against the "
                f"best on fresh deals until its rating is clear ({limit})")
        out = [f"  played out by {self.policies}"] + _wrap(f"each decision: {runs}") + table(head, rows)
        for s in self.seats:
            r = self.ratings(s)
            out.append(f"  seat {s}: lost {self.lost(s).format(2)} {unit}; "
                       + ", ".join(f"{r[k]} {k}" for k in LABELS if r[k]))
            for c in self.costliest(s):
                out += _wrap(f"{c.where()}, {c.what} {_short(c.taken)}: {c.rating}, the best was {_short(c.best)}, "
                             f"{_loss_words(c, unit)}", 4)
        if self.violation is not None:
            v = self.violation
            out += _wrap(f"rules violation at {v.where()}: {v.message}; the decisions after it are not reviewed")
        return out + _wrap(f"ratings: {self.thresholds.words(wins)}")

    def __repr__(self) -> str:
        from ._cliutil import block

        return block(self.heading(), self, self.lines())

    def html(self) -> str:
        """One self-contained page: the summary, a chart of the cost of each decision, every
        decision with its options, and the record."""
        return page(self)

    def write_html(self, path: str | Path) -> Path:
        path = Path(path)
        try:
            path.write_text(self.html(), encoding="utf-8")
        except OSError as e:
            raise ValueError(f"cannot write the page to {str(path)!r}: {e.strerror or e}; "
                             "give a path in a folder you can write") from None
        return path


def _wrap(text: str, indent: int = 2) -> list[str]:
    """``text`` in lines of at most 100 columns, indented (the next lines by two more)."""
    import textwrap

    return textwrap.wrap(text, 100, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2))


def _short(text: str, limit: int = 18) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _loss_words(d: Decision, unit: str) -> str:
    words = f"loses {d.cost.format(2)} {unit}"
    if d.win_cost is not None:
        words += f", P(win the game) {d.win_cost.format(1, percent=True)} lower"
    return words


# ---- the page -----------------------------------------------------------------------------------
#: Colours of the ratings on the page (the chart's bars and the table's rating cells).
COLOURS = {"forced": "#9e9e9e", "good": "#2e7d32", "inaccuracy": "#f9a825", "mistake": "#ef6c00",
           "blunder": "#c62828"}
_PAGE_CSS = ("body{font-family:system-ui,sans-serif;margin:1em auto;max-width:960px;padding:0 .8em}"
             "pre{white-space:pre-wrap;overflow-wrap:anywhere;font-size:.85em}"
             "svg{max-width:100%;height:auto}.cardodds .wrap{overflow-x:auto}"
             "details{margin:.3em 0}summary{cursor:pointer}"
             + "".join(f".co-{k}{{color:{v};font-weight:600}}" for k, v in COLOURS.items()))


def _chart(r: ReviewResult) -> str:
    """An SVG bar a decision: its cost (the interval as a line), coloured by its rating."""
    n = max(len(r.decisions), 1)
    width, height, pad = 900, 220, 30
    step = (width - 2 * pad) / n
    top = max([d.cost.hi for d in r.decisions if d.label != "forced" and math.isfinite(d.cost.hi)] + [0.1])
    y = lambda v: height - pad - max(0.0, v) / top * (height - 2 * pad)  # noqa: E731
    parts = [f'<svg class="review-chart" viewBox="0 0 {width} {height}" role="img" '
             f'aria-label="cost of each decision, {html.escape(r.thresholds.unit)}">',
             f'<line x1="{pad}" y1="{y(0)}" x2="{width - pad}" y2="{y(0)}" stroke="grey"/>',
             f'<text x="{pad}" y="{pad - 10}" font-size="12">cost, {html.escape(r.thresholds.unit)} '
             f'(0 to {top:.2f})</text>']
    for i, d in enumerate(r.decisions):
        x = pad + i * step
        v = 0.0 if d.label == "forced" else d.cost.value
        tip = html.escape(f"{i + 1}. {d.where()} {d.what} {d.taken}: {d.rating}, cost "
                          f"{'0' if d.label == 'forced' else d.cost.format(2)}")
        parts.append(f'<rect class="bar" data-label="{d.label}" x="{x + step * 0.15:.1f}" y="{y(v):.1f}" '
                     f'width="{step * 0.7:.1f}" height="{max(y(0) - y(v), 1):.1f}" fill="{COLOURS[d.label]}">'
                     f'<title>{tip}</title></rect>')
        if d.label != "forced" and math.isfinite(d.cost.lo) and math.isfinite(d.cost.hi):
            cx = x + step / 2
            parts.append(f'<line x1="{cx:.1f}" y1="{y(d.cost.lo):.1f}" x2="{cx:.1f}" y2="{y(d.cost.hi):.1f}" '
                         f'stroke="black" stroke-width="1"/>')
    return "".join(parts) + "</svg>"


def page(r: ReviewResult) -> str:
    """The review as one self-contained HTML page (no script, no file beside it)."""
    from ._html import TABLE_CSS

    esc = html.escape
    unit = r.thresholds.unit
    rows = []
    for n, d in enumerate(r.decisions, 1):
        cost = "only move" if d.label == "forced" else d.cost.format(2)
        rows.append(f'<tr id="d{n}"><td class="r">{n}</td><td>{esc(d.where())}</td><td class="r">{d.seat}</td>'
                    f"<td>{esc(d.what)}</td><td>{esc(d.taken)}</td><td>{esc(d.best)}</td><td>{esc(cost)}</td>"
                    f'<td class="co-{d.label}">{d.rating}</td></tr>')
    details = []
    for n, d in enumerate(r.decisions, 1):
        wins = d.win or (None,) * len(d.options)
        opts = "".join(f"<tr><td>{esc(o)}{' (taken)' * (o == d.taken)}</td><td>{esc(v.format(2))}</td>"
                       f"<td>{'the best' if o == d.best else esc(x.format(2))}</td>"
                       f"<td>{'' if w is None else esc(w.format(1, percent=True))}</td></tr>"
                       for o, v, x, w in zip(d.options, d.values, d.versus_best, wins))
        table = ('<table class="co-table"><thead><tr><th>option</th><th>value</th><th>best minus this</th>'
                 f"<th>P(win the game)</th></tr></thead><tbody>{opts}</tbody></table>") if d.values else ""
        details.append(f'<details class="decision"><summary>{n}. {esc(d.where())}, seat {d.seat}, {esc(d.what)} '
                       f'{esc(d.taken)}: <span class="co-{d.label}">{d.rating}</span></summary>'
                       f"<p>{esc(d.known)}</p>{table}<p>{esc(d.note)}</p></details>")
    summary = "".join(f"<li>seat {s}: lost {esc(r.lost(s).format(2))} {esc(unit)}; "
                      + esc(", ".join(f"{k} {v}" for k, v in r.ratings(s).items() if v)) + "</li>" for s in r.seats)
    violation = ("" if r.violation is None else
                 f'<p class="violation">rules violation at {esc(r.violation.where())}: {esc(r.violation.message)}; '
                 "the decisions after it are not reviewed</p>")
    partial = '<p class="partial">PARTIAL: interrupted, the decisions rated so far</p>' if r.partial else ""
    return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            f"<title>{esc(r.heading())}</title><style>{TABLE_CSS}{_PAGE_CSS}</style></head>"
            f'<body class="cardodds"><h1>{esc(r.title or r.game.capitalize() + " review")}</h1>'
            f"<p>{esc(r.heading())}</p><p>played out by {esc(r.policies)}</p>{partial}{violation}"
            f"<ul class=\"summary\">{summary}</ul>{_chart(r)}"
            '<div class="wrap"><table class="co-table review"><thead><tr><th>#</th><th>where</th><th>seat</th>'
            f"<th>decision</th><th>taken</th><th>best</th><th>cost, {esc(unit)}</th><th>rating</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>{''.join(details)}"
            f"<p>ratings: {esc(r.thresholds.words(True))}</p>"
            f'<h2>The record</h2><pre class="record">{esc(str(r.record))}</pre>'
            "</body></html>")
