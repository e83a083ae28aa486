"""Views, shapes and copies against NumPy: basic indexing, assignment through views, reshape,
transposes, squeeze/expand_dims/broadcast_to, astype/copy, host transfers of non-contiguous
arrays, joining, and arange/linspace/eye."""
import numpy as np
import pytest

import simt
from xp_testing import ALL, make, numpy_simt_allclose, numpy_simt_raises, parametrize_dtypes

INDICES = [
    (1,), (-1,), (slice(None, None, -1),), (slice(1, None, 2),), (Ellipsis, 0), (None, 1), (1, None, slice(None, 2)),
    (slice(-2, None), Ellipsis, slice(None, None, -2)), (0, 1, 2), (slice(5, 1, -1), -3), (slice(10, 20),),
    (Ellipsis,), (), (slice(None), None, slice(None), None),
]


@pytest.mark.parametrize("index", INDICES, ids=str)
@numpy_simt_allclose()
def test_basic_indexing(xp, rng, index):
    a = make(xp, rng, (6, 5, 4), np.float64)
    v = a[index]
    return v, v * 1  # the view itself, and a computation on it


def test_indexing_gives_views_that_share_memory():
    a = simt.arange(24).reshape(2, 3, 4)
    v = a[1, ::-1, 1::2]
    assert v.shape == (3, 2) and v.strides == (-32, 16)
    v[...] = -1
    expected = np.arange(24).reshape(2, 3, 4)
    expected[1, :, 1::2] = -1
    np.testing.assert_array_equal(a.get(), expected)
    s = a[0, 1, 2]
    assert s.shape == () and isinstance(s, simt.ndarray) and int(s) == 6 and s.item() == 6
    assert float(a[1, 0, 1]) == -1.0 and float(a[1, 0, 0]) == 12.0 and complex(a[0, 0, 0]) == 0j
    assert [int(x) for x in simt.arange(3)] == [0, 1, 2]
    assert list(range(10))[simt.arange(5)[3]] == 3  # __index__


@pytest.mark.parametrize("index", [(7,), (0, 9), (0, 0, 0, 0), (Ellipsis, Ellipsis)], ids=str)
@numpy_simt_raises(IndexError)
def test_indexing_errors(xp, index):
    xp.zeros((6, 5, 4))[index]


def test_invalid_indices_are_refused_clearly():
    a = simt.zeros((3, 4))
    for index in ("x", object(), (0, b"y")):
        with pytest.raises(IndexError, match="valid indices"):
            a[index]
    with pytest.raises(IndexError, match="valid indices"):
        a["x"]
    with pytest.raises(TypeError, match="len"):
        len(a[0, 0])


@parametrize_dtypes("dtype", ALL)
@numpy_simt_allclose()
def test_setitem_scalars_arrays_and_broadcasting(xp, rng, dtype):
    a = make(xp, rng, (5, 6), dtype)
    b = make(xp, rng, (6,), dtype)
    a[1] = 1
    a[2:4, ::2] = b[::2]           # broadcast a row into a block
    # cast on assignment (non-negative: a negative float cast to unsigned is undefined in NumPy too)
    a[:, -1] = abs(make(xp, rng, (5,), np.float64))
    a[4, 1:3] = np.float32(0.5) if dtype is not np.bool_ else True
    a[...] = a[::-1]              # overlapping source
    return a


@numpy_simt_allclose()
def test_setitem_with_host_data_and_leading_unit_axes(xp, rng):
    a = xp.zeros((3, 4), np.int32)
    a[0] = np.arange(4)           # an explicit copy of host data into the view
    a[1, 1:3] = [7, 8]
    a[2] = make(xp, rng, (1, 4), np.int32)  # NumPy drops leading length-1 axes
    return a


@pytest.mark.parametrize("case", ["shape", "overflow", "delete"])
def test_setitem_errors(case):
    a = simt.zeros((3, 4), np.uint8)
    h = np.zeros((3, 4), np.uint8)
    if case == "shape":
        with pytest.raises(ValueError, match="could not broadcast"):
            a[0] = simt.ones(3)
        with pytest.raises(ValueError):
            h[0] = np.ones(3)
    elif case == "overflow":
        with pytest.raises(OverflowError, match="out of bounds for uint8"):
            a[0] = 300
        with pytest.raises(OverflowError):
            h[0] = 300
    else:
        with pytest.raises(ValueError, match="cannot delete"):
            del a[0]


RESHAPES = [((4, 6), (24,), "C"), ((4, 6), (2, -1, 3), "C"), ((4, 6), (6, 4), "F"), ((2, 3, 4), (-1,), "F"),
            ((0, 3), (3, 0), "C"), ((5,), (1, 5, 1), "C"), ((), (1,), "C"), ((3, 4), (12,), "A")]


