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


FP16_BINARY = [("hadd", np.add), ("hsub", np.subtract), ("hmul", np.multiply), ("hdiv", np.divide),
               ("hmax", np.fmax), ("hmin", np.fmin)]
FP16_COMPARE = [("heq", np.equal), ("hne", np.not_equal), ("hgt", np.greater), ("hge", np.greater_equal),
                ("hlt", np.less), ("hle", np.less_equal)]


def test_fp16_intrinsics(rng):
    @cuda.jit
    def k(A, B, C, OUT, CMP):
        i = cuda.grid(1)
        if i < A.size:
            a, b, c = A[i], B[i], C[i]
            OUT[i, 0] = cuda.fp16.hadd(a, b)
            OUT[i, 1] = cuda.fp16.hsub(a, b)
            OUT[i, 2] = cuda.fp16.hmul(a, b)
            OUT[i, 3] = cuda.fp16.hdiv(a, b)
            OUT[i, 4] = cuda.fp16.hmax(a, b)
            OUT[i, 5] = cuda.fp16.hmin(a, b)
            OUT[i, 6] = cuda.fp16.hneg(a)
            OUT[i, 7] = cuda.fp16.habs(a)
            OUT[i, 8] = cuda.fp16.hfma(a, b, c)
            OUT[i, 9] = cuda.fp16.hsqrt(b)
            OUT[i, 10] = cuda.fp16.hfloor(a)
            OUT[i, 11] = cuda.fp16.hrcp(b)
            CMP[i, 0] = cuda.fp16.heq(a, b)
            CMP[i, 1] = cuda.fp16.hne(a, b)
            CMP[i, 2] = cuda.fp16.hgt(a, b)
            CMP[i, 3] = cuda.fp16.hge(a, b)
            CMP[i, 4] = cuda.fp16.hlt(a, b)
            CMP[i, 5] = cuda.fp16.hle(a, b)

    a, b, c = halves(rng, -20, 20), halves(rng, 0.25, 20), halves(rng, -20, 20)
    b[:50] = np.abs(a[:50])  # some equal pairs
    c[50:150] = (-(a[50:150].astype(np.float64) * b[50:150]) + rng.uniform(-1, 1, 100) * 2.0**-8).astype(np.float16)
    out, cmp = simt.zeros((N, 12), dtype=np.float16), simt.zeros((N, 6), dtype=np.bool_)
    launch(k, N, simt.asarray(a), simt.asarray(b), simt.asarray(c), out, cmp)
    got = out.get()
    for col, (_, fn) in enumerate(FP16_BINARY):
        np.testing.assert_array_equal(got[:, col], fn(a, b))
    np.testing.assert_array_equal(got[:, 6], -a)
    np.testing.assert_array_equal(got[:, 7], np.abs(a))
    exact_fma = a.astype(np.float64) * b + c  # exact in float64 for float16 inputs
    np.testing.assert_array_equal(got[:, 8], exact_fma.astype(np.float16))
    np.testing.assert_array_equal(got[:, 9], np.sqrt(b))
    np.testing.assert_array_equal(got[:, 10], np.floor(a))
    np.testing.assert_array_equal(got[:, 11], (1 / b.astype(np.float64)).astype(np.float16))
    for col, (_, fn) in enumerate(FP16_COMPARE):
        np.testing.assert_array_equal(cmp.get()[:, col], fn(a, b))


def test_fp16_transcendentals_within_one_ulp(rng):
    @cuda.jit
    def k(A, OUT):
        i = cuda.grid(1)
        if i < A.size:
            a = A[i]
            OUT[i, 0] = cuda.fp16.hsin(a)
            OUT[i, 1] = cuda.fp16.hcos(a)
            OUT[i, 2] = cuda.fp16.hexp(a)
            OUT[i, 3] = cuda.fp16.hexp2(a)
            OUT[i, 4] = cuda.fp16.hexp10(a)
            OUT[i, 5] = cuda.fp16.hlog(abs(a) + np.float16(0.5))
            OUT[i, 6] = cuda.fp16.hlog2(abs(a) + np.float16(0.5))
            OUT[i, 7] = cuda.fp16.hlog10(abs(a) + np.float16(0.5))
            OUT[i, 8] = cuda.fp16.hrsqrt(abs(a) + np.float16(0.5))

    a = halves(rng, -3, 3)
    out = simt.zeros((N, 9))
    launch(k, N, simt.asarray(a), out)
    x = a.astype(np.float64)
    y = (np.abs(a) + np.float16(0.5)).astype(np.float64)  # the kernel adds in float16
    expected = [np.sin(x), np.cos(x), np.exp(x), np.exp2(x), 10 ** x, np.log(y), np.log2(y), np.log10(y), 1 / np.sqrt(y)]
    got = out.get()
    for col, want in enumerate(expected):
        ulp = np.spacing(np.abs(want).astype(np.float16)).astype(np.float64)
        assert (np.abs(got[:, col] - want) <= ulp).all(), col


def test_augmented_assignment_on_half_arrays(rng):
    @cuda.jit
    def k(A, B, ACC):
        i = cuda.grid(1)
        if i < A.size:
            ACC[i] += A[i] * B[i]
            ACC[i] -= np.float16(0.5)
            ACC[i] *= 2

    a, b, acc0 = halves(rng, -4, 4), halves(rng, -4, 4), halves(rng, -4, 4)
    acc = simt.asarray(acc0)
    launch(k, N, simt.asarray(a), simt.asarray(b), acc)
    # `*= 2` multiplies by an int64, so that step is float64 math rounded back into the array
    expected = (((acc0 + a * b) - np.float16(0.5)).astype(np.float64) * 2).astype(np.float16)
    np.testing.assert_array_equal(acc.get(), expected)
