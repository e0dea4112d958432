"""A Canasta record replayed for its review (:mod:`cardodds.canasta.review`): every move
checked on the engine's own table (:mod:`cardodds.canasta._table`: the move must be among the
legal moves :func:`~cardodds.canasta._table.gen_moves` lists), and each decision of the
reviewed seats taken down as that seat knew it then.

The table holds every card whose place the record gives. A hand the record does not give
(a seat without its ``deal`` line, a draw ``?``) holds, beside its known cards, a number of
cards not known: a card it plays from them is taken from them when the pack still has one
unplaced; while its moves are checked, the rest stand in as black 3s (which add nothing but
discards to its moves). A card drawn but not given is a black 3 on the stock, turned into a
card not known once drawn.

Decisions (:class:`Point`), in a turn's order: ``take`` (at the first move that is not a red 3,
when the pile could be taken: a way of taking it, or leave it); ``meld`` (each new meld, and at
the discard hold when a new meld was possible: the advisor's meld options), called ``out`` when
one of those melds empties the hand (go out, or hold: stay in); ``out`` for the last card
discarded or added (each way of going out); ``discard`` (every other discard). Red 3s, additions,
swaps and the meld of a swapped wild are no decisions of the advisor; neither is a turn on an
empty stock.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..review import Violation
from . import _table as T
from ._kernels import WILDS_ONLY
from ._position import parse_kinds, parse_known
from ._record import Illegal, kinds_of, needed, read_move, why_illegal
from ._worlds import OPT_HOLD, OPT_LEAVE
from .cards import BLACK3, JOKER, KIND_NAMES, N_KINDS, RED3, TWO, deck_counts, format_counts, parse_kind
from .position import Position

_DEALT = T.SEATS * T.HAND + 1  # the cards out of the stock before the first draw
_FILLER = BLACK3  # a card not known, while it stands in a hand or on the stock


@dataclass(frozen=True)
class Point:
    """One decision of a reviewed seat: where (``move``; ``key``: the table turn, the seat's move
    in it and the decision at that move, which seeds its runs, the same whatever the record holds
    beside what the seat saw), which (``what``:
    take, out, meld, discard; ``decision``: the advisor's decision whose options it has), the
    position as the seat knew it (``position``: a :class:`~cardodds.canasta.Position` with the
    seat as the advisor's seat 0, its decision ``decision``) and the move taken (``taken``: a move
    record in that frame, or an ``OPT_*`` code in its first field; ``option``: where it is among
    the position's options)."""

    seat: int
    move: int
    key: tuple[int, int, int]
    what: str
    decision: str
    position: Position
    taken: tuple[int, ...]
    option: int


@dataclass
class Walk:
    """A record replayed: the decisions of the reviewed seats and the first move the rules forbid."""

    points: list[Point] = field(default_factory=list)
    violation: Violation | None = None


def known_seats(trace) -> tuple[int, ...]:
    """The seats whose cards the record holds: dealt (a ``deal`` line) and every card drawn given."""
    dealt = {m.seat for m in trace.moves if m.action.lower() == "deal"}
    hidden = {m.seat for m in trace.moves if m.action.lower() in ("draw", "red3") and "?" in m.cards}
    return tuple(sorted(dealt - hidden))


def _header(trace, rl) -> tuple[int, int]:
    """The dealer and the upcard of the record's header."""
    dealer = trace.info.get("dealer")
    if dealer is None:
        dealer_seat = int(T.hand_dealer(rl))
    elif dealer.strip().isdigit() and int(dealer) < T.SEATS:
        dealer_seat = int(dealer)
    else:
        raise ValueError(f"dealer: {dealer!r}: give the dealer's seat, 0 to 3 ('dealer: 3')")
    upcard = trace.info.get("upcard")
    if upcard is None:
        raise ValueError("no 'upcard: CARD' line: the record says the card turned up to start the pile")
    try:
        return dealer_seat, parse_kind(upcard)
    except ValueError as e:
        raise ValueError(f"upcard: {e}") from None


def _located(t: np.ndarray) -> np.ndarray:
    """Cards of each kind whose place the table holds: hands, melds, the pile, red 3s laid."""
    c = t[T.SA.hand:T.SA.hand + T.SEATS * N_KINDS].reshape(T.SEATS, N_KINDS).sum(axis=0)
    c = c + np.bincount(t[T.SA.pile:T.SA.pile + t[T.SA.pile_len]], minlength=N_KINDS)
    for side in range(2):
        for slot in range(T.SLOTS):
            o = T.meld_at(side, slot)
            if t[o] != WILDS_ONLY:
                c[t[o]] += t[o + 1]
            c[TWO] += t[o + 2]
            c[JOKER] += t[o + 3]
        c[RED3] += t[T.SA.red3 + side]
    return c


def _hand(t: np.ndarray, seat: int) -> np.ndarray:
    return t[T.SA.hand + seat * N_KINDS:T.SA.hand + (seat + 1) * N_KINDS]


def _kinds(counts) -> list[int]:
    return [k for k in range(N_KINDS) for _ in range(int(counts[k]))]


class _Replay:
    """The table of a record as it is replayed, with the cards not known of each hand."""

    def __init__(self, trace, rules, seats, score, thrown: bool):
        self.trace, self.rules, self.seats, self.thrown = trace, rules, tuple(seats), thrown
        self.rl = rules.pack()
        self.pack = deck_counts(rules.jokers)
        self.score = score
        self.unknown = np.zeros(T.SEATS, dtype=np.int64)
        self.placeholder = np.zeros(T.MAX_CARDS, dtype=bool)
        self.walk = Walk()
        self.step = 0  # the moves the seat to act has made in its turn

    # ---- the deal ---------------------------------------------------------------------------------
    def deal(self) -> int:
        """Lay out the deal (the ``deal`` lines, the header); returns the first move's index."""
        moves, rl = self.trace.moves, self.rl
        dealer, upcard = _header(self.trace, rl)
        t = np.zeros(T.S.size, dtype=np.int64)
        if self.score is not None:
            t[T.SA.game:T.SA.game + 2] = self.score
        for side in range(2):
            for slot in range(T.SLOTS):
                t[T.meld_at(side, slot)] = WILDS_ONLY if slot == T.WILD_SLOT else slot + 3
            t[T.SA.open_turn + side] = t[T.SA.canasta_turn + side] = -1
        self.unknown[:] = T.HAND
        i = 0
        while i < len(moves) and moves[i].action.lower() == "deal":
            m, line = moves[i], self.trace.line_of(i)
            if self.unknown[m.seat] != T.HAND or _hand(t, m.seat).sum():
                raise ValueError(f"line {line}: seat {m.seat} is dealt twice; one 'deal' line a seat")
            kinds = kinds_of(m.cards, f"line {line}")
            if len(kinds) != T.HAND:
                raise ValueError(f"line {line}: seat {m.seat} is dealt {len(kinds)} cards; a deal is {T.HAND}")
            for k in kinds:
                t[T.hand_at(m.seat, k)] += 1
            self.unknown[m.seat] = 0
            i += 1
        t[T.SA.pile] = upcard
        t[T.SA.pile_len] = 1
        t[T.SA.stock_pos] = _DEALT
        t[T.SA.deck_size] = self.rules.deck_size
        t[T.SA.dealer] = dealer
        t[T.SA.seat] = dealer if self.rules.first_player == "dealer" else (dealer + T.SEATS + rl[T.R.direction]) % 4
        t[T.SA.went_out] = -1
        self.t = t
        over = self._over_the_pack()
        if over:
            self.walk.violation = Violation(self.trace.line_of(max(i - 1, 0)), max(i - 1, 0), moves[max(i - 1, 0)].seat
                                            if moves else 0, f"the deal and the upcard hold {over}")
            return len(moves)
        self._place(i)
        before = int(t[T.SA.stock_pos])
        T.start_turn(t, rl)
        self._drawn(before)
        return i

    def _over_the_pack(self) -> str:
        over = [k for k in range(N_KINDS) if _located(self.t)[k] > self.pack[k]]
        return "; ".join(f"more {KIND_NAMES[k]} than the pack's {self.pack[k]}" for k in over)

    # ---- the cards drawn --------------------------------------------------------------------------
    def _place(self, j: int) -> None:
        """Put on the stock's next place the card the draw line ``j`` gives (a card not known
        when the line is not a draw or names none)."""
        card = -1
        moves = self.trace.moves
        if j < len(moves) and moves[j].action.lower() == "draw" and len(moves[j].cards) == 1:
            card = kinds_of(moves[j].cards, f"line {self.trace.line_of(j)}", unknown=True)[0]
        self._put(int(self.t[T.SA.stock_pos]), card)

    def _put(self, pos: int, card: int) -> None:
        if pos < self.t[T.SA.deck_size]:
            self.t[T.SA.stock + pos] = _FILLER if card < 0 else card
            self.placeholder[pos] = card < 0

    def _drawn(self, before: int) -> int:
        """Cards not known drawn since stock place ``before`` become cards not known of the
        drawer's hand; returns how many."""
        t = self.t
        seat = int(t[T.SA.seat])
        n = int(self.placeholder[before:int(t[T.SA.stock_pos])].sum())
        t[T.hand_at(seat, _FILLER)] -= n
        self.unknown[seat] += n
        return n

    # ---- the moves --------------------------------------------------------------------------------
    def run(self) -> Walk:
        try:
            first = self.deal()
        except _Stop:
            return self.walk
        start = True  # a turn begun: its draw line comes next
        moves = self.trace.moves
        for j in range(first, len(moves)):
            try:
                start = self._move(j, start)
            except _Stop:
                break
        return self.walk

    def _stop(self, j: int, message: str):
        m = self.trace.moves[j]
        self.walk.violation = Violation(self.trace.line_of(j), j, m.seat, message)
        raise _Stop

    def _move(self, j: int, start: bool) -> bool:
        """Check and play line ``j``; returns whether a turn has begun (its draw comes next)."""
        t, rl, m = self.t, self.rl, self.trace.moves[j]
        line = self.trace.line_of(j)
        act = m.action.lower()
        if act == "deal":
            raise ValueError(f"line {line}: the 'deal' lines come first, before any move")
        if t[T.SA.phase] == T.PH_OVER:
            wo = int(t[T.SA.went_out])
            self._stop(j, "the hand is over: " + (f"seat {wo} went out" if wo >= 0 else "the stock ran out"))
        seat = int(t[T.SA.seat])
        if m.seat != seat:
            self._stop(j, f"out of turn: it is seat {seat}'s turn")
        if act == "draw":
            self.step = 0
            return self._draw(j, start)
        if start:
            self._stop(j, f"seat {seat}'s turn begins with a draw from the stock ('{seat}: draw CARD')")
        try:
            rec, drawn = read_move(t, m)
        except ValueError as e:
            raise ValueError(f"line {line}: {e}") from None
        except Illegal as e:
            self._stop(j, str(e))
        need = needed(t, rec)
        if rec[0] == T.MV_SWAP and self.unknown[seat]:
            need += self._freed_meld(j, rec)
        self._take_from_unknown(j, seat, need)
        filler = int(self.unknown[seat])
        t[T.hand_at(seat, _FILLER)] += filler
        mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
        nm = T.gen_moves(t, rl, mv, np.zeros(N_KINDS, dtype=np.int64))
        legal = [tuple(int(x) for x in mv[i]) for i in range(nm)]
        if tuple(int(x) for x in rec) not in legal:
            t[T.hand_at(seat, _FILLER)] -= filler
            self._stop(j, why_illegal(t, rl, rec))
        if seat in self.seats:
            self._decide(j, seat, rec, legal)
        self.step += 1
        pos = int(t[T.SA.stock_pos])
        typ = int(rec[0])
        if typ in (T.MV_DISCARD, T.MV_PASS):
            self._place(j + 1)
        elif typ == T.MV_RED3:
            for i, k in enumerate(drawn + [-1]):
                self._put(pos + i, k)
        T.apply_move(t, rl, rec)
        t[T.hand_at(seat, _FILLER)] -= filler
        got = int(t[T.SA.stock_pos]) - pos
        if typ == T.MV_RED3:
            if len(drawn) > got:
                self._stop(j, f"seat {seat} drew {got} card{'s' * (got != 1)} for its red 3, not {len(drawn)}: a "
                              "red 3's replacement is one card (another only when it is a red 3 again; none on an "
                              "empty stock)")
            if self._drawn(pos) and seat in self.seats:
                raise ValueError(f"line {line}: the card seat {seat} drew for its red 3 is not given; its review "
                                 "needs every card it drew ('red3 3r K')")
            over = self._over_the_pack()
            if over:
                self._stop(j, f"seat {seat}'s replacement makes {over}")
        elif got:
            self._drawn(pos)
        return int(t[T.SA.seat]) != seat and t[T.SA.phase] != T.PH_OVER

    def _freed_meld(self, j: int, rec) -> np.ndarray:
        """The cards besides the wild it frees that a swap's meld (the next line, the same seat's)
        takes from the hand: a hand not known must hold them for the swap to be allowed."""
        moves = self.trace.moves
        if j + 1 >= len(moves) or moves[j + 1].seat != moves[j].seat or moves[j + 1].action.lower() != "meld":
            return np.zeros(N_KINDS, dtype=np.int64)
        try:
            after, _ = read_move(self.t, moves[j + 1])
        except (ValueError, Illegal):
            return np.zeros(N_KINDS, dtype=np.int64)  # the next line's own check says what is wrong
        need = needed(self.t, after)
        need[int(rec[3])] = max(need[int(rec[3])] - 1, 0)
        return need

    def _draw(self, j: int, start: bool) -> bool:
        t, m = self.t, self.trace.moves[j]
        line = self.trace.line_of(j)
        if not start:
            self._stop(j, f"seat {m.seat} draws again: one card from the stock a turn (a red 3's replacement is "
                          "on its 'red3' line)")
        cards = kinds_of(m.cards, f"line {line}", unknown=True)
        if len(cards) > 1:
            raise ValueError(f"line {line}: a draw is one card ('{m.seat}: draw K', or '?' when not known)")
        if t[T.SA.no_draw]:
            if cards and cards[0] >= 0:
                self._stop(j, "the stock is empty: there is nothing to draw")
            return False
        if (not cards or cards[0] < 0) and m.seat in self.seats:
            raise ValueError(f"line {line}: the card seat {m.seat} drew is not given; its review needs every card "
                             f"it drew ('{m.seat}: draw K')")
        over = self._over_the_pack()
        if over:
            self._stop(j, f"the card drawn makes {over}")
        return False

    def _take_from_unknown(self, j: int, seat: int, need: np.ndarray) -> None:
        """The cards move needs that the seat's known cards lack come from its cards not known."""
        t = self.t
        short = np.maximum(need - _hand(t, seat), 0)
        if not short.any() or not self.unknown[seat]:
            return  # nothing to take, or a hand known whole: the move's check names the card missing
        if short.sum() > self.unknown[seat]:
            self._stop(j, f"seat {seat} plays {format_counts(short)} but holds only {int(self.unknown[seat])} cards "
                          "besides those known")
        spare = self.pack - _located(t)
        if (short > spare).any():
            k = int(np.argmax(short > spare))
            self._stop(j, f"seat {seat} plays {KIND_NAMES[k]}, but every {KIND_NAMES[k]} of the pack is elsewhere")
        for k in np.flatnonzero(short):
            t[T.hand_at(seat, int(k))] += short[k]
        self.unknown[seat] -= int(short.sum())

    # ---- the decisions ----------------------------------------------------------------------------
    def _decide(self, j: int, seat: int, rec, legal: list) -> None:
        """Take down the decisions of ``seat`` at its move ``rec`` (see the module's text)."""
        t = self.t
        typ = int(rec[0])
        if t[T.SA.phase] == T.PH_FREED or t[T.SA.no_draw] or typ in (T.MV_RED3, T.MV_END, T.MV_PASS):
            return
        mine = _rotate(rec, seat % 2)

        def point(what: str, decision: str, order: int, taken) -> None:
            pos = Position(**self._position(seat), decision=decision, rules=self.rules)
            move = tuple(int(x) for x in taken)
            opts = [tuple(int(x) for x in o) for o in pos._opts[0]]
            if move not in opts:  # the replay's legal moves are the advisor's: a bug, never the record's
                raise AssertionError(f"line {self.trace.line_of(j)}: the move made, {move}, is not among the "
                                     f"{decision} options {pos.labels}")
            self.walk.points.append(Point(seat, j, (int(t[T.SA.turn]), self.step, order), what, decision, pos, move,
                                          opts.index(move)))

        if t[T.SA.can_take] and any(m[0] in (T.MV_TAKE_NEW, T.MV_TAKE_ADD) for m in legal):
            point("take", "take", 0, mine if typ in (T.MV_TAKE_NEW, T.MV_TAKE_ADD) else (OPT_LEAVE, 0, 0, 0, 0))
        if typ in (T.MV_TAKE_NEW, T.MV_TAKE_ADD):
            return
        h = int(_hand(t, seat).sum())
        if typ in (T.MV_DISCARD, T.MV_ADD) and h == 1:
            point("out", "out", 1, mine)  # the last card
            return
        melds = [m for m in legal if m[0] == T.MV_NEW]
        # a meld decision where one meld empties the hand is the chance to go out
        what = "out" if any(m[2] + m[3] + m[4] == h for m in melds) else "meld"
        if typ == T.MV_NEW:
            point(what, "meld", 1, mine)
        elif typ == T.MV_DISCARD:
            if melds:
                point(what, "meld", 1, (OPT_HOLD, 0, 0, 0, 0))
            point("discard", "discard", 2, mine)

    def _position(self, seat: int) -> dict:
        """The position as ``seat`` knows it, in :class:`~cardodds.canasta.Position`'s keywords,
        the seat as the advisor's seat 0 (1 the next seat, 2 the partner, 3 the seat before it)."""
        t = self.t
        side = seat % 2
        others = [(seat + d) % T.SEATS for d in (1, 2, 3)]
        melds = []
        for rel, name in ((side, "us"), (1 - side, "them")):
            parts = []
            for slot in range(T.SLOTS):
                o = T.meld_at(rel, slot)
                kind, n, tw, jk = (int(x) for x in t[o:o + 4])
                if n + tw + jk:
                    parts.append(" ".join(([KIND_NAMES[kind]] * n if kind >= 0 else []) + ["2"] * tw + ["Jk"] * jk))
            if parts:
                melds.append(f"{name}: " + ", ".join(parts))
        known = {d: _kinds(np.minimum(t[T.SA.took + s * N_KINDS:T.SA.took + (s + 1) * N_KINDS], _hand(t, s)))
                 for d, s in zip((1, 2, 3), others)}
        thrown = {d: _kinds(t[T.SA.threw + s * N_KINDS:T.SA.threw + (s + 1) * N_KINDS])
                  for d, s in enumerate([seat] + others)}
        red3 = (int(t[T.SA.red3 + side]), int(t[T.SA.red3 + 1 - side]))
        turn = int(t[T.SA.turn])
        # the advisor counts one draw a turn and one a red 3 (turn None: not checked, turn 8
        # assumed) and its seat 1 moves after seat 0 (clockwise)
        whole = int(t[T.SA.stock_pos]) == _DEALT + turn + 1 + sum(red3) and self.rules.direction == "clockwise"
        pos = {"hand": _kinds(_hand(t, seat)), "melds": "; ".join(melds) or None,
               "pile": [int(k) for k in t[T.SA.pile:T.SA.pile + t[T.SA.pile_len]]],
               "counts": tuple(int(_hand(t, s).sum() + self.unknown[s]) for s in others),
               "known": {d: c for d, c in known.items() if c} or None,
               "thrown": ({d: c for d, c in thrown.items() if c} or None) if self.thrown else None,
               "red3": red3, "turn": turn if whole else None,
               "score": None if self.score is None else (self.score[side], self.score[1 - side])}
        return pos


class _Stop(Exception):
    """The walk stops at a move the rules forbid (its violation is taken down)."""


def _rotate(rec, flip: int) -> tuple[int, ...]:
    """A move record of a seat as the advisor's seat 0 sees it: its side is side 0."""
    out = [int(x) for x in rec]
    if out[0] in (T.MV_ADD, T.MV_TAKE_ADD, T.MV_SWAP):
        out[1] ^= flip
    return tuple(out)


def walk(trace, rules, seats, score, thrown: bool) -> Walk:
    """Replay ``trace`` under ``rules`` (the game ``score`` before the hand by side, or None)
    and take down the decisions of ``seats`` (``thrown``: their positions carry the discards
    remembered); stops at the first move the rules forbid."""
    return _Replay(trace, rules, seats, score, thrown).run()


def position_words(p: Position) -> str:
    """A decision's position in a line: hand, melds, pile, the other hands, red 3s, turn, score."""
    def names(kinds) -> str:
        return " ".join(KIND_NAMES[k] for k in kinds) or "-"

    known = parse_known(p.known)
    hands = ", ".join(f"{w} {c}" + (f" (known {names(known[d])})" if d in known else "")
                      for d, w, c in zip((1, 2, 3), ("left", "partner", "right"), p.counts))
    pile = parse_kinds(p.pile or "", "pile")
    words = [f"hand {format_counts(np.bincount(parse_kinds(p.hand), minlength=N_KINDS))}",
             f"melds {p.melds or 'none'}", f"pile {names(pile)}" + (f" ({len(pile)} cards)" if len(pile) > 1 else ""),
             f"cards: {hands}"]
    if any(p.red3):
        words.append(f"red 3s laid {p.red3[0]}-{p.red3[1]}")
    if p.turn is not None:
        words.append(f"table turn {p.turn + 1}")
    if p.score is not None:
        words.append(f"score {p.score[0]}-{p.score[1]}")
    return "; ".join(words)
