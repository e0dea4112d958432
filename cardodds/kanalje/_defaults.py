"""Kanalje's player names and default run sizes, light enough for the CLI's parser to import.

``policies.POLICIES`` maps these names to their kernel codes (a test checks the two agree).
"""

#: The built-in players, in the order help texts list them.
POLICY_NAMES = ("random", "heuristic", "lookahead")
#: Worlds the look-ahead player samples per decision by default.
DEFAULT_LOOKAHEAD_SAMPLES = 16
