"""simt.histogramdd: NumPy's D-dimensional histogram. Each coordinate's bin is found by a search
among its axis' edges (the last edge closes the last bin), the points outside drop out, and one
bincount over the combined bin numbers counts (or sums the weights of) the rest."""
import operator

import numpy as np

from ._creation import asarray
from ._ndarray import ndarray
from ._numpy_extras import _operand
from ._numpy_extras4 import _axis_edges, _bin_index


def _sample_columns(sample):
    """The D coordinate arrays of N points: an (N, D) array, a 1-D array (D = 1), or a sequence
    of D 1-D arrays of one length."""
    if isinstance(sample, ndarray) or (isinstance(sample, np.ndarray)):
        a = _operand(sample, "histogramdd's sample")
        if a.ndim == 2:
            return [a[:, d] for d in range(a.shape[1])]
        if a.ndim <= 1:
            return [a.reshape(-1)]
        raise ValueError(f"histogramdd: sample must be an (N, D) array or a sequence of D 1-D arrays, not of shape "
                         f"{a.shape}")
    columns = [_operand(c, f"histogramdd's sample[{i}]") for i, c in enumerate(sample)]
    if not columns:
        raise ValueError("histogramdd: sample must hold at least one coordinate array")
    shapes = {c.shape for c in columns}
    if len(shapes) != 1 or columns[0].ndim > 1:
        raise ValueError(f"histogramdd: the coordinate arrays must be 1-D and of one length (got shapes "
                         f"{[c.shape for c in columns]})")
    return [c.reshape(-1) for c in columns]


def histogramdd(sample, bins=10, range=None, density=None, weights=None):  # noqa: A002 (NumPy's name)
    """The histogram of N points in D dimensions: (hist, [edges of each axis]). bins: one number
    of bins for every axis, or per axis a number or an array of edges; range: per axis a
    (min, max) or None. hist is float64 counts, or sums of `weights`, or a density."""
    from ._histograms import bincount
    from ._reductions import sum as sum_
    from ._selection import flatnonzero, take
    from ._ufuncs import logical_and
    from ._differences import diff
    cols = _sample_columns(sample)
    dims = len(cols)
    dt = np.result_type(*(c.dtype for c in cols))  # (NumPy reads the sample as one array)
    cols = [c.astype(dt, copy=False) for c in cols]
    n_points = cols[0].shape[0]
    try:
        per_axis = len(bins)
    except TypeError:
        per_axis = None
    if per_axis is None:
        try:
            operator.index(bins)
        except TypeError:
            raise TypeError("`bins` must be an integer or a sequence of integers or arrays") from None
        bins = [bins] * dims
    elif per_axis != dims:
        raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    if range is None:
        range = [None] * dims
    elif len(range) != dims:
        raise ValueError("range argument must have one entry per dimension")
    edges = [asarray(_axis_edges(c, b, r, i)) for i, (c, b, r) in enumerate(zip(cols, bins, range))]
    counts = [e.shape[0] - 1 for e in edges]
    inside = None
    flat = None
    for c, e, nb in zip(cols, edges, counts):
        idx = _bin_index(c, e)
        ok = logical_and(idx >= 1, idx <= nb)
        inside = ok if inside is None else logical_and(inside, ok)
        flat = idx - 1 if flat is None else flat * nb + (idx - 1)
    total_bins = int(np.prod(counts))
    keep = flatnonzero(inside) if n_points else asarray(np.zeros(0, np.int64))
    w = None
    if weights is not None:
        w = _operand(weights, "histogramdd's weights")
        if w.dtype.kind == "c":  # (the counts are float64: NumPy casts the sums to them safely)
            raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') according to the rule 'safe'")
        if w.shape != (n_points,):
            raise ValueError(f"weights should have the shape of the sample's points ({n_points},), got {w.shape}")
        w = take(w, keep)
    hist = bincount(take(flat, keep), weights=w, minlength=total_bins).astype(np.float64).reshape(counts)
    if density:
        s = sum_(hist)
        for d, e in enumerate(edges):
            shape = [1] * dims
            shape[d] = counts[d]
            hist = hist / diff(e).reshape(shape)
        hist = hist / s
    return hist, edges
