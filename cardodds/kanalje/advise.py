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

>>> r = advise(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d", turned="Td",
...            played="0: Kh 3h", samples=1_000, rng=2)
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
from ..cards import SUIT_NAMES, card_str, format_cards, parse_card, parse_cards
from ..engine import run, takes_backend
from ..stats import Z95, Estimate
from . import _advise as KA
from ._advise import ADVICE, DEAL, MAX_OPTIONS, PAIRS, pair_index
from ._common import JACK_ORDER, KanaljeResult, check_lookahead_samples
from ._defaults import ADVISE_SAMPLES, DEFAULT_POLICIES
from .policies import DEFAULT_LOOKAHEAD_SAMPLES, POLICIES, resolve_policies
from .rules import KanaljeRules, check_rules
from .view import JACK_RANK, SUIT_MASK, TABLE, T, compile_policy

__all__ = ["AdviceResult", "advise"]

#: Worlds an advice samples unless told otherwise: about a second with heuristic players
#: (every legal card played out on each), and with a look-ahead or user player in the lineup.
#: Worlds per chunk: fixed by the lineup alone, so the same seed gives the same figures on
#: any number of threads.
_CHUNK = 1024
_CHUNK_SLOW = 4
#: The most worlds a precision-targeted run with inference deals (a position whose plays no
#: world reproduces under the policies named would otherwise never reach its target).
MAX_INFER_WORLDS = 1_000_000
_FAST = (POLICIES["random"], POLICIES["heuristic"])
_SEATS = 3
_HAND = 17


# ---- the position -------------------------------------------------------------------------
def _cards(value, what: str, example: str) -> list[int]:
    try:
        return parse_cards(value, allow_duplicates=True) if isinstance(value, str) else \
            parse_cards(list(value), allow_duplicates=True)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: {e}; e.g. {example}") from None


def _parse_played(played) -> list[tuple[int, list[int]]]:
    """``"0: Ac Kc 2c; 2: 5h"`` (or a list of such groups, or of ``(leader, cards)`` pairs) as
    ``[(leader, [cards]), ...]``."""
    if played is None:
        return []
    if isinstance(played, str):
        groups: list = [g for g in (x.strip() for x in played.split(";")) if g]
    else:
        try:
            groups = list(played)
        except TypeError:
            raise ValueError(f"played={played!r}: give the tricks as text, e.g. \"0: Ac Kc 2c; 2: 5h\"") from None
    out = []
    for n, g in enumerate(groups, 1):
        if isinstance(g, str):
            lead, sep, cards = g.partition(":")
            if not sep:
                raise ValueError(f"played: trick {n} {g.strip()!r} has no colon; write each trick as the seat that "
                                 "led it, a colon and its cards in order, e.g. \"0: Ac Kc 2c\"")
        else:
            try:
                lead, cards = g
            except (TypeError, ValueError):
                raise ValueError(f"played: trick {n} {g!r} is not a (leader, cards) pair; e.g. (0, 'Ac Kc 2c')") \
                    from None
        try:
            leader = int(lead.strip()) if isinstance(lead, str) else int(lead)
            if isinstance(lead, bool) or not 0 <= leader < _SEATS:
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(f"played: trick {n} is led by {str(lead).strip()!r}; the leader is a seat 0..2, "
                             "e.g. \"0: Ac Kc 2c\"") from None
        cs = _cards(cards, f"played: trick {n}", "\"0: Ac Kc 2c\"")
        if not 1 <= len(cs) <= _SEATS:
            raise ValueError(f"played: trick {n} has {len(cs)} cards; a trick has 1..3 (a trick in progress fewer "
                             "than 3, and only the last)")
        out.append((leader, cs))
    for n, (_, cs) in enumerate(out[:-1], 1):
        if len(cs) < _SEATS:
            raise ValueError(f"played: trick {n} has {len(cs)} cards but is not the last; only the trick in "
                             "progress (the last group) may have fewer than 3")
    return out


