"""Compiled Canasta mechanics on counts per kind (no validation here; see analysis.py).

A hand is int64[15] counts per kind (cards.py: 0 = 2, 1 = black 3, 2 = red 3, 3..13 = 4..A,
14 = Joker). A meld is an int64[4] record ``(kind, naturals, twos, jokers)``; ``kind`` is the
natural kind 3..13 or ``WILDS_ONLY`` for a meld of wild cards alone. Keeping naturals, 2s and
Jokers apart is what scoring (2 = 20, Joker = 50), the canasta kinds and the Joker swap need.

``pts`` is the int64[15] card-point table of the rules, ``code`` the wild-limit code
(0 naturals, 1 three, 2 none). ``room`` is the most cards a meld may take from the hand:
one card stays back for the discard that ends the turn. The chunk kernels take the packed
rules (``rules.RULES``) and their counts' layout (:func:`deal_layout`, :func:`hand_layout`)
and read both by name.
"""

import functools
from collections import namedtuple

import numpy as np

from .._jit import helper, inline, kernel, loop
from .._random import shuffle_prefix
from ..layout import Layout
from .cards import ACE, BLACK3, FOUR, JOKER, JOKER_POINTS, N_KINDS, RED3, TWO, TWO_POINTS
from .discard import weakest_card
from .rules import RULES

WILDS_ONLY = -1
#: Canasta kinds: none, mixed, clean, joker; and their bonuses.
CANASTA_NONE = 0
CANASTA_MIXED = 1
CANASTA_CLEAN = 2
CANASTA_JOKER = 3
CANASTA_BONUS = np.array([0, 300, 500, 1000], dtype=np.int64)
BIG = 1 << 20
#: Most point classes of natural ranks: the rules' low (4-7), high (8-Q), king and ace points.
N_CLASSES = 4


@helper
def wild_room(naturals, code):
    """Most wilds a meld of ``naturals`` naturals may hold; -1 if it has too few naturals."""
    if code == 0:
        return naturals if naturals >= 2 else -1
    if code == 1:
        return 3 if naturals >= 2 else -1
    return BIG if naturals >= 1 else -1


@kernel
def meld_is_legal(kind, naturals, twos, jokers, code, wild_melds):
    """A meld record obeys the rules: 3+ cards, wilds within the limit (wild melds if allowed)."""
    if naturals < 0 or twos < 0 or jokers < 0 or naturals + twos + jokers < 3:
        return False
    if kind == WILDS_ONLY:
        return naturals == 0 and wild_melds != 0
    if kind < FOUR or kind > ACE:
        return False
    w = wild_room(naturals, code)
    return w >= 0 and twos + jokers <= w


@helper
def canasta_kind(kind, naturals, twos, jokers):
    """0 no canasta (under 7 cards), 1 mixed, 2 clean (7+ naturals), 3 joker (wilds only)."""
    if naturals + twos + jokers < 7:
        return CANASTA_NONE
    if kind == WILDS_ONLY or naturals == 0:
        return CANASTA_JOKER
    if naturals >= 7:
        return CANASTA_CLEAN
    return CANASTA_MIXED


@kernel
def rank_meld(c, p, jokers, twos, room, code, need):
    """Most valuable meld of one natural rank: ``c`` naturals worth ``p``, wilds on hand.

    ``need``: 0 any, 1 must hold a Joker, 2 must hold a 2 (a wild taken from the pile).
    Returns ``(value, naturals, twos, jokers)``; value -1 when no legal meld exists.
    """
    best_v = -1
    best_n = 0
    best_t = 0
    best_j = 0
    for n in range(c, 0, -1):
        w = wild_room(n, code)
        if w < 0:
            continue
        w = min(w, jokers + twos, room - n)
        if w < 0 or n + w < 3:
            continue
        j = min(jokers, w)
        t = w - j
        if need == 1 and j == 0:
            continue
        if need == 2 and t == 0:
            if w == 0 or twos == 0:
                continue
            j -= 1
            t += 1
        v = n * p + j * JOKER_POINTS + t * TWO_POINTS
        if v > best_v:
            best_v = v
            best_n = n
            best_t = t
            best_j = j
    return best_v, best_n, best_t, best_j


