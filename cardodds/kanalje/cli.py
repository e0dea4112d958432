"""``cardodds kanalje risk|hand|game|strength|trace|advise|review|table``: jack risk, what a hand is worth, the
game to 21, two players on the same deals, one deal, which card to play, a played deal rated, the strategy tables."""

from __future__ import annotations

import argparse
import re

from .. import _cliutil as cu
from ._defaults import (
    ADVISE_MARGIN,
    ADVISE_POLICIES,
    ADVISE_ROUNDS,
    ADVISE_SECONDS,
    DEFAULT_LOOKAHEAD_SAMPLES,
    DEFAULT_MAX_DEALS,
    DEFAULT_POLICIES,
    EQUITY_DEALS,
    EQUITY_MARGIN,
    GAME_SAMPLES,
    HAND_SAMPLES,
    MAX_DEALS,
    MAX_LOOKAHEAD_SAMPLES,
    POLICY_NAMES,
    REVIEW_SECONDS,
    RISK_SAMPLES,
    STRENGTH_A,
    STRENGTH_B,
    STRENGTH_SAMPLES,
    TABLE_DEALS,
    TABLE_POLICIES,
    TABLE_SEED,
)
from .rules import KanaljeRules

_JACKS = (("spades", "Js"), ("clubs", "Jc"), ("diamonds", "Jd"), ("hearts", "Jh"))

_POL_HELP = (f"who plays: one policy for every seat or one a seat, comma-separated (seats 0,1,2; 0,1 with "
             f"--players 2): {', '.join(POLICY_NAMES)} (default {DEFAULT_POLICIES}); seat 0 leads the first trick")


def _sizes(sizes: tuple[int, int]) -> str:
    """The help text of a default run size (:mod:`._defaults`)."""
    return f"{sizes[0]:,}; {sizes[1]:,} with a lookahead player"


def _lookahead_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lookahead-samples", type=cu.int_range(1, MAX_LOOKAHEAD_SAMPLES),
                   default=DEFAULT_LOOKAHEAD_SAMPLES, metavar="K",
                   help=f"worlds the lookahead and pimc players sample per decision, 1..{MAX_LOOKAHEAD_SAMPLES:,} "
                   f"(default {DEFAULT_LOOKAHEAD_SAMPLES})")


def _common(p: argparse.ArgumentParser, default_samples: str, unit: str = "deals", game: bool = False) -> None:
    """A question of many deals: ``--policies``, the rules flags, ``--check`` and the run options."""
    p.add_argument("--policies", default=DEFAULT_POLICIES, metavar="P[,P...]", help=_POL_HELP)
    _lookahead_option(p)
    _rules_options(p, game)
    cu.add_check(p)
    cu.add_run_options(p, default_samples, unit=unit)


def _rules_options(p: argparse.ArgumentParser, game: bool = False) -> None:
    """A flag a rules field; ``--target`` only where whole games are played (``game``)."""
    cu.add_rules_flags(p, KanaljeRules, skip=() if game else ("target",))


def add_commands(sub) -> None:
    """Kanalje (docs/rules/kanalje.md) for three players, or two with --players 2 (§4)."""
    p = cu.command(sub, "kanalje", add_commands,
                   "Kanalje (three or two players): jack risk, hand value, the game to 21")
    ksub = p.add_subparsers(dest="kanalje_command", metavar="COMMAND", parser_class=type(p))
    p.set_defaults(func=cu.help_exit(p))
    for add in (_add_risk, _add_hand, _add_game, _add_equity, _add_strength, _add_trace, _add_advise, _add_review,
                _add_table):
        add(ksub)


def _add_risk(ksub) -> None:
    """Probability each seat takes each jack, the holder takes their own jack, and each seat's
    expected score and penalty, with 95% intervals."""
    r = cu.command(ksub, "risk", _add_risk, "who takes each jack, and each seat's expected score")
    _common(r, _sizes(RISK_SAMPLES))
    r.set_defaults(func=_risk)


