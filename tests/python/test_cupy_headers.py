"""simt's own <cupy/complex.cuh>, <cupy/float16.cuh> and <cupy/carray.cuh> in raw CUDA C++
(simt.RawKernel / RawModule): kernels written for CuPy that include them compile on both
backends (NVRTC; the host compiler over the raw prelude) and agree with NumPy."""
import numpy as np
import pytest

import simt

TOL = {np.complex64: dict(rtol=2e-5, atol=2e-5), np.complex128: dict(rtol=1e-12, atol=1e-12)}

COMPLEX_MATH = r'''
#include <cupy/complex.cuh>
template <class T>
__device__ void body(const complex<T>* x, const complex<T>* y, complex<T>* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    complex<T> a = x[i], b = y[i];
    out[0 * n + i] = a * b - conj(a) / b;
    out[1 * n + i] = exp(a) + log(b);
    out[2 * n + i] = sqrt(a) * T(2) + sin(b) - cos(a);
    out[3 * n + i] = tan(a) + sinh(b) - cosh(a) + tanh(b);
    out[4 * n + i] = asin(a) + acos(b) + atan(a);
    out[5 * n + i] = asinh(a) + acosh(b) + atanh(a);
    out[6 * n + i] = pow(a, b) + pow(a, 3) + log10(b);
    out[7 * n + i] = complex<T>(abs(a), arg(b)) + norm(a) + polar(abs(b), arg(a));
    complex<T> c = a;
    c += b; c *= T(0.5); c -= complex<T>(1, 2); c /= b;
    out[8 * n + i] = c;
}
extern "C" __global__ void cmath64(const complex<float>* x, const complex<float>* y, complex<float>* out, int n) {
    body(x, y, out, n);
}
extern "C" __global__ void cmath128(const complex<double>* x, const complex<double>* y, complex<double>* out, int n) {
    body(x, y, out, n);
}
'''


def random_complex(rng, n, dtype):
    return (rng.normal(size=n) + 1j * rng.normal(size=n)).astype(dtype)


def reference(a, b):
    dtype = a.dtype.type
    c = (((a + b) * dtype(0.5)) - dtype(1 + 2j)) / b
    return [a * b - np.conj(a) / b, np.exp(a) + np.log(b), np.sqrt(a) * 2 + np.sin(b) - np.cos(a),
            np.tan(a) + np.sinh(b) - np.cosh(a) + np.tanh(b), np.arcsin(a) + np.arccos(b) + np.arctan(a),
            np.arcsinh(a) + np.arccosh(b) + np.arctanh(a), a ** b + a ** 3 + np.log10(b),
            (np.abs(a) + 1j * np.angle(b)) + np.abs(a) ** 2 + np.abs(b) * np.exp(1j * np.angle(a)), c]


