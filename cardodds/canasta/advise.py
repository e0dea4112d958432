"""The advisor: take the pile or leave it, which card to discard, go out or not, meld or hold.

The position as I (seat 0, side 0 with my partner at seat 2) know it (:class:`Position`: my
hand, the melds of both sides, the red 3s laid, the pile (every card, or the top card and the
size, or a mix of known cards and unknown ones ``?``), the cards of the other players (how many,
and those known to be there, e.g. taken with the pile and not melded), the cards each player
threw, the table turn, the game score before the hand and the decision).
Each option is played out to the end of the hand by the named policies (``heuristic2`` at
every seat unless ``policies=`` says otherwise, mine included: the strongest player of the
ladder that answers in time) on the **same** sampled deals: the hidden cards (the rest of the
other hands, the unknown pile cards, the stock) are dealt uniformly over every deal
consistent with the position. For each option (the figures of the
:class:`~cardodds.advice.AdviceResult`): ``margin``, our side's expected margin over theirs in
the hand's score; ``ahead``, P(our side ahead at the end of the hand); with a ``score``,
``equity``, P(we win the game) after the hand (1 or 0 where the hand ends the game, else the
game equity table's at the scores it leaves: :mod:`cardodds.canasta.equity`, the next hand's
dealer unknown, both sides alike) and ``win_game``, P(we win the game with this hand). The
options are ranked by what is at stake: the equity with a score, else points. The
verdict (:mod:`cardodds.verdict`, on the ranked figure): one option best, the options left equal
within ``margin``, or undecided; without ``samples`` the options are played in rounds of fresh
deals until it, an option shown to lose played no more.

>>> p = Position("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K", pile_size=6,
...              counts=(10, 9, 11), decision="discard")
>>> a = advise(p, samples=40, rng=1)
>>> a.position.decision, a.ranked_by, len(a.options) > 1
('discard', 'margin', True)
"""

from __future__ import annotations

import math
import time
from dataclasses import replace
from typing import Any

import numpy as np

from .. import engine
from .._validate import check_run
from ..advice import AdviceResult
from ..engine import takes_backend
from ..rng import as_seed_sequence, child
from ..stats import Estimate
from ..verdict import Budget, Sums, Verdict, decide, judge
from . import _advise as A
from ._advise import EQUITY_SCALE
from . import _table as T
from ._defaults import (ADVICE_DECISIONS, ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, ADVISE_SECONDS,
                        ADVISE_SPREAD, DEFAULT_ADVICE_POLICIES, DEFAULT_ADVICE_SAMPLES, MAX_ADVICE_SAMPLES,
                        MIN_ADVICE_HALFWIDTH)
from ._policies import P_LOOKAHEAD, smart_arg
from ._position import parse_kinds, parse_known, parse_melds, parse_thrown
from .policies import HeuristicParams, resolve_policies
from .position import Position
from .equity import equity_grid
from .rules import CanastaRules, check_rules
from .view import kernel_policy

__all__ = ["advise", "against_words", "parse_kinds", "parse_melds", "parse_known", "parse_thrown"]

DECISIONS = ADVICE_DECISIONS
#: What ranks the options (``AdviceResult.ranked_by``): points, or the game equity after the hand
#: (P(we win the game)); and the unit of each.
RANKED_BY = ("margin", "equity")
UNITS = {"margin": "points (our side's margin this hand)",
         "equity": "P(we win the game) after this hand (the game equity)"}
#: The verdict's unit of each ranked figure (its margin's and its losses').
VERDICT_UNITS = {"margin": "points", "equity": "P(win)"}


def _mean(total, total_sq, n) -> Estimate:
    return Estimate.mean(float(total), float(total_sq), int(n))


def _pair_index(a: int, b: int, k: int) -> int:
    """Where pair ``a < b`` of ``k`` options sits in the counts' pair fields."""
    return a * k - a * (a + 1) // 2 + (b - a - 1)


def _paired(f: dict, i: int, j: int, k: int, n: int, by: str = "margin") -> Estimate:
    """Paired estimate of option i's figure minus option j's over the same deals: the margin
    (points), ``by="equity"`` the game equity, ``by="win_game"`` P(we win the game this hand)."""
    if i == j:
        return Estimate(0.0, 0.0, 0.0, 0.0, n)
    a, b, sign = (i, j, 1) if i < j else (j, i, -1)
    q = _pair_index(a, b, k)
    if by == "win_game":
        only, other = int(f["pair_win_only"][q]), int(f["pair_win_other"][q])
        return _mean(only - other, only + other, n).scaled(sign)
    if by == "equity":
        return _mean(float(f["pair_eq"][q]) / EQUITY_SCALE, float(f["pair_eq_sq"][q]) / EQUITY_SCALE ** 2,
                     n).scaled(sign)
    return _mean(f["pair"][q], f["pair_sq"][q], n).scaled(sign)


