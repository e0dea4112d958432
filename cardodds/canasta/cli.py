"""``cardodds canasta melds|hand|play|game|strength|game-strength|house-options|trace|advise|review|table``:
meld odds, and the game played by four."""

from __future__ import annotations


from .. import _cliutil as cu
from . import _defaults as D
from ._defaults import MAX_TURNS
from .rules import MELD_FIELDS, CanastaRules

#: The rules every header names, at their defaults too (the others only when they differ).
_SHOWN = ("wild_limit", "min_first_meld", "jokers")
_EXACT_HELP = cu.EXACT_HELP


def _rule_options(p) -> None:
    """The meld odds' rules flags (the fields they read) and ``--discard``."""
    cu.add_rules_flags(p, CanastaRules, only=MELD_FIELDS)
    p.add_argument("--discard", type=cu.choice(*D.DISCARD_RULES), default=D.DISCARD_RULES[0],
                   metavar="|".join(D.DISCARD_RULES),
                   help="over the draws: keep every card drawn (default; exact possible) or discard the "
                        "weakest card each turn so the hand keeps its size (Monte Carlo only)")


def add_commands(sub) -> None:
    """Polish Canasta (docs/rules/canasta.md): first-meld and canasta odds with 95% intervals."""
    p = cu.command(sub, "canasta", add_commands, "Polish Canasta: meld odds from the deal and for a hand")
    csub = p.add_subparsers(dest="canasta_command", metavar="QUESTION")
    p.set_defaults(func=cu.help_exit(p))
    _add_melds(csub)
    _add_hand(csub)
    add_play_commands(csub)


def _add_melds(csub) -> None:
    """Odds for a dealt hand: first meld (every wild limit), by taking the upcard, by turn drawing
    one card a turn, 7 naturals of a rank, wilds and red 3s per hand and per partnership."""
    m = cu.command(csub, "melds", _add_melds, "how often a dealt hand can open, by turn; wilds and red 3s")
    m.add_argument("--hand-size", type=positive_hand, default=D.HAND_SIZE, metavar="H",
                   help=f"cards per hand (default {D.HAND_SIZE})")
    m.add_argument("--turns", type=cu.int_range(0, MAX_TURNS), default=D.MELD_TURNS, metavar="K",
                   help=f"draws to follow, 0..{MAX_TURNS} (default {D.MELD_TURNS})")
    _rule_options(m)
    cu.add_run_options(m, f"{D.DEFAULT_MELD_SAMPLES:,}", exact=_EXACT_HELP)
    m.set_defaults(func=_melds)


def _add_hand(csub) -> None:
    """For a given hand: able to lay the first meld, and holding 7 naturals of a rank, after k draws
    (entry 0 = the hand as given)."""
    h = cu.command(csub, "hand", _add_hand, "odds that a given hand opens / holds 7 of a rank by turn k")
    h.add_argument("--hand", required=True, metavar="CARDS",
                   help="my hand: its cards, e.g. \"Ah Ad 2c Jk 7s\" (Joker: Jk or *)")
    h.add_argument("--turns", type=cu.int_range(0, MAX_TURNS), default=D.HAND_TURNS, metavar="K",
                   help=f"draws to follow, 0..{MAX_TURNS} (default {D.HAND_TURNS})")
    _rule_options(h)
    cu.add_run_options(h, f"{D.DEFAULT_HAND_SAMPLES:,}", unit="samples", exact=_EXACT_HELP)
    h.set_defaults(func=_hand)


positive_hand = cu.int_range(1, 26, " cards (four hands, the upcard and the draws must fit the pack)")


def _rules(args) -> CanastaRules:
    return cu.rules_of(args, CanastaRules)


def _size(args) -> dict:
    if args.exact:
        if args.discard != D.DISCARD_RULES[0]:
            raise cu.UsageError(f"--discard {args.discard} has no exact answer; drop --exact (Monte Carlo) or use "
                                "--discard keep")
        return {"exact": True}
    return {**cu.run_size(args), **cu.run_options(args)}


def _melds(args) -> int:
    from .analysis import melds

    res = melds(args.hand_size, rules=_rules(args), turns=args.turns, discard=args.discard, **_size(args))
    return cu.emit(args, res, melds_text)


def _hand(args) -> int:
    from .analysis import hand_odds
    from .cards import parse_hand

    rules = _rules(args)
    cu.about("--hand", args.hand, parse_hand, args.hand, jokers=rules.jokers)
    res = hand_odds(args.hand, args.turns, rules=rules, discard=args.discard, **_size(args))
    return cu.emit(args, res, lambda r: hand_text(r, args.hand))


