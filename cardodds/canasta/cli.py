"""``cardodds canasta melds|hand``: meld odds from the deal and for a given hand."""

from __future__ import annotations

from .. import _cliutil as cu
from .analysis import MAX_TURNS
from .rules import WILD_LIMITS, CanastaRules

#: Highest ``--min-first-meld``: the kernels count meld values up to 400 points.
MAX_FIRST_MELD = 400
_EXACT_HELP = "enumerate exactly instead of simulating"


def _rule_options(p) -> None:
    p.add_argument("--wild-limit", type=cu.choice(*WILD_LIMITS), default="naturals", metavar="naturals|three|none",
                   help="wilds a meld may hold: naturals (default; no more wilds than naturals), "
                        "three (at most 3), none")
    p.add_argument("--min-first-meld", type=cu.int_range(0, MAX_FIRST_MELD, " points (the rules use 30)"), default=30,
                   metavar="P", help=f"points the first meld must reach, 0..{MAX_FIRST_MELD} (default 30)")
    p.add_argument("--jokers", type=cu.int_range(4, 6), default=4, metavar="4|6",
                   help="Jokers in the pack: 4 (default) or 6")
    p.add_argument("--discard", type=cu.choice("keep", "weakest"), default="keep", metavar="keep|weakest",
                   help="over the draws: keep every card drawn (default; exact possible) or discard the "
                        "weakest card each turn so the hand keeps its size (Monte Carlo only)")


def add_commands(sub) -> None:
    p = sub.add_parser("canasta", help="Polish Canasta: meld odds from the deal and for a hand",
                       description="Polish Canasta (RULES.md 3): first-meld and canasta odds with 95% intervals.")
    csub = p.add_subparsers(dest="canasta_command", metavar="QUESTION")
    p.set_defaults(func=cu.help_exit(p))

    m = csub.add_parser("melds", help="how often a dealt hand can open, by turn; wilds and red 3s",
                        description="Odds for a dealt hand: first meld (every wild limit), by taking the upcard, "
                                    "by turn drawing one card a turn, 7 naturals of a rank, wilds and red 3s "
                                    "per hand and per partnership.")
    m.add_argument("--hand-size", type=positive_hand, default=12, metavar="H", help="cards per hand (default 12)")
    m.add_argument("--turns", type=cu.int_range(0, MAX_TURNS), default=20, metavar="K",
                   help=f"draws to follow, 0..{MAX_TURNS} (default 20)")
    _rule_options(m)
    cu.add_run_options(m, "200,000", exact=_EXACT_HELP)
    m.set_defaults(func=_melds)

    h = csub.add_parser("hand", help="odds that a given hand opens / holds 7 of a rank by turn k",
                        description="For a given hand: able to lay the first meld, and holding 7 naturals of "
                                    "a rank, after k draws (entry 0 = the hand as given).")
    h.add_argument("--hand", required=True, metavar="CARDS", help="the hand, e.g. \"Ah Ad 2c Jk 7s\" (Joker: Jk or *)")
    h.add_argument("--turns", type=cu.int_range(0, MAX_TURNS), default=10, metavar="K",
                   help=f"draws to follow, 0..{MAX_TURNS} (default 10)")
    _rule_options(h)
    cu.add_run_options(h, "100,000", unit="samples", exact=_EXACT_HELP)
    h.set_defaults(func=_hand)


positive_hand = cu.int_range(1, 26, " cards (four hands, the upcard and the draws must fit the pack)")


def _rules(args) -> CanastaRules:
    if args.jokers not in (4, 6):
        raise cu.UsageError(f"--jokers {args.jokers} is not a pack the rules know; use 4 (108 cards) or 6 (110)")
    return CanastaRules(jokers=args.jokers, wild_limit=args.wild_limit, min_first_meld=args.min_first_meld)


def _size(args) -> dict:
    if args.exact:
        if args.discard != "keep":
            raise cu.UsageError(f"--discard {args.discard} has no exact answer; drop --exact (Monte Carlo) or use "
                                "--discard keep")
        return {"exact": True}
    return {**cu.run_size(args), **cu.run_options(args)}


def _melds(args) -> int:
    from .analysis import melds

    res = melds(args.hand_size, _rules(args), turns=args.turns, discard=args.discard, **_size(args))
    return cu.emit(args, res, melds_text)


def _hand(args) -> int:
    from .analysis import hand_odds
    from .cards import parse_hand

    rules = _rules(args)
    cu.about("--hand", args.hand, parse_hand, args.hand, jokers=rules.jokers)
    res = hand_odds(args.hand, args.turns, rules, discard=args.discard, **_size(args))
    return cu.emit(args, res, lambda r: hand_text(r, args.hand))


def _rules_words(rules) -> str:
    return f"wild limit {rules.wild_limit}, first meld >= {rules.min_first_meld}, {rules.jokers} Jokers"


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
