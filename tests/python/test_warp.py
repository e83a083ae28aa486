"""Warp operations with CUDA's lane semantics (shuffles, votes, matches, activemask, lanemask_lt,
partial warps at the end of a block, masks), the bit intrinsics popc/brev/clz/ffs, and fma/cbrt,
compared with NumPy references."""
import numpy as np
import pytest

import simt
from simt import cuda

FULL = 0xFFFFFFFF


def lanes_of(n):
    return np.arange(n) % 32


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32, np.uint64, np.float32, np.float64])
def test_shuffles_all_modes(rng, dtype):
    @cuda.jit
    def shuffles(x, src, delta, out):
        i = cuda.grid(1)
        v = x[i]
        out[i, 0] = cuda.shfl_sync(FULL, v, src[i])
        out[i, 1] = cuda.shfl_up_sync(FULL, v, delta[0])
        out[i, 2] = cuda.shfl_down_sync(FULL, v, delta[0])
        out[i, 3] = cuda.shfl_xor_sync(FULL, v, delta[1])

    n = 128
    if np.dtype(dtype).kind == "f":
        x = rng.standard_normal(n).astype(dtype)
    else:
        x = rng.integers(0, 2**31 - 1, n).astype(dtype)
    src = rng.integers(0, 64, n)  # lanes past 31 wrap modulo 32
    delta = np.array([rng.integers(1, 8), rng.integers(1, 32)])
    out = simt.zeros((n, 4), dtype=dtype)
    shuffles[2, 64](simt.asarray(x), simt.asarray(src), simt.asarray(delta), out)
    warps = x.reshape(-1, 32)
    lane = lanes_of(n)
    base = np.arange(n) - lane
    d, m = delta
    expected = np.stack([
        x[base + src % 32],
        np.where(lane >= d, x[np.maximum(np.arange(n) - d, 0)], x),
        np.where(lane + d <= 31, x[np.minimum(np.arange(n) + d, n - 1)], x),
        x[base + (lane ^ m)],
    ], axis=1)
    assert warps.shape[0] == n // 32
    np.testing.assert_array_equal(out.get(), expected)


def test_shuffle_in_partial_last_warp(rng):
    @cuda.jit
    def k(x, out):
        i = cuda.grid(1)
        out[i, 0] = cuda.shfl_down_sync(FULL, x[i], 4)
        out[i, 1] = cuda.shfl_sync(FULL, x[i], 0)
        out[i, 2] = cuda.ballot_sync(FULL, True)

    n = 40  # the second warp has lanes 0-7 only
    x = rng.standard_normal(n)
    out = simt.zeros((n, 3))
    k[1, n](simt.asarray(x), out)
    got = out.get()
    lane = lanes_of(n)
    exists = np.where(np.arange(n) < 32, 32, 8)
    down = np.where(lane + 4 < exists, x[np.minimum(np.arange(n) + 4, n - 1)], x)
    # Reading a lane past the block's last thread is undefined in CUDA; the cpu backend gives the
    # caller's own value, as for a source lane past the warp's width.
    defined = (lane + 4 < exists) | (simt.backend() == "cpu")
    np.testing.assert_array_equal(got[defined, 0], down[defined])
    np.testing.assert_array_equal(got[:, 1], np.where(np.arange(n) < 32, x[0], x[32]))
    np.testing.assert_array_equal(got[:, 2], np.where(np.arange(n) < 32, -1, 0xFF))  # int32 like numba


def test_warp_shuffle_reduction(rng):
    @cuda.jit
    def warp_sums(x, out):
        i = cuda.grid(1)
        v = x[i]
        offset = 16
        while offset > 0:
            v += cuda.shfl_xor_sync(FULL, v, offset)
            offset //= 2
        out[i] = v

    x = rng.standard_normal(256)
    out = simt.zeros(256)
    warp_sums[2, 128](simt.asarray(x), out)
    np.testing.assert_allclose(out.get(), np.repeat(x.reshape(-1, 32).sum(axis=1), 32))


