"""CuPy's memory interop surface: a.data as simt.cuda.memory's MemoryPointer, simt.ndarray over
existing memory (memptr=, strides=), and Python allocators (set_allocator(f), using_allocator(f)).
Runs on the active backend (cpu in CI); the cuda backend's allocation path also over the stand-in
driver, and on a real GPU in the GPU suite."""
import gc
import subprocess
import sys
import threading
import time
import types
import weakref

import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import memory

from test_cuda_mock import NVRTC, WHY, mock_dir, on_mock  # noqa: F401  (fixtures)

ON_CUDA = simt.backend() == "cuda"
needs_gpu = pytest.mark.skipif(not ON_CUDA, reason="needs a GPU (cuda backend); runs in the GPU suite")
needs_mock = pytest.mark.skipif(not NVRTC, reason=f"NVRTC not found: {WHY}")


def _wait_until(condition):
    # (memory freed on a backend thread is handed back to Python a moment later)
    for _ in range(200):
        gc.collect()
        if condition():
            return True
        time.sleep(0.01)
    return condition()


@pytest.fixture
def restore_allocator():
    previous = cuda.get_allocator()
    yield
    cuda.set_allocator(previous)


# ---- a.data ---------------------------------------------------------------------------------
def test_data_is_a_memory_pointer_into_the_allocation(rng):
    host = rng.standard_normal(50)
    a = simt.asarray(host)
    v = a[7:]
    p = v.data
    assert isinstance(p, memory.MemoryPointer) and isinstance(p.mem, memory.UnownedMemory)
    assert p.ptr == v._ptr == a.data.ptr + 56 and p.offset == 56
    assert p.mem.size == a.nbytes and p.mem.ptr == a.data.ptr and p.device_id == cuda.Device().id
    back = np.empty(43)
    p.copy_to_host(back.ctypes.data, back.nbytes)
    np.testing.assert_array_equal(back, host[7:])
    ref = weakref.ref(a)
    del a, v
    gc.collect()
    assert ref() is not None  # p.mem keeps the array (so its memory) alive
    (p - 56).copy_to_host(back.ctypes.data, 43 * 8)
    np.testing.assert_array_equal(back, host[:43])
    del p
    assert _wait_until(lambda: ref() is None)


def test_writes_through_data_reach_the_array(rng):
    host = rng.standard_normal((6, 5)).astype(np.float32)
    a = simt.asarray(host)
    new = rng.standard_normal(5).astype(np.float32)
    a[2].data.copy_from_host(new, new.nbytes)
    (a[4].data + 8).memset(0, 8)
    expected = host.copy()
    expected[2] = new
    expected[4, 2:4] = 0
    np.testing.assert_array_equal(a.get(), expected)


def test_data_of_foreign_memory_spans_the_array(rng):
    host = rng.standard_normal(12)
    keep = simt.asarray(host)
    f = simt.ndarray((12,), np.float64, memptr=memory.MemoryPointer(memory.UnownedMemory(keep.data.ptr, keep.nbytes, keep), 0))
    r = f[::-1]
    p = r.data
    assert p.ptr == r._ptr and p.offset == 11 * 8 and p.mem.size == 12 * 8 and p.mem.ptr == keep.data.ptr
    back = np.empty(12)
    memory.MemoryPointer(p.mem, 0).copy_to_host(back.ctypes.data, 96)
    np.testing.assert_array_equal(back, host)


# ---- simt.ndarray(memptr=, strides=) ------------------------------------------------------------
def test_ndarray_over_alloc_shares_memory_both_ways(rng):
    host = rng.standard_normal((4, 5)).astype(np.float32)
    p = cuda.alloc(host.nbytes + 16)
    a = simt.ndarray((4, 5), np.float32, memptr=p + 16)
    a[...] = simt.asarray(host)
    back = np.empty_like(host)
    (p + 16).copy_to_host(back.ctypes.data, host.nbytes)
    np.testing.assert_array_equal(back, host)  # writes through the array reach the memory
    other = rng.standard_normal((4, 5)).astype(np.float32)
    (p + 16).copy_from_host(other, other.nbytes)
    np.testing.assert_array_equal(a.get(), other)  # and writes to the memory reach the array
    np.testing.assert_allclose((a * 2 + 1).get(), other * 2 + 1, rtol=1e-6)


