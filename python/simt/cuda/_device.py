"""Devices, synchronization, streams and events (numba.cuda and cupy.cuda spellings)."""
from .. import _simt


class Device:
    """A device of the active backend; usable as a context manager that makes it current."""

    def __init__(self, device=None):
        if device is None:
            device = _simt.current_device()
        device = int(device)
        count = _simt.device_count()
        if not 0 <= device < count:
            raise _simt.CUDAError(
                "CUDA_ERROR_INVALID_DEVICE: This indicates that the device ordinal supplied by the user does not "
                "correspond to a valid CUDA device or that the action requested is invalid for the specified device.")
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
        return _simt.device_properties(self.id)

    @property
    def compute_capability(self):
        major, minor = self.attributes["compute_capability"]
        return (major, minor)

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
    ufuncs, reductions, copies, fills, random numbers) and the allocations of their results."""

    def __enter__(self):
        _simt._push_stream(self)
        return self

    def __exit__(self, *exc):
        _simt._pop_stream()

    def __repr__(self):
        return "<simt.cuda.Stream default>" if self.is_default else f"<simt.cuda.Stream {self.ptr:#x}>"


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
        super().__init__(timing and not disable_timing)

    def record(self, stream=None):
        super().record(stream if stream is not None else get_current_stream())
        return self

    def wait(self, stream=None):
        (stream or get_current_stream()).wait_event(self)

    def elapsed_time(self, end):
        return super().elapsed_time(end)


def event(timing=True):
    return Event(timing)


def event_elapsed_time(start, end):
    return start.elapsed_time(end)


def get_elapsed_time(start, end):
    """cupy.cuda.get_elapsed_time: milliseconds between two recorded events."""
    return start.elapsed_time(end)


_default = Stream(null=True)  # the legacy default stream


class MemoryPool:
    """The device allocator's cache (cupy.get_default_memory_pool()). On the cuda backend freed
    memory stays in the driver's stream-ordered pool for reuse; free_all_blocks() hands what no
    array uses back to the device (e.g. for another process or library)."""

    def free_all_blocks(self):
        _simt.release_cached_memory()


_memory_pool = MemoryPool()


def get_default_memory_pool():
    return _memory_pool
