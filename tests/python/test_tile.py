"""simt.cuda.tile (cuda.tile's tile kernels) against NumPy on fresh random data: loads and stores with
padding, elementwise operators and math with broadcasting, reductions, mma/matmul, shape changes,
gather/scatter, tile.Constant specialization, helper functions, and the errors (python/simt/cuda/tile,
src/simt/sema/builtins_tile.cpp, src/simt/codegen/prelude/tile.h)."""
import numpy as np
import pytest

import simt
import simt.cuda.tile as ct
from xp_testing import random_host

PAD = ct.PaddingMode


def run(kernel, grid, *args):
    ct.launch(None, grid, kernel, tuple(args))
    simt.cuda.synchronize()


@ct.kernel
def add_kernel(a, b, c, n: ct.Constant[int]):
    i = ct.bid(0)
    ct.store(c, index=(i,), tile=ct.load(a, index=(i,), shape=(n,)) + ct.load(b, index=(i,), shape=(n,)))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64, np.float16])
@pytest.mark.parametrize("size,tile", [(1, 16), (130, 16), (1000, 256), (4096, 1024)])
def test_vector_add(rng, dtype, size, tile):
    a, b = random_host(rng, size, dtype), random_host(rng, size, dtype)
    c = simt.zeros(size, dtype)
    run(add_kernel, ct.cdiv(size, tile), simt.asarray(a), simt.asarray(b), c, tile)
    np.testing.assert_array_equal(c.get(), a + b)


@ct.kernel
def copy_2d(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), ct.bid(1)), shape=(tm, tn))
    ct.store(y, index=(ct.bid(0), ct.bid(1)), tile=t)


