"""Device memory as CuPy's low-level API has it (cupy.cuda.Memory, ManagedMemory, UnownedMemory
and MemoryPointer): byte ranges with an address, copies to and from the host and other device
memory, and byte fills, ordered on a stream as every simt operation is. Each range is a simt
int8 array underneath (what keeps the memory alive, and what kernels and copies take)."""
import contextlib
import ctypes
import numbers

import numpy as np

from .. import _simt

_BYTE = np.dtype(np.int8)


def _check_size(size, what):
    if not isinstance(size, numbers.Integral) or isinstance(size, bool) or size < 0:
        raise ValueError(f"{what}: size must be an int >= 0 (bytes), not {size!r}")
    return int(size)


class BaseMemory:
    """`size` bytes at device address `ptr` on device `device_id`, alive while this object is."""

    def __init__(self, array, device_id):
        self._array = array  # a 1-D int8 simt array over exactly these bytes
        self.ptr = array._ptr if array.size else 0
        self.size = int(array.size)
        self.device_id = device_id

    @property
    def device(self):
        from ._device import Device
        return Device(self.device_id)

    def __int__(self):
        return self.ptr

    def __repr__(self):
        return f"<simt {type(self).__name__} {self.ptr:#x}, {self.size} bytes on device {self.device_id}>"


class Memory(BaseMemory):
    """`size` bytes of device memory from simt's allocator (the device's stream-ordered pool on
    the cuda backend), ordered on the current stream; freed when the last reference goes."""

    def __init__(self, size):
        size = _check_size(size, "Memory")
        # (simt's own allocator even while a Python one is set, as CuPy's Memory is cudaMalloc's)
        super().__init__(_simt._own_memory(size), _simt.current_device())


class ManagedMemory(BaseMemory):
    """`size` bytes of managed (unified) memory: one address for kernels and the host
    (cuMemAllocManaged on the cuda backend; host memory, which it already is, on the cpu backend)."""

    def __init__(self, size):
        size = _check_size(size, "ManagedMemory")
        raw = _simt._alloc_managed(size)  # a NumPy array owning the allocation
        self._host = raw
        array = _simt._foreign_array(raw.ctypes.data, (size,), None, _BYTE, raw)
        super().__init__(array, _simt.current_device())


class UnownedMemory(BaseMemory):
    """Device memory someone else allocated: `size` bytes at `ptr`, kept alive through `owner`
    (CuPy's UnownedMemory); simt never frees it."""

    def __init__(self, ptr, size, owner, device_id=None):
        size = _check_size(size, "UnownedMemory")
        if owner is None:
            raise ValueError("UnownedMemory needs the object that owns the memory (owner=...), which it keeps alive")
        array = _simt._foreign_array(int(ptr), (size,), None, _BYTE, owner)
        self._owner = owner
        super().__init__(array, _simt.current_device() if device_id is None else int(device_id))
        self.ptr = int(ptr)


def _host_bytes(mem, size, writable, what):
    """A NumPy uint8 view of `size` host bytes: `mem` is an address (int or ctypes.c_void_p, as
    CuPy takes) or an object with the buffer protocol (a NumPy array, bytearray, ...)."""
    if isinstance(mem, ctypes.c_void_p):
        mem = mem.value or 0
    if isinstance(mem, numbers.Integral) and not isinstance(mem, bool):
        if size and not mem:
            raise ValueError(f"{what}: the host address is null")
        return np.ctypeslib.as_array((ctypes.c_ubyte * size).from_address(int(mem))) if size else np.empty(0, np.uint8)
    if isinstance(mem, _simt.ndarray) or isinstance(mem, MemoryPointer):
        raise TypeError(f"{what} takes host memory (an address or a buffer such as a NumPy array); for device memory "
                        "use copy_from_device / copy_from")
    try:
        view = memoryview(mem)
    except TypeError:
        raise TypeError(f"{what} takes a host address (int or ctypes.c_void_p) or an object with the buffer protocol, "
                        f"not {type(mem).__name__}") from None
    if writable and view.readonly:
        raise ValueError(f"{what}: the host buffer is read-only")
    if not view.c_contiguous:
        raise ValueError(f"{what}: the host buffer must be contiguous")
    flat = np.frombuffer(view.cast("B"), np.uint8) if view.nbytes else np.empty(0, np.uint8)
    if flat.size < size:
        raise ValueError(f"{what}: the host buffer has {flat.size} bytes, fewer than the {size} to copy")
    return flat[:size]


def _on(stream, what):
    """The with-context ordering work on `stream` (None: the current stream)."""
    if stream is None:
        return contextlib.nullcontext()
    stream = getattr(stream, "_simt_stream", stream)  # (a simt.core.Stream)
    if not isinstance(stream, _simt.Stream):
        raise TypeError(f"{what}: stream must be a simt.cuda.Stream or None, not {type(stream).__name__}")
    return stream


