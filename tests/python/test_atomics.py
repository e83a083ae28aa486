"""cuda.atomic on global and shared arrays: every operation on the types numba allows, with the
old values they return, numba's inc/dec and NaN rules, tuple indices, bounds handling, and the
errors for unsupported types."""
import numpy as np
import pytest

import simt
from simt import cuda

NUMBER_TYPES = [np.int32, np.int64, np.uint32, np.uint64, np.float32, np.float64]
INTEGER_TYPES = [np.int32, np.int64, np.uint32, np.uint64]


def small_values(rng, dtype, n):
    if np.dtype(dtype).kind == "f":
        return rng.integers(-8, 9, n).astype(dtype) / 4  # exact in binary: sums do not depend on order
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 50, n).astype(dtype)
    return rng.integers(-50, 50, n).astype(dtype)


@pytest.mark.parametrize("dtype", NUMBER_TYPES)
def test_atomic_add_and_sub_histogram(rng, dtype):
    @cuda.jit
    def add_sub(bins, values, total, minus):
        i = cuda.grid(1)
        if i < values.size:
            cuda.atomic.add(total, bins[i], values[i])
            cuda.atomic.sub(minus, bins[i], values[i])

    n = 5000
    bins = rng.integers(0, 7, n)
    values = small_values(rng, dtype, n)
    start = small_values(rng, dtype, 7) + (100 if np.dtype(dtype).kind == "u" else 0)
    total, minus = simt.asarray(start), simt.asarray(start * 0 + np.asarray(100000, dtype))
    add_sub[(n + 255) // 256, 256](simt.asarray(bins), simt.asarray(values), total, minus)
    expected_total = start.copy()
    expected_minus = np.full(7, 100000, dtype)
    np.add.at(expected_total, bins, values)
    np.subtract.at(expected_minus, bins, values)
    np.testing.assert_array_equal(total.get(), expected_total)
    np.testing.assert_array_equal(minus.get(), expected_minus)


@pytest.mark.parametrize("dtype", NUMBER_TYPES)
def test_atomic_add_returns_distinct_old_values(rng, dtype):
    @cuda.jit
    def ticket(counter, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = cuda.atomic.add(counter, 0, 1)

    n = 3000
    counter = simt.zeros(1, dtype=dtype)
    out = simt.zeros(n, dtype=dtype)
    ticket[(n + 127) // 128, 128](counter, out)
    np.testing.assert_array_equal(np.sort(out.get()), np.arange(n, dtype=dtype))
    assert counter.get()[0] == n


@pytest.mark.parametrize("dtype", INTEGER_TYPES)
def test_atomic_bitwise_ops(rng, dtype):
    @cuda.jit
    def bits(values, a, o, x):
        i = cuda.grid(1)
        if i < values.size:
            cuda.atomic.and_(a, 0, values[i])
            cuda.atomic.or_(o, 0, values[i])
            cuda.atomic.xor(x, 0, values[i])

    values = rng.integers(0, 2**31 - 1, 777).astype(dtype)
    a = simt.asarray(np.array([np.iinfo(dtype).max], dtype))
    o, x = simt.zeros(1, dtype=dtype), simt.zeros(1, dtype=dtype)
    bits[7, 128](simt.asarray(values), a, o, x)
    assert a.get()[0] == np.bitwise_and.reduce(values) & np.iinfo(dtype).max
    assert o.get()[0] == np.bitwise_or.reduce(values)
    assert x.get()[0] == np.bitwise_xor.reduce(values)


@pytest.mark.parametrize("dtype", NUMBER_TYPES)
def test_atomic_max_min(rng, dtype):
    @cuda.jit
    def extremes(values, hi, lo, old):
        i = cuda.grid(1)
        if i < values.size:
            cuda.atomic.max(hi, i % 3, values[i])
            cuda.atomic.min(lo, i % 3, values[i])
            old[i] = cuda.atomic.max(hi, 3, values[i])

    values = small_values(rng, dtype, 2000) * (3 if np.dtype(dtype).kind == "f" else 1)
    first = values[0]
    hi = simt.asarray(np.full(4, first, dtype))
    lo = simt.asarray(np.full(4, first, dtype))
    old = simt.zeros(2000, dtype=dtype)
    extremes[16, 128](simt.asarray(values), hi, lo, old)
    for r in range(3):
        assert hi.get()[r] == max(first, values[r::3].max())
        assert lo.get()[r] == min(first, values[r::3].min())
    # every returned old value is a value the element held: at most the final maximum
    assert old.get().max() <= values.max() and hi.get()[3] == values.max()


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_atomic_max_min_nan_rules(dtype):
    @cuda.jit
    def k(a, v, out):
        out[0] = cuda.atomic.max(a, 0, v[0])
        out[1] = cuda.atomic.min(a, 1, v[0])
        out[2] = cuda.atomic.nanmax(a, 2, v[0])
        out[3] = cuda.atomic.nanmin(a, 3, v[0])

    nan = np.nan
    cases = [
        # element, value -> max, min, nanmax, nanmin (numba's rules)
        (1.0, 2.0, [2.0, 1.0, 2.0, 1.0]),
        (1.0, nan, [1.0, 1.0, 1.0, 1.0]),    # a NaN value is ignored by all four
        (nan, 2.0, [nan, nan, 2.0, 2.0]),    # a NaN element stays for max/min, is replaced by nan*
    ]
    for element, value, expected in cases:
        a = simt.asarray(np.full(4, element, dtype))
        out = simt.zeros(4, dtype=dtype)
        k[1, 1](a, simt.asarray(np.array([value], dtype)), out)
        np.testing.assert_array_equal(a.get(), np.array(expected, dtype))
        np.testing.assert_array_equal(out.get(), np.full(4, element, dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.int64])
def test_atomic_nanmax_on_integers_is_max(rng, dtype):
    @cuda.jit
    def k(values, out):
        i = cuda.grid(1)
        if i < values.size:
            cuda.atomic.nanmax(out, 0, values[i])
            cuda.atomic.nanmin(out, 1, values[i])

    values = rng.integers(-10**6, 10**6, 999).astype(dtype)
    out = simt.asarray(np.array([values[0], values[0]], dtype))
    k[8, 128](simt.asarray(values), out)
    np.testing.assert_array_equal(out.get(), [values.max(), values.min()])


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_atomic_inc_dec_wrap_rules(rng, dtype):
    @cuda.jit
    def k(start, limits, inc_out, dec_out, old_inc, old_dec):
        i = cuda.grid(1)
        if i < start.size:
            inc_out[i] = start[i]
            dec_out[i] = start[i]
            old_inc[i] = cuda.atomic.inc(inc_out, i, limits[i])
            old_dec[i] = cuda.atomic.dec(dec_out, i, limits[i])

    start = np.array([0, 5, 9, 10, 11, 0, 3, 7], dtype)
    limits = np.array([10, 10, 10, 10, 10, 0, 3, 2], dtype)
    outs = [simt.zeros(8, dtype=dtype) for _ in range(4)]
    k[1, 8](simt.asarray(start), simt.asarray(limits), *outs)
    inc = np.where(start >= limits, 0, start + 1).astype(dtype)
    dec = np.where((start == 0) | (start > limits), limits, start - 1).astype(dtype)
    np.testing.assert_array_equal(outs[0].get(), inc)
    np.testing.assert_array_equal(outs[1].get(), dec)
    np.testing.assert_array_equal(outs[2].get(), start)
    np.testing.assert_array_equal(outs[3].get(), start)


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_atomic_inc_as_ring_counter(dtype):
    @cuda.jit
    def k(counter, n):
        for _ in range(n):
            cuda.atomic.inc(counter, 0, 9)

    counter = simt.zeros(1, dtype=dtype)
    k[4, 64](counter, 10)  # 2560 increments modulo 10
    assert counter.get()[0] == 2560 % 10


@pytest.mark.parametrize("dtype", INTEGER_TYPES)
def test_atomic_exch_and_cas(rng, dtype):
    @cuda.jit
    def k(a, b, c, old_exch, old_cas, old_cs, v):
        old_exch[0] = cuda.atomic.exch(a, 1, v[0])
        old_cas[0] = cuda.atomic.cas(b, 2, v[1], v[2])        # (ary, idx, old, val)
        old_cas[1] = cuda.atomic.cas(b, 0, v[0], v[2])        # mismatch: no swap
        old_cs[0] = cuda.atomic.compare_and_swap(c, v[1], v[2])  # (ary, old, val) on c[0]

    v = rng.integers(1, 100, 3).astype(dtype)
    a = small_values(rng, dtype, 3)
    b = np.array([v[0] + 1, 0, v[1]], dtype)
    c = np.array([v[1], 5], dtype)
    da, db, dc = simt.asarray(a), simt.asarray(b), simt.asarray(c)
    old_exch, old_cas, old_cs = simt.zeros(1, dtype=dtype), simt.zeros(2, dtype=dtype), simt.zeros(1, dtype=dtype)
    k[1, 1](da, db, dc, old_exch, old_cas, old_cs, simt.asarray(v))
    assert old_exch.get()[0] == a[1] and da.get()[1] == v[0]
    assert list(old_cas.get()) == [v[1], v[0] + 1]
    np.testing.assert_array_equal(db.get(), [v[0] + 1, 0, v[2]])
    assert old_cs.get()[0] == v[1]
    np.testing.assert_array_equal(dc.get(), [v[2], 5])


def test_cas_spin_lock_serializes_updates(rng):
    @cuda.jit
    def locked_add(lock, total, values):
        i = cuda.grid(1)
        if i < values.size and cuda.threadIdx.x == 0:
            while cuda.atomic.cas(lock, 0, 0, 1) != 0:
                pass
            cuda.threadfence()
            total[0] += values[i]
            cuda.threadfence()
            cuda.atomic.exch(lock, 0, 0)

    values = rng.integers(0, 1000, 64 * 32).astype(np.int64)
    total = simt.zeros(1, dtype=np.int64)
    locked_add[64, 32](simt.zeros(1, dtype=np.int32), total, simt.asarray(values))
    assert total.get()[0] == values[::32].sum()


def test_atomics_with_tuple_index(rng):
    @cuda.jit
    def hist2d(xs, ys, h):
        i = cuda.grid(1)
        if i < xs.size:
            cuda.atomic.add(h, (xs[i], ys[i]), 1)
            idx = (ys[i], xs[i])
            cuda.atomic.add(h, idx, 100)

    xs, ys = rng.integers(0, 4, 3000), rng.integers(0, 4, 3000)
    h = simt.zeros((4, 4), dtype=np.int64)
    hist2d[12, 256](simt.asarray(xs), simt.asarray(ys), h)
    expected = np.zeros((4, 4), dtype=np.int64)
    np.add.at(expected, (xs, ys), 1)
    np.add.at(expected, (ys, xs), 100)
    np.testing.assert_array_equal(h.get(), expected)


def test_shared_memory_histogram_then_global(rng):
    @cuda.jit
    def histogram(values, out):
        local_hist = cuda.shared.array(16, np.int32)
        t = cuda.threadIdx.x
        if t < 16:
            local_hist[t] = 0
        cuda.syncthreads()
        i = cuda.grid(1)
        if i < values.size:
            cuda.atomic.add(local_hist, values[i], 1)
        cuda.syncthreads()
        if t < 16:
            cuda.atomic.add(out, t, local_hist[t])

    values = rng.integers(0, 16, 20000)
    out = simt.zeros(16, dtype=np.int32)
    histogram[(20000 + 127) // 128, 128](simt.asarray(values), out)
    np.testing.assert_array_equal(out.get(), np.bincount(values, minlength=16))


def test_atomic_out_of_range_is_masked_and_checked():
    @cuda.jit
    def masked(a, out):
        out[0] = cuda.atomic.add(a, 5, 1)     # out of range: nothing happens, returns 0
        out[1] = cuda.atomic.add(a, -1, 7)    # negative indices wrap once

    a = simt.asarray(np.array([1, 2, 3], np.int32))
    out = simt.zeros(2, dtype=np.int32)
    masked[1, 1](a, out)
    np.testing.assert_array_equal(a.get(), [1, 2, 10])
    np.testing.assert_array_equal(out.get(), [0, 3])

    @cuda.jit(boundscheck=True)
    def checked(a):
        cuda.atomic.max(a, 3, 1)

    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        checked[1, 1](a)
        simt.synchronize()


@pytest.mark.parametrize("op, dtype, message", [
    ("add", np.int16, "not supported on int16 arrays"),
    ("and_", np.float32, "not supported on float32 arrays"),
    ("inc", np.int32, "supports uint32 and uint64"),
    ("exch", np.float64, "not supported on float64 arrays"),
    ("max", np.complex128, "not supported on complex128 arrays"),
])
def test_atomic_unsupported_types(op, dtype, message, kernel_module):
    mod = kernel_module(f"from simt import cuda\n\n@cuda.jit\ndef k(a):\n    cuda.atomic.{op}(a, 0, 1)\n", f"atomic_{op}")
    with pytest.raises(cuda.TypingError, match=message) as info:
        mod.k[1, 1](simt.zeros(2, dtype=dtype))
    assert "line 5" in str(info.value) and "^" in str(info.value)


def test_atomic_index_errors():
    @cuda.jit
    def needs_two(a):
        cuda.atomic.add(a, 0, 1)

    with pytest.raises(cuda.TypingError, match="needs 2 indices"):
        needs_two[1, 1](simt.zeros((2, 2)))

    @cuda.jit
    def cs_2d(a):
        cuda.atomic.compare_and_swap(a, 0, 1)

    with pytest.raises(cuda.TypingError, match="1-D array"):
        cs_2d[1, 1](simt.zeros((2, 2), dtype=np.int32))
