"""The one protocol every cardodds result follows.

A result is a frozen dataclass deriving from :class:`Result`. The base holds what every
result records (the rules, sample count, seed, whether the run was interrupted, the library
version) as keyword-only fields, so a subclass lists its own fields first. Raw counts are
kept with :func:`counts_field`: they stay on the object, so figures can be derived from them,
but take no part in ``==`` or the ``repr``.

Every result has ``to_dict()`` (JSON-ready; :meth:`Result.meta` gives the shared keys),
``to_frame()`` (pandas), a readable ``repr``, ``_repr_html_`` for Jupyter and, where a
picture says more than a table, ``plot()``. Class names end in ``Result``.

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

__all__ = ["Result", "counts_field"]


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
