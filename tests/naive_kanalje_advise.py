"""Slow, obviously-correct twins of the Kanalje advisor, written from docs/rules/kanalje.md §2 and §3 (and the
two players' phase 2, §4.7: two seats, trump known, the phase-1 tricks dead) with Python sets.

- :func:`replay`: the state after the tricks of a position (tricks, penalties, voids shown,
  the trick in progress).
- :func:`rejection_deal`: the hidden hands dealt uniformly ignoring the voids, a deal that
  contradicts a void shown rejected and dealt again.
- :func:`consistent_deals`: every deal of the hidden hands consistent with the position
  (each equally likely).
- :func:`random_value`: my exact expected points for the whole deal when I play a card now and
  every seat then plays a uniformly random legal card, by enumerating every play.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

PENALTY = {0: 2, 1: 3, 2: 4, 3: 1}  # jack of clubs, diamonds, hearts, spades
JACK = 9


def suit(c):
    return c % 4


def winner_index(trick, trump):
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if suit(c) == suit(b) and c > b:
            best = i
        elif suit(c) == trump and suit(b) != trump:
            best = i
    return best


@dataclass
class State:
    trump: int
    turned: int
    leader: int = 0
    trick: list = field(default_factory=list)  # cards of the trick in progress
    tricks: list = field(default_factory=lambda: [0, 0, 0])
    penalty: list = field(default_factory=lambda: [0, 0, 0])
    played: set = field(default_factory=set)
    void: list = field(default_factory=lambda: [set(), set(), set()])
    count: list = field(default_factory=lambda: [0, 0, 0])
    turned_jack_last: bool = False
    n: int = 3  # players: 3, or 2 in phase 2 (``turned`` is then the dead card that named trump)

    def copy(self):
        return State(self.trump, self.turned, self.leader, list(self.trick), list(self.tricks), list(self.penalty),
                     set(self.played), [set(v) for v in self.void], list(self.count), self.turned_jack_last, self.n)

    def to_play(self):
        return (self.leader + len(self.trick)) % self.n

    def play(self, seat, c, hands=None):
        """``seat`` plays ``c`` (removed from ``hands[seat]`` when hands are given)."""
        if self.trick and suit(c) != suit(self.trick[0]):
            self.void[seat].add(suit(self.trick[0]))
        if hands is not None:
            hands[seat] = hands[seat] - {c}
        self.played.add(c)
        self.count[seat] += 1
        self.trick.append(c)
        if len(self.trick) == self.n:
            w = (self.leader + winner_index(self.trick, self.trump)) % self.n
            self.tricks[w] += 1
            for x in self.trick:
                if x // 4 == JACK:
                    self.penalty[w] += PENALTY[suit(x)]
            self.leader = w
            self.trick = []
            if self.n == 3 and sum(self.count) == 51 and self.turned_jack_last and self.turned // 4 == JACK:
                self.penalty[w] += PENALTY[suit(self.turned)]


def replay(turned, played, turned_jack_last=False, n=3, leader=0):
    """The state after ``played`` (``[(leader, [cards]), ...]``); two players (``n=2``): phase
    2, ``turned`` the dead card that named trump, ``leader`` the first trick's leader."""
    st = State(suit(turned), turned, leader, turned_jack_last=turned_jack_last, n=n)
    for lead, cards in played:
        assert lead == st.leader and not st.trick
        for i, c in enumerate(cards):
            st.play((lead + i) % n, c)
    return st


def _hidden(st, seat, mine):
    """The other seats ``a``, ``b`` (two players: ``b`` 2, the dead phase-1 tricks, which show no
    void), the unseen cards and how many of them ``a`` holds."""
    a, b = (seat + 1) % st.n, (seat + 2) % 3 if st.n == 3 else 2
    unseen = sorted(set(range(52)) - set(mine) - st.played - {st.turned})
    return a, b, unseen, (17 if st.n == 3 else 13) - st.count[a]


def _consistent(st, a, b, ha, hb):
    return not any(suit(c) in st.void[a] for c in ha) and not any(suit(c) in st.void[b] for c in hb)


def rejection_deal(rng, st, seat, mine):
    """``(hand a, hand b)``: the unseen cards dealt uniformly ignoring the voids, dealt again
    until the deal agrees with every void shown (``rng``: a numpy Generator)."""
    a, b, unseen, size_a = _hidden(st, seat, mine)
    while True:
        perm = rng.permutation(unseen)
        ha, hb = frozenset(int(c) for c in perm[:size_a]), frozenset(int(c) for c in perm[size_a:])
        if _consistent(st, a, b, ha, hb):
            return ha, hb


