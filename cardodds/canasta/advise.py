"""The advisor: take the pile or leave it, which card to discard, go out or not, meld or hold.

The position as I (seat 0, side 0 with my partner at seat 2) know it: my hand, the melds of
both sides, the red 3s laid, the pile (every card, or the top card and the size, or a mix of
known cards and unknown ones ``?``), the cards of the other players (how many, and those
known to be there, e.g. taken with the pile and not melded), the table turn and the game
score before the hand. Each option is played out to the end of the hand by the named
policies (``heuristic`` at every seat unless ``policies=`` says otherwise, mine included) on
the **same** sampled deals: the hidden cards (the rest of the other hands, the unknown pile
cards, the stock) are dealt uniformly over every deal consistent with the position. For each
option: our side's expected margin over theirs in the hand's score, P(our side ahead at the
end of the hand), P(we win the game with this hand) when ``score=`` is given, and the paired
difference to the best; the best is named only when every other option's paired difference
excludes zero.

>>> a = advise("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K", pile_size=6,
...            counts=(10, 9, 11), decision="discard", samples=40, rng=1)
>>> a.decision, len(a.options) > 1
('discard', True)
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from .. import engine
from .._validate import check_run
from ..engine import takes_backend
from ..results import Result, counts_field
from ..stats import Estimate
from . import _advise as A
from . import _table as T
from ._defaults import (ADVICE_COUNTS, ADVICE_DECISIONS, ADVICE_RED3, ADVICE_TURN, ASSUMED_TURN,
                        DEFAULT_ADVICE_SAMPLES, DEFAULT_POLICIES)
from ._kernels import WILDS_ONLY, meld_is_legal
from ._policies import smart_arg
from .cards import BLACK3, JOKER, KIND_NAMES, N_KINDS, RED3, TWO, deck_counts, parse_kind
from .policies import HeuristicParams, resolve_policies
from .rules import CanastaRules, check_rules
from .view import describe_move, kernel_policy

__all__ = ["AdviceResult", "advise", "parse_kinds", "parse_melds", "parse_known"]

DECISIONS = ADVICE_DECISIONS
#: An unknown card of a listed pile: ``pile="5 7 ? ? K"``.
UNKNOWN = -1
_DEALT = T.SEATS * T.HAND + 1  # twelve cards each and the upcard


def _mean(total, total_sq, n) -> Estimate:
    return Estimate.mean(float(total), float(total_sq), int(n))


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


def parse_known(known) -> dict[int, list[int]]:
    """Cards known to be in another player's hand: ``{1: "K K 9"}`` or ``"1: K K 9; 3: Q"``
    (seat 1 my left opponent, 2 my partner, 3 my right opponent)."""
    if known is None or (isinstance(known, str) and not known.strip()):
        return {}
    if isinstance(known, str):
        pairs = []
        for part in known.split(";"):
            if not part.strip():
                continue
            if ":" not in part:
                raise ValueError(f"known: {part.strip()!r} names no seat; write e.g. \"1: K K 9; 3: Q\" "
                                 "(1 left opponent, 2 partner, 3 right opponent)")
            seat, body = part.split(":", 1)
            pairs.append((seat.strip(), body))
    elif isinstance(known, dict):
        pairs = list(known.items())
    else:
        raise ValueError(f"known={known!r}: give a dict such as {{1: \"K K 9\"}} or text \"1: K K 9\"")
    out: dict[int, list[int]] = {}
    for seat, body in pairs:
        if str(seat) not in ("1", "2", "3"):
            raise ValueError(f"known: seat {seat!r} is not another player; use 1 (left opponent), 2 (partner) "
                             "or 3 (right opponent)")
        if int(seat) in out:
            raise ValueError(f"known: seat {seat} is given twice; list its cards once")
        out[int(seat)] = parse_kinds(body, "known")
    return out


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


def _numbers(value, what: str, n: int, example: str, low: int | None = 0) -> list[int]:
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


class Position(NamedTuple):
    """The position packed for the kernel: ``base`` (the table with every card whose place
    is known; unknown pile cards :data:`UNKNOWN`), ``unseen`` (kinds of the cards not seen),
    ``hidden`` (cards still to deal to seats 1..3) and ``pile_slots`` (unknown pile positions)."""

    base: np.ndarray
    unseen: np.ndarray
    hidden: np.ndarray
    pile_slots: np.ndarray


def position(hand, *, melds=None, pile=None, pile_size=None, top=None, counts=ADVICE_COUNTS, red3=ADVICE_RED3,
             known=None, turn=ADVICE_TURN, decision="discard", rules: CanastaRules | None = None) -> Position:
    """The position of :func:`advise`, checked and packed (:class:`Position`)."""
    rules = check_rules(rules)
    pack = deck_counts(rules.jokers)
    mine = np.bincount(parse_kinds(hand, "hand"), minlength=N_KINDS).astype(np.int64)
    if mine.sum() == 0:
        raise ValueError("hand: give my cards, e.g. \"K K 9 9 5 Jk 3b\"")
    table_melds = parse_melds(melds, rules)
    pile_cards = _pile(pile, pile_size, top, decision)
    counts = _numbers(counts, "counts", 3, "three card counts >= 0 (left opponent, partner, right opponent), "
                      "e.g. (12, 11, 12)")
    red3 = _numbers(red3, "red3", 2, "the red 3s laid by us and by them, e.g. (1, 0)")
    held = parse_known(known)
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
        out = int(mine.sum()) + melded + red3[0] + red3[1] + len(pile_cards) + sum(counts)
        need = _DEALT + int(turn) + 1 + red3[0] + red3[1]
        if out != need:
            raise ValueError(f"counts: the cards out (hand {int(mine.sum())} + melds {melded} + red 3s "
                             f"{red3[0] + red3[1]} + pile {len(pile_cards)} + other hands {sum(counts)} = {out}) do "
                             f"not add up to the {need} that turn={turn} gives (48 dealt + the upcard + {turn + 1} "
                             f"draws + {red3[0] + red3[1]} red-3 replacements); fix counts=, pile_size= or turn= "
                             "(or leave turn= out)")
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


def _meld_words(kind: int, n: int, tw: int, jk: int) -> str:
    return " ".join(([KIND_NAMES[kind]] * n if kind >= 0 else []) + ["2"] * tw + ["Jk"] * jk)


def _move_words(t: np.ndarray, m) -> str:
    """A move of mine as an option's name: "discard K", "meld K K K", "add K to our K meld"."""
    if m[0] == T.MV_DISCARD:
        return f"discard {KIND_NAMES[int(m[1])]}"
    if m[0] == T.MV_NEW:
        return "meld " + _meld_words(*(int(x) for x in m[1:5]))
    return describe_move(t, m).replace("adds", "add").replace("melds", "meld").replace("lays", "lay")