@kernel
def wild_meld(jokers, twos, room, wild_melds, need):
    """Most valuable meld of wilds alone: ``(value, twos, jokers)``, value -1 if none."""
    if wild_melds == 0:
        return -1, 0, 0
    w = min(jokers + twos, room)
    if w < 3:
        return -1, 0, 0
    j = min(jokers, w)
    t = w - j
    if need == 1 and j == 0:
        return -1, 0, 0
    if need == 2 and t == 0:
        if twos == 0:
            return -1, 0, 0
        j -= 1
        t += 1
    return j * JOKER_POINTS + t * TWO_POINTS, t, j


@helper
def _set_meld(meld, kind, naturals, twos, jokers):
    meld[0] = kind
    meld[1] = naturals
    meld[2] = twos
    meld[3] = jokers


@helper
def _best_of_kinds(counts, pts, jk, tw, room, code, wild_melds, need, meld):
    """The best meld of wilds alone or of one natural rank, with ``jk`` Jokers and ``tw``
    2s to hand; records it in ``meld`` when it beats 0 and returns its value."""
    best = 0
    v, t, j = wild_meld(jk, tw, room, wild_melds, need)
    if v > best:
        best = v
        meld[2] = t
        meld[3] = j
    for k in range(FOUR, ACE + 1):
        if counts[k] == 0:
            continue
        v, n, t, j = rank_meld(counts[k], pts[k], jk, tw, room, code, need)
        if v > best:
            best = v
            _set_meld(meld, k, n, t, j)
    return best


@helper
def _no_meld(meld):
    """The empty record: no natural kind, no cards."""
    _set_meld(meld, WILDS_ONLY, 0, 0, 0)


@kernel
def best_meld(counts, room, pts, code, wild_melds, meld):
    """Most valuable single meld of the hand; fills ``meld`` (kind, naturals, twos, jokers).

    Returns its value (card points), or 0 when the hand holds no legal meld. This is the
    best first meld: one combination at card points, red 3s not counted.
    """
    _no_meld(meld)
    return _best_of_kinds(counts, pts, counts[JOKER], counts[TWO], room, code, wild_melds, 0, meld)


@helper
def best_meld_value(counts, room, pts, code, wild_melds):
    """Value of :func:`best_meld` without the record (the Monte Carlo inner loop)."""
    jk = counts[JOKER]
    tw = counts[TWO]
    best = 0
    v, t, j = wild_meld(jk, tw, room, wild_melds, 0)
    if v > best:
        best = v
    for k in range(FOUR, ACE + 1):
        if counts[k] == 0:
            continue
        v, n, t, j = rank_meld(counts[k], pts[k], jk, tw, room, code, 0)
        if v > best:
            best = v
    return best


@helper
def best_meld_with_top(counts, top, pts, code, wild_melds, meld):
    """Most valuable meld that holds the top card ``top`` of the discard pile.

    Taking the pile needs its top card melded at once, so a natural top card fixes the
    meld's rank and a wild top card must be one of the meld's wilds. A 3 on top cannot be
    melded, so the pile cannot be taken (0). ``counts`` is the hand without the top card;
    the meld may use every card of the hand but one (kept for the discard).
    """
    _no_meld(meld)
    if top == BLACK3 or top == RED3:
        return 0
    room = 0
    for k in range(N_KINDS):
        room += counts[k]  # hand + top card - one card for the discard
    jk = counts[JOKER]
    tw = counts[TWO]
    if FOUR <= top <= ACE:
        v, n, t, j = rank_meld(counts[top] + 1, pts[top], jk, tw, room, code, 0)
        if v <= 0:
            return 0
        _set_meld(meld, top, n, t, j)
        return v
    need = 1 if top == JOKER else 2
    if top == JOKER:
        jk += 1
    else:
        tw += 1
    return _best_of_kinds(counts, pts, jk, tw, room, code, wild_melds, need, meld)


