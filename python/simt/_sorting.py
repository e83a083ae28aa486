"""simt.sort, argsort, lexsort, partition, argpartition and the ndarray methods (NumPy's signatures;
every sort is stable, NaN last), built on the radix sort of python/simt/_radix_sort.py."""
import operator

import numpy as np

from . import _kernelgen as kg
from . import _radix_sort, _sort_keys
from ._sort_layout import sort_axis, take_along_rows

_KINDS = ("quicksort", "mergesort", "heapsort", "stable")


def device_array(a, fname):
    from ._manipulation import _device_array
    return _device_array(a, f"{fname}'s argument")


def _check_kind(fname, kind, order):
    if order is not None:
        raise ValueError(f"{fname}: cannot specify order when the array has no fields (simt arrays have none)")
    if kind is not None and not (isinstance(kind, str) and kind[:1].lower() in ("q", "m", "h", "s")):
        raise ValueError(f"{fname}: sort kind must be one of {', '.join(map(repr, _KINDS))} (got {kind!r})")


def _row_length(x):
    return x.shape[-1] if x.ndim else 1


def complex_keys(x):
    """The unsigned key arrays of complex `x` (C order), least significant first: NumPy's order is
    real then imaginary part, with values having a NaN part after all others (an imaginary NaN
    before a real one), so a NaN class (2 * real is NaN + imaginary is NaN) is the primary key."""
    from ._ufuncs import isnan
    re, im = x.real, x.imag
    nan_class = isnan(re).astype(np.uint8) * np.uint8(2) + isnan(im).astype(np.uint8)
    return [_sort_keys.to_keys(im)[0], _sort_keys.to_keys(re)[0], _sort_keys.to_keys(nan_class)[0]]


def key_list(x):
    """(unsigned key arrays of x, least significant first; int64 position of each element in its
    row), both in x's C order."""
    n = _row_length(x)
    if np.dtype(x.dtype).kind == "c":
        keys = complex_keys(x)
        _, index = _sort_keys.to_keys(keys[-1], n, with_index=True)
        return keys, index
    keys, index = _sort_keys.to_keys(x, n, canonical_zero=True, with_index=True)
    return [keys], index


def argsort_rows(x):
    """A 1-D int64 array: for each row of x (the sort axis last), the positions that sort it
    stably, rows in C order."""
    keys, index = key_list(x)
    return _radix_sort.argsort_keys(keys, index, _row_length(x))


def sort(a, axis=-1, kind=None, order=None, *, stable=None):
    """A sorted copy of `a` along `axis` (None: the flattened array). Always stable; NaN sorts last."""
    from ._creation import empty
    a = device_array(a, "sort")
    _check_kind("sort", kind, order)
    x, perm = sort_axis(a, axis, "sort")
    out = empty(x.shape if axis is None else a.shape, a.dtype)
    dst = out if perm is None else out.transpose(perm)
    if out.size == 0:
        return out
    if np.dtype(a.dtype).kind == "c":
        take_along_rows(x, argsort_rows(x), dst)
        return out
    if _radix_sort.sort_values(x, _row_length(x), dst):
        return out
    keys, _ = _sort_keys.to_keys(x, canonical_zero=False)  # -0.0 first: sorted values keep their sign
    _sort_keys.from_keys(_radix_sort.sort_rows(keys, _row_length(x))[0], dst)
    return out


def argsort(a, axis=-1, kind=None, order=None, *, stable=None):
    """Indices that sort `a` along `axis` (None: the flattened array), stable: equal elements keep
    their order (-0.0 equals 0.0, NaNs are equal and last)."""
    from ._creation import empty
    a = device_array(a, "argsort")
    _check_kind("argsort", kind, order)
    x, perm = sort_axis(a, axis, "argsort")
    out = empty(x.shape if axis is None else a.shape, np.int64)
    if out.size:
        dst = out if perm is None else out.transpose(perm)
        kg.copy_into(dst, kg.as_shape(argsort_rows(x), x.shape))
    return out


