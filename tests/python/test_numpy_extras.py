"""NumPy functions added in python/simt/_numpy_extras.py against NumPy on fresh random data:
the NumPy 2 aliases, logspace/geomspace, tri, indices, ix_, unravel_index, ravel_multi_index,
take_along_axis, append, delete, resize, rot90, pad, isin, setdiff1d, sinc, angle, fix,
polyval, inner, vdot, kron, cross and tensordot (values, shapes, dtypes, errors)."""
import warnings

import numpy as np
import pytest

import simt
from xp_testing import assert_both_raise, make, numpy_simt_allclose, numpy_simt_raises, parametrize_dtypes


def strided(xp, rng, shape, dtype, **kwargs):
    """Random data of `shape` as a non-contiguous view (every other row, reversed columns)."""
    if len(shape) < 2:
        return make(xp, rng, tuple(2 * n for n in shape), dtype, **kwargs)[::2]
    big = make(xp, rng, (2 * shape[0], shape[1]) + tuple(shape[2:]), dtype, **kwargs)
    return big[::2, ::-1]


# ---- aliases ------------------------------------------------------------------------------------
ALIASES = {"acos": "arccos", "asin": "arcsin", "atan": "arctan", "acosh": "arccosh", "asinh": "arcsinh",
           "atanh": "arctanh", "atan2": "arctan2", "pow": "power", "bitwise_left_shift": "left_shift",
           "bitwise_right_shift": "right_shift", "bitwise_invert": "invert", "concat": "concatenate",
           "permute_dims": "transpose"}


@pytest.mark.parametrize("alias", sorted(ALIASES))
def test_aliases_are_the_same_objects(alias):
    assert getattr(np, alias) is getattr(np, ALIASES[alias])  # (as in NumPy)
    assert getattr(simt, alias) is getattr(simt, ALIASES[alias])


@numpy_simt_allclose()
def test_aliases_compute(xp, rng):
    x = make(xp, rng, (5,), np.float32, low=-0.9, high=0.9)
    y = make(xp, rng, (5,), np.float32, low=1.1, high=3.0)
    n = make(xp, rng, (5,), np.int16, low=0, high=100)
    s = make(xp, rng, (5,), np.int16, low=0, high=5)
    t = make(xp, rng, (2, 3, 4), np.float64)
    return (xp.acos(x), xp.asin(x), xp.atan(y), xp.acosh(y), xp.asinh(x), xp.atanh(x), xp.atan2(x, y),
            xp.pow(y, x), xp.pow(n, 2), xp.bitwise_left_shift(n, s), xp.bitwise_right_shift(n, s),
            xp.bitwise_invert(n), xp.concat([x, y]), xp.concat([t, t], axis=-1),
            xp.permute_dims(t, (2, 0, 1)), xp.permute_dims(t, (-1, 1, 0)))


# ---- logspace / geomspace -----------------------------------------------------------------------
@pytest.mark.parametrize("start,stop,kw", [
    (0, 3, {}), (-2.5, 1.5, {"num": 7}), (1, 4, {"num": 9, "base": 2}), (2.0, -1.0, {"num": 6, "endpoint": False}),
    (np.float32(0.5), np.float32(2.0), {"num": 5}), (np.float32(1), 3, {"num": 4}), (0, 2, {"num": 1}),
    (0, 2, {"num": 0}), (0.0, 3.0, {"num": 4, "dtype": np.int32}), (0, 1, {"num": 5, "base": np.float32(3.0)}),
    (np.float16(-1), np.float16(1), {"num": 5}), (1, 2, {"num": 4, "axis": -1})], ids=str)
@numpy_simt_allclose(rtol=1e-6)
def test_logspace(xp, start, stop, kw):
    return xp.logspace(start, stop, **kw)


@numpy_simt_allclose(rtol=1e-6)
def test_logspace_array_endpoints(xp, rng):
    start = make(xp, rng, (3,), np.float64, low=-1, high=1)
    stop = make(xp, rng, (2, 3), np.float64, low=1, high=2)
    bases = make(xp, rng, (3,), np.float32, low=1.5, high=4)
    return (xp.logspace(start, stop, num=4), xp.logspace(start, stop, num=5, axis=-1, base=3.0),
            xp.logspace(0, 2, num=4, base=bases), xp.logspace(start, 2.5, num=3, base=bases, axis=1),
            xp.logspace(1, stop, num=2, base=[2, 5, 10], axis=-1))


@pytest.mark.parametrize("start,stop,kw", [
    (1, 1000, {"num": 4}), (1, 256, {"num": 9, "endpoint": False}), (-1, -1000, {"num": 5}),
    (0.25, 32.0, {"num": 7, "dtype": np.float32}), (np.float32(2), np.float32(50), {"num": 6}), (3, 7, {"num": 1}),
    (3, 7, {"num": 0}), (5, 5, {"num": 3}), (1j, 1000j, {"num": 4}), (-1 + 0j, 1 + 0j, {"num": 5}),
    (1, 4, {"num": 2, "dtype": np.int64}), (2.0, 0.5, {"num": 6, "axis": -1}), (-2.0, 8.0, {"num": 3})], ids=str)
