"""simt.sort, argsort, lexsort, partition, argpartition, the ndarray methods and the internal radix
sort entry point, against NumPy's stable sort, compared exactly (python/simt/_sorting.py,
_radix_sort.py, _radix_kernels.py, _sort_keys.py)."""
import numpy as np
import pytest

import simt
from simt import _radix_sort
from sorting_data import ALL, REAL, assert_exact, sort_data


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_sort_and_argsort_every_dtype(rng, dtype, axis):
    h = sort_data(rng, (6, 37), dtype)
    d = simt.asarray(h)
    assert_exact(np.sort(h, axis=axis), simt.sort(d, axis=axis))
    assert_exact(np.argsort(h, axis=axis, kind="stable"), simt.argsort(d, axis=axis))


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.float32, np.float64, np.uint64,
                                   np.int64, np.complex128])
def test_large_arrays_cross_tiles(rng, dtype):
    h = sort_data(rng, (100_003,), dtype)
    d = simt.asarray(h)
    assert_exact(np.sort(h), simt.sort(d))
    assert_exact(np.argsort(h, kind="stable"), simt.argsort(d))


@pytest.mark.parametrize("shape", [(3, 5000), (700, 40), (2000, 5), (50, 17), (4, 2049)])
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.uint8])
def test_batches_of_rows(rng, shape, dtype):
    # Rows long enough for several tiles (8-bit digits), short rows (4-bit digits), rows short
    # enough for one thread each, and lengths just past a tile or the short-row limit.
    h = sort_data(rng, shape, dtype)
    d = simt.asarray(h)
    assert_exact(np.sort(h, axis=1), simt.sort(d, axis=1))
    assert_exact(np.argsort(h, axis=1, kind="stable"), simt.argsort(d, axis=1))
    assert_exact(np.argsort(h, axis=0, kind="stable"), simt.argsort(d, axis=0))


@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.complex64])
def test_non_contiguous_inputs(rng, dtype):
    h = sort_data(rng, (9, 14, 6), dtype)
    d = simt.asarray(h)
    views = [lambda x: x[::2, 3:, ::-1], lambda x: x.transpose(2, 0, 1), lambda x: x[:, 5]]
    for view in views:
        for axis in (-1, 0, 1, None):
            assert_exact(np.sort(view(h), axis=axis), simt.sort(view(d), axis=axis))
            assert_exact(np.argsort(view(h), axis=axis, kind="stable"), simt.argsort(view(d), axis=axis))


@pytest.mark.parametrize("shape,axis", [((0,), -1), ((3, 0), 1), ((3, 0), 0), ((0, 4), 0), ((0, 4), None),
                                        ((1,), 0), ((1, 1), None), ((), None)])
def test_empty_and_single_element(shape, axis):
    h = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)
    d = simt.asarray(h)
    assert_exact(np.sort(h, axis=axis), simt.sort(d, axis=axis))
    assert_exact(np.argsort(h, axis=axis), simt.argsort(d, axis=axis))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_nan_inf_and_signed_zeros(dtype):
    h = np.array([np.nan, 0.0, -np.inf, -0.0, 1.0, np.inf, -np.nan, -0.0, 0.0, -1.0, np.nan], dtype=dtype)
    d = simt.asarray(h)
    got = simt.sort(d).get()
    assert_exact(np.sort(h), simt.sort(d))
    # argsort: -0.0 equals 0.0 and NaNs are equal, so a stable sort keeps their input order.
    assert_exact(np.argsort(h, kind="stable"), simt.argsort(d))
    # sort keeps each zero's sign bit (the order of equal zeros is NumPy's to choose, not the count).
    assert np.signbit(got[got == 0]).sum() == np.signbit(h[h == 0]).sum()
    assert not np.signbit(got[np.isnan(got)]).any()  # every NaN comes back as np.nan


def test_complex_order_matches_numpy():
    # NumPy's complex order: real then imaginary part; a NaN imaginary part after every value
    # without NaN, a NaN real part after those.
    vals = [complex(np.nan, 1), complex(1, np.nan), complex(2, -1), complex(1, 3), complex(np.nan, np.nan),
            complex(1, -1), complex(-np.inf, 0), complex(np.nan, -1), complex(0, np.nan), complex(1, 3)]
    for dt in (np.complex64, np.complex128):
        h = np.array(vals, dtype=dt)
        assert_exact(np.argsort(h, kind="stable"), simt.argsort(simt.asarray(h)))
        assert_exact(np.sort(h), simt.sort(simt.asarray(h)))


@pytest.mark.parametrize("kind", [None, "quicksort", "mergesort", "heapsort", "stable"])
def test_kinds_all_stable(rng, kind):
    h = rng.integers(0, 4, 500)
    assert_exact(np.argsort(h, kind="stable"), simt.argsort(simt.asarray(h), kind=kind))


