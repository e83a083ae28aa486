"""NumPy's second batch (python/simt/_numpy_extras2.py, _numpy_extras3.py) against NumPy on fresh random data:
choose, select, piecewise, place, putmask, put_along_axis, insert, trim_zeros, the triangle and
diagonal index helpers, fill_diagonal, intersect1d, union1d, setxor1d, the unique_* family,
nancumsum/nancumprod, cumulative_sum/prod, rollaxis, unstack, row_stack, matvec, vecmat,
packbits/unpackbits, apply_along_axis, apply_over_axes, fromfunction, may_share_memory and
shares_memory (values, shapes, dtypes, errors, dispatch from NumPy)."""
import numpy as np
import pytest

import simt
from xp_testing import assert_both_raise, assert_same, make, numpy_simt_allclose, parametrize_dtypes


def strided(xp, rng, shape, dtype, **kwargs):
    """Random data of `shape` as a non-contiguous view (every other row, reversed columns)."""
    if len(shape) < 2:
        return make(xp, rng, tuple(2 * n for n in shape), dtype, **kwargs)[::2]
    big = make(xp, rng, (2 * shape[0], shape[1]) + tuple(shape[2:]), dtype, **kwargs)
    return big[::2, ::-1]


def test_exported_names_are_numpys_and_this_batchs():
    from simt import _numpy_extras, _numpy_extras2
    assert len(_numpy_extras2.__all__) == 71 - (not hasattr(np, "row_stack"))  # (gone from NumPy 2.5)
    for name in _numpy_extras2.__all__:
        assert hasattr(np, name), name
        assert getattr(simt, name).__module__ in ("simt._numpy_extras2", "simt._numpy_extras3", "simt._numpy_extras4",
                                                  "simt._poly1d")  # (poly*: their poly1d-aware forms)
        assert not hasattr(_numpy_extras, name), name  # (nothing of the first batch is redefined)


# ---- choose / select / piecewise ----------------------------------------------------------------
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@pytest.mark.parametrize("idx_dtype", [np.int64, np.int8, np.uint32, np.bool_], ids=str)
@numpy_simt_allclose()
def test_choose(xp, rng, mode, idx_dtype):
    hi = 2 if idx_dtype == np.bool_ else 3
    lo, hi = (0, hi) if mode == "raise" or idx_dtype in (np.uint32, np.bool_) else (-4, 7)
    idx = xp.asarray(rng.integers(lo, hi, size=(4, 5)).astype(idx_dtype))
    choices = [make(xp, rng, (4, 5), np.float32), make(xp, rng, (5,), np.int16), make(xp, rng, (4, 1), np.float64)]
    return xp.choose(idx, choices, mode=mode), xp.choose(idx[0], [choices[1], choices[0][0], 3.5], mode=mode)


@numpy_simt_allclose()
def test_choose_broadcast_scalars_and_out(xp, rng):
    idx = xp.asarray(rng.integers(0, 2, size=(3, 1)))
    a = make(xp, rng, (4,), np.float32)
    rows = make(xp, rng, (2, 4), np.int8)  # an array of choices: one per row
    out = xp.zeros((3, 4), np.float64)
    r = xp.choose(idx, [a, 2], out=out)
    assert r is out
    return (out, xp.choose(idx, rows), xp.choose(1, [a, a * 2]), xp.choose(idx, [rows[0], 200]),
            xp.choose(xp.zeros((0,), np.int64), [a[:0], 1]))


def test_choose_errors():
    c = [np.arange(3), np.arange(3) * 10]
    assert_both_raise(ValueError, "invalid entry in choice array",
                      lambda xp: xp.choose(xp.asarray([0, 2, 1]), [xp.asarray(v) for v in c]))
    assert_both_raise(ValueError, "invalid entry in choice array",
                      lambda xp: xp.choose(xp.asarray([0, -1, 1]), [xp.asarray(v) for v in c]))
    assert_both_raise(ValueError, "0-length sequence", lambda xp: xp.choose(xp.asarray([0]), []))
    assert_both_raise(ValueError, "clipmode must be one of",
                      lambda xp: xp.choose(xp.asarray([0]), [xp.asarray(c[0])], mode="bounce"))
    assert_both_raise(TypeError, "according to the rule 'safe'",
                      lambda xp: xp.choose(xp.asarray([0.0, 1.0, 1.0]), [xp.asarray(v) for v in c]))
    assert_both_raise(TypeError, "according to the rule 'safe'",
                      lambda xp: xp.choose(xp.asarray(np.array([0, 1], np.uint64)), [xp.asarray(v[:2]) for v in c]))
    assert_both_raise(ValueError, None, lambda xp: xp.choose(xp.asarray([0, 1]), [xp.ones(3), xp.ones(3)]))


@parametrize_dtypes("dtype", [np.float32, np.int8, np.complex64, np.uint16])
@numpy_simt_allclose()
def test_select(xp, rng, dtype):
    conds = [xp.asarray(rng.random((3, 5)) < 0.3), xp.asarray(rng.random((5,)) < 0.5),
             xp.asarray(rng.random((3, 1)) < 0.5)]
    seven = 7 if np.dtype(dtype).kind != "u" else np.uint16(7)  # (a Python int is int64 to NumPy's copyto)
    choices = [make(xp, rng, (3, 5), dtype), make(xp, rng, (5,), dtype), seven]
    return (xp.select(conds, choices), xp.select(conds, choices, default=-1 if dtype != np.uint16 else 9),
            xp.select(conds[:1], choices[:1], default=make(xp, rng, (), np.float64)),
            xp.select(conds[:2], [3, 4.5], 1))


