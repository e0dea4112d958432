"""Ctrl-C in commands that make several runs: the answer reached so far, marked partial.

``cardodds kana table`` (best-response steps, then two final runs, per seat and per player
count), ``cardodds canasta house-options`` (one paired run per option) and
``cardodds report`` (sections of many runs) are interrupted by SIGINT at random moments of
a real process (a run drawn at random, at a random share of its deals); the library functions
are interrupted at every step by a run that reports itself partial.
"""

from __future__ import annotations

import array
import dataclasses
import fcntl
import importlib
import json
import random
import re
import signal
import subprocess
import sys
import termios
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from cardodds import _cliutil as cu
from cardodds import engine
from cardodds.kana.cli import table_dict, table_text

from .test_interrupt import _cardodds, _sigint_when

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pseudo-terminals")


# ---- the helper ---------------------------------------------------------------------------------------------
def test_in_order_stops_at_the_first_partial_step():
    steps = engine.InOrder()
    results = [steps.step(_Run, p) for p in (False, True, False)]
    assert results[1].partial and results[2] is None and steps.partial


def test_in_order_drops_a_step_interrupted_before_counting_but_not_the_first():
    def interrupted():
        raise KeyboardInterrupt

    steps = engine.InOrder()
    with pytest.raises(KeyboardInterrupt):  # nothing counted at all: nothing to show
        steps.step(interrupted)
    steps = engine.InOrder()
    assert steps.step(_Run, False) is not None
    assert steps.step(interrupted) is None and steps.partial
    assert steps.step(lambda: pytest.fail("a step after the interruption ran")) is None


def test_in_order_marks_the_commands_session_interrupted():
    def interrupted():
        raise KeyboardInterrupt

    with engine.session() as s:
        steps = engine.InOrder()
        steps.step(_Run, False)
        steps.step(interrupted)  # e.g. Ctrl-C between two runs
        assert s.interrupted and engine.interrupted()
        assert s.partial_line() == "interrupted: partial result"  # no run was cut, but a step is missing
    assert not engine.interrupted()
    with engine.session() as s:
        s.interrupted = True  # Ctrl-C deferred after a run, before the next one starts
        assert s.partial_line() is None  # nothing missing yet: the answer may still be whole
        with pytest.raises(KeyboardInterrupt):
            engine.run(lambda state, n, out: None, (), 1, samples=10, rng=1, threads=1)
        assert s.partial_line() == "interrupted: partial result"


def test_a_deferred_interrupt_stops_the_run_under_way_at_its_next_look_and_the_later_runs(monkeypatch):
    from cardodds import cli

    def kernel(state, n, out, calls):
        calls.append(n)
        if len(calls) == 5:
            signal.raise_signal(signal.SIGINT)  # Ctrl-C; the handler runs on the main thread
        out[0] += n

    monkeypatch.setattr(cli, "_SIGINTS", 0)
    previous = signal.signal(signal.SIGINT, cli._on_sigint)
    try:
        with engine.session() as s, engine.defer_interrupts():
            calls: list = []
            r = engine.run(kernel, (calls,), 1, samples=10**9, rng=1, chunk_size=1000, threads=1)
            assert r.partial and s.interrupted and 4_000 <= r.samples < 10**9 and r.counts[0] == r.samples
            with pytest.raises(KeyboardInterrupt):  # a later run does not start
                engine.run(kernel, ([],), 1, samples=1000, rng=1, threads=1)
        monkeypatch.setattr(cli, "_SIGINTS", 0)
        with pytest.raises(KeyboardInterrupt):  # outside the block Ctrl-C raises where it lands
            with engine.session():
                signal.raise_signal(signal.SIGINT)
                time.sleep(1)
    finally:
        signal.signal(signal.SIGINT, previous)


@dataclasses.dataclass
class _Run:
    partial: bool


# ---- the library: every step may be the interrupted one -------------------------------------------------
_REAL_RUN = engine.run


