"""simt.nonzero, flatnonzero, argwhere, count_nonzero, where(cond), take, put, compress, extract
and their ndarray methods against NumPy, and NumPy's functions dispatching to them."""
import numpy as np
import pytest

import simt
from xp_testing import ALL, make, numpy_simt_allclose, numpy_simt_raises, parametrize_dtypes

SHAPES = [(1,), (17,), (4, 5), (3, 4, 5), (2, 0, 3), (300, 7)]


def sparse(xp, rng, shape, dtype):
    """Random data with about half of it zero."""
    a = make(np, rng, shape, dtype) * (rng.random(shape) < 0.5)
    return xp.asarray(a.astype(dtype))


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@numpy_simt_allclose()
def test_nonzero_family(xp, rng, shape):
    a = sparse(xp, rng, shape, np.float32)
    return xp.nonzero(a), xp.flatnonzero(a), xp.argwhere(a), xp.where(a > 0), a.nonzero()


@parametrize_dtypes("dtype", ALL)
@numpy_simt_allclose()
def test_nonzero_all_dtypes(xp, rng, dtype):
    a = sparse(xp, rng, (6, 9), dtype)
    return xp.nonzero(a), xp.count_nonzero(a), xp.count_nonzero(a, axis=1)


@numpy_simt_allclose()
def test_nonzero_of_non_contiguous_and_all_false(xp, rng):
    a = sparse(xp, rng, (8, 10), np.int16)[::-2, 1::3]
    zeros = xp.zeros((3, 4), np.bool_)
    return xp.nonzero(a), xp.argwhere(a.T), xp.nonzero(zeros), xp.flatnonzero(zeros)


@numpy_simt_allclose()
def test_argwhere_zero_d(xp, rng):
    return xp.argwhere(xp.asarray(np.float64(rng.random() + 1))), xp.argwhere(xp.asarray(np.int8(0)))


@numpy_simt_raises(ValueError)
def test_nonzero_of_zero_d_is_refused(xp):
    xp.nonzero(xp.asarray(np.int32(3)))


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 2)], ids=str)
@numpy_simt_allclose(type_check=False)  # NumPy: an int for axis=None; simt: a 0-d array (as CuPy)
def test_count_nonzero(xp, rng, axis):
    a = sparse(xp, rng, (5, 6, 7), np.float64)
    return xp.asarray(xp.count_nonzero(a, axis=axis)), xp.count_nonzero(a > 0, axis=axis, keepdims=True)


@pytest.mark.parametrize("axis", [None, 0, 1, -1])
@pytest.mark.parametrize("kind", ["device", "numpy", "list", "scalar"])
@numpy_simt_allclose()
def test_take(xp, rng, axis, kind):
    a = make(xp, rng, (5, 6), np.float64)
    n = a.size if axis is None else a.shape[axis]
    host = rng.integers(-n, n, size=(2, 3))
    indices = {"device": xp.asarray(host), "numpy": host, "list": host.tolist(), "scalar": int(host[0, 0])}[kind]
    return xp.take(a, indices, axis=axis), a.take(indices, axis=axis)


@pytest.mark.parametrize("mode", ["wrap", "clip"])
@numpy_simt_allclose()
def test_take_modes(xp, rng, mode):
    a = make(xp, rng, (4, 7), np.int32)
    host = rng.integers(-20, 20, size=(9,))
    return xp.take(a, xp.asarray(host), axis=1, mode=mode), xp.take(a, host.tolist(), mode=mode)


@numpy_simt_allclose()
def test_take_into_out(xp, rng):
    a = make(xp, rng, (6, 3), np.float32)
    out = xp.zeros((2, 3), np.float32)
    xp.take(a, [4, -1], axis=0, out=out)
    return out


@numpy_simt_raises(IndexError)
def test_take_out_of_range(xp):
    xp.take(xp.arange(5), xp.asarray(np.array([1, 5])))


