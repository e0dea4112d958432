"""Game equity tables, every game's: P(each seat or side wins the game) over the scores before a
deal (a hand), like backgammon's match equity tables.

A game measures one deal's joint outcome (each seat's points, in the frame of the seat that
leads it) by simulation under its default lineup; :func:`build` solves the game over the
scores from it (:mod:`._equity`: the game ends as the games' ``game`` kernels end it, a tie at
the top playing on) and bootstraps the measured outcomes (:data:`BOOTSTRAP` multinomial
resamples, each solved again) for each equity's standard error. :class:`EquityTable` is the
solved table (written to and read from ``.npz`` files: the shipped ones and the cache);
:class:`EquityResult` answers one score.

>>> import numpy as np
>>> t = build(Measured("coin"), np.array([[1, 0], [0, 1]]), np.array([1, 1]), lo=0, step=1, target=3,
...           rng=1, bootstrap=0)
>>> [round(float(v), 4) for v in t.at((1, 0))[0]]   # a race to 3 of fair coins, one point up
[0.6875, 0.3125]
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .results import Result
from .rng import as_seed_sequence, child
from .stats import Z95, Estimate

__all__ = ["BOOTSTRAP", "EquityResult", "EquityTable", "Measured", "build", "built", "cache_dir", "cached", "estimates",
           "lookup", "reachable", "shipped"]

#: Bootstrap resamples of the measured outcomes behind each equity's standard error.
BOOTSTRAP = 20
#: Value iteration (a game whose deal can lower the score sum): the largest change at which it
#: stops, and the most sweeps.
TOL = 1e-7
MAX_SWEEPS = 2000
#: The table file format (a cached table of another format is built again).
FORMAT = 1
#: The most states (scores of every seat) a table may hold.
MAX_STATES = 4_000_000


@dataclass(frozen=True, eq=False)
class EquityTable:
    """P(each seat wins) from every open score on a grid of ``step`` points from ``lo``
    (``size`` scores a seat), in the frame of the seat that leads the deal: ``value[j, i]``
    for frame seat ``j`` (0 leads) at flat state ``i``, ``se`` its bootstrap standard error.
    ``offsets`` (points a frame seat) and ``counts`` are the measured deal outcomes."""

    game: str
    seats: int
    lo: int
    step: int
    size: int
    target: int
    value: np.ndarray = field(repr=False)
    se: np.ndarray = field(repr=False)
    offsets: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    seed: Any = None
    policies: str = ""
    rules: Any = None
    bootstrap: int = BOOTSTRAP
    sweeps: int = 0
    change: float = 0.0
    source: str = "built"

    @property
    def samples(self) -> int:
        """Deals (hands) measured."""
        return int(self.counts.sum())

    @property
    def hi(self) -> int:
        return self.lo + (self.size - 1) * self.step

    def open_state(self, x) -> bool:
        """Whether scores ``x`` (points) still play on: nobody has reached the target, or a tie at the top."""
        top = max(x)
        return top < self.target or sum(1 for v in x if v == top) > 1

    def at(self, x) -> tuple[np.ndarray, np.ndarray]:
        """P(each frame seat wins) and its standard error at scores ``x`` (points, frame order):
        read on the grid, else interpolated between the open grid scores around it."""
        n = self.seats
        q = [(v - self.lo) / self.step for v in x]
        corners: list[tuple[float, int]] = [(1.0, 0)]
        for j in range(n):
            f = math.floor(q[j])
            t = q[j] - f
            new = []
            for w, idx in corners:
                for c, cw in ((f, 1.0 - t), (f + 1, t)):
                    if cw > 0:
                        new.append((w * cw, idx * self.size + min(max(c, 0), self.size - 1)))
            corners = new
        v = np.zeros(n)
        s = np.zeros(n)
        total = 0.0
        for w, idx in corners:
            if not np.isnan(self.value[0, idx]):
                v += w * self.value[:, idx]
                s += w * self.se[:, idx]
                total += w
        if total == 0.0:
            raise ValueError(f"scores {tuple(x)} are outside the table")
        return v / total, s / total

    def grid(self) -> np.ndarray:
        """The grid's scores a seat (points)."""
        return self.lo + self.step * np.arange(self.size)

    # ---- files ------------------------------------------------------------------------------
    def save(self, path) -> Path:
        """Write the table as a compressed ``.npz`` (equities in 1/65535 steps, errors as half floats)."""
        path = Path(path)
        meta = {"format": FORMAT, "game": self.game, "seats": self.seats, "lo": self.lo, "step": self.step,
                "size": self.size, "target": self.target, "seed": self.seed, "policies": self.policies,
                "rules": self.rules, "bootstrap": self.bootstrap, "sweeps": self.sweeps, "change": self.change}
        value = np.where(np.isnan(self.value), 0, np.rint(np.nan_to_num(self.value) * 65535)).astype(np.uint16)
        tmp = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
        np.savez_compressed(tmp, value=value, se=np.nan_to_num(self.se).astype(np.float16),
                            offsets=self.offsets.astype(np.int32), counts=self.counts.astype(np.int64),
                            meta=np.array(json.dumps(meta)))
        os.replace(tmp, path)
        return path

    @classmethod
    def load(cls, path, source: str = "shipped") -> EquityTable:
        with np.load(path) as z:
            meta = json.loads(str(z["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"{path}: table format {meta.get('format')}, not {FORMAT}")
            value = z["value"].astype(np.float64) / 65535
            se = z["se"].astype(np.float64)
            offsets, counts = z["offsets"].astype(np.int64), z["counts"].astype(np.int64)
        closed = ~_open_mask(meta["seats"], meta["size"], (meta["target"] - meta["lo"]) / meta["step"])
        value[:, closed] = np.nan
        se[:, closed] = np.nan
        return cls(meta["game"], meta["seats"], meta["lo"], meta["step"], meta["size"], meta["target"], value, se,
                   offsets, counts, meta["seed"], meta["policies"], meta["rules"], meta["bootstrap"], meta["sweeps"],
                   meta["change"], source)


def _open_mask(n: int, size: int, target_units: float) -> np.ndarray:
    """The grid states that play on (flat, C order): top score short of the target, or tied."""
    coords = np.indices((size,) * n).reshape(n, -1)
    top = coords.max(axis=0)
    ties = (coords == top).sum(axis=0)
    return (top < target_units) | (ties > 1)


def _solve(units: np.ndarray, prob: np.ndarray, n: int, size: int, target_units: int, w=None):
    """``(w, sweeps, change)``: P(each frame seat wins) from every grid state (NaN where the
    game is over). A game whose score sum rises every deal is solved exactly in one sweep,
    from the highest sum down; two sides whose hand can lower it, by value iteration with
    the deal's outcomes applied as one convolution (FFT); else by Gauss-Seidel sweeps."""
    from ._equity import sweep

    coords = np.indices((size,) * n).reshape(n, -1)
    free = _open_mask(n, size, target_units)
    acyclic = bool((units.sum(axis=1) > 0).all())  # the score sum rises every deal: one sweep is exact
    if n == 2 and not acyclic:
        return _solve_two(units, prob, size, target_units, free, w)
    idx = np.flatnonzero(free)
    order = idx[np.argsort(-coords[:, idx].sum(axis=0), kind="stable")].astype(np.int64)
    w = np.full((size ** n, n), 1.0 / n) if w is None else np.ascontiguousarray(np.nan_to_num(w, nan=1.0 / n).T)
    done, change = sweep(w, order, units.astype(np.int64), prob.astype(np.float64), n, 0, size, target_units,
                         1 if acyclic else MAX_SWEEPS, 0.0 if acyclic else TOL)
    if not acyclic and change > TOL:
        raise ValueError(f"samples: the equity table did not converge in {MAX_SWEEPS} sweeps (change {change:.2g}): "
                         "too few deals measured for the game to end; measure more")
    w = np.ascontiguousarray(w.T)
    w[:, ~free] = np.nan
    return w, int(done), float(change)


def _solve_two(units, prob, size, target_units, free, w=None):
    """Two sides, value iteration: W(x) = sum over outcomes o of p(o) V(x + o), with V the
    end of the game where it ends, else 1 - W of the next hand's frame (the sides swapped)."""
    from scipy import fft

    amin, amax = units[:, 0].min(), units[:, 0].max()
    bmin, bmax = units[:, 1].min(), units[:, 1].max()
    kern = np.zeros((amax - amin + 1, bmax - bmin + 1))
    np.add.at(kern, (units[:, 0] - amin, units[:, 1] - bmin), prob)
    y0 = np.maximum(np.arange(amin, size + amax), 0)[:, None]  # a score below the grid reads its lowest row
    y1 = np.maximum(np.arange(bmin, size + bmax), 0)[None, :]
    y0, y1 = np.broadcast_arrays(y0, y1)
    top = np.maximum(y0, y1)
    over = (top >= target_units) & (y0 != y1)
    beyond = ~over & (top >= size)  # a tie at the top past the grid: shared
    inside = ~over & ~beyond
    static = np.where(over, (y0 > y1).astype(float), 0.5)
    i0, i1 = y0[inside], y1[inside]
    shape = [fft.next_fast_len(static.shape[k] + kern.shape[k] - 1, real=True) for k in range(2)]
    kf = fft.rfft2(kern[::-1, ::-1], shape)
    cut = (slice(kern.shape[0] - 1, kern.shape[0] - 1 + size), slice(kern.shape[1] - 1, kern.shape[1] - 1 + size))
    mask = free.reshape(size, size)
    cur = np.full((size, size), 0.5) if w is None else np.nan_to_num(w[0].reshape(size, size), nan=0.5)
    v = static.copy()
    change = 1.0
    done = 0
    while done < MAX_SWEEPS:
        v[inside] = 1.0 - cur[i1, i0]
        nxt = fft.irfft2(fft.rfft2(v, shape) * kf, shape)[cut]
        change = float(np.abs(nxt - cur)[mask].max())
        cur = np.where(mask, nxt, cur)
        done += 1
        if change <= TOL:
            break
    if change > TOL:
        raise ValueError(f"samples: the equity table did not converge in {MAX_SWEEPS} sweeps (change {change:.2g}): "
                         "too few deals measured for the game to end; measure more")
    out = np.stack([cur.ravel(), 1.0 - cur.ravel()])
    out[:, ~free] = np.nan
    return out, done, change


def shipped(package: str, name: str) -> EquityTable | None:
    """The table shipped in ``package`` as the file ``name`` (None: not there)."""
    from importlib import resources

    try:
        with resources.as_file(resources.files(package).joinpath(name)) as p:
            return EquityTable.load(p) if p.exists() else None
    except (FileNotFoundError, OSError):
        return None


def check_size(size: int, n: int) -> None:
    """Refuse a table of more than :data:`MAX_STATES` states, ``size`` scores a seat."""
    if size ** n > MAX_STATES:
        raise ValueError(f"target: an equity table to this target would hold {size ** n:,} states, more than "
                         f"{MAX_STATES:,}: use a lower target")


@dataclass(frozen=True)
class Measured:
    """What a table's deal outcomes were measured under: the ``game``, the run's ``seed``, the
    ``policies`` at every seat and the ``rules`` (as ``to_dict`` gives them); the table keeps them."""

    game: str
    seed: int | None = None
    policies: str = ""
    rules: dict | None = None


def build(measured: Measured, offsets, counts, *, lo: int, step: int, target: int, hi: int | None = None, rng=None,
          bootstrap: int = BOOTSTRAP, threads: int | None = None) -> EquityTable:
    """Solve the table from deal outcomes ``measured`` so: ``offsets[k]`` points a frame seat,
    seen ``counts[k]`` times (multiples of ``step``). The grid runs from ``lo`` to ``hi`` (default:
    the target plus the largest gain a deal, twice), ``rng`` seeds the ``bootstrap`` resamples
    (solved on ``threads`` threads: the same figures on any number)."""
    offsets = np.asarray(offsets, dtype=np.int64)
    counts = np.asarray(counts, dtype=np.int64)
    keep = counts > 0
    offsets, counts = offsets[keep], counts[keep]
    n = offsets.shape[1]
    units = offsets // step
    target_units = -((lo - target) // step)  # ceil: the first grid score at or past the target
    if hi is None:
        hi = target + 2 * max(int(offsets.max()), step)
    size = (hi - lo) // step + 1
    check_size(size, n)
    shifted = units + 0  # the solver's grid starts at 0
    ss, _ = as_seed_sequence(rng)
    total = counts.sum()
    w, sweeps, change = _solve(shifted, counts / total, n, size, target_units)
    se = np.zeros_like(w)
    if bootstrap > 0:
        from concurrent.futures import ThreadPoolExecutor

        from .engine import default_threads

        gen = np.random.default_rng(child(ss, 0))
        draws = [gen.multinomial(int(total), counts / total) for _ in range(bootstrap)]
        start = w

        def one(c):
            k = c > 0
            return _solve(shifted[k], c[k] / total, n, size, target_units, start.copy())[0]

        total_w = np.zeros_like(w)
        total_sq = np.zeros_like(w)
        with ThreadPoolExecutor(max_workers=threads or default_threads()) as pool:
            for wb in pool.map(one, draws):  # in order: the same sums on any number of threads
                total_w += wb
                total_sq += wb * wb
        mean = total_w / bootstrap
        se = np.sqrt(np.maximum(total_sq - bootstrap * mean * mean, 0.0) / max(bootstrap - 1, 1))
    m = measured
    return EquityTable(m.game, n, lo, step, size, lo + target_units * step, w, se, offsets, counts, m.seed, m.policies,
                       m.rules, bootstrap, sweeps, change)


# ---- the cache ---------------------------------------------------------------------------------
_SAID: set[str] = set()


def cache_dir() -> Path:
    """Where tables built on demand are kept: ``$CARDODDS_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/cardodds``, else ``~/.cache/cardodds`` (a folder ``equity`` in it)."""
    base = os.environ.get("CARDODDS_CACHE_DIR")
    if not base:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = os.path.join(xdg, "cardodds") if xdg else os.path.join(os.path.expanduser("~"), ".cache", "cardodds")
    return Path(base) / "equity"


def cached(key: dict, make) -> EquityTable:
    """The table of ``key`` from the cache, else ``make()`` saved there; a folder that cannot be
    written computes without caching, said once on stderr."""
    digest = hashlib.sha256(json.dumps({**key, "format": FORMAT}, sort_keys=True).encode()).hexdigest()[:24]
    folder = cache_dir()
    path = folder / f"{key.get('game', 'table')}-{digest}.npz"
    if path.exists():
        try:
            return EquityTable.load(path, source="cached")
        except (OSError, ValueError, KeyError):
            pass
    table = make()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        table.save(path)
    except OSError as e:
        if str(folder) not in _SAID:
            _SAID.add(str(folder))
            print(f"cardodds: equity tables are not cached ({folder} cannot be written: {e.strerror})",
                  file=sys.stderr)
    return table


def built(key: dict, samples: int, seed, build) -> EquityTable:
    """``build(samples, seed)``, cached under ``key`` with the samples and the seed (a Generator
    or SeedSequence for a seed: no key to cache it by, built every time)."""
    if not isinstance(seed, (int, np.integer)):
        return build(samples, seed)
    return cached({**key, "samples": samples, "seed": int(seed)}, lambda: build(samples, int(seed)))


# ---- the answer ----------------------------------------------------------------------------------
@dataclass(frozen=True, repr=False, kw_only=True)
class EquityResult(Result):
    """P(each seat or side wins the game) from ``score`` before a deal (hand) that ``dealer``
    deals, by the game's equity table: ``win[s]`` with its 95% interval (the bootstrap's
    standard error over the measured deal outcomes). ``policies`` is the lineup the table
    assumes at every seat, ``leader`` the seat (side) that leads (moves first) in this deal;
    ``table`` the solved table (``plot`` draws it)."""

    game: str
    score: tuple
    dealer: int
    label: str
    win: tuple
    policies: str
    unit: str
    leader: int
    table: EquityTable = field(repr=False, compare=False)

    def to_dict(self) -> dict:
        d = self.meta()
        t = self.table
        d.update({"game": self.game, "question": "equity", "score": list(self.score), "dealer": self.dealer,
                  "by": self.label, "win": [e.to_dict() for e in self.win], "policies": self.policies,
                  "table": {"source": t.source, "deals": t.samples, "unit": self.unit, "seed": t.seed,
                            "step": t.step, "lowest": t.lo, "bootstrap": t.bootstrap}})
        return d

    @property
    def made(self) -> str:
        """How the table was made, in words: where it came from, the deals (hands) measured, the
        seed, the score grid when coarser than a point, and the intervals' bootstrap."""
        t = self.table
        grid = f", scores on a {t.step}-point grid" if t.step > 1 else ""
        return (f"{t.source} table, {t.samples:,} {self.unit}s, seed {t.seed}{grid}; intervals: a bootstrap of the "
                f"measured {self.unit}s ({t.bootstrap} resamples)")

    def to_frame(self):
        import pandas as pd

        rows = [{self.label: s, "score": self.score[s], "win": e.value, "lo": e.lo, "hi": e.hi, "se": e.se}
                for s, e in enumerate(self.win)]
        return pd.DataFrame(rows).set_index(self.label)

    def __repr__(self) -> str:
        wins = ", ".join(f"{self.label} {s} ({self.score[s]}) {e.format(3)}" for s, e in enumerate(self.win))
        return (f"EquityResult({self.game} to {self.table.target}, {self.label} {self.dealer} deals: P(win the game) "
                f"{wins}; {self.policies} at every seat, table of {self.table.samples:,} {self.unit}s)")

    def heat(self, seat: int = 0, axes: tuple[int, int] = (0, 1)):
        """P(``seat`` wins) over the grid's scores of ``axes`` (the other scores as in ``score``),
        the dealer as given: ``(scores, matrix)`` with ``matrix[a, b]`` at scores ``(a, b)``."""
        t = self.table
        g = t.grid()
        g = g[(g < t.target)]
        m = np.full((len(g), len(g)), np.nan)
        for a, va in enumerate(g):
            for b, vb in enumerate(g):
                x = list(self.score)
                x[axes[0]], x[axes[1]] = int(va), int(vb)
                if t.open_state(x):
                    m[a, b] = self._frame_value(x)[seat]
        return g, m

    def _frame_value(self, x) -> np.ndarray:
        n = len(x)
        v, _ = self.table.at([x[(self.leader + j) % n] for j in range(n)])
        return np.array([v[(s - self.leader) % n] for s in range(n)])

    def plot(self, ax=None, seat: int = 0):
        """A heat map of P(``seat`` wins) over the first two seats' (sides') scores, the score asked marked."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 4.5), layout="constrained")
        g, m = self.heat(seat)
        im = ax.imshow(m.T, origin="lower", extent=(g[0], g[-1], g[0], g[-1]), vmin=0, vmax=1, cmap="viridis",
                       aspect="auto")
        ax.plot([self.score[0]], [self.score[1]], "o", color="white", markeredgecolor="black")
        ax.set_xlabel(f"{self.label} 0's score")
        ax.set_ylabel(f"{self.label} 1's score")
        others = "" if len(self.score) < 3 else f", {self.label} 2 at {self.score[2]}"
        ax.set_title(f"P({self.label} {seat} wins), {self.label} {self.dealer} deals{others}", fontsize=10)
        plt.colorbar(im, ax=ax, label="P(win the game)")
        return ax


def estimates(values, ses, samples: int) -> tuple:
    """Each equity as an :class:`Estimate` (normal 95% interval, clipped to 0..1)."""
    return tuple(Estimate(float(v), float(s), max(0.0, float(v) - Z95 * float(s)), min(1.0, float(v) + Z95 * float(s)),
                          int(samples)) for v, s in zip(values, ses))


def lookup(table: EquityTable, score, *, dealer: int, leader: int, label: str, unit: str, rules) -> EquityResult:
    """The answer at ``score`` (seat order) when ``leader`` leads: the table read in its frame."""
    n = len(score)
    v, s = table.at([score[(leader + j) % n] for j in range(n)])
    seat_v = [v[(k - leader) % n] for k in range(n)]
    seat_s = [s[(k - leader) % n] for k in range(n)]
    return EquityResult(game=table.game, score=tuple(int(x) for x in score), dealer=int(dealer), label=label,
                        win=estimates(seat_v, seat_s, table.samples), policies=table.policies, unit=unit,
                        leader=int(leader), table=table, rules=rules, samples=table.samples, seed=table.seed)


def reachable(total: int, totals) -> bool:
    """Whether a score sum of ``total`` is a sum of deal totals ``totals`` (each positive)."""
    if total < 0 or min(totals) <= 0:
        return total >= 0 or min(totals) <= 0
    can = np.zeros(total + 1, dtype=bool)
    can[0] = True
    for v in range(1, total + 1):
        can[v] = any(v >= d and can[v - d] for d in totals)
    return bool(can[total])
