"""``cardodds kana odds|advise|table|session|trace|review``."""

from __future__ import annotations

import argparse
import math

from .. import _cliutil as cu
from ..cards import card_str, format_cards
from ..engine import InOrder, defer_interrupts
from ..stats import Estimate
from ._defaults import ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, ADVISE_SECONDS
from ._defaults import ADVISE_VARIANT, ODDS_SAMPLES, OPPONENTS, SESSION_POLICIES, SESSION_ROUNDS, TRACE_ROUNDS
from ._defaults import DECISION_SAMPLES as ADVISE_SAMPLES
from ._defaults import REVIEW_SECONDS, SESSION_SAMPLES, TABLE_PLAYERS, TABLE_PLAYERS_DEFAULT, TABLE_SAMPLES
from ._defaults import TABLE_VARIANT
from .rules import MAX_PLAYERS, VARIANTS, KanaRules

def add_rule_options(p: argparse.ArgumentParser) -> None:
    """A flag a field of :class:`KanaRules` but ``variant``, which each command declares (:func:`_variant_option`)."""
    cu.add_rules_flags(p, KanaRules, skip=("variant",),
                       title="house rules (docs/rules/kana.md; defaults are the official rules' settled defaults)")


def _variant_option(p: argparse.ArgumentParser, choices: tuple[str, ...], default: str | None, help: str) -> None:
    p.add_argument("--variant", type=cu.choice(*choices), default=default, metavar="|".join(choices), help=help)


def rules_from(args, variant: str = "official") -> KanaRules:
    return cu.rules_of(args, KanaRules, variant=variant)


def _rules_words(rules) -> str:
    """The rules a header names beside the players and the variant: those that differ from the default."""
    from .._fields import rules_words

    words = rules_words(rules, ("players", "variant"))
    return f", {words}" if words else ""


def _examples(*lines: str) -> dict:
    return {"epilog": "examples:\n" + "\n".join(f"  cardodds kana {x}" for x in lines),
            "formatter_class": argparse.RawDescriptionHelpFormatter}


def add_commands(sub) -> None:
    """Känä (docs/rules/kana.md): three blind cards, känä one, the two kept cards are summed; two 2s
    (Superkänä) beat all."""
    kana = cu.command(sub, "kana", add_commands, "Känä: win odds, exact figures, live odds mid-round")
    ksub = kana.add_subparsers(dest="command", metavar="COMMAND")
    kana.set_defaults(func=cu.help_exit(kana))
    for add in (_add_odds, _add_advise, _add_table, add_session_command, add_trace_command, add_review_command):
        add(ksub)


def _add_odds(ksub) -> None:
    """Each seat's probability of winning a Känä round under the official rules, with 95% intervals.
    Seats count clockwise from the round's starter (seat 0). With --shown, the odds at that moment
    of the round (live odds), counting the extra rounds; they are exact when the unknown cards are
    few, else simulated, and the output says which."""
    odds = cu.command(ksub, "odds", _add_odds,
                      "each seat's win probability with its interval (Monte Carlo, --exact, or live with --shown)",
                      **_examples("odds --players 4", "odds --players 3 --exact",
                                  "odds --players 3 --shown '0:5h Ks' --shown '1:2c Qs' --shown '2:9d'",
                                  "odds --precision 0.001 --seed 1 --json"))
    add_rule_options(odds)
    odds.add_argument("--shown", action="append", default=None, metavar="SEAT:CARDS",
                      help="cards a seat has shown, in order: känäd card, first turned, second turned "
                      "(e.g. '1:5h Ks'); repeat for each seat")
    cu.add_run_options(odds, f"{ODDS_SAMPLES:,}", unit="rounds", exact=cu.EXACT_HELP)
    odds.set_defaults(func=_odds)


