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
        description="Each seat's probability of winning a Känä round under the official rules, with 95% intervals. "
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

    adv = ksub.add_parser(
        "advise",
        help="which card should I känä? each option's win probability, the best, and its edge",
        description="Each känä I can make with its win probability (95% interval), played on the same deals, "
        "and the best one, named only when its paired difference to the next best excludes zero. Deals are "
        "sampled consistent with what I know, including what each earlier känä says about that player's "
        "kept cards under the opponents' strategy.",
        epilog="examples:\n  cardodds kana advise --players 4 --variant peek-one --seat 2 --cards '9h ? ?'\n"
        "  cardodds kana advise --players 4 --variant peek-one --seat 2 --cards '9h ? ?' --kanad '5c Kd'\n"
        "  cardodds kana advise --players 3 --variant peek-all --seat 1 --cards '2c 2d Ah' --opponents blind",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(adv)
    adv.add_argument("--variant", choices=("official", "peek-one", "peek-all"), default="peek-one",
                     help="official (nobody looks), peek-one (default) or peek-all")
    adv.add_argument("--seat", type=int, default=0, metavar="S", help="my place in the känä order, 0 = the starter")
    adv.add_argument("--cards", default=None, metavar="CARDS",
                     help="what I know of my three cards, '?' for unseen: '9h ? ?' (peek-one: the peeked card "
                     "first), '9h Kd 2c' (peek-all), '? ? ?' (official)")
    adv.add_argument("--kanad", default=None, metavar="CARDS",
                     help="cards känäd before me that I know, seat 0 first ('5c Kd'; '? Kd' if I missed one)")
    adv.add_argument("--opponents", default="table", metavar="WHO",
                     help="how the others play: table (the equilibrium table, default), blind, or a strategy name "
                     "(threshold:V, kana:RANKS, best-pair, highest-sum, kana-highest, random)")
    cu.add_run_options(adv, 1_000_000)
    adv.set_defaults(func=_advise)

    tab = ksub.add_parser(
        "table",
        help="strategy tables: the best känä for each peeked rank or hand, at equilibrium or vs blind",
        description="For peek-one, the best action for each peeked rank; for peek-all, the best känä for every "
        "three-card rank combination. With --opponents table (default) best responses are iterated until the "
        "table stops changing (an action changes only on a significant paired difference); with blind it is "
        "the best response to players who känä without looking. Each row shows the win probability given the "
        "key against blind opponents and against the table.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tab.add_argument("--variant", choices=("peek-one", "peek-all"), default="peek-one")
    tab.add_argument("--players", default="4", metavar="N|A-B",
                     help="players, or a range such as 2-8 (default 4)")
    tab.add_argument("--opponents", choices=("table", "blind"), default="table")
    cu.add_run_options(tab, 400_000)
    tab.add_argument("--csv", action="store_true", help="print the rows as CSV")
    tab.set_defaults(func=_table)
    add_session_command(ksub)
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


def _advise(args) -> int:
    from .decisions import advise

    rules = rules_from(args, variant=args.variant)
    opponents = args.opponents
    if opponents not in ("table", "blind"):
        from .strategies import parse_strategy

        opponents = parse_strategy(opponents, args.variant)
    size = cu.run_size(args, 1_000_000)
    result = advise(rules=rules, seat=args.seat, cards=args.cards or "? ? ?", kanad=args.kanad,
                    opponents=opponents, rng=args.seed, threads=args.threads, progress=cu.show_progress(args), **size)
    if args.json:
        cu.print_json(result.to_dict())
    else:
        print(result)
    return 0


def _player_range(text: str) -> list[int]:
    try:
        if "-" in text:
            a, b = (int(x) for x in text.split("-", 1))
        else:
            a = b = int(text)
    except ValueError:
        raise ValueError(f"--players {text!r}: give a number or a range such as 2-8") from None
    if not 2 <= a <= b <= 8:
        raise ValueError(f"--players {text!r}: strategy tables are built for 2..8 players (e.g. 2-8)")
    return list(range(a, b + 1))


def _table(args) -> int:
    import sys

    from .decisions import strategy_table

    if args.json and args.csv:
        raise ValueError("choose one of --json and --csv")
    size = cu.run_size(args, 400_000)
    results = []
    for n in _player_range(args.players):
        seed = args.seed if args.seed is not None else None
        results.append(strategy_table(args.variant, n, opponents=args.opponents, rng=seed, threads=args.threads,
                                      progress=cu.show_progress(args), **size))
    if args.json:
        cu.print_json(results[0].to_dict() if len(results) == 1 else {"tables": [r.to_dict() for r in results]})
    elif args.csv:
        import pandas as pd

        frames = []
        for r in results:
            f = r.to_frame().reset_index()
            f.insert(0, "players", r.rules.players)
            frames.append(f)
        pd.concat(frames).to_csv(sys.stdout, index=False, float_format="%.6f")
    else:
        print("\n\n".join(repr(r) for r in results))
    return 0


# ---------------------------------------------------------------------------------------
# cardodds kana session
# ---------------------------------------------------------------------------------------


def add_session_command(ksub) -> None:
    """``cardodds kana session``: whole evenings at one table, the winner starting the next round."""
    p = ksub.add_parser(
        "session",
        help="sessions of many rounds: winnings per round, starts, net after the evening, losing runs",
        description="Play sessions of --rounds rounds at one table; the winner of a round starts the next "
        "(RULES.md 1.1). Per player: share of rounds won, antes won per round (95% intervals, the session as the "
        "unit), the same on the same deals with a rotating starter and the paired difference, how often it "
        "started, its mean net after the session and P(ahead). --samples counts sessions (default 20,000); "
        "--precision H runs until player 0's antes a round are known to ±H.",
        epilog="examples:\n  cardodds kana session --players 4 --variant peek-one "
        "--strategies 'threshold:8,blind,blind,blind' --rounds 100\n"
        "  cardodds kana session --players 3 --rounds 50 --leave-at 20 --samples 10000 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_rule_options(p)
    p.add_argument("--variant", choices=("official", "peek-one", "peek-all"), default=None,
                   help="official, peek-one or peek-all (default: from the strategies; official for blind ones)")
    p.add_argument("--strategies", default="blind", metavar="S1,S2,..",
                   help="one strategy for everybody or one per player, comma-separated: blind, blind-first.., "
                   "threshold:V, kana:RANKS, best-pair, highest-sum, kana-highest, random (default blind)")
    p.add_argument("--rounds", type=cu.positive_int, default=100, metavar="R", help="rounds a session (default 100)")
    p.add_argument("--leave-at", type=cu.positive_int, default=None, metavar="ANTES",
                   help="end a session when a player has lost this many antes")
    p.add_argument("--first", default="random", metavar="P",
                   help="player who starts the first round, 0..N-1, or random (default)")
    cu.add_run_options(p, 20_000)
    p.set_defaults(func=_session)


def _session(args) -> int:
    from .session import DEFAULT_SESSIONS, session

    specs = [s.strip() for s in args.strategies.split(",")]
    if len(specs) not in (1, args.players):
        raise ValueError(f"--strategies lists {len(specs)} strategies for {args.players} players; "
                         "give one for everybody or one per player")
    if args.first == "random":
        first = "random"
    else:
        try:
            first = int(args.first)
        except ValueError:
            raise ValueError(f"--first {args.first!r}: give a player number 0..{args.players - 1} or random") from None
    variant = args.variant
    if variant is None:
        from .decisions import _guess_variant

        variant = _guess_variant(*specs)
    rules = rules_from(args, variant=variant)
    result = session(specs if len(specs) > 1 else specs[0], rules=rules, rounds=args.rounds, leave_at=args.leave_at,
                     first=first, rng=args.seed, threads=args.threads, progress=cu.show_progress(args),
                     **cu.run_size(args, DEFAULT_SESSIONS))
    if args.json:
        cu.print_json(result.to_dict())
    else:
        print(result)
    return 0
