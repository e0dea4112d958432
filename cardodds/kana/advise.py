"""The Känä advisor: which card should I känä? (RULES.md 1.2)

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

__all__ = ["AdviceResult", "Position", "advise"]


@dataclass(frozen=True, repr=False)
class AdviceResult(Result):
    """Each känä I can make, its win probability, and whether one is better.

    ``best`` is the card to känä (``"?"`` for an unseen one), or None when the best option's
    paired difference to the next best has an interval containing zero: no choice is
    better at this precision.
    """

    position: Position
    policies: str
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
            "players": self.rules.players, "variant": self.rules.variant, "position": self.position.to_dict(),
            "policies": self.policies, "samples": self.samples, "seed": self.seed, "partial": self.partial,
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
        p = self.position
        seen = ", ".join(f"seat {s} känäd {card_str(c)}" for s, c in p.kanad_by_seat.items()) or "none known"
        lines = [
            f"Känä {r.variant}, {r.players} players, seat {p.seat}, cards {format_cards(p.hand)} "
            f"(känäd before: {seen}; policies: {self.policies}; {self.samples:,} deals, seed {self.seed})"
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


def _check_seat(seat) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int) or seat < 0:
        raise ValueError(f"seat={seat!r}: my seat is my place in the känä order, a whole number from 0 (the starter)")
    return int(seat)


def _check_hand(cards) -> tuple[int, int, int]:
    """My three cards as I know them (-1 for those not seen)."""
    mine = parse_cards(cards, allow_unknown=True) if cards is not None else [-1, -1, -1]
    if len(mine) != 3:
        raise ValueError(f"a hand holds 3 cards; give all three, '?' for those not seen (e.g. '9h ? ?'), "
                         f"got {len(mine)}")
    return mine[0], mine[1], mine[2]


def _check_variant(rules: KanaRules, pos: Position) -> None:
    """What the variant lets me know of my cards, and my seat at a table of ``rules.players``."""
    n = rules.players
    if not pos.seat < n:
        raise ValueError(f"seat {pos.seat} does not exist at a table of {n}; my seat in the känä order is 0..{n - 1}")
    mine = pos.hand
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


def _check_kanad(kanad: dict[int, int], seat: int, mine) -> tuple[int, ...]:
    """Känäd cards can only be the earlier seats', and no card can be seen twice: the card
    känäd by each seat before mine, -1 where not seen."""
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
    return tuple(kanad.get(s, -1) for s in range(seat))


@dataclass(frozen=True, init=False)
class Position:
    """What one seat knows at its känä: ``seat`` (its place in the känä order, 0 = the
    starter), ``hand`` (what it knows of its three cards, -1 for one not seen; in peek-one the
    peeked card first) and ``kanad`` (the card känäd by each seat before it, -1 for one it did
    not see). Read from the player's words and checked at once; the variant and the table's
    size are the rules' (checked against them by :func:`advise`).

    ``hand``: ``"9h ? ?"`` (default ``"? ? ?"``); ``kanad``: ``"5c Kd"`` for seats 0 and 1 in
    order, ``"? Kd"`` when I missed seat 0's, or ``{1: "Kd"}``.

    >>> p = Position("9h ? ?", seat=2, kanad="? Kd")
    >>> str(p)
    "--seat 2 --hand '9h ? ?' --kanad '? Kd'"
    >>> Position(**p.to_dict()) == p
    True
    """

    seat: int
    hand: tuple[int, int, int]
    kanad: tuple[int, ...]

    def __init__(self, hand=None, *, seat: int = 0, kanad=None):
        seat = _check_seat(seat)
        mine = _check_hand(hand)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "hand", mine)
        object.__setattr__(self, "kanad", _check_kanad(_parse_kanad(kanad), seat, mine))

    @property
    def kanad_by_seat(self) -> dict[int, int]:
        """The känäd cards I saw, by seat."""
        return {s: c for s, c in enumerate(self.kanad) if c >= 0}

    def _kanad_words(self) -> str:
        last = max(self.kanad_by_seat, default=-1)
        return format_cards(self.kanad[:last + 1])

    def to_dict(self) -> dict:
        """The position in words, as the constructor reads it back: ``Position(**p.to_dict())``."""
        return {"seat": self.seat, "hand": format_cards(self.hand), "kanad": self._kanad_words()}

    def __str__(self) -> str:
        """The position in the command line's words (``cardodds kana advise``)."""
        words = f"--seat {self.seat} --hand '{format_cards(self.hand)}'"
        kanad = self._kanad_words()
        return words + (f" --kanad '{kanad}'" if kanad else "")

    def __repr__(self) -> str:
        kanad = self._kanad_words()
        return (f"Position({format_cards(self.hand)!r}, seat={self.seat}" + (f", kanad={kanad!r}" if kanad else "")
                + ")")


def _options(rules: KanaRules, mine: list[int]) -> list[tuple[str, int]]:
    if rules.variant == "official":
        return [("?", 0), ("?", 1), ("?", 2)]
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
    _check_variant(rules, pos)
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
    order = sorted(range(C), key=lambda j: -wins[j])
    diff = _adv_diff(res.counts, layout, order[0], order[1], N)
    best = None if diff.contains_zero() else opts[order[0]][0]
    return AdviceResult(rules=rules, position=pos, policies=label,
                        options=tuple((opts[j][0], Estimate.proportion(wins[j], N)) for j in range(C)), best=best,
                        difference=diff, samples=N, seed=res.seed, partial=res.partial, counts=res.counts)


def _official_advice(rules: KanaRules, pos: Position, label: str) -> AdviceResult:
    """The official rules with blind opponents, exactly: nobody's känä depends on their cards,
    so every seat's kept pair is a uniform pair of the unseen cards, the seats are exchangeable
    and each wins with probability 1/n whichever card I känä; the difference is exactly zero."""
    win = Estimate.exact_value(Fraction(1, rules.players))
    return AdviceResult(rules=rules, position=pos, policies=label,
                        options=tuple((k, win) for k, _ in _options(rules, list(pos.hand))), best=None,
                        difference=Estimate.exact_value(0.0), samples=0, seed=None)


def _advice_opponents(rules: KanaRules, opponents, seat: int, known_kanad: dict[int, int]) -> tuple[list[Policy], str]:
    """The other seats' policies and how to name them."""
    n = rules.players
    if isinstance(opponents, str) and opponents in ("table", "blind"):
        if opponents == "blind" or rules.variant == "official":
            opp = [blind("random")] * n
        else:
            opp = [table_strategy(rules.variant, n)] * n
        label = opponents
    else:
        opp = resolve_policies(opponents, rules, "policies")
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
