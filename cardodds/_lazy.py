"""Game packages that load their analyses on first use.

``import cardodds.kana`` (and with it every ``cardodds kana ...`` command's parser) must not
pay for pandas, numba and the compiled kernels; the public names stay where they always were
and are imported from their module the first time they are read.

Some public functions share their module's name (``kana.session``, ``canasta.play``,
``canasta.advise``). The import system binds a freshly imported submodule
to its package's attribute; for those names the function keeps the attribute, as it did when
the package imported everything eagerly.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["lazy_package"]


class _LazyPackage(types.ModuleType):
    _exports: dict[str, str]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        exports = self.__dict__.get("_exports", {})
        if name in exports:
            value = getattr(importlib.import_module(exports[name], self.__name__), name)
            types.ModuleType.__setattr__(self, name, value)
            return value
        if importlib.util.find_spec(f"{self.__name__}.{name}") is not None:
            # a submodule the eager package used to bind as a side effect (kana.rules, kanalje.policies)
            return importlib.import_module(f"{self.__name__}.{name}")
        raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        if (name in self.__dict__.get("_exports", {}) and isinstance(value, types.ModuleType)
                and value.__name__ == f"{self.__name__}.{name}"):
            return  # a submodule named like a public function: the function keeps the name
        types.ModuleType.__setattr__(self, name, value)

    def __dir__(self) -> list[str]:
        return sorted(set(self.__dict__) | set(self.__dict__.get("_exports", {})))


def lazy_package(name: str, exports: Mapping[str, Iterable[str]]) -> None:
    """Make package ``name`` serve ``exports`` (relative module -> public names in it) on first use.

    Submodules (``kana.exact``, ``kanalje.policies``) are imported when first read as attributes.
    """
    package = sys.modules[name]
    table = {attr: module for module, attrs in exports.items() for attr in attrs}
    package.__class__ = _LazyPackage
    types.ModuleType.__setattr__(package, "_exports", table)