def test_ndarray_strides_order_and_negative_strides(rng):
    host = rng.standard_normal(24)
    base = simt.asarray(host)
    f = simt.ndarray((4, 6), np.float64, memptr=base.data, order="F")
    np.testing.assert_array_equal(f.get(), host.reshape(6, 4).T)
    s = simt.ndarray((3, 4), np.float64, memptr=base.data + 8, strides=(64, 16))
    np.testing.assert_array_equal(s.get(), np.lib.stride_tricks.as_strided(host[1:], (3, 4), (64, 16)))
    r = simt.ndarray((10,), np.float64, memptr=base.data + 9 * 8, strides=(-8,))
    np.testing.assert_array_equal(r.get(), host[9::-1])
    r[...] = simt.arange(10.0)
    np.testing.assert_array_equal(base.get()[:10], np.arange(10.0)[::-1])
    n = simt.ndarray((3, 4), np.float64, strides=(8, 24))  # strides alone: new memory
    n[...] = simt.asarray(host[:12].reshape(3, 4))
    assert n.strides == (8, 24)
    np.testing.assert_array_equal((n + 0).get(), host[:12].reshape(3, 4))


def test_ndarray_over_a_data_and_unowned_memory(rng):
    host = rng.standard_normal((3, 7))
    a = simt.asarray(host)
    b = simt.ndarray(a.shape, a.dtype, memptr=a.data, strides=a.strides)
    b[1] = -1.0
    expected = host.copy()
    expected[1] = -1.0
    np.testing.assert_array_equal(a.get(), expected)
    mem = memory.UnownedMemory(a.data.ptr, a.nbytes, a)
    c = simt.ndarray((21,), a.dtype, memptr=memory.MemoryPointer(mem, 0))
    np.testing.assert_array_equal(c.get(), expected.ravel())


def test_ndarray_keeps_memptr_memory_alive(rng):
    host = rng.standard_normal(16)
    mem = memory.Memory(host.nbytes)
    ref = weakref.ref(mem)
    a = simt.ndarray((16,), np.float64, memptr=memory.MemoryPointer(mem, 0))
    a.set(host)
    del mem
    gc.collect()
    assert ref() is not None
    np.testing.assert_array_equal((a + 1).get(), host + 1)
    del a
    assert _wait_until(lambda: ref() is None)


def test_ndarray_memptr_errors():
    p = cuda.alloc(64)
    with pytest.raises(ValueError, match=r"shape \(9,\) with strides \(8,\).*64 bytes"):
        simt.ndarray((9,), np.float64, memptr=p)
    with pytest.raises(ValueError, match="reaches bytes"):
        simt.ndarray((4,), np.float64, memptr=p + 16, strides=(-8,))
    with pytest.raises(ValueError, match="reaches bytes"):
        simt.ndarray((2, 2), np.float64, memptr=p + 40)
    with pytest.raises(TypeError, match="takes a simt.cuda.MemoryPointer.*not int"):
        simt.ndarray((2,), np.float64, memptr=p.ptr)
    with pytest.raises(TypeError, match="not ndarray"):
        simt.ndarray((2,), np.float64, memptr=simt.zeros(2))
    other = memory.MemoryPointer(memory.UnownedMemory(p.ptr, 64, p, device_id=cuda.Device().id + 1), 0)
    with pytest.raises(ValueError, match="memory of device"):
        simt.ndarray((2,), np.float64, memptr=other)
    with pytest.raises(ValueError, match="2 strides for the 1 dimensions"):
        simt.ndarray((2,), np.float64, memptr=p, strides=(8, 8))
    with pytest.raises(ValueError, match="not multiples"):
        simt.ndarray((2,), np.float64, memptr=p, strides=(12,))
    with pytest.raises(ValueError, match="not aligned"):
        simt.ndarray((2,), np.float64, memptr=p + 4)
    with pytest.raises(ValueError, match="negative dimensions"):
        simt.ndarray((-1,), np.float64, memptr=p)
    assert simt.ndarray((0, 3), np.float64, memptr=p + 64).size == 0  # nothing to reach
    with pytest.raises(ValueError, match="too many for an array"):  # (zero strides reach nothing, but the count)
        simt.ndarray((2**32 + 1, 2**32 + 1), np.int8, memptr=p, strides=(0, 0))


