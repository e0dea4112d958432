"""Deciding among options played out on the same worlds: a verdict a player can act on.

Every option (a card, a discard, a take) is played out on the same sampled worlds, so two
options' difference is measured world by world. :func:`decide` plays them in rounds of fresh
worlds, each a run seeded by the round's number (:func:`cardodds.rng.child`); after each round an
option that can no longer be the best stops being played, and the run stops when one option beats
every other (``"best"``), when the options left are equal within the game's ``margin``
(``"equal"``), or when the planned rounds or the budget end (``"undecided"``).

**The intervals** (Hsu's multiple comparisons with the best, MCB): a Student t interval on each
pair's mean difference, with a Bonferroni share ``alpha / (looks * (k - 1))`` (two-sided) for
each comparison with the unknown best option at each planned look, so that every comparison with
the best holds at every look with probability at least ``1 - alpha``. Then the best option is
never eliminated (``j`` goes when some ``i``'s interval of ``x_i - x_j`` lies above 0, which the
pair with the best cannot do), an option left alone is the best, and "equal" (every pair left
inside ``[-margin, margin]``) never hides a loss beyond ``margin`` to the best, which is among them.

**Rare large differences** (a jack lost on one world in fifty) can hide from a t interval on
few worlds: ``spread`` floors each pair's variance (see :func:`paired_mean`).

**Reproducible.** Rounds and eliminations depend only on the counts: the same seed gives the
same verdict on any number of threads or workers. The time budget only decides whether the next
round starts; a run it cuts is marked ``budget_limited`` with the ``rounds`` it ran, and
``Budget(budget_rounds=rounds)`` repeats it exactly. Ctrl-C returns what is decided so far (``partial``).

>>> import numpy as np
>>> def play(active, n, rng):             # three options: 0 and 1 the same, 2 a point worse
...     g = np.random.default_rng(rng)
...     world = g.normal(size=(n, 1))        # a world effect every option shares
...     means = np.array([0.0, 0.02, -1.0])[active]
...     return Sums.of(world + means + 0.3 * g.normal(size=(n, len(active))))
>>> v = decide(play, 3, margin=0.25, rng=1, unit="points")
>>> v.kind, v.group, v.excluded, v.worlds
('equal', (0, 1), (2,), (112, 112, 16))
>>> v.words(["7d", "9d", "3d"])
'play 7d or 9d (within 0.25 points of each other); 3d loses 0.58 to 1.38 points'
"""

from __future__ import annotations

import dataclasses
import functools
import math
import numbers
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .rng import RngLike, as_seed_sequence, child

__all__ = ["KINDS", "Budget", "Sums", "Verdict", "controlled_mean", "critical_value", "decide", "judge",
           "pair_interval", "paired_mean"]

#: What a verdict says: one option is best, the options left are equal within the margin, or
#: the budget ended before either.
KINDS = ("best", "equal", "undecided")
#: The rounds a run plans unless :class:`Budget`'s ``budget_worlds`` sets them: round ``r`` has
#: ``round_worlds * 2**r`` worlds.
DEFAULT_ROUNDS = 8
DEFAULT_ALPHA = 0.05
#: An advisor's plan and time budget unless its game says otherwise: ten rounds at most, none
#: started that would end after 6 s, about what a player beside the table waits for an answer.
ADVICE_ROUNDS = 10
ADVICE_SECONDS = 6.0


