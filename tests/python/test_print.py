"""print() inside kernels: numba's formatting (%lld/%llu for integers, %f for floats, strings as
they are, space-separated, one line per call), written on the host by the next synchronize."""
import numpy as np
import pytest

import simt
from simt import cuda


def test_print_formats_like_numba(capfd, rng):
    @cuda.jit
    def show(x, u, f, h):
        i = cuda.grid(1)
        if i < 3:
            print("item", i, x[i], u[i], f[i], h[i], x[i] > 0)

    x = rng.integers(-10**12, 10**12, 3)
    u = np.array([2**64 - 1, 7, 0], dtype=np.uint64)
    f = rng.standard_normal(3).astype(np.float32)
    h = np.array([0.5, -2.25, 1e-3], dtype=np.float16)
    show[1, 32](*(simt.asarray(v) for v in (x, u, f, h)))
    simt.synchronize()
    lines = [line for line in capfd.readouterr().out.splitlines() if line.startswith("item")]
    expected = [f"item {i} {x[i]} {u[i]} {float(f[i]):f} {float(h[i]):f} {x[i] > 0}" for i in range(3)]
    assert sorted(lines) == sorted(expected)


def test_print_order_within_one_thread_and_empty_print(capfd):
    @cuda.jit
    def k():
        print("first")
        print()
        print("100%", 1.5, "done")

    k[1, 1]()
    simt.synchronize()
    assert capfd.readouterr().out == "first\n\n100% 1.500000 done\n"


def test_print_from_fiber_kernels(capfd):
    @cuda.jit
    def k():
        t = cuda.threadIdx.x
        cuda.syncthreads()
        v = cuda.shfl_down_sync(0xFFFFFFFF, t, 1)
        if t < 2:
            print("lane", t, "got", v)

    k[1, 32]()
    simt.synchronize()
    assert sorted(capfd.readouterr().out.splitlines()) == ["lane 0 got 1", "lane 1 got 2"]


def test_print_rejects_what_it_cannot_format():
    @cuda.jit
    def arr(a):
        print(a)

    with pytest.raises(cuda.TypingError, match="prints integers, floats, booleans and string constants"):
        arr[1, 1](simt.zeros(2))

    @cuda.jit
    def kw():
        print(1, end="")

    with pytest.raises(cuda.TypingError, match="no keyword arguments"):
        kw[1, 1]()
