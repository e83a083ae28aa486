"""@cuda.jit: kernels and device functions. The Dispatcher type is C++ (simt._simt.Dispatcher);
this subclass adds the Python-facing conveniences of numba's dispatcher."""
import inspect
import operator
import textwrap

from .. import _simt
from . import _dispatcher_extras as extras
from . import numba_types
from .numba_types import signature_text
from ._foreign import link_paths
from ._lambda_source import is_lambda, lambda_source
from ._resolve import make_resolver

_OPTIONS = ("device", "inline", "forceinline", "fastmath", "lineinfo", "debug", "opt", "max_registers", "cache",
            "boundscheck", "link", "launch_bounds")


def _no_launch(*args):
    """What forall(0) returns: a launch of no threads."""


def _function_source(func):
    """(source, filename, first line, indent) of a function's def; a lambda's is made of its
    expression (see _lambda_source)."""
    if is_lambda(func):
        _, source, filename, line = lambda_source(func)
        return source, filename, line, 0
    try:
        lines, first_line = inspect.getsourcelines(func)
    except (OSError, TypeError) as e:
        raise _simt.UnsupportedError(
            f"cannot compile {func.__qualname__}: its source code is not available ({e}); define kernels in a "
            "file or notebook cell") from None
    text = "".join(lines)
    dedented = textwrap.dedent(text)
    indent = 0
    for a, b in zip(text.splitlines(), dedented.splitlines()):
        if b.strip():
            indent = len(a) - len(b)
            break
    filename = inspect.getsourcefile(func) or func.__code__.co_filename
    return dedented, filename, first_line, indent


def _specialization_key(signature):
    """The key of inspect_source() & co. for a signature: their own keys (tuples of simt's type
    names) as they are; a signature string, numba type objects (void(int32[:, ::1]), a tuple of
    argument types) or a list of simt types through the signature parser."""
    if isinstance(signature, tuple) and all(isinstance(t, str) for t in signature):
        return signature
    text = signature_text(signature)
    if text is None and isinstance(signature, (list, tuple)):  # (simt types: the parsed arguments)
        text = "(" + ", ".join(str(t) for t in signature) + ")"
    if text is None:
        raise TypeError(f"a signature is a string, numba types or a tuple of argument types, not {signature!r}")
    return tuple(_simt._signature_arg_types(text))


def _one_or_all(by_signature, signature):
    """The whole {argument types: text} dict, or with `signature` that one entry."""
    return by_signature if signature is None else by_signature[_specialization_key(signature)]


class _Overloads(dict):
    """numba's dispatcher.overloads: {argument types: compiled kernel}, looked up by any spelling
    of a signature (see _specialization_key)."""

    def __getitem__(self, signature):
        return dict.__getitem__(self, _specialization_key(signature))

    def __contains__(self, signature):
        try:
            return dict.__contains__(self, _specialization_key(signature))
        except (TypeError, ValueError, _simt.TypingError):
            return False


