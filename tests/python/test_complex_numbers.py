"""complex64 and complex128 in kernels against NumPy/Python on fresh random data: arithmetic
(including ** and division), comparisons, abs, .real/.imag/.conjugate(), complex(), mixing with
real numbers, complex arrays and complex scalar arguments, device functions returning complex."""
import numpy as np
import pytest

import simt
from kernel_text import typing_error
from simt import cuda

N = 600


def launch(kernel, n, *args):
    kernel[(n + 127) // 128, 128](*args)


def random_complex(rng, n, dtype=np.complex128, scale=3.0):
    return (rng.uniform(-scale, scale, n) + 1j * rng.uniform(-scale, scale, n)).astype(dtype)


def assert_close(got, expected, dtype):
    rtol = 1e-14 if np.dtype(dtype) == np.complex128 else 2e-6
    np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_arithmetic(rng, dtype):
    @cuda.jit
    def k(A, B, ADD, SUB, MUL, DIV, NEG):
        i = cuda.grid(1)
        if i < A.size:
            ADD[i] = A[i] + B[i]
            SUB[i] = A[i] - B[i]
            MUL[i] = A[i] * B[i]
            DIV[i] = A[i] / B[i]
            NEG[i] = -A[i] + +B[i]

    a, b = random_complex(rng, N, dtype), random_complex(rng, N, dtype)
    outs = [simt.zeros(N, dtype=dtype) for _ in range(5)]
    launch(k, N, simt.asarray(a), simt.asarray(b), *outs)
    for out, expected in zip(outs, (a + b, a - b, a * b, a / b, -a + b)):
        assert out.dtype == dtype
        assert_close(out.get(), expected, dtype)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_powers(rng, dtype):
    @cuda.jit
    def k(A, B, E, INT, REAL, CPLX, SQ):
        i = cuda.grid(1)
        if i < A.size:
            INT[i] = A[i] ** E[i]
            REAL[i] = A[i] ** 0.5
            CPLX[i] = A[i] ** B[i]
            SQ[i] = A[i] ** 2

    a, b = random_complex(rng, N, dtype), random_complex(rng, N, dtype, scale=1.5)
    e = rng.integers(-6, 7, N)
    outs = [simt.zeros(N, dtype=np.complex128) for _ in range(4)]
    launch(k, N, simt.asarray(a), simt.asarray(b), simt.asarray(e), *outs)
    a128, b128 = a.astype(np.complex128), b.astype(np.complex128)
    # complex ** int64 is complex128 (numba promotes int64 with complex64 to complex128)
    assert_close(outs[0].get(), np.array([complex(x) ** int(n) for x, n in zip(a128, e)]), np.complex128)
    assert_close(outs[1].get(), a128 ** 0.5, np.complex128)
    assert_close(outs[2].get(), np.array([complex(x) ** complex(y) for x, y in zip(a.tolist(), b.tolist())]), dtype)
    assert_close(outs[3].get(), a.astype(np.complex128) ** 2, dtype)


def test_comparisons_abs_parts_and_conjugate(rng):
    @cuda.jit
    def k(A, B, EQ, NE, ABS, RE, IM, CONJ, TRUTHY):
        i = cuda.grid(1)
        if i < A.size:
            EQ[i] = A[i] == B[i]
            NE[i] = A[i] != B[i]
            ABS[i] = abs(A[i])
            RE[i] = A[i].real
            IM[i] = A[i].imag
            CONJ[i] = A[i].conjugate()
            TRUTHY[i] = 1 if A[i] else 0

    a = random_complex(rng, N)
    b = np.where(rng.random(N) < 0.5, a, random_complex(rng, N))
    a[:5] = [0, 1j, -0.0, 2, complex(0, -0.0)]
    eq, ne = simt.zeros(N, dtype=np.bool_), simt.zeros(N, dtype=np.bool_)
    ab, re, im = simt.zeros(N), simt.zeros(N), simt.zeros(N)
    conj, truthy = simt.zeros(N, dtype=np.complex128), simt.zeros(N, dtype=np.int64)
    launch(k, N, simt.asarray(a), simt.asarray(b), eq, ne, ab, re, im, conj, truthy)
    np.testing.assert_array_equal(eq.get(), a == b)
    np.testing.assert_array_equal(ne.get(), a != b)
    np.testing.assert_allclose(ab.get(), np.abs(a), rtol=1e-15)
    np.testing.assert_array_equal(re.get(), a.real)
    np.testing.assert_array_equal(im.get(), a.imag)
    np.testing.assert_array_equal(conj.get(), np.conj(a))
    np.testing.assert_array_equal(truthy.get(), (a != 0).astype(np.int64))


def test_mixing_with_real_numbers_and_constructors(rng):
    @cuda.jit
    def k(X, I, Z32, OUT, OUT32, C, CZ):
        i = cuda.grid(1)
        if i < X.size:
            OUT[i] = X[i] * 1j + I[i] - Z32[i] / 2 + (X[i] == Z32[i])
            OUT32[i] = Z32[i] * np.float32(2) + X[i].conjugate() * 0
            C[i] = complex(X[i], I[i])
            CZ[i] = complex(Z32[i]) + complex() + complex(I[i])

    x = rng.uniform(-5, 5, N)
    ints = rng.integers(-100, 100, N)
    z32 = random_complex(rng, N, np.complex64)
    out, out32 = simt.zeros(N, dtype=np.complex128), simt.zeros(N, dtype=np.complex64)
    c, cz = simt.zeros(N, dtype=np.complex128), simt.zeros(N, dtype=np.complex128)
    launch(k, N, simt.asarray(x), simt.asarray(ints), simt.asarray(z32), out, out32, c, cz)
    z = z32.astype(np.complex128)
    assert_close(out.get(), x * 1j + ints - z / 2 + (x == z), np.complex128)
    assert_close(out32.get(), z32 * np.float32(2), np.complex64)
    np.testing.assert_array_equal(c.get(), x + 1j * ints)
    np.testing.assert_array_equal(cz.get(), z + ints)


@pytest.mark.parametrize("dtype", [np.complex128, np.complex64])
def test_complex_scalar_arguments_and_device_functions(rng, dtype):
    @cuda.jit(device=True)
    def rotate(z, w):
        return z * w, (z * w).conjugate()

    @cuda.jit
    def k(A, w, OUT, CONJ):
        i = cuda.grid(1)
        if i < A.size:
            r, c = rotate(A[i], w)
            OUT[i] = r
            CONJ[i] = c

    a = random_complex(rng, N, dtype)
    w = dtype(complex(rng.uniform(-1, 1), rng.uniform(-1, 1)))
    out, conj = simt.zeros(N, dtype=dtype), simt.zeros(N, dtype=dtype)
    launch(k, N, simt.asarray(a), w, out, conj)  # a NumPy complex scalar keeps its dtype
    assert_close(out.get(), a * w, dtype)
    assert_close(conj.get(), np.conj(a * w), dtype)
    launch(k, N, simt.asarray(a), complex(w), out, conj)  # a Python complex is complex128
    assert_close(out.get(), (a.astype(np.complex128) * complex(w)).astype(dtype), dtype)


def test_accumulating_into_complex_arrays(rng):
    @cuda.jit
    def k(A, ACC):
        i = cuda.grid(1)
        if i < A.size:
            ACC[i] += A[i] * A[i]
            ACC[i] *= 1 + 1j

    a = random_complex(rng, N, np.complex64)
    acc0 = random_complex(rng, N, np.complex64)
    acc = simt.asarray(acc0)
    launch(k, N, simt.asarray(a), acc)
    assert_close(acc.get(), ((acc0 + a * a) * (1 + 1j)).astype(np.complex64), np.complex64)


@pytest.mark.parametrize("source,message", [
    ("z < w", "complex numbers cannot be ordered with <"),
    ("z // w", "unsupported operand types for //: complex128 and complex128"),
    ("int(z)", "cannot convert complex to int"),
    ("np.float32(z)", "cannot convert complex to float32 (use .real)"),
    ("max(z, w)", "max() needs real numbers, not complex128"),
    ("complex(z, 1.0)", "complex() needs real numbers (or one complex number), not complex128"),
])
def test_errors(tmp_path, source, message):
    text = typing_error(tmp_path, f"def k(A, z, w):\n    A[0] = {source}\n", simt.zeros(1, dtype=np.complex128), 1j, 2j)
    assert message in text, text
