"""Classic CUDA programs written with shared memory, barriers, atomics and warp shuffles, each
compared with NumPy on fresh random data."""
import numpy as np

import simt
from simt import cuda, float32

TPB = 16  # numba's documented shared-memory matmul uses 16 x 16 tiles


@cuda.jit
def fast_matmul(A, B, C):
    sA = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    sB = cuda.shared.array(shape=(TPB, TPB), dtype=float32)
    x, y = cuda.grid(2)
    tx = cuda.threadIdx.x
    ty = cuda.threadIdx.y
    bpg = cuda.gridDim.x
    tmp = float32(0.)
    for i in range(bpg):
        sA[ty, tx] = 0
        sB[ty, tx] = 0
        if y < A.shape[0] and (tx + i * TPB) < A.shape[1]:
            sA[ty, tx] = A[y, tx + i * TPB]
        if x < B.shape[1] and (ty + i * TPB) < B.shape[0]:
            sB[ty, tx] = B[ty + i * TPB, x]
        cuda.syncthreads()
        for j in range(TPB):
            tmp += sA[ty, j] * sB[j, tx]
        cuda.syncthreads()
    if y < C.shape[0] and x < C.shape[1]:
        C[y, x] = tmp


def test_tiled_matmul(rng):
    for n in (64, 80):  # 80 is not a multiple of the tile: the guards matter
        a = rng.standard_normal((n, n)).astype(np.float32)
        b = rng.standard_normal((n, n)).astype(np.float32)
        c = simt.zeros((n, n), dtype=np.float32)
        blocks = (n + TPB - 1) // TPB
        fast_matmul[(blocks, blocks), (TPB, TPB)](simt.asarray(a), simt.asarray(b), c)
        np.testing.assert_allclose(c.get(), a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


def test_block_reduction_in_shared_memory(rng):
    threads = 256

    @cuda.jit
    def block_sums(x, out):
        s = cuda.shared.array(threads, np.float64)
        t = cuda.threadIdx.x
        i = cuda.grid(1)
        s[t] = x[i] if i < x.size else 0.0
        cuda.syncthreads()
        stride = threads // 2
        while stride > 0:
            if t < stride:
                s[t] += s[t + stride]
            cuda.syncthreads()
            stride //= 2
        if t == 0:
            out[cuda.blockIdx.x] = s[0]

    n = 100_003
    x = rng.standard_normal(n)
    blocks = (n + threads - 1) // threads
    out = simt.zeros(blocks)
    block_sums[blocks, threads](simt.asarray(x), out)
    padded = np.r_[x, np.zeros(blocks * threads - n)]
    np.testing.assert_allclose(out.get(), padded.reshape(blocks, threads).sum(axis=1), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(out.get().sum(), x.sum(), rtol=1e-10)


def test_histogram_with_global_atomics(rng):
    @cuda.jit
    def histogram(x, lo, width, bins):
        i = cuda.grid(1)
        stride = cuda.gridsize(1)
        while i < x.size:
            b = int((x[i] - lo) / width)
            if b >= 0 and b < bins.size:
                cuda.atomic.add(bins, b, 1)
            i += stride

    x = rng.normal(0, 1, 200_000)
    bins = simt.zeros(40, dtype=np.int64)
    histogram[64, 128](simt.asarray(x), -4.0, 0.2, bins)
    idx = np.trunc((x + 4.0) / 0.2).astype(np.int64)  # int() truncates toward zero, as in Python
    idx = idx[(idx >= 0) & (idx < 40)]
    np.testing.assert_array_equal(bins.get(), np.bincount(idx, minlength=40))


def test_warp_shuffle_reduction_then_atomic(rng):
    @cuda.jit
    def total(x, out):
        i = cuda.grid(1)
        v = x[i] if i < x.size else 0
        offset = 16
        while offset > 0:
            v += cuda.shfl_down_sync(0xFFFFFFFF, v, offset)
            offset //= 2
        if cuda.laneid == 0:
            cuda.atomic.add(out, 0, v)

    x = rng.integers(-1000, 1000, 50_000)
    out = simt.zeros(1, dtype=np.int64)
    total[(x.size + 255) // 256, 256](simt.asarray(x), out)
    assert out.get()[0] == x.sum()


def test_jacobi_2d_stencil(rng):
    tile = 16

    @cuda.jit
    def jacobi_step(u, f, out, h2):
        s = cuda.shared.array((tile + 2, tile + 2), np.float64)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        x, y = cuda.grid(2)
        n, m = u.shape
        # the tile plus a one-cell halo; threads on the tile edge also load the halo
        s[ty + 1, tx + 1] = u[y, x] if y < n and x < m else 0.0
        if tx == 0:
            s[ty + 1, 0] = u[y, x - 1] if y < n and x >= 1 else 0.0
        if tx == tile - 1:
            s[ty + 1, tile + 1] = u[y, x + 1] if y < n and x + 1 < m else 0.0
        if ty == 0:
            s[0, tx + 1] = u[y - 1, x] if y >= 1 and x < m else 0.0
        if ty == tile - 1:
            s[tile + 1, tx + 1] = u[y + 1, x] if y + 1 < n and x < m else 0.0
        cuda.syncthreads()
        if 0 < y < n - 1 and 0 < x < m - 1:
            out[y, x] = 0.25 * (s[ty, tx + 1] + s[ty + 2, tx + 1] + s[ty + 1, tx] + s[ty + 1, tx + 2] - h2 * f[y, x])
        elif y < n and x < m:
            out[y, x] = u[y, x]

    n, m = 45, 70
    u = rng.standard_normal((n, m))
    f = rng.standard_normal((n, m))
    h2 = 0.01
    du, df, dout = simt.asarray(u), simt.asarray(f), simt.zeros((n, m))
    grid = ((m + tile - 1) // tile, (n + tile - 1) // tile)
    expected = u.copy()
    for _ in range(5):
        jacobi_step[grid, (tile, tile)](du, df, dout, h2)
        du, dout = dout, du
        nxt = expected.copy()
        nxt[1:-1, 1:-1] = 0.25 * (expected[:-2, 1:-1] + expected[2:, 1:-1] + expected[1:-1, :-2] + expected[1:-1, 2:]
                                  - h2 * f[1:-1, 1:-1])
        expected = nxt
    np.testing.assert_allclose(du.get(), expected, rtol=1e-12, atol=1e-12)


def test_transpose_through_shared_memory(rng):
    tile = 32

    @cuda.jit
    def transpose(a, out):
        s = cuda.shared.array((tile, tile + 1), np.int32)  # +1 column: no bank conflicts on a GPU
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        bx, by = cuda.blockIdx.x * tile, cuda.blockIdx.y * tile
        if by + ty < a.shape[0] and bx + tx < a.shape[1]:
            s[ty, tx] = a[by + ty, bx + tx]
        cuda.syncthreads()
        if bx + ty < out.shape[0] and by + tx < out.shape[1]:
            out[bx + ty, by + tx] = s[tx, ty]

    a = rng.integers(-10**6, 10**6, (70, 100)).astype(np.int32)
    out = simt.zeros((100, 70), dtype=np.int32)
    transpose[((100 + tile - 1) // tile, (70 + tile - 1) // tile), (tile, tile)](simt.asarray(a), out)
    np.testing.assert_array_equal(out.get(), a.T)


def test_dynamic_shared_memory_block_sums(rng):
    @cuda.jit
    def block_sums(x, out):
        s = cuda.shared.array(0, np.float32)
        t = cuda.threadIdx.x
        n = cuda.blockDim.x
        i = cuda.grid(1)
        s[t] = x[i] if i < x.size else 0
        cuda.syncthreads()
        if t == 0:
            acc = np.float32(0)
            for k in range(n):
                acc += s[k]
            out[cuda.blockIdx.x] = acc

    for threads in (64, 200):
        x = rng.integers(-100, 100, 3000).astype(np.float32)
        blocks = (3000 + threads - 1) // threads
        out = simt.zeros(blocks, dtype=np.float32)
        block_sums[blocks, threads, 0, threads * 4](simt.asarray(x), out)
        padded = np.r_[x, np.zeros(blocks * threads - 3000, np.float32)]
        np.testing.assert_array_equal(out.get(), padded.reshape(blocks, threads).sum(axis=1))