class Sums(NamedTuple):
    """A round's play-outs of ``a`` options on the same ``n`` worlds: per option the sums of its
    outcome and of its square (``x``, shape ``(a, 2)``), per pair the sums of the difference
    ``x_i - x_j`` and of its square (``d``, shape ``(a, a, 2)``, only ``i < j`` read).
    ``partial``: the round was interrupted (its worlds are those counted)."""

    n: int
    x: np.ndarray
    d: np.ndarray
    partial: bool = False
    #: with a control variate: per pair ``i < j`` the sums of ``c``, ``c²`` and ``d c`` (shape ``(a, a, 3)``)
    c: np.ndarray | None = None

    @classmethod
    def of(cls, outcomes, partial: bool = False, control=None) -> Sums:
        """The sums of per-world outcomes, shape ``(n, a)`` (a world a row, an option a column);
        ``control``: a cheaper player's outcomes on the same worlds, the same shape."""
        o = np.asarray(outcomes, dtype=np.float64)
        if o.ndim != 2:
            raise ValueError(f"outcomes must be a 2-d array (worlds, options), not shape {o.shape}")
        x = np.stack([o.sum(axis=0), (o * o).sum(axis=0)], axis=1)
        diff = o[:, :, None] - o[:, None, :]
        d = np.stack([diff.sum(axis=0), (diff * diff).sum(axis=0)], axis=2)
        c = None
        if control is not None:
            q = np.asarray(control, dtype=np.float64)
            if q.shape != o.shape:
                raise ValueError(f"control has shape {q.shape}; it must be the outcomes' {o.shape}")
            cd = q[:, :, None] - q[:, None, :]
            c = np.stack([cd.sum(axis=0), (cd * cd).sum(axis=0), (cd * diff).sum(axis=0)], axis=2)
        return cls(int(o.shape[0]), x, d, partial, c)

    @classmethod
    def of_counts(cls, n: int, x, xx, d, dd, pair: Callable[[int, int], int] | None = None,
                  partial: bool = False) -> Sums:
        """The sums as an advice kernel keeps them: per option the sums of its outcome ``x`` and of
        its square ``xx`` (length ``a``), per pair ``i < j`` those of ``x_i - x_j`` and its square
        (``d``, ``dd``) at ``pair(i, j)`` (default: the pairs in order, ``(0, 1), (0, 2), ..., (1, 2), ...``)."""
        x = np.asarray(x, dtype=np.float64)
        a = len(x)
        out = np.zeros((a, a, 2))
        q = 0
        for i in range(a):
            for j in range(i + 1, a):
                at = q if pair is None else pair(i, j)
                out[i, j] = d[at], dd[at]
                q += 1
        return cls(int(n), np.stack([x, np.asarray(xx, dtype=np.float64)], axis=1), out, partial)


# ---- the statistics ---------------------------------------------------------------------------
# Why this method: it needs only the paired sums the kernels already keep, no equal variances
# across options (each pair has its own), and a fixed number of looks, so a critical value is a
# function of a pair's worlds alone and an eliminated option's interval stays valid when its play
# stops. Sequential methods that spend less per look (alpha-spending functions, confidence
# sequences) are sharper over many looks; over the ten or so doubling rounds of an advice the
# Bonferroni share per look costs little (each doubling of the looks widens a t interval by ~4%).
#
# Rare large differences: ``spread``, the largest difference two options can usually show on one
# world, floors each pair's variance at ``spread**2 / (n + 1)``: no difference seen in ``n``
# worlds still leaves a half-width of about ``t * spread / n``, the "rule of three" for a
# difference of ``spread`` on no world yet.
@functools.lru_cache(maxsize=4096)
def critical_value(df: int, alpha: float, looks: int, k: int) -> float:
    """The two-sided Student t quantile (``df`` degrees of freedom) of a pair's interval: a
    Bonferroni share ``alpha / (looks * (k - 1))`` for each comparison with the best at each look."""
    if df < 1:
        return math.inf
    from scipy.special import stdtrit

    share = alpha / (looks * max(k - 1, 1))
    return float(stdtrit(df, 1.0 - share / 2.0))


def paired_mean(n: int, sd: float, sdd: float, spread: float | None = None) -> tuple[float, float, int]:
    """``(mean, variance of the mean, degrees of freedom)`` of a paired difference from its
    ``n`` worlds' sums of ``d`` and ``d²``; ``spread``: the variance is floored at
    ``spread**2 / (n + 1)``, about the variance of a difference of ``spread`` on one world in ``n``."""
    if n < 2:
        return (sd / n if n else math.nan), math.inf, 0
    m = sd / n
    var = max(sdd - n * m * m, 0.0) / (n - 1)
    if spread:
        var = max(var, spread * spread / (n + 1))
    return m, var / n, n - 1


