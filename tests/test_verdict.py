"""The verdict engine: deciding among options played out on the same worlds (cardodds.verdict).

Synthetic options of known means: a world effect every option shares (so pairs are
correlated, as a card's play-outs are) plus each option's own noise, normal or discrete.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from cardodds import engine, verdict
from cardodds.verdict import (Budget, Sums, Verdict, controlled_mean, critical_value, decide, pair_interval,
                              schedule)


def normal_play(means, noise=1.0, world=2.0, calls=None):
    """Options of ``means``: a shared normal world effect plus normal noise of sd ``noise``."""
    means = np.asarray(means, dtype=float)

    def play(active, n, rng):
        if calls is not None:
            calls.append((tuple(int(a) for a in active), n))
        g = np.random.default_rng(rng)
        w = world * g.normal(size=(n, 1))
        return Sums.of(w + means[active] + noise * g.normal(size=(n, len(active))))
    return play


def discrete_play(table):
    """Options whose outcome is drawn from a discrete distribution per world: ``table[i]`` is a
    list of (points, probability); a world draws one uniform shared by every option (the
    options' outcomes are then strongly paired, as card play-outs are)."""
    def play(active, n, rng):
        g = np.random.default_rng(rng)
        u = g.random(size=n)
        out = np.empty((n, len(active)))
        for c, i in enumerate(active):
            pts, ps = zip(*table[i])
            out[:, c] = np.asarray(pts)[np.searchsorted(np.cumsum(ps), u, side="right").clip(0, len(pts) - 1)]
        return Sums.of(out)
    return play


def test_sums_of_per_world_outcomes():
    o = np.array([[1.0, 3.0], [2.0, -1.0], [0.0, 0.0]])
    s = Sums.of(o)
    assert s.n == 3
    assert s.x.tolist() == [[3.0, 5.0], [2.0, 10.0]]
    # x0 - x1: -2, 3, 0
    assert s.d[0, 1].tolist() == [1.0, 13.0]


def test_sums_of_counts_read_a_kernels_layout():
    o = np.array([[1.0, 3.0, 0.0], [2.0, -1.0, 5.0]])
    want = Sums.of(o)
    diff = [o[:, i] - o[:, j] for i, j in ((0, 1), (0, 2), (1, 2))]
    d, dd = [x.sum() for x in diff], [(x * x).sum() for x in diff]
    got = Sums.of_counts(2, o.sum(axis=0), (o * o).sum(axis=0), d, dd)
    assert got.n == 2 and np.array_equal(got.x, want.x)
    assert all(np.array_equal(got.d[i, j], want.d[i, j]) for i in range(3) for j in range(i + 1, 3))
    # pairs laid out by a function of their own (Kanalje's pair_index: room for 5 options)
    at = {(0, 1): 0, (0, 2): 1, (1, 2): 4}
    wide_d, wide_dd = np.zeros(10), np.zeros(10)
    for (i, j), q in at.items():
        wide_d[q], wide_dd[q] = d[[(0, 1), (0, 2), (1, 2)].index((i, j))], dd[[(0, 1), (0, 2), (1, 2)].index((i, j))]
    got = Sums.of_counts(2, o.sum(axis=0), (o * o).sum(axis=0), wide_d, wide_dd, lambda i, j: at[(i, j)])
    assert all(np.array_equal(got.d[i, j], want.d[i, j]) for i in range(3) for j in range(i + 1, 3))


def test_critical_value_is_the_bonferroni_t_quantile():
    from scipy.stats import t

    assert critical_value(19, 0.05, 4, 5) == pytest.approx(t.ppf(1 - 0.05 / (4 * 4) / 2, 19), rel=1e-12)
    assert critical_value(0, 0.05, 4, 5) == math.inf


def test_pair_interval_and_the_spread_floor():
    # d = 1, 1, 1, 1: no variance seen; without a floor the interval is the point 1
    assert pair_interval(4, 4.0, 4.0, 3.0) == (1.0, 1.0)
    lo, hi = pair_interval(4, 4.0, 4.0, 3.0, spread=2.0)  # var floored at 4/5
    assert (lo, hi) == pytest.approx((1 - 3 * math.sqrt(0.8 / 4), 1 + 3 * math.sqrt(0.8 / 4)))
    assert pair_interval(1, 1.0, 1.0, 3.0) == (-math.inf, math.inf)


def test_schedule_doubles_and_fits_the_budget():
    assert schedule(16, None, 4) == [16, 32, 64, 128]
    assert schedule(16, 100, 8) == [16, 32, 52]
    assert schedule(16, 16, 8) == [16]


def test_a_clear_best_is_found_and_its_rivals_losses_cover_the_truth():
    v = decide(normal_play([0.0, -1.0, -1.5, -0.6]), 4, margin=0.25, rng=3, unit="points")
    assert v.kind == "best" and v.group == (0,) and v.excluded == (1, 2, 3)
    for j, loss in ((1, 1.0), (2, 1.5), (3, 0.6)):
        assert v.loss[j][0] <= loss <= v.loss[j][1]
    assert v.loss[0] == (0.0, 0.0)
    assert v.words(["Ah", "2h", "3h", "Kh"]).startswith("play Ah; 2h 3h Kh lose ")


def test_options_equal_within_the_margin_give_equal_with_the_right_group():
    v = decide(normal_play([0.0, 0.03, -0.02, -2.0], noise=0.5), 4, margin=0.25, rng=5, unit="points")
    assert v.kind == "equal"
    assert v.group == (0, 1, 2) and v.excluded == (3,)
    for i in v.group:
        for j in v.group:
            lo, hi = v.difference(i, j)
            assert -0.25 <= lo <= hi <= 0.25
    assert v.words(["7d", "9d", "Td", "3d"]).startswith("play 7d, 9d or Td (within 0.25 points of each other); "
                                                           "3d loses ")


def test_elimination_saves_worlds():
    calls: list = []
    v = decide(normal_play([0.0, 0.0, -3.0, -3.0], noise=0.5, calls=calls), 4, margin=0.1, rng=2)
    assert v.kind == "equal" and v.group == (0, 1)
    # the losers were played on the first round only; later rounds played the two close options
    assert v.worlds[2] == v.worlds[3] == calls[0][1] < v.worlds[0] == v.worlds[1]
    assert all(active == (0, 1) for active, _ in calls[1:]) and len(calls) > 1


def test_equal_by_the_rules_is_played_once():
    calls: list = []
    # options 1 and 2 are equal to option 0 by the rules: only 0 and 3 are played
    v = decide(normal_play([0.0, 99.0, 99.0, -2.0], noise=0.3, calls=calls), 4, margin=0.25, rng=1,
               same=[0, 0, 0, 3], unit="points")
    assert all(active == (0, 3) for active, _ in calls[:1])
    assert v.kind == "best" and v.group == (0, 1, 2) and v.excluded == (3,)
    assert v.worlds[1] == v.worlds[0] and v.same == (0, 0, 0, 3)
    assert v.words(["7d", "8d", "9d", "Kh"]).startswith("play 7d, 8d or 9d (the same by the rules); Kh loses ")
    # every option equal by the rules: nothing to play out
    v = decide(normal_play([0.0, 0.0]), 2, margin=0.25, rng=1, same=[0, 0])
    assert v.kind == "best" and v.group == (0, 1) and v.rounds == 0 and v.worlds == (0, 0)


def test_one_option_is_the_best_without_a_world():
    v = decide(normal_play([0.0]), 1, margin=0.25, rng=1)
    assert v.kind == "best" and v.group == (0,) and v.worlds == (0,) and v.words(["Ah"]) == "play Ah"


def test_undecided_at_the_budget_says_what_would_decide_it():
    v = decide(normal_play([0.0, -0.2, -3.0]), 3, margin=0.05, rng=4, unit="points", budget=Budget(budget_worlds=200))
    assert v.kind == "undecided" and v.budget_limited and not v.partial
    assert v.group == (0, 1) and v.excluded == (2,)
    assert v.more_worlds is not None and v.more_worlds > 0
    lo, hi = v.difference(v.top, 1 if v.top == 0 else 0)
    w = v.words(["7d", "9d", "3d"], noun="card")
    assert w.startswith(f"no card is better at this precision: {['7d', '9d'][v.top]} and {['9d', '7d'][v.top]} "
                        f"differ by {verdict._num(lo, True)} to {verdict._num(hi, True)} points; about ")
    assert "more worlds would decide it; 3d loses " in w
    assert sum(v.worlds[:2]) == 400  # both played on every world of the budget


def test_words_format():
    v = Verdict("equal", (0, 1), (2, 3, 4), ((0, 0.1), (0, 0.2), (0.6, 1.2), (0.7, 1.5), (0.61, 1.0)),
                (0.0, 0.0, -1.0, -1.1, -0.8), (64, 64, 16, 16, 16), (0, 1, 2, 3, 4), 0.25, "points", 0.05, 3, 8,
                False, False, 1)
    assert v.words(["7d", "9d", "3d", "4d", "5d"]) == \
        "play 7d or 9d (within 0.25 points of each other); 3d 4d 5d lose 0.6 to 1.5 points"
    with pytest.raises(ValueError, match="names has 2 entries for 5 options"):
        v.words(["7d", "9d"])
    d = v.to_dict(["7d", "9d", "3d", "4d", "5d"])
    assert d["kind"] == "equal" and d["group"] == ["7d", "9d"] and d["margin"] == 0.25
    assert [e["option"] for e in d["excluded"]] == ["3d", "4d", "5d"]
    assert d["excluded"][0]["loss"] == {"lo": 0.6, "hi": 1.2}
    assert [w["worlds"] for w in d["worlds"]] == [64, 64, 16, 16, 16]
    assert verdict._about(12_345) == "12,000" and verdict._about(87) == "87"
    # a margin of points a hand: whole points; names of several words apart by commas; a margin under 0.1 kept
    pts = Verdict("best", (0,), (1, 2), ((0, 0), (9.47, 1150.2), (40.0, 1140.0)), (0.0, -300.0, -600.0),
                  (640, 640, 64), (0, 1, 2), 25.0, "points", 0.05, 4, 10, False, False, 1)
    assert pts.words(["discard 3b", "discard 5", "discard K"], verb="best:") == \
        "best: discard 3b; discard 5, discard K lose 9 to 1150 points"
    small = Verdict("equal", (0, 1), (), ((0, 0), (0, 0.004)), (0.3, 0.298), (4096, 4096), (0, 1), 0.005,
                    "antes", 0.05, 1, 12, False, False, 1)
    assert small.words(["9h", "?"], verb="känä") == "känä 9h or ? (within 0.005 antes of each other)"


def _errors(verdicts, means, margin):
    """Verdicts that name a wrong best, exclude the best, or call equal an option that loses
    more than the margin."""
    means = np.asarray(means)
    top = means.max()
    bad = 0
    for v in verdicts:
        wrong = (v.kind == "best" and means[v.group[0]] < top) or not any(means[i] == top for i in v.group) or \
            (v.kind == "equal" and any(top - means[i] > margin for i in v.group))
        bad += wrong
    return bad


HARD = [  # (means, noise, margin): close options, many looks
    ([0.0, -0.1, -0.1, -0.1, -0.1], 1.0, 0.05),  # the best among four near rivals: a wrong best or the best dropped
    ([0.0, -0.3], 0.8, 0.25),                    # a loss just above the margin: calling it equal is wrong
    ([0.0, -0.26, -0.26, -1.0], 0.6, 0.25),
]


@pytest.mark.parametrize("means, noise, margin", HARD)
def test_simultaneous_coverage(means, noise, margin):
    reps = 2000
    vs = [decide(normal_play(means, noise=noise, world=1.0), len(means), margin=margin, rng=r,
                 budget=Budget(round_worlds=8, budget_worlds=8 * 31)) for r in range(reps)]
    bad = _errors(vs, means, margin)
    # below alpha, within its Monte Carlo error (4 standard errors of a rate of alpha)
    assert bad / reps < 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps), bad


