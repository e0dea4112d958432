"""The rules of Kanalje as data (RULES.md 2.1; the two-player game of 2.2 is not built yet).

Seats are numbered clockwise from the player left of the dealer: seat 0 leads the first
trick of a deal and seat ``players - 1`` dealt it. Card codes are those of
:mod:`cardodds.cards` (``rank * 4 + suit``, suits clubs, diamonds, hearts, spades).

>>> r = KanaljeRules()
>>> r.players, r.turned_jack, r.target
(3, 'dead', 21)
>>> r.jack_penalty("Jh"), r.jack_penalty("Js")
(4, 1)
>>> int(KanaljeRules(turned_jack="last_trick").to_kernel()[1])
1
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..cards import SUIT_NAMES, card_rank, card_suit, parse_card

__all__ = ["KanaljeRules", "TURNED_JACK_CHOICES"]

TURNED_JACK_CHOICES = ("dead", "last_trick")
#: Layout of the packed rules array the kernels read.
R_PLAYERS, R_TURNED_JACK, R_TARGET, R_TRICK_POINTS, R_PENALTY = 0, 1, 2, 3, 4  # R_PENALTY..+3 by suit
R_HAND, R_SIZE = 8, 9


@dataclass(frozen=True)
class KanaljeRules:
    """Every option of Kanalje, with the defaults of RULES.md 2.1.

    players:
        3 (RULES.md 2.1). ``players=2`` is the two-phase game of RULES.md 2.2, not available yet.
    turned_jack:
        ``"dead"`` [default]: the turned 52nd card takes no part in play, so a turned jack
        is paid by nobody; ``"last_trick"``: a turned jack goes to the last trick's winner.
    target:
        Points that end the game [seed: 21]: after a deal in which somebody reaches it, the
        highest total wins; a tie at the top plays another deal.
    trick_points:
        Points for each trick taken [seed: 1].
    jack_penalties:
        Penalty of the jack of clubs, diamonds, hearts, spades [seed: 2, 3, 4, 1].
    """

    players: int = 3
    turned_jack: str = "dead"
    target: int = 21
    trick_points: int = 1
    jack_penalties: tuple[int, int, int, int] = (2, 3, 4, 1)

    def __post_init__(self):
        if self.players == 2:
            raise ValueError("players=2 (the two-phase game of RULES.md 2.2) is not available yet; use players=3")
        if self.players != 3:
            raise ValueError(f"players={self.players!r}: Kanalje is played by 3 players (RULES.md 2.1)")
        if self.turned_jack not in TURNED_JACK_CHOICES:
            raise ValueError(
                f"turned_jack={self.turned_jack!r} is not a choice; use one of {', '.join(TURNED_JACK_CHOICES)}"
            )
        if isinstance(self.target, bool) or not isinstance(self.target, (int, np.integer)) or self.target <= 0:
            raise ValueError(f"target={self.target!r} must be a positive whole number of points, e.g. 21")
        if isinstance(self.trick_points, bool) or not isinstance(self.trick_points, (int, np.integer)) \
                or not 0 <= self.trick_points <= 100:
            raise ValueError(f"trick_points={self.trick_points!r} must be a whole number 0..100, e.g. 1")
        pens = tuple(self.jack_penalties)
        if len(pens) != 4 or any(isinstance(p, bool) or not isinstance(p, (int, np.integer)) or not 0 <= p <= 100
                                 for p in pens):
            raise ValueError("jack_penalties must be four whole numbers 0..100 for the jacks of clubs, diamonds, "
                             "hearts, spades, e.g. (2, 3, 4, 1)")
        object.__setattr__(self, "jack_penalties", tuple(int(p) for p in pens))

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player: 17 with three players."""
        return 17

    def jack_penalty(self, jack) -> int:
        """Penalty of a jack given as a code, a name like ``'Jh'`` or a suit name like ``'hearts'``."""
        if isinstance(jack, str) and jack.lower() in SUIT_NAMES:
            return self.jack_penalties[SUIT_NAMES.index(jack.lower())]
        code = parse_card(jack) if isinstance(jack, str) else int(jack)
        if card_rank(code) != 9:
            raise ValueError(f"{jack!r} is not a jack")
        return self.jack_penalties[card_suit(code)]

    def deal_total(self, turned_card: int | None = None) -> int:
        """Sum of all players' scores in one deal: 17 trick points less the jacks that are paid."""
        total = self.hand_size * self.trick_points - sum(self.jack_penalties)
        if turned_card is not None and card_rank(turned_card) == 9 and self.turned_jack == "dead":
            total += self.jack_penalties[card_suit(turned_card)]
        return total

    def to_kernel(self) -> np.ndarray:
        """The rules packed into the int64 array the kernels read."""
        a = np.zeros(R_SIZE, dtype=np.int64)
        a[R_PLAYERS] = self.players
        a[R_TURNED_JACK] = TURNED_JACK_CHOICES.index(self.turned_jack)
        a[R_TARGET] = self.target
        a[R_TRICK_POINTS] = self.trick_points
        a[R_PENALTY:R_PENALTY + 4] = self.jack_penalties
        a[R_HAND] = self.hand_size
        return a

    def to_dict(self) -> dict:
        d = asdict(self)
        d["jack_penalties"] = list(self.jack_penalties)
        return d
