"""Renamed :mod:`cardodds.kana.policies` (``Strategy`` is now ``Policy``, ``parse_strategy``
``parse_policy``): this module still serves the old names, with a ``DeprecationWarning``."""

import warnings

from .._deprecate import renamed
from .policies import *  # noqa: F403  (the old module's names, served from the new one)
from .policies import Policy, pack_lineups, parse_policy
from .policies import __all__ as _new_names

warnings.warn("cardodds.kana.strategies is renamed cardodds.kana.policies; the old module will go in a later release",
              DeprecationWarning, stacklevel=2)

__all__ = [*_new_names, "Strategy", "parse_strategy"]  # noqa: F405  (the old two served by __getattr__)

#: The old names of this module, served from :mod:`cardodds.kana.policies`.
_OLD = {"Strategy": "Policy", "parse_strategy": "parse_policy", "pack": "pack_lineups"}
__getattr__ = renamed({"__name__": __name__, "Policy": Policy, "parse_policy": parse_policy,
                       "pack_lineups": pack_lineups}, _OLD)
