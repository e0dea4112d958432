"""Kanalje in the middle of a deal: which card should I play now, and what does each cost me?

:func:`advise` takes a three-player :class:`Position` as I know it (my seat, my cards now, the
turned card and every trick played so far), deals the cards I have not seen to the other two players
uniformly over every deal consistent with what I saw (the cards played, the turned card, and
the voids shown: a player who did not follow the led suit holds none of it), plays each of my
legal cards on the same worlds, and the deal out from there by the named policies (mine
included, for my later cards). For each card: my expected points for the whole deal (tricks
and jacks already taken included), tricks, penalty, the chance that I take each jack still
out, and the paired difference to the best card. The best card is named only when every
other card's difference to it excludes zero.

Two players (``rules=KanaljeRules(players=2)``, docs/rules/kanalje.md §4): in phase 1 the position names
every face-up stock card so far (``faceup``: one per trick played and the one face up now), and
the opponent's cards other than the face-up ones it took and the stock under the face-up card
are redealt at random (phase 1 has no duty to follow, so no voids); in phase 2 it names the dead
card that named trump (``trump``) and the phase-2 tricks, and the opponent's hand is dealt from
the cards I have not seen consistently with the voids it showed, the rest lying dead in the
phase-1 tricks (see ``docs/kanalje-advise.md``; the position is checked in :mod:`._position`).

>>> p = Position(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d", turned="Td",
...              played="0: Kh 3h")
>>> r = advise(p, policies="heuristic", samples=1_000, rng=2)
>>> r.options                   # the legal cards: I must follow hearts
('2h', 'Ah')
>>> r.best                      # the ace takes the trick; the paired difference excludes zero
'Ah'
>>> round(r.versus_best[0].value, 2), r.figures["takes J of hearts"][1].format(2)
(0.31, '0.69 [0.66, 0.72]')
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from .._validate import check_run
from ..advice import AdviceResult, tallied_pairs
from ..verdict import Budget, Sums, Verdict, decide, judge
from ..cards import SUIT_NAMES
from ..engine import run, takes_backend
from ..stats import Z95, Estimate
from . import _advise as KA
from ._advise import ADVICE, MAX_OPTIONS, PAIRS, pair_index
from ._common import JACK_ORDER
from ._defaults import (ADVISE_MARGIN, ADVISE_POLICIES, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, ADVISE_SAMPLES,
                        ADVISE_SECONDS, ADVISE_SPREAD, EQUITY_MARGIN, EQUITY_SPREAD)
from ._policies import calls
from .policies import POLICIES, resolve_policies
from ._position import PHASE1
from ._position import observations as _observations
from .position import Position
from .rules import KanaljeRules, check_rules
from .view import compile_policy

__all__ = ["AdviceResult", "Position", "advise", "cost_words", "jacks", "players_words"]

#: Worlds an advice samples unless told otherwise: about a second with heuristic players
#: (every legal card played out on each), and with a look-ahead or user player in the lineup.
#: Worlds per chunk: fixed by the lineup alone, so the same seed gives the same figures on
#: any number of threads.
_CHUNK = 1024
_CHUNK_SLOW = 4
#: The most worlds a precision-targeted run with inference deals (a position whose plays no
#: world reproduces under the policies named would otherwise never reach its target).
MAX_INFER_WORLDS = 1_000_000
#: The most worlds a precision-targeted run deals, with heuristic or random players alone and
#: with a look-ahead, pimc or user player (minutes to an hour on two cores); a precision finer
#: than such a run gives a difference spread by one point a world is refused before the run.
MAX_WORLDS = (100_000_000, 100_000)
_FAST = (POLICIES["random"], POLICIES["heuristic"])


# ---- the result ---------------------------------------------------------------------------
#: The figures of a Kanalje advice besides the jacks (``takes J of SUIT``, one a jack still out).
FIGURES = ("score", "tricks", "penalty")
UNIT = "points a deal"
#: What ranks the cards (``AdviceResult.ranked_by``): my points for the deal, or with the game's
#: score given my P(win the game) after it (``equity``); each one's unit, the verdict's unit,
#: its default margin and its spread (the largest difference two cards usually show on a world).
RANKED_BY = ("score", "equity")
UNITS = {"score": UNIT, "equity": "P(I win the game) after the deal"}
VERDICT_UNITS = {"score": "points", "equity": "P(win)"}
MARGINS = {"score": ADVISE_MARGIN, "equity": EQUITY_MARGIN}
SPREADS = {"score": ADVISE_SPREAD, "equity": EQUITY_SPREAD}
#: A figure's pair differences in :data:`~._advise.ADVICE`, and its integer steps a unit.
_PAIR = {"score": "pair", "equity": "pair_equity"}
_SCALE = {"score": 1, "equity": KA.EQUITY_SCALE}


def cost_words(r: AdviceResult, i: int, digits: int = 2) -> str:
    """Option ``i`` against the card ranked first, in words: "loses 0.42 [0.30, 0.54] points a
    deal" when the paired interval excludes zero, else "no difference at this precision (...)";
    with a verdict, the simultaneous interval of what a card shown to lose loses, and the cards
    left "best", "equal" or "in the running"."""
    d = r.decision
    what = "points a deal" if r.ranked_by == "score" else "P(win)"
    if d is not None and len(r.options) > 1:
        if i in d.excluded:
            lo, hi = d.loss[i]
            if r.ranked_by == "equity":
                return f"loses {lo:.{digits + 1}f} to {hi:.{digits + 1}f} P(win)"
            return f"loses {lo:.{digits}f} to {hi:.{digits}f} points a deal"
        if d.kind == "best":
            return "best" if i == d.top else "the same by the rules"
        if d.kind == "equal":
            return f"equal within {d.margin:g}"
        return "highest mean" if i == d.top else f"in the running ({r.versus_best[i].format(digits, sign=True)})"
    v = r.versus_best[i]
    if i == r.best_index:
        return "best" if r.best is not None else "highest mean"
    if r.same_as_best(i):
        return "the same on every world"
    if v.lo > 0:
        return f"loses {v.format(digits)} {what}"
    return f"no difference at this precision (loses {v.format(digits, sign=True)})"


def jacks(r: AdviceResult) -> tuple[dict[str, Estimate], ...]:
    """P(I take the jack), per option, for each jack still out (keyed by suit name)."""
    names = [s for s in JACK_ORDER if f"takes J of {s}" in r.figures]
    return tuple({s: r.figures[f"takes J of {s}"][i] for s in names} for i in range(len(r.options)))


def _sums(counts, k: int, partial: bool, by: str = "score") -> Sums:
    """:class:`~cardodds.verdict.Sums` of the figure ``by`` (my points for the deal, or my equity
    after it), from a run's counts of ``k`` options."""
    v = ADVICE.view(counts)
    c = float(_SCALE[by])
    x = getattr(v, by).reshape(4, MAX_OPTIONS) / np.array([[c], [c * c], [c], [c * c]])
    pair = getattr(v, _PAIR[by]).reshape(4, PAIRS) / np.array([[c], [c * c], [c], [c * c]])
    return Sums.of_counts(int(v.deals), x[0, :k], x[1, :k], pair[0], pair[1], pair_index, partial)