@ct.kernel
def padded_copy(x, y, tm: ct.Constant[int], tn: ct.Constant[int], mode: ct.Constant[int]):
    i, j = ct.bid(0), ct.bid(1)
    if mode == 0:
        t = ct.load(x, index=(i, j), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    elif mode == 1:
        t = ct.load(x, index=(i, j), shape=(tm, tn), padding_mode=ct.PaddingMode.NAN)
    elif mode == 2:
        t = ct.load(x, index=(i, j), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
    else:
        t = ct.load(x, index=(i, j), shape=(tm, tn), padding_mode=ct.PaddingMode.POS_INF)
    ct.store(y, index=(i, j), tile=t)


def test_load_store_2d_partial_tiles_and_views(rng):
    h = random_host(rng, (37, 53), np.float64)
    y = simt.zeros((37, 53))
    run(copy_2d, (ct.cdiv(37, 8), ct.cdiv(53, 16)), simt.asarray(h), y, 8, 16)
    np.testing.assert_array_equal(y.get(), h)
    # a strided view in, a transposed (Fortran-ordered) view out
    big = random_host(rng, (40, 60), np.float32)
    out = simt.zeros((30, 20), np.float32)
    view = simt.asarray(big)[::2, 1::3]  # (20, 20)
    run(copy_2d, (ct.cdiv(20, 4), ct.cdiv(20, 8)), view, out.T[:, :20], 4, 8)
    np.testing.assert_array_equal(out.get()[:20, :20].T, big[::2, 1::3])
    assert not out.get()[20:].any()


@pytest.mark.parametrize("mode,fill", [(0, 0.0), (1, np.nan), (2, -np.inf), (3, np.inf)])
def test_padding_modes(rng, mode, fill):
    h = random_host(rng, (5, 7), np.float32)
    y = simt.zeros((8, 8), np.float32)
    run(padded_copy, (1, 1), simt.asarray(h), y, 8, 8, mode)
    expected = np.full((8, 8), fill, np.float32)
    expected[:5, :7] = h
    np.testing.assert_array_equal(y.get(), expected)


@ct.kernel
def broadcast_ops(x, col, row, out, tm: ct.Constant[int], tn: ct.Constant[int]):
    t = ct.load(x, index=(0, 0), shape=(tm, tn))
    c = ct.load(col, index=(0, 0), shape=(tm, 1))
    r = ct.load(row, index=(0,), shape=(tn,))
    v = (t - c) * r + 2.0
    v = ct.where(v > 0.5, v, -v) / ct.maximum(r, 0.25)
    ct.store(out, index=(0, 0), tile=v ** 2 % 3.0 - ct.minimum(c, t))


def test_broadcasting_and_operators(rng):
    x, col, row = random_host(rng, (16, 32), np.float64), random_host(rng, (16, 1), np.float64), random_host(rng, 32, np.float64)
    out = simt.zeros((16, 32))
    run(broadcast_ops, 1, simt.asarray(x), simt.asarray(col), simt.asarray(row), out, 16, 32)
    v = (x - col) * row + 2.0
    v = np.where(v > 0.5, v, -v) / np.maximum(row, 0.25)
    # (the remainder keeps v ** 2's absolute rounding error, a few ulps of the largest square: the
    # GPU's pow may differ from NumPy's there, so the tolerance scales with it)
    square = v ** 2
    atol = 64 * np.finfo(np.float64).eps * np.abs(square).max()
    np.testing.assert_allclose(out.get(), square % 3.0 - np.minimum(col, x), rtol=1e-12, atol=atol)


@ct.kernel
def weak_scalars(x, f32_out, i32_out, f64_out):
    t = ct.load(x, index=(0,), shape=(64,))
    ct.store(f32_out, index=(0,), tile=t * 2.5 + 1)  # a float32 tile stays float32 with Python numbers
    i = ct.astype(t * 10.0, ct.int32)
    ct.store(i32_out, index=(0,), tile=(i // 3 + i % 4 - 7) & 0xFF | 1)
    ct.store(f64_out, index=(0,), tile=i / 3)  # / on integers gives float64


def test_weak_scalars_and_integer_ops(rng):
    h = random_host(rng, 64, np.float32)
    f32, i32, f64 = simt.zeros(64, np.float32), simt.zeros(64, np.int32), simt.zeros(64)
    run(weak_scalars, 1, simt.asarray(h), f32, i32, f64)
    # (the GPU may fuse t * 2.5 + 1 into one rounding: within an ulp of the terms)
    terms = np.abs(h.astype(np.float64) * 2.5) + 1
    assert np.all(np.abs(f32.get() - (h.astype(np.float64) * 2.5 + 1)) <= 2 * np.finfo(np.float32).eps * terms)
    i = (h * np.float32(10.0)).astype(np.int32)
    np.testing.assert_array_equal(i32.get(), (i // 3 + i % 4 - 7) & 0xFF | 1)
    np.testing.assert_allclose(f64.get(), i / 3, rtol=1e-15)


MATH = ["exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt", "sin", "cos", "tan", "asin", "acos",
        "atan", "sinh", "cosh", "tanh", "erf", "floor", "ceil", "trunc", "abs", "negative"]


def make_math_kernel(name):
    fn = getattr(ct, name)

    @ct.kernel
    def k(x, y):
        ct.store(y, index=(0,), tile=fn(ct.load(x, index=(0,), shape=(256,))))
    return k


def numpy_math(name, h):
    import math
    if name == "rsqrt":
        return 1 / np.sqrt(h)
    if name == "erf":
        return np.vectorize(math.erf)(h.astype(np.float64)).astype(h.dtype)
    table = {"asin": "arcsin", "acos": "arccos", "atan": "arctan"}
    return getattr(np, table.get(name, name))(h)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", MATH)
def test_unary_math(rng, name, dtype):
    positive = name in ("log", "log2", "log10", "log1p", "sqrt", "rsqrt")
    unit = name in ("asin", "acos")
    h = random_host(rng, 256, dtype, low=0.1 if positive else -0.99 if unit else -3.0, high=0.99 if unit else 3.0)
    y = simt.zeros(256, dtype)
    run(make_math_kernel(name), 1, simt.asarray(h), y)
    np.testing.assert_allclose(y.get(), numpy_math(name, h), rtol=2e-6 if dtype == np.float32 else 1e-13, atol=1e-7)


def test_math_on_integers_computes_in_float64(rng):
    h = random_host(rng, 256, np.int32, low=0, high=50)
    y = simt.zeros(256)
    run(make_math_kernel("sqrt"), 1, simt.asarray(h), y)
    np.testing.assert_allclose(y.get(), np.sqrt(h), rtol=1e-15)


def make_reduce_kernel(name, axis, keepdims, shape):
    fn = getattr(ct, name)
    ndim = len(shape)

    if ndim == 1:
        @ct.kernel
        def k1(x, y):
            r = fn(ct.load(x, index=(0,), shape=shape), axis=axis, keepdims=keepdims)
            ct.store(y, index=(0,) if keepdims else (ct.bid(0),), tile=r)
        return k1

    if keepdims:
        @ct.kernel
        def k2(x, y):
            ct.store(y, index=(0, 0), tile=fn(ct.load(x, index=(0, 0), shape=shape), axis=axis, keepdims=True))
    else:
        @ct.kernel
        def k2(x, y):  # (axis=None gives a number, stored as element 0)
            ct.store(y, index=(0,), tile=fn(ct.load(x, index=(0, 0), shape=shape), axis=axis))
    return k2


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "argmax", "argmin"])
@pytest.mark.parametrize("axis,keepdims", [(None, False), (None, True), (0, False), (1, False), (1, True), (-2, True)])
def test_reductions_2d(rng, name, dtype, axis, keepdims):
    shape = (8, 16)
    h = random_host(rng, shape, dtype, low=0.5 if name == "prod" else None, high=1.5 if name == "prod" else None)
    if dtype in (np.int32, np.int64) and name == "prod":
        h = random_host(rng, shape, dtype, low=1, high=3)
        h[rng.random(shape) < 0.6] = 1  # products stay in range
    expected = getattr(np, name)(h, axis=axis, keepdims=keepdims) if not name.startswith("arg") or axis is not None \
        else np.array(getattr(np, name)(h))
    if name.startswith("arg") and keepdims:
        expected = np.expand_dims(getattr(np, name)(h, axis=axis), axis if axis is not None else (0, 1))
    out_dtype = np.int64 if name.startswith("arg") else expected.dtype
    out = simt.zeros(max(expected.size, 1) if not keepdims else expected.shape, out_dtype)
    run(make_reduce_kernel(name, axis, keepdims, shape), 1, simt.asarray(h), out)
    got = out.get().reshape(np.shape(expected))
    if np.dtype(out_dtype).kind == "f":
        # (float32 sums of 16 terms in [-4, 4] may cancel: the summation order moves them by ~1e-6)
        np.testing.assert_allclose(got, expected, rtol=1e-5 if dtype == np.float32 else 1e-12,
                                   atol=1e-4 if dtype == np.float32 else 1e-12)
    else:
        np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("name", ["sum", "max", "argmin"])
def test_reductions_1d_and_nan(rng, name):
    h = random_host(rng, 200, np.float32)
    out = simt.zeros(1, np.int64 if name.startswith("arg") else np.float32)
    run(make_reduce_kernel(name, 0, True, (256,)), 1, simt.asarray(h), out)
    padded = np.concatenate([h, np.zeros(56, np.float32)])  # padding reads as zero
    if name == "sum":  # float32 sums of ±4 values may cancel: the error scales with sum(|h|), not the sum
        np.testing.assert_allclose(out.get()[0], padded.astype(np.float64).sum(), rtol=1e-5,
                                   atol=1e-6 * np.abs(padded).astype(np.float64).sum())
    else:
        np.testing.assert_allclose(out.get()[0], getattr(np, name)(padded), rtol=1e-5)
    if name == "max":  # NaN gives way to numbers (cuTile's propagate_nan=False; test_tile_compat.py has the rest)
        h[[17, 150]] = np.nan
        run(make_reduce_kernel(name, 0, True, (256,)), 1, simt.asarray(h), out)
        np.testing.assert_array_equal(out.get()[0], np.nanmax(np.concatenate([h, np.zeros(56, np.float32)])))


def test_sum_of_int32_is_int64_as_in_numpy(rng):
    h = np.full((16, 16), 2 ** 30, np.int32)
    out = simt.zeros(16, np.int64)
    run(make_reduce_kernel("sum", 1, False, (16, 16)), 1, simt.asarray(h), out)
    np.testing.assert_array_equal(out.get(), h.sum(axis=1))
    assert h.sum(axis=1).dtype == np.int64


@ct.kernel
def matmul_kernel(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bx, by = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, by), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bx, by), tile=acc.astype(C.dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.float64])
@pytest.mark.parametrize("mnk,tiles", [((64, 64, 64), (32, 32, 16)), ((100, 70, 50), (32, 16, 32)), ((1, 3, 5), (16, 16, 16))])
def test_mma_matmul(rng, dtype, mnk, tiles):
    M, N, K = mnk
    a, b = random_host(rng, (M, K), dtype, -1, 1), random_host(rng, (K, N), dtype, -1, 1)
    c = simt.zeros((M, N), dtype)
    tm, tn, tk = tiles
    run(matmul_kernel, (ct.cdiv(M, tm), ct.cdiv(N, tn)), simt.asarray(a), simt.asarray(b), c, tm, tn, tk)
    expected = (a.astype(np.float64) @ b.astype(np.float64)).astype(dtype)
    np.testing.assert_allclose(c.get().astype(np.float64), expected, rtol=1e-2 if dtype == np.float16 else 1e-5, atol=1e-2 if dtype == np.float16 else 1e-5)


@ct.kernel
def matmul_operator(A, B, C, D):
    a = ct.load(A, index=(0, 0), shape=(16, 8))
    b = ct.load(B, index=(0, 0), shape=(8, 32))
    ct.store(C, index=(0, 0), tile=a @ b)
    ct.store(D, index=(0, 0), tile=ct.matmul(a, b) + 1)


def test_matmul_operator(rng):
    a, b = random_host(rng, (16, 8), np.float64), random_host(rng, (8, 32), np.float64)
    c, d = simt.zeros((16, 32)), simt.zeros((16, 32))
    run(matmul_operator, 1, simt.asarray(a), simt.asarray(b), c, d)
    # (atol: NumPy's BLAS sums in another order; an element that cancels to near zero differs by ~1e-15)
    np.testing.assert_allclose(c.get(), a @ b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d.get(), a @ b + 1, rtol=1e-12, atol=1e-12)


@ct.kernel
def shapes_kernel(x, t_out, p_out, r_out, e_out, b_out):
    t = ct.load(x, index=(0, 0, 0), shape=(2, 4, 8))
    ct.store(t_out, index=(0, 0, 0), tile=ct.transpose(t))            # (2, 8, 4)
    ct.store(p_out, index=(0, 0, 0), tile=ct.permute(t, (2, 0, 1)))   # (8, 2, 4)
    ct.store(r_out, index=(0, 0), tile=t.reshape((8, 8)))
    m = ct.sum(t, axis=2)                                             # (2, 4)
    ct.store(e_out, index=(0, 0, 0), tile=ct.expand_dims(m, 1))       # (2, 1, 4)
    ct.store(b_out, index=(0, 0, 0), tile=ct.broadcast_to(ct.expand_dims(m, 2), (2, 4, 8)))


def test_shape_changes(rng):
    h = random_host(rng, (2, 4, 8), np.float64)
    outs = [simt.zeros(s) for s in [(2, 8, 4), (8, 2, 4), (8, 8), (2, 1, 4), (2, 4, 8)]]
    run(shapes_kernel, 1, simt.asarray(h), *outs)
    m = h.sum(axis=2)
    expected = [np.swapaxes(h, -1, -2), np.transpose(h, (2, 0, 1)), h.reshape(8, 8), m[:, None, :],
                np.broadcast_to(m[:, :, None], (2, 4, 8))]
    for got, want in zip(outs, expected):
        np.testing.assert_allclose(got.get(), want, rtol=1e-12, atol=1e-12)


@ct.kernel
def factories(i_out, f_out, o_out):
    r = ct.arange(64, dtype=ct.int32)
    ct.store(i_out, index=(0,), tile=r * r - 5)
    ct.store(f_out, index=(0, 0), tile=ct.full((4, 8), 2.5, dtype=ct.float32) + ct.zeros((4, 8), dtype=ct.float32))
    ct.store(o_out, index=(0,), tile=ct.ones((16,), dtype=ct.int64) + ct.astype(ct.arange(16, dtype=ct.int32), ct.int64))


def test_factories():
    i, f, o = simt.zeros(64, np.int32), simt.zeros((4, 8), np.float32), simt.zeros(16, np.int64)
    run(factories, 1, i, f, o)
    r = np.arange(64, dtype=np.int32)
    np.testing.assert_array_equal(i.get(), r * r - 5)
    np.testing.assert_array_equal(f.get(), np.full((4, 8), 2.5, np.float32))
    np.testing.assert_array_equal(o.get(), np.arange(16) + 1)


@ct.kernel
def gather_scatter(x, idx, y, z, m: ct.Constant[int]):
    i = ct.load(idx, index=(0,), shape=(m,))
    g = ct.gather(x, i, padding_value=-1.0)
    ct.store(y, index=(0,), tile=g)
    ct.scatter(z, i, g * 2.0)


def test_gather_scatter(rng):
    x = random_host(rng, 50, np.float64)
    idx = rng.permutation(np.arange(-5, 59))[:64].astype(np.int32)  # some outside [0, 50)
    y, z = simt.zeros(64), simt.zeros(50)
    run(gather_scatter, 1, simt.asarray(x), simt.asarray(idx), y, z, 64)
    inside = (idx >= 0) & (idx < 50)
    np.testing.assert_array_equal(y.get(), np.where(inside, x[np.clip(idx, 0, 49)], -1.0))
    expected = np.zeros(50)
    expected[idx[inside]] = 2 * x[idx[inside]]
    np.testing.assert_array_equal(z.get(), expected)


def scale_rows(t, factor):  # a plain helper function: compiled as a device function
    return t * factor


@ct.kernel
def with_helper(x, y, n: ct.Constant[int], twice: ct.Constant[bool]):
    t = ct.load(x, index=(ct.bid(0),), shape=(n,))
    if twice:
        t = scale_rows(t, 2.0)
    acc = t
    for _ in range(3):
        acc += t
    ct.store(y, index=(ct.bid(0),), tile=acc)


def test_helpers_constants_and_loops(rng):
    h = random_host(rng, 96, np.float64)
    y = simt.zeros(96)
    run(with_helper, 3, simt.asarray(h), y, 32, True)
    np.testing.assert_allclose(y.get(), 8 * h, rtol=1e-15)
    run(with_helper, 6, simt.asarray(h), y, 16, False)
    np.testing.assert_allclose(y.get(), 4 * h, rtol=1e-15)
    sources = with_helper.inspect_source()
    assert set(sources) == {(32, True), (16, False)}
    assert all("simt_tile_load" in src for d in sources.values() for src in d.values())


def test_cdiv_and_host_stubs():
    assert ct.cdiv(10, 4) == 3 and ct.cdiv(8, 4) == 2 and ct.cdiv(0, 4) == 0
    with pytest.raises(TypeError, match="inside a @tile.kernel"):
        ct.load(None, index=(0,), shape=(4,))
    with pytest.raises(TypeError, match="tile.launch"):
        add_kernel(1, 2, 3, 4)


def test_stream_argument(rng):
    h = random_host(rng, 64, np.float32)
    c = simt.zeros(64, np.float32)
    s = simt.cuda.stream()
    ct.launch(s, 4, add_kernel, (simt.asarray(h), simt.asarray(h), c, 16))
    s.synchronize()
    np.testing.assert_array_equal(c.get(), 2 * h)


# --- errors -----------------------------------------------------------------------------------

@ct.kernel
def bad_shape(x, n: ct.Constant[int]):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(n,)))


