"""NumPy's second batch (python/simt/_numpy_extras3.py, _numpy_extras4.py) against NumPy on fresh random data:
logaddexp2, nextafter, spacing, divmod, bitwise_count, isneginf/isposinf, iscomplex/isreal and
their *obj forms, real_if_close, i0, ediff1d, gradient, trapezoid, unwrap, vander, the poly*
functions and roots, the window functions, histogram2d and histogram_bin_edges (values, shapes,
dtypes, errors, dispatch from NumPy)."""
import warnings

import numpy as np
import pytest

import simt
from xp_testing import (FLOATS, INTS, assert_both_raise, assert_same, make, numpy_simt_allclose,
                        parametrize_dtypes)

SPECIAL = np.array([0.0, -0.0, 1.0, -1.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1.7976931348623157e308,
                    -1.7976931348623157e308, 2.2250738585072014e-308, 1e-300, 3.5])


def strided(xp, rng, shape, dtype, **kwargs):
    """Random data of `shape` as a non-contiguous view (every other row, reversed columns)."""
    if len(shape) < 2:
        return make(xp, rng, tuple(2 * n for n in shape), dtype, **kwargs)[::2]
    big = make(xp, rng, (2 * shape[0], shape[1]) + tuple(shape[2:]), dtype, **kwargs)
    return big[::2, ::-1]


def bits_equal(want, got):
    """Exact equality, bit for bit (signed zeros and NaN payload aside: NaN matches NaN)."""
    got = got.get() if isinstance(got, simt.ndarray) else np.asarray(got)
    want = np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    np.testing.assert_array_equal(np.signbit(got[~nan]), np.signbit(want[~nan]))


# ---- ufunc-like functions ------------------------------------------------------------------------
@parametrize_dtypes("dtype", FLOATS + [np.int32, np.uint8])
@numpy_simt_allclose(rtol=None)
def test_logaddexp2(xp, rng, dtype):
    a = strided(xp, rng, (3, 5), dtype, low=-30, high=30)
    b = make(xp, rng, (5,), dtype, low=-30, high=30)
    return xp.logaddexp2(a, b), xp.logaddexp2(a, 2.5), xp.logaddexp2(-1, a), xp.logaddexp2(a[:0], b)


def test_logaddexp2_special_values():
    x = np.repeat(SPECIAL, SPECIAL.size)
    y = np.tile(SPECIAL, SPECIAL.size)
    with np.errstate(all="ignore"):
        want = np.logaddexp2(x, y)
    got = simt.logaddexp2(simt.asarray(x), simt.asarray(y)).get()
    np.testing.assert_allclose(got, want, rtol=1e-15)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


@pytest.mark.parametrize("pair", [(np.float64, np.float64), (np.float32, np.float32), (np.float16, np.float16),
                                  (np.float32, np.float64), (np.int8, np.int8), (np.int16, np.float16),
                                  (np.int64, np.int64)], ids=str)
def test_nextafter_and_spacing_bit_exact(rng, pair):
    da, db = pair
    a = make(np, rng, (40,), da, low=-3, high=3)
    b = make(np, rng, (40,), db, low=-3, high=3)
    with np.errstate(all="ignore"):  # (the largest doubles overflow to inf in the narrower types)
        if np.dtype(da).kind == "f":
            a[:SPECIAL.size] = SPECIAL.astype(da)
            a[SPECIAL.size:2 * SPECIAL.size] = np.float64(np.finfo(da).smallest_subnormal) * np.arange(SPECIAL.size)
        if np.dtype(db).kind == "f":
            b[5:5 + SPECIAL.size] = SPECIAL.astype(db)
        b[-4:] = a[-4:]  # equal arguments: x2 itself
        bits_equal(np.nextafter(a, b), simt.nextafter(simt.asarray(a), simt.asarray(b)))
        bits_equal(np.nextafter(a, 1.0), simt.nextafter(simt.asarray(a), 1.0))
        bits_equal(np.nextafter(a.reshape(5, 8), b[:8]), simt.nextafter(simt.asarray(a).reshape(5, 8),
                                                                         simt.asarray(b[:8])))
        bits_equal(np.spacing(a), simt.spacing(simt.asarray(a)))


def test_nextafter_signed_zeros_and_scalars():
    for x, y in [(0.0, -0.0), (-0.0, 0.0), (0.0, -1.0), (-0.0, 1.0), (np.inf, 0.0), (-np.inf, np.inf)]:
        bits_equal(np.nextafter(np.float64(x), np.float64(y)), simt.nextafter(simt.asarray(x), y))
    assert simt.nextafter(1, 2).dtype == np.nextafter(1, 2).dtype
    assert simt.spacing(simt.ones(2, np.int16)).dtype == np.float32
    assert_both_raise(TypeError, "not supported for the input types",
                      lambda xp: xp.nextafter(xp.ones(2, xp.complex64), 1))
    assert_both_raise(TypeError, "not supported for the input types", lambda xp: xp.spacing(xp.ones(2, xp.complex64)))


