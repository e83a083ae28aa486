"""More of CuPy's ndarray surface against NumPy on fresh random data: .base and flags.owndata of
owners and views, .flat (reads, writes, non-contiguous arrays), .mT, tobytes/tofile/dump/dumps,
the choose method, setting .shape in place, and simt.lib.stride_tricks (as_strided and
sliding_window_view: views that share memory and never reach outside it)."""
import gc
import pickle

import numpy as np
import pytest

import simt
from simt.lib.stride_tricks import as_strided, sliding_window_view
from xp_testing import assert_same, make, numpy_simt_allclose, parametrize_dtypes


# ---- base and owndata ---------------------------------------------------------------------------
VIEWS = {
    "index": lambda a: a[1:, ::2], "int index": lambda a: a[1], "newaxis": lambda a: a[None],
    "reshape": lambda a: a.reshape(4, 3), "ravel": lambda a: a.ravel(), "T": lambda a: a.T,
    "transpose": lambda a: a.transpose(1, 0), "swapaxes": lambda a: a.swapaxes(0, 1),
    "diagonal": lambda a: a.diagonal(1), "expand_dims": lambda a: _xp(a).expand_dims(a, 1),
    "view of view": lambda a: a[1:][:, 2], "broadcast_to": lambda a: _xp(a).broadcast_to(a, (2, 3, 4)),
    "view": lambda a: a.view(), "view as int64": lambda a: a.view(np.int64), "real of complex": lambda a: a.astype(
        np.complex128).real,
}


def _xp(a):
    return simt if isinstance(a, simt.ndarray) else np


@pytest.mark.parametrize("name", list(VIEWS))
def test_views_name_their_base_and_do_not_own_data(rng, name):
    h = rng.standard_normal((3, 4))
    d = simt.asarray(h)
    assert d.base is None and d.flags.owndata
    want, got = VIEWS[name](h), VIEWS[name](d)
    owner = d.astype(np.complex128) if name == "real of complex" else d
    if name == "real of complex":
        assert got.base is not None and got.base is not d  # (the complex copy owns the memory)
    else:
        assert got.base is owner, name
    assert got.flags.owndata is want.flags.owndata is False
    np.testing.assert_array_equal(got.get(), want)


def test_base_of_copies_and_functions(rng):
    h = rng.standard_normal((3, 4))
    d = simt.asarray(h)
    for copy in (d.copy(), d + 1, d.T.ravel(), d.astype(np.float32), simt.ascontiguousarray(d.T), d[[0, 2]],
                 d[d > 0], d.flatten()):
        assert copy.base is None and copy.flags.owndata
    for view in (simt.expand_dims(d, 1), simt.broadcast_to(d, (2, 3, 4)), simt.moveaxis(d, 0, 1), simt.squeeze(d),
                 simt.atleast_3d(d), d.reshape(-1)):
        assert view.base is d and not view.flags.owndata
    assert d.astype(np.float64, copy=False) is d
    z = simt.asarray(h.astype(np.complex64))
    assert z.imag.base is z and z.real.base is z


def test_base_keeps_the_owner_alive(rng):
    h = rng.standard_normal(50)
    d = simt.asarray(h)
    v = d[10:20]
    del d
    gc.collect()
    np.testing.assert_array_equal(v.base.get(), h)
    v[...] = 0
    assert (v.base.get()[10:20] == 0).all()


# ---- flat ---------------------------------------------------------------------------------------
@parametrize_dtypes("dtype", [np.int32, np.float64, np.complex64])
@numpy_simt_allclose()
def test_flat_reads(xp, rng, dtype):
    a = make(xp, rng, (6, 5), dtype)[::2, ::-1]  # not contiguous
    b = make(xp, rng, (4, 3), dtype)
    mask = xp.asarray(np.arange(12) % 3 == 0)
    return (a.flat[4], a.flat[-1], a.flat[2:9:3], a.flat[::-1], a.flat[xp.asarray(np.array([0, 7, 3]))],
            a.flat[[1, 1, 0]], b.flat[mask], b.flat[5], b.flat[...], a.flat.copy(), b.flat.copy())


@numpy_simt_allclose()
def test_flat_writes(xp, rng):
    a = make(xp, rng, (6, 5), np.float64)
    t = a[::2, ::-1]  # writes go through to a
    t.flat[4] = 100.0
    t.flat[1:7] = xp.asarray(np.array([1.0, 2.0, 3.0]))  # values repeat over the positions
    b = make(xp, rng, (3, 4), np.int64)
    b.flat[[0, 5, 11]] = -7
    b.flat[xp.asarray(np.arange(12) % 4 == 1)] = xp.asarray(np.array([9, 8]))
    c = make(xp, rng, (2, 3), np.float32)
    c.flat = [1.5, -2.5]
    return a, b, c


