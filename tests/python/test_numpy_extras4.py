"""NumPy's and CuPy's third batch against NumPy on fresh random data: diagflat, broadcast,
histogramdd, poly1d, save/load/savez/savez_compressed, r_/c_, require, trapz, pad's statistical
modes, linear_ramp and reflect_type='odd', ufunc.reduceat and unique(axis=...) (values, shapes,
dtypes, errors)."""
import io
import warnings

import numpy as np
import pytest

import simt
from xp_testing import assert_both_raise, assert_same, make, numpy_simt_allclose, parametrize_dtypes


def strided(xp, rng, shape, dtype, **kwargs):
    """Random data of `shape` as a non-contiguous view (every other row, reversed columns)."""
    if len(shape) < 2:
        return make(xp, rng, tuple(2 * n for n in shape), dtype, **kwargs)[::2]
    big = make(xp, rng, (2 * shape[0], shape[1]) + tuple(shape[2:]), dtype, **kwargs)
    return big[::2, ::-1]


# ---- diagflat, broadcast, require, trapz --------------------------------------------------------
@parametrize_dtypes("dtype", [np.int32, np.float64, np.complex64])
@pytest.mark.parametrize("k", [0, 2, -1])
@numpy_simt_allclose()
def test_diagflat(xp, rng, dtype, k):
    return xp.diagflat(strided(xp, rng, (2, 3), dtype), k), xp.diagflat(make(xp, rng, (4,), dtype), k)


def test_diagflat_of_a_list():
    assert_same(np.diagflat([[1, 2], [3, 4]], -1), simt.diagflat([[1, 2], [3, 4]], -1))


def test_broadcast_object(rng):
    a, b = rng.standard_normal((4, 1, 3)), rng.standard_normal((5, 1))
    want = np.broadcast(a, b, 2.0)
    got = simt.broadcast(simt.asarray(a), simt.asarray(b), 2.0)
    assert got.shape == want.shape == (4, 5, 3)
    assert (got.ndim, got.nd, got.size, got.numiter) == (want.ndim, 3, want.size, want.numiter)
    for v, h in zip(got.values, (a, b, np.float64(2.0))):
        np.testing.assert_array_equal(v.get(), np.broadcast_to(h, want.shape))
    assert simt.broadcast(got, simt.zeros(3)).shape == (4, 5, 3)  # (broadcast objects take part)
    assert_both_raise(ValueError, None, lambda xp: xp.broadcast(xp.zeros((2, 3)), xp.zeros((4,))))
    with pytest.raises(TypeError, match="host"):
        simt.broadcast(simt.zeros(3), np.zeros(3))


@pytest.mark.parametrize("req", [None, "C", "F", ["F", "A"], ("O", "W", "E"), "co", ["C_CONTIGUOUS", "OWNDATA"]])
def test_require(rng, req):
    h = rng.standard_normal((4, 6))[::2, 1::2]
    for x in (h, h.T, np.ascontiguousarray(h)):
        want = np.require(x, np.float32, req)
        got = simt.require(simt.asarray(x) if x is not h else simt.asarray(h * 0 + h)[...], np.float32, req)
        assert_same(want, got)
    d = simt.asarray(rng.standard_normal((3, 4)))
    assert simt.require(d, requirements="C") is d
    t = simt.require(d.T, requirements="C")
    assert t.flags.c_contiguous and t.base is None
    np.testing.assert_array_equal(t.get(), d.get().T)
    v = d[:, 1:]
    assert v.base is d and simt.require(v, requirements="O").base is None
    assert_both_raise(ValueError, 'both "C" and "F"', lambda xp: xp.require(xp.zeros(3), requirements="CF"))
    with pytest.raises(KeyError, match="unknown requirement 'X'"):
        simt.require(d, requirements="X")
    with pytest.raises(KeyError, match="unknown requirement '_'"):
        simt.require(d, requirements="c_contiguous")  # (NumPy's KeyError too: a string is its letters)


@numpy_simt_allclose()
def test_trapz_is_trapezoid(xp, rng):
    y = make(xp, rng, (3, 7), np.float64)
    x = make(xp, rng, (7,), np.float64)
    trapz = getattr(xp, "trapz", None) or xp.trapezoid  # (NumPy 2.4 dropped trapz; CuPy keeps it)
    return trapz(y, x), trapz(y, dx=0.5, axis=0)


