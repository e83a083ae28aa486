"""Measures the cuda backend's performance targets on a GPU (run by scripts/gpu-check):
compile times (cold, later new kernels, warm from the disk cache), launch overhead behind a
20 ms kernel, and the seed's vector add bandwidth. Prints one `name: value` line per number."""
import os
import subprocess
import sys
import tempfile
import textwrap
import time

import numpy as np

import simt
from simt import cuda

COMPILE_SCRIPT = textwrap.dedent("""
    import time
    t0 = time.perf_counter()
    import simt
    from simt import cuda
    t1 = time.perf_counter()

    @cuda.jit
    def first(A, B, C):
        i = cuda.grid(1)
        C[i] = A[i] + B[i]

    @cuda.jit
    def second(A, B, C):
        i = cuda.grid(1)
        C[i] = A[i] * B[i] - C[i]

    a = simt.zeros(1024)
    cuda.synchronize()
    t2 = time.perf_counter()
    first[4, 256](a, a, a)
    cuda.synchronize()
    t3 = time.perf_counter()
    second[4, 256](a, a, a)
    cuda.synchronize()
    t4 = time.perf_counter()
    print(f"{(t1 - t0) * 1e3:.1f} {(t3 - t2) * 1e3:.1f} {(t4 - t3) * 1e3:.1f}")
""")


def compile_times():
    """(import ms, first kernel ms, second kernel ms) cold, then the same warm from the disk cache."""
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "compile_probe.py")
        with open(script, "w") as f:
            f.write(COMPILE_SCRIPT)
        env = {**os.environ, "SIMT_CACHE_DIR": cache}
        runs = []
        for _ in range(2):
            r = subprocess.run([sys.executable, script], capture_output=True, text=True, env=env, timeout=120)
            if r.returncode != 0:
                raise RuntimeError(r.stderr)
            runs.append([float(x) for x in r.stdout.split()])
        return runs


@cuda.jit
def spin(A, n):
    i = cuda.grid(1)
    if i < A.size:
        v = A[i]
        for _ in range(n):
            v = v * 0.999999 + 1e-7
        A[i] = v


@cuda.jit
def empty(A, B, C):
    pass


@cuda.jit
def vecadd(A, B, C):
    work_index = cuda.grid(1)
    C[work_index] = A[work_index] + B[work_index]


def spin_iterations_for(ms):
    a = simt.zeros(32)
    n = 100_000
    start, end = cuda.event(), cuda.event()
    for _ in range(6):
        start.record()
        spin[1, 32](a, n)
        end.record()
        took = start.elapsed_time(end)
        if took > ms * 0.8:
            break
        n = int(n * ms / max(took, 0.01) * 1.05)
    return a, n


def launch_overhead_us(launches=1000):
    """Host time per launch of an empty 3-array kernel, queued behind a ~20 ms kernel."""
    a, n = spin_iterations_for(20.0)
    x, y, z = simt.zeros(1024), simt.zeros(1024), simt.zeros(1024)
    empty[1, 32](x, y, z)
    cuda.synchronize()
    best = float("inf")
    for _ in range(5):
        spin[1, 32](a, n)
        t0 = time.perf_counter()
        for _ in range(launches):
            empty[1, 32](x, y, z)
        t1 = time.perf_counter()
        cuda.synchronize()
        best = min(best, (t1 - t0) / launches * 1e6)
    return best


def vecadd_bandwidth_tbs(reps=20):
    n = 2**24 + 11
    a = simt.random.uniform(-1, 1, n)
    b = simt.random.uniform(-1, 1, n)
    c = simt.zeros_like(a)
    grid = (n + 255) // 256
    vecadd[grid, 256](a, b, c)
    cuda.synchronize()
    np.testing.assert_array_almost_equal(c.get(), a.get() + b.get())
    start, end = cuda.event(), cuda.event()
    best = float("inf")
    for _ in range(reps):
        start.record()
        vecadd[grid, 256](a, b, c)
        end.record()
        best = min(best, start.elapsed_time(end))
    return 3 * n * 8 / (best * 1e-3) / 1e12


def main():
    print(f"backend: {simt.backend()}")
    if simt.backend() != "cuda":
        print("not on the cuda backend: nothing to measure")
        return 1
    d = cuda.Device()
    print(f"device: {d.name} (sm_{d.compute_capability[0]}{d.compute_capability[1]})")
    (imp0, first0, second0), (imp1, first1, second1) = compile_times()
    print(f"import_ms: {imp0:.1f}")
    print(f"first_kernel_cold_ms: {first0:.1f}   (target <= 300)")
    print(f"new_kernel_cold_ms: {second0:.1f}   (target <= 40)")
    print(f"kernel_warm_from_disk_ms: {max(first1, second1):.1f}   (target <= 5)")
    print(f"launch_overhead_us: {launch_overhead_us():.2f}   (target <= 3.8: CUDA C++ 3.3 + 0.5)")
    print(f"vecadd_TBps: {vecadd_bandwidth_tbs():.3f}   (target >= 3.44)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
