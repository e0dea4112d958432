"""Random numbers inside kernels: xoshiro256** with Lemire's bounded integers.

The state is a uint64[4] array owned by one chunk. Kernels draw 64-bit words and cut them
into several small draws (two 32-bit picks, or three 21-bit ones for a three-card hand, each
exactly uniform by Lemire's rejection), which is what makes dealing cheap; numba's own
``np.random`` is several times slower and is shared state.
"""

import numpy as np
from ._jit import helper, inline, loop

_M32 = np.uint64(0xFFFFFFFF)
_S32 = np.uint64(32)


@helper
def _rotl(x, k):
    return (x << np.uint64(k)) | (x >> np.uint64(64 - k))


@loop
def next_u64(s):
    """Next 64-bit word of xoshiro256** (Blackman and Vigna); advances ``s`` in place."""
    s0 = s[0]
    s1 = s[1]
    s2 = s[2]
    s3 = s[3]
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    s[0] = s0
    s[1] = s1
    s[2] = s2
    s[3] = s3
    return result


@inline
def bounded(s, bound):
    """Uniform integer in ``0 .. bound-1`` (bound < 2**32), Lemire's multiply-and-reject."""
    b = np.uint64(bound)
    m = (next_u64(s) >> _S32) * b
    low = m & _M32
    if low < b:
        threshold = (np.uint64(0x100000000) - b) % b
        while low < threshold:
            m = (next_u64(s) >> _S32) * b
            low = m & _M32
    return np.int64(m >> _S32)


@inline
def deal_from(s, deck, i, m, word, have):
    """Deal ``deck[i]`` after swapping a uniform pick of ``deck[i:m]`` into place.

    One step of a partial Fisher-Yates shuffle: the cards dealt so far are ``deck[:i]`` and
    the stock is ``deck[i:m]``, in any order, so the array needs no reset between deals.
    Two picks come from each 64-bit word (``word``/``have`` carry the spare half); Lemire's
    rejection keeps them exactly uniform. Returns ``(card, word, have)``.
    """
    if have == 0:
        word = next_u64(s)
        have = 2
    r = word & _M32
    word = word >> _S32
    have -= 1
    b = np.uint64(m - i)
    prod = r * b
    low = prod & _M32
    if low < b:
        threshold = (np.uint64(0x100000000) - b) % b
        while low < threshold:
            prod = (next_u64(s) & _M32) * b
            low = prod & _M32
    j = i + np.int64(prod >> _S32)
    c = deck[j]
    deck[j] = deck[i]
    deck[i] = c
    return c, word, have


_M21 = np.uint64((1 << 21) - 1)
_S21 = np.uint64(21)
_P21 = np.uint64(1 << 21)


@helper
def _pick21(s, r, b):
    # Lemire's method on 21 random bits: 0 .. b-1 exactly uniform (b < 2**21).
    prod = r * b
    low = prod & _M21
    if low < b:
        threshold = (_P21 - b) % b
        while low < threshold:
            prod = (next_u64(s) & _M21) * b
            low = prod & _M21
    return np.int64(prod >> _S21)


@inline
def deal3_from(s, deck, i, m):
    """Deal ``deck[i], deck[i+1], deck[i+2]`` as :func:`deal_from` does, from one 64-bit word.

    A three-card hand is the commonest deal in these games; cutting one word into three
    21-bit picks saves a generator call per hand.
    """
    w = next_u64(s)
    j = i + _pick21(s, w & _M21, np.uint64(m - i))
    c0 = deck[j]
    deck[j] = deck[i]
    deck[i] = c0
    j = i + 1 + _pick21(s, (w >> _S21) & _M21, np.uint64(m - i - 1))
    c1 = deck[j]
    deck[j] = deck[i + 1]
    deck[i + 1] = c1
    j = i + 2 + _pick21(s, (w >> np.uint64(42)) & _M21, np.uint64(m - i - 2))
    c2 = deck[j]
    deck[j] = deck[i + 2]
    deck[i + 2] = c2
    return c0, c1, c2


@inline
def shuffle_prefix(s, deck, m, size):
    """Partial Fisher-Yates: ``deck[0:m]`` becomes a uniform ordered draw from ``deck[0:size]``.

    The one dealing routine of every game: any deck size, two exact bounded picks from each
    64-bit word (Lemire's rejection keeps them uniform). ``deck`` stays a permutation of its
    cards, so the next deal shuffles it again as it is, with no reset. ``m = size - 1``
    shuffles the whole deck.
    """
    word = np.uint64(0)
    have = 0
    for i in range(m):
        c, word, have = deal_from(s, deck, i, size, word, have)
