"""simt.compute.merge_sort, unique_by_key, select and three_way_partition against NumPy."""
import numpy as np
import pytest

import simt
import simt.compute as cc


def descending(a, b):
    return a > b


def same_tens(a, b):
    return a // 10 == b // 10


def is_even(v):
    return v % 2 == 0


@pytest.mark.parametrize("n", [0, 1, 8, 9, 1000, 100_003])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_merge_sort_keys_and_items_stable(rng, n, dtype):
    keys = rng.integers(0, max(n // 10, 2), n).astype(dtype)  # many equal keys: stability shows
    items = np.arange(n, dtype=np.int64)
    ok, oi = simt.empty(n, dtype), simt.empty(n, np.int64)
    cc.merge_sort(simt.asarray(keys), simt.asarray(items), ok, oi, cc.OpKind.LESS, n)
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(ok.get(), keys[order])
    np.testing.assert_array_equal(oi.get(), order)


@pytest.mark.parametrize("n", [17, 50_001])
def test_merge_sort_user_comparator_in_place_keys_only(rng, n):
    keys = rng.standard_normal(n).astype(np.float32)
    d = simt.asarray(keys)
    cc.merge_sort(d, None, d, None, descending, n)
    np.testing.assert_array_equal(d.get(), np.sort(keys)[::-1])
    d2 = simt.asarray(keys)
    cc.merge_sort(d2, None, d2, None, lambda a, b: abs(a) < abs(b), n)
    np.testing.assert_array_equal(d2.get(), keys[np.argsort(np.abs(keys), kind="stable")])


def test_merge_sort_iterator_input_and_object(rng):
    n = 5000
    out = simt.empty(n, np.int64)
    it = cc.TransformIterator(cc.CountingIterator(np.int64(0)), lambda i: (i * 7919) % 5000)
    sorter = cc.make_merge_sort(it, None, out, None, cc.OpKind.LESS)
    with pytest.raises(TypeError, match="d_in_keys is an array of int64, but this object was built for a "
                                        "TransformIterator"):
        sorter(None, simt.asarray(np.arange(n)), None, out, None, n)
    other = cc.TransformIterator(cc.CountingIterator(np.int64(0)), lambda i: i)
    with pytest.raises(TypeError, match="with other operators"):
        sorter(None, other, None, out, None, n)
    temp = simt.empty(max(1, sorter(None, it, None, out, None, n)), np.uint8)
    sorter(temp, it, None, out, None, n)
    np.testing.assert_array_equal(out.get(), np.arange(n))


@pytest.mark.parametrize("n", [0, 1, 2, 1000, 100_003])
def test_unique_by_key(rng, n):
    keys = np.sort(rng.integers(0, max(n // 5, 1), n)).astype(np.int32)
    items = rng.random(n)
    ok, oi, num = simt.empty(n, np.int32), simt.empty(n), simt.zeros(1, np.int64) + 99
    cc.unique_by_key(simt.asarray(keys), simt.asarray(items), ok, oi, num, cc.OpKind.EQUAL_TO, n)
    uniq, first = np.unique(keys, return_index=True)
    m = int(num.get()[0])
    assert m == len(uniq)
    np.testing.assert_array_equal(ok.get()[:m], uniq)
    np.testing.assert_array_equal(oi.get()[:m], items[first])


def test_unique_by_key_user_equality_and_iterators(rng):
    n = 3000
    keys = np.sort(rng.integers(0, 500, n)).astype(np.int64)
    ok, oi, num = simt.empty(n, np.int64), simt.empty(n, np.int64), simt.empty(1, np.int32)
    cc.unique_by_key(simt.asarray(keys), cc.CountingIterator(np.int64(0)), ok, oi, num, same_tens, n)
    tens = keys // 10
    first = np.concatenate([[0], np.nonzero(tens[1:] != tens[:-1])[0] + 1])
    m = int(num.get()[0])
    assert m == len(first)
    np.testing.assert_array_equal(ok.get()[:m], keys[first])
    np.testing.assert_array_equal(oi.get()[:m], first)


@pytest.mark.parametrize("n", [0, 1, 5000, 100_003])
def test_select(rng, n):
    x = rng.integers(-1000, 1000, n).astype(np.int64)
    out, num = simt.empty(n, np.int64), simt.zeros(1, np.int32) + 7
    cc.select(simt.asarray(x), out, num, is_even, n)
    m = int(num.get()[0])
    assert m == (x % 2 == 0).sum()
    np.testing.assert_array_equal(out.get()[:m], x[x % 2 == 0])


def test_select_counting_iterator_and_object(rng):
    out, num = simt.empty(1000, np.int64), simt.empty(1, np.int64)
    sel = cc.make_select(cc.CountingIterator(np.int64(0)), out, num, lambda i: i % 7 == 3)
    temp = simt.empty(sel(None, cc.CountingIterator(np.int64(0)), out, num, 1000), np.uint8)
    sel(temp, cc.CountingIterator(np.int64(10)), out, num, 1000)
    expected = np.arange(10, 1010)[np.arange(10, 1010) % 7 == 3]
    assert num.get()[0] == len(expected)
    np.testing.assert_array_equal(out.get()[:len(expected)], expected)


@pytest.mark.parametrize("n", [1, 3000, 100_003])
def test_three_way_partition(rng, n):
    x = rng.standard_normal(n)
    a, b, c = simt.empty(n), simt.empty(n), simt.empty(n)
    num = simt.empty(2, np.int64)
    cc.three_way_partition(simt.asarray(x), a, b, c, num, lambda v: v < -0.5, lambda v: v > 0.5, n)
    lo, hi = x < -0.5, (x > 0.5)
    n1, n2 = num.get()
    assert (n1, n2) == (lo.sum(), hi.sum())
    np.testing.assert_array_equal(a.get()[:n1], x[lo])
    np.testing.assert_array_equal(b.get()[:n2], x[hi])
    np.testing.assert_array_equal(c.get()[:n - n1 - n2], x[~lo & ~hi])
