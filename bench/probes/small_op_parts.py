"""Where the host time of `x + y` on one element goes (python -m bench.probes.small_op_parts):
each part timed as 1000 calls behind a ~20 ms spin kernel, median of repetitions, for simt and
CuPy side by side. Parts: allocating (and freeing) a one-element result, or allocating and
keeping it; the ufunc into an existing output; the whole `x + y`, also with results kept (no
frees); and an empty 3-array kernel launch, also timed inside simt's C++ (without Python's part)
and through its backend alone (the driver's cost and little else); the CUDA C++ floor of x + y and
of the launch beside them. Prints one line per part."""
import sys
import time

import numpy as np

from bench.affinity import one_cpu
from bench.libs import Cupy, Simt
from bench.stats import median
from bench.workloads.launch import calibrate_spin

CALLS = 1000


def per_call(fn, spin, synchronize, reps=15, timed=None):
    """Median µs per call of CALLS calls of fn behind the spin kernel; `timed`, where given, makes
    the CALLS calls itself and returns their seconds."""
    fn()
    synchronize()
    samples = []
    for _ in range(reps):
        spin()
        if timed:
            seconds = timed()
        else:
            t0 = time.perf_counter()
            for _ in range(CALLS):
                fn()
            seconds = time.perf_counter() - t0
        samples.append(seconds / CALLS)
        synchronize()
    return median(samples) * 1e6


def parts(lib, xp):
    kit = lib.launch_kit()
    iters, _ = calibrate_spin(kit)
    x = xp.asarray(np.array([1.5], np.float32))
    y = xp.asarray(np.array([2.25], np.float32))
    z = xp.empty(1, np.float32)
    spin = lambda: kit.spin(iters)  # noqa: E731
    kept = []  # results held, so that a row times allocation without the free
    rows = {
        "empty(1) alloc+free": lambda: xp.empty(1, np.float32),
        "empty(1) alloc, kept": lambda: kept.append(xp.empty(1, np.float32)),
        "add(x, y, out=z)": lambda: xp.add(x, y, out=z),
        "x + y": lambda: x + y,
        "x + y, result kept": lambda: kept.append(x + y),
        "empty kernel, 3 arrays": lambda: kit.burst(3, 1),
    }
    times = {}
    for name, fn in rows.items():
        times[name] = per_call(fn, spin, kit.synchronize)
        kept.clear()
        kit.synchronize()
    if lib.name == "simt":  # the launch without Python's part, and without simt's
        configured = lib.kernels().empties[3][1, 32]
        arrays = tuple(kit._arrays)
        for name, backend_only in (("launch, C++ path only", False), ("launch, backend only", True)):
            times[name] = per_call(lambda: None, spin, kit.synchronize, timed=lambda: lib.simt._simt._time_launches(
                configured, arrays, CALLS, backend_only))
    return times


def floor_parts(simt):
    """The CUDA C++ floor of two parts (bench/host_floor.py), or {} where it cannot run."""
    from bench.host_floor import HostFloor
    try:
        floor = HostFloor(simt.cuda.Device().compute_capability, CALLS, 20.0)
    except Exception as e:
        print(f"cuda-c++: {type(e).__name__}: {e}", file=sys.stderr)
        return {}
    try:
        return {part: median([floor.sample(case) for _ in range(15)]) * 1e6
                for part, case in (("x + y", "x + y"), ("empty kernel, 3 arrays", "3 array arguments"))}
    finally:
        floor.close()


def main():
    notes = []
    with one_cpu(notes):  # every library and the floor on the same CPU (bench/affinity.py)
        results = measure_all()
    print(*notes, sep="\n", file=sys.stderr)
    names = list(next(iter(results.values())).keys()) if results else []
    print(f"{'part (µs per call)':28}" + "".join(f"{n:>10}" for n in results))
    for part in names:
        print(f"{part:28}" + "".join(f"{results[n][part]:10.2f}" if part in results[n] else f"{'-':>10}"
                                     for n in results))


def measure_all():
    libs = [Simt("cuda"), Cupy("cuda")]
    results = {}
    for lib in libs:
        reason = lib.unavailable_reason()
        if reason:
            print(f"{lib.name}: {reason}", file=sys.stderr)
            continue
        xp = lib.simt if lib.name == "simt" else lib.cupy
        results[lib.name] = parts(lib, xp)
    if "simt" in results:
        results["cuda-c++"] = floor_parts(libs[0].simt)
    return results


if __name__ == "__main__":
    main()
