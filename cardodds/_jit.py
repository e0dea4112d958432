"""Numba configuration in one place: every compiled function of cardodds is declared with one of
these decorators, so the flags (disk cache, released GIL, bounds checking) are set here only.

- :func:`kernel`: a compiled function Python calls (a chunk kernel): ``cache=True``, ``nogil=True``.
- :func:`helper`: called from compiled code only (no CPython or C wrapper); linked into every
  caller, inlined by LLVM where that pays; one compile however many callers.
- :func:`inline`: inlined into each caller at numba's IR level, for the hot-loop helpers whose call
  measured as a loss of speed. Every call site types the whole body again: it is compile time.
  ``forceinline=True`` on a helper or loop is the cheaper way: typed once, inlined by LLVM.
- :func:`loop`: allocates nothing, compiled without reference counting (``_nrt=False``), whose
  atomic updates of every array handed to an inlined helper dominated the hot loops.
- ``noalias=True``: the array arguments share no memory, so LLVM keeps values in registers.
- :func:`inlined`, :func:`linked`: a second compiled form of one function, for the one loop where
  it measured faster; :func:`callback`: a ``cfunc`` of a fixed signature (a user's policy);
  :class:`Pointer`: one of cardodds' functions passed to the kernels as a ``cfunc``, compiled once,
  beside the loop that calls it, not again at every level of a chain of calls.

Every function is compiled by :mod:`cardodds._compiler` (numba's compiler, with replacements that
shorten first calls, in force for cardodds' own functions only). A helper or loop called from
Python (a test) runs a twin compiled with the CPython wrapper (:class:`_CompiledOnly`).

The disk cache is cardodds' own folder (:data:`CACHE_DIR`, named by a hash of every source file:
numba checks a cached kernel against its own file only, so a helper changed in another module
would leave its callers stale), reached through cardodds' own cache class (:class:`_Cache`):
numba's settings stay as the session has them. ``CARDODDS_BOUNDSCHECK=1`` compiles with bounds
checks (its own folder); ``CARDODDS_COMPILE_LOG=FILE`` logs every compile (:mod:`cardodds._compile_log`).
Their measurements: ``benchmarks/RESULTS_compile.md``, ``RESULTS_speed.md``, ``RESULTS_replacements.md``.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import types as _pytypes
from pathlib import Path

from numba.core import caching as _caching
from numba.core import config as _numba_config
from numba.core import event as _event
from numba.core import sigutils
from numba.core import types as _types
from numba.core.ccallback import CFunc
from numba.core.compiler_lock import global_compiler_lock
from numba.core.registry import CPUDispatcher
from numba.core.types import WrapperAddressProtocol

from . import _compiler
from ._interactive import compiling as _compiling

__all__ = ["BOUNDSCHECK", "CACHE_DIR", "POINTER", "PYTHON_TWIN", "Pointer", "callback", "first_use", "helper", "inline",
           "inlined", "kernel", "linked", "loop", "source_hash"]


def _skip_numbas_blas_check() -> None:
    """Import numba's NumPy functions without the ``scipy.linalg`` import numba makes to learn
    whether BLAS is there, which every command paid at start-up (``benchmarks/RESULTS_program.md``)
    and which only decides how ``np.convolve`` sums: cardodds compiles neither. Only in the
    ``cardodds`` program (:data:`cardodds.cli.AS_PROGRAM`): in a user's session numba's answer stands."""
    blas = "scipy.linalg.cython_blas"
    if blas in sys.modules or "numba.np.arraymath" in sys.modules:
        return
    sys.modules[blas] = None  # type: ignore[assignment]  # None: "cannot be imported"
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if sys.modules.get(blas, "") is None:
            del sys.modules[blas]


if getattr(sys.modules.get("cardodds.cli"), "AS_PROGRAM", False):
    _skip_numbas_blas_check()

#: Compile with bounds checking (``CARDODDS_BOUNDSCHECK=1``); off by default for speed.
BOUNDSCHECK: bool = os.environ.get("CARDODDS_BOUNDSCHECK", "") not in ("", "0")


def source_hash(root: Path) -> str:
    """A hash of every ``.py`` file under ``root`` (names and contents): the cache's key. The
    ``__pycache__`` folders are not walked: they hold the caches of every source hash before,
    and walking them made every import slower.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = (Path(d) / "a.py").write_text("x = 1")
    ...     before = source_hash(Path(d))
    ...     _ = (Path(d) / "a.py").write_text("x = 2")
    ...     before != source_hash(Path(d))
    True
    """
    files = []
    for folder, subfolders, names in os.walk(root):
        subfolders[:] = [d for d in subfolders if d != "__pycache__"]
        files += [Path(folder, n) for n in names if n.endswith(".py")]
    digest = hashlib.sha1()
    for path in sorted(files):
        digest.update(path.relative_to(root).as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _cache_base(package: Path) -> str:
    """Where the cache folder goes: ``$NUMBA_CACHE_DIR``, else the package's ``__pycache__``
    when it can be written (where numba would cache), else the system's temporary directory."""
    given = _numba_config.CACHE_DIR  # type: ignore[attr-defined]  # set by numba at run time
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


