"""NumPy's ufunc-like extras, axis helpers, matvec/vecmat, bit packing, apply_* and memory-overlap queries."""
import math
import operator
import warnings

import numpy as np

from . import _simt
from ._creation import asarray, empty, full, ones, zeros
from ._fusion import vectorize
from ._manipulation import broadcast_arrays, concatenate, moveaxis, vstack
from ._matmul import matmul
from ._ndarray import ndarray
from ._numpy_extras import _any_on_host, _operand, indices as _indices
from ._ufuncs import (abs as abs_, conjugate, copysign, equal, exp2, floor_divide, isinf, isnan, log1p,
                      logical_and, logical_or, maximum, not_equal, remainder, signbit, subtract, where)

_PYTHON_SCALARS = (bool, int, float, complex)


# ---- ufunc-like functions ----------------------------------------------------------------------
def _ufunc_inputs(np_ufunc, args):
    """The arguments as simt arrays of the dtype of NumPy's ufunc's result (for the ufuncs here,
    the dtype it computes in), and that dtype.
    Python scalars stay weak (NEP 50): NumPy's ufunc is asked on empty stand-ins, so its type
    resolution and its TypeError for unsupported types are what simt gets."""
    xs = [x if isinstance(x, _PYTHON_SCALARS) else _operand(x, f"{np_ufunc.__name__}'s argument {i + 1}")
          for i, x in enumerate(args)]
    probe = np_ufunc(*[np.empty(0, x.dtype) if isinstance(x, ndarray) else x for x in xs])
    dt = (probe[0] if isinstance(probe, tuple) else probe).dtype
    return [x.astype(dt, copy=False) if isinstance(x, ndarray) else asarray(np.asarray(x, dt)) for x in xs], dt


def _finish(result, out):
    """result, or result copied into `out` (same_kind casting, as a ufunc's out=)."""
    if out is None:
        return result
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError("this function has one output")
        out = out[0]
    if not isinstance(out, ndarray):
        raise TypeError(f"out= must be a simt array, not {type(out).__module__}.{type(out).__qualname__}")
    from ._copyto import copyto
    copyto(out, result)
    return out


def logaddexp2(x1, x2, /, out=None):
    """log2(2**x1 + 2**x2) without overflow: max + log2(1 + 2**-|x1 - x2|)."""
    (a, b), dt = _ufunc_inputs(np.logaddexp2, (x1, x2))
    work = np.float32 if dt == np.float16 else dt  # (float16: in float32, rounded once at the end)
    a, b = a.astype(work, copy=False), b.astype(work, copy=False)
    r = maximum(a, b) + log1p(exp2(-abs_(a - b))) * (1 / math.log(2))
    # equal arguments (infinities of one sign included, where a - b is NaN): x + log2(2)
    r = where(equal(a, b), a + 1, r)
    return _finish(r.astype(dt, copy=False), out)


_SAME_WIDTH_INT = {2: np.int16, 4: np.int32, 8: np.int64}
# NumPy's half-precision loops, as the installed NumPy has them (2.4: nextafter of equal values
# gives x1, spacing steps towards +inf for either sign; later versions may follow float32's rules).
with np.errstate(all="ignore"):
    _HALF_EQUAL_GIVES_X1 = not np.signbit(np.nextafter(np.float16(0.0), np.float16(-0.0)))
    _HALF_SPACING_TO_INF = bool(np.spacing(np.float16(-1.0)) > 0)