@ct.kernel
def runtime_shape(x, n):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(n,)))


@ct.kernel
def wrong_store_dtype(x, y):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(8,)))


@ct.kernel
def mismatched(x, y):
    a = ct.load(x, index=(0,), shape=(8,))
    b = ct.load(y, index=(0,), shape=(16,))
    ct.store(x, index=(0,), tile=a + b)


@ct.kernel
def too_big(x):
    t = ct.load(x, index=(0, 0), shape=(128, 128))
    ct.store(x, index=(0, 0), tile=ct.transpose(t))


@ct.kernel
def changes_type(x):
    t = ct.load(x, index=(0,), shape=(8,))
    for _ in range(2):
        t = ct.sum(t, axis=0, keepdims=True)
    ct.store(x, index=(0,), tile=t)


def test_compile_errors():
    x = simt.zeros(64)
    with pytest.raises(simt.cuda.TypingError, match="powers of two, not 12"):
        run(bad_shape, 1, x, 12)
    with pytest.raises(simt.cuda.TypingError, match="known when the kernel compiles"):
        run(runtime_shape, 1, x, 8)
    with pytest.raises(simt.cuda.TypingError, match=r"tile.astype\(t, array.dtype\)"):
        run(wrong_store_dtype, 1, x, simt.zeros(8, np.float32))
    with pytest.raises(simt.cuda.TypingError, match="do not broadcast"):
        run(mismatched, 1, x, x)
    with pytest.raises(simt.cuda.TypingError, match="the most is 49152"):
        run(too_big, 1, simt.zeros((128, 128)))
    with pytest.raises(simt.cuda.TypingError, match="cannot unify"):
        run(changes_type, 1, x)


