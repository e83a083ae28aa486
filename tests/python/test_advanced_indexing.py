"""Advanced indexing against NumPy: integer index arrays (simt, NumPy, lists), boolean masks,
mixes with basic indices, broadcasting of index arrays, the moved-to-front rule, negative
indices, empty results, non-contiguous operands; assignment through them; and the errors."""
import numpy as np
import pytest

import simt
from xp_testing import ALL, make, numpy_simt_allclose, numpy_simt_raises, parametrize_dtypes

KINDS = ["device", "numpy", "list"]


def as_index(xp, host, kind):
    """An index in one of the forms a user passes: an xp array, a NumPy array, or a list."""
    if kind == "device":
        return xp.asarray(host)
    return host if kind == "numpy" else host.tolist()


def ints(rng, n, shape):
    """Random indices for an axis of size n, negative ones included."""
    return rng.integers(-n, n, size=shape)


def mask(rng, shape):
    return rng.random(shape) < 0.5


# Keys for a (4, 5, 6) source: functions of (xp, rng, kind).
KEYS_3D = {
    "rows": lambda xp, r, k: as_index(xp, ints(r, 4, (7,)), k),
    "rows_2d": lambda xp, r, k: as_index(xp, ints(r, 4, (2, 3)), k),
    "middle": lambda xp, r, k: (slice(None), as_index(xp, ints(r, 5, (3,)), k)),
    "last_by_ellipsis": lambda xp, r, k: (Ellipsis, as_index(xp, ints(r, 6, (2, 2)), k)),
    "two_adjacent": lambda xp, r, k: (slice(None), as_index(xp, ints(r, 5, (3,)), k), as_index(xp, ints(r, 6, (3,)), k)),
    "two_separated": lambda xp, r, k: (as_index(xp, ints(r, 4, (3,)), k), slice(1, 4), as_index(xp, ints(r, 6, (3,)), k)),
    "broadcast": lambda xp, r, k: (as_index(xp, ints(r, 4, (3, 1)), k), as_index(xp, ints(r, 5, (2,)), k)),
    "three": lambda xp, r, k: tuple(as_index(xp, ints(r, n, (2, 3)), k) for n in (4, 5, 6)),
    "int_then_slice_then_array": lambda xp, r, k: (1, slice(None), as_index(xp, ints(r, 6, (4,)), k)),
    "slice_int_array": lambda xp, r, k: (slice(None, None, -1), 2, as_index(xp, ints(r, 6, (4,)), k)),
    "newaxis_separates": lambda xp, r, k: (as_index(xp, ints(r, 4, (2,)), k), None, as_index(xp, ints(r, 5, (2,)), k)),
    "newaxes_around": lambda xp, r, k: (None, as_index(xp, ints(r, 4, (3,)), k), slice(None, None, 2), None),
    "step_slices": lambda xp, r, k: (slice(1, None, 2), as_index(xp, ints(r, 5, (5,)), k), slice(None, None, -3)),
    "mask_full": lambda xp, r, k: as_index(xp, mask(r, (4, 5, 6)), k),
    "mask_leading": lambda xp, r, k: as_index(xp, mask(r, (4, 5)), k),
    "mask_middle": lambda xp, r, k: (slice(None), as_index(xp, mask(r, (5,)), k)),
    "mask_trailing": lambda xp, r, k: (Ellipsis, as_index(xp, mask(r, (5, 6)), k)),
    "mask_then_slice": lambda xp, r, k: (as_index(xp, mask(r, (4,)), k), slice(1, 3), 0),
    "mask_all_false": lambda xp, r, k: as_index(xp, np.zeros((4, 5), bool), k),
    "mask_all_true": lambda xp, r, k: (0, as_index(xp, np.ones((5, 6), bool), k)),
    "empty_list": lambda xp, r, k: (slice(None), as_index(xp, np.zeros((0,), np.int64), k)),
    "empty_2d_index": lambda xp, r, k: as_index(xp, np.zeros((2, 0), np.int64), k),
    "uint_index": lambda xp, r, k: (slice(None), as_index(xp, r.integers(0, 5, 4).astype(np.uint8), k)),
    "int32_index": lambda xp, r, k: as_index(xp, ints(r, 4, (3,)).astype(np.int32), k),
    "zero_d_int_array": lambda xp, r, k: (np.array(2), slice(None), as_index(xp, ints(r, 6, (3,)), k)),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", list(KEYS_3D))
@numpy_simt_allclose()
def test_getitem_3d(xp, rng, name, kind):
    a = make(xp, rng, (4, 5, 6), np.float32)
    return a[KEYS_3D[name](xp, rng, kind)]


@pytest.mark.parametrize("name", ["rows", "two_separated", "mask_leading", "broadcast", "three", "mask_then_slice"])
@numpy_simt_allclose()
def test_getitem_non_contiguous_source_and_indices(xp, rng, name):
    base = make(xp, rng, (8, 5, 12), np.int64)
    a = base[::2, :, ::-2]  # (4, 5, 6), strided and reversed
    key = KEYS_3D[name](xp, rng, "device")
    if not isinstance(key, tuple):
        key = (key,)
    # Index arrays that are themselves strided views.
    key = tuple(xp.stack([k, k])[1, ..., ::-1] if hasattr(k, "ndim") and k.ndim >= 1 and k.dtype.kind != "b" else k
                for k in key)
    return a[key]


@parametrize_dtypes("dtype", ALL)
@numpy_simt_allclose()
def test_getitem_all_dtypes(xp, rng, dtype):
    a = make(xp, rng, (6, 7), dtype)
    rows = xp.asarray(ints(rng, 6, (5,)))
    m = xp.asarray(mask(rng, (6, 7)))
    return a[rows], a[:, [-1, 0, 3]], a[m], a[rows, 2:5]


@numpy_simt_allclose()
def test_getitem_1d_and_bool_lists(xp, rng):
    a = make(xp, rng, (10,), np.float64)
    flags = (rng.random(10) < 0.5).tolist()
    return a[flags], a[[3, -1, 3, 0]], a[ints(rng, 10, (2, 2, 2))], a[a > 0]


@pytest.mark.parametrize("scalar", [True, False, np.True_, np.False_, "device_true", "device_false"])
@numpy_simt_allclose()
def test_zero_d_boolean_index(xp, rng, scalar):
    a = make(xp, rng, (3, 4), np.int32)
    if isinstance(scalar, str):
        scalar = xp.asarray(scalar == "device_true")
    return a[scalar], a[1, scalar], a[scalar, :, [2]], a[..., scalar]


@numpy_simt_allclose()
def test_mask_combined_with_index_array(xp, rng):
    a = make(xp, rng, (4, 5, 6), np.float64)
    m = mask(rng, (4, 5))
    m[0, 0] = True
    count = int(m.sum())
    cols = ints(rng, 6, (count,))
    m1 = mask(rng, (5,))
    m1[2] = True
    return a[xp.asarray(m), xp.asarray(cols)], a[ints(rng, 4, (int(m1.sum()),)), m1]


@numpy_simt_allclose()
def test_getitem_results_are_copies(xp, rng):
    a = make(xp, rng, (5, 4), np.float64)
    b = a[[0, 1]]
    b[...] = 0
    c = a[xp.asarray(mask(rng, (5,)))]
    c[...] = 7
    return a


# ---- assignment ------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", ["rows", "middle", "two_adjacent", "two_separated", "broadcast",
                                  "int_then_slice_then_array", "newaxis_separates", "mask_full", "mask_leading",
                                  "mask_middle", "mask_all_false", "empty_list", "step_slices"])