def test_select_default_wraps_as_in_numpy():
    cond = [np.array([True, False])]
    want = np.select(cond, [np.array([1, 2], np.int8)], default=1000)
    got = simt.select([simt.asarray(cond[0])], [simt.asarray(np.array([1, 2], np.int8))], default=1000)
    assert_same(want, got)


def test_select_errors():
    assert_both_raise(TypeError, "invalid entry 0 in condlist: should be boolean ndarray",
                      lambda xp: xp.select([xp.asarray([1, 0])], [xp.asarray([1, 2])]))
    assert_both_raise(ValueError, "select with an empty condition list is not possible", lambda xp: xp.select([], []))
    assert_both_raise(ValueError, "list of cases must be same length as list of conditions",
                      lambda xp: xp.select([xp.asarray([True])], [1, 2]))
    assert_both_raise(ValueError, None,
                      lambda xp: xp.select([xp.ones(3, bool)], [xp.ones(4)]))
    assert_both_raise(TypeError, "according to the rule 'same_kind'",
                      lambda xp: xp.select([xp.ones(3, bool)] * 2, [xp.ones(3, xp.uint16), 7]))


@parametrize_dtypes("dtype", [np.float64, np.int32, np.float32])
@numpy_simt_allclose()
def test_piecewise(xp, rng, dtype):
    x = make(xp, rng, (4, 6), dtype)
    lo, hi = x < -1, x > 2
    return (xp.piecewise(x, [lo, hi], [lambda v: -v, lambda v: v * 10, 7]),
            xp.piecewise(x, [lo, hi], [lambda v, k: v + k, 3], 5),
            xp.piecewise(x, [lo, hi], [lambda v, k=0: v * k, lambda v, k=0: v - k, lambda v, k=0: v], k=2),
            xp.piecewise(x[0], lo[0], [lambda v: v ** 2]),
            xp.piecewise(x[0], xp.stack([lo[0], hi[0]]), [lambda v: v - 1, 4]),  # (an array of conditions)
            xp.piecewise(x[0], [lo[0]], [1.5, lambda v: v / 2]),
            xp.piecewise(x[:0], [lo[:0]], [lambda v: v + 1]))


@numpy_simt_allclose()
def test_piecewise_0d_and_lists(xp):
    x = xp.asarray(3.0)
    return (xp.piecewise(x, True, [1.5]), xp.piecewise(x, [False, True], [1.5, lambda v: v * 2]),
            xp.piecewise(xp.asarray([1.0, 2.0, 3.0]), [True, False, True], [lambda v: v + 10]))


def test_piecewise_errors():
    assert_both_raise(ValueError, r"with 1 condition\(s\), either 1 or 2 functions are expected",
                      lambda xp: xp.piecewise(xp.arange(5.0), [xp.arange(5.0) < 2], [1, 2, 3]))
    assert_both_raise(IndexError, None,
                      lambda xp: xp.piecewise(xp.arange(5.0), [xp.ones(3, bool)], [1]))


# ---- place / putmask / put_along_axis / fill_diagonal ------------------------------------------------
@parametrize_dtypes("dtype", [np.float64, np.int16, np.complex64, np.bool_])
def test_place_and_putmask(rng, dtype):
    for shape in [(4, 5), (7,), (2, 3, 4), ()]:
        base = make(np, rng, shape, dtype)
        mask = rng.random(shape) < 0.5
        for vals in ([make(np, rng, (3,), dtype)], [make(np, rng, (1,), dtype)], [make(np, rng, (2, 2), dtype)]):
            v = vals[0]
            want_place, want_put = base.copy(), base.copy()
            np.place(want_place, mask, v)
            np.putmask(want_put, mask, v)
            got_place, got_put = simt.asarray(base), simt.asarray(base)
            assert simt.place(got_place, simt.asarray(mask), simt.asarray(v)) is None
            assert simt.putmask(got_put, simt.asarray(mask), simt.asarray(v)) is None
            assert_same(want_place, got_place)
            assert_same(want_put, got_put)


def test_place_putmask_views_casts_and_lists(rng):
    base = rng.standard_normal((6, 8))
    for fn in ("place", "putmask"):
        want, got = base.copy(), simt.asarray(base)
        view_w, view_g = want[::2, ::-3], got[::2, ::-3]
        mask = rng.random(view_w.shape) < 0.5
        getattr(np, fn)(view_w, mask, [1.5, -2.5, 3.5])
        getattr(simt, fn)(view_g, simt.asarray(mask), [1.5, -2.5, 3.5])
        assert_same(want, got)
        ints_w, ints_g = np.arange(6), simt.arange(6)
        getattr(np, fn)(ints_w, ints_w > 2, [10.7, 20.2])  # (lists convert unsafely, as in NumPy)
        getattr(simt, fn)(ints_g, ints_g > 2, [10.7, 20.2])
        assert_same(ints_w, ints_g)
        small_w, small_g = np.arange(6, dtype=np.int8), simt.arange(6, dtype=np.int8)
        getattr(np, fn)(small_w, small_w > 2, 7)
        getattr(simt, fn)(small_g, small_g > 2, 7)
        assert_same(small_w, small_g)