@pytest.mark.parametrize("case", RESHAPES, ids=str)
@pytest.mark.parametrize("view", ["plain", "transposed", "stepped"])
@numpy_simt_allclose()
def test_reshape_of_views_and_copies(xp, rng, case, view):
    shape, new_shape, order = case
    a = make(xp, rng, shape, np.float32)
    if view == "transposed":
        a = a.T
        new_shape = new_shape[::-1]
    elif view == "stepped" and a.ndim:
        a = a[::-1]
    return a.reshape(new_shape, order=order), xp.reshape(a, new_shape), a.ravel(order), a.flatten()


def test_reshape_is_a_view_when_possible():
    a = simt.arange(24.0).reshape(4, 6)
    v = a.reshape(2, 12)
    v[0, 0] = 100
    assert a[0, 0].item() == 100
    c = a.T.reshape(24)  # needs a copy in C order
    c[0] = -5
    assert a[0, 0].item() == 100
    f = a.T.reshape(24, order="F")  # a view in F order
    f[1] = -7
    assert a[0, 1].item() == -7
    assert a.reshape(2, 3, 4).strides == (96, 32, 8)


@pytest.mark.parametrize("shape", [(4,), (5, 7)], ids=str)
@numpy_simt_raises(ValueError)
def test_reshape_errors(xp, shape):
    xp.zeros(6).reshape(shape)


@numpy_simt_allclose()
def test_transposes_squeeze_expand_and_broadcast(xp, rng):
    a = make(xp, rng, (2, 1, 3, 1), np.int32)
    return (a.T, a.transpose(2, 0, 3, 1), a.transpose((1, 0, 2, 3)), xp.transpose(a, (3, 2, 1, 0)), a.swapaxes(0, 2),
            a.squeeze(), a.squeeze(1), a.squeeze((1, 3)), xp.squeeze(a, axis=-1), xp.expand_dims(a, 0),
            xp.expand_dims(a[0, 0], (0, 2)), xp.broadcast_to(a[0, :, :, 0], (4, 1, 3)), xp.moveaxis(a, 0, -1),
            xp.broadcast_arrays(a[0], a[1, :, :1])[1])


@pytest.mark.parametrize("case", ["transpose-axes", "repeated", "squeeze", "axis", "broadcast"])
@numpy_simt_raises(ValueError, np.exceptions.AxisError)
def test_shape_errors(xp, case):
    a = xp.zeros((2, 3))
    {"transpose-axes": lambda: a.transpose(0), "repeated": lambda: a.transpose(0, 0),
     "squeeze": lambda: a.squeeze(0), "axis": lambda: xp.expand_dims(a, 5),
     "broadcast": lambda: xp.broadcast_to(a, (4, 3))}[case]()


def test_axis_errors_are_numpys_axis_error():
    with pytest.raises(np.exceptions.AxisError, match="axis 3 is out of bounds for array of dimension 2"):
        simt.zeros((2, 3)).swapaxes(0, 3)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@parametrize_dtypes("src", ALL)
@pytest.mark.parametrize("dst", [np.bool_, np.int8, np.uint16, np.int64, np.uint64, np.float16, np.float32,
                                 np.complex64], ids=lambda d: np.dtype(d).name)
@numpy_simt_allclose()
def test_astype_between_every_dtype(xp, rng, src, dst):
    a = make(xp, rng, (4, 5), src, low=0 if np.dtype(dst).kind in "ub" else -20, high=20)
    return a.astype(dst)


@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
@pytest.mark.parametrize("pair", [(np.float64, np.int16), (np.complex64, np.float32), (np.uint8, np.float16),
                                  (np.int64, np.bool_), (np.float32, np.complex128)], ids=str)
@numpy_simt_allclose()
def test_astype_of_strided_views(xp, rng, pair):
    a = make(xp, rng, (4, 6), pair[0], low=0, high=20)
    return a[:, ::-2].astype(pair[1]), a.T.astype(pair[1], order="C")


@numpy_simt_allclose()
def test_astype_float16_rounding_is_bit_exact(xp):
    x = np.array([2 ** -24, 3 * 2 ** -24, 2 ** -25, 1.5 * 2 ** -25, 2 ** -15, 6.1e-5, 1e-6, 65504, 65519, 1e5, -3e-6,
                  0.1, 1 / 3, np.nan, -np.inf])
    return xp.asarray(x.astype(np.float32)).astype(np.float16), xp.asarray(x).astype(np.float16)


@numpy_simt_allclose()
def test_copies_and_contiguity(xp, rng):
    a = make(xp, rng, (4, 6), np.float64)[::2, 1::2]
    c = a.copy()
    f = a.copy(order="F")
    k = a.T.copy(order="K")
    assert c.flags["C_CONTIGUOUS"] and f.flags["F_CONTIGUOUS"] and k.flags["F_CONTIGUOUS"]
    a[...] = 0  # copies are independent
    return c, f, k, xp.ascontiguousarray(a.T), xp.asfortranarray(c), xp.copy(c)