def controlled_mean(n: int, sd: float, sdd: float, sc: float, scc: float, sdc: float, mu: float, var_mu: float,
                    spread: float | None = None) -> tuple[float, float, int]:
    """:func:`paired_mean` with a control variate: ``c``, a cheaper player's difference on the
    same worlds, whose mean ``mu`` is known to a variance ``var_mu`` (from other worlds). The
    estimate ``mean(d) - beta * (mean(c) - mu)`` with the fitted ``beta = cov(d, c) / var(c)``;
    its variance is the residual's over ``n`` (one degree of freedom spent on ``beta``) plus
    ``beta² var_mu``."""
    if n < 3:
        return paired_mean(n, sd, sdd, spread)
    md, mc = sd / n, sc / n
    vdd = max(sdd - n * md * md, 0.0)
    vcc = max(scc - n * mc * mc, 0.0)
    vdc = sdc - n * md * mc
    beta = vdc / vcc if vcc > 0 else 0.0
    resid = max(vdd - beta * vdc, 0.0) / (n - 2)
    if spread:
        resid = max(resid, spread * spread / (n + 1))
    return md - beta * (mc - mu), resid / n + beta * beta * var_mu, n - 2


def pair_interval(n: int, sd: float, sdd: float, crit: float, spread: float | None = None) -> tuple[float, float]:
    """The interval ``mean ± crit * se`` of a paired difference from its ``n`` worlds' sums of
    ``d`` and ``d²`` (:func:`paired_mean`)."""
    if n < 2:
        return -math.inf, math.inf
    m, v, _ = paired_mean(n, sd, sdd, spread)
    h = crit * math.sqrt(v)
    return m - h, m + h


