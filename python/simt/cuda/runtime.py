"""cupy.cuda.runtime's common calls on simt (devices and their properties, memory information,
versions, stream and event synchronization). Failures raise CUDARuntimeError, which is simt's
CUDAError (its text is the driver's 'NAME: description'; `.status` is the code). Streams and
events are given as their .ptr ints (or as the objects); on the cpu backend those are the
handles of simt's own streams and events."""
from .. import _simt

CUDARuntimeError = _simt.CUDAError
if not hasattr(CUDARuntimeError, "status"):
    CUDARuntimeError.status = property(lambda self: getattr(self, "code", None), doc="The error code (CuPy's name).")

is_hip = False  # (CuPy's flag for its ROCm builds)


def getDeviceCount():
    return _simt.device_count()


def getDevice():
    return _simt.current_device()


def setDevice(device):
    from ._device import Device
    Device(int(device)).use()  # (CUDA_ERROR_INVALID_DEVICE for an ordinal out of range, on both backends)


def deviceSynchronize():
    _simt.synchronize()


def memGetInfo():
    """(free, total) bytes of the current device's memory."""
    return tuple(_simt._memory_info(_simt.current_device()))


def getDeviceProperties(device):
    """The device's properties under CUDA's cudaDeviceProp names (those simt knows)."""
    p = _simt.device_properties(int(device))
    major, minor = p["compute_capability"]
    return {"name": p["name"].encode(), "totalGlobalMem": p["total_memory"], "major": major, "minor": minor,
            "multiProcessorCount": p["multiprocessor_count"], "maxThreadsPerBlock": p["max_threads_per_block"],
            "maxThreadsDim": tuple(p["max_block_dim"]), "maxGridSize": tuple(p["max_grid_dim"]),
            "sharedMemPerBlock": p["max_shared_memory_per_block"], "warpSize": p["warp_size"]}


# cudaDeviceAttr codes (the driver's CU_DEVICE_ATTRIBUTE_* values) of the properties above.
_ATTRIBUTES = {1: ("max_threads_per_block", None), 2: ("max_block_dim", 0), 3: ("max_block_dim", 1),
               4: ("max_block_dim", 2), 5: ("max_grid_dim", 0), 6: ("max_grid_dim", 1), 7: ("max_grid_dim", 2),
               8: ("max_shared_memory_per_block", None), 10: ("warp_size", None),
               16: ("multiprocessor_count", None), 75: ("compute_capability", 0), 76: ("compute_capability", 1)}


def deviceGetAttribute(attrib, device):
    """One device attribute by its cudaDeviceAttr code: any the driver has on the cuda backend;
    on the cpu backend those of the modelled device's properties (others: CUDA_ERROR_INVALID_VALUE)."""
    attrib, device = int(attrib), int(device)
    if _simt.backend_name() == "cuda":
        from ..bindings import driver
        from .driver import _check
        _simt.device_properties(device)  # (CUDA_ERROR_INVALID_DEVICE for a bad ordinal)
        return _check(driver.cuDeviceGetAttribute(attrib, device))[0]
    props = _simt.device_properties(device)
    if attrib not in _ATTRIBUTES:
        raise _error(1, "CUDA_ERROR_INVALID_VALUE", "This indicates that one or more of the parameters passed to the "
                     f"API call is not within an acceptable range of values. (attribute {attrib} is not one the cpu "
                     "backend's modelled device has)")
    key, index = _ATTRIBUTES[attrib]
    return props[key] if index is None else props[key][index]


def _error(code, name, description):
    exc = CUDARuntimeError(f"{name}: {description}")
    exc.code, exc.name = code, name
    return exc


def _version(info):
    """CUDA's integer spelling of a (major, minor) version in a pathfinder entry (0 if absent)."""
    major, minor = info.get("version", (0, 0))
    return major * 1000 + minor * 10


def driverGetVersion():
    """The CUDA driver's version (e.g. 13000); 0 where no driver is loaded."""
    return _version(_simt.pathfinder_report()["driver"])


def runtimeGetVersion():
    """The CUDA version simt compiles with: NVRTC's (e.g. 13000); 0 without NVRTC."""
    return _version(_simt.pathfinder_report()["nvrtc_library"])


def get_version():
    """numba's cuda.runtime.get_version(): the CUDA runtime version as (major, minor). simt has no
    CUDA runtime library: this is the version of NVRTC, which it compiles with (runtimeGetVersion),
    on both backends; (0, 0) where NVRTC was not found."""
    version = runtimeGetVersion()
    return (version // 1000, version % 1000 // 10)


# ---- streams and events by handle --------------------------------------------------------------
def _stream(stream):
    from ._device import ExternalStream
    if isinstance(stream, _simt.Stream):
        return stream
    return ExternalStream(int(stream))  # (on the cpu backend: only simt's own stream handles)


def _event(event):
    from ._device import _own_events
    if isinstance(event, _simt.Event):
        return event
    found = _own_events.get(int(event))
    if found is None:
        raise _error(400, "CUDA_ERROR_INVALID_HANDLE", "This indicates that a resource handle passed to the API call "
                     f"was not valid. ({int(event):#x} is not the .ptr of a live simt Event)")
    return found


def streamSynchronize(stream):
    """Waits for the work queued on `stream` (a Stream or its .ptr; 0: the default stream)."""
    _stream(stream).synchronize()


def streamQuery(stream):
    """0 (cudaSuccess) when the stream's work has finished, else 600 (cudaErrorNotReady), as CuPy returns."""
    return 0 if _stream(stream).query() else 600


def streamWaitEvent(stream, event, flags=0):
    """Makes later work on `stream` wait for `event`."""
    _stream(stream).wait_event(_event(event))


def eventRecord(event, stream):
    _event(event).record(_stream(stream))


def eventSynchronize(event):
    _event(event).synchronize()


def eventQuery(event):
    """0 when the work before the event's record has finished, else 600 (cudaErrorNotReady)."""
    return 0 if _event(event).query() else 600


def eventElapsedTime(start, end):
    """Milliseconds between two recorded events (Events or their .ptr)."""
    return _event(start).elapsed_time(_event(end))
