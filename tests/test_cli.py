"""The command line: output, JSON, and one-line errors with exit status 2."""

import gc
import json
import os
import subprocess
import sys

import pytest

from cardodds.cli import main


def run_cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_kana_odds_table(capsys):
    code, out, err = run_cli(capsys, "kana", "odds", "--players", "3", "--samples", "20000", "--seed", "1")
    assert code == 0
    assert "Känä, 3 players" in out and out.count("[") >= 3 and "seed 1" in out


def _is_estimate(d):
    return set(d) == {"value", "se", "lo", "hi"} and d["lo"] <= d["value"] <= d["hi"]


def test_kana_odds_json(capsys):
    code, out, _ = run_cli(capsys, "kana", "odds", "--players", "4", "--samples", "30000", "--seed", "5", "--json")
    d = json.loads(out)
    assert code == 0
    assert d["players"] == 4 and d["samples"] == 30000 and d["seed"] == 5 and d["method"] == "monte carlo"
    assert d["rules"]["tiebreak_deck"] == "remaining"
    assert len(d["win"]) == 4 and all(_is_estimate(w) for w in d["win"])
    assert sum(w["value"] for w in d["win"]) == pytest.approx(1.0)
    assert _is_estimate(d["extra_round"]) and _is_estimate(d["superkana"])
    assert list(d["hand_value"]) == [str(v) for v in range(4, 29)]
    assert d["superkana"] == d["hand_value"]["4"]
    # The same seed gives the same numbers with one thread.
    code, out2, _ = run_cli(capsys, "kana", "odds", "--players", "4", "--samples", "30000", "--seed", "5",
                            "--json", "--threads", "1")
    assert json.loads(out2)["win"] == d["win"]


def test_kana_exact_json(capsys):
    code, out, _ = run_cli(capsys, "kana", "odds", "--players", "2", "--exact", "--json")
    d = json.loads(out)
    assert d["method"] == "exact"
    assert d["extra_round"]["value"] == pytest.approx(839 / 16575)
    for w in d["win"]:
        assert w == {"value": 0.5, "se": 0.0, "lo": 0.5, "hi": 0.5}


def test_kana_live_json(capsys):
    code, out, _ = run_cli(capsys, "kana", "odds", "--players", "2", "--shown", "0:5h Ks Qd", "--shown", "1:2c Ah",
                           "--json")
    d = json.loads(out)
    assert d["method"] == "exact" and d["shown"] == {"0": "5h Ks Qd", "1": "2c Ah"}
    assert d["win"][1]["value"] == pytest.approx(11 / 47)


