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
>>> origin(f)[0] is larger  # what a Dask run sends for it, to compile again on the worker
True
"""

from __future__ import annotations

from ._jit import callback

__all__ = ["compile_user", "is_njit", "lineup", "origin"]

#: (id(fn), signature) -> (fn, compiled, signature, what, call): every compilation made.
_compiled: dict = {}


def is_njit(obj) -> bool:
    """Whether ``obj`` is a numba ``@njit`` function (a dispatcher)."""
    return hasattr(obj, "py_func") and hasattr(obj, "compile")


def compile_user(fn, signature, what: str, call: str, stand_in=None):
    """``fn`` (a user's ``@njit`` function) compiled to a ``cfunc`` of ``signature``; the
    ``stand_in`` when ``fn`` is None.

    ``what`` names the function in errors (e.g. ``"the Känä custom strategy"``) and ``call``
    spells the signature the user must write (e.g. ``"policy(state, seat, view, legal) -> card"``).
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
        hit = _compiled[key] = (fn, compiled, signature, what, call)
    return hit[1]


def origin(compiled) -> tuple | None:
    """``(fn, signature, what, call)``, the arguments :func:`compile_user` made ``compiled``
    from, or None for any other object. A compiled callback cannot be sent to another process;
    a Dask run sends these instead and the worker compiles the function again."""
    for fn, made, signature, what, call in _compiled.values():
        if made is compiled:
            return fn, signature, what, call
    return None


def lineup(policies, seats: int, known: dict[str, int], user_code: int, example: str):
    """One player a seat from ``policies``: a comma list of names, one name (or one ``@njit``
    function) for every seat, or a sequence of names and at most one ``@njit`` function.

    ``known`` maps the game's policy names to their kernel codes; a user function gets
    ``user_code``. Returns ``(codes, names, user function or None)``; ``example`` is a lineup
    the error messages show.
    """
    if isinstance(policies, str):
        items = [p.strip() for p in policies.split(",") if p.strip()]
    elif is_njit(policies):
        items = [policies]
    else:
        try:
            items = list(policies)
        except TypeError:
            raise ValueError(f"policies={policies!r}: give names like 'heuristic' or a list of {seats}") from None
    if len(items) == 1:
        items = items * seats
    if len(items) != seats:
        raise ValueError(f"{len(items)} policies given for {seats} seats; give one for every seat "
                         f"(e.g. '{example}') or one for all")
    codes, names, user = [], [], None
    for p in items:
        if isinstance(p, str):
            key = p.strip().lower()
            if key not in known:
                raise ValueError(f"unknown policy {p!r}; choose from {', '.join(known)} or pass an @njit function")
            codes.append(known[key])
            names.append(key)
        elif is_njit(p):
            if user is not None and p is not user:
                raise ValueError("at most one user @njit policy per run; give the same function for several seats")
            user = p
            codes.append(user_code)
            names.append("user")
        else:
            raise ValueError(f"policy {p!r} is neither a name ({', '.join(known)}) nor an @njit function")
    return codes, tuple(names), user