@numpy_simt_allclose(rtol=1e-6)
def test_geomspace(xp, start, stop, kw):
    out = xp.geomspace(start, stop, **kw)
    num = kw.get("num", 50)
    if num > 0 and not np.isnan(complex(out[0])):  # NumPy sets the endpoints exactly
        assert complex(out[0]) == complex(start)
        if num > 1 and kw.get("endpoint", True):
            assert complex(out[-1]) == complex(stop)
    return out


def test_geomspace_errors():
    assert_both_raise(ValueError, "Geometric sequence cannot include zero", lambda xp: xp.geomspace(0, 10))
    assert_both_raise(ValueError, "Geometric sequence cannot include zero", lambda xp: xp.geomspace(2, 0.0, 3))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.geomspace(1, 10, 3, axis=1))
    with pytest.raises(NotImplementedError):
        simt.geomspace(simt.ones(2), 10)


# ---- tri / indices / ix_ -------------------------------------------------------------------------
@pytest.mark.parametrize("args", [(4,), (3, 5), (5, 3, 1), (4, 4, -2), (3, 6, 10), (0,), (2, 0), (4, None, -9),
                                  (-1,), (2, -3)], ids=str)
@parametrize_dtypes("dtype", [float, np.int32, np.bool_, np.complex64])
@numpy_simt_allclose()
def test_tri(xp, args, dtype):
    return xp.tri(*args, dtype=dtype)


def test_tri_default_dtype():
    assert simt.tri(3).dtype == np.tri(3).dtype == np.float64
    np.testing.assert_array_equal(simt.tri(4, 3, 1).get(), np.tri(4, 3, 1))


@pytest.mark.parametrize("dims", [(3,), (2, 3), (2, 0, 4), (), (3, 1, 2)], ids=str)
@pytest.mark.parametrize("dtype", [int, np.int32, np.float32], ids=str)
@numpy_simt_allclose()
def test_indices(xp, dims, dtype):
    return xp.indices(dims, dtype=dtype), xp.indices(dims, dtype=dtype, sparse=True)


def test_indices_negative():
    assert_both_raise(ValueError, "negative dimensions", lambda xp: xp.indices((2, -1)))


@numpy_simt_allclose()
def test_ix(xp, rng):
    rows = make(xp, rng, (3,), np.int64, low=0, high=5)
    cols = xp.asarray(rng.random(6) < 0.5)
    a = make(xp, rng, (5, 6), np.float32)
    grid = xp.ix_(rows, cols)
    return grid, a[grid], xp.ix_([2, 0], [True, False, True], []), xp.ix_(), xp.ix_(xp.arange(4.0))


def test_ix_errors():
    assert_both_raise(ValueError, "Cross index must be 1 dimensional", lambda xp: xp.ix_(xp.ones((2, 2))))
    assert_both_raise(ValueError, "Cross index must be 1 dimensional", lambda xp: xp.ix_([1], 3))


# ---- unravel_index / ravel_multi_index ------------------------------------------------------------
@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 5), (4, 1, 3, 2), 9], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
@numpy_simt_allclose()
def test_unravel_and_ravel_round_trip(xp, rng, shape, order):
    size = int(np.prod(shape))
    flat = xp.asarray(rng.integers(0, size, size=(3, 4)))
    coords = xp.unravel_index(flat, shape, order=order)
    back = xp.ravel_multi_index(coords, (shape,) if isinstance(shape, int) else shape, order=order)
    assert (back == flat).all()
    return coords, back, xp.unravel_index(xp.asarray(rng.integers(0, size, size=5).astype(np.uint16)), shape,
                                          order=order)


@numpy_simt_allclose()
def test_unravel_index_scalars_lists_and_empty(xp):
    return (xp.unravel_index(17, (3, 4, 5)), xp.unravel_index([0, 59, 33], (3, 4, 5)),
            xp.unravel_index(xp.arange(0), (2, 3)), xp.unravel_index(0, ()), xp.unravel_index(xp.asarray([True]), (3,)))


@pytest.mark.parametrize("args", [([12], (3, 4)), ([-1], (3, 4)), ([0], (0, 3))], ids=str)
@numpy_simt_raises(ValueError)
def test_unravel_index_out_of_bounds(xp, args):
    return xp.unravel_index(xp.asarray(args[0]), args[1])


def test_unravel_index_errors():
    assert_both_raise(TypeError, "only int indices permitted", lambda xp: xp.unravel_index(xp.asarray([1.0]), (3,)))
    assert_both_raise(ValueError, None, lambda xp: xp.unravel_index(1, (3,), order="A"))
    assert_both_raise(ValueError, "is out of bounds", lambda xp: xp.unravel_index(xp.asarray([3, 70]), (2, 35)))