def test_flat_object():
    a = simt.arange(12.0).reshape(3, 4)
    f = a.flat
    assert isinstance(f, simt.flatiter) and f.base is a and len(f) == 12
    assert [x.item() for x in a.T.flat] == list(np.arange(12.0).reshape(3, 4).T.flat)
    assert (f == simt.arange(12.0)).all() and not (f != simt.arange(12.0)).any()
    snapshot = a.flat[2:5]
    a[...] = 0
    np.testing.assert_array_equal(snapshot.get(), [2.0, 3.0, 4.0])  # (reads are copies, as NumPy's)
    with pytest.raises(IndexError, match="out of bounds"):
        a.flat[12]
    with pytest.raises(IndexError, match="out of bounds"):
        a.flat[-13] = 1.0
    np.testing.assert_array_equal(a.flat[np.array([1, 2])].get(), [0.0, 0.0])  # (host indices, as in indexing)


# ---- mT, bytes, files, pickles, choose ------------------------------------------------------------
@numpy_simt_allclose()
def test_matrix_transpose_attribute(xp, rng):
    a = make(xp, rng, (2, 3, 4), np.float32)
    return a.mT, a[:, ::2].mT, a[0].mT


def test_matrix_transpose_of_a_vector():
    for xp in (np, simt):
        with pytest.raises(ValueError, match="ndim < 2"):
            xp.zeros(3).mT


@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_tobytes(rng, order):
    h = rng.standard_normal((3, 5)).astype(np.float32)
    d = simt.asarray(h)
    for x, y in ((h, d), (h.T, d.T), (h[:, ::2], d[:, ::2]), (np.asfortranarray(h), simt.asfortranarray(d))):
        assert y.tobytes(order) == x.tobytes(order)
    assert d.tobytes() == h.tobytes()
    with pytest.raises(ValueError, match="order"):
        d.tobytes("Q")


def test_tofile_dump_dumps(tmp_path, rng):
    h = rng.integers(-50, 50, (4, 3)).astype(np.int16)
    d = simt.asarray(h)
    d.T.tofile(tmp_path / "raw.bin")
    np.testing.assert_array_equal(np.fromfile(tmp_path / "raw.bin", np.int16), h.T.ravel())
    with open(tmp_path / "text.txt", "w") as f:
        d.tofile(f, sep=",", format="%d")
    assert (tmp_path / "text.txt").read_text() == ",".join(str(v) for v in h.ravel())
    back = pickle.loads(d[1:].dumps())
    assert isinstance(back, simt.ndarray)
    assert_same(h[1:], back)
    d.dump(tmp_path / "a.pkl")
    with open(tmp_path / "a.pkl", "rb") as f:
        assert_same(h, pickle.load(f))
    with open(tmp_path / "b.pkl", "wb") as f:
        d.dump(f)
    with open(tmp_path / "b.pkl", "rb") as f:
        assert_same(h, pickle.load(f))


@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@numpy_simt_allclose()
def test_choose_method(xp, rng, mode):
    idx = xp.asarray(rng.integers(0, 3 if mode == "raise" else 6, (4, 5)))
    choices = [make(xp, rng, (4, 5), np.float64), make(xp, rng, (5,), np.float64), make(xp, rng, (4, 1), np.float64)]
    return idx.choose(choices, mode=mode)


# ---- setting .shape -----------------------------------------------------------------------------
def test_setting_shape_reshapes_in_place(rng):
    h = rng.standard_normal(24)
    d = simt.asarray(h)
    alias = d
    d.shape = (2, 3, 4)
    assert alias.shape == (2, 3, 4) and d.strides == (96, 32, 8)
    np.testing.assert_array_equal(d.get(), h.reshape(2, 3, 4))
    d.shape = (4, -1)
    assert d.shape == (4, 6)
    v = d[:, :2]  # a view: only reshapes that stay views are allowed
    v.shape = (8,) if v._c_contiguous else v.shape
    w = d[1:3]
    w.shape = (12,)
    w[...] = 0
    assert (d.get()[1:3] == 0).all() and w.base is d
    n = h.reshape(4, 6).copy()
    for x in (d.T, n.T):
        with pytest.raises(AttributeError, match="Incompatible shape for in-place modification"):
            x.shape = (24,)
    for x in (d, n):
        with pytest.raises(ValueError, match="cannot reshape array of size 24 into shape"):
            x.shape = (5, 5)
    with pytest.raises(TypeError):
        d.shape = "ab"
    z = simt.zeros(())
    z.shape = (1, 1)
    assert z.shape == (1, 1)


