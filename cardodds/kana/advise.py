"""The Känä advisor: which card should I känä? (docs/rules/kana.md §5)

The position as the player knows it (my seat, what I know of my cards, the cards känäd
before me), deals sampled consistent with it (the earlier känäs weigh those players' kept
cards by their policies), every option played out on the same deals, and the best named
only when its paired difference to the next best excludes zero.

>>> from cardodds.kana import KanaRules, Position, advise
>>> advise(Position("2h ? ?", seat=2), policies="blind", rules=KanaRules(4, "peek-one"), samples=100_000, rng=1).best
'2h'
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from ..advice import AdviceResult
from ..cards import card_str
from ..engine import run, takes_backend
from ..rng import RngLike
from ..stats import Estimate, paired_difference
from ._defaults import ADVISE_VARIANT, OPPONENTS
from ._advise import PositionArrays, Posterior, advice_layout, advise_worlds, posterior_tables
from ._policies import KIND_BLIND, KIND_CUSTOM
from .equilibrium import _pair_index, _run_size, table_strategy
from .policies import Policy, blind, pack_lineups, resolve_policies
from .position import Position, check_rules_fit
from .rules import KanaRules, rules_for

__all__ = ["advise"]

#: The unit of a Känä advice: each option's probability of winning the round.
UNIT = "P(win)"
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


@takes_backend
def advise(position: Position, *, policies=OPPONENTS, rules: KanaRules | None = None, samples: int | None = None,
           target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None,
           progress: bool = False) -> AdviceResult:
    """Which card should I känä? Each option's win probability, the best, and its edge.

    ``position`` is what I know (:class:`Position`: my seat, my cards, the cards känäd before
    me), ``policies`` how the others play: ``"table"`` (the equilibrium strategy table,
    default), ``"blind"`` (they känä without looking), or one policy / a list per seat.
    ``rules`` (players, variant): without it the advisor asks about peek-one at a table of 4
    (the official rules leave no choice).

    Deals are sampled consistent with all I know (an earlier känä weighs the cards its player
    kept); every option plays the same deals, and the best is named only when its paired
    difference to the next excludes zero. Official rules, blind opponents and no run size give
    the exact answer: every option wins with probability 1/n.

    >>> a = advise(Position("2h ? ?", seat=2), policies="blind", rules=KanaRules(4, "peek-one"),
    ...            samples=100_000, rng=1)
    >>> a.best
    '2h'
    """
    pos = _check_position(position)
    rules = rules_for(None, ADVISE_VARIANT if rules is None else None, rules)
    check_rules_fit(rules, pos)
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
    layout = advice_layout(C)

    def hw(counts, N):
        if N < 2:
            return math.inf
        b = int(np.argmax(counts[layout.slice("wins")]))
        return max(_adv_diff(counts, layout, b, c, N).halfwidth for c in range(C) if c != b)

    arrays = PositionArrays(seat, np.array(mine, np.int64), kanad_arr, np.array([j for _, j in opts], np.int64), pool)
    kargs = (rules.pack(), layout.offsets_array(), table, arrays, post, custom)
    res = run(advise_worlds, kargs, layout.size, samples=samples, target_halfwidth=thw, halfwidth=hw, rng=rng,
              threads=threads, progress=progress, unit="deal")
    wins = res.counts[layout.slice("wins")]
    N = res.samples
    pairs = tuple(_adv_diff(res.counts, layout, i, j, N) for i in range(C) for j in range(i + 1, C))
    return _result(rules, pos, label, [k for k, _ in opts], tuple(Estimate.proportion(wins[j], N) for j in range(C)),
                   pairs, N, res.seed, res.partial, res.counts)


def _result(rules, pos, label, names, wins, pairs, samples, seed, partial, counts=None) -> AdviceResult:
    return AdviceResult(game="kana", position=pos, options=tuple(names), unit=UNIT, ranked_by="win",
                        figures={"win": wins}, pairs={"win": pairs}, policies=label, verb="känä", noun="card",
                        sampled="deal", counts=counts, rules=rules, samples=samples, seed=seed, partial=partial)


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
