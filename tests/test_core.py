import math
import os

import numpy as np
import pytest
from numba import njit

from cardodds._random import bounded, deal3_from, deal_from
from cardodds.engine import check_run_size, run
from cardodds.rng import as_seed_sequence, chunk_state
from cardodds.stats import Estimate, merge_counts, paired_difference

from .naive import Stock, Xoshiro


@njit(nogil=True, cache=True)
def _dice(s, n, out, sides):
    for _ in range(n):
        out[bounded(s, sides)] += 1


def test_xoshiro_matches_reference_twin(chunk):
    s = chunk()
    twin = Xoshiro(s.copy())
    deck = np.arange(52)
    ref = Stock(range(52))
    got = [deal3_from(s, deck, 0, 52) for _ in range(3)]
    ref_hands = []
    for _ in range(3):
        ref.i = 0
        ref_hands.append(tuple(ref.deal3(twin)))
    assert [tuple(int(c) for c in g) for g in got] == ref_hands
    assert [bounded(s, 7) for _ in range(20)] == [twin.bounded(7) for _ in range(20)]


@njit(cache=True)
def _deal_all(s, deck):
    word = np.uint64(0)
    have = 0
    out = np.empty(deck.shape[0], np.int64)
    for i in range(deck.shape[0]):
        out[i], word, have = deal_from(s, deck, i, deck.shape[0], word, have)
    return out


def test_deal_from_is_a_shuffle_without_replacement_and_matches_twin(chunk):
    s = chunk()
    twin = Xoshiro(s.copy())
    dealt = _deal_all(s, np.arange(52))
    assert sorted(dealt.tolist()) == list(range(52))
    ref = Stock(range(52))
    assert dealt.tolist() == [ref.deal(twin) for _ in range(52)]


def test_bounded_is_uniform():
    r = run(_dice, (6,), 6, samples=600_000, rng=3, chunk_size=1 << 14, threads=1)
    chi2 = ((r.counts - 100_000) ** 2 / 100_000).sum()
    assert r.counts.sum() == 600_000
    assert chi2 < 25  # 5 degrees of freedom: P(chi2 > 25) < 2e-4


def test_same_seed_same_counts_on_any_number_of_threads():
    a = run(_dice, (6,), 6, samples=100_003, rng=9, chunk_size=1 << 12, threads=1)
    b = run(_dice, (6,), 6, samples=100_003, rng=9, chunk_size=1 << 12, threads=2)
    c = run(_dice, (6,), 6, samples=100_003, rng=np.random.SeedSequence(9), chunk_size=1 << 12, threads=3)
    assert (a.counts == b.counts).all() and (a.counts == c.counts).all()
    assert a.samples == b.samples == 100_003 and a.seed == 9
    d = run(_dice, (6,), 6, samples=100_003, rng=10, chunk_size=1 << 12, threads=2)
    assert not (a.counts == d.counts).all()


def test_seed_forms():
    ss, seed = as_seed_sequence(None)
    again, _ = as_seed_sequence(seed)
    assert (chunk_state(ss, 5) == chunk_state(again, 5)).all()
    g = np.random.default_rng(1)
    s1, _ = as_seed_sequence(g)
    s2, _ = as_seed_sequence(g)
    assert not (chunk_state(s1, 0) == chunk_state(s2, 0)).all()
    for bad in (-1, "x", 1.5, True):
        with pytest.raises(ValueError, match="rng=|negative"):
            as_seed_sequence(bad)


def test_chunk_seed_is_spawned_child():
    ss = np.random.SeedSequence(77)
    child = np.random.SeedSequence(77).spawn(4)[3]
    expected = child.generate_state(4, np.uint64)
    assert (chunk_state(ss, 3) == expected).all()


