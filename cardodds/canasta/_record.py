"""The record of a Canasta hand, move by move: the words :func:`cardodds.canasta.play.trace`
writes and :func:`cardodds.canasta.review.review` reads back.

One line a move, ``seat: action cards`` (``# words`` after it a note; a line that begins with
``#`` a comment); "our" is the moving seat's side, "their" the other:

- ``deal C ...``: the 12 cards dealt (the first player's first card drawn is its first ``draw``);
- ``draw C``: the card drawn from the stock, a turn's first line (``draw ?`` or ``draw``: a card
  not known; a bare ``draw`` on an empty stock draws nothing);
- ``red3 3r C``: a red 3 laid and the replacement drawn (a red 3 drawn is laid at once:
  ``red3 3r 3r C``; ``?`` a card not known; ``red3 3r`` alone on an empty stock);
- ``take C C C``: the pile taken, its top card in the new meld listed; ``take C``: its top card
  added to our meld of its rank (``take 2 to K``, ``take K to their K``: another meld);
- ``meld C C C``; ``add C``: onto our meld of its rank (``add Jk to K``, ``add K to their K``;
  ``to wild``: the meld of wilds alone); ``swap Jk from their K``: a Joker out of a meld for the
  natural it stands for (melded at once: the next line is its ``meld``);
- ``discard C``; ``end`` (the pile left on an empty stock: the hand ends); ``pass``.
"""

from __future__ import annotations

import numpy as np

from . import _table as T
from ._kernels import WILDS_ONLY, meld_is_legal
from .cards import ACE, BLACK3, FOUR, JOKER, KIND_NAMES, N_KINDS, RED3, TWO, parse_kind

#: Where a move's target meld starts in its line (``add Jk to K``, ``swap Jk from their 9``).
TARGET_WORDS = ("to", "from")
#: The actions a record's move line may hold.
ACTIONS = ("deal", "draw", "red3", "take", "meld", "add", "swap", "discard", "end", "pass")


class Illegal(Exception):
    """A move the rules forbid: its message says which rule (the review's violation)."""


def target_words(t: np.ndarray, m) -> tuple[str, ...]:
    """The meld an addition, a pile's top card or a swap goes to, as the record words it,
    read before the move is played on ``t``: nothing for a natural onto our meld of its rank."""
    typ = int(m[0])
    if typ not in (T.MV_ADD, T.MV_TAKE_ADD, T.MV_SWAP):
        return ()
    side, slot = int(m[1]), int(m[2])
    kind = int(t[T.meld_at(side, slot)])
    ours = side == int(t[T.SA.seat]) % 2
    card = int(m[3]) if typ == T.MV_ADD else int(t[T.SA.pile + t[T.SA.pile_len] - 1])
    if typ != T.MV_SWAP and ours and card == kind:
        return ()
    return ("from" if typ == T.MV_SWAP else "to",) + ("their",) * (not ours) + (_meld_name(kind),)


def option_words(t: np.ndarray, m, what: str) -> str:
    """An advisor's option of a decision (``what``) in the record's words, its verb left out when
    it is the decision's (take ``K K K``, ``K to their K``; discard ``5``; meld ``Q Q Jk``; out
    ``meld K K K``, ``discard 5``; ``leave the pile``, ``hold``, ``stay in``: hold when one meld
    would go out), read before it is played on ``t``."""
    from ._worlds import OPT_HOLD, OPT_LEAVE, OPT_STAY
    from .view import ACTIONS, move_cards

    typ = int(m[0])
    if typ < 0:
        return {OPT_LEAVE: "leave the pile", OPT_HOLD: "stay in" if what == "out" else "hold",
                OPT_STAY: "stay in"}[typ]
    verb = ACTIONS[typ]
    return " ".join(((verb,) if verb != what else ()) + move_cards(t, m) + target_words(t, m))


def _meld_name(kind: int) -> str:
    return "wild" if kind == WILDS_ONLY else KIND_NAMES[kind]


def kinds_of(tokens, what: str, unknown: bool = False) -> list[int]:
    """The kinds of a line's cards (``?``: -1 where ``unknown``); a ValueError names the card."""
    out = []
    for tok in tokens:
        if unknown and tok == "?":
            out.append(-1)
            continue
        try:
            out.append(parse_kind(tok))
        except ValueError as e:
            raise ValueError(f"{what}: {e}") from None
    return out


def _split(move) -> tuple[list[str], list[str] | None]:
    """A line's cards and the words of its target meld (None: not named)."""
    cards = list(move.cards)
    for i, word in enumerate(cards):
        if word.lower() in TARGET_WORDS:
            return cards[:i], [w.lower() for w in cards[i + 1:]]
    return cards, None