@pytest.mark.parametrize("da,db", [(np.int32, np.int32), (np.int8, np.int64), (np.uint16, np.uint16),
                                   (np.float64, np.float64), (np.float32, np.int16), (np.float16, np.float16)],
                         ids=str)
@numpy_simt_allclose()
def test_divmod(xp, rng, da, db):
    a = strided(xp, rng, (3, 6), da, low=-20 if np.dtype(da).kind != "u" else 0, high=20)
    b = make(xp, rng, (6,), db, low=1, high=7)
    if np.dtype(db).kind != "u":
        b = b * xp.asarray(np.where(rng.random(6) < 0.5, -1, 1).astype(db))
    q1, r1 = xp.divmod(a, b)
    q2, r2 = xp.divmod(a, 3)
    return q1, r1, q2, r2, xp.divmod(a[:0], b)


def test_divmod_out():
    a, b = np.arange(-5, 5), np.full(10, 3)
    q, r = simt.empty(10, np.int64), simt.empty(10, np.int64)
    got = simt.divmod(simt.asarray(a), simt.asarray(b), out=(q, r))
    assert got[0] is q and got[1] is r
    assert_same(np.divmod(a, b), (q, r))
    q2, r2 = simt.empty(10, np.int64), simt.empty(10, np.int64)
    np.divmod(simt.asarray(a), simt.asarray(b), q2, r2)
    assert_same(np.divmod(a, b), (q2, r2))


@parametrize_dtypes("dtype", INTS + [np.bool_])
@numpy_simt_allclose()
def test_bitwise_count(xp, rng, dtype):
    if dtype == np.bool_:
        a = make(xp, rng, (4, 5), dtype)
    else:
        info = np.iinfo(dtype)
        h = rng.integers(info.min, info.max, size=(4, 5), dtype=dtype, endpoint=True)
        h[0, :4] = [info.min, info.max, 0, -1 if info.min else 1]
        a = xp.asarray(h)
    return xp.bitwise_count(a), xp.bitwise_count(a[::2, ::-1]), xp.bitwise_count(a[:0]), xp.bitwise_count(7)


def test_bitwise_count_errors():
    assert_both_raise(TypeError, "not supported for the input types", lambda xp: xp.bitwise_count(xp.ones(3)))


@parametrize_dtypes("dtype", [np.float64, np.float32, np.float16, np.int32, np.bool_])
@numpy_simt_allclose()
def test_isneginf_isposinf(xp, rng, dtype):
    a = make(np, rng, (20,), dtype)
    if np.dtype(dtype).kind == "f":
        a[:SPECIAL.size] = SPECIAL.astype(dtype)
    a = xp.asarray(a)
    out = xp.zeros(20, bool)
    r = xp.isneginf(a, out)
    assert r is out
    return xp.isneginf(a), xp.isposinf(a), xp.isposinf(a.reshape(4, 5)), out, xp.isneginf(-xp.inf)


def test_isneginf_complex_error():
    assert_both_raise(TypeError, "not supported for complex128 values because it would be ambiguous",
                      lambda xp: xp.isneginf(xp.asarray([1 + 1j])))
    assert_both_raise(TypeError, "ambiguous", lambda xp: xp.isposinf(xp.ones(2, xp.complex64)))


@parametrize_dtypes("dtype", [np.complex128, np.complex64, np.float64, np.int8, np.bool_])
@numpy_simt_allclose()
def test_iscomplex_isreal(xp, rng, dtype):
    h = make(np, rng, (3, 4), dtype)
    if np.dtype(dtype).kind == "c":
        h[0] = h[0].real
    a = xp.asarray(h)
    assert xp.iscomplexobj(a) == (np.dtype(dtype).kind == "c")
    assert xp.isrealobj(a) == (np.dtype(dtype).kind != "c")
    return xp.iscomplex(a), xp.isreal(a), xp.iscomplex(a[0, 0]), xp.isreal(a[:0])


def test_iscomplexobj_on_other_objects():
    for x in (1.0, 1j, [1, 2j], np.complex64(1), np.ones(2), simt.ones(2, simt.complex64), simt.ones(2)):
        assert simt.iscomplexobj(x) is np.iscomplexobj(x)
        assert simt.isrealobj(x) is np.isrealobj(x)


@pytest.mark.parametrize("imag,tol", [(1e-15, 100), (1e-10, 100), (1e-10, 1e-9), (0.0, 100), (1e-5, 1e-3)], ids=str)
@parametrize_dtypes("dtype", [np.complex128, np.complex64, np.float32])
@numpy_simt_allclose()
def test_real_if_close(xp, rng, imag, tol, dtype):
    h = make(np, rng, (5,), dtype)
    if np.dtype(dtype).kind == "c":
        h = (h.real + 1j * imag * rng.random(5)).astype(dtype)
    return xp.real_if_close(xp.asarray(h), tol=tol)


