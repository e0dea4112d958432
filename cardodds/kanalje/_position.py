"""The position of a Kanalje advice (:func:`~cardodds.kanalje.advise`) as the player gives it:
parsed, checked (every refusal one line naming the argument and the fix) and turned into the
arrays the advice kernel reads (:mod:`._advise`): the table after the tricks played and how its
hidden cards are dealt.

Three players (docs/rules/kanalje.md §2): my seat, my hand, the turned card and the tricks so far. Two
players (docs/rules/kanalje.md §4), phase 1: the face-up stock card of every trick played and the one face up now
(``faceup``) and the phase-1 tricks; phase 2: the dead phase-1 card that named trump (``trump``)
and the phase-2 tricks.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..cards import SUIT_NAMES, card_str, format_cards, parse_cards
from . import _advise as KA
from ._advise import DEAL, HIDDEN_DEAD, HIDDEN_PHASE1, HIDDEN_SEATS
from .rules import KanaljeRules
from .view import FULL, JACK_RANK, SUIT_MASK, TABLE, T

#: Cards a hand holds at the start of the trick play: three players, two players.
_HAND = {3: 17, 2: 13}
_STOCK = 26
#: The phase of a position: three players' trick play, two players' phase 1 or phase 2.
THREE, PHASE1, PHASE2 = 0, 1, 2
#: The argument that names a position's card, by phase.
CARD_ARG = ("turned", "faceup", "trump")


def _cards(value, what: str, example: str) -> list[int]:
    try:
        return parse_cards(value, allow_duplicates=True) if isinstance(value, str) else \
            parse_cards(list(value), allow_duplicates=True)
    except (TypeError, ValueError) as e:
        raise ValueError(f"{what}: {e}; e.g. {example}") from None


def _parse_played(played, n: int = 3) -> list[tuple[int, list[int]]]:
    """``"0: Ac Kc 2c; 2: 5h"`` (or a list of such groups, or of ``(leader, cards)`` pairs) as
    ``[(leader, [cards]), ...]``, for ``n`` players (a trick holds ``n`` cards)."""
    if played is None:
        return []
    example = "\"0: Ac Kc 2c\"" if n == 3 else "\"0: Ac Kc\""
    if isinstance(played, str):
        groups: list = [g for g in (x.strip() for x in played.split(";")) if g]
    else:
        try:
            groups = list(played)
        except TypeError:
            raise ValueError(f"played={played!r}: give the tricks as text, e.g. {example[:-1]}; 2: 5h\"") from None
    out = []
    for k, g in enumerate(groups, 1):
        if isinstance(g, str):
            lead, sep, cards = g.partition(":")
            if not sep:
                raise ValueError(f"played: trick {k} {g.strip()!r} has no colon; write each trick as the seat that "
                                 f"led it, a colon and its cards in order, e.g. {example}")
        else:
            try:
                lead, cards = g
            except (TypeError, ValueError):
                raise ValueError(f"played: trick {k} {g!r} is not a (leader, cards) pair; e.g. (0, "
                                 f"'{example[4:-1]}')") from None
        try:
            leader = int(lead.strip()) if isinstance(lead, str) else int(lead)
            if isinstance(lead, bool) or not 0 <= leader < n:
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(f"played: trick {k} is led by {str(lead).strip()!r}; the leader is a seat 0..{n - 1}, "
                             f"e.g. {example}") from None
        cs = _cards(cards, f"played: trick {k}", example)
        if not 1 <= len(cs) <= n:
            raise ValueError(f"played: trick {k} has {len(cs)} cards; a trick has 1..{n} (a trick in progress fewer "
                             f"than {n}, and only the last)")
        out.append((leader, cs))
    for k, (_, cs) in enumerate(out[:-1], 1):
        if len(cs) < n:
            raise ValueError(f"played: trick {k} has {len(cs)} cards but is not the last; only the trick in "
                             f"progress (the last group) may have fewer than {n}")
    return out


def played_text(played) -> str:
    return "; ".join(f"{lead}: {format_cards(cs)}" for lead, cs in played)


def _winner(cards: list[int], trump: int) -> int:
    """Index (in playing order) of the card that takes the trick (phase 1: ``trump`` -1)."""
    best = 0
    for i, c in enumerate(cards[1:], 1):
        b = cards[best]
        if (c & 3) == (b & 3) and c > b or (c & 3) == trump and (b & 3) != trump:
            best = i
    return best


def _count(mask: int) -> int:
    return bin(mask).count("1")


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _suit(s: int) -> str:
    return SUIT_NAMES[s]


@dataclass(frozen=True)
class Known:
    """A position as the advice kernel reads it: what :func:`check_position` makes of the words."""

    seat: int
    hand: tuple[int, ...]
    turned: int         # the turned card (three players), the face-up card now (phase 1), the trump card (phase 2)
    played: tuple[tuple[int, tuple[int, ...]], ...]
    table: np.ndarray   # the table after the tricks played, the hidden cards not dealt
    deal: np.ndarray    # DEAL: how the hidden cards are dealt
    options: tuple[int, ...]   # my legal cards
    jacks_out: tuple[int, ...]  # suits of the jacks nobody has taken yet (and that can still be taken)
    start: np.ndarray   # the table at the first lead: my whole hand, each other seat's played cards
    plays: tuple[tuple[int, int], ...]  # (seat, card) of every card played, in order
    phase: int = THREE
    faceups: tuple[int, ...] = ()  # phase 1: the face-up card of every trick played, and the one now
    dead: tuple[int, ...] = ()  # phase 2: phase-1 cards I remember, besides the trump card


_TWO_CARDS = ("trump='7h' (phase 2: the dead phase-1 card that named trump) and faceup='7h' (phase 1: the "
              "face-up stock card of each trick so far and the one now)")
#: Refusals: a position card of the other game, or none (by player count).
_OTHER_GAME = {"turned": f"turned: two players turn no card; give one of {_TWO_CARDS}",
               "faceup": "faceup: belongs to the two-player game; three players give the turned card (turned='7h'), "
                         "or use KanaljeRules(players=2)"}
_OTHER_GAME["trump"] = _OTHER_GAME["faceup"].replace("faceup:", "trump:")
_NONE_GIVEN = {3: "turned: give the turned card (its suit is trump), e.g. turned='7h'",
               2: f"trump: give exactly one of {_TWO_CARDS}"}


def _position_card(turned, trump, faceup, rules: KanaljeRules) -> tuple[list[int], int]:
    """The card(s) naming the position and its phase: ``(cards, phase)``."""
    given = {"turned": turned, "faceup": faceup, "trump": trump}
    allowed = ("turned",) if rules.players == 3 else ("faceup", "trump")
    for name, v in given.items():
        if v is not None and name not in allowed:
            raise ValueError(_OTHER_GAME[name])
    named = [name for name in allowed if given[name] is not None]
    if len(named) != 1:
        raise ValueError(_NONE_GIVEN[rules.players])
    arg, value = named[0], given[named[0]]
    phase = CARD_ARG.index(arg)
    if phase == PHASE2 and rules.phase2_trump != "trick_card":
        raise ValueError("rules: phase-2 advice reads the card that named trump; these rules play phase 2 "
                         "without trump (phase2_trump='none')")
    cards = _cards(value, arg, f"{arg}='7h'")
    if phase != PHASE1 and len(cards) != 1:
        raise ValueError(f"{arg}: give one card, e.g. {arg}='7h'")
    if len(set(cards)) != len(cards):
        c = next(c for c in cards if cards.count(c) > 1)
        raise ValueError(f"{arg}: {card_str(c)} is given twice; each card is face up once")
    return cards, phase


def check_position(seat, hand, turned, played, rules: KanaljeRules, trump=None, faceup=None,
                   dead=None) -> Known:
    """Validate a position; every refusal is one line naming the argument and the fix."""
    n = rules.players
    size = _HAND[n]
    if isinstance(seat, bool) or not isinstance(seat, (int, np.integer)) or not 0 <= seat < n:
        who = "0 is left of the dealer and leads the first trick" if n == 3 else "0 is the non-dealer"
        raise ValueError(f"seat: {seat!r} must be 0..{n - 1} ({who})")
    seat = int(seat)
    mine = _cards(hand, "hand", "hand=\"Ah 7c 2d\" (my cards now)")
    if len(set(mine)) != len(mine):
        c = next(c for c in mine if mine.count(c) > 1)
        raise ValueError(f"hand: {card_str(c)} is given twice; each card exists once")
    named, phase = _position_card(turned, trump, faceup, rules)
    arg = CARD_ARG[phase]
    for c in named:
        if c in mine and (phase != PHASE1 or c == named[-1]):
            raise ValueError(f"{arg}: {card_str(c)} is also in the hand; "
                             + ("it lies face up on the stock" if phase == PHASE1 else "it is out of play"))
    tc = named[-1]
    trump_suit = tc & 3 if phase != PHASE1 else -1
    tricks = _parse_played(played, n)
    seen: dict[int, int] = {}
    void: list[set[int]] = [set() for _ in range(n)]  # suits each seat has shown void in
    count = [0] * n  # cards each seat has played
    seats, cards = [], []
    if phase == PHASE2 and rules.phase2_leader == "last_trick":
        winner = tricks[0][0] if tricks else seat  # the last phase-1 trick's winner: not given
    else:
        winner = 1 if phase == PHASE1 and rules.phase1_leader == "dealer" else 0
    first = {THREE: "seat 0 leads the first trick", PHASE1: f"seat {winner} leads the first phase-1 trick",
             PHASE2: "seat 0 (the non-dealer) leads phase 2"}[phase]
    taker: list[int] = []  # phase 1: who took each face-up card
    for k, (lead, cs) in enumerate(tricks, 1):
        if lead != winner:
            why = first if k == 1 else f"seat {winner} won trick {k - 1}"
            raise ValueError(f"played: trick {k} is led by seat {lead}, but {why}; list the tricks in order, each "
                             "led by the last trick's winner")
        for i, c in enumerate(cs):
            s = (lead + i) % n
            if c == tc and phase != PHASE1:
                raise ValueError(f"played: {card_str(c)} in trick {k} is the {'turned' if n == 3 else 'trump'} "
                                 "card, which is out of play")
            if c in seen:
                raise ValueError(f"played: {card_str(c)} is played twice (tricks {seen[c]} and {k}); each card "
                                 "exists once")
            if c in mine:
                raise ValueError(f"played: {card_str(c)} in trick {k} is also in the hand; give my cards now, "
                                 "without those I played")
            if (c & 3) in void[s]:
                raise ValueError(f"played: seat {s} plays {card_str(c)} in trick {k} but showed earlier that it "
                                 f"holds no {_suit(c & 3)} (it did not follow them); check the tricks")
            led = cs[0] & 3
            if phase == PHASE1:
                _check_phase1_card(named, taker, seat, s, c, k, i > 0 and (c >> 2) == JACK_RANK and (c & 3) != led)
            elif i > 0 and (c & 3) != led:
                if s == seat and any((m & 3) == led for m in mine):
                    held = next(card_str(m) for m in mine if (m & 3) == led)
                    raise ValueError(f"played: I played {card_str(c)} in trick {k} without following "
                                     f"{_suit(led)}, but I still hold {held}; a player must follow suit")
                void[s].add(led)
            seen[c] = k
            count[s] += 1
            seats.append(s)
            cards.append(c)
        if len(cs) == n:
            winner = (lead + _winner(cs, trump_suit)) % n
            taker.append(winner)
    done = sum(1 for _, cs in tricks if len(cs) == n)
    if phase == PHASE1:
        _check_faceups(named, taker, done, seat, mine, seen)
        held = size
    else:
        held = size - count[seat]
    if len(mine) != held:
        raise ValueError(f"hand: {len(mine)} cards, but " + (f"seat {seat} has played {count[seat]} of its {size}, "
                         f"so it holds {held}; give my cards now" if phase != PHASE1 else
                         "a player holds 13 cards at each turn of phase 1 (it draws one after each trick); "
                         "give my cards now"))
    if not mine:
        raise ValueError("played: every trick of the deal is played; there is no card left to choose")
    in_progress = bool(tricks) and len(tricks[-1][1]) < n
    to_play = (tricks[-1][0] + len(tricks[-1][1])) % n if in_progress else winner
    if to_play != seat:
        raise ValueError(f"seat: it is seat {to_play}'s turn, not seat {seat}'s, after the tricks played; "
                         "advice is for the player whose turn it is")
    known = _dead(dead, phase, tc, mine, seen)
    built = _phase1(seat, mine, named, taker, seats, cards, rules) if phase == PHASE1 else \
        _trick_play(seat, mine, tc, void, count, seats, cards, winner if not tricks else tricks[0][0], rules, known)
    t, deal, start = built
    if phase == PHASE1:
        follow = [c for c in mine if in_progress and not ((c >> 2) == JACK_RANK and (c & 3) != (tricks[-1][1][0] & 3))]
    else:
        follow = [c for c in mine if in_progress and (c & 3) == (tricks[-1][1][0] & 3)]
    options = tuple(sorted(follow or mine, key=lambda c: (c & 3, c)))
    out = [s for s in range(4) if t[T.jack_taker + s] == -1 or (JACK_RANK * 4 + s == tc and
                                                                n == 3 and rules.turned_jack == "last_trick")]
    return Known(seat, tuple(mine), tc, tuple((lead, tuple(cs)) for lead, cs in tricks), t, deal, options,
                    tuple(out), start, tuple(zip(seats, cards)), phase, tuple(named) if phase == PHASE1 else (),
                    tuple(known))


def _dead(dead, phase, tc, mine, seen) -> list[int]:
    """Phase 2: the phase-1 cards I remember (dead), checked."""
    if dead is None:
        return []
    if phase != PHASE2:
        raise ValueError("dead: the phase-1 cards I remember belong to a phase-2 position (with trump=); drop them")
    cards = _cards(dead, "dead", "dead=\"2c 9h\" (phase-1 cards I remember)")
    for c in cards:
        where = ("given twice" if cards.count(c) > 1 else "the trump card, dead already" if c == tc else
                 "also in my hand" if c in mine else f"played in phase-2 trick {seen[c]}" if c in seen else "")
        if where:
            raise ValueError(f"dead: {card_str(c)} is {where}; give each phase-1 card I remember once, "
                             "besides the trump card")
    if len(cards) > 25:
        raise ValueError(f"dead: {len(cards)} cards, but phase 1 leaves 25 dead besides the trump card")
    return cards


def _trick_play(seat, mine, tc, void, count, seats, cards, leader, rules, known):
    """Three players, or phase 2: the table, the deal of the hidden hands (the other two
    seats', or the opponent's and the dead phase-1 tricks I do not remember, ``known`` being
    those I do) and the table at the first lead (for inference)."""
    n = rules.players
    size = _HAND[n]
    unseen = FULL & ~(_mask(mine) | _mask(cards) | (1 << tc) | _mask(known))
    a = (seat + 1) % n
    if n == 3:
        b = (seat + 2) % 3
        va = sum(int(SUIT_MASK[s]) for s in void[a])
        vb = sum(int(SUIT_MASK[s]) for s in void[b])
        both = unseen & va & vb
        if both:
            s = (both & -both).bit_length() - 1
            raise ValueError(f"played: seats {a} and {b} both showed void in {_suit(s & 3)}, yet {card_str(s)} is "
                             "neither played nor in my hand; check the tricks and the hand")
        sizes = (size - count[a], size - count[b])
        names = (f"seat {a}", f"seat {b}")
    else:  # b: the dead phase-1 tricks other than the trump card, which hold any card
        b, va, vb = 2, sum(int(SUIT_MASK[s]) for s in void[a]), 0
        sizes = (size - count[a], _count(unseen) - (size - count[a]))
        names = (f"seat {a}", "the dead phase-1 tricks")
        if sizes[1] < 0:
            raise ValueError(f"dead: {len(known)} cards remembered leave seat {a} {_count(unseen)} unseen cards, but "
                             f"it holds {sizes[0]}; check the dead cards, the hand and the tricks")
    forced_a, forced_b = unseen & vb, unseen & va
    for i, (forced, other) in enumerate(((forced_a, f"seat {b}"), (forced_b, f"seat {a}"))):
        if _count(forced) > sizes[i]:
            raise ValueError(f"played: {other} showed voids that leave {names[i]} {_count(forced)} unseen cards, "
                             f"but {'they hold' if 'tricks' in names[i] else 'it holds'} only {sizes[i]}; check "
                             "the tricks and the hand")
    free = unseen & ~forced_a & ~forced_b
    deal = DEAL.pack(a=a, b=b, forced_a=forced_a, forced_b=forced_b, free=free,
                     need_a=sizes[0] - _count(forced_a), mode=HIDDEN_SEATS if n == 3 else HIDDEN_DEAD)
    t = TABLE.zeros()
    hands = np.array([_mask(c for c, p in zip(cards, seats) if p == s) | (_mask(mine) if s == seat else 0)
                      for s in range(n)], dtype=np.int64)
    turned, trump_card = (tc, -1) if n == 3 else (-1, tc)
    KA.position(t, rules.pack(), leader, turned, trump_card, None, hands, np.array(seats, dtype=np.int64),
                np.array(cards, dtype=np.int64), None, _no_state())
    start = TABLE.zeros()
    none = np.zeros(0, dtype=np.int64)
    whole = hands | np.array([_mask(mine) if s == seat else 0 for s in range(n)], dtype=np.int64)
    KA.position(start, rules.pack(), leader, turned, trump_card, None, whole, none, none, None, _no_state())
    assert all(t[T.hand + s] == 0 for s in range(n) if s != seat)
    for table in (t, start):  # the dead cards I remember
        table[T.played] |= _mask(known)
        table[T.phase1_played] |= _mask(known)
        for c in known:
            if c >> 2 == JACK_RANK:
                table[T.jack_taker + (c & 3)] = -2
    return t, deal, start


def _check_phase1_card(faceups, taker, seat, s, c, k, off_jack):
    """Phase 1: seat ``s`` plays ``c`` in trick ``k``: no jack of another suit from the second
    player (it holds 13 cards, so it always has another), no face-up card before it was taken
    or by the seat that did not take it."""
    if off_jack:
        raise ValueError(f"played: seat {s} plays {card_str(c)} second in trick {k}, a jack of another suit than "
                         "the led one, which the second player may not (docs/rules/kanalje.md §4.3); check the tricks")
    if c in faceups:
        j = faceups.index(c)
        if j >= len(taker) or j + 1 >= k:
            raise ValueError(f"played: {card_str(c)} in trick {k} was face up on the stock at trick {j + 1}, so "
                             f"it can be played from trick {j + 2} on; check the tricks and faceup")
        if taker[j] != s:
            raise ValueError(f"played: seat {s} plays {card_str(c)} in trick {k}, but seat {taker[j]} took it face "
                             f"up after trick {j + 1}; check the tricks and faceup")


def _check_faceups(faceups, taker, done, seat, mine, seen):
    if done >= 13:
        raise ValueError("played: phase 1 is over after 13 tricks; for phase 2 give trump= (the dead card that "
                         "named trump) and the phase-2 tricks alone")
    if len(faceups) != done + 1:
        raise ValueError(f"faceup: {len(faceups)} cards, but after {done} phase-1 tricks give {done + 1}: the "
                         "face-up stock card of each trick played, in order, and the one face up now (the last)")
    for j, c in enumerate(faceups[:-1]):
        if taker[j] != seat and c in mine:
            raise ValueError(f"faceup: {card_str(c)} is in my hand, but seat {taker[j]} won trick {j + 1} and took "
                             "it; check the tricks and faceup")
        if taker[j] == seat and c not in mine and c not in seen:
            raise ValueError(f"faceup: I won trick {j + 1} and took {card_str(c)}, but it is neither in my hand "
                             "nor played since; check the hand")
    if faceups[-1] in seen:
        raise ValueError(f"faceup: {card_str(faceups[-1])}, face up now, is played in trick {seen[faceups[-1]]}; "
                         "the last face-up card lies on the stock")


def _no_state() -> np.ndarray:
    """The random state :func:`~._advise.position` takes and never reads."""
    return np.zeros(4, dtype=np.uint64)


def _phase1(seat, mine, faceups, taker, seats, cards, rules):
    """Phase 1: the table (the opponent's hidden cards and the stock under the face-up card
    filled in any order, redealt by the kernel) and the deal (:data:`~._advise.HIDDEN_PHASE1`)."""
    done = len(taker)
    opp = 1 - seat
    played = _mask(cards)
    known = _mask(c for c, w in zip(faceups, taker) if w == opp) & ~played
    pool = [c for c in range(52) if not (_mask(mine) | played | _mask(faceups) | known) >> c & 1]
    hidden = 13 - sum(1 for s in seats[2 * done:] if s == opp) - _count(known)
    assert len(pool) == hidden + _STOCK - 2 * done - 1 and hidden >= 0
    stock = np.zeros(_STOCK, dtype=np.int64)
    for j, c in enumerate(faceups):
        stock[2 * j] = c
    stock[2 * done + 1:] = pool[hidden:]
    t = TABLE.zeros()
    leader = 1 if rules.phase1_leader == "dealer" else 0
    KA.position(t, rules.pack(), leader, -1, -1, stock, np.zeros(2, dtype=np.int64), np.array(seats, dtype=np.int64),
                np.array(cards, dtype=np.int64), True, _no_state())
    t[T.hand + seat] = _mask(mine)
    t[T.hand + opp] = known | _mask(pool[:hidden])
    deal = DEAL.pack(a=opp, b=seat, forced_a=known, forced_b=0, free=_mask(pool), need_a=hidden, mode=HIDDEN_PHASE1)
    return t, deal, t


def observations(pos: Known, codes) -> np.ndarray:
    """The :data:`~._advise.OBS` rows of the plays so far (three players, or phase 2): each other seat's play with its
    policy code and the fewest legal cards it can have had (a lead or a play off the led suit:
    its whole hand, the same in every world; a card following suit: the cards of that suit it
    played from there on and those it must hold now, all of which it held)."""
    n = 3 if pos.phase == THREE else 2
    rows = []
    for i, (s, c) in enumerate(pos.plays):
        if s == pos.seat:
            rows.append((s, c, -1, 0))
            continue
        led = pos.plays[i - i % n][1] & 3
        before = sum(1 for p, _ in pos.plays[:i] if p == s)
        follows = i % n != 0 and (c & 3) == led
        forced = int(pos.deal[DEAL.at.forced_a if s == pos.deal[DEAL.at.a] else DEAL.at.forced_b])
        bound = sum(1 for p, x in pos.plays[i:] if p == s and (x & 3) == led) + _count(forced & int(SUIT_MASK[led])) \
            if follows else _HAND[n] - before
        rows.append((s, c, int(codes[s]), bound))
    return np.array(rows, dtype=np.int64).reshape(-1, 4)