@parametrize_dtypes("dtype", [np.int16, np.float32, np.complex128])
def test_get_and_set_of_non_contiguous_views(rng, dtype):
    host = (rng.standard_normal((6, 8)) * 10).astype(dtype)
    d = simt.asarray(host)
    for view in (lambda x: x[::2, ::-3], lambda x: x.T, lambda x: x[:, 3], lambda x: x[1:4, None, 2:]):
        np.testing.assert_array_equal(view(d).get(), view(host))
        np.testing.assert_array_equal(simt.asnumpy(view(d)), view(host))
    new = (rng.standard_normal((3, 8)) * 5).astype(dtype)
    d[::2].set(new)
    host[::2] = new
    np.testing.assert_array_equal(d.get(), host)
    out = np.empty((8, 6), dtype).T
    d.get(out=out)
    np.testing.assert_array_equal(out, host)


@numpy_simt_allclose()
def test_fill_of_views_and_real_imag(xp, rng):
    a = make(xp, rng, (4, 5), np.complex64)
    a[1::2, ::2].fill(3 - 1j)
    z = xp.zeros((3, 3), np.float16)
    z.T[0].fill(2.5)
    r = make(xp, rng, (5,), np.float64)
    return a, a.real, a.imag, a.T.imag, xp.real(a), xp.imag(r), z


@numpy_simt_allclose()
def test_concatenate_and_stack(xp, rng):
    a = make(xp, rng, (2, 3), np.int8)
    b = make(xp, rng, (4, 3), np.float32)
    c = make(xp, rng, (2, 5), np.int64)
    return (xp.concatenate([a, b]), xp.concatenate([a, c], axis=1), xp.concatenate([a, b.T[:, :2].T], axis=-2),
            xp.concatenate([a, c], axis=None), xp.stack([a, a[::-1]]), xp.stack([a, a], axis=-1),
            xp.stack([a[0], a[1]], axis=1), xp.hstack([a, c]), xp.vstack([a, b]), xp.concatenate([a, b], dtype=np.float64))


@pytest.mark.parametrize("case", ["dims", "shape", "stack"])
@numpy_simt_raises(ValueError)
def test_join_errors(xp, case):
    a, b = xp.zeros((2, 3)), xp.zeros((3,))
    if case == "dims":
        xp.concatenate([a, b])
    elif case == "shape":
        xp.concatenate([a, xp.zeros((2, 4))])
    else:
        xp.stack([a, xp.zeros((3, 2))])


@pytest.mark.parametrize("args", [(5,), (2, 11, 3), (0, 1, 0.1), (10, 0, -3), (0, -5), (1.5,), (-3, 3, 0.5)], ids=str)
@numpy_simt_allclose()
def test_arange(xp, args):
    return xp.arange(*args)


@numpy_simt_allclose()
def test_arange_with_dtype(xp):
    return (xp.arange(5, dtype=np.float32), xp.arange(1, 2, 0.5, dtype=np.int64), xp.arange(3, dtype=np.uint8),
            xp.arange(0, 1, 0.25, dtype=np.float16))


@numpy_simt_allclose()
def test_linspace(xp):
    return (xp.linspace(0, 1, 5), xp.linspace(-2, 7, 13, endpoint=False), xp.linspace(0, 10, 4, dtype=np.int64),
            xp.linspace(-10, 0, 4, dtype=np.int64), xp.linspace(1, 2, 1), xp.linspace(0, 1, 0),
            xp.linspace(0, 1, 7, dtype=np.float32), xp.linspace(0, 1, 3, retstep=True)[0])


@numpy_simt_allclose()
def test_eye_and_identity(xp):
    return (xp.eye(3), xp.eye(3, 5, k=2), xp.eye(4, 2, k=-1, dtype=np.int32), xp.eye(2, k=5), xp.identity(4, np.bool_),
            xp.eye(3, 4, order="F"))


def test_device_arrays_never_take_host_data_implicitly():
    with pytest.raises(TypeError, match="asarray"):
        simt.concatenate([simt.ones(2), np.ones(2)])
    with pytest.raises(TypeError, match="asarray"):
        simt.reshape(np.ones(4), (2, 2))


def test_casting_complex_to_real_warns_like_numpy():
    with pytest.warns(np.exceptions.ComplexWarning):
        simt.ones(2, np.complex64).astype(np.float32)


@simt.cuda.jit
def scale_rows(a, factor):
    i, j = simt.cuda.grid(2)
    if i < a.shape[0] and j < a.shape[1]:
        a[i, j] = a[i, j] * factor


def test_kernels_take_strided_views_and_write_through_them(rng):
    host = rng.standard_normal((8, 6))
    d = simt.asarray(host)
    for view, host_view in ((d[::2, ::-1], host[::2, ::-1]), (d.T, host.T), (d[1:7:3, None, 2], host[1:7:3, None, 2])):
        scale_rows[(2, 2), (8, 8)](view, 3.0)
        host_view *= 3.0
    np.testing.assert_allclose(d.get(), host)
    assert any("1d" not in sig[0] and ", A)" in sig[0] for sig in scale_rows.signatures)
