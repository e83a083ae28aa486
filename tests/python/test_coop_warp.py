"""coop.warp reduce / sum / exclusive_sum / inclusive_sum against NumPy, per warp and per group of
threads_in_warp lanes, over dtypes, several warps per block and several blocks."""
import numpy as np
import pytest

import simt
from simt import cuda
from simt.cuda import coop

from coop_data import DTYPES, check_close, device, random_values

BLOCKS, THREADS = 2, 128


def _every_lane(prim, a, dtype):
    @cuda.jit
    def kernel(x, out):
        g = cuda.grid(1)
        out[g] = prim(x[g])

    out = simt.zeros(a.size, dtype)
    kernel[BLOCKS, THREADS](device(a), out)
    return out.get()


def _groups(a, width):
    return a.reshape(-1, width)


def _user_min(a, b):
    return b if b < a else a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("threads_in_warp", [32, 16, 4])
def test_warp_sum_and_reduce_in_each_groups_first_lane(rng, dtype, threads_in_warp):
    a = random_values(rng, dtype, BLOCKS * THREADS)
    got = _groups(_every_lane(coop.warp.sum(dtype, threads_in_warp), a, dtype), threads_in_warp)[:, 0]
    check_close(got, _groups(a, threads_in_warp).sum(axis=1, dtype=dtype), dtype)
    for op in (_user_min, "min"):
        prim = coop.warp.reduce(dtype, op, threads_in_warp)
        got = _groups(_every_lane(prim, a, dtype), threads_in_warp)[:, 0]
        np.testing.assert_array_equal(got, _groups(a, threads_in_warp).min(axis=1))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("threads_in_warp", [32, 8])
def test_warp_prefix_sums(rng, dtype, threads_in_warp):
    a = random_values(rng, dtype, BLOCKS * THREADS)
    inclusive = np.cumsum(_groups(a, threads_in_warp), axis=1, dtype=dtype)
    got = _every_lane(coop.warp.inclusive_sum(dtype, threads_in_warp), a, dtype)
    check_close(got, inclusive.ravel(), dtype)
    got = _every_lane(coop.warp.exclusive_sum(dtype, threads_in_warp), a, dtype)
    check_close(got, (inclusive - _groups(a, threads_in_warp)).ravel(), dtype)


def _keep_first(a, b):
    return a


def test_warp_reduce_keeps_the_order_of_lanes(rng):
    a = random_values(rng, np.int64, BLOCKS * THREADS)
    got = _groups(_every_lane(coop.warp.reduce(np.int64, _keep_first), a, np.int64), 32)[:, 0]
    np.testing.assert_array_equal(got, _groups(a, 32)[:, 0])


def test_make_spellings_and_attributes():
    assert coop.warp.make_sum is coop.warp.sum and coop.warp.make_exclusive_sum is coop.warp.exclusive_sum
    prim = coop.warp.sum(np.int32)
    assert prim.files == [] and prim.temp_storage_bytes == 0


@pytest.mark.parametrize("threads,threads_in_warp", [(16, 16), (48, 16), (8, 4), (40, 8)], ids=str)
def test_logical_warps_of_blocks_smaller_than_a_warp(rng, threads, threads_in_warp):
    # The shuffles name only their logical warp's lanes: a block of 16 threads has no lanes 16-31.
    a = random_values(rng, np.int32, 3 * threads)
    warp_sum = coop.warp.sum(np.int32, threads_in_warp)
    warp_inclusive = coop.warp.inclusive_sum(np.int32, threads_in_warp)
    warp_exclusive = coop.warp.exclusive_sum(np.int32, threads_in_warp)

    @cuda.jit
    def kernel(x, sums, inclusive, exclusive):
        g = cuda.grid(1)
        sums[g] = warp_sum(x[g])
        inclusive[g] = warp_inclusive(x[g])
        exclusive[g] = warp_exclusive(x[g])

    outs = [simt.zeros(a.size, np.int32) for _ in range(3)]
    kernel[3, threads](device(a), *outs)
    groups = _groups(a, threads_in_warp)
    np.testing.assert_array_equal(_groups(outs[0].get(), threads_in_warp)[:, 0], groups.sum(axis=1))
    np.testing.assert_array_equal(outs[1].get(), np.cumsum(groups, axis=1).ravel())
    np.testing.assert_array_equal(outs[2].get(), (np.cumsum(groups, axis=1) - groups).ravel())
