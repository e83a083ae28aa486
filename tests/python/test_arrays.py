"""simt.ndarray creation, attributes and host transfers, compared with NumPy."""
import numpy as np
import pytest

import simt


def test_default_dtype_is_float64():
    assert simt.zeros(3).dtype == np.float64
    assert simt.random.uniform(-1, 1, 3).dtype == np.float64
    assert simt.empty((2, 2)).dtype == np.float64


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16,
                                   np.uint32, np.uint64, np.float16, np.float32, np.float64, np.complex64,
                                   np.complex128])
def test_roundtrip_every_dtype(rng, dtype):
    host = (rng.standard_normal((7, 5)) * 100).astype(dtype)
    d = simt.asarray(host)
    assert d.dtype == np.dtype(dtype)
    assert d.shape == (7, 5)
    assert d.strides == host.strides
    assert d.size == 35 and d.ndim == 2 and d.nbytes == host.nbytes and d.itemsize == host.itemsize
    np.testing.assert_array_equal(d.get(), host)
    np.testing.assert_array_equal(simt.asnumpy(d), host)


@pytest.mark.parametrize("maker, expected", [
    (lambda: simt.zeros((3, 4), np.int32), np.zeros((3, 4), np.int32)),
    (lambda: simt.ones(5, np.float32), np.ones(5, np.float32)),
    (lambda: simt.full((2, 3), 7.5), np.full((2, 3), 7.5)),
    (lambda: simt.full(4, 3), np.full(4, 3)),
    (lambda: simt.full(3, True), np.full(3, True)),
    (lambda: simt.full(3, 1 + 2j, np.complex64), np.full(3, 1 + 2j, np.complex64)),
])
def test_creation_functions(maker, expected):
    d = maker()
    assert d.dtype == expected.dtype and d.shape == expected.shape
    np.testing.assert_array_equal(d.get(), expected)


def test_like_functions_follow_their_prototype(rng):
    proto = simt.asarray(rng.standard_normal((4, 2)).astype(np.float32))
    for fn in (simt.zeros_like, simt.ones_like, simt.empty_like):
        d = fn(proto)
        assert d.shape == (4, 2) and d.dtype == np.float32
    np.testing.assert_array_equal(simt.full_like(proto, 2).get(), np.full((4, 2), 2, np.float32))
    assert simt.zeros_like(proto, dtype=np.int16).dtype == np.int16


def test_array_from_sequences_and_copies_are_independent(rng):
    d = simt.array([[1, 2], [3, 4]])
    assert d.dtype == np.int64
    host = rng.standard_normal(10)
    a = simt.array(host)
    host[0] = 99
    assert a.get()[0] != 99
    b = a.copy()
    b.set(np.zeros(10))
    assert (a.get() != 0).any() and (b.get() == 0).all()
    assert simt.asarray(a) is a


def test_zero_size_and_scalar_shapes():
    assert simt.zeros(0).get().shape == (0,)
    assert simt.zeros((2, 0, 3)).size == 0
    s = simt.full((), 4.0)
    assert s.shape == () and s.item() == 4.0


def test_numpy_conversion_is_refused_with_guidance():
    d = simt.zeros(3)
    with pytest.raises(TypeError, match=r"\.get\(\)"):
        np.asarray(d)
    with pytest.raises(TypeError, match="asnumpy"):
        np.array(d)


def test_bad_shapes_and_dtypes_are_clear_errors():
    with pytest.raises(ValueError, match="negative dimensions"):
        simt.zeros((3, -1))
    with pytest.raises(TypeError, match="not understood|data type"):
        simt.zeros(3, dtype="nonsense")
    with pytest.raises(TypeError, match="does not support"):
        simt.zeros(3, dtype=np.dtype("U4"))
    with pytest.raises(ValueError, match="shape mismatch"):
        simt.zeros(3).set(np.zeros(4))


@pytest.mark.parametrize("shape", [3, np.int64(3), np.uint8(3), (2, 3), [2, 3], (), np.array(3), np.array([2, 3]),
                                   (np.int32(2), 3), (0, 5)])
def test_shapes_numpy_takes_make_the_same_arrays(shape):
    assert simt.empty(shape).shape == np.empty(shape).shape
    assert simt.zeros(shape, dtype=np.int16).shape == np.zeros(shape, dtype=np.int16).shape


@pytest.mark.parametrize("shape, error, message", [
    (True, TypeError, "integers, not bool"), ((True, 2), TypeError, "integers, not bool"),
    (2.0, TypeError, "int or a tuple"), ((2, 1.0), TypeError, "integers, not float"), ("3", TypeError, "not str"),
    (None, TypeError, "not None"), (-1, ValueError, "negative dimensions"),
    (2**63, ValueError, "too big"), (-2**63 - 1, ValueError, "too big"), (np.uint64(2**63), ValueError, "too big"),
    (2**61, ValueError, "too big"), ((2**31, 2**31), ValueError, "too big"),
    ((0, 2**63 - 1), ValueError, "too big"), ((0, 2**62, 2), ValueError, "too big"),
])
def test_shapes_numpy_refuses_are_refused(shape, error, message):
    with pytest.raises(error, match=message):
        simt.empty(shape)
    with pytest.raises(error):
        np.empty(shape)


def test_out_of_memory_is_a_memory_error_naming_the_size():
    with pytest.raises(simt.cuda.OutOfMemoryError, match="bytes") as info:
        simt.empty(1 << 60, dtype=np.uint8)
    assert isinstance(info.value, MemoryError)


def test_repr_and_device():
    d = simt.asarray(np.array([1.5, 2.5]))
    assert "1.5" in repr(d)
    assert isinstance(d.device, simt.cuda.Device)
    assert isinstance(d, simt.ndarray)


def test_rand_attribute_points_to_simt_random():
    with pytest.raises(AttributeError, match="simt.random"):
        simt.rand.random(3)


def test_numba_device_array_methods(rng):
    # numba.cuda's DeviceNDArray spellings: copy_to_host (new or into an array), copy_to_device.
    h = rng.standard_normal((4, 5))
    d = simt.cuda.to_device(h)
    np.testing.assert_array_equal(d.copy_to_host(), h)
    into = np.empty((4, 5))
    assert d.copy_to_host(into) is into
    np.testing.assert_array_equal(into, h)
    g = rng.standard_normal((4, 5))
    d.copy_to_device(g)
    np.testing.assert_array_equal(d.copy_to_host(), g)
    other = simt.asarray(rng.standard_normal((4, 5)))
    d.copy_to_device(other)
    np.testing.assert_array_equal(d.copy_to_host(), other.get())
    assert d.is_c_contiguous() and not d.T.is_c_contiguous() and d.T.is_f_contiguous()
    with pytest.raises(ValueError, match="shape mismatch"):
        d.copy_to_device(simt.zeros(3))
    with pytest.raises(ValueError, match="same shape and dtype"):
        d.copy_to_host(np.empty(3))