# ---- the result -------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class Verdict:
    """What to play, from options played out on the same worlds (see :func:`decide`).

    ``kind`` is ``"best"`` (``group`` holds the best option and the options equal to it by the
    rules), ``"equal"`` (``group``: the options left, equal within ``margin``) or ``"undecided"``
    (``group``: the options not told apart when the budget ended). ``excluded``: the options
    shown to lose, each with ``loss[i]``, the interval of the best option's value minus its
    (``loss`` has an entry for every option; a group member's lower end is 0). ``worlds[i]``:
    the worlds option ``i`` was played on; ``same[i]``: the option it is equal to by the rules
    (itself if none). ``more_worlds``: undecided, about how many more worlds would decide it.
    """

    kind: str
    group: tuple[int, ...]
    excluded: tuple[int, ...]
    loss: tuple[tuple[float, float], ...]
    means: tuple[float, ...]
    worlds: tuple[int, ...]
    same: tuple[int, ...]
    margin: float
    unit: str
    alpha: float
    rounds: int
    planned_rounds: int
    budget_limited: bool
    partial: bool
    seed: object
    more_worlds: int | None = None
    #: with a control variate: the median variance ratio of a difference without it to with it
    control_gain: float | None = None
    #: the simultaneous interval of ``x_i - x_j`` of every pair (``[i, j, 0]`` low, ``[i, j, 1]`` high)
    pairs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 2)), repr=False, compare=False)
    seconds: float = field(default=0.0, repr=False, compare=False)

    def __repr__(self) -> str:
        names = [str(i) for i in range(len(self.same))]
        return (f"Verdict({self.kind}: {self.words(names, noun='option')}; worlds {' '.join(map(str, self.worlds))}; "
                f"{self.rounds} of {self.planned_rounds} rounds" + (", budget-limited" if self.budget_limited else "")
                + ")")

    @property
    def top(self) -> int:
        """The group's option with the highest mean."""
        return max(self.group, key=lambda i: (self.means[i], -i))

    def difference(self, i: int, j: int) -> tuple[float, float]:
        """The simultaneous interval of option ``i``'s value minus option ``j``'s."""
        ri, rj = self.same[i], self.same[j]
        if ri == rj:
            return 0.0, 0.0
        return float(self.pairs[ri, rj, 0]), float(self.pairs[ri, rj, 1])

    def words(self, names: Sequence[str], unit: str | None = None, noun: str = "option", verb: str = "play",
              sampled: str = "world") -> str:
        """The verdict as a player acts on it: ``"play 7d or 9d (within 0.25 points of each other);
        3d 4d 5d lose 0.6 to 1.5 points"``. ``names``: the options' names; ``unit``: the margin's
        unit (default :attr:`unit`); ``noun``: what an option is (``"card"``); ``verb``: the word
        for choosing it (``"känä"``); ``sampled``: what a sample is (``"deal"``)."""
        names = [str(x) for x in names]
        if len(names) != len(self.same):
            raise ValueError(f"names has {len(names)} entries for {len(self.same)} options; name every option")
        unit = self.unit if unit is None else unit
        u = f" {unit}" if unit else ""
        num = functools.partial(_num, digits=2 if self.margin < 1 else 1 if self.margin < 10 else 0)
        if self.kind == "best" and len(self.group) == 1:
            text = f"{verb} {names[self.group[0]]}"
        elif self.kind == "best":
            text = f"{verb} {_either(names[i] for i in self.group)} (the same by the rules)"
        elif self.kind == "equal":
            text = f"{verb} {_either(names[i] for i in self.group)} (within {_num(self.margin)}{u} of each other)"
        else:
            top = self.top
            others = [i for i in self.group if self.same[i] != self.same[top]]
            lo = min(self.difference(top, i)[0] for i in others)
            hi = max(self.difference(top, i)[1] for i in others)
            if len(others) == 1:
                who = f"{names[top]} and {names[others[0]]} differ by"
            else:
                who = f"{_and(names[i] for i in others)} differ from {names[top]} by"
            text = f"no {noun} is better at this precision: {who} {num(lo, True)} to {num(hi, True)}{u}"
            if self.more_worlds:
                text += f"; about {_about(self.more_worlds)} more {sampled}s would decide it"
        if self.excluded:
            lo = min(self.loss[i][0] for i in self.excluded)
            hi = max(self.loss[i][1] for i in self.excluded)
            verb = "loses" if len(self.excluded) == 1 else "lose"
            amount = f"{num(lo)} to {num(hi)}" if num(lo) != "0" else f"up to {num(hi)}"
            sep = ", " if any(" " in names[i] for i in self.excluded) else " "  # "discard 5, discard K"
            text += f"; {sep.join(names[i] for i in self.excluded)} {verb} {amount}{u}"
        if self.partial:
            text += f" (interrupted after {self.rounds} of {self.planned_rounds} rounds: partial)"
        return text

    def to_dict(self, names: Sequence[str] | None = None) -> dict:
        """JSON: the kind, the options of the group and the excluded ones (by name, or by index
        without ``names``), the losses, the margin and unit, the worlds each option was played on."""
        label = (lambda i: i) if names is None else (lambda i: str(names[i]))
        return {
            "kind": self.kind, "group": [label(i) for i in self.group],
            "excluded": [{"option": label(i), "loss": {"lo": _json(self.loss[i][0]), "hi": _json(self.loss[i][1])}}
                         for i in self.excluded],
            "margin": self.margin, "unit": self.unit, "alpha": self.alpha,
            "worlds": [{"option": label(i), "worlds": self.worlds[i], "mean": _json(self.means[i]),
                        "same_as": label(self.same[i])} for i in range(len(self.worlds))],
            "rounds": self.rounds, "planned_rounds": self.planned_rounds, "budget_limited": self.budget_limited,
            "partial": self.partial, "more_worlds": self.more_worlds, "control_gain": self.control_gain,
            "seed": self.seed,
            **({"words": self.words(names)} if names is not None else {}),
        }


