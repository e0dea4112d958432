"""The Känä advisor: which card should I känä? (docs/rules/kana.md §5)

The position as the player knows it (my seat, what I know of my cards, the cards känäd
before me), deals sampled consistent with it (the earlier känäs weigh those players' kept
cards by their policies), every option played out on the same deals, and the verdict of
:mod:`cardodds.verdict` in antes: one känä best, the känäs left equal within a margin, or
none better at this precision.

>>> from cardodds.kana import KanaRules, Position, advise
>>> advise(Position("2h ? ?", seat=2), policies="blind", rules=KanaRules(4, "peek-one"), samples=100_000, rng=1).best
'2h'
"""

from __future__ import annotations

import math
import numbers
from fractions import Fraction

import numpy as np

from ..advice import AdviceResult, tallied_pairs
from ..cards import card_str
from ..engine import run, takes_backend
from ..rng import RngLike
from ..stats import Estimate, paired_difference
from ..verdict import Budget, Sums, Verdict, decide, judge
from ._defaults import (ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, ADVISE_SECONDS, ADVISE_SPREAD,
                        ADVISE_VARIANT, OPPONENTS)
from ._advise import PositionArrays, Posterior, advice_layout, advise_worlds, posterior_tables
from ._policies import KIND_BLIND, KIND_CUSTOM
from .equilibrium import _pair_index, _run_size, table_strategy
from .policies import Policy, blind, pack_lineups, resolve_policies
from .position import Position, check_rules_fit
from .rules import KanaRules, rules_for

__all__ = ["advise"]

#: The unit of a Känä advice: each option's probability of winning the round.
UNIT = "P(win)"
#: The unit of its verdict: P(win) times the players, the antes of the pot a känä wins on
#: average, so that a difference is what the other känä costs of the evening's money.
VERDICT_UNIT = "antes"
_ORDINAL = ("1st", "2nd", "3rd")


def _options(rules: KanaRules, mine: list[int]) -> list[tuple[str, int]]:
    if rules.variant == "official":
        return [(f"{_ORDINAL[j]} card", j) for j in range(3)]
    if rules.variant == "peek-one":
        return [(card_str(mine[0]), 0), ("?", 1)]
    return [(card_str(c), j) for j, c in enumerate(mine)]


def _check_position(position) -> Position:
    if not isinstance(position, Position):
        raise ValueError(f"position={position!r}: give a cardodds.kana.Position, e.g. Position('9h ? ?', seat=2)")
    return position


def _same(rules: KanaRules, mine: list[int], opp: list[Policy]) -> np.ndarray:
    """``same[i]``: the first option equal to option ``i`` by the rules (``i`` for none). The
    official rules' three unseen cards are one choice; in peek-all two cards of one rank are
    (suits never matter), unless a custom strategy, which sees the känäd card's suit, plays."""
    if rules.variant == "official":
        return np.zeros(3, np.int64)
    same = np.arange(len(_options(rules, mine)), dtype=np.int64)
    if rules.variant == "peek-all" and not any(s.kind == KIND_CUSTOM for s in opp):
        for j in range(3):
            same[j] = next(i for i in range(j + 1) if mine[i] >> 2 == mine[j] >> 2)
    return same


def _margin(margin) -> float:
    if isinstance(margin, bool) or not isinstance(margin, numbers.Real) or not 0 <= float(margin) < math.inf:
        raise ValueError(f"margin={margin!r} must be a number of antes >= 0, e.g. margin={ADVISE_MARGIN}")
    return float(margin)


