"""Numba configuration in one place.

Every compiled function in cardodds is declared with one of these decorators, so the flags
(disk cache, released GIL, bounds checking) are set here and nowhere else:

- :func:`kernel`: a chunk kernel or any compiled function Python calls (``cache=True``,
  ``nogil=True`` so the engine's threads run in parallel).
- :func:`helper`: a compiled function called from other compiled code. Numba links a helper's
  code into every caller and LLVM inlines it where that pays (a short leaf like ``bit`` or
  ``seat_after`` always), so a helper costs one compile however many callers it has.
- :func:`inline`: a helper inlined into each caller at the numba IR level, which LLVM would
  not inline and whose call measured as a loss of speed (Kanalje's table moves, read per card
  in the hot loops). Every call site types and lowers the whole body again, nested inlines
  included: this is most of the compile time of the kernels that use it, so a helper is
  ``inline`` only where the benchmarks show the call costs speed (``before_after.py``). A
  :func:`helper` or :func:`loop` with ``forceinline=True`` is typed and lowered once and
  inlined into every caller by LLVM (``alwaysinline``): Kanalje's ``heuristic_card``, whose
  docstring gives the figures.
- :func:`loop`: a kernel or helper that allocates nothing, compiled without numba's reference
  counting (``_nrt=False``). With it, every array handed to an inlined helper inside a hot loop
  costs a pair of atomic increments and decrements, which measured as three quarters of a
  Kanalje look-ahead decision; without it numba refuses any allocation in the function, so
  "no allocation inside a decision" is checked when compiling. A chunk kernel allocates its
  tables, then calls such a loop.
- ``noalias=True`` (any of the above): the compiled function's array arguments are promised
  to share no memory, so LLVM keeps values read from one in registers across writes to
  another. A chunk's round loop called from plain Python with arrays allocated there measured
  7 to 10% slower without it (LLVM reloaded the random state after every deck write), and as
  fast as a compiled caller allocating them with it. Only for a function no caller can hand
  two views of one array, or an array it also reads through another argument.
- Every kernel and helper is compiled without numba's C-callable wrapper
  (``no_cfunc_wrapper``), which only a function handed to compiled code as a first-class
  function value needs: a user's policy is such a value, and is a :func:`callback`. The
  wrapper was about 5% of a first call's compile CPU (``canasta play`` 6.1-6.2 s against
  5.8-5.9 s, ``kana advise`` 2.4 against 2.3).
- Helpers and loops are compiled without numba's CPython wrapper too (``no_cpython_wrapper``:
  the code that unboxes Python arguments, lowered, optimised and compiled to machine code once
  per function), since compiled callers call their code straight. The Känä and Canasta first
  calls compiled in 0.90 to 0.95 of the CPU seconds (``canasta play`` 9.2 against 8.2 s,
  ``canasta advise`` 8.4 against 7.5; ``canasta hand`` the same), Kanalje's within their scatter
  (medians of 3, ``python benchmarks/compile.py --before TREE --repeats 3 --no-report``, TREE
  the code before). A function a command calls from Python is a :func:`kernel`, or a
  ``loop(from_python=True)``: a call from Python to a compiled-only function (a test, a session
  at the prompt) runs a twin compiled with the wrapper on first use (:class:`_CompiledOnly`), a
  compile no command should wait for (``tests/test_warmup.py`` checks that none does).
- Every function is compiled by :class:`_Compiler`, numba's compiler with its inlining pass
  (``inline="always"``) swapped for :class:`_InlineHelpers`: the same inlined IR, without numba's
  copying of a callee's whole scope once per block, which was about a fifth of the compile CPU
  of Kanalje's first calls. The machine code is the same (``tests/test_core.py``).
- The compiler remembers numba's typing of each call (:func:`_get_call_type`): numba types
  every call anew, trying each template of the function, and a kernel with inlined helpers
  makes thousands of calls to a few hundred functions. Every one-question command's first call
  compiled in 0.72 to 0.95 of the CPU seconds (medians of two per command, ``python
  benchmarks/compile.py --before TREE --no-report --repeats 2``, TREE the code before;
  ``benchmarks/RESULTS_compile.md``). Its SSA reconstruction passes numba's rewrites only the
  blocks where their variable appears (:func:`_run_ssa`): numba's walks every block once per
  variable assigned more than once, a share of a first call too small for the first-call table
  to resolve. Its IR tidying after a pass leaves live variables out (:func:`_postprocess`):
  first calls in 0.80 to 1.01 of the CPU seconds, median 0.91 (``compile.py``). The LLVM IR is the
  same with all three and without (``tests/test_core.py``; ``benchmarks/same_code.py``).
- Once the helpers are inlined, the compiler reads every field of a global named tuple of ints (a
  layout's offsets, ``T.hand`` in ``t[T.hand + seat]``) as the int itself (:class:`_FoldOffsets`):
  numba lowers each read as the whole tuple built anew and one field taken out of it, thousands
  of times in a kernel with inlined helpers, and LLVM folds them all to the same ints. The
  optimised code is the same instructions, its local names renumbered (``tests/test_core.py``;
  every function of four commands: ``benchmarks/same_code.py``). Whole first calls compiled in
  0.87 to 1.15 of the CPU seconds of the code before (medians of two pairs per command, ``python
  benchmarks/compile.py --before TREE --no-report --repeats 2``): no difference at this precision.
- A compiled-only function (a helper or a loop) is compiled into a code library marked as such
  (:func:`_mark_compiled_only`), which its callers link but numba's engine never receives
  (:func:`_finalize_final_module`): numba emitted every function's machine code, and each caller
  linked the function's code, optimised it with its own and emitted it again, so a helper's own
  machine code was never run. Its cache entry is the bitcode its callers link
  (:func:`_serialize`), and a caller sets the environments of the compiled-only code it holds
  (:func:`_get_executable`). The callers link and optimise the same code as before; the
  look-ahead lineup's and ``canasta play``'s first calls compiled in 0.84 and 0.83 of the CPU
  seconds (``compile.py``). Optimising such code only in its callers changes their code, and the
  look-ahead then ran 0.89 times as fast (``benchmarks/RESULTS_speed.md``): not done.
- :func:`inlined` and :func:`linked`: a second compiled form of one function, for the one loop
  where the other form measured faster (Kanalje's ``beats``, ``start_deal``, ``record_deal``):
  one rule, written once.
- :func:`callback`: a function kernels receive as an argument and call through a pointer (a
  numba ``cfunc`` of a fixed signature), e.g. a user's policy: the kernels are compiled, and
  cached, once for the signature, not once per function.
- :class:`Pointer`: one of cardodds' own functions passed to the kernels the same way, compiled
  when a kernel is first called with it. Numba links the code of every compiled callee into its
  caller and optimises and emits the whole again, at every level of a chain of calls: Kanalje's
  look-ahead search, linked into the deal loop, was re-optimised at four levels above it (about
  a third of that first call). Called through a pointer, it is compiled once, beside the loop
  (in a second process, :mod:`cardodds._split`), and a lineup compiles only the searches it has.
  A call through a pointer costs nothing beside a search's thousands of play-outs, nor beside a
  whole play-out: the heuristic lineups' deal loop calling its play-out through a pointer ran as
  fast as with the same play-out linked (1.002 of it, quartiles 0.952 to 1.039,
  ``benchmarks/side_by_side.py``; ``benchmarks/RESULTS_speed.md``), and its first call
  compiles the play-out and the loop in two processes, each once.

The disk cache lives in a folder named by a hash of every source file of the package
(``cardodds-<hash>``; ``cardodds-<hash>-boundscheck`` for the build ``CARDODDS_BOUNDSCHECK=1``
checks): numba checks a cached kernel against its own file only, so a helper changed in another
module would leave its callers' cached code stale, and its cache key leaves out bounds checking
(``docs/developers.md``). ``CARDODDS_COMPILE_LOG=FILE`` logs every compile with its CPU seconds
(:mod:`cardodds._compile_log`; ``benchmarks/compile.py`` sums them kernel by kernel).
"""

