"""What every cuda.coop factory shares: checking its arguments (dtype, block shape, items per
thread, operator) and the Primitive object it returns, which the kernel compiler sees as a
generated device function (kernel-language source text, one per specialization)."""
import math
import operator

import numpy as np

from ... import _simt

# Key types the primitives move through warp shuffles, with the 32/64-bit type that carries
# each through a shuffle (the kernel language shuffles exactly int32/64, uint32/64, float32/64).
CARRIERS = {np.dtype(t): np.dtype(c) for t, c in (
    (np.int8, np.int32), (np.int16, np.int32), (np.int32, np.int32), (np.int64, np.int64),
    (np.uint8, np.uint32), (np.uint16, np.uint32), (np.uint32, np.uint32), (np.uint64, np.uint64),
    (np.float16, np.float32), (np.float32, np.float32), (np.float64, np.float64))}
MAX_THREADS = 1024
WARP = 32


def type_name(dt):
    return "np." + np.dtype(dt).name


def shared_type(dtype):
    """Kernel text of the type a primitive keeps `dtype` values in shared memory: float16 as
    float32 (CUDA cannot statically initialize a __shared__ array of a class type like half)."""
    return type_name(np.float32 if dtype == np.float16 else dtype)


def shared_itemsize(dtype):
    return 4 if dtype == np.float16 else dtype.itemsize


def normalize_dtype(dtype, where):
    """The NumPy dtype of a primitive's `dtype` argument: a NumPy type or dtype, a numba type
    (numba.int32 under simt.compat is NumPy's), or a name ('int32', 'np.int32')."""
    if isinstance(dtype, str):
        name = dtype[3:] if dtype.startswith("np.") else dtype
        if "." in name or not isinstance(getattr(np, name, None), type):
            raise ValueError(f"{where}: dtype {dtype!r} is not the name of a NumPy scalar type")
        dtype = getattr(np, name)
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"{where}: dtype {dtype!r} is not a data type") from None
    if dt not in CARRIERS:
        supported = ", ".join(sorted(d.name for d in CARRIERS))
        raise TypeError(f"{where}: dtype {dt} is not supported (supported: {supported})")
    return dt


def normalize_block(threads_per_block, where):
    """(x, y, z) of a primitive's block shape: an int or a tuple of 1 to 3 ints, at most 1024
    threads in all."""
    dims = threads_per_block if isinstance(threads_per_block, (tuple, list)) else (threads_per_block,)
    if not 1 <= len(dims) <= 3:
        raise ValueError(f"{where}: threads_per_block must be an int or a tuple of 1 to 3 ints, got {threads_per_block!r}")
    out = []
    for d in dims:
        if isinstance(d, (bool, np.bool_)) or not isinstance(d, (int, np.integer)):
            raise TypeError(f"{where}: threads_per_block must be made of ints, got {threads_per_block!r}")
        if d < 1:
            raise ValueError(f"{where}: threads_per_block must be positive, got {threads_per_block!r}")
        out.append(int(d))
    out += [1] * (3 - len(out))
    if math.prod(out) > MAX_THREADS:
        raise ValueError(f"{where}: threads_per_block {threads_per_block!r} is {math.prod(out)} threads, more than "
                         f"a block may have ({MAX_THREADS})")
    return tuple(out)


def normalize_items(items_per_thread, where):
    if isinstance(items_per_thread, (bool, np.bool_)) or not isinstance(items_per_thread, (int, np.integer)):
        raise TypeError(f"{where}: items_per_thread must be an int, got {items_per_thread!r}")
    if items_per_thread < 1:
        raise ValueError(f"{where}: items_per_thread must be at least 1, got {items_per_thread}")
    return int(items_per_thread)


def normalize_warp_threads(threads_in_warp, where):
    if not isinstance(threads_in_warp, (int, np.integer)) or isinstance(threads_in_warp, (bool, np.bool_)) or \
            threads_in_warp not in (1, 2, 4, 8, 16, 32):
        raise ValueError(f"{where}: threads_in_warp must be a power of two from 1 to 32, got {threads_in_warp!r}")
    return int(threads_in_warp)


def no_methods(methods, where):
    if methods is not None:
        raise NotImplementedError(f"{where}: methods (user-defined types) are not supported by simt; "
                                  "use a NumPy numeric dtype")


# Operators given by name or as Python/NumPy functions: inlined as expressions (a, b: operands).
_KNOWN_OPS = {
    "+": "{a} + {b}", "*": "{a} * {b}", "max": "max({a}, {b})", "min": "min({a}, {b})",
    "&": "{a} & {b}", "|": "{a} | {b}", "^": "{a} ^ {b}",
}
_OP_NAMES = {
    "add": "+", "plus": "+", "mul": "*", "multiplies": "*", "maximum": "max", "minimum": "min",
    "bit_and": "&", "bit_or": "|", "bit_xor": "^",
    operator.add: "+", np.add: "+", operator.mul: "*", np.multiply: "*", np.maximum: "max", np.minimum: "min",
    max: "max", min: "min", operator.and_: "&", np.bitwise_and: "&", operator.or_: "|", np.bitwise_or: "|",
    operator.xor: "^", np.bitwise_xor: "^",
}
_BITWISE = {"&", "|", "^"}


