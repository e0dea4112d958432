"""Counting helpers the games' kernels share (compiled; kernels import them like ``_random``)."""

from ._jit import helper

__all__ = ["add_paired"]


@helper
def add_paired(out, n_at, sum_at, sq_at, plus_at, minus_at, d):
    """Count one paired sample whose difference is ``d``: the sample, the sum and sum of
    squares of ``d`` (for the paired mean and its error), and whether ``d`` is above or
    below zero (for the share of samples one side did better)."""
    out[n_at] += 1
    out[sum_at] += d
    out[sq_at] += d * d
    if d > 0:
        out[plus_at] += 1
    elif d < 0:
        out[minus_at] += 1