def test_votes_and_ballot(rng):
    @cuda.jit
    def votes(x, out):
        i = cuda.grid(1)
        p = x[i] > 0
        out[i, 0] = cuda.all_sync(FULL, p)
        out[i, 1] = cuda.any_sync(FULL, p)
        out[i, 2] = cuda.eq_sync(FULL, p)
        out[i, 3] = cuda.ballot_sync(FULL, p)

    x = rng.standard_normal(128)
    x[32:64] = np.abs(x[32:64]) + 0.1   # warp 1: all positive
    x[64:96] = -np.abs(x[64:96]) - 0.1  # warp 2: all negative
    out = simt.zeros((128, 4), dtype=np.int64)
    votes[1, 128](simt.asarray(x), out)
    got = out.get()
    for w in range(4):
        p = x[w * 32:(w + 1) * 32] > 0
        ballot = int(sum(1 << k for k in range(32) if p[k]))
        np.testing.assert_array_equal(got[w * 32:(w + 1) * 32],
                                      [[p.all(), p.any(), p.all() or not p.any(), np.int32(np.uint32(ballot))]] * 32)


def test_votes_with_partial_masks(rng):
    @cuda.jit
    def k(x, out):
        lane = cuda.laneid
        p = x[lane] > 0
        if lane % 2 == 0:
            out[lane] = cuda.ballot_sync(0x55555555, p)
        else:
            out[lane] = cuda.ballot_sync(0xAAAAAAAA, p)

    x = rng.standard_normal(32)
    out = simt.zeros(32, dtype=np.int64)
    k[1, 32](simt.asarray(x), out)
    bits = sum(1 << k for k in range(32) if x[k] > 0)
    even, odd = bits & 0x55555555, bits & 0xAAAAAAAA
    expected = [np.int32(np.uint32(even if k % 2 == 0 else odd)) for k in range(32)]
    np.testing.assert_array_equal(out.get(), expected)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64])
def test_match_any_and_match_all(rng, dtype):
    @cuda.jit
    def k(x, same, out_any, out_all, out_pred):
        i = cuda.grid(1)
        out_any[i] = cuda.match_any_sync(FULL, x[i])
        m, pred = cuda.match_all_sync(FULL, same[i])
        out_all[i] = m
        out_pred[i] = pred

    x = rng.integers(0, 4, 64).astype(dtype)
    same = np.r_[np.full(32, 3), rng.integers(0, 2, 32)].astype(dtype)
    same[40] = 0
    same[41] = 1
    out_any = simt.zeros(64, dtype=np.int64)
    out_all = simt.zeros(64, dtype=np.int64)
    out_pred = simt.zeros(64, dtype=np.bool_)
    k[1, 64](simt.asarray(x), simt.asarray(same), out_any, out_all, out_pred)
    expected_any = []
    for i in range(64):
        w = x[(i // 32) * 32:(i // 32 + 1) * 32]
        expected_any.append(np.int32(np.uint32(sum(1 << k for k in range(32) if w[k] == x[i]))))
    np.testing.assert_array_equal(out_any.get(), expected_any)
    np.testing.assert_array_equal(out_all.get(), [-1] * 32 + [0] * 32)
    np.testing.assert_array_equal(out_pred.get(), [True] * 32 + [False] * 32)


def test_activemask_lanemask_and_laneid():
    @cuda.jit
    def k(out):
        i = cuda.grid(1)
        out[i, 0] = cuda.laneid
        out[i, 1] = cuda.lanemask_lt()
        out[i, 2] = cuda.activemask()
        if cuda.laneid < 5:
            out[i, 3] = cuda.activemask()

    out = simt.zeros((48, 4), dtype=np.int64)
    k[1, 48](out)
    got = out.get()
    lane = lanes_of(48)
    np.testing.assert_array_equal(got[:, 0], lane)
    np.testing.assert_array_equal(got[:, 1], (1 << lane) - 1)
    np.testing.assert_array_equal(got[:, 2], np.where(np.arange(48) < 32, 0xFFFFFFFF, 0xFFFF))
    np.testing.assert_array_equal(got[:, 3], np.where(lane < 5, 0x1F, 0))


def test_shuffle_rejects_unsupported_types():
    @cuda.jit
    def k(x):
        x[0] = cuda.shfl_sync(FULL, x[0], 1)

    with pytest.raises(cuda.TypingError, match="only moves 32- and 64-bit integers and floats, not int16"):
        k[1, 32](simt.zeros(32, dtype=np.int16))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64])
