"""Creation from device data, as CuPy allows it, checked against NumPy on the same values:
simt.array / asarray of (nested) sequences of device arrays, full / full_like with an array
fill value, random.uniform / normal with array parameters, and array()'s copy, order and
ndmin arguments."""
import numpy as np
import pytest

import simt


def _dev(h):
    return simt.asarray(h)


# ---- simt.array / asarray of sequences of device arrays -----------------------------------------------
@pytest.mark.parametrize("make", [simt.array, simt.asarray])
def test_list_of_device_arrays(rng, make):
    hs = [rng.standard_normal((2, 3)) for _ in range(4)]
    got = make([_dev(h) for h in hs])
    assert isinstance(got, simt.ndarray) and got.shape == (4, 2, 3) and got.dtype == np.float64
    np.testing.assert_array_equal(got.get(), np.array(hs))


def test_nested_lists_and_tuples_of_device_arrays(rng):
    hs = rng.integers(-1000, 1000, (2, 3, 5)).astype(np.int32)
    nested = [tuple(_dev(hs[i, j]) for j in range(3)) for i in range(2)]
    got = simt.array(nested)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got.get(), np.array([tuple(hs[i, j] for j in range(3)) for i in range(2)]))


def test_zero_dim_device_arrays_and_views(rng):
    h = rng.standard_normal(6)
    d = _dev(h)
    got = simt.array([d[0], d[3], d[5]])  # 0-d items
    np.testing.assert_array_equal(got.get(), np.array([h[0], h[3], h[5]]))
    got = simt.array([d[::2], d[1::2]])  # strided views
    np.testing.assert_array_equal(got.get(), np.array([h[::2], h[1::2]]))
    z = simt.array([_dev(np.array(v)) for v in h[:3]])
    np.testing.assert_array_equal(z.get(), h[:3])


@pytest.mark.parametrize("dtypes", [(np.int8, np.float32), (np.int32, np.float32), (np.uint8, np.int8),
                                    (np.bool_, np.int16), (np.float32, np.complex64), (np.uint64, np.int64)])
def test_dtype_promotion_matches_numpy(rng, dtypes):
    hs = [(rng.integers(0, 100, 5)).astype(dt) for dt in dtypes]
    got = simt.array([_dev(h) for h in hs])
    expected = np.array(hs)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.bool_, np.uint8])
def test_dtype_argument_casts_like_numpy(rng, dtype):
    hs = [rng.uniform(0, 120, 7) for _ in range(3)]  # (in range: out-of-range float-to-int casts saturate in simt)
    hs[0][0] = 0.0  # (False for bool)
    got = simt.array([_dev(h) for h in hs], dtype=dtype)
    expected = np.array(hs).astype(dtype)  # (np.array(list, dtype=int) refuses floats; the cast is unsafe)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.get(), expected)


def test_order_and_ndmin_for_device_sequences(rng):
    hs = [rng.standard_normal((3, 4)) for _ in range(2)]
    got = simt.array([_dev(h) for h in hs], order="F")
    assert got.flags.f_contiguous and not got.flags.c_contiguous
    np.testing.assert_array_equal(got.get(), np.array(hs))
    got = simt.array([_dev(hs[0][0]), _dev(hs[1][0])], ndmin=4)
    expected = np.array([hs[0][0], hs[1][0]], ndmin=4)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.get(), expected)


def test_mixing_device_arrays_with_host_data_is_a_type_error(rng):
    d = _dev(rng.standard_normal(3))
    for mixed in ([d, 1.0], [d[0], 2], [d, rng.standard_normal(3)], [[d], [[1.0, 2.0, 3.0]]]):
        with pytest.raises(TypeError, match="mixes device arrays with host data"):
            simt.array(mixed)


def test_ragged_device_sequences_are_value_errors(rng):
    a, b = _dev(rng.standard_normal(3)), _dev(rng.standard_normal(4))
    with pytest.raises(ValueError, match="inhomogeneous"):
        simt.array([a, b])
    with pytest.raises(ValueError, match="inhomogeneous"):
        simt.array([[a, a], [a]])
    with pytest.raises(ValueError):  # host-only ragged data: NumPy's own error, as before
        simt.array([[1, 2], [3]])


def test_host_sequences_still_go_through_numpy(rng):
    h = rng.standard_normal((3, 2))
    np.testing.assert_array_equal(simt.array([h[0], h[1], h[2]]).get(), h)
    np.testing.assert_array_equal(simt.array(h.tolist()).get(), h)


