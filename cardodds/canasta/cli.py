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
    add_play_commands(csub)


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


# ---- the played game: play, advise, --trace ------------------------------------------------------------
DEFAULT_PLAY_HANDS = 20_000
DEFAULT_GAMES = 1_000
DEFAULT_ADVICE_SAMPLES = 2_000


def _house_flags(p) -> None:
    p.add_argument("--wild-limit", choices=WILD_LIMITS, default="naturals",
                   help="wilds a meld may hold: naturals (default), three, none")
    p.add_argument("--min-first-meld", type=int, default=30, metavar="P", help="points of a side's first meld (30)")
    p.add_argument("--jokers", type=int, default=4, metavar="J", help="Jokers in the pack: 4 (default) or 6")
    p.add_argument("--going-out", choices=("meld_or_discard", "meld_all"), default="meld_or_discard",
                   help="meld_or_discard (default: the last card may be discarded) or meld_all")
    p.add_argument("--swap-twos", action="store_true", help="a 2 may be swapped out of a meld like a Joker")
    p.add_argument("--out-needs-canasta", action="store_true", help="going out needs a canasta on the side")
    p.add_argument("--target", type=positive_int, default=10_000, metavar="T", help="game total (10,000)")


def _play_rules(args) -> CanastaRules:
    return CanastaRules(jokers=args.jokers, wild_limit=args.wild_limit, min_first_meld=args.min_first_meld,
                        going_out=args.going_out, swap_twos=args.swap_twos,
                        going_out_needs_canasta=args.out_needs_canasta, target=args.target)


