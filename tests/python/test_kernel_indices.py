"""Kernel-language details the array library relies on: unsigned indices never wrap around
(they are never negative), and integer division by -1 does not trap on the cpu backend."""
import numpy as np

import simt
from simt import cuda


@cuda.jit
def gather_unsigned(src, idx, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[idx[i]]


@cuda.jit
def gather_signed(src, idx, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[idx[i]]


@cuda.jit
def divide_by_minus_one(a, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // -1
        r[i] = a[i] % -1


def test_unsigned_indices_are_in_range_or_masked_never_wrapped():
    src = simt.asarray(np.arange(10.0) + 1)
    idx = simt.asarray(np.array([0, 9, 2 ** 64 - 1, 10, 3], np.uint64))
    out = simt.zeros(5)
    gather_unsigned[1, 32](src, idx, out)
    # 2**64 - 1 is a huge index, not -1: out of range, so the masked load gives 0.
    np.testing.assert_array_equal(out.get(), [1.0, 10.0, 0.0, 0.0, 4.0])
    signed = simt.asarray(np.array([0, 9, -1, 10, 3], np.int64))
    gather_signed[1, 32](src, signed, out)
    np.testing.assert_array_equal(out.get(), [1.0, 10.0, 10.0, 0.0, 4.0])  # -1 wraps once, as in Python


def test_unsigned_index_kernels_use_no_wraparound_in_generated_code():
    src = simt.ones(4)
    gather_unsigned[1, 4](src, simt.zeros(4, np.uint32), simt.zeros(4))
    source = gather_unsigned.inspect_source(("array(float64, 1d, C)", "array(uint32, 1d, C)", "array(float64, 1d, C)"))
    assert "(uint64_t)" in source


def test_integer_division_by_minus_one_wraps_like_numpy():
    values = np.array([np.iinfo(np.int64).min, -7, 0, 7, np.iinfo(np.int64).max], np.int64)
    a = simt.asarray(values)
    q, r = simt.empty_like(a), simt.empty_like(a)
    divide_by_minus_one[1, 32](a, q, r)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(q.get(), values // -1)
        np.testing.assert_array_equal(r.get(), values % -1)
