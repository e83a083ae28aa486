"""simt.matmul / simt.dot / @ against NumPy: vector, matrix and stacked shapes with broadcasting,
every dtype family, NumPy's errors, and the cuBLAS path's fallback on machines without it."""
import numpy as np
import pytest

import simt
from pass_shapes import pass_shapes  # noqa: F401  (fixture)
from xp_compare import numpy_simt_allclose

MATMUL_SHAPES = [((3,), (3,)), ((2, 3), (3, 4)), ((3,), (3, 4)), ((2, 3), (3,)), ((5, 2, 3), (5, 3, 4)),
                 ((2, 3), (5, 3, 4)), ((5, 2, 3), (3, 4)), ((2, 1, 3, 4), (3, 4, 5)), ((37, 29), (29, 41)),
                 ((0, 3), (3, 4)), ((2, 0), (0, 4)), ((1, 1), (1, 1)), ((4, 3), (3, 1)), ((3, 0, 2), (2, 5)),
                 ((70, 1), (1, 66))]


def operand(rng, shape, dtype):
    dtype = np.dtype(dtype)
    if dtype == np.bool_:
        return rng.random(shape) < 0.3
    if dtype.kind in "iu":
        return rng.integers(0 if dtype.kind == "u" else -4, 5, shape).astype(dtype)
    x = rng.standard_normal(shape)
    if dtype.kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


@pytest.mark.parametrize("sa, sb", MATMUL_SHAPES)
@numpy_simt_allclose(rtol=1e-12, atol=1e-12)
def test_matmul_shapes(xp, rng, pass_shapes, sa, sb):
    a, b = xp.asarray(operand(rng, sa, np.float64)), xp.asarray(operand(rng, sb, np.float64))
    return xp.matmul(a, b), a @ b


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint8, np.int32, np.int64, np.float16, np.float32,
                                   np.complex64, np.complex128])
@pytest.mark.parametrize("sa, sb", [((6, 5), (5, 7)), ((3, 4, 5), (5, 2)), ((9,), (9,))])
@numpy_simt_allclose(rtol=1e-12, atol=1e-12, rtol_by_dtype={np.float16: 1e-2, np.float32: 1e-5, np.complex64: 1e-5},
                     atol_by_dtype={np.float16: 0.05, np.float32: 1e-5, np.complex64: 1e-5})
def test_matmul_dtypes(xp, rng, pass_shapes, dtype, sa, sb):
    return xp.matmul(xp.asarray(operand(rng, sa, dtype)), xp.asarray(operand(rng, sb, dtype)))


@pytest.mark.parametrize("da, db", [(np.int8, np.float32), (np.int32, np.int64), (np.bool_, np.int16),
                                    (np.float32, np.complex128)])
@numpy_simt_allclose(rtol=1e-6, atol=1e-6)
def test_matmul_mixed_dtypes_promote(xp, rng, da, db):
    return xp.matmul(xp.asarray(operand(rng, (4, 3), da)), xp.asarray(operand(rng, (3, 2), db)))


@numpy_simt_allclose(rtol=1e-12, atol=1e-12)
def test_matmul_of_transposed_and_broadcast_views(xp, rng):
    h = operand(rng, (5, 4), np.float64)
    a = xp.asarray(h)
    if xp is simt:
        from simt import _kernelgen
        t = _kernelgen.view(a, (4, 5), (8, 32))
        stack = _kernelgen.view(a, (3, 5, 4), (0, 32, 8))
    else:
        t, stack = h.T, np.broadcast_to(h, (3, 5, 4))
    return xp.matmul(t, a), xp.matmul(stack, t)


@pytest.mark.parametrize("sa, sb", [((3,), (4,)), ((2, 3), (4, 5)), ((), (3,)), ((3,), ()), ((2, 2, 3), (3, 2, 3, 4)),
                                    ((2, 2, 3), (3, 3, 4)), ((5, 3), (2, 3, 4))])
@numpy_simt_allclose(rtol=1e-12)
def test_matmul_errors_and_edge_shapes(xp, sa, sb):
    return xp.matmul(xp.zeros(sa), xp.ones(sb))


def test_matmul_mismatch_message_matches_numpy():
    with pytest.raises(ValueError, match=r"mismatch in its core dimension 0.*\(size 4 is different from 3\)"):
        simt.matmul(simt.zeros((2, 3)), simt.zeros((4, 5)))


