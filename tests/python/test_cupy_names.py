"""CuPy's names around the array core (found missing by a probe of CuPy idioms): NumPy's type
aliases and abstract types, dtype helpers, index helpers (s_, ndindex, mgrid, ogrid),
cupy.testing's assertions, CuPy's device attribute names and compute capability string, and
NumPy's repr; checked against NumPy."""
import numpy as np
import pytest

import simt


@pytest.mark.parametrize("name", ["intp", "uintp", "intc", "uintc", "int_", "uint", "byte", "ubyte", "short", "ushort",
                                  "longlong", "ulonglong", "half", "single", "double", "csingle", "cdouble"])
def test_numpy_type_aliases_make_arrays_of_numpys_dtype(rng, name):
    x = rng.integers(0, 100, 7).astype(getattr(np, name))
    d = simt.asarray(x).astype(getattr(simt, name))
    assert d.dtype == np.dtype(getattr(np, name))
    np.testing.assert_array_equal(d.get(), x)
    assert simt.zeros(3, dtype=getattr(simt, name)).dtype == np.dtype(getattr(np, name))


def test_abstract_types_and_dtype_helpers(rng):
    f, i, c = simt.zeros(2, np.float32), simt.zeros(2, np.int16), simt.zeros(2, np.complex64)
    assert simt.issubdtype(f.dtype, simt.floating) and simt.issubdtype(i.dtype, simt.signedinteger)
    assert simt.issubdtype(c.dtype, simt.complexfloating) and simt.issubdtype(c.dtype, simt.inexact)
    assert not simt.issubdtype(i.dtype, simt.unsignedinteger) and simt.issubdtype(i.dtype, simt.integer)
    assert simt.issubdtype(f.dtype, simt.number) and simt.issubdtype(f.dtype, simt.generic)
    assert simt.common_type(f, i) is np.common_type(np.zeros(2, np.float32), np.zeros(2, np.int16))
    assert simt.common_type(f, c) is np.complex64
    assert simt.mintypecode("fd") == np.mintypecode("fd") and simt.typename("d") == np.typename("d")
    assert simt.float_ is np.float64 and simt.complex_ is np.complex128


def test_index_helpers(rng):
    x = rng.standard_normal((5, 6))
    d = simt.asarray(x)
    np.testing.assert_array_equal(d[simt.s_[1:4, ::2]].get(), x[np.s_[1:4, ::2]])
    assert simt.index_exp[2:3] == np.index_exp[2:3]
    assert list(simt.ndindex(2, 3)) == list(np.ndindex(2, 3))
    for dense, sparse, key in ((simt.mgrid, simt.ogrid, np.s_[0:3, 0:4]), (simt.mgrid, simt.ogrid, np.s_[-1:1:5j])):
        m = dense[key]
        np.testing.assert_array_equal(m.get(), np.mgrid[key])
        o, expected = sparse[key], np.ogrid[key]
        if isinstance(expected, (list, tuple)):
            assert len(o) == len(expected)
            for got, want in zip(o, expected):
                assert isinstance(got, simt.ndarray)
                np.testing.assert_array_equal(got.get(), want)
        else:
            np.testing.assert_array_equal(o.get(), expected)


def test_testing_assertions_take_device_and_host_arrays(rng):
    x = rng.standard_normal(20)
    d = simt.asarray(x)
    simt.testing.assert_allclose(d * 2, x * 2)
    simt.testing.assert_array_equal(d, x)
    simt.testing.assert_array_almost_equal(d + 1e-9, x)
    simt.testing.assert_array_less(d, x + 1)
    simt.testing.assert_array_list_equal([d, d], [x, x])
    with pytest.raises(AssertionError):
        simt.testing.assert_allclose(d, x + 1e-3)
    with pytest.raises(AssertionError):
        simt.testing.assert_array_equal(d, x[::-1])
    with pytest.raises(AssertionError):
        simt.testing.assert_array_list_equal([d], [x, x])


def test_cupy_device_attribute_names_and_compute_capability():
    dev = simt.cuda.Device()
    attrs = dev.attributes
    assert attrs["MultiProcessorCount"] == attrs["multiprocessor_count"] > 0
    assert attrs["WarpSize"] == 32 and attrs["MaxThreadsPerBlock"] == attrs["max_threads_per_block"]
    assert (attrs["MaxBlockDimX"], attrs["MaxBlockDimY"], attrs["MaxBlockDimZ"]) == tuple(attrs["max_block_dim"])
    assert (attrs["MaxGridDimX"], attrs["MaxGridDimY"], attrs["MaxGridDimZ"]) == tuple(attrs["max_grid_dim"])
    major, minor = attrs["compute_capability"]
    cc = dev.compute_capability
    text = f"{major}{minor}"
    # numba's tuple ...
    assert cc == (major, minor) and tuple(cc) == (major, minor) and cc[0] == major and repr(cc) == repr((major, minor))
    assert cc >= (major, 0) and cc < (major + 1, 0)
    # ... that reads as CuPy's string
    assert str(cc) == f"{cc}" == text and int(cc) == int(text) and cc == text and cc != "00"
    assert "sm_" + cc == "sm_" + text and cc + "a" == text + "a"
    assert (cc >= "10") == (text >= "10") and (cc < "99") == (text < "99")


def test_repr_is_numpys(rng):
    for x in (np.arange(int(rng.integers(1, 9))), rng.standard_normal(3), rng.standard_normal(3).astype(np.float32),
              np.zeros((0, 3)), np.array([True, False]), (rng.standard_normal(2) + 1j).astype(np.complex64),
              rng.integers(0, 9, (2, 3)).astype(np.uint8)):
        assert repr(simt.asarray(x)) == repr(x)
