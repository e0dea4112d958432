"""Meld odds of Polish Canasta, from the deal and over the draws, exact or Monte Carlo.

>>> res = melds(samples=20_000, rng=1, turns=3)
>>> 0.8 < res.first_meld.value < 0.9
True
>>> ex = melds(exact=True, turns=3)
>>> ex.first_meld
Estimate(0.853164 exact)
>>> odds = hand_odds("Kh Kd 9c 9d Jk 4s 5s 6d 7c 8h Th Qs", turns=2, exact=True)
>>> odds.first_meld_by_turn[0].value
1.0
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from types import SimpleNamespace

import numpy as np

from .. import engine
from .._validate import check_run
from .._html import result_html
from ..results import Result, counts_field
from ..rng import RngLike
from ..engine import takes_backend
from ..stats import Estimate
from . import _kernels as K
from . import exact as _exact
from ._defaults import (DEFAULT_HAND_SAMPLES, DEFAULT_MELD_SAMPLES, DISCARD_RULES, HAND_SIZE, HAND_TURNS, MAX_TURNS,
                        MELD_TURNS)
from .cards import N_KINDS, deck_counts, deck_kinds, format_counts, hand_counts
from .rules import WILD_LIMITS, CanastaRules, check_rules
from .scoring import FirstMeld, best_first_meld

__all__ = ["HandOddsResult", "MeldOddsResult", "hand_odds", "melds"]


def _check_common(rules, turns, samples, target_halfwidth, exact, threads, rng, discard="keep") -> CanastaRules:
    if discard not in DISCARD_RULES:
        raise ValueError(f"discard={discard!r} is unknown; choose one of " + ", ".join(map(repr, DISCARD_RULES)))
    if exact and discard != "keep":
        raise ValueError(f"discard={discard!r} has no exact answer; use exact=False (Monte Carlo) or discard='keep'")
    rules = check_rules(rules)
    if isinstance(turns, bool) or not isinstance(turns, (int, np.integer)) or not 0 <= turns <= MAX_TURNS:
        raise ValueError(f"turns={turns!r} must be a whole number 0..{MAX_TURNS}")
    if exact:
        if samples is not None or target_halfwidth is not None:
            raise ValueError("exact=True needs no samples= or target_halfwidth=; drop them or exact=True")
        check_run(threads=threads, rng=rng)
    else:
        check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    return rules


def _dist_estimates(counts, n) -> dict[int, Estimate]:
    return {i: Estimate.proportion(int(c), n) for i, c in enumerate(counts)}


def _exact_dist(d: dict[int, Fraction], size: int) -> dict[int, Estimate]:
    return {i: Estimate.exact_value(d.get(i, Fraction(0))) for i in range(size)}


def _trim(d: dict[int, Estimate]) -> dict[int, Estimate]:
    """Drop the tail of impossible or unseen values so tables stay short."""
    keys = [k for k, e in d.items() if e.value > 0]
    last = max(keys) if keys else 0
    return {k: e for k, e in d.items() if k <= last}


def _json_head(r, question: str, **what) -> dict:
    """The keys every Canasta JSON object starts with, in the documented order."""
    return {"game": "canasta", "question": question, **what, "turns": r.turns, "discard": r.discard,
            "exact": r.exact, "samples": r.samples, "seed": r.seed, "version": r.version,
            "rules": r.rules.to_dict()}


@dataclass(frozen=True, repr=False)
class MeldOddsResult(Result):
    """Meld odds of a dealt hand and over the draws (see :func:`melds`)."""

    first_meld: Estimate
    first_meld_by_limit: dict[str, Estimate]
    first_meld_by_turn: tuple[Estimate, ...]
    canasta_by_turn: tuple[Estimate, ...]
    pile_open: Estimate
    best_value: dict[int, Estimate]
    wild_cards: dict[int, Estimate]
    red_threes: dict[int, Estimate]
    partnership_wild_cards: dict[int, Estimate]
    partnership_red_threes: dict[int, Estimate]
    best_rank_naturals: dict[int, Estimate]
    pair: Estimate
    three: Estimate
    first_meld_by_wilds: dict[int, Estimate]
    hand_size: int
    turns: int
    exact: bool
    discard: str = "keep"
    bad_deals: int = 0
    seconds: float = field(default=0.0, compare=False)
    counts: np.ndarray | None = counts_field(default=None)

    def to_dict(self) -> dict:
        """JSON-ready: every estimate as {"value", "se", "lo", "hi"}; distributions keyed by count."""
        def dist(d):
            return {str(k): e.to_dict() for k, e in d.items()}
        return {
            **_json_head(self, "melds", hand_size=self.hand_size),
            "first_meld": self.first_meld.to_dict(),
            "first_meld_by_limit": {k: e.to_dict() for k, e in self.first_meld_by_limit.items()},
            "first_meld_by_turn": [e.to_dict() for e in self.first_meld_by_turn],
            "canasta_by_turn": [e.to_dict() for e in self.canasta_by_turn],
            "pile_open": self.pile_open.to_dict(),
            "best_value": dist(self.best_value),
            "wild_cards": dist(self.wild_cards),
            "red_threes": dist(self.red_threes),
            "partnership_wild_cards": dist(self.partnership_wild_cards),
            "partnership_red_threes": dist(self.partnership_red_threes),
            "best_rank_naturals": dist(self.best_rank_naturals),
            "pair": self.pair.to_dict(), "three": self.three.to_dict(),
            "first_meld_by_wilds": dist(self.first_meld_by_wilds),
            "partial": self.partial,
        }

    def to_frame(self):
        """One row per figure: ``figure``, ``key``, ``value``, ``se``, ``lo``, ``hi``."""
        import pandas as pd

        rows = []

        def add(fig, key, e):
            rows.append({"figure": fig, "key": key, "value": e.value, "se": e.se, "lo": e.lo, "hi": e.hi})
        add("first_meld", "", self.first_meld)
        for k, e in self.first_meld_by_limit.items():
            add("first_meld_by_limit", k, e)
        for k, e in enumerate(self.first_meld_by_turn):
            add("first_meld_by_turn", k, e)
        for k, e in enumerate(self.canasta_by_turn):
            add("canasta_by_turn", k, e)
        add("pile_open", "", self.pile_open)
        for name in ("best_value", "wild_cards", "red_threes", "partnership_wild_cards",
                     "partnership_red_threes", "best_rank_naturals", "first_meld_by_wilds"):
            for k, e in getattr(self, name).items():
                add(name, k, e)
        add("pair", "", self.pair)
        add("three", "", self.three)
        return pd.DataFrame(rows)

    def _how(self) -> str:
        return "exact" if self.exact else f"{self.samples:,} deals, seed {self.seed}"

    def __repr__(self) -> str:
        lines = [f"Canasta meld odds, {self.hand_size}-card hand ({self._how()}; wild_limit="
                 f"{self.rules.wild_limit!r}, first meld >= {self.rules.min_first_meld})",
                 f"  first meld from the deal: {self.first_meld.format(percent=True)}",
                 f"  by taking the upcard:     {self.pile_open.format(percent=True)}"]
        for limit, e in self.first_meld_by_limit.items():
            lines.append(f"  wild_limit={limit!r:11}      {e.format(percent=True)}")
        for k, e in enumerate(self.first_meld_by_turn):
            if k in (1, 3, 5, 10, 20):
                lines.append(f"  first meld by turn {k:2}:    {e.format(percent=True)}")
        lines.append(f"  7 naturals by turn {self.turns:2}:    {self.canasta_by_turn[-1].format(percent=True)}")
        lines.append(f"  a pair / three of a rank: {self.pair.format(percent=True)} / "
                     f"{self.three.format(percent=True)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return result_html("", self.to_frame().head(80), index=False, pre=repr(self))

    def plot(self, ax=None):
        """First meld and 7 naturals of a rank by turn, with 95% intervals."""
        return _plot_by_turn(self, ax)



def _plot_by_turn(r, ax=None):
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 3.5), layout="constrained")
    ks = np.arange(len(r.first_meld_by_turn))
    for series, label in ((r.first_meld_by_turn, "first meld possible"),
                          (r.canasta_by_turn, "7 naturals of a rank")):
        v = np.array([e.value for e in series])
        ax.plot(ks, v, marker="o", ms=3, label=label)
        ax.fill_between(ks, [e.lo for e in series], [e.hi for e in series], alpha=0.25)
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel("cards drawn (turns)")
    ax.set_ylabel("probability")
    ax.set_ylim(0, 1.02)
    how = "exact" if getattr(r, "exact", False) else f"{r.samples:,} deals"
    ax.set_title(f"Canasta: the first meld and 7 naturals by turn ({how})")
    ax.legend(frameon=False, loc="center left", bbox_to_anchor=(1.0, 0.5))  # beside the plot, clear of the curves
    return ax


def _check_hand_size(hand_size, turns, rules):
    if isinstance(hand_size, bool) or not isinstance(hand_size, (int, np.integer)):
        raise ValueError(f"hand_size={hand_size!r} must be a whole number, e.g. 12")
    most = (rules.deck_size - 1 - turns) // 4
    if not 1 <= hand_size <= most:
        raise ValueError(f"hand_size={hand_size} is outside 1..{most}: four hands, the upcard and "
                         f"{turns} draws must fit in the {rules.deck_size}-card pack")


@takes_backend
def melds(hand_size: int = HAND_SIZE, *, rules: CanastaRules | None = None, samples: int | None = None,
          target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None,
          turns: int = MELD_TURNS, discard: str = DISCARD_RULES[0], exact: bool = False,
          chunk_size: int = engine.DEFAULT_CHUNK, progress: bool = False) -> MeldOddsResult:
    """Meld odds of a dealt hand: the first meld (for every wild limit), by taking the upcard,
    by turn k = 0..``turns`` drawing one card a turn (kept, no pile), 7 naturals of a rank by
    turn, the best first-meld value, wilds and red 3s per hand and per partnership, pairs.

    ``exact=True`` enumerates; otherwise Monte Carlo with ``samples`` deals (default 200,000)
    or until the first-meld interval is ``target_halfwidth`` wide. ``discard`` is the drawing
    player's discard rule (:mod:`cardodds.canasta.discard`): ``"keep"`` every card (exact possible)
    or ``"weakest"`` (the hand stays at its size; Monte Carlo only).
    """
    rules = _check_common(rules, turns, samples, target_halfwidth, exact, threads, rng, discard)
    _check_hand_size(hand_size, turns, rules)
    if exact:
        return _melds_exact(int(hand_size), rules, int(turns))
    if samples is None and target_halfwidth is None:
        samples = DEFAULT_MELD_SAMPLES
    layout = K.deal_layout(int(turns), rules.jokers)
    first = layout.slice("first_meld_by_limit").start + rules.wild_code

    def halfwidth(counts, n):
        return Estimate.proportion(counts[first], n).halfwidth

    res = engine.run(K.deal_kernel,
                     (deck_kinds(rules.jokers), deck_counts(rules.jokers), int(hand_size), int(turns), rules.pack(),
                      layout.offsets_array(), K.discard_arg(DISCARD_RULES.index(discard)), None),
                     layout.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=halfwidth,
                     rng=rng, threads=threads, progress=progress, chunk_size=chunk_size)
    return _melds_from_counts(layout, res, int(hand_size), int(turns), rules, discard)


def _fields(layout, counts) -> SimpleNamespace:
    """Every field of a counts layout as an array (a layout view reads size-1 fields as ints,
    and a run-dependent field such as ``first_meld_by_turn`` may have size 1)."""
    return SimpleNamespace(**{name: counts[layout.slice(name)] for name in layout.names()})


def _melds_from_counts(layout, res, hand_size: int, turns: int, rules: CanastaRules, discard: str) -> MeldOddsResult:
    n = res.samples
    v = _fields(layout, res.counts)

    def p(x):
        return Estimate.proportion(int(x), n)
    by_limit = {w: p(x) for w, x in zip(WILD_LIMITS, v.first_meld_by_limit)}
    nat = v.best_rank_naturals
    return MeldOddsResult(
        first_meld=by_limit[rules.wild_limit],
        first_meld_by_limit=by_limit,
        first_meld_by_turn=tuple(p(x) for x in v.first_meld_by_turn),
        canasta_by_turn=tuple(p(x) for x in v.canasta_by_turn),
        pile_open=p(v.pile_open[0]),
        best_value={5 * i: p(x) for i, x in enumerate(v.best_value) if x > 0},
        wild_cards=_trim(_dist_estimates(v.wild_cards, n)),
        red_threes=_dist_estimates(v.red_threes, n),
        partnership_wild_cards=_trim(_dist_estimates(v.partnership_wild_cards, n)),
        partnership_red_threes=_dist_estimates(v.partnership_red_threes, n),
        best_rank_naturals=_trim(_dist_estimates(nat, n)),
        pair=p(nat[2:].sum()),
        three=p(nat[3:].sum()),
        # conditional on the wilds dealt: a proportion among the hands with that many wilds
        first_meld_by_wilds={w: Estimate.proportion(int(x), int(y))
                             for w, (x, y) in enumerate(zip(v.first_meld_by_wilds, v.wild_cards)) if y > 0},
        hand_size=hand_size, turns=turns, rules=rules, exact=False, samples=n, seed=res.seed,
        discard=discard, bad_deals=int(v.bad[0]), partial=res.partial, seconds=res.seconds, counts=res.counts,
    )


def _melds_exact(hand_size, rules, turns) -> MeldOddsResult:
    E = Estimate.exact_value
    by_limit = {w: E(_exact.first_meld_probability(hand_size, rules=replace(rules, wild_limit=w))) for w in WILD_LIMITS}
    nat = _exact.max_natural_distribution(hand_size, rules=rules)
    wild_max = 8 + rules.jokers
    return MeldOddsResult(
        first_meld=by_limit[rules.wild_limit],
        first_meld_by_limit=by_limit,
        first_meld_by_turn=tuple(E(p) for p in _exact.first_meld_by_turn(turns, rules=rules, hand_size=hand_size)),
        canasta_by_turn=tuple(E(p) for p in _exact.canasta_by_turn(turns, rules=rules, hand_size=hand_size)),
        pile_open=E(_exact.pile_open_probability(hand_size, rules=rules)),
        best_value={v: E(p) for v, p in _exact.best_meld_distribution(hand_size, rules=rules).items() if p > 0},
        wild_cards=_trim(_exact_dist(_exact.wild_distribution(hand_size, rules=rules), wild_max + 1)),
        red_threes=_exact_dist(_exact.red_three_distribution(hand_size, rules=rules), 5),
        partnership_wild_cards=_trim(_exact_dist(_exact.wild_distribution(2 * hand_size, rules=rules), wild_max + 1)),
        partnership_red_threes=_exact_dist(_exact.red_three_distribution(2 * hand_size, rules=rules), 5),
        best_rank_naturals=_trim(_exact_dist(nat, 9)),
        pair=E(sum(p for m, p in nat.items() if m >= 2)),
        three=E(sum(p for m, p in nat.items() if m >= 3)),
        first_meld_by_wilds={w: E(p) for w, p in _exact.first_meld_by_wilds(hand_size, rules=rules).items()},
        hand_size=hand_size, turns=turns, rules=rules, exact=True, samples=0, seed=None,
    )


@dataclass(frozen=True, repr=False)
class HandOddsResult(Result):
    """Odds of a given hand over the draws (see :func:`hand_odds`)."""

    hand: str
    best_meld: FirstMeld
    first_meld_by_turn: tuple[Estimate, ...]
    canasta_by_turn: tuple[Estimate, ...]
    turns: int
    exact: bool
    discard: str = "keep"
    bad_draws: int = 0
    counts: np.ndarray | None = counts_field(default=None)

    def to_dict(self) -> dict:
        return {
            **_json_head(self, "hand", hand=self.hand), "best_meld": self.best_meld.to_dict(),
            "first_meld_by_turn": [e.to_dict() for e in self.first_meld_by_turn],
            "canasta_by_turn": [e.to_dict() for e in self.canasta_by_turn],
            "partial": self.partial,
        }

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame({
            "turn": range(self.turns + 1),
            "first_meld": [e.value for e in self.first_meld_by_turn],
            "first_meld_lo": [e.lo for e in self.first_meld_by_turn],
            "first_meld_hi": [e.hi for e in self.first_meld_by_turn],
            "canasta": [e.value for e in self.canasta_by_turn],
            "canasta_lo": [e.lo for e in self.canasta_by_turn],
            "canasta_hi": [e.hi for e in self.canasta_by_turn],
        })

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"{self.samples:,} samples, seed {self.seed}"
        m = self.best_meld
        best = f"{m.meld!r} worth {m.value}" if m.meld is not None else "none"
        lines = [f"Canasta hand {self.hand} ({how})", f"  best first meld now: {best}"
                 f" ({'opens' if m.opens else 'below'} {m.minimum})"]
        for k in range(self.turns + 1):
            lines.append(f"  turn {k:2}: first meld {self.first_meld_by_turn[k].format(percent=True):>24}"
                         f"   7 naturals {self.canasta_by_turn[k].format(percent=True)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return result_html("", self.to_frame(), index=False, pre=repr(self))

    def plot(self, ax=None):
        """First meld and 7 naturals of a rank by turn, with 95% intervals."""
        return _plot_by_turn(self, ax)


@takes_backend
def hand_odds(hand, turns: int = HAND_TURNS, *, rules: CanastaRules | None = None, samples: int | None = None,
              target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None,
              discard: str = DISCARD_RULES[0], exact: bool = False, chunk_size: int = engine.DEFAULT_CHUNK,
              progress: bool = False) -> HandOddsResult:
    """Odds that ``hand`` can lay its first meld, and holds 7 naturals of a rank, after k draws.

    Entry 0 is the hand as given. Each turn draws one card from the cards the hand has not
    seen and keeps it (no discard, no pile). ``exact=True`` enumerates; otherwise Monte Carlo
    (default 100,000 samples). ``discard="weakest"`` keeps the hand at its size instead
    (Monte Carlo only; see :mod:`cardodds.canasta.discard`).

    >>> hand_odds("Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", turns=1, exact=True).first_meld_by_turn[1]
    Estimate(0.1875 exact)
    """
    rules = _check_common(rules, turns, samples, target_halfwidth, exact, threads, rng, discard)
    counts = _hand_counts_of(hand, rules)
    size = int(counts.sum())
    left = rules.deck_size - size
    if size < 1:
        raise ValueError("the hand is empty; give its cards, e.g. --hand 'Ah Ad 2c Jk 7s'")
    if turns > left:
        raise ValueError(f"turns={turns} draws more cards than the {left} the hand has not seen")
    text = format_counts(counts)
    best = best_first_meld(counts, rules=rules)
    t = int(turns)
    if exact:
        E = Estimate.exact_value
        return HandOddsResult(text, best,
                              tuple(E(p) for p in _exact.first_meld_by_turn(t, rules=rules, hand=counts)),
                              tuple(E(p) for p in _exact.canasta_by_turn(t, rules=rules, hand=counts)),
                              t, True, rules=rules, samples=0, seed=None)
    if samples is None and target_halfwidth is None:
        samples = DEFAULT_HAND_SAMPLES
    rest = np.repeat(np.arange(len(counts), dtype=np.int64), deck_counts(rules.jokers) - counts)
    layout = K.hand_layout(t)
    by_turn = layout.slice("first_meld_by_turn")

    def halfwidth(c, n):
        return max(Estimate.proportion(x, n).halfwidth for x in c[by_turn])

    res = engine.run(K.hand_kernel, (counts.astype(np.int64), rest, t, rules.pack(), layout.offsets_array(),
                                     K.discard_arg(DISCARD_RULES.index(discard)), None),
                     layout.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=halfwidth,
                     rng=rng, threads=threads, progress=progress, chunk_size=chunk_size)
    v, n = _fields(layout, res.counts), res.samples
    return HandOddsResult(text, best,
                          tuple(Estimate.proportion(x, n) for x in v.first_meld_by_turn),
                          tuple(Estimate.proportion(x, n) for x in v.canasta_by_turn),
                          t, False, rules=rules, samples=n, seed=res.seed, discard=discard, bad_draws=int(v.bad[0]),
                          partial=res.partial, counts=res.counts)


def _hand_counts_of(hand, rules: CanastaRules) -> np.ndarray:
    """Counts per kind of a hand given as counts (checked against the pack) or as text."""
    if not isinstance(hand, np.ndarray):
        return hand_counts(hand, jokers=rules.jokers)
    counts = np.asarray(hand, dtype=np.int64)
    if counts.shape != (N_KINDS,) or (counts < 0).any() or (counts > deck_counts(rules.jokers)).any():
        raise ValueError("hand counts must be 15 counts per kind within the pack; "
                         "or give the hand as text, e.g. 'Ah Ad 2c Jk 7s'")
    return counts