def test_coverage_would_fail_with_one_95_percent_test_per_look(monkeypatch):
    """The coverage test can fail: with 1.96 for every pair at every look, the first case errs more often than alpha."""
    monkeypatch.setattr(verdict, "critical_value", lambda df, alpha, looks, k: 1.96 if df > 0 else math.inf)
    means, noise, margin = HARD[0]
    reps = 400
    vs = [decide(normal_play(means, noise=noise, world=1.0), len(means), margin=margin, rng=r,
                 budget=Budget(round_worlds=8, budget_worlds=8 * 31)) for r in range(reps)]
    assert _errors(vs, means, margin) / reps > 0.05 + 4 * math.sqrt(0.05 * 0.95 / reps)


def test_coverage_with_rare_large_differences_needs_the_spread():
    """Option 1 loses 6 points on one world in twenty (0.3 a world, above the margin): with a
    spread of 6, no run calls them equal more often than alpha."""
    table = [[(0, 1.0)], [(-6, 0.05), (0, 0.95)]]
    reps = 1000
    vs = [decide(discrete_play(table), 2, margin=0.25, rng=r, spread=6.0, budget=Budget(round_worlds=16))
          for r in range(reps)]
    assert _errors(vs, [0.0, -0.3], 0.25) / reps < 0.05
    # without it, a first round of 16 worlds shows no loss 44% of the time and the t interval is a point
    vs = [decide(discrete_play(table), 2, margin=0.25, rng=r, budget=Budget(round_worlds=16)) for r in range(200)]
    assert _errors(vs, [0.0, -0.3], 0.25) / 200 > 0.2


