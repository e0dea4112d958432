"""What a call shows beside its answer: one line when it first waits for numba to compile, and
its progress bar, drawn by a notebook as a notebook's.

The line: cardodds' own cache class and ``cfunc`` (:mod:`cardodds._jit`) call :func:`compiling`
just before one of cardodds' functions compiles; inside a :func:`compile_notice` block that prints
the block's line once. A public call and an engine run are such blocks (:func:`call`), with a line
in an interactive session (a Jupyter kernel, IPython, Python's prompt) and none in a script; the
CLI's command is one with its own line (``_cliutil.compile_notice``). The outermost block decides:
a call made by another says nothing of its own. In IPython the line comes at most once per cell,
also where no block is under way. No listener is added to numba: a session's own
``@njit`` functions compile as without cardodds. This module imports neither numba nor IPython.
"""

from __future__ import annotations

import contextlib
import html
import os
import sys
import threading
import time
from collections.abc import Iterator

__all__ = ["COMPILE_NOTICE", "call", "compile_notice", "compiling", "in_notebook", "interactive", "progress_bar"]

#: What a call says on stderr, once, when it first waits for numba in an interactive session.
COMPILE_NOTICE = "cardodds: compiling the kernels of this question once (later calls load them from the on-disk cache)"


class _Block:
    def __init__(self, line: str | None) -> None:
        self.line = line
        self.said = False


_LOCK = threading.Lock()
#: The outermost block under way (read by the threads that compile), or None.
_BLOCK: _Block | None = None


@contextlib.contextmanager
def compile_notice(line: str | None) -> Iterator[None]:
    """In the block, ``line`` on stderr the first time one of cardodds' functions compiles; nothing
    when ``line`` is None or everything comes from the cache. A block inside another is the outer one.

    >>> with compile_notice(None):
    ...     pass
    """
    global _BLOCK
    with _LOCK:
        outer = _BLOCK is not None
        if not outer:
            _BLOCK = _Block(line)
    if outer:
        yield
        return
    try:
        yield
    finally:
        with _LOCK:
            _BLOCK = None


def call() -> contextlib.AbstractContextManager:
    """The block of a public call or a run: :data:`COMPILE_NOTICE` in an interactive session."""
    return compile_notice(COMPILE_NOTICE if interactive() else None)


#: The IPython cell (its execution count) that last said it compiles.
_SAID_IN: list = [None]


def compiling() -> None:
    """One of cardodds' functions is about to compile: the block's line, if not said yet. In
    IPython at most one line per cell, also outside a block (a public function that neither runs
    the engine nor takes ``backend=``, e.g. a trace, or a module compiling its callbacks when first
    imported): :data:`COMPILE_NOTICE`. Nothing outside a block elsewhere."""
    with _LOCK:
        block = _BLOCK
        if block is not None and (block.line is None or block.said):
            return
        shell = _shell()
        if block is None and shell is None:
            return
        if block is not None:
            block.said = True
        if shell is not None:
            cell = getattr(shell, "execution_count", None)
            if cell == _SAID_IN[0]:
                return
            _SAID_IN[0] = cell
        line = COMPILE_NOTICE if block is None else block.line
    from tqdm import tqdm

    tqdm.write(line, file=sys.stderr)  # above a terminal's progress bar already drawn


def _shell():
    ipython = sys.modules.get("IPython")
    return getattr(ipython, "get_ipython", lambda: None)()


def interactive() -> bool:
    """Whether this is an interactive session: a Jupyter kernel, IPython, or Python's prompt."""
    return hasattr(sys, "ps1") or bool(sys.flags.interactive) or _shell() is not None


def in_notebook() -> bool:
    """Whether this is a Jupyter kernel showing rich output (tqdm's test: not a Qt console or Spyder)."""
    if "ipykernel.zmqshell" not in sys.modules or any(k == "QT_API" or k.startswith("SPYDER") for k in os.environ):
        return False
    shell = _shell()
    name = type(shell).__name__.lower()
    return shell is not None and "qt" not in name and "spyder" not in name


def progress_bar(total: int | None, unit: str, *, unit_scale: bool = True, desc: str | None = None,
                 delay: float = 0.0, leave: bool = False):
    """A progress bar (tqdm's methods ``update``, ``refresh``, ``close`` and ``total``; the options
    as tqdm's): tqdm's on stderr, in a notebook tqdm's widget when
    ipywidgets is there, else :class:`HtmlBar`."""
    if in_notebook():
        from tqdm import notebook

        if notebook.IProgress is None:
            return HtmlBar(total, unit, unit_scale=unit_scale, desc=desc, delay=delay, leave=leave)
        return notebook.tqdm(total=total, unit=unit, unit_scale=unit_scale, desc=desc, delay=delay, leave=leave)
    from tqdm import tqdm

    return tqdm(total=total, unit=unit, unit_scale=unit_scale, desc=desc, delay=delay, leave=leave,
                file=sys.stderr, dynamic_ncols=True)


class HtmlBar:
    """A notebook's progress bar without ipywidgets: an HTML ``<progress>`` and tqdm's figures, one
    output updated in place (IPython's ``display_id``) at most every :attr:`EVERY` seconds, shown
    once ``delay`` seconds have passed, and on ``close`` emptied (as a terminal's bar is cleared)
    unless ``leave``."""

    EVERY = 0.2

    def __init__(self, total: int | None, unit: str, *, unit_scale: bool = True, desc: str | None = None,
                 delay: float = 0.0, leave: bool = False) -> None:
        self.total, self.unit, self.unit_scale, self.n = total, unit, unit_scale, 0
        self.desc, self.delay, self.leave = desc, delay, leave
        self.start = self.shown = time.monotonic()
        self.handle = None
        if delay <= 0:
            self.refresh()

    def _data(self, shown: bool = True) -> dict:
        if not shown:
            return {"text/plain": "", "text/html": ""}
        from tqdm import tqdm

        elapsed = time.monotonic() - self.start
        if self.total:
            text = f"{100 * self.n / self.total:3.0f}% " + tqdm.format_meter(
                self.n, self.total, elapsed, unit=self.unit, unit_scale=self.unit_scale,
                bar_format="{n_fmt}/{total_fmt} {unit}s [{elapsed}<{remaining}, {rate_fmt}]")
            bar = f'<progress value="{self.n}" max="{self.total}" style="width: 20em"></progress>'
        else:
            text = tqdm.format_meter(self.n, None, elapsed, unit=self.unit, unit_scale=self.unit_scale,
                                     bar_format="{n_fmt} {unit}s [{elapsed}, {rate_fmt}]")
            bar = '<progress style="width: 20em"></progress>'
        if self.desc:
            text = f"{self.desc}: {text}"
        return {"text/plain": text,
                "text/html": f'<div>{bar} <span style="font-family: monospace">{html.escape(text)}</span></div>'}

    def update(self, n: int = 1) -> None:
        self.n += n
        now = time.monotonic()
        if now - self.shown >= self.EVERY and now - self.start >= self.delay:
            self.refresh()

    def refresh(self) -> None:
        if self.handle is None:
            from IPython.display import display

            self.handle = display(self._data(), raw=True, display_id=True)
        else:
            self.handle.update(self._data(), raw=True)
        self.shown = time.monotonic()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.update(self._data(shown=self.leave), raw=True)
