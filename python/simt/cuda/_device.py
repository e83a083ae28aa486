"""Devices, synchronization, streams and events (numba.cuda and cupy.cuda spellings)."""
import contextlib
import weakref

from .. import _simt


class ComputeCapability(tuple):
    """A compute capability: the tuple (major, minor) numba gives (unpacked, indexed, compared
    with tuples; repr (9, 0)), which is also CuPy's string where one is expected: str(cc) and
    f'{cc}' are '90', int(cc) is 90, 'sm_' + cc is 'sm_90', and comparisons with strings
    compare that string (cc >= '70')."""

    def __str__(self):
        return f"{self[0]}{self[1]}"

    def __repr__(self):
        return tuple.__repr__(self)

    def __int__(self):
        return int(str(self))

    def __add__(self, other):  # ('sm_' + cc, cc + '0'): as CuPy's string
        return str(self) + other if isinstance(other, str) else tuple.__add__(self, other)

    def __radd__(self, other):
        return other + str(self) if isinstance(other, str) else NotImplemented

    def __eq__(self, other):
        return str(self) == other if isinstance(other, str) else tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = tuple.__hash__

    def __lt__(self, other):
        return str(self) < other if isinstance(other, str) else tuple.__lt__(self, other)

    def __le__(self, other):
        return str(self) <= other if isinstance(other, str) else tuple.__le__(self, other)

    def __gt__(self, other):
        return str(self) > other if isinstance(other, str) else tuple.__gt__(self, other)

    def __ge__(self, other):
        return str(self) >= other if isinstance(other, str) else tuple.__ge__(self, other)


class Device:
    """A device of the active backend; usable as a context manager that makes it current."""

    def __init__(self, device=None):
        if device is None:
            device = _simt.current_device()
        device = int(device)
        count = _simt.device_count()
        if not 0 <= device < count:
            error = _simt.CUDAError(
                "CUDA_ERROR_INVALID_DEVICE: This indicates that the device ordinal supplied by the user does not "
                "correspond to a valid CUDA device or that the action requested is invalid for the specified device.")
            error.code, error.name = 101, "CUDA_ERROR_INVALID_DEVICE"  # (as the driver's errors carry them)
            raise error
        self.id = device
        self._previous = []

    def synchronize(self):
        """Wait until all work queued on this device has finished."""
        current = _simt.current_device()
        if current == self.id:
            _simt.synchronize()
            return
        _simt.set_current_device(self.id)
        try:
            _simt.synchronize()
        finally:
            _simt.set_current_device(current)

    def use(self):
        _simt.set_current_device(self.id)

    def __enter__(self):
        self._previous.append(_simt.current_device())
        self.use()
        return self

    def __exit__(self, *exc):
        _simt.set_current_device(self._previous.pop())

    @property
    def attributes(self):
        """The device's properties: simt's names (multiprocessor_count, ...) and CuPy's
        (MultiProcessorCount, ...)."""
        props = _simt.device_properties(self.id)
        major, minor = props["compute_capability"]
        cupy_names = {"MultiProcessorCount": props["multiprocessor_count"], "WarpSize": props["warp_size"],
                      "MaxThreadsPerBlock": props["max_threads_per_block"],
                      "MaxSharedMemoryPerBlock": props["max_shared_memory_per_block"],
                      "ComputeCapabilityMajor": major, "ComputeCapabilityMinor": minor}
        for axis, (block, grid) in zip("XYZ", zip(props["max_block_dim"], props["max_grid_dim"])):
            cupy_names[f"MaxBlockDim{axis}"], cupy_names[f"MaxGridDim{axis}"] = block, grid
        props.update(cupy_names)
        return props

    # numba's spellings of the device attributes (dev.MULTIPROCESSOR_COUNT, dev.WARP_SIZE, ...).
    _NUMBA_ATTRIBUTES = {"MULTIPROCESSOR_COUNT": "multiprocessor_count", "WARP_SIZE": "warp_size",
                         "MAX_THREADS_PER_BLOCK": "max_threads_per_block",
                         "MAX_SHARED_MEMORY_PER_BLOCK": "max_shared_memory_per_block",
                         "TOTAL_MEMORY": "total_memory"}

    def __getattr__(self, name):
        attrs = type(self)._NUMBA_ATTRIBUTES
        if name in attrs:
            return self.attributes[attrs[name]]
        block, grid = {"MAX_BLOCK_DIM_X": 0, "MAX_BLOCK_DIM_Y": 1, "MAX_BLOCK_DIM_Z": 2}, \
            {"MAX_GRID_DIM_X": 0, "MAX_GRID_DIM_Y": 1, "MAX_GRID_DIM_Z": 2}
        if name in block:
            return self.attributes["max_block_dim"][block[name]]
        if name in grid:
            return self.attributes["max_grid_dim"][grid[name]]
        if name == "COMPUTE_CAPABILITY_MAJOR":
            return self.compute_capability[0]
        if name == "COMPUTE_CAPABILITY_MINOR":
            return self.compute_capability[1]
        raise AttributeError(f"'Device' object has no attribute '{name}'")

    @property
    def mem_info(self):
        """(free, total) bytes of the device's memory (CuPy's Device.mem_info)."""
        return tuple(_simt._memory_info(self.id))

    @property
    def compute_capability(self):
        """(major, minor) as numba gives it, which also reads as CuPy's string ('90')."""
        major, minor = _simt.device_properties(self.id)["compute_capability"]
        return ComputeCapability((major, minor))

    @property
    def name(self):
        return self.attributes["name"]

    def __eq__(self, other):
        return isinstance(other, Device) and other.id == self.id

    def __hash__(self):
        return hash(self.id)

    def __repr__(self):
        return f"<simt.cuda.Device {self.id} ({self.name})>"


