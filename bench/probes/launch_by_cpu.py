"""The host cost of a launch and of `x + y` on one element, with the measuring thread pinned to each
CPU in turn (python -m bench.probes.launch_by_cpu): on a virtual machine the cost differs between
CPUs, which is why the launch and small_op workloads pin every implementation to one CPU
(bench/affinity.py). One line per CPU: medians of 5 repetitions of 1000 calls behind a spin kernel."""
import os
import time

import numpy as np

import simt
from bench.libs import Simt
from bench.stats import median
from bench.workloads.launch import calibrate_spin

CALLS = 1000


def per_call(kit, iters, fn):
    samples = []
    for _ in range(5):
        kit.spin(iters)
        t0 = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - t0) / CALLS)
        kit.synchronize()
    return median(samples) * 1e6


def main():
    kit = Simt("cuda").launch_kit()
    iters, _ = calibrate_spin(kit)
    x = simt.asarray(np.array([1.5], np.float32))
    y = simt.asarray(np.array([2.25], np.float32))
    kit.burst(3, 1)

    def adds():
        for _ in range(CALLS):
            x + y

    allowed = os.sched_getaffinity(0)
    try:
        for cpu in sorted(allowed):
            os.sched_setaffinity(0, {cpu})
            launch = per_call(kit, iters, lambda: kit.burst(3, CALLS))
            print(f"CPU {cpu:3d}: launch (3 arrays) {launch:5.2f} µs, x + y {per_call(kit, iters, adds):5.2f} µs",
                  flush=True)
    finally:
        os.sched_setaffinity(0, allowed)
    assert (x + y).get()[0] == np.float32(3.75)


if __name__ == "__main__":
    main()
