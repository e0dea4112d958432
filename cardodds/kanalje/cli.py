"""``cardodds kanalje risk|hand|game``: jack risk, what a hand is worth, the game to 21."""

from __future__ import annotations

import argparse
import sys

from .._cliutil import add_run_options, positive_int, print_json, run_size, show_progress
from .policies import DEFAULT_LOOKAHEAD_SAMPLES, POLICIES
from .rules import TURNED_JACK_CHOICES, KanaljeRules

_POL_HELP = (f"players for seats 0,1,2 (0,1 with --players 2): one name for all or a comma list of "
             f"{', '.join(POLICIES)} (default heuristic); seat 0 leads the first trick")


def _common(p: argparse.ArgumentParser, default_samples: int) -> None:
    p.add_argument("--policies", default="heuristic", metavar="P[,P,P]", help=_POL_HELP)
    p.add_argument("--lookahead-samples", type=positive_int, default=DEFAULT_LOOKAHEAD_SAMPLES, metavar="K",
                   help=f"worlds the lookahead player samples per decision (default {DEFAULT_LOOKAHEAD_SAMPLES})")
    p.add_argument("--players", type=int, choices=(2, 3), default=3,
                   help="3 (RULES.md 2.1, default) or 2: the two-phase game of RULES.md 2.2")
    p.add_argument("--turned-jack", choices=TURNED_JACK_CHOICES, default="dead",
                   help="three players: a turned jack takes no part (dead, default) or goes to the last trick's "
                   "winner")
    p.add_argument("--no-phase1-jacks-cost", action="store_true",
                   help="two players: jacks in phase-1 tricks fall dead instead of costing the trick's winner")
    add_run_options(p, default_samples)


def add_commands(sub) -> None:
    p = sub.add_parser("kanalje", help="Kanalje (three or two players): jack risk, hand value, the game to 21",
                       description="Kanalje for three players (RULES.md 2.1) or two (2.2, --players 2).")
    ksub = p.add_subparsers(dest="kanalje_command", metavar="COMMAND", parser_class=type(p))
    p.set_defaults(func=lambda args: (p.print_help(sys.stderr), 2)[1])

    r = ksub.add_parser("risk", help="who takes each jack, and each seat's expected score",
                        description="Probability each seat takes each jack, the holder takes their own jack, "
                        "and each seat's expected score and penalty, with 95% intervals.")
    _common(r, 200_000)
    r.set_defaults(func=_risk)

    h = ksub.add_parser("hand", help="what my 17 (13) cards are worth",
                        description="Expected tricks, penalty and score of a 17-card hand, and the chance of "
                        "taking each jack, with the other 34 cards dealt at random. With --players 2: 13 cards "
                        "and --faceup (phase 1, the whole deal) or --trump (phase 2 alone).")
    h.add_argument("--hand", required=True, metavar="CARDS", help='your 17 cards (13 with two players), e.g. '
                   '"Ah Kh 2c ..."')
    h.add_argument("--turned", metavar="CARD", help="three players: the turned card; its suit is trump")
    h.add_argument("--faceup", metavar="CARD", help="two players, phase 1: the face-up stock card")
    h.add_argument("--trump", metavar="CARD", help="two players, phase 2: the dead phase-1 card that named trump")
    h.add_argument("--seat", type=int, default=0, metavar="S", help="your seat: 0 leads the first trick (default 0)")
    _common(h, 100_000)
    h.set_defaults(func=_hand)

    g = ksub.add_parser("game", help="who wins the game to 21",
                        description="Probability each seat wins the game to 21 (highest total once somebody "
                        "reaches it; a tie at the top plays on) and the number of deals it takes.")
    g.add_argument("--target", type=positive_int, default=21, metavar="PTS", help="points that end the game (21)")
    _common(g, 10_000)
    g.set_defaults(func=_game)


def _rules(args) -> KanaljeRules:
    return KanaljeRules(players=args.players, turned_jack=args.turned_jack, target=getattr(args, "target", 21),
                        phase1_jacks_cost=not args.no_phase1_jacks_cost)


def _risk(args) -> int:
    from .analysis import jack_risk

    res = jack_risk(args.policies, rules=_rules(args), lookahead_samples=args.lookahead_samples, rng=args.seed,
                    threads=args.threads, progress=show_progress(args), **_size(args, 200_000, 2_000))
    return _show(args, res)


def _hand(args) -> int:
    from .analysis import evaluate_hand

    res = evaluate_hand(args.hand, args.turned, faceup=args.faceup, trump=args.trump, seat=args.seat,
                        policies=args.policies, rules=_rules(args),
                        lookahead_samples=args.lookahead_samples, rng=args.seed, threads=args.threads,
                        progress=show_progress(args), **_size(args, 100_000, 1_000))
    return _show(args, res)


def _game(args) -> int:
    from .analysis import game_odds

    res = game_odds(args.policies, rules=_rules(args), lookahead_samples=args.lookahead_samples, rng=args.seed,
                    threads=args.threads, progress=show_progress(args), **_size(args, 10_000, 100))
    return _show(args, res)


def _show(args, res) -> int:
    if args.json:
        print_json(res.to_dict())
    else:
        print(repr(res))
    return 0


def _size(args, fast: int, slow: int) -> dict:
    """``samples=`` / ``target_halfwidth=``; the default is smaller with a look-ahead player."""
    return run_size(args, slow if "lookahead" in args.policies.lower() else fast)
