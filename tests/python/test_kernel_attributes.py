"""Kernel attributes and module globals: CuPy's RawKernel.attributes & co. (settable
max_dynamic_shared_size_bytes, preferred_shared_memory_carveout), RawModule.get_global, and
numba-cuda's dispatcher extras (get_regs_per_thread & co., launch_bounds, specialize,
inspect_types) and DeviceNDArray.split. On the cpu backend an attribute with no honest value
(registers, PTX/binary versions, sizes of raw CUDA C++) raises NotImplementedError: those
branches are marked."""
import io

import numpy as np
import pytest

import simt
from simt import cuda

CPU = simt.backend() == "cpu"

REVERSE = r'''
__device__ float scale;
__constant__ int bias[2];
extern "C" __global__ void reverse_dynamic(const float* x, float* y, int n) {
    extern __shared__ float buf[];
    int t = threadIdx.x;
    for (int j = t; j < n; j += blockDim.x) buf[j] = x[j];
    __syncthreads();
    for (int j = t; j < n; j += blockDim.x) y[j] = buf[n - 1 - j] * scale + bias[j % 2];
}
extern "C" __global__ void set_scale(float s) { if (threadIdx.x == 0) scale = s; }
extern "C" __global__ void static_shared(float* y) {
    __shared__ float tile[256];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    y[threadIdx.x] = tile[255 - threadIdx.x];
}
'''


def cuda_error(name):
    return pytest.raises(simt.cuda.CUDAError, match=name)


# ---- RawKernel attributes ------------------------------------------------------------------------
def test_raw_kernel_attributes():
    module = simt.RawModule(code=REVERSE)
    k = module.get_function("static_shared")
    attrs = k.attributes
    assert attrs["max_threads_per_block"] == k.max_threads_per_block
    assert 0 < k.max_threads_per_block <= 1024
    assert k.max_dynamic_shared_size_bytes == attrs["max_dynamic_shared_size_bytes"]
    assert k.preferred_shared_memory_carveout == -1  # (no preference set)
    if CPU:  # no register allocation, no PTX; raw C++'s __shared__ arrays are not measured
        assert k.max_threads_per_block == 1024 and k.max_dynamic_shared_size_bytes == 48 * 1024
        for name in ("num_regs", "ptx_version", "binary_version", "shared_size_bytes", "const_size_bytes",
                     "local_size_bytes"):
            with pytest.raises(NotImplementedError, match=f"{name} is not available on the cpu backend"):
                getattr(k, name)
            with pytest.raises(NotImplementedError, match=f"{name} is not available"):
                attrs[name]
    else:
        major, minor = simt.cuda.Device().compute_capability
        assert k.num_regs > 0
        assert k.binary_version == 10 * major + minor
        assert 0 < k.ptx_version <= k.binary_version
        assert k.shared_size_bytes == 256 * 4
        assert k.max_dynamic_shared_size_bytes == 48 * 1024 - 256 * 4
        assert k.const_size_bytes >= 0 and k.local_size_bytes >= 0
        assert attrs["num_regs"] == k.num_regs
    with pytest.raises(KeyError):
        attrs["no_such_attribute"]


def test_max_dynamic_shared_size_bytes_opt_in(rng):
    # (a text of its own: loaded code is shared by text, and this test raises the limit on it)
    module = simt.RawModule(code=REVERSE + f"\n// opt-in test {rng.integers(1 << 62)}\n")
    k = module.get_function("reverse_dynamic")
    module.get_function("set_scale")((1,), (1,), (np.float32(1.0),))
    n = 20000  # 80000 bytes of dynamic shared memory: more than the default 48 KiB
    x = rng.normal(size=n).astype(np.float32)
    dx, dy = simt.asarray(x), simt.empty(n, np.float32)
    with cuda_error("CUDA_ERROR_INVALID_VALUE"):
        k((1,), (256,), (dx, dy, np.int32(n)), shared_mem=4 * n)
    k.max_dynamic_shared_size_bytes = 4 * n
    assert k.max_dynamic_shared_size_bytes == 4 * n
    k((1,), (256,), (dx, dy, np.int32(n)), shared_mem=4 * n)
    np.testing.assert_array_equal(dy.get(), x[::-1])
    with cuda_error("CUDA_ERROR_INVALID_VALUE"):  # more than the attribute allows
        k((1,), (256,), (dx, dy, np.int32(n)), shared_mem=4 * n + 16)
    with cuda_error("CUDA_ERROR_INVALID_VALUE"):  # past the device's opt-in limit (227 KiB on sm_90)
        k.max_dynamic_shared_size_bytes = 300 * 1024
    with pytest.raises(TypeError, match="max_dynamic_shared_size_bytes must be an int"):
        k.max_dynamic_shared_size_bytes = 1.5
    with pytest.raises(AttributeError):
        k.num_regs = 32  # read-only, as in CuPy
    k.preferred_shared_memory_carveout = 50
    assert k.preferred_shared_memory_carveout == 50


