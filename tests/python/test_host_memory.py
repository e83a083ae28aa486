"""Page-locked host memory (numba's pinned_array/pinned_array_like/pinned, CuPy's
alloc_pinned_memory and pinned pool) and the device memory pool's accounting and limit (CuPy's
MemoryPool), on the active backend; the cuda paths are also run over the stand-in driver in
test_cuda_mock.py."""
import numpy as np
import pytest

import simt
from simt import cuda


@pytest.mark.parametrize("shape, dtype, order", [((5, 7), np.float32, "C"), ((4, 3, 2), np.int16, "F"),
                                                 (9, np.complex128, "C"), ((0, 3), np.float64, "C")])
def test_pinned_array_round_trip(rng, shape, dtype, order):
    p = cuda.pinned_array(shape, dtype, order=order)
    assert isinstance(p, np.ndarray) and p.dtype == dtype
    assert p.shape == ((shape,) if isinstance(shape, int) else shape)
    assert p.flags.f_contiguous if order == "F" else p.flags.c_contiguous
    p[...] = (rng.standard_normal(p.shape) * 50).astype(dtype)
    d = simt.asarray(p)
    np.testing.assert_array_equal(d.get(), p)
    back = cuda.pinned_array_like(p)
    assert back.shape == p.shape and back.dtype == p.dtype and back.flags.f_contiguous == p.flags.f_contiguous
    d.copy_to_host(back)
    np.testing.assert_array_equal(back, p)


def test_pinned_array_with_strides(rng):
    p = cuda.pinned_array((3, 4), np.int32, strides=(32, 4))
    assert p.strides == (32, 4)
    p[...] = rng.integers(-100, 100, (3, 4))
    np.testing.assert_array_equal(simt.asarray(p).get(), p)
    with pytest.raises(ValueError, match="strides"):
        cuda.pinned_array((3, 4), np.int32, strides=(4,))


def test_pinned_memory_outlives_its_allocation_call(rng):
    views = [cuda.pinned_array(1000)[10:20] for _ in range(3)]  # only views keep the memory
    for v in views:
        v[:] = rng.standard_normal(10)
    np.testing.assert_array_equal(simt.asarray(views[1]).get(), views[1])


def test_pinned_context_registers_existing_arrays(rng):
    a = rng.standard_normal((64, 33))
    b = rng.integers(0, 9, 1000).astype(np.uint8)
    with cuda.pinned(a, b[::3], np.empty(0)):
        da, db = simt.asarray(a), simt.asarray(b[::3])
        out = np.empty_like(a)
        da.copy_to_host(out)
    np.testing.assert_array_equal(out, a)
    np.testing.assert_array_equal(db.get(), b[::3])
    with pytest.raises(TypeError, match="NumPy arrays"):
        with cuda.pinned([1.0, 2.0]):
            pass


def test_alloc_pinned_memory_as_numpy_buffer(rng):
    mem = cuda.alloc_pinned_memory(800)
    assert mem.size == 800 and mem.ptr != 0
    h = np.frombuffer(mem, np.float64, 100).reshape(10, 10)
    h[...] = rng.standard_normal((10, 10))
    np.testing.assert_array_equal(simt.asarray(h).get(), h)
    assert "PinnedMemoryPointer" in repr(mem) and "800 bytes" in str(mem)
    pool = simt.get_default_pinned_memory_pool()
    pool.free_all_blocks()
    assert pool.n_free_blocks() == 0
    with pytest.raises(ValueError, match="non-negative"):
        cuda.alloc_pinned_memory(-1)


def test_memory_pool_counts_live_arrays(rng):
    pool = simt.get_default_memory_pool()
    before = pool.used_bytes()
    a = simt.asarray(rng.standard_normal(12345))
    b = simt.empty((100, 7), np.float32)
    assert pool.used_bytes() - before == 12345 * 8 + 700 * 4
    assert pool.total_bytes() >= pool.used_bytes()
    assert pool.free_bytes() == pool.total_bytes() - pool.used_bytes()
    v = a[::2]  # a view holds no memory of its own
    del a
    assert pool.used_bytes() - before == 12345 * 8 + 700 * 4
    del v, b
    simt.cuda.synchronize()
    assert pool.used_bytes() == before


