"""Which memory new arrays get (CuPy's set_allocator, get_allocator, using_allocator and alloc).

An allocator is one of:
- None: no pooling, as CuPy's set_allocator(None): on the cuda backend the device's pool hands
  freed memory back to the driver at each synchronization instead of keeping it;
- a simt MemoryPool's or MemoryAsyncPool's .malloc, or malloc_async: the pool (the default);
- MemoryPool(malloc_managed).malloc or malloc_managed: managed memory (cuMemAllocManaged, freed
  with cuMemFree, which waits for the device);
- any other callable f(nbytes) -> MemoryPointer (CuPy's contract: RMM's rmm_cupy_allocator, a
  counting wrapper around simt.cuda.alloc or a pool's malloc, ...). simt then calls it, with the
  GIL, for every new array, takes int(result.ptr) as the array's address and keeps the result
  alive until the array's memory is freed. The memory must belong to the current device (checked
  on the cuda backend) and hold at least nbytes; on the cpu backend device memory is host memory,
  so there the result must point at nbytes of host memory. Errors the allocator raises (simt's
  OutOfMemoryError too) are the allocation's error, with a note naming the allocator. While it
  runs, what the allocator allocates itself (simt.cuda.alloc, Memory, new arrays) comes from
  simt's own pool rather than from it again.
Arrays from simt's own allocators are made in C++ without calling Python; the choice costs x + y
one relaxed atomic load either way. On the cpu backend simt's own memory is host memory, which is
already managed and never pooled, so None and managed are recorded (get_allocator returns them)
but change nothing there.

set_allocator sets the process's allocator; using_allocator sets the calling thread's for its
with-block, as CuPy's does (the pool's keeping or handing back of freed memory is the process's:
using_allocator(None) gives the thread unpooled allocations only where set_allocator did too)."""
import atexit
import contextlib
import threading

from .. import _simt
from ._memory_pool import MemoryPool, _malloc, get_default_memory_pool, malloc_async, malloc_managed

_current = None  # what set_allocator was given last (None: never called, the default pool)
_local = threading.local()  # .allocator: the thread's using_allocator allocator, while it has one
_UNSET = object()
_INHERIT, _POOL, _MANAGED, _PYTHON = -1, 0, 1, 2  # how C++ sees an allocator (bind_allocator.cpp)


def _kind(allocator):
    """'unpooled', 'pool', 'managed' or 'python' for an allocator (TypeError if not one)."""
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
        raise TypeError(f"an allocator must be an allocation function (size in bytes -> MemoryPointer) or None, not "
                        f"{type(allocator).__name__}")
    return "python"


def _native_kind(kind):
    if kind == "python":
        return _PYTHON
    return _MANAGED if kind == "managed" and _simt.backend_name() == "cuda" else _POOL


def set_allocator(allocator=None):
    """Sets the process's allocator for new device memory (see the module's docstring)."""
    global _current
    kind = _kind(allocator)
    _simt._set_keep_freed_memory(kind != "unpooled")
    _simt._set_process_allocator(_native_kind(kind))
    _current = _malloc if allocator is None else allocator


def get_allocator():
    """The calling thread's allocator: using_allocator's inside its block, else set_allocator's
    (the default pool's malloc until then)."""
    allocator = getattr(_local, "allocator", _UNSET)
    if allocator is not _UNSET:
        return allocator
    return get_default_memory_pool().malloc if _current is None else _current


def _set_thread_allocator(allocator):
    if allocator is _UNSET:
        vars(_local).pop("allocator", None)
        _simt._set_thread_allocator(_INHERIT)
    else:
        _local.allocator = allocator
        _simt._set_thread_allocator(_native_kind(_kind(allocator)))


@contextlib.contextmanager
def using_allocator(allocator=None):
    """`allocator` for this thread's allocations in the with-block (the process's elsewhere)."""
    _kind(allocator)  # (a bad allocator raises before the block)
    previous = getattr(_local, "allocator", _UNSET)
    _set_thread_allocator(_malloc if allocator is None else allocator)
    try:
        yield
    finally:
        _set_thread_allocator(previous)


def alloc(size):
    """`size` bytes of device memory from the current allocator, as a MemoryPointer (cupy.cuda.alloc).
    Called by a Python allocator (a wrapper around alloc), it gives simt's own memory."""
    if _simt._in_allocator():
        return _malloc(size)
    allocator = get_allocator()
    was = _simt._set_in_allocator(True)
    try:
        return allocator(size)
    finally:
        _simt._set_in_allocator(was)


def _checked_address(pointer, allocator, nbytes):
    """int(pointer.ptr), after checking that `pointer` holds `nbytes` of the current device's memory."""
    try:
        ptr = int(pointer.ptr)
    except (AttributeError, TypeError, ValueError):
        raise TypeError(f"the allocator {allocator!r} returned {type(pointer).__name__}, not a MemoryPointer (an object "
                        "whose .ptr is the device address)") from None
    if nbytes and not ptr:
        raise ValueError(f"the allocator {allocator!r} returned a null pointer for {nbytes} bytes")
    if not 0 <= ptr < 2**64:
        raise ValueError(f"the allocator {allocator!r} returned {ptr}, which is not a device address")
    mem = getattr(pointer, "mem", None)
    base, size = getattr(mem, "ptr", None), getattr(mem, "size", None)
    if base is not None and size is not None and int(base) + int(size) < ptr + nbytes:
        raise ValueError(f"the allocator {allocator!r} returned {int(base) + int(size) - ptr} bytes at {ptr:#x}, fewer "
                         f"than the {nbytes} asked for")
    device = _simt.current_device()
    owner = _simt._pointer_device(ptr) if nbytes else device
    owner = getattr(pointer, "device_id", owner) if owner == device else owner
    if owner != device:
        where = "not device memory" if owner < 0 else f"memory of device {owner}"
        raise ValueError(f"the allocator {allocator!r} returned {where} ({ptr:#x}); arrays are being made on device {device}")
    return ptr


def _allocate_for_array(nbytes):
    """What C++ calls (with the GIL) for a new array's `nbytes` when this thread's allocator is a
    Python one: (the address, the object that keeps the memory alive)."""
    allocator = get_allocator()
    try:
        pointer = allocator(nbytes)
    except Exception as error:
        error.add_note(f"(raised by simt's allocator {allocator!r}, asked for {nbytes} bytes for a new array)")
        raise
    return _checked_address(pointer, allocator, nbytes), pointer


_simt._set_allocate_for_array(_allocate_for_array)
atexit.register(_simt._allocator_exit)  # (no Python allocator calls from daemon threads during finalization)
