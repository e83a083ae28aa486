"""simt.diff: n-th discrete differences along an axis (NumPy's signature and errors), as
differences of two overlapping views, one elementwise kernel per order."""
import operator

import numpy as np

from . import _simt
from ._manipulation import _device_array, broadcast_to, concatenate


def _edge(value, a, axis, what):
    """`prepend` / `append` as an array joining `a` along `axis` (a scalar fills one slice)."""
    v = _device_array(value, f"diff's {what}")
    if v.ndim == 0:
        shape = list(a.shape)
        shape[axis] = 1
        v = broadcast_to(v, tuple(shape))
    return v


def diff(a, n=1, axis=-1, prepend=np._NoValue, append=np._NoValue):
    """out[i] = a[i + 1] - a[i] along `axis`, applied `n` times (bool arrays: a[i + 1] != a[i]);
    `prepend` / `append` values join `a` along the axis first."""
    from ._ufuncs import not_equal, subtract
    n = operator.index(n)
    if n == 0:
        return a
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n!r}")
    a = _device_array(a, "diff's argument")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    axis = _simt._normalize_axis(operator.index(axis), a.ndim)
    parts = [a]
    if prepend is not np._NoValue:
        parts.insert(0, _edge(prepend, a, axis, "prepend"))
    if append is not np._NoValue:
        parts.append(_edge(append, a, axis, "append"))
    if len(parts) > 1:
        a = concatenate(parts, axis)
    lead = (slice(None),) * axis
    upper, lower = lead + (slice(1, None),), lead + (slice(None, -1),)
    op = not_equal if a.dtype == np.bool_ else subtract
    for _ in range(n):
        a = op(a[upper], a[lower])
    return a
