"""Sorting throughput over vector sizes: sort(a) of float32 and int32 keys, in Mkeys/s."""
import numpy as np

from ..measure import ArrayCase
from ..model import Row
from ..suite import workload
from .common import ARRAY_LIBS, cells_for, size_label, sweep_exponents

SORT_METHOD = ("Mkeys/s = keys sorted by one call / median time (CUDA events on a GPU, host clock with a "
               "synchronize on the cpu backend), after warm-up, over buffer sets rotated so that together they "
               "exceed twice the last-level cache. Each library's own sort returns a new sorted array (PyTorch: "
               "torch.sort(a).values); keys are uniform random over the whole range of the type (float32 in "
               "[-1, 1)); every result must equal NumPy's exactly.")


def _mkeys_per_s(keys, seconds):
    return keys / seconds / 1e6


def _exact(result, expected):
    result = np.asarray(result)
    if result.shape != expected.shape:
        return f"wrong shape {result.shape}, expected {expected.shape}"
    wrong = np.flatnonzero(result != expected)
    return None if wrong.size == 0 else f"{wrong.size} keys out of place (first at {wrong[0]})"


def _keys(ctx, n, dtype):
    if np.dtype(dtype).kind == "f":
        return ctx.rng.uniform(-1, 1, n).astype(dtype)
    info = np.iinfo(dtype)
    return ctx.rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def _sweep(ctx, dtype):
    rows = []
    for p in sweep_exponents(ctx):
        n = 2**p
        keys = _keys(ctx, n, dtype)
        case = ArrayCase("sort", [keys], np.sort(keys), n, _mkeys_per_s, _exact)
        ctx.log(f"  {size_label(n)}")
        row = Row(size_label(n), "Mkeys/s", True, params={"n": n, "dtype": np.dtype(dtype).name})
        row.cells = cells_for(ctx, ARRAY_LIBS, case)
        rows.append(row)
    return rows, []


@workload("sort32", "Sort float32 keys: sort(a)", SORT_METHOD)
def sort_float32(ctx):
    return _sweep(ctx, np.float32)


@workload("sort_int32", "Sort int32 keys: sort(a)", SORT_METHOD)
def sort_int32(ctx):
    return _sweep(ctx, np.int32)
