"""Numba's compiler, with the replacements that shorten cardodds' first calls.

Each replacement of a numba internal is in force only while numba compiles or loads one of
cardodds' own functions (:func:`scope`): a session's own numba code compiles, caches and runs as
it would without cardodds. Each earns its place by the first-call compile CPU it saves
(``benchmarks/replacements.py``, ``benchmarks/RESULTS_replacements.md``):

- ``inline``: numba's ``inline="always"`` pass, without copying a callee's whole scope and source
  lines once per block it splices in (:class:`_InlineHelpers`); the same IR.
- ``memo``: numba's typing of a call, remembered by its key (:func:`_get_call_type`): numba tries
  every template anew at each of thousands of calls to a few hundred functions.
- ``tidy``: the IR tidying after a pass, without the live-variable analysis that only object
  mode and generators read (:func:`_postprocess`).
- ``compiled_only``: a helper's or a loop's code is linked into its callers and never emitted on
  its own (:class:`_CompiledOnlyLibrary`): numba emitted it, and each caller emitted it again.

The same LLVM IR with and without them: ``tests/test_core.py``. They rest on numba's private
internals, so they are used only on the numba versions tested (:data:`TESTED`) whose internals
are those expected (:func:`_missing`). Elsewhere, or with ``CARDODDS_COMPILER=numba``, cardodds
compiles with numba's own compiler and says so once on stderr. ``CARDODDS_COMPILER_WITHOUT=a,b``
leaves replacements out (the benchmark's switch).
"""

from __future__ import annotations

import contextlib
import copy
import inspect
import os
import sys

import llvmlite.binding as _llvm
import numba
from numba import _dynfunc  # type: ignore[attr-defined]  # numba's C module of function objects
from numba.core import codegen as _codegen
from numba.core import cpu as _cpu
from numba.core import ir as _ir
from numba.core import lowering as _lowering
from numba.core import postproc as _postproc
from numba.core import transforms as _transforms
from numba.core.compiler import Compiler
from numba.core.compiler_machinery import register_pass
from numba.core.inline_closurecall import InlineWorker
from numba.core.types import functions as _functions
from numba.core.untyped_passes import InlineInlinables

#: The replacements, by the names ``CARDODDS_COMPILER_WITHOUT`` takes.
REPLACEMENTS = ("inline", "memo", "tidy", "compiled_only")
#: The first and the last minor version of numba the replacements are tested on (CI runs both).
TESTED = ((0, 59), (0, 68))

#: What each replacement reads of numba: (object, attribute, its parameters or None).
_NEEDS = {
    "inline": ((InlineWorker, "run_untyped_passes", ("self", "func", "enable_ssa")),
               (InlineWorker, "inline_ir", ("self", "caller_ir", "block", "i", "callee_ir", "callee_freevars",
                                            "arg_typs")),
               (InlineInlinables, "_do_work", ("self", "state", "work_list", "block", "i", "expr", "inline_worker"))),
    "memo": ((_functions.BaseFunction, "get_call_type", ("self", "context", "args", "kws")),),
    "tidy": ((_postproc.PostProcessor, "run", ("self", "emit_dels", "extend_lifetimes")),
             (_transforms, "canonicalize_cfg", None), (_postproc, "VariableLifetime", None)),
    "compiled_only": ((_codegen, "JITCodeLibrary", None),
                      (_codegen.CPUCodeLibrary, "_finalize_final_module", ("self",)),
                      (_codegen.CPUCodeLibrary, "_finalize_dynamic_globals", ("self",)),
                      (_codegen.CPUCodeLibrary, "_verify_declare_only_symbols", ("self",)),
                      (_codegen.CPUCodeLibrary, "_get_module_for_linking", ("self",)),
                      (_codegen.CPUCodeLibrary, "serialize_using_object_code", ("self",)),
                      (_codegen.CPUCodeLibrary, "_unserialize", ("codegen", "state")),
                      (_codegen.JITCPUCodegen, "set_env", ("self", "env_name", "env")),
                      (_cpu.CPUContext, "get_executable", ("self", "library", "fndesc", "env")),
                      (_lowering.Environment, "_memo", None)),
}


def _missing(name: str) -> str | None:
    """What replacement ``name`` needs of numba and this numba lacks (None: nothing)."""
    for owner, attr, params in _NEEDS[name]:
        value = getattr(owner, attr, None)
        if value is None:
            return f"{getattr(owner, '__name__', owner)}.{attr}"
        if params is not None and tuple(inspect.signature(value).parameters) != params:
            return f"{getattr(owner, '__name__', owner)}.{attr}{inspect.signature(value)}"
    return None


