"""coop.block.load / store against NumPy: which tile items each thread holds for every
algorithm (blocked for direct/vectorize/transpose*, striped for striped), round trips through
several blocks, and the num_valid / oob_default forms."""
import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import coop

from coop_data import DTYPES, device, random_values, threads_of

ALGORITHMS = ["direct", "striped", "vectorize", "transpose", "warp_transpose", "warp_transpose_timesliced"]
BLOCKS = 3


def _held_items(a, block, k, algorithm):
    """What thread r holds as items[i], for every block, as out[block, r, i]."""
    tiles = a.reshape(BLOCKS, -1)
    n = threads_of(block)
    if algorithm == "striped":
        return tiles.reshape(BLOCKS, k, n).transpose(0, 2, 1)
    return tiles.reshape(BLOCKS, n, k)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("block,k", [(32, 4), (128, 1), (96, 3), ((16, 4), 2)])
def test_load_gives_each_thread_its_items(rng, dtype, algorithm, block, k):
    X = block[0] if isinstance(block, tuple) else block
    n = threads_of(block)
    load = coop.block.load(dtype, block, k, algorithm)

    @cuda.jit
    def kernel(x, out):
        rank = cuda.threadIdx.x + cuda.threadIdx.y * X
        items = cuda.local.array(k, dtype)
        load(x[cuda.blockIdx.x * n * k:], items)
        for i in range(k):
            out[cuda.blockIdx.x, rank, i] = items[i]

    a = random_values(rng, dtype, BLOCKS * n * k)
    out = simt.zeros((BLOCKS, n, k), dtype)
    kernel[BLOCKS, block](device(a), out)
    np.testing.assert_array_equal(out.get(), _held_items(a, block, k, algorithm))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("algorithm", ALGORITHMS)
@pytest.mark.parametrize("block,k", [(64, 2), (96, 3), (1024, 1)])
def test_store_writes_back_what_load_read(rng, dtype, algorithm, block, k):
    load = coop.block.load(dtype, block, k, algorithm)
    store = coop.block.store(dtype, block, k, algorithm)
    tile = block * k

    @cuda.jit(link=load.files + store.files)
    def kernel(x, out):
        items = cuda.local.array(k, dtype)
        load(x[cuda.blockIdx.x * tile:], items)
        for i in range(k):
            items[i] = items[i] * 2
        store(out[cuda.blockIdx.x * tile:], items)

    a = random_values(rng, dtype, BLOCKS * tile)
    out = simt.zeros(a.size, dtype)
    kernel[BLOCKS, block](device(a), out)
    np.testing.assert_array_equal(out.get(), a * 2)


@pytest.mark.parametrize("algorithm", ["direct", "striped", "transpose"])
def test_num_valid_and_oob_default(rng, algorithm):
    block, k = 64, 3
    n = block * k
    num_valid = int(rng.integers(1, n))
    load = coop.block.load(np.float64, block, k, algorithm)
    store = coop.block.store(np.float64, block, k, algorithm)

    @cuda.jit
    def kernel(x, out, out_default):
        items = cuda.local.array(k, np.float64)
        load(x, items, num_valid, -1.5)
        store(out_default, items)
        load(x, items, num_valid)
        store(out, items, num_valid)

    a = random_values(rng, np.float64, n)
    out = simt.full(n, 9.0, np.float64)
    out_default = simt.zeros(n, np.float64)
    kernel[1, block](device(a), out, out_default)
    expected = a.copy()
    expected[num_valid:] = 9.0  # stores only the first num_valid items of the tile
    np.testing.assert_array_equal(out.get(), expected)
    expected[num_valid:] = -1.5  # loads give the others the default
    np.testing.assert_array_equal(out_default.get(), expected)


def test_temp_storage_bytes_of_the_transposing_algorithms():
    assert coop.block.load(np.float32, 128, 4, "transpose").temp_storage_bytes == 128 * 4 * 4
    assert coop.block.store(np.int64, 64, 2, "direct").temp_storage_bytes == 0
