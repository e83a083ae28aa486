"""Interop: DLPack both ways (NumPy is the partner available on every machine; PyTorch where
installed), foreign arrays as kernel arguments, __cuda_array_interface__ (exported on the cuda
backend only; refused with guidance on the cpu backend), and NumPy's __array_function__."""
import gc
import sys

import numpy as np
import pytest

import simt
from simt import cuda

on_cpu = simt.backend() == "cpu"
needs_cpu = pytest.mark.skipif(not on_cpu, reason="the cpu backend's DLPack device is the host (kDLCPU)")
needs_gpu = pytest.mark.skipif(on_cpu, reason="needs a GPU (cuda backend); runs in the GPU suite")


class DLPackOnly:
    """Another library's array as simt sees it: only the DLPack protocol of a NumPy array."""

    def __init__(self, x):
        self.x = x

    def __dlpack__(self, **kwargs):
        return self.x.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.x.__dlpack_device__()


class LegacyDLPack(DLPackOnly):
    """A producer from before DLPack 1.0: no max_version keyword, unversioned capsules."""

    def __dlpack__(self, stream=None):
        return self.x.__dlpack__()


class FakeCudaArray:
    """An object exposing __cuda_array_interface__ the way CuPy and numba do (GPU memory)."""

    def __init__(self, n=4):
        self.__cuda_array_interface__ = {"shape": (n,), "typestr": "<f8", "data": (0xdead0000, False),
                                         "version": 3, "strides": None, "stream": 1}


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.shape[0]:
        a[i] += 1


@cuda.jit
def scale_2d(a, factor):
    i, j = cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] *= factor


def test_dlpack_device_names_the_backend_device():
    d = simt.zeros(3)
    if on_cpu:
        assert d.__dlpack_device__() == (1, 0)
    else:
        assert d.__dlpack_device__() == (2, simt.cuda.Device().id)


@needs_cpu
@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int32, np.int64, np.float16, np.float32,
                                   np.float64, np.complex64, np.complex128])
def test_numpy_reads_simt_memory_without_a_copy(rng, dtype):
    h = (rng.standard_normal((5, 7)) * 10).astype(dtype)
    d = simt.asarray(h)
    view = np.from_dlpack(d)
    assert view.dtype == h.dtype and view.shape == h.shape
    np.testing.assert_array_equal(view, h)
    view[1, 2] = view[0, 0]  # shared memory: the device array sees the write
    assert d.get()[1, 2] == h[0, 0]