def _add_hand(ksub) -> None:
    """Expected tricks, penalty and score of a 17-card hand, and the chance of taking each jack,
    with the other 34 cards dealt at random. With --players 2: 13 cards and --faceup (phase 1, the
    whole deal) or --trump (phase 2 alone)."""
    h = cu.command(ksub, "hand", _add_hand, "what my 17 (13) cards are worth")
    h.add_argument("--hand", required=True, metavar="CARDS", help='my hand: my 17 cards (13 with two players), e.g. '
                   '"Ah Kh 2c ..."')
    h.add_argument("--turned", metavar="CARD", help="three players: the turned card; its suit is trump")
    h.add_argument("--faceup", metavar="CARD", help="two players, phase 1: the face-up stock card")
    h.add_argument("--trump", metavar="CARD", help="two players, phase 2: the dead phase-1 card that named trump")
    h.add_argument("--seat", type=cu.int_range(0, 2), default=0, metavar="S",
                   help="my seat: 0 leads the first trick (default 0)")
    _common(h, _sizes(HAND_SAMPLES))
    h.set_defaults(func=_hand)


def _add_game(ksub) -> None:
    """Probability each seat wins the game to 21 (highest total once somebody reaches it; a tie at
    the top plays on) and the number of deals it takes. A game still open after --max-deals deals is
    counted as unfinished, and the output says how many."""
    g = cu.command(ksub, "game", _add_game, "who wins the game to 21")
    cu.max_deals(g, DEFAULT_MAX_DEALS, MAX_DEALS)
    _common(g, _sizes(GAME_SAMPLES), unit="games", game=True)
    g.set_defaults(func=_game)


def _add_strength(ksub) -> None:
    """Each deal played with B in every seat, then with A in each seat in turn and B elsewhere (two
    players: A in seat 0, then 1): A's edge in points a deal, B's score in the same seat
    subtracted, and P(A did better over the deal's playings), 95% intervals."""
    m = cu.command(ksub, "strength", _add_strength,
                   "player A against player B on the same deals, seats swapped: points a deal")
    cu.add_strength_players(m, STRENGTH_A, STRENGTH_B, ", ".join(POLICY_NAMES))
    _lookahead_option(m)
    _rules_options(m)
    cu.add_check(m)
    cu.add_run_options(m, _sizes(STRENGTH_SAMPLES), unit="deals", precision_flag=False)
    m.set_defaults(func=_strength)


def _add_trace(ksub) -> None:
    """One deal played by --policies, dealt from --seed or given (--hands, with --turned, or --stock
    with two players): each seat's cards, then every card played and each trick's winner, one line
    a move ('seat: action cards'), the scores last. The text reads back
    (cardodds.trace.Trace.parse)."""
    t = cu.command(ksub, "trace", _add_trace, "every card of one deal, as a record that reads back")
    t.add_argument("--policies", default=DEFAULT_POLICIES, metavar="P[,P...]", help=_POL_HELP)
    t.add_argument("--hands", metavar="H0;H1[;H2]", help='every seat\'s cards, ";" between seats, e.g. '
                   '"Ac Kc ...; 2d 5d ...; Qd 3h ..." (default: dealt from --seed)')
    t.add_argument("--turned", metavar="CARD", help="three players, with --hands: the turned card; its suit is trump")
    t.add_argument("--stock", metavar="CARDS", help="two players, with --hands: the 26 stock cards from the top")
    t.add_argument("--leader", type=cu.int_range(0, 2), default=0, metavar="S",
                   help="the seat that leads the first trick (default 0)")
    _lookahead_option(t)
    _rules_options(t)
    cu.add_trace_options(t)
    t.set_defaults(func=_trace)


def _rules(args) -> KanaljeRules:
    return cu.rules_of(args, KanaljeRules)


def _given_rules(args, players: int | None = None) -> KanaljeRules | None:
    """The rules flags' rules, None when no rules flag is given (the command's own default rules);
    their player count ``players`` unless --players is given, else that of the rules flags given
    (2 for a two-player rule), else 3."""
    from .._fields import rule_fields

    given = cu.given_rules(args, KanaljeRules)
    if not given:
        return None
    if "players" not in given:
        counts = [f.metadata["players"] for f in rule_fields(KanaljeRules)
                  if f.name in given and "players" in f.metadata]
        given_players = players if players is not None else (counts[0] if counts else KanaljeRules.players)
        return cu.rules_of(args, KanaljeRules, players=given_players)
    return cu.rules_of(args, KanaljeRules)