def test_same_seed_same_verdict_and_independent_rounds():
    a = decide(normal_play([0.0, -0.1, -0.5]), 3, margin=0.05, rng=9, budget=Budget(budget_worlds=300))
    b = decide(normal_play([0.0, -0.1, -0.5]), 3, margin=0.05, rng=9, budget=Budget(budget_worlds=300))
    assert a == b and a.means == b.means
    c = decide(normal_play([0.0, -0.1, -0.5]), 3, margin=0.05, rng=10, budget=Budget(budget_worlds=300))
    assert c.means != a.means


# ---- on the engine: threads, interruptions ------------------------------------------------------
MEANS = np.array([0, -1, -1, -3], dtype=np.int64)  # in quarter points


def _kernel(state, n, out, active):
    """A chunk kernel in plain Python: ``n`` worlds of the ``active`` options, integer outcomes
    (a shared world draw plus each option's own), summed as ``Sums`` in ``out``."""
    g = np.random.default_rng(state)
    a = len(active)
    o = g.integers(-8, 9, size=(n, 1)) + MEANS[active] + g.integers(-4, 5, size=(n, a))
    out[0] += n
    out[1:1 + a] += o.sum(axis=0)
    out[1 + a:1 + 2 * a] += (o * o).sum(axis=0)
    diff = o[:, :, None] - o[:, None, :]
    out[1 + 2 * a:1 + 2 * a + a * a] += diff.sum(axis=0).ravel()
    out[1 + 2 * a + a * a:1 + 2 * a + 2 * a * a] += (diff * diff).sum(axis=0).ravel()