def _rules_words(rules, going_out: bool = False) -> str:
    """The rules in a header: the wild limit, the first meld and the Jokers always (and the way of
    going out, ``going_out``), then every other rule that differs from the default."""
    from .._fields import rules_words

    words = [f"wild limit {rules.wild_limit}", f"first meld >= {rules.min_first_meld}", f"{rules.jokers} Jokers"]
    if going_out:
        words.append(f"going out {rules.going_out.replace('_', '-')}")
    more = rules_words(rules, _SHOWN + (("going_out",) if going_out else ()))
    return ", ".join(words + ([more] if more else []))


def melds_text(r) -> str:
    head = f"Canasta meld odds, {r.hand_size}-card hand, discard {r.discard} ({cu.how(r)}; {_rules_words(r.rules)})"
    deal = cu.table(("from the deal", "probability"), [
        ("first meld", cu.est(r.first_meld)), ("by taking the upcard", cu.est(r.pile_open)),
        ("a pair of a rank", cu.est(r.pair)), ("three of a rank", cu.est(r.three))]
        + [(f"first meld, wild limit {k}", cu.est(e)) for k, e in r.first_meld_by_limit.items()])
    turns = [k for k in (0, 1, 2, 3, 5, 10, 15, 20, 30, 40) if k <= r.turns]
    if r.turns not in turns:
        turns.append(r.turns)
    by_turn = cu.table(("turn", "first meld", "7 naturals of a rank"),
                       [(k, cu.est(r.first_meld_by_turn[k]), cu.est(r.canasta_by_turn[k])) for k in turns])
    return cu.block(head, r, deal, by_turn)


def _hand_cards(text: str, jokers: int) -> str:
    from ..cards import card_str
    from .cards import JOKER_CODE, parse_hand

    return " ".join("Jk" if c == JOKER_CODE else card_str(c) for c in parse_hand(text, jokers=jokers))


def _meld_words(m) -> str:
    return " ".join([m.rank] * m.naturals + ["2"] * m.twos + ["Jk"] * m.jokers)


def hand_text(r, hand: str) -> str:
    head = f"Canasta hand, {r.turns} draws, discard {r.discard} ({cu.how(r, 'samples')}; {_rules_words(r.rules)})"
    m = r.best_meld
    best = (f"{_meld_words(m.meld)}, {m.value} points ({'opens' if m.opens else 'below'} {m.minimum})"
            if m.meld is not None else f"none (below {m.minimum})")
    facts = cu.table(None, [("hand", _hand_cards(hand, r.rules.jokers)), ("best first meld now", best)])
    by_turn = cu.table(("turn", "first meld", "7 naturals of a rank"),
                       [(k, cu.est(r.first_meld_by_turn[k]), cu.est(r.canasta_by_turn[k]))
                        for k in range(r.turns + 1)])
    return cu.block(head, r, facts, by_turn)


# ---- the played game: play, trace, advise ------------------------------------------------------------
def _house_flags(p) -> None:
    cu.add_rules_flags(p, CanastaRules)


def _play_rules(args) -> CanastaRules:
    return cu.rules_of(args, CanastaRules)


_POLICIES_HELP = ("who plays: random | heuristic | heuristic2 | lookahead, one for every seat or four "
                  f"comma-separated (seat 0..3; seats 0+2 are side 0) (default {D.DEFAULT_POLICIES})")


def _played(csub, name: str, declare, help: str, samples: str, unit: str, *, policies: bool = True,
            precision_flag: bool = True):
    """A command of the game played by four (its description ``declare``'s docstring): its
    question's flags come after these (rules, run size)."""
    p = cu.command(csub, name, declare, help)
    if policies:
        p.add_argument("--policies", default=D.DEFAULT_POLICIES, metavar="P[,P...]", help=_POLICIES_HELP)
    else:
        cu.add_strength_players(p, D.STRENGTH_A, D.STRENGTH_B, "random | heuristic | heuristic2 | lookahead")
    cu.add_check(p)
    _house_flags(p)
    cu.add_run_options(p, samples, unit=unit, precision_flag=precision_flag)
    return p


def add_play_commands(csub) -> None:
    """The game played by four: ``play``, ``game``, ``strength``, ``game-strength``,
    ``house-options``, ``trace``, ``advise``, ``review``, ``table`` and ``equity``."""
    for add in (_add_play, _add_game, _add_equity, _add_strength, _add_game_strength, _add_house_options, _add_trace,
                _add_advise, _review_parser, _table_parser):
        add(csub)


