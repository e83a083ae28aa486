"""coop.block.reduce and coop.block.sum against NumPy: dtypes, block shapes (1-D, non-power-of-
two, partial warps, 2-D, 3-D), items per thread, several blocks, built-in and user operators,
num_valid; the result is read from thread 0 as cuda.coop defines it."""
import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import coop

from coop_data import DTYPES, check_close, device, per_block, random_values, threads_of

BLOCKS = 3


def _run(prim, block, items_per_thread, a, dtype, num_valid=None):
    """Launches BLOCKS blocks of `block`; each thread gives its items (rank-ordered) to `prim`;
    thread 0 of each block writes the result."""
    X, Y = (block + (1, 1))[:2] if isinstance(block, tuple) else (block, 1)
    tile = threads_of(block) * items_per_thread
    k = items_per_thread

    if items_per_thread == 1 and num_valid is None:
        @cuda.jit
        def kernel(x, out):
            rank = cuda.threadIdx.x + cuda.threadIdx.y * X + cuda.threadIdx.z * X * Y
            r = prim(x[cuda.blockIdx.x * tile + rank])
            if rank == 0:
                out[cuda.blockIdx.x] = r
    elif items_per_thread == 1:
        @cuda.jit
        def kernel(x, out):
            rank = cuda.threadIdx.x + cuda.threadIdx.y * X + cuda.threadIdx.z * X * Y
            r = prim(x[cuda.blockIdx.x * tile + rank], num_valid)
            if rank == 0:
                out[cuda.blockIdx.x] = r
    else:
        @cuda.jit
        def kernel(x, out):
            rank = cuda.threadIdx.x + cuda.threadIdx.y * X + cuda.threadIdx.z * X * Y
            items = cuda.local.array(k, dtype)
            for i in range(k):
                items[i] = x[cuda.blockIdx.x * tile + rank * k + i]
            r = prim(items)
            if rank == 0:
                out[cuda.blockIdx.x] = r

    out = simt.zeros(BLOCKS, dtype)
    kernel[BLOCKS, block](device(a), out)
    return out.get()


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("block", [32, 64, 96, 128, 256, 1024, 40, (16, 4), (8, 4, 3)])
def test_block_sum(rng, dtype, block):
    a = random_values(rng, dtype, BLOCKS * threads_of(block))
    got = _run(coop.block.sum(dtype, block), block, 1, a, dtype)
    check_close(got, per_block(a, BLOCKS).sum(axis=1, dtype=dtype), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("block,items_per_thread", [(32, 4), (128, 3), (96, 2), (20, 5), ((32, 2), 2)])
def test_block_sum_items_per_thread(rng, dtype, block, items_per_thread):
    a = random_values(rng, dtype, BLOCKS * threads_of(block) * items_per_thread)
    got = _run(coop.block.sum(dtype, block, items_per_thread), block, items_per_thread, a, dtype)
    check_close(got, per_block(a, BLOCKS).sum(axis=1, dtype=dtype), dtype)


def _user_max(a, b):
    return a if a > b else b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op,reference", [(_user_max, np.max), ("min", np.min), (np.maximum, np.max)])
@pytest.mark.parametrize("block,items_per_thread", [(128, 1), (96, 3), (1024, 1), ((4, 8, 2), 2)])
def test_block_reduce(rng, dtype, op, reference, block, items_per_thread):
    a = random_values(rng, dtype, BLOCKS * threads_of(block) * items_per_thread, -10**6, 10**6)
    prim = coop.block.reduce(dtype, block, op, items_per_thread=items_per_thread)
    got = _run(prim, block, items_per_thread, a, dtype)
    np.testing.assert_array_equal(got, reference(per_block(a, BLOCKS), axis=1))


def _keep_first(a, b):
    return a  # associative, not commutative: the block's first item, only if folds keep order


@pytest.mark.parametrize("block,items_per_thread", [(256, 1), (96, 2), (50, 1)])
def test_block_reduce_keeps_the_order_of_items(rng, block, items_per_thread):
    a = random_values(rng, np.int64, BLOCKS * threads_of(block) * items_per_thread)
    got = _run(coop.block.reduce(np.int64, block, _keep_first, items_per_thread), block, items_per_thread, a,
               np.int64)
    np.testing.assert_array_equal(got, per_block(a, BLOCKS)[:, 0])


@pytest.mark.parametrize("dtype", [np.int32, np.float64])
@pytest.mark.parametrize("block", [128, 96])
def test_block_sum_of_the_first_num_valid_threads(rng, dtype, block):
    num_valid = int(rng.integers(1, block))
    a = random_values(rng, dtype, BLOCKS * block)
    got = _run(coop.block.sum(dtype, block), block, 1, a, dtype, num_valid)
    check_close(got, per_block(a, BLOCKS)[:, :num_valid].sum(axis=1, dtype=dtype), dtype)


def test_small_integer_and_half_types(rng):
    for dtype in (np.int8, np.uint16, np.float16):
        a = rng.integers(0, 4, BLOCKS * 64).astype(dtype)  # float16 sums of small integers are exact
        got = _run(coop.block.sum(dtype, 64), 64, 1, a, dtype)
        np.testing.assert_array_equal(got, per_block(a, BLOCKS).sum(axis=1, dtype=dtype))


def test_called_twice_in_a_loop(rng):
    """The primitive's shared memory is reused by the next call without a race."""
    block_sum = coop.block.sum(np.int64, 128)

    @cuda.jit
    def kernel(x, out):
        t = cuda.threadIdx.x
        acc = 0
        for r in range(x.shape[0]):
            s = block_sum(x[r, t])
            if t == 0:
                acc += s
        if t == 0:
            out[0] = acc

    a = random_values(rng, np.int64, 5 * 128).reshape(5, 128)
    out = simt.zeros(1, np.int64)
    kernel[1, 128](device(a), out)
    assert out.get()[0] == a.sum()


def test_attributes_numba_code_uses():
    prim = coop.block.reduce(np.float64, 256, "max")
    assert prim.files == [] and prim.files is not prim.files  # a list to concatenate, fresh each time
    assert prim.temp_storage_bytes == 8 * 8 and prim.temp_storage_alignment == 8
    assert coop.block.sum(np.int32, 32).temp_storage_bytes == 0  # one warp: shuffles only
    assert coop.block.make_sum is coop.block.sum and coop.block.make_reduce is coop.block.reduce
