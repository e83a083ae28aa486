"""Signed integers in kernels wrap around on overflow, as NumPy's and numba's do, on both backends:
C++ leaves signed overflow undefined, and NVRTC (which has no -fwrapv) folded `x + 1 > x` to
true. The cpu backend compiles with -fwrapv; the cuda emitter writes signed + - * and negation
through the prelude's simt_wrap_* helpers. Shifts by the type's width or more give NumPy's
results. Every result is compared with NumPy on fresh random values plus the edge values."""
import numpy as np
import pytest

import simt
from simt import cuda

INT64_MIN, INT64_MAX = np.iinfo(np.int64).min, np.iinfo(np.int64).max


@cuda.jit
def successor_is_larger(A, out):
    i = cuda.grid(1)
    if i < A.shape[0]:
        x = A[i]
        out[i] = 1 if x + 1 > x else 0


@cuda.jit
def lcg_steps(A, out, steps):
    i = cuda.grid(1)
    if i < A.shape[0]:
        x = A[i]
        for _ in range(steps):
            x = x * 6364136223846793005 + 1442695040888963407
        out[i] = x


@cuda.jit
def negate_abs_difference(A, B, neg, absolute, diff):
    i = cuda.grid(1)
    if i < A.shape[0]:
        neg[i] = -A[i]
        absolute[i] = abs(A[i])
        diff[i] = A[i] - B[i]


@cuda.jit
def int32_ops(A, B, prod, total, shifted):
    i = cuda.grid(1)
    if i < A.shape[0]:
        prod[i] = A[i] * B[i]
        total[i] = A[i] + B[i]
        shifted[i] = A[i] << (B[i] & 63)


def edge_and_random(rng, n, dtype):
    info = np.iinfo(dtype)
    edges = np.array([info.min, info.min + 1, -1, 0, 1, info.max - 1, info.max], dtype)
    return np.concatenate([edges, rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)])


def test_comparison_after_overflow_is_not_folded(rng):
    a = edge_and_random(rng, 100, np.int64)
    out = simt.zeros(a.size, np.int64)
    successor_is_larger[1, 128](simt.asarray(a), out)
    with np.errstate(over="ignore"):
        expect = (a + np.int64(1) > a).astype(np.int64)
    assert expect[a == INT64_MAX].tolist() == [0]
    np.testing.assert_array_equal(out.get(), expect)


def test_multiply_add_chain_wraps(rng):
    a = edge_and_random(rng, 200, np.int64)
    steps = int(rng.integers(1, 5))
    out = simt.zeros(a.size, np.int64)
    lcg_steps[2, 128](simt.asarray(a), out, steps)
    x = a.copy()
    with np.errstate(over="ignore"):
        for _ in range(steps):
            x = x * np.int64(6364136223846793005) + np.int64(1442695040888963407)
    np.testing.assert_array_equal(out.get(), x)


def test_negation_abs_and_difference_of_extremes(rng):
    a = edge_and_random(rng, 100, np.int64)
    b = edge_and_random(rng, 100, np.int64)[::-1].copy()
    outs = [simt.zeros(a.size, np.int64) for _ in range(3)]
    negate_abs_difference[1, 256](simt.asarray(a), simt.asarray(b), *outs)
    with np.errstate(over="ignore"):
        expect = [-a, np.abs(a), a - b]
    for got, want in zip(outs, expect):
        np.testing.assert_array_equal(got.get(), want)


def test_int32_arithmetic_and_shifts(rng):
    a = edge_and_random(rng, 100, np.int32)
    b = edge_and_random(rng, 100, np.int32)[::-1].copy()
    b[:8] = [31, 32, 40, 63, 0, 1, 30, 33]  # shift counts at and past the width
    outs = [simt.zeros(a.size, np.int32) for _ in range(3)]
    int32_ops[1, 256](simt.asarray(a), simt.asarray(b), *outs)
    with np.errstate(over="ignore"):
        expect = [a * b, a + b, np.left_shift(a, b & np.int32(63))]
    for got, want in zip(outs, expect):
        np.testing.assert_array_equal(got.get(), want)


NVRTC, WHY = simt._simt._nvrtc_available()


@pytest.mark.skipif(not NVRTC, reason=f"NVRTC not found: {WHY}")
def test_cuda_code_reads_the_value_it_compares():
    # With plain signed + the comparison folded to true and the kernel never loaded A[i].
    ptx, _ = cuda.compile_ptx(successor_is_larger.py_func, "void(int64[:], int64[:])")
    assert "ld.global" in ptx


def test_only_signed_cuda_arithmetic_is_spelled_out():
    a = simt.zeros(4, np.int64)
    cuda_source = simt._simt._generate_source(lcg_steps, "cuda", a, a, 3)
    cpu_source = simt._simt._generate_source(lcg_steps, "cpu", a, a, 3)
    assert "simt_wrap_add(simt_wrap_mul(x, " in cuda_source
    assert "simt_wrap_" not in cpu_source.split('#line 1 "simt-generated"', 1)[1]  # -fwrapv there
    f = simt.zeros(4)
    float_source = simt._simt._generate_source(negate_abs_difference, "cuda", f, f, f, f, f)
    assert "simt_wrap_" not in float_source.split('#line 1 "simt-generated"', 1)[1]
