"""The `math` module in kernels against Python's math in float64, on fresh random data: every
function numba's CUDA target supports, float32 and float64 (and integer) arguments, numba's
result types, special values and error messages. float32 tolerances allow the few-ulp errors
CUDA documents for its single-precision functions, since the same tests run on the GPU."""
import math

import numpy as np
import pytest

import simt
from kernel_text import typing_error
from simt import cuda

N = 500

# function, input range
UNARY = [
    (math.sin, (-10, 10)), (math.cos, (-10, 10)), (math.tan, (-1.5, 1.5)), (math.asin, (-1, 1)),
    (math.acos, (-1, 1)), (math.atan, (-20, 20)), (math.sinh, (-5, 5)), (math.cosh, (-5, 5)),
    (math.tanh, (-5, 5)), (math.asinh, (-20, 20)), (math.acosh, (1, 20)), (math.atanh, (-0.99, 0.99)),
    (math.exp, (-20, 20)), (math.expm1, (-2, 2)), (math.log, (1e-3, 1e3)), (math.log2, (1e-3, 1e3)),
    (math.log10, (1e-3, 1e3)), (math.log1p, (-0.9, 10)), (math.sqrt, (0, 1e4)), (math.fabs, (-10, 10)),
    (math.erf, (-3, 3)), (math.erfc, (-3, 3)), (math.gamma, (0.1, 10)), (math.lgamma, (0.1, 20)),
    (math.radians, (-360, 360)), (math.degrees, (-7, 7)),
]
if hasattr(math, "exp2"):
    UNARY.append((math.exp2, (-20, 20)))
if hasattr(math, "cbrt"):
    UNARY.append((math.cbrt, (-100, 100)))

BINARY = [
    (math.atan2, (-5, 5), (-5, 5)), (math.pow, (0.1, 5), (-3, 3)), (math.fmod, (-10, 10), (0.5, 3)),
    (math.hypot, (-10, 10), (-10, 10)), (math.copysign, (-10, 10), (-1, 1)),
    (math.remainder, (-10, 10), (0.5, 3)), (math.nextafter, (-10, 10), (-10, 10)),
]

TOLERANCE = {np.float64: dict(rtol=1e-12, atol=1e-14), np.float32: dict(rtol=4e-6, atol=1e-6)}