@helper
def swap_is_legal(meld, wild, counts, code, wild_melds, swap_twos):
    """May the hand swap a wild (``JOKER`` or ``TWO``) out of ``meld`` for a natural?

    The player gives the natural card the wild stands for and must lay the freed wild at
    once in a new combination from the hand. A meld of wilds only stands for no rank, so
    nothing can be swapped out of it; 2s only with ``swap_twos``.
    """
    kind = meld[0]
    if kind < FOUR or kind > ACE:
        return False
    if wild == JOKER:
        if meld[3] == 0:
            return False
    elif wild == TWO:
        if swap_twos == 0 or meld[2] == 0:
            return False
    else:
        return False
    if counts[kind] == 0:
        return False
    jk = counts[JOKER]
    tw = counts[TWO]
    if wild == JOKER:
        jk += 1
    else:
        tw += 1
    # Every card left in hand may go into the new combination (laying out the whole hand
    # is going out, which the rules allow after the first turn).
    room = BIG
    need = 1 if wild == JOKER else 2
    v, t, j = wild_meld(jk, tw, room, wild_melds, need)
    if v > 0:
        return True
    for k in range(FOUR, ACE + 1):
        c = counts[k] - (1 if k == kind else 0)
        if c <= 0:
            continue
        v, n, t, j = rank_meld(c, 0, jk, tw, room, code, need)
        if v >= 0:
            return True
    return False


@inline
def meld_points(meld, pts):
    """Card points of a meld: naturals at their rank's points, 2s 20, Jokers 50."""
    nat = meld[1] * pts[meld[0]] if meld[0] >= 0 else 0
    return nat + meld[2] * pts[TWO] + meld[3] * pts[JOKER]


@helper
def score_side(melds, n_melds, red3_laid, left, went_out, pts, out_bonus, out_needs_canasta):
    """Score of one side for a finished hand (docs/rules/canasta.md §5.1).

    ``melds`` (n, 4) records of the side, ``red3_laid`` red 3s on its table, ``left`` the
    counts per kind left in its players' hands, ``went_out`` 1 if its player went out.
    With a canasta: bonuses + melded card points + 100 per red 3; without: melded cards and
    red 3s count negative. Cards left in hand always count negative.
    """
    bonus = 0
    melded = 0
    canastas = 0
    for i in range(n_melds):
        ck = canasta_kind(melds[i, 0], melds[i, 1], melds[i, 2], melds[i, 3])
        if ck != CANASTA_NONE:
            canastas += 1
        bonus += CANASTA_BONUS[ck]
        melded += meld_points(melds[i], pts)
    table = melded + red3_laid * pts[RED3]
    score = bonus + table if canastas > 0 else -table
    for k in range(N_KINDS):
        score -= left[k] * pts[k]
    if went_out != 0 and (out_needs_canasta == 0 or canastas > 0):
        score += out_bonus
    return score


# ---- Monte Carlo chunk kernels ---------------------------------------------------------
N_VALUE_BINS = 401
#: Rules fields the kernels read, as compile-time constants.
R = RULES.at


def deal_layout(turns: int, jokers: int) -> Layout:
    """Counts of :func:`deal_kernel`: one field per figure of ``analysis.melds``."""
    wild_max = 8 + jokers
    return Layout("canasta deal counts", [
        ("bad", 1),  # deals that broke card conservation
        ("first_meld_by_limit", 3),  # first meld for wild codes 0, 1, 2
        ("pile_open", 1),  # open by taking the upcard
        ("first_meld_by_turn", turns + 1),
        ("canasta_by_turn", turns + 1),  # 7 naturals of a rank by turn
        ("best_value", N_VALUE_BINS),  # best first-meld value // 5
        ("wild_cards", wild_max + 1),
        ("red_threes", 5),
        ("partnership_wild_cards", wild_max + 1),
        ("partnership_red_threes", 5),
        ("best_rank_naturals", 9),  # most naturals of one rank
        ("first_meld_by_wilds", wild_max + 1),  # first meld, by the number of wilds in hand
    ])


def hand_layout(turns: int) -> Layout:
    """Counts of :func:`hand_kernel`."""
    return Layout("canasta hand counts", [("bad", 1), ("first_meld_by_turn", turns + 1),
                                          ("canasta_by_turn", turns + 1)])


#: Field numbers of the run-dependent layouts: a kernel reads ``out[lay[D.pile_open]]``.
D = deal_layout(0, 4).index
H = hand_layout(0).index


def point_classes(pts):
    """Natural ranks grouped by card points: ``(class_of, class_points, n_classes)``.

    A rank's best meld grows with its count and depends on the rank only through its points,
    so among ranks of equal points only the largest count can give the best meld: the search
    runs over at most four classes (4-7, 8-Q, K, A by default) instead of eleven ranks.
    """
    class_of = np.full(N_KINDS, -1, dtype=np.int64)
    points = []
    for k in range(FOUR, ACE + 1):
        if int(pts[k]) not in points:
            points.append(int(pts[k]))
        class_of[k] = points.index(int(pts[k]))
    class_points = np.zeros(N_CLASSES, dtype=np.int64)
    class_points[:len(points)] = points
    return class_of, class_points, len(points)


