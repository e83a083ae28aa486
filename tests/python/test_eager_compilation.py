"""Eager compilation from numba signature strings: compiled at decoration; launches whose types
match no declared signature exactly convert to the best-fitting one (never compiling another)
or raise a clear TypeError; device functions with signatures convert arguments and enforce
their declared return type."""
import numpy as np
import pytest

import simt
from kernel_text import load_function, typing_error
from simt import _simt, cuda

N = 300


def counters_total():
    c = _simt.compile_counters()
    return c["compiled"] + c["disk_hits"] + c["memory_hits"]


def test_compiled_at_decoration_and_launched_with_conversions(rng):
    before = counters_total()

    @cuda.jit("void(float32[:], float32[::1], int32, float64)")
    def axpy(x, y, n, a):
        i = cuda.grid(1)
        if i < n:
            y[i] = y[i] + a * x[i]

    assert counters_total() == before + 1  # the specialization was built (or loaded) at decoration
    assert axpy.signatures == [("array(float32, 1d, A)", "array(float32, 1d, C)", "int32", "float64")]
    assert "void" in next(iter(axpy.inspect_source().values()))

    x = rng.standard_normal(N).astype(np.float32)
    y0 = rng.standard_normal(N).astype(np.float32)
    y = simt.asarray(y0)
    # a C-contiguous array where any layout is declared; a Python int for int32; an int for float64
    axpy[(N + 63) // 64, 64](simt.asarray(x), y, N, 3)
    np.testing.assert_allclose(y.get(), y0 + 3 * x, rtol=1e-6, atol=1e-6)
    # np.int64 and a float for the int32 (truncated toward zero, as numba converts)
    axpy[(N + 63) // 64, 64](simt.asarray(x), y, np.int64(N // 2), 2.0)
    axpy[1, 64](simt.asarray(x), y, 7.9, np.float32(0))
    expected = y0 + 3 * x
    expected[: N // 2] += 2 * x[: N // 2]
    np.testing.assert_allclose(y.get(), expected, rtol=1e-6, atol=1e-6)
    assert len(axpy.signatures) == 1  # nothing compiled on demand


def test_unmatched_types_raise_without_compiling():
    @cuda.jit("void(float32[:], int64)")
    def k(x, n):
        x[0] = n

    with pytest.raises(TypeError) as info:
        k[1, 1](simt.zeros(4), 1)  # float64 array
    text = str(info.value)
    assert "No matching definition for argument type(s) array(float64, 1d, C), int64" in text
    assert "void(array(float32, 1d, A), int64)" in text
    with pytest.raises(TypeError, match="No matching definition"):
        k[1, 1](simt.zeros(4, dtype=np.float32), 1j)  # complex does not convert to int64
    with pytest.raises(TypeError, match="No matching definition"):
        k[1, 1](simt.zeros((2, 2), dtype=np.float32), 1)  # wrong dimension
    assert len(k.signatures) == 1


def test_several_signatures_pick_the_exact_or_best_one(rng):
    @cuda.jit(["void(float32[::1], float32)", "void(float64[::1], float64)", "void(int64[::1], int64)"])
    def scale(x, a):
        i = cuda.grid(1)
        if i < x.size:
            x[i] = x[i] * a

    assert len(scale.signatures) == 3
    for dtype, factor in ((np.float32, 1.5), (np.float64, -2.25), (np.int64, 3)):
        host = (rng.standard_normal(N) * 100).astype(dtype)
        dev = simt.asarray(host)
        scale[(N + 127) // 128, 128](dev, factor)
        np.testing.assert_allclose(dev.get(), host * dtype(factor), rtol=1e-6)
    # an int32 array matches nothing: arrays never change dtype
    with pytest.raises(TypeError, match="array\\(int32, 1d, C\\), int64"):
        scale[1, 32](simt.zeros(4, dtype=np.int32), 2)
    assert len(scale.signatures) == 3


def test_layouts_any_versus_c_contiguous(rng):
    @cuda.jit("void(float64[:, :], float64[:, :])")
    def copy_any(src, dst):
        i, j = cuda.grid(2)
        if i < src.shape[0] and j < src.shape[1]:
            dst[i, j] = src[i, j]

    @cuda.jit("void(float64[:, ::1])")
    def c_only(a):
        a[0, 0] = 1.0

    host = rng.standard_normal((20, 30))
    fortran = simt.empty((20, 30), np.float64, "F")
    out = simt.zeros((20, 30))
    copy_any[(3, 4), (8, 8)](simt.asarray(host), out)
    np.testing.assert_array_equal(out.get(), host)
    copy_any[(3, 4), (8, 8)](out, fortran)  # an F-ordered array is fine where any layout is declared
    copy_any[(3, 4), (8, 8)](fortran, out)
    np.testing.assert_array_equal(out.get(), host)
    with pytest.raises(TypeError, match="array\\(float64, 2d, A\\)"):
        c_only[1, 1](fortran)


@pytest.mark.parametrize("sig,error,message", [
    ("void(float33[:])", TypeError, "unknown type 'float33'"),
    ("void(float32[:)", TypeError, "invalid signature 'void(float32[:)'"),
    ("void(float32[:], int64", TypeError, "expected ')'"),
    ("float32(float32[:])", TypeError, "kernels return nothing"),
    ("void(float32[:], float32[:])", TypeError, "takes 1 argument but 2 were given"),
])
def test_bad_signatures_fail_at_decoration(sig, error, message):
    def k(x):
        x[0] = 1

    with pytest.raises(error) as info:
        cuda.jit(sig)(k)
    assert message in str(info.value), str(info.value)


def test_signature_must_be_a_string():
    with pytest.raises(TypeError, match="must be a string such as"):
        cuda.jit([("float32",)])
    with pytest.raises(TypeError, match="empty list of signatures"):
        cuda.jit([])


def test_device_function_signatures_convert_and_enforce_the_return_type(rng):
    @cuda.jit("int32(float64, float64)", device=True)
    def scaled(a, b):
        return a * b  # float64, returned as int32 (truncated)

    @cuda.jit(["float32(float32)", "float64(float64)"], device=True)
    def half(v):
        return v / 2

    @cuda.jit
    def k(X, Y, I, H32, H64):
        i = cuda.grid(1)
        if i < X.size:
            I[i] = scaled(X[i], 2)             # int converts to float64
            H32[i] = half(np.float32(Y[i]))    # float32 signature
            H64[i] = half(Y[i])                # float64 signature

    x = rng.uniform(-100, 100, N)
    y = rng.uniform(-100, 100, N)
    i, h32, h64 = simt.zeros(N, dtype=np.int64), simt.zeros(N), simt.zeros(N)
    k[(N + 127) // 128, 128](simt.asarray(x), simt.asarray(y), i, h32, h64)
    np.testing.assert_array_equal(i.get(), np.trunc(x * 2).astype(np.int32))
    np.testing.assert_array_equal(h32.get(), (y.astype(np.float32) / np.float32(2)).astype(np.float64))
    np.testing.assert_array_equal(h64.get(), y / 2)


def test_device_function_errors(tmp_path):
    # Checked at decoration: the body and the declared return type.
    with pytest.raises(cuda.TypingError, match="declared to return float32 but returns nothing"):
        cuda.jit("float32(float32)", device=True)(load_function(tmp_path, "def f(x):\n    y = x + 1\n", "f"))
    with pytest.raises(cuda.TypingError, match="declared to return float64 but returns a value of type complex128"):
        cuda.jit("float64(float64)", device=True)(load_function(tmp_path, "def f(x):\n    return x * 1j\n", "f"))
    with pytest.raises(cuda.TypingError, match="name 'undefined_name' is not defined"):
        cuda.jit("float64(float64)", device=True)(load_function(tmp_path, "def f(x):\n    return undefined_name\n", "f"))

    # A call whose arguments fit no declared signature fails when the kernel is compiled.
    text = ("@cuda.jit('float64(float64)', device=True)\ndef f(x):\n    return x\n\n"
            "def k(A):\n    A[0] = f(A)\n")
    error = typing_error(tmp_path, text, simt.zeros(2))
    assert "device function 'f' has no signature matching argument types (array(float64, 1d, C))" in error
    assert "declared: float64(float64)" in error