def assert_fma_close(got, x, a, y):
    """got = x * a + y in float32, fused or not: within float32 rounding of the terms of the
    float64 result (a relative tolerance fails where the terms cancel)."""
    x, y = np.asarray(x, np.float64), np.asarray(y, np.float64)
    scale = np.abs(x * float(a)) + np.abs(y)
    assert np.all(np.abs(got - (x * float(a) + y)) <= 2.5e-7 * scale), (got, x * float(a) + y)


# ---- RawModule.get_global ------------------------------------------------------------------------
def test_get_global_is_shared_by_the_module_kernels(rng):
    module = simt.RawModule(code=REVERSE)
    scale, bias = module.get_global("scale"), module.get_global("bias")
    assert scale.mem.size == 4 and bias.mem.size == 8
    assert isinstance(scale, simt.cuda.memory.MemoryPointer)
    s = np.float32(rng.uniform(1, 2))
    module.get_function("set_scale")((1,), (32,), (s,))  # one kernel writes the __device__ variable ...
    got = np.empty(1, np.float32)
    scale.copy_to_host(got, 4)
    assert got[0] == s
    b = rng.integers(-50, 50, size=2).astype(np.int32)
    bias.copy_from_host(b, b.nbytes)  # ... the host writes the __constant__ one ...
    n = 1000
    x = rng.normal(size=n).astype(np.float32)
    dy = simt.empty(n, np.float32)
    # ... and another kernel reads both
    module.get_function("reverse_dynamic")((1,), (128,), (simt.asarray(x), dy, np.int32(n)), shared_mem=4 * n)
    # (against float64, to float32 rounding of the terms: the GPU fuses the multiply-add)
    assert_fma_close(dy.get(), x[::-1], s, b[np.arange(n) % 2])
    view = scale.as_array(np.float32)
    view[...] = np.float32(3.0)  # a simt array over the variable: writes reach the kernels
    module.get_function("reverse_dynamic")((1,), (128,), (simt.asarray(x), dy, np.int32(n)), shared_mem=4 * n)
    assert_fma_close(dy.get(), x[::-1], np.float32(3.0), b[np.arange(n) % 2])


def test_get_global_errors():
    module = simt.RawModule(code=REVERSE)
    with pytest.raises(ValueError, match="'nothing' is not a global variable of the module"):
        module.get_global("nothing")
    with pytest.raises(ValueError, match="'set_scale' is not a global variable"):
        module.get_global("set_scale")
    with pytest.raises(TypeError, match="get_global\\(\\) takes the variable's name"):
        module.get_global(3)
    with pytest.raises(ValueError, match="bytes"):
        module.get_global("scale").as_array(np.float64)  # 4 bytes are not a float64
    with pytest.raises(NotImplementedError, match="at least one kernel"):
        simt.RawModule(code="__device__ int lonely;").get_global("lonely")


