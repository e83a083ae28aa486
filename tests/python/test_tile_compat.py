"""simt.cuda.tile where cuTile programs need more than NumPy's rules, against NumPy on fresh random
data: NaN in max/min/argmax/argmin/maximum/minimum (ignored unless propagate_nan=True), the
RoundingMode/MemoryOrder/MemoryScope enumerations and hint keywords (rounding_mode, flush_to_zero,
latency, check_bounds, memory_order), and the function spellings of operators (equal ... less_equal,
bitwise_not/lshift/rshift), isnan and atan2 (src/simt/sema/builtins_tile_named.cpp, tile_hints.cpp)."""
import math

import numpy as np
import pytest

import simt
import simt.cuda.tile as ct
from xp_testing import random_host


def run(kernel, grid, *args):
    ct.launch(None, grid, kernel, tuple(args))
    simt.cuda.synchronize()


@ct.kernel
def nan_reductions(x, out, propagate: ct.Constant[bool]):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    if propagate:
        ct.store(out, index=(0, 0), tile=ct.max(t, axis=1, keepdims=True, propagate_nan=True))
        ct.store(out, index=(0, 1), tile=ct.min(t, axis=1, keepdims=True, propagate_nan=True))
        ct.store(out, index=(0, 2), tile=ct.argmax(t, axis=1, keepdims=True, propagate_nan=True).astype(x.dtype))
        ct.store(out, index=(0, 3), tile=ct.argmin(t, axis=1, keepdims=True, propagate_nan=True).astype(x.dtype))
        ct.store(out, index=(0, 4), tile=ct.full((8, 1), ct.max(t, propagate_nan=True), dtype=x.dtype))
        ct.store(out, index=(0, 5), tile=ct.full((8, 1), ct.argmin(t, propagate_nan=True), dtype=x.dtype))
    else:
        ct.store(out, index=(0, 0), tile=ct.max(t, axis=1, keepdims=True))
        ct.store(out, index=(0, 1), tile=ct.min(t, axis=1, keepdims=True, flush_to_zero=False))
        ct.store(out, index=(0, 2), tile=ct.argmax(t, axis=1, keepdims=True).astype(x.dtype))
        ct.store(out, index=(0, 3), tile=t.argmin(axis=1, keepdims=True).astype(x.dtype))
        ct.store(out, index=(0, 4), tile=ct.full((8, 1), ct.max(t), dtype=x.dtype))
        ct.store(out, index=(0, 5), tile=ct.full((8, 1), ct.argmin(t), dtype=x.dtype))


def first_nan_or(values, fallback):
    """Per row: the index of the first NaN where a row has one, else fallback's."""
    has = np.isnan(values).any(axis=1)
    return np.where(has, np.argmax(np.isnan(values), axis=1), fallback)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_nan_gives_way_unless_propagate_nan(rng, dtype):
    h = random_host(rng, (8, 16), dtype)
    h[rng.random((8, 16)) < 0.25] = np.nan
    h[3] = np.nan  # a row of NaN only
    h[5, 0] = np.nan  # a NaN first in its row
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        nanmax, nanmin = np.nanmax(h, axis=1), np.nanmin(h, axis=1)
    out = simt.zeros((8, 6), dtype)
    run(nan_reductions, 1, simt.asarray(h), out, False)
    got = out.get()
    np.testing.assert_array_equal(got[:, 0], nanmax)  # (the all-NaN row gives NaN)
    np.testing.assert_array_equal(got[:, 1], nanmin)
    filled_max, filled_min = np.where(np.isnan(h), -np.inf, h), np.where(np.isnan(h), np.inf, h)
    np.testing.assert_array_equal(got[:, 2], np.where(np.isnan(h).all(axis=1), 0, np.argmax(filled_max, axis=1)))
    np.testing.assert_array_equal(got[:, 3], np.where(np.isnan(h).all(axis=1), 0, np.argmin(filled_min, axis=1)))
    np.testing.assert_array_equal(got[:, 4], np.nanmax(h))
    np.testing.assert_array_equal(got[:, 5], np.argmin(np.where(np.isnan(h), np.inf, h)))
    run(nan_reductions, 1, simt.asarray(h), out, True)
    got = out.get()
    np.testing.assert_array_equal(got[:, 0], np.max(h, axis=1))  # NumPy's rule: NaN wins
    np.testing.assert_array_equal(got[:, 1], np.min(h, axis=1))
    np.testing.assert_array_equal(got[:, 2], np.argmax(h, axis=1))  # (NumPy: the first NaN's index)
    np.testing.assert_array_equal(got[:, 3], np.argmin(h, axis=1))
    assert np.isnan(got[:, 4]).all()
    np.testing.assert_array_equal(got[:, 5], np.argmin(h))


@ct.kernel
def nan_elementwise(x, y, out, propagate: ct.Constant[bool]):
    a, b = ct.load(x, index=(0,), shape=(64,)), ct.load(y, index=(0,), shape=(64,))
    if propagate:
        ct.store(out, index=(0, 0), tile=ct.reshape(ct.maximum(a, b, propagate_nan=True), (1, 64)))
        ct.store(out, index=(1, 0), tile=ct.reshape(ct.minimum(a, b, propagate_nan=True), (1, 64)))
    else:
        ct.store(out, index=(0, 0), tile=ct.reshape(ct.maximum(a, b), (1, 64)))
        ct.store(out, index=(1, 0), tile=ct.reshape(ct.minimum(a, b, flush_to_zero=True), (1, 64)))


