"""``import cardodds`` leaves a user's numba as it found it, and cardodds falls back to numba's own
compiler where its replacements of numba internals cannot be trusted (``cardodds._compiler``)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_USER = '''
import numpy as np
from numba import njit


@njit(cache=True)
def norm2(a):
    s = 0.0
    for x in a:
        s += x * x
    return s


@njit(cache=True)
def convolved(a, b):
    return np.convolve(a, b)
'''

_SESSION = '''
import json, sys
import numba
if sys.argv[1] == "cardodds":
    from cardodds import canasta, kana, kanalje
    kana.odds(3, samples=2_000, rng=1, threads=1)  # kernels compiled or loaded, helpers linked
    kanalje.jack_risk("lookahead,heuristic,random", samples=4, lookahead_samples=2, rng=1, threads=1)
    canasta.melds(12, samples=1_000, rng=1, threads=1)
import numpy as np
import user_mod
a = np.arange(6.0)
answers = [user_mod.norm2(a), list(user_mod.convolved(a, a[:3]))]
import numba.np.arraymath as arraymath
from numba.core import config
swapped = []
if sys.argv[1] == "cardodds":
    from cardodds import _compiler
    swapped = [f"{owner.__name__}.{attr}" for owner, attr, _, theirs in _compiler._SWAPS
               if vars(owner)[attr] is not theirs]
print(json.dumps({
    "answers": answers,
    "cache": [f._cache.cache_path for f in (user_mod.norm2, user_mod.convolved)],
    "cached": sorted(__import__("os").listdir(user_mod.norm2._cache.cache_path)),
    "ir": [f.inspect_llvm(f.signatures[0]) for f in (user_mod.norm2, user_mod.convolved)],
    "blas": arraymath._HAVE_BLAS,
    "config": {k: repr(v) for k, v in vars(config).items() if k.isupper()},
    "swapped": swapped,
}))
'''


def _session(tmp_path: Path, mode: str) -> dict:
    """A fresh process that runs a user's own ``@njit(cache=True)`` functions, after running
    cardodds' kernels (``mode`` "cardodds") or without cardodds ("plain"); what it saw."""
    folder = tmp_path / mode
    folder.mkdir()
    (folder / "user_mod.py").write_text(_USER)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NUMBA_", "CARDODDS_"))}
    env["PYTHONPATH"] = os.pathsep.join([str(folder), str(ROOT)])
    env["PYTHONHASHSEED"] = "0"  # numba names string constants by their hash
    run = subprocess.run([sys.executable, "-c", _SESSION, mode], env=env, cwd=folder, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout)
    seen["cache"] = [str(Path(p).relative_to(folder)) for p in seen["cache"]]
    seen["ir"] = [_unnumbered(ir.replace(str(folder), "FOLDER")) for ir in seen["ir"]]
    return seen


def _unnumbered(ir: str) -> str:
    """The IR without the number numba gives each function it compiles in a process (``B2v1B``),
    which counts every function compiled before it, cardodds' included."""
    ir = re.sub(r"B\d+v\d+B", "BvB", ir)
    return re.sub(r'\[\d+ x i8\] c"missing Environment', '[n x i8] c"missing Environment', ir)


def test_a_users_numba_functions_compile_cache_and_run_as_without_cardodds(tmp_path):
    with_cardodds, plain = _session(tmp_path, "cardodds"), _session(tmp_path, "plain")
    # beside the user's module, as numba puts them: not in cardodds' folder
    assert with_cardodds["cache"] == plain["cache"] == ["__pycache__", "__pycache__"]
    assert with_cardodds["cached"] == plain["cached"] == [
        "user_mod.convolved-14.py311.1.nbc", "user_mod.convolved-14.py311.nbi",
        "user_mod.norm2-6.py311.1.nbc", "user_mod.norm2-6.py311.nbi"]
    assert with_cardodds["answers"] == plain["answers"] == [55.0, [0.0, 0.0, 1.0, 4.0, 7.0, 10.0, 13.0, 10.0]]
    assert with_cardodds["ir"] == plain["ir"] and all(len(ir) > 1000 for ir in plain["ir"])
    assert with_cardodds["blas"] == plain["blas"]
    assert with_cardodds["config"] == plain["config"]
    assert with_cardodds["swapped"] == []  # every replaced numba internal is numba's own again


_SAME = ["kana.odds", "kanalje.jack_risk lookahead", "kanalje.advise", "canasta.advise"]


