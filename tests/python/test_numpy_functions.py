"""simt.isclose, allclose, array_equal, diag, diagonal, tril, triu, outer, copyto, nan_to_num,
modf, frexp, ldexp, gcd, lcm and the dtype/shape queries against NumPy
(python/simt/_comparison.py, _matrix_shapes.py, _copyto.py, _float_parts.py, _dtype_queries.py, the ufunc
table), and NumPy's functions dispatching to them."""
import numpy as np
import pytest

import simt
from xp_testing import assert_both_raise, make, numpy_simt_allclose, parametrize_dtypes, random_host

DTYPES = [np.float32, np.float64, np.int32, np.bool_]


def strided(xp, rng, shape, dtype, **kwargs):
    """A non-contiguous view of random data (reversed, every other row)."""
    big = make(xp, rng, (2 * shape[0],) + tuple(shape[1:]), dtype, **kwargs)
    return big[::-2]


def special_floats(xp, rng, shape, dtype):
    """Random floats with NaNs and infinities of both signs mixed in."""
    h = random_host(rng, shape, dtype)
    pick = rng.random(shape)
    h[pick < 0.1] = np.nan
    h[(pick >= 0.1) & (pick < 0.2)] = np.inf
    h[(pick >= 0.2) & (pick < 0.3)] = -np.inf
    return xp.asarray(h)


# ---- isclose / allclose / array_equal ----------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES + [np.complex64])
@pytest.mark.parametrize("equal_nan", [False, True])
@numpy_simt_allclose()
def test_isclose(xp, rng, dtype, equal_nan):
    a = make(xp, rng, (4, 6), dtype)
    noise = make(xp, rng, (4, 6), np.float64, low=-2e-5, high=2e-5)
    b = (a + noise * a).astype(dtype) if dtype != np.bool_ else a[::-1]
    if np.dtype(dtype).kind in "fc":
        a[0, :2], b[0, :2] = np.nan, np.nan
        a[1, 0], b[1, 0] = np.inf, np.inf
        a[1, 1], b[1, 1] = np.inf, -np.inf
    return (xp.isclose(a, b, equal_nan=equal_nan), xp.isclose(a, b, rtol=0, atol=1e-6), xp.isclose(a[::2], b[0]),
            xp.isclose(a, 1), xp.isclose(a.T, 2.5, rtol=0.5))


@numpy_simt_allclose()
def test_isclose_0d_and_empty(xp, rng):
    a = make(xp, rng, (), np.float64)
    e = make(xp, rng, (0, 3), np.float32)
    return xp.isclose(a, a), xp.isclose(e, e), xp.allclose(e, e)


@numpy_simt_allclose()
def test_allclose_returns_0d_bool_array_as_cupy(xp, rng):
    a = make(xp, rng, (5, 3), np.float32)
    return (xp.asarray(xp.allclose(a, a + 1e-9)), xp.asarray(xp.allclose(a, a + 1)),
            xp.asarray(xp.allclose(a, a * 1.5, rtol=1.0)))


def test_allclose_and_array_equal_types(rng):
    d = simt.asarray(random_host(rng, (3, 4), np.float64))
    results = (simt.allclose(d, d), simt.array_equal(d, d), np.allclose(d, d), simt.array_equal(d, d[0]))
    for r, value in zip(results, (True, True, True, False)):
        assert isinstance(r, simt.ndarray) and r.shape == () and r.dtype == np.bool_ and bool(r) == value


