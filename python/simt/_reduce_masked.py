"""initial= and where= on simt's reductions, as NumPy defines them: `where` keeps the selected
elements only (the others count as the reduction's identity, or as `initial` for min/max), and
`initial` joins every reduction as one more element. Built on the plain reductions: one
elementwise select, then the usual kernels."""
import math

import numpy as np

from . import _reduce_passes as rp

_IDENTITY = {"sum": 0, "prod": 1, "all": True, "any": False}
_UFUNC_NAME = {"min": "minimum", "max": "maximum"}


def _selected(a, where, fill, fname):
    """a with the elements outside `where` replaced by `fill` (where broadcast to a's shape)."""
    from ._creation import asarray
    from ._ufuncs import where as select
    mask = asarray(where)
    if mask.dtype != np.bool_:
        raise TypeError(f"simt.{fname}(): where must be a boolean array, not {mask.dtype}")
    try:
        shape = np.broadcast_shapes(tuple(mask.shape), tuple(a.shape))
    except ValueError:
        raise ValueError(f"simt.{fname}(): where of shape {tuple(mask.shape)} does not broadcast to the array's "
                         f"shape {tuple(a.shape)}") from None
    if shape != tuple(a.shape):
        raise ValueError(f"simt.{fname}(): where of shape {tuple(mask.shape)} would change the array's shape "
                         f"{tuple(a.shape)}")
    return select(mask, a, np.asarray(fill, dtype=a.dtype)[()]), mask


def reduce(fname, a, op, axis=None, dtype=None, out=None, keepdims=False, initial=None, where=True):
    """simt.<fname>(a, axis, dtype, out, keepdims, initial, where) for op in sum prod min max all any."""
    if hasattr(a, "_simt_fusion_reduce"):  # a value simt.fuse is tracing (simt/_fusion.py)
        return a._simt_fusion_reduce(fname, axis, dtype, out, keepdims, initial, where)
    a = rp.real_if_cast_from_complex(rp.require_array(a, fname), dtype)
    if initial is None and where is True:
        return rp.reduce(fname, a, op, axis, dtype, out, keepdims)
    if op in _UFUNC_NAME and initial is None:
        raise ValueError(f"reduction operation '{_UFUNC_NAME[op]}' does not have an identity, so to use a where "
                         f"mask one has to specify 'initial'")
    x = a
    if where is not True:
        x, _ = _selected(a, where, initial if op in _UFUNC_NAME else _IDENTITY[op], fname)
    axes = rp.normalize_axes(axis, a.ndim)
    if op in _UFUNC_NAME and math.prod(a.shape[i] for i in axes) == 0:
        # An empty min/max is an error without `initial`; with it, the result is `initial`.
        from ._creation import full
        shape = tuple((1 if i in axes else n) for i, n in enumerate(a.shape) if keepdims or i not in axes)
        return rp.finish(full(shape, initial, dtype=a.dtype), out, fname)
    result = rp.reduce(fname, x, op, axis, dtype, None, keepdims)
    if initial is not None:
        from . import _ufuncs
        combine = {"sum": _ufuncs.add, "prod": _ufuncs.multiply, "min": _ufuncs.minimum, "max": _ufuncs.maximum,
                   "all": _ufuncs.logical_and, "any": _ufuncs.logical_or}[op]
        result = combine(result, np.asarray(initial, dtype=result.dtype)[()])
    return rp.finish(result, out, fname)


def mean(a, axis=None, dtype=None, out=None, keepdims=False, where=True):
    """simt.mean with where=: the sum of the selected elements over their count (NaN, with NumPy's
    warning, where none is selected)."""
    if hasattr(a, "_simt_fusion_reduce"):
        return a._simt_fusion_reduce("mean", axis, dtype, out, keepdims, None, where)
    a = rp.require_array(a, "mean")
    if where is True:
        return rp.reduce("mean", a, "mean", axis, dtype, out, keepdims)
    from ._creation import zeros
    res_dt, _, _ = rp.result_dtypes("mean", np.dtype(a.dtype), None if dtype is None else np.dtype(dtype))
    x, mask = _selected(a, where, 0, "mean")
    total = rp.reduce("mean", x, "sum", axis, res_dt, None, keepdims)
    count = rp.reduce("mean", zeros(a.shape, np.int64) + mask, "sum", axis, None, None, keepdims)
    with np.errstate(invalid="ignore", divide="ignore"):
        if bool((count == 0).any()):
            import warnings
            warnings.warn("Mean of empty slice.", RuntimeWarning, stacklevel=3)
        result = (total / count).astype(res_dt)
    return rp.finish(result, out, "mean")