def _played_text(played) -> str:
    return "; ".join(f"{lead}: {format_cards(cs)}" for lead, cs in played)


def _winner(cards: list[int], trump: int) -> int:
    """Index (in playing order) of the card that takes the trick."""
    best = 0
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if (c & 3) == (b & 3) and c > b or (c & 3) == trump and (b & 3) != trump:
            best = i
    return best


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _suit(s: int) -> str:
    return SUIT_NAMES[s]


@dataclass(frozen=True)
class _Position:
    seat: int
    hand: tuple[int, ...]
    turned: int
    played: tuple[tuple[int, tuple[int, ...]], ...]
    table: np.ndarray   # the table after the tricks played, the other hands empty
    deal: np.ndarray    # DEAL: how the hidden hands are dealt
    options: tuple[int, ...]   # my legal cards
    jacks_out: tuple[int, ...]  # suits of the jacks nobody has taken yet (and that can still be taken)
    start: np.ndarray   # the table at the first lead: my whole hand, each other seat's played cards
    plays: tuple[tuple[int, int], ...]  # (seat, card) of every card played, in order


def _check_position(seat, hand, turned, played, rules: KanaljeRules) -> _Position:
    """Validate a position; every refusal is one line naming the argument and the fix."""
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < _SEATS:
        raise ValueError(f"seat={seat!r} must be 0..2 (0 is left of the dealer and leads the first trick)")
    seat = int(seat)
    mine = _cards(hand, "hand", "hand=\"Ah 7c 2d\" (my cards now)")
    if len(set(mine)) != len(mine):
        c = next(c for c in mine if mine.count(c) > 1)
        raise ValueError(f"hand: {card_str(c)} is given twice; each card exists once")
    if turned is None:
        raise ValueError("turned: give the turned card (its suit is trump), e.g. turned='7h'")
    try:
        tc = parse_card(turned) if isinstance(turned, str) else parse_cards([turned])[0]
    except ValueError as e:
        raise ValueError(f"turned: {e}") from None
    if tc in mine:
        raise ValueError(f"turned: {card_str(tc)} is also in the hand; the turned card lies face up, out of play")
    trump = tc & 3
    tricks = _parse_played(played)
    seen: dict[int, int] = {}
    void: list[set[int]] = [set(), set(), set()]  # suits each seat has shown void in
    count = [0, 0, 0]  # cards each seat has played
    seats, cards = [], []
    winner = 0  # who leads next
    for n, (lead, cs) in enumerate(tricks, 1):
        if lead != winner:
            why = "seat 0 leads the first trick" if n == 1 else f"seat {winner} won trick {n - 1}"
            raise ValueError(f"played: trick {n} is led by seat {lead}, but {why}; list the tricks in order, each "
                             "led by the last trick's winner")
        for i, c in enumerate(cs):
            s = (lead + i) % _SEATS
            if c == tc:
                raise ValueError(f"played: {card_str(c)} in trick {n} is the turned card, which is out of play")
            if c in seen:
                raise ValueError(f"played: {card_str(c)} is played twice (tricks {seen[c]} and {n}); each card "
                                 "exists once")
            if c in mine:
                raise ValueError(f"played: {card_str(c)} in trick {n} is also in the hand; give my cards now, "
                                 "without those I played")
            if (c & 3) in void[s]:
                raise ValueError(f"played: seat {s} plays {card_str(c)} in trick {n} but showed earlier that it "
                                 f"holds no {_suit(c & 3)} (it did not follow them); check the tricks")
            led = cs[0] & 3
            if i > 0 and (c & 3) != led:
                if s == seat and any((m & 3) == led for m in mine):
                    held = next(card_str(m) for m in mine if (m & 3) == led)
                    raise ValueError(f"played: I played {card_str(c)} in trick {n} without following "
                                     f"{_suit(led)}, but I still hold {held}; a player must follow suit")
                void[s].add(led)
            seen[c] = n
            count[s] += 1
            seats.append(s)
            cards.append(c)
        if len(cs) == _SEATS:
            winner = (lead + _winner(cs, trump)) % _SEATS
    if len(mine) != _HAND - count[seat]:
        raise ValueError(f"hand: {len(mine)} cards, but seat {seat} has played {count[seat]} of its {_HAND}, "
                         f"so it holds {_HAND - count[seat]}; give my cards now")
    if not mine:
        raise ValueError("played: every trick of the deal is played; there is no card left to choose")
    in_progress = tricks and len(tricks[-1][1]) < _SEATS
    to_play = (tricks[-1][0] + len(tricks[-1][1])) % _SEATS if in_progress else winner
    if to_play != seat:
        raise ValueError(f"seat: it is seat {to_play}'s turn, not seat {seat}'s, after the tricks played; "
                         "advice is for the player whose turn it is")
    # The hidden hands: what each of the other two must, may and cannot hold.
    a, b = (seat + 1) % _SEATS, (seat + 2) % _SEATS
    unseen = ((1 << 52) - 1) & ~(sum(1 << c for c in mine) | sum(1 << c for c in seen) | (1 << tc))
    va = sum(int(SUIT_MASK[s]) for s in void[a])
    vb = sum(int(SUIT_MASK[s]) for s in void[b])
    both = unseen & va & vb
    if both:
        s = (both & -both).bit_length() - 1
        raise ValueError(f"played: seats {a} and {b} both showed void in {_suit(s & 3)}, yet {card_str(s)} is "
                         "neither played nor in my hand; check the tricks and the hand")
    forced_a, forced_b = unseen & vb, unseen & va
    size_a, size_b = _HAND - count[a], _HAND - count[b]
    for s, forced, size, other in ((a, forced_a, size_a, b), (b, forced_b, size_b, a)):
        if _count(forced) > size:
            raise ValueError(f"played: seat {other} showed voids that leave seat {s} {_count(forced)} "
                             f"unseen cards, but it holds only {size}; check the tricks and the hand")
    free = unseen & ~forced_a & ~forced_b
    deal = DEAL.pack(a=a, b=b, forced_a=forced_a, forced_b=forced_b, free=free,
                     need_a=size_a - _count(forced_a))
    # The table after the tricks played (the hidden hands are dealt by the kernel).
    t = TABLE.zeros()
    hands = np.array([sum(1 << c for c, p in zip(cards, seats) if p == s) | (sum(1 << c for c in mine)
                                                                             if s == seat else 0)
                      for s in range(_SEATS)], dtype=np.int64)
    KA.position(t, rules.pack(), tc, hands, np.array(seats, dtype=np.int64), np.array(cards, dtype=np.int64))
    start = TABLE.zeros()
    none = np.zeros(0, dtype=np.int64)
    KA.position(start, rules.pack(), tc, hands | np.array([sum(1 << c for c in mine) if s == seat else 0
                                                               for s in range(_SEATS)], dtype=np.int64), none, none)
    assert t[T.hand + a] == 0 and t[T.hand + b] == 0 and (in_progress or t[T.leader] == seat)
    follow = [c for c in mine if in_progress and (c & 3) == (tricks[-1][1][0] & 3)]
    options = tuple(sorted(follow or mine, key=lambda c: (c & 3, c)))
    out = [s for s in range(4) if t[T.jack_taker + s] == -1 or (JACK_RANK * 4 + s == tc and
                                                                rules.turned_jack == "last_trick")]
    return _Position(seat, tuple(mine), tc, tuple((lead, tuple(cs)) for lead, cs in tricks), t, deal, options,
                     tuple(out), start, tuple(zip(seats, cards)))


