"""Slow, obviously-correct twins of the compiled kernels, for tests.

They follow the pages of docs/rules/ step by step with Python lists and consume the random numbers in the
same order as the kernels, so the same chunk state must give exactly the same counts.
They also check card conservation on every deal they play.
"""

from __future__ import annotations

M64 = (1 << 64) - 1
M32 = (1 << 32) - 1
M21 = (1 << 21) - 1


def next_u64(s: list[int]) -> int:
    """xoshiro256** as published by Blackman and Vigna, on a list of four Python ints."""
    result = (_rotl((s[1] * 5) & M64, 7) * 9) & M64
    t = (s[1] << 17) & M64
    s[2] ^= s[0]
    s[3] ^= s[1]
    s[1] ^= s[2]
    s[0] ^= s[3]
    s[2] ^= t
    s[3] = _rotl(s[3], 45)
    return result


def bounded(s: list[int], bound: int) -> int:
    """Lemire's multiply-and-reject on the high 32 bits: 0 .. bound-1."""
    m = (next_u64(s) >> 32) * bound
    if (m & M32) < bound:
        threshold = (2**32 - bound) % bound
        while (m & M32) < threshold:
            m = (next_u64(s) >> 32) * bound
    return m >> 32


def shuffle_prefix(s: list[int], d: list[int], m: int) -> None:
    """Twin of ``cardodds._random.shuffle_prefix``: ``d[0:m]`` becomes a uniform draw from ``d``.

    Position i swaps with ``i + pick`` where the pick is uniform in ``0 .. len(d)-i-1``: two picks
    from each 64-bit word, low half first, Lemire's rejection redrawing from fresh words.
    """
    word = have = 0
    for i in range(m):
        if have == 0:
            word, have = next_u64(s), 2
        r = word & M32
        word >>= 32
        have -= 1
        b = len(d) - i
        prod = r * b
        if (prod & M32) < b:
            threshold = (2**32 - b) % b
            while (prod & M32) < threshold:
                prod = (next_u64(s) & M32) * b
        j = i + (prod >> 32)
        d[i], d[j] = d[j], d[i]


class Xoshiro:
    """The generator state of one chunk, as an object."""

    def __init__(self, state):
        self.s = [int(x) for x in state]

    def next(self) -> int:
        return next_u64(self.s)

    def bounded(self, bound: int) -> int:
        return bounded(self.s, bound)


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & M64


def _lemire(rng: Xoshiro, r: int, bound: int, bits: int) -> int:
    mask = (1 << bits) - 1
    prod = r * bound
    if (prod & mask) < bound:
        threshold = ((1 << bits) - bound) % bound
        while (prod & mask) < threshold:
            prod = (rng.next() & mask) * bound
    return prod >> bits


class Stock:
    """The deck as the kernels hold it: dealt cards first, the stock after them."""

    def __init__(self, cards):
        self.deck = list(cards)
        self.m = len(self.deck)
        self.i = 0
        self.word = 0
        self.have = 0

    def _take(self, j: int) -> int:
        d = self.deck
        d[j], d[self.i] = d[self.i], d[j]
        c = d[self.i]
        self.i += 1
        return c

    def deal(self, rng: Xoshiro, fresh_word: bool = False) -> int:
        if fresh_word:
            self.word, self.have = 0, 0
        if self.have == 0:
            self.word, self.have = rng.next(), 2
        r = self.word & M32
        self.word >>= 32
        self.have -= 1
        return self._take(self.i + _lemire(rng, r, self.m - self.i, 32))

    def deal3(self, rng: Xoshiro) -> list[int]:
        w = rng.next()
        out = []
        for k in range(3):
            r = (w >> (21 * k)) & M21
            out.append(self._take(self.i + _lemire(rng, r, self.m - self.i, 21)))
        return out

    def remaining(self) -> int:
        return self.m - self.i


def value(card: int) -> int:
    return (card >> 2) + 2