def _check_policies(args, rules) -> list[str]:
    """The lineup's policy names, ``--policies`` checked."""
    from .policies import resolve_policies

    _, names, _ = cu.about("--policies", args.policies, resolve_policies, args.policies, rules.players)
    return names


def _run_args(args) -> dict:
    return dict(lookahead_samples=args.lookahead_samples, **cu.run_size(args), **cu.run_options(args))


def _risk(args) -> int:
    from .._two_process_compile import two_processes
    from .analysis import jack_risk

    rules = _rules(args)
    names = _check_policies(args, rules)
    with two_processes(_split(names, rules.players == 2)):
        res = jack_risk(args.policies, rules=rules, check=args.check, **_run_args(args))
    return cu.emit(args, res, risk_text)


def _split(names, phase1: bool) -> str | None:
    """The part of a lineup's deals kernel a second process compiles (:mod:`cardodds._two_process_compile`):
    the searches, or the heuristic's play-out, beside the deal loop; ``phase1``: the deals
    start in phase 1 (two players), whose code the searches then hold."""
    for name, split in (("pimc", "kanalje risk pimc"), ("lookahead", "kanalje risk look-ahead")):
        if name in names:
            return split + (", phase 1" if phase1 else "")
    return "kanalje risk heuristic" if set(names) == {"heuristic"} else None


def _trace(args) -> int:
    from .play import trace

    hands = None if args.hands is None else [h.strip() for h in args.hands.split(";")]
    return cu.emit(args, trace(args.policies, rules=_rules(args), rng=args.seed, hands=hands, turned=args.turned,
                               stock=args.stock, leader=args.leader, lookahead_samples=args.lookahead_samples), str)


def _hand(args) -> int:
    from .._two_process_compile import two_processes
    from ..cards import parse_card, parse_cards
    from .analysis import evaluate_hand
    from .hand import Hand

    rules = _rules(args)
    names = _check_policies(args, rules)
    cu.about("--hand", args.hand, parse_cards, args.hand)
    for flag, card in (("--turned", args.turned), ("--faceup", args.faceup), ("--trump", args.trump)):
        if card is not None:
            cu.about(flag, card, parse_card, card)
    if args.seat >= rules.players:
        raise cu.UsageError(f"--seat {args.seat} is outside 0..{rules.players - 1} for {rules.players} players")
    hand = Hand(args.hand, args.turned, faceup=args.faceup, trump=args.trump, seat=args.seat, rules=rules)
    with two_processes(_split(names, hand.phase == 1)):
        res = evaluate_hand(hand, policies=args.policies, check=args.check, **_run_args(args))
    return cu.emit(args, res, hand_text)


def _game(args) -> int:
    from .play import game

    rules = _rules(args)
    _check_policies(args, rules)
    res = game(args.policies, rules=rules, max_deals=args.max_deals, check=args.check, **_run_args(args))
    return cu.emit(args, res, game_text)


def _strength(args) -> int:
    from .play import strength
    from .policies import resolve_policies

    rules = _rules(args)
    for flag, name in (("A", args.a), ("B", args.b)):
        cu.about(f"policy {flag}", name, resolve_policies, name, 1)
    res = strength(args.a, args.b, rules=rules, samples=args.samples, lookahead_samples=args.lookahead_samples,
                   check=args.check, **cu.run_options(args))
    return cu.emit(args, res, strength_text)


def strength_text(r) -> str:
    return cu.strength_text(r, "seats", 3, *cu.violations(r))


def _lineup(r) -> str:
    return "/".join(r.policies)


def _variant(rules, shown: tuple[str, ...] = ()) -> str:
    """The players and the rules in a header: every rule that differs from the default is named."""
    from .._fields import rules_words

    if rules.players == 2:
        base = "2 players" + ("" if rules.phase1_jacks_cost else ", phase-1 jacks fall dead")
    else:
        base = f"3 players, turned jack {rules.turned_jack.replace('_', '-')}"
    more = rules_words(rules, ("players", "turned_jack", "phase1_jacks_cost") + shown)
    return base + (f", {more}" if more else "")


