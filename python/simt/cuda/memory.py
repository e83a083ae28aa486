"""cupy.cuda.memory on simt: device memory objects (Memory, ManagedMemory, UnownedMemory,
MemoryPointer), the pools (MemoryPool, MemoryAsyncPool) and the allocator setting
(set_allocator, get_allocator, using_allocator, alloc, malloc_managed, malloc_async)."""
from .. import _simt
from ._allocator import alloc, get_allocator, set_allocator, using_allocator
from ._memory_pointer import BaseMemory, ManagedMemory, Memory, MemoryPointer, UnownedMemory
from ._memory_pool import MemoryAsyncPool, MemoryPool, _malloc, get_default_memory_pool, malloc_async, malloc_managed

OutOfMemoryError = _simt.OutOfMemoryError

__all__ = ["BaseMemory", "ManagedMemory", "Memory", "MemoryAsyncPool", "MemoryPointer", "MemoryPool", "OutOfMemoryError",
           "UnownedMemory", "alloc", "get_allocator", "get_default_memory_pool", "malloc_async", "malloc_managed",
           "set_allocator", "using_allocator"]