def test_launch_errors():
    x = simt.zeros(64)
    with pytest.raises(TypeError, match="takes 4 arguments"):
        ct.launch(None, 1, add_kernel, (x, x, x))
    with pytest.raises(TypeError, match="as a tuple"):
        ct.launch(None, 1, add_kernel, [x, x, x, 4])
    with pytest.raises(TypeError, match="must be a number or bool"):
        ct.launch(None, 1, add_kernel, (x, x, x, "4"))
    with pytest.raises(TypeError, match="launches a @tile.kernel"):
        ct.launch(None, 1, print, (x,))
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        ct.launch(None, (1, 1, 1, 1), add_kernel, (x, x, x, 4))
    with pytest.raises(TypeError, match="unknown @tile.kernel option"):
        ct.kernel(lambda x: None, num_warps=4)


def test_compat_imports_cuda_tile(tmp_path):
    import subprocess
    import sys
    script = tmp_path / "uses_cuda_tile.py"
    script.write_text(
        "import cuda.tile as ct\nimport cupy\nimport numpy as np\n"
        "@ct.kernel\ndef k(a, b):\n    ct.store(b, index=(ct.bid(0),), tile=ct.load(a, index=(ct.bid(0),), shape=(4,)) * 3)\n"
        "a = cupy.arange(8, dtype=cupy.float32)\nb = cupy.zeros_like(a)\n"
        "ct.launch(cupy.cuda.get_current_stream(), (2, 1, 1), k, (a, b))\n"
        "np.testing.assert_array_equal(cupy.asnumpy(b), np.arange(8) * 3)\nprint('tile ok')\n")
    done = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "tile ok"


