"""Host time of one small array operation: `x + y` on one-element float32 arrays (the result
allocated), 1000 of them queued behind a ~20 ms spin kernel, for simt, CuPy, PyTorch and the
CUDA C++ floor (the same operation with the driver's stream-ordered allocator); NumPy on the host
for scale."""
import time

import numpy as np

from ..libs import NotAvailable
from ..model import Cell, Row
from ..stats import median, summarize
from ..suite import workload
from .launch import SPIN_S, calibrate_spin, floor_cells

METHOD = ("x and y are one-element float32 arrays. After warm-up, a kernel that busy-waits about 20 ms is "
          "launched (as for the launch overhead), then 1000 evaluations of `z = add(x, y)` (the library's add: "
          "simt.add, cupy.add, torch.add, numpy.add; for simt `x + y` costs the same) are timed on the host "
          "clock and the device is synchronized; host time / 1000 is one sample, the figure the median over "
          "repetitions, and the last z is checked. It is the host's cost of one array operation: argument "
          "checks, type promotion, the result's allocation and the launch. NumPy runs on the host (no spin). The "
          "CUDA C++ floor does the same in a C++ program: the result from cudaMallocAsync on the device's "
          "pool (release threshold raised, as simt allocates), an add kernel launched with <<<>>>, the "
          "previous result freed with cudaFreeAsync.")

OPS = 1000
LIBS = ("simt", "cupy", "torch", "numpy")


def _samples(lib, reps, spin):
    x = lib.asarray(np.array([1.5], np.float32))
    y = lib.asarray(np.array([2.25], np.float32))
    add = lib.op("add")
    for _ in range(20):  # compiles and caches whatever the first call needs
        z = add(x, y)
    lib.synchronize()
    samples, outlasted = [], 0
    for _ in range(reps):
        if spin:
            spin()
        t0 = time.perf_counter()
        for _ in range(OPS):
            z = add(x, y)
        t1 = time.perf_counter()
        lib.synchronize()
        samples.append((t1 - t0) / OPS)
        outlasted += spin is not None and (t1 - t0) > SPIN_S
    result = lib.to_host(z)
    if result.shape != (1,) or result[0] != np.float32(3.75):
        raise AssertionError(f"x + y gave {result!r}, expected [3.75]")
    return samples, outlasted


class _TorchSpin:
    """PyTorch's own busy-wait kernel (torch.cuda._sleep, in GPU cycles) as a spin kernel."""

    def __init__(self, lib):
        self.torch = lib.torch
        if not hasattr(self.torch.cuda, "_sleep"):
            raise NotAvailable("this PyTorch has no torch.cuda._sleep to keep the GPU busy")
        self.synchronize = lib.synchronize

    def spin(self, iters):
        self.torch.cuda._sleep(int(iters))


def _cell(ctx, name, reps, notes):
    lib = ctx.libs[name]
    reason = lib.unavailable_reason()
    if reason:
        return Cell.na(reason)
    try:
        spin = None
        if name != "numpy":
            kit = _TorchSpin(lib) if name == "torch" else lib.launch_kit()
            iters, seconds = calibrate_spin(kit)
            spin = lambda: kit.spin(iters)  # noqa: E731
            notes.append(f"{name} spin kernel: {iters} iterations = {seconds * 1e3:.1f} ms")
        samples, outlasted = _samples(lib, reps, spin)
    except NotAvailable as e:
        return Cell.na(str(e))
    except Exception as e:
        return Cell.error(f"{type(e).__name__}: {e}")
    note = ""
    if outlasted:
        note = (f"in {outlasted} of {len(samples)} repetitions the 1000 operations took longer than the spin "
                "kernel, so the last ones were not queued behind it")
    cell = Cell.ok(median(samples) * 1e6, note, summarize(samples))
    ctx.log(f"    {name:6s} {cell.value:.3g} µs")
    return cell


@workload("small_op", "Small array operation: host time of x + y on one element (µs)", METHOD)
def run(ctx):
    reps = 5 if ctx.quick else 20
    notes = []
    cells = {name: _cell(ctx, name, reps, notes) for name in LIBS}
    cells["cuda-c++"] = floor_cells(ctx, "small_op", ["x + y"], reps, notes)["x + y"]
    return [Row("x + y, float32, 1 element", "µs", False, cells, params={"operations": OPS})], notes