def test_real_if_close_returns_its_argument_or_a_view():
    d = simt.asarray(np.array([1 + 1j, 2]))
    assert simt.real_if_close(d) is d
    e = simt.asarray(np.array([1 + 0j, 2]))
    r = simt.real_if_close(e)
    assert r.dtype == np.float64 and r._ptr == e._ptr


@parametrize_dtypes("dtype", [np.float64, np.float32, np.float16, np.int32, np.bool_])
@numpy_simt_allclose(rtol=None)
def test_i0(xp, rng, dtype):
    # (float16: NumPy's exp overflows beyond 11, where i0 itself still fits below 13.3)
    a = make(np, rng, (60,), dtype, low=-11 if dtype == np.float16 else -40, high=11 if dtype == np.float16 else 40)
    if np.dtype(dtype).kind == "f":
        a[:8] = np.array([0, -0.0, 1e-8, 9.99, 10.0, 10.01, -7.5, 3.0] if dtype == np.float16 else
                         [0, -0.0, 1e-8, 19.99, 20.0, 20.01, -7.5, 80.0], dtype)
    if dtype == np.float64:
        a[8:12] = [700.0, -705.0, np.inf, np.nan]
    a = xp.asarray(a)
    return xp.i0(a), xp.i0(a.reshape(3, 4, 5)[:, ::2]), xp.i0(a[:0])


def test_i0_accuracy_and_scalars():
    x = np.linspace(-709, 709, 20001)
    np.testing.assert_allclose(simt.i0(simt.asarray(x)).get(), np.i0(x), rtol=1e-13)
    assert_same(np.i0(1.5), simt.i0(1.5))
    assert_both_raise(TypeError, "i0 not supported for complex values", lambda xp: xp.i0(xp.asarray([1j])))


# ---- calculus --------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.float64, np.int8, np.uint8, np.float32, np.complex64])
@numpy_simt_allclose()
def test_ediff1d(xp, rng, dtype):
    a = strided(xp, rng, (3, 4), dtype)
    # (a Python int or list is int64 to ediff1d: not 'same_kind' with uint8)
    five, ends = (5, [1, 2]) if dtype != np.uint8 else (np.uint8(5), xp.asarray(np.array([1, 2], np.uint8)))
    return (xp.ediff1d(a), xp.ediff1d(a, to_begin=five), xp.ediff1d(a, to_end=ends, to_begin=ends[::-1]),
            xp.ediff1d(a[:0]), xp.ediff1d(a[0, 0]), xp.ediff1d(a[:0], to_end=five), xp.ediff1d([1, 4, 9]))


def test_ediff1d_errors():
    assert_both_raise(TypeError, "dtype of `to_end` must be compatible with input `ary` under the `same_kind` rule",
                      lambda xp: xp.ediff1d(xp.asarray(np.array([1, 2, 4], np.int8)), to_end=[1.5]))
    assert_both_raise(TypeError, "dtype of `to_begin` must be compatible",
                      lambda xp: xp.ediff1d(xp.ones(3), to_begin=[1j]))
    assert_both_raise(TypeError, "boolean subtract", lambda xp: xp.ediff1d(xp.asarray([True, False])))


GRADIENT_DTYPES = [np.float64, np.float32, np.int32, np.uint8, np.complex128, np.float16]


@pytest.mark.parametrize("edge_order", [1, 2])
@pytest.mark.parametrize("shape,axis", [((7,), None), ((5, 6), None), ((5, 6), 0), ((5, 6), -1), ((3, 4, 5), (0, 2)),
                                        ((3, 4, 5), (-1, 0)), ((3, 4, 5), None)], ids=str)
@parametrize_dtypes("dtype", GRADIENT_DTYPES)
@numpy_simt_allclose(rtol=None, atol=1e-12)
def test_gradient_uniform(xp, rng, edge_order, shape, axis, dtype):
    f = strided(xp, rng, shape, dtype, low=0 if dtype == np.uint8 else -4, high=40 if dtype == np.uint8 else 4)
    naxes = len(shape) if axis is None else np.size(axis)
    steps = [float(s) for s in rng.uniform(0.5, 2.0, size=naxes)]
    return (xp.gradient(f, axis=axis, edge_order=edge_order), xp.gradient(f, 0.75, axis=axis, edge_order=edge_order),
            xp.gradient(f, *steps, axis=axis, edge_order=edge_order),
            xp.gradient(f, xp.asarray(2.5), axis=axis, edge_order=edge_order))


