"""simt.core.Event and EventOptions over simt.cuda.Event; `end - start` is elapsed milliseconds."""
from dataclasses import dataclass

from ..cuda import _device as _cuda
from ._options import check_or_create_options


@dataclass
class EventOptions:
    """How an event is created (timing is off by default, as in cuda.core)."""
    enable_timing: bool = False
    busy_waited_sync: bool = False  # a host-side waiting hint; simt's events wait the same way either way
    ipc_enabled: bool = False

    def __post_init__(self):
        if self.ipc_enabled:
            raise NotImplementedError("EventOptions(ipc_enabled=True): simt has no interprocess events")


class Event:
    """A point in a stream's work: wait for it, ask whether it passed, time between two."""

    def __init__(self, *args, **kwargs):
        raise RuntimeError("simt.core.Event cannot be created directly: use Device.create_event() or Stream.record()")

    @classmethod
    def _init(cls, device_id, options=None):
        options = check_or_create_options(EventOptions, options, "event options")
        self = cls.__new__(cls)
        self._event = _cuda.Event(timing=options.enable_timing)
        self._options = options
        self._device_id = device_id
        self._recorded = False
        return self

    def _record(self, simt_stream):
        self._event.record(simt_stream)
        self._recorded = True

    @property
    def is_timing_disabled(self):
        return not self._options.enable_timing

    @property
    def is_sync_busy_waited(self):
        return self._options.busy_waited_sync

    @property
    def is_ipc_enabled(self):
        return False

    @property
    def is_done(self):
        """True when all work before the event's record has finished (or it was never recorded)."""
        return self._event.query()

    @property
    def device(self):
        from ._device import Device
        return Device(self._device_id)

    def sync(self):
        """Wait until the work before the event's record has finished."""
        self._event.synchronize()

    def close(self):
        """Releases the event (the handle goes when nothing else holds it)."""
        self._event = None

    def __sub__(self, other):
        """Milliseconds from event `other` to this one; both need timing and must have completed."""
        if not isinstance(other, Event):
            return NotImplemented
        for e in (other, self):
            if e._event is None:
                raise RuntimeError("cannot time a closed Event")
            if e.is_timing_disabled:
                raise RuntimeError("timing is disabled for this event: create it with "
                                   "EventOptions(enable_timing=True) (or {'enable_timing': True})")
            if not e._recorded:
                raise RuntimeError("an event must be recorded on a stream (Stream.record) before timing it")
            if not e.is_done:
                raise RuntimeError("an event has not completed yet: call sync() on it before timing")
        return other._event.elapsed_time(self._event)

    def __repr__(self):
        return f"<simt.core.Event timing={'off' if self.is_timing_disabled else 'on'} recorded={self._recorded}>"

