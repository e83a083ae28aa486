"""Array-API fixes checked against NumPy: get_array_module, full's integer range, linspace and
arange dtypes, `in`, np.matmul, axis validation, flags, error messages, constants, tolist,
round."""
import numpy as np
import pytest

import simt


def test_get_array_module(rng):
    d = simt.asarray(rng.standard_normal(3))
    assert simt.get_array_module(d) is simt
    assert simt.get_array_module(1.0, d) is simt
    assert simt.get_array_module(np.zeros(2), 3) is np
    assert simt.get_array_module() is np


# ---- full / full_like: Python ints out of the dtype's range ------------------------------------------------
@pytest.mark.parametrize("value, dtype", [(300, np.int8), (-1, np.uint8), (2**63, np.int64), (2**64, np.uint64),
                                          (-129, np.int8)])
def test_full_python_int_out_of_range(value, dtype):
    with pytest.raises(OverflowError) as expected:
        np.full(3, value, dtype=dtype)
    with pytest.raises(OverflowError) as got:
        simt.full(3, value, dtype=dtype)
    assert str(got.value) == str(expected.value)


def test_full_like_python_int_out_of_range():
    with pytest.raises(OverflowError, match="Python integer -1 out of bounds for uint8"):
        simt.full_like(simt.zeros(3, dtype=simt.uint8), -1)


@pytest.mark.parametrize("value, dtype", [(255, np.uint8), (-128, np.int8), (2**64 - 1, np.uint64), (3, np.bool_),
                                          (2**70, np.float32), (np.int64(300), np.int8), (300.7, np.int8),
                                          (-1.0, np.uint8), (1 + 2j, np.complex64)])
def test_full_matches_numpy_in_range_and_casts(value, dtype):
    expected = np.full((2, 3), value, dtype=dtype)
    got = simt.full((2, 3), value, dtype=dtype).get()
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


def test_full_like_random_fill(rng):
    h = rng.integers(-100, 100, (4, 5)).astype(np.int16)
    v = int(rng.integers(-2**15, 2**15))
    got = simt.full_like(simt.asarray(h), v).get()
    np.testing.assert_array_equal(got, np.full_like(h, v))


# ---- linspace / arange dtypes -------------------------------------------------------------------------------
def test_linspace_bool_is_nonzero():
    np.testing.assert_array_equal(simt.linspace(0, 1, 3, dtype=bool).get(), np.linspace(0, 1, 3, dtype=bool))
    np.testing.assert_array_equal(simt.linspace(-1, 1, 5, dtype=bool).get(), np.linspace(-1, 1, 5, dtype=bool))