class _Tally:
    """The counts of rounds that played a subset of the options (``active``), kept as one run of
    every option would keep them, with the worlds behind each option and each pair."""

    def __init__(self, k: int):
        self.counts = ADVICE.zeros()
        self.n = np.zeros(k, dtype=np.int64)
        self.n_pair = np.zeros(PAIRS, dtype=np.int64)

    def add(self, counts: np.ndarray, active: np.ndarray) -> None:
        c, n = self.counts, int(ADVICE.view(counts).deals)
        for name in ("deals", "dealt", "weight", "weight_sq", "violations"):
            c[ADVICE.slice(name)] += counts[ADVICE.slice(name)]
        for name, rows in (("score", 4), ("tricks", 4), ("penalty", 4), ("jack", 2), ("equity", 4)):
            full = c[ADVICE.slice(name)].reshape(rows, MAX_OPTIONS, -1)
            full[:, active] += counts[ADVICE.slice(name)].reshape(rows, MAX_OPTIONS, -1)[:, :len(active)]
        for name in ("pair", "pair_equity"):
            pairs = c[ADVICE.slice(name)].reshape(4, PAIRS)
            sub = counts[ADVICE.slice(name)].reshape(4, PAIRS)
            for p in range(len(active)):
                for q in range(p + 1, len(active)):
                    pairs[:, pair_index(int(active[p]), int(active[q]))] += sub[:, pair_index(p, q)]
        for p in range(len(active)):
            for q in range(p + 1, len(active)):
                self.n_pair[pair_index(int(active[p]), int(active[q]))] += n
        self.n[active] += n


