"""One answer to "what should I do here?" in every game: :class:`Position` and :class:`AdviceResult`.

Each game's ``advise(position, *, policies=, rules=, samples=, ...)`` takes the game's own
:class:`Position` (what one seat knows at one decision: a frozen dataclass that reads and checks
it once, one-line ``ValueError``s; ``str(position)`` prints the command line's flags back) and
returns the one :class:`AdviceResult`: the options as the player names them, each played out on
the same sampled deals (worlds), their figures with 95% intervals, and the verdict.

An advice holds, per option (``options``, in the game's order):

* ``figures``: every figure by name, one :class:`~cardodds.stats.Estimate` per option (Kanalje
  ``score``, ``tricks``, ``penalty``, ``takes J of hearts``...; Känä ``win``; Canasta
  ``margin``, ``ahead``, ``equity``, ``win_game``). ``ranked_by`` names the figure that ranks the options,
  in ``unit`` (``"points a deal"``, ``"P(win)"``...); ``value`` is that figure.
* ``pairs``: the *paired* differences, figure by figure, of every two options on the same
  deals: ``pairs[name][pair_index(i, j, k)]`` is option ``i`` minus option ``j`` for ``i < j``
  (:meth:`AdviceResult.difference` reads it either way round). Its first key is ``ranked_by``;
  more keys are the tie-breaks in order (Canasta ranks by P(win the game), then points).

The verdict (``decision``, a :class:`~cardodds.verdict.Verdict`) names the best option, the
options equal within the game's margin, and those shown to lose. Weighted deals (Kanalje's
``infer``) are judged by :func:`decide`: the option ranked first (highest mean) is ``best``
when each rival's paired difference to it excludes zero, exactly 0 on every deal being the same
choice, not a rival.

>>> from cardodds.stats import Estimate
>>> class Coin(Position):
...     seat = 0
...     def words(self): return {"seat": "0", "coin": "heads up"}
>>> win = (Estimate.proportion(60, 100), Estimate.proportion(40, 100))
>>> r = AdviceResult(game="coins", position=Coin(), options=("keep", "turn"), unit="P(win)",
...                  ranked_by="win", figures={"win": win}, pairs={"win": (Estimate.mean(20, 40, 100),)},
...                  policies=("random",), verb="play", rules=None, samples=100, seed=1)
>>> str(r.position), r.best, r.difference(1, 0).format(2)
('--seat 0 --coin "heads up"', 'keep', '-0.20 [-0.32, -0.08]')
>>> r.verdict
'play keep'
"""

from __future__ import annotations

import math
import shlex
from dataclasses import dataclass
from functools import cached_property
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from .results import Result, counts_field
from .stats import Estimate
from .verdict import Verdict

if TYPE_CHECKING:  # pandas is imported where a frame is built
    import pandas as pd

__all__ = ["AdviceResult", "Ranking", "Turn", "Position", "decide", "pair_index", "tallied_pairs"]