def add_play_commands(csub) -> None:
    """``cardodds canasta play`` and ``cardodds canasta advise`` (the game played by four)."""
    p = csub.add_parser("play", help="whole hands and games by four players: opening, canastas, pile, scores",
                        description="Polish Canasta played by four players in two partnerships (RULES.md 3): how "
                                    "soon each side opens and makes a canasta, canastas by kind, pile takes, how "
                                    "hands end, scores; --games for whole games to the target; --house-options "
                                    "for every house option paired with the rules given; --strength A,B for a "
                                    "paired match; --trace for every move of one hand. 95% intervals.")
    p.add_argument("--policies", default="heuristic", metavar="P",
                   help="random | heuristic, one for all seats or four comma-separated (seat 0..3)")
    p.add_argument("--games", action="store_true", help="play whole games to --target instead of single hands")
    p.add_argument("--house-options", action="store_true",
                   help="each house option against the rules given, on the same deals")
    p.add_argument("--strength", default=None, metavar="A,B",
                   help="paired match of player A against player B, e.g. heuristic,random")
    p.add_argument("--trace", action="store_true", help="print every move of one hand (seed --seed)")
    p.add_argument("--check", action="store_true", help="verify the table after every move; report violations")
    _house_flags(p)
    g = p.add_mutually_exclusive_group()
    g.add_argument("--samples", type=positive_int, default=None, metavar="N",
                   help=f"hands (default {DEFAULT_PLAY_HANDS:,}; games {DEFAULT_GAMES:,})")
    g.add_argument("--precision", type=precision, default=None, metavar="H",
                   help="hands until P(side 0 makes a canasta) is known to ±H (95%%)")
    p.add_argument("--seed", type=seed, default=None, metavar="S",
                   help="random seed (same numbers on any thread count)")
    p.add_argument("--threads", type=positive_int, default=None, metavar="T", help="worker threads (default all cores)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    p.set_defaults(func=_play)

    a = csub.add_parser("advise", help="take the pile or not; which card to discard (paired intervals)",
                        description="For my hand (seat 0) and the table: each option of the decision played out "
                                    "by the heuristic players on the same sampled deals (hidden cards drawn from "
                                    "those not seen): our side's expected margin this hand and P(our side "
                                    "ahead); the best option is named only when its paired difference with every "
                                    "other excludes zero.")
    a.add_argument("--hand", required=True, metavar="CARDS", help="my cards, e.g. \"K K 9 9 5 7 Q Jk 3b\"")
    a.add_argument("--melds", default="", metavar="TEXT", help="\"us: A A A, K K K 2; them: 8 8 8\"")
    a.add_argument("--pile", default=None, metavar="CARDS",
                   help="the pile's top card (\"K\"), or all its cards bottom to top (\"5 7 K\")")
    a.add_argument("--pile-size", type=int, default=None, metavar="N",
                   help="pile size when only its top is given")
    a.add_argument("--top", default=None, metavar="CARD", help="the pile's top card (must agree with --pile)")
    a.add_argument("--counts", default="12,12,12", metavar="L,P,R",
                   help="cards of the left opponent, my partner, the right opponent (default 12,12,12)")
    a.add_argument("--red3", default="0,0", metavar="US,THEM", help="red 3s laid by each side (default 0,0)")
    a.add_argument("--decision", choices=("take", "discard"), default=None,
                   help="take (my hand after the draw) or discard; default: take when --pile is given")
    a.add_argument("--turn", type=int, default=8, metavar="N", help="table turns played so far (default 8)")
    _house_flags(a)
    a.add_argument("--samples", type=positive_int, default=DEFAULT_ADVICE_SAMPLES, metavar="N",
                   help=f"sampled deals (default {DEFAULT_ADVICE_SAMPLES:,})")
    a.add_argument("--seed", type=seed, default=None, metavar="S", help="random seed")
    a.add_argument("--threads", type=positive_int, default=None, metavar="T", help="worker threads")
    a.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    a.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    a.set_defaults(func=_advise)


def _ints(text: str, n: int, what: str) -> list[int]:
    try:
        vals = [int(x) for x in text.replace(";", ",").split(",") if x.strip()]
    except ValueError:
        raise ValueError(f"{what} {text!r} must be {n} whole numbers separated by commas") from None
    if len(vals) != n:
        raise ValueError(f"{what} {text!r} must be {n} whole numbers separated by commas")
    return vals


def _show(args, res) -> int:
    if args.json:
        print_json(res.to_dict())
    else:
        print(res)
    return 0


def _play(args) -> int:
    from .play import game, house_options, play, strength, trace

    rules = _play_rules(args)
    if args.trace:
        lines = trace(args.policies, rules, rng=args.seed)
        if args.json:
            print_json({"game": "canasta", "question": "trace", "seed": args.seed, "moves": lines})
        else:
            print("\n".join(lines))
        return 0
    common = dict(rng=args.seed, threads=args.threads, progress=show_progress(args))
    if args.strength:
        parts = [x.strip() for x in args.strength.split(",")]
        if len(parts) != 2:
            raise ValueError(f"--strength {args.strength!r}: give two players, e.g. heuristic,random")
        return _show(args, strength(parts[0], parts[1], rules, samples=args.samples, check=args.check, **common))
    if args.games and not args.house_options:
        if args.precision is not None:
            raise ValueError("--precision applies to hands; give --samples with --games")
        return _show(args, game(args.policies, rules, samples=args.samples or DEFAULT_GAMES, check=args.check,
                                **common))
    if args.house_options:
        if args.precision is not None:
            raise ValueError("--precision applies to single hands; give --samples with --house-options")
        return _show(args, house_options(args.policies, rules, samples=args.samples, check=args.check,
                                         games=DEFAULT_GAMES // 5 if args.games else 0, **common))
    size = {"target_halfwidth": args.precision} if args.precision is not None else \
        {"samples": args.samples or DEFAULT_PLAY_HANDS}
    return _show(args, play(args.policies, rules, check=args.check, **size, **common))


def _advise(args) -> int:
    from .advise import advise

    decision = args.decision or ("take" if (args.pile or args.top) else "discard")
    res = advise(args.hand, melds=args.melds, pile=args.pile, pile_size=args.pile_size, top=args.top,
                 counts=_ints(args.counts, 3, "--counts"), red3=_ints(args.red3, 2, "--red3"), decision=decision,
                 rules=_play_rules(args), turn=args.turn, samples=args.samples, rng=args.seed, threads=args.threads,
                 progress=show_progress(args))
    return _show(args, res)
