"""simt.core.Buffer: bytes of device memory (from simt's pool, or another owner's), as cuda.core has it."""
import numpy as np

from .. import _simt
from ._stream import Stream

_BYTE = np.dtype(np.int8)  # what DLPack consumers see: a 1-D int8 tensor of `size` elements, as cuda.core exports


def _stream_of(stream, what):
    if not isinstance(stream, Stream):
        raise TypeError(f"{what} needs stream= a simt.core.Stream (e.g. Device().default_stream), not "
                        f"{type(stream).__name__}")
    return stream._live()


class Buffer:
    """`size` bytes at `handle`; the memory stays alive while the Buffer or a launch using it does."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("simt.core.Buffer cannot be created directly: use Device.allocate() or Buffer.from_handle()")

    @classmethod
    def _wrap(cls, memory, device_id, owner):
        self = cls.__new__(cls)
        self._memory = memory  # a simt int8 array over the bytes: the launch path's pointer and keep-alive
        self._size = int(memory.size)
        self._device_id = device_id
        self._owner = owner
        return self

    @classmethod
    def _allocate(cls, size, stream, device_id):
        if not isinstance(size, (int, np.integer)) or isinstance(size, bool) or size < 0:
            raise ValueError(f"allocate() takes a size in bytes, an int >= 0, not {size!r}")
        from .._creation import empty
        with _stream_of(stream, "allocate()"):
            memory = empty(int(size), _BYTE)
        return cls._wrap(memory, device_id, None)

    @staticmethod
    def from_handle(ptr, size, mr=None, owner=None):
        """A Buffer over memory someone else allocated (kept alive through `owner`; never freed by simt)."""
        if mr is not None:
            raise NotImplementedError("Buffer.from_handle(mr=...): simt has no MemoryResource objects; pass owner=")
        size = int(size)
        if size < 0:
            raise ValueError(f"size must be >= 0, got {size}")
        memory = _simt._foreign_array(int(ptr), (size,), None, _BYTE, owner)
        return Buffer._wrap(memory, _simt.current_device(), owner)

    def _live(self):
        if self._memory is None:
            raise RuntimeError("this Buffer is closed (its memory went back to the pool): allocate a new one")
        return self._memory

    @property
    def handle(self):
        """The device address as an int."""
        return self._live().data_ptr

    @property
    def size(self):
        return self._size

    @property
    def device_id(self):
        return self._device_id

    @property
    def owner(self):
        return self._owner

    @property
    def memory_resource(self):
        return None  # (simt's pool is not exposed as a MemoryResource)

    @property
    def is_device_accessible(self):
        return True

    @property
    def is_host_accessible(self):
        """True on the cpu backend, whose device memory is host memory."""
        return _simt.backend_name() != "cuda"

    @property
    def is_managed(self):
        return False

    def close(self, stream=None):
        """Gives the memory back to the pool once no queued launch still uses it (idempotent)."""
        if stream is not None:
            _stream_of(stream, "close()")
        self._memory = None
        self._owner = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def copy_to(self, dst=None, *, stream):
        """Copies these bytes into `dst` (a new Buffer of the same size when None), ordered on `stream`."""
        src = self._live()
        s = _stream_of(stream, "copy_to()")
        if dst is None:
            dst = Buffer._allocate(self._size, stream, self._device_id)
        elif not isinstance(dst, Buffer):
            raise TypeError(f"copy_to() copies into a simt.core.Buffer, not {type(dst).__name__}")
        if dst.size != self._size:
            raise ValueError(f"buffer sizes mismatch: copying {self._size} bytes into a Buffer of {dst.size}")
        _copy_bytes(dst._live(), src, s)
        return dst

    def copy_from(self, src, *, stream):
        """Copies the bytes of Buffer `src` (of the same size) into this one, ordered on `stream`."""
        dst = self._live()
        s = _stream_of(stream, "copy_from()")
        if not isinstance(src, Buffer):
            raise TypeError(f"copy_from() copies from a simt.core.Buffer, not {type(src).__name__}")
        if src.size != self._size:
            raise ValueError(f"buffer sizes mismatch: copying {src.size} bytes into a Buffer of {self._size}")
        _copy_bytes(dst, src._live(), s)

    def fill(self, value, *, stream):
        """Fills the buffer with a byte (an int in [0, 256)) or a 1-, 2- or 4-byte pattern (a bytes-like)."""
        memory = self._live()
        s = _stream_of(stream, "fill()")
        if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
            if not 0 <= int(value) < 256:
                raise OverflowError(f"fill() takes an int in [0, 256) (one byte), got {value}")
            pattern = bytes([int(value)])
        else:
            try:
                pattern = bytes(memoryview(value))
            except TypeError:
                raise TypeError(f"fill() takes an int or a bytes-like pattern, not {type(value).__name__}") from None
        width = len(pattern)
        if width not in (1, 2, 4):
            raise ValueError(f"a fill pattern must be 1, 2 or 4 bytes long, got {width}")
        if self._size % width:
            raise ValueError(f"the buffer's {self._size} bytes are not a multiple of the {width}-byte pattern")
        typed = _simt._foreign_array(memory.data_ptr, (self._size // width,), None, np.dtype(f"u{width}"), memory)
        with s:
            typed._fill_bytes(pattern)

    # ---- interop: the bytes as a 1-D int8 array -------------------------------------------------------
    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        return self._live().__dlpack__(stream=stream, max_version=max_version, dl_device=dl_device, copy=copy)

    def __dlpack_device__(self):
        return self._live().__dlpack_device__()

    @property
    def __cuda_array_interface__(self):
        """The bytes as an int8 array (cuda backend only: on the cpu backend they are host memory)."""
        return self._live().__cuda_array_interface__

    def __eq__(self, other):
        return isinstance(other, Buffer) and self._memory is not None and other._memory is not None and \
            self.handle == other.handle and self._size == other._size

    def __hash__(self):
        return hash((self.handle, self._size))

    def __repr__(self):
        if self._memory is None:
            return "<simt.core.Buffer closed>"
        return f"<simt.core.Buffer handle={self.handle:#x} size={self._size}>"


def _copy_bytes(dst, src, stream):
    from .._copyto import copyto
    with stream:
        copyto(dst, src)