def test_numbas_own_compiler_gives_the_same_counts(tmp_path):
    # CARDODDS_COMPILER=numba: what a numba outside the tested versions (or with other
    # internals) gets, with its notice; the same figures as with the replacements.
    code = textwrap.dedent(f"""
        import json
        from tests import test_same_counts as t
        from cardodds import _compiler, _jit
        got = {{name: t.as_json(t.run(name)) for name in {_SAME!r}}}
        recorded = t.recorded()
        print(json.dumps([_compiler.FALLBACK, sorted(_compiler.ACTIVE), _jit.CACHE_DIR.endswith("-numbas-compiler"),
                          [name for name in got if got[name] != recorded[name]]]))
    """)
    env = {**os.environ, "CARDODDS_COMPILER": "numba", "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout) == ["CARDODDS_COMPILER=numba", [], True, []]
    notice = [line for line in run.stderr.splitlines() if line.startswith("cardodds:")]
    assert notice == ["cardodds: CARDODDS_COMPILER=numba; compiling with numba's own compiler "
                      "(first calls take longer)"]


def test_a_numba_outside_the_tested_versions_or_with_other_internals_gets_numbas_compiler(monkeypatch):
    import numba
    from numba.core import postproc

    from cardodds import _compiler

    monkeypatch.delenv("CARDODDS_COMPILER", raising=False)
    monkeypatch.delenv("CARDODDS_COMPILER_WITHOUT", raising=False)
    assert _compiler._choose() == (frozenset(_compiler.REPLACEMENTS), None)
    newest = ".".join(map(str, _compiler.TESTED[1]))
    monkeypatch.setattr(numba, "__version__", newest + ".9")
    assert _compiler._choose()[1] is None
    for version in ("0.58.1", f"0.{_compiler.TESTED[1][1] + 1}.0", "1.0.0"):
        monkeypatch.setattr(numba, "__version__", version)
        active, why = _compiler._choose()
        assert active == frozenset() and why.startswith(f"numba {version} is outside the versions"), why
    monkeypatch.setattr(numba, "__version__", newest + ".0")

    def run(self, emit_dels=False):  # a numba whose tidying takes other arguments
        return None

    monkeypatch.setattr(postproc.PostProcessor, "run", run)
    active, why = _compiler._choose()
    assert active == frozenset() and "PostProcessor.run(self, emit_dels=False)" in why, why
    monkeypatch.setenv("CARDODDS_COMPILER_WITHOUT", "tidy")  # left out: not needed
    assert _compiler._choose()[1] is None


def test_an_unknown_replacement_to_leave_out_is_refused(monkeypatch):
    from cardodds import _compiler

    monkeypatch.setenv("CARDODDS_COMPILER_WITHOUT", "memo,speed")
    with pytest.raises(ValueError, match=r"names \['speed'\]: use some of inline, memo"):
        _compiler._choose()


def test_pyproject_allows_the_numba_versions_the_compile_layer_is_tested_on():
    import tomllib

    from cardodds._compiler import TESTED

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    numba = next(d.split("#")[0].strip() for d in deps if d.startswith("numba"))
    (lo_major, lo_minor), (hi_major, hi_minor) = TESTED
    assert numba == f"numba>={lo_major}.{lo_minor},<{hi_major}.{hi_minor + 1}"


def test_an_unwritable_cache_folder_compiles_on_every_run_and_says_so_once(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": "/proc/no-such-folder", "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-m", "cardodds.cli", "kana", "odds", "--players", "3", "--samples", "2000",
                          "--seed", "1", "--json"], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert json.loads(run.stdout)["samples"] == 2000
    notice = [line for line in run.stderr.splitlines() if line.startswith("cardodds:")]
    assert len(notice) == 1 and "cannot write its compile cache /proc/no-such-folder/" in notice[0], run.stderr


def test_a_numba_without_the_cache_classes_cardodds_builds_on_answers_uncached(tmp_path):
    # as a numba whose caching module differs: the same figures, compiled on every run, said once
    code = textwrap.dedent("""
        import json
        from numba.core import caching
        del caching._SourceFileBackedLocatorMixin
        from tests import test_same_counts as t
        print(json.dumps(t.as_json(t.run("kana.odds")) == t.recorded()["kana.odds"]))
    """)
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(ROOT)}
    run = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.strip() == "true"
    notice = [line for line in run.stderr.splitlines() if line.startswith("cardodds:")]
    assert len(notice) == 1 and "has no _SourceFileBackedLocatorMixin" in notice[0], run.stderr
    assert not any(tmp_path.rglob("*.nbi"))  # nothing cached
