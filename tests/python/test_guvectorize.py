"""cuda.guvectorize / simt.guvectorize (numba's generalized ufuncs) against NumPy on fresh random
data: core dimensions, broadcast loop dimensions, scalar and one-element `()` arguments, given
outputs, several outputs, type selection among signatures, streams, and the errors."""
import numpy as np
import pytest

import simt
from simt import cuda


@cuda.guvectorize(["void(float32[:,:], float32[:,:], float32[:,:])",
                   "void(float64[:,:], float64[:,:], float64[:,:])"], "(m,n),(n,p)->(m,p)")
def matmul_core(a, b, c):
    for i in range(c.shape[0]):
        for j in range(c.shape[1]):
            s = 0.0
            for k in range(a.shape[1]):
                s += a[i, k] * b[k, j]
            c[i, j] = s


@cuda.guvectorize(["void(float64[:], float64, float64[:])"], "(n),()->(n)")
def add_scalar(x, y, out):
    for i in range(x.shape[0]):
        out[i] = x[i] + y


@cuda.guvectorize(["void(int64[:], int64[:])", "void(float64[:], float64[:])"], "(n)->()")
def total(x, res):
    s = x[0] * 0
    for i in range(x.shape[0]):
        s += x[i]
    res[0] = s


@simt.guvectorize(["void(float64[:], float64[:], float64[:], float64[:])"], "(n),(n)->(),(n)")
def dot_and_product(x, y, d, p):
    s = 0.0
    for i in range(x.shape[0]):
        p[i] = x[i] * y[i]
        s += p[i]
    d[0] = s


def test_stacked_matmul_with_broadcast_loop_dimensions(rng):
    a = rng.standard_normal((4, 1, 3, 5)).astype(np.float32)
    b = rng.standard_normal((6, 5, 2)).astype(np.float32)
    got = matmul_core(simt.asarray(a), simt.asarray(b))
    assert got.shape == (4, 6, 3, 2) and got.dtype == np.float32
    np.testing.assert_allclose(got.get(), a @ b, rtol=1e-5, atol=1e-5)


def test_the_signature_is_picked_by_the_input_types(rng):
    a, b = rng.standard_normal((3, 4)), rng.standard_normal((4, 2))
    got = matmul_core(simt.asarray(a), simt.asarray(b))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), a @ b, rtol=1e-12)
    x = rng.integers(-100, 100, (5, 7))
    np.testing.assert_array_equal(total(simt.asarray(x)).get(), x.sum(axis=1))
    f = rng.standard_normal((2, 3, 9))
    np.testing.assert_allclose(total(simt.asarray(f)).get(), f.sum(axis=-1), rtol=1e-12)


def test_scalar_inputs_python_numbers_and_arrays(rng):
    x = rng.standard_normal((3, 8))
    np.testing.assert_allclose(add_scalar(simt.asarray(x), 2.5).get(), x + 2.5)
    y = rng.standard_normal(3)
    np.testing.assert_allclose(add_scalar(simt.asarray(x), simt.asarray(y)).get(), x + y[:, None])  # y: one per row
    outer = add_scalar(simt.asarray(x), simt.asarray(y[:, None]))  # loop dimensions (3,) and (3, 1): (3, 3)
    np.testing.assert_allclose(outer.get(), x[None, :, :] + y[:, None, None])
    np.testing.assert_allclose(add_scalar(simt.asarray(x[0]), simt.asarray(y[1:2].reshape(()))).get(), x[0] + y[1])


def test_into_given_outputs_and_out_keyword(rng):
    x = rng.standard_normal((5, 4))
    out = simt.zeros((5, 4))
    assert add_scalar(simt.asarray(x), 1.0, out) is out
    np.testing.assert_allclose(out.get(), x + 1.0)
    out2 = simt.zeros((5, 4))
    add_scalar(simt.asarray(x), -1.0, out=out2)
    np.testing.assert_allclose(out2.get(), x - 1.0)