def _add_advise(ksub) -> None:
    """Each känä I can make with its win probability (95% interval), played on the same deals, and
    the verdict in antes: the best känä, the känäs equal within --margin, or none better at this
    precision, with what a känä shown to lose costs. Deals are sampled consistent with what I
    know, including what each earlier känä says about that player's kept cards under the
    opponents' strategy."""
    adv = cu.command(ksub, "advise", _add_advise,
                     "which card should I känä? each option's win probability, the best, and its edge",
                     **_examples("advise --players 4 --variant peek-one --seat 2 --hand '9h ? ?'",
                                 "advise --players 4 --variant peek-one --seat 2 --hand '9h ? ?' --kanad '5c Kd'",
                                 "advise --players 3 --variant peek-all --seat 1 --hand '2c 2d Ah' --policies blind"))
    add_rule_options(adv)
    _variant_option(adv, VARIANTS, ADVISE_VARIANT, f"official (nobody looks), peek-one or peek-all (default "
                    f"{ADVISE_VARIANT})")
    adv.add_argument("--seat", type=cu.int_range(0, MAX_PLAYERS - 1), default=0, metavar="S",
                     help="my seat: my place in the känä order, 0 = the starter")
    adv.add_argument("--hand", default=None, metavar="CARDS",
                     help="my hand as I know it, three cards, '?' for unseen: '9h ? ?' (peek-one: the peeked card "
                     "first), '9h Kd 2c' (peek-all), '? ? ?' (official)")
    adv.add_argument("--kanad", default=None, metavar="CARDS",
                     help="cards känäd before me that I know, seat 0 first ('5c Kd'; '? Kd' if I missed one)")
    adv.add_argument("--policies", default=OPPONENTS, metavar="WHO",
                     help="who plays the other seats: table (the equilibrium table, default), blind, or a policy name "
                     "(threshold:V, kana:RANKS, best-pair, highest-sum, kana-highest, random)")
    adv.add_argument("--margin", type=cu.positive_float(0.0, float(MAX_PLAYERS), " (antes)"), default=ADVISE_MARGIN,
                     metavar="M", help=f"equal for the verdict: känäs within M antes a round of each other "
                     f"(default {ADVISE_MARGIN})")
    adv.add_argument("--budget-seconds", type=cu.positive_float(0.0, 86_400.0, " (seconds)"), default=ADVISE_SECONDS,
                     metavar="S", help="without --samples: start no round that would end after S seconds "
                     f"(default {ADVISE_SECONDS:g}); a verdict cut short names --budget-rounds, which repeats it "
                     "exactly")
    adv.add_argument("--budget-rounds", type=cu.int_range(1, ADVISE_ROUNDS), default=None, metavar="R",
                     help=f"without --samples: play at most R rounds of deals ({ADVISE_ROUND_WORLDS:,}, "
                     f"{2 * ADVISE_ROUND_WORLDS:,}, ...; at most {ADVISE_ROUNDS}), whatever the time: the same "
                     "answer on any machine")
    cu.add_run_options(adv, "a verdict: rounds of deals until one känä is best, the känäs left are equal within "
                       f"--margin, or --budget-seconds ends ({ADVISE_SAMPLES:,} when every känä is one by the "
                       "rules); N: every känä on N deals")
    adv.set_defaults(func=_advise)


def _add_table(ksub) -> None:
    """For peek-one, the best action for each peeked rank; for peek-all, the best känä for every
    three-card rank combination. With --policies table (default) best responses are iterated until
    the table stops changing (an action changes only on a significant paired difference); with blind
    it is the best response to players who känä without looking. Each row shows the win probability
    given the key against blind opponents and against the table."""
    tab = cu.command(ksub, "table", _add_table,
                     "strategy tables: the best känä for each peeked rank or hand, at equilibrium or vs blind",
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    _variant_option(tab, VARIANTS[1:], TABLE_VARIANT, f"peek-one or peek-all (default {TABLE_VARIANT})")
    tab.add_argument("--players", type=_player_range, default=[TABLE_PLAYERS_DEFAULT], metavar="N|A-B",
                     help=f"players at the table, or a range such as 2-8 ({TABLE_PLAYERS[0]}..{TABLE_PLAYERS[1]}; "
                     f"default {TABLE_PLAYERS_DEFAULT})")
    tab.add_argument("--policies", type=cu.choice("table", "blind"), default=OPPONENTS, metavar="table|blind",
                     help="who plays the other seats: the table itself (default), iterated to equilibrium, or blind")
    cu.add_run_options(tab, f"{TABLE_SAMPLES:,} a step", unit="rounds")
    tab.add_argument("--csv", action="store_true", help="print the rows as CSV (the JSON rows' names)")
    tab.set_defaults(func=_table)


def _player_range(text: str) -> list[int]:
    lo_, hi_ = TABLE_PLAYERS
    parts = text.split("-", 1) if "-" in text.strip()[1:] else [text]
    try:
        a, b = (int(x) for x in (parts if len(parts) == 2 else parts * 2))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{cu.shorten(repr(text))}: give a number or a range such as "
                                         f"{lo_}-{hi_}") from None
    if not lo_ <= a <= b <= hi_:
        raise argparse.ArgumentTypeError(f"{cu.shorten(text)}: strategy tables are built for {lo_}..{hi_} "
                                         f"players (e.g. {lo_}-{hi_})")
    return list(range(a, b + 1))


