"""The advisor's position (:func:`cardodds.canasta.advise.advise`), parsed from the player's
own words and checked: my hand, the melds, the pile, the other hands, the red 3s, the turn,
the discards remembered; and the options of the decision on that table.

A card given with its suit (``Kh``) is that very card: the pack holds two of each, so a third
is refused; a rank alone (``K``) stands for any card of it. Suits matter in Canasta only for
the colour of a 3, so the packed table counts kinds.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import numpy as np

from . import _table as T
from ._defaults import ADVICE_COUNTS, ADVICE_RED3, ADVICE_TURN, ASSUMED_TURN
from ._kernels import WILDS_ONLY, meld_is_legal
from ._worlds import OPT_HOLD, OPT_LEAVE, OPT_STAY
from .cards import BLACK3, JOKER, KIND_NAMES, N_KINDS, RED3, TWO, card_code, deck_counts, parse_kind
from ..cards import card_str
from .rules import CanastaRules, check_rules
from .view import describe_move

#: An unknown card of a listed pile: ``pile="5 7 ? ? K"``.
UNKNOWN = -1
_DEALT = T.SEATS * T.HAND + 1  # twelve cards each and the upcard


def parse_kinds(text, what: str = "cards", unknown: bool = False) -> list[int]:
    """Kinds of a list of cards: ``"K K 9 Jk 2 3r"`` (ranks, ``Jk``/``*``, ``3r``/``3b``) or cards
    ``"Kh Kd"``; a bare ``3`` is refused (its colour matters). With ``unknown`` a ``?`` is an
    unknown card (:data:`UNKNOWN`)."""
    if isinstance(text, str):
        tokens = [x for x in re.split(r"[\s,]+", text.strip()) if x]
    else:
        tokens = list(text)
    out = []
    for tok in tokens:
        if isinstance(tok, (int, np.integer)) and not isinstance(tok, bool) and 0 <= tok < N_KINDS:
            out.append(int(tok))
            continue
        if str(tok).strip() == "3":
            raise ValueError(f"{what}: a 3 must say its colour: '3r' (red) or '3b' (black), or give a card like '3h'")
        if unknown and str(tok).strip() == "?":
            out.append(UNKNOWN)
            continue
        try:
            out.append(parse_kind(str(tok)))
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}" + (" (or '?' for an unknown card)" if unknown else "")) from None
    return out


def parse_melds(text: str | None, rules: CanastaRules) -> list[tuple[int, int, int, int, int]]:
    """``"us: K K K 2, 9 9 9; them: 8 8 8"`` into ``(side, kind, naturals, twos, jokers)``;
    side 0 is "us", 1 "them"; melds of a side are separated by commas or ``|``."""
    if text is None or not str(text).strip():
        return []
    out = []
    seen = set()
    for part in str(text).split(";"):
        if not part.strip():
            continue
        if ":" not in part:
            raise ValueError(f"melds: {part.strip()!r} names no side; write e.g. \"us: K K K 2; them: 9 9 9\"")
        who, body = part.split(":", 1)
        who = who.strip().lower()
        if who not in ("us", "them"):
            raise ValueError(f"melds: side {who!r} is unknown; use 'us' or 'them'")
        side = 0 if who == "us" else 1
        for mtxt in re.split(r"[|,]", body):
            if not mtxt.strip():
                continue
            kinds = parse_kinds(mtxt.replace(",", " "), "melds")
            tw = kinds.count(TWO)
            jk = kinds.count(JOKER)
            nat = [k for k in kinds if k not in (TWO, JOKER)]
            if any(k in (RED3, BLACK3) for k in nat):
                raise ValueError(f"melds: {mtxt.strip()!r} holds a 3; 3s are never melded (red 3s: use red3=)")
            if len(set(nat)) > 1:
                raise ValueError(f"melds: {mtxt.strip()!r} mixes ranks; a meld is one rank plus wilds")
            kind = nat[0] if nat else WILDS_ONLY
            if not meld_is_legal(kind, len(nat), tw, jk, rules.wild_code, int(rules.wild_melds)):
                raise ValueError(f"melds: {mtxt.strip()!r} is not a legal meld under wild_limit={rules.wild_limit!r} "
                                 "(3+ cards, at least 2 naturals, wilds within the limit)")
            if (side, kind) in seen:
                raise ValueError(f"melds: side {who} has two melds of {KIND_NAMES[kind] if kind >= 0 else 'wilds'}; "
                                 "a side keeps one meld per rank: write them as one")
            seen.add((side, kind))
            out.append((side, kind, len(nat), tw, jk))
    return out


#: The seats as the advisor names them (I am seat 0).
SEAT_WORDS = ("me", "left opponent", "partner", "right opponent")


def parse_known(known) -> dict[int, list[int]]:
    """Cards known to be in another player's hand: ``{1: "K K 9"}`` or ``"1: K K 9; 3: Q"``
    (seat 1 my left opponent, 2 my partner, 3 my right opponent)."""
    return _per_seat(known, "known", (1, 2, 3), "1: K K 9; 3: Q")


def parse_thrown(thrown) -> dict[int, list[int]]:
    """The cards each player discarded this hand, as ``heuristic2`` remembers them:
    ``{1: "9 5"}`` or ``"1: 9 5; 3: Q"`` (0 me, 1 left opponent, 2 partner, 3 right opponent)."""
    return _per_seat(thrown, "thrown", (0, 1, 2, 3), "1: 9 5; 3: Q")


def _per_seat(value, what: str, seats: tuple, example: str) -> dict[int, list[int]]:
    """Cards per seat from text ``"1: K K 9; 3: Q"`` or a dict ``{1: "K K 9"}``."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return {}
    names = ", ".join(f"{s} ({SEAT_WORDS[s]})" for s in seats)
    if isinstance(value, str):
        pairs = []
        for part in value.split(";"):
            if not part.strip():
                continue
            if ":" not in part:
                raise ValueError(f"{what}: {part.strip()!r} names no seat; write e.g. \"{example}\" (seats {names})")
            seat, body = part.split(":", 1)
            pairs.append((seat.strip(), body))
    elif isinstance(value, dict):
        pairs = list(value.items())
    else:
        raise ValueError(f"{what}={value!r}: give a dict such as {{1: \"K K 9\"}} or text \"{example}\"")
    out: dict[int, list[int]] = {}
    for seat, body in pairs:
        if str(seat) not in {str(s) for s in seats}:
            raise ValueError(f"{what}: seat {seat!r} is not one of the seats {names}")
        if int(seat) in out:
            raise ValueError(f"{what}: seat {seat} is given twice; list its cards once")
        out[int(seat)] = parse_kinds(body, what)
    return out