def _num(x: float, sign: bool = False, digits: int = 2) -> str:
    """``digits`` decimals (with 2, two significant figures below 0.1) without trailing zeros:
    0.6, 1.5, 0.25, +0.11, 0.005; ``digits=0``: 1154."""
    if not math.isfinite(x):
        return ("+" if sign and x > 0 else "") + ("inf" if x > 0 else "-inf")
    if digits == 2 and x != 0 and abs(x) < 0.1:
        digits = min(6, 1 - math.floor(math.log10(abs(x))))
    s = f"{x + 0.0:+.{digits}f}" if sign else f"{x + 0.0:.{digits}f}"
    if digits:
        s = s.rstrip("0").rstrip(".")
    return "0" if s in ("+0", "-0", "") else s


def _about(n: int) -> str:
    """A count to two significant figures: 1,234 -> 1,200."""
    if n < 100:
        return f"{n:,}"
    digits = len(str(n)) - 2
    return f"{round(n, -digits):,}"


def _either(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _and(names) -> str:
    names = list(names)
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _json(x: float):
    return float(x) if math.isfinite(x) else None


# ---- the driver -------------------------------------------------------------------------------
def judge(sums: Sums, *, margin: float, same=None, spread: float | None = None, unit: str = "",
          alpha: float = DEFAULT_ALPHA, seed=None) -> Verdict:
    """The verdict of one look at options already played out on the same worlds (a run of a
    fixed size): :func:`decide`'s rule with one round, the worlds ``sums`` holds; ``seed``: the
    run's, which the verdict reports."""
    k = len(sums.x)

    def play(active: np.ndarray, n: int, rng) -> Sums:
        d = None if sums.c is None else sums.c[np.ix_(active, active)]
        return Sums(sums.n, sums.x[active], sums.d[np.ix_(active, active)], sums.partial, d)

    v = decide(play, k, margin=margin, rng=0, alpha=alpha, budget=Budget(max(int(sums.n), 2), 1), same=same,
               spread=spread, unit=unit)  # its rng seeds no world: ``sums`` were played already
    if len(set(v.same)) == 1 and sums.n:  # nothing compared, yet every option was played on the sums' worlds
        v = dataclasses.replace(v, worlds=(int(sums.n),) * k,
                                means=tuple(float(sums.x[v.same[i], 0]) / sums.n for i in range(k)))
    return dataclasses.replace(v, seed=seed)



@dataclass(frozen=True)
class Budget:
    """How long :func:`decide` may play. The plan: rounds of ``round_worlds`` worlds, doubling,
    ``rounds`` of them, or as many as ``budget_worlds`` holds. Stops that leave it early:
    ``budget_seconds`` (no round is started that the last round's pace on ``clock`` says would end
    after it) and ``budget_rounds`` (at most that many rounds; given, it bounds the run instead of
    the time, so a run cut by the time repeats exactly on any machine). Checked when made."""

    round_worlds: int = 16
    rounds: int = DEFAULT_ROUNDS
    budget_worlds: int | None = None
    budget_seconds: float | None = None
    budget_rounds: int | None = None
    clock: Callable[[], float] = time.perf_counter

    def __post_init__(self) -> None:
        for name, least in (("budget_worlds", 2), ("round_worlds", 2), ("rounds", 1), ("budget_rounds", 1)):
            v = getattr(self, name)
            if v is None and name in ("budget_worlds", "budget_rounds"):
                continue
            if isinstance(v, bool) or not isinstance(v, numbers.Integral) or int(v) < least:
                none = ", or None for the plan's rounds" if name == "budget_rounds" else ""
                raise ValueError(f"{name}={v!r} must be a whole number >= {least}{none}")
        t = self.budget_seconds
        if t is not None and (isinstance(t, bool) or not isinstance(t, numbers.Real) or not 0 < float(t) < math.inf):
            raise ValueError(f"budget_seconds={t!r} must be a number of seconds > 0, or None for no limit")

    def sizes(self) -> list[int]:
        """The planned rounds' worlds."""
        return schedule(int(self.round_worlds), None if self.budget_worlds is None else int(self.budget_worlds),
                        int(self.rounds))


def schedule(round_worlds: int, budget_worlds: int | None, rounds: int = DEFAULT_ROUNDS) -> list[int]:
    """The rounds' sizes: ``round_worlds``, then doubling, ``rounds`` of them, or as many as
    ``budget_worlds`` holds (the last cut to fit)."""
    sizes: list[int] = []
    total = 0
    size = round_worlds
    while True:
        if budget_worlds is None and len(sizes) == rounds:
            return sizes
        if budget_worlds is not None:
            if total >= budget_worlds:
                return sizes
            size = min(size, budget_worlds - total)
        sizes.append(size)
        total += size
        size *= 2


def _check(play, k, margin, alpha, same, spread, control) -> None:
    if not callable(play):
        raise ValueError(f"play={play!r} must be a function play(active, n_worlds, rng) returning Sums")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"k={k!r} must be the number of options, a whole number >= 1")
    for name, v in (("margin", margin), ("spread", spread)):
        if v is None and name == "spread":
            continue
        if isinstance(v, bool) or not isinstance(v, numbers.Real) or not math.isfinite(v) or float(v) < 0:
            raise ValueError(f"{name}={v!r} must be a number >= 0 in the options' unit, e.g. {name}=0.25")
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < float(alpha) < 1:
        raise ValueError(f"alpha={alpha!r} must be between 0 and 1, e.g. alpha=0.05")
    if same is not None:
        s = np.asarray(same)
        if s.shape != (k,) or not np.issubdtype(s.dtype, np.integer) or any(
                not 0 <= s[i] <= i or s[s[i]] != s[i] for i in range(k)):
            raise ValueError("same= must give, for each of the k options, the first option it is equal to by the "
                             "rules (same[i] <= i, same[same[i]] == same[i]; i itself for none)")
    if control is not None:
        ok = isinstance(control, (tuple, list)) and len(control) == 2
        if not ok or any(np.shape(c) != (k, k) for c in control) or not np.all(np.asarray(control[1]) >= 0):
            raise ValueError("control= must be (mu, var): two (k, k) arrays, for each pair i < j the cheaper "
                             "player's mean difference and its variance (>= 0)")


