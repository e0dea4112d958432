"""The one protocol every cardodds result follows.

A result is a frozen dataclass deriving from :class:`Result`. The base holds what every
result records (the rules, sample count, seed, whether the run was interrupted, the library
version) as keyword-only fields, so a subclass lists its own fields first. Raw counts are
kept with :func:`counts_field`: they stay on the object, so figures can be derived from them,
but take no part in ``==`` or the ``repr``.

Every result has ``to_dict()`` (JSON-ready; :meth:`Result.meta` gives the shared keys),
``to_frame()`` (pandas), a readable ``repr``, ``_repr_html_`` for Jupyter and, where a
picture says more than a table, ``plot()``. Class names end in ``Result``. A question several
games ask has one result class here: :class:`StrengthResult` (``strength`` in Kanalje and
Canasta).

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True, repr=False)
... class CoinResult(Result):
...     heads: int
...     counts: np.ndarray = counts_field()
...     def to_frame(self):
...         import pandas as pd
...         return pd.DataFrame({"heads": [self.heads]})
...     def __repr__(self):
...         return f"CoinResult({self.heads} heads in {self.samples})"
>>> a = CoinResult(3, np.array([3, 2]), rules=None, samples=5, seed=1)
>>> b = CoinResult(3, np.array([9, 9]), rules=None, samples=5, seed=1)
>>> a == b            # counts are not compared
True
>>> a.meta()["samples"], a.partial
(5, False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np  # noqa: F401  (the doctest's arrays)

from . import __version__
from ._html import result_html
from .stats import Estimate

__all__ = ["Result", "StrengthResult", "counts_field"]


def counts_field(**kwargs: Any) -> Any:
    """A dataclass field for raw count arrays: kept, but out of ``==``, ``hash`` and ``repr``."""
    return field(repr=False, compare=False, hash=False, **kwargs)


def _rules_dict(rules: Any) -> Any:
    if rules is None:
        return None
    to_dict = getattr(rules, "to_dict", None)
    return to_dict() if callable(to_dict) else rules


@dataclass(frozen=True, repr=False, kw_only=True)
class Result:
    """Base of every result: the rules it was computed under and how it was computed.

    ``samples`` is the number of simulated deals (rounds, hands, games: the unit the
    function names), 0 for an exact result; ``seed`` is what to pass as ``rng=`` to repeat
    the run; ``partial`` is True when the run was interrupted (Ctrl-C) before its target.
    """

    rules: Any
    samples: int = 0
    seed: Any = None
    partial: bool = False
    version: str = __version__

    def meta(self) -> dict[str, Any]:
        """The keys every JSON object carries: ``rules``, ``samples``, ``seed``, ``partial``, ``version``."""
        return {
            "rules": _rules_dict(self.rules),
            "samples": int(self.samples),
            "seed": self.seed,
            "partial": bool(self.partial),
            "version": self.version,
        }

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; subclasses add their figures to :meth:`meta`."""
        return self.meta()

    def to_frame(self):  # pragma: no cover - every subclass defines its own
        raise NotImplementedError

    def _repr_html_(self) -> str:
        """Jupyter: the ``repr`` and the frame, in the report page's table style."""
        return result_html("", self.to_frame(), pre=repr(self))


@dataclass(frozen=True, repr=False, kw_only=True)
class StrengthResult(Result):
    """Policy ``a`` against policy ``b`` on the same deals, seats (sides) swapped: every game's
    answer to ``strength(a, b)``.

    ``pairs`` paired units (``unit``: Kanalje's ``"deal"``, Canasta's ``"hand"``); ``points``
    is A's edge in points a unit, B's score in the same seat (side) subtracted; ``better`` is
    P(A did better than B over the pair). ``violations`` counts broken rules by kind in a
    checked run (all 0 unless something is broken). A game's own figures are optional fields,
    None elsewhere: Kanalje's ``mean_a`` and ``mean_b`` (A's and B's mean score a deal in the
    same seat) and ``lookahead_samples``.
    """

    game: str
    a: str
    b: str
    pairs: int
    unit: str
    points: Estimate
    better: Estimate
    violations: dict
    mean_a: float | None = None
    mean_b: float | None = None
    lookahead_samples: int | None = None
    counts: np.ndarray | None = counts_field(default=None)

    def to_dict(self) -> dict[str, Any]:
        d = self.meta()
        d.update({"game": self.game, "question": "strength", "a": self.a, "b": self.b, "pairs": int(self.pairs),
                  "unit": self.unit, "points": self.points.to_dict(), "better": self.better.to_dict(),
                  "violations": dict(self.violations)})
        d.update({k: getattr(self, k) for k in ("mean_a", "mean_b", "lookahead_samples")
                  if getattr(self, k) is not None})
        return d

    def to_frame(self):
        """One row: ``a``, ``b``, ``unit``, ``pairs``, ``points`` with ``lo``/``hi``, ``better``."""
        import pandas as pd

        return pd.DataFrame([{"a": self.a, "b": self.b, "unit": self.unit, "pairs": self.pairs,
                              "points": self.points.value, "lo": self.points.lo, "hi": self.points.hi,
                              "better": self.better.value}])

    def __repr__(self) -> str:
        verdict = " (no difference at this precision)" if self.points.contains_zero() else ""
        means = ("" if self.mean_a is None else
                 f"; {self.a} scores {self.mean_a:.3f}, {self.b} {self.mean_b:.3f} in the same seat")
        return (f"{self.game.capitalize()} strength {self.a} vs {self.b}: {self.points.format()} points a "
                f"{self.unit}{verdict}; {self.a} better in {self.better.format(percent=True)} of {self.pairs:,} "
                f"paired {self.unit}s{means} (seed {self.seed})")
