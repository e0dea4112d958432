"""Your own player: one mechanism for every game.

A user's decision function (a Känä custom strategy, a Kanalje or Canasta policy) is an
``@njit`` function of the game's fixed signature, documented with the fields it may read in
the game's public view module (:mod:`cardodds.kana.view`, :mod:`cardodds.kanalje.view`,
:mod:`cardodds.canasta.view`). :func:`compile_user` compiles it once more, to a numba
``cfunc`` of that signature (:func:`cardodds._jit.callback`), and the kernels receive it as an
argument and call it through a pointer. Every such function has the same numba type, so the
kernels are compiled, and cached on disk, once for the signature, whatever the function: a new
user function costs one small compilation, not a recompilation of the game's kernels. Runs
without a user function pass the game's stand-in, a cached ``cfunc`` of the same signature.

>>> from numba import njit, types
>>> sig = types.int64(types.int64, types.int64)
>>> @njit
... def larger(a, b):
...     return max(a, b)
>>> f = compile_user(larger, sig, "the policy", "policy(a, b) -> int")
>>> f(2, 5), compile_user(larger, sig, "the policy", "policy(a, b) -> int") is f
(5, True)
"""

from __future__ import annotations

from ._jit import callback

__all__ = ["compile_user", "is_njit"]

_compiled: dict = {}


def is_njit(obj) -> bool:
    """Whether ``obj`` is a numba ``@njit`` function (a dispatcher)."""
    return hasattr(obj, "py_func") and hasattr(obj, "compile")


def compile_user(fn, signature, what: str, call: str, stand_in=None):
    """``fn`` (a user's ``@njit`` function) compiled to a ``cfunc`` of ``signature``; the
    ``stand_in`` when ``fn`` is None.

    ``what`` names the function in errors (e.g. ``"the Känä custom strategy"``) and ``call``
    spells the signature the user must write (e.g. ``"policy(state, legal, seat, view) -> card"``).
    A function that is not ``@njit``, or does not compile to the signature, is a
    :class:`ValueError` saying so. The compilation is kept for as long as the process runs,
    keyed by the function and the signature, so a function used again is not compiled again.
    """
    if fn is None:
        if stand_in is None:
            raise ValueError(f"{what}: no function given")
        return stand_in
    if not is_njit(fn):
        raise ValueError(f"{what} {fn!r} must be a numba @njit function {call}")
    key = (id(fn), str(signature))
    hit = _compiled.get(key)
    if hit is None or hit[0] is not fn:
        try:
            compiled = callback(signature, cache=False)(fn)
        except Exception as e:  # numba's typing error, shortened to what the user must fix
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ValueError(f"{what} {getattr(fn, '__name__', fn)!r} does not compile as {call} "
                             f"(arguments {signature.args}, returning {signature.return_type}): {first}") from e
        hit = _compiled[key] = (fn, compiled)
    return hit[1]