@pytest.mark.parametrize("edge_order", [1, 2])
@parametrize_dtypes("dtype", GRADIENT_DTYPES)
@numpy_simt_allclose(rtol=1e-9, atol=1e-10)
def test_gradient_coordinates(xp, rng, edge_order, dtype):
    f = make(xp, rng, (6, 5), dtype, low=0 if dtype == np.uint8 else -4, high=40 if dtype == np.uint8 else 4)
    xs = xp.asarray(np.cumsum(rng.uniform(0.2, 2.0, size=6)))
    ys = xp.asarray(np.cumsum(rng.integers(1, 4, size=5)).astype(np.uint8))  # (integer coordinates: in float64)
    even = xp.asarray(np.arange(5) * 0.5)  # (evenly spaced: as a scalar step, as in NumPy)
    return (xp.gradient(f, xs, ys, edge_order=edge_order), xp.gradient(f, xs, 1.5, edge_order=edge_order),
            xp.gradient(f, even, axis=1, edge_order=edge_order),
            xp.gradient(f, xs.astype(np.float32), axis=0, edge_order=edge_order),
            xp.gradient(f[:, 0], [0.0, 1.0, 1.5, 3.0, 3.25, 4.0], edge_order=edge_order))


@numpy_simt_allclose()
def test_gradient_small_and_0d(xp, rng):
    f = make(xp, rng, (2, 3), np.float64)
    return xp.gradient(f, axis=0), xp.gradient(f[0], edge_order=2), xp.gradient(xp.asarray(3.0)), \
        xp.gradient(f, axis=(1,))


def test_gradient_errors():
    f = np.arange(3.0)
    assert_both_raise(TypeError, "invalid number of arguments", lambda xp: xp.gradient(xp.asarray(f), 1, 2))
    assert_both_raise(ValueError, "when 1d, distances must match the length of the corresponding dimension",
                      lambda xp: xp.gradient(xp.asarray(f), xp.arange(4.0)))
    assert_both_raise(ValueError, "distances must be either scalars or 1d",
                      lambda xp: xp.gradient(xp.asarray(f), xp.ones((3, 3))))
    assert_both_raise(ValueError, r"Shape of array too small to calculate a numerical gradient",
                      lambda xp: xp.gradient(xp.arange(2.0), edge_order=2))
    assert_both_raise(ValueError, r"Shape of array too small", lambda xp: xp.gradient(xp.ones((3, 1))))
    assert_both_raise(ValueError, "'edge_order' greater than 2 not supported",
                      lambda xp: xp.gradient(xp.asarray(f), edge_order=3))
    assert_both_raise(ValueError, "repeated axis", lambda xp: xp.gradient(xp.ones((3, 3)), axis=(0, -2)))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.gradient(xp.ones((3, 3)), axis=2))
    assert_both_raise(TypeError, "boolean subtract", lambda xp: xp.gradient(xp.asarray([True, False, True])))


@pytest.mark.parametrize("shape,axis", [((6,), -1), ((4, 5), -1), ((4, 5), 0), ((3, 4, 5), 1), ((3, 1), 1),
                                        ((3, 0), 0)], ids=str)
@parametrize_dtypes("dtype", [np.float64, np.float32, np.int32, np.complex64])
@numpy_simt_allclose(rtol=1e-5)
def test_trapezoid(xp, rng, shape, axis, dtype):
    y = strided(xp, rng, shape, dtype)
    n = shape[axis]
    x1 = xp.asarray(np.cumsum(rng.uniform(0.1, 1.0, size=n)))
    xn = make(xp, rng, shape, np.float64)
    return (xp.trapezoid(y, axis=axis), xp.trapezoid(y, dx=0.25, axis=axis), xp.trapezoid(y, x1, axis=axis),
            xp.trapezoid(y, xn, axis=axis), xp.trapezoid(y, dx=np.float32(2), axis=axis),
            xp.trapezoid(y, list(range(n)), axis=axis))


def test_trapezoid_errors():
    assert_both_raise(IndexError, None, lambda xp: xp.trapezoid(xp.ones((2, 3)), axis=2))  # (simt: an AxisError)
    assert_both_raise(ValueError, None, lambda xp: xp.trapezoid(xp.ones(4), xp.ones(3)))
    assert_both_raise(IndexError, None, lambda xp: xp.trapezoid(xp.asarray(1.0)))


@pytest.mark.parametrize("kw", [{}, {"discont": 4.0}, {"discont": 1.0}, {"period": 5.0}, {"period": 360.0,
                                                                                      "discont": 100}],
                         ids=str)
@pytest.mark.parametrize("axis", [-1, 0])
@parametrize_dtypes("dtype", [np.float64, np.float32])
@numpy_simt_allclose(rtol=None, atol=1e-4)
def test_unwrap(xp, rng, kw, axis, dtype):
    period = kw.get("period", 2 * np.pi)
    h = (np.cumsum(rng.uniform(-0.6, 0.6, size=(6, 7)) * period, axis=axis) % period).astype(dtype)
    h[0, 0] = h[0, 1] + period / 2  # a jump of exactly half a period
    return xp.unwrap(xp.asarray(h), axis=axis, **kw), xp.unwrap(xp.asarray(h[:, :1]), axis=axis, **kw)


