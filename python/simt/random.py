"""simt.random: counter-based (Philox4x32-10) random arrays; one seed gives the same numbers on
every backend. Float64 is the default dtype, as in NumPy and CuPy."""
import numbers
import operator

import numpy as np

from . import _dtypes, _simt
from ._creation import empty


def _shape(size):
    if size is None:
        return ()
    if isinstance(size, numbers.Integral):
        return (int(size),)
    return tuple(int(s) for s in size)


def _float_dtype(dtype):
    dt = _dtypes.normalize(dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"random floats must be float32 or float64, not {dt}")
    return dt


def seed(seed=None):
    """Reset the generator. None draws a seed from the operating system's entropy."""
    if seed is None:
        seed = int.from_bytes(np.random.default_rng().bytes(8), "little")
    _simt.random_seed(int(seed) & 0xFFFFFFFFFFFFFFFF)


def uniform(low=0.0, high=1.0, size=None, dtype=None):
    out = empty(_shape(size), _float_dtype(dtype))
    _simt.random_fill(out, "uniform", float(low), float(high))
    return out


def random(size=None, dtype=None):
    """Uniform floats in [0, 1)."""
    return uniform(0.0, 1.0, size, dtype)


random_sample = random


def rand(*size, dtype=None):
    return random(size, dtype)


def normal(loc=0.0, scale=1.0, size=None, dtype=None):
    out = empty(_shape(size), _float_dtype(dtype))
    _simt.random_fill(out, "normal", float(loc), float(scale))
    return out


def standard_normal(size=None, dtype=None):
    return normal(0.0, 1.0, size, dtype)


def randn(*size, dtype=None):
    return normal(0.0, 1.0, size, dtype)


def randint(low, high=None, size=None, dtype=np.int64):
    """Integers in [low, high) (or [0, low) when high is None)."""
    if high is None:
        low, high = 0, low
    low, high = operator.index(low), operator.index(high)
    if high <= low:
        raise ValueError(f"randint needs low < high (got low={low}, high={high})")
    dt = _dtypes.normalize(dtype)
    if dt.kind not in "iu":
        raise TypeError(f"randint needs an integer dtype, not {dt}")
    info = np.iinfo(dt)
    if low < info.min or high - 1 > info.max:
        raise ValueError(f"[{low}, {high}) does not fit in {dt}")
    out = empty(_shape(size), dt)
    # Exact 64-bit bounds (through floats, bounds past 2**53 lost their low bits): low's bit
    # pattern and the count of values, both mod 2**64 (a count of 2**64 becomes 0, meaning all).
    _simt.random_integers(out, low % 2**64, (high - low) % 2**64)
    return out
