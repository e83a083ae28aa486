"""Array creation and host transfers (the CuPy-shaped half of the seed)."""

import operator

import numpy as np

from . import _dtypes, _simt
from ._ndarray import ndarray


def empty(shape, dtype=None, order="C"):
    """A new device array; its contents are undefined."""
    return ndarray(shape, _dtypes.normalize(dtype), order=order)  # the shape is checked in C++, as NumPy checks it


def full(shape, fill_value, dtype=None, order="C"):
    """A new array filled with fill_value: a scalar, or an array broadcast to shape (a device
    array fills on the device; host arrays are copied to it first), cast as np.full casts."""
    fill = _fill_array(fill_value)
    if fill is not None:
        a = empty(shape, fill.dtype if dtype is None else _dtypes.normalize(dtype), order)
        a[...] = fill  # broadcasts (ValueError when it cannot), casting unsafely
        return a
    if dtype is None:
        dtype = np.array(fill_value).dtype if not isinstance(fill_value, bool) else np.bool_
    dt = _dtypes.normalize(dtype)
    a = empty(shape, dt, order)
    a._fill_bytes(host_value(fill_value, dt).tobytes())
    return a


def _fill_array(value):
    """fill_value as a device array when it is not a scalar, else None."""
    if isinstance(value, ndarray):
        return value
    if isinstance(value, (bool, int, float, complex, np.generic)):
        return None
    if isinstance(value, (list, tuple)):
        return asarray(value)  # (it may hold device arrays)
    if isinstance(value, np.ndarray):
        return asarray(value) if value.ndim else None
    return _foreign_view(value)


def host_value(value, dt):
    """`value` as a NumPy array of dtype dt, converted as NumPy converts it: a Python int by value
    (NEP 50), so one out of dt's range raises OverflowError (as np.full and a.fill do); NumPy
    scalars, floats and arrays are cast unsafely."""
    if isinstance(value, int) and not isinstance(value, bool):
        return np.array(value, dtype=dt)
    return np.array(value).astype(dt)


def zeros(shape, dtype=None, order="C"):
    return full(shape, 0, _dtypes.normalize(dtype), order)


def ones(shape, dtype=None, order="C"):
    return full(shape, 1, _dtypes.normalize(dtype), order)


def _like(a, dtype, shape, order, make):
    """make(shape, dtype, order) for the *_like functions. Order 'K' of an array that is neither
    C- nor F-contiguous keeps its axes' memory order, as NumPy: the new array is C-contiguous in
    the axes sorted by decreasing |stride| and is returned viewed back in `a`'s axis order."""
    dtype = a.dtype if dtype is None else dtype
    if shape is None and order in ("K", None) and a.ndim > 1 and not (a.flags.c_contiguous or a.flags.f_contiguous):
        perm = sorted(range(a.ndim), key=lambda axis: -abs(a.strides[axis]))  # (stable: ties keep axis order)
        made = make(tuple(a.shape[axis] for axis in perm), dtype, "C")
        return made.transpose([perm.index(axis) for axis in range(a.ndim)])
    order = _layout(a) if order in ("K", "A", None) else order
    return make(a.shape if shape is None else shape, dtype, order)


def _layout(a):
    """'K'/'A' (and None) for a source array `a`: 'F' when it is Fortran- and not C-contiguous,
    else 'C' (NumPy's choice for the new array's layout)."""
    flags = a.flags
    return "F" if flags.f_contiguous and not flags.c_contiguous else "C"


def empty_like(a, dtype=None, order="K", shape=None):
    return _like(a, dtype, shape, order, empty)


def zeros_like(a, dtype=None, order="K", shape=None):
    return _like(a, dtype, shape, order, zeros)


def ones_like(a, dtype=None, order="K", shape=None):
    return _like(a, dtype, shape, order, ones)


