"""simt.fuse (a function of arrays traced into one elementwise kernel, typed like running it
eagerly) and vectorize (a scalar function as a ufunc, numba's @vectorize) against NumPy."""
import math

import numpy as np
import pytest

import simt
from simt import cuda
from xp_testing import make, numpy_simt_allclose, parametrize_dtypes


def maybe_fused(xp, f):
    """The function fused for simt, run as it is for NumPy."""
    return simt.fuse(f) if xp is simt else f


@parametrize_dtypes("dtype", [np.float16, np.float32, np.float64, np.int32])
@numpy_simt_allclose()
def test_fused_function_matches_eager_numpy(xp, rng, dtype):
    def f(x, y, s):
        return xp.sqrt(abs(x * x + y * y)) * s + xp.where(x > y, x, y) - 1

    a, b = make(xp, rng, (4, 5), dtype), make(xp, rng, (4, 5), dtype)
    return maybe_fused(xp, f)(a, b, 2)


@parametrize_dtypes("dtype", [np.complex64, np.complex128])
@numpy_simt_allclose()
def test_fused_complex_arithmetic(xp, rng, dtype):
    def f(z, w):
        return (z * w.conj() + 1j) / (abs(w) + 1), xp.where(z.real > w.imag, z, w), z.imag * 2

    return maybe_fused(xp, f)(make(xp, rng, (7,), dtype), make(xp, rng, (7,), dtype))


@numpy_simt_allclose()
def test_fuse_keeps_nep50_typing_of_python_scalars(xp, rng):
    def f(x, i):
        return x * 2.0 + 1, i + 1, i * 2.5, x < 1, (i + 100) // 3

    x = make(xp, rng, (6,), np.float32)
    i = make(xp, rng, (6,), np.int8)
    return maybe_fused(xp, f)(x, i)


@numpy_simt_allclose()
def test_fuse_broadcasts_and_takes_views_and_scalars(xp, rng):
    def f(a, b, c):
        return xp.maximum(a, b) * c + xp.minimum(a, 0.5)

    a = make(xp, rng, (3, 1, 4), np.float64)[:, :, ::-1]
    b = make(xp, rng, (5, 1), np.float32)
    return maybe_fused(xp, f)(a, b, np.float32(3)), maybe_fused(xp, f)(a.T, 2, 1.5)


@numpy_simt_allclose()
def test_fuse_with_numpy_ufuncs_operators_and_astype(xp, rng):
    def f(x, y):
        z = np.sin(x) ** 2 + np.cos(x) ** 2
        w = (-y) % 3 - abs(y) // 2 + (y << 1) - (~y & 5)
        return z * (x >= 0), w.astype(np.float32) / 4, 1 - x, 2 ** y

    x = make(xp, rng, (8,), np.float64)
    y = make(xp, rng, (8,), np.int16, low=0, high=9)
    return maybe_fused(xp, f)(x, y)


def test_fuse_compiles_one_kernel_per_input_types():
    @simt.fuse
    def axpy(a, x, y):
        return a * x + y

    x = simt.arange(5.0)
    y = simt.ones(5)
    np.testing.assert_allclose(axpy(2.0, x, y).get(), 2 * np.arange(5.0) + 1)
    np.testing.assert_allclose(axpy(3.0, x, y).get(), 3 * np.arange(5.0) + 1)  # same kernel, new scalar
    assert len(axpy._sources()) == 1
    axpy(2.0, x.astype(np.float32), y.astype(np.float32))
    assert len(axpy._sources()) == 2
    source = axpy._sources()[0]
    assert source.count("def ") == 1 and "while _i < _end" in source
    assert repr(axpy) == "<simt.fuse axpy>" and axpy.__name__ == "axpy"


def test_fuse_with_kernel_name_and_zero_d_inputs():
    f = simt.fuse(kernel_name="scaled")(lambda x, y: x * y + 1)
    r = f(simt.asarray(np.float64(3)), 2)
    assert r.shape == () and r.item() == 7.0
    assert "def elementwise_scaled" in f._sources()[0]


def test_fuse_refuses_what_it_cannot_compile():
    def branchy(x):
        return x if x > 0 else -x

    def uses_math(x):
        return math.sin(x)

    x = simt.ones(3)
    with pytest.raises(TypeError, match="simt.where"):
        simt.fuse(branchy)(x)
    with pytest.raises(TypeError, match="math module"):
        simt.fuse(uses_math)(x)
    with pytest.raises(TypeError, match="asarray"):
        simt.fuse(lambda a: a + 1)(np.ones(3))
    with pytest.raises(TypeError, match="not supported for the input types"):
        simt.fuse(lambda a: a & 1)(x)


