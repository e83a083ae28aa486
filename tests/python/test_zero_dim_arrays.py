"""0-d arrays as kernel arguments: a reduction's result, a scalar parameter kept on the device, an
accumulator. Their kernel argument is the data pointer alone (no extents); A[()] is the element.
Every test runs on the active backend and compares with NumPy on fresh random data."""
import numpy as np
import pytest

import simt
from simt import cuda


@cuda.jit
def scale_by(out, A, s):
    i = cuda.grid(1)
    if i < A.shape[0]:
        out[i] = A[i] * s[()]


@cuda.jit
def normalize(out, A, total):
    i = cuda.grid(1)
    out[i] = A[i] / total[()]


@cuda.jit
def accumulate(acc, A):
    i = cuda.grid(1)
    if i < A.size:
        cuda.atomic.add(acc, (), A[i])


@cuda.jit
def describe(info, S):
    info[0] = S.size
    info[1] = S.ndim
    info[2] = len(S.shape)


@cuda.jit(boundscheck=True)
def store_checked(S, A, i):
    S[()] = A[i]


def test_zero_dim_scalar_argument(rng):
    a = rng.standard_normal(1000)
    s = np.array(rng.uniform(0.5, 2.0))
    out = simt.zeros(a.shape[0])
    scale_by[4, 256](out, simt.asarray(a), simt.asarray(s))
    np.testing.assert_allclose(out.get(), a * s, rtol=1e-15)


def test_reduction_result_goes_into_a_kernel(rng):
    a = rng.uniform(1.0, 2.0, 777)
    d = simt.asarray(a)
    total = simt.sum(d)
    assert total.ndim == 0 and total.shape == ()
    out = simt.empty_like(d)
    normalize[4, 256](out, d, total)  # the seed-style kernel: out-of-range threads are masked
    np.testing.assert_allclose(out.get(), a / a.sum(), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.int64, np.float32])
def test_atomic_accumulator(rng, dtype):
    a = rng.integers(-1000, 1000, 5000).astype(dtype)  # integers: the float32 sum is exact too
    acc = simt.asarray(np.array(rng.integers(-50, 50), dtype=dtype))
    start = acc.get()
    accumulate[20, 256](acc, simt.asarray(a))
    assert acc.get().shape == ()
    assert acc.get() == start + a.sum(dtype=np.int64)


def test_size_ndim_and_shape_of_a_zero_dim_argument(rng):
    info = simt.zeros(3, np.int64)
    describe[1, 1](info, simt.asarray(np.array(rng.standard_normal())))
    np.testing.assert_array_equal(info.get(), [1, 0, 0])


def test_boundscheck_with_a_zero_dim_argument(rng):
    a = rng.standard_normal(8)
    s = simt.asarray(np.array(0.0))
    store_checked[1, 1](s, simt.asarray(a), 5)
    cuda.synchronize()
    assert s.get() == a[5]
    with pytest.raises(IndexError, match="index 8 is out of bounds"):
        store_checked[1, 1](s, simt.asarray(a), 8)
        cuda.synchronize()
    store_checked[1, 1](s, simt.asarray(a), 2)  # the next launch works
    cuda.synchronize()
    assert s.get() == a[2]