def _options(t: np.ndarray, rl: np.ndarray, decision: str, chosen) -> tuple[np.ndarray, list[str]]:
    """The options of the decision on table ``t``: move records (or an ``A.OPT_*`` type) and
    their names; ``chosen`` (names, or for a discard the cards) keeps only those."""
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    nm = T.gen_moves(t, rl, mv, np.zeros(N_KINDS, dtype=np.int64))
    hand = int(t[T.SA.hand:T.SA.hand + N_KINDS].sum())
    moves = [tuple(int(x) for x in mv[i]) for i in range(nm)]
    opts: list[tuple[int, ...]] = []
    labels: list[str] = []
    if decision == "take":
        opts.append((A.OPT_LEAVE, 0, 0, 0, 0))
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
            raise ValueError("decision='out' does not apply: no one move of this hand goes out now (give the hand as "
                             "it is when one meld or discard would empty it, the other melds laid, or wait for turn "
                             "4: nobody goes out in a first turn)")
        # staying in is an option only when some move now keeps a card
        stay = len(outs) < len(moves)
        opts = [(A.OPT_STAY, 0, 0, 0, 0)] * stay + outs
        labels = ["stay in (do not go out this turn)"] * stay + ["go out: " + _move_words(t, m) for m in outs]
    else:
        news = [m for m in moves if m[0] == T.MV_NEW]
        if not news:
            raise ValueError("decision='meld' does not apply: this hand can lay no new meld now"
                             + ("" if t[T.SA.opened] else " (a first meld must reach min_first_meld)"))
        opts = [(A.OPT_HOLD, 0, 0, 0, 0)] + news
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


def _pair_index(a: int, b: int, k: int) -> int:
    """Where pair ``a < b`` of ``k`` options sits in the counts' pair fields."""
    return a * k - a * (a + 1) // 2 + (b - a - 1)


def _paired(field: dict, i: int, j: int, k: int, n: int) -> Estimate:
    """Paired estimate of margin_i - margin_j over the same deals."""
    if i == j:
        return Estimate(0.0, 0.0, 0.0, 0.0, n)
    a, b, sign = (i, j, 1) if i < j else (j, i, -1)
    q = _pair_index(a, b, k)
    return _mean(field["pair"][q], field["pair_sq"][q], n).scaled(sign)


def _best_and_rival(field: dict, k: int) -> tuple[int, int | None]:
    """The option with the highest mean margin, and the best of the others that did not play
    exactly like it on every deal (None if every other did: the same move in other words)."""
    order = [int(i) for i in np.argsort(-np.asarray(field["margin"], dtype=float), kind="stable")]
    best = order[0]
    for j in order[1:]:
        a, b = min(best, j), max(best, j)
        if field["pair_sq"][_pair_index(a, b, k)] != 0:
            return best, j
    return best, None