def test_maximum_minimum_nan(rng):
    a, b = random_host(rng, 64, np.float32), random_host(rng, 64, np.float32)
    a[rng.random(64) < 0.3] = np.nan
    b[rng.random(64) < 0.3] = np.nan
    out = simt.zeros((2, 64), np.float32)
    run(nan_elementwise, 1, simt.asarray(a), simt.asarray(b), out, False)
    np.testing.assert_array_equal(out.get(), np.stack([np.fmax(a, b), np.fmin(a, b)]))
    run(nan_elementwise, 1, simt.asarray(a), simt.asarray(b), out, True)
    np.testing.assert_array_equal(out.get(), np.stack([np.maximum(a, b), np.minimum(a, b)]))


@ct.kernel
def named_functions(x, y, out_b, out_i, out_f):
    a, b = ct.load(x, index=(0,), shape=(32,)), ct.load(y, index=(0,), shape=(32,))
    for k, t in enumerate((ct.equal(a, b), ct.not_equal(a, b), ct.greater(a, b), ct.greater_equal(a, 3),
                           ct.less(a, b), ct.less_equal(-2, b))):
        ct.store(out_b, index=(k, 0), tile=ct.reshape(t, (1, 32)))
    ct.store(out_i, index=(0, 0), tile=ct.reshape(ct.bitwise_not(a), (1, 32)))
    ct.store(out_i, index=(1, 0), tile=ct.reshape(ct.bitwise_lshift(a, 3), (1, 32)))
    ct.store(out_i, index=(2, 0), tile=ct.reshape(ct.bitwise_rshift(a, b & 7), (1, 32)))
    ct.store(out_f, index=(0, 0), tile=ct.reshape(ct.atan2(a, b), (1, 32)))
    ct.store(out_f, index=(1, 0), tile=ct.reshape(ct.isnan(ct.astype(a, ct.float64) / b).astype(ct.float64), (1, 32)))


def test_function_spellings_of_operators(rng):
    a = rng.integers(-6, 7, 32).astype(np.int32)
    b = rng.integers(-6, 7, 32).astype(np.int32)
    a[:4], b[:4] = 0, 0  # 0 / 0: NaN
    out_b, out_i, out_f = simt.zeros((6, 32), np.bool_), simt.zeros((3, 32), np.int32), simt.zeros((2, 32))
    run(named_functions, 1, simt.asarray(a), simt.asarray(b), out_b, out_i, out_f)
    np.testing.assert_array_equal(out_b.get(), np.stack([a == b, a != b, a > b, a >= 3, a < b, -2 <= b]))
    np.testing.assert_array_equal(out_i.get(), np.stack([~a, a << 3, a >> (b & 7)]))
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = a.astype(np.float64) / b
    np.testing.assert_allclose(out_f.get()[0], np.arctan2(a, b), rtol=1e-14)
    np.testing.assert_array_equal(out_f.get()[1], np.isnan(ratio))


@ct.kernel
def atan2_float32(x, y, out):
    t = ct.atan2(ct.load(x, index=(0,), shape=(128,)), ct.load(y, index=(0,), shape=(128,)))
    ct.store(out, index=(0,), tile=t)


def test_atan2_float32_and_float16(rng):
    for dtype, rtol in ((np.float32, 2e-6), (np.float16, 2e-3)):
        y, x = random_host(rng, 128, dtype), random_host(rng, 128, dtype)
        out = simt.zeros(128, dtype)
        run(atan2_float32, 1, simt.asarray(y), simt.asarray(x), out)
        np.testing.assert_allclose(out.get().astype(np.float64), np.arctan2(y.astype(np.float64), x.astype(np.float64)),
                                   rtol=rtol, atol=rtol)


@ct.kernel
def with_hints(x, out, counts):
    t = ct.load(x, index=(0,), shape=(64,), latency=4, allow_tma=False, check_bounds=True,
                memory_order=ct.MemoryOrder.WEAK, memory_scope=ct.MemoryScope.NONE)
    s = ct.add(t, 1.0, rounding_mode=ct.RoundingMode.RN, flush_to_zero=True)
    e = ct.exp(ct.mul(s, 0.5, flush_to_zero=False), rounding_mode=ct.RoundingMode.APPROX)
    r = ct.sqrt(ct.tanh(e, rounding_mode=ct.RoundingMode.FULL), rounding_mode=ct.RoundingMode.RN, flush_to_zero=True)
    ct.store(out, index=(0,), tile=ct.astype(r, out.dtype, rounding_mode=ct.RoundingMode.RN), check_bounds=False,
             memory_order=ct.MemoryOrder.RELAXED, memory_scope=ct.MemoryScope.BLOCK)
    ct.store(out, index=(1,), tile=ct.sum(t, axis=0, keepdims=True, rounding_mode=ct.RoundingMode.RN, flush_to_zero=False)
             + ct.zeros((64,), dtype=out.dtype))
    ones = ct.full((64,), 1, dtype=ct.int32)
    ct.atomic_add(counts, ct.arange(64, dtype=ct.int32) % 4, ones, memory_order=ct.MemoryOrder.ACQ_REL,
                  memory_scope=ct.MemoryScope.DEVICE)
    g = ct.gather(x, ct.arange(64, dtype=ct.int32) * 2, latency=2, check_bounds=True)
    ct.scatter(out, ct.arange(64, dtype=ct.int32) + 128, g, check_bounds=True, latency=1)


