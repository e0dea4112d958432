"""Känä: three blind cards, känä one, the two kept cards are summed; two 2s beat all.

>>> from cardodds import kana
>>> kana.exact_odds(players=4).win[0].value
0.25
"""

from . import exact, strategies
from .analysis import OddsResult, exact_odds, live_odds, odds, parse_shown
from .decisions import (
    AdviceResult, ComparisonResult, StrategyTableResult, advise, compare, equilibrium, expected_value, strategy_table,
)
from .rules import KanaRules

__all__ = [
    "AdviceResult", "ComparisonResult", "KanaRules", "OddsResult", "StrategyTableResult", "advise", "compare",
    "equilibrium", "exact", "exact_odds", "expected_value", "live_odds", "odds", "parse_shown", "strategies",
    "strategy_table",
]


def __getattr__(name: str):
    # KanaOdds, Comparison, StrategyTable and Advice were renamed ...Result; their modules warn.
    from . import analysis, decisions

    for module in (analysis, decisions):
        if name in module._DEPRECATED:
            return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
