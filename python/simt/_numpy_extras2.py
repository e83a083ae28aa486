"""NumPy's choose/select/piecewise, in-place writes, insert, index helpers, sets and scans; exports batch 2."""
import math
import numbers
import operator
from typing import NamedTuple

import numpy as np

from . import _simt, _ufuncs
from ._copyto import copyto
from ._creation import asarray, empty, full, zeros
from ._manipulation import _device_array, arange, broadcast_arrays, broadcast_shapes, broadcast_to, concatenate, \
    moveaxis, stack
from ._ndarray import ndarray
from ._numpy_extras import _any_on_host, _axis_or_flat, _host_parameter, _membership, _operand, _unit_axes, tri
from . import _numpy_extras3
from ._numpy_extras3 import (apply_along_axis, apply_over_axes, bitwise_count, divmod, fromfunction, i0, iscomplex,
                             iscomplexobj, isneginf, isposinf, isreal, isrealobj, logaddexp2, matvec,
                             may_share_memory, nextafter, packbits, real_if_close, rollaxis, row_stack,
                             shares_memory, spacing, unpackbits, unstack, vecmat)
from ._numpy_extras4 import (bartlett, blackman, ediff1d, gradient, hamming, hanning, histogram2d,
                             histogram_bin_edges, kaiser, poly, polyadd, polyder, polyfit, polyint, polymul, polysub,
                             roots, trapezoid, unwrap, vander)
from ._reductions import any as any_
from ._scan import cumprod, cumsum
from ._searchsorted import searchsorted
from ._selection import flatnonzero, nonzero, put, take
from ._sorting import argsort, sort
from ._ufuncs import clip, equal, isnan, logical_not, logical_or, remainder, where
from ._unique import unique

_CLIP_MODES = ("raise", "wrap", "clip")
_PYTHON_SCALARS = (bool, int, float, complex)
_WEAK = (int, float, complex)  # (NumPy's select: by exact type, so bools are strong)


def _target(a, fname):
    """The simt array an in-place function writes into (NumPy arrays: simt's host-data TypeError)."""
    if isinstance(a, ndarray):
        return a
    if isinstance(a, np.ndarray):
        _device_array(a, f"{fname}'s argument")
    raise TypeError(f"{fname}: argument 1 must be a simt array, not {type(a).__module__}.{type(a).__qualname__}")


def _weak_dtype(items):
    """The dtype NumPy 2 gives a mix of arrays and Python scalars (the scalars are weak)."""
    return np.result_type(*[x if isinstance(x, _PYTHON_SCALARS) else x.dtype for x in items])


def _as_dtype(x, dt):
    """x (a simt array or a Python scalar) as a simt array of dt, cast as NumPy's astype casts."""
    return x.astype(dt, copy=False) if isinstance(x, ndarray) else asarray(np.asarray(x).astype(dt))


# ---- choosing values ----------------------------------------------------------------------------
def choose(a, choices, out=None, mode="raise"):
    """choices[a[i]][i] for each position i (a and the choices broadcast together); out-of-range
    indices: ValueError ('raise', found by one wait for the device), taken modulo the number of
    choices ('wrap') or clipped ('clip')."""
    if mode not in _CLIP_MODES:
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {mode!r})")
    idx = _operand(a, "choose's index array")
    if not np.can_cast(idx.dtype, np.int64, "safe"):
        raise TypeError(f"Cannot cast array data from {idx.dtype!r} to dtype('int64') according to the rule 'safe'")
    if isinstance(choices, ndarray):
        opts = [choices[i] for i in range(choices.shape[0])] if choices.ndim else None
    elif isinstance(choices, (list, tuple)):
        opts = [c if isinstance(c, _PYTHON_SCALARS) else _operand(c, f"choose's choice {i}")
                for i, c in enumerate(choices)]
    else:
        opts = None
    if opts is None:
        raise TypeError(f"choose's choices must be a sequence of arrays, not {type(choices).__qualname__}")
    n = len(opts)
    if n == 0:
        raise ValueError("0-length sequence.")
    dt = _weak_dtype(opts)
    opts = [_as_dtype(c, dt) for c in opts]
    shape = broadcast_shapes(idx.shape, *[c.shape for c in opts])
    idx = broadcast_to(idx.astype(np.int64, copy=False), shape)
    if mode == "raise":
        if _any_on_host(logical_or(idx < 0, idx >= n)):
            raise ValueError("invalid entry in choice array")
    elif mode == "wrap":
        idx = remainder(idx, n)
    else:
        idx = clip(idx, 0, n - 1)
    result = broadcast_to(opts[-1], shape).copy()
    for i in range(n - 1):
        copyto(result, opts[i], where=equal(idx, i))
    if out is not None:
        target = _target(out, "choose's out")
        if target.shape != result.shape:
            raise TypeError("choose: invalid shape for output array.")
        copyto(target, result, casting="unsafe")  # (NumPy's choose writes out as an unsafe cast)
        return out
    return result


