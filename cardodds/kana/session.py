"""Känä over an evening: sessions of many rounds, the winner starting the next (docs/rules/kana.md §2.2).

One round's figures (``odds``, ``expected_value``, ``strategy_table``) give every player
each place in the känä order equally often, as if the starter rotated. At a real table the
previous round's winner starts, so a player who wins more often also starts more often,
känäs first and sees nothing. :func:`session` plays whole sessions under that rule and,
on the same deals (paired), under a rotating starter, and reports each player's winnings
per round, how often each started, the distribution of the net after the session and the
longest losing run. :func:`session_table` recomputes the peek-one equilibrium table under
the real starter rule and sets it beside the one-round table.

>>> from cardodds import kana
>>> r = kana.session("threshold:8,blind,blind,blind", variant="peek-one", rounds=20, samples=2_000, rng=1)
>>> r.ev[0].lo > 0                        # peeking beats blind players over an evening
True
>>> r.difference[0].contains_zero()       # ...and a context-free table does not mind who starts
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:  # pandas is imported where a frame is built: start-up stays light
    import pandas as pd

from .._fields import non_default, rule_fields
from .._validate import check_run
from ..cards import RANKS
from ..engine import DEFAULT_CHUNK, InOrder, run, takes_backend
from .._html import result_html
from ..results import Result, counts_field
from ..rng import RngLike, as_seed_sequence, child
from ..stats import Z95, Estimate
from ..trace import Move, Trace
from ._defaults import (
    SESSION_POLICIES, SESSION_ROUNDS, SESSION_SAMPLES, SESSION_TABLE_ROUNDS, SESSION_TABLE_SAMPLES, TABLE_PLAYERS,
    TRACE_ROUNDS,
)
from ._policies import KIND_CUSTOM
from ._session import Plan, play_sessions, session_layout, trace_layout
from .equilibrium import table_strategy
from .exact import _pair_key
from .policies import Policy, from_actions, guess_variant, pack_lineups, parse_policy
from .rules import KanaRules, rules_for

__all__ = ["SessionResult", "SessionTableResult", "session", "session_table", "trace"]

#: Sessions ``session`` plays by default.
DEFAULT_SESSIONS = SESSION_SAMPLES
MAX_ROUNDS = 10_000
#: The seed of ``session_table`` by default.
SESSION_TABLE_SEED = 20261130


# ---------------------------------------------------------------------------------------
# Estimates whose unit is the session
# ---------------------------------------------------------------------------------------


def _ratio(x: int, xx: int, xr: int, r: int, rr: int, sessions: int) -> Estimate:
    """Per-round rate sum(x)/sum(r) over sessions, with the session as the independent unit.

    Rounds within a session are not independent (the starter depends on the last winner),
    so the error is the ratio estimator's: the spread of the sessions' residuals
    ``x_j - rate * r_j``. With sessions of a fixed length it is the plain mean's error / R.
    """
    if r == 0:
        return Estimate(math.nan, math.nan, math.nan, math.nan, sessions)
    rate = x / r
    if sessions < 2:  # one session: the rate is known, its error is not
        return Estimate(rate, math.nan, math.nan, math.nan, sessions)
    resid = float(xx) - 2.0 * rate * float(xr) + rate * rate * float(rr)
    mean_r = r / sessions
    se = math.sqrt(max(resid, 0.0) / (sessions * (sessions - 1))) / mean_r
    return Estimate(rate, se, rate - Z95 * se, rate + Z95 * se, sessions)


def _parse_table(policies, players, variant, rules) -> tuple[KanaRules, list[Policy]]:
    if isinstance(policies, str) and "," in policies:
        policies = [s.strip() for s in policies.split(",")]
    listed = isinstance(policies, (list, tuple))
    if rules is None and players is None and listed:
        players = len(policies)
    if rules is None and variant is None:
        variant = guess_variant(*(policies if listed else [policies]))
    rules = rules_for(players, variant, rules)
    n = rules.players
    table = list(policies) if listed else [policies] * n
    if len(table) != n:
        raise ValueError(f"{len(table)} policies for {n} players; give one per player or one for all")
    seats = [parse_policy(s, rules.variant) for s in table]
    if len({s.decide for s in seats if s.kind == KIND_CUSTOM}) > 1:
        raise ValueError("one session can use one custom decision function (it may look at its seat)")
    return rules, seats


def _check_rounds(rounds, leave_at, first, n):
    if isinstance(rounds, bool) or not isinstance(rounds, (int, np.integer)) or not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"rounds={rounds!r} must be a whole number of rounds from 1 to {MAX_ROUNDS:,}, "
                         "e.g. rounds=100")
    if leave_at is not None and (isinstance(leave_at, bool) or not isinstance(leave_at, (int, np.integer))
                                 or leave_at < 1):
        raise ValueError(f"leave_at={leave_at!r} must be a loss in antes of at least 1 (e.g. leave_at=25), or None")
    if first == "random" or first is None:
        return -1
    if isinstance(first, bool) or not isinstance(first, (int, np.integer)) or not 0 <= first < n:
        raise ValueError(f"first={first!r} must be 'random' or the player (0..{n - 1}) who starts the first round")
    return int(first)


def _kernel_args(rules: KanaRules, tables: list[list[Policy]], rotation, ref, rounds: int, leave: int, first: int,
                 preset=None, trace_rows: int = 0, less=None):
    """Arguments of ``play_sessions`` after ``(state, n, out)``, the layout and the trace layout."""
    n = rules.players
    configs = [[seats[(starter + p) % n] for p in range(n)] for seats in tables for starter in range(n)]
    st, fn = pack_lineups(configs, n)
    layout = session_layout(n, len(tables), rounds)
    tlayout = trace_layout(n)
    pre = np.zeros((0, n, 3), np.int64) if preset is None else np.asarray(preset, np.int64).reshape(-1, n, 3)
    trace = np.zeros((trace_rows, tlayout.size), np.int64)
    T = len(tables)
    less = np.array([[t, t] for t in range(T)] if less is None else less, np.int64).reshape(T, 2)
    plan = Plan(rounds, leave, first, np.asarray(rotation, np.int64), np.asarray(ref, np.int64), less)
    kargs = (rules.pack(), plan, st, fn, layout.offsets_array(), pre, trace, tlayout.offsets_array())
    return kargs, layout, tlayout


def _chunk(rounds: int, tables: int) -> int:
    # Sessions per chunk: about as many rounds as the engine's default chunk of single rounds.
    return max(16, DEFAULT_CHUNK // (rounds * tables))


def _per_player(v, name: str, t: int, n: int):
    """(sum, sum of squares, sum of products with the length) of ``name`` for table t's players."""
    sq = "position_sq" if name == "position_wins" else name + "_sq"
    rr = "position_rounds" if name == "position_wins" else name + "_rounds"
    s = slice(t * n, (t + 1) * n)
    return getattr(v, name)[s], getattr(v, sq)[s], getattr(v, rr)[s]