def _add_play(csub) -> None:
    """Polish Canasta hands played by four players in two partnerships (docs/rules/canasta.md): how soon each
    side opens and makes a canasta, canastas by kind, pile takes, how hands end, scores. 95%
    intervals."""
    _played(csub, "play", _add_play, "single hands by four players: opening, canastas, pile, scores",
            f"{D.DEFAULT_HANDS:,}", "hands").set_defaults(func=_play)


def _add_game(csub) -> None:
    """Whole games to --target (docs/rules/canasta.md §5.2), side 0 (seats 0+2) dealing first: P(each side wins the
    game), hands a game, the winning margin. A game still open after --max-deals hands is counted
    as unfinished (no side wins it). 95% intervals."""
    g = _played(csub, "game", _add_game, "who wins the game to the target, and how many hands it takes",
                f"{D.DEFAULT_GAMES:,}", "games")
    cu.max_deals(g, D.DEFAULT_MAX_HANDS, 10_000, "hands")
    g.set_defaults(func=_game)


def _add_strength(csub) -> None:
    """A's partnership against B's: each deal played twice from the same random stream, A at seats
    0+2 then at seats 1+3; A's edge in points a hand and P(A's side did better over the pair), 95%
    intervals."""
    _played(csub, "strength", _add_strength, "player A against player B on the same deals, sides swapped: points a "
            "hand", f"{D.DEFAULT_STRENGTH_PAIRS:,}", "deal pairs", policies=False,
            precision_flag=False).set_defaults(func=_strength)


def _add_game_strength(csub) -> None:
    """A's partnership against B's in whole games to --target: each pair is two games from the same
    random stream and pack order, A's side dealing first in one and B's in the other: P(A's side
    wins a game), A's margin a game, hands a game, 95% intervals."""
    gs = _played(csub, "game-strength", _add_game_strength, "player A against player B in whole games, sides "
                 "swapped", f"{D.DEFAULT_STRENGTH_PAIRS:,}", "game pairs", policies=False, precision_flag=False)
    cu.max_deals(gs, D.DEFAULT_MAX_HANDS, 10_000, "hands")
    gs.set_defaults(func=_game_strength)


def _add_house_options(csub) -> None:
    """The figures of `canasta play` under each house option, each paired with the rules given on
    the same deals: side 0's opening, canastas, going out and the paired change of its score."""
    h = _played(csub, "house-options", _add_house_options, "each house option against the rules given, on the "
                "same deals", f"{D.DEFAULT_HOUSE_HANDS:,} hands a rules set", "hands", precision_flag=False)
    h.add_argument("--games", type=cu.int_range(0, 100_000, " games"), default=0, metavar="N",
                   help="also play N whole games under each rules set, from the same seed: P(the side dealing "
                        f"first wins), hands a game (default 0; e.g. {D.DEFAULT_HOUSE_GAMES})")
    h.set_defaults(func=_house_options)


def _add_trace(csub) -> None:
    """One hand played by four players (seed --seed): each seat's 12 cards, then every card drawn
    and every move, one line a move ('seat: action cards  # note'), the scores last. The text reads
    back (cardodds.trace.Trace.parse)."""
    t = cu.command(csub, "trace", _add_trace, "every move of one hand, as a record that reads back")
    t.add_argument("--policies", default=D.DEFAULT_POLICIES, metavar="P[,P...]", help=_POLICIES_HELP)
    t.add_argument("--score", default=None, metavar="S0,S1",
                   help="the game score before the hand, side 0 (seats 0+2) then side 1, e.g. 6200,5400: a hand of a "
                        "game (the players know the score; the record's 'score:' line says it)")
    _house_flags(t)
    cu.add_trace_options(t)
    t.set_defaults(func=_trace)