# ---- handlers -------------------------------------------------------------------------------
def _odds(args) -> int:
    from .analysis import exact_odds, live_odds, odds, parse_shown

    rules = rules_from(args)
    size = cu.run_size(args)
    run = cu.run_options(args)
    if args.shown:
        for entry in args.shown:
            seat, colon, cards = entry.partition(":")
            if colon and seat.strip() and not cards.strip():
                raise cu.UsageError(f"--shown {cu.shorten(repr(entry))} names no card; give the seat's shown "
                                    "cards in order, e.g. '1:5h Ks'")
            cu.about("--shown", entry, parse_shown, [entry], rules.players)
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
    return cu.emit(args, result, odds_text)


def odds_text(r) -> str:
    from .analysis import ROLES

    head = f"Känä, {r.players} players, {r.rules.variant} rules{_rules_words(r.rules)} ({cu.how(r, 'rounds')})"
    lines: list[str] = []
    if r.strategies:
        lines.append("strategies: " + ", ".join(r.strategies))
    for s, cards in r.shown.items():
        lines.append(f"seat {s} shows: " + ", ".join(f"{ROLES[j]} {card_str(c)}" for j, c in enumerate(cards)))
    seats = cu.table(("seat", "win (95% interval)", "net per round"),
                     [(s, cu.est(w), cu.est(g, sign=True)) for s, (w, g) in enumerate(zip(r.win, r.net))])
    round_rows = [("extra round needed", cu.est(r.extra_round)), ("seat 0 Superkänä", cu.est(r.superkana))]
    if r.extra_rounds_per_round is not None:
        round_rows.append(("extra rounds per round", cu.est(r.extra_rounds_per_round)))
    return cu.block(head, r, *lines, seats, cu.table(("the round", "value (95% interval)"), round_rows))


def _advise(args) -> int:
    from .advise import Position, advise

    rules = rules_from(args, variant=args.variant)
    if args.seat >= rules.players:
        raise cu.UsageError(f"--seat {args.seat} is outside 0..{rules.players - 1} for {rules.players} players")
    from ..cards import parse_cards

    if args.hand is None and args.variant != "official":
        example = "'9h ? ?' (the peeked card first)" if args.variant == "peek-one" else "'9h Kd 2c'"
        raise cu.UsageError(f"--hand is needed with --variant {args.variant}: what I know of my cards, e.g. {example}")
    for flag, text in (("--hand", args.hand), ("--kanad", args.kanad)):
        if text is not None:
            cu.about(flag, text, parse_cards, text, allow_unknown=True)
    policies = args.policies
    if policies not in ("table", "blind"):
        from .policies import parse_policy

        policies = cu.about("--policies", policies, parse_policy, policies, args.variant)
    position = Position(args.hand or "? ? ?", seat=args.seat, kanad=args.kanad)
    result = advise(position, policies=policies, rules=rules, margin=args.margin, budget_seconds=args.budget_seconds,
                    budget_rounds=args.budget_rounds, **cu.run_size(args), **cu.run_options(args))
    return cu.emit(args, result, advice_text)


