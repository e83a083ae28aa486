"""Bandwidth over vector sizes: the seed's vecadd kernel, elementwise a + b, sum, cumsum (float64 and float32),
a fused sum of products."""
import numpy as np

from ..measure import ArrayCase, close_enough
from ..model import Row
from ..stats import gbps
from ..suite import workload
from .common import ARRAY_LIBS, KERNEL_LIBS, cells_for, size_label, sweep_exponents
from .limits import copy_limit

SWEEP_METHOD = ("GB/s = bytes read and written by one call / median time (CUDA events on a GPU, host clock "
                "with a synchronize on the cpu backend), after warm-up, over buffer sets rotated so that "
                "together they exceed twice the last-level cache (up to 64 sets). The same random data goes "
                "to every library and each result is checked against NumPy.")


def _sweep(ctx, libs, make_case, dtype, headline=False):
    limit = copy_limit(ctx)
    rows = []
    for p in sweep_exponents(ctx, headline):
        n = 2**p
        case = make_case(ctx, n, dtype)
        ctx.log(f"  {size_label(n)}")
        row = Row(size_label(n), "GB/s", True, params={"n": n, "bytes": case.work, "dtype": np.dtype(dtype).name},
                  limit=limit, limit_name="copy")
        row.cells = cells_for(ctx, libs, case)
        rows.append(row)
    return rows, []


def _inputs(ctx, n, count, dtype):
    return [ctx.rng.uniform(-1, 1, n).astype(dtype) for _ in range(count)]


def _vecadd_case(ctx, n, dtype):
    a, b = _inputs(ctx, n, 2, dtype)
    return ArrayCase("vecadd", [a, b], a + b, 3 * a.nbytes, gbps,
                     lambda r, e: close_enough(r, e, 0.0, 1e-15))


def _add_case(ctx, n, dtype):
    a, b = _inputs(ctx, n, 2, dtype)
    return ArrayCase("add", [a, b], a + b, 3 * a.nbytes, gbps, lambda r, e: close_enough(r, e, 0.0, 1e-7))


def _order_tolerance(n, dtype):
    """|a| <= 1: any summation order (pairwise, blocked, sequential in blocks) stays within this
    of the float64 result at the sweep's sizes."""
    return (1e-13 if np.dtype(dtype) == np.float64 else 1e-6) * n


def _sum_case(ctx, n, dtype):
    a, = _inputs(ctx, n, 1, dtype)
    return ArrayCase("sum", [a], np.sum(a, dtype=np.float64), a.nbytes, gbps,
                     lambda r, e: close_enough(r, e, _order_tolerance(n, dtype)))


def _fused_dot_case(ctx, n, dtype):
    a, b = _inputs(ctx, n, 2, dtype)
    return ArrayCase("fused_dot", [a, b], np.dot(a.astype(np.float64), b), 2 * a.nbytes, gbps,
                     lambda r, e: close_enough(r, e, _order_tolerance(n, dtype)))


def _cumsum_case(ctx, n, dtype):
    a, = _inputs(ctx, n, 1, dtype)
    return ArrayCase("cumsum", [a], np.cumsum(a, dtype=np.float64), 2 * a.nbytes, gbps,
                     lambda r, e: close_enough(r, e, _order_tolerance(n, dtype)))


@workload("vecadd", "Vector add C = A + B, float64 (the seed's kernel)",
          SWEEP_METHOD + " simt and numba-cuda launch the seed's kernel (same source, block 256); CuPy, "
          "PyTorch and NumPy call their add with an output array.")
def vecadd(ctx):
    return _sweep(ctx, KERNEL_LIBS, _vecadd_case, np.float64, headline=True)


# The array operations, each swept over sizes through the libraries' own functions:
# (name, title, note on the bytes counted, case, dtype, headline). A headline sweep also runs
# 2**28 in quick mode on a GPU: the size the float32 targets of the array-library issue name.
_ARRAY_SWEEPS = [
    ("elementwise", "Elementwise a + b, float32 (array operator, allocates the result)", "", _add_case, np.float32,
     True),
    ("reduction", "Reduction sum(a), float64", " Bytes: the input once.", _sum_case, np.float64, False),
    ("scan", "Scan cumsum(a), float64", " Bytes: input read plus output written.", _cumsum_case, np.float64, False),
    ("reduction32", "Reduction sum(a), float32", " Bytes: the input once.", _sum_case, np.float32, True),
    ("scan32", "Scan cumsum(a), float32", " Bytes: input read plus output written.", _cumsum_case, np.float32, True),
    ("fused_dot", "Fused reduction sum(a * b), float32 (simt.fuse and cupy.fuse; PyTorch and NumPy: dot)",
     " Bytes: both inputs once.", _fused_dot_case, np.float32, False),
    ("algo_reduce", "simt.compute.reduce_into(a, PLUS), float32 (beside the others' sum)", " Bytes: the input once.",
     lambda ctx, n, dtype: _renamed(_sum_case(ctx, n, dtype), "algo_reduce"), np.float32, False),
    ("algo_scan", "simt.compute.inclusive_scan(a, PLUS), float32 (beside the others' cumsum)",
     " Bytes: input read plus output written.", lambda ctx, n, dtype: _renamed(_cumsum_case(ctx, n, dtype), "algo_scan"),
     np.float32, False),
]


def _renamed(case, op):
    case.op = op
    return case

for _name, _title, _bytes_note, _case, _dtype, _headline in _ARRAY_SWEEPS:
    workload(_name, _title, SWEEP_METHOD + _bytes_note)(
        lambda ctx, case=_case, dtype=_dtype, headline=_headline: _sweep(ctx, ARRAY_LIBS, case, dtype, headline))
