"""simt.core.Stream and StreamOptions over simt.cuda.Stream (cuda.core's stream API)."""
from dataclasses import dataclass

from .. import _simt
from ..cuda import _device as _cuda
from ._event import Event
from ._options import check_or_create_options


@dataclass
class StreamOptions:
    """How a stream is created."""
    nonblocking: bool = True
    priority: int = None

    def __post_init__(self):
        if self.priority is not None:
            raise NotImplementedError("StreamOptions(priority=...): simt creates streams of the default priority only")


class Stream:
    """A queue of device work, in order; `_simt_stream` is what simt's launch path takes."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("simt.core.Stream cannot be created directly: use Device.create_stream() or "
                           "Device.default_stream")

    @classmethod
    def _init(cls, simt_stream, device_id, nonblocking, owner=None):
        self = cls.__new__(cls)
        self._simt_stream = simt_stream
        self._device_id = device_id
        self._nonblocking = nonblocking
        self._owner = owner  # a foreign __cuda_stream__ object, kept alive while in use
        return self

    @classmethod
    def _create(cls, device_id, options=None):
        options = check_or_create_options(StreamOptions, options, "stream options")
        return cls._init(_cuda.Stream(non_blocking=options.nonblocking), device_id, options.nonblocking)

    @classmethod
    def _from_foreign(cls, device_id, obj):
        """A stream of another library (its __cuda_stream__), used but never destroyed."""
        if _simt.backend_name() != "cuda":
            raise RuntimeError(f"a {type(obj).__name__} is a CUDA stream, which the cpu backend cannot use")
        version, handle = obj.__cuda_stream__()
        if int(version) != 0:
            raise RuntimeError(f"__cuda_stream__ protocol version {version} is not supported (only 0)")
        if int(handle) == 0:
            return cls._init(_cuda.default_stream(), device_id, False, obj)
        return cls._init(_cuda.Stream(external=int(handle)), device_id, False, obj)

    def _live(self):
        if self._simt_stream is None:
            raise RuntimeError("this Stream is closed")
        return self._simt_stream

    @property
    def handle(self):
        """The native stream as an int: a CUstream on the cuda backend, simt's queue id on the cpu backend."""
        s = self._live()
        if _simt.backend_name() == "cuda":
            return _simt._native_stream(s)
        return s.ptr

    @property
    def is_nonblocking(self):
        return self._nonblocking

    @property
    def priority(self):
        return 0

    @property
    def device(self):
        from ._device import Device
        return Device(self._device_id)

    def __cuda_stream__(self):
        """(protocol version 0, CUstream address), for other CUDA libraries (cuda backend only)."""
        if _simt.backend_name() != "cuda":
            raise RuntimeError("the cpu backend's streams are not CUDA streams; __cuda_stream__ exists on the cuda "
                               "backend only")
        return (0, self.handle)

    def sync(self):
        """Wait until all work queued on the stream has finished."""
        self._live().synchronize()

    def record(self, event=None, options=None):
        """Records `event` (a new one made with `options` when None) at this point of the stream."""
        stream = self._live()
        if event is None:
            event = Event._init(self._device_id, options)
        elif not isinstance(event, Event):
            raise TypeError(f"record() takes a simt.core.Event, not {type(event).__name__}")
        event._record(stream)
        return event

    def wait(self, event_or_stream):
        """Makes later work on this stream wait for an event, or for all work queued so far on a stream."""
        stream = self._live()
        if isinstance(event_or_stream, Event):
            event = event_or_stream
        elif isinstance(event_or_stream, Stream):
            event = event_or_stream.record()
        elif hasattr(event_or_stream, "__cuda_stream__"):
            event = Stream._from_foreign(self._device_id, event_or_stream).record()
        else:
            raise TypeError(f"wait() takes a simt.core.Event or Stream, not {type(event_or_stream).__name__}")
        if event._event is None:
            raise RuntimeError("cannot wait on a closed Event")
        stream.wait_event(event._event)

    def close(self):
        """Releases the stream (destroyed once its queued work no longer needs it)."""
        self._simt_stream = None
        self._owner = None

    def __eq__(self, other):
        return isinstance(other, Stream) and self._simt_stream is other._simt_stream

    def __hash__(self):
        return id(self._simt_stream)

    def __repr__(self):
        if self._simt_stream is None:
            return "<simt.core.Stream closed>"
        return f"<simt.core.Stream handle={self.handle:#x}>"