class Position:
    """What one seat knows at one decision: the base of every game's position.

    A game's position is a frozen dataclass with ``seat``, read and checked once by its
    constructor. :meth:`words` gives the command line's flags and their words (None for a flag
    left out); ``str(position)`` prints them back as the command line reads them.
    """

    seat: int
    #: The game's name as the command line spells it (``cardodds GAME advise``).
    game: ClassVar[str] = ""

    def words(self) -> dict[str, str | None]:
        """The command line's flags (without ``--``, ``_`` for ``-``) and their words."""
        raise NotImplementedError

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the words, ``seat`` as a number."""
        d: dict[str, Any] = {k: v for k, v in self.words().items() if v is not None}
        d["seat"] = int(self.seat)
        return d

    def __str__(self) -> str:
        out = []
        for k, v in self.words().items():
            if v is None:
                continue
            flag = "--" + k.replace("_", "-")
            if v == "":  # a switch
                out.append(flag)
            else:
                out.append(f"{flag} {_quote(v)}")
        return " ".join(out)


def _quote(v: str) -> str:
    q = shlex.quote(v)
    return f'"{v}"' if q != v and '"' not in v and "$" not in v and "\\" not in v and "`" not in v else q


@dataclass(frozen=True)
class Turn:
    """Where in a record a seat decided (see each game's ``positions``): the record's ``line``
    (0 when not read from text) and ``move`` (0-based), the ``seat`` as the record numbers it,
    the decision in words (``what``: ``"trick 3, 2nd"``), the option it took (``taken``, as the
    advice names it) and ``key``, the moves before it that count for its seed (``child(seed, key,
    ...)`` in a review)."""

    line: int
    move: int
    seat: int
    what: str
    taken: str
    key: int


def pair_index(i: int, j: int, k: int) -> int:
    """Where the pair ``i < j`` of ``k`` options sits in :attr:`AdviceResult.pairs`."""
    return i * k - i * (i + 1) // 2 + (j - i - 1)


def tallied_pairs(same: Sequence[int], n: Sequence[int] | np.ndarray, estimate: Callable[[int], Estimate],
                  index: Callable[[int, int], int]) -> tuple[Estimate, ...]:
    """The paired differences of an adaptive run (:mod:`cardodds.verdict`), every two options
    ``i < j`` in :func:`pair_index`'s order: ``estimate(at)`` reads the pair kept at ``index(a,
    b)`` (``a < b``); an option equal to another by the rules (``same``) is that one, and two
    such options differ by exactly 0 on the ``n`` worlds of the one they are."""
    k = len(same)
    out = []
    for a in range(k):
        for b in range(a + 1, k):
            ra, rb = same[a], same[b]
            if ra == rb:
                out.append(Estimate(0.0, 0.0, 0.0, 0.0, int(n[ra])))
                continue
            e = estimate(index(min(ra, rb), max(ra, rb)))
            out.append(e if ra < rb else e.scaled(-1))
    return tuple(out)


def _zero(e: Estimate) -> bool:
    """Exactly zero: the same on every deal."""
    return e.value == 0 and e.se == 0


@dataclass(frozen=True)
class Ranking:
    """What :func:`decide` concludes: the option ``first`` ranked first, ``best`` (``first``, or
    None when some rival does not clearly lose), the options ``same`` as ``first`` on every deal
    and those that clearly lose (``worse``); ``counted`` is False when no figure is defined."""

    first: int
    best: int | None
    same: tuple[int, ...]
    worse: tuple[int, ...]
    counted: bool


def decide(means: tuple[tuple[float, ...], ...], versus) -> Ranking:
    """The decision rule of every advice (see the module's docstring).

    ``means``: per compared figure (ranked figure first), each option's mean. ``versus(j)``:
    the paired differences *first minus option j*, one per compared figure, in order; it is
    called only once ``first`` is known, which :func:`decide` passes as ``versus(j, first)``.
    """
    k = len(means[0])
    counted = any(not math.isnan(m) for m in means[0])

    def key(i: int):
        return tuple(-math.inf if math.isnan(f[i]) else f[i] for f in means)

    first = max(range(k), key=key)  # max keeps the first of equals
    if not counted:
        return Ranking(first, None, (), (), False)
    same, worse, rivals = [], [], 0
    for j in range(k):
        if j == first:
            continue
        diffs = versus(j, first)
        open_ = next((d for d in diffs if not _zero(d)), None)
        if open_ is None:
            same.append(j)
            continue
        rivals += 1
        if open_.lo > 0:
            worse.append(j)
    clear = k == 1 or (rivals > 0 and len(worse) == rivals)
    return Ranking(first, first if clear else None, tuple(same), tuple(worse), True)


@dataclass(frozen=True, repr=False, kw_only=True)
class AdviceResult(Result):
    """Every option of one decision played out on the same sampled deals (see the module).

    ``game``: whose advice. ``position``: the game's :class:`Position`. ``options``: the
    options' names. ``figures``: each figure by name, an :class:`~cardodds.stats.Estimate` per
    option (None where a figure does not apply). ``ranked_by``: the figure that ranks them, in
    ``unit``. ``pairs``: paired differences by figure (see :func:`pair_index`), the ranked figure
    first, then its tie-breaks. ``policies``: who played the deals out. ``verb``: the verdict's
    word for choosing (``"play"``, ``"känä"``), ``noun``: what an option is (``"card"``),
    ``sampled``: what a sample is (``"world"``, ``"deal"``). ``effective_samples``: the deals
    the figures rest on (less than ``samples`` when they are weighted), None for ``samples``.
    ``violations``: broken rules counted in a checked run (0 unless something is broken).
    ``decision``: the verdict of :mod:`cardodds.verdict` (best, equal within the game's margin,
    or undecided; the options' worlds), which names the best and the options that lose; None
    where the figures are weighted (Kanalje's ``infer``) and :func:`decide` ranks them.
    """

    game: str
    position: Any
    options: tuple[str, ...]
    unit: str
    ranked_by: str
    figures: dict[str, tuple]
    pairs: dict[str, tuple]
    policies: tuple[str, ...] = ()
    verb: str = "choose"
    noun: str = "option"
    sampled: str = "deal"
    effective_samples: float | None = None
    violations: int = 0
    decision: Verdict | None = None
    counts: np.ndarray | None = counts_field(default=None)

    # ---- the figures ------------------------------------------------------------------
    @property
    def value(self) -> tuple[Estimate, ...]:
        """The ranking figure, per option."""
        return self.figures[self.ranked_by]

    @property
    def compared(self) -> tuple[str, ...]:
        """The figures the options are compared in, in order (:attr:`ranked_by` first)."""
        return tuple(self.pairs)

    def difference(self, i: int, j: int, figure: str | None = None) -> Estimate:
        """Option ``i`` minus option ``j`` in ``figure`` (the ranked one by default), paired on
        the same deals: exactly 0 for an option against itself."""
        name = self.ranked_by if figure is None else figure
        if i == j:
            n = int(self.effective_samples if self.effective_samples is not None else self.samples)
            return Estimate(0.0, 0.0, 0.0, 0.0, n)
        e = self.pairs[name][pair_index(min(i, j), max(i, j), len(self.options))]
        return e if i < j else e.scaled(-1)

    @cached_property
    def ranking(self) -> Ranking:
        """:func:`decide` on the compared figures."""
        means = tuple(tuple(e.value for e in self.figures[name]) for name in self.compared)
        return decide(means, lambda j, first: tuple(self.difference(first, j, name) for name in self.compared))

    @property
    def best_index(self) -> int:
        """The option ranked first (named as :attr:`best` or not)."""
        return self.ranking.first if self.decision is None else self.decision.top

    @property
    def versus_best(self) -> tuple[Estimate, ...]:
        """Per option, the paired difference *best minus this option* in the ranked figure (0 for the first)."""
        b = self.best_index
        return tuple(self.difference(b, j) for j in range(len(self.options)))

    @property
    def best(self) -> str | None:
        """The best option's name; None when no option is better at this precision (or the
        best are equal within the game's margin: :attr:`decision`)."""
        if self.decision is not None:
            return self.options[self.decision.top] if self.decision.kind == "best" else None
        i = self.ranking.best
        return None if i is None else self.options[i]

    @property
    def clearly_worse(self) -> list[str]:
        """The options that clearly lose (against the option ranked first; with a
        :attr:`decision`, against the best, simultaneously)."""
        if self.decision is not None:
            return [self.options[j] for j in self.decision.excluded]
        return [self.options[j] for j in self.ranking.worse]

    def same_as_best(self, i: int) -> bool:
        """Option ``i`` is the same choice as the option ranked first: equal to it by the rules
        (with a :attr:`decision`), or played exactly like it on every deal."""
        if self.decision is not None:
            d = self.decision
            return i != d.top and d.same[i] == d.same[d.top]
        return i in self.ranking.same

    @property
    def worlds(self) -> tuple[int, ...] | None:
        """The deals (worlds) each option was played out on, with a :attr:`decision`."""
        return None if self.decision is None else self.decision.worlds

    @property
    def verdict(self) -> str:
        """What to play in words: the best, the options equal within the game's margin, or
        that none is better at this precision; and the options that lose."""
        if self.decision is not None:
            if len(self.options) == 1:
                return f"{self.verb} {self.options[0]} (the only {self.noun})"
            if max(self.decision.worlds) == 0 and len(set(self.decision.same)) > 1:
                return f"nothing to compare: no {self.sampled} dealt agrees with the position"
            return self.decision.words(self.options, noun=self.noun, verb=self.verb, sampled=self.sampled)
        return verdict_words(self)

    # ---- output -------------------------------------------------------------------------
    def _columns(self) -> list[str]:
        return [n for n in self.figures if any(e is not None for e in self.figures[n])]

    def to_frame(self) -> pd.DataFrame:
        """One row per option: each figure, the ranked one with ``_lo``/``_hi``, and ``versus_best``."""
        import pandas as pd

        rows = []
        for i, o in enumerate(self.options):
            row: dict[str, Any] = {"option": o}
            for n in self._columns():
                e = self.figures[n][i]
                row[n] = math.nan if e is None else e.value
                if n == self.ranked_by:
                    row[f"{n}_lo"], row[f"{n}_hi"] = e.lo, e.hi
            v = self.versus_best[i]
            row.update(versus_best=v.value, versus_best_lo=v.lo, versus_best_hi=v.hi)
            rows.append(row)
        return pd.DataFrame(rows).set_index("option")

    def to_dict(self) -> dict[str, Any]:
        d = self.meta()
        d.update({"game": self.game, "question": "advise", "position": self.position.to_dict(),
                  "command": str(self.position), "policies": list(self.policies), "unit": self.unit,
                  "ranked_by": self.ranked_by, "best": self.best, "clearly_worse": self.clearly_worse,
                  "verdict": self.verdict})
        if self.effective_samples is not None:
            d["effective_samples"] = self.effective_samples
        d["decision"] = None if self.decision is None else self.decision.to_dict(self.options)
        cols = self._columns()
        worlds = self.worlds
        d["options"] = [{"option": o, **{n: _est(self.figures[n][i]) for n in cols},
                         "versus_best": self.versus_best[i].to_dict(), "same_as_best": self.same_as_best(i),
                         **({} if worlds is None else {"worlds": worlds[i]})}
                        for i, o in enumerate(self.options)]
        return d

    def __repr__(self) -> str:
        ess = ("" if self.effective_samples is None or self.effective_samples == self.samples else
               f", effective sample size {self.effective_samples:,.0f}")
        lines = [f"{self.game.capitalize()} advice: {self.position}",
                 f"  {', '.join(self.policies)}; {self.samples:,} {self.sampled}s{ess}, seed {self.seed}; "
                 f"ranked by {self.ranked_by} ({self.unit})"]
        width = max(len(o) for o in self.options)
        worlds = self.worlds
        for i, o in enumerate(self.options):
            figs = "  ".join(f"{n} {_fmt(self.figures[n][i])}" for n in self._columns())
            on = "" if worlds is None else f"  ({worlds[i]:,} {self.sampled}s)"
            lines.append(f"  {o:<{width}}  {figs}  best - this {self.versus_best[i].format(3, sign=True)}{on}")
        lines.append(f"  {self.verdict}")
        return "\n".join(lines)

    def plot(self, ax=None):
        """Each option's ranked figure with its 95% interval."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3.2))
        x = np.arange(len(self.options))
        v = np.array([e.value for e in self.value])
        ax.errorbar(x, v, yerr=[v - [e.lo for e in self.value], [e.hi for e in self.value] - v], fmt="o", capsize=3)
        ax.set_xticks(x, list(self.options))
        ax.set_ylabel(f"{self.ranked_by} ({self.unit})")
        ax.set_title(self.verdict)
        return ax


def _est(e: Estimate | None) -> dict | None:
    return None if e is None else e.to_dict()


def _fmt(e: Estimate | None) -> str:
    if e is None:
        return "-"
    return e.format(3)


def verdict_words(r: AdviceResult) -> str:
    """The verdict of an advice, in words: ``"play Ah"``, ``"play Ah (the only legal card)"``, or
    that no option is better at this precision (the one ranked first, and those that clearly
    lose: names of one word apart by spaces, others by ``"; "``)."""
    d = r.ranking
    if not d.counted:
        return f"nothing to compare: no {r.sampled} dealt agrees with the position"
    if d.best is not None:
        return f"{r.verb} {r.options[d.best]}" + (f" (the only {r.noun})" if len(r.options) == 1 else "")
    if len(d.same) == len(r.options) - 1:
        return f"every {r.noun} scores the same on these {r.sampled}s"
    worse = r.clearly_worse
    sep = "; " if any(" " in o for o in r.options) else " "  # names of one word, as cards: "4c Kc"
    return (f"no {r.noun} is better at this precision (ranked first: {r.options[d.first]})"
            + (f"; clearly worse: {sep.join(worse)}" if worse else ""))