def _cache_name() -> str:
    """The folder's name: the source's hash, numba's version and how it is compiled (bounds
    checks, the compiler): numba's cache key holds none of them (a cache of another numba
    version is dropped, not kept beside)."""
    import numba

    how = f"-numba{numba.__version__}" + "-boundscheck" * BOUNDSCHECK
    if _compiler.FALLBACK is not None:
        how += "-numbas-compiler"
    elif _compiler.ACTIVE != frozenset(_compiler.REPLACEMENTS):
        how += "-without-" + "-".join(sorted(set(_compiler.REPLACEMENTS) - _compiler.ACTIVE))
    return f"cardodds-{source_hash(_PACKAGE)}{how}"


_PACKAGE = Path(__file__).resolve().parent
#: The folder of this source tree's compiled functions.
CACHE_DIR = os.path.join(_cache_base(_PACKAGE), _cache_name())


#: Numba's cache classes cardodds' own cache is made of; a numba without them caches nothing of
#: cardodds (compiling on every run, said once) rather than failing.
_CACHE_PARTS = ("_SourceFileBackedLocatorMixin", "_CacheLocator", "CompileResultCacheImpl", "FunctionCache")
_CACHEABLE = all(hasattr(_caching, name) for name in _CACHE_PARTS)


def _numba_class(name: str) -> type:
    """Numba's cache class ``name``, or a stand-in (never used) where this numba has none."""
    return getattr(_caching, name, None) or type(name, (), {})


