"""cpu backend: the cost of one fiber switch, as kernels see it. A block whose threads cross many
barriers switches once per thread per barrier (each waiting thread hands over to the next); a
warp shuffle does the same within a warp. Prints nanoseconds per switch for several block sizes."""
import os
import sys
import time

os.environ.setdefault("SIMT_BACKEND", "cpu")
os.environ.setdefault("SIMT_NUM_THREADS", "1")  # one OS thread: the switch cost alone

import simt  # noqa: E402
from simt import cuda  # noqa: E402


@cuda.jit(device=True)
def wait_for_block():
    cuda.syncthreads()  # a barrier inside a device function: the kernel runs its threads as fibers


@cuda.jit
def barriers(rounds, out):
    for _ in range(rounds):
        wait_for_block()
    out[0] = rounds


@cuda.jit
def shuffles(rounds, out):
    v = cuda.threadIdx.x
    for _ in range(rounds):
        v = cuda.shfl_xor_sync(0xFFFFFFFF, v, 1)
    out[cuda.threadIdx.x] = v


def ns_per_switch(kernel, threads, rounds):
    out = simt.zeros(threads)
    kernel[1, threads](1, out)  # compile, create the fiber stacks
    simt.synchronize()
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        kernel[1, threads](rounds, out)
        simt.synchronize()
        best = min(best, time.perf_counter() - t0)
    return best / (threads * rounds) * 1e9


def main():
    if simt.backend() != "cpu":
        sys.exit("bench_fiber_switch measures the cpu backend; run with SIMT_BACKEND=cpu")
    for threads in (32, 256, 1024):
        rounds = 2_000_000 // threads
        print(f"barrier, {threads:4d} threads per block: {ns_per_switch(barriers, threads, rounds):6.1f} ns per switch")
    print(f"warp shuffle, 32 threads:         {ns_per_switch(shuffles, 32, 50_000):6.1f} ns per switch")
    return 0


if __name__ == "__main__":
    sys.exit(main())
