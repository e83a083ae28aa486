"""simt.flip, fliplr, flipud, roll, tile, repeat, diff, meshgrid, the split family, column_stack,
dstack, atleast_3d and ndarray.flatten against NumPy (python/simt/_rearrange.py, _splitting.py,
_differences.py, _grids.py, _manipulation.py), and NumPy's functions dispatching to them."""
import numpy as np
import pytest

import simt
from xp_testing import assert_both_raise, make, numpy_simt_allclose, parametrize_dtypes

DTYPES = [np.float32, np.float64, np.int32, np.bool_]


def sample(xp, rng, shape, dtype, view):
    """Random data of `shape`; view='strided' gives a non-contiguous view of that shape."""
    if view == "contiguous" or shape == ():
        return make(xp, rng, shape, dtype)
    if len(shape) < 2:
        return make(xp, rng, tuple(2 * n for n in shape), dtype)[::-2]
    big = make(xp, rng, (2 * shape[0], shape[1] + 1) + tuple(shape[2:]), dtype)
    return big[::2, ::-1][:, :shape[1]]


SHAPES = [(), (0,), (7,), (3, 0, 2), (3, 4, 5)]
VIEWS = ["contiguous", "strided"]


# ---- flip -------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("view", VIEWS)
@numpy_simt_allclose()
def test_flip_and_roll_all_axes(xp, rng, dtype, shape, view):
    a = sample(xp, rng, shape, dtype, view)
    # (np.flip(a) of a simt array dispatches to simt.flip; roll with axis=None rolls the flattened array)
    return xp.flip(a), np.flip(a), xp.roll(a, 3), xp.roll(a, -22)


@pytest.mark.parametrize("axis", [0, -1, (0, 2), (2, 1, 0), [1]], ids=str)
@numpy_simt_allclose()
def test_flip_axes(xp, rng, axis):
    a = sample(xp, rng, (3, 4, 5), np.float64, "strided")
    return xp.flip(a, axis)


@numpy_simt_allclose()
def test_flip_is_a_view(xp, rng):
    a = make(xp, rng, (4, 5), np.int32)
    xp.flip(a, 1)[0, 0] = 99
    return a, xp.fliplr(a), xp.flipud(a), xp.flipud(a[0])


def test_flip_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(np.exceptions.AxisError, "axis 2 is out of bounds", lambda xp: xp.flip(xp.asarray(a), 2))
    assert_both_raise(ValueError, "repeated axis", lambda xp: xp.flip(xp.asarray(a), (0, 0)))
    assert_both_raise(ValueError, r"Input must be >= 2-d\.", lambda xp: xp.fliplr(xp.asarray(a[0])))
    assert_both_raise(ValueError, r"Input must be >= 1-d\.", lambda xp: xp.flipud(xp.asarray(a[0, 0])))


# ---- roll -------------------------------------------------------------------------------------
@pytest.mark.parametrize("shift,axis", [(1, 0), (-2, -1), (7, 2), ((1, 2), (0, 2)), ((1, -3), 1), (2, (0, 1)),
                                        ((1, 2, 3), (0, 0, 0)), (0, 1), (np.int8(2), 1)], ids=str)
@numpy_simt_allclose()
def test_roll_axes(xp, rng, shift, axis):
    a = sample(xp, rng, (3, 4, 5), np.float32, "strided")
    return xp.roll(a, shift, axis)


def test_roll_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(ValueError, "shape mismatch", lambda xp: xp.roll(xp.asarray(a), (1, 2), (0, 1, 1)))
    assert_both_raise(np.exceptions.AxisError, "axis 5 is out of bounds", lambda xp: xp.roll(xp.asarray(a), 1, 5))


# ---- tile -------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@pytest.mark.parametrize("reps", [2, (2, 1), (1, 3), (2, 1, 3), (0, 2), (), [1, 1]], ids=str)
@pytest.mark.parametrize("shape", [(), (4,), (3, 4), (0, 2)], ids=str)
@numpy_simt_allclose()
def test_tile(xp, rng, dtype, reps, shape):
    return xp.tile(sample(xp, rng, shape, dtype, "strided" if shape else "contiguous"), reps)


def test_tile_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(TypeError, "cannot be interpreted as an integer", lambda xp: xp.tile(xp.asarray(a), 1.5))
    assert_both_raise(ValueError, "negative dimensions are not allowed", lambda xp: xp.tile(xp.asarray(a), (2, -1)))