def _rates(v, name: str, t: int, n: int) -> tuple[Estimate, ...]:
    x, xx, xr = _per_player(v, name, t, n)
    return tuple(_ratio(int(x[q]), int(xx[q]), int(xr[q]), v.rounds, v.rounds_sq, v.sessions) for q in range(n))


# ---------------------------------------------------------------------------------------
# Sessions
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class SessionResult(Result):
    """Sessions of Känä at one table: per player (chair 0..n-1, fixed for the session).

    Rates are per round over all sessions, in antes where they are winnings (a won round
    gains ``n - 1`` antes, a lost one costs 1; multiply by ``rules.ante`` for money), each
    with its 95% interval computed with the session as the independent unit.

    - ``win``: share of rounds won; ``ev``: net antes per round, under the real starter rule.
    - ``ev_rotation``: the same players on the same deals with a rotating starter (every
      player starts equally often: the library's one-round figure); ``difference`` =
      ``ev - ev_rotation``, paired session by session.
    - ``starts``: share of rounds the player started; ``starter_win``: P(the starter of a
      round wins it), at the real table and with the rotation.
    - ``left``: share of sessions that ended with this player leaving (``leave_at``).
    - ``longest_run``: mean over sessions of the player's longest run of rounds without a win.
    - ``net_distribution(q)``: distribution of player q's net after the session.
    """

    strategies: tuple[str, ...]
    rounds: int
    leave_at: int | None
    first: int | None
    length: Estimate
    win: tuple[Estimate, ...]
    ev: tuple[Estimate, ...]
    ev_rotation: tuple[Estimate, ...]
    difference: tuple[Estimate, ...]
    starts: tuple[Estimate, ...]
    starter_win: Estimate
    starter_win_rotation: Estimate
    left: tuple[Estimate, ...]
    longest_run: tuple[Estimate, ...]
    final_counts: np.ndarray = counts_field()
    longest_counts: np.ndarray = counts_field()
    counts: np.ndarray = counts_field()

    @property
    def players(self) -> int:
        return self.rules.players

    def net_distribution(self, player: int = 0) -> pd.Series:
        """P(player's net after the session = k antes), indexed by k (only values that occurred)."""
        import pandas as pd
        self._check_player(player)
        row = self.final_counts[player]
        k = np.nonzero(row)[0]
        return pd.Series(row[k] / row.sum(), index=pd.Index(k - self.rounds, name="net (antes)"), name="probability")

    def net_total(self, player: int = 0) -> Estimate:
        """Mean net after the session, in antes, with its interval."""
        self._check_player(player)
        row = self.final_counts[player].astype(float)
        k = np.arange(row.size) - self.rounds
        return Estimate.mean(float((row * k).sum()), float((row * k * k).sum()), int(row.sum()))

    def p_ahead(self, player: int = 0) -> Estimate:
        """P(the player ends the session with more than it brought)."""
        self._check_player(player)
        row = self.final_counts[player]
        return Estimate.proportion(int(row[self.rounds + 1:].sum()), int(row.sum()))

    def quantiles(self, player: int = 0, q=(0.1, 0.5, 0.9)) -> dict[float, int]:
        """Quantiles of the player's net after the session, in antes."""
        self._check_player(player)
        row = self.final_counts[player]
        cum = np.cumsum(row) / row.sum()
        return {float(p): int(np.searchsorted(cum, p) - self.rounds) for p in q}

    def longest_run_distribution(self, player: int = 0) -> pd.Series:
        import pandas as pd
        self._check_player(player)
        row = self.longest_counts[player]
        k = np.nonzero(row)[0]
        return pd.Series(row[k] / row.sum(), index=pd.Index(k, name="longest losing run"), name="probability")

    def _check_player(self, player):
        if isinstance(player, bool) or not isinstance(player, (int, np.integer)) or not 0 <= player < self.players:
            raise ValueError(f"player {player!r} does not exist at a table of {self.players}; "
                             f"players are 0..{self.players - 1}")

    def to_frame(self) -> pd.DataFrame:
        import pandas as pd
        rows = []
        for q in range(self.players):
            row = {"player": q, "strategy": self.strategies[q]}
            for name in ("win", "ev", "ev_rotation", "difference", "starts", "left", "longest_run"):
                e = getattr(self, name)[q]
                row.update({name: e.value, f"{name}_lo": e.lo, f"{name}_hi": e.hi})
            rows.append(row)
        return pd.DataFrame(rows).set_index("player")

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({
            "players": self.players, "variant": self.rules.variant, "strategies": list(self.strategies),
            "rounds": self.rounds, "leave_at": self.leave_at,
            "first": "random" if self.first is None else self.first, "length": self.length.to_dict(),
            "starter_win": self.starter_win.to_dict(), "starter_win_rotation": self.starter_win_rotation.to_dict(),
            "by_player": [
                {
                    "player": q, "strategy": self.strategies[q], "win": self.win[q].to_dict(),
                    "ev": self.ev[q].to_dict(),
                    "ev_rotation": self.ev_rotation[q].to_dict(), "difference": self.difference[q].to_dict(),
                    "starts": self.starts[q].to_dict(), "left": self.left[q].to_dict(),
                    "longest_run": self.longest_run[q].to_dict(), "net_total": self.net_total(q).to_dict(),
                    "p_ahead": self.p_ahead(q).to_dict(),
                    "net_distribution": {str(k): float(p) for k, p in self.net_distribution(q).items()},
                }
                for q in range(self.players)
            ],
        })
        return d

    def __repr__(self) -> str:
        r = self.rules
        stop = f", or until a player has lost {self.leave_at} antes" if self.leave_at else ""
        head = (f"Känä sessions, {r.players} players, {r.variant}: {self.rounds} rounds{stop}, the winner starts the "
                f"next ({self.samples:,} sessions, seed {self.seed}{', PARTIAL' if self.partial else ''})")
        w = max(8, *(len(s) for s in self.strategies))
        lines = [head, f"  {'player':<6} {'strategy':<{w}} {'wins a round':<26} {'antes a round':<27} "
                 f"{'with rotation: difference':<27} {'starts':<7} {'net after':<10} {'ahead':<6}"]
        for q in range(r.players):
            ev, d = self.ev[q], self.difference[q]
            lines.append(
                f"  {q:<6} {self.strategies[q]:<{w}} {self.win[q].format(4):<26} "
                f"{ev.value:+.4f} [{ev.lo:+.4f}, {ev.hi:+.4f}]  {d.value:+.4f} [{d.lo:+.4f}, {d.hi:+.4f}]  "
                f"{self.starts[q].value:<7.3f} {self.net_total(q).value:<+10.2f} {self.p_ahead(q).value:<6.3f}"
            )
        lines.append(f"  the starter wins a round: {self.starter_win.format(4)} (rotating starter: "
                     f"{self.starter_win_rotation.format(4)}); mean length {self.length.value:.2f} rounds")
        lines.append(f"  antes a round: x {r.ante:g} for money; difference = real starter rule - rotation, paired "
                     "(an interval with 0: no difference at this precision)")
        return "\n".join(line.rstrip() for line in lines)

    def _repr_html_(self) -> str:
        head = repr(self).splitlines()[0]
        return result_html(head, self.to_frame())

    def plot(self, player: int = 0, ax=None, label: str | None = None):
        """The distribution of ``player``'s net after the session (antes); several results
        drawn on one ``ax`` are told apart by their ``label`` in a legend beside the plot."""
        import matplotlib.pyplot as plt
        from matplotlib.ticker import MaxNLocator

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 3), layout="constrained")
        dist = self.net_distribution(player)
        ax.step(dist.index, dist.values, where="mid", label=label or self.strategies[player])
        ax.axvline(0, color="grey", lw=0.8, ls=":")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # nets are whole antes
        ax.set_xlabel(f"net after {self.rounds} rounds (antes)")
        ax.set_ylabel("share of sessions")
        title = f"Känä, {self.rules.players} players: player {player}'s net ({self.samples:,} sessions)"
        if label is None:  # a strategy name can be long: on a line of its own
            title += f"\nplayer {player}: {self.strategies[player]}"
        ax.set_title(title)
        if label is not None:
            ax.legend(fontsize=8, loc="center left", bbox_to_anchor=(1.0, 0.5), frameon=False)
        return ax


