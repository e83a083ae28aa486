"""Grid barriers (numba's cuda.cg: this_grid().sync()) on both backends: kernels that exchange data
between blocks across the barrier, against NumPy on fresh random data; the cooperative launch's
block limit (max_cooperative_grid_blocks, CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE); and, on the
cpu backend, the diagnosis of a barrier part of the grid skips (sema/builtins_cg.cpp,
backend/cpu/kernel_runtime.cpp run_grid, the cuda backend's cooperative launch)."""
import numpy as np
import pytest

import simt
from simt import cuda

ON_CPU = simt.backend() == "cpu"


@cuda.jit
def rotate_across_blocks(x, out, shift):
    # Each value moves `shift` places: most come from another block, written before the barrier.
    i = cuda.grid(1)
    n = out.size
    g = cuda.cg.this_grid()
    if i < n:
        out[i] = x[i] * 2.0
    g.sync()
    v = 0.0
    if i < n:
        v = out[(i + shift) % n]
    g.sync()
    if i < n:
        out[i] = v + 1.0


def test_values_written_before_the_barrier_are_read_by_other_blocks(rng):
    n = int(rng.integers(300, 2000))
    shift = int(rng.integers(1, n))
    x = rng.standard_normal(n)
    out = simt.zeros(n)
    blocks = (n + 127) // 128
    rotate_across_blocks.compile_for(simt.asarray(x), out, shift)
    assert blocks <= rotate_across_blocks.max_cooperative_grid_blocks(128)
    rotate_across_blocks[blocks, 128](simt.asarray(x), out, shift)
    np.testing.assert_array_equal(out.get(), np.roll(x * 2.0, -shift) + 1.0)


@cuda.jit(device=True)
def wait_for_grid():
    cuda.cg.this_grid().sync()


@cuda.jit
def smooth_and_sum(a, b, partial, total, rounds):
    # Rounds of a 3-point average between two buffers (a grid barrier after each), then a sum:
    # block sums in shared memory, a barrier, and block 0 adds the blocks' sums.
    i = cuda.grid(1)
    n = a.size
    for _ in range(rounds):
        if i < n:
            b[i] = (a[(i + n - 1) % n] + a[i] + a[(i + 1) % n]) / 3.0
        wait_for_grid()  # (from a device function)
        if i < n:
            a[i] = b[i]
        cuda.cg.this_grid().sync()
    s = cuda.shared.array(64, dtype=np.float64)
    t = cuda.threadIdx.x
    s[t] = a[i] if i < n else 0.0
    cuda.syncthreads()
    step = 32
    while step > 0:
        if t < step:
            s[t] += s[t + step]
        cuda.syncthreads()
        step //= 2
    if t == 0:
        partial[cuda.blockIdx.x] = s[0]
    cuda.cg.this_grid().sync()
    if i == 0:
        acc = 0.0
        for k in range(partial.size):
            acc += partial[k]
        total[0] = acc


def test_rounds_of_a_stencil_and_a_grid_wide_sum(rng):
    n = int(rng.integers(100, 600))
    rounds = int(rng.integers(1, 6))
    x = rng.standard_normal(n)
    a, b = simt.asarray(x), simt.zeros(n)
    blocks = (n + 63) // 64
    partial, total = simt.zeros(blocks), simt.zeros(1)
    smooth_and_sum[blocks, 64](a, b, partial, total, rounds)
    expected = x.copy()
    for _ in range(rounds):
        expected = (np.roll(expected, 1) + expected + np.roll(expected, -1)) / 3.0
    np.testing.assert_allclose(a.get(), expected, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(total.get()[0], expected.sum(), rtol=1e-10, atol=1e-10)


def test_the_cooperative_block_limit():
    out = simt.zeros(10)
    rotate_across_blocks.compile_for(out, out, 1)
    limit = rotate_across_blocks.max_cooperative_grid_blocks(256)
    assert limit >= 1
    assert rotate_across_blocks.max_cooperative_grid_blocks((16, 16)) == limit
    (overload,) = rotate_across_blocks.overloads.values()
    assert overload.max_cooperative_grid_blocks(256) == limit
    from simt.cuda.numba_types import float64, int64, void
    for spelling in ((float64[::1], float64[::1], int64), void(float64[::1], float64[::1], int64),
                     "void(float64[::1], float64[::1], int64)"):  # (numba's ways to name the specialization)
        assert rotate_across_blocks.overloads[spelling].max_cooperative_grid_blocks(256) == limit
        assert rotate_across_blocks.max_cooperative_grid_blocks(256, signature=spelling) == limit
    assert (float64[:], float64[:], int64) not in rotate_across_blocks.overloads
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        rotate_across_blocks.max_cooperative_grid_blocks(2048)
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"):
        rotate_across_blocks[limit + 1, 256](out, out, 1)
        cuda.synchronize()
    rotate_across_blocks[limit, 256](out, out, 1)  # (the limit itself launches)
    cuda.synchronize()


def test_grid_barrier_kernels_take_the_cuda_cpp_path_and_the_stub_is_kernel_only():
    assert "cuda.cg grid sync" in "".join(rotate_across_blocks.inspect_llvm().values())
    with pytest.raises(RuntimeError, match="inside a @cuda.jit kernel"):
        cuda.cg.this_grid()


@cuda.jit
def some_threads_return_first(out):
    i = cuda.grid(1)
    if i >= out.size:
        return
    cuda.cg.this_grid().sync()
    out[i] = 1.0


@cuda.jit
def one_block_returns_first(out):
    if cuda.blockIdx.x == 1:
        return
    cuda.cg.this_grid().sync()
    out[cuda.grid(1)] = 1.0


@pytest.mark.skipif(not ON_CPU, reason="cpu-backend diagnosis of a grid barrier part of the grid skips (on a GPU it hangs)")
def test_a_grid_barrier_that_part_of_the_grid_skips_is_named():
    with pytest.raises(RuntimeError, match=r"this_grid\(\)\.sync\(\) at .*test_cooperative_groups\.py:\d+ was reached by "
                                           r"only 8 of the 64 threads of block \(3, 0, 0\)"):
        some_threads_return_first[4, 64](simt.zeros(200))
        cuda.synchronize()
    with pytest.raises(RuntimeError, match=r"one_block_returns_first': 2 of the grid's 3 blocks wait at a grid barrier"):
        one_block_returns_first[3, 32](simt.zeros(96))
        cuda.synchronize()
