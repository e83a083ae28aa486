"""ufunc.reduce / accumulate / outer / at on simt's ufuncs (and through NumPy's __array_ufunc__),
compared with NumPy on fresh random data."""
import numpy as np
import pytest

import simt


def host(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.7
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -5, 6, shape).astype(dtype)
    return (rng.uniform(0.5, 1.5, shape) * rng.choice([-1, 1], shape)).astype(dtype)


@pytest.mark.parametrize("name", ["add", "multiply", "maximum", "minimum", "logical_and", "logical_or"])
@pytest.mark.parametrize("axis", [0, 1, None, (0, 2), -1])
def test_reduce_matches_numpy(rng, name, axis):
    h = host(rng, (4, 5, 3), np.float64)
    got = getattr(simt, name).reduce(simt.asarray(h), axis=axis)
    want = getattr(np, name).reduce(h, axis=axis)
    np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-13)  # (sums near 0: other summation orders)
    assert got.dtype == want.dtype


def test_reduce_options(rng):
    h = host(rng, (6, 7), np.int8)
    d = simt.asarray(h)
    for kwargs in [{}, {"dtype": np.int8}, {"keepdims": True}, {"initial": 100}, {"axis": 1, "dtype": np.float32}]:
        want = np.add.reduce(h, **kwargs)
        got = simt.add.reduce(d, **kwargs)
        assert got.dtype == want.dtype and got.shape == want.shape, kwargs
        np.testing.assert_array_equal(got.get(), want)
    np.testing.assert_array_equal(simt.maximum.reduce(d, axis=None, initial=50).get(), np.maximum.reduce(h, None, initial=50))
    np.testing.assert_array_equal(np.add.reduce(d).get(), np.add.reduce(h))  # NumPy's function on a simt array
    with pytest.raises(ValueError):
        simt.maximum.reduce(simt.zeros((0, 3)))
    with pytest.raises(TypeError, match="simt.subtract.reduce is not supported"):
        simt.subtract.reduce(d)


def test_reduce_keeps_nans(rng):
    h = host(rng, (5, 4), np.float32)
    h[2, 1] = np.nan
    np.testing.assert_array_equal(simt.maximum.reduce(simt.asarray(h)).get(), np.maximum.reduce(h))


@pytest.mark.parametrize("name", ["add", "multiply"])
@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32, np.float64, np.bool_, np.complex64])
def test_accumulate_matches_numpy(rng, name, dtype):
    h = host(rng, (5, 40), dtype)
    for axis in (0, 1):
        want = getattr(np, name).accumulate(h, axis=axis)
        got = getattr(simt, name).accumulate(simt.asarray(h), axis=axis)
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got.get(), want, rtol=1e-5, atol=1e-4)  # (running sums pass near 0)
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    want = np.add.accumulate(h, dtype=wide)
    np.testing.assert_allclose(simt.add.accumulate(simt.asarray(h), dtype=wide).get(), want, rtol=1e-12)


def test_complex_reduced_in_a_real_dtype_warns_and_drops_the_imaginary_part(rng):
    h = (rng.standard_normal(20) + 1j * rng.standard_normal(20)).astype(np.complex64)
    d = simt.asarray(h)
    for f in ("sum", "cumsum", "mean", "prod"):
        with pytest.warns(np.exceptions.ComplexWarning):
            want = getattr(np, f)(h, dtype=np.float64)
        with pytest.warns(np.exceptions.ComplexWarning, match="discards the imaginary part"):
            got = getattr(simt, f)(d, dtype=np.float64)
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)


def test_accumulate_errors_and_numpy_dispatch(rng):
    h = host(rng, 30, np.int16)
    np.testing.assert_array_equal(np.add.accumulate(simt.asarray(h)).get(), np.add.accumulate(h))
    with pytest.raises(TypeError, match="simt.maximum.accumulate is not supported"):
        simt.maximum.accumulate(simt.asarray(h))
    with pytest.raises(TypeError, match="scalar"):
        simt.add.accumulate(simt.asarray(np.float64(1)))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "greater", "arctan2"])
def test_outer_matches_numpy(rng, name):
    a, b = host(rng, (3, 2), np.float64), host(rng, 4, np.float64)
    want = getattr(np, name).outer(a, b)
    got = getattr(simt, name).outer(simt.asarray(a), simt.asarray(b))
    assert got.shape == want.shape == (3, 2, 4)
    np.testing.assert_allclose(got.get(), want, rtol=1e-12)
    np.testing.assert_allclose(np.multiply.outer(simt.asarray(b), simt.asarray(a)).get(), np.multiply.outer(b, a))
    with pytest.raises(ValueError, match="two arguments"):
        simt.sqrt.outer(simt.asarray(a), simt.asarray(b))