from __future__ import annotations

import copy
import hashlib
import os
import tempfile
import types as _pytypes
from pathlib import Path

import llvmlite.binding as _llvm
from numba import _dynfunc, njit  # type: ignore[attr-defined]  # numba's C module of function objects
from numba.core import codegen as _codegen
from numba.core import config as _numba_config
from numba.core import event as _event
from numba.core import cpu as _cpu
from numba.core import ir as _ir
from numba.core import lowering as _lowering
from numba.core import postproc as _postproc
from numba.core import sigutils
from numba.core import ssa as _ssa
from numba.core import transforms as _transforms
from numba.core import types as _types
from numba.core.types import functions as _functions
from numba.core.caching import FunctionCache
from numba.core.ccallback import CFunc
from numba.core.compiler import Compiler, DefaultPassBuilder
from numba.core.compiler_lock import global_compiler_lock
from numba.core.compiler_machinery import FunctionPass, register_pass
from numba.core.inline_closurecall import InlineWorker
from numba.core.ir_utils import build_definitions
from numba.core.registry import CPUDispatcher
from numba.core.types import WrapperAddressProtocol
from numba.core.untyped_passes import InlineInlinables

__all__ = ["BOUNDSCHECK", "CACHE_DIR", "POINTER", "PYTHON_TWIN", "Pointer", "callback", "first_use", "helper", "inline",
           "inlined", "kernel", "linked", "loop", "source_hash"]