def lexsort(keys, axis=-1):
    """Indices that sort by several keys, the last key primary (NumPy's lexsort): `keys` is a
    sequence of arrays of one shape, or an array whose first axis runs over the keys."""
    from ._creation import empty
    from ._ndarray import ndarray
    if isinstance(keys, ndarray):
        if keys.ndim == 0:
            raise TypeError("lexsort: keys must be a sequence of arrays or an array of at least one dimension")
        arrays = [keys[i] for i in range(keys.shape[0])]
    elif isinstance(keys, (list, tuple)):
        arrays = [device_array(k, "lexsort") for k in keys]
    else:
        raise TypeError(f"lexsort: keys must be a sequence of simt arrays or a simt array, not {type(keys).__name__}")
    if not arrays:
        raise TypeError("lexsort: need a sequence of keys with len > 0")
    shape = arrays[0].shape
    if any(k.shape != shape for k in arrays):
        raise ValueError(f"lexsort: all keys need to be the same shape (got {[k.shape for k in arrays]})")
    if axis is None:
        raise TypeError("lexsort: axis must be an integer (NumPy's lexsort has no flattened form)")
    views = [sort_axis(k, axis, "lexsort") for k in arrays]
    perm = views[0][1]
    out = empty(shape, np.int64)
    if out.size == 0:
        return out
    ukeys, index = [], None
    for x, _ in views:
        keys, index = key_list(x)
        ukeys += keys
    rows = _radix_sort.argsort_keys(ukeys, index, _row_length(views[0][0]))
    x0 = views[0][0]
    kg.copy_into(out if perm is None else out.transpose(perm), kg.as_shape(rows, x0.shape))
    return out


def _check_kth(kth, n, fname):
    from ._ndarray import ndarray
    if isinstance(kth, ndarray):
        kth = kth.get()
    values = np.atleast_1d(np.asarray(kth))
    if values.dtype.kind not in "iu" or values.ndim != 1:
        raise TypeError(f"{fname}: kth must be an integer or a 1-D sequence of integers (got {kth!r})")
    for k in values.tolist():
        if not -n <= k < n:
            raise ValueError(f"{fname}: kth(={k}) out of bounds ({n})")


def _partition_axis_length(a, axis):
    if axis is None:
        return a.size
    return a.shape[_simt_axis(axis, a.ndim)] if a.ndim else 1


def _simt_axis(axis, ndim):
    from . import _simt
    return _simt._normalize_axis(operator.index(axis), ndim)


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """`a` rearranged along `axis` so that the element at each kth is where a sort puts it, smaller
    ones before, larger ones after (here: a full sort, which is one such arrangement)."""
    a = device_array(a, "partition")
    _check_partition_kind("partition", kind, order)
    _check_kth(kth, _partition_axis_length(a, axis), "partition")
    return sort(a, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    """Indices that partition `a` along `axis` around each kth (here: the stable argsort)."""
    a = device_array(a, "argpartition")
    _check_partition_kind("argpartition", kind, order)
    _check_kth(kth, _partition_axis_length(a, axis), "argpartition")
    return argsort(a, axis)


def _check_partition_kind(fname, kind, order):
    if order is not None:
        raise ValueError(f"{fname}: cannot specify order when the array has no fields (simt arrays have none)")
    if kind != "introselect":
        raise ValueError(f"{fname}: kind must be 'introselect' (got {kind!r})")


def _sort_method(self, axis=-1, kind=None, order=None, *, stable=None):
    """Sorts the array in place along `axis` (stable, NaN last)."""
    if axis is None:
        raise TypeError("ndarray.sort: axis must be an integer "
                        "(use simt.sort(a, axis=None) to sort the flattened array)")
    kg.copy_into(self, sort(self, axis, kind, order))


def _partition_method(self, kth, axis=-1, kind="introselect", order=None):
    """Partitions the array in place along `axis` around each kth (by a full sort)."""
    if axis is None:
        raise TypeError("ndarray.partition: axis must be an integer")
    kg.copy_into(self, partition(self, kth, axis, kind, order))


def _searchsorted_method(self, v, side="left", sorter=None):
    from ._searchsorted import searchsorted
    return searchsorted(self, v, side, sorter)


def attach_methods(cls):
    cls.sort = _sort_method
    cls.argsort = lambda self, axis=-1, kind=None, order=None, *, stable=None: argsort(self, axis, kind, order)
    cls.partition = _partition_method
    cls.argpartition = lambda self, kth, axis=-1, kind="introselect", order=None: argpartition(self, kth, axis, kind,
                                                                                              order)
    cls.searchsorted = _searchsorted_method
