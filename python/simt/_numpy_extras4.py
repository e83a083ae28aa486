"""NumPy's calculus (gradient, trapezoid, unwrap ...), polynomial, window and 2-D histogram functions."""
import builtins
import math
import numbers
import operator
import warnings

import numpy as np

from . import _simt
from ._creation import asarray, empty, ones, zeros
from ._differences import diff
from ._manipulation import arange, concatenate, eye
from ._ndarray import ndarray
from ._numpy_extras import _any_on_host, _operand
from ._numpy_extras3 import i0
from ._reductions import max as amax, min as amin, sum as sum_
from ._scan import cumsum
from ._searchsorted import searchsorted
from ._sorting import sort
from ._ufuncs import (abs as abs_, conjugate, cos, equal, logical_and, multiply, not_equal, remainder, sqrt,
                      subtract, where)


# ---- calculus -------------------------------------------------------------------------------------
def ediff1d(ary, to_end=None, to_begin=None):
    """Differences of consecutive elements of ary flattened, with to_begin / to_end joined at
    the ends (ary's dtype; they must cast to it under 'same_kind')."""
    a = _operand(ary, "ediff1d's argument").ravel()
    parts = []
    for value, name in ((to_begin, "to_begin"), (to_end, "to_end")):
        if value is None:
            parts.append(None)
            continue
        v = _operand(value, f"ediff1d's {name}").ravel()
        if not np.can_cast(v.dtype, a.dtype, casting="same_kind"):
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule.")
        parts.append(v.astype(a.dtype, copy=False))
    d = subtract(a[1:], a[:-1])
    return concatenate([p for p in (parts[0], d.astype(a.dtype, copy=False), parts[1]) if p is not None])