def _identical(f: dict, i: int, j: int, k: int) -> bool:
    """Options i and j played exactly alike on every deal (the same move in other words)."""
    return i != j and f["pair_sq"][_pair_index(min(i, j), max(i, j), k)] == 0


def _ranked_by(score_given: bool) -> str:
    """The game equity ranks the options when the score is given; else points."""
    return "equity" if score_given else "margin"


def _best_and_rival(f: dict, k: int, by: str = "margin") -> tuple[int, int | None]:
    """The option with the highest figure (the equity first with ``by="equity"``, then the mean
    margin), and the best of the others that did not play exactly like it on every deal (None
    if every other did)."""
    margin = np.asarray(f["margin"], dtype=float)
    keys = (-margin,) if by == "margin" else (-margin, -np.asarray(f["equity"], dtype=float))
    order = [int(i) for i in np.lexsort(keys)]
    best = order[0]
    for j in order[1:]:
        if not _identical(f, best, j, k):
            return best, j
    return best, None


def against_words(r: AdviceResult, i: int, digits: int = 0) -> str:
    """Option ``i`` against the option ranked first, in words: "the best", "plays as the best",
    "loses 52 to 120 points", "P(win) 4.1% to 9.9% lower", "equal within 25 points", "no clear
    difference (-47 to +13)" (this option minus the first, in points or in P(win the game) after the
    hand; with a verdict, its simultaneous intervals)."""
    b = r.best_index
    d = r.decision
    if d is not None and len(r.options) > 1:
        words = _verdict_words(r, d, i, digits)
        if words is not None:
            return words
    elif i == b:
        return "the best" if r.best else "ranked first"
    elif r.same_as_best(i):
        return "plays as the best"
    v, mv = r.versus_best[i], r.difference(b, i, "margin")

    def pts(x: float) -> str:
        return f"{x:.{digits}f}"

    if r.ranked_by == "equity" and not (v.value == 0 and v.se == 0):
        if v.lo > 0:
            return f"P(win) {100 * v.value:.1f}% lower ({100 * v.lo:.1f}% to {100 * v.hi:.1f}%)"
        return f"no clear difference ({-100 * v.hi:+.1f}% to {-100 * v.lo:+.1f}%)"
    same = "same P(win); " if r.ranked_by == "equity" else ""
    if mv.lo > 0:
        return f"{same}loses {pts(mv.value)} points ({pts(mv.lo)} to {pts(mv.hi)})"
    return f"{same}no clear difference ({-mv.hi:+.{digits}f} to {-mv.lo:+.{digits}f})"


def _verdict_words(r: AdviceResult, d: Verdict, i: int, digits: int) -> str | None:
    """:func:`against_words` from the verdict: what an option shown to lose loses, the best, the
    options left; None for an option of the group with the first's equity on every deal (its
    points then speak, paired)."""
    win = r.ranked_by == "equity"
    top = d.top
    f = _fields(r)
    k = len(r.options)
    if i in d.excluded:
        lo, hi = d.loss[i]  # lo 0: shown to lose to an option left, not yet to the best
        if win:
            return f"P(win) {100 * lo:.1f}% to {100 * hi:.1f}% lower" if f"{100 * lo:.1f}" != "0.0" \
                else f"P(win) up to {100 * hi:.1f}% lower"
        return f"loses {lo:.{digits}f} to {hi:.{digits}f} points" if float(f"{lo:.{digits}f}") \
            else f"loses up to {hi:.{digits}f} points"
    if i == top:
        return "the best" if d.kind == "best" else "ranked first"
    if _identical(f, i, top, k):
        return "plays as the best"
    if win and _same_win(f, i, top, k):
        return None
    if d.kind == "equal":
        return f"equal within {100 * d.margin:g}% P(win)" if win else f"equal within {d.margin:g} points"
    lo, hi = d.difference(i, top)
    if win:
        return f"no clear difference ({100 * lo:+.1f}% to {100 * hi:+.1f}%)"
    return f"no clear difference ({lo:+.{digits}f} to {hi:+.{digits}f})"


def _fields(r: AdviceResult) -> dict:
    """The counts of an advice by field."""
    lay = A.advice_layout(len(r.options))
    c = r.counts
    assert c is not None  # every Canasta advice keeps its counts
    return {name: c[lay.slice(name)] for name in lay.names()}


