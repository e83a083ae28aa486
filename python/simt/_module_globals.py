"""RawModule.get_global(name): the device memory of a module-scope __device__ / __constant__
variable of raw CUDA C++, as CuPy gives it: a MemoryPointer (simt.cuda.memory's) over memory
the module owns. Kernels of the module read and write the same memory (on the cpu backend too:
the module's kernels share one shared object)."""
import numbers

import numpy as np

from . import _simt
from .cuda._memory_pointer import MemoryPointer, UnownedMemory


class GlobalMemoryPointer(MemoryPointer):
    """CuPy's MemoryPointer to a module's global variable `name` (ptr, mem.size, copy_from_host,
    copy_to_host, copy_from_device, memset), and as_array(dtype, shape) for a simt.ndarray view
    of it (the same as simt.ndarray(shape, dtype, memptr=pointer))."""

    def __init__(self, name, ptr, size, owner):
        # (`owner`, the module's kernel, stays alive while the pointer or its views do)
        super().__init__(UnownedMemory(ptr, size, owner, _simt.current_device()), 0)
        self.name = name

    def as_array(self, dtype, shape=None):
        return _as_array(self, self.name, dtype, shape)

    def __repr__(self):
        return f"<simt GlobalMemoryPointer '{self.name}' {self.ptr:#x}, {self.mem.size} bytes on device {self.device_id}>"


def _as_array(pointer, name, dtype, shape):
    dtype = np.dtype(dtype)
    size = pointer.mem.size
    if shape is None:
        if size % dtype.itemsize:
            raise ValueError(f"global '{name}' has {size} bytes, not a whole number of {dtype} elements")
        shape = (size // dtype.itemsize,)
    shape = (int(shape),) if isinstance(shape, numbers.Integral) else tuple(int(d) for d in shape)
    if any(d < 0 for d in shape):
        raise ValueError(f"as_array: negative dimensions in shape {shape}")
    nbytes = int(np.prod(shape, dtype=np.int64)) * dtype.itemsize
    if nbytes > size:
        raise ValueError(f"as_array: shape {shape} of {dtype} needs {nbytes} bytes, global '{name}' has {size}")
    if pointer.ptr % dtype.alignment:
        raise ValueError(f"global '{name}' is not aligned to {dtype.alignment} bytes for {dtype}")
    return _simt._foreign_array(pointer.ptr, shape, None, dtype, pointer)
