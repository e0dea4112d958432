"""Känä sessions: the winner starts the next round (docs/rules/kana.md §2.2), pot accounting, leaving
at a loss, the official-rules 1/n over sessions, and agreement with the one-round figures."""

import math
from dataclasses import replace

import numpy as np
import pytest
from numba import njit

from cardodds import kana
from cardodds.cards import parse_card
from cardodds.kana import policies as st
from cardodds.trace import Move, Trace
from cardodds.kana.session import _session_rounds, session, session_table, trace

# Three players, everybody känäs the first card as dealt: the kept pair is cards 2 and 3.
LOSER = "2c 3c 4c"  # keeps 3 + 4 = 7
WINNER = "5c Ah Ad"  # keeps A + A = 28
SECOND = "6c Kh Kd"  # keeps K + K = 26


def _deal(winner, n=3):
    """One round's hands: ``winner`` gets A A, the next player K K, everybody else low cards."""
    low = ["2c 3c 4c", "2d 3d 4d", "2h 3h 4h", "2s 3s 4s"]
    hands, j = [], 0
    for q in range(n):
        if q == winner:
            hands.append(WINNER)
        elif q == (winner + 1) % n:
            hands.append(SECOND)
        else:
            hands.append(low[j])
            j += 1
    return hands


def _check_invariants(frame, n, rounds_cap):
    """Every simulated round: nets sum to zero, the pot goes to the winner, känäd cards are
    distinct, the real table's next starter is the winner, the rotation moves one chair."""
    nets = frame[[f"net{q}" for q in range(n)]].to_numpy()
    assert (nets.sum(axis=1) == 0).all()
    for row, w in zip(nets, frame["winner"]):
        assert row[w] == n - 1 and (np.delete(row, w) == -1).all()
    kanad = frame[[f"kanad{q}" for q in range(n)]].to_numpy()
    assert all(len(set(r)) == n for r in kanad)
    assert ((kanad >= 0) & (kanad < 52)).all()
    for (_, table), g in frame.groupby(["session", "table"]):
        g = g.sort_values("round")
        assert (g["round"].to_numpy() == np.arange(len(g))).all() and len(g) <= rounds_cap
        starters, winners = g["starter"].to_numpy(), g["winner"].to_numpy()
        if table == 0:
            assert (starters[1:] == winners[:-1]).all()
        else:
            assert (starters[1:] == (starters[:-1] + 1) % n).all()


# ---------------------------------------------------------------------------------------
# Rules on hand-built deals
# ---------------------------------------------------------------------------------------


def test_winner_starts_the_next_round_and_takes_the_pot():
    deals = [_deal(1), _deal(0), _deal(2), _deal(2)]
    frame, res = _session_rounds("blind-first", players=3, rounds=4, first=0, deals=deals, rng=1)
    real = frame[frame["table"] == 0]
    rot = frame[frame["table"] == 1]
    assert real["winner"].tolist() == [1, 0, 2, 2]
    assert real["starter"].tolist() == [0, 1, 0, 2]  # the first starter, then each round's winner
    assert rot["starter"].tolist() == [0, 1, 2, 0]
    assert rot["winner"].tolist() == [1, 0, 2, 2]  # blind play: who starts does not change the winner
    # Each player antes 1, the winner takes the pot of 3: +2 for it, -1 for the others.
    assert real[["net0", "net1", "net2"]].to_numpy().tolist() == [[-1, 2, -1], [2, -1, -1], [-1, -1, 2], [-1, -1, 2]]
    # The känäd card is the first of each hand.
    assert real["kanad1"].iloc[0] == parse_card("5c") and real["kanad0"].iloc[0] == parse_card("2c")
    assert [res.net_distribution(q).to_dict() for q in range(3)] == [{-1: 1.0}, {-1: 1.0}, {2: 1.0}]
    assert [s.value for s in res.starts] == [0.5, 0.25, 0.25]
    assert [w.value for w in res.win] == [0.25, 0.25, 0.5]
    assert res.ev[2].value == pytest.approx(2 / 4)  # +2 antes over 4 rounds
    assert res.longest_run[0].value == 2 and res.longest_run[1].value == 3 and res.longest_run[2].value == 2
    assert res.starter_win.value == pytest.approx(1 / 4)  # only round 4's starter (2) won