def full_like(a, fill_value, dtype=None, order="K", shape=None):
    fill = _fill_array(fill_value)
    if fill is not None:  # broadcast to the result's own axes (not to the memory-ordered ones of _like)
        out = empty_like(a, dtype, order, shape)
        out[...] = fill
        return out
    return _like(a, dtype, shape, order, lambda s, d, o: full(s, fill_value, d, o))


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0):
    """A device array holding `obj`: a NumPy array, nested sequences (of scalars, or of device
    arrays of one shape, joined on the device), or a device array. copy=True always copies,
    copy=None only when dtype or order need it, copy=False raises ValueError when a device array
    would need a copy (host data is always copied to the device), as in CuPy and NumPy 2.
    subok is accepted for NumPy's signature: simt has no ndarray subclasses."""
    ndmin = operator.index(ndmin)
    if order is None:
        order = "K"
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be one of 'C', 'F', 'A' or 'K' (got {order!r})")
    if isinstance(obj, ndarray):
        return _from_device(obj, dtype, copy, order, ndmin)
    foreign = _foreign_view(obj)  # CuPy/PyTorch/numba arrays on this device: no host round trip
    if foreign is not None:
        from ._interop import snapshot
        return _from_device(snapshot(foreign) if copy else foreign, dtype, None if copy else copy, order, ndmin)
    try:
        host = np.asarray(obj, dtype=dtype)
    except (TypeError, ValueError):
        joined = _from_device_sequence(obj, dtype, order, ndmin) if isinstance(obj, (list, tuple)) else None
        if joined is None:
            raise
        return joined
    if host.dtype == np.float128 if hasattr(np, "float128") else False:
        raise TypeError("simt does not support float128")
    dt = _dtypes.normalize(host.dtype)
    if host.ndim < ndmin:
        host = host.reshape((1,) * (ndmin - host.ndim) + host.shape)
    if host.ndim > 1 and (order == "F" or order in "KA" and _layout(host) == "F"):
        out = empty(host.shape, dt, "F")
        out.T._copy_from_host(np.asarray(host.T, dtype=dt, order="C"))  # (its transpose is C-contiguous)
        return out
    host = np.asarray(host, dtype=dt, order="C")  # (ascontiguousarray would make 0-d arrays 1-d)
    out = empty(host.shape, dt)
    out._copy_from_host(host)
    return out


def _from_device(a, dtype, copy, order, ndmin):
    dt = a.dtype if dtype is None else _dtypes.normalize(dtype)
    if order == "A":
        order = _layout(a)
    same_layout = order == "K" or (a._c_contiguous if order == "C" else a._f_contiguous)
    if copy or dt != a.dtype or not same_layout:
        if copy is False:
            need = f"a cast from {a.dtype} to {dt}" if dt != a.dtype else f"a copy in {order!r} order"
            raise ValueError(f"array(copy=False): the device array needs {need}, which copy=False forbids; use "
                             "copy=None (or simt.asarray) to copy only when needed")
        a = a.astype(dt, order=order)
    return a[(None,) * (ndmin - a.ndim)] if a.ndim < ndmin else a


def _from_device_sequence(obj, dtype, order, ndmin):
    """A nested list/tuple of device arrays of one shape joined on the device (as CuPy does), or
    None when it holds none. Python scalars or host arrays beside device arrays are a TypeError,
    as in CuPy: copy them to the device first."""
    leaves, host, ragged = [], [], []

    def shape_of(x, index):
        if isinstance(x, (list, tuple)):
            shapes = {shape_of(e, index + (i,)) for i, e in enumerate(x)}
            if len(shapes) > 1:
                ragged.append(index)
            return (len(x),) + (shapes.pop() if len(shapes) == 1 else ())
        view = x if isinstance(x, ndarray) else _foreign_view(x)
        if view is None:
            host.append(x)
            return np.shape(x)
        leaves.append((index, view))
        return tuple(view.shape)

    shape = shape_of(obj, ())
    if not leaves:
        return None
    if host:
        raise TypeError("simt.array: the sequence mixes device arrays with host data "
                        f"({type(host[0]).__module__}.{type(host[0]).__qualname__}); copy the host values to the "
                        "device with simt.asarray first (CuPy refuses this mix too)")
    if ragged:
        where = f"at index {ragged[0]}" if ragged[0] else "at the top level"
        raise ValueError(f"simt.array: the sequence is inhomogeneous: the items {where} have different shapes")
    dt = _dtypes.normalize(np.result_type(*(a.dtype for _, a in leaves)) if dtype is None else dtype)
    out = empty(shape, dt, "F" if order == "F" else "C")
    for index, a in leaves:
        out[index] = a  # one device copy per item, cast as NumPy casts
    return out[(None,) * (ndmin - out.ndim)] if out.ndim < ndmin else out


def asarray(obj, dtype=None, order=None, *, copy=None):
    """Like array(), but copies only when needed: a device array of the same dtype (and layout,
    where order asks for one) is returned unchanged."""
    return array(obj, dtype=dtype, copy=copy, order=order)


def _foreign_view(obj):
    """A zero-copy view of another library's array on the active device (see simt/_interop.py)."""
    from ._interop import device_view
    return device_view(obj)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    """Copy a device array to the host (NumPy objects pass through, in `order` and into `out` when
    given); blocking=False completes synchronously too (see ndarray.get)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, order=order, out=out, blocking=blocking)
    if out is None:
        return np.asarray(a, order=order)
    out[...] = a
    return out