def decide(play: Callable[[np.ndarray, int, np.random.SeedSequence], Sums], k: int, *, margin: float,
           rng: RngLike = None, alpha: float = DEFAULT_ALPHA, budget: Budget | None = None, same=None,
           spread: float | None = None, control=None, unit: str = "", progress: bool = False) -> Verdict:
    """Play ``k`` options out on the same worlds in rounds until a verdict (see the module's text).

    ``play(active, n_worlds, rng)`` plays the options ``active`` (an int64 array of option
    indices, ascending) on the same ``n_worlds`` fresh worlds seeded by ``rng`` (a
    ``SeedSequence``: round ``r``'s is ``rng.child(seed, r)``) and returns their :class:`Sums`
    (in ``active``'s order). ``margin``: options whose values differ by at most this much are
    equal for the game (in ``unit``). ``budget``: the rounds planned and the stops
    (:class:`Budget`; by default 8 rounds from 16 worlds, no time limit). ``same[i]``: the first
    option equal to ``i`` by the rules (played once, for all of them). ``spread``: see the
    module's text. ``control``: ``(mu, var)``, two ``(k, k)`` arrays: for each pair ``i < j`` the
    mean of a cheaper player's difference ``c`` (measured on other worlds) and that mean's
    variance; ``play`` then returns ``Sums.c`` and every difference is estimated with ``c`` as a
    control variate.
    """
    _check(play, k, margin, alpha, same, spread, control)
    budget = Budget() if budget is None else budget
    if not isinstance(budget, Budget):
        raise ValueError(f"budget={budget!r} must be a cardodds.verdict.Budget, e.g. Budget(budget_seconds=6)")
    clock, budget_rounds = budget.clock, budget.budget_rounds
    budget_seconds = None if budget_rounds is not None else budget.budget_seconds
    ss, seed = as_seed_sequence(rng)
    same_t = tuple(range(k)) if same is None else tuple(int(s) for s in same)
    reps = sorted(set(same_t))
    sizes = budget.sizes()
    tally = _Tally(k, len(reps), len(sizes), float(margin), float(alpha), spread, control)
    t0 = clock()
    active = list(reps)
    done = 0
    partial = budget_limited = False
    bar = None
    if progress:
        from tqdm.auto import tqdm

        bar = tqdm(total=sum(sizes), unit="world", unit_scale=True, file=sys.stderr, leave=False, dynamic_ncols=True)
    from . import engine

    pace = None  # seconds a world and option, from the last round
    try:
        for r, size in enumerate(sizes):
            if len(active) < 2 or tally.settled(active):
                break
            if engine.interrupted():
                partial = True
                break
            if budget_rounds is not None and r >= budget_rounds or budget_seconds is not None and pace is not None \
                    and clock() - t0 + pace * size * len(active) > budget_seconds:
                budget_limited = True
                break
            a = np.array(active, dtype=np.int64)
            started = clock()
            try:
                got = play(a, size, child(ss, r))
            except KeyboardInterrupt:
                partial = True
                break
            pace = (clock() - started) / max(size * len(active), 1)
            tally.add(got, a)
            done = r + 1
            active = tally.eliminate(active)
            if bar is not None:
                bar.update(size)
                bar.set_postfix_str(f"{len(active)} left", refresh=True)
            if got.partial:
                partial = True
                break
    finally:
        if bar is not None:
            bar.close()
    if done == 0 and partial and len(reps) > 1:
        raise KeyboardInterrupt
    if done == len(sizes) or budget_limited:
        budget_limited = budget_limited or (len(active) > 1 and not tally.settled(active))
    return tally.verdict(active, reps, same_t, unit, done, budget_limited, partial, seed, clock() - t0)


