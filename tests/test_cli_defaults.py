"""Every command's defaults are its function's defaults: the command line never holds a second copy.

Two checks per command of :data:`COMMANDS` (a command, the words that run it with only its
required inputs, and the public function it calls):

- each option's argparse default equals the default of the function's parameter of the same
  name (:data:`DEST_TO_PARAM` where the option's destination is named otherwise), or of the
  rules field it sets; options with neither are skipped, and so is a default of None ("not
  given": the second check sees that the function's default then applies);
- run with only its required inputs, with the function replaced by a recorder, the command
  passes each argument either as the function's own default or not at all: a default the
  handler fills in itself (``args.samples or 1_000``) is a second copy, and is caught here.
  A rules object counts as the default when it equals the rules built with no options.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect

import pytest

from cardodds.cli import build_parser, main

#: command -> (the words running it with its required inputs only, "module:function" it calls).
COMMANDS: dict[str, tuple[list[str], str]] = {
    "kana odds": (["kana", "odds"], "cardodds.kana:odds"),
    "kana advise": (["kana", "advise", "--hand", "9h ? ?"], "cardodds.kana:advise"),
    "kana table": (["kana", "table"], "cardodds.kana:strategy_table"),
    "kana session": (["kana", "session"], "cardodds.kana:session"),
    "kanalje risk": (["kanalje", "risk"], "cardodds.kanalje:jack_risk"),
    "kanalje hand": (["kanalje", "hand", "--hand", "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s",
                      "--turned", "7h"], "cardodds.kanalje:evaluate_hand"),
    "kanalje game": (["kanalje", "game"], "cardodds.kanalje:game"),
    "kanalje advise": (["kanalje", "advise", "--seat", "0", "--hand",
                        "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", "--turned", "7h"],
                       "cardodds.kanalje:advise"),
    "kanalje table": (["kanalje", "table"], "cardodds.kanalje:strategy_table"),
    "kanalje review": (["kanalje", "review", "docs/kanalje-review-deal.txt"], "cardodds.kanalje:review"),
    "canasta melds": (["canasta", "melds"], "cardodds.canasta:melds"),
    "canasta hand": (["canasta", "hand", "--hand", "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h"],
                     "cardodds.canasta:hand_odds"),
    "canasta play": (["canasta", "play"], "cardodds.canasta:play"),
    "canasta game": (["canasta", "game"], "cardodds.canasta:game"),
    "canasta house-options": (["canasta", "house-options"], "cardodds.canasta:house_options"),
    "canasta trace": (["canasta", "trace"], "cardodds.canasta:trace"),
    "kanalje trace": (["kanalje", "trace"], "cardodds.kanalje:trace"),
    "kana trace": (["kana", "trace"], "cardodds.kana:trace"),
    "kana review": (["kana", "review", "docs/kana-evening.txt"], "cardodds.kana:review"),
    "canasta review": (["canasta", "review", "docs/canasta-hand.txt"], "cardodds.canasta:review"),
    "canasta strength": (["canasta", "strength"], "cardodds.canasta:strength"),
    "canasta game-strength": (["canasta", "game-strength"], "cardodds.canasta:game_strength"),
    "kanalje strength": (["kanalje", "strength"], "cardodds.kanalje:strength"),
    "canasta advise": (["canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b"], "cardodds.canasta:advise"),
    "sweep": (["sweep", "{tmp}/s.sqlite", "kana.odds", "--grid", "players=3"], "cardodds.sweep:sweep"),
    "report": (["report", "--out", "{tmp}/r"], "cardodds.report:build"),
}

#: Option destinations named otherwise than the parameter they set.
DEST_TO_PARAM = {"precision": "target_halfwidth", "seed": "rng", "dask": "backend", "out": "outdir",
                 "section": "sections"}

#: Arguments a command passes from its required inputs or from how it is run, not defaults
#: (``rng``: without ``--seed`` the command draws the seed itself, to print it with the result).
NOT_DEFAULTS = {"progress", "backend", "hand", "turned", "cards", "path", "question", "grid", "outdir", "log",
                "timings", "next_section", "pile", "shown", "rng"}

#: (command, option) pairs whose default means the function's default in another form.
SAME_MEANING = {
    ("kana table", "players"): "a list of table sizes, the function called once for each",
    ("kana advise", "variant"): "kana._defaults.ADVISE_VARIANT, the advisor's variant when none is given",
    ("kana table", "variant"): "kana._defaults.TABLE_VARIANT, strategy_table's variant when none is given",
}


def _advisor_rules():
    from cardodds.kana import KanaRules
    from cardodds.kana._defaults import ADVISE_VARIANT

    return KanaRules(variant=ADVISE_VARIANT)


#: Commands whose function plays other rules than the rules object's defaults when given none.
RULES_WHEN_NONE = {"kana advise": _advisor_rules}


def _function(path: str):
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


def _subparser(words: list[str]) -> argparse.ArgumentParser:
    parser = build_parser()
    for word in words:
        action = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if action is None or word not in action.choices:
            break
        parser = action.choices[word]
    return parser


def _rules_defaults(path: str) -> dict:
    """The game's rules fields and their defaults (an option setting a rules field is compared with it)."""
    package = importlib.import_module(".".join(path.split(":")[0].split(".")[:2]))
    name = next((n for n in getattr(package, "__all__", []) if n.endswith("Rules")), None)
    if name is None:
        return {}
    return {f.name: getattr(getattr(package, name)(), f.name) for f in dataclasses.fields(getattr(package, name))}