def engine_play(threads):
    def play(active, n, rng):
        a = len(active)
        res = engine.run(_kernel, (active,), 1 + 2 * a + 2 * a * a, samples=n, rng=rng, chunk_size=8,
                         threads=threads)
        c = res.counts.astype(float)
        x = np.stack([c[1:1 + a], c[1 + a:1 + 2 * a]], axis=1)
        d = np.stack([c[1 + 2 * a:1 + 2 * a + a * a].reshape(a, a),
                      c[1 + 2 * a + a * a:].reshape(a, a)], axis=2)
        return Sums(int(c[0]), x, d, res.partial)
    return play


def test_same_figures_on_one_and_two_threads():
    one = decide(engine_play(1), 4, margin=0.5, rng=7, unit="quarter points")
    two = decide(engine_play(2), 4, margin=0.5, rng=7, unit="quarter points")
    assert one == two and one.means == two.means and one.rounds > 1
    assert one.excluded  # elimination happened along the way, the same on both


def test_an_interrupted_round_returns_what_was_decided_so_far():
    inner = normal_play([0.0, -0.1, -0.2])

    def play(active, n, rng):
        if n > 32:  # the third round
            raise KeyboardInterrupt
        return inner(active, n, rng)
    v = decide(play, 3, margin=0.01, rng=1, budget=Budget(round_worlds=16))
    assert v.partial and v.rounds == 2 and not v.budget_limited and v.kind == "undecided"
    assert max(v.worlds) == 48
    assert v.words(["a", "b", "c"]).endswith("(interrupted after 2 of 8 rounds: partial)")
    whole = decide(inner, 3, margin=0.01, rng=1, budget=Budget(round_worlds=16, budget_worlds=48))
    assert whole.means == v.means  # the same worlds: rounds are seeded by their number alone

    def first(active, n, rng):
        raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):  # nothing counted: nothing to show
        decide(first, 3, margin=0.01, rng=1)