def _same_win(f: dict, i: int, j: int, k: int) -> bool:
    """Options i and j left the same game equity on every deal."""
    return int(f["pair_eq_sq"][_pair_index(min(i, j), max(i, j), k)]) == 0


def _check_precision(samples, target_halfwidth) -> None:
    if target_halfwidth is None:
        return
    if samples is not None:
        raise ValueError("give either samples= or target_halfwidth= (a precision in points), not both")
    if isinstance(target_halfwidth, bool) or not isinstance(target_halfwidth, (int, float, np.number)) \
            or not math.isfinite(target_halfwidth) or target_halfwidth <= 0:
        raise ValueError(f"target_halfwidth={target_halfwidth!r}: give the points to which the best two options' "
                         "margin difference must be known, e.g. 20")
    if target_halfwidth < MIN_ADVICE_HALFWIDTH:
        raise ValueError(f"target_halfwidth={target_halfwidth:g}: a precision finer than {MIN_ADVICE_HALFWIDTH:g} "
                         "point needs more deals than a run can play; give 1 point or more, e.g. 20")


def _check_position(position, rules) -> Position:
    """The position, read again under ``rules`` when they are given and are not its own."""
    if not isinstance(position, Position):
        raise ValueError(f"position={position!r}: give a cardodds.canasta.Position, e.g. "
                         "Position(\"K K 9 9 5 7 Q Jk 3b\", melds=\"us: A A A\", top=\"K\", pile_size=4)")
    if rules is not None and check_rules(rules) != position.rules:
        return replace(position, rules=rules)
    return position


def _sums(f: dict, n: int, by: str, partial: bool) -> Sums:
    """:class:`~cardodds.verdict.Sums` of the ranked figure ``by`` from a run's counts (by field)
    of ``n`` deals: our margin in points, or the game equity after the hand."""
    if by == "equity":
        s, s2 = float(EQUITY_SCALE), float(EQUITY_SCALE) ** 2
        return Sums.of_counts(n, np.asarray(f["equity"], dtype=np.float64) / s,
                              np.asarray(f["equity_sq"], dtype=np.float64) / s2,
                              np.asarray(f["pair_eq"], dtype=np.float64) / s,
                              np.asarray(f["pair_eq_sq"], dtype=np.float64) / s2, partial=partial)
    return Sums.of_counts(n, f["margin"], f["margin_sq"], np.asarray(f["pair"], dtype=np.float64),
                          np.asarray(f["pair_sq"], dtype=np.float64), partial=partial)


