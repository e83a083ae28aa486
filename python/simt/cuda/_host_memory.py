"""Page-locked host memory (numba's pinned_array / pinned, CuPy's alloc_pinned_memory and pinned
memory pool) and the device memory pool's accounting (CuPy's MemoryPool). Copies between the
device and page-locked memory are one DMA each, without simt's staging buffers."""
import contextlib
import math

import numpy as np

from .. import _simt


def _span(shape, strides, itemsize):
    """Bytes from an array's first element to the end of its last (non-negative strides)."""
    if any(n == 0 for n in shape):
        return 0
    return sum((n - 1) * s for n, s in zip(shape, strides)) + itemsize


def _byte_bounds(a):
    """The first and one-past-last byte addresses of a's memory (NumPy 2 moved the function)."""
    utils = getattr(np.lib, "array_utils", None)
    return (utils.byte_bounds if utils is not None else np.byte_bounds)(a)


def host_layout(shape, dtype, strides, order, fname):
    """(shape, dtype, strides, bytes) of a new host array of numba's pinned/mapped/managed
    allocators: an int or a sequence for shape, C or F order or explicit non-negative strides."""
    shape = (shape,) if isinstance(shape, (int, np.integer)) else tuple(int(n) for n in shape)
    if any(n < 0 for n in shape):
        raise ValueError(f"{fname}: negative dimensions are not allowed (shape {shape})")
    dtype = np.dtype(dtype)
    if strides is None:
        if order not in ("C", "F"):
            raise ValueError(f"{fname}: order must be 'C' or 'F', not {order!r}")
        return shape, dtype, None, math.prod(shape) * dtype.itemsize
    strides = tuple(int(s) for s in strides)
    if len(strides) != len(shape) or any(s < 0 for s in strides):
        raise ValueError(f"{fname}: strides {strides} do not fit shape {shape} (one non-negative stride per axis)")
    return shape, dtype, strides, _span(shape, strides, dtype.itemsize)


def like_order(ary):
    """The order of a new array laid out as `ary` (numba's *_like allocators)."""
    return "F" if ary.flags.f_contiguous and not ary.flags.c_contiguous else "C"


def pinned_array(shape, dtype=np.float64, strides=None, order="C"):
    """A NumPy array in page-locked host memory (numba.cuda.pinned_array)."""
    shape, dtype, strides, nbytes = host_layout(shape, dtype, strides, order, "pinned_array")
    raw = _simt._alloc_pinned(nbytes)  # freed when the last array over it goes away
    return np.ndarray(shape, dtype, buffer=raw, strides=strides, order=order)


def pinned_array_like(ary):
    """A page-locked array of `ary`'s shape, dtype and layout (numba.cuda.pinned_array_like)."""
    return pinned_array(ary.shape, ary.dtype, order=like_order(ary))


@contextlib.contextmanager
def pinned(*arrays):
    """Page-lock the memory of existing NumPy arrays for the with-block (numba.cuda.pinned)."""
    registered = []
    try:
        for a in arrays:
            if not isinstance(a, np.ndarray):
                raise TypeError(f"cuda.pinned() takes NumPy arrays, not {type(a).__module__}.{type(a).__qualname__}")
            low, high = _byte_bounds(a)
            if high > low:
                _simt._register_host(low, high - low)
                registered.append(low)
        yield
    finally:
        for low in reversed(registered):
            _simt._unregister_host(low)


class PinnedMemoryPointer(np.ndarray):
    """Page-locked bytes from alloc_pinned_memory: `ptr` is their address, `size` their count, and
    np.frombuffer(mem, dtype, count) views them as an array (CuPy's idiom)."""

    @property
    def ptr(self):
        return self.ctypes.data

    def __repr__(self):
        return f"<simt PinnedMemoryPointer 0x{self.ptr:x}, {self.size} bytes>"

    __str__ = __repr__


def alloc_pinned_memory(size):
    """`size` bytes of page-locked host memory (cupy.cuda.alloc_pinned_memory)."""
    size = int(size)
    if size < 0:
        raise ValueError(f"alloc_pinned_memory: size must be non-negative, not {size}")
    return _simt._alloc_pinned(size).view(PinnedMemoryPointer)


class PinnedMemoryPool:
    """CuPy's pinned memory pool. simt keeps no page-locked memory for reuse: each allocation
    is returned to the driver when its last array goes away, so there is nothing to free."""

    def free_all_blocks(self):
        pass

    def n_free_blocks(self):
        return 0


_pinned_pool = PinnedMemoryPool()


def get_default_pinned_memory_pool():
    return _pinned_pool


class MemoryPool:
    """The device allocator (cupy.get_default_memory_pool()). On the cuda backend memory comes
    from the driver's stream-ordered pool, where freed memory stays for reuse; used_bytes() counts
    what simt's arrays on the current device hold, total_bytes() what the pool holds (at least
    that), and set_limit() caps used_bytes(): an allocation past it raises OutOfMemoryError."""

    def used_bytes(self):
        return _simt._pool_used_bytes(_simt.current_device())

    def total_bytes(self):
        device = _simt.current_device()
        return max(_simt._pool_reserved_bytes(device), _simt._pool_used_bytes(device))

    def free_bytes(self):
        return self.total_bytes() - self.used_bytes()

    def free_all_blocks(self):
        """Hand memory no array uses back to the device (e.g. for another process or library)."""
        _simt.release_cached_memory()

    def set_limit(self, size=None, fraction=None):
        """Cap the bytes simt's arrays may hold on the current device: `size` bytes, or `fraction`
        of the device's memory (0 or neither: no limit)."""
        if size is not None and fraction is not None:
            raise ValueError("set_limit: give size or fraction, not both")
        device = _simt.current_device()
        if fraction is not None:
            if not 0 <= fraction <= 1:
                raise ValueError(f"set_limit: fraction must be within [0, 1], not {fraction}")
            size = int(_simt.device_properties(device)["total_memory"] * fraction)
        size = 0 if size is None else int(size)
        if size < 0:
            raise ValueError(f"set_limit: size must be non-negative, not {size}")
        _simt._set_pool_limit(device, size)

    def get_limit(self):
        """The limit set_limit() set on the current device, in bytes (0: none)."""
        return _simt._pool_limit(_simt.current_device())


_memory_pool = MemoryPool()


def get_default_memory_pool():
    return _memory_pool