# ---- histogramdd ------------------------------------------------------------------------------
@pytest.mark.parametrize("bins", [4, (3, 5, 2), [np.array([-2.0, -0.5, 0.0, 1.5, 3.0]), 3, 6]])
@pytest.mark.parametrize("density", [False, True])
def test_histogramdd(rng, bins, density):
    x = rng.standard_normal((500, 3))
    w = rng.random(500)
    for kw in ({}, {"weights": w}, {"range": [(-1, 1), None, (0, 2.5)]}):
        want_h, want_e = np.histogramdd(x, bins=bins, density=density, **kw)
        d_kw = {k: (simt.asarray(v) if k == "weights" else v) for k, v in kw.items()}
        got_h, got_e = simt.histogramdd(simt.asarray(x), bins=bins, density=density, **d_kw)
        assert_same(want_h, got_h, rtol=1e-10)  # (densities: divided in another order)
        assert len(got_e) == 3
        for e, g in zip(want_e, got_e):
            assert_same(e, g, rtol=1e-12)


def test_histogramdd_sample_forms_and_errors(rng):
    cols = [rng.integers(0, 10, 200), rng.integers(0, 10, 200)]
    want = np.histogramdd(cols, bins=5)
    got = simt.histogramdd([simt.asarray(c) for c in cols], bins=5)
    assert_same(want[0], got[0])
    one = rng.standard_normal(100)
    assert_same(np.histogramdd(one, bins=7)[0], simt.histogramdd(simt.asarray(one), bins=7)[0])
    assert_same(np.histogramdd(np.zeros((0, 2)), bins=3)[0], simt.histogramdd(simt.zeros((0, 2)), bins=3)[0])
    d = simt.asarray(rng.standard_normal((10, 2)))
    h = d.get()
    assert_both_raise(ValueError, "dimension of bins", lambda xp: xp.histogramdd(xp.asarray(h), bins=[2, 3, 4]))
    assert_both_raise(ValueError, "must be positive", lambda xp: xp.histogramdd(xp.asarray(h), bins=0))
    assert_both_raise(ValueError, "one entry per dimension", lambda xp: xp.histogramdd(xp.asarray(h), range=[(0, 1)]))
    with pytest.raises(ValueError, match="weights"):
        simt.histogramdd(d, weights=simt.ones(3))
    # np.histogramdd(device array) runs simt's
    assert isinstance(np.histogramdd(d, bins=3)[0], simt.ndarray)


# ---- poly1d ---------------------------------------------------------------------------------------
def test_poly1d_construction_and_attributes(rng):
    c = rng.standard_normal(4)
    for args in (([0.0, 0.0] + list(c),), (c, True), ([0, 0],), (3.5,)):
        want = np.poly1d(*args)
        got = simt.poly1d(*[simt.asarray(a) if isinstance(a, np.ndarray) else a for a in args])
        assert_same(want.coeffs, got.coeffs, rtol=1e-10)
        assert got.order == want.order and len(got) == len(want)
        assert got.c is got.coef is got.coefficients is got.coeffs
    p = simt.poly1d(simt.asarray(c), variable="z")
    assert p.variable == "z" and simt.poly1d(p).variable == "z"
    assert repr(p) == repr(np.poly1d(c))
    assert str(p) == str(np.poly1d(c, variable="z"))
    r = np.sort_complex(np.roots(c))
    np.testing.assert_allclose(np.sort_complex(p.roots.get()), r, rtol=1e-9)
    assert_same(np.poly1d([1, -3, 2]).roots, simt.poly1d([1, -3, 2]).r, rtol=1e-12)
    with pytest.raises(ValueError, match="1d only"):
        simt.poly1d(simt.zeros((2, 2)))
    with pytest.raises(AttributeError):
        p.coeffs = simt.zeros(3)