# --- cuTile programs as written: helper functions, constant locals, dtype tests, pruned branches

def grouped_block(m, n, tm, tn, group, bid):  # a plain helper: the block's (row, column) tile, grouped
    blocks_m, blocks_n = ct.cdiv(m, tm), ct.cdiv(n, tn)
    first = (bid // (group * blocks_n)) * group
    rows = min(blocks_m - first, group)
    return first + bid % rows, (bid % (group * blocks_n)) // rows


@ct.kernel(num_ctas=ct.ByTarget(sm_100=2))
def persistent_matmul(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    group = 4
    pad = ct.PaddingMode.ZERO
    dtype = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    m, n = A.shape[0], B.shape[1]
    for block in range(ct.bid(0), ct.cdiv(m, tm) * ct.cdiv(n, tn), ct.num_blocks(0)):
        bx, by = grouped_block(m, n, tm, tn, group, block)
        acc = ct.full((tm, tn), 0, dtype=ct.float32)
        for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
            a = ct.load(A, index=(bx, k), shape=(tm, tk), padding_mode=pad).astype(dtype)
            b = ct.load(B, index=(k, by), shape=(tk, tn), padding_mode=pad).astype(dtype)
            acc = ct.mma(a, b, acc)
        ct.store(C, index=(bx, by), tile=ct.astype(acc, C.dtype))


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_persistent_grouped_matmul_as_cutile_writes_it(rng, dtype):
    M, N, K = 150, 90, 70
    a, b = random_host(rng, (M, K), dtype, -1, 1), random_host(rng, (K, N), dtype, -1, 1)
    c = simt.zeros((M, N), dtype)
    run(persistent_matmul, 7, simt.asarray(a), simt.asarray(b), c, 32, 32, 16)  # 7 blocks walk 15 tiles
    expected = a.astype(np.float64) @ b.astype(np.float64)
    tol = 2e-2 if dtype == np.float16 else 1e-4
    np.testing.assert_allclose(c.get().astype(np.float64), expected, rtol=tol, atol=tol)


@ct.kernel
def pruned(x, y, two_d: ct.Constant[bool], n: ct.Constant[int]):
    if two_d:  # the branch not taken is not compiled: it would not type-check for a 1-D y
        ct.store(y, index=(0, 0), tile=ct.load(x, index=(0, 0), shape=(n, n)))
    else:
        ct.store(y, index=(0,), tile=ct.sum(ct.load(x, index=(0, 0), shape=(n, n)), axis=1))
    if n > 4 and not two_d:
        ct.store(y, index=(1,), tile=ct.full((n,), 2 if n > 4 else 1.5, dtype=y.dtype))


def test_branches_on_constants_are_pruned(rng):
    h = random_host(rng, (8, 8), np.float64)
    y2 = simt.zeros((8, 8))
    run(pruned, 1, simt.asarray(h), y2, True, 8)
    np.testing.assert_array_equal(y2.get(), h)
    y1 = simt.zeros(16)
    run(pruned, 1, simt.asarray(h), y1, False, 8)
    np.testing.assert_allclose(y1.get(), np.concatenate([h.sum(axis=1), np.full(8, 2.0)]), rtol=1e-12, atol=1e-12)


@ct.kernel
def string_changes(x):
    pad = ct.PaddingMode.ZERO
    if x.shape[0] > 3:
        pad = ct.PaddingMode.NAN
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(4,), padding_mode=pad))


