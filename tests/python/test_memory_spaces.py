"""cuda.shared.array (static and dynamic), cuda.local.array and cuda.const.array_like, compared
with NumPy on fresh random data, and the errors for bad shapes, dtypes and sizes."""
import numpy as np
import pytest

import simt
from simt import cuda

TPB = 64
CONST_TABLE = np.random.default_rng(7).standard_normal(37)


def test_shared_array_reverses_each_block(rng):
    @cuda.jit
    def reverse_blocks(x, out):
        s = cuda.shared.array(TPB, np.float32)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        s[t] = x[i]
        cuda.syncthreads()
        out[i] = s[TPB - 1 - t]

    x = rng.standard_normal(TPB * 9).astype(np.float32)
    out = simt.zeros_like(simt.asarray(x))
    reverse_blocks[9, TPB](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), x.reshape(9, TPB)[:, ::-1].ravel())


@pytest.mark.parametrize("dtype_spelling", ["np.int32", "simt.int32", "'int32'", "'i4'"])
def test_shared_array_dtype_spellings(rng, dtype_spelling, kernel_module):
    mod = kernel_module(f"""import numpy as np
import simt
from simt import cuda

@cuda.jit
def k(x, out):
    s = cuda.shared.array((4, 8), {dtype_spelling})
    t = cuda.threadIdx.x
    s[t // 8, t % 8] = x[t] * 2
    cuda.syncthreads()
    out[t] = s[3 - t // 8, 7 - t % 8]
""")
    x = rng.integers(-1000, 1000, 32).astype(np.int32)
    out = simt.zeros(32, dtype=np.int32)
    mod.k[1, 32](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), (x * 2)[::-1])


