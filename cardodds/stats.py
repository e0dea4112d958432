"""Estimates with their uncertainty.

Every figure cardodds prints is an :class:`Estimate`: a value, its standard error, a 95%
interval and the sample count it rests on. Proportions get the Wilson score interval
(good coverage near 0 and 1, where card odds often sit); means and paired differences get
the normal interval; exact values have zero error and ``lo == hi == value``.

>>> e = Estimate.proportion(250, 1000)
>>> round(e.value, 3), round(e.lo, 3), round(e.hi, 3)
(0.25, 0.224, 0.278)
>>> Estimate.exact_value(0.5)
Estimate(0.5 exact)
>>> d = paired_difference(plus=55, minus=45, n=1000)
>>> d.contains_zero()
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

__all__ = ["Estimate", "Z95", "merge_counts", "paired_difference"]

#: Two-sided 95% normal quantile, scipy.stats.norm.ppf(0.975) to the last bit (a constant, so
#: importing cardodds does not load scipy; a test checks it against scipy).
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    """A figure with its standard error and 95% interval.

    ``n`` is the number of samples behind it (0 for an exact value); ``exact`` marks values
    computed by enumeration. ``fraction`` keeps an exact rational value when one is known.
    """

    value: float
    se: float
    lo: float
    hi: float
    n: int = 0
    exact: bool = False
    fraction: Fraction | None = None

    # ---- constructors -------------------------------------------------------------
    @classmethod
    def exact_value(cls, value: float | Fraction) -> Estimate:
        frac = value if isinstance(value, Fraction) else None
        v = float(value)
        return cls(v, 0.0, v, v, 0, True, frac)

    @classmethod
    def proportion(cls, k: int, n: int) -> Estimate:
        """``k`` successes in ``n`` trials; Wilson 95% interval."""
        k = int(k)
        n = int(n)
        if n <= 0:
            return cls(math.nan, math.nan, 0.0, 1.0, 0)
        p = k / n
        lo, hi = _wilson(k, n)
        return cls(p, math.sqrt(p * (1.0 - p) / n), lo, hi, n)

    @classmethod
    def mean(cls, total: float, total_sq: float, n: int) -> Estimate:
        """Mean of ``n`` samples from their sum and sum of squares; normal 95% interval."""
        n = int(n)
        if n <= 0:
            return cls(math.nan, math.nan, math.nan, math.nan, 0)
        m = total / n
        if n == 1:
            # One sample says nothing about the spread: the interval is unbounded, so one
            # lucky deal can never read as an edge.
            return cls(m, math.inf, -math.inf, math.inf, n)
        var = max(total_sq / n - m * m, 0.0) * (n / (n - 1))
        se = math.sqrt(var / n)
        return cls(m, se, m - Z95 * se, m + Z95 * se, n)

    def scaled(self, factor: float, offset: float = 0.0) -> Estimate:
        """``factor * self + offset`` (a change of units, e.g. a win rate into antes won)."""
        lo, hi = sorted((factor * self.lo + offset, factor * self.hi + offset))
        rational = (int, Fraction)
        frac = None
        if self.fraction is not None and isinstance(factor, rational) and isinstance(offset, rational):
            frac = self.fraction * factor + offset
        return Estimate(factor * self.value + offset, abs(factor) * self.se, lo, hi, self.n, self.exact, frac)

    # ---- questions ---------------------------------------------------------------
    @property
    def halfwidth(self) -> float:
        return (self.hi - self.lo) / 2.0

    def contains(self, x: float) -> bool:
        return self.lo <= x <= self.hi

    def contains_zero(self) -> bool:
        return self.contains(0.0)

    def to_dict(self) -> dict:
        """``{"value", "se", "lo", "hi"}`` as JSON numbers (exact: se 0, lo = hi = value)."""
        return {"value": _num(self.value), "se": _num(self.se), "lo": _num(self.lo), "hi": _num(self.hi)}

    def format(self, digits: int = 4, percent: bool = False, sign: bool = False) -> str:
        """``value [lo, hi]`` (or ``value (exact)``) to ``digits`` places; ``sign=True`` prints
        ``+`` on positive numbers (differences, gains). A zero prints as ``0``, never ``-0``."""
        f = 100.0 if percent else 1.0
        unit = "%" if percent else ""
        d = max(digits - 2, 1) if percent else digits
        spec = f"+.{d}f" if sign else f".{d}f"

        def num(x: float) -> str:
            return format(x * f + 0.0, spec)  # + 0.0 turns -0.0 into 0.0

        if self.exact:
            return f"{num(self.value)}{unit} (exact)"
        return f"{num(self.value)}{unit} [{num(self.lo)}, {num(self.hi)}]"

    def __repr__(self) -> str:
        if self.exact:
            return f"Estimate({self.value:.6g} exact)"
        return f"Estimate({self.value:.6g} ± {Z95 * self.se:.2g}, 95% CI [{self.lo:.6g}, {self.hi:.6g}], n={self.n})"

    def __str__(self) -> str:
        return self.format()


def _num(x: float):
    # JSON has no NaN or infinity: an undefined or unbounded figure is null.
    return None if (x is None or not math.isfinite(x)) else float(x)


def _wilson(k: int, n: int) -> tuple[float, float]:
    # The Wilson score interval as scipy's binomtest computes it (Newcombe 1998), term for
    # term, so figures match it to the bit; its endpoints at k = 0 and k = n are exactly 0 and 1.
    p = k / n
    q = 1 - p
    z = Z95
    denom = 2 * (n + z**2)
    center = (2 * n * p + z**2) / denom
    delta = z / denom * math.sqrt(4 * n * p * q + z**2)
    lo = 0.0 if k == 0 else center - delta
    hi = 1.0 if k == n else center + delta
    return lo, hi


def paired_difference(plus: int, minus: int, n: int) -> Estimate:
    """Difference of two win rates measured on the same ``n`` deals.

    ``plus`` counts deals won by the first choice and lost by the second, ``minus`` the
    reverse; deals both won or both lost cancel, which is what makes a small edge
    measurable. Normal 95% interval on the mean of the per-deal difference (-1, 0, +1).
    """
    plus = int(plus)
    minus = int(minus)
    return Estimate.mean(plus - minus, plus + minus, n)


def merge_counts(parts) -> np.ndarray:
    """Sum of per-chunk count arrays (the only way chunk results combine)."""
    total = None
    for p in parts:
        total = np.array(p, dtype=np.int64, copy=True) if total is None else total + p
    if total is None:
        raise ValueError("no counts to merge")
    return total
