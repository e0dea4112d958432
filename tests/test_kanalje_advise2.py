"""Kanalje advice for two players (docs/rules/kanalje.md §4): phase 2 (trump known, the phase-1 tricks dead)
and phase 1 (the face-up stock card, the cards each side took face up). The hidden cards
against rejection-sampling twins, random play against exact enumeration (phase 2) and a
Python twin (phase 1), the same figures on any number of threads and on Dask, every bad
position refused in one line by a real process."""

from __future__ import annotations

import json
from collections import Counter

import numpy as np
import pytest
from scipy import stats as sps

from cardodds.cards import card_str, format_cards, parse_card
from cardodds.kanalje import KanaljeRules, Position
from cardodds.kanalje import advise as _advise
from cardodds.kanalje import _advise as KA
from cardodds.kanalje._position import check_position as _check_position
from cardodds.kanalje.advise import jacks
from cardodds.rng import as_seed_sequence, chunk_state

from .naive_kanalje_advise import (JACK, PENALTY, consistent_deals, legal, play_random, posterior, random_value,
                                   random_value_inferred, rejection_deal, replay, suit)
from .test_kanalje_advise import refused, same_everywhere


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

TWO = KanaljeRules(players=2)


def text(played) -> str:
    return "; ".join(f"{lead}: {format_cards(cs)}" for lead, cs in played)


def mask_set(mask) -> frozenset:
    return frozenset(c for c in range(52) if (int(mask) >> c) & 1)


# ---- phase 2 ------------------------------------------------------------------------------------
def phase2_position(seed: int, left: int, in_trick: int):
    """A phase-2 position of a random deal played at random: 13 cards each, 26 dead with the
    trump card among them, ``left`` tricks still to start, ``in_trick`` cards of the current
    one played; ``(seat, mine, trump card, played, first leader)``."""
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(52)]
    hands = [set(deck[:13]), set(deck[13:26])]
    trump, leader = deck[26], int(rng.integers(2))
    st = replay(trump, [], n=2, leader=leader)
    played = play_random(rng, st, hands, 2 * (13 - left) + in_trick)
    seat = st.to_play()
    return seat, sorted(hands[seat]), trump, played, leader


def phase2_with_void(left: int, in_trick: int, start: int = 0):
    """The first phase-2 position from seed ``start`` on in which the opponent showed a void
    that leaves unseen cards of that suit (all of them then dead)."""
    for seed in range(start, start + 500):
        seat, mine, trump, played, leader = phase2_position(seed, left, in_trick)
        st = replay(trump, played, n=2, leader=leader)
        unseen = set(range(52)) - set(mine) - st.played - {trump}
        if any(suit(c) in st.void[1 - seat] for c in unseen):
            return seed, seat, mine, trump, played, leader
    raise AssertionError("no such position")


@pytest.mark.parametrize("left,in_trick", [(2, 0), (3, 1)])
def test_phase2_hidden_hand_matches_rejection_twin_and_exact_uniform(left, in_trick):
    seed, seat, mine, trump, played, leader = phase2_with_void(left, in_trick)
    pos = _check_position(seat, mine, None, text(played), TWO, trump=card_str(trump))
    st = replay(trump, played, n=2, leader=leader)
    deals = consistent_deals(st, seat, mine)
    assert 1 < len(deals) < 600
    index = {ha: i for i, (ha, _) in enumerate(deals)}
    n = 30_000
    hands = np.zeros((n, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(seed)[0], 0), n, pos.table, pos.deal, hands, None)
    kernel: Counter = Counter()
    for ha_mask, dead_mask, _ in hands:
        ha, dead = mask_set(ha_mask), mask_set(dead_mask)
        assert (ha, dead) in set(deals), "a sampled deal contradicts the position"
        kernel[index[ha]] += 1
    rng = np.random.default_rng(seed)
    twin = Counter(index[rejection_deal(rng, st, seat, mine)[0]] for _ in range(n))
    k = [kernel[i] for i in range(len(deals))]
    t = [twin[i] for i in range(len(deals))]
    assert sps.chisquare(k).pvalue > 1e-3
    assert sps.chisquare(t).pvalue > 1e-3
    assert sps.chi2_contingency(np.array([k, t])).pvalue > 1e-3


