"""numba.cuda's runtime conveniences on simt: devices and contexts (list_devices,
current_context, close, detect), foreign arrays (as_cuda_array, is_cuda_array,
from_cuda_array_interface), streams made elsewhere (external_stream), defer_cleanup, and the
cuda.reduce decorator."""
import collections
import contextlib

from .. import _simt

MemoryInfo = collections.namedtuple("MemoryInfo", ["free", "total"])


def list_devices():
    """The devices of the active backend (numba.cuda.list_devices)."""
    from ._device import Device
    return [Device(i) for i in range(_simt.device_count())]


class Context:
    """A device's context (numba.cuda.current_context()): simt uses each device's primary
    context, so this is the device and what can be asked of it."""

    def __init__(self, device_id):
        self.device_id = device_id

    @property
    def device(self):
        from ._device import Device
        return Device(self.device_id)

    def get_memory_info(self):
        """(free, total) bytes of the device's memory."""
        return MemoryInfo(*_simt._memory_info(self.device_id))

    def synchronize(self):
        self.device.synchronize()

    def reset(self):
        """Wait for the device and hand memory no array uses back to it."""
        self.synchronize()
        _simt.release_cached_memory()

    def __repr__(self):
        return f"<simt context on device {self.device_id}>"


def current_context(devnum=None):
    return Context(_simt.current_device() if devnum is None else int(devnum))


def close():
    """numba.cuda.close: simt keeps each device's primary context for the process (arrays may
    outlive this call), so it waits for the devices and releases the memory no array uses."""
    for device in list_devices():
        Context(device.id).reset()


def detect():
    """Print the devices found and whether simt supports them; True when there is at least one
    (numba.cuda.detect)."""
    devices = list_devices()
    print(f"Found {len(devices)} device(s) on simt's {_simt.backend_name()} backend")
    for d in devices:
        cc = d.compute_capability
        print(f"id {d.id}    {d.name:>32s}    [SUPPORTED]\n                      Compute Capability: {cc[0]}.{cc[1]}")
    print(f"Summary:\n\t{len(devices)}/{len(devices)} devices are supported")
    return bool(devices)


@contextlib.contextmanager
def defer_cleanup():
    """numba defers frees during the block; simt's frees are already ordered after the work
    queued before them (stream-ordered), so there is nothing to defer."""
    yield


def is_cuda_array(obj):
    """Whether obj is a device array simt and other CUDA libraries can share: a simt array, or an
    object with __cuda_array_interface__."""
    from .._ndarray import ndarray
    return isinstance(obj, ndarray) or hasattr(obj, "__cuda_array_interface__")


def as_cuda_array(obj, sync=True):
    """A simt view (no copy) of another library's device array (numba.cuda.as_cuda_array)."""
    from .._interop import device_view
    from .._ndarray import ndarray
    if isinstance(obj, ndarray):
        return obj
    view = device_view(obj)
    if view is None:
        raise TypeError(f"as_cuda_array: {type(obj).__module__}.{type(obj).__qualname__} is not a device array of "
                        f"the {_simt.backend_name()} backend (it needs __cuda_array_interface__ or DLPack device memory)")
    return view


class _Interface:
    """An object carrying a bare __cuda_array_interface__ dict (and its owner, kept alive)."""

    def __init__(self, desc, owner):
        self.__cuda_array_interface__ = desc
        self._owner = owner


def from_cuda_array_interface(desc, owner=None, sync=True):
    """A simt view of the memory a __cuda_array_interface__ dict describes (numba's)."""
    if _simt.backend_name() != "cuda":
        raise TypeError("from_cuda_array_interface: CUDA device memory needs the cuda backend (this is the "
                        f"{_simt.backend_name()} backend)")
    return as_cuda_array(_Interface(dict(desc), owner))


def external_stream(ptr):
    """A simt stream for a CUstream created by other code (numba.cuda.external_stream); on the
    cpu backend only simt's own stream handles (see ExternalStream)."""
    from ._device import ExternalStream
    return ExternalStream(ptr)


def legacy_default_stream():
    from ._device import default_stream
    return default_stream()


class Reduce:
    """numba.cuda.reduce: a binary Python function turned into a device-wide reduction,
    `r(array, size=None, res=None, init=0, stream=0)`; through simt.compute.reduce_into."""

    def __init__(self, functor):
        self.functor = functor
        self.__name__ = getattr(functor, "__name__", "reduce")
        self.__doc__ = getattr(functor, "__doc__", None)

    def __call__(self, arr, size=None, res=None, init=0, stream=0):
        import numpy as np

        from .. import compute
        from .._creation import empty
        if arr.ndim != 1:
            raise TypeError(f"cuda.reduce: only 1-D arrays are supported, not {arr.ndim}-D")
        n = arr.shape[0] if size is None else int(size)
        if n == 0:
            if res is not None:
                res[0] = init
                return None
            return init
        out = empty(1, arr.dtype)
        compute.reduce_into(arr[:n], out, self.functor, n, np.array([init], dtype=arr.dtype), stream=stream or None)
        if res is not None:
            res[0] = out[0]
            return None
        return out.get()[0]


def reduce(functor):
    return Reduce(functor)


def per_thread_default_stream():
    """numba.cuda.per_thread_default_stream: the calling thread's default stream (CUDA's
    CU_STREAM_PER_THREAD handle), which does not wait for work on other streams. The cpu backend
    has one default stream, which this is there."""
    from ._device import Stream, default_stream
    if _simt.backend_name() != "cuda":
        return default_stream()
    return Stream(external=2)


def is_supported_version():
    """numba.cuda.is_supported_version: whether the CUDA installation can run kernels, that is
    whether simt's cuda backend is active (it checks the driver and NVRTC when it starts)."""
    return _simt.backend_name() == "cuda"


def require_context(fn):
    """numba.cuda.require_context: simt makes the current device's context current in every call
    that needs it, so decorated functions are returned as they are."""
    return fn


def compile(pyfunc, sig, debug=False, lineinfo=False, device=True, fastmath=False, cc=None, opt=True, abi="c",
            abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """numba.cuda.compile: (code, return type) of `pyfunc` compiled for `sig`, as PTX (simt emits
    no LTO-IR: output='ltoir' raises NotImplementedError)."""
    from ._compile_ptx import compile_ptx
    if output != "ptx":
        raise NotImplementedError(f"cuda.compile: simt produces PTX only (output='ptx'), not {output!r}")
    return compile_ptx(pyfunc, sig, device=device, fastmath=fastmath, cc=cc, opt=opt, lineinfo=lineinfo, debug=debug)


def compile_for_current_device(pyfunc, sig, debug=False, lineinfo=False, device=True, fastmath=False, opt=True,
                               abi="c", abi_info=None, output="ptx", forceinline=False, launch_bounds=None):
    """cuda.compile for the compute capability of the current device."""
    from ._device import Device
    return compile(pyfunc, sig, debug=debug, lineinfo=lineinfo, device=device, fastmath=fastmath,
                   cc=Device().compute_capability, opt=opt, abi=abi, abi_info=abi_info, output=output)


def profile_start():
    """Start an attached profiler's capture (numba.cuda.profile_start: cuProfilerStart, as with
    `nsys --capture-range=cudaProfilerApi`); nothing on the cpu backend or without a profiler."""
    _simt._profiler(True)


def profile_stop():
    """Stop an attached profiler's capture (cuProfilerStop)."""
    _simt._profiler(False)


@contextlib.contextmanager
def profiling():
    """Capture the with-block with an attached profiler (numba.cuda.profiling)."""
    profile_start()
    try:
        yield
    finally:
        profile_stop()