def _suited(*texts) -> list[int]:
    """The card codes of the cards given with their suit in ``texts`` (other words skipped)."""
    codes = []
    for text in texts:
        if text is None:
            continue
        tokens = re.split(r"[\s,;|:]+", text) if isinstance(text, str) else list(text)
        for tok in tokens:
            if isinstance(tok, str) and tok.strip():
                try:
                    code = card_code(tok)
                except ValueError:
                    continue
                if code is not None:
                    codes.append(code)
    return codes


def _check_suits(hand, melds, pile, top, known) -> None:
    """A card given with its suit is that card: the pack holds two of each."""
    given = [hand, melds, pile] + (list(known.values()) if isinstance(known, dict) else [known])
    if top is not None and (pile is None or _last_is_unknown(pile)):
        given.append(top)
    codes = _suited(*given)
    for c in set(codes):
        if codes.count(c) > 2:
            name = card_str(c)
            raise ValueError(f"hand/melds/pile/known: card {name} is given {codes.count(c)} times; the pack holds "
                             f"two of each card (a rank alone, {KIND_NAMES[parse_kind(name)]!r}, stands for any suit)")


def _last_is_unknown(pile) -> bool:
    tokens = [x for x in re.split(r"[\s,]+", pile.strip()) if x] if isinstance(pile, str) else list(pile)
    return not tokens or str(tokens[-1]).strip() == "?"