def test_compile_time_locals_must_keep_one_value():
    with pytest.raises(simt.cuda.TypingError, match="one constant value"):
        run(string_changes, 1, simt.zeros(4))


# --- reductions over several axes, cat, atomics -------------------------------------------------

@ct.kernel
def multi_axis(x, s_out, m_out):
    t = ct.load(x, index=(0, 0, 0), shape=(4, 8, 16))
    ct.store(s_out, index=(0,), tile=ct.sum(t, axis=(0, 2)))
    ct.store(m_out, index=(0, 0, 0), tile=t.max(axis=(-1, 0), keepdims=True))


def test_reductions_over_several_axes(rng):
    h = random_host(rng, (4, 8, 16), np.float64)
    s, m = simt.zeros(8), simt.zeros((1, 8, 1))
    run(multi_axis, 1, simt.asarray(h), s, m)
    np.testing.assert_allclose(s.get(), h.sum(axis=(0, 2)), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(m.get(), h.max(axis=(2, 0), keepdims=True))


@ct.kernel
def cat_kernel(x, y, rows_out, cols_out):
    a = ct.load(x, index=(0, 0), shape=(4, 8))
    b = ct.load(y, index=(0, 0), shape=(4, 8))
    ct.store(rows_out, index=(0, 0), tile=ct.cat((a, b), 0))
    ct.store(cols_out, index=(0, 0), tile=ct.cat((b, a * 2), axis=-1))


def test_cat(rng):
    x, y = random_host(rng, (4, 8), np.int32), random_host(rng, (4, 8), np.int32)
    r, c = simt.zeros((8, 8), np.int32), simt.zeros((4, 16), np.int32)
    run(cat_kernel, 1, simt.asarray(x), simt.asarray(y), r, c)
    np.testing.assert_array_equal(r.get(), np.concatenate([x, y], axis=0))
    np.testing.assert_array_equal(c.get(), np.concatenate([y, x * 2], axis=1))


@ct.kernel
def histogram(values, counts, bins: ct.Constant[int], n: ct.Constant[int]):
    v = ct.load(values, index=(ct.bid(0),), shape=(n,))
    b = ct.astype(ct.floor(v * bins), ct.int32)
    i = ct.arange(n, dtype=ct.int32) + ct.bid(0) * n
    ct.atomic_add(counts, ct.where(i < values.shape[0], b, -1), 1)  # the padding's index -1 is skipped


@ct.kernel
def atomics_old_values(x, idx, olds, mins):
    i = ct.load(idx, index=(0,), shape=(32,))
    olds_t = ct.atomic_max(x, i, ct.full((32,), 5, dtype=ct.int64))
    ct.store(olds, index=(0,), tile=olds_t)
    ct.store(mins, index=(0,), tile=ct.atomic_min(x, i, ct.arange(32, dtype=ct.int64)))


def test_atomics(rng):
    values = rng.random(1000)
    counts = simt.zeros(16, np.int32)
    run(histogram, ct.cdiv(1000, 256), simt.asarray(values), counts, 16, 256)
    np.testing.assert_array_equal(counts.get(), np.bincount(np.floor(values * 16).astype(int), minlength=16))
    h = rng.integers(0, 10, 40).astype(np.int64)
    idx = rng.permutation(40)[:32].astype(np.int32)
    idx[3] = -1  # outside: skipped, its old value reads 0
    x = simt.asarray(h)
    olds, mins = simt.zeros(32, np.int64), simt.zeros(32, np.int64)
    run(atomics_old_values, 1, x, simt.asarray(idx), olds, mins)
    inside = idx >= 0
    np.testing.assert_array_equal(olds.get(), np.where(inside, h[np.clip(idx, 0, 39)], 0))
    after_max = h.copy()
    after_max[idx[inside]] = np.maximum(h[idx[inside]], 5)
    np.testing.assert_array_equal(mins.get(), np.where(inside, after_max[np.clip(idx, 0, 39)], 0))
    expected = after_max.copy()
    expected[idx[inside]] = np.minimum(after_max[idx[inside]], np.arange(32)[inside])
    np.testing.assert_array_equal(x.get(), expected)


def split_halves(t):  # a helper returning a tuple of tiles
    return ct.sum(t, axis=1), ct.max(t, axis=1)


@ct.kernel
def tuple_of_tiles(x, s, m):
    sums, maxes = split_halves(ct.load(x, index=(0, 0), shape=(8, 16)))
    ct.store(s, index=(0,), tile=sums)
    ct.store(m, index=(0,), tile=maxes)


def test_helpers_return_tuples_of_tiles(rng):
    h = random_host(rng, (8, 16), np.float32)
    s, m = simt.zeros(8, np.float32), simt.zeros(8, np.float32)
    run(tuple_of_tiles, 1, simt.asarray(h), s, m)
    np.testing.assert_allclose(s.get(), h.sum(axis=1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(m.get(), h.max(axis=1))


# --- review mends: narrow integers, axis=(), exact comparisons, constants, errors --------------

@ct.kernel
def narrow_sums(x, total, none_out):
    t = ct.load(x, index=(0, 0, 0), shape=(2, 8, 64))
    ct.store(total, index=(0,), tile=ct.sum(t, axis=(0, 1)))      # int16 -> int64 partial sums
    ct.store(none_out, index=(0, 0, 0), tile=ct.sum(t, axis=()))  # NumPy: no axis reduced, dtype widened


def test_sums_of_narrow_integers_over_several_axes(rng):
    h = rng.integers(-30000, 30000, (2, 8, 64)).astype(np.int16)
    total, none_out = simt.zeros(64, np.int64), simt.zeros((2, 8, 64), np.int64)
    run(narrow_sums, 1, simt.asarray(h), total, none_out)
    np.testing.assert_array_equal(total.get(), h.sum(axis=(0, 1)))
    np.testing.assert_array_equal(none_out.get(), np.sum(h, axis=()))


@ct.kernel
def exact_compare(x, lt, gt):
    t = ct.load(x, index=(0,), shape=(16,))
    ct.store(lt, index=(0,), tile=t < 1000)   # an int8 tile against an int beyond int8
    ct.store(gt, index=(0,), tile=t > -200)


def test_comparisons_with_integers_beyond_the_tile_dtype(rng):
    h = random_host(rng, 16, np.int8)
    lt, gt = simt.zeros(16, np.bool_), simt.zeros(16, np.bool_)
    run(exact_compare, 1, simt.asarray(h), lt, gt)
    np.testing.assert_array_equal(lt.get(), h < 1000)
    np.testing.assert_array_equal(gt.get(), h > -200)


@ct.kernel
def overflowing_scalar(x):
    ct.store(x, index=(0,), tile=ct.load(x, index=(0,), shape=(16,)) + 1000)


@ct.kernel
def scaled(x, y, k: ct.Constant[float]):
    ct.store(y, index=(0,), tile=ct.load(x, index=(0,), shape=(8,)) * k + ct.cdiv(-5, 4))


def test_constants_by_type_and_negative_cdiv(rng):
    h = random_host(rng, 8, np.int32)
    y = simt.zeros(8)
    run(scaled, 1, simt.asarray(h), y, 1.5)  # int32 tile * float -> float64
    np.testing.assert_array_equal(y.get(), h * 1.5 - 1)
    y32 = simt.zeros(8, np.int32)
    run(scaled, 1, simt.asarray(h), y32, 2)  # a different specialization: int32 stays int32
    np.testing.assert_array_equal(y32.get(), h * 2 - 1)
    run(scaled, 1, simt.asarray(h), y32, np.int64(3))  # NumPy scalars are constants too
    np.testing.assert_array_equal(y32.get(), h * 3 - 1)
    assert ct.cdiv(-5, 4) == -1


def test_review_errors():
    with pytest.raises(simt.cuda.TypingError, match="does not fit the int8"):
        run(overflowing_scalar, 1, simt.zeros(16, np.int8))

    @simt.cuda.jit
    def simt_kernel(x):
        ct.store(x, index=(0,), tile=ct.zeros((4,), dtype=ct.float64))

    with pytest.raises(simt.cuda.TypingError, match="in @tile.kernel functions"):
        simt_kernel[1, 4](simt.zeros(4))

    @ct.kernel
    def captures_dtype(x):
        dt = x.dtype

        def inner(v):
            return ct.astype(v, dt)
        ct.store(x, index=(0,), tile=inner(ct.load(x, index=(0,), shape=(4,))))

    with pytest.raises(simt.cuda.TypingError, match="exists only while compiling"):
        run(captures_dtype, 1, simt.zeros(4))
