"""Cards as bits: a hand is a 52-bit mask of card codes (``rank * 4 + suit``).

"Cards of the led suit" is one AND and the lowest card of a mask one count-trailing-zeros,
which is what makes a card play cost a few nanoseconds. Public through
:mod:`cardodds.kanalje.view` for user policies.
"""

from __future__ import annotations

import numpy as np
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from .._jit import helper, inline, kernel

JACK_RANK = 9
FULL = (1 << 52) - 1
JACKS = sum(1 << (JACK_RANK * 4 + s) for s in range(4))
#: ``SUIT_MASK[s]``: the 13 cards of suit ``s`` (clubs, diamonds, hearts, spades).
SUIT_MASK = np.array([sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)], dtype=np.int64)


@intrinsic
def _ctpop(typingctx, x):
    if not isinstance(x, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return x(x), codegen


@helper
def popcount(x):
    """Number of cards in a mask."""
    return np.int64(_ctpop(np.int64(x)))


@helper
def lowest(x):
    """Lowest card code in a non-empty mask (the lowest rank, ties to clubs)."""
    return np.int64(trailing_zeros(np.int64(x)))


@helper
def highest(x):
    """Highest card code in a non-empty mask."""
    return np.int64(63 - leading_zeros(np.int64(x)))


@kernel
def bit(c):
    """The mask of card ``c`` alone."""
    return np.int64(1) << c


@helper
def above(c):
    """Cards of ``c``'s suit that outrank it."""
    return SUIT_MASK[c & 3] & ~((np.int64(2) << c) - 1)


@helper
def below(c):
    """Cards of ``c``'s suit that it outranks."""
    return SUIT_MASK[c & 3] & ((np.int64(1) << c) - 1)


def _host_has_bmi2() -> bool:
    try:
        import llvmlite.binding as ll

        return bool(ll.get_host_cpu_features().get("bmi2", False))
    except Exception:  # pragma: no cover - feature query unavailable: take the portable path
        return False


#: BMI2's pdep deposits a bit at the r-th set bit of a mask in one instruction; without
#: it the r-th card is found by clearing the lowest bit r times.
HAS_BMI2 = _host_has_bmi2()


@intrinsic
def _pdep(typingctx, src, mask):
    if not (isinstance(src, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        from llvmlite import ir

        i64 = ir.IntType(64)
        fn = builder.module.declare_intrinsic("llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(i64, [i64, i64]))
        return builder.call(fn, [args[0], args[1]])

    return types.int64(types.int64, types.int64), codegen


if HAS_BMI2:

    @inline
    def nth_card(mask, r):
        """The ``r``-th lowest card (from 0) of a mask."""
        return lowest(_pdep(np.int64(1) << r, mask))

else:  # pragma: no cover - CPUs without BMI2

    @inline
    def nth_card(mask, r):
        """The ``r``-th lowest card (from 0) of a mask."""
        for _ in range(r):
            mask &= mask - 1
        return lowest(mask)
