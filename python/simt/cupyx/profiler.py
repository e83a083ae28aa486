"""cupyx.profiler on simt: benchmark (host and device time of a function, per call), time_range
(an NVTX range, simt.cuda.nvtx.time_range) and profile (a profiler capture, simt.cuda.profiler)."""
import math
import time

import numpy as np

from .. import cuda
from ..cuda.nvtx import time_range
from ..cuda.profiler import profile

__all__ = ["benchmark", "profile", "time_range"]


class BenchmarkResult:
    """What benchmark() measured: `cpu_times` (seconds of host time per call) and `gpu_times`
    (seconds between events recorded around each call on the current stream, one row per
    device). str() gives mean ± standard deviation, min and max of each, in microseconds."""

    def __init__(self, name, cpu_times, gpu_times, devices):
        self.name, self.cpu_times, self.gpu_times, self.devices = name, cpu_times, gpu_times, devices

    def to_str(self, show_gpu=True):
        def stats(label, t):
            us = t * 1e6
            return (f"{label}: {us.mean():10.3f} us +/- {us.std():8.3f} "
                    f"(min: {us.min():10.3f} / max: {us.max():10.3f}) us")
        parts = [f"{self.name:<20}:", stats("   CPU", self.cpu_times)]
        if show_gpu:
            parts += [stats(f"   GPU-{d}", row) for d, row in zip(self.devices, self.gpu_times)]
        return "".join(parts)

    def __str__(self):
        return self.to_str()

    __repr__ = __str__


def benchmark(func, args=(), kwargs=None, n_repeat=10000, *, name=None, n_warmup=10, max_duration=math.inf,
              devices=None):
    """Calls func(*args, **kwargs) n_warmup times, then up to n_repeat times (fewer when
    max_duration seconds have passed), timing each call on the host and, through events on
    each device's current stream, on the devices; each device is synchronized after a call, so
    calls do not overlap."""
    if not callable(func):
        raise TypeError(f"benchmark: func must be callable, not {type(func).__name__}")
    if not isinstance(args, tuple):
        raise TypeError(f"benchmark: args must be a tuple, not {type(args).__name__}")
    n_repeat, n_warmup = int(n_repeat), int(n_warmup)
    if n_repeat < 1 or n_warmup < 0:
        raise ValueError(f"benchmark: n_repeat must be at least 1 and n_warmup not negative (got {n_repeat}, {n_warmup})")
    kwargs = {} if kwargs is None else kwargs
    name = getattr(func, "__name__", "function") if name is None else str(name)
    devices = (cuda.Device().id,) if devices is None else tuple(int(d) for d in devices)
    for _ in range(n_warmup):
        func(*args, **kwargs)
    cpu, gpu = [], [[] for _ in devices]
    deadline = time.perf_counter() + max_duration
    for _ in range(n_repeat):
        starts, ends = [], []
        for d in devices:
            with cuda.Device(d):
                starts.append(cuda.Event())
                starts[-1].record()
        t0 = time.perf_counter()
        func(*args, **kwargs)
        t1 = time.perf_counter()
        for d in devices:
            with cuda.Device(d):
                ends.append(cuda.Event())
                ends[-1].record()
        for i, d in enumerate(devices):
            with cuda.Device(d):
                ends[i].synchronize()
                gpu[i].append(cuda.event_elapsed_time(starts[i], ends[i]) * 1e-3)
        cpu.append(t1 - t0)
        if t1 >= deadline:
            break
    return BenchmarkResult(name, np.array(cpu), np.array(gpu).reshape(len(devices), -1), devices)
