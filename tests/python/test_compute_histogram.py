"""simt.compute.histogram_even against NumPy: integer and float samples, samples outside the
levels, many bins (global counters) and few (shared counters), iterators as samples."""
import numpy as np
import pytest

import simt
import simt.compute as cc


def _reference(x, nbins, lo, hi):
    x = x[(x >= lo) & (x < hi)]
    if x.dtype.kind in "iu":
        bins = (x.astype(np.int64) - lo) * nbins // (hi - lo)
    else:
        bins = np.minimum(((x.astype(np.float64) - lo) / (hi - lo) * nbins).astype(np.int64), nbins - 1)
    return np.bincount(bins, minlength=nbins)


@pytest.mark.parametrize("n", [0, 1, 1000, 100_003])
@pytest.mark.parametrize("nbins", [1, 10, 5000])
def test_histogram_int_samples(rng, n, nbins):
    x = rng.integers(-20, 120, n).astype(np.int32)  # some below 0, some at or above 100
    hist = simt.zeros(nbins, np.int32) + 5  # overwritten, not accumulated
    cc.histogram_even(simt.asarray(x), hist, nbins + 1, np.int32(0), np.int32(100), n)
    np.testing.assert_array_equal(hist.get(), _reference(x, nbins, 0, 100))
    if nbins == 10:
        inside = x[(x >= 0) & (x < 100)]
        np.testing.assert_array_equal(hist.get(), np.histogram(inside, bins=10, range=(0, 100))[0])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("counter", [np.int32, np.int64, np.uint32])
def test_histogram_float_samples(rng, dtype, counter):
    x = (rng.standard_normal(100_003) * 2).astype(dtype)
    hist = simt.empty(64, counter)
    cc.histogram_even(simt.asarray(x), hist, 65, np.float64(-3.0), np.float64(3.0), x.size)
    np.testing.assert_array_equal(hist.get(), _reference(x, 64, -3.0, 3.0))
    assert hist.get().sum() == ((x >= -3) & (x < 3)).sum()


def test_histogram_iterator_samples_and_object():
    hist = simt.empty(7, np.int64)
    h = cc.make_histogram_even(cc.CountingIterator(np.int64(0)), hist, np.array([8], np.int32), np.array([0]),
                               np.array([70]), 100)
    assert h(None, cc.CountingIterator(np.int64(0)), hist, np.array([8], np.int32), np.array([0]), np.array([70]),
             100) == 0
    h(simt.empty(0, np.uint8), cc.CountingIterator(np.int64(0)), hist, np.array([8], np.int32), np.array([0]),
      np.array([70]), 100)
    np.testing.assert_array_equal(hist.get(), [10] * 7)


def test_histogram_integer_levels_near_the_int64_range(rng):
    # Bins are computed exactly as (s - lower) * bins // (upper - lower) in int64: a range where that
    # product would wrap is refused, one just inside it bins as NumPy does.
    lo, hi = -2**60, 2**60
    samples = np.concatenate([rng.integers(lo, hi, 1000, dtype=np.int64), [lo, hi - 1, hi, lo - 1]])
    hist = simt.empty(3, np.int64)
    cc.histogram_even(simt.asarray(samples), hist, 4, lo, hi, samples.size)
    inside = samples[(samples >= lo) & (samples < hi)]
    bins = [(int(s) - lo) * 3 // (hi - lo) for s in inside]  # (Python integers: exact)
    np.testing.assert_array_equal(hist.get(), np.bincount(bins, minlength=3))
    with pytest.raises(ValueError, match=r"need \(upper - lower\) \* bins below 2\*\*63; pass float levels"):
        cc.histogram_even(simt.asarray(samples), simt.empty(4, np.int64), 5, -2**62, 2**62, samples.size)