def test_place_putmask_errors():
    def on(fn, vals, mask_size=6):
        def call(xp):
            a = xp.arange(6.0)
            getattr(xp, fn)(a, xp.asarray(np.arange(mask_size) > 2), vals)
        return call
    assert_both_raise(ValueError, "place: mask and data must be the same size", on("place", [1.0], 5))
    assert_both_raise(ValueError, "putmask: mask and data must be the same size", on("putmask", [1.0], 5))
    assert_both_raise(ValueError, "Cannot insert from an empty array!", on("place", []))
    assert_both_raise(OverflowError, None,
                      lambda xp: xp.putmask(xp.arange(6, dtype=xp.int8), xp.ones(6, bool), 1000))
    assert_both_raise(TypeError, "according to the rule 'safe'",
                      lambda xp: xp.putmask(xp.arange(6, dtype=xp.int8), xp.ones(6, bool), xp.asarray([1000])))
    a = np.arange(6.0)
    np.place(a, a > 7, [])  # no True: nothing to insert, no error
    d = simt.arange(6.0)
    simt.place(d, d > 7, [])
    np.putmask(a, a > 2, [])
    simt.putmask(d, d > 2, [])
    assert_same(a, d)
    with pytest.raises(TypeError, match="host data"):
        simt.place(np.ones(3), simt.ones(3, bool), 1.0)
    with pytest.raises(TypeError, match="must be a simt array"):
        simt.putmask([1.0, 2.0], simt.ones(2, bool), 1.0)


@pytest.mark.parametrize("shape,axis", [((6,), 0), ((4, 5), 0), ((4, 5), 1), ((4, 5), -1), ((3, 4, 5), -2),
                                        ((3, 4, 5), 0)], ids=str)
def test_put_along_axis_with_argsort(rng, shape, axis):
    h = rng.standard_normal(shape)
    order = np.argsort(h, axis=axis)
    for values in (rng.standard_normal(shape), 7.5):
        want = h.copy()
        np.put_along_axis(want, order, values, axis=axis)
        got = simt.asarray(h)
        vals = simt.asarray(values) if isinstance(values, np.ndarray) else values
        assert simt.put_along_axis(got, simt.asarray(order), vals, axis=axis) is None
        assert_same(want, got)


def test_put_along_axis_broadcast_none_and_errors(rng):
    h = rng.standard_normal((3, 4))
    picks = rng.integers(-4, 4, size=(3, 1))
    want, got = h.copy(), simt.asarray(h)
    np.put_along_axis(want, picks, np.array([[1.0], [2.0], [3.0]]), axis=1)
    simt.put_along_axis(got, simt.asarray(picks), simt.asarray([[1.0], [2.0], [3.0]]), axis=1)
    assert_same(want, got)
    np.put_along_axis(want, np.array([0, 5, 11]), np.array([7.0, 8.0, 9.0]), axis=None)
    simt.put_along_axis(got, simt.asarray([0, 5, 11]), simt.asarray([7.0, 8.0, 9.0]), axis=None)
    assert_same(want, got)
    a = np.arange(12.0).reshape(3, 4)
    assert_both_raise(IndexError, "must be an integer array",
                      lambda xp: xp.put_along_axis(xp.asarray(a), xp.asarray(a[:, :1]), 1.0, 1))
    assert_both_raise(ValueError, "same number of dimensions",
                      lambda xp: xp.put_along_axis(xp.asarray(a), xp.asarray([0, 1]), 1.0, 1))
    assert_both_raise(ValueError, "must have a single dimension",
                      lambda xp: xp.put_along_axis(xp.asarray(a), xp.zeros((1, 1), int), 1.0, None))
    assert_both_raise(np.exceptions.AxisError, None,
                      lambda xp: xp.put_along_axis(xp.asarray(a), xp.zeros((1, 1), int), 1.0, 2))
    assert_both_raise(IndexError, None,
                      lambda xp: xp.put_along_axis(xp.asarray(a), xp.asarray(np.full((3, 1), 4)), 1.0, 1))


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 3), (7, 2), (3, 3, 3), (2, 2, 2, 2), (1, 1), (0, 0)], ids=str)
@pytest.mark.parametrize("wrap", [False, True])
def test_fill_diagonal(rng, shape, wrap):
    h = rng.standard_normal(shape)
    for val in (2.5, rng.standard_normal(2), rng.standard_normal(9)):
        want, got = h.copy(), simt.asarray(h)
        np.fill_diagonal(want, val, wrap=wrap)
        assert simt.fill_diagonal(got, simt.asarray(val) if np.ndim(val) else val, wrap=wrap) is None
        assert_same(want, got)
    ints_w, ints_g = np.zeros(shape, np.int32), simt.zeros(shape, np.int32)
    np.fill_diagonal(ints_w, [3, 4], wrap=wrap)
    simt.fill_diagonal(ints_g, [3, 4], wrap=wrap)
    assert_same(ints_w, ints_g)


def test_fill_diagonal_errors():
    assert_both_raise(ValueError, "array must be at least 2-d", lambda xp: xp.fill_diagonal(xp.zeros(3), 1))
    assert_both_raise(ValueError, "All dimensions of input must be of equal length",
                      lambda xp: xp.fill_diagonal(xp.zeros((3, 3, 2)), 1))


# ---- insert ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("obj", [0, 2, -1, 4, -4, np.int64(1), [1], [0, 2, -1], [3, 1, 1], [4, 0], [], slice(1, 3),
                                 slice(None, None, -1), slice(0, 4, 2)], ids=str)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@numpy_simt_allclose()