def test_the_trace_of_an_evening_reads_its_rounds_in_the_order_played():
    deals = [_deal(1), _deal(0), _deal(2), _deal(2)]
    t = trace("blind-first", players=3, rounds=4, first=0, deals=deals, rng=1)
    wins = [m.seat for m in t.moves if m.action == "win"]
    kanas = [m.seat for m in t.moves if m.action == "känä"]
    assert wins == [1, 0, 2, 2] and kanas == [0, 1, 2, 1, 2, 0, 0, 1, 2, 2, 0, 1]  # from each round's starter
    assert t.moves[0] == Move(0, "deal", tuple(deals[0][0].split())) and t.moves[4].cards == ("5c",)
    assert t.result == {"net antes": (-1, -1, 2), "rounds": (4,)}
    assert Trace.parse(str(t)).moves == t.moves


def test_the_trace_records_each_seats_deal_and_peek_and_the_extra_round():
    # Peek-one: each seat's three cards as dealt, the first one peeked (what the policies see),
    # then the känäs from the starter; the text reads back whole (only the rules object is not text).
    t = trace("threshold:8", players=3, variant="peek-one", rounds=6, first=1, rng=7)
    assert Trace.parse(str(t)) == replace(t, rules=None)
    rounds = [[]]
    for m in t.moves:
        rounds[-1].append(m)
        if m.action == "win":
            rounds.append([])
    for moves in rounds[:-1]:
        deal = {m.seat: m.cards for m in moves if m.action == "deal"}
        peek = {m.seat: m.cards for m in moves if m.action == "peek"}
        kanad = {m.seat: m.cards[0] for m in moves if m.action == "känä"}
        assert sorted(deal) == sorted(peek) == sorted(kanad) == [0, 1, 2]
        assert all(peek[q] == deal[q][:1] and kanad[q] in deal[q] for q in range(3))
        assert len({c for h in deal.values() for c in h}) == 9
        # threshold:8 känäs the peeked card when it is 8 or lower, else an unseen one
        assert all((kanad[q] == peek[q][0]) == (parse_card(peek[q][0]) >> 2 <= 6) for q in range(3))
    # The official rules: no peek lines; a tie for the best hand is named on the winner's line.
    t = trace("blind-first", players=3, rounds=1, first=0, deals=[["2c 3c 4c", "5c Ah Ad", "6c As Ac"]], rng=3)
    assert [m.action for m in t.moves] == ["deal"] * 3 + ["känä"] * 3 + ["win"]
    assert t.moves[-1].seat in (1, 2) and t.moves[-1].note == "round 1, after an extra round (seats 1, 2 tied)"


def test_tie_for_the_best_hand_goes_to_an_extra_round_and_its_winner_starts():
    # Players 1 and 2 both keep A + A (28): an extra round decides, and its winner starts next.
    deals = [["2c 3c 4c", "5c Ah Ad", "6c As Ac"]]
    frame, _ = _session_rounds("blind-first", players=3, rounds=2, first=0, deals=deals, sessions=20, rng=3)
    real = frame[frame["table"] == 0]
    first_rounds = real[real["round"] == 0]
    assert set(first_rounds["winner"]) == {1, 2}  # both tied players win some extra rounds
    assert (real[real["round"] == 1]["starter"].to_numpy() == first_rounds["winner"].to_numpy()).all()


