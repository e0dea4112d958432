"""Review a played Kanalje deal: each card a seat played, rated against the advisor's best.

:func:`review` reads a record (what :func:`~cardodds.kanalje.trace` prints, or the same typed
by hand: the header, ``S: deal`` lines for the seats whose hands are known, ``S: play c`` lines,
optional ``S: win`` lines; two players also ``S: take c`` and ``S: draw c`` after each phase-1
trick), walks it checking every move against the rules (docs/rules/kanalje.md), and asks
:func:`~cardodds.kanalje.advise` at each card of the seat reviewed, on the position as that seat
knew it then: its hand, the turned card (two players: the face-up cards, or the trump card and
the phase-1 cards it saw), the tricks so far; never another hand. The advisor ranks the legal
cards on one set of worlds; the card it ranks first is then measured against the card played on
a second, independent set (paired), in points a deal (the whole deal's score): chosen and
measured on the same worlds, every cost would carry the noise the best was chosen on, and a
strong player's deal would add up to points it never lost. The cost is rated by
:data:`THRESHOLDS` (``docs/kanalje-advise.md``).

Seat 0 leads the A♣, then its own J♥, which the others duck:

>>> record = "\\n".join(["# cardodds trace: kanalje", "players: 3", "turned: 2s",
...                      "0: deal Ac Kc Qc Jh Kh 9h 3d 4d 5d 6d 7d 8d 3s 4s 5s 6s 7s",
...                      "0: play Ac", "1: play 2c", "2: play 3c", "0: play Jh", "1: play 2h", "2: play 3h"])
>>> r = review(record, seat=0, policies="heuristic", samples=1_000, rng=1)
>>> [(d.what, d.taken, d.label) for d in r.decisions]
[('trick 1, lead', 'Ac', 'inaccuracy'), ('trick 2, lead', 'Jh', 'blunder')]
>>> r.costliest(0)[0].best, r.costliest(0)[0].cost.lo > 2.5
('3d', True)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .._validate import check_run
from ..cards import SUIT_NAMES, card_str, format_cards, parse_card
from ..engine import takes_backend
from ..review import (Place, ReviewResult, Thresholds, Violation, decision, forced, price, rate_in_order,
                      read_record, review_budget, review_seats, unpriced)
from ..rng import as_seed_sequence, child
from ..advice import Turn
from ..trace import Trace
from ._common import check_lookahead_samples
from ._defaults import (ADVISE_MARGIN, ADVISE_POLICIES, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, EQUITY_MARGIN,
                        REVIEW_SECONDS)
from .advise import SPREADS, _versus, advise, players_words
from .position import Position
from ._position import PHASE1, PHASE2, THREE
from ._position import _winner as trick_winner
from .policies import DEFAULT_LOOKAHEAD_SAMPLES, resolve_policies
from .rules import KanaljeRules, check_rules

__all__ = ["THRESHOLDS", "positions", "review"]

#: Where a card's cost becomes a mistake and a blunder, in points a deal; above the advice's
#: margin (equal for the player: good) and below ``mistake`` an inaccuracy. A mistake costs a
#: trick's worth or more; a blunder what taking one's own J♦ or J♥ with its trick costs. Chosen
#: from reviews of deals played by each player (``docs/kanalje-advise.md``, "Reviewing a game"):
#: none of pimc's or the look-ahead's cards reached a blunder.
#: With the game at stake (a score), the same in P(win the game): an inaccuracy beyond the advice's
#: margin, a mistake from 5%, a blunder from 15% (as Canasta's).
THRESHOLDS = Thresholds(mistake=1.0, blunder=2.5, unit="points a deal", good=ADVISE_MARGIN, win_mistake=0.05,
                        win_blunder=0.15, win_good=EQUITY_MARGIN)
#: The numbers of players a record may name, and that in words (a record naming another is refused).
PLAYERS = ((3, 2), "Kanalje is played by 3 players or 2")
_JACK = 9
_ORDINAL = ("lead", "2nd", "3rd")

# ---- the record, move by move ---------------------------------------------------------------
@dataclass(frozen=True)
class _Point:
    """A card a seat whose hand is known played, and the position as it knew it (the record's seats)."""

    move: int
    index: int  # the cards played before it in the deal: its seed's key
    seat: int
    what: str
    hand: tuple[int, ...]
    options: tuple[int, ...]
    card: int
    phase: int
    played: tuple[tuple[int, tuple[int, ...]], ...]  # this phase's tricks so far, the last maybe short
    faceups: tuple[int, ...] = ()  # phase 1: every face-up card so far, the one now last
    dead: tuple[int, ...] = ()  # phase 2: the phase-1 cards it saw, the trump card left out
    paid: tuple[int, ...] = ()  # phase 2: each seat's penalties for jacks in phase-1 tricks


class _Stop(Exception):
    """The first move the rules forbid: the walk ends there."""

    def __init__(self, move: int, seat: int, message: str):
        super().__init__(message)
        self.move, self.seat, self.message = move, seat, message


@dataclass
class _Walk:
    """The table as the record plays it: known hands, the cards seen, the tricks, the voids."""

    trace: Trace
    rules: KanaljeRules
    leader: int  # the record's first leader (two players: the non-dealer)
    card: int  # the turned card (two players: the trump card, -1 for none)
    hands: dict[int, set[int]] = field(default_factory=dict)  # each seat's cards now, as far as the record shows
    dealt: dict[int, int] = field(default_factory=dict)  # the seats whose hands are known: their deal line's move
    seen: dict[int, int] = field(default_factory=dict)  # card -> the move that played it (-1 turned)
    void: dict[tuple[int, int], int] = field(default_factory=dict)  # (seat, suit) -> the move it did not follow
    tricks: list[tuple[int, list[int]]] = field(default_factory=list)  # this phase's tricks
    phase: int = THREE
    winner: int = 0  # who leads the next trick
    won: int | None = None  # the last trick's winner, while its win (take, draw) lines may follow
    stage: str = ""  # two players after a phase-1 trick: "take", then "draw"
    faceups: list[int] = field(default_factory=list)  # two players: each phase-1 trick's face-up card
    phase1_cards: list[int] = field(default_factory=list)
    paid: list[int] = field(default_factory=lambda: [0, 0])  # two players: phase-1 jack penalties a seat
    points: list[_Point] = field(default_factory=list)
    plays: int = 0  # cards played so far

    @property
    def n(self) -> int:
        return self.rules.players

    def where(self, move: int) -> str:
        line = self.trace.line_of(move)
        return f"line {line}" if line else f"move {move + 1}"

    def cards(self, move: int, cards, count: int | None, what: str) -> list[int]:
        if count is not None and len(cards) != count:
            raise ValueError(f"{self.where(move)}: {what} names {len(cards)} cards; expected {count}")
        try:
            return [parse_card(c) for c in cards]
        except ValueError as e:
            raise ValueError(f"{self.where(move)}: {e}") from None

    def holder(self, c: int) -> int | None:
        return next((s for s, h in self.hands.items() if c in h), None)

    def shown(self, c: int) -> str:
        m = self.seen[c]
        return "the turned card, out of play" if m < 0 else f"played at {self.where(m)}"


def _header(trace: Trace, rules: KanaljeRules) -> tuple[int, int]:
    """The first leader (two players: the non-dealer) and the turned (trump) card, -1 for none."""
    n = rules.players
    text = trace.info.get("leader", "0").strip()
    if not text.isdigit() or int(text) >= n:
        raise ValueError(f"leader: {text!r}; the seat that leads the first trick, 0 to {n - 1}")
    key = "turned" if n == 3 else "trump"
    card = trace.info.get(key, "none" if n == 2 else None)
    if card is None:
        raise ValueError("the record has no 'turned: CARD' line; add the turned card (its suit is trump)")
    try:
        return int(text), -1 if card == "none" else parse_card(card)
    except ValueError as e:
        raise ValueError(f"{key}: {e}") from None


def _walk(trace: Trace, rules: KanaljeRules) -> tuple[_Walk, Violation | None]:
    """Read the record move by move: the walk, and the first move the rules forbid (None). A
    record that does not read: ``ValueError`` naming the line."""
    w = _Walk(trace, rules, *_header(trace, rules))
    w.hands = {s: set() for s in range(rules.players)}
    if w.n == 3:
        w.winner = w.leader
        if w.card >= 0:
            w.seen[w.card] = -1
    else:
        w.phase = PHASE1
        w.winner = w.leader if rules.phase1_leader == "non_dealer" else 1 - w.leader
        w.faceups = [_card_or_none(mv.cards) for mv in trace.moves if mv.action == "take"]
    steps = {"deal": _deal, "play": _play, "win": _win} | ({"take": _take, "draw": _draw} if w.n == 2 else {})
    try:
        for m, move in enumerate(trace.moves):
            if move.action not in steps:
                raise ValueError(f"{w.where(m)}: expected 'seat: action cards' with an action of "
                                 f"{', '.join(steps)}; got {move.action!r}")
            steps[move.action](w, m, move.seat, move.cards)
    except _Stop as s:
        return w, Violation(trace.line_of(s.move), s.move, s.seat, s.message)
    return w, None


def _card_or_none(cards) -> int:
    """One card's code, -1 when ``cards`` is not one card (its line then says so when read)."""
    try:
        return parse_card(cards[0]) if len(cards) == 1 else -1
    except ValueError:
        return -1


def _deal(w: _Walk, m: int, seat: int, cards) -> None:
    if w.tricks or w.phase == PHASE2:
        raise ValueError(f"{w.where(m)}: a deal line after the first card played; give the deals first")
    if seat in w.dealt:
        raise ValueError(f"{w.where(m)}: seat {seat} is dealt twice ({w.where(w.dealt[seat])} first)")
    hand = w.cards(m, cards, w.rules.hand_size, f"seat {seat}'s deal")
    for c in hand:
        other = w.holder(c)
        where = ("twice" if hand.count(c) > 1 else f"in seat {other}'s deal" if other is not None else
                 "the turned card" if c in w.seen else
                 f"in the stock (face up in trick {w.faceups.index(c) + 1})" if c in w.faceups else "")
        if where:
            raise ValueError(f"{w.where(m)}: {card_str(c)} in seat {seat}'s deal is {where}; each card exists once")
    w.hands[seat] = set(hand)
    w.dealt[seat] = m


def _play(w: _Walk, m: int, seat: int, cards) -> None:
    n = w.n
    c = w.cards(m, cards, 1, "a play")[0]
    if w.stage:
        raise ValueError(f"{w.where(m)}: phase-1 trick {len(w.tricks)} has no {w.stage} line after it (the winner "
                         "takes the face-up card, then the loser draws); add it")
    if w.phase == PHASE2 and w.card < 0:
        raise ValueError(f"{w.where(m)}: a phase-2 card, but the record names no trump card; the advisor reads "
                         "phase 2 by the dead phase-1 card that named trump: add 'trump: CARD', or end the record "
                         "after phase 1")
    if not w.tricks or len(w.tricks[-1][1]) == n:
        w.tricks.append((w.winner, []))
    lead, trick = w.tricks[-1]
    w.won = None
    k = len(w.tricks)
    turn = (lead + len(trick)) % n
    if seat != turn:
        why = (f"seat {turn} plays next to trick {k}" if trick else
               f"seat {lead} leads trick {k}" + (" (it won the last trick)" if k > 1 else ""))
        raise _Stop(m, seat, f"seat {seat} plays {card_str(c)} out of turn: {why}")
    if c in w.seen:
        raise _Stop(m, seat, f"seat {seat} plays {card_str(c)}, which was {w.shown(c)}")
    if w.phase == PHASE1 and c in w.faceups[k - 1:]:
        j = w.faceups.index(c) + 1
        raise _Stop(m, seat, f"seat {seat} plays {card_str(c)}, which lies in the stock (face up in trick {j})")
    holder = w.holder(c)
    if holder is not None and holder != seat:
        raise _Stop(m, seat, f"seat {seat} plays {card_str(c)}, which seat {holder} holds")
    if seat in w.dealt and holder is None:
        raise _Stop(m, seat, f"seat {seat} plays {card_str(c)}, which is not in its hand")
    if (seat, c & 3) in w.void:  # it did not follow this suit earlier, so it held none: a revoke there
        r = w.void[(seat, c & 3)]
        raise _Stop(r, seat, f"seat {seat} played {w.trace.moves[r].cards[0]} without following "
                             f"{SUIT_NAMES[c & 3]}, yet held {card_str(c)} (played at {w.where(m)}): a revoke")
    led = trick[0] & 3 if trick else -1
    if trick and c & 3 != led:
        if w.phase == PHASE1 and c >> 2 == _JACK:
            raise _Stop(m, seat, f"seat {seat} plays {card_str(c)} second, a jack of another suit than the led "
                                 f"{SUIT_NAMES[led]}, which the second player may not (docs/rules/kanalje.md §4.3)")
        if w.phase != PHASE1:
            if any(x & 3 == led for x in w.hands[seat]):
                held = card_str(min(x for x in w.hands[seat] if x & 3 == led))
                raise _Stop(m, seat, f"seat {seat} plays {card_str(c)} without following {SUIT_NAMES[led]}, yet it "
                                     f"holds {held}: a revoke")
            w.void.setdefault((seat, led), m)
    if seat in w.dealt:
        point = _point(w, m, seat, c)
        if point is not None:
            w.points.append(point)
    w.hands[seat].discard(c)
    w.seen[c] = m
    w.plays += 1
    trick.append(c)
    if len(trick) == n:
        trump = w.card & 3 if w.phase != PHASE1 and w.card >= 0 else -1
        w.winner = w.won = (lead + trick_winner(trick, trump)) % n
        if w.phase == PHASE1:
            w.phase1_cards += trick
            w.stage = "take"
            if w.rules.phase1_jacks_cost:
                w.paid[w.winner] += sum(w.rules.jack_penalty(x) for x in trick if x >> 2 == _JACK)


def _point(w: _Walk, m: int, seat: int, c: int) -> _Point | None:
    """The decision of ``seat`` playing ``c`` at move ``m`` (None: a phase-1 trick whose face-up
    card the record does not name, at its end)."""
    trick = w.tricks[-1][1]
    hand = w.hands[seat]
    k = len(w.tricks)
    if trick and w.phase == PHASE1:
        legal = [x for x in hand if not (x >> 2 == _JACK and x & 3 != trick[0] & 3)]
    else:
        legal = [x for x in hand if trick and x & 3 == trick[0] & 3]
    options = tuple(sorted(legal or hand, key=lambda x: (x & 3, x)))
    played = tuple((lead, tuple(cs)) for lead, cs in w.tricks if cs)
    if w.phase == PHASE1 and len(w.faceups) < k:
        return None
    what = ("" if w.phase == THREE else f"phase {w.phase}, ") + f"trick {k}, {_ORDINAL[len(trick)]}"
    return _Point(m, w.plays, seat, what, tuple(sorted(hand)), options, c, w.phase, played,
                  tuple(w.faceups[:k]) if w.phase == PHASE1 else (),
                  tuple(x for x in w.phase1_cards if x != w.card) if w.phase == PHASE2 else (),
                  tuple(w.paid) if w.phase == PHASE2 else ())


def _win(w: _Walk, m: int, seat: int, cards) -> None:
    if w.won is None or w.stage == "draw":
        raise _Stop(m, seat, f"a win line before the trick's {w.n} cards are played" if w.tricks and
                    len(w.tricks[-1][1]) < w.n else "a win line where no trick has just ended")
    lead, trick = w.tricks[-1]
    named = w.cards(m, cards, None, "a win line")
    if named != trick:
        raise _Stop(m, seat, f"the win line names {format_cards(named)}, but the trick was {format_cards(trick)}")
    if seat != w.won:
        raise _Stop(m, seat, f"seat {seat} is named the winner of {format_cards(trick)}, but seat {w.won} won it "
                             f"with {card_str(trick[(w.won - lead) % w.n])}")
    if w.phase != PHASE1:
        w.won = None


def _take(w: _Walk, m: int, seat: int, cards) -> None:
    """Two players, after a phase-1 trick: its winner takes the face-up card."""
    if w.stage != "take":
        raise _Stop(m, seat, "a take line where no phase-1 trick has just ended")
    c = w.cards(m, cards, 1, "a take line")[0]
    if seat != w.won:
        raise _Stop(m, seat, f"seat {seat} takes the face-up {card_str(c)}, but seat {w.won} won the trick")
    _gain(w, m, seat, c)
    w.stage = "draw"


def _draw(w: _Walk, m: int, seat: int, cards) -> None:
    """Two players: the trick's loser draws the next stock card (``?``: one the record did not see)."""
    if w.stage != "draw" or w.won is None:
        raise _Stop(m, seat, "a draw line where no phase-1 trick's take line has just been read")
    if seat != 1 - w.won:
        raise _Stop(m, seat, f"seat {seat} draws, but it won the trick: the loser, seat {1 - w.won}, draws")
    if len(cards) != 1:
        raise ValueError(f"{w.where(m)}: a draw line names one card (or ? for one the record did not see)")
    if cards[0] != "?":
        _gain(w, m, seat, w.cards(m, cards, 1, "a draw line")[0])
    elif seat in w.dealt:
        raise ValueError(f"{w.where(m)}: seat {seat} draws '?', but its hand is known ({w.where(w.dealt[seat])}); "
                         "name the card")
    w.won, w.stage = None, ""
    if len(w.tricks) == 13:  # phase 2: led by the last trick's winner (or the non-dealer)
        if w.card >= 0 and w.card not in w.phase1_cards:
            raise ValueError(f"trump: {card_str(w.card)} is not a phase-1 trick card; phase 2's trump is named by "
                             "one of them")
        w.phase, w.tricks = PHASE2, []
        if w.rules.phase2_leader == "non_dealer":
            w.winner = w.leader


def _gain(w: _Walk, m: int, seat: int, c: int) -> None:
    if c in w.seen:
        raise _Stop(m, seat, f"seat {seat} gets {card_str(c)}, which was {w.shown(c)}")
    holder = w.holder(c)
    if holder is not None:
        raise _Stop(m, seat, f"seat {seat} gets {card_str(c)}, which seat {holder} holds")
    w.hands[seat].add(c)


# ---- the review -------------------------------------------------------------------------------
def _rules(rules, trace: Trace) -> KanaljeRules:
    """The rules given, else those the trace was played under (a :func:`trace`'s own), else the
    defaults for its number of players."""
    if rules is None:
        kept = trace.rules
        if isinstance(kept, KanaljeRules):
            return kept
        if isinstance(kept, dict):
            try:
                return KanaljeRules(**{**kept, "jack_penalties": tuple(kept.get("jack_penalties", (2, 3, 4, 1)))})
            except (TypeError, ValueError):
                pass
        rules = KanaljeRules(players=trace.players) if trace.players in (2, 3) else None
    rules = check_rules(rules)
    if rules.players != trace.players:
        raise ValueError(f"rules: KanaljeRules(players={rules.players}), but the record is of {trace.players} "
                         "players; give rules of its players")
    return rules


def _score(score, trace: Trace, rules: KanaljeRules) -> tuple[int, ...] | None:
    """The game's totals before the deal, the record's seats: ``score=``, else the record's
    ``score:`` line, else None; checked as :func:`~cardodds.kanalje.equity` checks them."""
    from .equity import check_game_score

    if score is not None:
        try:
            return check_game_score(score, rules)
        except ValueError as e:
            raise ValueError(f"score: {e}") from None
    line = trace.info.get("score")
    if line is None:
        return None
    try:
        return check_game_score(line, rules)
    except ValueError as e:
        raise ValueError(f"the record's 'score:' line: {e}") from None


def _position(w: _Walk, p: _Point, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, score=None) -> Position:
    """The position of ``p`` as :func:`~cardodds.kanalje.advise` reads it: what the seat knew,
    the seats turned so that the record's first leader (two players: the non-dealer) is seat 0
    (``score``, the record's seats, turned too)."""
    n = w.n
    played = tuple(((lead - w.leader) % n, tuple(cs)) for lead, cs in p.played)
    args: dict = {"seat": (p.seat - w.leader) % n, "hand": p.hand, "played": played}
    if score is not None:  # phase 2: the phase-1 jacks paid
        paid = p.paid or (0,) * n
        args["score"] = tuple(score[(s + w.leader) % n] - paid[(s + w.leader) % n] for s in range(n))
    if p.phase == THREE:
        args["turned"] = w.card
    elif p.phase == PHASE1:
        args["faceup"] = p.faceups
    else:
        args.update(trump=w.card, dead=p.dead)
    return Position(rules=w.rules, lookahead_samples=lookahead_samples, **args)


def _turn(w: _Walk, p: _Point) -> Turn:
    return Turn(line=w.trace.line_of(p.move), move=p.move, seat=p.seat, what=p.what, taken=card_str(p.card),
                key=p.index)


def _positions(w: _Walk, points, violation: Violation | None,
               lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES, score=None) -> tuple[list, Violation | None]:
    """``(point, Turn, Position)`` of each point before ``violation``, and the violation: a
    position no deal gives (unseen hands' plays) is one, at its move."""
    out = []
    for p in points:
        if violation is not None and p.move >= violation.move:
            break
        try:
            out.append((p, _turn(w, p), _position(w, p, lookahead_samples, score)))
        except ValueError as e:
            violation = Violation(w.trace.line_of(p.move), p.move, p.seat, f"seat {p.seat}'s position here "
                                  f"cannot happen: {e}")
            break
    return out, violation


def positions(record, *, seat=0, rules: KanaljeRules | None = None) -> list[tuple[Turn, Position]]:
    """Each card ``seat`` played in a Kanalje record, as ``(Turn, Position)``: where in the
    record (:class:`~cardodds.advice.Turn`, the record's seats) and the position as the seat knew
    it then, which :func:`~cardodds.kanalje.advise` takes (the seats turned so that the record's
    first leader, two players the non-dealer, is seat 0).

    ``record``: as :func:`review` reads it; ``seat``: a seat, or ``"all"``. A move the rules
    forbid, or a position no deal gives: ``ValueError`` naming its line.

    >>> record = "\\n".join(["# cardodds trace: kanalje", "players: 3", "turned: 2s",
    ...                      "0: deal Ac Kc Qc Jh Kh 9h 3d 4d 5d 6d 7d 8d 3s 4s 5s 6s 7s",
    ...                      "0: play Ac", "1: play 2c", "2: play 3c", "0: play Jh"])
    >>> [(t.what, t.taken, len(p.hand), p.played_text) for t, p in positions(record)]
    [('trick 1, lead', 'Ac', 17, ''), ('trick 2, lead', 'Jh', 16, '0: Ac 2c 3c')]
    """
    trace = read_record(record, "kanalje")
    rules = _rules(rules, trace)
    w, violation = _walk(trace, rules)
    seats = review_seats(seat, rules.players, sorted(w.dealt))
    found, violation = _positions(w, [p for p in w.points if p.seat in seats], violation)
    if violation is not None:
        raise ValueError(f"line {violation.line}: {violation.message}" if violation.line else
                         f"move {violation.move + 1}: {violation.message}")
    return [(t, pos) for _, t, pos in found]


def _known(w: _Walk, p: _Point) -> str:
    """The position in words, the record's seats."""
    played = "; ".join(f"{lead}: {format_cards(cs)}" for lead, cs in p.played) or "nothing yet"
    card = {THREE: f"turned {card_str(w.card)}", PHASE1: f"face up {format_cards(p.faceups)}",
            PHASE2: f"trump {card_str(w.card)}, the {len(p.dead)} other phase-1 cards seen"}[p.phase]
    return f"hand {format_cards(p.hand)}; {card}; played {played}"


@takes_backend
def review(record, *, seat=0, policies=ADVISE_POLICIES, rules: KanaljeRules | None = None, samples: int | None = None,
           rng=None, threads: int | None = None, lookahead_samples: int = DEFAULT_LOOKAHEAD_SAMPLES,
           budget_seconds: float | None = REVIEW_SECONDS, budget_rounds: int | None = None, score=None,
           progress: bool = False) -> ReviewResult:
    """Every card ``seat`` played in a Kanalje record, rated against the advisor's best.

    ``record``: a :class:`~cardodds.trace.Trace`, a path to one (text or JSON) or its text.
    ``seat``: a seat, or ``"all"`` (every seat with a deal line). Each card is a decision: the
    position as the seat knew it goes to :func:`~cardodds.kanalje.advise` with ``policies`` and
    ``lookahead_samples``, which plays the cards in rounds until a verdict (the worlds of
    ``child(seed, i, 0)``, ``i`` the cards played before it in the deal); the card played is then
    priced against the best on fresh worlds (``child(seed, i, 1)``) in rounds until its rating is
    clear (:func:`cardodds.review.price`). Each of the two stops when a round would end after
    ``budget_seconds`` (``budget_rounds``: after that many rounds instead, the same on any
    machine). With ``samples``: each on that many worlds, one look. A single legal card is
    ``forced`` (no run). ``rules``: by default the trace's own, else the defaults for its players.
    The first move the rules forbid is ``violation``; the cards before it are rated.
    ``score``: the game's totals before the deal, one a seat of the record (default: the record's
    ``score:`` line, if any): each card is then ranked and priced in P(win the game), points beside.
    """
    threads = check_run(samples=samples, threads=threads, rng=rng)
    lookahead_samples = check_lookahead_samples(lookahead_samples)
    trace = read_record(record, "kanalje", PLAYERS)
    rules = _rules(rules, trace)
    game = _score(score, trace, rules)
    _codes, names, user = resolve_policies(policies, rules.players)
    budget = review_budget(samples, ADVISE_ROUND_WORLDS, ADVISE_ROUNDS, budget_seconds, budget_rounds)
    w, violation = _walk(trace, rules)
    seats = review_seats(seat, rules.players, sorted(w.dealt))
    ss, seed = as_seed_sequence(rng)
    n = rules.players
    items = [user if name == "user" else name for name in names]
    lineup = [items[(s + w.leader) % n] for s in range(n)]
    found, violation = _positions(w, [p for p in w.points if p.seat in seats], violation, lookahead_samples, game)
    ask = dict(policies=lineup, samples=samples, threads=threads, budget_seconds=budget.budget_seconds,
               budget_rounds=budget.budget_rounds)

    def step(p: _Point, turn: Turn, pos: Position):
        where = Place(turn.seat, turn.line, turn.move, turn.what, _known(w, p))
        if len(pos.options) == 1:
            return lambda: forced(where, taken=turn.taken)

        def rate():
            ranked = advise(pos, rng=child(ss, turn.key, 0), **ask)
            b, t = ranked.best_index, ranked.options.index(turn.taken)
            by_win = ranked.ranked_by == "equity"
            versus_best = [ranked.difference(b, j, "score") for j in range(len(ranked.options))]
            wins = list(ranked.versus_best) if by_win else None
            priced, note = None, ranked.verdict
            cost = unpriced(ranked, t)
            if cost is not None:
                (wins if wins is not None else versus_best)[t] = cost
            elif not ranked.partial:
                figures = ("equity", "score") if by_win else ("score",)
                priced = price(lambda size, s: _versus(pos, lineup, (b, t), size, s, threads, figures), THRESHOLDS,
                               by_win=by_win, budget=budget, rng=child(ss, turn.key, 1),
                               spread=SPREADS[ranked.ranked_by])
                if wins is not None:
                    wins[t], versus_best[t] = priced.costs
                else:
                    versus_best[t] = priced.costs[0]
                note += f"; {turn.taken} priced against {ranked.options[b]} on {priced.costs[0].n:,} fresh worlds"
            if wins is not None and wins[t].value == 0 and wins[t].se == 0 and t != b and not ranked.same_as_best(t):
                wins = None  # the same P(win) on every world: points decide
            return decision(where, options=ranked.options, taken=turn.taken, best=ranked.options[b],
                            values=ranked.figures["score"], versus_best=versus_best, thresholds=THRESHOLDS,
                            win=ranked.figures.get("equity"), win_versus_best=wins,
                            samples=ranked.samples, note=note,
                            partial=ranked.partial or priced is not None and priced.partial)
        return rate

    decisions, partial = rate_in_order([step(*f) for f in found], progress)
    return ReviewResult(game="kanalje", seats=seats, decisions=decisions, thresholds=THRESHOLDS,
                        policies=players_words(names, lookahead_samples), record=trace, violation=violation,
                        title="Kanalje review", rules=rules, samples=0 if samples is None else samples, seed=seed,
                        partial=partial, budget=None if samples is not None else budget)


