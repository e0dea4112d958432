"""One deal (or round, or hand) as the players follow it, move by move: the :class:`Trace` every
game's ``trace`` returns, printed as plain text that reads back (:meth:`Trace.parse`).

The text is a header of ``key: value`` lines, then one line a move, ``seat: action cards``,
then ``result:`` lines::

    # cardodds trace: kanalje
    players: 3
    turned: 7h
    0: deal Ac Kc 4c
    0: play Ac
    result score: 0 0 3

>>> t = Trace.parse("# cardodds trace: kanalje\\nplayers: 3\\n0: play Ac\\n1: play 2c\\nresult score: 0 1 0")
>>> t.moves[1]
Move(seat=1, action='play', cards=('2c',), note='')
>>> Trace.parse(str(t)) == t
True
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .results import Result

__all__ = ["GAMES", "Move", "Trace"]

#: The games a trace can be of.
GAMES = ("kana", "kanalje", "canasta")
_HEAD = "# cardodds trace: "


@dataclass(frozen=True)
class Move:
    """One move: the seat that made it, what it did (``deal``, ``känä``, ``play``, ``draw``,
    ``take``, ``meld``, ``discard`` ...), the cards it involved, and a note in words."""

    seat: int
    action: str
    cards: tuple[str, ...] = ()
    note: str = ""

    def line(self) -> str:
        text = f"{self.seat}: {' '.join((self.action, *self.cards))}"
        return f"{text}  # {self.note}" if self.note else text


@dataclass(frozen=True, repr=False)
class Trace(Result):
    """A game's moves in order, with what the table knew at the start (``info``: the turned card,
    the dealer, the policies ...) and how it ended (``result``: a list of numbers a key, such as
    each seat's score)."""

    game: str
    players: int
    moves: tuple[Move, ...]
    info: dict[str, str] = field(default_factory=dict)
    result: Mapping[str, tuple[float, ...]] = field(default_factory=dict)
    #: The line of the text each move was read from (:meth:`parse`); empty when not read from text.
    lines: tuple[int, ...] = field(default=(), compare=False)

    def line_of(self, move: int) -> int:
        """The line of the text move ``move`` (0-based) was read from, 0 when unknown."""
        return self.lines[move] if move < len(self.lines) else 0

    def __post_init__(self):
        if self.game not in GAMES:
            raise ValueError(f"game {self.game!r}: a trace is of one of {', '.join(GAMES)}")

    def __str__(self) -> str:
        lines = [_HEAD + self.game, f"players: {self.players}"] + [f"seed: {self.seed}"] * (self.seed is not None)
        lines += [f"{key}: {value}" for key, value in self.info.items()]
        lines += [m.line() for m in self.moves]
        lines += [f"result {key}: {' '.join(_number(v) for v in values)}" for key, values in self.result.items()]
        return "\n".join(lines)

    __repr__ = __str__

    def positions(self, seat=0, rules=None):
        """Each decision ``seat`` made in the record, as ``(Turn, Position)``: where it is
        (:class:`~cardodds.advice.Turn`) and what the seat knew then (the game's ``Position``,
        which its ``advise`` takes). See the game's ``positions``."""
        from importlib import import_module

        return import_module(f"cardodds.{self.game}").positions(self, seat=seat, rules=rules)

    def to_frame(self):
        """One row a move: its number, the seat, the action, the cards (space-separated) and the note."""
        import pandas as pd

        return pd.DataFrame({"move": range(1, len(self.moves) + 1), "seat": [m.seat for m in self.moves],
                             "action": [m.action for m in self.moves],
                             "cards": [" ".join(m.cards) for m in self.moves], "note": [m.note for m in self.moves]})

    def to_dict(self) -> dict[str, Any]:
        return {**self.meta(), "game": self.game, "players": self.players, "info": dict(self.info),
                "moves": [{"seat": m.seat, "action": m.action, "cards": list(m.cards), "note": m.note}
                          for m in self.moves],
                "result": {k: list(v) for k, v in self.result.items()}}

    @classmethod
    def from_dict(cls, d: dict) -> Trace:
        """The trace of :meth:`to_dict` (its JSON read back)."""
        try:
            moves = tuple(Move(int(m["seat"]), str(m["action"]), tuple(m.get("cards", ())), str(m.get("note", "")))
                          for m in d["moves"])
            return cls(str(d["game"]), int(d["players"]), moves, info={k: str(v) for k, v in d.get("info", {}).items()},
                       result={k: tuple(v) for k, v in d.get("result", {}).items()}, rules=d.get("rules"),
                       seed=d.get("seed"))
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"not a cardodds trace: {e}; expected the JSON of a trace's --json") from None

    @classmethod
    def parse(cls, text: str) -> Trace:
        """The trace ``text`` prints (``str(trace)``), or a person typed in the same form."""
        lines = [(n, line.strip()) for n, line in enumerate(text.splitlines(), 1) if line.strip()]
        if not lines or not lines[0][1].startswith(_HEAD):
            raise ValueError(f"line 1: expected '{_HEAD}GAME' (GAME one of {', '.join(GAMES)})")
        game = lines[0][1][len(_HEAD):].strip()
        players, seed, info, moves, result, at = None, None, {}, [], {}, []
        for n, line in lines[1:]:
            body, _, note = line.partition("#")
            head, colon, after = body.partition(":")
            head, rest = head.strip(), after.split()
            if not colon:
                raise ValueError(f"line {n}: expected 'seat: action cards', 'key: value' or 'result key: "
                                 f"numbers', got {line!r}")
            if head.isdigit():
                if not rest:
                    raise ValueError(f"line {n}: seat {head} has no action")
                moves.append(Move(int(head), rest[0], tuple(rest[1:]), note.strip()))
                at.append(n)
            elif head.startswith("result "):
                try:
                    result[head[len("result "):].strip()] = tuple(_read_number(v) for v in rest)
                except ValueError:
                    raise ValueError(f"line {n}: a result is numbers, got {' '.join(rest)!r}") from None
            elif head == "seed":
                if not (len(rest) == 1 and rest[0].isdigit()):
                    raise ValueError(f"line {n}: the seed is a whole number, got {' '.join(rest)!r}")
                seed = int(rest[0])
            elif head == "players":
                if not (len(rest) == 1 and rest[0].isdigit()):
                    raise ValueError(f"line {n}: players is a whole number, got {' '.join(rest)!r}")
                players = int(rest[0])
            else:
                info[head] = " ".join(rest)
        if players is None:
            raise ValueError("no 'players: N' line: say how many seats the table has")
        bad = [m.seat for m in moves if m.seat >= players]
        if bad:
            raise ValueError(f"seat {bad[0]} moves at a table of {players} players (seats 0 to {players - 1})")
        return cls(game, players, tuple(moves), info=info, result=result, lines=tuple(at), rules=None, seed=seed)

    @classmethod
    def read(cls, path: str | Path) -> Trace:
        """A trace saved as text (:meth:`save`, or ``cardodds ... trace > FILE``) or as its JSON."""
        text = Path(path).read_text()
        if text.lstrip().startswith("{"):
            return cls.from_dict(json.loads(text))
        return cls.parse(text)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(str(self) + "\n")


def _number(v: float) -> str:
    return str(int(v)) if float(v).is_integer() else repr(float(v))


def _read_number(text: str) -> float:
    value = float(text)
    return int(value) if value.is_integer() else value
