"""cupy.cuda.runtime's common calls on simt (device count and properties, memory information,
versions, synchronization). Errors are simt.cuda.CUDAError, as CuPy raises CUDARuntimeError."""
from .. import _simt


def getDeviceCount():
    return _simt.device_count()


def getDevice():
    return _simt.current_device()


def setDevice(device):
    _simt.set_current_device(int(device))


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