def risk_text(r) -> str:
    two = r.rules.players == 2
    head = f"Kanalje jack risk, {_variant(r.rules)}, {_lineup(r)} ({cu.how(r)})"
    seat_rows = []
    for p in range(r.rules.players):
        row = [p, r.policies[p], cu.est(r.mean_score[p], 3, sign=True), cu.est(r.mean_penalty[p], 3),
               cu.est(r.mean_tricks[p], 3)]
        if two:
            row.append(cu.est(r.phase1_tricks[p], 3))
        seat_rows.append(row)
    seat_head = ["seat", "player", "mean score", "mean penalty", "mean tricks"] + (["phase-1 tricks"] if two else [])
    jack_head = (["jack", "penalty"] + [f"seat {p} takes it" for p in range(r.rules.players)]
                 + ["holder takes own"])
    jack_rows = [[card, f"-{r.rules.jack_penalty(suit)}"] + [cu.est(e) for e in r.taken_by_seat(suit)]
                 + [cu.est(r.holder_takes(suit))] for suit, card in _JACKS]
    return cu.block(head, r, cu.table(seat_head, seat_rows), cu.table(jack_head, jack_rows),
                    f"mean deal total {cu.est(r.mean_total, 3, sign=True)} points", *cu.violations(r))


def hand_text(h) -> str:
    from ..cards import card_str, format_cards

    head = (f"Kanalje hand, {_variant(h.rules)}, seat {h.seat}, {h.card_role} {card_str(h.turned)}, "
            f"{_lineup(h)} ({cu.how(h)})")
    figures = cu.table(("figure", "mean (95% interval)"), [
        ("hand", format_cards(sorted(h.hand))), ("tricks", cu.est(h.tricks, 3)),
        ("penalty", cu.est(h.penalty, 3)), ("score", cu.est(h.score, 3, sign=True))])
    jacks = cu.table(("jack", "P(I take it)"), [(card, cu.est(h.jacks[suit])) for suit, card in _JACKS])
    return cu.block(head, h, figures, jacks, *cu.violations(h))


def game_text(g) -> str:
    head = f"Kanalje game to {g.rules.target}, {_variant(g.rules, ('target',))}, {_lineup(g)} ({cu.how(g, 'games')})"
    wins = cu.table(("seat", "player", "wins the game"),
                    [(s, g.policies[s], cu.est(e)) for s, e in enumerate(g.win)])
    unfinished = (f"{g.unfinished:,} of {g.samples:,} (still open after {g.max_deals} deals; no seat wins them)"
                  if g.unfinished else f"0 (every game ended within {g.max_deals} deals)")
    deals = cu.table(None, [("deals a game", cu.est(g.mean_deals, 2)), ("unfinished games", unfinished)])
    return cu.block(head, g, wins, deals, *cu.violations(g))


# ---- advise ---------------------------------------------------------------------------------
_ADVISE_ABOUT = (
    "Every legal card of a position played out on the same sampled worlds: my expected points for the whole deal, "
    "tricks, penalty, P(I take each jack still out) and the paired difference to the best card. The cards I have "
    "not seen are dealt uniformly over every deal consistent with what I saw (three players: the cards played, the "
    "turned card and the voids shown; two players, phase 1: the face-up cards and the tricks; phase 2: the trump "
    "card, the tricks, the voids shown and the phase-1 cards I remember). The best card is named only when every "
    "other card's difference to it excludes zero. --precision H runs until the paired difference between the two "
    "best cards is known to +-H points.")