def _partial_at(monkeypatch, module, k: int) -> list:
    """Make the ``k``-th run of ``module`` (1-based) come back partial, as an interrupted one
    does; ``module`` None: of every cardodds module that calls the engine's ``run``."""
    calls = []

    def run(*args, **kwargs):
        calls.append(1)
        res = _REAL_RUN(*args, **kwargs)
        return dataclasses.replace(res, partial=True) if len(calls) == k else res

    if module is not None:
        monkeypatch.setattr(module, "run", run)
        return calls
    for name, mod in list(sys.modules.items()):
        if name.startswith("cardodds") and getattr(mod, "run", None) is _REAL_RUN:
            monkeypatch.setattr(mod, "run", run)
    return calls


def _kana_equilibrium():
    """The module (``kana.equilibrium`` is the function of its name): where the runs behind a
    strategy table are made."""
    import importlib

    return importlib.import_module("cardodds.kana.equilibrium")


def test_strategy_table_returns_what_each_interrupted_step_reached(monkeypatch):
    from cardodds.kana import decisions

    full = decisions.strategy_table("peek-one", 2, samples=4_000, rng=5)
    # 2 seats a run: the best-response steps, then the runs against blind players and the table.
    runs = 2 * (full.iterations + 2)
    for k in range(1, runs + 1):
        calls = _partial_at(monkeypatch, _kana_equilibrium(), k)
        t = decisions.strategy_table("peek-one", 2, samples=4_000, rng=5)
        assert t.partial and len(calls) == k, f"run {k} of {runs}"
        blind_at = 2 * full.iterations  # runs before the final ones
        vs_blind = np.isnan(t.rows["vs_blind"]).all()
        at_table = np.isnan(t.rows["at_table"]).all()
        assert vs_blind == (k <= blind_at) and at_table == (k <= blind_at + 2), f"run {k} of {runs}"
        assert t.converged == (k > blind_at)
        if k > blind_at + 2:  # interrupted only in the last run: the table and its blind figures are final
            assert t.strategy == full.strategy and t.win_vs_blind == full.win_vs_blind
        assert ("not reached" in table_text(t)) == at_table and "nan" not in table_text(t)
        text = cu.json_text(table_dict(t))  # what --json prints: figures not reached are null
        assert json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} in JSON"))["partial"] is True
    monkeypatch.undo()
    assert not decisions.strategy_table("peek-one", 2, samples=4_000, rng=5).partial


def test_an_interrupted_equilibrium_is_not_kept_as_the_advisors_table(monkeypatch):
    equilibrium = _kana_equilibrium()

    monkeypatch.setattr(equilibrium, "_shipped", lambda: {})  # the table must be computed
    equilibrium.table_strategy.cache_clear()
    _partial_at(monkeypatch, equilibrium, 1)
    with pytest.raises(KeyboardInterrupt):
        equilibrium.table_strategy("peek-one", 2)
    assert equilibrium.table_strategy.cache_info().currsize == 0
    monkeypatch.undo()
    equilibrium.table_strategy.cache_clear()


def test_session_table_stops_at_the_interrupted_step(monkeypatch):
    session = importlib.import_module("cardodds.kana.session")

    args = dict(rounds=5, samples=200, rng=1, max_iterations=2, start="threshold:8")
    full = session.session_table(3, **args)
    steps = full.iterations  # then the two runs against blind players
    for k in range(1, steps + 3):
        calls = _partial_at(monkeypatch, session, k)
        t = session.session_table(3, **args)
        assert t.partial and t.converged == (full.converged and k > steps) and len(calls) == k, f"run {k}"
        assert np.isnan(t.ev_real.value) == (k <= steps) and np.isnan(t.ev_today.value) == (k <= steps + 1)
        assert len(t.rows) == 13 and not t.rows["switch"].isna().any()
    monkeypatch.undo()


