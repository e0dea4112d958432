"""``cardodds warm-up`` on real processes: it compiles what a command then loads, skips what
is warm, stops cleanly on Ctrl-C, says so when a worker dies, refuses bad input in one line;
``cardodds report`` compiles its sections in the warm-up's processes on a fresh install; a
command's first call says on stderr that it is compiling."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardodds import report, warmup
from cardodds._jit import POINTER, PYTHON_TWIN

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")

CLI = [sys.executable, "-c", "import sys; from cardodds.cli import main; sys.exit(main())"]


def _env(cache: Path, log: Path | None = None) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    env.pop("CARDODDS_COMPILE_LOG", None)
    if log is not None:
        env["CARDODDS_COMPILE_LOG"] = str(log)
    return env


def _compiled(log: Path) -> list[dict]:
    """The cardodds kernels a logged run compiled (a line still being written left out)."""
    if not log.exists():
        return []
    text = log.read_text()
    rows = [json.loads(line) for line in text[:text.rfind("\n") + 1].splitlines()]
    return [r for r in rows if r["kernel"].startswith("cardodds.")]


def test_no_task_calls_a_compiled_only_function_from_python(tmp_path):
    # Helpers and loops have no CPython wrapper (cardodds/_jit.py); Python's call to one compiles
    # a twin with it, a compile no first call should wait for. Every task (each report section
    # and each one-question command) on an empty cache compiles none: what a command calls from
    # Python is a @kernel or a @loop(from_python=True).
    log = tmp_path / "compiles.jsonl"
    run = subprocess.run(CLI + ["warm-up", "--jobs", "2", "--json"], env=_env(tmp_path / "cache", log),
                         capture_output=True, text=True, timeout=1800)
    assert run.returncode == 0, run.stderr
    assert {r["status"] for r in json.loads(run.stdout)["tasks"]} == {"compiled"}
    compiled = [r["kernel"] for r in _compiled(log)]
    assert "cardodds.canasta._table.apply_move" in compiled
    assert "cardodds.kanalje._search.endgame_score" + POINTER in compiled
    assert [k for k in compiled if k.endswith(PYTHON_TWIN)] == []


def test_every_report_section_has_a_task():
    assert set(warmup.report_tasks()) == {f"report {s}" for s in report.SECTIONS}


def test_a_warmed_command_then_compiles_nothing_and_a_second_warm_up_skips_it(tmp_path):
    cache, log = tmp_path / "cache", tmp_path / "compiles.jsonl"
    cmd = CLI + ["warm-up", "--task", "kana odds", "--jobs", "1", "--json"]
    first = subprocess.run(cmd, env=_env(cache, log), capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    rows = json.loads(first.stdout)["tasks"]
    assert [(r["task"], r["status"]) for r in rows] == [("kana odds", "compiled")]
    assert _compiled(log), "the task compiled the kana kernels"
    assert {r["pid"] for r in _compiled(log)} != {None}
    log.unlink()
    again = subprocess.run(cmd, env=_env(cache, log), capture_output=True, text=True, timeout=600)
    assert json.loads(again.stdout)["tasks"][0]["status"] == "already warm"
    # the command the task stands for loads every kernel from the cache
    odds = subprocess.run(CLI + list(warmup.TASKS["kana odds"]), env=_env(cache, log), capture_output=True,
                          text=True, timeout=600)
    assert odds.returncode == 0, odds.stderr
    assert _compiled(log) == []


def test_a_first_call_says_once_that_it_compiles_and_a_warm_one_or_one_without_progress_does_not(tmp_path):
    from cardodds._cliutil import COMPILE_NOTICE

    odds = CLI + ["kana", "odds", "--samples", "2000", "--seed", "1"]
    quiet = subprocess.run(odds + ["--no-progress"], env=_env(tmp_path / "a"), capture_output=True, text=True,
                           timeout=600)
    first = subprocess.run(odds + ["--progress"], env=_env(tmp_path / "b"), capture_output=True, text=True,
                           timeout=600)
    warm = subprocess.run(odds + ["--progress"], env=_env(tmp_path / "b"), capture_output=True, text=True,
                          timeout=600)
    for run in (quiet, first, warm):
        assert run.returncode == 0, run.stderr
        assert run.stdout == quiet.stdout  # the notice is on stderr only
    assert quiet.stdout.startswith("Känä, 4 players")
    assert COMPILE_NOTICE not in quiet.stderr  # a fresh cache, but no progress asked for
    assert first.stderr.count(COMPILE_NOTICE) == 1
    assert COMPILE_NOTICE not in warm.stderr
    assert "%|" in warm.stderr  # the progress bar itself was shown


def test_ctrl_c_while_a_first_call_compiles_exits_130_in_one_line(tmp_path):
    from cardodds._cliutil import COMPILE_NOTICE

    proc = subprocess.Popen(CLI + ["kanalje", "risk", "--policies", "heuristic", "--samples", "100000000", "--seed",
                                   "1", "--progress"], env=_env(tmp_path / "cache"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    seen = ""
    try:
        while COMPILE_NOTICE not in seen:  # the notice: numba is compiling the command's kernels
            line = proc.stderr.readline()
            assert line, f"the command ended before it said it compiles: {seen}"
            seen += line
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        raise
    started = time.monotonic()
    out, err = _ctrl_c(proc)
    assert proc.returncode == 130, err
    assert time.monotonic() - started < 30
    assert "cardodds: interrupted" in err and "Traceback" not in err


@pytest.mark.parametrize("args, words", [
    (["--jobs", "0"], "--jobs"),
    (["--jobs", "many"], "--jobs"),
    (["--task", "everything"], "--task"),
])
def test_bad_input_is_one_line_and_exit_2(args, words, tmp_path):
    run = subprocess.run(CLI + ["warm-up", *args], env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and words in run.stderr


def test_api_refuses_bad_jobs_and_tasks():
    with pytest.raises(ValueError, match="jobs"):
        warmup.warm_up(jobs=0)
    with pytest.raises(ValueError, match="unknown warm-up task"):
        warmup.warm_up(["no such task"])


def _children(pid: int) -> list[int]:
    """The child processes of ``pid``, whichever of its threads started them."""
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids += [int(x) for x in (task / "children").read_text().split()]
        except OSError:  # the thread ended meanwhile
            pass
    return kids


def _start_long_warm_up(tmp_path, jobs: int = 1) -> subprocess.Popen:
    cmd = CLI + ["warm-up", "--task", "report kanalje", "--task", "report canasta_play", "--jobs", str(jobs)]
    return subprocess.Popen(cmd, env=_env(tmp_path / "cache", tmp_path / "compiles.jsonl"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)


def _first_child(proc: subprocess.Popen) -> int:
    """The first process ``proc`` starts (polled every 10 ms, for a minute)."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        kids = _children(proc.pid)
        if kids:
            return kids[0]
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)  # the test fails: leave no process behind
    raise AssertionError("no child process started")