def _target(t: np.ndarray, words: list[str] | None, card: int, line: str) -> tuple[int, int]:
    """The (side, slot) of the meld named by ``words`` (``K``, ``their K``, ``wild``), or for
    ``None`` our meld of ``card``'s rank."""
    side = int(t[T.SA.seat]) % 2
    if words is None:
        if card in (TWO, JOKER):
            raise ValueError(f"{line}: say which meld the wild card goes to, e.g. '... to K' or '... to their wild'")
        return side, T.slot_of(card) if FOUR <= card <= ACE else -1
    if words and words[0] == "their":
        side, words = 1 - side, words[1:]
    if len(words) != 1:
        raise ValueError(f"{line}: name the meld as 'K', 'their K' or 'wild'")
    if words[0] == "wild":
        return side, T.WILD_SLOT
    kind = kinds_of(words, line)[0]
    if not FOUR <= kind <= ACE:
        raise ValueError(f"{line}: a meld is of a rank 4..A or of wilds ('wild'), not {words[0]!r}")
    return side, T.slot_of(kind)


def meld_record(kinds: list[int]) -> tuple[int, int, int, int]:
    """``(kind, naturals, twos, jokers)`` of a meld's cards; :class:`Illegal` for 3s or mixed ranks."""
    naturals = [k for k in kinds if k not in (TWO, JOKER)]
    if any(k in (BLACK3, RED3) for k in naturals):
        raise Illegal("3s are never melded (a red 3 is laid alone: 'red3')")
    if len(set(naturals)) > 1:
        raise Illegal("a meld is one rank (plus wild cards): " + " ".join(KIND_NAMES[k] for k in kinds)
                      + " mixes ranks")
    return (naturals[0] if naturals else WILDS_ONLY, len(naturals), kinds.count(TWO), kinds.count(JOKER))


def read_move(t: np.ndarray, move) -> tuple[np.ndarray, list[int]]:
    """The move record of a record's line for the seat to act on ``t``, and the cards it says
    were drawn (``red3``: the replacements, -1 unknown). A ValueError when the line cannot be
    read; :class:`Illegal` when it says a move no table can hold (a meld of two ranks)."""
    action = move.action.lower()
    line = f"{move.seat}: {move.action}"
    cards, target = _split(move)
    if target is not None and action not in ("add", "take", "swap"):
        raise ValueError(f"{line}: only add, take and swap name a meld ('to K', 'from their K')")
    rec = np.zeros(T.MW, dtype=np.int64)
    if action in ("end", "pass"):
        if cards:
            raise ValueError(f"{line} takes no cards")
        rec[0] = T.MV_END if action == "end" else T.MV_PASS
        return rec, []
    if action == "red3":
        kinds = kinds_of(cards, line, unknown=True)
        if not kinds or kinds[0] != RED3:
            raise ValueError(f"{line}: write the red 3 laid, then the card(s) drawn for it: 'red3 3r K'")
        rec[0] = T.MV_RED3
        return rec, kinds[1:]
    kinds = kinds_of(cards, line)
    if not kinds:
        raise ValueError(f"{line}: name the card(s), e.g. '{move.seat}: {action} K'")
    if action in ("discard", "add", "swap") or (action == "take" and (len(kinds) == 1 or target is not None)):
        if len(kinds) != 1:
            raise ValueError(f"{line}: one card a line (each card added is a line of its own)")
        card = kinds[0]
        if action == "discard":
            rec[:2] = (T.MV_DISCARD, card)
            return rec, []
        if action == "swap":
            if target is None:
                raise ValueError(f"{line}: say which meld the wild comes out of, e.g. 'swap Jk from their K'")
            side, slot = _target(t, target, card, line)
            rec[:4] = (T.MV_SWAP, side, slot, card)
            return rec, []
        side, slot = _target(t, target, card, line)
        if slot < 0:
            raise Illegal(f"{KIND_NAMES[card]} goes onto no meld (3s are never melded)")
        if action == "add":
            rec[:4] = (T.MV_ADD, side, slot, card)
        else:
            top = _top(t)
            if top != card:
                raise Illegal(f"the pile's top card is {_name(top)}, not {KIND_NAMES[card]}")
            rec[:3] = (T.MV_TAKE_ADD, side, slot)
        return rec, []
    if action not in ("meld", "take"):
        raise ValueError(f"{line}: unknown action; a move is one of {', '.join(ACTIONS)}")
    rec[0] = T.MV_NEW if action == "meld" else T.MV_TAKE_NEW
    rec[1:] = meld_record(kinds)
    if action == "take" and _top(t) not in kinds:
        raise Illegal(f"the pile's top card, {_name(_top(t))}, is not in the meld {' '.join(cards)}: a pile is "
                      "taken by melding its top card")
    return rec, []