def synchronize():
    """Wait until all queued device work has finished (numba.cuda.synchronize)."""
    _simt.synchronize()


class Stream(_simt.Stream):
    """A queue of device work. `with stream:` makes it the current stream of this thread:
    launches without an explicit stream go to it, and so do array operations (operators and
    ufuncs, reductions, copies, fills, random numbers) and the allocations of their results.

    Stream(null=False, non_blocking=False, ptds=False, priority=None) as CuPy has it: null is the
    legacy default stream (also Stream.null), ptds the per-thread default stream (also
    Stream.ptds; on the cpu backend, whose one queue serves every stream, the default stream)."""

    def __init__(self, null=False, non_blocking=False, ptds=False, priority=None, *, external=0):
        if priority not in (None, 0):
            raise NotImplementedError(f"Stream(priority={priority!r}): simt creates streams of the default priority "
                                      "(0) only")
        if ptds and not null and not external:
            if _simt.backend_name() == "cuda":
                external = 2  # CU_STREAM_PER_THREAD
            else:
                null = True
        super().__init__(non_blocking=bool(non_blocking), null=bool(null), external=int(external))
        self.device_id = _simt.current_device()
        if not null and not external:
            _own_streams[self.ptr] = self  # (what ExternalStream accepts on the cpu backend)

    def __enter__(self):
        _simt._push_stream(self)
        return self

    def __exit__(self, *exc):
        _simt._pop_stream()

    def __repr__(self):
        return "<simt.cuda.Stream default>" if self.is_default else f"<simt.cuda.Stream {self.ptr:#x}>"

    @property
    def done(self):
        """Whether all work queued on the stream has finished (CuPy's Stream.done)."""
        return self.query()

    def record(self, event=None):
        """Records `event` (a new timing Event when None) at this point of the stream; returns it."""
        if event is None:
            event = Event()
        elif not isinstance(event, _simt.Event):
            raise TypeError(f"Stream.record() takes a simt.cuda.Event or None, not {type(event).__name__}")
        event.record(self)
        return event

    def wait_event(self, event):
        """Makes work queued on this stream from now on wait for `event` (recorded on any stream)."""
        if not isinstance(event, _simt.Event):
            raise TypeError(f"Stream.wait_event() takes a simt.cuda.Event, not {type(event).__name__}")
        super().wait_event(event)

    def launch_host_func(self, callback, arg):
        """Calls callback(arg) on the host once the work queued so far has finished (CuPy's);
        see simt.cuda._host_callbacks for where it runs and what it may do."""
        from ._host_callbacks import launch
        launch(self, callback, (arg,), "launch_host_func")

    def add_callback(self, callback, arg=None):
        """Calls callback(stream, status, arg) on the host once the work queued so far has
        finished (numba's and CuPy's add_callback; status is 0, CUDA_SUCCESS)."""
        from ._host_callbacks import launch
        launch(self, callback, (self, 0, arg), "add_callback")

    def async_done(self):
        """An asyncio future that resolves to this stream once the work queued so far has
        finished (numba's Stream.async_done; call it with an event loop running)."""
        from ._host_callbacks import async_done
        return async_done(self)

    def use(self):
        """Make this the current stream of this thread (CuPy's Stream.use): it replaces the
        current one, and an enclosing `with` block restores what it replaced on exit."""
        if _simt._current_stream() is not None:
            _simt._pop_stream()
        _simt._push_stream(self)
        return self

    @contextlib.contextmanager
    def auto_synchronize(self):
        """numba's: a with-block after which the stream is synchronized."""
        yield self
        self.synchronize()

    @property
    def handle(self):
        """The native stream as an int: a CUstream on the cuda backend, simt's queue id on the cpu
        backend. numba's is a ctypes.c_void_p, so this int also has its `.value` (the same int; 0,
        where ctypes would give None, for the default stream)."""
        return StreamHandle(_simt._native_stream(self) if _simt.backend_name() == "cuda" else self.ptr)

    def __cuda_stream__(self):
        """(protocol version 0, CUstream address), for other CUDA libraries (cuda backend only)."""
        if _simt.backend_name() != "cuda":
            raise RuntimeError("the cpu backend's streams are not CUDA streams; __cuda_stream__ exists on the cuda "
                               "backend only")
        return (0, self.handle)


