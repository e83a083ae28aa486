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