@pytest.mark.parametrize("mode", ["wrap", "clip", ("wrap", "clip", "raise")], ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
@numpy_simt_allclose()
def test_ravel_multi_index_modes(xp, rng, mode, order):
    i = xp.asarray(rng.integers(-6, 9, size=(4, 1)))
    j = xp.asarray(rng.integers(-8, 8, size=(1, 5)))
    k = xp.asarray(rng.integers(0, 2, size=(4, 5)))
    return xp.ravel_multi_index((i, j, k), (3, 4, 2), mode=mode, order=order)


@numpy_simt_allclose()
def test_ravel_multi_index_inputs(xp, rng):
    rows = make(xp, rng, (2, 6), np.int32, low=0, high=3)  # an array of coordinates: one row per axis
    return (xp.ravel_multi_index(rows, (3, 3)), xp.ravel_multi_index((1, 2), (3, 4)),
            xp.ravel_multi_index(([1, 2], [3, 0]), (3, 4), order="F"),
            xp.ravel_multi_index((xp.arange(0), xp.arange(0)), (2, 2)))


def test_ravel_multi_index_errors():
    assert_both_raise(ValueError, "invalid entry in coordinates array",
                      lambda xp: xp.ravel_multi_index((xp.asarray([1, 3]), xp.asarray([0, 0])), (3, 4)))
    assert_both_raise(ValueError, "invalid entry in coordinates array",
                      lambda xp: xp.ravel_multi_index((xp.asarray([1]), xp.asarray([-1])), (3, 4)))
    assert_both_raise(ValueError, "parameter multi_index must be a sequence of length 3",
                      lambda xp: xp.ravel_multi_index((xp.asarray([1]), xp.asarray([1])), (3, 4, 5)))
    assert_both_raise(ValueError, "clipmode must be one of",
                      lambda xp: xp.ravel_multi_index(([1], [1]), (3, 4), mode="bounce"))
    assert_both_raise(TypeError, None, lambda xp: xp.ravel_multi_index((xp.asarray([1.0]), xp.asarray([1])), (3, 4)))
    assert_both_raise(ValueError, None, lambda xp: xp.ravel_multi_index(([1], [1]), (3, 4), order="K"))
    for mode in ("raise", "clip", "wrap"):
        assert_both_raise(ValueError, "zero entries",
                          lambda xp: xp.ravel_multi_index(([1], [2]), (0, 3), mode=mode))


# ---- take_along_axis ----------------------------------------------------------------------------
@pytest.mark.parametrize("shape,axis", [((6,), 0), ((4, 5), 0), ((4, 5), 1), ((4, 5), -1), ((3, 4, 5), -2),
                                        ((3, 0, 5), 2), ((3, 4, 5), None)], ids=str)
@parametrize_dtypes("dtype", [np.float32, np.int64])
@numpy_simt_allclose()
def test_take_along_axis_with_argsort(xp, rng, shape, axis, dtype):
    a = make(xp, rng, shape, dtype)
    order = xp.argsort(a, axis=axis)
    return order.shape, xp.take_along_axis(a, order, axis=axis)


@numpy_simt_allclose()
def test_take_along_axis_broadcast_and_negative(xp, rng):
    a = strided(xp, rng, (4, 6, 3), np.float64)
    picks = xp.asarray(rng.integers(-6, 6, size=(4, 2, 1)).astype(np.int32))
    one_row = xp.asarray(rng.integers(0, 4, size=(2, 1, 3)))
    return xp.take_along_axis(a, picks, axis=1), xp.take_along_axis(a, one_row[:1], axis=0), \
        xp.take_along_axis(a[0, 0], xp.asarray([2, -1, 0]), 0)


def test_take_along_axis_errors():
    a = np.arange(12.0).reshape(3, 4)
    assert_both_raise(IndexError, "must be an integer array",
                      lambda xp: xp.take_along_axis(xp.asarray(a), xp.asarray(a[:, :1]), 1))
    assert_both_raise(ValueError, "same number of dimensions",
                      lambda xp: xp.take_along_axis(xp.asarray(a), xp.asarray(np.array([0, 1])), 1))
    assert_both_raise(ValueError, "must have a single dimension",
                      lambda xp: xp.take_along_axis(xp.asarray(a), xp.asarray(np.zeros((1, 1), int)), None))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.take_along_axis(xp.asarray(a),
                                                                                 xp.asarray(np.zeros((1, 1), int)), 2))
    assert_both_raise(IndexError, None, lambda xp: xp.take_along_axis(xp.asarray(a), xp.asarray(np.full((3, 1), 4)), 1))


# ---- append / delete / resize ----------------------------------------------------------------------
@numpy_simt_allclose()
def test_append(xp, rng):
    a = make(xp, rng, (3, 4), np.int32)
    b = make(xp, rng, (2, 4), np.float32)
    c = make(xp, rng, (3, 1), np.int8)
    return (xp.append(a, b), xp.append(a, b, axis=0), xp.append(a, c, axis=-1), xp.append(a, 7),
            xp.append(a[0], [1.5, 2.5]), xp.append(xp.zeros(0, np.uint8), xp.ones(2, np.uint8)),
            xp.append(xp.asarray(3.0), b[0]))


