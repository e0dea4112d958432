"""Kanalje advice (``kanalje.advise``, ``cardodds kanalje advise``): the hidden hands against a
rejection-sampling twin, random play against exact enumeration, the same figures on any
number of threads and on Dask, every bad position refused in one line by a real process."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter

import numpy as np
import pytest
from scipy import stats as sps

from cardodds.cards import card_str, format_cards, parse_card
from cardodds.advice import AdviceResult
from cardodds.kanalje import KanaljeRules, Position
from cardodds.kanalje import advise as _advise
from cardodds.kanalje import _advise as KA
from cardodds.kanalje._defaults import ADVISE_POLICIES
from cardodds.kanalje._position import check_position as _check_position
from cardodds.kanalje.advise import cost_words, jacks
from cardodds.rng import as_seed_sequence, chunk_state

from .naive_kanalje_advise import (State, consistent_deals, likelihood, play_random, posterior, random_value,
                                   random_value_inferred, rejection_deal, replay, suit)


#: What a :class:`~cardodds.kanalje.Position` reads; the rest goes to ``advise``.
POSITION = ("seat", "hand", "turned", "played", "trump", "faceup", "dead", "rules", "infer", "lookahead_samples")


def advise(**kw):
    """``advise`` of the position in ``kw`` with heuristic players unless told otherwise: these
    tests pin the heuristic play-out (exact twins, interchangeable cards); the default lineup is
    tested on its own."""
    pos = Position(**{k: v for k, v in kw.items() if k in POSITION})
    return _advise(pos, **{"policies": "heuristic", **{k: v for k, v in kw.items() if k not in POSITION}})


def cards(r):
    """An advice's options as card codes."""
    return [parse_card(o) for o in r.options]


def random_position(seed: int, left: int, in_trick: int):
    """A position of a random deal played at random (Python twin): ``left`` tricks still to
    start, ``in_trick`` cards of the current trick played; ``(seat, mine, turned, played)``."""
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(52)]
    hands = [set(deck[17 * i:17 * i + 17]) for i in range(3)]
    turned = deck[51]
    st = State(suit(turned), turned)
    played = play_random(rng, st, hands, 3 * (17 - left) + in_trick)
    seat = st.to_play()
    return seat, sorted(hands[seat]), turned, played


def text(played) -> str:
    return "; ".join(f"{lead}: {format_cards(cs)}" for lead, cs in played)


def with_void(left: int, in_trick: int, start: int = 0, min_deals: int = 4):
    """The first random position from seed ``start`` on in which a hidden seat showed a void
    that leaves cards forced into the other hidden hand, with ``min_deals`` consistent deals or more."""
    for seed in range(start, start + 500):
        seat, mine, turned, played = random_position(seed, left, in_trick)
        st = replay(turned, played)
        a, b = (seat + 1) % 3, (seat + 2) % 3
        unseen = set(range(52)) - set(mine) - st.played - {turned}
        if any(suit(c) in st.void[a] | st.void[b] for c in unseen) \
                and len(consistent_deals(st, seat, mine)) >= min_deals:
            return seed, seat, mine, turned, played
    raise AssertionError("no such position")


# ---- the hidden hands --------------------------------------------------------------------------
@pytest.mark.parametrize("left,in_trick", [(4, 0), (4, 2), (5, 1)])
def test_hidden_hands_match_rejection_twin_and_exact_uniform(left, in_trick):
    seed, seat, mine, turned, played = with_void(left, in_trick)
    pos = _check_position(seat, mine, card_str(turned), text(played), KanaljeRules())
    st = replay(turned, played)
    deals = consistent_deals(st, seat, mine)
    assert len(deals) > 1
    index = {ha: i for i, (ha, _) in enumerate(deals)}
    n = 20_000
    hands = np.zeros((n, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(seed)[0], 0), n, pos.table, pos.deal, hands, None)
    assert (hands[:, KA.WEIGHT] == 1).all()
    kernel: Counter = Counter()
    possible = set(deals)
    for ha_mask, hb_mask, _ in hands:
        ha = frozenset(c for c in range(52) if (int(ha_mask) >> c) & 1)
        hb = frozenset(c for c in range(52) if (int(hb_mask) >> c) & 1)
        assert (ha, hb) in possible, "a sampled deal contradicts the position"
        kernel[index[ha]] += 1
    rng = np.random.default_rng(seed)
    twin = Counter(index[rejection_deal(rng, st, seat, mine)[0]] for _ in range(n))
    k = [kernel[i] for i in range(len(deals))]
    t = [twin[i] for i in range(len(deals))]
    assert sps.chisquare(k).pvalue > 1e-3  # uniform over the consistent deals
    assert sps.chisquare(t).pvalue > 1e-3
    assert sps.chi2_contingency(np.array([k, t])).pvalue > 1e-3  # the kernel and the twin agree