@pytest.mark.parametrize("name", ["add", "subtract", "multiply", "maximum", "minimum"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.int64, np.uint32, np.int8, np.complex128])
def test_at_applies_once_per_repeated_index(rng, name, dtype):
    if np.dtype(dtype).kind == "c" and name in ("maximum", "minimum"):
        pytest.skip("complex maximum/minimum at(): NumPy orders complex numbers lexicographically, not covered here")
    a = host(rng, 50, dtype)
    idx = rng.integers(0, 50, 400)  # many repeats
    b = host(rng, 400, dtype)
    d = simt.asarray(a)
    getattr(simt, name).at(d, simt.asarray(idx), simt.asarray(b))
    getattr(np, name).at(a, idx, b)
    if np.dtype(dtype).kind in "fc":  # atomics add in another order than NumPy: results near 0 differ by rounding
        np.testing.assert_allclose(d.get(), a, rtol=1e-4 if dtype == np.float32 else 1e-10,
                                   atol=1e-4 if dtype == np.float32 else 1e-12)
    else:
        np.testing.assert_array_equal(d.get(), a)


def test_at_index_forms_and_scalars(rng):
    a = host(rng, (6, 5), np.float64)
    d = simt.asarray(a)
    cases = [((simt.asarray([0, 2, 2]), simt.asarray([1, 1, 4])), ([0, 2, 2], [1, 1, 4]), 1.5),
             (slice(1, 4), slice(1, 4), simt.asarray(host(rng, 5, np.float64))),
             (simt.asarray(a > 0), a > 0, -2.0),
             (3, 3, 7.0)]
    for d_idx, h_idx, b in cases:
        simt.add.at(d, d_idx, b)
        np.add.at(a, h_idx, b.get() if isinstance(b, simt.ndarray) else b)
        np.testing.assert_allclose(d.get(), a, rtol=1e-12)
    np.add.at(d, simt.asarray([0, 0]), 1.0)  # through NumPy's function
    np.add.at(a, [0, 0], 1.0)
    np.testing.assert_allclose(d.get(), a, rtol=1e-12)


def test_at_on_a_strided_view_and_bitwise(rng):
    a = host(rng, (8, 6), np.int64)
    d = simt.asarray(a)
    view, hview = d[::2, 1::2], a[::2, 1::2]
    idx = rng.integers(0, 4, 12)
    simt.bitwise_or.at(view, simt.asarray(idx), 8)
    np.bitwise_or.at(hview, idx, 8)
    np.testing.assert_array_equal(d.get(), a)


def test_at_errors(rng):
    d = simt.asarray(host(rng, 10, np.int32))
    with pytest.raises(TypeError, match="same_kind"):
        simt.add.at(d, simt.asarray([1, 2]), 0.5)
    with pytest.raises(TypeError, match="simt.arctan2.at"):
        simt.arctan2.at(d, simt.asarray([1]), 1)
    with pytest.raises(TypeError, match="must be a simt array"):
        simt.add.at(np.zeros(3), [0], 1)


def test_numpy_out_tuples_and_weak_scalars_in_at(rng):
    h = host(rng, (4, 6), np.float64)
    d = simt.asarray(h)
    o = simt.empty(6)
    assert np.add.reduce(d, out=o) is o
    np.testing.assert_allclose(o.get(), np.add.reduce(h), rtol=1e-12)
    acc = simt.empty((4, 6))
    np.multiply.accumulate(d, axis=1, out=acc)
    np.testing.assert_allclose(acc.get(), np.multiply.accumulate(h, axis=1), rtol=1e-12)
    for dtype in (np.uint8, np.uint32, np.int16):
        a = np.zeros(4, dtype)
        s = simt.asarray(a)
        simt.add.at(s, simt.asarray([0, 0, 1]), 1)  # a Python int is weak, as in NumPy 2
        np.add.at(a, [0, 0, 1], 1)
        np.testing.assert_array_equal(s.get(), a)
        with pytest.raises(TypeError, match="same_kind"):
            simt.add.at(s, simt.asarray([0]), 1.5)


@pytest.mark.parametrize("f", ["var", "std"])
def test_complex_variance_in_a_real_dtype_keeps_numpys_value(rng, f):
    h = (rng.standard_normal((6, 9)) + 1j * rng.standard_normal((6, 9))).astype(np.complex64)
    d = simt.asarray(h)
    for kwargs in ({}, {"axis": 0}, {"axis": 1, "ddof": 1}, {"keepdims": True}):
        with pytest.warns(np.exceptions.ComplexWarning):
            want = getattr(np, f)(h, dtype=np.float64, **kwargs)
        with pytest.warns(np.exceptions.ComplexWarning):
            got = getattr(simt, f)(d, dtype=np.float64, **kwargs)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_allclose(got.get(), want, rtol=1e-6)
