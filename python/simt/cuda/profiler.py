"""cupy.cuda.profiler on simt: starting and stopping an attached profiler's capture (as with
`nsys profile --capture-range=cudaProfilerApi` or ncu's), through the driver's cuProfilerStart
and cuProfilerStop on the cuda backend. The cpu backend has no CUDA profiler to tell: there they
do nothing (NVTX ranges, simt.cuda.nvtx, annotate host code on both backends)."""
import contextlib

from .. import _simt


def start():
    """Starts the profiler's capture (cudaProfilerStart)."""
    _simt._profiler(True)


def stop():
    """Stops the profiler's capture (cudaProfilerStop)."""
    _simt._profiler(False)


@contextlib.contextmanager
def profile():
    """Captures the with-block: start() before it, stop() after it (also when it raises)."""
    start()
    try:
        yield
    finally:
        stop()