@pytest.mark.parametrize("period", [6, 7, 6.0])
@numpy_simt_allclose()
def test_unwrap_integers(xp, rng, period):
    h = rng.integers(0, 12, size=15)
    h[3:5] = [0, 3]  # a jump of half the (even) period
    return xp.unwrap(xp.asarray(h), period=period), xp.unwrap(xp.asarray(h), discont=4, period=period)


def test_unwrap_errors():
    assert_both_raise(ValueError, "at least one dimensional", lambda xp: xp.unwrap(xp.asarray(1.0)))


# ---- polynomials ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("N", [None, 0, 1, 3, 6])
@pytest.mark.parametrize("increasing", [False, True])
@parametrize_dtypes("dtype", [np.float64, np.int8, np.float32, np.complex64, np.bool_, np.uint64])
@numpy_simt_allclose(rtol=1e-12)
def test_vander(xp, rng, N, increasing, dtype):
    x = strided(xp, rng, (5,), dtype, low=0 if dtype == np.uint64 else -3, high=3)
    return xp.vander(x, N, increasing=increasing), xp.vander(x[:0], N, increasing), xp.vander([1, 2, 3], N)


def test_vander_errors():
    assert_both_raise(ValueError, "x must be a one-dimensional array or sequence",
                      lambda xp: xp.vander(xp.ones((2, 2))))
    assert_both_raise(ValueError, "negative dimensions", lambda xp: xp.vander(xp.ones(3), -1))


@parametrize_dtypes("dtype", [np.float64, np.float32, np.int32, np.complex128, np.complex64, np.float16])
@numpy_simt_allclose(rtol=1e-4)
def test_poly(xp, rng, dtype):
    r = make(xp, rng, (5,), dtype, low=-2, high=2)
    outs = [xp.poly(r), xp.poly(r[:1]), xp.poly([1, 2, 3])]
    if np.dtype(dtype).kind == "c":
        pairs = xp.asarray(np.array([1 + 2j, 1 - 2j, 3, -0.5j, 0.5j], dtype))
        outs.append(xp.poly(pairs))  # conjugate pairs: real coefficients
    return outs


@pytest.mark.parametrize("dtype,rtol", [(np.float64, 1e-10), (np.float32, 1e-5), (np.complex128, 1e-10)], ids=str)
def test_poly_of_a_matrix(rng, dtype, rtol):
    m = make(np, rng, (4, 4), dtype)
    for x in (m, m[:1, :1]):
        assert_same(np.poly(x), simt.poly(simt.asarray(x)), rtol=rtol)


def test_poly_empty_and_errors():
    assert simt.poly(simt.zeros(0)) == np.poly(np.zeros(0)) == 1.0
    assert_both_raise(ValueError, "input must be 1d or non-empty square 2d array",
                      lambda xp: xp.poly(xp.ones((2, 3))))
    assert_both_raise(ValueError, "input must be 1d or non-empty square 2d array",
                      lambda xp: xp.poly(xp.zeros((0, 0))))


@pytest.mark.parametrize("la,lb", [(3, 3), (2, 5), (5, 1), (1, 1)], ids=str)
@pytest.mark.parametrize("da,db", [(np.float64, np.float64), (np.int8, np.float32), (np.int32, np.int64),
                                   (np.complex64, np.float64)], ids=str)
@numpy_simt_allclose(rtol=1e-5)
def test_polyadd_sub_mul(xp, rng, la, lb, da, db):
    a, b = make(xp, rng, (la,), da), make(xp, rng, (lb,), db)
    z = xp.concatenate([xp.zeros(2, da), a])  # (polymul drops leading zeros, polyadd keeps them)
    return (xp.polyadd(a, b), xp.polysub(a, b), xp.polysub(b, a), xp.polymul(a, b), xp.polyadd(a, 2),
            xp.polymul([1, 2], b), xp.polyadd(a[0], b), xp.polymul(z, b), xp.polyadd(z, b), xp.polymul(a * 0, b),
            xp.polymul(b, 3))


@pytest.mark.parametrize("m", [0, 1, 2, 5])
@parametrize_dtypes("dtype", [np.float64, np.float32, np.int32, np.complex128])
@numpy_simt_allclose(rtol=1e-5)
def test_polyder_polyint(xp, rng, m, dtype):
    p = make(xp, rng, (5,), dtype)
    out = [xp.polyder(p, m), xp.polyint(p, m), xp.polyint(p, m, k=2.5), xp.polyder(p[:1], m)]
    if m:
        out += [xp.polyint(p, m, k=xp.asarray(np.arange(1.0, m + 1))), xp.polyint(p, m, k=list(range(m + 2)))]
    return out