def _tallied(pos: Position, t: _Tally, decision: Verdict) -> tuple[dict, dict]:
    """The figures and the paired differences (the ranked figure's, then the score's) of an adaptive
    run: each option's over the worlds it was played on (an option equal to another by the rules:
    that one's)."""
    k = len(pos._known.options)
    same = decision.same
    v = ADVICE.view(t.counts)
    figures: dict[str, tuple] = {}
    by = _by(pos)
    for name in (("equity",) if by == "equity" else ()) + FIGURES:
        c = float(_SCALE.get(name, 1))
        f = getattr(v, name).reshape(4, MAX_OPTIONS)
        figures[name] = tuple(Estimate.mean(float(f[0, same[i]]) / c, float(f[1, same[i]]) / (c * c),
                                            int(t.n[same[i]])) for i in range(k))
    j = v.jack.reshape(2, MAX_OPTIONS, 4)
    for name in JACK_ORDER:
        s = SUIT_NAMES.index(name)
        if s in pos.jacks_out:
            figures[f"takes J of {name}"] = tuple(Estimate.proportion(int(j[0, same[i], s]), int(t.n[same[i]]))
                                                  for i in range(k))
    def pair_of(name: str):
        c = float(_SCALE[name])
        f = getattr(v, _PAIR[name]).reshape(4, PAIRS)

        def estimate(at: int) -> Estimate:
            return Estimate.mean(float(f[0, at]) / c, float(f[1, at]) / (c * c), int(t.n_pair[at]))
        return tallied_pairs(same, t.n, estimate, pair_index)
    pairs = {name: pair_of(name) for name in ((by, "score") if by != "score" else ("score",))}
    return figures, pairs


def _by(pos: Position) -> str:
    """The figure that ranks the cards: equity when the game's score is given, else points."""
    return "score" if pos.score is None else "equity"


def _stake(pos: Position):
    """The kernel's ``stake`` (:data:`~._advise.Stake`) of a position with a score, else None."""
    if pos.score is None:
        return None
    from .equity import table

    t = table(pos.rules)
    return KA.Stake(np.array(pos.score, dtype=np.int64), np.array([t.lo, t.size, t.target], dtype=np.int64),
                    np.ascontiguousarray(t.value, dtype=np.float64))


def _result(pos: Position, counts, names, rules, res, decision: Verdict | None = None) -> AdviceResult:
    """The core :class:`~cardodds.advice.AdviceResult` of a run's counts."""
    k = len(pos._known.options)
    infer = pos.infer
    v = ADVICE.view(counts)
    by = _by(pos)
    figures: dict[str, tuple] = {}
    if by == "equity":
        figures["equity"] = _figures(v, "equity", MAX_OPTIONS, range(k), infer, KA.EQUITY_SCALE)
    figures.update({name: _figures(v, name, MAX_OPTIONS, range(k), infer) for name in FIGURES})
    j = v.jack.reshape(2, MAX_OPTIONS, 4)

    def p(i, s):
        if not infer:
            return Estimate.proportion(int(j[0, i, s]), int(v.deals))
        x, x2 = float(j[0, i, s]), float(j[1, i, s])
        e = _weighted(x, x, x2, x2, float(v.weight), float(v.weight_sq))
        return Estimate(e.value, e.se, max(e.lo, 0.0), min(e.hi, 1.0), e.n)
    for name in JACK_ORDER:
        s = SUIT_NAMES.index(name)
        if s in pos.jacks_out:
            figures[f"takes J of {name}"] = tuple(p(i, s) for i in range(k))
    at = [pair_index(a, b) for a in range(k) for b in range(a + 1, k)]
    pairs = {name: _figures(v, _PAIR[name], PAIRS, at, infer, _SCALE[name])
             for name in ((by, "score") if by != "score" else ("score",))}
    return AdviceResult(game="kanalje", position=pos, options=pos.options, unit=UNITS[by], ranked_by=by,
                        figures=figures, pairs=pairs, policies=tuple(names), verb="play", noun="legal card",
                        sampled="world", effective_samples=_effective(v, infer), violations=int(v.violations),
                        decision=decision, counts=counts,
                        rules=rules, samples=res.samples, seed=res.seed, partial=res.partial)