def test_module_with_kernel_hidden_by_the_preprocessor(rng):
    code = r'''
    __device__ int counter;
    #if 0
    extern "C" __global__ void hidden(int* p) { }
    #endif
    extern "C" __global__ void count(int* out) { atomicAdd(&counter, 1); __syncthreads(); if (threadIdx.x == 0) *out = counter; }
    '''
    module = simt.RawModule(code=code)
    out = simt.zeros(1, np.int32)
    module.get_function("count")((1,), (64,), (out,))
    assert out.get()[0] == 64
    if CPU:  # the host compiler cannot compile the module's kernels as one unit: each has its own copy
        with pytest.raises(RuntimeError, match="could not be compiled as one unit"):
            module.get_global("counter")
    else:
        c = np.empty(1, np.int32)
        module.get_global("counter").copy_to_host(c, 4)
        assert c[0] == 64


# ---- numba-cuda dispatcher extras ---------------------------------------------------------------
TABLE = np.arange(16, dtype=np.float64)


@cuda.jit(launch_bounds=(128, 2))
def bounded(a, b, n):
    i = cuda.grid(1)
    sm = cuda.shared.array(64, np.float32)
    loc = cuda.local.array(8, np.float64)
    t = a[i % n] * 2
    sm[i % 64] = t
    for j in range(8):
        loc[j] = t + TABLE[j]
    if i < n:
        b[i] = loc[i % 8]


def test_resource_getters(rng):
    n = 100
    a = rng.normal(size=n).astype(np.float32)
    da, db = cuda.to_device(a), cuda.device_array(n, np.float32)
    bounded[1, 128](da, db, n)
    np.testing.assert_allclose(db.copy_to_host(), (a * np.float64(2) + TABLE[np.arange(n) % 8]).astype(np.float32))
    key = bounded.signatures[0]
    assert bounded.get_max_threads_per_block() == {key: 128}  # (not specialized: by signature)
    assert bounded.get_max_threads_per_block("void(float32[::1], float32[::1], int64)") == 128
    assert bounded.get_shared_mem_per_block(key) >= 64 * 4
    assert bounded.get_const_mem_size(key) >= TABLE.nbytes
    if CPU:  # what simt's analysis sized exactly; no registers on the host
        assert bounded.get_shared_mem_per_block(key) == 64 * 4
        assert bounded.get_local_mem_per_thread(key) == 8 * 8
        assert bounded.get_const_mem_size(key) == TABLE.nbytes
        with pytest.raises(NotImplementedError, match="num_regs is not available on the cpu backend"):
            bounded.get_regs_per_thread(key)
    else:
        assert 0 < bounded.get_regs_per_thread(key) <= 255
        assert bounded.get_local_mem_per_thread(key) >= 0
    with pytest.raises(KeyError, match="no specialization"):
        bounded.get_max_threads_per_block("void(float64[::1], float64[::1], int64)")


def test_launch_bounds_limit_and_generated_code():
    n = 300
    da, db = cuda.device_array(n, np.float32), cuda.device_array(n, np.float32)
    with cuda_error("CUDA_ERROR_INVALID_VALUE"):  # more threads than the bounds (.maxntid) allow
        bounded[2, 256](da, db, n)
    bounded[3, 128](da, db, n)
    source = simt._simt._generate_source(bounded, "cuda", da, db, n)
    assert "__global__ void __launch_bounds__(128, 2) " in source

    @cuda.jit(launch_bounds=(128, 2))
    def simple(a):  # (a kernel the NVVM IR path covers: its annotations)
        a[cuda.grid(1)] = 1

    simple[1, 128](db)
    assert '!"kernel", i32 1, !"maxntidx", i32 128, !"minctasm", i32 2}' in next(iter(simple.inspect_llvm().values()))


def test_launch_bounds_three_values_and_int(kernel_module):
    m = kernel_module('''
from simt import cuda

@cuda.jit(launch_bounds=64)
def one(a):
    a[cuda.grid(1)] += 1

@cuda.jit(launch_bounds=(256, 1, 2))
def three(a):
    a[cuda.grid(1)] += 1
''')
    a = cuda.to_device(np.zeros(512, np.int64))
    m.one[8, 64](a)
    m.three[2, 256](a)
    np.testing.assert_array_equal(a.copy_to_host(), np.full(512, 2))
    assert "__launch_bounds__(64) " in simt._simt._generate_source(m.one, "cuda", a)
    assert "__launch_bounds__(256, 1, 2) " in simt._simt._generate_source(m.three, "cuda", a)
    assert '!"cluster_max_blocks", i32 2' in next(iter(m.three.inspect_llvm().values()))


