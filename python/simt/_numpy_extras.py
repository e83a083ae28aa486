"""NumPy functions simt lacked, composed from simt's own operations (ranges, indexing, sorting,
searchsorted, matmul and elementwise ufuncs), so they run on every backend without new kernels:
NumPy 2's array-API aliases, logspace/geomspace, index helpers (tri, indices, ix_,
unravel_index, ravel_multi_index), take_along_axis, append, delete, resize, rot90, pad, set
membership (isin, setdiff1d), sinc, angle, fix, polyval and the products inner, vdot, kron,
cross and tensordot. Results and result dtypes follow NumPy's."""
import functools
import math
import numbers
import operator
import warnings

import numpy as np

from . import _dtypes, _simt
from ._creation import asarray, empty, full, zeros
from ._manipulation import (_device_array, arange, broadcast_arrays, concatenate, expand_dims, linspace, moveaxis,
                            stack, transpose)
from ._matmul import matmul
from ._ndarray import ndarray
from ._rearrange import flip
from ._searchsorted import searchsorted
from ._selection import flatnonzero, nonzero, take
from ._sorting import sort
from ._ufuncs import (arccos, arccosh, arcsin, arcsinh, arctan, arctan2, arctanh, conjugate, equal, greater_equal,
                      invert, left_shift, logical_not, logical_or, minimum, multiply, negative, power, remainder,
                      right_shift, sin, subtract, true_divide, trunc, where)
from ._ufuncs import clip as _clip
from ._unique import unique

# ---- NumPy 2's array-API names: the same objects, as np.acos is np.arccos ---------------------
acos, asin, atan = arccos, arcsin, arctan
acosh, asinh, atanh = arccosh, arcsinh, arctanh
atan2 = arctan2
pow = power  # noqa: A001 (NumPy's name shadows the builtin, as simt.round and simt.max do)
bitwise_left_shift, bitwise_right_shift, bitwise_invert = left_shift, right_shift, invert
concat = concatenate
permute_dims = transpose


def _operand(x, where):
    """x as a device array: simt arrays as they are, Python scalars and (nested) lists or tuples
    copied to the device as NumPy would read them; NumPy arrays are refused with simt's guidance
    (host data never moves to the device implicitly)."""
    if isinstance(x, (list, tuple)):
        return asarray(x)
    return _device_array(x, where)


def _host_parameter(x):
    """A small host-side parameter (pad widths, constants) as a NumPy array; a simt array is
    copied back (it shapes the result, so the host must know it anyway)."""
    return x.get() if isinstance(x, ndarray) else np.asarray(x)


def _index_array(x, where):
    """x as a device array of integers (int64 unless it is an integer array already): NumPy's
    TypeError for floats."""
    a = _operand(x, where)
    if a.dtype.kind not in "biu":
        raise TypeError("only int indices permitted")
    return a if a.dtype.kind in "iu" else a.astype(np.int64)


def _any_on_host(flags):
    """Whether any flag is set: one small device-to-host copy (a synchronize)."""
    from ._reductions import any as any_
    return bool(any_(flags).get())


