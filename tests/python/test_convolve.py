"""simt.convolve and simt.correlate against NumPy on fresh random data: every mode, either
sequence the longer, real, integer, boolean and complex values, and NumPy's errors."""
import numpy as np
import pytest

import simt

LENGTHS = [(10, 3), (3, 10), (7, 7), (1, 5), (100, 1), (257, 31)]


def sequence(rng, n, dtype):
    x = rng.standard_normal(n) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(n)
    return x.astype(dtype)


@pytest.mark.parametrize("f", ["convolve", "correlate"])
@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.complex128, np.bool_])
def test_matches_numpy(rng, f, mode, dtype):
    for n, m in LENGTHS:
        a, v = sequence(rng, n, dtype), sequence(rng, m, dtype)
        want = getattr(np, f)(a, v, mode)
        got = getattr(simt, f)(simt.asarray(a), simt.asarray(v), mode)
        assert got.shape == want.shape and got.dtype == want.dtype, (n, m)
        if dtype == np.float32:
            # Against a float64 reference, within float32 rounding of each sum's terms (outputs that
            # cancel to near zero differ from NumPy's own float32 sums in relative terms).
            exact = getattr(np, f)(a.astype(np.float64), v.astype(np.float64), mode)
            scale = getattr(np, f)(np.abs(a).astype(np.float64), np.abs(v).astype(np.float64), mode)
            assert np.all(np.abs(got.get() - exact) <= 2 * min(n, m) * np.finfo(np.float32).eps * scale + 1e-30)
        else:
            np.testing.assert_allclose(got.get(), want, rtol=1e-10, atol=1e-5)


def test_lists_and_mixed_dtypes(rng):
    a = rng.integers(-5, 5, 20).astype(np.int8)
    want = np.convolve(a, [0.5, 1.0, 0.25], "same")
    got = simt.convolve(simt.asarray(a), [0.5, 1.0, 0.25], "same")
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    np.testing.assert_allclose(np.convolve(simt.asarray(a), simt.asarray(a)).get(), np.convolve(a, a))  # NumPy's function


@pytest.mark.parametrize("f", ["convolve", "correlate"])
def test_errors(f):
    for args in [(np.ones(3), np.ones(0)), (np.ones((2, 2)), np.ones(2))]:
        with pytest.raises(ValueError):
            getattr(np, f)(*args)
        with pytest.raises(ValueError):
            getattr(simt, f)(*(simt.asarray(x) for x in args))
    with pytest.raises(ValueError, match="mode"):
        getattr(simt, f)(simt.ones(3), simt.ones(2), "circular")
