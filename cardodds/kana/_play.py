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

Arguments travel in named bundles rather than long lists: the packed rules (``rules.RULES``),
the strategies (:data:`Strategies`), the advisor's posterior weights (:data:`Posterior`),
a chunk's scratch arrays (:data:`Work`), and the offsets of each kernel's counts layout
(:func:`config_layout`, :func:`advice_layout`, :func:`rejection_layout`).
"""

from collections import namedtuple

import numpy as np
from numba import types

from .._jit import callback, helper, inline, kernel, loop
from .._random import deal3_from, deal_from, next_u64
from ..layout import Layout
from ._kernels import EXTRA, EXTRA_BLOCK, X, hand_key, hand_value, play_extra_rounds, random_position, unpack_rules

#: A table's strategies as the kernels read them (``strategies.pack``), indexed
#: ``[configuration, seat]``: kind, blind position, whether the context is used, the
#: peek-one table ``t1[c, p, ctx, rank]`` and the peek-all table ``t3[c, p, ctx, combo]``.
Strategies = namedtuple("Strategies", ["kinds", "args", "ctxmode", "t1", "t3"])
#: The advisor's posterior weights over the pairs ``(px[q], py[q])`` (:func:`posterior_tables`).
Posterior = namedtuple("Posterior", ["cum", "total", "zmax", "px", "py"])
#: A chunk's scratch arrays (:func:`new_work`).
Work = namedtuple("Work", ["hands", "kept", "kanad", "key", "tied", "dark", "winners", "deck", "saved", "state"])

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


@inline
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


@helper
def combo_of(h0, h1, h2):
    a, b, c, ra, rb, rc = _sort3(h0 >> 2, h1 >> 2, h2 >> 2)
    return COMBO[ra, rb, rc]


@inline
def context_of(kanad, nk, mode):
    """The highest rank among the first ``nk`` känäd cards (:data:`NO_CONTEXT` for none, or
    when the strategy ignores the context, ``mode`` 0)."""
    if mode == 0 or nk == 0:
        return NO_CONTEXT
    top = 0
    for j in range(nk):
        top = max(top, kanad[j] >> 2)
    return top


@helper
def _ask_custom(custom, p, hand, peeked, kanad, nk, s):
    """The call into a custom strategy, compiled with numba's reference counting: the callers
    are ``@loop`` functions (without it), and a user's function called straight from such a
    loop corrupted the heap in Kanalje (see ARCHITECTURE.md, Speed)."""
    return custom(p, hand, peeked, kanad, nk, s)


@inline
def decide(s, c, p, kinds, args, ctxmode, t1, t3, hand, kanad, nk, custom, peeked):
    """Position (0..2) of the card seat ``p`` känäs under configuration ``c``.

    ``hand`` holds the seat's three cards. The strategy arrays come apart, bound once by the
    caller: in a function with reference counting, a field read from the :data:`Strategies`
    bundle costs an update on every decision, and so does each array an inlined function
    takes. The hot loops (:func:`_configs_loop`, :func:`_worlds_loop`) are compiled without
    reference counting, where neither costs anything.
    """
    kind = kinds[c, p]
    if kind == KIND_BLIND:
        pos = args[c, p]
        if pos < 0:
            pos = random_position(s)
        return pos
    if kind == KIND_CUSTOM:
        return _ask_custom(custom, p, hand, peeked, kanad, nk, s)
    ctx = context_of(kanad, nk, ctxmode[c, p])
    if kind == KIND_PEEK_ONE:
        # The two unseen cards are exchangeable: känäing "an unseen card" is position 1.
        return 0 if t1[c, p, ctx, hand[0] >> 2] else 1
    a, b, cc, ra, rb, rc = _sort3(hand[0] >> 2, hand[1] >> 2, hand[2] >> 2)
    j = t3[c, p, ctx, COMBO[ra, rb, rc]]
    if j < 0:
        return random_position(s)
    if j == 0:
        return a
    if j == 1:
        return b
    return cc


@inline
def _kana(hand, pos, p, kanad, kept):
    """Seat ``p`` känäs ``hand[pos]``; the other two, in order, are its kept cards."""
    h0 = hand[0]
    h1 = hand[1]
    h2 = hand[2]
    kanad[p] = hand[pos]
    # Selects, not a loop over the three: a hot loop's branch on the position mispredicts.
    kept[p, 0] = h1 if pos == 0 else h0
    kept[p, 1] = h1 if pos == 2 else h2


#: ``decide(seat, hand, peeked, kanad, n_kanad, state) -> position``: the kernels call a custom
#: strategy through a pointer of this type (documented in :mod:`cardodds.kana.view`), so they are
#: compiled, and cached, once, whatever the function.
CUSTOM_SIGNATURE = types.int64(types.int64, types.int64[::1], types.int64, types.int64[::1], types.int64,
                               types.uint64[::1])


@callback(CUSTOM_SIGNATURE)
def no_custom(seat, hand, peeked, kanad, n_kanad, s):
    """Stands in for a custom strategy at tables without one (never called there)."""
    return 0


@inline
def new_work(n, C):
    """Scratch arrays for a table of ``n`` played under ``C`` configurations or options."""
    return Work(np.empty((n, 3), np.int64), np.empty((n, 2), np.int64), np.empty(n, np.int64),
                np.empty(n, np.int64), np.empty(n, np.int64), np.empty(n, np.int64), np.empty(C, np.int64),
                np.empty(52, np.int64), np.empty(52, np.int64), np.empty(4, np.uint64))


@inline
def peeked_cards(variant):
    """How many of its cards a player has seen: 0 official, 1 peek-one, 3 peek-all."""
    return 0 if variant == 0 else (1 if variant == 1 else 3)


@inline
def settle(s, out, block, deck, i, m, n, fresh, extra_all, kept, key, tied, dark):
    """The turn rounds and any extra rounds of the hands in ``kept``: returns ``(winner,
    restocked)``; extra-round counts go to the block at ``block``. Scratch arrays come apart
    (bound once by the caller), as for :func:`decide`."""
    best = -1
    for p in range(n):
        kk = hand_key(kept[p, 0], kept[p, 1])
        key[p] = kk
        if kk > best:
            best = kk
    k = np.int64(0)  # not the literal 0: numba would compile play_extra_rounds twice
    for p in range(n):
        if key[p] == best:
            tied[k] = p
            k += 1
    if k == 1:
        out[block + X.per_round] += 1  # settled without an extra round
        return tied[0], False
    winner, i, m, restocked = play_extra_rounds(
        s, out, block, deck, i, m, n, k, tied, kept, fresh, extra_all, dark
    )
    return winner, restocked


def config_layout(n: int, C: int, K: int) -> Layout:
    """Counts of :func:`play_configs`: ``C`` configurations, ``K`` focal keys, ``P`` pairs."""
    P = C * (C - 1) // 2
    return Layout("kana configuration counts", [
        ("deals", K),  # deals by the focal seat's key
        ("focal_wins", C * K),  # [c, key]
        ("plus", P * K),  # [pair, key]: the first of the pair wins, the second not
        ("minus", P * K),
        ("wins", C * n),  # [c, seat]
        ("hand_value", C * 25),  # [c, value - 4] of the focal seat
        ("extra", C * EXTRA.size),  # an extra-round block per configuration
    ])


#: Field numbers of :func:`config_layout`.
CONFIG = config_layout(2, 2, 1).index


@helper
def _focal_key(variant, h0, h1, h2):
    """The focal seat's key: its peeked rank (peek-one), its ranks' combination (peek-all)."""
    if variant == 1:
        return h0 >> 2
    if variant == 2:
        return combo_of(h0, h1, h2)
    return 0


@inline
def _count_pairs(out, o_plus, o_minus, stride, key, won, C):
    """Paired outcomes: for each pair of configurations, whether only the first or only the
    second won (bit ``c`` of ``won`` set: configuration ``c`` won), at ``o_plus/o_minus +
    pair * stride + key``. The wins come as bits, not an array: an inlined function pays a
    reference count for each array it takes, every call."""
    pair = 0
    for c1 in range(C):
        for c2 in range(c1 + 1, C):
            w1 = (won >> c1) & 1
            w2 = (won >> c2) & 1
            if w1 > w2:
                out[o_plus + pair * stride + key] += 1
            elif w2 > w1:
                out[o_minus + pair * stride + key] += 1
            pair += 1


@kernel
def play_configs(s, nrounds, out, rules, lay, st, focal, custom):
    """Play every deal once under each configuration of ``st``, from the same cards and stream.

    ``focal`` is the seat whose results are broken down (by its peeked rank in peek-one,
    its hand's rank combination in peek-all) and paired between configurations. ``rules`` is
    ``KanaRules.pack()``, ``lay`` the offsets of :func:`config_layout`. Allocates the chunk's
    arrays; the deals are :func:`_configs_loop`.
    """
    n = unpack_rules(rules)[0]
    C = st.kinds.shape[0]
    _configs_loop(s, nrounds, out, rules, lay, st, focal, custom, new_work(n, C), np.empty((C, 2), np.int64))


@loop
def _configs_loop(s, nrounds, out, rules, lay, st, focal, custom, w, kept_f):
    """The deals of :func:`play_configs`; ``kept_f[c]`` the focal seat's kept cards under ``c``."""
    n, fresh, extra_all, _latest, variant = unpack_rules(rules)
    hands, kept, kanad, key, tied, dark, winners, deck, saved, state = w
    kinds, args, ctxmode, t1, t3 = st
    C = kinds.shape[0]
    K = 1 if variant == 0 else (13 if variant == 1 else COMBOS)
    o_extra = lay[CONFIG.extra]
    o_deals = lay[CONFIG.deals]
    o_fw = lay[CONFIG.focal_wins]
    o_wins = lay[CONFIG.wins]
    o_hist = lay[CONFIG.hand_value]
    o_plus = lay[CONFIG.plus]
    o_minus = lay[CONFIG.minus]
    peeked = peeked_cards(variant)
    for j in range(52):
        deck[j] = j
    f = focal
    for _ in range(nrounds):
        m = 52
        for p in range(n):
            hands[p, 0], hands[p, 1], hands[p, 2] = deal3_from(s, deck, 3 * p, m)
        fkey = _focal_key(variant, hands[f, 0], hands[f, 1], hands[f, 2])
        for j in range(52):
            saved[j] = deck[j]
        for j in range(4):
            state[j] = s[j]
        restocked = False
        for c in range(C):
            for j in range(4):
                s[j] = state[j]
            for j in range(52):
                deck[j] = saved[j]
            for p in range(n):
                hp = hands[p]  # a view: no copy, and no reference count here
                pos = decide(s, c, p, kinds, args, ctxmode, t1, t3, hp, kanad, p, custom, peeked)
                _kana(hp, pos, p, kanad, kept)
            kept_f[c, 0] = kept[f, 0]
            kept_f[c, 1] = kept[f, 1]
            winners[c], restocked = settle(s, out, o_extra + c * EXTRA_BLOCK, deck, 3 * n, m, n, fresh, extra_all,
                                           kept, key, tied, dark)
        out[o_deals + fkey] += 1
        won = 0
        for c in range(C):
            wc = winners[c]
            out[o_wins + c * n + wc] += 1
            out[o_hist + c * 25 + hand_value(kept_f[c, 0], kept_f[c, 1]) - 4] += 1
            if wc == f:
                out[o_fw + c * K + fkey] += 1
                won |= 1 << c
        _count_pairs(out, o_plus, o_minus, K, fkey, won, C)
        if restocked or fresh:
            for j in range(52):
                deck[j] = j


# ---------------------------------------------------------------------------------------
# Advice: worlds consistent with what a player knows
# ---------------------------------------------------------------------------------------


@helper
def kana_probability(st, p, ctx, k, x, y):
    """P(seat ``p`` känäs card ``k`` | its hand is {k, x, y}, context ``ctx``).

    The three cards lie in a uniformly random order, so this averages the strategy's
    choice over the six orders; a random choice counts 1/3.
    """
    h = np.empty(3, np.int64)
    kinds, args, _ctxmode, t1, t3 = st
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


@helper
def posterior_tables(n, me, kanad_known, pool, st):
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
                acc += kana_probability(st, p, ctx, k, px[q], py[q])
                cum[p, ctx, q] = acc
            total[p, ctx] = acc
            if acc > zmax[p]:
                zmax[p] = acc
    return cum, total, zmax, px, py


@inline
def _uniform(s):
    return (next_u64(s) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@inline
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


@kernel
def advise_worlds(s, nworlds, out, rules, lay, st, me, my_cards, kanad_known, options, pool, post, custom, twin=None):
    """Sample ``nworlds`` deals consistent with what seat ``me`` knows and play each option.

    Known: ``my_cards`` (-1 unknown; in peek-one position 0 is the peeked card) and the
    känäd cards of earlier seats (``kanad_known``, -1 not seen). An earlier seat's known
    känäd card weighs its other two cards by how likely its strategy känäs that card
    (posterior weights ``post``); the independent draws are joined by rejection on any
    clash and on the weights' normaliser (``total/zmax``), which makes the joint draw exact.

    Counts by :func:`advice_layout` (``lay`` its offsets). With ``twin`` True this is the slow
    twin :func:`advise_by_rejection` (``post`` is not read); left out, numba compiles none of
    the twin's code. Both play my options on a deal the same way.

    Allocates the chunk's arrays; the worlds are :func:`_worlds_loop`.
    """
    n = unpack_rules(rules)[0]
    _worlds_loop(s, nworlds, out, rules, lay, st, me, my_cards, kanad_known, options, pool, post, custom, twin,
                 new_work(n, options.shape[0]), np.empty(52, np.int64))


@loop
def _worlds_loop(s, nworlds, out, rules, lay, st, me, my_cards, kanad_known, options, pool, post, custom, twin, w,
                 pos_of):
    """The worlds of :func:`advise_worlds`; ``pos_of[card]`` is where a card lies in the stock."""
    n, fresh, extra_all, _latest, variant = unpack_rules(rules)
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
                pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hands[p], kanad, p, custom, peeked)
                _kana(hands[p], pos, p, kanad, kept)
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
                        pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hands[p], kanad, p, custom, peeked)
                        _kana(hands[p], pos, p, kanad, kept)
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
                    pos = decide(s, 0, p, kinds, args, ctxmode, t1, t3, hp, kanad, p, custom, peeked)
                _kana(hp, pos, p, kanad, kept)
            winners[c], _r = settle(s, out, o_extra + c * EXTRA_BLOCK, deck, i, npool, n, fresh, extra_all, kept,
                                    key, tied, dark)
        won = 0
        for c in range(C):
            if winners[c] == me:
                out[o_wins + c] += 1
                won |= 1 << c
        if twin is None:
            _count_pairs(out, o_plus, o_minus, 1, 0, won, C)


@kernel
def advise_by_rejection(s, ndeals, out, rules, lay, st, me, my_cards, kanad_known, options, pool, custom):
    """Slow twin of :func:`advise_worlds` for tests: deal every unknown card at random (``pool``
    holds the känäd cards too), play the earlier seats' strategies, and keep only deals whose
    känäd cards are the ones seen. Counts by :func:`rejection_layout` (``lay`` its offsets)."""
    unused = Posterior(np.zeros((1, 1, 1)), np.zeros((1, 1)), np.zeros(1), np.zeros(1, np.int64), np.zeros(1, np.int64))
    advise_worlds(s, ndeals, out, rules, lay, st, me, my_cards, kanad_known, options, pool, unused, custom, True)