def _compiling(proc: subprocess.Popen, log: Path, workers: int = 1) -> list[int]:
    """The child processes of ``proc`` once ``workers`` of them have logged a compile to ``log``
    (their tasks are under way: started, at their niceness, compiling)."""
    deadline = time.monotonic() + 600  # bounds a hang only: the wait is for the log
    while time.monotonic() < deadline and proc.poll() is None:
        kids = _children(proc.pid)
        if len(set(kids) & {r["pid"] for r in _compiled(log)}) >= workers:
            return kids
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGKILL)  # the test fails: leave no process behind
    raise AssertionError(f"no {workers} worker(s) of {proc.args} logged a compile")


def _group_gone(pgid: int, within: float = 15.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.2)
    return False


def _ctrl_c(proc: subprocess.Popen) -> tuple[str, str]:
    """Ctrl-C as a terminal sends it (SIGINT to the whole process group), then the process's
    output; it is killed if it is still running 30 s later."""
    try:
        os.killpg(proc.pid, signal.SIGINT)
        return proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_ctrl_c_stops_the_workers_and_exits_130_with_a_partial_table(tmp_path):
    proc = _start_long_warm_up(tmp_path)
    _compiling(proc, tmp_path / "compiles.jsonl")
    out, err = _ctrl_c(proc)
    assert proc.returncode == 130, err
    assert "PARTIAL" in out and "not run" in out
    assert "Traceback" not in err
    assert _group_gone(proc.pid), "a worker outlived the interrupted warm-up"


