"""simt.compute.radix_sort / make_radix_sort (cuda.compute's API over simt's device radix sort)
against NumPy's stable sort."""
import numpy as np
import pytest

import simt
import simt.compute as cc


def _keys(rng, n, dtype):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        k = rng.standard_normal(n).astype(dtype)
        k[rng.random(n) < 0.05] = np.nan
        return k
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True) // 64 * 64  # (equal keys are common)


def _stable_order(keys, order):
    if order == cc.SortOrder.ASCENDING:
        return np.argsort(keys, kind="stable")
    # Descending and stable: equal keys keep their input order (NaN first: it is the largest).
    uniq = np.unique(keys)
    rank = np.searchsorted(uniq, keys) if keys.dtype.kind != "f" else np.where(np.isnan(keys), uniq.size,
                                                                               np.searchsorted(uniq, keys))
    return np.argsort(-rank, kind="stable")


@pytest.mark.parametrize("n", [0, 1, 300, 5000, 100_003])
@pytest.mark.parametrize("dtype", [np.int32, np.uint64, np.float32, np.float64])
@pytest.mark.parametrize("order", [cc.SortOrder.ASCENDING, cc.SortOrder.DESCENDING], ids=["asc", "desc"])
def test_radix_sort_keys_and_values(rng, n, dtype, order):
    keys = _keys(rng, n, dtype)
    values = rng.standard_normal(n).astype(np.float32)
    ok, ov = simt.empty(n, dtype), simt.empty(n, np.float32)
    cc.radix_sort(simt.asarray(keys), ok, simt.asarray(values), ov, order, n)
    perm = _stable_order(keys, order)
    np.testing.assert_array_equal(ok.get(), keys[perm])
    np.testing.assert_array_equal(ov.get(), values[perm])


def test_radix_sort_keys_only_a_prefix_and_a_bit_range(rng):
    keys = rng.integers(0, 2**32, 4000, dtype=np.uint64).astype(np.uint32)
    out = simt.zeros(4000, np.uint32)
    cc.radix_sort(simt.asarray(keys), out, None, None, cc.SortOrder.ASCENDING, 2500, begin_bit=4, end_bit=12)
    got = out.get()
    np.testing.assert_array_equal(got[:2500], keys[:2500][np.argsort((keys[:2500] >> 4) & 0xFF, kind="stable")])
    assert (got[2500:] == 0).all()  # (items past num_items are left alone)


def test_make_radix_sort_with_temp_storage(rng):
    keys = _keys(rng, 777, np.int64)
    d_keys, out = simt.asarray(keys), simt.empty(777, np.int64)
    sorter = cc.make_radix_sort(d_keys, out, None, None, cc.SortOrder.DESCENDING)
    nbytes = sorter(None, d_keys, out, None, None, 777)
    assert nbytes >= 777 * 8
    sorter(simt.empty(nbytes, np.uint8), d_keys, out, None, None, 777)
    np.testing.assert_array_equal(out.get(), keys[_stable_order(keys, cc.SortOrder.DESCENDING)])
    with pytest.raises(ValueError, match=r"temp_storage holds 1 bytes, this call needs"):
        sorter(simt.empty(1, np.uint8), d_keys, out, None, None, 777)
    with pytest.raises(TypeError, match="this object was built without values"):
        sorter(None, d_keys, out, d_keys, out, 777)


def test_radix_sort_errors():
    k = simt.arange(10, dtype=np.int32)
    out = simt.empty(10, np.int32)
    with pytest.raises(TypeError, match="order must be SortOrder.ASCENDING or SortOrder.DESCENDING"):
        cc.radix_sort(k, out, None, None, "ascending", 10)
    with pytest.raises(TypeError, match="d_in_keys holds an array of int32 but d_out_keys holds an array of float32"):
        cc.radix_sort(k, simt.empty(10, np.float32), None, None, cc.SortOrder.ASCENDING, 10)
    with pytest.raises(TypeError, match="d_in_keys must be a device array, not a CountingIterator"):
        cc.radix_sort(cc.CountingIterator(np.int32(0)), out, None, None, cc.SortOrder.ASCENDING, 10)
    with pytest.raises(ValueError, match="give both d_in_values and d_out_values, or neither"):
        cc.radix_sort(k, out, k, None, cc.SortOrder.ASCENDING, 10)
    with pytest.raises(ValueError, match="d_in_keys holds 10 items, fewer than num_items=11"):
        cc.radix_sort(k, out, None, None, cc.SortOrder.ASCENDING, 11)
    with pytest.raises(ValueError, match="need 0 <= begin_bit <= end_bit <= 32"):
        cc.radix_sort(k, out, None, None, cc.SortOrder.ASCENDING, 10, begin_bit=0, end_bit=40)
