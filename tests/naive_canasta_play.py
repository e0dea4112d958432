"""A slow, plain-Python Polish Canasta table with random players (docs/rules/canasta.md), for tests.

It follows the rules step by step with dicts and lists, lists the legal moves in the same
order as the compiled engine (:mod:`cardodds.canasta._table`) and draws the same random
numbers (tests/naive.py's xoshiro256** twin), so the same chunk state must give exactly the
same hands. It checks card conservation and meld legality itself after every move.
"""

from __future__ import annotations

from .naive import Stock, Xoshiro

TWO, BLACK3, RED3, FOUR, ACE, JOKER = 0, 1, 2, 3, 13, 14
WILD = -1
RANKS = list(range(FOUR, ACE + 1)) + [WILD]


def wild_room(n, code):
    if code == 0:
        return n if n >= 2 else -1
    if code == 1:
        return 3 if n >= 2 else -1
    return 1 << 20 if n >= 1 else -1


def legal(kind, n, t, j, code, wild_melds):
    if n + t + j < 3:
        return False
    if kind == WILD:
        return n == 0 and wild_melds
    room = wild_room(n, code)
    return room >= 0 and t + j <= room


class Table:
    def __init__(self, rules, deck):
        # dict: points, code, min_first, wild_melds, swap_twos, meld_all, bonus, needs_canasta, and
        # direction (+1 / -1), first_dealer, take_pile (empty_stock), adder (added_cards)
        self.r = rules
        self.deck = deck

    # -- the deal ---------------------------------------------------------------------
    def deal(self, rng: Xoshiro, stock: Stock, dealer: int):
        size = len(stock.deck)
        stock.i, stock.word, stock.have = 0, 0, 0
        for _ in range(size - 1):
            stock.deal(rng)
        cards = list(stock.deck)
        self.hands = [[0] * 15 for _ in range(4)]
        d = self.r.get("direction", 1)
        for i in range(4):
            seat = (dealer + d * (1 + i)) % 4
            for c in cards[12 * i:12 * i + 12]:
                self.hands[seat][c] += 1
        self.pile = [cards[48]]
        self.stock = cards[49:]
        self.melds = [dict(), dict()]  # side -> {rank: [naturals, twos, jokers]}
        self.lent = [dict(), dict()]  # side -> {rank: [naturals, twos, jokers] the other side added}
        self.red3 = [0, 0]
        self.opened = [False, False]
        self.seat = dealer if self.r.get("first_dealer") else (dealer + d) % 4
        self.turn = 0
        self.over = False
        self.went_out = -1
        self.freed = None
        self.open_turn = [-1, -1]
        self.canasta_turn = [-1, -1]
        self.size = size
        self.draw_turn()

    def next_seat(self, seat):
        return (seat + self.r.get("direction", 1)) % 4

    def draw_turn(self):
        self.no_draw = False
        if not self.stock:
            if self.r.get("take_pile") and self.pile:
                self.no_draw = self.can_take = True  # take the pile or end the hand
                return
            self.over = True
            return
        self.hands[self.seat][self.stock.pop(0)] += 1
        self.can_take = True

    # -- rules helpers ----------------------------------------------------------------
    def has_canasta(self, side):
        return any(sum(m) >= 7 for m in self.melds[side].values())

    def may_out(self, canasta_after):
        if self.turn < 4:
            return False
        return not self.r["needs_canasta"] or canasta_after

    def keep_ok(self, left, canasta_after):
        if left >= 2:
            return True
        if not self.may_out(canasta_after):
            return False
        return (not self.r["meld_all"]) if left == 1 else left == 0

    def new_melds(self, hand, need, fixed, extra, mtype, side):
        out = []
        r = self.r
        total = sum(hand)
        has_can = self.has_canasta(side)
        for kind in RANKS:
            if fixed is not None and kind != fixed:
                continue
            if kind in self.melds[side]:
                continue
            if kind == WILD:
                if not r["wild_melds"]:
                    continue
                ns, p = [0], 0
            else:
                ns, p = range(1, hand[kind] + 1), r["points"][kind]
            for n in ns:
                for t in range(hand[TWO] + 1):
                    for j in range(hand[JOKER] + 1):
                        if need == TWO and t == 0 or need == JOKER and j == 0:
                            continue
                        if not legal(kind, n, t, j, r["code"], r["wild_melds"]):
                            continue
                        if not self.opened[side] and n * p + 20 * t + 50 * j < r["min_first"]:
                            continue
                        if not self.keep_ok(total - n - t - j + extra, has_can or n + t + j >= 7):
                            continue
                        out.append((mtype, kind, n, t, j))
        return out

    def fits(self, side, kind, card):
        m = self.melds[side].get(kind)
        if m is None:
            return False
        n, t, j = m
        if card == TWO:
            t += 1
        elif card == JOKER:
            j += 1
        elif card == kind and kind != WILD:
            n += 1
        else:
            return False
        return legal(kind, n, t, j, self.r["code"], self.r["wild_melds"])

    def take_moves(self, hand, h, side, has_can):
        out = []
        sides = (side, 1 - side)
        if self.can_take and self.pile:
            top = self.pile[-1]
            rest = len(self.pile) - 1
            if top not in (BLACK3, RED3):
                work = list(hand)
                work[top] += 1
                if top in (TWO, JOKER):
                    out += self.new_melds(work, top, None, rest, "take_new", side)
                else:
                    out += self.new_melds(work, None, top, rest, "take_new", side)
                if self.opened[side]:
                    for ms in sides:
                        for kind in RANKS:
                            if self.fits(ms, kind, top):
                                mk = ms == side and sum(self.melds[ms][kind]) + 1 >= 7
                                if self.keep_ok(h + rest, has_can or mk):
                                    out.append(("take_add", ms, kind))
        return out

    def moves(self):
        seat, side = self.seat, self.seat % 2
        hand = self.hands[seat]
        h = sum(hand)
        if self.freed is not None:
            return self.new_melds(list(hand), self.freed, None, 0, "new", side)
        out = []
        has_can = self.has_canasta(side)
        if self.no_draw and self.can_take:
            return [("end",)] + self.take_moves(hand, h, side, has_can)
        if hand[RED3]:
            left = h - 1 + (1 if self.stock else 0)
            if left >= 2 or (left == 1 and not self.r["meld_all"] and self.may_out(has_can)):
                out.append(("red3",))
        sides = (side, 1 - side)
        out += self.take_moves(hand, h, side, has_can)
        out += self.new_melds(list(hand), None, None, 0, "new", side)
        if self.opened[side]:
            for ms in sides:
                for kind in RANKS:
                    if kind not in self.melds[ms]:
                        continue
                    for card in range(15):
                        if hand[card] and self.fits(ms, kind, card):
                            mk = ms == side and sum(self.melds[ms][kind]) + 1 >= 7
                            if self.keep_ok(h - 1, has_can or mk):
                                out.append(("add", ms, kind, card))
            for ms in sides:
                for kind in RANKS[:-1]:
                    m = self.melds[ms].get(kind)
                    if m is None or hand[kind] == 0:
                        continue
                    for wild in (JOKER, TWO):
                        if wild == TWO and not self.r["swap_twos"]:
                            continue
                        if m[2 if wild == JOKER else 1] == 0:
                            continue
                        work = list(hand)
                        work[kind] -= 1
                        work[wild] += 1
                        if self.new_melds(work, wild, None, 0, "new", side):
                            out.append(("swap", ms, kind, wild))
        for card in range(15):
            if hand[card] and (h - 1 >= 1 or (not self.r["meld_all"] and self.may_out(has_can))):
                out.append(("discard", card))
        if not out and not self.stock:
            out.append(("pass",))  # a last card that may not be discarded, and no stock left
        return out

    # -- playing a move -----------------------------------------------------------------------
    def note(self, side):
        if not self.opened[side]:
            self.opened[side] = True
            self.open_turn[side] = self.turn
        if self.canasta_turn[side] < 0 and self.has_canasta(side):
            self.canasta_turn[side] = self.turn

    def take_rest(self, seat):
        for c in self.pile:
            self.hands[seat][c] += 1
        self.pile = []
        self.takes[seat % 2] += 1

    def play(self, mv):
        seat, side = self.seat, self.seat % 2
        hand = self.hands[seat]
        kind = mv[0]
        if kind == "end":
            self.over = True
            return
        if kind == "pass":
            self.turn += 1
            self.seat = self.next_seat(seat)
            self.draw_turn()
            return
        if kind == "discard":
            hand[mv[1]] -= 1
            self.pile.append(mv[1])
            if sum(hand) == 0:
                self.went_out, self.over = seat, True
                return
            self.turn += 1
            self.seat = self.next_seat(seat)
            self.draw_turn()
            return
        if kind == "red3":
            while True:
                hand[RED3] -= 1
                self.red3[side] += 1
                if not self.stock:
                    break
                c = self.stock.pop(0)
                hand[c] += 1
                if c != RED3:
                    break
        elif kind in ("new", "take_new"):
            _, rank, n, t, j = mv
            if kind == "take_new":
                hand[self.pile.pop()] += 1
            if rank != WILD:
                hand[rank] -= n
            hand[TWO] -= t
            hand[JOKER] -= j
            self.melds[side][rank] = [n, t, j]
            self.lent[side][rank] = [0, 0, 0]
            if kind == "take_new":
                self.take_rest(seat)
            self.freed = None
            self.note(side)
        elif kind in ("add", "take_add"):
            ms, rank = mv[1], mv[2]
            if kind == "add":
                card = mv[3]
                hand[card] -= 1
            else:
                card = self.pile.pop()
            m = self.melds[ms][rank]
            m[1 if card == TWO else 2 if card == JOKER else 0] += 1
            if ms != side:
                self.lent[ms][rank][1 if card == TWO else 2 if card == JOKER else 0] += 1
            if kind == "take_add":
                self.take_rest(seat)
            self.note(ms)
        elif kind == "swap":
            _, ms, rank, wild = mv
            m = self.melds[ms][rank]
            hand[rank] -= 1
            m[0] += 1
            m[2 if wild == JOKER else 1] -= 1
            hand[wild] += 1
            ln, w = self.lent[ms][rank], 2 if wild == JOKER else 1
            if ms != side:  # the natural is the swapper's; the wild back its own if it laid one
                ln[0] += 1
                ln[w] = max(ln[w] - 1, 0)
            elif m[w] < ln[w]:  # the meld's side had none of that wild left: the other side's
                ln[w] -= 1
            self.freed = wild
            self.note(ms)
        if kind != "red3":
            self.can_take = False
        if sum(hand) == 0:
            self.went_out, self.over = seat, True

    # -- checks and scores -------------------------------------------------------------------------
    def check(self, deck_counts):
        seen = [0] * 15
        for hand in self.hands:
            assert min(hand) >= 0, "a hand holds a negative count"
            for k in range(15):
                seen[k] += hand[k]
        for c in self.pile + self.stock:
            seen[c] += 1
        for side in range(2):
            seen[RED3] += self.red3[side]
            for rank, (n, t, j) in self.melds[side].items():
                assert self.opened[side]
                assert legal(rank, n, t, j, self.r["code"], self.r["wild_melds"]), "illegal meld"
                if rank != WILD:
                    seen[rank] += n
                seen[TWO] += t
                seen[JOKER] += j
        assert seen == list(deck_counts), "cards not conserved"

    def score(self, side):
        pts = self.r["points"]
        canastas, table, bonus = 0, 0, 0
        adder = self.r.get("adder", False)
        for rank, (n, t, j) in self.melds[side].items():
            ln = self.lent[side][rank] if adder else [0, 0, 0]  # the other side's cards: theirs
            table += ((n - ln[0]) * pts[rank] if rank != WILD else 0) + 20 * (t - ln[1]) + 50 * (j - ln[2])
            if n + t + j >= 7:
                canastas += 1
                bonus += 1000 if n == 0 else 500 if n >= 7 else 300
        if adder:
            for rank, (n, t, j) in self.lent[1 - side].items():  # the cards it added to theirs
                table += (n * pts[rank] if rank != WILD else 0) + 20 * t + 50 * j
        table += 100 * self.red3[side]
        s = bonus + table if canastas else -table
        for seat in (side, side + 2):
            s -= sum(c * pts[k] for k, c in enumerate(self.hands[seat]))
        if self.went_out >= 0 and self.went_out % 2 == side and (not self.r["needs_canasta"] or canastas):
            s += self.r["bonus"]
        return s


def random_hands(state, n, rules, deck, deck_counts):
    """Play ``n`` hands with random players (dealt so that seat 0 moves first: seat 3 deals
    by default); returns per-hand tuples
    ``(score0, score1, went_out, turns, takes0, takes1, open_turn0, open_turn1, canasta_turn0,
    canasta_turn1)``."""
    rng = Xoshiro(state)
    stock = Stock(deck)
    out = []
    for _ in range(n):
        tb = Table(rules, deck)
        tb.takes = [0, 0]
        d = rules.get("direction", 1)
        tb.deal(rng, stock, 0 if rules.get("first_dealer") else (4 - d) % 4)
        tb.check(deck_counts)
        while not tb.over:
            mv = tb.moves()
            assert mv, "no legal move"
            tb.play(mv[rng.bounded(len(mv))])
            tb.check(deck_counts)
        assert not (tb.went_out >= 0 and tb.turn < 4), "went out in the first turn"
        out.append((tb.score(0), tb.score(1), tb.went_out, tb.turn, tb.takes[0], tb.takes[1],
                    tb.open_turn[0], tb.open_turn[1], tb.canasta_turn[0], tb.canasta_turn[1]))
    return out