# ---- random play against exact enumeration --------------------------------------------------
@pytest.mark.parametrize("seed,left,in_trick", [(11, 2, 0), (12, 2, 1), (13, 2, 2), (14, 3, 1), (15, 1, 2)])
def test_random_play_matches_exact_enumeration(seed, left, in_trick):
    seat, mine, turned, played = random_position(seed, left, in_trick)
    st = replay(turned, played)
    r = advise(seat=seat, hand=mine, turned=card_str(turned), played=text(played), policies="random",
               samples=20_000, rng=seed)
    assert r.samples == 20_000 and len(r.options) >= 1
    for card, e in zip(cards(r), r.value):
        exact = random_value(st, seat, mine, card)
        assert abs(e.value - exact) <= max(4 * e.se, 1e-12), (card_str(card), e, exact)


def test_voids_shown_reach_the_figures():
    """Random play on a position whose hidden hands are constrained by voids: the exact value
    averages over the consistent deals only."""
    seed, seat, mine, turned, played = with_void(3, 1, start=100)
    st = replay(turned, played)
    r = advise(seat=seat, hand=mine, turned=card_str(turned), played=text(played), policies="random",
               samples=20_000, rng=5)
    for card, e in zip(cards(r), r.value):
        assert abs(e.value - random_value(st, seat, mine, card)) <= max(4 * e.se, 1e-12)


# ---- hand-built verdicts -------------------------------------------------------------------------
LATE = dict(seat=1, hand="Kc 7c 4s", turned="Qc",
            played="0: 2h 7h Qh; 2: Ad 6d Qd; 2: Kd 4d 9d; 2: Td Jh 8d; 2: 2d Js 5d; 1: Ah Kh Th; 1: 9h 5h 8h; "
                   "1: As 5s Ts; 1: Ks 2s 9s; 1: Qs Jd 8s; 1: 3s 7d 5c; 0: 6h 7s 4h; 0: 3h 6s 2c; 2: 3d Ac Jc; 0: 8c")


@pytest.mark.parametrize("policies", ["heuristic", "random"])
def test_the_top_trump_takes_the_trick(policies):
    # 8c led, clubs trump, Ac played and Qc turned: my Kc takes the trick for sure, the 7c cannot.
    r = advise(**LATE, policies=policies, samples=4_000, rng=3)
    assert r.options == ("7c", "Kc") and r.best == "Kc"
    assert r.versus_best[0].lo > 0 and r.versus_best[1].value == 0


def test_the_last_card():
    seat, mine, turned, played = random_position(21, 1, 1)
    assert len(mine) == 1
    r = advise(seat=seat, hand=mine, turned=card_str(turned), played=text(played), samples=500, rng=1)
    assert r.best == card_str(mine[0]) and r.verdict.endswith("(the only legal card)")
    exact = random_value(replay(turned, played), seat, mine, mine[0])
    assert abs(r.value[0].value - exact) <= max(4 * r.value[0].se, 1e-12)


def test_first_lead_every_card_and_jacks_out():
    hand = "6d Jh 6h Js Ac 3h 9s Tc 9c 8c Th 4d Ts 8s 5c 8h 2h"
    r = advise(seat=0, hand=hand, turned="Jc", samples=2_000, rng=1)
    assert sorted(r.options) == sorted(hand.split())
    # the turned J♣ is dead: the other three jacks are still out, J♥ and J♠ in my hand
    assert set(jacks(r)[0]) == {"spades", "diamonds", "hearts"}
    i = r.options.index("Jh")
    assert jacks(r)[i]["hearts"].value > 0.5 and r.value[i].value == min(e.value for e in r.value)
    last = advise(seat=0, hand=hand, turned="Jc", rules=KanaljeRules(turned_jack="last_trick"), samples=200, rng=1)
    assert "clubs" in jacks(last)[0]