@pytest.mark.parametrize(
    "argv,fragment",
    [
        (["kana", "odds", "--players", "18"], "Känä is played by 2 to 17"),
        (["kana", "odds", "--players", "1"], "Känä is played by 2 to 17"),
        (["kana", "odds", "--samples", "0"], "must be a positive whole number"),
        (["kana", "odds", "--samples", "many"], "not a whole number"),
        (["kana", "odds", "--precision", "0"], "half-width"),
        (["kana", "odds", "--shown", "0:Zz"], "cannot read card 'Zz'"),
        (["kana", "odds", "--shown", "0:Ah", "--shown", "1:Ah"], "shown twice"),
        (["kana", "odds", "--shown", "0:Ah Kd Qc Jc"], "at most 3"),
        (["kana", "odds", "--shown", "7:Ah"], "seat 7 does not exist"),
        (["kana", "odds", "--shown", "Ah"], "SEAT:CARDS"),
        (["kana", "odds", "--exact", "--samples", "10"], "not allowed with argument --exact"),
        (["kana", "odds", "--seed", "-3"], "must be >= 0"),
        (["kana", "nothing"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, argv, fragment):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors leave through exit(2)
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_console_script_exit_status_and_help():
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kana", "odds", "--players", "40"],
                       capture_output=True, text=True)
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kana", "odds", "--help"], capture_output=True, text=True)
    assert r.returncode == 0 and "--shown" in r.stdout and "--precision" in r.stdout


#: The program, with an exit handler that reports the collector's thresholds, and optionally a
#: thread that is still alive when the command is done (it waits for the main thread to end, so
#: only the interpreter's normal exit lets it print its line).
_PROGRAM = """
import atexit, gc, os, sys, threading
atexit.register(lambda: print("exit handler: gc thresholds", gc.get_threshold(), file=sys.stderr))
if os.environ.get("CARDODDS_TEST_THREAD"):
    main_thread = threading.main_thread()
    threading.Thread(target=lambda: (main_thread.join(), print("thread done", file=sys.stderr))).start()
from cardodds.cli import main
sys.argv[0] = "cardodds"
sys.exit(main())
"""


@pytest.mark.parametrize("thread", [False, True])
@pytest.mark.parametrize("argv, status", [(["kana", "odds", "--samples", "3000", "--seed", "1", "--json"], 0),
                                          (["kana", "odds", "--players", "40"], 2)])
def test_the_program_flushes_runs_its_exit_handlers_and_keeps_its_status(argv, status, thread):
    from cardodds.cli import PROGRAM_GC_THRESHOLDS

    handler = f"exit handler: gc thresholds {PROGRAM_GC_THRESHOLDS}"
    env = dict(os.environ, CARDODDS_TEST_THREAD="1" if thread else "")
    r = subprocess.run([sys.executable, "-c", _PROGRAM, *argv], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == status, r.stderr
    if status == 0:
        assert json.loads(r.stdout)["samples"] == 3000  # the whole answer reached the pipe
    lines = r.stderr.strip().splitlines()
    assert handler in lines
    # a thread still running is joined as at any exit, before the exit handlers
    assert ("thread done" in lines) == thread
    if thread:
        assert lines.index("thread done") < lines.index(handler)


def test_the_program_whose_reader_has_gone_ends_quietly_with_status_0():
    """``cardodds ... | head -1`` where ``head`` left before the answer was written: no traceback,
    no "Exception ignored" from the final flush, status 0 (as command-line tools do)."""
    read, write = os.pipe()
    os.close(read)
    try:
        r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kana", "odds", "--samples", "2000", "--seed", "1"],
                           stdout=write, stderr=subprocess.PIPE, text=True, timeout=120)
    finally:
        os.close(write)
    assert r.returncode == 0 and r.stderr == ""


def test_main_called_with_arguments_leaves_the_collector_and_the_process_alone(capsys, monkeypatch):
    before = gc.get_threshold()
    monkeypatch.setattr(os, "_exit", lambda status: pytest.fail(f"main(argv) exited the process ({status})"))
    assert main(["kana", "odds", "--samples", "1000", "--seed", "1"]) == 0
    assert gc.get_threshold() == before


# ---- issue list: every bad input refused with one line naming the flag --------------------------
@pytest.mark.parametrize(
    "argv,flag",
    [
        (["report", "--out", "/proc/nope"], "--out"),
        (["kana", "odds", "--ante", "inf", "--json"], "--ante"),
        (["kana", "odds", "--ante", "1e308", "--json"], "--ante"),
        (["kana", "odds", "--ante", "1e308"], "--ante"),
        (["kana", "odds", "--ante", "nan"], "--ante"),
        (["kanalje", "game", "--target", "100000000"], "--target"),
        (["kanalje", "game", "--max-deals", "0"], "--max-deals"),
        (["kanalje", "game", "--max-deals", "1001"], "--max-deals"),
        (["kanalje", "risk", "--players", "2", "--turned-jack", "last_trick"], "--turned-jack"),
        (["kanalje", "risk", "--players", "2", "--turned-jack", "last-trick"], "--turned-jack"),
        (["kanalje", "risk", "--no-phase1-jacks-cost"], "--no-phase1-jacks-cost"),
        (["kana", "odds", "--shown", "0:"], "--shown"),
        (["kana", "odds", "--players", "16", "--extra-round", "all"], "--tiebreak-deck fresh"),
        (["kana", "odds", "--shown", "-1:5h"], "--shown"),
        (["canasta", "melds", "--min-first-meld", "100000"], "--min-first-meld"),
        (["canasta", "melds", "--exact", "--discard", "weakest"], "--discard"),
        (["canasta", "hand", "--hand", "Ah Ah Ah"], "--hand"),
        (["kana", "advise", "--seat", "5"], "--seat"),
        (["kana", "advise", "--hand", "Zz ? ?"], "--hand"),
        (["kanalje", "risk", "--policies", "foo"], "--policies"),
        (["kanalje", "hand", "--hand", "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", "--faceup", "7h"],
         "--faceup"),
        (["kana", "odds", "--samples", "x" * 100_000], "--samples"),
        (["kana", "odds", "--players", "ü" * 5000], "--players"),
    ],
)
def test_issue_inputs_are_refused_in_one_line_naming_the_flag(capsys, argv, flag):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardodds: error: ") and len(lines[0]) <= 200, err[:300]
    assert flag in lines[0]
    assert "=" not in lines[0].split("error: ", 1)[1].split(" (see")[0] or flag in ("--shown",), lines[0]


def test_long_tokens_are_shortened(capsys):
    code, _, err = run_cli(capsys, "kana", "odds", "--samples", "9" * 100_000 + "x")
    assert code == 2 and "characters)" in err and "9" * 50 not in err and len(err.strip()) <= 200


def test_old_value_spelling_is_accepted_and_printed_with_hyphens(capsys):
    code, out, _ = run_cli(capsys, "kanalje", "risk", "--turned-jack", "last_trick", "--samples", "200", "--seed", "1")
    assert code == 0 and "turned jack last-trick" in out
    code, out, _ = run_cli(capsys, "kanalje", "risk", "--turned-jack", "last-trick", "--samples", "200", "--seed", "1",
                           "--json")
    assert json.loads(out)["rules"]["turned_jack"] == "last_trick"


def test_bare_game_commands_print_help_to_stderr_and_exit_2(capsys):
    for game in ("kana", "kanalje", "canasta"):
        code, out, err = run_cli(capsys, game)
        assert code == 2 and out == "" and f"usage: cardodds {game}" in err


def test_threads_above_the_cores_are_capped_with_one_note(capsys):
    code, out, err = run_cli(capsys, "kana", "odds", "--samples", "1000", "--seed", "1", "--threads", "1000")
    assert code == 0 and out
    assert err.splitlines() == [err.strip()] and "--threads 1000 capped" in err


def test_unseeded_runs_print_a_seed_json_reads_exactly_and_that_repeats_the_run(capsys):
    code, out, _ = run_cli(capsys, "kana", "odds", "--players", "3", "--samples", "3000", "--json")
    first = json.loads(out)
    seed = first["seed"]
    assert isinstance(seed, int) and 0 <= seed < 2**53 and float(seed) == seed
    code, out, _ = run_cli(capsys, "kana", "odds", "--players", "3", "--samples", "3000", "--json", "--seed", str(seed))
    assert json.loads(out)["win"] == first["win"]


META = ("partial", "seed", "samples", "rules", "version")
ALL_JSON = [
    ["kana", "odds", "--samples", "500", "--seed", "1"],
    ["kana", "odds", "--exact", "--players", "2"],
    ["kana", "odds", "--players", "2", "--shown", "0:5h Ks Qd", "--shown", "1:2c Ah"],
    ["kana", "advise", "--samples", "500", "--seed", "1", "--policies", "blind", "--hand", "9h ? ?"],
    ["kana", "table", "--samples", "500", "--seed", "1", "--policies", "blind"],
    ["kana", "table", "--samples", "500", "--seed", "1", "--policies", "blind", "--players", "2-3"],
    ["kanalje", "risk", "--samples", "200", "--seed", "1"],
    ["kanalje", "hand", "--hand", "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", "--turned", "7h",
     "--samples", "200", "--seed", "1"],
    ["kanalje", "game", "--samples", "50", "--seed", "1"],
    ["canasta", "melds", "--samples", "500", "--seed", "1", "--turns", "2"],
    ["canasta", "hand", "--hand", "Kh Kd 9c", "--samples", "500", "--seed", "1", "--turns", "2"],
]


@pytest.mark.parametrize("argv", ALL_JSON, ids=lambda a: " ".join(a[:2]))
def test_every_json_object_carries_the_run_metadata_and_every_table_one_style(capsys, argv):
    code, out, _ = run_cli(capsys, *argv, "--json")
    d = json.loads(out)
    assert code == 0 and all(k in d for k in META), sorted(d)
    code, text, _ = run_cli(capsys, *argv)
    assert code == 0
    lines = text.splitlines()
    for before, line in zip([""] + lines, lines):  # a title, then its indented table lines
        assert line.startswith("  ") or not line or not before, text
    for bad in ("Result(", "Meld(", "Odds(", ".to_frame()", "wild_limit='", "-0.0000 (exact)", "iteration"
                "s)", "_trick"):
        assert bad not in text, (bad, text)
    assert "(exact)" in text or "[" in text


def test_kana_table_csv_and_json_use_the_same_names(capsys):
    argv = ["kana", "table", "--samples", "500", "--seed", "1", "--policies", "blind"]
    _, out, _ = run_cli(capsys, *argv, "--json")
    row = json.loads(out)["rows"][0]
    _, csv_text, _ = run_cli(capsys, *argv, "--csv")
    header = csv_text.splitlines()[0].split(",")
    expected = ["players"]
    for k, v in row.items():
        expected += [k] + ([f"{k}_se", f"{k}_lo", f"{k}_hi"] if isinstance(v, dict) else [])
    assert header == expected
    _, text, _ = run_cli(capsys, *argv)
    assert "1 best-response iteration)" in text or "best-response iterations" in text


def test_exact_results_print_no_negative_zero(capsys):
    code, out, _ = run_cli(capsys, "kana", "odds", "--players", "2", "--exact")
    assert "+0.0000 (exact)" in out and "-0.0000" not in out


def test_kanalje_game_says_how_many_games_did_not_finish(capsys):
    argv = ["kanalje", "game", "--target", "1000", "--samples", "20", "--seed", "1"]
    code, out, _ = run_cli(capsys, *argv)
    assert code == 0 and "20 of 20 (still open after 200 deals" in out
    d = json.loads(run_cli(capsys, *argv, "--json")[1])
    assert d["unfinished"] == 20 and d["max_deals"] == 200


def test_kanalje_game_max_deals_caps_every_game(capsys):
    # A target of 50 takes more than 3 deals (at most 17 points a deal), so a cap of 3 leaves
    # every game unfinished; with the default cap none is.
    base = ["kanalje", "game", "--policies", "random", "--target", "50", "--samples", "50", "--seed", "2", "--json"]
    capped = json.loads(run_cli(capsys, *base, "--max-deals", "3")[1])
    assert capped["max_deals"] == 3 and capped["unfinished"] == 50
    assert all(w["value"] == 0 for w in capped["win"])
    full = json.loads(run_cli(capsys, *base)[1])
    assert full["unfinished"] == 0 and abs(sum(w["value"] for w in full["win"]) - 1) < 1e-12


def test_report_names_every_stage_without_progress_frames_when_not_a_terminal(tmp_path):
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "report", "--section", "canasta", "--scale", "0.002",
                        "--out", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    head, cols, *rows = r.stdout.splitlines()
    assert head.startswith("Reports written (seed 20261129, scale 0.002)") and cols.split() == ["section", "markdown",
                                                                                               "wall", "time"]
    # on a fresh cache the section's kernels were compiled first (cardodds.warmup), in a row of their own
    compiling = [float(r.split()[-2]) for r in rows if r.split()[0] == "(compiling)"]
    section, total = [r for r in rows if r.split()[0] != "(compiling)"]
    name, path, seconds, unit = section.split()
    assert (name, path, unit) == ("canasta", str(tmp_path / "canasta.md"), "s") and float(seconds) > 0
    assert total.split()[0] == "total"
    assert float(total.split()[1]) == pytest.approx(float(seconds) + sum(compiling), abs=0.11)
    stages = [line for line in r.stderr.splitlines() if line.startswith("canasta [")]
    assert len(stages) == 4 and stages[-1].startswith("canasta [4/4]")
    assert "\r" not in r.stderr


def test_report_refuses_an_unwritable_out(capsys, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    for out_dir in ("/proc/nope", str(blocker / "sub")):
        code, out, err = run_cli(capsys, "report", "--out", out_dir)
        assert code == 2 and out == "" and err.startswith("cardodds: error: --out ") and len(err.splitlines()) == 1


@pytest.mark.parametrize("grid, says", [
    (["--grid", "players=3,5"], "error: players=5: Kanalje is played by 3 players"),  # the grid's words, no --players
    (["--grid", "rng=1"], "error: --grid rng: the run's size, seed and threads are the same at every point"),
    (["--grid", "samples=5,6"], "error: --grid samples: the run's size"),
    (["--grid", "players=3", "--grid", "players=2"], "error: --grid players given twice"),
])
def test_sweep_errors_name_the_grid_not_flags_it_lacks(capsys, tmp_path, grid, says):
    code, out, err = run_cli(capsys, "sweep", str(tmp_path / "s.sqlite"), "kanalje.risk", *grid, "--samples", "5")
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and says in err, err


def test_sweep_refuses_an_ante_whose_pot_is_not_a_number(capsys, tmp_path):
    code, out, err = run_cli(capsys, "sweep", str(tmp_path / "s.sqlite"), "kana.odds", "--grid", "ante=0.4,inf",
                             "--samples", "5")
    assert code == 2 and out == "" and "ante=inf is too large" in err, err
