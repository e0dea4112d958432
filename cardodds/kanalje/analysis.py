"""Kanalje analyses: jack risk, what a hand is worth, the game to 21, strength matches.

Seats are numbered clockwise from the player left of the dealer (seat 0 leads the first
trick, seat 2 deals). Every figure is an :class:`~cardodds.stats.Estimate` with its 95%
interval; every result records its seed, sample count, rules, policies and version.

>>> r = jack_risk("heuristic", samples=20_000, rng=7)
>>> round(r.mean_total.value, 1)    # 7 plus the turned jack's penalty when one is turned
7.2
>>> h = evaluate_hand("2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d 7d 8d 9d 2h", turned="Ah",
...                   samples=2_000, rng=1)
>>> h.jacks["hearts"].value < 0.2
True
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from .. import __version__
from ..cards import RANKS, SUIT_NAMES, card_str, format_cards, parse_card, parse_cards
from ..engine import check_run_size, run, takes_backend
from ..stats import Estimate
from . import _kernels as K
from .policies import DEFAULT_LOOKAHEAD_SAMPLES, resolve_policies
from .rules import KanaljeRules

__all__ = [
    "GameResult",
    "HandResult",
    "JackRiskResult",
    "MatchResult",
    "evaluate_hand",
    "game_odds",
    "jack_risk",
    "play_deal",
    "strength_match",
]

#: Suits in the order jacks are reported: J♠ -1, J♣ -2, J♦ -3, J♥ -4.
JACK_ORDER = ("spades", "clubs", "diamonds", "hearts")
_SUIT_INDEX = {name: i for i, name in enumerate(SUIT_NAMES)}
#: Chunk sizes: the look-ahead player is ~1000x slower, so its chunks are small enough for a
#: progress bar and Ctrl-C, and depend only on the lineup (the seed-to-count map stays fixed).
_CHUNK_FAST = 1 << 16
_CHUNK_LOOKAHEAD = 64


# ---- validation ---------------------------------------------------------------------------
def _check_rules(rules) -> KanaljeRules:
    if rules is None:
        return KanaljeRules()
    if not isinstance(rules, KanaljeRules):
        raise ValueError(f"rules={rules!r} must be a KanaljeRules, e.g. KanaljeRules(turned_jack='last_trick')")
    return rules


def _check_lookahead_samples(n) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0 or n > 100_000:
        raise ValueError(f"lookahead_samples={n!r} must be a whole number 1..100000, e.g. 16")
    return int(n)


def _lineup(policies, rules):
    codes, names, user = resolve_policies(policies, rules.players)
    chunk = _CHUNK_LOOKAHEAD if K.P_LOOKAHEAD in codes else _CHUNK_FAST
    return np.array(codes, dtype=np.int64), names, user, chunk


def _default_samples(codes) -> int:
    return 2_000 if K.P_LOOKAHEAD in list(codes) else 200_000


def _meta(rules, names, samples, seed, lookahead_samples, partial) -> dict:
    return {"rules": rules.to_dict(), "policies": list(names), "samples": samples, "seed": seed,
            "lookahead_samples": lookahead_samples, "partial": partial, "version": __version__}


def _est_dict(e: Estimate) -> dict:
    return e.to_dict()


# ---- jack risk ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class JackRiskResult:
    """Who takes each jack, and each seat's score, over simulated deals of one lineup."""

    rules: KanaljeRules
    policies: tuple[str, ...]
    samples: int
    seed: Any
    lookahead_samples: int
    partial: bool = False
    version: str = __version__
    counts: np.ndarray = field(default=None, repr=False)

    # Figures ---------------------------------------------------------------------------
    def _seat_mean(self, seat: int, which: int) -> Estimate:
        o = K.O_SEAT + 6 * seat + 2 * which
        return Estimate.mean(float(self.counts[o]), float(self.counts[o + 1]), self.samples)

    @property
    def mean_score(self) -> list[Estimate]:
        return [self._seat_mean(s, 0) for s in range(self.rules.players)]

    @property
    def mean_penalty(self) -> list[Estimate]:
        return [self._seat_mean(s, 1) for s in range(self.rules.players)]

    @property
    def mean_tricks(self) -> list[Estimate]:
        return [self._seat_mean(s, 2) for s in range(self.rules.players)]

    @property
    def mean_total(self) -> Estimate:
        return Estimate.mean(float(self.counts[K.O_TOTAL]), float(self.counts[K.O_TOTAL + 1]), self.samples)

    def taken_by_seat(self, suit: str) -> list[Estimate]:
        s = _SUIT_INDEX[suit]
        return [Estimate.proportion(self.counts[K.O_TAKER + 4 * s + p], self.samples)
                for p in range(self.rules.players)]

    def out_of_play(self, suit: str) -> Estimate:
        s = _SUIT_INDEX[suit]
        return Estimate.proportion(self.counts[K.O_TAKER + 4 * s + 3], self.samples)

    def holder_takes(self, suit: str) -> Estimate:
        """P(the player dealt this jack ends up taking it | it was dealt to a player)."""
        s = _SUIT_INDEX[suit]
        dealt = int(self.counts[K.O_HOLD + 28 * s:K.O_HOLD + 28 * s + 28].sum())
        return Estimate.proportion(self.counts[K.O_HOLDER_TAKES + s], dealt)

    def leader_takes(self, suit: str) -> Estimate:
        """P(the jack is taken by the player who led the trick it falls in), over all deals."""
        s = _SUIT_INDEX[suit]
        return Estimate.proportion(self.counts[K.O_LEADER_TAKES + s], self.samples)

    def penalty_distribution(self, seat: int) -> list[Estimate]:
        """P(seat pays 0, 1, ..., 10 penalty points in a deal)."""
        o = K.O_PENDIST + K.PEN_BINS * seat
        return [Estimate.proportion(self.counts[o + v], self.samples) for v in range(K.PEN_BINS)]

    def score_distribution(self, seat: int) -> dict[int, Estimate]:
        """P(seat scores v in a deal), for the scores that occurred."""
        o = K.O_SCOREDIST + K.SCORE_BINS * seat
        return {v - K.SCORE_OFFSET: Estimate.proportion(self.counts[o + v], self.samples)
                for v in range(K.SCORE_BINS) if self.counts[o + v] > 0}

    def holder_table(self) -> pd.DataFrame:
        """'Holder takes own jack' by jack, whether its suit is trump, and the holder's length
        in the suit (rows with at least one deal)."""
        rows = []
        for suit in JACK_ORDER:
            s = _SUIT_INDEX[suit]
            for tr in (0, 1):
                for length in range(14):
                    o = 28 * s + 14 * tr + length
                    n = int(self.counts[K.O_HOLD + o])
                    if n == 0:
                        continue
                    e = Estimate.proportion(self.counts[K.O_HOLD_TAKES + o], n)
                    rows.append({"jack": suit, "trump": bool(tr), "length": length, "deals": n,
                                 "holder_takes": e.value, "lo": e.lo, "hi": e.hi})
        return pd.DataFrame(rows)

    @property
    def violations(self) -> int:
        """Broken invariants counted in a checked run (always 0 unless something is wrong)."""
        return int(self.counts[K.O_BAD])

    # Two players: phase 1 and the face-up card ----------------------------------------
    def _two(self):
        if self.rules.players != 2:
            raise ValueError("the face-up card and phase 1 exist only in the two-player game (players=2)")

    def faceup_leader_takes(self, by: str = "rank") -> dict[str, Estimate]:
        """Two players: P(the trick's leader wins a phase-1 trick, and so takes the face-up card)
        by the face-up card's rank (``by="rank"``, keys ``2``..``A``), suit (``"suit"``) or
        card (``"card"``); the follower takes it otherwise. Over all phase-1 tricks."""
        self._two()
        n = self.counts[K.O2_FU_N:K.O2_FU_N + 52]
        w = self.counts[K.O2_FU_LEAD:K.O2_FU_LEAD + 52]
        if by == "card":
            return {card_str(c): Estimate.proportion(int(w[c]), int(n[c])) for c in range(52)}
        if by == "rank":
            return {RANKS[r]: Estimate.proportion(int(w[4 * r:4 * r + 4].sum()), int(n[4 * r:4 * r + 4].sum()))
                    for r in range(13)}
        if by == "suit":
            return {SUIT_NAMES[s]: Estimate.proportion(int(w[s::4].sum()), int(n[s::4].sum())) for s in range(4)}
        raise ValueError(f"by={by!r}: use rank, suit or card")

    def faceup_jack(self, suit: str) -> dict[str, Estimate]:
        """Two players: for the jack of ``suit``: P(it is taken face up from the stock in a
        deal), P(its face-up taker ends up paying it), and the average cost of taking it face
        up (its penalty times that probability)."""
        self._two()
        s = _SUIT_INDEX[suit]
        n = int(self.counts[K.O2_FUJ_N + s])
        pay = Estimate.proportion(int(self.counts[K.O2_FUJ_PAY + s]), n)
        return {"taken_face_up": Estimate.proportion(n, self.samples), "taker_pays": pay,
                "cost": pay.scaled(self.rules.jack_penalty(suit)),
                "falls_in_phase1": Estimate.proportion(int(self.counts[K.O2_P1JACK + s]), self.samples)}

    @property
    def phase1_tricks(self) -> list[Estimate]:
        """Two players: each seat's mean number of phase-1 tricks won."""
        self._two()
        return [Estimate.mean(float(self.counts[K.O2_PHASE1_TRICKS + 2 * p]),
                              float(self.counts[K.O2_PHASE1_TRICKS + 2 * p + 1]), self.samples) for p in range(2)]

    def faceup_frame(self) -> pd.DataFrame:
        """Two players: P(the leader takes the face-up card) by its rank."""
        rows = [{"rank": k, "tricks": e.n, "leader_takes": e.value, "lo": e.lo,
                 "hi": e.hi} for k, e in self.faceup_leader_takes("rank").items()]
        return pd.DataFrame(rows).set_index("rank")

    # Presentation ---------------------------------------------------------------------
    def to_frame(self) -> pd.DataFrame:
        """One row per jack: who takes it, with 95% intervals."""
        rows = []
        for suit in JACK_ORDER:
            row = {"jack": suit, "penalty": self.rules.jack_penalty(suit)}
            for p, e in enumerate(self.taken_by_seat(suit)):
                row[f"seat{p}"] = e.value
            row["out_of_play"] = self.out_of_play(suit).value
            h = self.holder_takes(suit)
            row.update(holder_takes=h.value, holder_lo=h.lo, holder_hi=h.hi,
                       leader_takes=self.leader_takes(suit).value)
            rows.append(row)
        return pd.DataFrame(rows).set_index("jack")

    def seat_frame(self) -> pd.DataFrame:
        rows = []
        for p in range(self.rules.players):
            rows.append({"seat": p, "policy": self.policies[p], "score": self.mean_score[p].value,
                         "score_lo": self.mean_score[p].lo, "score_hi": self.mean_score[p].hi,
                         "penalty": self.mean_penalty[p].value, "tricks": self.mean_tricks[p].value})
        return pd.DataFrame(rows).set_index("seat")

    def to_dict(self) -> dict:
        d = _meta(self.rules, self.policies, self.samples, self.seed, self.lookahead_samples, self.partial)
        d["deals"] = self.samples
        d["mean_score"] = [_est_dict(e) for e in self.mean_score]
        d["mean_penalty"] = [_est_dict(e) for e in self.mean_penalty]
        d["mean_tricks"] = [_est_dict(e) for e in self.mean_tricks]
        d["mean_total"] = _est_dict(self.mean_total)
        d["jacks"] = {
            suit: {
                "penalty": self.rules.jack_penalty(suit),
                "holder_takes": _est_dict(self.holder_takes(suit)),
                "taken_by_seat": [_est_dict(e) for e in self.taken_by_seat(suit)],
                "out_of_play": _est_dict(self.out_of_play(suit)),
                "leader_takes": _est_dict(self.leader_takes(suit)),
            }
            for suit in JACK_ORDER
        }
        d["penalty_distribution"] = [[_est_dict(e) for e in self.penalty_distribution(p)]
                                     for p in range(self.rules.players)]
        d["score_distribution"] = [{str(v): _est_dict(e) for v, e in self.score_distribution(p).items()}
                                   for p in range(self.rules.players)]
        d["holder_takes_by_length"] = self.holder_table().to_dict(orient="records")
        if self.rules.players == 2:
            d["phase1_tricks"] = [_est_dict(e) for e in self.phase1_tricks]
            d["faceup_leader_takes"] = {by: {k: _est_dict(e) for k, e in self.faceup_leader_takes(by).items()}
                                        for by in ("rank", "suit")}
            d["faceup_jacks"] = {suit: {k: _est_dict(e) for k, e in self.faceup_jack(suit).items()}
                                 for suit in JACK_ORDER}
        return d

    def __repr__(self) -> str:
        what = f"turned_jack={self.rules.turned_jack!r}" if self.rules.players == 3 else "two players"
        lines = [f"JackRiskResult({'/'.join(self.policies)}, {self.samples:,} deals, seed {self.seed}, {what})"]
        for p in range(self.rules.players):
            lines.append(f"  seat {p} ({self.policies[p]}): score {self.mean_score[p].format(3)}, "
                         f"penalty {self.mean_penalty[p].format(3)}")
        for suit in JACK_ORDER:
            by = ", ".join(e.format(3) for e in self.taken_by_seat(suit))
            lines.append(f"  J of {suit:<8} taken by seats {by}; holder takes {self.holder_takes(suit).format(3)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(repr(self))}</pre>" + self.to_frame().to_html(float_format="%.4f")

    def plot(self, ax=None):
        """Bar chart: probability each seat takes each jack, with 95% intervals."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 3.5))
        width = 0.25
        x = np.arange(4)
        for p in range(self.rules.players):
            es = [self.taken_by_seat(s)[p] for s in JACK_ORDER]
            v = np.array([e.value for e in es])
            err = np.array([[e.value - e.lo for e in es], [e.hi - e.value for e in es]])
            ax.bar(x + (p - 1) * width, v, width, yerr=err, capsize=2, label=f"seat {p} ({self.policies[p]})")
        ax.set_xticks(x, [f"J{s[0]} (-{self.rules.jack_penalty(s)})" for s in JACK_ORDER])
        ax.set_ylabel("P(takes the jack)")
        ax.legend(fontsize=8)
        return ax


@takes_backend
def jack_risk(policies="heuristic", *, rules: KanaljeRules | None = None, samples: int | None = None,
              target_halfwidth: float | None = None, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES,
              rng=None, threads: int | None = None, progress: bool = False, check: bool = False) -> JackRiskResult:
    """Who ends up with each jack, and what each seat scores, for a lineup of players.

    ``policies``: one name for all seats, a comma list (``"random,heuristic,lookahead"``) or
    a sequence of names / one ``@njit`` policy (see :mod:`cardodds.kanalje.policies`).
    ``samples`` deals (default 200,000; 2,000 with a look-ahead player) or
    ``target_halfwidth`` for seat 0's mean score. ``check=True`` verifies card conservation
    and the deal total on every deal (``result.violations``).

    >>> r = jack_risk("random", samples=10_000, rng=3)
    >>> [round(e.value, 1) for e in r.mean_score]
    [2.4, 2.4, 2.4]
    """
    rules = _check_rules(rules)
    check_run_size(samples, target_halfwidth)
    lookahead_samples = _check_lookahead_samples(lookahead_samples)
    codes, names, user, chunk = _lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = _default_samples(codes)
    if rules.players == 2:
        kern = K.kernels_for(user)["deals2_kernel"]
        args, n_out = (rules.to_kernel(), codes, lookahead_samples, -1, 0, -1, 1, int(bool(check))), K.O2_SIZE
    else:
        kern = K.kernels_for(user)["deals_kernel"]
        args, n_out = (rules.to_kernel(), codes, lookahead_samples, -1, 0, -1, int(bool(check))), K.O_SIZE

    def hw(counts, n):
        return Estimate.mean(float(counts[K.O_SEAT]), float(counts[K.O_SEAT + 1]), n).halfwidth

    res = run(kern, args, n_out,
              samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw, rng=rng, chunk_size=chunk,
              threads=threads, progress=progress)
    return JackRiskResult(rules, names, res.samples, res.seed, lookahead_samples, res.partial, __version__, res.counts)


# ---- one hand -----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class HandResult:
    """What my 17 cards are worth in my seat, over random deals of the other 34."""

    hand: tuple[int, ...]
    turned: int
    seat: int
    rules: KanaljeRules
    policies: tuple[str, ...]
    samples: int
    seed: Any
    lookahead_samples: int
    partial: bool = False
    version: str = __version__
    counts: np.ndarray = field(default=None, repr=False)
    #: 0 three players (``turned`` is the turned card); two players: 1 the whole deal from
    #: phase 1 (``turned`` holds the face-up stock card), 2 phase 2 alone (``turned`` holds
    #: the dead card that named trump)
    phase: int = 0

    @property
    def card_role(self) -> str:
        return ("turned", "faceup", "trump")[self.phase]

    def _mean(self, which):
        o = K.O_SEAT + 6 * self.seat + 2 * which
        return Estimate.mean(float(self.counts[o]), float(self.counts[o + 1]), self.samples)

    @property
    def score(self) -> Estimate:
        return self._mean(0)

    @property
    def penalty(self) -> Estimate:
        return self._mean(1)

    @property
    def tricks(self) -> Estimate:
        return self._mean(2)

    @property
    def jacks(self) -> dict[str, Estimate]:
        """P(I take each jack); exactly 0 for a jack that is out of play."""
        out = {}
        for suit in JACK_ORDER:
            s = _SUIT_INDEX[suit]
            j = K.JACK_RANK * 4 + s
            dead = (self.phase == 0 and self.rules.turned_jack == "dead") or self.phase == 2
            if j == self.turned and dead:
                out[suit] = Estimate.exact_value(0.0)
            else:
                out[suit] = Estimate.proportion(self.counts[K.O_TAKER + 4 * s + self.seat], self.samples)
        return out

    @property
    def score_distribution(self) -> dict[int, Estimate]:
        o = K.O_SCOREDIST + K.SCORE_BINS * self.seat
        return {v - K.SCORE_OFFSET: Estimate.proportion(self.counts[o + v], self.samples)
                for v in range(K.SCORE_BINS) if self.counts[o + v] > 0}

    @property
    def violations(self) -> int:
        return int(self.counts[K.O_BAD])

    def to_frame(self) -> pd.DataFrame:
        rows = [{"figure": k, "value": e.value, "lo": e.lo, "hi": e.hi}
                for k, e in (("tricks", self.tricks), ("penalty", self.penalty), ("score", self.score))]
        rows += [{"figure": f"takes J of {s}", "value": e.value, "lo": e.lo, "hi": e.hi} for s, e in self.jacks.items()]
        return pd.DataFrame(rows).set_index("figure")

    def to_dict(self) -> dict:
        d = _meta(self.rules, self.policies, self.samples, self.seed, self.lookahead_samples, self.partial)
        d.update(hand=format_cards(sorted(self.hand)), seat=self.seat)
        d[self.card_role] = card_str(self.turned)
        if self.rules.players == 2:
            d["phase"] = self.phase
        d["tricks"] = _est_dict(self.tricks)
        d["penalty"] = _est_dict(self.penalty)
        d["score"] = _est_dict(self.score)
        d["jacks"] = {s: _est_dict(e) for s, e in self.jacks.items()}
        d["score_distribution"] = {str(v): _est_dict(e) for v, e in self.score_distribution.items()}
        return d

    def __repr__(self) -> str:
        lines = [f"HandResult(seat {self.seat}, {self.card_role} {card_str(self.turned)}, {'/'.join(self.policies)}, "
                 f"{self.samples:,} deals, seed {self.seed})",
                 f"  hand    {format_cards(sorted(self.hand))}",
                 f"  tricks  {self.tricks.format(3)}", f"  penalty {self.penalty.format(3)}",
                 f"  score   {self.score.format(3)}"]
        for s, e in self.jacks.items():
            lines.append(f"  P(I take J of {s}) {e.format(3)}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(repr(self))}</pre>" + self.to_frame().to_html(float_format="%.4f")

    def plot(self, ax=None):
        """The score distribution with 95% intervals."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3))
        dist = self.score_distribution
        v = np.array(list(dist))
        p = np.array([e.value for e in dist.values()])
        err = np.array([[e.value - e.lo for e in dist.values()], [e.hi - e.value for e in dist.values()]])
        ax.bar(v, p, yerr=err, capsize=2)
        ax.set_xlabel("score of the deal")
        ax.set_ylabel("probability")
        return ax


def _check_hand(hand, turned, seat, rules, faceup=None, trump=None):
    """Validate a hand query; returns ``(cards, card, seat, phase)``: ``card`` is the turned
    card (three players, ``phase`` 0), the face-up stock card (two players, ``phase`` 1) or
    the dead card that named the phase-2 trump (two players, ``phase`` 2)."""
    cards = parse_cards(hand) if isinstance(hand, str) else parse_cards(list(hand))
    if len(cards) != rules.hand_size:
        example = "17" if rules.players == 3 else "13"
        raise ValueError(f"the hand has {len(cards)} cards; a Kanalje hand for {rules.players} players has "
                         f"{rules.hand_size}, e.g. --hand \"2c 5c ... Ah\" ({example} cards)")
    if rules.players == 3:
        if faceup is not None or trump is not None:
            raise ValueError("faceup= and trump= belong to the two-player game (players=2); with three players "
                             "give the turned card, e.g. turned='7h'")
        if turned is None:
            raise ValueError("give the turned card (it names trump), e.g. turned='7h'")
        card, phase, what = turned, 0, "turned card"
    else:
        if turned is not None:
            raise ValueError("two players have no turned card: give faceup='7h' (the face-up stock card, phase 1) "
                             "or trump='7h' (the dead phase-1 card that named trump, phase 2)")
        if (faceup is None) == (trump is None):
            raise ValueError("give exactly one of faceup='7h' (phase 1: my 13 cards and the face-up stock card) "
                             "or trump='7h' (phase 2: my 13 cards and the dead card that named trump)")
        card, phase, what = (faceup, 1, "face-up card") if faceup is not None else (trump, 2, "trump card")
    t = parse_card(card) if isinstance(card, str) else parse_cards([card])[0]
    if t in cards:
        raise ValueError(f"the {what} {card_str(t)} is also in the hand; each card exists once")
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < rules.players:
        raise ValueError(f"seat={seat!r} must be 0..{rules.players - 1} (0 leads the first trick)")
    return cards, t, int(seat), phase


@takes_backend
def evaluate_hand(hand, turned=None, *, faceup=None, trump=None, seat: int = 0, policies="heuristic",
                  rules: KanaljeRules | None = None,
                  samples: int | None = None, target_halfwidth: float | None = None,
                  lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, rng=None, threads: int | None = None,
                  progress: bool = False, check: bool = False) -> HandResult:
    """Expected tricks, penalty and score of my 17 cards in ``seat`` with ``turned`` turned
    (its suit is trump), the other 34 cards dealt at random and played out by ``policies``.

    With two players (``rules=KanaljeRules(players=2)``) give 13 cards and either
    ``faceup=`` (phase 1: the deal from its start, my 13 cards and the face-up stock card; the
    other 38 cards are dealt at random to the other hand and the stock under the face-up
    card; figures are for the whole deal) or ``trump=`` (phase 2: my 13 cards, the phase-1
    trick card that named trump, dead; the other hand is 13 random cards of the other 38 and
    the remaining 25 are the dead phase-1 tricks, their jacks out of play; figures are for
    phase 2 alone). ``seat`` 0 leads (phase 1 as the non-dealer, or phase 2).

    >>> h = evaluate_hand("Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc Td Th Ts 9s", "2c", samples=2_000, rng=1)
    >>> h.tricks.value > 8
    True
    >>> h2 = evaluate_hand("Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc", trump="2c",
    ...                    rules=KanaljeRules(players=2), samples=2_000, rng=1)
    >>> h2.tricks.value > 10
    True
    """
    rules = _check_rules(rules)
    cards, t, seat, phase = _check_hand(hand, turned, seat, rules, faceup, trump)
    check_run_size(samples, target_halfwidth)
    lookahead_samples = _check_lookahead_samples(lookahead_samples)
    codes, names, user, chunk = _lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = _default_samples(codes) // 2
    mask = 0
    for c in cards:
        mask |= 1 << c
    if rules.players == 2:
        kern = K.kernels_for(user)["deals2_kernel"]
        args, n_out = (rules.to_kernel(), codes, lookahead_samples, seat, mask, t, phase, int(bool(check))), K.O2_SIZE
    else:
        kern = K.kernels_for(user)["deals_kernel"]
        args, n_out = (rules.to_kernel(), codes, lookahead_samples, seat, mask, t, int(bool(check))), K.O_SIZE
    o = K.O_SEAT + 6 * seat

    def hw(counts, n):
        return Estimate.mean(float(counts[o]), float(counts[o + 1]), n).halfwidth

    res = run(kern, args, n_out,
              samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw, rng=rng, chunk_size=chunk,
              threads=threads, progress=progress)
    return HandResult(tuple(cards), t, seat, rules, names, res.samples, res.seed, lookahead_samples, res.partial,
                      __version__, res.counts, phase)


# ---- strength matches ---------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class MatchResult:
    """Paired match: policy A in one seat against B in the others, versus B everywhere, on
    the same deals. ``advantage`` is A's mean score minus B's in the same seat."""

    policy_a: str
    policy_b: str
    rules: KanaljeRules
    samples: int
    seed: Any
    lookahead_samples: int
    partial: bool = False
    version: str = __version__
    counts: np.ndarray = field(default=None, repr=False)

    @property
    def advantage(self) -> Estimate:
        """Points per deal A scores more than B would in the same seat (averaged over seats)."""
        np_ = self.rules.players
        return Estimate.mean(float(self.counts[K.M_SUM]), float(self.counts[K.M_SUMSQ]), self.samples).scaled(1 / np_)

    @property
    def mean_a(self) -> float:
        return float(self.counts[K.M_A]) / (self.rules.players * self.samples)

    @property
    def mean_b(self) -> float:
        return float(self.counts[K.M_B]) / (self.rules.players * self.samples)

    @property
    def better(self) -> Estimate:
        """P(the deal went better for A than for B, summed over the three seats)."""
        return Estimate.proportion(self.counts[K.M_PLUS], self.samples)

    @property
    def violations(self) -> int:
        return int(self.counts[K.M_BAD])

    def to_frame(self) -> pd.DataFrame:
        a = self.advantage
        return pd.DataFrame([{"a": self.policy_a, "b": self.policy_b, "deals": self.samples,
                              "score_a": self.mean_a, "score_b": self.mean_b, "advantage": a.value,
                              "lo": a.lo, "hi": a.hi}])

    def to_dict(self) -> dict:
        d = _meta(self.rules, (self.policy_a, self.policy_b), self.samples, self.seed, self.lookahead_samples,
                  self.partial)
        d.update(policy_a=self.policy_a, policy_b=self.policy_b, mean_score_a=self.mean_a, mean_score_b=self.mean_b,
                 advantage=_est_dict(self.advantage), better=_est_dict(self.better))
        return d

    def __repr__(self) -> str:
        return (f"MatchResult({self.policy_a} vs {self.policy_b}, {self.samples:,} paired deals: "
                f"{self.policy_a} scores {self.mean_a:.3f}, {self.policy_b} {self.mean_b:.3f} in the same seat; "
                f"advantage {self.advantage.format(3)} points a deal)")

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(repr(self))}</pre>"