def _pile(pile, pile_size, top, decision) -> list[int]:
    """The pile bottom to top, :data:`UNKNOWN` for a card not known: the cards listed (``?``
    for unknown ones); ``pile_size`` larger than the list puts unknown cards under it."""
    cards = parse_kinds(pile, "pile", unknown=True) if pile is not None else []
    if top is not None:
        tk = parse_kinds(top, "top")
        if len(tk) != 1:
            raise ValueError(f"top={top!r}: give one card, e.g. top='K'")
        if not cards:
            cards = tk
        elif cards[-1] == UNKNOWN:
            cards[-1] = tk[0]
        elif cards[-1] != tk[0]:
            raise ValueError(f"top: the top card {KIND_NAMES[tk[0]]} contradicts the pile given (its last card, the "
                             f"top, is {KIND_NAMES[cards[-1]]}); list the pile bottom to top or drop top=")
    if pile_size is not None:
        if isinstance(pile_size, bool) or not isinstance(pile_size, (int, np.integer)) or pile_size < len(cards):
            raise ValueError(f"pile_size={pile_size!r} contradicts the pile listed ({len(cards)} cards); give the "
                             f"pile's size, at least {len(cards)}, or list it with '?' for the cards not known")
        if pile_size > T.MAX_CARDS:
            raise ValueError(f"pile_size={pile_size} is more cards than the pack holds")
        cards = [UNKNOWN] * (int(pile_size) - len(cards)) + cards
    if decision == "take":
        if not cards:
            raise ValueError("pile: give at least its top card to decide whether to take it, e.g. pile='K'")
        if cards[-1] == UNKNOWN:
            raise ValueError("pile: its top card must be known to decide whether to take it, e.g. pile='5 ? ? K'")
        if cards[-1] == BLACK3:
            raise ValueError("pile: a black 3 on top blocks the pile: it cannot be taken this turn; "
                             "ask decision='discard' instead")
        if cards[-1] == RED3:
            raise ValueError("pile: a red 3 on top can never be melded, so the pile cannot be taken; "
                             "ask decision='discard' instead")
    return cards


def whole_numbers(value, what: str, n: int, example: str, low: int | None = 0) -> list[int]:
    """``n`` whole numbers from a sequence or a text ``"12,11,12"``, each >= ``low``."""
    try:
        items = [x for x in re.split(r"[\s,;]+", value.strip()) if x] if isinstance(value, str) else list(value)
        vals = [int(x) for x in items]
        if any(isinstance(x, (bool, float)) and x != int(x) for x in items):
            raise ValueError
    except (TypeError, ValueError):
        raise ValueError(f"{what}={value!r}: give {example}") from None
    if len(vals) != n or (low is not None and min(vals) < low):
        raise ValueError(f"{what}={value!r}: give {example}")
    return vals


def game_score(score, rules: CanastaRules, who: str = "us and them") -> list[int] | None:
    """The game score before a hand (two whole numbers, ``who``), None when not given; refused
    when no game reaches it (a total not a multiple of 5) or a side has reached ``rules.target``
    ahead (the game is over; an exact tie there plays another hand)."""
    if score is None:
        return None
    got = whole_numbers(score, "score", 2, f"the game score before this hand, {who}, e.g. (6200, 5400)", low=None)
    if any(v % 5 for v in got):
        raise ValueError(f"score={score!r}: no game reaches {got[0]},{got[1]}: every Canasta score is a multiple of 5")
    if max(got) >= rules.target and got[0] != got[1]:
        raise ValueError(f"score={score!r}: the game is over (a side has reached the target {rules.target:,} ahead); "
                         "give the score before a hand of a game still on")
    return got


class Position(NamedTuple):
    """The position packed for the kernel: ``base`` (the table with every card whose place
    is known; unknown pile cards :data:`UNKNOWN`), ``unseen`` (kinds of the cards not seen),
    ``hidden`` (cards still to deal to seats 1..3) and ``pile_slots`` (unknown pile positions)."""

    base: np.ndarray
    unseen: np.ndarray
    hidden: np.ndarray
    pile_slots: np.ndarray