def test_a_round_cut_short_by_the_engine_is_partial():
    inner = normal_play([0.0, -0.1, -0.2])

    def play(active, n, rng):
        s = inner(active, min(n, 20), rng)
        return s._replace(partial=n > 20)
    v = decide(play, 3, margin=0.01, rng=1, budget=Budget(round_worlds=16))
    assert v.partial and v.rounds == 2 and max(v.worlds) == 36


def test_an_interrupted_session_stops_between_rounds():
    inner = normal_play([0.0, -0.1, -0.2])
    with engine.session() as s:
        def play(active, n, rng):
            if n > 16:
                s.interrupted = True  # Ctrl-C deferred by defer_interrupts() during this round
            return inner(active, n, rng)
        v = decide(play, 3, margin=0.01, rng=1, budget=Budget(round_worlds=16))
    assert v.partial and v.rounds == 2


def test_the_time_budget_starts_no_round_it_cannot_finish():
    inner = normal_play([0.0, -0.1, -0.2])
    now = [0.0]

    def slow(active, n, rng):  # a world and option takes 1 ms of a fake clock
        now[0] += 0.001 * n * len(active)
        return inner(active, n, rng)
    v = decide(slow, 3, margin=0.01, rng=1,
               budget=Budget(round_worlds=16, budget_seconds=0.5, clock=lambda: now[0]))
    # rounds of 16, 32, 64 worlds on 3 options take 0.336 s; the next, 128 worlds, would end past 0.5 s
    assert v.budget_limited and v.kind == "undecided" and v.rounds == 3 and v.planned_rounds == 8
    assert now[0] == pytest.approx(0.001 * 3 * 112) and max(v.worlds) == 112
    # what it ran is what a budget of the same rounds gives, figure for figure
    again = decide(inner, 3, margin=0.01, rng=1, budget=Budget(round_worlds=16, budget_rounds=v.rounds))
    assert again == v and again.means == v.means and again.worlds == v.worlds


def test_a_budget_of_rounds_keeps_the_plan():
    play = normal_play([0.0, -0.1, -0.2, -0.3])
    whole = decide(play, 4, margin=0.01, rng=1, budget=Budget(round_worlds=8, rounds=6))
    cut = decide(play, 4, margin=0.01, rng=1, budget=Budget(round_worlds=8, rounds=6, budget_rounds=3))
    assert cut.rounds == 3 and cut.planned_rounds == whole.planned_rounds == 6 and cut.budget_limited
    assert max(cut.worlds) == 8 * 7


