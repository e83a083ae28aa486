"""Timers: CUDA events for GPU libraries, the host clock (with a synchronize) otherwise."""
import time


class HostTimer:
    """Times each repetition on the host clock, waiting for the work to finish."""
    kind = "host clock"

    def __init__(self, synchronize):
        self._synchronize = synchronize

    def measure(self, call, reps, first_index=0):
        samples = []
        sync = self._synchronize
        for i in range(first_index, first_index + reps):
            t0 = time.perf_counter()
            call(i)
            sync()
            samples.append(time.perf_counter() - t0)
        return samples


class EventTimer:
    """Brackets each repetition with a pair of events on the default stream; reads them after one
    final synchronize, so the host never waits between repetitions."""
    kind = "CUDA events"

    def __init__(self, new_event, record, elapsed_ms, synchronize):
        self._new, self._record, self._elapsed_ms, self._synchronize = new_event, record, elapsed_ms, synchronize

    def measure(self, call, reps, first_index=0):
        starts = [self._new() for _ in range(reps)]
        ends = [self._new() for _ in range(reps)]
        record = self._record
        for k, i in enumerate(range(first_index, first_index + reps)):
            record(starts[k])
            call(i)
            record(ends[k])
        self._synchronize()
        return [self._elapsed_ms(s, e) / 1e3 for s, e in zip(starts, ends)]


def host_seconds(call, synchronize):
    """One call's wall time, waiting for its work to finish."""
    t0 = time.perf_counter()
    call()
    synchronize()
    return time.perf_counter() - t0
