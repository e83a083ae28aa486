"""Selecting elements by index or condition: simt.nonzero, flatnonzero, argwhere, count_nonzero,
take, put, compress, extract (NumPy's signatures), built on advanced indexing and on the
boolean compaction of python/simt/_index_kernels.py."""
import numbers
import operator

import numpy as np

from . import _index_kernels, _simt
from ._ndarray import ndarray


def _device(a, where):
    from ._manipulation import _device_array
    return _device_array(a, where)


def _flat(a):
    return a if a.ndim == 1 else a.ravel()


def nonzero(a):
    """A tuple of index arrays, one per dimension, of the nonzero elements (C order)."""
    a = _device(a, "nonzero's argument")
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use simt.atleast_1d(scalar).nonzero() instead.")
    coords = _index_kernels.nonzero_coords(a)
    return tuple(coords[d] for d in range(a.ndim))


def flatnonzero(a):
    """Indices of the nonzero elements of the flattened array."""
    return _index_kernels.nonzero_coords(_flat(_device(a, "flatnonzero's argument")))[0]


def argwhere(a):
    """A (count, ndim) array of the coordinates of the nonzero elements."""
    a = _device(a, "argwhere's argument")
    if a.ndim == 0:  # NumPy: one row per nonzero (0 or 1), no columns
        from ._creation import empty
        return empty((int(_index_kernels.nonzero_coords(a.reshape(1)).shape[1]), 0), np.int64)
    return _index_kernels.nonzero_coords(a).T.copy()


def count_nonzero(a, axis=None, *, keepdims=False):
    """How many elements are nonzero, over `axis` (None: all; a 0-d array, as in CuPy, not a
    host integer, so no synchronize is needed)."""
    from ._reductions import sum as total
    a = _device(a, "count_nonzero's argument")
    flags = a if a.dtype == np.bool_ else a != 0
    return total(flags, axis=axis, dtype=np.int64, keepdims=keepdims)


def _normalized_indices(indices, n, mode):
    """Indices for take/put after `mode` ('raise' keeps them: indexing checks them)."""
    if mode == "raise":
        return indices
    if mode not in ("wrap", "clip"):
        raise ValueError(f"mode must be 'raise', 'wrap' or 'clip' (got {mode!r})")
    if isinstance(indices, ndarray):
        if indices.dtype.kind not in "iu":
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        if indices.size and n == 0:
            raise IndexError("cannot do a non-empty take from an empty axes.")
        from ._ufuncs import clip, remainder
        return remainder(indices, n) if mode == "wrap" else clip(indices, 0, max(n - 1, 0))
    host = np.asarray(indices)
    if host.dtype.kind not in "iu" and host.size:
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    host = host.astype(np.int64)
    if host.size and n == 0:
        raise IndexError("cannot do a non-empty take from an empty axes.")
    return np.mod(host, n) if mode == "wrap" else np.clip(host, 0, max(n - 1, 0))


def _integer_indices(indices):
    """Integer index arrays for take/put (booleans are not masks there: NumPy casts them)."""
    if isinstance(indices, (bool, np.bool_)):
        return int(indices)
    if isinstance(indices, ndarray):
        return indices.astype(np.int64) if indices.dtype == np.bool_ else indices
    if isinstance(indices, numbers.Integral):
        return operator.index(indices)
    host = np.asarray(indices)
    if host.dtype == np.bool_ or host.size == 0:
        host = host.astype(np.int64)
    return int(host) if host.ndim == 0 and host.dtype.kind in "iu" else host


def take(a, indices, axis=None, out=None, mode="raise"):
    """Elements of `a` at `indices` along `axis` (None: of the flattened array); a new array."""
    a = _device(a, "take's argument")
    if axis is None:
        a, axis = _flat(a), 0
    axis = _simt._normalize_axis(operator.index(axis), a.ndim)
    indices = _normalized_indices(_integer_indices(indices), a.shape[axis], mode)
    key = (slice(None),) * axis + (indices,)
    result = a[key]
    if isinstance(indices, int):  # a basic view: take returns a copy
        result = result.copy()
    if out is not None:
        out[...] = result
        return out
    return result


def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, with v repeated when shorter than ind (in place)."""
    from ._creation import asarray
    from ._manipulation import arange
    if not isinstance(a, ndarray):
        raise TypeError(f"put's first argument must be a simt array, not {type(a).__qualname__}")
    ind = _normalized_indices(_integer_indices(ind), a.size, mode)
    count = 1 if isinstance(ind, int) else ind.size
    values = v if isinstance(v, ndarray) else asarray(np.asarray(v))
    values = _flat(values) if values.ndim else values.reshape(1)
    if values.size == 0 or count == 0:
        return
    if values.size != count:
        values = take(values, arange(count) % values.size)
    flat_ind = ind if isinstance(ind, int) else _flat(ind) if isinstance(ind, ndarray) else np.ravel(ind)
    if isinstance(ind, int):
        values = values[0]
    if a._c_contiguous:
        from ._kernelgen import flat
        flat(a)[flat_ind] = values
    else:
        staged = a.ravel()
        staged[flat_ind] = values
        a[...] = staged.reshape(a.shape)


def _condition_indices(condition):
    if isinstance(condition, ndarray):
        if condition.ndim != 1:
            raise ValueError("condition must be a 1-d array")
        return _index_kernels.nonzero_coords(condition)[0]
    host = np.asarray(condition)
    if host.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    return np.nonzero(host)[0]


def compress(condition, a, axis=None, out=None):
    """The slices of `a` along `axis` (None: elements of the flattened array) where `condition` is true."""
    return take(a, _condition_indices(condition), axis=axis, out=out)


def extract(condition, arr):
    """The elements of the flattened `arr` where the flattened `condition` is nonzero."""
    arr = _device(arr, "extract's argument")
    if isinstance(condition, ndarray):
        cond = _flat(condition)
    else:
        cond = np.ravel(np.asarray(condition))
    return take(_flat(arr), _condition_indices(cond))


def _method(fn):
    def method(self, *args, **kwargs):
        return fn(self, *args, **kwargs)
    method.__name__ = fn.__name__
    method.__doc__ = fn.__doc__
    return method


def _attach_methods(cls):
    cls.nonzero = _method(nonzero)
    cls.take = _method(take)
    cls.put = _method(put)
    cls.compress = lambda self, condition, axis=None, out=None: compress(condition, self, axis, out)
