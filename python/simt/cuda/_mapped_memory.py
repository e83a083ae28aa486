"""Host arrays that kernels read and write in place (numba.cuda's mapped_array, mapped_array_like,
mapped() and managed_array): NumPy arrays whose memory the device addresses directly, page-locked
host memory mapped into the device's address space, or managed memory that the driver migrates
on demand. Kernels take them as they take simt arrays (a view at the device's address); NumPy
uses them as any array. Synchronize before reading on the host what a kernel wrote."""
import contextlib

import numpy as np

from .. import _simt
from ._host_memory import _byte_bounds, host_layout, like_order


class DeviceAccessibleArray(np.ndarray):
    """A NumPy array in memory the device can address (numba's MappedNDArray/ManagedNDArray).
    Views of it stay device-accessible; arrays NumPy computes from it are new host memory and
    become plain arrays, and copies (or a cuda.mapped() view after its block) are host arrays to
    simt: kernels refuse them and simt.asarray copies them."""

    _simt_span = None  # (first host byte, one past the last, the device's address of the first)

    def __array_finalize__(self, obj):
        span = getattr(obj, "_simt_span", None)
        if span is not None and self.size:
            low, high = _byte_bounds(self)
            if not (span[0] <= low and high <= span[1]):
                span = None
        self._simt_span = span

    def _simt_device_view(self):
        """A simt array over this memory at the device's address (what kernels get; only while
        _simt_span is set, which simt._interop.device_view checks)."""
        span = self._simt_span
        ptr = span[2] + (self.ctypes.data - span[0]) if self.size else span[2]
        return _simt._foreign_array(ptr, self.shape, self.strides, self.dtype, self)

    @property
    def __cuda_array_interface__(self):
        if self._simt_span is None or _simt.backend_name() != "cuda":
            raise AttributeError("__cuda_array_interface__")
        return self._simt_device_view().__cuda_array_interface__

    def __array_wrap__(self, result, context=None, return_scalar=False):
        # Results of NumPy functions are plain arrays (their memory is ordinary host memory).
        result = result.view(np.ndarray)
        return result[()] if return_scalar else result


def _wrap(raw, device_ptr, shape, dtype, strides, order):
    a = np.ndarray(shape, dtype, buffer=raw, strides=strides, order=order).view(DeviceAccessibleArray)
    host = raw.ctypes.data
    a._simt_span = (host, host + raw.nbytes, device_ptr)
    return a


def mapped_array(shape, dtype=np.float64, strides=None, order="C", stream=0, portable=False, wc=False):
    """A host array in page-locked memory mapped into the device's address space
    (numba.cuda.mapped_array): kernels read and write it in place."""
    shape, dtype, strides, nbytes = host_layout(shape, dtype, strides, order, "mapped_array")
    raw, device_ptr = _simt._alloc_mapped(nbytes)
    return _wrap(raw, device_ptr, shape, dtype, strides, order)


def mapped_array_like(ary, stream=0, portable=False, wc=False):
    """A mapped array of `ary`'s shape, dtype and layout (numba.cuda.mapped_array_like)."""
    return mapped_array(ary.shape, ary.dtype, order=like_order(ary))


def managed_array(shape, dtype=np.float64, strides=None, order="C", stream=0, attach_global=True):
    """A host array in managed (unified) memory (numba.cuda.managed_array): one address on the
    host and on the device, pages migrating to whichever touches them."""
    shape, dtype, strides, nbytes = host_layout(shape, dtype, strides, order, "managed_array")
    raw = _simt._alloc_managed(nbytes)
    return _wrap(raw, raw.ctypes.data, shape, dtype, strides, order)


@contextlib.contextmanager
def mapped(*arrays, stream=0):
    """Map existing NumPy arrays into the device's address space for the with-block
    (numba.cuda.mapped): yields device-accessible views of them (one, or a list)."""
    registered, views = [], []
    try:
        for a in arrays:
            if not isinstance(a, np.ndarray):
                raise TypeError(f"cuda.mapped() takes NumPy arrays, not {type(a).__module__}.{type(a).__qualname__}")
            low, high = _byte_bounds(a)
            device_ptr = low
            if high > low:  # (memory page-locked already, a pinned array's or an earlier argument's, is not
                #               registered again: the backend says whether it registered)
                device_ptr, did = _simt._register_mapped_host(low, high - low)
                if did:
                    registered.append(low)
            view = a.view(DeviceAccessibleArray)
            view._simt_span = (low, high, device_ptr)
            views.append(view)
        yield views[0] if len(views) == 1 else views
    finally:
        for view in views:
            view._simt_span = None  # no longer mapped: kernels must not get it
        for low in reversed(registered):
            _simt._unregister_host(low)
