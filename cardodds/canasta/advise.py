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
the hand's score; ``ahead``, P(our side ahead at the end of the hand); ``win_game``, P(we win
the game with this hand) when the position has a ``score``. The options are ranked by what is
at stake: P(we win the game) with a score (where the options differ in it, points breaking its
ties), else points; the best is named only when every other option's paired difference
excludes zero.

>>> p = Position("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K", pile_size=6,
...              counts=(10, 9, 11), decision="discard")
>>> a = advise(p, samples=40, rng=1)
>>> a.position.decision, a.ranked_by, len(a.options) > 1
('discard', 'margin', True)
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np

from .. import engine
from .._validate import check_run
from ..advice import AdviceResult
from ..engine import takes_backend
from ..stats import Estimate
from . import _advise as A
from . import _table as T
from ._defaults import (ADVICE_DECISIONS, DEFAULT_ADVICE_POLICIES, DEFAULT_ADVICE_SAMPLES, MAX_ADVICE_SAMPLES,
                        MIN_ADVICE_HALFWIDTH)
from ._policies import P_LOOKAHEAD, smart_arg
from ._position import parse_kinds, parse_known, parse_melds, parse_thrown
from .policies import HeuristicParams, resolve_policies
from .position import Position
from .rules import CanastaRules, check_rules
from .view import kernel_policy

__all__ = ["advise", "against_words", "parse_kinds", "parse_melds", "parse_known", "parse_thrown"]

DECISIONS = ADVICE_DECISIONS
#: What ranks the options (``AdviceResult.ranked_by``): points, or P(we win the game); and the unit of each.
RANKED_BY = ("margin", "win_game")
UNITS = {"margin": "points (our side's margin this hand)", "win_game": "P(we win the game with this hand)"}


def _mean(total, total_sq, n) -> Estimate:
    return Estimate.mean(float(total), float(total_sq), int(n))


def _pair_index(a: int, b: int, k: int) -> int:
    """Where pair ``a < b`` of ``k`` options sits in the counts' pair fields."""
    return a * k - a * (a + 1) // 2 + (b - a - 1)


def _paired(f: dict, i: int, j: int, k: int, n: int, by: str = "margin") -> Estimate:
    """Paired estimate of option i's figure minus option j's over the same deals: the margin
    (points) or, ``by="win_game"``, P(we win the game)."""
    if i == j:
        return Estimate(0.0, 0.0, 0.0, 0.0, n)
    a, b, sign = (i, j, 1) if i < j else (j, i, -1)
    q = _pair_index(a, b, k)
    if by == "win_game":
        only, other = int(f["pair_win_only"][q]), int(f["pair_win_other"][q])
        return _mean(only - other, only + other, n).scaled(sign)
    return _mean(f["pair"][q], f["pair_sq"][q], n).scaled(sign)


def _identical(f: dict, i: int, j: int, k: int) -> bool:
    """Options i and j played exactly alike on every deal (the same move in other words)."""
    return i != j and f["pair_sq"][_pair_index(min(i, j), max(i, j), k)] == 0


def _ranked_by(f: dict, score_given: bool) -> str:
    """P(we win the game) ranks the options when the score is given and they differ in it on
    some deal; else points."""
    differ = int(np.sum(f["pair_win_only"])) + int(np.sum(f["pair_win_other"])) > 0
    return "win_game" if score_given and differ else "margin"


def _best_and_rival(f: dict, k: int, by: str = "margin") -> tuple[int, int | None]:
    """The option with the highest figure (P(win) first with ``by="win_game"``, then the mean
    margin), and the best of the others that did not play exactly like it on every deal (None
    if every other did)."""
    margin = np.asarray(f["margin"], dtype=float)
    keys = (-margin,) if by == "margin" else (-margin, -np.asarray(f["win_game"], dtype=float))
    order = [int(i) for i in np.lexsort(keys)]
    best = order[0]
    for j in order[1:]:
        if not _identical(f, best, j, k):
            return best, j
    return best, None


