"""The rules of Känä as data (RULES.md section 1).

Every option RULES.md names is a field with its default; :meth:`KanaRules.to_kernel` packs
them into the integers the kernels read.

>>> KanaRules()
KanaRules(players=4, variant='official', ante=0.4, tiebreak_deck='remaining', extra_round='tied', last_round_tie='earliest')
>>> KanaRules(players=3).pot
1.2
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "VARIANTS", "KanaRules"]

MIN_PLAYERS = 2
#: 17 players use 51 of the 52 cards; an 18th could not be dealt three.
MAX_PLAYERS = 17
VARIANTS = ("official", "peek-one", "peek-all")
TIEBREAK_DECKS = ("remaining", "fresh")
EXTRA_ROUNDS = ("tied", "all")
LAST_ROUND_TIES = ("earliest", "latest")


@dataclass(frozen=True)
class KanaRules:
    """One table's rules of Känä.

    players
        2..17 (RULES.md: 3-4 recommended; default 4).
    variant
        ``"official"``: nobody looks at a face-down card. ``"peek-one"``: each player looks at
        one of their three cards before the känä round. ``"peek-all"``: each looks at all three.
    ante
        Stake each player puts in the pot (default 0.40, the seed's 40 cents); the winner
        takes ``players * ante``.
    tiebreak_deck
        Where extra-round cards come from. ``"remaining"`` (default): the undealt stock; when
        it holds fewer than two cards per tied player, every card not in a tied player's
        current hand is shuffled into a new stock. ``"fresh"``: a new full deck every extra round.
    extra_round
        Who plays the extra round after a tie for the best hand: ``"tied"`` (default, only
        the tied players) or ``"all"`` (everyone at the table; later extra rounds are again
        among those tied in it).
    last_round_tie
        Who starts the last turn round when several first-turned cards share the lowest
        rank: ``"earliest"`` clockwise from the starter (default) or ``"latest"``.
    """

    players: int = 4
    variant: str = "official"
    ante: float = 0.40
    tiebreak_deck: str = "remaining"
    extra_round: str = "tied"
    last_round_tie: str = "earliest"

    def __post_init__(self):
        p = self.players
        if isinstance(p, bool) or not isinstance(p, int):
            raise ValueError(f"players={p!r} must be a whole number from {MIN_PLAYERS} to {MAX_PLAYERS}")
        if not MIN_PLAYERS <= p <= MAX_PLAYERS:
            raise ValueError(
                f"players={p} is outside {MIN_PLAYERS}..{MAX_PLAYERS}: Känä needs two players and "
                f"a 52-card deck deals three cards to at most {MAX_PLAYERS}"
            )
        _choice("variant", self.variant, VARIANTS)
        _choice("tiebreak_deck", self.tiebreak_deck, TIEBREAK_DECKS)
        _choice("extra_round", self.extra_round, EXTRA_ROUNDS)
        _choice("last_round_tie", self.last_round_tie, LAST_ROUND_TIES)
        if isinstance(self.ante, bool) or not isinstance(self.ante, (int, float)) or not self.ante > 0:
            raise ValueError(f"ante={self.ante!r} must be a positive stake, e.g. 0.40")

    @property
    def pot(self) -> float:
        """What the winner takes: every player's ante."""
        return round(self.players * self.ante, 10)

    def to_kernel(self) -> tuple[int, int, int, int]:
        """``(players, fresh_deck, extra_round_all, last_round_tie_latest)`` for the kernels."""
        return (
            self.players,
            int(self.tiebreak_deck == "fresh"),
            int(self.extra_round == "all"),
            int(self.last_round_tie == "latest"),
        )

    def to_dict(self) -> dict:
        return asdict(self)


def _choice(name: str, value, allowed: tuple[str, ...]) -> None:
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not known; choose one of {', '.join(repr(a) for a in allowed)}")