def test_polyder_polyint_errors():
    assert_both_raise(ValueError, r"Order of derivative must be positive \(see polyint\)",
                      lambda xp: xp.polyder(xp.ones(3), -1))
    assert_both_raise(ValueError, r"Order of integral must be positive \(see polyder\)",
                      lambda xp: xp.polyint(xp.ones(3), -1))
    assert_both_raise(ValueError, "k must be a scalar or a rank-1 array of length 1 or >m",
                      lambda xp: xp.polyint(xp.ones(3), 3, k=[1, 2]))
    assert_both_raise(TypeError, None, lambda xp: xp.polyder(xp.asarray(2.0)))
    assert_both_raise(ValueError, "Polynomial must be 1d only", lambda xp: xp.polymul(xp.ones((2, 2)), xp.ones(2)))


@pytest.mark.parametrize("coeffs", [[1, -3, 2], [0, 0, 1, 2, 0, 0], [2, 0, 0, 1], [1, 0, 1], [3], [3, 0], [0, 0],
                                    [1.5, -2, 0.25, 4], [1, 2j, -1]], ids=str)
@numpy_simt_allclose(rtol=1e-10, atol=1e-12)
def test_roots(xp, coeffs):
    return xp.roots(xp.asarray(coeffs)), xp.roots(coeffs)


@parametrize_dtypes("dtype", [np.float64, np.float32, np.int16, np.complex64])
@numpy_simt_allclose(rtol=1e-4, atol=1e-5)
def test_roots_random(xp, rng, dtype):
    p = make(xp, rng, (6,), dtype, low=1, high=5)
    return xp.roots(p)


def test_roots_errors():
    assert_both_raise(ValueError, "Input must be a rank-1 array", lambda xp: xp.roots(xp.ones((2, 2))))


@pytest.mark.parametrize("deg", [0, 1, 2, 4])
@parametrize_dtypes("dtype", [np.float64, np.float32, np.int32])
@numpy_simt_allclose(rtol=1e-4, atol=1e-6)
def test_polyfit(xp, rng, deg, dtype):
    x = xp.asarray(rng.permutation(12) - 6 if dtype == np.int32 else rng.uniform(-2, 2, size=12)).astype(dtype)
    y = make(xp, rng, (12,), np.float64)
    y2 = make(xp, rng, (12, 3), np.float32)
    w = make(xp, rng, (12,), np.float64, low=0.5, high=2)
    c, res, rank, sv, rcond = xp.polyfit(x, y, deg, full=True)
    assert rank == deg + 1
    return (xp.polyfit(x, y, deg), xp.polyfit(x, y2, deg), xp.polyfit(x, y, deg, w=w), c, res, sv,
            xp.asarray(rcond), xp.polyfit(x, y, deg, cov=True), xp.polyfit(x, y2, deg, w=w, cov="unscaled"),
            xp.polyfit(x, y2, deg, cov=True), xp.polyfit(x, y.astype(np.complex128) * (1 + 1j), deg))


def test_polyfit_rank_warning_and_errors():
    x = np.array([1.0, 1.0, 1.0, 2.0])
    for xp in (np, simt):
        with pytest.warns(np.exceptions.RankWarning, match="Polyfit may be poorly conditioned"):
            xp.polyfit(xp.asarray(x), xp.asarray(x), 3)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.RankWarning)
        assert_same(np.polyfit(x, x, 3, full=True)[2], simt.polyfit(simt.asarray(x), simt.asarray(x), 3, full=True)[2])
    assert_both_raise(ValueError, "expected deg >= 0", lambda xp: xp.polyfit(xp.ones(3), xp.ones(3), -1))
    assert_both_raise(TypeError, "expected 1D vector for x", lambda xp: xp.polyfit(xp.ones((3, 1)), xp.ones(3), 1))
    assert_both_raise(TypeError, "expected non-empty vector for x", lambda xp: xp.polyfit(xp.ones(0), xp.ones(0), 1))
    assert_both_raise(TypeError, "expected 1D or 2D array for y",
                      lambda xp: xp.polyfit(xp.ones(3), xp.ones((3, 1, 1)), 1))
    assert_both_raise(TypeError, "expected x and y to have same length",
                      lambda xp: xp.polyfit(xp.ones(3), xp.ones(4), 1))
    assert_both_raise(TypeError, "expected a 1-d array for weights",
                      lambda xp: xp.polyfit(xp.arange(3.0), xp.ones(3), 1, w=xp.ones((3, 1))))
    assert_both_raise(TypeError, "expected w and y to have the same length",
                      lambda xp: xp.polyfit(xp.arange(3.0), xp.ones(3), 1, w=xp.ones(4)))
    assert_both_raise(ValueError, "the number of data points must exceed order to scale the covariance matrix",
                      lambda xp: xp.polyfit(xp.arange(3.0), xp.ones(3), 2, cov=True))


