"""simt.unique(..., axis=k): the distinct slices along an axis, sorted. The slices are flattened
to rows, the rows ordered lexicographically (simt.lexsort, the first element primary, as NumPy
orders them), and a row starts a new group where any element differs from the row before
(NaNs never equal, so rows holding NaN stay distinct, as in NumPy)."""
import math
import operator

import numpy as np

from . import _simt


def unique_along_axis(a, axis, return_index, return_inverse, return_counts):
    from ._creation import empty
    from ._differences import diff
    from ._manipulation import arange, concatenate, moveaxis
    from ._reductions import any as any_
    from ._scan import cumsum
    from ._selection import flatnonzero, take
    from ._sorting import lexsort
    from ._ufuncs import not_equal
    ax = _simt._normalize_axis(operator.index(axis), a.ndim)
    moved = moveaxis(a, ax, 0)
    n, rest = moved.shape[0], moved.shape[1:]
    width = math.prod(rest)
    rows = moved.reshape(n, width)
    if n == 0:
        starts = empty((0,), np.bool_)
        perm = empty((0,), np.int64)
    elif width == 0:  # rows without elements are all equal
        perm = arange(n, dtype=np.int64)
        starts = _first_true(n)
    else:
        perm = lexsort(rows.T[::-1])  # (lexsort's last key is primary: the rows' first column)
        rows = take(rows, perm, axis=0)
        starts = concatenate([_first_true(1), any_(not_equal(rows[1:], rows[:-1]), axis=1)])
    first = flatnonzero(starts)
    values = take(rows, first, axis=0).reshape((first.shape[0],) + rest)
    values = moveaxis(values, 0, ax)
    extra = []
    if return_index:
        extra.append(take(perm, first))
    if return_inverse:
        inverse = empty((n,), np.int64)
        if n:
            inverse[perm] = cumsum(starts, dtype=np.int64) - 1  # each row's group, at its own position
        extra.append(inverse)
    if return_counts:
        ends = empty((1,), np.int64)
        ends.fill(n)
        extra.append(diff(concatenate([first, ends])))
    return (values, *extra) if extra else values


def _first_true(n):
    """n booleans, True first (a new group begins at the first row)."""
    from ._creation import zeros
    flags = zeros((n,), np.bool_)
    flags[0] = True
    return flags