@takes_backend
def session(policies=SESSION_POLICIES, players: int | None = None, variant: str | None = None, *,
            rules: KanaRules | None = None, samples: int | None = None, target_halfwidth: float | None = None,
            rng: RngLike = None, threads: int | None = None, rounds: int = SESSION_ROUNDS,
            leave_at: int | None = None, first="random", progress: bool = False) -> SessionResult:
    """Play sessions of ``rounds`` rounds at one table; the winner of a round starts the next.

    ``policies`` is one policy (name or :class:`~cardodds.kana.policies.Policy`,
    context rows and custom ``@njit`` ones included) for every player, a list with one per
    player, or a comma-separated string (``"threshold:8,blind,blind,blind"``); players keep
    their chairs, numbered clockwise. ``leave_at`` ends a session after the round in which
    a player's loss reaches that many antes. ``first`` is the first round's starter (the
    player after the dealer), ``"random"`` by default so no chair is favoured.
    ``samples`` counts sessions; ``target_halfwidth`` runs until player 0's antes-per-round
    interval is that narrow. Every session is also played, on the same deals, with a
    rotating starter: ``difference`` is the starter rule's effect, paired.

    >>> r = session("blind", players=3, rounds=30, samples=2_000, rng=2)
    >>> all(w.contains(1 / 3) for w in r.win)    # official rules: 1/n each, whoever starts
    True
    """
    rules, seats = _parse_table(policies, players, variant, rules)
    n = rules.players
    first_code = _check_rounds(rounds, leave_at, first, n)
    check_run(samples=samples, target_halfwidth=target_halfwidth, threads=threads, rng=rng)
    if samples is None and target_halfwidth is None:
        samples = DEFAULT_SESSIONS
    rounds = int(rounds)
    kargs, layout, _ = _kernel_args(rules, [seats, seats], [0, 1], [0, 0], rounds, int(leave_at or 0), first_code)

    def halfwidth(counts, done):
        v = layout.view(counts)
        return _rates(v, "net", 0, n)[0].halfwidth if done > 1 else math.inf

    res = run(play_sessions, kargs, layout.size, samples=samples, target_halfwidth=target_halfwidth,
              halfwidth=halfwidth, rng=rng, threads=threads, progress=progress, unit="session",
              chunk_size=_chunk(rounds, 2))
    return _session_result(rules, seats, rounds, leave_at, first_code, layout, res)


