"""coop.block exclusive/inclusive sums and scans against NumPy: every thread's outputs, over
dtypes, block shapes, items per thread (in place and into another array), several blocks,
built-in and user operators, initial values, and the order of a non-commutative operator."""
import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import coop

from coop_data import DTYPES, check_close, device, per_block, random_values, threads_of

BLOCKS = 2


def _run(prim, block, items_per_thread, a, dtype, in_place=True):
    """Each thread hands its items (blocked, rank order) to `prim`; returns every output."""
    X, Y = (block + (1, 1))[:2] if isinstance(block, tuple) else (block, 1)
    tile = threads_of(block) * items_per_thread
    k = items_per_thread
    if k == 1:
        @cuda.jit
        def kernel(x, out):
            rank = cuda.threadIdx.x + cuda.threadIdx.y * X + cuda.threadIdx.z * X * Y
            g = cuda.blockIdx.x * tile + rank
            out[g] = prim(x[g])
    else:
        @cuda.jit
        def kernel(x, out):
            rank = cuda.threadIdx.x + cuda.threadIdx.y * X + cuda.threadIdx.z * X * Y
            base = cuda.blockIdx.x * tile + rank * k
            items = cuda.local.array(k, dtype)
            result = items if in_place else cuda.local.array(k, dtype)
            for i in range(k):
                items[i] = x[base + i]
            prim(items, result)
            for i in range(k):
                out[base + i] = result[i]
    out = simt.zeros(a.size, dtype)
    kernel[BLOCKS, block](device(a), out)
    return out.get()


def _exclusive(inclusive, first):
    return np.concatenate([np.full((inclusive.shape[0], 1), first, inclusive.dtype), inclusive[:, :-1]], axis=1)


SHAPES = [(32, 1), (64, 1), (96, 1), (256, 1), (1024, 1), (40, 1), (128, 4), (96, 3), (20, 2), ((16, 4), 1),
          ((8, 4, 2), 3)]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("block,items_per_thread", SHAPES)
def test_exclusive_and_inclusive_sum(rng, dtype, block, items_per_thread):
    a = random_values(rng, dtype, BLOCKS * threads_of(block) * items_per_thread)
    rows = per_block(a, BLOCKS)
    inclusive = np.cumsum(rows, axis=1, dtype=dtype)
    got = _run(coop.block.inclusive_sum(dtype, block, items_per_thread), block, items_per_thread, a, dtype)
    check_close(got, inclusive.ravel(), dtype)
    got = _run(coop.block.exclusive_sum(dtype, block, items_per_thread), block, items_per_thread, a, dtype,
               in_place=False)
    check_close(got, _exclusive(inclusive, 0).ravel(), dtype)


def _user_max(a, b):
    return a if a > b else b


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", [_user_max, "max", np.maximum])
@pytest.mark.parametrize("block,items_per_thread", [(128, 1), (96, 2), (1024, 1), ((8, 2, 2), 3)])
def test_max_scans(rng, dtype, op, block, items_per_thread):
    a = random_values(rng, dtype, BLOCKS * threads_of(block) * items_per_thread, -10**6, 10**6)
    inclusive = np.maximum.accumulate(per_block(a, BLOCKS), axis=1)
    prim = coop.block.inclusive_scan(dtype, block, op, items_per_thread=items_per_thread)
    np.testing.assert_array_equal(_run(prim, block, items_per_thread, a, dtype), inclusive.ravel())
    low = np.iinfo(dtype).min if np.dtype(dtype).kind == "i" else -np.inf
    prim = coop.block.exclusive_scan(dtype, block, op, initial_value=low, items_per_thread=items_per_thread)
    np.testing.assert_array_equal(_run(prim, block, items_per_thread, a, dtype), _exclusive(inclusive, low).ravel())


@pytest.mark.parametrize("block,items_per_thread", [(128, 1), (64, 4), (96, 3)])
def test_scans_with_an_initial_value(rng, block, items_per_thread):
    a = random_values(rng, np.int64, BLOCKS * block * items_per_thread)
    rows = per_block(a, BLOCKS)
    inclusive = 7 + np.cumsum(rows, axis=1)
    prim = coop.block.exclusive_scan(np.int64, block, "+", initial_value=7, items_per_thread=items_per_thread)
    np.testing.assert_array_equal(_run(prim, block, items_per_thread, a, np.int64), _exclusive(inclusive, 7).ravel())
    prim = coop.block.inclusive_scan(np.int64, block, "+", initial_value=7, items_per_thread=items_per_thread)
    np.testing.assert_array_equal(_run(prim, block, items_per_thread, a, np.int64), inclusive.ravel())


def _keep_last(a, b):
    return b  # associative, not commutative: every prefix ends with the item just before


@pytest.mark.parametrize("block,items_per_thread", [(256, 1), (96, 2), (50, 3)])
def test_scan_keeps_the_order_of_items(rng, block, items_per_thread):
    a = random_values(rng, np.int32, BLOCKS * block * items_per_thread)
    prim = coop.block.inclusive_scan(np.int32, block, _keep_last, items_per_thread=items_per_thread)
    np.testing.assert_array_equal(_run(prim, block, items_per_thread, a, np.int32), a)
    prim = coop.block.exclusive_scan(np.int32, block, _keep_last, initial_value=-1, items_per_thread=items_per_thread)
    np.testing.assert_array_equal(_run(prim, block, items_per_thread, a, np.int32),
                                  _exclusive(per_block(a, BLOCKS), -1).ravel())


def test_make_spellings_are_the_same_factories():
    assert coop.block.make_exclusive_sum is coop.block.exclusive_sum
    assert coop.block.make_inclusive_scan is coop.block.inclusive_scan