def test_an_interrupted_strength_match_is_marked_partial(monkeypatch):
    play = importlib.import_module("cardodds.canasta.play")

    _partial_at(monkeypatch, engine, 1)
    assert play.strength("heuristic", "random", samples=20, rng=1).partial


def test_tune_stops_at_the_interrupted_match(monkeypatch):
    play = importlib.import_module("cardodds.canasta.play")

    grid = {"take_min_pile": (2, 8), "keep_wilds": (0, 3)}
    full = play.tune(samples=30, grid=grid, rng=1)
    matches = len(full.history)  # then the confirming match
    for k in (1, matches, matches + 1):
        _partial_at(monkeypatch, engine, k)
        t = play.tune(samples=30, grid=grid, rng=1)
        assert t.partial and len(t.history) == min(k - 1, matches)
        assert np.isnan(t.edge.value) == (k <= matches)
    monkeypatch.undo()


def test_house_options_keep_the_options_run_before_the_interruption(monkeypatch):
    play = importlib.import_module("cardodds.canasta.play")

    names = ["min_first_meld=0", "going_out=meld_all", "swap_twos=True"]
    for k in (1, 2, 3):
        calls = _partial_at(monkeypatch, play.engine, k)
        h = play.house_options("heuristic", options=names, samples=40, rng=4, games=3)
        assert h.partial and len(calls) == k
        assert list(h.options) == names[:k] and h.games == {}  # the games come after every option
    calls = _partial_at(monkeypatch, play.engine, 5)  # the second set of whole games
    h = play.house_options("heuristic", options=names, samples=40, rng=4, games=3)
    assert h.partial and list(h.options) == names and list(h.games) == ["base", names[0]] and len(calls) == 5
    assert h.games[names[0]].partial and not h.games["base"].partial


# ---- cardodds report: no half-written file ----------------------------------------------------------------
def test_report_build_keeps_old_files_of_the_interrupted_section(tmp_path, monkeypatch):
    from cardodds import report

    def finished(outdir, **kw):
        (outdir / "a.png").write_bytes(b"new chart")
        (outdir / "a.md").write_text("new a\n")
        return outdir / "a.md"

    def cut_short(outdir, **kw):
        (outdir / "b.png").write_bytes(b"half a ch")
        (outdir / "b.md").write_text("half of b")
        raise KeyboardInterrupt

    def partial_run(outdir, **kw):
        def kernel(state, n, out):
            raise KeyboardInterrupt

        def ok(state, n, out):
            out[0] += n

        engine.run(ok, (), 1, samples=1000, rng=1, threads=1)
        try:
            engine.run(kernel, (), 1, samples=1000, rng=1, threads=1)
        except KeyboardInterrupt:
            pass  # nothing counted; a section that carried on regardless must still not be written
        (outdir / "b.md").write_text("b from a partial run\n")
        return outdir / "b.md"

    monkeypatch.setattr(report, "SECTIONS", ("a", "b"))
    monkeypatch.setattr(report, "available_sections", lambda: ["a", "b"])
    real_import = importlib.import_module
    for b_write in (cut_short, partial_run):
        fake = {"cardodds.report.a": type("M", (), {"write": staticmethod(finished)}),
                "cardodds.report.b": type("M", (), {"write": staticmethod(b_write)})}
        monkeypatch.setattr(importlib, "import_module", lambda name, fake=fake: fake.get(name) or real_import(name))
        (tmp_path / "b.md").write_text("old b\n")
        with pytest.raises(report.Interrupted) as stop:
            report.build(tmp_path)
        assert stop.value.section == "b" and stop.value.written == [tmp_path / "a.md"]
        # a's files, its part of the web page and the page; b's old markdown as it was
        assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "a.part.html", "a.png", "b.md", "index.html"]
        assert (tmp_path / "b.md").read_text() == "old b\n" and (tmp_path / "a.md").read_text() == "new a\n"