#: Table dimensions: naturals of a rank held (0..8), Jokers (0..7, one more than the 6-Joker
#: pack holds, for a Joker on top of the pile), 2s (0..9 likewise).
T_NAT = 9
T_JOKERS = 8
T_TWOS = 10


#: Rooms from this one on change no value of the tables: the most cards a meld of them can
#: hold, 8 naturals and every wild but one (the tables' largest counts).
ROOM_CAP = (T_NAT - 1) + (T_JOKERS - 1) + (T_TWOS - 1)
_JOKERS, _TWOS = np.ogrid[:T_JOKERS, :T_TWOS]


def _wild_values(room, wild_melds, need):
    """:func:`wild_meld`'s value for every count of Jokers and 2s (``[j, t]``), -1 for none."""
    if wild_melds == 0:
        return np.full((T_JOKERS, T_TWOS), -1)
    w = np.minimum(_JOKERS + _TWOS, room)
    j = np.minimum(_JOKERS, w)
    t = w - j
    ok = w >= 3
    if need == 1:
        ok &= j > 0
    if need == 2:
        fix = t == 0
        ok &= ~fix | (_TWOS > 0)
        j, t = np.where(fix, j - 1, j), np.where(fix, t + 1, t)
    return np.where(ok, j * JOKER_POINTS + t * TWO_POINTS, -1)


def _rank_values(p, room, code, need):
    """:func:`rank_meld`'s value for every count of naturals, Jokers and 2s (``[c, j, t]``):
    the best over melds of ``n <= c`` naturals, each built as that helper builds it."""
    best = np.full((T_NAT, T_JOKERS, T_TWOS), -1)
    for n in range(1, T_NAT):
        most = wild_room.py_func(n, code)
        if most < 0:
            continue
        w = np.minimum(np.minimum(most, _JOKERS + _TWOS), room - n)
        j = np.minimum(_JOKERS, w)
        t = w - j
        ok = (w >= 0) & (n + w >= 3)
        if need == 1:
            ok &= j > 0
        if need == 2:
            fix = t == 0
            ok &= ~fix | ((w > 0) & (_TWOS > 0))
            j, t = np.where(fix, j - 1, j), np.where(fix, t + 1, t)
        best[n:] = np.maximum(best[n:], np.where(ok, n * p + j * JOKER_POINTS + t * TWO_POINTS, -1))
    return best


def _value_table(class_points, room, code, need, fold_wild):
    """``[cls, c, j, t]``: the best meld value per point class (:func:`meld_tables`), 0 for none;
    ``fold_wild`` counts a meld of wilds alone too."""
    tab = np.zeros((N_CLASSES, T_NAT, T_JOKERS, T_TWOS), dtype=np.int32)
    w = np.maximum(_wild_values(room, 1 if fold_wild else 0, need), 0)
    for cl, p in enumerate(class_points):
        tab[cl] = np.maximum(_rank_values(p, room, code, need), w)
    return tab


def meld_tables(class_points, n_classes, hand, code, wild_melds):
    """Best meld values of a dealt hand, looked up instead of searched: ``(by_limit, pile)``.

    ``by_limit[code, cls, c, j, t]`` is the best value with ``c`` naturals of the largest rank
    of point class ``cls``, ``j`` Jokers and ``t`` 2s to hand, under wild limit ``code``, for
    the deal's room (``hand - 1``; a meld of wilds alone folded in), so a hand's best meld is
    the largest entry over its classes; 0 where no legal meld exists (as in
    :func:`best_meld_value`). ``pile[need]`` is the same for taking the pile after the stock
    draw (room ``hand + 1``): need 0 a natural on top (its rank alone, no wild meld), 1 a Joker,
    2 a 2 (the meld must hold it; counts include the top card).

    Built with NumPy once per rules and hand size (compiled, they would lengthen the first call);
    read-only, shared by the chunks.
    """
    return _meld_tables(tuple(int(p) for p in class_points[:n_classes]), int(hand), int(code), int(wild_melds))


