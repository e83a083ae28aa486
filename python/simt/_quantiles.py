"""simt.median, quantile, percentile and their NaN-ignoring forms (NumPy's signatures): the reduced
axes are merged into one last axis, sorted, and the order statistics read off the sorted rows."""
import math
import warnings

import numpy as np

from . import _kernelgen as kg
from ._sorting import device_array, sort

_METHODS = ("linear", "lower", "higher", "nearest", "midpoint")
_NUMPY_METHODS = ("inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
                  "hazen", "weibull", "median_unbiased", "normal_unbiased")


def _sorted_rows(a, axis):
    """(rows sorted along their last axis: the reduced axes merged last, C-contiguous; the shape
    the result has with keepdims)."""
    from ._manipulation import _axis_list
    axes = list(range(a.ndim)) if axis is None else _axis_list(axis, a.ndim, "axis")
    kept = [d for d in range(a.ndim) if d not in axes]
    x = kg.contiguous(a.transpose(kept + axes) if a.ndim else a)
    m = math.prod(a.shape[d] for d in axes)
    x = kg.as_shape(x, tuple(a.shape[d] for d in kept) + (m,))
    keep = tuple(1 if d in axes else n for d, n in enumerate(a.shape))
    return (sort(x, -1) if x.size else x), keep


def _finish(r, shape, out):
    r = r.reshape(shape) if r.shape != shape else r
    if out is not None:
        kg.copy_into(out, r)
        return out
    return r


def _nan_rows(s, r):
    """r with NaN where the row of `s` holds a NaN (sorted last)."""
    from ._ufuncs import isnan, where
    if np.dtype(s.dtype).kind not in "fc":
        return r
    return where(isnan(s[..., -1]), np.nan, r)


def _lerp(lo, hi, g):
    """NumPy's interpolation between neighbours: from the nearer end, so g = 1 gives hi exactly;
    an exact position (g = 0) gives its element as it is (also beside an infinite neighbour)."""
    from ._ufuncs import where
    if not hasattr(g, "shape"):  # one gamma for every row: choose the formula here
        if g == 0:
            return lo.copy()
        d = hi - lo
        return hi - d * (1 - g) if g >= 0.5 else lo + d * g
    d = hi - lo
    return where(g >= 0.5, hi - d * (1 - g), lo + d * g)


def _host_q(q, scale, fname):
    from ._ndarray import ndarray
    host = q.get() if isinstance(q, ndarray) else np.asarray(q)
    if host.dtype.kind not in "biuf":
        raise TypeError(f"{fname}: q must be real numbers (got dtype {host.dtype})")
    qf = host.astype(np.float64) / scale
    if not np.all((qf >= 0) & (qf <= 1)):
        what = "Percentiles must be in the range [0, 100]" if scale == 100 else "Quantiles must be in the range [0, 1]"
        raise ValueError(f"{fname}: {what}")
    # Python numbers do not widen float32 data (NEP 50); lists and NumPy scalars become float64 arrays.
    weak = isinstance(q, (int, float)) and not isinstance(q, np.generic)
    return qf, (None if weak else host.dtype)


def _check_method(fname, method, nan):
    if method in _METHODS and (not nan or method == "linear"):
        return
    if method in _NUMPY_METHODS or method in _METHODS:
        raise NotImplementedError(f"{fname}: method={method!r} is not implemented in simt "
                                  f"(supported: {'linear' if nan else ', '.join(_METHODS)})")
    raise ValueError(f"{fname}: {method!r} is not a valid method; use one of {', '.join(_METHODS + _NUMPY_METHODS)}")


def _real_input(a, fname):
    a = device_array(a, fname)
    if a.dtype.kind == "c":
        raise TypeError(f"{fname}: a must be an array of real numbers (got {a.dtype})")
    if a.dtype.kind == "b":
        raise TypeError(f"{fname}: boolean arrays have no quantiles (NumPy cannot subtract booleans); "
                        "convert with astype first")
    return a


def _quantile(fname, a, q, axis, out, method, keepdims, scale, nan):
    a = _real_input(a, fname)
    _check_method(fname, method, nan)
    qf, q_dt = _host_q(q, scale, fname)
    s, keep = _sorted_rows(a, axis)
    m = s.shape[-1]
    if m == 0:
        raise IndexError(f"{fname}: cannot take a quantile of an empty array (no elements along the axes)")
    discrete = method in ("lower", "higher", "nearest")
    base = a.dtype if a.dtype.kind == "f" or discrete else np.dtype(np.float64)
    dt = base if discrete or q_dt is None else np.result_type(base, q_dt)
    if nan and a.dtype.kind == "f":
        results = [_nan_quantile_rows(s, float(qi), dt, fname == "nanmedian") for qi in qf.ravel()]
    else:
        results = [_nan_rows(s, _quantile_rows(s, float(qi), method, dt)) for qi in qf.ravel()]
    from ._manipulation import stack
    r = results[0] if qf.ndim == 0 else stack(results)
    shape = qf.shape + (keep if keepdims else s.shape[:-1])
    return _finish(r, shape, out)


