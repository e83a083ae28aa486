"""simt.pad's statistical modes ('maximum', 'minimum', 'mean', 'median' over stat_length edge
elements), 'linear_ramp' (from end_values to the edge) and reflect_type='odd' for 'reflect' and
'symmetric'. Axes are padded one after another, each over the array padded along the axes
before it, as NumPy's pad fills them (so corners take the later axes' values)."""
import numpy as np

from ._creation import asarray
from ._manipulation import concatenate
from ._numpy_extras import _host_parameter, _pairs

_STATISTICS = ("maximum", "minimum", "mean", "median")


def _along(axis, ndim, values):
    """A host 1-D sequence as a device array that runs along `axis` of an ndim-dimensional one."""
    shape = [1] * ndim
    shape[axis] = len(values)
    return asarray(np.asarray(values)).reshape(shape)


def _cut(a, axis, start, stop):
    return a[(slice(None),) * axis + (slice(start, stop),)]


def _repeat_along(v, axis, count):
    """v (length 1 along axis) repeated `count` times along it (a broadcast copy)."""
    from ._manipulation import broadcast_to
    shape = list(v.shape)
    shape[axis] = count
    return broadcast_to(v, tuple(shape)).copy()


def _stat_lengths(value, a):
    if value is None:
        return [(n, n) for n in a.shape]
    lengths = _host_parameter(value)
    if lengths.dtype.kind not in "biuf":
        raise TypeError(f"pad: stat_length must be integers, not {lengths.dtype}")
    lengths = np.round(lengths).astype(np.int64)  # (NumPy rounds them to indices)
    if lengths.size and lengths.min() < 0:
        raise ValueError("index can't contain negative values")
    return [(min(int(lo), n), min(int(hi), n)) for (lo, hi), n in zip(_pairs(lengths, a.ndim, "stat_length"), a.shape)]


def _statistic(mode, chunk, axis, dtype):
    """mode's statistic of chunk along axis (keepdims), as the padded array's dtype: integer
    means and medians are rounded half to even first, as NumPy's pad rounds them."""
    from ._quantiles import median
    from ._reductions import max as max_, mean, min as min_
    from ._ufuncs import rint
    if mode == "maximum":
        return max_(chunk, axis=axis, keepdims=True)
    if mode == "minimum":
        return min_(chunk, axis=axis, keepdims=True)
    if chunk.shape[axis] == 0:
        if dtype.kind in "biu":
            raise ValueError("stat_length of 0 yields no value for padding (the mean or median of no elements of an "
                             "integer array)")
        shape = list(chunk.shape)
        shape[axis] = 1
        return asarray(np.full(shape, np.nan, dtype))
    s = mean(chunk, axis=axis, keepdims=True) if mode == "mean" else median(chunk, axis=axis, keepdims=True)
    if dtype.kind in "iu":
        s = rint(s)
    return s.astype(dtype)


def _pad_statistic(cur, axis, b, e, mode, lengths):
    n = cur.shape[axis]
    lo_len, hi_len = lengths
    parts = []
    if b:
        parts.append(_repeat_along(_statistic(mode, _cut(cur, axis, 0, lo_len), axis, cur.dtype), axis, b))
    parts.append(cur)
    if e:
        parts.append(_repeat_along(_statistic(mode, _cut(cur, axis, n - hi_len, n), axis, cur.dtype), axis, e))
    return concatenate(parts, axis=axis)


def _ramp(end, edge, width, axis, ndim, work):
    """NumPy's linspace(end, edge, width, endpoint=False) along axis: end + k * step for k < width
    (step = (edge - end) / width; when some step is 0, end + (k / width) * (edge - end))."""
    from ._reductions import any as any_
    k = _along(axis, ndim, np.arange(width, dtype=work))
    delta = edge.astype(work) - end
    step = delta / width
    if bool(any_(step == 0).get()):
        return end + (k / width) * delta
    return end + k * step


