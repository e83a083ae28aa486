"""Square matrix multiply a @ b in float32 and float64, against cuBLAS (CuPy, PyTorch) or NumPy's BLAS."""
import numpy as np

from ..measure import ArrayCase, close_enough
from ..model import Cell, Row
from ..suite import workload
from .common import ARRAY_LIBS, cells_for
from .cpu_kernels import CPP_LOOP, cpp_loop_cell, tiled_target_note

METHOD = ("FLOP/s = 2 n**3 / median time of a @ b on fresh random matrices in [-1, 1). Eight random "
          "rows of each result are checked against a float64 product on the host. The limit column is "
          "the best of CuPy and PyTorch (both call cuBLAS; TF32 off) on a GPU, NumPy's BLAS on the cpu "
          "backend.")

ROWS_CHECKED = 8


def _sizes(ctx):
    if ctx.backend == "cuda":
        return [1024, 4096] if ctx.quick else [512, 1024, 2048, 4096, 8192]
    return [256, 1024] if ctx.quick else [256, 512, 1024, 2048]


def _case(ctx, n, dtype, unit_scale):
    a = ctx.rng.uniform(-1, 1, (n, n)).astype(dtype)
    b = ctx.rng.uniform(-1, 1, (n, n)).astype(dtype)
    rows = np.sort(ctx.rng.choice(n, size=min(ROWS_CHECKED, n), replace=False))
    expected = a[rows].astype(np.float64) @ b.astype(np.float64)
    # Products of terms in [-1, 1]: rounding error grows at most with n times the type's epsilon.
    tol = n * (1e-5 if dtype == np.float32 else 1e-13)
    return ArrayCase("matmul", [a, b], expected, 2.0 * n**3, lambda flops, s: flops / s / unit_scale,
                     lambda r, e: close_enough(np.asarray(r)[rows], e, tol))


@workload("matmul", "Matrix multiply a @ b (square)", METHOD)
def run(ctx):
    gpu = ctx.backend == "cuda"
    unit, scale = ("TFLOP/s", 1e12) if gpu else ("GFLOP/s", 1e9)
    limit_libs, limit_name = (("cupy", "torch"), "cuBLAS") if gpu else (("numpy",), "NumPy BLAS")
    rows = []
    for dtype in (np.float32, np.float64):
        for n in _sizes(ctx):
            ctx.log(f"  {np.dtype(dtype).name} n = {n}")
            row = Row(f"{np.dtype(dtype).name}, n = {n}", unit, True, params={"n": n, "dtype": np.dtype(dtype).name},
                      limit_name=limit_name)
            row.cells = cells_for(ctx, ARRAY_LIBS, _case(ctx, n, dtype, scale))
            best = max((row.cells[k] for k in limit_libs if row.cells[k].usable), key=lambda c: c.value, default=None)
            row.limit = Cell.ok(best.value) if best else Cell.na(f"{limit_name} needs {' or '.join(limit_libs)}")
            rows.append(row)
    return rows, []


TILED_METHOD = ("The kernel-language matrix product (bench/kernels.py: numba's documented 16 x 16 "
                "shared-memory tiles, one thread per element of C) compiled from one source by simt and "
                "by numba-cuda; float32; FLOP/s = 2 n**3 / median time; rows checked as for a @ b. "
                "'masked' is simt's default (out-of-range accesses are masked); 'unchecked' compiles "
                "with boundscheck=False, which is numba's default. On the cpu backend the anchor is a "
                "plain triple loop in C++ (bench/cpu/triple_loop.cpp) built with the host compiler at -O3 and "
                "run on one thread.")


def _tiled_sizes(ctx):
    if ctx.backend == "cuda":
        return [4096] if ctx.quick else [1024, 2048, 4096]
    return [512] if ctx.quick else [256, 512]


@workload("tiled_matmul", "Tiled matrix multiply kernel (shared memory, 16 x 16 tiles)", TILED_METHOD)
def run_tiled(ctx):
    gpu = ctx.backend == "cuda"
    unit, scale = ("TFLOP/s", 1e12) if gpu else ("GFLOP/s", 1e9)
    rows = []
    loop_cells = {}  # the C++ triple loop, once per size (cpu backend)
    for n in _tiled_sizes(ctx):
        for op, label in (("tiled_matmul", "masked"), ("tiled_matmul_unchecked", "unchecked")):
            ctx.log(f"  tiled matmul float32 n = {n}, {label}")
            case = _case(ctx, n, np.float32, scale)
            case.op = op
            row = Row(f"float32, n = {n}, {label}", unit, True, params={"n": n, "dtype": "float32", "bounds": label})
            row.cells = cells_for(ctx, ("simt", "numba"), case)
            if ctx.backend == "cpu":
                if n not in loop_cells:
                    ctx.log(f"    {CPP_LOOP} n = {n}")
                    loop_cells[n] = cpp_loop_cell(n, 3 if ctx.quick else 5, scale)
                row.cells[CPP_LOOP] = loop_cells[n]
            rows.append(row)
    return rows, [tiled_target_note()] if ctx.backend == "cpu" else []
