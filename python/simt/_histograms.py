"""simt.histogram, bincount, digitize and interp (NumPy's signatures): counting and locating values
among sorted edges, built on the device sort and searchsorted (python/simt/_sorting.py,
_searchsorted.py). Bin edges are computed as NumPy computes them, so every value falls in the bin
NumPy puts it in."""
import operator

import numpy as np

from ._sorting import device_array


def _sorted_flat(a, weights, fname):
    """a flattened and sorted (NaN last), and weights in that order (or None)."""
    from ._selection import take
    from ._sorting import argsort
    flat = a.reshape(-1)
    if weights is None:
        from ._sorting import sort
        return sort(flat), None
    w = device_array(weights, f"{fname}'s weights")
    if w.shape != a.shape:
        raise ValueError(f"{fname}: weights should have the same shape as a ({a.shape}), got {w.shape}")
    order = argsort(flat)
    return take(flat, order), take(w.reshape(-1), order)


def _bin_sums(sorted_a, sorted_w, edges):
    """Counts (or weight sums) of the bins [edges[j], edges[j+1]), the last one closed."""
    from ._manipulation import concatenate
    from ._differences import diff
    from ._searchsorted import searchsorted
    from ._creation import zeros
    bounds = concatenate([searchsorted(sorted_a, edges[:-1], side="left"),
                          searchsorted(sorted_a, edges[-1:], side="right")])
    if sorted_w is None:
        return diff(bounds)
    # Each bin's weights summed on their own (differences of a running sum lose the small bins'
    # digits to the large running totals); a zero appended so every bound is a valid index.
    from ._ufuncs import add, where
    counts = diff(bounds)
    padded = concatenate([sorted_w, zeros(1, sorted_w.dtype)])
    sums = add.reduceat(padded, bounds)[:-1]
    return where(counts > 0, sums, zeros(1, sorted_w.dtype))


def _edges(a, bins, range_, fname):
    """The bin edges NumPy's histogram uses (a host array), from an int and a range, or given."""
    if isinstance(bins, str):
        raise NotImplementedError(f"{fname}: bins given as an estimator name ({bins!r}) is not supported; pass a "
                                  "number of bins or the edges")
    if np.ndim(bins) == 0:
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError(f"{fname}: bins must be an integer or a sequence of edges, not {type(bins).__name__}") \
                from None
        if n < 1:
            raise ValueError(f"{fname}: `bins` must be positive, when an integer")
        # (as NumPy: the range as given, else a's extremes as scalars of a's dtype, which set the
        # edges' dtype and the arithmetic linspace does)
        if range_ is not None:
            lo, hi = range_
            if lo > hi:
                raise ValueError(f"{fname}: max must be larger than min in range parameter.")
            if not (np.isfinite(lo) and np.isfinite(hi)):
                raise ValueError(f"{fname}: supplied range of [{lo}, {hi}] is not finite")
        elif a.size == 0:
            lo, hi = 0, 1
        else:
            from ._reductions import max as amax, min as amin
            lo, hi = amin(a).get()[()], amax(a).get()[()]  # (NumPy reads them too: a sync)
            if not (np.isfinite(lo) and np.isfinite(hi)):
                raise ValueError(f"{fname}: autodetected range of [{lo}, {hi}] is not finite")
        if lo == hi:
            lo, hi = lo - 0.5, hi + 0.5
        dt = np.result_type(lo, hi, a.dtype)
        if np.issubdtype(dt, np.integer):
            dt = np.result_type(dt, float)
        return np.linspace(lo, hi, n + 1, endpoint=True, dtype=dt)
    edges = bins.get() if hasattr(bins, "get") else np.asarray(bins)
    if edges.ndim != 1:
        raise ValueError(f"{fname}: `bins` must be 1d, when an array")
    if np.any(edges[:-1] > edges[1:]):
        raise ValueError(f"{fname}: `bins` must increase monotonically, when an array")
    return edges


def histogram(a, bins=10, range=None, density=None, weights=None):
    """Counts (or weight sums) of `a`'s values in each bin, and the bin edges (both device arrays).
    Bins are [e[i], e[i+1]) with the last one closed; values outside the edges and NaNs are left out."""
    from ._creation import asarray
    a = device_array(a, "histogram")
    edges = _edges(a, bins, range, "histogram")
    d_edges = asarray(edges)
    sorted_a, sorted_w = _sorted_flat(a, weights, "histogram")
    hist = _bin_sums(sorted_a, sorted_w, d_edges)  # (compared in the common dtype, as NumPy compares)
    if density:
        from ._differences import diff
        return hist / hist.sum() / diff(d_edges), d_edges
    return hist, d_edges