def test_two_shared_arrays_do_not_overlap(rng):
    @cuda.jit
    def k(a, b, out):
        sa = cuda.shared.array(32, np.float64)
        sb = cuda.shared.array((2, 16), np.int16)
        t = cuda.threadIdx.x
        sa[t] = a[t]
        sb[t // 16, t % 16] = b[t]
        cuda.syncthreads()
        out[t] = sa[31 - t] + sb[(31 - t) // 16, (31 - t) % 16]

    a = rng.standard_normal(32)
    b = rng.integers(-300, 300, 32).astype(np.int16)
    out = simt.zeros(32)
    k[1, 32](simt.asarray(a), simt.asarray(b), out)
    np.testing.assert_allclose(out.get(), a[::-1] + b[::-1])


def test_dynamic_shared_memory_sized_at_launch(rng):
    @cuda.jit
    def rotate(x, out):
        s = cuda.shared.array(0, np.float64)
        t = cuda.threadIdx.x
        n = cuda.blockDim.x
        s[t] = x[cuda.grid(1)]
        cuda.syncthreads()
        out[cuda.grid(1)] = s[(t + 1) % n] + s.size

    for threads in (32, 96):
        x = rng.standard_normal(threads * 3)
        out = simt.zeros(threads * 3)
        rotate[3, threads, 0, threads * 8](simt.asarray(x), out)
        expected = np.roll(x.reshape(3, threads), -1, axis=1).ravel() + threads
        np.testing.assert_allclose(out.get(), expected)


def test_dynamic_and_static_shared_memory_together(rng):
    @cuda.jit
    def k(x, out):
        fixed = cuda.shared.array(16, np.int32)
        dyn = cuda.shared.array(0, np.float32)
        t = cuda.threadIdx.x
        fixed[t] = t * 10
        dyn[t] = x[t]
        cuda.syncthreads()
        out[t] = dyn[15 - t] + fixed[15 - t]

    x = rng.standard_normal(16).astype(np.float32)
    out = simt.zeros(16, dtype=np.float32)
    k[1, 16, 0, 16 * 4](simt.asarray(x), out)
    np.testing.assert_allclose(out.get(), x[::-1] + np.arange(15, -1, -1) * 10)


def test_local_array_per_thread(rng):
    @cuda.jit
    def running_max(x, out):
        i = cuda.grid(1)
        if i >= out.shape[0]:
            return
        buf = cuda.local.array(8, np.float64)
        for k in range(8):
            buf[k] = x[i, k]
        for k in range(1, 8):
            if buf[k - 1] > buf[k]:
                buf[k] = buf[k - 1]
        for k in range(8):
            out[i, k] = buf[k]

    x = rng.standard_normal((300, 8))
    out = simt.zeros((300, 8))
    running_max[3, 128](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), np.maximum.accumulate(x, axis=1))


def test_local_array_sized_by_locals_holding_constants(rng):
    # numba types these through constant propagation; simt counts a local assigned once, by a
    # top-level statement, from a constant as that constant.
    @cuda.jit
    def window_sums(x, out):
        width = 4
        rows, cols = 2, width * 2
        buf = cuda.local.array((rows, cols), np.float64)
        i = cuda.grid(1)
        if i >= out.size:
            return
        for r in range(rows):
            for c in range(cols):
                buf[r, c] = x[i, r * cols + c]
        total = 0.0
        for r in range(rows):
            for c in range(width):
                total += buf[r, c]
        out[i] = total

    x = rng.standard_normal((50, 16))
    out = simt.zeros(50)
    window_sums[1, 64](simt.asarray(x), out)
    np.testing.assert_allclose(out.get(), x[:, 0:4].sum(axis=1) + x[:, 8:12].sum(axis=1), rtol=1e-12)


def test_local_array_sized_by_a_reassigned_local_is_refused():
    @cuda.jit
    def k(out):
        n = 4
        n = n + 1
        buf = cuda.local.array(n, np.float64)
        buf[0] = 1.0
        out[0] = buf[0]

    with pytest.raises(cuda.TypingError, match="shape must be a constant integer"):
        k[1, 1](simt.zeros(1))


def test_local_array_2d_in_device_function(rng):
    @cuda.jit(device=True)
    def transpose_sum(a, i):
        m = cuda.local.array((3, 4), np.int64)
        for r in range(3):
            for c in range(4):
                m[r, c] = a[i, r * 4 + c]
        s = 0
        for c in range(4):
            for r in range(3):
                s = s * 3 + m[r, c]
        return s

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = transpose_sum(a, i)

    a = rng.integers(0, 3, (50, 12))
    out = simt.zeros(50, dtype=np.int64)
    k[1, 64](simt.asarray(a), out)
    expected = np.zeros(50, dtype=np.int64)
    for c in range(4):
        for r in range(3):
            expected = expected * 3 + a[:, r * 4 + c]
    np.testing.assert_array_equal(out.get(), expected)


def test_const_array_like_and_global_array(rng):
    table = CONST_TABLE

    @cuda.jit
    def lookup(idx, out):
        i = cuda.grid(1)
        if i < idx.size:
            c = cuda.const.array_like(table)
            out[i] = c[idx[i]] + CONST_TABLE[idx[i]] * 2

    idx = rng.integers(0, 37, 500)
    out = simt.zeros(500)
    lookup[4, 128](simt.asarray(idx), out)
    np.testing.assert_allclose(out.get(), CONST_TABLE[idx] * 3)


def test_const_array_2d_int_values_frozen_at_compile_time(rng):
    grid_values = rng.integers(-100, 100, (5, 7)).astype(np.int16)
    frozen = grid_values.copy()

    @cuda.jit
    def read(out):
        r, c = cuda.grid(2)
        if r < 5 and c < 7:
            out[r, c] = grid_values[r, c] + grid_values.shape[1]

    out = simt.zeros((5, 7), dtype=np.int64)
    read[(1, 1), (8, 8)](out)
    grid_values[:] = 0  # the kernel was compiled with the old contents
    read[(1, 1), (8, 8)](out)
    np.testing.assert_array_equal(out.get(), frozen.astype(np.int64) + 7)


def test_const_array_is_read_only():
    table = np.arange(4.0)

    @cuda.jit
    def k(out):
        table[0] = 1.0

    with pytest.raises(cuda.TypingError, match="read-only"):
        k[1, 1](simt.zeros(1))


def test_const_array_like_needs_a_host_array():
    @cuda.jit
    def k(a):
        c = cuda.const.array_like(a)
        a[0] = c[0]

    with pytest.raises(cuda.TypingError, match="NumPy array defined outside the kernel"):
        k[1, 1](simt.zeros(3))


def test_const_array_too_large_for_constant_memory():
    big = np.zeros(9000)

    @cuda.jit
    def k(out):
        out[0] = big[3]

    with pytest.raises(cuda.TypingError, match="too large for constant memory"):
        k[1, 1](simt.zeros(1))


@pytest.mark.parametrize("shape, message", [
    ("n", "shape must be a constant integer"),
    ("(4, n)", "shape must be a constant integer"),
    ("-3", "cannot be negative"),
    ("(4, 0)", "zero extent"),
    ("2.5", "shape must be a constant integer"),
])
def test_shared_array_bad_shape_has_caret(shape, message, kernel_module):
    mod = kernel_module("import numpy as np\nfrom simt import cuda\n\n@cuda.jit\ndef k(out, n):\n"
                        f"    s = cuda.shared.array({shape}, np.float32)\n    out[0] = s[0]\n", "bad_shape")
    with pytest.raises(cuda.TypingError, match=message) as info:
        mod.k[1, 1](simt.zeros(1, dtype=np.float32), 4)
    assert 'bad_shape.py", line 6' in str(info.value) and "^" in str(info.value)


@pytest.mark.parametrize("dtype, message", [
    ("np.float32(1)", "dtype must be a NumPy scalar type"),
    ("'floaty'", "is not the name of a scalar type"),
    ("out", "dtype must be a NumPy scalar type"),
])
def test_local_array_bad_dtype_has_caret(dtype, message, kernel_module):
    mod = kernel_module("import numpy as np\nfrom simt import cuda\n\n@cuda.jit\ndef k(out):\n"
                        f"    s = cuda.local.array(4, {dtype})\n    out[0] = s[0]\n", "bad_dtype")
    with pytest.raises(cuda.TypingError, match=message) as info:
        mod.k[1, 1](simt.zeros(1, dtype=np.float32))
    assert 'bad_dtype.py", line 6' in str(info.value) and "^" in str(info.value)


def test_static_shared_memory_over_the_limit_fails_to_compile():
    @cuda.jit
    def too_big(out):
        s = cuda.shared.array(7000, np.float64)  # 56000 bytes > 48 KiB
        s[cuda.threadIdx.x] = 1.0
        out[0] = s[0]

    # The GPU's ptxas rejects this kernel, so every backend rejects it when compiling.
    with pytest.raises(cuda.TypingError, match=r"reaches 56000 bytes; a block can have at most 49152 bytes") as info:
        too_big[1, 32](simt.zeros(1))
    assert "cuda.shared.array(7000, np.float64)" in str(info.value) and "^" in str(info.value)


def test_static_plus_dynamic_shared_memory_over_the_limit():
    @cuda.jit
    def k(out):
        s = cuda.shared.array(4096, np.float64)  # 32 KiB
        d = cuda.shared.array(0, np.float64)
        s[0] = 1.0
        out[0] = s[0] + d.size

    out = simt.zeros(1)
    k[1, 1, 0, 16 * 1024](out)  # exactly 48 KiB: allowed
    np.testing.assert_array_equal(out.get(), [1.0 + 2048])
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        k[1, 1, 0, 16 * 1024 + 8](out)


def test_shared_memory_without_barriers_runs_the_plain_loop(rng):
    # Threads of a block are independent here, so no fibers are needed; shared memory still works.
    @cuda.jit
    def k(x, out):
        s = cuda.shared.array(64, np.float64)
        t = cuda.threadIdx.x
        s[t] = x[cuda.grid(1)] * 3
        out[cuda.grid(1)] = s[t]

    x = rng.standard_normal(256)
    out = simt.zeros(256)
    k[4, 64](simt.asarray(x), out)
    np.testing.assert_allclose(out.get(), x * 3)
    if simt.backend() == "cpu":  # the cuda backend has no runner: blocks are the hardware's
        assert "simt_run_blocks(" in list(k.inspect_source().values())[0]


def test_shared_array_out_of_range_is_masked_and_checked(rng):
    @cuda.jit
    def masked(out):
        s = cuda.shared.array(8, np.int32)
        t = cuda.threadIdx.x
        s[t] = t + 1       # threads 8..15 write out of range: dropped
        cuda.syncthreads()
        out[t] = s[t]      # ... and read 0

    out = simt.zeros(16, dtype=np.int32)
    masked[1, 16](out)
    np.testing.assert_array_equal(out.get(), np.r_[np.arange(1, 9), np.zeros(8)])

    @cuda.jit(boundscheck=True)
    def checked(out):
        s = cuda.shared.array(8, np.int32)
        s[cuda.threadIdx.x] = 1
        out[0] = s[0]

    with pytest.raises(IndexError, match="out of bounds for axis 0 with size 8"):
        checked[1, 16](out)
        simt.synchronize()


@cuda.jit
def _reverse_through_half_and_complex_shared(a, out):
    s = cuda.shared.array(64, np.float16)
    c = cuda.shared.array((4, 16), np.complex64)
    t = cuda.threadIdx.x
    s[t] = a[t]
    c[t // 16, t % 16] = complex(a[t], t)
    cuda.syncthreads()
    out[t] = s[63 - t] + np.float16(c[(63 - t) // 16, (63 - t) % 16].imag)


def test_shared_arrays_of_types_with_constructors(rng):
    # float16 and complex elements have C++ constructors, which a __shared__ variable may not have:
    # the cuda backend declares such storage as bytes (NVRTC rejected it before).
    h = rng.standard_normal(64).astype(np.float16)
    out = simt.zeros(64, np.float16)
    _reverse_through_half_and_complex_shared[1, 64](simt.asarray(h), out)
    np.testing.assert_array_equal(out.get(), h[::-1] + np.arange(64)[::-1].astype(np.float16))
