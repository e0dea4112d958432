"""``cardodds warm-up``: compile every kernel into the on-disk cache, in parallel processes."""

from __future__ import annotations

import sys

from . import _cliutil as cu


def add_commands(sub) -> None:
    """Compile the kernels of every command and report section into numba's on-disk cache, one
    process per core. Each command's first call on a fresh install otherwise waits for the kernels
    it runs to compile; afterwards every call loads them. Tasks already run on this installed
    version are skipped (--force runs them again). cardodds report warms its own sections first by
    itself."""
    from .warmup import TASKS

    p = cu.command(sub, "warm-up", add_commands,
                   "compile every kernel now, on every core, so each first answer comes at once")
    p.add_argument("--jobs", type=cu.int_range(1, 256, " processes"), default=None, metavar="N",
                   help="processes compiling at once (default: one per core)")
    p.add_argument("--task", action="append", type=cu.choice(*TASKS), default=None, metavar="NAME",
                   help="only this task (repeatable): " + ", ".join(f"'{t}'" for t in TASKS))
    p.add_argument("--force", action="store_true", help="run the tasks already run on this version again")
    p.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    cu.add_progress_options(p)
    p.set_defaults(func=_warm_up)


def _warm_up(args) -> int:
    from .warmup import warm_up

    res = warm_up(args.task, jobs=args.jobs, progress=cu.show_progress(args), force=args.force)
    status = cu.emit(args, res, warm_up_text)
    if res.failed and status == 0:
        print(f"cardodds: warm-up: {len(res.failed)} task(s) failed: {', '.join(res.failed)}", file=sys.stderr)
        return 1
    return status


def warm_up_text(res) -> str:
    head = f"Warm-up: kernels compiled into {res.cache} ({res.jobs} processes, {res.wall:.1f} s wall)"
    rows = [(name, status, f"{cpu:6.1f} s" if status == "compiled" else "") for name, status, cpu in res.tasks]
    return cu.block(head, res, cu.table(("task", "status", "CPU time"), rows))