def position(hand, *, melds=None, pile=None, pile_size=None, top=None, counts=ADVICE_COUNTS, red3=ADVICE_RED3,
             known=None, thrown=None, turn=ADVICE_TURN, decision="discard",
             rules: CanastaRules | None = None) -> Position:
    """The position of :func:`cardodds.canasta.advise.advise`, checked and packed (:class:`Position`)."""
    rules = check_rules(rules)
    pack = deck_counts(rules.jokers)
    mine = np.bincount(parse_kinds(hand, "hand"), minlength=N_KINDS).astype(np.int64)
    if mine.sum() == 0:
        raise ValueError("hand: give my cards, e.g. \"K K 9 9 5 Jk 3b\"")
    table_melds = parse_melds(melds, rules)
    pile_cards = _pile(pile, pile_size, top, decision)
    counts = whole_numbers(counts, "counts", 3, "three card counts >= 1 (left opponent, partner, right opponent), "
                      "e.g. (12, 11, 12)")
    empty = [s for s in (1, 2, 3) if counts[s - 1] == 0]
    if empty:
        raise ValueError(f"counts: seat {empty[0]} ({SEAT_WORDS[empty[0]]}) holds no cards, so the hand is over "
                         "(a player with none went out); give each other player's cards, 1 or more")
    red3 = whole_numbers(red3, "red3", 2, "the red 3s laid by us and by them, e.g. (1, 0)")
    held = parse_known(known)
    threw = parse_thrown(thrown)
    _check_suits(hand, melds, pile, top, known)
    for s, cards in held.items():
        if len(cards) > counts[s - 1]:
            raise ValueError(f"known: seat {s} holds {counts[s - 1]} cards (counts=) but {len(cards)} are known "
                             "there; fix counts= or known=")
    seen = mine.copy()
    for _side, kind, n, tw, jk in table_melds:
        if kind >= 0:
            seen[kind] += n
        seen[TWO] += tw
        seen[JOKER] += jk
    for k in pile_cards:
        if k != UNKNOWN:
            seen[k] += 1
    for cards in held.values():
        for k in cards:
            seen[k] += 1
    seen[RED3] += red3[0] + red3[1]
    over = [KIND_NAMES[k] for k in range(N_KINDS) if seen[k] > pack[k]]
    # thrown is not bounded by the pack: a discard taken with the pile may be thrown again
    if over:
        raise ValueError(f"hand/melds/pile/known/red3: more {', '.join(over)} cards are given than the "
                         f"{rules.deck_size}-card pack holds; check the cards")
    unseen_n = int(pack.sum() - seen.sum())
    hidden = np.asarray([counts[s - 1] - len(held.get(s, ())) for s in (1, 2, 3)], dtype=np.int64)
    slots = np.asarray([i for i, k in enumerate(pile_cards) if k == UNKNOWN], dtype=np.int64)
    if int(hidden.sum()) + len(slots) > unseen_n:
        raise ValueError(f"counts: the other hands ({int(hidden.sum())} cards not known) and the pile's unknown "
                         f"cards ({len(slots)}) need more than the {unseen_n} cards not seen; check counts= and "
                         "pile_size=")
    melded = sum(n + tw + jk for _s, _k, n, tw, jk in table_melds)
    if turn is not None:
        if isinstance(turn, bool) or not isinstance(turn, (int, np.integer)) or turn < 0:
            raise ValueError(f"turn={turn!r}: give the table turns played before mine, a whole number >= 0")
        r3 = red3[0] + red3[1]
        out = int(mine.sum()) + melded + r3 + len(pile_cards) + sum(counts)
        need = _DEALT + int(turn) + 1 + r3
        if out != need:
            raise ValueError(f"counts: hand {int(mine.sum())} + melds {melded} + red 3s {r3} + pile {len(pile_cards)} "
                             f"+ other hands {sum(counts)} = {out} cards out, but turn={turn} gives {need} (49 dealt, "
                             f"{turn + 1} draws, {r3} red-3 draws); fix counts=, pile_size= or turn=")
        _check_turn(int(turn), counts, table_melds, red3, len(pile_cards), threw)
    t = np.zeros(T.S.size, dtype=np.int64)
    for side in range(2):
        for sl in range(T.SLOTS):
            t[T.meld_at(side, sl)] = WILDS_ONLY if sl == T.WILD_SLOT else sl + 3
        t[T.SA.red3 + side] = red3[side]
    for side, kind, n, tw, jk in table_melds:
        o = T.meld_at(side, T.slot_of(kind))
        t[o + 1:o + 4] = (n, tw, jk)
        t[T.SA.opened + side] = 1
    t[T.SA.hand:T.SA.hand + N_KINDS] = mine
    for s, cards in held.items():
        for k in cards:
            t[T.hand_at(s, k)] += 1
    for s, cards in threw.items():
        for k in cards:
            t[T.SA.threw + s * N_KINDS + k] += 1
            t[T.SA.discarded + k] += 1
    for i, k in enumerate(pile_cards):
        t[T.SA.pile + i] = k
    t[T.SA.pile_len] = len(pile_cards)
    t[T.SA.deck_size] = rules.deck_size
    t[T.SA.turn] = ASSUMED_TURN if turn is None else int(turn)
    t[T.SA.went_out] = -1
    t[T.SA.can_take] = 1 if decision == "take" else 0
    t[T.SA.phase] = T.PH_ACT
    for side in range(2):
        t[T.SA.open_turn + side] = -1
        t[T.SA.canasta_turn + side] = -1
    unseen = np.repeat(np.arange(N_KINDS, dtype=np.int64), pack - seen)
    return Position(t, unseen, hidden, slots)


