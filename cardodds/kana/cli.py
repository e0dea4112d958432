"""``cardodds kana ...`` commands."""

from __future__ import annotations

import argparse

from .. import _cliutil as cu
from .rules import MAX_PLAYERS, MIN_PLAYERS, KanaRules

DEFAULT_SAMPLES = 2_000_000


def _players(text: str) -> int:
    v = cu.positive_int(text)
    if not MIN_PLAYERS <= v <= MAX_PLAYERS:
        raise argparse.ArgumentTypeError(f"{v} players: Känä is played by {MIN_PLAYERS} to {MAX_PLAYERS}")
    return v


def _ante(text: str) -> float:
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not v > 0:
        raise argparse.ArgumentTypeError(f"{text!r} must be a positive stake, e.g. 0.40")
    return v


def add_rule_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("house rules (RULES.md 1.1; defaults are the official rules' settled defaults)")
    g.add_argument("--players", type=_players, default=4, metavar="N", help="players at the table, 2..17 (default 4)")
    g.add_argument("--ante", type=_ante, default=0.40, metavar="A", help="each player's stake (default 0.40)")
    g.add_argument("--tiebreak-deck", choices=("remaining", "fresh"), default="remaining",
                   help="extra-round cards from the undealt stock (default) or a fresh deck")
    g.add_argument("--extra-round", choices=("tied", "all"), default="tied",
                   help="who plays an extra round after a tie: the tied players (default) or all")
    g.add_argument("--last-round-tie", choices=("earliest", "latest"), default="earliest",
                   help="who starts the last turn round when first-turned cards tie lowest")


def rules_from(args, variant: str = "official") -> KanaRules:
    return KanaRules(players=args.players, variant=variant, ante=args.ante, tiebreak_deck=args.tiebreak_deck,
                     extra_round=args.extra_round, last_round_tie=args.last_round_tie)


def add_commands(sub) -> None:
    kana = sub.add_parser(
        "kana",
        help="Känä: win odds, exact figures, live odds mid-round",
        description="Känä (RULES.md 1): three blind cards, känä one, the two kept cards are summed; two 2s "
        "(Superkänä) beat all.",
    )
    ksub = kana.add_subparsers(dest="command", metavar="COMMAND")
    odds = ksub.add_parser(
        "odds",
        help="each seat's win probability with its interval (Monte Carlo, --exact, or live with --shown)",
        description="Each seat's probability of winning a Känä round under the official rules, with 95%% intervals. "
        "Seats count clockwise from the round's starter (seat 0). With --shown, the odds at that moment of the "
        "round (live odds), counting the extra rounds; they are exact when the unknown cards are few, else "
        "simulated, and the output says which.",
        epilog="examples:\n  cardodds kana odds --players 4\n  cardodds kana odds --players 3 --exact\n"
        "  cardodds kana odds --players 3 --shown '0:5h Ks' --shown '1:2c Qs' --shown '2:9d'\n"
        "  cardodds kana odds --precision 0.001 --seed 1 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(odds)
    odds.add_argument("--exact", action="store_true",
                      help="exact figures by enumeration instead of simulation")
    odds.add_argument("--shown", action="append", default=None, metavar="SEAT:CARDS",
                      help="cards a seat has shown, in order: känäd card, first turned, second turned "
                      "(e.g. '1:5h Ks'); repeat for each seat")
    cu.add_run_options(odds, DEFAULT_SAMPLES)
    odds.set_defaults(func=_odds)
    kana.set_defaults(func=lambda args: _help(kana))


def _help(parser) -> int:
    import sys

    parser.print_help(sys.stderr)
    return 2


def _odds(args) -> int:
    from .analysis import exact_odds, live_odds, odds

    rules = rules_from(args)
    if args.exact and (args.samples or args.precision):
        raise ValueError("--exact computes without sampling; drop --samples/--precision, or drop --exact")
    size = cu.run_size(args, DEFAULT_SAMPLES)
    run = dict(rng=args.seed, threads=args.threads, progress=cu.show_progress(args))
    if args.shown:
        if args.exact:
            result = live_odds(args.shown, rules=rules, method="exact")
        elif args.samples or args.precision:
            result = live_odds(args.shown, rules=rules, method="monte carlo", **size, **run)
        else:
            result = live_odds(args.shown, rules=rules, method="auto", **run)
    elif args.exact:
        result = exact_odds(rules=rules)
    else:
        result = odds(rules=rules, **size, **run)
    if args.json:
        cu.print_json(result.to_dict())
    else:
        print(result)
    return 0
