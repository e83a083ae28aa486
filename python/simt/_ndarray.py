"""Python-level methods of simt.ndarray (the type itself is defined in C++)."""
import operator

import numpy as np

from . import _simt

ndarray = _simt.ndarray


def _get(self, stream=None, order="C", out=None, blocking=True):
    """Copy to a new NumPy array on the host (waits for pending device work), in C order, or F
    order for order='F' (and for order='A' when this array is F- but not C-contiguous).
    Non-contiguous views are gathered into a contiguous device copy first. blocking=False is
    accepted as CuPy takes it, but simt's copy always completes before get() returns (which
    CuPy allows: the result is then simply ready early)."""
    if not isinstance(blocking, bool):
        raise TypeError(f"get(): blocking must be a bool, got {type(blocking).__name__} {blocking!r}")
    if order not in ("C", "F", "A", "K"):
        raise ValueError(f"order must be 'C', 'F', 'A' or 'K', not {order!r}")
    fortran = order == "F" or (order in ("A", "K") and self._f_contiguous and not self._c_contiguous)
    if fortran and out is None and self.ndim > 1:
        return _get(self.T, stream, "C").T
    src = self if self._c_contiguous else self.copy(order="C")
    host = out if out is not None else np.empty(self.shape, dtype=self.dtype)
    if host.shape != self.shape or host.dtype != self.dtype:
        raise ValueError("out must be a NumPy array of the same shape and dtype")
    if host.flags.c_contiguous:
        src._copy_to_host(host)
    else:
        host[...] = src.get()
    return host


def _set(self, arr, stream=None):
    """Copy a host array of the same shape into this device array (any strides)."""
    if isinstance(arr, ndarray):
        raise TypeError("set() takes a host (NumPy) array; use copy() for device-to-device copies")
    host = np.asarray(arr, dtype=self.dtype, order="C")
    if host.shape != self.shape:
        raise ValueError(f"shape mismatch: cannot set an array of shape {self.shape} from one of shape {host.shape}")
    if self._c_contiguous:
        self._copy_from_host(host)
    else:
        staged = ndarray(host.shape, host.dtype)
        staged._copy_from_host(host)
        self[...] = staged


def _array(self, *args, **kwargs):
    raise TypeError(
        "implicit conversion of a simt device array to a NumPy array is not allowed: "
        "use arr.get() or simt.asnumpy(arr) to copy it to the host")


def _repr(self):
    if self.size > 10_000:
        return f"simt.ndarray(shape={self.shape}, dtype={self.dtype})"
    return repr(self.get())  # NumPy's text (dtype shown where NumPy shows it), as CuPy prints


def _str(self):
    return str(self.get())


def _device(self):
    from .cuda._device import Device
    return Device(_simt.current_device())


def _bool(self):
    if self.size != 1:
        raise ValueError("the truth value of an array with more than one element is ambiguous")
    return bool(self.get().reshape(()))


def _item(self, *args):
    """NumPy's item(): item() of a one-element array, item(k) the k-th element in C order (a
    flat index, negative from the end), item(i, j, ...) or item((i, j, ...)) by position."""
    if len(args) == 1 and not isinstance(args[0], tuple):
        k = operator.index(args[0])
        if not -self.size <= k < self.size:
            raise IndexError(f"index {k} is out of bounds for size {self.size}")
        return self[np.unravel_index(k % self.size, self.shape)].item() if self.ndim else self.item()
    if args:
        return self[args if len(args) > 1 else args[0]].item()
    if self.size != 1:
        raise ValueError("can only convert an array of size 1 to a Python scalar")
    return self.get().reshape(()).item()


def _scalar_conversion(convert, name):
    def method(self):
        if self.size != 1:
            raise TypeError(f"only length-1 arrays can be converted to Python scalars ({name}() of shape {self.shape})")
        return convert(self.item())
    method.__name__ = f"__{name}__"
    return method


def _index(self):
    if self.ndim != 0 or self.dtype.kind not in "iu":
        raise TypeError("only integer scalar arrays can be converted to a scalar index")
    return int(self.item())


def _iter(self):
    if self.ndim == 0:
        raise TypeError("iteration over a 0-d array")
    return (self[i] for i in range(self.shape[0]))


def _contains(self, value):
    """`value in a`: NumPy's (a == value).any()."""
    return bool((self == value).any())


def _tolist(self):
    return self.get().tolist()