def test_append_errors():
    assert_both_raise(ValueError, None, lambda xp: xp.append(xp.ones((2, 3)), xp.ones(3), axis=0))
    assert_both_raise(ValueError, None, lambda xp: xp.append(xp.ones((2, 3)), xp.ones((2, 2)), axis=0))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.append(xp.ones((2, 3)), xp.ones((2, 3)), axis=2))


@pytest.mark.parametrize("obj", [0, -1, 3, np.int64(2), slice(1, 4), slice(None, None, 2), slice(5, 1, -2),
                                 slice(7, 9), [0, 2, -1], [1, 1], [], [3]], ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@numpy_simt_allclose()
def test_delete(xp, rng, obj, axis):
    a = strided(xp, rng, (5, 6), np.float32)
    return xp.delete(a, obj, axis=axis)


@numpy_simt_allclose()
def test_delete_device_indices_and_masks(xp, rng):
    a = make(xp, rng, (4, 6, 2), np.int16)
    idx = xp.asarray(rng.integers(-6, 6, size=3))
    mask = xp.asarray(rng.random(4) < 0.5)
    return (xp.delete(a, idx, axis=1), xp.delete(a, mask, axis=0), xp.delete(a, xp.asarray([[0], [1]]), axis=-1),
            xp.delete(xp.asarray(5.0), 0), xp.delete(a, xp.zeros(0, np.int64), 1))


def test_delete_errors():
    a = np.arange(12).reshape(3, 4)
    assert_both_raise(IndexError, "index 4 is out of bounds for axis 1 with size 4",
                      lambda xp: xp.delete(xp.asarray(a), 4, axis=1))
    assert_both_raise(IndexError, "index -13 is out of bounds for axis 0 with size 12",
                      lambda xp: xp.delete(xp.asarray(a), -13))
    assert_both_raise(IndexError, None, lambda xp: xp.delete(xp.asarray(a), [0, 5], axis=1))
    assert_both_raise(IndexError, None, lambda xp: xp.delete(xp.asarray(a), xp.asarray([0, 5]), axis=1))
    assert_both_raise(IndexError, None, lambda xp: xp.delete(xp.asarray(a), [1.0], axis=1))
    assert_both_raise(ValueError, "boolean array argument obj to delete",
                      lambda xp: xp.delete(xp.asarray(a), xp.asarray([True, False]), axis=1))
    assert_both_raise(ValueError, "boolean array argument obj to delete", lambda xp: xp.delete(xp.asarray(a), True))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.delete(xp.asarray(a), 0, axis=2))


@pytest.mark.parametrize("new_shape", [(2, 3), 5, (4, 5), (3, 0), (), (2, 2, 7), 12], ids=str)
@parametrize_dtypes("dtype", [np.float64, np.int8, np.bool_])
@numpy_simt_allclose()
def test_resize(xp, rng, new_shape, dtype):
    a = strided(xp, rng, (3, 4), dtype)
    return xp.resize(a, new_shape), xp.resize(xp.zeros((0, 2), dtype), new_shape)


@numpy_simt_allclose()
def test_resize_lists_and_scalars(xp):
    return xp.resize([1, 2, 3], (2, 4)), xp.resize(2.5, 3)


def test_resize_errors():
    assert_both_raise(ValueError, "must be non-negative", lambda xp: xp.resize(xp.ones(3), (2, -1)))


# ---- rot90 ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("k", [1, 2, 3, 4, 0, -1, 7])
@pytest.mark.parametrize("shape,axes", [((3, 5), (0, 1)), ((3, 5), (1, 0)), ((2, 3, 4), (0, 2)),
                                        ((2, 3, 4), (-1, -2)), ((2, 0, 4), (1, 2))], ids=str)
@numpy_simt_allclose()
def test_rot90(xp, rng, k, shape, axes):
    return xp.rot90(strided(xp, rng, shape, np.int32), k, axes)


def test_rot90_errors():
    a = np.arange(24).reshape(2, 3, 4)
    assert_both_raise(ValueError, "len\\(axes\\) must be 2", lambda xp: xp.rot90(xp.asarray(a), 1, (0, 1, 2)))
    assert_both_raise(ValueError, "Axes must be different", lambda xp: xp.rot90(xp.asarray(a), 1, (1, 1)))
    assert_both_raise(ValueError, "Axes must be different", lambda xp: xp.rot90(xp.asarray(a), 1, (0, -3)))
    assert_both_raise(ValueError, "out of range", lambda xp: xp.rot90(xp.asarray(a), 1, (0, 4)))
    assert_both_raise(ValueError, "out of range", lambda xp: xp.rot90(xp.asarray(a), 1, (-4, 1)))
    assert_both_raise(ValueError, None, lambda xp: xp.rot90(xp.asarray(a[0, 0]), 1))


# ---- pad ----------------------------------------------------------------------------------------------
PAD_WIDTHS = [1, (2,), (1, 3), ((1, 2), (0, 3)), [[0, 0], [2, 1]], ((2,), (1,)), np.int8(2), ((3, 0),)]