@parametrize_dtypes("dtype", DTYPES + [np.complex128])
@pytest.mark.parametrize("equal_nan", [False, True])
@numpy_simt_allclose(type_check=False)  # NumPy: a Python bool; simt: a 0-d bool array (CuPy's)
def test_array_equal(xp, rng, dtype, equal_nan):
    a = make(xp, rng, (3, 4, 5), dtype)[:, ::-1]
    b = a.copy()
    c = a.copy()
    c[1, 2, 3] = not bool(c[1, 2, 3]) if dtype == np.bool_ else c[1, 2, 3] + 1
    if np.dtype(dtype).kind in "fc":
        a[0, 0, 0], b[0, 0, 0] = np.nan, np.nan
    return [xp.asarray(x) for x in (xp.array_equal(a, b, equal_nan=equal_nan), xp.array_equal(a, c),
                                    xp.array_equal(a, a[0]), xp.array_equal(a[:0], b[:0]),
                                    xp.array_equal(a[0, 0, 0], b[0, 0, 0], equal_nan=equal_nan))]


# ---- diag / diagonal / tril / triu -------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@pytest.mark.parametrize("k", [0, 2, -1, 7])
@numpy_simt_allclose()
def test_diag(xp, rng, dtype, k):
    v = strided(xp, rng, (5,), dtype)
    m = strided(xp, rng, (4, 6), dtype)
    return xp.diag(v, k), xp.diag(m, k), xp.diag(make(xp, rng, (0,), dtype), k), xp.diagonal(m, k), m.diagonal(-k)


@numpy_simt_allclose()
def test_diagonal_axes_and_views(xp, rng):
    a = make(xp, rng, (3, 4, 5), np.float32)
    d = xp.diagonal(a, 1, 2, 0)
    d2 = xp.diag(a[0])
    return d, xp.diagonal(a[:, ::-1], -1, axis1=1, axis2=2), d2


def test_diag_errors():
    assert_both_raise(ValueError, r"Input must be 1- or 2-d\.", lambda xp: xp.diag(xp.asarray(np.float64(1))))
    assert_both_raise(ValueError, r"Input must be 1- or 2-d\.", lambda xp: xp.diag(xp.asarray(np.ones((2, 2, 2)))))
    assert_both_raise(ValueError, "diag requires an array of at least two dimensions",
                      lambda xp: xp.diagonal(xp.asarray(np.ones(3))))


@parametrize_dtypes("dtype", DTYPES + [np.float16])
@pytest.mark.parametrize("k", [0, 1, -2, 10, -10])
@pytest.mark.parametrize("shape", [(5,), (4, 6), (6, 3), (2, 3, 4), (0, 3)], ids=str)
@numpy_simt_allclose()
def test_tril_triu(xp, rng, dtype, k, shape):
    a = strided(xp, rng, shape, dtype)
    return xp.tril(a, k), xp.triu(a, k), xp.tril(a), xp.triu(a)


def test_tril_triu_of_0d_is_an_error():
    for fname in ("tril", "triu"):
        assert_both_raise(TypeError, None, lambda xp: getattr(xp, fname)(xp.asarray(np.float64(1))))


# ---- outer ------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@numpy_simt_allclose()
def test_outer(xp, rng, dtype):
    a, b = strided(xp, rng, (4,), dtype), make(xp, rng, (2, 3), np.float32)
    out = xp.zeros((4, 6), np.float64)
    xp.outer(a, b, out=out)
    return xp.outer(a, b), xp.outer(a, a), xp.outer(b, make(xp, rng, (0,), dtype)), out, xp.outer(a[0], b)


# ---- copyto -----------------------------------------------------------------------------------
@parametrize_dtypes("dst_dtype", DTYPES)
@parametrize_dtypes("src_dtype", DTYPES)
@pytest.mark.parametrize("casting", ["no", "safe", "same_kind", "unsafe"])
@numpy_simt_allclose(accept_error=(TypeError,))
def test_copyto_casting(xp, rng, dst_dtype, src_dtype, casting):
    dst = make(xp, rng, (3, 4), dst_dtype)
    src = strided(xp, rng, (3, 4), src_dtype)
    xp.copyto(dst, src, casting=casting)
    return dst