@dataclass(frozen=True, repr=False, kw_only=True)
class AdviceResult(Result):
    """Options of one decision played out on the same sampled deals (see :func:`advise`).

    ``win_game`` (None without ``score=``) is P(we win the game with this hand): after it our
    side's game total reaches ``rules.target`` and is above theirs; hands after this one are
    not played, so a game this hand does not decide counts as not won."""

    decision: str
    options: tuple          # option names
    margin: tuple           # Estimate per option: our side's score minus theirs, this hand
    ahead: tuple            # Estimate per option: P(our side scores more this hand)
    win_game: tuple | None  # Estimate per option: P(we win the game with this hand); None without score=
    versus_best: tuple      # Estimate per option: paired margin difference, best - option
    best: str | None        # named only when every paired difference excludes zero
    best_option: str = ""   # the option with the highest mean margin, named or not
    policies: tuple = ()
    position: dict = field(default_factory=dict)  # the position as it was given
    counts: np.ndarray = counts_field()

    def to_dict(self) -> dict:
        d = self.meta()
        games = self.win_game if self.win_game is not None else (None,) * len(self.options)
        d.update({"game": "canasta", "question": "advise", "decision": self.decision, "best": self.best,
                  "policies": list(self.policies), "position": self.position,
                  "options": [{"option": o, "margin": m.to_dict(), "ahead": a.to_dict(),
                               "win_game": None if g is None else g.to_dict(), "versus_best": v.to_dict()}
                              for o, m, a, g, v in zip(self.options, self.margin, self.ahead, games,
                                                       self.versus_best)]})
        return d

    def to_frame(self):
        import pandas as pd

        games = self.win_game if self.win_game is not None else (None,) * len(self.options)
        return pd.DataFrame([{"option": o, "margin": m.value, "margin_lo": m.lo, "margin_hi": m.hi, "ahead": a.value,
                              "win_game": math.nan if g is None else g.value,
                              "versus_best": v.value, "versus_best_lo": v.lo, "versus_best_hi": v.hi}
                             for o, m, a, g, v in zip(self.options, self.margin, self.ahead, games,
                                                      self.versus_best)])

    def same_as_best(self, i: int) -> bool:
        """Option ``i`` played exactly like the best on every deal (the same choice in other
        words, e.g. melding the third K now or adding it later): not a rival."""
        v = self.versus_best[i]
        return self.options[i] != self.best_option and v.value == 0 and v.se == 0

    def __repr__(self) -> str:
        lines = [f"Canasta advice ({self.decision}), {self.samples:,} sampled deals, seed {self.seed}"]
        for i, (o, m, a, v) in enumerate(zip(self.options, self.margin, self.ahead, self.versus_best)):
            g = f"  P(win the game) {self.win_game[i].format(percent=True)}" if self.win_game is not None else ""
            vb = "  (plays as the best)" if self.same_as_best(i) else \
                ("" if o == self.best_option else f"; best - this {v.format(1)}")
            lines.append(f"  {o:48} margin {m.format(1):>26}  P(our side ahead) {a.format(percent=True)}{g}{vb}")
        lines.append(f"  best: {self.best}" if self.best else "  no option is better at this precision")
        return "\n".join(lines)


def _echo(**given) -> dict:
    """The position in the words it was given (JSON-ready: tuples as lists, seat keys as text)."""
    out = {}
    for k, v in given.items():
        if isinstance(v, dict):
            v = {str(s): (c if isinstance(c, str) else list(c)) for s, c in v.items()}
        elif isinstance(v, (tuple, list, np.ndarray)):
            v = [x.item() if isinstance(x, np.generic) else x for x in v]
        elif isinstance(v, np.generic):
            v = v.item()
        out[k] = v
    return out