def _add_advise(csub) -> None:
    a = csub.add_parser("advise", help="take the pile or not, which card to discard, go out or not, meld or hold "
                                       "(paired intervals)",
                        description="For my hand (seat 0) and the table as I know it: each option of the decision "
                                    f"played out by the --policies ({D.DEFAULT_ADVICE_POLICIES} at every seat by "
                                    "default, mine included) on the same sampled deals, the hidden cards dealt "
                                    "uniformly over every deal consistent with the position: our side's margin this "
                                    "hand in points, P(our side ahead), P(we win the game) after the hand with "
                                    "--score, and what each option loses against the best. Ranked by points, or "
                                    "with --score by P(we win the game); the verdict: one option best, the "
                                    "options left equal within --margin, or undecided (rounds of fresh deals "
                                    "until it, an option shown to lose played no more; with --samples one look).")
    a.add_argument("--hand", required=True, metavar="CARDS",
                   help="my hand: my cards, e.g. \"K K 9 9 5 7 Q Jk 3b\"; a card with its suit (Kh) is that card, "
                        "a rank (K) any of its suits")
    a.add_argument("--melds", default=None, metavar="TEXT", help="\"us: A A A, K K K 2; them: 8 8 8\"")
    a.add_argument("--pile", default=None, metavar="CARDS",
                   help="the pile bottom to top: every card (\"5 7 K\"), '?' for a card not known "
                        "(\"5 7 ? ? K\"), or its top card (\"K\") with --pile-size")
    a.add_argument("--pile-size", type=cu.int_range(1, 110), default=None, metavar="N",
                   help="the pile's size when fewer cards are listed (the others: unknown, under those listed)")
    a.add_argument("--top", default=None, metavar="CARD", help="the pile's top card (must agree with --pile)")
    a.add_argument("--counts", default=None, metavar="L,P,R",
                   help="cards of the left opponent, my partner, the right opponent (default "
                        f"{','.join(map(str, D.ADVICE_COUNTS))})")
    a.add_argument("--known", default=None, metavar="TEXT",
                   help="cards known to be in other hands, e.g. \"1: K K 9; 3: Q\" (1 left opponent, 2 partner, "
                        "3 right opponent)")
    a.add_argument("--thrown", default=None, metavar="TEXT",
                   help="cards each player discarded this hand, e.g. \"1: 9 5; 3: Q\" (0 me, 1 left opponent, "
                        "2 partner, 3 right opponent): heuristic2 and lookahead remember them")
    red3 = ",".join(map(str, D.ADVICE_RED3))
    a.add_argument("--red3", default=None, metavar="US,THEM", help=f"red 3s laid by each side (default {red3})")
    a.add_argument("--decision", type=cu.choice(*D.ADVICE_DECISIONS), default=None,
                   metavar="|".join(D.ADVICE_DECISIONS),
                   help="take the pile or not (my hand after the draw), which card to discard, go out now or "
                        "stay in, lay a new meld now or hold; default: take when --pile is given, else discard")
    a.add_argument("--options", default=None, metavar="A,B",
                   help="only these options, as printed (a discard: its card), e.g. \"K,9\"")
    a.add_argument("--turn", type=cu.int_range(0, 10_000), default=D.ADVICE_TURN, metavar="N",
                   help="table turns played before mine; the cards out must add up to it (default: not "
                        f"checked; the play-outs take it as {D.ASSUMED_TURN}, past every first turn)")
    a.add_argument("--score", default=None, metavar="US,THEM",
                   help="the game score before the hand, ours then theirs, e.g. 6200,5400: ranks the options by "
                        "P(we win the game) after this hand (the game equity table's where the hand does not end "
                        "the game), points beside")
    a.add_argument("--policies", default=D.DEFAULT_ADVICE_POLICIES, metavar="P[,P...]",
                   help=f"who plays the play-outs, every seat mine included (default {D.DEFAULT_ADVICE_POLICIES}): "
                        "random | heuristic | heuristic2 | lookahead (slow: give --samples 100), one for every seat "
                        "or four comma-separated (seat 0 = me)")
    a.add_argument("--wide", action="store_true",
                   help="every figure of each option: every interval and both differences to the best, in lines "
                        "as wide as they need (default: at most 100 columns)")
    a.add_argument("--margin", type=_margin, default=D.ADVISE_MARGIN, metavar="M[,P]",
                   help=f"equal for the verdict: options within M points a hand of each other (default "
                   f"{D.ADVISE_MARGIN[0]:g}), or ranked by P(we win the game) within P "
                   f"(default {D.ADVISE_MARGIN[1]:g})")
    a.add_argument("--budget-seconds", type=cu.positive_float(0.0, 86_400.0, " (seconds)"), default=D.ADVISE_SECONDS,
                   metavar="S", help="without --samples: start no round that would end after S seconds "
                   f"(default {D.ADVISE_SECONDS:g}); a verdict cut short names --budget-rounds, which repeats it "
                   "exactly")
    a.add_argument("--budget-rounds", type=cu.int_range(1, D.ADVISE_ROUNDS), default=None, metavar="R",
                   help=f"without --samples: play at most R rounds of deals ({D.ADVISE_ROUND_WORLDS}, "
                   f"{2 * D.ADVISE_ROUND_WORLDS}, ...; at most {D.ADVISE_ROUNDS}), whatever the time: the same answer "
                   "on any machine")
    _house_flags(a)
    cu.add_run_options(a, "a verdict: rounds of deals until one option is best, the options left are equal within "
                       "--margin, or --budget-seconds ends; N: every option on N deals", unit="sampled deals",
                       precision_in="simulate until the paired margin difference between the best two options by "
                                    "points is known to ±H points (95%%; H >= 1)")
    a.set_defaults(func=_advise)


