"""numba.cuda's runtime conveniences (list_devices, current_context, close, detect,
defer_cleanup, is_cuda_array, as_cuda_array, from_cuda_array_interface, external_stream,
cuda.reduce) and cupy.cuda.runtime's calls, on the active backend."""
import numpy as np
import pytest

import simt
from simt import cuda


def test_devices_and_contexts(capsys):
    devices = cuda.list_devices()
    assert [d.id for d in devices] == list(range(len(cuda.gpus)))
    ctx = cuda.current_context()
    assert ctx.device == cuda.get_current_device()
    free, total = ctx.get_memory_info()
    assert 0 < free <= total == cuda.Device().attributes["total_memory"]
    assert cuda.Device().mem_info[1] == total  # (free memory changes as other work runs)
    assert cuda.detect() is True
    assert "Found" in capsys.readouterr().out


def test_close_keeps_live_arrays_usable(rng):
    h = rng.standard_normal(1000)
    d = simt.asarray(h)
    cuda.close()
    with cuda.defer_cleanup():
        np.testing.assert_array_equal((d * 2).get(), h * 2)


def test_cuda_array_checks(rng):
    d = simt.asarray(rng.standard_normal(5))
    assert cuda.is_cuda_array(d) and not cuda.is_cuda_array(np.zeros(3)) and not cuda.is_cuda_array([1.0])
    assert cuda.as_cuda_array(d) is d
    with pytest.raises(TypeError, match="not a device array"):
        cuda.as_cuda_array(np.zeros(3))


@pytest.mark.skipif(simt.backend() != "cuda", reason="__cuda_array_interface__ describes CUDA device memory")
def test_from_cuda_array_interface_and_external_stream(rng):
    h = rng.standard_normal((4, 6))
    d = simt.asarray(h)
    view = cuda.from_cuda_array_interface(d.__cuda_array_interface__, owner=d)
    np.testing.assert_array_equal(view.get(), h)
    view[0, 0] = 42.0
    assert d.get()[0, 0] == 42.0  # the same memory
    s = cuda.stream()
    ext = cuda.external_stream(s.handle)
    with ext:
        e = d * 3
    ext.synchronize()
    np.testing.assert_allclose(e.get()[1:], h[1:] * 3)


@pytest.mark.skipif(simt.backend() == "cuda", reason="the cpu backend has no CUDA memory to describe")
def test_from_cuda_array_interface_needs_the_cuda_backend():
    with pytest.raises(TypeError, match="needs the cuda backend"):
        cuda.from_cuda_array_interface({"shape": (1,), "typestr": "<f8", "data": (0, False), "version": 3})


@cuda.reduce
def sum_reduce(a, b):
    return a + b


max_reduce = cuda.reduce(lambda a, b: max(a, b))


def test_cuda_reduce(rng):
    h = rng.standard_normal(12345)
    d = simt.asarray(h)
    assert np.isclose(sum_reduce(d), h.sum(), rtol=1e-12)
    assert np.isclose(sum_reduce(d, init=5.0), h.sum() + 5.0, rtol=1e-12)
    assert max_reduce(d, init=-np.inf) == h.max()
    res = simt.zeros(1)
    assert sum_reduce(d, size=100, res=res) is None
    assert np.isclose(res.get()[0], h[:100].sum(), rtol=1e-12)
    assert sum_reduce(d, size=0, init=3.0) == 3.0
    assert sum_reduce(d, size=0, init=3.0, res=res) is None and res.get()[0] == 3.0
    with pytest.raises(TypeError, match="only 1-D"):
        sum_reduce(simt.arange(12.0).reshape(3, 4))
    i = simt.asarray(rng.integers(-50, 50, 999))
    assert sum_reduce(i) == int(i.get().sum())
    assert sum_reduce.__name__ == "sum_reduce"
    # numba's class behind the decorator, constructed directly
    product = cuda.Reduce(lambda a, b: a * b)
    small = rng.uniform(0.5, 1.5, 200)
    assert isinstance(sum_reduce, cuda.Reduce)
    assert np.isclose(product(simt.asarray(small), init=1.0), np.prod(small), rtol=1e-12)