# ---- the result ------------------------------------------------------------------------------------
def test_result_dict_frame_and_repr():
    r = advise(**LATE, samples=1_000, rng=7)
    assert isinstance(r, AdviceResult)
    d = json.loads(json.dumps(r.to_dict()))
    for key in ("rules", "samples", "seed", "partial", "version", "policies", "position", "command", "unit",
                "ranked_by", "best", "verdict", "options"):
        assert key in d
    p = d["position"]
    assert p["seat"] == 1 and p["turned"] == "Qc" and p["played"].endswith("0: 8c") and d["best"] == "Kc"
    assert d["command"] == str(r.position) and d["unit"] == "points a deal" and d["ranked_by"] == "score"
    assert d["policies"] == ["heuristic"] * 3 and d["samples"] == 1_000 and d["seed"] == 7
    o = d["options"][1]
    assert o["option"] == "Kc" and {"score", "tricks", "penalty", "versus_best"} <= set(o)
    assert {k for k in o if k.startswith("takes J of")} == {f"takes J of {s}" for s in jacks(r)[1]}
    for e in (o["score"], o["tricks"], o["penalty"], o["versus_best"]):
        assert set(e) == {"value", "se", "lo", "hi"}
    f = r.to_frame()
    assert list(f.index) == ["7c", "Kc"] and "score" in f.columns
    assert "play Kc" in repr(r)


def test_precision_runs_until_the_two_best_are_known():
    r = advise(**LATE, target_halfwidth=0.01, rng=2)
    assert r.versus_best[0].halfwidth <= 0.01


def test_same_seed_same_figures_on_threads_and_dask():
    same_everywhere(seat=0, hand="6d Jh 6h Js Ac 3h 9s Tc 9c 8c Th 4d Ts 8s 5c 8h 2h", turned="Qc", samples=2_500,
                    rng=9)


def test_the_default_players_same_figures_on_threads_and_dask():
    # the advisor's default plays out with look-ahead players: a search at every seat
    same_everywhere(policies=ADVISE_POLICIES, **LATE, samples=12, rng=4)
    same_everywhere(policies=ADVISE_POLICIES, seat=0, hand="Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s",
                    turned="7h", samples=4, rng=5)


def test_a_pimc_lineup_same_figures_on_threads_and_dask():
    # pimc calls its exact search through a pointer in the lineup's calls: a Dask worker gets it too
    same_everywhere(seat=0, hand="Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", turned="7h",
                    policies="pimc", samples=2, lookahead_samples=2, rng=5)


def same_everywhere(call=advise, **kw):
    """``call(**kw)`` gives the same counts on 1 and 2 threads and on two Dask workers."""
    one = call(**kw, threads=1)
    two = call(**kw, threads=2)
    assert (one.counts == two.counts).all() and one.to_dict() == two.to_dict()
    pytest.importorskip("distributed")
    dask = call(**kw, backend="local:2")
    assert (dask.counts == one.counts).all()


def test_user_and_lookahead_policies():
    from numba import njit

    from cardodds.kanalje.view import lowest

    @njit
    def lowest_card(state, seat, view, legal):
        return lowest(legal)

    r = advise(**LATE, policies=[lowest_card, "heuristic", "lookahead"], lookahead_samples=2, samples=40, rng=1)
    assert r.policies == ("user", "heuristic", "lookahead") and r.violations == 0 and r.samples == 40
    assert r.value[1].value >= r.value[0].value  # the top trump takes the trick


# ---- inference ------------------------------------------------------------------------------------
def weighted_frequencies(cells, weights, k: int):
    """Each cell's share of the weight, and its standard error (delta method)."""
    cells, weights = np.asarray(cells), np.asarray(weights, dtype=float)
    w = np.bincount(cells, weights, minlength=k)
    w2 = np.bincount(cells, weights ** 2, minlength=k)
    total = w.sum()
    p = w / total
    return p, np.sqrt(w2 * (1 - p) ** 2 + (w2.sum() - w2) * p ** 2) / total