# ---- ranges -------------------------------------------------------------------------------------
def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """base ** linspace(start, stop): `num` samples evenly spaced on a log scale. With scalar
    arguments a Python base is weak (float32 endpoints give float32); when any argument is an
    array all three are arrays of one number of dimensions (an array base: one base per sequence)."""
    if all(np.ndim(v) == 0 and not isinstance(v, ndarray) for v in (start, stop, base)):
        out = power(base, linspace(start, stop, num=num, endpoint=endpoint, axis=axis))
    else:
        s, e, b = (_operand(v, f"logspace's {name}") for v, name in ((start, "start"), (stop, "stop"), (base, "base")))
        nd = max(s.ndim, e.ndim, b.ndim)
        s, e, b = (v.reshape((1,) * (nd - v.ndim) + v.shape) for v in (s, e, b))
        out = power(expand_dims(b, axis), linspace(s, e, num=num, endpoint=endpoint, axis=axis))
    return out if dtype is None else out.astype(_dtypes.normalize(dtype), copy=False)


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` samples in geometric progression from start to stop; the endpoints are exactly
    start and stop. Negative and complex endpoints are rotated onto the positive reals for the
    logarithms and rotated back. Scalar endpoints only (checked on the host)."""
    if isinstance(start, ndarray) or isinstance(stop, ndarray) or np.ndim(start) or np.ndim(stop):
        raise NotImplementedError("geomspace: simt supports scalar start and stop only")
    if axis not in (0, -1):
        raise np.exceptions.AxisError(axis, 1)
    s, e = np.asarray(start), np.asarray(stop)
    if s == 0 or e == 0:
        raise ValueError("Geometric sequence cannot include zero")
    calc = np.result_type(s, e, float(num), np.zeros((), dtype))  # (a float type; dtype joins in)
    calc = _dtypes.normalize(calc)
    s, e = s.astype(calc), e.astype(calc)
    with np.errstate(all="ignore"):  # a sign change gives NaNs, as in NumPy
        unit = s / abs(s)  # 1, -1 or e**(i*phi): start lies on the positive real axis after dividing
        s, e = s / unit, e / unit
        log_s, log_e = np.log10(s), np.log10(e)
    out = logspace(log_s[()], log_e[()], num=num, endpoint=endpoint, dtype=calc)
    if num > 0:
        out[0] = s
        if endpoint and num > 1:
            out[-1] = e
    out = multiply(out, unit[()])
    return out if dtype is None else out.astype(_dtypes.normalize(dtype), copy=False)


# ---- index helpers ------------------------------------------------------------------------------
def tri(N, M=None, k=0, dtype=float, *, like=None):
    """An N x M array with ones at and below the k-th diagonal, zeros above."""
    N = max(operator.index(N), 0)
    M = N if M is None else max(operator.index(M), 0)
    k = operator.index(k)
    rows = arange(N, dtype=np.int64).reshape(N, 1)
    cols = arange(-k, M - k, dtype=np.int64).reshape(1, M)
    return greater_equal(rows, cols).astype(_dtypes.normalize(dtype), copy=False)


def _axis_or_flat(a, axis):
    """(a, axis normalized), or (a flattened, 0) for axis=None: NumPy's reading of `axis` in the
    functions that work along one axis of an array or on its flattened elements."""
    if axis is None:
        return a.ravel(), 0
    return a, _simt._normalize_axis(operator.index(axis), a.ndim)


def _unit_axes(n, i, length):
    """A shape of n ones with `length` at position i (a vector lined up along axis i)."""
    return (1,) * i + (length,) + (1,) * (n - i - 1)


def indices(dimensions, dtype=int, sparse=False):
    """The index grid of an array of shape `dimensions`: out[i] holds each element's i-th index
    (sparse=True: one broadcastable vector per axis instead)."""
    dims = tuple(operator.index(d) for d in dimensions)
    if any(d < 0 for d in dims):
        raise ValueError("negative dimensions are not allowed")
    dt = _dtypes.normalize(dtype)
    n = len(dims)
    ramps = [arange(d, dtype=dt).reshape(_unit_axes(n, i, d)) for i, d in enumerate(dims)]
    if sparse:
        return tuple(ramps)
    out = empty((n,) + dims, dt)
    for i, r in enumerate(ramps):
        out[i] = r
    return out


def ix_(*args):
    """Open-mesh index arrays from 1-D sequences: the i-th varies along axis i, so indexing with
    all of them selects the cross product (boolean sequences are masks)."""
    n = len(args)
    out = []
    for i, seq in enumerate(args):
        a = _operand(seq, f"ix_'s argument {i}")
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.size == 0:
            a = a.astype(np.int64)  # an empty list reads as float; as an index it is an empty int array
        elif a.dtype == np.bool_:
            (a,) = nonzero(a)
        out.append(a.reshape(_unit_axes(n, i, -1)))
    return tuple(out)


def _shape_tuple(shape):
    return (operator.index(shape),) if isinstance(shape, numbers.Integral) else tuple(operator.index(d) for d in shape)


def _check_order(order):
    if order not in ("C", "F"):
        raise ValueError(f"only 'C' or 'F' order is permitted (got {order!r})")


def _strides_of(dims, order):
    """Element strides of a C- or F-ordered array of shape `dims` (Python ints)."""
    strides, step = [0] * len(dims), 1
    for i in (reversed(range(len(dims))) if order == "C" else range(len(dims))):
        strides[i] = step
        step *= dims[i]
    return strides


def unravel_index(indices, shape, order="C"):
    """The coordinates, in an array of `shape`, of each flat index (a tuple of int64 arrays
    shaped like `indices`). Out-of-range indices raise ValueError as in NumPy: that check
    copies a flag back to the host (one synchronize)."""
    _check_order(order)
    dims = _shape_tuple(shape)
    if any(d < 0 for d in dims):
        raise ValueError("dimensions must be non-negative")
    idx = _index_array(indices, "unravel_index's indices")
    size = math.prod(dims)
    bad = logical_or(idx < 0, idx >= size)
    if _any_on_host(bad):
        first = take(idx.ravel(), flatnonzero(bad.ravel())[:1]).get()[0]
        raise ValueError(f"index {first} is out of bounds for array with size {size}")
    idx = idx.astype(np.int64, copy=False)
    strides = _strides_of(dims, order)
    return tuple(remainder(idx // st, d) if d else zeros(idx.shape, np.int64) for st, d in zip(strides, dims))


_CLIP_MODES = ("raise", "wrap", "clip")


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    """The flat index of each coordinate tuple in an array of shape `dims` (int64, the
    coordinates broadcast together). mode 'wrap'/'clip' (or one per axis) fix out-of-range
    coordinates; with 'raise' they are a ValueError, found by one host copy of a flag
    (a synchronize)."""
    _check_order(order)
    dims = _shape_tuple(dims)
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    for m in modes:
        if m not in _CLIP_MODES:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    if len(modes) != len(dims):
        raise ValueError(f"mode must have length {len(dims)} (one per dimension), got {len(modes)}")
    if 0 in dims:
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    coords = [multi_index[i] for i in range(multi_index.shape[0])] if isinstance(multi_index, ndarray) \
        else list(multi_index)
    if len(coords) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    coords = [_index_array(c, f"ravel_multi_index's coordinate {i}").astype(np.int64, copy=False)
              for i, c in enumerate(coords)]
    coords = broadcast_arrays(*coords) if coords else coords
    out = None
    bad = None
    for c, d, m, st in zip(coords, dims, modes, _strides_of(dims, order)):
        if m == "wrap":
            c = remainder(c, d) if d else c
        elif m == "clip":
            c = _clip(c, 0, max(d - 1, 0))
        else:
            outside = logical_or(c < 0, c >= d)
            bad = outside if bad is None else logical_or(bad, outside)
        term = c * st
        out = term if out is None else out + term
    if bad is not None and _any_on_host(bad):
        raise ValueError("invalid entry in coordinates array")
    return out if out is not None else zeros((), np.int64)


# ---- rearranging ------------------------------------------------------------------------------
def take_along_axis(arr, indices, axis=-1):
    """arr's elements at `indices` along `axis`, the other axes matched position by position
    (indices from argsort/argpartition pick each row's own order); axis=None: of the flattened
    array."""
    arr = _operand(arr, "take_along_axis' argument")
    indices = _operand(indices, "take_along_axis' indices")
    if axis is None and indices.ndim != 1:
        raise ValueError("when axis=None, `indices` must have a single dimension.")
    arr, axis = _axis_or_flat(arr, axis)
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    n = arr.ndim
    key = tuple(indices if d == axis else arange(arr.shape[d]).reshape(_unit_axes(n, d, -1)) for d in range(n))
    return arr[key]


def append(arr, values, axis=None):
    """arr with `values` joined at the end (axis=None: both flattened); a new array."""
    arr = _operand(arr, "append's argument")
    values = _operand(values, "append's values")
    if axis is None:
        return concatenate([arr.ravel(), values.ravel()], axis=0)
    return concatenate([arr, values], axis=axis)


def delete(arr, obj, axis=None):
    """arr without the sub-arrays at `obj` (an int, a slice, or integer indices or a boolean
    mask) along `axis` (None: of the flattened array); a new array."""
    arr, axis = _axis_or_flat(_operand(arr, "delete's argument"), axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        keep = np.ones(n, np.bool_)
        keep[obj] = False
        return take(arr, asarray(np.flatnonzero(keep)), axis=axis)
    if isinstance(obj, numbers.Integral) and not isinstance(obj, (bool, np.bool_)):
        i = operator.index(obj)
        if not -n <= i < n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        i %= n
        lead = (slice(None),) * axis
        return concatenate([arr[lead + (slice(None, i),)], arr[lead + (slice(i + 1, None),)]], axis=axis)
    if isinstance(obj, ndarray):
        idx = obj
    else:
        host = np.asarray(obj)
        if host.size == 0 and not isinstance(obj, np.ndarray):
            host = host.astype(np.int64)  # an empty list: no indices (not a float array)
        idx = asarray(host)  # (host indices are copied over, as take copies them)
    if idx.dtype == np.bool_:
        if idx.shape != (n,):
            raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the axis "
                             f"length of {n}")
        keep = logical_not(idx)
    else:
        if idx.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        keep = full((n,), True, np.bool_)
        keep[idx] = False  # (out-of-range indices: IndexError from the indexing)
    return take(arr, flatnonzero(keep), axis=axis)


def resize(a, new_shape):
    """An array of new_shape filled with a's elements (C order), repeated cyclically as needed
    (zeros when a or the result is empty)."""
    a = _operand(a, "resize's argument")
    shape = _shape_tuple(new_shape)
    if any(d < 0 for d in shape):
        raise ValueError("all elements of `new_shape` must be non-negative")
    size = math.prod(shape)
    if size == 0 or a.size == 0:
        return zeros(shape, a.dtype)
    flat = a.ravel()
    if size <= a.size:
        return flat[:size].reshape(shape).copy()
    return take(flat, remainder(arange(size, dtype=np.int64), a.size)).reshape(shape)


def rot90(m, k=1, axes=(0, 1)):
    """m rotated by 90 degrees k times in the plane of `axes`, from the first axis towards the
    second; a view (flips and an axis swap)."""
    m = _operand(m, "rot90's argument")
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = (operator.index(x) for x in axes)
    if a0 == a1 or abs(a0 - a1) == m.ndim:
        raise ValueError("Axes must be different.")
    if not (-m.ndim <= a0 < m.ndim and -m.ndim <= a1 < m.ndim):
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    k = operator.index(k) % 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, a0), a1)
    swap = list(range(m.ndim))
    swap[a0 % m.ndim], swap[a1 % m.ndim] = swap[a1 % m.ndim], swap[a0 % m.ndim]
    # a quarter turn: reverse the second axis, then exchange the two (three: the other way round)
    return flip(m, a1).transpose(tuple(swap)) if k == 1 else flip(m.transpose(tuple(swap)), a1)


def _pairs(x, ndim, what):
    """x (a scalar, one (before, after) pair, or one pair per axis) as ndim (before, after) pairs,
    as NumPy's pad reads its widths and constants."""
    if x.size == 1:
        return [(x.ravel()[0], x.ravel()[0])] * ndim
    if x.size == 2 and x.shape != (2, 1):
        return [(x.ravel()[0], x.ravel()[1])] * ndim
    try:
        return [tuple(p) for p in np.broadcast_to(x, (ndim, 2))]
    except ValueError:
        raise ValueError(f"unable to broadcast {what} of shape {x.shape} to ({ndim}, 2)") from None


# Each mode of pad and the keyword arguments it takes (NumPy's table).
_PAD_KWARGS = {"constant": ("constant_values",), "edge": (), "empty": (), "wrap": (), "reflect": ("reflect_type",),
               "symmetric": ("reflect_type",), "linear_ramp": ("end_values",), "maximum": ("stat_length",),
               "mean": ("stat_length",), "median": ("stat_length",), "minimum": ("stat_length",)}


def _mirror_index(mode, b, n, e):
    """For each position of an axis padded by (b, e) around n elements, the element it copies
    (NumPy's 'wrap', 'reflect' and 'symmetric': periodic, mirrored without and with the edge)."""
    i = np.arange(b + n + e, dtype=np.int64) - b
    if mode == "wrap":
        return i % n
    if mode == "reflect":
        if n == 1:
            return np.zeros_like(i)
        j = i % (2 * n - 2)
        return np.where(j < n, j, 2 * n - 2 - j)
    j = i % (2 * n)  # symmetric
    return np.where(j < n, j, 2 * n - 1 - j)


def pad(array, pad_width, mode="constant", **kwargs):
    """array padded along each axis by pad_width (before, after) elements: mode 'constant' fills
    constant_values, 'edge' repeats the edge elements, 'wrap', 'reflect' and 'symmetric' extend
    the array periodically or mirrored (reflect_type='odd': mirrored through the edge value),
    'maximum', 'mean', 'median' and 'minimum' fill a statistic of stat_length edge elements,
    'linear_ramp' runs from end_values to the edge ('empty' leaves them undefined). Axes are
    filled in order, so corner regions take the last axis's values, as in NumPy."""
    a = _operand(array, "pad's argument")
    if callable(mode):
        raise NotImplementedError(f"pad: simt does not take a function as the mode ({mode.__name__!r}); use one of "
                                  f"{', '.join(repr(m) for m in _PAD_KWARGS)}")
    if mode not in _PAD_KWARGS:
        raise ValueError(f"mode '{mode}' is not supported")
    unsupported = set(kwargs) - set(_PAD_KWARGS[mode])
    if unsupported:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {unsupported}")
    constant_values, reflect_type = kwargs.get("constant_values", 0), kwargs.get("reflect_type", "even")
    if reflect_type not in ("even", "odd"):
        raise ValueError(f"pad: reflect_type must be 'even' or 'odd', not {reflect_type!r}")
    widths = _host_parameter(pad_width)
    if widths.dtype.kind not in "iu":
        raise TypeError("`pad_width` must be of integral type.")
    if widths.size and widths.min() < 0:
        raise ValueError("index can't contain negative values.")
    widths = [(int(b), int(e)) for b, e in _pairs(widths, a.ndim, "pad_width")]
    shape = tuple(b + n + e for (b, e), n in zip(widths, a.shape))
    inner_ = tuple(slice(b, b + n) for (b, _), n in zip(widths, a.shape))
    if mode not in ("constant", "empty") and a.size == 0:
        for d, (b, e) in enumerate(widths):
            if a.shape[d] == 0 and (b or e):
                raise ValueError(f"can't extend empty axis {d} using modes other than 'constant' or 'empty'")
        return empty(shape, a.dtype)
    if mode in ("linear_ramp", "maximum", "mean", "median", "minimum") or reflect_type == "odd":
        from ._pad_modes import pad_more
        return pad_more(a, widths, mode, kwargs)
    if mode in ("wrap", "reflect", "symmetric"):  # one gather per padded axis
        out = a
        for d, (b, e) in enumerate(widths):
            if b or e:
                out = take(out, asarray(_mirror_index(mode, b, a.shape[d], e)), axis=d)
        return out if out is not a else a.copy()
    if mode == "constant":
        values = _pairs(_host_parameter(constant_values), a.ndim, "constant_values")
        flat = [v for pair in values for v in pair] or [np.asarray(0)[()]]
        if all(np.array_equal(v, flat[0]) for v in flat[1:]):  # one value: fill, then copy the array in
            out = full(shape, flat[0], a.dtype)
            out[inner_] = a
            return out
    out = empty(shape, a.dtype)
    out[inner_] = a
    if mode == "empty":
        return out
    for d, (b, e) in enumerate(widths):
        # region of axis d: whole extent along the axes already padded, the original part along the rest
        lead, rest = (slice(None),) * d, inner_[d + 1:]
        n = a.shape[d]
        before, after = lead + (slice(0, b),) + rest, lead + (slice(b + n, b + n + e),) + rest
        if mode == "constant":
            if b:
                out[before] = values[d][0]
            if e:
                out[after] = values[d][1]
        else:
            if b:
                out[before] = out[lead + (slice(b, b + 1),) + rest]
            if e:
                out[after] = out[lead + (slice(b + n - 1, b + n),) + rest]
    return out


# ---- sets -------------------------------------------------------------------------------------
def _membership(values, sorted_tests):
    """Bool flags, shaped like `values`: whether each value equals an element of the sorted 1-D
    `sorted_tests` (binary search, then one comparison with the element found)."""
    n = sorted_tests.size
    if n == 0 or values.size == 0:
        return zeros(values.shape, np.bool_)
    pos = searchsorted(sorted_tests, values.ravel())
    found = take(sorted_tests, minimum(pos, n - 1))
    return equal(found, values.ravel()).reshape(values.shape)


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    """Whether each element of `element` is among `test_elements` (a bool array shaped like
    `element`; invert=True: whether it is not). test_elements is sorted once and searched,
    O((N + M) log M) work. assume_unique and kind are accepted for NumPy's signature."""
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: '{kind}'. Please use None, 'sort' or 'table'.")
    e = _operand(element, "isin's element")
    t = _operand(test_elements, "isin's test_elements")
    if kind == "table" and not (e.dtype.kind in "biu" and t.dtype.kind in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. "
                         "Please select 'sort' or None for kind.")
    flags = _membership(e, sort(t.ravel()))
    return logical_not(flags) if invert else flags


def setdiff1d(ar1, ar2, assume_unique=False):
    """The sorted unique values of ar1 that are not in ar2 (assume_unique: ar1's elements, in
    order, flattened)."""
    a = _operand(ar1, "setdiff1d's ar1")
    b = _operand(ar2, "setdiff1d's ar2")
    a = a.ravel() if assume_unique else unique(a)
    b = sort(b.ravel()) if assume_unique else unique(b)  # (unique's values come sorted)
    keep = logical_not(_membership(a, b))
    return take(a, flatnonzero(keep))


# ---- elementwise --------------------------------------------------------------------------------
def sinc(x):
    """sin(pi x) / (pi x), with its limit 1 at x = 0."""
    x = _operand(x, "sinc's argument")
    y = multiply(x, math.pi)
    return where(equal(x, 0), 1, true_divide(sin(y), y))


def angle(z, deg=False):
    """The counterclockwise angle of complex `z` from the positive real axis (radians, or degrees
    with deg=True); 0 or pi for real values."""
    z = _operand(z, "angle's argument")
    a = arctan2(z.imag, z.real) if z.dtype.kind == "c" else arctan2(0, z)
    return multiply(a, 180 / math.pi) if deg else a


def fix(x, out=None):
    """Round to the nearest integer towards zero (NumPy's fix is trunc)."""
    x = _operand(x, "fix's argument")
    return trunc(x) if out is None else trunc(x, out=out)


def polyval(p, x):
    """The polynomial with coefficients p (highest power first) at x, by Horner's scheme:
    ((p0 x + p1) x + p2) ...; the result has x's dtype promoted with p's."""
    p = _operand(p, "polyval's p")
    x = _operand(x, "polyval's x")
    if p.ndim == 0:
        raise TypeError("iteration over a 0-d array")  # (NumPy iterates over p's coefficients)
    y = zeros(x.shape, x.dtype)
    for i in range(p.shape[0]):
        y = y * x + p[i]
    return y


# ---- products -----------------------------------------------------------------------------------
def _shape_text(shape):
    return "(" + ",".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def inner(a, b, /):
    """Sum of products over the last axes of a and b (the result has a's other axes, then b's);
    a scalar operand multiplies."""
    a, b = _operand(a, "inner's a"), _operand(b, "inner's b")
    if a.ndim == 0 or b.ndim == 0:
        return multiply(a, b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"shapes {_shape_text(a.shape)} and {_shape_text(b.shape)} not aligned: {a.shape[-1]} "
                         f"(dim {a.ndim - 1}) != {b.shape[-1]} (dim {b.ndim - 1})")
    return tensordot(a, b, axes=([-1], [-1]))


def vdot(a, b, /):
    """The dot product of a and b flattened, with a conjugated when complex (a 0-d array)."""
    a, b = _operand(a, "vdot's a").ravel(), _operand(b, "vdot's b").ravel()
    if a.size != b.size:
        raise ValueError(f"vdot: the flattened operands differ in length ({a.size} and {b.size})")
    if a.dtype.kind == "c":
        a = conjugate(a)
    return matmul(a, b)


def kron(a, b):
    """The Kronecker product: blocks a[i, j, ...] * b laid out in a's shape (shapes padded with
    leading ones to the same length). One broadcast multiply over interleaved axes."""
    a, b = _operand(a, "kron's a"), _operand(b, "kron's b")
    nd = max(a.ndim, b.ndim)
    sa = (1,) * (nd - a.ndim) + a.shape
    sb = (1,) * (nd - b.ndim) + b.shape
    spread_a = a.reshape([x for n in sa for x in (n, 1)])
    spread_b = b.reshape([x for n in sb for x in (1, n)])
    return multiply(spread_a, spread_b).reshape([p * q for p, q in zip(sa, sb)])


@functools.lru_cache(maxsize=None)
def _numpy_crosses_2_vectors():
    """Whether the installed NumPy still takes 2-vectors in cross (deprecated in 2.0, refused
    later): simt does what it does."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            np.cross(np.zeros(2), np.zeros(2))
        except ValueError:
            return False
    return True


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """Cross products of the 3-vectors along axisa of a and axisb of b (broadcast), placed along
    axisc of the result. 2-vectors count as having z = 0 (NumPy 2 deprecates them, with the same
    warning); two 2-vectors give the z components alone."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a = moveaxis(_operand(a, "cross' a"), axisa, -1)
    b = moveaxis(_operand(b, "cross' b"), axisb, -1)
    if not _numpy_crosses_2_vectors() and (a.shape[-1] != 3 or b.shape[-1] != 3):
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are {a.shape[-1]} "
                         f"and {b.shape[-1]} dimensional instead.")
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        warnings.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning, stacklevel=2)
    dt = np.promote_types(a.dtype, b.dtype)
    np.broadcast_shapes(a.shape[:-1], b.shape[:-1])  # (ValueError for stacks of vectors that do not broadcast)
    if dt == np.bool_:
        subtract(a[..., 0], b[..., 0])  # NumPy's TypeError: booleans have no subtraction
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    ax, ay = a[..., 0], a[..., 1]
    bx, by = b[..., 0], b[..., 1]
    z = subtract(multiply(ax, by), multiply(ay, bx))
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return z
    if b.shape[-1] == 2:  # b's z is 0
        az = a[..., 2]
        x, y = negative(multiply(az, by)), multiply(az, bx)
    elif a.shape[-1] == 2:  # a's z is 0
        bz = b[..., 2]
        x, y = multiply(ay, bz), negative(multiply(ax, bz))
    else:
        az, bz = a[..., 2], b[..., 2]
        x = subtract(multiply(ay, bz), multiply(az, by))
        y = subtract(multiply(az, bx), multiply(ax, bz))
    out = stack(broadcast_arrays(x, y, z), axis=-1)
    return moveaxis(out, -1, axisc)


def _axes_list(x):
    try:
        return [operator.index(x)]
    except TypeError:
        return [operator.index(v) for v in x]


def tensordot(a, b, axes=2):
    """Sum of products over the given axes of a and b (axes=N: a's last N with b's first N; or a
    pair of axis lists); the result has a's remaining axes then b's. Both are rearranged into
    matrices and multiplied with one matmul."""
    a, b = _operand(a, "tensordot's a"), _operand(b, "tensordot's b")
    if isinstance(axes, numbers.Integral):
        n = operator.index(axes)
        if n > a.ndim or n > b.ndim:
            raise IndexError(f"tensordot: axes={n} exceeds the dimensions of the operands ({a.ndim} and {b.ndim})")
        ax_a, ax_b = list(range(a.ndim - n, a.ndim)) if n > 0 else [], list(range(n)) if n > 0 else []
    else:
        first, second = axes
        ax_a, ax_b = _axes_list(first), _axes_list(second)
        if len(ax_a) != len(ax_b):
            raise ValueError("shape-mismatch for sum")
        ax_a = [_simt._normalize_axis(x, a.ndim) for x in ax_a]
        ax_b = [_simt._normalize_axis(x, b.ndim) for x in ax_b]
    if any(a.shape[i] != b.shape[j] for i, j in zip(ax_a, ax_b)):
        raise ValueError("shape-mismatch for sum")
    free_a = [d for d in range(a.ndim) if d not in ax_a]
    free_b = [d for d in range(b.ndim) if d not in ax_b]
    k = math.prod(a.shape[d] for d in ax_a)
    out_shape = tuple(a.shape[d] for d in free_a) + tuple(b.shape[d] for d in free_b)
    a2 = a.transpose(tuple(free_a + ax_a)).reshape(math.prod(a.shape[d] for d in free_a), k)
    b2 = b.transpose(tuple(ax_b + free_b)).reshape(k, math.prod(b.shape[d] for d in free_b))
    return matmul(a2, b2).reshape(out_shape)
