"""NumPy scalar casts in kernels (np.int8(x), np.float32(x), ...) with numba's wrap/truncation
behaviour, and tuples as values: slicing with constant bounds, concatenation, len, iteration,
comparison, and tuples returned from device functions; all against Python/NumPy."""
import numpy as np
import pytest

import simt
from kernel_text import typing_error
from simt import cuda

N = 700
INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def launch(kernel, n, *args):
    kernel[(n + 127) // 128, 128](*args)


def cast_kernel(to):
    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = to(X[i])
    return k


@pytest.mark.parametrize("to", INT_TYPES, ids=lambda t: t.__name__)
def test_integer_casts_wrap_like_numpy(rng, to):
    x = rng.integers(-2**40, 2**40, N)
    x[:3] = [-1, 2**31, 300]
    out = simt.zeros(N, dtype=to)
    launch(cast_kernel(to), N, simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), x.astype(to))


@pytest.mark.parametrize("to", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32], ids=lambda t: t.__name__)
def test_float_to_integer_casts_truncate_toward_zero(rng, to):
    info = np.iinfo(to)
    low, high = max(info.min, -1e6), min(info.max, 1e6)
    x = rng.uniform(low, high, N)
    out = simt.zeros(N, dtype=to)
    launch(cast_kernel(to), N, simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), np.trunc(x).astype(to))


@pytest.mark.parametrize("to", [np.float16, np.float32, np.float64, np.complex64, np.complex128, np.bool_],
                         ids=lambda t: t.__name__)
def test_float_casts_round_to_nearest(rng, to):
    x = rng.standard_normal(N) * 10.0 ** rng.integers(-3, 4, N)
    x[:2] = [0.0, -0.0]
    out = simt.zeros(N, dtype=np.complex128 if np.dtype(to).kind == "c" else np.float64)
    launch(cast_kernel(to), N, simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), x.astype(to).astype(out.dtype))


def test_constant_casts_fold_with_numba_semantics():
    @cuda.jit
    def k(out):
        out[0] = np.int8(300)
        out[1] = np.uint8(-1)
        out[2] = np.int16(40000)
        out[3] = np.uint32(-1)
        out[4] = np.int32(-3.9)
        out[5] = np.bool_(0.5)

    out = simt.zeros(6, dtype=np.int64)
    k[1, 1](out)
    np.testing.assert_array_equal(out.get(), [44, 255, -25536, 4294967295, -3, 1])


def test_tuple_slicing_concatenation_len_and_iteration(rng):
    @cuda.jit
    def k(A, OUT):
        i = cuda.grid(1)
        if i < A.shape[0]:
            t = (A[i, 0], A[i, 1], A[i, 2], A[i, 3], A[i, 4])
            head = t[:2]
            tail = t[-2:]
            rev = t[::-1]
            evens = t[::2]
            joined = tail + head + (i,)
            s = 0.0
            for v in rev[1:4]:
                s += v
            OUT[i, 0] = head[0] - head[1]
            OUT[i, 1] = tail[1] * 10 + tail[0]
            OUT[i, 2] = rev[0] + evens[2] * 100
            OUT[i, 3] = len(joined) + len(t[5:]) + len(t[3:1])
            OUT[i, 4] = joined[4] + joined[0]
            OUT[i, 5] = s
            OUT[i, 6] = 1.0 if t[1:3] == (A[i, 1], A[i, 2]) else 0.0

    a = rng.uniform(-10, 10, (N, 5))
    out = simt.zeros((N, 7))
    launch(k, N, simt.asarray(a), out)
    expected = np.stack([
        a[:, 0] - a[:, 1], a[:, 4] * 10 + a[:, 3], a[:, 4] + a[:, 4] * 100, np.full(N, 5 + 0 + 0),
        np.arange(N) + a[:, 3], a[:, 3] + a[:, 2] + a[:, 1], np.ones(N),
    ], axis=1)
    np.testing.assert_allclose(out.get(), expected, rtol=1e-15, atol=1e-13)  # atol: a*b+c may be one fused op


SHAPE = (4, 8, 16)


def test_constant_tuple_slices_stay_constant():
    @cuda.jit
    def k(out):
        inner = SHAPE[1:]
        out[0] = inner[0] * inner[1]
        out[1] = len(SHAPE[::-1] + SHAPE)

    out = simt.zeros(2, dtype=np.int64)
    k[1, 1](out)
    np.testing.assert_array_equal(out.get(), [128, 6])
    assert "{8L, 16L}" in next(iter(k.inspect_source().values()))  # the slice was folded at compile time


def test_device_functions_return_tuples(rng):
    @cuda.jit(device=True)
    def stats(a, b, c):
        t = (a, b, c)
        return min(t), max(t), t[1:] + t[:1]

    @cuda.jit(device=True)
    def swap(pair):
        return pair[::-1]

    @cuda.jit
    def k(A, OUT):
        i = cuda.grid(1)
        if i < A.shape[0]:
            lo, hi, rot = stats(A[i, 0], A[i, 1], A[i, 2])
            x, y = swap((lo, i))
            OUT[i, 0] = lo
            OUT[i, 1] = hi
            OUT[i, 2] = rot[0] - rot[2]
            OUT[i, 3] = x + y

    a = rng.uniform(-5, 5, (N, 3))
    out = simt.zeros((N, 4))
    launch(k, N, simt.asarray(a), out)
    expected = np.stack([a.min(axis=1), a.max(axis=1), a[:, 1] - a[:, 0], np.arange(N) + a.min(axis=1)], axis=1)
    np.testing.assert_allclose(out.get(), expected, rtol=1e-15, atol=1e-13)  # atol: a*b+c may be one fused op


@pytest.mark.parametrize("source,message", [
    ("t[i:]", "a tuple can only be sliced with constant integer bounds"),
    ("t[::0]", "slice step cannot be zero"),
    ("t[1.5:]", "constant integer bounds"),
])
def test_tuple_slice_errors(tmp_path, source, message):
    text = f"def k(A):\n    i = cuda.grid(1)\n    t = (1, 2, 3)\n    A[0] = len({source})\n"
    error = typing_error(tmp_path, text, simt.zeros(1))
    assert message in error, error


@cuda.jit(device=True, inline=True)
def rotate(t):
    return t[1:] + t[:1]


def test_tuples_through_inline_device_functions_and_loops(rng):
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        if i < A.size:
            t = (A[i], i, A[i] * 2, np.float32(1))
            s = rotate(t)[::-1] + t[1:3]  # (A, 1, 2A, i, i, 2A)
            acc = 0.0
            for v in s[:4]:
                acc += v
            out[i] = acc + len(s) + s[-1]

    a = rng.uniform(-10, 10, N)
    out = simt.zeros(N)
    launch(k, N, simt.asarray(a), out)
    # The reference adds in the kernel's order, so float64 rounding matches exactly
    # (5a + i + 7 in another order differs by an ulp where the terms cancel).
    acc = 0.0 + a + 1.0 + 2 * a + np.arange(N)
    np.testing.assert_array_equal(out.get(), acc + 6 + 2 * a)