def test_target_halfwidth_stops_when_precise_enough():
    def hw(counts, n):
        p = counts[0] / n
        return 1.96 * math.sqrt(p * (1 - p) / n)

    r = run(_dice, (6,), 6, target_halfwidth=0.002, halfwidth=hw, rng=1, chunk_size=1 << 12, threads=2)
    assert hw(r.counts, r.samples) <= 0.002
    assert r.samples < 4 * 140_000  # p = 1/6 needs about 134,000 rolls
    r2 = run(_dice, (6,), 6, target_halfwidth=0.002, halfwidth=hw, rng=1, chunk_size=1 << 12, threads=1)
    assert r2.samples == r.samples and (r2.counts == r.counts).all()


def test_ctrl_c_returns_partial_counts():
    calls = []

    def kernel(state, n, out, sides):
        calls.append(n)
        if len(calls) == 4:
            raise KeyboardInterrupt
        _dice(state, n, out, sides)

    r = run(kernel, (6,), 6, samples=100 * 1000, rng=1, chunk_size=1000, threads=1)
    assert r.partial and r.samples == 3000 and r.counts.sum() == 3000


def test_check_run_size():
    for bad in (0, -5, 1.5, "10"):
        with pytest.raises(ValueError, match="samples"):
            check_run_size(bad, None)
    for bad in (0, -0.1, 1.0, float("nan")):
        with pytest.raises(ValueError, match="precision"):
            check_run_size(None, bad)
    with pytest.raises(ValueError, match="not both"):
        check_run_size(10, 0.01)


def test_wilson_interval_known_values():
    e = Estimate.proportion(250, 1000)
    # Wilson 95%: 0.25 +- from the closed form
    z = 1.959963984540054
    centre = (0.25 + z * z / 2000) / (1 + z * z / 1000)
    half = z * math.sqrt(0.25 * 0.75 / 1000 + z * z / 4e6) / (1 + z * z / 1000)
    assert e.lo == pytest.approx(centre - half, abs=1e-12) and e.hi == pytest.approx(centre + half, abs=1e-12)
    zero = Estimate.proportion(0, 50)
    assert zero.lo == 0.0 and 0.05 < zero.hi < 0.08
    assert Estimate.proportion(50, 50).hi == 1.0


def test_exact_estimate_and_scaling():
    from fractions import Fraction

    e = Estimate.exact_value(Fraction(1, 4))
    assert (e.value, e.se, e.lo, e.hi, e.exact) == (0.25, 0.0, 0.25, 0.25, True)
    g = e.scaled(4, -1)
    assert g.fraction == 0 and g.value == 0.0
    assert e.to_dict() == {"value": 0.25, "se": 0.0, "lo": 0.25, "hi": 0.25}


def test_paired_difference():
    d = paired_difference(plus=55, minus=45, n=1000)
    assert d.value == pytest.approx(0.01)
    assert d.contains_zero()
    sd = math.sqrt((100 / 1000 - 0.01**2) * 1000 / 999)
    assert d.se == pytest.approx(sd / math.sqrt(1000))
    assert not paired_difference(plus=200, minus=40, n=1000).contains_zero()


def test_merge_counts():
    assert merge_counts([np.array([1, 2]), np.array([3, 4])]).tolist() == [4, 6]
    with pytest.raises(ValueError):
        merge_counts([])


def test_wilson_and_z95_match_scipy_to_the_bit():
    # stats.py computes both without importing scipy (import cost); they must stay scipy's.
    from scipy import stats as sps

    from cardodds.stats import Z95, _wilson

    assert Z95 == float(sps.norm.ppf(0.975))
    rng = np.random.default_rng(3)
    cases = [(0, 1), (1, 1), (0, 10), (10, 10), (3, 7), (1, 2_000_000_000)]
    cases += [(int(k), int(n)) for n in rng.integers(1, 10**9, 200) for k in rng.integers(0, n + 1, 1)]
    for k, n in cases:
        ci = sps.binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
        expected = (0.0 if k == 0 else float(ci.low), 1.0 if k == n else float(ci.high))
        assert _wilson(k, n) == expected, (k, n)