def test_insert(xp, rng, obj, axis):
    a = strided(xp, rng, (4, 4), np.float32)
    if isinstance(obj, slice):
        count = len(range(*obj.indices(16 if axis is None else 4)))
    else:
        count = np.size(obj)
    values = 9.5
    if count > 1:  # one value per inserted slice, lined up with the axis
        values = make(xp, rng, (count,) + ((1,) if axis == 0 else ()), np.float64)
    return xp.insert(a, obj, values, axis=axis), xp.insert(a, obj, 3, axis=axis)


@numpy_simt_allclose()
def test_insert_blocks_and_casts(xp, rng):
    a = make(xp, rng, (2, 3), np.int32)
    col = make(xp, rng, (2,), np.int32)
    return (xp.insert(a, 1, col, axis=1),  # a scalar index: values run along the axis
            xp.insert(a, [1], col.reshape(2, 1), axis=1),  # a one-element sequence: a block
            xp.insert(a, 1, [7, 8, 9], axis=0), xp.insert(a, 3, 2.7, axis=1), xp.insert(a, 0, [[1], [2]], axis=1),
            xp.insert(a, [2, 0, 2], [10, 20, 30], axis=1), xp.insert(a[0], xp.asarray([1, 3]), [5, 6]),
            xp.insert(xp.asarray(3.0), 0, 9), xp.insert(a, slice(0, 2), [10, 20], axis=1),
            xp.insert(xp.zeros((0,), np.int8), 0, [1, 2]))


def test_insert_errors():
    a = np.arange(6).reshape(2, 3)
    assert_both_raise(IndexError, "out of bounds", lambda xp: xp.insert(xp.asarray(a), 7, 9))
    assert_both_raise(IndexError, "out of bounds", lambda xp: xp.insert(xp.asarray(a), -7, 9))
    assert_both_raise(IndexError, "out of bounds", lambda xp: xp.insert(xp.asarray(a), [1, 7], 9))
    assert_both_raise(ValueError, None, lambda xp: xp.insert(xp.asarray(a), [0, 1], [1, 2, 3], axis=1))
    assert_both_raise(ValueError, None, lambda xp: xp.insert(xp.asarray(a), 1, [7, 8], axis=0))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.insert(xp.asarray(a), 1, 7, axis=2))
    assert_both_raise(TypeError, None, lambda xp: xp.insert(xp.asarray(a), slice(0.5, 2), 7))


# ---- trim_zeros ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("trim", ["fb", "f", "b", "B", "bf"])
@parametrize_dtypes("dtype", [np.float64, np.int8, np.bool_, np.complex64])
@numpy_simt_allclose()
def test_trim_zeros(xp, rng, trim, dtype):
    h = make(np, rng, (9,), dtype)
    h[:2] = 0
    h[-3:] = 0
    m = make(np, rng, (5, 6), dtype)
    m[0] = 0
    m[:, -2:] = 0
    return (xp.trim_zeros(xp.asarray(h), trim), xp.trim_zeros(xp.asarray(m), trim),
            xp.trim_zeros(xp.asarray(m), trim, axis=1), xp.trim_zeros(xp.asarray(m), trim, axis=-2),
            xp.trim_zeros(xp.zeros(4, dtype), trim), xp.trim_zeros(xp.zeros((2, 3), dtype), trim),
            xp.trim_zeros(xp.zeros((0,), dtype), trim))


def test_trim_zeros_special():
    h = np.array([0.0, -0.0, np.nan, 1.0, 0.0])
    assert_same(np.trim_zeros(h), simt.trim_zeros(simt.asarray(h)))
    d = simt.asarray(np.array([0, 3, 0]))
    assert simt.trim_zeros(d).shape == (1,) and simt.trim_zeros(d)._ptr == d._ptr + 8  # a view
    assert simt.trim_zeros(simt.asarray(0.0)).shape == ()
    for trim in ("x", "", "fx"):
        assert_both_raise(ValueError, "unexpected character", lambda xp: xp.trim_zeros(xp.asarray([0, 1, 0]), trim))


# ---- index helpers -------------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [(4,), (4, 1), (4, -1), (3, 0, 5), (5, 2, 3), (0,), (3, 10), (3, -10, 2)], ids=str)
@numpy_simt_allclose()
def test_tril_triu_indices(xp, args):
    return xp.tril_indices(*args), xp.triu_indices(*args)


@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (5, 2), (0, 3)], ids=str)
@pytest.mark.parametrize("k", [0, 1, -2])
@numpy_simt_allclose()
def test_triangle_indices_from_and_use(xp, rng, shape, k):
    a = make(xp, rng, shape, np.float32)
    lo, up = xp.tril_indices_from(a, k), xp.triu_indices_from(a, k=k)
    return lo, up, a[lo], a[up]


@numpy_simt_allclose()
def test_diag_indices(xp, rng):
    a = make(xp, rng, (3, 3, 3), np.int16)
    d = xp.diag_indices_from(a)
    return xp.diag_indices(4), xp.diag_indices(2, 3), xp.diag_indices(0), d, a[d], xp.diag_indices_from(a[0])


def test_index_helper_errors():
    assert_both_raise(ValueError, "input array must be 2-d", lambda xp: xp.tril_indices_from(xp.ones((2, 2, 2))))
    assert_both_raise(ValueError, "input array must be 2-d", lambda xp: xp.triu_indices_from(xp.ones(3)))
    assert_both_raise(ValueError, "input array must be at least 2-d", lambda xp: xp.diag_indices_from(xp.ones(2)))
    assert_both_raise(ValueError, "All dimensions of input must be of equal length",
                      lambda xp: xp.diag_indices_from(xp.ones((2, 3))))
    i, j = simt.diag_indices(3)
    assert i is j  # (NumPy hands out one array ndim times too)


