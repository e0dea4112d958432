"""The command line: output, JSON, and one-line errors with exit status 2."""

import json
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