def launch(kernel, n, *args):
    kernel[(n + 127) // 128, 128](*args)


def unary_kernel(fn):
    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = fn(X[i])
    return k


def binary_kernel(fn):
    @cuda.jit
    def k(X, Y, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = fn(X[i], Y[i])
    return k


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fn,domain", UNARY, ids=[f.__name__ for f, _ in UNARY])
def test_unary_math_matches_python(rng, fn, domain, dtype):
    x = rng.uniform(*domain, N).astype(dtype)
    out = simt.zeros(N)  # float64: shows the precision the kernel computed in
    launch(unary_kernel(fn), N, simt.asarray(x), out)
    got = out.get()
    expected = np.array([fn(float(v)) for v in x])
    np.testing.assert_allclose(got, expected, **TOLERANCE[dtype])
    if dtype == np.float32:  # numba: float32 in, float32 out
        np.testing.assert_array_equal(got, got.astype(np.float32))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fn,dx,dy", BINARY, ids=[f.__name__ for f, _, _ in BINARY])
def test_binary_math_matches_python(rng, fn, dx, dy, dtype):
    x, y = rng.uniform(*dx, N).astype(dtype), rng.uniform(*dy, N).astype(dtype)
    out = simt.zeros(N)
    launch(binary_kernel(fn), N, simt.asarray(x), simt.asarray(y), out)
    got = out.get()
    if fn is math.nextafter and dtype == np.float32:
        expected = np.nextafter(x, y).astype(np.float64)  # one float32 step
    else:
        expected = np.array([fn(float(a), float(b)) for a, b in zip(x, y)])
    np.testing.assert_allclose(got, expected, **TOLERANCE[dtype])
    if dtype == np.float32:
        np.testing.assert_array_equal(got, got.astype(np.float32))


def test_integer_arguments_compute_in_float64(rng):
    @cuda.jit
    def k(I, out):
        i = cuda.grid(1)
        if i < I.size:
            out[i] = math.sqrt(I[i]) + math.log(I[i], 10) + math.atan2(I[i], 7)

    a = rng.integers(1, 10**6, N).astype(np.int32)
    out = simt.zeros(N)
    launch(k, N, simt.asarray(a), out)
    expected = np.array([math.sqrt(v) + math.log(v, 10) + math.atan2(v, 7) for v in a.tolist()])
    np.testing.assert_allclose(out.get(), expected, rtol=1e-13)
    assert not np.array_equal(out.get(), out.get().astype(np.float32))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_floor_ceil_trunc_give_integers(rng, dtype):
    @cuda.jit
    def k(X, F, C, T):
        i = cuda.grid(1)
        if i < X.size:
            F[i] = math.floor(X[i])
            C[i] = math.ceil(X[i])
            T[i] = math.trunc(X[i])

    x = rng.uniform(-1e6, 1e6, N).astype(dtype)
    f, c, t = (simt.zeros(N, dtype=np.int64) for _ in range(3))
    launch(k, N, simt.asarray(x), f, c, t)
    np.testing.assert_array_equal(f.get(), np.floor(x).astype(np.int64))
    np.testing.assert_array_equal(c.get(), np.ceil(x).astype(np.int64))
    np.testing.assert_array_equal(t.get(), np.trunc(x).astype(np.int64))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_frexp_ldexp_modf(rng, dtype):
    @cuda.jit
    def k(X, E, M, EXP, BACK, FRAC, WHOLE):
        i = cuda.grid(1)
        if i < X.size:
            m, e = math.frexp(X[i])
            M[i] = m
            EXP[i] = e
            BACK[i] = math.ldexp(m, e + E[i]) / 2.0 ** E[i]
            f, w = math.modf(X[i])
            FRAC[i] = f
            WHOLE[i] = w

    x = (rng.uniform(-1, 1, N) * 10.0 ** rng.integers(-30, 30, N)).astype(dtype)
    shift = rng.integers(-5, 5, N)
    outs = [simt.zeros(N, dtype=dtype), simt.zeros(N, dtype=np.int64), simt.zeros(N, dtype=dtype),
            simt.zeros(N, dtype=dtype), simt.zeros(N, dtype=dtype)]
    launch(k, N, simt.asarray(x), simt.asarray(shift), *outs)
    m, e = np.frexp(x)
    np.testing.assert_array_equal(outs[0].get(), m)
    np.testing.assert_array_equal(outs[1].get(), e)
    np.testing.assert_array_equal(outs[2].get(), x)
    frac, whole = np.modf(x)
    np.testing.assert_array_equal(outs[3].get(), frac)
    np.testing.assert_array_equal(outs[4].get(), whole)


def test_special_values_follow_python():
    @cuda.jit
    def k(X, NAN, INF, FIN, M, E, F, W):
        i = cuda.grid(1)
        if i < X.size:
            NAN[i] = math.isnan(X[i])
            INF[i] = math.isinf(X[i])
            FIN[i] = math.isfinite(X[i])
            M[i], E[i] = math.frexp(X[i])
            F[i], W[i] = math.modf(X[i])

    x = np.array([0.0, -0.0, 1.5, -2.5, math.inf, -math.inf, math.nan, 1e-310])
    n = x.size
    flags = [simt.zeros(n, dtype=np.bool_) for _ in range(3)]
    m, e, f, w = simt.zeros(n), simt.zeros(n, dtype=np.int32), simt.zeros(n), simt.zeros(n)
    launch(k, n, simt.asarray(x), *flags, m, e, f, w)
    np.testing.assert_array_equal(flags[0].get(), np.isnan(x))
    np.testing.assert_array_equal(flags[1].get(), np.isinf(x))
    np.testing.assert_array_equal(flags[2].get(), np.isfinite(x))
    for i, v in enumerate(x.tolist()):
        pm, pe = math.frexp(v)
        pf, pw = math.modf(v)
        assert (m.get()[i], e.get()[i]) == (pm, pe) or (math.isnan(pm) and math.isnan(m.get()[i]))
        for got, want in ((f.get()[i], pf), (w.get()[i], pw)):
            assert (math.isnan(want) and math.isnan(got)) or (got == want and math.copysign(1, got) == math.copysign(1, want))


def test_constants_and_integer_predicates(rng):
    @cuda.jit
    def k(I, out, flags):
        i = cuda.grid(1)
        if i < I.size:
            out[i] = I[i] * math.pi + math.e - math.tau
            flags[i] = math.isfinite(I[i]) and not math.isnan(I[i]) and not math.isinf(I[i])

    a = rng.integers(-100, 100, N)
    out, flags = simt.zeros(N), simt.zeros(N, dtype=np.bool_)
    launch(k, N, simt.asarray(a), out, flags)
    np.testing.assert_allclose(out.get(), a * math.pi + math.e - math.tau, rtol=1e-15)
    assert flags.get().all()


@pytest.mark.parametrize("source,message", [
    ("math.sin(z)", "math.sin() needs a real number, not complex128 (use cmath"),
    ("math.sqrt(A)", "math.sqrt() needs a real number, not array(float64, 1d, C)"),
    ("math.atan2(1.0)", "math.atan2() takes exactly 2 arguments (1 given)"),
    ("math.ldexp(1.0, 0.5)", "math.ldexp() exponent must be an integer, not float64"),
    ("math.frexp(z)", "(use cmath"),
    ("math.factorial(3)", "'math.factorial' is not supported in kernels"),
])
def test_errors_name_the_function_and_the_line(tmp_path, source, message):
    text = typing_error(tmp_path, f"def k(A, z):\n    A[0] = {source}\n", simt.zeros(1), 1j)
    assert message in text, text
    assert f"A[0] = {source}" in text and "^" in text
