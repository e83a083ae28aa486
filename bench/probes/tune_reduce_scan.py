"""Sweeps the tuning knobs of simt's block reduction and look-back scan on the active backend
(python -m bench.probes.tune_reduce_scan [--n 26] [--reps 20] [--dtypes float32] [--reduce-variants JSON]
[--scan-variants JSON]): GB/s of sum and cumsum on float32 and float64 vectors of 2**n elements for
each variant of the TUNING tables (the defaults below, or JSON lists of overrides), each result
checked against NumPy. For picking the cuda defaults on a GPU; the suite's own workloads are unchanged."""
import argparse
import json

import numpy as np

import simt
from simt import _kernelgen, _reduce_passes, _scan

from ..timing import EventTimer, HostTimer

REDUCE_VARIANTS = [{}, {"blocks_per_sm": 8}, {"block_unroll": 8}, {"block_unroll": 16, "blocks_per_sm": 8},
                   {"block_threads": 512, "blocks_per_sm": 2}, {"block_threads": 0}]
SCAN_VARIANTS = [{}, {"tile_items": 8, "tile_blocks_per_sm": 8}, {"tile_items": 24, "tile_blocks_per_sm": 4},
                 {"tile_threads": 128, "tile_items": 16, "tile_blocks_per_sm": 12}, {"tile_items": 12},
                 {"tile_threads": 0}]


def _timer():
    if _kernelgen.backend_kind() == "cuda":
        from simt import cuda
        return EventTimer(cuda.Event, lambda e: e.record(), lambda s, e: s.elapsed_time(e), simt.synchronize)
    return HostTimer(simt.synchronize)


def _sweep(table, variants, fn, expected, nbytes, x, reps, tol):
    backend = _kernelgen.backend_kind()
    base = dict(table["cuda"])  # the GPU plan, also when forced on the cpu backend
    saved = table[backend]
    rows = []
    try:
        for variant in variants:
            table[backend] = {**base, **variant}
            try:
                result = simt.asnumpy(fn(x)).astype(np.float64)  # warm-up (compiles) and check
            except Exception as e:  # a variant the kernel cannot take (too much shared memory ...)
                rows.append({"variant": variant, "error": f"{type(e).__name__}: {str(e).splitlines()[-1]}"})
                continue
            error = float(np.max(np.abs(result - expected)))
            seconds = sorted(_timer().measure(lambda i: fn(x), reps))
            rows.append({"variant": variant, "GB/s": round(nbytes / seconds[len(seconds) // 2] / 1e9, 1),
                         "ok": error <= tol, "max_error": error})
    finally:
        table[backend] = saved
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=26, help="log2 of the vector length")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--dtypes", default="float32,float64", help="comma-separated")
    ap.add_argument("--reduce-variants", type=json.loads, default=REDUCE_VARIANTS, help="JSON list of overrides")
    ap.add_argument("--scan-variants", type=json.loads, default=SCAN_VARIANTS, help="JSON list of overrides")
    args = ap.parse_args()
    n = 2**args.n
    h = np.random.default_rng(0).uniform(-1, 1, n)
    out = {"backend": _kernelgen.backend_kind(), "n": n}
    tolerance = {"float32": 1e-6 * n, "float64": 1e-13 * n}
    for name in args.dtypes.split(","):
        dtype, tol = np.dtype(name), tolerance[name]
        x = simt.asarray(h.astype(dtype))
        out[f"sum {name}"] = _sweep(_reduce_passes.TUNING, args.reduce_variants, simt.sum, h.astype(dtype).sum(dtype=np.float64),
                                    x.nbytes, x, args.reps, tol)
        out[f"cumsum {name}"] = _sweep(_scan.TUNING, args.scan_variants, simt.cumsum,
                                       np.cumsum(h.astype(dtype), dtype=np.float64), 2 * x.nbytes, x, args.reps, tol)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
