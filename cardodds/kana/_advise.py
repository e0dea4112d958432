"""Compiled Känä advice: deals consistent with what a player knows, every option of its
känä played on each (docs/rules/kana.md §5). Private.

:func:`advise_worlds` samples deals consistent with what a player knows and plays each of
its känä options on every one of them; :func:`advise_by_rejection` is its slow twin for the
tests. The earlier seats' känäd cards weigh their kept cards by the policies' choices
(:func:`posterior_tables`, bundled as :data:`Posterior`).
"""

from collections import namedtuple

import numpy as np

from .._jit import helper, loop
from .._random import deal3_from, deal_from, next_u64
from ..layout import Layout
from ._kernels import count_pairs
from ._policies import KIND_BLIND, KIND_PEEK_ONE, NCTX, context_of, decide
from ._table import COMBO, EXTRA, EXTRA_BLOCK, kana_card, new_work, peeked_cards, settle, unpack_rules
from .rules import RULES

#: The advisor's posterior weights over the pairs ``(px[q], py[q])`` (:func:`posterior_tables`).
Posterior = namedtuple("Posterior", ["cum", "total", "zmax", "px", "py"])
#: What the advised seat ``me`` knows: its cards (-1 unknown), the earlier seats' känäd cards
#: (-1 not seen), its options (positions to känä) and the pool of cards it has not seen.
PositionArrays = namedtuple("PositionArrays", ["me", "my_cards", "kanad_known", "options", "pool"])
R = RULES.at


#: Where a seat's cards ``(k, x, y)`` lie in each of the six orders, as :func:`kana_probability` counts them.
_ORDERS = ((0, 1, 2), (0, 2, 1), (1, 0, 2), (2, 0, 1), (1, 2, 0), (2, 1, 0))


def kana_probability(st, p, k, x, y):
    """P(seat ``p`` känäs card ``k`` | its hand is {k, x[q], y[q]}), for every context (rows)
    and every pair ``q`` (columns).

    The three cards lie in a uniformly random order, so this averages the strategy's
    choice over the six orders; a random choice counts 1/3. NumPy over all pairs and
    contexts at once, adding the orders one after another as a loop over them would, so
    the weights are the same floats to the last bit.
    """
    kinds, args, _ctxmode, t1, t3 = st
    kind = kinds[0, p]
    cards = (np.full(x.shape[0], k, np.int64), x, y)
    total = np.zeros((t1.shape[2], x.shape[0]))
    for order in _ORDERS:
        h = [cards[order.index(0)], cards[order.index(1)], cards[order.index(2)]]
        if kind == KIND_BLIND:
            if args[0, p] < 0:
                total += 1.0 / 3.0
            else:
                total += h[args[0, p]] == k
            continue
        if kind == KIND_PEEK_ONE:
            total += np.where(t1[0, p][:, h[0] >> 2] != 0, h[0] == k, h[1] == k)
            continue
        ranks = np.stack([h[0] >> 2, h[1] >> 2, h[2] >> 2])
        by_rank = np.argsort(ranks, axis=0, kind="stable")  # as sort3: ties keep position order
        r = np.take_along_axis(ranks, by_rank, axis=0)
        j = t3[0, p][:, COMBO[r[0], r[1], r[2]]]
        pos = np.take_along_axis(by_rank, np.maximum(j, 0), axis=0)
        hit = np.take_along_axis(np.stack(h), pos, axis=0) == k
        total += np.where(j < 0, 1.0 / 3.0, hit)
    return total / 6.0


def posterior_tables(n, me, kanad_known, pool, st):
    """Cumulative weights over pairs of ``pool`` for each earlier seat with a known känäd
    card and each context: ``(cum[n, NCTX, npairs], total[n, NCTX], zmax[n], px, py)``.

    Plain Python and NumPy, called once per advice (less to compile).
    """
    first, second = np.triu_indices(pool.shape[0], 1)  # pairs (a, b), a < b, in order
    px = pool[first].astype(np.int64)
    py = pool[second].astype(np.int64)
    npairs = px.shape[0]
    cum = np.zeros((n, NCTX, npairs))
    total = np.zeros((n, NCTX))
    zmax = np.zeros(n)
    for p in range(me):
        k = kanad_known[p]
        if k < 0 or npairs == 0:
            continue
        cum[p] = np.cumsum(kana_probability(st, p, k, px, py), axis=1)  # added in pair order
        total[p] = cum[p, :, -1]
        zmax[p] = max(0.0, total[p].max())
    return cum, total, zmax, px, py


