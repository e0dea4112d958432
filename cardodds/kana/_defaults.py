"""Känä's defaults (run sizes, lineups, the player counts tables are built for), in a module
light enough for the CLI's parser to import: the API modules take their defaults from here and
the commands read them too, so each is defined once. The rules' own defaults are the fields of
``KanaRules``."""

#: Rounds ``odds`` plays when neither ``samples`` nor ``target_halfwidth`` is given.
ODDS_SAMPLES = 2_000_000
#: Sampled rounds per candidate of ``advise``/``compare``/``expected_value`` by default.
DECISION_SAMPLES = 1_000_000
#: Rounds a step of a strategy table (``equilibrium``/``strategy_table``) plays by default.
TABLE_SAMPLES = 400_000
#: Rounds a session of ``session`` lasts by default, and the sessions it plays.
SESSION_ROUNDS = 100
#: Rounds of the evening ``kana.trace`` and ``cardodds kana trace`` follow.
TRACE_ROUNDS = 10
SESSION_SAMPLES = 20_000
#: Rounds a session and sessions a step of ``session_table`` by default.
SESSION_TABLE_ROUNDS = 50
SESSION_TABLE_SAMPLES = 20_000
#: Player counts strategy tables (``strategy_table``, ``session_table``) are built for.
TABLE_PLAYERS = (2, 8)
#: The variant and player count ``strategy_table`` tabulates by default.
TABLE_VARIANT = "peek-one"
TABLE_PLAYERS_DEFAULT = 4
#: The others' play ``advise`` assumes, and the lineup ``session`` plays, by default.
OPPONENTS = "table"
SESSION_POLICIES = "blind"
#: The variant the advisor (``advise`` and ``cardodds kana advise``) asks about when neither
#: ``variant=`` nor ``rules=`` is given: the official rules leave no choice to advise (every
#: känä wins 1/n), so the advisor starts where there is one.
ADVISE_VARIANT = "peek-one"
#: The advisor's verdict (:mod:`cardodds.verdict`) when neither ``samples`` nor
#: ``target_halfwidth`` is given: känäs within ``ADVISE_MARGIN`` antes a round of each other are
#: equal for the player. The margin is in antes, not in P(win): the pot is ``players`` antes, so a
#: känä that lowers P(win) by d costs ``players x d`` antes of the evening's money, and a margin
#: in P(win) would let a larger loss pass as "equal" the more players sit at the table (0.005 in
#: P(win) is 0.015 antes at 3 players, 0.04 at 8); antes are also the unit the review rates a
#: känä in (a mistake from 0.1 antes). ``ADVISE_SPREAD``: the largest difference two känäs can
#: show on one deal, one win against one loss (1 in P(win), ``players`` antes), floors a
#: difference's spread. Rounds of ``ADVISE_ROUND_WORLDS`` deals, doubling, ``ADVISE_ROUNDS`` of them
#: at most, none started that would end past ``ADVISE_SECONDS``.
ADVISE_MARGIN = 0.005
ADVISE_SPREAD = 1.0
ADVISE_ROUND_WORLDS = 4_096
ADVISE_ROUNDS = 12
ADVISE_SECONDS = 3.0
#: A review's time for each känä (``review``, ``cardodds kana review``): the advisor's rounds
#: until a verdict, then the känä made priced against the best until its rating is clear, each
#: starting no round that would end past this many seconds.
REVIEW_SECONDS = 0.5
