"""The `cmath` module in kernels against Python's cmath, on fresh random complex data in
complex128 and complex64: numba's typing (complex64 stays complex64, real arguments become
complex), special values, polar/rect/phase, and error messages."""
import cmath
import math

import numpy as np
import pytest

import simt
from kernel_text import typing_error
from simt import cuda

N = 400

UNARY = [cmath.sqrt, cmath.exp, cmath.log, cmath.log10, cmath.sin, cmath.cos, cmath.tan, cmath.asin, cmath.acos,
         cmath.atan, cmath.sinh, cmath.cosh, cmath.tanh, cmath.asinh, cmath.acosh, cmath.atanh]


def launch(kernel, n, *args):
    kernel[(n + 127) // 128, 128](*args)


def random_complex(rng, n, dtype, scale=2.0):
    z = rng.uniform(-scale, scale, n) + 1j * rng.uniform(-scale, scale, n)
    return z.astype(dtype)


def close(got, expected, dtype):
    """Componentwise closeness relative to |expected| (complex functions mix their parts)."""
    tol = 1e-13 if dtype == np.complex128 else 2e-5
    err = np.abs(got - expected)
    bound = tol * np.maximum(np.abs(expected), 1.0)
    bad = np.flatnonzero(err > bound)
    assert bad.size == 0, f"{bad.size} mismatches, first at {bad[0]}: got {got[bad[0]]}, expected {expected[bad[0]]}"


def unary_kernel(fn):
    @cuda.jit
    def k(Z, out):
        i = cuda.grid(1)
        if i < Z.size:
            out[i] = fn(Z[i])
    return k


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
@pytest.mark.parametrize("fn", UNARY, ids=[f.__name__ for f in UNARY])
def test_cmath_matches_python(rng, fn, dtype):
    z = random_complex(rng, N, dtype)
    out = simt.zeros(N, dtype=np.complex128)
    launch(unary_kernel(fn), N, simt.asarray(z), out)
    got = out.get()
    close(got, np.array([fn(complex(v)) for v in z]), dtype)
    if dtype == np.complex64:  # computed in complex64
        np.testing.assert_array_equal(got, got.astype(np.complex64))


@pytest.mark.parametrize("fn", UNARY, ids=[f.__name__ for f in UNARY])
def test_cmath_on_large_and_small_magnitudes(rng, fn):
    z = random_complex(rng, N, np.complex128) * 10.0 ** rng.integers(-6, 3, N)
    if fn in (cmath.exp, cmath.sin, cmath.cos, cmath.sinh, cmath.cosh, cmath.tan, cmath.tanh):
        z = z.real.clip(-300, 300) + 1j * z.imag.clip(-300, 300)
    out = simt.zeros(N, dtype=np.complex128)
    launch(unary_kernel(fn), N, simt.asarray(z), out)
    close(out.get(), np.array([fn(complex(v)) for v in z]), np.complex128)


@pytest.mark.parametrize("fn", [cmath.sqrt, cmath.log, cmath.asin, cmath.acos, cmath.atan, cmath.asinh, cmath.acosh,
                                cmath.atanh], ids=lambda f: f.__name__)
def test_branch_cuts_follow_the_sign_of_zero(rng, fn):
    # Points on the real-axis cuts (|x| > 1 and x < 0) and imaginary-axis cuts (|y| > 1), from both sides.
    x = rng.uniform(1.01, 5, 50) * rng.choice([-1, 1], 50)
    points = [complex(v, s) for v in x.tolist() for s in (0.0, -0.0)]
    points += [complex(s, v) for v in x.tolist() for s in (0.0, -0.0)]
    z = np.array(points)
    out = simt.zeros(z.size, dtype=np.complex128)
    launch(unary_kernel(fn), z.size, simt.asarray(z), out)
    close(out.get(), np.array([fn(v) for v in points]), np.complex128)


def test_real_arguments_become_complex(rng):
    @cuda.jit
    def k(X, X32, out, out32):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = cmath.sqrt(X[i]) + cmath.log(X[i], 2.0)
            out32[i] = cmath.acos(X32[i])

    x = rng.uniform(-5, 5, N)
    x32 = rng.uniform(-3, 3, N).astype(np.float32)
    out, out32 = simt.zeros(N, dtype=np.complex128), simt.zeros(N, dtype=np.complex128)
    launch(k, N, simt.asarray(x), simt.asarray(x32), out, out32)
    close(out.get(), np.array([cmath.sqrt(v) + cmath.log(v, 2.0) for v in x.tolist()]), np.complex128)
    got32 = out32.get()
    close(got32, np.array([cmath.acos(float(v)) for v in x32]), np.complex64)
    np.testing.assert_array_equal(got32, got32.astype(np.complex64))


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_polar_rect_phase(rng, dtype):
    @cuda.jit
    def k(Z, R, PHI, PH, BACK):
        i = cuda.grid(1)
        if i < Z.size:
            r, phi = cmath.polar(Z[i])
            R[i] = r
            PHI[i] = phi
            PH[i] = cmath.phase(Z[i])
            BACK[i] = cmath.rect(r, phi)

    z = random_complex(rng, N, dtype, scale=100.0)
    real = np.float64 if dtype == np.complex128 else np.float32
    r, phi, ph, back = simt.zeros(N, dtype=real), simt.zeros(N, dtype=real), simt.zeros(N, dtype=real), simt.zeros(N, dtype=dtype)
    launch(k, N, simt.asarray(z), r, phi, ph, back)
    tol = dict(rtol=1e-14) if dtype == np.complex128 else dict(rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(r.get(), np.abs(z.astype(np.complex128)), **tol)
    np.testing.assert_allclose(phi.get(), np.angle(z.astype(np.complex128)), **tol)
    np.testing.assert_array_equal(ph.get(), phi.get())
    close(back.get().astype(np.complex128), z.astype(np.complex128), dtype)


def test_predicates_and_constants():
    @cuda.jit
    def k(Z, NAN, INF, FIN, C):
        i = cuda.grid(1)
        if i < Z.size:
            NAN[i] = cmath.isnan(Z[i])
            INF[i] = cmath.isinf(Z[i])
            FIN[i] = cmath.isfinite(Z[i])
        if i == 0:
            C[0] = cmath.pi + cmath.e * 1j
            C[1] = cmath.tau
            C[2] = cmath.infj
            C[3] = cmath.inf

    z = np.array([1 + 2j, complex(math.inf, 0), complex(0, -math.inf), complex(math.nan, 1), complex(1, math.nan),
                  complex(math.inf, math.nan), 0j])
    n = z.size
    flags = [simt.zeros(n, dtype=np.bool_) for _ in range(3)]
    c = simt.zeros(4, dtype=np.complex128)
    launch(k, n, simt.asarray(z), *flags, c)
    np.testing.assert_array_equal(flags[0].get(), [cmath.isnan(v) for v in z])
    np.testing.assert_array_equal(flags[1].get(), [cmath.isinf(v) for v in z])
    np.testing.assert_array_equal(flags[2].get(), [cmath.isfinite(v) for v in z])
    np.testing.assert_array_equal(c.get(), [cmath.pi + cmath.e * 1j, cmath.tau, cmath.infj, cmath.inf])


def test_special_values_of_sqrt_exp_log():
    @cuda.jit
    def k(Z, S, E, L):
        i = cuda.grid(1)
        if i < Z.size:
            S[i] = cmath.sqrt(Z[i])
            E[i] = cmath.exp(Z[i])
            L[i] = cmath.log(Z[i])

    z = np.array([0j, complex(-0.0, 0.0), complex(-1, 0.0), complex(-1, -0.0), complex(4, 0), complex(0, math.inf),
                  complex(-math.inf, 1), complex(math.inf, -1), complex(1e308, 1e308), complex(-4, 0.0)])
    n = z.size
    s, e, lg = (simt.zeros(n, dtype=np.complex128) for _ in range(3))
    launch(k, n, simt.asarray(z), s, e, lg)
    for i, v in enumerate(z.tolist()):
        assert _same(s.get()[i], cmath.sqrt(v)), (v, s.get()[i], cmath.sqrt(v))
        if not (math.isinf(v.real) or math.isinf(v.imag)) and abs(v) < 700:
            assert _same(e.get()[i], cmath.exp(v)), (v, e.get()[i], cmath.exp(v))
        if v != 0:
            assert _same(lg.get()[i], cmath.log(v)), (v, lg.get()[i], cmath.log(v))


def _same(a, b):
    """Equal to a few ulps, with the sign of zero parts and NaN-ness matching."""
    for x, y in ((a.real, b.real), (a.imag, b.imag)):
        if math.isnan(y):
            if not math.isnan(x):
                return False
        elif x != y and not math.isclose(x, y, rel_tol=1e-15):
            return False
        elif y == 0 and math.copysign(1, x) != math.copysign(1, y):
            return False
    return True


@pytest.mark.parametrize("source,message", [
    ("cmath.sqrt(A)", "cmath.sqrt() needs a number, not array(float64, 1d, C)"),
    ("cmath.rect(z, 1.0)", "cmath.rect() needs a real number, not complex128"),
    ("cmath.phase()", "cmath.phase() missing required argument 'z'"),
    ("cmath.log(z, 2, 3)", "cmath.log() takes at most 2 arguments (3 given)"),
])
def test_errors(tmp_path, source, message):
    text = typing_error(tmp_path, f"def k(A, z):\n    A[0] = abs({source})\n", simt.zeros(1), 1j)
    assert message in text, text
