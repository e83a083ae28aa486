"""simt.core's Program, ProgramOptions, ObjectCode, Kernel, LaunchConfig and launch (cuda.core's
API over simt's raw-kernel path, python/simt/core/): kernels compiled with macros and options,
launched on created streams, compared with NumPy on fresh random data; and the errors."""
import ctypes

import numpy as np
import pytest

import simt
from core_buffers import from_buffer, to_buffer
from simt.core import (Device, LaunchConfig, ObjectCode, Program, ProgramOptions, launch)

SAXPY = r"""
extern "C" __global__ void saxpy(const REAL a, const REAL* x, const REAL* y, REAL* out, size_t n) {
    const size_t tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (size_t i = tid; i < n; i += (size_t)gridDim.x * blockDim.x) out[i] = SCALE * a * x[i] + y[i];
}
"""

# One partial sum per block: a tree in shared memory (dynamic or static) with __syncthreads.
BLOCK_SUM = r"""
#ifdef STATIC_SHARED
#define DECLARE_PARTIAL __shared__ double partial[BLOCK];
#else
#define DECLARE_PARTIAL extern __shared__ double partial[];
#endif
extern "C" __global__ void block_sum(const double* x, double* sums, int n) {
    DECLARE_PARTIAL
    const unsigned t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
    partial[t] = i < n ? x[i] : 0.0;
    __syncthreads();
    for (unsigned half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half) partial[t] += partial[t + half];
        __syncthreads();
    }
    if (t == 0) sums[blockIdx.x] = partial[0];
}
"""

# A 2-D grid over a rows x cols matrix: out = transpose(a) * k.
TRANSPOSE = r"""
extern "C" __global__ void scaled_transpose(const float* a, float* out, int rows, int cols, float k) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r < rows && c < cols) out[c * rows + r] = k * a[r * cols + c];
}
"""


def saxpy_kernel(real="float", scale="2", **options):
    program = Program(SAXPY, "c++", ProgramOptions(define_macro=[("REAL", real), ("SCALE", scale)], **options))
    return program.compile("cubin").get_kernel("saxpy")


@pytest.mark.parametrize("real,dtype", [("float", np.float32), ("double", np.float64)])
def test_saxpy_with_macros_on_a_created_stream(rng, real, dtype):
    dev = Device()
    dev.set_current()
    s = dev.create_stream()
    n = int(rng.integers(1, 20000))
    x, y = (rng.standard_normal(n).astype(dtype) for _ in range(2))
    a = dtype(rng.uniform(-4, 4))
    kernel = saxpy_kernel(real, "3", std="c++17", use_fast_math=False, fma=True)
    xb, yb, out = to_buffer(dev, s, x), to_buffer(dev, s, y), dev.allocate(n * x.itemsize, stream=s)
    grid = int(rng.integers(1, 64))
    launch(s, LaunchConfig(grid=grid, block=128), kernel, a, xb, yb, out, np.uint64(n))
    s.sync()
    expected = 3 * a.astype(np.float64) * x + y
    tolerance = 4 * np.finfo(dtype).eps * (3 * np.abs(a * x) + np.abs(y))
    assert np.all(np.abs(from_buffer(out, dtype) - expected) <= tolerance)


