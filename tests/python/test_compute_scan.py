"""simt.compute.inclusive_scan / exclusive_scan against NumPy: arrays and iterators, built-in,
Python and non-commutative operators, initial values (host, device, none), block boundaries."""
import numpy as np
import pytest

import simt
import simt.compute as cc

SIZES = [0, 1, 5, 2048, 2049, 100_003]


def compose(f, g):
    """Composition of affine maps x -> a*x + b modulo a prime: associative, not commutative."""
    return (f[0] * g[0] % 1000003, (g[0] * f[1] + g[1]) % 1000003)


def running_max(a, b):
    return a if a > b else b


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", [np.int64, np.float32])
def test_inclusive_and_exclusive_plus(rng, n, dtype):
    x = rng.integers(-100, 100, n).astype(dtype)
    d, out = simt.asarray(x), simt.empty(n, dtype)
    cc.inclusive_scan(d, out, cc.OpKind.PLUS, np.array([7], dtype), n)
    np.testing.assert_allclose(out.get(), np.cumsum(x, dtype=np.float64) + 7, rtol=1e-6)
    cc.exclusive_scan(d, out, cc.OpKind.PLUS, dtype(3), n)
    expected = np.concatenate([[0], np.cumsum(x, dtype=np.float64)])[:n] + 3
    np.testing.assert_allclose(out.get(), expected, rtol=1e-6)


@pytest.mark.parametrize("n", [1, 3000, 100_003])
def test_inclusive_scan_without_init_and_python_ops(rng, n):
    x = rng.standard_normal(n)
    d, out = simt.asarray(x), simt.empty(n)
    cc.inclusive_scan(d, out, running_max, None, n)
    np.testing.assert_array_equal(out.get(), np.maximum.accumulate(x))
    cc.inclusive_scan(d, out, lambda a, b: a + b, None, n)
    np.testing.assert_allclose(out.get(), np.cumsum(x), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("n", [1, 2049, 30_000])
def test_scan_non_commutative_tuple_operator(rng, n):
    a, b = rng.integers(1, 1000, n), rng.integers(0, 1000, n)
    oa, ob = simt.empty(n, np.int64), simt.empty(n, np.int64)
    cc.inclusive_scan(cc.ZipIterator(simt.asarray(a), simt.asarray(b)), cc.ZipIterator(oa, ob), compose, None, n)
    ea, eb, f = [], [], (1, 0)
    for i in range(n):
        f = compose(f, (int(a[i]), int(b[i])))
        ea.append(f[0])
        eb.append(f[1])
    np.testing.assert_array_equal(oa.get(), ea)
    np.testing.assert_array_equal(ob.get(), eb)


@pytest.mark.parametrize("n", [1, 100_003])
def test_scan_iterators_in_and_out(rng, n):
    out = simt.empty(n, np.int64)
    cc.exclusive_scan(cc.CountingIterator(np.int64(1)), out, cc.OpKind.PLUS, np.int64(0), n)
    np.testing.assert_array_equal(out.get(), np.concatenate([[0], np.cumsum(np.arange(1, n + 1))])[:n])
    x = rng.integers(0, 10, n).astype(np.int32)
    rev = simt.empty(n, np.int32)
    cc.inclusive_scan(cc.ReverseIterator(simt.asarray(x)), cc.ReverseIterator(rev), cc.OpKind.PLUS, np.int32(0), n)
    np.testing.assert_array_equal(rev.get(), np.cumsum(x[::-1])[::-1])
    doubled = simt.empty(n, np.int32)
    cc.inclusive_scan(cc.ConstantIterator(np.int32(2)), cc.TransformOutputIterator(doubled, lambda v: v * 2),
                      cc.OpKind.PLUS, np.int32(0), n)
    np.testing.assert_array_equal(doubled.get(), 4 * np.arange(1, n + 1))


def test_scan_device_init_value_is_read_when_it_runs(rng):
    x = rng.integers(0, 10, 5000).astype(np.int64)
    init = simt.asarray(np.array([100], np.int64))
    out = simt.empty(5000, np.int64)
    scanner = cc.make_exclusive_scan(simt.asarray(x), out, cc.OpKind.PLUS, init)
    init[0] = 40  # a future value: the scan reads it from the device
    scanner(simt.empty(scanner(None, simt.asarray(x), out, 5000, init), np.uint8), simt.asarray(x), out, 5000, init)
    np.testing.assert_array_equal(out.get(), np.concatenate([[0], np.cumsum(x)[:-1]]) + 40)


def test_make_inclusive_scan_reuse_other_arrays(rng):
    x, y = rng.random(100_003), rng.random(10)
    dx, out = simt.asarray(x), simt.empty(100_003)
    scanner = cc.make_inclusive_scan(dx, out, cc.OpKind.PLUS, np.float64(0))
    temp = simt.empty(scanner(None, dx, out, 100_003, np.float64(0)), np.uint8)
    scanner(temp, dx, out, 100_003, np.float64(1))
    np.testing.assert_allclose(out.get(), np.cumsum(x) + 1, rtol=1e-9)
    small = simt.empty(10)
    scanner(temp, simt.asarray(y), small, 10, np.float64(0))
    np.testing.assert_allclose(small.get(), np.cumsum(y), rtol=1e-12)
