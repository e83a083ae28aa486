"""Does loading other CUDA libraries into the process change simt's host time for `z = x + y`
on one element, or for launching an empty 3-array kernel? (python -m bench.probes.xy_with_other_libs; the benchmark suite runs every
library in one process.) Measured as the small_op workload measures it, behind a ~20 ms spin
kernel, first with simt alone, then after CuPy, PyTorch and numba-cuda have each run a kernel."""
import time

import numpy as np

import simt
from bench.libs import Simt
from bench.stats import median
from bench.workloads.launch import calibrate_spin

OPS = 1000


def main():
    kit = Simt("cuda").launch_kit()
    iters, _ = calibrate_spin(kit)
    x = simt.asarray(np.array([1.5], np.float32))
    y = simt.asarray(np.array([2.25], np.float32))

    def measure(label):
        add = simt.add
        z = add(x, y)
        kit.burst(3, 1)
        adds, launches = [], []
        for _ in range(9):
            kit.spin(iters)
            t0 = time.perf_counter()
            for _ in range(OPS):
                z = add(x, y)
            adds.append((time.perf_counter() - t0) / OPS)
            kit.synchronize()
            kit.spin(iters)
            t0 = time.perf_counter()
            kit.burst(3, OPS)
            launches.append((time.perf_counter() - t0) / OPS)
            kit.synchronize()
        assert z.get()[0] == np.float32(3.75)
        print(f"{label:34} x + y {median(adds) * 1e6:6.2f} µs (min {min(adds) * 1e6:.2f}), "
              f"launch {median(launches) * 1e6:6.2f} µs (min {min(launches) * 1e6:.2f})", flush=True)

    measure("simt alone")
    try:
        import cupy
        (cupy.ones(1) + 1).get()
        measure("after CuPy ran a kernel")
    except ImportError:
        print("CuPy: not installed")
    try:
        import torch
        (torch.ones(1, device="cuda") + 1).cpu()
        measure("after PyTorch ran a kernel")
    except ImportError:
        print("PyTorch: not installed")
    try:
        np.row_stack = getattr(np, "row_stack", np.vstack)  # numba-cuda 0.30 with NumPy 2.5
        from numba import cuda as numba_cuda

        @numba_cuda.jit
        def touch(a):
            a[0] += 1

        touch[1, 1](numba_cuda.to_device(np.zeros(1)))
        numba_cuda.synchronize()
        measure("after numba-cuda ran a kernel")
    except ImportError:
        print("numba-cuda: not installed")
    measure("simt again")


if __name__ == "__main__":
    main()
