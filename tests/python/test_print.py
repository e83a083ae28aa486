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


PIPE_SCRIPT = r'''
import os, sys, threading
import simt
from simt import cuda

@cuda.jit
def chatty(flag, out):
    t = cuda.threadIdx.x
    if flag == 1:
        for r in range(4):
            print("thread", t, "round", r, "of a long line of kernel output")
    out[t] = t

read_end, write_end = os.pipe()
saved = os.dup(1)
os.dup2(write_end, 1)       # stdout is a pipe that a Python thread drains, as in Jupyter
got = []
def drain():
    while True:
        chunk = os.read(read_end, 1024)   # small reads: each needs the GIL to go on
        if not chunk:
            return
        got.append(chunk)
reader = threading.Thread(target=drain)
reader.start()
out = simt.zeros(1024)
for _ in range(20):         # short launches: the cpu backend learns to run this kernel inline
    chatty[1, 1024](0, out)
simt.synchronize()
chatty[1, 1024](1, out)     # about 220 KiB of output, several times what the pipe holds
simt.synchronize()
os.dup2(saved, 1)
os.close(write_end)
reader.join()
lines = b"".join(got).decode().splitlines()
print(len(lines), sum(line.startswith("thread ") for line in lines))
'''


def test_printing_kernel_into_a_pipe_a_python_thread_drains_finishes(tmp_path):
    import subprocess
    import sys

    script = tmp_path / "chatty.py"
    script.write_text(PIPE_SCRIPT)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4096", "4096"]
