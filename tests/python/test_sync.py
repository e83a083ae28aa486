"""Block and warp synchronization: syncthreads (and its count/and/or forms), syncwarp, fences,
barriers inside loops and device functions, and the clear errors for barriers or warp
operations that only part of a block reaches."""
import numpy as np
import pytest

import simt
from simt import cuda


@pytest.mark.parametrize("block", [1, 31, 64, 200, 1024])
def test_syncthreads_count_and_or(rng, block):
    @cuda.jit
    def votes(x, out):
        t = cuda.threadIdx.x
        p = x[cuda.grid(1)] > 0
        c = cuda.syncthreads_count(p)
        a = cuda.syncthreads_and(p)
        o = cuda.syncthreads_or(x[cuda.grid(1)] > 100)
        out[cuda.grid(1), 0] = c
        out[cuda.grid(1), 1] = a
        out[cuda.grid(1), 2] = o

    x = rng.standard_normal(block * 3)
    x[:block] = np.abs(x[:block]) + 1  # block 0: every predicate true
    out = simt.zeros((block * 3, 3), dtype=np.int32)
    votes[3, block](simt.asarray(x), out)
    got = out.get().reshape(3, block, 3)
    for b in range(3):
        p = x[b * block:(b + 1) * block] > 0
        np.testing.assert_array_equal(got[b, :, 0], p.sum())
        np.testing.assert_array_equal(got[b, :, 1], int(p.all()))
        np.testing.assert_array_equal(got[b, :, 2], 0)


def test_barrier_in_device_function_and_multidimensional_block(rng):
    @cuda.jit(device=True)
    def exchange(s, value, tx, ty):
        s[ty, tx] = value
        cuda.syncthreads()
        r = s[tx, ty]
        cuda.syncthreads()
        return r

    @cuda.jit
    def transpose_tiles(a, out):
        s = cuda.shared.array((8, 8), np.float64)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        bx, by = cuda.blockIdx.x, cuda.blockIdx.y
        v = exchange(s, a[by * 8 + ty, bx * 8 + tx], tx, ty)
        out[by * 8 + ty, bx * 8 + tx] = v

    a = rng.standard_normal((16, 24))
    out = simt.zeros((16, 24))
    transpose_tiles[(3, 2), (8, 8)](simt.asarray(a), out)
    expected = a.reshape(2, 8, 3, 8).transpose(0, 2, 3, 1).transpose(0, 2, 1, 3).reshape(16, 24)
    np.testing.assert_array_equal(out.get(), expected)


def test_syncwarp_and_fences(rng):
    @cuda.jit
    def warp_exchange(x, out):
        s = cuda.shared.array(64, np.float32)
        t = cuda.threadIdx.x
        s[t] = x[t]
        cuda.threadfence_block()
        cuda.syncwarp()
        v = s[t ^ 1]
        cuda.syncwarp(0xffffffff)
        cuda.threadfence()
        cuda.threadfence_system()
        out[t] = v

    x = rng.standard_normal(64).astype(np.float32)
    out = simt.zeros(64, dtype=np.float32)
    warp_exchange[1, 64](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), x.reshape(32, 2)[:, ::-1].ravel())


def test_syncwarp_with_partial_mask(rng):
    @cuda.jit
    def halves(x, out):
        s = cuda.shared.array(32, np.int32)
        lane = cuda.laneid
        s[lane] = x[lane]
        if lane < 16:
            cuda.syncwarp(0x0000ffff)
            out[lane] = s[15 - lane]
        else:
            cuda.syncwarp(0xffff0000)
            out[lane] = s[47 - lane]

    x = rng.integers(0, 1000, 32).astype(np.int32)
    out = simt.zeros(32, dtype=np.int32)
    halves[1, 32](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), np.r_[x[:16][::-1], x[16:][::-1]])


def test_threads_that_return_after_the_last_barrier_are_fine(rng):
    @cuda.jit
    def k(x, out):
        s = cuda.shared.array(64, np.float64)
        t = cuda.threadIdx.x
        s[t] = x[t]
        cuda.syncthreads()
        if t % 2:
            return
        out[t] = s[63 - t]

    x = rng.standard_normal(64)
    out = simt.zeros(64)
    k[1, 64](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get()[::2], x[::-1][::2])


# What CUDA leaves undefined (a barrier or warp operation only part of the threads reach) the
# cpu backend diagnoses; on a GPU the same kernels can hang, so these run on the cpu backend only.
cpu_diagnosis = pytest.mark.skipif(simt.backend() != "cpu",
                                   reason="cpu-backend diagnosis of behaviour CUDA leaves undefined (can hang a GPU)")


def error_of(kernel, *config_and_args):
    config, args = config_and_args[0], config_and_args[1:]
    with pytest.raises(RuntimeError) as info:
        kernel[config](*args)
        simt.synchronize()
    return str(info.value)