def _add_advise(ksub) -> None:
    a = ksub.add_parser("advise", help="which card to play now, in the middle of a deal", description=_ADVISE_ABOUT)
    a.add_argument("--seat", type=cu.int_range(0, 2), required=True, metavar="S",
                   help="my seat: 0 is left of the dealer and leads the first trick (two players: the non-dealer)")
    a.add_argument("--hand", required=True, metavar="CARDS", help='my hand: my cards now, e.g. "Ah 7c 2d"')
    a.add_argument("--turned", metavar="CARD", help="three players: the turned card; its suit is trump")
    a.add_argument("--faceup", metavar="CARDS", help="two players, phase 1: the face-up stock card of each trick "
                   "played, in order, and the one face up now (the last)")
    a.add_argument("--trump", metavar="CARD", help="two players, phase 2: the dead phase-1 card that named trump "
                   "(--played then holds the phase-2 tricks)")
    a.add_argument("--dead", metavar="CARDS", help="two players, phase 2: the phase-1 cards I remember, besides the "
                   "trump card (the others are dealt at random among the dead cards and the opponent's hand)")
    a.add_argument("--played", default=None, metavar='"L: c c c; ..."',
                   help='every trick so far in order (two players: of the phase now): the seat that led it, a '
                   'colon, its cards in the order played, e.g. "0: Ac Kc 2c; 0: 5h"; a last group of fewer cards '
                   "than players is the trick in progress, and it is my turn (default: nothing played)")
    a.add_argument("--policies", default=ADVISE_POLICIES, metavar="P[,P...]",
                   help=f"who plays the deal out after my card, seats 0,1,2, mine included for my later cards: one "
                   f"name for all or a comma list of {', '.join(POLICY_NAMES)} (default {ADVISE_POLICIES}, the "
                   "strongest that answers in about 2 s); "
                   "not --players, which counts the seats in the other kanalje commands")
    _lookahead_option(a)
    _rules_options(a)
    a.add_argument("--infer", action="store_true",
                   help="weigh each world by how likely the others' plays so far were under their policies "
                   "(random: 1/legal cards at each play; heuristic: only worlds where it would have played as it "
                   "did); the output gives the weighting's effective sample size")
    a.add_argument("--wide", action="store_true",
                   help="every figure of each card: also tricks, penalty and P(I take each jack still out), in "
                   "lines as wide as they need (default: at most 100 columns)")
    a.add_argument("--score", default=None, metavar="S0,S1[,S2]",
                   help="the game score before the deal, each seat's total, e.g. 12,17,5 (seat 0 leads the first "
                   "trick; the dealer sits before it; two players in phase 2: this deal's phase-1 jacks paid): "
                   "cards are then ranked by my chance to win the game to 21 after the deal "
                   "(the equity table, as 'cardodds kanalje equity' reads it), my points beside")
    a.add_argument("--margin", type=cu.positive_float(0.0, 100.0, " (points a deal)"),
                   default=None, metavar="M",
                   help=f"equal for the verdict: cards within M points a deal of each other (default {ADVISE_MARGIN}; "
                   f"with --score, M in P(win the game), default {EQUITY_MARGIN})")
    a.add_argument("--budget-seconds", type=cu.positive_float(0.0, 86_400.0, " (seconds)"), default=ADVISE_SECONDS,
                   metavar="S", help="without --samples: start no round that would end after S seconds "
                   f"(default {ADVISE_SECONDS:g}); a verdict cut short names --budget-rounds, which repeats it exactly")
    a.add_argument("--budget-rounds", type=cu.int_range(1, ADVISE_ROUNDS), default=None, metavar="R",
                   help=f"without --samples: play at most R rounds of worlds (16, 32, 64, ...; at most "
                   f"{ADVISE_ROUNDS}), whatever the time: the same answer on any machine")
    cu.add_run_options(a, "a verdict: rounds of worlds until one card is best, the cards left are equal within "
                       "--margin, or --budget-seconds ends; N: every card on N worlds", unit="worlds")
    a.set_defaults(func=_advise)


#: API argument names that start a position error, and the flag a CLI user typed.
_POSITION_WORDS = re.compile(r"^(seat|hand|turned|faceup|trump|dead|played|rules|score):")


def _advise(args) -> int:
    from .._two_process_compile import two_processes
    from .advise import advise
    from .position import Position

    rules = _rules(args)
    names = _check_policies(args, rules)
    run = _run_args(args)
    try:
        with two_processes(_advise_split(names, args.faceup is not None)):  # reading the position compiles too
            position = Position(seat=args.seat, hand=args.hand, turned=args.turned, trump=args.trump,
                                faceup=args.faceup, dead=args.dead, played=args.played, rules=rules, infer=args.infer,
                                lookahead_samples=run.pop("lookahead_samples"), score=args.score)
            res = advise(position, policies=args.policies, margin=args.margin, budget_seconds=args.budget_seconds,
                         budget_rounds=args.budget_rounds, **run)
    except ValueError as e:
        raise cu.UsageError(_POSITION_WORDS.sub(r"--\1:", str(e))) from None
    return cu.emit(args, res, lambda r: advise_text(r, args.wide))


