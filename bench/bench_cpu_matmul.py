"""cpu backend: numba's 16x16 shared-memory tiled matmul (512x512 float32) against a plain triple
loop in C++ compiled with -O3 on the same machine. Prints both times and the ratio; exits with
status 1 when the kernel is more than 3x slower than the C++ loop (the target)."""
import os
import shutil
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("SIMT_BACKEND", "cpu")

import numpy as np  # noqa: E402

import simt  # noqa: E402
from simt import cuda  # noqa: E402

N = 512
REPEATS = 5
TARGET_RATIO = 3.0


# The kernel the benchmark suite also runs on GPUs beside numba-cuda (bench/kernels.py).
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from bench.kernels import TPB, compile_with, tiled_matmul  # noqa: E402

fast_matmul = compile_with(cuda, tiled_matmul)


CPP_REFERENCE = r"""
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <vector>
int main(int argc, char** argv) {
    const int n = std::atoi(argv[1]), repeats = std::atoi(argv[2]);
    std::vector<float> A(n * n), B(n * n), C(n * n);
    unsigned s = 12345;
    for (float& v : A) { s = s * 1664525u + 1013904223u; v = float(s >> 8) / 16777216.0f; }
    for (float& v : B) { s = s * 1664525u + 1013904223u; v = float(s >> 8) / 16777216.0f; }
    double best = 1e30, check = 0;
    for (int r = 0; r < repeats; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) {
                float sum = 0;
                for (int k = 0; k < n; ++k) sum += A[i * n + k] * B[k * n + j];
                C[i * n + j] = sum;
            }
        double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        if (t < best) best = t;
        check += C[(r * 7919) % (n * n)];
    }
    std::printf("%.9f %g\n", best, check);
}
"""


def time_cpp_reference():
    cxx = os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")
    if not cxx:
        sys.exit("bench_cpu_matmul: no C++ compiler found (set CXX)")
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "matmul.cpp"), os.path.join(tmp, "matmul")
        with open(src, "w") as f:
            f.write(CPP_REFERENCE)
        subprocess.run(cxx.split() + ["-O3", "-std=c++17", src, "-o", exe], check=True)
        out = subprocess.run([exe, str(N), str(REPEATS)], check=True, capture_output=True, text=True).stdout
    return float(out.split()[0])


def time_kernel():
    rng = np.random.default_rng(0)
    a = rng.random((N, N), dtype=np.float32)
    b = rng.random((N, N), dtype=np.float32)
    da, db, dc = simt.asarray(a), simt.asarray(b), simt.zeros((N, N), dtype=np.float32)
    grid = ((N + TPB - 1) // TPB, (N + TPB - 1) // TPB)
    fast_matmul[grid, (TPB, TPB)](da, db, dc)  # compile and warm up
    simt.synchronize()
    best = float("inf")
    for _ in range(REPEATS):
        t0 = time.perf_counter()
        fast_matmul[grid, (TPB, TPB)](da, db, dc)
        simt.synchronize()
        best = min(best, time.perf_counter() - t0)
    np.testing.assert_allclose(dc.get(), a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4)
    return best


def main():
    if simt.backend() != "cpu":
        sys.exit("bench_cpu_matmul measures the cpu backend; run with SIMT_BACKEND=cpu")
    kernel = time_kernel()
    reference = time_cpp_reference()
    ratio = kernel / reference
    threads = int(os.environ.get("SIMT_NUM_THREADS", "0")) or os.cpu_count()
    print(f"tiled matmul {N}x{N} float32, {TPB}x{TPB} tiles, cpu backend ({threads} threads): {kernel * 1e3:.1f} ms")
    print(f"plain triple loop in C++ (-O3, 1 thread):                          {reference * 1e3:.1f} ms")
    print(f"ratio kernel / C++: {ratio:.2f} (target: at most {TARGET_RATIO:.0f})")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    sys.exit(main())