@pytest.mark.parametrize("src", [7, 2.5, True, -3, np.float32(1.5), np.int64(9), 1000, 1j], ids=repr)
@parametrize_dtypes("dtype", [np.int8, np.float32, np.bool_, np.complex64])
@numpy_simt_allclose(accept_error=(TypeError, OverflowError))
def test_copyto_scalars(xp, rng, src, dtype):
    dst = make(xp, rng, (2, 3), dtype)
    xp.copyto(dst, src)
    return dst


@numpy_simt_allclose()
def test_copyto_broadcast_and_where(xp, rng):
    dst = make(xp, rng, (4, 5), np.float64)
    view = make(xp, rng, (8, 5), np.float32)[::2]
    xp.copyto(dst, make(xp, rng, (5,), np.int32))
    mask = make(xp, rng, (4, 5), np.bool_)
    xp.copyto(dst, make(xp, rng, (4, 1), np.float32), where=mask)
    xp.copyto(view, 2.5, where=mask[0])
    xp.copyto(view[:, ::-1], view, where=False)
    return dst, view


def test_copyto_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(TypeError, r"Cannot cast scalar from dtype\('float64'\) to dtype\('int64'\) according to the "
                      "rule 'same_kind'", lambda xp: xp.copyto(xp.asarray(a), 1.5))
    assert_both_raise(TypeError, r"Cannot cast array data from dtype\('float64'\) to dtype\('int64'\)",
                      lambda xp: xp.copyto(xp.asarray(a), xp.asarray(np.ones(3))))
    assert_both_raise(ValueError, r"could not broadcast input array from shape \(2,\) into shape \(2, ?3\)",
                      lambda xp: xp.copyto(xp.asarray(a), xp.asarray(np.ones(2, dtype=int))))
    assert_both_raise(ValueError, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe'",
                      lambda xp: xp.copyto(xp.asarray(a), 1, casting="foo"))
    assert_both_raise(TypeError, r"Cannot cast array data from dtype\('float64'\) to dtype\('bool'\) according to "
                      "the rule 'safe'", lambda xp: xp.copyto(xp.asarray(a), 1, where=xp.asarray(np.ones(3))))
    assert_both_raise(OverflowError, "Python integer 1000 out of bounds for int8",
                      lambda xp: xp.copyto(xp.asarray(np.zeros(3, np.int8)), 1000))


# ---- nan_to_num -------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.float16, np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kwargs", [{}, {"nan": -1.0, "posinf": 7, "neginf": -8.5}, {"posinf": 1e300}], ids=str)
@numpy_simt_allclose()
def test_nan_to_num(xp, rng, dtype, kwargs):
    a = special_floats(xp, rng, (5, 6), dtype)
    if np.dtype(dtype).kind == "c":
        a.imag[...] = special_floats(xp, rng, (5, 6), np.float64)
    return xp.nan_to_num(a, **kwargs), xp.nan_to_num(a[::-2, 1:], **kwargs), a


@parametrize_dtypes("dtype", [np.float32, np.int32, np.bool_])
@numpy_simt_allclose()
def test_nan_to_num_in_place_and_integers(xp, rng, dtype):
    a = special_floats(xp, rng, (7,), np.float64).astype(dtype) if dtype == np.float32 else make(xp, rng, (7,), dtype)
    r = xp.nan_to_num(a, copy=False)
    assert r is a
    return r, xp.nan_to_num(a[0]), xp.nan_to_num(make(xp, rng, (0,), dtype))


# ---- modf / frexp / ldexp ---------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.float16, np.float32, np.float64, np.int8, np.int32, np.bool_])
@numpy_simt_allclose()
def test_modf_frexp(xp, rng, dtype):
    a = special_floats(xp, rng, (4, 7), dtype) if np.dtype(dtype).kind == "f" else make(xp, rng, (4, 7), dtype)
    b = a[::-1, ::2]
    return xp.modf(a), xp.frexp(a), xp.modf(b), xp.frexp(b), xp.modf(a[0, 0]), np.modf(b), np.frexp(a)