# ---- Python allocators ----------------------------------------------------------------------
def test_counting_allocator_is_called_and_its_memory_freed(rng, restore_allocator):
    calls, handed = [], []

    def counting(nbytes):
        calls.append(nbytes)
        p = cuda.alloc(nbytes)  # (inside an allocator: simt's own memory, not counting again)
        handed.append(weakref.ref(p))
        return p

    x_host = rng.standard_normal(1000).astype(np.float32)
    y_host = rng.standard_normal(1000).astype(np.float32)
    cuda.set_allocator(counting)
    assert cuda.get_allocator() is counting and simt._simt._allocation_hooked()
    x, y = simt.asarray(x_host), simt.asarray(y_host)
    z = x + y
    assert calls == [4000, 4000, 4000]
    np.testing.assert_array_equal(z.get(), x_host + y_host)
    assert z.data.ptr == handed[2]().ptr  # the array lives in what the allocator returned
    s = simt.sin(z).sum()
    np.testing.assert_allclose(float(s), np.sin(x_host + y_host, dtype=np.float64).sum(), rtol=1e-4)
    cuda.set_allocator(None)
    assert not simt._simt._allocation_hooked()
    simt.asarray(x_host)
    assert len(calls) >= 4 and all(c >= 0 for c in calls)
    count = len(calls)
    del x, y, z, s
    cuda.Device().synchronize()
    assert _wait_until(lambda: all(r() is None for r in handed))
    assert len(calls) == count


def test_pool_malloc_wrapper_and_kernels(rng, restore_allocator):
    pool = cuda.MemoryPool()
    seen = []

    @cuda.jit
    def scale(a, out):
        i = cuda.grid(1)
        out[i] = 3 * a[i]

    host = rng.standard_normal(300)
    with cuda.using_allocator(lambda n: seen.append(n) or pool.malloc(n)):
        a = simt.asarray(host)
        out = simt.empty_like(a)
        scale[3, 128](a, out)
        back = out.get()
    assert seen == [2400, 2400]
    np.testing.assert_array_equal(back, 3 * host)
    assert not simt._simt._allocation_hooked()


def test_using_allocator_is_per_thread(rng, restore_allocator):
    callers = []

    def recording(nbytes):
        callers.append(threading.get_ident())
        return memory.MemoryPool().malloc(nbytes)

    host = rng.standard_normal(64)
    results, entered, done = [], threading.Event(), threading.Event()

    def other_thread():
        entered.wait()
        results.append((simt.asarray(host) * 2).get())
        results.append(cuda.get_allocator())
        done.set()

    t = threading.Thread(target=other_thread)
    t.start()
    with cuda.using_allocator(recording):
        assert cuda.get_allocator() is recording
        entered.set()
        done.wait(60)
        mine = (simt.asarray(host) + 1).get()
    t.join()
    assert callers and set(callers) == {threading.get_ident()}
    np.testing.assert_array_equal(results[0], host * 2)
    assert results[1] is not recording
    np.testing.assert_array_equal(mine, host + 1)
    assert cuda.get_allocator() is not recording and not simt._simt._allocation_hooked()