@takes_backend
def advise(position: Position, *, policies=OPPONENTS, rules: KanaRules | None = None, samples: int | None = None,
           target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None,
           margin: float = ADVISE_MARGIN, budget_seconds: float | None = ADVISE_SECONDS,
           budget_rounds: int | None = None, progress: bool = False) -> AdviceResult:
    """Which card should I känä? Each option's win probability, the best, and its edge.

    ``position`` is what I know (:class:`Position`: my seat, my cards, the cards känäd before
    me), ``policies`` how the others play: ``"table"`` (the equilibrium strategy table,
    default), ``"blind"`` (they känä without looking), or one policy / a list per seat.
    ``rules`` (players, variant): without it the advisor asks about peek-one at a table of 4
    (the official rules leave no choice).

    Deals are sampled consistent with all I know, every option on the same deals. Without
    ``samples`` or ``target_halfwidth`` the options play rounds of fresh deals until one känä
    beats every other, those left are equal within ``margin`` antes, or ``budget_seconds`` ends
    (``budget_rounds``: at most that many rounds instead): :mod:`cardodds.verdict`. With
    ``samples`` the same rule judges one run in one look. Official rules with blind opponents
    and no run size: exact, every option wins with probability 1/n.

    >>> a = advise(Position("2h ? ?", seat=2), policies="blind", rules=KanaRules(4, "peek-one"),
    ...            samples=100_000, rng=1)
    >>> a.best
    '2h'
    """
    pos = _check_position(position)
    rules = rules_for(None, ADVISE_VARIANT if rules is None else None, rules)
    check_rules_fit(rules, pos)
    margin = _margin(margin)
    budget = Budget(ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, budget_seconds=budget_seconds, budget_rounds=budget_rounds)
    seat, mine, known_kanad = pos.seat, list(pos.hand), pos.kanad_by_seat
    default_size = samples is None and target_halfwidth is None
    samples, thw = _run_size(samples, target_halfwidth, threads, rng)
    opp, label = _advice_opponents(rules, policies, seat, known_kanad)
    if default_size and rules.variant == "official" and all(s.kind == KIND_BLIND for s in opp):
        return _official_advice(rules, pos, label)
    table, custom = pack_lineups([opp], rules.players)
    kanad_arr = np.full(rules.players, -1, np.int64)
    for s, c in known_kanad.items():
        kanad_arr[s] = c
    known = {c for c in mine if c >= 0} | set(known_kanad.values())
    pool = np.array([c for c in range(52) if c not in known], np.int64)
    post = Posterior(*posterior_tables(rules.players, seat, kanad_arr, pool, table))
    if any(known_kanad) and any(post.total[s].max() == 0 for s in known_kanad):
        bad = next(s for s in known_kanad if post.total[s].max() == 0)
        raise ValueError(f"seat {bad} could not have känäd {card_str(known_kanad[bad])} under its strategy; "
                         "check the card or the policies")
    opts = _options(rules, mine)
    C = len(opts)
    same = _same(rules, mine, opp)
    positions = np.array([j for _, j in opts], np.int64)
    names = [k for k, _ in opts]

    def args(active: np.ndarray) -> tuple:
        """The kernel's arguments with the options ``active`` (indices into ``opts``)."""
        arrays = PositionArrays(seat, np.array(mine, np.int64), kanad_arr, positions[active], pool)
        return rules.pack(), advice_layout(len(active)).offsets_array(), table, arrays, post, custom

    if default_size and len(set(same.tolist())) > 1:
        return _adaptive(rules, pos, label, names, same, args, rng, threads, progress, (margin, budget))
    layout = advice_layout(C)

    def hw(counts, N):
        if N < 2:
            return math.inf
        b = int(np.argmax(counts[layout.slice("wins")]))
        return max(_adv_diff(counts, layout, b, c, N).halfwidth for c in range(C) if c != b)

    res = run(advise_worlds, args(np.arange(C)), layout.size, samples=samples, target_halfwidth=thw, halfwidth=hw,
              rng=rng, threads=threads, progress=progress, unit="deal")
    wins = res.counts[layout.slice("wins")]
    N = res.samples
    pairs = tuple(_adv_diff(res.counts, layout, i, j, N) for i in range(C) for j in range(i + 1, C))
    decision = _judged(res.counts, layout, N, same, margin, rules.players, res.seed, res.partial)
    return _result(rules, pos, label, names, tuple(Estimate.proportion(wins[j], N) for j in range(C)),
                   pairs, N, res.seed, res.partial, res.counts, decision)


def _sums(counts, layout, n: int, scale: int, partial: bool) -> Sums:
    """:class:`~cardodds.verdict.Sums` of each option's wins times ``scale`` (the players: antes)
    on ``n`` deals, from the counts of a run."""
    w = counts[layout.slice("wins")].astype(np.float64)
    plus = counts[layout.slice("plus")].astype(np.float64)
    minus = counts[layout.slice("minus")].astype(np.float64)
    return Sums.of_counts(n, w * scale, w * scale * scale, (plus - minus) * scale, (plus + minus) * scale * scale,
                          partial=partial)


def _judged(counts, layout, n: int, same, margin: float, players: int, seed, partial: bool) -> Verdict:
    """The verdict of one look at a run of every option on the same ``n`` deals."""
    s = _sums(counts, layout, n, players, partial)
    return judge(s, margin=margin, same=same, spread=ADVISE_SPREAD * players, unit=VERDICT_UNIT, seed=seed)