@numpy_simt_allclose()
def test_setitem_scalar(xp, rng, name, kind):
    a = make(xp, rng, (4, 5, 6), np.float64)
    a[KEYS_3D[name](xp, rng, kind)] = -7.5
    return a


def _unique_ints(rng, n, count):
    """Distinct indices (negative ones included), so assignment order does not matter."""
    return rng.permutation(n)[:count] - rng.integers(0, 2, count) * n


@pytest.mark.parametrize("value_kind", ["device", "numpy", "list", "row"])
@numpy_simt_allclose()
def test_setitem_arrays(xp, rng, value_kind):
    a = make(xp, rng, (4, 5, 6), np.float32)
    rows = xp.asarray(_unique_ints(rng, 4, 3))
    cols = _unique_ints(rng, 6, 3)
    shape = (3, 5) if value_kind != "row" else (5,)  # a[rows, :, cols] has shape (3, 5)
    value = make(np, rng, shape, np.float64)
    value = {"device": xp.asarray(value), "numpy": value, "list": value.tolist(), "row": xp.asarray(value)}[value_kind]
    a[rows, :, cols] = value
    return a


@parametrize_dtypes("dtype", ALL)
@numpy_simt_allclose()
def test_setitem_all_dtypes_with_casts(xp, rng, dtype):
    a = make(xp, rng, (6, 7), dtype)
    m = xp.asarray(mask(rng, (6, 7)))
    a[m] = 1
    rows = _unique_ints(rng, 6, 4)
    a[rows, 1:3] = make(xp, rng, (4, 2), dtype)
    a[:, xp.asarray([0, -1])] = abs(make(xp, rng, (6, 1), np.float64))  # cast float64 → dtype (broadcast)
    return a