@pytest.mark.parametrize("seed,left,in_trick", [(0, 3, 1), (6, 4, 0), (4, 4, 2)])
def test_inferred_worlds_match_the_weighted_rejection_twin(seed, left, in_trick):
    """Random players: the worlds the kernel keeps are distributed as the rejection twin's
    deals weighted by the likelihood of the others' plays, and as the exact posterior."""
    from cardodds.kanalje.advise import _observations

    seat, mine, turned, played = random_position(seed, left, in_trick)
    post = posterior(turned, played, seat, mine)
    probs = np.array([p for _, p in post])
    assert probs.max() / probs.min() > 3  # the plays do tell deals apart
    index = {ha: i for i, ((ha, _), _) in enumerate(post)}
    pos = _check_position(seat, mine, card_str(turned), text(played), KanaljeRules())
    n = 20_000
    hands = np.zeros((n, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(seed)[0], 0), n, pos.table, pos.deal, hands,
                    (pos.start, _observations(pos, [0, 0, 0])))
    assert hands[:, KA.WEIGHT].min() >= 0 and hands[:, KA.WEIGHT].max() <= KA.WEIGHT_SCALE
    cells = [index[frozenset(c for c in range(52) if (int(m) >> c) & 1)] for m in hands[:, KA.HAND_A]]
    kernel, se_kernel = weighted_frequencies(cells, hands[:, KA.WEIGHT], len(post))
    # the twin: deals ignoring voids, rejected when inconsistent, then weighted by the likelihood
    rng = np.random.default_rng(seed)
    st = replay(turned, played)
    deals = [rejection_deal(rng, st, seat, mine) for _ in range(n)]
    twin, se_twin = weighted_frequencies([index[ha] for ha, _ in deals],
                                         [likelihood(turned, played, seat, mine, ha, hb) for ha, hb in deals],
                                         len(post))
    # deal by deal, in standard errors; their squares summed are about chi-square with K - 1 degrees
    df = len(post) - 1
    assert sps.chi2.sf((((kernel - twin) ** 2) / (se_kernel ** 2 + se_twin ** 2)).sum(), df) > 1e-3
    assert sps.chi2.sf((((kernel - probs) / se_kernel) ** 2).sum(), df) > 1e-3
    assert sps.chi2.sf((((twin - probs) / se_twin) ** 2).sum(), df) > 1e-3


@pytest.mark.parametrize("seed,left,in_trick", [(0, 3, 1), (7, 3, 1), (2, 2, 2)])
def test_inferred_random_play_matches_exact_posterior(seed, left, in_trick):
    seat, mine, turned, played = random_position(seed, left, in_trick)
    r = advise(seat=seat, hand=mine, turned=card_str(turned), played=text(played), policies="random", infer=True,
               samples=30_000, rng=seed)
    assert r.position.infer and 0 < r.effective_samples <= r.samples == r.samples == 30_000
    for card, e in zip(cards(r), r.value):
        exact = random_value_inferred(turned, played, seat, mine, card)
        assert abs(e.value - exact) <= max(4 * e.se, 1e-12), (card_str(card), e, exact)


def test_inference_changes_the_verdict():
    """Seat 0 led the 8♣ with only clubs (trump) left: the heuristic leads its lowest trump
    then, so it holds no club under the 8 and the 9♣ T♣ are its last cards, the 3♣ 4♣ 6♣ seat
    2's. Then my K♣ takes exactly one trick whichever card I play now (now, or later over the
    9♣), so the paired difference is 0 on every kept world; without inference the K♣ looks
    better (in worlds where seat 2 holds the 9♣ or T♣, ducking with the 7♣ can cost a trick)."""
    plain = advise(**LATE, samples=4_000, rng=1)
    inferred = advise(**LATE, samples=4_000, rng=1, infer=True)
    assert plain.best == "Kc" and plain.versus_best[0].lo > 0
    assert inferred.best is None and inferred.verdict == "every legal card scores the same on these worlds"
    assert 0 < inferred.effective_samples < inferred.samples
    assert inferred.value[0].value == inferred.value[1].value == 3
    d = inferred.to_dict()
    assert d["position"]["infer"] is True and d["effective_samples"] == inferred.effective_samples
    # the one world the heuristic's plays leave
    from cardodds.kanalje.advise import _observations

    pos = _check_position(1, LATE["hand"], "Qc", LATE["played"], KanaljeRules())
    hands = np.zeros((2_000, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(1)[0], 0), 2_000, pos.table, pos.deal, hands,
                    (pos.start, _observations(pos, [1, 1, 1])))
    def cards(mask):
        return format_cards(c for c in range(52) if (int(mask) >> c) & 1)

    kept = {(cards(a), cards(b)) for a, b, w in hands if w > 0}
    assert kept == {("3c 4c 6c", "9c Tc")}  # seat 2, seat 0