def _import_numba_math() -> None:
    """Import numba's NumPy functions (``numba.np.arraymath``, which numba imports before it
    compiles or loads anything) without the scipy import it makes to learn whether BLAS is
    there: that import of ``scipy.linalg`` was part of every command's start-up (its seconds
    are in ``benchmarks/RESULTS_program.md``), and the answer only picks how ``np.convolve``
    sums (BLAS or a loop). cardodds compiles neither, and ``np.dot`` and numba's other linear
    algebra import scipy themselves when a function using them compiles, so a session's own
    numba code loses nothing. Skipped when scipy's BLAS is already imported."""
    import sys

    blas = "scipy.linalg.cython_blas"
    if blas in sys.modules:
        return
    sys.modules[blas] = None  # type: ignore[assignment]  # None: "cannot be imported"
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(blas, "") is None:
            del sys.modules[blas]


_import_numba_math()

#: Compile with bounds checking (``CARDODDS_BOUNDSCHECK=1``); off by default for speed.
BOUNDSCHECK: bool = os.environ.get("CARDODDS_BOUNDSCHECK", "") not in ("", "0")


def source_hash(root: Path) -> str:
    """A hash of every ``.py`` file under ``root`` (names and contents): the cache's key.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a.py").write_text("x = 1")
    ...     before = source_hash(Path(d))
    ...     _ = (Path(d) / "a.py").write_text("x = 2")
    ...     before != source_hash(Path(d))
    True
    """
    digest = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _cache_base(package: Path) -> str:
    """Where the cache folders go: ``$NUMBA_CACHE_DIR``, else the package's ``__pycache__``
    when it can be written (where numba would cache), else the system's temporary directory."""
    # numba sets its config attributes at run time: a type checker does not see CACHE_DIR
    given = _numba_config.CACHE_DIR  # type: ignore[attr-defined]
    if given:
        return given
    pycache = package / "__pycache__"
    try:
        pycache.mkdir(exist_ok=True)
        if os.access(pycache, os.W_OK):
            return str(pycache)
    except OSError:
        pass
    return os.path.join(tempfile.gettempdir(), f"cardodds-numba-{os.getuid() if hasattr(os, 'getuid') else 0}")


_PACKAGE = Path(__file__).resolve().parent
#: The folder of this source tree's compiled kernels (read by numba when a cached function is
#: declared, which happens only after this module runs).
CACHE_DIR = os.path.join(_cache_base(_PACKAGE),
                         f"cardodds-{source_hash(_PACKAGE)}" + ("-boundscheck" if BOUNDSCHECK else ""))
_numba_config.CACHE_DIR = CACHE_DIR  # type: ignore[attr-defined]


if os.environ.get("CARDODDS_COMPILE_LOG"):
    from ._compile_log import install as _install_compile_log

    _install_compile_log(os.environ["CARDODDS_COMPILE_LOG"])


def _one_signature(dispatcher):
    """``dispatcher``, typed from compiled callers without literal arguments: numba would
    otherwise compile a helper once more for every constant a caller passes (``f(t, 0)`` and
    ``f(t, seat)`` are two signatures, each a full compile and a cache entry)."""
    template = dispatcher.get_call_template

    def get_call_template(args, kws):
        return template(tuple(_types.unliteral(a) for a in args), {k: _types.unliteral(v) for k, v in kws.items()})

    dispatcher.get_call_template = get_call_template
    return dispatcher


#: How many cardodds compiles are running (nested: a caller's typing compiles its callees); the
#: typing memo and the SSA shortcut serve them (and numba's own helpers they compile) only, so a
#: session's own numba code is compiled as numba compiles it.
_compiling = 0
#: Numba's typing of a call to a global function or operator, by (function type, typing context,
#: argument types, keyword types): :func:`_get_call_type`.
_call_types: dict = {}
_numba_get_call_type = _functions.BaseFunction.get_call_type


def _get_call_type(self, context, args, kws):
    """Numba's ``BaseFunction.get_call_type``, remembered. Numba types every call anew: it tries
    the function's templates in turn, most of which fail for the given types and build an error
    message first, and a kernel with inlined helpers has thousands of calls to a few hundred
    functions of a few argument types (compiling ``play_heuristic_until`` and the two functions
    it calls types 2,853 calls, 146 of them distinct). The answer depends only on the key: a
    function type holds its templates (one registered later makes a new type, a new key), and
    numba keeps the implementation it chose on the type (``_impl_keys``), where lowering finds
    it however the signature was got; numba remembers its overload and intrinsic templates'
    answers by the same key. A call that fails to type is not remembered. A compile that no
    cardodds compile started (a session's own numba code) goes straight to numba."""
    if not _compiling:
        return _numba_get_call_type(self, context, args, kws)
    try:
        key = (self, context, tuple(args), tuple(sorted(kws.items())))
        sig = _call_types.get(key)
    except TypeError:  # an unhashable type: numba's answer, not remembered
        return _numba_get_call_type(self, context, args, kws)
    if sig is None:
        sig = _call_types[key] = _numba_get_call_type(self, context, args, kws)
    return sig


