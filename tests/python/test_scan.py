"""simt.cumsum / simt.cumprod against NumPy: axes, dtypes, empty arrays, long lines that take the
multi-pass scan, and every pass layout."""
import numpy as np
import pytest

import simt
from pass_shapes import pass_shapes  # noqa: F401  (fixture)
from test_reductions import data
from xp_compare import numpy_simt_allclose


@pytest.mark.parametrize("shape", [(), (1,), (9,), (4, 5), (3, 4, 5), (0,), (3, 0), (2, 1, 7)])
@pytest.mark.parametrize("axis", [None, 0, -1, 1, 2])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_cumsum_axes(xp, rng, pass_shapes, shape, axis):
    a = xp.asarray(data(rng, shape, np.float64))
    return xp.cumsum(a, axis=axis)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.uint64, np.float32,
                                   np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_simt_allclose(rtol=1e-12, atol=1e-4, rtol_by_dtype={np.float32: 1e-5, np.complex64: 1e-5})
def test_cumsum_dtypes(xp, rng, pass_shapes, dtype, axis):
    a = xp.asarray(data(rng, (13, 21), dtype))
    return xp.cumsum(a, axis=axis)


def test_cumsum_float16_accumulates_in_float32(rng):
    h = rng.standard_normal(5000).astype(np.float16)
    r = simt.cumsum(simt.asarray(h)).get()
    assert r.dtype == np.float16
    np.testing.assert_allclose(r.astype(np.float64), np.cumsum(h.astype(np.float64)), rtol=2e-3, atol=0.05)


@pytest.mark.parametrize("n", [1, 1000, 100_003])
@numpy_simt_allclose(rtol=1e-9, atol=1e-9)
def test_cumsum_long_lines(xp, rng, n):
    return xp.cumsum(xp.asarray(rng.standard_normal(n)))


@numpy_simt_allclose(rtol=1e-9, atol=1e-9)
def test_cumsum_few_long_lines_along_each_axis(xp, rng):
    a = xp.asarray(rng.standard_normal((3, 40_000)))
    b = xp.asarray(rng.standard_normal((40_000, 3)))
    return xp.cumsum(a, axis=1), xp.cumsum(b, axis=0)


@pytest.mark.parametrize("dtype", [np.int64, np.float64, np.complex128])
@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_cumprod(xp, rng, pass_shapes, dtype, axis):
    a = xp.asarray(data(rng, (5, 6), dtype, "prod"))
    return xp.cumprod(a, axis=axis)


@pytest.mark.parametrize("dtype", [np.float32, np.int8])
@numpy_simt_allclose(rtol=1e-6, atol=1e-6)
def test_cumsum_dtype_argument_and_method(xp, rng, dtype):
    a = xp.asarray(data(rng, (4, 6), np.int32))
    return xp.cumsum(a, axis=1, dtype=dtype), a.cumsum(axis=0)


@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_cumsum_out_argument(xp, rng):
    a = xp.asarray(data(rng, (4, 6), np.float64))
    out = xp.zeros((4, 6))
    assert xp.cumsum(a, axis=0, out=out) is out
    return out


@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_cumsum_of_strided_views(xp, rng):
    h = data(rng, (6, 10), np.float64)
    a = xp.asarray(h)
    if xp is simt:
        from simt import _kernelgen
        t = _kernelgen.view(a, (10, 6), (8, 80))
    else:
        t = h.T
    return xp.cumsum(t), xp.cumsum(t, axis=1)


@pytest.mark.parametrize("axis", [2, -3, 1.5])
@numpy_simt_allclose()
def test_cumsum_bad_axis_raises_like_numpy(xp, axis):
    return xp.cumsum(xp.zeros((2, 3)), axis=axis)
