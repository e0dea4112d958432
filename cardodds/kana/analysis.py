"""Känä odds: Monte Carlo, exact, and live (mid-round).

>>> from cardodds.kana import odds, exact_odds, live_odds
>>> r = odds(players=4, samples=200_000, rng=1)
>>> round(sum(e.value for e in r.win), 12)
1.0
>>> exact_odds(players=2).extra_round.fraction
Fraction(839, 16575)
>>> live = live_odds({0: "5h Ks Qd", 1: "2c Ah Ad"}, players=2)
>>> live.method, live.win[1].value
('exact', 1.0)
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from fractions import Fraction

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from .._validate import check_run
from ..cards import card_str, format_cards, parse_cards
from ..engine import run, takes_backend
from .._html import result_html
from ..results import Result, counts_field
from ..rng import RngLike
from ..stats import Z95, Estimate
from . import exact as _exact
from ._defaults import ODDS_SAMPLES
from ._kernels import COMBOS, config_layout, play_configs, play_rounds, round_layout
from ._live import enumerate_live
from ._table import EXTRA
from .policies import pack_lineups, parse_policy
from .rules import KanaRules

__all__ = ["OddsResult", "exact_odds", "live_odds", "odds", "parse_shown"]

DEFAULT_SAMPLES = ODDS_SAMPLES
#: Live odds are enumerated exactly when the unknown kept cards have at most this many
#: rank combinations (a fraction of a second); above it Monte Carlo is used.
EXACT_AUTO_LIMIT = 3_000_000
#: ``method="exact"`` refuses above this (minutes of enumeration).
EXACT_MAX = 200_000_000
HAND_VALUES = tuple(range(4, 29))
ROLES = ("känäd", "first turned", "second turned")


# ---------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class OddsResult(Result):
    """Odds of one Känä round: each seat's win probability and the round's figures.

    Seats count clockwise from the round's starter (seat 0). ``hand_value`` and
    ``superkana`` are seat 0's; ``extra_round`` is P(the best hand is tied). ``method`` is
    ``"exact"`` (enumeration; zero error) or ``"monte carlo"``. ``shown`` lists the cards on
    the table for live odds (seat -> cards in the order shown). ``counts`` keeps the raw
    Monte Carlo counts (None for exact results).
    """

    method: str
    win: tuple[Estimate, ...]
    extra_round: Estimate
    superkana: Estimate
    hand_value: dict[int, Estimate]
    last_round_starter: tuple[Estimate, ...] | None = None
    extra_rounds_per_round: Estimate | None = None
    tie_again: dict[int, Estimate] = field(default_factory=dict)
    shown: dict[int, tuple[int, ...]] = field(default_factory=dict)
    strategies: tuple[str, ...] | None = None
    seconds: float = field(default=0.0, compare=False)  # wall time: not part of the result
    counts: np.ndarray | None = counts_field(default=None)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def net(self) -> tuple[Estimate, ...]:
        """Each seat's expected gain per round in the rules' currency: pot x P(win) - ante."""
        return tuple(w.scaled(self.rules.pot, -self.rules.ante) for w in self.win)

    def to_frame(self) -> pd.DataFrame:
        """One row per seat: win probability with its interval, and the expected gain."""
        import pandas as pd
        rows = []
        for s, (w, g) in enumerate(zip(self.win, self.net)):
            rows.append({"seat": s, "win": w.value, "se": w.se, "lo": w.lo, "hi": w.hi, "net": g.value})
        return pd.DataFrame(rows).set_index("seat")

    def hand_value_frame(self) -> pd.DataFrame:
        """Seat 0's hand value distribution (4 = Superkänä) with intervals."""
        import pandas as pd
        rows = [{"value": v, "p": e.value, "lo": e.lo, "hi": e.hi} for v, e in self.hand_value.items()]
        return pd.DataFrame(rows).set_index("value")

    def to_dict(self) -> dict:
        """The JSON form documented in the README (every probability as value/se/lo/hi)."""
        d = {
            "players": self.players,
            "method": self.method,
            "samples": self.samples,
            "seed": self.seed,
            "partial": self.partial,
            "rules": self.rules.to_dict(),
            "version": self.version,
            "win": [w.to_dict() for w in self.win],
            "net": [g.to_dict() for g in self.net],
            "extra_round": self.extra_round.to_dict(),
            "superkana": self.superkana.to_dict(),
            "hand_value": {str(v): e.to_dict() for v, e in self.hand_value.items()},
        }
        if self.last_round_starter is not None:
            d["last_round_starter"] = [e.to_dict() for e in self.last_round_starter]
        if self.extra_rounds_per_round is not None:
            d["extra_rounds_per_round"] = self.extra_rounds_per_round.to_dict()
        if self.tie_again:
            d["tie_again"] = {str(k): e.to_dict() for k, e in self.tie_again.items()}
        if self.shown:
            d["shown"] = {str(s): format_cards(c) for s, c in self.shown.items()}
        if self.strategies:
            d["strategies"] = list(self.strategies)
        return d

    def _header(self) -> str:
        r = self.rules
        how = "exact" if self.method == "exact" else f"Monte Carlo, {self.samples:,} rounds, seed {self.seed}"
        head = f"Känä, {r.players} players, {r.variant} rules ({how})"
        if self.strategies:
            head += "\n  strategies: " + ", ".join(self.strategies)
        if self.partial:
            head += " [PARTIAL: interrupted]"
        return head

    def __repr__(self) -> str:
        lines = [self._header()]
        if self.shown:
            for s, cards in self.shown.items():
                roles = ", ".join(f"{ROLES[j]} {card_str(c)}" for j, c in enumerate(cards))
                lines.append(f"  seat {s} shows: {roles}")
        lines.append("  seat   win (95% interval)          net per round")
        for s, (w, g) in enumerate(zip(self.win, self.net)):
            lines.append(f"  {s:>4}   {w.format(4):<28} {g.value:+.4f}")
        lines.append(f"  extra round needed: {self.extra_round.format(4)}")
        lines.append(f"  seat 0 Superkänä:   {self.superkana.format(5)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return result_html(self._header(), self.to_frame())

    def plot(self, ax=None, exact: Mapping[int, float] | None = None):
        """Bar chart of seat 0's hand value distribution with 95% intervals (and exact values)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(8, 3.5), layout="constrained")
        vals = list(self.hand_value)
        p = np.array([self.hand_value[v].value for v in vals])
        lo = np.array([self.hand_value[v].lo for v in vals])
        hi = np.array([self.hand_value[v].hi for v in vals])
        ax.bar(vals, p, color="#7a9cc6", label=f"{self.method}")
        if self.method != "exact":
            ax.errorbar(vals, p, yerr=[p - lo, hi - p], fmt="none", ecolor="k", lw=0.8, capsize=2)
        if exact is not None:
            ax.plot(list(exact), [float(exact[v]) for v in exact], "o", color="#c0392b", ms=3.5, label="exact")
        ax.set_xlabel("hand value (4 = Superkänä)")
        ax.set_ylabel("probability")
        ax.set_xticks(vals[::2])
        how = "exact" if self.method == "exact" else f"{self.samples:,} rounds"
        ax.set_title(f"Känä, {self.players} players: seat 0's hand value ({how})")
        ax.legend(frameon=False, loc="upper left")
        return ax


# ---------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------


def _rules_from(players, rules) -> KanaRules:
    if rules is None:
        return KanaRules() if players is None else KanaRules(players=players)
    if not isinstance(rules, KanaRules):
        raise ValueError(f"rules={rules!r} must be a cardodds.kana.KanaRules")
    if players is not None and players != rules.players:
        raise ValueError(f"players={players} disagrees with rules.players={rules.players}; give one of them")
    return rules


def _check_official(rules: KanaRules, what: str) -> None:
    if rules.variant != "official":
        raise ValueError(
            f"{what} handles variant='official' only; for {rules.variant!r} use cardodds.kana.advise, "
            "which knows the players' strategies"
        )


def parse_shown(shown, players: int) -> dict[int, tuple[int, ...]]:
    """Read the cards shown so far: ``{seat: "5h Ks"}``, ``["1:5h Ks", ...]`` or a string.

    Cards of a seat are in the order they were shown: its känäd card, its first turned
    card, its second turned card. Raises ``ValueError`` for an unknown seat, a card that
    does not parse, a card shown twice or more than three cards for a seat.
    """
    if shown is None:
        return {}
    if isinstance(shown, str):
        shown = [t for t in re.split(r"\s*;\s*|\n", shown.strip()) if t]
    items: list[tuple[Any, Any]]
    if isinstance(shown, Mapping):
        items = list(shown.items())
    elif isinstance(shown, Sequence):
        items = []
        for entry in shown:
            if not isinstance(entry, str) or ":" not in entry:
                raise ValueError(
                    f"shown entry {entry!r} must look like 'SEAT:CARDS', e.g. '1:5h Ks' "
                    "(seat 1 känäd 5h and turned Ks)"
                )
            seat, cards = entry.split(":", 1)
            items.append((seat.strip(), cards))
    else:
        raise ValueError("shown must map seats to cards, e.g. {1: '5h Ks'}, or be a list like ['1:5h Ks']")
    out: dict[int, tuple[int, ...]] = {}
    everything: list[int] = []
    for seat, cards in items:
        try:
            s = int(seat)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"seat {seat!r} is not a number; seats count 0..{players - 1} from the starter") from None
        if not 0 <= s < players:
            raise ValueError(
                f"seat {s} does not exist at a table of {players}; seats count 0..{players - 1} clockwise "
                "from the round's starter (seat 0)"
            )
        if s in out:
            raise ValueError(f"seat {s} is given twice; list all of a seat's shown cards in one entry")
        parsed = parse_cards(cards)
        if len(parsed) > 3:
            raise ValueError(
                f"seat {s} shows {len(parsed)} cards ({format_cards(parsed)}); a seat shows at most 3: "
                "its känäd card, then its two kept cards as they are turned"
            )
        if parsed:
            out[s] = tuple(parsed)
            everything += parsed
    dup = {c for c in everything if everything.count(c) > 1}
    if dup:
        raise ValueError(f"card {card_str(min(dup))} is shown twice; each card of the deck exists once")
    return dict(sorted(out.items()))


def _check_progress(shown: dict[int, tuple[int, ...]], rules: KanaRules) -> None:
    """The shown cards must be a moment the round can reach, in its order of play."""
    n = rules.players
    c = [len(shown.get(s, ())) for s in range(n)]
    if not any(c):
        return
    if max(c) == 1 or min(c) == 0:
        # Känä round: clockwise from the starter, so the seats that have känäd are 0..j-1.
        j = c.index(0) if 0 in c else n
        if max(c) > 1:
            early = next(s for s in range(n) if c[s] > 1)
            raise ValueError(
                f"seat {early} shows {c[early]} cards but seat {j} has not känäd yet: the turn rounds "
                "start only after every seat has känäd"
            )
        if any(c[j:]):
            late = next(s for s in range(j, n) if c[s])
            raise ValueError(
                f"seat {late} has känäd before seat {j}: the känä round goes clockwise from seat 0, "
                "so the seats that have känäd are 0, 1, ... in order"
            )
        return
    if 3 not in c:
        # First turn round, again clockwise from the starter.
        j = c.index(1) if 1 in c else n
        if any(x != 1 for x in c[j:]):
            raise ValueError(
                f"seat {j} has not turned its first card yet, so no later seat can have: the first turn "
                "round goes clockwise from seat 0"
            )
        return
    if min(c) < 2:
        late = c.index(1)
        raise ValueError(
            f"seat {late} has not turned its first card, so the last turn round cannot have started"
        )
    first = [shown[s][1] >> 2 for s in range(n)]
    low = min(first)
    ties = [s for s in range(n) if first[s] == low]
    start = ties[0] if rules.last_round_tie == "earliest" else ties[-1]
    order = [(start + k) % n for k in range(n)]
    done = [c[s] == 3 for s in order]
    j = done.index(False) if False in done else n
    if any(done[j:]):
        raise ValueError(
            f"the last turn round starts at seat {start} (lowest first-turned card) and goes clockwise; "
            f"seat {order[j]} has not turned its last card, so seat {order[done.index(True, j)]} cannot have"
        )


# ---------------------------------------------------------------------------------------
# Monte Carlo
# ---------------------------------------------------------------------------------------


def _halfwidth_of_wins(n: int):
    def hw(counts: np.ndarray, total: int) -> float:
        if total == 0:
            return math.inf
        p = counts[:n] / total
        return float(Z95 * np.sqrt(np.max(p * (1.0 - p)) / total))

    return hw


def _kernel_args(rules: KanaRules, shown: dict[int, tuple[int, ...]], positions) -> tuple:
    """``(rules, lay, positions, fixed, base_deck)`` for :func:`play_rounds`."""
    n = rules.players
    fixed = None  # nothing shown: the kernel compiles without the shown-card branch
    if shown:
        fixed = np.full((n, 3), -1, np.int64)
        for s, cards in shown.items():
            fixed[s, : len(cards)] = cards
    out_cards = {c for cards in shown.values() for c in cards}
    base_deck = np.array([c for c in range(52) if c not in out_cards], np.int64)
    return (rules.pack(), round_layout(n).offsets_array(), np.asarray(positions, np.int64), fixed, base_deck)


def _positions(kana, n: int) -> np.ndarray:
    """Blind känä choices per seat: 0, 1, 2 (the card's position among the three) or -1 random."""
    names = {"first": 0, "second": 1, "third": 2, "random": -1}
    if isinstance(kana, (str, int)) and not isinstance(kana, bool):
        kana = [kana] * n
    kana = list(kana)
    if len(kana) != n:
        raise ValueError(f"kana= lists {len(kana)} choices for {n} seats; give one per seat or a single one")
    out = []
    for k in kana:
        if isinstance(k, str) and k in names:
            out.append(names[k])
        elif isinstance(k, int) and not isinstance(k, bool) and k in (0, 1, 2, -1):
            out.append(k)
        else:
            raise ValueError(
                f"känä choice {k!r} is not known; under the official rules choose a position: "
                "'first', 'second', 'third' (or 0, 1, 2) or 'random'"
            )
    return np.array(out, np.int64)


def _simulate(rules: KanaRules, shown, positions, samples, target_halfwidth, rng, threads, progress) -> OddsResult:
    """Official rounds with blind känäs at ``positions`` and the ``shown`` cards fixed."""
    n = rules.players
    res = run(play_rounds, _kernel_args(rules, shown, positions), round_layout(n).size, samples=samples,
              target_halfwidth=target_halfwidth, halfwidth=_halfwidth_of_wins(n), rng=rng, threads=threads,
              progress=progress, unit="round")
    v = round_layout(n).view(res.counts)
    return _odds_result(rules, res, v.wins, v.hand_value, v.extra, shown=shown,
                        last_round_starter=tuple(Estimate.proportion(x, res.samples) for x in v.last_round_starter))


def _odds_result(rules: KanaRules, res, wins, hand_value, extra, **more) -> OddsResult:
    """A Monte Carlo result from the wins per seat, seat 0's (or the focal seat's) hand
    values and an extra-round block."""
    N = res.samples
    e = EXTRA.view(extra)
    hist = {v: Estimate.proportion(x, N) for v, x in zip(HAND_VALUES, hand_value)}
    return OddsResult(
        rules=rules, method="monte carlo", samples=N, seed=res.seed,
        win=tuple(Estimate.proportion(x, N) for x in wins),
        extra_round=Estimate.proportion(e.needed, N), superkana=hist[4], hand_value=hist,
        extra_rounds_per_round=_extra_per_round(e.per_round),
        tie_again={k: Estimate.proportion(e.tied_again[k], e.by_players[k]) for k in range(2, 18)
                   if e.by_players[k] > 0},
        partial=res.partial, seconds=res.seconds, counts=res.counts, **more,
    )


def _extra_per_round(per_round: np.ndarray) -> Estimate:
    """Mean number of extra rounds a round needs, from rounds counted by that number."""
    x = np.arange(per_round.shape[0], dtype=float)  # the last bin holds the (vanishing) 15+
    return Estimate.mean(float(per_round @ x), float(per_round @ (x * x)), int(per_round.sum()))


@takes_backend
def odds(
    players: int | None = None, *, rules: KanaRules | None = None, samples: int | None = None,
    target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None, kana="first",
    policies=None, progress: bool = False,
) -> OddsResult:
    """Simulate official Känä rounds: each seat's win probability and the round's figures.

    ``kana`` is each seat's blind känä choice (a position among its three face-down cards:
    ``"first"``, ``"second"``, ``"third"``, or ``"random"``; one for all or one per seat).
    Under the official rules it changes nothing, and the figures show it.

    ``policies`` (one for all seats or one per seat; see ``cardodds.kana.policies``) plays a
    house variant (``rules.variant`` "peek-one" or "peek-all") or any mix of players; then
    ``last_round_starter`` is not counted.

    Give ``samples`` (default 2,000,000 rounds) or ``target_halfwidth`` (stop when every
    seat's 95% interval is that narrow). Same ``rng`` seed, same counts, on any ``threads``.

    >>> r = odds(3, samples=100_000, rng=7)
    >>> r.players, r.samples
    (3, 100000)
    """
    rules = _rules_from(players, rules)
    check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    if samples is None and target_halfwidth is None:
        samples = DEFAULT_SAMPLES
    if policies is not None or rules.variant != "official":
        if policies is None:
            raise ValueError(f"variant {rules.variant!r} needs policies=, e.g. ['threshold:8'] * {rules.players}")
        return _odds_with_policies(rules, policies, samples, target_halfwidth, rng, threads, progress)
    return _simulate(rules, {}, _positions(kana, rules.players), samples, target_halfwidth, rng, threads, progress)


def _odds_with_policies(rules, policies, samples, target_halfwidth, rng, threads, progress) -> OddsResult:
    n = rules.players
    if isinstance(policies, str) or not hasattr(policies, "__len__"):
        policies = [policies] * n
    if len(policies) != n:
        raise ValueError(f"policies= lists {len(policies)} for {n} seats; give one per seat or one for all")
    seats = [parse_policy(x, rules.variant) for x in policies]
    table, custom = pack_lineups([seats], n)
    K = {"official": 1, "peek-one": 13}.get(rules.variant, COMBOS)
    layout = config_layout(n, 1, K)
    wins = layout.slice("wins")

    def hw(counts, total):
        return _halfwidth_of_wins(n)(counts[wins], total)

    res = run(play_configs, (rules.pack(), layout.offsets_array(), table, 0, custom), layout.size,
              samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw, rng=rng, threads=threads,
              progress=progress, unit="round")
    v = layout.view(res.counts)
    return _odds_result(rules, res, v.wins, v.hand_value, v.extra, strategies=tuple(x.name for x in seats))


# ---------------------------------------------------------------------------------------
# Exact
# ---------------------------------------------------------------------------------------


def exact_odds(players: int | None = None, *, rules: KanaRules | None = None) -> OddsResult:
    """The exact figures of an official round (no sampling; zero error).

    Win probabilities (1/n each, computed for 2..4 players and by exchangeability beyond),
    P(extra round) and seat 0's hand value distribution; P(an extra round ties again) is
    exact for ``tiebreak_deck="fresh"`` only (with the remaining stock it depends on the
    cards dealt, so it is left out).

    >>> exact_odds(4).extra_round.value
    0.08861701716...
    """
    rules = _rules_from(players, rules)
    _check_official(rules, "exact_odds()")
    n = rules.players
    hv = _exact.hand_value_distribution()
    tie_again = {}
    if rules.tiebreak_deck == "fresh":
        tie_again = {k: Estimate.exact_value(_exact.p_extra_ties_again(k)) for k in range(2, n + 1)}
    return OddsResult(
        rules=rules,
        method="exact",
        samples=0,
        seed=None,
        win=tuple(Estimate.exact_value(w) for w in _exact.win_probabilities(n)),
        extra_round=Estimate.exact_value(_exact.p_extra_round(n)),
        superkana=Estimate.exact_value(_exact.p_superkana()),
        hand_value={v: Estimate.exact_value(hv[v]) for v in HAND_VALUES},
        last_round_starter=tuple(
            Estimate.exact_value(p) for p in _exact.last_round_starter_probabilities(n, rules.last_round_tie)
        ),
        tie_again=tie_again,
    )


# ---------------------------------------------------------------------------------------
# Live odds
# ---------------------------------------------------------------------------------------


def _live_size(shown, n: int) -> int:
    size = 1
    for s in range(n):
        k = len(shown.get(s, ()))
        size *= 91 if k <= 1 else (13 if k == 2 else 1)
    return size


@takes_backend
def live_odds(
    shown, players: int | None = None, *, rules: KanaRules | None = None, samples: int | None = None,
    target_halfwidth: float | None = None, rng: RngLike = None, threads: int | None = None, method: str = "auto",
    progress: bool = False,
) -> OddsResult:
    """Each seat's probability of winning, given every card shown so far in the round.

    ``shown`` maps a seat (0 = the starter, clockwise) to the cards it has shown, in order:
    its känäd card, its first turned card, its second turned card (``{1: "5h Ks"}``, or
    ``["1:5h Ks"]`` as the CLI takes it). Extra rounds are counted: a seat tied for the best
    hand with ``k - 1`` others wins with probability ``1/k``, since the extra rounds are
    blind and the same for each of them.

    ``method="auto"`` enumerates exactly when the unknown kept cards are few enough to do
    so quickly, else simulates; ``"exact"`` or ``"monte carlo"`` force one. The result's
    ``method`` says which was used.

    >>> r = live_odds({0: "3c 2d 2h", 1: "2c 5h"}, players=2)  # seat 0 holds a Superkänä
    >>> r.method, r.win[0].value
    ('exact', 1.0)
    """
    rules = _rules_from(players, rules)
    _check_official(rules, "live_odds()")
    n = rules.players
    if method not in ("auto", "exact", "monte carlo"):
        raise ValueError(f"method={method!r} is not known; choose 'auto', 'exact' or 'monte carlo'")
    shown = parse_shown(shown, n)
    _check_progress(shown, rules)
    check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    size = _live_size(shown, n)
    if method == "exact" and size > EXACT_MAX:
        raise ValueError(
            f"exact enumeration would visit {size:,} combinations of unknown cards; use method='monte carlo' "
            "(or --samples/--precision in the CLI), or wait until more cards are shown"
        )
    use_exact = method == "exact" or (method == "auto" and size <= EXACT_AUTO_LIMIT and samples is None
                                      and target_halfwidth is None)
    if use_exact:
        return _live_exact(rules, shown)
    if samples is None and target_halfwidth is None:
        samples = DEFAULT_SAMPLES
    return _simulate(rules, shown, np.zeros(n, np.int64), samples, target_halfwidth, rng, threads, progress)


def _live_exact(rules: KanaRules, shown: dict[int, tuple[int, ...]]) -> OddsResult:
    n = rules.players
    known_a = np.full(n, -1, np.int64)
    known_b = np.full(n, -1, np.int64)
    cnt = np.full(13, 4, np.int64)
    for s, cards in shown.items():
        for c in cards:
            cnt[c >> 2] -= 1
        if len(cards) >= 2:
            known_a[s] = cards[1] >> 2
        if len(cards) == 3:
            known_b[s] = cards[2] >> 2
    win, p_tie, _ = enumerate_live(n, known_a, known_b, cnt, int(rules.extra_round == "all"))
    hist = _seat_value_distribution(known_a[0], known_b[0], cnt)
    return OddsResult(
        rules=rules,
        method="exact",
        samples=0,
        seed=None,
        win=tuple(Estimate.exact_value(float(w)) for w in win),
        extra_round=Estimate.exact_value(float(p_tie)),
        superkana=hist[4],
        hand_value=hist,
        shown=shown,
    )


def _seat_value_distribution(a: int, b: int, cnt: np.ndarray) -> dict[int, Estimate]:
    """Seat 0's hand value given its shown kept ranks (-1 unknown) and the unseen cards.

    Every unseen card is equally likely to be among its unknown kept cards (the other
    seats' unknown cards are exchangeable with them), so this is a count over the unseen.
    """
    weights: dict[int, Fraction] = {v: Fraction(0) for v in HAND_VALUES}
    ranks = [r for r in range(13) for _ in range(int(cnt[r]))]
    if a >= 0 and b >= 0:
        weights[a + b + 4] = Fraction(1)
    elif a >= 0:
        for r in ranks:
            weights[a + r + 4] += Fraction(1, len(ranks))
    else:
        total = len(ranks) * (len(ranks) - 1) // 2
        for i in range(len(ranks)):
            for j in range(i + 1, len(ranks)):
                weights[ranks[i] + ranks[j] + 4] += Fraction(1, total)
    return {v: Estimate.exact_value(w) for v, w in weights.items()}