def test_hint_keywords_are_accepted_and_change_nothing(rng):
    h = random_host(rng, 128, np.float64, low=0.0, high=2.0)
    out, counts = simt.zeros(192), simt.zeros(4, np.int32)
    run(with_hints, 1, simt.asarray(h), out, counts)
    got = out.get()
    t = h[:64]
    np.testing.assert_allclose(got[:64], np.sqrt(np.tanh(np.exp((t + 1) * 0.5))), rtol=1e-12)
    np.testing.assert_allclose(got[64:128], np.full(64, t.sum()), rtol=1e-12)
    np.testing.assert_array_equal(got[128:], h[::2][:64])
    np.testing.assert_array_equal(counts.get(), [16, 16, 16, 16])


@ct.kernel
def bad_hint(x, which: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(8,))
    if which == 0:
        t = ct.add(t, 1.0, rounding_mode=ct.RoundingMode.RZ)
    elif which == 1:
        t = ct.load(x, index=(0,), shape=(8,), latency=11)
    elif which == 2:
        t = ct.sum(t, axis=0, keepdims=True, flush_to_zero=1.5) + t
    else:
        t = ct.max(t, axis=0, keepdims=True, propagate_nan=x[0] > 0) + t
    ct.store(x, index=(0,), tile=t)


@pytest.mark.parametrize("which,error,message", [
    (0, simt.cuda.UnsupportedError, "rounding_mode 'zero': simt rounds to nearest even"),
    (1, simt.cuda.TypingError, "latency must be an integer from 1 to 10"),
    (2, simt.cuda.TypingError, "flush_to_zero must be True or False"),
    (3, simt.cuda.TypingError, "propagate_nan must be a constant True or False")])
def test_hint_keyword_errors(which, error, message):
    with pytest.raises(error, match=message):
        run(bad_hint, 1, simt.zeros(8), which)


def test_enumerations_on_the_host():
    assert ct.RoundingMode.RN == "nearest_even" and ct.RoundingMode.APPROX == "approx"
    assert ct.MemoryOrder.ACQ_REL == "acq_rel" and ct.MemoryScope.DEVICE == "device"


@ct.kernel
def reshape_inferred(x, out):
    t = ct.load(x, index=(0, 0), shape=(4, 16))
    ct.store(out, index=(0, 0), tile=ct.reshape(t, (-1, 8)))
    ct.store(out, index=(1, 0), tile=t.reshape((8, -1)) * 2)


@ct.kernel
def reshape_two_unknowns(x):
    t = ct.load(x, index=(0, 0), shape=(4, 16))
    ct.store(x, index=(0, 0), tile=ct.reshape(ct.reshape(t, (-1, -1)), (4, 16)))


def test_reshape_infers_one_dimension(rng):
    h = random_host(rng, (4, 16), np.int64)
    out = simt.zeros((16, 8), np.int64)
    run(reshape_inferred, 1, simt.asarray(h), out)
    np.testing.assert_array_equal(out.get(), np.concatenate([h.reshape(-1, 8), h.reshape(8, -1) * 2]))
    with pytest.raises(simt.cuda.TypingError, match="can have one -1, not several"):
        run(reshape_two_unknowns, 1, simt.asarray(h))


def make_scan_kernel(name, axis, reverse, shape):
    fn = getattr(ct, name)
    idx = (0,) * len(shape)  # (a closure constant)

    @ct.kernel
    def k(x, y):
        ct.store(y, index=idx, tile=fn(ct.load(x, index=idx, shape=shape), axis=axis, reverse=reverse))
    return k


def numpy_scan(name, h, axis, reverse):
    f = np.cumsum if name == "cumsum" else np.cumprod
    if not reverse:
        return f(h, axis=axis)
    return np.flip(f(np.flip(h, axis=axis), axis=axis), axis=axis)


@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16])
@pytest.mark.parametrize("shape,axis,reverse", [((256,), 0, False), ((256,), 0, True), ((8, 64), 1, False),
                                                ((8, 64), 0, True), ((4, 8, 16), 1, False), ((4, 8, 16), -1, True),
                                                ((2,), 0, False), ((1, 4), 0, False)])
def test_scans_against_numpy(rng, name, dtype, shape, axis, reverse):
    if name == "cumprod":  # (products near 1 stay in range and keep their precision)
        h = random_host(rng, shape, dtype, low=0.9, high=1.1) if np.dtype(dtype).kind == "f" else \
            np.where(rng.random(shape) < 0.1, 2, 1).astype(dtype)
    else:
        h = random_host(rng, shape, dtype)
    expected = numpy_scan(name, h, axis, reverse)
    out = simt.zeros(shape, expected.dtype)
    run(make_scan_kernel(name, axis, reverse, shape), 1, simt.asarray(h), out)
    if np.dtype(dtype).kind == "f":
        # (float32 and float16 accumulate in another order, or in float32: a few ulps of the line's scale)
        tol = {np.float16: 2e-2, np.float32: 1e-5, np.float64: 1e-13}[dtype]
        scale = np.maximum.accumulate(np.abs(expected.astype(np.float64)), axis=axis % len(shape))
        np.testing.assert_allclose(out.get().astype(np.float64), expected.astype(np.float64), rtol=tol,
                                   atol=tol * float(np.max(scale)))
    else:
        np.testing.assert_array_equal(out.get(), expected)
    assert out.dtype == expected.dtype  # NumPy's: small integers widen to 64 bits


@ct.kernel
def scan_of_bool(x, y):
    t = ct.load(x, index=(0,), shape=(64,)) > 0.5
    ct.store(y, index=(0,), tile=ct.cumsum(t))