# ---- sets ------------------------------------------------------------------------------------------------
SET_DTYPES = [(np.int32, np.int32), (np.float64, np.int16), (np.uint8, np.uint8), (np.int8, np.float32),
              (np.complex64, np.complex64)]


def set_operands(xp, rng, da, db, shape_a=(4, 5), shape_b=(12,), unique_=False):
    if unique_:
        a = rng.permutation(30)[:int(np.prod(shape_a))].reshape(shape_a)
        b = rng.permutation(30)[:int(np.prod(shape_b))].reshape(shape_b)
    else:
        a, b = rng.integers(0, 15, size=shape_a), rng.integers(0, 15, size=shape_b)
    return xp.asarray(a.astype(da)), xp.asarray(b.astype(db))


@pytest.mark.parametrize("da,db", SET_DTYPES, ids=str)
@pytest.mark.parametrize("assume_unique", [False, True])
@numpy_simt_allclose()
def test_intersect1d(xp, rng, da, db, assume_unique):
    a, b = set_operands(xp, rng, da, db, unique_=assume_unique)
    return (xp.intersect1d(a, b, assume_unique), xp.intersect1d(a, b, assume_unique, return_indices=True),
            xp.intersect1d(a[:0], b, assume_unique, True), xp.intersect1d(b, b[:0], assume_unique, True))


@pytest.mark.parametrize("da,db", SET_DTYPES, ids=str)
@numpy_simt_allclose()
def test_union1d_setxor1d(xp, rng, da, db):
    a, b = set_operands(xp, rng, da, db)
    ua, ub = set_operands(xp, rng, da, db, unique_=True)
    return (xp.union1d(a, b), xp.union1d(a[:0], b[:0]), xp.union1d(a, [20, 1]), xp.setxor1d(a, b),
            xp.setxor1d(ua, ub, assume_unique=True), xp.setxor1d(a, a), xp.setxor1d(a[:0], b))


@numpy_simt_allclose()
def test_sets_with_nans(xp):
    a = xp.asarray(np.array([1.0, np.nan, 2.0, np.nan, -0.0]))
    b = xp.asarray(np.array([np.nan, 2.0, 0.0, 5.0]))
    return xp.intersect1d(a, b, return_indices=True), xp.union1d(a, b), xp.setxor1d(a, b)


@parametrize_dtypes("dtype", [np.int64, np.float32, np.uint8, np.bool_])
def test_unique_family(rng, dtype):
    h = make(np, rng, (5, 6), dtype, low=0, high=6)
    if np.dtype(dtype).kind == "f":
        h[0, :3] = np.nan  # NaNs: each one distinct
    d = simt.asarray(h)
    assert_same(np.sort(np.unique_values(h)), simt.unique_values(d))  # (NumPy's come in no set order)
    assert_same(tuple(np.unique_counts(h)), tuple(simt.unique_counts(d)))
    if np.dtype(dtype).kind == "f":  # (the order among several NaNs' indices is NumPy's sort's own)
        h[0, 1:3] = 1.0
        d = simt.asarray(h)
    for name in ("unique_counts", "unique_inverse", "unique_all"):
        want, got = getattr(np, name)(h), getattr(simt, name)(d)
        assert type(got).__name__ == type(want).__name__ and got._fields == want._fields
        assert_same(tuple(want), tuple(got))
    e = simt.unique_all(d[:0])
    assert [x.shape for x in e] == [(0,), (0,), (0, 6), (0,)]
    assert_same(tuple(np.unique_inverse(h[:0])), tuple(simt.unique_inverse(d[:0])))


# ---- scans ---------------------------------------------------------------------------------------------------
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")  # (dtype=float64 for complex: as NumPy)
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@parametrize_dtypes("dtype", [np.float64, np.float32, np.complex128, np.int8, np.uint16])
@numpy_simt_allclose(rtol=1e-5)
def test_nancumsum_nancumprod(xp, rng, axis, dtype):
    h = make(np, rng, (4, 5), dtype, low=-2, high=2)
    if np.dtype(dtype).kind in "fc":
        h[rng.random(h.shape) < 0.3] = np.nan
    a = xp.asarray(h)
    return (xp.nancumsum(a, axis=axis), xp.nancumprod(a, axis=axis), xp.nancumsum(a, axis, dtype=np.float64),
            xp.nancumprod(a[:0], axis))


@pytest.mark.parametrize("kw", [{}, {"include_initial": True}, {"dtype": np.float32}, {"dtype": np.int64,
                                                                                        "include_initial": True}],
                         ids=str)
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@parametrize_dtypes("dtype", [np.float64, np.int8, np.uint8, np.bool_, np.complex64])
@numpy_simt_allclose(rtol=1e-5)
def test_cumulative_sum_prod(xp, rng, kw, dtype):
    m = make(xp, rng, (3, 4), dtype, low=-2, high=3)
    v = make(xp, rng, (5,), dtype, low=-2, high=3)
    return (xp.cumulative_sum(v, **kw), xp.cumulative_prod(v, **kw), xp.cumulative_sum(m, axis=0, **kw),
            xp.cumulative_prod(m, axis=-1, **kw), xp.cumulative_sum(v[:0], **kw), xp.cumulative_prod(m[:, :0], axis=1,
                                                                                                   **kw),
            xp.cumulative_sum(v[0], **kw))


