"""The advisor: take the pile or leave it, and which card to discard.

Given my hand (seat 0, side 0 with my partner at seat 2), the melds on the table of both
sides, the pile (its top card and size, or all its cards), the cards each other player
holds and the red 3s laid, each option is played out to the end of the hand by the
heuristic players on the **same** sampled deals: the hidden cards (the other hands, the pile
under its top card when not given, the stock) are drawn uniformly from the cards not seen.
For each option: the expected margin of our side over theirs in the hand's score, P(our
side scores more); the best option is named only when its paired difference against every
other option excludes zero.

>>> a = advise("K K 9 9 5 7 Q Jk 3b", melds="us: A A A; them: 8 8 8", pile="K", pile_size=6,
...            counts=(10, 9, 11), decision="discard", samples=40, rng=1)
>>> a.decision, len(a.options) > 1
('discard', True)
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from .. import engine
from .._validate import check_run
from ..engine import takes_backend
from ..results import Result, counts_field
from ..stats import Estimate
from . import _advise as A
from . import _table as T
from ._defaults import ADVICE_COUNTS, ADVICE_RED3, ADVICE_TURN, DEFAULT_ADVICE_SAMPLES
from ._kernels import WILDS_ONLY, meld_is_legal
from .cards import BLACK3, JOKER, KIND_NAMES, N_KINDS, RED3, TWO, deck_counts, parse_kind
from .policies import HeuristicParams, resolve_policies
from .rules import CanastaRules, check_rules
from .view import compile_policy, describe_move

__all__ = ["AdviceResult", "advise", "parse_kinds", "parse_melds"]

DECISIONS = ("take", "discard")


def _mean(total, total_sq, n) -> Estimate:
    return Estimate.mean(float(total), float(total_sq), int(n))


def parse_kinds(text, what: str = "cards") -> list[int]:
    """Kinds of a list of cards: ``"K K 9 Jk 2 3r"`` (ranks, ``Jk``/``*``, ``3r``/``3b``) or cards
    ``"Kh Kd"``; a bare ``3`` is refused (its colour matters)."""
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
        try:
            out.append(parse_kind(str(tok)))
        except ValueError as exc:
            raise ValueError(f"{what}: {exc}") from None
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


@dataclass(frozen=True, repr=False, kw_only=True)
class AdviceResult(Result):
    """Options of one decision played out on the same sampled deals (see :func:`advise`)."""

    decision: str
    options: tuple          # option names
    margin: tuple           # Estimate per option: our side's score minus theirs, this hand
    win: tuple              # Estimate per option: P(our side scores more this hand)
    versus_best: tuple      # Estimate per option: paired margin difference, best - option
    best: str | None        # named only when every paired difference excludes zero
    best_option: str = ""   # the option with the highest mean margin, named or not
    counts: np.ndarray = counts_field()

    def to_dict(self) -> dict:
        d = self.meta()
        d.update({"game": "canasta", "question": "advise", "decision": self.decision, "best": self.best,
                  "options": [{"option": o, "margin": m.to_dict(), "win": w.to_dict(),
                               "versus_best": v.to_dict()}
                              for o, m, w, v in zip(self.options, self.margin, self.win, self.versus_best)]})
        return d

    def to_frame(self):
        import pandas as pd

        return pd.DataFrame([{"option": o, "margin": m.value, "margin_lo": m.lo, "margin_hi": m.hi, "win": w.value,
                              "versus_best": v.value, "versus_best_lo": v.lo, "versus_best_hi": v.hi}
                             for o, m, w, v in zip(self.options, self.margin, self.win, self.versus_best)])

    def __repr__(self) -> str:
        lines = [f"Canasta advice ({self.decision}), {self.samples:,} sampled deals, seed {self.seed}"]
        for o, m, w, v in zip(self.options, self.margin, self.win, self.versus_best):
            vb = "  (plays as the best)" if v.value == 0 and v.se == 0 and o != self.best_option else \
                ("" if v.value == 0 and v.se == 0 else f"; best - this {v.format(1)}")
            lines.append(f"  {o:48} margin {m.format(1):>26}  P(our side ahead) {w.format(percent=True)}{vb}")
        lines.append(f"  best: {self.best}" if self.best else "  no difference at this precision")
        return "\n".join(lines)


@takes_backend
def advise(hand, *, melds: str | None = None, pile=None, pile_size: int | None = None, top=None,
           counts=ADVICE_COUNTS, red3=ADVICE_RED3, decision: str = "discard", rules: CanastaRules | None = None,
           turn: int = ADVICE_TURN,
           samples: int = DEFAULT_ADVICE_SAMPLES, rng=None, threads: int | None = None,
           params: HeuristicParams | None = None, progress: bool = False) -> AdviceResult:
    """Compare the options of one decision of mine (seat 0).

    ``hand``: my cards now (after my draw for ``decision="take"``; when I am about to
    discard for ``"discard"``). ``melds``: ``"us: K K K 2; them: 9 9 9"``. ``pile``: its top
    card, or all its cards bottom to top; ``pile_size``: its size when only the top is given;
    ``top``: the top card, when the pile is given separately (they must agree).
    ``counts``: cards held by the seats after me (left opponent, partner, right opponent).
    ``red3``: red 3s laid (us, them). ``turn``: table turns played so far (going out is not
    allowed in a player's first turn, turns 0..3).
    """
    rules = check_rules(rules)
    if decision not in DECISIONS:
        raise ValueError(f"decision={decision!r} is unknown; choose 'take' or 'discard'")
    check_run(samples=samples, threads=threads, rng=rng)
    pack = deck_counts(rules.jokers)
    mine = np.bincount(parse_kinds(hand, "hand"), minlength=N_KINDS).astype(np.int64)
    if mine.sum() == 0:
        raise ValueError("hand: give my cards, e.g. \"K K 9 9 5 Jk 3b\"")
    table_melds = parse_melds(melds, rules)
    pile_kinds = parse_kinds(pile, "pile") if pile is not None else []
    if top is not None:
        tk = parse_kinds(top, "top")
        if len(tk) != 1:
            raise ValueError(f"top={top!r}: give one card, e.g. top='K'")
        if pile_kinds and pile_kinds[-1] != tk[0]:
            raise ValueError(f"the top card {KIND_NAMES[tk[0]]} contradicts the pile given (its last card, the top, "
                             f"is {KIND_NAMES[pile_kinds[-1]]}); list the pile bottom to top or drop top=")
        if not pile_kinds:
            pile_kinds = tk
    if decision == "take" and not pile_kinds:
        raise ValueError("pile: give at least its top card to decide whether to take it, e.g. pile='K'")
    if pile_size is None:
        pile_size = len(pile_kinds)
    if isinstance(pile_size, bool) or not isinstance(pile_size, (int, np.integer)) or pile_size < len(pile_kinds):
        raise ValueError(f"pile_size={pile_size!r} is smaller than the {len(pile_kinds)} pile cards given")
    full_pile = len(pile_kinds) > 1
    if full_pile and pile_size != len(pile_kinds):
        raise ValueError(f"the pile is given as {len(pile_kinds)} cards but pile_size={pile_size}; "
                         "give one or the other")
    try:
        counts = [int(c) for c in counts]
    except (TypeError, ValueError):
        raise ValueError(f"counts={counts!r}: give the cards of the three other players, e.g. (12, 11, 12)") from None
    if len(counts) != 3 or min(counts) < 0:
        raise ValueError(f"counts={counts!r}: give three card counts (left opponent, partner, right opponent) >= 0")
    seen = mine.copy()
    for _side, kind, n, tw, jk in table_melds:
        if kind >= 0:
            seen[kind] += n
        seen[TWO] += tw
        seen[JOKER] += jk
    for k in pile_kinds:
        seen[k] += 1
    seen[RED3] += int(red3[0]) + int(red3[1])
    over = [KIND_NAMES[k] for k in range(N_KINDS) if seen[k] > pack[k]]
    if over:
        raise ValueError(f"more {', '.join(over)} cards are given (hand, melds, pile, red 3s) than the "
                         f"{rules.deck_size}-card pack holds; check the cards")
    unseen_n = int(pack.sum() - seen.sum())
    hidden_pile = pile_size - len(pile_kinds) if not full_pile else 0
    if sum(counts) + hidden_pile > unseen_n:
        raise ValueError(f"the other hands ({sum(counts)}) and the hidden pile ({hidden_pile}) need more cards than "
                         f"the {unseen_n} not seen; more cards on the table than the pack holds")
    codes, names, user, hp = resolve_policies("heuristic", params)
    rl = rules.pack()
    t = np.zeros(T.S.size, dtype=np.int64)
    for side in range(2):
        for sl in range(T.SLOTS):
            t[T.meld_at(side, sl)] = WILDS_ONLY if sl == T.WILD_SLOT else sl + 3
        t[T.SA.red3 + side] = int(red3[side])
    for _side, kind, n, tw, jk in table_melds:
        o = T.meld_at(side, T.slot_of(kind))
        t[o + 1:o + 4] = (n, tw, jk)
        t[T.SA.opened + side] = 1
    t[T.SA.hand:T.SA.hand + N_KINDS] = mine
    # the pile: known cards first, then placeholders the kernel fills; top card last
    if full_pile:
        for i, k in enumerate(pile_kinds):
            t[T.SA.pile + i] = k
    elif pile_kinds:
        t[T.SA.pile + pile_size - 1] = pile_kinds[-1]
    t[T.SA.pile_len] = pile_size
    t[T.SA.deck_size] = rules.deck_size
    t[T.SA.turn] = int(turn)
    t[T.SA.went_out] = -1
    t[T.SA.can_take] = 1 if decision == "take" else 0
    t[T.SA.phase] = T.PH_ACT
    for side in range(2):
        t[T.SA.open_turn + side] = -1
        t[T.SA.canasta_turn + side] = -1
    unseen = np.repeat(np.arange(N_KINDS, dtype=np.int64), pack - seen)
    mv = np.zeros((T.MAX_MOVES, T.MW), dtype=np.int64)
    nm = T.gen_moves(t, rl, mv, np.zeros(N_KINDS, dtype=np.int64))
    opts: list[tuple[int, ...]] = []
    labels: list[str] = []
    if decision == "take":
        opts.append((-1, 0, 0, 0, 0))
        labels.append("leave the pile")
        for i in range(nm):
            if mv[i, 0] in (T.MV_TAKE_NEW, T.MV_TAKE_ADD):
                opts.append(tuple(int(x) for x in mv[i]))
                labels.append(describe_move(t, mv[i]).replace("takes", "take").replace("melding", "meld")
                              .replace("adding", "add"))
        if len(opts) == 1:
            raise ValueError("the pile cannot be taken with this hand (its top card cannot be melded"
                             + (" for a first meld worth min_first_meld" if not t[T.SA.opened] else "") + ")")
    else:
        for i in range(nm):
            if mv[i, 0] == T.MV_DISCARD:
                opts.append(tuple(int(x) for x in mv[i]))
                labels.append(f"discard {KIND_NAMES[int(mv[i, 1])]}")
    options = np.asarray(opts, dtype=np.int64)
    k = len(opts)
    hidden = np.asarray(counts + [hidden_pile], dtype=np.int64)
    layout = A.advice_layout(k)
    res = engine.run(A.advise_kernel, (t, unseen, hidden, options, rl, codes, hp, layout.offsets_array(),
                                       compile_policy(user)),
                     layout.size, samples=samples, rng=rng, threads=threads, progress=progress,
                     chunk_size=64, unit="deal")
    c = res.counts
    n = res.samples
    # Fields read as arrays: with one option (or one pair) a field has a single entry.
    field = {name: c[layout.slice(name)] for name in layout.names()}
    margin = tuple(_mean(field["margin"][i], field["margin_sq"][i], n) for i in range(k))
    win = tuple(Estimate.proportion(int(field["ahead"][i]), n) for i in range(k))
    best_i = int(np.argmax([m.value for m in margin]))

    def pair(i, j):
        """Paired estimate of margin_i - margin_j."""
        if i == j:
            return Estimate(0.0, 0.0, 0.0, 0.0, n)
        a, b, sign = (i, j, 1) if i < j else (j, i, -1)
        q = 0
        for x in range(k):
            for y in range(x + 1, k):
                if (x, y) == (a, b):
                    return _mean(field["pair"][q], field["pair_sq"][q], n).scaled(sign)
                q += 1
        raise AssertionError

    vs = tuple(pair(best_i, j) for j in range(k))
    # An option that played exactly like the best on every deal is the same choice in other
    # words (e.g. melding the third K now or adding it later): not a rival.
    rivals = [v for j, v in enumerate(vs) if j != best_i and not (v.value == 0 and v.se == 0)]
    clear = bool(rivals) and all(not v.contains_zero() for v in rivals)
    return AdviceResult(decision=decision, options=tuple(labels), margin=margin, win=win, versus_best=vs,
                        best=labels[best_i] if clear else None, best_option=labels[best_i], counts=c, rules=rules,
                        samples=int(n), seed=res.seed,
                        partial=res.partial)