@takes_backend
def strength_match(policy_a: str, policy_b: str, *, rules: KanaljeRules | None = None, samples: int | None = None,
                   lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, rng=None, threads: int | None = None,
                   progress: bool = False, check: bool = False) -> MatchResult:
    """Measure how much better ``policy_a`` scores than ``policy_b`` on the same deals.

    Each deal is played four times: B in every seat, then A in seat 0, 1, 2 in turn with
    B elsewhere; the paired difference in A's seat is averaged over the seats. With two players
    (``rules=KanaljeRules(players=2)``) three times: B in both seats, then A in seat 0 and 1; the
    hands, the stock and the phase-2 trump draw are the same in every playing.

    >>> m = strength_match("heuristic", "random", samples=5_000, rng=1)
    >>> m.advantage.lo > 0
    True
    """
    rules = _check_rules(rules)
    check_run_size(samples, None)
    lookahead_samples = _check_lookahead_samples(lookahead_samples)
    codes, names, _, chunk = _lineup([policy_a] + [policy_b] * (rules.players - 1), rules)
    if K.P_USER in codes:
        raise ValueError("strength_match takes policy names (random, heuristic, lookahead)")
    if samples is None:
        samples = _default_samples(codes) // 4
    kern = K.match2_kernel if rules.players == 2 else K.match_kernel
    res = run(kern, (rules.to_kernel(), codes[0], codes[1], lookahead_samples, int(bool(check))),
              K.M_SIZE, samples=samples, rng=rng, chunk_size=chunk, threads=threads, progress=progress)
    return MatchResult(names[0], names[1], rules, res.samples, res.seed, lookahead_samples, res.partial, __version__,
                       res.counts)


