"""Run ``cardodds ARGS`` in this interpreter with every numba compile logged (for compile.py).

    CARDODDS_COMPILE_LOG=FILE python benchmarks/_compile_probe.py ARGS...

A tree that logs compiles itself (``cardodds._jit`` reads ``CARDODDS_COMPILE_LOG``) does so; for
an older tree this script installs the same listener, so both trees are measured alike.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time


def _install(path: str) -> None:
    from numba.core import event

    local = threading.local()

    class Log(event.Listener):
        def on_start(self, e):
            local.__dict__.setdefault("stack", []).append([time.thread_time(), time.perf_counter(), 0.0, 0.0])

        def on_end(self, e):
            cpu0, wall0, inner_cpu, inner_wall = local.stack.pop()
            cpu, wall = time.thread_time() - cpu0, time.perf_counter() - wall0
            if local.stack:
                local.stack[-1][2] += cpu
                local.stack[-1][3] += wall
            fn = e.data["dispatcher"].py_func
            with open(path, "a") as f:
                f.write(json.dumps({"kernel": f"{fn.__module__}.{fn.__qualname__}", "args": str(e.data["args"]),
                                    "cpu": round(cpu - inner_cpu, 4), "wall": round(wall - inner_wall, 4),
                                    "pid": os.getpid()}) + "\n")

    event.register("numba:compile", Log())


def main() -> int:
    from cardodds import _jit

    if not hasattr(_jit, "_CompileLog") and os.environ.get("CARDODDS_COMPILE_LOG"):
        _install(os.environ["CARDODDS_COMPILE_LOG"])
    from cardodds.cli import main as cli

    return cli(sys.argv[1:])


if __name__ == "__main__":
    sys.exit(main())
