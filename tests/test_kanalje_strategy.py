"""Kanalje's strategy tables: each table's classification on hand-built positions, a position's
action values played out by hand, the kernel's counts against its records, the same counts on any
threads and on Dask, the shipped copy, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from cardodds.cards import parse_card, parse_cards
from cardodds.kanalje import KanaljeRules, Position
from cardodds.kanalje import _strategy as KS
from cardodds.kanalje._position import check_position
from cardodds.kanalje._table import TABLE_SIZE, T, new_table
from cardodds.kanalje.strategy import SHIPPED, TABLES, strategy_table
from cardodds.rng import chunk_state
from cardodds.strategy import add_positions, read_tables, write_tables


def _mask(cards: str) -> int:
    m = 0
    for c in parse_cards(cards):
        m |= 1 << c
    return m


def _classify(table, seat, kind):
    cards = np.zeros(KS.MAX_ACTIONS, np.int64)
    possible = np.zeros(KS.MAX_ACTIONS, np.int64)
    cell = KS.classify(table, seat, kind, cards, possible)
    return cell, {a: parse_card_name(cards[a]) for a in range(KS.MAX_ACTIONS) if possible[a]}


def parse_card_name(c) -> str:
    from cardodds.cards import card_str
    return card_str(int(c))


def _spec(name):
    return next(s for s in TABLES if s.name == name)


def _key(name, cell):
    return _spec(name).keys()[cell]


HAND17 = "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s"


def test_the_opening_lead_is_classified_and_its_actions_named():
    pos = check_position(0, HAND17, "7h", None, KanaljeRules())
    cell, acts = _classify(pos.table, 0, KS.LEAD)
    # hearts trump (3 cards); spades the longest side suit (7, with its jack); clubs (3) the
    # shortest other side suit
    assert _key("lead", cell) == ("7+", "3-4", "1")
    assert acts == {0: "2s", 1: "Qs", 2: "4c", 3: "3h", 4: "Js"}
    # not the first lead: no position
    later = check_position(1, "Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2h", "7h", "0: 2s", KanaljeRules())
    assert _classify(later.table, 1, KS.LEAD)[0] == -1


def test_a_trick_holding_a_jack_is_classified_by_seat_penalty_and_holding():
    # seat 2 third: Jh led, Qh over it; I hold Kh and 2h (both), no jack: duck 2h, win Kh
    pos = check_position(2, "Kh 2h Ac Kc Qc Tc 9c 8c 7c 6c 5c 4c 3c 2c 2d 3d 4d", "Td", "0: Jh Qh", KanaljeRules())
    cell, acts = _classify(pos.table, 2, KS.JACK)
    assert _key("jack", cell) == ("3rd", "4+", "both") and acts == {0: "2h", 1: "Kh"}
    # second to a led Js, void in spades with trumps (diamonds) and Jc: duck Ac, win 2d, shed Jc
    pos = check_position(1, "Ac Kc Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c 2d 3d 4d 5h 6h", "Td", "0: Js", KanaljeRules())
    cell, acts = _classify(pos.table, 1, KS.JACK)
    assert _key("jack", cell) == ("2nd", "1", "void+trump") and acts == {0: "Ac", 1: "2d", 2: "Jc"}
    # no jack in the trick: no position
    pos = check_position(1, "Ac Kc Jc Tc 9c 8c 7c 6c 5c 4c 3c 2c 2d 3d 4d 5h 6h", "Td", "0: Qs", KanaljeRules())
    assert _classify(pos.table, 1, KS.JACK)[0] == -1


def test_the_face_up_card_is_classified_by_role_rank_and_points():
    two = KanaljeRules(players=2)
    # leading with the face-up queen: fight with my lowest card nobody beats (the ace of clubs
    # is the only sure one), give my lowest card; A K Q T = 4 + 3 + 2 + 1 = 10 points
    pos = check_position(0, "Ac Kd Qh Ts 2c 3d 4h 5s 6c 7d 8h 9s Jc", None, None, two, faceup="Qd")
    cell, acts = _classify(pos.table, 0, KS.FACEUP)
    assert _key("faceup", cell) == ("lead", "Q", "10-12") and acts == {0: "Ac", 1: "2c"}
    # second to a led 5s: fight with the lowest spade over it, give the lowest card under it
    pos = check_position(1, "Ac Kd Qh Ts 2c 3d 4h 6s 7c 7d 8h 9s Jc", None, "0: 5s", two, faceup="Jd")
    cell, acts = _classify(pos.table, 1, KS.FACEUP)
    assert _key("faceup", cell) == ("second", "J", "10-12") and acts == {0: "6s", 1: "2c"}


def test_a_position_is_looked_up_in_the_tables_the_advisor_reads_it_in():
    tables = strategy_table()
    # the opening lead of the first test: the lead table's cell, each action's card
    found = tables.lookup(Position(seat=0, hand=HAND17, turned="7h"))
    assert found.table == "lead" and found.cell.key == ("7+", "3-4", "1")
    assert found.options == {"long low": "2s", "long high": "Qs", "short": "4c", "trump": "3h", "jack": "Js"}
    assert found.cell == tables["lead"].cell("7+", "3-4", "1")
    assert found.best == (None if found.cell.best is None else found.options[found.cell.best])
    # third to a trick holding the J♥, only duck and win possible: the cell's verdict among those two
    p = Position(seat=2, hand="Kh 2h Ac Kc Qc Tc 9c 8c 7c 6c 5c 4c 3c 2c 2d 3d 4d", turned="Td", played="0: Jh Qh")
    found = tables.lookup(p)
    assert found.table == "jack" and found.options == {"duck": "2h", "win": "Kh"}
    assert found.cell == tables["jack"].cell("3rd", "4+", "both", among=["duck", "win"])
    assert set(found.options.values()) <= set(p.options) and found.verdict.startswith("jack: 3rd, 4+, both: ")
    assert found.cell.kind == "best" and found.best == "2h" and found.verdict.endswith("(plays 2h)")  # duck
    # two players, phase 1: the face-up table; a position in no table: None
    two = KanaljeRules(players=2)
    found = tables.lookup(Position(seat=0, hand="Ac Kd Qh Ts 2c 3d 4h 5s 6c 7d 8h 9s Jc", faceup="Qd", rules=two))
    assert found.table == "faceup" and found.cell.key == ("lead", "Q", "10-12")
    assert tables.lookup(Position(seat=1, hand=HAND17.replace("2s", "2h"), turned="7h", played="0: 2s")) is None
    assert strategy_table("lead").lookup(p) is None  # the jack table is not among these
    with pytest.raises(ValueError, match="must be a kanalje.Position"):
        tables.lookup({"seat": 0})


def test_a_hand_built_positions_action_values_are_played_out_and_counted():
    """Trick 16 of 17, hearts led: seat 0 leads Jh, I (seat 1) hold Qh 2h, seat 2 holds 3h 3d,
    seat 0 then As; clubs trump. Ducking with 2h: seat 0 takes its own jack, then its As the last
    trick: my score stays 0. Winning with Qh: I take the jack (+1 -4), then my 2h the last trick
    (+1): -2. Every seat plays the heuristic, which has no choice left."""
    rules = KanaljeRules()
    t = np.zeros(TABLE_SIZE, np.int64)
    new_table(t, rules.pack(), 0, parse_card("5c"), 0)
    hands = [_mask("As"), _mask("Qh 2h"), _mask("3h 3d")]
    for s in range(3):
        t[T.hand + s] = hands[s]
    t[T.trick], t[T.trick_len], t[T.n_tricks] = parse_card("Jh"), 1, 15
    t[T.played] = ((1 << 52) - 1) & ~(hands[0] | hands[1] | hands[2] | 1 << parse_card("5c"))
    cell, acts = _classify(t, 1, KS.JACK)
    assert _key("jack", cell) == ("2nd", "4+", "both") and acts == {0: "2h", 1: "Qh"}
    cards = np.array([parse_card("2h"), parse_card("Qh"), 0, 0, 0], np.int64)
    possible = np.array([1, 1, 0, 0, 0], np.int64)
    values = np.zeros(KS.MAX_ACTIONS, np.int64)
    from cardodds.kanalje._policies import new_scratch
    KS.play_actions(chunk_state(np.random.SeedSequence(1), 0), t, 1, (cards, possible, values), 3,
                    np.array([1, 1, 1]), 16, None, np.array([1, 1, 1]), None,
                    (np.zeros(TABLE_SIZE, np.int64), np.zeros((2, 4), np.uint64)), new_scratch())
    assert values[:2].tolist() == [0, -2]


def _records(name, n, seed, policies=(1, 1, 1)):
    spec = _spec(name)
    kind, players = {"lead": (KS.LEAD, 3), "jack": (KS.JACK, 3), "lead2": (KS.LEAD, 2), "jack2": (KS.JACK, 2),
                     "faceup": (KS.FACEUP, 2)}[name]
    out = np.zeros(spec.size, np.int64)
    rec = np.zeros((n, KS.RECORD.size), np.int64)
    phase1 = True if players == 2 else None
    KS.strategy_kernel(chunk_state(np.random.SeedSequence(seed), 0), n, out, KanaljeRules(players=players).pack(),
                       kind, len(spec.actions), np.array(policies[:players]), 16, None, phase1, rec)
    return spec, out, rec


@pytest.mark.parametrize("name", [s.name for s in TABLES])
def test_the_counts_are_the_recorded_positions_and_values(name):
    # the heuristic seldom leads a jack in phase 2 (a jack2 position: about one deal in a hundred)
    spec, out, rec = _records(name, 3000 if name == "jack2" else 400, 7)
    twin = np.zeros(spec.size, np.int64)
    A = len(spec.actions)
    kept = rec[rec[:, KS.P.cell] >= 0]
    assert len(kept) > 15
    for row in kept:
        add_positions(spec, twin, int(row[KS.P.cell]), [row[KS.P.values:KS.P.values + A]],
                      [row[KS.P.possible:KS.P.possible + A]])
        assert row[KS.P.possible:KS.P.possible + A].sum() >= 2  # a position offers a choice
    assert twin.tolist() == out.tolist()
    # the record is the play so far: the lead's position comes first in its phase
    if name == "lead":
        assert (kept[:, KS.P.plays] == 0).all()
    if name == "lead2":
        assert (kept[:, KS.P.plays] == 26).all()


def test_the_same_seed_gives_the_same_tables_on_one_and_two_threads():
    kw = dict(build=True, samples=600, policies="heuristic", rng=5)
    one = strategy_table(["jack", "faceup"], threads=1, **kw)
    two = strategy_table(["jack", "faceup"], threads=2, **kw)
    assert [t.counts.tolist() for t in one.tables] == [t.counts.tolist() for t in two.tables]
    # a table built alone is the same as in a larger build (its own seed stream)
    alone = strategy_table("faceup", threads=2, **kw)
    assert alone["faceup"].counts.tolist() == two["faceup"].counts.tolist()
    look = dict(build=True, samples=8, policies="lookahead", rng=5)
    assert (strategy_table("jack2", threads=1, **look)["jack2"].counts.tolist()
            == strategy_table("jack2", threads=2, **look)["jack2"].counts.tolist())


def test_the_same_counts_on_dask():
    distributed = pytest.importorskip("distributed")
    import logging

    import cardodds

    kw = dict(build=True, samples=300, policies="heuristic", rng=9)
    here = strategy_table("lead", threads=2, **kw)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=logging.CRITICAL) as cluster, distributed.Client(cluster) as c:
        with cardodds.backend(c):
            there = strategy_table("lead", **kw)
    assert here["lead"].counts.tolist() == there["lead"].counts.tolist()


def test_the_shipped_copy_reads_back_and_writes_the_same_bytes(tmp_path):
    shipped = strategy_table()
    assert shipped.shipped and [t.name for t in shipped.tables] == [s.name for s in TABLES]
    again = write_tables(read_tables(SHIPPED, TABLES, KanaljeRules()), tmp_path / "s.json")
    assert again.read_bytes() == SHIPPED.read_bytes()
    two = strategy_table(rules=KanaljeRules(players=2))
    assert [t.name for t in two.tables] == ["lead2", "jack2", "faceup"] and two.rules.players == 2


def test_a_table_rebuilt_alone_has_its_counts_of_the_full_build():
    """Every table costs over 40 s of one core at the shipped precision (the benchmark rebuilds each
    against the shipped copy): here at 40 deals, with the shipped lineup and seed."""
    full = strategy_table(build=True, samples=40)
    alone = strategy_table("jack2", build=True, samples=40, threads=1)
    assert alone["jack2"].counts.tolist() == full["jack2"].counts.tolist() and alone["jack2"].counts.any()
    assert full.policies == strategy_table().policies == "lookahead" and full.seed == strategy_table().seed


def test_the_shipped_copy_is_what_the_build_computes():
    """The cheapest table (``jack``) rebuilt by the command's function at the shipped precision,
    seed and lineup has exactly the shipped counts, and so the shipped cells."""
    built, shipped = strategy_table("jack", build=True, threads=2)["jack"], strategy_table("jack")["jack"]
    assert built.counts.tolist() == shipped.counts.tolist() and built.cells == shipped.cells


@pytest.mark.parametrize("kwargs, message", [
    (dict(tables="leed"), "no strategy table 'leed': the tables are lead, jack, lead2, jack2, faceup"),
    (dict(samples=100), "pass build=True"),
    (dict(rules=KanaljeRules(turned_jack="last_trick")), "pass build=True"),
    (dict(tables="faceup", rules=KanaljeRules()), "'faceup' is a 2-player table"),
    (dict(build=True, samples=0), "samples"),
    (dict(build=True, samples=10, policies="clever"), "clever"),
])
def test_bad_input_is_one_clear_error(kwargs, message):
    with pytest.raises(ValueError, match=message):
        strategy_table(**kwargs)


def test_an_interrupted_build_keeps_the_tables_it_reached(monkeypatch):
    import dataclasses

    from cardodds import engine

    real, calls = engine.run, []

    def run(*args, **kwargs):  # the second table's run comes back as an interrupted one does
        calls.append(1)
        res = real(*args, **kwargs)
        return dataclasses.replace(res, partial=True) if len(calls) == 2 else res

    monkeypatch.setattr(engine, "run", run)
    r = strategy_table(build=True, samples=50, policies="heuristic", rng=3)
    assert r.partial and [t.name for t in r.tables] == ["lead", "jack"] and len(calls) == 2