@pytest.mark.parametrize("pad_width", PAD_WIDTHS, ids=str)
@pytest.mark.parametrize("mode", ["constant", "edge"])
@parametrize_dtypes("dtype", [np.float32, np.int16, np.complex64])
@numpy_simt_allclose()
def test_pad_2d(xp, rng, pad_width, mode, dtype):
    return xp.pad(strided(xp, rng, (3, 4), dtype), pad_width, mode=mode)


@pytest.mark.parametrize("values", [0, 7, 2.6, (1, 2), ((1, 2), (3, 4), (5, 6)), ((-1,), (8,), (9,))], ids=str)
@numpy_simt_allclose()
def test_pad_constant_values(xp, rng, values):
    a = make(xp, rng, (2, 3, 2), np.int32)
    return xp.pad(a, ((1, 2), (2, 1), (0, 1)), constant_values=values)


@numpy_simt_allclose()
def test_pad_shapes(xp, rng):
    a1 = make(xp, rng, (5,), np.float64)
    a0 = make(xp, rng, (), np.float64)
    e = xp.zeros((0, 3), np.int8)
    return (xp.pad(a1, (2, 3), "edge"), xp.pad(a1, 0), xp.pad(a0, 3), xp.pad(e, 1), xp.pad(e, ((0, 0), (1, 1)), "edge"),
            xp.pad(make(xp, rng, (2, 3, 2, 2), np.bool_), ((1, 0), (0, 1), (2, 2), (1, 1)), "edge"))


def test_pad_empty_mode_shape():
    a = simt.ones((2, 3), np.float32)
    out = simt.pad(a, ((1, 2), (3, 0)), mode="empty")
    assert out.shape == np.pad(np.ones((2, 3), np.float32), ((1, 2), (3, 0)), mode="empty").shape == (5, 6)
    assert out.dtype == np.float32
    assert (out[1:3, 3:] == 1).all()


def test_pad_errors():
    a = np.arange(6.0).reshape(2, 3)
    assert_both_raise(TypeError, "must be of integral type", lambda xp: xp.pad(xp.asarray(a), 1.5))
    assert_both_raise(ValueError, "negative values", lambda xp: xp.pad(xp.asarray(a), ((1, -1), (0, 0))))
    assert_both_raise(ValueError, None, lambda xp: xp.pad(xp.asarray(a), ((1, 1), (0, 0), (1, 1))))
    assert_both_raise(ValueError, "can't extend empty axis 0",
                      lambda xp: xp.pad(xp.zeros((0, 3)), 1, mode="edge"))
    assert_both_raise(ValueError, None, lambda xp: xp.pad(xp.asarray(a), 1, mode="bogus"))
    np.pad(a, 1, mode=lambda v, w, i, k: None)  # (NumPy takes a function as the mode; simt says it does not)
    with pytest.raises(NotImplementedError, match="function as the mode"):
        simt.pad(simt.asarray(a), 1, mode=lambda v, w, i, k: None)
    assert_both_raise(ValueError, "can't extend empty axis 0", lambda xp: xp.pad(xp.zeros((0, 3)), 1, mode="wrap"))
    # (the statistical modes, linear_ramp and reflect_type='odd': tests/python/test_numpy_extras4.py)


@pytest.mark.parametrize("mode", ["wrap", "reflect", "symmetric"])
@pytest.mark.parametrize("shape", [(5,), (4, 3), (1, 6), (2, 3, 4), (1,)], ids=str)
def test_pad_periodic_and_mirrored_modes(rng, mode, shape):
    h = rng.standard_normal(shape)
    for width in [1, 2, 7, ((0, 3),) * len(shape), [(2, 9)] + [(1, 0)] * (len(shape) - 1), 0]:
        want = np.pad(h, width, mode)
        got = simt.pad(simt.asarray(h), width, mode)
        assert got.shape == want.shape
        np.testing.assert_array_equal(got.get(), want, err_msg=f"pad({shape}, {width}, {mode})")


# ---- isin / setdiff1d ---------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,tests", [((4, 5), (30,)), ((7,), (3, 4)), ((0,), (5,)), ((6,), (0,)), ((), (9,))],
                         ids=str)
@parametrize_dtypes("dtype", [np.int32, np.float64, np.uint8, np.complex64])
@pytest.mark.parametrize("invert", [False, True])
@numpy_simt_allclose()
def test_isin(xp, rng, shape, tests, dtype, invert):
    # whole numbers from a small range, so that many elements match (complex: 1j * n + n % 3)
    e = make(xp, rng, shape, np.int64, low=0, high=12)
    t = make(xp, rng, tests, np.int64, low=0, high=12)
    if np.dtype(dtype).kind == "c":
        e, t = e + 1j * (e % 3), t + 1j * (t % 3)
    return xp.isin(e.astype(dtype), t.astype(dtype), invert=invert)


@numpy_simt_allclose()
def test_isin_mixed_and_special(xp, rng):
    ints = make(xp, rng, (20,), np.int64, low=-5, high=5)
    floats = xp.asarray(np.array([0.0, -0.0, 2.0, 2.5, np.nan, np.inf, -3.0]))
    probe = xp.asarray(np.array([-0.0, 0.0, np.nan, 2.0, 2.5000001, np.inf, -np.inf, -3.0]))
    return (xp.isin(ints, floats), xp.isin(floats, ints), xp.isin(probe, floats), xp.isin(ints, [1, 2, 3]),
            xp.isin(3, ints), xp.isin(ints.astype(xp.bool_), [True]), xp.isin(ints, ints, True, True),
            xp.isin(ints, xp.asarray([0, 1]), kind="table"))