def select(condlist, choicelist, default=0):
    """For each position, the choice of the first true condition (default where none is); the
    dtype is the choices' and the default's (Python scalars weak, as in NumPy 2)."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if len(condlist) == 0:
        raise ValueError("select with an empty condition list is not possible")
    conds = [_operand(c, f"select's condition {i}") for i, c in enumerate(condlist)]
    for i, c in enumerate(conds):
        if c.dtype != np.bool_:
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    items = [c if type(c) in _WEAK else _operand(c, f"select's choice {i}") for i, c in enumerate(choicelist)]
    default = default if type(default) in _WEAK else _operand(default, "select's default")
    dt = _weak_dtype(items + [default])
    # the default is cast as NumPy's full casts it; the choices under 'same_kind' (as NumPy's copyto)
    default = _as_dtype(default, dt)
    items = [asarray(np.asarray(c)) if type(c) in _WEAK else c for c in items]
    shape = broadcast_shapes(*[x.shape for x in conds + items + [default]])
    result = broadcast_to(default, shape).copy()
    for cond, choice in zip(reversed(conds), reversed(items)):  # the first true condition is written last
        copyto(result, choice, where=cond)
    return result


def piecewise(x, condlist, funclist, *args, **kw):
    """An array like x with funclist[i] applied where condlist[i] holds (a callable gets x's
    selected elements, a simt array, and args/kw; a scalar is filled in); one function more than
    conditions: for where none holds. Elements no condition covers are 0."""
    x = _operand(x, "piecewise's x")
    if isinstance(condlist, ndarray):
        # As NumPy reads an array: a list of conditions along its first axis unless its elements
        # are scalars (a 1-D condition for a 1-D x, or any condition for a 0-d x).
        several = condlist.ndim > 1 or condlist.ndim == 1 and x.ndim == 0
        conds = [condlist[i] for i in range(condlist.shape[0])] if several else [condlist]
    elif isinstance(condlist, (list, tuple)) and (
            len(condlist) and isinstance(condlist[0], (list, tuple, ndarray)) or x.ndim == 0):
        conds = list(condlist)
    else:
        conds = [condlist]
    conds = [_operand(c, f"piecewise's condition {i}").astype(np.bool_, copy=False) for i, c in enumerate(conds)]
    n, n_funcs = len(conds), len(funclist)
    if n == n_funcs - 1:
        rest = logical_not(any_(stack(broadcast_arrays(*conds)), axis=0)) if n else full(x.shape, True, np.bool_)
        conds.append(rest)
    elif n != n_funcs:
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    y = zeros(x.shape, x.dtype)
    for cond, func in zip(conds, funclist):
        if not callable(func):
            y[cond] = func
        else:
            vals = x[cond]
            if vals.size > 0:
                y[cond] = func(vals, *args, **kw)
    return y


# ---- writing in place ---------------------------------------------------------------------------
def _host_values(values, dtype, where):
    """values for an in-place write: simt arrays as they are; host data converted to dtype as
    NumPy converts it (NumPy's errors for values that do not fit)."""
    if isinstance(values, ndarray):
        return values
    if isinstance(values, np.ndarray):
        _device_array(values, where)
    return asarray(np.asarray(values, dtype=dtype))


def place(arr, mask, vals):
    """arr's elements where mask is true (in order) replaced by vals, repeated as needed."""
    arr = _target(arr, "place")
    mask = _operand(mask, "place's mask")
    if mask.size != arr.size:
        raise ValueError("place: mask and data must be the same size")
    if isinstance(vals, ndarray) and not np.can_cast(vals.dtype, arr.dtype, "safe"):  # (as putmask, NumPy's rule)
        raise TypeError(f"Cannot cast array data from {vals.dtype!r} to {arr.dtype!r} according to the rule 'safe'")
    vals = _host_values(vals, arr.dtype, "place's vals")
    idx = flatnonzero(mask.ravel())
    if idx.size == 0:
        return
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    put(arr, idx, vals.astype(arr.dtype, copy=False))


def putmask(a, mask, values):
    """a.flat[i] = values.flat[i % values.size] where mask.flat[i] is true (in place)."""
    a = _target(a, "putmask")
    mask = _operand(mask, "putmask's mask")
    if mask.size != a.size:
        raise ValueError("putmask: mask and data must be the same size")
    if isinstance(values, ndarray) and not np.can_cast(values.dtype, a.dtype, "safe"):
        raise TypeError(f"Cannot cast array data from {values.dtype!r} to {a.dtype!r} according to the rule 'safe'")
    values = _host_values(values, a.dtype, "putmask's values").ravel()
    if values.size == 0 or a.size == 0:
        return
    if values.size != a.size:  # position i takes values[i % len(values)]
        values = take(values, remainder(arange(a.size, dtype=np.int64), values.size))
    copyto(a, values.reshape(a.shape), casting="unsafe", where=mask.reshape(a.shape).astype(np.bool_, copy=False))


def put_along_axis(arr, indices, values, axis):
    """arr[i0, ..., indices[..., j, ...], ...] = values, the other axes matched position by
    position (the inverse of take_along_axis); axis=None: into arr flattened."""
    arr = _target(arr, "put_along_axis")
    indices = _operand(indices, "put_along_axis' indices")
    if indices.dtype.kind not in "iu":
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        if indices.ndim != 1:
            raise ValueError("when axis=None, `indices` must have a single dimension.")
        put(arr, indices, values)
        return
    axis = _simt._normalize_axis(operator.index(axis), arr.ndim)
    if indices.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    n = arr.ndim
    key = tuple(indices if d == axis else arange(arr.shape[d]).reshape(_unit_axes(n, d, -1)) for d in range(n))
    arr[key] = values if isinstance(values, ndarray) else _host_values(values, arr.dtype, "put_along_axis' values")


def insert(arr, obj, values, axis=None):
    """arr with values inserted before the index or indices obj along axis (None: arr flattened).
    One index (a scalar) inserts values as a block; several (a sequence or a slice) insert one
    slice of values before each, positions referring to the original array. A new array."""
    arr, axis = _axis_or_flat(_operand(arr, "insert's argument"), axis)
    n = arr.shape[axis]
    if isinstance(obj, slice):
        idx = np.arange(*obj.indices(n))
    else:
        idx = _host_parameter(obj)
        if idx.size == 0 and not isinstance(obj, (np.ndarray, ndarray)):
            idx = idx.astype(np.int64)  # (an empty list: no indices)
        if idx.dtype == np.bool_:
            raise TypeError("insert: boolean indices are not supported (give integer positions)")
        if idx.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if idx.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    vals = _host_values(values, arr.dtype, "insert's values").astype(arr.dtype, copy=False)
    vals = vals.reshape((1,) * (arr.ndim - vals.ndim) + vals.shape)
    lead = (slice(None),) * axis
    if idx.size == 1:  # one position: values form a block (a scalar index: values run along axis)
        i = int(idx.ravel()[0])
        if not -n <= i <= n:
            raise IndexError(f"index {i} is out of bounds for axis {axis} with size {n}")
        if i < 0:
            i += n
        if idx.ndim == 0:
            vals = moveaxis(vals, 0, axis)
        k = vals.shape[axis]
        shape = arr.shape[:axis] + (n + k,) + arr.shape[axis + 1:]
        out = empty(shape, arr.dtype)
        out[lead + (slice(None, i),)] = arr[lead + (slice(None, i),)]
        out[lead + (slice(i, i + k),)] = vals
        out[lead + (slice(i + k, None),)] = arr[lead + (slice(i, None),)]
        return out
    idx = idx.astype(np.int64)
    bad = (idx < -n) | (idx > n)
    if bad.any():
        raise IndexError(f"index {idx[bad][0]} is out of bounds for axis {axis} with size {n}")
    idx = np.where(idx < 0, idx + n, idx)
    # item j goes before original position idx[j]; among equal positions, in the order given
    order = np.argsort(idx, kind="stable")
    new_pos = np.empty_like(idx)
    new_pos[order] = idx[order] + np.arange(idx.size)
    shape = arr.shape[:axis] + (n + idx.size,) + arr.shape[axis + 1:]
    old = np.ones(shape[axis], np.bool_)
    old[new_pos] = False
    out = empty(shape, arr.dtype)
    out[lead + (asarray(np.flatnonzero(old)),)] = arr
    out[lead + (asarray(new_pos),)] = vals
    return out


def trim_zeros(filt, trim="fb", axis=None):
    """filt without its leading ('f') and/or trailing ('b') zeros along the given axes (None: all):
    a view. Locating the first and last nonzero waits for the device once per axis."""
    if not isinstance(trim, str) or not trim or set(trim.lower()) - set("fb"):
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    trim = trim.lower()
    a = _operand(filt, "trim_zeros' argument")
    if a.ndim == 0:
        return a
    axes = range(a.ndim) if axis is None else [_simt._normalize_axis(operator.index(ax), a.ndim) for ax in
                                               ([axis] if isinstance(axis, numbers.Integral) else axis)]
    nonzero_ = a != 0
    key = [slice(None)] * a.ndim
    for ax in axes:
        others = tuple(d for d in range(a.ndim) if d != ax)
        hit = any_(nonzero_, axis=others) if others else nonzero_
        where_ = flatnonzero(hit).get()
        if where_.size == 0:
            key[ax] = slice(0, 0)
            continue
        start = int(where_[0]) if "f" in trim else 0
        stop = int(where_[-1]) + 1 if "b" in trim else a.shape[ax]
        key[ax] = slice(start, stop)
    return a[tuple(key)]


# ---- index helpers ------------------------------------------------------------------------------
def tril_indices(n, k=0, m=None):
    """The row and column indices of an n x m array's lower triangle (at and below diagonal k)."""
    return nonzero(tri(n, m, k=k, dtype=np.bool_))


def triu_indices(n, k=0, m=None):
    """The row and column indices of an n x m array's upper triangle (at and above diagonal k)."""
    return nonzero(logical_not(tri(n, m, k=k - 1, dtype=np.bool_)))


def _square_2d(arr, fname):
    a = _operand(arr, f"{fname}'s argument")
    if a.ndim != 2:
        raise ValueError("input array must be 2-d")
    return a


def tril_indices_from(arr, k=0):
    """tril_indices for a 2-D array's shape."""
    a = _square_2d(arr, "tril_indices_from")
    return tril_indices(a.shape[-2], k=k, m=a.shape[-1])


def triu_indices_from(arr, k=0):
    """triu_indices for a 2-D array's shape."""
    a = _square_2d(arr, "triu_indices_from")
    return triu_indices(a.shape[-2], k=k, m=a.shape[-1])


def diag_indices(n, ndim=2):
    """Indices of the main diagonal of an n x n x ... array: the same arange(n), ndim times."""
    idx = arange(operator.index(n))
    return (idx,) * ndim


def diag_indices_from(arr):
    """diag_indices for an array whose dimensions are all equal (at least 2 of them)."""
    a = _operand(arr, "diag_indices_from's argument")
    if a.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if len(set(a.shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(a.shape[0], a.ndim)


def fill_diagonal(a, val, wrap=False):
    """Writes val (repeated as needed) on a's main diagonal, in place. A tall 2-D array with
    wrap=True continues the diagonal after a blank row, as NumPy's flat stride does."""
    a = _target(a, "fill_diagonal")
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step, end = a.shape[1] + 1, a.size if wrap else a.shape[1] * a.shape[1]
    else:
        if len(set(a.shape)) != 1:
            raise ValueError("All dimensions of input must be of equal length")
        step, end = 1 + sum(math.prod(a.shape[:i]) for i in range(1, a.ndim)), a.size
    val = _host_values(val, a.dtype, "fill_diagonal's val")
    if val.size == 0:
        return
    put(a, arange(0, min(end, a.size), step, dtype=np.int64), val.astype(a.dtype, copy=False))


# ---- sets -----------------------------------------------------------------------------------------
def _set_operands(ar1, ar2, fname):
    a = _operand(ar1, f"{fname}'s ar1").ravel()
    b = _operand(ar2, f"{fname}'s ar2").ravel()
    return a, b, np.result_type(a.dtype, b.dtype)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    """The sorted values found in both arrays; return_indices: also where each is (first) in
    ar1 and ar2 flattened."""
    a, b, dt = _set_operands(ar1, ar2, "intersect1d")
    sides = []
    for x in (a, b):
        if assume_unique:
            perm = argsort(x, kind="stable") if return_indices else None
            s = take(x, perm) if return_indices else sort(x)
        else:
            s, perm = unique(x, return_index=True) if return_indices else (unique(x), None)
        sides.append((s.astype(dt, copy=False), perm))
    (sa, pa), (sb, pb) = sides
    keep = flatnonzero(_membership(sa, sb))
    values = take(sa, keep)
    if not return_indices:
        return values
    if values.size == 0:
        return values, empty((0,), np.int64), empty((0,), np.int64)
    return values, take(pa, keep), take(pb, searchsorted(sb, values))


def union1d(ar1, ar2):
    """The sorted unique values in either array."""
    a, b, _ = _set_operands(ar1, ar2, "union1d")
    return unique(concatenate([a, b]))


def setxor1d(ar1, ar2, assume_unique=False):
    """The sorted values in exactly one of the arrays."""
    a, b, dt = _set_operands(ar1, ar2, "setxor1d")
    if not assume_unique:
        a, b = unique(a), unique(b)
    a, b = a.astype(dt, copy=False), b.astype(dt, copy=False)
    only_a = take(a, flatnonzero(logical_not(_membership(a, sort(b)))))
    only_b = take(b, flatnonzero(logical_not(_membership(b, sort(a)))))
    return sort(concatenate([only_a, only_b]))


class UniqueAllResult(NamedTuple):
    values: ndarray
    indices: ndarray
    inverse_indices: ndarray
    counts: ndarray


class UniqueCountsResult(NamedTuple):
    values: ndarray
    counts: ndarray


class UniqueInverseResult(NamedTuple):
    values: ndarray
    inverse_indices: ndarray


def unique_values(x):
    """The distinct values of x (NaNs each their own; simt's come sorted, NumPy's need not)."""
    return unique(_operand(x, "unique_values' argument"), equal_nan=False)


def unique_counts(x):
    """(values, counts) of x's distinct values (the array API's named tuple)."""
    return UniqueCountsResult(*unique(_operand(x, "unique_counts' argument"), return_counts=True, equal_nan=False))


def unique_inverse(x):
    """(values, inverse_indices): x's distinct values and, shaped like x, each element's position
    among them."""
    return UniqueInverseResult(*unique(_operand(x, "unique_inverse's argument"), return_inverse=True,
                                       equal_nan=False))


def unique_all(x):
    """(values, indices, inverse_indices, counts) of x's distinct values."""
    return UniqueAllResult(*unique(_operand(x, "unique_all's argument"), return_index=True, return_inverse=True,
                                   return_counts=True, equal_nan=False))


# ---- scans --------------------------------------------------------------------------------------
def _without_nans(a, fill, fname):
    a = _operand(a, f"{fname}'s argument")
    return where(isnan(a), fill, a) if a.dtype.kind in "fc" else a


def nancumsum(a, axis=None, dtype=None, out=None):
    """cumsum with NaNs counted as zero."""
    return cumsum(_without_nans(a, 0, "nancumsum"), axis=axis, dtype=dtype, out=out)


def nancumprod(a, axis=None, dtype=None, out=None):
    """cumprod with NaNs counted as one."""
    return cumprod(_without_nans(a, 1, "nancumprod"), axis=axis, dtype=dtype, out=out)


def _cumulative(scan, identity, x, axis, dtype, out, include_initial, fname):
    x = _operand(x, f"{fname}'s argument")
    if x.ndim == 0:
        x = x.reshape(1)
    if axis is None:
        if x.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    axis = _simt._normalize_axis(operator.index(axis), x.ndim)
    r = scan(x, axis=axis, dtype=dtype)
    if include_initial:
        first = full(x.shape[:axis] + (1,) + x.shape[axis + 1:], identity, r.dtype)
        r = concatenate([first, r], axis=axis)
    if out is not None:
        copyto(_target(out, f"{fname}'s out"), r)
        return out
    return r


def cumulative_sum(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Running sums along axis (needed for more than one dimension); include_initial: a leading 0."""
    return _cumulative(cumsum, 0, x, axis, dtype, out, include_initial, "cumulative_sum")


def cumulative_prod(x, /, *, axis=None, dtype=None, out=None, include_initial=False):
    """Running products along axis (needed for more than one dimension); include_initial: a
    leading 1."""
    return _cumulative(cumprod, 1, x, axis, dtype, out, include_initial, "cumulative_prod")


# np.logaddexp2(d, e), np.matvec(d, e) ...: ufuncs in NumPy, functions in simt (see _ufuncs._array_ufunc)
_ufuncs.FUNCTION_UFUNCS.update(_numpy_extras3.UFUNC_FUNCTIONS)

# this module's functions and those of _numpy_extras3/4 (NumPy's names): what simt/__init__.py imports
__all__ = ['apply_along_axis', 'apply_over_axes', 'bartlett', 'bitwise_count', 'blackman', 'choose',
           'cumulative_prod', 'cumulative_sum', 'diag_indices', 'diag_indices_from', 'divmod', 'ediff1d',
           'fill_diagonal', 'fromfunction', 'gradient', 'hamming', 'hanning', 'histogram2d', 'histogram_bin_edges',
           'i0', 'insert', 'intersect1d', 'iscomplex', 'iscomplexobj', 'isneginf', 'isposinf', 'isreal',
           'isrealobj', 'kaiser', 'logaddexp2', 'matvec', 'may_share_memory', 'nancumprod', 'nancumsum',
           'nextafter', 'packbits', 'piecewise', 'place', 'poly', 'polyadd', 'polyder', 'polyfit', 'polyint',
           'polymul', 'polysub', 'put_along_axis', 'putmask', 'real_if_close', 'rollaxis', 'roots', 'row_stack',
           'select', 'setxor1d', 'shares_memory', 'spacing', 'trapezoid', 'tril_indices', 'tril_indices_from',
           'trim_zeros', 'triu_indices', 'triu_indices_from', 'union1d', 'unique_all', 'unique_counts',
           'unique_inverse', 'unique_values', 'unpackbits', 'unstack', 'unwrap', 'vander', 'vecmat']
if not hasattr(np, "row_stack"):  # (removed in NumPy 2.5: simt follows the installed NumPy)
    __all__.remove("row_stack")