# ---- stride tricks -------------------------------------------------------------------------------
@numpy_simt_allclose()
def test_as_strided_matches_numpy(xp, rng):
    st = np.lib.stride_tricks if xp is np else simt.lib.stride_tricks
    a = make(xp, rng, (20,), np.float64)
    b = make(xp, rng, (4, 6), np.int32)
    return (st.as_strided(a, (5, 4), (24, 8)),  # overlapping windows
            st.as_strided(a[3:], (3, 4), (0, 8)),  # a repeated row
            st.as_strided(a[10:], (5,), (-16,)),  # backwards, into the part before the view
            st.as_strided(b, (3, 2, 2), (b.strides[0], 4, b.strides[0])), st.as_strided(b.T),
            st.as_strided(a, (0, 7), (8, 8)))


def test_as_strided_shares_memory_and_stays_inside_it(rng):
    h = rng.standard_normal(12)
    d = simt.asarray(h)
    v = as_strided(d[2:], (3, 2), (32, 8))
    assert v.base is d and not v.flags.owndata
    v[1, 1] = 99.0  # element 2 + 4 + 1 of d
    assert d.get()[7] == 99.0
    as_strided(d[4:], (3,), (-16,))[...] = -1.0  # reaches back to d[0]
    np.testing.assert_array_equal(d.get()[[0, 2, 4]], -1.0)
    whole = as_strided(d[11:], (12,), (-8,))  # the whole buffer, from its last element back
    np.testing.assert_array_equal(whole.get(), d.get()[::-1])
    for shape, strides, base in [((13,), (8,), d), ((2,), (-8,), d[:1]), ((3,), (48,), d[3:]), ((2, 2), (88, 8), d)]:
        with pytest.raises(ValueError, match="never reads or writes outside"):
            as_strided(base, shape, strides)
    with pytest.raises(ValueError, match="multiples of the 8-byte item size"):
        as_strided(d, (2,), (4,))
    with pytest.raises(ValueError, match="different lengths"):
        as_strided(d, (2, 2), (8,))
    with pytest.raises(ValueError, match="negative dimensions"):
        as_strided(d, (-1,), (8,))
    assert as_strided(d, (0, 5), (8, 8)).shape == (0, 5)  # (an empty view reads nothing)
    i = d.view(np.int64)  # a view of the memory as another dtype
    w = as_strided(i[1:], (2,), (16,))
    assert w.dtype == np.int64 and w.base is d
    np.testing.assert_array_equal(w.get(), d.get().view(np.int64)[1:5:2])
    with pytest.raises(ValueError, match="never reads or writes outside"):
        as_strided(i[1:], (7,), (16,))


@pytest.mark.parametrize("window, axis", [(3, None), ((2, 3), None), (2, 0), ((2, 2), (1, 1)), (4, -1),
                                          ((1, 2), (0, 1))])
@numpy_simt_allclose()
def test_sliding_window_view(xp, rng, window, axis):
    st = np.lib.stride_tricks if xp is np else simt.lib.stride_tricks
    a = make(xp, rng, (5, 6), np.float32)
    if axis is None and np.ndim(window) == 0:
        a = a[1]
    return st.sliding_window_view(a, window, axis), st.sliding_window_view(a[::-2] if a.ndim == 1 else a[::2, ::-1],
                                                                           window, axis)


def test_sliding_window_view_shares_memory_and_errors(rng):
    d = simt.asarray(rng.standard_normal(8))
    w = sliding_window_view(d, 3)
    assert w.base is d and w.shape == (6, 3)
    w[2, 1] = 5.0
    assert d.get()[3] == 5.0 and w.get()[1, 2] == 5.0 and w.get()[3, 0] == 5.0
    for xp, st in ((np, np.lib.stride_tricks), (simt, simt.lib.stride_tricks)):
        a = xp.zeros((3, 4))
        with pytest.raises(ValueError, match="window shape cannot be larger"):
            st.sliding_window_view(a, 5, axis=1)
        with pytest.raises(ValueError, match="must provide window_shape for all dimensions"):
            st.sliding_window_view(a, 2)
        with pytest.raises(ValueError, match="cannot contain negative values"):
            st.sliding_window_view(a, (-1, 2))
        with pytest.raises(ValueError, match="matching length window_shape and axis"):
            st.sliding_window_view(a, (2, 2), axis=0)
    assert simt.lib.stride_tricks.broadcast_to is simt.broadcast_to


def test_item_takes_a_flat_index_like_numpy(rng):
    host = rng.standard_normal((3, 4, 2))
    a = simt.asarray(host)
    for k in [0, 5, 23, -1, -24, int(rng.integers(0, 24))]:
        assert a.item(k) == host.item(k)
    assert a.item(1, 2, 1) == host.item(1, 2, 1) and a.item((2, 0, 1)) == host.item((2, 0, 1))
    assert simt.asarray(np.float32(2.5)).item(0) == 2.5  # (a 0-d array's only element)
    with pytest.raises(IndexError, match="out of bounds"):
        a.item(24)
    with pytest.raises(IndexError, match="out of bounds"):
        a.item(-25)