def test_isin_errors():
    assert_both_raise(ValueError, None, lambda xp: xp.isin(xp.ones(3), xp.ones(2), kind="hash"))
    assert_both_raise(ValueError, "only supported for boolean or integer",
                      lambda xp: xp.isin(xp.ones(3), xp.ones(2), kind="table"))


@pytest.mark.parametrize("assume_unique", [False, True])
@parametrize_dtypes("dtype", [np.int32, np.float64, np.uint8])
@numpy_simt_allclose()
def test_setdiff1d(xp, rng, assume_unique, dtype):
    if assume_unique:
        a = xp.asarray(rng.permutation(40)[:15].astype(dtype).reshape(3, 5))
        b = xp.asarray(rng.permutation(40)[:20].astype(dtype))
    else:
        a = make(xp, rng, (4, 6), dtype, low=0, high=15)
        b = make(xp, rng, (2, 5), dtype, low=0, high=15)
    return (xp.setdiff1d(a, b, assume_unique), xp.setdiff1d(a, b[:0], assume_unique),
            xp.setdiff1d(a[:0], b, assume_unique), xp.setdiff1d(a, a, assume_unique))


@numpy_simt_allclose()
def test_setdiff1d_mixed(xp, rng):
    a = make(xp, rng, (12,), np.int32, low=0, high=8)
    return xp.setdiff1d(a, [1.0, 2.0, 3.5]), xp.setdiff1d([3, 1, 2, 3], a[:4])


# ---- sinc / angle / fix / polyval -------------------------------------------------------------
ELEMENTWISE_DTYPES = [np.float16, np.float32, np.float64, np.complex64, np.int8, np.uint16, np.int32, np.bool_]


@parametrize_dtypes("dtype", ELEMENTWISE_DTYPES)
@numpy_simt_allclose(rtol=1e-4, atol=1e-6)
def test_sinc_angle_fix(xp, rng, dtype):
    x = strided(xp, rng, (3, 5), dtype)
    if np.dtype(dtype).kind in "fc":
        x[0, :2] = 0  # sinc's removable singularity
    parts = [xp.sinc(x), xp.angle(x), xp.angle(x, deg=True)]
    if np.dtype(dtype).kind != "c":
        parts.append(xp.fix(x))
    return parts


def test_sinc_angle_fix_special_values():
    x = np.array([0.0, -0.0, 1.0, -2.5, 2.5, 0.5, -0.5, np.inf, -np.inf, np.nan, 1e-30], np.float64)
    d = simt.asarray(x)
    with np.errstate(all="ignore"):
        for f in (np.sinc, np.angle, np.fix):
            got, want = getattr(simt, f.__name__)(d).get(), f(x)
            np.testing.assert_array_equal(got, want)
            assert np.array_equal(np.signbit(got), np.signbit(want))  # -0.0 where NumPy has it
    z = np.array([1 + 1j, -1 + 0j, -1 - 0j, 0j, -0j, 1j, -2 - 2j], np.complex128)
    np.testing.assert_allclose(simt.angle(simt.asarray(z)).get(), np.angle(z), rtol=1e-15)
    out = simt.empty(x.shape, np.float64)
    assert simt.fix(d, out=out) is out
    np.testing.assert_array_equal(out.get(), np.fix(x))
    assert_both_raise(TypeError, None, lambda xp: xp.fix(xp.asarray(z)))


@numpy_simt_allclose()
def test_sinc_angle_fix_scalars_and_lists(xp):
    return xp.sinc(0.25), xp.angle(3j), xp.angle(-2), xp.fix([-1.5, 2.7]), xp.sinc([0, 1, 2])


@pytest.mark.parametrize("pdtype,xdtype", [(np.float64, np.float64), (np.int32, np.float32), (np.float32, np.int16),
                                           (np.int64, np.int64), (np.complex64, np.float32), (np.int8, np.int8)],
                         ids=str)
@pytest.mark.parametrize("deg", [0, 1, 4])
@numpy_simt_allclose(rtol=1e-4)
def test_polyval(xp, rng, pdtype, xdtype, deg):
    p = make(xp, rng, (deg + 1,), pdtype, low=-3, high=3)
    x = strided(xp, rng, (2, 4), xdtype, low=-2, high=2)
    return xp.polyval(p, x), xp.polyval(p, x[0, 0]), xp.polyval(p[:0], x)


@numpy_simt_allclose()
def test_polyval_lists_scalars_and_2d(xp, rng):
    p2 = make(xp, rng, (3, 4), np.float64)  # one polynomial per column
    x = make(xp, rng, (4,), np.float64)
    return xp.polyval([1, -2, 3], 2), xp.polyval([1.5, 0, -1], x), xp.polyval(p2, x), xp.polyval(x, 0.5)