def _session_result(rules, seats, rounds, leave_at, first_code, layout, res) -> SessionResult:
    n = rules.players
    v = layout.view(res.counts)
    N = v.sessions
    ev = _rates(v, "net", 0, n)
    rot = _rates(v, "net", 1, n)
    diff = tuple(d.scaled(-1) for d in _rates(v, "diff", 1, n))  # table 1 - table 0, turned round
    starts = _rates(v, "starts", 0, n)
    pos = _rates(v, "position_wins", 0, n)
    pos_rot = _rates(v, "position_wins", 1, n)
    final = v.final.reshape(n, n * rounds + 1).copy()
    longest = v.longest.reshape(n, rounds + 1).copy()
    runs = np.arange(rounds + 1, dtype=float)
    longest_mean = tuple(Estimate.mean(float((longest[q] * runs).sum()), float((longest[q] * runs * runs).sum()), N)
                         for q in range(n))
    lengths = Estimate.mean(float(v.rounds), float(v.rounds_sq), N)
    return SessionResult(
        strategies=tuple(s.name for s in seats), rounds=rounds, leave_at=leave_at,
        first=None if first_code < 0 else first_code, length=lengths,
        win=tuple(e.scaled(1 / n, 1 / n) for e in ev), ev=ev, ev_rotation=rot, difference=diff, starts=starts,
        starter_win=pos[0], starter_win_rotation=pos_rot[0],
        left=tuple(Estimate.proportion(int(v.left[q]), N) for q in range(n)), longest_run=longest_mean,
        final_counts=final, longest_counts=longest, counts=res.counts,
        rules=rules, samples=res.samples, seed=res.seed, partial=res.partial,
    )