@functools.lru_cache(maxsize=64)
def _meld_tables(class_points, hand, code, wild_melds):
    by_limit = np.stack([_value_table(class_points, hand - 1, limit, 0, wild_melds) for limit in range(3)])
    pile = np.stack([_value_table(class_points, hand + 1, code, need, wild_melds and need > 0)
                     for need in range(3)])  # a natural on top melds its own rank
    by_limit.flags.writeable = False
    pile.flags.writeable = False
    return by_limit, pile


def draw_table(class_points, n_classes, code, wild_melds):
    """``[room, cls, c, j, t]``: :func:`meld_tables`'s ``by_limit[code]`` for every room up to
    :data:`ROOM_CAP` (read it at ``min(room, ROOM_CAP)``): the draws look up the hand's best meld
    as its room grows a card a turn, instead of searching it."""
    return _draw_table(tuple(int(p) for p in class_points[:n_classes]), int(code), int(wild_melds))


@functools.lru_cache(maxsize=64)
def _draw_table(class_points, code, wild_melds):
    tab = np.stack([_value_table(class_points, room, code, 0, wild_melds) for room in range(ROOM_CAP + 1)])
    tab.flags.writeable = False
    return tab


@kernel
def best_of_maxima(maxima, points, n_classes, jk, tw, room, code, wild_melds):
    """Value of the best meld from the largest count and the points of each point class
    (:func:`point_classes`; ``maxima`` and ``points`` four each), ``jk`` Jokers and ``tw`` 2s;
    equals :func:`best_meld_value`.

    Scalars only (tuples of them): the draws search a hand whose room changes every turn, and
    numba counts references to every array passed to a call, atomically, which would cost more
    than the search.
    """
    m0, m1, m2, m3 = maxima
    p0, p1, p2, p3 = points
    any_meld = np.int64(0)  # need 0, as an int64 (a literal 0 would compile the callees twice)
    best, t, j = wild_meld(jk, tw, room, wild_melds, any_meld)
    best = max(best, 0)
    for c in range(n_classes):
        m = m0 if c == 0 else (m1 if c == 1 else (m2 if c == 2 else m3))
        p = p0 if c == 0 else (p1 if c == 1 else (p2 if c == 2 else p3))
        if m > 0:
            v, n, t, j = rank_meld(m, p, jk, tw, room, code, any_meld)
            best = max(best, v)
    return best


@inline
def _class_maxima(counts, class_of):
    """The largest count of a natural rank in each point class, as four scalars.

    Running maxima in registers (a select per class and rank), not in an array: a
    read-modify-write of the same cell per rank would chain the loop on memory.
    """
    m0 = np.int64(0)  # int64 from the start: a literal 0 would have numba compile the callees twice
    m1 = np.int64(0)
    m2 = np.int64(0)
    m3 = np.int64(0)
    for k in range(FOUR, ACE + 1):
        x = counts[k]
        c = class_of[k]
        m0 = max(m0, x if c == 0 else 0)
        m1 = max(m1, x if c == 1 else 0)
        m2 = max(m2, x if c == 2 else 0)
        m3 = max(m3, x if c == 3 else 0)
    return m0, m1, m2, m3


#: The run's meld rules as the draws read them: the points of each kind, the point classes
#: (:func:`point_classes`), the wild-card code, wild melds allowed and the first meld's minimum.
MeldRules = namedtuple("MeldRules", ["pts", "class_of", "class_points", "n_classes", "code", "wild_melds",
                                     "min_first"])
#: The meld-value tables of :func:`deal_kernel` (:func:`meld_tables`, :func:`draw_table`).
MeldTables = namedtuple("MeldTables", ["by_limit", "pile", "opening"])
#: The given hand of :func:`hand_kernel`: its counts, size, and whether it can open or holds 7 naturals.
Given = namedtuple("Given", ["base", "hand", "opened", "canasta"])
#: The chunk's arrays: a copy of the deck (or the rest) shuffled in place, the hand's counts, the
#: pack's counts seen (``check``), and the deals by the first turn they could open or held 7 naturals.
Work = namedtuple("Work", ["d", "counts", "seen", "open_at", "canasta_at"])


def unpack_melds(rules) -> MeldRules:
    """The :data:`MeldRules` of the packed ``rules``."""
    pts = rules[R.points:R.points + N_KINDS].copy()
    class_of, class_points, n_classes = point_classes(pts)
    return MeldRules(pts, class_of, class_points, n_classes, rules[R.wild_code], rules[R.wild_melds],
                     rules[R.min_first_meld])