def test_import_cardodds_does_not_load_scipy_pandas_matplotlib():
    import subprocess
    import sys

    code = "import sys, cardodds; print(sorted(m for m in ('scipy', 'pandas', 'matplotlib') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_boundscheck_build_never_loads_the_fast_build_from_a_warm_cache(tmp_path):
    import os
    import subprocess
    import sys
    import textwrap

    (tmp_path / "probe_mod.py").write_text(textwrap.dedent("""
        import numpy as np
        from cardodds._jit import kernel

        @kernel
        def poke(a, i):
            a[i] = 1
            return a[0]

        try:
            poke(np.zeros(4, np.int64), int(__import__("sys").argv[1]))
            print("ran")
        except IndexError:
            print("IndexError")
    """))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path)}
    env.pop("CARDODDS_BOUNDSCHECK", None)

    def probe(index, **extra):
        run = subprocess.run([sys.executable, "-c", "import sys; sys.argv[1:] = [%r]; import probe_mod" % str(index)],
                             env={**env, **extra}, capture_output=True, text=True, cwd=tmp_path)
        assert run.returncode == 0, run.stderr
        return run.stdout.strip()

    assert probe(0) == "ran"  # the fast build is now in the cache
    assert probe(4, CARDODDS_BOUNDSCHECK="1") == "IndexError"
    assert probe(4, CARDODDS_BOUNDSCHECK="1") == "IndexError"  # its own cache, warm
    assert probe(0) == "ran"


def test_the_kernel_cache_is_keyed_by_every_source_file():
    # numba checks a cached kernel against its own file only: a helper changed in another module
    # would leave its callers' cached code stale, so the folder is named by the whole tree's hash
    from pathlib import Path

    from cardodds import _jit

    package = Path(_jit.__file__).resolve().parent
    assert Path(_jit.CACHE_DIR).name.startswith(f"cardodds-{_jit.source_hash(package)}")
    from numba.core import config

    from cardodds.kana import _kernels

    # reached through cardodds' own cache class: numba's setting stays the session's
    assert config.CACHE_DIR == os.environ.get("NUMBA_CACHE_DIR", "")
    assert Path(_kernels._unshown_loop._cache.cache_path).parent == Path(_jit.CACHE_DIR)


def test_the_source_hash_reads_every_source_file_and_no_cache_folder(tmp_path):
    # every subpackage's sources count; the __pycache__ folders (the caches of every hash
    # before, hundreds of folders in a working tree) are not walked
    from cardodds._jit import source_hash

    (tmp_path / "game").mkdir()
    (tmp_path / "a.py").write_text("x = 1")
    (tmp_path / "game" / "b.py").write_text("y = 1")
    before = source_hash(tmp_path)
    (tmp_path / "game" / "b.py").write_text("y = 2")
    assert source_hash(tmp_path) != before
    after = source_hash(tmp_path)
    for folder in (tmp_path / "__pycache__", tmp_path / "game" / "__pycache__" / "cardodds-0-numba"):
        folder.mkdir(parents=True)
        (folder / "stale.py").write_text("z = 1")
    assert source_hash(tmp_path) == after


def test_noalias_marks_a_loops_array_arguments_and_only_when_asked():
    from cardodds._jit import loop

    def add_into(out, a):
        for i in range(a.shape[0]):
            out[i] += a[i]

    # called from Python below; cached code cannot be inspected
    plain = loop(add_into, cache=False, from_python=True)
    promised = loop(add_into, noalias=True, cache=False, from_python=True)
    out, a = np.zeros(4, np.int64), np.arange(4, dtype=np.int64)
    plain(out, a)
    promised(out, a)
    assert list(out) == [0, 2, 4, 6]  # the same code, run twice

    def pointer_args(dispatcher) -> list[str]:
        """The pointer parameters of the compiled function (the arrays' data, meminfo, parent)."""
        ir = next(iter(dispatcher.inspect_llvm().values()))
        head = next(line for line in ir.splitlines() if line.startswith("define") and "@_ZN" in line)
        return [arg for arg in head.split("(", 1)[1].split(",") if "%arg." in arg and arg.strip().startswith("ptr")]

    # out's and a's data pointers, meminfos and parents
    assert len(pointer_args(promised)) == len(pointer_args(plain)) == 6
    assert all("noalias" in arg for arg in pointer_args(promised))
    assert not any("noalias" in arg for arg in pointer_args(plain))


