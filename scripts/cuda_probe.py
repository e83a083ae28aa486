"""Measures the cuda backend's performance targets on a GPU (run by scripts/gpu-check):
compile times (cold, later new kernels, warm from the disk cache), launch overhead behind a
20 ms kernel, and the seed's vector add bandwidth. Prints one `name: value` line per number.
With --compile-variants: compile time and code speed under other NVRTC settings instead."""
import os
import statistics
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

    # Later new kernels, each different.
    @cuda.jit
    def k1(A, B, C):
        i = cuda.grid(1)
        C[i] = A[i] * B[i] - C[i]

    @cuda.jit
    def k2(A, B, C):
        i = cuda.grid(1)
        if i < C.size:
            C[i] = max(A[i], B[i])

    @cuda.jit
    def k3(A, B, C):
        i = cuda.grid(1)
        s = 0.0
        for j in range(4):
            s += A[i] * j
        C[i] = s + B[i]

    @cuda.jit
    def k4(A, B, C):
        i = cuda.grid(1)
        C[i] = A[i] / (B[i] + 1.0)

    @cuda.jit
    def k5(A, B, C):
        i = cuda.grid(1)
        if A[i] > B[i]:
            C[i] = A[i]
        else:
            C[i] = -B[i]

    a = simt.zeros(1024)
    cuda.synchronize()
    t2 = time.perf_counter()
    first[4, 256](a, a, a)
    cuda.synchronize()
    t3 = time.perf_counter()
    print(f"{(t1 - t0) * 1e3:.1f} {(t3 - t2) * 1e3:.1f}")
    for k in (k1, k2, k3, k4, k5):
        t = time.perf_counter()
        k[4, 256](a, a, a)
        cuda.synchronize()
        total = (time.perf_counter() - t) * 1e3
        c = simt._simt.compile_counters()
        print(f"{total:.1f} {c['last_front_end_ms']:.2f} {c['last_load_ms']:.1f} {c['last_compiler_ms']:.1f} "
              f"{c['last_driver_jit_ms']:.1f} {c['last_nvvm_ms']:.1f}")
""")


def compile_times(cold_runs=3, env=None):
    """`cold_runs` processes with an empty kernel cache, then one more finding the last one's
    kernels on disk. Per process: import ms, first kernel ms, and for each later new kernel
    [total, front end, backend load, NVRTC, driver JIT, libNVVM] ms. The driver's own JIT cache is off, so
    that every cold run really compiles its PTX. `env`: further environment variables."""
    with tempfile.TemporaryDirectory() as work:
        script = os.path.join(work, "compile_probe.py")
        with open(script, "w") as f:
            f.write(COMPILE_SCRIPT)
        runs = []
        for i in range(cold_runs + 1):
            cache = os.path.join(work, f"cache{min(i, cold_runs - 1)}")
            run_env = {**os.environ, "SIMT_CACHE_DIR": cache, "CUDA_CACHE_DISABLE": "1", **(env or {})}
            r = subprocess.run([sys.executable, script], capture_output=True, text=True, env=run_env, timeout=120)
            if r.returncode != 0:
                raise RuntimeError(r.stderr)
            lines = [[float(x) for x in line.split()] for line in r.stdout.splitlines()]
            runs.append((lines[0][0], lines[0][1], lines[1:]))
        return runs[:-1], runs[-1]


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


def launch_overhead_us(rounds=7, launches=1000):
    """Host time per launch of an empty 3-array kernel queued behind a ~20 ms kernel, median of
    `rounds`; beside it the CUDA C++ floor of the same launch (bench/host_floor.py), sampled in
    the same rounds, or the reason it could not run."""
    a, n = spin_iterations_for(20.0)
    x, y, z = simt.zeros(1024), simt.zeros(1024), simt.zeros(1024)
    empty[1, 32](x, y, z)
    cuda.synchronize()
    simt._simt._wait_for_cubin_backfill()  # a cold cache's background compiles: not launch cost
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    from bench.host_floor import HostFloor
    try:
        floor = HostFloor(cuda.Device().compute_capability, launches, 20.0)
    except Exception as e:
        floor, why = None, f"{type(e).__name__}: {e}"
    ours, theirs = [], []
    try:
        for _ in range(rounds):
            spin[1, 32](a, n)
            t0 = time.perf_counter()
            for _ in range(launches):
                empty[1, 32](x, y, z)
            t1 = time.perf_counter()
            cuda.synchronize()
            ours.append((t1 - t0) / launches * 1e6)
            if floor:
                theirs.append(floor.sample("3 array arguments") * 1e6)
    finally:
        if floor:
            floor.close()
    if not floor:
        return statistics.median(ours), f"CUDA C++ floor not measured: {why}"
    return statistics.median(ours), f"CUDA C++ floor {statistics.median(theirs):.2f} in the same rounds; target <= floor + 0.5"


VECADD_SCRIPT = textwrap.dedent("""
    import sys
    sys.argv = ["probe"]
    import simt
    from scripts.cuda_probe import vecadd_bandwidth_tbs
    print(vecadd_bandwidth_tbs(), simt._simt.compile_counters()["nvvm_compiled"])