@helper
def draws(counts, d, first, turns, hand, opened, canasta, melds, discard):
    """Draw ``d[first + 1 .. first + turns]`` one a turn: the first turn the hand can open
    and the first turn it holds 7 naturals of a rank (``turns + 1`` for never); ``melds`` the
    :data:`MeldRules`.

    Both events only grow with more cards (kept or, with ``discard``, the weakest thrown),
    so once reached they hold: a hand that has opened is not searched again, and the
    7-naturals test looks at the rank just drawn. The kernels count first turns and sum them
    into by-turn counts once per chunk (:func:`_add_by_turn`).
    """
    pts, class_of, class_points, n_classes, code, wild_melds, min_first = melds
    points = (class_points[0], class_points[1], class_points[2], class_points[3])
    k_open = 0 if opened else turns + 1
    k_canasta = 0 if canasta else turns + 1
    k = 1
    if discard is not None and discard != 0:  # None (keep every card): numba leaves this branch out
        for k in range(1, turns + 1):
            x = d[first + k]
            counts[x] += 1
            if k_open > turns:
                if best_of_maxima(_class_maxima(counts, class_of), points, n_classes, counts[JOKER], counts[TWO], hand,
                                  code, wild_melds) >= min_first:
                    k_open = k
            if k_canasta > turns and counts[x] >= 7 and x >= FOUR and x <= ACE:
                k_canasta = k
            counts[weakest_card(counts, pts)] -= 1
        return k_open, k_canasta
    while k_open > turns and k <= turns:  # not open yet: search after each draw
        x = d[first + k]
        counts[x] += 1
        if best_of_maxima(_class_maxima(counts, class_of), points, n_classes, counts[JOKER], counts[TWO], hand + k - 1,
                          code, wild_melds) >= min_first:
            k_open = k
        if k_canasta > turns and counts[x] >= 7 and x >= FOUR and x <= ACE:
            k_canasta = k
        k += 1
    while k <= turns:  # open: only the 7-naturals test is left
        x = d[first + k]
        counts[x] += 1
        if k_canasta > turns and counts[x] >= 7 and x >= FOUR and x <= ACE:
            k_canasta = k
        k += 1
    return k_open, k_canasta


def _add_by_turn(out, offset, first_turns, turns):
    """``out[offset + k] += `` the deals whose event came by turn k (a running sum of first turns)."""
    out[offset:offset + turns + 1] += np.cumsum(first_turns[:turns + 1])


@helper
def _hand_is_off(counts, turns, hand, discard):
    """Card conservation after the draws: the hand holds what it was dealt and drew."""
    tot = 0
    for k in range(N_KINDS):
        tot += counts[k]
        if counts[k] < 0:
            tot = -1 << 30
    return tot != (hand + turns if discard == 0 else hand)


def discard_arg(policy: int):
    """The ``discard`` argument of :func:`deal_kernel` for a rule of ``DISCARD_RULES``:
    None keeps every card, and numba then prunes the discard code from that compiled version."""
    return None if policy == 0 else int(policy)


def deal_kernel(state, n, out, deck, deck_kind_counts, hand, turns, rules, lay, discard, check):
    """Deal four hands of ``hand`` cards, turn the upcard, then draw ``turns`` cards for seat 0.

    Only the cards the figures look at are dealt (seat 0, seat 2, the upcard, the draws): the
    same distribution as dealing every hand, at half the random picks. ``discard`` None keeps
    every card, 1 discards the weakest after each draw (:func:`discard_arg`); ``check`` 1 counts
    deals that break card conservation as ``bad``. None prunes the code it switches off.
    Plain Python around the compiled :func:`_deal_loop`: a compiled kernel would compile the loop
    again.
    """
    melds = unpack_melds(rules)
    by_limit, pile = meld_tables(melds.class_points, melds.n_classes, hand, melds.code, melds.wild_melds)
    tables = MeldTables(by_limit, pile, draw_table(melds.class_points, melds.n_classes, melds.code, melds.wild_melds))
    w = Work(deck.copy(), np.zeros(N_KINDS, dtype=np.int64), np.zeros(N_KINDS, dtype=np.int64),
             np.zeros(turns + 2, dtype=np.int64), np.zeros(turns + 2, dtype=np.int64))
    _deal_loop(state, n, out, lay, deck_kind_counts, hand, turns, discard, check, melds, tables, w)
    _add_by_turn(out, lay[D.first_meld_by_turn], w.open_at, turns)
    _add_by_turn(out, lay[D.canasta_by_turn], w.canasta_at, turns)