def test_a_killed_worker_is_named_and_the_exit_status_is_1(tmp_path):
    proc = _start_long_warm_up(tmp_path)
    try:
        kids = _compiling(proc, tmp_path / "compiles.jsonl")
        os.kill(kids[0], signal.SIGKILL)
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 1, (out, err)
    assert "failed: its process died (SIGKILL)" in out
    # both sections shared the killed process (one process): the second never ran
    assert any("report canasta_play" in line and "not run" in line for line in out.splitlines()), out
    assert "task(s) failed" in err and "Traceback" not in err


def test_report_compiles_its_sections_in_warm_up_processes_and_builds_each_once_its_kernels_are_ready(tmp_path):
    # three sections in two processes: the first alone, the other two one after the other in one
    log = tmp_path / "compiles.jsonl"
    proc = subprocess.Popen(CLI + ["report", "--section", "kana_session", "--section", "canasta", "--section", "kana",
                                   "--scale", "0.01", "--out", str(tmp_path / "out")],
                            env=_env(tmp_path / "cache", log), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    assert "compiling the kernels of 3 section(s) in 2 processes" in err
    assert out.startswith("Reports written")
    assert "(compiling)" in out, "the closing table counts the wait for the kernels"
    lines = err.splitlines()
    for section in ("kana_session", "canasta", "kana"):
        ready = lines.index(f"kernels of section {section} compiled")
        first_stage = next(i for i, line in enumerate(lines) if line.startswith(f"{section} [1/"))
        assert ready < first_stage, f"{section} was built before its kernels were compiled"
    pids = {r["pid"] for r in _compiled(log)}
    assert len(pids) == 2, "the sections' kernels compiled in two warm-up processes"
    # the report itself loaded every kernel from the cache: it compiled none
    assert proc.pid not in pids


def test_ctrl_c_while_the_report_compiles_writes_nothing_and_exits_130(tmp_path):
    out = tmp_path / "out"
    log = tmp_path / "compiles.jsonl"
    proc = subprocess.Popen(CLI + ["report", "--section", "kanalje", "--scale", "0.01", "--out", str(out)],
                            env=_env(tmp_path / "cache", log), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    _compiling(proc, log)  # the section's warm-up task is compiling
    stdout, err = _ctrl_c(proc)
    assert proc.returncode == 130, err
    assert stdout == ""
    assert "report interrupted while compiling its kernels; no file written" in err and "Traceback" not in err
    assert not list(out.glob("*.md"))
    assert _group_gone(proc.pid), "a compiling process outlived the interrupted report"


def test_ctrl_c_after_a_section_while_another_compiles_keeps_the_finished_one_and_exits_130(tmp_path):
    out, cache = tmp_path / "out", tmp_path / "cache"
    # kana_session's kernels on disk first, so it is built at once while kanalje's compile (the longest)
    # runs: compiled together, a loaded machine may finish the niced kana_session after kanalje
    warm = subprocess.run(CLI + ["warm-up", "--task", "report kana_session"], env=_env(cache), capture_output=True,
                          text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr
    proc = subprocess.Popen(CLI + ["report", "--section", "kanalje", "--section", "kana_session", "--scale", "0.01",
                                   "--out", str(out)], env=_env(cache), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 600  # bounds a hang only: the wait is for the section's file
    while not (out / "kana_session.md").exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    stdout, err = _ctrl_c(proc)
    assert (out / "kana_session.md").exists(), "the quick section was not built first"
    assert proc.returncode == 130, err
    assert "report interrupted while its kernels compiled" in err and "sections written: kana_session.md" in err
    assert "Traceback" not in err
    assert "PARTIAL" in stdout and "kana_session" in stdout
    assert not (out / "kanalje.md").exists()
    assert _group_gone(proc.pid), "a compiling process outlived the interrupted report"


def test_a_report_task_writes_its_section_but_draws_no_chart(tmp_path):
    env = dict(_env(tmp_path / "cache"), **{warmup.TASK_ENV: "report kana_session"})
    out = tmp_path / "out"
    run = subprocess.run(CLI + ["report", "--section", "kana_session", "--scale", "0.001", "--out", str(out)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert (out / "kana_session.md").exists()
    assert not list(out.glob("*.png")), "a warm-up task drew its charts"
    # the same section outside a task draws them
    plain = subprocess.run(CLI + ["report", "--section", "kana_session", "--scale", "0.001", "--out", str(out)],
                           env=_env(tmp_path / "cache"), capture_output=True, text=True, timeout=600)
    assert plain.returncode == 0, plain.stderr
    assert list(out.glob("*.png"))


def test_an_unwritable_cache_folder_is_one_line_and_exit_2(tmp_path):
    run = subprocess.run(CLI + ["warm-up", "--task", "kana odds"], env=_env(Path("/proc/no-such-folder")),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "cannot write /proc/no-such-folder" in run.stderr


def test_the_longest_task_compiles_at_full_priority_and_the_others_behind_it(tmp_path):
    proc = _start_long_warm_up(tmp_path, jobs=2)  # Kanalje's section first, then Canasta's play
    try:
        kids = _compiling(proc, tmp_path / "compiles.jsonl", workers=2)
        nice = sorted(os.getpriority(os.PRIO_PROCESS, k) for k in kids)
    finally:
        _ctrl_c(proc)
    base = os.getpriority(os.PRIO_PROCESS, 0)
    assert nice == [base, min(base + warmup.BEHIND_FIRST, 19)]
    assert _group_gone(proc.pid)


def test_sections_sharing_a_process_finish_one_by_one_and_a_failure_ends_the_rest(tmp_path):
    folder = tmp_path / "task"
    folder.mkdir()
    (folder / "stderr").write_text("cardodds: error: the chart broke\n")
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        p = warmup._Process(["report kana", "report canasta", "report kana_session"], sleeper, str(folder))
        assert p.finished(None) == [], "no section published yet"
        (folder / "kana.md").write_text("# Känä")  # the first section's markdown, published last
        [(name, said, cpu)] = p.finished(None)
        assert (name, said) == ("report kana", "compiled") and cpu >= 0
        rows = p.finished((1, p.counted + 5.0))  # the process then exits with status 1
    finally:
        sleeper.kill()
        sleeper.wait()
    assert rows == [("report canasta", "failed: cardodds: error: the chart broke", 5.0),
                    ("report kana_session", "not run", 0.0)]
    assert p.todo == []


def test_a_warm_up_task_runs_the_costliest_runs_of_a_section_on_their_task_count(monkeypatch):
    from cardodds.report._common import samples

    monkeypatch.delenv(warmup.TASK_ENV, raising=False)
    assert samples(60, 1.0, 20, task=2) == 60
    assert samples(60, 0.01, 20, task=2) == 20
    monkeypatch.setenv(warmup.TASK_ENV, "report canasta_advice")
    assert samples(60, 1.0, 20, task=2) == 2
    assert samples(60, 1.0, 20) == 60, "a run without a task count keeps its own"


# ---- a first call compiling in two processes (cardodds/_two_process_compile.py) ----------------------------
#: A command of each split as a user types it: the warm-up's tasks, and a small look-ahead lineup.
_SPLIT_RUNS = [
    ("canasta advise", warmup.TASKS["canasta advise"]),
    ("canasta play", warmup.TASKS["canasta play"]),
    ("canasta advise", ("canasta", "review", str(Path(__file__).resolve().parents[1] / "docs" / "canasta-hand.txt"),
                        "--samples", "8", "--seed", "1")),
    # the advisor's default players search: the search's part without the deal records, and without
    # phase 1 with the play-outs' card choice
    ("kanalje advise look-ahead", warmup.TASKS["kanalje advise"]),
    ("kanalje advise look-ahead, phase 1", warmup.TASKS["kanalje advise two players"]),
    ("kanalje advise look-ahead", warmup.TASKS["kanalje advise two players, phase 2"]),
    ("kanalje advise", (*warmup.TASKS["kanalje advise"], "--policies", "heuristic")),
    # a review asks the advisor at each card: its split (a record of four tricks, every hand known)
    ("kanalje advise look-ahead", ("kanalje", "review", str(Path(__file__).parent / "data" / "kanalje_review.txt"),
                                   "--seat", "all", "--samples", "4", "--seed", "1")),
    ("kanalje risk heuristic", warmup.TASKS["kanalje risk"]),
    ("kanalje risk heuristic", warmup.TASKS["kanalje hand"]),
    ("kanalje risk look-ahead", ("kanalje", "risk", "--policies", "lookahead,heuristic,heuristic", "--samples", "3",
                                 "--lookahead-samples", "2", "--seed", "1")),
    ("kanalje risk look-ahead, phase 1", ("kanalje", "risk", "--policies", "lookahead,heuristic", "--players", "2",
                                          "--samples", "2", "--lookahead-samples", "2", "--seed", "1")),
    ("kanalje risk pimc, phase 1", ("kanalje", "risk", "--policies", "pimc,heuristic", "--players", "2", "--samples",
                                    "2", "--lookahead-samples", "2", "--seed", "1")),
]

def test_a_kanalje_lineup_picks_the_split_of_the_deals_kernel_it_runs():
    # all heuristic: the lean loop with the play-out's pointer; a random seat: the basic loop,
    # which calls no pointer, so nothing to split; a search: its pointer, with the phase-1 code
    # only where the deals start in phase 1
    from cardodds.kanalje.cli import _split
    from cardodds.kanalje.policies import resolve_policies

    def split(policies, players=3, phase1=False):
        return _split(resolve_policies(policies, players)[1], phase1)

    assert split("heuristic") == split("heuristic", 2, True) == "kanalje risk heuristic"
    assert split("random,heuristic,heuristic") is None and split("random") is None
    assert split("lookahead,heuristic,heuristic") == split("heuristic,lookahead,random") == "kanalje risk look-ahead"
    assert split("lookahead,heuristic", 2, True) == "kanalje risk look-ahead, phase 1"
    assert split("pimc,lookahead,heuristic") == split("pimc,heuristic", 2) == "kanalje risk pimc"
    assert split("pimc,heuristic", 2, True) == "kanalje risk pimc, phase 1"


def test_a_kanalje_advisor_picks_the_split_of_its_players():
    # heuristic players: the play-outs beside the position; a look-ahead: its search without the
    # deal records, which an advisor never reaches; pimc: the risk command's search part
    from cardodds.kanalje.cli import _advise_split
    from cardodds.kanalje.policies import resolve_policies

    def split(policies, players=3, phase1=False):
        return _advise_split(resolve_policies(policies, players)[1], phase1)

    assert split("heuristic") == split("heuristic", 2, True) == "kanalje advise"
    assert split("lookahead") == split("lookahead", 2) == "kanalje advise look-ahead"
    assert split("lookahead", 2, True) == "kanalje advise look-ahead, phase 1"
    assert split("pimc,lookahead,heuristic") == "kanalje risk pimc"
    assert split("pimc", 2, True) == "kanalje risk pimc, phase 1"


def test_every_split_names_functions_that_exist_with_as_many_argument_types_as_they_take():
    # the parts no first call below runs (a two-player look-ahead, a three-player pimc lineup)
    # are built by the same code as those it runs; a name or an argument count wrong there would
    # only make the command compile the function itself, which no other test would see
    import inspect

    from cardodds import _two_process_compile

    for command, part in [*_two_process_compile.SPLITS.items(), *_two_process_compile.FIRST.items()]:
        for name, types in part:
            fn = _two_process_compile._function(name)
            py = getattr(fn, "py_func", None) or fn.fn  # a dispatcher, or a Pointer's function
            assert len(_two_process_compile._types(types)) == len(inspect.signature(py).parameters), (command, name)
    for command, first in _two_process_compile.FIRST.items():  # the command's own: never waiting for the second process
        assert command in _two_process_compile.SPLITS
        assert not {n for n, _ in first} & {n for n, _ in _two_process_compile.SPLITS[command]}


def test_the_command_compiles_its_first_functions_before_its_run_while_the_second_process_compiles_its_part(
        tmp_path):
    # pimc: the second process compiles the exact search, the longer part; the command, instead
    # of waiting for it, compiles the play-outs and the player at once, before its own kernels;
    # so does a look-ahead advisor without phase 1 with its worlds' deal
    from cardodds import _two_process_compile

    code = ("import json, sys\n"
            "from cardodds import _two_process_compile as s\n"
            "from cardodds._jit import _POINTERS, Pointer\n"
            "def compiled(name, types):\n"
            "    f = s._function(name)\n"
            "    return f._key() in _POINTERS if isinstance(f, Pointer) else s._types(types) in f.overloads\n"
            "split = sys.argv[1]\n"
            "with s.two_processes(split):\n"
            "    print(json.dumps([compiled(n, t) for n, t in s.FIRST[split]]))\n")
    assert set(_two_process_compile.FIRST) == {"kanalje risk pimc", "kanalje risk pimc, phase 1",
                                               "kanalje advise look-ahead"}
    for split in _two_process_compile.FIRST:
        run = subprocess.run([sys.executable, "-c", code, split], env=_env(tmp_path / split, tmp_path / "log"),
                             capture_output=True, text=True, timeout=600)
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout) == [True] * len(_two_process_compile.FIRST[split])


#: What the pimc player alone compiles: a look-ahead lineup must compile none of it.
_EXACT_SEARCH = {"cardodds.kanalje._search.endgame_score", "cardodds.kanalje._search.endgame_score" + POINTER,
                 "cardodds.kanalje._policies.pimc_choose" + POINTER,
                 "cardodds.kanalje._policies.pimc_choose_trick_play" + POINTER}


#: The two-player phase-1 player, records and start of phase 2: three players compile none of it.
_PHASE1 = {"cardodds.kanalje._policies.heuristic1_choose", "cardodds.kanalje._table._record_phase1",
           "cardodds.kanalje._table.start_phase2"}


def _logged_name(name: str) -> str:
    """The compile log's name of a function of a split: a :class:`~cardodds._jit.Pointer` is
    logged as its function's compiled form."""
    from cardodds import _two_process_compile

    fn = getattr(_two_process_compile._function(name), "fn", None)
    return name if fn is None else f"{fn.__module__}.{fn.__qualname__}{POINTER}"


def _split_kernels(split: str) -> set[tuple[str, str]]:
    """``(kernel, argument types)`` of the split as the compile log writes them."""
    from cardodds import _two_process_compile

    return {(_logged_name(name), str(_two_process_compile._types(types)))
            for name, types in _two_process_compile.SPLITS[split]}


@pytest.mark.parametrize("split, argv", _SPLIT_RUNS, ids=[" ".join(a[:2]) + f" {i}" for i, (_, a) in
                                                          enumerate(_SPLIT_RUNS)])
def test_a_first_call_compiles_its_split_in_a_second_process_and_loads_it_from_there(split, argv, tmp_path):
    cache, log = tmp_path / "cache", tmp_path / "compiles.jsonl"
    proc = subprocess.Popen(CLI + list(argv), env=_env(cache, log), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 0, err
    rows = _compiled(log)
    second = {r["pid"] for r in rows} - {proc.pid}
    assert len(second) == 1, "one second process compiled"
    # it compiled every function of the split with the argument types the command calls it with ...
    assert {(r["kernel"], r["args"]) for r in rows if r["pid"] in second} >= _split_kernels(split)
    # ... and the command compiled none of them: it waited for each and loaded it
    names = {name for name, _ in _split_kernels(split)}
    assert [r["kernel"] for r in rows if r["pid"] == proc.pid and r["kernel"] in names] == []
    kernels = {r["kernel"] for r in rows}
    if split in ("kanalje risk look-ahead", "kanalje advise look-ahead"):  # a lineup compiles only the
        assert _EXACT_SEARCH.isdisjoint(kernels)  # searches it has, and three players no phase-1 code
        assert _PHASE1.isdisjoint(kernels)
    if "look-ahead" in split:  # no user's policy in the lineup: its view and call are compiled out
        assert "cardodds.kanalje._policies.user_view" not in kernels
    if split.endswith(", phase 1"):  # the names the log writes; an advisor records no deals
        assert _PHASE1 - ({"cardodds.kanalje._table._record_phase1"} if "advise" in split else set()) <= kernels
    log.unlink()
    warm = subprocess.run(CLI + list(argv), env=_env(cache, log), capture_output=True, text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr
    assert warm.stdout == out, "the same answer from the cache"
    assert _compiled(log) == []


#: Each split once, with the first command of :data:`_SPLIT_RUNS` that has it.
_SPLIT_ONCE = [(s, a) for i, (s, a) in enumerate(_SPLIT_RUNS) if s not in {t for t, _ in _SPLIT_RUNS[:i]}]


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="runs a command on one core (Linux)")
@pytest.mark.parametrize("split, argv", _SPLIT_ONCE, ids=[s for s, _ in _SPLIT_ONCE])
def test_a_split_holds_only_what_its_command_compiles_alone(split, argv, tmp_path):
    # On one core no second process starts and the command compiles everything itself: every
    # function of its split is among them, or the second process compiled it for nothing.
    log = tmp_path / "compiles.jsonl"
    one_core = {min(os.sched_getaffinity(0))}
    run = subprocess.run(CLI + list(argv), env=_env(tmp_path / "cache", log), capture_output=True, text=True,
                         timeout=900, preexec_fn=lambda: os.sched_setaffinity(0, one_core))
    assert run.returncode == 0, run.stderr
    rows = _compiled(log)
    assert len({r["pid"] for r in rows}) == 1, "one process compiled"
    assert _split_kernels(split) - {(r["kernel"], r["args"]) for r in rows} == set()


def test_the_second_process_as_a_fresh_interpreter_compiles_its_part_in_order(tmp_path):
    # Off Linux the second process is ``python -m cardodds._two_process_compile COMMAND`` (on Linux, a fork of
    # the command, which the runs above use): one line a function, into the shared cache.
    from cardodds import _two_process_compile

    split, log = "kanalje risk heuristic", tmp_path / "compiles.jsonl"
    run = subprocess.run([sys.executable, "-m", "cardodds._two_process_compile", split],
                         env=_env(tmp_path / "cache", log), capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == [name for name, _ in _two_process_compile.SPLITS[split]]
    assert {(r["kernel"], r["args"]) for r in _compiled(log)} >= _split_kernels(split)


def test_a_command_running_a_second_thread_starts_a_fresh_interpreter_not_a_fork(monkeypatch):
    # A fork copies only the calling thread; a lock another thread held would stay held in the
    # child. So with a second thread alive the second process is a fresh interpreter.
    import threading

    from cardodds import _two_process_compile

    started = []

    class FakePopen:
        def __init__(self, argv, **kw):
            started.append(argv)
            self.stdout = None

    def no_fork():
        raise AssertionError("forked with a second thread alive")

    monkeypatch.setattr(_two_process_compile.subprocess, "Popen", FakePopen)
    monkeypatch.setattr(_two_process_compile.os, "fork", no_fork)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        proc, _ = _two_process_compile._start("canasta play")
    finally:
        stop.set()
        other.join()
    assert isinstance(proc, FakePopen)
    assert started == [[sys.executable, "-m", "cardodds._two_process_compile", "canasta play"]]


def _wanted(cache: Path, *, compile_first: bool = False, cores: int = 0, task: str = "") -> str:
    """What ``_two_process_compile._wanted`` says of Canasta's advice in a fresh process on ``cache``."""
    code = ("import os; from cardodds import _two_process_compile as s\n"
            f"if {cores}: os.sched_setaffinity(0, set(sorted(os.sched_getaffinity(0))[:{cores}]))\n"
            f"if {compile_first}:\n"
            "    for name, types in s.SPLITS['canasta advise']: s._function(name).compile(s._types(types))\n"
            "print(s._wanted('canasta advise'), s._wanted('canasta melds'), s._wanted(None))")
    env = _env(cache)
    if task:
        env[warmup.TASK_ENV] = task
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr
    return run.stdout.strip()


def test_a_second_process_starts_only_on_a_fresh_cache_with_two_cores_outside_a_warm_up_task(tmp_path):
    from cardodds._cliutil import cores_available

    fresh = "True" if cores_available() >= 2 else "False"  # a one-core machine never starts one
    assert _wanted(tmp_path / "fresh") == f"{fresh} False False"
    assert _wanted(tmp_path / "one core", cores=1) == "False False False"
    assert _wanted(tmp_path / "task", task="report canasta") == "False False False"
    assert _wanted(tmp_path / "warm", compile_first=True) == "False False False"


def test_a_killed_second_process_costs_only_time_the_command_compiles_its_part(tmp_path):
    cache, log = tmp_path / "cache", tmp_path / "compiles.jsonl"
    argv = CLI + list(warmup.TASKS["canasta advise"])
    proc = subprocess.Popen(argv, env=_env(cache, log), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        os.kill(_first_child(proc), signal.SIGKILL)  # long before it has imported numba
        out, err = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    rows = _compiled(log)
    assert {r["pid"] for r in rows} == {proc.pid}
    assert {(r["kernel"], r["args"]) for r in rows} >= _split_kernels("canasta advise")
    warm = subprocess.run(argv, env=_env(cache), capture_output=True, text=True, timeout=600)
    assert warm.stdout == out


@pytest.mark.parametrize("whom", ["the process group", "the command alone"])
def test_ctrl_c_while_two_processes_compile_exits_130_in_one_line_and_ends_both(whom, tmp_path):
    from cardodds._cliutil import COMPILE_NOTICE

    proc = subprocess.Popen(CLI + list(warmup.TASKS["canasta advise"]) + ["--progress"], env=_env(tmp_path / "cache"),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        second = _first_child(proc)
        seen = ""
        while COMPILE_NOTICE not in seen:
            line = proc.stderr.readline()
            assert line, f"the command ended before it said it compiles: {seen}"
            seen += line
        started = time.monotonic()
        if whom == "the command alone":  # e.g. `kill -INT`: the second process stops at its next line
            os.kill(proc.pid, signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        else:
            out, err = _ctrl_c(proc)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert time.monotonic() - started < 30
    assert "cardodds: interrupted" in err and "Traceback" not in err
    assert _group_gone(proc.pid, within=30), "the second process outlived the command"
    with pytest.raises(ProcessLookupError):
        os.kill(second, 0)
