"""simt.linalg against numpy.linalg on fresh random data: norms (every ord, axis and keepdims),
products (multi_dot, matrix_power, vecdot), and the LAPACK functions on single and stacked,
real and complex matrices; NumPy's errors; numpy.linalg functions dispatching to simt."""
import numpy as np
import pytest

import simt
import simt.linalg as sl


def _well_conditioned(rng, shape, dtype=np.float64):
    n = shape[-1]
    a = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(shape)
    return (a + n * np.eye(n)).astype(dtype)


def _spd(rng, shape, dtype=np.float64):
    a = _well_conditioned(rng, shape, dtype)
    return (a @ np.conj(np.swapaxes(a, -1, -2))).astype(dtype)


def _check(got, want, rtol=1e-9, atol=1e-9):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            _check(g, w, rtol, atol)
        return
    g = got.get() if hasattr(got, "get") else got
    np.testing.assert_allclose(g, want, rtol=rtol, atol=atol)


@pytest.mark.parametrize("ord", [None, 1, 2, np.inf, -np.inf, 0, 3, 0.5, -1])
@pytest.mark.parametrize("axis, keepdims", [(None, False), (0, False), (-1, True), ((1,), False)])
def test_vector_norms(rng, ord, axis, keepdims):
    x = rng.standard_normal((5, 7))
    if axis is None:
        x = x[0]
    _check(sl.norm(simt.asarray(x), ord, axis, keepdims), np.linalg.norm(x, ord, axis, keepdims))


@pytest.mark.parametrize("ord", [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf])
@pytest.mark.parametrize("axis, keepdims", [(None, False), ((0, 1), True), ((2, 0), False)])
def test_matrix_norms(rng, ord, axis, keepdims):
    x = rng.standard_normal((4, 6, 3)) + 1j * rng.standard_normal((4, 6, 3))
    if axis is None:
        x = x[:, :, 0]
    _check(sl.norm(simt.asarray(x), ord, axis, keepdims), np.linalg.norm(x, ord, axis, keepdims))


def test_array_api_norms_and_dispatch(rng):
    x = rng.standard_normal((3, 4, 5))
    d = simt.asarray(x)
    _check(sl.vector_norm(d), np.linalg.vector_norm(x))
    _check(sl.vector_norm(d, axis=(0, 2), keepdims=True, ord=3), np.linalg.vector_norm(x, axis=(0, 2), keepdims=True, ord=3))
    _check(sl.matrix_norm(d, ord="nuc"), np.linalg.matrix_norm(x, ord="nuc"))
    got = np.linalg.norm(d, axis=1)  # NumPy's function on a simt array runs simt's
    assert isinstance(got, simt.ndarray)
    _check(got, np.linalg.norm(x, axis=1))
    _check(sl.norm(simt.asarray(np.arange(6))), np.linalg.norm(np.arange(6)))


def test_products(rng):
    mats = [rng.standard_normal(s) for s in [(10,), (10, 30), (30, 5), (5, 60), (60,)]]
    _check(sl.multi_dot([simt.asarray(m) for m in mats]), np.linalg.multi_dot(mats))
    _check(sl.multi_dot([simt.asarray(m) for m in mats[1:4]]), np.linalg.multi_dot(mats[1:4]))
    a = _well_conditioned(rng, (2, 4, 4)) / 4
    for n in (-2, -1, 0, 1, 2, 5):
        _check(sl.matrix_power(simt.asarray(a), n), np.linalg.matrix_power(a, n), rtol=1e-8, atol=1e-8)
    u, v = rng.standard_normal((3, 6)) + 1j, rng.standard_normal((3, 6))
    _check(sl.vecdot(simt.asarray(u), simt.asarray(v)), np.linalg.vecdot(u, v))
    _check(sl.matrix_transpose(simt.asarray(a)), np.linalg.matrix_transpose(a))
    _check(sl.trace(simt.asarray(a), offset=1), np.linalg.trace(a, offset=1))
    _check(sl.diagonal(simt.asarray(a)), np.linalg.diagonal(a))
    _check(sl.outer(simt.asarray(u[0]), simt.asarray(v[0])), np.linalg.outer(u[0], v[0]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128])