@cpu_diagnosis
def test_barrier_reached_by_part_of_the_block_is_an_error():
    @cuda.jit
    def early_return(out):
        i = cuda.grid(1)
        if i >= 40:
            return
        cuda.syncthreads()
        out[i] = 1

    text = error_of(early_return, (1, 64), simt.zeros(64))
    assert "kernel 'early_return'" in text
    assert "cuda.syncthreads() at" in text and "test_sync.py:" in text
    assert "reached by only 40 of the 64 threads of block (0, 0, 0)" in text
    # the device stays usable afterwards
    out = simt.full(3, 2.0)
    np.testing.assert_array_equal(out.get(), [2, 2, 2])


@cpu_diagnosis
def test_barrier_in_divergent_loop_is_an_error():
    @cuda.jit
    def divergent(out):
        t = cuda.threadIdx.x
        for _ in range(t % 3):
            cuda.syncthreads()
        out[t] = t

    text = error_of(divergent, (2, 32), simt.zeros(32))
    assert "kernel 'divergent'" in text and "cuda.syncthreads() at" in text


@cpu_diagnosis
def test_warp_operation_waiting_for_returned_lanes_is_an_error():
    @cuda.jit
    def missing_lanes(x, out):
        i = cuda.grid(1)
        if i >= 20:
            return
        out[i] = cuda.shfl_down_sync(0xffffffff, x[i], 1)

    text = error_of(missing_lanes, (1, 32), simt.zeros(32), simt.zeros(32))
    assert "kernel 'missing_lanes'" in text and "cuda.shfl_down_sync() at" in text
    assert "20-31" in text


@cpu_diagnosis
def test_warp_mask_without_the_calling_lane_is_an_error():
    @cuda.jit
    def wrong_mask(out):
        out[cuda.laneid] = cuda.ballot_sync(0x1, True)

    text = error_of(wrong_mask, (1, 32), simt.zeros(32, dtype=np.int32))
    assert "does not include the calling thread (lane 1" in text


@cpu_diagnosis
def test_deadlock_between_barrier_and_warp_operation_is_an_error():
    @cuda.jit
    def mixed(out):
        lane = cuda.laneid
        if lane < 16:
            out[lane] = cuda.shfl_sync(0xffffffff, lane, 0)
        cuda.syncthreads()

    text = error_of(mixed, (1, 32), simt.zeros(32))
    assert "cannot finish" in text and "cuda.shfl_sync() at" in text and "cuda.syncthreads() at" in text


def test_large_local_arrays_fit_the_fiber_stacks(rng):
    # Fiber stacks grow with the kernel's local arrays (here 64 KiB per thread).
    @cuda.jit(device=True)
    def reverse_through_buffer(a, t):
        buf = cuda.local.array(8192, np.float64)
        for k in range(8192):
            buf[k] = a[(k + t) % 8192]
        return buf[8191 - t]

    @cuda.jit
    def k(a, out):
        t = cuda.threadIdx.x
        cuda.syncthreads()
        out[t] = reverse_through_buffer(a, t)

    a = rng.standard_normal(8192)
    out = simt.zeros(8)
    k[1, 8](simt.asarray(a), out)
    np.testing.assert_array_equal(out.get(), [a[(8191 - t + t) % 8192] for t in range(8)])


def test_sync_functions_reject_bad_arguments():
    @cuda.jit
    def k(out):
        out[0] = cuda.syncthreads_count(1.5j)

    with pytest.raises(cuda.TypingError, match="predicate must be an integer or a boolean"):
        k[1, 1](simt.zeros(1))


# ---- the two ways the cpu backend runs kernels with barriers -------------------------------------
# Region mode: barriers only as syncthreads() statements of the kernel, inside if/while/for-range;
# the code between barriers runs as loops over the block's threads. Otherwise: one fiber per thread.

def cpu_mode(kernel):
    source = list(kernel.inspect_source().values())[0]
    if "simt_run_blocks_regions" in source:
        return "regions"
    return "fibers" if "simt_run_blocks_fibers" in source else "plain"


def check_cpu_mode(kernel, mode):
    """The cpu backend's way of running the kernel (on the cuda backend blocks are hardware's)."""
    if simt.backend() == "cpu":
        assert cpu_mode(kernel) == mode


@cuda.jit
def scan_regions(x, out):
    s = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    s[t] = x[cuda.grid(1)]
    cuda.syncthreads()
    offset = 1
    while offset < 64:
        v = s[t - offset] if t >= offset else 0
        cuda.syncthreads()
        s[t] += v
        cuda.syncthreads()
        offset *= 2
    out[cuda.grid(1)] = s[t]


