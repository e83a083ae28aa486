"""cuda.declare_device and @cuda.jit(link=[...]): kernels calling device functions written in CUDA
C++ with numba's ABI, on both backends, against NumPy on fresh random data; and the errors for
declarations, calls and files that cannot work (python/simt/cuda/_foreign.py, sema/foreign*.cpp,
codegen/emit_foreign.cpp)."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import simt
from simt import cuda

FUNCTIONS_CU = r"""
// numba's ABI: the result through the first pointer, 0 returned.
extern "C" __device__ int mul_f32(float* return_value, float x, float y) {
    *return_value = x * y;
    return 0;
}
extern "C" __device__ int row_sum(double* return_value, const float* row, long n) {
    double total = 0;
    for (long i = 0; i < n; ++i) total += row[i];
    *return_value = total;
    return 0;
}
extern "C" __device__ int scale_in_place(void* unused, double* data, int n, double k) {
    for (int i = 0; i < n; ++i) data[i] *= k;
    return 0;
}
extern "C" __device__ int add_wide(long long* return_value, long a, int b) {
    *return_value = a + (long long)b;
    return 0;
}
extern "C" __device__ int lane_and_block(int* return_value) {
    *return_value = (int)(threadIdx.x % 32u) + 1000 * (int)blockIdx.x;
    return 0;
}
extern "C" __device__ int is_positive(bool* return_value, double x) {
    *return_value = x > 0;
    return 0;
}
"""

# A function whose threads wait for each other: the block's values reversed through shared memory.
REVERSE_CU = r"""
extern "C" __device__ int reverse_block(int* return_value, float* data) {
    __shared__ float staged[64];
    unsigned t = threadIdx.x;
    staged[t] = data[t];
    __syncthreads();
    data[t] = staged[blockDim.x - 1 - t];
    *return_value = 0;
    return 0;
}
"""


@pytest.fixture
def functions_cu(tmp_path):
    path = tmp_path / "functions.cu"
    path.write_text(FUNCTIONS_CU)
    return str(path)


mul_f32 = cuda.declare_device("mul_f32", "float32(float32, float32)")
row_sum = cuda.declare_device("row_sum", "float64(CPointer(float32), int64)")
scale_in_place = cuda.declare_device("scale_in_place", "void(CPointer(float64), int32, float64)")
add_wide = cuda.declare_device("add_wide", "int64(int64, int32)")
lane_and_block = cuda.declare_device("lane_and_block", "int32()")
is_positive = cuda.declare_device("is_positive", "boolean(float64)")


def test_scalar_function_multiplies_as_numpy(rng, functions_cu):
    @cuda.jit(link=[functions_cu])
    def k(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = mul_f32(a[i], b[i])

    n = int(rng.integers(1, 5000))
    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    out = simt.zeros(n, simt.float32)
    k[(n + 127) // 128, 128](simt.asarray(a), simt.asarray(b), out)
    np.testing.assert_array_equal(out.get(), a * b)  # one float32 product: exact


def test_pointer_parameters_take_arrays_and_row_views(rng, functions_cu):
    @cuda.jit(link=[functions_cu])
    def k(rows, sums):
        i = cuda.grid(1)
        if i < rows.shape[0]:
            sums[i] = row_sum(rows[i], rows.shape[1])

    shape = (int(rng.integers(1, 300)), int(rng.integers(1, 70)))
    rows = rng.standard_normal(shape).astype(np.float32)
    sums = simt.zeros(shape[0], simt.float64)
    k[(shape[0] + 63) // 64, 64](simt.asarray(rows), sums)
    np.testing.assert_allclose(sums.get(), rows.astype(np.float64).sum(axis=1), rtol=1e-12, atol=1e-12)


def test_void_function_writes_through_the_pointer(rng, functions_cu):
    @cuda.jit(link=[functions_cu])
    def k(data, factors):
        i = cuda.grid(1)
        if i < data.shape[0]:
            scale_in_place(data[i], data.shape[1], factors[i])

    data = rng.standard_normal((int(rng.integers(1, 200)), 9))
    factors = rng.standard_normal(data.shape[0])
    d = simt.asarray(data)
    k[(data.shape[0] + 31) // 32, 32](d, simt.asarray(factors))
    np.testing.assert_array_equal(d.get(), data * factors[:, None])


def test_argument_types_convert_to_the_declared_ones(rng, functions_cu):
    # add_wide is declared int64(int64, int32) and defined with `long` and `int`: the call fits the
    # definition's own parameter types; a float32 argument converts as a cast would.
    @cuda.jit(link=[functions_cu])
    def k(a, b, out, signs, x):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = add_wide(a[i], b[i])
            signs[i] = is_positive(x[i])

    n = int(rng.integers(1, 3000))
    a = rng.integers(-2**40, 2**40, n)
    b = rng.integers(-2**31, 2**31 - 1, n).astype(np.int32)
    x = rng.standard_normal(n).astype(np.float32)
    out = simt.zeros(n, simt.int64)
    signs = simt.zeros(n, simt.bool_)
    k[(n + 127) // 128, 128](simt.asarray(a), simt.asarray(b), out, signs, simt.asarray(x))
    np.testing.assert_array_equal(out.get(), a + b.astype(np.int64))
    np.testing.assert_array_equal(signs.get(), x > 0)


def test_linked_code_reads_the_callers_thread_and_block(functions_cu):
    @cuda.jit(link=[functions_cu])
    def k(out):
        i = cuda.grid(1)
        out[i] = lane_and_block()

    out = simt.zeros(3 * 96, simt.int32)
    k[3, 96](out)
    i = np.arange(3 * 96)
    np.testing.assert_array_equal(out.get(), (i % 96) % 32 + 1000 * (i // 96))


@pytest.mark.parametrize("where", ["in the linked file", "in a file it includes"])
def test_linked_code_with_a_barrier_runs_its_threads_together(rng, tmp_path, where):
    path = tmp_path / "reverse.cu"
    if where == "in the linked file":
        path.write_text(REVERSE_CU)
    else:  # (two includes down, the second found beside the first)
        (tmp_path / "inc").mkdir()
        (tmp_path / "inc" / "outer.cuh").write_text('#include "reverse.cuh"\n')
        (tmp_path / "inc" / "reverse.cuh").write_text(REVERSE_CU)
        path.write_text('#include "inc/outer.cuh"\n')
    reverse_block = cuda.declare_device("reverse_block", "int32(CPointer(float32))", link=[str(path)])

    @cuda.jit  # (the file comes with the declaration)
    def k(data):
        row = data[cuda.blockIdx.x]
        reverse_block(row)

    data = rng.standard_normal((int(rng.integers(1, 20)), 64)).astype(np.float32)
    d = simt.asarray(data)
    k[data.shape[0], 64](d)
    np.testing.assert_array_equal(d.get(), data[:, ::-1])


@pytest.mark.skipif(simt.backend() != "cpu",
                    reason="cpu-backend diagnosis of a barrier part of a block skips (CUDA leaves it undefined; a GPU can hang)")
def test_a_barrier_in_linked_code_that_part_of_the_block_skips_is_named(tmp_path):
    path = tmp_path / "partial.cu"
    path.write_text('extern "C" __device__ int partial(int* r) {\n'
                    '    if (threadIdx.x < 16) __syncthreads();\n    *r = 1;\n    return 0;\n}\n')
    partial = cuda.declare_device("partial", "int32()", link=[str(path)])

    @cuda.jit
    def k(out):
        out[cuda.threadIdx.x] = partial()

    with pytest.raises(RuntimeError) as info:
        k[1, 32](simt.zeros(32, simt.int32))
        simt.synchronize()
    text = str(info.value)
    assert "a barrier or warp function of the linked CUDA C++ (" in text and "partial.cu" in text, text
    assert "reached by only 16 of the 32 threads" in text, text


def test_ffi_from_buffer_passes_the_array(rng, functions_cu):
    cffi = pytest.importorskip("cffi", reason="numba's FFI idiom needs cffi installed")
    ffi = cffi.FFI()

    @cuda.jit(link=[functions_cu])
    def k(rows, sums):
        i = cuda.grid(1)
        if i < rows.shape[0]:
            sums[i] = row_sum(ffi.from_buffer(rows[i]), rows.shape[1])

    rows = rng.standard_normal((int(rng.integers(1, 100)), 33)).astype(np.float32)
    sums = simt.zeros(rows.shape[0], simt.float64)
    k[(rows.shape[0] + 31) // 32, 32](simt.asarray(rows), sums)
    np.testing.assert_allclose(sums.get(), rows.astype(np.float64).sum(axis=1), rtol=1e-12, atol=1e-12)


def test_the_linked_text_is_part_of_the_kernel_and_its_cache_key(rng, tmp_path):
    # One file rewritten between two compiles of the same kernel source: had the key missed the
    # text, the second kernel would be the first one found again in the cache.
    path = tmp_path / "scaled.cu"
    scaled = cuda.declare_device("scaled", "float32(float32)")
    x = rng.standard_normal(50).astype(np.float32)
    for factor in (2, 3):
        path.write_text(f'extern "C" __device__ int scaled(float* r, float x) {{ *r = {factor}.0f * x; return 0; }}\n')

        @cuda.jit(link=[str(path)])
        def k(x, out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = scaled(x[i])

        out = simt.zeros(50, simt.float32)
        k[1, 64](simt.asarray(x), out)
        np.testing.assert_array_equal(out.get(), np.float32(factor) * x)


def test_linked_macros_and_kernel_names_stay_apart(rng, tmp_path):
    # The file's macro N and the kernel's local N, and a local named like the C function.
    path = tmp_path / "macros.cu"
    path.write_text('#define N 64\n#define SCALE(x) ((x) * N)\n'
                    'extern "C" __device__ int times_n(float* r, float x) { *r = SCALE(x); return 0; }\n')
    f = cuda.declare_device("times_n", "float32(float32)")

    @cuda.jit(link=[str(path)])
    def k(x, out):
        N = x.size
        i = cuda.grid(1)
        if i < N:
            times_n = f(x[i])
            out[i] = times_n

    x = rng.standard_normal(100).astype(np.float32)
    out = simt.zeros(100, simt.float32)
    k[1, 128](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), x * np.float32(64))


def test_linked_files_include_their_neighbours(rng, tmp_path):
    (tmp_path / "helper.cuh").write_text('extern "C" __device__ int cube(double* r, double x) { *r = x * x * x; return 0; }\n')
    (tmp_path / "wrap.cu").write_text('#include "helper.cuh"\n')
    cube = cuda.declare_device("cube", "float64(float64)", link=[str(tmp_path / "wrap.cu")])

    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = cube(x[i])

    x = rng.standard_normal(70)
    out = simt.zeros(70)
    k[1, 96](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), x * x * x)


def test_included_files_are_part_of_the_cache_key(rng, tmp_path):
    # The included file rewritten between two compiles, the linked file unchanged: had the key
    # missed what it includes, the second kernel would be the first one found again (in memory
    # or in the disk cache).
    (tmp_path / "wrap.cu").write_text('#include "helper.cuh"\n')
    x = rng.standard_normal(40)
    for factor in (2, 5):
        (tmp_path / "helper.cuh").write_text(
            f'extern "C" __device__ int times_k(double* r, double x) {{ *r = {factor} * x; return 0; }}\n')
        times_k = cuda.declare_device("times_k", "float64(float64)", link=[str(tmp_path / "wrap.cu")])

        @cuda.jit
        def k(x, out):
            i = cuda.grid(1)
            if i < out.size:
                out[i] = times_k(x[i])

        out = simt.zeros(40)
        k[1, 64](simt.asarray(x), out)
        np.testing.assert_array_equal(out.get(), factor * x)


# ---- errors ------------------------------------------------------------------------------------

@pytest.mark.parametrize("sig,message", [
    ("float32(float32[:])", r"is an array: declare CPointer\(float32\)"),
    ("complex64(float32)", r"return type complex64 cannot be passed"),
    ("float32 float32", r"must read 'return_type\(argument types\)'"),
    ("(float32)", r"names no return type"),
    ("float32(float32, )", r"an argument type is missing"),
])
def test_bad_signatures_are_rejected_when_declared(sig, message):
    with pytest.raises(TypeError, match=message):
        cuda.declare_device("f", sig)


def test_bad_declarations_name_what_is_wrong():
    with pytest.raises(TypeError, match="must be a C identifier"):
        cuda.declare_device("not a name", "float32(float32)")
    with pytest.raises(TypeError, match="takes a list of files"):
        cuda.declare_device("f", "float32(float32)", link="functions.cu")
    with pytest.raises(TypeError, match="takes a list of files"):
        cuda.jit(link="functions.cu")
    with pytest.raises(TypeError, match="call it from a kernel"):
        mul_f32(1.0, 2.0)
    with pytest.raises(TypeError, match=r"device=True, link=\[...\]\): a device function links nothing itself"):
        cuda.jit(device=True, link=["functions.cu"])


def test_wrong_calls_are_typing_errors(functions_cu):
    @cuda.jit(link=[functions_cu])
    def too_many(out):
        out[0] = mul_f32(1.0, 2.0, 3.0)

    @cuda.jit(link=[functions_cu])
    def wrong_pointee(rows, out):
        out[0] = row_sum(rows, 3)

    @cuda.jit(link=[functions_cu])
    def scalar_for_pointer(out):
        out[0] = row_sum(1.0, 3)

    @cuda.jit(link=[functions_cu])
    def column_for_pointer(rows, out):
        out[0] = row_sum(rows[:, 1], rows.shape[0])

    out = simt.zeros(1, simt.float64)
    with pytest.raises(cuda.TypingError, match=r"mul_f32\(\) .* takes 2 arguments but 3 were given"):
        too_many[1, 1](out)
    with pytest.raises(cuda.TypingError, match="points to float32, but the array holds float64"):
        wrong_pointee[1, 1](simt.zeros(3, simt.float64), out)
    with pytest.raises(cuda.TypingError, match="is a pointer: pass an array"):
        scalar_for_pointer[1, 1](out)
    with pytest.raises(cuda.TypingError, match="may not be contiguous"):
        column_for_pointer[1, 1](simt.zeros((3, 4), simt.float32), out)


def test_missing_definitions_and_files_are_compiler_errors(tmp_path, functions_cu):
    elsewhere = cuda.declare_device("defined_nowhere", "float32(float32)")

    @cuda.jit(link=[functions_cu])
    def not_in_the_file(out):
        out[0] = elsewhere(1.0)

    @cuda.jit
    def nothing_linked(out):
        out[0] = mul_f32(1.0, 2.0)

    ptx = tmp_path / "f.ptx"
    ptx.write_text("// PTX\n")

    @cuda.jit(link=[str(ptx)])
    def links_ptx(out):
        out[0] = mul_f32(1.0, 2.0)

    @cuda.jit(link=[str(tmp_path / "missing.cu")])
    def links_a_missing_file(out):
        out[0] = mul_f32(1.0, 2.0)

    out = simt.zeros(1, simt.float32)
    with pytest.raises(cuda.CompilerError, match=r"none of the files it links \('.*functions\.cu'\) defines it"):
        not_in_the_file[1, 1](out)
    with pytest.raises(cuda.CompilerError, match=r"links no CUDA C\+\+"):
        nothing_linked[1, 1](out)
    with pytest.raises(cuda.CompilerError, match=r"\.ptx files cannot be linked"):
        links_ptx[1, 1](out)
    with pytest.raises(cuda.CompilerError, match="missing.cu'.*cannot read the file"):
        links_a_missing_file[1, 1](out)


def test_an_error_in_linked_code_names_its_file_and_line(tmp_path):
    path = tmp_path / "broken.cu"
    path.write_text('extern "C" __device__ int broken(float* r, float x) {\n    *r = x * undefined_name;\n    return 0;\n}\n')
    broken = cuda.declare_device("broken", "float32(float32)", link=[str(path)])

    @cuda.jit
    def k(out):
        out[0] = broken(1.0)

    with pytest.raises(cuda.CompilerError, match=r"broken\.cu.*2"):
        k[1, 1](simt.zeros(1, simt.float32))


def test_a_numba_program_declares_and_links_under_compat(tmp_path):
    (tmp_path / "functions.cu").write_text(FUNCTIONS_CU)
    script = tmp_path / "numba_ffi.py"
    script.write_text(textwrap.dedent("""
        import os
        import numpy as np
        from numba import cuda

        mul = cuda.declare_device("mul_f32", "float32(float32, float32)")
        here = os.path.dirname(os.path.abspath(__file__))

        @cuda.jit(link=[os.path.join(here, "functions.cu")])
        def multiply(r, x, y):
            i = cuda.grid(1)
            if i < len(r):
                r[i] = mul(x[i], y[i])

        x = np.arange(10, dtype=np.float32)
        y = x + 1
        r = cuda.device_array_like(x)
        multiply[1, 32](r, cuda.to_device(x), cuda.to_device(y))
        np.testing.assert_array_equal(r.copy_to_host(), x * y)
        print("linked ok")
    """))
    done = subprocess.run([sys.executable, "-m", "simt.compat", str(script)], capture_output=True, text=True,
                          env=dict(os.environ), timeout=600)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "linked ok"
