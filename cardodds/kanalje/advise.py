"""Kanalje in the middle of a deal: which card should I play now, and what does each cost me?

:func:`advise` takes a three-player position as I know it (my seat, my cards now, the turned
card and every trick played so far), deals the cards I have not seen to the other two players
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

>>> r = advise(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d", turned="Td",
...            played="0: Kh 3h", policies="heuristic", samples=1_000, rng=2)
>>> r.options                   # the legal cards: I must follow hearts
['2h', 'Ah']
>>> r.best                      # the ace takes the trick; the paired difference excludes zero
'Ah'
>>> round(r.versus_best[0].value, 2), r.jacks[1]["hearts"].format(2)
(0.31, '0.69 [0.66, 0.72]')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built
    import pandas as pd

from .._validate import check_run
from ..cards import SUIT_NAMES, card_str, format_cards
from ..engine import run, takes_backend
from ..stats import Z95, Estimate
from . import _advise as KA
from ._advise import ADVICE, MAX_OPTIONS, PAIRS, pair_index
from ._common import JACK_ORDER, KanaljeResult, check_lookahead_samples
from ._defaults import ADVISE_POLICIES, ADVISE_SAMPLES
from ._policies import calls
from .policies import DEFAULT_LOOKAHEAD_SAMPLES, POLICIES, resolve_policies
from ._position import CARD_ARG, PHASE1, PHASE2, THREE, played_text
from ._position import check_position as _check_position
from ._position import observations as _observations
from .rules import KanaljeRules, check_rules
from .view import compile_policy

__all__ = ["AdviceResult", "advise", "players_words"]

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
@dataclass(frozen=True, repr=False)
class AdviceResult(KanaljeResult):
    """Each legal card of a Kanalje position played out on the same sampled worlds (see :func:`advise`).

    ``options`` are my legal cards (names like ``'Kh'``); ``score``, ``tricks``, ``penalty``,
    ``versus_best`` and ``jacks`` hold one entry per option in the same order. ``versus_best``
    is the paired difference *best minus this card* in points (0 for the best itself);
    ``best`` is the best card's name, or None when some other card's difference to it
    includes zero ("no card is better at this precision").
    """

    seat: int
    hand: tuple[int, ...]
    turned: int
    played: tuple[tuple[int, tuple[int, ...]], ...]
    cards: tuple[int, ...]
    jacks_out: tuple[int, ...]
    policies: tuple[str, ...]
    infer: bool = False
    #: 0 three players (``turned`` the turned card); two players 1 phase 1 (``turned`` the
    #: face-up card now, ``faceups`` every face-up card so far) or 2 phase 2 (``turned`` the dead
    #: card that named trump)
    phase: int = THREE
    faceups: tuple[int, ...] = ()
    #: phase 2: the phase-1 cards I remember (dead), besides the trump card
    dead: tuple[int, ...] = ()
    _layout = ADVICE

    @property
    def effective_samples(self) -> float:
        """The worlds the figures rest on: every world dealt, or with ``infer`` the effective
        sample size of the weighting, (sum of weights)² / (sum of squared weights)."""
        return _effective(self.counts, self.infer)

    @property
    def dealt(self) -> int:
        """Worlds dealt (kept or not)."""
        return int(ADVICE.view(self.counts).dealt)

    def _means(self, name: str) -> tuple[Estimate, ...]:
        return tuple(_figure(self.counts, name, MAX_OPTIONS, i, self.infer) for i in range(len(self.cards)))

    @property
    def options(self) -> list[str]:
        return [card_str(c) for c in self.cards]

    @property
    def score(self) -> tuple[Estimate, ...]:
        """My expected points for the whole deal (tricks and jacks already taken included)."""
        return self._means("score")

    @property
    def tricks(self) -> tuple[Estimate, ...]:
        return self._means("tricks")

    @property
    def penalty(self) -> tuple[Estimate, ...]:
        return self._means("penalty")

    @property
    def jacks(self) -> tuple[dict[str, Estimate], ...]:
        """P(I take the jack), per option, for each jack still out (keyed by suit name)."""
        v = ADVICE.view(self.counts)
        j = v.jack.reshape(2, MAX_OPTIONS, 4)
        order = [SUIT_NAMES.index(s) for s in JACK_ORDER if SUIT_NAMES.index(s) in self.jacks_out]

        def p(i, s):
            if not self.infer:
                return Estimate.proportion(int(j[0, i, s]), int(v.deals))
            k, k2 = float(j[0, i, s]), float(j[1, i, s])
            e = _weighted(k, k, k2, k2, float(v.weight), float(v.weight_sq))
            return Estimate(e.value, e.se, max(e.lo, 0.0), min(e.hi, 1.0), e.n)
        return tuple({SUIT_NAMES[s]: p(i, s) for s in order} for i in range(len(self.cards)))

    @property
    def best_index(self) -> int:
        """The option with the highest mean score (named as ``best`` or not)."""
        return int(np.argmax([-np.inf if e.value != e.value else e.value for e in self.score]))

    def difference(self, i: int, j: int) -> Estimate:
        """Paired estimate of option ``i``'s score minus option ``j``'s, on the same worlds."""
        if i == j:
            return Estimate(0.0, 0.0, 0.0, 0.0, int(self.effective_samples))
        e = _figure(self.counts, "pair", PAIRS, pair_index(min(i, j), max(i, j)), self.infer)
        return e if i < j else e.scaled(-1)

    @property
    def versus_best(self) -> tuple[Estimate, ...]:
        b = self.best_index
        return tuple(self.difference(b, j) for j in range(len(self.cards)))

    @property
    def best(self) -> str | None:
        """The best card, when every other card's paired difference to it excludes zero; a
        card that scored the same as the best on every world is the same choice, not a rival.
        The only legal card is the best. None when no world was counted."""
        if not self.effective_samples:
            return None
        if len(self.cards) == 1:
            return card_str(self.cards[0])
        b = self.best_index
        rivals = [v for j, v in enumerate(self.versus_best) if j != b and not (v.value == 0 and v.se == 0)]
        clear = bool(rivals) and all(not v.contains_zero() for v in rivals)
        return card_str(self.cards[b]) if clear else None

    @property
    def clearly_worse(self) -> list[str]:
        """The cards that lose against the highest mean: their paired difference excludes zero."""
        return [c for c, v in zip(self.options, self.versus_best) if v.lo > 0]

    def cost(self, i: int, digits: int = 2) -> str:
        """Option ``i`` against the highest mean, in words: "loses 0.42 [0.30, 0.54] points a deal"
        when the paired interval excludes zero, else "no difference at this precision (...)"."""
        v = self.versus_best[i]
        if i == self.best_index:
            return "best" if self.best is not None else "highest mean"
        if v.value == 0 and v.se == 0:
            return "the same on every world"
        if v.lo > 0:
            return f"loses {v.format(digits)} points a deal"
        return f"no difference at this precision (loses {v.format(digits, sign=True)})"

    @property
    def verdict(self) -> str:
        if self.effective_samples == 0:
            return "no world dealt agrees with the others' plays under their policies; nothing to compare"
        if self.best is not None:
            return f"play {self.best}" + (" (the only legal card)" if len(self.cards) == 1 else "")
        b = self.best_index
        if all(v.value == 0 and v.se == 0 for v in self.versus_best):
            return "every legal card scores the same on these worlds"
        worse = self.clearly_worse
        return (f"no card is better at this precision (highest mean: {card_str(self.cards[b])})"
                + (f"; clearly worse: {' '.join(worse)}" if worse else ""))

    @property
    def played_text(self) -> str:
        """The tricks as ``--played`` reads them."""
        return played_text(self.played)

    @property
    def card_name(self) -> str:
        """What ``turned`` is: ``"turned"``, ``"faceup"`` (phase 1) or ``"trump"`` (phase 2)."""
        return CARD_ARG[self.phase]

    @property
    def card_text(self) -> str:
        """The position's card as its argument reads it (phase 1: every face-up card, in order)."""
        return format_cards(self.faceups) if self.faceups else card_str(self.turned)

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd

        rows = []
        for i, card in enumerate(self.options):
            sc, v = self.score[i], self.versus_best[i]
            row = {"card": card, "score": sc.value, "score_lo": sc.lo, "score_hi": sc.hi,
                   "tricks": self.tricks[i].value, "penalty": self.penalty[i].value,
                   "versus_best": v.value, "versus_best_lo": v.lo, "versus_best_hi": v.hi}
            row.update({f"takes J of {s}": e.value for s, e in self.jacks[i].items()})
            rows.append(row)
        return pd.DataFrame(rows).set_index("card")

    def to_dict(self) -> dict:
        d = self.meta()
        d.update(seat=self.seat, hand=format_cards(self.hand), **{self.card_name: self.card_text},
                 played=self.played_text, infer=self.infer, effective_samples=self.effective_samples, best=self.best,
                 clearly_worse=self.clearly_worse, verdict=self.verdict)
        if self.phase != THREE:
            d["phase"] = self.phase
        if self.phase == PHASE2:
            d["dead"] = format_cards(self.dead)
        d["options"] = [{"card": card, "score": self.score[i].to_dict(), "tricks": self.tricks[i].to_dict(),
                         "penalty": self.penalty[i].to_dict(),
                         "jacks": {s: e.to_dict() for s, e in self.jacks[i].items()},
                         "versus_best": self.versus_best[i].to_dict()} for i, card in enumerate(self.options)]
        return d

    def __repr__(self) -> str:
        lines = [f"Kanalje advice: seat {self.seat}, {self.card_name} {self.card_text}, "
                 f"hand {format_cards(self.hand)}, "
                 f"{'/'.join(self.policies)}, {self.samples:,} worlds, seed {self.seed}"
                 + (f", inferred: effective sample size {self.effective_samples:,.0f}" if self.infer else "")]
        for i, card in enumerate(self.options):
            jacks = ", ".join(f"J{s[0]} {e.format(3)}" for s, e in self.jacks[i].items())
            lines.append(f"  {card:<3} score {self.score[i].format(3, sign=True)}  best - this "
                         f"{self.versus_best[i].format(3, sign=True)}" + (f"  takes {jacks}" if jacks else ""))
        lines.append(f"  {self.verdict}")
        return "\n".join(lines)


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


