"""nansum, nanprod, nanmax, nanmin, nanmean, nanvar, nanstd, nanargmax, nanargmin: NumPy's reductions that skip
NaNs. Each replaces the NaNs with the reduction's neutral value in one elementwise select and
runs the plain reduction; integer and bool arrays hold no NaN and go straight through."""
import math

import numpy as np

from . import _reduce_masked as _masked
from . import _reduce_passes as rp
from ._ufuncs import add, isnan, maximum, multiply, sqrt, subtract, true_divide, where as _select


def _has_nan(a):
    return a.dtype.kind in "fc"


def _without_nan(a, fill):
    return _select(isnan(a), fill, a) if _has_nan(a) else a


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Sum over `axis` with NaNs counted as zero."""
    a = rp.require_array(a, "nansum")
    return _masked.reduce("nansum", _without_nan(a, 0), "sum", axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """Product over `axis` with NaNs counted as one."""
    a = rp.require_array(a, "nanprod")
    return _masked.reduce("nanprod", _without_nan(a, 1), "prod", axis, dtype, out, keepdims, initial, where)


def _nan_extremum(fname, op, a, axis, out, keepdims, initial, where):
    a = rp.require_array(a, fname)
    if not _has_nan(a):
        return _masked.reduce(fname, a, op, axis, None, out, keepdims, initial, where)
    # NaNs become the value that never wins (complex: lexicographically, both parts).
    low = -math.inf if op == "max" else math.inf
    result = _masked.reduce(fname, _without_nan(a, complex(low, low) if a.dtype.kind == "c" else low), op, axis,
                            None, None, keepdims, initial, where)
    if initial is None:  # (with `initial`, an all-NaN slice gives `initial`, as NumPy's fmax.reduce)
        all_nan = rp.reduce(fname, isnan(a), "all", axis, None, None, keepdims)
        result = _select(all_nan, math.nan, result)
    return rp.finish(result, out, fname)


def nanmax(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Largest element over `axis`, NaNs ignored (NaN where a slice is all NaN)."""
    return _nan_extremum("nanmax", "max", a, axis, out, keepdims, initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=None, where=True):
    """Smallest element over `axis`, NaNs ignored (NaN where a slice is all NaN)."""
    return _nan_extremum("nanmin", "min", a, axis, out, keepdims, initial, where)


def _nan_arg_extremum(fname, op, a, axis, out, keepdims):
    a = rp.require_array(a, fname)
    if not _has_nan(a):
        return rp.reduce(fname, a, op, axis, None, out, keepdims)
    # NumPy's way: NaNs become -inf (argmax) or +inf (argmin), then the plain arg-reduction. An
    # all-NaN slice gives -1, as CuPy's (NumPy raises ValueError, which needs a device-to-host copy).
    index = rp.reduce(fname, _without_nan(a, -math.inf if op == "argmax" else math.inf), op, axis, None, None,
                      keepdims)
    all_nan = rp.reduce(fname, isnan(a), "all", axis, None, None, keepdims)
    return rp.finish(_select(all_nan, np.int64(-1), index), out, fname)


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    """Index of the largest element over `axis`, NaNs ignored (-1 for an all-NaN slice, as CuPy)."""
    return _nan_arg_extremum("nanargmax", "argmax", a, axis, out, keepdims)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    """Index of the smallest element over `axis`, NaNs ignored (-1 for an all-NaN slice, as CuPy)."""
    return _nan_arg_extremum("nanargmin", "argmin", a, axis, out, keepdims)


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    """Mean over `axis` of the elements that are not NaN (NaN for an all-NaN slice). As NumPy,
    the sum keeps the input's float type (or `dtype`) and is divided by the count in it."""
    a = rp.require_array(a, "nanmean")
    if not _has_nan(a):
        return _masked.mean(a, axis, dtype, out, keepdims, where)
    if dtype is not None and np.dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and out.dtype.kind not in "fc":
        raise TypeError("If a is inexact, then out must be inexact")
    total = _masked.reduce("nanmean", _without_nan(a, 0), "sum", axis, dtype, None, keepdims, None, where)
    count = _masked.reduce("nanmean", ~isnan(a), "sum", axis, np.int64, None, keepdims, None, where)
    return rp.finish(true_divide(total, count, out=total), out, "nanmean")


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Variance over `axis` of the elements that are not NaN: the mean of |x - nanmean|**2 with
    divisor N - ddof, N counting the numbers (NaN where N - ddof <= 0, as NumPy)."""
    a = rp.require_array(a, "nanvar")
    if not _has_nan(a):
        return rp.reduce("nanvar", a, "var", axis, dtype, out, keepdims, ddof)
    if dtype is not None and np.dtype(dtype).kind not in "fc":
        raise TypeError("If a is inexact, then dtype must be inexact")
    mean = nanmean(a, axis, dtype, keepdims=True)
    deviation = subtract(a, mean)
    if deviation.dtype.kind == "c":  # |x - mean|**2 of complex values, in the real type
        square = add(multiply(deviation.real, deviation.real), multiply(deviation.imag, deviation.imag))
    else:
        square = multiply(deviation, deviation)
    total = _masked.reduce("nanvar", _without_nan(square, 0), "sum", axis, None, None, keepdims, None, True)
    count = _masked.reduce("nanvar", ~isnan(a), "sum", axis, np.int64, None, keepdims, None, True)
    divisor = maximum(subtract(count, ddof), 0).astype(total.dtype)  # (int64 / float32 would give float64)
    # 0 / 0 gives the NaN NumPy returns for slices with too few numbers; x / 0 would give inf.
    result = true_divide(_select(divisor == 0, total.dtype.type(0), total), divisor)
    return rp.finish(result, out, "nanvar")


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False):
    """Standard deviation over `axis` of the elements that are not NaN (square root of nanvar)."""
    a = rp.require_array(a, "nanstd")
    if not _has_nan(a):
        return rp.reduce("nanstd", a, "std", axis, dtype, out, keepdims, ddof)
    return rp.finish(sqrt(nanvar(a, axis, dtype, None, ddof, keepdims)), out, "nanstd")