# ---- the game to 21 -----------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class GameResult:
    """Who wins the game to ``rules.target`` and how many deals it takes."""

    rules: KanaljeRules
    policies: tuple[str, ...]
    samples: int
    seed: Any
    lookahead_samples: int
    partial: bool = False
    version: str = __version__
    counts: np.ndarray = field(default=None, repr=False)

    @property
    def win(self) -> list[Estimate]:
        """P(each seat wins the game); seat 2 deals first, so seat 0 leads the first deal (two
        players: seat 1 deals first, seat 0 leads the first phase 1; the deal alternates)."""
        return [Estimate.proportion(self.counts[K.G_WIN + s], self.samples) for s in range(self.rules.players)]

    @property
    def unfinished(self) -> int:
        """Games still tied or short of the target after ``MAX_DEALS`` deals (0 in practice)."""
        return int(self.counts[K.G_UNFINISHED])

    @property
    def mean_deals(self) -> Estimate:
        return Estimate.mean(float(self.counts[K.G_DEALS]), float(self.counts[K.G_DEALSQ]), self.samples)

    @property
    def deals_distribution(self) -> dict[int, Estimate]:
        h = self.counts[K.G_HIST:K.G_HIST + K.MAX_DEALS]
        return {d: Estimate.proportion(h[d], self.samples) for d in range(K.MAX_DEALS) if h[d] > 0}

    @property
    def violations(self) -> int:
        return int(self.counts[K.G_BAD])

    def to_frame(self) -> pd.DataFrame:
        rows = [{"seat": s, "policy": self.policies[s], "win": e.value, "lo": e.lo, "hi": e.hi}
                for s, e in enumerate(self.win)]
        return pd.DataFrame(rows).set_index("seat")

    def to_dict(self) -> dict:
        d = _meta(self.rules, self.policies, self.samples, self.seed, self.lookahead_samples, self.partial)
        d["games"] = self.samples
        d["win"] = [_est_dict(e) for e in self.win]
        d["mean_deals"] = _est_dict(self.mean_deals)
        d["deals_distribution"] = {str(k): _est_dict(e) for k, e in self.deals_distribution.items()}
        d["unfinished"] = self.unfinished
        return d

    def __repr__(self) -> str:
        wins = ", ".join(f"seat {s} ({self.policies[s]}) {e.format(3)}" for s, e in enumerate(self.win))
        return (f"GameResult(to {self.rules.target}, {self.samples:,} games, seed {self.seed}: wins {wins}; "
                f"deals per game {self.mean_deals.format(2)})")

    def _repr_html_(self) -> str:
        return f"<pre>{html.escape(repr(self))}</pre>" + self.to_frame().to_html(float_format="%.4f")

    def plot(self, ax=None):
        """Distribution of the number of deals a game takes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3))
        dist = self.deals_distribution
        ax.bar(list(dist), [e.value for e in dist.values()])
        ax.set_xlabel("deals in the game")
        ax.set_ylabel("probability")
        return ax


@takes_backend
def game_odds(policies="heuristic", *, rules: KanaljeRules | None = None, samples: int | None = None,
              target_halfwidth: float | None = None, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, rng=None,
              threads: int | None = None, progress: bool = False, check: bool = False) -> GameResult:
    """P(each seat wins the game to ``rules.target``) and the number of deals, for a lineup.

    >>> g = game_odds("random", samples=2_000, rng=1)
    >>> round(sum(e.value for e in g.win), 6)
    1.0
    """
    rules = _check_rules(rules)
    check_run_size(samples, target_halfwidth)
    lookahead_samples = _check_lookahead_samples(lookahead_samples)
    codes, names, user, chunk = _lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = max(_default_samples(codes) // 20, 100)
    chunk = 4 if K.P_LOOKAHEAD in list(codes) else 1 << 12

    def hw(counts, n):
        return Estimate.proportion(counts[K.G_WIN], n).halfwidth

    kname = "game2_kernel" if rules.players == 2 else "game_kernel"
    res = run(K.kernels_for(user)[kname], (rules.to_kernel(), codes, lookahead_samples, int(bool(check))),
              K.G_SIZE, samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw, rng=rng, chunk_size=chunk,
              threads=threads, progress=progress, unit="game")
    return GameResult(rules, names, res.samples, res.seed, lookahead_samples, res.partial, __version__, res.counts)


# ---- a single traced deal (for tests and for watching a player) -----------------------------
def play_deal(hands, turned=None, *, stock=None, leader: int = 0, policies="heuristic",
              rules: KanaljeRules | None = None, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, rng=0) -> dict:
    """Play one deal from given hands (three lists or strings of cards) and return every trick.

    Returns ``{"tricks": [(leader, [cards...], winner), ...], "taken": [tricks per seat],
    "penalty": [...], "score": [...], "jack_taker": {suit: seat, -1 nobody, -2 out of play}}``.

    >>> d = play_deal(["Ac Kc", "Qc 2d", "3c 4d"], "2h", policies="random")
    >>> d["tricks"][0]
    (0, [48, 40, 4], 0)

    Two players (``rules=KanaljeRules(players=2)``): two hands of 13, no turned card, and
    ``stock`` the 26 stock cards from the top; ``leader`` leads phase 1. The first 13
    tricks are phase 1; the result adds ``"faceup"`` (the face-up card of each phase-1 trick),
    ``"trump_card"`` (the dead phase-1 card drawn for trump, or -1), ``"phase1_won"``.
    """
    from ..rng import as_seed_sequence, chunk_state

    rules = _check_rules(rules)
    if rules.players == 2:
        return _play_deal2(hands, turned, stock, leader, policies, rules, lookahead_samples, rng)
    hs = [parse_cards(h) if isinstance(h, str) else parse_cards(list(h)) for h in hands]
    if len(hs) != rules.players:
        raise ValueError(f"give {rules.players} hands")
    sizes = {len(h) for h in hs}
    if len(sizes) != 1 or 0 in sizes:
        raise ValueError("every hand must hold the same, non-zero number of cards")
    t_card = -1 if turned is None else (parse_card(turned) if isinstance(turned, str) else int(turned))
    seen = [c for h in hs for c in h] + ([t_card] if t_card >= 0 else [])
    if len(set(seen)) != len(seen):
        raise ValueError("a card is given twice across the hands and the turned card")
    if not 0 <= leader < rules.players:
        raise ValueError(f"leader must be 0..{rules.players - 1}")
    codes, names, user, _ = _lineup(policies, rules)
    if user is not None:
        raise ValueError("play_deal takes policy names (random, heuristic, lookahead)")
    ss, _ = as_seed_sequence(rng)
    state = chunk_state(ss, 0)
    t = np.zeros(K.T_SIZE, dtype=np.int64)
    trump = (t_card & 3) if t_card >= 0 else -1
    K.new_table(t, rules.players, trump, leader, t_card, 1 if rules.turned_jack == "last_trick" else 0,
                np.array(rules.jack_penalties, dtype=np.int64), rules.trick_points, 1)
    for s, h in enumerate(hs):
        m = 0
        for c in h:
            m |= 1 << c
        t[K.T_HAND + s] = m
    rec = np.full((len(hs[0]), 6), -1, dtype=np.int64)
    K.play_traced(state, t, codes, _check_lookahead_samples(lookahead_samples), rec)
    if t[K.T_BAD]:
        raise AssertionError("an illegal card was played")  # a bug, never the user's input
    n = rules.players
    tricks = [(int(r[0]), [int(c) for c in r[1:1 + n]], int(r[5])) for r in rec]
    return {
        "tricks": tricks,
        "taken": [int(t[K.T_TRICKS + s]) for s in range(n)],
        "penalty": [int(t[K.T_PEN + s]) for s in range(n)],
        "score": [int(t[K.T_TRICKS + s] * rules.trick_points - t[K.T_PEN + s]) for s in range(n)],
        "jack_taker": {suit: int(t[K.T_JTAKER + _SUIT_INDEX[suit]]) for suit in JACK_ORDER},
        "policies": names,
    }


def _play_deal2(hands, turned, stock, leader, policies, rules, lookahead_samples, rng) -> dict:
    from ..rng import as_seed_sequence, chunk_state

    if turned is not None:
        raise ValueError("two players have no turned card; give the 26 stock cards as stock=")
    hs = [parse_cards(h) if isinstance(h, str) else parse_cards(list(h)) for h in hands]
    if len(hs) != 2 or any(len(h) != 13 for h in hs):
        raise ValueError("give two hands of 13 cards")
    st = [] if stock is None else (parse_cards(stock) if isinstance(stock, str) else parse_cards(list(stock)))
    if len(st) != 26:
        raise ValueError("give the 26 stock cards from the top as stock=")
    seen = [c for h in hs for c in h] + st
    if len(set(seen)) != 52:
        raise ValueError("a card is given twice across the hands and the stock")
    if not 0 <= leader < 2:
        raise ValueError("leader must be 0 or 1")
    codes, names, user, _ = _lineup(policies, rules)
    if user is not None:
        raise ValueError("play_deal takes policy names (random, heuristic, lookahead)")
    ss, _ = as_seed_sequence(rng)
    state = chunk_state(ss, 0)
    r = rules.to_kernel()
    t = np.zeros(K.T_SIZE, dtype=np.int64)
    K.new_table2(t, np.array(st, dtype=np.int64), leader, np.array(rules.jack_penalties, dtype=np.int64),
                 rules.trick_points, int(rules.phase1_jacks_cost), 1)
    for s, h in enumerate(hs):
        m = 0
        for c in h:
            m |= 1 << c
        t[K.T_HAND + s] = m
    rec = np.full((26, 7), -1, dtype=np.int64)
    non_dealer = leader if rules.phase1_leader == "non_dealer" else 1 - leader
    K.play_traced2(state, t, codes, _check_lookahead_samples(lookahead_samples), int(r[11]), int(r[12]),
                   non_dealer, rec)
    if t[K.T_BAD]:
        raise AssertionError("an illegal card was played")  # a bug, never the user's input
    tricks = [(int(x[0]), [int(c) for c in x[1:3]], int(x[5])) for x in rec]
    return {
        "tricks": tricks,
        "faceup": [int(x[6]) for x in rec[:13]],
        "trump_card": int(t[K.T_TRUMPCARD]),
        "phase1_won": [int(t[K.T_P1WINS + s]) for s in range(2)],
        "taken": [int(t[K.T_TRICKS + s]) for s in range(2)],
        "penalty": [int(t[K.T_PEN + s]) for s in range(2)],
        "score": [int(t[K.T_TRICKS + s] * rules.trick_points - t[K.T_PEN + s]) for s in range(2)],
        "jack_taker": {suit: int(t[K.T_JTAKER + _SUIT_INDEX[suit]]) for suit in JACK_ORDER},
        "policies": names,
    }
