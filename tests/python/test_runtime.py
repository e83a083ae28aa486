"""Devices, synchronization, streams, events, backend selection and the kernel cache."""
import os
import platform
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

import simt
from simt import cuda
from test_cuda_backend import spin


def test_backend_is_reported():
    assert simt.backend() in ("cpu", "cuda")
    assert cuda.is_available() == (simt.backend() == "cuda")


def test_device_properties_and_context_manager():
    d = cuda.Device()
    assert d.id == 0
    assert len(d.compute_capability) == 2
    assert isinstance(d.name, str) and d.name
    assert d.attributes["max_threads_per_block"] == 1024
    with cuda.Device(0) as dev:
        dev.synchronize()
    assert len(cuda.gpus) >= 1
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_INVALID_DEVICE"):
        cuda.Device(99)


def test_launch_is_asynchronous_and_synchronize_waits(rng):
    @cuda.jit
    def slow(A, reps):
        i = cuda.grid(1)
        if i < A.size:
            v = A[i]
            for _ in range(reps):
                v = v * 1.0000001 + 1e-9
            A[i] = v

    a = simt.asarray(np.ones(1 << 16))
    slow[(a.size + 255) // 256, 256](a, 1)  # compile first
    cuda.synchronize()
    start, end = cuda.event(), cuda.event()
    start.record()
    slow[(a.size + 255) // 256, 256](a, 2000)
    end.record()
    simt.synchronize()
    assert end.query()
    assert start.elapsed_time(end) > 0


@pytest.mark.skipif(simt.backend() != "cpu", reason="the cpu backend's executor; a GPU always queues")
def test_short_work_runs_at_once_on_the_cpu_backend_and_keeps_its_meaning():
    @cuda.jit(boundscheck=True)
    def bump(A, i):
        A[i] += 1.0

    a = simt.asarray(np.ones(1 << 16))
    bump[1, 1](a, 0)   # the first launch is queued and timed
    cuda.synchronize()
    bump[1, 1](a, 1)   # known to be short and the queue idle: done when the launch returns
    assert cuda.default_stream().query()
    s = cuda.stream()
    bump[1, 1, s](a, 2)
    assert s.query()
    s.synchronize()

    bump[1, 1](a, a.size)  # out of range: reported at the next synchronization, not by the launch
    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 65536"):
        cuda.synchronize()

    # Behind long queued work a short launch waits its turn.
    n = 3000
    spin[(a.size + 255) // 256, 256](a, 1)
    cuda.synchronize()
    spin[(a.size + 255) // 256, 256](a, n)
    bump[1, 1](a, 0)
    expected = 2.0
    for _ in range(1 + n):
        expected = expected * 0.999999 + 1e-7
    expected += 1.0
    np.testing.assert_allclose(a.get()[0], expected, rtol=1e-12)

    f = simt.full(1000, 2.5)  # small fills, copies and random numbers run at once too
    h = np.random.rand(1000)
    c = simt.asarray(h).copy()
    np.testing.assert_array_equal(f.get(), np.full(1000, 2.5))
    np.testing.assert_array_equal(c.get(), h)
    simt.random.seed(7)
    small = simt.random.random(100).get()   # at once
    simt.random.seed(7)
    big = simt.random.random(1 << 20).get()  # 8 MiB: queued, in parallel chunks
    np.testing.assert_array_equal(small, big[:100])


@pytest.mark.skipif(simt.backend() != "cpu", reason="the cpu backend's executor; a GPU always queues")
def test_a_kernel_that_ran_far_longer_than_measured_twice_is_queued_from_then_on():
    @cuda.jit
    def loop(A, n):
        v = A[0]
        for _ in range(n):
            v = v * 0.9999999 + 1e-9
        A[0] = v

    a = simt.ones(1)
    n = 20_000_000
    long_runs = []
    for _ in range(2):
        loop[1, 1](a, 1)    # measured short (again): the next launch runs at once
        cuda.synchronize()
        t0 = time.perf_counter()
        loop[1, 1](a, n)    # misjudged: runs on this thread, far longer than the limit
        cuda.synchronize()
        long_runs.append(time.perf_counter() - t0)
    loop[1, 1](a, 1)        # measured short once more, but two overruns have been seen
    cuda.synchronize()
    t0 = time.perf_counter()
    loop[1, 1](a, n)        # queued: the launch returns at once
    launch = time.perf_counter() - t0
    cuda.synchronize()
    assert min(long_runs) > 2e-3, long_runs
    assert launch < min(long_runs) / 4, (launch, long_runs)


@pytest.mark.skipif(simt.backend() != "cpu", reason="the cpu backend's executor; a GPU always queues")
def test_kernels_with_big_local_arrays_never_run_on_a_small_caller_stack(tmp_path):
    script = tmp_path / "small_stack.py"
    script.write_text(textwrap.dedent("""
        import threading
        import numpy as np
        import simt
        from simt import cuda

        @cuda.jit
        def k(A):
            scratch = cuda.local.array(60000, np.float64)   # 480 KB per thread, quick to run
            j = int(A[1])
            scratch[j] = 7.0
            scratch[0] = 1.0
            A[0] = scratch[j] + scratch[0]

        a = simt.asarray(np.array([0.0, 59999.0]))
        k[1, 1](a); k[1, 1](a)
        cuda.synchronize()
        threading.stack_size(256 << 10)
        t = threading.Thread(target=lambda: (k[1, 1](a), cuda.synchronize()))
        t.start(); t.join()
        print(a.get()[0])
    """))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["8.0"]


@pytest.mark.skipif(simt.backend() != "cpu" or platform.machine() not in ("x86_64", "AMD64"),
                    reason="sets the x86 MXCSR flush-to-zero bits on the calling thread")
def test_kernels_run_on_the_caller_keep_subnormal_numbers(tmp_path):
    cxx = os.environ.get("CXX", "c++").split()
    lib = tmp_path / "libftz.so"
    (tmp_path / "ftz.c").write_text("#include <xmmintrin.h>\nvoid set_ftz(void) { _mm_setcsr(_mm_getcsr() | 0x8040); }\n")
    built = subprocess.run(cxx + ["-x", "c", "-shared", "-fPIC", str(tmp_path / "ftz.c"), "-o", str(lib)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    script = tmp_path / "ftz.py"
    script.write_text(textwrap.dedent(f"""
        import ctypes
        import numpy as np
        import simt
        from simt import cuda

        @cuda.jit
        def half(A):
            A[0] = A[0] * 0.5

        a = simt.asarray(np.array([1e-300]))
        half[1, 1](a); half[1, 1](a)           # measured short
        cuda.synchronize()
        ctypes.CDLL({str(lib)!r}).set_ftz()    # as a -ffast-math library would
        b = simt.asarray(np.array([1e-310]))
        half[1, 1](b)                          # runs on this thread
        print(b.get().view(np.uint64)[0] == np.array([5e-311]).view(np.uint64)[0], np.float64(1e-310) * 0.5 == 0.0)
    """))
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.split() == ["True", "True"]  # the kernel kept 5e-311; the host itself flushes now


def test_streams_order_work_and_synchronize(rng):
    @cuda.jit
    def add_one(A):
        i = cuda.grid(1)
        if i < A.size:
            A[i] += 1

    s = cuda.stream()
    a = simt.zeros(1000)
    for _ in range(5):
        add_one[4, 256, s](a)
    s.synchronize()
    assert s.query()
    np.testing.assert_array_equal(a.get(), np.full(1000, 5.0))
    with cuda.Stream() as s2:
        add_one[4, 256, s2, 0](a)
        s2.synchronize()
    assert a.get()[0] == 6
    add_one[4, 256, cuda.default_stream()](a)
    add_one[4, 256, 0](a)
    add_one[4, 256, None](a)
    np.testing.assert_array_equal(a.get(), np.full(1000, 9.0))
    with pytest.raises(TypeError, match="stream"):
        add_one[4, 256, "s"](a)


@pytest.mark.parametrize("non_blocking", [False, True])
def test_array_operations_inside_with_stream_are_ordered_on_it(rng, non_blocking):
    # On a GPU the slow kernel is still running when the array operations are queued: on a
    # non-blocking stream they are correct only if they go to the same stream (the default
    # stream does not wait for it).
    n = 2_000_000 if simt.backend() == "cuda" else 2_000
    host = rng.standard_normal(4096)
    reference = simt.asarray(host)
    spin[16, 256](reference, n)
    expected = reference.get() * 2 + 1
    a = simt.asarray(host)
    cuda.synchronize()
    s = cuda.Stream(non_blocking=non_blocking)
    with s:
        spin[16, 256](a, n)
        b = a * 2 + 1
        c = b.astype(np.float32)
        d = b.copy()
        total = b.sum()
        filled = simt.full(8, 3.5)
    s.synchronize()
    np.testing.assert_array_equal(b.get(), expected)
    np.testing.assert_array_equal(c.get(), expected.astype(np.float32))
    np.testing.assert_array_equal(d.get(), expected)
    np.testing.assert_allclose(float(total.get()), expected.sum(), rtol=1e-12)
    np.testing.assert_array_equal(filled.get(), np.full(8, 3.5))


def test_device_array_helpers_like_numba(rng):
    host = rng.standard_normal(16)
    d = cuda.to_device(host)
    np.testing.assert_array_equal(d.get(), host)
    e = cuda.device_array((3, 3), dtype=np.int32)
    assert e.shape == (3, 3) and e.dtype == np.int32
    assert cuda.device_array_like(d).shape == (16,)


SCRIPT = """
import simt, numpy as np
from simt import cuda
@cuda.jit
def k(A):
    i = cuda.grid(1)
    A[i] = i * 3
a = simt.zeros(8)
k[1, 8](a)
assert (a.get() == np.arange(8) * 3).all()
print(simt._simt.compile_counters())
"""


def test_second_process_reuses_the_disk_cache(tmp_path):
    script = tmp_path / "cached.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "SIMT_CACHE_DIR": str(tmp_path / "cache")}
    first = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert first.returncode == 0, first.stderr
    assert "'compiled': 1" in first.stdout
    second = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert second.returncode == 0, second.stderr
    assert "'compiled': 0" in second.stdout and "'disk_hits': 1" in second.stdout
    assert oct((tmp_path / "cache").stat().st_mode & 0o777) == "0o700"


def test_corrupt_cache_entry_is_recompiled(tmp_path):
    script = tmp_path / "cached.py"
    script.write_text(SCRIPT)
    env = {**os.environ, "SIMT_CACHE_DIR": str(tmp_path / "cache")}
    assert subprocess.run([sys.executable, str(script)], capture_output=True, env=env).returncode == 0
    # The cpu backend's library, or the cuda backend's cubin (and the PTX the NVVM IR path keeps)
    entries = list((tmp_path / "cache" / "cpu").glob("*/*.so")) or list((tmp_path / "cache").glob("cuda/*/*.*ptx")) + \
        list((tmp_path / "cache").glob("cuda/*/*.cubin"))
    assert entries
    for entry in entries:
        entry.write_bytes(b"garbage")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "'compiled': 1" in r.stdout
    assert "corrupt" in r.stderr


def test_unknown_backend_is_rejected(tmp_path):
    r = subprocess.run([sys.executable, "-c", "import simt"], capture_output=True, text=True,
                       env={**os.environ, "SIMT_BACKEND": "quantum"})
    assert r.returncode != 0
    assert "unknown backend 'quantum'" in r.stderr
