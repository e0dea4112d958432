"""Compiled Känä rounds: the chunk kernels of the analyses. Private: integer arrays in, counts
out, no validation.

Seats count clockwise from the round's starter (seat 0). A seat's three cards have *roles*
once the känä round is over: 0 = the känäd card, 1 = the first turned card, 2 = the
second turned card. ``fixed[seat, role]`` holds a card already shown (live odds) or -1.

:func:`play_rounds` plays rounds with blind känäs (``odds``); :func:`play_configs` plays
every deal once per configuration of policies (see ``cardodds.kana.policies``), from the same
cards and the same random stream, so configurations are compared on the same deals (paired:
``odds`` with policies, ``compare``, the strategy tables). The round's mechanics are
:mod:`._table`, the policies' decisions :mod:`._policies`.

The packed rules are ``KanaRules.pack()`` (layout ``rules.RULES``); the counts of ``out`` for
``n`` players are laid out by :func:`round_layout` (wins, seat 0's hand value, the last turn
round's starter, and the extra-round block :data:`EXTRA`) and :func:`config_layout`. Kernels
read both by field name.
"""

from collections import namedtuple

import numpy as np

from .._jit import helper, inline, loop
from .._random import deal3_from
from ..layout import Layout
from ._policies import decide
from .rules import RULES
from ._table import (
    COMBOS, EXTRA, EXTRA_BLOCK, SUPERKANA, X, best_holders, best_so_far, combo_of, deal_kept, hand_key, hand_value,
    kana_card, kept_pair, new_work, peeked_cards, play_extra_rounds, random_position, settle, unpack_rules,
)

R = RULES.at


def round_layout(n: int) -> Layout:
    """Counts of :func:`play_rounds` at a table of ``n``."""
    return Layout("kana round counts", [
        ("wins", n),
        ("hand_value", 25),  # seat 0's hand value 4..28
        ("last_round_starter", n),
        ("extra", EXTRA.size),
    ])


#: Field numbers of :func:`round_layout` (its sizes depend on ``n``; the kernel gets the offsets).
ROUND = round_layout(2).index


@inline
def _restock(deck, base_deck):
    m = base_deck.shape[0]
    for j in range(m):
        deck[j] = base_deck[j]
    return m


@inline
def _kept_offsets(pos):
    """Where a seat's kept cards lie in its three dealt cards when it känäs position ``pos``:
    of the two the lower position is turned first (a blind choice too)."""
    return (1 if pos == 0 else 0), (1 if pos == 2 else 2)


#: Scratch arrays of :func:`_unshown_loop`.
RoundWork = namedtuple("RoundWork", ["kept", "tied", "dark", "pos_of", "tally", "deck"])


