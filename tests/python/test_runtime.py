"""Devices, synchronization, streams, events, backend selection and the kernel cache."""
import os
import subprocess
import sys

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

    z = simt.zeros(1000)  # small fills and copies too
    c = z.copy()
    r = simt.random.random(100)
    assert not c.get().any() and (0 <= r.get()).all() and (r.get() < 1).all()


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
    (entry,) = list((tmp_path / "cache" / "cpu").glob("*/*.so")) or list((tmp_path / "cache").glob("*/*/*.cubin"))
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
