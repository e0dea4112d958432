"""The Canasta advisor: the position as the player knows it (melds of each side, the pile as
listed, known cards, counts, turn, score), its sampled deals against a rejection-sampling
twin, the figures of each option, the precision, the same figures on any thread count or
backend, and bad input refused in one line by a real ``cardodds`` process."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import numpy as np
import pytest
from numba import njit

from cardodds import engine
from cardodds.canasta import Position, advise
from cardodds.canasta import _advise as A
from cardodds.canasta import _table as T
from cardodds.canasta import _worlds as W
from cardodds.canasta._position import UNKNOWN, position
from cardodds.canasta.rules import CanastaRules
from cardodds.canasta.cards import ACE, BLACK3, JOKER, KING, TWO, parse_kind
from cardodds.rng import child

CANASTAS = "Q Q Q Q Q Q Q, J J J J J J J"
HAND = "K K 9 9 5 7 Q Jk 3b"


RUN = ("samples", "target_halfwidth", "rng", "threads", "policies", "params", "progress", "backend", "margin",
       "budget_seconds", "budget_rounds")


def ask(hand, **kw):
    """``advise`` on the position of ``hand`` and the other keywords (the run's keywords aside)."""
    run = {k: kw.pop(k) for k in RUN if k in kw}
    return advise(Position(hand, **kw), **run)


def _lay(res):
    return A.advice_layout(len(res.options)).view(res.counts)


# ---- the melds belong to the side named ------------------------------------------------------------
def test_our_melds_are_ours_and_theirs_are_theirs():
    """Regression: every meld went to the side left over from an earlier loop ("them")."""
    us = ask(HAND, melds=f"us: {CANASTAS}", pile="K", pile_size=4, samples=200, rng=1)
    them = ask(HAND, melds=f"them: {CANASTAS}", pile="K", pile_size=4, samples=200, rng=1)
    assert [m.value for m in us.figures["margin"]] != [m.value for m in them.figures["margin"]]
    # a side holding two canastas is ahead most of the time
    assert min(a.value for a in us.figures["ahead"]) > 0.75
    assert max(a.value for a in them.figures["ahead"]) < 0.25
    t = position(HAND, melds="us: A A A; them: 8 8 8").base
    eight = parse_kind("8")
    assert t[T.meld_at(0, T.slot_of(ACE)) + 1] == 3 and t[T.meld_at(1, T.slot_of(ACE)) + 1] == 0
    assert t[T.meld_at(1, T.slot_of(eight)) + 1] == 3 and t[T.meld_at(0, T.slot_of(eight)) + 1] == 0
    assert t[T.meld_at(1, T.slot_of(eight)) + 1] == 3 and t[T.SA.opened] == 1 and t[T.SA.opened + 1] == 1


# ---- the pile as listed ------------------------------------------------------------------------------
@pytest.mark.parametrize("pile,size,listed", [
    ("Jk 2 2 A A Q Q 9 K", None, 9),     # every card
    ("5 7 ? ? ? ? K", None, 3),          # a mix, bottom to top
    ("K", 6, 1),                         # the top card and the size
    ("5 7 K", 6, 3),                     # the cards seen go in, three unknown under them
])
def test_every_listed_pile_card_is_in_every_sampled_deal(pile, size, listed):
    n = 300
    a = ask("K K 9 9 5 7 Q Jk 3b 4", melds="us: A A A; them: 8 8 8", pile=pile, pile_size=size,
               counts=(10, 9, 11), decision="take", samples=n, rng=4)
    v = _lay(a)
    cards = size or len(pile.split())
    assert int(v.pile_cards) == n * cards        # the pile keeps its size in every deal
    assert int(v.pile_listed) == n * listed      # and every listed card at its place


def test_a_rich_pile_listed_card_by_card_is_worth_taking():
    rich = ask("K K 9 9 5 7 Q Jk 3b 4", melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A Q Q 9 K",
                  counts=(10, 9, 11), decision="take", samples=300, rng=1)
    leave = rich.options.index("leave the pile")
    assert all(v.lo > 0 for v in [rich.versus_best[leave]])
    assert rich.options[rich.best_index].startswith("take the pile: meld K K")
    two = ask("K K 9 9 5 7 Q Jk 3b 4", pile="Jk 2 2 A A Q Q 9 K", counts=(10, 9, 11), decision="take",
                 options="leave, K K K", samples=20, rng=1)
    assert two.options == ("leave the pile", "take the pile: meld K K K")


def test_pile_forms_and_position():
    p = position("K Q", pile="5 ? K", pile_size=5, counts=(1, 1, 1))
    pile = p.base[T.SA.pile:T.SA.pile + 5].tolist()
    assert pile == [UNKNOWN, UNKNOWN, parse_kind("5"), UNKNOWN, KING] and list(p.pile_slots) == [0, 1, 3]
    assert p.base[T.SA.pile_len] == 5
    assert position("K Q", pile="5 ?", top="K").base[T.SA.pile + 1] == KING  # top= fills a '?' on top


# ---- the sampled deals against a rejection-sampling twin ----------------------------------------------
# Every natural melded and every red 3 laid: the cards not seen are 3 Jokers, 5 twos and 2 black 3s.
SMALL = dict(melds="us: A A A A A A A A, K K K K K K K K, Q Q Q Q Q Q Q Q, J J J J J J J J, 10 10 10 10 10 10 10 10,"
             " 9 9 9 9 9 9 9 9; them: 8 8 8 8 8 8 8 8, 7 7 7 7 7 7 7 7, 6 6 6 6 6 6 6 6, 5 5 5 5 5 5 5 5,"
             " 4 4 4 4 4 4 4 4", red3=(2, 2), pile="? 2 ? 3b", counts=(3, 2, 3), known={1: "Jk"})
SMALL_HAND = "3b 2 2"
KINDS = (JOKER, TWO, BLACK3)


def _category(seats, pile0, pile1, stock):
    """Jokers of seats 1, 2, 3 and the kinds of the two unknown pile cards and the stock card."""
    c = 0
    for s in range(3):
        c = c * 5 + seats[s]
    for k in (pile0, pile1, stock):
        c = c * 3 + (0 if k == JOKER else (1 if k == TWO else 2))
    return c


N_CAT = 5 ** 3 * 27


@njit
def _sampler_kernel(rng, n, out, base, unseen, hidden, slots):
    """A kernel twin of the advisor's sampling: its deals tallied by category."""
    world = np.zeros(base.shape[0], dtype=np.int64)
    u = unseen.copy()
    seats = np.zeros(3, dtype=np.int64)
    for _ in range(n):
        W.deal_world(rng, u, base, world, hidden, slots)
        for s in range(3):
            seats[s] = world[T.hand_at(s + 1, JOKER)]
        c = 0
        for s in range(3):
            c = c * 5 + seats[s]
        stock = world[T.SA.stock + world[T.SA.deck_size] - 1]
        for k in (world[T.SA.pile + slots[0]], world[T.SA.pile + slots[1]], stock):
            c = c * 3 + (0 if k == JOKER else (1 if k == TWO else 2))
        out[c] += 1


def _rejection_twin(n_draws, seed):
    """Deal the cards not seen, the known Joker too (a card of its own), uniformly to every
    hidden place (seats 1, 2, 3 with 3, 2, 3 cards, the two unknown pile cards, the stock);
    keep the deals where that very Joker is in seat 1's hand."""
    cards = np.array([JOKER] * 4 + [TWO] * 5 + [BLACK3] * 2)   # card 0: the Joker seen going to seat 1
    gen = np.random.default_rng(seed)
    perm = np.argsort(gen.random((n_draws, cards.size)), axis=1)
    keep = (perm[:, 0:3] == 0).any(axis=1)
    deals = cards[perm[keep]]
    counts = np.zeros(N_CAT, dtype=np.int64)
    bounds = ((0, 3), (3, 5), (5, 8))
    for d in deals:
        seats = [int((d[a:b] == JOKER).sum()) for a, b in bounds]
        counts[_category(seats, d[8], d[9], d[10])] += 1
    return counts


@pytest.mark.parametrize("hand,extra", [
    (SMALL_HAND, {}),
    ("3s 2h 2h", {}),                                        # cards with their suits: those very cards
    (SMALL_HAND, {"thrown": {1: "2 3b", 3: "Jk"}}),          # discards remembered: no card placed
])
def test_sampled_deals_match_the_rejection_twin(hand, extra):
    from scipy.stats import chi2

    p = position(hand, **SMALL, **extra)
    plain = position(SMALL_HAND, **SMALL)
    assert (p.unseen == plain.unseen).all() and (p.hidden == plain.hidden).all()
    assert sorted(p.unseen.tolist()) == sorted([JOKER] * 3 + [TWO] * 5 + [BLACK3] * 2)
    assert p.hidden.tolist() == [2, 2, 3] and p.base[T.hand_at(1, JOKER)] == 1
    fast = engine.run(_sampler_kernel, (p.base, p.unseen, p.hidden, p.pile_slots), N_CAT, samples=60_000,
                      rng=1).counts
    slow = _rejection_twin(220_000, 2)
    na, nb = fast.sum(), slow.sum()
    assert nb > 50_000
    used = (fast + slow) > 0
    a, b = fast[used], slow[used]
    stat = float((((np.sqrt(nb / na) * a - np.sqrt(na / nb) * b) ** 2) / (a + b)).sum())
    assert chi2.sf(stat, used.sum() - 1) > 1e-3, stat
    # the known Joker is in seat 1 in every sampled deal: at least one Joker there
    seat1 = np.arange(N_CAT) // (5 ** 2 * 27)
    assert fast[seat1 == 0].sum() == 0


# ---- the figures -----------------------------------------------------------------------------------
def test_win_game_json_and_options():
    kw = dict(melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A Q Q 9 K", counts=(10, 9, 11), decision="take",
              samples=60, rng=3)
    a = ask("K K 9 9 5 7 Q Jk 3b 4", score=(9500, 9000), **kw)
    games = a.figures["win_game"]
    assert all(g is not None for g in games) and max(g.value for g in games) > 0.2
    assert "win_game" not in ask("K K 9 9 5 7 Q Jk 3b 4", **kw).figures
    d = json.loads(json.dumps(a.to_dict()))
    for key in ("rules", "samples", "seed", "partial", "version"):
        assert key in d
    assert d["position"]["pile"] == "Jk 2 2 A A Q Q 9 K" and d["position"]["score"] == [9500, 9000]
    o = d["options"][0]
    # every option played on the run's deals (a fixed run: one look of the verdict)
    assert set(o) == {"option", "margin", "ahead", "equity", "win_game", "versus_best", "same_as_best", "worlds"}
    assert [x["worlds"] for x in d["options"]] == [60] * len(a.options)
    assert d["ranked_by"] == "equity" and "clearly_worse" in d and d["verdict"] == a.verdict
    assert d["decision"]["kind"] == a.decision.kind and d["decision"]["unit"] == "P(win)"
    assert d["unit"] == "P(we win the game) after this hand (the game equity)" and d["command"] == str(a.position)
    assert Position(**d["position"]) == a.position
    assert set(o["margin"]) == {"value", "se", "lo", "hi"}
    two = ask(HAND, options="K, 9", samples=20, rng=1)
    assert two.options == ("discard 9", "discard K")
    with pytest.raises(ValueError, match="does not apply to the discard decision"):
        ask(HAND, options="A", samples=20, rng=1)


def test_precision_is_reached_for_the_best_two():
    a = ask(HAND, melds="us: A A A; them: 8 8 8", options="K,3b", target_halfwidth=60.0, rng=2)
    i = a.best_index
    j = 1 - i
    assert a.versus_best[j].halfwidth <= 60.0 and a.samples >= 16
    # two options that play alike on every deal (the Joker goes down now or later) are one:
    # the precision is reached against the other one
    b = ask(HAND, melds="us: A A A; them: 8 8 8", pile="K", pile_size=4, decision="take",
               options="K K Jk, K K K Jk, K K K", target_halfwidth=50.0, rng=2)
    rivals = [v for i, v in enumerate(b.versus_best) if i != b.best_index and not b.same_as_best(i)]
    assert len(rivals) >= 1 and all(v.halfwidth <= 50.0 for v in rivals) and b.samples > 100


def test_same_figures_on_one_and_two_threads():
    kw = dict(melds="us: A A A; them: 8 8 8", pile="K", pile_size=5, samples=150, rng=9)
    one = ask(HAND, threads=1, **kw)
    two = ask(HAND, threads=2, **kw)
    assert (one.counts == two.counts).all() and one.to_dict() == two.to_dict()


def test_same_figures_on_one_and_two_threads_to_a_precision():
    kw = dict(melds="us: A A A; them: 8 8 8", options="K,3b", target_halfwidth=80.0, rng=4)
    one = ask(HAND, threads=1, **kw)
    two = ask(HAND, threads=2, **kw)
    assert one.samples == two.samples and (one.counts == two.counts).all()


def test_same_figures_on_dask():
    pytest.importorskip("distributed")
    kw = dict(melds="us: A A A; them: 8 8 8", pile="K", pile_size=5, samples=150, rng=9)
    here = ask(HAND, threads=1, **kw)
    there = ask(HAND, backend="local:2", **kw)
    assert (here.counts == there.counts).all()


def test_turn_checks_the_cards_out():
    # 48 dealt + upcard + 9 draws (turn 8 and mine) = 58 out: 9 + 6 + 4 + 39
    ask(HAND, melds="us: A A A; them: 8 8 8", pile="K", pile_size=4, counts=(13, 13, 13), turn=8, samples=5,
           rng=1)
    with pytest.raises(ValueError, match="cards out, but turn=8 gives 58"):
        ask(HAND, melds="us: A A A; them: 8 8 8", pile="K", pile_size=4, counts=(12, 12, 12), turn=8)


# ---- bad input on a real process ---------------------------------------------------------------------
BASE = ["canasta", "advise", "--hand", HAND, "--samples", "5", "--seed", "1"]
BAD = [
    (["--margin", "x"], "--margin: x must be points >= 0"),
    (["--margin", "25,2"], "P(win) in 0..1"),
    (["--budget-seconds", "0"], "--budget-seconds: 0 must be a finite number above 0"),
    (["--budget-rounds", "11"], "--budget-rounds: 11 is outside 1..10"),
    (["--melds", "us: K K K K K K K"], "K cards are given than the 108-card pack"),
    (["--known", "1: Jk Jk Jk Jk"], "Jk cards are given than the 108-card pack"),
    (["--melds", "us: K 2 2"], "not a legal meld"),
    (["--pile", "5 7 K", "--pile-size", "2"], "contradicts the pile listed"),
    (["--counts", "60,60,60"], "--counts"),
    (["--pile", "3b", "--decision", "take"], "a black 3 on top blocks the pile"),
    (["--options", "A"], "does not apply to the discard decision"),
    (["--turn", "8"], "cards out, but --turn 8 gives"),
    (["--known", "1: K K", "--counts", "1,12,12"], "known: seat 1 holds 1 cards"),
    (["--score", "x"], "--score"),
]


@pytest.mark.parametrize("extra,words", BAD)
def test_bad_input_is_one_line_exit_2(extra, words):
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", *BASE, *extra], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.count("\n") == 1 and words in p.stderr, p.stderr


# ---- going out, melding now or holding -----------------------------------------------------------
def test_go_out_with_a_canasta_when_ahead():
    # Our side holds a clean canasta; my three kings meld and go out: +100 and their hands count
    # against them, where staying in gives them turns to catch up.
    a = ask("K K K", melds="us: A A A A A A A; them: 8 8 8", decision="out", samples=300, rng=1)
    assert a.options == ("stay in (do not go out this turn)", "go out: meld K K K")
    assert a.best == "go out: meld K K K" and a.figures["ahead"][1].value > 0.95
    one = ask("K", melds="us: A A A A A A A, K K K; them: 8 8 8", decision="out", samples=50, rng=1)
    assert all(o.startswith("go out") for o in one.options)  # every move goes out: no staying in
    with pytest.raises(ValueError, match="no one move empties this hand"):
        ask("K K K 9", melds="us: A A A A A A A", decision="out", samples=10)


def test_meld_or_hold_and_the_moves_each_allows():
    a = ask("K K K 9 9 9 5 7 Jk 3b", melds="us: A A A; them: 8 8 8", decision="meld", samples=100, rng=1)
    assert a.options[0] == "hold (no new meld this turn)" and "meld K K K" in a.options
    with pytest.raises(ValueError, match="can lay no new meld"):
        ask("K Q 9 5", melds="us: A A A", decision="meld", samples=10)
    t = position("K K K 9 9 9 5 Jk", melds="us: A A A A A A A").base
    rl = CanastaRules().pack()
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    work = np.zeros(15, dtype=np.int64)
    nm = T.gen_moves(t, rl, mv, work)
    assert {int(x) for x in mv[:nm, 0]} >= {T.MV_NEW, T.MV_DISCARD}
    held = W.allowed(t, mv, nm, W.OPT_HOLD)
    assert {int(x) for x in mv[:held, 0]} == {T.MV_DISCARD}
    short = position("K K K", melds="us: A A A A A A A").base
    nm = T.gen_moves(short, rl, mv, work)
    stay = W.allowed(short, mv, nm, W.OPT_STAY)
    assert 0 < stay < nm and all(mv[i, 0] != T.MV_NEW or mv[i, 2] + mv[i, 3] + mv[i, 4] < 3 for i in range(stay))


def test_a_black_3_is_the_safe_discard_and_a_joker_the_worst():
    # A black 3 blocks the pile for the next player and counts -100 if kept; a Joker thrown
    # feeds the opponents a wild card.
    a = ask(HAND, melds="us: A A A; them: 8 8 8", pile="K", pile_size=5, options="3b, Jk", samples=600, rng=6)
    assert a.best == "discard 3b"


# ---- the position as the player knows it, checked ------------------------------------------------
MORE_BAD = [
    (["--margin", "x"], "--margin: x must be points >= 0"),
    (["--margin", "25,2"], "P(win) in 0..1"),
    (["--budget-seconds", "0"], "--budget-seconds: 0 must be a finite number above 0"),
    (["--budget-rounds", "11"], "--budget-rounds: 11 is outside 1..10"),
    (["--hand", "Kh Kh Kh 5 6"], "card Kh is given 3 times; the pack holds two of each card"),
    (["--hand", "K K 9", "--melds", "us: 9h 9h 9h"], "card 9h is given 3 times"),
    (["--score", "12000,3000"], "the game is over"),
    (["--score", "10000,9995"], "the game is over"),
    (["--score", "4501,4000"], "every Canasta score is a multiple of 5"),
    (["--counts", "0,12,12"], "seat 1 (left opponent) holds no cards"),
    (["--turn", "0", "--counts", "12,12,14", "--pile", "K", "--pile-size", "3", "--decision", "discard"],
     "pile: 3 cards, but 0 turns before mine leave at most 1"),
    (["--turn", "0", "--hand", "K K 9 9 5 7 Q Jk 3b 4", "--melds", "them: 8 8 8", "--counts", "12,12,12",
      "--pile", "K"], "the opponents have not played yet"),
    (["--turn", "1", "--hand", "K K 9 9 5 7 Q Jk 3b 4 6 6 5", "--counts", "11,12,13", "--pile", "K 5",
      "--decision", "discard"], "seat 1 (left opponent) has not played yet"),
    (["--turn", "2", "--hand", "K K 9 9 5 7 Q Jk 3b 4 6 6 5", "--counts", "12,12,12", "--pile", "K 5 6",
      "--decision", "discard", "--thrown", "1: 5 5"], "thrown: seat 1 (left opponent) threw 2 cards"),
    (["--thrown", "1: 5", "--policies", "heuristic"], "only heuristic2 and lookahead remember the discards"),
    (["--thrown", "5: 5"], "thrown: seat '5' is not one of the seats"),
    (["--precision", "0.0001"], "a precision finer than 1 point"),
]


@pytest.mark.parametrize("extra,words", MORE_BAD)
def test_impossible_positions_are_refused_in_one_line(extra, words):
    p = subprocess.run([sys.executable, "-m", "cardodds.cli", *[x for x in BASE if x not in ("--samples", "5")
                                                                  or "--precision" not in extra],
                        *extra], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "", p.stderr
    assert p.stderr.count("\n") == 1 and words in p.stderr, p.stderr


def test_no_error_line_is_cut_short():
    """Every refusal fits its line whole: the fix it names is never cut off."""
    from cardodds._cliutil import MAX_ERROR

    for extra, _words in BAD + MORE_BAD:
        p = subprocess.run([sys.executable, "-m", "cardodds.cli", *BASE, *extra], capture_output=True, text=True)
        line = p.stderr.strip()
        assert len(line) < MAX_ERROR and not line.endswith("..."), line


def test_a_card_with_its_suit_is_that_card():
    plain = position("K K 9 5", pile="K K", counts=(12, 11, 12))
    suited = position("Kh Kd 9c 5", pile="Kh Ks", counts=(12, 11, 12))
    assert (plain.base == suited.base).all() and (plain.unseen == suited.unseen).all()
    position("Kh Kh K K K K", pile="K K", counts=(12, 11, 12))  # eight kings: two of them the Kh pair
    with pytest.raises(ValueError, match="card Kh is given 3 times"):
        position("Kh Kh 9", known={1: "Kh"}, counts=(12, 11, 12))


def test_thrown_cards_feed_heuristic2s_memory():
    t = position(HAND, thrown="1: 9 5; 0: Q").base
    assert t[T.SA.threw + 1 * 15 + parse_kind("9")] == 1 and t[T.SA.threw + parse_kind("Q")] == 1
    assert t[T.SA.discarded + parse_kind("5")] == 1
    kw = dict(melds="us: A A A; them: 8 8 8", pile="K", pile_size=5, samples=200, rng=3)
    # my left opponent threw a 9: heuristic2 throws 9s to it sooner, and the play-outs differ
    a, b = ask(HAND, **kw), ask(HAND, thrown="1: 9 9", **kw)
    assert (a.counts != b.counts).any()


def test_a_card_thrown_twice_is_remembered_twice():
    # five black 3s thrown by a 108-card pack's four: one was taken with the pile and thrown again
    t = position(HAND, thrown="1: 3b 3b 3b; 3: 3b 3b", turn=20, pile_size=5, counts=(15, 16, 15),
                 melds="us: A A A; them: 8 8 8, 5 5 5 5").base
    assert t[T.SA.discarded + BLACK3] == 5 and t[T.SA.threw + 3 * 15 + BLACK3] == 2


# ---- ranked by what is at stake ------------------------------------------------------------------
def test_with_the_score_the_options_are_ranked_by_the_game_equity():
    kw = dict(melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A ? ? 9 K", counts=(10, 9, 11), known={1: "Q Q"},
              decision="take", options="K K Jk, K K K, leave", samples=300, rng=1)
    a = ask("K K 9 9 5 7 Q Jk 3b 4", score=(9200, 8800), **kw)
    assert a.ranked_by == "equity" and a.policies == ("heuristic2",) * 4
    b = a.best_index
    games, margin = a.figures["equity"], a.figures["margin"]
    assert games[b].value == max(g.value for g in games)
    for j in range(len(a.options)):  # the paired differences are the differences of the figures, exactly
        assert a.versus_best[j].value == pytest.approx(games[b].value - games[j].value, abs=1e-12)
        assert a.difference(b, j, "margin").value == pytest.approx(margin[b].value - margin[j].value, abs=1e-9)
    assert "leave the pile" in a.clearly_worse
    points = ask("K K 9 9 5 7 Q Jk 3b 4", **kw)
    assert points.ranked_by == "margin" and points.options[points.best_index] == max(
        points.options, key=lambda o: points.figures["margin"][points.options.index(o)].value)
    # far from the target no option wins the game this hand, yet the game equity still ranks them
    far = ask("K K 9 9 5 7 Q Jk 3b 4", score=(2000, 2500), **kw)
    assert far.ranked_by == "equity" and all(g.value == 0 for g in far.figures["win_game"])
    assert all(0.1 < e.value < 0.9 for e in far.figures["equity"]) and "leave the pile" in far.clearly_worse


def test_lookahead_plays_the_options_out_on_one_and_two_threads():
    kw = dict(melds="us: A A A; them: 8 8 8", pile="K", pile_size=4, options="K,3b",
              policies="lookahead,heuristic2,heuristic2,heuristic2", samples=6, rng=2)
    one, two = ask(HAND, threads=1, **kw), ask(HAND, threads=2, **kw)
    assert (one.counts == two.counts).all() and one.policies[0] == "lookahead"


def test_the_text_fits_100_columns_and_wide_holds_the_rest():
    from cardodds.canasta.cli import advice_text

    for kw in (dict(score=(9200, 8800)), {}):
        a = ask("K K 9 9 5 7 Q Jk 3b 4", melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A ? ? 9 K",
                   counts=(10, 9, 11), decision="take", samples=200, rng=1, **kw)
        text = advice_text(a)
        assert max(len(line) for line in text.splitlines()) <= 100, text
        assert "players: heuristic2 at every seat" in text and "points" in text
        wide = advice_text(a, wide=True)
        assert "P(our side ahead)" in wide and "points against the best" in wide
    b = ask("K K K", melds="us: A A A A A A A; them: 8 8 8", decision="out", samples=200, rng=3)
    assert "loses" in advice_text(b) and "against the best" in advice_text(b)


# ---- the verdict -----------------------------------------------------------------------------------
OUT = dict(melds="us: A A A A A A A; them: 8 8 8", decision="out")
DISCARD = dict(melds="us: A A A; them: 8 8 8", pile="K", pile_size=6, counts=(10, 9, 11), decision="discard")


def test_by_default_rounds_of_deals_until_a_verdict():
    from cardodds.canasta._defaults import ADVISE_MARGIN, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS

    a = ask(HAND, rng=1, budget_seconds=None, **DISCARD)
    d = a.decision
    assert d.planned_rounds == ADVISE_ROUNDS > 1 and d.kind in ("best", "equal") and not d.budget_limited
    assert a.samples == sum(ADVISE_ROUND_WORLDS << r for r in range(d.rounds)) == max(a.worlds)
    assert d.margin == ADVISE_MARGIN[0] and d.unit == "points" and a.ranked_by == "margin"
    # an option shown to lose is played no more: fewer deals than the run's
    assert d.excluded and any(a.worlds[i] < a.samples for i in d.excluded)
    for i in range(len(a.options)):  # each option's figures rest on the deals it was played on
        assert a.figures["margin"][i].n == a.figures["ahead"][i].n == a.worlds[i]
        for j in range(i + 1, len(a.options)):
            assert a.difference(i, j).n == min(a.worlds[i], a.worlds[j])
    # the options played on the first round's deals alone have that round's figures: those of a run
    # of every option on the same deals (the round's seed: rng.child(seed, 0))
    first = ask(HAND, samples=ADVISE_ROUND_WORLDS, rng=child(np.random.SeedSequence(1), 0), **DISCARD)
    once = [i for i in range(len(a.options)) if a.worlds[i] == ADVISE_ROUND_WORLDS]
    assert once
    for i in once:
        assert a.figures["margin"][i] == first.figures["margin"][i]
        assert a.figures["ahead"][i] == first.figures["ahead"][i]


def test_the_same_verdict_and_figures_on_one_and_two_threads():
    kw = dict(rng=7, budget_seconds=None, budget_rounds=4, **DISCARD)
    one, two = ask(HAND, threads=1, **kw), ask(HAND, threads=2, **kw)
    assert one.decision.rounds == 4 or one.decision.kind != "undecided"
    assert one.decision == two.decision and one.decision.means == two.decision.means
    assert (one.counts == two.counts).all() and one.to_dict() == two.to_dict()


def test_the_same_verdict_on_dask():
    pytest.importorskip("distributed")
    kw = dict(rng=7, budget_seconds=None, budget_rounds=3, **DISCARD)
    here, there = ask(HAND, threads=1, **kw), ask(HAND, backend="local:2", **kw)
    assert here.decision == there.decision and (here.counts == there.counts).all()


def test_a_clearly_best_option_is_named_best():
    # going out with a clean canasta down, ahead: +100 and their hands count against them
    a = ask("K K K", rng=2, budget_seconds=None, **OUT)
    d = a.decision
    assert a.best == "go out: meld K K K" and d.kind == "best" and d.excluded == (0,)
    assert d.loss[0][0] > 300 and a.verdict.startswith("best: go out: meld K K K; stay in")
    # a black 3 blocks the pile and counts -100 if kept; a Joker thrown feeds them a wild card
    b = ask(HAND, melds="us: A A A; them: 8 8 8", pile="K", pile_size=5, options="3b, Jk", rng=6, budget_seconds=None)
    assert b.best == "discard 3b" and b.clearly_worse == ["discard Jk"]


def test_with_samples_one_look_by_the_same_rule():
    a = ask(HAND, samples=400, rng=3, **DISCARD)
    d = a.decision
    assert d.planned_rounds == d.rounds == 1 and a.worlds == (400,) * len(a.options) and d.seed == a.seed == 3
    assert d.excluded and (d.kind == "best") == (len(d.group) == 1)
    for i in d.excluded:  # simultaneous: wider than the option's own 95% paired interval, around the same mean
        lo, hi = d.loss[i]
        v = a.versus_best[i]
        assert lo <= v.value <= hi and hi - lo > v.hi - v.lo and hi > 0
    top = d.top
    assert a.best_index == top and a.figures["margin"][top].value == max(a.figures["margin"][i].value for i in d.group)
    # a wider margin makes options equal that a narrow one cannot tell apart
    wide = ask(HAND, samples=400, rng=3, margin=(2000, 0.01), **DISCARD)
    assert wide.decision.kind == "equal" and wide.best is None and wide.decision.margin == 2000
    assert wide.verdict.startswith("best: discard ") and "(within 2000 points of each other)" in wide.verdict


def test_with_a_score_the_verdict_is_on_the_game_equity():
    kw = dict(melds="us: A A A; them: 8 8 8", pile="Jk 2 2 A A ? ? 9 K", counts=(10, 9, 11), known={1: "Q Q"},
              decision="take", rng=1, budget_seconds=None, budget_rounds=3)
    a = ask("K K 9 9 5 7 Q Jk 3b 4", score=(9200, 8800), **kw)
    d = a.decision
    assert a.ranked_by == "equity" and d.unit == "P(win)" and d.margin == 0.01
    assert "leave the pile" in a.clearly_worse
    assert d.means[d.top] == pytest.approx(a.figures["equity"][d.top].value)
    points = ask("K K 9 9 5 7 Q Jk 3b 4", **kw)
    assert points.ranked_by == "margin" and points.decision.unit == "points" and points.decision.margin == 25


def test_margin_and_budget_are_checked():
    p = Position(HAND, **DISCARD)
    for bad, words in ((dict(margin=-1), "margin=-1 must be points a hand >= 0"),
                       (dict(margin=(25, 2)), "P(win) in 0..1"), (dict(margin="25"), "margin='25'"),
                       (dict(budget_seconds=0), "budget_seconds=0 must be"),
                       (dict(budget_rounds=0), "budget_rounds=0 must be")):
        with pytest.raises(ValueError, match=re.escape(words)):
            advise(p, samples=5, **bad)


def test_the_command_prints_each_options_deals_and_the_verdict(capsys):
    from cardodds.cli import main

    argv = ["canasta", "advise", "--hand", HAND, "--melds", "us: A A A; them: 8 8 8", "--pile", "K", "--pile-size",
            "6", "--counts", "10,9,11", "--decision", "discard", "--seed", "1", "--budget-rounds", "2",
            "--budget-seconds", "86400"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    r = ask(HAND, rng=1, budget_rounds=2, budget_seconds=None, **DISCARD)
    assert max(len(line) for line in out.splitlines()) <= 100
    header = next(line for line in out.splitlines() if line.startswith("  option"))
    assert f"{r.samples:,} sampled deals in 2 rounds, seed 1" in out and header.endswith("deals")
    assert " ".join(r.verdict.split()) in " ".join(out.split())
    for i in r.decision.excluded:
        lo, hi = r.decision.loss[i]  # shown to lose to an option left, by this much against the best
        assert (f"loses {lo:.0f} to {hi:.0f} points" if round(lo) else f"loses up to {hi:.0f} points") in out
    assert main(argv + ["--json", "--margin", "30,0.02"]) == 0
    d = json.loads(capsys.readouterr().out)["decision"]
    r = ask(HAND, rng=1, budget_rounds=2, budget_seconds=None, margin=(30, 0.02), **DISCARD)
    assert d["kind"] == r.decision.kind and d["group"] == [r.options[i] for i in r.decision.group]
    assert d["margin"] == 30 and [w["worlds"] for w in d["worlds"]] == list(r.worlds) and d["rounds"] == 2
