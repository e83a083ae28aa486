"""Shared pieces of the simt.cuda.coop tests: random data per dtype, the expected results
computed with NumPy per block, and block shapes."""
import math

import numpy as np

import simt

DTYPES = [np.int32, np.int64, np.float32, np.float64]


def random_values(rng, dtype, n, low=-50, high=50):
    """Random values of `dtype`: integers in [low, high), floats uniform in the same range."""
    dtype = np.dtype(dtype)
    if dtype.kind == "f":
        return rng.uniform(low, high, n).astype(dtype)
    if dtype.kind == "u":
        low = max(low, 0)
    return rng.integers(low, high, n).astype(dtype)


def threads_of(block):
    return math.prod(block) if isinstance(block, tuple) else block


def per_block(a, blocks):
    """`a` (host) split into one row per block."""
    return a.reshape(blocks, -1)


def check_close(got, expected, dtype):
    """Integers exactly; floats to the rounding of a sum folded in another order."""
    got, expected = np.asarray(got), np.asarray(expected).astype(dtype)
    if np.dtype(dtype).kind == "f":
        rtol = 1e-4 if np.dtype(dtype) == np.float32 else 1e-10
        np.testing.assert_allclose(got, expected, rtol=rtol, atol=rtol * 100)
    else:
        np.testing.assert_array_equal(got, expected)


def device(a):
    return simt.asarray(a)
