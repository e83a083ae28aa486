"""CuPy-array protocols of simt.ndarray (format, pickle, copy, .data, .view) and CuPy/numba stream
and event spellings (Stream.null, use, done, auto_synchronize, handle), against NumPy."""
import copy
import pickle

import numpy as np
import pytest

import simt
from simt import cuda


def test_format_of_a_reduction_result_formats_its_value(rng):
    h = rng.standard_normal(101)
    d = simt.asarray(h)
    assert f"{d.sum():.3f}" == f"{h.sum():.3f}"
    assert f"{d.max():>12.5e}" == f"{h.max():>12.5e}"
    i = simt.asarray(rng.integers(-50, 50, 9))
    assert f"{i.sum():+05d}" == f"{int(i.get().sum()):+05d}"
    assert f"{d[3]:g}" == f"{h[3]:g}"


def test_format_of_arrays_follows_numpy(rng):
    h = rng.standard_normal((2, 3))
    assert f"{simt.asarray(h)}" == f"{h}"
    with pytest.raises(TypeError, match="unsupported format string"):
        f"{simt.asarray(h):.2f}"
    with pytest.raises(TypeError):
        f"{h:.2f}"  # NumPy refuses the same


@pytest.mark.parametrize("dtype", [np.float32, np.int16, np.complex128, np.bool_])
def test_pickle_round_trip(rng, dtype):
    h = (rng.standard_normal((4, 5)) * 10).astype(dtype)
    for d in (simt.asarray(h), simt.asarray(h)[:, 1::2], simt.asarray(h).T):
        back = pickle.loads(pickle.dumps(d))
        assert isinstance(back, simt.ndarray)
        assert back.dtype == d.dtype and back.shape == d.shape
        np.testing.assert_array_equal(back.get(), d.get())


def test_copy_and_deepcopy_are_independent_device_copies(rng):
    h = rng.standard_normal((3, 4))
    d = simt.asarray(h)
    for c in (copy.copy(d), copy.deepcopy(d), copy.deepcopy({"a": d})["a"]):
        assert isinstance(c, simt.ndarray) and c.data.ptr != d.data.ptr
        c[0, 0] = 1234.5
        np.testing.assert_array_equal(d.get(), h)
    shared = copy.deepcopy([d, d])
    assert shared[0] is shared[1]  # deepcopy's memo: one copy for one original
    f = copy.copy(d.T)
    assert f.flags.f_contiguous
    np.testing.assert_array_equal(f.get(), h.T)


def test_data_pointer(rng):
    d = simt.asarray(rng.standard_normal(8))
    assert d.data.ptr == d.data_ptr == int(d.data)
    assert d[2:].data.ptr == d.data.ptr + 2 * d.itemsize
    assert d.data.device_id == 0


@pytest.mark.parametrize("src, dst", [(np.float32, np.uint32), (np.float64, np.int64), (np.uint8, np.uint32),
                                      (np.int32, np.int8), (np.float64, np.float32), (np.complex64, np.float32),
                                      (np.int16, np.float16)])
def test_view_as_another_dtype_matches_numpy(rng, src, dst):
    h = (rng.standard_normal((3, 8)) * 100).astype(src)
    d = simt.asarray(h)
    want = h.view(dst)
    got = d.view(dst)
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got.get(), want)
    got[0, 0] = 0  # a view: the original's memory changes
    assert d.view(np.uint8).get()[0, : np.dtype(dst).itemsize].tolist() == [0] * np.dtype(dst).itemsize


def test_view_of_sliced_rows_and_same_size_views(rng):
    h = rng.standard_normal((4, 6))
    d = simt.asarray(h)
    np.testing.assert_array_equal(d[1::2].view(np.int32).get(), h[1::2].view(np.int32))
    np.testing.assert_array_equal(d.T.view(np.int64).get(), h.T.view(np.int64))
    np.testing.assert_array_equal(d.view().get(), h)
    total = d.sum()  # (a 0-d array: its bits as int64, compared with the same value's bits on the host)
    assert total.view(np.int64).get() == np.float64(total.get()).view(np.int64)


@pytest.mark.parametrize("make, dtype", [(lambda x: x.T, np.float32), (lambda x: x[:, ::2], np.int8),
                                         (lambda x: x[:, :3].copy(), np.complex128), (lambda x: x.sum(), np.float32)])
def test_view_errors_match_numpy(rng, make, dtype):
    h = rng.standard_normal((4, 6))
    with pytest.raises(ValueError) as numpy_error:
        make(h).view(dtype)
    if make(h).ndim:  # (NumPy's 0-d arrays view as their scalars; simt's 0-d arrays stay arrays)
        with pytest.raises(ValueError) as simt_error:
            make(simt.asarray(h)).view(dtype)
        assert str(simt_error.value) == str(numpy_error.value)


def test_view_of_misaligned_or_empty_memory():
    with pytest.raises(ValueError, match="not aligned to 4 bytes"):
        simt.arange(9, dtype=np.int8)[1:].view(np.int32)
    np.testing.assert_array_equal(simt.arange(8, dtype=np.int8)[4:].view(np.int32).get(),
                                  np.arange(8, dtype=np.int8)[4:].view(np.int32))
    assert simt.zeros((3, 0), np.uint8).view(np.int64).shape == np.zeros((3, 0), np.uint8).view(np.int64).shape


def test_view_refuses_array_classes():
    with pytest.raises(TypeError, match="takes a dtype"):
        simt.zeros(3).view(np.ndarray)


def test_stream_spellings(rng):
    s = cuda.stream()
    assert cuda.Stream.null is cuda.default_stream()
    h = rng.standard_normal(1000)
    with s.auto_synchronize():
        with s:
            d = simt.asarray(h) * 2
    assert s.done
    np.testing.assert_allclose(d.get(), h * 2)
    assert isinstance(s.handle, int)
    assert s.handle != 0


def test_stream_use_replaces_the_current_stream():
    s, t = cuda.stream(), cuda.stream()
    assert cuda.get_current_stream() is cuda.Stream.null
    with t:
        s.use()
        assert cuda.get_current_stream() is s
    assert cuda.get_current_stream() is cuda.Stream.null  # the with block restores what it replaced
    s.use()
    try:
        assert cuda.get_current_stream() is s
    finally:
        cuda.Stream.null.use()
    assert cuda.get_current_stream() is cuda.Stream.null


def test_event_done(rng):
    e = cuda.event()
    d = simt.asarray(rng.standard_normal(10_000))
    (d * d).sum()
    e.record()
    e.synchronize()
    assert e.done


def test_view_of_a_single_column_may_change_item_size(rng):
    h = rng.standard_normal((4, 6))
    np.testing.assert_array_equal(simt.asarray(h)[:, :1].view(np.int8).get(), h[:, :1].view(np.int8))