@pytest.mark.parametrize("values", ["same_length", "shorter", "longer", "scalar"])
@pytest.mark.parametrize("mode", ["raise", "wrap", "clip"])
@numpy_simt_allclose()
def test_put(xp, rng, values, mode):
    a = make(xp, rng, (4, 5), np.float64)
    ind = rng.permutation(20)[:6] - 20 * rng.integers(0, 2, 6)  # distinct elements
    if mode == "wrap":
        ind = ind * 3  # 3 is prime to 20: still distinct elements
    elif mode == "clip":  # one index clipped to each end, four inside: still distinct elements
        ind = np.concatenate([[-1 - rng.integers(0, 9), 20 + rng.integers(0, 9)], 1 + rng.permutation(18)[:4]])
        rng.shuffle(ind)
    # (repeated elements would race on a GPU, where NumPy's last value wins only by its loop order)
    count = {"same_length": 6, "shorter": 4, "longer": 9}.get(values)
    v = 2.5 if count is None else make(np, rng, (count,), np.float64)
    xp.put(a, xp.asarray(ind) if values != "shorter" else ind.tolist(), xp.asarray(v) if count else v, mode=mode)
    return a


@numpy_simt_allclose()
def test_put_non_contiguous(xp, rng):
    base = make(xp, rng, (6, 8), np.int64)
    a = base[::2, ::-2]
    a.put([0, 5, -1], xp.asarray(np.array([100, 200, 300])))
    return base


@pytest.mark.parametrize("axis", [None, 0, 1])
@numpy_simt_allclose()
def test_compress_and_extract(xp, rng, axis):
    a = make(xp, rng, (5, 6), np.float64)
    n = a.size if axis is None else a.shape[axis]
    cond = rng.random(n) < 0.5
    cond_d = xp.asarray(cond)
    shorter = cond[: n - 2].tolist()
    grid_cond = xp.asarray(rng.random((5, 6)) < 0.5)
    return (xp.compress(cond_d, a, axis=axis), xp.compress(shorter, a, axis=axis),
            a.compress(cond_d, axis=axis), xp.extract(grid_cond, a), xp.extract(a > 0, a))


@numpy_simt_raises(IndexError)
def test_compress_condition_longer_than_axis(xp):
    xp.compress(xp.asarray(np.array([False, False, False, True])), xp.arange(3))


@numpy_simt_raises(ValueError)
def test_compress_condition_must_be_1d(xp):
    xp.compress(xp.asarray(np.ones((2, 2), bool)), xp.arange(4))


def test_numpy_functions_dispatch_to_simt(rng):
    host = make(np, rng, (5, 6), np.float64) * (rng.random((5, 6)) < 0.5)
    a = simt.asarray(host)
    for got, want in [(np.nonzero(a), np.nonzero(host)), (np.argwhere(a), np.argwhere(host)),
                      (np.flatnonzero(a), np.flatnonzero(host)), (np.take(a, [1, -1], axis=1), np.take(host, [1, -1], 1)),
                      (np.compress([True, False, True], a, axis=0), np.compress([True, False, True], host, 0)),
                      (np.extract(a > 0, a), np.extract(host > 0, host)),
                      (np.count_nonzero(a, axis=0), np.count_nonzero(host, axis=0))]:
        got = got if isinstance(got, tuple) else (got,)
        want = want if isinstance(want, tuple) else (want,)
        for g, w in zip(got, want):
            assert isinstance(g, simt.ndarray)
            np.testing.assert_array_equal(g.get(), w)
    assert int(np.count_nonzero(a)) == np.count_nonzero(host)
    for g, w in zip(np.where(a > 0), np.where(host > 0)):
        np.testing.assert_array_equal(g.get(), w)
    np.put(a, [0, -1], simt.asarray(np.array([5.0, 6.0])))
    np.put(host, [0, -1], [5.0, 6.0])
    np.testing.assert_array_equal(a.get(), host)


@numpy_simt_allclose()
def test_complex_with_only_an_imaginary_part_is_nonzero(xp, rng):
    host = np.zeros(12, np.complex64)
    host[rng.permutation(12)[:5]] = 1j * (1 + rng.random(5))
    a = xp.asarray(host)
    return xp.nonzero(a), xp.count_nonzero(a), a[a != 0]
