"""float16 in kernels against NumPy's float16 on fresh random data. Each operation rounds once to
half precision (as cuda_fp16 does), so arithmetic matches NumPy bit for bit; math functions
match within one float16 rounding."""
import math

import numpy as np
import pytest

import simt
from simt import cuda

N = 800


def launch(kernel, n, *args):
    kernel[(n + 127) // 128, 128](*args)


def halves(rng, low, high, n=N):
    return rng.uniform(low, high, n).astype(np.float16)


def test_arithmetic_is_bit_exact(rng):
    @cuda.jit
    def k(A, B, ADD, SUB, MUL, DIV, NEG, MIX):
        i = cuda.grid(1)
        if i < A.size:
            ADD[i] = A[i] + B[i]
            SUB[i] = A[i] - B[i]
            MUL[i] = A[i] * B[i]
            DIV[i] = A[i] / B[i]
            NEG[i] = -A[i] * abs(B[i])
            t = A[i] * B[i] + A[i]  # stays float16 (rounded after each step)
            MIX[i] = t / B[i]

    a, b = halves(rng, -100, 100), halves(rng, 0.5, 60)
    outs = [simt.zeros(N, dtype=np.float16) for _ in range(6)]
    launch(k, N, simt.asarray(a), simt.asarray(b), *outs)
    expected = [a + b, a - b, a * b, a / b, -a * np.abs(b), (a * b + a) / b]
    for out, want in zip(outs, expected):
        np.testing.assert_array_equal(out.get(), want)


def test_floor_division_modulo_and_power(rng):
    @cuda.jit
    def k(A, B, E, FD, MOD, POW, IPOW):
        i = cuda.grid(1)
        if i < A.size:
            FD[i] = A[i] // B[i]
            MOD[i] = A[i] % B[i]
            POW[i] = abs(A[i]) ** (B[i] / B[i] * np.float16(0.5))
            IPOW[i] = B[i] ** 2 + B[i] ** E[i]

    a, b = halves(rng, -50, 50), halves(rng, 0.5, 8)
    e = rng.integers(-2, 3, N)
    fd, mod, pw, ipw = (simt.zeros(N, dtype=np.float16) for _ in range(4))
    launch(k, N, simt.asarray(a), simt.asarray(b), simt.asarray(e), fd, mod, pw, ipw)
    np.testing.assert_array_equal(fd.get(), a // b)
    np.testing.assert_array_equal(mod.get(), a % b)
    np.testing.assert_array_equal(pw.get(), np.sqrt(np.abs(a)))
    # b ** e with an int64 exponent is float64 (numba); the sum is rounded once into the array
    expected = (b.astype(np.float64) ** 2 + b.astype(np.float64) ** e).astype(np.float16)
    np.testing.assert_allclose(ipw.get().astype(np.float64), expected.astype(np.float64), rtol=1e-3)


def test_comparisons_min_max_and_promotion(rng):
    @cuda.jit
    def k(A, B, F32, LT, MX, P32, P64):
        i = cuda.grid(1)
        if i < A.size:
            LT[i] = A[i] < B[i]
            MX[i] = max(A[i], B[i]) - min(A[i], B[i])
            P32[i] = A[i] + F32[i]   # float16 + float32 -> float32
            P64[i] = A[i] + i        # float16 + int64 -> float64

    a, b = halves(rng, -10, 10), halves(rng, -10, 10)
    f = rng.standard_normal(N).astype(np.float32)
    lt, mx = simt.zeros(N, dtype=np.bool_), simt.zeros(N, dtype=np.float16)
    p32, p64 = simt.zeros(N, dtype=np.float32), simt.zeros(N)
    launch(k, N, simt.asarray(a), simt.asarray(b), simt.asarray(f), lt, mx, p32, p64)
    np.testing.assert_array_equal(lt.get(), a < b)
    np.testing.assert_array_equal(mx.get(), np.maximum(a, b) - np.minimum(a, b))
    np.testing.assert_array_equal(p32.get(), a.astype(np.float32) + f)
    np.testing.assert_array_equal(p64.get(), a.astype(np.float64) + np.arange(N))


@pytest.mark.parametrize("fn,domain,np_fn", [
    (math.sin, (-6, 6), np.sin), (math.cos, (-6, 6), np.cos), (math.exp, (-5, 5), np.exp),
    (math.log, (0.01, 100), np.log), (math.sqrt, (0, 1000), np.sqrt), (math.log2, (0.01, 100), np.log2),
    (math.log10, (0.01, 100), np.log10), (math.fabs, (-5, 5), np.fabs),
], ids=lambda v: getattr(v, "__name__", ""))
def test_half_math_returns_half(rng, fn, domain, np_fn):
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        if i < A.size:
            out[i] = fn(A[i])

    a = halves(rng, *domain)
    out = simt.zeros(N)  # float64, to see that the result was rounded to float16
    launch(k, N, simt.asarray(a), out)
    got = out.get()
    np.testing.assert_array_equal(got, got.astype(np.float16))
    expected = np_fn(a.astype(np.float64))
    spacing = np.spacing(np.abs(expected).astype(np.float16)).astype(np.float64)
    assert (np.abs(got - expected) <= spacing).all()  # within one float16 ulp of the exact value


def test_half_math_without_a_half_version_gives_float32(rng):
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        if i < A.size:
            out[i] = math.tan(A[i])

    a = halves(rng, -1.4, 1.4)
    out = simt.zeros(N)
    launch(k, N, simt.asarray(a), out)
    got = out.get()
    np.testing.assert_array_equal(got, got.astype(np.float32))
    np.testing.assert_allclose(got, np.tan(a.astype(np.float64)), rtol=4e-6)


def test_half_scalar_arguments_casts_and_constants(rng):
    @cuda.jit
    def k(A, h, X, OUT, CAST, BACK):
        i = cuda.grid(1)
        if i < A.size:
            OUT[i] = A[i] * h + np.float16(1.5)
            CAST[i] = np.float16(X[i])
            BACK[i] = np.float64(A[i]) + np.int32(A[i])

    a = halves(rng, -100, 100)
    x = rng.uniform(-70000, 70000, N)
    x[:4] = [65519.99, 65520.0, 1e-8, -2.9802322387695312e-08]  # overflow boundary, underflow, halfway
    h = np.float16(rng.uniform(-3, 3))
    out, cast, back = simt.zeros(N, dtype=np.float16), simt.zeros(N, dtype=np.float16), simt.zeros(N)
    launch(k, N, simt.asarray(a), h, simt.asarray(x), out, cast, back)
    np.testing.assert_array_equal(out.get(), a * h + np.float16(1.5))
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(cast.get(), x.astype(np.float16))  # one rounding from float64
    np.testing.assert_array_equal(back.get(), a.astype(np.float64) + np.trunc(a).astype(np.float64))
