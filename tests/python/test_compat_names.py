"""CuPy and numba names that real scripts use and simt.compat must provide: runtime helpers,
keywords (asnumpy/get blocking, Generator out=), bit generators, legacy DLPack, numba's typeof,
stream handles and test helpers, and attribute errors that feature probes (hasattr) survive."""
import ctypes
import io
import sys
import unittest

import numpy as np
import pytest

import simt
from simt import cuda

RAW_SOURCE = 'extern "C" __global__ void f(float* x) { x[threadIdx.x] = 2.0f * x[threadIdx.x]; }'


# ---- 5. attributes a backend cannot provide -----------------------------------------------------
def test_an_unavailable_kernel_attribute_is_absent_to_hasattr_and_still_not_implemented():
    k = simt.RawKernel(RAW_SOURCE, "f")
    assert k.max_threads_per_block == 1024  # (a value both backends have)
    if simt.backend() == "cuda":
        assert isinstance(k.num_regs, int) and hasattr(k, "num_regs")
        return
    assert not hasattr(k, "num_regs") and getattr(k, "ptx_version", "absent") == "absent"
    with pytest.raises(NotImplementedError, match="num_regs is not available on the cpu backend"):
        k.num_regs
    with pytest.raises(AttributeError):
        k.binary_version
    with pytest.raises(cuda.UnavailableAttributeError):
        simt.RawModule(code=RAW_SOURCE).get_function("f").local_size_bytes


def test_core_object_code_and_cluster_attributes_are_absent_to_hasattr():
    from simt import core
    dev = core.Device()
    dev.set_current()
    kernel = core.Program(RAW_SOURCE, "c++").compile("cubin").get_kernel("f")
    assert not hasattr(kernel.attributes, "cluster_size_must_be_set")
    with pytest.raises(NotImplementedError, match="thread block clusters"):
        kernel.attributes.required_cluster_width
    assert issubclass(cuda.UnavailableAttributeError, NotImplementedError)
    assert issubclass(cuda.UnavailableAttributeError, AttributeError)


# ---- 2. keywords --------------------------------------------------------------------------------
@pytest.mark.parametrize("blocking", [True, False])
def test_asnumpy_and_get_take_order_out_and_blocking(rng, blocking):
    h = rng.standard_normal((3, 4))
    d = simt.asarray(h)
    np.testing.assert_array_equal(simt.asnumpy(d, blocking=blocking), h)
    f = simt.asnumpy(d, order="F", blocking=blocking)
    assert f.flags.f_contiguous and not f.flags.c_contiguous
    np.testing.assert_array_equal(f, h)
    out = np.empty((3, 4))
    assert d.get(out=out, blocking=blocking) is out
    np.testing.assert_array_equal(out, h)
    out2 = np.empty((3, 4))
    assert simt.asnumpy(h, out=out2) is out2  # (host input: copied into out)
    np.testing.assert_array_equal(out2, h)
    with pytest.raises(TypeError, match="blocking must be a bool"):
        d.get(blocking="no")
    with pytest.raises(ValueError, match="same shape and dtype"):
        simt.asnumpy(d, out=np.empty(3))


@pytest.mark.parametrize("method, args", [("random", ()), ("standard_normal", ()), ("standard_exponential", ()),
                                          ("standard_gamma", (2.5,))])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generator_methods_write_into_out(rng, method, args, dtype):
    seed = int(rng.integers(2**32))
    expected = getattr(simt.random.default_rng(seed), method)(*args, size=(4, 5), dtype=dtype).get()
    out = simt.empty((4, 5), dtype)
    got = getattr(simt.random.default_rng(seed), method)(*args, dtype=dtype, out=out)
    assert got is out
    np.testing.assert_array_equal(out.get(), expected)
    assert np.all(np.isfinite(expected)) and expected.std() > 0
    with pytest.raises(ValueError, match="does not match out's shape"):
        getattr(simt.random.default_rng(seed), method)(*args, size=(2, 2), dtype=dtype, out=out)
    with pytest.raises(TypeError, match="out must be a simt.ndarray"):
        getattr(simt.random.default_rng(seed), method)(*args, dtype=dtype, out=np.empty((4, 5), dtype))
    other = np.float64 if dtype == np.float32 else np.float32
    with pytest.raises(TypeError, match="does not match out's dtype"):
        getattr(simt.random.default_rng(seed), method)(*args, dtype=other, out=out)