@pytest.mark.parametrize("seed,left,in_trick", [(11, 2, 0), (12, 2, 1), (13, 3, 0), (14, 3, 1), (15, 1, 1)])
def test_phase2_random_play_matches_exact_enumeration(seed, left, in_trick):
    seat, mine, trump, played, leader = phase2_position(seed, left, in_trick)
    st = replay(trump, played, n=2, leader=leader)
    r = advise(seat=seat, hand=mine, trump=card_str(trump), played=text(played), policies="random", rules=TWO,
               samples=20_000, rng=seed)
    assert r.samples == 20_000 and r.position.phase == 2
    for card, e in zip(cards(r), r.value):
        exact = random_value(st, seat, mine, card)
        assert abs(e.value - exact) <= max(4 * e.se, 1e-12), (card_str(card), e, exact)


def test_phase2_voids_reach_the_figures():
    seed, seat, mine, trump, played, leader = phase2_with_void(3, 0, start=50)
    st = replay(trump, played, n=2, leader=leader)
    r = advise(seat=seat, hand=mine, trump=card_str(trump), played=text(played), policies="random", rules=TWO,
               samples=20_000, rng=5)
    for card, e in zip(cards(r), r.value):
        assert abs(e.value - random_value(st, seat, mine, card)) <= max(4 * e.se, 1e-12)


@pytest.mark.parametrize("seed,remembered", [(21, 10), (22, 20)])
def test_phase2_dead_cards_i_remember(seed, remembered):
    """``dead``: the phase-1 cards I remember leave the opponent's hand; random play still
    matches the exact enumeration over the consistent deals of the others."""
    seat, mine, trump, played, leader = phase2_position(seed, 3, 1)
    rng = np.random.default_rng(seed)
    st = replay(trump, played, n=2, leader=leader)
    unseen = sorted(set(range(52)) - set(mine) - st.played - {trump})
    opp = 13 - st.count[1 - seat]
    deals = [d for d in consistent_deals(st, seat, mine)]
    true_opp = sorted(deals[int(rng.integers(len(deals)))][0])  # any consistent hand: the dead cards avoid it
    dead = [int(c) for c in rng.permutation(sorted(set(unseen) - set(true_opp)))[:remembered]]
    st.played |= set(dead)
    r = advise(seat=seat, hand=mine, trump=card_str(trump), played=text(played), dead=format_cards(dead),
               policies="random", rules=TWO, samples=20_000, rng=seed)
    assert r.position.dead == tuple(dead) and r.to_dict()["position"]["dead"] == format_cards(dead)
    assert len(consistent_deals(st, seat, mine)) < len(deals)
    for card, e in zip(cards(r), r.value):
        exact = random_value(st, seat, mine, card)
        assert abs(e.value - exact) <= max(4 * e.se, 1e-12), (card_str(card), e, exact)
    assert opp == len(true_opp)


def test_phase2_every_dead_card_remembered_leaves_one_world():
    seat, mine, trump, played, leader = phase2_position(5, 4, 0)
    st = replay(trump, played, n=2, leader=leader)
    rng = np.random.default_rng(5)
    opp = consistent_deals(st, seat, mine)[0][0]
    dead = sorted(set(range(52)) - set(mine) - st.played - {trump} - set(opp))
    assert len(dead) == 25
    pos = _check_position(seat, mine, None, text(played), TWO, trump=card_str(trump), dead=format_cards(dead))
    hands = np.zeros((50, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(1)[0], 0), 50, pos.table, pos.deal, hands, None)
    assert {mask_set(m) for m in hands[:, KA.HAND_A]} == {opp} and (hands[:, KA.HAND_B] == 0).all()
    r = advise(seat=seat, hand=mine, trump=card_str(trump), played=text(played), dead=format_cards(dead),
               rules=TWO, samples=300, rng=int(rng.integers(100)))
    assert all(e.se == 0 for e in r.value)  # heuristic players on the one world: no spread