def test_ctrl_c_between_two_sections_keeps_the_finished_one_and_builds_no_other(tmp_path, monkeypatch):
    # Ctrl-C as a finished section's staging folder is removed, or while it is published (deferred
    # there): the report stops before the next section, as it does while that one's kernels compile.
    import types

    from cardodds import cli, report

    def finished(outdir, **kw):
        (outdir / "a.md").write_text("new a\n")
        return outdir / "a.md"

    def never(outdir, **kw):
        pytest.fail("the section after the interruption was built")

    fake = {"cardodds.report.a": type("M", (), {"write": staticmethod(finished)}),
            "cardodds.report.b": type("M", (), {"write": staticmethod(never)})}
    real_import = importlib.import_module
    monkeypatch.setattr(report, "SECTIONS", ("a", "b"))
    monkeypatch.setattr(report, "available_sections", lambda: ["a", "b"])
    monkeypatch.setattr(importlib, "import_module", lambda name: fake.get(name) or real_import(name))
    real_rmtree, real_publish = report.shutil.rmtree, report._publish

    def rmtree_cut(path, **kw):
        real_rmtree(path, **kw)
        raise KeyboardInterrupt

    def publish_then_ctrl_c(*args):
        written = real_publish(*args)
        signal.raise_signal(signal.SIGINT)  # the CLI's handler defers it: a section goes in whole
        return written

    monkeypatch.setattr(cli, "_SIGINTS", 0)
    previous = signal.signal(signal.SIGINT, cli._on_sigint)
    try:
        for name, cut in [("shutil", types.SimpleNamespace(rmtree=rmtree_cut)), ("_publish", publish_then_ctrl_c)]:
            out = tmp_path / name
            with monkeypatch.context() as m:
                m.setattr(report, name, cut)
                m.setattr(cli, "_SIGINTS", 0)
                with pytest.raises(report.Interrupted) as stop:
                    report.build(out, next_section=lambda names: names[0])
            assert stop.value.section is None and stop.value.written == [out / "a.md"], name
            assert sorted(p.name for p in out.iterdir()) == ["a.md", "a.part.html", "index.html"], name
    finally:
        signal.signal(signal.SIGINT, previous)


# ---- real processes ----------------------------------------------------------------------------------------
#: A progress bar's line: deals counted / the run's deals.
_FRAME = re.compile(rb"\|\s*([0-9.]+)([kMGT]?)/([0-9.]+)([kMGT]?) ")
_UNIT = {b"": 1.0, b"k": 1e3, b"M": 1e6, b"G": 1e9, b"T": 1e12}
#: A run's progress bar cleared as the run ends, once what follows has arrived: the next bar or a
#: whole line, but not the compile notice (printed above a bar, it clears the bar the same way).
_CLOSED = re.compile(rb"\r {20,}\r(?!" + re.escape(cu.COMPILE_NOTICE.encode())
                     + rb")(?=\r* *\d+%\||[^\r\n]*\r?\n)")


def _in_run(k: int, f: float):
    """The sign for :func:`_sigint_when` that a command's ``k``-th run (from 1) has counted more
    than the fraction ``f`` of its deals, or has ended. Runs are counted by their bars cleared,
    so a run too quick to show a count still counts."""

    def sign(seen: bytes) -> bool:
        closed = [m.end() for m in _CLOSED.finditer(seen)]
        if len(closed) != k - 1:
            return len(closed) >= k
        frames = list(_FRAME.finditer(seen, closed[-1] if closed else 0))
        if not frames:
            return False
        n, total = (float(frames[-1][i]) * _UNIT[frames[-1][i + 1]] for i in (1, 3))
        return n > max(0.0, f * total)

    return sign


