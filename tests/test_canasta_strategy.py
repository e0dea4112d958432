"""Canasta's strategy tables (cardodds.canasta.strategy): each table's cell on hand-built
positions, a position whose action values are known, the kernel's counts against its own
positions counted in Python, the same counts on 1 and 2 threads and on Dask, the shipped copy,
bad input."""

import numpy as np
import pytest

import cardodds
from cardodds.canasta import Position, advise
from cardodds.canasta import _strategy as K
from cardodds.canasta import _table as T
from cardodds.canasta._play import Seats, Table
from cardodds.canasta._position import position
from cardodds.canasta._advise import EQUITY_SCALE, G_LEN, G_TARGET
from cardodds.canasta.cards import KIND_NAMES, N_KINDS, parse_kind
from cardodds.canasta.equity import equity, equity_grid
from cardodds.canasta.policies import resolve_policies
from cardodds.canasta.rules import CanastaRules
from cardodds.canasta.strategy import SHIPPED_SAMPLES, SHIPPED_SEED, TABLES, _FILE, _kept, strategy_table
from cardodds.strategy import add_positions, read_tables, select, summarise, write_tables

RL = CanastaRules().pack()


def _cell(name, t, pick=None):
    """The cell (its labels, or None) of the decision at ``t`` in table ``name``, and each move's action."""
    mv = np.zeros((T.MAX_MOVES, T.MW), np.int64)
    nm = T.gen_moves(t, RL, mv, np.zeros(N_KINDS, np.int64))
    if pick is None:
        pick = next(i for i in range(nm) if mv[i, 0] == T.MV_DISCARD)
    cls = np.zeros(T.MAX_MOVES, np.int64)
    which = [s.name for s in TABLES].index(name)
    c = K.classify(t, RL, mv, nm, pick, which, cls)
    spec = select(TABLES, name)[0]
    return (spec.keys()[c] if c >= 0 else None), mv[:nm], cls[:nm]


def _table(hand, **kw):
    return position(hand, **kw).base


@pytest.mark.parametrize("hand, melds, pile, key", [
    ("K K 9 5 7", "us: A A A", "5 9 K", ("3-5 cards", "no wild, no 3b", "opened", "pair")),
    ("K 9 5 7", "us: K K K", "5 K", ("1-2 cards", "no wild, no 3b", "opened", "our meld")),
    ("K Jk 9 5", None, "2 5 7 8 9 Q K", ("6-9 cards", "a wild", "not opened", "neither")),
    ("K K 9 5", "them: Q Q Q", "Jk", ("1-2 cards", "a wild", "not opened", "neither")),
    ("K K 9 5", "us: A A A", "3b K", ("1-2 cards", "a black 3", "opened", "pair")),
    ("K K 9 5", "us: A A A", "3b 5 2 9 Q 7 8 J 4 K", ("10+ cards", "a wild and a 3b", "opened", "pair")),
])
def test_take_cells(hand, melds, pile, key):
    t = _table(hand, melds=melds, pile=pile, decision="take")
    got, mv, cls = _cell("take", t, pick=0)
    assert got == key
    takes = [m[0] in (T.MV_TAKE_NEW, T.MV_TAKE_ADD) for m in mv]
    assert [c == 1 for c in cls] == takes and any(takes)
    # with the pile no longer to be taken, it is no take decision
    t[T.SA.can_take] = 0
    assert _cell("take", t, pick=0)[0] is None


def test_out_cells_count_canastas_and_the_opponents_cards():
    kw = dict(melds="us: A A A A A A A; them: 8 8 8 8 8 8 8, 9 9 9 9 9 9 9", pile="5", counts=(4, 3, 9),
              known={1: "Q Q J J", 3: "7 7 7 7 6 6 6 6 T"})  # the opponents' hands placed
    t = _table("K K K", **kw)
    key, mv, cls = _cell("out", t, pick=0)
    assert key == ("1", "2+", "12+")
    outs = [(m[0] == T.MV_NEW and m[2] + m[3] + m[4] == 3) for m in mv]
    assert [c == 1 for c in cls] == outs and any(outs) and not all(outs)
    t[T.SA.game:T.SA.game + 2] = (9000, 8500)
    assert _cell("out-game", t, pick=0)[0] == ("ahead 400+", "1", "2+", "12+")
    t[T.SA.game:T.SA.game + 2] = (8000, 8300)
    assert _cell("out-game", t, pick=0)[0] == ("level",) + key
    # in a first turn nobody goes out: no decision
    t[T.SA.turn] = 2
    assert _cell("out", t, pick=0)[0] is None