def test_poly1d_evaluation_and_arithmetic(rng):
    a, b = rng.standard_normal(4), rng.standard_normal(2)
    x = rng.standard_normal((3, 5))
    pa, pb = np.poly1d(a), np.poly1d(b)
    da, db = simt.poly1d(simt.asarray(a)), simt.poly1d(simt.asarray(b))
    assert_same(pa(x), da(simt.asarray(x)), rtol=1e-12)
    for want, got in [(pa + pb, da + db), (pa - pb, da - db), (pb - pa, db - da), (pa * pb, da * db),
                      (pa * 2.5, da * 2.5), (3 * pa, 3 * da), (pa + 1, da + 1), (1 - pa, 1 - da), (-pa, -da),
                      (pa ** 3, da ** 3), (pa / 2, da / 2), (pa(pb), da(db)), (pa.deriv(), da.deriv()),
                      (pa.deriv(2), da.deriv(2)), (pa.integ(), da.integ()),
                      (pa.integ(2, k=[1, 2]), da.integ(2, k=[1, 2]))]:
        assert isinstance(got, simt.poly1d)
        assert_same(want.coeffs, got.coeffs, rtol=1e-10, atol=1e-12)
    assert da == simt.poly1d(simt.asarray(a)) and da != db and not (da == db)
    assert_same(np.polyadd(pa, b).coeffs, simt.polyadd(da, simt.asarray(b)).coeffs, rtol=1e-12)
    assert_same(np.polymul(a, pb).coeffs, simt.polymul(simt.asarray(a), db).coeffs, rtol=1e-12)
    assert_same(np.polyder(pa).coeffs, simt.polyder(da).coeffs, rtol=1e-12)
    assert_same(np.polyval(pa, x), simt.polyval(da, simt.asarray(x)), rtol=1e-12)
    assert_same(np.polyadd(a, b), simt.polyadd(simt.asarray(a), simt.asarray(b)), rtol=1e-12)  # arrays stay arrays
    for power in (4, 1, 0):
        assert_same(np.asarray(pa[power]), da[power])
    da[6] = 2.0
    pa[6] = 2.0
    assert_same(pa.coeffs, da.coeffs, rtol=1e-12)
    with pytest.raises(ValueError, match="non-negative integers"):
        da ** 1.5
    with pytest.raises(ValueError, match="negative powers"):
        da[-1] = 1.0
    with pytest.raises(NotImplementedError, match="polydiv"):
        da / db
    with pytest.raises(TypeError, match="coeffs.get"):
        np.asarray(da)


# ---- save / load -------------------------------------------------------------------------------
def test_save_load_round_trip(tmp_path, rng):
    a = rng.standard_normal((3, 4)).astype(np.float32)
    b = rng.integers(0, 100, 7)
    path = tmp_path / "a.npy"
    simt.save(path, simt.asarray(a)[:, ::-1])
    np.testing.assert_array_equal(np.load(path), a[:, ::-1])  # a plain .npy file
    got = simt.load(path)
    assert isinstance(got, simt.ndarray)
    assert_same(a[:, ::-1], got)
    for save in (simt.savez, simt.savez_compressed):
        buf = io.BytesIO()
        save(buf, simt.asarray(a), bee=simt.asarray(b))
        buf.seek(0)
        with simt.load(buf) as f:
            assert sorted(f.files) == ["arr_0", "bee"] and "bee" in f and len(f) == 2
            assert_same(a, f["arr_0"])
            assert_same(b, f["bee"])
    buf = io.BytesIO()
    simt.save(buf, b)  # host data is written as it is
    buf.seek(0)
    assert_same(b, simt.load(buf))


# ---- r_ and c_ ------------------------------------------------------------------------------------
@numpy_simt_allclose()
def test_r_and_c(xp, rng):
    a, b = make(xp, rng, (3,), np.int32), make(xp, rng, (4,), np.float32)
    m, n = make(xp, rng, (2, 3), np.float64), make(xp, rng, (2, 2), np.float64)
    return (xp.r_[a, 0, 0, a], xp.r_[a, b], xp.r_[0:1:5j], xp.r_[-1:3, 7, 0.5:2:0.5], xp.r_[2:7:2, a],
            xp.r_[m, m], xp.r_["1", m, n], xp.r_["0,2", [1, 2, 3], [4, 5, 6]], xp.r_["0,2,0", [1, 2, 3], [4, 5, 6]],
            xp.r_["1,2,0", [1, 2, 3], [4, 5, 6]], xp.r_["-1,3,1", a, a], xp.r_[np.float32(2), a],
            xp.c_[a, a], xp.c_[m, n[:, :1], 0:2], xp.c_[m, n], xp.c_[0:3, a])


def test_r_errors():
    with pytest.raises(ValueError, match="first entry"):
        simt.r_[simt.zeros(2), "0"]
    with pytest.raises(ValueError, match="unknown special directive"):
        simt.r_["x", simt.zeros(2)]
    with pytest.raises(NotImplementedError, match="matrix"):
        simt.r_["r", simt.zeros(2)]
    assert_both_raise(ValueError, None, lambda xp: xp.r_[xp.zeros((2, 2)), xp.zeros(3)])


