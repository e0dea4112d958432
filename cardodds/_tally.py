"""Counting helpers the games' kernels share (compiled; kernels import them like ``_random``)."""

from ._jit import helper

__all__ = ["add_actions", "add_paired"]


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


@helper
def add_actions(out, at, values, possible, n_actions):
    """Count one position of a strategy table in the cell whose counts start at ``out[at]``
    (the layout of ``cardodds.strategy.CELL``): ``values[a]`` is the deciding seat's value of
    action ``a``, ``possible[a]`` is 1 where the position allowed it."""
    out[at] += 1
    aa = n_actions * n_actions
    for a in range(n_actions):
        if possible[a] == 0:
            continue
        for b in range(n_actions):
            if possible[b] == 0:
                continue
            k = at + 1 + a * n_actions + b
            out[k] += 1
            if a == b:
                out[k + aa] += values[a]
                out[k + 2 * aa] += values[a] * values[a]
            else:
                d = values[a] - values[b]
                out[k + aa] += d
                out[k + 2 * aa] += d * d