class _Tally:
    """The sums of a run so far, and the decisions made from them."""

    def __init__(self, k: int, kk: int, looks: int, margin: float, alpha: float, spread, control) -> None:
        self.k, self.kk, self.looks, self.margin, self.alpha, self.spread = k, kk, looks, margin, alpha, spread
        self.nx = np.zeros(k, dtype=np.int64)
        self.sx = np.zeros((k, 2))
        self.npair = np.zeros((k, k), dtype=np.int64)
        self.sd = np.zeros((k, k, 2))
        self.control = None if control is None else (np.asarray(control[0], dtype=np.float64),
                                                     np.asarray(control[1], dtype=np.float64))
        self.sc = np.zeros((k, k, 3))

    def add(self, got: Sums, a: np.ndarray) -> None:
        m = len(a)
        x = np.asarray(got.x, dtype=np.float64)
        d = np.asarray(got.d, dtype=np.float64)
        if x.shape != (m, 2) or d.shape != (m, m, 2):
            raise ValueError(f"play returned sums of shape {x.shape} and {d.shape} for {m} options; "
                             f"expected ({m}, 2) and ({m}, {m}, 2)")
        c = None
        if self.control is not None:
            if got.c is None or np.shape(got.c) != (m, m, 3):
                raise ValueError(f"with control=, play must return Sums.c of shape ({m}, {m}, 3): the sums of the "
                                 "cheaper player's difference, its square and its product with the difference")
            c = np.asarray(got.c, dtype=np.float64)
        n = int(got.n)
        for p, i in enumerate(a):
            self.nx[i] += n
            self.sx[i] += x[p]
            for q in range(p + 1, m):
                j = a[q]
                self.npair[i, j] += n
                self.sd[i, j] += d[p, q]
                if c is not None:
                    self.sc[i, j] += c[p, q]

    def estimate(self, i: int, j: int, control: bool = True) -> tuple[float, float, int]:
        """``(mean, variance of the mean, degrees of freedom)`` of ``x_i - x_j``, ``i < j``."""
        n = int(self.npair[i, j])
        if self.control is None or not control:
            return paired_mean(n, self.sd[i, j, 0], self.sd[i, j, 1], self.spread)
        sc, scc, sdc = (float(x) for x in self.sc[i, j])
        return controlled_mean(n, self.sd[i, j, 0], self.sd[i, j, 1], sc, scc, sdc, self.control[0][i, j],
                               self.control[1][i, j], self.spread)

    def interval(self, i: int, j: int) -> tuple[float, float]:
        """The simultaneous interval of ``x_i - x_j`` (any order of ``i``, ``j``)."""
        a, b = min(i, j), max(i, j)
        m, v, df = self.estimate(a, b)
        if df < 1:
            return -math.inf, math.inf
        h = critical_value(df, self.alpha, self.looks, self.kk) * math.sqrt(v)
        lo, hi = m - h, m + h
        return (lo, hi) if i < j else (-hi, -lo)

    def eliminate(self, active: list[int]) -> list[int]:
        """The options left: those no other option left is shown to beat."""
        return [j for j in active if not any(self.interval(i, j)[0] > 0 for i in active if i != j)]

    def settled(self, active: list[int]) -> bool:
        """Every pair of the options left is inside ``[-margin, margin]``."""
        for p, i in enumerate(active):
            for j in active[p + 1:]:
                lo, hi = self.interval(i, j)
                if not (-self.margin <= lo and hi <= self.margin):
                    return False
        return True

    def more_worlds(self, active: list[int]) -> int | None:
        """About how many more worlds would settle every pair left: separate it (half-width
        below its mean difference) or show it equal (half-width within the margin left by the mean)."""
        more = 0
        for p, i in enumerate(active):
            for j in active[p + 1:]:
                n = int(self.npair[i, j])
                lo, hi = self.interval(i, j)
                if not math.isfinite(hi - lo):
                    return None
                if lo > 0 or hi < 0 or (-self.margin <= lo and hi <= self.margin):
                    continue
                m, h = (lo + hi) / 2, (hi - lo) / 2
                target = max(abs(m), self.margin - abs(m))
                if target <= 0:
                    return None
                more = max(more, math.ceil(n * (h / target) ** 2) - n)
        return more

    def control_gain(self) -> float | None:
        """With a control variate: the median over the pairs played of the variance of a
        difference without it over its variance with it (above 1: the control narrowed the intervals)."""
        if self.control is None:
            return None
        ratios = []
        for i in range(self.k):
            for j in range(i + 1, self.k):
                if self.npair[i, j] >= 3:
                    plain = self.estimate(i, j, control=False)[1]
                    with_c = self.estimate(i, j)[1]
                    if with_c > 0 and math.isfinite(plain):
                        ratios.append(plain / with_c)
        return float(np.median(ratios)) if ratios else None

    def verdict(self, active, reps, same, unit, done, budget_limited, partial, seed, seconds) -> Verdict:
        k = self.k
        pairs = np.zeros((k, k, 2))
        for i in reps:
            for j in reps:
                if i != j:
                    pairs[i, j] = self.interval(i, j)
        means = tuple(float(self.sx[same[i], 0] / self.nx[same[i]]) if self.nx[same[i]] else math.nan
                      for i in range(k))
        worlds = tuple(int(self.nx[same[i]]) for i in range(k))
        if len(active) == 1:
            kind = "best"
        elif done > 0 and self.settled(active):
            kind = "equal"
        else:
            kind = "undecided"
        left = set(active)
        group = tuple(i for i in range(k) if same[i] in left)
        excluded = tuple(i for i in range(k) if same[i] not in left)
        loss = []
        for j in range(k):
            rj = same[j]
            lows = [0.0 if i == rj else pairs[i, rj, 0] for i in active]
            highs = [0.0 if i == rj else pairs[i, rj, 1] for i in active]
            loss.append((max(0.0, float(min(lows))), max(0.0, float(max(highs)))))
        more = self.more_worlds(active) if kind == "undecided" else None
        return Verdict(kind, group, excluded, tuple(loss), means, worlds, same, self.margin, unit, self.alpha, done,
                       self.looks, bool(budget_limited), bool(partial), seed, more, self.control_gain(), pairs,
                       seconds)
