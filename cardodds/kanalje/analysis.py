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

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from ..cards import RANKS, SUIT_NAMES, card_str, format_cards, parse_card, parse_cards
from ..engine import check_run_size, run, takes_backend
from .._html import result_html
from ..results import Result, counts_field
from ..stats import Estimate
from . import _counts as C
from . import _kernels as K
from ._counts import DEALS, GAME, MATCH, TRACE
from .policies import DEFAULT_LOOKAHEAD_SAMPLES, compile_policy, resolve_policies
from .rules import KanaljeRules
from .view import JACK_RANK, TABLE, T

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


def _est_dict(e: Estimate) -> dict:
    return e.to_dict()


def _seat_mean(counts, seat: int, which: int, samples: int) -> Estimate:
    rec = DEALS.view(counts).seat_sums.reshape(C.SEATS, C.SEAT_SUMS)[seat]
    return Estimate.mean(float(rec[which]), float(rec[which + C.SQUARE]), samples)


def _score_distribution(counts, seat: int, samples: int) -> dict[int, Estimate]:
    """P(seat scores v in a deal), for the scores that occurred."""
    row = DEALS.view(counts).score_dist.reshape(C.SEATS, C.SCORE_BINS)[seat]
    return {v - C.SCORE_OFFSET: Estimate.proportion(row[v], samples) for v in range(C.SCORE_BINS) if row[v] > 0}


def _taken_by(counts, suit: str, seat: int, samples: int) -> Estimate:
    """P(seat takes the jack of ``suit``; seat ``C.OUT_OF_PLAY``: the jack is out of play)."""
    return Estimate.proportion(DEALS.view(counts).jack_taker.reshape(4, C.TAKER_BINS)[_SUIT_INDEX[suit], seat], samples)


@dataclass(frozen=True, repr=False, kw_only=True)
class _KanaljeResult(Result):
    """What every Kanalje result records besides the base fields: the look-ahead player's
    sample count and the kernel's raw counts (out of ``==`` and ``repr``)."""

    lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES
    counts: np.ndarray = counts_field(default=None)

    def _lineup(self) -> tuple[str, ...]:
        return self.policies  # type: ignore[attr-defined]

    def meta(self) -> dict:
        return {"rules": self.rules.to_dict(), "policies": list(self._lineup()), "samples": int(self.samples),
                "seed": self.seed, "lookahead_samples": self.lookahead_samples, "partial": bool(self.partial),
                "version": self.version}

    @property
    def violations(self) -> int:
        """Broken invariants counted in a checked run (always 0 unless something is wrong)."""
        return int(self._layout.view(self.counts).violations)

    _layout = DEALS

    def _repr_html_(self) -> str:
        return result_html("", self.to_frame(), pre=repr(self))


# ---- running the deals kernel -----------------------------------------------------------------
def _run_deals(rules, policies, lookahead_samples, fixed_seat, fixed_hand, fixed_card, phase, check, samples,
               target_halfwidth, default_samples, halfwidth_seat, rng, threads, progress):
    """Run :func:`~._kernels.deals_kernel` for a lineup; returns ``(run result, names)``."""
    check_run_size(samples, target_halfwidth)
    lookahead_samples = _check_lookahead_samples(lookahead_samples)
    codes, names, user, chunk = _lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = default_samples(codes)

    def hw(counts, n):
        return _seat_mean(counts, halfwidth_seat, C.SUM_SCORE, n).halfwidth

    # The kernel compiled for this kind of lineup (the same counts as the general one; a run
    # compiles only the players it has): all random, all heuristic, random and heuristic, other.
    packed, chk, fixed = rules.to_kernel(), int(bool(check)), (fixed_seat, fixed_hand, fixed_card, phase)
    if rules.players == 3 and not check and fixed_seat < 0 and fixed_card < 0 and (codes == K.P_RANDOM).all():
        kernel, args = K.deals_random3_kernel, (packed,)
    elif (codes == K.P_HEURISTIC).all():
        kernel, args = K.deals_heuristic_kernel, (packed, *fixed, chk)
    elif ((codes == K.P_RANDOM) | (codes == K.P_HEURISTIC)).all():
        kernel, args = K.deals_basic_kernel, (packed, codes, *fixed, chk)
    else:
        kernel = K.deals_kernel
        args = (packed, codes, lookahead_samples, *fixed, chk, compile_policy(user))
    res = run(kernel, args, DEALS.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw,
              rng=rng, chunk_size=chunk, threads=threads, progress=progress)
    return res, names, lookahead_samples