@pytest.mark.parametrize("kwargs, message", [
    (dict(k=0), "k=0 must be the number of options"),
    (dict(margin=-1), "margin=-1 must be a number >= 0"),
    (dict(margin=math.nan), "margin=nan must be a number >= 0"),
    (dict(alpha=1.5), "alpha=1.5 must be between 0 and 1"),
    (dict(budget=dict(budget_worlds=1)), "budget_worlds=1 must be a whole number >= 2"),
    (dict(budget=dict(round_worlds=1.5)), "round_worlds=1.5 must be a whole number >= 2"),
    (dict(budget=dict(rounds=0)), "rounds=0 must be a whole number >= 1"),
    (dict(budget=dict(budget_seconds=0)), "budget_seconds=0 must be a number of seconds > 0"),
    (dict(budget=dict(budget_rounds=0)), "budget_rounds=0 must be a whole number >= 1"),
    (dict(budget=[16, 8]), "budget=[16, 8] must be a cardodds.verdict.Budget"),
    (dict(same=[0, 0]), "same= must give, for each of the k options"),
    (dict(same=[0, 2, 2]), "same= must give"),
    (dict(spread=-2), "spread=-2 must be a number >= 0"),
    (dict(play="x"), "play='x' must be a function"),
    (dict(rng=-1), "rng=-1 is a negative seed"),
])
def test_bad_arguments_are_refused(kwargs, message):
    args = dict(play=normal_play([0.0, 1.0, 2.0]), k=3, margin=0.25)
    args.update(kwargs)
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace("[", r"\[")):
        if isinstance(args.get("budget"), dict):  # a Budget is checked when it is made
            args["budget"] = Budget(**args["budget"])
        decide(args.pop("play"), args.pop("k"), **args)


def test_a_play_returning_the_wrong_shape_is_refused():
    def play(active, n, rng):
        return Sums.of(np.zeros((n, 2)))
    with pytest.raises(ValueError, match=r"play returned sums of shape \(2, 2\) and \(2, 2, 2\) for 3 options"):
        decide(play, 3, margin=0.25, rng=1)


# ---- the control variate ------------------------------------------------------------------------
def controlled_play(means, cheap_means, noise=1.0, own=0.3):
    """Options whose outcome is a cheap player's outcome on the same world plus a little of its
    own: ``x = y + own * noise``, ``y = world + cheap_means + noise``."""
    means, cheap = np.asarray(means, dtype=float), np.asarray(cheap_means, dtype=float)

    def play(active, n, rng):
        g = np.random.default_rng(rng)
        y = g.normal(size=(n, 1)) + cheap[active] + noise * g.normal(size=(n, len(active)))
        x = y + (means - cheap)[active] + own * g.normal(size=(n, len(active)))
        return Sums.of(x, control=y)
    return play


def cheap_control(cheap_means, worlds, seed, noise=1.0):
    """The cheap player's mean differences measured on ``worlds`` other worlds, with their variances."""
    cheap = np.asarray(cheap_means, dtype=float)
    g = np.random.default_rng(seed)
    k = len(cheap)
    y = g.normal(size=(worlds, 1)) + cheap + noise * g.normal(size=(worlds, k))
    diff = y[:, :, None] - y[:, None, :]
    return diff.mean(axis=0), diff.var(axis=0, ddof=1) / worlds


def test_controlled_mean_is_exact_without_noise_of_its_own():
    # d = c + 0.5 on every world: the control explains d up to its known mean
    c = np.array([1.0, -1.0, 2.0, 0.0, -2.0])
    d = c + 0.5
    m, v, df = controlled_mean(5, d.sum(), (d * d).sum(), c.sum(), (c * c).sum(), (d * c).sum(), 0.0, 0.0)
    assert m == pytest.approx(0.5) and v == pytest.approx(0.0) and df == 3


