"""Kernels compared with NumPy on fresh random data: indexing, arithmetic with numba's typing,
math functions, control flow, tuples, device functions, multi-dimensional grids."""
import math

import numpy as np
import pytest

import simt
from simt import cuda


def launch_1d(kernel, n, *args, block=128):
    kernel[(n + block - 1) // block, block](*args)


def test_seed_vecadd_float64(rng):
    @cuda.jit
    def vecadd(A, B, C):
        i = cuda.grid(1)
        C[i] = A[i] + B[i]

    n = 10_007
    a, b = rng.uniform(-1, 1, n), rng.uniform(-1, 1, n)
    da, db, dc = simt.asarray(a), simt.asarray(b), simt.zeros(n)
    launch_1d(vecadd, n, da, db, dc, block=256)
    np.testing.assert_array_equal(dc.get(), a + b)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint32, np.uint64,
                                   np.float32, np.float64])
def test_elementwise_dtypes(rng, dtype):
    @cuda.jit
    def axpy(a, X, Y, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = a * X[i] + Y[i]

    n = 999
    if np.dtype(dtype).kind == "f":
        x, y = rng.standard_normal(n).astype(dtype), rng.standard_normal(n).astype(dtype)
    else:
        x, y = rng.integers(0, 50, n).astype(dtype), rng.integers(0, 50, n).astype(dtype)
    out = simt.zeros(n, dtype=np.float64)
    launch_1d(axpy, n, 3, simt.asarray(x), simt.asarray(y), out)
    np.testing.assert_allclose(out.get(), 3 * x.astype(np.float64) + y.astype(np.float64), rtol=1e-6)


def test_float32_arithmetic_stays_float32(rng):
    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        out[i] = X[i] * X[i] + X[i] / (X[i] + np.float32(3))

    x = rng.uniform(1, 2, 500).astype(np.float32)
    out = simt.zeros(500, dtype=np.float32)
    launch_1d(k, 500, simt.asarray(x), out)
    expected = x * x + x / (x + np.float32(3))
    np.testing.assert_allclose(out.get(), expected, rtol=1e-6)


def test_python_floor_division_and_modulo_signs(rng):
    @cuda.jit
    def k(A, B, Q, R, FQ, FR):
        i = cuda.grid(1)
        if i < A.size:
            Q[i] = A[i] // B[i]
            R[i] = A[i] % B[i]
            FQ[i] = (A[i] * 0.5) // (B[i] * 0.25)
            FR[i] = (A[i] * 0.5) % (B[i] * 0.25)

    n = 1000
    a = rng.integers(-1000, 1000, n)
    b = rng.integers(1, 50, n) * rng.choice([-1, 1], n)
    da, db = simt.asarray(a), simt.asarray(b)
    q, r = simt.zeros(n, np.int64), simt.zeros(n, np.int64)
    fq, fr = simt.zeros(n), simt.zeros(n)
    launch_1d(k, n, da, db, q, r, fq, fr)
    np.testing.assert_array_equal(q.get(), a // b)
    np.testing.assert_array_equal(r.get(), a % b)
    np.testing.assert_allclose(fq.get(), (a * 0.5) // (b * 0.25))
    np.testing.assert_allclose(fr.get(), (a * 0.5) % (b * 0.25), atol=1e-12)


def test_integer_division_by_zero_gives_zero():
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        out[i] = A[i] // 0 + A[i] % 0

    out = simt.ones(4, np.int64)
    k[1, 4](simt.asarray(np.array([1, -2, 3, 0])), out)
    np.testing.assert_array_equal(out.get(), [0, 0, 0, 0])


def test_power_true_division_and_bit_operations(rng):
    @cuda.jit
    def k(A, out_f, out_i):
        i = cuda.grid(1)
        if i < A.size:
            v = A[i]
            out_f[i] = v / 3 + v ** 2 + 2.0 ** (v % 5) + abs(-v) * 0.5
            out_i[i] = (v << 2) ^ (v >> 1) | (v & 7) + (~v) + v ** 3

    a = rng.integers(-100, 100, 777)
    of, oi = simt.zeros(777), simt.zeros(777, np.int64)
    launch_1d(k, 777, simt.asarray(a), of, oi)
    np.testing.assert_allclose(of.get(), a / 3 + a.astype(float) ** 2 + 2.0 ** (a % 5) + np.abs(-a) * 0.5)
    np.testing.assert_array_equal(oi.get(), (a << 2) ^ (a >> 1) | (a & 7) + (~a) + a ** 3)


MATH_1 = ["sin", "cos", "tan", "atan", "sinh", "cosh", "tanh", "asinh", "exp", "expm1", "log1p", "sqrt",
          "fabs", "erf", "erfc", "lgamma"]


@pytest.mark.parametrize("fname", MATH_1)
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_math_functions(rng, fname, dtype):
    fn = getattr(math, fname)

    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = fn(X[i])

    x = rng.uniform(0.1, 3, 300).astype(dtype)
    out = simt.zeros(300, dtype)
    launch_1d(k, 300, simt.asarray(x), out)
    expected = np.array([fn(float(v)) for v in x])
    if dtype == np.float32:
        np.testing.assert_allclose(out.get(), expected, rtol=5e-6, atol=1e-6)
    else:
        # (atol: a few ulps of 1, for results near a root such as lgamma's at 1 and 2, where the
        # libraries' algorithms differ by rounding in terms of size 1; a failure gave 1.1e-15)
        np.testing.assert_allclose(out.get(), expected, rtol=1e-13, atol=4e-15)


def test_math_two_argument_and_integer_results(rng):
    @cuda.jit
    def k(X, Y, out, ints, flags):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = math.atan2(X[i], Y[i]) + math.hypot(X[i], Y[i]) + math.pow(abs(X[i]), 1.5) + math.log(abs(Y[i]) + 1, 2)
            ints[i] = math.floor(X[i]) + math.ceil(Y[i]) * 1000 + math.trunc(X[i] * 3) * 1000000
            flags[i] = math.isnan(X[i] / Y[i]) or math.isinf(1.0 / (X[i] - X[i]))

    x, y = rng.uniform(-5, 5, 400), rng.uniform(-5, 5, 400)
    out, ints, flags = simt.zeros(400), simt.zeros(400, np.int64), simt.zeros(400, np.bool_)
    launch_1d(k, 400, simt.asarray(x), simt.asarray(y), out, ints, flags)
    np.testing.assert_allclose(out.get(), np.arctan2(x, y) + np.hypot(x, y) + np.abs(x) ** 1.5 + np.log2(np.abs(y) + 1))
    np.testing.assert_array_equal(ints.get(), np.floor(x) + np.ceil(y) * 1000 + np.trunc(x * 3) * 1000000)
    assert flags.get().all()


def test_control_flow_loops_and_conditions(rng):
    @cuda.jit
    def collatz_steps(start, steps):
        i = cuda.grid(1)
        if i >= start.size:
            return
        n = start[i]
        count = 0
        while n != 1:
            if n % 2 == 0:
                n = n // 2
            elif n > 1_000_000:
                count = -1
                break
            else:
                n = 3 * n + 1
            count += 1
        else:
            count += 1000  # only when the loop ends without break
        steps[i] = count

    def reference(n):
        count = 0
        while n != 1:
            if n % 2 == 0:
                n //= 2
            elif n > 1_000_000:
                return -1
            else:
                n = 3 * n + 1
            count += 1
        return count + 1000

    s = rng.integers(1, 10_000, 500)
    out = simt.zeros(500, np.int64)
    launch_1d(collatz_steps, 500, simt.asarray(s), out)
    np.testing.assert_array_equal(out.get(), [reference(int(v)) for v in s])


def test_for_range_forms_and_loop_variable_after_loop(rng):
    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        total = 0
        for j in range(i):
            total += j
        for j in range(10, i, -3):
            total += 2 * j
        for j in range(1, 20, 4):
            if j == 13:
                continue
            total += j
        out[i] = total * 100 + j

    n = 64
    out = simt.zeros(n, np.int64)
    k[1, n](out)
    expected = []
    for i in range(n):
        total = sum(range(i)) + sum(2 * j for j in range(10, i, -3)) + sum(j for j in range(1, 20, 4) if j != 13)
        expected.append(total * 100 + 17)
    np.testing.assert_array_equal(out.get(), expected)


def test_chained_comparisons_boolops_and_conditional_expressions(rng):
    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            x = X[i]
            inside = -0.5 < x <= 0.5
            out[i] = (1.0 if inside else 2.0) + (x > 0 and x or -x) + (3 if not (x < -0.9 or x > 0.9) else 4)

    x = rng.uniform(-1, 1, 1000)
    out = simt.zeros(1000)
    launch_1d(k, 1000, simt.asarray(x), out)
    expected = np.where((-0.5 < x) & (x <= 0.5), 1.0, 2.0) + np.abs(x) + np.where((x < -0.9) | (x > 0.9), 4, 3)
    np.testing.assert_allclose(out.get(), expected)


def test_two_and_three_dimensional_grids(rng):
    @cuda.jit
    def add2d(A, B, C):
        x, y = cuda.grid(2)
        C[y, x] = A[y, x] * B[y, x]

    @cuda.jit
    def fill3d(out):
        x, y, z = cuda.grid(3)
        nx, ny, nz = cuda.gridsize(3)
        out[z, y, x] = x + 10 * y + 100 * z + 1000 * (nx + ny + nz)

    a, b = rng.standard_normal((37, 53)), rng.standard_normal((37, 53))
    c = simt.zeros((37, 53))
    add2d[(4, 3), (16, 16)](simt.asarray(a), simt.asarray(b), c)
    np.testing.assert_allclose(c.get(), a * b)

    out = simt.zeros((4, 6, 8), np.int64)
    fill3d[(2, 3, 2), (4, 2, 2)](out)
    z, y, x = np.indices((4, 6, 8))
    np.testing.assert_array_equal(out.get(), x + 10 * y + 100 * z + 1000 * (8 + 6 + 4))


def test_thread_and_block_registers():
    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        out[i, 0] = cuda.threadIdx.x
        out[i, 1] = cuda.blockIdx.x
        out[i, 2] = cuda.blockDim.x
        out[i, 3] = cuda.gridDim.x
        out[i, 4] = cuda.laneid
        out[i, 5] = cuda.warpsize

    out = simt.zeros((3 * 48, 6), np.int32)
    k[3, 48](out)
    i = np.arange(3 * 48)
    expected = np.stack([i % 48, i // 48, np.full_like(i, 48), np.full_like(i, 3), (i % 48) % 32, np.full_like(i, 32)], 1)
    np.testing.assert_array_equal(out.get(), expected)


def test_tuples_shape_len_and_builtins(rng):
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        rows, cols = A.shape
        if i < rows:
            pair = (A[i, 0], A[i, cols - 1])
            lo = min(pair[0], pair[1], 0.25)
            hi = max(pair)
            out[i] = lo + hi * len(A) + A.ndim + A.size + round(A[i, 1] * 10) + int(A[i, 2] * 7) + float(cols)

    a = rng.uniform(-1, 1, (50, 5))
    out = simt.zeros(50)
    launch_1d(k, 50, simt.asarray(a), out)
    lo = np.minimum(np.minimum(a[:, 0], a[:, -1]), 0.25)
    hi = np.maximum(a[:, 0], a[:, -1])
    expected = lo + hi * 50 + 2 + 250 + np.round(a[:, 1] * 10) + np.trunc(a[:, 2] * 7) + 5.0
    np.testing.assert_allclose(out.get(), expected)


def test_globals_and_closure_variables_are_frozen_constants(rng):
    scale = 2.5
    offset = np.float32(0.5)

    @cuda.jit
    def k(X, out):
        i = cuda.grid(1)
        if i < X.size:
            out[i] = X[i] * scale + offset + math.pi + GLOBAL_SHIFT

    x = rng.standard_normal(100)
    out = simt.zeros(100)
    launch_1d(k, 100, simt.asarray(x), out)
    np.testing.assert_allclose(out.get(), x * 2.5 + 0.5 + math.pi + GLOBAL_SHIFT)


GLOBAL_SHIFT = 7


def test_device_functions(rng):
    @cuda.jit(device=True)
    def clamp(x, lo, hi):
        return min(max(x, lo), hi)

    @cuda.jit(device=True)
    def polar(x, y):
        return math.hypot(x, y), math.atan2(y, x)

    @cuda.jit
    def k(X, Y, R, T):
        i = cuda.grid(1)
        if i < X.size:
            r, t = polar(X[i], Y[i])
            R[i] = clamp(r, 0.5, 1.5)
            T[i] = t

    x, y = rng.uniform(-1, 1, 300), rng.uniform(-1, 1, 300)
    r, t = simt.zeros(300), simt.zeros(300)
    launch_1d(k, 300, simt.asarray(x), simt.asarray(y), r, t)
    np.testing.assert_allclose(r.get(), np.clip(np.hypot(x, y), 0.5, 1.5))
    np.testing.assert_allclose(t.get(), np.arctan2(y, x))


def test_scalar_arguments_of_each_kind():
    @cuda.jit
    def k(out, i, f, b, c, f32):
        out[0] = i
        out[1] = f
        out[2] = b
        out[3] = c.real + c.imag
        out[4] = f32

    out = simt.zeros(5)
    k[1, 1](out, 7, 2.5, True, 1 + 2j, np.float32(0.25))
    np.testing.assert_array_equal(out.get(), [7, 2.5, 1, 3, 0.25])


def test_specializations_per_argument_types(rng):
    @cuda.jit
    def scale(X, a):
        i = cuda.grid(1)
        if i < X.size:
            X[i] = X[i] * a

    xf = simt.asarray(rng.standard_normal(64))
    xi = simt.asarray(np.arange(64))
    scale[1, 64](xf, 2)
    scale[1, 64](xf, 0.5)
    scale[1, 64](xi, 3)
    assert len(scale.signatures) == 3
    np.testing.assert_array_equal(xi.get(), np.arange(64) * 3)


def test_inspect_source_shows_generated_code_with_line_directives():
    @cuda.jit
    def k(A):
        A[0] = 1.0

    k[1, 1](simt.zeros(1))
    (src,) = k.inspect_source().values()
    assert "#line" in src and __file__ in src
    assert "simt_store" in src


def test_forall_covers_every_element(rng):
    @cuda.jit
    def inc(A):
        i = cuda.grid(1)
        if i < A.size:
            A[i] += 1

    x = rng.standard_normal(1234)
    d = simt.asarray(x)
    inc.forall(d.size)(d)
    np.testing.assert_allclose(d.get(), x + 1)


def test_a_changed_grid_or_block_object_is_read_again_at_each_launch():
    """kernel[config] may reuse the last configuration; a list or 0-d array changed in place
    between launches must still give the new shape."""
    @cuda.jit
    def mark(out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = 1

    for grid, block, expect in [([1], [8], 8), ([4], [8], 32), (np.array(2), [16], 32), (np.array(5), [8], 40)]:
        g, b = grid, block
        out = simt.zeros(64, dtype=np.int32)
        mark[g, b](out)
        assert int(out.get().sum()) == expect
    g, b = [1], [8]
    for n in (1, 3, 2):
        g[0] = n
        out = simt.zeros(64, dtype=np.int32)
        mark[g, b](out)
        assert int(out.get().sum()) == 8 * n
    for n in (2, 5):  # the same ints again and again: the reused configuration
        out = simt.zeros(64, dtype=np.int32)
        mark[n, 8](out)
        assert int(out.get().sum()) == 8 * n


def _make_adder(c):
    @cuda.jit(device=True)
    def add_constant(x):
        return x + c
    return add_constant


def test_device_functions_of_one_name_from_one_factory_stay_distinct(rng):
    # Two closures share a name and a file; each call must run its own function (the second
    # used to run the first one's code).
    c1, c2 = (float(v) for v in rng.uniform(1, 100, 2))
    first, second = _make_adder(c1), _make_adder(c2)

    @cuda.jit
    def k(x, out):
        out[0] = first(x[0])
        out[1] = second(x[0])
        out[2] = first(x[1])

    x = rng.standard_normal(2)
    out = simt.zeros(3)
    k[1, 1](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), [x[0] + c1, x[0] + c2, x[1] + c1])
