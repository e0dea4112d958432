"""Durable sweeps: one question over a grid of rules options, players and strategies, kept
in a SQLite file chunk by chunk, so a stopped sweep resumes where it was.

Each grid point is one call of a public function (e.g. ``cardodds.kana.analysis.odds``)
with the sweep's seed: every point is played on the same random numbers, so differences
between points are paired. Every finished chunk of every run is committed on its own
(WAL journal), keyed by the grid point, the run within the point and the chunk index.
Running the same sweep again reads the stored chunks instead of computing them; the engine's
plan depends only on counts, so the figures are exactly those of a sweep run straight through.

>>> import tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "s.sqlite")
>>> s = sweep(path, "kana.odds", {"players": [3, 4]}, samples=20_000, rng=1)
>>> s.to_frame().groupby("players").size().to_dict()
{3: 3, 4: 4}
>>> sweep(path, "kana.odds", {"players": [3, 4]}, samples=20_000, rng=1).computed  # resumed: nothing left
0
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import inspect
import itertools
import json
import os
import sqlite3
from dataclasses import dataclass, field

import numpy as np

from . import __version__, engine
from .results import Result
from .rng import as_seed_sequence

__all__ = ["QUESTIONS", "SweepResult", "sweep"]

#: The questions a sweep can ask: name -> (module, function, rules module, rules class).
QUESTIONS = {
    "kana.odds": ("cardodds.kana.analysis", "odds", "cardodds.kana.rules", "KanaRules"),
    "kanalje.risk": ("cardodds.kanalje.analysis", "jack_risk", "cardodds.kanalje.rules", "KanaljeRules"),
    "kanalje.game": ("cardodds.kanalje.play", "game", "cardodds.kanalje.rules", "KanaljeRules"),
    "canasta.melds": ("cardodds.canasta.analysis", "melds", "cardodds.canasta.rules", "CanastaRules"),
}
_RUN_ARGS = {"samples", "target_halfwidth", "rng", "threads", "progress", "rules", "backend"}


def _question(name: str):
    if name not in QUESTIONS:
        raise ValueError(f"sweep question {str(name)[:40]!r} is not known; choose from {', '.join(QUESTIONS)}")
    mod, fn, rmod, rcls = QUESTIONS[name]
    return getattr(importlib.import_module(mod), fn), getattr(importlib.import_module(rmod), rcls)


def _grid(question: str, grid: dict) -> dict[str, list]:
    func, rules_cls = _question(question)
    rule_keys = {f.name for f in dataclasses.fields(rules_cls)}
    arg_keys = set(inspect.signature(func).parameters) - _RUN_ARGS
    out = {}
    for key, values in grid.items():
        key = str(key).replace("-", "_")
        if key not in rule_keys | arg_keys:
            raise ValueError(f"grid key {key[:40]!r} is not a rules option or argument of {question}; choose from "
                             f"{', '.join(sorted(rule_keys | arg_keys))}")
        vals = list(values) if isinstance(values, (list, tuple, range)) else [values]
        if not vals:
            raise ValueError(f"grid key {key!r} has no values")
        out[key] = [v.item() if isinstance(v, np.generic) else v for v in vals]
    return out


def _points(grid: dict[str, list]) -> list[dict]:
    keys = list(grid)
    return [dict(zip(keys, combo)) for combo in itertools.product(*(grid[k] for k in keys))]


def _call(question: str, point: dict, **run):
    func, rules_cls = _question(question)
    rule_keys = {f.name for f in dataclasses.fields(rules_cls)}
    rules = rules_cls(**{k: v for k, v in point.items() if k in rule_keys})
    kwargs = {k: v for k, v in point.items() if k not in rule_keys}
    return func(rules=rules, **kwargs, **run)


# ---- the file ---------------------------------------------------------------------------------


class _File:
    """A sweep's SQLite file: its spec, and chunks keyed by (point, run, chunk)."""

    def __init__(self, path: str, spec: dict) -> None:
        self.path = path
        exists = os.path.exists(path) and os.path.getsize(path) > 0
        try:
            self.db = sqlite3.connect(path, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            tables = {r[0] for r in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.OperationalError as exc:  # no such folder, no permission
            raise ValueError(f"cannot open or create the sweep file {path} ({exc}); give a file in a folder "
                             "you can write") from None
        except sqlite3.DatabaseError as exc:
            raise ValueError(f"{path} is not a cardodds sweep file ({exc}); give another file") from None
        if exists and tables and not {"meta", "chunks"} <= tables:
            raise ValueError(f"{path} is not a cardodds sweep file; give another file")
        self.db.execute("BEGIN IMMEDIATE")
        self.db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        self.db.execute("CREATE TABLE IF NOT EXISTS chunks (point INTEGER, run INTEGER, chunk INTEGER, "
                        "size INTEGER NOT NULL, counts BLOB NOT NULL, PRIMARY KEY (point, run, chunk))")
        meta = dict(self.db.execute("SELECT key, value FROM meta"))
        if not meta:
            if spec.get("seed") is None:
                spec["seed"] = as_seed_sequence(None)[1]
            self.db.execute("INSERT INTO meta VALUES ('spec', ?), ('version', ?)",
                            (json.dumps(spec, sort_keys=True), __version__))
            self.db.execute("COMMIT")
            self.spec = spec
            return
        self.db.execute("COMMIT")
        if meta.get("version") != __version__:
            raise ValueError(f"{path} was written by cardodds {meta.get('version')}, this is {__version__}: its chunks "
                             "would not add up; resume it with that version or give another file")
        stored = json.loads(meta["spec"])
        if spec.get("seed") is None:
            spec["seed"] = stored.get("seed")
        given = json.loads(json.dumps(spec, sort_keys=True))  # as stored: lists for tuples
        if stored != given:
            diff = sorted(k for k in set(stored) | set(given) if stored.get(k) != given.get(k))
            what = f"{', '.join(diff)} differ{'s' * (len(diff) == 1)}"
            raise ValueError(f"{path} holds another sweep ({what}); give another file, or the same grid, run size "
                             "and seed to resume it")
        self.spec = stored

    def close(self) -> None:
        self.db.close()


class _PointStore:
    """What the engine reads and writes for one grid point (see ``engine._STORE``)."""

    def __init__(self, file: _File, point: int) -> None:
        self.file, self.point, self.runs = file, point, 0
        self.computed = 0

    def begin_run(self, n_out: int) -> _RunStore:
        run = self.runs
        self.runs += 1
        return _RunStore(self, run, n_out)


class _RunStore:
    def __init__(self, owner: _PointStore, run: int, n_out: int) -> None:
        self.owner, self.run, self.n_out = owner, run, n_out
        rows = owner.file.db.execute("SELECT chunk, size, counts FROM chunks WHERE point=? AND run=?",
                                     (owner.point, run))
        self.stored = {c: (s, b) for c, s, b in rows}

    def get(self, index: int, size: int):
        hit = self.stored.pop(index, None)
        if hit is None:
            return None
        s, blob = hit
        counts = np.frombuffer(blob, dtype="<i8")
        if s != size or counts.size != self.n_out:
            raise ValueError(f"{self.owner.file.path}: stored chunk {index} of point {self.owner.point} does not fit "
                             "this run; the file belongs to another sweep")
        return counts.astype(np.int64)

    def put(self, index: int, size: int, counts: np.ndarray) -> None:
        # One transaction per chunk: a sweep killed at any moment keeps every chunk it finished.
        self.owner.file.db.execute("INSERT OR IGNORE INTO chunks VALUES (?, ?, ?, ?, ?)",
                                   (self.owner.point, self.run, int(index), int(size),
                                    np.ascontiguousarray(counts, dtype="<i8").tobytes()))
        self.owner.computed += 1


# ---- the API -----------------------------------------------------------------------------------


@dataclass(frozen=True, repr=False, kw_only=True)
class SweepResult(Result):
    """A sweep's results: one result object per grid point, and how many chunks this call computed."""

    question: str
    path: str
    points: tuple = field(default=())  # ((params, result), ...)
    computed: int = 0

    def to_frame(self):
        """Every point's figures (its result's ``to_frame()``) with the grid values as leading columns."""
        import pandas as pd

        frames = []
        for params, res in self.points:
            f = res.to_frame().reset_index()
            f = f.drop(columns=[c for c in ("index",) if c in f.columns and c not in params])
            for i, (k, v) in enumerate(params.items()):
                f.insert(i, k, v if not isinstance(v, (list, tuple)) else ",".join(map(str, v)))
            frames.append(f)
        return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()

    def to_dict(self) -> dict:
        d = self.meta()
        d.update(question=self.question, path=self.path,
                 points=[{"params": params, "result": res.to_dict()} for params, res in self.points])
        return d

    def __repr__(self) -> str:
        state = " [PARTIAL: interrupted]" if self.partial else ""
        return (f"SweepResult({self.question}, {len(self.points)} points, {self.samples:,} samples, seed {self.seed}, "
                f"file {self.path}){state}")


def sweep(path, question: str, grid: dict, *, samples: int | None = None, target_halfwidth: float | None = None,
          rng: int | None = None, threads: int | None = None, progress: bool = False, backend=None) -> SweepResult:
    """Ask ``question`` (one of :data:`QUESTIONS`) at every point of ``grid`` and keep the
    work in the SQLite file ``path``; calling it again with the same arguments resumes.

    ``grid`` maps rules options and arguments of the question's function to a value or a
    list of values; the points are all combinations. Every point uses the seed ``rng``
    (drawn and stored in the file when None). A file holding another sweep is refused,
    never overwritten.
    """
    engine.check_run_size(samples, target_halfwidth)
    if rng is not None and (isinstance(rng, bool) or not isinstance(rng, int) or rng < 0):
        raise ValueError(f"rng={rng!r}: a sweep's seed is a whole number >= 0 (stored in the file)")
    g = _grid(question, grid)
    points = _points(g)
    spec = {"question": question, "grid": g, "samples": samples, "target_halfwidth": target_halfwidth, "seed": rng}
    f = _File(os.fspath(path), spec)
    seed = f.spec["seed"]
    done: list[tuple] = []
    state: dict = {}
    computed, partial = 0, False
    from ._backend import backend as on_backend

    try:
        with on_backend(backend or None) if backend else contextlib.nullcontext():
            _run_points(f, question, points, samples, target_halfwidth, seed, threads, progress, done, state)
        computed, partial = state["computed"], state["partial"]
    finally:
        f.close()
    total = sum(int(getattr(r, "samples", 0)) for _, r in done)
    return SweepResult(rules=None, samples=total, seed=seed, partial=partial, question=question, path=os.fspath(path),
                       points=tuple(done), computed=computed)


def _run_points(f, question, points, samples, target_halfwidth, seed, threads, progress, done, state) -> None:
    computed, partial = 0, False
    try:
        for i, params in enumerate(points):
            store = _PointStore(f, i)
            token = engine._STORE.set(store)
            try:
                res = _call(question, params, samples=samples, target_halfwidth=target_halfwidth, rng=seed,
                            threads=threads, progress=progress)
            except KeyboardInterrupt:
                partial = True
                break
            finally:
                engine._STORE.reset(token)
                computed += store.computed
            done.append((params, res))
            if getattr(res, "partial", False):
                partial = True
                break
    finally:
        state.update(computed=computed, partial=partial)
