"""simt.histogram, bincount, digitize and interp against NumPy on fresh random data
(python/simt/_histograms.py, built on the device sort and searchsorted)."""
import numpy as np
import pytest

import simt


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("bins", [1, 10, 37, "edges"])
@pytest.mark.parametrize("with_range", [False, True])
def test_histogram_counts_weights_and_density(rng, dtype, bins, with_range):
    h = (rng.standard_normal(int(rng.integers(1, 3000))) * 10).astype(dtype)
    if bins == "edges":
        bins = np.sort(rng.uniform(-25, 25, int(rng.integers(2, 12))))
        bins[0] = min(bins[0], float(h.min()))  # (some values on the first and the last edge)
    rng_ = (-5, 5) if with_range and np.ndim(bins) == 0 else None
    d = simt.asarray(h)
    counts, edges = simt.histogram(d, bins=bins, range=rng_)
    want, want_edges = np.histogram(h, bins=bins, range=rng_)
    np.testing.assert_array_equal(counts.get(), want)
    np.testing.assert_array_equal(edges.get(), want_edges)
    w = rng.random(h.size)
    got_w, _ = simt.histogram(d, bins=bins, range=rng_, weights=simt.asarray(w))
    np.testing.assert_allclose(got_w.get(), np.histogram(h, bins=bins, range=rng_, weights=w)[0], rtol=1e-12, atol=1e-12)
    if want.sum():
        got_d, _ = simt.histogram(d, bins=bins, range=rng_, density=True)
        np.testing.assert_allclose(got_d.get(), np.histogram(h, bins=bins, range=rng_, density=True)[0], rtol=1e-12)


def test_histogram_values_on_edges_nan_and_dispatch(rng):
    h = np.concatenate([np.arange(11.0), [np.nan, -1.0, 11.0], rng.uniform(0, 10, 100)])
    got, edges = simt.histogram(simt.asarray(h), bins=10, range=(0, 10))
    np.testing.assert_array_equal(got.get(), np.histogram(h, bins=10, range=(0, 10))[0])  # 10.0 in the last bin
    r, e = np.histogram(simt.asarray(h[~np.isnan(h)]), bins=5)  # (through __array_function__)
    assert isinstance(r, simt.ndarray)
    np.testing.assert_array_equal(r.get(), np.histogram(h[~np.isnan(h)], bins=5)[0])


def test_bincount(rng):
    x = rng.integers(0, 40, int(rng.integers(1, 2000)))
    d = simt.asarray(x)
    np.testing.assert_array_equal(simt.bincount(d).get(), np.bincount(x))
    np.testing.assert_array_equal(simt.bincount(d, minlength=100).get(), np.bincount(x, minlength=100))
    w = rng.standard_normal(x.size)
    np.testing.assert_allclose(simt.bincount(d, weights=simt.asarray(w)).get(), np.bincount(x, weights=w),
                               rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(simt.bincount(simt.asarray(np.array([], np.int64)), minlength=3).get(), [0, 0, 0])
    np.testing.assert_array_equal(simt.bincount(simt.asarray(x.astype(np.uint8))).get(), np.bincount(x.astype(np.uint8)))


@pytest.mark.parametrize("increasing", [True, False])
@pytest.mark.parametrize("right", [False, True])
def test_digitize(rng, increasing, right):
    bins = np.unique(rng.integers(-5, 5, 8)).astype(np.float64)
    bins = bins if increasing else bins[::-1].copy()
    x = np.concatenate([rng.uniform(-7, 7, 200), bins, [np.nan]])
    np.testing.assert_array_equal(simt.digitize(simt.asarray(x), bins, right).get(), np.digitize(x, bins, right))


def test_interp(rng):
    xp = np.sort(rng.standard_normal(12))
    fp = rng.standard_normal(12)
    x = np.concatenate([rng.standard_normal(300) * 2, xp, [np.nan, -np.inf, np.inf]])
    d = [simt.asarray(v) for v in (x, xp, fp)]
    np.testing.assert_allclose(simt.interp(*d).get(), np.interp(x, xp, fp), rtol=1e-12, equal_nan=True)
    np.testing.assert_allclose(simt.interp(*d, left=-9.0, right=9.0).get(), np.interp(x, xp, fp, left=-9, right=9),
                               rtol=1e-12, equal_nan=True)
    one = simt.interp(d[0], simt.asarray(xp[:1]), simt.asarray(fp[:1])).get()
    np.testing.assert_allclose(one, np.interp(x, xp[:1], fp[:1]), equal_nan=True)


def test_errors():
    d = simt.asarray(np.arange(5.0))
    with pytest.raises(ValueError, match="`bins` must be positive"):
        simt.histogram(d, bins=0)
    with pytest.raises(ValueError, match="`bins` must increase monotonically"):
        simt.histogram(d, bins=[0.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="max must be larger than min"):
        simt.histogram(d, range=(3, 1))
    with pytest.raises(ValueError, match=r"autodetected range of \[nan, nan\] is not finite"):
        simt.histogram(simt.asarray(np.array([np.nan])))
    with pytest.raises(NotImplementedError, match="estimator name"):
        simt.histogram(d, bins="auto")
    with pytest.raises(ValueError, match="weights should have the same shape"):
        simt.histogram(d, weights=simt.ones(4))
    with pytest.raises(ValueError, match="'x' argument must have no negative elements"):
        simt.bincount(simt.asarray(np.array([1, -1])))
    with pytest.raises(TypeError, match="x must be an array of integers"):
        simt.bincount(d)
    with pytest.raises(ValueError, match="must be monotonically increasing or decreasing"):
        simt.digitize(d, [0.0, 2.0, 1.0])
    with pytest.raises(ValueError, match="fp and xp are not of the same length"):
        simt.interp(d, d, simt.ones(3))
