"""Where the host time of `x + y` on one element goes, by library and function, on a machine with no
profiler: runs `z = x + y` in a loop (the device idle, no spin kernel) and prints µs per call; with
bench/probes/sampler.c preloaded, samples a longer loop and bench/probes/sampler_report.py prints
the shares (the driver's, libc's, Python's and simt's, and simt's functions).

    gcc -O2 -shared -fPIC bench/probes/sampler.c -o /tmp/sampler.so -ldl -lrt
    pip install . -C cmake.define.SIMT_KEEP_SYMBOLS=ON      # simt's function names in the report
    LD_PRELOAD=/tmp/sampler.so SAMPLER_OUT=/tmp/samples.txt python -m bench.probes.xy_profile 200000
    python -m bench.probes.sampler_report /tmp/samples.txt "$(python -c 'import simt._simt as m; print(m.__file__)')"
"""
import ctypes
import os
import sys
import time

import numpy as np

import simt


def main(calls):
    x = simt.asarray(np.array([1.5], np.float32))
    y = simt.asarray(np.array([2.25], np.float32))
    z = x + y
    simt.synchronize()
    simt._simt._wait_for_cubin_backfill()  # a cold cache's background compile is not x + y's cost
    per_call = []
    for _ in range(5):
        t0 = time.perf_counter()
        for _ in range(calls):
            z = x + y
        per_call.append((time.perf_counter() - t0) / calls * 1e6)
        simt.synchronize()
    print("x + y, µs per call (5 loops):", " ".join(f"{v:.2f}" for v in per_call))
    if os.environ.get("SAMPLER_OUT"):
        sampler = ctypes.CDLL(None)  # the preloaded sampler's symbols
        sampler.sampler_start(50)
        t0 = time.perf_counter()
        for _ in range(5 * calls):
            z = x + y
        seconds = time.perf_counter() - t0
        sampler.sampler_stop()
        print(f"sampled loop (sampling slows it): {seconds / (5 * calls) * 1e6:.2f} µs per call")
    if float(simt.asnumpy(z)[0]) != 3.75:
        raise SystemExit(f"x + y gave {simt.asnumpy(z)!r}, expected [3.75]")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100000)
