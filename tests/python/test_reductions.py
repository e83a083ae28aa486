"""simt.sum/prod/min/max/mean/var/std/argmin/argmax/all/any against NumPy: dtypes, shapes, axes
(int, negative, tuple, None), keepdims, empty inputs, NaNs, dtype= and out=, and every pass
layout of the generated kernels."""
import math

import numpy as np
import pytest

import simt
from pass_shapes import pass_shapes  # noqa: F401  (fixture)
from xp_compare import numpy_simt_allclose

OPS = ["sum", "prod", "min", "max", "mean", "var", "std", "argmin", "argmax", "all", "any"]
ALL_DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64, np.float16,
              np.float32, np.float64, np.complex64, np.complex128]
SHAPES_AXES = [
    ((), None), ((1,), None), ((7,), None), ((7,), 0), ((7,), -1), ((4, 5), None), ((4, 5), 0), ((4, 5), 1),
    ((4, 5), -2), ((4, 5), (0, 1)), ((4, 5), (-1,)), ((3, 4, 5), (0, 2)), ((3, 4, 5), (2, 0)), ((3, 4, 5), 1),
    ((3, 4, 5), (1, 2)), ((2, 3, 4, 5), (1, 3)), ((2, 1, 4, 1), (1, 2)), ((0,), None), ((3, 0), 0), ((3, 0), 1),
    ((0, 3), None), ((0, 3), 1), ((1000,), None), ((33, 65), 0), ((33, 65), 1),
]
LOOSE = {np.float16: 5e-3, np.float32: 2e-5, np.complex64: 2e-5}
LOOSE_ABS = {np.float16: 0.05, np.float32: 1e-4, np.complex64: 1e-4}


def data(rng, shape, dtype, op="sum"):
    """Random values that keep every op well-conditioned (products near 1, repeated ints)."""
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool) if op != "all" else rng.random(shape) < 0.95
    if dtype.kind in "iu":
        lo = 0 if dtype.kind == "u" else -3
        return rng.integers(lo, 4, shape).astype(dtype)
    if op == "prod":
        x = rng.uniform(0.7, 1.3, shape)
    else:
        x = rng.standard_normal(shape) * 3
    if dtype.kind == "c":
        x = x + 1j * (rng.uniform(0.7, 1.3, shape) if op == "prod" else rng.standard_normal(shape))
    return x.astype(dtype)


def call(xp, op, a, axis, keepdims, **kw):
    if op.startswith("arg") and isinstance(axis, tuple):
        axis = axis[0] if len(axis) == 1 else None
    return getattr(xp, op)(a, axis=axis, keepdims=keepdims, **kw)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("shape, axis", SHAPES_AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_reduction_float64_shapes_and_axes(xp, rng, op, shape, axis, keepdims):
    a = xp.asarray(data(rng, shape, np.float64, op))
    return call(xp, op, a, axis, keepdims)


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ALL_DTYPES)
@pytest.mark.parametrize("shape, axis", [((37,), None), ((6, 7), -1), ((0, 4), 0)])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_reduction_every_dtype(xp, rng, op, dtype, shape, axis):
    if op == "prod" and dtype == np.float16 and shape == (37,):
        pytest.skip("NumPy accumulates float16 products in float16 (rounding each step); simt uses float32")
    a = xp.asarray(data(rng, shape, dtype, op))
    return call(xp, op, a, axis, False)


# Whole arrays in every dtype; each other layout in two (every pair is a set of compiled kernels).
PASS_LAYOUT_CASES = [
    (np.int32, (1000,), None), (np.float64, (1000,), None), (np.complex64, (1000,), None),
    (np.float64, (23, 57), 0), (np.complex64, (23, 57), 0), (np.int32, (23, 57), 1), (np.float64, (23, 57), 1),
    (np.complex64, (5, 6, 7), (0, 2)), (np.float64, (5, 6, 7), (0, 2)), (np.int32, (4, 3, 50), (1, 2)),
    (np.float64, (4, 3, 50), (1, 2)),
]


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "mean", "var", "argmin", "argmax", "all", "any"])
@pytest.mark.parametrize("dtype, shape, axis", PASS_LAYOUT_CASES)
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_reduction_pass_layouts(xp, rng, pass_shapes, op, dtype, shape, axis):
    a = xp.asarray(data(rng, shape, dtype, op))
    return call(xp, op, a, axis, False)