@cuda.jit
def scan_fibers(x, out):
    s = cuda.shared.array(64, np.int64)
    t = cuda.threadIdx.x
    s[t] = x[cuda.grid(1)]
    cuda.syncthreads_count(True)  # a barrier whose result is unused: runs as fibers
    offset = 1
    while offset < 64:
        v = s[t - offset] if t >= offset else 0
        cuda.syncthreads_count(True)
        s[t] += v
        cuda.syncthreads_count(True)
        offset *= 2
    out[cuda.grid(1)] = s[t]


def test_region_and_fiber_modes_agree(rng):
    x = rng.integers(-1000, 1000, 64 * 6)
    results = []
    for kernel, mode in ((scan_regions, "regions"), (scan_fibers, "fibers")):
        out = simt.zeros(x.size, dtype=np.int64)
        kernel[6, 64](simt.asarray(x), out)
        check_cpu_mode(kernel, mode)
        results.append(out.get())
    expected = np.cumsum(x.reshape(6, 64), axis=1).ravel()
    np.testing.assert_array_equal(results[0], expected)
    np.testing.assert_array_equal(results[1], expected)


def test_region_mode_loops_returns_and_loop_variable(rng):
    @cuda.jit
    def k(x, rounds, out):
        s = cuda.shared.array(32, np.float64)
        t = cuda.threadIdx.x
        acc = 0.0
        for r in range(1, rounds + 1):
            s[t] = x[t] * r
            cuda.syncthreads()
            acc += s[31 - t]
            cuda.syncthreads()
        if t >= 16:
            for k in range(3):
                if k == 1:
                    return  # threads 16..31 stop after the last barrier
        out[t] = acc + r

    x = rng.standard_normal(32)
    out = simt.zeros(32)
    k[1, 32](simt.asarray(x), 4, out)
    check_cpu_mode(k, "regions")
    expected = x[::-1] * (1 + 2 + 3 + 4) + 4
    np.testing.assert_allclose(out.get()[:16], expected[:16])
    np.testing.assert_array_equal(out.get()[16:], 0)


def test_loop_left_by_break_runs_as_fibers(rng):
    @cuda.jit
    def k(x, out):
        s = cuda.shared.array(32, np.float64)
        t = cuda.threadIdx.x
        total = 0.0
        for r in range(10):
            if r == 3:
                break
            s[t] = x[t] + r
            cuda.syncthreads()
            total += s[(t + 1) % 32]
            cuda.syncthreads()
        out[t] = total

    x = rng.standard_normal(32)
    out = simt.zeros(32)
    k[1, 32](simt.asarray(x), out)
    check_cpu_mode(k, "fibers")
    np.testing.assert_allclose(out.get(), 3 * np.roll(x, -1) + 3)


@cpu_diagnosis
def test_region_mode_divergent_condition_is_an_error():
    @cuda.jit
    def divergent_if(out):
        t = cuda.threadIdx.x
        if t < 5:
            cuda.syncthreads()
        out[t] = t

    text = error_of(divergent_if, (1, 32), simt.zeros(32))
    check_cpu_mode(divergent_if, "regions")
    assert "kernel 'divergent_if': the threads of block (0, 0, 0) disagree on the condition at line" in text
    assert "cuda.syncthreads() at" in text


def test_device_function_with_barrier_runs_as_fibers(rng):
    @cuda.jit(device=True)
    def barrier_then_read(s, t):
        cuda.syncthreads()
        return s[(t + 3) % 64]

    @cuda.jit
    def k(x, out):
        s = cuda.shared.array(64, np.float32)
        t = cuda.threadIdx.x
        s[t] = x[t]
        out[t] = barrier_then_read(s, t)

    x = rng.standard_normal(64).astype(np.float32)
    out = simt.zeros(64, dtype=np.float32)
    k[1, 64](simt.asarray(x), out)
    check_cpu_mode(k, "fibers")
    np.testing.assert_array_equal(out.get(), np.roll(x, -3))


def test_region_mode_barrier_in_else_branch(rng):
    @cuda.jit
    def k(x, flag, out):
        s = cuda.shared.array(32, np.float64)
        t = cuda.threadIdx.x
        s[t] = x[t]
        if flag == 0:
            out[t] = s[t]
        else:
            cuda.syncthreads()
            out[t] = s[31 - t]

    x = rng.standard_normal(32)
    out = simt.zeros(32)
    k[1, 32](simt.asarray(x), 1, out)
    check_cpu_mode(k, "regions")
    np.testing.assert_array_equal(out.get(), x[::-1])
    k[1, 32](simt.asarray(x), 0, out)
    np.testing.assert_array_equal(out.get(), x)

    if simt.backend() != "cpu":
        return  # the rest is the cpu backend's diagnosis of what CUDA leaves undefined

    @cuda.jit
    def divergent_else(out):
        t = cuda.threadIdx.x
        if t < 3:
            out[t] = 1
        else:
            cuda.syncthreads()

    text = error_of(divergent_else, (1, 32), simt.zeros(32))
    assert "disagree on the condition" in text and "cuda.syncthreads() at" in text
