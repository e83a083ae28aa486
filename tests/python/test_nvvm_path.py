"""The cuda backend's NVVM IR path (codegen/nvvm_ir.h): kernels of the covered language core are
compiled by libNVVM instead of NVRTC. These kernels exercise every construct the IR emission
writes, with the edge cases where Python's semantics differ from C's (floor division, modulo,
shifts past the width, integer powers, saturating float-to-int conversion, masked and wrapped
indices, short-circuit evaluation). They run on every backend: the cpu backend checks the
expected values, the GPU suite checks the NVVM path against them."""
import math

import numpy as np
import pytest

import simt
from simt import cuda

I64 = np.iinfo(np.int64)


@cuda.jit
def integer_ops(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x // y
        out[i, 1] = x % y
        out[i, 2] = x << (y & 127)
        out[i, 3] = x >> (y & 127)
        out[i, 4] = -x + ~y
        out[i, 5] = abs(x) - min(x, y, 3) + max(x, y)
        out[i, 6] = (x & y) | (x ^ 5)
        out[i, 7] = x * y - x


@cuda.jit
def integer_powers(a, e, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = a[i] ** e[i]


@cuda.jit
def float_powers(a, e, out_int_exponent, out_float_exponent):
    i = cuda.grid(1)
    if i < a.size:
        out_int_exponent[i] = a[i] ** e[i]
        out_float_exponent[i] = a[i] ** 0.5


@cuda.jit
def to_integers(x, as64, as32, as8u):
    i = cuda.grid(1)
    if i < x.size:
        as64[i] = int(x[i])
        as32[i] = np.int32(x[i])
        as8u[i] = np.uint8(x[i])


@cuda.jit
def float_math(x, y, out):
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        out[i, 0] = math.sin(v) + math.exp(-v)
        out[i, 1] = math.sqrt(abs(v)) + math.fabs(v)
        out[i, 2] = math.floor(v) + math.ceil(v) + math.trunc(v)
        out[i, 3] = math.log(abs(v) + 1.0, 2.0)
        out[i, 4] = math.hypot(v, y[i]) + math.atan2(v, y[i])
        out[i, 5] = math.pow(abs(v), 1.5) + math.degrees(v)
        out[i, 6] = math.isnan(v) + 2 * math.isinf(v) + 4 * math.isfinite(v)
        out[i, 7] = v / y[i]


@cuda.jit
def masked_access(src, idx, out):
    i = cuda.grid(1)
    if i < out.size:
        out[i] = src[idx[i]]
        src[idx[i] + 1000] = 99.0  # out of range: dropped


@cuda.jit
def strided_2d(a, out):
    x, y = cuda.grid(2)
    n, m = a.shape
    if x < n and y < m:
        out[x, y] = a[x, y] * 10 + a[-1, -1]


@cuda.jit
def element_update(a, k):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += k
        a[i - a.size] *= 2  # negative indices wrap once: the same element
    else:
        a[i] += k  # out of range: neither read nor written


@cuda.jit
def update_order(a, b, n, out):
    i = cuda.grid(1)
    a[i] += cuda.atomic.add(b, 0, n)  # the right side runs only for elements that exist
    out[i] += cuda.atomic.add(out, i, 1)  # the element is read before the right side runs
    if i == 0:
        b[1] = -math.nan
        b[2] = math.copysign(1.0, -math.nan)


@cuda.jit
def loops(start, stop, step, out):
    t = cuda.grid(1)
    if t == 0:
        total = 0
        for j in range(start, stop, step):
            total += j
        count = 0
        for j in range(10, 0, -3):
            count = count * 10 + j
        w = 0
        k = 0
        while True:
            k += 1
            if k % 2 == 0:
                continue
            w += k
            if k > 8:
                break
        out[0] = total
        out[1] = count
        out[2] = w
        out[3] = j  # a loop variable keeps its last value


@cuda.jit
def logic(a, flags, out):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        out[i, 0] = 0 <= x < 5
        out[i, 1] = (x > 2 and flags[i]) or x == -1
        out[i, 2] = not flags[i]
        out[i, 3] = 1 if x > 0 else (2 if x < -3 else 3)
        flags[i] = x % 2 == 0


@cuda.jit
def row_sums(a, out, extra, fill):
    i = cuda.grid(1)
    if i < a.shape[0]:
        s = 0.0
        for j in range(a.shape[1] + extra):  # extra > 0 reads past the row end: masked, 0
            s += a[i, j] * (j + 1)
        out[i] = s
        for j in range(fill, a.shape[1] + extra):  # stores past the end are dropped
            a[i, j] = -1.0


@cuda.jit
def block_sums(a, out, counts, total):
    s = cuda.shared.array(64, np.float64)
    scratch = cuda.local.array(3, np.int64)
    t = cuda.threadIdx.x
    i = cuda.grid(1)
    s[t] = a[i]  # past the end of a: a masked load, 0
    scratch[0] = t
    scratch[1] = t * 2
    scratch[2] = scratch[0] + scratch[1]
    cuda.syncthreads()
    if t == 0:
        acc = 0.0
        for j in range(64):
            acc += s[j]
        out[cuda.blockIdx.x] = acc
    cuda.atomic.add(counts, 0, 1)
    cuda.atomic.add(counts, 1, scratch[2])
    cuda.atomic.max(counts, 2, i)
    cuda.atomic.min(counts, 3, -i)
    old = cuda.atomic.add(counts, 100, 5)  # out of range: nothing written, the old value is 0
    cuda.atomic.add(counts, 4, old + 1)
    cuda.atomic.cas(counts, 5, 0, 7)
    cuda.atomic.sub(total, 0, -a[i])


@cuda.jit
def warp_ops(a, f32, f64, out, fout32, fout64):
    i = cuda.grid(1)
    lane = cuda.laneid
    v = a[i]
    out[i, 0] = cuda.shfl_sync(0xffffffff, v, (lane + 1) % 32)
    out[i, 1] = cuda.shfl_down_sync(0xffffffff, v, 1)  # the last lane gets its own value
    out[i, 2] = cuda.shfl_xor_sync(0xffffffff, v, 3)
    w = cuda.ballot_sync(0xffffffff, v > 0)
    out[i, 3] = w
    out[i, 4] = cuda.popc(w)
    out[i, 5] = cuda.clz(w)
    out[i, 6] = cuda.ffs(w)
    out[i, 7] = cuda.brev(np.uint32(i))
    out[i, 8] = cuda.lanemask_lt()
    out[i, 9] = cuda.match_any_sync(0xffffffff, v % 4)
    out[i, 10] = cuda.syncthreads_count(v > 0)
    out[i, 11] = cuda.any_sync(0xffffffff, v > 100) + 2 * cuda.all_sync(0xffffffff, v > -1000)
    out[i, 12] = cuda.selp(v > 0, v, -v)
    out[i, 13] = cuda.shfl_up_sync(0xffffffff, v, 2)  # the first two lanes get their own values
    fout32[i] = cuda.shfl_sync(0xffffffff, f32[i], 31 - lane)
    fout64[i] = cuda.shfl_sync(0xffffffff, f64[i], 31 - lane) + cuda.fma(f64[i], 2.0, 1.0)


@cuda.jit
def half_ops(a, b, s, out, cmp, ints):
    i = cuda.grid(1)
    if i < a.size:
        x = a[i]
        y = b[i]
        out[i, 0] = x + y
        out[i, 1] = x - y * s
        out[i, 2] = x * y
        out[i, 3] = x / y
        out[i, 4] = -x
        out[i, 5] = abs(x)
        out[i, 6] = math.sqrt(abs(x))
        out[i, 7] = min(x, y) + max(x, s)
        out[i, 8] = x + 2049  # an int64 constant: the sum is float64, rounded once to float16
        out[i, 9] = np.float16(x * np.float32(1.0001))  # float32 -> float16
        cmp[i, 0] = (x < y) + 2 * (x == 2049) + 4 * (x != x) + 8 * math.isinf(x) + 16 * (x >= s)
        ints[i, 0] = int(x)
        ints[i, 1] = np.int8(x)
        ints[i, 2] = np.int32(x).view(np.float32).view(np.int32)  # view(): the same bits


@cuda.jit
def float_floor_divmod(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i] = a[i] // b[i]
        r[i] = a[i] % b[i]


@cuda.jit
def complex_ops(x, y, out, flags):
    i = cuda.grid(1)
    if i < x.size:
        a = x[i]
        b = y[i]
        out[i, 0] = a + b
        out[i, 1] = a - b * 2
        out[i, 2] = a * b
        out[i, 3] = a / b
        out[i, 4] = -a
        out[i, 5] = a.conjugate()
        out[i, 6] = abs(a)
        out[i, 7] = a.real + 1j * b.imag
        flags[i] = (a == b) + 2 * (a != b) + 4 * (a != 0) + 8 * (a == a.real)


@cuda.jit
def complex_build(x, e, out, scaled):
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = complex(x[i], e[i])
        out[i, 1] = complex(x[i])
        out[i, 2] = complex()
        out[i, 3] = complex(out[i, 0] * 1j)  # complex(z) is z
        scaled[i] = math.ldexp(x[i], e[i])


@cuda.jit
def bit_views(f, u, back):
    i = cuda.grid(1)
    if i < f.size:
        u[i] = f[i].view(np.uint32)
        back[i] = u[i].view(np.float32) * 2.0


@cuda.jit
def printing(a):  # print: compiled from CUDA C++, not NVVM IR
    print(a[0])


def _python_floordiv(x, y):
    if y == 0:
        return 0
    if y == -1:
        return int(np.int64(-x)) if x != I64.min else I64.min
    return x // y


def _python_mod(x, y):
    return 0 if y in (0, -1) else x % y


def _wrap(v):
    return int(np.array(v & 0xFFFFFFFFFFFFFFFF, dtype=np.uint64).view(np.int64))


def test_integer_arithmetic_keeps_pythons_rules(rng):
    a = rng.integers(-50, 50, 300).astype(np.int64)
    b = rng.integers(-6, 6, 300).astype(np.int64)
    a[:6] = [I64.min, I64.max, -7, 7, 0, -1]
    b[:6] = [-1, 0, 2, -2, 0, 70]
    out = simt.zeros((300, 8), np.int64)
    integer_ops[10, 32](simt.asarray(a), simt.asarray(b), out)
    got = out.get()
    for i, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        s = y & 127
        expect = [_python_floordiv(x, y), _python_mod(x, y), _wrap(x << s) if s < 64 else 0,
                  (x >> s) if s < 64 else (-1 if x < 0 else 0), _wrap(-x + ~y),
                  _wrap(abs(x) - min(x, y, 3) + max(x, y)), (x & y) | (x ^ 5), _wrap(x * y - x)]
        assert got[i].tolist() == expect, (i, x, y)


def test_integer_and_float_powers(rng):
    a = rng.integers(-4, 5, 200).astype(np.int64)
    e = rng.integers(-3, 9, 200).astype(np.int64)
    a[:4], e[:4] = [1, -1, -1, 2], [-5, -4, -3, -1]
    out = simt.zeros(200, np.int64)
    integer_powers[7, 32](simt.asarray(a), simt.asarray(e), out)

    def ipow(x, n):
        if n < 0:
            return 1 if x == 1 else ((-1 if n & 1 else 1) if x == -1 else 0)
        return x ** n
    np.testing.assert_array_equal(out.get(), [ipow(x, n) for x, n in zip(a.tolist(), e.tolist())])

    f = rng.uniform(0.5, 2.0, 200)
    fe = rng.integers(-6, 7, 200).astype(np.int64)
    o1, o2 = simt.zeros(200), simt.zeros(200)
    float_powers[7, 32](simt.asarray(f), simt.asarray(fe), o1, o2)
    np.testing.assert_allclose(o1.get(), f ** fe.astype(np.float64), rtol=1e-14)
    np.testing.assert_allclose(o2.get(), np.sqrt(f), rtol=1e-15)


def test_float_to_integer_conversions_saturate():
    x = np.array([np.nan, np.inf, -np.inf, 1e30, -1e30, 2.9, -2.9, 300.5, -0.5, 2.0 ** 63, 2.0 ** 31], np.float64)
    as64, as32, as8u = simt.zeros(x.size, np.int64), simt.zeros(x.size, np.int32), simt.zeros(x.size, np.uint8)
    to_integers[1, 32](simt.asarray(x), as64, as32, as8u)
    i32 = np.iinfo(np.int32)
    np.testing.assert_array_equal(as64.get(), [0, I64.max, I64.min, I64.max, I64.min, 2, -2, 300, 0, I64.max, 2 ** 31])
    np.testing.assert_array_equal(as32.get(), [0, i32.max, i32.min, i32.max, i32.min, 2, -2, 300, 0, i32.max, i32.max])
    np.testing.assert_array_equal(as8u.get(), [0, 255, 0, 255, 0, 2, 0, 255, 0, 255, 255])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_math_functions_match_numpy(rng, dtype):
    x = rng.uniform(-5, 5, 500).astype(dtype)
    y = rng.uniform(0.5, 3, 500).astype(dtype)
    x[:3] = [np.nan, np.inf, -2.5]
    out = simt.zeros((500, 8), dtype)
    float_math[16, 32](simt.asarray(x), simt.asarray(y), out)
    got = out.get()
    with np.errstate(all="ignore"):
        xd, yd = x.astype(np.float64), y.astype(np.float64)
        expect = np.stack([np.sin(xd) + np.exp(-xd), np.sqrt(np.abs(xd)) + np.abs(xd),
                           np.floor(xd) + np.ceil(xd) + np.trunc(xd), np.log2(np.abs(xd) + 1.0),
                           np.hypot(xd, yd) + np.arctan2(xd, yd), np.abs(xd) ** 1.5 + np.degrees(xd),
                           np.isnan(xd) + 2.0 * np.isinf(xd) + 4.0 * np.isfinite(xd), xd / yd], axis=1)
    rows = slice(3, None)  # NaN and inf rows: only the classification column is compared
    tol = 2e-6 if dtype == np.float32 else 1e-13
    np.testing.assert_allclose(got[rows], expect[rows], rtol=tol, atol=tol)
    np.testing.assert_array_equal(got[:3, 6], [1, 2, 4])


def test_masked_wrapped_and_unsigned_indices():
    src = simt.asarray(np.arange(10.0) + 1)
    idx = simt.asarray(np.array([0, 9, -1, -10, -11, 10, 3], np.int64))
    out = simt.zeros(7)
    masked_access[1, 32](src, idx, out)
    np.testing.assert_array_equal(out.get(), [1, 10, 10, 1, 0, 0, 4])
    np.testing.assert_array_equal(src.get(), np.arange(10.0) + 1)  # every store was out of range


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_two_dimensional_layouts(rng, layout):
    host = rng.standard_normal((13, 7))
    base = simt.asarray(np.asfortranarray(host) if layout == "F" else host)
    a = base[::2, ::3] if layout == "strided" else base
    ref = host[::2, ::3] if layout == "strided" else host
    out = simt.zeros(ref.shape)
    strided_2d[(2, 2), (8, 8)](a, out)
    np.testing.assert_allclose(out.get(), ref * 10 + ref[-1, -1], rtol=1e-15, atol=1e-14)  # (a GPU may fuse to fma)


def test_element_update_and_wraparound(rng):
    host = rng.standard_normal(40)
    a = simt.asarray(host)
    element_update[2, 32](a, 1.5)  # threads 40..63: every access out of range
    np.testing.assert_allclose(a.get(), (host + 1.5) * 2)


def test_element_updates_evaluate_in_pythons_order():
    a, b, out = simt.zeros(4, np.int64), simt.zeros(3), simt.full(4, 5, np.int64)
    update_order[1, 32](a, b, 3, out)
    assert b.get()[0] == 4 * 3  # four threads had an element to update
    assert out.get().tolist() == [10, 10, 10, 10]
    assert np.isnan(b.get()[1]) and np.signbit(b.get()[1]) and b.get()[2] == -1.0  # -nan keeps its sign


@pytest.mark.parametrize("start,stop,step", [(0, 10, 1), (3, 30, 4), (20, -7, -3), (5, 5, 2), (0, 10, 0)])
def test_loops_and_control_flow(start, stop, step):
    out = simt.zeros(4, np.int64)
    loops[1, 32](start, stop, step, out)
    total = sum(range(start, stop, step)) if step else 0
    assert out.get().tolist() == [total, 10741, 25, 1]


@pytest.mark.parametrize("extra,fill", [(0, 2), (3, 0), (0, -2)])
def test_range_loops_over_array_rows(rng, extra, fill):
    host = rng.standard_normal((37, 9))
    a = simt.asarray(host)
    out = simt.zeros(37)
    row_sums[2, 32](a, out, extra, fill)
    np.testing.assert_allclose(out.get(), host @ np.arange(1.0, 10.0), rtol=1e-13, atol=1e-12)  # (sums may cancel)
    expect = host.copy()
    # a start of -2 is a negative index: -2 and -1 wrap to the last two columns
    expect[:, [c % 9 for c in range(fill, 9 + extra) if -9 <= c < 9]] = -1.0
    np.testing.assert_array_equal(a.get(), expect)


def test_shared_and_local_arrays_and_atomics(rng):
    host = rng.standard_normal(300)
    out, counts, total = simt.zeros(5), simt.zeros(6, np.int64), simt.zeros(1)
    block_sums[5, 64](simt.asarray(host), out, counts, total)
    np.testing.assert_allclose(out.get(), np.add.reduceat(np.concatenate([host, np.zeros(20)]), range(0, 320, 64)),
                               rtol=1e-12, atol=1e-12)
    assert counts.get().tolist() == [320, 5 * 3 * sum(range(64)), 319, -319, 320, 7]
    np.testing.assert_allclose(total.get(), [host.sum()], rtol=1e-12, atol=1e-11)  # (any order of atomic adds)


def test_warp_operations_and_bit_intrinsics(rng):
    a = rng.integers(-2 ** 40, 2 ** 40, 32).astype(np.int64)  # 64-bit values: shuffled as two words
    f32 = rng.standard_normal(32).astype(np.float32)
    f64 = rng.standard_normal(32)
    out, fo32, fo64 = simt.zeros((32, 14), np.int64), simt.zeros(32, np.float32), simt.zeros(32)
    warp_ops[1, 32](simt.asarray(a), simt.asarray(f32), simt.asarray(f64), out, fo32, fo64)
    got = out.get()
    w = sum(1 << j for j in range(32) if a[j] > 0)
    lanes = np.arange(32)
    np.testing.assert_array_equal(got[:, 0], a[(lanes + 1) % 32])
    np.testing.assert_array_equal(got[:, 1], a[np.minimum(lanes + 1, 31)])
    np.testing.assert_array_equal(got[:, 2], a[lanes ^ 3])
    signed_w = w - (1 << 32) if w >= 1 << 31 else w  # ballot_sync gives an int32, as numba types it
    assert set(got[:, 3]) == {signed_w} and set(got[:, 4]) == {bin(w).count("1")}
    assert set(got[:, 5]) == {32 - w.bit_length()} and set(got[:, 6]) == {(w & -w).bit_length()}
    np.testing.assert_array_equal(got[:, 7], [int(f"{i:032b}"[::-1], 2) for i in range(32)])
    np.testing.assert_array_equal(got[:, 8], (1 << lanes) - 1)
    matches = np.array([sum(1 << j for j in range(32) if a[j] % 4 == a[i] % 4) for i in range(32)], np.uint64)
    np.testing.assert_array_equal(got[:, 9], matches.astype(np.uint32).view(np.int32))  # an int32 too
    assert set(got[:, 10]) == {int((a > 0).sum())} and set(got[:, 11]) == {int((a > 100).any()) + 2 * int((a > -1000).all())}
    np.testing.assert_array_equal(got[:, 12], np.abs(a))
    np.testing.assert_array_equal(got[:, 13], a[np.where(lanes >= 2, lanes - 2, lanes)])
    np.testing.assert_array_equal(fo32.get(), f32[::-1])
    # (cuda.fma rounds once, NumPy's reference twice: an absolute tolerance for results near 0)
    np.testing.assert_allclose(fo64.get(), f64[::-1] + f64 * 2.0 + 1.0, rtol=1e-15, atol=1e-14)


def test_comparisons_and_short_circuit(rng):
    a = rng.integers(-6, 8, 100).astype(np.int64)
    flags = rng.integers(0, 2, 100).astype(np.bool_)
    out = simt.zeros((100, 4), np.int64)
    f = simt.asarray(flags)
    logic[4, 32](simt.asarray(a), f, out)
    expect = [[int(0 <= x < 5), int((x > 2 and fl) or x == -1), int(not fl), 1 if x > 0 else (2 if x < -3 else 3)]
              for x, fl in zip(a.tolist(), flags.tolist())]
    assert out.get().tolist() == expect
    np.testing.assert_array_equal(f.get(), a % 2 == 0)


def test_float16_arithmetic_rounds_like_numpy(rng):
    a = rng.uniform(-300, 300, 400).astype(np.float16)
    b = rng.uniform(0.25, 40, 400).astype(np.float16)
    a[:6] = [2048, 2049, np.inf, -np.inf, np.nan, -0.0]  # 2049 is stored as 2048: never == 2049 (compared in float64)
    s = np.float16(rng.uniform(-3, 3))
    out, cmp, ints = simt.zeros((400, 10), np.float16), simt.zeros((400, 1), np.int64), simt.zeros((400, 3), np.int64)
    half_ops[13, 32](simt.asarray(a), simt.asarray(b), s, out, cmp, ints)
    f32 = np.float32
    with np.errstate(all="ignore"):
        expect = np.stack([a + b, a - b * s, a * b, a / b, -a, np.abs(a), np.sqrt(np.abs(a)),
                           np.minimum(a, b) + np.maximum(a, s), (a.astype(np.float64) + 2049).astype(np.float16),
                           (a.astype(f32) * f32(1.0001)).astype(np.float16)], axis=1)
        as_int = np.nan_to_num(a.astype(np.float64), nan=0.0, posinf=2.0 ** 63, neginf=-2.0 ** 63)
    got = out.get()
    np.testing.assert_array_equal(got[:, :6].view(np.uint16)[~np.isnan(a)], expect[:, :6].view(np.uint16)[~np.isnan(a)])
    np.testing.assert_array_equal(got[:, 6:], expect[:, 6:])  # NaN rows compare as NaN
    expect_cmp = (a < b) + 2 * (a.astype(np.float64) == 2049) + 4 * np.isnan(a) + 8 * np.isinf(a) + 16 * (a >= s)
    np.testing.assert_array_equal(cmp.get()[:, 0], expect_cmp)
    i64 = np.clip(np.trunc(as_int), I64.min, 2.0 ** 63 - 1024).astype(np.int64)
    i64[2] = I64.max
    np.testing.assert_array_equal(ints.get()[:, 0], i64)
    np.testing.assert_array_equal(ints.get()[:, 1], np.clip(np.trunc(as_int), -128, 127).astype(np.int64))
    np.testing.assert_array_equal(ints.get()[:, 2], np.clip(np.trunc(as_int), -2 ** 31, 2 ** 31 - 1).astype(np.int64))


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_float_floor_division_and_modulo_follow_python(rng, dtype):
    a = rng.uniform(-50, 50, 300).astype(dtype)
    b = (rng.uniform(0.5, 9, 300) * rng.choice([-1, 1], 300)).astype(dtype)
    a[:10] = [7, -7, 0, -0.0, 7, 0, 6, -6, np.inf, 5]
    b[:10] = [0, 0, 0, 3, -3.5, -2, 3, 3, 2, np.inf]  # by zero, signed zeros, exact multiples, infinities
    b[10:20] = a[10:20] / 4  # exact multiples of random values
    q, r = simt.zeros(300, dtype), simt.zeros(300, dtype)
    float_floor_divmod[10, 32](simt.asarray(a), simt.asarray(b), q, r)
    with np.errstate(all="ignore"):
        expect_q, expect_r = np.floor_divide(a, b), np.remainder(a, b)
    for got, expect in ((q.get(), expect_q), (r.get(), expect_r)):
        np.testing.assert_array_equal(got, expect)
        real = ~np.isnan(expect)  # (a NaN's sign bit differs between CPUs and GPUs)
        np.testing.assert_array_equal(np.signbit(got[real]), np.signbit(expect[real]))  # zeros keep Python's sign


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_arithmetic_matches_numpy(rng, dtype):
    n = 300
    x = (rng.uniform(-5, 5, n) + 1j * rng.uniform(-5, 5, n)).astype(dtype)
    y = (rng.uniform(-5, 5, n) + 1j * rng.uniform(-5, 5, n)).astype(dtype)
    # division by zero, by -0.0 + 0j, a larger imaginary part, equal values, a zero and a real value
    x[:6] = [1 + 2j, 3 - 1j, 2 + 2j, 1.5 - 2.5j, 0, 4]
    y[:6] = [0, complex(-0.0, 0.0), 0.5 + 8j, 1.5 - 2.5j, 0, 4]
    out, flags = simt.zeros((n, 8), dtype), simt.zeros(n, np.int64)
    complex_ops[10, 32](simt.asarray(x), simt.asarray(y), out, flags)
    got = out.get()
    with np.errstate(all="ignore"):
        expect = np.stack([x + y, x - y * 2, x * y, x / y, -x, np.conj(x), np.abs(x), x.real + 1j * y.imag], axis=1).astype(dtype)
    np.testing.assert_array_equal(got[:, [0, 1, 4, 5]], expect[:, [0, 1, 4, 5]])  # one rounding each: exact
    tol = 1e-6 if dtype == np.complex64 else 1e-14  # the division algorithms and fused multiply-adds differ by ulps
    np.testing.assert_allclose(got[:, [2, 3, 6, 7]], expect[:, [2, 3, 6, 7]], rtol=tol, atol=tol)
    np.testing.assert_array_equal(flags.get(), (x == y) + 2 * (x != y) + 4 * (x != 0) + 8 * (x.imag == 0))


def test_complex_constructor_and_ldexp(rng):
    x = rng.standard_normal(100).astype(np.float32)
    e = rng.integers(-20, 20, 100)
    out, scaled = simt.zeros((100, 4), np.complex128), simt.zeros(100, np.float32)
    complex_build[4, 32](simt.asarray(x), simt.asarray(e), out, scaled)
    xd = x.astype(np.float64)
    expect = np.stack([xd + 1j * e, xd + 0j, np.zeros(100), (xd + 1j * e) * 1j], axis=1)
    np.testing.assert_array_equal(out.get(), expect)
    np.testing.assert_array_equal(scaled.get(), np.ldexp(x, e))


def test_number_view_reinterprets_bits(rng):
    f = rng.standard_normal(200).astype(np.float32)
    u, back = simt.zeros(200, np.uint32), simt.zeros(200, np.float32)
    bit_views[7, 32](simt.asarray(f), u, back)
    np.testing.assert_array_equal(u.get(), f.view(np.uint32))
    np.testing.assert_array_equal(back.get(), f * 2)


@cuda.jit(device=True)
def min_and_argmin(row):
    best = (row[0], 0)  # a tuple-typed local, returned
    for j, v in enumerate(row):
        if v < best[0]:
            best = (v, j)
    return best


@cuda.jit
def views_loops_tuples(m, out_min, out_arg, out_folds, out_dm, out_found):
    i = cuda.grid(1)
    if i < m.shape[0]:
        row = m[i]
        v, j = min_and_argmin(row)
        out_min[i] = v
        out_arg[i] = j
        total = 0.0
        for x in row[::-1]:
            total = total * 0.5 + x
        out_folds[i, 0] = total
        acc = 0.0
        for a, b in zip(row[1:], m.T[0][:3]):
            acc += a * b
        out_folds[i, 1] = acc
        scaled = 0.0
        for c in (2.0, 3.0, 5.0):
            scaled = scaled * c + row[0]
        out_folds[i, 2] = scaled
        q, r = divmod(i * 7 - 20, 6)
        out_dm[i, 0] = q
        out_dm[i, 1] = r
        for k in range(row.shape[0]):
            if row[k] > 1.5:
                out_found[i] = k
                break
        else:
            out_found[i] = -1


def test_views_iteration_tuples_and_divmod(rng):
    rows, cols = int(rng.integers(3, 200)), int(rng.integers(2, 40))
    m = rng.standard_normal((rows, cols))
    out_min, out_arg, out_found = simt.zeros(rows), simt.zeros(rows, np.int64), simt.zeros(rows, np.int64)
    out_folds, out_dm = simt.zeros((rows, 3)), simt.zeros((rows, 2), np.int64)
    views_loops_tuples[(rows + 63) // 64, 64](simt.asarray(m), out_min, out_arg, out_folds, out_dm, out_found)
    np.testing.assert_array_equal(out_min.get(), m.min(axis=1))
    np.testing.assert_array_equal(out_arg.get(), m.argmin(axis=1))
    folds = np.zeros((rows, 3))
    for i in range(rows):
        for x in m[i, ::-1]:
            folds[i, 0] = folds[i, 0] * 0.5 + x
        folds[i, 1] = sum(a * b for a, b in zip(m[i, 1:], m[:3, 0]))
        for c in (2.0, 3.0, 5.0):
            folds[i, 2] = folds[i, 2] * c + m[i, 0]
    np.testing.assert_allclose(out_folds.get(), folds, rtol=1e-13, atol=1e-13)
    np.testing.assert_array_equal(out_dm.get(), [divmod(i * 7 - 20, 6) for i in range(rows)])
    first = [next((k for k in range(cols) if m[i, k] > 1.5), -1) for i in range(rows)]
    np.testing.assert_array_equal(out_found.get(), first)
    ir = list(views_loops_tuples.inspect_llvm().values())[0]
    assert "define void @" in ir, ir[:300]  # views, these loops, tuple values and divmod are covered


def test_covered_kernels_have_nvvm_ir_and_others_say_why():
    integer_ops.compile_for(simt.zeros(4, np.int64), simt.zeros(4, np.int64), simt.zeros((4, 8), np.int64))
    printing.compile_for(simt.zeros(4))
    ir = list(integer_ops.inspect_llvm().values())[0]
    assert "define void @" in ir and "nvvm.annotations" in ir
    half_ops.compile_for(simt.zeros(4, np.float16), simt.zeros(4, np.float16), np.float16(1), simt.zeros((4, 10), np.float16),
                         simt.zeros((4, 1), np.int64), simt.zeros((4, 3), np.int64))
    assert "cvt.rn.f16.f32" in list(half_ops.inspect_llvm().values())[0]  # float16 is covered
    complex_ops.compile_for(simt.zeros(4, np.complex64), simt.zeros(4, np.complex64), simt.zeros((4, 8), np.complex64),
                            simt.zeros(4, np.int64))
    assert any("{ float, float }" in ir for ir in complex_ops.inspect_llvm().values())  # so are complex values
    other = list(printing.inspect_llvm().values())[0]
    assert other.startswith("; kernel 'printing' compiles from CUDA C++ through NVRTC") and other.rstrip().endswith("print")


@pytest.mark.skipif(simt.backend() != "cuda", reason="the NVVM IR path is the cuda backend's")
def test_cuda_compiles_covered_kernels_through_nvvm():
    available, why = simt._simt._nvvm_available()
    if not available:
        pytest.skip(f"libNVVM is not available: {why}")
    offset = float(np.random.default_rng().integers(1, 2 ** 30))  # frozen into the kernel: new code each run

    @cuda.jit
    def fresh(a):
        i = cuda.grid(1)
        a[i] = a[i] * 3.0 + offset

    before = simt._simt.compile_counters()["nvvm_compiled"]
    a = simt.asarray(np.arange(64.0))
    fresh[2, 32](a)
    np.testing.assert_array_equal(a.get(), np.arange(64.0) * 3 + offset)
    assert simt._simt.compile_counters()["nvvm_compiled"] == before + 1
    assert ".entry" in list(fresh.inspect_asm().values())[0]