@numpy_simt_allclose()
def test_modf_frexp_out(xp, rng):
    a = make(xp, rng, (6,), np.float32, low=-100, high=100)
    f, w = xp.zeros(6, np.float64), xp.zeros(6, np.float32)
    m, e = xp.zeros(6, np.float32), xp.zeros(6, np.int64)
    r1 = xp.modf(a, f, w)
    r2 = xp.frexp(a, out=(m, e))
    assert r1[0] is f and r2[1] is e
    return f, w, m, e


def test_modf_frexp_errors():
    assert_both_raise(TypeError, "ufunc 'modf' not supported for the input types",
                      lambda xp: xp.modf(xp.asarray(np.ones(2, np.complex64))))
    assert_both_raise(TypeError, "ufunc 'frexp' not supported for the input types",
                      lambda xp: xp.frexp(xp.asarray(np.ones(2, np.complex128))))


@pytest.mark.parametrize("types", [(np.float32, np.int32), (np.float64, np.int64), (np.float16, np.int8),
                                   (np.float32, np.int64), (np.int32, np.int16), (np.bool_, np.int32),
                                   (np.float64, np.uint8)], ids=str)
@numpy_simt_allclose(rtol=1e-6)
def test_ldexp(xp, rng, types):
    x = strided(xp, rng, (3, 5), types[0])
    e = make(xp, rng, (3, 5), types[1], low=-8, high=9)
    return xp.ldexp(x, e), xp.ldexp(x, 3), xp.ldexp(x[0], e), xp.ldexp(2.5, e), np.ldexp(x, e)


@numpy_simt_allclose()
def test_ldexp_large_exponents(xp, rng):
    x = make(xp, rng, (4,), np.float64)
    e = xp.asarray(np.array([2**40, -2**40, 5000, -5000], dtype=np.int64))
    return xp.ldexp(x, e), xp.ldexp(x.astype(np.float32), e)


def test_ldexp_errors():
    assert_both_raise(TypeError, "ufunc 'ldexp' not supported for the input types",
                      lambda xp: xp.ldexp(xp.asarray(np.ones(2)), xp.asarray(np.ones(2))))
    assert_both_raise(TypeError, "ufunc 'ldexp' not supported for the input types",
                      lambda xp: xp.ldexp(xp.asarray(np.ones(2)), xp.asarray(np.ones(2, np.uint64))))


# ---- gcd / lcm --------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.int8, np.uint8, np.int16, np.int32, np.int64, np.uint64])
@numpy_simt_allclose()
def test_gcd_lcm(xp, rng, dtype):
    low = 0 if np.dtype(dtype).kind == "u" else -30
    a = strided(xp, rng, (4, 6), dtype, low=low, high=30)
    b = make(xp, rng, (6,), dtype, low=low, high=30)
    return xp.gcd(a, b), xp.lcm(a, b), xp.gcd(a, 12), xp.lcm(a, 4), np.gcd(a, a.T[0:4, 0:1]), xp.gcd(a, 0)


@numpy_simt_allclose()
def test_gcd_lcm_mixed_types_and_wrapping(xp, rng):
    a = make(xp, rng, (5,), np.int8, low=-100, high=100)
    b = make(xp, rng, (5,), np.uint8, low=1, high=200)
    return xp.gcd(a, b), xp.lcm(a, b), xp.lcm(xp.asarray(np.array([100, -100], np.int8)), np.int8(3))


def test_gcd_lcm_errors():
    for fname in ("gcd", "lcm"):
        assert_both_raise(TypeError, f"ufunc '{fname}'", lambda xp: getattr(xp, fname)(xp.asarray(np.ones(2)), 2))
        assert_both_raise(TypeError, f"ufunc '{fname}'",
                          lambda xp: getattr(xp, fname)(xp.asarray(np.ones(2, bool)), True))


