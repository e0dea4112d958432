"""Ctrl-C on a real ``cardodds`` process: a marked partial result and exit status 130, no hang.

Each process runs a huge simulation with its progress bar on a pseudo-terminal; once the bar
shows counted deals, SIGINT arrives after a random delay. Twenty interruptions per game, with
and without ``--json``, several processes at a time.
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


def _interrupt_once(args: list[str], delay: float, as_json: bool) -> tuple[int, str, float, float]:
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))  # a terminal 100 columns wide
    cmd = _cardodds() + args + ["--samples", HUGE, "--threads", "2", "--seed", "7"] + (["--json"] * as_json)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    started = time.monotonic()
    try:
        # Wait until the progress bar shows deals counted: the run is under way.
        deadline = time.monotonic() + 240
        while not as_json and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.2)
            if ready:
                try:
                    seen += os.read(master, 4096)
                except OSError:
                    break
                if any(float(m.group(1)) > 0 for m in _COUNTED.finditer(seen[-2000:])):
                    break
            if proc.poll() is not None:
                break
        assert proc.poll() is None, f"{args} ended before it was interrupted: {seen[-500:]!r}"
        counting = time.monotonic() - started
        time.sleep(delay)
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        try:
            out, _ = proc.communicate(timeout=EXIT_WITHIN)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.communicate()
            pytest.fail(f"{args} hung after SIGINT (still running {EXIT_WITHIN} s later)")
        return proc.returncode, out.decode(), time.monotonic() - sent, counting
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def test_sigint_returns_marked_partial_result_and_exit_130():
    rnd = random.Random("sigint")
    games = sorted(COMMANDS)
    # Text runs show a progress bar, so SIGINT comes a random time after deals are counted.
    # JSON runs show none: they are interrupted once 1.5 times the game's slowest text-run
    # start-up has passed, plus a random time. All three games run side by side.
    text = [(g, rnd.uniform(0.0, 1.5), False) for g in games for _ in range(TRIES // 2)]
    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(lambda t: _interrupt_once(COMMANDS[t[0]], t[1], t[2]), text))
        startup = {g: max(o[3] for t, o in zip(text, outcomes) if t[0] == g) for g in games}
        js = [(g, 1.5 * startup[g] + rnd.uniform(0.0, 1.5), True) for g in games for _ in range(TRIES - TRIES // 2)]
        outcomes += list(pool.map(lambda t: _interrupt_once(COMMANDS[t[0]], t[1], t[2]), js))
    for (game, delay, as_json), (status, out, _took, _) in zip(text + js, outcomes):
        where = f"{game} {'--json ' if as_json else ''}interrupted {delay:.2f} s into the run"
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
    took = sorted(o[2] for o in outcomes)
    print(f"exit after SIGINT: median {took[len(took) // 2]:.2f} s, slowest {took[-1]:.2f} s")