# ---- full / full_like with array fill values -----------------------------------------------------------
def test_full_with_zero_dim_device_fill(rng):
    v = np.array(rng.standard_normal(), dtype=np.float32)
    got = simt.full((3, 4), _dev(v))
    expected = np.full((3, 4), v)
    assert got.dtype == expected.dtype == np.float32
    np.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("dtype", [None, np.int32, np.float64, np.uint8])
def test_full_broadcasts_a_device_fill(rng, dtype):
    row = rng.uniform(0, 120, 5)  # (in range of every dtype: out-of-range float-to-int casts saturate in simt)
    got = simt.full((4, 5), _dev(row), dtype=dtype)
    expected = np.full((4, 5), row, dtype=dtype) if dtype is None else np.full((4, 5), row).astype(dtype)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.get(), expected)


def test_full_with_host_array_fill_broadcasts_like_numpy(rng):
    col = rng.integers(-9, 9, (3, 1))
    np.testing.assert_array_equal(simt.full((3, 4), col).get(), np.full((3, 4), col))
    np.testing.assert_array_equal(simt.full((2, 3), [1.5, -2.0, 7.25]).get(), np.full((2, 3), [1.5, -2.0, 7.25]))


def test_full_like_with_device_fill(rng):
    h = rng.integers(-100, 100, (3, 4)).astype(np.int16)
    fill = np.array(rng.integers(-1000, 1000), dtype=np.int64)
    got = simt.full_like(_dev(h), _dev(fill))
    expected = np.full_like(h, fill)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got.get(), expected)
    row = rng.standard_normal(4)
    np.testing.assert_array_equal(simt.full_like(_dev(h), _dev(row), dtype=np.float64).get(),
                                  np.full_like(h, row, dtype=np.float64))


def test_full_with_unbroadcastable_fill_is_a_value_error(rng):
    with pytest.raises(ValueError):
        simt.full((3, 4), _dev(rng.standard_normal(3)))


# ---- random.uniform / normal with array parameters ---------------------------------------------------------
def _close(got, expected, dtype):
    # (a GPU may fuse the multiply-add: a last-bit difference)
    np.testing.assert_allclose(got, expected, rtol=4 * np.finfo(dtype).eps, atol=4 * np.finfo(dtype).eps)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_uniform_array_params_scale_the_standard_draws(rng, dtype):
    low = rng.standard_normal(5)
    high = low + rng.uniform(0.5, 4, 5)
    seed = int(rng.integers(2**32))
    simt.random.seed(seed)
    u = simt.random.uniform(0, 1, (3, 5), dtype=dtype).get()
    simt.random.seed(seed)
    got = simt.random.uniform(_dev(low), _dev(high), (3, 5), dtype=dtype).get()
    assert got.dtype == dtype and got.shape == (3, 5)
    lo, hi = low.astype(dtype), high.astype(dtype)
    _close(got, lo + (hi - lo) * u, dtype)
    assert ((got >= lo) & (got <= hi)).all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_normal_array_params_scale_the_standard_draws(rng, dtype):
    loc = rng.standard_normal((2, 1)) * 10
    scale = rng.uniform(0.1, 5, 4)
    seed = int(rng.integers(2**32))
    simt.random.seed(seed)
    z = simt.random.normal(0, 1, (2, 4), dtype=dtype).get()
    simt.random.seed(seed)
    got = simt.random.normal(_dev(loc), _dev(scale), dtype=dtype).get()  # size None: the broadcast shape
    assert got.dtype == dtype and got.shape == np.broadcast_shapes(loc.shape, scale.shape)
    _close(got, loc.astype(dtype) + scale.astype(dtype) * z, dtype)


def test_mixed_scalar_and_array_params(rng):
    low = rng.uniform(-5, 0, 6)
    seed = int(rng.integers(2**32))
    simt.random.seed(seed)
    u = simt.random.random(6).get()
    simt.random.seed(seed)
    got = simt.random.uniform(_dev(low), 2.5).get()
    _close(got, low + (2.5 - low) * u, np.float64)
    simt.random.seed(seed)
    z = simt.random.standard_normal(6).get()
    simt.random.seed(seed)
    got = simt.random.normal(1.5, _dev(np.abs(low))).get()
    _close(got, 1.5 + np.abs(low) * z, np.float64)
    for loc in (np.float32(-0.5), np.array(-0.5), np.int8(3), True):  # NumPy scalars and 0-d host arrays
        simt.random.seed(seed)
        got = simt.random.normal(loc, _dev(np.abs(low))).get()
        _close(got, float(loc) + np.abs(low) * z, np.float64)