class MemoryPointer:
    """A position `offset` bytes into memory `mem` (CuPy's MemoryPointer): `ptr` is its device
    address; `p + n` and `p - n` move it; its methods copy `size` bytes from there."""

    def __init__(self, mem, offset):
        if not isinstance(mem, BaseMemory):
            raise TypeError(f"MemoryPointer takes a simt Memory, ManagedMemory or UnownedMemory, not "
                            f"{type(mem).__name__}")
        offset = int(offset)
        if not 0 <= offset <= mem.size:
            raise ValueError(f"MemoryPointer: offset {offset} is outside the memory's {mem.size} bytes")
        self.mem, self.offset = mem, offset
        self.ptr = mem.ptr + offset
        self.device_id = mem.device_id

    @property
    def device(self):
        return self.mem.device

    def _bytes(self, size, what):
        """A simt int8 array over `size` bytes from here (within the memory)."""
        size = _check_size(size, what)
        if self.offset + size > self.mem.size:
            raise ValueError(f"{what}: {size} bytes from offset {self.offset} run past the end of the memory "
                             f"({self.mem.size} bytes)")
        return self.mem._array[self.offset:self.offset + size]

    # ---- arithmetic ------------------------------------------------------------------------
    def __int__(self):
        return self.ptr

    def __add__(self, offset):
        if not isinstance(offset, numbers.Integral) or isinstance(offset, bool):
            return NotImplemented
        return MemoryPointer(self.mem, self.offset + int(offset))

    __radd__ = __add__

    def __sub__(self, offset):
        if not isinstance(offset, numbers.Integral) or isinstance(offset, bool):
            return NotImplemented
        return MemoryPointer(self.mem, self.offset - int(offset))

    def __iadd__(self, offset):
        return self + offset

    def __isub__(self, offset):
        return self - offset

    def __eq__(self, other):
        return isinstance(other, MemoryPointer) and other.ptr == self.ptr

    def __hash__(self):
        return hash(self.ptr)

    def __repr__(self):
        return f"<simt MemoryPointer {self.ptr:#x} (offset {self.offset} of {self.mem!r})>"

    # ---- copies -----------------------------------------------------------------------------
    def copy_from_device_async(self, src, size, stream=None):
        """Copies `size` bytes from device memory `src` (a MemoryPointer) to here, on `stream`."""
        if not isinstance(src, MemoryPointer):
            raise TypeError(f"copy_from_device takes a MemoryPointer, not {type(src).__name__}")
        dst_bytes, src_bytes = self._bytes(size, "copy_from_device"), src._bytes(size, "copy_from_device")
        if size:
            with _on(stream, "copy_from_device"):
                dst_bytes[...] = src_bytes

    def copy_from_device(self, src, size):
        self.copy_from_device_async(src, size)

    def copy_from_host_async(self, mem, size, stream=None):
        """Copies `size` bytes from host memory `mem` (an address or a buffer) to here. (It
        returns once `mem` may be reused: the copy itself is ordered on `stream`.)"""
        dst = self._bytes(size, "copy_from_host")
        host = _host_bytes(mem, int(size), False, "copy_from_host")
        if size:
            with _on(stream, "copy_from_host"):
                dst._copy_from_host(host.view(np.int8))

    def copy_from_host(self, mem, size):
        self.copy_from_host_async(mem, size)

    def copy_from_async(self, mem, size, stream=None):
        """copy_from_device for a MemoryPointer, else copy_from_host."""
        if isinstance(mem, MemoryPointer):
            self.copy_from_device_async(mem, size, stream)
        else:
            self.copy_from_host_async(mem, size, stream)

    def copy_from(self, mem, size):
        self.copy_from_async(mem, size)

    def copy_to_host_async(self, mem, size, stream=None):
        """Copies `size` bytes from here to host memory `mem` (an address or a writable buffer),
        after the work queued on `stream` (it returns once the bytes are there)."""
        src = self._bytes(size, "copy_to_host")
        host = _host_bytes(mem, int(size), True, "copy_to_host")
        if size:
            with _on(stream, "copy_to_host"):
                src._copy_to_host(host.view(np.int8))

    def copy_to_host(self, mem, size):
        self.copy_to_host_async(mem, size)

    def memset_async(self, value, size, stream=None):
        """Sets `size` bytes from here to the byte `value` (its low 8 bits, as cudaMemset and C's
        memset take an int), on `stream`."""
        if not isinstance(value, numbers.Integral) or isinstance(value, bool):
            raise TypeError(f"memset takes an int byte value, not {type(value).__name__}")
        dst = self._bytes(size, "memset")
        if size:
            with _on(stream, "memset"):
                dst.view(np.uint8).fill(int(value) & 0xFF)

    def memset(self, value, size):
        self.memset_async(value, size)
