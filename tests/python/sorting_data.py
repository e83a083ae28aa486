"""Random data for the sorting tests: many duplicates, the extremes of each integer type, and for
floats NaN, +-inf and both zeros; plus the exact comparison of a simt result with NumPy's."""
import numpy as np

import simt

REAL = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
        np.float16, np.float32, np.float64]
COMPLEX = [np.complex64, np.complex128]
ALL = REAL + COMPLEX


def sort_data(rng, shape, dtype):
    """Values drawn from a small pool (so equal keys are common) that spans the dtype's range."""
    dt = np.dtype(dtype)
    size = int(np.prod(shape))
    if dt.kind == "b":
        return rng.random(shape) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        pool = np.array([info.min, info.max, info.min + 1, info.max - 1, 0, 1, 2, 3, 100 % info.max]
                        + list(rng.integers(info.min, info.max, 23, dtype=dt, endpoint=True)), dtype=dt)
        return rng.choice(pool, size).reshape(shape)
    if dt.kind == "f":
        specials = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, np.finfo(dt).max, -np.finfo(dt).max,
                    np.finfo(dt).tiny, -np.finfo(dt).smallest_subnormal]
        pool = np.concatenate([np.array(specials, dtype=dt), rng.standard_normal(40).astype(dt) * 100])
        return rng.choice(pool, size).reshape(shape)
    part = np.array([np.nan, 0.0, -0.0, 1.0, -2.5, np.inf], dtype=np.float64)
    out = np.empty(size, dtype=dt)  # parts set one by one: nan * 1j would make both parts NaN
    out.real, out.imag = rng.choice(part, size), rng.choice(part, size)
    return out.reshape(shape)


def assert_exact(expected, actual):
    """`actual` (a simt array) is exactly NumPy's `expected`: dtype, shape and values (NaN
    matches NaN; -0.0 matches 0.0, whose order NumPy leaves unspecified)."""
    assert isinstance(actual, simt.ndarray), f"expected a simt array, got {type(actual)}"
    got = actual.get()
    expected = np.asarray(expected)
    assert got.dtype == expected.dtype, f"dtype: simt {got.dtype}, numpy {expected.dtype}"
    assert got.shape == expected.shape, f"shape: simt {got.shape}, numpy {expected.shape}"
    np.testing.assert_array_equal(got, expected)