def test_allocator_errors_name_the_allocator(restore_allocator):
    def failing(nbytes):
        raise RuntimeError("no memory today")

    pool = cuda.get_default_memory_pool()
    gc.collect()
    cuda.Device().synchronize()
    before = pool.used_bytes()
    cuda.set_allocator(failing)
    with pytest.raises(RuntimeError, match="no memory today") as info:
        simt.zeros(10)
    assert any("failing" in note and "80 bytes" in note for note in info.value.__notes__)
    cuda.set_allocator(lambda n: 5)
    with pytest.raises(TypeError, match="returned int, not a MemoryPointer"):
        simt.ones(3)
    cuda.set_allocator(lambda n: types.SimpleNamespace(ptr=-8))
    with pytest.raises(ValueError, match="returned -8, which is not a device address"):
        simt.ones(3)
    cuda.set_allocator(lambda n: cuda.alloc(max(n - 8, 0)))
    with pytest.raises(ValueError, match="fewer than the 24 asked for"):
        simt.ones(3)
    cuda.set_allocator(lambda n: memory.MemoryPointer(memory.UnownedMemory(cuda.alloc(n).ptr, n, pool,
                                                                           device_id=cuda.Device().id + 2), 0))
    with pytest.raises(ValueError, match="device"):
        simt.ones(3)
    with pytest.raises(TypeError, match="allocation function"):
        cuda.set_allocator(7)
    with pytest.raises(TypeError, match="allocation function"):
        with cuda.using_allocator("pool"):
            pass
    cuda.set_allocator(None)
    assert _wait_until(lambda: pool.used_bytes() <= before)  # (nothing kept by the failed allocations)


def test_simt_out_of_memory_from_an_allocator_keeps_its_type(restore_allocator):
    pool = cuda.MemoryPool()
    pool.set_limit(size=1024)
    try:
        cuda.set_allocator(lambda n: pool.malloc(n))
        with pytest.raises(cuda.memory.OutOfMemoryError) as info:
            simt.empty(4096)
        assert any("lambda" in note for note in info.value.__notes__)
    finally:
        pool.set_limit(size=0)


def test_allocator_returning_array_data(rng, restore_allocator):
    made = []

    def from_arrays(nbytes):  # (inside it, simt.empty comes from the pool, not from here again)
        made.append(simt.empty(nbytes, np.uint8))
        return made[-1].data

    host = rng.integers(-1000, 1000, (30, 4)).astype(np.int64)
    with cuda.using_allocator(from_arrays):
        a = simt.asarray(host)
        b = a.sum(axis=1)
    assert a.data.ptr == made[0].data.ptr and len(made) >= 2
    np.testing.assert_array_equal(b.get(), host.sum(axis=1))


def test_arrays_of_a_python_allocator_alive_at_exit(tmp_path):
    script = tmp_path / "at_exit.py"
    script.write_text(
        "import threading, numpy as np, simt\n"
        "from simt import cuda\n"
        "cuda.set_allocator(lambda n: cuda.alloc(n))\n"
        "keep = [simt.arange(1000.0) * i for i in range(3)]\n"
        "def work():\n"
        "    global late\n"
        "    late = simt.ones(500) + 1\n"
        "t = threading.Thread(target=work)\n"
        "t.start(); t.join()\n"
        "queued = simt.sqrt(keep[2])  # (freed on the backend's thread, maybe after exit began)\n"
        "print(float(keep[2].sum()), float(late.sum()))\n")
    r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == [str(2 * 999 * 1000 / 2.0), "1000.0"] and "Exception" not in r.stderr, r.stderr


def test_exit_while_daemon_threads_allocate_through_a_python_allocator(tmp_path):
    # Interpreter exit ends daemon threads that wait for the GIL; one ended inside the Python
    # allocator aborted the process (3 runs in 5 before the atexit hand-off).
    script = tmp_path / "daemon_exit.py"
    script.write_text(
        "import threading, time, simt\n"
        "from simt import cuda\n"
        "cuda.set_allocator(lambda n: cuda.alloc(n))\n"
        "def spin():\n"
        "    while True:\n"
        "        simt.empty(100) + 1\n"
        "for _ in range(2):\n"
        "    threading.Thread(target=spin, daemon=True).start()\n"
        "time.sleep(0.2)\n"
        "print('exiting')\n")
    for _ in range(4):
        r = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0 and r.stdout.strip() == "exiting", (r.returncode, r.stderr[-2000:])