def test_phase2_top_trump_and_jacks():
    """Hearts are trump (7♥ dead); I lead with the A♥: it takes whatever the opponent plays."""
    hand = "Ah 2c 3c 4c 5c 6c 7c 8c 9c Tc Qc Kc Ac"
    r = advise(seat=0, hand=hand, trump="7h", rules=TWO, samples=3_000, rng=1)
    assert r.position.phase == 2 and sorted(r.options) == sorted(hand.split())
    i = r.options.index("Ah")
    assert r.figures["tricks"][i].lo >= 1 and set(jacks(r)[i]) == {"spades", "clubs", "diamonds", "hearts"}
    # the jack of trump as the trump card is dead, not out
    r = advise(seat=0, hand=hand, trump="Jh", rules=TWO, samples=200, rng=1)
    assert "hearts" not in jacks(r)[0]


@pytest.mark.parametrize("seed,left,in_trick", [(0, 2, 1), (7, 2, 0), (3, 3, 1)])
def test_phase2_inferred_worlds_and_random_play_match_the_exact_posterior(seed, left, in_trick):
    """Random players in phase 2: the worlds kept are distributed as the consistent deals
    weighted by the likelihood of the opponent's plays, and each card's figure is the exact
    expectation under that posterior."""
    from cardodds.kanalje.advise import _observations

    from .test_kanalje_advise import weighted_frequencies

    seat, mine, trump, played, leader = phase2_position(seed, left, in_trick)
    post = posterior(trump, played, seat, mine, 2, leader)
    probs = np.array([p for _, p in post])
    assert probs.max() / probs.min() > 2 and len(post) < 600  # the plays tell deals apart; cells of ~40 worlds
    index = {ha: i for i, ((ha, _), _) in enumerate(post)}
    pos = _check_position(seat, mine, None, text(played), TWO, trump=card_str(trump))
    n = 20_000
    hands = np.zeros((n, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(seed)[0], 0), n, pos.table, pos.deal, hands,
                    (pos.start, _observations(pos, [0, 0])))
    kernel, se = weighted_frequencies([index[mask_set(m)] for m in hands[:, KA.HAND_A]], hands[:, KA.WEIGHT], len(post))
    assert sps.chi2.sf((((kernel - probs) / np.maximum(se, 1e-12)) ** 2).sum(), len(post) - 1) > 1e-3
    r = advise(seat=seat, hand=mine, trump=card_str(trump), played=text(played), policies="random", rules=TWO,
               infer=True, samples=20_000, rng=seed)
    assert r.position.infer and 0 < r.effective_samples < r.samples
    for card, e in zip(cards(r), r.value):
        exact = random_value_inferred(trump, played, seat, mine, card, 2, leader)
        assert abs(e.value - exact) <= max(4 * e.se, 1e-12), (card_str(card), e, exact)


def heuristic_phase2(seed: int, plays: int):
    """A phase-2 position played by two heuristic players (the compiled heuristic, knowing the
    dead cards): ``(seat, mine, trump card, played, dead cards)``."""
    from cardodds.kanalje._policies import heuristic_card
    from cardodds.kanalje._table import TABLE, T, legal_cards, play_card

    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(52)]
    t = TABLE.zeros()
    hands = np.array([sum(1 << c for c in deck[:13]), sum(1 << c for c in deck[13:26])], dtype=np.int64)
    none = np.zeros(0, dtype=np.int64)
    KA.position(t, TWO.pack(), int(rng.integers(2)), -1, deck[26], None, hands, none, none, None,
                np.zeros(4, dtype=np.uint64))
    t[T.played] |= sum(1 << c for c in deck[27:])
    played: list = []
    for _ in range(plays):
        s = int((t[T.leader] + t[T.trick_len]) % 2)
        if t[T.trick_len] == 0:
            played.append((s, []))
        c = int(heuristic_card(t, s, legal_cards(t, s)))
        played[-1][1].append(c)
        play_card(t, s, c)
    seat = int((t[T.leader] + t[T.trick_len]) % 2)
    return seat, sorted(mask_set(t[T.hand + seat])), deck[26], played, deck[27:]


@pytest.mark.parametrize("seed", [0, 3])
def test_phase2_heuristic_inference_keeps_the_true_world(seed):
    """Plays made by the heuristic: with every dead card remembered the one world reproduces
    every play (no weight lost); without, inference keeps some of the worlds and fewer than all."""
    seat, mine, trump, played, dead = heuristic_phase2(seed, 15)
    kw = dict(seat=seat, hand=mine, trump=card_str(trump), played=text(played), rules=TWO, infer=True,
              samples=2_000, rng=1)
    assert advise(**kw, dead=format_cards(dead)).effective_samples == 2_000
    r = advise(**kw)
    assert 0 < r.effective_samples < 2_000