_functions.BaseFunction.get_call_type = _get_call_type  # type: ignore[method-assign]  # numba's method, replaced


#: For each SSA reconstruction running (:func:`_run_ssa`): the blocks each variable appears in.
_ssa_mentions: list = []
_numba_run_ssa = _ssa._run_ssa
_numba_run_block_rewrite = _ssa._run_block_rewrite


def _run_ssa(blocks):
    """Numba's SSA reconstruction (``numba.core.ssa._run_ssa``), which rewrites the function
    once for each variable assigned more than once, and each time passes every statement of
    every block to its handlers: with inlined helpers, a hundred such variables and thousands of
    blocks. A block where the variable does not appear comes out of either rewrite unchanged
    (its statements, in its order; no definition to rename, no use to point at one, no phi
    node asked for), so :func:`_run_block_rewrite` copies it as it is and passes only the
    others, in numba's order: the same blocks, the same new names. A compile that no cardodds
    compile started goes straight to numba."""
    if not _compiling or not blocks:
        return _numba_run_ssa(blocks)
    mentions: dict = {}
    for label, block in blocks.items():
        for stmt in block.body:
            for var in stmt.list_vars():
                mentions.setdefault(var.name, set()).add(label)
    _ssa_mentions.append(mentions)
    try:
        return _numba_run_ssa(blocks)
    finally:
        _ssa_mentions.pop()


def _run_block_rewrite(blocks, states, handler):
    """Numba's rewrite of every block for one variable (``states["varname"]``), passing only the
    blocks where it appears (:func:`_run_ssa`). A variable's fresh names never appear before its
    own rewrite, so the blocks found at the start hold for every variable."""
    if not _ssa_mentions or "varname" not in states:
        return _numba_run_block_rewrite(blocks, states, handler)
    labels = _ssa_mentions[-1].get(states["varname"], ())
    rewritten = {}
    for label, block in blocks.items():
        if label in labels:
            rewritten.update(_numba_run_block_rewrite({label: block}, states, handler))
        else:
            same = _ir.Block(scope=block.scope, loc=block.loc)
            same.body = list(block.body)
            rewritten[label] = same
    return rewritten


_ssa._run_ssa = _run_ssa
_ssa._run_block_rewrite = _run_block_rewrite

_numba_postprocess = _postproc.PostProcessor.run


def _postprocess(self, emit_dels=False, extend_lifetimes=False):
    """Numba's tidying of the IR after a pass (``PostProcessor.run``), for a cardodds function
    without the variables live at each block's entry, which numba worked out after every pass
    (611 times in the look-ahead lineup's first call, a tenth of its compile CPU) and only object
    mode and generators read. A run placing deletions (lowering's) is numba's own."""
    func_ir = self.func_ir
    if emit_dels or func_ir.is_generator or func_ir.func_id.modname.partition(".")[0] != "cardodds":
        return _numba_postprocess(self, emit_dels, extend_lifetimes)
    func_ir.blocks = _transforms.canonicalize_cfg(func_ir.blocks)
    func_ir.variable_lifetime = _postproc.VariableLifetime(func_ir.blocks)
    return None


_postproc.PostProcessor.run = _postprocess  # type: ignore[method-assign]


#: The cache's name for the code of a compiled-only function (:func:`_serialize`): the bitcode
#: its callers link, without machine code.
_LINKED_CODE = "cardodds-linked-code"


def _is_compiled_only(library) -> bool:
    return getattr(library, "_cardodds_compiled_only", False)


def _mark_compiled_only(state) -> None:
    """Give a compile of a compiled-only function (no CPython wrapper, no C wrapper: a helper or
    a loop, which only compiled callers call) a code library marked as such, where numba would
    make a plain one when it lowers."""
    flags = state.flags
    if state.library is None and flags.no_cpython_wrapper and flags.no_cfunc_wrapper:
        # no object caching, as numba enables for its own: no machine code is ever made to cache
        state.library = state.targetctx.codegen().create_library(state.func_id.func_qualname)
        state.library._cardodds_compiled_only = True


_numba_finalize_final_module = _codegen.CPUCodeLibrary._finalize_final_module
_numba_get_executable = _cpu.CPUContext.get_executable
_numba_serialize = _codegen.CPUCodeLibrary.serialize_using_object_code
_numba_unserialize = _codegen.CPUCodeLibrary._unserialize.__func__  # type: ignore[attr-defined]
_numba_set_env = _codegen.JITCPUCodegen.set_env