def trace(policies=SESSION_POLICIES, players: int | None = None, variant: str | None = None, *,
          rules: KanaRules | None = None, rng: RngLike = None, rounds: int = TRACE_ROUNDS,
          leave_at: int | None = None, first="random", deals=None) -> Trace:
    """One evening at the table, round by round (:class:`~cardodds.trace.Trace`): each seat's
    three cards as dealt (``deal``) and, in peek-one, the one it looked at (``peek``: the first
    dealt), each seat's känä in turn from the round's starter, then the round's winner (who
    starts the next; the note says when an extra round among tied hands decided it: its cards
    are blind and not recorded). ``policies``, ``rounds``, ``leave_at`` and ``first`` as for
    :func:`session`; ``deals[r][q]`` fixes the three cards seat q gets in round r (``"Ah Ad 2c"``).
    ``result`` holds each seat's net antes over the evening. It is the record ``review`` reads.

    >>> t = trace("blind", players=3, rounds=2, first=0, rng=1)
    >>> [(m.seat, m.action) for m in t.moves[:7]]
    [(0, 'deal'), (1, 'deal'), (2, 'deal'), (0, 'känä'), (1, 'känä'), (2, 'känä'), (1, 'win')]
    """
    from ..cards import card_str

    frame, res = _session_rounds(policies, players, variant, rounds=rounds, leave_at=leave_at, first=first,
                                 rules=rules, deals=deals, rng=rng)
    n = res.rules.players
    moves: list[Move] = []
    for row in frame[frame.table == 0].itertuples():
        hands = [tuple(int(getattr(row, f"dealt{q}_{j}")) for j in range(3)) for q in range(n)]
        kanad = [int(getattr(row, f"kanad{q}")) for q in range(n)]
        for q in range(n):
            moves.append(Move(q, "deal", tuple(card_str(c) for c in hands[q])))
            if getattr(row, f"peeked{q}") >= 0:
                moves.append(Move(q, "peek", (card_str(int(getattr(row, f"peeked{q}"))),)))
        order = [(row.starter + i) % n for i in range(n)]
        moves += [Move(q, "känä", (card_str(kanad[q]),)) for q in order]
        keys = [_pair_key(*(c >> 2 for c in hands[q] if c != kanad[q])) for q in range(n)]
        tied = [q for q in range(n) if keys[q] == max(keys)]
        extra = f", after an extra round (seats {', '.join(map(str, tied))} tied)" if len(tied) > 1 else ""
        moves.append(Move(int(row.winner), "win", (), f"round {row.round + 1}{extra}"))
    real = frame[frame.table == 0]
    info = {"policies": ", ".join(res.strategies), "variant": res.rules.variant}
    house = house_rules(res.rules)
    if house:
        info["house rules"] = house
    result = {"net antes": tuple(int(real[f"net{q}"].sum()) for q in range(n)), "rounds": (len(real),)}
    return Trace("kana", n, tuple(moves), info=info, result=result, rules=res.rules, seed=res.seed)