def test_memory_pool_limit():
    pool = simt.get_default_memory_pool()
    try:
        pool.set_limit(size=pool.used_bytes() + 10_000)
        assert pool.get_limit() == pool.used_bytes() + 10_000
        kept = simt.empty(1000)  # 8000 bytes: fits
        with pytest.raises(simt.cuda.OutOfMemoryError, match="limit of .* bytes"):
            simt.empty(1000)
        with pytest.raises(MemoryError):
            simt.ones(2000) + 1
        del kept
        simt.empty(1000)  # freed memory counts against the limit no more
        pool.set_limit(fraction=0.25)
        total = cuda.Device().attributes["total_memory"]
        assert pool.get_limit() == int(total * 0.25)
        pool.set_limit(size=0)
        assert pool.get_limit() == 0
        for bad in ({"size": -1}, {"fraction": 1.5}, {"size": 10, "fraction": 0.1}):
            with pytest.raises(ValueError):
                pool.set_limit(**bad)
    finally:
        pool.set_limit(0)


@cuda.jit
def _scale_into(x, y, factor):
    i = cuda.grid(1)
    if i < x.size:
        y[i] = x[i] * factor


@pytest.mark.parametrize("make", ["mapped_array", "managed_array"])
def test_kernels_read_and_write_mapped_and_managed_arrays_in_place(rng, make):
    n = 3000
    x = getattr(cuda, make)(n, np.float32)
    y = getattr(cuda, make)((n,), np.float32)
    assert isinstance(x, np.ndarray) and x.dtype == np.float32 and x.shape == (n,)
    x[:] = rng.standard_normal(n)
    y[:] = 0
    _scale_into[(n + 255) // 256, 256](x, y, np.float32(2.5))
    cuda.synchronize()
    np.testing.assert_array_equal(y, x * np.float32(2.5))
    # A strided view of the same memory is device-accessible too.
    half = y[::2]
    _scale_into[(n + 511) // 512, 256](x[1::2], half, np.float32(-1.0))
    cuda.synchronize()
    np.testing.assert_array_equal(y[::2], -x[1::2])
    np.testing.assert_array_equal(y[1::2], x[1::2] * np.float32(2.5))
    np.testing.assert_array_equal(simt.asarray(y).get(), y)  # (a copy to the device, as for any host array)


def test_mapped_array_like_and_layouts(rng):
    h = np.asfortranarray(rng.standard_normal((40, 30)))
    m = cuda.mapped_array_like(h)
    assert m.shape == h.shape and m.flags.f_contiguous
    m[...] = h
    out = cuda.mapped_array(h.size)
    _scale_into[(h.size + 255) // 256, 256](m.reshape(-1, order="A"), out, 1.0)
    cuda.synchronize()
    np.testing.assert_array_equal(out, h.reshape(-1, order="F"))
    with pytest.raises(ValueError, match="order"):
        cuda.mapped_array(4, order="K")
    with pytest.raises(ValueError, match="strides"):
        cuda.managed_array((2, 3), strides=(8,))


def test_mapped_context_maps_existing_arrays_for_its_block(rng):
    x = rng.standard_normal(1000)
    y = np.zeros(1000)
    with cuda.mapped(x, y) as (mx, my):
        _scale_into[4, 256](mx, my, 3.0)
        cuda.synchronize()
    np.testing.assert_array_equal(y, x * 3.0)  # written in place, in y's own memory
    with pytest.raises(TypeError, match="host memory"):
        _scale_into[4, 256](mx, my, 3.0)  # no longer mapped after the block: a host array again
    np.testing.assert_array_equal(simt.asarray(mx).get(), x)  # (copied, as any host array)
    with pytest.raises(TypeError, match="NumPy arrays"):
        with cuda.mapped([1, 2, 3]):
            pass


def test_numpy_results_from_mapped_arrays_are_plain_host_arrays(rng):
    m = cuda.mapped_array(100)
    m[:] = rng.standard_normal(100)
    r = m + 1.0
    assert type(r) is np.ndarray
    assert float(m.sum()) == pytest.approx(float(np.asarray(m).sum()))
    with pytest.raises(TypeError, match="host memory"):
        _scale_into[1, 128](r, m, 1.0)
    c = m.copy()  # same class, ordinary memory: a host array to simt
    with pytest.raises(TypeError, match="host memory"):
        _scale_into[1, 128](c, m, 1.0)
    np.testing.assert_array_equal(simt.asarray(c).get(), m)
    np.testing.assert_array_equal(cuda.to_device(m[::3]).get(), m[::3])
    with pytest.raises(ValueError, match="negative dimensions"):
        cuda.mapped_array(-3)
