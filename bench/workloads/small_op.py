"""Host time of one small array operation: `x + y` on one-element float32 arrays (the result
allocated), 1000 of them queued behind a ~20 ms spin kernel, for simt, CuPy, PyTorch and the
CUDA C++ floor (the same operation with the driver's stream-ordered allocator); NumPy on the host
for scale."""
import time

import numpy as np

from ..affinity import on_one_cpu_for_cuda
from ..host_floor import HostFloor
from ..libs import NotAvailable
from ..model import Cell, Row
from ..suite import workload
from .launch import calibrate_spin, measure_interleaved, start_floor

METHOD = ("x and y are one-element float32 arrays. After warm-up, a kernel that busy-waits about 20 ms is "
          "launched (as for the launch overhead), then 1000 evaluations of `z = add(x, y)` (the library's add: "
          "simt.add, cupy.add, torch.add, numpy.add; for simt `x + y` costs the same) are timed on the host "
          "clock and the device is synchronized; host time / 1000 is one sample, the figure the median over "
          "repetitions (taken in rounds that sample every library in turn), and the last z is checked. It is the host's cost of one array operation: argument "
          "checks, type promotion, the result's allocation and the launch. NumPy runs on the host (no spin). The "
          "CUDA C++ floor does the same in a C++ program: the result from cudaMallocAsync on the device's "
          "pool (release threshold raised, as simt allocates), an add kernel launched with <<<>>>, the "
          "previous result freed with cudaFreeAsync. On the cuda backend all of them run on one CPU "
          "(bench/affinity.py), since the cost differs between CPUs. simt's warm-up ends once its background "
          "cubin compiles for the disk cache are done (a cold cache's one-time work, which would otherwise "
          "share that CPU with the timed operations).")

OPS = 1000
LIBS = ("simt", "cupy", "torch", "numpy")


def _add_sampler(lib, spin):
    """A sampler (see interleave.py) of seconds per `z = add(x, y)`, after a warm-up; and a check of
    the last z, to call when the sampling is over."""
    x = lib.asarray(np.array([1.5], np.float32))
    y = lib.asarray(np.array([2.25], np.float32))
    add = lib.op("add")
    last = [None]
    for _ in range(20):  # compiles and caches whatever the first call needs
        last[0] = add(x, y)
    lib.synchronize()

    def sample():
        if spin:
            spin()
        t0 = time.perf_counter()
        for _ in range(OPS):
            z = add(x, y)
        t1 = time.perf_counter()
        lib.synchronize()
        last[0] = z
        return (t1 - t0) / OPS

    def check():
        result = lib.to_host(last[0])
        if result.shape != (1,) or result[0] != np.float32(3.75):
            raise AssertionError(f"x + y gave {result!r}, expected [3.75]")
    return sample, check


class _TorchSpin:
    """PyTorch's own busy-wait kernel (torch.cuda._sleep, in GPU cycles) as a spin kernel."""

    def __init__(self, lib):
        self.torch = lib.torch
        if not hasattr(self.torch.cuda, "_sleep"):
            raise NotAvailable("this PyTorch has no torch.cuda._sleep to keep the GPU busy")
        self.synchronize = lib.synchronize

    def spin(self, iters):
        self.torch.cuda._sleep(int(iters))


def _prepare(ctx, name, notes):
    """(sampler, check, spin seconds) of one library, or the Cell that says why it has none."""
    lib = ctx.libs[name]
    reason = lib.unavailable_reason()
    if reason:
        return Cell.na(reason)
    try:
        spin, seconds = None, float("inf")
        if name != "numpy":
            kit = _TorchSpin(lib) if name == "torch" else lib.launch_kit()
            iters, seconds = calibrate_spin(kit)
            spin = lambda: kit.spin(iters)  # noqa: E731
            notes.append(f"{name} spin kernel: {iters} iterations = {seconds * 1e3:.1f} ms")
        return _add_sampler(lib, spin) + (seconds,)
    except NotAvailable as e:
        return Cell.na(str(e))
    except Exception as e:
        return Cell.error(f"{type(e).__name__}: {e}")


@workload("small_op", "Small array operation: host time of x + y on one element (µs)", METHOD)
def run(ctx):
    return on_one_cpu_for_cuda(ctx, _measure)


def _measure(ctx, notes):
    reps = 11 if ctx.quick else 21  # odd: the median is one sample
    samplers, spins, fixed, checks = {}, {}, {}, {}
    for name in LIBS:
        got = _prepare(ctx, name, notes)
        if isinstance(got, Cell):
            fixed[(name, "x + y")] = got
        else:
            samplers[(name, "x + y")], checks[name], spins[name] = got
    floor = start_floor(ctx, notes)
    if isinstance(floor, HostFloor):
        spins["cuda-c++"] = floor.spin_s
        samplers[("cuda-c++", "x + y")] = lambda: floor.sample("x + y")
    else:
        fixed[("cuda-c++", "x + y")] = floor
    cells = measure_interleaved(ctx, samplers, spins, fixed, reps, floor, "operations", OPS)
    for name, check in checks.items():
        try:
            check()
        except Exception as e:
            cells[(name, "x + y")] = Cell.error(f"{type(e).__name__}: {e}")
    names = LIBS + ("cuda-c++",)
    return [Row("x + y, float32, 1 element", "µs", False, {name: cells[(name, "x + y")] for name in names},
                params={"operations": OPS})], notes