def test_discard_cells_and_what_each_card_is_to_the_next_player():
    t = _table("K K 9 5 Q 3b Jk", melds="them: 9 9 9", pile="Q", counts=(10, 12, 12), thrown="1: 5",
               decision="discard", known={1: "4 4 4 4 6 6 6 6 7 7"})
    key, mv, cls = _cell("discard", t)
    assert key == ("0-2 cards", "holds 9+", "held")
    spec = select(TABLES, "discard")[0]
    what = {KIND_NAMES[m[1]]: spec.actions[c] for m, c in zip(mv, cls) if m[0] == T.MV_DISCARD}
    assert what == {"K": "from a pair", "9": "on their meld", "5": "they threw it", "Q": "single",
                    "3b": "black 3", "Jk": "wild"}
    # a discard that goes out, or a decision where the player does not discard, is no position
    melds = [i for i, m in enumerate(mv) if m[0] != T.MV_DISCARD]
    assert melds and _cell("discard", t, pick=melds[0])[0] is None
    t1 = _table("K 5", melds="them: 9 9 9", pile="Q", counts=(3, 12, 12), thrown="1: 5", decision="discard",
                known={1: "4 4 6"})
    assert _cell("discard", t1)[0] == ("0-2 cards", "holds 1-4", "none")


def _values(name, t):
    """Each action's record, whether possible and its value at ``t``, as the kernel finds them."""
    spec = select(TABLES, name)[0]
    A = len(spec.actions)
    mv = np.zeros((T.MAX_MOVES, T.MW), np.int64)
    nm = T.gen_moves(t, RL, mv, np.zeros(N_KINDS, np.int64))
    codes, _, _, hp = resolve_policies("heuristic2")
    cls = np.zeros(T.MAX_MOVES, np.int64)
    which = [s.name for s in TABLES].index(name)
    K.classify(t, RL, mv, nm, 0, which, cls)
    acts = K.Actions(np.zeros((K.MAX_ACTIONS, T.MW), np.int64), np.zeros(K.MAX_ACTIONS, np.int64),
                     np.zeros(K.MAX_ACTIONS, np.int64))
    kind = K.Kind(np.int64(which), np.int64(A))
    K.actions(t, RL, mv, nm, hp[0], kind, cls, np.zeros((T.MAX_MOVES, T.MW), np.int64),
              np.zeros(T.MAX_MOVES, np.int64), acts)
    rng = np.array([1, 2, 3, 4], np.uint64)
    table = Table(t.copy(), np.zeros((T.MAX_MOVES, T.MW), np.int64), np.zeros(N_KINDS, np.int64),
                  np.zeros(T.N_VIOL, np.int64))
    game = np.zeros(G_LEN, np.int64)
    game[G_TARGET] = CanastaRules().target
    etab = equity_grid(CanastaRules(), game) if name == "out-game" else np.zeros((0, 0))
    K.play_actions(rng, rng.copy(), table, t, RL, Seats(codes, hp), None, acts, kind, 1, None, (game, etab))
    recs, possible, values = acts
    return recs[:A], possible[:A], values[:A]


def test_a_position_on_an_empty_stock_has_the_values_its_scores_give():
    # The stock is empty: the hand ends at the next player's draw, so each action's score is known.
    t = _table("K K K", melds="us: A A A A A A A; them: 8 8 8 8", pile="5", counts=(2, 1, 2),
               known={1: "5 5", 2: "9", 3: "7 7"})
    t[T.SA.stock_pos] = t[T.SA.deck_size]
    recs, possible, values = _values("out", t)
    assert possible.tolist() == [1, 1]
    assert recs[1].tolist() == [T.MV_NEW, parse_kind("K"), 3, 0, 0]  # go out: meld K K K
    them = -40 - 10 - 10  # 8 8 8 8 without a canasta, 5 5 and 7 7 in hand
    go_out = 500 + 7 * 20 + 30 + 100 - 10  # the clean canasta, its aces, K K K, going out, the partner's 9
    stay = 500 + 7 * 20 - 20 - 10  # K K left in hand after discarding a K
    assert values.tolist() == [stay - them, go_out - them]
    t[T.SA.game:T.SA.game + 2] = (9300, 9500)  # going out takes us to 10,060, them to 9,440: a win
    stay_equity, won = _values("out-game", t)[2]
    assert won == EQUITY_SCALE  # all of the game: 100 in the table's unit
    # staying leaves 9,910 against 9,440: the game goes on, worth the equity table's figure there
    assert abs(stay_equity - _mean_equity(9300 + stay, 9500 + them) * EQUITY_SCALE) <= 0.5
    assert 0 < stay_equity < EQUITY_SCALE