@pytest.mark.parametrize("bounds,error,match", [
    ((0,), ValueError, "positive"), ((1, 2, 3, 4), ValueError, "1 to 3 values"), ("128", TypeError, "ints"),
    (2048, ValueError, "more than a block can have"), ((128, True), TypeError, "ints"), ((), ValueError, "1 to 3"),
])
def test_launch_bounds_errors(bounds, error, match):
    with pytest.raises(error, match=match):
        cuda.jit(launch_bounds=bounds)(lambda a: None)


def test_specialize(rng):
    @cuda.jit
    def axpy(r, a, x, y):
        i = cuda.grid(1)
        if i < r.size:
            r[i] = a * x[i] + y[i]

    n = 200
    x, y = rng.normal(size=n).astype(np.float32), rng.normal(size=n).astype(np.float32)
    dr, dx, dy = cuda.device_array(n, np.float32), cuda.to_device(x), cuda.to_device(y)
    s = axpy.specialize(dr, np.float32(2.5), dx, dy)
    assert s.specialized and not axpy.specialized
    assert axpy.specialize(dr, np.float32(2.5), dx, dy) is s  # (one per argument types)
    s[(n + 63) // 64, 64](dr, np.float32(2.5), dx, dy)
    assert_fma_close(dr.copy_to_host(), x, np.float32(2.5), y)
    assert s.get_max_threads_per_block() == 1024 if CPU else s.get_max_threads_per_block() > 0
    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        s.specialize(dr, np.float32(2.5), dx, dy)
    with pytest.raises(TypeError):  # float64 arrays do not convert to the specialized float32 ones
        s[1, 64](cuda.device_array(n), 2.5, cuda.to_device(x.astype(np.float64)), cuda.to_device(y.astype(np.float64)))
    @cuda.jit("void(float32[::1])")
    def eager(a):
        a[0] = 1

    with pytest.raises(RuntimeError, match="Dispatcher already specialized"):
        eager.specialize(dx)


def test_inspect_types(rng):
    a = cuda.to_device(rng.normal(size=16).astype(np.float32))
    b = cuda.device_array(16, np.float32)
    bounded[1, 16](a, b, 16)
    out = io.StringIO()
    bounded.inspect_types(file=out)
    text = out.getvalue()
    assert "bounded (array(float32, 1d, C), array(float32, 1d, C), int64)" in text
    assert "#   a = arg  :: array(float32, 1d, C)" in text
    assert "#   t  :: float64" in text and "#   loc  :: array(float64, 1d, C)" in text
    assert "    t = a[i % n] * 2" in text
    one = io.StringIO()
    bounded.inspect_types(file=one, signature="void(float32[::1], float32[::1], int64)")
    assert one.getvalue() == text
    with pytest.raises(NotImplementedError, match="pretty=True"):
        bounded.inspect_types(pretty=True)


# ---- DeviceNDArray.split -------------------------------------------------------------------------
def test_device_array_split(rng):
    host = rng.normal(size=23)
    d = cuda.to_device(host)
    parts = list(d.split(5))
    assert [p.size for p in parts] == [5, 5, 5, 5, 3]
    for k, p in enumerate(parts):
        np.testing.assert_array_equal(p.copy_to_host(), host[5 * k:5 * k + 5])
    parts[1][0] = 42.0  # views of the same memory
    assert d.copy_to_host()[5] == 42.0
    assert [p.size for p in d.split(30)] == [23]


def test_device_array_split_errors(rng):
    d = cuda.to_device(rng.normal(size=(4, 4)))
    with pytest.raises(ValueError, match="1-d arrays only"):
        list(d.split(2))
    with pytest.raises(ValueError, match="unit-stride"):
        list(d[:, 0].split(2))
    with pytest.raises(ValueError, match="positive section size"):
        list(d[0].split(0))
    with pytest.raises(TypeError, match="section size as an int"):
        list(d[0].split(1.5))