@simt.vectorize(["float32(float32, float32)", "float64(float64, float64)"])
def rel_diff(a, b):
    return abs(a - b) / max(abs(a), abs(b), 1e-30)


@cuda.vectorize
def clamp_step(x, limit):
    if x > limit:
        return limit
    if x < -limit:
        return -limit
    return x


@cuda.jit(device=True)
def poly(x):
    return 3 * x * x - 2 * x + 1


@simt.vectorize("float64(float64)", target="cuda")
def poly_of_sin(x):
    return poly(math.sin(x))


@parametrize_dtypes("dtype", [np.float32, np.float64])
def test_vectorize_with_signatures(rng, dtype):
    a = (rng.standard_normal(100) * 5).astype(dtype)
    b = (rng.standard_normal(100) * 5).astype(dtype)
    r = rel_diff(simt.asarray(a), simt.asarray(b))
    assert r.dtype == dtype
    expected = np.abs(a - b) / np.maximum(np.maximum(np.abs(a), np.abs(b)), 1e-30)
    np.testing.assert_allclose(r.get(), expected, rtol=1e-5 if dtype == np.float32 else 1e-12)


def test_vectorize_picks_the_signature_inputs_cast_to_safely(rng):
    i = rng.integers(-9, 9, 10)
    r = rel_diff(simt.asarray(i), simt.asarray(i[::-1]))
    assert r.dtype == np.float64
    assert rel_diff.types == ["ff->f", "dd->d"]
    with pytest.raises(TypeError, match="no matching definition"):
        rel_diff(simt.ones(3, np.complex64), simt.ones(3, np.complex64))


def test_lazy_vectorize_types_like_the_kernel_language(rng):
    x = rng.standard_normal(50) * 4
    r = clamp_step(simt.asarray(x), 1.5)
    assert r.dtype == np.float64
    np.testing.assert_allclose(r.get(), np.clip(x, -1.5, 1.5))
    k = clamp_step(simt.arange(-5, 6), 2)
    assert k.dtype == np.int64
    np.testing.assert_array_equal(k.get(), np.clip(np.arange(-5, 6), -2, 2))
    f = clamp_step(simt.asarray(x.astype(np.float32))[::-2], np.float32(1.0))
    assert f.dtype == np.float32
    np.testing.assert_allclose(f.get(), np.clip(x.astype(np.float32)[::-2], -1, 1))


def test_vectorize_calls_device_functions_broadcasts_and_writes_out(rng):
    x = rng.uniform(-3, 3, (4, 6))
    out = simt.empty((4, 6))
    r = poly_of_sin(simt.asarray(x), out=out)
    assert r is out
    s = np.sin(x)
    np.testing.assert_allclose(out.get(), 3 * s * s - 2 * s + 1, rtol=1e-12)
    b = rel_diff(simt.asarray(x), simt.asarray(x[0]))  # broadcasting (4, 6) with (6,)
    assert b.shape == (4, 6)


def test_vectorize_signatures_as_numba_type_objects(rng):
    from simt.cuda.numba_types import float32, float64
    f = simt.vectorize([float64(float64, float64), float32(float32, float32)])(rel_diff_numba_types)
    x, y = rng.standard_normal(50) + 3, rng.standard_normal(50) + 3
    got = f(simt.asarray(x), simt.asarray(y))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), (x - y) / y, rtol=1e-15)
    assert f(simt.asarray(x.astype(np.float32)), simt.asarray(y.astype(np.float32))).dtype == np.float32
    single = simt.vectorize(float64(float64, float64))(rel_diff_numba_types)  # one signature, not in a list
    np.testing.assert_allclose(single(simt.asarray(x), simt.asarray(y)).get(), (x - y) / y, rtol=1e-15)
    with pytest.raises(TypeError, match="numba types such as"):
        simt.vectorize([object()])


def rel_diff_numba_types(x, y):
    return (x - y) / y


def test_vectorize_errors():
    with pytest.raises(TypeError, match="takes 2 arguments"):
        rel_diff(simt.ones(3))
    with pytest.raises(TypeError, match="asarray"):
        rel_diff(np.ones(3), np.ones(3))
    with pytest.raises(TypeError, match="return type"):
        simt.vectorize(["(float64)"])(lambda x: x)
    with pytest.raises(TypeError, match="has 2 arguments"):
        simt.vectorize(["float64(float64, float64)"])(abs_value)
    with pytest.raises(ValueError, match="target"):
        simt.vectorize(target="opencl")


def abs_value(x):
    return -x if x < 0 else x
