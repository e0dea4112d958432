"""Polish Canasta (docs/rules/canasta.md): the 108-card pack, melds with wild cards, scoring, meld odds.

>>> from cardodds.canasta import CanastaRules, Meld, score_side
>>> score_side([Meld("K", naturals=7, twos=2, jokers=1)]).total
660

The public names are imported from their modules on first use, so ``import cardodds.canasta``
(and the ``cardodds canasta`` command's parser) does not load the compiled kernels.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_package

__all__ = [
    "CanastaRules",
    "Position",
    "TuneResult",
    "advise",
    "equity",
    "tune",
    "GameResult",
    "GameStrengthResult",
    "HeuristicParams",
    "HouseOptionsResult",
    "PlayResult",
    "StrengthResult",
    "game",
    "game_strength",
    "house_options",
    "play",
    "strength",
    "trace",
    "FirstMeld",
    "HandOddsResult",
    "Meld",
    "MeldOddsResult",
    "SideScore",
    "best_first_meld",
    "can_swap",
    "hand_counts",
    "hand_odds",
    "meld_options",
    "melds",
    "parse_hand",
    "score_side",
    "strategy_table",
    "positions",
    "review",
]

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from .advise import advise
    from .analysis import HandOddsResult, MeldOddsResult, hand_odds, melds
    from .cards import hand_counts, parse_hand
    from .equity import equity
    from .play import (GameResult, GameStrengthResult, HouseOptionsResult, PlayResult, StrengthResult, TuneResult,
                       game, game_strength, house_options, play, strength, trace, tune)
    from .policies import HeuristicParams
    from .rules import CanastaRules
    from .scoring import FirstMeld, Meld, SideScore, best_first_meld, can_swap, meld_options, score_side
    from .position import Position
    from .review import positions, review
    from .strategy import strategy_table

lazy_package(__name__, {
    ".advise": ["advise"],
    ".analysis": ["HandOddsResult", "MeldOddsResult", "hand_odds", "melds"],
    ".cards": ["hand_counts", "parse_hand"],
    ".equity": ["equity"],
    ".play": ["GameResult", "GameStrengthResult", "HouseOptionsResult", "PlayResult", "StrengthResult",
              "TuneResult", "game", "game_strength", "house_options", "play", "strength", "trace", "tune"],
    ".policies": ["HeuristicParams"],
    ".rules": ["CanastaRules"],
    ".scoring": ["FirstMeld", "Meld", "SideScore", "best_first_meld", "can_swap", "meld_options", "score_side"],
    ".strategy": ["strategy_table"],
    ".position": ["Position"],
    ".review": ["positions", "review"],
})
