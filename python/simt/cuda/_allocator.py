"""Which memory new arrays get (CuPy's set_allocator, get_allocator and using_allocator).

simt's arrays are allocated in C++ without calling Python (the x + y path is measured in
microseconds), so set_allocator takes the allocators whose effect that code can give, and a
single flag tells it which:
- None: no pooling, as CuPy's set_allocator(None): on the cuda backend the device's pool hands
  freed memory back to the driver at each synchronization instead of keeping it;
- a simt MemoryPool's or MemoryAsyncPool's .malloc, or malloc_async: the pool (the default);
- MemoryPool(malloc_managed).malloc or malloc_managed: new arrays in managed memory
  (cuMemAllocManaged, freed with cuMemFree, which waits for the device).
On the cpu backend arrays are host memory either way, which is already managed and never pooled,
so the choice is recorded (get_allocator returns it) but changes nothing there. Any other Python
allocator raises NotImplementedError. The setting is the process's, also inside
using_allocator's block (CuPy's using_allocator is per thread)."""
import contextlib

from .. import _simt
from ._memory_pool import MemoryPool, _malloc, get_default_memory_pool, malloc_async, malloc_managed

_current = None  # what set_allocator was given last (None: never called, the default pool)


def _kind(allocator):
    """'unpooled', 'pool' or 'managed' for an allocator set_allocator accepts."""
    if allocator is None or allocator is _malloc:
        return "unpooled"
    if allocator is malloc_managed:
        return "managed"
    if allocator is malloc_async:
        return "pool"
    pool = getattr(allocator, "__self__", None)
    if isinstance(pool, MemoryPool) and getattr(allocator, "__func__", None) is MemoryPool.malloc:
        return "managed" if pool._managed else "pool"
    if not callable(allocator):
        raise TypeError(f"set_allocator takes an allocation function or None, not {type(allocator).__name__}")
    raise NotImplementedError(
        f"set_allocator({allocator!r}): simt allocates arrays without calling Python, so it takes None (no pooling), "
        "a simt MemoryPool's or MemoryAsyncPool's .malloc (pooled device memory), malloc_async, or "
        "MemoryPool(malloc_managed).malloc / malloc_managed (managed memory); other allocators are not supported")


def set_allocator(allocator=None):
    """Sets how new device memory is allocated (see the module's docstring)."""
    global _current
    kind = _kind(allocator)
    _simt._set_managed_allocations(kind == "managed" and _simt.backend_name() == "cuda")
    _simt._set_keep_freed_memory(kind != "unpooled")
    _current = _malloc if allocator is None else allocator


def get_allocator():
    """The allocator set_allocator set (the default pool's malloc until then)."""
    return get_default_memory_pool().malloc if _current is None else _current


@contextlib.contextmanager
def using_allocator(allocator=None):
    """set_allocator(allocator) for the with-block, then the allocator before it."""
    previous = get_allocator()
    set_allocator(allocator)
    try:
        yield
    finally:
        set_allocator(previous)


def alloc(size):
    """`size` bytes of device memory from the current allocator, as a MemoryPointer (cupy.cuda.alloc)."""
    return get_allocator()(size)