def _top(t: np.ndarray) -> int:
    n = int(t[T.SA.pile_len])
    return int(t[T.SA.pile + n - 1]) if n else -2


def _name(kind: int) -> str:
    return "none (the pile is empty)" if kind == -2 else KIND_NAMES[kind]


def needed(t: np.ndarray, rec) -> np.ndarray:
    """The cards (counts per kind) move ``rec`` takes from the hand of the seat to act."""
    need = np.zeros(N_KINDS, dtype=np.int64)
    typ = int(rec[0])
    if typ == T.MV_DISCARD:
        need[rec[1]] += 1
    elif typ == T.MV_RED3:
        need[RED3] += 1
    elif typ in (T.MV_NEW, T.MV_TAKE_NEW):
        if rec[1] != WILDS_ONLY:
            need[rec[1]] += rec[2]
        need[TWO] += rec[3]
        need[JOKER] += rec[4]
        if typ == T.MV_TAKE_NEW:
            need[_top(t)] -= 1  # the top card comes from the pile
    elif typ == T.MV_ADD:
        need[rec[3]] += 1
    elif typ == T.MV_SWAP:
        kind = int(t[T.meld_at(rec[1], rec[2])])
        if kind != WILDS_ONLY:
            need[kind] += 1
    return need


def why_illegal(t: np.ndarray, rl: np.ndarray, rec) -> str:
    """Which rule move ``rec`` of the seat to act on ``t`` breaks (it is not among the legal
    moves), in words."""
    R = T.R
    seat = int(t[T.SA.seat])
    side = seat % 2
    hand = t[T.SA.hand + seat * N_KINDS:T.SA.hand + (seat + 1) * N_KINDS]
    need = needed(t, rec)
    short = [k for k in range(N_KINDS) if need[k] > hand[k]]
    typ = int(rec[0])
    first_turn = int(t[T.SA.turn]) < T.SEATS
    if t[T.SA.phase] == T.PH_FREED:
        freed = int(t[T.SA.freed])
        if typ != T.MV_NEW or int(rec[3] if freed == TWO else rec[4]) == 0:
            return f"the {KIND_NAMES[freed]} swapped out must be melded at once, in a new meld holding it"
    if short:
        k = short[0]
        held = " ".join([KIND_NAMES[k]] * int(hand[k])) if hand[k] else f"no {KIND_NAMES[k]}"
        return f"seat {seat} plays {' '.join([KIND_NAMES[k]] * int(need[k]))} from its hand but holds {held}"
    if typ in (T.MV_TAKE_NEW, T.MV_TAKE_ADD):
        top = _top(t)
        if not t[T.SA.can_take]:
            return "the pile may be taken only at the start of a turn, before any other move (red 3s aside)"
        if top in (BLACK3, RED3):
            return f"a {'black' if top == BLACK3 else 'red'} 3 on top blocks the pile: it can never be melded"
        if typ == T.MV_TAKE_ADD and not t[T.SA.opened + side]:
            return "a side that has not opened takes the pile only with a first meld of its own"
    if typ in (T.MV_ADD, T.MV_SWAP) and not t[T.SA.opened + side]:
        return "a side adds to melds and swaps only after its first meld"
    if typ in (T.MV_NEW, T.MV_TAKE_NEW):
        kind, n, tw, jk = (int(x) for x in rec[1:])
        words = " ".join(([KIND_NAMES[kind]] * n if kind >= 0 else []) + ["2"] * tw + ["Jk"] * jk)
        if n + tw + jk < 3:
            return f"a meld has at least three cards: {words}"
        if not meld_is_legal(kind, n, tw, jk, rl[R.wild_code], rl[R.wild_melds]):
            return f"{words} breaks the wild limit (at least 2 naturals, the wilds within the limit)"
        if T.meld_size(t, side, T.slot_of(kind)) > 0:
            return f"our side has a {_meld_name(kind)} meld already: add to it"
        points = (n * rl[R.points + kind] if kind >= 0 else 0) + tw * rl[R.points + TWO] + jk * rl[R.points + JOKER]
        if not t[T.SA.opened + side] and points < rl[R.min_first_meld]:
            return (f"a side's first meld must be worth at least {int(rl[R.min_first_meld])} points; {words} is "
                    f"worth {int(points)}")
    if typ in (T.MV_ADD, T.MV_TAKE_ADD, T.MV_SWAP):
        o = T.meld_at(int(rec[1]), int(rec[2]))
        owner = "our" if int(rec[1]) == side else "their"
        if t[o + 1] + t[o + 2] + t[o + 3] == 0:
            return f"{owner} side has no {_meld_name(int(t[o]))} meld"
        if typ == T.MV_SWAP and t[o + (3 if rec[3] == JOKER else 2)] == 0:
            return f"{owner} {_meld_name(int(t[o]))} meld holds no {KIND_NAMES[int(rec[3])]} to swap out"
        if typ == T.MV_SWAP:
            return (f"only a Joker is swapped out{' (or a 2, swap_twos)' if rl[R.swap_twos] else ''}, and the "
                    "freed wild must go into a new meld of the hand at once")
        return f"the card does not fit {owner} {_meld_name(int(t[o]))} meld (its rank, or the wild limit)"
    if first_turn:
        return "nobody goes out in their first turn (table turns 1 to 4)"
    return "not a legal move here (going out needs the rules' conditions)"