class _Tally:
    """The counts of rounds that played a subset of the options (``active``), kept as one run of
    every option would keep them, with the deals behind each option and each pair."""

    def __init__(self, k: int):
        self.layout = advice_layout(k)
        self.counts = self.layout.zeros()
        self.n = np.zeros(k, dtype=np.int64)
        self.n_pair = np.zeros(k * (k - 1) // 2, dtype=np.int64)

    def add(self, counts: np.ndarray, active: np.ndarray, n: int) -> None:
        k, m = len(self.n), len(active)
        sub = advice_layout(m)
        c = self.counts
        c[self.layout.slice("rejected")] += counts[sub.slice("rejected")]
        c[self.layout.slice("wins")][active] += counts[sub.slice("wins")]
        c[self.layout.slice("extra")].reshape(k, -1)[active] += counts[sub.slice("extra")].reshape(m, -1)
        for p in range(m):
            for q in range(p + 1, m):
                at = _pair_index(k, int(active[p]), int(active[q]))
                for name in ("plus", "minus"):
                    c[self.layout.slice(name)][at] += counts[sub.slice(name)][_pair_index(m, p, q)]
                self.n_pair[at] += n
        self.n[active] += n


def _tallied(t: _Tally, same: tuple[int, ...]) -> tuple[tuple[Estimate, ...], tuple[Estimate, ...]]:
    """Each option's P(win) and the paired differences of an adaptive run, each over the deals
    it was played on (an option equal to another by the rules: that one's)."""
    k = len(same)
    wins = t.counts[t.layout.slice("wins")]
    plus, minus = t.counts[t.layout.slice("plus")], t.counts[t.layout.slice("minus")]
    win = tuple(Estimate.proportion(int(wins[same[i]]), int(t.n[same[i]])) for i in range(k))
    pairs = tallied_pairs(same, t.n, lambda at: paired_difference(plus[at], minus[at], int(t.n_pair[at])),
                          lambda a, b: _pair_index(k, a, b))
    return win, pairs


def _adaptive(rules: KanaRules, pos: Position, label, names, same, args, rng, threads, progress,
              budget) -> AdviceResult:
    """The options played in rounds until a verdict (:func:`cardodds.verdict.decide`)."""
    margin, budget = budget
    k = len(names)
    tally = _Tally(k)

    def play(active: np.ndarray, n: int, ss) -> Sums:
        sub = advice_layout(len(active))
        res = run(advise_worlds, args(active), sub.size, samples=n, rng=ss, threads=threads, unit="deal")
        tally.add(res.counts, active, res.samples)
        return _sums(res.counts, sub, res.samples, rules.players, res.partial)

    two = np.arange(2, dtype=np.int64)  # compile the kernel first: the time budget counts play, not compiling
    run(advise_worlds, args(two), advice_layout(2).size, samples=1, rng=0, threads=1)
    decision = decide(play, k, margin=margin, rng=rng, budget=budget, same=same, spread=ADVISE_SPREAD * rules.players,
                      unit=VERDICT_UNIT, progress=progress)
    win, pairs = _tallied(tally, decision.same)
    return _result(rules, pos, label, names, win, pairs, int(tally.n.max()), decision.seed, decision.partial,
                   tally.counts, decision)


def _result(rules, pos, label, names, wins, pairs, samples, seed, partial, counts=None,
            decision: Verdict | None = None) -> AdviceResult:
    return AdviceResult(game="kana", position=pos, options=tuple(names), unit=UNIT, ranked_by="win",
                        figures={"win": wins}, pairs={"win": pairs}, policies=label, verb="känä", noun="card",
                        sampled="deal", decision=decision, counts=counts, rules=rules, samples=samples, seed=seed,
                        partial=partial)


def _official_advice(rules: KanaRules, pos: Position, label: tuple[str, ...]) -> AdviceResult:
    """The official rules with blind opponents, exactly: nobody's känä depends on their cards,
    so every seat's kept pair is a uniform pair of the unseen cards, the seats are exchangeable
    and each wins with probability 1/n whichever card I känä; every difference is exactly zero."""
    win = Estimate.exact_value(Fraction(1, rules.players))
    names = [k for k, _ in _options(rules, list(pos.hand))]
    zero = Estimate.exact_value(0.0)
    return _result(rules, pos, label, names, (win,) * len(names), (zero,) * 3, 0, None, False)


def _advice_opponents(rules: KanaRules, opponents, seat: int,
                      known_kanad: dict[int, int]) -> tuple[list[Policy], tuple[str, ...]]:
    """The other seats' policies and how to name them."""
    n = rules.players
    if isinstance(opponents, str) and opponents in ("table", "blind"):
        if opponents == "blind" or rules.variant == "official":
            opp = [blind("random")] * n
        else:
            opp = [table_strategy(rules.variant, n)] * n
        label: tuple[str, ...] = (opponents,)
    else:
        opp = resolve_policies(opponents, rules, "policies")
        label = tuple(s.name for s in opp)
    if any(s.kind == KIND_CUSTOM for i, s in enumerate(opp) if i < seat and i in known_kanad):
        raise ValueError("a custom strategy cannot be conditioned on its känäd card; give it as unseen")
    return opp, label


def _adv_diff(counts, layout, c1, c2, N) -> Estimate:
    """Paired difference of my wins with option c1 minus option c2."""
    C = layout.sizes.wins
    a, b = (c1, c2) if c1 < c2 else (c2, c1)
    p = _pair_index(C, a, b)
    d = paired_difference(counts[layout.slice("plus")][p], counts[layout.slice("minus")][p], N)
    return d if c1 < c2 else d.scaled(-1)
