"""Känä: three blind cards, känä one, the two kept cards are summed; two 2s beat all.

>>> from cardodds import kana
>>> kana.exact_odds(players=4).win[0].value
0.25
"""

from .._deprecate import renamed
from . import analysis, decisions, exact, strategies
from .analysis import OddsResult, exact_odds, live_odds, odds, parse_shown
from .decisions import (
    AdviceResult, ComparisonResult, StrategyTableResult, advise, compare, equilibrium, expected_value, strategy_table,
)
from .rules import KanaRules
from .session import SessionResult, SessionTableResult, session, session_table

__all__ = [
    "AdviceResult", "ComparisonResult", "KanaRules", "OddsResult", "SessionResult", "SessionTableResult",
    "StrategyTableResult", "advise", "compare", "equilibrium", "exact", "exact_odds", "expected_value", "live_odds",
    "odds", "parse_shown", "session", "session_table", "strategies",
    "strategy_table",
]


#: KanaOdds, Comparison, StrategyTable and Advice were renamed ...Result: the old names warn.
__getattr__ = renamed(globals(), {**analysis._DEPRECATED, **decisions._DEPRECATED})
