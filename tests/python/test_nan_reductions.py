"""simt.nansum, nanprod, nanmax, nanmin, nanmean, nanvar, nanstd, nanargmax, nanargmin, ptp, average and trace
against NumPy (python/simt/_nan_reductions.py, _statistics.py, _matrix_shapes.py)."""
import numpy as np
import pytest

import simt
from xp_testing import assert_both_raise, make, numpy_simt_allclose, parametrize_dtypes, random_host

# NumPy warns about all-NaN and empty slices; simt, as CuPy, does not.
pytestmark = pytest.mark.filterwarnings("ignore:(All-NaN|Mean of empty|Degrees of freedom):RuntimeWarning")

DTYPES = [np.float32, np.float64, np.int32, np.bool_]
NAN_FUNCS = ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanargmax", "nanargmin"]


def with_nans(xp, rng, shape, dtype, fraction=0.3, view=False, all_nan_slices=True):
    """Random data with about `fraction` of it NaN (float dtypes); view=True: a strided view.
    all_nan_slices=False keeps the first and last element along every axis a number, so no
    slice along any axis is all NaN."""
    full = tuple(2 * n for n in shape) if view else shape
    floats = np.dtype(dtype).kind == "f"
    h = random_host(rng, full, dtype, low=-2.0, high=2.0) if floats else random_host(rng, full, dtype)
    if floats:
        nan = rng.random(full) < fraction
        if not all_nan_slices:
            nan &= len(full) > 0
            for ax, n in enumerate(full):
                index = np.arange(n).reshape((-1,) + (1,) * (len(full) - ax - 1))
                nan &= (index != 0) & (index != n - 1)
        h[nan] = np.nan
    a = xp.asarray(h)
    return a[tuple(slice(None, None, -2) for _ in shape)] if view else a


@pytest.mark.parametrize("fname", NAN_FUNCS)
@parametrize_dtypes("dtype", DTYPES)
@pytest.mark.parametrize("shape,axis", [((), None), ((7,), None), ((7,), 0), ((3, 4, 5), None), ((3, 4, 5), 1),
                                        ((3, 4, 5), -1), ((4, 0, 3), 0)], ids=str)
@pytest.mark.parametrize("view", [False, True])
# (an empty max/argmax: ValueError from both; atol: float32 sums of a few values in [-2, 2] may cancel
# to near zero, where the summation order alone moves the result by a few 1e-7)
@numpy_simt_allclose(accept_error=(ValueError,), atol=1e-5)
def test_nan_reductions(xp, rng, fname, dtype, shape, axis, view):
    # (floats in [-2, 2]: products stay in range; NumPy's nanargmax raises for all-NaN slices)
    a = with_nans(xp, rng, shape, dtype, view=view, all_nan_slices="arg" not in fname)
    return getattr(xp, fname)(a, axis=axis), getattr(xp, fname)(a, axis=axis, keepdims=True)


