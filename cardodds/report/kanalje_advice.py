"""The "Advice" part of the Kanalje section: hand-built three-player positions run through
:func:`cardodds.kanalje.advise`, each with its options table and verdict.

The positions are the ones an experienced player answers at once; the tests
(``tests/test_report_kanalje_advice.py``) hold the advisor to those answers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..kanalje import Position, advise
from ..rng import child
from ._common import est, md_table, samples, signed

#: The advice runs' seeds are ``child(SeedSequence(seed), ADVICE_KEY, i)``: a spawn key no
#: earlier run of the section uses (those are seeded with ``seed`` itself), so every figure
#: printed before this part stays what it was.
ADVICE_KEY = 2001

#: The late position of ``docs/kanalje-advise.md``: clubs trump, the A♣ played and the Q♣ turned.
LATE = ("0: 2h 7h Qh; 2: Ad 6d Qd; 2: Kd 4d 9d; 2: Td Jh 8d; 2: 2d Js 5d; 1: Ah Kh Th; 1: 9h 5h 8h; "
        "1: As 5s Ts; 1: Ks 2s 9s; 1: Qs Jd 8s; 1: 3s 7d 5c; 0: 6h 7s 4h; 0: 3h 6s 2c; 2: 3d Ac Jc; 0: 8c")


@dataclass(frozen=True)
class Example:
    """A hand-built position, the verdict an experienced player gives and why."""

    title: str
    seat: int
    hand: str
    turned: str
    played: str
    expected: str
    why: str
    policies: str = "heuristic"

    @property
    def position(self) -> Position:
        """The position :func:`~cardodds.kanalje.advise` takes."""
        return Position(seat=self.seat, hand=self.hand, turned=self.turned, played=self.played)


POSITIONS = (
    Example("Duck under a trick that holds a jack", 2, "Ah 2h Ac Kc Qc 9c 8c 3c As Ks 7s 6s 2s Ad 3d 4d 5d",
             "Td", "0: Qh Jh", "2h",
             "seat 1 dropped the J♥ (-4) on seat 0's Q♥; my A♥ would take it for one trick, my 2♥ leaves it "
             "to seat 0."),
    Example("Throw the dangerous jack when void", 2, "Jh As Ks Qs 9s 8s 5s 3s 2s Ad Kd Qd 9d 8d 6d 4d 2d",
             "Tc", "0: Ac 5c", "Jh",
             "seat 0 leads the A♣, the top trump, and I hold no club: my singleton J♥ must fall on the first "
             "heart led, so I throw it on a trick I cannot win and seat 0 pays for it."),
    Example("The last tricks: take one with the top trump", 1, "Kc 7c 4s", "Qc", LATE, "Kc",
             "clubs are trump, the A♣ is played and the Q♣ turned, so my K♣ is the top trump: it takes the "
             "8♣ trick for sure, the 7♣ cannot."),
    Example("The last tricks, pimc players", 1, "Kc 7c 4s", "Qc", LATE, "Kc",
             "the same position played out by `pimc` at every seat (the rest of the deal solved exactly).",
             policies="pimc"),
)


def worlds(position: Example, scale: float) -> int:
    """Sampled worlds of a position: 10,000 with heuristic play-outs, 1,000 with pimc (scaled)."""
    return samples(1_000, scale, 200) if position.policies == "pimc" else samples(10_000, scale, 200)


def advice_data(seed: int, scale: float, progress: bool) -> list:
    """Each position of :data:`POSITIONS` advised with its own fixed seed."""
    ss = np.random.SeedSequence(seed)
    return [advise(p.position, policies=p.policies, samples=worlds(p, scale), rng=child(ss, ADVICE_KEY, i),
                   progress=progress)
            for i, p in enumerate(POSITIONS)]


def advice_tables(results: list) -> list[str]:
    """The Advice part: each position, its options table (best first) and the verdict."""
    L = ["## Advice: hand-built positions", "",
         "Each position is put to `cardodds kanalje advise` (Python `kanalje.advise`): the unseen cards are "
         "dealt over every deal consistent with what the player saw, and each legal card is played out on the "
         "same deals by the named players. *Expected points* are for the whole deal; *best - this* is the "
         "paired difference to the best card. Every figure carries its 95% interval.", ""]
    for p, r in zip(POSITIONS, results, strict=True):
        L += [f"### {p.title}", "",
              f"Seat {p.seat}, trump from the turned {p.turned}, players `{p.policies}` at every seat, "
              f"{r.samples:,} sampled deals. Hand `{p.hand}`; played `{p.played}`.", "",
              f"Why: {p.why}", ""]
        order = sorted(range(len(r.options)), key=lambda i: (r.versus_best[i].value, r.options[i]))
        L += md_table(("card", "expected points (deal)", "tricks", "penalty", "best - this"),
                      [(r.options[i], signed(r.value[i], 3), est(r.figures["tricks"][i], 2),
                        est(r.figures["penalty"][i], 2), signed(r.versus_best[i], 3)) for i in order], align="lllll")
        L += ["", f"Verdict: {r.verdict}.", ""]
    return L