def _normalized_axes(axis, ndim):
    axes = [axis] if isinstance(axis, numbers.Integral) else list(axis)
    axes = [_simt._normalize_axis(operator.index(ax), ndim) for ax in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return axes


def _spacing_for_axis(d, n):
    """A gradient spacing argument for an axis of length n: a scalar (kept as given), or the
    coordinate differences (a device array of n - 1) -- a scalar again when they are all equal,
    as NumPy treats evenly spaced coordinates."""
    if isinstance(d, ndarray) and d.ndim == 0 or not isinstance(d, ndarray) and np.ndim(d) == 0:
        return d
    c = _operand(d, "gradient's spacing")
    if c.ndim != 1:
        raise ValueError("distances must be either scalars or 1d")
    if c.shape[0] != n:
        raise ValueError("when 1d, distances must match the length of the corresponding dimension")
    if c.dtype.kind in "iub":
        c = c.astype(np.float64)  # (unsigned differences would wrap)
    dx = diff(c)
    if dx.size and not _any_on_host(not_equal(dx, dx[0])):
        return dx[0]
    return dx


def _gradient_axis(f, ax, h, second_order):
    """The derivative of f along axis ax: central differences inside, one-sided ones of first or
    second order at the two ends; h a scalar step or the n - 1 coordinate differences."""
    def at(lo, hi=None):
        key = [slice(None)] * f.ndim
        key[ax] = slice(lo, hi)
        return f[tuple(key)]

    def along(v):  # a 1-D array of differences lined up with axis ax
        return v.reshape((1,) * ax + (-1,) + (1,) * (f.ndim - ax - 1))

    if not isinstance(h, ndarray) or h.ndim == 0:
        inner = (at(2) - at(None, -2)) / (2.0 * h)
        if not second_order:
            first, last = (at(1, 2) - at(0, 1)) / h, (at(-1) - at(-2, -1)) / h
        else:
            first = -1.5 / h * at(0, 1) + 2.0 / h * at(1, 2) - 0.5 / h * at(2, 3)
            last = 0.5 / h * at(-3, -2) - 2.0 / h * at(-2, -1) + 1.5 / h * at(-1)
    else:
        # second-order weights of f[i-1], f[i], f[i+1] for unequal steps d1 (left) and d2 (right)
        d1, d2 = along(h[:-1]), along(h[1:])
        inner = (-d2 / (d1 * (d1 + d2)) * at(None, -2) + (d2 - d1) / (d1 * d2) * at(1, -1)
                 + d1 / (d2 * (d1 + d2)) * at(2))
        if not second_order:
            first, last = (at(1, 2) - at(0, 1)) / h[0], (at(-1) - at(-2, -1)) / h[-1]
        else:
            d1, d2 = h[0], h[1]
            first = (-(2.0 * d1 + d2) / (d1 * (d1 + d2)) * at(0, 1) + (d1 + d2) / (d1 * d2) * at(1, 2)
                     - d1 / (d2 * (d1 + d2)) * at(2, 3))
            d1, d2 = h[-2], h[-1]
            last = (d2 / (d1 * (d1 + d2)) * at(-3, -2) - (d2 + d1) / (d1 * d2) * at(-2, -1)
                    + (2.0 * d2 + d1) / (d2 * (d1 + d2)) * at(-1))
    return concatenate([first, inner, last], axis=ax)


def gradient(f, *varargs, axis=None, edge_order=1):
    """The gradient of f by second-order central differences inside and one-sided differences of
    order edge_order (1 or 2) at the boundaries. Spacing: none (1), one scalar for every axis,
    or one scalar or coordinate array per axis. One array per axis (a tuple when several)."""
    f = _operand(f, "gradient's argument")
    axes = list(range(f.ndim)) if axis is None else _normalized_axes(axis, f.ndim)
    n = len(varargs)
    if n == 0:
        spacings = [1.0] * len(axes)
    elif n == 1 and np.ndim(varargs[0]) == 0:
        spacings = list(varargs) * len(axes)
    elif n == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError("invalid number of arguments")
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    if f.dtype.kind in "iu":
        f = f.astype(np.float64)  # (integer differences would wrap or truncate)
    outs = []
    for ax, d in zip(axes, spacings):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        h = _spacing_for_axis(d, f.shape[ax])
        outs.append(_gradient_axis(f, ax, h, edge_order != 1).astype(f.dtype, copy=False))
    return outs[0] if len(outs) == 1 else tuple(outs)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The integral of y along axis by the trapezoidal rule: sample points x (1-D, or shaped like
    y), else the constant spacing dx."""
    y = _operand(y, "trapezoid's y")
    if y.ndim == 0:
        raise IndexError("trapezoid: y needs at least one dimension (an axis to integrate along)")
    ax = _simt._normalize_axis(operator.index(axis), y.ndim)
    if x is None:
        d = dx
    else:
        x = _operand(x, "trapezoid's x")
        d = diff(x, axis=axis) if x.ndim != 1 else diff(x).reshape((1,) * ax + (-1,) + (1,) * (y.ndim - ax - 1))
    lo = (slice(None),) * ax + (slice(None, -1),)
    hi = (slice(None),) * ax + (slice(1, None),)
    return sum_(d * (y[hi] + y[lo]) / 2.0, axis=ax)


def unwrap(p, discont=None, axis=-1, *, period=2 * math.pi):
    """p with jumps between neighbours along axis larger than discont (default period / 2)
    replaced by their equivalents modulo period, accumulated along the axis."""
    p = _operand(p, "unwrap's argument")
    dd = diff(p, axis=axis)
    ax = _simt._normalize_axis(operator.index(axis), p.ndim)
    if discont is None:
        discont = period / 2
    dt = np.result_type(dd.dtype, period)
    if dt.kind in "iu":  # integer phases and period: the half period is exact when period is even
        high, rem = builtins.divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    wrapped = remainder(dd - low, period) + low
    if ambiguous:  # a jump of exactly half a period keeps its sign
        wrapped = where(logical_and(equal(wrapped, low), dd > 0), high, wrapped)
    correction = where(abs_(dd) < discont, 0, wrapped - dd)
    up = p.astype(dt, copy=True)
    tail = (slice(None),) * ax + (slice(1, None),)
    up[tail] = p[tail] + cumsum(correction, axis=ax)
    return up


# ---- polynomials --------------------------------------------------------------------------------
def _poly_operand(p, where_):
    p = _operand(p, where_)
    return p.reshape(1) if p.ndim == 0 else p


def vander(x, N=None, increasing=False):
    """The Vandermonde matrix of 1-D x: columns x**(N-1), ..., x, 1 (increasing: reversed), in
    x's dtype promoted with the default integer. Powers are running products, as NumPy's."""
    x = _operand(x, "vander's x")
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    N = x.shape[0] if N is None else operator.index(N)
    dt = np.promote_types(x.dtype, np.int64)
    v = empty((x.shape[0], N), dt)
    if N > 0:
        v[:, 0] = 1
    if N > 1:
        xs = x.astype(dt, copy=False).reshape(-1, 1)
        v[:, 1:] = multiply.accumulate(xs * ones((1, N - 1), dt), axis=1)
    return v if increasing else v[:, ::-1]


def poly(seq_of_zeros):
    """The coefficients (highest power first) of the monic polynomial with the given roots, or
    of a square matrix's characteristic polynomial. Conjugate-paired complex roots give real
    coefficients."""
    from .linalg import eigvals
    s = _poly_operand(seq_of_zeros, "poly's argument")
    if s.ndim == 2 and s.shape[0] == s.shape[1] and s.shape[0] != 0:
        s = eigvals(s)
    elif s.ndim == 1:
        # NumPy's smallest of float32/float64/complex64/complex128 that holds the dtype
        s = s.astype(s.dtype if s.dtype in (np.float32, np.float64, np.complex64, np.complex128) else np.float64)
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    if s.shape[0] == 0:
        return 1.0
    a = ones((1,), s.dtype)
    for i in range(s.shape[0]):  # multiply by (x - r): coefficient k gets a[k] - r * a[k-1]
        z = zeros((1,), s.dtype)
        a = concatenate([a, z]) - s[i] * concatenate([z, a])
    if a.dtype.kind == "c":
        r = s.astype(np.complex128)
        if not _any_on_host(not_equal(sort(r), sort(conjugate(r)))):
            a = a.real.copy()
    return a


def _aligned(a1, a2, name):
    """The two coefficient arrays, the shorter one padded with leading zeros."""
    a1, a2 = _poly_operand(a1, f"{name}'s a1"), _poly_operand(a2, f"{name}'s a2")
    n = a2.shape[0] - a1.shape[0]
    if n > 0:
        a1 = concatenate([zeros((n,), a1.dtype), a1])
    elif n < 0:
        a2 = concatenate([zeros((-n,), a2.dtype), a2])
    return a1, a2


def polyadd(a1, a2):
    """The sum of two polynomials (coefficients, highest power first)."""
    a1, a2 = _aligned(a1, a2, "polyadd")
    return a1 + a2


def polysub(a1, a2):
    """The difference of two polynomials (coefficients, highest power first)."""
    a1, a2 = _aligned(a1, a2, "polysub")
    return a1 - a2


def _without_leading_zeros(p, where_):
    """p's coefficients from its first nonzero one on ([0] when all are zero), as NumPy's poly1d
    keeps them; found by one wait for the device."""
    from ._selection import flatnonzero
    p = _poly_operand(p, where_)
    if p.ndim != 1:
        raise ValueError("Polynomial must be 1d only.")
    nz = flatnonzero(p)
    if nz.size == 0:
        return zeros((1,), p.dtype)
    return p[int(nz[0].get()):]


def polymul(a1, a2):
    """The product of two polynomials: the convolution of their coefficients (leading zeros
    dropped first, as NumPy's polymul does through poly1d)."""
    from ._convolve import convolve
    return convolve(_without_leading_zeros(a1, "polymul's a1"), _without_leading_zeros(a2, "polymul's a2"))


def polyder(p, m=1):
    """The m-th derivative of the polynomial p (coefficients, highest power first)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = _operand(p, "polyder's p")
    for _ in range(m):
        n = len(p) - 1
        p = p[:-1] * arange(n, 0, -1)
    return p


def polyint(p, m=1, k=None):
    """The m-th antiderivative of the polynomial p; k: the integration constants (a scalar, or
    m of them, the first for the first integration)."""
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = zeros(m, np.float64) if k is None else _poly_operand(k, "polyint's k")
    if k.shape[0] == 1 and m > 1:
        k = k[0] * ones(m, np.float64)
    if k.shape[0] < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    p = _operand(p, "polyint's p")
    for i in range(m):
        p = concatenate([p / arange(len(p), 0, -1), k[i:i + 1]])
    return p


def roots(p):
    """The roots of the polynomial p (coefficients, highest power first): the eigenvalues of its
    companion matrix, plus a zero root per trailing zero coefficient. Leading and trailing zeros
    are found on the host (one wait for the device)."""
    from ._selection import flatnonzero
    from .linalg import eigvals
    p = _poly_operand(p, "roots' p")
    if p.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    nz = flatnonzero(p).get()
    if nz.size == 0:
        return empty((0,), np.float64)
    first, last = int(nz[0]), int(nz[-1])
    trailing = p.shape[0] - last - 1
    p = p[first:last + 1]
    if p.dtype.kind not in "fc":
        p = p.astype(np.float64)
    N = p.shape[0]
    if N > 1:
        companion = eye(N - 1, k=-1, dtype=p.dtype)
        companion[0, :] = -p[1:] / p[0]
        r = eigvals(companion)
        # The roots of a real polynomial stay real when no imaginary part is nonzero (NumPy 2.5's
        # eigvals is always complex, 2.4's was real then: NumPy's roots is real either way).
        if p.dtype.kind == "f" and r.dtype.kind == "c" and not bool((r.imag != 0).any()):
            r = r.real.copy()
    else:
        r = empty((0,), np.float64)
    return concatenate([r, zeros((trailing,), r.dtype)])


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """Least-squares polynomial fit of degree deg to the points (x, y) (y: one column per data
    set): coefficients, highest power first; full / cov add lstsq's diagnostics or the
    coefficients' covariance. The Vandermonde columns are scaled to unit norm before lstsq
    (NumPy's LAPACK, see simt.linalg)."""
    from .linalg import inv, lstsq
    order = int(deg) + 1
    x = _operand(x, "polyfit's x") + 0.0
    y = _operand(y, "polyfit's y") + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = x.shape[0] * np.finfo(x.dtype).eps
    lhs, rhs = vander(x, order), y
    if w is not None:
        w = _operand(w, "polyfit's w") + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        lhs = lhs * w[:, None]
        rhs = rhs * (w[:, None] if rhs.ndim == 2 else w)
    # unit-norm columns: better conditioned for lstsq
    sq = lhs.real * lhs.real + lhs.imag * lhs.imag if lhs.dtype.kind == "c" else lhs * lhs
    scale = sqrt(sum_(sq, axis=0))
    lhs = lhs / scale
    c, resids, rank, s = lstsq(lhs, rhs, rcond)
    c = (c.T / scale).T
    if rank != order and not full:
        warnings.warn("Polyfit may be poorly conditioned", np.exceptions.RankWarning, stacklevel=2)
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    from ._matmul import matmul, outer
    base = inv(matmul(lhs.T, lhs)) / outer(scale, scale)
    if cov == "unscaled":
        fac = 1
    else:
        if x.shape[0] <= order:
            raise ValueError("the number of data points must exceed order to scale the covariance matrix")
        fac = resids / (x.shape[0] - order)
    return c, (base * fac if y.ndim == 1 else base[:, :, None] * fac)


# ---- window functions -----------------------------------------------------------------------------
def _window_points(M):
    """(M as a float, n = 1 - M, 3 - M, ..., M - 1 on the device), or the whole window for M < 2."""
    if isinstance(M, ndarray):
        M = M.get()[()]
    M = float(M)
    if M < 1:
        return M, empty((0,), np.float64)
    if M == 1:
        return M, ones((1,), np.float64)
    return M, arange(1 - M, M, 2, dtype=np.float64)


def bartlett(M):
    """The triangular Bartlett window of M points (float64; empty for M < 1)."""
    M, n = _window_points(M)
    if M <= 1:
        return n
    return where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def _cosine_window(M, coefficients):
    """sum_j c_j cos(j pi n / (M - 1)): the generalized cosine windows."""
    M, n = _window_points(M)
    if M <= 1:
        return n
    out = None
    for j, c in enumerate(coefficients):
        term = c if j == 0 else c * cos(j * np.pi * n / (M - 1))
        out = term if out is None else out + term
    return out


def blackman(M):
    """The Blackman window of M points (float64; empty for M < 1)."""
    return _cosine_window(M, (0.42, 0.5, 0.08))


def hamming(M):
    """The Hamming window of M points (float64; empty for M < 1)."""
    return _cosine_window(M, (0.54, 0.46))


def hanning(M):
    """The Hann window of M points (float64; empty for M < 1)."""
    return _cosine_window(M, (0.5, 0.5))


def kaiser(M, beta):
    """The Kaiser window of M points with shape parameter beta: i0(beta sqrt(1 - t^2)) / i0(beta)
    for t running from -1 to 1."""
    M, n = _window_points(M)
    if M <= 1:
        return n
    t = arange(0, M, dtype=np.float64)
    alpha = (M - 1) / 2.0
    return i0(beta * sqrt(1 - ((t - alpha) / alpha) ** 2.0)) / i0(asarray(np.float64(beta)))


# ---- histograms -----------------------------------------------------------------------------------
def histogram_bin_edges(a, bins=10, range=None, weights=None):  # noqa: A002 (NumPy's name)
    """The bin edges histogram(a, bins, range) uses (a number of bins and a range, or the edges
    themselves); estimator names are not supported, as in simt.histogram."""
    from ._histograms import _edges
    a = _operand(a, "histogram_bin_edges' argument").ravel()
    return asarray(_edges(a, bins, range, "histogram_bin_edges"))


def _outer_edges(v, range_):
    """The first and last edge of an axis (NumPy scalars of v's dtype from its extremes, or the
    range as given), widened by 1/2 each way when equal."""
    if range_ is not None:
        lo, hi = range_
        if lo > hi:
            raise ValueError("max must be larger than min in range parameter.")
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"supplied range of [{lo}, {hi}] is not finite")
    elif v.size == 0:
        lo, hi = 0, 1
    else:
        lo, hi = amin(v).get()[()], amax(v).get()[()]
        if not (np.isfinite(lo) and np.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
    if lo == hi:
        lo, hi = lo - 0.5, hi + 0.5
    return lo, hi


def _axis_edges(v, bins, range_, i):
    """The edges (a host array, as NumPy's histogramdd makes them) for axis i."""
    if isinstance(bins, ndarray):
        bins = bins.get()
    if np.ndim(bins) == 0:
        if bins < 1:
            raise ValueError(f"`bins[{i}]` must be positive, when an integer")
        lo, hi = _outer_edges(v, range_)
        try:
            n = operator.index(bins)
        except TypeError:
            raise TypeError(f"`bins[{i}]` must be an integer, when a scalar") from None
        return np.linspace(lo, hi, n + 1)
    if np.ndim(bins) == 1:
        edges = np.asarray(bins)
        if np.any(edges[:-1] > edges[1:]):
            raise ValueError(f"`bins[{i}]` must be monotonically increasing, when an array")
        return edges
    raise ValueError(f"`bins[{i}]` must be a scalar or 1d array")


def _bin_index(v, d_edges):
    """Each value's bin among the edges counted from 1 (0 and len(edges): outside; the last edge
    belongs to the last bin); NaNs land outside."""
    dt = np.result_type(d_edges.dtype, v.dtype)
    d_edges, v = d_edges.astype(dt, copy=False), v.astype(dt, copy=False)
    idx = searchsorted(d_edges, v, side="right")
    return where(equal(v, d_edges[-1]), idx - 1, idx)


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):  # noqa: A002 (NumPy's name)
    """The 2-D histogram of the points (x, y): counts (or weight sums; float64) in bins
    [xe[i], xe[i+1]) x [ye[j], ye[j+1]) (the last ones closed), and the edges. bins: a number or
    edges for both axes, or one of either per axis; range: [[xmin, xmax], [ymin, ymax]]."""
    from ._histograms import bincount
    from ._selection import flatnonzero, take
    x, y = _operand(x, "histogram2d's x"), _operand(y, "histogram2d's y")
    if x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        raise ValueError(f"x and y must be 1-D and of one length (got shapes {x.shape} and {y.shape})")
    dt = np.result_type(x.dtype, y.dtype)  # (NumPy stacks them into one sample array)
    x, y = x.astype(dt, copy=False), y.astype(dt, copy=False)
    try:
        nb = len(bins)
    except TypeError:  # one number of bins for both axes
        nb = None
    if nb is None:
        bins = [bins, bins]
    elif nb != 2:  # one array of edges for both axes (a pair: one entry per axis)
        if nb == 1:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
        bins = [bins, bins]
    if range is None:
        range = (None, None)
    elif len(range) != 2:
        raise ValueError("range argument must have one entry per dimension")
    edges = [asarray(_axis_edges(v, b, r, i)) for i, (v, b, r) in enumerate(zip((x, y), bins, range))]
    nx, ny = edges[0].shape[0] - 1, edges[1].shape[0] - 1
    ix, iy = _bin_index(x, edges[0]), _bin_index(y, edges[1])
    inside = logical_and(logical_and(ix >= 1, ix <= nx), logical_and(iy >= 1, iy <= ny))
    keep = flatnonzero(inside)
    flat = take((ix - 1) * ny + (iy - 1), keep)
    w = None
    if weights is not None:
        w = _operand(weights, "histogram2d's weights")
        if w.dtype.kind == "c":  # (the counts are float64, and NumPy casts weights to them safely)
            raise TypeError(f"Cannot cast array data from {w.dtype!r} to dtype('float64') according to the rule 'safe'")
        if w.shape != x.shape:
            raise ValueError(f"weights should have the same shape as x ({x.shape}), got {w.shape}")
        w = take(w, keep)
    hist = bincount(flat, weights=w, minlength=nx * ny).astype(np.float64).reshape(nx, ny)
    if density:
        total = sum_(hist)
        hist = hist / diff(edges[0]).reshape(-1, 1)
        hist = hist / diff(edges[1]).reshape(1, -1)
        hist = hist / total
    return hist, edges[0], edges[1]
