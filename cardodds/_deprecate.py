"""Old public names that still work, with a ``DeprecationWarning`` that names the new one."""

from __future__ import annotations

import functools
import inspect
import warnings
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

__all__ = ["renamed", "rules_keyword"]

F = TypeVar("F", bound=Callable[..., Any])


def renamed(namespace: dict[str, Any], old_to_new: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` that serves each old name as its new one, warning once per use.

    >>> ns = {"__name__": "pkg", "NewResult": int}
    >>> getattr_ = renamed(ns, {"Old": "NewResult"})
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     getattr_("Old") is int, w[0].category.__name__
    (True, 'DeprecationWarning')
    """
    module = namespace["__name__"]

    def __getattr__(name: str) -> Any:
        new = old_to_new.get(name)
        if new is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warnings.warn(f"{module}.{name} is renamed {new}; the old name will go in a later release",
                      DeprecationWarning, stacklevel=2)
        return namespace[new]

    __getattr__.renamed = dict(old_to_new)  # type: ignore[attr-defined]
    return __getattr__


def rules_keyword(func: F) -> F:
    """Make ``rules=`` keyword-only while a positional rules argument still works, warning.

    ``func`` declares ``rules`` keyword-only; a call that passes one positional argument more
    than ``func`` takes is read as the old positional ``rules``.

    >>> @rules_keyword
    ... def odds(hand, *, rules=None):
    ...     return rules
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as w:
    ...     warnings.simplefilter("always")
    ...     odds("Kh", "house"), w[0].category.__name__
    ('house', 'DeprecationWarning')
    """
    params = inspect.signature(func).parameters.values()
    positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) for p in params)

    @functools.wraps(func)
    def call(*args, **kwargs):
        if len(args) == positional + 1 and "rules" not in kwargs:
            warnings.warn(f"{func.__qualname__}: pass the rules as rules=...; a positional rules argument "
                          "will stop working in a later release", DeprecationWarning, stacklevel=2)
            kwargs["rules"] = args[-1]
            args = args[:-1]
        return func(*args, **kwargs)

    return call  # type: ignore[return-value]