class Dispatcher(_simt.Dispatcher):
    """A @cuda.jit function: launch it with kernel[griddim, blockdim](*args)."""

    def __init__(self, py_func, options, signatures=None, resolver=None):
        if is_lambda(py_func):  # (compiled under a name of its own: "<lambda>" is no identifier)
            name, source, filename, first_line = lambda_source(py_func)
            indent = 0
        else:
            name = py_func.__name__
            source, filename, first_line, indent = _function_source(py_func)
        opts = dict(options)
        if opts.get("boundscheck") is None:
            import os
            if os.environ.get("SIMT_BOUNDSCHECK", "") not in ("", "0"):
                opts["boundscheck"] = True
        native = dict(opts, _signatures=signatures) if signatures else opts
        resolver = resolver or make_resolver(py_func)
        super().__init__(name, source, filename, first_line, indent, resolver, native)
        if signatures:
            self._compile_declared()  # eager: numba compiles declared signatures at decoration
        self.py_func = py_func
        self.__name__ = py_func.__name__
        self.__qualname__ = py_func.__qualname__
        self.targetoptions = opts
        self.__doc__ = py_func.__doc__
        self.__wrapped__ = py_func
        self._specialized = False  # made by specialize()
        self._specializations = {}  # specialize()'s dispatchers, by signature text

    def __call__(self, *args, **kwargs):
        if self._device:
            raise TypeError(f"device function '{self.__name__}' can only be called from a kernel")
        raise TypeError(f"kernel '{self.__name__}' must be launched with a configuration: "
                        f"{self.__name__}[griddim, blockdim](...)")

    def forall(self, ntasks, tpb=0, stream=0, sharedmem=0):
        """A launch of at least `ntasks` threads in 1-D blocks of `tpb` (default 128)."""
        ntasks = operator.index(ntasks)
        if ntasks < 0:
            raise ValueError(f"forall() needs a non-negative number of tasks, got {ntasks}")
        if ntasks == 0:
            return _no_launch  # as numba: nothing to run, nothing launched
        tpb = tpb or 128
        blocks = (ntasks + tpb - 1) // tpb
        return self[blocks, tpb, stream, sharedmem]

    def compile_for(self, *sample_args):
        """Compile (without launching) for the types of these arguments."""
        self._compile(*sample_args)

    def inspect_source(self, signature=None):
        """Generated C++ (cpu) or CUDA C++ (cuda) of each compiled specialization, keyed by
        argument types; with `signature`, just that one."""
        return _one_or_all(self._sources(), signature)

    def inspect_asm(self, signature=None):
        """PTX of each compiled specialization, keyed by argument types (with `signature`, just
        that one). On the cuda backend it is the PTX of the loaded kernel; on the cpu backend,
        what NVRTC makes of the same kernel's CUDA C++ for sm_90 (NVRTC needed, no GPU)."""
        return _one_or_all(_simt._specialization_ptx(self), signature)

    def inspect_llvm(self, signature=None):
        """NVVM IR (LLVM IR for libNVVM) of each compiled specialization, keyed by argument types
        (with `signature`, just that one): the cuda backend compiles kernels of the covered
        language core this way (faster than NVRTC); for any other kernel the text is a comment
        naming what it uses, and its CUDA C++ (inspect_source()) is what NVRTC compiles."""
        return _one_or_all(_simt._specialization_llvm(self), signature)

    @property
    def signatures(self):
        return list(self._sources().keys())

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0, signature=None):
        """The most blocks of `blockdim` threads (an int or a tuple) a launch of this kernel may
        have when it uses grid barriers (cuda.cg.this_grid().sync()): all of them must be resident
        at once on the current device. For the compiled specialization (`signature`, its argument
        types, where there are several)."""
        threads = 1
        for d in (blockdim if isinstance(blockdim, tuple) else (blockdim,)):
            threads *= operator.index(d)
        limits = _simt._specialization_cooperative_blocks(self, threads, operator.index(dynsmemsize))
        if signature is not None:
            return limits[_specialization_key(signature)]
        if len(limits) != 1:
            raise TypeError(f"kernel '{self.__name__}' has {len(limits)} compiled specializations: "
                            + ("compile it first (kernel.compile_for(*args)) or launch it" if not limits else
                               "name one with signature= (its argument types: " + "; ".join(map(str, limits)) + ")"))
        return next(iter(limits.values()))

    @property
    def specialized(self):
        """Whether this dispatcher compiles nothing more: made by specialize(), or declared with
        one signature."""
        return self._specialized or len(self._sources()) == 1 and self._eager

    def specialize(self, *args):
        """A dispatcher compiled for the types of `args` (numba's specialize)."""
        return extras.specialize(self, args)

    def inspect_types(self, file=None, signature=None, pretty=False):
        """Prints each compiled specialization's typed signature and source annotated with the
        types of the variables each line binds (see _dispatcher_extras.inspect_types)."""
        extras.inspect_types(self, file, signature, pretty)

    @property
    def overloads(self):
        """numba's {argument types: compiled kernel} of the compiled specializations."""
        return _Overloads({key: _Overload(self, key) for key in self._sources()})

    def __repr__(self):
        kind = "device function" if self._device else "kernel"
        return f"<simt {kind} {self.__name__}>"


