"""The advisor: take the pile or leave it, which card to discard, go out or not, meld or hold.

The position as I (seat 0, side 0 with my partner at seat 2) know it: my hand, the melds of
both sides, the red 3s laid, the pile (every card, or the top card and the size, or a mix of
known cards and unknown ones ``?``), the cards of the other players (how many, and those
known to be there, e.g. taken with the pile and not melded), the cards each player threw,
the table turn and the game score before the hand (checked: :mod:`cardodds.canasta._position`).
Each option is played out to the end of the hand by the named policies (``heuristic2`` at
every seat unless ``policies=`` says otherwise, mine included: the strongest player of the
ladder that answers in time) on the **same** sampled deals: the hidden cards (the rest of the
other hands, the unknown pile cards, the stock) are dealt uniformly over every deal
consistent with the position. For each option: our side's expected margin over theirs in the
hand's score, P(our side ahead at the end of the hand), P(we win the game with this hand)
when ``score=`` is given, and the paired difference to the best. The options are ranked by
what is at stake: P(we win the game) with ``score=`` (where the options differ in it), else
points; the best is named only when every other option's paired difference excludes zero.

>>> a = advise("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K", pile_size=6,
...            counts=(10, 9, 11), decision="discard", samples=40, rng=1)
>>> a.decision, a.ranked_by, len(a.options) > 1
('discard', 'margin', True)
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from .. import engine
from .._validate import check_run
from ..engine import takes_backend
from ..results import Result, counts_field
from ..stats import Estimate
from . import _advise as A
from . import _table as T
from ._defaults import (ADVICE_COUNTS, ADVICE_DECISIONS, ADVICE_RED3, ADVICE_TURN, DEFAULT_ADVICE_POLICIES,
                        DEFAULT_ADVICE_SAMPLES, MAX_ADVICE_SAMPLES, MIN_ADVICE_HALFWIDTH)
from ._policies import P_LOOKAHEAD, smart_arg
from ._position import game_score, options_of, parse_kinds, parse_known, parse_melds, parse_thrown, position
from .policies import HeuristicParams, resolve_policies
from .rules import CanastaRules, check_rules
from .view import kernel_policy

__all__ = ["AdviceResult", "advise", "parse_kinds", "parse_melds", "parse_known", "parse_thrown"]

DECISIONS = ADVICE_DECISIONS
#: What ranks the options (``AdviceResult.ranked_by``): points, or P(we win the game).
RANKED_BY = ("margin", "win_game")


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


@dataclass(frozen=True, repr=False, kw_only=True)
class AdviceResult(Result):
    """Options of one decision played out on the same sampled deals (see :func:`advise`).

    ``ranked_by``: ``"win_game"`` (with ``score=``, where the options differ in it) or
    ``"margin"`` (points). ``versus_best`` is the paired difference best - option in that
    figure (points, or a probability), ``margin_versus_best`` always in points. ``win_game``
    (None without ``score=``) is P(we win the game with this hand): after it our side's game
    total reaches ``rules.target`` and is above theirs; hands after this one are not played,
    so a game this hand does not decide counts as not won."""

    decision: str
    options: tuple          # option names
    margin: tuple           # Estimate per option: our side's score minus theirs, this hand
    ahead: tuple            # Estimate per option: P(our side scores more this hand)
    win_game: tuple | None  # Estimate per option: P(we win the game with this hand); None without score=
    versus_best: tuple      # Estimate per option: paired difference best - option in ranked_by's figure
    margin_versus_best: tuple = ()  # Estimate per option: paired margin difference best - option (points)
    ranked_by: str = "margin"
    best: str | None        # named only when every paired difference excludes zero
    best_option: str = ""   # the option ranked first, named or not
    policies: tuple = ()
    position: dict = field(default_factory=dict)  # the position as it was given
    counts: np.ndarray = counts_field()

    def to_dict(self) -> dict:
        d = self.meta()
        games = self.win_game if self.win_game is not None else (None,) * len(self.options)
        d.update({"game": "canasta", "question": "advise", "decision": self.decision, "ranked_by": self.ranked_by,
                  "best": self.best, "clearly_worse": list(self.clearly_worse()),
                  "policies": list(self.policies), "position": self.position,
                  "options": [{"option": o, "margin": m.to_dict(), "ahead": a.to_dict(),
                               "win_game": None if g is None else g.to_dict(), "versus_best": v.to_dict(),
                               "margin_versus_best": mv.to_dict(), "same_as_best": self.same_as_best(i)}
                              for i, (o, m, a, g, v, mv) in enumerate(zip(
                                  self.options, self.margin, self.ahead, games, self.versus_best,
                                  self.margin_versus_best))]})
        return d

    def to_frame(self):
        import pandas as pd

        games = self.win_game if self.win_game is not None else (None,) * len(self.options)
        return pd.DataFrame([{"option": o, "margin": m.value, "margin_lo": m.lo, "margin_hi": m.hi, "ahead": a.value,
                              "win_game": math.nan if g is None else g.value,
                              "versus_best": v.value, "versus_best_lo": v.lo, "versus_best_hi": v.hi,
                              "margin_versus_best": mv.value}
                             for o, m, a, g, v, mv in zip(self.options, self.margin, self.ahead, games,
                                                          self.versus_best, self.margin_versus_best)])

    def same_as_best(self, i: int) -> bool:
        """Option ``i`` played exactly like the best on every deal (the same choice in other
        words, e.g. melding the third K now or adding it later): not a rival."""
        v = self.margin_versus_best[i]
        return self.options[i] != self.best_option and v.value == 0 and v.se == 0

    def loses(self, i: int) -> bool:
        """Option ``i`` clearly loses against the best: its paired difference in the ranked
        figure excludes zero (or, with P(win) equal on every deal, its points difference does)."""
        if self.options[i] == self.best_option or self.same_as_best(i):
            return False
        v = self.versus_best[i]
        if self.ranked_by == "win_game" and v.value == 0 and v.se == 0:
            v = self.margin_versus_best[i]
        return v.lo > 0

    def clearly_worse(self) -> tuple:
        """The options that clearly lose against the best (all but the best when it is named)."""
        return tuple(o for i, o in enumerate(self.options) if self.loses(i))

    def __repr__(self) -> str:
        by = "P(we win the game this hand)" if self.ranked_by == "win_game" else "points (our margin this hand)"
        lines = [f"Canasta advice ({self.decision}), ranked by {by}; played out by {', '.join(self.policies)}; "
                 f"{self.samples:,} sampled deals, seed {self.seed}"]
        for i, (o, m, a) in enumerate(zip(self.options, self.margin, self.ahead)):
            g = f"  P(win the game) {self.win_game[i].format(percent=True)}" if self.win_game is not None else ""
            lines.append(f"  {o}: margin {m.format(1)} points  P(our side ahead) {a.format(percent=True)}{g}"
                         f"  {against_words(self, i)}")
        lines.append(verdict_words(self))
        return "\n".join(lines)


def against_words(r: AdviceResult, i: int, digits: int = 0) -> str:
    """Option ``i`` against the best, in words: "the best", "plays as the best", "loses 52 points
    (20 to 84)", "P(win) 7.0% lower (4.1% to 9.9%)", "no clear difference (-47 to +13)" (this
    option minus the best, in points or in P(win))."""
    if r.options[i] == r.best_option:
        return "the best" if r.best else "ranked first"
    if r.same_as_best(i):
        return "plays as the best"
    v, mv = r.versus_best[i], r.margin_versus_best[i]

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


def verdict_words(r: AdviceResult) -> str:
    """The verdict: the best, or that none is best at this precision and which clearly lose."""
    if r.best:
        return f"best: {r.best}"
    worse = r.clearly_worse()
    text = "no option is best at this precision"
    return text + (": " + "; ".join(worse) + " clearly lose" + ("s" if len(worse) == 1 else "") if worse else "")


def _echo(**given) -> dict:
    """The position in the words it was given (JSON-ready: tuples as lists, seat keys as text)."""
    out = {}
    for k, v in given.items():
        if isinstance(v, dict):
            v = {str(s): (c if isinstance(c, str) else list(c)) for s, c in v.items()}
        elif isinstance(v, (tuple, list, np.ndarray)):
            v = [x.item() if isinstance(x, np.generic) else x for x in v]
        elif isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out


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


@takes_backend
def advise(hand, *, melds: str | None = None, pile=None, pile_size: int | None = None, top=None,
           counts=ADVICE_COUNTS, red3=ADVICE_RED3, known=None, thrown=None, decision: str = "discard",
           rules: CanastaRules | None = None, turn: int | None = ADVICE_TURN, score=None, options=None,
           policies=DEFAULT_ADVICE_POLICIES, samples: int | None = None, target_halfwidth: float | None = None,
           rng=None, threads: int | None = None, params: HeuristicParams | None = None,
           progress: bool = False) -> AdviceResult:
    """Compare the options of one decision of mine (seat 0).

    ``decision``: ``"take"`` (each way of taking the pile, or leave it), ``"discard"``,
    ``"out"`` (each move that goes out now, or stay in), ``"meld"`` (each new meld, or hold).
    ``hand``: my cards after my draw (``Kh`` is that card, ``K`` any king). ``melds``: ``"us: K
    K K 2; them: 9 9 9"``. ``pile``: bottom to top, ``?`` unknown (``"5 7 ? ? K"``);
    ``pile_size`` when fewer are listed (the rest unknown, underneath); ``top``: the top card.
    ``counts``: cards of seats 1 (left), 2 (partner), 3 (right); ``known``: cards known there,
    ``{1: "K K 9"}``; ``thrown``: cards each seat discarded this hand (0 me), which heuristic2
    remembers. ``red3``: red 3s laid (us, them). ``turn``: table turns before mine (checked
    against the cards out). ``score``: the game score before the hand (us, them): the options
    are then ranked by P(we win the game). ``options``: only these (names as printed, or a
    discard's card). ``policies``: who plays the play-outs, as in :func:`cardodds.canasta.play`
    (``lookahead`` too). ``target_halfwidth``: run until the paired margin difference of the
    best two options by points is known to +- this many points (95%; at least 1).
    """
    rules = check_rules(rules)
    if decision not in DECISIONS:
        raise ValueError(f"decision={decision!r} is unknown; choose " + ", ".join(repr(d) for d in DECISIONS))
    check_run(samples=samples, threads=threads, rng=rng)
    _check_precision(samples, target_halfwidth)
    score_given = score
    score = game_score(score, rules)
    codes, names, user, hp = resolve_policies(policies, params)
    if thrown is not None and smart_arg(codes) is None:
        raise ValueError("thrown: only heuristic2 and lookahead remember the discards, and no seat plays them; "
                         "drop thrown= or give policies='heuristic2'")
    pos = position(hand, melds=melds, pile=pile, pile_size=pile_size, top=top, counts=counts, red3=red3,
                   known=known, thrown=thrown, turn=turn, decision=decision, rules=rules)
    rl = rules.pack()
    opts, labels = options_of(pos.base, rl, decision, options)
    k = len(labels)
    layout = A.advice_layout(k)
    game = np.zeros(3, dtype=np.int64)
    if score is None:
        game[A.G_TARGET] = np.iinfo(np.int64).max // 4  # never reached: no game counted
    else:
        game[[A.G_US, A.G_THEM, A.G_TARGET]] = (score[0], score[1], rules.target)
        pos.base[T.SA.game:T.SA.game + 2] = score  # the players of the play-outs know it too

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
    arrays = A.PositionArrays(pos.base, pos.unseen, pos.hidden, pos.pile_slots, opts)
    res = engine.run(A.advise_kernel, (arrays, rl, codes, hp, layout.offsets_array(), kernel_policy(user), game,
                                       smart_arg(codes), look),
                     layout.size, rng=rng, threads=threads, progress=progress, chunk_size=4 if look else 64,
                     unit="deal", **size)
    c = res.counts
    n = res.samples
    f = fields(c)
    by = _ranked_by(f, score is not None)
    margin = tuple(_mean(f["margin"][i], f["margin_sq"][i], n) for i in range(k))
    ahead = tuple(Estimate.proportion(int(f["ahead"][i]), n) for i in range(k))
    win_game = None if score is None else tuple(Estimate.proportion(int(f["win_game"][i]), n) for i in range(k))
    best_i = _best_and_rival(f, k, by)[0]
    vs = tuple(_paired(f, best_i, j, k, n, by) for j in range(k))
    mvs = tuple(_paired(f, best_i, j, k, n) for j in range(k))
    echo = _echo(hand=hand, melds=melds, pile=pile, pile_size=pile_size, top=top, counts=counts, red3=red3,
                 known=known, thrown=thrown, turn=turn, score=score_given, decision=decision, options=options)
    out = AdviceResult(decision=decision, options=tuple(labels), margin=margin, ahead=ahead, win_game=win_game,
                       versus_best=vs, margin_versus_best=mvs, ranked_by=by, best=None, best_option=labels[best_i],
                       policies=names, position=echo, counts=c, rules=rules, samples=int(n), seed=res.seed,
                       partial=res.partial)
    rivals = [j for j in range(k) if j != best_i and not out.same_as_best(j)]
    clear = bool(rivals) and all(out.loses(j) for j in rivals)
    return replace(out, best=labels[best_i] if clear else None)