def test_polyval_0d_p():
    assert_both_raise(TypeError, None, lambda xp: xp.polyval(xp.asarray(2.0), xp.ones(3)))


# ---- inner / vdot / kron / cross / tensordot ------------------------------------------------------
PRODUCT_DTYPES = [(np.float32, np.float32), (np.float64, np.int32), (np.complex64, np.complex128),
                  (np.int8, np.int8), (np.bool_, np.bool_), (np.uint8, np.float16)]


@pytest.mark.parametrize("da,db", PRODUCT_DTYPES, ids=str)
@pytest.mark.parametrize("sa,sb", [((5,), (5,)), ((3, 4), (2, 4)), ((2, 3, 4), (4,)), ((4,), (2, 3, 4)), ((), (3,)),
                                   ((2, 0), (3, 0)), ((0, 3), (2, 3))], ids=str)
@numpy_simt_allclose(rtol=2e-2)
def test_inner(xp, rng, da, db, sa, sb):
    a = make(xp, rng, sa, da, low=-3, high=3)
    b = strided(xp, rng, sb, db, low=-3, high=3)
    return xp.inner(a, b)


@pytest.mark.parametrize("da,db", PRODUCT_DTYPES, ids=str)
@numpy_simt_allclose(rtol=2e-2)
def test_vdot(xp, rng, da, db):
    a = make(xp, rng, (3, 4), da, low=-3, high=3)
    b = strided(xp, rng, (4, 3), db, low=-3, high=3)
    return xp.vdot(a, b), xp.vdot(b, a), xp.vdot(a[:0], b[:0]), xp.vdot(a[0, 0], b[0, 0])


def test_inner_vdot_errors():
    assert_both_raise(ValueError, "not aligned", lambda xp: xp.inner(xp.ones((2, 3)), xp.ones((2, 4))))
    assert_both_raise(ValueError, None, lambda xp: xp.vdot(xp.ones(3), xp.ones(4)))


@pytest.mark.parametrize("da,db", PRODUCT_DTYPES[:5], ids=str)
@pytest.mark.parametrize("sa,sb", [((3,), (4,)), ((2, 3), (3, 2)), ((2, 2), (3,)), ((4,), (2, 1, 3)), ((), (2, 2)),
                                   ((0, 2), (3, 3)), ((2, 1, 2), (1, 3, 2))], ids=str)
@numpy_simt_allclose(rtol=1e-5)
def test_kron(xp, rng, da, db, sa, sb):
    return xp.kron(make(xp, rng, sa, da), strided(xp, rng, sb, db))


with warnings.catch_warnings():  # (NumPy 2.0-2.4 warn on 2-vectors in cross, later ones refuse them)
    warnings.simplefilter("ignore")
    try:
        np.cross(np.zeros(2), np.zeros(2))
        NUMPY_CROSSES_2_VECTORS = True
    except ValueError:
        NUMPY_CROSSES_2_VECTORS = False

@pytest.mark.parametrize("da,db", [(np.float64, np.float64), (np.float32, np.int32), (np.int8, np.int8),
                                   (np.complex128, np.float64), (np.uint8, np.uint8)], ids=str)
@pytest.mark.parametrize("sa,sb", [((3,), (3,)), ((4, 3), (4, 3)), ((5, 3), (3,)), ((2, 1, 3), (4, 3)), ((0, 3), (3,))],
                         ids=str)
@numpy_simt_allclose(rtol=1e-5)
def test_cross_3d(xp, rng, da, db, sa, sb):
    a = make(xp, rng, sa, da, low=0 if da == np.uint8 else None)
    b = strided(xp, rng, sb, db, low=0 if db == np.uint8 else None)
    return xp.cross(a, b)


@pytest.mark.parametrize("kw", [{"axisa": 0}, {"axisa": 0, "axisb": 0, "axisc": 0}, {"axis": 0},
                                {"axisa": -2, "axisc": 1}], ids=str)
@numpy_simt_allclose()
def test_cross_axes(xp, rng, kw):
    a = make(xp, rng, (3, 5), np.float64)
    b = make(xp, rng, (3, 5), np.float64)
    if kw.get("axisa") is not None and "axisb" not in kw and "axis" not in kw:
        b = b.T
    return xp.cross(a, b, **kw)


@pytest.mark.parametrize("sa,sb", [((2,), (2,)), ((4, 2), (4, 2)), ((4, 2), (3,)), ((3,), (5, 2))], ids=str)
@numpy_simt_allclose()
def test_cross_2d_vectors_are_deprecated(xp, rng, sa, sb):
    if not NUMPY_CROSSES_2_VECTORS:
        pytest.skip("this NumPy refuses 2-vectors: test_cross_2d_vectors_are_refused covers it")
    a = make(xp, rng, sa, np.float64)
    b = make(xp, rng, sb, np.int32)
    with pytest.warns(DeprecationWarning, match="2-dimensional vectors are deprecated"):
        return xp.cross(a, b)


