"""One API, one command line across the three games: the same question is the same verb with
the same arguments in every game that has it, and the same sub-command with the same flags.

The parsers are walked as argparse built them (``cardodds.cli.build_parser``); a flag two games
share must mean the same: the same destination, type, number of values and action, and a help
text that starts with the words :data:`MEANING` declares for it.
"""

from __future__ import annotations

import argparse
import inspect
from collections import defaultdict

import pytest

from cardodds import canasta, cli, kana, kanalje

API = {"kana": kana, "kanalje": kanalje, "canasta": canasta}

#: What a flag shared by two games means: every game's help for it starts with these words.
MEANING = {
    "--policies": "who plays", "--players": "players at the table", "--seat": "my seat", "--hand": "my hand",
    "--target": "points that end the game", "--samples": "number of simulated", "--precision": "simulate until",
    "--exact": "enumerate exactly", "--seed": "random seed", "--threads": "worker threads",
    "--progress": "show progress", "--no-progress": "no progress", "--json": "print one JSON object",
    "--dask": "run the simulation on a Dask cluster", "--wide": "every figure of each",
    "--score": "the game score before the", "--dealer": "who deals the",
    "--build": "compute the tables", "--html": "also write the review as one self-contained web page",
    "--check": "verify the table after every move", "--max-deals": "an open game counts as unfinished after",
    "--first-player": "who moves first", "--margin": "equal for the verdict",
    "--budget-seconds": "without --samples: start no round that would end after S seconds",
    "--budget-rounds": "without --samples: play at most R rounds",
}
#: Flags a meaning once had under another name in one game: none may come back.
RENAMED = {"--cards": "--hand", "--opponents": "--policies", "--max-hands": "--max-deals", "--first": "--first-player",
           "--out-needs-canasta": "--going-out-needs-canasta"}
#: (command, flag) taking another type than the same flag elsewhere, on purpose.
OTHER_TYPE = {
    ("kana table", "--players"): "a range of table sizes, one table each",
    ("canasta advise", "--precision"): "points of the paired margin, not a probability",
    ("canasta advise", "--margin"): "points a hand, and after a comma the margin of P(we win the game)",
}
#: The run-size and output flags (:func:`cardodds._cliutil.add_run_options`): the same on a
#: question every game asks; ``--exact`` only where a game can enumerate.
RUN_FLAGS = {"--samples", "--precision", "--seed", "--threads", "--progress", "--no-progress", "--json", "--dask"}
#: A question whose command is not its verb: ``strategy_table`` is ``table`` in every game.
COMMAND_OF = {"strategy_table": "table"}
#: A shared function that is no command, and why.
NOT_COMMANDS = {"positions": "a record's positions for Python: the review command rates them"}
#: A command whose flags and arguments differ in a game on purpose, and why.
OWN_SHAPE = {("kana", "table"): "one decision's table by seat and table size, to a precision; the other games' "
                                "tables are several, named, shipped"}
#: The run arguments of a public question, in the order every game takes them.
RUN_ORDER = ("rules", "samples", "target_halfwidth", "rng", "threads")


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


PARSERS = {game: _subcommands(_subcommands(cli.build_parser())[game]) for game in cli.GAMES}


def _options(p: argparse.ArgumentParser) -> dict[str, argparse.Action]:
    return {o: a for a in p._actions for o in a.option_strings if o not in ("-h", "--help")}


def _positionals(p: argparse.ArgumentParser) -> list[str]:
    return [a.dest for a in p._actions if not a.option_strings and not isinstance(a, argparse._SubParsersAction)]


def _questions(game: str) -> set[str]:
    """The public functions of a game's package (its questions and helpers)."""
    module = API[game]
    return {n for n in module.__all__ if n[0].islower() and callable(getattr(module, n))}


SHARED_VERBS = sorted({v for g in API for v in _questions(g)
                       if sum(v in _questions(h) for h in API) >= 2})


def test_the_shared_questions_are_found():
    assert {"game", "strength", "trace", "advise"} <= set(SHARED_VERBS)




@pytest.mark.parametrize("verb", [v for v in SHARED_VERBS if v not in NOT_COMMANDS])
def test_a_question_two_games_share_is_a_subcommand_of_the_same_name_in_each(verb):
    for game in API:
        if verb in _questions(game):
            command = COMMAND_OF.get(verb, verb.replace("_", "-"))
            assert command in PARSERS[game], f"cardodds {game} has no {command} command"


def test_a_question_only_one_game_has_is_no_verb_elsewhere():
    assert not hasattr(kana, "strength") and not hasattr(kana, "game") and not hasattr(kanalje, "game_strength")
    assert "strength" not in PARSERS["kana"] and "game-strength" not in PARSERS["kanalje"]