def test_cumsum_of_a_boolean_tile_counts(rng):
    h = rng.random(64)
    y = simt.zeros(64, np.int64)
    run(scan_of_bool, 1, simt.asarray(h), y)
    np.testing.assert_array_equal(y.get(), np.cumsum(h > 0.5))


@ct.kernel
def item_and_builtin_minmax(x, y, out, counts):
    a, b = ct.load(x, index=(0,), shape=(64,)), ct.load(y, index=(0,), shape=(64,))
    ct.store(out, index=(0, 0), tile=ct.reshape(max(a, b), (1, 64)))
    ct.store(out, index=(1, 0), tile=ct.reshape(min(a, 0.25), (1, 64)))
    n = ct.sum(a > 0.5, axis=0, keepdims=True).item()  # a number usable as an index
    ct.store(counts, index=(n,), tile=ct.full((1,), n, dtype=ct.int64))


def test_item_and_builtin_min_max_of_tiles(rng):
    a, b = random_host(rng, 64, np.float32), random_host(rng, 64, np.float32)
    a[:8] = np.nan  # builtin max of tiles is tile.maximum: NaN gives way
    out, counts = simt.zeros((2, 64), np.float32), simt.full(65, -1, np.int64)
    run(item_and_builtin_minmax, 1, simt.asarray(a), simt.asarray(b), out, counts)
    np.testing.assert_array_equal(out.get(), np.stack([np.fmax(a, b), np.fmin(a, np.float32(0.25))]))
    n = int((a > 0.5).sum())
    expected = np.full(65, -1)
    expected[n] = n
    np.testing.assert_array_equal(counts.get(), expected)


@ct.kernel
def item_of_many(x):
    ct.store(x, index=(0,), tile=ct.full((2,), ct.load(x, index=(0,), shape=(2,)).item(), dtype=x.dtype))


def test_item_needs_one_element():
    with pytest.raises(simt.cuda.TypingError, match=r"Tile.item\(\) of tile\(float64, \(2,\)\)"):
        run(item_of_many, 1, simt.zeros(2))


@ct.kernel
def scalar_tile_functions(x, out):
    a, b = x[0], x[1]
    out[0] = ct.maximum(a, b)
    out[1] = ct.minimum(a, b, propagate_nan=True)
    out[2] = ct.isnan(a)


@ct.kernel
def huge_or_unfillable(x, which: ct.Constant[int]):
    if which == 0:
        t = ct.load(x, index=(0, 0), shape=(4294967296, 4294967296))
    else:
        t = ct.reshape(ct.load(x, index=(0, 0), shape=(4, 4)), (32, -1))
    ct.store(x, index=(0, 0), tile=t)


def test_scalar_arguments_and_shape_limits():
    x = simt.asarray(np.array([np.nan, 2.0]))
    out = simt.zeros(3)
    run(scalar_tile_functions, 1, x, out)
    np.testing.assert_array_equal(out.get(), [2.0, np.nan, 1.0])
    with pytest.raises(simt.cuda.TypingError, match="a tile holds at most 32768 elements"):
        run(huge_or_unfillable, 1, simt.zeros((4, 4)), 0)
    with pytest.raises(simt.cuda.TypingError, match="no length for -1 makes 16 elements"):
        run(huge_or_unfillable, 1, simt.zeros((4, 4)), 1)
    with pytest.raises(simt.cuda.TypingError, match="memory_order must be a tile.MemoryOrder member"):
        run(wrong_enum, 1, simt.zeros(8))


@ct.kernel
def wrong_enum(x):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(8,), memory_order=ct.MemoryScope.DEVICE))


@ct.kernel
def extract_pieces(x, out):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    for i in range(2):
        for j in range(4):
            ct.store(out, index=(i * 4 + j, 0), tile=ct.reshape(ct.extract(t, (i, j), (4, 4)), (1, 16)))
    ct.store(out, index=(8, 0), tile=ct.reshape(t.extract((1, 3), shape=(4, 4)), (1, 16)))


def test_extract_pieces(rng):
    h = random_host(rng, (8, 16), np.float32)
    out = simt.zeros((9, 16), np.float32)
    run(extract_pieces, 1, simt.asarray(h), out)
    pieces = [h[i * 4:(i + 1) * 4, j * 4:(j + 1) * 4].reshape(16) for i in range(2) for j in range(4)]
    np.testing.assert_array_equal(out.get(), np.stack(pieces + [pieces[7]]))


@ct.kernel
def bitcasts(x, ints, back):
    t = ct.load(x, index=(0,), shape=(32,))
    bits = ct.bitcast(t, ct.int32)
    ct.store(ints, index=(0,), tile=bits)
    ct.store(back, index=(0,), tile=ct.bitcast(bits ^ 0x7FFFFFFF, ct.float32))


def test_bitcast(rng):
    h = random_host(rng, 32, np.float32)
    ints, back = simt.zeros(32, np.int32), simt.zeros(32, np.float32)
    run(bitcasts, 1, simt.asarray(h), ints, back)
    np.testing.assert_array_equal(ints.get(), h.view(np.int32))
    np.testing.assert_array_equal(back.get().view(np.int32), h.view(np.int32) ^ 0x7FFFFFFF)


