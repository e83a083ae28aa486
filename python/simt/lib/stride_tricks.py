"""cupy.lib.stride_tricks: views of an array's memory with other shapes and strides. A view may
reach anywhere in the memory of the array it views (its base), never past it: a shape and
strides that would is a ValueError, so a kernel or copy can never touch memory outside it."""
import numbers
import operator

from .. import _simt
from .._byte_layout import byte_span, int_tuple
from .._manipulation import _device_array, broadcast_arrays, broadcast_shapes, broadcast_to

__all__ = ["as_strided", "sliding_window_view", "broadcast_to", "broadcast_arrays", "broadcast_shapes"]


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    """A view of x's memory with `shape` and byte `strides` (x's own where not given), starting at
    x's first element. simt arrays are always writeable, so `writeable` changes nothing; the view
    may not reach outside the memory of x's base (ValueError)."""
    a = _device_array(x, "as_strided's argument")
    if subok:
        raise NotImplementedError("as_strided: subok=True is not supported (simt has no ndarray subclasses)")
    shape = a.shape if shape is None else int_tuple(shape, "as_strided", "shape")
    strides = a.strides if strides is None else int_tuple(strides, "as_strided", "strides")
    if len(shape) != len(strides):
        raise ValueError(f"as_strided: shape {shape} and strides {strides} have different lengths")
    if any(n < 0 for n in shape):
        raise ValueError(f"as_strided: negative dimensions are not allowed (shape {shape})")
    itemsize = a.dtype.itemsize
    if any(s % itemsize for s in strides):
        raise ValueError(f"as_strided: strides {strides} must be multiples of the {itemsize}-byte item size on the "
                         "device (loads of misaligned elements fault there)")
    base = a.base if a.base is not None else a
    span = byte_span(shape, strides, itemsize)
    if span is not None:
        room = byte_span(base.shape, base.strides, base.dtype.itemsize)
        start = a._ptr - base._ptr  # where x's first element lies in its base's memory
        if room is None or start + span[0] < room[0] or start + span[1] > room[1]:
            have = "no bytes" if room is None else f"bytes [{room[0]}, {room[1]})"
            raise ValueError(f"as_strided: a view of shape {shape} and strides {strides} would reach bytes "
                             f"[{start + span[0]}, {start + span[1]}) of memory that holds only {have}; "
                             "simt never reads or writes outside an array's memory")
    if base.dtype == a.dtype:
        view = _simt._restride(base, shape, strides, a._ptr - base._ptr)
    else:  # (x is a view of its base as another dtype)
        view = _simt._foreign_array(a._ptr, shape, strides, a.dtype, base)
    view._base = base
    return view


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """Every window of `window_shape` over x (over the axes `axis`, all of them when None): a view
    whose trailing axes run along the window. simt arrays are always writeable: writing into
    the view writes into x, at every window that shares the element."""
    a = _device_array(x, "sliding_window_view's argument")
    if subok:
        raise NotImplementedError("sliding_window_view: subok=True is not supported (simt has no ndarray subclasses)")
    window = tuple(window_shape) if not isinstance(window_shape, numbers.Integral) else (window_shape,)
    try:
        window = tuple(operator.index(w) for w in window)
    except TypeError:
        raise TypeError(f"sliding_window_view: window_shape must be integers, not {window_shape!r}") from None
    if any(w < 0 for w in window):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        axes = tuple(range(a.ndim))
        if len(window) != a.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window)} window_shape elements and `x.ndim` is {a.ndim}.")
    else:
        raw = (axis,) if isinstance(axis, numbers.Integral) else tuple(axis)
        axes = tuple(_simt._normalize_axis(operator.index(ax), a.ndim) for ax in raw)  # (repeats allowed)
        if len(window) != len(axes):
            raise ValueError(f"Must provide matching length window_shape and axis; got {len(window)} window_shape "
                             f"elements and {len(axes)} axes elements.")
    shape = list(a.shape)
    for ax, w in zip(axes, window):
        if shape[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        shape[ax] -= w - 1
    strides = a.strides + tuple(a.strides[ax] for ax in axes)
    return as_strided(a, tuple(shape) + window, strides)
