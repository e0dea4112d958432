"""Start-up cost: building the CLI's parser and importing the game packages stay light.

Counted in modules (``python -X importtime``), never in seconds: the machine's speed does not
change which modules a command imports. Wall times are measured in benchmarks/RESULTS_startup.md.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

#: Modules a parser-only run may not import (what used to make ``--help`` take a second or more).
HEAVY = ("numba", "pandas", "matplotlib", "scipy")

#: Most modules ``cardodds ... --help`` may import, the interpreter's own start-up included.
#: Measured at 307 (Python 3.12, numpy 2) once the parser stopped importing the analyses;
#: it was 1,107 before. The headroom allows other numpy/Python versions and a few new light modules.
MODULE_BUDGET = 400

HELP_COMMANDS = ([], ["kana"], ["kanalje"], ["canasta"], ["kana", "odds"], ["kanalje", "risk"],
                 ["kanalje", "advise"], ["canasta", "melds"], ["report"], ["sweep"])


def imported_modules(*args: str) -> list[str]:
    """The modules ``python -X importtime <args>`` imports, in order."""
    run = subprocess.run([sys.executable, "-X", "importtime", *args], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    names = [line.rsplit("|", 1)[1].strip() for line in run.stderr.splitlines() if line.startswith("import time:")]
    return [n for n in names if n != "package"]  # the header line


def heavy(modules: list[str]) -> list[str]:
    return [m for m in modules if m.split(".")[0] in HEAVY
            or (m.startswith("cardodds.") and m.rsplit(".", 1)[-1] in ("_kernels", "_play", "_session"))]


@pytest.mark.parametrize("command", HELP_COMMANDS, ids=lambda c: " ".join(c) or "top")
def test_help_imports_nothing_heavy(command):
    modules = imported_modules("-m", "cardodds.cli", *command, "--help")
    assert "cardodds.cli" in modules or "cardodds._cliutil" in modules  # the listing is what we think it is
    assert heavy(modules) == []
    assert len(modules) <= MODULE_BUDGET, f"{len(modules)} modules imported, budget {MODULE_BUDGET}"


@pytest.mark.parametrize("package", ["cardodds", "cardodds.kana", "cardodds.kanalje", "cardodds.canasta"])
def test_importing_a_package_is_light(package):
    modules = imported_modules("-c", f"import {package}")
    assert package in modules
    assert heavy(modules) == []
    assert len(modules) <= MODULE_BUDGET


def test_the_counter_sees_heavy_modules():
    # Reading a public analysis loads the kernels, making a frame loads pandas: the checks above can fail.
    assert {"pandas", "numba", "cardodds.kana._kernels"} <= set(heavy(imported_modules(
        "-c", "import cardodds.kana; cardodds.kana.exact_odds(players=4).to_frame()")))


def test_lazy_names_are_the_modules_objects():
    import cardodds.canasta as C
    import cardodds.canasta.advise  # noqa: F401 - the submodule shares a public function's name
    import cardodds.kana as K
    import cardodds.kanalje as J
    from cardodds.canasta import analysis as canasta_analysis, play as canasta_play
    from cardodds.kana import analysis as kana_analysis, session as kana_session
    from cardodds.kana.equilibrium import equilibrium
    from cardodds.kanalje import analysis as kanalje_analysis, play as kanalje_play, policies

    assert C.melds is canasta_analysis.melds and callable(C.play) and C.play.__name__ == "play"
    assert callable(C.advise) and C.advise.__name__ == "advise"
    assert canasta_play is C.play and K.session.__module__ == "cardodds.kana.session" and callable(kana_session)
    assert K.odds is kana_analysis.odds and K.equilibrium is equilibrium
    assert J.__all__ == ["POLICIES", "KanaljeRules", *kanalje_analysis.__all__, *kanalje_play.__all__,
                         "Hand", "Position", "advise", "equity", "positions", "review", "strategy_table"]
    import cardodds.kanalje.review  # noqa: F401 - the submodule shares a public function's name
    assert callable(J.review) and J.review.__name__ == "review"
    assert J.POLICIES is policies.POLICIES
    for package in (C, K, J):
        for name in package.__all__:
            assert getattr(package, name) is not None
        assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        K.nope  # noqa: B018


def test_parser_defaults_are_the_apis():
    import inspect

    from cardodds.canasta import _defaults as canasta_defaults, analysis as canasta_analysis
    from cardodds.kana import _defaults as kana_defaults, analysis as kana_analysis, decisions
    from cardodds.kana.equilibrium import equilibrium
    from cardodds.kanalje import _defaults as kanalje_defaults, analysis as kanalje_analysis, policies

    assert kana_analysis.DEFAULT_SAMPLES == kana_defaults.ODDS_SAMPLES
    assert decisions.DEFAULT_SAMPLES == kana_defaults.DECISION_SAMPLES
    assert inspect.signature(equilibrium).parameters["samples"].default == kana_defaults.TABLE_SAMPLES
    assert canasta_analysis.MAX_TURNS == canasta_defaults.MAX_TURNS
    # kanalje.policies still defines its own names and default; they must agree with the parser's.
    assert tuple(policies.POLICIES) == kanalje_defaults.POLICY_NAMES
    assert policies.DEFAULT_LOOKAHEAD_SAMPLES == kanalje_defaults.DEFAULT_LOOKAHEAD_SAMPLES
    assert (inspect.signature(kanalje_analysis.jack_risk).parameters["lookahead_samples"].default
            == kanalje_defaults.DEFAULT_LOOKAHEAD_SAMPLES)


@pytest.mark.parametrize("module", ["cardodds.kana.analysis", "cardodds.kana.decisions", "cardodds.kana.session",
                                    "cardodds.kana.advise", "cardodds.kana.equilibrium", "cardodds.kana.policies",
                                    "cardodds.kanalje.analysis", "cardodds.kanalje.play", "cardodds.canasta.analysis",
                                    "cardodds.canasta.play"])
def test_analyses_load_pandas_and_matplotlib_when_a_frame_or_chart_is_made(module):
    modules = imported_modules("-c", f"import {module}")
    assert module in modules
    assert [m for m in modules if m.split(".")[0] in ("pandas", "matplotlib")] == []


def test_the_program_imports_no_scipy_linalg_and_a_session_keeps_numbas_blas():
    """numba asks at import whether scipy's BLAS is there; the ``cardodds`` program answers "no"
    for that one question (it compiles nothing that uses BLAS, and the import of ``scipy.linalg``
    was part of every command's start-up). In a user's session numba asks as it would."""
    program = ("import sys; sys.argv = ['cardodds', 'kana', 'odds', '--samples', '2000', '--seed', '1']; "
               "from cardodds.cli import main; main()")
    modules = imported_modules("-c", program)
    assert "numba.np.arraymath" in modules and "cardodds.kana._kernels" in modules
    assert "scipy.linalg" not in modules
    code = ("from cardodds.cli import main\n"
            "main(['kana', 'odds', '--samples', '2000', '--seed', '1', '--json'])\n"
            "import numba.np.arraymath as m; print(m._HAVE_BLAS)")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and run.stdout.strip().endswith("True"), run.stderr[-2000:]