# ---- writing a record: one hand played -----------------------------------------------------------
def _kinds_text(kinds) -> str:
    """Card kinds in the order given, by name (a pile bottom to top, the cards drawn)."""
    return " ".join(KIND_NAMES[int(k)] for k in kinds)


def play_hand(state, rules, codes, hp, policy, score) -> tuple[tuple, dict, dict]:
    """One hand played from the xoshiro ``state`` by the policies ``codes`` (``policy``: a user's
    compiled one), ``score`` the game score before it (side 0, side 1) or None: its moves in the
    record's words, its header (dealer, upcard, score) and its result (:func:`cardodds.canasta.play.trace`)."""
    from ..trace import Move
    from ._lookahead import lookahead_choose
    from ._policies import smart_arg
    from .cards import deck_kinds, format_counts
    from .view import ACTIONS, describe_move, move_cards

    rl = rules.pack()
    t = np.zeros(T.S.size, dtype=np.int64)
    if score is not None:
        t[T.SA.game:T.SA.game + 2] = score
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    work = np.zeros(N_KINDS, dtype=np.int64)
    T.new_hand(state, t, rl, deck_kinds(rules.jokers), T.hand_dealer(rl))
    hb = T.SA.hand
    info = {"dealer": str(int(t[T.SA.dealer])), "upcard": KIND_NAMES[int(t[T.SA.pile])]}
    if score is not None:
        info["score"] = f"{score[0]} {score[1]}"
    first = int(t[T.SA.seat])
    moves = []
    for s in range(T.SEATS):
        dealt = t[hb + N_KINDS * s:hb + N_KINDS * (s + 1)].copy()
        if s == first:  # the first player's draw is already in its hand: show the 12 dealt
            dealt[t[T.SA.stock + t[T.SA.stock_pos] - 1]] -= 1
        moves.append(Move(s, "deal", tuple(format_counts(dealt).split())))
    last_turn = -1
    while t[T.SA.phase] != T.PH_OVER:
        if t[T.SA.turn] != last_turn:
            last_turn = int(t[T.SA.turn])
            s = int(t[T.SA.seat])
            drawn = () if t[T.SA.no_draw] else (KIND_NAMES[int(t[T.SA.stock + t[T.SA.stock_pos] - 1])],)
            hand = format_counts(t[hb + N_KINDS * s:hb + N_KINDS * (s + 1)])
            moves.append(Move(s, "draw", drawn, f"turn {last_turn + 1}; hand {hand}" if drawn else
                              f"turn {last_turn + 1}: the stock is empty"))
        nm = T.gen_moves(t, rl, mv, work)
        if nm == 0:
            raise AssertionError("no legal move")  # a bug, never the user's input
        i = lookahead_choose(state, t, rl, mv, nm, codes, hp, policy, smart_arg(codes))
        typ, pos, seat = int(mv[i, 0]), int(t[T.SA.stock_pos]), int(t[T.SA.seat])
        note = describe_move(t, mv[i])
        if typ in (T.MV_TAKE_NEW, T.MV_TAKE_ADD):
            note += "; the pile held " + _kinds_text(t[T.SA.pile:T.SA.pile + t[T.SA.pile_len]])
        cards = move_cards(t, mv[i]) + target_words(t, mv[i])
        T.apply_move(t, rl, mv[i])
        if typ == T.MV_RED3:  # the replacements drawn (a red 3 drawn again is laid at once)
            got = t[T.SA.stock + pos:T.SA.stock + t[T.SA.stock_pos]]
            cards += tuple(KIND_NAMES[int(k)] for k in got)
            note = note.replace("draws a replacement", f"draws {_kinds_text(got)}" if len(got)
                                else "draws nothing (the stock is empty)")
        moves.append(Move(seat, ACTIONS[typ], cards, note))
    T.score_hand(t, rl, work)
    result = {"score": (int(t[T.SA.score]), int(t[T.SA.score + 1])), "went out": (int(t[T.SA.went_out]),),
              "turns": (int(t[T.SA.turn]) + 1,)}
    return tuple(moves), info, result
