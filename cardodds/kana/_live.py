"""Exact live odds by enumeration. Private: integer arrays in, floats out, no validation.

Under the official rules the unknown kept cards of all seats are a uniformly random
assignment of the unseen cards, and the extra rounds are exchangeable among the players
in them, so a seat tied for the best hand with ``k - 1`` others wins with probability
``1/k``. Enumerating the seats' unknown kept cards by *rank* (weighted by how many suit
choices give those ranks) is therefore exact and needs no extra round to be played.
"""

import numpy as np
from .._jit import helper

from ._kernels import SUPERKANA


@helper
def _key_of_ranks(ra, rb):
    if ra == 0 and rb == 0:
        return SUPERKANA
    return ra + rb + 4


@helper
def _leaf(n, ra, rb, weight, extra_all, win, tie):
    top = -1
    for p in range(n):
        kk = _key_of_ranks(ra[p], rb[p])
        if kk > top:
            top = kk
    k = 0
    for p in range(n):
        if _key_of_ranks(ra[p], rb[p]) == top:
            k += 1
    if k > 1:
        tie[0] += weight
        if extra_all:
            for p in range(n):
                win[p] += weight / n
            return
    for p in range(n):
        if _key_of_ranks(ra[p], rb[p]) == top:
            win[p] += weight / k


@helper
def _enumerate(order, need, n, cnt, ra, rb, extra_all, win, tie, total):
    """Depth-first over the seats in ``order`` that still need unknown kept cards.

    A seat needing two cards takes an unordered rank pair (r1 <= r2), one needing a single
    card a rank; the weight is the number of suit choices that give those ranks.
    """
    m = order.shape[0]
    opt = np.full(m + 1, -1, np.int64)
    wt = np.ones(m + 1)
    d = 0
    while d >= 0:
        if d == m:
            total[0] += wt[m]
            _leaf(n, ra, rb, wt[m], extra_all, win, tie)
            d -= 1
            continue
        p = order[d]
        two = need[p] == 2
        nopt = 169 if two else 13
        # Put back the cards of the option tried last at this depth.
        if opt[d] >= 0:
            if two:
                cnt[opt[d] // 13] += 1
                cnt[opt[d] % 13] += 1
            else:
                cnt[opt[d]] += 1
        o = opt[d] + 1
        w = 0.0
        while o < nopt:
            if two:
                r1 = o // 13
                r2 = o % 13
                if r2 >= r1:
                    c1 = cnt[r1]
                    if r1 == r2:
                        w = c1 * (c1 - 1) / 2.0
                    else:
                        w = float(c1 * cnt[r2])
                    if w > 0.0:
                        break
            else:
                w = float(cnt[o])
                if w > 0.0:
                    break
            o += 1
        if o == nopt:
            opt[d] = -1
            d -= 1
            continue
        opt[d] = o
        if two:
            ra[p] = o // 13
            rb[p] = o % 13
            cnt[ra[p]] -= 1
            cnt[rb[p]] -= 1
        else:
            rb[p] = o
            cnt[o] -= 1
        wt[d + 1] = wt[d] * w
        d += 1
        if d < m:
            opt[d] = -1


@helper
def enumerate_live(n, known_a, known_b, cnt, extra_all):
    """Win probability per seat and P(extra round), given shown kept cards.

    ``known_a``/``known_b`` hold the rank of each seat's shown kept cards or -1; ``cnt`` the
    unseen cards per rank. Returns ``(win[n], p_extra, total_weight)``.
    """
    need = np.zeros(n, np.int64)
    ra = np.zeros(n, np.int64)
    rb = np.zeros(n, np.int64)
    m = 0
    for p in range(n):
        if known_a[p] >= 0 and known_b[p] >= 0:
            ra[p] = known_a[p]
            rb[p] = known_b[p]
        elif known_a[p] >= 0:
            ra[p] = known_a[p]
            need[p] = 1
            m += 1
        else:
            need[p] = 2
            m += 1
    order = np.empty(m, np.int64)
    j = 0
    for p in range(n):
        if need[p] > 0:
            order[j] = p
            j += 1
    win = np.zeros(n)
    tie = np.zeros(1)
    total = np.zeros(1)
    _enumerate(order, need, n, cnt.copy(), ra, rb, extra_all, win, tie, total)
    for p in range(n):
        win[p] /= total[0]
    return win, tie[0] / total[0], total[0]