#: A deal played by heuristic players, cut in the 14th trick: seat 0 led the 9♣; I (seat 1) hold
#: four trumps and no club.
SPADES = dict(seat=1, hand="2s 4s 6s 8s", turned="Ks",
              played="0: 2d Qd Kd; 2: Ah Kh 9h; 2: Qh 4h 8h; 2: Th Ad 7h; 2: 2c 4c 3c; 0: 5d 3d 6d; 2: 4d 7d 9d; "
                     "1: Td 8d 3s; 0: 7c Jc 6c; 1: 2h 6h 7s; 0: Ac Jd Kc; 0: 8c As 5c; 1: 3h 5h 9s; 0: 9c")


def test_inference_changes_the_best_card():
    """Without inference the 6♠ is best; with it, the 2♠. Seat 0 showed a void in hearts, so
    the J♥ is seat 2's in every consistent world. What inference adds: in the 12th trick seat 2
    followed the 8♣, already trumped by my A♠, with the 5♣; a heuristic that cannot win throws
    its highest losing card, so it holds no higher club, and the T♣ Q♣ are seat 0's. The
    worlds left (seat 2: J♥ 5♠ and two of T♠ J♠ Q♠; seat 0: T♣ Q♣ and the third) all end
    with my taking the J♥ (P 1.0, against 0.8 over every consistent world), and in them the
    2♠ now, keeping my higher trumps, scores 0.34 points more than the 6♠."""
    from cardodds.kanalje.advise import _observations

    plain = advise(**SPADES, samples=20_000, rng=1)
    inferred = advise(**SPADES, samples=20_000, rng=1, infer=True)
    assert plain.best == "6s" and inferred.best == "2s"
    assert jacks(plain)[0]["hearts"].value < 0.9 and jacks(inferred)[0]["hearts"].value == 1.0
    pos = _check_position(1, SPADES["hand"], "Ks", SPADES["played"], KanaljeRules())
    hands = np.zeros((5_000, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(1)[0], 0), 5_000, pos.table, pos.deal, hands,
                    (pos.start, _observations(pos, [1, 1, 1])))
    jh, five = 9 * 4 + 2, 3 * 4 + 3  # card codes rank * 4 + suit
    assert all((int(a) >> jh) & 1 and (int(a) >> five) & 1 for a, _, w in hands if w > 0)  # a: seat 2


def test_no_world_agrees_with_the_plays(capsys):
    """Random plays that heuristic players would not have made: no world keeps any weight."""
    from cardodds.cli import main

    seat, mine, turned, played = random_position(0, 10, 0)
    r = advise(seat=seat, hand=mine, turned=card_str(turned), played=text(played), infer=True, samples=300, rng=1)
    assert r.effective_samples == 0 and r.best is None
    assert r.verdict.startswith("nothing to compare: no world dealt agrees")
    assert json.loads(json.dumps(r.to_dict()))["options"][0]["score"]["value"] is None
    argv = ["kanalje", "advise", "--policies", "heuristic", "--seat", str(seat), "--hand", format_cards(mine),
            "--turned", card_str(turned), "--played", text(played), "--infer", "--samples", "300", "--seed", "1"]
    assert main(argv) == 0
    assert "verdict: nothing to compare: no world dealt agrees" in capsys.readouterr().out