@ct.kernel
def compare_and_swap(x, idx, expected, desired, old):
    i = ct.load(idx, index=(0,), shape=(64,))
    e = ct.load(expected, index=(0,), shape=(64,))
    d = ct.load(desired, index=(0,), shape=(64,))
    ct.store(old, index=(0,), tile=ct.atomic_cas(x, i, e, d, memory_order=ct.MemoryOrder.ACQ_REL))


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.float32, np.float64])
def test_atomic_cas(rng, dtype):
    x = rng.integers(0, 4, 64).astype(dtype)
    idx = rng.permutation(64).astype(np.int64)  # every element once: the result does not depend on order
    idx[:3] = [-1, 64, 1000]  # outside the array: untouched, and the old value reads as expected
    expected = rng.integers(0, 4, 64).astype(dtype)
    desired = (rng.integers(10, 20, 64)).astype(dtype)
    ref, want_old = x.copy(), expected.copy()
    for k in range(3, 64):
        want_old[k] = ref[idx[k]]
        if ref[idx[k]] == expected[k]:
            ref[idx[k]] = desired[k]
    d = simt.asarray(x)
    old = simt.zeros(64, dtype)
    run(compare_and_swap, 1, d, simt.asarray(idx), simt.asarray(expected), simt.asarray(desired), old)
    np.testing.assert_array_equal(old.get(), want_old)
    np.testing.assert_array_equal(d.get(), ref)


@ct.kernel
def bad_select(x, which: ct.Constant[int]):
    t = ct.load(x, index=(0,), shape=(8,))
    if which == 0:
        t = ct.extract(t, (0,), (3,)) + t
    elif which == 1:
        t = ct.bitcast(t, ct.int32) + t
    else:
        t = ct.atomic_cas(x, ct.arange(8, dtype=ct.int32), t, t).astype(ct.float16) + t
    ct.store(x, index=(0,), tile=t)


@pytest.mark.parametrize("which,message", [(0, "powers of two, not 3"), (1, "from float64 to int32"),
                                           (2, "does not apply to arrays of float16")])
def test_select_and_bits_errors(which, message):
    x = simt.zeros(8, np.float16 if which == 2 else np.float64)
    with pytest.raises(simt.cuda.TypingError, match=message):
        run(bad_select, 1, x, which)


@ct.kernel
def add_axes_by_indexing(x, out):
    row = ct.load(x, index=(0,), shape=(16,))
    col = ct.load(x, index=(1,), shape=(16,))
    ct.store(out, index=(0, 0), tile=row[None, :] * col[:, None])  # an outer product, NumPy's way
    ct.store(out, index=(1, 0), tile=ct.reshape(row[None][:, :, None], (16, 1)) + ct.zeros((16, 16), dtype=out.dtype))


def test_tile_indexing_with_none(rng):
    h = random_host(rng, 32, np.float64)
    out = simt.zeros((32, 16))
    run(add_axes_by_indexing, 1, simt.asarray(h), out)
    row, col = h[:16], h[16:]
    np.testing.assert_allclose(out.get()[:16], row[None, :] * col[:, None], rtol=1e-15)
    np.testing.assert_array_equal(out.get()[16:], np.broadcast_to(row[:, None], (16, 16)))


@ct.kernel
def index_tile_with_number(x):
    t = ct.load(x, index=(0,), shape=(8,))
    ct.store(x, index=(0,), tile=ct.full((8,), t[2], dtype=x.dtype))


def test_tile_indexing_errors():
    with pytest.raises(simt.cuda.TypingError, match="indexed only with ':' and None"):
        run(index_tile_with_number, 1, simt.zeros(8))


@ct.kernel
def item_of_a_number(x, out):
    n = ct.sum(ct.load(x, index=(0,), shape=(16,)) > 0.5).item()  # a whole-tile reduction's item()
    ct.store(out, index=(0,), tile=ct.full((4,), n, dtype=out.dtype))


@ct.kernel
def max_of_three(x):
    t = ct.load(x, index=(0,), shape=(8,))
    ct.store(x, index=(0,), tile=max(t, t, t))


def test_item_of_a_reduction_and_max_of_three(rng):
    h = rng.random(16)
    out = simt.zeros(4, np.int64)
    run(item_of_a_number, 1, simt.asarray(h), out)
    np.testing.assert_array_equal(out.get(), np.full(4, (h > 0.5).sum()))
    with pytest.raises(simt.cuda.TypingError, match=r"max\(\) of tiles takes two arguments"):
        run(max_of_three, 1, simt.zeros(8))


@ct.kernel
def insert_pieces(x, y, out):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    p = ct.load(y, index=(0, 0), shape=(4, 4))
    t = ct.insert(t, (1, 2), p)
    t = t.insert((0, 3), p.astype(ct.int32) * 0)  # converted to t's dtype
    t = ct.insert(t, (7, 0), -1.5)  # a number replaces one element
    ct.store(out, index=(0, 0), tile=t)


def test_insert_pieces(rng):
    h, p = random_host(rng, (8, 16), np.float64), random_host(rng, (4, 4), np.float64)
    out = simt.zeros((8, 16))
    run(insert_pieces, 1, simt.asarray(h), simt.asarray(p), out)
    want = h.copy()
    want[4:8, 8:12] = p
    want[0:4, 12:16] = 0
    want[7, 0] = -1.5
    np.testing.assert_array_equal(out.get(), want)


@ct.kernel
def compile_time_helpers(x, n: ct.Constant[int]):
    ct.static_assert(n % 4 == 0, "n must be a multiple of 4")
    t = ct.load(x, index=(ct.assume_divisible_by(ct.bid(0), 1),), shape=(ct.ensure_constant(n * 2),))
    ct.store(x, index=(0,), tile=t + 1)


@ct.kernel
def runtime_constant(x, k):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(ct.ensure_constant(k),)))