# ---- dtype and shape queries ------------------------------------------------------------------
def test_dtype_and_shape_queries(rng):
    h = random_host(rng, (3, 4, 5), np.float32)
    d = simt.asarray(h)
    assert simt.result_type(d, 1.0, np.int8) == np.result_type(h, 1.0, np.int8) == np.float32
    assert simt.result_type(d, np.float64) == np.float64
    assert np.result_type(d, np.int16) == np.result_type(h, np.int16)
    assert simt.can_cast(d, np.float64) and not simt.can_cast(d, np.int32)
    assert simt.can_cast(d, np.int32, "unsafe") and np.can_cast(d, np.float16, "same_kind")
    assert simt.promote_types(np.int8, np.uint8) == np.int16
    assert simt.finfo(d).eps == np.finfo(np.float32).eps and simt.finfo(np.float16).max == 65504
    assert simt.iinfo(simt.asarray(np.ones(2, np.int16))).max == 32767 and simt.iinfo(np.uint8).max == 255
    assert simt.isscalar(3.0) and simt.isscalar(np.float32(1))
    assert not simt.isscalar(d) and not simt.isscalar(d[0, 0, 0])
    for xp_fn, np_fn in ((simt.ndim, np.ndim), (simt.shape, np.shape), (simt.size, np.size)):
        assert xp_fn(d) == np_fn(h) == np_fn(d)
        assert xp_fn([[1, 2], [3, 4]]) == np_fn([[1, 2], [3, 4]])
    assert simt.size(d, 1) == np.size(d, 1) == 4 and simt.size(d, (0, -1)) == np.size(h, (0, -1)) == 15
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds"):
        simt.size(d, 3)


# ---- NumPy's functions on simt arrays run simt's ----------------------------------------------
@pytest.mark.parametrize("call", [
    lambda xp, a: xp.flip(a, 0), lambda xp, a: xp.roll(a, 2, 1), lambda xp, a: xp.tile(a, 2),
    lambda xp, a: xp.repeat(a, 2, 0), lambda xp, a: xp.diff(a), lambda xp, a: xp.meshgrid(a[0], a[1]),
    lambda xp, a: xp.outer(a[0], a[1]), lambda xp, a: xp.isclose(a, a), lambda xp, a: xp.ptp(a, 0),
    lambda xp, a: xp.average(a, 1), lambda xp, a: xp.diag(a), lambda xp, a: xp.trace(a), lambda xp, a: xp.tril(a),
    lambda xp, a: xp.triu(a, 1), lambda xp, a: xp.split(a, 2), lambda xp, a: xp.hsplit(a, 3),
    lambda xp, a: xp.column_stack([a, a]), lambda xp, a: xp.dstack([a, a]), lambda xp, a: xp.atleast_3d(a),
    lambda xp, a: xp.nan_to_num(a), lambda xp, a: xp.modf(a), lambda xp, a: xp.frexp(a), lambda xp, a: xp.ldexp(a, 2),
    lambda xp, a: xp.fliplr(a), lambda xp, a: xp.flipud(a), lambda xp, a: xp.array_split(a, 3, 1),
    lambda xp, a: xp.diagonal(a), lambda xp, a: xp.nanmean(a, 0),
])
def test_numpy_functions_dispatch_to_simt(rng, call):
    h = random_host(rng, (4, 6), np.float64)
    expected, actual = call(np, h), call(np, simt.asarray(h))
    expected = expected if isinstance(expected, (tuple, list)) else [expected]
    actual = actual if isinstance(actual, (tuple, list)) else [actual]
    for e, a in zip(expected, actual, strict=True):
        assert isinstance(a, simt.ndarray), f"numpy ran instead of simt: {type(a)}"
        np.testing.assert_allclose(a.get(), e)


def test_numpy_gcd_and_copyto_dispatch(rng):
    h = random_host(rng, (5,), np.int32)
    d = simt.asarray(h)
    np.testing.assert_array_equal(np.gcd(d, 6).get(), np.gcd(h, 6))
    np.copyto(d, 3, where=d > 0)
    np.copyto(h, 3, where=h > 0)
    np.testing.assert_array_equal(d.get(), h)
