"""Kanalje (RULES.md 2.1): take tricks, avoid the jacks. Engine, players and analyses.

>>> from cardodds.kanalje import jack_risk, evaluate_hand, KanaljeRules
>>> r = jack_risk("random,heuristic,heuristic", samples=10_000, rng=1)
>>> r.mean_score[0].value < r.mean_score[1].value
True
"""

from . import analysis
from .analysis import *  # noqa: F403 - the analyses, as analysis.__all__ lists them
from .policies import POLICIES
from .rules import KanaljeRules

__all__ = ["POLICIES", "KanaljeRules", *analysis.__all__]