#: The rules fields a record names in its ``house rules:`` line when they are not the defaults:
#: every field but the players and the variant (the record's own lines).
HOUSE_RULES = tuple(f.name for f in rule_fields(KanaRules) if f.name not in ("players", "variant"))


def house_rules(rules: KanaRules) -> str:
    """The rules beyond players and variant that differ from the defaults, as a record's
    ``house rules:`` line writes them (``"ante=0.5, tiebreak_deck=fresh"``; empty if none)."""
    return ", ".join(f"{k}={v}" for k, v in non_default(rules).items() if k in HOUSE_RULES)


def _session_rounds(policies=SESSION_POLICIES, players: int | None = None, variant: str | None = None, *,
                    rounds: int = 10, sessions: int = 1, leave_at: int | None = None, first="random",
                    rules: KanaRules | None = None, deals=None,
                    rng: RngLike = None) -> tuple[pd.DataFrame, SessionResult]:
    """Every round of a few sessions, one row per round and table (0: the real starter rule,
    1: rotating starter): starter, winner, each player's känäd card and net, its cards as dealt
    (``dealt{q}_{j}``) and the one it peeked (``peeked{q}``, -1 when none). ``deals[r][q]``
    optionally fixes the three cards player q gets in round r (e.g. ``"Ah Ad 2c"``), for
    checking the rules by hand. Also returns the counts of the same sessions as a result.

    >>> frame, _ = _session_rounds("blind", players=3, rounds=2, rng=1)
    >>> list(frame.columns[:5]), len(frame)
    (['session', 'table', 'round', 'starter', 'winner'], 4)
    """
    import pandas as pd
    from ..cards import parse_cards

    check_run(rng=rng)
    rules, seats = _parse_table(policies, players, variant, rules)
    n = rules.players
    first_code = _check_rounds(rounds, leave_at, first, n)
    preset = None
    if deals is not None:
        preset = np.array([[parse_cards(h) if isinstance(h, str) else list(h) for h in rnd] for rnd in deals],
                          np.int64)
        if preset.ndim != 3 or preset.shape[1:] != (n, 3):
            raise ValueError(f"deals: give, for each round, {n} hands of 3 cards")
        for rnd in preset:
            if len(set(rnd.ravel().tolist())) != 3 * n:
                raise ValueError("deals: a card is dealt twice in one round")
    rows = 2 * rounds * sessions
    kargs, layout, tlayout = _kernel_args(rules, [seats, seats], [0, 1], [0, 0], int(rounds), int(leave_at or 0),
                                          first_code, preset, rows)
    ss, _ = as_seed_sequence(rng)
    res = run(play_sessions, kargs, layout.size, samples=sessions, rng=ss, threads=1, chunk_size=sessions,
              unit="session")
    tr = kargs[-2]
    v = tlayout.view(tr)
    frame = pd.DataFrame({name: getattr(v, name).reshape(-1) for name in ("session", "table", "round", "starter",
                                                                          "winner")})
    for q in range(n):
        frame[f"kanad{q}"] = v.kanad[:, q]
        frame[f"net{q}"] = v.net[:, q]
        frame[f"peeked{q}"] = v.peeked[:, q]
        for j in range(3):
            frame[f"dealt{q}_{j}"] = v.dealt[:, 3 * q + j]
    filled = 2 * layout.view(res.counts).rounds  # rounds played at both tables
    return frame.iloc[:filled], _session_result(rules, seats, int(rounds), leave_at, first_code, layout, res)


