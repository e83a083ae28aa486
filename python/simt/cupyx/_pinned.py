"""cupyx.empty_pinned and friends: NumPy arrays whose memory is page-locked host memory (copies to
and from the device then go by DMA without staging)."""
import numpy as np

from .. import cuda
from ..cuda._host_memory import like_order


def empty_pinned(shape, dtype=float, order="C"):
    """An uninitialized NumPy array in pinned host memory."""
    return cuda.pinned_array(shape, dtype=dtype, order=order)


def zeros_pinned(shape, dtype=float, order="C"):
    """A NumPy array of zeros in pinned host memory."""
    out = empty_pinned(shape, dtype, order)
    out.fill(0)
    return out


def _like(a, dtype, order, shape):
    a = np.asanyarray(a) if not hasattr(a, "shape") else a
    dtype = a.dtype if dtype is None else dtype
    shape = a.shape if shape is None else shape
    if order in ("K", "A"):
        order = like_order(a)
    return shape, dtype, order


def empty_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """empty_pinned with a's shape and dtype (NumPy's empty_like rules for order)."""
    if subok is not None:
        raise TypeError("empty_like_pinned: subok is not supported (the result is always a NumPy array)")
    return empty_pinned(*_like(a, dtype, order, shape))


def zeros_like_pinned(a, dtype=None, order="K", subok=None, shape=None):
    """zeros_pinned with a's shape and dtype."""
    if subok is not None:
        raise TypeError("zeros_like_pinned: subok is not supported (the result is always a NumPy array)")
    return zeros_pinned(*_like(a, dtype, order, shape))