def hand_key(a: int, b: int) -> int:
    """A kept pair's order: the sum of values; two 2s (Superkänä) above every sum."""
    if value(a) == 2 and value(b) == 2:
        return 29
    return value(a) + value(b)


def kana_rounds(state, nrounds, n, fresh, extra_all, last_latest, positions, fixed, base_deck):
    """Count what ``play_rounds`` counts, one round at a time, checking every card."""
    rng = Xoshiro(state)
    wins = [0] * n
    hist = [0] * 25
    need = played = resh = 0
    by_k = [0] * 18
    again = [0] * 18
    last = [0] * n
    per_round = [0] * 16
    stock = Stock(base_deck)
    shown = {int(c) for row in fixed for c in row if c >= 0}
    for _ in range(nrounds):
        stock.i = 0
        kanad, kept = [], []
        for p in range(n):
            if fixed[p][0] >= 0:
                k1 = fixed[p][1] if fixed[p][1] >= 0 else stock.deal(rng, fresh_word=True)
                k2 = fixed[p][2] if fixed[p][2] >= 0 else stock.deal(rng, fresh_word=True)
                kanad.append(fixed[p][0])
                kept.append([k1, k2])
                continue
            hand = stock.deal3(rng)
            pos = positions[p] if positions[p] >= 0 else rng.bounded(3)
            kanad.append(hand[pos])
            kept.append([c for q, c in enumerate(hand) if q != pos])
        # Card conservation: every card is in one place, exactly once.
        on_table = kanad + [c for pair in kept for c in pair]
        assert len(set(on_table)) == 3 * n, "a card was dealt twice"
        assert set(on_table).isdisjoint(stock.deck[stock.i : stock.m]), "a dealt card is still in the stock"
        assert len(on_table) + stock.remaining() == 52, "cards went missing"
        assert shown <= set(on_table), "a shown card was not where it was shown"
        # The last turn round starts at the lowest first-turned card.
        firsts = [value(kept[p][0]) for p in range(n)]
        low = min(firsts)
        holders = [p for p in range(n) if firsts[p] == low]
        last[holders[-1] if last_latest else holders[0]] += 1
        hist[value(kept[0][0]) + value(kept[0][1]) - 4] += 1
        keys = [hand_key(a, b) for a, b in kept]
        top = max(keys)
        tied = [p for p in range(n) if keys[p] == top]
        if len(tied) == 1:
            wins[tied[0]] += 1
            per_round[0] += 1
            continue
        need += 1
        if extra_all:
            tied = list(range(n))
        in_hand = {c for p in tied for c in kept[p]}
        restocked = False
        stock.word, stock.have = 0, 0
        count = 0
        while True:
            count += 1
            played += 1
            by_k[len(tied)] += 1
            if fresh:
                stock.deck, stock.m, stock.i = list(range(52)), 52, 0
                restocked = True
            elif stock.remaining() < 2 * len(tied):
                resh += 1
                stock.deck = [c for c in range(52) if c not in in_hand]
                stock.m, stock.i = len(stock.deck), 0
                restocked = True
            before = set(stock.deck[stock.i : stock.m])
            darks, dealt = [], []
            for _p in tied:
                dealt.append(stock.deal(rng))
                darks.append(stock.deal(rng))
                dealt.append(darks[-1])
            assert len(set(dealt)) == len(dealt) and set(dealt) <= before, "extra-round cards not from the stock"
            if not fresh:
                assert in_hand.isdisjoint(dealt), "a tied player's hand card was dealt again"
            ranks = [value(c) for c in darks]
            best = max(ranks)
            still = [p for p, r in zip(tied, ranks) if r == best]
            if len(still) == 1:
                wins[still[0]] += 1
                per_round[min(count, 15)] += 1
                break
            again[len(tied)] += 1
            in_hand = {c for p, c in zip(tied, darks) if value(c) == best}
            tied = still
        if restocked:
            stock.deck, stock.m = list(base_deck), len(base_deck)
    return wins + hist + last + [need, played] + by_k + again + [resh] + per_round