# ---------------------------------------------------------------------------------------
# The peek-one table under the real starter rule
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class SessionTableResult(Result):
    """The peek-one equilibrium recomputed over sessions with the real starter rule.

    ``rows`` has one row per peeked rank: today's action (the one-round table, starters
    rotating), the action under the real starter rule, and for the *other* action the
    paired change of a player's antes per round when it alone switches at that rank,
    measured over sessions under the real rule (``switch``) and with a rotating starter
    (``switch_rotation``), and their paired difference (``starter_effect``: how much the real
    starter rule changes what the switch gains); a table is an equilibrium when no switch
    gains significantly.
    ``changed`` lists the ranks whose action differs from today's.
    """

    rows: pd.DataFrame = field(compare=False)
    today: Policy
    strategy: Policy
    rounds: int
    iterations: int
    converged: bool
    ev_today: Estimate
    ev_real: Estimate

    @property
    def changed(self) -> list[str]:
        return [k for k, r in self.rows.iterrows() if r["today"] != r["real_rule"]]

    def to_frame(self) -> pd.DataFrame:
        return self.rows.copy()

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({
            "players": self.rules.players, "variant": self.rules.variant, "rounds": self.rounds,
            "iterations": self.iterations, "converged": self.converged, "changed": self.changed,
            "ev_table_vs_blind_today": self.ev_today.to_dict(), "ev_table_vs_blind_real": self.ev_real.to_dict(),
            "rows": [
                {"peeked": k, "today": r["today"], "real_rule": r["real_rule"],
                 "switch": {c: float(r[f"switch{s}"]) for c, s in (("value", ""), ("lo", "_lo"), ("hi", "_hi"))},
                 **{col: {c: float(r[f"{col}{s}"]) for c, s in (("value", ""), ("lo", "_lo"), ("hi", "_hi"))}
                    for col in ("switch_rotation", "starter_effect")}}
                for k, r in self.rows.iterrows()
            ],
        })
        return d

    def __repr__(self) -> str:
        r = self.rules
        lines = [f"Känä peek-one table under the real starter rule, {r.players} players ({self.samples:,} sessions of "
                 f"{self.rounds} rounds a step, {self.iterations} iteration(s)"
                 f"{'' if self.converged else ', NOT converged'})",
                 f"  {'peeked':<7} {'today':<6} {'real':<6} {'switching, real rule':<30} {'switching, rotation':<30} "
                 f"{'real - rotation (paired)':<30}"]
        for k, row in self.rows.iterrows():
            lines.append(f"  {k:<7} {row['today']:<6} {row['real_rule']:<6} "
                         f"{row['switch']:+.5f} [{row['switch_lo']:+.5f}, {row['switch_hi']:+.5f}]   "
                         f"{row['switch_rotation']:+.5f} [{row['switch_rotation_lo']:+.5f}, "
                         f"{row['switch_rotation_hi']:+.5f}]   {row['starter_effect']:+.5f} "
                         f"[{row['starter_effect_lo']:+.5f}, {row['starter_effect_hi']:+.5f}]")
        lines.append(f"  changed: {', '.join(self.changed) or 'none'} (switch = antes a round gained by one player "
                     "switching at that rank, paired)")
        return "\n".join(line.rstrip() for line in lines)

    def _repr_html_(self) -> str:
        return result_html(repr(self).splitlines()[0], self.rows, float_format=lambda x: f"{x:.5f}")


def _flip(actions: np.ndarray, k: int, name: str) -> Policy:
    a = actions.copy()
    a[k] = 1 - a[k]
    return from_actions("peek-one", a, name)