@numpy_simt_allclose()
def test_setitem_with_mask_of_itself(xp, rng):
    a = make(xp, rng, (50, 3), np.float64)
    a[a < 0] = 0
    b = make(xp, rng, (40,), np.int64)
    b[b > 5] = b[b > 5] * 10  # values read from the array being written
    c = make(xp, rng, (7, 8), np.float32)[:, ::-2]
    c[c > 1] = xp.asarray(np.array([0.25]))  # a one-element array value
    c[c < -1] = c[0, 0]  # a 0-d view of the destination as the value
    empty = make(xp, rng, (2, 0, 3), np.int8)
    empty[empty > 0] = 1
    return a, b, c, empty, empty[empty > 0], c[c > 0]


@numpy_simt_allclose()
def test_setitem_overlapping_source(xp, rng):
    a = make(xp, rng, (10,), np.int32)
    a[[1, 2, 3, 4]] = a[0:4]  # the value aliases the destination
    b = make(xp, rng, (6, 6), np.float64)
    b[:, [0, 1, 2]] = b[:, 1:4]
    return a, b


@numpy_simt_allclose()
def test_setitem_non_contiguous_destination(xp, rng):
    base = make(xp, rng, (8, 9), np.float64)
    a = base[::2, ::-3]  # (4, 3)
    a[[0, 2], :] = make(xp, rng, (2, 3), np.float64)
    a[xp.asarray(mask(rng, (4, 3)))] = 5.0
    return base


def test_repeated_indices_write_one_of_the_values(rng):
    # Threads race for repeated indices: one of the values lands there (NumPy: the last one).
    a = simt.zeros(5, np.int64)
    idx = simt.asarray(np.array([1, 3, 1, 1, 3]))
    a[idx] = simt.asarray(np.array([10, 20, 30, 40, 50]))
    got = a.get()
    assert got[1] in (10, 30, 40) and got[3] in (20, 50) and got[[0, 2, 4]].tolist() == [0, 0, 0]
    b = simt.zeros(5, np.int64)
    b[[2, 2, 2]] = 9  # the same value: deterministic
    assert b.get().tolist() == [0, 0, 9, 0, 0]


# ---- errors ----------------------------------------------------------------------------------

ERROR_KEYS = {
    "out_of_range_device": lambda xp: xp.asarray(np.array([0, 4])),
    "out_of_range_negative": lambda xp: (slice(None), xp.asarray(np.array([-6]))),
    "out_of_range_numpy": lambda xp: np.array([4]),
    "out_of_range_list": lambda xp: [[0], [9]],
    "out_of_range_int_with_array": lambda xp: (9, [0]),
    "mask_shape": lambda xp: xp.asarray(np.ones((4, 4), bool)),
    "mask_length": lambda xp: (slice(None), [True, False]),
    "float_index_device": lambda xp: xp.asarray(np.array([1.0])),
    "float_index_numpy": lambda xp: np.array([0.0, 1.0]),
    "float_list": lambda xp: [1.0, 2.0],
    "not_broadcastable": lambda xp: ([0, 1], [0, 1, 2]),
    "too_many": lambda xp: ([0], 0, 0, 0),
    "two_ellipses": lambda xp: (Ellipsis, [0], Ellipsis),
    "object_list": lambda xp: [0, None],
    "string_in_tuple": lambda xp: ([0], "a"),
}


@pytest.mark.parametrize("name", list(ERROR_KEYS))
@numpy_simt_raises(IndexError)
def test_getitem_errors(xp, name):
    a = xp.zeros((4, 5, 6))
    a[ERROR_KEYS[name](xp)]


@pytest.mark.parametrize("name", ["out_of_range_device", "out_of_range_negative", "mask_shape", "float_index_numpy"])
@numpy_simt_raises(IndexError)
def test_setitem_errors(xp, name):
    a = xp.zeros((4, 5, 6))
    a[ERROR_KEYS[name](xp)] = 1


@numpy_simt_raises(ValueError)
def test_setitem_value_shape_mismatch(xp):
    a = xp.zeros((4, 5))
    a[[0, 1]] = xp.ones((3, 5))


def test_out_of_range_message_names_axis_index_and_size():
    a = simt.zeros((4, 5, 6))
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 1 with size 5"):
        a[None, :, simt.asarray(np.array([0, 7]))]
    with pytest.raises(IndexError, match="index -7 is out of bounds for axis 2 with size 6"):
        a[:, :, [-7]] = 1
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 1"):
        a[:, simt.asarray(np.ones(4, bool))]
    with pytest.raises(IndexError, match="integer \\(or boolean\\) type"):
        a[simt.asarray(np.array([0.5]))]