@pytest.mark.parametrize("batch", [(), (3,)])
def test_lapack_functions_match_numpy(rng, dtype, batch):
    tol = 1e-4 if dtype == np.float32 else 1e-9
    a = _well_conditioned(rng, batch + (5, 5), dtype)
    h = _spd(rng, batch + (5, 5), dtype)
    b = rng.standard_normal(batch + (5, 2)).astype(dtype)
    da, dh, db = simt.asarray(a), simt.asarray(h), simt.asarray(b)
    _check(sl.det(da), np.linalg.det(a), rtol=tol)
    _check(tuple(sl.slogdet(da)), tuple(np.linalg.slogdet(a)), rtol=tol, atol=tol)
    _check(sl.inv(da), np.linalg.inv(a), rtol=tol, atol=tol)
    _check(sl.solve(da, db), np.linalg.solve(a, b), rtol=tol, atol=tol)
    _check(sl.cholesky(dh), np.linalg.cholesky(h), rtol=tol, atol=tol)
    _check(sl.eigvalsh(dh), np.linalg.eigvalsh(h), rtol=tol, atol=tol)
    w, v = sl.eigh(dh)
    np.testing.assert_allclose((v.get() * w.get()[..., None, :]), h @ v.get(), rtol=tol * 100, atol=tol * 100)
    _check(sl.svdvals(da), np.linalg.svd(a, compute_uv=False), rtol=tol, atol=tol)
    u, s, vh = sl.svd(da, full_matrices=False)
    np.testing.assert_allclose((u.get() * s.get()[..., None, :]) @ vh.get(), a, rtol=tol * 100, atol=tol * 100)
    q, r = sl.qr(da)
    np.testing.assert_allclose(q.get() @ r.get(), a, rtol=tol * 100, atol=tol * 100)
    _check(sl.pinv(da), np.linalg.pinv(a), rtol=tol * 10, atol=tol * 10)
    _check(sl.matrix_rank(da), np.linalg.matrix_rank(a))
    _check(sl.cond(da), np.linalg.cond(a), rtol=tol * 10)
    ev = np.sort_complex(sl.eigvals(da).get().reshape(-1))
    np.testing.assert_allclose(ev, np.sort_complex(np.linalg.eigvals(a).reshape(-1)), rtol=tol * 100, atol=tol * 100)


def test_lstsq_and_tensor_functions(rng):
    a, b = rng.standard_normal((8, 3)), rng.standard_normal(8)
    got = sl.lstsq(simt.asarray(a), simt.asarray(b), rcond=None)
    want = np.linalg.lstsq(a, b, rcond=None)
    _check(got[0], want[0])
    _check(got[1], want[1])
    assert int(got[2]) == want[2]
    t = _well_conditioned(rng, (6, 6)).reshape(6, 2, 3)
    _check(sl.tensorinv(simt.asarray(t), ind=1), np.linalg.tensorinv(t, ind=1))
    rhs = rng.standard_normal(6)
    _check(sl.tensorsolve(simt.asarray(t), simt.asarray(rhs)), np.linalg.tensorsolve(t, rhs))


def test_errors_are_numpys():
    with pytest.raises(sl.LinAlgError, match="Singular matrix"):
        sl.inv(simt.zeros((3, 3)))
    with pytest.raises(np.linalg.LinAlgError):
        sl.cholesky(simt.asarray(-np.eye(2)))
    with pytest.raises(TypeError, match="host memory"):
        sl.det(np.eye(3))
    with pytest.raises(TypeError, match="host memory"):
        sl.solve(simt.eye(3), np.ones(3))
    with pytest.raises(sl.LinAlgError, match="square"):
        sl.matrix_power(simt.zeros((2, 3)), 2)
    with pytest.raises(ValueError, match="Invalid norm order"):
        sl.norm(simt.zeros((2, 2)), ord=3)
    with pytest.raises(ValueError, match="at least two"):
        sl.multi_dot([simt.zeros(3)])


def test_keyword_operands_array_options_empty_inputs_and_checks(rng):
    a, b = _well_conditioned(rng, (4, 4)), rng.standard_normal(4)
    _check(sl.solve(simt.asarray(a), b=simt.asarray(b)), np.linalg.solve(a, b))
    _check(sl.pinv(simt.asarray(a), rcond=simt.asarray(np.array(1e-10))), np.linalg.pinv(a, rcond=1e-10))
    for ord in (None, np.inf, 1, 2, 0):
        _check(sl.norm(simt.zeros((0,)), ord), np.linalg.norm(np.zeros((0,)), ord))
    for ord in ("fro", 1, -1, 2, np.inf, "nuc"):
        _check(sl.norm(simt.zeros((0, 3)), ord), np.linalg.norm(np.zeros((0, 3)), ord))
    with pytest.raises(ValueError):
        sl.norm(simt.zeros((0,)), -np.inf)  # (as NumPy: a minimum of nothing)
    h = rng.standard_normal(8).astype(np.float16)
    assert sl.norm(simt.asarray(h), 0).dtype == np.linalg.norm(h, 0).dtype
    with pytest.raises(ValueError, match="contracted axis"):
        sl.vecdot(simt.ones((3, 1)), simt.ones((3, 4)))
    with pytest.raises(ValueError, match="contracted axis"):
        sl.vecdot(simt.ones((3, 4)), simt.ones(4), axis=0)
    out = simt.empty((4, 4), np.int32)
    with pytest.raises(TypeError, match="cannot cast"):
        sl.multi_dot([simt.asarray(a), simt.asarray(a)], out=out)


def test_numpy_2_top_level_vecdot_and_matrix_transpose(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((3, 4))
    got = np.vecdot(simt.asarray(a), simt.asarray(b))  # a ufunc in NumPy 2.2+, simt's function here
    assert isinstance(got, simt.ndarray)
    _check(got, np.vecdot(a, b))
    _check(simt.vecdot(simt.asarray(a), simt.asarray(b), axis=0), np.vecdot(a, b, axis=0))
    _check(simt.matrix_transpose(simt.asarray(a)), np.matrix_transpose(a))