# ---- 1. CuPy's top level ------------------------------------------------------------------------
def test_is_available_and_get_device_id_follow_the_backend():
    assert simt.is_available() is (simt.backend() == "cuda") is cuda.is_available()
    assert cuda.get_device_id() == cuda.Device().id == 0


def test_show_config_prints_versions_backend_and_paths(capsys):
    assert simt.show_config() is None
    text = capsys.readouterr().out
    assert f"simt Version    : {simt.__version__}" in text
    assert f"simt Backend    : {simt.backend()}" in text and np.__version__ in text
    assert "NVRTC" in text and "CUDA headers" in text


def test_memoize_caches_per_arguments_and_clear_memo_empties_it(rng):
    calls = []

    @simt.memoize()
    def square(x, scale=1):
        calls.append(x)
        return x * x * scale

    x = int(rng.integers(1000))
    assert square(x) == square(x) == x * x and calls == [x]
    assert square(x, scale=2) == 2 * x * x and len(calls) == 2
    simt.clear_memo()
    assert square(x) == x * x and len(calls) == 3
    per_device = simt.memoize(for_each_device=True)(lambda n: [n])
    assert per_device(1) is per_device(1)
    with pytest.raises(TypeError, match="arguments must be hashable"):
        square([1])
    with pytest.raises(TypeError, match="memoize takes arguments"):
        simt.memoize(lambda: 0)


def test_compile_exception_is_what_a_bad_raw_kernel_raises():
    from simt.cuda.compiler import CompileException
    bad = simt.RawKernel('extern "C" __global__ void f(float* x) { x[0] = undefined_var; }', "f")
    with pytest.raises(CompileException, match="undefined_var") as caught:
        bad((1,), (1,), (simt.zeros(1, simt.float32),))
    assert "undefined_var" in caught.value.get_message()
    import io
    log = io.StringIO()
    caught.value.dump(log)
    assert log.getvalue().rstrip("\n") == str(caught.value).rstrip("\n") and log.getvalue().endswith("\n")
    with pytest.raises(cuda.CompilerError):  # (existing except clauses keep working)
        simt.RawModule(code='extern "C" __global__ void f(int* x) { x[0] = nope; }').get_function("f")


@simt.testing.numpy_cupy_allclose(rtol=1e-12)
def _sum_of_squares(xp, data):
    return (xp.asarray(data) ** 2).sum(axis=0)


def test_numpy_cupy_allclose_passes_on_agreement_and_fails_on_difference(rng):
    _sum_of_squares(data=rng.standard_normal((5, 3)))

    @simt.testing.numpy_cupy_allclose()
    def differs(xp):
        return xp.arange(3.0) + (1e-3 if xp is simt else 0)
    with pytest.raises(AssertionError):
        differs()

    @simt.testing.numpy_cupy_allclose(name="lib", type_check=True)
    def dtype_differs(lib):
        return lib.zeros(2, lib.float32 if lib is simt else lib.float64)
    with pytest.raises(AssertionError, match="dtype"):
        dtype_differs()


def test_numpy_cupy_allclose_accept_error():
    def body(xp):
        return xp.zeros((2, 3)).reshape(4)
    simt.testing.numpy_cupy_allclose(accept_error=ValueError)(body)()
    simt.testing.numpy_cupy_allclose(accept_error=True)(body)()
    with pytest.raises(ValueError):
        simt.testing.numpy_cupy_allclose()(body)()
    with pytest.raises(NotImplementedError, match="cupyx.scipy"):
        simt.testing.numpy_cupy_allclose(sp_name="scp")


