"""``CARDODDS_COMPILE_LOG=FILE``: every numba compile appends one JSON line to FILE.

A line names the compiled function, its argument types, its CPU and wall seconds without those
of the functions it compiled meanwhile (a caller's compile types its callees inside it), the
process and the clock time it ended (``end``: the timeline of a command's two processes).
:mod:`cardodds._jit` installs it when the variable is set; ``benchmarks/compile.py`` loads this
file by path into an older tree that lacks it, so both trees are measured by the same code.
This module imports nothing of cardodds.
"""

from __future__ import annotations

import json
import os
import threading
import time

from numba.core import event


class CompileLog(event.Listener):
    """Numba's ``numba:compile`` events, written to ``path``."""

    def __init__(self, path: str):
        self.path = path
        self.local = threading.local()

    def on_start(self, e) -> None:
        self.local.__dict__.setdefault("stack", []).append([time.thread_time(), time.perf_counter(), 0.0, 0.0])

    def on_end(self, e) -> None:
        stack = self.local.stack
        cpu0, wall0, inner_cpu, inner_wall = stack.pop()
        cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
        if stack:  # the caller's own time excludes this compile
            stack[-1][2] += cpu
            stack[-1][3] += wall
        fn = e.data["dispatcher"].py_func
        line = {"kernel": f"{fn.__module__}.{fn.__qualname__}", "args": str(e.data["args"]),
                "cpu": round(cpu - inner_cpu, 4), "wall": round(wall - inner_wall, 4), "pid": os.getpid(),
                "end": round(time.time(), 3)}
        with open(self.path, "a") as f:
            f.write(json.dumps(line) + "\n")


def install(path: str) -> CompileLog:
    """Log every compile of this process to ``path`` from now on."""
    log = CompileLog(path)
    event.register("numba:compile", log)
    return log