def test_several_outputs_and_a_no_loop_call(rng):
    x, y = rng.standard_normal((6, 10)), rng.standard_normal(10)  # y broadcast over x's rows
    d, p = dot_and_product(simt.asarray(x), simt.asarray(y))
    np.testing.assert_allclose(d.get(), x @ y, rtol=1e-12)
    np.testing.assert_allclose(p.get(), x * y, rtol=1e-12)
    d1, p1 = dot_and_product(simt.asarray(y), simt.asarray(y))
    assert d1.shape == () and p1.shape == (10,)
    np.testing.assert_allclose(float(d1.get()), y @ y, rtol=1e-12)


def test_strided_inputs_and_a_stream(rng):
    x = rng.standard_normal((8, 12))
    view = simt.asarray(x)[::2, ::3]
    stream = cuda.stream()
    got = add_scalar(view, 0.5, stream=stream)
    stream.synchronize()
    np.testing.assert_allclose(got.get(), x[::2, ::3] + 0.5)


def test_errors_name_what_is_wrong(rng):
    with pytest.raises(ValueError, match="dimension 'n'"):
        matmul_core(simt.zeros((2, 3)), simt.zeros((4, 2)))
    with pytest.raises(TypeError, match="host memory"):
        add_scalar(np.zeros(3), 1.0)
    with pytest.raises(TypeError, match="no signature takes inputs"):
        add_scalar(simt.zeros(3, np.complex128), 1.0)
    with pytest.raises(TypeError, match="no signature takes inputs"):
        matmul_core(simt.zeros((2, 2), np.int64), simt.zeros((2, 2), np.complex64))  # (no unsafe casts)
    with pytest.raises(ValueError, match="cannot be broadcast"):
        add_scalar(simt.zeros((3, 4)), simt.zeros(2))
    with pytest.raises(ValueError, match="must have shape"):
        add_scalar(simt.zeros((3, 4)), 1.0, simt.zeros((2, 4)))
    with pytest.raises(ValueError, match="is 4 in one argument and 5 in argument 3"):
        add_scalar(simt.zeros((3, 4)), 1.0, simt.zeros((3, 5)))
    with pytest.raises(ValueError, match="not a dimension of any input"):
        cuda.guvectorize(["void(float64[:], float64[:])"], "(n)->(m)")(lambda x, y: None)
    with pytest.raises(ValueError, match="cannot be declared with 1 dimension"):
        cuda.guvectorize(["void(float64[:], float64[:], float64[:])"], "(n),(n)->(n,n)")(lambda x, y, z: None)
    with pytest.raises(ValueError, match="cannot read the signature"):
        cuda.guvectorize(["float64[:] -> float64"], "(n)->()")(lambda x, y: None)


def test_signatures_as_numba_type_objects(rng):
    # numba's examples write them as tuples of types (no return type) or void(...).
    from simt.cuda.numba_types import float32, float64, void

    def core(a, b, c):
        for i in range(c.shape[0]):
            c[i] = a[i] * b[0]

    g = cuda.guvectorize([(float64[:], float64[:], float64[:]), void(float32[:], float32[:], float32[:])],
                         "(n),(m)->(n)")(core)
    a, b = rng.standard_normal((3, 7)), rng.standard_normal(2)
    got = g(simt.asarray(a), simt.asarray(b))
    assert got.dtype == np.float64
    np.testing.assert_allclose(got.get(), a * b[0], rtol=1e-15)
    got32 = g(simt.asarray(a.astype(np.float32)), simt.asarray(b.astype(np.float32)))
    assert got32.dtype == np.float32
    np.testing.assert_allclose(got32.get(), a.astype(np.float32) * np.float32(b[0]), rtol=1e-6)
    with pytest.raises(TypeError, match=r"numba types such as \(float32\[:\], float32\[:\]\)"):
        cuda.guvectorize([42], "(n)->(n)")(core)