def nextafter(x1, x2, /, out=None):
    """The next representable value after x1 towards x2: one step of the bit pattern (away from
    or towards zero), the smallest subnormal from zero, x2 itself when equal (float16: x1 where
    the installed NumPy's half-precision loop gives it), NaN for NaNs."""
    (a, b), dt = _ufunc_inputs(np.nextafter, (x1, x2))
    a, b = broadcast_arrays(a, b)
    a = a.copy()
    ity = _SAME_WIDTH_INT[dt.itemsize]
    bits = a.view(ity)
    # for either sign, adding one to the bit pattern increases the magnitude
    away = equal(b > a, a > 0)
    stepped = where(away, bits + 1, bits - 1).view(dt)
    tiny = asarray(np.ones((), ity).view(dt))  # (bit pattern 1: the smallest subnormal)
    r = where(equal(a, 0), copysign(tiny, b), stepped)
    r = where(equal(a, b), a if dt == np.float16 and _HALF_EQUAL_GIVES_X1 else b, r)
    r = where(logical_or(isnan(a), isnan(b)), a + b, r)
    return _finish(r, out)


def spacing(x, /, out=None):
    """The distance from x to the next representable value away from zero (negative for
    negative x; NaN for infinities and NaNs). float16, where the installed NumPy's half-precision
    loop does so: the distance to the next value towards +inf, for either sign."""
    (a,), dt = _ufunc_inputs(np.spacing, (x,))
    if dt == np.float16 and _HALF_SPACING_TO_INF:
        target = full(a.shape, np.inf, dt)
    else:
        target = where(a < 0, -np.inf, np.inf).astype(dt, copy=False)
    r = subtract(nextafter(a, target), a)
    return _finish(where(isinf(a), np.nan, r).astype(dt, copy=False), out)


def divmod(x1, x2, out1=None, out2=None, /, *, out=None):  # noqa: A001 (NumPy's name)
    """(floor_divide(x1, x2), remainder(x1, x2)): NumPy's two-output ufunc."""
    if out is not None:
        out1, out2 = out
    return floor_divide(x1, x2, out=out1), remainder(x1, x2, out=out2)


def bitwise_count(x, /, out=None):
    """The number of 1 bits in |x| (uint8), for integers and booleans: a branch-free population
    count on 64-bit words (bit pairs, nibbles, then bytes summed by one multiplication)."""
    a = x if isinstance(x, _PYTHON_SCALARS) else _operand(x, "bitwise_count's argument")
    np.bitwise_count(np.empty(0, a.dtype) if isinstance(a, ndarray) else a)  # (NumPy's TypeError for floats)
    if not isinstance(a, ndarray):
        a = asarray(np.asarray(a))
    if a.dtype == np.bool_:
        a = a.astype(np.uint8)
    if a.dtype.kind == "i":  # NumPy counts the magnitude's bits (abs(INT_MIN) wraps to INT_MIN: one bit)
        a = abs_(a).view(np.dtype(f"u{a.dtype.itemsize}"))
    v = a.astype(np.uint64)
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    v = (v * 0x0101010101010101) >> 56
    return _finish(v.astype(np.uint8), out)


def _sign_test(x, out, negative):
    a = _operand(x, "isneginf's argument" if negative else "isposinf's argument")
    if a.dtype.kind == "c":
        raise TypeError(f"This operation is not supported for {a.dtype} values because it would be ambiguous.")
    sign = signbit(a)
    r = logical_and(isinf(a), sign if negative else ~sign)
    return _finish(r, out)


def isneginf(x, out=None):
    """Whether each element is negative infinity (TypeError for complex values, as NumPy)."""
    return _sign_test(x, out, True)


def isposinf(x, out=None):
    """Whether each element is positive infinity (TypeError for complex values, as NumPy)."""
    return _sign_test(x, out, False)


def iscomplex(x):
    """Whether each element has a nonzero imaginary part (all False for real dtypes)."""
    a = _operand(x, "iscomplex's argument")
    return not_equal(a.imag, 0) if a.dtype.kind == "c" else zeros(a.shape, np.bool_)


def isreal(x):
    """Whether each element has a zero imaginary part (all True for real dtypes)."""
    a = _operand(x, "isreal's argument")
    return equal(a.imag, 0) if a.dtype.kind == "c" else ones(a.shape, np.bool_)


