"""Deprecated: the policies are :mod:`cardodds.canasta.policies`, the tuner
:func:`cardodds.canasta.play.tune`. Importing this module warns; its names still work."""

import warnings

from .play import TUNE_GRID, TuneResult, tune
from .policies import POLICIES, HeuristicParams, resolve_policies

__all__ = ["POLICIES", "TUNE_GRID", "HeuristicParams", "TuneResult", "resolve_policies", "tune"]

warnings.warn("cardodds.canasta.players is renamed cardodds.canasta.policies (the tuner: cardodds.canasta.play.tune); "
              "the old module will go in a later release", DeprecationWarning, stacklevel=2)