def test_cumulative_out_and_errors():
    v = np.arange(1.0, 5.0)
    out = simt.empty(5)
    assert simt.cumulative_sum(simt.asarray(v), include_initial=True, out=out) is out
    assert_same(np.cumulative_sum(v, include_initial=True), out)
    assert_both_raise(ValueError, "``axis`` argument is required", lambda xp: xp.cumulative_sum(xp.ones((2, 2))))
    assert_both_raise(ValueError, "``axis`` argument is required", lambda xp: xp.cumulative_prod(xp.ones((2, 2))))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.cumulative_sum(xp.ones((2, 2)), axis=2))


# ---- axes / stacking / products ----------------------------------------------------------------------------
@pytest.mark.parametrize("axis,start", [(0, 0), (2, 0), (-1, 1), (1, 3), (0, 3), (3, -2), (1, -4), (2, 2)], ids=str)
@numpy_simt_allclose()
def test_rollaxis(xp, rng, axis, start):
    a = make(xp, rng, (2, 3, 4, 5), np.int16)
    r = xp.rollaxis(a, axis, start)
    if xp is simt:
        assert r._ptr == a._ptr  # a view
    return r


def test_rollaxis_errors():
    assert_both_raise(np.exceptions.AxisError, r"'start' arg requires -3 <= start < 4, but 5 was passed in",
                      lambda xp: xp.rollaxis(xp.ones((2, 3, 4)), 1, 5))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.rollaxis(xp.ones((2, 3, 4)), 3))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.rollaxis(xp.ones((2, 3, 4)), 0, -5))


@pytest.mark.parametrize("axis", [0, 1, -1, -3])
@numpy_simt_allclose()
def test_unstack(xp, rng, axis):
    a = strided(xp, rng, (3, 4, 2), np.float32)
    return xp.unstack(a, axis=axis), xp.unstack(a[:, :0], axis=axis)


def test_unstack_and_row_stack_errors():
    assert_both_raise(ValueError, "Input array must be at least 1-d", lambda xp: xp.unstack(xp.asarray(1.0)))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.unstack(xp.ones((2, 3)), axis=2))


@pytest.mark.skipif(not hasattr(np, "row_stack"), reason="NumPy 2.5 removed row_stack (simt exports it as NumPy does)")
@numpy_simt_allclose()
def test_row_stack(xp, rng):
    a, b = make(xp, rng, (3,), np.float32), make(xp, rng, (2, 3), np.int8)
    with pytest.warns(DeprecationWarning, match="`row_stack` alias is deprecated"):
        r1 = xp.row_stack([a, b])
    with pytest.warns(DeprecationWarning):
        r2 = xp.row_stack((b, b), dtype=np.int64)
    return r1, r2


MATVEC_DTYPES = [(np.float64, np.float64), (np.float32, np.int16), (np.complex128, np.complex64),
                 (np.int8, np.int8), (np.bool_, np.bool_)]


@pytest.mark.parametrize("da,db", MATVEC_DTYPES, ids=str)
@pytest.mark.parametrize("sa,sb", [((3, 4), (4,)), ((2, 3, 4), (4,)), ((3, 4), (5, 4)), ((2, 1, 3, 4), (5, 4)),
                                   ((0, 4), (4,)), ((3, 0), (0,))], ids=str)
@numpy_simt_allclose(rtol=1e-4)
def test_matvec(xp, rng, da, db, sa, sb):
    a = make(xp, rng, sa, da, low=-3, high=3)
    b = make(xp, rng, sb, db, low=-3, high=3)
    return xp.matvec(a, b)


@pytest.mark.parametrize("da,db", MATVEC_DTYPES, ids=str)
@pytest.mark.parametrize("sa,sb", [((4,), (4, 3)), ((2, 4), (4, 3)), ((5, 4), (2, 1, 4, 3)), ((0,), (0, 3))],
                         ids=str)
@numpy_simt_allclose(rtol=1e-4)
def test_vecmat(xp, rng, da, db, sa, sb):
    a = make(xp, rng, sa, da, low=-3, high=3)
    b = make(xp, rng, sb, db, low=-3, high=3)
    return xp.vecmat(a, b)


def test_matvec_vecmat_errors():
    assert_both_raise(ValueError, "mismatch in its core dimension 0", lambda xp: xp.matvec(xp.ones((2, 3)),
                                                                                         xp.ones(4)))
    assert_both_raise(ValueError, "does not have enough dimensions", lambda xp: xp.matvec(xp.ones(3), xp.ones(3)))
    assert_both_raise(ValueError, "does not have enough dimensions",
                      lambda xp: xp.matvec(xp.ones((2, 3)), xp.asarray(1.0)))
    assert_both_raise(ValueError, "mismatch in its core dimension 0", lambda xp: xp.vecmat(xp.ones(3),
                                                                                         xp.ones((4, 2))))
    assert_both_raise(ValueError, None, lambda xp: xp.matvec(xp.ones((2, 2, 3)), xp.ones((3, 3))))


# ---- bits ------------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape,axis", [((13,), None), ((3, 10), None), ((3, 10), 1), ((3, 10), 0), ((4, 9, 2), -2),
                                        ((8,), 0), ((0,), None), ((2, 0), 1), ((), None), ((), 0)], ids=str)
