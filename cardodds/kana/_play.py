"""Compiled Känä rounds with players' strategies (RULES.md 1.2). Private.

A *configuration* is one strategy per seat, packed as arrays (see ``strategies.py``):
``kinds[c, p]``, ``args[c, p]``, ``ctxmode[c, p]``, the peek-one table ``t1[c, p, ctx, rank]``
(1 = känä the peeked card) and the peek-all table ``t3[c, p, ctx, combo]`` (which of the
three cards, lowest-ranked first, to känä; -1 random). A seat's *context* is the highest
rank känäd before it (13 when it is first), so a strategy can react to what it has seen.

:func:`play_configs` plays every deal once per configuration from the same cards and the
same random stream, so configurations are compared on the same deals (paired).
:func:`advise_worlds` samples deals consistent with what a player knows and plays each of
its känä options on every one of them.
"""

import numpy as np
from numba import njit

from .._random import bounded, deal3_from, deal_from, next_u64
from ._kernels import EXTRA_BLOCK, hand_key, hand_value, play_extra_rounds

KIND_BLIND = 0  # känä the card at position args (0..2), or a random one (-1): no look
KIND_PEEK_ONE = 1  # look at position 0; t1 says whether to känä it or an unseen card
KIND_PEEK_ALL = 2  # look at all three; t3 says which (by rank order) to känä
KIND_CUSTOM = 3  # the user's compiled decision function

NCTX = 14  # contexts: the highest rank känäd before (0..12), or 13 for none seen
NO_CONTEXT = 13
COMBOS = 455  # multisets of three ranks


def _combo_table():
    t = np.full((13, 13, 13), -1, np.int64)
    k = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                t[a, b, c] = k
                k += 1
    return t


COMBO = _combo_table()


@njit(inline="always", cache=True)
def _sort3(r0, r1, r2):
    """Positions 0..2 ordered by rank (ties keep position order)."""
    a, b, c = 0, 1, 2
    ra, rb, rc = r0, r1, r2
    if rb < ra:
        a, b = b, a
        ra, rb = rb, ra
    if rc < rb:
        b, c = c, b
        rb, rc = rc, rb
        if rb < ra:
            a, b = b, a
            ra, rb = rb, ra
    return a, b, c, ra, rb, rc


@njit(cache=True)
def combo_of(h0, h1, h2):
    a, b, c, ra, rb, rc = _sort3(h0 >> 2, h1 >> 2, h2 >> 2)
    return COMBO[ra, rb, rc]


@njit(cache=True)
def context_of(kanad, nk, mode):
    if mode == 0 or nk == 0:
        return NO_CONTEXT
    top = 0
    for j in range(nk):
        r = kanad[j] >> 2
        if r > top:
            top = r
    return top


@njit(cache=True)
def decide(s, c, p, kinds, args, ctxmode, t1, t3, hand, kanad, nk, custom, peeked):
    """Position (0..2) of the card seat ``p`` känäs under configuration ``c``."""
    kind = kinds[c, p]
    if kind == KIND_BLIND:
        pos = args[c, p]
        if pos < 0:
            pos = bounded(s, 3)
        return pos
    if kind == KIND_CUSTOM:
        return custom(p, hand, peeked, kanad, nk, s)
    ctx = context_of(kanad, nk, ctxmode[c, p])
    if kind == KIND_PEEK_ONE:
        # The two unseen cards are exchangeable: känäing "an unseen card" is position 1.
        return 0 if t1[c, p, ctx, hand[0] >> 2] else 1
    a, b, cc, ra, rb, rc = _sort3(hand[0] >> 2, hand[1] >> 2, hand[2] >> 2)
    j = t3[c, p, ctx, COMBO[ra, rb, rc]]
    if j < 0:
        return bounded(s, 3)
    if j == 0:
        return a
    if j == 1:
        return b
    return cc