def _deals_words(a) -> str:
    """How the options were played out: exactly, in rounds until a verdict, or all on the same deals."""
    d = a.decision
    if d is None or d.planned_rounds == 1:
        return cu.how(a)
    cut = f"; cut short by the budget: --budget-rounds {d.rounds} repeats it" if d.budget_limited else ""
    rounds = "1 round" if d.rounds == 1 else f"{d.rounds} rounds"
    return f"{a.samples:,} deals in {rounds}, seed {a.seed}; a känä shown to lose is played no more{cut}"


def advice_text(a) -> str:
    r = a.rules
    p = a.position
    seen = ", ".join(f"seat {s} känäd {card_str(c)}" for s, c in p.kanad_by_seat.items()) or "none known"
    head = f"Känä {r.variant}, {r.players} players{_rules_words(r)}: seat {p.seat}'s känä ({_deals_words(a)})"
    facts = cu.table(None, [("my cards", format_cards(p.hand)), ("känäd before me", seen),
                                ("policies", ",".join(a.policies))])
    worlds = a.worlds
    options = cu.table(("känä", "win (95% interval)") + (() if worlds is None else ("deals",)),
                       [(k, cu.est(e)) + (() if worlds is None else (f"{worlds[i]:,}",))
                        for i, (k, e) in enumerate(zip(a.options, a.value))])
    first = a.best_index
    runner = max((j for j in range(len(a.options)) if j != first), key=lambda j: a.value[j].value)
    verdict = cu.table(None, [("best - next best (paired)", cu.est(a.difference(first, runner), sign=True)),
                                  ("verdict", a.verdict)])
    return cu.block(head, a, facts, options, verdict)


def _table(args) -> int:
    if args.json and args.csv:
        raise cu.UsageError("choose one of --json and --csv")
    with defer_interrupts():  # Ctrl-C stops the runs, never the code that builds or prints the tables
        return _tables(args)


def _tables(args) -> int:
    from .decisions import strategy_table

    # One table per player count; an interrupted one ends the list (later counts absent).
    steps = InOrder()
    results = []
    for n in args.players:
        t = steps.step(strategy_table, args.variant, n, opponents=args.policies, **cu.run_size(args),
                       **cu.run_options(args))
        if t is None:
            break
        results.append(t)
    if args.csv:
        cu.write_out(table_csv(results))
        return 130 if cu.is_partial(results) else 0
    if len(results) == 1:
        return cu.emit(args, results[0], table_text, table_dict)
    return cu.emit(args, results, tables_text, tables_dict)


def _row_estimates(row: dict):
    def value(v: dict, p: str) -> float:
        return math.nan if v[p] is None else float(v[p])

    return {k: Estimate(value(v, "value"), value(v, "se"), value(v, "lo"), value(v, "hi"), 1)
            for k, v in row.items() if isinstance(v, dict)}


def _est(e: Estimate, sign: bool = False) -> str:
    """An estimate, or "not reached" for a figure an interruption left uncounted."""
    return "not reached" if math.isnan(e.value) else cu.est(e, sign=sign)


def table_dict(t) -> dict:
    d = t.to_dict()
    d.setdefault("partial", bool(getattr(t, "partial", False)))
    return d


def tables_dict(ts) -> dict:
    """Several player counts: their tables, and the keys every JSON object carries."""
    first = ts[0]
    return {"tables": [table_dict(t) for t in ts], "samples": first.samples, "seed": first.seed,
            "partial": any(getattr(t, "partial", False) for t in ts), "rules": [t.rules.to_dict() for t in ts],
            "version": first.version}


def tables_text(ts) -> str:
    """Several player counts: their tables one after another."""
    return "\n\n".join(table_text(t) for t in ts)


