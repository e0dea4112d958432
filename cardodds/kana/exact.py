"""Exact odds for official Känä (docs/rules/kana.md), as :class:`fractions.Fraction`.

Under the official rules nobody ever sees a face-down card, so every choice is a blind
pick among exchangeable cards.  Consequently

* each player's kept pair is a uniformly random 2-subset of the 52 cards, and the kept
  pairs of the ``n`` players are a uniformly random ordered ``n``-tuple of disjoint pairs;
* in an extra round with a fresh deck the ``k`` tied players' "dark" cards are ``k``
  distinct uniformly random cards;
* the ``n`` first-turned cards are ``n`` distinct uniformly random cards.

Every function here counts exactly; none samples.  Card values: 2..10 face value, J 11,
Q 12, K 13, A 14; rank code ``r`` = 0..12 has value ``r + 2``.  A kept pair is ranked by its
*key*: its value 5..28, or 29 for a Superkänä (two 2s, value 4), which beats every other hand.

>>> p_extra_round(2), win_probabilities(3)[0]
(Fraction(839, 16575), Fraction(1, 3))
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb, factorial

from .rules import MAX_PLAYERS, MIN_PLAYERS, check_players

__all__ = [
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "SUPERKANA_KEY",
    "hand_value_distribution",
    "last_round_starter_probabilities",
    "p_extra_round",
    "p_extra_ties_again",
    "p_superkana",
    "win_probabilities",
]

#: Player counts allowed by docs/rules/kana.md §1.2 (``players`` 2..17).


#: Key of a Superkänä (two 2s): above the highest ordinary hand value 28.
SUPERKANA_KEY = 29

_NRANKS = 13
_SUITS = 4
_DECK = _NRANKS * _SUITS
_VALUES = tuple(r + 2 for r in range(_NRANKS))  # rank code -> card value
#: win_probabilities does a genuine (non-symmetric) calculation up to this many players.
_WIN_EXACT_MAX = 4


def _check_players(players: int, what: str = "players") -> int:
    return check_players(players, what)


def _pair_key(r1: int, r2: int) -> int:
    """Key of a kept pair of rank codes: its value, or 29 for a Superkänä (2+2)."""
    if r1 == 0 and r2 == 0:
        return SUPERKANA_KEY
    return _VALUES[r1] + _VALUES[r2]


def _falling(x: int, k: int) -> int:
    """Falling factorial x (x-1) ... (x-k+1); 0 if k > x >= 0."""
    out = 1
    for i in range(k):
        out *= x - i
    return out


# ---------------------------------------------------------------------------------------
# One player's hand
# ---------------------------------------------------------------------------------------


@lru_cache(maxsize=None)
def _hand_value_counts() -> tuple[tuple[int, int], ...]:
    counts: dict[int, int] = {}
    for c1 in range(_DECK):
        for c2 in range(c1 + 1, _DECK):
            v = _VALUES[c1 // _SUITS] + _VALUES[c2 // _SUITS]
            counts[v] = counts.get(v, 0) + 1
    return tuple(sorted(counts.items()))


def hand_value_distribution() -> dict[int, Fraction]:
    """P(one player's kept pair has value v), for v = 4..28, by enumerating all 1326 pairs.

    Value 4 can only be 2+2, so ``dist[4]`` is the Superkänä probability.

    >>> d = hand_value_distribution()
    >>> sorted(d) == list(range(4, 29)), sum(d.values())
    (True, Fraction(1, 1))
    >>> [int(d[v] * 1326) for v in (4, 5, 16, 28)]
    [6, 16, 102, 6]
    """
    return {v: Fraction(c, comb(_DECK, 2)) for v, c in _hand_value_counts()}


def p_superkana() -> Fraction:
    """P(one player's kept pair is a Superkänä, two 2s) = C(4,2)/C(52,2) = 1/221.

    >>> p_superkana()
    Fraction(1, 221)
    """
    return Fraction(comb(_SUITS, 2), comb(_DECK, 2))


# ---------------------------------------------------------------------------------------
# P(extra round): counting matchings in a threshold graph
# ---------------------------------------------------------------------------------------


def _matchings_threshold(counts: tuple[int, ...], k: int, m: int) -> int:
    """Number of unordered k-matchings (sets of k disjoint pairs) among the cards ``counts``
    (cards per rank code) using only pairs of value <= m, Superkänä pairs (2+2) included.

    Cards of value v with 2v <= m ("low") can pair with every other low card; cards with
    2v > m ("high") can only pair with low cards of value <= m - v, a prefix of the low
    cards that grows as v falls.  So the high cards are matched from the highest down,
    each new match having (prefix size - low cards already used) choices; the low cards
    left over are then paired among themselves freely.
    """
    if k < 0:
        return 0
    if k == 0:
        return 1
    low = [r for r in range(_NRANKS) if 2 * _VALUES[r] <= m]
    high = [r for r in range(_NRANKS - 1, -1, -1) if 2 * _VALUES[r] > m]  # highest first
    n_low = sum(counts[r] for r in low)
    # ways[u] = ways to match high cards (so far) to u distinct low cards
    ways = {0: 1}
    for r in high:
        c = counts[r]
        if c == 0:
            continue
        prefix = sum(counts[q] for q in low if _VALUES[q] + _VALUES[r] <= m)
        if prefix == 0:
            continue
        new: dict[int, int] = {}
        for u, w in ways.items():
            for j in range(0, min(c, k - u, prefix - u) + 1):
                t = w * comb(c, j) * _falling(prefix - u, j)
                if t:
                    new[u + j] = new.get(u + j, 0) + t
        ways = new
    total = 0
    for h, w in ways.items():
        pairs_ll = k - h
        rem = n_low - h
        if pairs_ll < 0 or 2 * pairs_ll > rem:
            continue
        # unordered ways to form pairs_ll disjoint pairs among rem cards
        total += w * factorial(rem) // (factorial(rem - 2 * pairs_ll) * 2**pairs_ll * factorial(pairs_ll))
    return total


@lru_cache(maxsize=None)
def _ordered_all_below(counts: tuple[int, ...], k: int, key: int) -> int:
    """Ordered k-tuples of disjoint pairs from ``counts`` with every pair's key <= ``key``."""
    if k == 0:
        return 1
    if key >= SUPERKANA_KEY:  # everything allowed
        total = sum(counts)
        return _falling(total, 2 * k) // 2**k
    if key < 5:
        return 0
    # values <= key, but Superkänä (2+2, value 4, key 29) excluded: inclusion-exclusion over
    # the t disjoint 2+2 pairs a matching contains (a 2+2 pair is always allowed by value).
    c2 = counts[0]
    unordered = 0
    for t in range(0, min(c2 // 2, k) + 1):
        ways_t = factorial(c2) // (factorial(c2 - 2 * t) * 2**t * factorial(t))
        reduced = (c2 - 2 * t,) + counts[1:]
        unordered += (-1) ** t * ways_t * _matchings_threshold(reduced, k - t, key)
    return unordered * factorial(k)


def _pairs_with_key(key: int) -> list[tuple[int, int]]:
    return [(a, b) for a in range(_NRANKS) for b in range(a, _NRANKS) if _pair_key(a, b) == key]


@lru_cache(maxsize=None)
def _extra_round_counts(players: int) -> tuple[int, int]:
    """(ordered n-tuples of disjoint pairs whose best key is held by >= 2 players, all tuples)."""
    n = players
    full = (_SUITS,) * _NRANKS
    total = _ordered_all_below(full, n, SUPERKANA_KEY)
    tied = 0
    for key in range(5, SUPERKANA_KEY + 1):
        best_is_key = _ordered_all_below(full, n, key) - _ordered_all_below(full, n, key - 1)
        # exactly one player holds key, the others are below it
        one = 0
        for a, b in _pairs_with_key(key):
            cnt = list(full)
            if a == b:
                ways = comb(cnt[a], 2)
                cnt[a] -= 2
            else:
                ways = cnt[a] * cnt[b]
                cnt[a] -= 1
                cnt[b] -= 1
            one += ways * _ordered_all_below(tuple(cnt), n - 1, key - 1)
        tied += best_is_key - n * one
    return tied, total


@lru_cache(maxsize=None, typed=True)
def p_extra_round(players: int) -> Fraction:
    """P(the best hand is tied, so the round needs an extra round), exact, players 2..17.

    The kept pairs are a uniform ordered tuple of disjoint pairs.  Writing ``A(M)`` for
    the number of such tuples with every key <= M (Superkänä has key 29),
    ``P(tie at M) = [A(M) - A(M-1) - (tuples with exactly one key M, rest < M)] / A(29)``.
    ``A(M)`` counts matchings in a threshold graph (pairs of value <= M), done in closed
    form rank by rank with inclusion-exclusion for the excluded 2+2 pairs.

    >>> p_extra_round(2), p_extra_round(3)
    (Fraction(839, 16575), Fraction(38313, 519350))
    >>> round(float(p_extra_round(4)), 6)
    0.088617
    >>> p_extra_round(1)
    Traceback (most recent call last):
    ...
    ValueError: players=1 is outside 2..17: Känä needs two players and a 52-card deck deals three cards to at most 17
    """
    _check_players(players)
    tied, total = _extra_round_counts(players)
    return Fraction(tied, total)


# ---------------------------------------------------------------------------------------
# Independent sequential DP over players (used to cross-check and for win_probabilities)
# ---------------------------------------------------------------------------------------

_RANK_PAIRS = tuple((a, b, _pair_key(a, b)) for a in range(_NRANKS) for b in range(a, _NRANKS))


def _relevant(best: int) -> tuple[bool, ...]:
    """Ranks whose counts can still matter once the best key is ``best``: a rank matters if
    a pair containing it can reach ``best`` (value + 14 >= best); rank 2 always matters
    (Superkänä)."""
    return tuple(r == 0 or _VALUES[r] + 14 >= best for r in range(_NRANKS))


def _canon(counts: tuple[int, ...], best: int) -> tuple[int, ...]:
    rel = _relevant(best)
    return tuple(c if rel[r] else -1 for r, c in enumerate(counts))


def _sequential_outcomes(players: int, track_seats: bool) -> dict[object, int]:
    """Ordered-deal DP: seat 0 takes a pair from the full deck, seat 1 from what is left, ...

    State: (canonical remaining counts per rank, best key, holders) where holders is the
    frozenset of seats holding the best key (``track_seats``) or min(#holders, 2).
    Ranks that can no longer matter are stored as -1; their cards are still counted in the
    known total of remaining cards (52 - 2 * seats dealt).  The last seat creates no state:
    its pairs are split into above / equal to / below the best key.  Returns
    {holders: weight}, weights = numbers of ordered tuples of disjoint card pairs.
    """
    states: dict[tuple, int] = {((_SUITS,) * _NRANKS, 0, None): 1}
    for seat in range(players - 1):
        remaining = _DECK - 2 * seat
        new: dict[tuple, int] = {}
        for (counts, best, holders), w in states.items():
            known = sum(c for c in counts if c >= 0)
            unknown = remaining - known  # cards of forgotten ranks
            # pairs with at least one forgotten card: lose against best (value < best)
            # unknown-unknown pairs
            lose_ways = comb(unknown, 2)
            if lose_ways:
                key = (counts, best, holders)
                new[key] = new.get(key, 0) + w * lose_ways
            for r in range(_NRANKS):
                c = counts[r]
                if c > 0 and unknown:
                    cnt = list(counts)
                    cnt[r] -= 1
                    key = (tuple(cnt), best, holders)
                    new[key] = new.get(key, 0) + w * unknown * c
            for a, b, k in _RANK_PAIRS:
                ca, cb = counts[a], counts[b]
                if a == b:
                    ways = ca * (ca - 1) // 2 if ca >= 2 else 0
                else:
                    ways = ca * cb if ca > 0 and cb > 0 else 0
                if not ways:
                    continue
                cnt = list(counts)
                cnt[a] -= 1
                cnt[b] -= 1
                if k > best:
                    nb, nh = k, (frozenset((seat,)) if track_seats else 1)
                    cnt = list(_canon(tuple(cnt), k))
                elif k == best:
                    nb, nh = best, (holders | {seat} if track_seats else 2)
                else:
                    nb, nh = best, holders
                key = (tuple(cnt), nb, nh)
                new[key] = new.get(key, 0) + w * ways
        states = new
    # the last seat creates no new state: split its pairs into above / equal to / below best
    last = players - 1
    remaining = _DECK - 2 * last
    all_pairs = comb(remaining, 2)
    out: dict[object, int] = {}
    for (counts, best, holders), w in states.items():
        above = equal = 0
        for a, b, k in _RANK_PAIRS:
            if k < best:
                continue
            ca, cb = counts[a], counts[b]
            if a == b:
                ways = ca * (ca - 1) // 2 if ca >= 2 else 0
            else:
                ways = ca * cb if ca > 0 and cb > 0 else 0
            if k > best:
                above += ways
            else:
                equal += ways
        below = all_pairs - above - equal
        for h, ways in (
            (frozenset((last,)) if track_seats else 1, above),
            ((holders | {last}) if track_seats else 2, equal),
            (holders, below),
        ):
            if ways:
                out[h] = out.get(h, 0) + w * ways
    return out


def _p_extra_round_sequential(players: int) -> Fraction:
    """P(extra round) by the player-by-player DP (independent of :func:`p_extra_round`);
    exact but slow beyond 4 players.  For cross-checks."""
    out = _sequential_outcomes(players, track_seats=False)
    total = sum(out.values())
    tied = sum(w for h, w in out.items() if h == 2)
    return Fraction(tied, total)


@lru_cache(maxsize=None, typed=True)
def win_probabilities(players: int) -> tuple[Fraction, ...]:
    """P(seat s wins the round, extra rounds included), for s = 0..players-1.

    For 2..4 players this is a genuine calculation: an ordered-deal DP over the seats
    (seat 0 takes a pair from the full deck, seat 1 from the rest, ...) that tracks which
    seats hold the best key; each of the ``j`` seats tied for best is credited ``1/j``,
    because the extra rounds deal blind fresh cards to the tied players and are therefore
    exchangeable among them.  The deal order makes the seats' computations differ, so the
    equal answers are a result, not an assumption.

    For 5..17 players it returns ``1/players`` for every seat without computing: all
    choices are blind, so the joint distribution of the seats' kept pairs is invariant
    under permuting the seats (the deal is exchangeable), and so is the extra-round
    procedure; hence every seat has the same winning chance, and they sum to 1.

    >>> win_probabilities(2)
    (Fraction(1, 2), Fraction(1, 2))
    >>> win_probabilities(6)[5]
    Fraction(1, 6)
    """
    _check_players(players)
    if players > _WIN_EXACT_MAX:
        return tuple(Fraction(1, players) for _ in range(players))
    out = _sequential_outcomes(players, track_seats=True)
    total = sum(out.values())
    credit = [Fraction(0)] * players
    for holders, w in out.items():
        assert isinstance(holders, frozenset)  # track_seats: the key is the seats holding the best pair
        share = Fraction(w, total * len(holders))
        for s in holders:
            credit[s] += share
    return tuple(credit)


# ---------------------------------------------------------------------------------------
# Extra rounds and the last turn round
# ---------------------------------------------------------------------------------------


@lru_cache(maxsize=None, typed=True)
def p_extra_ties_again(tied: int, deck: str = "fresh") -> Fraction:
    """P(an extra round among ``tied`` players ties again), fresh deck, ``tied`` = 2..17.

    Each tied player gets 2 cards and känäs one blind, so the dark cards are ``tied``
    distinct uniform cards of a full deck; the round ties again when the highest dark rank
    is held by two or more players.  Counting sets whose top rank r appears j >= 2 times:
    ``sum_r sum_j C(4, j) C(4 r, tied - j) / C(52, tied)`` (4 r cards lie below rank r).

    Only ``deck="fresh"`` has a closed form: with ``"remaining"`` (the default tiebreak
    deck, docs/rules/kana.md §3.5) the stock depends on the cards already dealt.

    >>> p_extra_ties_again(2)
    Fraction(1, 17)
    >>> p_extra_ties_again(2, deck="remaining")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: deck='remaining': only deck='fresh' has a closed form; ...
    """
    if deck != "fresh":
        raise ValueError(
            f"deck={deck!r}: only deck='fresh' has a closed form; with the remaining stock "
            "the probability depends on the cards already dealt"
        )
    _check_players(tied, "tied")
    k = tied
    hits = 0
    for r in range(_NRANKS):
        below = _SUITS * r
        for j in range(2, min(_SUITS, k) + 1):
            hits += comb(_SUITS, j) * comb(below, k - j)
    return Fraction(hits, comb(_DECK, k))


@lru_cache(maxsize=None, typed=True)
def last_round_starter_probabilities(players: int, tie: str = "earliest") -> tuple[Fraction, ...]:
    """P(seat s starts the last turn round), s = 0..players-1, exact, players 2..17.

    The starter of the last turn round is the seat whose first-turned card has the lowest
    rank; the first-turned cards are ``players`` distinct uniform cards (blind choices).
    Rank ties go to the tied seat earliest clockwise from the starter, seat 0
    (``tie="earliest"``, cardodds' default, docs/rules/kana.md §2.5) or the latest (``tie="latest"``).

    Seat s starts with minimum rank m ("earliest") when its card is one of the 4 of rank m,
    seats before it have ranks > m and seats after it ranks >= m; ordered sequences are
    counted with falling factorials.

    >>> last_round_starter_probabilities(2)
    (Fraction(9, 17), Fraction(8, 17))
    >>> last_round_starter_probabilities(2, tie="latest")
    (Fraction(8, 17), Fraction(9, 17))
    """
    if tie not in ("earliest", "latest"):
        raise ValueError(f"tie must be 'earliest' or 'latest', got {tie!r}")
    n = _check_players(players)
    total = _falling(_DECK, n)
    probs = []
    for s in range(n):
        # strict = seats that must be strictly above m, weak = seats that may equal m
        strict, weak = (s, n - 1 - s) if tie == "earliest" else (n - 1 - s, s)
        ways = 0
        for m in range(_NRANKS):
            above = _SUITS * (_NRANKS - 1 - m)  # cards of rank > m
            ways += _SUITS * _falling(above, strict) * _falling(above + _SUITS - 1 - strict, weak)
        probs.append(Fraction(ways, total))
    return tuple(probs)