def _advise_split(names, phase1: bool) -> str | None:
    """The part of the advisor's first call a second process compiles (:mod:`cardodds._two_process_compile`)
    for a lineup, in phase 1 (two players) or not."""
    if not {"lookahead", "pimc"} & set(names):
        return "kanalje advise"
    if "pimc" in names:  # the search's part
        return _split(names, phase1)
    return "kanalje advise look-ahead" + (", phase 1" if phase1 else "")


#: The advice table's width by default (``--wide``: every figure, at any width).
_WIDTH = 100


def _wrapped(text: str, width: int, sep: str = " ") -> list[str]:
    """``text`` broken at ``sep`` into lines of at most ``width`` characters (a longer piece alone)."""
    lines: list[str] = []
    for piece in text.split(sep):
        if lines and len(lines[-1]) + len(sep) + len(piece) <= width:
            lines[-1] += sep + piece
        else:
            lines.append(piece)
    return [ln.rstrip() for ln in lines]


def _players(r) -> str:
    """Who plays the worlds out, named, with the searchers' worlds a decision."""
    from .advise import players_words

    return players_words(r.policies, r.position.lookahead_samples) + " (mine too, after this card)"


def _worlds_words(r) -> str:
    """How the cards were played out: in rounds until a verdict, or every card on the same worlds."""
    d = r.decision
    if d is None or d.planned_rounds == 1:
        return cu.how(r, "worlds").replace("Monte Carlo, ", "") + " (Monte Carlo, the same worlds for every card)"
    cut = ""
    if d.budget_limited:
        cut = f"; cut by the time budget: --budget-rounds {d.rounds} repeats it"
    return (f"{r.samples:,} worlds in {d.rounds} rounds, seed {r.seed} (a card shown to lose is played no more"
            f"{cut})")


def advise_text(r, wide: bool = False) -> str:
    from ..cards import card_str, format_cards
    from .advise import cost_words, jacks

    p = r.position
    head = f"Kanalje advice, {_variant(r.rules)}, seat {p.seat}, {p.card_name} {card_str(p.card)}"
    width = None if wide else _WIDTH - 11  # the label column and its indent
    played = p.played_text or "(nothing yet)"
    played_rows = [played] if width is None else _wrapped(played, width, "; ")
    rows = ([("players", _players(r)), ("worlds", _worlds_words(r)),
             ("hand", format_cards(p.hand))] + ([("face up", p.card_text)] if p.faceup is not None else [])
            + ([("dead", format_cards(p.dead))] if p.dead else [])
            + [("played" if k == 0 else "", line) for k, line in enumerate(played_rows)]
            + ([("inferred", f"effective sample size {r.effective_samples:,.0f} of {r.samples:,} worlds "
                             "(weighted by the others' plays)")] if p.infer else []))
    if p.score is not None:
        rows.append(("score", f"{','.join(map(str, p.score))} before this deal, game to {r.rules.target}: cards "
                              "ranked by my P(win the game) after it"))
    where = cu.table(None, rows)
    score = r.figures["score"]
    by_win = r.ranked_by == "equity"
    order = sorted(range(len(r.options)), key=lambda i: -r.value[i].value)
    jack = jacks(r)
    shown = [(s, card) for s, card in _JACKS if s in jack[0]] if wide else []
    extra = ["tricks", "penalty"] + [f"takes {card}" for _, card in shown] if wide else []
    on = [] if r.worlds is None else ["worlds"]
    table = cu.table(["card"] + (["P(win the game)"] if by_win else []) + ["my points a deal", "against the best"]
                     + on + extra, [
        [r.options[i]] + ([cu.est(r.figures["equity"][i], 3)] if by_win else [])
        + [cu.est(score[i], 3, sign=True), cost_words(r, i)]
        + ([f"{r.worlds[i]:,}"] if on else [])
        + ([cu.est(r.figures["tricks"][i], 2), cu.est(r.figures["penalty"][i], 2)]
           + [cu.est(jack[i][s], 3) for s, _ in shown] if wide else []) for i in order]) \
        if r.ranking.counted else []
    verdict = f"verdict: {r.verdict}"
    return cu.block(head, r, where, table, *(_wrapped(verdict, _WIDTH - 2) if not wide else [verdict]))


