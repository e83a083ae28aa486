"""The cpu backend's kernel-language costs: the tiled matrix product beside a plain C++ triple loop
(bench/cpu/triple_loop.cpp, built with the host compiler at -O3), and what one fiber switch costs
a kernel whose threads meet at barriers or exchange values in a warp."""
import os
import shutil
import subprocess
import tempfile
import time

from ..model import Cell, Row
from ..suite import backend, workload

CPP_LOOP = "c++ -O3 loop"          # the anchor column of the tiled matmul rows on the cpu backend
TILED_TARGET_RATIO = 3.0           # kernel-language issue: the tiled kernel within 3x of the loop


def _compiler():
    return os.environ.get("CXX") or shutil.which("c++") or shutil.which("g++") or shutil.which("clang++")


def cpp_loop_cell(n, repeats, scale):
    """FLOP/s (in units of `scale`) of the C++ triple loop on n x n float32 matrices, one thread."""
    cxx = _compiler()
    if not cxx:
        return Cell.na("no C++ compiler found (set CXX)")
    source = os.path.join(os.path.dirname(os.path.dirname(__file__)), "cpu", "triple_loop.cpp")
    with tempfile.TemporaryDirectory(prefix="simt-bench-") as tmp:
        exe = os.path.join(tmp, "triple_loop")
        built = subprocess.run(cxx.split() + ["-O3", "-std=c++17", source, "-o", exe], capture_output=True, text=True,
                               timeout=300)
        if built.returncode:
            return Cell.error(f"{cxx} failed: {built.stderr.strip()[-300:]}")
        ran = subprocess.run([exe, str(n), str(repeats)], capture_output=True, text=True, timeout=600)
    if ran.returncode:
        return Cell.error(f"triple_loop failed: {ran.stderr.strip()[-300:]}")
    seconds = float(ran.stdout.split()[0])
    return Cell.ok(2.0 * n ** 3 / seconds / scale, "one thread, best of the repetitions",
                   {"best_s": seconds, "repeats": repeats})


def tiled_target_note():
    return (f"target (kernel-language issue): on the cpu backend the tiled kernel at n = 512 takes at most "
            f"{TILED_TARGET_RATIO:g}x the time of the {CPP_LOOP} (simt/{CPP_LOOP} <= {TILED_TARGET_RATIO:g}x)")


FIBER_METHOD = ("One block on one worker thread; its threads meet at a barrier inside a device function (which "
                "makes the kernel run its threads as fibers) 2,000,000 / threads times, or exchange a value with "
                "shfl_xor_sync; each thread waiting at a barrier hands over to the next, so one crossing costs one "
                "switch per thread. ns per switch = best time of 5 launches / (threads x rounds).")


def _fiber_kernels():
    from simt import cuda

    @cuda.jit(device=True)
    def wait_for_block():
        cuda.syncthreads()

    @cuda.jit
    def barriers(rounds, out):
        for _ in range(rounds):
            wait_for_block()
        out[cuda.threadIdx.x] = rounds

    @cuda.jit
    def shuffles(rounds, out):
        v = cuda.threadIdx.x
        for _ in range(rounds):
            v = cuda.shfl_xor_sync(0xFFFFFFFF, v, 1)
        out[cuda.threadIdx.x] = v

    return barriers, shuffles


def _ns_per_switch(kernel, threads, rounds, expected, reps):
    import numpy as np
    import simt

    out = simt.zeros(threads)
    kernel[1, threads](1, out)  # compile, create the fiber stacks
    simt.synchronize()
    best = float("inf")
    for _ in range(reps):
        t0 = time.perf_counter()
        kernel[1, threads](rounds, out)
        simt.synchronize()
        best = min(best, time.perf_counter() - t0)
    ns = best / (threads * rounds) * 1e9
    if not np.array_equal(out.get(), expected):
        return Cell.wrong(ns, "the kernel's output differs from the expected values")
    return Cell.ok(ns, "", {"best_s": best, "rounds": rounds})


@workload("fiber_switch", "cpu backend: cost of one fiber switch (barriers and warp shuffles)", FIBER_METHOD,
          needs=[backend("cpu")])
def run_fibers(ctx):
    import numpy as np

    barriers, shuffles = _fiber_kernels()
    reps = 3 if ctx.quick else 5
    rows = []
    for threads in (32, 256, 1024):
        rounds = 2_000_000 // threads
        ctx.log(f"  barrier, {threads} threads")
        cell = _ns_per_switch(barriers, threads, rounds, np.full(threads, float(rounds)), reps)
        rows.append(Row(f"barrier, {threads} threads per block", "ns", False, {"simt": cell},
                        params={"threads": threads, "rounds": rounds}))
    ctx.log("  warp shuffle, 32 threads")
    rounds = 50_000  # an even number of xor-1 exchanges gives every lane its own index back
    cell = _ns_per_switch(shuffles, 32, rounds, np.arange(32, dtype=np.float64), reps)
    rows.append(Row("warp shuffle (shfl_xor_sync), 32 threads", "ns", False, {"simt": cell},
                    params={"threads": 32, "rounds": rounds}))
    return rows, []
