"""Page-locked host memory (numba's pinned_array / pinned, CuPy's alloc_pinned_memory, pinned
memory pool and pinned allocator). Copies between the device and page-locked memory are one DMA
each, without simt's staging buffers."""
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


class PinnedMemory:
    """`size` bytes of page-locked host memory (CuPy's PinnedMemory(size, flags=0)); freed when
    the last PinnedMemoryPointer into it goes away."""

    def __init__(self, size, flags=0):
        size = int(size)
        if size < 0:
            raise ValueError(f"PinnedMemory: size must be non-negative, not {size}")
        self._raw = _simt._alloc_pinned(size)
        self.size = size
        self.ptr = self._raw.ctypes.data


class PinnedMemoryPointer(np.ndarray):
    """Page-locked bytes: `ptr` is their address, `size` their count, and
    np.frombuffer(mem, dtype, count) views them as an array (CuPy's idiom).
    PinnedMemoryPointer(mem, offset) points `offset` bytes into a PinnedMemory (what a custom
    pinned allocator returns, as in CuPy)."""

    def __new__(cls, mem, offset=0):
        if not isinstance(mem, PinnedMemory):
            raise TypeError(f"PinnedMemoryPointer takes a PinnedMemory, not {type(mem).__name__}")
        offset = int(offset)
        if not 0 <= offset <= mem.size:
            raise ValueError(f"PinnedMemoryPointer: offset {offset} is outside the memory's {mem.size} bytes")
        return mem._raw[offset:].view(cls)

    @property
    def ptr(self):
        return self.ctypes.data

    def __repr__(self):
        return f"<simt PinnedMemoryPointer 0x{self.ptr:x}, {self.size} bytes>"

    __str__ = __repr__


def _malloc_pinned(size):
    """Page-locked memory straight from the driver (cupy.cuda.pinned_memory._malloc)."""
    size = int(size)
    if size < 0:
        raise ValueError(f"alloc_pinned_memory: size must be non-negative, not {size}")
    return _simt._alloc_pinned(size).view(PinnedMemoryPointer)


class PinnedMemoryPool:
    """CuPy's pinned memory pool. simt keeps no page-locked memory for reuse: each allocation
    is returned to the driver when its last array goes away, so there is nothing to free."""

    def __init__(self, allocator=None):
        if allocator is not None and not callable(allocator):
            raise TypeError(f"PinnedMemoryPool(allocator) takes a function or None, not {type(allocator).__name__}")
        self._allocator = _malloc_pinned if allocator is None else allocator

    def malloc(self, size):
        return _checked_pinned(self._allocator(size), size)

    def free_all_blocks(self):
        pass

    def n_free_blocks(self):
        return 0


_pinned_pool = PinnedMemoryPool()
_pinned_allocator = _pinned_pool.malloc


def get_default_pinned_memory_pool():
    return _pinned_pool


def _checked_pinned(mem, size):
    if not isinstance(mem, PinnedMemoryPointer):
        raise TypeError(f"a pinned memory allocator must return a PinnedMemoryPointer, not {type(mem).__name__}")
    if mem.size < int(size):
        raise ValueError(f"a pinned memory allocator returned {mem.size} bytes for a request of {int(size)}")
    return mem


def set_pinned_memory_allocator(allocator=None):
    """Sets what alloc_pinned_memory calls (cupy.cuda.set_pinned_memory_allocator): a function of
    the size returning a PinnedMemoryPointer (e.g. PinnedMemoryPool().malloc), or None for memory
    straight from the driver. simt's own staging buffers for copies are not affected."""
    global _pinned_allocator
    if allocator is not None and not callable(allocator):
        raise TypeError(f"set_pinned_memory_allocator takes a function or None, not {type(allocator).__name__}")
    _pinned_allocator = _malloc_pinned if allocator is None else allocator


def alloc_pinned_memory(size):
    """`size` bytes of page-locked host memory from the pinned allocator (cupy.cuda.alloc_pinned_memory)."""
    if int(size) < 0:
        raise ValueError(f"alloc_pinned_memory: size must be non-negative, not {int(size)}")
    return _checked_pinned(_pinned_allocator(size), size)
