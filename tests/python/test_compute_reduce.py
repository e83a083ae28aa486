"""simt.compute.reduce_into and segmented_reduce against NumPy: arrays and iterators, built-in and
Python operators, several dtypes, sizes around the block boundaries."""
import numpy as np
import pytest

import simt
import simt.compute as cc

SIZES = [0, 1, 7, 4096, 100_003]


def minimum(a, b):
    return a if a < b else b


def add(a, b):
    return a + b


def argmin_pair(a, b):
    return a if a[0] < b[0] or (a[0] == b[0] and a[1] < b[1]) else b


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.int32, np.float64, np.uint8])
def test_reduce_plus_matches_numpy(rng, n, dtype):
    x = (rng.random(n) * 100).astype(dtype)
    out = simt.empty(1, np.float64 if dtype == np.float64 else np.int64)
    init = np.array([5], dtype=out.dtype)
    cc.reduce_into(simt.asarray(x), out, cc.OpKind.PLUS, n, init)
    expected = x.astype(np.float64).sum() + 5
    np.testing.assert_allclose(out.get()[0], expected, rtol=1e-12)


@pytest.mark.parametrize("n", [1, 1000, 100_003])
def test_reduce_python_min_and_lambda_max(rng, n):
    x = rng.standard_normal(n).astype(np.float32)
    d, out = simt.asarray(x), simt.empty(1, np.float32)
    cc.reduce_into(d, out, minimum, n, np.float32(np.inf))
    assert out.get()[0] == x.min()
    cc.reduce_into(d, out, lambda a, b: a if a > b else b, n, np.array([-np.inf], np.float32))
    assert out.get()[0] == x.max()
    cc.reduce_into(d, out, cc.OpKind.MAXIMUM, n, np.float32(-np.inf))
    assert out.get()[0] == x.max()


def test_reduce_num_items_prefix_and_complex(rng):
    x = rng.standard_normal(5000) + 1j * rng.standard_normal(5000)
    out = simt.empty(1, np.complex128)
    cc.reduce_into(simt.asarray(x), out, add, 3001, np.complex128(1 + 2j))
    np.testing.assert_allclose(out.get()[0], x[:3001].sum() + (1 + 2j), rtol=1e-12)


@pytest.mark.parametrize("n", [1, 300, 100_003])
def test_reduce_counting_constant_transform_iterators(rng, n):
    out = simt.empty(1, np.int64)
    cc.reduce_into(cc.CountingIterator(np.int64(3)), out, cc.OpKind.PLUS, n, np.int64(0))
    assert out.get()[0] == np.arange(3, 3 + n).sum()
    cc.reduce_into(cc.ConstantIterator(np.int64(7)), out, cc.OpKind.PLUS, n, np.int64(1))
    assert out.get()[0] == 7 * n + 1
    squares = cc.TransformIterator(cc.CountingIterator(np.int64(0)), lambda i: i * i)
    cc.reduce_into(squares, out, cc.OpKind.PLUS, n, np.int64(0))
    assert out.get()[0] == (np.arange(n) ** 2).sum()
    x = rng.integers(-50, 50, n).astype(np.int64)
    cc.reduce_into(cc.ReverseIterator(simt.asarray(x)), out, cc.OpKind.MINUS if n == 1 else cc.OpKind.PLUS, n,
                   np.int64(0))
    assert out.get()[0] == (-x[0] if n == 1 else x.sum())


@pytest.mark.parametrize("n", [1, 2049, 100_003])
def test_reduce_zip_argmin_with_tuple_init_and_zip_output(rng, n):
    x = rng.integers(0, 1000, n).astype(np.float64)
    vals, idx = simt.empty(1), simt.empty(1, np.int64)
    zipped = cc.ZipIterator(simt.asarray(x), cc.CountingIterator(np.int64(0)))
    cc.reduce_into(zipped, cc.ZipIterator(vals, idx), argmin_pair, n, (np.float64(np.inf), np.int64(-1)))
    assert vals.get()[0] == x.min() and idx.get()[0] == np.argmin(x)


def test_reduce_structured_h_init(rng):
    x = rng.random(777)
    init = np.zeros(1, dtype=[("v", np.float64), ("i", np.int64)])
    init["v"], init["i"] = np.inf, -1
    vals, idx = simt.empty(1), simt.empty(1, np.int64)
    cc.reduce_into(cc.ZipIterator(simt.asarray(x), cc.CountingIterator(np.int64(0))), cc.ZipIterator(vals, idx),
                   argmin_pair, 777, init)
    assert idx.get()[0] == np.argmin(x)


def test_reduce_transform_output_iterator(rng):
    x = rng.random(1000)
    out = simt.empty(1)
    cc.reduce_into(simt.asarray(x), cc.TransformOutputIterator(out, lambda s: s / 1000.0), cc.OpKind.PLUS, 1000,
                   np.float64(0))
    np.testing.assert_allclose(out.get()[0], x.mean(), rtol=1e-12)


