"""simt.cov and simt.corrcoef (NumPy's signatures, without frequency or analytic weights): the
centred variables' product through simt's matmul."""
import numpy as np


def _variables(m, y, rowvar, dtype, fname):
    """The observations as a 2-D array with one variable per row (y's stacked below m's)."""
    from ._manipulation import _device_array, atleast_2d, concatenate
    m = _device_array(m, fname)
    if m.ndim > 2:
        raise ValueError(f"{fname}: m has more than 2 dimensions")
    if dtype is None:
        dtype = np.result_type(m.dtype, np.float64)
    x = atleast_2d(m).astype(dtype)
    if not rowvar and m.ndim != 1:  # (a 1-D m is one variable either way, as in NumPy)
        x = x.T
    if y is not None:
        y = _device_array(y, f"{fname}'s y")
        if y.ndim > 2:
            raise ValueError(f"{fname}: y has more than 2 dimensions")
        y2 = atleast_2d(y).astype(dtype)
        if not rowvar and y.ndim != 1:
            y2 = y2.T
        y = y2
        if y.shape[1] != x.shape[1]:
            raise ValueError(f"{fname}: m and y hold {x.shape[1]} and {y.shape[1]} observations")
        x = concatenate([x, y], axis=0)
    return x


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """Covariance matrix of the variables (rows of m, or columns with rowvar=False), divided by
    N - 1 (N with bias=True, or N - ddof)."""
    from ._reductions import mean
    if fweights is not None or aweights is not None:
        raise NotImplementedError("cov: fweights and aweights are not supported")
    if ddof is not None and ddof != int(ddof):
        raise ValueError("cov: ddof must be integer")
    x = _variables(m, y, rowvar, dtype, "cov")
    ddof = (0 if bias else 1) if ddof is None else int(ddof)
    n = x.shape[1]
    centred = x - mean(x, axis=1, keepdims=True)
    c = centred @ (centred.T.conj() if centred.dtype.kind == "c" else centred.T)
    with np.errstate(divide="ignore"):  # (no observations left: NumPy's inf and nan, from 1 / 0)
        scale = float(np.true_divide(1.0, float(max(n - ddof, 0))))  # (a Python float keeps c's dtype)
    return (c * scale).squeeze()


def corrcoef(x, y=None, rowvar=True, *, dtype=None):
    """Pearson correlation coefficients of the variables (cov normalized by the variances),
    clipped to [-1, 1] as NumPy clips them."""
    from ._matrix_shapes import diag
    from ._ufuncs import clip, sqrt
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:
        return c / c
    d = sqrt(diag(c).real if c.dtype.kind == "c" else diag(c))
    c = c / d[:, None] / d[None, :]
    if c.dtype.kind == "c":
        return clip(c.real, -1, 1) + 1j * clip(c.imag, -1, 1)
    return clip(c, -1, 1)