def _observations(pos: _Position, codes) -> np.ndarray:
    """The :data:`~._advise.OBS` rows of the plays so far: each other seat's play with its
    policy code and the fewest legal cards it can have had (a lead or a play off the led suit:
    its whole hand, the same in every world; a card following suit: the cards of that suit it
    played from there on and those it must hold now, all of which it held)."""
    rows = []
    for i, (s, c) in enumerate(pos.plays):
        if s == pos.seat:
            rows.append((s, c, -1, 0))
            continue
        led = pos.plays[i - i % _SEATS][1] & 3
        before = sum(1 for p, _ in pos.plays[:i] if p == s)
        follows = i % _SEATS != 0 and (c & 3) == led
        forced = int(pos.deal[DEAL.at.forced_a if s == pos.deal[DEAL.at.a] else DEAL.at.forced_b])
        bound = sum(1 for p, x in pos.plays[i:] if p == s and (x & 3) == led) + _count(forced & int(SUIT_MASK[led])) \
            if follows else _HAND - before
        rows.append((s, c, int(codes[s]), bound))
    return np.array(rows, dtype=np.int64).reshape(-1, 4)


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
    def verdict(self) -> str:
        if self.effective_samples == 0:
            return "no world dealt agrees with the others' plays under their policies; nothing to compare"
        if self.best is not None:
            return f"play {self.best}" + (" (the only legal card)" if len(self.cards) == 1 else "")
        b = self.best_index
        if all(v.value == 0 and v.se == 0 for v in self.versus_best):
            return "every legal card scores the same on these worlds"
        return f"no card is better at this precision (highest mean: {card_str(self.cards[b])})"

    @property
    def played_text(self) -> str:
        """The tricks as ``--played`` reads them."""
        return _played_text(self.played)

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
        d.update(seat=self.seat, hand=format_cards(self.hand), turned=card_str(self.turned), played=self.played_text,
                 infer=self.infer, effective_samples=self.effective_samples, best=self.best, verdict=self.verdict)
        d["options"] = [{"card": card, "score": self.score[i].to_dict(), "tricks": self.tricks[i].to_dict(),
                         "penalty": self.penalty[i].to_dict(),
                         "jacks": {s: e.to_dict() for s, e in self.jacks[i].items()},
                         "versus_best": self.versus_best[i].to_dict()} for i, card in enumerate(self.options)]
        return d

    def __repr__(self) -> str:
        lines = [f"Kanalje advice: seat {self.seat}, turned {card_str(self.turned)}, hand {format_cards(self.hand)}, "
                 f"{'/'.join(self.policies)}, {self.samples:,} worlds, seed {self.seed}"
                 + (f", inferred: effective sample size {self.effective_samples:,.0f}" if self.infer else "")]
        for i, card in enumerate(self.options):
            jacks = ", ".join(f"J{s[0]} {e.format(3)}" for s, e in self.jacks[i].items())
            lines.append(f"  {card:<3} score {self.score[i].format(3, sign=True)}  best - this "
                         f"{self.versus_best[i].format(3, sign=True)}" + (f"  takes {jacks}" if jacks else ""))
        lines.append(f"  {self.verdict}")
        return "\n".join(lines)


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