def _finalize_final_module(self):
    """Numba adds every compiled function's code to its engine and emits its machine code, and a
    caller links the function's code into its own, optimises it again and emits it again: a
    compiled-only function's own machine code is never run (its callers run their copy, and
    Python calls its twin, :class:`_CompiledOnly`). It is kept out of the engine: its code is
    ready to link, and its callers' code defines its symbols."""
    if not _is_compiled_only(self):
        return _numba_finalize_final_module(self)
    self._finalize_dynamic_globals()
    self._verify_declare_only_symbols()
    self._finalized = True


def _get_executable(self, library, fndesc, env):
    """Numba's ``CPUContext.get_executable``. For a compiled-only function, the function object
    numba keeps, without an address (a compiled-only function has no CPython wrapper, so numba's
    address is 0 too) and without setting its environment, which has no symbol. For any other,
    numba's, and the environments of the compiled-only functions its code holds are set too:
    numba set them when it emitted those functions' own code."""
    if _is_compiled_only(library):
        return _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                      f"compiled-only code of {fndesc.qualname!r}", 0, env, (library,))
    done = _numba_get_executable(self, library, fndesc, env)
    for gv in library._final_module.global_variables:
        held = _lowering.Environment._memo.get(gv.name)
        if held is not None and held is not env:
            library.codegen.set_env(gv.name, held)
    return done


def _serialize(self):
    """A compiled-only function's cache entry: the bitcode its callers link, without machine code."""
    if not _is_compiled_only(self):
        return _numba_serialize(self)
    self._ensure_finalized()
    return self.name, _LINKED_CODE, self._get_module_for_linking().as_bitcode()


def _unserialize(cls, codegen, state):
    name, kind, data = state
    if kind != _LINKED_CODE:
        return _numba_unserialize(cls, codegen, state)
    library = codegen.create_library(name)
    library._cardodds_compiled_only = True
    library._final_module = library._shared_module = _llvm.parse_bitcode(data)
    library._finalized = True
    return library


def _set_env(self, env_name, env):
    """Numba's ``set_env``, for an environment with a symbol in the engine. A compiled-only
    function's code loaded from the cache names the environments it uses (its own and its
    callees'), which have none: each caller's code sets them when it is emitted
    (:func:`_get_executable`)."""
    if self._engine.get_global_value_address(env_name):
        _numba_set_env(self, env_name, env)


_codegen.CPUCodeLibrary._finalize_final_module = _finalize_final_module  # type: ignore[method-assign]
_cpu.CPUContext.get_executable = _get_executable  # type: ignore[method-assign]
_codegen.CPUCodeLibrary.serialize_using_object_code = _serialize  # type: ignore[method-assign]
_codegen.CPUCodeLibrary._unserialize = classmethod(_unserialize)  # type: ignore[method-assign,assignment]
_codegen.JITCPUCodegen.set_env = _set_env  # type: ignore[method-assign]


def _numbas_own_passes() -> None:
    """Put numba's own call typing, SSA reconstruction and IR tidying back in this process, in
    place of the memo and the shortcuts (the same-code checks: ``tests/test_core.py``,
    ``benchmarks/same_code.py``)."""
    _functions.BaseFunction.get_call_type = _numba_get_call_type  # type: ignore[method-assign]
    _ssa._run_ssa = _numba_run_ssa
    _ssa._run_block_rewrite = _numba_run_block_rewrite
    _postproc.PostProcessor.run = _numba_postprocess  # type: ignore[method-assign]


class _FreshBlock(_ir.Block):
    """A block of a callee's IR built for one call site, which numba's inliner deep-copies
    block by block before it splices the copy in. A plain deep copy of one block copies the
    whole scope its variables point to (every variable of the callee) and the source lines
    each location caches: copying the blocks of Kanalje's table moves so took about a fifth of
    the compile CPU of ``kanalje risk``. This copy shares the scope and the locations, as numba's
    own copies of a variable or a constant share their location. The inliner copies the blocks
    twice; the blocks it splices in are plain blocks again (:meth:`_InlineWorker.inline_ir`)."""

    def __deepcopy__(self, memo):
        memo[id(self.scope)] = self.scope
        for stmt in self.body:
            for loc in (stmt.loc, getattr(getattr(stmt, "value", None), "loc", None)):
                if isinstance(loc, _ir.Loc):
                    memo[id(loc)] = loc
        block = _FreshBlock(self.scope, self.loc)
        block.body = copy.deepcopy(self.body, memo)
        return block


