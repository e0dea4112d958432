"""Kanalje played out: whole games to the target, strength matches, one traced deal.

The verbs every game shares: :func:`game` (who wins the game to ``rules.target``),
:func:`strength` (two policies on the same deals, seats swapped) and :func:`trace` (one deal,
trick by trick). Every figure is an :class:`~cardodds.stats.Estimate` with its 95% interval;
every result records its seed, sample count, rules, policies and version.

>>> g = game("random", samples=2_000, rng=1)
>>> len(g.win), g.unfinished
(3, 0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from .._validate import check_run
from ..cards import card_str, parse_card, parse_cards
from ..engine import run, takes_backend
from ..results import StrengthResult
from ..stats import Estimate
from ..trace import Move, Trace
from . import _play
from ._common import (
    JACK_ORDER,
    SUIT_INDEX,
    KanaljeResult,
    check_lookahead_samples,
    default_samples,
    est_dict,
    game_start,
    lineup,
    searches,
)
from ._counts import GAME, MATCH, TRACE
from ._defaults import (
    DEFAULT_LOOKAHEAD_SAMPLES,
    DEFAULT_MAX_DEALS,
    DEFAULT_POLICIES,
    GAME_SAMPLES,
    MAX_DEALS,
    STRENGTH_A,
    STRENGTH_B,
    STRENGTH_SAMPLES,
)
from ._policies import P_USER, calls
from ._table import new_table, open_phase1, phase1_arg
from .rules import KanaljeRules, check_rules
from .view import TABLE, T, compile_policy

__all__ = ["GameResult", "StrengthResult", "game", "strength", "trace"]


# ---- strength matches ---------------------------------------------------------------------
@takes_backend
def strength(a: str = STRENGTH_A, b: str = STRENGTH_B, *, rules: KanaljeRules | None = None,
             samples: int | None = None, rng=None, threads: int | None = None,
             lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, check: bool = False,
             progress: bool = False) -> StrengthResult:
    """Measure how much better policy ``a`` scores than ``b`` on the same deals.

    Each deal is played four times: B in every seat, then A in seat 0, 1, 2 in turn with
    B elsewhere; the paired difference in A's seat is averaged over the seats. With two players
    (``rules=KanaljeRules(players=2)``) three times: B in both seats, then A in seat 0 and 1; the
    hands, the stock and the phase-2 trump draw are the same in every playing. A
    :class:`~cardodds.results.StrengthResult` in points a deal; ``mean_a`` and ``mean_b`` are
    A's and B's mean score a deal in the same seat.

    >>> m = strength("heuristic", "random", samples=5_000, rng=1)
    >>> m.points.lo > 0, m.unit
    (True, 'deal')
    """
    rules = check_rules(rules)
    threads = check_run(samples=samples, threads=threads, rng=rng)
    lookahead_samples = check_lookahead_samples(lookahead_samples)
    codes, names, _, chunk = lineup([a] + [b] * (rules.players - 1), rules)
    if P_USER in codes:
        raise ValueError("strength takes policy names (random, heuristic, lookahead, pimc)")
    if samples is None:
        samples = default_samples(codes, STRENGTH_SAMPLES)
    res = run(_play.match_kernel, (rules.pack(), codes[0], codes[1], lookahead_samples, int(bool(check)),
                                   calls(None, codes, phase1_arg(rules.players, 1))),
              MATCH.size, samples=samples, rng=rng, chunk_size=chunk, threads=threads, progress=progress)
    v, n = MATCH.view(res.counts), res.samples
    seats = n * rules.players
    return StrengthResult(game="kanalje", a=names[0], b=names[1], pairs=n, unit="deal",
                          points=Estimate.mean(float(v.sum), float(v.sum_sq), n).scaled(1 / rules.players),
                          better=Estimate.proportion(v.plus, n), violations={"invariants": int(v.violations)},
                          mean_a=float(v.score_a) / seats, mean_b=float(v.score_b) / seats,
                          lookahead_samples=lookahead_samples, counts=res.counts, rules=rules, samples=n,
                          seed=res.seed, partial=res.partial)


# ---- the game to 21 -----------------------------------------------------------------------
@dataclass(frozen=True, repr=False)
class GameResult(KanaljeResult):
    """Who wins the game to ``rules.target`` and how many deals it takes: ``win[s]`` P(seat
    ``s`` wins), ``mean_deals`` and ``deals_distribution``, ``unfinished`` the games still open
    after ``max_deals`` deals (no seat wins them)."""

    policies: tuple[str, ...]
    max_deals: int = DEFAULT_MAX_DEALS
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
    def games(self) -> int:
        """Games played (``samples``)."""
        return int(self.samples)

    @property
    def mean_deals(self) -> Estimate:
        v = GAME.view(self.counts)
        return Estimate.mean(float(v.deals), float(v.deals_sq), self.samples)

    @property
    def deals_distribution(self) -> dict[int, Estimate]:
        h = GAME.view(self.counts).deals_hist
        return {d: Estimate.proportion(h[d], self.samples) for d in range(MAX_DEALS) if h[d] > 0}

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = [{"seat": s, "policy": self.policies[s], "win": e.value, "lo": e.lo, "hi": e.hi}
                for s, e in enumerate(self.win)]
        return pd.DataFrame(rows).set_index("seat")

    def to_dict(self) -> dict:
        d = self.meta()
        d.update(game="kanalje", question="game")
        d["games"] = self.samples
        d["win"] = [est_dict(e) for e in self.win]
        d["mean_deals"] = est_dict(self.mean_deals)
        d["deals_distribution"] = {str(k): est_dict(e) for k, e in self.deals_distribution.items()}
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
def game(policies=DEFAULT_POLICIES, *, rules: KanaljeRules | None = None, samples: int | None = None,
         target_halfwidth: float | None = None, rng=None, threads: int | None = None,
         lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, max_deals: int = DEFAULT_MAX_DEALS,
         score=None, dealer: int | None = None, check: bool = False, progress: bool = False) -> GameResult:
    """P(each seat wins the game to ``rules.target``) and the number of deals, for a lineup.

    A game still open after ``max_deals`` deals is counted in ``unfinished`` (no seat wins
    it), 1..1000 (default 200). ``score`` (a total a seat) and ``dealer`` (the seat dealing
    the first deal) start the games from a game in progress: by default 0 each and the last
    seat deals (seat 0 leads).

    >>> g = game("random", samples=2_000, rng=1)
    >>> round(sum(e.value for e in g.win), 6)
    1.0
    """
    rules = check_rules(rules)
    threads = check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    lookahead_samples = check_lookahead_samples(lookahead_samples)
    if isinstance(max_deals, bool) or not isinstance(max_deals, (int, np.integer)) \
            or not 1 <= max_deals <= MAX_DEALS:
        raise ValueError(f"max_deals={max_deals!r} must be a whole number of deals 1..{MAX_DEALS}, "
                         f"e.g. {DEFAULT_MAX_DEALS}")
    start = game_start(score, dealer, rules)
    codes, names, user, chunk = lineup(policies, rules)
    if samples is None and target_halfwidth is None:
        samples = default_samples(codes, GAME_SAMPLES)
    chunk = 4 if searches(codes) else 1 << 12

    def hw(counts, n):
        return Estimate.proportion(GAME.view(counts).win[0], n).halfwidth

    res = run(_play.game_kernel, (rules.pack(), codes, lookahead_samples, int(bool(check)), int(max_deals),
                                  calls(None if user is None else compile_policy(user), codes,
                                        phase1_arg(rules.players, 1)), start),
              GAME.size, samples=samples, target_halfwidth=target_halfwidth, halfwidth=hw, rng=rng, chunk_size=chunk,
              threads=threads, progress=progress, unit="game")
    return GameResult(names, rules=rules, samples=res.samples, seed=res.seed, partial=res.partial,
                      lookahead_samples=lookahead_samples, max_deals=int(max_deals), counts=res.counts)


# ---- a single traced deal --------------------------------------------------------------------
def trace(policies=DEFAULT_POLICIES, *, rules: KanaljeRules | None = None, rng=None, hands=None, turned=None,
          stock=None, leader: int = 0, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, score=None) -> Trace:
    """One deal played by ``policies``, every card in order (:class:`~cardodds.trace.Trace`).

    The deal is dealt from ``rng``, or given: ``hands`` (one list or string of cards a seat, of
    equal size) and the ``turned`` card; with two players two hands of 13 and ``stock``, the 26
    stock cards from the top. ``leader`` leads the first trick. Each trick is its plays, then
    ``win`` by its winner; two players' phase-1 tricks add the face-up card the winner takes and
    the card the loser draws. ``result`` holds each seat's score, tricks and penalty, and who
    took each jack (``jack taker``: spades, clubs, diamonds, hearts; -1 nobody, -2 out of play).
    ``score``: the game's totals before the deal, one a seat, written as the record's ``score:``
    line (a review then values each card by the game at stake).

    >>> t = trace("random", hands=["Ac Kc", "Qc 2d", "3c 4d"], turned="2h", rng=1)
    >>> [(m.seat, m.action, m.cards) for m in t.moves[3:7]]
    [(0, 'play', ('Ac',)), (1, 'play', ('Qc',)), (2, 'play', ('3c',)), (0, 'win', ('Ac', 'Qc', '3c'))]
    """
    from ..rng import as_seed_sequence, chunk_state

    rules = check_rules(rules)
    check_run(rng=rng)
    n = rules.players
    if score is not None:
        from .equity import check_game_score

        try:
            score = check_game_score(score, rules)
        except ValueError as e:
            raise ValueError(f"score: {e}") from None
    ss, seed = as_seed_sequence(rng)
    if hands is None:
        if turned is not None or stock is not None:
            raise ValueError("turned= and stock= come with hands=; without hands the deal is dealt from rng")
        deck = [int(c) for c in np.random.default_rng(ss.spawn(1)[0]).permutation(52)]
        size = 52 // n if n == 3 else 13
        hs = [deck[size * s:size * (s + 1)] for s in range(n)]
        turned, stock = (deck[51], None) if n == 3 else (None, deck[26:])
    else:
        hs = [parse_cards(h) if isinstance(h, str) else parse_cards(list(h)) for h in hands]
    if n == 2:
        st = _check_deal2(hs, turned, stock, leader)
        t_card = -1
    else:
        t_card = _check_deal3(hs, turned, leader, rules)
    codes, names, user, _ = lineup(policies, rules)
    if user is not None:
        raise ValueError("trace takes policy names (random, heuristic, lookahead, pimc)")
    state = chunk_state(ss, 0)
    t = TABLE.zeros()
    new_table(t, rules.pack(), leader, t_card, 1)
    if n == 2:
        t[TABLE.slice("stock")] = st
        open_phase1(t, leader if rules.phase1_leader == "non_dealer" else 1 - leader)
    for s, h in enumerate(hs):
        t[T.hand + s] = sum(1 << c for c in h)
    rec = np.full((len(hs[0]) * (2 if n == 2 else 1), TRACE.size), -1, dtype=np.int64)
    phase1 = phase1_arg(n, 1)
    _play.play_traced(state, t, codes, check_lookahead_samples(lookahead_samples), rec,
                      calls(None, codes, phase1), phase1)
    v = TABLE.view(t)
    if v.violations:
        raise AssertionError("an illegal card was played")  # a bug, never the user's input
    moves = [Move(s, "deal", tuple(card_str(c) for c in sorted(h))) for s, h in enumerate(hs)]
    tr = TRACE.view(rec)
    for k, (lead, cards, w) in enumerate(zip(tr.leader[:, 0], tr.cards, tr.winner[:, 0])):
        played = [card_str(int(c)) for c in cards[:n]]
        moves += [Move((int(lead) + i) % n, "play", (c,)) for i, c in enumerate(played)]
        moves.append(Move(int(w), "win", tuple(played)))
        if n == 2 and k < 13:  # the winner takes the face-up card, the loser draws the next one unseen
            moves += [Move(int(w), "take", (card_str(int(tr.faceup[k, 0])),)),
                      Move(1 - int(w), "draw", (card_str(int(st[2 * k + 1])),))]
    info = {"policies": ", ".join(names), "leader": str(leader)}
    if n == 3 and t_card >= 0:
        info["turned"] = card_str(t_card)
    if n == 2:
        info["trump"] = card_str(v.trump_card) if v.trump_card >= 0 else "none"
    if score is not None:
        info["score"] = " ".join(map(str, score))
    tricks, pen = v.tricks[:n].tolist(), v.penalty[:n].tolist()
    result = {"score": tuple(tricks[s] * rules.trick_points - pen[s] for s in range(n)), "tricks": tuple(tricks),
              "penalty": tuple(pen), "jack taker": tuple(int(v.jack_taker[SUIT_INDEX[suit]]) for suit in JACK_ORDER)}
    return Trace("kanalje", n, tuple(moves), info=info, result=result, rules=rules, seed=seed)


def _check_deal3(hs, turned, leader, rules) -> int:
    """Validate three hands and the turned card for :func:`trace`; returns the turned card or -1."""
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
    """Validate two hands and the stock for :func:`trace`; returns the stock."""
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
