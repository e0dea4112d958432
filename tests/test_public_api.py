"""Every public function that runs deals refuses bad ``samples=``, ``threads=`` and ``rng=`` first.

The functions are found, not listed: every name in the ``__all__`` of each game package and of
the core modules users call that is a function (classes and modules
skipped) and takes ``samples``, ``threads`` or ``rng``. Each is called with one bad value at a
time and otherwise valid arguments (:data:`VALID` holds the required ones); the
``ValueError`` must name the argument and its value (``threads=-5 ...``), as
``cardodds._validate.check_run`` words it, and come before any run starts (the engine is
never entered: the check comes first, so a bad call costs nothing).
"""

from __future__ import annotations

import importlib
import inspect
import types
from pathlib import Path

import pytest

from cardodds import canasta, engine, kana
from cardodds.kanalje import Hand as _KanaljeHand, Position as _KanaljePosition

#: Where the public functions are: the game packages and the core modules users call.
PUBLIC = ("cardodds.kana", "cardodds.kanalje", "cardodds.canasta", "cardodds.sweep", "cardodds.backend")

#: The bad values, per argument.
BAD = {
    "threads": (-5, 0, "x"),
    "samples": (0, -3, 1.5),
    "rng": (-1, "x"),
}

_KANALJE_DEAL = (["Ac Kc", "Qc 2d", "3c 4d"], "2h")
_KANALJE_STRENGTH = ("heuristic", "random")

#: Valid required arguments (positional, keyword) per function, named ``module:function``;
#: a function whose arguments all have defaults needs no line.
VALID: dict[str, tuple[tuple, dict]] = {
    "cardodds.kana:advise": ((kana.Position("2h ? ?", seat=2),), {"policies": "blind",
                                                                   "rules": kana.KanaRules(4, "peek-one")}),
    "cardodds.kana:compare": (("blind-first", "blind-third"), {}),
    "cardodds.kana:equilibrium": (("peek-one", 4), {}),
    "cardodds.kana:expected_value": (("threshold:8", 4), {}),
    "cardodds.kana:live_odds": (({0: "5h Ks Qd", 1: "2c Ah Ad"},), {"players": 2}),
    "cardodds.kana:trace": (("threshold:8,blind,blind,blind",), {}),
    "cardodds.kana:review": (("# cardodds trace: kana\nplayers: 3\nvariant: peek-one\n0: deal 9h 2c Kd\n"
                              "0: peek 9h\n0: känä 2c",), {}),
    "cardodds.kanalje:equity": (((12, 17, 5),), {}),
    "cardodds.canasta:equity": (((6200, 5400),), {}),
    "cardodds.kanalje:evaluate_hand": ((_KanaljeHand("Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc Td Th Ts 9s", "2c"),), {}),
    "cardodds.kanalje:trace": (("random",), {"hands": _KANALJE_DEAL[0], "turned": _KANALJE_DEAL[1]}),
    "cardodds.kanalje:advise": ((_KanaljePosition(seat=0, hand="Ac Kc Qc Ad Kd Qd Ah Kh Qh As Ks Qs Tc Td Th Ts 9s",
                                                  turned="2c"),), {}),
    "cardodds.kanalje:strength": (_KANALJE_STRENGTH, {}),
    "cardodds.kanalje:review": (("# cardodds trace: kanalje\nplayers: 3\nturned: 2s\n0: deal Ac Kc Qc Jh Kh 9h 3d 4d "
                                 "5d 6d 7d 8d 3s 4s 5s 6s 7s\n0: play Ac",), {}),
    "cardodds.canasta:advise": ((canasta.Position("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K",
                                                   pile_size=6, counts=(10, 9, 11)),), {}),
    "cardodds.canasta:hand_odds": (("Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h",), {}),
    "cardodds.canasta:review": ((str(Path(__file__).resolve().parents[1] / "docs" / "canasta-hand.txt"),), {}),
    "cardodds.sweep:sweep": (("{tmp}/sweep.sqlite", "kana.odds", {"players": [3]}), {}),
}


def _public_functions():
    """(``module:name``, function) for every public function taking a run argument."""
    found = []
    for where in PUBLIC:
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError:
            continue  # cardodds.backend is a function of the package, not a module
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isclass(obj) or isinstance(obj, types.ModuleType) or not callable(obj):
                continue
            if set(inspect.signature(obj).parameters) & set(BAD):
                found.append((f"{where}:{name}", obj))
    return found


FUNCTIONS = _public_functions()
CASES = [(key, func, arg, value) for key, func in FUNCTIONS for arg, values in BAD.items()
         if arg in inspect.signature(func).parameters for value in values]


def test_the_functions_are_found():
    keys = {key for key, _ in FUNCTIONS}
    assert {"cardodds.kana:odds", "cardodds.kanalje:jack_risk", "cardodds.canasta:melds", "cardodds.canasta:play",
            "cardodds.sweep:sweep"} <= keys
    assert len(FUNCTIONS) >= 20
    missing = [key for key, func in FUNCTIONS if key not in VALID and any(
        p.default is p.empty and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
        for p in inspect.signature(func).parameters.values())]
    assert missing == [], "add their valid required arguments to VALID"


@pytest.fixture
def no_run(monkeypatch):
    """Entering ``engine.run`` fails the test: the arguments were not checked before the run."""
    def entered(threads):
        raise AssertionError("engine.run was entered: the run arguments were not checked first")

    monkeypatch.setattr(engine, "check_threads", entered)


@pytest.mark.parametrize("key, func, arg, value", CASES,
                         ids=[f"{key.split('.', 1)[1]}-{arg}={value!r}" for key, _, arg, value in CASES])
def test_bad_run_arguments_are_refused_first(key, func, arg, value, no_run, tmp_path):
    args, kwargs = VALID.get(key, ((), {}))
    args = tuple(a.format(tmp=tmp_path) if isinstance(a, str) and "{tmp}" in a else a for a in args)
    with pytest.raises(ValueError) as err:
        func(*args, **{**kwargs, arg: value})
    assert f"{arg}={value!r}" in str(err.value), str(err.value)


@pytest.mark.parametrize("threads", BAD["threads"])
def test_engine_run_refuses_bad_threads(threads):
    def kernel(state, n, out):  # never called
        raise AssertionError("the kernel ran")

    with pytest.raises(ValueError, match=f"threads={threads!r} must be a positive whole number"):
        engine.run(kernel, (), 1, samples=10, threads=threads)