# ---- windows ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("M", [-2, 0, 1, 2, 3, 8, 51, np.float32(6), 5.0])
@numpy_simt_allclose(rtol=1e-12, atol=1e-15)
def test_windows(xp, M):
    return (xp.bartlett(M), xp.blackman(M), xp.hamming(M), xp.hanning(M), xp.kaiser(M, 0), xp.kaiser(M, 5.5),
            xp.kaiser(M, 14))


# ---- histograms ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize("bins", [10, 3, [4, 6], np.array([-3.0, -1.0, 0.0, 0.5, 2.0, 4.0]), [5, [-2, 0, 1, 3]],
                                  [[-1.5, 0.0, 2.0], 4], np.arange(-4, 5)], ids=str)
@parametrize_dtypes("dtype", [np.float64, np.float32, np.int32])
@numpy_simt_allclose(rtol=1e-6)
def test_histogram2d(xp, rng, bins, dtype):
    x = make(xp, rng, (200,), dtype, low=-3, high=3)
    y = make(xp, rng, (200,), dtype, low=-3, high=3)
    w = make(xp, rng, (200,), np.float64, low=0, high=2)
    b = xp.asarray(bins) if isinstance(bins, np.ndarray) else bins
    return (xp.histogram2d(x, y, b), xp.histogram2d(x, y, b, weights=w), xp.histogram2d(x, y, b, density=True),
            xp.histogram2d(x, y, b, range=[[-2, 2], [-1, 3]], weights=w, density=True),
            xp.histogram2d(x, y.astype(xp.float16), b))


@numpy_simt_allclose()
def test_histogram2d_edge_cases(xp, rng):
    x = make(xp, rng, (50,), np.float64)
    return (xp.histogram2d(x[:0], x[:0], 4), xp.histogram2d(x * 0 + 2, x, 3),  # (an empty range widens by 1/2)
            xp.histogram2d(xp.asarray([0.0, 1.0, 1.0]), xp.asarray([0.0, 1.0, 0.5]), 2),  # (the last edges: closed)
            xp.histogram2d(x, x, 4, range=[None, (0, 1)]), xp.histogram2d(x.astype(xp.int8), x.astype(xp.int64), 5))


def test_histogram2d_errors():
    assert_both_raise(ValueError, "autodetected range of", lambda xp: xp.histogram2d(xp.asarray([1.0, np.nan]),
                                                                                       xp.ones(2)))
    assert_both_raise(ValueError, "max must be larger than min in range parameter",
                      lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2), range=[[1, 0], [0, 1]]))
    assert_both_raise(ValueError, "supplied range of", lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2),
                                                                                 range=[[0, np.inf], [0, 1]]))
    assert_both_raise(ValueError, "range argument must have one entry per dimension",
                      lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2), range=[[0, 1]]))
    assert_both_raise(ValueError, r"`bins\[0\]` must be positive, when an integer",
                      lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2), bins=[0, 2]))
    assert_both_raise(ValueError, r"`bins\[1\]` must be monotonically increasing, when an array",
                      lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2), bins=[2, [1, 0, 2]]))
    assert_both_raise(TypeError, r"`bins\[0\]` must be an integer, when a scalar",
                      lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2), bins=[2.5, 3]))
    assert_both_raise(ValueError, "The dimension of bins must be equal to the dimension of the sample x",
                      lambda xp: xp.histogram2d(xp.ones(2), xp.ones(2), bins=[3]))
    assert_both_raise(ValueError, None, lambda xp: xp.histogram2d(xp.ones(2), xp.ones(3)))


@pytest.mark.parametrize("bins,range_", [(10, None), (4, (-1, 2)), ([-3, 0, 0.5, 4], None), (1, None), (7, (2, 2))],
                         ids=str)
@parametrize_dtypes("dtype", [np.float64, np.float32, np.int16])
@numpy_simt_allclose()
def test_histogram_bin_edges(xp, rng, bins, range_, dtype):
    a = strided(xp, rng, (4, 6), dtype)
    return xp.histogram_bin_edges(a, bins, range_), xp.histogram_bin_edges(a[:0], bins, range_)


def test_histogram_bin_edges_errors():
    assert_both_raise(ValueError, "must be positive", lambda xp: xp.histogram_bin_edges(xp.ones(3), 0))
    assert_both_raise(ValueError, "monotonically", lambda xp: xp.histogram_bin_edges(xp.ones(3), [2, 1]))
    with pytest.raises(NotImplementedError, match="estimator"):
        simt.histogram_bin_edges(simt.ones(3), "auto")