def _quantile_rows(s, q, method, dt):
    m = s.shape[-1]
    v = (m - 1) * q  # NumPy's rounding of the position, so interpolation weights agree
    if method in ("lower", "higher", "nearest"):
        i = {"lower": math.floor(v), "higher": math.ceil(v), "nearest": int(np.around(v))}[method]
        return s[..., i].astype(dt)
    lo = min(max(int(math.floor(v)), 0), m - 1)
    hi = min(lo + 1, m - 1)
    g = v - lo if 0 <= v < m - 1 else 0.0  # past either end: the end value itself
    if method == "midpoint":
        g = 0.5 if g > 0 else 0.0
    return _lerp(s[..., lo].astype(dt), s[..., hi].astype(dt), g)


def _mean_of_pair(lo, hi, dt):
    """(lo + hi) / 2 as NumPy's mean of two values: float16 summed in float32."""
    acc = np.dtype(np.float32) if dt == np.float16 else dt
    return ((lo.astype(acc) + hi.astype(acc)) / 2).astype(dt)


def _nan_quantile_rows(s, q, dt, median=False):
    """Linear quantile of each row's non-NaN values (sorted first): positions differ per row, so
    they are worked out on the device and gathered. `median`: the mean of the middle two, as
    NumPy's nanmedian (the same value as interpolating halfway, but rounded as a mean)."""
    from ._creation import empty
    from ._reductions import any as any_, sum as total
    from ._sort_layout import take_along_rows
    from ._ufuncs import ceil, floor, isnan, maximum, minimum, where
    m = s.shape[-1]
    count = m - total(isnan(s), axis=-1, dtype=np.int64)
    v = (count - 1).astype(np.float64) * q
    last = maximum(count - 1, 0)
    lo = minimum(maximum(floor(v), 0).astype(np.int64), last)
    hi = minimum(maximum(ceil(v), 0).astype(np.int64), last)  # lo itself at whole positions
    g = where((v >= 0) & (v < last), v - lo, 0.0).astype(dt)
    picked = []
    for idx in (lo, hi):
        dst = empty(s.shape[:-1] + (1,), s.dtype)
        take_along_rows(s, kg.flat(kg.contiguous(idx)) if idx.ndim else idx.reshape(1), dst)
        picked.append(dst.reshape(s.shape[:-1]).astype(dt))
    empty_rows = count == 0
    if bool(any_(empty_rows)):
        warnings.warn("All-NaN slice encountered", RuntimeWarning, stacklevel=4)
    mid = _mean_of_pair(picked[0], picked[1], dt) if median else _lerp(picked[0], picked[1], where(empty_rows, 0, g))
    return where(empty_rows, np.nan, mid)


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
             interpolation=None):
    """The q-th quantiles (q in [0, 1]) over `axis` (None: all elements; a tuple: those axes)."""
    if weights is not None:
        raise NotImplementedError("quantile: weights are not implemented in simt")
    return _quantile("quantile", a, q, axis, out, interpolation or method, keepdims, 1, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
               interpolation=None):
    """The q-th percentiles (q in [0, 100]) over `axis`."""
    if weights is not None:
        raise NotImplementedError("percentile: weights are not implemented in simt")
    return _quantile("percentile", a, q, axis, out, interpolation or method, keepdims, 100, False)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
                interpolation=None):
    """quantile ignoring NaNs (a slice of only NaNs gives NaN, with a RuntimeWarning)."""
    if weights is not None:
        raise NotImplementedError("nanquantile: weights are not implemented in simt")
    return _quantile("nanquantile", a, q, axis, out, interpolation or method, keepdims, 1, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None, interpolation=None):
    """percentile ignoring NaNs."""
    if weights is not None:
        raise NotImplementedError("nanpercentile: weights are not implemented in simt")
    return _quantile("nanpercentile", a, q, axis, out, interpolation or method, keepdims, 100, True)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median over `axis`: the middle sorted element, or the mean of the two middle ones (NaN
    where a slice holds a NaN; float64 for integer input)."""
    from ._creation import full
    a = device_array(a, "median")
    s, keep = _sorted_rows(a, axis)
    dt = a.dtype if a.dtype.kind in "fc" else np.dtype(np.float64)
    shape = keep if keepdims else s.shape[:-1]
    m = s.shape[-1]
    if m == 0:
        warnings.warn("Mean of empty slice", RuntimeWarning, stacklevel=2)
        return _finish(full(s.shape[:-1], np.nan, dt), shape, out)
    if m % 2:
        r = s[..., m // 2].astype(dt)
    else:
        r = _mean_of_pair(s[..., m // 2 - 1], s[..., m // 2], dt)
    return _finish(_nan_rows(s, r), shape, out)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    """The median over `axis` ignoring NaNs (a slice of only NaNs gives NaN, with a RuntimeWarning)."""
    a = device_array(a, "nanmedian")
    if a.dtype.kind != "f":
        return median(a, axis, out, overwrite_input, keepdims)
    return _quantile("nanmedian", a, 0.5, axis, out, "linear", keepdims, 1, True)