class _Overload:
    """One compiled specialization, as numba's dispatcher.overloads[sig] gives it."""

    def __init__(self, dispatcher, key):
        self._dispatcher, self.signature = dispatcher, key

    def max_cooperative_grid_blocks(self, blockdim, dynsmemsize=0):
        return self._dispatcher.max_cooperative_grid_blocks(blockdim, dynsmemsize, signature=self.signature)

    def inspect_asm(self):
        return self._dispatcher.inspect_asm(self.signature)

    def inspect_llvm(self):
        return self._dispatcher.inspect_llvm(self.signature)

    def inspect_source(self):
        return self._dispatcher.inspect_source(self.signature)

    def __repr__(self):
        return f"<simt kernel {self._dispatcher.__name__}{self.signature}>"


def _resource_getter(attribute):
    def get(self, signature=None):
        return extras.resource(self, attribute, signature)
    get.__doc__ = (f"The compiled kernel's {attribute} on the current device (cuFuncGetAttribute): for `signature`, "
                   "or the specialized kernel, else {argument types: value} of each specialization.")
    return get


for _getter, _attribute in extras.RESOURCE_GETTERS.items():
    setattr(Dispatcher, _getter, _resource_getter(_attribute))


def _signature_list(sig):
    """The signature strings of @cuda.jit(sig): one signature, or a list of them; each a string
    or numba type objects (void(float32[:]), or a tuple of argument types: numba_types.py)."""
    one = signature_text(sig)
    sigs = [one] if one is not None else [signature_text(s) if signature_text(s) is not None else s for s in sig]
    if not sigs:
        raise TypeError("@cuda.jit was given an empty list of signatures")
    for s in sigs:
        if not isinstance(s, str):
            raise TypeError(f"a @cuda.jit signature must be a string such as 'void(float32[:], int64)' (or numba's "
                            f"types: void(float32[:], int64)), not {type(s).__name__} {s!r}")
    return sigs


def jit(func_or_sig=None, **options):
    """Compile a Python function into a SIMT kernel (or, with device=True, a device function).

    Used as @cuda.jit, @cuda.jit(...options...): compilation is lazy, one specialization per tuple
    of argument types, on first launch. With signatures, @cuda.jit("void(float32[:], int64)") or
    a list of them, compilation is eager (at decoration) and launches convert their arguments to
    the best-fitting declared signature instead of compiling new specializations."""
    # CUDA C++ compiled with the kernel, for its cuda.declare_device functions (cuda.coop
    # primitives hand over their .files here: simt's are empty).
    link = link_paths(options.pop("link", None), "@cuda.jit")
    if link and options.get("device"):
        raise TypeError("@cuda.jit(device=True, link=[...]): a device function links nothing itself; link the files "
                        "from the kernels that call it (@cuda.jit(link=[...])) or with cuda.declare_device(..., link=[...])")
    if link:
        options["link"] = link
    if options.get("launch_bounds") is not None:
        options["launch_bounds"] = extras.launch_bounds_option(options["launch_bounds"])
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise TypeError(f"unknown @cuda.jit option(s): {', '.join(sorted(unknown))}")
    if callable(func_or_sig) and not isinstance(func_or_sig, (str, list, tuple, numba_types._Type)):
        return Dispatcher(func_or_sig, options)
    signatures = None if func_or_sig is None else _signature_list(func_or_sig)

    def decorate(func):
        return Dispatcher(func, options, signatures)

    return decorate