def table_csv(ts) -> str:
    """One CSV row per key: ``players`` and the JSON row's names, an estimate ``x`` as
    ``x``, ``x_se``, ``x_lo``, ``x_hi``."""
    import csv
    import io

    buf = io.StringIO()
    writer = None
    for t in ts:
        for row in t.to_dict()["rows"]:
            flat: dict = {"players": t.rules.players}
            for k, v in row.items():
                if isinstance(v, dict):
                    flat[k] = f"{v['value']:.6f}"
                    for part in ("se", "lo", "hi"):
                        flat[f"{k}_{part}"] = f"{v[part]:.6f}"
                else:
                    flat[k] = v
            if writer is None:
                writer = csv.DictWriter(buf, fieldnames=list(flat), lineterminator="\n")
                writer.writeheader()
            writer.writerow(flat)
    return buf.getvalue()


def table_text(t) -> str:
    r = t.rules
    its = f"{t.iterations} best-response iteration{'' if t.iterations == 1 else 's'}"
    head = (f"Känä {r.variant} strategy table, {r.players} players{_rules_words(r)} (Monte Carlo, "
            f"{t.samples:,} rounds a step, "
            f"seed {t.seed}; {its}{'' if t.converged else ', NOT converged'})")
    rows = []
    for row in t.to_dict()["rows"]:
        e = _row_estimates(row)
        rows.append((row["key"], row["action"], _est(e["win_vs_blind"]), _est(e["win_at_table"]),
                     _est(e["difference"], sign=True)))
    body = cu.table(("key", "action", "win vs blind", "win at the table", "best - next best"), rows)
    summary = cu.table(("", "win", "EV (antes)"), [
        ("table vs blind opponents", _est(t.win_vs_blind), _est(t.ev_vs_blind, sign=True)),
        ("table vs itself", _est(t.win_at_table), _est(t.ev_at_table, sign=True))])
    return cu.block(head, t, body, summary)


# ---------------------------------------------------------------------------------------
# cardodds kana session
# ---------------------------------------------------------------------------------------


def add_session_command(ksub) -> None:
    """Play sessions of --rounds rounds at one table; the winner of a round starts the next
    (docs/rules/kana.md §2.2). Per player: share of rounds won, antes won per round (95%
    intervals, the session as the unit), the same on the same deals with a rotating starter and
    the paired difference, how often it started, its mean net after the session and P(ahead).
    --samples counts sessions (default 20,000); --precision H runs until player 0's antes a round
    are known to ±H."""
    p = cu.command(ksub, "session", add_session_command,
                   "sessions of many rounds: winnings per round, starts, net after the evening, losing runs",
                   **_examples("session --players 4 --variant peek-one --policies 'threshold:8,blind,blind,blind' "
                               "--rounds 100", "session --players 3 --rounds 50 --leave-at 20 --samples 10000 --json"))
    _evening_options(p, SESSION_ROUNDS)
    cu.add_run_options(p, f"{SESSION_SAMPLES:,}", unit="sessions")
    p.set_defaults(func=_session)


def _evening_options(p: argparse.ArgumentParser, rounds: int) -> None:
    """The table of a ``session`` or ``trace`` command: rules, variant, policies, rounds, leaving, first starter."""
    add_rule_options(p)
    _variant_option(p, VARIANTS, None, "official, peek-one or peek-all (default: from the policies; official for "
                    "blind ones)")
    p.add_argument("--policies", default=SESSION_POLICIES, metavar="P[,P...]",
                   help="who plays: one policy for every seat or one a seat, comma-separated: blind, blind-first.., "
                   "threshold:V, kana:RANKS, best-pair, highest-sum, kana-highest, random "
                   f"(default {SESSION_POLICIES})")
    p.add_argument("--rounds", type=cu.positive_int, default=rounds, metavar="R",
                   help=f"rounds a session (default {rounds})")
    p.add_argument("--leave-at", type=cu.positive_int, default=None, metavar="ANTES",
                   help="end a session when a player has lost this many antes")
    p.add_argument("--first-player", default="random", metavar="P",
                   help="who moves first: the player who starts the first round, 0..N-1, or random (default)")


def add_trace_command(ksub) -> None:
    """One evening of --rounds rounds at one table (seed --seed): each seat's three cards as dealt
    (and in peek-one the one it peeked), each seat's känä in turn from the round's starter, then
    the round's winner, who starts the next; the net antes last. The text reads back
    (cardodds.trace.Trace.parse) and is the record 'cardodds kana review' rates."""
    p = cu.command(ksub, "trace", add_trace_command, "every round of one evening, as a record that reads back")
    _evening_options(p, TRACE_ROUNDS)
    cu.add_trace_options(p)
    p.set_defaults(func=_trace)