# ---- repeat -----------------------------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(), (5,), (3, 4, 5), (2, 0, 3)], ids=str)
@pytest.mark.parametrize("repeats,axis", [(2, None), (3, 0), (1, -1), (0, -1), ([2], -1)], ids=str)
@numpy_simt_allclose(accept_error=(np.exceptions.AxisError,))
def test_repeat_scalar_count(xp, rng, dtype, shape, repeats, axis):
    a = sample(xp, rng, shape, dtype, "strided" if len(shape) > 1 else "contiguous")
    return xp.repeat(a, repeats, axis), a.repeat(repeats, axis=axis)


@pytest.mark.parametrize("axis", [None, 0, 1, 2])
@numpy_simt_allclose()
def test_repeat_per_element_counts(xp, rng, axis):
    a = sample(xp, rng, (3, 4, 5), np.float64, "strided")
    n = a.size if axis is None else a.shape[axis]
    counts = rng.integers(0, 4, size=n)
    return xp.repeat(a, counts, axis), xp.repeat(a, counts.tolist(), axis)


def test_repeat_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(ValueError, "negative dimensions are not allowed", lambda xp: xp.repeat(xp.asarray(a), -1))
    assert_both_raise(ValueError, r"could not be broadcast together with shape \(6,\) \(2,\)",
                      lambda xp: xp.repeat(xp.asarray(a), [1, 2]))
    assert_both_raise(np.exceptions.AxisError, "axis 3 is out of bounds", lambda xp: xp.repeat(xp.asarray(a), 2, 3))
    with pytest.raises(ValueError, match="repeats must be an int or a host sequence"):  # as CuPy
        simt.repeat(simt.asarray(a), simt.asarray([1, 2, 3]), axis=1)


# ---- diff -------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES + [np.uint8])
@pytest.mark.parametrize("shape", [(0,), (1,), (9,), (3, 4, 5)], ids=str)
@pytest.mark.parametrize("n", [0, 1, 2, 4])
@numpy_simt_allclose()
def test_diff(xp, rng, dtype, shape, n):
    a = sample(xp, rng, shape, dtype, "strided" if len(shape) > 1 else "contiguous")
    return xp.diff(a, n), xp.diff(a, n, axis=0)


@pytest.mark.parametrize("prepend,append", [(0, None), (None, 2.5), ("array", "array"), (np.int8(3), "array")],
                         ids=str)
@numpy_simt_allclose()
def test_diff_prepend_append(xp, rng, prepend, append):
    a = make(xp, rng, (3, 4), np.int16)
    edge = make(xp, rng, (3, 2), np.int16)
    kwargs = {name: (edge if v == "array" else v) for name, v in (("prepend", prepend), ("append", append))
              if v is not None}
    return xp.diff(a, axis=1, **kwargs), xp.diff(a, 2, axis=-1, **kwargs)


def test_diff_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(ValueError, "order must be non-negative but got -1", lambda xp: xp.diff(xp.asarray(a), -1))
    assert_both_raise(ValueError, "diff requires input that is at least one dimensional",
                      lambda xp: xp.diff(xp.asarray(np.float64(1))))
    assert_both_raise(TypeError, "cannot be interpreted as an integer", lambda xp: xp.diff(xp.asarray(a), 1.5))
    assert_both_raise(np.exceptions.AxisError, "axis 3 is out of bounds", lambda xp: xp.diff(xp.asarray(a), axis=3))


# ---- meshgrid ---------------------------------------------------------------------------------
@pytest.mark.parametrize("indexing", ["xy", "ij"])
@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("lengths", [(), (4,), (3, 5), (2, 0, 4), (2, 3, 4)], ids=str)
@numpy_simt_allclose()
def test_meshgrid(xp, rng, indexing, sparse, copy, lengths):
    vectors = [sample(xp, rng, (n,), dt, "strided") for n, dt in zip(lengths, [np.float32, np.int32, np.float64])]
    return xp.meshgrid(*vectors, indexing=indexing, sparse=sparse, copy=copy)


@numpy_simt_allclose()
def test_meshgrid_flattens_inputs_and_copies(xp, rng):
    x, y = make(xp, rng, (2, 3), np.float64), make(xp, rng, (4,), np.float64)
    gx, gy = xp.meshgrid(x, y)
    gx[0, 0] = 100.0  # a copy: x is unchanged
    return gx, gy, x