@pytest.mark.parametrize("sa,sb", [((2,), (2,)), ((4, 2), (4, 3)), ((3,), (5, 2))], ids=str)
def test_cross_2d_vectors_are_refused_where_numpy_refuses_them(sa, sb):
    if NUMPY_CROSSES_2_VECTORS:
        pytest.skip("this NumPy still takes 2-vectors: test_cross_2d_vectors_are_deprecated covers it")
    assert_both_raise(ValueError, "must be \\(arrays of\\) 3-dimensional vectors",
                      lambda xp: xp.cross(xp.ones(sa), xp.ones(sb)))


def test_cross_errors():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        assert_both_raise(ValueError, None, lambda xp: xp.cross(xp.ones((2, 4)), xp.ones((2, 3))))
        assert_both_raise(ValueError, None, lambda xp: xp.cross(xp.ones((2, 3)), xp.ones((4, 3))))
        assert_both_raise(TypeError, None, lambda xp: xp.cross(xp.ones(3, xp.bool_), xp.ones(3, xp.bool_)))
        assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.cross(xp.ones((2, 3)), xp.ones(3), axisc=2))
        assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.cross(xp.ones(3), xp.ones(3), axisa=1))


@pytest.mark.parametrize("sa,sb,axes", [((3, 4, 5), (4, 5, 2), 2), ((3, 4), (4, 5), 1), ((2, 3), (4,), 0),
                                        ((3, 4, 5), (5, 3), ([0, 2], [1, 0])), ((3, 4, 5), (3, 4, 5), 3),
                                        ((3, 4), (4, 2), (1, 0)), ((3, 4), (4, 3), ([-1], [-2])),
                                        ((2, 0, 3), (0, 3, 4), 2), ((2, 3), (3, 2), -1), ((), (2,), 0)], ids=str)
@pytest.mark.parametrize("da,db", PRODUCT_DTYPES, ids=str)
@numpy_simt_allclose(rtol=2e-2)
def test_tensordot(xp, rng, sa, sb, axes, da, db):
    a = make(xp, rng, sa, da, low=-3, high=3)
    b = strided(xp, rng, sb, db, low=-3, high=3) if sb else make(xp, rng, sb, db)
    return xp.tensordot(a, b, axes)


def test_tensordot_errors():
    a = np.ones((2, 3, 4))
    assert_both_raise(ValueError, "shape-mismatch for sum",
                      lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(a), ([0, 1], [1])))
    assert_both_raise(ValueError, "shape-mismatch for sum",
                      lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(a), ([0], [1])))
    assert_both_raise(ValueError, "shape-mismatch for sum", lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(a), 1))
    assert_both_raise(IndexError, None, lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(a), 4))
    assert_both_raise(IndexError, None, lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(a), ([3], [0])))


# ---- host data and dispatch -------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda h: simt.take_along_axis(h, simt.zeros((1,), np.int64), 0), lambda h: simt.append(h, simt.ones(2)),
    lambda h: simt.delete(h, 0), lambda h: simt.resize(h, 4), lambda h: simt.rot90(h), lambda h: simt.pad(h, 1),
    lambda h: simt.isin(h, simt.ones(2)), lambda h: simt.isin(simt.ones(2), h), lambda h: simt.setdiff1d(h, h),
    lambda h: simt.sinc(h), lambda h: simt.angle(h), lambda h: simt.fix(h), lambda h: simt.polyval(h, 1.0),
    lambda h: simt.inner(h, simt.ones(2)), lambda h: simt.vdot(simt.ones(4), h), lambda h: simt.kron(h, h),
    lambda h: simt.cross(h, simt.ones(3)), lambda h: simt.tensordot(h, simt.ones((2, 2))),
    lambda h: simt.unravel_index(h, (9,)), lambda h: simt.ravel_multi_index((h, h), (3, 3)),
    lambda h: simt.ix_(h[0])])
def test_host_numpy_arrays_are_refused(call):
    host = np.ones((2, 2), np.int64)
    with pytest.raises(TypeError, match="host data"):
        call(host)


@numpy_simt_allclose()
def test_numpy_functions_dispatch_to_simt(xp, rng):
    a = make(xp, rng, (3, 4), np.float64)
    results = (np.pad(a, 1), np.rot90(a), np.isin(a, a[0]), np.kron(a, a[:1]), np.tensordot(a, a.T, 1),
               np.take_along_axis(a, xp.argsort(a, axis=0), 0), np.delete(a, 1, 0), np.sinc(a))
    if xp is simt:
        assert all(isinstance(r, simt.ndarray) for r in results)
    return results



def test_cross_refusal_message_for_a_numpy_that_refuses_2_vectors(monkeypatch):
    from simt import _numpy_extras
    monkeypatch.setattr(_numpy_extras, "_numpy_crosses_2_vectors", lambda: False)
    with pytest.raises(ValueError, match=r"they are 2 and 3 dimensional instead"):
        simt.cross(simt.ones(2), simt.ones(3))
    np.testing.assert_array_equal(simt.cross(simt.asarray([1.0, 0, 0]), simt.asarray([0, 1.0, 0])).get(), [0, 0, 1.0])