def _margin(text: str) -> tuple[float, float]:
    """Type of ``--margin``: points a hand, and after a comma the margin of P(we win the game)."""
    import argparse

    parts = text.split(",")
    try:
        values = [float(x) for x in parts]
    except ValueError:
        values = []
    if len(values) not in (1, 2) or len(values) != len(parts) or not all(0 <= v < 1e9 for v in values) \
            or (len(values) == 2 and values[1] > 1):
        raise argparse.ArgumentTypeError(f"{cu.shorten(text)} must be points >= 0, or points and a P(win) in 0..1 "
                                         f"after a comma, e.g. {D.ADVISE_MARGIN[0]:g} or "
                                         f"{D.ADVISE_MARGIN[0]:g},{D.ADVISE_MARGIN[1]:g}")
    return values[0], values[1] if len(values) == 2 else D.ADVISE_MARGIN[1]


def _review_parser(csub) -> None:
    """Replays a hand from its record (what 'cardodds canasta trace' prints, or the same typed by
    hand) and rates each decision of --seat (take the pile or leave it, each new meld or hold, go out
    or stay in, the discard) against the advisor's options, played out on the position as that seat
    knew it then: the cost of the move made against the best in points (and in P(we win the game)
    with the game score), with its interval, and a rating (good, inaccuracy, mistake, blunder;
    'about' when --budget-seconds ended before it was clear). A move the rules forbid is reported
    at its line."""
    r = cu.command(csub, "review", _review_parser,
                   "every decision of a seat in a played hand, rated against the advisor's options")
    cu.add_review_options(r, "canasta", (D.REVIEW_SECONDS, D.ADVISE_ROUNDS), "sampled deals a decision")
    r.add_argument("--score", default=None, metavar="S0,S1",
                   help="the game score before the hand, side 0 (seats 0+2) then side 1, e.g. 6200,5400 (default: "
                        "the record's 'score:' line, else none): ranks the options by P(we win the game) after the "
                        "hand (the game equity), points beside")
    r.add_argument("--policies", default=D.DEFAULT_ADVICE_POLICIES, metavar="P[,P...]",
                   help=f"who plays the options out, every seat the reviewed one's included (default "
                        f"{D.DEFAULT_ADVICE_POLICIES}): random | heuristic | heuristic2 | lookahead (slow: give "
                        "--samples 50), one for every seat or four comma-separated (seat 0 = the reviewed seat)")
    _house_flags(r)
    r.set_defaults(func=_review)


def _table_parser(csub) -> None:
    """Strategy tables, as blackjack's basic strategy chart: each cell a situation, the best action
    in it and its paired margin over the next best (95% interval), from positions drawn from hands
    played by heuristic2 and every action played out on the same deal. take: leave the pile or take
    it, by the pile's size, a wild or a black 3 in it, how the top card fits, whether our side has
    opened. out: stay in or go out, by both sides' canastas and the cards the opponents hold.
    out-game: the same with both game totals near the target, valued by the game equity after the
    hand. discard: which kind of card to throw the next player, by the pile, the next player's
    cards and whether we hold a black 3. Without --build: the shipped tables (the default rules);
    --build computes them (minutes at the shipped precision)."""
    t = cu.command(csub, "table", _table_parser,
                   "strategy tables: take the pile, go out, what to discard, the best action in each situation")
    t.add_argument("names", nargs="*", metavar="NAME", help="tables to show: " + ", ".join(D.STRATEGY_TABLES)
                   + " (default: all)")
    t.add_argument("--build", action="store_true",
                   help="compute the tables (needed for other rules, --samples, --seed, --threads, --policies)")
    t.add_argument("--policies", default=None, metavar="P[,P...]",
                   help="who plays the hands and the play-outs, as for play (default "
                   f"{D.STRATEGY_POLICIES}; with --build)")
    _house_flags(t)
    cu.add_run_options(t, f"{D.STRATEGY_SAMPLES:,}", unit="hands a table", precision_flag=False)
    t.set_defaults(func=_table)
    cu.table_seed(t, D.STRATEGY_SEED)


def table_text(r) -> str:
    return cu.tables_text(r, _rules_words(r.rules, going_out=True))


def _table(args) -> int:
    from .strategy import strategy_table

    res = strategy_table(args.names or None, rules=_play_rules(args), build=args.build, policies=args.policies,
                         samples=args.samples, **cu.run_options(args))
    return cu.emit(args, res, table_text)


