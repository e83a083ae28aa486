"""The kernel compiler's view of a function's free names: each global or closure variable is
described as a builtin, a module, a dtype, a frozen constant or a device function."""
import builtins
import cmath
import math
import numbers
import operator
import types

import numpy as np

from .. import _simt

_PY_BUILTINS = {"abs", "min", "max", "int", "float", "bool", "complex", "len", "range", "round", "pow", "print",
                "divmod", "enumerate", "zip"}
_MODULES = {math: "math", cmath: "cmath", np: "numpy", operator: "operator"}
# Where builtin functions say they come from: `from operator import add` gives _operator.add.
_FUNCTION_MODULES = {"math": "math", "cmath": "cmath", "_operator": "operator"}
_numpy_members = None


def _module_name(obj):
    if obj in _MODULES:
        return _MODULES[obj]
    import simt
    import simt.cuda
    import simt.cuda.libdevice
    import simt.cuda.random
    if obj is simt.cuda:
        return "cuda"
    if obj is simt.cuda.random:
        return "cuda.random"
    if obj is simt.cuda.libdevice:
        return "cuda.libdevice"
    if obj is simt:
        return "simt"
    if obj.__name__ == "simt.cuda.tile":
        return "tile"
    if obj.__name__ == "simt.cuda.numba_types":
        return "numba"  # numba.types (numba_types.py): its type names, as simt.compat's numba has them
    if getattr(obj, "_simt_compat_numba", False):
        return "numba"  # simt.compat's numba: numba.cuda, and its type names as NumPy's (numba.int32)
    return None


def _numpy_member(obj):
    global _numpy_members
    if _numpy_members is None:
        _numpy_members = {}
        for name in dir(np):
            value = getattr(np, name, None)
            if isinstance(value, np.ufunc):
                _numpy_members.setdefault(id(value), f"numpy.{name}")
    return _numpy_members.get(id(obj))


def describe(obj, plain_function=None):
    """What `obj` is to the kernel compiler, as a tuple (see src/bindings/bind_kernels.cpp).
    `plain_function` turns plain Python functions into device functions (tile kernels call them
    as they are); without it they are unsupported."""
    from ._foreign import ForeignFunction
    from ._jit import Dispatcher

    if isinstance(obj, ForeignFunction):
        return ("foreign", obj._declaration)
    if type(obj).__name__ == "FFI" and type(obj).__module__.split(".")[0] == "cffi":
        return ("module", "cffi")  # numba's FFI idiom: ffi.from_buffer(array) for a pointer parameter
    canonical = getattr(obj, "_simt_builtin", None)
    if isinstance(canonical, str):
        return ("member", canonical)
    if isinstance(obj, types.ModuleType):
        name = _module_name(obj)
        return ("module", name) if name else ("unsupported", f"the module {obj.__name__}")
    generated = getattr(obj, "_simt_device_function", None)
    if isinstance(generated, _simt.Dispatcher):  # a simt.cuda.coop primitive: its generated device function
        return ("device", generated)
    if isinstance(obj, Dispatcher):
        if obj._device:
            return ("device", obj)
        return ("unsupported", f"the kernel {obj.__name__} (kernels are launched from the host; "
                               "call device functions, @cuda.jit(device=True), from kernels)")
    if isinstance(obj, (bool, int, float, complex, str)) or obj is None:
        return ("const", obj)
    if isinstance(obj, np.generic):
        return ("const", obj.item(), obj.dtype)
    if isinstance(obj, tuple):
        if all(describe(e)[0] == "const" for e in obj):
            return ("const", tuple(e.item() if isinstance(e, np.generic) else e for e in obj))
        return ("unsupported", "a tuple holding non-constant values")
    from .numba_types import ScalarType
    if isinstance(obj, ScalarType):  # numba's float32 & co. (numba_types.py): their dtype
        return ("dtype", obj.dtype)
    if isinstance(obj, type) and issubclass(obj, np.generic) or isinstance(obj, np.dtype):
        try:
            return ("dtype", np.dtype(obj))
        except TypeError:
            return ("unsupported", f"the type {obj}")
    if isinstance(obj, types.BuiltinFunctionType) and getattr(obj, "__module__", None) in _FUNCTION_MODULES:
        return ("member", f"{_FUNCTION_MODULES[obj.__module__]}.{obj.__name__}")
    member = _numpy_member(obj)
    if member:
        return ("member", member)
    if isinstance(obj, np.ndarray):
        # Frozen into constant memory at compile time, as numba does (cuda.const.array_like).
        from .._dtypes import SUPPORTED
        if obj.dtype.newbyteorder("=") not in SUPPORTED or obj.dtype.byteorder == ">":
            return ("unsupported", f"a NumPy array of dtype {obj.dtype}, which kernels cannot read")
        return ("ndarray", np.ascontiguousarray(obj))
    if isinstance(obj, types.FunctionType):
        if plain_function is not None:
            return ("device", plain_function(obj))
        return ("unsupported", f"the Python function {obj.__name__} (decorate it with @cuda.jit(device=True) "
                               "to call it from a kernel)")
    return ("unsupported", f"an object of type {type(obj).__module__}.{type(obj).__qualname__}")


def make_resolver(func, constants=None, plain_function=None):
    """The resolver callback for `func`: looks a name up in `constants` (values compiled in for
    names that are parameters of func: simt.cuda.tile's Constant ones), its closure, globals, then
    builtins; see describe() for `plain_function`."""
    globals_ = func.__globals__
    closure = {}
    for name, cell in zip(func.__code__.co_freevars, func.__closure__ or ()):
        try:
            closure[name] = cell.cell_contents
        except ValueError:  # an empty cell: assigned later in the enclosing function
            pass

    constants = constants or {}

    def resolve(name):
        if name in constants:
            return describe(constants[name])
        if name in closure:
            return describe(closure[name], plain_function)
        if name in globals_:
            return describe(globals_[name], plain_function)
        if name in _PY_BUILTINS:
            return ("function", name)
        if isinstance(getattr(builtins, name, None), type) and issubclass(getattr(builtins, name), Exception):
            return ("function", f"exception.{name}")  # for `raise` (sema/assertions.cpp)
        if hasattr(builtins, name):
            return ("unsupported", f"the builtin {name}")
        if name == func.__name__:  # compiled at decoration (a signature given): not bound yet
            return ("unsupported", "the function being compiled itself (recursive device function calls are not supported)")
        return ("undefined",)

    return resolve