def test_compile_time_helpers(rng):
    h = random_host(rng, 16, np.float64)
    x = simt.asarray(h)
    run(compile_time_helpers, 1, x, 8)
    np.testing.assert_array_equal(x.get(), h + 1)
    with pytest.raises(simt.cuda.TypingError, match="tile.static_assert failed: n must be a multiple of 4"):
        run(compile_time_helpers, 1, x, 6)
    with pytest.raises(simt.cuda.TypingError, match=r"ensure_constant\(\) needs a value known when the kernel compiles"):
        run(runtime_constant, 1, x, 4)


@ct.kernel
def tiles_along_permuted_axes(x, out):
    out[0] = ct.num_tiles(x, axis=0, shape=(4, 8), order=(1, 0))  # x.T: 30 rows in tiles of 4
    out[1] = ct.num_tiles(x, 1, (4, 8), order="F")  # 10 columns of x.T in tiles of 8
    out[2] = ct.num_tiles(x, 0, (4, 8))


def test_num_tiles_with_order():
    out = simt.zeros(3, np.int64)
    run(tiles_along_permuted_axes, 1, simt.zeros((10, 30)), out)
    np.testing.assert_array_equal(out.get(), [8, 2, 3])


TILE_ROWS = 2


@ct.kernel
def shapes_from_locals(x, out, TILE: ct.Constant[int]):
    half = TILE // 2           # a local assigned once, from a constant: a constant itself
    rows, cols = TILE_ROWS, half
    t = ct.load(x, index=(ct.bid(0), 0), shape=(rows, cols))
    ct.store(out, index=(ct.bid(0), 0), tile=t * half)


def test_tile_shapes_from_locals_holding_constants(rng):
    h = random_host(rng, (8, 8), np.float32)
    out = simt.zeros((8, 8), np.float32)
    run(shapes_from_locals, 4, simt.asarray(h), out, 8)
    want = np.zeros_like(h)
    want[:, :4] = h[:, :4] * 4
    np.testing.assert_allclose(out.get(), want, rtol=1e-6)


@ct.kernel
def shape_from_reassigned_local(x, n: ct.Constant[int]):
    m = n
    m = m * 2  # assigned twice: not one value for the whole function
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(m,)))


@ct.kernel
def shape_from_local_set_in_a_branch(x, n: ct.Constant[int]):
    if ct.bid(0) == 0:
        m = n
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(m,)))


@pytest.mark.parametrize("kernel", [shape_from_reassigned_local, shape_from_local_set_in_a_branch])
def test_tile_shapes_from_locals_that_are_not_constants(kernel):
    with pytest.raises(simt.cuda.TypingError, match=r"shape must be known when the kernel compiles"):
        run(kernel, 1, simt.zeros(16), 4)


def largest_magnitude(a, b):  # a device function given to tile.reduce
    return ct.maximum(abs(a), abs(b))


@ct.kernel
def custom_reductions(x, sums, mags, mags_kept, running_max, products, ors, bits):
    t = ct.load(x, index=(0, 0), shape=(8, 16))
    weight = 0.5
    ct.store(sums, index=(0,), tile=ct.reduce(t, 1, lambda a, b: a + b * weight, 0.0))
    ct.store(mags, index=(0,), tile=ct.reduce(t, axis=0, func=largest_magnitude, identity=0.0))
    ct.store(mags_kept, index=(0, 0), tile=ct.reduce(t, -2, largest_magnitude, 0.0, keepdims=True))
    ct.store(running_max, index=(0, 0), tile=ct.scan(t, 1, ct.maximum, -math.inf))
    ct.store(products, index=(0, 0), tile=ct.scan(t, axis=0, func=lambda a, b: a * b, identity=1.0, reverse=True))
    b = ct.load(bits, index=(0, 0), shape=(8, 16))
    ct.store(ors, index=(0,), tile=ct.reduce(b, 1, lambda p, q: p | q, 0))


@ct.kernel
def operand_order(x, last, firsts, lasts, lasts_reversed):
    t = ct.load(x, index=(0, 0), shape=(4, 8))
    ct.store(last, index=(0,), tile=ct.reduce(t, 1, lambda acc, v: v, 0.0))  # folds in order: the last
    ct.store(firsts, index=(0, 0), tile=ct.scan(t, 1, lambda a, b: a, 0.0))  # associative, not commutative
    ct.store(lasts, index=(0, 0), tile=ct.scan(t, 1, lambda a, b: b, 0.0))
    ct.store(lasts_reversed, index=(0, 0), tile=ct.scan(t, 1, lambda a, b: a, 0.0, reverse=True))


def test_reduce_and_scan_keep_the_operands_in_order(rng):
    h = random_host(rng, (4, 8), np.float64)
    outs = [simt.zeros(4), simt.zeros((4, 8)), simt.zeros((4, 8)), simt.zeros((4, 8))]
    run(operand_order, 1, simt.asarray(h), *outs)
    last, firsts, lasts, lasts_reversed = (o.get() for o in outs)
    np.testing.assert_array_equal(last, h[:, -1])
    np.testing.assert_array_equal(firsts, np.repeat(h[:, :1], 8, axis=1))
    np.testing.assert_array_equal(lasts, h)
    np.testing.assert_array_equal(lasts_reversed, h)  # reversed: the later element comes first