def _played_words(r) -> str:
    return f"policies {','.join(r.policies)}; {_rules_words(r.rules, going_out=True)}"


def play_text(r) -> str:
    head = f"Canasta played, side 0 (seats 0+2) moves first ({cu.how(r, 'hands')}; {_played_words(r)})"
    rows = []
    for rnd in (1, 3, 5, 10):
        rows.append((f"opened by round {rnd}",) + tuple(cu.est(r.opened_by_round[s][rnd - 1]) for s in (0, 1)))
    for rnd in (5, 10, 15):
        rows.append((f"first canasta by round {rnd}",) + tuple(cu.est(r.canasta_by_round[s][rnd - 1]) for s in (0, 1)))
    for kind in r.canastas[0]:
        rows.append((f"{kind} canastas a hand",) + tuple(cu.est(r.canastas[s][kind]) for s in (0, 1)))
    rows.append(("pile takes a hand",) + tuple(cu.est(r.pile_takes[s]) for s in (0, 1)))
    rows.append(("hand score",) + tuple(cu.est(r.score[s], 1, sign=True) for s in (0, 1)))
    per_side = cu.table(("figure", "side 0", "side 1"), rows)
    hand = cu.table(("the hand", "estimate"), [
        ("cards taken with the pile", cu.est(r.pile_size, 2)),
        ("ends by going out", cu.est(r.went_out)), ("ends on an empty stock", cu.est(r.stock_out)),
        ("table turns a hand", cu.est(r.end_turn, 1)),
        ("score side 0 - side 1", cu.est(r.score_difference, 1, sign=True))])
    return cu.block(head, r, per_side, hand, *cu.violations(r))


def game_text(r) -> str:
    head = (f"Canasta games to {r.rules.target:,}, side 0 deals first ({cu.how(r, 'games')}; {_played_words(r)})")
    wins = cu.table(("side", "seats", "wins the game"),
                    [(s, f"{s}+{s + 2}", cu.est(e)) for s, e in enumerate(r.win)])
    unfinished = (f"{r.unfinished:,} of {r.games:,} (still open after {r.max_hands} hands; no side wins them)"
                  if r.unfinished else f"0 (every game ended within {r.max_hands} hands)")
    facts = cu.table(None, [("hands a game", cu.est(r.mean_hands, 2)), ("winning margin", cu.est(r.margin, 1)),
                            ("unfinished games", unfinished)])
    return cu.block(head, r, wins, facts, *cu.violations(r))


def house_text(r) -> str:
    head = (f"Canasta house options, each on the same deals as the rules given "
            f"({cu.how(r.base, 'hands')}; {_played_words(r.base)})")
    rows = []
    for name, o in [("rules given", r.base)] + list(r.options.items()):
        ch = r.side0_change.get(name)
        rows.append((name, cu.est(o.opened_by_round[0][4]), cu.est(o.canastas_per_hand[0], 3),
                     cu.est(o.went_out), "" if ch is None else cu.est(ch, 1, sign=True)))
    parts: list = [cu.table(("rules", "side 0 opened by round 5", "side 0 canastas a hand", "ends by going out",
                       "side 0 score change (paired)"), rows)]
    if r.games:
        parts.append(cu.table(("rules (whole games, same seed)", "side dealing first wins", "hands a game"),
                              [(n, cu.est(g.win[0]), cu.est(g.mean_hands, 2)) for n, g in r.games.items()]))
    parts.append("a change whose interval contains 0: no difference at this precision")
    return cu.block(head, r, *parts)


def strength_text(r) -> str:
    return cu.strength_text(r, "sides", 1, *cu.violations(r))


def game_strength_text(r) -> str:
    head = (f"Canasta game strength in games to {r.rules.target:,}, {r.a} against {r.b}, sides swapped on the same "
            f"deals ({cu.how(r, 'game pairs')})")
    verdict = ("no difference at this precision" if r.win.lo <= 0.5 <= r.win.hi
               else f"{r.a if r.win.value > 0.5 else r.b} is stronger")
    facts = cu.table(("figure", "estimate"), [
        (f"{r.a}'s side wins a game", cu.est(r.win)),
        (f"{r.a} minus {r.b}, points a game", cu.est(r.points, 0, sign=True)),
        ("hands a game", cu.est(r.mean_hands, 2))]
        + ([("unfinished games", f"{r.unfinished:,} (still open after {r.max_hands} hands)")] if r.unfinished else []))
    house = cu.rules_line(r.rules, ("target",))
    return cu.block(head, r, *([house] if house else []), facts, verdict, *cu.violations(r))


