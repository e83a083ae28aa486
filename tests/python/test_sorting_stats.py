"""simt.searchsorted, unique, median, quantile, percentile, nanmedian, nanquantile, nanpercentile
against NumPy (python/simt/_searchsorted.py, _unique.py, _quantiles.py): indices and unique values
exactly, interpolated statistics with allclose."""
import warnings

import numpy as np
import pytest

import simt
from sorting_data import ALL, REAL, assert_exact, sort_data


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_every_dtype(rng, dtype, side):
    a = np.sort(sort_data(rng, (57,), dtype))
    v = sort_data(rng, (4, 9), dtype)
    assert_exact(np.searchsorted(a, v, side), simt.searchsorted(simt.asarray(a), simt.asarray(v), side))
    assert_exact(np.searchsorted(a, v, side), simt.asarray(a).searchsorted(simt.asarray(v), side))


def test_searchsorted_sorter_scalars_and_mixed_types(rng):
    a = rng.integers(-50, 50, 1001).astype(np.int16)
    sorter = np.argsort(a, kind="stable")
    v = rng.uniform(-60, 60, 300)
    da = simt.asarray(a)
    for side in ("left", "right"):
        assert_exact(np.searchsorted(a, v, side, sorter), simt.searchsorted(da, simt.asarray(v), side,
                                                                               simt.asarray(sorter)))
    s = np.sort(a)
    r = simt.searchsorted(simt.asarray(s), 7)
    assert r.shape == () and int(r) == np.searchsorted(s, 7)
    assert int(np.searchsorted(simt.asarray(s), 7.5, side="right")) == np.searchsorted(s, 7.5, side="right")
    assert_exact(np.searchsorted(s, np.array([], np.int16)), simt.searchsorted(simt.asarray(s), simt.asarray(
        np.array([], np.int16))))
    assert_exact(np.searchsorted(s[:0], v), simt.searchsorted(simt.asarray(s[:0]), simt.asarray(v)))


def test_searchsorted_nan_and_zeros():
    a = np.array([-np.inf, -1.0, -0.0, 0.0, 2.0, np.inf, np.nan, np.nan])
    v = np.array([np.nan, 0.0, -0.0, np.inf, -np.inf, 3.0])
    for side in ("left", "right"):
        assert_exact(np.searchsorted(a, v, side), simt.searchsorted(simt.asarray(a), simt.asarray(v), side))


def test_searchsorted_errors():
    a = simt.arange(5)
    with pytest.raises(ValueError, match="side must be 'left' or 'right' \\(got 'middle'\\)"):
        simt.searchsorted(a, 2, side="middle")
    with pytest.raises(ValueError, match="a must be 1-D \\(got an array of shape \\(2, 2\\)\\)"):
        simt.searchsorted(simt.zeros((2, 2)), 1)
    with pytest.raises(ValueError, match="sorter must have a's shape"):
        simt.searchsorted(a, 1, sorter=simt.arange(4))
    with pytest.raises(TypeError, match="sorter must be an array of integers"):
        simt.searchsorted(a, 1, sorter=simt.zeros(5))
    with pytest.raises(TypeError, match="host data"):
        simt.searchsorted(a, np.arange(3))


@pytest.mark.parametrize("dtype", ALL)
def test_unique_every_dtype(rng, dtype):
    h = sort_data(rng, (7, 23), dtype)
    d = simt.asarray(h)
    assert_exact(np.unique(h), simt.unique(d))
    expected = np.unique(h, return_index=True, return_inverse=True, return_counts=True)
    got = simt.unique(d, return_index=True, return_inverse=True, return_counts=True)
    assert len(got) == 4
    for e, g in zip(expected, got):
        assert_exact(e, g)


@pytest.mark.parametrize("flags", [(True, False, False), (False, True, False), (False, False, True),
                                   (False, True, True)])
def test_unique_return_combinations(rng, flags):
    h = rng.integers(0, 40, 100_003).astype(np.int32)
    expected = np.unique(h, *flags)
    got = simt.unique(simt.asarray(h), *flags)
    assert len(got) == len(expected)
    for e, g in zip(expected, got):
        assert_exact(e, g)


