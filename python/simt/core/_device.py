"""simt.core.Device and DeviceProperties: a device of the active backend, cuda.core's entry point."""
import threading
from collections import namedtuple

from .. import _simt
from ..cuda import _device as _cuda
from ._event import Event
from ._stream import Stream

ComputeCapability = namedtuple("ComputeCapability", ("major", "minor"))


class DeviceProperties:
    """The device's attributes that simt knows, under cuda.core's names."""

    def __init__(self, device_id):
        self._p = _simt.device_properties(device_id)

    max_threads_per_block = property(lambda self: self._p["max_threads_per_block"])
    max_block_dim_x = property(lambda self: self._p["max_block_dim"][0])
    max_block_dim_y = property(lambda self: self._p["max_block_dim"][1])
    max_block_dim_z = property(lambda self: self._p["max_block_dim"][2])
    max_grid_dim_x = property(lambda self: self._p["max_grid_dim"][0])
    max_grid_dim_y = property(lambda self: self._p["max_grid_dim"][1])
    max_grid_dim_z = property(lambda self: self._p["max_grid_dim"][2])
    max_shared_memory_per_block = property(lambda self: self._p["max_shared_memory_per_block"])
    warp_size = property(lambda self: self._p["warp_size"])
    multiprocessor_count = property(lambda self: self._p["multiprocessor_count"])
    compute_capability_major = property(lambda self: self._p["compute_capability"][0])
    compute_capability_minor = property(lambda self: self._p["compute_capability"][1])
    total_memory = property(lambda self: self._p["total_memory"])  # (simt's addition: cuda.core has no such property)

    def __getattr__(self, name):
        raise AttributeError(f"simt.core.DeviceProperties has no '{name}': simt knows max_threads_per_block, "
                             "max_block_dim_x/y/z, max_grid_dim_x/y/z, max_shared_memory_per_block, warp_size, "
                             "multiprocessor_count, compute_capability_major/minor and total_memory")


_devices = threading.local()  # one Device object per ordinal and thread, as in cuda.core


class Device:
    """A device of the active backend (a GPU, or the cpu backend's modelled device)."""

    def __new__(cls, device_id=None):
        if isinstance(device_id, Device):
            return device_id
        if device_id is None:
            device_id = _simt.current_device()
        if not isinstance(device_id, int) or isinstance(device_id, bool):
            raise TypeError(f"device_id must be an int or None, not {type(device_id).__name__}")
        cache = getattr(_devices, "cache", None)
        if cache is None:
            cache = _devices.cache = {}
        device = cache.get(device_id)
        if device is None:
            _cuda.Device(device_id)  # validates the ordinal (CUDA_ERROR_INVALID_DEVICE)
            device = super().__new__(cls)
            device._id = device_id
            device._properties = None
            cache[device_id] = device
        return device

    @classmethod
    def get_all_devices(cls):
        return tuple(cls(i) for i in range(_simt.device_count()))

    @property
    def device_id(self):
        return self._id

    @property
    def name(self):
        return _simt.device_properties(self._id)["name"]

    @property
    def properties(self):
        if self._properties is None:
            self._properties = DeviceProperties(self._id)
        return self._properties

    @property
    def compute_capability(self):
        major, minor = _simt.device_properties(self._id)["compute_capability"]
        return ComputeCapability(major, minor)

    @property
    def arch(self):
        """The compute capability as digits ('90' for 9.0)."""
        cc = self.compute_capability
        return f"{cc.major}{cc.minor}"

    @property
    def default_stream(self):
        """The legacy default stream."""
        return Stream._init(_cuda.default_stream(), self._id, False)

    def set_current(self, ctx=None):
        """Makes this the calling thread's current device."""
        if ctx is not None:
            raise NotImplementedError("Device.set_current(ctx): simt uses each device's primary context only")
        _simt.set_current_device(self._id)

    def _scope(self):
        return _cuda.Device(self._id)  # a context manager making this device current

    def create_stream(self, obj=None, options=None):
        """A new stream, or one wrapping another library's stream (`obj` with __cuda_stream__)."""
        with self._scope():
            if obj is not None:
                if options is not None:
                    raise ValueError("create_stream() takes obj or options, not both")
                if not hasattr(obj, "__cuda_stream__"):
                    raise TypeError(f"create_stream(obj): a {type(obj).__name__} has no __cuda_stream__")
                return Stream._from_foreign(self._id, obj)
            return Stream._create(self._id, options)

    def create_event(self, options=None):
        """A new event, not yet recorded (timing off unless EventOptions(enable_timing=True))."""
        with self._scope():
            return Event._init(self._id, options)

    def allocate(self, size, stream=None):
        """`size` bytes of device memory from simt's memory pool, ordered on `stream` (default stream if None)."""
        from ._buffer import Buffer
        if stream is None:
            stream = self.default_stream
        with self._scope():
            return Buffer._allocate(size, stream, self._id)

    def sync(self):
        """Wait until all work queued on this device has finished."""
        _cuda.Device(self._id).synchronize()

    def __int__(self):
        return self._id

    def __eq__(self, other):
        return isinstance(other, Device) and other._id == self._id

    def __hash__(self):
        return hash(("simt.core.Device", self._id))

    def __repr__(self):
        return f"<simt.core.Device {self._id} ({self.name})>"