class _InlineWorker(InlineWorker):
    """Numba's inliner, its callees' IR built by :func:`_untyped_pipeline` with blocks cheap to copy."""

    def __init__(self, *args, **kws):
        super().__init__(*args, **kws)
        self._compiler_pipeline = _untyped_pipeline

    def run_untyped_passes(self, func, enable_ssa=False):
        callee_ir = super().run_untyped_passes(func, enable_ssa)
        for block in callee_ir.blocks.values():
            block.__class__ = _FreshBlock
        return callee_ir

    def inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
        done = super().inline_ir(caller_ir, block, i, callee_ir, callee_freevars, arg_typs)
        _original, _blocks, _renames, new_blocks = done
        for _, spliced in new_blocks:  # a later deep copy of the caller copies these in full
            spliced.__class__ = _ir.Block
        return done


@register_pass(mutates_CFG=True, analysis_only=False)
class _InlineHelpers(InlineInlinables):
    """Numba's pass inlining ``inline="always"`` functions (:func:`inline`), through
    :class:`_InlineWorker`: the same IR, without the copying that cost a fifth of a first call."""

    _name = "cardodds_inline_helpers"

    def _do_work(self, state, work_list, block, i, expr, inline_worker):
        worker = _InlineWorker(state.typingctx, state.targetctx, state.locals, state.pipeline, state.flags)
        return super()._do_work(state, work_list, block, i, expr, worker)


#: Whether :class:`_FoldOffsets` folds; off, numba reads the tuples itself (the same-code checks,
#: ``tests/test_core.py`` and ``benchmarks/same_code.py``, set it to False).
_fold_offsets = True


def _is_offsets(value) -> bool:
    """A named tuple of ints: a layout's offsets (``cardodds.layout.Layout.at``)."""
    return isinstance(value, tuple) and hasattr(value, "_fields") and all(type(v) is int for v in value)


@register_pass(mutates_CFG=False, analysis_only=False)
class _FoldOffsets(FunctionPass):
    """Every read of a field of a global named tuple of ints (a layout's offsets, ``T.hand`` in
    ``t[T.hand + seat]``) replaced by the int it reads. Numba freezes such a tuple as a constant,
    but lowers each read as the whole tuple built anew (every field of a table of 37, say) and
    one field taken out of it: thousands of reads in a kernel with inlined helpers, which LLVM
    then folds to the same int. A tuple no longer read after the folding is not loaded at all; a
    name assigned more than once is left to numba. The machine code is the same
    (``tests/test_core.py``)."""

    _name = "cardodds_fold_offsets"

    def __init__(self):
        FunctionPass.__init__(self)

    def run_pass(self, state):
        if not _fold_offsets:
            return False
        blocks = state.func_ir.blocks.values()
        # before SSA a name may be assigned more than once (``x = T`` on one branch, another
        # tuple on the other): only a name assigned once surely holds the tuple where it is read
        definitions = build_definitions(state.func_ir.blocks)
        tuples = {stmt.target.name: stmt.value.value for block in blocks for stmt in block.body
                  if isinstance(stmt, _ir.Assign) and isinstance(stmt.value, (_ir.Global, _ir.FreeVar))
                  and _is_offsets(stmt.value.value) and len(definitions[stmt.target.name]) == 1}
        if not tuples:
            return False
        folded = False
        for block in blocks:
            for stmt in block.body:
                expr = stmt.value if isinstance(stmt, _ir.Assign) else None
                if isinstance(expr, _ir.Expr) and expr.op == "getattr" and expr.value.name in tuples \
                        and expr.attr in tuples[expr.value.name]._fields:
                    stmt.value = _ir.Const(getattr(tuples[expr.value.name], expr.attr), expr.loc)
                    folded = True
        if not folded:
            return False
        read = {var.name for block in blocks for stmt in block.body
                if not (isinstance(stmt, _ir.Assign) and stmt.target.name in tuples) for var in stmt.list_vars()}
        for block in blocks:
            block.body = [stmt for stmt in block.body if not (
                isinstance(stmt, _ir.Assign) and stmt.target.name in tuples and stmt.target.name not in read)]
        state.func_ir._definitions = build_definitions(state.func_ir.blocks)
        return True


def _with_inline_helpers(pm):
    """Numba's pipeline ``pm`` inlining through :class:`_InlineHelpers`, and folding offsets
    (:class:`_FoldOffsets`) once the helpers' IR is in."""
    passes = []
    for cls, text in pm.passes:
        passes.append((_InlineHelpers if cls is InlineInlinables else cls, text))
        if cls is InlineInlinables:
            passes.append((_FoldOffsets, "read offsets as ints"))
    pm.passes = passes
    pm.finalize()
    return pm


def _untyped_pipeline(state, name="untyped"):
    return _with_inline_helpers(DefaultPassBuilder.define_untyped_pipeline(state, name))