@njit(inline="always", cache=True)
def _kana(hand, pos, p, kanad, kept):
    """Seat ``p`` känäs ``hand[pos]``; the other two, in order, are its kept cards."""
    kanad[p] = hand[pos]
    j = 0
    for q in range(3):
        if q != pos:
            kept[p, j] = hand[q]
            j += 1


@njit(cache=True)
def no_custom(seat, hand, peeked, kanad, n_kanad, s):
    """Placeholder decision function for tables without a custom strategy."""
    return 0


@njit(cache=True)
def settle(s, out, block, deck, i, m, n, kept, fresh, extra_all, key, tied, first, dark, darkkey):
    """The turn rounds and any extra rounds: returns ``(winner, restocked)``."""
    best = -1
    for p in range(n):
        kk = hand_key(kept[p, 0], kept[p, 1])
        key[p] = kk
        if kk > best:
            best = kk
    k = 0
    for p in range(n):
        if key[p] == best:
            tied[k] = p
            k += 1
    if k == 1:
        out[block + 39] += 1  # per-round bin 0: no extra round
        return tied[0], False
    winner, i, m, restocked = play_extra_rounds(
        s, out, block, deck, i, m, n, k, tied, kept, fresh, extra_all, first, dark, darkkey
    )
    return winner, restocked


@njit(cache=True)
def config_offsets(n, C, K):
    """deals[K] | focal wins[C,K] | plus[P,K] | minus[P,K] | wins[C,n] | focal hist[C,25] | extra[C]."""
    P = C * (C - 1) // 2
    deals = 0
    fwins = deals + K
    plus = fwins + C * K
    minus = plus + P * K
    wins = minus + P * K
    hist = wins + C * n
    extra = hist + C * 25
    return deals, fwins, plus, minus, wins, hist, extra, extra + C * EXTRA_BLOCK


@njit(cache=True)
def _focal_key(variant, hand):
    if variant == 1:
        return hand[0] >> 2
    if variant == 2:
        return combo_of(hand[0], hand[1], hand[2])
    return 0


@njit(cache=True)
def _record(out, n, C, K, key, f, winners, kept_f, c_off):
    o_deals, o_fw, o_plus, o_minus, o_wins, o_hist, o_extra, _ = c_off
    out[o_deals + key] += 1
    pair = 0
    for c in range(C):
        w = winners[c]
        out[o_wins + c * n + w] += 1
        out[o_hist + c * 25 + hand_value(kept_f[c, 0], kept_f[c, 1]) - 4] += 1
        if w == f:
            out[o_fw + c * K + key] += 1
    for c1 in range(C):
        for c2 in range(c1 + 1, C):
            w1 = winners[c1] == f
            w2 = winners[c2] == f
            if w1 and not w2:
                out[o_plus + pair * K + key] += 1
            elif w2 and not w1:
                out[o_minus + pair * K + key] += 1
            pair += 1


@njit(nogil=True, cache=True)
def play_configs(s, nrounds, out, n, fresh, extra_all, variant, kinds, args, ctxmode, t1, t3, focal, custom):
    """Play every deal once under each configuration, from the same cards and stream.

    ``focal`` is the seat whose results are broken down (by its peeked rank in peek-one,
    its hand's rank combination in peek-all) and paired between configurations.
    """
    C = kinds.shape[0]
    K = 1 if variant == 0 else (13 if variant == 1 else COMBOS)
    c_off = config_offsets(n, C, K)
    o_extra = c_off[6]
    peeked = 0 if variant == 0 else (1 if variant == 1 else 3)
    hands = np.empty((n, 3), np.int64)
    kept = np.empty((n, 2), np.int64)
    kanad = np.empty(n, np.int64)
    key = np.empty(n, np.int64)
    tied = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    dark = np.empty(n, np.int64)
    darkkey = np.empty(n, np.int64)
    hand = np.empty(3, np.int64)
    winners = np.empty(C, np.int64)
    kept_f = np.empty((C, 2), np.int64)
    deck = np.arange(52)
    saved = np.empty(52, np.int64)
    state = np.empty(4, np.uint64)
    for _ in range(nrounds):
        f = focal
        m = 52
        for p in range(n):
            hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, 3 * p, m)
        fkey = _focal_key(variant, hands[f])
        saved[:] = deck
        state[:] = s
        for c in range(C):
            s[:] = state
            deck[:] = saved
            for p in range(n):
                hand[0] = hands[p, 0]
                hand[1] = hands[p, 1]
                hand[2] = hands[p, 2]
                pos = decide(s, c, p, kinds, args, ctxmode, t1, t3, hand, kanad, p, custom, peeked)
                _kana(hand, pos, p, kanad, kept)
            kept_f[c, 0] = kept[f, 0]
            kept_f[c, 1] = kept[f, 1]
            winners[c], restocked = settle(
                s, out, o_extra + c * EXTRA_BLOCK, deck, 3 * n, m, n, kept, fresh, extra_all, key, tied, first,
                dark, darkkey,
            )
        _record(out, n, C, K, fkey, f, winners, kept_f, c_off)
        if restocked or fresh:
            for j in range(52):
                deck[j] = j