class _Locator(_numba_class("_SourceFileBackedLocatorMixin"), _numba_class("_CacheLocator")):  # type: ignore[misc]
    """Numba's locator of a user-given cache folder, for :data:`CACHE_DIR` alone."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(CACHE_DIR, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path


class _CacheImpl(_numba_class("CompileResultCacheImpl")):  # type: ignore[misc]
    _locator_classes = [_Locator]


class _Cache(_numba_class("FunctionCache")):  # type: ignore[misc]
    """Numba's cache of compiled functions, in :data:`CACHE_DIR`, loading with cardodds' compiler
    replacements in force (:func:`cardodds._compiler.scope`); a miss, which numba compiles next,
    is told to :func:`cardodds._interactive.compiling` (a call's line that it compiles)."""

    _impl_class = _CacheImpl

    def load_overload(self, sig, target_context):
        with _compiler.scope():
            found = super().load_overload(sig, target_context)
        if found is None:
            _compiling()  # numba compiles it next: the call under way may say so
        return found


#: Why cardodds caches nothing in this process (said once), if it does not.
_uncached: list = []


def _cache_for(py_func):
    """``py_func``'s cache in :data:`CACHE_DIR`; where that folder cannot be written, or this numba
    lacks the cache classes cardodds builds on, none (numba compiles on every run), said once."""
    if _CACHEABLE:
        try:
            return _Cache(py_func)
        except RuntimeError:  # numba: "no locator available": the folder cannot be made or written
            why = f"cannot write its compile cache {CACHE_DIR} (set NUMBA_CACHE_DIR to a folder you can write)"
    else:
        import numba

        why = f"numba {numba.__version__} has no {', '.join(_CACHE_PARTS)} as cardodds expects"
    if not _uncached:
        _uncached.append(why)
        print(f"cardodds: {why}; compiling on every run", file=sys.stderr)
    return _caching.NullCache()


class _Dispatcher(CPUDispatcher):
    """Numba's dispatcher, caching in :data:`CACHE_DIR`."""

    def enable_caching(self):
        self._cache = _cache_for(self.py_func)


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


def _flags(extra: dict) -> dict:
    if extra.pop("noalias", False):
        extra["pipeline_class"] = _compiler.NoAliasCompiler
    elif _compiler.FALLBACK is None:
        extra["pipeline_class"] = _compiler.CardoddsCompiler
    return extra


def _called_flags(extra: dict) -> dict:
    """The flags of a function compiled on its own and called (:func:`kernel`, :func:`helper`)."""
    return {"cache": True, "nogil": True, "boundscheck": BOUNDSCHECK, "no_cfunc_wrapper": True, **_flags(extra)}


def _dispatcher(fn, flags: dict, cls=_Dispatcher):
    """``fn`` compiled with ``flags`` (numba's ``njit`` options) by a dispatcher of class ``cls``."""
    targetoptions = {k: v for k, v in flags.items() if k not in ("cache", "pipeline_class")}
    extra = {"pipeline_class": flags["pipeline_class"]} if "pipeline_class" in flags else {}
    disp = cls(py_func=fn, locals={}, targetoptions={"nopython": True, **targetoptions}, **extra)
    if flags.get("cache"):
        disp.enable_caching()
    return _one_signature(disp)


def kernel(fn=None, **extra):
    """Decorator for compiled kernels: ``cache=True, nogil=True`` (and ``boundscheck`` in debug)."""
    flags = _called_flags(extra)
    return (lambda f: _dispatcher(f, flags)) if fn is None else _dispatcher(fn, flags)


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


class _CompiledOnly(_Dispatcher):
    """A function compiled without numba's CPython wrapper (``no_cpython_wrapper``), for
    compiled callers only, which call its code straight. A call from Python goes to its twin:
    the same function compiled with the wrapper, cached under a name of its own
    (:data:`PYTHON_TWIN`), because numba's cache key holds no compile flags and a twin sharing
    the function's cache entries would load code without a wrapper, which Python cannot call."""

    def __call__(self, *args, **kws):
        twin = self.__dict__.get("_python_twin")
        if twin is None:
            twin = _dispatcher(_renamed(self.py_func, PYTHON_TWIN), self.__dict__["_cardodds_flags"])
            self.__dict__["_python_twin"] = twin
        return twin(*args, **kws)


def _compiled_only(flags: dict):
    def build(fn):
        disp = _dispatcher(fn, dict(flags, no_cpython_wrapper=True), _CompiledOnly)
        disp.__dict__["_cardodds_flags"] = flags
        return disp
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
    return (lambda f: _dispatcher(f, flags)) if fn is None else _dispatcher(fn, flags)


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
    :mod:`cardodds._two_process_compile`)."""
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
    done inside the announcement, so the log counts it too. It caches in :data:`CACHE_DIR` and
    compiles with cardodds' compiler replacements in force (a caller sets the environments of the
    compiled-only code it holds)."""

    def enable_caching(self):
        self._cache = _cache_for(self._pyfunc)

    def compile(self):
        with global_compiler_lock, _compiler.scope():
            return super().compile()

    def _compile_uncached(self):
        fn = getattr(self._pyfunc, "py_func", self._pyfunc)
        data = {"dispatcher": _pytypes.SimpleNamespace(py_func=fn), "args": self._sig.args}
        _compiling()
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
        """Numba's cache of the compiled form (where :mod:`cardodds._two_process_compile` finds whether it
        is cached)."""
        return _cache_for(self._renamed())

    def compile(self, args=None) -> CFunc:
        """The compiled ``cfunc`` (``args``, the signature's argument types, are taken as given)."""
        with global_compiler_lock:  # the engine's threads call a kernel with it at once
            hit = _POINTERS.get(self._key())
            if hit is None:
                options = {"nopython": True, "nogil": True, "boundscheck": BOUNDSCHECK, "_nrt": False}
                pipeline = {} if _compiler.FALLBACK is not None else {"pipeline_class": _compiler.CardoddsCompiler}
                hit = _LoggedCFunc(self._renamed(), sigutils.normalize_signature(self.sig), locals={},
                                   options=options, **pipeline)
                hit.enable_caching()
                hit.compile()
                _POINTERS[self._key()] = hit
        return hit

    def __wrapper_address__(self):
        return self.compile(self.sig.args).address


def _pointer_to(module: str, qualname: str, signature) -> Pointer:
    import importlib

    return Pointer(getattr(importlib.import_module(module), qualname), signature)
