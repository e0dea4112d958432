"""Kanalje (docs/rules/kanalje.md): take tricks, avoid the jacks. Engine, players and analyses.

>>> from cardodds.kanalje import jack_risk, evaluate_hand, Hand, KanaljeRules
>>> r = jack_risk("random,heuristic,heuristic", samples=10_000, rng=1)
>>> r.mean_score[0].value < r.mean_score[1].value
True

The public names are imported from their modules on first use, so ``import cardodds.kanalje``
(and the ``cardodds kanalje`` command's parser) does not load pandas or the compiled kernels.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_package

#: The analyses and the played games, as ``analysis.__all__`` and ``play.__all__`` list them (a
#: test checks they agree).
_ANALYSES = ["HandResult", "JackRiskResult", "evaluate_hand", "jack_risk"]
_PLAY = ["GameResult", "StrengthResult", "game", "strength", "trace"]

__all__ = ["POLICIES", "KanaljeRules", *_ANALYSES, *_PLAY, "Hand", "Position", "advise", "equity", "positions",
           "review", "strategy_table"]

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from .advise import advise
    from .analysis import *  # noqa: F403
    from .equity import equity
    from .hand import Hand
    from .play import *  # noqa: F403
    from .policies import POLICIES
    from .position import Position
    from .review import positions, review
    from .rules import KanaljeRules
    from .strategy import strategy_table

lazy_package(__name__, {".advise": ["advise"], ".analysis": _ANALYSES, ".equity": ["equity"], ".hand": ["Hand"],
                        ".play": _PLAY,
                        ".policies": ["POLICIES"], ".position": ["Position"], ".review": ["positions", "review"],
                        ".rules": ["KanaljeRules"], ".strategy": ["strategy_table"]})
