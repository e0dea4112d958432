"""Känä's default run sizes, in a module light enough for the CLI's parser to import
(the API modules take their defaults from here, so each is defined once)."""

#: Rounds ``odds`` plays when neither ``samples`` nor ``target_halfwidth`` is given.
ODDS_SAMPLES = 2_000_000
#: Sampled rounds per candidate of ``advise``/``compare``/``expected_value`` by default.
DECISION_SAMPLES = 1_000_000
#: Rounds a step of a strategy table (``equilibrium``/``strategy_table``) plays by default.
TABLE_SAMPLES = 400_000