def test_fft_plan_cache_records_its_limits_and_stays_empty(capsys, rng):
    from simt.fft import config
    cache = config.get_plan_cache()
    assert cache is config.get_plan_cache()
    cache.set_size(3)
    cache.set_memsize(1 << 20)
    assert (cache.get_size(), cache.get_memsize(), cache.get_curr_size(), len(cache)) == (3, 1 << 20, 0, 0)
    h = rng.standard_normal(16)
    np.testing.assert_allclose(simt.fft.fft(simt.asarray(h)).get(), np.fft.fft(h))
    assert cache.get_curr_size() == 0 and cache.get_curr_memsize() == 0
    cache.show_info()
    assert "0 / 3" in capsys.readouterr().out
    cache.clear()
    config.set_plan_cache_size(16)
    assert config.get_plan_cache_size() == 16 and isinstance(config.enable_nd_planning, bool)
    with pytest.raises(ValueError, match="size must be an int >= -1"):
        cache.set_size(-2)


@pytest.mark.parametrize("kind", ["XORWOW", "MRG32k3a", "Philox4x3210"])
def test_bit_generators_are_reproducible_per_seed(rng, kind):
    seed = int(rng.integers(2**63))
    bits = getattr(simt.random, kind)
    a = simt.random.Generator(bits(seed)).standard_normal(1000).get()
    b = simt.random.Generator(bits(seed)).standard_normal(1000).get()
    np.testing.assert_array_equal(a, b)
    assert abs(a.mean()) < 0.2 and 0.8 < a.std() < 1.2
    assert not np.array_equal(a, simt.random.Generator(bits(seed + 1)).standard_normal(1000).get())
    shared = bits(seed)  # two Generators of one BitGenerator advance one state
    first = simt.random.Generator(shared).random(4).get()
    second = simt.random.Generator(shared).random(4).get()
    np.testing.assert_array_equal(np.concatenate([first, second]),
                                  simt.random.Generator(bits(seed)).random(8).get())
    raw = bits(seed).random_raw(5)
    assert raw.dtype == np.uint64 and raw.shape == (5,)
    with pytest.raises(TypeError, match="seed must be None, an int"):
        bits("seed")


def test_bit_generator_streams_differ_by_class_and_philox_is_default_rng(rng):
    seed = int(rng.integers(2**32))
    draws = {k: simt.random.Generator(getattr(simt.random, k)(seed)).random(8).get()
             for k in ("XORWOW", "MRG32k3a", "Philox4x3210")}
    assert not np.array_equal(draws["XORWOW"], draws["MRG32k3a"])
    np.testing.assert_array_equal(draws["Philox4x3210"], simt.random.default_rng(seed).random(8).get())
    g = simt.random.default_rng(simt.random.XORWOW(seed))
    np.testing.assert_array_equal(g.random(8).get(), draws["XORWOW"])
    assert simt.random.default_rng(g) is g


# ---- 3. legacy DLPack ---------------------------------------------------------------------------
def test_to_dlpack_capsule_round_trips_through_from_dlpack_and_fromdlpack(rng):
    h = rng.standard_normal((3, 5))
    d = simt.asarray(h)
    capsule = d.toDlpack()
    assert type(capsule).__name__ == "PyCapsule"
    back = simt.fromDlpack(capsule)
    np.testing.assert_array_equal(back.get(), h)
    back[0, 0] = 42.0  # a view of the same memory
    assert d[0, 0].get() == 42.0
    np.testing.assert_array_equal(simt.from_dlpack(d.toDlpack()).get(), d.get())
    with pytest.raises(TypeError, match="already consumed"):
        simt.from_dlpack(capsule)
    with pytest.raises(TypeError, match="takes a DLPack capsule"):
        simt.fromDlpack(d)


# ---- 4. numba ------------------------------------------------------------------------------------
def test_runtime_get_version_is_nvrtcs_major_minor():
    major, minor = cuda.runtime.get_version()
    assert major * 1000 + minor * 10 == cuda.runtime.runtimeGetVersion()