# ---------------------------------------------------------------------------------------
# Advice: worlds consistent with what a player knows
# ---------------------------------------------------------------------------------------


@njit(cache=True)
def kana_probability(kinds, args, ctxmode, t1, t3, p, ctx, k, x, y):
    """P(seat ``p`` känäs card ``k`` | its hand is {k, x, y}, context ``ctx``).

    The three cards lie in a uniformly random order, so this averages the strategy's
    choice over the six orders; a random choice counts 1/3.
    """
    h = np.empty(3, np.int64)
    total = 0.0
    for perm in range(6):
        # perm picks where k, x, y lie
        if perm == 0:
            h[0], h[1], h[2] = k, x, y
        elif perm == 1:
            h[0], h[1], h[2] = k, y, x
        elif perm == 2:
            h[0], h[1], h[2] = x, k, y
        elif perm == 3:
            h[0], h[1], h[2] = y, k, x
        elif perm == 4:
            h[0], h[1], h[2] = x, y, k
        else:
            h[0], h[1], h[2] = y, x, k
        kind = kinds[0, p]
        if kind == KIND_BLIND:
            if args[0, p] < 0:
                total += 1.0 / 3.0
            elif h[args[0, p]] == k:
                total += 1.0
            continue
        if kind == KIND_PEEK_ONE:
            pos = 0 if t1[0, p, ctx, h[0] >> 2] else 1
            if h[pos] == k:
                total += 1.0
            continue
        a, b, cc, ra, rb, rc = _sort3(h[0] >> 2, h[1] >> 2, h[2] >> 2)
        j = t3[0, p, ctx, COMBO[ra, rb, rc]]
        if j < 0:
            total += 1.0 / 3.0
        else:
            pos = a if j == 0 else (b if j == 1 else cc)
            if h[pos] == k:
                total += 1.0
    return total / 6.0


@njit(cache=True)
def posterior_tables(n, me, kanad_known, pool, kinds, args, ctxmode, t1, t3):
    """Cumulative weights over pairs of ``pool`` for each earlier seat with a known känäd
    card and each context: ``(cum[n, NCTX, npairs], total[n, NCTX], zmax[n], px, py)``."""
    npool = pool.shape[0]
    npairs = npool * (npool - 1) // 2
    px = np.empty(npairs, np.int64)
    py = np.empty(npairs, np.int64)
    q = 0
    for a in range(npool):
        for b in range(a + 1, npool):
            px[q] = pool[a]
            py[q] = pool[b]
            q += 1
    cum = np.zeros((n, NCTX, npairs))
    total = np.zeros((n, NCTX))
    zmax = np.zeros(n)
    for p in range(me):
        k = kanad_known[p]
        if k < 0:
            continue
        for ctx in range(NCTX):
            acc = 0.0
            for q in range(npairs):
                acc += kana_probability(kinds, args, ctxmode, t1, t3, p, ctx, k, px[q], py[q])
                cum[p, ctx, q] = acc
            total[p, ctx] = acc
            if acc > zmax[p]:
                zmax[p] = acc
    return cum, total, zmax, px, py