class Op:
    """A binary operator of a primitive: a known one (inlined) or a user function, compiled as
    a device function that the generated source calls `op`."""

    def __init__(self, op, dtype, where, what="binary_op"):
        key = op
        try:
            key = _OP_NAMES.get(op, op)
        except TypeError:  # unhashable
            pass
        if isinstance(key, str):
            if key not in _KNOWN_OPS:
                raise ValueError(f"{where}: unknown {what} {op!r} (known: {', '.join(_KNOWN_OPS)}, or a function)")
            if key in _BITWISE and dtype.kind == "f":
                raise TypeError(f"{where}: {what} {op!r} is bitwise and needs an integer dtype, not {dtype}")
            self.name, self.template, self.device = key, _KNOWN_OPS[key], None
        elif callable(op):
            self.name, self.template, self.device = getattr(op, "__name__", "op"), None, device_function(op, where, what)
        else:
            raise TypeError(f"{where}: {what} must be a function or an operator name, not {type(op).__name__}")
        self.is_sum = key == "+"

    def apply(self, a, b, dtype):
        """Kernel text of op(a, b) in `dtype`."""
        inner = self.template.format(a=a, b=b) if self.template else f"op({a}, {b})"
        return f"{type_name(dtype)}({inner})"

    def names(self):
        return {"op": self.device} if self.device is not None else {}

    def key(self):
        return self.name if self.device is None else id(self.device)


def device_function(func, where, what):
    """A user operator as a device function: a @cuda.jit(device=True) function as is, a plain
    Python function compiled as one (cuda.coop takes plain functions)."""
    from .._jit import Dispatcher, jit
    if isinstance(func, Dispatcher):
        if not func._device:
            raise TypeError(f"{where}: {what} {func.__name__} is a kernel; give a plain function or a device function")
        return func
    if getattr(func, "__name__", "") == "<lambda>":  # its source is the line around it, not a function
        raise TypeError(f"{where}: {what} cannot be a lambda in simt; define it with def")
    try:
        return jit(device=True)(func)
    except _simt.UnsupportedError as e:
        raise TypeError(f"{where}: {what} {getattr(func, '__name__', func)!r} cannot be compiled for kernels: {e}") from None


def _resolver(names):
    from .._resolve import describe
    import simt.cuda
    namespace = {"cuda": simt.cuda, "np": np, **names}

    def resolve(name):
        if name in namespace:
            return describe(namespace[name])
        if name in ("min", "max", "range", "len", "int", "abs"):
            return ("function", name)
        return ("undefined",)
    return resolve


_cache = {}


def _identity(value):
    """A cache key part for a name's value: constants by value, functions by identity."""
    if isinstance(value, np.generic):
        return ("const", value.dtype.str, repr(value))
    return id(value)


def generated_device_function(name, source, names):
    """The device function of generated `source` (a def named `name`); `names` are the
    non-builtin globals it reads (the user operator). One dispatcher per distinct text and
    operator, so kernels using equal primitives share their compiled code."""
    key = (source, tuple(sorted((k, _identity(v)) for k, v in names.items())))
    entry = _cache.get(key)
    if entry is None:
        d = _simt.Dispatcher(name, source, f"<simt.cuda.coop {name}>", 1, 0, _resolver(names), {"device": True})
        entry = _cache[key] = (d, names)  # the entry keeps the operator alive (its id is in the key)
    return entry[0]


class Primitive:
    """What a cuda.coop factory returns: called inside a @cuda.jit kernel it runs the
    cooperative algorithm (it stands for a generated device function). `files` is what
    @cuda.jit(link=...) receives in numba code (nothing to link in simt);
    `temp_storage_bytes`/`temp_storage_alignment` describe the shared memory it uses."""

    def __init__(self, qualname, name, source, names, temp_storage_bytes, temp_storage_alignment):
        self._qualname = qualname
        self._source = source
        self._simt_device_function = generated_device_function(name, source, names)
        self.temp_storage_bytes = int(temp_storage_bytes)
        self.temp_storage_alignment = int(temp_storage_alignment)

    @property
    def files(self):
        return []

    def __call__(self, *args, **kwargs):
        raise TypeError(f"{self._qualname} is a cooperative primitive: call it inside a @cuda.jit kernel, "
                        "not from the host")

    def __repr__(self):
        return f"<simt.cuda.coop {self._qualname}>"


def rank_expr(dims):
    """Kernel text of the thread's linear rank in a block of shape `dims` (x fastest)."""
    x, y, z = dims
    text = "cuda.threadIdx.x"
    if y > 1 or z > 1:
        text += f" + cuda.threadIdx.y * {x}"
    if z > 1:
        text += f" + cuda.threadIdx.z * {x * y}"
    return text


def shuffle(kind, mask, value, delta, dtype):
    """Kernel text of cuda.shfl_<kind>_sync of `value` (a dtype value) and back to dtype."""
    carrier = CARRIERS[dtype]
    if carrier == dtype:
        return f"cuda.shfl_{kind}_sync({mask}, {value}, {delta})"
    return f"{type_name(dtype)}(cuda.shfl_{kind}_sync({mask}, {type_name(carrier)}({value}), {delta}))"


def block_of(dims):
    """Description of a block shape for names and messages: 128 or 128x2."""
    shown = list(dims)
    while len(shown) > 1 and shown[-1] == 1:
        shown.pop()
    return "x".join(map(str, shown))