def test_cupy_runtime_calls():
    rt = cuda.runtime
    assert rt.getDeviceCount() == len(cuda.gpus) and rt.getDevice() == 0
    props = rt.getDeviceProperties(0)
    assert props["name"] == cuda.Device(0).name.encode()
    assert (props["major"], props["minor"]) == cuda.Device(0).compute_capability
    assert props["totalGlobalMem"] == cuda.Device(0).attributes["total_memory"] and props["warpSize"] == 32
    free, total = rt.memGetInfo()
    assert 0 < free <= total
    rt.setDevice(0)
    rt.deviceSynchronize()
    assert rt.runtimeGetVersion() % 10 == 0 and rt.driverGetVersion() >= 0
    if simt.backend() == "cuda":
        assert rt.driverGetVersion() >= 11020


def test_per_thread_stream_version_context_and_array_type(rng):
    s = cuda.per_thread_default_stream()
    assert isinstance(s, cuda.Stream)
    if simt.backend() == "cuda":
        assert s.ptr == 2  # CU_STREAM_PER_THREAD
    a = simt.asarray(rng.standard_normal(100))
    b = a * 2
    s.synchronize()
    np.testing.assert_allclose(b.get(), a.get() * 2)
    assert cuda.is_supported_version() == (simt.backend() == "cuda")
    f = cuda.require_context(lambda x: x + 1)
    assert f(1) == 2
    assert isinstance(a, cuda.DeviceNDArray)


@pytest.mark.skipif(not simt._simt._nvrtc_available()[0], reason="NVRTC not found (cuda.compile needs it)")
def test_cuda_compile_gives_ptx():
    def axpy(r, a, x, y):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = a * x[i] + y[i]
    ptx, resty = cuda.compile(axpy, "void(float32[:], float32, float32[:], float32[:])", device=False)
    assert resty == "void" and ".entry" in ptx and ("fma.rn.f32" in ptx or "mul.rn.f32" in ptx or "mul.f32" in ptx)
    with pytest.raises(NotImplementedError, match="PTX only"):
        cuda.compile(axpy, "void(float32[:], float32, float32[:], float32[:])", output="ltoir")


def test_nanosleep_in_kernels_and_profiling_calls(rng):
    @cuda.jit
    def pause_then_copy(x, y):
        i = cuda.grid(1)
        cuda.nanosleep(100)
        cuda.nanosleep(ns=np.uint32(20))
        if i < x.size:
            y[i] = x[i]
    x = simt.asarray(rng.standard_normal(300))
    y = simt.zeros(300)
    pause_then_copy[3, 128](x, y)
    np.testing.assert_array_equal(y.get(), x.get())
    with cuda.profiling():  # (no profiler attached here: nothing to start)
        pause_then_copy[3, 128](x, y)
    cuda.profile_start()
    cuda.profile_stop()

    @cuda.jit
    def bad(x):
        cuda.nanosleep(1.5)
    with pytest.raises(cuda.TypingError, match="integer number of nanoseconds"):
        bad[1, 1](x)


def test_to_device_into_an_existing_array_and_without_copying(rng):
    h = rng.standard_normal((7, 5))
    d = cuda.device_array_like(h)
    assert cuda.to_device(h * 2, to=d) is d  # (to= used to be ignored: d kept its old contents)
    np.testing.assert_array_equal(d.copy_to_host(), h * 2)
    with pytest.raises(ValueError, match="shape"):
        cuda.to_device(np.zeros((5, 7)), to=d)
    empty = cuda.to_device(h, copy=False)
    assert empty.shape == h.shape and empty.dtype == h.dtype
    assert cuda.to_device(d) is d  # (a device array comes back as it is, as numba's)


