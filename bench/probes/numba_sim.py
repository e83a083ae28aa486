"""Run with NUMBA_ENABLE_CUDASIM=1 (python -m bench.probes.numba_sim N...): seconds for the seed's
vecadd on numba's CUDA simulator at each size N (a multiple of 256: the simulator, unlike a GPU,
raises on the seed kernel's out-of-range threads). Prints one JSON object {N: seconds}."""
import json
import sys
import time

import numpy as np
from numba import cuda

from bench.kernels import compile_with, vecadd


def main(sizes):
    kernel = compile_with(cuda, vecadd)
    rng = np.random.default_rng(1)
    times = {}
    for n in sizes:
        a, b = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
        da, db, dc = cuda.to_device(a), cuda.to_device(b), cuda.device_array(n)
        t0 = time.perf_counter()
        kernel[n // 256, 256](da, db, dc)
        cuda.synchronize()
        times[n] = time.perf_counter() - t0
        if not np.array_equal(dc.copy_to_host(), a + b):
            raise SystemExit(f"numba's simulator computed a wrong vecadd at n = {n}")
    print(json.dumps(times))


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1:]])
