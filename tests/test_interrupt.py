"""Ctrl-C on a real ``cardodds`` process: a marked partial result and exit status 130, no hang.

Each process runs a huge simulation with its progress bar on a pseudo-terminal; once the bar
shows counted deals, SIGINT arrives after a random delay (the run is hours long: it cannot end
meanwhile). Twenty interruptions per game, with and without ``--json``, several processes at a time.
"""

from __future__ import annotations

import fcntl
import json
import os
import pty
import random
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and pseudo-terminals")

HUGE = "100000000000"  # 1e11: hours of work, so the run is always interrupted
COMMANDS = {
    "kana": ["kana", "odds", "--players", "4"],
    "kanalje": ["kanalje", "risk"],
    "canasta": ["canasta", "melds"],
}
TRIES = 20
#: An interrupted command must be gone this long after SIGINT (it returns within a second;
#: the margin is for a loaded test machine).
EXIT_WITHIN = 6.0
_COUNTED = re.compile(rb"\|\s*([0-9.]+)([kMGT]?)/")


def _cardodds() -> list[str]:
    return [sys.executable, "-c", "import sys; from cardodds.cli import main; sys.exit(main())"]


def _counting(seen: bytes) -> bool:
    """The progress bar shows deals counted: the run is under way."""
    return any(float(m.group(1)) > 0 for m in _COUNTED.finditer(seen[-2000:]))


def _sigint_when(args: list[str], sign, delay: float = 0.0) -> tuple[int, str, str, float]:
    """Run ``cardodds args`` with stderr on a terminal 100 columns wide (its progress bars drawn
    there, with ``--json`` too); once ``sign(terminal output so far)`` holds, wait ``delay`` s
    and send SIGINT. Returns (exit status, stdout, terminal output, seconds from SIGINT to exit).
    Fails if the command ends before the signal: its runs must be too big to end meanwhile."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(_cardodds() + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""

    def drain(timeout: float) -> None:
        nonlocal seen
        ready, _, _ = select.select([master], [], [], timeout)
        if ready:
            try:
                seen += os.read(master, 65536)
            except OSError:
                pass

    try:
        deadline = time.monotonic() + 600  # bounds a hang only: the wait is for the sign
        while not sign(seen) and proc.poll() is None and time.monotonic() < deadline:
            drain(0.1)
        end = time.monotonic() + delay
        while time.monotonic() < end and proc.poll() is None:
            drain(max(0.0, min(0.05, end - time.monotonic())))
        assert proc.poll() is None, f"{args} ended before it was interrupted: {seen[-500:]!r}"
        assert sign(seen), f"{args} showed no sign of its run in 600 s: {seen[-500:]!r}"
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"{args} hung after SIGINT (still running {EXIT_WITHIN} s later)")
        took = time.monotonic() - sent
        for _ in range(20):  # what it wrote on the terminal as it stopped
            before = len(seen)
            drain(0.05)
            if len(seen) == before:
                break
        return proc.returncode, out.decode(), seen.decode(errors="replace"), took
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_sigint_returns_marked_partial_result_and_exit_130():
    rnd = random.Random("sigint")
    # SIGINT comes a random time after the progress bar shows deals counted (a JSON run draws
    # it too: its answer goes to stdout); the runs are too big to end meanwhile. All three games
    # run side by side.
    plan = [(g, rnd.uniform(0.0, 1.5), as_json) for g in sorted(COMMANDS) for as_json in (False, True)
            for _ in range(TRIES // 2)]
    common = ["--samples", HUGE, "--threads", "2", "--seed", "7"]
    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(lambda t: _sigint_when(COMMANDS[t[0]] + common + ["--json"] * t[2], _counting, t[1]),
                                 plan))
    for (game, delay, as_json), (status, out, _term, _took) in zip(plan, outcomes):
        where = f"{game} {'--json ' if as_json else ''}interrupted {delay:.2f} s after it counted deals"
        assert status == 130, f"{where}: exit status {status}, stdout {out[-300:]!r}"
        if as_json:
            obj = json.loads(out)
            assert obj["partial"] is True, where
            assert 0 < obj["samples"] < int(HUGE), where
        else:
            m = re.search(r"interrupted: partial result, ([\d,]+) of ([\d,]+) ", out)
            assert m, f"{where}: no partial marker in {out[-300:]!r}"
            done, goal = (int(g.replace(",", "")) for g in m.groups())
            assert 0 < done < goal == int(HUGE), where
    took = sorted(o[3] for o in outcomes)
    print(f"exit after SIGINT: median {took[len(took) // 2]:.2f} s, slowest {took[-1]:.2f} s")


@pytest.mark.parametrize("args", [["kanalje", "table", "jack", "--policies", "heuristic"],
                                  ["canasta", "table", "out", "--policies", "heuristic"]])
@pytest.mark.parametrize("as_json", [False, True])
def test_sigint_stops_a_table_build_with_its_partial_tables_and_exit_130(args, as_json):
    """A strategy table's build (``--build``) on a real process: Ctrl-C once it counts deals
    prints the table so far, marked partial, and exits 130 within the margin."""
    argv = args + ["--build", "--samples", HUGE, "--threads", "2", "--seed", "7"] + ["--json"] * as_json
    status, out, _term, _took = _sigint_when(argv, _counting, 0.3)
    assert status == 130, f"{argv}: exit status {status}, stdout {out[-300:]!r}"
    if as_json:
        obj = json.loads(out)
        assert obj["partial"] is True and [t["name"] for t in obj["tables"]] == [args[2]]
        assert sum(c["positions"] for c in obj["tables"][0]["cells"]) > 0
    else:
        assert "[PARTIAL: interrupted" in out.splitlines()[0] and "margins in points" in out, out[-300:]