def bincount(x, weights=None, minlength=0):
    """Occurrences (or summed weights) of each value 0..max(x) of the non-negative integers `x`."""
    from ._creation import zeros
    from ._manipulation import arange
    x = device_array(x, "bincount")
    if x.ndim != 1:
        raise ValueError(f"bincount: x must be 1-D (got an array of shape {x.shape})")
    if x.dtype.kind not in "iub":
        raise TypeError(f"bincount: x must be an array of integers, not {x.dtype}")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("bincount: 'minlength' must not be negative")
    if x.size and x.dtype.kind == "i":
        from ._reductions import min as amin
        if int(amin(x).get()) < 0:
            raise ValueError("bincount: 'x' argument must have no negative elements")
    if x.size == 0:
        return zeros(minlength, np.int64 if weights is None else np.float64)
    from ._reductions import max as amax
    length = max(int(amax(x).get()) + 1, minlength)
    if weights is not None:
        weights = device_array(weights, "bincount's weights").astype(np.float64)
        if weights.shape != x.shape:
            raise ValueError(f"bincount: the weights and list don't have the same length ({weights.size}, {x.size})")
    sorted_x, sorted_w = _sorted_flat(x.astype(np.int64), weights, "bincount")
    return _bin_sums(sorted_x, sorted_w, arange(length + 1, dtype=np.int64))  # (bin k: [k, k + 1))


def digitize(x, bins, right=False):
    """The index of the bin of `bins` (monotonic, increasing or decreasing) each element of x is in."""
    from ._creation import asarray
    from ._searchsorted import searchsorted
    x = device_array(x, "digitize")
    edges = bins.get() if hasattr(bins, "get") else np.asarray(bins)
    if edges.ndim != 1:
        raise ValueError("digitize: bins must be 1-dimensional")
    increasing = bool(np.all(edges[1:] >= edges[:-1]))
    if not increasing and not bool(np.all(edges[1:] <= edges[:-1])):
        raise ValueError("digitize: bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    if increasing:
        return searchsorted(asarray(edges), x, side=side)
    return edges.size - searchsorted(asarray(edges[::-1].copy()), x, side=side)


def interp(x, xp, fp, left=None, right=None, period=None):
    """One-dimensional piecewise-linear interpolation of (xp, fp) at x (xp increasing)."""
    from ._creation import asarray
    from ._searchsorted import searchsorted
    from ._selection import take
    from ._ufuncs import clip, where
    if period is not None:
        raise NotImplementedError("interp: period= is not supported")
    x = device_array(x, "interp")
    xp = device_array(xp, "interp's xp").astype(np.float64)
    fp = device_array(fp, "interp's fp")
    if fp.dtype.kind == "c":
        raise NotImplementedError("interp: complex fp is not supported")
    fp = fp.astype(np.float64)
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("interp: xp and fp must be 1-D sequences")
    if xp.size != fp.size:
        raise ValueError("interp: fp and xp are not of the same length.")
    if xp.size == 0:
        raise ValueError("interp: array of sample points is empty")
    xf = x.astype(np.float64)
    if xp.size == 1:  # (NumPy: fp[0] everywhere, NaN too, except left/right of the point)
        from ._creation import full_like
        out = full_like(xf, fp[0:1])
        lo = fp[0:1] if left is None else asarray(np.float64(left)).reshape(1)
        hi = fp[0:1] if right is None else asarray(np.float64(right)).reshape(1)
        return where(xf > xp, hi, where(xf < xp, lo, out))
    j = clip(searchsorted(xp, xf, side="right") - 1, 0, xp.size - 2)
    x0, x1 = take(xp, j), take(xp, j + 1)
    f0, f1 = take(fp, j), take(fp, j + 1)
    slope = (f1 - f0) / where(x1 == x0, 1.0, x1 - x0)
    out = where(xf == x1, f1, f0 + slope * (xf - x0))
    lo = fp[0:1] if left is None else asarray(np.float64(left)).reshape(1)
    hi = fp[-1:] if right is None else asarray(np.float64(right)).reshape(1)
    out = where(xf < xp[0:1], lo, out)
    return where(xf > xp[-1:], hi, out)
