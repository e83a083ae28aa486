"""simt.cov and simt.corrcoef against NumPy on fresh random data (python/simt/_covariance.py)."""
import numpy as np
import pytest

import simt

# NumPy warns where no degrees of freedom are left (and divides by zero); simt gives the same values.
pytestmark = pytest.mark.filterwarnings("ignore:(Degrees of freedom|divide by zero|invalid value)")


def assert_close_to_scale(got, want, tol):
    """Relative to each element and to the largest one: an entry that cancels to nearly zero (a covariance of
    nearly uncorrelated rows) keeps only the absolute error of the sums that made it."""
    want = np.asarray(want)
    finite = np.abs(want[np.isfinite(want)])
    scale = finite.max() if finite.size else 1.0
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * scale + 1e-10, equal_nan=True)


CASES = [(dtype, kw) for dtype in (np.float64, np.float32, np.int32, np.complex128)
         for kw in ({}, {"rowvar": False}, {"bias": True}, {"ddof": 2}, {"ddof": 60})
         if not (dtype == np.complex128 and kw == {"ddof": 60})]  # (complex times 1/0: NumPy's own corner)


@pytest.mark.parametrize("shape", [(3, 50), (1, 20), (20,), (4, 3), (2, 1)], ids=str)
@pytest.mark.parametrize("dtype,kw", CASES, ids=str)
def test_cov_and_corrcoef(rng, shape, kw, dtype):
    h = rng.standard_normal(shape) * 10
    if np.dtype(dtype).kind == "c":
        h = h + 1j * rng.standard_normal(shape)
    h = h.astype(dtype)
    d = simt.asarray(h)
    got, want = simt.cov(d, **kw), np.cov(h, **kw)
    assert got.shape == want.shape
    assert_close_to_scale(got.get(), want, 1e-5 if dtype == np.float32 else 1e-10)
    rowvar = kw.get("rowvar", True)
    assert_close_to_scale(simt.corrcoef(d, rowvar=rowvar).get(), np.corrcoef(h, rowvar=rowvar),
                          1e-5 if dtype == np.float32 else 1e-10)


def test_with_y_and_dtype(rng):
    x, y = rng.standard_normal((3, 40)), rng.standard_normal((2, 40))
    np.testing.assert_allclose(simt.cov(simt.asarray(x), simt.asarray(y)).get(), np.cov(x, y), rtol=1e-12)
    np.testing.assert_allclose(simt.cov(simt.asarray(x.T), simt.asarray(y.T), rowvar=False).get(),
                               np.cov(x.T, y.T, rowvar=False), rtol=1e-12)
    np.testing.assert_allclose(simt.corrcoef(simt.asarray(x), simt.asarray(y)).get(), np.corrcoef(x, y), rtol=1e-12)
    got = simt.cov(simt.asarray(x), dtype=np.float32)
    assert got.dtype == np.float32
    assert_close_to_scale(got.get(), np.cov(x, dtype=np.float32), 1e-5)
    r = np.cov(simt.asarray(x))  # (through __array_function__)
    assert isinstance(r, simt.ndarray)


def test_errors():
    d = simt.zeros((2, 3))
    with pytest.raises(ValueError, match="m has more than 2 dimensions"):
        simt.cov(simt.zeros((2, 2, 2)))
    with pytest.raises(ValueError, match="m and y hold 3 and 4 observations"):
        simt.cov(d, simt.zeros((1, 4)))
    with pytest.raises(NotImplementedError, match="fweights and aweights"):
        simt.cov(d, fweights=simt.ones(3))
    with pytest.raises(ValueError, match="ddof must be integer"):
        simt.cov(d, ddof=1.5)