# ---- review -----------------------------------------------------------------------------------
def _add_review(ksub) -> None:
    """Every card the seat played in a recorded deal, rated: the position as that seat knew it (its
    hand, the turned card, the tricks so far; never another hand) goes to the advisor (cardodds
    kanalje advise), which plays every legal card in rounds of sampled worlds until a verdict; the
    card ranked first is then priced against the card played on fresh worlds until its rating is
    clear, so its cost in points a deal is not inflated by the noise it was chosen on. Each card is
    rated good (within the advice's margin of the best), inaccuracy, mistake or blunder by its cost,
    'about' when --budget-seconds ended first; a single legal card is forced. The record
    is what 'cardodds kanalje trace' prints, or the same typed by hand (docs/kanalje-advise.md); a
    move the rules forbid (a revoke, a card not in the hand, a play out of turn, a wrong win line) is
    reported at its line, and the cards before it are still rated."""
    r = cu.command(ksub, "review", _add_review,
                   "every card a seat played in a recorded deal, rated against the advisor's")
    r.add_argument("--policies", default=ADVISE_POLICIES, metavar="P[,P...]",
                   help=f"who plays the advisor's worlds out, seats as the record numbers them: one name for all or a "
                   f"comma list of {', '.join(POLICY_NAMES)} (default {ADVISE_POLICIES}, as kanalje advise)")
    _lookahead_option(r)
    _rules_options(r)
    r.add_argument("--score", default=None, metavar="S0,S1[,S2]",
                   help="the game score before the deal, each seat's total as the record numbers them (default: the "
                   "record's 'score:' line, else none): each card is then ranked and priced in P(win the game to "
                   "21), its points beside")
    cu.add_review_options(r, "kanalje", (REVIEW_SECONDS, ADVISE_ROUNDS), "worlds a decision")
    r.set_defaults(func=_review)


def _review(args) -> int:
    from .._two_process_compile import two_processes
    from ..engine import defer_interrupts
    from ..review import read_record
    from .review import PLAYERS, review

    record = read_record(args.record, "kanalje", PLAYERS)
    if args.players not in (None, record.players):
        raise cu.UsageError(f"--players {args.players}: the record is of {record.players} players; drop --players")
    rules = _given_rules(args, record.players)
    names = _check_policies(args, rules or KanaljeRules(players=record.players))
    with defer_interrupts(), two_processes(_advise_split(names, record.players == 2)):
        # Ctrl-C stops the advice under way; the cards rated so far are printed, marked partial
        seat = int(args.seat) if args.seat.strip().isdecimal() else args.seat  # a seat number, or "all"
        try:
            res = review(record, seat=seat, rules=rules, policies=args.policies,
                         lookahead_samples=args.lookahead_samples, samples=args.samples, score=args.score,
                         **cu.review_budget(args), **cu.run_options(args))
        except ValueError as e:
            if str(e).startswith("score:"):
                raise cu.UsageError(f"--{e}") from None
            raise
        return cu.review_output(args, res)


# ---- table ------------------------------------------------------------------------------------
_TABLE_ABOUT = (
    "Strategy tables, like blackjack's basic strategy chart: for each situation of a table, the best action and its "
    "margin over the next best in points a deal, with the number of positions behind it. Positions are drawn from "
    "played deals (one a deal at most); every action of a position is played out to the end of the deal on the same "
    "cards and draws. The tables: lead (the opening lead: lowest or highest card of my longest side suit, lowest of "
    "my shortest side suit, lowest trump, dearest side jack) and jack (second or third in a trick that holds a jack: "
    "duck with my highest losing card, win with my lowest winning card, or shed a jack), three players; lead2 and "
    "jack2 (the same in phase 2) and faceup (phase 1: fight for the face-up card or give it up), two players. "
    f"Without --build: the shipped tables, for the default rules ({TABLE_DEALS:,} deals a table, "
    f"{TABLE_POLICIES} playing every action out, seed {TABLE_SEED}), printed at once. --build computes them for the "
    "rules flags given, which takes minutes at that precision with a lookahead lineup.")


