"""@tile.kernel and tile.launch: a tile kernel is compiled by simt's kernel compiler once per tuple
of tile.Constant values (those parameters become constants of the compiled code), and launched
with one block per tile index: 128 threads a block on the cuda backend, one on the cpu backend
(the thread counts src/simt/codegen/prelude/tile.h is written for)."""
import inspect
import types
import weakref

import numpy as np

from ... import _simt
from .._jit import Dispatcher
from .._resolve import make_resolver

_THREADS = {"cuda": 128, "cpu": 1}
# Options of cuda.tile's @kernel that tune its own compiler; simt's tile kernels take them and need none.
_HINTS = ("num_ctas", "occupancy", "opt_level")
_helpers = weakref.WeakKeyDictionary()  # plain functions called from tile kernels -> device dispatchers


def _helper(func):
    """A plain Python function called from a tile kernel, compiled as a device function."""
    d = _helpers.get(func)
    if d is None:
        d = Dispatcher(func, {"device": True, "_tile": True}, resolver=make_resolver(func, plain_function=_helper))
        _helpers[func] = d
    return d


def _constant_params(func):
    from . import ConstantAnnotation
    try:
        hints = inspect.get_annotations(func, eval_str=True)
    except Exception:  # noqa: BLE001 - an annotation that does not evaluate: read them as written
        hints = getattr(func, "__annotations__", {})
    names = [p.name for p in inspect.signature(func).parameters.values()]
    return [n for n in names if isinstance(hints.get(n), ConstantAnnotation)]


class TileKernel:
    """A @tile.kernel function: launch it with tile.launch(stream, grid, kernel, args)."""

    def __init__(self, func, options):
        unknown = set(options) - set(_HINTS)
        if unknown:
            raise TypeError(f"unknown @tile.kernel option(s): {', '.join(sorted(unknown))}")
        self.py_func = func
        self.__name__ = func.__name__
        self.__qualname__ = func.__qualname__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        params = list(inspect.signature(func).parameters.values())
        for p in params:
            if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) or p.default is not p.empty:
                raise TypeError(f"tile kernel {func.__name__}: parameter '{p.name}' must be a plain positional "
                                "parameter without a default")
        self._names = [p.name for p in params]
        self._constants = _constant_params(func)
        self._constant_index = [self._names.index(n) for n in self._constants]
        self._runtime_index = [i for i, n in enumerate(self._names) if n not in self._constants]
        self._specialized = {}

    def __call__(self, *args, **kwargs):
        raise TypeError(f"tile kernel '{self.__name__}' is launched from the host with "
                        f"simt.cuda.tile.launch(stream, grid, {self.__name__}, args)")

    def _dispatcher(self, values):
        values = tuple(v.item() if isinstance(v, np.generic) else v for v in values)
        key = tuple((type(v), v) for v in values)  # (1, True and 1.0 compile differently)
        d = self._specialized.get(key)
        if d is None:
            for name, v in zip(self._constants, values):
                if not isinstance(v, (bool, int, float)):
                    raise TypeError(f"tile kernel {self.__name__}: tile.Constant parameter '{name}' must be a "
                                    f"number or bool, not {type(v).__name__}")
            constants = dict(zip(self._constants, values))
            options = {"_constant_params": list(self._constants), "_tile": True}
            d = Dispatcher(self.py_func, options, resolver=make_resolver(self.py_func, constants, _helper))
            self._specialized[key] = d
        return d

    def _split(self, args):
        if not isinstance(args, tuple):
            raise TypeError(f"tile.launch() takes the kernel's arguments as a tuple, not {type(args).__name__}")
        if len(args) != len(self._names):
            raise TypeError(f"tile kernel {self.__name__} takes {len(self._names)} arguments "
                            f"({', '.join(self._names)}) but {len(args)} were given")
        values = tuple(args[i] for i in self._constant_index)
        return self._dispatcher(values), [args[i] for i in self._runtime_index]

    def inspect_source(self, *args):
        """The generated code of the specializations compiled so far for these arguments' tile.Constant
        values (all of them, without arguments)."""
        if args:
            d, _ = self._split(tuple(args))
            return d.inspect_source()
        return {tuple(v for _, v in key): d.inspect_source() for key, d in self._specialized.items()}

    def __repr__(self):
        return f"<simt tile kernel {self.__name__}>"


def kernel(func=None, **options):
    """Marks a function as a tile kernel (@tile.kernel or @tile.kernel(num_ctas=...)). Parameters
    annotated tile.Constant[int] are compiled in; the others are arrays and numbers."""
    if func is not None:
        if not isinstance(func, types.FunctionType):
            raise TypeError(f"@tile.kernel decorates a function, not {type(func).__name__}")
        return TileKernel(func, options)
    return lambda f: kernel(f, **options)


def _grid(grid):
    if isinstance(grid, int):
        grid = (grid,)
    try:
        dims = tuple(int(g) for g in grid)
    except TypeError:
        raise TypeError(f"tile.launch() grid must be an int or a tuple of up to 3 ints, not {grid!r}") from None
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"tile.launch() grid must have 1 to 3 dimensions, not {len(dims)}")
    return dims


def launch(stream, grid, kernel, kernel_args):
    """Queues tile kernel `kernel` on `stream` (a simt stream, an object with __cuda_stream__, a
    CuPy or PyTorch stream, or None/0 for the current one) over `grid` blocks, one per tile index."""
    if not isinstance(kernel, TileKernel):
        raise TypeError(f"tile.launch() launches a @tile.kernel function, not {type(kernel).__name__}")
    from ...compute._streams import resolve  # (simt.compute's stream rules; a large package, imported on use)
    dims = _grid(grid)
    d, args = kernel._split(kernel_args)
    threads = _THREADS[_simt.backend_name()]
    s = None if isinstance(stream, int) and stream == 0 else resolve(stream, "tile.launch()")
    if s is None:
        d[dims, threads](*args)
    else:
        d[dims, threads, s](*args)
