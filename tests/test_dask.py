"""The Dask backend on a real two-worker LocalCluster (worker processes): the same counts as
threads for the same seed, precision-targeted runs, a worker killed mid-run, Ctrl-C, bad input."""

from __future__ import annotations

import _thread
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from numba import njit  # noqa: E402

import cardodds  # noqa: E402
from cardodds import engine  # noqa: E402
from cardodds.canasta.view import MV_DISCARD  # noqa: E402
from cardodds.kanalje.view import lowest  # noqa: E402


def _same(a, b):
    da, db = a.to_dict(), b.to_dict()
    for d in (da, db):
        d.pop("seconds", None)
    return da == db


@pytest.fixture(scope="module")
def client():
    import logging

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, distributed.Client(cluster) as c:
        yield c


def _kana_rounds():
    from cardodds.kana._kernels import play_rounds, round_layout
    from cardodds.kana.analysis import _kernel_args, _positions
    from cardodds.kana.rules import KanaRules

    rules = KanaRules(players=4)
    return play_rounds, _kernel_args(rules, {}, _positions("random", 4)), round_layout(4).size


def test_engine_counts_bit_identical_to_threads(client):
    kernel, args, n_out = _kana_rounds()
    # 12 chunks of 2^12 and a ragged last one
    kw = dict(samples=12 * 4096 + 77, rng=11, chunk_size=4096)
    here = engine.run(kernel, args, n_out, threads=2, **kw)
    with cardodds.backend(client):  # the context manager reaches the engine without an argument
        there = engine.run(kernel, args, n_out, **kw)
    assert there.samples == here.samples and there.chunks == here.chunks == 13
    assert (there.counts == here.counts).all()


def test_each_game_same_figures_as_threads(client):
    from cardodds.canasta.analysis import melds
    from cardodds.kana.analysis import odds
    from cardodds.kanalje.analysis import jack_risk

    calls = [
        lambda: odds(samples=300_001, rng=3),
        lambda: jack_risk("heuristic", samples=20_001, rng=4),
        # the look-ahead reaches the workers as a pointer (_jit.Pointer), sent by name
        lambda: jack_risk("lookahead,heuristic,heuristic", samples=61, lookahead_samples=4, rng=6),
        lambda: melds(12, samples=60_001, rng=5),
    ]
    for call in calls:
        here = call()
        with cardodds.backend(client):
            there = call()
        assert _same(here, there), type(here).__name__


# Users' own policies, one per game, as the games' docs write them: module-level @njit functions
# (a worker imports this module to find the function it is sent).


@njit
def _kana_low_first(state, seat, hand, peeked, kanad, n_kanad):
    return 0 if (hand[0] >> 2) < 6 else 1


@njit
def _kanalje_lowest_card(state, seat, view, legal):
    return lowest(legal)


@njit
def _canasta_discard_at_once(state, seat, view, moves, n_moves):
    for i in range(n_moves):
        if moves[i, 0] == MV_DISCARD:
            return i
    return 0


def test_user_policies_of_every_game_same_counts_on_dask_local_2():
    from cardodds import canasta, kana, kanalje
    from cardodds.kana import policies

    mine = policies.custom(_kana_low_first, "peek-one")
    calls = {
        "kana": lambda: kana.compare(mine, "blind", players=4, samples=20_001, rng=1),
        "kanalje": lambda: kanalje.jack_risk([_kanalje_lowest_card, "heuristic", "heuristic"], samples=4_001, rng=2),
        "canasta": lambda: canasta.play([_canasta_discard_at_once, "heuristic", "heuristic", "heuristic"],
                                        samples=201, rng=3),
    }
    here = {game: call() for game, call in calls.items()}
    with cardodds.backend("local:2"):
        there = {game: call() for game, call in calls.items()}
    for game in calls:
        assert _same(here[game], there[game]), game
    assert "user" in there["kanalje"].policies and "user" in there["canasta"].policies


def test_precision_targeted_run_same_plan_as_threads(client):
    from cardodds.kana.analysis import odds

    here = odds(target_halfwidth=0.004, rng=8)
    with cardodds.backend(client):
        there = odds(target_halfwidth=0.004, rng=8)
    assert there.samples == here.samples and _same(here, there)


def test_a_worker_killed_mid_run_is_recomputed_never_counted_twice(client, monkeypatch):
    from cardodds import _backend

    kernel, args, n_out = _kana_rounds()
    kw = dict(samples=40 * 65536, rng=21, chunk_size=65536)
    here = engine.run(kernel, args, n_out, threads=2, **kw)
    pids = client.run(os.getpid)
    killed = []
    collect = _backend.DaskChunks.collect

    def collect_then_kill(self, timeout):
        # Once the run has chunks counted, a worker holding tasks of it not yet done is killed.
        got = collect(self, timeout)
        busy = [address for address, tasks in client.processing().items() if tasks] if got and not killed else []
        if busy:
            os.kill(pids[busy[0]], signal.SIGKILL)
            killed.append(busy[0])
        return got

    monkeypatch.setattr(_backend.DaskChunks, "collect", collect_then_kill)
    with cardodds.backend(client):
        there = engine.run(kernel, args, n_out, **kw)
    assert killed, "the worker was not killed during the run"
    assert there.samples == here.samples and not there.partial
    assert (there.counts == here.counts).all()
    client.wait_for_workers(2, timeout=60)