@pytest.mark.parametrize("op", ["sum", "min", "max", "mean", "var", "argmin", "argmax"])
@pytest.mark.parametrize("dtype", [np.float16, np.float64, np.complex64])
@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_nan_propagates(xp, rng, pass_shapes, op, dtype, axis):
    h = data(rng, (9, 13), dtype, op)
    h[rng.integers(0, 9, 4), rng.integers(0, 13, 4)] = np.nan
    if np.dtype(dtype).kind == "c":
        h[2, 3] = complex(1.0, np.nan)
    return call(xp, op, xp.asarray(h), axis, False)


@pytest.mark.parametrize("op", ["argmin", "argmax", "min", "max"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_simt_allclose()
def test_ties_and_infinities_pick_the_first_index(xp, rng, pass_shapes, op, axis):
    h = rng.integers(-2, 3, (17, 11)).astype(np.float64)
    h[3, 4], h[10, 1] = np.inf, -np.inf
    return call(xp, op, xp.asarray(h), axis, False)


@pytest.mark.parametrize("op, dtype", [("sum", np.float32), ("sum", np.int8), ("sum", np.complex128),
                                       ("prod", np.float64), ("mean", np.float32), ("mean", np.float16),
                                       ("var", np.float32), ("std", np.float64), ("sum", np.bool_),
                                       ("mean", np.complex64)])
@pytest.mark.parametrize("axis", [None, 1])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10, rtol_by_dtype=LOOSE, atol_by_dtype=LOOSE_ABS)
def test_dtype_argument(xp, rng, op, dtype, axis):
    a = xp.asarray(data(rng, (6, 9), np.int16 if dtype != np.bool_ else np.float64, op))
    return getattr(xp, op)(a, axis=axis, dtype=dtype)


@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize("ddof", [0, 1, 5, 9, 12])
@pytest.mark.parametrize("axis", [None, 0])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_ddof(xp, rng, op, ddof, axis):
    a = xp.asarray(data(rng, (9, 4), np.float64))
    return getattr(xp, op)(a, axis=axis, ddof=ddof)


@pytest.mark.parametrize("op", ["sum", "max", "mean", "argmax", "any"])
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_out_argument_receives_the_result(xp, rng, op):
    a = xp.asarray(data(rng, (5, 8), np.float64))
    out = xp.zeros(8, dtype=np.int64 if op == "argmax" else bool if op == "any" else np.float64)
    r = getattr(xp, op)(a, axis=0, out=out)
    assert r is out
    return out


@numpy_simt_allclose(rtol=1e-6, atol=1e-6)
def test_out_argument_casts_to_its_dtype(xp, rng):
    a = xp.asarray(data(rng, (5, 8), np.float64))
    out = xp.zeros((1, 8), dtype=np.float32)
    xp.sum(a, axis=0, keepdims=True, out=out)
    return out


@pytest.mark.parametrize("op", OPS)
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_methods_match_functions(xp, rng, op):
    a = xp.asarray(data(rng, (4, 6), np.float64, op))
    return getattr(a, op)(axis=1), getattr(a, op)()


@pytest.mark.parametrize("op", OPS)
@numpy_simt_allclose(rtol=1e-12, atol=1e-10)
def test_non_contiguous_views(xp, rng, op):
    """Strided inputs: a transposed and a broadcast view (made with NumPy's stride tricks on the
    host side and the same strides on the device)."""
    h = data(rng, (6, 10), np.float64, op)
    a = xp.asarray(h)
    if xp is simt:
        from simt import _kernelgen
        t = _kernelgen.view(a, (10, 6), (8, 80))
        b = _kernelgen.view(a, (3, 6, 10), (0, 80, 8))
    else:
        t = h.T
        b = np.broadcast_to(h, (3, 6, 10))
    return call(xp, op, t, 0, False), call(xp, op, b, (0, 2) if not op.startswith("arg") else 2, False)


@pytest.mark.parametrize("axis", [2, -3, (0, 0), (1, -1), 1.0, "0"])
@pytest.mark.parametrize("op", ["sum", "argmax"])
@numpy_simt_allclose()
def test_bad_axes_raise_like_numpy(xp, op, axis):
    return getattr(xp, op)(xp.zeros((2, 3)), axis=axis)


@pytest.mark.parametrize("op", ["min", "max", "argmin", "argmax"])
@pytest.mark.parametrize("shape, axis", [((0,), None), ((0, 3), 0), ((0, 0), 1)])
@numpy_simt_allclose()
def test_empty_reductions_without_identity_raise(xp, op, shape, axis):
    return getattr(xp, op)(xp.zeros(shape), axis=axis)


def test_empty_min_message_matches_numpy():
    with pytest.raises(ValueError, match="zero-size array to reduction operation minimum which has no identity"):
        simt.min(simt.zeros(0))
    with pytest.raises(ValueError, match="attempt to get argmax of an empty sequence"):
        simt.argmax(simt.zeros((0, 2)))


def test_full_reduction_returns_a_device_scalar(rng):
    h = rng.standard_normal(100)
    s = simt.sum(simt.asarray(h))
    assert isinstance(s, simt.ndarray) and s.shape == () and s.dtype == np.float64
    assert np.isclose(s.get(), h.sum())


def test_host_arrays_are_refused_with_guidance():
    with pytest.raises(TypeError, match="NumPy array.*simt.asarray"):
        simt.sum(np.ones(3))
    with pytest.raises(TypeError, match="needs a simt array"):
        simt.mean([1.0, 2.0])


def test_large_sums_are_accurate(rng):
    h = rng.standard_normal(3_000_017)
    d = simt.asarray(h)
    assert np.isclose(simt.sum(d).get(), h.sum(), rtol=1e-10)
    assert np.isclose(simt.var(d).get(), h.var(), rtol=1e-10)
    assert simt.argmax(d).get() == h.argmax()
    h32 = h.astype(np.float32)
    # float32 accumulation: measured errors stay near 1e-8 of the sum of magnitudes (0.027 here at
    # worst over seeds); 5e-8 of it still flags any lost or doubled block of elements.
    exact = math.fsum(h32.astype(np.float64))
    assert abs(float(simt.sum(simt.asarray(h32)).get()) - exact) <= 5e-8 * float(np.abs(h32).sum())


@pytest.mark.parametrize("dtype", [np.float32, np.complex64])
def test_float32_sums_of_same_signed_values_stay_accurate(rng, dtype):
    # Positive terms do not cancel: a long float32 running sum drifts one way (10**7 times 0.1
    # once summed to 997297.6). NumPy's pairwise sums stay within ~1e-7 of the exact value.
    h = rng.uniform(0.0, 1.0, 10_000_019)
    if dtype == np.complex64:
        h = h + 1j * rng.uniform(0.0, 1.0, h.size)
    h = h.astype(dtype)
    d = simt.asarray(h)
    exact = h.astype(np.complex128).sum() if dtype == np.complex64 else math.fsum(h.astype(np.float64))
    assert abs(complex(simt.sum(d).get()) - exact) <= 1e-6 * abs(exact)
    assert abs(complex(d.mean().get()) - exact / h.size) <= 1e-6 * abs(exact / h.size)
    rows = h[:10_000_000].reshape(40, 250_000)
    got = simt.asarray(rows).sum(axis=1).get()
    want = rows.astype(np.complex128).sum(axis=1)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    cols = simt.asarray(rows.T.copy()).sum(axis=0).get()
    np.testing.assert_allclose(cols, want, rtol=1e-6)


def test_float32_variance_of_offset_data_is_accurate(rng):
    h = (1000.0 + rng.standard_normal(4_000_037)).astype(np.float32)
    d = simt.asarray(h)
    want = h.astype(np.float64).var()
    assert abs(float(d.var().get()) - want) <= 1e-5 * want
    assert abs(float(d.std().get()) - math.sqrt(want)) <= 1e-5 * math.sqrt(want)
