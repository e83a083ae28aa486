"""Array creation and host transfers (the CuPy-shaped half of the seed)."""

import numpy as np

from . import _dtypes, _simt
from ._ndarray import ndarray


def empty(shape, dtype=None, order="C"):
    """A new device array; its contents are undefined."""
    return ndarray(shape, _dtypes.normalize(dtype), order)  # the shape is checked in C++, as NumPy checks it


def full(shape, fill_value, dtype=None, order="C"):
    if dtype is None:
        dtype = np.array(fill_value).dtype if not isinstance(fill_value, bool) else np.bool_
    dt = _dtypes.normalize(dtype)
    a = empty(shape, dt, order)
    a._fill_bytes(host_value(fill_value, dt).tobytes())
    return a


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


def _like(a, dtype, shape):
    return (a.shape if shape is None else shape), (a.dtype if dtype is None else dtype)


def empty_like(a, dtype=None, order="C", shape=None):
    s, d = _like(a, dtype, shape)
    return empty(s, d, order)


def zeros_like(a, dtype=None, order="C", shape=None):
    s, d = _like(a, dtype, shape)
    return zeros(s, d, order)


def ones_like(a, dtype=None, order="C", shape=None):
    s, d = _like(a, dtype, shape)
    return ones(s, d, order)


def full_like(a, fill_value, dtype=None, order="C", shape=None):
    s, d = _like(a, dtype, shape)
    return full(s, fill_value, d, order)


def array(obj, dtype=None, copy=True, order="C"):
    """A device array holding `obj` (a NumPy array, nested sequences, or a device array)."""
    if isinstance(obj, ndarray):
        if dtype is not None and np.dtype(dtype) != obj.dtype:
            return obj.astype(_dtypes.normalize(dtype), order=order if order in "CF" else "K")
        return obj.copy(order=order if order in "CF" else "K") if copy else obj
    foreign = _foreign_view(obj)  # CuPy/PyTorch/numba arrays on this device: no host round trip
    if foreign is not None:
        from ._interop import snapshot
        return array(snapshot(foreign) if copy else foreign, dtype=dtype, copy=False)
    host = np.asarray(obj, dtype=dtype)
    if host.dtype == np.float128 if hasattr(np, "float128") else False:
        raise TypeError("simt does not support float128")
    dt = _dtypes.normalize(host.dtype)
    host = np.asarray(host, dtype=dt, order="C")  # (ascontiguousarray would make 0-d arrays 1-d)
    out = empty(host.shape, dt)
    out._copy_from_host(host)
    return out


def asarray(obj, dtype=None, order=None):
    """Like array(), but returns device arrays unchanged."""
    if isinstance(obj, ndarray) and (dtype is None or np.dtype(dtype) == obj.dtype):
        return obj
    foreign = _foreign_view(obj)
    if foreign is not None:
        return array(foreign, dtype=dtype, copy=False)
    return array(obj, dtype=dtype, copy=True)


def _foreign_view(obj):
    """A zero-copy view of another library's array on the active device (see simt/_interop.py)."""
    from ._interop import device_view
    return device_view(obj)


def asnumpy(a, stream=None, order="C", out=None):
    """Copy a device array to the host (NumPy objects pass through)."""
    if isinstance(a, ndarray):
        return a.get(stream=stream, out=out)
    return np.asarray(a)
