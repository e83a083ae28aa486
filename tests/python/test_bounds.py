"""SPEC's bounds semantics: out-of-range accesses never touch memory (masked), negative indices
wrap once, and boundscheck=True turns an out-of-range access into IndexError on the host."""
import subprocess
import sys

import numpy as np
import pytest

import simt
from simt import cuda


def test_unguarded_kernel_does_not_write_past_the_end(rng):
    @cuda.jit
    def vecadd(A, B, C):
        i = cuda.grid(1)
        C[i] = A[i] + B[i]

    n = 1000
    # One allocation viewed through a smaller array would expose stray writes; instead check a
    # sentinel array allocated right after and the result itself.
    a, b = simt.asarray(rng.standard_normal(n)), simt.asarray(rng.standard_normal(n))
    c = simt.zeros(n)
    sentinel = simt.full(4096, 123.0)
    vecadd[(n + 1023) // 1024, 1024](a, b, c)
    np.testing.assert_array_equal(c.get(), a.get() + b.get())
    assert (sentinel.get() == 123.0).all()


def test_out_of_range_loads_give_zero():
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        out[i] = A[i + 5] + 1

    a = simt.asarray(np.arange(8.0))
    out = simt.zeros(8)
    k[1, 8](a, out)
    np.testing.assert_array_equal(out.get(), [6, 7, 8, 1, 1, 1, 1, 1])


def test_negative_indices_wrap_once():
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        out[i] = A[-1 - i] + A[-100]

    a = simt.asarray(np.arange(10.0))
    out = simt.zeros(10)
    k[1, 10](a, out)
    np.testing.assert_array_equal(out.get(), np.arange(10.0)[::-1])


def test_two_dimensional_masking():
    @cuda.jit
    def k(A):
        x, y = cuda.grid(2)
        A[y, x] = 1

    a = simt.zeros((5, 7))
    k[(2, 2), (8, 8)](a)
    np.testing.assert_array_equal(a.get(), np.ones((5, 7)))


def test_boundscheck_raises_index_error_at_synchronize():
    @cuda.jit(boundscheck=True)
    def k(A):
        i = cuda.grid(1)
        A[i] = 2.0

    a = simt.zeros(10)
    k[1, 16](a)
    with pytest.raises(IndexError) as info:
        cuda.synchronize()
    msg = str(info.value)
    assert "out of bounds for axis 0 with size 10" in msg
    assert "kernel 'k'" in msg and f"{__file__}:" in msg
    assert "shape (10,)" in msg
    np.testing.assert_array_equal(a.get(), np.full(10, 2.0))  # in-range writes happened


def test_boundscheck_from_environment(tmp_path):
    script = tmp_path / "oob.py"
    script.write_text(
        "import simt\nfrom simt import cuda\n"
        "@cuda.jit\ndef k(A):\n    A[cuda.grid(1)] = 1.0\n"
        "a = simt.zeros(3)\nk[1, 4](a)\n"
        "try:\n    cuda.synchronize()\nexcept IndexError as e:\n    print('IndexError:', e)\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                       env={**__import__("os").environ, "SIMT_BOUNDSCHECK": "1"})
    assert r.returncode == 0, r.stderr
    assert "IndexError: index 3 is out of bounds for axis 0 with size 3" in r.stdout
    assert "oob.py:5" in r.stdout


def test_boundscheck_false_is_raw_access_for_in_range_indices(rng):
    @cuda.jit(boundscheck=False)
    def k(A, B):
        i = cuda.grid(1)
        if i < A.size:
            B[i] = A[i] * 2

    a = simt.asarray(rng.standard_normal(100))
    b = simt.zeros(100)
    k[1, 128](a, b)
    np.testing.assert_array_equal(b.get(), a.get() * 2)


# Loop variables of range() carry their known range into element accesses (a test the compiler can
# hoist out of the loop); the semantics must stay exactly those of a per-access check.
def test_range_loop_indices_past_a_shared_array_are_masked(rng):
    @cuda.jit
    def k(A, out):
        s = cuda.shared.array(16, dtype=np.float64)
        t = cuda.threadIdx.x
        s[t] = A[t]
        cuda.syncthreads()
        if t == 0:
            acc = 0.0
            for j in range(20):  # 4 past the shared array: loads give 0
                acc += s[j] * (j + 1)
            out[0] = acc
        for j in range(3, 40, 2):  # stores past `out` are dropped
            out[j] = j

    a = rng.standard_normal(16)
    out = simt.zeros(24)
    k[1, 16](simt.asarray(a), out)
    expected = np.zeros(24)
    expected[0] = np.sum(a * np.arange(1, 17))
    expected[3:24:2] = np.arange(3, 24, 2)
    np.testing.assert_allclose(out.get(), expected, rtol=1e-12)


def test_range_loop_indices_within_the_extent_read_every_element(rng):
    @cuda.jit
    def k(A, out):
        i = cuda.grid(1)
        if i < out.size:
            acc = 0.0
            for j in range(A.shape[1]):
                acc += A[i, j]
            for j in range(1, A.shape[1]):  # nonzero start
                acc -= 0.5 * A[i, j]
            out[i] = acc

    a = rng.standard_normal((37, 23))
    out = simt.zeros(37)
    k[1, 64](simt.asarray(a), out)
    np.testing.assert_allclose(out.get(), a.sum(axis=1) - 0.5 * a[:, 1:].sum(axis=1), rtol=1e-12,
                               atol=1e-13)  # sums that cancel: NumPy adds pairwise


def test_reassigned_and_negative_range_variables_keep_full_checks():
    @cuda.jit
    def k(A, out):
        for j in range(4):
            j = j * 3  # the body rebinds j: no range is assumed
            out[j] = A[j] + 1
        for j in range(-3, 0):  # negative indices wrap once
            out[j + 8] = A[j]

    a = np.arange(8.0)
    out = simt.zeros(8)
    k[1, 1](simt.asarray(a), out)
    np.testing.assert_array_equal(out.get(), [1, 0, 0, 4, 0, 5, 6, 7])


def test_boundscheck_reports_a_range_loop_index_past_the_extent():
    @cuda.jit(boundscheck=True)
    def k(A):
        for j in range(A.size + 2):
            A[j] = 1.0

    a = simt.zeros(5)
    k[1, 1](a)
    with pytest.raises(IndexError) as info:
        cuda.synchronize()
    assert "index 5 is out of bounds for axis 0 with size 5" in str(info.value)
    np.testing.assert_array_equal(a.get(), np.ones(5))