@pytest.mark.parametrize("sa, sb", [((3,), (3,)), ((2, 3), (3, 4)), ((2, 3, 4), (5, 4, 6)), ((2, 3, 4), (4,)),
                                    ((4,), (2, 4, 3)), ((6, 4), (2, 4, 3)), ((3, 4), (4,)), ((2, 3), (4, 5)),
                                    ((3,), (4,)), ((0, 3), (3, 2)), ((2, 0), (0, 3))])
@numpy_simt_allclose(rtol=1e-12, atol=1e-12)
def test_dot(xp, rng, sa, sb):
    a, b = xp.asarray(operand(rng, sa, np.float64)), xp.asarray(operand(rng, sb, np.float64))
    return xp.dot(a, b), a.dot(b)


def test_dot_not_aligned_message_matches_numpy():
    with pytest.raises(ValueError, match=r"shapes \(2,3\) and \(4,5\) not aligned: 3 \(dim 1\) != 4 \(dim 0\)"):
        simt.dot(simt.zeros((2, 3)), simt.zeros((4, 5)))


def test_matmul_with_a_host_array_is_refused():
    with pytest.raises(TypeError):
        simt.zeros((2, 2)) @ np.zeros((2, 2))
    with pytest.raises(TypeError, match="NumPy array"):
        simt.matmul(simt.zeros((2, 2)), np.zeros((2, 2)))


def test_matmul_out_argument(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    out = simt.zeros((3, 2))
    assert simt.matmul(simt.asarray(a), simt.asarray(b), out=out) is out
    np.testing.assert_allclose(out.get(), a @ b, rtol=1e-12, atol=1e-12)


def test_cublas_is_not_used_off_the_cuda_backend(rng):
    """The cuBLAS entry point declines on the cpu backend (the kernel computes the product), and
    looking for the library never fails, whether or not a CUDA toolkit is installed."""
    if simt.backend() != "cpu":
        pytest.skip("checks the cpu backend's fallback; the GPU suite checks cuBLAS itself")
    a, b, c = simt.zeros((1, 2, 3)), simt.zeros((1, 3, 4)), simt.zeros((1, 2, 4))
    assert simt._simt._cublas_matmul(a, b, c, None) is False
    assert isinstance(simt._simt._cublas_library(), str)


@pytest.mark.skipif(simt.backend() != "cuda", reason="needs a GPU (cuda backend): cuBLAS against the kernel")
def test_cublas_and_kernel_agree_on_the_gpu(rng, monkeypatch):
    from simt import _matmul
    a, b = rng.standard_normal((2, 130, 70)), rng.standard_normal((2, 70, 90))
    with_cublas = simt.matmul(simt.asarray(a), simt.asarray(b)).get()
    monkeypatch.setattr(simt._simt, "_cublas_matmul", lambda *args: False)
    kernel = _matmul.matmul(simt.asarray(a), simt.asarray(b)).get()
    np.testing.assert_allclose(with_cublas, a @ b, rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(kernel, a @ b, rtol=1e-10, atol=1e-10)


def test_grids_past_the_y_and_z_limits_loop_over_blocks(rng, monkeypatch):
    """More row blocks or stacked matrices than a grid may have (65535 in y and z on a GPU):
    blocks take several each. The limit is lowered here so that small inputs reach it."""
    from simt import _matmul
    monkeypatch.setattr(_matmul, "_MAX_GRID_Z", 2)
    a, b = rng.standard_normal((5, 300, 7)), rng.standard_normal((7, 5))
    np.testing.assert_allclose(simt.matmul(simt.asarray(a), simt.asarray(b)).get(), a @ b, rtol=1e-12, atol=1e-12)


def test_matmul_of_reversed_and_strided_views(rng):
    h = operand(rng, (6, 8), np.float32)
    g = operand(rng, (8, 5), np.float32)
    a, b = simt.asarray(h), simt.asarray(g)
    np.testing.assert_allclose((a[::-1, ::2] @ b[::2, ::-1]).get(), h[::-1, ::2] @ g[::2, ::-1], rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(simt.matmul(a.T, a).get(), h.T @ h, rtol=1e-5, atol=1e-5)


def test_matmul_follows_the_kernels_queued_before_it_on_a_stream(rng):
    h = operand(rng, (300, 200), np.float64)
    g = operand(rng, (200, 100), np.float64)
    stream = simt.cuda.Stream()
    with stream:
        a = simt.asarray(h) * 3.0  # launched on `stream`, maybe still running when matmul starts
        b = simt.asarray(g) + 1.0
        c = a @ b
        d = c * 0.5  # and what matmul wrote is what a later launch reads
    stream.synchronize()
    np.testing.assert_allclose(d.get(), (h * 3.0) @ (g + 1.0) * 0.5, rtol=1e-12, atol=1e-12)
