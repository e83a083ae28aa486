"""simt.cuda: the kernel language (numba.cuda's names) and the runtime (devices, streams,
events, synchronization, errors), on the active backend."""
from .. import _simt
from . import _host_callbacks  # noqa: F401,E402  (its exit handler registered early, so it runs late)
from ._device import (Device, Event, ExternalStream, Stream, default_stream, event, event_elapsed_time,
                      get_current_stream, get_elapsed_time, stream, synchronize)
from ._host_memory import (PinnedMemory, PinnedMemoryPointer, PinnedMemoryPool, alloc_pinned_memory,
                           get_default_pinned_memory_pool, pinned, pinned_array, pinned_array_like,
                           set_pinned_memory_allocator)
from .memory import (BaseMemory, ManagedMemory, Memory, MemoryAsyncPool, MemoryPointer, MemoryPool, UnownedMemory,
                     alloc, get_allocator, get_default_memory_pool, malloc_async, malloc_managed, set_allocator,
                     using_allocator)
from . import compiler, driver, memory, nvtx, pinned_memory, profiler  # noqa: E402  (cupy.cuda's modules)
from .profiler import profile  # noqa: E402  (cupy.cuda.profile: a profiler's capture of a with-block)
from ._mapped_memory import DeviceAccessibleArray, managed_array, mapped, mapped_array, mapped_array_like  # noqa: E402
from ._compile_ptx import compile_ptx, compile_ptx_for_current_device
from ._numba_runtime import (Context, as_cuda_array, close, compile, compile_for_current_device, current_context,
                             defer_cleanup, detect, external_stream, from_cuda_array_interface, is_cuda_array,
                             is_supported_version, legacy_default_stream, list_devices, per_thread_default_stream,
                             Reduce, profile_start, profile_stop, profiling, reduce, require_context)
from . import runtime
from ._jit import Dispatcher, jit
from ._foreign import declare_device
from . import libdevice, random
from ._fp16_stubs import fp16
from ._stubs import blockDim, blockIdx, cg, grid, gridDim, gridsize, laneid, threadIdx, warpsize
from ._stubs import (activemask, all_sync, any_sync, atomic, ballot_sync, brev, cbrt, clz, const, eq_sync, ffs, fma,
                     lanemask_lt, local, match_all_sync, match_any_sync, popc, selp, shared, shfl_down_sync, shfl_sync,
                     shfl_up_sync, shfl_xor_sync, syncthreads, syncthreads_and, syncthreads_count, syncthreads_or,
                     syncwarp, threadfence, threadfence_block, threadfence_system, nanosleep)
from .._fusion import vectorize  # noqa: E402  (numba.cuda.vectorize: a scalar function as a ufunc)
from .._gufunc import guvectorize  # noqa: E402  (numba.cuda.guvectorize: generalized ufuncs)

from .._ndarray import ndarray as DeviceNDArray  # noqa: E402  (numba's device array type: simt's arrays)
from . import _device_array_split  # noqa: E402,F401  (DeviceNDArray.split)

CUDAError = _simt.CUDAError
OutOfMemoryError = _simt.OutOfMemoryError
CompileError = _simt.CompileError
TypingError = _simt.TypingError
UnsupportedError = _simt.UnsupportedError
CompilerError = _simt.CompilerError
from .._unavailable import UnavailableAttributeError  # noqa: E402
for _exc in (CUDAError, OutOfMemoryError, CompileError, TypingError, UnsupportedError, CompilerError):
    _exc.__module__ = "simt.cuda"


from .._runtime_info import is_available  # noqa: E402  (True when kernels run on an NVIDIA GPU)


def get_device_id():
    """The current device's id (cupy.cuda.get_device_id)."""
    return _simt.current_device()


def select_device(device_id):
    Device(device_id).use()
    return Device(device_id)


def get_current_device():
    return Device()


def _layout_of(ary):
    """'F' for an F- but not C-contiguous array, else 'C' (numba keeps a contiguous layout)."""
    flags = ary.flags
    return "F" if flags["F_CONTIGUOUS"] and not flags["C_CONTIGUOUS"] else "C"


def to_device(obj, stream=0, copy=True, to=None):
    """Copy a host array to the device (numba.cuda.to_device): into `to` when given (same
    shape; returned), else into a new array with the host array's layout; copy=False only
    allocates it."""
    import numpy as np
    from .._creation import empty
    from .._ndarray import ndarray
    if to is not None:
        to.copy_to_device(obj, stream=stream)
        return to
    if isinstance(obj, ndarray):  # already on the device: numba returns it as it is
        return obj
    host = np.asarray(obj)
    out = empty(host.shape, host.dtype, _layout_of(host))
    if copy:
        out.set(host)
    return out


def device_array(shape, dtype=None, strides=None, order="C", stream=0):
    """An uninitialized device array (numba.cuda.device_array)."""
    from .._creation import empty
    import numpy as np
    return empty(shape, np.float64 if dtype is None else dtype, order)


def device_array_like(ary, stream=0):
    """An uninitialized device array of `ary`'s shape, dtype and (contiguous) layout."""
    from .._creation import empty
    return empty(ary.shape, ary.dtype, _layout_of(ary))


class _Gpus:
    """numba.cuda.gpus: the devices, indexable and iterable."""

    def __len__(self):
        return _simt.device_count()

    def __getitem__(self, i):
        return Device(i)

    def __iter__(self):
        return (Device(i) for i in range(len(self)))

    @property
    def current(self):
        return Device()


gpus = _Gpus()