def _choose() -> tuple[frozenset, str | None]:
    """The replacements in force, and why cardodds compiles with numba's own compiler (None: it does not)."""
    if os.environ.get("CARDODDS_COMPILER", "") == "numba":
        return frozenset(), "CARDODDS_COMPILER=numba"
    version = tuple(int(p) for p in numba.__version__.split(".")[:2] if p.isdigit())
    if not TESTED[0] <= version <= TESTED[1]:
        return frozenset(), (f"numba {numba.__version__} is outside the versions its compile layer is tested "
                             f"on ({'.'.join(map(str, TESTED[0]))} to {'.'.join(map(str, TESTED[1]))}.x)")
    without = {w.strip() for w in os.environ.get("CARDODDS_COMPILER_WITHOUT", "").split(",") if w.strip()}
    unknown = without - set(REPLACEMENTS)
    if unknown:
        raise ValueError(f"CARDODDS_COMPILER_WITHOUT names {sorted(unknown)}: use some of {', '.join(REPLACEMENTS)}")
    for name in REPLACEMENTS:
        lacks = None if name in without else _missing(name)
        if lacks is not None:
            return frozenset(), f"numba {numba.__version__} has no {lacks} as cardodds expects"
    return frozenset(REPLACEMENTS) - without, None


ACTIVE, FALLBACK = _choose()
if FALLBACK is not None:
    print(f"cardodds: {FALLBACK}; compiling with numba's own compiler (first calls take longer)", file=sys.stderr)


# ---- memo: numba's typing of a call, remembered -------------------------------------------------------------
#: Numba's typing of a call to a global function or operator, by (function type, typing context,
#: argument types, keyword types).
_call_types: dict = {}
_numba_get_call_type = _functions.BaseFunction.get_call_type


def _get_call_type(self, context, args, kws):
    """Numba's ``BaseFunction.get_call_type``, remembered. The answer depends only on the key: a
    function type holds its templates (one registered later makes a new type), and numba keeps
    the implementation it chose on the type. A call that fails to type is not remembered."""
    try:
        key = (self, context, tuple(args), tuple(sorted(kws.items())))
        sig = _call_types.get(key)
    except TypeError:  # an unhashable type: numba's answer, not remembered
        return _numba_get_call_type(self, context, args, kws)
    if sig is None:
        sig = _call_types[key] = _numba_get_call_type(self, context, args, kws)
    return sig


# ---- tidy: the IR tidied without live variables -------------------------------------------------------------
_numba_postprocess = _postproc.PostProcessor.run


def _postprocess(self, emit_dels=False, extend_lifetimes=False):
    """Numba's ``PostProcessor.run`` for a cardodds function, without the variables live at each
    block's entry, which only object mode and generators read. A run placing deletions
    (lowering's) is numba's own."""
    func_ir = self.func_ir
    if emit_dels or func_ir.is_generator or func_ir.func_id.modname.partition(".")[0] != "cardodds":
        return _numba_postprocess(self, emit_dels, extend_lifetimes)
    func_ir.blocks = _transforms.canonicalize_cfg(func_ir.blocks)
    func_ir.variable_lifetime = _postproc.VariableLifetime(func_ir.blocks)
    return None


# ---- compiled_only: a helper's code linked, never emitted on its own ------------------------------------------
#: The cache's name for the code of a compiled-only function: the bitcode its callers link.
_LINKED_CODE = "cardodds-linked-code"


class _CompiledOnlyLibrary(getattr(_codegen, "JITCodeLibrary", object)):  # type: ignore[misc]
    """The code library of a function only compiled code calls (no CPython or C wrapper): its
    callers link its code and emit it with theirs, so it never enters numba's engine."""

    def _finalize_final_module(self):
        self._finalize_dynamic_globals()
        self._verify_declare_only_symbols()
        self._finalized = True

    def serialize_using_object_code(self):
        """The cache entry: the bitcode callers link, without machine code."""
        self._ensure_finalized()
        return self.name, _LINKED_CODE, self._get_module_for_linking().as_bitcode()


def compiled_only_library(state) -> None:
    """Give the compile of a function without CPython or C wrapper a :class:`_CompiledOnlyLibrary`."""
    flags = state.flags
    if "compiled_only" in ACTIVE and state.library is None and flags.no_cpython_wrapper and flags.no_cfunc_wrapper:
        state.library = _CompiledOnlyLibrary(state.targetctx.codegen(), state.func_id.func_qualname)


_numba_unserialize = vars(_codegen.CPUCodeLibrary)["_unserialize"]
_numba_get_executable = _cpu.CPUContext.get_executable
_numba_set_env = _codegen.JITCPUCodegen.set_env


