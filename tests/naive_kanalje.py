"""A slow, obviously-correct twin of the Kanalje deal kernel with random players.

It is written from RULES.md 2.1 with Python lists and draws its random numbers in the same
order as the kernel (the same xoshiro256** state and bounded draws), so both must produce
identical counts.
"""

from cardodds._random import bounded, next_u64

PENALTY = {0: 2, 1: 3, 2: 4, 3: 1}  # jack of clubs, diamonds, hearts, spades
JACK = 9


def suit(c):
    return c % 4


def rank(c):
    return c // 4


def _lemire32(x, bound):
    """j = floor(x * bound / 2**32), or None when Lemire's method rejects x."""
    m = x * bound
    low = m & 0xFFFFFFFF
    if low < bound and low < (2**32 - bound) % bound:
        return None
    return m >> 32


def shuffle(state, deck):
    """Fisher-Yates from the top, two 32-bit draws per 64-bit word (high half first);
    a rejected draw discards the rest of its word."""
    i = len(deck) - 1
    while i > 0:
        word = int(next_u64(state))
        for half in (word >> 32, word & 0xFFFFFFFF):
            j = _lemire32(half, i + 1)
            if j is None:
                break
            deck[i], deck[j] = deck[j], deck[i]
            i -= 1
            if i == 0:
                break


def legal(hand, trick):
    if not trick:
        return sorted(hand)
    same = [c for c in hand if suit(c) == suit(trick[0])]
    return sorted(same) if same else sorted(hand)


def winner_index(trick, trump):
    best = 0
    for i in range(1, len(trick)):
        c, b = trick[i], trick[best]
        if suit(c) == suit(b) and rank(c) > rank(b):
            best = i
        elif suit(c) == trump and suit(b) != trump:
            best = i
    return best


def play_random_deal(state, deck, turned_jack="dead"):
    """Deal from the persistent ``deck`` list and play with random players; seat 0 leads."""
    shuffle(state, deck)
    hands = [list(deck[17 * s:17 * s + 17]) for s in range(3)]
    turned = deck[51]
    trump = suit(turned)
    dealt_holder = {s: next((p for p in range(3) if 36 + s in hands[p]), None) for s in range(4)}
    tricks = [0, 0, 0]
    pen = [0, 0, 0]
    taker = {}
    leader = 0
    for _ in range(17):
        trick = []
        for k in range(3):
            seat = (leader + k) % 3
            options = legal(hands[seat], trick)
            c = options[0] if len(options) == 1 else options[int(bounded(state, len(options)))]
            hands[seat].remove(c)
            trick.append(c)
        w = (leader + winner_index(trick, trump)) % 3
        tricks[w] += 1
        for c in trick:
            if rank(c) == JACK:
                pen[w] += PENALTY[suit(c)]
                taker[suit(c)] = w
        leader = w
    if rank(turned) == JACK:
        if turned_jack == "last_trick":
            pen[leader] += PENALTY[suit(turned)]
            taker[suit(turned)] = leader
        else:
            taker[suit(turned)] = None
    scores = [tricks[s] - pen[s] for s in range(3)]
    return scores, pen, tricks, taker, dealt_holder, turned
