"""Durable sweeps: killed with SIGKILL at random moments and resumed, they give the figures of
a sweep run straight through; a file holding another sweep is refused and left as it was."""

from __future__ import annotations

import json
import random
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from cardodds.sweep import sweep

GRID = ["kana.odds", "--grid", "players=3,4,5", "--samples", "16000000", "--seed", "11", "--threads", "2"]


def _cmd(path, *extra):
    return [sys.executable, "-m", "cardodds.cli", "sweep", str(path), *GRID, *extra]


def _figures(text: str):
    def strip(o):
        if isinstance(o, dict):
            return {k: strip(v) for k, v in o.items() if k not in ("seconds", "path")}
        if isinstance(o, list):
            return [strip(v) for v in o]
        return o

    return strip(json.loads(text))


def _chunks(path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM chunks").fetchone()[0]


def _stored(path) -> int:
    """Chunks a running sweep has stored so far (0 before it made its file and table)."""
    try:
        return _chunks(path) if path.exists() else 0
    except sqlite3.OperationalError:
        return 0


def test_sweep_killed_at_random_moments_resumes_to_the_same_figures(tmp_path):
    straight = subprocess.run(_cmd(tmp_path / "straight.sqlite", "--json"), capture_output=True, text=True,
                              timeout=600)
    assert straight.returncode == 0, straight.stderr
    total = _chunks(tmp_path / "straight.sqlite")
    assert total == 3 * 123  # 16,000,000 rounds in chunks of 131,072, per point

    # Each run is killed once it has stored a random number of chunks, at most half of what is
    # left: the moment is random in the sweep's progress, not in seconds (a run's length varies
    # with the machine's load, and a kill timed in seconds could land after the sweep ended).
    path = tmp_path / "killed.sqlite"
    rnd = random.Random(5)
    seen = []
    for _ in range(6):
        stored = _stored(path)
        target = rnd.randint(stored + 1, stored + max(1, (total - stored) // 2))
        p = subprocess.Popen(_cmd(path, "--json"), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while p.poll() is None and time.monotonic() < deadline and _stored(path) < target:
            time.sleep(0.002)
        p.send_signal(signal.SIGKILL)
        p.wait()
        seen.append(_stored(path))
    assert any(0 < n < total for n in seen), f"no kill landed mid-sweep: chunks stored {seen}"
    assert seen == sorted(seen)  # nothing stored is ever lost
    resumed = subprocess.run(_cmd(path, "--json"), capture_output=True, text=True, timeout=600)
    assert resumed.returncode == 0, resumed.stderr
    assert _chunks(path) == total  # no chunk stored twice
    assert _figures(resumed.stdout) == _figures(straight.stdout)


def test_api_resume_computes_nothing_again_and_matches(tmp_path):
    a = sweep(tmp_path / "a.sqlite", "canasta.melds", {"jokers": [4, 6]}, samples=30_000, rng=3)
    assert a.computed > 0 and not a.partial
    again = sweep(tmp_path / "a.sqlite", "canasta.melds", {"jokers": [4, 6]}, samples=30_000, rng=3)
    assert again.computed == 0
    assert a.to_frame().equals(again.to_frame())
    # The seed is kept in the file: resuming without one uses it.
    b = sweep(tmp_path / "a.sqlite", "canasta.melds", {"jokers": [4, 6]}, samples=30_000)
    assert b.computed == 0 and b.seed == 3
    f = a.to_frame()
    assert {"jokers", "value", "lo", "hi"} <= set(f.columns) and set(f["jokers"]) == {4, 6}


def test_another_grid_or_version_is_refused_and_never_overwritten(tmp_path):
    path = tmp_path / "s.sqlite"
    sweep(path, "kana.odds", {"players": [3]}, samples=20_000, rng=1)
    before = path.read_bytes() if not (tmp_path / "s.sqlite-wal").exists() else None
    n = _chunks(path)
    for other in ({"players": [4]}, {"players": [3], "ante": [1.0]}):
        with pytest.raises(ValueError, match="holds another sweep"):
            sweep(path, "kana.odds", other, samples=20_000, rng=1)
    with pytest.raises(ValueError, match="holds another sweep"):
        sweep(path, "kana.odds", {"players": [3]}, samples=30_000, rng=1)
    assert _chunks(path) == n
    if before is not None:
        assert path.read_bytes() == before
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value='0.0.1' WHERE key='version'")
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", "sweep", str(path), "kana.odds", "--grid", "players=3",
                        "--samples", "20000", "--seed", "1"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1
    assert "written by cardodds 0.0.1" in p.stderr
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", "sweep", str(path), "kana.odds", "--grid", "nope=3"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 2 and "grid key 'nope'" in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert _chunks(path) == n


def test_sweep_into_an_unwritable_folder_is_one_line_and_exit_2():
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "sweep", "/proc/nope/x.sqlite", "kana.odds",
                        "--grid", "players=3,4", "--samples", "1000", "--seed", "1"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "cannot open or create the sweep file /proc/nope/x.sqlite" in lines[0]