def test_reduce_and_scan_with_the_users_function(rng):
    h = random_host(rng, (8, 16), np.float64)
    bits = (np.int32(1) << rng.integers(0, 31, (8, 16))).astype(np.int32)
    outs = [simt.zeros(8), simt.zeros(16), simt.zeros((1, 16)), simt.zeros((8, 16)), simt.zeros((8, 16)),
            simt.zeros(8, np.int32)]
    run(custom_reductions, 1, simt.asarray(h), *outs[:5], outs[5], simt.asarray(bits))
    sums, mags, mags_kept, running_max, products, ors = (o.get() for o in outs)
    np.testing.assert_allclose(sums, h.sum(axis=1) * 0.5, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(mags, np.abs(h).max(axis=0))
    np.testing.assert_array_equal(mags_kept, np.abs(h).max(axis=0, keepdims=True))
    np.testing.assert_array_equal(running_max, np.maximum.accumulate(h, axis=1))
    np.testing.assert_allclose(products, np.cumprod(h[::-1], axis=0)[::-1], rtol=1e-12)
    np.testing.assert_array_equal(ors, np.bitwise_or.reduce(bits, axis=1))


@ct.kernel
def reduce_with_unknown_identity(x, start):
    ct.store(x, index=(0,), tile=ct.reduce(ct.load(x, index=(0, 0), shape=(4, 4)), 1, lambda a, b: a + b, start))


@ct.kernel
def reduce_with_a_pair_function(x):
    ct.store(x, index=(0,), tile=ct.reduce(ct.load(x, index=(0, 0), shape=(4, 4)), 1, lambda a, b: (a, b), 0.0))


@ct.kernel
def reduce_a_tuple_of_tiles(x):
    t = ct.load(x, index=(0, 0), shape=(4, 4))
    ct.store(x, index=(0,), tile=ct.reduce((t, t), 1, lambda a, b, c, d: (a + c, b + d), (0.0, 0.0)))


@ct.kernel
def lambda_stored_as_a_value(x):
    f = (lambda a, b: a + b, 1)
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(4,)))


@ct.kernel
def reduce_int_with_a_huge_identity(x):
    ct.store(x, index=(0,), tile=ct.reduce(ct.load(x, index=(0, 0), shape=(4, 4)), 1, ct.minimum, 2 ** 40))


@ct.kernel
def reduce_int_with_an_infinite_identity(x):
    ct.store(x, index=(0,), tile=ct.reduce(ct.load(x, index=(0, 0), shape=(4, 4)), 1, ct.maximum, -math.inf))


@ct.kernel
def reduce_int_with_a_float_function(x):
    ct.store(x, index=(0,), tile=ct.reduce(ct.load(x, index=(0, 0), shape=(4, 4)), 1, lambda a, b: a / b, 1))


@ct.kernel
def reduce_with_a_one_argument_lambda(x):
    ct.store(x, index=(0,), tile=ct.reduce(ct.load(x, index=(0, 0), shape=(4, 4)), 1, lambda a: a, 0.0))


def floats():
    return (simt.zeros((4, 4)),)


def ints():
    return (simt.zeros((4, 4), np.int32),)


@pytest.mark.parametrize("kernel, arguments, message", [
    (reduce_int_with_a_huge_identity, ints, r"identity 1099511627776 is not a value of the tile's dtype \(int32\)"),
    (reduce_int_with_an_infinite_identity, ints, r"identity -inf is not a value of the tile's dtype \(int32\)"),
    (reduce_int_with_a_float_function, ints, r"func must return one number of the tile's kind \(int32\) for two of them, not float64"),
    (reduce_with_a_one_argument_lambda, floats, r"the lambda on line \d+ takes at most 1 argument"),
    (reduce_with_unknown_identity, lambda: floats() + (1.5,), r"identity must be a number known when the kernel compiles"),
    (reduce_with_a_pair_function, floats, r"func must return one number of the tile's kind \(float64\) for two of them, not UniTuple"),
    (reduce_a_tuple_of_tiles, floats, r"tile.reduce\(\) of a tuple of tiles is not supported yet"),
    (lambda_stored_as_a_value, floats, r"a lambda can only be called, or given to a function that takes one \(tile.reduce"),
])
def test_reduce_misuse_is_a_clear_error(kernel, arguments, message):
    with pytest.raises(simt.cuda.TypingError, match=message):
        run(kernel, 1, *arguments())


WIDTHS = (2, 4, 8)


@ct.kernel
def unrolled_loops(x, y, out, N: ct.Constant[int]):
    acc = ct.zeros((8,), dtype=ct.float64)
    for w in ct.static_iter(WIDTHS):  # w is a constant in each copy: a tile shape
        t = ct.load(x, index=(0,), shape=(w,))  # t takes another shape in each copy
        acc = acc + ct.sum(t) * w
    for a in ct.static_iter((x, y)):  # a tuple of arrays: one copy per array
        t = ct.load(a, index=(0,), shape=(8,))  # (the same temporary name as the loop above)
        acc = acc + t
    for i in ct.static_iter(range(N - 1, -1, -1)):
        acc = acc * 2 + i
    chosen = ct.static_eval(x if N % 2 == 0 else y)
    acc = acc + ct.load(chosen, index=(0,), shape=(8,)) * ct.static_eval(N * 10)
    ct.store(out, index=(0,), tile=acc + (i + 7))  # i stays bound to the last item (0), as in Python


@pytest.mark.parametrize("n", [3, 4])
def test_static_iter_unrolls_and_static_eval_selects(rng, n):
    h, g = random_host(rng, 8, np.float64), random_host(rng, 8, np.float64)
    out = simt.zeros(8)
    run(unrolled_loops, 1, simt.asarray(h), simt.asarray(g), out, n)
    acc = np.zeros(8)
    for w in WIDTHS:
        acc = acc + h[:w].sum() * w
    acc = acc + h + g
    for i in range(n - 1, -1, -1):
        acc = acc * 2 + i
    acc = acc + (h if n % 2 == 0 else g) * (n * 10)
    np.testing.assert_allclose(out.get(), acc + 7, rtol=1e-12)


