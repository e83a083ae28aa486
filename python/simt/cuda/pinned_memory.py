"""cupy.cuda.pinned_memory on simt: page-locked host memory (PinnedMemory, PinnedMemoryPointer),
its pool and the allocator alloc_pinned_memory calls (set_pinned_memory_allocator)."""
from ._host_memory import (PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, _malloc_pinned as _malloc,
                           alloc_pinned_memory, get_default_pinned_memory_pool, set_pinned_memory_allocator)

__all__ = ["PinnedMemory", "PinnedMemoryPointer", "PinnedMemoryPool", "alloc_pinned_memory",
           "get_default_pinned_memory_pool", "set_pinned_memory_allocator"]
