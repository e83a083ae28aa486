"""simt.cuda.libdevice (numba.cuda.libdevice) against NumPy / Python's math in float64 on fresh
random data: float64 and float32 versions, special values, tuple results, integer functions and
conversions exactly, the rounding-mode operations checked exactly with fractions, and the errors.
Tolerances are libdevice's documented ulp errors (with margin), since the same tests run on a GPU."""
import ctypes
import ctypes.util
import math
from fractions import Fraction

import numpy as np
import pytest

import simt
from kernel_text import typing_error
from simt import cuda
from simt.cuda import libdevice

N = 300
F32, F64 = np.float32, np.float64
EPS = {F32: float(np.finfo(np.float32).eps), F64: float(np.finfo(np.float64).eps)}


def _k1(fn):
    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = fn(a[i])
    return k


def _k2(fn):
    @cuda.jit
    def k(a, b, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = fn(a[i], b[i])
    return k


def _k3(fn):
    @cuda.jit
    def k(a, b, c, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = fn(a[i], b[i], c[i])
    return k


def _k4(fn):
    @cuda.jit
    def k(a, b, c, d, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = fn(a[i], b[i], c[i], d[i])
    return k


def _t1(fn):
    @cuda.jit
    def k(a, out0, out1):
        i = cuda.grid(1)
        if i < a.size:
            r = fn(a[i])
            out0[i] = r[0]
            out1[i] = r[1]
    return k


def _t2(fn):
    @cuda.jit
    def k(a, b, out0, out1):
        i = cuda.grid(1)
        if i < a.size:
            r = fn(a[i], b[i])
            out0[i] = r[0]
            out1[i] = r[1]
    return k


_KERNELS = {1: _k1, 2: _k2, 3: _k3, 4: _k4}


def run(name, *args, out=np.float64):
    """libdevice.<name> applied elementwise to the NumPy arrays `args`; the result as NumPy."""
    fn = getattr(libdevice, name)
    n = len(args[0])
    d_out = simt.zeros(n, dtype=out)
    _KERNELS[len(args)](fn)[(n + 127) // 128, 128](*[simt.asarray(np.ascontiguousarray(a)) for a in args], d_out)
    return d_out.get()


def run_tuple(name, *args, outs=(np.float64, np.float64)):
    fn = getattr(libdevice, name)
    n = len(args[0])
    d0, d1 = simt.zeros(n, dtype=outs[0]), simt.zeros(n, dtype=outs[1])
    (_t1 if len(args) == 1 else _t2)(fn)[(n + 127) // 128, 128](*[simt.asarray(a) for a in args], d0, d1)
    return d0.get(), d1.get()


def uniform(rng, lo, hi, dtype, n=N):
    return rng.uniform(lo, hi, n).astype(dtype)


def _libm(name):
    lib = ctypes.CDLL(ctypes.util.find_library("m"))
    f = getattr(lib, name)
    f.restype = ctypes.c_double
    f.argtypes = [ctypes.c_int, ctypes.c_double] if name in ("jn", "yn") else [ctypes.c_double]
    return f


def _i1(x):
    """Modified Bessel I1 by its power series, summed exactly enough for |x| <= 30."""
    q, term, total = x * x / 4, x / 2, x / 2
    for k in range(1, 200):
        term *= q / (k * (k + 1))
        total += term
    return total


SQRT2 = math.sqrt(2)
# name, float64 reference, input range, ulps (float64 version), ulps (float32 version)
# (float64 tolerances also cover the references' own error: cos(pi * x), exp(x * x), erfc(-x / sqrt2)
# and Python's lgamma round before or after the exact function.)
UNARY = [
    ("acos", math.acos, (-1, 1), 2, 4), ("acosh", math.acosh, (1, 50), 2, 4), ("asin", math.asin, (-1, 1), 2, 4),
    ("asinh", math.asinh, (-50, 50), 2, 4), ("atan", math.atan, (-50, 50), 2, 4),
    ("atanh", math.atanh, (-0.99, 0.99), 2, 4), ("cbrt", np.cbrt, (-100, 100), 2, 2),
    ("ceil", math.ceil, (-50, 50), 0, 0), ("cos", math.cos, (-10, 10), 2, 4), ("cosh", math.cosh, (-10, 10), 2, 4),
    ("cospi", lambda x: math.cos(math.pi * x), (-4, 4), 16, 4), ("cyl_bessel_i0", np.i0, (-30, 30), 16, 6),
    ("cyl_bessel_i1", _i1, (-30, 30), 16, 6), ("erf", math.erf, (-4, 4), 2, 4),
    ("erfc", math.erfc, (-4, 8), 5, 6), ("erfcx", lambda x: math.exp(x * x) * math.erfc(x), (-3, 8), 160, 8),
    ("exp", math.exp, (-30, 30), 2, 4), ("exp10", lambda x: 10.0 ** x, (-10, 10), 2, 4),
    ("exp2", lambda x: 2.0 ** x, (-30, 30), 2, 4), ("expm1", math.expm1, (-2, 2), 2, 4),
    ("fabs", abs, (-10, 10), 0, 0), ("floor", math.floor, (-50, 50), 0, 0),
    ("j0", _libm("j0"), (0, 20), 3e6, 3e3), ("j1", _libm("j1"), (0, 20), 3e6, 3e3),
    ("lgamma", math.lgamma, (0.1, 30), 16, 8), ("log", math.log, (1e-3, 1e3), 2, 4),
    ("log10", math.log10, (1e-3, 1e3), 2, 4), ("log1p", math.log1p, (-0.9, 10), 2, 4),
    ("log2", math.log2, (1e-3, 1e3), 2, 4), ("logb", lambda x: math.floor(math.log2(abs(x))), (-1e5, 1e5), 0, 0),
    ("nearbyint", np.rint, (-50, 50), 0, 0), ("normcdf", lambda x: 0.5 * math.erfc(-x / SQRT2), (-6, 6), 64, 5),
    ("rcbrt", lambda x: 1 / np.cbrt(x), (0.01, 100), 2, 2), ("rint", np.rint, (-50, 50), 0, 0),
    ("round", lambda x: math.copysign(math.floor(abs(x) + 0.5), x), (-50, 50), 0, 0),
    ("rsqrt", lambda x: 1 / math.sqrt(x), (1e-3, 1e3), 2, 3), ("sin", math.sin, (-10, 10), 2, 4),
    ("sinh", math.sinh, (-10, 10), 2, 4), ("sinpi", lambda x: math.sin(math.pi * x), (-4, 4), 16, 4),
    ("sqrt", math.sqrt, (0, 1e4), 1, 1), ("tan", math.tan, (-1.5, 1.5), 2, 4), ("tanh", math.tanh, (-5, 5), 2, 4),
    ("tgamma", math.gamma, (0.1, 20), 8, 8), ("trunc", math.trunc, (-50, 50), 0, 0),
    ("y0", _libm("y0"), (0.1, 20), 3e6, 3e3), ("y1", _libm("y1"), (0.1, 20), 3e6, 3e3),
]


def close(got, want, ulps, dtype, scale=None):
    """|got - want| within `ulps` of the float type relative to |want| (or to `scale`)."""
    want = np.asarray(want, dtype=np.float64)
    ref = np.abs(want) if scale is None else scale
    tol = (ulps + 0.5) * EPS[dtype] * np.maximum(ref, np.finfo(dtype).tiny)
    bad = ~(np.abs(got.astype(np.float64) - want) <= tol) & ~(np.isnan(got) & np.isnan(want))
    assert not bad.any(), f"first mismatches: x-index {np.nonzero(bad)[0][:5]}, got {got[bad][:5]}, want {want[bad][:5]}"


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
@pytest.mark.parametrize("name,ref,domain,ulps_d,ulps_f", UNARY, ids=[u[0] for u in UNARY])
def test_unary(rng, name, ref, domain, ulps_d, ulps_f, dtype):
    x = uniform(rng, *domain, dtype)
    fname = name if dtype is F64 else name + "f"
    got = run(fname, x, out=dtype)
    assert got.dtype == dtype
    want = np.array([ref(float(v)) for v in x], dtype=np.float64)
    absolute = name in ("cospi", "sinpi", "sin", "cos", "j0", "j1", "y0", "y1", "lgamma")  # zeros inside the range
    close(got, want, ulps_d if dtype is F64 else ulps_f, dtype, scale=np.maximum(np.abs(want), 1.0) if absolute else None)


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
def test_inverse_error_functions(rng, dtype):
    s = "" if dtype is F64 else "f"
    ulps = 4 if dtype is F64 else 8
    y = uniform(rng, -0.999, 0.999, dtype)
    x = run("erfinv" + s, y, out=dtype)
    close(np.array([math.erf(v) for v in x], dtype=np.float64), y, ulps * 4, dtype)
    y = np.concatenate([uniform(rng, 1e-3, 1.999, dtype), 10.0 ** -rng.uniform(3, 30, N).astype(dtype)]).astype(dtype)
    x = run("erfcinv" + s, y, out=dtype)
    # erfc's slope magnifies x's error: relative d(erfc)/erfc is about 2 x dx (x 8 for y = 1e-30).
    close(np.array([math.erfc(v) for v in x]), y, ulps * 40, dtype,
          scale=np.abs(y) * (1 + 2 * np.abs(x.astype(np.float64)) ** 2))
    p = uniform(rng, 1e-6, 1 - 1e-6, dtype)
    x = run("normcdfinv" + s, p, out=dtype)
    close(np.array([0.5 * math.erfc(-v / SQRT2) for v in x]), p, ulps * 40, dtype)
    special = np.array([0.0, -0.0, 1.0, -1.0, 2.0, np.nan], dtype=dtype)
    inv = run("erfinv" + s, special, out=dtype)
    assert inv[0] == 0 and np.signbit(inv[1]) and inv[2] == np.inf and inv[3] == -np.inf and np.isnan(inv[4:]).all()
    cinv = run("erfcinv" + s, np.array([0.0, 1.0, 2.0, -1.0, 3.0], dtype=dtype), out=dtype)
    np.testing.assert_array_equal(cinv[:3], [np.inf, 0.0, -np.inf])
    assert np.isnan(cinv[3:]).all()


BINARY = [
    ("atan2", math.atan2, (-5, 5), (-5, 5), 2, 4), ("copysign", math.copysign, (-10, 10), (-1, 1), 0, 0),
    ("fdim", lambda x, y: max(x - y, 0.0), (-10, 10), (-10, 10), 0, 0), ("fmax", max, (-10, 10), (-10, 10), 0, 0),
    ("fmin", min, (-10, 10), (-10, 10), 0, 0), ("fmod", math.fmod, (-10, 10), (0.5, 3), 0, 0),
    ("hypot", math.hypot, (-10, 10), (-10, 10), 2, 4), ("pow", math.pow, (0.1, 5), (-3, 3), 2, 8),
    ("remainder", math.remainder, (-10, 10), (0.5, 3), 0, 0),
    ("rhypot", lambda x, y: 1 / math.hypot(x, y), (-10, 10), (-10, 10), 2, 3),
]


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
@pytest.mark.parametrize("name,ref,da,db,ulps_d,ulps_f", BINARY, ids=[b[0] for b in BINARY])
def test_binary(rng, name, ref, da, db, ulps_d, ulps_f, dtype):
    x, y = uniform(rng, *da, dtype), uniform(rng, *db, dtype)
    got = run(name if dtype is F64 else name + "f", x, y, out=dtype)
    want = np.array([ref(float(a), float(b)) for a, b in zip(x, y)])
    if name in ("fdim", "fmod", "remainder") and dtype is F32:
        want = want.astype(F32)  # exact in float32 arithmetic (fdim rounds once to float32)
    close(got, want, ulps_d if dtype is F64 else ulps_f, dtype, scale=1.0 if name == "atan2" else None)


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
def test_nextafter_and_norms(rng, dtype):
    s = "" if dtype is F64 else "f"
    x, y = uniform(rng, -10, 10, dtype), uniform(rng, -10, 10, dtype)
    np.testing.assert_array_equal(run("nextafter" + s, x, y, out=dtype), np.nextafter(x, y))
    a, b, c, d = (uniform(rng, -1e3, 1e3, dtype) for _ in range(4))
    ulps = 2 if dtype is F64 else 3
    n3 = np.sqrt(a.astype(F64) ** 2 + b.astype(F64) ** 2 + c.astype(F64) ** 2)
    n4 = np.sqrt(n3 ** 2 + d.astype(F64) ** 2)
    close(run("norm3d" + s, a, b, c, out=dtype), n3, ulps, dtype)
    close(run("rnorm3d" + s, a, b, c, out=dtype), 1 / n3, ulps, dtype)
    close(run("norm4d" + s, a, b, c, d, out=dtype), n4, ulps, dtype)
    close(run("rnorm4d" + s, a, b, c, d, out=dtype), 1 / n4, ulps, dtype)
    big = np.full(4, np.finfo(dtype).max / 2, dtype=dtype)
    assert np.isfinite(run("norm3d" + s, big, big, big, out=dtype)).all()  # no overflow inside
    inf = np.array([np.inf, -np.inf], dtype=dtype)
    assert (run("norm3d" + s, inf, np.array([np.nan, 1], dtype=dtype), inf, out=dtype) == np.inf).all()
    f = run("fma" + s, a, b, c, out=dtype)
    exact = [Fraction(float(p)) * Fraction(float(q)) + Fraction(float(r)) for p, q, r in zip(a, b, c)]
    np.testing.assert_array_equal(f, np.array([float(e) for e in exact]).astype(dtype) if dtype is F64
                                  else np.array([float(e) for e in exact], dtype=F64).astype(F32))


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
def test_integer_exponent_functions(rng, dtype):
    s = "" if dtype is F64 else "f"
    x = uniform(rng, -100, 100, dtype)
    e = rng.integers(-20, 20, N).astype(np.int32)
    np.testing.assert_array_equal(run("ldexp" + s, x, e, out=dtype), np.ldexp(x, e))
    np.testing.assert_array_equal(run("scalbn" + s, x, e, out=dtype), np.ldexp(x, e))
    p = rng.integers(-6, 6, N).astype(np.int32)
    close(run("powi" + s, x, p, out=dtype), [float(v) ** int(k) for v, k in zip(x, p)], 8, dtype)
    got = run("ilogb" + s, x, out=np.int32)
    np.testing.assert_array_equal(got, np.frexp(x)[1] - 1)
    # llrint rounds half to even; llround half away from zero.
    h = (rng.integers(-1000, 1000, N) / 2).astype(dtype)
    np.testing.assert_array_equal(run("llrint" + s, h, out=np.int64), np.rint(h).astype(np.int64))
    np.testing.assert_array_equal(run("llround" + s, h, out=np.int64),
                                  (np.sign(h) * np.floor(np.abs(h) + 0.5)).astype(np.int64))
    n = rng.integers(0, 5, N).astype(np.int32)
    xs = uniform(rng, 0.5, 20, dtype)
    for fname in ("jn", "yn"):
        want = [_libm(fname)(int(k), float(v)) for k, v in zip(n, xs)]
        close(run(fname + s, n, xs, out=dtype), want, 3e6 if dtype is F64 else 3e3, dtype, scale=1.0)


def test_bessel_known_values():
    x = np.array([1.0, 2.5])
    close(run("j0", x), [0.7651976865579666, -0.048383776468197996], 4, F64, scale=1.0)
    close(run("y1", x), [-0.7812128213002887, 0.14591813796678577], 4, F64, scale=1.0)
    close(run("cyl_bessel_i1", np.array([1.0, 100.0])), [0.5651591039924851, 1.068369390338162e42], 6, F64)
    close(run("cyl_bessel_i0", np.array([0.0, 700.0])), [1.0, np.i0(700.0)], 6, F64)


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
def test_tuple_results(rng, dtype):
    s = "" if dtype is F64 else "f"
    x = uniform(rng, -1e4, 1e4, dtype)
    m, e = run_tuple("frexp" + s, x, outs=(dtype, np.int32))
    wm, we = np.frexp(x)
    np.testing.assert_array_equal(m, wm)
    np.testing.assert_array_equal(e, we)
    frac, whole = run_tuple("modf" + s, x, outs=(dtype, dtype))
    np.testing.assert_array_equal(frac, np.modf(x)[0])
    np.testing.assert_array_equal(whole, np.modf(x)[1])
    y = uniform(rng, 0.5, 7, dtype)
    r, q = run_tuple("remquo" + s, x, y, outs=(dtype, np.int32))
    np.testing.assert_array_equal(r, np.array([math.remainder(a, b) for a, b in zip(x, y)]).astype(dtype))
    quotient = np.rint((x.astype(F64) - r) / y)  # the low bits of the rounded quotient, with its sign
    assert ((np.abs(q) & 7) == (np.abs(quotient).astype(np.int64) & 7)).all()
    assert (np.sign(q[q != 0]) == np.sign(quotient[q != 0])).all()
    ulps = 32 if dtype is F64 else 4  # float64: math.sin(math.pi * v) itself is off by |pi v| ulps
    t = uniform(rng, -10, 10, dtype)
    for fname, sref, cref in (("sincos", math.sin, math.cos),
                              ("sincospi", lambda v: math.sin(math.pi * v), lambda v: math.cos(math.pi * v))):
        sv, cv = run_tuple(fname + s, t, outs=(dtype, dtype))
        close(sv, [sref(float(v)) for v in t], ulps, dtype, scale=1.0)
        close(cv, [cref(float(v)) for v in t], ulps, dtype, scale=1.0)
    sv, cv = run_tuple("sincospi" + s, np.array([1.0, -2.0, 0.5, 1.5, -0.0], dtype=dtype), outs=(dtype, dtype))
    np.testing.assert_array_equal(sv, [0.0, -0.0, 1.0, -1.0, -0.0])
    np.testing.assert_array_equal(cv, [-1.0, 1.0, 0.0, 0.0, 1.0])
    assert np.signbit(sv[1]) and np.signbit(sv[4])


def test_fast_functions(rng):
    x = uniform(rng, -math.pi, math.pi, F32)
    p = uniform(rng, 0.1, 10, F32)
    # The GPU's fast intrinsics: about 2^-21 absolute error for sin/cos on [-pi, pi], a few ulps
    # (2 + 1.16 |x|... for exp) elsewhere; the cpu backend computes the accurate values.
    close(run("fast_sinf", x, out=F32), np.sin(x.astype(F64)), 16, F32, scale=1.0)
    close(run("fast_cosf", x, out=F32), np.cos(x.astype(F64)), 16, F32, scale=1.0)
    tan = np.tan(x.astype(F64) / 3)  # (__tanf is __sinf / __cosf: absolute errors near 0, as theirs)
    close(run("fast_tanf", x / 3, out=F32), tan, 64, F32, scale=np.maximum(np.abs(tan), 1.0))
    close(run("fast_expf", x, out=F32), np.exp(x.astype(F64)), 16, F32)
    close(run("fast_exp10f", x, out=F32), 10.0 ** x.astype(F64), 32, F32)
    close(run("fast_logf", p, out=F32), np.log(p.astype(F64)), 16, F32, scale=1.0)
    close(run("fast_log2f", p, out=F32), np.log2(p.astype(F64)), 16, F32, scale=1.0)
    close(run("fast_log10f", p, out=F32), np.log10(p.astype(F64)), 16, F32, scale=1.0)
    close(run("fast_powf", p, x, out=F32), p.astype(F64) ** x.astype(F64), 64, F32)
    close(run("fast_fdividef", x, p, out=F32), x.astype(F64) / p, 2, F32)
    sv, cv = run_tuple("fast_sincosf", x, outs=(F32, F32))
    close(sv, np.sin(x.astype(F64)), 16, F32, scale=1.0)
    close(cv, np.cos(x.astype(F64)), 16, F32, scale=1.0)


@pytest.mark.parametrize("dtype", [F64, F32], ids=["float64", "float32"])
def test_special_values(dtype):
    s = "" if dtype is F64 else "f"
    tiny = np.finfo(dtype).smallest_subnormal
    v = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, tiny, -tiny, 1.5], dtype=dtype)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(run("isnand" if dtype is F64 else "isnanf", v, out=np.int32) != 0, np.isnan(v))
        np.testing.assert_array_equal(run("isinfd" if dtype is F64 else "isinff", v, out=np.int32) != 0, np.isinf(v))
        np.testing.assert_array_equal(run("isfinited" if dtype is F64 else "finitef", v, out=np.int32) != 0,
                                      np.isfinite(v))
        np.testing.assert_array_equal(run("signbitd" if dtype is F64 else "signbitf", v, out=np.int32) != 0,
                                      np.signbit(v))
        for name, ref in (("sqrt", np.sqrt), ("exp", np.exp), ("log", np.log), ("fabs", np.abs), ("sin", np.sin),
                          ("atan", np.arctan), ("tanh", np.tanh), ("trunc", np.trunc), ("cbrt", np.cbrt),
                          ("expm1", np.expm1), ("log1p", np.log1p)):
            got, want = run(name + s, v, out=dtype), ref(v)
            np.testing.assert_array_equal(np.isnan(got), np.isnan(want), err_msg=name)
            fin = ~np.isnan(want) & (np.isinf(want) | (want == 0))
            np.testing.assert_array_equal(got[fin], want[fin], err_msg=name)
            np.testing.assert_array_equal(np.signbit(got[fin]), np.signbit(want[fin]), err_msg=name)
        r = run("rsqrt" + s, np.array([0.0, -0.0, np.inf, -1.0], dtype=dtype), out=dtype)
        assert r[0] == np.inf and r[1] == -np.inf and r[2] == 0 and np.isnan(r[3])
        lg = run("logb" + s, np.array([0.0, np.inf, tiny], dtype=dtype), out=dtype)
        assert lg[0] == -np.inf and lg[1] == np.inf and lg[2] == np.frexp(tiny)[1] - 1


def test_saturate_and_rsqrt_rn(rng):
    x = np.concatenate([uniform(rng, -2, 2, F32), np.array([np.nan, np.inf, -np.inf], dtype=F32)])
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(run("saturatef", x, out=F32), np.nan_to_num(np.clip(x, 0, 1), nan=0.0))
    y = (10.0 ** rng.uniform(-30, 30, N)).astype(F32)
    got = run("frsqrt_rn", y, out=F32)
    for g, v in zip(got, y):  # correctly rounded: the exact value is within half an ulp of g
        exact_sq = 1 / Fraction(float(v))
        lo, hi = ((Fraction(float(g)) + Fraction(float(np.nextafter(g, k)))) / 2 for k in (F32(0), F32(np.inf)))
        assert lo * lo <= exact_sq <= hi * hi


def _ints(rng, bits, n=N):
    info = np.iinfo(np.int32 if bits == 32 else np.int64)
    edge = np.array([0, 1, -1, info.min, info.max, 0x7ff, -0x800000, 0x800000], dtype=info.dtype)
    return np.concatenate([rng.integers(info.min, info.max, n, dtype=info.dtype, endpoint=True), edge])


def _wrap(v, bits):
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _u(v, bits):
    return int(v) & ((1 << bits) - 1)


INT2 = [
    ("hadd", 32, lambda x, y: (x + y) >> 1), ("rhadd", 32, lambda x, y: (x + y + 1) >> 1),
    ("uhadd", 32, lambda x, y: (_u(x, 32) + _u(y, 32)) >> 1),
    ("urhadd", 32, lambda x, y: (_u(x, 32) + _u(y, 32) + 1) >> 1),
    ("mulhi", 32, lambda x, y: (x * y) >> 32), ("umulhi", 32, lambda x, y: (_u(x, 32) * _u(y, 32)) >> 32),
    ("mul64hi", 64, lambda x, y: (x * y) >> 64), ("umul64hi", 64, lambda x, y: (_u(x, 64) * _u(y, 64)) >> 64),
    ("mul24", 32, lambda x, y: _wrap(x, 24) * _wrap(y, 24)),
    ("umul24", 32, lambda x, y: (_u(x, 32) & 0xffffff) * (_u(y, 32) & 0xffffff)),
    ("max", 32, max), ("min", 32, min), ("umax", 32, lambda x, y: max(_u(x, 32), _u(y, 32))),
    ("umin", 32, lambda x, y: min(_u(x, 32), _u(y, 32))), ("llmax", 64, max), ("llmin", 64, min),
    ("ullmax", 64, lambda x, y: max(_u(x, 64), _u(y, 64))), ("ullmin", 64, lambda x, y: min(_u(x, 64), _u(y, 64))),
]


@pytest.mark.parametrize("name,bits,ref", INT2, ids=[t[0] for t in INT2])
def test_integer_binary(rng, name, bits, ref):
    dt = np.int32 if bits == 32 else np.int64
    x, y = _ints(rng, bits), rng.permutation(_ints(rng, bits))
    got = run(name, x, y, out=dt)
    want = np.array([_wrap(ref(int(a), int(b)), bits) for a, b in zip(x, y)], dtype=dt)
    np.testing.assert_array_equal(got, want)


INT1 = [
    ("abs", 32, 32, abs), ("llabs", 64, 64, abs), ("popc", 32, 32, lambda x: bin(_u(x, 32)).count("1")),
    ("popcll", 64, 32, lambda x: bin(_u(x, 64)).count("1")), ("clz", 32, 32, lambda x: 32 - _u(x, 32).bit_length()),
    ("clzll", 64, 32, lambda x: 64 - _u(x, 64).bit_length()),
    ("ffs", 32, 32, lambda x: (_u(x, 32) & -_u(x, 32)).bit_length()),
    ("ffsll", 64, 32, lambda x: (_u(x, 64) & -_u(x, 64)).bit_length()),
    ("brev", 32, 32, lambda x: int(format(_u(x, 32), "032b")[::-1], 2)),
    ("brevll", 64, 64, lambda x: int(format(_u(x, 64), "064b")[::-1], 2)),
]


@pytest.mark.parametrize("name,bits,out_bits,ref", INT1, ids=[t[0] for t in INT1])
def test_integer_unary(rng, name, bits, out_bits, ref):
    x = _ints(rng, bits)
    got = run(name, x, out=np.int32 if out_bits == 32 else np.int64)
    np.testing.assert_array_equal(got, [_wrap(ref(int(v)), out_bits) for v in x])


def test_integer_ternary(rng):
    x, y, z = _ints(rng, 32), rng.permutation(_ints(rng, 32)), rng.permutation(_ints(rng, 32))
    np.testing.assert_array_equal(run("sad", x, y, z, out=np.int32),
                                  [_wrap(abs(int(a) - int(b)) + int(c), 32) for a, b, c in zip(x, y, z)])
    np.testing.assert_array_equal(run("usad", x, y, z, out=np.int32),
                                  [_wrap(abs(_u(a, 32) - _u(b, 32)) + int(c), 32) for a, b, c in zip(x, y, z)])
    s = rng.integers(0, 1 << 16, len(x)).astype(np.int32)  # only the low 3 bits of 4 nibbles select

    def perm(a, b, sel):
        data = (_u(b, 32) << 32) | _u(a, 32)
        return _wrap(sum(((data >> (8 * ((sel >> (4 * n)) & 7))) & 0xff) << (8 * n) for n in range(4)), 32)
    np.testing.assert_array_equal(run("byte_perm", x, y, s, out=np.int32),
                                  [perm(int(a), int(b), int(c)) for a, b, c in zip(x, y, s)])


def test_reinterpretation(rng):
    f = uniform(rng, -1e6, 1e6, F32)
    d = uniform(rng, -1e6, 1e6, F64)
    np.testing.assert_array_equal(run("float_as_int", f, out=np.int32), f.view(np.int32))
    np.testing.assert_array_equal(run("int_as_float", f.view(np.int32), out=F32), f)
    np.testing.assert_array_equal(run("double_as_longlong", d, out=np.int64), d.view(np.int64))
    np.testing.assert_array_equal(run("longlong_as_double", d.view(np.int64), out=F64), d)
    halves = d.view(np.int32).reshape(-1, 2)  # little-endian: [lo, hi]
    np.testing.assert_array_equal(run("double2hiint", d, out=np.int32), halves[:, 1])
    np.testing.assert_array_equal(run("double2loint", d, out=np.int32), halves[:, 0])
    np.testing.assert_array_equal(run("hiloint2double", halves[:, 1].copy(), halves[:, 0].copy(), out=F64), d)
    h = np.concatenate([uniform(rng, -7e4, 7e4, F32), np.array([1e-7, 6e-8, 3e-8, np.inf], dtype=F32)])
    with np.errstate(over="ignore"):
        want_h = h.astype(np.float16)
    np.testing.assert_array_equal(run("float2half_rn", h, out=np.int16), want_h.view(np.int16))
    np.testing.assert_array_equal(run("half2float", want_h.view(np.int16), out=F32), want_h.astype(F32))
    i = _ints(rng, 32)
    np.testing.assert_array_equal(run("int2double_rn", i, out=F64), i.astype(F64))
    np.testing.assert_array_equal(run("uint2double_rn", i, out=F64), i.view(np.uint32).astype(F64))


MODES = {"rn": np.rint, "rz": np.trunc, "ru": np.ceil, "rd": np.floor}
TO_INT = [("float2int", F32, np.int32, np.int32), ("float2uint", F32, np.uint32, np.int32),
          ("float2ll", F32, np.int64, np.int64), ("float2ull", F32, np.uint64, np.int64),
          ("double2int", F64, np.int32, np.int32), ("double2uint", F64, np.uint32, np.int32),
          ("double2ll", F64, np.int64, np.int64), ("double2ull", F64, np.uint64, np.int64)]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name,src,target,out", TO_INT, ids=[t[0] for t in TO_INT])
def test_float_to_int(rng, name, src, target, out, mode):
    info = np.iinfo(target)
    x = np.concatenate([uniform(rng, -1000, 1000, src), (rng.integers(-2000, 2000, 50) / 2).astype(src),
                        np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, -0.7], dtype=src)])
    got = run(f"{name}_{mode}", x, out=out)
    r = MODES[mode](x.astype(F64))
    # NaN: what the H200 gave (2026-12-01): 0 from float to 32 bits, else the sign bit alone.
    bits = 8 * np.dtype(target).itemsize
    nan = 0 if (src is F32 and bits == 32) else (1 << (bits - 1)) if target in (np.uint32, np.uint64) else -(1 << (bits - 1))
    want = [nan if math.isnan(v) else int(max(min(v, float(info.max)), float(info.min))) if abs(v) < 1e300 else
            (info.max if v > 0 else info.min) for v in r]
    want = [w if math.isnan(v) else min(max(w, int(info.min)), int(info.max)) for w, v in zip(want, r)]
    np.testing.assert_array_equal(got, np.array(want, dtype=target).view(out))


def _check_directed(got, exact, mode, dtype):
    """got is `exact` rounded to `dtype` in `mode`."""
    for g, e in zip(got, exact):
        g = Fraction(float(g)) if np.isfinite(g) else g
        if not isinstance(g, Fraction):
            continue  # overflowed: checked by the caller's special cases
        up = np.nextafter(dtype(float(g)), dtype(np.inf))
        down = np.nextafter(dtype(float(g)), dtype(-np.inf))
        lo = Fraction(float(down)) if np.isfinite(down) else None
        hi = Fraction(float(up)) if np.isfinite(up) else None
        if mode == "ru":
            assert g >= e and (lo is None or lo < e), (g, e)
        elif mode == "rd":
            assert g <= e and (hi is None or hi > e), (g, e)
        elif mode == "rz":
            assert abs(g) <= abs(e) and (abs(g) == abs(e) or (hi if e > 0 else lo) is None or
                                         abs(hi if e > 0 else lo) > abs(e)), (g, e)
        else:
            assert abs(g - e) <= abs((hi if hi is not None else g) - g) / 2 and abs(g - e) <= abs(g - (lo or g)) / 2 \
                or abs(g - e) <= min(abs(hi - g) if hi else 1, abs(g - lo) if lo else 1) / 2, (g, e)


ARITH = [
    ("fadd", F32, 2, lambda a, b: a + b), ("fsub", F32, 2, lambda a, b: a - b), ("fmul", F32, 2, lambda a, b: a * b),
    ("fdiv", F32, 2, lambda a, b: a / b), ("frcp", F32, 1, lambda a: 1 / a), ("fmaf", F32, 3, lambda a, b, c: a * b + c),
    ("dadd", F64, 2, lambda a, b: a + b), ("dsub", F64, 2, lambda a, b: a - b), ("dmul", F64, 2, lambda a, b: a * b),
    ("ddiv", F64, 2, lambda a, b: a / b), ("drcp", F64, 1, lambda a: 1 / a), ("fma", F64, 3, lambda a, b, c: a * b + c),
]


@pytest.mark.parametrize("mode", list(MODES))
@pytest.mark.parametrize("name,dtype,arity,exact", ARITH, ids=[t[0] for t in ARITH])
def test_rounding_mode_arithmetic(rng, name, dtype, arity, exact, mode):
    n = 120
    args = [(rng.uniform(-10, 10, n) * 10.0 ** rng.integers(-8, 8, n)).astype(dtype) for _ in range(arity)]
    args[0][:4] = [1, -1, 3, 1e-3]  # with a tiny second term: the rounding direction decides
    if arity > 1:
        args[1][:4] = [np.finfo(dtype).eps / 8] * 2 + [-np.finfo(dtype).eps / 8] * 2
    got = run(f"{name}_{mode}", *args, out=dtype)
    assert got.dtype == dtype
    _check_directed(got, [exact(*[Fraction(float(a[i])) for a in args]) for i in range(n)], mode, dtype)


@pytest.mark.parametrize("mode", list(MODES))
def test_rounding_mode_sqrt_and_conversions(rng, mode):
    x32 = (10.0 ** rng.uniform(-20, 20, 100)).astype(F32)
    got = run(f"fsqrt_{mode}", x32, out=F32)
    for g, v in zip(got, x32):  # g is the sqrt rounded in `mode`: compare squares exactly
        up, down = Fraction(float(np.nextafter(g, F32(np.inf)))), Fraction(float(np.nextafter(g, F32(0))))
        g, v = Fraction(float(g)), Fraction(float(v))
        if mode in ("ru",):
            assert g * g >= v and down * down < v
        elif mode in ("rd", "rz"):
            assert g * g <= v and up * up > v
        else:
            assert ((g + down) / 2) ** 2 <= v <= ((g + up) / 2) ** 2
    x64 = 10.0 ** rng.uniform(-200, 200, 100)
    got = run(f"dsqrt_{mode}", x64)
    for g, v in zip(got, x64):
        up, down = Fraction(float(np.nextafter(g, np.inf))), Fraction(float(np.nextafter(g, 0)))
        g, v = Fraction(float(g)), Fraction(float(v))
        if mode == "ru":
            assert g * g >= v and down * down < v
        elif mode in ("rd", "rz"):
            assert g * g <= v and up * up > v
        else:
            assert ((g + down) / 2) ** 2 <= v <= ((g + up) / 2) ** 2
    d = rng.uniform(-10, 10, 100) * 10.0 ** rng.integers(-30, 30, 100)
    _check_directed(run(f"double2float_{mode}", d, out=F32), [Fraction(float(v)) for v in d], mode, F32)
    big = np.array([1e300, -1e300])
    got = run(f"double2float_{mode}", big, out=F32)
    fmax = np.finfo(F32).max
    want = {"rn": [np.inf, -np.inf], "rz": [fmax, -fmax], "ru": [np.inf, -fmax], "rd": [fmax, -np.inf]}[mode]
    np.testing.assert_array_equal(got, want)
    i64 = _ints(rng, 64)
    for name, src, dtype in (("ll2float", i64, F32), ("ull2float", i64, F32), ("ll2double", i64, F64),
                             ("ull2double", i64, F64), ("int2float", _ints(rng, 32), F32),
                             ("uint2float", _ints(rng, 32), F32)):
        unsigned = name.startswith("u")
        bits = 64 if src.dtype == np.int64 else 32
        exact = [Fraction(_u(v, bits) if unsigned else int(v)) for v in src]
        _check_directed(run(f"{name}_{mode}", src, out=dtype), exact, mode, dtype)


# ---- typing and errors ----

def test_result_types_and_argument_conversion():
    ints = np.arange(1, 9, dtype=np.int64)
    np.testing.assert_allclose(run("sinf", ints, out=F32), np.sin(ints.astype(F32)), rtol=4e-7)  # int -> float32
    np.testing.assert_array_equal(run("popc", np.array([7, -1], dtype=np.int64), out=np.int64), [3, 32])  # int32
    np.testing.assert_array_equal(run("ffs", np.array([True, False]), out=np.int32), [1, 0])


def test_all_names_and_module_access():
    import simt.cuda.libdevice as mod
    assert cuda.libdevice is mod and len(mod.__all__) > 300
    for name in ("sinf", "fast_expf", "rsqrt", "fmaf", "popc", "float2int_rn", "sincosf", "frexpf",
                 "erfinv", "erfcinvf", "normcdfinv", "cyl_bessel_i0", "norm4d", "dsub_rz", "byte_perm"):
        assert name in mod.__all__

    @cuda.jit
    def k(out):
        out[0] = cuda.libdevice.fmaf(2.0, 3.0, 1.0) + libdevice.cbrt(27.0)
    d = simt.zeros(1)
    k[1, 1](d)
    assert d.get()[0] == 10.0


def test_host_call_raises():
    with pytest.raises(RuntimeError, match=r"cuda\.libdevice\.sinf\(\) can only be called inside a @cuda\.jit kernel"):
        libdevice.sinf(1.0)


@pytest.mark.parametrize("source,message", [
    ("def k(o):\n    o[0] = libdevice.sinf(1.0, 2.0)\n", r"cuda\.libdevice\.sinf\(\) takes 1 argument \(2 given\)"),
    ("def k(o):\n    o[0] = libdevice.fmaf(1.0, 2.0)\n", r"fmaf\(\) takes 3 arguments \(2 given\)"),
    ("def k(o):\n    o[0] = libdevice.popc(1.5)\n", r"popc\(\) argument 1 must be an integer \(int32\), not float64"),
    ("def k(o):\n    o[0] = libdevice.sin(1j)\n", r"sin\(\) argument 1 must be a real number \(float64\), not complex128"),
    ("def k(o):\n    o[0] = libdevice.sin(x=1.0)\n", r"sin\(\) takes positional arguments only"),
    ("def k(o):\n    o[0] = libdevice.sinc(1.0)\n", r"cuda\.libdevice\.sinc' is not supported in kernels"),
    ("def k(o):\n    o[0] = libdevice.ldexp(1.0, 2.0)\n", r"ldexp\(\) argument 2 must be an integer"),
])
def test_typing_errors(tmp_path, source, message):
    import re
    text = typing_error(tmp_path, "from simt.cuda import libdevice\n" + source, simt.zeros(1))
    assert re.search(message, text), text


def test_numba_compat_name(tmp_path):
    script = tmp_path / "uses_numba_libdevice.py"
    script.write_text(
        "import numpy as np\nfrom numba import cuda\nfrom numba.cuda import libdevice\nimport numba.cuda.libdevice as ld2\n"
        "@cuda.jit\ndef k(out):\n    s, c = libdevice.sincos(0.5)\n    out[0] = s * s + c * c + ld2.popc(3)\n"
        "d = cuda.to_device(np.zeros(1))\nk[1, 1](d)\nprint(d.copy_to_host()[0] if hasattr(d, 'copy_to_host') else d.get()[0])\n")
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert abs(float(out.stdout.split()[-1]) - 3.0) < 1e-12


@cuda.jit(device=True)
def _unit_circle(x):
    s, c = libdevice.sincosf(x)
    return s * s + c * c + libdevice.popc(5)


def test_called_from_a_device_function():
    @cuda.jit
    def k(out):
        out[0] = _unit_circle(0.3)
    d = simt.zeros(1)
    k[1, 1](d)
    assert abs(d.get()[0] - 3.0) < 1e-6