# Allocates nothing (see cardodds/_jit.py); every array is the chunk's own or read-only.
@loop(noalias=True, from_python=True)
def _deal_loop(state, n, out, lay, deck_kind_counts, hand, turns, discard, check, melds, tables, w):
    """The deals of :func:`deal_kernel`, ``w.d`` the chunk's copy of the deck, shuffled in place.
    The meld values come from tables (:func:`meld_tables`; ``opening``, :func:`draw_table`, for
    the draws that keep every card, which are written out here)."""
    _pts, class_of, _class_points, n_classes, code, _wild_melds, min_first = melds
    by_limit, pile, opening = tables
    d, counts, seen, open_at, canasta_at = w
    size = d.shape[0]
    used = 2 * hand + 1 + max(turns, 1)  # the first draw comes before the pile may be taken
    first = 2 * hand  # the upcard; the draws are d[first + 1 ..]
    o_limit = lay[D.first_meld_by_limit]
    o_value = lay[D.best_value]
    o_wild = lay[D.wild_cards]
    o_red3 = lay[D.red_threes]
    o_pwild = lay[D.partnership_wild_cards]
    o_pred3 = lay[D.partnership_red_threes]
    o_nat = lay[D.best_rank_naturals]
    o_by_wilds = lay[D.first_meld_by_wilds]
    o_pile = lay[D.pile_open]
    for _ in range(n):
        shuffle_prefix(state, d, used, size)
        for k in range(N_KINDS):  # loops, not counts[:] = 0: that compiles numba's slice assignment
            counts[k] = 0
        p_wild = 0  # the partner's hand matters only for its wilds and red 3s
        p_red3 = 0
        for i in range(hand):
            counts[d[i]] += 1
            y = d[hand + i]
            p_wild += (y == TWO) | (y == JOKER)
            p_red3 += y == RED3
        if check is not None:
            for k in range(N_KINDS):
                seen[k] = 0
            for i in range(size):
                seen[d[i]] += 1
            bad = False
            tot = 0
            for k in range(N_KINDS):
                if seen[k] != deck_kind_counts[k] or counts[k] > deck_kind_counts[k]:
                    bad = True
                tot += counts[k]
            if bad or tot != hand:
                out[lay[D.bad]] += 1
        jk = counts[JOKER]
        tw = counts[TWO]
        m0, m1, m2, m3 = _class_maxima(counts, class_of)
        nat = max(max(m0, m1), max(m2, m3))
        v0 = 0
        v1 = 0
        v2 = 0
        for c in range(n_classes):
            m = m0 if c == 0 else (m1 if c == 1 else (m2 if c == 2 else m3))
            v0 = max(v0, by_limit[0, c, m, jk, tw])
            v1 = max(v1, by_limit[1, c, m, jk, tw])
            v2 = max(v2, by_limit[2, c, m, jk, tw])
        out[o_limit] += v0 >= min_first
        out[o_limit + 1] += v1 >= min_first
        out[o_limit + 2] += v2 >= min_first
        v = v0 if code == 0 else (v1 if code == 1 else v2)
        top = d[first]
        x = d[first + 1]  # the player draws from the stock before taking the pile
        pv = 0  # a 3 on top of the pile cannot be melded
        if FOUR <= top <= ACE:
            pv = pile[0, class_of[top], counts[top] + (x == top) + 1, jk + (x == JOKER), tw + (x == TWO)]
        elif top == JOKER or top == TWO:
            i = 1 if top == JOKER else 2
            jp = jk + (x == JOKER) + (top == JOKER)
            tp = tw + (x == TWO) + (top == TWO)
            cx = class_of[x] if FOUR <= x <= ACE else -1
            for c in range(n_classes):
                m = m0 if c == 0 else (m1 if c == 1 else (m2 if c == 2 else m3))
                if c == cx:
                    m = max(m, counts[x] + 1)
                pv = max(pv, pile[i, c, m, jp, tp])
        out[o_pile] += pv >= min_first
        out[o_value + min(v // 5, N_VALUE_BINS - 1)] += 1
        w = tw + jk
        out[o_wild + w] += 1
        out[o_red3 + counts[RED3]] += 1
        out[o_pwild + w + p_wild] += 1
        out[o_pred3 + counts[RED3] + p_red3] += 1
        out[o_nat + nat] += 1
        if v >= min_first:
            out[o_by_wilds + w] += 1
        # The draws: the first turn the hand can open and holds 7 naturals of a rank (turns + 1
        # for never). Both only grow with more cards, so once reached they hold.
        k_open = 0 if v >= min_first else turns + 1
        k_canasta = 0 if nat >= 7 else turns + 1
        if discard is not None:
            k_open, k_canasta = draws(counts, d, first, turns, hand, v >= min_first, nat >= 7, melds, discard)
        else:
            k = 1
            while k_open > turns and k <= turns:  # not open yet: search after each draw
                x = d[first + k]
                counts[x] += 1
                a0, a1, a2, a3 = _class_maxima(counts, class_of)
                room = min(hand + k - 1, ROOM_CAP)
                jk = counts[JOKER]
                tw = counts[TWO]
                for c in range(n_classes):
                    m = a0 if c == 0 else (a1 if c == 1 else (a2 if c == 2 else a3))
                    if opening[room, c, m, jk, tw] >= min_first:
                        k_open = k
                if k_canasta > turns and counts[x] >= 7 and FOUR <= x <= ACE:
                    k_canasta = k
                k += 1
            while k <= turns:  # open: only the 7-naturals test is left
                x = d[first + k]
                counts[x] += 1
                if k_canasta > turns and counts[x] >= 7 and FOUR <= x <= ACE:
                    k_canasta = k
                k += 1
        open_at[k_open] += 1
        canasta_at[k_canasta] += 1
        if check is not None and _hand_is_off(counts, turns, hand, 0 if discard is None else discard):
            out[lay[D.bad]] += 1


def hand_kernel(state, n, out, base, rest, turns, rules, lay, discard, check):
    """A given hand (``base`` counts) draws ``turns`` cards from the ``rest`` of the pack.

    Counts by :func:`hand_layout` (``lay`` its offsets): draws that broke card conservation,
    able to lay the first meld after k draws, holding 7 naturals of a rank after k draws.
    ``discard`` and ``check`` as for :func:`deal_kernel`: None leaves their code out. Plain
    Python around a compiled loop, as :func:`deal_kernel`.
    """
    melds = unpack_melds(rules)
    hand = int(base.sum())
    # The given hand is the same on every sample: search it once (the maxima in plain Python).
    m = _class_maxima.py_func(base, melds.class_of)
    opened = best_of_maxima(m, tuple(melds.class_points), melds.n_classes, base[JOKER], base[TWO], hand - 1,
                            melds.code, melds.wild_melds) >= melds.min_first
    given = Given(base, hand, opened, base[FOUR:ACE + 1].max() >= 7)
    w = Work(rest.copy(), np.zeros(N_KINDS, dtype=np.int64), np.zeros(0, dtype=np.int64),
             np.zeros(turns + 2, dtype=np.int64), np.zeros(turns + 2, dtype=np.int64))
    _hand_loop(state, n, out, lay, given, turns, discard, check, melds, w)
    _add_by_turn(out, lay[H.first_meld_by_turn], w.open_at, turns)
    _add_by_turn(out, lay[H.canasta_by_turn], w.canasta_at, turns)


@loop(noalias=True, from_python=True)
def _hand_loop(state, n, out, lay, given, turns, discard, check, melds, w):
    """The draws of :func:`hand_kernel`, ``w.d`` the chunk's copy of the rest, shuffled in place."""
    base, hand, opened0, canasta0 = given
    d, counts, _seen, open_at, canasta_at = w
    size = d.shape[0]
    for _ in range(n):
        shuffle_prefix(state, d, turns, size)
        for k in range(N_KINDS):  # a loop, not counts[:] = base: that compiles numba's shape-mismatch message
            counts[k] = base[k]
        k_open, k_canasta = draws(counts, d, -1, turns, hand, opened0, canasta0, melds, discard)
        open_at[k_open] += 1
        canasta_at[k_canasta] += 1
        if check is not None and _hand_is_off(counts, turns, hand, 0 if discard is None else discard):
            out[lay[H.bad]] += 1