""")


def vecadd_both_ways():
    """The seed's vecadd in TB/s through the NVVM IR path and through NVRTC (SIMT_NVVM=0), each
    in a fresh process with an empty cache; and how many kernels each compiled through NVVM."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = {}
    for name, env in (("nvvm", {}), ("nvrtc", {"SIMT_NVVM": "0"})):
        run_env = {**os.environ, **env, "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
        with tempfile.TemporaryDirectory() as cache:
            run_env["SIMT_CACHE_DIR"] = cache
            r = subprocess.run([sys.executable, "-c", VECADD_SCRIPT], capture_output=True, text=True, env=run_env,
                               timeout=120, cwd=root)
        if r.returncode != 0:
            raise RuntimeError(r.stderr)
        tbs, nvvm = r.stdout.split()[-2:]
        out[name] = (float(tbs), int(nvvm))
    return out


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


def nvrtc_floor_ms(reps=6):
    """NVRTC alone on this machine: the median time to compile an empty kernel to a cubin for the
    current device (later compiles in a process; the first one pays NVRTC's start-up)."""
    import ctypes
    from simt.pathfinder import find_nvrtc
    nv = ctypes.CDLL(find_nvrtc())
    cc = cuda.Device().compute_capability
    options = [f"--gpu-architecture=sm_{cc[0]}{cc[1]}".encode(), b"--std=c++17"]
    argv = (ctypes.c_char_p * len(options))(*options)
    times = []
    for i in range(reps + 1):
        prog = ctypes.c_void_p()
        src = f'extern "C" __global__ void empty{i}(float* a) {{ a[0] = {i}; }}'.encode()
        if nv.nvrtcCreateProgram(ctypes.byref(prog), src, b"floor.cu", 0, None, None) != 0:
            raise RuntimeError("nvrtcCreateProgram failed")
        t = time.perf_counter()
        r = nv.nvrtcCompileProgram(prog, len(options), argv)
        times.append((time.perf_counter() - t) * 1e3)
        nv.nvrtcDestroyProgram(ctypes.byref(prog))
        if r != 0:
            raise RuntimeError(f"NVRTC failed on an empty kernel ({r})")
    return statistics.median(times[1:])


MATMUL_SCRIPT = textwrap.dedent("""
    import numpy as np
    import simt
    from simt import cuda
    from bench.kernels import compile_with, launch_tiled_matmul, tiled_matmul

    n = 4096
    k = compile_with(cuda, tiled_matmul, boundscheck=False)
    a = simt.random.uniform(-1, 1, (n, n)).astype(np.float32)
    b = simt.random.uniform(-1, 1, (n, n)).astype(np.float32)
    c = simt.zeros((n, n), np.float32)
    launch_tiled_matmul(k, a, b, c)
    cuda.synchronize()
    rows = np.arange(0, n, 512)
    ref = a.get()[rows].astype(np.float64) @ b.get().astype(np.float64)
    np.testing.assert_allclose(c.get()[rows], ref, rtol=1e-3, atol=1e-2)
    start, end = cuda.event(), cuda.event()
    best = float("inf")
    for _ in range(10):
        start.record()
        launch_tiled_matmul(k, a, b, c)
        end.record()
        best = min(best, start.elapsed_time(end))
    print(2 * n**3 / (best * 1e-3) / 1e12)
""")


def matmul_tflops(env=None):
    """TFLOP/s of the bench's unchecked 16x16 tiled matmul at 4096 (best of 10), in a fresh
    process with `env` added (how the kernel was compiled decides its speed)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    run_env = {**os.environ, **(env or {}), "PYTHONPATH": root + os.pathsep + os.environ.get("PYTHONPATH", "")}
    with tempfile.TemporaryDirectory() as cache:
        run_env["SIMT_CACHE_DIR"] = cache
        r = subprocess.run([sys.executable, "-c", MATMUL_SCRIPT], capture_output=True, text=True, env=run_env,
                           timeout=120)
    if r.returncode != 0:
        raise RuntimeError(r.stderr)
    return float(r.stdout.split()[-1])


# NVRTC settings whose compile time and code speed --compile-variants compares with the default.
COMPILE_VARIANTS = [("no precompiled prelude", {"SIMT_NVRTC_PCH": "0"}),
                    ("--Ofast-compile=min", {"SIMT_NVRTC_OPTIONS": "--Ofast-compile=min"}),
                    ("--Ofast-compile=mid", {"SIMT_NVRTC_OPTIONS": "--Ofast-compile=mid"}),
                    ("--Ofast-compile=max", {"SIMT_NVRTC_OPTIONS": "--Ofast-compile=max"})]


def compile_variants():
    """Later-new-kernel compile time (median over 2 cold processes x 5 kernels) and tiled matmul
    TFLOP/s for the default NVRTC settings and each of COMPILE_VARIANTS."""
    print(f"{'variant':26s} {'new kernel ms':>13s} {'NVRTC ms':>9s} {'matmul TFLOP/s':>15s}")
    for name, env in [("default", {})] + COMPILE_VARIANTS:
        cold, _ = compile_times(cold_runs=2, env=env)
        later = [row for _, _, rows in cold for row in rows]
        print(f"{name:26s} {statistics.median(r[0] for r in later):13.1f} {statistics.median(r[3] for r in later):9.1f} "
              f"{matmul_tflops(env):15.2f}", flush=True)
    return 0


def main():
    if "--compile-variants" in sys.argv:
        return compile_variants()
    print(f"backend: {simt.backend()}")
    if simt.backend() != "cuda":
        print("not on the cuda backend: nothing to measure")
        return 1
    d = cuda.Device()
    print(f"device: {d.name} (sm_{d.compute_capability[0]}{d.compute_capability[1]})")
    cold, (imp1, first1, later1) = compile_times()
    later0 = [row for _, _, rows in cold for row in rows]
    for imp, first, rows in cold:
        print(f"  process: import {imp:.1f} ms, first kernel {first:.1f} ms")
        for total, front, load, compiler, jit, nvvm in rows:
            print(f"    new kernel: {total:.1f} ms = front end {front:.2f} + backend load {load:.1f} "
                  f"(libNVVM {nvvm:.1f}, NVRTC {compiler:.1f}, driver JIT {jit:.1f}) + launch/sync")
    print(f"import_ms: {statistics.median(imp for imp, _, _ in cold):.1f}   (median)")
    print(f"first_kernel_cold_ms: {statistics.median(first for _, first, _ in cold):.1f}   (median; target <= 300)")
    print(f"new_kernel_cold_ms: {statistics.median(row[0] for row in later0):.1f}   "
          f"(median of {len(later0)}: libNVVM {statistics.median(row[5] for row in later0):.1f}, "
          f"driver JIT {statistics.median(row[4] for row in later0):.1f}; target <= 40)")
    # The same kernels through NVRTC's cubins (SIMT_NVVM=0): what the NVVM IR path saves.
    nvrtc_cold, _ = compile_times(cold_runs=2, env={"SIMT_NVVM": "0"})
    nvrtc_later = [row for _, _, rows in nvrtc_cold for row in rows]
    print(f"new_kernel_cold_nvrtc_ms: {statistics.median(row[0] for row in nvrtc_later):.1f}   "
          f"(median of {len(nvrtc_later)} with SIMT_NVVM=0: NVRTC {statistics.median(row[3] for row in nvrtc_later):.1f})")
    print(f"matmul_TFLOPs: {matmul_tflops():.2f}   (16x16 tiles, unchecked, 4096; shared memory: NVRTC cubin)")
    both = vecadd_both_ways()
    print(f"vecadd_nvvm_vs_nvrtc_TBps: {both['nvvm'][0]:.3f} / {both['nvrtc'][0]:.3f}   "
          f"(2**24 float64, fresh processes; kernels through NVVM: {both['nvvm'][1]} / {both['nvrtc'][1]})")
    print(f"nvrtc_empty_kernel_ms: {nvrtc_floor_ms():.1f}   (NVRTC alone, empty kernel to a cubin, on this machine now)")
    print(f"front_end_ms: {max(row[1] for row in later0):.2f}   (max; target <= 1)")
    print(f"kernel_warm_from_disk_ms: {max([first1] + [row[0] for row in later1]):.1f}   (max; target <= 5)")
    launch_us, beside = launch_overhead_us()
    print(f"launch_overhead_us: {launch_us:.2f}   (median of 7; {beside})")
    print(f"vecadd_TBps: {vecadd_bandwidth_tbs():.3f}   (target >= 3.44)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
