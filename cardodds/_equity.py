"""The compiled solver of the game equity tables (:mod:`cardodds.equity`): P(each seat wins
the game) over the scores before a deal, from one deal's measured outcome distribution.

A state is the seats' scores in grid units, in the frame of the seat that leads (moves
first) this deal: frame seat 0 leads, and the next deal's leader is frame seat 1. After a deal
the game is over when the highest total has reached ``target`` and is alone at the top (a tie
at the top plays on, as the games' own ``game`` kernels decide); a score below the grid is read
at its lowest row; a tie at the top beyond the grid is shared by the tied seats.
"""

from __future__ import annotations

import numpy as np

from ._jit import kernel


@kernel
def sweep(w, order, offs, prob, n, lo, size, target, sweeps, tol):
    """Gauss-Seidel sweeps over the open states ``order`` (flat indices, the highest score
    sum first) until no equity moves by more than ``tol`` or ``sweeps`` are done; ``w[i, j]``
    is P(frame seat ``j`` wins) from state ``i`` (``size ** n`` states, lowest score ``lo``).
    ``offs[k]`` is outcome ``k``'s points per frame seat, ``prob[k]`` its probability.
    Returns the sweeps run and the last sweep's largest change."""
    hi = lo + size - 1
    x = np.empty(n, dtype=np.int64)
    y = np.empty(n, dtype=np.int64)
    acc = np.empty(n, dtype=np.float64)
    # the next deal's frame: its seat j is this frame's seat j + 1, so this seat i sits at i - 1
    stride = np.empty(n, dtype=np.int64)
    prev = np.empty(n, dtype=np.int64)
    for i in range(n):
        prev[i] = (i + n - 1) % n
        stride[i] = size ** (n - 1 - prev[i])
    done = 0
    change = 0.0
    while done < sweeps:
        change = 0.0
        for i in order:
            r = i
            for j in range(n - 1, -1, -1):
                x[j] = lo + r % size
                r //= size
            for j in range(n):
                acc[j] = 0.0
            for k in range(offs.shape[0]):
                p = prob[k]
                top = -(1 << 40)
                z = 0
                for j in range(n):
                    v = x[j] + offs[k, j]
                    if v < lo:
                        v = lo
                    y[j] = v
                    z += (v - lo) * stride[j]
                    if v > top:
                        top = v
                at_top = 0
                winner = 0
                for j in range(n):
                    if y[j] == top:
                        at_top += 1
                        winner = j
                if top >= target and at_top == 1:
                    acc[winner] += p
                elif top > hi:
                    for j in range(n):
                        if y[j] == top:
                            acc[j] += p / at_top
                else:
                    for j in range(n):
                        acc[j] += p * w[z, prev[j]]
            for j in range(n):
                d = abs(acc[j] - w[i, j])
                if d > change:
                    change = d
                w[i, j] = acc[j]
        done += 1
        if change <= tol:
            break
    return done, change
