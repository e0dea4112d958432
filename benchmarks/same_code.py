"""Whether cardodds' compiler shortcuts change the compiled code: a command's every function, as
numba types it and as cardodds does.

    python benchmarks/same_code.py kanalje risk --policies lookahead,heuristic,heuristic --samples 50 --seed 1

Runs the command twice, each in a fresh interpreter with an empty numba cache, as a library call
(``cardodds.cli.main(argv)``, so every kernel compiles in that process): once as cardodds compiles
(``cardodds._compiler``: remembering numba's typing of each call, ``memo``; tidying the IR
after a pass without working out the variables live at each block, ``tidy``), once without them
(``CARDODDS_COMPILER_WITHOUT``).
Then compares the optimised LLVM IR of every cardodds function compiled, after renaming the
per-process numbers numba puts into names (``B3v32B``, ``_v45_``: the order of compiling can shift them) and every
function's local names in the order they first appear (LLVM numbers the values and blocks it
makes by counters that count the instructions it folded away), dropping the pickled error
messages that quote those names and the declarations of a numba helper's environment that
nothing in the function reads (:func:`_normal`): the same text is the same instructions. A
function loaded from the cache in its own process (a second form of one function) has no IR to
compare and is counted apart. ``tests/test_core.py`` checks three functions' IR as exact text
with and without the typing memo and the tidying shortcut.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile

_CHILD = r"""
import contextlib, gc, io, json, sys, warnings
from cardodds import _jit
from cardodds.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(sys.argv[3:])
if status:
    sys.exit(status)
from numba.core.registry import CPUDispatcher
out = {}
warnings.simplefilter("ignore")  # numba warns that a function loaded from the cache has no IR
for obj in gc.get_objects():
    if isinstance(obj, CPUDispatcher) and obj.py_func.__module__.startswith("cardodds"):
        for sig, text in obj.inspect_llvm().items():
            out[f"{obj.py_func.__module__}.{obj.py_func.__qualname__}{sig}"] = text
for fn in _jit._POINTERS.values():
    out["pointer " + fn.__qualname__] = fn.inspect_llvm()
with open(sys.argv[2], "w") as f:
    json.dump(out, f)
"""


#: The replacements that change numba's IR on the way and must leave the same code.
_SHORTCUTS = "memo,tidy"
_ENV = re.compile(r"^@(_ZN08NumbaEnv\S+) = common local_unnamed_addr global ptr null$")
#: A function's local name: a value or a block label used (``%name``) or a label defined (``name:``).
_LOCAL = re.compile(r'%(?:"[^"]*"|[-\w.$]+)|^(?:"[^"]*"|[-\w.$]+):', re.M)


def _local_names_in_order(text: str) -> str:
    """``text`` with each function's local names renamed ``v0``, ``v1``, ... in the order they
    first appear in it (global names, ``@...``, as they are), and a block label's comment one
    space after it (LLVM pads it to a column, after the label's old name)."""
    out: list[str] = []
    function: list[str] = []

    def renamed() -> None:
        names: dict[str, str] = {}

        def new(m: re.Match) -> str:
            tok = m.group(0)
            used = tok.startswith("%")
            name = names.setdefault(tok[1:] if used else tok[:-1], f"v{len(names)}")
            return "%" + name if used else name + ":"

        out.append(_LOCAL.sub(new, "\n".join(function)))
        function.clear()

    for line in text.splitlines():
        if line.startswith("define "):
            renamed()
        function.append(line)
        if line == "}":
            renamed()
    renamed()
    return re.sub(r"^(\S+:) +;", r"\1 ;", "\n".join(part for part in out if part), flags=re.M)


def _normal(text: str) -> str:
    """The IR with numba's per-process numbers in names renamed, without the pickled messages that
    quote those names, and without declarations of a numba environment that nothing in the
    function uses: typing a call to a numba helper (``min``) anew can declare the helper's
    environment in the caller's module, where nothing reads it (an 8-byte ``.comm`` symbol, the
    same instructions); then every function's local names in order
    (:func:`_local_names_in_order`)."""
    text = "\n".join(line for line in text.splitlines()
                     if not ((m := _ENV.match(line)) and text.count(m.group(1)) == 1))
    text = re.sub(r"B\d+v\d+B", "BvB", text)
    text = re.sub(r"_v\d+_", "_v_", text)
    text = re.sub(r"(pickledata|picklebuf)\.[0-9a-f]{40}", r"\1", text)
    text = "\n".join(line for line in text.splitlines() if not ("pickledata" in line and "constant" in line))
    return _local_names_in_order(text)


def compiled(mode: str, argv: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix="cardodds-numba-") as cache:
        out = os.path.join(cache, "ir.json")
        env = dict(os.environ, NUMBA_CACHE_DIR=cache, CARDODDS_COMPILER_WITHOUT=_SHORTCUTS if mode == "numba" else "")
        done = subprocess.run([sys.executable, "-c", _CHILD, mode, out, *argv], env=env, capture_output=True,
                              text=True)
        if done.returncode != 0:  # the command's own message (bad arguments, say), and status 2
            print(done.stderr.strip()[-600:], file=sys.stderr)
            raise SystemExit(2)
        with open(out) as f:
            return json.load(f)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    ours, numbas = compiled("cardodds", argv), compiled("numba", argv)
    same, differ, no_ir = 0, [], 0
    for name in sorted(set(ours) & set(numbas)):
        a, b = ours[name], numbas[name]
        if "Inspection disabled" in a or "Inspection disabled" in b or len(a) < 500 or len(b) < 500:
            no_ir += 1
        elif _normal(a) == _normal(b):
            same += 1
        else:
            differ.append(name)
    apart = sorted(set(ours) ^ set(numbas))
    print(f"cardodds {' '.join(argv)}: {same} functions the same, {len(differ)} different, "
          f"{no_ir} without IR to compare, {len(apart)} compiled in one run only")
    for name in differ + apart:
        print("  ", name[:160])
    return 1 if differ or apart else 0


if __name__ == "__main__":
    sys.exit(main())
