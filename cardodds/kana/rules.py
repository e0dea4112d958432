"""The rules of Känä as data (docs/rules/kana.md).

Every option docs/rules/kana.md names is a field with its default; :meth:`KanaRules.pack` packs them
into the int64 array the kernels read, laid out by :data:`RULES` (kernels name a field as
``RULES.at.players``, wrappers as ``RULES.view(packed).players``).

>>> KanaRules()  # doctest: +ELLIPSIS
KanaRules(players=4, variant='official', ante=0.4, tiebreak_deck='remaining', ...)
>>> KanaRules(players=3).pot
1.2
>>> RULES.view(KanaRules(players=3, tiebreak_deck="fresh").pack()).fresh_deck
1
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

from .._fields import rule
from ..layout import Layout

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "RULES", "VARIANTS", "KanaRules", "check_players"]

MIN_PLAYERS = 2
#: Most players for ``extra_round="all"`` from the remaining stock: 52 - 2n cards must give each two.
MAX_ALL_FROM_STOCK = 13
#: 17 players use 51 of the 52 cards; an 18th could not be dealt three.
MAX_PLAYERS = 17
VARIANTS = ("official", "peek-one", "peek-all")
TIEBREAK_DECKS = ("remaining", "fresh")
EXTRA_ROUNDS = ("tied", "all")
LAST_ROUND_TIES = ("earliest", "latest")

#: The packed rules every Känä kernel reads.
RULES = Layout("kana rules", [
    ("players", 1),
    ("fresh_deck", 1),  # tiebreak_deck == "fresh"
    ("extra_round_all", 1),  # extra_round == "all"
    ("last_round_latest", 1),  # last_round_tie == "latest"
    ("variant", 1),  # index into VARIANTS
])


def check_players(players, what: str = "players") -> int:
    """``players`` if it is a whole number in 2..17, else ``ValueError`` saying why."""
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"{what}={players!r} must be a whole number in {MIN_PLAYERS}..{MAX_PLAYERS}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"{what}={players} is outside {MIN_PLAYERS}..{MAX_PLAYERS}: Känä needs two players and "
            f"a 52-card deck deals three cards to at most {MAX_PLAYERS}"
        )
    return players


@dataclass(frozen=True)
class KanaRules:
    """One table's rules of Känä.

    players
        2..17 (docs/rules/kana.md §1.2: 3-4 recommended; default 4).
    variant
        ``"official"``: nobody looks at a face-down card. ``"peek-one"``: each player looks at
        one of their three cards before the känä round. ``"peek-all"``: each looks at all three.
    ante
        Each player's stake in the pot (default 0.40); the winner takes ``players * ante``.
    tiebreak_deck
        Where extra-round cards come from: ``"remaining"`` (default), the undealt stock, refilled
        with every card not in a tied hand when short; ``"fresh"``, a new deck each extra round.
    extra_round
        Who plays the extra round after a tie: ``"tied"`` (default) or ``"all"`` (later ones again
        among the tied); with ``"remaining"`` at most :data:`MAX_ALL_FROM_STOCK` (13) players.
    last_round_tie
        Who starts the last turn round when several first-turned cards share the lowest
        rank: ``"earliest"`` clockwise from the starter (default) or ``"latest"``.
    """

    players: int = rule(4, "players at the table", low=MIN_PLAYERS, high=MAX_PLAYERS,
                        why=f"Känä is played by {MIN_PLAYERS} to {MAX_PLAYERS}")
    variant: str = rule("official", "official (nobody looks), peek-one or peek-all", choices=VARIANTS)
    ante: float = rule(0.40, "each player's stake", low=0.0, high=1_000_000.0, why="each player's stake, e.g. 0.40")
    tiebreak_deck: str = rule("remaining", "extra-round cards from the undealt stock (remaining) or a fresh deck",
                              choices=TIEBREAK_DECKS)
    extra_round: str = rule("tied", "the players of an extra round after a tie: the tied ones or all (from the "
                            "remaining stock: at most 13 players)", choices=EXTRA_ROUNDS)
    last_round_tie: str = rule("earliest", "who starts the last turn round when first-turned cards tie lowest: the "
                               "earliest clockwise from the starter or the latest", choices=LAST_ROUND_TIES)

    def __post_init__(self):
        check_players(self.players)
        _choice("variant", self.variant, VARIANTS)
        _choice("tiebreak_deck", self.tiebreak_deck, TIEBREAK_DECKS)
        _choice("extra_round", self.extra_round, EXTRA_ROUNDS)
        _choice("last_round_tie", self.last_round_tie, LAST_ROUND_TIES)
        if isinstance(self.ante, bool) or not isinstance(self.ante, (int, float)) or not self.ante > 0:
            raise ValueError(f"ante={self.ante!r} must be a positive stake, e.g. 0.40")
        if not math.isfinite(self.players * self.ante):  # an infinite pot makes every net figure NaN
            raise ValueError(f"ante={self.ante!r} is too large: the pot, players x ante, must be a finite number")
        if self.extra_round == "all" and self.tiebreak_deck == "remaining" and self.players > MAX_ALL_FROM_STOCK:
            # The restock of docs/rules/kana.md §3.5 (every card not in a tied player's hand) cannot deal it:
            # the round never ends.
            raise ValueError(
                f"extra_round='all' with tiebreak_deck='remaining' needs at most {MAX_ALL_FROM_STOCK} players "
                f"(each takes two of the cards not in hands), not players={self.players}; use "
                "tiebreak_deck='fresh' or extra_round='tied'")

    @property
    def pot(self) -> float:
        """What the winner takes: every player's ante."""
        return round(self.players * self.ante, 10)

    def pack(self) -> np.ndarray:
        """The rules as the int64 array the kernels read, laid out by :data:`RULES`."""
        return RULES.pack(
            players=self.players,
            fresh_deck=int(self.tiebreak_deck == "fresh"),
            extra_round_all=int(self.extra_round == "all"),
            last_round_latest=int(self.last_round_tie == "latest"),
            variant=VARIANTS.index(self.variant),
        )

    def to_dict(self) -> dict:
        return asdict(self)


def rules_for(players, variant, rules) -> KanaRules:
    """The rules a public function plays: ``rules`` (checked to agree with ``players`` and
    ``variant`` when they are given too), else :class:`KanaRules` with ``players`` (default 4)
    and ``variant`` (default official)."""
    if rules is not None:
        if not isinstance(rules, KanaRules):
            raise ValueError("rules= must be a cardodds.kana.KanaRules")
        if players is not None and players != rules.players:
            raise ValueError(f"players={players} disagrees with rules.players={rules.players}")
        if variant is not None and variant != rules.variant:
            raise ValueError(f"variant={variant!r} disagrees with rules.variant={rules.variant!r}")
        return rules
    return KanaRules(players=4 if players is None else players, variant=variant or "official")


def _choice(name: str, value, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not known; choose one of {', '.join(repr(a) for a in allowed)}")