def _unserialize(cls, codegen, state):
    name, kind, data = state
    if kind != _LINKED_CODE:
        return _numba_unserialize.__func__(cls, codegen, state)
    library = _CompiledOnlyLibrary(codegen, name)
    library._final_module = library._shared_module = _llvm.parse_bitcode(data)
    library._finalized = True
    return library


def _get_executable(self, library, fndesc, env):
    """Numba's ``CPUContext.get_executable``; for a compiled-only function a function object
    without an address (it has no CPython wrapper) whose environment has no symbol. For any
    other, the environments of the compiled-only code it holds are set too."""
    if isinstance(library, _CompiledOnlyLibrary):
        return _dynfunc.make_function(fndesc.lookup_module(), fndesc.qualname.split(".")[-1],
                                      f"compiled-only code of {fndesc.qualname!r}", 0, env, (library,))
    done = _numba_get_executable(self, library, fndesc, env)
    for gv in library._final_module.global_variables:
        held = _lowering.Environment._memo.get(gv.name)
        if held is not None and held is not env:
            library.codegen.set_env(gv.name, held)
    return done


def _set_env(self, env_name, env):
    """Numba's ``set_env`` for an environment with a symbol in the engine: compiled-only code
    loaded from the cache names environments each caller sets when it is emitted."""
    if self._engine.get_global_value_address(env_name):
        _numba_set_env(self, env_name, env)


# ---- the replacements in force while cardodds compiles or loads ------------------------------------------------
_PATCHES = {
    "memo": ((_functions.BaseFunction, "get_call_type", _get_call_type),),
    "tidy": ((_postproc.PostProcessor, "run", _postprocess),),
    "compiled_only": ((_codegen.CPUCodeLibrary, "_unserialize", classmethod(_unserialize)),
                      (_cpu.CPUContext, "get_executable", _get_executable),
                      (_codegen.JITCPUCodegen, "set_env", _set_env)),
}
_SWAPS = [(owner, attr, ours, vars(owner)[attr]) for name in REPLACEMENTS if name in ACTIVE
          for owner, attr, ours in _PATCHES.get(name, ())]
_depth = 0


@contextlib.contextmanager
def scope():
    """The replacements in force (numba's compiler lock held: every compile and cache load holds it)."""
    global _depth
    if _depth == 0:
        for owner, attr, ours, _ in _SWAPS:
            setattr(owner, attr, ours)
    _depth += 1
    try:
        yield
    finally:
        _depth -= 1
        if _depth == 0:
            for owner, attr, _, theirs in _SWAPS:
                setattr(owner, attr, theirs)


# ---- inline: numba's inlining pass without the copying -----------------------------------------------------
class _FreshBlock(_ir.Block):
    """A block of a callee's IR built for one call site, which numba's inliner deep-copies block
    by block: this copy shares the scope and the locations (a plain one copies every variable of
    the callee and the source lines each location caches)."""

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
        for _, spliced in done[3]:  # a later deep copy of the caller copies these in full
            spliced.__class__ = _ir.Block
        return done


@register_pass(mutates_CFG=True, analysis_only=False)
class _InlineHelpers(InlineInlinables):
    """Numba's pass inlining ``inline="always"`` functions, through :class:`_InlineWorker`."""

    _name = "cardodds_inline_helpers"

    def _do_work(self, state, work_list, block, i, expr, inline_worker):
        worker = _InlineWorker(state.typingctx, state.targetctx, state.locals, state.pipeline, state.flags)
        return super()._do_work(state, work_list, block, i, expr, worker)


def _with_inline_helpers(pm):
    """Numba's pipeline ``pm`` inlining through :class:`_InlineHelpers`."""
    if "inline" in ACTIVE:
        pm.passes = [(_InlineHelpers if cls is InlineInlinables else cls, text) for cls, text in pm.passes]
        pm.finalize()
    return pm


def _untyped_pipeline(state, name="untyped"):
    from numba.core.compiler import DefaultPassBuilder

    return _with_inline_helpers(DefaultPassBuilder.define_untyped_pipeline(state, name))


class CardoddsCompiler(Compiler):
    """Numba's compiler with the replacements in force (:func:`scope`)."""

    def define_pipelines(self):
        return [_with_inline_helpers(pm) for pm in super().define_pipelines()]

    def _compile_core(self):
        compiled_only_library(self.state)
        with scope():
            return super()._compile_core()


class NoAliasCompiler(CardoddsCompiler if FALLBACK is None else Compiler):  # type: ignore[misc]
    """The compiler with numba's ``noalias`` flag set: numba has the flag but no decorator option
    for it, while a pipeline class is one."""

    def __init__(self, typingctx, targetctx, library, args, return_type, flags, locals):
        flags = flags.copy()
        flags.noalias = True
        super().__init__(typingctx, targetctx, library, args, return_type, flags, locals)