MULTI = {
    # two player counts, each: best-response steps and two final runs, two seats a run (fifteen runs)
    "kana table": ["kana", "table", "--players", "2-3", "--samples", "40000000"],
    # eight paired runs, one per house option
    "canasta house options": ["canasta", "house-options", "--samples", "10000"],
}
#: SIGINT comes in one of the first runs of each command, at a random point of it: runs remain
#: after it, so it always lands before the answer, however fast the machine.
FIRST_RUNS = {"kana table": 3, "canasta house options": 4}
TRIES = 4


@posix
def test_sigint_in_commands_of_several_runs_prints_the_partial_answer():
    rnd = random.Random("several runs")
    plan = [(name, rnd.randint(1, FIRST_RUNS[name]), rnd.uniform(0.0, 0.9), as_json) for name in MULTI
            for as_json in (False, True) for _ in range(TRIES // 2)]
    common = ["--threads", "2", "--seed", "7", "--progress"]
    with ThreadPoolExecutor(max_workers=2) as pool:
        outcomes = list(pool.map(lambda t: _sigint_when(MULTI[t[0]] + common + ["--json"] * t[3], _in_run(t[1], t[2])),
                                 plan))
    for (name, k, f, as_json), (status, out, term, _) in zip(plan, outcomes):
        where = f"{name} {'--json ' if as_json else ''}interrupted in run {k} at {f:.0%} of it (or as it ended)"
        assert status == 130, f"{where}: exit status {status}, stdout {out[-300:]!r}, terminal {term[-300:]!r}"
        assert "Traceback" not in term, f"{where}: {term[-1000:]}"
        if as_json:
            obj = json.loads(out)
            assert obj["partial"] is True, where
        else:
            assert "[PARTIAL: interrupted" in out, f"{where}: no partial marker in {out[:300]!r}"
            assert out.rstrip().splitlines()[-1].startswith("interrupted: partial result"), f"{where}: {out[-300:]!r}"


@posix
def test_sigint_in_the_report_leaves_no_half_written_file(tmp_path):
    rnd = random.Random("report")
    for i in range(2):
        k, f = rnd.randint(1, 3), rnd.uniform(0.0, 0.9)  # the section has four runs: one at least remains
        out_dir = tmp_path / f"r{i}"
        out_dir.mkdir()
        (out_dir / "canasta.md").write_text("the previous report\n")
        status, out, term, _ = _sigint_when(
            ["report", "--section", "canasta", "--scale", "0.25", "--out", str(out_dir), "--progress"], _in_run(k, f))
        where = f"report interrupted in run {k} of section canasta at {f:.0%} of it (or as it ended)"
        assert status == 130 and out == "", f"{where}: exit status {status}, stdout {out!r}, {term[-500:]!r}"
        assert "Traceback" not in term, f"{where}: {term[-1000:]}"
        assert "report interrupted in section canasta" in term, f"{where}: {term[-500:]!r}"
        assert sorted(p.name for p in out_dir.iterdir()) == ["canasta.md"], where  # no chart, no staging folder
        assert (out_dir / "canasta.md").read_text() == "the previous report\n", where


@posix
def test_sigint_while_a_long_answer_is_written_to_a_full_pipe_loses_none_of_it():
    # Python's buffered write to a full pipe, cut by a signal whose handler returns, drops the
    # rest silently; the answer of peek-all (455 rows, about 250 kB of JSON) must arrive whole.
    cmd = _cardodds() + ["kana", "table", "--variant", "peek-all", "--players", "3", "--opponents", "blind",
                         "--samples", "20000", "--seed", "7", "--threads", "2", "--json", "--no-progress"]
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 240
        waiting = array.array("i", [0])
        while time.monotonic() < deadline and proc.poll() is None:  # until the pipe is full: a write blocks
            fcntl.ioctl(proc.stdout.fileno(), termios.FIONREAD, waiting)
            if waiting[0] >= 65536:
                break
            time.sleep(0.05)
        assert proc.poll() is None and waiting[0] >= 65536, "the answer never filled the pipe"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert proc.returncode == 130 and b"Traceback" not in err, err[-500:]
    assert len(json.loads(out)["rows"]) == 455  # whole; Ctrl-C came after the last run: the figures are too


#: Every command that simulates, small. Its first run comes back partial, as Ctrl-C makes it.
EVERY_COMMAND = [
    ["kana", "odds", "--players", "4", "--samples", "2000"],
    ["kana", "odds", "--players", "3", "--shown", "0:5h Ks", "--shown", "1:2c Qs", "--shown", "2:9d",
     "--samples", "2000"],
    ["kana", "advise", "--players", "4", "--variant", "peek-one", "--seat", "2", "--hand", "9h ? ?",
     "--policies", "blind", "--samples", "2000"],
    ["kana", "table", "--players", "2-3", "--opponents", "blind", "--samples", "2000"],
    ["kana", "table", "--players", "2", "--samples", "2000"],
    ["kana", "session", "--players", "3", "--rounds", "5", "--samples", "50"],
    ["kanalje", "risk", "--samples", "500"],
    ["kanalje", "hand", "--hand", "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", "--turned", "7h",
     "--samples", "500"],
    ["kanalje", "game", "--policies", "random", "--samples", "20"],
    ["kanalje", "advise", "--seat", "0", "--hand", "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", "--turned",
     "7h", "--samples", "200"],
    ["kanalje", "advise", "--players", "2", "--seat", "1", "--hand", "As Ks 3s 4c 8c Tc 2d 6d 9d Qd 5h 8h Ah",
     "--faceup", "Jh", "--played", "0: Qs", "--samples", "200"],
    ["canasta", "melds", "--samples", "500"],
    ["canasta", "hand", "--hand", "Kh Kd 9c 4d 5s 6h 7c 8d Th Js Qc 3h", "--turns", "3", "--samples", "500"],
    ["canasta", "play", "--samples", "20"],
    ["canasta", "game", "--samples", "2"],
    ["canasta", "strength", "heuristic", "random", "--samples", "10"],
    ["canasta", "game-strength", "--target", "1500", "--samples", "2"],
    ["canasta", "house-options", "--samples", "20"],
    ["kanalje", "strength", "--samples", "200"],
    ["canasta", "advise", "--hand", "K K 9 9 5 7 Q Jk 3b 4", "--melds", "us: A A A; them: 8 8 8", "--pile", "K",
     "--pile-size", "6", "--samples", "20"],
]


@pytest.mark.parametrize("argv", EVERY_COMMAND, ids=" ".join)
@pytest.mark.parametrize("as_json", [False, True], ids=["text", "json"])
def test_every_command_marks_a_partial_answer_and_exits_130(monkeypatch, capsys, argv, as_json):
    import cardodds.canasta.cli  # noqa: F401  (every module that runs, imported before the patch)
    import cardodds.kana.advise  # noqa: F401
    import cardodds.kana.cli  # noqa: F401
    import cardodds.kana.equilibrium  # noqa: F401
    import cardodds.kanalje.cli  # noqa: F401
    from cardodds.canasta import advise, analysis, play  # noqa: F401
    from cardodds.cli import main
    from cardodds.kana import analysis as kana_analysis  # noqa: F401
    from cardodds.kana import decisions, session  # noqa: F401
    import cardodds.kanalje.advise  # noqa: F401
    from cardodds.kanalje import analysis as kanalje_analysis  # noqa: F401
    from cardodds.kanalje import play as kanalje_play  # noqa: F401

    calls = _partial_at(monkeypatch, None, 1)
    status = main(argv + ["--seed", "3", "--threads", "1", "--no-progress"] + ["--json"] * as_json)
    out, err = capsys.readouterr()
    assert calls and status == 130, (status, err[-300:])
    if as_json:
        assert json.loads(out)["partial"] is True
    else:
        assert "[PARTIAL: interrupted" in out, out[:300]