class _Tally:
    """The counts of rounds that played a subset of the options (``active``), kept as one run of
    every option would keep them, with the deals behind each option and each pair."""

    def __init__(self, k: int):
        self.k = k
        self.layout = A.advice_layout(k)
        self.counts = self.layout.zeros()
        self.n = np.zeros(k, dtype=np.int64)
        self.n_pair = np.zeros(k * (k - 1) // 2, dtype=np.int64)
        self.deals = 0

    def add(self, counts: np.ndarray, active: np.ndarray, n: int) -> None:
        lay, sub, c = self.layout, A.advice_layout(len(active)), self.counts
        for name in ("margin", "margin_sq", "ahead", "win_game", "equity", "equity_sq"):
            c[lay.slice(name)][active] += counts[sub.slice(name)]
        for name in ("pile_listed", "pile_cards"):
            c[lay.slice(name)] += counts[sub.slice(name)]
        m = len(active)
        for p in range(m):
            for q in range(p + 1, m):
                at = _pair_index(int(active[p]), int(active[q]), self.k)
                src = _pair_index(p, q, m)
                for name in ("pair", "pair_sq", "pair_sign", "pair_win_only", "pair_win_other", "pair_eq",
                             "pair_eq_sq"):
                    c[lay.slice(name).start + at] += counts[sub.slice(name).start + src]
                self.n_pair[at] += n
        self.n[active] += n
        self.deals += n


def _margins(margin) -> dict[str, float]:
    """``margin=`` as the verdict's margin of each ranked figure: points a hand, or
    ``(points a hand, P(we win the game))`` (the game equity's)."""
    pair = tuple(margin) if isinstance(margin, (tuple, list)) else (margin, ADVISE_MARGIN[1])
    ok = len(pair) == 2 and all(not isinstance(x, bool) and isinstance(x, (int, float, np.integer, np.floating))
                                and 0 <= float(x) < math.inf for x in pair)
    if not ok or float(pair[1]) > 1:
        raise ValueError(f"margin={margin!r} must be points a hand >= 0 (e.g. margin={ADVISE_MARGIN[0]:g}), or "
                         f"(points, P(win)) with P(win) in 0..1, e.g. margin=({ADVISE_MARGIN[0]:g}, "
                         f"{ADVISE_MARGIN[1]:g})")
    return {"margin": float(pair[0]), "equity": float(pair[1])}


def _estimates(f: dict, k: int, n, n_pair, by: str, score_given: bool) -> tuple[dict, dict]:
    """The figures of each option over its ``n[i]`` deals, and the paired differences of each
    pair over its ``n_pair`` deals (by :func:`_pair_index`)."""
    figures: dict[str, tuple] = {
        "margin": tuple(_mean(f["margin"][i], f["margin_sq"][i], n[i]) for i in range(k)),
        "ahead": tuple(Estimate.proportion(int(f["ahead"][i]), int(n[i])) for i in range(k))}
    if score_given:
        s = float(EQUITY_SCALE)
        figures["equity"] = tuple(_mean(float(f["equity"][i]) / s, float(f["equity_sq"][i]) / s ** 2, n[i])
                                  for i in range(k))
        figures["win_game"] = tuple(Estimate.proportion(int(f["win_game"][i]), int(n[i])) for i in range(k))
    pairs = {name: tuple(_paired(f, i, j, k, int(n_pair[_pair_index(i, j, k)]), name)
                         for i in range(k) for j in range(i + 1, k))
             for name in (("equity", "margin") if by == "equity" else ("margin",))}
    return figures, pairs


@takes_backend
def advise(position: Position, *, policies=DEFAULT_ADVICE_POLICIES, rules: CanastaRules | None = None,
           samples: int | None = None, target_halfwidth: float | None = None, rng=None, threads: int | None = None,
           margin=ADVISE_MARGIN, budget_seconds: float | None = ADVISE_SECONDS, budget_rounds: int | None = None,
           params: HeuristicParams | None = None, progress: bool = False) -> AdviceResult:
    """Compare the options of one decision of mine (seat 0) in ``position`` (a :class:`Position`:
    what I know, the decision and the options asked about).

    ``policies``: who plays the play-outs, as in :func:`cardodds.canasta.play` (``lookahead``
    too); ``params``: the heuristic players' parameters. ``rules``: by default the position's;
    other rules read the position again under them.

    The verdict (:mod:`cardodds.verdict`, on the ranked figure): without ``samples`` or
    ``target_halfwidth`` the options are played in rounds of fresh deals (64, doubling), an option
    shown to lose stops being played, and the run stops when one option beats every other, when
    the options left are equal within ``margin`` (points a hand, or ``(points, P(win))``:
    default 25 points, 0.01 P(win)), or when no round would end within ``budget_seconds`` (then
    ``budget_rounds=`` the rounds it ran repeats it exactly). The ranked figure: the game equity
    after the hand with a score, else points.
    With ``samples`` deals (or ``target_halfwidth``: until the paired margin difference of the best
    two options by points is known to +- this many points, 95%, at least 1) every option is played
    on all of them, and the same rule judges them in one look (so is a sole option, on 2,000 deals).
    """
    check_run(samples=samples, threads=threads, rng=rng)
    _check_precision(samples, target_halfwidth)
    margins = _margins(margin)
    budget = Budget(ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, budget_seconds=budget_seconds, budget_rounds=budget_rounds)
    pos = _check_position(position, rules)
    rules = pos.rules
    codes, names, user, hp = resolve_policies(policies, params)
    if pos.thrown is not None and smart_arg(codes) is None:
        raise ValueError("thrown: only heuristic2 and lookahead remember the discards, and no seat plays them; "
                         "drop thrown= or give policies='heuristic2'")
    rl = rules.pack()
    opts, labels = pos._opts
    k = len(labels)
    base = pos._packed.base.copy()
    game = np.zeros(A.G_LEN, dtype=np.int64)
    score = pos.score
    etab = np.zeros((0, 0))
    if score is None:
        game[A.G_TARGET] = np.iinfo(np.int64).max // 4  # never reached: no game counted
    else:
        game[[A.G_US, A.G_THEM, A.G_TARGET]] = (score[0], score[1], rules.target)
        etab = equity_grid(rules, game)
        base[T.SA.game:T.SA.game + 2] = score  # the players of the play-outs know it too
    look = 1 if P_LOOKAHEAD in codes else None
    packed = pos._packed

    def args(sub: np.ndarray) -> tuple:
        lay = A.advice_layout(len(sub))
        return (A.PositionArrays(base, packed.unseen, packed.hidden, packed.pile_slots, sub), rl, codes, hp,
                lay.offsets_array(), kernel_policy(user), (game, etab), smart_arg(codes), look)

    chunk = 4 if look else 64
    result = dict(game="canasta", position=pos, options=labels, policies=tuple(names), verb="best:", noun="option",
                  sampled="deal", rules=rules)
    if samples is None and target_halfwidth is None and k > 1:
        return _adaptive(opts, args, score is not None, rng, threads, chunk, progress,
                         (margins, budget), result)
    layout = A.advice_layout(k)

    def fields(c) -> dict:
        return {name: c[layout.slice(name)] for name in layout.names()}

    def halfwidth(c, n) -> float:
        if k < 2 or n < 2:
            return 0.0 if k < 2 else math.inf
        best, rival = _best_and_rival(fields(c), k)
        return 0.0 if rival is None else _paired(fields(c), best, rival, k, n).halfwidth

    size: dict[str, Any] = {"samples": DEFAULT_ADVICE_SAMPLES if samples is None else samples}
    if target_halfwidth is not None:
        size = {"samples": None, "target_halfwidth": float(target_halfwidth), "halfwidth": halfwidth,
                "max_samples": MAX_ADVICE_SAMPLES}
    res = engine.run(A.advise_kernel, args(opts), layout.size, rng=rng, threads=threads, progress=progress,
                     chunk_size=chunk, unit="deal", **size)
    c = res.counts
    n = res.samples
    f = fields(c)
    by = _ranked_by(score is not None)
    figures, pairs = _estimates(f, k, np.full(k, n), np.full(max(len(f["pair"]), 1), n), by, score is not None)
    decision = judge(_sums(f, n, by, res.partial), margin=margins[by], spread=SPREADS[by], unit=VERDICT_UNITS[by],
                     seed=res.seed)
    return AdviceResult(unit=UNITS[by], ranked_by=by, figures=figures, pairs=pairs, decision=decision, counts=c,
                        samples=int(n), seed=res.seed, partial=res.partial, **result)


SPREADS = dict(zip(RANKED_BY, ADVISE_SPREAD))


def _adaptive(opts: np.ndarray, args, score_given: bool, rng, threads, chunk: int, progress: bool, budget,
              result: dict) -> AdviceResult:
    """The options played in rounds until a verdict (:func:`cardodds.verdict.decide`) on the
    ranked figure, which the first round's deals choose (:func:`_ranked_by`)."""
    margins, budget = budget
    k = len(opts)
    tally = _Tally(k)
    ss, _ = as_seed_sequence(rng)
    # compile the kernel first: the time budget counts play, not compiling
    engine.run(A.advise_kernel, args(opts[:2]), A.advice_layout(2).size, samples=1, rng=0, chunk_size=chunk,
               threads=1)
    t0 = time.perf_counter()
    # the first round (decide's own: its seed, its deals, every option), played here to choose the ranked figure
    first = engine.run(A.advise_kernel, args(opts), A.advice_layout(k).size, samples=ADVISE_ROUND_WORLDS,
                       rng=child(ss, 0), chunk_size=chunk, threads=threads, unit="deal")
    lay = A.advice_layout(k)
    by = _ranked_by(score_given)
    pending = [first]

    def play(active: np.ndarray, n: int, round_ss) -> Sums:
        if pending:
            res = pending.pop()
            assert len(active) == k and n == res.samples or res.partial, (active, n)
        else:
            res = engine.run(A.advise_kernel, args(opts[active]), A.advice_layout(len(active)).size, samples=n,
                             rng=round_ss, chunk_size=chunk, threads=threads, unit="deal")
        sub = A.advice_layout(len(active))
        tally.add(res.counts, active, int(res.samples))
        return _sums({name: res.counts[sub.slice(name)] for name in sub.names()}, int(res.samples), by, res.partial)

    if budget.budget_seconds is not None:  # the first round counts
        budget = replace(budget, budget_seconds=max(budget.budget_seconds - (time.perf_counter() - t0), 1e-3))
    decision = decide(play, k, margin=margins[by], rng=ss, budget=budget, spread=SPREADS[by], unit=VERDICT_UNITS[by],
                      progress=progress)
    f = {name: tally.counts[lay.slice(name)] for name in lay.names()}
    figures, pairs = _estimates(f, k, tally.n, tally.n_pair, by, score_given)
    return AdviceResult(unit=UNITS[by], ranked_by=by, figures=figures, pairs=pairs, decision=decision,
                        counts=tally.counts, samples=tally.deals, seed=decision.seed, partial=decision.partial,
                        **result)