def _dtype_of(x):
    dt = getattr(x, "dtype", None)
    try:
        return np.dtype(dt) if dt is not None else np.asarray(x).dtype  # (a dtype query: nothing is copied)
    except TypeError:  # a scalar type such as np.complex64, whose .dtype is a descriptor
        return np.asarray(x).dtype


def iscomplexobj(x):
    """Whether x's dtype is complex (a Python bool; values are not looked at)."""
    return issubclass(_dtype_of(x).type, np.complexfloating)


def isrealobj(x):
    """Whether x's dtype is not complex (a Python bool; values are not looked at)."""
    return not iscomplexobj(x)


def real_if_close(a, tol=100):
    """a.real when every imaginary part is below tol (tol > 1: in multiples of the dtype's
    machine epsilon), else a. Deciding waits for the device once."""
    a = _operand(a, "real_if_close's argument")
    if a.dtype.kind != "c":
        return a
    if tol > 1:
        tol = np.finfo(a.dtype).eps * tol
    return a.real if not _any_on_host(~(abs_(a.imag) < tol)) else a


@vectorize(["float64(float64)"])
def _i0_kernel(x):
    # The power series sum (x^2/4)^k / (k!)^2 (positive terms, so no cancellation) up to 20,
    # the asymptotic series e^x / sqrt(2 pi x) * sum ((2k-1)!!)^2 / (k! (8x)^k) beyond, where its
    # smallest term is below double precision.
    a = abs(x)
    if a <= 20.0:
        q = a * a * 0.25
        term = 1.0
        total = 1.0
        k = 1
        while k < 80:
            term = term * q / (k * k)
            total += term
            if term < total * 1e-17:
                break
            k += 1
        return total
    s = 1.0
    t = 1.0
    k = 0
    while k < 60:
        t = t * (2 * k + 1) * (2 * k + 1) / (8.0 * (k + 1) * a)
        s += t
        if t < s * 1e-17:
            break
        k += 1
    return math.exp(a) * (s / math.sqrt(2.0 * math.pi * a))


def i0(x):
    """The modified Bessel function of the first kind, order 0 (float inputs keep their dtype,
    others give float64; complex values are a TypeError as in NumPy). One kernel, in float64."""
    a = _operand(x, "i0's argument")
    if a.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    dt = a.dtype if a.dtype.kind == "f" else np.dtype(np.float64)
    return _i0_kernel(a.astype(np.float64)).astype(dt, copy=False)


# ---- axes and stacking ----------------------------------------------------------------------------
def rollaxis(a, axis, start=0):
    """a's axis moved to before position start (the others keep their order); a view."""
    a = _operand(a, "rollaxis' argument")
    n = a.ndim
    axis = _simt._normalize_axis(operator.index(axis), n)
    start = operator.index(start)
    if start < 0:
        start += n
    if not 0 <= start < n + 1:
        raise np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if axis < start:
        start -= 1  # (counted with the moved axis still in place)
    order = [d for d in range(n) if d != axis]
    order.insert(start, axis)
    return a.transpose(tuple(order))


def unstack(x, /, *, axis=0):
    """The slices of x along axis, as a tuple of views."""
    x = _operand(x, "unstack's argument")
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    return tuple(moveaxis(x, axis, 0))


def row_stack(tup, *, dtype=None, casting="same_kind"):
    """vstack under its old name (deprecated in NumPy 2.0, with the same warning)."""
    warnings.warn("`row_stack` alias is deprecated. Use `simt.vstack` directly.", DeprecationWarning, stacklevel=2)
    out = vstack(tup)
    if dtype is not None:
        if not np.can_cast(out.dtype, dtype, casting):
            raise TypeError(f"Cannot cast array data from {out.dtype!r} to {np.dtype(dtype)!r} according to the rule "
                            f"{casting!r}")
        out = out.astype(dtype, copy=False)
    return out


