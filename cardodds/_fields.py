"""A rules object's fields, each declared once with its words (:func:`rule`).

A game's rules dataclass declares each field as ``name: type = rule(default, "help", ...)``:
its help, its values (``choices``) or range (``low``, ``high``), and the player count it
applies to (``players``). The command line makes one flag of each field from these
(``_cliutil.add_rules_flags``), and every header names the fields that differ from the
defaults (:func:`rules_words`), so a new house rule is a field and its branch in the kernel.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class R:
...     jokers: int = rule(4, "Jokers in the pack", choices=(4, 6))
...     swap_twos: bool = rule(False, "a 2 swaps out of a meld like a Joker")
...     going_out: str = rule("meld_or_discard", "how a hand goes out", choices=("meld_or_discard", "meld_all"))
>>> rules_words(R(jokers=6, swap_twos=True, going_out="meld_all"))
'jokers 6, swap twos, going out meld-all'
>>> rules_words(R()), rules_words(R(jokers=6), shown=("jokers",))
('', '')
"""

from __future__ import annotations

import dataclasses
from typing import Any


def rule(default: Any, help: str, *, choices: tuple | None = None, low: float | None = None,
         high: float | None = None, players: int | None = None, why: str | None = None) -> Any:
    """A rules field: its ``default``, its ``help`` (the flag's help, in the game's words),
    its ``choices`` or its range ``low..high`` (``why``: what a value outside it is told), and
    the ``players`` count it applies to."""
    meta = {"help": help, "choices": choices, "low": low, "high": high, "players": players, "why": why}
    return dataclasses.field(default=default, metadata={k: v for k, v in meta.items() if v is not None})


def rule_fields(cls_or_rules) -> tuple[dataclasses.Field, ...]:
    """The fields of a rules class (or object) that a caller sets: every ``__init__`` field."""
    return tuple(f for f in dataclasses.fields(cls_or_rules) if f.init)


def value_words(value: Any) -> str:
    """A rule's value as a header says it: ``meld-all``, ``6``, ``2,3,4,1``, ``0.5``."""
    if isinstance(value, str):
        return value.replace("_", "-")
    if isinstance(value, (tuple, list)):
        return ",".join(value_words(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def field_words(name: str, value: Any) -> str:
    """One rule in words: ``swap twos`` (on), ``no phase1 jacks cost`` (off), ``jokers 6``."""
    words = name.replace("_", " ")
    if isinstance(value, bool):
        return words if value else f"no {words}"
    return f"{words} {value_words(value)}"


def non_default(rules) -> dict[str, Any]:
    """The fields of ``rules`` whose value is not the class's default, in declaration order."""
    return {f.name: getattr(rules, f.name) for f in rule_fields(rules) if getattr(rules, f.name) != f.default}


def rules_words(rules, shown: tuple[str, ...] = ()) -> str:
    """Every rule of ``rules`` that differs from the default, in words, comma-separated (``''``
    for the defaults); ``shown``: fields the header already names, left out here."""
    return ", ".join(field_words(k, v) for k, v in non_default(rules).items() if k not in shown)
