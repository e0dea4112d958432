"""Polish Canasta's limits, light enough for the CLI's parser to import."""

#: Most draws ``melds``/``hand_odds`` follow a hand through.
MAX_TURNS = 40