# ---- pad: statistics, linear ramps, odd reflections ----------------------------------------------
@pytest.mark.parametrize("mode", ["maximum", "minimum", "mean", "median"])
@parametrize_dtypes("dtype", [np.uint8, np.float64])
@pytest.mark.parametrize("stat_length", [None, 2, ((1, 3), (2, 1)), 100])
@numpy_simt_allclose()
def test_pad_statistics(xp, rng, mode, dtype, stat_length):
    a = strided(xp, rng, (4, 5), dtype)
    row_length = 3 if isinstance(stat_length, tuple) else stat_length  # (a 1-D array takes one pair)
    return (xp.pad(a, ((2, 3), (1, 4)), mode=mode, stat_length=stat_length),
            xp.pad(a, 2, mode=mode), xp.pad(a[0], (0, 3), mode=mode, stat_length=row_length))


@parametrize_dtypes("dtype", [np.int64, np.float32, np.complex128])
@pytest.mark.parametrize("end_values", [0, (5, -3), ((1, 2), (-4, 7))])
@numpy_simt_allclose(rtol=1e-6, atol=1e-5)  # (float32: NumPy's ramp is float32 arithmetic, simt's float64)
def test_pad_linear_ramp(xp, rng, dtype, end_values):
    a = strided(xp, rng, (3, 4), dtype, low=0, high=50)
    if np.dtype(dtype).kind == "u":
        end_values = np.abs(np.asarray(end_values))
    return (xp.pad(a, ((2, 5), (3, 1)), mode="linear_ramp", end_values=end_values),
            xp.pad(a, 1, mode="linear_ramp"))


@pytest.mark.parametrize("mode", ["reflect", "symmetric"])
@parametrize_dtypes("dtype", [np.int8, np.float64])
@pytest.mark.parametrize("shape", [(5,), (4, 3), (1, 6), (2, 3, 2), (1,)], ids=str)
def test_pad_odd_reflections(rng, mode, dtype, shape):
    h = make(np, rng, shape, dtype)
    d = simt.asarray(h)
    for width in [1, 2, 7, ((0, 3),) * len(shape), [(2, 9)] + [(1, 0)] * (len(shape) - 1), 0, 13]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            want = np.pad(h, width, mode, reflect_type="odd")
        got = simt.pad(d, width, mode, reflect_type="odd")
        # (NumPy reflects chunk by chunk; simt adds multiples of the edges at once: the rounding
        # differs by a few ulps of the largest values)
        assert_same(want, got, rtol=1e-12, atol=1e-12 * max(1.0, float(np.abs(want).max(initial=0))))


def test_pad_mode_errors(rng):
    a = rng.standard_normal((3, 4))
    assert_both_raise(ValueError, "stat_length of 0", lambda xp: xp.pad(xp.asarray(a), 1, "maximum", stat_length=0))
    assert_both_raise(ValueError, "stat_length of 0",
                      lambda xp: xp.pad(xp.asarray(a), ((0, 0), (1, 1)), "minimum", stat_length=((0, 0), (1, 1))))
    assert_both_raise(ValueError, "negative values", lambda xp: xp.pad(xp.asarray(a), 1, "mean", stat_length=-1))
    assert_both_raise(ValueError, "unsupported keyword arguments for mode 'maximum'",
                      lambda xp: xp.pad(xp.asarray(a), 1, "maximum", end_values=0))
    assert_both_raise(ValueError, "unsupported keyword arguments for mode 'edge'",
                      lambda xp: xp.pad(xp.asarray(a), 1, "edge", constant_values=0))
    assert_both_raise(ValueError, "can't extend empty axis 0", lambda xp: xp.pad(xp.zeros((0, 3)), 1, mode="median"))
    with pytest.raises(ValueError, match="reflect_type must be 'even' or 'odd'"):
        simt.pad(simt.asarray(a), 1, "reflect", reflect_type="bogus")
    with pytest.raises(ValueError, match="integer array"):
        simt.pad(simt.arange(4), 1, "mean", stat_length=0)
    with pytest.raises(TypeError, match="boolean"):
        simt.pad(simt.asarray(a) > 0, 1, "reflect", reflect_type="odd")
    # a float mean of no elements is NaN, as NumPy's
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert_same(np.pad(a, 1, "mean", stat_length=0), simt.pad(simt.asarray(a), 1, "mean", stat_length=0))


