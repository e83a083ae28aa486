"""Launch overhead: host time per kernel launch, 1000 launches queued behind a ~20 ms spin kernel,
for simt, numba-cuda, CuPy and the CUDA C++ floor (bench/cuda/launch_floor.cu, built with nvcc)."""
import time

from ..affinity import on_one_cpu_for_cuda
from ..host_floor import FloorUnavailable, HostFloor
from ..interleave import interleaved_samples
from ..libs import NotAvailable
from ..model import Cell, Row
from ..stats import median, summarize
from ..suite import workload
from ..timing import host_seconds

METHOD = ("A kernel that busy-waits about 20 ms (a calibrated arithmetic loop; the C++ floor reads the "
          "GPU's global timer) is launched first; then 1000 launches of an empty kernel (grid 1, block 32) "
          "are timed on the host clock and the device is synchronized. Host time / 1000 is one sample; "
          "the figure is the median over repetitions, taken in rounds that sample every implementation in "
          "turn (the order rotating), so all see the same host conditions. The spin kernel keeps the device busy, so the "
          "figure is the host's cost of submitting a launch, not the device's. simt and numba-cuda launch "
          "the same Python kernels as kernel[1, 32](...); CuPy launches CUDA C++ RawKernels; the floor "
          "is the same measurement in a CUDA C++ program using <<<>>> launches. On the cuda backend "
          "all of them run on one CPU (bench/affinity.py), since the cost differs between CPUs. simt's "
          "warm-up ends once its background cubin compiles for the disk cache are done (a cold cache's "
          "one-time work, which would otherwise share that CPU with the timed launches).")

LAUNCHES = 1000
SPIN_S = 0.020
CASES = {0: "empty kernel", 1: "1 array argument", 3: "3 array arguments"}


def calibrate_spin(kit, target_s=SPIN_S):
    """Iterations of the spin kernel that keep the device busy for about target_s; (iters, median
    seconds of three runs). The cost per iteration is the fastest of several timings: on a loaded
    host a run can only take longer, so the spin is at least target_s, never much shorter."""
    kit.spin(10)
    kit.synchronize()
    iters = 100_000
    for _ in range(3):  # grow the probe until it is long enough to time well
        probe = min(host_seconds(lambda: kit.spin(iters), kit.synchronize) for _ in range(3))
        iters = max(1, int(iters * target_s / max(probe, 1e-6)))
        if probe > 0.25 * target_s:
            break
    seconds = median([host_seconds(lambda: kit.spin(iters), kit.synchronize) for _ in range(3)])
    return iters, seconds


def burst_sampler(kit, nargs, spin_iters):
    """A sampler (see interleave.py) of seconds per launch: the spin kernel, then LAUNCHES launches
    timed on the host clock, then a synchronize. The kernel is compiled and loaded here first."""
    kit.burst(nargs, 10)
    kit.synchronize()

    def sample():
        kit.spin(spin_iters)
        t0 = time.perf_counter()
        kit.burst(nargs, LAUNCHES)
        t1 = time.perf_counter()
        kit.synchronize()
        return (t1 - t0) / LAUNCHES
    return sample


def cell_from(samples, spin_s, what="launches", count=LAUNCHES):
    """The Cell of one implementation's samples of seconds per operation, `count` operations a
    repetition (or of the exception that stopped it)."""
    if isinstance(samples, Exception):
        return Cell.error(f"{type(samples).__name__}: {samples}")
    outlasted = sum(s * count > spin_s for s in samples)
    note = ""
    if outlasted:
        note = (f"in {outlasted} of {len(samples)} repetitions the {count} {what} took longer than the spin "
                "kernel, so the last ones were not queued behind it")
    return Cell.ok(median(samples) * 1e6, note, summarize(samples))


def start_floor(ctx, notes):
    """The CUDA C++ floor's server (bench/host_floor.py), or the Cell that says why there is none."""
    if ctx.backend != "cuda":
        return Cell.na("the CUDA C++ floor runs on the cuda backend")
    try:
        floor = HostFloor(ctx.libs["simt"].simt.cuda.Device().compute_capability, LAUNCHES, SPIN_S * 1e3)
    except FloorUnavailable as e:
        return Cell.na(str(e))
    except Exception as e:
        return Cell.error(f"{type(e).__name__}: {e}")
    notes.append(f"cuda-c++ spin kernel: {floor.spin_s * 1e3:.1f} ms (global timer)")
    return floor


def measure_interleaved(ctx, samplers, spins, fixed, reps, floor, what="launches", count=LAUNCHES):
    """Cells keyed like `samplers` (and `fixed`, cells decided beforehand): the samplers' repetitions
    taken in rounds (interleave.py), then the floor's server closed (where it ran)."""
    samples = interleaved_samples(samplers, reps)
    cells = dict(fixed)
    for key, got in samples.items():
        cells[key] = cell_from(got, spins[key[0]], what, count)
        ctx.log(f"    {key[0]:8s} {key[1]}: {cells[key].status} {cells[key].value}")
    if isinstance(floor, HostFloor):
        try:
            floor.close()
        except Exception as e:
            for key in samples:
                if key[0] == "cuda-c++":
                    cells[key] = Cell.error(f"{type(e).__name__}: {e}")
    return cells


@workload("launch", "Launch overhead: host time per launch (µs)", METHOD)
def run(ctx):
    return on_one_cpu_for_cuda(ctx, _measure)


def _measure(ctx, notes):
    reps = 11 if ctx.quick else 21  # odd: the median is one sample
    samplers, spins, fixed = {}, {}, {}
    for name in ("simt", "numba", "cupy"):
        try:
            kit = ctx.libs[name].launch_kit()
            iters, spins[name] = calibrate_spin(kit)
            notes.append(f"{name} spin kernel: {iters} iterations = {spins[name] * 1e3:.1f} ms")
            for nargs in CASES:
                samplers[(name, nargs)] = burst_sampler(kit, nargs, iters)
        except NotAvailable as e:
            fixed.update({(name, nargs): Cell.na(str(e)) for nargs in CASES})
        except Exception as e:
            fixed.update({(name, nargs): Cell.error(f"{type(e).__name__}: {e}") for nargs in CASES})
    floor = start_floor(ctx, notes)
    if isinstance(floor, HostFloor):
        spins["cuda-c++"] = floor.spin_s
        for nargs, label in CASES.items():
            samplers[("cuda-c++", nargs)] = lambda label=label: floor.sample(label)
    else:
        fixed.update({("cuda-c++", nargs): floor for nargs in CASES})
    cells = measure_interleaved(ctx, samplers, spins, fixed, reps, floor)
    names = ("simt", "numba", "cupy", "cuda-c++")
    return [Row(label, "µs", False, {name: cells[(name, nargs)] for name in names},
                params={"arguments": nargs, "launches": LAUNCHES}) for nargs, label in CASES.items()], notes