def test_ctrl_c_cancels_outstanding_tasks_and_returns_partial(client, monkeypatch):
    from cardodds import _backend

    kernel, args, n_out = _kana_rounds()
    # Workers (one may have been restarted by the test before) load the kernel first.
    with cardodds.backend(client):
        engine.run(kernel, args, n_out, samples=8 * 4096, chunk_size=4096, rng=0)
    counted, interrupted = [], []
    collect = _backend.DaskChunks.collect

    def collect_after_ctrl_c(self, timeout):
        if counted and not interrupted:  # chunks an earlier call returned are counted: the run is under way
            interrupted.append(time.monotonic())
            _thread.interrupt_main()  # Ctrl-C
        got = collect(self, timeout)
        counted.extend(got)
        return got

    monkeypatch.setattr(_backend.DaskChunks, "collect", collect_after_ctrl_c)
    hang = threading.Timer(600, _thread.interrupt_main)  # bounds a hang only
    hang.start()
    try:
        with cardodds.backend(client):
            r = engine.run(kernel, args, n_out, samples=10**11, rng=1)
    finally:
        hang.cancel()
    assert interrupted, "the run counted no chunk in 600 s"
    took = time.monotonic() - interrupted[0]
    assert r.partial and 0 < r.samples < 10**11 and r.samples % engine.DEFAULT_CHUNK == 0
    assert took < 60  # a hang guard, not a speed: the run it stopped would take years
    deadline = time.monotonic() + 20
    while any(client.processing().values()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(client.processing().values()), "tasks kept running after Ctrl-C"


def test_bad_backends_are_refused_in_one_line():
    for bad in ("foo:bar", "local:0", "local:x", "tcp://", "http://x:1", 42):
        with pytest.raises(ValueError, match="backend"):
            with cardodds.backend(bad):
                pass
    t0 = time.monotonic()
    with pytest.raises(ValueError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9"):
        with cardodds.backend("tcp://127.0.0.1:9"):
            pass
    assert time.monotonic() - t0 < 60  # a hang guard: refused, not waited for until the connect gives up


def test_workers_without_cardodds_or_another_version_are_refused():
    import logging

    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, distributed.Client(cluster) as c:
        c.run(exec, "import cardodds; cardodds.__version__ = '0.0.1'")
        with pytest.raises(ValueError, match="runs cardodds 0.0.1"):
            with cardodds.backend(c):
                pass
        c.run(exec, "import sys; sys.modules['cardodds'] = None")
        with pytest.raises(ValueError, match="cannot import cardodds"):
            with cardodds.backend(c):
                pass


def _cli(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "cardodds.cli", *args], capture_output=True, text=True,
                          timeout=timeout)


def test_cli_dask_option_bad_values_exit_2_one_line():
    for value in ("foo:bar", "local:0"):
        p = _cli("kana", "odds", "--samples", "1000", "--dask", value)
        assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1, p.stderr
        assert "--dask" in p.stderr
    p = _cli("canasta", "melds", "--samples", "1000", "--dask", "tcp://127.0.0.1:9")
    assert p.returncode == 2 and p.stdout == "" and len(p.stderr.strip().splitlines()) == 1, p.stderr
    assert "cannot reach the Dask scheduler" in p.stderr


def test_cli_dask_local_same_output_as_threads():
    args = ("kanalje", "risk", "--samples", "20000", "--seed", "2", "--json")
    here = _cli(*args)
    there = _cli(*args, "--dask", "local:2", timeout=240)
    assert here.returncode == there.returncode == 0, there.stderr
    assert here.stdout == there.stdout


def test_explicit_samples_same_as_threads_on_any_batch_size(client, monkeypatch):
    # Tasks are batches of chunks whose size follows measured times; the counts must not depend on it.
    from cardodds import _backend

    kernel, args, n_out = _kana_rounds()
    kw = dict(samples=30 * 2048, rng=5, chunk_size=2048)
    ref = engine.run(kernel, args, n_out, threads=1, **kw)
    for seconds in (1e-9, 0.05, 100.0):
        monkeypatch.setattr(_backend, "TASK_SECONDS", seconds)
        with cardodds.backend(client):
            got = engine.run(kernel, args, n_out, **kw)
        assert np.array_equal(got.counts, ref.counts)


def test_public_functions_take_backend(client):
    import inspect

    from cardodds.canasta.analysis import hand_odds, melds
    from cardodds.kana.analysis import live_odds, odds
    from cardodds.kana import advise, compare, equilibrium, expected_value, strategy_table
    from cardodds.kanalje.analysis import evaluate_hand, jack_risk
    from cardodds.kanalje.play import game, strength

    for f in (odds, live_odds, compare, equilibrium, strategy_table, expected_value, advise, jack_risk,
              evaluate_hand, strength, game, melds, hand_odds):
        assert "backend" in inspect.signature(f).parameters, f.__name__
    here = game("heuristic", samples=3_001, rng=6, backend="threads")
    there = game("heuristic", samples=3_001, rng=6, backend=client)
    assert _same(here, there)
    with pytest.raises(ValueError, match="backend"):
        melds(12, samples=1000, backend="nowhere:x")