@pytest.mark.parametrize("fname", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean"])
@pytest.mark.parametrize("axis", [None, (0, 2), 1])
@numpy_simt_allclose()
def test_nan_reductions_tuple_axes_and_all_nan(xp, rng, fname, axis):
    a = with_nans(xp, rng, (3, 4, 5), np.float64)
    a[:, 1] = np.nan  # all-NaN slices: sum 0, prod 1, max/min/mean NaN
    return getattr(xp, fname)(a, axis=axis)


@pytest.mark.parametrize("fname", ["nanmax", "nanmin"])
@numpy_simt_allclose()
def test_nanmax_nanmin_infinities_and_initial(xp, rng, fname):
    a = with_nans(xp, rng, (4, 6), np.float32)
    a[0] = np.nan
    a[1, :3] = -np.inf
    a[1, 3:] = np.nan
    a[2, 0] = np.inf
    f = getattr(xp, fname)
    mask = xp.asarray(rng.random((4, 6)) < 0.5)
    bound = -10.0 if fname == "nanmax" else 10.0
    return f(a, axis=1), f(a, axis=1, initial=bound), f(a, axis=0, where=mask, initial=0.5)


@pytest.mark.parametrize("fname", ["nansum", "nanprod", "nanmean"])
@numpy_simt_allclose(rtol=1e-5, atol=1e-5)  # float32 sums that may cancel
def test_nan_sums_dtype_out_where(xp, rng, fname):
    a = with_nans(xp, rng, (5, 6), np.float32)
    out = xp.zeros((6,), np.float64)
    mask = xp.asarray(rng.random((5, 6)) < 0.7)
    f = getattr(xp, fname)
    return f(a, axis=0, dtype=np.float64), f(a, axis=0, out=out), out, f(a, axis=1, where=mask)


@pytest.mark.parametrize("fname", ["nansum", "nanmax", "nanargmax", "nanmean"])
@numpy_simt_allclose(rtol=1e-5, atol=1e-5)
def test_nan_reductions_complex(xp, rng, fname):
    h = random_host(rng, (4, 5), np.complex64)
    h.real[:, 1:][rng.random((4, 4)) < 0.3] = np.nan  # (column 0 a number: no all-NaN row)
    return getattr(xp, fname)(xp.asarray(h), axis=1)


@pytest.mark.parametrize("fname", ["nanvar", "nanstd"])
@parametrize_dtypes("dtype", [np.float32, np.float64, np.complex64, np.int32])
@pytest.mark.parametrize("axis", [None, 0, (0, 2), -1], ids=str)
@numpy_simt_allclose(rtol=1e-4, atol=1e-5)  # (float32: a two-pass variance in another order)
def test_nanvar_nanstd_ddof(xp, rng, fname, dtype, axis):
    # Slices with fewer than ddof + 1 numbers (an all-NaN column and ddof=4 over short axes) give NaN.
    h = random_host(rng, (3, 4, 5), dtype)
    if np.dtype(dtype).kind in "fc":
        h[rng.random(h.shape) < 0.4] = np.nan
        h[:, 1, :] = np.nan
    a = xp.asarray(h)[:, ::-1]
    f = getattr(xp, fname)
    return f(a, axis=axis), f(a, axis=axis, ddof=1, keepdims=True), f(a, axis=axis, ddof=4)


@numpy_simt_allclose(rtol=1e-6)
def test_nanvar_dtype_and_out(xp, rng):
    a = with_nans(xp, rng, (5, 6), np.float32)
    out = xp.zeros((6,), np.float64)
    return xp.nanvar(a, axis=0, dtype=np.float64), xp.nanstd(a, axis=0, out=out), out


@pytest.mark.parametrize("fname", ["nanargmax", "nanargmin"])
def test_nanargmax_all_nan_slice_is_minus_one_as_cupy(fname, rng):
    h = with_nans(np, rng, (3, 4), np.float64, all_nan_slices=False)
    h[1] = np.nan
    d = getattr(simt, fname)(simt.asarray(h), axis=1)
    assert d.dtype == np.int64
    expected = getattr(np, fname)(h[[0, 2]], axis=1)
    np.testing.assert_array_equal(d.get(), [expected[0], -1, expected[1]])
    with pytest.raises(ValueError, match="All-NaN slice encountered"):  # NumPy raises instead
        getattr(np, fname)(h, axis=1)


def test_nan_reductions_dispatch_from_numpy(rng):
    h = with_nans(np, rng, (3, 5), np.float64, all_nan_slices=False)
    d = simt.asarray(h)
    for fname in NAN_FUNCS:
        r = getattr(np, fname)(d, axis=1)
        assert isinstance(r, simt.ndarray)
        np.testing.assert_allclose(r.get(), getattr(np, fname)(h, axis=1), equal_nan=True)


def test_nan_reduction_errors():
    a = np.array([], dtype=np.float64)
    for fname in ("nanmax", "nanmin", "nanargmax", "nanargmin"):
        for xp in (np, simt):
            with pytest.raises(ValueError):
                getattr(xp, fname)(xp.asarray(a))
    for fname in ("nanmean", "nanvar"):
        assert_both_raise(TypeError, "If a is inexact, then dtype must be inexact",
                          lambda xp: getattr(xp, fname)(xp.asarray(np.ones(3)), dtype=np.int32))
    assert_both_raise(np.exceptions.AxisError, "axis 2 is out of bounds",
                      lambda xp: xp.nansum(xp.asarray(np.ones((2, 2))), axis=2))


# ---- ptp --------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.float32, np.float64, np.int32, np.uint8])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 2)], ids=str)
@numpy_simt_allclose()
def test_ptp(xp, rng, dtype, axis):
    a = make(xp, rng, (3, 4, 5), dtype)[::-1, ::2]
    return xp.ptp(a, axis=axis), xp.ptp(a, axis=axis, keepdims=True)


def test_ptp_method_and_errors(rng):
    h = random_host(rng, (4, 5), np.float32)
    np.testing.assert_allclose(simt.asarray(h).ptp(axis=1).get(), np.ptp(h, axis=1))
    assert_both_raise(TypeError, "boolean subtract", lambda xp: xp.ptp(xp.asarray(np.array([True, False]))))
    assert_both_raise(ValueError, "zero-size array", lambda xp: xp.ptp(xp.asarray(np.ones((0, 3)))))


# ---- average ----------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.float32, np.float64, np.int32, np.bool_])
@pytest.mark.parametrize("axis", [None, 0, 2, (0, 2), (2, 0)], ids=str)
@pytest.mark.parametrize("weights", ["none", "full", "axis"])
@pytest.mark.parametrize("returned", [False, True])
@numpy_simt_allclose(rtol=1e-5, atol=1e-5)  # float32 sums of terms near 1 that cancel: order matters
def test_average(xp, rng, dtype, axis, weights, returned):
    a = make(xp, rng, (3, 4, 5), dtype)
    if weights == "none":
        w = None
    elif weights == "full" or axis is None:
        w = make(xp, rng, (3, 4, 5), np.float32, low=0.5, high=2.0)
    else:
        axes = (axis,) if isinstance(axis, int) else axis
        w = make(xp, rng, tuple(a.shape[ax] for ax in axes), np.int16, low=1, high=5)
    return xp.average(a, axis=axis, weights=w, returned=returned)


@numpy_simt_allclose()
def test_average_keepdims_and_views(xp, rng):
    a = make(xp, rng, (6, 4), np.float64)[::2, ::-1]
    w = make(xp, rng, (4,), np.float64, low=1, high=2)
    return xp.average(a, axis=1, weights=w, keepdims=True), xp.average(a, keepdims=True, returned=True)


def test_average_errors():
    a = np.arange(6.0).reshape(2, 3)
    assert_both_raise(TypeError, "Axis must be specified when shapes of a and weights differ.",
                      lambda xp: xp.average(xp.asarray(a), weights=xp.asarray(np.ones(3))))
    assert_both_raise(ValueError, "Shape of weights must be consistent with shape of a along specified axis.",
                      lambda xp: xp.average(xp.asarray(a), axis=1, weights=xp.asarray(np.ones(2))))
    assert_both_raise(ZeroDivisionError, "Weights sum to zero, can't be normalized",
                      lambda xp: xp.average(xp.asarray(a), axis=0, weights=xp.asarray(np.zeros(2))))


# ---- trace ------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.float32, np.float64, np.int8, np.int32, np.bool_])
@pytest.mark.parametrize("offset", [0, 1, -2, 9])
# float32 results near zero: the cpu backend sums float32 in float64 (python/simt/_reduce_passes.py,
# wide_sums), NumPy in float32, so a cancelling sum of a few O(1) terms differs by float32 rounding.
@numpy_simt_allclose(atol=1e-6)  # (every result here is a sum of a few O(1) values)
def test_trace(xp, rng, dtype, offset):
    a = make(xp, rng, (4, 6), dtype)
    b = make(xp, rng, (3, 4, 5), dtype)[:, ::-1]
    return xp.trace(a, offset), a.trace(offset), xp.trace(b, offset, axis1=2, axis2=0), xp.trace(a, dtype=np.float32)


def test_trace_errors():
    assert_both_raise(ValueError, "diag requires an array of at least two dimensions",
                      lambda xp: xp.trace(xp.asarray(np.ones(3))))
    assert_both_raise(ValueError, "axis1 and axis2 cannot be the same",
                      lambda xp: xp.trace(xp.asarray(np.ones((2, 2))), axis1=1, axis2=1))
