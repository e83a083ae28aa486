"""Times each path of simt's radix sort on the active backend (python -m bench.probes.sort_paths
[--sizes 14,18,22,26] [--reps 10] [--dtypes float32,int32]): Mkeys/s of simt.sort for every path
forced through the backend's tuning table (the digit passes, the one-sweep passes, the serial
tiles), beside CuPy's sort where CuPy and a GPU are present; every result checked against NumPy.
For picking each backend's default path; the suite's own sort workloads are unchanged."""
import argparse
import json

import numpy as np

import simt
from simt import _kernelgen, _radix_sort

from ..timing import EventTimer, HostTimer

PATHS = {
    "digit_passes": {"serial": False, "onesweep_min": 0},
    "onesweep": {"serial": False, "onesweep_min": 2049},
    "onesweep, 8 items": {"serial": False, "onesweep_min": 2049, "onesweep_items": 8},
    "onesweep, 24 items": {"serial": False, "onesweep_min": 2049, "onesweep_items": 24},
    "serial tiles": {"serial": True, "serial_min_tile": 4096, "serial_tiles_per_core": 4},
}


def _timer():
    if _kernelgen.backend_kind() == "cuda":
        from simt import cuda
        return EventTimer(cuda.Event, lambda e: e.record(), lambda s, e: s.elapsed_time(e), simt.synchronize)
    return HostTimer(simt.synchronize)


def _median(seconds):
    return sorted(seconds)[len(seconds) // 2]


def _cupy_rate(h, reps):
    try:
        import cupy
        if not cupy.cuda.is_available():
            return None
    except Exception:
        return None
    x = cupy.asarray(h)
    timer = EventTimer(cupy.cuda.Event, lambda e: e.record(), lambda s, e: cupy.cuda.get_elapsed_time(s, e),
                       cupy.cuda.Device().synchronize)
    cupy.sort(x)
    return round(h.size / _median(timer.measure(lambda i: cupy.sort(x), reps)) / 1e6, 1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sizes", default="14,18,22,26", help="comma-separated log2 sizes")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--dtypes", default="float32,int32", help="comma-separated")
    args = ap.parse_args()
    backend = _kernelgen.backend_kind()
    saved = _radix_sort.TUNING[backend]
    out = {"backend": backend, "Mkeys/s": []}
    rng = np.random.default_rng(0)
    try:
        for name in args.dtypes.split(","):
            for bits in map(int, args.sizes.split(",")):
                dt = np.dtype(name)
                h = (rng.uniform(-1, 1, 2**bits).astype(dt) if dt.kind == "f"
                     else rng.integers(np.iinfo(dt).min, np.iinfo(dt).max, 2**bits, dtype=dt))
                x = simt.asarray(h)
                row = {"dtype": name, "n": f"2**{bits}", "cupy": _cupy_rate(h, args.reps)}
                expected = np.sort(h)
                for path, override in PATHS.items():
                    _radix_sort.TUNING[backend] = {**saved, **override}
                    if not np.array_equal(simt.sort(x).get(), expected):
                        row[path] = "WRONG"
                        continue
                    row[path] = round(h.size / _median(_timer().measure(lambda i: simt.sort(x), args.reps)) / 1e6, 1)
                out["Mkeys/s"].append(row)
                print(json.dumps(row), flush=True)
    finally:
        _radix_sort.TUNING[backend] = saved
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
