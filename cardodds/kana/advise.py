"""The Känä advisor: which card should I känä? (docs/rules/kana.md §5)

The position as the player knows it (my seat, what I know of my cards, the cards känäd
before me), deals sampled consistent with it (the earlier känäs weigh those players' kept
cards by their policies), every option played out on the same deals, and the best named
only when its paired difference to the next best excludes zero.

>>> from cardodds.kana import advise
>>> advise(4, "peek-one", seat=2, cards="2h ? ?", opponents="blind", samples=100_000, rng=1).best
'2h'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from ..cards import card_str, format_cards, parse_cards
from ..engine import run, takes_backend
from .._html import result_html
from ..results import Result, counts_field
from ..rng import RngLike
from ..stats import Estimate, paired_difference
from ._defaults import ADVISE_VARIANT, OPPONENTS
from ._advise import PositionArrays, Posterior, advice_layout, advise_worlds, posterior_tables
from ._policies import KIND_BLIND, KIND_CUSTOM
from .decisions import _plot_estimates
from .equilibrium import _pair_index, _run_size, table_strategy
from .policies import Policy, blind, pack_lineups, resolve_policies
from .rules import KanaRules, rules_for

__all__ = ["AdviceResult", "advise"]


@dataclass(frozen=True, repr=False)
class AdviceResult(Result):
    """Each känä I can make, its win probability, and whether one is better.

    ``best`` is the card to känä (``"?"`` for an unseen one), or None when the best option's
    paired difference to the next best has an interval containing zero: no choice is
    better at this precision.
    """

    seat: int
    cards: tuple[int, ...]
    kanad: dict[int, int]
    opponents: str
    options: tuple[tuple[str, Estimate], ...]
    best: str | None
    difference: Estimate
    counts: np.ndarray | None = counts_field(default=None)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = [{"kana": k, "win": e.value, "se": e.se, "lo": e.lo, "hi": e.hi} for k, e in self.options]
        return pd.DataFrame(rows).set_index("kana")

    def to_dict(self) -> dict:
        return {
            "players": self.rules.players, "variant": self.rules.variant, "seat": self.seat,
            "cards": format_cards(self.cards), "kanad": {str(s): card_str(c) for s, c in self.kanad.items()},
            "opponents": self.opponents, "samples": self.samples, "seed": self.seed, "partial": self.partial,
            "rules": self.rules.to_dict(), "version": self.version,
            "options": [{"kana": k, "win": e.to_dict()} for k, e in self.options],
            "best": self.best, "difference": self.difference.to_dict(),
        }

    def versus(self, i: int, j: int) -> Estimate:
        """Option ``i``'s win probability minus option ``j``'s, paired on the same deals (exactly 0
        for an option against itself, and for every pair of an exact answer)."""
        if i == j or self.counts is None:
            return Estimate.exact_value(0.0)
        return _adv_diff(self.counts, advice_layout(len(self.options)), i, j, self.samples)

    @property
    def verdict(self) -> str:
        if self.best is None:
            if not self.samples:
                return "no choice is better: every känä wins with the same probability (exact)"
            return "no choice is better at this precision"
        return f"känä {self.best}"

    def __repr__(self) -> str:
        r = self.rules
        seen = ", ".join(f"seat {s} känäd {card_str(c)}" for s, c in self.kanad.items()) or "none known"
        lines = [
            f"Känä {r.variant}, {r.players} players, seat {self.seat}, cards {format_cards(self.cards)} "
            f"(känäd before: {seen}; opponents: {self.opponents}; {self.samples:,} deals, seed {self.seed})"
        ]
        for k, e in self.options:
            lines.append(f"  känä {k:<4} win {e.format(4)}")
        d = self.difference
        lines.append(f"  best vs next: {d.value:+.4f} [{d.lo:+.4f}, {d.hi:+.4f}]  ->  {self.verdict}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return result_html(self.verdict, self.to_frame())

    def plot(self, ax=None):
        """Each option's win probability with its 95% interval."""
        return _plot_estimates(ax, [(f"känä {k}", e) for k, e in self.options], "P(win)")