@helper
def _uniform(s):
    return (next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@helper
def _take(deck, pos_of, i, c):
    """Move card ``c`` to ``deck[i]`` (dealt); False if it was dealt already."""
    j = pos_of[c]
    if j < i:
        return False
    d = deck[i]
    deck[j] = d
    pos_of[d] = j
    deck[i] = c
    pos_of[c] = i
    return True


@helper
def _pick_pair(s, cum, p, ctx, z, npairs):
    """A pair drawn by the posterior weights ``cum[p, ctx]`` (total ``z``): binary search."""
    u = _uniform(s) * z
    lo = 0
    hi = npairs - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cum[p, ctx, mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return lo


def advice_layout(C: int) -> Layout:
    """Counts of :func:`advise_worlds` for ``C`` options of mine."""
    P = C * (C - 1) // 2
    return Layout("kana advice counts", [
        ("wins", C),  # my wins with each option
        ("plus", P),  # [pair]: I win with the first option of the pair, not the second
        ("minus", P),
        ("rejected", 1),  # draws rejected while sampling the earlier seats' hands
        ("extra", C * EXTRA.size),
    ])


def rejection_layout(C: int) -> Layout:
    """Counts of :func:`advise_by_rejection` for ``C`` options of mine."""
    return Layout("kana rejection counts", [("wins", C), ("accepted", 1), ("extra", C * EXTRA.size)])


#: Field numbers of :func:`advice_layout` and :func:`rejection_layout`.
ADVICE = advice_layout(2).index
REJECTION = rejection_layout(2).index


def advise_worlds(s, nworlds, out, rules, lay, st, known, post, custom, twin=None):
    """Sample ``nworlds`` deals consistent with what seat ``me`` knows (``known``, a
    :data:`PositionArrays`) and play each option.

    Known: ``my_cards`` (-1 unknown; in peek-one position 0 is the peeked card) and the
    känäd cards of earlier seats (``kanad_known``, -1 not seen). An earlier seat's known
    känäd card weighs its other two cards by how likely its strategy känäs that card
    (posterior weights ``post``); the independent draws are joined by rejection on any
    clash and on the weights' normaliser (``total/zmax``), which makes the joint draw exact.

    Counts by :func:`advice_layout` (``lay`` its offsets). With ``twin`` True this is the slow
    twin :func:`advise_by_rejection` (``post`` is not read); left out, numba compiles none of
    the twin's code. Both play my options on a deal the same way.

    Plain Python, allocating the chunk's arrays for the compiled :func:`_worlds_loop` (a
    compiled kernel would compile the loop again).
    """
    n = int(rules[R.players])
    _worlds_loop(s, nworlds, out, rules, lay, st, known, post, custom, twin, new_work(n, known.options.shape[0]),
                 np.empty(52, np.int64))


@loop(from_python=True)
def _worlds_loop(s, nworlds, out, rules, lay, st, known, post, custom, twin, w, pos_of):
    """The worlds of :func:`advise_worlds`; ``pos_of[card]`` is where a card lies in the stock."""
    n, fresh, extra_all, _latest, variant = unpack_rules(rules)
    extra_rules = (fresh, extra_all)  # of the extra rounds
    me, my_cards, kanad_known, options, pool = known
    peeked = peeked_cards(variant)
    C = options.shape[0]
    if twin is not None:
        o_accepted = lay[REJECTION.accepted]
        o_extra = lay[REJECTION.extra]
        o_wins = lay[REJECTION.wins]
    else:
        o_rejected = lay[ADVICE.rejected]
        o_extra = lay[ADVICE.extra]
        o_wins = lay[ADVICE.wins]
        o_plus = lay[ADVICE.plus]
        o_minus = lay[ADVICE.minus]
    hands, kept, kanad, key, tied, dark, winners, deck, saved, state = w
    kinds, args, ctxmode, t1, t3 = st
    if twin is None:
        cum, total, zmax, px, py = post
        npairs = px.shape[0]
    npool = pool.shape[0]
    for _ in range(nworlds):
        if twin is not None:
            # Every unknown card at random, the earlier seats playing their strategies; only a
            # deal whose känäd cards are the ones seen counts.
            for j in range(npool):
                deck[j] = pool[j]
            i = np.int64(0)
            ok = True
            for p in range(me):
                hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, i, npool)
                i += 3
                pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hands[p], kanad, custom, peeked)
                kana_card(hands[p], pos, p, kanad, kept)
                if kanad_known[p] >= 0 and kanad[p] != kanad_known[p]:
                    ok = False
                    break
            if not ok:
                continue
            out[o_accepted] += 1
        else:
            while True:
                # The stock: every card but mine and the känäd cards I have seen.
                for j in range(npool):
                    deck[j] = pool[j]
                    pos_of[pool[j]] = j
                # The seats before mine, consistent with the känäd cards I saw.
                i = np.int64(0)  # not the literal 0: numba would compile play_extra_rounds twice
                ok = True
                for p in range(me):
                    k = kanad_known[p]
                    if k < 0:
                        hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, i, npool)
                        for j in range(3):
                            pos_of[deck[i + j]] = i + j
                        # deal3_from swapped cards within deck[i:npool]; refresh their places
                        i += 3
                        for j in range(i, npool):
                            pos_of[deck[j]] = j
                        pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hands[p], kanad, custom, peeked)
                        kana_card(hands[p], pos, p, kanad, kept)
                        continue
                    ctx = context_of(kanad, p, ctxmode[0, p])
                    z = total[p, ctx]
                    if z <= 0.0 or _uniform(s) * zmax[p] > z:
                        ok = False  # this context makes the seen känä less likely: reject
                        break
                    q = _pick_pair(s, cum, p, ctx, z, npairs)
                    if not _take(deck, pos_of, i, px[q]) or not _take(deck, pos_of, i + 1, py[q]):
                        ok = False
                        break
                    i += 2
                    kanad[p] = k
                    kept[p, 0] = px[q]
                    kept[p, 1] = py[q]
                if ok:
                    break
                out[o_rejected] += 1
        # My hand (the cards I know, the rest from the stock) and the later seats' hands.
        for j in range(3):
            c = my_cards[j]
            if c < 0:
                c, _w, _h = deal_from(s, deck, i, npool, np.uint64(0), 0)
                i += 1
            hands[me, j] = c
        for p in range(me + 1, n):
            hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, i, npool)
            i += 3
        # Each option of mine from here on, from the same stock and random stream.
        for j in range(npool):
            saved[j] = deck[j]
        for j in range(4):
            state[j] = s[j]
        for c in range(options.shape[0]):
            for j in range(4):
                s[j] = state[j]
            for j in range(npool):
                deck[j] = saved[j]
            for p in range(me, n):
                hp = hands[p]  # a view: no copy, and no reference count here
                if p == me:
                    pos = options[c]
                else:
                    pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hp, kanad, custom, peeked)
                kana_card(hp, pos, p, kanad, kept)
            winners[c], _r = settle(s, out, o_extra + c * EXTRA_BLOCK, deck, i, npool, n, extra_rules, kept, key, tied,
                                    dark)
        won = 0
        for c in range(C):
            if winners[c] == me:
                out[o_wins + c] += 1
                won |= 1 << c
        if twin is None:
            count_pairs(out, o_plus, o_minus, 1, 0, won, C)


def advise_by_rejection(s, ndeals, out, rules, lay, st, known, custom):
    """Slow twin of :func:`advise_worlds` for tests: deal every unknown card at random (``pool``
    holds the känäd cards too), play the earlier seats' strategies, and keep only deals whose
    känäd cards are the ones seen. Counts by :func:`rejection_layout` (``lay`` its offsets)."""
    unused = Posterior(np.zeros((1, 1, 1)), np.zeros((1, 1)), np.zeros(1), np.zeros(1, np.int64), np.zeros(1, np.int64))
    advise_worlds(s, ndeals, out, rules, lay, st, known, unused, custom, True)
