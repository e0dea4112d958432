"""The house-rule flags are made from the rules classes' fields, and every header names the rules
that differ from the defaults.

- Each field of a game's rules dataclass is a flag of its commands (``_cliutil.add_rules_flags``),
  its help the field's own words; a field added to the class is a flag with no edit of the CLI.
- A run command's header and the strategy tables' header (text, JSON, page) name every rule
  given that is not the default (``_fields.rules_words``).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass

import pytest

from cardodds import _cliutil as cu
from cardodds import cli
from cardodds._fields import field_words, rule, rule_fields, rules_words, value_words
from cardodds.canasta import CanastaRules
from cardodds.kana import KanaRules
from cardodds.kanalje import KanaljeRules

RULES = {"kana": KanaRules, "kanalje": KanaljeRules, "canasta": CanastaRules}
#: A command of each game whose flags are every field (Känä's variant is each command's own flag).
COMMAND = {"kana": ("odds", {"variant"}), "kanalje": ("game", set()), "canasta": ("play", set())}


def _subcommand(game: str, name: str, parser: argparse.ArgumentParser | None = None) -> argparse.ArgumentParser:
    parser = parser or cli.build_parser()
    for p in (game, name):
        parser = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[p]
    return parser


def _flag(f) -> str:
    name = f.name.replace("_", "-")
    return f"--no-{name}" if f.default is True else f"--{name}"


def _other(f):
    """A value of field ``f`` that is not its default."""
    meta, default = f.metadata, f.default
    if isinstance(default, bool):
        return not default
    if "choices" in meta:
        return next(c for c in meta["choices"] if c != default)
    if isinstance(default, tuple):
        return tuple(reversed(default)) if tuple(reversed(default)) != default else tuple(v + 1 for v in default)
    high = meta.get("high")
    step = default + 1 if isinstance(default, int) else default * 2
    return step if high is None or step <= high else meta.get("low", 0)


def _argv(fields, values) -> list[str]:
    argv: list[str] = []
    for f in fields:
        v = values[f.name]
        argv += [_flag(f)] if isinstance(v, bool) else [_flag(f), value_words(v)]
    return argv


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_rules_field_is_a_flag_with_the_fields_help(game):
    name, own = COMMAND[game]
    options = {o: a for a in _subcommand(game, name)._actions for o in a.option_strings}
    for f in rule_fields(RULES[game]):
        if f.name in own:
            continue
        assert _flag(f) in options, f"cardodds {game} {name} has no {_flag(f)} for {f.name}"
        action = options[_flag(f)]
        assert action.dest == f.name and action.help.startswith(f.metadata["help"]), (f.name, action.help)


@pytest.mark.parametrize("game", sorted(RULES))
def test_the_flags_give_the_rules_every_value(game):
    fields = [f for f in rule_fields(RULES[game]) if f.name not in COMMAND[game][1]]
    values = {f.name: _other(f) for f in fields}
    if game == "kanalje":  # a rule of two players and one of three cannot be given together
        fields = [f for f in fields if f.metadata.get("players") != 3]
        values["players"] = 2
    args = _subcommand(game, COMMAND[game][0]).parse_args(_argv(fields, values))
    got = cu.rules_of(args, RULES[game])
    assert {f.name: getattr(got, f.name) for f in fields} == {f.name: values[f.name] for f in fields}
    assert cu.rules_of(_subcommand(game, COMMAND[game][0]).parse_args([]), RULES[game]) == RULES[game]()


def test_a_field_added_to_a_rules_class_is_a_flag_with_its_help_and_no_cli_edit(monkeypatch):
    import cardodds.canasta.cli as canasta_cli

    @dataclass(frozen=True)
    class Wider(CanastaRules):
        black_threes_block: bool = rule(False, "a black 3 on the pile blocks it for the next player")
        pile_limit: int = rule(0, "most cards a pile may hold, 0 for no limit", low=0, high=108)

    monkeypatch.setattr(canasta_cli, "CanastaRules", Wider)
    p = _subcommand("canasta", "play", cli.build_parser())
    options = {o: a for a in p._actions for o in a.option_strings}
    assert options["--black-threes-block"].help == "a black 3 on the pile blocks it for the next player"
    assert options["--pile-limit"].help.startswith("most cards a pile may hold, 0 for no limit, 0..108 (default 0)")
    args = p.parse_args(["--black-threes-block", "--pile-limit", "40"])
    rules = canasta_cli._play_rules(args)
    assert (rules.black_threes_block, rules.pile_limit) == (True, 40)
    assert "black threes block, pile limit 40" in rules_words(rules)


def test_a_rule_for_other_players_is_refused_naming_its_flag():
    p = _subcommand("kanalje", "risk")
    with pytest.raises(cu.UsageError, match="--phase2-trump applies to 2 players, not 3"):
        cu.rules_of(p.parse_args(["--phase2-trump", "none"]), KanaljeRules)
    with pytest.raises(cu.UsageError, match="--no-phase1-jacks-cost applies to 2 players"):
        cu.rules_of(p.parse_args(["--no-phase1-jacks-cost"]), KanaljeRules)


def test_rules_words_name_every_field_off_its_default_and_none_at_the_defaults():
    for cls in RULES.values():
        assert rules_words(cls()) == ""
    rules = CanastaRules(swap_twos=True, going_out_needs_canasta=True, going_out="meld_all", target=5000,
                         wild_melds=False)
    assert rules_words(rules) == ("swap twos, no wild melds, target 5000, going out needs canasta, "
                                  "going out meld-all")
    assert field_words("jack_penalties", (1, 2, 3, 4)) == "jack penalties 1,2,3,4"


#: Rules a Canasta header always names, in its own words.
CANASTA_WORDS = {"jokers": "{} Jokers", "wild_limit": "wild limit {}", "min_first_meld": "first meld >= {}"}


def _words(game: str, name: str, value) -> str:
    own = CANASTA_WORDS.get(name) if game == "canasta" else None
    return own.format(value_words(value)) if own else field_words(name, value)


def _header(text: str, lines: int) -> str:
    return "\n".join(text.splitlines()[:lines])


def test_a_run_commands_header_names_every_rule_given(capsys):
    """``canasta play`` with every rule off its default: each is named in the first lines."""
    fields = rule_fields(CanastaRules)
    values = {f.name: _other(f) for f in fields}
    assert cli.main(["canasta", "play", "--policies", "random", "--samples", "4", "--seed", "1", "--no-progress"]
                    + _argv(fields, values)) == 0
    head = _header(capsys.readouterr().out, 1)
    for f in fields:
        assert _words("canasta", f.name, values[f.name]) in head, (f.name, head)


def test_a_kana_header_names_every_rule_given(capsys):
    fields = [f for f in rule_fields(KanaRules) if f.name not in ("variant", "players")]
    values = {f.name: _other(f) for f in fields}
    assert cli.main(["kana", "odds", "--players", "3", "--exact"] + _argv(fields, values)) == 0
    head = _header(capsys.readouterr().out, 1)
    for f in fields:
        assert field_words(f.name, values[f.name]) in head, (f.name, head)


@pytest.mark.parametrize("game", ["kanalje", "canasta"])
def test_the_strategy_tables_header_names_every_rule_given(game):
    """The text the ``table`` command prints, the result's own text and page, and its JSON."""
    import dataclasses
    import importlib

    strategy = importlib.import_module(f"cardodds.{game}.strategy")
    game_cli = importlib.import_module(f"cardodds.{game}.cli")
    fields = [f for f in rule_fields(RULES[game]) if f.metadata.get("players") != 3]
    values = {f.name: _other(f) for f in fields} | ({"players": 2} if game == "kanalje" else {})
    rules = RULES[game](**values)
    result = dataclasses.replace(strategy.strategy_table(), rules=rules)  # the shipped counts, other rules
    text, page, data = game_cli.table_text(result), result._repr_html_(), json.loads(cu.json_text(result.to_dict()))
    for f in fields:
        words = field_words(f.name, values[f.name])
        assert words in _header(repr(result), 3), (f.name, _header(repr(result), 3))
        assert words in data["house_rules"]
        assert words in page.replace("&#x27;", "'")
        if f.name not in ("players", "phase1_jacks_cost"):  # Kanalje says these two in its own words
            assert _words(game, f.name, values[f.name]) in _header(text, 3), (f.name, _header(text, 3))
    if game == "kanalje":
        assert "2 players, phase-1 jacks fall dead" in _header(text, 3)
