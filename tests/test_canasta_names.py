"""Canasta's names after the one-shape move: ``rules=`` keyword-only, one constant for each
default; every public function that runs deals checks its run arguments the one way."""

from __future__ import annotations

import importlib

import pytest

from cardodds import canasta
from cardodds.canasta import CanastaRules, Meld, exact


def test_rules_are_keyword_only_with_none_for_the_defaults():
    import inspect

    from cardodds.canasta.play import tune

    for f in (canasta.play, canasta.game, canasta.house_options, canasta.strength, canasta.game_strength,
              canasta.trace, canasta.melds, canasta.hand_odds, canasta.best_first_meld, canasta.can_swap,
              canasta.meld_options, canasta.advise, canasta.score_side, tune,
              *(getattr(exact, name) for name in exact.__all__), Meld.is_legal, Meld.points, Meld.score):
        p = inspect.signature(f).parameters["rules"]
        assert (p.kind, p.default) == (p.KEYWORD_ONLY, None), f.__name__
    with pytest.raises(ValueError, match="CanastaRules object"):
        canasta.play(rules="naturals", samples=10)


def test_the_packed_rules_name_their_fields():
    from cardodds.canasta.rules import RULES as LAYOUT

    v = LAYOUT.view(CanastaRules(going_out="meld_all", target=1500).pack())
    assert (v.meld_all, v.target) == (1, 1500)


def test_one_constant_for_each_default():
    import inspect

    from cardodds.canasta import _defaults as D

    play = importlib.import_module("cardodds.canasta.play")
    assert inspect.signature(play.game).parameters["max_hands"].default == D.DEFAULT_MAX_HANDS
    assert play.DEFAULT_GAMES == D.DEFAULT_GAMES and play.DEFAULT_HANDS == D.DEFAULT_HANDS
    # advise takes samples= or target_halfwidth= as play does: None means the module's default
    assert inspect.signature(canasta.advise).parameters["samples"].default is None
    assert importlib.import_module("cardodds.canasta.advise").DEFAULT_ADVICE_SAMPLES == D.DEFAULT_ADVICE_SAMPLES
    assert inspect.signature(canasta.melds).parameters["turns"].default == D.MELD_TURNS
    assert inspect.signature(canasta.hand_odds).parameters["turns"].default == D.HAND_TURNS
    from cardodds.canasta import _kernels, _table, cards

    assert (_kernels.TWO, _kernels.JOKER, _kernels.N_KINDS) == (cards.TWO, cards.JOKER, cards.N_KINDS)
    assert not hasattr(_table, "MAX_ROUNDS") and not hasattr(_table, "MOVE_NAMES")


#: Every Canasta function that runs deals, called with one bad run argument.
RUNS = {
    "melds": lambda **kw: canasta.melds(turns=1, **{"samples": 100, **kw}),
    "hand_odds": lambda **kw: canasta.hand_odds("Kh Kd 9c", 1, **{"samples": 100, **kw}),
    "play": lambda **kw: canasta.play("random", **{"samples": 10, **kw}),
    "game": lambda **kw: canasta.game("random", **{"samples": 2, **kw}),
    "house_options": lambda **kw: canasta.house_options("random", options=["jokers=6"], **{"samples": 10, **kw}),
    "strength": lambda **kw: canasta.strength(**{"samples": 10, **kw}),
    "advise": lambda **kw: canasta.advise(canasta.Position("K K 9 9 5 7 Q Jk 3b"), **{"samples": 10, **kw}),
    "tune": lambda **kw: canasta.tune(grid={"take_min_pile": (8,)}, **{"samples": 10, **kw}),
}


@pytest.mark.parametrize("name", list(RUNS))
@pytest.mark.parametrize("bad, message", [({"threads": -5}, "threads=-5 must be a positive whole number"),
                                          ({"threads": True}, "positive whole number"),
                                          ({"samples": 0}, "samples=0 must be positive"),
                                          ({"rng": "x"}, "rng='x' is not understood"),
                                          ({"rng": -1}, "negative")])
def test_bad_run_arguments_are_refused_the_one_way(name, bad, message):
    with pytest.raises(ValueError, match=message):
        RUNS[name](**bad)


def test_trace_checks_its_seed():
    with pytest.raises(ValueError, match="not understood"):
        canasta.trace("random", rng="x")


def test_the_commands_defaults_are_the_functions():
    import argparse
    import inspect

    from cardodds import _cliutil as cu
    from cardodds.canasta import cli

    sub = argparse.ArgumentParser().add_subparsers()
    cli.add_commands(sub)
    commands = sub.choices["canasta"]._subparsers._group_actions[0].choices  # type: ignore[union-attr]

    def default(command, flag):
        return commands[command].get_default(flag)

    def param(f, name):
        return inspect.signature(f).parameters[name].default

    rules = CanastaRules()
    required = {"hand": ["--hand", "Ah"], "advise": ["--hand", "Ah"]}
    for command in ("melds", "hand", "play", "advise"):  # a rules flag not given: the rules' default
        args = commands[command].parse_args(required.get(command, []))
        assert cu.rules_of(args, CanastaRules) == rules
        assert default(command, "wild_limit") is None and default(command, "jokers") is None
    assert default("melds", "hand_size") == param(canasta.melds, "hand_size")
    assert default("melds", "turns") == param(canasta.melds, "turns")
    assert default("melds", "discard") == param(canasta.melds, "discard") == param(canasta.hand_odds, "discard")
    assert default("hand", "turns") == param(canasta.hand_odds, "turns")
    assert default("play", "policies") == param(canasta.play, "policies") == param(canasta.game, "policies")
    assert default("advise", "turn") == param(canasta.Position, "turn")
    # --counts and --red3 not given: the function's defaults apply (the command passes nothing)
    assert default("advise", "counts") is None and default("advise", "red3") is None
    assert default("advise", "policies") == param(canasta.advise, "policies")
