"""simt.ElementwiseKernel / simt.ReductionKernel with complex64, complex128 and float16
parameters: CuPy's spellings (complex<float>, complex<double>, float16) from simt's
<cupy/complex.cuh> and <cupy/float16.cuh>, on both backends, against NumPy."""
import numpy as np
import pytest

import simt

TOL = {np.complex64: dict(rtol=2e-5, atol=2e-5), np.complex128: dict(rtol=1e-12, atol=1e-12)}


def random_complex(rng, shape, dtype):
    return (rng.normal(size=shape) + 1j * rng.normal(size=shape)).astype(dtype)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_named_complex_types(rng, dtype):
    name = np.dtype(dtype).name
    k = simt.ElementwiseKernel(f"{name} x, {name} y", f"{name} z", "z = x * y + conj(x)", f"cmad_{name}")
    x, y = random_complex(rng, 1000, dtype), random_complex(rng, 1000, dtype)
    z = k(simt.asarray(x), simt.asarray(y))
    assert z.dtype == dtype
    np.testing.assert_allclose(z.get(), x * y + np.conj(x), **TOL[dtype])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_math_functions(rng, dtype):
    k = simt.ElementwiseKernel(
        "T x, T y", "T a, T b, T c, T d",
        "a = exp(x) / y; b = sqrt(x) + log(y); c = sin(x) * cos(y) - tanh(x); d = pow(x, y) + T(abs(x), arg(y))",
        "cmath_mix")
    x, y = random_complex(rng, 500, dtype), random_complex(rng, 500, dtype)
    a, b, c, d = k(simt.asarray(x), simt.asarray(y))
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(a.get(), np.exp(x) / y, **TOL[dtype])
        np.testing.assert_allclose(b.get(), np.sqrt(x) + np.log(y), **TOL[dtype])
        np.testing.assert_allclose(c.get(), np.sin(x) * np.cos(y) - np.tanh(x), **TOL[dtype])
        ref = np.power(x, y) + (np.abs(x) + 1j * np.angle(y)).astype(dtype)
        np.testing.assert_allclose(d.get(), ref, rtol=100 * TOL[dtype]["rtol"], atol=100 * TOL[dtype]["atol"])


def test_real_imag_norm_and_mixed_real_operands(rng):
    k = simt.ElementwiseKernel("complex128 z, float64 s", "float64 re, float64 im, float64 n, complex128 w",
                               "re = real(z); im = imag(z); n = norm(z); w = z * s + 2.0 - s / z", "parts")
    z, s = random_complex(rng, (20, 30), np.complex128), rng.normal(size=(20, 30))
    re, im, n, w = k(simt.asarray(z), simt.asarray(s))
    np.testing.assert_array_equal(re.get(), z.real)
    np.testing.assert_array_equal(im.get(), z.imag)
    np.testing.assert_allclose(n.get(), np.abs(z) ** 2, rtol=1e-14)
    np.testing.assert_allclose(w.get(), z * s + 2.0 - s / z, rtol=1e-13, atol=1e-13)


def test_complex_scalars_and_broadcasting(rng):
    k = simt.ElementwiseKernel("T x, T s", "T z", "z = x * s", "cscale")
    x = random_complex(rng, (4, 1, 5), np.complex128)
    s = complex(rng.normal(), rng.normal())
    np.testing.assert_allclose(k(simt.asarray(x), s).get(), x * s, rtol=1e-14)
    k2 = simt.ElementwiseKernel("complex64 x, complex64 y", "complex64 z", "z = x - y", "csub")
    y = random_complex(rng, (3, 5), np.complex64)
    xs = simt.asarray(x.astype(np.complex64))
    got = k2(xs, simt.asarray(y))  # (4, 1, 5) with (3, 5): strided, broadcast kernel
    np.testing.assert_allclose(got.get(), x.astype(np.complex64) - y, rtol=1e-6)
    view = simt.asarray(random_complex(rng, (6, 8), np.complex128))[::2, 1::3]  # a non-contiguous view
    np.testing.assert_allclose(k(view, np.complex128(2 - 1j)).get(), view.get() * (2 - 1j), rtol=1e-14)


def test_complex_output_into_given_array(rng):
    k = simt.ElementwiseKernel("float64 r, float64 im", "complex128 z", "z = complex<double>(r, im)", "make_c")
    r, im = rng.normal(size=64), rng.normal(size=64)
    out = simt.empty(64, np.complex128)
    assert k(simt.asarray(r), simt.asarray(im), out) is out
    np.testing.assert_array_equal(out.get(), r + 1j * im)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128])