def test_zero_dim_params_give_the_scalar_numbers(rng):
    low, high = float(rng.uniform(-3, 0)), float(rng.uniform(1, 3))
    seed = int(rng.integers(2**32))
    simt.random.seed(seed)
    expected = simt.random.uniform(low, high, 101).get()
    simt.random.seed(seed)
    got = simt.random.uniform(_dev(np.array(low)), _dev(np.array(high)), 101).get()
    _close(got, expected, np.float64)


def test_host_array_params_are_copied_to_the_device(rng):
    low = rng.uniform(-2, 0, (3, 1))
    high = [1.0, 2.0]
    seed = int(rng.integers(2**32))
    simt.random.seed(seed)
    u = simt.random.random((3, 2)).get()
    simt.random.seed(seed)
    got = simt.random.uniform(low, high)
    assert isinstance(got, simt.ndarray) and got.shape == np.random.uniform(low, high).shape
    _close(got.get(), low + (np.array(high) - low) * u, np.float64)


def test_array_params_draw_fresh_numbers_and_follow_the_seed(rng):
    loc = _dev(rng.standard_normal(1000))
    simt.random.seed(11)
    a = simt.random.normal(loc, 1.0).get()
    b = simt.random.normal(loc, 1.0).get()
    simt.random.seed(11)
    np.testing.assert_array_equal(simt.random.normal(loc, 1.0).get(), a)
    assert not np.array_equal(a, b)


def test_random_param_errors_name_the_argument(rng):
    with pytest.raises(ValueError, match=r"uniform: low of shape \(3,\) cannot be broadcast to size \(3, 2\)"):
        simt.random.uniform(_dev(rng.standard_normal(3)), 1.0, size=(3, 2))
    with pytest.raises(ValueError, match="normal: loc of shape .* and scale of shape .* cannot be broadcast together"):
        simt.random.normal(_dev(rng.standard_normal(3)), _dev(rng.uniform(1, 2, 4)))
    with pytest.raises(TypeError, match="normal: scale must be real"):
        simt.random.normal(0.0, _dev(np.ones(3, np.complex64)))
    with pytest.raises(TypeError, match="uniform: high must be real"):
        simt.random.uniform(0.0, 1j)
    with pytest.raises(TypeError, match="randint: high must be an integer; array bounds are not supported"):
        simt.random.randint(0, _dev(np.arange(1, 4)))
    with pytest.raises(TypeError, match="randint: low must be an integer; array bounds"):
        simt.random.randint([3, 4])


def test_scalar_draws_are_unchanged():
    # Values of this generator before array parameters existed (random() is exact on every backend).
    simt.random.seed(0)
    assert simt.random.random(4).get().tolist() == [0.3990464708489645, 0.7357127844834425, 0.9722412015223156,
                                                    0.6939309190579442]
    simt.random.seed(0)
    assert simt.random.random(4, dtype=np.float32).get().tolist() == [0.3990464210510254, 0.8805201649665833,
                                                                      0.7357127666473389, 0.6054818034172058]
    simt.random.seed(0)
    assert simt.random.randint(-5, 1000, 4).get().tolist() == [396, 734, 972, 692]


# ---- array(): copy, order, ndmin; asarray; as*array of 0-d ------------------------------------------------
def test_asarray_returns_device_arrays_unchanged(rng):
    d = _dev(rng.standard_normal((2, 3)))
    assert simt.asarray(d) is d
    assert simt.asarray(d, dtype=np.float64) is d
    assert simt.array(d, copy=None) is d and simt.array(d, copy=False) is d
    c = simt.array(d)
    assert c is not d
    np.testing.assert_array_equal(c.get(), d.get())


def test_copy_false_raises_when_a_copy_is_needed(rng):
    h = rng.standard_normal((3, 4))
    d = _dev(h)
    for kwargs in ({"dtype": np.float32}, {"order": "F"}):
        with pytest.raises(ValueError):
            np.array(h, copy=False, **kwargs)
        with pytest.raises(ValueError, match="copy=False"):
            simt.array(d, copy=False, **kwargs)
    got = simt.asarray(d, dtype=np.float32)  # copy=None: copies when it must
    np.testing.assert_array_equal(got.get(), h.astype(np.float32))
    f = simt.asarray(d, order="F")
    assert f.flags.f_contiguous
    np.testing.assert_array_equal(f.get(), h)
    assert simt.asarray(f, order="F") is f and simt.asarray(f, order="A") is f