@loop(noalias=True, from_python=True)
def _unshown_loop(s, nrounds, out, rules, lay, args, base_deck, w):
    """The rounds of :func:`play_rounds` with no card shown: the common path, kept lean.
    In ``w``, ``kept``, ``tied``, ``dark`` (the tied players' dark cards in an extra round) and
    ``pos_of`` (each seat's känä this round) are scratch rows of ``n``; ``tally`` counts rounds
    by (seat 0's hand value, last round's starter, winner or n for a tie): one count per round
    instead of three keeps the round loop as lean as a loop that only deals. Compiled with
    ``noalias`` (:mod:`cardodds._jit`): its arrays, allocated apart by :func:`play_rounds`,
    share no memory, and LLVM keeps the random state in registers across the deck's writes.

    A seat's three cards stay where they were dealt, ``deck[3p:3p+3]``, so its kept cards
    are read back from there only when a tie needs them.
    """
    n, fresh, extra_all, last_latest, _variant = unpack_rules(rules)
    extra_rules = (fresh, extra_all)  # of the extra rounds
    o_wins, o_hist, o_last, o_extra = lay[ROUND.wins], lay[ROUND.hand_value], lay[ROUND.last_round_starter], lay[
        ROUND.extra]
    kept, tied, dark, pos_of, tally, deck = w
    m = _restock(deck, base_deck)
    for p in range(n):
        pos_of[p] = args[p]
    flip = 31 if last_latest else 0
    o_per = o_extra + X.per_round
    ties = 0
    zero = np.int64(0)  # not the literal 0: numba would compile play_extra_rounds twice
    for _ in range(nrounds):
        i = zero
        best = -1
        count = 0
        lead = 0
        low = 1 << 20
        v0 = 0
        for p in range(n):
            h0, h1, h2 = deal3_from(s, deck, i, m)
            i += 3
            pos = args[p]
            if pos < 0:
                pos = random_position(s)
                pos_of[p] = pos
            a, b = kept_pair(h0, h1, h2, pos)
            ra = a >> 2
            rb = b >> 2
            kk = ra + rb + 4
            if p == 0:
                v0 = kk
            if (ra | rb) == 0:
                kk = SUPERKANA
            best, count, lead = best_so_far(kk, p, best, count, lead)
            # The lowest first-turned card starts the last round; ties go to the earliest
            # seat, or the latest (flip = 31). A minimum, not a branch: the branch would
            # mispredict about once a round.
            low = min(low, ra * 32 + (p ^ flip))
        starter = (low & 31) ^ flip
        if count == 1:
            tally[((v0 - 4) * n + starter) * (n + 1) + lead] += 1
            continue
        tally[((v0 - 4) * n + starter) * (n + 1) + n] += 1
        ties += 1
        # Only now are the kept cards needed (about one round in eleven at four players).
        k = zero
        for p in range(n):
            ka, kb = _kept_offsets(pos_of[p])
            kept[p, 0] = deck[3 * p + ka]
            kept[p, 1] = deck[3 * p + kb]
            ra = kept[p, 0] >> 2
            rb = kept[p, 1] >> 2
            if (SUPERKANA if (ra | rb) == 0 else ra + rb + 4) == best:  # hand_key, as above
                tied[k] = p
                k += 1
        winner, i, m, restocked = play_extra_rounds(s, out, o_extra, deck, i, m, n, k, tied, kept, extra_rules, dark)
        out[o_wins + winner] += 1
        if restocked:
            m = _restock(deck, base_deck)
    # Fold the tally into the counts' own fields.
    for v in range(25):
        for st in range(n):
            for w in range(n + 1):
                c = tally[(v * n + st) * (n + 1) + w]
                out[o_hist + v] += c
                out[o_last + st] += c
                if w < n:
                    out[o_wins + w] += c
    out[o_per] += nrounds - ties  # rounds settled without an extra round


def play_rounds(s, nrounds, out, rules, lay, args, fixed, base_deck):
    """Play ``nrounds`` rounds under the official rules (blind känä) and add their counts.

    ``rules`` is ``KanaRules.pack()``; ``lay`` the offsets of :func:`round_layout`.
    ``args[seat]`` is the position (0..2) a seat känäs, -1 for a random one. ``fixed`` holds
    the shown cards (rows of seats with a shown känäd card come first, as the känä round
    goes) or is None: the common case, played by the lean :func:`_unshown_loop`, which never
    compiles the shown-card path (:func:`_shown_rounds`). ``base_deck`` lists the cards not shown.

    Plain Python, allocating the chunk's arrays for the compiled loop, like the other chunk
    kernels of Känä (less to compile). The loop releases the GIL as a kernel does.
    """
    if fixed is None:
        n = int(rules[R.players])
        _unshown_loop(s, nrounds, out, rules, lay, args, base_deck,
                      RoundWork(np.empty((n, 2), np.int64), np.empty(n, np.int64), np.empty(n, np.int64),
                                np.empty(n, np.int64), np.zeros(25 * n * (n + 1), np.int64), np.empty(52, np.int64)))
    else:
        _shown_rounds(s, nrounds, out, rules, lay, args, fixed, base_deck)


