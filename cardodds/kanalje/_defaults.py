"""Kanalje's player names, default run sizes and limits, light enough for the CLI's parser to import.

The API and the CLI both read them here, so a command and its function cannot disagree.
``policies.POLICIES`` maps the names to their kernel codes (a test checks the two agree).
"""

from ..verdict import ADVICE_ROUNDS, ADVICE_SECONDS

#: The built-in players, in the order help texts list them.
POLICY_NAMES = ("random", "heuristic", "lookahead", "pimc")
#: The policy of every seat unless told otherwise.
DEFAULT_POLICIES = "heuristic"
#: Who plays an advice's worlds out unless told otherwise: the strongest player of the ladder
#: (pimc > lookahead > heuristic, ``docs/kanalje.md``) whose advice on the worst position of the
#: docs answers within about 2 s on two cores (``benchmarks/RESULTS_kanalje_advice.md``).
ADVISE_POLICIES = "lookahead"
#: ``strength``'s policies A and B unless told otherwise (``strength(a, b)``, ``strength A B``).
STRENGTH_A = "heuristic"
STRENGTH_B = "random"
#: Worlds the look-ahead and ``pimc`` players sample per decision by default, and the most it may be asked for.
DEFAULT_LOOKAHEAD_SAMPLES = 16
MAX_LOOKAHEAD_SAMPLES = 100_000
#: Run sizes unless told otherwise, ``(without, with)`` a look-ahead or ``pimc`` player in the lineup (it is
#: ~1000x slower): deals of a jack-risk run, of a hand's value, of a strength match (each deal is
#: played once more per seat) and games to the target.
RISK_SAMPLES = (200_000, 2_000)
HAND_SAMPLES = (100_000, 1_000)
STRENGTH_SAMPLES = (50_000, 500)
GAME_SAMPLES = (10_000, 100)
#: Worlds the advisor plays every legal card out on, ``(without, with)`` a look-ahead, pimc or a
#: user policy in the lineup (the heuristic and random play-outs answer in a fraction of a second).
ADVISE_SAMPLES = (10_000, 40)
#: The advisor's verdict (:mod:`cardodds.verdict`) when no ``samples`` are given: cards within
#: ``ADVISE_MARGIN`` points a deal of each other are equal for the player (a quarter of the
#: smallest jack penalty's step: docs/kanalje-advise.md, "The verdict"); ``ADVISE_SPREAD``, the
#: largest difference two cards usually show on one world (a trick and a jack: 1 + 3), floors a
#: difference's spread; rounds of ``ADVISE_ROUND_WORLDS`` worlds, doubling, ``ADVISE_ROUNDS`` of
#: them at most, none started that would end past ``ADVISE_SECONDS``.
ADVISE_MARGIN = 0.25
ADVISE_SPREAD = 4.0
#: With the game at stake (a score): cards within ``EQUITY_MARGIN`` P(win the game) of each
#: other are equal; a difference in P(win) spans at most 1 on a world.
EQUITY_MARGIN = 0.01
EQUITY_SPREAD = 1.0
ADVISE_ROUND_WORLDS = 16
ADVISE_ROUNDS = ADVICE_ROUNDS
ADVISE_SECONDS = ADVICE_SECONDS
#: A review's time for each card (:func:`~cardodds.kanalje.review`): the advisor's rounds until a
#: verdict, then the card played priced against the best until its rating is clear, each
#: starting no round that would end past this many seconds (a deal's review within about 30 s).
REVIEW_SECONDS = 1.5
#: The most deals a game may be allowed (``max_deals``); a game still open after its
#: ``max_deals`` deals is counted as unfinished.
MAX_DEALS = 1000
#: ``max_deals`` unless told otherwise.
DEFAULT_MAX_DEALS = 200
#: Who plays the strategy tables' actions out (and the deals their positions come from) unless told
#: otherwise: the strongest player whose tables build within ten minutes on two cores
#: (``benchmarks/RESULTS_kanalje_tables.md``).
TABLE_POLICIES = "lookahead"
#: Deals a strategy table draws its positions from (one position a deal at most), and the seed, of
#: the shipped tables (``cardodds/kanalje/strategy.json``).
TABLE_DEALS = 20_000
TABLE_SEED = 51
#: The game equity tables (``equity``): deals measured for a table, and the seed of the shipped
#: ones (``cardodds/kanalje/equity_3.npz``, ``equity_2.npz``) and of tables built on demand.
EQUITY_DEALS = 4_000_000
EQUITY_SEED = 64