@pytest.mark.parametrize("dtype", [bool, int, np.int8, np.int32, np.uint8, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("endpoint", [True, False])
def test_linspace_dtypes_match_numpy(rng, dtype, endpoint):
    unsigned = np.dtype(dtype).kind == "u"
    for _ in range(6):
        start, stop = rng.uniform(0 if unsigned else -50, 50, 2)
        num = int(rng.integers(0, 20))
        expected = np.linspace(start, stop, num, endpoint=endpoint, dtype=dtype)
        got = simt.linspace(start, stop, num, endpoint=endpoint, dtype=dtype).get()
        assert got.dtype == expected.dtype
        if np.dtype(dtype).kind == "f":  # a GPU contracts start + i * step into one fma: last-bit differences
            eps = np.finfo(dtype).eps
            np.testing.assert_allclose(got, expected, rtol=4 * eps, atol=4 * eps * 50, err_msg=f"linspace({start}, {stop}, {num})")
        else:
            np.testing.assert_array_equal(got, expected, err_msg=f"linspace({start}, {stop}, {num})")


@pytest.mark.parametrize("kwargs", [{}, {"endpoint": False}, {"axis": 1}, {"axis": -1}, {"dtype": np.int32},
                                    {"num": 1}, {"num": 0}, {"retstep": True}])
def test_linspace_with_array_endpoints_matches_numpy(rng, kwargs):
    start, stop = rng.uniform(-10, 10, (2, 3)), rng.uniform(-10, 10, 3)
    kwargs = dict(kwargs)
    num = kwargs.pop("num", 7)
    want = np.linspace(start, stop, num, **kwargs)
    for s, e in [(simt.asarray(start), simt.asarray(stop)), (start, stop), (start.tolist(), simt.asarray(stop))]:
        got = simt.linspace(s, e, num, **kwargs)
        if kwargs.get("retstep"):
            np.testing.assert_allclose(got[1].get(), want[1], rtol=1e-12)
            got, want_values = got[0], want[0]
        else:
            want_values = want
        assert got.shape == want_values.shape and got.dtype == want_values.dtype
        np.testing.assert_allclose(got.get(), want_values, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(simt.linspace(0.0, simt.asarray(stop), 4).get(), np.linspace(0.0, stop, 4), rtol=1e-12)


def test_linspace_with_array_endpoints_keeps_narrow_floats(rng):
    start, stop = rng.uniform(-1, 1, 3).astype(np.float32), rng.uniform(2, 3, 3).astype(np.float32)
    want = np.linspace(start, stop, 5)
    got = simt.linspace(simt.asarray(start), simt.asarray(stop), 5)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_allclose(got.get(), want, rtol=1e-6)
    out, step = simt.linspace(simt.asarray(start), simt.asarray(stop), 1, retstep=True)
    assert np.isnan(step) and np.ndim(step) == 0  # NumPy's scalar NaN
    np.testing.assert_array_equal(out.get(), start[None])


@pytest.mark.parametrize("args", [(0, 10, 4), (0, -2.5, 3), (3.5, -2.5, 1), (-7, 7, 8)])
def test_linspace_integer_floors_like_numpy(args):
    np.testing.assert_array_equal(simt.linspace(*args, dtype=int).get(), np.linspace(*args, dtype=int))


@pytest.mark.parametrize("args", [(2**64 - 5, 2**64 - 1), (10, 0, -3), (2**64 - 1, 2**64 - 10, -2),
                                  (0, 2**64 - 1, 2**62), (1, 7, 2)])
def test_arange_uint64_full_range(args):
    expected = np.arange(*args, dtype=np.uint64)
    got = simt.arange(*args, dtype=simt.uint64).get()
    assert got.dtype == np.uint64
    np.testing.assert_array_equal(got, expected)


def test_arange_uint64_random_start(rng):
    start = int(rng.integers(2**63, 2**64 - 100, dtype=np.uint64))
    step = int(rng.integers(1, 10))
    expected = np.arange(start, start + 50, step, dtype=np.uint64)
    np.testing.assert_array_equal(simt.arange(start, start + 50, step, dtype=simt.uint64).get(), expected)


@pytest.mark.parametrize("args, dtype", [((0, 300, 100), np.int8), ((120, 140, 5), np.int8),
                                         ((-2**63, 2**63 - 1, 2**62), np.int64), ((10, 0, -1), np.uint8)])
def test_arange_integer_wrapping_matches_numpy(args, dtype):
    np.testing.assert_array_equal(simt.arange(*args, dtype=dtype).get(), np.arange(*args, dtype=dtype))


@pytest.mark.parametrize("args, dtype", [((-3, 3), np.uint64), ((300, 310), np.int8), ((100, 300, 100), np.int8)])
def test_arange_start_out_of_range_raises(args, dtype):
    with pytest.raises(OverflowError) as expected:
        np.arange(*args, dtype=dtype)
    with pytest.raises(OverflowError) as got:
        simt.arange(*args, dtype=dtype)
    assert str(got.value) == str(expected.value)


# ---- `in` -------------------------------------------------------------------------------------------
def test_contains(rng):
    h = rng.integers(0, 10, (3, 4)).astype(np.float64)
    d = simt.asarray(h)
    for v in [0.0, 3, 9.0, 10, -1, 2.5]:
        got = v in d
        assert type(got) is bool
        assert got == (v in h), v
    assert (float(h[1, 2]) in d) is True
    assert (simt.nan in simt.asarray([np.nan, 1.0])) is (np.nan in np.array([np.nan, 1.0]))


# ---- np.matmul on simt arrays ------------------------------------------------------------------------
def test_numpy_matmul_dispatches_to_simt(rng):
    a, b = rng.standard_normal((2, 4, 3)), rng.standard_normal((3, 5))
    got = np.matmul(simt.asarray(a), simt.asarray(b))
    assert isinstance(got, simt.ndarray)
    np.testing.assert_allclose(got.get(), np.matmul(a, b), rtol=1e-12)
    d = simt.asarray(a[0])
    np.testing.assert_allclose(np.matmul(d, d.T).get(), a[0] @ a[0].T, rtol=1e-12)


def test_numpy_matmul_out(rng):
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((3, 2))
    out = simt.empty((4, 2))
    assert np.matmul(simt.asarray(a), simt.asarray(b), out=out) is out
    np.testing.assert_allclose(out.get(), a @ b, rtol=1e-12)
    with pytest.raises(TypeError, match="out= is a NumPy array in host memory"):
        np.matmul(simt.asarray(a), simt.asarray(b), out=np.empty((4, 2)))
    with pytest.raises(TypeError, match="argument 1 is a NumPy array in host memory"):
        np.matmul(a, simt.asarray(b))
    with pytest.raises(TypeError, match="does not support the argument"):
        np.matmul(simt.asarray(a), simt.asarray(b), axes=[(0, 1), (0, 1), (0, 1)])


# ---- axis validation ------------------------------------------------------------------------------------
def test_squeeze_duplicate_axis():
    for fn in (lambda m: m.zeros((1, 3)).squeeze(axis=(0, 0)), lambda m: m.squeeze(m.zeros((1, 3)), (0, -2))):
        with pytest.raises(ValueError, match="duplicate value in 'axis'"):
            fn(np)
        with pytest.raises(ValueError, match="duplicate value in 'axis'"):
            fn(simt)


def test_squeeze_axis_still_works(rng):
    h = rng.standard_normal((1, 3, 1, 2))
    d = simt.asarray(h)
    for axis in [None, 0, -2, (0, 2), [2, 0]]:
        expected = h.squeeze(axis=axis if not isinstance(axis, list) else tuple(axis))
        np.testing.assert_array_equal(d.squeeze(axis=axis).get(), expected)
    with pytest.raises(np.exceptions.AxisError):
        d.squeeze(axis=4)
    with pytest.raises(ValueError, match="cannot select an axis to squeeze out"):
        d.squeeze(axis=1)


BOOL_AXIS_CALLS = {
    "sum": lambda m, x: m.sum(x, axis=True), "sum tuple": lambda m, x: m.sum(x, axis=(True,)),
    "prod": lambda m, x: m.prod(x, axis=False), "max": lambda m, x: m.max(x, axis=True),
    "min initial": lambda m, x: m.min(x, axis=True, initial=0.0),
    "sum where": lambda m, x: m.sum(x, axis=True, where=x > 0),
    "mean": lambda m, x: m.mean(x, axis=True), "var": lambda m, x: m.var(x, axis=True),
    "std": lambda m, x: m.std(x, axis=True), "argmax": lambda m, x: m.argmax(x, axis=True),
    "argmin": lambda m, x: m.argmin(x, axis=True), "all": lambda m, x: m.all(x, axis=True),
    "any": lambda m, x: m.any(x, axis=True), "cumsum": lambda m, x: m.cumsum(x, axis=True),
    "cumprod": lambda m, x: m.cumprod(x, axis=True), "count_nonzero": lambda m, x: m.count_nonzero(x, axis=True),
    "method": lambda m, x: x.sum(axis=True), "squeeze": lambda m, x: x.reshape(1, 6).squeeze(axis=True),
    "concatenate": lambda m, x: m.concatenate([x, x], axis=True), "transpose": lambda m, x: x.transpose(True, 0),
}


@pytest.mark.parametrize("name", BOOL_AXIS_CALLS)
def test_bool_axis_is_type_error(rng, name):
    h = rng.standard_normal((2, 3))
    with pytest.raises(TypeError, match="an integer is required"):
        BOOL_AXIS_CALLS[name](np, h)
    with pytest.raises(TypeError, match="an integer is required"):
        BOOL_AXIS_CALLS[name](simt, simt.asarray(h))


def test_bool_axis_accepted_where_numpy_accepts_it(rng):
    # NumPy's expand_dims, swapaxes, moveaxis and stack take True as axis 1.
    h = rng.standard_normal((2, 3))
    d = simt.asarray(h)
    assert simt.expand_dims(d, True).shape == np.expand_dims(h, True).shape
    assert simt.swapaxes(d, True, 0).shape == np.swapaxes(h, True, 0).shape
    np.testing.assert_array_equal(simt.moveaxis(d, True, 0).get(), np.moveaxis(h, True, 0))
    assert simt.stack([d, d], axis=True).shape == np.stack([h, h], axis=True).shape


def test_moveaxis_axis_errors(rng):
    h = rng.standard_normal((2, 3, 4))
    d = simt.asarray(h)
    np.testing.assert_array_equal(simt.moveaxis(d, [0, 1], [1, 2]).get(), np.moveaxis(h, [0, 1], [1, 2]))
    with pytest.raises(ValueError, match="repeated axis in `source` argument"):
        simt.moveaxis(d, (0, 0), (1, 2))
    with pytest.raises(np.exceptions.AxisError):
        simt.moveaxis(d, 5, 0)


# ---- flags ------------------------------------------------------------------------------------
def test_flags_object_keys_and_attributes():
    a = simt.arange(6.).reshape(2, 3)
    t = a.T
    h = np.arange(6.).reshape(2, 3)
    for d, n in [(a, h), (t, h.T), (a[:, ::2], h[:, ::2])]:
        assert d.flags.c_contiguous is d.flags["C_CONTIGUOUS"] is n.flags.c_contiguous
        assert d.flags.f_contiguous is d.flags["F_CONTIGUOUS"] is n.flags.f_contiguous
        assert d.flags.owndata is d.flags["OWNDATA"]
    with pytest.raises(KeyError, match="WRITEABLE"):
        a.flags["WRITEABLE"]
    assert "C_CONTIGUOUS : True" in repr(simt.zeros(3).flags)


# ---- error messages ----------------------------------------------------------------------------------
@pytest.mark.parametrize("kwargs", [dict(k=1.0), dict(M=2.0), dict(N=3.0)])
def test_eye_float_arguments(kwargs):
    kwargs = {"N": 3, **kwargs}
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        np.eye(**kwargs)
    with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
        simt.eye(**kwargs)


def test_eye_still_matches_numpy():
    for args in [(3,), (3, 4, 1), (4, 3, -2), (2, 2, 5)]:
        np.testing.assert_array_equal(simt.eye(*args).get(), np.eye(*args))
    np.testing.assert_array_equal(simt.eye(np.int64(3), k=np.int32(1)).get(), np.eye(3, k=1))


@pytest.mark.parametrize("name", ["argmax", "cumsum", "var", "std", "argmin"])
def test_reduction_inside_fuse_says_so(name):  # (sum, max, mean ... are fused: test_fusion_reductions.py)
    @simt.fuse()
    def f(x):
        return getattr(simt, name)(x * 2)

    with pytest.raises(TypeError, match=rf"simt\.{name}\(\) is not supported inside a simt\.fuse function.*reductions"):
        f(simt.arange(4.))


def test_matmul_inside_fuse_says_so():
    @simt.fuse()
    def f(x):
        return simt.matmul(x, x)

    with pytest.raises(TypeError, match=r"simt\.matmul\(\) is not supported inside a simt\.fuse function.*matrix"):
        f(simt.arange(4.))


# ---- missing names ---------------------------------------------------------------------------------------
def test_constants():
    for name in ["nan", "inf", "pi", "e", "euler_gamma"]:
        a, b = getattr(simt, name), getattr(np, name)
        assert a == b or (np.isnan(a) and np.isnan(b)), name
    assert simt.newaxis is None
    assert simt.arange(3)[:, simt.newaxis].shape == (3, 1)


def test_tolist(rng):
    for h in [rng.standard_normal((2, 3)), rng.integers(-5, 5, (4,)), np.array(2.5), rng.standard_normal(3) > 0,
              rng.standard_normal((2, 2)) + 1j]:
        got = simt.asarray(h).tolist()
        assert got == h.tolist()
        assert type(got) is type(h.tolist())


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int64, np.int8, np.uint16, np.complex128,
                                   np.complex64])
@pytest.mark.parametrize("decimals", [0, 1, 2, 3, -1, -2])
def test_round_matches_numpy(rng, dtype, decimals):
    kind = np.dtype(dtype).kind
    if kind == "f":
        h = (rng.standard_normal(200) * 100).astype(dtype)
        h[:6] = [0.5, 1.5, 2.5, -0.5, -2.5, 0.125]  # ties: half to even
    elif kind == "c":
        h = (rng.standard_normal(200) * 100 + 1j * rng.standard_normal(200) * 100).astype(dtype)
        h[0] = 2.5 - 0.5j
    else:
        info = np.iinfo(dtype)
        h = rng.integers(max(info.min, -30000), min(info.max, 30000), 200).astype(dtype)
    with np.errstate(over="ignore"):  # float16 * 1000 overflows for some values (NumPy warns)
        expected = np.round(h, decimals)
    for got in (simt.round(simt.asarray(h), decimals), simt.around(simt.asarray(h), decimals),
                simt.asarray(h).round(decimals), np.round(simt.asarray(h), decimals)):
        assert got.dtype == expected.dtype
        np.testing.assert_array_equal(got.get(), expected)


def test_round_out_and_errors(rng):
    h = rng.standard_normal((3, 4)) * 10
    out = simt.empty((3, 4))
    assert simt.round(simt.asarray(h), 2, out=out) is out
    np.testing.assert_array_equal(out.get(), np.round(h, 2))
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        np.round(h, 1.5)
    with pytest.raises(TypeError, match="cannot be interpreted as an integer"):
        simt.round(simt.asarray(h), 1.5)


# ---- NEP 50: a Python int outside an integer array's range --------------------------------------------
@pytest.mark.parametrize("dtype, value", [(np.int8, 300), (np.uint8, -1), (np.uint8, 256), (np.int16, 100000),
                                          (np.uint64, -3), (np.int64, 2**64 - 1)])
def test_true_divide_by_an_out_of_range_python_int(rng, dtype, value):
    # true_divide computes integers as float64, so NumPy never converts the int to the array's dtype
    info = np.iinfo(dtype)
    h = rng.integers(max(info.min, -1000), min(info.max, 1000), 50, endpoint=True).astype(dtype)
    h[h == 0] = 1  # (value / 0 is inf on both sides, with a NumPy warning)
    d = simt.asarray(h)
    for got, expected in ((d / value, h / value), (value / d, value / h)):
        assert got.dtype == expected.dtype == np.float64
        np.testing.assert_allclose(got.get(), expected, rtol=1e-15)
    with pytest.raises(OverflowError, match="out of bounds"):
        d + value  # other operators still raise, as NumPy does


@pytest.mark.parametrize("args", [(np.float32(3),), (np.float32(0), 3), (np.int8(5),), (np.float16(2), np.float16(4)),
                                  (np.int32(2), np.int32(9), np.int32(2)), (True,), (np.float32(0.5), 4, np.float32(0.5)),
                                  (np.uint8(5),), (np.uint64(5),), (np.uint16(2), 7), (np.uint64(2**63 + 2), np.uint64(2**63 + 5))])
def test_arange_of_numpy_scalars_takes_numpys_dtype(args):
    want = np.arange(*args)
    got = simt.arange(*args)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)