def _check_seat(rules: KanaRules, seat) -> int:
    n = rules.players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise ValueError(f"seat {seat!r} does not exist at a table of {n}; my seat in the känä order is 0..{n - 1}")
    return seat


def _check_my_cards(rules: KanaRules, cards) -> list[int]:
    """My three cards (-1 for those not seen), as the variant lets me know them."""
    mine = parse_cards(cards, allow_unknown=True) if cards is not None else [-1, -1, -1]
    if len(mine) != 3:
        raise ValueError(f"a hand holds 3 cards; give all three, '?' for those not seen (e.g. '9h ? ?'), "
                         f"got {len(mine)}")
    known = [c for c in mine if c >= 0]
    if rules.variant == "official" and known:
        raise ValueError("under the official rules nobody may look at their cards: give '? ? ?', "
                         "or choose a peek variant")
    if rules.variant == "peek-one" and (len(known) > 1 or (known and mine[0] < 0)):
        raise ValueError("in peek-one I know one card, the peeked one, written first: e.g. '9h ? ?'")
    if rules.variant == "peek-all" and len(known) != 3:
        raise ValueError("in peek-all I have seen all three cards: give them all, e.g. '9h Kd 2c'")
    if rules.variant == "peek-one" and not known:
        raise ValueError("in peek-one give the card I peeked first, e.g. '9h ? ?'")
    return mine


def _kanad_from_sequence(cards) -> dict[int, int]:
    """``"5c ? Kd"`` or ``["5c", "?", "Kd"]``: seats 0, 1, ... in order, ``?`` for one not seen."""
    if isinstance(cards, str) and not cards.strip():
        return {}
    return {s: c for s, c in enumerate(parse_cards(cards, allow_unknown=True)) if c >= 0}


def _kanad_from_mapping(cards) -> dict[int, int]:
    """``{seat: card}`` with a card as text or as its number."""
    return {int(s): (c if isinstance(c, int) else parse_cards([c])[0]) for s, c in dict(cards).items()}


def _parse_kanad(kanad) -> dict[int, int]:
    if kanad is None:
        return {}
    if isinstance(kanad, (str, list, tuple)):
        return _kanad_from_sequence(kanad)
    return _kanad_from_mapping(kanad)


def _check_kanad(kanad: dict[int, int], seat: int, mine: list[int]) -> dict[int, int]:
    """Känäd cards can only be the earlier seats', and no card can be seen twice."""
    for s in kanad:
        if not 0 <= s < seat:
            raise ValueError(
                f"a känäd card is given for seat {s}, but only the {seat} seat(s) before mine (0..{seat - 1}) have "
                "känäd when it is my turn"
            )
    clash = {c for c in mine if c >= 0} & set(kanad.values())
    if clash:
        raise ValueError(f"card {card_str(min(clash))} is both in my hand and among the känäd cards; "
                         "each card exists once")
    if len(set(kanad.values())) != len(kanad):
        raise ValueError("a känäd card is given twice; each card exists once")
    return dict(sorted(kanad.items()))


def _check_advice_input(rules: KanaRules, seat, cards, kanad):
    """``(my cards, känäd cards by seat)`` from the advisor's inputs, each checked on its own."""
    seat = _check_seat(rules, seat)
    mine = _check_my_cards(rules, cards)
    return mine, _check_kanad(_parse_kanad(kanad), seat, mine)


def _options(rules: KanaRules, mine: list[int]) -> list[tuple[str, int]]:
    if rules.variant == "official":
        return [("?", 0), ("?", 1), ("?", 2)]
    if rules.variant == "peek-one":
        return [(card_str(mine[0]), 0), ("?", 1)]
    return [(card_str(c), j) for j, c in enumerate(mine)]