@takes_backend
def session_table(players: int | None = None, *, rules: KanaRules | None = None, samples: int = SESSION_TABLE_SAMPLES,
                  rng: RngLike = SESSION_TABLE_SEED, threads: int | None = None, rounds: int = SESSION_TABLE_ROUNDS,
                  start: Policy | None = None, max_iterations: int = 4, progress: bool = False) -> SessionTableResult:
    """The peek-one equilibrium table recomputed over sessions under the real starter rule.

    Starting from today's table (``start``, by default the shipped one-round equilibrium),
    each step plays ``samples`` sessions of ``rounds`` rounds in which player 0 alone
    switches its action at one peeked rank (13 tables, plus the unchanged one), under the
    real starter rule and, paired on the same deals, with a rotating starter. A rank's
    action changes for everybody when switching gains significantly under the real rule;
    steps repeat until nothing changes. ``players`` (default 4), or ``rules`` (keyword-only,
    peek-one: the house rules too; ``players`` given with it must agree). Interrupted (Ctrl-C),
    it returns ``partial=True``: the rows of the last step counted, and the values against blind
    players NaN if not reached.

    >>> t = session_table(3, rounds=10, samples=300, rng=1, max_iterations=1)
    >>> len(t.rows)
    13
    """
    import pandas as pd
    if isinstance(rules, KanaRules) and rules.variant != "peek-one":
        raise ValueError("session tables are peek-one tables; give rules with variant='peek-one'")
    rules = rules_for(players, "peek-one", rules)
    players = rules.players
    lo, hi = TABLE_PLAYERS
    if not lo <= players <= hi:
        raise ValueError(f"players={players!r}: session tables are built for {lo}..{hi} players")
    check_run(samples=samples, threads=threads, rng=rng)
    if samples is None:
        samples = SESSION_TABLE_SAMPLES
    first_code = _check_rounds(rounds, None, "random", players)
    n = players
    today_s = table_strategy("peek-one", n) if start is None else parse_policy(start, "peek-one")
    today = today_s.actions()
    current = today.copy()
    ss, seed = as_seed_sequence(rng)
    K = 13
    iterations, converged = 0, False
    total_sessions = 0
    # Interrupted (Ctrl-C), the steps stop: the rows of the last step counted, the table it
    # started from, and the values against blind players not reached (NaN).
    steps = InOrder()
    while iterations < max_iterations:
        iterations += 1
        base = from_actions("peek-one", current, "table")
        tables = [[base] * n]
        for k in range(K):
            tables.append([_flip(current, k, f"switch {k}")] + [base] * (n - 1))
        tables = tables + [list(t) for t in tables]  # the same tables with a rotating starter
        rotation = [0] * (K + 1) + [1] * (K + 1)
        ref = [0] * (K + 1) + [K + 1] * (K + 1)
        # A real-rule switch is also set against the same switch with the rotating starter.
        less = [[t, t] for t in range(2 * (K + 1))]
        for k in range(K):
            less[1 + k] = [K + 2 + k, K + 1]
        kargs, layout, _ = _kernel_args(rules, tables, rotation, ref, rounds, 0, first_code, less=less)
        res = steps.step(run, play_sessions, kargs, layout.size, samples=samples, rng=child(ss, iterations),
                         threads=threads,
                         progress=progress, unit="session", chunk_size=_chunk(rounds, len(tables)))
        if res is None:  # interrupted before it counted anything: the last step's rows stand
            break
        total_sessions += res.samples
        v = layout.view(res.counts)
        real = [_rates(v, "diff", 1 + k, n)[0] for k in range(K)]
        rot = [_rates(v, "diff", K + 2 + k, n)[0] for k in range(K)]
        effect = [_rates(v, "contrast", 1 + k, n)[0] for k in range(K)]
        if steps.partial:  # interrupted: its rows are shown, the table stays as it was
            break
        new = current.copy()
        for k in range(K):
            if real[k].lo > 0:
                new[k] = 1 - current[k]
        if (new == current).all():
            converged = True
            break
        current = new
    names = ("känä", "keep")
    data = []
    for k, rank in enumerate(RANKS):
        row: dict[str, Any] = {"peeked": rank, "today": names[today[k]], "real_rule": names[current[k]]}
        for col, e in (("switch", real[k]), ("switch_rotation", rot[k]), ("starter_effect", effect[k])):
            row.update({col: e.value, col + "_se": e.se, col + "_lo": e.lo, col + "_hi": e.hi})
        data.append(row)
    frame = pd.DataFrame(data).set_index("peeked")
    # The final step's unchanged table: player 0 plays the table against it, so its value
    # against blind players comes from a short paired session run of both tables.
    strategy = from_actions("peek-one", current, f"session-table({n})")
    missing = Estimate.mean(0.0, 0.0, 0)
    both = steps.step(session, [strategy] + ["blind"] * (n - 1), rules=rules, rounds=rounds, samples=samples,
                      rng=child(ss, 0), threads=threads)
    today_vs = steps.step(session, [today_s] + ["blind"] * (n - 1), rules=rules, rounds=rounds, samples=samples,
                          rng=child(ss, 0), threads=threads)
    return SessionTableResult(rows=frame, today=today_s, strategy=strategy, rounds=rounds, iterations=iterations,
                              converged=converged,
                              ev_today=today_vs.ev_rotation[0] if today_vs is not None else missing,
                              ev_real=both.ev[0] if both is not None else missing,
                              rules=rules, samples=samples, seed=seed, partial=steps.partial)