# ---- ufunc.reduceat -----------------------------------------------------------------------------
REDUCEAT = ["add", "subtract", "multiply", "maximum", "minimum", "fmax", "fmin", "bitwise_and", "bitwise_or",
            "bitwise_xor", "logical_and", "logical_or", "logical_xor"]


@pytest.mark.parametrize("name", REDUCEAT)
@parametrize_dtypes("dtype", [np.bool_, np.int8, np.uint16, np.float64])
@numpy_simt_allclose(rtol=1e-5, accept_error=(TypeError,))
def test_reduceat(xp, rng, name, dtype):
    u = getattr(xp, name)
    a = make(xp, rng, (9, 4, 3), dtype, low=-3 if np.dtype(dtype).kind == "i" else 0, high=4)
    idx = [0, 3, 3, 8, 1, 5]
    return (u.reduceat(a, idx), u.reduceat(a, idx[:3], axis=1), u.reduceat(a[:, ::-1], [2, 0], axis=-1),
            u.reduceat(a[:, 0, 0], xp.asarray(np.array([4, 2, 2, 6]))))


def test_reduceat_nans_dtype_out_and_errors(rng):
    h = rng.standard_normal((7, 3))
    h[2, 1] = np.nan
    d = simt.asarray(h)
    for name in ("maximum", "minimum", "fmax", "fmin", "add"):
        assert_same(getattr(np, name).reduceat(h, [0, 2, 5]), getattr(simt, name).reduceat(d, [0, 2, 5]))
    hi = rng.integers(0, 100, 10).astype(np.int8)
    assert_same(np.add.reduceat(hi, [0, 5], dtype=np.int8), simt.add.reduceat(simt.asarray(hi), [0, 5], dtype=np.int8))
    out = simt.empty((2, 3))
    assert simt.add.reduceat(d, [1, 4], out=out) is out
    assert_same(np.add.reduceat(h, [1, 4]), out)
    assert_same(np.add.reduceat(h, []), simt.add.reduceat(d, []))
    assert_both_raise(IndexError, "index 7 out-of-bounds in add.reduceat \\[0, 7\\)", lambda xp: xp.add.reduceat(
        xp.asarray(h), [0, 7]))
    assert_both_raise(IndexError, "index -1 out-of-bounds", lambda xp: xp.add.reduceat(xp.asarray(h), [-1]))
    with pytest.raises(IndexError, match="index 9 out-of-bounds in multiply.reduceat"):
        simt.multiply.reduceat(d, simt.asarray(np.array([0, 9])))
    with pytest.raises(TypeError, match="reduceat is not supported"):
        simt.arctan2.reduceat(d, [0])
    with pytest.raises(TypeError, match="complex"):
        simt.maximum.reduceat(d.astype(np.complex128), [0])
    with pytest.raises(TypeError, match="0-d"):
        simt.add.reduceat(simt.asarray(1.0), [0])


# ---- unique(axis=...) ---------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
@parametrize_dtypes("dtype", [np.int8, np.float64, np.complex64])
@numpy_simt_allclose()
def test_unique_axis(xp, rng, axis, dtype):
    a = make(xp, rng, (6, 5, 2), dtype, low=0, high=2)  # few distinct values: many equal slices
    a = xp.concatenate([a, a[:3], a[1:2]], axis=0)
    return xp.unique(a, axis=axis, return_index=True, return_inverse=True, return_counts=True)


def test_unique_axis_special_values(rng):
    h = np.array([[np.nan, 1.0], [0.0, 2.0], [np.nan, 1.0], [-0.0, 2.0], [np.inf, -1.0], [0.0, np.nan]])
    want = np.unique(h, axis=0, return_index=True, return_inverse=True, return_counts=True)
    got = simt.unique(simt.asarray(h), axis=0, return_index=True, return_inverse=True, return_counts=True)
    assert_same(want, got)
    for shape, axis in [((0, 3), 0), ((3, 0), 0), ((3, 0), 1), ((4, 1), 1)]:
        e = np.zeros(shape)
        assert_same(np.unique(e, axis=axis, return_inverse=True, return_counts=True),
                    simt.unique(simt.asarray(e), axis=axis, return_inverse=True, return_counts=True))
    assert_same(np.unique(h[::2, ::-1], axis=1), simt.unique(simt.asarray(h)[::2, ::-1], axis=1))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.unique(xp.zeros((2, 2)), axis=2))
