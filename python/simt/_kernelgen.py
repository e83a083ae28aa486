"""Kernels that simt's array functions generate: kernel-language source text compiled through the
same pipeline as @cuda.jit (one Dispatcher per distinct source), launched on the current stream;
plus the small shared helpers those functions need (launch shapes, views, copies)."""
import math
import os

import numpy as np

from . import _simt

_dispatchers = {}


def _resolve(name):
    from .cuda._resolve import describe
    import simt.cuda
    namespace = {"cuda": simt.cuda, "math": math, "np": np}
    if name in namespace:
        return describe(namespace[name])
    if name in ("min", "max", "abs", "range", "len", "int", "float", "bool", "complex"):
        return ("function", name)
    if name in _DTYPE_NAMES:  # (casts such as float32(v) in simt.fuse's statements)
        return describe(getattr(np, name))
    return ("undefined",)


_DTYPE_NAMES = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
                "float64", "complex64", "complex128"}


def kernel(name, source, boundscheck=None, max_registers=None):
    """The dispatcher for generated `source` (a function named `name`), compiled on first launch.
    boundscheck=None keeps masked accesses (out-of-range loads read 0, stores are dropped);
    False removes the checks where the generator guarantees every index is in range.
    max_registers caps registers per thread on the GPU (so a planned number of blocks fits)."""
    key = (name, source, boundscheck, max_registers)
    d = _dispatchers.get(key)
    if d is None:
        options = {} if boundscheck is None else {"boundscheck": boundscheck}
        if max_registers:
            options["max_registers"] = int(max_registers)
        d = _simt.Dispatcher(name, source, f"<simt generated {name}>", 1, 0, _resolve, options)
        _dispatchers[key] = d
    return d


def backend_kind():
    return _simt.backend_name()


_stream_getter = None


def current_stream():
    global _stream_getter
    if _stream_getter is None:  # imported on first use: simt.cuda imports this module's users
        from .cuda._device import get_current_stream as _stream_getter
    return _stream_getter()


_cores = None


def cpu_cores():
    global _cores
    if _cores is None:
        _cores = max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1))
    return _cores


_sm_counts = {}


def multiprocessor_count():
    """Streaming multiprocessors of the current device (cached per device): what bounded grids
    are sized by."""
    device = _simt.current_device()
    n = _sm_counts.get(device)
    if n is None:
        n = _sm_counts[device] = max(1, int(_simt.device_properties(device)["multiprocessor_count"]))
    return n


def register_cap(threads, blocks_per_sm):
    """Registers per thread that let `blocks_per_sm` blocks of `threads` threads be resident on a
    multiprocessor together (65536 registers on every GPU since compute capability 5.0; 32 to
    255, a multiple of 8)."""
    return max(32, min(255, 65536 // (threads * blocks_per_sm)) // 8 * 8)


def launch_1d(k, nthreads, *args, block=None):
    """Launches `k` with at least `nthreads` threads in 1-D blocks (the kernel guards its tail)."""
    if nthreads > 0:
        launch(k, *grid_1d(nthreads, block), *args)


def grid_1d(nthreads, block=None):
    """(blocks, threads per block) of a 1-D launch of at least `nthreads` threads."""
    if block is None:
        if backend_kind() == "cpu":
            # Blocks are what the cpu backend spreads over its cores: keep enough of them.
            block = 1 << max(0, min(8, (nthreads // (cpu_cores() * 8)).bit_length() - 1))
        else:
            block = 256
    return (nthreads + block - 1) // block, block


def launch(k, grid, block, *args):
    """Launches generated kernel `k` on the current stream (the one place all of them go through)."""
    k[grid, block, current_stream()](*args)


def view(a, shape, strides, offset=0):
    """A view of `a`'s memory with other extents and byte strides (checked to stay inside `a`)."""
    return _simt._restride(a, tuple(map(int, shape)), tuple(map(int, strides)), int(offset))


def c_strides(shape, itemsize):
    strides, step = [], itemsize
    for n in reversed(shape):
        strides.append(step)
        step *= max(int(n), 1)
    return tuple(reversed(strides))


def as_shape(a, shape):
    """A C-contiguous array viewed with another shape of the same size."""
    if not a._c_contiguous:
        raise ValueError("internal: reshaping a non-contiguous array")
    return view(a, shape, c_strides(shape, a.itemsize))


def flat(a):
    """A 1-D view of a C-contiguous array."""
    return as_shape(a, (a.size,))


def type_name(dt):
    """The kernel-language spelling of a dtype (np.float32 ...)."""
    return "np." + ("bool_" if dt == np.bool_ else np.dtype(dt).name)


def index_names(prefix, n):
    return [f"{prefix}{i}" for i in range(n)]


def u64(value):
    """Kernel text of `value` as a uint64 (for index arithmetic that needs no negative wrap-around)."""
    return f"np.uint64({value})"


def unravel(flat, array, ndim, ind, prefix="k", unsigned=False):
    """Kernel statements splitting C-order index `flat` over the first `ndim` axes of `array`
    into {prefix}0 .. {prefix}{ndim-1} (none for ndim 0). `unsigned`: `flat` is a uint64 and
    so are the indices (the extents are cast to match)."""
    if not ndim:
        return []
    lines = [f"{ind}rem = {flat}"]
    for j in range(ndim - 1, 0, -1):
        extent = u64(f"{array}.shape[{j}]") if unsigned else f"{array}.shape[{j}]"
        lines += [f"{ind}{prefix}{j} = rem % {extent}", f"{ind}rem = rem // {extent}"]
    return lines + [f"{ind}{prefix}0 = rem"]


def _copy_source(ndim, dst_dtype):
    idx = index_names("i", ndim)
    lines = ["def simt_copy(dst, src, n):",
             "    t = cuda.grid(1)",
             "    if t < n:"] + unravel("t", "dst", ndim, " " * 8, "i")
    subscript = ", ".join(idx)
    lines.append(f"        dst[{subscript}] = {type_name(dst_dtype)}(src[{subscript}])")
    return "\n".join(lines) + "\n"


def copy_into(dst, src):
    """dst[...] = src, element by element with a cast to dst's dtype (any strides, same shape).
    (A private strided copy: the array core's copy/astype are another module's work.)"""
    if tuple(dst.shape) != tuple(src.shape):
        raise ValueError(f"internal: copy between shapes {dst.shape} and {src.shape}")
    if dst.size == 0:
        return dst
    if dst.ndim == 0:
        dst, src = view(dst, (1,), (0,)), view(src, (1,), (0,))
    if np.dtype(src.dtype).kind == "c" and np.dtype(dst.dtype).kind != "c":
        raise TypeError(f"cannot cast {src.dtype} to {dst.dtype} (complex to real)")
    launch_1d(copy_kernel(dst.ndim, dst.dtype), dst.size, dst, src, dst.size)
    return dst


def copy_kernel(ndim, dst_dtype):
    """The kernel of copy_into: arguments (dst, src, n) with n = dst.size, 1 <= ndim."""
    return kernel("simt_copy", _copy_source(ndim, dst_dtype), boundscheck=False)


def contiguous(a):
    """`a` itself when C-contiguous, else a C-contiguous copy."""
    if a._c_contiguous:
        return a
    from ._creation import empty
    return copy_into(empty(a.shape, a.dtype), a)