def test_arguments_simt_arrays_ctypes_and_a_pointer_as_python_int(rng):
    dev = Device()
    s = dev.create_stream()
    n = int(rng.integers(1, 5000))
    x, y = (rng.standard_normal(n).astype(np.float32) for _ in range(2))
    out = dev.allocate(n * 4, stream=s)
    kernel = saxpy_kernel()
    # (the copies run on the default stream, which a created stream, non-blocking as cuda.core's
    # are, does not wait for: the launch must come after them)
    xd, yd = simt.asarray(x), simt.asarray(y)
    dev.sync()
    # simt arrays as pointers, a ctypes float and ctypes size_t, the output Buffer's address as a Python int
    launch(s, LaunchConfig(grid=(8,), block=(256,)), kernel, ctypes.c_float(1.5), xd, yd, out.handle, ctypes.c_uint64(n))
    s.sync()
    np.testing.assert_allclose(from_buffer(out, np.float32), 2 * np.float32(1.5) * x + y, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("static", [False, True])
def test_block_reduction_in_shared_memory(rng, static):
    dev = Device()
    s = dev.create_stream()
    block = int(rng.choice([64, 128, 256]))
    n = int(rng.integers(1, 50_000))
    grid = (n + block - 1) // block
    x = rng.standard_normal(n)
    macros = [("BLOCK", str(block))] + (["STATIC_SHARED"] if static else [])
    kernel = Program(BLOCK_SUM, "c++", {"name": "block_sum", "define_macro": macros}).compile("ptx").get_kernel("block_sum")
    xb, sums = to_buffer(dev, s, x), dev.allocate(grid * 8, stream=s)
    config = LaunchConfig(grid=grid, block=block, shmem_size=0 if static else block * 8)
    launch(s, config, kernel, xb, sums, np.int32(n))
    s.sync()
    expected = np.add.reduceat(x, np.arange(0, n, block))
    np.testing.assert_allclose(from_buffer(sums, np.float64), expected, rtol=1e-12, atol=1e-12)


def test_two_dimensional_grid(rng):
    dev = Device()
    s = dev.create_stream()
    rows, cols = (int(v) for v in rng.integers(1, 300, size=2))
    a = rng.standard_normal((rows, cols)).astype(np.float32)
    k = np.float32(rng.uniform(-2, 2))
    kernel = Program(TRANSPOSE, "c++").compile("cubin").get_kernel("scaled_transpose")
    ab, out = to_buffer(dev, s, a), dev.allocate(a.nbytes, stream=s)
    block = (16, 8)
    grid = ((cols + 15) // 16, (rows + 7) // 8, 1)
    launch(s, LaunchConfig(grid=grid, block=block), kernel, ab, out, np.int32(rows), np.int32(cols), k)
    s.sync()
    np.testing.assert_array_equal(from_buffer(out, np.float32).reshape(cols, rows), (k * a).T)


def test_object_code_and_kernel():
    options = ProgramOptions(name="two kernels", std="c++17", lineinfo=True, max_register_count=64,
                             include_path=["/nonexistent"], undefine_macro="UNUSED", diag_suppress=[177])
    program = Program(SAXPY + BLOCK_SUM.replace("BLOCK]", "256]"), "C++", options)
    assert program.backend == ("NVRTC" if simt.backend() == "cuda" else "host C++ compiler")
    with pytest.raises(simt.cuda.CompilerError, match="REAL"):  # REAL and SCALE are not defined
        program.compile("cubin")
    program = Program(TRANSPOSE, "c++", {"name": "t"})
    code = program.compile("cubin")
    assert isinstance(code, ObjectCode) and code.name == "t" and code.code_type == "cubin"
    kernel = code.get_kernel(b"scaled_transpose")
    assert kernel.num_arguments == 5
    if simt.backend() == "cpu":
        assert kernel.attributes.max_threads_per_block() == Device().properties.max_threads_per_block
        with pytest.raises(NotImplementedError, match="no PTX or cubin"):
            code.code
    if simt.backend() == "cpu":  # (no register allocation to report on the host)
        with pytest.raises(NotImplementedError, match="num_regs is not available on the cpu backend"):
            kernel.attributes.num_regs()
    else:
        assert kernel.attributes.num_regs() > 0
    program.close()
    with pytest.raises(RuntimeError, match="this Program is closed"):
        program.compile("cubin")


def test_program_options_as_nvrtc_flags():
    o = ProgramOptions(arch="sm_80", debug=True, ftz=True, prec_div=False, define_macro=["A", ("B", "2")],
                       include_path="inc", std="c++20")
    assert o.as_bytes("nvrtc") == [b"-arch=sm_80", b"--device-debug", b"--ftz=true", b"--prec-div=false",
                                   b"--define-macro=A", b"--define-macro=B=2", b"--include-path=inc", b"--std=c++20"]


# ---- errors ---------------------------------------------------------------------------------------

def test_code_type_errors():
    with pytest.raises(RuntimeError, match=r"^Unsupported code_type='fortran' \(supported_code_types=\('c\+\+',\)\)$"):
        Program("goto 100", "FORTRAN")
    with pytest.raises(NotImplementedError, match="code_type='ptx': simt.core compiles CUDA C\\+\\+ source only"):
        Program(".version 8.0", "ptx")
    with pytest.raises(TypeError, match="code must be a str of CUDA C\\+\\+, not int"):
        Program(12345, "c++")
    with pytest.raises(ValueError, match="Unsupported target_type='fatbin'"):
        Program(TRANSPOSE, "c++").compile("fatbin")
    with pytest.raises(TypeError, match="name_expressions must be a sequence of C\\+\\+ names"):
        Program(TRANSPOSE, "c++").compile("cubin", name_expressions="k<float>")


def test_program_options_errors():
    with pytest.raises(TypeError, match="ProgramOptions has no field 'optimise'; the fields are: name, arch"):
        ProgramOptions(optimise=True)
    with pytest.raises(TypeError, match="ProgramOptions has no field 'fast_math'"):
        Program(TRANSPOSE, "c++", {"fast_math": True})
    with pytest.raises(NotImplementedError, match="ProgramOptions.relocatable_device_code .* not supported"):
        ProgramOptions(relocatable_device_code=True)
    ProgramOptions(relocatable_device_code=False)  # (cuda.core's default behaviour: fine)
    with pytest.raises(ValueError, match="ProgramOptions.std must be one of"):
        ProgramOptions(std="c++99")
    with pytest.raises(ValueError, match="ProgramOptions.arch must look like 'sm_90'"):
        ProgramOptions(arch="volta")
    with pytest.raises(TypeError, match="define_macro entries must be 'NAME' or \\('NAME', 'VALUE'\\)"):
        ProgramOptions(define_macro=[("A", 1)])
    other = "sm_35" if Device().arch != "35" else "sm_50"
    with pytest.raises(ValueError, match=f"arch='{other}', but simt compiles for the current device, sm_"):
        Program(TRANSPOSE, "c++", ProgramOptions(arch=other))
    Program(TRANSPOSE, "c++", ProgramOptions(arch=f"sm_{Device().arch}")).compile("cubin")


def test_missing_kernel_and_compile_errors():
    code = Program(TRANSPOSE, "c++", {"name": "p"}).compile("cubin")
    with pytest.raises(ValueError, match=r"kernel 'nope' is not a __global__ function of program 'p' \(its kernels: "
                                         r"scaled_transpose;"):
        code.get_kernel("nope")
    with pytest.raises(simt.cuda.CompilerError, match="bad_program.cu.*undefined_name"):
        Program('extern "C" __global__ void k(float* x) { x[0] = undefined_name; }', "c++",
                {"name": "bad program"}).compile("cubin")


def test_launch_argument_errors():
    dev = Device()
    s = dev.create_stream()
    kernel = saxpy_kernel()
    x = dev.allocate(64, stream=s)
    config = LaunchConfig(grid=1, block=16)
    if not kernel._function.parameter_sizes:
        pytest.skip("this driver does not report kernel parameter sizes (CUDA < 12.4), so they cannot be checked")
    with pytest.raises(TypeError, match=r"argument 0 of kernel 'saxpy' is a Python float \(8-byte double\), but the "
                                        r"parameter takes 4 bytes: pass a NumPy scalar"):
        launch(s, config, kernel, 1.0, x, x, x, np.uint64(16))
    with pytest.raises(TypeError, match="kernel 'saxpy' takes 5 parameters, got 4 arguments"):
        launch(s, config, kernel, np.float32(1), x, x, x)
    with pytest.raises(TypeError, match="argument 4 of kernel 'saxpy' is a NumPy int32 \\(4 bytes\\), but the "
                                        "parameter takes 8 bytes"):
        launch(s, config, kernel, np.float32(1), x, x, x, np.int32(16))
    with pytest.raises(TypeError, match="argument 1 of kernel 'saxpy' is a str: pass Buffers, device arrays"):
        launch(s, config, kernel, np.float32(1), "x", x, x, np.uint64(16))
    with pytest.raises(TypeError, match="argument 2 of kernel 'saxpy'.*host"):
        launch(s, config, kernel, np.float32(1), x, np.zeros(16, np.float32), x, np.uint64(16))
    x.close()
    with pytest.raises(RuntimeError, match="argument 1 of kernel 'saxpy' is a closed Buffer"):
        launch(s, config, kernel, np.float32(1), x, x, x, np.uint64(16))


def test_launch_order_and_config_errors():
    dev = Device()
    s = dev.create_stream()
    kernel = saxpy_kernel()
    config = LaunchConfig(grid=1, block=1)
    with pytest.raises(TypeError, match="launch\\(\\) takes a simt.core.Stream first .*not LaunchConfig"):
        launch(config, s, kernel)
    with pytest.raises(TypeError, match="takes a simt.core.LaunchConfig second, not tuple"):
        launch(s, (1, 1), kernel)
    with pytest.raises(TypeError, match="takes a simt.core.Kernel third .* not str"):
        launch(s, config, "saxpy")
    for bad in (0, -1, (1, 2, 3, 4), (), (1.5,), "8", (2, 0), True):
        with pytest.raises(ValueError, match="LaunchConfig.grid must be a positive int or a tuple of 1 to 3"):
            LaunchConfig(grid=bad, block=1)
        with pytest.raises(ValueError, match="LaunchConfig.block must be a positive int or a tuple of 1 to 3"):
            LaunchConfig(grid=1, block=bad)
    with pytest.raises(ValueError, match="shmem_size must be an int >= 0"):
        LaunchConfig(grid=1, block=1, shmem_size=-4)
    with pytest.raises(ValueError, match="needs both grid= and block="):
        LaunchConfig(grid=1)
    with pytest.raises(NotImplementedError, match="thread block clusters"):
        LaunchConfig(grid=1, block=1, cluster=2)
    x = dev.allocate(64, stream=s)
    with pytest.raises(simt.cuda.CUDAError, match="^CUDA_ERROR_INVALID_VALUE: "):
        launch(s, LaunchConfig(grid=1, block=2048), kernel, np.float32(1), x, x, x, np.uint64(16))


def test_template_kernels_by_name_expression(rng):
    code = r"""
    template <typename T, int SCALE>
    __global__ void scaled(const T* x, T* y, unsigned long long n) {
        unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
        if (i < n) y[i] = x[i] * (T)SCALE;
    }
    """
    dev = Device()
    s = dev.create_stream()
    code_object = Program(code, "c++").compile("cubin", name_expressions=("scaled<float, 2>", "scaled<double, -3>"))
    for expr, dtype, scale in (("scaled<float, 2>", np.float32, 2), ("scaled<double, -3>", np.float64, -3)):
        x = rng.standard_normal(int(rng.integers(1, 1000))).astype(dtype)
        xb, out = to_buffer(dev, s, x), dev.allocate(x.nbytes, stream=s)
        launch(s, LaunchConfig(grid=(x.size + 63) // 64, block=64), code_object.get_kernel(expr), xb, out,
               np.uint64(x.size))
        s.sync()
        np.testing.assert_array_equal(from_buffer(out, dtype), x * dtype(scale))