def _add_table(ksub) -> None:
    from .strategy import TABLES

    p = ksub.add_parser("table", help="strategy tables: the best action in each situation", description=_TABLE_ABOUT)
    names = ", ".join(s.name for s in TABLES)
    p.add_argument("names", nargs="*", metavar="NAME", help=f"the tables to print: {names} (default: all; with a "
                   "rules flag, those of its player count)")
    p.add_argument("--build", action="store_true",
                   help="compute the tables instead of printing the shipped ones (for the rules flags given)")
    p.add_argument("--policies", default=None, metavar="P[,P...]",
                   help=f"who plays the deals and every action out (with --build), one name for every seat or one a "
                   f"seat: {', '.join(POLICY_NAMES)} (default {TABLE_POLICIES})")
    _rules_options(p)
    cu.add_run_options(p, f"{TABLE_DEALS:,} a table, with --build", unit="deals a table", precision_flag=False)
    p.set_defaults(func=_table)
    cu.table_seed(p, TABLE_SEED)


def _table(args) -> int:
    from .strategy import strategy_table

    rules = _given_rules(args)
    if not args.build:
        given = [f for f, v in (("--samples", args.samples), ("--seed", None if args.seed == TABLE_SEED else args.seed),
                                ("--threads", args.threads), ("--policies", args.policies)) if v is not None]
        if given or (rules is not None and rules != KanaljeRules(players=rules.players)):
            what = given[0] if given else "a rules flag other than the defaults"
            raise cu.UsageError(f"{what} asks for tables computed, not the shipped ones: add --build (minutes at "
                                f"the shipped precision), or drop {what}")
        res = strategy_table(args.names or None, rules=rules)
    else:
        from ..engine import defer_interrupts

        with defer_interrupts():  # Ctrl-C stops the runs, never the code between them or the printing
            res = strategy_table(args.names or None, rules=rules, samples=args.samples, policies=args.policies,
                                 build=True, **cu.run_options(args))
            return cu.emit(args, res, table_text)
    return cu.emit(args, res, table_text)


def table_text(r) -> str:
    players = sorted({3 if t.name in ("lead", "jack") else 2 for t in r.tables}, reverse=True)
    return cu.tables_text(r, "; ".join(
        _variant(r.rules if r.rules.players == n else KanaljeRules(players=n)) for n in players))


# ---- equity -----------------------------------------------------------------------------------
def _add_equity(ksub) -> None:
    """P(each seat wins the game) from the scores before a deal, read from the game equity table:
    one deal's outcomes measured under the default lineup, the game solved over the scores (a tie
    at the top plays another deal). The default rules' tables are shipped; other rules' are built
    on demand and cached."""
    e = cu.command(ksub, "equity", _add_equity, "what is at stake: P(each seat wins the game) from the scores")
    e.add_argument("--score", required=True, metavar="S0,S1[,S2]", help="the game score before the deal, each seat's "
                   "total, e.g. "
                   "12,17,5 (two players: 12,17)")
    e.add_argument("--dealer", type=cu.int_range(0, 2), default=None, metavar="S",
                   help="who deals the deal: a seat (default: the last seat, so seat 0 leads, as in a new game)")
    _rules_options(e, game=True)
    cu.add_run_options(e, f"{EQUITY_DEALS:,}, or the shipped table", unit="deals measured for a table",
                       precision_flag=False)
    e.set_defaults(func=_equity, draw_seed=False)  # no --seed: the shipped or cached table


def _equity(args) -> int:
    from .equity import equity

    rules = _rules(args)
    res = equity(args.score, rules=rules, dealer=args.dealer, samples=args.samples, **cu.run_options(args))
    return cu.emit(args, res, equity_text)


def equity_text(r) -> str:
    head = (f"Kanalje game equity to {r.rules.target}, {_variant(r.rules)}: seat {r.dealer} deals (seat {r.leader} "
            f"leads), {r.policies} at every seat")
    rows = [(s, r.score[s], cu.est(e, 3)) for s, e in enumerate(r.win)]
    return cu.block(head, r, cu.table(("seat", "score", "wins the game"), rows), r.made)