def advice_text(r, wide: bool = False) -> str:
    """The advice in at most 100 columns (``wide``: every interval, longer lines)."""
    import textwrap

    from .advise import against_words

    win_first = r.ranked_by == "equity"
    by = "P(we win the game) after this hand, points beside" if win_first else "points (our margin this hand)"
    seats = ("me", "left", "partner", "right")
    who = (f"{r.policies[0]} at every seat (mine included)" if len(set(r.policies)) == 1
           else ", ".join(f"{p} ({s})" for p, s in zip(r.policies, seats)))
    head = f"Canasta advice: {r.position.decision}, ranked by {by}"
    equity, win_game = r.figures.get("equity"), r.figures.get("win_game")
    margins, aheads = r.figures["margin"], r.figures["ahead"]
    games = equity if equity is not None else (None,) * len(r.options)
    first = r.best_index

    def pct(e, interval: bool = True) -> str:
        return f"{100 * e.value:.1f}%" + (f" [{100 * e.lo:.1f}, {100 * e.hi:.1f}]" if interval else "")

    d = r.decision
    rounds = d is not None and d.planned_rounds > 1  # in rounds: each option's deals
    deals = [f"{w:,}" for w in r.worlds] if rounds else None

    if wide:
        header = ("option", "our margin, points", "P(our side ahead)") + \
            (() if equity is None else ("P(we win the game)", "P(win with this hand)")) + \
            ("against the best", "points against the best")
        rows = [(o, cu.est(m, 1, sign=True), pct(a)) + (() if g is None else (pct(g), pct(w)))
                + (against_words(r, i, 1), "" if i == first else cu.est(r.difference(i, first, "margin"), 1,
                                                                         sign=True))
                for i, (o, m, a, g, w) in enumerate(zip(r.options, margins, aheads, games,
                                                       win_game or (None,) * len(r.options)))]
    elif win_first:
        header = ("option", "P(we win the game)", "points", "against the best")
        rows = [(o, pct(g), f"{m.value:+.0f}", against_words(r, i))
                for i, (o, m, g) in enumerate(zip(r.options, margins, games))]
    else:
        header = ("option", "our margin, points", "P(ahead)", "against the best")
        rows = [(o, cu.est(m, 0, sign=True), pct(a, False), against_words(r, i))
                for i, (o, m, a) in enumerate(zip(r.options, margins, aheads))]
    if deals is not None:
        header += ("deals",)
        rows = [row + (w,) for row, w in zip(rows, deals)]
    win_words = ("after this hand: 1 where the hand ends the game in our favour, 0 in theirs, else the game "
                 "equity table's at the totals it leaves (either side dealing next)")
    notes = ["points: our side's hand score minus theirs" + ("" if win_first and not wide else
                                                             "; P(ahead): our side scores more this hand")
             + ("" if equity is None else f"; P(we win the game): {win_words}; P(win)s decide, points do "
                "where they are equal")
             + ("; P(win with this hand): our total reaches the target this hand, above theirs" if wide and equity
                is not None else "")]
    verdict = textwrap.wrap(r.verdict, 96, subsequent_indent="  ")
    rules = f"rules: {_rules_words(r.rules, going_out=True)}"
    return cu.block(head, r, f"players: {who}", *textwrap.wrap(_deals_words(r), 96, subsequent_indent="  "),
                    *textwrap.wrap(rules, 96, subsequent_indent="  "), cu.table(header, rows),
                    *(textwrap.wrap(notes[0], 96, subsequent_indent="  ")), *verdict)


def _deals_words(r) -> str:
    """How the options were played out: in rounds until a verdict, or every option on the same deals."""
    d = r.decision
    if d is None or d.planned_rounds == 1:
        return cu.how(r, "sampled deals")
    cut = f"; cut by the budget: --budget-rounds {d.rounds} repeats it" if d.budget_limited else ""
    rounds = f"{d.rounds} round" + "s" * (d.rounds != 1)
    return f"{r.samples:,} sampled deals in {rounds}, seed {r.seed} (an option shown to lose is played no more{cut})"


def _trace(args) -> int:
    from .play import trace

    return cu.emit(args, trace(args.policies, rules=_play_rules(args), rng=args.seed, score=args.score), str)


def _play(args) -> int:
    from .._two_process_compile import two_processes
    from .play import play

    with two_processes("canasta play"):
        res = play(args.policies, rules=_play_rules(args), check=args.check, **cu.run_size(args),
                   **cu.run_options(args))
    return cu.emit(args, res, play_text)