def _probe(tmp_path, module: str, source: str):
    """Write ``module`` (``source``) into ``tmp_path``; return ``probe(*argv)``, which imports it
    in a fresh process on one numba cache with the compile log on, and gives the process's stdout
    and the log's ``(kernel, args)`` for the module's functions."""
    import json
    import os
    import subprocess
    import sys
    import textwrap
    import time

    (tmp_path / f"{module}.py").write_text(textwrap.dedent(source))
    log = tmp_path / "compiles.jsonl"
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(tmp_path),
           "CARDODDS_COMPILE_LOG": str(log)}

    def probe(*argv):
        if log.exists():
            log.unlink()
        started = time.time()
        run = subprocess.run([sys.executable, "-c", f"import sys; sys.argv[1:] = {list(argv)!r}; import {module}"],
                             env=env, capture_output=True, text=True, cwd=tmp_path, timeout=300)
        ended = time.time()
        assert run.returncode == 0, (argv, run.returncode, run.stderr[-2000:])
        rows = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        # each line's clock time falls within the run, in the order the compiles ended
        ends = [r["end"] for r in rows]
        assert ends == sorted(ends) and all(started - 0.01 <= t <= ended + 0.01 for t in ends), (started, ends, ended)
        return run.stdout.strip(), [(r["kernel"], r["args"]) for r in rows if r["kernel"].startswith(f"{module}.")]

    return probe


def test_every_compiled_form_of_a_function_is_cached_apart_and_python_calls_what_it_can(tmp_path):
    # A helper has no CPython wrapper; Python's call goes to a twin compiled with one. A function
    # may also have a second form (_jit.linked, _jit.inlined). Numba's cache key holds no flags:
    # were two forms cached under one name, a process calling one from Python after another
    # process compiled the other could load code Python cannot call (a crash, not an exception),
    # so every step runs in a process of its own on one cache.
    from cardodds._jit import PYTHON_TWIN

    probe_mod = _probe(tmp_path, "probe_mod", """
        import sys
        import numpy as np
        from cardodds._jit import helper, inline, inlined, kernel, linked

        @helper
        def add_one(a, i):
            return a[i] + 1

        @inline
        def add_ten(a, i):
            return a[i] + 10

        @helper
        def add_hundred(a, i):
            return a[i] + 100

        add_ten_linked = linked(add_ten)
        add_hundred_inlined = inlined(add_hundred)

        @kernel
        def caller(a):
            return add_one(a, 0) + add_ten_linked(a, 0) + add_hundred(a, 0)

        a = np.arange(4, dtype=np.int64)
        if sys.argv[1] == "compiled":
            print(caller(a))
        else:
            print(add_one(a, 2), add_ten(a, 2), add_hundred_inlined(a, 2))
    """)

    def probe(how):
        out, compiled = probe_mod(how)
        return out, sorted(kernel.rsplit(".", 1)[1] for kernel, _ in compiled)

    # the helpers and the linked form now cached, without the wrapper
    assert probe("compiled") == ("111", ["add_hundred", "add_one", "add_ten_linked", "caller"])
    assert probe("python") == ("3 12 102", sorted(["add_one" + PYTHON_TWIN, "add_ten", "add_hundred_inlined"]))
    assert probe("python") == ("3 12 102", [])  # every form from its own cache entries
    assert probe("compiled") == ("111", [])
    cached = {p.name.split("-")[0] for p in (tmp_path / "cache").rglob("*.nbi")}
    assert {f"probe_mod.{name}" for name in ("add_one", "add_one" + PYTHON_TWIN, "add_ten", "add_ten_linked",
                                              "add_hundred", "add_hundred_inlined", "caller")} <= cached