@njit(inline="always", cache=True)
def _uniform(s):
    return (next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(inline="always", cache=True)
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


@njit(cache=True)
def _play_options(s, out, extra_base, deck, saved, state, i, m, n, me, hands, kanad, kept, options, kinds, args,
                  ctxmode, t1, t3, custom, peeked, fresh, extra_all, key, tied, first, dark, darkkey, hand, winners):
    """From my turn on, play the deal once per option of mine (``options[c]`` = position I
    känä), each from the same stock and random stream; winners go to ``winners[c]``."""
    saved[:] = deck
    state[:] = s
    for c in range(options.shape[0]):
        s[:] = state
        deck[:] = saved
        for p in range(me, n):
            for j in range(3):
                hand[j] = hands[p, j]
            if p == me:
                pos = options[c]
            else:
                pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hand, kanad, p, custom, peeked)
            _kana(hand, pos, p, kanad, kept)
        winners[c], _r = settle(s, out, extra_base + c * EXTRA_BLOCK, deck, i, m, n, kept, fresh, extra_all, key, tied,
                                first, dark, darkkey)


@njit(nogil=True, cache=True)
def advise_worlds(s, nworlds, out, n, fresh, extra_all, variant, kinds, args, ctxmode, t1, t3, me, my_cards,
                  kanad_known, options, pool, cum, total, zmax, px, py, custom):
    """Sample ``nworlds`` deals consistent with what seat ``me`` knows and play each option.

    Known: ``my_cards`` (-1 unknown; in peek-one position 0 is the peeked card) and the
    känäd cards of earlier seats (``kanad_known``, -1 not seen). An earlier seat's known
    känäd card weighs its other two cards by how likely its strategy känäs that card
    (posterior weights ``cum``); the independent draws are joined by rejection on any
    clash and on the weights' normaliser (``total/zmax``), which makes the joint draw exact.

    Counts (``C`` = number of options, ``P`` its pairs): my wins[C] | plus[P] | minus[P] |
    rejected draws | extra-round blocks [C].
    """
    C = options.shape[0]
    P = C * (C - 1) // 2
    o_wins = 0
    o_plus = C
    o_minus = C + P
    o_rej = C + 2 * P
    o_extra = o_rej + 1
    peeked = 0 if variant == 0 else (1 if variant == 1 else 3)
    hands = np.empty((n, 3), np.int64)
    kept = np.empty((n, 2), np.int64)
    kanad = np.empty(n, np.int64)
    key = np.empty(n, np.int64)
    tied = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    dark = np.empty(n, np.int64)
    darkkey = np.empty(n, np.int64)
    hand = np.empty(3, np.int64)
    winners = np.empty(C, np.int64)
    deck = np.empty(52, np.int64)
    pos_of = np.empty(52, np.int64)
    saved = np.empty(52, np.int64)
    state = np.empty(4, np.uint64)
    npool = pool.shape[0]
    npairs = px.shape[0]
    for _ in range(nworlds):
        while True:
            # The stock: every card but mine and the känäd cards I have seen.
            for j in range(npool):
                deck[j] = pool[j]
                pos_of[pool[j]] = j
            m = npool
            i = 0
            ok = True
            for p in range(me):
                k = kanad_known[p]
                if k < 0:
                    hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, i, m)
                    for j in range(3):
                        pos_of[deck[i + j]] = i + j
                    # deal3_from swapped cards within deck[i:m]; refresh their places
                    i += 3
                    for j in range(i, m):
                        pos_of[deck[j]] = j
                    for j in range(3):
                        hand[j] = hands[p, j]
                    pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hand, kanad, p, custom, peeked)
                    _kana(hand, pos, p, kanad, kept)
                    continue
                ctx = context_of(kanad, p, ctxmode[0, p])
                z = total[p, ctx]
                if z <= 0.0 or _uniform(s) * zmax[p] > z:
                    ok = False  # this context makes the seen känä less likely: reject
                    break
                u = _uniform(s) * z
                lo = 0
                hi = npairs - 1
                while lo < hi:
                    mid = (lo + hi) // 2
                    if cum[p, ctx, mid] > u:
                        hi = mid
                    else:
                        lo = mid + 1
                x = px[lo]
                y = py[lo]
                if not _take(deck, pos_of, i, x):
                    ok = False
                    break
                i += 1
                if not _take(deck, pos_of, i, y):
                    ok = False
                    break
                i += 1
                kanad[p] = k
                kept[p, 0] = x
                kept[p, 1] = y
            if ok:
                break
            out[o_rej] += 1
        # My hand: the cards I know, the rest from the stock.
        for j in range(3):
            c = my_cards[j]
            if c < 0:
                c, _w, _h = deal_from(s, deck, i, m, np.uint64(0), 0)
                i += 1
            hands[me, j] = c
        for p in range(me + 1, n):
            hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, i, m)
            i += 3
        _play_options(s, out, o_extra, deck, saved, state, i, m, n, me, hands, kanad, kept, options, kinds, args,
                      ctxmode, t1, t3, custom, peeked, fresh, extra_all, key, tied, first, dark, darkkey, hand, winners)
        for c in range(C):
            if winners[c] == me:
                out[o_wins + c] += 1
        pair = 0
        for c1 in range(C):
            for c2 in range(c1 + 1, C):
                w1 = winners[c1] == me
                w2 = winners[c2] == me
                if w1 and not w2:
                    out[o_plus + pair] += 1
                elif w2 and not w1:
                    out[o_minus + pair] += 1
                pair += 1


