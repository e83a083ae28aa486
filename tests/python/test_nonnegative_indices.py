"""Indices the compiler proves non-negative skip Python's negative wrap-around (they are emitted
unsigned); every index that could be negative keeps it. Checked on the generated code and, with
random data, against NumPy: the results must not change either way."""
import re

import numpy as np
import pytest

import simt
from kernel_text import load_function
from simt import cuda


def generated(kernel):
    (source,) = kernel.inspect_source().values()
    return source


def unsigned_indices(source, call):
    """For each `call(ctx, array, site, [value,] index...)` in `source`: the array, and whether
    every index is cast to uint64."""
    found = []
    for m in re.finditer(rf"{call}\(ctx, ", source):
        args, depth, start, i = [], 1, m.end(), m.end()
        while depth:
            c = source[i]
            depth += {"(": 1, ")": -1}.get(c, 0)
            if (c == "," and depth == 1) or depth == 0:
                args.append(source[start:i].strip())
                start = i + 1
            i += 1
        indices = args[3:] if call.startswith("simt_store") else args[2:]
        found.append((args[0], all(x.startswith("(uint64_t)") for x in indices)))
    return found


def test_grid_stride_loop_indices_are_unsigned_and_correct(rng):
    @cuda.jit
    def scale(A, B, n):
        i = cuda.grid(1)
        while i < n:
            B[i] = A[i % 7] + A[i]
            i += cuda.gridsize(1)

    a = rng.standard_normal(1000)
    b = simt.zeros(1000)
    scale[3, 64](simt.asarray(a), b, 1000)
    np.testing.assert_array_equal(b.get(), a[np.arange(1000) % 7] + a)
    loads = unsigned_indices(generated(scale), "simt_load")
    stores = unsigned_indices(generated(scale), "simt_store")
    assert loads == [("A", True), ("A", True)] and stores == [("B", True)]


def test_indices_that_may_be_negative_keep_the_wrap_around(rng):
    @cuda.jit
    def pick(A, out):
        i = cuda.grid(1)
        if i < A.size:
            j = i
            if i % 3 == 0:
                j = i - A.size      # negative: wraps around to i
            k = i - 1               # -1 for thread 0: the last element
            out[i] = A[j] + 10 * A[k] + 100 * A[-1 - i % 2]

    n = 257
    a = rng.standard_normal(n)
    out = simt.zeros(n)
    pick[3, 128](simt.asarray(a), out)
    i = np.arange(n)
    np.testing.assert_allclose(out.get(), a[i] + 10 * a[i - 1] + 100 * a[-1 - i % 2], rtol=1e-14)
    loads = unsigned_indices(generated(pick), "simt_load")
    assert loads == [("A", False), ("A", False), ("A", False)]
    assert unsigned_indices(generated(pick), "simt_store") == [("out", True)]


def test_two_dimensional_thread_indices_and_range_loops(rng):
    @cuda.jit
    def window_sum(A, out, w):
        x, y = cuda.grid(2)
        if x < out.shape[0] and y < out.shape[1]:
            s = 0.0
            for d in range(y, y + w):          # start >= 0, step 1: d is never negative
                s += A[x, d % A.shape[1]]
            out[x, y] = s

    a = rng.standard_normal((37, 23))
    out = simt.zeros((37, 23))
    window_sum[(3, 2), (16, 16)](simt.asarray(a), out, 4)
    cols = (np.arange(23)[:, None] + np.arange(4)) % 23
    np.testing.assert_allclose(out.get(), a[:, cols].sum(axis=2), rtol=1e-13)
    assert unsigned_indices(generated(window_sum), "simt_load") == [("A", True)]
    # the store is kept below out's extents by the if around it (guards.h): only its sign is tested
    assert "simt_store_nonneg(ctx, out, " in generated(window_sum)


@pytest.mark.parametrize("expression, unsigned", [
    ("cuda.threadIdx.x + cuda.blockIdx.x * cuda.blockDim.x", True),
    ("min(i, A.size - 1)", False),   # A.size - 1 could be -1
    ("min(i, A.shape[0])", True),
    ("max(i - 5, 0)", True),
    ("(i * 3) // 2", True),
    ("i >> 1", True),
    ("(i - 4) & 7", True),
    ("(i - 4) | 1", False),
    ("int(i)", True),
    ("np.int32(i)", False),          # a narrower signed type could wrap
    ("len(A) - 1 - i", False),       # never negative here, but a difference is not proven so
    ("i if i > 2 else 0", True),
    ("i if i > 2 else -1", False),
])
def test_which_index_expressions_count_as_non_negative(tmp_path, rng, expression, unsigned):
    text = f"def k(A, out):\n    i = cuda.grid(1)\n    if i < out.size:\n        out[i] = A[{expression}]\n"
    k = cuda.jit(load_function(tmp_path, text, "k"))
    a = rng.standard_normal(64)
    out = simt.zeros(40)
    k[1, 64](simt.asarray(a), out)
    expected = []
    for i in range(40):
        index = eval(expression, {"np": np, "len": len, "min": min, "max": max, "int": int,
                                  "cuda": _ThreadIndex(i), "A": a, "i": i})
        expected.append(a[int(index)])
    np.testing.assert_array_equal(out.get(), expected)
    assert unsigned_indices(generated(k), "simt_load") == [("A", unsigned)]


class _ThreadIndex:
    """cuda.threadIdx/blockIdx/blockDim for thread i of a one-block launch of 64 threads."""

    def __init__(self, i):
        self.threadIdx = type("dim3", (), {"x": i})
        self.blockIdx = type("dim3", (), {"x": 0})
        self.blockDim = type("dim3", (), {"x": 64})


def test_a_parameter_or_a_loop_counting_down_is_not_assumed_non_negative(rng):
    @cuda.jit
    def backwards(A, out, start):
        i = start
        t = cuda.grid(1)
        while i > -3:
            if t == 0:
                out[i + 3] = A[i]      # i reaches -1 and -2: wraps around
            i -= 1

    a = rng.standard_normal(8)
    out = simt.zeros(8)
    backwards[1, 32](simt.asarray(a), out, 4)
    expected = np.zeros(8)
    for i in range(4, -3, -1):
        expected[i + 3] = a[i]
    np.testing.assert_array_equal(out.get(), expected)
    assert unsigned_indices(generated(backwards), "simt_load") == [("A", False)]


def test_a_wrapped_around_uint64_inside_signed_arithmetic_still_counts_from_the_end(rng):
    # uint32 - uint32 is a uint64 (2**64 - 1 for thread 0); uint64 + int64 is an int64 (-1), as
    # is np.int64 of it: such indices are negative and wrap around like any other.
    @cuda.jit
    def previous(A, out, back):
        i = cuda.grid(1)
        if i < out.shape[1]:
            d = np.uint32(i) - np.uint32(1)
            u = np.uint64(i - back)
            out[0, i] = A[d + 0]
            out[1, i] = A[np.int64(u)]
            j = u * 1
            out[2, i] = A[j + 0]

    a = rng.standard_normal(8)
    out = simt.zeros((3, 8))
    previous[1, 8](simt.asarray(a), out, 1)
    expected = a[np.arange(8) - 1]
    np.testing.assert_array_equal(out.get(), np.stack([expected] * 3))
    assert unsigned_indices(generated(previous), "simt_load") == [("A", False)] * 3