@ct.kernel
def static_iter_with_break(x):
    for w in ct.static_iter((1, 2)):
        if w > 1:
            break
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(4,)))


@ct.kernel
def static_iter_over_a_runtime_range(x, n):
    for i in ct.static_iter(range(n)):
        x[i] = 1.0


@ct.kernel
def static_iter_as_a_value(x):
    it = ct.static_iter((1, 2))
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(4,)))


@ct.kernel
def static_eval_of_a_computation(x):
    t = ct.load(x, index=(0,), shape=(4,))
    ct.store(x, index=(0,), tile=ct.static_eval(t + 1))


@pytest.mark.parametrize("kernel, arguments, message", [
    (static_iter_with_break, (), r"a static_iter loop's body cannot hold break"),
    (static_iter_over_a_runtime_range, (4,), r"tile.static_iter\(range\(...\)\) needs constant bounds"),
    (static_iter_as_a_value, (), r"tile.static_iter\(\) can only be the iterable of a for loop"),
    (static_eval_of_a_computation, (), r"tile.static_eval\(\) needs an expression known when the kernel compiles"),
])
def test_static_iter_and_static_eval_misuse(kernel, arguments, message):
    with pytest.raises((simt.cuda.TypingError, simt.cuda.UnsupportedError), match=message):
        run(kernel, 1, simt.zeros(8), *arguments)


@ct.kernel
def static_iter_details(x, y, out, carried):
    a = ct.load(x, index=(0,), shape=(8,))
    b = ct.load(y, index=(0,), shape=(8,))
    acc = ct.zeros((8,), dtype=ct.float64)
    for v in ct.static_iter((a, b)):  # the items are read once, before the body rebinds a
        a = a * 2
        acc = acc + v
    for w in ct.static_iter((2, 4, 8)):
        h = w // 2  # set once from a constant in each copy: a constant there, so a shape
        acc = acc + ct.sum(ct.load(x, index=(0,), shape=(h,)))
    for w in ct.static_iter((1, 2)):
        scale = w * 1.5  # read after the loop by an inner function: one variable, left at 3.0

    def scaled(t):
        return t * scale
    ct.store(out, index=(0,), tile=scaled(acc))
    for i in ct.static_iter(range(3)):  # a value carried from one copy to the next
        if i > 0:
            ct.store(carried, index=(i,), tile=ct.full((1,), prev, dtype=ct.int64))
        prev = i + 5
        ct.store(carried, index=(i + 3,), tile=ct.full((1,), i * 2, dtype=ct.int64))


def test_static_iter_reads_items_once_and_keeps_shared_variables_shared(rng):
    h, g = random_host(rng, 8, np.float64), random_host(rng, 8, np.float64)
    out, carried = simt.zeros(8), simt.zeros(6, np.int64)
    run(static_iter_details, 1, simt.asarray(h), simt.asarray(g), out, carried)
    acc = h + g + h[:1].sum() + h[:2].sum() + h[:4].sum()
    np.testing.assert_allclose(out.get(), acc * 3.0, rtol=1e-12)
    np.testing.assert_array_equal(carried.get(), [0, 5, 6, 0, 2, 4])


@ct.kernel
def static_iter_too_long(x):
    acc = ct.zeros((4,), dtype=ct.float64)
    for i in ct.static_iter(range(1001)):
        acc = acc + i
    ct.store(x, index=(0,), tile=acc)


@ct.kernel
def static_iter_with_a_nested_definition(x):
    t = ct.load(x, index=(0,), shape=(4,))
    for v in ct.static_iter((1, 2)):
        for j in range(1):
            if True:
                def g(a, b):
                    return a + b * v
    ct.store(x, index=(0,), tile=t)


@pytest.mark.parametrize("kernel, message", [
    (static_iter_too_long, r"tile.static_iter\(\) unrolls at most 1000 iterations"),
    (static_iter_with_a_nested_definition, r"a static_iter loop's body cannot hold a function or lambda definition"),
])
def test_static_iter_limits(kernel, message):
    with pytest.raises((simt.cuda.TypingError, simt.cuda.UnsupportedError), match=message):
        run(kernel, 1, simt.zeros(8))


@ct.kernel
def nested_static_iters(x, out, tail):
    for w in ct.static_iter((2, 4)):
        for v in ct.static_iter((0, 1)):
            h = w // 2 + v  # a constant in each inner copy of each outer copy
            t = ct.load(x, index=(0,), shape=(w,))  # another shape in each outer copy
            ct.store(out, index=(w + v,), tile=ct.full((1,), ct.sum(t) * h, dtype=ct.float64))
    for i in ct.static_iter((1,)):
        u = ct.load(x, index=(0,), shape=(4,)) * i
    for v in ct.static_iter((u, u)):  # this loop's items read the earlier loop's variable
        u = v * 2
    ct.store(tail, index=(0,), tile=u)


def test_static_iter_loops_inside_static_iter_loops(rng):
    h = random_host(rng, 8, np.float64)
    out, tail = simt.zeros(8), simt.zeros(4)
    run(nested_static_iters, 1, simt.asarray(h), out, tail)
    want = np.zeros(8)
    for w in (2, 4):
        for v in (0, 1):
            want[w + v] = h[:w].sum() * (w // 2 + v)
    np.testing.assert_allclose(out.get(), want, rtol=1e-12)
    np.testing.assert_allclose(tail.get(), h[:4] * 2, rtol=1e-12)