# ---- host data and dispatch --------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda h: simt.logaddexp2(h, 1.0), lambda h: simt.nextafter(1.0, h), lambda h: simt.spacing(h),
    lambda h: simt.bitwise_count(h), lambda h: simt.isneginf(h), lambda h: simt.iscomplex(h),
    lambda h: simt.real_if_close(h), lambda h: simt.i0(h), lambda h: simt.ediff1d(h), lambda h: simt.gradient(h),
    lambda h: simt.trapezoid(h), lambda h: simt.unwrap(h), lambda h: simt.vander(h[0]), lambda h: simt.poly(h),
    lambda h: simt.polyadd(h, simt.ones(2)), lambda h: simt.polyder(h), lambda h: simt.roots(h[0]),
    lambda h: simt.polyfit(h[0], simt.ones(2), 1), lambda h: simt.histogram2d(h[0], h[1]),
    lambda h: simt.histogram_bin_edges(h)])
def test_host_numpy_arrays_are_refused(call):
    host = np.ones((2, 2), np.int64)
    with pytest.raises(TypeError, match="host data"):
        call(host)


@numpy_simt_allclose(rtol=1e-10)
def test_numpy_functions_dispatch_to_simt(xp, rng):
    a = make(xp, rng, (4, 5), np.float64)
    n = make(xp, rng, (4, 5), np.int32, low=1, high=9)
    results = (np.logaddexp2(a, a[0]), np.nextafter(a, 0), np.spacing(a), np.divmod(n, 3), np.bitwise_count(n),
               np.isneginf(a), np.iscomplex(a), np.i0(a), np.ediff1d(a), np.gradient(a), np.trapezoid(a),
               np.unwrap(a), np.vander(a[0]), np.poly(a[0]), np.polyadd(a[0], a[1]), np.polyint(a[0]),
               np.roots(a[0]), np.polyfit(a[0], a[1], 2), np.histogram2d(a[0], a[1], 3),
               np.histogram_bin_edges(a, 4))
    if xp is simt:
        flat = [r for x in results for r in (x if isinstance(x, tuple) else (x,))]
        assert all(isinstance(r, simt.ndarray) for r in flat)
    return results


def test_second_review_mends(rng):
    """choose's out (unsafe cast, exact shape), place's safe cast, complex histogram2d weights,
    iscomplexobj of a scalar type, piecewise's reading of an array condlist, vecdot's dtype,
    fftshift of a 0-d array: as NumPy does them."""
    idx = simt.asarray(np.array([0, 1, 0]))
    out = simt.zeros(3, np.int32)
    simt.choose(idx, [simt.asarray(np.array([1.5, 2.0, 3.0])), simt.zeros(3)], out=out)
    np.testing.assert_array_equal(out.get(), np.choose(np.array([0, 1, 0]), [np.array([1.5, 2.0, 3.0]), np.zeros(3)],
                                                       out=np.zeros(3, np.int32)))
    with pytest.raises(TypeError, match="invalid shape for output array"):
        simt.choose(simt.asarray(np.array([0, 1])), [simt.zeros(2), simt.ones(2)], out=simt.zeros((3, 2)))
    with pytest.raises(TypeError, match="rule 'safe'"):
        simt.place(simt.arange(5), simt.asarray(np.array([1, 0, 1, 0, 1], bool)), simt.asarray(np.array([1.7, 2.2])))
    x = simt.asarray(rng.random(10))
    with pytest.raises(TypeError, match="complex128"):
        simt.histogram2d(x, x, 2, weights=simt.asarray(np.arange(10) + 1j))
    assert simt.iscomplexobj(np.complex64) is np.iscomplexobj(np.complex64)
    assert simt.isrealobj(np.float32) is np.isrealobj(np.float32)
    m = rng.random((3, 4))
    with pytest.raises(ValueError, match="with 3 condition"):  # a 2-D condlist is three conditions
        simt.piecewise(simt.asarray(m), simt.asarray(m < 0.5), [1, 2])
    v = rng.random(6)
    np.testing.assert_array_equal(simt.piecewise(simt.asarray(v), simt.asarray(v < 0.5), [1.0, 2.0]).get(),
                                  np.piecewise(v, v < 0.5, [1.0, 2.0]))
    a8, b8 = np.array([50, 50, 50], np.int8), np.array([2, 2, 2], np.int8)
    got = simt.linalg.vecdot(simt.asarray(a8), simt.asarray(b8))
    want = np.linalg.vecdot(a8, b8)
    assert got.dtype == want.dtype and int(got.get()) == int(want)
    tf = np.array([True, False, True])
    assert bool(simt.linalg.vecdot(simt.asarray(tf), simt.asarray(tf)).get()) == bool(np.linalg.vecdot(tf, tf))
    with pytest.raises(ValueError, match="0-d"):
        simt.fft.fftshift(simt.asarray(np.array(1.0)))