class Flags:
    """ndarray.flags, as CuPy's: read by key (a.flags['C_CONTIGUOUS']) or by attribute
    (a.flags.c_contiguous). A snapshot: it does not follow later changes."""
    __slots__ = ("c_contiguous", "f_contiguous", "owndata")
    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "F_CONTIGUOUS": "f_contiguous", "OWNDATA": "owndata"}

    def __init__(self, c_contiguous, f_contiguous, owndata):
        self.c_contiguous, self.f_contiguous, self.owndata = c_contiguous, f_contiguous, owndata

    def __getitem__(self, key):
        if key not in self._KEYS:
            raise KeyError(key)
        return getattr(self, self._KEYS[key])

    def __repr__(self):
        return "\n".join(f"  {key} : {getattr(self, name)}" for key, name in self._KEYS.items())


def _base(self):
    """NumPy's ndarray.base: the array whose memory this view shares (views of views name the
    first array), None for an array with memory of its own. Views made by indexing, reshape,
    transpose, ... record it (src/bindings/bind_views.cpp); so do view(), as_strided, ..."""
    return vars(self).get("_base")


def _flags(self):
    return Flags(self._c_contiguous, self._f_contiguous, _base(self) is None)


_squeeze, _transpose = ndarray.squeeze, ndarray.transpose


def _squeeze_method(self, axis=None):
    if axis is not None:  # NumPy's errors: bool axes, duplicates, out of range
        from ._reduce_passes import normalize_axes
        axis = normalize_axes(tuple(axis) if isinstance(axis, list) else axis, self.ndim)
    return _squeeze(self, axis)


def _transpose_method(self, *axes):
    if axes:
        items = axes[0] if len(axes) == 1 and isinstance(axes[0], (tuple, list)) else axes
        if any(isinstance(x, (bool, np.bool_)) for x in items):
            raise TypeError("an integer is required for the axis")
    return _transpose(self, *axes)


# numba.cuda's DeviceNDArray spellings, so numba code runs on simt arrays unchanged.
def _copy_to_host(self, ary=None, stream=0):
    """A NumPy copy (into `ary` when given: same shape and dtype), as numba's copy_to_host: an
    F-contiguous array comes back in F order."""
    return _get(self, order="A", out=ary)


def _copy_to_device(self, ary, stream=0):
    """Copy `ary` (a host array, or a device array of the same shape) into this array."""
    if isinstance(ary, ndarray):
        if ary.shape != self.shape:
            raise ValueError(f"shape mismatch: cannot copy an array of shape {ary.shape} into one of shape {self.shape}")
        self[...] = ary
    else:
        _set(self, ary)


def _bind(self, stream=0):
    """numba's bind(stream): an array over the same memory for use with `stream`. simt arrays
    carry no stream of their own (their operations go to the current stream: `with stream:`),
    so this checks `stream` and returns a view."""
    from .cuda._device import Stream
    if not (isinstance(stream, Stream) or stream is None or isinstance(stream, int) and stream == 0):
        raise TypeError(f"bind() takes a simt.cuda stream (or 0 for the default stream), not {type(stream).__name__}")
    return self.view()


def _device_ctypes_pointer(self):
    """numba's device_ctypes_pointer: the data address as a ctypes.c_void_p (None value when empty)."""
    import ctypes
    return ctypes.c_void_p(self._ptr if self.size else None)


for _name, _fn in {
    "copy_to_host": _copy_to_host, "bind": _bind, "copy_to_device": _copy_to_device,
    "is_c_contiguous": lambda self: self.flags.c_contiguous, "is_f_contiguous": lambda self: self.flags.f_contiguous,
    "get": _get, "set": _set, "__array__": _array, "__repr__": _repr, "__str__": _str,
    "__bool__": _bool, "item": _item, "__int__": _scalar_conversion(int, "int"),
    "__float__": _scalar_conversion(float, "float"), "__complex__": _scalar_conversion(complex, "complex"),
    "__index__": _index, "__iter__": _iter, "__contains__": _contains, "tolist": _tolist,
    "squeeze": _squeeze_method, "transpose": _transpose_method,
}.items():
    setattr(ndarray, _name, _fn)
ndarray.device = property(_device)
ndarray.flags = property(_flags)
ndarray.base = property(_base)
ndarray.data_ptr = property(lambda self: self._ptr)
ndarray.device_ctypes_pointer = property(_device_ctypes_pointer)
ndarray.__module__ = "simt"