@pytest.mark.parametrize("bitorder", ["big", "little"])
@parametrize_dtypes("dtype", [np.bool_, np.int32, np.uint8])
@numpy_simt_allclose()
def test_packbits_roundtrip(xp, rng, shape, axis, bitorder, dtype):
    a = xp.asarray(rng.integers(0, 3, size=shape).astype(dtype))
    packed = xp.packbits(a, axis=axis, bitorder=bitorder)
    out = [packed, xp.unpackbits(packed, axis=axis, bitorder=bitorder)]
    if packed.ndim:
        n = packed.shape[0 if axis is None else axis] * 8
        # (NumPy pads an empty axis's bits with uninitialized bytes: counts beyond 0 are left out there)
        for count in (0, 3, n, n + 5, -min(n, 2), -n) if n else (0,):
            out.append(xp.unpackbits(packed, axis=axis, count=count, bitorder=bitorder))
    return out


@numpy_simt_allclose()
def test_unpackbits_random_bytes(xp, rng):
    b = make(xp, rng, (3, 4), np.uint8, low=0, high=256)
    return (xp.unpackbits(b), xp.unpackbits(b, axis=1), xp.unpackbits(b, axis=-2, bitorder="little"),
            xp.unpackbits(b, axis=0, count=-3), xp.unpackbits(b[0, 0]), xp.unpackbits(b[::-1, ::2], axis=1))


def test_bits_errors():
    assert_both_raise(TypeError, "Expected an input array of integer or boolean data type",
                      lambda xp: xp.packbits(xp.ones(3)))
    assert_both_raise(ValueError, "'order' must be either 'little' or 'big'",
                      lambda xp: xp.packbits(xp.ones(3, bool), bitorder="middle"))
    assert_both_raise(TypeError, "Expected an input array of unsigned byte data type",
                      lambda xp: xp.unpackbits(xp.ones(3, xp.int8)))
    assert_both_raise(ValueError, "-count larger than number of elements",
                      lambda xp: xp.unpackbits(xp.ones(1, xp.uint8), count=-9))
    assert_both_raise(TypeError, None, lambda xp: xp.unpackbits(xp.ones(1, xp.uint8), count=1.5))
    assert_both_raise(np.exceptions.AxisError, None, lambda xp: xp.packbits(xp.ones((2, 2), bool), axis=2))


# ---- apply / fromfunction --------------------------------------------------------------------------------------
@pytest.mark.parametrize("axis", [0, 1, -1, 2])
@numpy_simt_allclose(rtol=1e-12)
def test_apply_along_axis(xp, rng, axis):
    a = make(xp, rng, (3, 4, 5), np.float64)
    return (xp.apply_along_axis(lambda v: v.sum(), axis, a),
            xp.apply_along_axis(lambda v: v[:2] * 2, axis, a),
            xp.apply_along_axis(lambda v, k: xp.outer(v[:2], v[:3]) + k, axis, a, 1.5),
            xp.apply_along_axis(lambda v, scale=1: (v > 0).astype(xp.int8) * scale, axis, a, scale=3),
            xp.apply_along_axis(lambda v: 2.5, axis, a))


def test_apply_along_axis_errors():
    assert_both_raise(ValueError, "Cannot apply_along_axis when any iteration dimensions are 0",
                      lambda xp: xp.apply_along_axis(lambda v: v.sum(), -1, xp.zeros((0, 3))))
    assert_both_raise(np.exceptions.AxisError, None,
                      lambda xp: xp.apply_along_axis(lambda v: v.sum(), 2, xp.zeros((2, 1))))
    assert_both_raise(ValueError, None,  # results of different shapes
                      lambda xp: xp.apply_along_axis(lambda v: v[:int(v[0]) % 2 + 1], 1,
                                                     xp.asarray([[2.0, 3], [1, 2]])))


@pytest.mark.parametrize("axes", [0, [0, -1], (1, 2), [2, 0, 1], []], ids=str)
@numpy_simt_allclose()
def test_apply_over_axes(xp, rng, axes):
    a = make(xp, rng, (2, 3, 4), np.int32)
    return (xp.apply_over_axes(xp.sum, a, axes),
            xp.apply_over_axes(lambda x, ax: xp.max(x, axis=ax, keepdims=True), a, axes))


def test_apply_over_axes_errors():
    assert_both_raise(ValueError, "function is not returning an array of the correct shape",
                      lambda xp: xp.apply_over_axes(lambda x, ax: x.sum(), xp.ones((2, 3, 4)), [0]))


@pytest.mark.parametrize("dtype", [float, int, np.float32], ids=str)
@numpy_simt_allclose()
def test_fromfunction(xp, dtype):
    return (xp.fromfunction(lambda i, j: i * 10 + j, (3, 4), dtype=dtype),
            xp.fromfunction(lambda i, j, k=1: xp.maximum(i, j) * k, (2, 5), dtype=dtype, k=3),
            xp.fromfunction(lambda i: i ** 2, (0,), dtype=dtype))


def test_fromfunction_returns_whatever_function_returns():
    assert simt.fromfunction(lambda i, j: (i.shape, j.dtype), (2, 3)) == ((2, 3), np.float64)


# ---- memory overlap --------------------------------------------------------------------------------------------
def views(xp, base):
    """Pairs of views of one buffer, as both NumPy and simt can make them."""
    m = base.reshape(6, 8)
    return [(m, m), (m[:3], m[3:]), (m[:4], m[3:]), (m[:, ::2], m[:, 1::2]), (m[:, ::2], m[:, 2::4]),
            (m[::2], m[1::2]), (m.T, m[1]), (m[0, ::-1], m[0, 3:5]), (m[0], m[1]), (m[:, 0], m[:, 7]),
            (m[:, 1:3], m[:, 3:5]), (m[1:, :-1], m[:-1, 1:]), (m[:0], m), (m[2, 3, ...], m[2, 3:4]),
            (m[2, 3, ...], m[2, 4:5]),
            (base.reshape(2, 24)[:, :8], m[1]), (m[::3, ::5], m[1::3, 1::5])]