def test_a_pointer_compiles_when_a_kernel_is_first_called_with_it_and_loads_from_the_cache_after(tmp_path):
    # Kanalje's searches reach the kernels as a _jit.Pointer: compiled at the kernel's first call
    # with it (not at import), logged as any compile, cached under a name of its own, found by
    # the two-process first call (_two_process_compile._cached), and sent to a Dask worker by name.
    from numba import types

    from cardodds._jit import POINTER

    probe = _probe(tmp_path, "pointer_mod", """
        import pickle
        import numpy as np
        from numba import types
        from cardodds import _jit, _two_process_compile
        from cardodds._jit import Pointer, kernel, loop

        @loop
        def add_seven(a, i):
            return a[i] + 7

        @kernel
        def call_through(a, f):
            return f(a, 1) + f(a, 2)

        SIG = types.int64(types.int64[::1], types.int64)
        P = Pointer(add_seven, SIG)
        a = np.arange(4, dtype=np.int64)
        was_cached = _two_process_compile._cached("pointer_mod.P")
        back = pickle.loads(pickle.dumps(P))
        before = len(_jit._POINTERS)
        print(was_cached, before, call_through(a, P), call_through(a, back), back.fn is P.fn,
              _two_process_compile._cached("pointer_mod.P"))
    """)
    out, compiled = probe()
    # nothing compiled before the kernel's call; 1+7 + 2+7 through the pointer, and through its pickled copy
    assert out.split() == ["False", "0", "17", "17", "True", "True"]
    args = (types.int64[::1], types.int64)
    assert sorted(compiled) == [("pointer_mod.add_seven" + POINTER, str(args)),
                                ("pointer_mod.call_through", str((args[0], types.FunctionType(types.int64(*args)))))]
    out, compiled = probe()
    assert out.split() == ["True", "0", "17", "17", "True", "True"] and compiled == []  # both loaded from the cache


