"""Run in a fresh process (python -m bench.probes.first_launch LIB): the time of the first launch
of the seed's vecadd, compilation or cache load included; of a new @cuda.jit / RawKernel of the
same function (found compiled in memory, where the library keeps it); and of a different kernel
launched after those (the cost of each later new kernel in a process). Prints one JSON object."""
import json
import sys
import time

import numpy as np

N = 1000
BLOCK = 256

CUPY_VECADD = r"""
extern "C" __global__ void vecadd(const double* A, const double* B, double* C, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) C[i] = A[i] + B[i];
}
"""
CUPY_SCALED_DIFFERENCE = r"""
extern "C" __global__ void scaled_difference(const double* A, const double* B, double* C, long long n) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) C[i] = 2.0 * A[i] - B[i];
}
"""


def _timed(launch, synchronize):
    t0 = time.perf_counter()
    launch()
    synchronize()
    return time.perf_counter() - t0


def run_simt(a, b):
    t0 = time.perf_counter()
    import simt
    from simt import cuda

    from bench.kernels import compile_with, scaled_difference, vecadd
    out = {"import_s": time.perf_counter() - t0}
    da, db, dc = simt.asarray(a), simt.asarray(b), simt.zeros(N)
    simt.synchronize()  # the runtime is up before the clock starts
    counters = getattr(simt._simt, "compile_counters", dict)
    before = counters()
    k = compile_with(cuda, vecadd)
    out["first_launch_s"] = _timed(lambda: k[(N + BLOCK - 1) // BLOCK, BLOCK](da, db, dc), simt.synchronize)
    out["counters"] = {key: value - before.get(key, 0) for key, value in counters().items()}
    out["correct"] = bool(np.array_equal(dc.get(), a + b))
    again = compile_with(cuda, vecadd)
    dc2 = simt.zeros(N)
    out["hot_s"] = _timed(lambda: again[(N + BLOCK - 1) // BLOCK, BLOCK](da, db, dc2), simt.synchronize)
    out["correct"] = out["correct"] and bool(np.array_equal(dc2.get(), a + b))
    later = compile_with(cuda, scaled_difference)
    out["later_s"] = _timed(lambda: later[(N + BLOCK - 1) // BLOCK, BLOCK](da, db, dc2), simt.synchronize)
    out["correct"] = out["correct"] and bool(np.array_equal(dc2.get(), 2.0 * a - b))
    return out


def run_numba(a, b):
    np.row_stack = np.vstack  # numba-cuda 0.30 with NumPy 2.5
    t0 = time.perf_counter()
    from numba import cuda

    from bench.kernels import compile_with, scaled_difference, vecadd
    out = {"import_s": time.perf_counter() - t0}
    da, db, dc = cuda.to_device(a), cuda.to_device(b), cuda.device_array(N)
    cuda.synchronize()
    k = compile_with(cuda, vecadd, cache=True)  # NUMBA_CACHE_DIR is set by the parent
    out["first_launch_s"] = _timed(lambda: k[(N + BLOCK - 1) // BLOCK, BLOCK](da, db, dc), cuda.synchronize)
    out["correct"] = bool(np.array_equal(dc.copy_to_host(), a + b))
    later = compile_with(cuda, scaled_difference, cache=True)
    out["later_s"] = _timed(lambda: later[(N + BLOCK - 1) // BLOCK, BLOCK](da, db, dc), cuda.synchronize)
    out["correct"] = out["correct"] and bool(np.array_equal(dc.copy_to_host(), 2.0 * a - b))
    return out


def run_cupy(a, b):
    t0 = time.perf_counter()
    import cupy
    out = {"import_s": time.perf_counter() - t0}
    da, db, dc = cupy.asarray(a), cupy.asarray(b), cupy.zeros(N)
    sync = cupy.cuda.runtime.deviceSynchronize
    sync()
    grid = ((N + BLOCK - 1) // BLOCK,)
    k = cupy.RawKernel(CUPY_VECADD, "vecadd")  # CUPY_CACHE_DIR is set by the parent
    out["first_launch_s"] = _timed(lambda: k(grid, (BLOCK,), (da, db, dc, np.int64(N))), sync)
    out["correct"] = bool(np.array_equal(cupy.asnumpy(dc), a + b))
    again = cupy.RawKernel(CUPY_VECADD, "vecadd")
    dc2 = cupy.zeros(N)
    out["hot_s"] = _timed(lambda: again(grid, (BLOCK,), (da, db, dc2, np.int64(N))), sync)
    out["correct"] = out["correct"] and bool(np.array_equal(cupy.asnumpy(dc2), a + b))
    later = cupy.RawKernel(CUPY_SCALED_DIFFERENCE, "scaled_difference")
    out["later_s"] = _timed(lambda: later(grid, (BLOCK,), (da, db, dc2, np.int64(N))), sync)
    out["correct"] = out["correct"] and bool(np.array_equal(cupy.asnumpy(dc2), 2.0 * a - b))
    return out


def main(lib):
    rng = np.random.default_rng(1)
    a, b = rng.uniform(-1, 1, N), rng.uniform(-1, 1, N)
    runners = {"simt": run_simt, "numba": run_numba, "cupy": run_cupy}
    print(json.dumps(runners[lib](a, b)))


if __name__ == "__main__":
    main(sys.argv[1])