@helper
def _shown_rounds(s, nrounds, out, rules, lay, args, fixed, base_deck):
    """:func:`play_rounds` with cards shown (live odds): a seat's shown cards are fixed."""
    n, fresh, extra_all, last_latest, _variant = unpack_rules(rules)
    extra_rules = (fresh, extra_all)  # of the extra rounds
    o_wins, o_hist, o_last, o_extra = lay[ROUND.wins], lay[ROUND.hand_value], lay[ROUND.last_round_starter], lay[
        ROUND.extra]
    o_per = o_extra + X.per_round
    kept = np.empty((n, 2), np.int64)
    key = np.empty(n, np.int64)
    tied = np.empty(n, np.int64)
    dark = np.empty(n, np.int64)
    deck = np.empty(52, np.int64)
    m = _restock(deck, base_deck)
    nshown = 0
    while nshown < n and fixed[nshown, 0] >= 0:
        nshown += 1
    ties = 0
    for _ in range(nrounds):
        i = 0
        best = -1
        count = 0
        lead = 0
        low = 99
        starter = 0
        # Känä round, clockwise from the starter. The first and last turn rounds only show
        # the kept cards, so the best hand and the last round's starter are known right here.
        for p in range(n):
            if p < nshown:
                a, b, i = deal_kept(s, deck, i, m, fixed[p, 1], fixed[p, 2])
            else:
                h0, h1, h2 = deal3_from(s, deck, i, m)
                i += 3
                pos = args[p]
                if pos < 0:
                    pos = random_position(s)
                a, b = kept_pair(h0, h1, h2, pos)
            kept[p, 0] = a
            kept[p, 1] = b
            kk = hand_key(a, b)
            best, count, lead = best_so_far(kk, p, best, count, lead)
            r = a >> 2
            if r < low or (last_latest and r == low):
                low = r
                starter = p
        out[o_last + starter] += 1
        out[o_hist + hand_value(kept[0, 0], kept[0, 1]) - 4] += 1
        if count == 1:
            out[o_wins + lead] += 1
            continue
        ties += 1
        # Only now are the keys needed again (about one round in eleven at four players).
        for p in range(n):
            key[p] = hand_key(kept[p, 0], kept[p, 1])
        best_holders(key, n, tied)
        winner, i, m, restocked = play_extra_rounds(s, out, o_extra, deck, i, m, n, count, tied, kept, extra_rules,
                                                    dark)
        out[o_wins + winner] += 1
        if restocked:
            m = _restock(deck, base_deck)
    out[o_per] += nrounds - ties  # rounds settled without an extra round


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
def count_pairs(out, o_plus, o_minus, stride, key, won, C):
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


def play_configs(s, nrounds, out, rules, lay, st, focal, custom):
    """Play every deal once under each configuration of ``st``, from the same cards and stream.

    ``focal`` is the seat whose results are broken down (by its peeked rank in peek-one,
    its hand's rank combination in peek-all) and paired between configurations. ``rules`` is
    ``KanaRules.pack()``, ``lay`` the offsets of :func:`config_layout`.

    Plain Python, allocating the chunk's arrays for the compiled :func:`_configs_loop` (a
    compiled kernel would compile the loop again).
    """
    n = int(rules[R.players])
    C = st.kinds.shape[0]
    _configs_loop(s, nrounds, out, rules, lay, st, focal, custom, new_work(n, C), np.empty((C, 2), np.int64))


@loop(from_python=True)
def _configs_loop(s, nrounds, out, rules, lay, st, focal, custom, w, kept_f):
    """The deals of :func:`play_configs`; ``kept_f[c]`` the focal seat's kept cards under ``c``."""
    n, fresh, extra_all, _latest, variant = unpack_rules(rules)
    extra_rules = (fresh, extra_all)  # of the extra rounds
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
                pos = decide(s, c, p, kinds, args, ctxmode, t1, t3, hp, kanad, custom, peeked)
                kana_card(hp, pos, p, kanad, kept)
            kept_f[c, 0] = kept[f, 0]
            kept_f[c, 1] = kept[f, 1]
            winners[c], restocked = settle(s, out, o_extra + c * EXTRA_BLOCK, deck, 3 * n, m, n, extra_rules, kept, key,
                                           tied, dark)
        out[o_deals + fkey] += 1
        won = 0
        for c in range(C):
            wc = winners[c]
            out[o_wins + c * n + wc] += 1
            out[o_hist + c * 25 + hand_value(kept_f[c, 0], kept_f[c, 1]) - 4] += 1
            if wc == f:
                out[o_fw + c * K + fkey] += 1
                won |= 1 << c
        count_pairs(out, o_plus, o_minus, K, fkey, won, C)
        if restocked or fresh:
            for j in range(52):
                deck[j] = j
