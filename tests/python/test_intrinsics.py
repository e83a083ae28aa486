"""numba.cuda's arithmetic intrinsics (cuda.popc, clz, ffs, brev, fma, cbrt) against Python
references on fresh random integers and floats, with numba's result types."""
from fractions import Fraction

import numpy as np
import pytest

import simt
from simt import cuda

N = 500
INT_TYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def launch(kernel, n, *args):
    kernel[(n + 127) // 128, 128](*args)


def random_ints(rng, dtype):
    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, N, dtype=dtype, endpoint=True)
    x[:3] = [0, info.max, info.min]
    return x


def pattern(v, bits):
    return int(v) & ((1 << bits) - 1)


@pytest.mark.parametrize("dtype", INT_TYPES, ids=lambda t: t.__name__)
def test_bit_intrinsics(rng, dtype):
    @cuda.jit
    def k(X, POPC, CLZ, FFS, BREV):
        i = cuda.grid(1)
        if i < X.size:
            POPC[i] = cuda.popc(X[i])
            CLZ[i] = cuda.clz(X[i])
            FFS[i] = cuda.ffs(X[i])
            BREV[i] = cuda.brev(X[i])

    x = random_ints(rng, dtype)
    bits = np.dtype(dtype).itemsize * 8
    brev_bits = 64 if bits == 64 else 32
    popc, clz, ffs = (simt.zeros(N, dtype=np.int64) for _ in range(3))
    brev = simt.zeros(N, dtype=np.uint64)
    launch(k, N, simt.asarray(x), popc, clz, ffs, brev)
    p = [pattern(v, bits) for v in x]
    np.testing.assert_array_equal(popc.get(), [bin(v).count("1") for v in p])
    np.testing.assert_array_equal(clz.get(), [bits - v.bit_length() for v in p])
    np.testing.assert_array_equal(ffs.get(), [(v & -v).bit_length() for v in p])
    wide = [pattern(v, brev_bits) for v in x]  # brev works on the value as uint32 / uint64
    np.testing.assert_array_equal(brev.get(), [int(format(v, f"0{brev_bits}b")[::-1], 2) for v in wide])


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fma_rounds_once(rng, dtype):
    @cuda.jit
    def k(A, B, C, out):
        i = cuda.grid(1)
        if i < A.size:
            out[i] = cuda.fma(A[i], B[i], C[i])

    a, b = rng.uniform(-10, 10, N).astype(dtype), rng.uniform(-10, 10, N).astype(dtype)
    c = (-(a.astype(np.float64) * b) + rng.uniform(-1e-3, 1e-3, N)).astype(dtype)  # cancellation shows rounding
    out = simt.zeros(N, dtype=dtype)
    launch(k, N, simt.asarray(a), simt.asarray(b), simt.asarray(c), out)
    exact = [Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)) for x, y, z in zip(a, b, c)]
    if dtype == np.float64:
        np.testing.assert_array_equal(out.get(), [float(e) for e in exact])
    else:
        np.testing.assert_array_equal(out.get(), [round_to_float32(e) for e in exact])


def round_to_float32(exact):
    """The float32 nearest to a Fraction (ties to even), without double rounding."""
    guess = np.float32(float(exact))
    candidates = [guess, np.nextafter(guess, np.float32(np.inf)), np.nextafter(guess, np.float32(-np.inf))]
    return min(candidates, key=lambda f: (abs(Fraction(float(f)) - exact), int(f.view(np.uint32)) & 1))


def test_cbrt_and_types(rng):
    @cuda.jit
    def k(X, X32, out, out32):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = cuda.cbrt(X[i])
            out32[i] = cuda.cbrt(X32[i]) + cuda.fma(X32[i], X32[i], X32[i])

    x = rng.uniform(-1000, 1000, N)
    x32 = rng.uniform(-10, 10, N).astype(np.float32)
    out, out32 = simt.zeros(N), simt.zeros(N)
    launch(k, N, simt.asarray(x), simt.asarray(x32), out, out32)
    np.testing.assert_allclose(out.get(), np.cbrt(x), rtol=1e-15)
    got = out32.get()
    np.testing.assert_array_equal(got, got.astype(np.float32))  # float32 in, float32 out
    np.testing.assert_allclose(got, np.cbrt(x32.astype(np.float64)) + x32.astype(np.float64) * (x32 + 1), rtol=1e-5,
                               atol=1e-5)


def test_intrinsics_are_kernel_only():
    with pytest.raises(RuntimeError, match="cuda.popc\\(\\) can only be called inside a @cuda.jit kernel"):
        cuda.popc(3)
