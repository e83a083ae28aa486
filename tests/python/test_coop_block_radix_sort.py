"""coop.block.radix_sort_keys (and _descending) against np.sort: signed, unsigned and float keys
(negative values, infinities), block shapes, items per thread, several blocks, bit ranges."""
import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import coop

from coop_data import DTYPES, device, threads_of

BLOCKS = 2


def _keys(rng, dtype, n):
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        a = (rng.standard_normal(n) * 1e3).astype(dtype)
        a[rng.integers(0, n, 2)] = [np.inf, -np.inf]
        return a
    info = np.iinfo(dtype)
    return rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)


def _sort_blocks(prim, block, k, a, dtype, bits=None):
    X = block[0] if isinstance(block, tuple) else block
    tile = threads_of(block) * k
    all_bits = bits is None
    begin, end = (0, 0) if all_bits else bits

    @cuda.jit
    def kernel(x):
        rank = cuda.threadIdx.x + cuda.threadIdx.y * X
        base = cuda.blockIdx.x * tile + rank * k
        keys = cuda.local.array(k, dtype)
        for i in range(k):
            keys[i] = x[base + i]
        if all_bits:  # a frozen constant: one of the two calls is compiled
            prim(keys)
        else:
            prim(keys, begin, end)
        for i in range(k):
            x[base + i] = keys[i]
    d = device(a)
    kernel[BLOCKS, block](d)
    return d.get().reshape(BLOCKS, tile)


@pytest.mark.parametrize("dtype", DTYPES + [np.uint32, np.uint64, np.int8, np.uint16])
@pytest.mark.parametrize("block,k", [(32, 4), (128, 1), (96, 3), (20, 2), ((16, 4), 2)])
def test_radix_sort_keys(rng, dtype, block, k):
    a = _keys(rng, dtype, BLOCKS * threads_of(block) * k)
    got = _sort_blocks(coop.block.radix_sort_keys(dtype, block, k), block, k, a, dtype)
    np.testing.assert_array_equal(got, np.sort(a.reshape(BLOCKS, -1), axis=1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("block,k", [(128, 4), (64, 1), (1024, 2)])
def test_radix_sort_keys_descending(rng, dtype, block, k):
    a = _keys(rng, dtype, BLOCKS * block * k)
    got = _sort_blocks(coop.block.radix_sort_keys_descending(dtype, block, k), block, k, a, dtype)
    np.testing.assert_array_equal(got, np.sort(a.reshape(BLOCKS, -1), axis=1)[:, ::-1])


def test_sort_by_a_range_of_bits(rng):
    """Bits 4..8 only: keys order by (key >> 4) & 15, keeping their order otherwise (stable)."""
    a = rng.integers(0, 1 << 12, BLOCKS * 64 * 2).astype(np.uint32)
    got = _sort_blocks(coop.block.radix_sort_keys(np.uint32, 64, 2), 64, 2, a, np.uint32, bits=(4, 8))
    rows = a.reshape(BLOCKS, -1)
    order = np.argsort((rows >> 4) & 15, axis=1, kind="stable")
    np.testing.assert_array_equal(got, np.take_along_axis(rows, order, axis=1))


def test_tile_too_large_for_shared_memory():
    with pytest.raises(ValueError, match=r"radix_sort_keys: sorting 1024 x 8 keys of float64 .* more than a block"):
        coop.block.radix_sort_keys(np.float64, 1024, 8)