def players_words(names, lookahead_samples: int) -> str:
    """Who plays the worlds out, in words: ``"lookahead at every seat, 16 worlds a decision"``."""
    names = list(names)
    who = f"{names[0]} at every seat" if len(set(names)) == 1 else ", ".join(
        f"seat {s} {n}" for s, n in enumerate(names))
    return who + (f", {lookahead_samples} worlds a decision" if {"lookahead", "pimc"} & set(names) else "")


# ---- the run ------------------------------------------------------------------------------
def _weighted(swx: float, swx2: float, sw2x: float, sw2x2: float, sw: float, sw2: float) -> Estimate:
    """A weighted mean from the sums of ``w x``, ``w x²``, ``w² x``, ``w² x²``, ``w``, ``w²`` (the
    ratio estimator: its standard error by the delta method, with the effective sample size
    (sum w)² / (sum w²) in place of n)."""
    if sw <= 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, 0)
    m = swx / sw
    ess = sw * sw / sw2
    if ess <= 1.0 + 1e-12:
        return Estimate(m, math.inf, -math.inf, math.inf, 1)
    var = max(sw2x2 - 2 * m * sw2x + m * m * sw2, 0.0) / (sw * sw) * ess / (ess - 1)
    se = math.sqrt(var)
    return Estimate(m, se, m - Z95 * se, m + Z95 * se, int(round(ess)))


def _figures(v, name: str, size: int, entries, infer: bool, scale: int = 1) -> tuple[Estimate, ...]:
    """Entries of a figure of :data:`~._advise.ADVICE` (``v`` a view of the counts): means,
    weighted with inference (``scale``: the figure's integer steps a unit)."""
    c = float(scale)
    f = getattr(v, name).reshape(4, size) / np.array([[c], [c * c], [c], [c * c]])
    if not infer:
        n = int(v.deals)
        return tuple(Estimate.mean(float(f[0, i]), float(f[1, i]), n) for i in entries)
    w, w2 = float(v.weight), float(v.weight_sq)
    return tuple(_weighted(float(f[0, i]), float(f[1, i]), float(f[2, i]), float(f[3, i]), w, w2) for i in entries)


def _figure(counts, name: str, size: int, i: int, infer: bool, scale: int = 1) -> Estimate:
    """Entry ``i`` of a figure of :data:`~._advise.ADVICE`: a mean, weighted with inference."""
    return _figures(ADVICE.view(counts), name, size, (i,), infer, scale)[0]


def _effective(v, infer: bool) -> float:
    """The worlds the figures rest on (``v`` a view of the counts): every world counted, or with
    inference the effective sample size of the weighting, (sum of weights)² / (sum of squared weights)."""
    if not infer:
        return int(v.deals)
    return float(v.weight) ** 2 / float(v.weight_sq) if v.weight_sq > 0 else 0.0


def _halfwidth(k: int, infer: bool, by: str = "score"):
    """The 95% half-width of the paired difference between the two best options (in ``by``)."""
    def hw(counts, n):
        if k < 2:
            return 0.0
        scores = [_figure(counts, by, MAX_OPTIONS, i, infer, _SCALE[by]).value for i in range(k)]
        order = np.argsort(-np.nan_to_num(np.array(scores), nan=-np.inf), kind="stable")
        i, j = sorted(int(x) for x in order[:2])
        return _figure(counts, _PAIR[by], PAIRS, pair_index(i, j), infer, _SCALE[by]).halfwidth
    return hw


def _check_reachable(target_halfwidth: float | None, cap: int, fast: bool) -> None:
    """Refuse a precision no run of ``cap`` worlds reaches on a difference that varies by one
    point a world (a card's points differ by whole tricks and jacks from another's)."""
    if target_halfwidth is None:
        return
    finest = Z95 / math.sqrt(cap)
    if target_halfwidth < finest:
        need = (Z95 / target_halfwidth) ** 2
        who = "of heuristic or random players" if fast else "with a search or user player"
        raise ValueError(f"precision {target_halfwidth:g} points needs about {need:,.0f} worlds (cards a point apart "
                         f"each world); a run {who} deals at most {cap:,}: ask for "
                         f"{math.ceil(finest * 10_000) / 10_000:g} or more")