def test_meshgrid_errors():
    assert_both_raise(ValueError, "Valid values for `indexing` are 'xy' and 'ij'.",
                      lambda xp: xp.meshgrid(xp.asarray([1.0]), indexing="q"))


# ---- split family -----------------------------------------------------------------------------
@pytest.mark.parametrize("sections,axis", [(3, 0), (2, 1), (1, 2), (5, 2), ([1, 3], 1), ([], 0), ([-2, 10], 2),
                                           ([2, 1], 1)], ids=str)
@numpy_simt_allclose(accept_error=(ValueError,))
def test_split(xp, rng, sections, axis):
    a = sample(xp, rng, (3, 4, 5), np.float32, "strided")
    return xp.split(a, sections, axis)


@pytest.mark.parametrize("sections,axis", [(3, 1), (4, 2), (7, 0), ([0, 2], -1)], ids=str)
@numpy_simt_allclose()
def test_array_split(xp, rng, sections, axis):
    return xp.array_split(sample(xp, rng, (3, 4, 5), np.int32, "strided"), sections, axis)


@numpy_simt_allclose()
def test_hsplit_vsplit_dsplit(xp, rng):
    a = make(xp, rng, (4, 6, 2), np.float64)
    v = make(xp, rng, (6,), np.bool_)
    return xp.hsplit(a, 3), xp.hsplit(v, [1, 4]), xp.vsplit(a, 2), xp.dsplit(a, [1])


@numpy_simt_allclose()
def test_split_pieces_are_views(xp, rng):
    a = make(xp, rng, (4, 6), np.float64)
    xp.split(a, 2, axis=1)[1][0, 0] = -50.0
    return a


def test_split_errors():
    a = np.arange(6.0)
    assert_both_raise(ValueError, "array split does not result in an equal division",
                      lambda xp: xp.split(xp.asarray(a), 4))
    assert_both_raise(ValueError, r"number sections must be larger than 0\.",
                      lambda xp: xp.array_split(xp.asarray(a), 0))
    assert_both_raise(ValueError, "hsplit only works on arrays of 1 or more dimensions",
                      lambda xp: xp.hsplit(xp.asarray(a[0]), 2))
    assert_both_raise(ValueError, "vsplit only works on arrays of 2 or more dimensions",
                      lambda xp: xp.vsplit(xp.asarray(a), 2))
    assert_both_raise(ValueError, "dsplit only works on arrays of 3 or more dimensions",
                      lambda xp: xp.dsplit(xp.asarray(a.reshape(2, 3)), 2))


# ---- joining: column_stack, dstack, atleast_3d -------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@numpy_simt_allclose()
def test_column_stack_dstack_atleast_3d(xp, rng, dtype):
    v, w = sample(xp, rng, (4,), dtype, "strided"), make(xp, rng, (4,), np.float32)
    m = sample(xp, rng, (4, 3), dtype, "strided")
    s = make(xp, rng, (), dtype)
    return (xp.column_stack([v, m, w]), xp.column_stack((s,)), xp.dstack([m, m]), xp.dstack([v, w]), xp.dstack([s, s]),
            xp.atleast_3d(s), xp.atleast_3d(v), xp.atleast_3d(m), xp.atleast_3d(make(xp, rng, (2, 3, 4, 1), dtype)))


def test_joining_errors():
    assert_both_raise(ValueError, "need at least one array to concatenate", lambda xp: xp.dstack([]))
    assert_both_raise(ValueError, "need at least one array to concatenate", lambda xp: xp.column_stack([]))
    assert_both_raise(ValueError, "all the input array dimensions except for the concatenation axis must match",
                      lambda xp: xp.column_stack([xp.asarray(np.ones(2)), xp.asarray(np.ones(3))]))


# ---- flatten ----------------------------------------------------------------------------------
@parametrize_dtypes("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("order", ["C", "F"])
@numpy_simt_allclose()
def test_flatten(xp, rng, dtype, shape, order):
    a = sample(xp, rng, shape, dtype, "strided")
    flat = a.flatten(order)
    if flat.size:
        flat[0] = flat[-1]  # a copy: `a` is unchanged
    return flat, a
