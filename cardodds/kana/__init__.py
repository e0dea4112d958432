"""Känä: three blind cards, känä one, the two kept cards are summed; two 2s beat all.

>>> from cardodds import kana
>>> kana.exact_odds(players=4).win[0].value
0.25
"""

from . import exact, strategies
from .analysis import KanaOdds, exact_odds, live_odds, odds, parse_shown
from .decisions import (
    Advice, Comparison, StrategyTable, advise, compare, equilibrium, expected_value, strategy_table,
)
from .rules import KanaRules
from .session import SessionResult, SessionTableResult, session, session_table

__all__ = [
    "Advice", "Comparison", "KanaOdds", "KanaRules", "SessionResult", "SessionTableResult", "StrategyTable", "advise", "compare", "equilibrium", "exact",
    "exact_odds", "expected_value", "live_odds", "odds", "parse_shown", "session", "session_table", "strategies",
    "strategy_table",
]