def test_make_reduce_into_temp_storage_protocol(rng):
    x = rng.integers(0, 10, 100_003).astype(np.int32)
    d, out = simt.asarray(x), simt.empty(1, np.int32)
    reducer = cc.make_reduce_into(d, out, cc.OpKind.PLUS, np.int32(0))
    nbytes = reducer(None, d, out, x.size, np.int32(0))
    assert nbytes > 0
    with pytest.raises(ValueError, match="temp_storage holds 0 bytes"):
        reducer(simt.empty(0, np.uint8), d, out, x.size, np.int32(0))
    reducer(simt.empty(nbytes, np.uint8), d, out, x.size, np.int32(0))
    assert out.get()[0] == x.sum()
    y = rng.integers(0, 10, 50).astype(np.int32)
    reducer(simt.empty(nbytes, np.uint8), simt.asarray(y), out, 50, np.int32(2))
    assert out.get()[0] == y.sum() + 2


def _segments(rng, n, nseg):
    cuts = np.sort(rng.integers(0, n + 1, nseg + 1))
    cuts[0], cuts[-1] = 0, n
    if nseg > 3:
        cuts[2] = cuts[1]  # an empty segment
    return cuts.astype(np.int64)


@pytest.mark.parametrize("n,nseg", [(0, 1), (10, 4), (100_003, 37), (5000, 1000)])
def test_segmented_reduce_arrays(rng, n, nseg):
    x = rng.integers(-100, 100, n).astype(np.int32)
    cuts = _segments(rng, n, nseg)
    out = simt.empty(nseg, np.int32)
    cc.segmented_reduce(simt.asarray(x), out, simt.asarray(cuts[:-1]), simt.asarray(cuts[1:]), cc.OpKind.PLUS,
                        np.int32(3), nseg)
    expected = [x[a:b].sum() + 3 for a, b in zip(cuts[:-1], cuts[1:])]
    np.testing.assert_array_equal(out.get(), expected)


def test_segmented_reduce_user_op_and_offset_iterators(rng):
    rows, cols = 300, 129
    x = rng.standard_normal(rows * cols)
    starts = cc.TransformIterator(cc.CountingIterator(np.int64(0)), lambda i: i * 129)
    ends = cc.TransformIterator(cc.CountingIterator(np.int64(1)), lambda i: i * 129)
    out = simt.empty(rows)
    cc.segmented_reduce(simt.asarray(x), out, starts, ends, minimum, np.float64(np.inf), rows)
    np.testing.assert_array_equal(out.get(), x.reshape(rows, cols).min(axis=1))


def test_segmented_reduce_empty_segments_give_h_init():
    out = simt.empty(3, np.float64)
    offs = simt.asarray(np.array([5, 5, 5], np.int64))
    cc.segmented_reduce(simt.asarray(np.arange(10.0)), out, offs, offs, cc.OpKind.PLUS, np.float64(-1.5), 3)
    np.testing.assert_array_equal(out.get(), [-1.5] * 3)


@pytest.mark.parametrize("n", [0, 1, 1000, 100_003])
@pytest.mark.parametrize("dtype", [np.int32, np.float64])
def test_plus_scans_on_arrays_take_cumsum_and_agree_with_the_general_kernels(rng, n, dtype):
    # Inclusive PLUS scans of an array without init_value run simt.cumsum; a Python operator takes
    # the general kernels (reductions always do).
    h = (rng.standard_normal(n) * 100).astype(dtype)
    d = simt.asarray(h)
    fast, general = simt.empty(1, dtype), simt.empty(1, dtype)
    init = np.array([3], dtype)
    cc.reduce_into(d, fast, cc.OpKind.PLUS, n, init)
    cc.reduce_into(d, general, lambda a, b: a + b, n, init)
    np.testing.assert_allclose(fast.get(), general.get(), rtol=1e-12)
    np.testing.assert_allclose(fast.get()[0], h.sum(dtype=np.float64) + 3, rtol=1e-9)
    scan_fast, scan_general = simt.empty(n, dtype), simt.empty(n, dtype)
    cc.inclusive_scan(d, scan_fast, cc.OpKind.PLUS, None, n)
    cc.inclusive_scan(d, scan_general, lambda a, b: a + b, None, n)
    np.testing.assert_allclose(scan_fast.get(), scan_general.get(), rtol=1e-9, atol=1e-9 * np.abs(h).sum())
    np.testing.assert_allclose(scan_fast.get(), np.cumsum(h, dtype=dtype), rtol=1e-9, atol=1e-9 * np.abs(h).sum())


def test_serial_fold_on_many_cores_leaves_no_block_empty(monkeypatch):
    """(cpu backend: blocks fold runs of ceil(n / blocks); with many cores the last runs could
    start past the end and contribute a value that is not in the input)"""
    from simt import _kernelgen
    monkeypatch.setattr(_kernelgen, "_cores", 16)
    for n in (2049, 3000, 4000, 4097):
        x = np.arange(1, n + 1, dtype=np.float32)
        out = simt.empty(1, np.float32)
        cc.reduce_into(simt.asarray(x), out, cc.OpKind.MINIMUM, n, np.float32(np.inf))
        assert out.get()[0] == 1.0
        cc.reduce_into(simt.asarray(-x), out, cc.OpKind.MAXIMUM, n, np.float32(-np.inf))
        assert out.get()[0] == -1.0