def test_leaving_at_a_loss_ends_the_session():
    # Player 0 loses every round; at -3 antes it leaves after round 3, though 10 were planned.
    deals = [_deal(1), _deal(2), _deal(1), _deal(1), _deal(1)]
    frame, res = _session_rounds("blind-first", players=3, rounds=10, leave_at=3, first=0, deals=deals, rng=1)
    assert len(frame[frame["table"] == 0]) == 3
    assert res.length.value == 3
    assert [e.value for e in res.left] == [1.0, 0.0, 0.0]
    assert res.net_distribution(0).to_dict() == {-3: 1.0}
    # One more ante of patience: it leaves after round 4.
    _, res4 = _session_rounds("blind-first", players=3, rounds=10, leave_at=4, first=0, deals=deals, rng=1)
    assert res4.length.value == 4 and res4.net_distribution(0).to_dict() == {-4: 1.0}


@njit
def _kana_peek_when_starting(state, seat, hand, peeked, kanad, n_kanad):
    # Position 0 (the starter) känäs its peeked card, everybody later an unseen one.
    return 0 if seat == 0 else 1


def test_custom_and_context_strategies_see_their_position_and_what_was_kanad():
    # Player 0: custom (känä the peeked card only when starting). Player 1: känä its peeked
    # card unless a king or an ace was känäd before it. Player 2: always keep the peeked card.
    ctx = st.kana_ranks({None: "2-A", "K": [], "A": []})
    table = [st.custom(_kana_peek_when_starting, "peek-one"), ctx, st.threshold(1)]
    deals = [["7c 2d Ad", "8c 4d 5d", "3c 6d 4c"],  # order 2, 0, 1
             ["Kc 2d 3d", "8c 4d 5d", "3c 6d 4c"]]  # player 0 won, so the order is 0, 1, 2
    frame, _ = _session_rounds(table, variant="peek-one", rounds=2, first=2, deals=deals, rng=5)
    r0, r1 = (row for _, row in frame[frame["table"] == 0].iterrows())
    assert r0["starter"] == 2
    assert r0["kanad2"] == parse_card("6d")  # keeps its peeked 3c, känäs an unseen card
    assert r0["kanad0"] == parse_card("2d")  # not starting: känäs an unseen card, keeps 7 + A
    assert r0["kanad1"] == parse_card("8c")  # only a 6 seen before: känäs its peeked card
    assert r0["winner"] == 0 and r1["starter"] == 0
    assert r1["kanad0"] == parse_card("Kc")  # starting now: känäs its peeked king
    assert r1["kanad1"] == parse_card("4d")  # a king känäd before: keeps its peeked card


# ---------------------------------------------------------------------------------------
# Invariants on every simulated session, and the counts agree with the trace
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,variant,table", [
    (3, "official", ["blind-first", "blind", "blind-third"]),
    (4, "peek-one", ["threshold:8", st.kana_ranks({None: "2-7", "K": "2-9"}), "blind", "threshold:6"]),
    (4, "peek-all", ["best-pair", "blind", "highest-sum", "random"]),
])
def test_invariants_on_every_simulated_round(n, variant, table):
    frame, res = _session_rounds(table, variant=variant, rounds=25, sessions=120, rng=11, leave_at=8)
    _check_invariants(frame, n, 25)
    real = frame[frame["table"] == 0]
    assert len(real) == res.length.value * res.samples
    counts = res.counts
    from cardodds.kana._session import session_layout

    v = session_layout(n, 2, 25).view(counts)
    assert v.wins[:n].tolist() == [int((real["winner"] == q).sum()) for q in range(n)]
    for t in (0, 1):
        assert v.starts[t * n:(t + 1) * n].sum() == v.rounds  # starts add up to the rounds
        assert v.wins[t * n:(t + 1) * n].sum() == v.rounds
        assert v.net[t * n:(t + 1) * n].sum() == 0  # net winnings sum to zero across players
    assert v.starts[:n].tolist() == [int((real["starter"] == q).sum()) for q in range(n)]
    # Final nets from the trace against the histogram.
    finals = real.groupby("session")[[f"net{q}" for q in range(n)]].sum()
    for q in range(n):
        dist = finals[f"net{q}"].value_counts(normalize=True).sort_index()
        got = res.net_distribution(q)
        assert dict(zip(got.index, np.round(got.values, 12))) == dict(zip(dist.index, np.round(dist.values, 12)))
    # Somebody reached -8 exactly when a session ended early.
    for _s, g in real.groupby("session"):
        cum = g[[f"net{q}" for q in range(n)]].cumsum().to_numpy()
        hit = np.nonzero((cum <= -8).any(axis=1))[0]
        assert len(g) == (hit[0] + 1 if len(hit) else 25)