@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.complex64])
def test_sort_method_in_place(rng, dtype):
    h = sort_data(rng, (8, 11), dtype)
    d = simt.asarray(h)
    h.sort(axis=0)
    assert d.sort(axis=0) is None
    assert_exact(h, d)
    # A strided view sorts in place, writing through to its base.
    h2 = sort_data(rng, (8, 11), dtype)
    d2 = simt.asarray(h2)
    h2[:, 1::3].sort()
    d2[:, 1::3].sort()
    assert_exact(h2, d2)
    assert_exact(np.argsort(h2, axis=None, kind="stable"), d2.argsort(axis=None))


def test_numpy_dispatch(rng):
    h = sort_data(rng, (5, 12), np.float32)
    d = simt.asarray(h)
    assert_exact(np.sort(h), np.sort(d))
    assert_exact(np.argsort(h, axis=0, kind="stable"), np.argsort(d, axis=0))
    keys = [rng.integers(0, 3, 40), rng.integers(0, 3, 40)]
    # (NumPy dispatches lexsort on a tuple of keys, not on a list)
    assert_exact(np.lexsort(keys), np.lexsort(tuple(simt.asarray(k) for k in keys)))
    part = np.partition(d, 3, axis=1)
    assert isinstance(part, simt.ndarray)
    np.testing.assert_array_equal(part.get()[:, 3], np.sort(h, axis=1)[:, 3])


@pytest.mark.parametrize("dtypes", [(np.int32, np.int32), (np.float64, np.uint8), (np.bool_, np.float16, np.int64),
                                    (np.complex64, np.int8)])
def test_lexsort(rng, dtypes):
    keys = [sort_data(rng, (61,), dt) for dt in dtypes]
    assert_exact(np.lexsort(keys), simt.lexsort([simt.asarray(k) for k in keys]))
    keys2 = [sort_data(rng, (7, 13), dt) for dt in dtypes]
    for axis in (-1, 0):
        assert_exact(np.lexsort(keys2, axis=axis), simt.lexsort([simt.asarray(k) for k in keys2], axis=axis))


def test_lexsort_from_a_2d_array(rng):
    h = rng.integers(0, 3, (3, 50)).astype(np.int16)
    assert_exact(np.lexsort(h), simt.lexsort(simt.asarray(h)))
    assert_exact(np.lexsort(h[:, :0]), simt.lexsort(simt.asarray(h[:, :0])))


@pytest.mark.parametrize("kth", [0, 4, -1, [1, 7]])
@pytest.mark.parametrize("axis", [-1, 0, None])
def test_partition_and_argpartition(rng, kth, axis):
    h = sort_data(rng, (9, 10), np.float64)
    d = simt.asarray(h)
    s = np.sort(h, axis=axis)
    p = simt.partition(d, kth, axis=axis).get()
    ip = simt.argpartition(d, kth, axis=axis).get()
    ax = -1 if axis is None else axis
    for k in np.atleast_1d(kth):
        kth_sorted = np.take(s, k, axis=ax)
        np.testing.assert_array_equal(np.take(p, k, axis=ax), kth_sorted)
        lower = np.take(p, np.arange(s.shape[ax])[:k % s.shape[ax]], axis=ax)
        assert not (lower > np.expand_dims(kth_sorted, ax)).any()
        flat = h.ravel() if axis is None else h
        np.testing.assert_array_equal(np.take(np.take_along_axis(flat, ip, axis=ax), k, axis=ax), kth_sorted)
    m = d.copy()
    m.partition(kth, axis=0 if axis is None else axis)
    np.testing.assert_array_equal(m.get(), np.sort(h, axis=0 if axis is None else axis))


def test_errors():
    d = simt.asarray(np.arange(6.0).reshape(2, 3))
    with pytest.raises(np.exceptions.AxisError, match="axis 2 is out of bounds"):
        simt.sort(d, axis=2)
    with pytest.raises(np.exceptions.AxisError, match="axis -3 is out of bounds"):
        simt.argsort(d, axis=-3)
    with pytest.raises(np.exceptions.AxisError, match="out of bounds for array of dimension 0"):
        simt.sort(simt.asarray(np.float32(1)))
    with pytest.raises(TypeError, match="axis must be an integer or None, not str"):
        simt.sort(d, axis="0")
    with pytest.raises(ValueError, match="sort kind must be one of .* \\(got 'bogo'\\)"):
        simt.sort(d, kind="bogo")
    with pytest.raises(ValueError, match="cannot specify order"):
        simt.argsort(d, order="x")
    with pytest.raises(TypeError, match="host data .*numpy.ndarray"):
        simt.sort(np.arange(3))
    with pytest.raises(TypeError, match="sort's argument must be a simt array, not builtins.str"):
        simt.sort("abc")
    with pytest.raises(TypeError, match="need a sequence of keys"):
        simt.lexsort([])
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        simt.lexsort([simt.arange(3), simt.arange(4)])
    with pytest.raises(ValueError, match="kth\\(=3\\) out of bounds \\(3\\)"):
        simt.partition(d, 3)
    with pytest.raises(ValueError, match="kth\\(=-7\\) out of bounds \\(6\\)"):
        simt.argpartition(d, -7, axis=None)
    with pytest.raises(TypeError, match="kth must be an integer"):
        simt.partition(d, 1.5)
    with pytest.raises(TypeError, match="ndarray.sort: axis must be an integer"):
        d.sort(axis=None)


