"""Kanalje analyses: jack risk and what a hand is worth.

Seats are numbered clockwise from the player left of the dealer (seat 0 leads the first
trick, seat 2 deals). Every figure is an :class:`~cardodds.stats.Estimate` with its 95%
interval; every result records its seed, sample count, rules, policies and version. Whole
games, strength matches and a traced deal are in :mod:`cardodds.kanalje.play`.

>>> r = jack_risk("heuristic", samples=20_000, rng=7)
>>> round(r.mean_total.value, 1)    # 7 plus the turned jack's penalty when one is turned
7.2
>>> h = evaluate_hand(Hand("2c 3c 4c 5c 6c 7c 8c 9c 2d 3d 4d 5d 6d 7d 8d 9d 2h", turned="Ah"), samples=2_000, rng=1)
>>> h.jacks["hearts"].value < 0.2
True
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from .._validate import check_run
from ..cards import RANKS, SUIT_NAMES, card_str, format_cards
from ..engine import run, takes_backend
from ..stats import Estimate
from . import _counts as C
from . import _kernels as K
from ._common import JACK_ORDER, SUIT_INDEX, KanaljeResult, check_lookahead_samples, default_samples, est_dict, lineup
from ._counts import DEALS
from ._defaults import DEFAULT_LOOKAHEAD_SAMPLES, DEFAULT_POLICIES, HAND_SAMPLES, RISK_SAMPLES
from .hand import Hand
from ._policies import P_HEURISTIC, P_RANDOM, calls
from ._table import phase1_arg
from .rules import KanaljeRules, check_rules
from .view import JACK_RANK, compile_policy

__all__ = [
    "HandResult",
    "JackRiskResult",
    "evaluate_hand",
    "jack_risk",
]


def _seat_mean(counts, seat: int, which: int, samples: int) -> Estimate:
    rec = DEALS.view(counts).seat_sums.reshape(C.SEATS, C.SEAT_SUMS)[seat]
    return Estimate.mean(float(rec[which]), float(rec[which + C.SQUARE]), samples)


def _score_distribution(counts, seat: int, samples: int) -> dict[int, Estimate]:
    """P(seat scores v in a deal), for the scores that occurred."""
    row = DEALS.view(counts).score_dist.reshape(C.SEATS, C.SCORE_BINS)[seat]
    return {v - C.SCORE_OFFSET: Estimate.proportion(row[v], samples) for v in range(C.SCORE_BINS) if row[v] > 0}


def _taken_by(counts, suit: str, seat: int, samples: int) -> Estimate:
    """P(seat takes the jack of ``suit``; seat ``C.OUT_OF_PLAY``: the jack is out of play)."""
    return Estimate.proportion(DEALS.view(counts).jack_taker.reshape(4, C.TAKER_BINS)[SUIT_INDEX[suit], seat], samples)


# ---- running the deals kernel -----------------------------------------------------------------
def _run_deals(rules, policies, lookahead_samples, fixed, check, samples, target_halfwidth, sizes, halfwidth_seat, rng,
               threads, progress):
    """Run :func:`~._kernels.deals_kernel` for a lineup from ``fixed`` (a :data:`~._kernels.Fixed`;
    ``sizes``: its default run size, :mod:`._defaults`); returns ``(run result, names, lookahead_samples)``."""
    threads = check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    lookahead_samples = check_lookahead_samples(lookahead_samples)
    codes, names, user, chunk = lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = default_samples(codes, sizes)

    def hw(counts, n):
        return _seat_mean(counts, halfwidth_seat, C.SUM_SCORE, n).halfwidth

    # The kernel compiled for this kind of lineup (the same counts as the general one; a run
    # compiles only the players it has): all random, all heuristic, random and heuristic, other.
    packed, chk = rules.pack(), int(bool(check))
    if rules.players == 3 and not check and fixed.seat < 0 and fixed.card < 0 and (codes == P_RANDOM).all():
        kernel, args = K.deals_random3_kernel, (packed,)
    elif (codes == P_HEURISTIC).all():
        kernel, args = K.deals_heuristic_kernel, (packed, *fixed, chk)
    elif ((codes == P_RANDOM) | (codes == P_HEURISTIC)).all():
        kernel, args = K.deals_basic_kernel, (packed, codes, *fixed, chk)
    else:
        kernel = K.deals_kernel
        args = (packed, codes, lookahead_samples, *fixed, chk,
                calls(None if user is None else compile_policy(user), codes, phase1_arg(rules.players, fixed.phase)))
    res = run(kernel, args, DEALS.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw,
              rng=rng, chunk_size=chunk, threads=threads, progress=progress)
    return res, names, lookahead_samples


# ---- jack risk ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class JackRiskResult(KanaljeResult):
    """Who takes each jack, and each seat's score, over simulated deals of one lineup."""

    policies: tuple[str, ...]

    # Figures ---------------------------------------------------------------------------
    @property
    def mean_score(self) -> list[Estimate]:
        return [_seat_mean(self.counts, s, C.SUM_SCORE, self.samples) for s in range(self.rules.players)]

    @property
    def mean_penalty(self) -> list[Estimate]:
        return [_seat_mean(self.counts, s, C.SUM_PENALTY, self.samples) for s in range(self.rules.players)]

    @property
    def mean_tricks(self) -> list[Estimate]:
        return [_seat_mean(self.counts, s, C.SUM_TRICKS, self.samples) for s in range(self.rules.players)]

    @property
    def mean_total(self) -> Estimate:
        v = DEALS.view(self.counts)
        return Estimate.mean(float(v.total), float(v.total_sq), self.samples)

    def taken_by_seat(self, suit: str) -> list[Estimate]:
        return [_taken_by(self.counts, suit, p, self.samples) for p in range(self.rules.players)]

    def out_of_play(self, suit: str) -> Estimate:
        return _taken_by(self.counts, suit, C.OUT_OF_PLAY, self.samples)

    def holder_takes(self, suit: str) -> Estimate:
        """P(the player dealt this jack ends up taking it | it was dealt to a player)."""
        s = SUIT_INDEX[suit]
        v = DEALS.view(self.counts)
        return Estimate.proportion(v.holder_takes[s], int(v.held.reshape(4, 2 * C.LENGTHS)[s].sum()))

    def leader_takes(self, suit: str) -> Estimate:
        """P(the jack is taken by the player who led the trick it falls in), over all deals."""
        return Estimate.proportion(DEALS.view(self.counts).leader_takes[SUIT_INDEX[suit]], self.samples)

    def penalty_distribution(self, seat: int) -> list[Estimate]:
        """P(seat pays 0, 1, ..., 10 penalty points in a deal)."""
        row = DEALS.view(self.counts).penalty_dist.reshape(C.SEATS, C.PEN_BINS)[seat]
        return [Estimate.proportion(row[v], self.samples) for v in range(C.PEN_BINS)]

    def score_distribution(self, seat: int) -> dict[int, Estimate]:
        """P(seat scores v in a deal), for the scores that occurred."""
        return _score_distribution(self.counts, seat, self.samples)

    def holder_table(self) -> pd.DataFrame:
        """'Holder takes own jack' by jack, whether its suit is trump, and the holder's length
        in the suit (rows with at least one deal)."""
        import pandas as pd
        v = DEALS.view(self.counts)
        held, taken = v.held.reshape(4, 2, C.LENGTHS), v.held_taken.reshape(4, 2, C.LENGTHS)
        rows = []
        for suit in JACK_ORDER:
            s = SUIT_INDEX[suit]
            for tr in (0, 1):
                for length in range(C.LENGTHS):
                    n = int(held[s, tr, length])
                    if n == 0:
                        continue
                    e = Estimate.proportion(taken[s, tr, length], n)
                    rows.append({"jack": suit, "trump": bool(tr), "length": length, "deals": n,
                                 "holder_takes": e.value, "lo": e.lo, "hi": e.hi})
        return pd.DataFrame(rows)

    # Two players: phase 1 and the face-up card ----------------------------------------
    def _two(self):
        if self.rules.players != 2:
            raise ValueError("the face-up card and phase 1 exist only in the two-player game (players=2)")

    def faceup_leader_takes(self, by: str = "rank") -> dict[str, Estimate]:
        """Two players: P(the trick's leader wins a phase-1 trick, and so takes the face-up card)
        by the face-up card's rank (``by="rank"``, keys ``2``..``A``), suit (``"suit"``) or
        card (``"card"``); the follower takes it otherwise. Over all phase-1 tricks."""
        self._two()
        v = DEALS.view(self.counts)
        n, w = v.faceup_n, v.faceup_leader
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
        s = SUIT_INDEX[suit]
        v = DEALS.view(self.counts)
        n = int(v.faceup_jack[s])
        pay = Estimate.proportion(int(v.faceup_jack_paid[s]), n)
        return {"taken_face_up": Estimate.proportion(n, self.samples), "taker_pays": pay,
                "cost": pay.scaled(self.rules.jack_penalty(suit)),
                "falls_in_phase1": Estimate.proportion(int(v.phase1_jack[s]), self.samples)}

    @property
    def phase1_tricks(self) -> list[Estimate]:
        """Two players: each seat's mean number of phase-1 tricks won."""
        self._two()
        sums = DEALS.view(self.counts).phase1_tricks.reshape(2, 2)
        return [Estimate.mean(float(sums[p, 0]), float(sums[p, C.SQUARE]), self.samples) for p in range(2)]

    def faceup_frame(self) -> pd.DataFrame:
        """Two players: P(the leader takes the face-up card) by its rank."""
        import pandas as pd
        rows = [{"rank": k, "tricks": e.n, "leader_takes": e.value, "lo": e.lo,
                 "hi": e.hi} for k, e in self.faceup_leader_takes("rank").items()]
        return pd.DataFrame(rows).set_index("rank")

    # Presentation ---------------------------------------------------------------------
    def to_frame(self) -> pd.DataFrame:
        """One row per jack: who takes it, with 95% intervals."""
        import pandas as pd
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
        import pandas as pd
        rows = []
        for p in range(self.rules.players):
            rows.append({"seat": p, "policy": self.policies[p], "score": self.mean_score[p].value,
                         "score_lo": self.mean_score[p].lo, "score_hi": self.mean_score[p].hi,
                         "penalty": self.mean_penalty[p].value, "tricks": self.mean_tricks[p].value})
        return pd.DataFrame(rows).set_index("seat")

    def to_dict(self) -> dict:
        d = self.meta()
        d["deals"] = self.samples
        d["mean_score"] = [est_dict(e) for e in self.mean_score]
        d["mean_penalty"] = [est_dict(e) for e in self.mean_penalty]
        d["mean_tricks"] = [est_dict(e) for e in self.mean_tricks]
        d["mean_total"] = est_dict(self.mean_total)
        d["jacks"] = {
            suit: {
                "penalty": self.rules.jack_penalty(suit),
                "holder_takes": est_dict(self.holder_takes(suit)),
                "taken_by_seat": [est_dict(e) for e in self.taken_by_seat(suit)],
                "out_of_play": est_dict(self.out_of_play(suit)),
                "leader_takes": est_dict(self.leader_takes(suit)),
            }
            for suit in JACK_ORDER
        }
        d["penalty_distribution"] = [[est_dict(e) for e in self.penalty_distribution(p)]
                                     for p in range(self.rules.players)]
        d["score_distribution"] = [{str(v): est_dict(e) for v, e in self.score_distribution(p).items()}
                                   for p in range(self.rules.players)]
        d["holder_takes_by_length"] = self.holder_table().to_dict(orient="records")
        if self.rules.players == 2:
            d["phase1_tricks"] = [est_dict(e) for e in self.phase1_tricks]
            d["faceup_leader_takes"] = {by: {k: est_dict(e) for k, e in self.faceup_leader_takes(by).items()}
                                        for by in ("rank", "suit")}
            d["faceup_jacks"] = {suit: {k: est_dict(e) for k, e in self.faceup_jack(suit).items()}
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

    def plot(self, ax=None):
        """Bar chart: probability each seat takes each jack, with 95% intervals."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
        width = 0.25
        x = np.arange(4)
        for p in range(self.rules.players):
            es = [self.taken_by_seat(s)[p] for s in JACK_ORDER]
            v = np.array([e.value for e in es])
            err = np.array([[e.value - e.lo for e in es], [e.hi - e.value for e in es]])
            ax.bar(x + (p - 1) * width, v, width, yerr=err, capsize=2, label=f"seat {p} ({self.policies[p]})")
        ax.set_xticks(x, [f"J{s[0]} (-{self.rules.jack_penalty(s)})" for s in JACK_ORDER])
        ax.set_xlabel("jack (penalty)")
        ax.set_ylabel("P(takes the jack)")
        ax.set_title(f"Kanalje, {self.rules.players} players: who takes each jack ({self.samples:,} deals)")
        ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        return ax


@takes_backend
def jack_risk(policies=DEFAULT_POLICIES, *, rules: KanaljeRules | None = None, samples: int | None = None,
              target_halfwidth: float | None = None, rng=None, threads: int | None = None,
              lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, check: bool = False,
              progress: bool = False) -> JackRiskResult:
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
    rules = check_rules(rules)
    res, names, lookahead_samples = _run_deals(
        rules, policies, lookahead_samples, K.Fixed(-1, 0, -1, 1), check, samples, target_halfwidth, RISK_SAMPLES, 0,
        rng, threads, progress)
    return JackRiskResult(names, rules=rules, samples=res.samples, seed=res.seed, partial=res.partial,
                          lookahead_samples=lookahead_samples, counts=res.counts)


# ---- one hand -----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class HandResult(KanaljeResult):
    """What my 17 cards are worth in my seat, over random deals of the other 34."""

    hand: tuple[int, ...]
    turned: int
    seat: int
    policies: tuple[str, ...]
    #: 0 three players (``turned`` is the turned card); two players: 1 the whole deal from
    #: phase 1 (``turned`` holds the face-up stock card), 2 phase 2 alone (``turned`` holds
    #: the dead card that named trump)
    phase: int = 0

    @property
    def card_role(self) -> str:
        return ("turned", "faceup", "trump")[self.phase]

    @property
    def score(self) -> Estimate:
        return _seat_mean(self.counts, self.seat, C.SUM_SCORE, self.samples)

    @property
    def penalty(self) -> Estimate:
        return _seat_mean(self.counts, self.seat, C.SUM_PENALTY, self.samples)

    @property
    def tricks(self) -> Estimate:
        return _seat_mean(self.counts, self.seat, C.SUM_TRICKS, self.samples)

    @property
    def jacks(self) -> dict[str, Estimate]:
        """P(I take each jack); exactly 0 for a jack that is out of play."""
        out = {}
        dead = (self.phase == 0 and self.rules.turned_jack == "dead") or self.phase == 2
        for suit in JACK_ORDER:
            if JACK_RANK * 4 + SUIT_INDEX[suit] == self.turned and dead:
                out[suit] = Estimate.exact_value(0.0)
            else:
                out[suit] = _taken_by(self.counts, suit, self.seat, self.samples)
        return out

    @property
    def score_distribution(self) -> dict[int, Estimate]:
        return _score_distribution(self.counts, self.seat, self.samples)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = [{"figure": k, "value": e.value, "lo": e.lo, "hi": e.hi}
                for k, e in (("tricks", self.tricks), ("penalty", self.penalty), ("score", self.score))]
        rows += [{"figure": f"takes J of {s}", "value": e.value, "lo": e.lo, "hi": e.hi} for s, e in self.jacks.items()]
        return pd.DataFrame(rows).set_index("figure")

    def to_dict(self) -> dict:
        d = self.meta()
        d.update(hand=format_cards(sorted(self.hand)), seat=self.seat)
        d[self.card_role] = card_str(self.turned)
        if self.rules.players == 2:
            d["phase"] = self.phase
        d["tricks"] = est_dict(self.tricks)
        d["penalty"] = est_dict(self.penalty)
        d["score"] = est_dict(self.score)
        d["jacks"] = {s: est_dict(e) for s, e in self.jacks.items()}
        d["score_distribution"] = {str(v): est_dict(e) for v, e in self.score_distribution.items()}
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

    def plot(self, ax=None):
        """The score distribution with 95% intervals."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3), layout="constrained")
        dist = self.score_distribution
        v = np.array(list(dist))
        p = np.array([e.value for e in dist.values()])
        err = np.array([[e.value - e.lo for e in dist.values()], [e.hi - e.value for e in dist.values()]])
        ax.bar(v, p, yerr=err, capsize=2)
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("score of the deal (points)")
        ax.set_ylabel("probability")
        ax.set_title(f"Kanalje: my score with this hand, seat {self.seat} ({self.samples:,} deals)")
        return ax


@takes_backend
def evaluate_hand(hand: Hand, *, policies=DEFAULT_POLICIES, rules: KanaljeRules | None = None,
                  samples: int | None = None, target_halfwidth: float | None = None, rng=None,
                  threads: int | None = None, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES,
                  check: bool = False, progress: bool = False) -> HandResult:
    """Expected tricks, penalty and score of ``hand`` (a :class:`~cardodds.kanalje.Hand`: my 17
    cards, the turned card, my seat), the other 34 cards dealt at random and played out by
    ``policies``. ``rules``: by default the hand's.

    With two players (``Hand(..., rules=KanaljeRules(players=2))``) the hand is 13 cards and
    either ``faceup=`` (phase 1: the deal from its start, my 13 cards and the face-up stock card;
    the other 38 cards are dealt at random to the other hand and the stock under the face-up
    card; figures are for the whole deal) or ``trump=`` (phase 2: my 13 cards, the phase-1
    trick card that named trump, dead; the other hand is 13 random cards of the other 38 and
    the remaining 25 are the dead phase-1 tricks, their jacks out of play; figures are for
    phase 2 alone). Seat 0 leads (phase 1 as the non-dealer, or phase 2).

    >>> h = evaluate_hand(Hand("Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc Td Th Ts 9s", "2c"), samples=2_000, rng=1)
    >>> h.tricks.value > 8
    True
    >>> h2 = evaluate_hand(Hand("Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc", trump="2c", rules=KanaljeRules(players=2)),
    ...                    samples=2_000, rng=1)
    >>> h2.tricks.value > 10
    True
    """
    if not isinstance(hand, Hand):
        example = repr(hand) if isinstance(hand, str) and len(hand) < 80 else "'Ac Kc 4c ...'"
        raise ValueError(f"hand={hand!r:.80} must be a kanalje.Hand: give Hand({example}, turned='7h') (two "
                         "players: faceup= or trump=, and rules=KanaljeRules(players=2))")
    if rules is not None and check_rules(rules) != hand.rules:
        hand = replace(hand, rules=rules)
    rules, seat, t = hand.rules, hand.seat, hand.card
    mask = 0
    for c in hand.cards:
        mask |= 1 << c
    res, names, lookahead_samples = _run_deals(
        rules, policies, lookahead_samples, K.Fixed(seat, mask, t, hand.phase), check, samples, target_halfwidth,
        HAND_SAMPLES, seat, rng, threads, progress)
    return HandResult(hand.cards, t, seat, names, hand.phase, rules=rules, samples=res.samples, seed=res.seed,
                      partial=res.partial, lookahead_samples=lookahead_samples, counts=res.counts)