def against_words(r: AdviceResult, i: int, digits: int = 0) -> str:
    """Option ``i`` against the option ranked first, in words: "the best", "plays as the best",
    "loses 52 points (20 to 84)", "P(win) 7.0% lower (4.1% to 9.9%)", "no clear difference (-47 to
    +13)" (this option minus the first, in points or in P(win))."""
    b = r.best_index
    if i == b:
        return "the best" if r.best else "ranked first"
    if r.same_as_best(i):
        return "plays as the best"
    v, mv = r.versus_best[i], r.difference(b, i, "margin")

    def pts(x: float) -> str:
        return f"{x:.{digits}f}"

    if r.ranked_by == "win_game" and not (v.value == 0 and v.se == 0):
        if v.lo > 0:
            return f"P(win) {100 * v.value:.1f}% lower ({100 * v.lo:.1f}% to {100 * v.hi:.1f}%)"
        return f"no clear difference ({-100 * v.hi:+.1f}% to {-100 * v.lo:+.1f}%)"
    same = "same P(win); " if r.ranked_by == "win_game" else ""
    if mv.lo > 0:
        return f"{same}loses {pts(mv.value)} points ({pts(mv.lo)} to {pts(mv.hi)})"
    return f"{same}no clear difference ({-mv.hi:+.{digits}f} to {-mv.lo:+.{digits}f})"


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


@takes_backend
def advise(position: Position, *, policies=DEFAULT_ADVICE_POLICIES, rules: CanastaRules | None = None,
           samples: int | None = None, target_halfwidth: float | None = None, rng=None, threads: int | None = None,
           params: HeuristicParams | None = None, progress: bool = False) -> AdviceResult:
    """Compare the options of one decision of mine (seat 0) in ``position`` (a :class:`Position`:
    what I know, the decision and the options asked about).

    ``policies``: who plays the play-outs, as in :func:`cardodds.canasta.play` (``lookahead``
    too); ``params``: the heuristic players' parameters. ``rules``: by default the position's;
    other rules read the position again under them. ``samples`` deals (default 2,000) or
    ``target_halfwidth``: run until the paired margin difference of the best two options by
    points is known to +- this many points (95%; at least 1).
    """
    check_run(samples=samples, threads=threads, rng=rng)
    _check_precision(samples, target_halfwidth)
    pos = _check_position(position, rules)
    rules = pos.rules
    codes, names, user, hp = resolve_policies(policies, params)
    if pos.thrown is not None and smart_arg(codes) is None:
        raise ValueError("thrown: only heuristic2 and lookahead remember the discards, and no seat plays them; "
                         "drop thrown= or give policies='heuristic2'")
    rl = rules.pack()
    opts, labels = pos._opts
    k = len(labels)
    layout = A.advice_layout(k)
    base = pos._packed.base.copy()
    game = np.zeros(3, dtype=np.int64)
    score = pos.score
    if score is None:
        game[A.G_TARGET] = np.iinfo(np.int64).max // 4  # never reached: no game counted
    else:
        game[[A.G_US, A.G_THEM, A.G_TARGET]] = (score[0], score[1], rules.target)
        base[T.SA.game:T.SA.game + 2] = score  # the players of the play-outs know it too

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
    look = 1 if P_LOOKAHEAD in codes else None
    packed = pos._packed
    arrays = A.PositionArrays(base, packed.unseen, packed.hidden, packed.pile_slots, opts)
    res = engine.run(A.advise_kernel, (arrays, rl, codes, hp, layout.offsets_array(), kernel_policy(user), game,
                                       smart_arg(codes), look),
                     layout.size, rng=rng, threads=threads, progress=progress, chunk_size=4 if look else 64,
                     unit="deal", **size)
    c = res.counts
    n = res.samples
    f = fields(c)
    by = _ranked_by(f, score is not None)
    figures: dict[str, tuple] = {
        "margin": tuple(_mean(f["margin"][i], f["margin_sq"][i], n) for i in range(k)),
        "ahead": tuple(Estimate.proportion(int(f["ahead"][i]), n) for i in range(k))}
    if score is not None:
        figures["win_game"] = tuple(Estimate.proportion(int(f["win_game"][i]), n) for i in range(k))
    pairs = {name: tuple(_paired(f, i, j, k, n, name) for i in range(k) for j in range(i + 1, k))
             for name in (("win_game", "margin") if by == "win_game" else ("margin",))}
    return AdviceResult(game="canasta", position=pos, options=labels, unit=UNITS[by], ranked_by=by, figures=figures,
                        pairs=pairs, policies=tuple(names), verb="best:", noun="option", sampled="deal", counts=c,
                        rules=rules, samples=int(n), seed=res.seed, partial=res.partial)