def _trace(args) -> int:
    from .session import trace

    specs, first, rules = _evening(args, args.policies)
    t = trace(specs if len(specs) > 1 else specs[0], rules=rules, rounds=args.rounds, leave_at=args.leave_at,
              first=first, rng=args.seed)
    return cu.emit(args, t, str)


def _evening(args, lineup: str) -> tuple[list[str], int | str, KanaRules]:
    """The policies, the first starter and the rules of a ``session`` or ``trace`` command."""
    specs = [s.strip() for s in lineup.split(",")]
    if len(specs) not in (1, rules_from(args).players):
        raise cu.UsageError(f"--policies lists {len(specs)} policies for {rules_from(args).players} players; "
                            "give one for everybody or one per player")
    first: int | str = "random"
    players = rules_from(args).players
    if args.first_player != "random":
        try:
            first = int(args.first_player)
        except ValueError:
            first = -1
        if not 0 <= first < players:
            raise cu.UsageError(f"--first-player {cu.shorten(repr(args.first_player))}: give a player number "
                                f"0..{players - 1} or random")
    variant = args.variant
    if variant is None:
        from .policies import guess_variant

        variant = guess_variant(*specs)
    return specs, first, rules_from(args, variant=variant)


def _session(args) -> int:
    from .session import session

    specs, first, rules = _evening(args, args.policies)
    result = session(specs if len(specs) > 1 else specs[0], rules=rules, rounds=args.rounds, leave_at=args.leave_at,
                     first=first, **cu.run_options(args), **cu.run_size(args))
    return cu.emit(args, result, _session_text)


def _session_text(r) -> str:
    """The session's table, its title marked as every command marks a partial answer."""
    head, _, rest = str(r).partition("\n")
    house = cu.rules_line(r.rules, ("players", "variant"))
    return cu.title(head, r) + (f"\n  {house}" if house else "") + ("\n" + rest if rest else "")


def add_review_command(ksub) -> None:
    """Read the record of an evening (what 'cardodds kana trace' prints, or the same typed by hand:
    'players:' and 'variant:' lines, then each round's 'S: deal C C C', in peek-one 'S: peek C', the
    'S: känä C' lines from the starter and 'S: win'). For each känä of --seat, the position as that
    seat knew it (its place in the känä order, the cards it had seen, the cards känäd before it)
    goes to the advisor; every option is played on the same deals in rounds until a verdict, and
    the känä taken is priced against the one ranked first on fresh deals until its rating is clear,
    in antes (players x the loss in P(win the round)) with its interval, and rated good,
    inaccuracy, mistake or blunder ('about' when --budget-seconds ended first). Under
    the official rules every känä is exactly as good as another. A move the rules forbid is
    reported at its line; the känäs before it are still rated."""
    p = cu.command(ksub, "review", add_review_command,
                   "rate every känä of a played evening against the advisor: its cost in antes",
                   **_examples("review evening.txt --seat 0", "review evening.txt --seat all --policies blind --seed 1",
                               "review evening.txt --seat 2 --html review.html --json"))
    cu.add_review_options(p, "kana", (REVIEW_SECONDS, ADVISE_ROUNDS), "deals a känä")
    p.add_argument("--policies", default=OPPONENTS, metavar="WHO",
                   help="who plays the others' seats in the play-outs: table (the equilibrium table, default), "
                   "blind, or a policy name, or one per seat of the record, comma-separated")
    p.set_defaults(func=_review)


def _review(args) -> int:
    from .review import review

    with defer_interrupts():  # Ctrl-C stops the känä under way; those rated are printed, marked partial
        seat = int(args.seat) if args.seat.strip().isdecimal() else args.seat  # a seat number, or "all"
        result = review(args.record, seat=seat, policies=args.policies, samples=args.samples,
                        **cu.review_budget(args), **cu.run_options(args))
        return cu.review_output(args, result)
