"""simt.cuda.tile: tile kernels with cuda.tile's names (`import simt.cuda.tile as ct`).

A tile kernel works on whole tiles, immutable arrays of a compile-time shape (powers of two):

    @ct.kernel
    def vector_add(a, b, c, tile: ct.Constant[int]):
        i = ct.bid(0)
        ct.store(c, index=(i,), tile=ct.load(a, index=(i,), shape=(tile,)) + ct.load(b, index=(i,), shape=(tile,)))

    ct.launch(stream, (ct.cdiv(n, 1024),), vector_add, (a, b, c, 1024))

Kernels compile through simt's kernel compiler on both backends: on the cuda backend a block of
128 threads holds each tile (in quads: thread t the elements 4t..4t+3, then 4(t+128).., ...), on the
cpu backend one thread holds whole tiles. Loads read elements outside the array as the padding value (zero unless
padding_mode says otherwise) and stores drop them. See docs/tile.md."""
import operator

import numpy as np


__all__ = ["kernel", "launch", "Constant", "ConstantAnnotation", "PaddingMode", "RoundingMode", "MemoryOrder", "MemoryScope",
           "ByTarget", "cdiv"]

# Element types, by cuda.tile's names. tfloat32 (TensorFloat-32 inputs of mma) computes as float32.
bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
tfloat32 = np.float32


class PaddingMode:
    """What tile.load() reads for elements outside the array (ZERO when not given; UNDETERMINED
    reads zero too)."""
    UNDETERMINED = "undetermined"
    ZERO = "zero"
    NEG_ZERO = "neg_zero"
    NAN = "nan"
    POS_INF = "pos_inf"
    NEG_INF = "neg_inf"


class RoundingMode:
    """rounding_mode= of arithmetic, reductions and astype: simt rounds to nearest even (RN, the
    default); exp and tanh also take FULL and APPROX (computed in full precision). Other modes
    are a compile error."""
    RN = "nearest_even"
    RZ = "zero"
    RM = "negative_inf"
    RP = "positive_inf"
    RA = "nearest_away"
    FULL = "full"
    APPROX = "approx"
    RZI = "nearest_int_to_zero"


class MemoryOrder:
    """memory_order= of atomics, loads and stores: accepted; simt's atomics are relaxed and a block's
    own loads and stores happen in program order."""
    WEAK = "weak"
    RELAXED = "relaxed"
    ACQUIRE = "acquire"
    RELEASE = "release"
    ACQ_REL = "acq_rel"


class MemoryScope:
    """memory_scope= of atomics, loads and stores: accepted (device-wide atomics serve every scope)."""
    NONE = "none"
    BLOCK = "block"
    DEVICE = "device"
    SYS = "sys"


class ConstantAnnotation:
    """The annotation `tile.Constant[T]`: the parameter's value is compiled into the kernel (one
    specialization per value), so it can size tiles."""

    def __init__(self, kind):
        self.kind = kind

    def __repr__(self):
        return f"tile.Constant[{getattr(self.kind, '__name__', self.kind)}]"


class Constant:
    def __class_getitem__(cls, kind):
        return ConstantAnnotation(kind)


ConstInt = Constant[int]
ConstBool = Constant[bool]


class ByTarget:
    """A per-architecture value of a kernel option (num_ctas=ByTarget(sm_100=2)): a hint that
    simt's tile kernels accept and do not need."""

    def __init__(self, default=None, **by_target):
        self.default = default
        self.by_target = by_target


def cdiv(x, y):
    """Ceiling division: the number of tiles of size y that cover x (also inside kernels)."""
    return -(-operator.index(x) // operator.index(y))


cdiv._simt_builtin = "tile.cdiv"


def _in_kernel_only(name):
    def stub(*args, **kwargs):
        raise TypeError(f"simt.cuda.tile.{name}() can only be called inside a @tile.kernel function")
    stub.__name__ = name
    stub.__qualname__ = name
    stub._simt_builtin = f"tile.{name}"
    return stub


_KERNEL_FUNCTIONS = (
    "bid", "num_blocks", "num_tiles", "load", "store", "gather", "scatter", "full", "zeros", "ones", "arange",
    "astype", "reshape", "broadcast_to", "expand_dims", "permute", "transpose", "sum", "prod", "max", "min",
    "argmax", "argmin", "mma", "matmul", "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "bitwise_and",
    "bitwise_or", "bitwise_xor", "maximum", "minimum", "where", "exp", "exp2", "log", "log2", "log10", "log1p",
    "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh", "erf", "floor",
    "ceil", "trunc", "abs", "negative", "cat", "atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
    "atomic_xor", "atomic_xchg", "bitwise_lshift", "bitwise_rshift", "bitwise_not", "equal", "not_equal", "greater",
    "greater_equal", "less", "less_equal", "isnan", "atan2", "cumsum", "cumprod", "extract", "bitcast", "atomic_cas", "insert",
    "ensure_constant", "static_assert", "assume_divisible_by", "reduce", "scan", "static_eval", "static_iter")
for _name in _KERNEL_FUNCTIONS:
    globals()[_name] = _in_kernel_only(_name)
    __all__.append(_name)
del _name

from ._kernel import TileKernel, kernel, launch  # noqa: E402, F401  (TileKernel: for isinstance checks)
