"""Checks of run arguments that every public function shares.

One check per argument, so every game answers bad input with the same message:

>>> check_threads(None), check_threads(2)
(None, 2)
>>> check_threads(-5)
Traceback (most recent call last):
...
ValueError: threads=-5 must be a positive whole number (or None for every core)
>>> check_threads("x")
Traceback (most recent call last):
...
ValueError: threads='x' must be a positive whole number (or None for every core)
"""

from __future__ import annotations

import numbers

__all__ = ["check_threads"]


def check_threads(threads) -> int | None:
    """``threads`` as given if it is None or a positive whole number, else ``ValueError``."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral) or threads < 1:
        raise ValueError(f"threads={threads!r} must be a positive whole number (or None for every core)")
    return int(threads)