@takes_backend
def advise(position: Position, *, policies=ADVISE_POLICIES, rules: KanaljeRules | None = None,
           samples: int | None = None, target_halfwidth: float | None = None, rng=None, threads: int | None = None,
           margin: float | None = None, budget_seconds: float | None = ADVISE_SECONDS,
           budget_rounds: int | None = None, progress: bool = False) -> AdviceResult:
    """Which card should I play now? Each legal card of ``position`` (a :class:`Position`)
    played out on the same worlds, the unseen cards dealt uniformly over every deal consistent
    with what I saw; with the game's score (``Position(score=...)``) ranked by my P(win the game)
    after the deal (``equity``), my points beside (``ranked_by`` says which). ``policies``: who
    plays the deal out (default ``lookahead`` at every seat). Without ``samples`` or
    ``target_halfwidth`` the cards are played in rounds until one beats every other, those left
    are equal within ``margin`` (default :data:`MARGINS`), or ``budget_seconds`` ends
    (``budget_rounds``: rounds instead, the same on any machine): :mod:`cardodds.verdict`. With
    ``samples``, one look at that many worlds.

    >>> p = Position(seat=1, hand="Kc 7c 4s", turned="Qc", played="0: 2h 7h Qh; 2: Ad 6d Qd; 2: Kd 4d 9d; "
    ...              "2: Td Jh 8d; 2: 2d Js 5d; 1: Ah Kh Th; 1: 9h 5h 8h; 1: As 5s Ts; 1: Ks 2s 9s; 1: Qs Jd 8s; "
    ...              "1: 3s 7d 5c; 0: 6h 7s 4h; 0: 3h 6s 2c; 2: 3d Ac Jc; 0: 8c")
    >>> r = advise(p, policies="random", samples=1_000, rng=2)
    >>> r.options, r.best                       # 8c led: follow with the king or the seven
    (('7c', 'Kc'), 'Kc')
    >>> r.value[0].format(2)                    # the 7c loses this trick, my Kc takes a later one
    '3.00 [3.00, 3.00]'
    """
    if not isinstance(position, Position):
        raise ValueError(f"position={position!r} must be a kanalje.Position, e.g. Position(seat=0, hand=\"Ah 7c 2d "
                         "...\", turned=\"7h\")")
    if rules is not None and check_rules(rules) != position.rules:
        position = replace(position, rules=rules)
    rules = position.rules
    threads = check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    names, cards, args, chunk, fast, heuristic = _plan(position, policies)
    pos, infer = position._known, position.infer
    same = KA.interchangeable(pos.table, pos.seat, cards)
    by = _by(position)
    margin = MARGINS[by] if margin is None else margin
    budget = Budget(ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, budget_seconds=budget_seconds, budget_rounds=budget_rounds)
    if samples is None and target_halfwidth is None and not infer and len(set(same.tolist())) > 1:
        return _adaptive(position, cards, same, args, names, rules, chunk, rng, threads, progress, (margin, budget))
    if samples is None and target_halfwidth is None:
        samples = ADVISE_SAMPLES[0] if fast else ADVISE_SAMPLES[1]
    cap = min(MAX_WORLDS[0] if fast else MAX_WORLDS[1], MAX_INFER_WORLDS if infer else MAX_WORLDS[0])
    if by == "score":
        _check_reachable(target_halfwidth, cap, fast)
    copies = same if heuristic else np.arange(len(cards), dtype=np.int64)
    res = run(KA.advise_kernel, args(cards, copies), ADVICE.size, samples=samples, target_halfwidth=target_halfwidth,
              halfwidth=_halfwidth(len(pos.options), infer, by), rng=rng, chunk_size=chunk,
              threads=threads, progress=progress, unit="world",
              max_samples=cap)
    decision = None if infer else judge(_sums(res.counts, len(cards), res.partial, by), margin=_margin(margin, by),
                                        same=same, spread=SPREADS[by], unit=VERDICT_UNITS[by], seed=res.seed)
    return _result(position, res.counts, names, rules, res, decision)