def _check_turn(turn: int, counts: list[int], melds: list, red3: list[int], pile: int, threw: dict) -> None:
    """What ``turn`` table turns before mine allow: seat ``s`` (1 left, 2 partner, 3 right) has
    played the turns ``4 - s``, ``8 - s``, ... back from mine; I have played ``turn // 4``."""
    played = [turn // 4] + [0 if turn < 4 - s else (turn - 4 + s) // 4 + 1 for s in (1, 2, 3)]
    if pile > turn + 1:
        raise ValueError(f"pile: {pile} cards, but {turn} turns before mine leave at most {turn + 1} (the upcard "
                         "and a discard a turn); fix pile=, pile_size= or turn=")
    if played[1] + played[3] == 0 and (any(side == 1 for side, *_ in melds) or red3[1] > 0):
        raise ValueError(f"melds/red3: the opponents have not played yet at turn={turn}, so they have laid nothing; "
                         "fix melds=, red3= or turn=")
    for s in (1, 2, 3):
        if played[s] == 0 and counts[s - 1] != T.HAND:
            raise ValueError(f"counts: seat {s} ({SEAT_WORDS[s]}) has not played yet at turn={turn}, so it holds the "
                             f"{T.HAND} cards dealt, not {counts[s - 1]}; fix counts= or turn=")
    for s, cards in threw.items():
        if len(cards) > played[s]:
            raise ValueError(f"thrown: seat {s} ({SEAT_WORDS[s]}) threw {len(cards)} cards but has played "
                             f"{played[s]} turns by turn={turn} (one discard a turn); fix thrown= or turn=")


def _meld_words(kind: int, n: int, tw: int, jk: int) -> str:
    return " ".join(([KIND_NAMES[kind]] * n if kind >= 0 else []) + ["2"] * tw + ["Jk"] * jk)


def _move_words(t: np.ndarray, m) -> str:
    """A move of mine as an option's name: "discard K", "meld K K K", "add K to our K meld"."""
    if m[0] == T.MV_DISCARD:
        return f"discard {KIND_NAMES[int(m[1])]}"
    if m[0] == T.MV_NEW:
        return "meld " + _meld_words(*(int(x) for x in m[1:5]))
    return describe_move(t, m).replace("adds", "add").replace("melds", "meld").replace("lays", "lay")


def options_of(t: np.ndarray, rl: np.ndarray, decision: str, chosen) -> tuple[np.ndarray, list[str]]:
    """The options of the decision on table ``t``: move records (or an ``OPT_*`` type) and
    their names; ``chosen`` (names, or for a discard the cards) keeps only those."""
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    nm = T.gen_moves(t, rl, mv, np.zeros(N_KINDS, dtype=np.int64))
    hand = int(t[T.SA.hand:T.SA.hand + N_KINDS].sum())
    moves = [tuple(int(x) for x in mv[i]) for i in range(nm)]
    opts: list[tuple[int, ...]] = []
    labels: list[str] = []
    if decision == "take":
        opts.append((OPT_LEAVE, 0, 0, 0, 0))
        labels.append("leave the pile")
        for m in moves:
            if m[0] in (T.MV_TAKE_NEW, T.MV_TAKE_ADD):
                opts.append(m)
                how = describe_move(t, np.asarray(m)).split(" on top) ")[1]
                labels.append("take the pile: " + how.replace("melding", "meld").replace("adding", "add"))
        if len(opts) == 1:
            raise ValueError("pile: it cannot be taken with this hand (its top card cannot be melded"
                             + (" in a first meld worth min_first_meld" if not t[T.SA.opened] else "") + ")")
    elif decision == "discard":
        for m in moves:
            if m[0] == T.MV_DISCARD:
                opts.append(m)
                labels.append(_move_words(t, m))
        if not opts:
            raise ValueError("hand: no card of it may be discarded now (going out is not allowed yet)")
    elif decision == "out":
        outs = [m for m in moves if (m[0] in (T.MV_DISCARD, T.MV_ADD) and hand == 1)
                or (m[0] == T.MV_NEW and hand == m[2] + m[3] + m[4])]
        if not outs:
            raise ValueError("decision='out' does not apply: no one move empties this hand now (give the hand when one "
                             "meld or discard would empty it; nobody goes out in a first turn, turns 0..3)")
        # staying in is an option only when some move now keeps a card
        stay = len(outs) < len(moves)
        opts = [(OPT_STAY, 0, 0, 0, 0)] * stay + outs
        labels = ["stay in (do not go out this turn)"] * stay + ["go out: " + _move_words(t, m) for m in outs]
    else:
        news = [m for m in moves if m[0] == T.MV_NEW]
        if not news:
            raise ValueError("decision='meld' does not apply: this hand can lay no new meld now"
                             + ("" if t[T.SA.opened] else " (a first meld must reach min_first_meld)"))
        opts = [(OPT_HOLD, 0, 0, 0, 0)] + news
        labels = ["hold (no new meld this turn)"] + [_move_words(t, m) for m in news]
    if chosen is not None:
        names = [x.strip() for x in chosen.split(",")] if isinstance(chosen, str) else [str(x).strip() for x in chosen]
        keep = []
        for name in names:
            low = name.lower()
            hit = [i for i, lab in enumerate(labels) if low in _short_names(lab.lower())]
            if not hit:
                raise ValueError(f"options: {name!r} does not apply to the {decision} decision here; choose from "
                                 + ", ".join(repr(x) for x in labels))
            keep += [i for i in hit if i not in keep]
        keep.sort()
        opts = [opts[i] for i in keep]
        labels = [labels[i] for i in keep]
    return np.asarray(opts, dtype=np.int64), labels


def _short_names(label: str) -> tuple[str, ...]:
    """What ``options=`` may call an option: its name, or the part after the verb ("leave",
    a discard's card "K", a take's meld "K K K" or "meld K K K")."""
    tail = label.split(": ", 1)[-1]
    return (label, label.split(" ")[0].rstrip(":"), label.removeprefix("discard "), tail, tail.removeprefix("meld "),
            tail.removeprefix("discard "))


