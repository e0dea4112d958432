"""The rules of Kanalje as data (docs/rules/kanalje.md §2 and §3 for three players, §4 for two).

Seats are numbered clockwise from the player left of the dealer: seat 0 leads the first
trick of a deal and seat ``players - 1`` dealt it (with two players: seat 0 is the
non-dealer, who leads phase 1 by default). Card codes are those of
:mod:`cardodds.cards` (``rank * 4 + suit``, suits clubs, diamonds, hearts, spades).

>>> r = KanaljeRules()
>>> r.players, r.turned_jack, r.target
(3, 'dead', 21)
>>> r.jack_penalty("Jh"), r.jack_penalty("Js")
(4, 1)
>>> RULES.view(KanaljeRules(turned_jack="last_trick").pack()).turned_jack
1
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

from ..cards import SUIT_NAMES, card_rank, card_suit, parse_card
from .._fields import rule
from ..layout import Layout

__all__ = ["RULES", "KanaljeRules", "TURNED_JACK_CHOICES", "check_rules"]

TURNED_JACK_CHOICES = ("dead", "last_trick")
PHASE1_LEADER_CHOICES = ("non_dealer", "dealer")
PHASE2_LEADER_CHOICES = ("last_trick", "non_dealer")
PHASE2_TRUMP_CHOICES = ("trick_card", "none")
#: Layout of the packed rules array the kernels read; a choice is packed as its index in the
#: ``*_CHOICES`` tuple, ``jack_penalty`` by suit (clubs, diamonds, hearts, spades).
RULES = Layout("kanalje rules", [
    ("players", 1), ("turned_jack", 1), ("target", 1), ("trick_points", 1), ("jack_penalty", 4), ("hand_size", 1),
    ("phase1_jacks_cost", 1), ("phase1_leader", 1), ("phase2_leader", 1), ("phase2_trump", 1),
])
#: Offsets of the rules fields, read by the kernels: ``rules[R.target]``.
R = RULES.at


@dataclass(frozen=True)
class KanaljeRules:
    """Every option of Kanalje, with the defaults of docs/rules/kanalje.md.

    players:
        3, or 2: the two-phase game of docs/rules/kanalje.md §4 (13 cards each, a 26-card stock).
    turned_jack:
        ``"dead"`` [default]: a turned jack is paid by nobody; ``"last_trick"``: by the last trick's winner.
    target:
        Points that end the game [21]: the highest total wins; a tie at the top plays another deal.
    trick_points, jack_penalties:
        Points a trick [1]; penalties of the jacks of clubs, diamonds, hearts, spades [2, 3, 4, 1].
    phase1_jacks_cost:
        Two players: a phase-1 jack costs the trick's winner its penalty (True, default) or falls dead.
    phase1_leader, phase2_leader:
        Two players: who leads phase 1, ``"non_dealer"`` [default] or ``"dealer"``; who leads phase 2,
        the last phase-1 trick's winner (``"last_trick"`` [default]) or ``"non_dealer"``.
    phase2_trump:
        Two players: ``"trick_card"`` [default], the suit of a random dead phase-1 trick card, or ``"none"``.
    """

    players: int = rule(3, "players at the table: 3, or 2 (the two-phase game)", low=2, high=3,
                        why="Kanalje is played by 3, or 2")
    turned_jack: str = rule("dead", "three players: a turned jack takes no part (dead) or goes to the last trick's "
                            "winner (last-trick)", choices=TURNED_JACK_CHOICES, players=3)
    target: int = rule(21, "points that end the game", low=1, high=1_000)
    trick_points: int = rule(1, "points a trick", low=0, high=100)
    jack_penalties: tuple[int, int, int, int] = rule((2, 3, 4, 1), "penalties of the jacks of clubs, diamonds, "
                                                     "hearts, spades", low=0, high=100)
    phase1_jacks_cost: bool = rule(True, "two players: a jack in a phase-1 trick costs the trick's winner its "
                                   "penalty (else it falls dead)", players=2)
    phase1_leader: str = rule("non_dealer", "two players: who leads phase 1", choices=PHASE1_LEADER_CHOICES,
                              players=2)
    phase2_leader: str = rule("last_trick", "two players: who leads phase 2, the last phase-1 trick's winner "
                              "(last-trick) or the non-dealer", choices=PHASE2_LEADER_CHOICES, players=2)
    phase2_trump: str = rule("trick_card", "two players: phase 2's trump, the suit of a random dead phase-1 trick "
                             "card (trick-card) or none", choices=PHASE2_TRUMP_CHOICES, players=2)

    def __post_init__(self):
        if isinstance(self.players, bool) or self.players not in (2, 3):
            raise ValueError(f"players={self.players!r}: Kanalje is played by 3 players or 2 "
                             "(docs/rules/kanalje.md §1.2)")
        if not isinstance(self.phase1_jacks_cost, (bool, np.bool_)):
            raise ValueError(f"phase1_jacks_cost={self.phase1_jacks_cost!r} must be True or False")
        for name, choices in (("phase1_leader", PHASE1_LEADER_CHOICES), ("phase2_leader", PHASE2_LEADER_CHOICES),
                              ("phase2_trump", PHASE2_TRUMP_CHOICES)):
            if getattr(self, name) not in choices:
                raise ValueError(f"{name}={getattr(self, name)!r} is not a choice; use one of {', '.join(choices)}")
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
        """Cards dealt to each player: 17 with three players, 13 with two."""
        return 17 if self.players == 3 else 13

    def jack_penalty(self, jack) -> int:
        """Penalty of a jack given as a code, a name like ``'Jh'`` or a suit name like ``'hearts'``."""
        if isinstance(jack, str) and jack.lower() in SUIT_NAMES:
            return self.jack_penalties[SUIT_NAMES.index(jack.lower())]
        code = parse_card(jack) if isinstance(jack, str) else int(jack)
        if card_rank(code) != 9:
            raise ValueError(f"{jack!r} is not a jack")
        return self.jack_penalties[card_suit(code)]

    def deal_total(self, turned_card: int | None = None) -> int:
        """Sum of all players' scores in one deal: 17 (13 with two players) trick points less
        the jacks that are paid."""
        if self.players == 2:  # every jack paid once across both phases (phase1_jacks_cost=True;
            return 13 * self.trick_points - sum(self.jack_penalties)  # without it, less the dead ones)
        total = self.hand_size * self.trick_points - sum(self.jack_penalties)
        if turned_card is not None and card_rank(turned_card) == 9 and self.turned_jack == "dead":
            total += self.jack_penalties[card_suit(turned_card)]
        return total

    def pack(self) -> np.ndarray:
        """The rules packed into the int64 array the kernels read (:data:`RULES`)."""
        return RULES.pack(
            players=self.players, turned_jack=TURNED_JACK_CHOICES.index(self.turned_jack), target=self.target,
            trick_points=self.trick_points, jack_penalty=self.jack_penalties, hand_size=self.hand_size,
            phase1_jacks_cost=int(bool(self.phase1_jacks_cost)),
            phase1_leader=PHASE1_LEADER_CHOICES.index(self.phase1_leader),
            phase2_leader=PHASE2_LEADER_CHOICES.index(self.phase2_leader),
            phase2_trump=PHASE2_TRUMP_CHOICES.index(self.phase2_trump))

    def to_dict(self) -> dict:
        d = asdict(self)
        d["jack_penalties"] = list(self.jack_penalties)
        return d


def check_rules(rules) -> KanaljeRules:
    """``rules`` as given if it is a :class:`KanaljeRules`, the defaults for None, else ``ValueError``."""
    if rules is None:
        return KanaljeRules()
    if not isinstance(rules, KanaljeRules):
        raise ValueError(f"rules={rules!r} must be a KanaljeRules, e.g. KanaljeRules(turned_jack='last_trick')")
    return rules