@pytest.mark.parametrize("dtype", [np.float32, np.complex128])
def test_unique_equal_nan(rng, dtype):
    h = sort_data(rng, (300,), dtype)
    for equal_nan in (True, False):
        expected = np.unique(h, return_counts=True, equal_nan=equal_nan)
        got = simt.unique(simt.asarray(h), return_counts=True, equal_nan=equal_nan)
        for e, g in zip(expected, got):
            assert_exact(e, g)


def test_unique_empty_single_strided_and_dispatch(rng):
    for h in (np.array([], np.float64), np.zeros((0, 3), np.int8), np.array([5], np.uint16)):
        for e, g in zip(np.unique(h, True, True, True), simt.unique(simt.asarray(h), True, True, True)):
            assert_exact(e, g)
    h = rng.integers(0, 5, (8, 9))
    d = simt.asarray(h)
    assert_exact(np.unique(h[::2, ::-3]), simt.unique(d[::2, ::-3]))
    assert_exact(np.unique(h), np.unique(d))
    for e, g in zip(np.unique(h, True, True, True, axis=1), simt.unique(d, True, True, True, axis=1)):
        assert_exact(e, g)  # (unique slices: more in tests/python/test_numpy_extras4.py)


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.int64, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize("keepdims", [False, True])
def test_median(rng, dtype, axis, keepdims):
    h = sort_data(rng, (4, 6, 5), dtype)
    if h.dtype.kind == "f":
        h[np.isinf(h)] = 1.5  # the mean of -inf and inf is NaN both ways, but overflow warnings differ
        h[np.abs(h) > 1e4] = 2.5
    expected = np.median(h, axis=axis, keepdims=keepdims)
    got = simt.median(simt.asarray(h), axis=axis, keepdims=keepdims)
    assert got.dtype == expected.dtype and got.shape == np.shape(expected)
    np.testing.assert_allclose(got.get(), expected, rtol=2e-3 if dtype == np.float16 else 1e-12, equal_nan=True)


def test_median_special_cases(rng):
    h = np.array([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]])
    assert_exact(np.median(h, axis=1), simt.median(simt.asarray(h), axis=1))
    c = np.array([1 + 1j, 3 - 2j, 2 + 0j, 0 + 5j], np.complex128)
    assert_exact(np.median(c), simt.median(simt.asarray(c)))
    b = np.array([True, False, True])
    assert_exact(np.median(b), simt.median(simt.asarray(b)))
    with pytest.warns(RuntimeWarning, match="Mean of empty slice"):
        r = simt.median(simt.zeros((3, 0)), axis=1)
    assert_exact(np.full(3, np.nan), r)
    out = simt.empty(4)
    assert simt.median(simt.asarray(rng.standard_normal((5, 4))), axis=0, out=out) is out
    d = simt.asarray(rng.standard_normal(11))
    assert isinstance(np.median(d), simt.ndarray)


@pytest.mark.parametrize("method", ["linear", "lower", "higher", "nearest", "midpoint"])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_quantile_and_percentile(rng, method, dtype):
    h = (rng.standard_normal((5, 8, 7)) * 50).astype(dtype)
    d = simt.asarray(h)
    for q in (0.0, 0.3, 1.0, [0.1, 0.5, 0.95], np.array([[0.25], [0.75]])):
        for axis, keepdims in ((None, False), (1, True), ((0, 2), False)):
            e = np.quantile(h, q, axis=axis, method=method, keepdims=keepdims)
            g = simt.quantile(d, q, axis=axis, method=method, keepdims=keepdims)
            assert g.dtype == e.dtype and g.shape == np.shape(e)
            # (atol: a GPU may fuse the interpolation's multiply-add, moving a near-zero result by an ulp of the data)
            np.testing.assert_allclose(g.get(), e, rtol=1e-5, atol=1e-4)
            qp = np.asarray(q) * 100 if not isinstance(q, float) else q * 100
            e = np.percentile(h, qp, axis=axis, method=method, keepdims=keepdims)
            g = np.percentile(d, qp, axis=axis, method=method, keepdims=keepdims)
            assert isinstance(g, simt.ndarray) and g.dtype == e.dtype and g.shape == np.shape(e)
            np.testing.assert_allclose(g.get(), e, rtol=1e-5, atol=1e-4)


