"""What a Kanalje policy sees: the table layout, field by field, and the card-mask helpers.

A deal in progress is one int64 array, the *table*. A user policy
``policy(state, legal, seat, view) -> card`` (see :mod:`cardodds.kanalje.policies`) receives
it as ``view``, as its seat may see it (the other hands zeroed). Read it by name through
:data:`T`, the offsets of :data:`TABLE` (numba reads them as constants):

>>> from numba import njit
>>> from cardodds.kanalje.view import T, lowest, SUIT_MASK
>>> @njit
... def low_trump_first(state, legal, seat, view):
...     trump = view[T.trump]
...     mine = legal & SUIT_MASK[trump] if trump >= 0 else 0
...     return lowest(mine) if mine != 0 else lowest(legal)

A field of size k spans ``view[T.name:T.name + k]``; seats are numbered from the player left
of the dealer (seat 0), suits 0..3 clubs, diamonds, hearts, spades, cards ``rank * 4 + suit``
(ranks 0..12 for 2..A, so jacks are rank 9), and a *mask* has bit ``c`` set for card ``c``.

Fields (:data:`FIELDS`, in table order):
"""

from __future__ import annotations

from ..layout import Layout
from ._bits import FULL, JACK_RANK, JACKS, SUIT_MASK, above, below, bit, highest, lowest, nth_card, popcount

__all__ = ["FIELDS", "FULL", "JACK_RANK", "JACKS", "SUIT_MASK", "T", "TABLE", "above", "below", "bit", "highest",
           "lowest", "nth_card", "popcount"]

#: ``(name, size, meaning)`` of every table field.
FIELDS = (
    ("hand", 4, "hand mask of seats 0..3 (unused seats 0; other seats' hands 0 in a policy's view)"),
    ("players", 1, "players at the table, 3 or 2"),
    ("trump", 1, "trump suit, -1 for none (two players: none in phase 1)"),
    ("leader", 1, "seat that led the current trick"),
    ("trick_len", 1, "cards in the current trick"),
    ("trick", 4, "cards of the current trick in playing order"),
    ("played", 1, "mask of every card played so far (finished tricks and the current one)"),
    ("void", 4, "per seat: suits (bit s) the seat has shown void in by not following"),
    ("tricks", 4, "per seat: tricks taken (two players: in phase 2)"),
    ("penalty", 4, "per seat: jack penalties paid"),
    ("jack_taker", 4, "per suit: seat that took that jack, -1 not yet, -2 out of play"),
    ("jack_led", 4, "per suit: 1 when the jack's taker had led that trick"),
    ("turned", 1, "the face-up turned card (three players), -1 for none"),
    ("n_tricks", 1, "tricks finished (two players: in phase 2)"),
    ("last_winner", 1, "winner of the last finished trick, -1 before the first"),
    ("known", 4, "per seat: cards everybody knows to be in that hand (face-up stock cards it took)"),
    ("turned_jack_rule", 1, "0: a turned jack is dead; 1: it goes to the last trick's winner"),
    ("jack_penalty", 4, "per suit: the penalty of that jack"),
    ("trick_points", 1, "points per trick taken"),
    ("violations", 1, "broken invariants counted so far (checked play, illegal policy answers)"),
    ("check", 1, "1: every card played is checked to be legal and present"),
    ("phase", 1, "two players: 1 while phase 1 is played, else 0"),
    ("faceup", 1, "two players, phase 1: the face-up stock card, -1 for none"),
    ("stock_pos", 1, "two players: index in the stock of the face-up card (26: stock used up)"),
    ("phase1_jacks_cost", 1, "two players: 1 when jacks in phase-1 tricks cost their winner"),
    ("trump_card", 1, "two players: the dead phase-1 trick card that named the phase-2 trump, -1 for none"),
    ("faceup_jack_taker", 4, "two players, per suit: seat that took that jack face up from the stock, -1"),
    ("phase1_wins", 2, "two players, per seat: phase-1 tricks won"),
    ("faceup_cards", 1, "two players: mask of the cards that were face up in phase 1"),
    ("faceup_leader_won", 1, "two players: of those, the ones the trick's leader won"),
    ("phase1_played", 1, "two players: mask of the phase-1 trick cards"),
    ("phase1_jacks", 1, "two players: mask of the jacks that fell in phase-1 tricks"),
    ("stock", 26, "two players: the stock from its top (a policy sees -1 below the face-up card "
                  "and at the positions dealt face down)"),
    ("trump_draw", 1, "two players: preset draw 0..25 of the phase-2 trump card, -1 to draw it then"),
    ("phase2_leader", 1, "two players: who leads phase 2, 0 the last phase-1 trick's winner, 1 the non-dealer"),
    ("phase2_trump", 1, "two players: 0 the phase-2 trump is a drawn phase-1 trick card, 1 no trump"),
    ("non_dealer", 1, "two players: the non-dealer's seat"),
)

#: The table layout.
TABLE = Layout("kanalje table", [(n, s) for n, s, _ in FIELDS])
#: Offsets of the table fields by name: ``view[T.hand + seat]``, ``view[T.trump]``.
T = TABLE.at

__doc__ += "\n".join(f"- ``{n}``{f' [{s}]' if s > 1 else ''}: {what}" for n, s, what in FIELDS) + "\n"