@pytest.mark.parametrize("dtype,name", [(np.complex64, "cmath64"), (np.complex128, "cmath128")])
def test_complex_header_math_against_numpy(rng, dtype, name):
    n = 700
    x, y = random_complex(rng, n, dtype), random_complex(rng, n, dtype)
    out = simt.zeros(9 * n, dtype)
    kernel = simt.RawKernel(COMPLEX_MATH, name)
    kernel(((n + 127) // 128,), (128,), (simt.asarray(x), simt.asarray(y), out, np.int32(n)))
    got = out.get().reshape(9, n)
    with np.errstate(all="ignore"):
        ref = reference(x, y)
    for row, expected in enumerate(ref):
        scale = 50 if row in (4, 5, 6) else 1  # (inverse functions and powers: a few more ulps)
        np.testing.assert_allclose(got[row], expected.astype(dtype), rtol=scale * TOL[dtype]["rtol"],
                                   atol=scale * TOL[dtype]["atol"], err_msg=f"row {row}")


def test_complex_header_thrust_spelling_mixed_precision_and_scalars(rng):
    code = r'''
    #include <cupy/complex.cuh>
    extern "C" __global__ void mixed(const thrust::complex<float>* x, double s, complex<double> w,
                                     complex<double>* out, bool* flags, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        complex<double> wide = x[i];          // float -> double
        out[i] = x[i] * s + w * 2 - 1.0;      // complex<float> * double is complex<double>
        flags[3 * i] = (x[i] == x[i]) && !(x[i] != x[i]);
        flags[3 * i + 1] = isnan(wide * complex<double>(0.0 / 0.0, 0));
        flags[3 * i + 2] = isfinite(wide) && !isinf(wide);
    }
    '''
    n = 300
    x = random_complex(rng, n, np.complex64)
    s, w = float(rng.normal()), complex(rng.normal(), rng.normal())
    out, flags = simt.empty(n, np.complex128), simt.zeros(3 * n, np.bool_)
    simt.RawKernel(code, "mixed")((3,), (128,), (simt.asarray(x), s, w, out, flags, np.int32(n)))
    np.testing.assert_allclose(out.get(), x.astype(np.complex128) * s + w * 2 - 1.0, rtol=1e-13)
    assert flags.get().all()


def test_complex_min_max_and_extras(rng):
    code = r'''
    #include <cupy/complex.cuh>
    extern "C" __global__ void extras(const complex<double>* x, const complex<double>* y, complex<double>* out, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        out[i] = min(x[i], y[i]);
        out[n + i] = max(x[i], y[i]);
        out[2 * n + i] = log1p(x[i]) + expm1(y[i]) + log2(x[i]);
        out[3 * n + i] = rint(x[i] * 3.0) + proj(y[i]);
    }
    '''
    n = 256
    x, y = random_complex(rng, n, np.complex128), random_complex(rng, n, np.complex128)
    y[::5] = x[::5].real + 1j * rng.normal(size=len(y[::5]))  # equal real parts: ordered by imaginary part
    out = simt.empty(4 * n, np.complex128)
    simt.RawKernel(code, "extras")((2,), (128,), (simt.asarray(x), simt.asarray(y), out, np.int32(n)))
    got = out.get().reshape(4, n)
    np.testing.assert_array_equal(got[0], np.minimum(x, y))
    np.testing.assert_array_equal(got[1], np.maximum(x, y))
    np.testing.assert_allclose(got[2], np.log1p(x) + np.expm1(y) + np.log2(x), rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(got[3], np.round(x * 3.0) + y)


def test_float16_and_carray_headers(rng):
    code = r'''
    #include <cupy/carray.cuh>
    extern "C" __global__ void half_ops(const float16* x, const float16* y, float16* out, float* wide, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= n) return;
        float16 a = x[i], b = y[i];
        out[i] = a * b + a;                 // computed in float, rounded once
        out[n + i] = max(a, b);
        out[2 * n + i] = copysign(a, b);
        float16 c = a;
        c += 1;
        out[3 * n + i] = c;
        half h = __float2half(float(a));    // cuda_fp16's names
        wide[i] = __half2float(h) + abs(complex<float>(a, b));
    }
    '''
    n = 500
    x, y = rng.normal(size=n).astype(np.float16), rng.normal(size=n).astype(np.float16)
    out, wide = simt.empty(4 * n, np.float16), simt.empty(n, np.float32)
    simt.RawKernel(code, "half_ops")((4,), (128,), (simt.asarray(x), simt.asarray(y), out, wide, np.int32(n)))
    got = out.get().reshape(4, n)
    xf, yf = x.astype(np.float32), y.astype(np.float32)
    np.testing.assert_array_equal(got[0], (xf * yf + xf).astype(np.float16))
    np.testing.assert_array_equal(got[1], np.maximum(x, y))
    np.testing.assert_array_equal(got[2], np.copysign(x, y))
    np.testing.assert_array_equal(got[3], (xf + 1).astype(np.float16))
    np.testing.assert_allclose(wide.get(), xf + np.abs(xf + 1j * yf), rtol=1e-6, atol=1e-6)


def test_complex_header_in_raw_module_templates(rng):
    code = r'''
    #include <cupy/complex.cuh>
    template <class T> __global__ void scale(complex<T>* z, T s, int n) {
        int i = blockIdx.x * blockDim.x + threadIdx.x;
        if (i < n) z[i] = z[i] * s + complex<T>(0, 1);
    }
    '''
    module = simt.RawModule(code=code, name_expressions=("scale<float>", "scale<double>"))
    for dtype, real, name in ((np.complex64, np.float32, "scale<float>"), (np.complex128, np.float64, "scale<double>")):
        z = random_complex(rng, 100, dtype)
        d = simt.asarray(z)
        s = real(rng.normal())
        module.get_function(name)((1,), (128,), (d, s, np.int32(100)))
        np.testing.assert_allclose(d.get(), z * s + 1j, **TOL[dtype])


def test_header_errors():
    bad = simt.RawKernel('#include <cupy/complex.cuh>\nextern "C" __global__ void k(complex<float>* z) '
                         '{ z[0] = complex<float>(1, 2) < complex<float>(3, 4); }', "k")
    with pytest.raises(simt.cuda.CompilerError):  # complex numbers have no order in C++ (nor in CuPy's header)
        bad.compile()
    missing = simt.RawKernel('#include <cupy/no_such_header.cuh>\nextern "C" __global__ void k() {}', "k")
    with pytest.raises(simt.cuda.CompilerError, match="no_such_header"):
        missing.compile()