# ---- phase 1 ------------------------------------------------------------------------------------
def phase1_position(seed: int, done: int, in_trick: int):
    """A phase-1 position of a random deal played at random (docs/rules/kanalje.md §4.2, seat 0 leads):
    ``done`` tricks played, ``in_trick`` cards of the next; ``(seat, mine, faceups, played,
    opponent's hand, stock under the face-up card)``."""
    rng = np.random.default_rng(seed)
    deck = [int(c) for c in rng.permutation(52)]
    hands = [set(deck[:13]), set(deck[13:26])]
    stock = deck[26:]
    played: list = []
    leader = 0
    for k in range(done + 1):
        trick: list = []
        played.append((leader, trick))
        for i in range(2 if k < done else in_trick):
            p = (leader + i) % 2
            opts = sorted(hands[p]) if i == 0 else \
                sorted(c for c in hands[p] if c // 4 != JACK or suit(c) == suit(trick[0])) or sorted(hands[p])
            c = opts[int(rng.integers(len(opts)))]
            hands[p].discard(c)
            trick.append(c)
        if k < done:
            w = 1 - leader if suit(trick[1]) == suit(trick[0]) and trick[1] > trick[0] else leader
            hands[w].add(stock[2 * k])
            hands[1 - w].add(stock[2 * k + 1])
            leader = w
    if not played[-1][1]:
        played.pop()
    seat = (leader + in_trick) % 2
    faceups = [stock[2 * k] for k in range(done + 1)]
    return seat, sorted(hands[seat]), faceups, played, hands[1 - seat], stock[2 * done + 1:]


@pytest.mark.parametrize("seed,done,in_trick", [(1, 12, 0), (2, 12, 1), (3, 11, 1)])
def test_phase1_hidden_cards_match_rejection_twin(seed, done, in_trick):
    """The opponent's cards other than the face-up ones it took, and the card under the
    face-up one, against a twin that deals every card I have not seen (those the opponent took
    face up too) and rejects a deal that does not give the opponent the face-up cards it took."""
    seat, mine, faceups, played, opp, below = phase1_position(seed, done, in_trick)
    pos = _check_position(seat, mine, None, text(played), TWO, faceup=format_cards(faceups))
    assert pos.phase == 1 and pos.faceups == tuple(faceups)
    n = 30_000
    hands = np.zeros((n, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(seed)[0], 0), n, pos.table, pos.deal, hands, None)
    kernel = Counter((mask_set(a), mask_set(b)) for a, b, _ in hands)
    # the twin
    seen = set(mine) | {c for _, cs in played for c in cs} | set(faceups)
    known = set(opp) & set(faceups)  # face-up cards the opponent took and holds
    assert known == set(mask_set(pos.deal[KA.DL.forced_a]))
    unseen = sorted((set(range(52)) - seen) | known)
    rng = np.random.default_rng(seed)
    twin: Counter = Counter()
    while sum(twin.values()) < n:
        perm = [int(c) for c in rng.permutation(unseen)]
        h = frozenset(perm[:len(opp)])
        if known <= h:
            twin[(h, frozenset([perm[len(opp)]]))] += 1
    cells = sorted(set(kernel) | set(twin), key=lambda x: (sorted(x[0]), sorted(x[1])))
    assert all(len(h) == len(opp) and known <= h for h, _ in kernel)
    k = [kernel[c] for c in cells]
    t = [twin[c] for c in cells]
    assert 2 < len(cells) < 1_000
    assert sps.chisquare(k).pvalue > 1e-3
    assert sps.chi2_contingency(np.array([k, t])).pvalue > 1e-3


def test_phase1_early_hidden_cards_are_exchangeable():
    """Early in phase 1 (too many deals to list): every card I have not seen is equally likely in
    the opponent's hand, and equally likely the card under the face-up one; the face-up cards
    the opponent took are always in its hand."""
    seat, mine, faceups, played, opp, below = phase1_position(6, 2, 1)
    pos = _check_position(seat, mine, None, text(played), TWO, faceup=format_cards(faceups))
    known = set(opp) & set(faceups)
    pool = sorted(set(opp) - known | set(below))
    n = 20_000
    hands = np.zeros((n, 3), dtype=np.int64)
    KA.sample_hands(chunk_state(as_seed_sequence(6)[0], 0), n, pos.table, pos.deal, hands, None)
    held = np.array([[(int(m) >> c) & 1 for c in pool] for m in hands[:, KA.HAND_A]])
    assert all(known <= mask_set(m) for m in hands[:, KA.HAND_A]) and (held.sum(axis=1) == len(opp) - len(known)).all()
    p = (len(opp) - len(known)) / len(pool)
    z = (held.sum(axis=0) - n * p) / np.sqrt(n * p * (1 - p))
    assert np.abs(z).max() < 4.5
    nxt = Counter(int(m).bit_length() - 1 for m in hands[:, KA.HAND_B])
    assert set(nxt) <= set(pool) and sps.chisquare([nxt[c] for c in pool]).pvalue > 1e-3


def _play_random(rng, hands, trump, leader, score):
    """Phase 2 at random from ``leader``; ``score[s]`` gets seat s's trick points and penalties."""
    trick: list = []
    while hands[0] or hands[1]:
        p = (leader + len(trick)) % 2
        c = legal(hands[p], trick)[int(rng.integers(len(legal(hands[p], trick))))]
        hands[p].discard(c)
        trick.append(c)
        if len(trick) == 2:
            best = 1 if (suit(trick[1]) == suit(trick[0]) and trick[1] > trick[0]) or \
                (suit(trick[1]) == trump and suit(trick[0]) != trump) else 0
            w = (leader + best) % 2
            score[w] += 1 - sum(PENALTY[suit(x)] for x in trick if x // 4 == JACK)
            leader, trick = w, []


def phase1_last_trick_twin(rng, seat, mine, faceups, played, card, n):
    """My points for the whole deal, ``n`` deals: the last phase-1 trick with ``card`` (the
    opponent's cards and the last stock card dealt at random from what I have not seen), the
    phase-2 trump drawn from the 26 phase-1 trick cards, phase 2 at random (Python, docs/rules/kanalje.md §4)."""
    opp = 1 - seat
    seen = set(mine) | {c for _, cs in played for c in cs} | set(faceups)
    taker: list = []
    pen = [0, 0]
    for lead, cs in played:
        if len(cs) == 2:
            w = (lead + 1) % 2 if suit(cs[1]) == suit(cs[0]) and cs[1] > cs[0] else lead
            pen[w] += sum(PENALTY[suit(x)] for x in cs if x // 4 == JACK)
            taker.append(w)
    known = {c for c, w in zip(faceups, taker) if w == opp} - {c for _, cs in played for c in cs}
    pool = sorted(set(range(52)) - seen)
    in_trick = played[-1][1] if played and len(played[-1][1]) == 1 else []
    out = []
    for _ in range(n):
        perm = [int(c) for c in rng.permutation(pool)]
        h = 13 - len(in_trick) - len(known)
        hands = {seat: set(mine), opp: set(known) | set(perm[:h])}
        last = perm[h]
        trick = list(in_trick)
        if not trick:
            oc = legal_first(hands, opp, card, rng)
            trick = [card, oc]
            lead = seat
        else:
            trick = [trick[0], card]
            lead = opp
        hands[seat].discard(card)
        w = (lead + 1) % 2 if suit(trick[1]) == suit(trick[0]) and trick[1] > trick[0] else lead
        p = list(pen)
        p[w] += sum(PENALTY[suit(x)] for x in trick if x // 4 == JACK)
        hands[w].add(faceups[-1])
        hands[1 - w].add(last)
        dead = sorted({c for _, cs in played for c in cs} | set(trick))
        trump = suit(dead[int(rng.integers(len(dead)))])
        score = [0, 0]
        _play_random(rng, [hands[0], hands[1]], trump, w, score)
        out.append(score[seat] - p[seat])
    return np.mean(out), np.std(out) / np.sqrt(n)


def legal_first(hands, opp, card, rng):
    """The opponent's random answer to my lead ``card`` in phase 1 (no jack of another suit)."""
    h = hands[opp]
    opts = sorted(c for c in h if c // 4 != JACK or suit(c) == suit(card)) or sorted(h)
    c = opts[int(rng.integers(len(opts)))]
    h.discard(c)
    return c


@pytest.mark.parametrize("seed,in_trick", [(4, 0), (5, 1)])
def test_phase1_random_play_matches_python_twin(seed, in_trick):
    seat, mine, faceups, played, _, _ = phase1_position(seed, 12, in_trick)
    r = advise(seat=seat, hand=mine, faceup=format_cards(faceups), played=text(played), policies="random",
               rules=TWO, samples=20_000, rng=seed)
    rng = np.random.default_rng(seed)
    for card, e in list(zip(cards(r), r.value))[:4]:
        m, se = phase1_last_trick_twin(rng, seat, mine, faceups, played, card, 3_000)
        assert abs(e.value - m) <= 4 * np.hypot(e.se, se), (card_str(card), e, m, se)


def test_phase1_follower_keeps_its_jacks_and_options():
    seat, mine, faceups, played, _, _ = phase1_position(8, 3, 1)
    r = advise(seat=seat, hand=mine, faceup=format_cards(faceups), played=text(played), rules=TWO, samples=500, rng=1)
    led = played[-1][1][0]
    assert set(cards(r)) == {c for c in mine if c // 4 != JACK or suit(c) == suit(led)}
    assert r.to_dict()["position"]["faceup"] == format_cards(faceups) and r.to_dict()["position"]["phase"] == 1


# ---- the same figures everywhere, the result ---------------------------------------------------------
@pytest.mark.parametrize("phase", [1, 2])
def test_same_seed_same_figures_on_threads_and_dask(phase):
    if phase == 1:
        seat, mine, faceups, played, _, _ = phase1_position(9, 5, 1)
        kw = dict(faceup=format_cards(faceups))
    else:
        seat, mine, trump, played, _ = phase2_position(9, 6, 1)
        kw = dict(trump=card_str(trump))
    same_everywhere(**kw, seat=seat, hand=mine, played=text(played), rules=TWO, samples=2_500, rng=9)


def test_two_player_result_and_lookahead():
    seat, mine, trump, played, _ = phase2_position(3, 5, 0)
    r = advise(seat=seat, hand=mine, trump=card_str(trump), played=text(played), rules=TWO,
               policies="lookahead", lookahead_samples=2, samples=20, rng=1)
    assert r.policies == ("lookahead", "lookahead") and r.violations == 0
    d = json.loads(json.dumps(r.to_dict()))
    p = d["position"]
    assert p["trump"] == card_str(trump) and p["phase"] == 2 and "turned" not in p
    assert {"option", "score", "tricks", "penalty", "versus_best"} <= set(d["options"][0])
    assert "trump" in repr(r)
    seat, mine, faceups, played, _, _ = phase1_position(3, 4, 0)
    r1 = advise(seat=seat, hand=mine, faceup=format_cards(faceups), played=text(played), rules=TWO,
                policies="lookahead,heuristic", lookahead_samples=2, samples=8, rng=1)
    assert r1.violations == 0 and r1.samples == 8 and len(r1.options) == 13
    with pytest.raises(ValueError, match="in phase 1 every consistent world"):
        advise(seat=seat, hand=mine, faceup=format_cards(faceups), played=text(played), rules=TWO, infer=True,
               samples=10)


# ---- bad positions ------------------------------------------------------------------------------------
_P2 = ["--players", "2", "--trump", "7h"]
_H13 = "Ac Kc Qc Jc Tc 9c 8c 2d 3d 4d 5d 6d 7d"


@pytest.mark.parametrize("flags,words", [
    (["--seat", "0", "--hand", _H13, "--trump", "7h"], "two-player"),  # trump with three players
    (["--players", "2", "--seat", "0", "--hand", _H13, "--turned", "7h"], "turn no card"),
    (["--players", "2", "--seat", "0", "--hand", _H13], "exactly one"),
    (["--players", "2", "--seat", "0", "--hand", _H13, "--trump", "7h", "--faceup", "8h"], "exactly one"),
    ([*_P2, "--seat", "0", "--hand", _H13 + " 8d"], "give my cards now"),
    ([*_P2, "--seat", "2", "--hand", _H13], "0..1"),
    ([*_P2, "--seat", "0", "--hand", _H13, "--played", "1: 7h 2s"], "trump card"),
    ([*_P2, "--seat", "0", "--hand", "Ac Kc Qc Jc Tc 9c 8c 2d 3d 4d 5d 3s", "--played", "1: 2s 7c"], "follow"),
    ([*_P2, "--seat", "0", "--hand", "Ac Kc Qc Jc Tc 9c 8c 2d 3d 4d 5d 6d", "--played", "0: 2s"], "turn"),
    ([*_P2, "--seat", "0", "--hand", "Ac Kc Qc Jc Tc 9c 8c 3d 4d 5d", "--played", "1: 2c 3c; 0: 4c 2d; 0: 5c 6c"],
     "showed earlier"),
    ([*_P2, "--seat", "0", "--hand", _H13, "--played", "0: 2s 2h 3h"], "1..2"),
    (["--players", "2", "--seat", "0", "--hand", _H13, "--faceup", "8h", "--played", "0: 2s 3s"], "faceup: 1 cards"),
    (["--players", "2", "--seat", "1", "--hand", _H13, "--faceup", "8h", "--played", "0: 2s Jh"], "second player"),
    (["--players", "2", "--seat", "1", "--hand", _H13, "--faceup", "8h 9h", "--played", "0: 2s 8h"], "face up"),
    (["--players", "2", "--seat", "0", "--hand", "Ac Kc Qc Jc Tc 9c 8c 2d 3d 4d 5d 6d 8h", "--faceup", "8h 9h",
      "--played", "0: 2s 7s"], "took it"),
    (["--players", "2", "--seat", "1", "--hand", _H13, "--faceup", "8h"], "turn"),
    (["--players", "2", "--seat", "0", "--hand", _H13, "--faceup", "Ac"], "face up"),
    ([*_P2, "--seat", "0", "--hand", _H13, "--dead", "Ac"], "also in my hand"),
    ([*_P2, "--seat", "0", "--hand", _H13, "--dead", "7h"], "trump card"),
    ([*_P2, "--seat", "0", "--hand", _H13, "--dead", "2s 2s"], "twice"),
    (["--players", "2", "--seat", "0", "--hand", _H13, "--faceup", "8h", "--dead", "2s"], "phase-2"),
])
def test_bad_two_player_positions_one_line_exit_2(flags, words):
    refused(flags, words)


def test_two_player_cli_table(capsys):
    from cardodds.cli import main

    argv = ["kanalje", "advise", "--policies", "heuristic", "--players", "2", "--seat", "0", "--hand", _H13,
            "--faceup", "8h", "--samples", "300", "--seed", "3"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Kanalje advice, 2 players, seat 0, faceup 8h") and "verdict:" in out
    assert main(argv + ["--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["position"]["faceup"] == "8h" and d["position"]["phase"] == 1 and d["samples"] == 300


def test_leader_options_of_the_rules():
    """``phase1_leader="dealer"``: seat 1 leads phase 1; ``phase2_leader="non_dealer"``: seat 0
    leads phase 2 (by default its first leader is the last phase-1 trick's winner, not named)."""
    hand = "As Ks 3s 4c 8c Tc 2d 6d 9d Qd 5h 8h Ah"
    dealer = KanaljeRules(players=2, phase1_leader="dealer")
    assert advise(seat=1, hand=hand, faceup="Jh", rules=dealer, samples=50, rng=1).samples == 50
    with pytest.raises(ValueError, match="^seat: it is seat 1's turn"):
        advise(seat=0, hand=hand, faceup="Jh", rules=dealer, samples=50)
    with pytest.raises(ValueError, match="^played: trick 1 is led by seat 0, but seat 1 leads the first phase-1"):
        advise(seat=1, hand=hand, faceup="Jh", played="0: 2c", rules=dealer, samples=50)
    non_dealer = KanaljeRules(players=2, phase2_leader="non_dealer")
    assert advise(seat=0, hand=hand, trump="7h", rules=non_dealer, samples=50, rng=1).samples == 50
    with pytest.raises(ValueError, match=r"^played: trick 1 is led by seat 1, but seat 0 \(the non-dealer\)"):
        advise(seat=0, hand=hand, trump="7h", played="1: 2c", rules=non_dealer, samples=50)
    # the default: either seat may lead phase 2's first trick
    assert advise(seat=1, hand=hand, trump="7h", rules=TWO, samples=50, rng=1).samples == 50
