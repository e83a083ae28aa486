"""Launch overhead: host time per kernel launch, 1000 launches queued behind a ~20 ms spin kernel,
for simt, numba-cuda, CuPy and the CUDA C++ floor (bench/cuda/launch_floor.cu, built with nvcc)."""
import json
import os
import subprocess
import tempfile
import time

from ..libs import NotAvailable
from ..machine import find_nvcc
from ..model import Cell, Row
from ..stats import median, summarize
from ..suite import workload
from ..timing import host_seconds

METHOD = ("A kernel that busy-waits about 20 ms (a calibrated arithmetic loop; the C++ floor reads the "
          "GPU's global timer) is launched first; then 1000 launches of an empty kernel (grid 1, block 32) "
          "are timed on the host clock and the device is synchronized. Host time / 1000 is one sample; "
          "the figure is the median over repetitions. The spin kernel keeps the device busy, so the "
          "figure is the host's cost of submitting a launch, not the device's. simt and numba-cuda launch "
          "the same Python kernels as kernel[1, 32](...); CuPy launches CUDA C++ RawKernels; the floor "
          "is the same measurement in a CUDA C++ program using <<<>>> launches.")

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


def measure_bursts(kit, nargs, reps, spin_iters, spin_s):
    """Seconds per launch for each repetition, and how many repetitions outlasted the spin kernel."""
    kit.burst(nargs, 10)  # warm-up: compiles and loads the kernel
    kit.synchronize()
    samples, outlasted = [], 0
    for _ in range(reps):
        kit.spin(spin_iters)
        t0 = time.perf_counter()
        kit.burst(nargs, LAUNCHES)
        t1 = time.perf_counter()
        kit.synchronize()
        samples.append((t1 - t0) / LAUNCHES)
        outlasted += (t1 - t0) > spin_s
    return samples, outlasted


def _cell(samples, outlasted):
    stats = summarize(samples)
    note = ""
    if outlasted:
        note = (f"in {outlasted} of {len(samples)} repetitions the 1000 launches took longer than the spin "
                "kernel, so the last ones were not queued behind it")
    return Cell.ok(median(samples) * 1e6, note, stats)


def _python_cells(ctx, name, reps, notes):
    lib = ctx.libs[name]
    try:
        kit = lib.launch_kit()
    except NotAvailable as e:
        return {nargs: Cell.na(str(e)) for nargs in CASES}
    except Exception as e:
        return {nargs: Cell.error(f"{type(e).__name__}: {e}") for nargs in CASES}
    iters, spin_s = calibrate_spin(kit)
    notes.append(f"{name} spin kernel: {iters} iterations = {spin_s * 1e3:.1f} ms")
    cells = {}
    for nargs in CASES:
        try:
            cells[nargs] = _cell(*measure_bursts(kit, nargs, reps, iters, spin_s))
        except Exception as e:
            cells[nargs] = Cell.error(f"{type(e).__name__}: {e}")
        ctx.log(f"    {name:6s} {CASES[nargs]}: {cells[nargs].status} {cells[nargs].value}")
    return cells


def _run_floor(ctx, which, reps):
    """Runs bench/cuda/launch_floor.cu's `which` measurement (built with nvcc for this device in a
    child process): its JSON output, or the reason it has no figures as a Cell (n/a or error)."""
    nvcc = find_nvcc()
    if ctx.backend != "cuda":
        return Cell.na("the CUDA C++ floor runs on the cuda backend")
    if not nvcc:
        return Cell.na("nvcc not found")
    major, minor = ctx.libs["simt"].simt.cuda.Device().compute_capability
    source = os.path.join(os.path.dirname(os.path.dirname(__file__)), "cuda", "launch_floor.cu")
    with tempfile.TemporaryDirectory(prefix="simt-bench-") as tmp:
        exe = os.path.join(tmp, "launch_floor")
        built = subprocess.run([nvcc, "-O2", f"-arch=sm_{major}{minor}", "-o", exe, source],
                               capture_output=True, text=True, timeout=300)
        if built.returncode:
            return Cell.error(f"nvcc failed: {built.stderr.strip()[-300:]}")
        ran = subprocess.run([exe, str(reps), str(LAUNCHES), str(SPIN_S * 1e3), which], capture_output=True,
                             text=True, timeout=300)
    if ran.returncode:
        return Cell.error(f"launch_floor failed: {ran.stderr.strip()[-300:]}")
    return json.loads(ran.stdout)


def floor_cells(ctx, which, labels, reps, notes):
    """{label: Cell} of the CUDA C++ floor's `which` measurement (see _run_floor)."""
    out = _run_floor(ctx, which, reps)
    if isinstance(out, Cell):
        return {label: out for label in labels}
    notes.append(f"cuda-c++ spin kernel: {out['spin_s'] * 1e3:.1f} ms (global timer)")
    return {label: _cell(out[label], sum(s * LAUNCHES > out["spin_s"] for s in out[label])) for label in labels}


@workload("launch", "Launch overhead: host time per launch (µs)", METHOD)
def run(ctx):
    reps = 5 if ctx.quick else 20
    notes = []
    per_lib = {name: _python_cells(ctx, name, reps, notes) for name in ("simt", "numba", "cupy")}
    floor = floor_cells(ctx, "launch", CASES.values(), reps, notes)
    per_lib["cuda-c++"] = {n: floor[label] for n, label in CASES.items()}
    rows = []
    for nargs, label in CASES.items():
        rows.append(Row(label, "µs", False, {name: cells[nargs] for name, cells in per_lib.items()},
                        params={"arguments": nargs, "launches": LAUNCHES}))
    return rows, notes