def _core_check(name, signature, operands, needs, shared):
    """NumPy's gufunc checks: each operand has its core dimensions (`needs`), and the contracted
    one agrees (`shared`: its size in operand 0, its size in operand 1)."""
    for i, (x, nd) in enumerate(zip(operands, needs)):
        if x.ndim < nd:
            raise ValueError(f"{name}: Input operand {i} does not have enough dimensions (has {x.ndim}, gufunc core "
                             f"with signature {signature} requires {nd})")
    n0, n1 = shared(*operands)
    if n0 != n1:
        raise ValueError(f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"{signature} (size {n1} is different from {n0})")


def matvec(x1, x2, /, out=None):
    """Matrix-vector products over the last axes, (..., m, n) x (..., n) -> (..., m)."""
    a, b = _operand(x1, "matvec's x1"), _operand(x2, "matvec's x2")
    _core_check("matvec", "(m,n),(n)->(m)", (a, b), (2, 1), lambda a, b: (a.shape[-1], b.shape[-1]))
    return _finish(matmul(a, b[..., None])[..., 0], out)


def vecmat(x1, x2, /, out=None):
    """Vector-matrix products over the last axes, (..., n) x (..., n, m) -> (..., m), the vector
    conjugated (NumPy 2.2's vecmat)."""
    a, b = _operand(x1, "vecmat's x1"), _operand(x2, "vecmat's x2")
    _core_check("vecmat", "(n),(n,m)->(m)", (a, b), (1, 2), lambda a, b: (a.shape[-1], b.shape[-2]))
    if a.dtype.kind == "c":
        a = conjugate(a)
    return _finish(matmul(a[..., None, :], b)[..., 0, :], out)


# ---- bits -----------------------------------------------------------------------------------------
def _bit_weights(bitorder):
    if bitorder not in ("big", "little"):
        raise ValueError("'order' must be either 'little' or 'big'")
    w = np.left_shift(np.uint8(1), np.arange(8, dtype=np.uint8))  # 1, 2, ..., 128
    return w[::-1].copy() if bitorder == "big" else w