def test_a_control_variate_narrows_the_intervals_and_keeps_the_verdict():
    means, cheap = [0.0, -0.15, -1.0], [0.1, 0.0, -0.8]
    control = cheap_control(cheap, 100_000, 99)
    plain = decide(controlled_play(means, cheap), 3, margin=0.05, rng=3, budget=Budget(budget_worlds=496))
    with_c = decide(controlled_play(means, cheap), 3, margin=0.05, rng=3, control=control,
                    budget=Budget(budget_worlds=496))
    assert plain.control_gain is None and with_c.control_gain > 4
    assert with_c.kind == "best" and with_c.group == (0,)
    assert sum(with_c.worlds) < sum(plain.worlds)


def test_coverage_with_a_control_variate():
    means, cheap = [0.0, -0.3], [0.0, 0.0]  # a loss above the margin the cheap player does not see
    reps = 1000
    control = cheap_control(cheap, 100_000, 7)
    vs = [decide(controlled_play(means, cheap), 2, margin=0.25, rng=r, control=control,
                 budget=Budget(round_worlds=8, budget_worlds=8 * 31)) for r in range(reps)]
    assert _errors(vs, means, 0.25) / reps < 0.05


def test_a_control_needs_its_sums():
    with pytest.raises(ValueError, match="control= must be"):
        decide(normal_play([0.0, 1.0]), 2, margin=0.25, control=(np.zeros((2, 2)),))
    with pytest.raises(ValueError, match=r"with control=, play must return Sums.c of shape \(2, 2, 3\)"):
        decide(normal_play([0.0, 1.0]), 2, margin=0.25, rng=1, control=(np.zeros((2, 2)), np.zeros((2, 2))))


def test_ctrl_c_in_an_engine_round_returns_the_verdict_so_far_marked_partial():
    """Ctrl-C reaching the engine inside round 3 (a chunk raising KeyboardInterrupt, as the engine's
    wait does on SIGINT): the engine keeps the chunks counted, the verdict is partial."""
    chunks = [0]

    def kernel(state, n, out, active):
        chunks[0] += 1
        if chunks[0] == 2 + 4 + 3:  # rounds of 16 and 32 worlds are 2 and 4 chunks of 8
            raise KeyboardInterrupt
        _kernel(state, n, out, active)

    def play(active, n, rng):
        a = len(active)
        res = engine.run(kernel, (active,), 1 + 2 * a + 2 * a * a, samples=n, rng=rng, chunk_size=8, threads=1)
        c = res.counts.astype(float)
        return Sums(int(c[0]), np.stack([c[1:1 + a], c[1 + a:1 + 2 * a]], axis=1),
                    np.stack([c[1 + 2 * a:1 + 2 * a + a * a].reshape(a, a), c[1 + 2 * a + a * a:].reshape(a, a)],
                             axis=2), res.partial)
    with engine.session() as s:
        v = decide(play, 4, margin=0.01, rng=7)
    assert v.partial and v.rounds == 3 and s.interrupted
    assert 48 < max(v.worlds) < 48 + 64  # a part of round 3's 64 worlds counted


def test_repr_says_the_verdict():
    v = decide(normal_play([0.0, -2.0]), 2, margin=0.25, rng=1, unit="points")
    assert repr(v).startswith("Verdict(best: play 0; 1 loses ") and repr(v).endswith(
        f"; worlds {v.worlds[0]} {v.worlds[1]}; {v.rounds} of 8 rounds)")


def test_progress_counts_the_worlds_on_stderr(capsys):
    v = decide(normal_play([0.0, -2.0]), 2, margin=0.25, rng=1, progress=True)
    err = capsys.readouterr().err
    # one round of 16 worlds of the 4,080 planned, one option left after it
    assert v.kind == "best" and v.rounds == 1 and "16.0/4.08k" in err and "1 left" in err
