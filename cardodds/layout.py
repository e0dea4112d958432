"""Named layouts of the packed integer arrays that pass between kernels and wrappers.

A packed rules array, a counts array or a game state is declared once, as a list of
``(name, size)`` fields. From that one list come:

- the offsets the compiled code reads: ``layout.at`` is a named tuple of ints, which numba
  freezes as compile-time constants when it is a module global (``R.players`` in a kernel
  costs nothing: LLVM folds each read to the int), and
  ``layout.end(name)`` for the offset just past a field;
- the named, read-only views the wrappers read: ``layout.view(counts).wins``;
- packing: ``layout.pack(players=3, penalty=(2, 3, 4, 1))`` checks that every field is given
  with its size.

Layouts whose sizes depend on a run parameter (e.g. the number of players) are made by a
function of that parameter; the kernel then receives the offsets as an int64 array
(:meth:`Layout.offsets_array`), indexed by the field numbers in ``layout.index``.

>>> RULES = Layout("rules", [("players", 1), ("penalty", 4), ("target", 1)])
>>> RULES.size, RULES.at.penalty, RULES.end("penalty")
(6, 1, 5)
>>> a = RULES.pack(players=3, penalty=(2, 3, 4, 1), target=21)
>>> a.tolist()
[3, 2, 3, 4, 1, 21]
>>> v = RULES.view(a)
>>> v.players, v.penalty.tolist()
(3, [2, 3, 4, 1])
>>> RULES.pack(players=3)
Traceback (most recent call last):
...
ValueError: rules: missing field(s) penalty, target
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = ["Layout", "LayoutView"]


_namedtuple: Any = namedtuple  # called with names known only at run time


def _record(typename: str, names: list[str], values: Iterable[int]) -> Any:
    """A named tuple of ``values`` (numba freezes a module-global one as constants)."""
    return _namedtuple(typename, names)(*values)


class Layout:
    """A packed int64 array declared as named fields of fixed sizes."""

    def __init__(self, name: str, fields: Iterable[tuple[str, int]]):
        self.name = name
        self.fields: tuple[tuple[str, int], ...] = tuple((str(n), int(s)) for n, s in fields)
        names = [n for n, _ in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{name}: a field name is used twice in {names}")
        offsets, pos = [], 0
        for n, s in self.fields:
            if s < 0:
                raise ValueError(f"{name}: field {n} has a negative size {s}")
            offsets.append(pos)
            pos += s
        self.size: int = pos
        tname = "".join(p.capitalize() for p in name.replace("-", " ").split()) or "Layout"
        #: Offsets by name, a named tuple numba reads as constants.
        self.at: Any = _record(tname + "Offsets", names, offsets)
        #: Sizes by name.
        self.sizes: Any = _record(tname + "Sizes", names, [s for _, s in self.fields])
        #: Field numbers by name (the index into :meth:`offsets_array`).
        self.index: Any = _record(tname + "Index", names, range(len(names)))
        self._slices = {n: slice(o, o + s) for (n, s), o in zip(self.fields, offsets)}

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}[{s}]" if s != 1 else n for n, s in self.fields)
        return f"Layout({self.name!r}: {inner}; size {self.size})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and self.fields == other.fields

    def __hash__(self) -> int:
        return hash(self.fields)

    def slice(self, name: str) -> slice:
        """The slice of field ``name`` in a packed array."""
        try:
            return self._slices[name]
        except KeyError:
            raise KeyError(f"{self.name} has no field {name!r}; fields: {', '.join(self._slices)}") from None

    def end(self, name: str) -> int:
        """Offset just past field ``name``."""
        return self.slice(name).stop

    def zeros(self) -> np.ndarray:
        """A zeroed int64 array of this layout's size."""
        return np.zeros(self.size, dtype=np.int64)

    def offsets_array(self) -> np.ndarray:
        """The fields' offsets as an int64 array, for kernels whose layout depends on a run parameter."""
        return np.asarray(tuple(self.at), dtype=np.int64)

    def pack(self, **values: Any) -> np.ndarray:
        """An int64 array with every field set; a field of size k takes k values."""
        missing = [n for n, _ in self.fields if n not in values]
        if missing:
            raise ValueError(f"{self.name}: missing field(s) {', '.join(missing)}")
        extra = [n for n in values if n not in self._slices]
        if extra:
            raise ValueError(f"{self.name}: unknown field(s) {', '.join(extra)}")
        out = self.zeros()
        for n, s in self.fields:
            v = np.asarray(values[n], dtype=np.int64).reshape(-1)
            if v.size != s:
                raise ValueError(f"{self.name}: field {n} takes {s} value(s), got {v.size}")
            out[self._slices[n]] = v
        return out

    def view(self, array: np.ndarray) -> LayoutView:
        """Named read-only access to a packed array (``view.field``)."""
        if array.shape[-1] != self.size:
            raise ValueError(f"{self.name}: array of length {array.shape[-1]} is not this layout's {self.size}")
        return LayoutView(self, array)

    def names(self) -> list[str]:
        return [n for n, _ in self.fields]


class LayoutView:
    """Fields of a packed array by name: a size-1 field reads as an int, others as a read-only array."""

    __slots__ = ("_array", "_layout")

    def __init__(self, layout: Layout, array: np.ndarray):
        a = array.view()
        a.flags.writeable = False
        object.__setattr__(self, "_layout", layout)
        object.__setattr__(self, "_array", a)

    def __getattr__(self, name: str):
        layout = object.__getattribute__(self, "_layout")
        try:
            sl = layout._slices[name]
        except KeyError:
            raise AttributeError(f"{layout.name} has no field {name!r}") from None
        part = object.__getattribute__(self, "_array")[..., sl]
        if sl.stop - sl.start == 1 and part.ndim == 1:
            return int(part[0])
        return part

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a layout view is read-only")

    def __dir__(self) -> Sequence[str]:
        return object.__getattribute__(self, "_layout").names()

    def to_dict(self) -> dict[str, Any]:
        return {n: getattr(self, n) for n in dir(self)}

    def __repr__(self) -> str:
        return f"<{object.__getattribute__(self, '_layout').name} view>"
