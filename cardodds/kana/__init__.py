"""Känä: three blind cards, känä one, the two kept cards are summed; two 2s beat all.

>>> from cardodds import kana
>>> kana.exact_odds(players=4).win[0].value
0.25
"""

from . import exact
from .analysis import KanaOdds, exact_odds, live_odds, odds, parse_shown
from .rules import KanaRules

__all__ = ["KanaOdds", "KanaRules", "exact", "exact_odds", "live_odds", "odds", "parse_shown"]