# ---- the internal entry point: simt._radix_sort.radix_sort --------------------------------


@pytest.mark.parametrize("dtype", REAL)
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("size", [777, 5003], ids=["one-block", "digit-passes"])
def test_radix_sort_keys_and_values(rng, dtype, descending, size):
    h = sort_data(rng, (size,), dtype)
    vals = rng.standard_normal(h.size)
    keys_out, vals_out = _radix_sort.radix_sort(simt.asarray(h), simt.asarray(vals), descending=descending)
    order = np.argsort(h, kind="stable")
    if descending:  # stable descending: equal keys keep their input order
        order = np.argsort(_descending_rank(h), kind="stable")
    assert_exact(h[order], keys_out)
    assert_exact(vals[order], vals_out)


def _descending_rank(h):
    """Keys whose ascending stable order is h's stable descending order (NaN first, as its image
    is the largest)."""
    uniq = np.unique(h)
    return -np.searchsorted(uniq, h) if h.dtype.kind != "f" else np.where(np.isnan(h), -np.inf,
                                                                            -np.searchsorted(uniq, h))


def test_radix_sort_bit_range_and_segments(rng):
    h = rng.integers(0, 2 ** 32, 3000, dtype=np.uint32)
    got, _ = _radix_sort.radix_sort(simt.asarray(h), begin_bit=8, end_bit=20)
    assert_exact(h[np.argsort((h >> 8) & 0xFFF, kind="stable")], got)
    got, _ = _radix_sort.radix_sort(simt.asarray(h[:1500]), begin_bit=8, end_bit=20, descending=True)  # (one block)
    assert_exact(h[:1500][np.argsort(-((h[:1500] >> 8) & 0xFFF).astype(np.int64), kind="stable")], got)
    idx = simt.arange(h.size)
    got, perm = _radix_sort.radix_sort(simt.asarray(h), idx, segment_length=300)
    assert_exact(np.sort(h.reshape(10, 300), axis=1).ravel(), got)
    assert_exact(np.argsort(h.reshape(10, 300), axis=1, kind="stable").ravel() + np.repeat(np.arange(10) * 300, 300),
                 perm)
    out = simt.empty(h.size, np.uint32)
    assert _radix_sort.radix_sort(simt.asarray(h), keys_out=out)[0] is out
    assert_exact(np.sort(h), out)


def test_radix_sort_refuses_outputs_overlapping_inputs_and_non_integer_bits():
    buf = simt.arange(20, dtype=np.uint32)
    with pytest.raises(ValueError, match="keys_out overlaps keys in memory"):
        _radix_sort.radix_sort(buf[:-1], keys_out=buf[1:])
    vals = simt.arange(19, dtype=np.int64)
    with pytest.raises(ValueError, match="values_out overlaps values in memory"):
        _radix_sort.radix_sort(buf[:19], vals, values_out=vals[::-1])
    with pytest.raises(TypeError, match="begin_bit must be an integer, not float"):
        _radix_sort.radix_sort(buf, begin_bit=1.5)
    out = simt.empty(10, np.uint32)
    _radix_sort.radix_sort(buf[::2], keys_out=out)  # (disjoint from the input: fine)
    assert_exact(np.arange(0, 20, 2, dtype=np.uint32), out)


def test_radix_sort_errors():
    k = simt.arange(10, dtype=np.int32)
    with pytest.raises(ValueError, match="0 <= begin_bit <= end_bit <= 32"):
        _radix_sort.radix_sort(k, end_bit=33)
    with pytest.raises(ValueError, match="must be 1-D"):
        _radix_sort.radix_sort(k.reshape(2, 5))
    with pytest.raises(TypeError, match="complex64 cannot be radix sorted"):
        _radix_sort.radix_sort(simt.zeros(3, np.complex64))
    with pytest.raises(ValueError, match="values has 3 elements, keys has 10"):
        _radix_sort.radix_sort(k, simt.arange(3))
    with pytest.raises(ValueError, match="segment_length=3 does not divide the 10 keys"):
        _radix_sort.radix_sort(k, segment_length=3)
    with pytest.raises(TypeError, match="keys must be a simt array"):
        _radix_sort.radix_sort(np.arange(3))
    with pytest.raises(ValueError, match="keys_out overlaps keys in memory"):
        _radix_sort.radix_sort(k, keys_out=k)
