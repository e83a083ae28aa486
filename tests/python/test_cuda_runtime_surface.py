"""CuPy's and numba's CUDA runtime surface on simt (simt.cuda serves as numba's `cuda` and as
CuPy's `cp.cuda`): streams (record, wait_event, host callbacks, ExternalStream, the null and
per-thread streams), cupy.cuda.runtime and .driver, NVTX and profiler calls, and device memory
objects and allocators (MemoryPointer, MemoryPool, set_allocator, pinned allocators). Everything
runs on the active backend; the cuda backend's driver calls are also run over the stand-in
driver (tests/mock_cuda) at the end."""
import asyncio
import ctypes
import gc
import sys
import time
import weakref

import numpy as np
import pytest

import simt as cp
from simt import cuda

ON_CUDA = cp.backend() == "cuda"


@cuda.jit
def scale_slowly(x, out, factor, reps):
    """out[i] = x[i] * factor, after enough work that the launch is still running when the host
    queues what follows it."""
    i = cuda.grid(1)
    if i < x.size:
        v = x[i]
        acc = 0.0
        for k in range(reps):
            acc += v * 1e-30 * k
        out[i] = v * factor + acc * 0.0


def launch_scale(x, out, factor, stream, reps=200):
    scale_slowly[(x.size + 127) // 128, 128, stream](x, out, factor, reps)


@pytest.fixture
def unraisable(monkeypatch):
    """What sys.unraisablehook receives (where callback exceptions are reported)."""
    seen = []
    monkeypatch.setattr(sys, "unraisablehook", lambda info: seen.append(info))
    return seen


# ---- streams ------------------------------------------------------------------------------------
def test_record_returns_an_event_and_wait_event_orders_another_stream(rng):
    host = rng.standard_normal(50_001)
    x = cp.asarray(host)
    cp.cuda.Device().synchronize()  # (x's copy ran on the default stream, which s1 does not wait for)
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    with s1:
        y = x * 2.0
    ev = s1.record()
    assert isinstance(ev, cp.cuda.Event)
    mine = cp.cuda.Event()
    assert s1.record(mine) is mine
    s2.wait_event(ev)
    with s2:
        z = y + 1.0
    s2.synchronize()
    assert ev.done and s2.done
    np.testing.assert_allclose(z.get(), host * 2.0 + 1.0, rtol=1e-15)
    with pytest.raises(TypeError, match="Stream.record"):
        s1.record(123)
    with pytest.raises(TypeError, match="Stream.wait_event"):
        s1.wait_event("not an event")


def test_synchronizing_a_stream_waits_for_the_events_it_waits_on(rng):
    # Nothing queued on s2 after the wait: its synchronize still covers the work behind the event
    # (cpu backend: this returned at once, with s1's work still running).
    host = rng.standard_normal(1 << 20)
    x = cp.asarray(host)
    out = cp.empty_like(x)
    cp.cuda.Device().synchronize()  # (x's copy ran on the default stream, which s1 does not wait for)
    s1, s2 = cp.cuda.Stream(non_blocking=True), cp.cuda.Stream(non_blocking=True)
    for round in range(5):
        with s1:  # (two kernels: no fused multiply-add, so the result is NumPy's exactly)
            cp.add(x * 3.0, float(round), out=out)
        ev = s1.record()
        s2.wait_event(ev)
        s2.synchronize()
        assert ev.done and s1.done and s2.done, round
        np.testing.assert_array_equal(out.get(), host * 3.0 + round)
    # numba's spelling: Event.record(stream) then Event.wait(stream).
    ev = cuda.event()
    with s1:
        cp.multiply(x, 5.0, out=out)
    ev.record(s1)
    ev.wait(s2)
    s2.synchronize()
    assert ev.query()
    np.testing.assert_array_equal(out.get(), host * 5.0)


def test_stream_constructor_spellings_and_singletons():
    assert cp.cuda.Stream.null.ptr == 0 and cp.cuda.Stream.null.is_default
    assert cp.cuda.Stream(null=True).ptr == 0
    if ON_CUDA:
        assert cp.cuda.Stream.ptds.ptr == 2  # CU_STREAM_PER_THREAD
    else:
        assert cp.cuda.Stream.ptds.is_default  # (one queue serves every stream there)
    s = cp.cuda.Stream()
    assert s.ptr != 0 and s.device_id == cp.cuda.runtime.getDevice()
    with pytest.raises(NotImplementedError, match="priority"):
        cp.cuda.Stream(priority=-1)
    assert s.use() is s
    try:
        assert cp.cuda.get_current_stream() is s
    finally:
        cp.cuda.Stream.null.use()
    with pytest.raises(NotImplementedError, match="interprocess"):
        cp.cuda.Event(interprocess=True)


# ---- host callbacks -----------------------------------------------------------------------------
def test_a_host_callback_sees_the_kernels_before_it_and_holds_back_those_after(rng):
    """The callback reads memory the kernels write in place (mapped host memory, which it may
    read without calling simt): it must see the first kernel's values, never the second's."""
    host = rng.standard_normal(100_003)
    x = cp.asarray(host)
    out = cuda.mapped_array(host.size, dtype=np.float64)
    s = cp.cuda.Stream()
    seen = []

    def snapshot(tag):
        seen.append((tag, np.array(out, copy=True)))

    launch_scale(x, out, 2.0, s)
    s.launch_host_func(snapshot, "after x2")
    launch_scale(x, out, -3.0, s)
    s.add_callback(lambda stream, status, arg: seen.append((stream is s, status, arg)), "numba's form")
    s.synchronize()
    assert [t[0] for t in seen] == ["after x2", True]
    np.testing.assert_array_equal(seen[0][1], host * 2.0)
    assert seen[1] == (True, 0, "numba's form")
    np.testing.assert_array_equal(np.asarray(out), host * -3.0)


def test_host_callbacks_run_once_each_in_queue_order(rng):
    s = cp.cuda.Stream()
    order = []
    values = rng.integers(0, 1000, 20).tolist()
    x = cp.asarray(rng.standard_normal(10_000))
    for v in values:
        x = x + 1.0  # (device work between the callbacks)
        s.launch_host_func(order.append, v)
    ev = s.record()
    ev.synchronize()
    s.synchronize()
    assert order == values


def test_an_exception_in_a_callback_is_reported_and_the_stream_goes_on(rng, unraisable):
    host = rng.standard_normal(4099)
    x = cp.asarray(host)
    out = cuda.mapped_array(host.size)
    s = cp.cuda.Stream()

    def boom(arg):
        raise ValueError(f"callback failed with {arg}")

    s.launch_host_func(boom, 41)
    launch_scale(x, out, 5.0, s, reps=1)
    s.synchronize()  # does not raise: the error has nobody to go to but the report
    np.testing.assert_array_equal(np.asarray(out), host * 5.0)
    assert len(unraisable) == 1
    info = unraisable[0]
    assert isinstance(info.exc_value, ValueError) and "callback failed with 41" in str(info.exc_value)
    assert "boom" in repr(info.object) and "launch_host_func" in repr(info.object)


@pytest.mark.skipif(ON_CUDA, reason="the driver need not refuse CUDA calls in a host function (it may hang); "
                    "the cpu backend refuses those that would wait for the device")
def test_a_callback_that_waits_for_the_device_gets_not_permitted(rng, unraisable):
    a = cp.asarray(rng.standard_normal(100))
    s = cp.cuda.Stream()
    s.launch_host_func(lambda arr: arr.get(), a)
    s.synchronize()
    assert len(unraisable) == 1
    assert isinstance(unraisable[0].exc_value, cuda.CUDAError)
    assert str(unraisable[0].exc_value).startswith("CUDA_ERROR_NOT_PERMITTED: ")
    np.testing.assert_array_equal((a * 1.0).get(), a.get())  # the device still works


def test_a_callbacks_argument_is_released_afterwards(rng):
    s = cp.cuda.Stream()
    arr = cp.asarray(rng.standard_normal(1000))
    ref = weakref.ref(arr)
    got = []
    s.launch_host_func(lambda a: got.append(a.shape), arr)
    del arr
    s.synchronize()
    assert got == [(1000,)]
    deadline = time.monotonic() + 5
    while ref() is not None and time.monotonic() < deadline:  # (dropped by the main thread between bytecodes)
        time.sleep(0.001)
        gc.collect()
    assert ref() is None


def test_async_done_resolves_to_the_stream(rng):
    host = rng.standard_normal(20_000)
    x = cp.asarray(host)
    out = cuda.mapped_array(host.size)
    s = cp.cuda.Stream()

    async def main():
        launch_scale(x, out, 0.5, s)
        return await asyncio.wait_for(s.async_done(), 60)

    assert asyncio.run(main()) is s
    np.testing.assert_array_equal(np.asarray(out), host * 0.5)
    with pytest.raises(RuntimeError):  # (no running event loop, as in numba)
        s.async_done()


def test_launch_host_func_takes_a_callable():
    with pytest.raises(TypeError, match="callable"):
        cp.cuda.Stream().launch_host_func(42, None)


# ---- ExternalStream -------------------------------------------------------------------------------
def test_external_stream_wraps_a_simt_stream_handle(rng):
    host = rng.standard_normal(30_000)
    owner = cp.cuda.Stream()
    ext = cp.cuda.ExternalStream(owner.ptr)
    assert ext.ptr == owner.ptr and ext.device_id == -1
    assert cp.cuda.ExternalStream(0).is_default
    del owner
    gc.collect()  # the wrapped stream must stay usable (on the cpu backend the wrapper keeps it alive)
    x = cp.asarray(host)
    with ext:
        y = cp.sqrt(cp.abs(x)) * 3.0
    ext.synchronize()
    np.testing.assert_allclose(y.get(), np.sqrt(np.abs(host)) * 3.0, rtol=1e-15)
    assert cuda.external_stream(ext.ptr).ptr == ext.ptr  # numba's spelling


@pytest.mark.skipif(ON_CUDA, reason="on the cuda backend any CUstream value is taken as it is, as CuPy takes it")
def test_external_stream_refuses_what_is_not_a_stream_on_the_cpu_backend():
    with pytest.raises(ValueError, match="not a stream of this process"):
        cp.cuda.ExternalStream(0x12345)
    with pytest.raises(ValueError, match="not a stream of this process"):
        cuda.external_stream(0xDEAD0)


# ---- cupy.cuda.runtime -------------------------------------------------------------------------------
def test_runtime_devices_and_properties():
    rt = cp.cuda.runtime
    assert rt.CUDARuntimeError is cuda.CUDAError and rt.is_hip is False
    assert rt.getDeviceCount() >= 1 and rt.getDevice() == 0
    rt.setDevice(0)
    rt.deviceSynchronize()
    props = rt.getDeviceProperties(0)
    dev = cp.cuda.Device(0)
    assert props["name"] == dev.name.encode()
    assert props["totalGlobalMem"] == dev.attributes["total_memory"]
    assert (props["major"], props["minor"]) == tuple(dev.compute_capability)
    assert props["multiProcessorCount"] == dev.attributes["multiprocessor_count"] > 0
    assert props["maxThreadsPerBlock"] == 1024 and props["warpSize"] == 32
    assert rt.deviceGetAttribute(16, 0) == props["multiProcessorCount"]
    assert (rt.deviceGetAttribute(75, 0), rt.deviceGetAttribute(76, 0)) == (props["major"], props["minor"])
    assert rt.deviceGetAttribute(2, 0) == props["maxThreadsDim"][0]
    free, total = rt.memGetInfo()
    assert 0 <= free <= total
    with pytest.raises(rt.CUDARuntimeError, match="CUDA_ERROR_INVALID_VALUE") as info:
        rt.deviceGetAttribute(99999, 0)
    assert info.value.status == 1
    with pytest.raises(rt.CUDARuntimeError, match="CUDA_ERROR_INVALID_DEVICE") as info:
        rt.setDevice(rt.getDeviceCount() + 5)
    assert info.value.status == 101
    assert isinstance(rt.runtimeGetVersion(), int) and isinstance(rt.driverGetVersion(), int)
    if ON_CUDA:
        assert rt.driverGetVersion() >= 11020 and rt.runtimeGetVersion() >= 11020


def test_runtime_streams_and_events_by_handle(rng):
    rt = cp.cuda.runtime
    host = rng.standard_normal(200_000)
    x = cp.asarray(host)
    s = cp.cuda.Stream()
    start, end = cp.cuda.Event(), cp.cuda.Event()
    rt.eventRecord(start.ptr, s.ptr)
    with s:
        y = cp.exp(-x * x)
    rt.eventRecord(end.ptr, s.ptr)
    rt.eventSynchronize(end.ptr)
    assert rt.eventQuery(end.ptr) == 0
    rt.streamSynchronize(s.ptr)
    assert rt.streamQuery(s.ptr) == 0
    rt.streamSynchronize(0)
    assert rt.eventElapsedTime(start.ptr, end.ptr) >= 0
    assert rt.eventElapsedTime(start, end) == pytest.approx(rt.eventElapsedTime(start.ptr, end.ptr))
    other = cp.cuda.Stream()
    rt.streamWaitEvent(other.ptr, end.ptr)
    with other:
        z = y * 2.0
    other.synchronize()
    np.testing.assert_allclose(z.get(), 2.0 * np.exp(-host * host), rtol=1e-14)
    with pytest.raises(rt.CUDARuntimeError, match="CUDA_ERROR_INVALID_HANDLE"):
        rt.eventSynchronize(0x1234)


def test_driver_module():
    drv = cp.cuda.driver
    assert drv.CUDADriverError is cuda.CUDAError
    assert drv.get_build_version() == cp.cuda.runtime.runtimeGetVersion()
    cp.zeros(10)  # (makes the device's context current on the cuda backend)
    if ON_CUDA:
        ctx = drv.ctxGetCurrent()
        assert ctx != 0
        drv.ctxSetCurrent(ctx)
    else:
        assert drv.ctxGetCurrent() == 0
        with pytest.raises(RuntimeError, match="no CUDA contexts"):
            drv.ctxSetCurrent(1)


# ---- NVTX and the profiler -------------------------------------------------------------------------------
class _RecordingNvtx:
    def __init__(self):
        self.calls = []

    def push_range(self, message, color=None):
        self.calls.append(("push", message, color))

    def pop_range(self):
        self.calls.append(("pop",))

    def mark(self, message, color=None):
        self.calls.append(("mark", message, color))


def test_nvtx_calls_reach_the_nvtx_package(monkeypatch):
    from simt.cuda import nvtx
    fake = _RecordingNvtx()
    monkeypatch.setattr(nvtx, "_emitter", ("package", fake))
    assert nvtx.available
    nvtx.RangePush("outer")
    nvtx.RangePushC("inner", 0xFF00FF00)
    nvtx.RangePop()
    nvtx.Mark("here", 1)
    nvtx.RangePop()

    @nvtx.time_range(argb_color=0xFF112233)
    def work(a, b):
        return a + b

    assert work(2, 3) == 5
    with nvtx.time_range("block", color_id=0, sync=True):
        pass
    assert fake.calls == [("push", "outer", None), ("push", "inner", 0xFF00FF00), ("pop",),
                          ("mark", "here", nvtx._COLORS[1]), ("pop",), ("push", "work", 0xFF112233), ("pop",),
                          ("push", "block", nvtx._COLORS[0]), ("pop",)]
    with pytest.raises(TypeError, match="str"):
        nvtx.RangePush(b"bytes")


def test_nvtx_without_an_emitter_does_nothing_and_says_so(monkeypatch):
    from simt.cuda import nvtx
    monkeypatch.setattr(nvtx, "_emitter", ("none", None))
    assert nvtx.available is False
    nvtx.RangePush("r")
    nvtx.Mark("m")
    nvtx.RangePop()


def test_nvtx_lookup_finds_a_usable_emitter_or_none():
    from simt.cuda import nvtx
    kind, emitter = nvtx._find_emitter()  # (whatever this machine has)
    assert kind in ("package", "library", "none")
    if kind == "library":  # (depth 0, or -2 where no tool listens: NVTX_NO_PUSH_POP_TRACKING)
        assert emitter.nvtxRangePushA(b"probe") in (0, -2) and emitter.nvtxRangePop() in (0, -2)
        attributes = nvtx._attributes(emitter, "colored", 0xFF00FF00)
        assert ctypes.sizeof(attributes) == 48 and type(attributes).message.offset == 40
        assert emitter.nvtxRangePushEx(ctypes.byref(attributes)) in (0, -2) and emitter.nvtxRangePop() in (0, -2)
    if kind == "package":
        emitter.push_range(message="probe")
        emitter.pop_range()


def test_profiler_start_stop_and_profile(monkeypatch):
    calls = []
    monkeypatch.setattr(cp._simt, "_profiler", lambda start: calls.append(start))
    cp.cuda.profiler.start()
    cp.cuda.profiler.stop()
    with pytest.raises(KeyError):
        with cp.cuda.profiler.profile():
            raise KeyError("inside")
    with cp.cuda.profile():
        pass
    assert calls == [True, False, True, False, True, False]


# ---- MemoryPointer and memory objects -------------------------------------------------------------------------
def test_memory_pointer_copies_round_trip(rng):
    host = rng.standard_normal(1001)
    n = host.nbytes
    p = cp.cuda.alloc(n)
    assert isinstance(p, cp.cuda.MemoryPointer) and p.mem.size == n and p.device_id == 0 and int(p) == p.ptr
    p.copy_from_host(host.ctypes.data, n)  # an address, as CuPy takes
    back = np.empty_like(host)
    p.copy_to_host(back.ctypes.data, n)
    np.testing.assert_array_equal(back, host)

    q = cp.cuda.alloc(n)
    q.copy_from_device(p, n)
    expected = host.view(np.uint8).copy()
    (q + 16).memset_async(0xAB, 40)
    expected[16:56] = 0xAB
    (q + 100).memset(-1, 3)  # C's memset: the low byte
    expected[100:103] = 0xFF
    tail = rng.integers(0, 256, 64, dtype=np.uint8)
    (q + (n - 64)).copy_from_host(tail, 64)  # a buffer
    expected[n - 64:] = tail
    got = bytearray(n)
    q.copy_to_host(got, n)
    np.testing.assert_array_equal(np.frombuffer(got, np.uint8), expected)

    r = cp.cuda.alloc(n)
    s = cp.cuda.Stream()
    r.copy_from_async(q, n, stream=s)  # a MemoryPointer: device to device
    part = np.zeros(24, np.uint8)
    (r + 8).copy_to_host_async(ctypes.c_void_p(part.ctypes.data), 24, stream=s)
    s.synchronize()
    np.testing.assert_array_equal(part, expected[8:32])
    moved = p + 8
    moved -= 8
    assert moved == p and (8 + p).offset == 8


def test_memory_pointer_refuses_bad_input(rng):
    p = cp.cuda.alloc(64)
    with pytest.raises(ValueError, match="run past the end"):
        p.copy_from_host(np.zeros(100, np.uint8), 100)
    with pytest.raises(ValueError, match="run past the end"):
        (p + 60).memset(0, 8)
    with pytest.raises(ValueError, match="outside the memory"):
        p - 1
    with pytest.raises(ValueError, match="fewer than"):
        p.copy_from_host(b"abc", 8)
    with pytest.raises(ValueError, match="read-only"):
        p.copy_to_host(b"12345678", 8)
    with pytest.raises(TypeError, match="device memory"):
        p.copy_from_host(cp.zeros(8, dtype=np.uint8), 8)
    with pytest.raises(TypeError, match="int byte value"):
        p.memset(1.5, 8)
    with pytest.raises(ValueError, match="size must be an int"):
        cp.cuda.alloc(-1)
    with pytest.raises(TypeError, match="stream must be"):
        p.memset_async(0, 8, stream="s")


def test_unowned_memory_over_an_array_reads_and_writes_it(rng):
    host = rng.standard_normal(300)
    a = cp.asarray(host)
    mem = cp.cuda.UnownedMemory(a.data.ptr, a.nbytes, a)
    p = cp.cuda.MemoryPointer(mem, 0)
    back = np.empty_like(host)
    p.copy_to_host(back, a.nbytes)
    np.testing.assert_array_equal(back, host)
    new = rng.standard_normal(10)
    (p + 80).copy_from_host(new, new.nbytes)  # elements 10..19
    host[10:20] = new
    np.testing.assert_array_equal(a.get(), host)
    with pytest.raises(ValueError, match="owner"):
        cp.cuda.UnownedMemory(a.data.ptr, 8, None)


def test_managed_memory_round_trip(rng):
    host = rng.integers(-2**40, 2**40, 77)
    p = cp.cuda.malloc_managed(host.nbytes)
    assert isinstance(p.mem, cp.cuda.ManagedMemory)
    p.copy_from_host(host, host.nbytes)
    back = np.zeros_like(host)
    p.copy_to_host(back, host.nbytes)
    np.testing.assert_array_equal(back, host)


# ---- pools and allocators ------------------------------------------------------------------------------------
def test_memory_pool_malloc_is_counted_while_alive():
    pool = cp.get_default_memory_pool()
    assert isinstance(pool, cp.cuda.MemoryPool)
    before = pool.used_bytes()
    p = pool.malloc(3 << 20)
    assert p.mem.size == 3 << 20 and pool.used_bytes() >= before + (3 << 20)
    del p
    gc.collect()
    cp.cuda.Device().synchronize()
    assert pool.used_bytes() == before
    assert isinstance(cp.cuda.MemoryAsyncPool().malloc(16), cp.cuda.MemoryPointer)
    with pytest.raises(NotImplementedError, match="pool_handles"):
        cp.cuda.MemoryAsyncPool(pool_handles=[1])
    with pytest.raises(NotImplementedError, match="allocators are not supported"):
        cp.cuda.MemoryPool(lambda size: None)


@pytest.fixture
def restore_allocator():
    previous = cp.cuda.get_allocator()
    yield
    cp.cuda.set_allocator(previous)


def test_set_allocator_managed_pool_none_and_back(rng, restore_allocator):
    host = rng.standard_normal(10_007)
    default = cp.get_default_memory_pool().malloc
    assert cp.cuda.get_allocator() == default

    managed = cp.cuda.MemoryPool(cp.cuda.malloc_managed)
    cp.cuda.set_allocator(managed.malloc)
    assert cp.cuda.get_allocator() == managed.malloc
    assert cp._simt._managed_allocations() == ON_CUDA  # (the cpu backend's memory is managed already)
    a = cp.asarray(host)
    b = cp.sin(a) * 2.0 + a
    assert isinstance(cp.cuda.alloc(8).mem, cp.cuda.ManagedMemory)
    np.testing.assert_allclose(b.get(), np.sin(host) * 2.0 + host, rtol=1e-15)

    cp.cuda.set_allocator(None)  # no pooling
    assert not cp._simt._managed_allocations()
    c = cp.asarray(host) - b
    np.testing.assert_allclose(c.get(), host - (np.sin(host) * 2.0 + host), rtol=1e-13, atol=1e-15)
    del a, b, c

    with cp.cuda.using_allocator(cp.cuda.malloc_managed):
        assert cp._simt._managed_allocations() == ON_CUDA
        d = cp.asarray(host).sum()
    assert cp.cuda.get_allocator() is cp.cuda.memory._malloc  # (what set_allocator(None) set)
    np.testing.assert_allclose(float(d), host.sum(), rtol=1e-12)

    cp.cuda.set_allocator(default)
    assert not cp._simt._managed_allocations()
    with pytest.raises(TypeError, match="allocation function"):
        cp.cuda.set_allocator(3)
    assert cp.cuda.get_allocator() == default


def test_pinned_allocator_is_what_alloc_pinned_memory_calls(rng):
    counted = []

    def counting(size):
        counted.append(size)
        return cp.cuda.PinnedMemoryPointer(cp.cuda.PinnedMemory(size), 0)

    try:
        cp.cuda.set_pinned_memory_allocator(counting)
        mem = cp.cuda.alloc_pinned_memory(800)
        assert counted == [800] and mem.size >= 800
        pinned = np.frombuffer(mem, np.float64, 100)
        pinned[:] = rng.standard_normal(100)
        p = cp.cuda.alloc(800)
        p.copy_from_host(mem.ptr, 800)
        back = np.empty(100)
        p.copy_to_host(back, 800)
        np.testing.assert_array_equal(back, pinned)
        cp.cuda.set_pinned_memory_allocator(lambda size: bytearray(size))
        with pytest.raises(TypeError, match="PinnedMemoryPointer"):
            cp.cuda.alloc_pinned_memory(8)
        cp.cuda.set_pinned_memory_allocator(cp.cuda.PinnedMemoryPool().malloc)
        assert isinstance(cp.cuda.alloc_pinned_memory(8), cp.cuda.PinnedMemoryPointer)
    finally:
        cp.cuda.set_pinned_memory_allocator(cp.get_default_pinned_memory_pool().malloc)
    base = cp.cuda.PinnedMemory(64)
    assert cp.cuda.PinnedMemoryPointer(base, 16).ptr == base.ptr + 16
    with pytest.raises(ValueError, match="outside"):
        cp.cuda.PinnedMemoryPointer(base, 65)
    with pytest.raises(TypeError, match="function or None"):
        cp.cuda.set_pinned_memory_allocator(5)


def test_cupy_module_paths_exist():
    from simt.cuda import memory, pinned_memory
    assert memory.MemoryPointer is cp.cuda.MemoryPointer and memory.OutOfMemoryError is cuda.OutOfMemoryError
    assert pinned_memory.PinnedMemoryPool is cp.cuda.PinnedMemoryPool


# ---- the cuda backend's driver calls, over the stand-in driver ---------------------------------------------------
from test_cuda_mock import NVRTC, WHY, mock_dir, on_mock  # noqa: E402,F401  (fixtures)

needs_mock = pytest.mark.skipif(not NVRTC, reason=f"NVRTC not found: {WHY}")


@needs_mock
def test_mock_host_callbacks_go_through_cuLaunchHostFunc_and_waits_let_go_of_the_gil(on_mock):
    on_mock("""
        import sys
        from simt.bindings import driver as drv
        mock.mock_cuda_host_funcs_launched.restype = ctypes.c_long
        reported = []
        sys.unraisablehook = lambda info: reported.append(info.exc_value)
        s = simt.cuda.Stream()
        order = []
        for v in range(5):
            s.launch_host_func(order.append, v)
        s.add_callback(lambda st, status, arg: order.append((st is s, status, arg)), "x")
        s.launch_host_func(lambda a: 1 / 0, None)
        assert mock.mock_cuda_host_funcs_launched() == 7
        # A raw driver call waits holding the GIL: the wait must let go of it for the callbacks.
        assert drv.cuStreamSynchronize(s.ptr)[0] == 0
        assert order == [0, 1, 2, 3, 4, (True, 0, "x")], order
        assert len(reported) == 1 and isinstance(reported[0], ZeroDivisionError)
        s.launch_host_func(order.append, "last")
        s.synchronize()
        assert order[-1] == "last"
        print("ok")
    """)


@needs_mock
def test_mock_allocator_settings_reach_the_driver(on_mock):
    on_mock("""
        mock.mock_cuda_managed_allocations.restype = ctypes.c_long
        rng = np.random.default_rng(3)
        host = rng.standard_normal(1000)
        simt.zeros(1)
        assert mock.mock_cuda_release_threshold() == 2**64 - 1
        cuda.set_allocator(None)
        assert mock.mock_cuda_release_threshold() == 0  # freed memory goes back to the driver
        cuda.set_allocator(cuda.MemoryPool(cuda.malloc_managed).malloc)
        assert mock.mock_cuda_release_threshold() == 2**64 - 1
        before = mock.mock_cuda_managed_allocations()
        a = simt.asarray(host)
        assert mock.mock_cuda_managed_allocations() == before + 1
        np.testing.assert_array_equal(a.get(), host)
        del a
        cuda.set_allocator(cuda.get_default_memory_pool().malloc)
        b = simt.asarray(host)
        assert mock.mock_cuda_managed_allocations() == before + 1
        p = cuda.malloc_managed(64)
        assert mock.mock_cuda_managed_allocations() == before + 2
        assert cuda.driver.ctxGetCurrent() != 0
        rt = cuda.runtime
        assert rt.deviceGetAttribute(16, 0) == rt.getDeviceProperties(0)["multiProcessorCount"]
        assert rt.driverGetVersion() == 13000
        ext = cuda.ExternalStream(0xABC0)  # any CUstream value is taken on the cuda backend
        assert ext.ptr == 0xABC0
        mock.mock_cuda_profiler_calls.restype = ctypes.c_long
        calls = mock.mock_cuda_profiler_calls()
        with cuda.profiler.profile():
            pass
        assert mock.mock_cuda_profiler_calls() == calls + 2
        print("ok")
    """)