@needs_cpu
def test_dlpack_export_waits_for_queued_kernels(rng):
    h = rng.standard_normal(1 << 20)
    d = simt.asarray(h)
    add_one[(d.size + 255) // 256, 256](d)
    np.testing.assert_allclose(np.from_dlpack(d), h + 1)


@needs_cpu
@pytest.mark.parametrize("wrap", [DLPackOnly, LegacyDLPack])
def test_simt_views_another_librarys_memory(rng, wrap):
    h = rng.standard_normal((6, 4)).astype(np.float32)
    d = simt.from_dlpack(wrap(h))
    assert isinstance(d, simt.ndarray) and d.shape == (6, 4) and d.dtype == np.float32
    np.testing.assert_array_equal(d.get(), h)
    scale_2d[(2, 2), (4, 4)](d, 2.0)
    simt.synchronize()
    np.testing.assert_allclose(h, d.get())  # the producer's memory was written in place


@needs_cpu
def test_strided_and_empty_dlpack_tensors(rng):
    h = rng.standard_normal((8, 6))
    t = simt.from_dlpack(h.T[::2])
    assert t.shape == (3, 8) and t.strides == h.T[::2].strides
    np.testing.assert_allclose(simt.sum(t, axis=1).get(), h.T[::2].sum(axis=1), atol=1e-12)
    e = simt.from_dlpack(np.zeros((3, 0)))
    assert e.shape == (3, 0)
    back = np.from_dlpack(t)
    np.testing.assert_array_equal(back, h.T[::2])


@needs_cpu
def test_foreign_arrays_go_straight_into_kernels(rng):
    h = rng.standard_normal(1000)
    expected = h + 2
    add_one[4, 256](DLPackOnly(h))
    add_one[4, 256](DLPackOnly(h))
    simt.synchronize()
    np.testing.assert_allclose(h, expected)


@needs_cpu
def test_foreign_kernel_arguments_are_released(rng):
    h = np.zeros(64)
    before = sys.getrefcount(h)
    for _ in range(100):
        add_one[1, 64](DLPackOnly(h))
    simt.synchronize()
    gc.collect()
    sum(range(1000))  # lets pending releases run on this thread
    assert sys.getrefcount(h) - before <= 1
    np.testing.assert_array_equal(h, np.full(64, 100.0))


@needs_cpu
def test_asarray_of_a_device_tensor_shares_memory_but_numpy_arrays_are_copied(rng):
    h = rng.standard_normal(5)
    shared = simt.asarray(DLPackOnly(h))
    copied = simt.asarray(h)
    h[0] = 42.0
    assert shared.get()[0] == 42.0
    assert copied.get()[0] != 42.0
    fresh = simt.array(DLPackOnly(h))  # array() always copies
    h[1] = -1.0
    assert fresh.get()[1] != -1.0


def test_read_only_producers_are_copied():
    h = np.arange(4.0)
    h.flags.writeable = False
    if on_cpu:
        d = simt.from_dlpack(h)
        np.testing.assert_array_equal(d.get(), h)
        add_one[1, 4](d)
        np.testing.assert_array_equal(h, np.arange(4.0))  # the read-only original is untouched
        with pytest.raises(BufferError, match="read-only"):
            simt.from_dlpack(h, copy=False)


def test_numpy_arrays_stay_host_arrays():
    with pytest.raises(TypeError, match="NumPy array in host memory"):
        add_one[1, 4](np.zeros(4))
    with pytest.raises(TypeError, match="implicit conversion"):
        np.asarray(simt.zeros(3))


@needs_cpu
def test_cuda_memory_is_refused_on_the_cpu_backend():
    fake = FakeCudaArray()
    with pytest.raises(TypeError, match="CUDA device memory.*cpu backend"):
        add_one[1, 4](fake)
    with pytest.raises(TypeError, match="cpu backend cannot access"):
        simt._interop.from_cuda_array_interface(fake)


@needs_cpu
def test_cpu_arrays_do_not_claim_to_be_gpu_memory():
    d = simt.zeros(3)
    assert not hasattr(d, "__cuda_array_interface__")
    with pytest.raises(AttributeError, match="host memory"):
        d.__cuda_array_interface__


def test_dlpack_refuses_another_device():
    d = simt.zeros(3)
    with pytest.raises(BufferError):
        d.__dlpack__(dl_device=(13, 5))
    other = (2, 0) if on_cpu else (1, 0)

    class Elsewhere(DLPackOnly):
        def __dlpack_device__(self):
            return other
    with pytest.raises(BufferError, match="cannot use without a copy"):
        simt.from_dlpack(Elsewhere(np.zeros(3)))


def test_dlpack_copy_flag(rng):
    d = simt.asarray(rng.standard_normal(4))
    if on_cpu:
        c = np.from_dlpack(d, copy=True)
        c[0] = 99.0
        assert d.get()[0] != 99.0
    s = simt.from_dlpack(d)
    assert s is d
    assert simt.from_dlpack(d, copy=True) is not d


def test_unsupported_dlpack_dtypes_are_named():
    if not on_cpu:
        pytest.skip("uses a host bfloat-like tensor")
    import ctypes  # noqa: F401
    h = np.zeros(3, dtype=np.dtype("V2"))
    with pytest.raises((TypeError, BufferError)):
        simt.from_dlpack(h)


@needs_gpu
def test_cuda_array_interface_export_on_the_gpu(rng):
    d = simt.asarray(rng.standard_normal((3, 4)))
    cai = d.__cuda_array_interface__
    assert cai["version"] == 3 and cai["shape"] == (3, 4) and cai["typestr"] == "<f8"
    assert cai["data"][0] == d.data_ptr and cai["strides"] is None and cai["stream"] not in (0, None)


@needs_gpu
def test_cupy_round_trip_on_the_gpu(rng):
    cupy = pytest.importorskip("cupy", reason="needs CuPy on the GPU machine")
    h = rng.standard_normal(1000)
    c = cupy.asarray(h)
    add_one[4, 256](c)
    d = simt.asarray(c)  # zero copy through __cuda_array_interface__
    np.testing.assert_allclose(d.get(), h + 1)
    back = cupy.asarray(d)
    back += 1
    np.testing.assert_allclose(cupy.asnumpy(c), h + 2)
    np.testing.assert_allclose(cupy.from_dlpack(d).get(), h + 2)


@needs_gpu
def test_torch_cuda_round_trip_on_the_gpu(rng):
    torch = pytest.importorskip("torch", reason="needs PyTorch with CUDA on the GPU machine")
    t = torch.arange(10, dtype=torch.float64, device="cuda")
    add_one[1, 32](t)
    d = simt.from_dlpack(t)
    np.testing.assert_allclose(d.get(), np.arange(10) + 1)
    t2 = torch.from_dlpack(d)
    t2 += 1
    torch.cuda.synchronize()
    np.testing.assert_allclose(t.cpu().numpy(), np.arange(10) + 2)


@needs_gpu
def test_numba_device_arrays_on_the_gpu(rng):
    numba_cuda = pytest.importorskip("numba.cuda", reason="needs numba-cuda on the GPU machine")
    h = rng.standard_normal(100)
    n = numba_cuda.to_device(h)
    add_one[1, 128](n)
    simt.synchronize()
    np.testing.assert_allclose(n.copy_to_host(), h + 1)
    back = numba_cuda.as_cuda_array(simt.asarray(h))
    np.testing.assert_allclose(back.copy_to_host(), h)


@needs_cpu
def test_torch_cpu_round_trip(rng):
    torch = pytest.importorskip("torch", reason="needs PyTorch (CPU build is enough)")
    t = torch.arange(12, dtype=torch.float32).reshape(3, 4)
    add_one[1, 16](t.reshape(-1))
    d = simt.from_dlpack(t)
    np.testing.assert_allclose(d.get(), np.arange(12).reshape(3, 4) + 1)
    t2 = torch.from_dlpack(d)
    t2 += 1
    np.testing.assert_allclose(d.get(), np.arange(12).reshape(3, 4) + 2)


# ---- __array_function__ -------------------------------------------------------------------------

def test_numpy_functions_run_on_simt_arrays(rng):
    h = rng.standard_normal((5, 6))
    d = simt.asarray(h)
    for fn, kwargs in [(np.sum, {}), (np.mean, {"axis": 0}), (np.std, {"axis": 1, "ddof": 1}),
                       (np.max, {"keepdims": True}), (np.argmin, {}), (np.cumsum, {"axis": 1}), (np.any, {})]:
        r = fn(d, **kwargs)
        assert isinstance(r, simt.ndarray), fn.__name__
        np.testing.assert_allclose(r.get(), fn(h, **kwargs), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.dot(d, simt.asarray(h.T)).get(), h @ h.T, rtol=1e-12, atol=1e-12)
    assert np.shape(d) == (5, 6) and np.ndim(d) == 2 and np.size(d) == 30
    assert np.result_type(d, np.float32) == np.float64


def test_numpy_functions_simt_lacks_say_so():
    with pytest.raises(TypeError, match="no implementation found"):
        np.polydiv(simt.ones(3), simt.ones(2))


def test_array_function_looks_functions_up_when_called(monkeypatch):
    """np.concatenate and friends dispatch to whatever simt provides at call time."""
    calls = []
    monkeypatch.setattr(simt, "concatenate", lambda arrays, axis=0: calls.append((len(arrays), axis)) or "done",
                        raising=False)
    assert np.concatenate([simt.zeros(2), simt.zeros(3)]) == "done"
    assert calls == [(2, 0)]


def test_array_function_defers_to_other_array_types():
    class Other:
        def __array_function__(self, func, types, args, kwargs):
            return "other"
    assert simt.ndarray.__array_function__(simt.zeros(2), np.sum, (simt.ndarray, Other), (), {}) is NotImplemented


def test_foreign_memory_without_strides_is_a_c_ordered_view(rng):
    # Producers leave strides out (None) for C-ordered data; the GPU suite found this path
    # refusing None. Memory of another simt array stands in for a foreign producer's.
    x = rng.standard_normal((3, 4))
    owner = simt.asarray(x)
    view = simt._simt._foreign_array(owner._ptr, (3, 4), None, np.dtype(np.float64), owner)
    assert view.shape == (3, 4) and view.strides == (32, 8)
    np.testing.assert_array_equal(view.get(), x)
