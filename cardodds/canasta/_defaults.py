"""Polish Canasta's defaults and limits, defined once: the API's functions and the CLI's
parser read them from here (light enough for the parser to import)."""

from ..verdict import ADVICE_ROUNDS, ADVICE_SECONDS

#: Most draws ``melds``/``hand_odds`` follow a hand through.
MAX_TURNS = 40

#: What decides at every seat when ``policies=`` (``--policies``) is not given.
DEFAULT_POLICIES = "heuristic"
#: ``strength``'s policies A and B unless told otherwise (``strength(a, b)``, ``strength A B``).
STRENGTH_A = "heuristic"
STRENGTH_B = "random"
#: The discard rules of meld odds over the draws (``discard=``, ``--discard``), the default first.
DISCARD_RULES = ("keep", "weakest")

#: ``melds``: the hand size, the draws followed and the deals of a Monte Carlo run.
HAND_SIZE = 12
MELD_TURNS = 20
DEFAULT_MELD_SAMPLES = 200_000
#: ``hand_odds``: the draws followed and the samples of a Monte Carlo run.
HAND_TURNS = 10
DEFAULT_HAND_SAMPLES = 100_000

#: ``play``: single hands; ``house_options``: hands per rules set; ``strength``: deal pairs.
DEFAULT_HANDS = 20_000
DEFAULT_HOUSE_HANDS = DEFAULT_HANDS // 4
DEFAULT_STRENGTH_PAIRS = 5_000
#: ``game``: whole games, and the hands after which a game still open counts as unfinished
#: (random players can lose points hand after hand for ever).
DEFAULT_GAMES = 2_000
DEFAULT_MAX_HANDS = 300
#: Whole games per rules set that ``cardodds canasta house-options --games`` suggests.
DEFAULT_HOUSE_GAMES = 200
#: ``tune``: paired deals a match.
DEFAULT_TUNE_SAMPLES = 2_000

#: ``advise``: the players of the play-outs, the strongest of the ladder whose advice answers
#: in time (``docs/canasta-play.md`` has each player's time); sampled deals, the other seats'
#: cards and the table turns played so far
#: (None: not given, so the cards out are not checked against it and the play-outs take
#: the hand to be past every player's first turn, ``ASSUMED_TURN``).
DEFAULT_ADVICE_POLICIES = "heuristic2"
DEFAULT_ADVICE_SAMPLES = 2_000
#: ``advise``'s verdict (:mod:`cardodds.verdict`) on the figure that ranks the options, when no
#: ``samples`` are given. ``ADVISE_MARGIN``, ``(points a hand, P(we win the game))``: options
#: within it of each other are equal for the player: 25 points, a few cards' points
#: (docs/rules/canasta.md §1.4), or one percentage point of P(win), as the strategy tables.
#: ``ADVISE_SPREAD``, the largest difference two options usually show on one deal, floors a
#: difference's spread (a rare large difference hides from a few deals): 2,000 points, a canasta
#: and going out won by one side instead of the other with the cards melded and caught in hand
#: (one deal in fifty to one in ten differs by more: benchmarks/RESULTS_verdict.md); 1 in P(win), one option
#: winning the game on the deal and the other not. Rounds of ``ADVISE_ROUND_WORLDS`` deals,
#: doubling, ``ADVISE_ROUNDS`` of them at most, none started that would end past ``ADVISE_SECONDS``.
ADVISE_MARGIN = (25.0, 0.01)
ADVISE_SPREAD = (2000.0, 1.0)
ADVISE_ROUND_WORLDS = 64
ADVISE_ROUNDS = ADVICE_ROUNDS
ADVISE_SECONDS = ADVICE_SECONDS
#: A review's time for each decision (:func:`~cardodds.canasta.review`): the advisor's rounds
#: until a verdict, then the move made priced against the best until its rating is clear, each
#: starting no round that would end past this many seconds (a hand's review within about 60 s).
REVIEW_SECONDS = 2.0
#: ``advise``'s finest precision (points) and the most deals a run to a precision plays.
MIN_ADVICE_HALFWIDTH = 1.0
MAX_ADVICE_SAMPLES = 10_000_000
ADVICE_COUNTS = (12, 12, 12)
ADVICE_RED3 = (0, 0)
ADVICE_TURN = None
ASSUMED_TURN = 8
#: ``advise``'s decisions.
ADVICE_DECISIONS = ("take", "discard", "out", "meld")
#: ``strategy_table``: the tables, and the shipped tables' hands a table, seed and players.
STRATEGY_TABLES = ("take", "out", "out-game", "discard")
STRATEGY_SAMPLES = 1_000_000
STRATEGY_SEED = 51
STRATEGY_POLICIES = "heuristic2"
#: The game equity table (``equity``): hands measured, the seed of the shipped table
#: (``cardodds/canasta/equity.npz``) and of tables built on demand, and its grid in points
#: (a hand's score is rounded to it).
EQUITY_HANDS = 1_000_000
EQUITY_SEED = 64
EQUITY_STEP = 50