class _Compiler(Compiler):
    """Numba's compiler, inlining through :class:`_InlineHelpers` and typing calls through the
    memo (:func:`_get_call_type`); every cardodds function is compiled by it (or by
    :class:`_NoAliasCompiler`)."""

    def define_pipelines(self):
        return [_with_inline_helpers(pm) for pm in super().define_pipelines()]

    def _compile_core(self):
        global _compiling
        _compiling += 1  # under numba's compiler lock, as every compile is
        _mark_compiled_only(self.state)
        try:
            return super()._compile_core()
        finally:
            _compiling -= 1


class _NoAliasCompiler(_Compiler):
    """The compiler with numba's ``noalias`` flag set (``noalias=True`` above): numba has the
    flag but no decorator option for it, while a pipeline class is one."""

    def __init__(self, typingctx, targetctx, library, args, return_type, flags, locals):
        flags = flags.copy()
        flags.noalias = True
        super().__init__(typingctx, targetctx, library, args, return_type, flags, locals)


def _flags(extra: dict) -> dict:
    extra["pipeline_class"] = _NoAliasCompiler if extra.pop("noalias", False) else _Compiler
    return extra


def _called_flags(extra: dict) -> dict:
    """The flags of a function compiled on its own and called (:func:`kernel`, :func:`helper`)."""
    return {"cache": True, "nogil": True, "boundscheck": BOUNDSCHECK, "no_cfunc_wrapper": True, **_flags(extra)}


def kernel(fn=None, **extra):
    """Decorator for compiled kernels: ``cache=True, nogil=True`` (and ``boundscheck`` in debug)."""
    flags = _called_flags(extra)
    if fn is None:
        return lambda f: _one_signature(njit(**flags)(f))
    return _one_signature(njit(**flags)(fn))


#: The name suffix of a compiled-only function's twin for calls from Python: the twin's cache
#: entries and compile-log lines carry it.
PYTHON_TWIN = "_from_python"


def _renamed(f, suffix: str):
    """``f`` under the qualified name ``f.__qualname__ + suffix``: numba names a function's cache
    entries by it, and its cache key holds no compile flags, so each compiled form of one Python
    function needs a name of its own, or one form loads another's code (a form without the
    CPython wrapper, called from Python, crashes the process)."""
    g = _pytypes.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__qualname__, g.__module__, g.__doc__ = f.__qualname__ + suffix, f.__module__, f.__doc__
    return g


class _CompiledOnly(CPUDispatcher):
    """A function compiled without numba's CPython wrapper (``no_cpython_wrapper``), for
    compiled callers only, which call its code straight. A call from Python goes to its twin:
    the same function compiled with the wrapper, cached under a name of its own
    (:data:`PYTHON_TWIN`), because numba's cache key holds no compile flags and a twin sharing
    the function's cache entries would load code without a wrapper, which Python cannot call."""

    def __call__(self, *args, **kws):
        twin = self.__dict__.get("_python_twin")
        if twin is None:
            twin = _one_signature(njit(**self.__dict__["_cardodds_flags"])(_renamed(self.py_func, PYTHON_TWIN)))
            self.__dict__["_python_twin"] = twin
        return twin(*args, **kws)


def _compiled_only(flags: dict):
    def build(fn):
        targetoptions = {k: v for k, v in flags.items() if k not in ("cache", "pipeline_class")}
        disp = _CompiledOnly(py_func=fn, locals={}, targetoptions=dict(targetoptions, no_cpython_wrapper=True),
                             pipeline_class=flags["pipeline_class"])
        disp.__dict__["_cardodds_flags"] = flags
        if flags.get("cache"):
            disp.enable_caching()
        return _one_signature(disp)
    return build


def helper(fn=None, **extra):
    """Decorator for compiled helpers, called from compiled code only (no CPython wrapper)."""
    flags = _called_flags(extra)
    return _compiled_only(flags) if fn is None else _compiled_only(flags)(fn)


def loop(fn=None, *, from_python=False, **extra):
    """Decorator for compiled code that allocates nothing: no reference counting (see above).
    Called from compiled code only, unless ``from_python`` (a plain-Python chunk kernel's loop)."""
    return (kernel if from_python else helper)(fn, _nrt=False, **extra)


def inline(fn=None, **extra):
    """Decorator for helpers inlined into every caller at the numba IR level (``inline="always"``)."""
    flags = {"cache": True, "inline": "always", "boundscheck": BOUNDSCHECK, **_flags(extra)}
    return njit(**flags) if fn is None else njit(**flags)(fn)


def inlined(dispatcher):
    """A second compiled form of a ``@helper`` or ``@loop`` function: the same Python function
    inlined at numba's IR level (:func:`inline`), for the one hot loop where its call measured
    as a loss of speed; every other caller keeps the call, compiled once. Cached under a name
    of its own (:func:`_renamed`)."""
    return inline(_renamed(dispatcher.py_func, "_inlined"))


