"""Kanalje (RULES.md 2.1): take tricks, avoid the jacks. Engine, players and analyses.

>>> from cardodds.kanalje import jack_risk, evaluate_hand, KanaljeRules
>>> r = jack_risk("random,heuristic,heuristic", samples=10_000, rng=1)
>>> r.mean_score[0].value < r.mean_score[1].value
True

The public names are imported from their modules on first use, so ``import cardodds.kanalje``
(and the ``cardodds kanalje`` command's parser) does not load pandas or the compiled kernels.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_package

#: The analyses, as ``analysis.__all__`` lists them (a test checks the two agree).
_ANALYSES = ["GameResult", "HandResult", "JackRiskResult", "MatchResult", "evaluate_hand", "game_odds", "jack_risk",
             "play_deal", "strength_match"]

__all__ = ["POLICIES", "KanaljeRules", *_ANALYSES, "AdviceResult", "advise"]

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from .advise import AdviceResult, advise
    from .analysis import *  # noqa: F403
    from .policies import POLICIES
    from .rules import KanaljeRules

lazy_package(__name__, {".advise": ["AdviceResult", "advise"], ".analysis": _ANALYSES, ".policies": ["POLICIES"],
                        ".rules": ["KanaljeRules"]})