# ---------------------------------------------------------------------------------------
# Figures
# ---------------------------------------------------------------------------------------


def _within_4se(e, exact):
    assert abs(e.value - exact) <= 4 * e.se, f"{e.value:.5f} is {abs(e.value - exact) / e.se:.1f} SE from {exact}"


@pytest.mark.parametrize("n,table", [
    (3, ["blind-first", "blind-third", "blind"]),
    (4, ["blind-second", "blind", "blind-first", "blind-third"]),
])
def test_official_rules_every_player_wins_one_in_n_over_sessions(n, table):
    r = session(table, rounds=40, samples=3_000, rng=20261130)
    for q in range(n):
        _within_4se(r.win[q], 1 / n)
        _within_4se(r.ev[q], 0.0)
        _within_4se(r.starts[q], 1 / n)
        _within_4se(r.difference[q], 0.0)
    _within_4se(r.starter_win, 1 / n)
    r = session(table, rounds=40, leave_at=6, samples=3_000, rng=7)
    for q in range(n):
        _within_4se(r.win[q], 1 / n)


def test_official_rules_net_and_longest_losing_run_against_their_exact_distributions():
    # Every round is won with probability exactly 1/n, independently of the others, so the
    # wins in R rounds are Binomial(R, 1/n) and the net is n * wins - R; the longest run
    # without a win follows from the 2^R win/loss sequences.
    from itertools import product
    from math import comb

    n, R = 3, 12
    r = session("blind", players=n, rounds=R, samples=12_000, rng=31)
    p = 1 / n
    for q in range(n):
        dist = r.net_distribution(q)
        for w in range(R + 1):
            exact = comb(R, w) * p**w * (1 - p) ** (R - w)
            got = dist.get(n * w - R, 0.0)
            assert abs(got - exact) <= 4 * math.sqrt(exact * (1 - exact) / r.samples) + 1e-12, (q, w, got, exact)
    mean = second = 0.0
    for seq in product((0, 1), repeat=R):  # 1 = a won round
        weight = p ** sum(seq) * (1 - p) ** (R - sum(seq))
        run = longest = 0
        for won in seq:
            run = 0 if won else run + 1
            longest = max(longest, run)
        mean += weight * longest
        second += weight * longest**2
    se = math.sqrt((second - mean**2) / r.samples)
    for q in range(n):
        assert abs(r.longest_run[q].value - mean) <= 4 * se, (q, r.longest_run[q].value, mean)


def test_rotating_starter_matches_the_one_round_figure():
    r = session("threshold:8,blind,blind,blind", variant="peek-one", rounds=30, samples=3_000, rng=4)
    one = kana.expected_value("threshold:8", 4, "peek-one", opponents="blind", samples=400_000, rng=5)
    gap = r.ev_rotation[0].value - one.value
    assert abs(gap) <= 4 * math.hypot(r.ev_rotation[0].se, one.se)
    # A peeking player wins more rounds, so it starts more often than 1/4 at the real table.
    assert r.starts[0].lo > 0.25 and r.ev[0].lo > 0
    assert sum(s.value for s in r.starts) == pytest.approx(1.0)


def test_starter_rule_changes_nothing_for_strategies_that_ignore_earlier_kanas():
    # A player who does not react to earlier känäs keeps the same cards wherever the round
    # starts, and a tie's extra round is fair to every tied player, so each round's chances
    # do not depend on the starter: the real rule's effect is exactly 0 for every player,
    # though the peeking players start more often.
    r = session(["threshold:8", "threshold:10", "blind", "kana:2-5"], variant="peek-one", rounds=30, samples=2_000,
                rng=8)
    for q in range(4):
        _within_4se(r.difference[q], 0.0)
    assert r.starts[0].lo > 0.25 and r.starts[2].hi < 0.25