def _mean_equity(us, them):
    """Our side's P(win the game) before the next hand at ``us, them`` by the public lookup, the
    mean of the two sides dealing it."""
    return 0.5 * sum(equity((us, them), dealer=d).win[0].value for d in (0, 1))


#: I go out now (K K K melded, a canasta of aces down), every other hand known: going out scores
#: the same on every deal.
OUT = dict(melds="us: A A A A A A A; them: 8 8 8", decision="out", counts=(1, 1, 1), known={1: "5", 2: "4", 3: "6"})


@pytest.mark.parametrize("score", [(2000, 2500), (9500, 9800)])
def test_going_out_in_out_game_is_worth_100_times_the_advisors_game_equity(score):
    t = _table("K K K", **OUT)
    t[T.SA.game:T.SA.game + 2] = score
    recs, possible, values = _values("out-game", t)
    assert possible.tolist() == [1, 1] and recs[1].tolist() == [T.MV_NEW, parse_kind("K"), 3, 0, 0]
    a = advise(Position("K K K", score=score, **OUT), samples=40, rng=1)
    e = a.figures["equity"][a.options.index("go out: meld K K K")]
    assert e.se == 0 and values[1] == e.value * EQUITY_SCALE
    # the table's figure of that value: 100 x the equity, in percentage points
    spec = select(TABLES, "out-game")[0]
    counts = np.zeros(spec.size, np.int64)
    add_positions(spec, counts, 0, [values[:2]], [np.array([0, 1])])
    assert summarise(spec, counts).cells[0].values["go out"].value == pytest.approx(100 * e.value, abs=1e-12)
    assert (e.value == 1.0) == (score == (9500, 9800))


@pytest.mark.parametrize("name", [s.name for s in TABLES])
def test_the_kernels_counts_are_its_positions_counted_in_python(name):
    spec = select(TABLES, name)[0]
    counts, keep = _kept(name, 150, 7)
    A = len(spec.actions)
    rows = keep[keep[:, K.KEPT.at.cell] >= 0]
    assert len(rows) > 10 and rows[:, K.KEPT.slice("possible")][:, A:].sum() == 0
    twin = np.zeros(spec.size, np.int64)
    for r in rows:
        add_positions(spec, twin, int(r[K.KEPT.at.cell]), [r[K.KEPT.slice("values")][:A]],
                      [r[K.KEPT.slice("possible")][:A]])
    assert counts.tolist() == twin.tolist()
    # every kept position is a decision of its cell, and its table holds every card once
    for r in rows[:20]:
        t = r[K.KEPT.slice("table")]
        cards = t[T.SA.hand:T.SA.hand + T.SEATS * N_KINDS].sum() + t[T.SA.pile_len] + t[T.SA.red3:T.SA.red3 + 2].sum()
        melded = sum(t[T.meld_at(s, sl) + 1:T.meld_at(s, sl) + 4].sum() for s in range(2) for sl in range(T.SLOTS))
        assert cards + melded + t[T.SA.deck_size] - t[T.SA.stock_pos] == 108


def test_same_counts_on_one_and_two_threads_and_a_table_alone_as_in_the_whole():
    one = strategy_table(build=True, samples=600, threads=1, rng=3)
    two = strategy_table(build=True, samples=600, threads=2, rng=3)
    alone = strategy_table("out", build=True, samples=600, rng=3)
    for a, b in zip(one.tables, two.tables):
        assert a.counts.tolist() == b.counts.tolist() and a.counts.any()
    assert alone["out"].counts.tolist() == one["out"].counts.tolist()
    assert one.samples == 600 and one.seed == 3 and one.policies == "heuristic2" and not one.shipped