def linked(dispatcher):
    """A second compiled form of an ``@inline`` function: the same Python function compiled on
    its own and linked (:func:`helper`), for a loop where LLVM's code of the call measured faster.
    Cached under a name of its own (:func:`_renamed`)."""
    return helper(_renamed(dispatcher.py_func, "_linked"))


def callback(signature, **extra):
    """Decorator compiling a function (or an ``@njit`` dispatcher) to a ``cfunc`` of ``signature``:
    numba's ``cfunc`` decorator (``cache=True`` unless told otherwise), its compile logged
    (:class:`_LoggedCFunc`)."""
    cache = extra.pop("cache", True)
    sig = sigutils.normalize_signature(signature)

    def compile_callback(fn):
        res = _LoggedCFunc(fn, sig, locals={}, options=extra)
        if cache:
            res.enable_caching()
        res.compile()
        return res

    return compile_callback


def first_use(module: str, **build):
    """A module's ``__getattr__`` that makes each name of ``build`` (a function of no arguments
    returning its value) on the name's first use and keeps it in the module ``module``: a
    callback compiled, or loaded from the cache, by the runs that use it, not at import, which
    every command of the game waits for (and on an empty cache before its second process starts,
    :mod:`cardodds._split`)."""
    import sys

    def __getattr__(name):
        if name not in build:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        value = build[name]()
        setattr(sys.modules[module], name, value)
        return value

    return __getattr__


#: The name suffix of a function's form called through a pointer (:class:`Pointer`): its cache
#: entries and compile-log lines carry it.
POINTER = "_pointer"


class _LoggedCFunc(CFunc):
    """Numba's ``cfunc``, its compile announced as a dispatcher's is (``numba:compile``), so the
    compile log (``CARDODDS_COMPILE_LOG``) counts it; a load from the cache announces nothing.
    Numba optimises the linked code of a ``cfunc`` and emits its machine code only when it
    first saves it to the cache or calls it (a dispatcher's, while it compiles): here that is
    done inside the announcement, so the log counts it too (about a second of a Kanalje
    search's compile)."""

    def _compile_uncached(self):
        fn = getattr(self._pyfunc, "py_func", self._pyfunc)
        data = {"dispatcher": _pytypes.SimpleNamespace(py_func=fn), "args": self._sig.args}
        with _event.trigger_event("numba:compile", data=data):
            done = super()._compile_uncached()
            done.library.finalize()
        return done


_POINTERS: dict = {}


class Pointer(WrapperAddressProtocol):
    """``fn`` (a compiled-only ``@loop``, or a plain function) as a kernel's argument of numba's
    first-class function type ``FunctionType(signature)``: the kernels call it through a pointer.
    It is compiled to a ``cfunc`` without reference counting (or loaded from the cache, under the
    name suffix :data:`POINTER`) when a kernel is first called with it, not at import, and once
    per process. It pickles by its function's module and name (a Dask worker compiles or loads
    it there)."""

    def __init__(self, fn, signature):
        # numba types an object of this protocol as a FunctionType once this module is imported
        import numba.experimental.function_type  # noqa: F401

        self.fn = getattr(fn, "py_func", fn)
        self.sig = signature

    def __reduce__(self):
        return (_pointer_to, (self.fn.__module__, self.fn.__qualname__, self.sig))

    def __repr__(self):
        return f"Pointer({self.fn.__module__}.{self.fn.__qualname__})"

    def signature(self):
        return self.sig

    def _key(self):
        return self.fn.__module__, self.fn.__qualname__

    def _renamed(self):
        return _renamed(self.fn, POINTER)

    @property
    def _cache(self):
        """Numba's cache of the compiled form (where :mod:`cardodds._split` finds whether it is cached)."""
        return FunctionCache(self._renamed())

    def compile(self, args=None) -> CFunc:
        """The compiled ``cfunc`` (``args``, the signature's argument types, are taken as given)."""
        with global_compiler_lock:  # the engine's threads call a kernel with it at once
            hit = _POINTERS.get(self._key())
            if hit is None:
                options = {"nopython": True, "nogil": True, "boundscheck": BOUNDSCHECK, "_nrt": False}
                hit = _LoggedCFunc(self._renamed(), sigutils.normalize_signature(self.sig), locals={},
                                   options=options, pipeline_class=_Compiler)
                hit.enable_caching()
                hit.compile()
                _POINTERS[self._key()] = hit
        return hit

    def __wrapper_address__(self):
        return self.compile(self.sig.args).address


def _pointer_to(module: str, qualname: str, signature) -> Pointer:
    import importlib

    return Pointer(getattr(importlib.import_module(module), qualname), signature)
