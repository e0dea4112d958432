"""Run ``cardodds ARGS`` in this interpreter, as the program, with every numba compile logged
(for compile.py).

    CARDODDS_COMPILE_LOG=FILE python benchmarks/_compile_probe.py ARGS...

A tree that logs compiles itself (``cardodds._jit`` reads ``CARDODDS_COMPILE_LOG``) does so; into
an older tree this script loads this tree's ``cardodds/_compile_log.py`` by path, so both trees
are measured by the same listener.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path

LISTENER = Path(__file__).resolve().parent.parent / "cardodds" / "_compile_log.py"


def main() -> int:
    from cardodds import cli

    cli.AS_PROGRAM = True  # the program, as cli.main() makes it, before numba's first import
    from cardodds import _jit

    path = os.environ.get("CARDODDS_COMPILE_LOG")
    if path and not hasattr(_jit, "_install_compile_log"):
        spec = importlib.util.spec_from_file_location("_cardodds_compile_log", LISTENER)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.install(path)
    from cardodds.cli import main as cli

    # As the program a user starts: ``main()`` reads the process's arguments and, in a tree
    # that has them, sets the program's collector thresholds and skips the interpreter's
    # teardown (``cardodds.cli._leave``); ``main(argv)`` is the library call, which does neither.
    sys.argv = ["cardodds", *sys.argv[1:]]
    return cli()


if __name__ == "__main__":
    sys.exit(main())