# ---- jack risk ----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class JackRiskResult(_KanaljeResult):
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
        s = _SUIT_INDEX[suit]
        v = DEALS.view(self.counts)
        return Estimate.proportion(v.holder_takes[s], int(v.held.reshape(4, 2 * C.LENGTHS)[s].sum()))

    def leader_takes(self, suit: str) -> Estimate:
        """P(the jack is taken by the player who led the trick it falls in), over all deals."""
        return Estimate.proportion(DEALS.view(self.counts).leader_takes[_SUIT_INDEX[suit]], self.samples)

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
            s = _SUIT_INDEX[suit]
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
        s = _SUIT_INDEX[suit]
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
    res, names, lookahead_samples = _run_deals(
        rules, policies, lookahead_samples, -1, 0, -1, 1, check, samples, target_halfwidth, _default_samples, 0,
        rng, threads, progress)
    return JackRiskResult(names, rules=rules, samples=res.samples, seed=res.seed, partial=res.partial,
                          lookahead_samples=lookahead_samples, counts=res.counts)


# ---- one hand -----------------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class HandResult(_KanaljeResult):
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
            if JACK_RANK * 4 + _SUIT_INDEX[suit] == self.turned and dead:
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
    mask = 0
    for c in cards:
        mask |= 1 << c
    res, names, lookahead_samples = _run_deals(
        rules, policies, lookahead_samples, seat, mask, t, phase, check, samples, target_halfwidth,
        lambda codes: _default_samples(codes) // 2, seat, rng, threads, progress)
    return HandResult(tuple(cards), t, seat, names, phase, rules=rules, samples=res.samples, seed=res.seed,
                      partial=res.partial, lookahead_samples=lookahead_samples, counts=res.counts)


# ---- strength matches ---------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class MatchResult(_KanaljeResult):
    """Paired match: policy A in one seat against B in the others, versus B everywhere, on
    the same deals. ``advantage`` is A's mean score minus B's in the same seat."""

    policy_a: str
    policy_b: str
    _layout = MATCH

    def _lineup(self) -> tuple[str, ...]:
        return (self.policy_a, self.policy_b)

    @property
    def advantage(self) -> Estimate:
        """Points per deal A scores more than B would in the same seat (averaged over seats)."""
        v = MATCH.view(self.counts)
        return Estimate.mean(float(v.sum), float(v.sum_sq), self.samples).scaled(1 / self.rules.players)

    @property
    def mean_a(self) -> float:
        return float(MATCH.view(self.counts).score_a) / (self.rules.players * self.samples)

    @property
    def mean_b(self) -> float:
        return float(MATCH.view(self.counts).score_b) / (self.rules.players * self.samples)

    @property
    def better(self) -> Estimate:
        """P(the deal went better for A than for B, summed over the three seats)."""
        return Estimate.proportion(MATCH.view(self.counts).plus, self.samples)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        a = self.advantage
        return pd.DataFrame([{"a": self.policy_a, "b": self.policy_b, "deals": self.samples,
                              "score_a": self.mean_a, "score_b": self.mean_b, "advantage": a.value,
                              "lo": a.lo, "hi": a.hi}])

    def to_dict(self) -> dict:
        d = self.meta()
        d.update(policy_a=self.policy_a, policy_b=self.policy_b, mean_score_a=self.mean_a, mean_score_b=self.mean_b,
                 advantage=_est_dict(self.advantage), better=_est_dict(self.better))
        return d

    def __repr__(self) -> str:
        return (f"MatchResult({self.policy_a} vs {self.policy_b}, {self.samples:,} paired deals: "
                f"{self.policy_a} scores {self.mean_a:.3f}, {self.policy_b} {self.mean_b:.3f} in the same seat; "
                f"advantage {self.advantage.format(3)} points a deal)")


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
    res = run(K.match_kernel, (rules.to_kernel(), codes[0], codes[1], lookahead_samples, int(bool(check)),
                               compile_policy(None)),
              MATCH.size, samples=samples, rng=rng, chunk_size=chunk, threads=threads, progress=progress)
    return MatchResult(names[0], names[1], rules=rules, samples=res.samples, seed=res.seed, partial=res.partial,
                       lookahead_samples=lookahead_samples, counts=res.counts)


# ---- the game to 21 -----------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class GameResult(_KanaljeResult):
    """Who wins the game to ``rules.target`` and how many deals it takes."""

    policies: tuple[str, ...]
    max_deals: int = C.DEFAULT_MAX_DEALS
    _layout = GAME

    @property
    def win(self) -> list[Estimate]:
        """P(each seat wins the game); seat 2 deals first, so seat 0 leads the first deal (two
        players: seat 1 deals first, seat 0 leads the first phase 1; the deal alternates)."""
        wins = GAME.view(self.counts).win
        return [Estimate.proportion(wins[s], self.samples) for s in range(self.rules.players)]

    @property
    def unfinished(self) -> int:
        """Games still tied or short of the target after ``max_deals`` deals (none in practice at 21)."""
        return int(GAME.view(self.counts).unfinished)

    @property
    def mean_deals(self) -> Estimate:
        v = GAME.view(self.counts)
        return Estimate.mean(float(v.deals), float(v.deals_sq), self.samples)

    @property
    def deals_distribution(self) -> dict[int, Estimate]:
        h = GAME.view(self.counts).deals_hist
        return {d: Estimate.proportion(h[d], self.samples) for d in range(C.MAX_DEALS) if h[d] > 0}

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = [{"seat": s, "policy": self.policies[s], "win": e.value, "lo": e.lo, "hi": e.hi}
                for s, e in enumerate(self.win)]
        return pd.DataFrame(rows).set_index("seat")

    def to_dict(self) -> dict:
        d = self.meta()
        d["games"] = self.samples
        d["win"] = [_est_dict(e) for e in self.win]
        d["mean_deals"] = _est_dict(self.mean_deals)
        d["deals_distribution"] = {str(k): _est_dict(e) for k, e in self.deals_distribution.items()}
        d["unfinished"] = self.unfinished
        d["max_deals"] = self.max_deals
        return d

    def __repr__(self) -> str:
        wins = ", ".join(f"seat {s} ({self.policies[s]}) {e.format(3)}" for s, e in enumerate(self.win))
        return (f"GameResult(to {self.rules.target}, {self.samples:,} games, seed {self.seed}: wins {wins}; "
                f"deals per game {self.mean_deals.format(2)})")

    def plot(self, ax=None):
        """Distribution of the number of deals a game takes."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(6, 3), layout="constrained")
        dist = self.deals_distribution
        ax.bar(list(dist), [e.value for e in dist.values()])
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlabel("deals in the game")
        ax.set_ylabel("probability")
        ax.set_title(f"Kanalje game to {self.rules.target}: deals a game ({self.samples:,} games)")
        return ax


@takes_backend
def game_odds(policies="heuristic", *, rules: KanaljeRules | None = None, samples: int | None = None,
              target_halfwidth: float | None = None, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, rng=None,
              threads: int | None = None, progress: bool = False, check: bool = False,
              max_deals: int = C.DEFAULT_MAX_DEALS) -> GameResult:
    """P(each seat wins the game to ``rules.target``) and the number of deals, for a lineup.

    A game still open after ``max_deals`` deals is counted in ``unfinished`` (no seat wins
    it), 1..1000 (default 200).

    >>> g = game_odds("random", samples=2_000, rng=1)
    >>> round(sum(e.value for e in g.win), 6)
    1.0
    """
    rules = _check_rules(rules)
    check_run_size(samples, target_halfwidth)
    lookahead_samples = _check_lookahead_samples(lookahead_samples)
    if isinstance(max_deals, bool) or not isinstance(max_deals, (int, np.integer)) \
            or not 1 <= max_deals <= C.MAX_DEALS:
        raise ValueError(f"max_deals={max_deals!r} must be a whole number of deals 1..{C.MAX_DEALS}, e.g. 200")
    codes, names, user, chunk = _lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = max(_default_samples(codes) // 20, 100)
    chunk = 4 if K.P_LOOKAHEAD in list(codes) else 1 << 12

    def hw(counts, n):
        return Estimate.proportion(GAME.view(counts).win[0], n).halfwidth

    res = run(K.game_kernel, (rules.to_kernel(), codes, lookahead_samples, int(bool(check)), int(max_deals),
                              compile_policy(user)),
              GAME.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw, rng=rng, chunk_size=chunk,
              threads=threads, progress=progress, unit="game")
    return GameResult(names, rules=rules, samples=res.samples, seed=res.seed, partial=res.partial,
                      lookahead_samples=lookahead_samples, max_deals=int(max_deals), counts=res.counts)


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
    n = rules.players
    hs = [parse_cards(h) if isinstance(h, str) else parse_cards(list(h)) for h in hands]
    if n == 2:
        st = _check_deal2(hs, turned, stock, leader)
        t_card = -1
    else:
        t_card = _check_deal3(hs, turned, leader, rules)
    codes, names, user, _ = _lineup(policies, rules)
    if user is not None:
        raise ValueError("play_deal takes policy names (random, heuristic, lookahead)")
    ss, _ = as_seed_sequence(rng)
    state = chunk_state(ss, 0)
    t = TABLE.zeros()
    K.new_table(t, rules.to_kernel(), leader, t_card, 1)
    if n == 2:
        t[TABLE.slice("stock")] = st
        K.open_phase1(t, leader if rules.phase1_leader == "non_dealer" else 1 - leader)
    for s, h in enumerate(hs):
        t[T.hand + s] = sum(1 << c for c in h)
    rec = np.full((len(hs[0]) * (2 if n == 2 else 1), TRACE.size), -1, dtype=np.int64)
    K.play_traced(state, t, codes, _check_lookahead_samples(lookahead_samples), rec, compile_policy(None))
    v = TABLE.view(t)
    if v.violations:
        raise AssertionError("an illegal card was played")  # a bug, never the user's input
    tr = TRACE.view(rec)
    out: dict = {"tricks": [(int(lead), [int(c) for c in cards[:n]], int(w))
                            for lead, cards, w in zip(tr.leader[:, 0], tr.cards, tr.winner[:, 0])]}
    if n == 2:
        out.update(faceup=tr.faceup[:13, 0].tolist(), trump_card=v.trump_card,
                   phase1_won=v.phase1_wins.tolist())
    tricks, pen = v.tricks[:n].tolist(), v.penalty[:n].tolist()
    out.update(taken=tricks, penalty=pen, score=[tricks[s] * rules.trick_points - pen[s] for s in range(n)],
               jack_taker={suit: int(v.jack_taker[_SUIT_INDEX[suit]]) for suit in JACK_ORDER}, policies=names)
    return out


def _check_deal3(hs, turned, leader, rules) -> int:
    """Validate three hands and the turned card for :func:`play_deal`; returns the turned card or -1."""
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
    return t_card


def _check_deal2(hs, turned, stock, leader) -> np.ndarray:
    """Validate two hands and the stock for :func:`play_deal`; returns the stock."""
    if turned is not None:
        raise ValueError("two players have no turned card; give the 26 stock cards as stock=")
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
    return np.array(st, dtype=np.int64)
