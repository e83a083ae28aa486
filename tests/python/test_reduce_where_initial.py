"""initial= and where= on simt.sum/prod/min/max/mean/all/any against NumPy: masks of the array's
shape and broadcast ones, every axis form, keepdims, empty selections and empty arrays, dtypes,
out=, NumPy's error for min/max with where but no initial, and np.* dispatch."""
import numpy as np
import pytest

import simt
from xp_compare import numpy_simt_allclose

SHAPES_AXES = [((7,), None), ((7,), 0), ((4, 5), None), ((4, 5), 0), ((4, 5), 1), ((4, 5), (0, 1)),
               ((3, 4, 5), (0, 2)), ((3, 4, 5), -1), ((2, 3, 4), 1)]


def _data(rng, shape, dtype):
    if np.dtype(dtype).kind in "iu":
        return rng.integers(-5 if np.dtype(dtype).kind == "i" else 0, 9, shape).astype(dtype)
    return (rng.standard_normal(shape) * 2).astype(dtype)


def _mask(rng, shape, broadcast):
    if broadcast and len(shape) > 1:  # one row of the trailing axis, broadcast over the others
        return rng.random(shape[-1]) < 0.6
    return rng.random(shape) < 0.6


@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@pytest.mark.parametrize("op", ["sum", "prod", "min", "max"])
@pytest.mark.parametrize("broadcast", [False, True])
@numpy_simt_allclose(rtol=1e-12, atol=1e-12)
def test_where_with_initial(xp, rng, op, shape, axis, broadcast):
    a = xp.asarray(_data(rng, shape, np.float64))
    m = _mask(rng, shape, broadcast)
    initial = {"sum": 1.5, "prod": 0.5, "min": 0.25, "max": -0.25}[op]
    return getattr(xp, op)(a, axis=axis, where=xp.asarray(m), initial=initial)


@pytest.mark.parametrize("shape,axis", SHAPES_AXES)
@pytest.mark.parametrize("op", ["sum", "prod", "all", "any", "mean"])
@pytest.mark.parametrize("keepdims", [False, True])
@numpy_simt_allclose(rtol=1e-12, atol=1e-12)
def test_where_alone(xp, rng, op, shape, axis, keepdims):
    a = xp.asarray(_data(rng, shape, np.float64))
    if op in ("all", "any"):
        a = a > 0
    m = xp.asarray(_mask(rng, shape, False))
    return getattr(xp, op)(a, axis=axis, where=m, keepdims=keepdims)


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.int64, np.float32, np.float64, np.bool_])
@pytest.mark.parametrize("op", ["sum", "prod", "min", "max"])
@numpy_simt_allclose(rtol=1e-6, atol=1e-5)  # NumPy adds `initial` first, simt last: float32 rounds differently
def test_initial_over_dtypes(xp, rng, op, dtype):
    a = xp.asarray(_data(rng, (6, 5), dtype) if dtype != np.bool_ else rng.random((6, 5)) < 0.5)
    initial = {"sum": 3, "prod": 2, "min": 1, "max": 4}[op]
    return getattr(xp, op)(a, axis=1, initial=initial), getattr(xp, op)(a, initial=initial)


@numpy_simt_allclose()
def test_empty_arrays_and_empty_selections_with_initial(xp):
    empty = xp.zeros((0, 3))
    a = xp.asarray(np.arange(12.0).reshape(3, 4))
    nothing = xp.asarray(np.zeros((3, 4), bool))
    return (xp.min(empty, axis=0, initial=7.0), xp.max(empty, initial=-7.0), xp.sum(empty, axis=0, initial=2.0),
            xp.min(a, where=nothing, initial=100.0, axis=1), xp.sum(a, where=nothing, axis=0))


@numpy_simt_allclose()
def test_mean_of_an_empty_selection_is_nan(xp):
    a = xp.asarray(np.arange(12.0).reshape(3, 4))
    m = np.ones((3, 4), bool)
    m[1] = False
    return xp.mean(a, axis=1, where=xp.asarray(m))


@numpy_simt_allclose(rtol=1e-12)
def test_integer_mean_with_where_and_out(xp, rng):
    a = xp.asarray(rng.integers(-9, 9, (5, 6)).astype(np.int32))
    m = xp.asarray(rng.random((5, 6)) < 0.7)
    out = xp.zeros(6)
    xp.mean(a, axis=0, where=m, out=out)
    s = xp.zeros(5, dtype=np.int64)
    xp.sum(a, axis=1, where=m, initial=10, out=s)
    return out, s


@pytest.mark.parametrize("op", ["min", "max"])
def test_min_max_with_where_need_initial(op):
    a = np.arange(6.0)
    m = a > 2
    with pytest.raises(ValueError) as expected:
        getattr(np, op)(a, where=m)
    with pytest.raises(ValueError) as got:
        getattr(simt, op)(simt.asarray(a), where=simt.asarray(m))
    assert str(got.value) == str(expected.value)


def test_masks_that_do_not_fit_are_errors():
    a = simt.zeros((3, 4))
    with pytest.raises(ValueError, match="does not broadcast"):
        simt.sum(a, where=np.ones(3, bool))
    with pytest.raises(TypeError, match="boolean"):
        simt.sum(a, where=np.ones((3, 4)))


def test_numpy_functions_reach_the_simt_versions(rng):
    a = rng.standard_normal((4, 6))
    m = rng.random((4, 6)) < 0.5
    d = simt.asarray(a)
    got = np.sum(d, axis=1, where=simt.asarray(m), initial=1.0)
    assert isinstance(got, simt.ndarray)
    np.testing.assert_allclose(got.get(), np.sum(a, axis=1, where=m, initial=1.0), rtol=1e-12)
    np.testing.assert_allclose(simt.asnumpy(np.max(d, initial=10.0)), np.max(a, initial=10.0))