@takes_backend
def advise(players: int | None = None, variant: str | None = None, *, seat: int = 0, cards=None, kanad=None,
           opponents=OPPONENTS, rules: KanaRules | None = None, samples: int | None = None,
           target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None,
           progress: bool = False) -> AdviceResult:
    """Which card should I känä? Each option's win probability, the best, and its edge.

    ``seat`` is my place in the känä order (0 = the starter), ``cards`` what I know of my
    three (``"9h ? ?"``: I peeked the 9 of hearts; all three in peek-all; ``"? ? ?"`` in the
    official rules), ``kanad`` the cards känäd before me that I know (``"5c Kd"`` for seats
    0 and 1 in order, ``"? Kd"`` when I missed seat 0's, or ``{1: "Kd"}``), ``opponents``
    how the others play: ``"table"`` (the equilibrium strategy table, default), ``"blind"``
    (they känä without looking), or one policy / a list per seat. With neither ``variant``
    nor ``rules`` given, the advisor asks about peek-one (the official rules leave no choice).

    Deals are sampled consistent with all I know (an earlier känä weighs the cards its player
    kept); every option plays the same deals, and the best is named only when its paired
    difference to the next excludes zero. Official rules, blind opponents and no run size give
    the exact answer: every option wins with probability 1/n.

    >>> a = advise(4, "peek-one", seat=2, cards="2h ? ?", opponents="blind", samples=100_000, rng=1)
    >>> a.best
    '2h'
    """
    if variant is None and rules is None:
        variant = ADVISE_VARIANT
    rules = rules_for(players, variant, rules)
    mine, known_kanad = _check_advice_input(rules, seat, cards, kanad)
    default_size = samples is None and target_halfwidth is None
    samples, thw = _run_size(samples, target_halfwidth, threads, rng)
    opp, label = _advice_opponents(rules, opponents, seat, known_kanad)
    if default_size and rules.variant == "official" and all(s.kind == KIND_BLIND for s in opp):
        return _official_advice(rules, seat, mine, known_kanad, label)
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
                         "check the card or the opponents' strategy")
    opts = _options(rules, mine)
    C = len(opts)
    layout = advice_layout(C)

    def hw(counts, N):
        if N < 2:
            return math.inf
        b = int(np.argmax(counts[layout.slice("wins")]))
        return max(_adv_diff(counts, layout, b, c, N).halfwidth for c in range(C) if c != b)

    position = PositionArrays(seat, np.array(mine, np.int64), kanad_arr, np.array([j for _, j in opts], np.int64), pool)
    kargs = (rules.pack(), layout.offsets_array(), table, position, post, custom)
    res = run(advise_worlds, kargs, layout.size, samples=samples, target_halfwidth=thw, halfwidth=hw, rng=rng,
              threads=threads, progress=progress, unit="deal")
    wins = res.counts[layout.slice("wins")]
    N = res.samples
    order = sorted(range(C), key=lambda j: -wins[j])
    diff = _adv_diff(res.counts, layout, order[0], order[1], N)
    best = None if diff.contains_zero() else opts[order[0]][0]
    return AdviceResult(rules=rules, seat=seat, cards=tuple(mine), kanad=known_kanad, opponents=label,
                        options=tuple((opts[j][0], Estimate.proportion(wins[j], N)) for j in range(C)), best=best,
                        difference=diff, samples=N, seed=res.seed, partial=res.partial, counts=res.counts)


def _official_advice(rules: KanaRules, seat: int, mine, known_kanad, label: str) -> AdviceResult:
    """The official rules with blind opponents, exactly: nobody's känä depends on their cards,
    so every seat's kept pair is a uniform pair of the unseen cards, the seats are exchangeable
    and each wins with probability 1/n whichever card I känä; the difference is exactly zero."""
    win = Estimate.exact_value(Fraction(1, rules.players))
    return AdviceResult(rules=rules, seat=seat, cards=tuple(mine), kanad=known_kanad, opponents=label,
                        options=tuple((k, win) for k, _ in _options(rules, mine)), best=None,
                        difference=Estimate.exact_value(0.0), samples=0, seed=None)


def _advice_opponents(rules: KanaRules, opponents, seat: int, known_kanad) -> tuple[list[Policy], str]:
    """The other seats' policies and how to name them."""
    n = rules.players
    if isinstance(opponents, str) and opponents in ("table", "blind"):
        if opponents == "blind" or rules.variant == "official":
            opp = [blind("random")] * n
        else:
            opp = [table_strategy(rules.variant, n)] * n
        label = opponents
    else:
        opp = resolve_policies(opponents, rules, "opponents")
        label = ",".join(s.name for s in opp)
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