def test_device_ctypes_pointer_and_bind(rng):
    h = rng.integers(-100, 100, 8).astype(np.int32)
    d = cuda.to_device(h)
    p = d.device_ctypes_pointer
    assert isinstance(p, ctypes.c_void_p) and p.value == d.data.ptr
    assert cuda.device_array(0, np.int32).device_ctypes_pointer.value is None
    s = cuda.stream()
    b = d.bind(s)
    np.testing.assert_array_equal(b.copy_to_host(), h)
    b[0] = 7
    s.synchronize()
    assert d.copy_to_host()[0] == 7  # (same memory)
    with pytest.raises(TypeError, match="bind\\(\\) takes a simt.cuda stream"):
        d.bind("stream")


def test_stream_handle_has_numbas_value_and_stays_an_int():
    s = cuda.stream()
    assert isinstance(s.handle, int) and s.handle.value == int(s.handle) != 0
    ext = cuda.external_stream(s.handle.value)
    assert ext.ptr == s.ptr


def test_typeof_and_from_dtype_give_signature_types(rng):
    from simt.cuda import numba_types as nt
    assert nt.typeof(np.zeros((2, 3), np.float32)) == nt.float32[:, ::1]
    assert nt.typeof(simt.zeros((2, 3)).T) == nt.float64[::1, :]
    assert str(nt.typeof(simt.zeros((4, 4))[:, ::2])) == "float64[:, :]"
    assert nt.typeof(3) == nt.int64 and nt.typeof(2.5) == nt.float64 and nt.typeof(True) == nt.boolean
    assert nt.typeof(np.int16(3)) == nt.int16 and nt.typeof(1j) == nt.complex128
    assert nt.from_dtype(np.dtype("uint8")) == nt.uint8
    with pytest.raises(NotImplementedError, match="no type for the dtype"):
        nt.from_dtype(np.dtype("U3"))
    with pytest.raises(ValueError, match="cannot give a kernel argument type"):
        nt.typeof("text")
    h = rng.standard_normal(16).astype(np.float32)
    d = cuda.to_device(h)

    @cuda.jit(nt.void(nt.typeof(d), nt.typeof(np.float32(2))))
    def scale(a, factor):
        i = cuda.grid(1)
        if i < a.size:
            a[i] *= factor
    scale[1, 16](d, np.float32(2))
    np.testing.assert_allclose(d.copy_to_host(), h * 2)


def test_numba_testing_helpers():
    from simt.cuda.testing import CUDATestCase, skip_on_cudasim, skip_unless_cudasim
    ran = []

    class T(CUDATestCase):
        @skip_on_cudasim("needs a real compiler")
        def test_runs(self):
            ran.append("runs")

        @skip_unless_cudasim("simulator only")
        def test_skipped(self):
            ran.append("skipped")
    result = unittest.TextTestRunner(stream=io.StringIO()).run(unittest.defaultTestLoader.loadTestsFromTestCase(T))
    assert ran == ["runs"] and len(result.skipped) == 1 and result.wasSuccessful()


# ---- 6. the numba stand-in's unsupported names ---------------------------------------------------
def test_numba_stand_in_names(monkeypatch):
    from simt.compat._numba import make_module
    numba = make_module()
    monkeypatch.setitem(sys.modules, "numba", numba)
    assert numba.typeof(np.zeros(3)) == numba.float64[::1] and numba.from_dtype(np.float32) == numba.float32
    assert not hasattr(numba, "njit") and getattr(numba, "prange", None) is None
    with pytest.raises(ImportError, match="simt.compat provides numba.cuda only; numba.njit is not available"):
        exec("from numba import njit", {})
    with pytest.raises(AttributeError, match="numba.jit is not available"):
        numba.jit
    namespace = {}
    exec("try:\n    from numba import njit\nexcept ImportError:\n    njit = None", namespace)
    assert namespace["njit"] is None  # (the optional-numba pattern falls back)
