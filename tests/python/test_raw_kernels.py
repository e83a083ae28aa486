"""simt.RawKernel / simt.RawModule: CUDA C++ kernels (CuPy's API) on both backends, compared with
NumPy on fresh random data (python/simt/_raw_kernels.py, src/simt/codegen/raw_module.cpp and
prelude/raw_cuda_cpu.h, src/bindings/bind_raw.cpp)."""
import numpy as np
import pytest

import simt

ON_CPU = simt.backend() == "cpu"

SAXPY = r"""
extern "C" __global__ void saxpy(const VALUE_T* x, const VALUE_T* y, VALUE_T a, VALUE_T* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = a * x[i] + y[i];
}
"""


@pytest.mark.parametrize("ctype,dtype", [("float", np.float32), ("double", np.float64), ("int", np.int32),
                                         ("long long", np.int64)])
def test_saxpy_with_a_type_macro(rng, ctype, dtype):
    n = int(rng.integers(1, 3000))
    x = (rng.standard_normal(n) * 10).astype(dtype)
    y = (rng.standard_normal(n) * 10).astype(dtype)
    a = dtype(rng.integers(-5, 5))
    out = simt.zeros(n, dtype)
    k = simt.RawKernel(SAXPY, "saxpy", options=(f"-DVALUE_T={ctype}",))
    k(((n + 127) // 128,), (128,), (simt.asarray(x), simt.asarray(y), a, out, np.int32(n)))
    expected = a.astype(np.float64) * x + y
    # (the GPU may fuse a * x + y into one rounding: within an ulp of the terms, not of a cancelled sum)
    tolerance = 0 if np.dtype(dtype).kind == "i" else 2 * np.finfo(dtype).eps * (np.abs(a * x) + np.abs(y))
    assert np.all(np.abs(out.get() - expected) <= tolerance)


BLOCK_SUM = r"""
extern "C" __global__ void block_sum(const float* x, float* out, int n) {
    extern __shared__ float partial[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = partial[0];
}
"""


@pytest.mark.parametrize("block", [32, 128, 256])
def test_block_reduction_with_dynamic_shared_memory_and_barriers(rng, block):
    n = int(rng.integers(block, 20 * block))
    x = rng.standard_normal(n).astype(np.float32)
    blocks = (n + block - 1) // block
    out = simt.empty(blocks, np.float32)
    simt.RawKernel(BLOCK_SUM, "block_sum")((blocks,), (block,), (simt.asarray(x), out, np.int32(n)),
                                           shared_mem=block * 4)
    padded = np.zeros(blocks * block, np.float32)
    padded[:n] = x
    np.testing.assert_allclose(out.get(), padded.reshape(blocks, block).sum(axis=1, dtype=np.float64), rtol=1e-5,
                               atol=1e-5)


TRANSPOSE = r"""
#define TILE 16
extern "C" __global__ void transpose(const double* in, double* out, int rows, int cols) {
    __shared__ double tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
    if (x < cols && y < rows) tile[threadIdx.y][threadIdx.x] = in[y * cols + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    if (x < rows && y < cols) out[y * rows + x] = tile[threadIdx.x][threadIdx.y];
}
"""


def test_tiled_transpose_with_static_shared_memory_on_a_2d_grid(rng):
    rows, cols = (int(v) for v in rng.integers(1, 80, size=2))
    a = rng.standard_normal((rows, cols))
    out = simt.empty((cols, rows), np.float64)
    grid = ((cols + 15) // 16, (rows + 15) // 16)
    simt.RawKernel(TRANSPOSE, "transpose")(grid, (16, 16), (simt.asarray(a), out, np.int32(rows), np.int32(cols)))
    np.testing.assert_array_equal(out.get(), a.T)


INDICES = r"""
extern "C" __global__ void indices(int* out) {
    int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    int tx = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int i = bx * (blockDim.x * blockDim.y * blockDim.z) + tx;
    out[4 * i + 0] = blockIdx.x * 1000 + threadIdx.x;
    out[4 * i + 1] = blockIdx.y * 1000 + threadIdx.y;
    out[4 * i + 2] = blockIdx.z * 1000 + threadIdx.z;
    out[4 * i + 3] = warpSize;
}
"""


def test_built_in_variables_of_3d_launches(rng):
    grid = tuple(int(v) for v in rng.integers(1, 4, size=3))
    block = tuple(int(v) for v in rng.integers(1, 6, size=3))
    total = int(np.prod(grid) * np.prod(block))
    out = simt.zeros(4 * total, np.int32)
    simt.RawKernel(INDICES, "indices")(grid, block, (out,))
    got = out.get().reshape(grid[::-1] + block[::-1] + (4,))
    bz, by, bx, tz, ty, tx = np.meshgrid(*(np.arange(n) for n in grid[::-1] + block[::-1]), indexing="ij")
    np.testing.assert_array_equal(got[..., 0], bx * 1000 + tx)
    np.testing.assert_array_equal(got[..., 1], by * 1000 + ty)
    np.testing.assert_array_equal(got[..., 2], bz * 1000 + tz)
    assert (got[..., 3] == 32).all()


WARP = r"""
extern "C" __global__ void warp_ops(const int* x, int* sums, unsigned* ballots, int* xors, int* counts) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = x[i];
    int s = v;
    for (int offset = 16; offset > 0; offset /= 2) s += __shfl_down_sync(0xffffffffu, s, offset);
    unsigned b = __ballot_sync(0xffffffffu, v > 0);
    int partner = __shfl_xor_sync(0xffffffffu, v, 1, 16);
    int positive = __syncthreads_count(v > 0);
    if ((threadIdx.x & 31) == 0) { sums[i / 32] = s; ballots[i / 32] = b; }
    xors[i] = partner;
    if (threadIdx.x == 0) counts[blockIdx.x] = positive;
}
"""


def test_warp_shuffles_votes_and_barrier_counts(rng):
    blocks, block = 3, 64
    n = blocks * block
    x = rng.integers(-50, 50, size=n).astype(np.int32)
    sums = simt.zeros(n // 32, np.int32)
    ballots = simt.zeros(n // 32, np.uint32)
    xors = simt.zeros(n, np.int32)
    counts = simt.zeros(blocks, np.int32)
    simt.RawKernel(WARP, "warp_ops")((blocks,), (block,), (simt.asarray(x), sums, ballots, xors, counts))
    warps = x.reshape(-1, 32)
    np.testing.assert_array_equal(sums.get(), warps.sum(axis=1))
    bits = (warps > 0).astype(np.uint64) << np.arange(32, dtype=np.uint64)
    np.testing.assert_array_equal(ballots.get(), bits.sum(axis=1).astype(np.uint32))
    np.testing.assert_array_equal(xors.get(), x[np.arange(n) ^ 1])
    np.testing.assert_array_equal(counts.get(), (x.reshape(blocks, block) > 0).sum(axis=1))


HISTOGRAM = r"""
extern "C" __global__ void histogram(const int* x, int n, unsigned* counts, float* total, double* total64) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&counts[x[i]], 1u);
        atomicAdd(total, (float)x[i]);
        atomicAdd(total64, (double)x[i]);
    }
}
"""


def test_atomics_from_many_blocks(rng):
    n = int(rng.integers(1000, 50000))
    x = rng.integers(0, 37, size=n).astype(np.int32)
    counts = simt.zeros(37, np.uint32)
    total = simt.zeros(1, np.float32)
    total64 = simt.zeros(1, np.float64)
    simt.RawKernel(HISTOGRAM, "histogram")((8,), (128,), (simt.asarray(x), np.int32(n), counts, total, total64))
    np.testing.assert_array_equal(counts.get(), np.bincount(x, minlength=37))
    assert total64.get()[0] == x.sum()
    assert abs(total.get()[0] - x.sum()) <= 1e-6 * x.sum() + 1  # (float32 sums in any order)


MODULE = r"""
template <class T> __device__ T square(T v) { return v * v; }
__device__ __forceinline__ float clamp01(float v) { return fminf(fmaxf(v, 0.0f), 1.0f); }

extern "C" {
__global__ void squares(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = square(x[i]);
}
__global__ void __launch_bounds__(256) clamped(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = clamp01(x[i]);
}
__global__ void math(const float* x, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = sinf(x[i]) + expf(-x[i] * x[i]) + rsqrtf(1.0f + x[i] * x[i]) + __expf(0.5f * x[i]);
}
}
"""


def test_module_with_device_functions_and_several_kernels(rng):
    n = int(rng.integers(1, 2000))
    x = rng.standard_normal(n).astype(np.float32)
    d = simt.asarray(x)
    module = simt.RawModule(code=MODULE)
    module.compile()
    results = {}
    for name in ("squares", "clamped", "math"):
        out = simt.empty(n, np.float32)
        module.get_function(name)(((n + 255) // 256,), (256,), (d, out, np.int32(n)))
        results[name] = out.get()
    np.testing.assert_allclose(results["squares"], x * x, rtol=1e-6)
    np.testing.assert_array_equal(results["clamped"], np.clip(x, 0, 1))
    x64 = x.astype(np.float64)
    np.testing.assert_allclose(results["math"], np.sin(x64) + np.exp(-x64 * x64) + 1 / np.sqrt(1 + x64 * x64) +
                               np.exp(0.5 * x64), rtol=2e-5, atol=2e-5)
    assert module.get_function("squares") is module.get_function("squares")


SCALARS = r"""
extern "C" __global__ void scalars(long long i, double f, bool b, unsigned char u8, short i16, float f32,
                                   double* out) {
    out[0] = (double)i; out[1] = f; out[2] = b ? 1.0 : -1.0; out[3] = u8; out[4] = i16; out[5] = f32;
}
"""


def test_python_and_numpy_scalars_are_passed_as_cupy_passes_them(rng):
    i = int(rng.integers(-2**40, 2**40))
    f = float(rng.standard_normal())
    out = simt.zeros(6, np.float64)
    u8, i16, f32 = np.uint8(rng.integers(0, 255)), np.int16(rng.integers(-3000, 3000)), np.float32(rng.standard_normal())
    simt.RawKernel(SCALARS, "scalars")(1, 1, (i, f, True, u8, i16, f32, out))
    np.testing.assert_array_equal(out.get(), [i, f, 1.0, u8, i16, f32])


def test_views_are_passed_as_pointers_to_their_first_element(rng):
    x = rng.standard_normal(100).astype(np.float32)
    y = rng.standard_normal(100).astype(np.float32)
    out = simt.zeros(100, np.float32)
    k = simt.RawKernel(SAXPY, "saxpy", options=("-DVALUE_T=float",))
    k(1, 64, (simt.asarray(x)[10:], simt.asarray(y)[20:], np.float32(1), out[5:], np.int32(50)))
    expected = np.zeros(100, np.float32)
    expected[5:55] = x[10:60] + y[20:70]
    np.testing.assert_allclose(out.get(), expected, rtol=1e-6)


def test_launch_on_a_stream_and_printf(rng, capfd):
    code = r'''
    extern "C" __global__ void hello(int* out, int v) {
        if (threadIdx.x == 0 && blockIdx.x == 0) printf("raw kernel says %d\n", v);
        out[threadIdx.x] = v + threadIdx.x;
    }'''
    v = int(rng.integers(0, 1000))
    out = simt.zeros(32, np.int32)
    with simt.cuda.Stream() as s:
        simt.RawKernel(code, "hello")(1, 32, (out, np.int32(v)))
        s.synchronize()
    simt.synchronize()
    np.testing.assert_array_equal(out.get(), v + np.arange(32))
    assert f"raw kernel says {v}" in capfd.readouterr().out


# ---- errors ------------------------------------------------------------------------------------
def test_argument_sizes_are_checked_where_the_backend_knows_them():
    k = simt.RawKernel(SAXPY, "saxpy", options=("-DVALUE_T=float",))
    x = simt.zeros(4, np.float32)
    k(1, 4, (x, x, np.float32(1), x, np.int32(4)))
    if not k.kernel.parameter_sizes:
        pytest.skip("this driver reports no parameter sizes (cuFuncGetParamInfo needs CUDA 12.4)")
    with pytest.raises(TypeError, match=r"argument 2 of raw kernel 'saxpy' is a Python float \(8-byte double\), but "
                                        r"the parameter takes 4 bytes"):
        k(1, 4, (x, x, 1.0, x, np.int32(4)))
    with pytest.raises(TypeError, match="raw kernel 'saxpy' takes 5 parameters, got 4 arguments"):
        k(1, 4, (x, x, np.float32(1), x))


def test_bad_arguments_are_type_errors():
    k = simt.RawKernel(SAXPY, "saxpy", options=("-DVALUE_T=float",))
    x = simt.zeros(4, np.float32)
    with pytest.raises(TypeError, match=r"argument 0 of raw kernel 'saxpy'.*\.get\(\)|argument 0 of raw kernel 'saxpy'.*"
                                        r"simt\.asarray"):
        k(1, 4, (np.zeros(4, np.float32), x, np.float32(1), x, np.int32(4)))
    with pytest.raises(TypeError, match="argument 1 of raw kernel 'saxpy' is a list"):
        k(1, 4, (x, [1, 2], np.float32(1), x, np.int32(4)))
    with pytest.raises(TypeError, match="args of raw kernel 'saxpy' must be a tuple, got list"):
        k(1, 4, [x, x, np.float32(1), x, np.int32(4)])
    with pytest.raises(TypeError, match="the block of raw kernel 'saxpy' must be an int or a tuple of 1 to 3 ints"):
        k(1, (1, 2, 3, 4), (x, x, np.float32(1), x, np.int32(4)))
    with pytest.raises(OverflowError, match="does not fit the 64-bit long long"):
        k(1, 4, (x, x, np.float32(1), x, 2**70))
    with pytest.raises(simt.cuda.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        k(1, 2048, (x, x, np.float32(1), x, np.int32(4)))  # (more threads per block than a device has)


def test_compile_errors_name_the_line():
    code = 'extern "C" __global__ void broken(float* x) {\n    x[0] = undefined_name;\n}\n'
    with pytest.raises(simt.cuda.CompilerError, match=r"raw_kernel_broken\.cu.{0,2}2"):
        simt.RawKernel(code, "broken").compile()


def test_a_missing_kernel_name_is_an_error():
    with pytest.raises(ValueError, match=r"raw kernel 'nope' is not a __global__ function of the code \(its kernels: "
                                         r"saxpy;"):
        simt.RawModule(code=SAXPY, options=("-DVALUE_T=float",)).get_function("nope")


HALVING_STEPS = r"""
// The block's partial sums halved into partial[0]; the threads wait for each other at each step.
__device__ void halve_into_first(float* partial) {
    unsigned t = threadIdx.x;
    for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
}
"""

SCALED_BLOCK_SUM = r"""
#include <halving_steps.cuh>
#include "scale.cuh"
extern "C" __global__ void scaled_block_sum(const float* x, float* out, int n) {
    extern __shared__ float partial[];
    unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? x[i] : 0.0f;
    __syncthreads();
    halve_into_first(partial);
    if (t == 0) out[blockIdx.x] = SCALE * partial[0];
}
"""


@pytest.mark.parametrize("form", [("-I", "{dir}"), ("-I{dir}",), ("--include-path={dir}",)])
def test_headers_on_the_include_path_are_read_with_the_kernel(rng, tmp_path, form):
    # The barriers are in a header (the cpu backend must see them to run the threads as fibers),
    # and a second header is rewritten between two compiles of the same text and options (had the
    # cache key missed it, the second kernel would be the first one found again).
    (tmp_path / "halving_steps.cuh").write_text(HALVING_STEPS)
    options = tuple(o.format(dir=tmp_path) for o in form)
    n, block = int(rng.integers(200, 2000)), 128
    x = rng.standard_normal(n).astype(np.float32)
    blocks = (n + block - 1) // block
    padded = np.zeros(blocks * block, np.float32)
    padded[:n] = x
    sums = padded.reshape(blocks, block).sum(axis=1, dtype=np.float64)
    for scale in (2, 3):
        (tmp_path / "scale.cuh").write_text(f"#define SCALE {scale}.0f\n")
        out = simt.empty(blocks, np.float32)
        k = simt.RawKernel(SCALED_BLOCK_SUM, "scaled_block_sum", options=options)
        k((blocks,), (block,), (simt.asarray(x), out, np.int32(n)), shared_mem=block * 4)
        np.testing.assert_allclose(out.get(), scale * sums, rtol=1e-5, atol=1e-4)


@pytest.mark.skipif(not ON_CPU, reason="the cpu backend's report of a barrier it could not see (on a GPU it just runs)")
def test_a_barrier_in_a_header_simt_cannot_see_is_an_error_not_a_crash(rng, tmp_path, monkeypatch):
    # The host compiler finds the header through CPLUS_INCLUDE_PATH, which simt does not read: the
    # kernel runs its threads one after another and its barrier must fail the launch cleanly.
    (tmp_path / "wait_for_block.cuh").write_text("__device__ void wait_for_block() { __syncthreads(); }\n")
    monkeypatch.setenv("CPLUS_INCLUDE_PATH", str(tmp_path))
    code = ('#include <wait_for_block.cuh>\n'
            'extern "C" __global__ void shift(const float* x, float* out) {\n'
            '    __shared__ float staged[64];\n'
            '    staged[threadIdx.x] = x[threadIdx.x];\n'
            '    wait_for_block();\n'
            '    out[threadIdx.x] = staged[(threadIdx.x + 1) % 64];\n'
            '}\n')
    k = simt.RawKernel(code, "shift")
    x = simt.asarray(rng.standard_normal(64).astype(np.float32))
    out = simt.empty(64, np.float32)
    simt._simt._record_cuda_sources(False)  # (the session's NVRTC check would not find the header either)
    try:
        with pytest.raises(RuntimeError, match=r"barrier \(__syncthreads\) ran where simt runs a block's threads "
                                                       r"one after another.*in a header simt cannot see"):
            k((1,), (64,), (x, out))
            simt.cuda.synchronize()
    finally:
        simt._simt._record_cuda_sources(True)


@pytest.mark.skipif(ON_CPU, reason="CCCL's headers have no host version (the cpu backend refuses them, as tested below)")
def test_cccl_headers_are_found(rng):
    # CUDA 13 keeps CCCL (cuda/std, cub, thrust) in include/cccl: NVRTC is given that path too.
    code = ('#include <cuda/std/limits>\n'
            'extern "C" __global__ void below_max(const int* x, int* out, int n) {\n'
            '    int i = blockIdx.x * blockDim.x + threadIdx.x;\n'
            '    if (i < n) out[i] = cuda::std::numeric_limits<int>::max() - x[i];\n'
            '}\n')
    x = rng.integers(0, 1000, int(rng.integers(10, 300))).astype(np.int32)
    out = simt.empty_like(simt.asarray(x))
    simt.RawKernel(code, "below_max")((1,), (512,), (simt.asarray(x), out, np.int32(x.size)))
    np.testing.assert_array_equal(out.get(), np.iinfo(np.int32).max - x)


@pytest.mark.skipif(not ON_CPU, reason="the cuda backend compiles these headers with NVRTC")
def test_device_only_headers_are_refused_on_the_cpu_backend():
    code = '#include <cuda_fp16.h>\nextern "C" __global__ void h(__half* x) { }\n'
    with pytest.raises(simt.cuda.CompilerError, match=r"line 1: <cuda_fp16\.h> has no host version.*cuda backend"):
        simt.RawKernel(code, "h").compile()


def test_constructor_errors():
    with pytest.raises(TypeError, match="options must be a tuple of strings"):
        simt.RawKernel(SAXPY, "saxpy", options="-DVALUE_T=float")
    with pytest.raises(ValueError, match="backend must be 'nvrtc' or 'nvcc'"):
        simt.RawKernel(SAXPY, "saxpy", backend="hip")
    with pytest.raises(NotImplementedError, match="jitify=True"):
        simt.RawKernel(SAXPY, "saxpy", jitify=True)
    with pytest.raises(NotImplementedError, match="path="):
        simt.RawModule(path="kernels.cubin")
    with pytest.raises(TypeError, match="name_expressions must be a sequence of C\\+\\+ names"):
        simt.RawModule(code=SAXPY, name_expressions="saxpy<float>")
    with pytest.raises(TypeError, match="code must be a str"):
        simt.RawKernel(b"code", "k")


def test_file_scope_dynamic_shared_memory_and_commented_out_kernels(rng):
    # The layout of NVIDIA's samples: `extern __shared__` at file scope (this crashed the cpu
    # backend when its library loaded), and an old kernel left in a comment and an #if 0 block.
    code = r"""
    extern __shared__ float sdata[];
    // __global__ void old_version(float* x) { }
    #if 0
    __global__ void older(float* x) { }
    #endif
    extern "C" __global__ void reverse_block(const float* x, float* y) {
        unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
        sdata[t] = x[base + t];
        __syncthreads();
        float* same = (float*)sdata;
        y[base + t] = same[blockDim.x - 1 - t];
    }
    """
    x = rng.standard_normal(4 * 64).astype(np.float32)
    y = simt.empty(4 * 64, np.float32)
    simt.RawKernel(code, "reverse_block")((4,), (64,), (simt.asarray(x), y), shared_mem=64 * 4)
    np.testing.assert_array_equal(y.get(), x.reshape(4, 64)[:, ::-1].ravel())
    with pytest.raises(ValueError, match=r"'old_version' is not a __global__ function of the code \(its kernels: "):
        simt.RawKernel(code, "old_version").compile()


TEMPLATE = r"""
template <typename T, int SCALE>
__global__ void scale_add(const T* x, T* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] += x[i] * (T)SCALE;
}
"""


def test_template_kernels_by_name_expression(rng):
    # CuPy's name_expressions: each C++ name instantiates the template (NVRTC's lowered name on the
    # cuda backend; the host compiler takes the name itself).
    exprs = ("scale_add<float, 3>", "scale_add<double, -2>", "scale_add<int, 7>")
    module = simt.RawModule(code=TEMPLATE, name_expressions=exprs)
    for expr, dtype, scale in zip(exprs, (np.float32, np.float64, np.int32), (3, -2, 7)):
        n = int(rng.integers(1, 500))
        x = (rng.standard_normal(n) * 10).astype(dtype)
        y = (rng.standard_normal(n) * 10).astype(dtype)
        out = simt.asarray(y)
        module.get_function(expr)(((n + 127) // 128,), (128,), (simt.asarray(x), out, np.int32(n)))
        # (the GPU may fuse y + x * scale into one rounding: within an ulp of the terms)
        expected = y.astype(np.float64) + x.astype(np.float64) * scale
        tolerance = 0 if np.dtype(dtype).kind == "i" else 2 * np.finfo(dtype).eps * (np.abs(x * dtype(scale)) + np.abs(y))
        assert np.all(np.abs(out.get() - expected) <= tolerance)
    with pytest.raises(ValueError, match=r"'scale_add<float, 4>' is not a __global__ function .*name_expressions"):
        module.get_function("scale_add<float, 4>")
    module.compile()  # (every extern "C" kernel and name expression)


def test_one_raw_kernel_launched_from_several_threads(rng):
    # Each launch packs its own arguments: the launch path runs without the GIL, so a pack shared
    # by the kernel object could be overwritten by another thread's launch.
    import threading
    k = simt.RawKernel(SAXPY, "saxpy", options=("-DVALUE_T=float",))
    inputs = [rng.standard_normal(3000).astype(np.float32) for _ in range(8)]
    outs = [simt.zeros(3000, np.float32) for _ in inputs]

    def work(j):
        for _ in range(20):
            k((24,), (128,), (simt.asarray(inputs[j]), simt.asarray(inputs[j]), np.float32(j), outs[j], np.int32(3000)))

    threads = [threading.Thread(target=work, args=(j,)) for j in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    simt.synchronize()
    for j, x in enumerate(inputs):
        np.testing.assert_allclose(outs[j].get(), np.float32(j) * x + x, rtol=1e-6)