def _game(args) -> int:
    from .play import game

    res = game(args.policies, rules=_play_rules(args), max_hands=args.max_deals, check=args.check,
               **cu.run_size(args), **cu.run_options(args))
    return cu.emit(args, res, game_text)


def _players(args) -> None:
    """``A`` and ``B`` checked, each error naming the policy it is about."""
    from .policies import resolve_policies

    for flag, name in (("A", args.a), ("B", args.b)):
        cu.about(f"policy {flag}", name, resolve_policies, name)


def _strength(args) -> int:
    from .play import strength

    _players(args)
    res = strength(args.a, args.b, rules=_play_rules(args), samples=args.samples, check=args.check,
                   **cu.run_options(args))
    return cu.emit(args, res, strength_text)


def _game_strength(args) -> int:
    from .play import game_strength

    _players(args)
    res = game_strength(args.a, args.b, rules=_play_rules(args), samples=args.samples, max_hands=args.max_deals,
                        check=args.check, **cu.run_options(args))
    return cu.emit(args, res, game_strength_text)


def _house_options(args) -> int:
    from ..engine import defer_interrupts
    from .play import house_options

    with defer_interrupts():  # Ctrl-C stops the runs, never the code between them or the printing
        res = house_options(args.policies, rules=_play_rules(args), samples=args.samples, check=args.check,
                            games=args.games, **cu.run_options(args))
        return cu.emit(args, res, house_text)


def _review(args) -> int:
    from .._two_process_compile import two_processes
    from ..engine import defer_interrupts
    from .review import review

    with defer_interrupts():  # Ctrl-C stops a decision's run, never the code between them or the printing
        seat = int(args.seat) if args.seat.strip().isdecimal() else args.seat  # a seat number, or "all"
        with two_processes("canasta advise"):
            res = review(args.record, seat=seat, rules=_play_rules(args), policies=args.policies,
                         score=args.score, samples=args.samples, **cu.review_budget(args), **cu.run_options(args))
        return cu.review_output(args, res)


def _advise(args) -> int:
    from .._two_process_compile import two_processes
    from .advise import advise
    from .position import Position

    decision = args.decision or ("take" if (args.pile or args.top) else "discard")
    size = {"samples": args.samples} if args.precision is None else {"target_halfwidth": args.precision}
    with two_processes("canasta advise"):
        position = Position(args.hand, melds=args.melds, pile=args.pile, pile_size=args.pile_size, top=args.top,
                            known=args.known, thrown=args.thrown, decision=decision, rules=_play_rules(args),
                            turn=args.turn, options=args.options, score=args.score,
                            **{k: v for k, v in (("counts", args.counts), ("red3", args.red3)) if v is not None})
        res = advise(position, policies=args.policies, margin=args.margin, budget_seconds=args.budget_seconds,
                     budget_rounds=args.budget_rounds, **size, **cu.run_options(args))
    return cu.emit(args, res, lambda r: advice_text(r, args.wide))


# ---- equity -----------------------------------------------------------------------------------
def _add_equity(csub) -> None:
    """P(each side wins the game) from the game score before a hand, read from the game equity
    table: one hand's outcomes measured under the default lineup (each side's score rounded to
    the table's grid), the game solved over the scores (an exact tie at or past the target plays
    another hand). The default rules' table is shipped; other rules' are built on demand and
    cached."""
    e = cu.command(csub, "equity", _add_equity, "what is at stake: P(each side wins the game) from the game score")
    e.add_argument("--score", required=True, metavar="S0,S1",
                   help="the game score before the hand, side 0 (seats 0+2) then side 1, e.g. 6200,5400")
    e.add_argument("--dealer", type=cu.int_range(0, 1), default=None, metavar="0|1",
                   help="who deals the hand: a side (default 0, as in a new game)")
    _house_flags(e)
    cu.add_run_options(e, f"{D.EQUITY_HANDS:,}, or the shipped table", unit="hands measured for a table",
                       precision_flag=False)
    e.set_defaults(func=_equity, draw_seed=False)  # no --seed: the shipped or cached table


def _equity(args) -> int:
    from .equity import equity

    res = equity(args.score, rules=_play_rules(args), dealer=args.dealer, samples=args.samples,
                 **cu.run_options(args))
    return cu.emit(args, res, equity_text)


def equity_text(r) -> str:
    head = (f"Canasta game equity to {r.rules.target:,}: side {r.dealer} deals (side {r.leader} moves first), "
            f"{r.policies} at every seat")
    rows = [(s, f"{s}+{s + 2}", r.score[s], cu.est(e, 3)) for s, e in enumerate(r.win)]
    return cu.block(head, r, cu.table(("side", "seats", "score", "wins the game"), rows), r.made)