def packbits(a, /, axis=None, bitorder="big"):
    """Groups of 8 elements along axis (None: a flattened) packed into uint8 bits (nonzero: 1),
    the last group padded with zeros; 'big': the first element in the highest bit."""
    a = _operand(a, "packbits' argument")
    if a.dtype.kind not in "biu":
        raise TypeError("Expected an input array of integer or boolean data type")
    w = asarray(_bit_weights(bitorder))
    if axis is None or a.ndim == 0:
        a, axis = a.ravel(), 0
    bits = moveaxis(a != 0, axis, -1)
    n = bits.shape[-1]
    groups = -(-n // 8)
    padded = zeros(bits.shape[:-1] + (groups * 8,), np.uint8)
    padded[..., :n] = bits
    packed = (padded.reshape(bits.shape[:-1] + (groups, 8)) * w).sum(axis=-1, dtype=np.uint8)
    return moveaxis(packed, -1, axis)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """Each uint8 element along axis (None: a flattened) expanded into its 8 bits (uint8 0/1);
    count: keep that many bits along the axis (negative: drop that many from the end; beyond
    8 * length: padded with zeros)."""
    a = _operand(a, "unpackbits' argument")
    if a.dtype != np.uint8:
        raise TypeError("Expected an input array of unsigned byte data type")
    w = asarray(_bit_weights(bitorder))
    if axis is None or a.ndim == 0:
        a, axis = a.ravel(), 0
    axis = _simt._normalize_axis(operator.index(axis), a.ndim)
    b = moveaxis(a, axis, -1)
    total = b.shape[-1] * 8
    bits = ((b[..., None] & w) != 0).astype(np.uint8).reshape(b.shape[:-1] + (total,))
    if count is not None:
        count = operator.index(count)
        keep = count if count >= 0 else total + count
        if keep < 0:
            raise ValueError("-count larger than number of elements")
        if keep <= total:
            bits = bits[..., :keep]
        else:
            bits = concatenate([bits, zeros(bits.shape[:-1] + (keep - total,), np.uint8)], axis=-1)
    return moveaxis(bits, -1, axis)


# ---- applying functions -------------------------------------------------------------------------------
def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d applied to every 1-D slice of arr along axis (a simt array each; one call per
    slice, from the host); its results, all of one shape, replace the axis in the result."""
    arr = _operand(arr, "apply_along_axis' argument")
    axis = _simt._normalize_axis(operator.index(axis), arr.ndim)
    moved = moveaxis(arr, axis, -1)
    outer_shape = moved.shape[:-1]
    if 0 in outer_shape:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    positions = iter(np.ndindex(outer_shape))
    first = _operand(func1d(moved[next(positions)], *args, **kwargs), "apply_along_axis' function result")
    out = empty(outer_shape + first.shape, first.dtype)
    out[(0,) * len(outer_shape)] = first
    for pos in positions:
        out[pos] = _operand(func1d(moved[pos], *args, **kwargs), "apply_along_axis' function result")
    # the result's own axes go where `axis` was
    k = first.ndim
    order = list(range(axis)) + list(range(len(outer_shape), len(outer_shape) + k)) + \
        list(range(axis, len(outer_shape)))
    return out.transpose(tuple(order))


def apply_over_axes(func, a, axes):
    """func(a, axis) applied for each axis in turn, each result (given back the reduced axis
    when it lost it) the next input."""
    a = _operand(a, "apply_over_axes' argument")
    n = a.ndim
    for ax in ([axes] if np.ndim(axes) == 0 else axes):
        ax = operator.index(ax)
        if ax < 0:
            ax += n
        res = func(a, ax)
        if res.ndim != a.ndim:
            res = res.reshape(res.shape[:ax] + (1,) + res.shape[ax:])
            if res.ndim != a.ndim:
                raise ValueError("function is not returning an array of the correct shape")
        a = res
    return a


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*index_grids, **kwargs): each argument holds every element's index along one
    axis (simt arrays of dtype); whatever function returns."""
    return function(*_indices(shape, dtype=dtype), **kwargs)


# ---- memory overlap -------------------------------------------------------------------------------
class _Extent:
    """Describes a simt array's memory (address, shape, strides, item size) to NumPy, which reads
    only these numbers, never the memory (a device address on the cuda backend)."""

    def __init__(self, x):
        self.__array_interface__ = {"data": (x._ptr, True), "shape": x.shape, "strides": x.strides,
                                    "typestr": x.dtype.str, "version": 3}


def _overlap_operands(a, b, fname):
    a, b = _operand(a, f"{fname}'s a"), _operand(b, f"{fname}'s b")
    if a.size == 0 or b.size == 0:
        return None
    return np.asarray(_Extent(a)), np.asarray(_Extent(b))


def shares_memory(a, b, /, max_work=-1):
    """Whether a and b have an element in common in memory (exactly, by NumPy's overlap solver on
    their addresses and strides; max_work bounds its effort, TooHardError beyond)."""
    pair = _overlap_operands(a, b, "shares_memory")
    return False if pair is None else bool(np.shares_memory(*pair, max_work=max_work))


def may_share_memory(a, b, /, max_work=0):
    """Whether the memory ranges of a and b overlap (max_work=0: bounds only, so True need not
    mean shared elements; -1: exact, as shares_memory)."""
    pair = _overlap_operands(a, b, "may_share_memory")
    return False if pair is None else bool(np.may_share_memory(*pair, max_work=max_work))


# np.logaddexp2(d, e), np.divmod(d, e) ...: ufuncs in NumPy, functions here (see _ufuncs)
UFUNC_FUNCTIONS = {"logaddexp2": logaddexp2, "nextafter": nextafter, "spacing": spacing, "divmod": divmod,
                   "bitwise_count": bitwise_count, "matvec": matvec, "vecmat": vecmat}
