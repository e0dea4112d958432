"""Känä: three blind cards, känä one, the two kept cards are summed; two 2s beat all.

>>> from cardodds import kana
>>> kana.exact_odds(players=4).win[0].value
0.25

The public names are imported from their modules on first use, so ``import cardodds.kana``
(and the ``cardodds kana`` command's parser) does not load pandas or the compiled kernels.
"""

from typing import TYPE_CHECKING

from .._lazy import lazy_package

__all__ = [
    "ComparisonResult", "KanaRules", "OddsResult", "Policy", "Position", "SessionResult", "SessionTableResult",
    "StrategyTableResult", "advise", "compare", "equilibrium", "exact", "exact_odds", "expected_value", "live_odds",
    "odds", "parse_shown", "policies", "positions", "review", "session", "session_table", "strategy_table", "trace",
]

if TYPE_CHECKING:  # what the names are, for type checkers and editors
    from . import exact, policies
    from .advise import advise
    from .analysis import OddsResult, exact_odds, live_odds, odds, parse_shown
    from .decisions import ComparisonResult, StrategyTableResult, compare, expected_value, strategy_table
    from .equilibrium import equilibrium
    from .policies import Policy
    from .position import Position
    from .review import positions, review
    from .rules import KanaRules
    from .session import SessionResult, SessionTableResult, session, session_table, trace

lazy_package(__name__, {
    ".advise": ["advise"],
    ".analysis": ["OddsResult", "exact_odds", "live_odds", "odds", "parse_shown"],
    ".decisions": ["ComparisonResult", "StrategyTableResult", "compare", "expected_value", "strategy_table"],
    ".equilibrium": ["equilibrium"],
    ".policies": ["Policy"],
    ".position": ["Position"],
    ".review": ["positions", "review"],
    ".rules": ["KanaRules"],
    ".session": ["SessionResult", "SessionTableResult", "session", "session_table", "trace"],
})