def test_same_counts_on_dask_local_2():
    here = strategy_table(["take", "discard"], build=True, samples=300, rng=4)
    with cardodds.backend("local:2"):
        there = strategy_table(["take", "discard"], build=True, samples=300, rng=4)
    assert here.to_dict() == there.to_dict()


def test_the_shipped_tables_read_back_and_write_the_same_bytes(tmp_path):
    r = strategy_table()
    assert r.shipped and r.samples == SHIPPED_SAMPLES and r.seed == SHIPPED_SEED and r.policies == "heuristic2"
    assert [t.name for t in r.tables] == [s.name for s in TABLES] and r.rules == CanastaRules()
    assert write_tables(r, tmp_path / "again.json").read_bytes() == _FILE.read_bytes()
    assert read_tables(_FILE, TABLES, CanastaRules())["out"].cells == r["out"].cells
    assert [t.name for t in strategy_table(["discard", "take"]).tables] == ["take", "discard"]
    text = repr(r)
    assert max(len(line) for line in text.splitlines()) <= 100
    for t in r.tables:  # every table has cells with positions, and decided ones
        assert sum(c.positions for c in t.cells) > SHIPPED_SAMPLES // 10 and any(c.decisive for c in t.cells)


def test_the_shipped_copy_is_what_the_build_computes():
    """The cheapest table (``out-game``) rebuilt by the command's function at the shipped
    precision, seed and lineup has exactly the shipped counts, and so the shipped cells."""
    built = strategy_table("out-game", build=True, threads=2)["out-game"]
    shipped = strategy_table("out-game")["out-game"]
    assert built.counts.tolist() == shipped.counts.tolist() and built.cells == shipped.cells


@pytest.mark.parametrize("kw, message", [
    ({"tables": "tke"}, "no strategy table 'tke': the tables are take, out, out-game, discard"),
    ({"rules": CanastaRules(wild_limit="three")}, "rules other than the defaults need build=True"),
    ({"samples": 10}, "samples= needs build=True"),
    ({"rng": 1}, "rng= needs build=True"),
    ({"policies": "heuristic"}, "policies= needs build=True"),
    ({"build": True, "samples": 0}, "samples"),
    ({"build": True, "policies": "nobody", "samples": 5}, "nobody"),
    ({"rules": "three"}, "rules"),
])
def test_bad_input_is_one_clear_error(kw, message):
    tables = kw.pop("tables", None)
    with pytest.raises(ValueError, match=message):
        strategy_table(tables, **kw)


def test_default_rules_given_are_the_shipped_tables():
    assert strategy_table("out", rules=CanastaRules()).shipped


def test_a_position_is_looked_up_in_its_table():
    from cardodds.canasta import Position
    from cardodds.canasta.strategy import lookup

    melds = "us: A A A; them: 8 8 8"
    name, cell = lookup(Position("K K 9 9 5 7 Q Jk 3b", melds=melds, pile="K", pile_size=4, decision="take"))
    assert (name, cell.key) == ("take", ("3-5 cards", "no wild, no 3b", "opened", "pair"))
    assert cell == strategy_table("take")["take"].cell(*cell.key, among=["leave", "take"])
    # the discard: a black 3 held, the next player's 12 cards; the Joker, the K pair and the singles possible
    name, cell = lookup(Position("K K 9 9 5 7 Q Jk 3b", melds=melds, pile="K", pile_size=4))
    assert (name, cell.key) == ("discard", ("3-5 cards", "holds 9+", "held"))
    assert set(cell.values) == {"black 3", "single", "from a pair", "wild"}
    # going out: a clean canasta of ours, none of theirs, 24 cards in the opponents' hands; near the target the
    # out-game table, by the score
    out = Position("K K K", melds="us: A A A A A A A; them: 8 8 8 8", decision="out")
    assert lookup(out)[1].key == ("1", "0", "12+") and lookup(out)[0] == "out"
    near = Position("K K K", melds="us: A A A A A A A; them: 8 8 8 8", decision="out", score=(9000, 8500))
    assert lookup(near)[0] == "out-game" and lookup(near)[1].key == ("ahead 400+", "1", "0", "12+")
    with pytest.raises(ValueError, match="no strategy table is about it"):
        lookup(Position("K K K 9 9 9 5 7 Jk 3b", melds=melds, decision="meld"))