@takes_backend
def advise(*, seat: int, hand, turned, played=None, policies=DEFAULT_POLICIES, rules: KanaljeRules | None = None,
           samples: int | None = None, target_halfwidth: float | None = None,
           lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, infer: bool = False, rng=None,
           threads: int | None = None, progress: bool = False) -> AdviceResult:
    """Which card should I play now? Every legal card of a three-player Kanalje position,
    played out on the same sampled worlds.

    ``seat``: my seat (0 is left of the dealer and leads the first trick). ``hand``: my cards
    now. ``turned``: the turned card (its suit is trump). ``played``: every trick so far in
    order, ``"L: c c c; L: c c c; ...; L: c"`` (the seat that led it, a colon, its cards in
    the order played), or a list of ``"L: c c c"`` strings or ``(L, cards)`` pairs; a last
    group of fewer than three cards is the trick in progress, and it must be my turn to play
    to it (or to lead, when every trick is complete). The cards I have not seen are dealt to
    the other two uniformly over every deal consistent with what I saw (cards played, turned
    card, voids shown). ``policies``: who plays the deal out after my card, one name for
    every seat or one per seat, mine included (``random``, ``heuristic``, ``lookahead``, or
    one ``@njit`` policy, as in :func:`~cardodds.kanalje.jack_risk`). ``samples`` worlds
    (default 10,000; 50 with a look-ahead or user policy) or ``target_halfwidth``: run until
    the paired difference between the two best cards is known to within that many points.

    ``infer=True`` also weighs each world by how likely the other seats' plays so far were
    under their policies (random: 1 / their legal cards at each play; heuristic: only worlds
    in which it would have played as it did): ``effective_samples`` is then the effective sample
    size of the weighting. The other seats' policies must be ``random`` or ``heuristic``.

    >>> r = advise(seat=1, hand="Kc 7c 4s", turned="Qc", played="0: 2h 7h Qh; 2: Ad 6d Qd; 2: Kd 4d 9d; "
    ...            "2: Td Jh 8d; 2: 2d Js 5d; 1: Ah Kh Th; 1: 9h 5h 8h; 1: As 5s Ts; 1: Ks 2s 9s; 1: Qs Jd 8s; "
    ...            "1: 3s 7d 5c; 0: 6h 7s 4h; 0: 3h 6s 2c; 2: 3d Ac Jc; 0: 8c", policies="random", samples=1_000, rng=2)
    >>> r.options, r.best                       # 8c led: follow with the king or the seven
    (['7c', 'Kc'], 'Kc')
    >>> r.score[0].format(2)                    # the 7c loses this trick, my Kc takes a later one
    '3.00 [3.00, 3.00]'
    """
    rules = check_rules(rules)
    if rules.players != 3:
        raise ValueError("rules: advise is for three players (RULES.md 2.1); the two-player game is not supported "
                         "yet, use KanaljeRules(players=3)")
    threads = check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    lookahead_samples = check_lookahead_samples(lookahead_samples)
    codes, names, user = resolve_policies(policies, 3)
    if not isinstance(infer, (bool, np.bool_)):
        raise ValueError(f"infer={infer!r} must be True or False")
    pos = _check_position(seat, hand, turned, played, rules)
    if infer and any(codes[s] not in _FAST for s in range(_SEATS) if s != pos.seat):
        raise ValueError("infer=True weighs the other seats' plays by their policies' likelihood, which only random "
                         "and heuristic have here; give those for the other seats")
    fast = all(c in _FAST for c in codes)
    if samples is None and target_halfwidth is None:
        samples = ADVISE_SAMPLES[0] if fast else ADVISE_SAMPLES[1]
    heuristic = all(c == POLICIES["heuristic"] for c in codes)
    args = (pos.table, pos.deal, pos.seat, np.array(pos.options, dtype=np.int64),
            None if heuristic else np.array(codes, dtype=np.int64), lookahead_samples,
            None if fast else compile_policy(user), (pos.start, _observations(pos, codes)) if infer else None)
    res = run(KA.advise_kernel, args, ADVICE.size, samples=samples, target_halfwidth=target_halfwidth,
              halfwidth=_halfwidth(len(pos.options), bool(infer)), rng=rng, chunk_size=_CHUNK if fast else _CHUNK_SLOW,
              threads=threads, progress=progress, unit="world",
              **({"max_samples": MAX_INFER_WORLDS} if infer else {}))
    return AdviceResult(pos.seat, pos.hand, pos.turned, pos.played, pos.options, pos.jacks_out, names, bool(infer),
                        rules=rules,
                        samples=res.samples, seed=res.seed, partial=res.partial,
                        lookahead_samples=lookahead_samples, counts=res.counts)

