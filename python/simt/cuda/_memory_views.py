"""Arrays and device memory as views of each other, as CuPy has them: `a.data` (a MemoryPointer
into the memory array `a` views) and `simt.ndarray(shape, dtype, memptr=, strides=, order=)` (an
array over a MemoryPointer's memory, which it keeps alive)."""

import numpy as np

from .. import _simt
from .._byte_layout import byte_span, int_tuple
from ._memory_pointer import MemoryPointer, UnownedMemory


def array_data(a):
    """a.data: a MemoryPointer `offset` bytes into an UnownedMemory whose owner is `a` (so it keeps
    `a`'s memory alive). Where simt's pool allocated that memory, mem is the whole allocation and
    offset is element 0's place in it; for other memory (DLPack, __cuda_array_interface__, a
    Python allocator's, ndarray(memptr=)) mem is the bytes `a` spans and offset element 0's place
    in them (0 unless a stride is negative)."""
    base, size = _simt._memory_extent(a)
    return MemoryPointer(UnownedMemory(base, size, a, _simt.current_device()), a._ptr - base)


def _contiguous_strides(shape, itemsize, order):
    strides, step = [0] * len(shape), itemsize
    for i in (range(len(shape)) if order == "F" else reversed(range(len(shape)))):
        strides[i] = step
        step *= max(shape[i], 1)
    return tuple(strides)


def array_over(shape, dtype, memptr, strides, order):
    """simt.ndarray(shape, dtype, memptr, strides, order) with memptr or strides given: a view of
    memptr's memory (strides in bytes; default C or F order), which must hold every element.
    strides without memptr: new memory of the bytes those strides span."""
    shape = int_tuple(shape, "simt.ndarray", "shape")
    if any(d < 0 for d in shape):
        raise ValueError(f"simt.ndarray: negative dimensions are not allowed (shape {shape})")
    dtype = np.dtype(float if dtype is None else dtype)
    if strides is None:
        strides = _contiguous_strides(shape, dtype.itemsize, order)
    else:
        strides = int_tuple(strides, "simt.ndarray", "strides")
        if len(strides) != len(shape):
            raise ValueError(f"simt.ndarray: {len(strides)} strides for the {len(shape)} dimensions of shape {shape}")
        if any(s % dtype.itemsize for s in strides):
            raise ValueError(f"simt.ndarray: strides {strides} (bytes) are not multiples of the {dtype.itemsize}-byte "
                             f"elements of {dtype}")
    span = byte_span(shape, strides, dtype.itemsize)
    if memptr is None:  # (strides alone: memory for exactly what they reach)
        from ._allocator import alloc
        lo, hi = span or (0, 0)
        memptr = alloc(hi - lo) + (-lo)
    if not isinstance(memptr, MemoryPointer):
        raise TypeError(f"simt.ndarray(memptr=...) takes a simt.cuda.MemoryPointer (from simt.cuda.alloc, "
                        f"simt.cuda.memory.alloc, a.data or MemoryPointer(UnownedMemory(ptr, size, owner), offset)), "
                        f"not {type(memptr).__name__}")
    size = 1
    for n in shape:
        size *= n
    if size >= 2**63:  # (zero strides pass the bounds check below at any length)
        raise ValueError(f"simt.ndarray: shape {shape} has {size} elements, too many for an array")
    device = _simt.current_device()
    if memptr.device_id != device:
        raise ValueError(f"simt.ndarray: memptr is memory of device {memptr.device_id}, not of the current device {device}")
    if span is not None:
        lo, hi = memptr.offset + span[0], memptr.offset + span[1]
        if lo < 0 or hi > memptr.mem.size:
            raise ValueError(f"simt.ndarray: shape {shape} with strides {strides} ({dtype}) reaches bytes [{lo}, {hi}) of "
                             f"memptr's memory, which has {memptr.mem.size} bytes (offset {memptr.offset})")
        if memptr.ptr % dtype.alignment:  # (device loads of misaligned elements fault)
            raise ValueError(f"simt.ndarray: memptr's address {memptr.ptr:#x} is not aligned to the {dtype.alignment} "
                             f"bytes {dtype} needs")
    return _simt._foreign_array(memptr.ptr, shape, strides, dtype, memptr.mem)