def test_shares_memory_matches_numpy():
    h = np.arange(48.0)
    d = simt.arange(48.0)
    for (ha, hb), (da, db) in zip(views(np, h), views(simt, d)):
        for fn, kw in ((np.shares_memory, {}), (np.may_share_memory, {}), (np.may_share_memory, {"max_work": -1})):
            want = fn(ha, hb, **kw)
            got = getattr(simt, fn.__name__)(da, db, **kw)
            assert got is want, (fn.__name__, ha.shape, ha.strides, hb.shape, hb.strides, kw)
            assert fn(da, db, **kw) is want  # np.shares_memory(simt arrays) dispatches here


def test_shares_memory_other_operands():
    d = simt.arange(10.0)
    e = simt.arange(10.0)
    assert not simt.shares_memory(d, e) and not simt.may_share_memory(d, e)
    assert not simt.shares_memory(d, 1.0) and not simt.may_share_memory([1, 2], d)
    assert simt.shares_memory(d, d.view(np.int64)) and simt.may_share_memory(d[::-1], d[4])
    assert not simt.shares_memory(d.view(np.uint8)[1:8], d[1:])
    assert simt.shares_memory(d.view(np.uint8)[7:9], d[1:])
    with pytest.raises(TypeError, match="host data"):
        simt.shares_memory(d, np.ones(3))
    big, hbig = simt.zeros(10 ** 6, np.uint8), np.zeros(10 ** 6, np.uint8)
    a, b = big[1::7 * 13 * 17], big[2::11 * 19 * 23]
    try:
        want = np.shares_memory(hbig[1::7 * 13 * 17], hbig[2::11 * 19 * 23], max_work=1)
    except np.exceptions.TooHardError:
        with pytest.raises(np.exceptions.TooHardError):
            simt.shares_memory(a, b, max_work=1)
    else:
        assert simt.shares_memory(a, b, max_work=1) == want


# ---- host data and dispatch --------------------------------------------------------------------------------------
@pytest.mark.parametrize("call", [
    lambda h: simt.choose(h, [simt.ones(2)]), lambda h: simt.select([h > 0], [1]), lambda h: simt.piecewise(h, [], [1]),
    lambda h: simt.put_along_axis(simt.ones((2, 2)), h, 1.0, 0), lambda h: simt.insert(h, 0, 1),
    lambda h: simt.trim_zeros(h), lambda h: simt.tril_indices_from(h), lambda h: simt.diag_indices_from(h),
    lambda h: simt.fill_diagonal(h, 1), lambda h: simt.intersect1d(h, simt.ones(2)),
    lambda h: simt.union1d(simt.ones(2), h), lambda h: simt.setxor1d(h, h), lambda h: simt.unique_all(h),
    lambda h: simt.nancumsum(h), lambda h: simt.cumulative_sum(h, axis=0), lambda h: simt.rollaxis(h, 1),
    lambda h: simt.unstack(h), lambda h: simt.matvec(h, simt.ones(2)), lambda h: simt.vecmat(simt.ones(2), h),
    lambda h: simt.packbits(h), lambda h: simt.apply_along_axis(len, 0, h),
    lambda h: simt.putmask(simt.ones((2, 2)), simt.ones((2, 2), bool), h),
    lambda h: simt.place(simt.ones((2, 2)), h, 1)])
def test_host_numpy_arrays_are_refused(call):
    host = np.ones((2, 2), np.int64)
    with pytest.raises(TypeError, match="host data"):
        call(host)


@numpy_simt_allclose()
def test_numpy_functions_dispatch_to_simt(xp, rng):
    a = make(xp, rng, (4, 4), np.float64)
    idx = xp.asarray(rng.integers(0, 2, size=(4, 4)))
    with np.errstate(all="ignore"):
        results = (np.choose(idx, [a, -a]), np.select([a > 0], [a]), np.insert(a, 1, 5.0, axis=0),
                   np.trim_zeros(a[0]), np.tril_indices_from(a), np.intersect1d(a, a[0]), np.union1d(a[0], a[1]),
                   np.nancumsum(a), np.cumulative_sum(a, axis=1), np.rollaxis(a, 1), np.unstack(a),
                   np.matvec(a, a[0]), np.vecmat(a[0], a), np.packbits(idx), np.unique_counts(idx))
    if xp is simt:
        flat = [r for x in results for r in (x if isinstance(x, tuple) else (x,))]
        assert all(isinstance(r, simt.ndarray) for r in flat)
    return results


def test_in_place_functions_dispatch_from_numpy(rng):
    h = rng.standard_normal((4, 4))
    for fn, args in ((np.fill_diagonal, (3.0,)), (np.place, (lambda x: x > 0, [1.0, 2.0])),
                     (np.putmask, (lambda x: x > 0, [1.0, 2.0])),
                     (np.put_along_axis, (lambda x: x.argsort(axis=1), 7.0, 1))):
        want, got = h.copy(), simt.asarray(h)
        fn(want, *[a(want) if callable(a) else a for a in args])
        fn(got, *[a(got) if callable(a) else a for a in args])
        assert_same(want, got)