def _pad_linear_ramp(cur, axis, b, e, ends):
    from ._rearrange import flip
    from ._ufuncs import floor
    n = cur.shape[axis]
    dt = cur.dtype
    work = np.result_type(dt, np.float64)
    parts = []
    for width, end, edge in ((b, ends[0], _cut(cur, axis, 0, 1)), (e, ends[1], _cut(cur, axis, n - 1, n))):
        if not width:
            parts.append(None)
            continue
        r = _ramp(np.asarray(end).astype(work)[()], edge, width, axis, cur.ndim, work)
        if dt.kind in "iu":  # (NumPy's linspace rounds integer results down)
            r = floor(r)
        parts.append(r.astype(dt))
    out = [p for p in (parts[0], cur, None if parts[1] is None else flip(parts[1], axis=axis)) if p is not None]
    return concatenate(out, axis=axis)


def _odd_coefficients(mode, b, n, e):
    """For each position of an axis padded by (b, e) around n elements: the element it mirrors,
    its sign, and the multiples of the first and last element added, so that the padded axis is
    s * x[j] + alpha * x[0] + beta * x[n-1] (the odd extension NumPy's pad builds by reflecting
    through the current edge element, repeatedly)."""
    i = np.arange(b + n + e, dtype=np.int64) - b
    period = 2 * (n - 1) if mode == "reflect" else 2 * n
    q, r = np.divmod(i, period)
    direct = r <= n - 1  # within one period: x[r] itself, then its mirror image through x[n-1]
    j = np.where(direct, r, period - r if mode == "reflect" else period - 1 - r)
    s = np.where(direct, 1, -1)
    alpha = -2 * q
    beta = np.where(direct, 2 * q, 2 * q + 2)
    return j, s, alpha, beta


def _pad_odd(cur, axis, b, e, mode):
    from ._selection import take
    n = cur.shape[axis]
    if cur.dtype.kind == "b":
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported (reflect_type='odd' of a "
                        "boolean array)")
    first, last = _cut(cur, axis, 0, 1), _cut(cur, axis, n - 1, n)
    if mode == "reflect" and n == 1:  # (NumPy extends a single element as 'edge' does)
        return concatenate([p for p in (_repeat_along(first, axis, b) if b else None, cur,
                                        _repeat_along(first, axis, e) if e else None) if p is not None], axis=axis)
    j, s, alpha, beta = _odd_coefficients(mode, b, n, e)
    work = np.int64 if cur.dtype.kind in "iu" else cur.dtype  # (integers wrap as NumPy's do)
    gathered = take(cur, asarray(j), axis=axis)
    out = gathered * _along(axis, cur.ndim, s.astype(work)) + first * _along(axis, cur.ndim, alpha.astype(work)) \
        + last * _along(axis, cur.ndim, beta.astype(work))
    return out.astype(cur.dtype)


def pad_more(a, widths, mode, kwargs):
    """simt.pad for the modes above (widths: checked (before, after) pairs, one per axis)."""
    if mode in _STATISTICS:
        lengths = _stat_lengths(kwargs.get("stat_length"), a)
    elif mode == "linear_ramp":
        values = _host_parameter(kwargs.get("end_values", 0))
        if values.dtype.kind not in "biufc":
            raise TypeError(f"pad: end_values must be numbers, not {values.dtype}")
        ends = _pairs(values, a.ndim, "end_values")
    out = a
    for axis, (b, e) in enumerate(widths):
        if mode in _STATISTICS:
            if mode in ("maximum", "minimum") and 0 in lengths[axis]:
                raise ValueError("stat_length of 0 yields no value for padding")
            if b or e:
                out = _pad_statistic(out, axis, b, e, mode, lengths[axis])
        elif not (b or e):
            continue
        elif mode == "linear_ramp":
            out = _pad_linear_ramp(out, axis, b, e, ends[axis])
        else:
            out = _pad_odd(out, axis, b, e, mode)
    return out if out is not a else a.copy()
