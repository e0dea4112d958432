"""Polish Canasta (RULES.md 3): the 108-card pack, melds with wild cards, scoring, meld odds.

>>> from cardodds.canasta import CanastaRules, Meld, score_side
>>> score_side([Meld("K", naturals=7, twos=2, jokers=1)]).total
660
"""

from .._deprecate import renamed
from . import analysis
from .analysis import HandOddsResult, MeldOddsResult, hand_odds, melds
from .cards import hand_counts, parse_hand
from .melds import FirstMeld, Meld, SideScore, best_first_meld, can_swap, meld_options, score_side
from .play import (GameResult, HouseOptionsResult, PlayResult, StrengthResult, game, house_options, play, strength,
                   trace)
from .advise import AdviceResult, advise
from .players import HeuristicParams, TuneResult, tune
from .rules import CanastaRules

__all__ = [
    "AdviceResult",
    "CanastaRules",
    "TuneResult",
    "advise",
    "tune",
    "GameResult",
    "HeuristicParams",
    "HouseOptionsResult",
    "PlayResult",
    "StrengthResult",
    "game",
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
]


#: MeldOdds and HandOdds were renamed ...Result: the old names warn.
__getattr__ = renamed(globals(), analysis._DEPRECATED)
