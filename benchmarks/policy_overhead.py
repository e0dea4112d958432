"""CPU time of one built-in-policy public call per game, this checkout against another.

The user-policy argument the play kernels take must not slow the built-in players. This runs
the same three calls (fixed seeds, one thread, compile time excluded) in this checkout and in
``--base`` (a directory holding another version's ``cardodds`` package, e.g. from
``git archive <commit> cardodds | tar -x -C /tmp/base``), alternating the two in fresh
interpreters, and prints the median CPU seconds of each and their ratio (this / base).

    python benchmarks/policy_overhead.py --base /tmp/base --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]

CALLS = {
    "kana.odds (4 players, blind-random, 300,000 rounds)":
        "kana.odds(4, policies='blind-random', samples=300_000, rng=1, threads=1)",
    "kanalje.jack_risk (heuristic, 40,000 deals)":
        "kanalje.jack_risk('heuristic', samples=40_000, rng=1, threads=1)",
    "canasta.play (heuristic, 10,000 hands)":
        "canasta.play('heuristic', samples=10_000, rng=1, threads=1)",
}

CHILD = """
import json, sys, time
from cardodds import canasta, kana, kanalje
out = {}
for label, call in json.loads(sys.argv[1]).items():
    f = eval("lambda: " + call)
    f()  # compile or load the cache
    ts = []
    for _ in range(int(sys.argv[2])):
        a = time.process_time(); f(); ts.append(time.process_time() - a)
    out[label] = min(ts)
print(json.dumps(out))
"""


def _run(path: Path, repeats: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(path))
    r = subprocess.run([sys.executable, "-c", CHILD, json.dumps(CALLS), str(repeats)], env=env, cwd="/",
                       capture_output=True, text=True, check=True)
    return json.loads(r.stdout)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, type=Path, help="directory holding the other cardodds package")
    ap.add_argument("--rounds", type=int, default=3, help="alternating runs of each checkout")
    ap.add_argument("--repeats", type=int, default=5, help="timed calls per run (the fastest is kept)")
    a = ap.parse_args(argv)
    this, base = {k: [] for k in CALLS}, {k: [] for k in CALLS}
    for _ in range(a.rounds):
        for store, path in ((this, HERE), (base, a.base)):
            for k, v in _run(path, a.repeats).items():
                store[k].append(v)
    print("| call | this (s CPU) | base (s CPU) | this / base |\n|---|---:|---:|---:|")
    for k in CALLS:
        t, b = statistics.median(this[k]), statistics.median(base[k])
        print(f"| {k} | {t:.4f} | {b:.4f} | {t / b:.3f} |")


if __name__ == "__main__":
    main()