# ---- the cuda backend's allocation path (stand-in driver, then the GPU) ---------------------------
@needs_mock
def test_mock_python_allocator_sizes_frees_and_results(on_mock):
    on_mock("""
        import gc, weakref
        rng = np.random.default_rng(11)
        x_host, y_host = rng.standard_normal(500), rng.standard_normal(500)
        simt.zeros(1)
        cuda.Device().synchronize()
        baseline = mock.mock_cuda_bytes_in_use()
        calls, handed = [], []
        def counting(n):
            calls.append(n)
            p = cuda.alloc(n)
            handed.append(weakref.ref(p))
            return p
        cuda.set_allocator(counting)
        x, y = simt.asarray(x_host), simt.asarray(y_host)
        z = x + y
        assert calls == [4000, 4000, 4000], calls
        assert z.data.ptr == handed[2]().ptr  # (the stand-in runs no kernels: values are checked on cpu and GPU)
        make(1.5)[1, 32](z)
        assert tuple(np.frombuffer(last_launch()[3], np.int64)) == (handed[2]().ptr, 500, 8)
        np.testing.assert_array_equal(x.get(), x_host)
        assert mock.mock_cuda_bytes_in_use() >= baseline + 12000
        del x, y, z
        gc.collect()
        cuda.Device().synchronize()
        assert all(r() is None for r in handed)
        assert mock.mock_cuda_bytes_in_use() == baseline, (mock.mock_cuda_bytes_in_use(), baseline)
        host = np.zeros(8)
        cuda.set_allocator(lambda n: memory.MemoryPointer(memory.UnownedMemory(host.ctypes.data, n, host), 0))
        try:
            simt.ones(8)
            raise SystemExit("host memory accepted")
        except ValueError as e:
            assert "not device memory" in str(e), e
        cuda.set_allocator(None)
        assert not simt._simt._allocation_hooked()
        np.testing.assert_array_equal(simt.asarray(x_host).get(), x_host)
        print("ok")
    """.replace("memory.", "cuda.memory."))


@needs_mock
def test_mock_ndarray_over_driver_memory(on_mock):
    on_mock("""
        from simt.bindings import driver as drv
        rng = np.random.default_rng(5)
        host = rng.standard_normal(32)
        simt.zeros(1)
        r, ptr = drv.cuMemAlloc(host.nbytes)
        assert r == 0
        class Owner:
            def __del__(self):
                drv.cuMemFree(ptr)
        a = simt.ndarray((4, 8), np.float64, memptr=cuda.MemoryPointer(cuda.UnownedMemory(ptr, host.nbytes, Owner()), 0))
        a.set(host.reshape(4, 8))
        back = np.empty(32)
        assert drv.cuMemcpyDtoH(back, ptr, host.nbytes)[0] == 0
        np.testing.assert_array_equal(back, host)
        np.testing.assert_array_equal(a[2].get(), host[16:24])
        assert a.data.ptr == ptr and a.data.mem.size == host.nbytes
        assert (a[1].data.ptr, a[1].data.offset, a[1].data.mem.size) == (ptr + 64, 0, 64)  # (foreign: the bytes it spans)
        print("ok")
    """)


@needs_gpu
def test_gpu_python_allocator_and_driver_memory(rng, restore_allocator):
    from simt.bindings import driver as drv
    host = rng.standard_normal(4096)
    calls = []
    cuda.set_allocator(lambda n: calls.append(n) or cuda.alloc(n))
    a = simt.asarray(host)
    b = simt.sqrt(a * a)
    np.testing.assert_allclose(b.get(), np.abs(host), rtol=1e-15)
    assert calls == [host.nbytes] * 3
    cuda.set_allocator(None)
    r, ptr = drv.cuMemAlloc(host.nbytes)
    assert r == 0
    try:
        c = simt.ndarray((4096,), np.float64, memptr=cuda.MemoryPointer(cuda.UnownedMemory(ptr, host.nbytes, host), 0))
        c[...] = b
        back = np.empty_like(host)
        cuda.Device().synchronize()
        assert drv.cuMemcpyDtoH(back, ptr, host.nbytes)[0] == 0
        np.testing.assert_allclose(back, np.abs(host), rtol=1e-15)
        del c
    finally:
        cuda.Device().synchronize()
        drv.cuMemFree(ptr)