@pytest.mark.parametrize("order", ["K", "A", "C", "F"])
@pytest.mark.parametrize("fortran", [False, True])
def test_order_follows_numpy(rng, order, fortran):
    h = rng.standard_normal((3, 5))
    h = np.asfortranarray(h) if fortran else h
    expected = np.array(h, order=order)
    for src in (h, _dev(h)):
        got = simt.array(src, order=order)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (expected.flags.c_contiguous,
                                                                    expected.flags.f_contiguous)
        np.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("ndmin", [0, 1, 3])
def test_ndmin(rng, ndmin):
    for h in (rng.standard_normal(4), np.array(rng.standard_normal()), rng.standard_normal((2, 3))):
        expected = np.array(h, ndmin=ndmin)
        for src in (h, h.tolist(), _dev(h)):
            got = simt.array(src, ndmin=ndmin)
            assert got.shape == expected.shape
            np.testing.assert_array_equal(got.get(), expected)
    d = _dev(rng.standard_normal(3))
    v = simt.array(d, copy=False, ndmin=2)  # a view: no copy needed
    v[0, 1] = 42.0
    assert d[1].item() == 42.0


def test_zero_dim_host_values(rng):
    for h in (np.array(rng.standard_normal()), np.float32(rng.standard_normal()), np.int8(rng.integers(-100, 100)),
              np.array(rng.integers(0, 2**63, dtype=np.uint64))):
        got = simt.array(h)
        expected = np.array(h)
        assert got.shape == () and got.dtype == expected.dtype
        assert got.item() == expected.item()


@pytest.mark.parametrize("name", ["ascontiguousarray", "asfortranarray"])
def test_as_contiguous_of_zero_dim_is_one_dim(rng, name):
    h = np.array(rng.standard_normal())
    for dtype in (None, np.float32):
        expected = getattr(np, name)(h, dtype=dtype)
        got = getattr(simt, name)(_dev(h), dtype=dtype)
        assert got.shape == expected.shape == (1,) and got.dtype == expected.dtype
        np.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like", "full_like"])
def test_like_functions_keep_the_layout(rng, name):
    h = np.asfortranarray(rng.standard_normal((3, 4)))
    args = (7.5,) if name == "full_like" else ()
    expected = getattr(np, name)(h, *args)
    got = getattr(simt, name)(_dev(h), *args)
    assert got.flags.f_contiguous == expected.flags.f_contiguous and got.flags.c_contiguous == expected.flags.c_contiguous
    assert getattr(simt, name)(_dev(h), *args, order="C").flags.c_contiguous
    if name != "empty_like":
        np.testing.assert_array_equal(got.get(), expected)


@pytest.mark.parametrize("name", ["empty_like", "zeros_like", "ones_like", "full_like"])
@pytest.mark.parametrize("view", [lambda x: x[:, ::2], lambda x: x.transpose(2, 0, 3, 1),
                                  lambda x: x[::-1, :, ::2].transpose(1, 2, 0, 3), lambda x: x[..., ::2].T,
                                  lambda x: x[:, 1]], ids=["step", "transpose", "reversed-step-transpose",
                                                            "step-T", "integer-index"])
def test_like_functions_keep_the_axis_order_of_strided_views(rng, name, view):
    # Order 'K' of an array that is neither C- nor F-contiguous: NumPy's strides, in order of memory.
    h = view(rng.standard_normal((2, 3, 4, 5)))
    d = view(_dev(np.ascontiguousarray(rng.standard_normal((2, 3, 4, 5)))))
    args = (rng.standard_normal(),) if name == "full_like" else ()
    for dtype in (None, np.float32):
        expected = getattr(np, name)(h, *args, dtype=dtype)
        got = getattr(simt, name)(d, *args, dtype=dtype)
        assert got.shape == expected.shape and got.strides == expected.strides and got.dtype == expected.dtype
        if name != "empty_like":
            np.testing.assert_array_equal(got.get(), expected)
    assert getattr(simt, name)(d, *args, order="C").flags.c_contiguous


def test_full_like_of_strided_view_broadcasts_an_array_fill(rng):
    h = rng.standard_normal((3, 4, 5)).transpose(2, 0, 1)[:, ::2]
    d = _dev(np.ascontiguousarray(rng.standard_normal((3, 4, 5)))).transpose(2, 0, 1)[:, ::2]
    fill = rng.standard_normal((2, 4))
    for fill_arg in (fill, _dev(fill)):
        got = simt.full_like(d, fill_arg)
        expected = np.full_like(h, fill)
        assert got.strides == expected.strides
        np.testing.assert_array_equal(got.get(), expected)
