"""``cardodds canasta melds|hand``: meld odds from the deal and for a given hand."""

from __future__ import annotations

import argparse

from .._cliutil import positive_int, precision, print_json, seed, show_progress
from .rules import WILD_LIMITS, CanastaRules

DEFAULT_MELD_SAMPLES = 200_000
DEFAULT_HAND_SAMPLES = 100_000


def _turns(text: str) -> int:
    try:
        v = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if not 0 <= v <= 40:
        raise argparse.ArgumentTypeError(f"{text!r} must be 0..40")
    return v


def _rule_options(p) -> None:
    p.add_argument("--wild-limit", choices=WILD_LIMITS, default="naturals",
                   help="wilds a meld may hold: naturals (default; no more wilds than naturals), "
                        "three (at most 3), none")
    p.add_argument("--min-first-meld", type=int, default=30, metavar="P",
                   help="points the first meld must reach (default 30)")
    p.add_argument("--jokers", type=int, default=4, metavar="J", help="Jokers in the pack: 4 (default) or 6")
    p.add_argument("--discard", choices=("keep", "weakest"), default="keep",
                   help="over the draws: keep every card drawn (default; exact possible) or discard the "
                        "weakest card each turn so the hand keeps its size (Monte Carlo only)")


def _size_options(p, default) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument("--exact", action="store_true", help="enumerate exactly instead of simulating")
    g.add_argument("--samples", type=positive_int, default=None, metavar="N",
                   help=f"simulated deals (default {default:,})")
    g.add_argument("--precision", type=precision, default=None, metavar="H",
                   help="simulate until the headline 95%% interval is ±H")
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="random seed; the same seed gives the same numbers on any number of threads")
    p.add_argument("--threads", type=positive_int, default=None, metavar="T", help="worker threads (default all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")


def add_commands(sub) -> None:
    p = sub.add_parser("canasta", help="Polish Canasta: meld odds from the deal and for a hand",
                       description="Polish Canasta (RULES.md 3): first-meld and canasta odds with 95% intervals.")
    csub = p.add_subparsers(dest="canasta_command", metavar="QUESTION")
    p.set_defaults(func=lambda args: (p.print_help(), 2)[1])

    m = csub.add_parser("melds", help="how often a dealt hand can open, by turn; wilds and red 3s",
                        description="Odds for a dealt hand: first meld (every wild limit), by taking the upcard, "
                                    "by turn drawing one card a turn, 7 naturals of a rank, wilds and red 3s "
                                    "per hand and per partnership.")
    m.add_argument("--hand-size", type=positive_int, default=12, metavar="H", help="cards per hand (default 12)")
    m.add_argument("--turns", type=_turns, default=20, metavar="K", help="draws to follow (default 20)")
    _rule_options(m)
    _size_options(m, DEFAULT_MELD_SAMPLES)
    m.set_defaults(func=_melds)

    h = csub.add_parser("hand", help="odds that a given hand opens / holds 7 of a rank by turn k",
                        description="For a given hand: able to lay the first meld, and holding 7 naturals of "
                                    "a rank, after k draws (entry 0 = the hand as given).")
    h.add_argument("--hand", required=True, metavar="CARDS", help="the hand, e.g. \"Ah Ad 2c Jk 7s\" (Joker: Jk or *)")
    h.add_argument("--turns", type=_turns, default=10, metavar="K", help="draws to follow (default 10)")
    _rule_options(h)
    _size_options(h, DEFAULT_HAND_SAMPLES)
    h.set_defaults(func=_hand)


def _rules(args) -> CanastaRules:
    return CanastaRules(jokers=args.jokers, wild_limit=args.wild_limit, min_first_meld=args.min_first_meld)


def _size(args, default):
    if args.exact:
        return {"exact": True}
    if args.precision is not None:
        return {"target_halfwidth": args.precision}
    return {"samples": args.samples or default}


def _melds(args) -> int:
    from .analysis import melds

    res = melds(args.hand_size, _rules(args), turns=args.turns, discard=args.discard, rng=args.seed, threads=args.threads,
                progress=show_progress(args), **_size(args, DEFAULT_MELD_SAMPLES))
    if args.json:
        print_json(res.to_dict())
    else:
        print(res)
    return 0


def _hand(args) -> int:
    from .analysis import hand_odds

    res = hand_odds(args.hand, args.turns, _rules(args), discard=args.discard, rng=args.seed, threads=args.threads,
                    progress=show_progress(args), **_size(args, DEFAULT_HAND_SAMPLES))
    if args.json:
        print_json(res.to_dict())
    else:
        print(res)
    return 0