def _run_probe(tmp_path, module, mode):
    """Import ``tmp_path/module.py`` in a fresh interpreter with ``sys.argv[1] = mode`` and an empty
    numba cache of its own; its first output line, and the rest."""
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / mode), "PYTHONPATH": str(tmp_path)}
    run = subprocess.run([sys.executable, "-c", f"import sys; sys.argv[1:] = [{mode!r}]; import {module}"],
                         env=env, capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert run.returncode == 0, (mode, run.stderr[-2000:])
    return run.stdout.split("\n", 1)


def test_a_compiled_only_function_is_linked_into_its_callers_and_never_emitted_on_its_own(tmp_path):
    # A helper or loop only ever runs as code linked into a compiled caller, so cardodds keeps
    # its own code out of numba's engine (no machine code) and caches the bitcode its callers
    # link. Its callers must run it right whether it was compiled in their process or loaded
    # from the cache, and its exception with a value computed at run time needs its
    # environment, which its caller sets.
    probe = _probe(tmp_path, "linked_mod", """
        import sys
        import numpy as np
        from cardodds._jit import helper, kernel

        @helper
        def scaled(a, i, k):
            if a[i] < 0:
                raise ValueError("negative at", i)
            return a[i] * k

        @helper
        def total(a, k):
            s = 0
            for i in range(a.shape[0]):
                s += scaled(a, i, k)
            return s

        @kernel
        def first_caller(a, k):
            return total(a, k)

        @kernel
        def second_caller(a, k):
            return total(a, k) + 1

        call = first_caller if sys.argv[1] == "first" else second_caller
        a = np.arange(5, dtype=np.int64)
        out = [call(a, 3)]
        try:
            call(np.array([1, -2], dtype=np.int64), 3)
        except ValueError as e:
            out.append(repr(e.args))
        # machine code of each function's own library (None: not compiled or loaded in this process)
        out += [getattr(f.overloads[next(iter(f.overloads))].library, "_compiled_object", None) is not None
                if f.overloads else None
                for f in (scaled, total, call)]
        print(*out, sep=";")
    """)
    out, compiled = probe("first")
    # 3 * (0+1+2+3+4); the exception's values; machine code for the kernel alone
    assert out.split(";") == ["30", "('negative at', 1)", "False", "False", "True"]
    assert sorted(k for k, _ in compiled) == ["linked_mod.first_caller", "linked_mod.scaled", "linked_mod.total"]
    # a new caller compiled against total's cached code, which holds scaled's
    out, compiled = probe("second")
    assert out.split(";") == ["31", "('negative at', 1)", "None", "False", "True"]
    assert [k for k, _ in compiled] == ["linked_mod.second_caller"]
    # the kernel loaded from the cache, its callees not needed (a library loaded from the cache
    # keeps its object code in numba's engine, not in the field read above: not compared)
    out, compiled = probe("first")
    assert out.split(";")[:4] == ["30", "('negative at', 1)", "None", "None"] and compiled == []


def test_inlining_builds_the_same_code_as_numbas_own_pass(tmp_path):
    # cardodds inlines @inline helpers through its own pass (_compiler._InlineHelpers), which copies a
    # callee's blocks without copying its whole scope per block. Each process compiles one probe
    # on an empty cache: once with that pass, once with numba's, from the same state, so even
    # the generated names agree and the LLVM IR must be the same text.
    import textwrap

    (tmp_path / "inline_probe.py").write_text(textwrap.dedent("""
        import sys
        import numpy as np
        import os
        if sys.argv[1] == "numba":
            os.environ["CARDODDS_COMPILER_WITHOUT"] = "inline"
        from cardodds import _compiler, _jit

        spliced = set()
        def inline_ir(self, caller_ir, *args, _inline_ir=_compiler._InlineWorker.inline_ir, **kws):
            done = _inline_ir(self, caller_ir, *args, **kws)
            spliced.update(type(b).__name__ for b in caller_ir.blocks.values())
            return done
        _compiler._InlineWorker.inline_ir = inline_ir

        @_jit.inline
        def clamp(x, top):
            if x > top:
                return top
            return max(x, 0)

        @_jit.inline
        def total(a, top):
            s = 0
            for i in range(a.shape[0]):
                if a[i] % 3 == 0:
                    continue
                s += clamp(a[i], top)
            if s < 0:
                raise ValueError("negative")
            return s

        @_jit.kernel
        def caller(a, top):
            out = np.empty(2, np.int64)
            out[0] = total(a, top)
            out[1] = total(a[::-1], top + 1) + clamp(a[0] - 9, top)
            return out

        print([int(v) for v in caller(np.arange(-3, 9, dtype=np.int64), 5)], sorted(spliced))
        print(next(iter(caller.inspect_llvm().values())))
    """))

    ours, numbas = _run_probe(tmp_path, "inline_probe", "cardodds"), _run_probe(tmp_path, "inline_probe", "numba")
    # -3..8 without multiples of 3, clamped to 0..5: 0+0+1+2+4+5+5+5 = 22; to 0..6: 24; clamp(-12) = 0
    assert ours[0] == "[22, 24] ['Block']"
    assert numbas[0] == "[22, 24] []"
    assert "cardodds_inline" not in ours[1] and len(ours[1]) > 10_000
    assert ours[1] == numbas[1]


def test_the_typing_memo_and_the_tidying_shortcut_build_the_same_code_as_numba(tmp_path):
    # While it compiles its own functions, cardodds remembers numba's typing of each call
    # (_compiler._get_call_type) and tidies the IR after a pass without working out the variables
    # live at each block (_compiler._postprocess). Each process compiles the same functions on an
    # empty cache: with both, and without them, so the LLVM IR must be the same text; numba's own
    # typing and tidying, counted, must have done far less work with them. The functions:
    # Kanalje's heuristic play-out (inlined helpers, thousands of calls to few functions),
    # Canasta's move generator, and a probe with keyword arguments, builtins and a tuple.
    import json
    import textwrap

    (tmp_path / "typing_probe.py").write_text(textwrap.dedent("""
        import functools, json, os, sys
        import numpy as np
        from numba.core import postproc, sigutils
        from numba.core.types import functions

        if sys.argv[1] == "numba":
            os.environ["CARDODDS_COMPILER_WITHOUT"] = "memo,tidy"
        work = {"typings": 0, "tidyings": 0}

        def counted(key, fn):
            @functools.wraps(fn)  # the same signature: cardodds checks numba's
            def run(*args, **kws):
                work[key] += 1
                return fn(*args, **kws)
            return run

        # numba's own, counted, before cardodds captures them
        functions.BaseFunction.get_call_type = counted("typings", functions.BaseFunction.get_call_type)
        postproc.PostProcessor.run = counted("tidyings", postproc.PostProcessor.run)
        from cardodds import _jit

        @_jit.kernel
        def probe(a, k):
            out = np.zeros(a.shape[0] + 1, dtype=np.int64)
            pair = (min(k, 3), max(k, -3))
            for i in range(a.shape[0]):
                out[i] = abs(a[i]) % (pair[0] + 7) + np.int64(a[i] >> 2)
            out[-1] = np.sum(out[:-1]) + pair[1]
            return out

        from cardodds.canasta import _table
        from cardodds.kanalje import _policies
        done = []
        for fn, sig in ((_policies.play_heuristic_until, "(uint64[::1], int64[::1], int64, int64, bool)"),
                        (_table.gen_moves, "(int64[::1], int64[::1], int64[:, ::1], int64[::1])"),
                        (probe, "(int64[::1], int64)")):
            sig = sigutils.normalize_signature(sig)[0]
            fn.compile(sig)
            done.append(fn.inspect_llvm(sig))
        print([int(v) for v in probe(np.arange(-4, 5, dtype=np.int64), 9)], json.dumps(work))
        print("\\n".join(done))
    """))

    ours, numbas = _run_probe(tmp_path, "typing_probe", "memo"), _run_probe(tmp_path, "typing_probe", "numba")
    # |a| % 10 + (a >> 2) for a = -4..4: 3, 2, 1, 0, 0, 1, 2, 3, 5; their sum 17 plus max(9, -3)
    (answer, ours_work), (numbas_answer, numbas_work) = (first.split("] ", 1) for first in (ours[0], numbas[0]))
    assert answer == numbas_answer == "[3, 2, 1, 0, 0, 1, 2, 3, 5, 26"
    ours_work, numbas_work = json.loads(ours_work), json.loads(numbas_work)
    assert ours_work["typings"] * 3 < numbas_work["typings"], (ours_work, numbas_work)
    assert ours_work["tidyings"] + 100 < numbas_work["tidyings"], (ours_work, numbas_work)
    assert len(ours[1]) > 100_000
    assert ours[1] == numbas[1]


def test_a_cfunc_compile_is_announced_with_its_machine_code_and_a_callback_is_announced(tmp_path):
    # Numba finishes a cfunc's code (optimises its linked module, emits machine code) only when
    # it first saves or calls it; _jit._LoggedCFunc does it inside the compile event, so the
    # compile log (CARDODDS_COMPILE_LOG) counts it. A callback (a user's policy) compiles through
    # it, so its compile is announced too (numba's own cfunc announces nothing).
    import textwrap

    (tmp_path / "cfunc_probe.py").write_text(textwrap.dedent("""
        from numba.core import codegen, event
        from cardodds import _jit

        order = []
        finalize = codegen.CPUCodeLibrary.finalize

        def finalize_noted(self):
            order.append("finalize")
            return finalize(self)

        codegen.CPUCodeLibrary.finalize = finalize_noted

        class Noted(event.Listener):
            def on_start(self, e):
                order.append("start " + e.data["dispatcher"].py_func.__name__)

            def on_end(self, e):
                order.append("end " + e.data["dispatcher"].py_func.__name__)

        event.register("numba:compile", Noted())

        def twice(x):
            return 2 * x

        compiled = _jit.callback("int64(int64)", cache=False)(twice)
        print(compiled.ctypes(21), " ".join(x.split()[0] for x in order))
    """))
    out, _ = _run_probe(tmp_path, "cfunc_probe", "callback")
    # announced, and every library finished between its start and its end (numba finishes the
    # function's library and its C wrapper's), none after it
    answer, start, *finished, end = out.split()
    assert (answer, start, end) == ("42", "start", "end") and finished and set(finished) == {"finalize"}
