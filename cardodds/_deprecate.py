"""Old public names that still work, with a ``DeprecationWarning`` that names the new one."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["renamed"]


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