def test_quantile_nan_propagates_and_errors():
    h = np.array([[0.0, 1.0, np.nan, 3.0], [4.0, 2.0, 1.0, 0.0]])
    d = simt.asarray(h)
    np.testing.assert_allclose(simt.quantile(d, 0.4, axis=1).get(), np.quantile(h, 0.4, axis=1), equal_nan=True)
    with pytest.raises(ValueError, match="Quantiles must be in the range \\[0, 1\\]"):
        simt.quantile(d, 1.5)
    with pytest.raises(ValueError, match="Percentiles must be in the range \\[0, 100\\]"):
        simt.percentile(d, [-1, 50])
    with pytest.raises(ValueError, match="'bogus' is not a valid method"):
        simt.quantile(d, 0.5, method="bogus")
    with pytest.raises(NotImplementedError, match="method='hazen' is not implemented"):
        simt.quantile(d, 0.5, method="hazen")
    with pytest.raises(TypeError, match="a must be an array of real numbers"):
        simt.quantile(simt.zeros(3, np.complex64), 0.5)
    with pytest.raises(TypeError, match="boolean arrays have no quantiles"):
        simt.quantile(simt.zeros(3, np.bool_), 0.5)
    with pytest.raises(IndexError, match="empty array"):
        simt.quantile(simt.zeros(0), 0.5)
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds"):
        simt.median(d, axis=3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1)])
def test_nanmedian_and_nanquantile(rng, dtype, axis):
    h = rng.standard_normal((6, 9)).astype(dtype)
    h[rng.random(h.shape) < 0.4] = np.nan
    h[2, :] = np.nan  # an all-NaN row
    # NumPy takes nanquantile's result dtype from the first slice along the other axes: float32 data
    # gives float32 when that slice is all NaN and float64 otherwise (q a list). Keep it a number.
    h[0, 0] = 0.5
    d = simt.asarray(h)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        cases = [(np.nanmedian(h, axis=axis), simt.nanmedian(d, axis=axis)),
                 (np.nanquantile(h, [0.2, 0.9], axis=axis), simt.nanquantile(d, [0.2, 0.9], axis=axis)),
                 (np.nanpercentile(h, 35, axis=axis, keepdims=True), np.nanpercentile(d, 35, axis=axis, keepdims=True))]
    for e, g in cases:
        assert g.dtype == e.dtype and g.shape == np.shape(e)
        np.testing.assert_allclose(g.get(), e, rtol=1e-5, atol=1e-6, equal_nan=True)
    if axis == 1:
        with pytest.warns(RuntimeWarning, match="All-NaN slice encountered"):
            simt.nanmedian(d, axis=axis)


@pytest.mark.parametrize("dtype", [np.int32, np.uint8])
def test_nanmedian_of_integers_is_median(rng, dtype):
    h = rng.integers(0, 100, (5, 6)).astype(dtype)
    assert_exact(np.nanmedian(h, axis=0), simt.nanmedian(simt.asarray(h), axis=0))


@pytest.mark.parametrize("dtype", REAL[1:])
def test_median_every_real_dtype_large(rng, dtype):
    h = sort_data(rng, (20_001,), dtype)
    if h.dtype.kind == "f":
        h = h[np.isfinite(h) & (np.abs(h) < 1e4)]
    np.testing.assert_allclose(simt.median(simt.asarray(h)).get(), np.median(h), rtol=1e-12)


def test_quantile_at_an_exact_position_beside_an_infinite_neighbour(rng):
    # An exact position gives its element as it is; NumPy's interpolation makes NaN of an infinite
    # element there (np.quantile([-inf, 1, 3, inf], 0) is nan; simt gives -inf).
    h = rng.permutation(np.array([1.0, np.inf, -np.inf, 3.0]))
    d = simt.asarray(h)
    assert simt.quantile(d, 0.0).get() == -np.inf and simt.quantile(d, 1.0).get() == np.inf
    assert simt.quantile(d, 2 / 3).get() == 3.0  # (NumPy: nan, from its next neighbour inf)
    for q in (1 / 3, 0.5):
        np.testing.assert_array_equal(simt.quantile(d, q).get(), np.quantile(h, q))
