"""The engine's limits: chunks in flight are bounded and the plan is made as the run goes;
run sizes above the maximum are refused with an estimated time; thread counts are capped."""

from __future__ import annotations

import threading

import pytest

from cardodds import engine
from cardodds.engine import check_run_size, run


def test_huge_run_plans_as_it_goes_and_keeps_few_chunks_in_flight():
    started = []
    lock = threading.Lock()

    def kernel(state, n, out, stop_after):
        with lock:
            started.append(n)
            if len(started) == stop_after:
                raise KeyboardInterrupt
        out[0] += n

    r = run(kernel, (50,), 1, samples=10**11, rng=1, chunk_size=1000, threads=2)
    assert r.partial and 0 < r.samples <= (len(started) - 1) * 1000 and r.counts[0] == r.samples
    # chunks handed out but never run are at most the in-flight bound
    assert r.chunks <= len(started) + engine.IN_FLIGHT_PER_THREAD * 2


def test_run_size_limits_quote_an_estimated_time():
    check_run_size(engine.MAX_SAMPLES, None)
    with pytest.raises(ValueError, match=r"would take at least .* the most one run takes is 1e\+12"):
        check_run_size(engine.MAX_SAMPLES + 1, None)
    with pytest.raises(ValueError, match=r"would take at least"):
        check_run_size(10**26, None)
    check_run_size(None, engine.MIN_HALFWIDTH * 1.001)
    with pytest.raises(ValueError, match=r"precision 1e-09 may need 9.6e\+17 samples \(at least .*finest accepted"):
        check_run_size(None, 1e-9)


def test_threads_capped_at_the_cores_with_a_notice():
    cores = engine.available_cores()
    assert engine.cap_threads(None) == (None, None)
    assert engine.cap_threads(cores) == (cores, None)
    capped, notice = engine.cap_threads(cores + 1000)
    assert capped == cores and "\n" not in notice and f"using {cores}" in notice


def test_session_records_the_interruption_and_stops_later_runs():
    def kernel(state, n, out):
        raise KeyboardInterrupt

    def ok(state, n, out):
        out[0] += n

    with engine.session() as s:
        r = run(ok, (), 1, samples=5000, rng=1, chunk_size=1000, threads=1)
        assert not r.partial and not s.interrupted
        with pytest.raises(KeyboardInterrupt):  # nothing counted: nothing to show
            run(kernel, (), 1, samples=5000, rng=1, chunk_size=1000, threads=1)
        assert s.interrupted
        with pytest.raises(KeyboardInterrupt):  # a command's later runs stop at once
            run(ok, (), 1, samples=5000, rng=1, chunk_size=1000, threads=1)
    # outside the session nothing is sticky
    assert run(ok, (), 1, samples=5000, rng=1, chunk_size=1000, threads=1).samples == 5000


def test_partial_line_names_counted_and_aimed_at():
    s = engine.Session()
    s.interrupted = True
    s.runs.append((262_144, 10**11, "deal"))
    assert s.partial_line() == "interrupted: partial result, 262,144 of 100,000,000,000 deals"
    s.runs.insert(0, (5_000, 5_000, "deal"))  # a command of several runs names the one interrupted
    assert s.partial_line() == "interrupted: partial result, 262,144 of 100,000,000,000 deals in run 2"


def test_worker_errors_reach_the_caller():
    def kernel(state, n, out):
        raise ZeroDivisionError("boom")

    with pytest.raises(ZeroDivisionError):
        run(kernel, (), 1, samples=5000, rng=1, chunk_size=1000, threads=2)


def test_cli_refuses_huge_runs_and_caps_threads(capsys):
    from cardodds.cli import main

    for args in (["--samples", "99999999999999999999999999"], ["--precision", "1e-9"]):
        assert main(["kana", "odds", *args]) == 2
        out, err = capsys.readouterr()
        assert out == "" and len(err.strip().splitlines()) == 1 and "at least" in err
    assert main(["kana", "odds", "--samples", "2000", "--seed", "1", "--threads", "100000"]) == 0
    out, err = capsys.readouterr()
    assert f"capped at the {engine.available_cores()} cores" in err and len(err.strip().splitlines()) == 1


def test_every_public_stochastic_function_takes_backend():
    import inspect

    from cardodds import canasta, kana, kanalje
    from cardodds.canasta.play import tune

    functions = [kana.odds, kana.live_odds, kana.advise, kana.compare, kana.strategy_table, kana.equilibrium,
                 kana.expected_value, kana.session, kana.session_table, kanalje.jack_risk, kanalje.evaluate_hand,
                 kanalje.game, kanalje.strength, canasta.melds, canasta.hand_odds, canasta.play,
                 canasta.game, canasta.house_options, canasta.strength, canasta.advise, tune]
    missing = [f.__qualname__ for f in functions if "backend" not in inspect.signature(f).parameters]
    assert missing == []