class StreamHandle(int):
    """A stream handle: an int (CuPy's and simt's use) with numba's c_void_p `.value`."""

    @property
    def value(self):
        return int(self)


class ExternalStream(Stream):
    """A stream made by other code, used but never destroyed (CuPy's ExternalStream(ptr),
    numba's external_stream). On the cuda backend `ptr` is a CUstream (0: the legacy default
    stream; 1 and 2: the legacy and per-thread default streams, as CUDA spells them). The cpu
    backend has no CUDA streams: there `ptr` must be 0, 1, 2 (its default stream) or the `.ptr`
    of a live simt stream; any other value is a ValueError. The `.ptr` of a simt stream keeps
    that stream alive (on both backends)."""

    def __init__(self, ptr, device_id=-1):
        ptr = int(ptr)
        owner = _own_streams.get(ptr)  # a simt stream's handle: that stream is kept alive
        if _simt.backend_name() != "cuda":
            if ptr in (0, 1, 2):
                ptr = 0
            elif owner is None:
                raise ValueError(f"ExternalStream: {ptr:#x} is not a stream of this process's simt cpu backend "
                                 "(the cpu backend has no CUDA streams: pass 0 or the .ptr of a simt stream)")
        elif ptr == 1:
            ptr = 0  # (the legacy default stream is simt's null stream)
        super().__init__(null=ptr == 0, external=ptr)
        self._owner = owner
        self.device_id = int(device_id)  # (-1: unknown, as in CuPy)

    def __repr__(self):
        return f"<simt.cuda.ExternalStream {self.ptr:#x}>"


_own_streams = weakref.WeakValueDictionary()  # .ptr -> Stream, for streams simt created
_own_events = weakref.WeakValueDictionary()  # .ptr -> Event


def default_stream():
    return _default


def get_current_stream():
    current = _simt._current_stream()
    return _default if current is None else current


def stream():
    """A new stream (numba.cuda.stream)."""
    return Stream()


class Event(_simt.Event):
    """A marker in a stream, for synchronization and timing."""

    def __init__(self, timing=True, block=False, disable_timing=False, interprocess=False):
        if interprocess:
            raise NotImplementedError("Event(interprocess=True): simt has no interprocess events")
        super().__init__(timing and not disable_timing)
        _own_events[self.ptr] = self  # (runtime.eventElapsedTime & co. take .ptr ints)

    def record(self, stream=None):
        super().record(stream if stream is not None else get_current_stream())
        return self

    def wait(self, stream=None):
        (stream or get_current_stream()).wait_event(self)

    def elapsed_time(self, end):
        return super().elapsed_time(end)

    @property
    def done(self):
        """Whether the work before the recorded point has finished (CuPy's Event.done)."""
        return self.query()


def event(timing=True):
    return Event(timing)


def event_elapsed_time(start, end):
    return start.elapsed_time(end)


def get_elapsed_time(start, end):
    """cupy.cuda.get_elapsed_time: milliseconds between two recorded events."""
    return start.elapsed_time(end)


_default = Stream(null=True)  # the legacy default stream
Stream.null = _default  # CuPy's spelling
Stream.ptds = Stream(ptds=True)  # the per-thread default stream (the default stream on the cpu backend)