def test_inferred_precision():
    seat, mine, turned, played = random_position(0, 3, 1)
    r = advise(seat=seat, hand=mine, turned=card_str(turned), played=text(played), policies="random", infer=True,
               target_halfwidth=0.05, rng=4)
    b = r.best_index
    second = max((j for j in range(len(cards(r))) if j != b), key=lambda j: r.value[j].value)
    assert r.difference(b, second).halfwidth <= 0.05 and r.effective_samples < r.samples


def test_inference_needs_likelihoods():
    with pytest.raises(ValueError, match="only random and heuristic"):
        advise(**LATE, policies="heuristic,heuristic,lookahead", infer=True, samples=10)
    with pytest.raises(ValueError, match="infer="):
        advise(**LATE, infer="yes", samples=10)
    # my own policy may be anything: my plays weigh every world alike
    r = advise(**LATE, policies="heuristic,lookahead,heuristic", lookahead_samples=2, infer=True, samples=20, rng=1)
    assert r.samples == 20


def test_inference_on_the_command_line(capsys):
    from cardodds.cli import main

    argv = ["kanalje", "advise", "--policies", "heuristic", "--seat", "1", "--hand", LATE["hand"], "--turned", "Qc",
            "--played", LATE["played"], "--samples", "2000", "--seed", "3", "--infer"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "inferred" in out and "effective sample size" in out
    assert "verdict: every legal card scores the same on these worlds" in out


# ---- bad positions -----------------------------------------------------------------------------------
# Seat 0 leads 2c; seat 1 follows 3c; seat 2 shows a void in clubs (5h); seat 1 wins and leads.
_REST0 = "Ac Kc Qc Jc Tc 9c 8c 7c Ad Qd Jd Td 9d As Ks Qs"  # seat 0's other 16 cards
_FIRST = "0: 2c 3c 5h"


@pytest.mark.parametrize("flags,words", [
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", f"{_FIRST}; 1: 4c 6c"], "showed earlier"),
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", f"{_FIRST}; 1: 4c 3c"], "played twice"),
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", f"{_FIRST}; 1: 4c Ac"], "also in the hand"),
    (["--seat", "0", "--hand", _REST0, "--turned", "5h", "--played", _FIRST], "turned card"),
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", f"{_FIRST}; 2: 4c"], "won trick 1"),
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", "1: 2c 3c 5h"], "seat 0 leads the first"),
    (["--seat", "0", "--hand", _REST0 + " 2s", "--turned", "Kd", "--played", _FIRST], "give my cards now"),
    (["--seat", "1", "--hand", _REST0 + " 2c", "--turned", "Kd"], "turn"),
    (["--seat", "2", "--hand", "7c " + _REST0.replace("Ac Kc Qc Jc Tc 9c 8c 7c ", "2d 3d 4d 5d 6d 7d 8d "),
      "--turned", "Kd", "--played", f"{_FIRST}; 1: 4c"], "follow"),
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", "0 2c 3c 5h"], "colon"),
    (["--seat", "0", "--hand", _REST0, "--turned", "Kd", "--played", "0: 2c 3c 5h 6h"], "1..3"),
    (["--seat", "0", "--hand", "Ah Ah", "--turned", "Kd"], "twice"),
])
def test_bad_positions_one_line_exit_2(flags, words):
    refused(flags, words)


def refused(flags, words):
    """``cardodds kanalje advise FLAGS`` on a real process: exit 2, nothing on stdout, one line
    on stderr that names the flag and says ``words``."""
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kanalje", "advise", *flags, "--samples", "10"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2, r.stderr
    assert r.stdout == ""
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cardodds: error: ") and words in lines[0], r.stderr
    assert "--" in lines[0]  # names the flag


def test_illegal_play_by_me_in_the_api():
    hand = "7c 2d 3d 4d 5d 6d 7d 8d Ad Qd Jd Td 9d As Ks Qs"
    with pytest.raises(ValueError, match="^played: I played 5h in trick 1 without following clubs"):
        advise(seat=2, hand=hand, turned="Kd", played=[(0, "2c 3c 5h"), "1: 4c"], samples=10)


def test_cli_table(capsys):
    from cardodds.cli import main

    argv = ["kanalje", "advise", "--policies", "heuristic", "--seat", "1", "--hand", LATE["hand"], "--turned", "Qc",
            "--played", LATE["played"], "--samples", "500", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Kanalje advice, 3 players") and "verdict: play Kc" in out and "seed 3" in out
    assert main(argv + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["best"] == "Kc" and d["samples"] == 500


FULL_HAND = dict(seat=0, hand="Ac Kc 4c 2d 5d 9d Qd 3h 6h Th Qs Js 8s 7s 5s 3s 2s", turned="7h")


def test_interchangeable_options_of_a_full_hand():
    """Kc-Ac and 7s-8s: no card I have not seen lies between them, and no card of mine in another
    suit comes between them in the order the heuristic compares across suits, so it plays each
    pair's deal out alike. Not 2s-3s: my 3h comes between them in that order."""
    pos = _check_position(0, FULL_HAND["hand"], "7h", None, KanaljeRules())
    cards = np.array(pos.options, dtype=np.int64)
    same = KA.interchangeable(pos.table, pos.seat, cards)
    names = [card_str(c) for c in pos.options]
    assert {names[i]: names[j] for i, j in enumerate(same) if i != j} == {"Ac": "Kc", "8s": "7s"}


@pytest.mark.parametrize("case", ["full hand", "late spades", "inferred", "following", "two players, phase 2"])
def test_interchangeable_options_get_the_figures_their_own_play_outs_give(case, monkeypatch):
    """An option that repeats an earlier one's play-out has its figures copied: the counts are
    those of playing every option out, to the last one."""
    kw = {"full hand": FULL_HAND, "late spades": SPADES, "inferred": dict(SPADES, infer=True),
          "following": _following_with_interchangeable_options(),
          "two players, phase 2": dict(seat=0, hand="2s 3s 4s 9s Ts Qs 5d 6d Kd Ad 2h 3h 9c", trump="7h",
                                       rules=KanaljeRules(players=2))}[case]
    rules = kw.get("rules", KanaljeRules())
    pos = _check_position(kw["seat"], kw["hand"], kw.get("turned"), kw.get("played"), rules, trump=kw.get("trump"))
    cards = np.array(pos.options, dtype=np.int64)
    assert (KA.interchangeable(pos.table, pos.seat, cards) != np.arange(len(cards))).any(), "nothing to copy"
    copied = advise(**kw, samples=400, rng=3)
    monkeypatch.setattr(KA, "interchangeable", lambda t0, seat, cards: np.arange(len(cards), dtype=np.int64))
    every = advise(**kw, samples=400, rng=3)
    assert np.array_equal(copied.counts, every.counts)


def _following_with_interchangeable_options() -> dict:
    """The first random position, one card of the trick played, in which two of my legal cards
    are interchangeable."""
    for seed in range(200):
        seat, mine, turned, played = random_position(seed, 8, 1)
        pos = _check_position(seat, format_cards(mine), card_str(turned), text(played), KanaljeRules())
        cards = np.array(pos.options, dtype=np.int64)
        if (KA.interchangeable(pos.table, pos.seat, cards) != np.arange(len(cards))).any():
            return dict(seat=seat, hand=format_cards(mine), turned=card_str(turned), played=text(played))
    raise AssertionError("no such position")


# ---- the default players, the table a player reads, the precision a run reaches -------------------
FOLLOW = dict(seat=2, hand="Ah 2h Qs 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac 2d 3d 4d", turned="Td", played="0: Kh 3h")


def test_the_default_players_are_the_lookahead_and_the_output_names_them(capsys):
    from cardodds.cli import main
    from cardodds.kanalje._defaults import ADVISE_SAMPLES

    from cardodds.kanalje._defaults import ADVISE_ROUND_WORLDS, ADVISE_ROUNDS

    r = _advise(Position(**FOLLOW), rng=1, budget_seconds=None)  # by default: rounds of worlds until a verdict
    d = r.decision
    assert ADVISE_POLICIES == "lookahead" and r.policies == ("lookahead",) * 3 and d.planned_rounds == ADVISE_ROUNDS
    assert r.samples == sum(ADVISE_ROUND_WORLDS << i for i in range(d.rounds)) and d.kind in ("best", "equal")
    assert _advise(Position(**FOLLOW), samples=ADVISE_SAMPLES[1], rng=1).decision.planned_rounds == 1  # one look
    argv = ["kanalje", "advise", "--seat", "2", "--hand", FOLLOW["hand"], "--turned", "Td", "--played", "0: Kh 3h",
            "--samples", "8", "--lookahead-samples", "4", "--seed", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "players  lookahead at every seat, 4 worlds a decision" in out and "8 worlds, seed 1" in out


def test_the_verdicts_rounds_give_the_same_figures_on_one_and_two_threads_and_two_dask_workers():
    # rounds of worlds until a verdict, bounded by rounds (not time): the same decision, worlds and figures
    import cardodds

    p = Position(**FOLLOW)
    kw = dict(policies="heuristic", budget_rounds=4, rng=5)
    one, two = _advise(p, threads=1, **kw), _advise(p, threads=2, **kw)
    assert one.decision == two.decision and one.decision.rounds > 1
    assert one.value == two.value and one.pairs == two.pairs and one.samples == two.samples
    with cardodds.backend("local:2"):
        there = _advise(p, **kw)
    assert there.decision == one.decision and there.value == one.value


def test_the_table_fits_100_columns_and_says_each_cost_in_words(capsys):
    # the late position's tricks run past 100 columns on one line: they are broken at the tricks
    from cardodds.cli import main

    argv = ["kanalje", "advise", "--policies", "heuristic", "--seat", "1", "--hand", LATE["hand"], "--turned", "Qc",
            "--played", LATE["played"], "--samples", "2000", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    r = advise(**LATE, samples=2_000, rng=3)
    lo, hi = r.decision.loss[r.options.index("7c")]  # what the 7c loses, in the verdict's simultaneous interval
    assert max(len(line) for line in out.splitlines()) <= 100 and r.decision.excluded == (r.options.index("7c"),)
    assert "my points a deal" in out and f"loses {lo:.2f} to {hi:.2f} points a deal" in out
    assert "played   0: 2h 7h Qh;" in out and "\n           1: As 5s Ts;" in out
    assert "takes" not in out and "tricks" not in out
    assert main(argv + ["--wide"]) == 0
    wide = capsys.readouterr().out
    assert "tricks" in wide and "penalty" in wide and LATE["played"] in wide


def test_no_best_card_names_the_clearly_worse_ones(capsys):
    # the full opening hand on few worlds: no card is best, some lose clearly; the table says which
    from cardodds.cli import main

    r = advise(**FULL_HAND, samples=300, rng=4)
    d = r.decision
    worse = [r.options[i] for i in d.excluded]  # shown to lose to the best with every comparison at once
    assert d.kind == "undecided" and r.best is None and worse and r.clearly_worse == worse
    assert all(d.loss[i][1] > 0 for i in d.excluded) and r.to_dict()["clearly_worse"] == worse
    assert r.verdict.startswith("no legal card is better at this precision") and " ".join(worse) in r.verdict
    keep = [i for i in d.group if i != d.top and d.same[i] != d.same[d.top]]
    assert keep and cost_words(r, keep[0]).startswith("in the running (")
    argv = ["kanalje", "advise", "--policies", "heuristic", "--seat", "0", "--hand", FULL_HAND["hand"], "--turned",
            "7h", "--samples", "300", "--seed", "4"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()) <= 100 and "no legal card is better" in out
    assert " ".join(worse) in " ".join(out.split()) and "highest mean" in out


@pytest.mark.parametrize("flags,words", [
    (["--policies", "heuristic", "--precision", "0.000001"], "ask for 0.0002 or more"),
    (["--precision", "0.001"], "deals at most 100,000: ask for 0.0062 or more"),
])
def test_a_precision_no_run_reaches_is_refused(flags, words):
    r = subprocess.run([sys.executable, "-m", "cardodds.cli", "kanalje", "advise", "--seat", "2", "--hand",
                        FOLLOW["hand"], "--turned", "Td", "--played", "0: Kh 3h", *flags],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "", r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and words in lines[0] and not lines[0].endswith("..."), r.stderr
    with pytest.raises(ValueError, match="ask for 0.0062 or more"):
        _advise(Position(**FOLLOW), target_halfwidth=0.001)