@njit(nogil=True, cache=True)
def advise_by_rejection(s, ndeals, out, n, fresh, extra_all, variant, kinds, args, ctxmode, t1, t3, me, my_cards,
                        kanad_known, options, pool, custom):
    """Slow twin of :func:`advise_worlds` for tests: deal every unknown card at random, play
    the earlier seats' strategies, and keep only deals whose känäd cards are the ones seen.
    Counts: my wins[C] | accepted deals | extra-round blocks [C]."""
    C = options.shape[0]
    peeked = 0 if variant == 0 else (1 if variant == 1 else 3)
    hands = np.empty((n, 3), np.int64)
    kept = np.empty((n, 2), np.int64)
    kanad = np.empty(n, np.int64)
    key = np.empty(n, np.int64)
    tied = np.empty(n, np.int64)
    first = np.empty(n, np.int64)
    dark = np.empty(n, np.int64)
    darkkey = np.empty(n, np.int64)
    hand = np.empty(3, np.int64)
    npool = pool.shape[0]
    deck = np.empty(52, np.int64)
    saved = np.empty(52, np.int64)
    state = np.empty(4, np.uint64)
    winners = np.empty(C, np.int64)
    for _ in range(ndeals):
        for j in range(npool):
            deck[j] = pool[j]
        i = 0
        for p in range(n):
            if p == me:
                for j in range(3):
                    c = my_cards[j]
                    if c < 0:
                        c, _w, _h = deal_from(s, deck, i, npool, np.uint64(0), 0)
                        i += 1
                    hands[p, j] = c
            else:
                hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, i, npool)
                i += 3
        ok = True
        for p in range(me):
            for j in range(3):
                hand[j] = hands[p, j]
            pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hand, kanad, p, custom, peeked)
            _kana(hand, pos, p, kanad, kept)
            if kanad_known[p] >= 0 and kanad[p] != kanad_known[p]:
                ok = False
                break
        if not ok:
            continue
        out[C] += 1
        _play_options(s, out, C + 1, deck, saved, state, i, npool, n, me, hands, kanad, kept, options, kinds, args,
                      ctxmode, t1, t3, custom, peeked, fresh, extra_all, key, tied, first, dark, darkkey, hand, winners)
        for c in range(C):
            if winners[c] == me:
                out[c] += 1
