"""The device allocator as CuPy names it: MemoryPool (cupy.get_default_memory_pool()) and
MemoryAsyncPool, and the allocation functions CuPy's pools and set_allocator take (malloc_managed,
malloc_async). simt keeps one allocator per device, the one all of its arrays come from: on the
cuda backend the driver's stream-ordered pool, where freed memory stays for reuse; on the cpu
backend host memory, which keeps nothing back. Every pool object reports that allocator's
accounting (CuPy's separate pools each count their own)."""
from .. import _simt
from ._memory_pointer import ManagedMemory, Memory, MemoryPointer


def _malloc(size):
    """Device memory (cupy.cuda.memory._malloc): simt's allocator, on the current stream."""
    return MemoryPointer(Memory(size), 0)


def malloc_managed(size):
    """Managed (unified) memory, one address for kernels and the host (cupy.cuda.malloc_managed):
    cuMemAllocManaged on the cuda backend; on the cpu backend host memory, which it already is."""
    return MemoryPointer(ManagedMemory(size), 0)


def malloc_async(size):
    """Device memory from the stream-ordered pool, ordered on the current stream
    (cupy.cuda.malloc_async): simt's allocator is that pool already."""
    return MemoryPointer(Memory(size), 0)


class MemoryPool:
    """The device allocator (cupy.get_default_memory_pool()); MemoryPool(malloc_managed) is one
    of managed memory, for set_allocator(MemoryPool(malloc_managed).malloc). used_bytes() counts
    what simt's arrays on the current device hold, total_bytes() what the pool holds (at least
    that), and set_limit() caps used_bytes(): an allocation past it raises OutOfMemoryError."""

    def __init__(self, allocator=None):
        if allocator is None or allocator is _malloc or allocator is malloc_async:
            self._managed = False
        elif allocator is malloc_managed:
            self._managed = True
        elif callable(allocator):
            raise NotImplementedError("MemoryPool(allocator): simt pools device memory (None, malloc_async) or managed "
                                      "memory (malloc_managed); other allocators are not supported")
        else:
            raise TypeError(f"MemoryPool(allocator) takes an allocation function or None, not {type(allocator).__name__}")

    def malloc(self, size):
        """`size` bytes from this pool, as a MemoryPointer."""
        return malloc_managed(size) if self._managed else _malloc(size)

    def used_bytes(self):
        return _simt._pool_used_bytes(_simt.current_device())

    def total_bytes(self):
        device = _simt.current_device()
        return max(_simt._pool_reserved_bytes(device), _simt._pool_used_bytes(device))

    def free_bytes(self):
        return self.total_bytes() - self.used_bytes()

    def free_all_blocks(self, stream=None):
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

    def __repr__(self):
        return f"<simt.cuda.{type(self).__name__}{' (managed memory)' if self._managed else ''}>"


class MemoryAsyncPool(MemoryPool):
    """CuPy's pool over the driver's stream-ordered allocator, which simt's allocator is already
    (on the cuda backend; the cpu backend's host memory on the cpu backend)."""

    def __init__(self, pool_handles="current"):
        if pool_handles not in ("current", "default"):
            raise NotImplementedError(f"MemoryAsyncPool(pool_handles={pool_handles!r}): simt uses each device's "
                                      "current (default) pool only")
        super().__init__(malloc_async)


_default_pool = MemoryPool()


def get_default_memory_pool():
    return _default_pool