def consistent_deals(st, seat, mine):
    """Every ``(hand a, hand b)`` consistent with the position, each equally likely."""
    a, b, unseen, size_a = _hidden(st, seat, mine)
    out = []
    for ha in itertools.combinations(unseen, size_a):
        ha = frozenset(ha)
        hb = frozenset(unseen) - ha
        if _consistent(st, a, b, ha, hb):
            out.append((ha, hb))
    return out


def legal(hand, trick):
    if not trick:
        return sorted(hand)
    same = [c for c in hand if suit(c) == suit(trick[0])]
    return sorted(same) if same else sorted(hand)


def _expect(st, hands, seat):
    """My expected (tricks, penalty, jacks I take as a set-probability dict) under random play."""
    if not any(hands):
        return st.tricks[seat] - st.penalty[seat]
    p = st.to_play()
    opts = legal(hands[p], st.trick)
    total = 0.0
    for c in opts:
        s2 = st.copy()
        h2 = list(hands)
        s2.play(p, c, h2)
        total += _expect(s2, h2, seat)
    return total / len(opts)


def _value_after(st, seat, mine, card, ha, hb):
    """My exact expected points when the hidden hands are ``ha``, ``hb`` and I play ``card`` now,
    everybody then playing at random."""
    a, b, _, _ = _hidden(st, seat, mine)
    hands = [frozenset(), frozenset(), frozenset()]
    hands[seat], hands[a] = frozenset(mine), ha
    if st.n == 3:
        hands[b] = hb  # two players: hb are the dead phase-1 tricks, in nobody's hand
    s2 = st.copy()
    s2.play(seat, card, hands)
    return _expect(s2, hands, seat)


def random_value(st, seat, mine, card):
    """My exact expected points for the deal when I play ``card`` now and everybody (me too)
    then plays at random, averaged over every consistent deal of the hidden hands."""
    deals = consistent_deals(st, seat, mine)
    return sum(_value_after(st, seat, mine, card, ha, hb) for ha, hb in deals) / len(deals)


def likelihood(turned, played, seat, mine, ha, hb, n=3, leader=0):
    """The probability that random players holding the hidden hands ``ha``, ``hb`` (now) made
    the other seats' plays of ``played``: the product of 1 / (legal cards) at each of them
    (two players, ``n=2``: phase 2 from ``leader``, ``hb`` dead)."""
    hands = [set(), set(), set()]
    for lead, cards in played:
        for i, c in enumerate(cards):
            hands[(lead + i) % n].add(c)
    hands[seat] |= set(mine)
    hands[(seat + 1) % n] |= set(ha)
    if n == 3:
        hands[(seat + 2) % 3] |= set(hb)
    st = State(suit(turned), turned, leader, n=n)
    p = 1.0
    for lead, cards in played:
        for i, c in enumerate(cards):
            s = (lead + i) % n
            if s != seat:
                p /= len(legal(hands[s], st.trick))
            st.play(s, c, hands)
    return p


def posterior(turned, played, seat, mine, n=3, leader=0):
    """Every consistent deal of the hidden hands with its probability given the other seats'
    plays under random players: ``[((hand a, hand b), probability), ...]``."""
    st = replay(turned, played, n=n, leader=leader)
    deals = consistent_deals(st, seat, mine)
    w = [likelihood(turned, played, seat, mine, ha, hb, n, leader) for ha, hb in deals]
    total = sum(w)
    return [(d, x / total) for d, x in zip(deals, w)]


def random_value_inferred(turned, played, seat, mine, card, n=3, leader=0):
    """:func:`random_value` averaged over the deals weighted by :func:`posterior`."""
    st = replay(turned, played, n=n, leader=leader)
    return sum(p * _value_after(st, seat, mine, card, ha, hb)
               for (ha, hb), p in posterior(turned, played, seat, mine, n, leader))


def play_random(rng, st, hands, count):
    """``count`` uniformly random legal plays from ``st`` (hands by seat, changed in place):
    the tricks played, ``[(leader, [cards]), ...]`` (``rng``: a numpy Generator)."""
    played: list = []
    for _ in range(count):
        p = st.to_play()
        if not st.trick:
            played.append((p, []))
        opts = legal(hands[p], st.trick)
        c = opts[int(rng.integers(len(opts)))]
        played[-1][1].append(c)
        st.play(p, c, hands)
    return played
