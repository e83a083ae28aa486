"""simt.unique (NumPy's signature; axis=k: python/simt/_unique_axis.py): a stable argsort of the
flattened array, group starts where a sorted value differs from the one before, and a
compaction of those starts."""
import numpy as np

from ._sorting import argsort_rows, device_array
from ._sort_layout import sort_axis, take_along_rows


def _group_starts(s, equal_nan):
    """Bool flags over the sorted values `s` (1-D, size >= 1): True where a new value begins.
    NaNs (complex: a NaN in either part) are one group when `equal_nan`, else each its own."""
    from ._creation import empty
    from ._manipulation import concatenate
    from ._ufuncs import isnan, logical_and, logical_not, logical_or, not_equal
    head = empty((1,), np.bool_)
    head.fill(True)
    if s.size == 1:
        return head
    prev, cur = s[:-1], s[1:]
    diff = not_equal(cur, prev)
    if np.dtype(s.dtype).kind in "fc":
        both_nan = logical_and(isnan(cur), isnan(prev))
        # NaN != NaN: joined when equal_nan; a complex NaN group is every value with a NaN part.
        diff = logical_and(diff, logical_not(both_nan)) if equal_nan else logical_or(diff, both_nan)
    return concatenate([head, diff])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    """The sorted distinct values of `ar` (flattened; or its distinct slices along `axis`); optionally the index of each one's first
    occurrence, the inverse (ar's shape: each element's position among the uniques) and counts.
    Learning how many distinct values there are waits for the device once."""
    from ._creation import empty
    from ._differences import diff
    from ._index_kernels import compact
    from ._manipulation import concatenate
    from ._scan import cumsum
    from ._selection import flatnonzero
    a = device_array(ar, "unique")
    if axis is not None:  # distinct slices along the axis
        from ._unique_axis import unique_along_axis
        return unique_along_axis(a, axis, return_index, return_inverse, return_counts)
    x, _ = sort_axis(a, None, "unique")
    n = x.size
    if n == 0:
        values = empty((0,), a.dtype)
        index, inverse, counts = empty((0,), np.int64), empty(a.shape, np.int64), empty((0,), np.int64)
    else:
        perm = argsort_rows(x)
        s = take_along_rows(x, perm, empty((n,), a.dtype))
        starts = _group_starts(s, equal_nan)
        values = compact(s, starts)
        index = compact(perm, starts) if return_index else None
        inverse = None
        if return_inverse:
            group = cumsum(starts, dtype=np.int64) - 1
            inverse = empty((n,), np.int64)
            inverse[perm] = group  # each element's group, back at its own position
            inverse = inverse.reshape(a.shape)
        counts = None
        if return_counts:
            first = flatnonzero(starts)
            ends = empty((1,), np.int64)
            ends.fill(n)
            counts = diff(concatenate([first, ends]))
    extra = [r for r, want in ((index, return_index), (inverse, return_inverse), (counts, return_counts)) if want]
    return (values, *extra) if extra else values
