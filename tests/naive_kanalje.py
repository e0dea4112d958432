"""A slow, obviously-correct twin of the Kanalje deal kernel with random players.

It is written from docs/rules/kanalje.md §2 and §3 with Python lists and draws its random numbers in the same
order as the kernel, from the pure-Python xoshiro256** twin of :mod:`tests.naive` (``rng``, a
:class:`~tests.naive.Xoshiro` started from the kernel's chunk state), so both must produce
identical counts. ``deck`` is a :class:`~tests.naive.Stock` kept from deal to deal, as the
kernel keeps its deck array.
"""

from .naive import Stock, Xoshiro

PENALTY = {0: 2, 1: 3, 2: 4, 3: 1}  # jack of clubs, diamonds, hearts, spades
JACK = 9


def suit(c):
    return c % 4


def rank(c):
    return c // 4


def shuffle(rng: Xoshiro, deck: Stock, m: int) -> list[int]:
    """``cardodds._random.shuffle_prefix``: a partial Fisher-Yates from the top, ``deck[0:m]``
    a uniform ordered draw (two 32-bit picks per 64-bit word, low half first); the deck stays
    a permutation for the next deal."""
    deck.i, deck.word, deck.have = 0, 0, 0
    for _ in range(m):
        deck.deal(rng)
    return deck.deck


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


def play_random_deal(rng, deck, turned_jack="dead"):
    """Deal from the persistent ``deck`` and play with random players; seat 0 leads."""
    deck = shuffle(rng, deck, 51)
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
            c = _pick(rng, options)
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


def legal_phase1(hand, trick):
    """docs/rules/kanalje.md §4.3, phase 1: any card, but the second player may not play a jack of another
    suit than the led one (unless it holds nothing else)."""
    if not trick:
        return sorted(hand)
    ok = [c for c in hand if not (rank(c) == JACK and suit(c) != suit(trick[0]))]
    return sorted(ok) if ok else sorted(hand)


def _pick(rng, options):
    return options[0] if len(options) == 1 else options[rng.bounded(len(options))]


def play_random_deal2(rng, deck, phase1_jacks_cost=True):
    """The two-player game (docs/rules/kanalje.md §4) with random players, from the persistent ``deck``:
    seat 0 (non-dealer) gets the first 13 cards and leads, seat 1 the next 13, the other 26
    are the stock from its top. Returns scores, penalties, phase-2 tricks, jack takers
    (None: fell dead in phase 1), phase-1 tricks won and the face-up cards with who took them."""
    deck = shuffle(rng, deck, 51)
    hands = [list(deck[0:13]), list(deck[13:26])]
    stock = list(deck[26:52])
    pen = [0, 0]
    taker = {}
    won1 = [0, 0]
    faceups = []  # (card, leader won)
    played1 = []
    leader = 0
    for _ in range(13):
        trick = []
        for k in range(2):
            seat = (leader + k) % 2
            c = _pick(rng, legal_phase1(hands[seat], trick))
            hands[seat].remove(c)
            trick.append(c)
        lead, follow = trick
        w = (leader + 1) % 2 if (suit(follow) == suit(lead) and rank(follow) > rank(lead)) else leader
        for c in trick:
            if rank(c) == JACK:
                if phase1_jacks_cost:
                    pen[w] += PENALTY[suit(c)]
                    taker[suit(c)] = w
                else:
                    taker[suit(c)] = None
        faceup, hidden = stock.pop(0), stock.pop(0)
        hands[w].append(faceup)
        hands[1 - w].append(hidden)
        faceups.append((faceup, w == leader))
        won1[w] += 1
        played1 += trick
        leader = w
    assert len(hands[0]) == 13 and len(hands[1]) == 13 and not stock
    trump_card = sorted(played1)[rng.bounded(26)]
    trump = suit(trump_card)
    tricks = [0, 0]
    for _ in range(13):
        trick = []
        for k in range(2):
            seat = (leader + k) % 2
            c = _pick(rng, legal(hands[seat], trick))
            hands[seat].remove(c)
            trick.append(c)
        w = (leader + winner_index(trick, trump)) % 2
        tricks[w] += 1
        for c in trick:
            if rank(c) == JACK:
                pen[w] += PENALTY[suit(c)]
                taker[suit(c)] = w
        leader = w
    scores = [tricks[s] - pen[s] for s in range(2)]
    return scores, pen, tricks, taker, won1, faceups, trump_card


def deal_record(trace) -> dict:
    """A Kanalje :class:`~cardodds.trace.Trace` read back trick by trick, from its moves and
    result alone: ``tricks`` as (leader, [card codes], winner), each seat's ``taken``,
    ``penalty`` and ``score``, ``jack_taker`` by suit; with two players the ``faceup`` card each
    phase-1 winner took, ``phase1_won`` per seat and the ``trump_card``."""
    from cardodds.cards import parse_card

    tricks, cards, faceup = [], [], []
    for m in trace.moves:
        if m.action == "play":
            cards.append((m.seat, parse_card(m.cards[0])))
        elif m.action == "win":
            assert [c for _, c in cards] == [parse_card(x) for x in m.cards], (cards, m)
            tricks.append((cards[0][0], [c for _, c in cards], m.seat))
            cards = []
        elif m.action == "take":
            faceup.append(parse_card(m.cards[0]))
    assert cards == [], "a trick without its winner"
    r = trace.result
    out = {"tricks": tricks, "taken": list(r["tricks"]), "penalty": list(r["penalty"]), "score": list(r["score"]),
           "jack_taker": dict(zip(("spades", "clubs", "diamonds", "hearts"), r["jack taker"]))}
    if trace.players == 2:
        out.update(faceup=faceup, phase1_won=[sum(w == s for _, _, w in tricks[:13]) for s in range(2)],
                   trump_card=-1 if trace.info["trump"] == "none" else parse_card(trace.info["trump"]))
    return out