@takes_backend
def advise(hand, *, melds: str | None = None, pile=None, pile_size: int | None = None, top=None,
           counts=ADVICE_COUNTS, red3=ADVICE_RED3, known=None, decision: str = "discard",
           rules: CanastaRules | None = None, turn: int | None = ADVICE_TURN, score=None, options=None,
           policies=DEFAULT_POLICIES, samples: int | None = None, target_halfwidth: float | None = None, rng=None,
           threads: int | None = None, params: HeuristicParams | None = None, progress: bool = False) -> AdviceResult:
    """Compare the options of one decision of mine (seat 0).

    ``decision``: ``"take"`` (each way of taking the pile, or leave it), ``"discard"`` (which
    card), ``"out"`` (each move that goes out now, or stay in), ``"meld"`` (each new meld, or
    hold). ``hand``: my cards at the decision, after my draw. ``melds``: ``"us: K K K 2; them:
    9 9 9"``. ``pile``: bottom to top, ``?`` for an unknown card (``"5 7 ? ? K"``); ``pile_size``
    when fewer cards are listed (the rest unknown, underneath); ``top``: the top card when the
    pile is given apart. ``counts``: cards held by seats 1 (left), 2 (partner), 3 (right);
    ``known``: cards known in those hands, ``{1: "K K 9"}``. ``red3``: red 3s laid (us, them).
    ``turn``: table turns before mine (no going out in one's first turn; the cards out must add
    up to it). ``score``: the game score before the hand (us, them), for P(we win the game).
    ``options``: only these (names as printed, or a discard's card). ``policies``: who plays
    the play-outs, as in :func:`cardodds.canasta.play`. ``target_halfwidth``: instead of
    ``samples``, run until the paired margin difference of the best two options is known to
    +- this many points (95%; an option identical to the best on every deal is not the second).
    """
    rules = check_rules(rules)
    if decision not in DECISIONS:
        raise ValueError(f"decision={decision!r} is unknown; choose " + ", ".join(repr(d) for d in DECISIONS))
    check_run(samples=samples, threads=threads, rng=rng)
    if target_halfwidth is not None:
        if samples is not None:
            raise ValueError("give either samples= or target_halfwidth= (a precision in points), not both")
        if isinstance(target_halfwidth, bool) or not isinstance(target_halfwidth, (int, float, np.number)) \
                or not math.isfinite(target_halfwidth) or target_halfwidth <= 0:
            raise ValueError(f"target_halfwidth={target_halfwidth!r}: give the points to which the best two options' "
                             "margin difference must be known, e.g. 20")
    score_given = score
    if score is not None:
        score = _numbers(score, "score", 2, "the game score before this hand, us and them, e.g. (6200, 5400)",
                         low=None)
    pos = position(hand, melds=melds, pile=pile, pile_size=pile_size, top=top, counts=counts, red3=red3,
                   known=known, turn=turn, decision=decision, rules=rules)
    codes, names, user, hp = resolve_policies(policies, params)
    if "lookahead" in names:
        raise ValueError("policies: 'lookahead' plays out its own decisions by sampling and is not offered in the "
                         "advisor's play-outs; use heuristic2, heuristic or random")
    rl = rules.pack()
    opts, labels = _options(pos.base, rl, decision, options)
    k = len(labels)
    layout = A.advice_layout(k)
    game = np.zeros(3, dtype=np.int64)
    if score is None:
        game[A.G_TARGET] = np.iinfo(np.int64).max // 4  # never reached: no game counted
    else:
        game[[A.G_US, A.G_THEM, A.G_TARGET]] = (score[0], score[1], rules.target)
        pos.base[T.SA.game:T.SA.game + 2] = score  # the players of the play-outs know it too

    def fields(c) -> dict:
        return {name: c[layout.slice(name)] for name in layout.names()}

    def halfwidth(c, n) -> float:
        if k < 2 or n < 2:
            return 0.0 if k < 2 else math.inf
        best, rival = _best_and_rival(fields(c), k)
        return 0.0 if rival is None else _paired(fields(c), best, rival, k, n).halfwidth

    size: dict[str, Any] = {"samples": DEFAULT_ADVICE_SAMPLES if samples is None else samples}
    if target_halfwidth is not None:
        size = {"samples": None, "target_halfwidth": float(target_halfwidth), "halfwidth": halfwidth}
    res = engine.run(A.advise_kernel, (pos.base, pos.unseen, pos.hidden, pos.pile_slots, opts, rl, codes, hp,
                                       layout.offsets_array(), kernel_policy(user), game,
                                       smart_arg(codes)),
                     layout.size, rng=rng, threads=threads, progress=progress, chunk_size=64, unit="deal", **size)
    c = res.counts
    n = res.samples
    f = fields(c)
    margin = tuple(_mean(f["margin"][i], f["margin_sq"][i], n) for i in range(k))
    ahead = tuple(Estimate.proportion(int(f["ahead"][i]), n) for i in range(k))
    win_game = None if score is None else tuple(Estimate.proportion(int(f["win_game"][i]), n) for i in range(k))
    best_i = _best_and_rival(f, k)[0]
    vs = tuple(_paired(f, best_i, j, k, n) for j in range(k))
    rivals = [v for j, v in enumerate(vs) if j != best_i and not (v.value == 0 and v.se == 0)]
    clear = bool(rivals) and all(not v.contains_zero() for v in rivals)
    echo = _echo(hand=hand, melds=melds, pile=pile, pile_size=pile_size, top=top, counts=counts, red3=red3,
                 known=known, turn=turn, score=score_given, decision=decision,
                 options=options)
    return AdviceResult(decision=decision, options=tuple(labels), margin=margin, ahead=ahead, win_game=win_game,
                        versus_best=vs, best=labels[best_i] if clear else None, best_option=labels[best_i],
                        policies=names, position=echo, counts=c, rules=rules, samples=int(n), seed=res.seed,
                        partial=res.partial)