def test_complex_reduction(rng, dtype):
    r = simt.ReductionKernel("T x", "T y", "x * conj(x) + x", "a + b", "y = a", "0", "csumsq")
    x = random_complex(rng, (7, 300), dtype)
    got = r(simt.asarray(x), axis=1)
    assert got.dtype == dtype
    ref = (x * np.conj(x) + x).astype(np.complex128).sum(axis=1)
    np.testing.assert_allclose(got.get(), ref, rtol=1e-5 if dtype == np.complex64 else 1e-12)
    total = r(simt.asarray(x))
    np.testing.assert_allclose(total.get(), ref.sum(), rtol=1e-5 if dtype == np.complex64 else 1e-12)


def test_complex_reduction_to_real_type(rng):
    r = simt.ReductionKernel("complex128 x", "float64 y", "abs(x)", "max(a, b)", "y = a", "0", "cmaxabs",
                             reduce_type=np.float64)
    x = random_complex(rng, (9, 40), np.complex128)
    np.testing.assert_allclose(r(simt.asarray(x), axis=0).get(), np.abs(x).max(axis=0), rtol=1e-15)


def test_float16_elementwise(rng):
    k = simt.ElementwiseKernel("float16 x, float16 y", "float16 z", "z = x * y + x", "hmad")
    x, y = rng.normal(size=2000).astype(np.float16), rng.normal(size=2000).astype(np.float16)
    z = k(simt.asarray(x), simt.asarray(y))
    assert z.dtype == np.float16
    # CuPy's float16: computed in float, rounded once to half
    ref = (x.astype(np.float32) * y.astype(np.float32) + x.astype(np.float32)).astype(np.float16)
    np.testing.assert_array_equal(z.get(), ref)


def test_float16_placeholder_math_and_compound_assignment(rng):
    k = simt.ElementwiseKernel("T x", "T y", "y = exp(x); y += T(1.5)", "hexp")
    x = rng.uniform(-3, 3, 500).astype(np.float16)
    y = k(simt.asarray(x)).get()
    ref = (np.exp(x.astype(np.float32)).astype(np.float16).astype(np.float32) + np.float32(1.5)).astype(np.float16)
    # (exp in float may differ from NumPy's by an ulp of float, so by at most one ulp of half)
    assert np.max(np.abs(y.astype(np.float32) - ref.astype(np.float32)) / np.spacing(ref).astype(np.float32)) <= 1


def test_float16_mixed_with_float32_and_isnan(rng):
    k = simt.ElementwiseKernel("float16 x, float32 s", "float32 y, bool nan", "y = x * s; nan = isnan(x)", "hmix")
    x = rng.normal(size=300).astype(np.float16)
    x[::7] = np.nan
    s = np.float32(rng.normal())
    y, nan = k(simt.asarray(x), s)
    np.testing.assert_array_equal(nan.get(), np.isnan(x))
    np.testing.assert_array_equal(y.get(), x.astype(np.float32) * s)


def test_float16_reduction(rng):
    r = simt.ReductionKernel("float16 x", "float32 y", "x", "a + b", "y = a", "0", "hsum", reduce_type=np.float32)
    x = rng.normal(size=(5, 333)).astype(np.float16)
    np.testing.assert_allclose(r(simt.asarray(x), axis=1).get(), x.astype(np.float32).sum(axis=1), rtol=1e-5)
    rh = simt.ReductionKernel("T x", "T y", "x", "max(a, b)", "y = a", "-65504", "hmax")
    np.testing.assert_array_equal(rh(simt.asarray(x), axis=1).get(), x.max(axis=1))


def test_complex_and_float16_errors(rng):
    k = simt.ElementwiseKernel("complex128 x", "complex128 y", "y = x", "ccopy")
    with pytest.raises(TypeError, match="argument 'x' is a NumPy \\(host\\) array"):
        k(random_complex(rng, 4, np.complex128))
    k2 = simt.ElementwiseKernel("T x, T y", "T z", "z = x + y", "cadd")
    with pytest.raises(TypeError, match="type T is complex64 from an earlier argument, but 'y' is complex128"):
        k2(simt.asarray(random_complex(rng, 4, np.complex64)), simt.asarray(random_complex(rng, 4, np.complex128)))
    bad = simt.ElementwiseKernel("complex64 x", "float32 y", "y = x", "narrowing")  # no complex -> float in C++
    with pytest.raises(simt.cuda.CompilerError, match="narrowing|complex"):
        bad(simt.asarray(random_complex(rng, 4, np.complex64)))