@pytest.mark.parametrize("verb", ["game", "strength", "trace"])
def test_the_same_question_takes_the_same_arguments_in_the_same_order(verb):
    games = [g for g in API if verb in _questions(g)]
    signatures = {g: inspect.signature(getattr(API[g], verb)).parameters for g in games}
    first = {g: next(iter(p)) for g, p in signatures.items()}
    assert len(set(first.values())) == 1, first  # what the question is about: policies, or a and b
    for g, params in signatures.items():
        run = [n for n in params if n in RUN_ORDER]
        assert run == [n for n in RUN_ORDER if n in params], (g, run)
        assert all(params[n].kind is params[n].KEYWORD_ONLY for n in run), g
    if verb == "strength":
        assert [list(p)[:2] for p in signatures.values()] == [["a", "b"]] * len(games)
        assert kanalje.strength.__wrapped__.__annotations__["return"] == "StrengthResult"
        assert kanalje.StrengthResult is canasta.StrengthResult  # one result class


def _shared_flags() -> dict[str, dict[str, list[tuple[str, argparse.Action]]]]:
    """flag -> game -> [(command, action)], for every flag two games or more have."""
    found: dict = defaultdict(lambda: defaultdict(list))
    for game, commands in PARSERS.items():
        for name, p in commands.items():
            for flag, action in _options(p).items():
                found[flag][game].append((f"{game} {name}", action))
    return {f: g for f, g in found.items() if len(g) >= 2}


def test_a_flag_two_games_share_means_the_same_in_each():
    wrong = []
    for flag, games in sorted(_shared_flags().items()):
        if flag not in MEANING:
            wrong.append(f"{flag} ({', '.join(games)}): declare its meaning in MEANING")
            continue
        shapes = set()
        for command, action in (x for uses in games.values() for x in uses):
            if not (action.help or "").startswith(MEANING[flag]):
                wrong.append(f"{command} {flag}: help {action.help[:40]!r} does not start {MEANING[flag]!r}")
            kind = None if (command, flag) in OTHER_TYPE else getattr(action.type, "__name__", action.type)
            shapes.add((action.dest, action.nargs, type(action).__name__, kind))
        typed = {s for s in shapes if s[3] is not None}
        if len({s[:3] for s in shapes}) > 1 or len(typed) > 1:
            wrong.append(f"{flag}: {sorted(shapes, key=str)}")
    assert wrong == [], "\n".join(wrong)


@pytest.mark.parametrize("name", sorted({n for c in PARSERS.values() for n in c
                                         if sum(n in c2 for c2 in PARSERS.values()) >= 2}))
def test_a_command_two_games_share_has_the_same_run_flags_and_arguments(name):
    have = {g: c[name] for g, c in PARSERS.items() if name in c and (g, name) not in OWN_SHAPE}
    run = {g: sorted(set(_options(p)) & RUN_FLAGS) for g, p in have.items()}
    assert len({tuple(r) for r in run.values()}) == 1, run
    positional = {g: _positionals(p) for g, p in have.items()}
    assert len({tuple(r) for r in positional.values()}) == 1, positional


def _every_action():
    for game, commands in PARSERS.items():
        for name, p in commands.items():
            for flag, action in _options(p).items():
                yield f"{game} {name}", flag, action


def test_a_meaning_has_one_flag():
    """A flag whose help starts with a meaning :data:`MEANING` declares is that meaning's flag,
    in every command of every game, and no flag of :data:`RENAMED` is left."""
    wrong = []
    for command, flag, action in _every_action():
        if flag in RENAMED:
            wrong.append(f"{command} {flag}: the flag is {RENAMED[flag]}")
        for other, words in MEANING.items():
            if other != flag and (action.help or "").startswith(words) \
                    and not (action.help or "").startswith(MEANING.get(flag, "\0")):
                wrong.append(f"{command} {flag}: means {words!r}, which is {other}")
    assert wrong == [], "\n".join(wrong)


def test_a_meaning_check_can_fail():
    p = argparse.ArgumentParser()
    p.add_argument("--opponents", help="who plays the other seats")
    p.add_argument("--workers", type=int, help="worker threads")
    saved = PARSERS["kana"]["odds"]
    PARSERS["kana"]["odds"] = p
    try:
        with pytest.raises(AssertionError, match="(?s)--opponents.*--workers: means 'worker threads'"):
            test_a_meaning_has_one_flag()
    finally:
        PARSERS["kana"]["odds"] = saved


def test_the_check_can_fail():
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, help="a seed")
    with pytest.raises(AssertionError):
        PARSERS["kana"]["odds"] = p
        try:
            test_a_flag_two_games_share_means_the_same_in_each()
        finally:
            PARSERS["kana"]["odds"] = _subcommands(_subcommands(cli.build_parser())["kana"])["odds"]