def test_fortran_layout_is_kept_through_the_device(rng):
    f = np.asfortranarray(rng.standard_normal((6, 9)).astype(np.float32))
    d = cuda.to_device(f)
    assert d.strides == f.strides and cuda.device_array_like(f).strides == f.strides
    back = d.copy_to_host()
    assert back.flags.f_contiguous
    np.testing.assert_array_equal(back, f)
    np.testing.assert_array_equal(d.get(order="F"), f)
    assert d.get().flags.c_contiguous  # (CuPy's get() defaults to C order)
    with pytest.raises(ValueError, match="order must be"):
        d.get(order="X")


def test_numba_device_attribute_names():
    dev = cuda.get_current_device()
    attrs = dev.attributes
    assert dev.MULTIPROCESSOR_COUNT == attrs["multiprocessor_count"] > 0
    assert dev.WARP_SIZE == 32 and dev.MAX_THREADS_PER_BLOCK == attrs["max_threads_per_block"]
    assert dev.MAX_SHARED_MEMORY_PER_BLOCK == attrs["max_shared_memory_per_block"]
    assert (dev.MAX_BLOCK_DIM_X, dev.MAX_BLOCK_DIM_Y, dev.MAX_BLOCK_DIM_Z) == tuple(attrs["max_block_dim"])
    assert (dev.MAX_GRID_DIM_X, dev.MAX_GRID_DIM_Y, dev.MAX_GRID_DIM_Z) == tuple(attrs["max_grid_dim"])
    assert (dev.COMPUTE_CAPABILITY_MAJOR, dev.COMPUTE_CAPABILITY_MINOR) == dev.compute_capability
    with pytest.raises(AttributeError, match="NO_SUCH_ATTRIBUTE"):
        dev.NO_SUCH_ATTRIBUTE


def test_signatures_written_with_numba_type_objects(rng):
    from simt.cuda.numba_types import float32, float64, int64, intp, void

    assert str(void(float32[:], float64[:, ::1], intp)) == "void(float32[:], float64[:, ::1], int64)"
    assert np.zeros(3, float32).dtype == np.float32 and type(float32(1.5)) is np.float32

    @cuda.jit(float64(float64, float64), device=True)
    def hyp(a, b):
        return (a * a + b * b) ** 0.5

    @cuda.jit(void(float64[:, ::1], float32[:], int64))
    def rows(a, out, n):
        i = cuda.grid(1)
        if i < n:
            out[i] = float32(hyp(a[i, 0], a[i, 1]))

    @cuda.jit((float32[:], float32[:]))  # (argument types only)
    def double(x, out):
        i = cuda.grid(1)
        if i < x.size:
            out[i] = x[i] * float32(2)

    a = rng.standard_normal((int(rng.integers(10, 90)), 2))
    out = simt.empty(a.shape[0], np.float32)
    rows[1, 128](simt.asarray(a), out, a.shape[0])
    np.testing.assert_allclose(out.get(), np.hypot(a[:, 0], a[:, 1]).astype(np.float32), rtol=1e-6)
    twice = simt.empty_like(out)
    double[1, 128](out, twice)
    np.testing.assert_array_equal(twice.get(), out.get() * np.float32(2))
    from simt.cuda.numba_types import CPointer, voidptr
    assert str(void(CPointer(float32), voidptr)) == "void(CPointer(float32), voidptr)"
    declared = cuda.declare_device("scale_by", float64(CPointer(float32), voidptr))
    assert declared.sig == "float64(CPointer(float32), voidptr)"
    with pytest.raises(TypeError, match=r"an array type is written float32\[:\]"):
        float32[1:]
    with pytest.raises(TypeError, match="signature must be a string"):
        cuda.jit([float32])


def test_a_recursive_device_function_compiled_at_decoration_says_so():
    with pytest.raises(cuda.TypingError, match="recursive device function calls are not supported"):
        @cuda.jit("int64(int64)", device=True)
        def fib(n):
            if n < 2:
                return n
            return fib(n - 1) + fib(n - 2)