def _plan(position: Position, policies):
    """The lineup's names, my legal cards, the kernel's arguments for a subset of them
    (``args(sub, copies)``), the chunk size, and whether the lineup is fast (no search) and
    heuristic alone."""
    rules = position.rules
    codes, names, user = resolve_policies(policies, rules.players)
    pos, infer = position._known, position.infer
    if infer and any(codes[s] not in _FAST for s in range(rules.players) if s != pos.seat):
        raise ValueError("infer=True weighs the other seats' plays by their policies' likelihood, which only random "
                         "and heuristic have here; give those for the other seats")
    fast = all(c in _FAST for c in codes)
    heuristic = all(c == POLICIES["heuristic"] for c in codes)
    phase1 = True if pos.phase == PHASE1 else None
    kernel_calls = None if fast else calls(None if user is None else compile_policy(user), codes, phase1)
    stake = _stake(position)

    def args(sub: np.ndarray, copies: np.ndarray):
        return (KA.PositionArrays(pos.table, pos.deal, pos.seat, sub, copies),
                None if heuristic else np.array(codes, dtype=np.int64), position.lookahead_samples, kernel_calls,
                (pos.start, _observations(pos, codes)) if infer else None, phase1, stake)

    return names, np.array(pos.options, dtype=np.int64), args, _CHUNK if fast else _CHUNK_SLOW, fast, heuristic


def _versus(position: Position, policies, pair: tuple[int, int], samples: int, rng, threads: int | None,
            figures=("score",)):
    """Option ``pair[0]``'s points (``"equity"``: P(win the game)) minus option ``pair[1]``'s on
    ``samples`` fresh worlds, paired, one a figure of ``figures`` (the two played alone: a review
    prices the move made against the best so), and whether the run was interrupted."""
    _, cards, args, chunk, _, _ = _plan(position, policies)
    sub = cards[list(pair)]
    res = run(KA.advise_kernel, args(sub, np.arange(2, dtype=np.int64)), ADVICE.size, samples=samples, rng=rng,
              chunk_size=chunk, threads=threads, unit="world")
    at = pair_index(0, 1)
    out = []
    for by in figures:
        pair_ = getattr(ADVICE.view(res.counts), _PAIR[by]).reshape(4, PAIRS)
        c = float(_SCALE[by])
        out.append(Estimate.mean(float(pair_[0, at]) / c, float(pair_[1, at]) / (c * c), int(res.samples)))
    return tuple(out), res.partial


def _margin(margin, by: str = "score") -> float:
    if isinstance(margin, bool) or not isinstance(margin, (int, float, np.integer, np.floating)) \
            or not 0 <= float(margin) < math.inf:
        what = "points a deal" if by == "score" else "P(win the game)"
        raise ValueError(f"margin={margin!r} must be a number of {what} >= 0, e.g. margin={MARGINS[by]}")
    return float(margin)


def _adaptive(position: Position, cards, same, args, names, rules, chunk: int, rng, threads, progress,
              budget) -> AdviceResult:
    """The cards played in rounds until a verdict (:func:`cardodds.verdict.decide`)."""
    margin, budget = budget
    by = _by(position)
    tally = _Tally(len(cards))

    def play(active: np.ndarray, n: int, ss) -> Sums:
        sub = cards[active]
        res = run(KA.advise_kernel, args(sub, np.arange(len(sub), dtype=np.int64)), ADVICE.size, samples=n, rng=ss,
                  chunk_size=chunk, threads=threads, unit="world")
        tally.add(res.counts, active)
        return _sums(res.counts, len(sub), res.partial, by)

    margin = _margin(margin, by)
    two = cards[:2]  # compile the kernel first: the time budget counts play, not compiling
    run(KA.advise_kernel, args(two, np.arange(2, dtype=np.int64)), ADVICE.size, samples=1, rng=0, chunk_size=chunk,
        threads=1)
    decision = decide(play, len(cards), margin=margin, rng=rng, budget=budget, same=same, spread=SPREADS[by],
                      unit=VERDICT_UNITS[by], progress=progress)
    figures, pairs = _tallied(position, tally, decision)
    v = ADVICE.view(tally.counts)
    return AdviceResult(game="kanalje", position=position, options=position.options, unit=UNITS[by], ranked_by=by,
                        figures=figures, pairs=pairs, policies=tuple(names), verb="play",
                        noun="legal card", sampled="world", violations=int(v.violations), decision=decision,
                        counts=tally.counts, rules=rules, samples=int(v.dealt), seed=decision.seed,
                        partial=decision.partial)
