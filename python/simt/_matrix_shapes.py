"""Diagonals and triangles: simt.diag, diagonal, trace, tril, triu (NumPy's signatures and
errors). Diagonals are strided views (ndarray.diagonal, in C++); triangles are one select
against a mask made from two index ranges."""
import operator

import numpy as np

from ._creation import zeros
from ._manipulation import _device_array


def diag(v, k=0):
    """The k-th diagonal of a 2-D array (a view), or a 2-D array with 1-D `v` on its k-th diagonal."""
    v = _device_array(v, "diag's argument")
    k = operator.index(k)
    if v.ndim == 1:
        n = v.shape[0] + abs(k)
        out = zeros((n, n), v.dtype)
        out.diagonal(k)[...] = v
        return out
    if v.ndim == 2:
        return v.diagonal(k)
    raise ValueError("Input must be 1- or 2-d.")


def diagonal(a, offset=0, axis1=0, axis2=1):
    """The diagonal over axes axis1 and axis2 (a view; it becomes the last axis)."""
    return _device_array(a, "diagonal's argument").diagonal(offset, axis1, axis2)


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    """Sum along the diagonal (sum's dtype rules: small integers add up in int64)."""
    from ._reduce_passes import reduce
    d = _device_array(a, "trace's argument").diagonal(offset, axis1, axis2)
    return reduce("trace", d, "sum", -1, dtype, out)


def _triangle(m, k, lower, fname):
    from ._manipulation import arange
    from ._ufuncs import where
    m = _device_array(m, f"{fname}'s argument")
    if m.ndim == 0:  # (NumPy's TypeError comes from tri() missing its N argument)
        raise TypeError(f"{fname}() needs an array of at least one dimension")
    k = operator.index(k)
    rows, cols = (m.shape[-1],) * 2 if m.ndim == 1 else m.shape[-2:]
    # Element (i, j) is kept where j - i <= k (lower) or j - i >= k (upper). A 1-D `m` is
    # broadcast to square, as in NumPy.
    i, j = arange(rows)[:, None], arange(cols)[None, :]
    keep = (j <= i + k) if lower else (j >= i + k)
    return where(keep, m, np.zeros((), m.dtype)[()])


def tril(m, k=0):
    """Copy of `m` with the elements above the k-th diagonal zeroed (over the last two axes)."""
    return _triangle(m, k, True, "tril")


def triu(m, k=0):
    """Copy of `m` with the elements below the k-th diagonal zeroed (over the last two axes)."""
    return _triangle(m, k, False, "triu")