def _figure(counts, name: str, size: int, i: int, infer: bool) -> Estimate:
    """Entry ``i`` of a figure of :data:`~._advise.ADVICE`: a mean, weighted with inference."""
    v = ADVICE.view(counts)
    f = [float(x) for x in getattr(v, name).reshape(4, size)[:, i]]
    if not infer:
        return Estimate.mean(f[0], f[1], int(v.deals))
    return _weighted(f[0], f[1], f[2], f[3], float(v.weight), float(v.weight_sq))


def _effective(counts, infer: bool) -> float:
    v = ADVICE.view(counts)
    if not infer:
        return int(v.deals)
    return float(v.weight) ** 2 / float(v.weight_sq) if v.weight_sq > 0 else 0.0


def _halfwidth(k: int, infer: bool):
    """The 95% half-width of the paired difference between the two best options."""
    def hw(counts, n):
        if k < 2:
            return 0.0
        scores = [_figure(counts, "score", MAX_OPTIONS, i, infer).value for i in range(k)]
        order = np.argsort(-np.nan_to_num(np.array(scores), nan=-np.inf), kind="stable")
        i, j = sorted(int(x) for x in order[:2])
        return _figure(counts, "pair", PAIRS, pair_index(i, j), infer).halfwidth
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
def advise(*, seat: int, hand, turned=None, played=None, policies=ADVISE_POLICIES, rules: KanaljeRules | None = None,
           trump=None, faceup=None, dead=None, samples: int | None = None, target_halfwidth: float | None = None,
           lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, infer: bool = False, rng=None,
           threads: int | None = None, progress: bool = False) -> AdviceResult:
    """Which card should I play now? Each legal card played out on the same worlds: the unseen
    cards dealt uniformly over every deal consistent with what I saw (cards, voids).

    ``played``: the tricks so far, ``"L: c c c; ..."`` (the leader, then its cards in order), a
    last short group being the trick I play to next. ``policies``: who plays the deal out, as in
    :func:`~cardodds.kanalje.jack_risk` (default ``lookahead`` at every seat). ``samples`` worlds
    (default 40; 10,000 with heuristic or random players alone) or ``target_halfwidth`` on the paired
    difference of the two best cards. ``infer=True`` weighs each world by the others' plays. Two
    players (``KanaljeRules(players=2)``, no ``turned``): in phase 1 ``faceup`` is every trick's
    face-up card, the current one last; in phase 2 ``trump`` names trump, ``played`` phase 2's tricks,
    ``dead`` the phase-1 cards I remember, and the figures are phase 2's.

    >>> r = advise(seat=1, hand="Kc 7c 4s", turned="Qc", played="0: 2h 7h Qh; 2: Ad 6d Qd; 2: Kd 4d 9d; "
    ...            "2: Td Jh 8d; 2: 2d Js 5d; 1: Ah Kh Th; 1: 9h 5h 8h; 1: As 5s Ts; 1: Ks 2s 9s; 1: Qs Jd 8s; "
    ...            "1: 3s 7d 5c; 0: 6h 7s 4h; 0: 3h 6s 2c; 2: 3d Ac Jc; 0: 8c", policies="random", samples=1_000, rng=2)
    >>> r.options, r.best                       # 8c led: follow with the king or the seven
    (['7c', 'Kc'], 'Kc')
    >>> r.score[0].format(2)                    # the 7c loses this trick, my Kc takes a later one
    '3.00 [3.00, 3.00]'
    """
    rules = check_rules(rules)
    threads = check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    lookahead_samples = check_lookahead_samples(lookahead_samples)
    codes, names, user = resolve_policies(policies, rules.players)
    if not isinstance(infer, (bool, np.bool_)):
        raise ValueError(f"infer={infer!r} must be True or False")
    pos = _check_position(seat, hand, turned, played, rules, trump=trump, faceup=faceup, dead=dead)
    if infer and pos.phase == PHASE1:
        raise ValueError("infer=True weighs the plays in the trick play (three players, or phase 2); in phase 1 "
                         "every consistent world is dealt alike")
    if infer and any(codes[s] not in _FAST for s in range(rules.players) if s != pos.seat):
        raise ValueError("infer=True weighs the other seats' plays by their policies' likelihood, which only random "
                         "and heuristic have here; give those for the other seats")
    fast = all(c in _FAST for c in codes)
    if samples is None and target_halfwidth is None:
        samples = ADVISE_SAMPLES[0] if fast else ADVISE_SAMPLES[1]
    cap = min(MAX_WORLDS[0] if fast else MAX_WORLDS[1], MAX_INFER_WORLDS if infer else MAX_WORLDS[0])
    _check_reachable(target_halfwidth, cap, fast)
    heuristic = all(c == POLICIES["heuristic"] for c in codes)
    cards = np.array(pos.options, dtype=np.int64)
    same = KA.interchangeable(pos.table, pos.seat, cards) if heuristic else np.arange(len(cards), dtype=np.int64)
    phase1 = True if pos.phase == PHASE1 else None
    args = (KA.PositionArrays(pos.table, pos.deal, pos.seat, cards, same),
            None if heuristic else np.array(codes, dtype=np.int64),
            lookahead_samples, None if fast else calls(None if user is None else compile_policy(user), codes, phase1),
            (pos.start, _observations(pos, codes)) if infer else None, phase1)
    res = run(KA.advise_kernel, args, ADVICE.size, samples=samples, target_halfwidth=target_halfwidth,
              halfwidth=_halfwidth(len(pos.options), bool(infer)), rng=rng, chunk_size=_CHUNK if fast else _CHUNK_SLOW,
              threads=threads, progress=progress, unit="world",
              max_samples=cap)
    return AdviceResult(pos.seat, pos.hand, pos.turned, pos.played, pos.options, pos.jacks_out, names, bool(infer),
                        pos.phase, pos.faceups, pos.dead, rules=rules,
                        samples=res.samples, seed=res.seed, partial=res.partial,
                        lookahead_samples=lookahead_samples, counts=res.counts)