def _is_default(value, default) -> bool:
    if value is default or value == default:
        return True
    if isinstance(value, list) and isinstance(default, tuple):
        return tuple(value) == default  # argparse gives a list where the signature shows a tuple
    if dataclasses.is_dataclass(value) and not isinstance(value, type) and (default is None
                                                                             or dataclasses.is_dataclass(default)):
        return value == type(value)()  # the rules built from no options
    return False


@pytest.mark.parametrize("command", list(COMMANDS))
def test_option_defaults_are_the_function_defaults(command):
    words, path = COMMANDS[command]
    params = inspect.signature(_function(path)).parameters
    rules = _rules_defaults(path) if "rules" in params else {}
    wrong = []
    for action in _subparser(words)._actions:
        name = DEST_TO_PARAM.get(action.dest, action.dest)
        if (command, name) in SAME_MEANING or name in NOT_DEFAULTS or action.default in (None, argparse.SUPPRESS):
            continue  # None: "not given", the function's default applies (the second check sees it does)
        if name in params and not (params[name].default is None and name in rules):
            default = params[name].default
        elif name in rules:  # a field of the rules the command builds (a parameter of None means the rules')
            default = rules[name]
        else:
            continue  # no parameter: the option is the command's own
        if isinstance(action.default, str) and not isinstance(default, str):
            continue  # text the handler converts ("12,12,12"): the second check compares what it passes
        if default is not inspect.Parameter.empty and not _is_default(action.default, default):
            wrong.append(f"--{action.dest.replace('_', '-')} defaults to {action.default!r}, "
                         f"{path} {name}={default!r}")
    assert wrong == [], wrong


class _Called(BaseException):
    """Raised by the recorder in place of the function: the call the command made, not run."""


@pytest.mark.parametrize("command", list(COMMANDS))
def test_the_command_passes_the_function_defaults(command, monkeypatch, tmp_path):
    words, path = COMMANDS[command]
    public = _function(path)
    real = inspect.unwrap(public)
    signature = inspect.signature(public)
    calls = []

    def recorder(*args, **kwargs):
        calls.append(signature.bind(*args, **kwargs).arguments)
        raise _Called

    for module in {importlib.import_module(real.__module__), importlib.import_module(path.split(":")[0])}:
        if real.__name__ in vars(module):
            monkeypatch.setattr(module, real.__name__, recorder)
    with pytest.raises(_Called):
        main([w.replace("{tmp}", str(tmp_path)) for w in words])
    passed = calls[0]
    if command in RULES_WHEN_NONE and "rules" in passed:  # the rules the function plays for rules=None
        assert passed.pop("rules") == RULES_WHEN_NONE[command]()
    wrong = [f"{name}={value!r}, {path} has {name}={signature.parameters[name].default!r}"
             for name, value in passed.items()
             if name not in NOT_DEFAULTS and (command, name) not in SAME_MEANING
             and signature.parameters[name].default is not inspect.Parameter.empty
             and not _is_default(value, signature.parameters[name].default)]
    assert wrong == [], wrong


def test_the_check_can_fail(monkeypatch, tmp_path):
    # A handler with a default of its own is caught: here run_size says 7 samples when none are asked.
    from cardodds import _cliutil

    real = _cliutil.run_size
    monkeypatch.setattr(_cliutil, "run_size", lambda args: {**real(args), "samples": args.samples or 7})
    with pytest.raises(AssertionError, match="samples=7, cardodds.kana:odds has samples=None"):
        test_the_command_passes_the_function_defaults("kana odds", monkeypatch, tmp_path)