def test_popc_clz_ffs(rng, dtype):
    @cuda.jit
    def bits(x, popc, clz, ffs):
        i = cuda.grid(1)
        if i < x.size:
            popc[i] = cuda.popc(x[i])
            clz[i] = cuda.clz(x[i])
            ffs[i] = cuda.ffs(x[i])

    info = np.iinfo(dtype)
    x = rng.integers(info.min, info.max, 200, endpoint=True, dtype=dtype)
    x[:4] = [0, 1, info.max, info.min]
    width = np.dtype(dtype).itemsize * 8
    u = x.astype(np.uint64) & np.uint64((1 << width) - 1) if width < 64 else x.view(np.uint64)
    popc, clz = simt.zeros(200, dtype=dtype), simt.zeros(200, dtype=dtype)
    ffs = simt.zeros(200, dtype=np.uint32)
    bits[2, 128](simt.asarray(x), popc, clz, ffs)
    as_int = [int(v) for v in u]
    np.testing.assert_array_equal(popc.get(), [bin(v).count("1") for v in as_int])
    np.testing.assert_array_equal(clz.get(), [width - v.bit_length() for v in as_int])
    np.testing.assert_array_equal(ffs.get(), [(v & -v).bit_length() for v in as_int])


def test_brev_fma_cbrt(rng):
    @cuda.jit
    def k(u32, u64, a, b, c, f32, rev32, rev64, fma64, fma32, cbrt64, cbrt32):
        i = cuda.grid(1)
        if i < u32.size:
            rev32[i] = cuda.brev(u32[i])
            rev64[i] = cuda.brev(u64[i])
            fma64[i] = cuda.fma(a[i], b[i], c[i])
            fma32[i] = cuda.fma(f32[i], f32[i], f32[i])
            cbrt64[i] = cuda.cbrt(a[i])
            cbrt32[i] = cuda.cbrt(f32[i])

    n = 100
    u32 = rng.integers(0, 2**32, n, dtype=np.uint64).astype(np.uint32)
    u64 = rng.integers(0, 2**63, n, dtype=np.uint64)
    a, b, c = rng.standard_normal(n), rng.standard_normal(n), rng.standard_normal(n)
    f32 = rng.standard_normal(n).astype(np.float32)
    outs = [simt.zeros(n, dtype=d) for d in (np.uint32, np.uint64, np.float64, np.float32, np.float64, np.float32)]
    k[1, 128](*(simt.asarray(v) for v in (u32, u64, a, b, c, f32)), *outs)
    np.testing.assert_array_equal(outs[0].get(), [int(f"{int(v):032b}"[::-1], 2) for v in u32])
    np.testing.assert_array_equal(outs[1].get(), [int(f"{int(v):064b}"[::-1], 2) for v in u64])
    np.testing.assert_allclose(outs[2].get(), a * b + c, rtol=1e-15, atol=1e-15)
    assert outs[3].dtype == np.float32
    np.testing.assert_allclose(outs[3].get(), f32 * f32 + f32, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(outs[4].get(), np.cbrt(a), rtol=1e-15)
    np.testing.assert_allclose(outs[5].get(), np.cbrt(f32), rtol=1e-6)
