"""simt.ptp and simt.average (NumPy's signatures and errors), built from the reductions."""
import numpy as np

from . import _reduce_passes as rp
from ._manipulation import _axis_list, _device_array, broadcast_to


def ptp(a, axis=None, out=None, keepdims=False):
    """Range of values (maximum - minimum) over `axis`."""
    from ._reductions import max, min
    from ._ufuncs import subtract
    a = rp.require_array(a, "ptp")
    return subtract(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims), out=out)


def _weights_along(a, wgt, axes):
    """NumPy's checks of weights, and weights shaped to broadcast against `a`."""
    if a.shape == wgt.shape:
        return wgt
    if axes is None:
        raise TypeError("Axis must be specified when shapes of a and weights differ.")
    if wgt.shape != tuple(a.shape[ax] for ax in axes):
        raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
    wgt = wgt.transpose(tuple(int(i) for i in np.argsort(axes)))
    return wgt.reshape(tuple(n if ax in axes else 1 for ax, n in enumerate(a.shape)))


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    """Weighted average over `axis` (None: all elements); with `returned`, also the sum of the
    weights. Weights that sum to zero raise ZeroDivisionError, as in NumPy and CuPy: checking
    that waits for the device (one bool is copied to the host)."""
    from ._creation import full
    from ._reductions import any as any_, mean, sum as total
    from ._ufuncs import multiply
    a = _device_array(a, "average's argument")
    axes = None if axis is None else tuple(_axis_list(axis, a.ndim, "axis"))
    if weights is None:
        avg = mean(a, axes, keepdims=keepdims)
        scl = full(avg.shape, a.size / avg.size, avg.dtype)
    else:
        wgt = _weights_along(a, _device_array(weights, "average's weights"), axes)
        extra = ("f8",) if a.dtype.kind in "biu" else ()
        result_dtype = np.result_type(a.dtype, wgt.dtype, *extra)
        scl = total(wgt, axes, dtype=result_dtype, keepdims=keepdims)
        if bool(any_(scl == 0.0)):
            raise ZeroDivisionError("Weights sum to zero, can't be normalized")
        avg = total(multiply(a, wgt, dtype=result_dtype), axes, keepdims=keepdims) / scl
    if not returned:
        return avg
    if scl.shape != avg.shape:
        scl = broadcast_to(scl, avg.shape).copy()
    return avg, scl
