"""simt.cuda.tile kernels (bench/tile_kernels.py: an elementwise add, a row softmax, a matrix product)
beside what a CuPy or PyTorch user writes for the same work, or NumPy on the cpu backend."""
import numpy as np

from ..measure import ArrayCase, close_enough
from ..model import Row
from ..suite import workload
from .common import ARRAY_LIBS, cells_for, size_label

METHOD = ("Median time of one call on fresh random float32 data, checked against NumPy. add: c = a + b "
          "(1024-element tiles; the anchors' add with out=), TB/s = 12 n bytes / time. softmax: each row "
          "of an (rows, 1024) matrix (one 1024-element tile per row; CuPy composes exp, max, sum and a "
          "division, PyTorch calls softmax), TB/s = 8 bytes per element / time. matmul: square a @ b "
          "(64 x 64 x 32 and 128 x 128 x 32 tiles through tile.mma; the anchors call cuBLAS, TF32 off), TFLOP/s = 2 n**3 / time. "
          "The tile matmul multiplies with CUDA cores from shared memory (no tensor cores): its figure "
          "says how far that is from cuBLAS.")


def _sizes(ctx):
    gpu = ctx.backend == "cuda"
    if ctx.quick:
        return ([2**26] if gpu else [2**20]), ([16384] if gpu else [512]), ([2048] if gpu else [256])
    return ([2**20, 2**26] if gpu else [2**16, 2**20]), ([4096, 32768] if gpu else [256, 1024]), \
        ([1024, 4096] if gpu else [128, 256])


@workload("tile", "simt.cuda.tile kernels: add, row softmax, matmul", METHOD)
def run(ctx):
    gpu = ctx.backend == "cuda"
    adds, softmax_rows, matmuls = _sizes(ctx)
    rows = []
    bw_unit, bw_scale = ("TB/s", 1e12) if gpu else ("GB/s", 1e9)
    for n in adds:
        a, b = ctx.rng.uniform(-1, 1, n).astype(np.float32), ctx.rng.uniform(-1, 1, n).astype(np.float32)
        case = ArrayCase("tile_add", [a, b], a + b, 12.0 * n, lambda w, s: w / s / bw_scale,
                         lambda r, e: close_enough(r, e, 0.0, 0.0))
        ctx.log(f"  tile add {size_label(n)}")
        row = Row(f"add float32, {size_label(n)}", bw_unit, True, params={"n": n})
        row.cells = cells_for(ctx, ARRAY_LIBS, case)
        rows.append(row)
    for r in softmax_rows:
        x = ctx.rng.uniform(-4, 4, (r, 1024)).astype(np.float32)
        e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        case = ArrayCase("tile_softmax", [x], e / e.sum(axis=1, keepdims=True), 8.0 * x.size,
                         lambda w, s: w / s / bw_scale, lambda got, want: close_enough(got, want, 1e-5, 1e-7))
        ctx.log(f"  tile softmax {r} x 1024")
        row = Row(f"softmax float32, {r} x 1024", bw_unit, True, params={"rows": r})
        row.cells = cells_for(ctx, ARRAY_LIBS, case)
        rows.append(row)
    fl_unit, fl_scale = ("TFLOP/s", 1e12) if gpu else ("GFLOP/s", 1e9)
    for n in matmuls:
        a = ctx.rng.uniform(-1, 1, (n, n)).astype(np.float32)
        b = ctx.rng.uniform(-1, 1, (n, n)).astype(np.float32)
        picked = np.sort(ctx.rng.choice(n, size=8, replace=False))
        expected = a[picked].astype(np.float64) @ b.astype(np.float64)
        for op, tiles in (("tile_matmul", "64 x 64 x 32"), ("tile_matmul_large", "128 x 128 x 32")):
            case = ArrayCase(op, [a, b], expected, 2.0 * n**3, lambda w, s: w / s / fl_scale,
                             lambda got, want: close_enough(np.asarray(got)[picked], want, n * 1e-5))
            ctx.log(f"  tile matmul n = {n}, {tiles} tiles")
            row = Row(f"matmul float32, n = {n}, {tiles} tiles", fl_unit, True, params={"n": n, "tiles": tiles})
            row.cells = cells_for(ctx, ARRAY_LIBS, case)
            rows.append(row)
    return rows, []