def test_same_seed_same_counts_on_any_thread_count():
    a = session("threshold:7,blind,blind", variant="peek-one", rounds=15, samples=700, rng=9, threads=1)
    b = session("threshold:7,blind,blind", variant="peek-one", rounds=15, samples=700, rng=9, threads=2)
    assert (a.counts == b.counts).all() and a == b


def test_session_table_structure():
    t = session_table(3, rounds=10, samples=300, rng=1, max_iterations=1)
    assert list(t.rows.index) == list("23456789TJQKA")
    assert set(t.rows["today"]) <= {"känä", "keep"} and t.iterations == 1
    assert "switching, real rule" in repr(t) and t.to_dict()["rows"][0]["peeked"] == "2"
    # For a table that ignores earlier känäs the starter rule's effect is exactly 0.
    for _, row in t.rows.iterrows():
        assert abs(row["starter_effect"]) <= 4 * row["starter_effect_se"] + 1e-12


def test_result_protocol():
    r = session("blind", players=3, rounds=12, samples=400, rng=3)
    d = r.to_dict()
    for key in ("rules", "samples", "seed", "partial", "version"):
        assert key in d
    assert d["samples"] == 400 and d["seed"] == 3 and len(d["by_player"]) == 3
    assert abs(sum(d["by_player"][0]["net_distribution"].values()) - 1) < 1e-9
    assert "Känä sessions, 3 players" in repr(r) and "<table" in r._repr_html_()
    assert list(r.to_frame().index) == [0, 1, 2]
    assert type(r).__name__.endswith("Result")


@pytest.mark.parametrize("kwargs,match", [
    (dict(policies="blind,blind", players=3), "2 policies for 3 players"),
    (dict(rounds=0), "rounds=0"),
    (dict(leave_at=0), "leave_at=0"),
    (dict(first=7), "first=7"),
    (dict(policies="threshold:8", variant="peek-all"), "peek-one"),
    (dict(samples=0), "samples=0"),
])
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        session(**kwargs)


def test_cli_session_table_and_json(capsys):
    import json

    from cardodds.cli import main

    argv = ["kana", "session", "--players", "4", "--variant", "peek-one",
            "--policies", "threshold:8,blind,blind,blind",
            "--rounds", "20", "--samples", "600", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Känä sessions, 4 players, peek-one: 20 rounds") and "threshold(8)" in out
    lines = out.splitlines()
    assert lines[2].index("[") == lines[3].index("[")  # aligned columns
    assert main(argv + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["samples"] == 600 and d["seed"] == 3 and d["partial"] is False and d["rules"]["variant"] == "peek-one"
    assert d["version"] and d["strategies"][0] == "threshold(8)" and d["rounds"] == 20
    assert main(["kana", "session", "--players", "3", "--policies", "blind,blind"]) == 2
    assert "2 policies for 3 players" in capsys.readouterr().err
    assert main(["kana", "session", "--policies", "threshold:99"]) == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_report_section_rebuilds_byte_identically(tmp_path):
    from cardodds.report import build

    a = build(tmp_path / "a", seed=7, scale=0.003, sections=["kana_session"])
    build(tmp_path / "b", seed=7, scale=0.003, sections=["kana_session"])
    names = sorted(p.name for p in (tmp_path / "a").iterdir())
    assert names == ["index.html", "kana_session.md", "kana_session.part.html", "kana_session_net.png"]
    for name in names:
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name
    text = a[0].read_text()
    assert text.startswith("# Känä: an evening at the table") and "seed 7" in text
    assert "Does starting after a win change the best table?" in text and "| threshold(8) |" in text


def test_precision_target_stops_when_player_0_is_known_that_well():
    r = session("threshold:8,blind,blind", variant="peek-one", rounds=10, target_halfwidth=0.04, rng=6)
    assert r.ev[0].halfwidth <= 0.04 and r.samples < 20_000
