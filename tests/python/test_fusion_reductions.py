"""simt.fuse functions that reduce (sum, prod, min/amin, max/amax, all, any, mean: the fused
statements run inside the reduction's kernels) and that update arguments in place (x += ...),
against the same function run eagerly with NumPy."""
import numpy as np
import pytest

import simt
from simt import _kernelgen
from xp_testing import make, numpy_simt_allclose, parametrize_dtypes


def maybe_fused(xp, f):
    """The function fused for simt, run as it is for NumPy."""
    return simt.fuse(f) if xp is simt else f


AXES = [None, 1, (0, 2)]  # (an inner, a middle and two outer axes; None: all)


@pytest.mark.parametrize("axis", AXES)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("name", ["sum", "prod", "min", "max", "amin", "amax", "all", "any", "mean"])
@numpy_simt_allclose(rtol=1e-12)
def test_fused_reduction_over_axes(xp, rng, name, axis, keepdims):
    def f(x, y):
        return getattr(xp, name)(x * y - 0.25, axis=axis, keepdims=keepdims)

    low, high = (0.5, 1.5) if name == "prod" else (None, None)
    x = make(xp, rng, (5, 6, 7), np.float64, low=low, high=high)
    y = make(xp, rng, (6, 7), np.float64, low=low, high=high)  # broadcast along axis 0
    return maybe_fused(xp, f)(x, y)


@parametrize_dtypes("dtype", [np.float32, np.int32, np.int8, np.uint16, np.complex64, np.bool_])
@numpy_simt_allclose()
def test_fused_reduction_result_dtypes_follow_numpy(xp, rng, dtype):
    x = make(xp, rng, (9, 4), dtype, low=1, high=3)
    fns = (lambda a: xp.sum(a + a, axis=1), lambda a: xp.prod(a, axis=0), lambda a: xp.max(a, axis=1),
           lambda a: xp.mean(a, axis=0), lambda a: xp.all(a, axis=1))
    return tuple(maybe_fused(xp, fn)(x) for fn in fns)


@numpy_simt_allclose()
def test_fused_reduction_with_post_statements_and_scalars(xp, rng):
    def f(x, y, s, t):
        d = x - y * s
        r = xp.sqrt(xp.sum(d * d, axis=-1, keepdims=True))
        return r * t + s, r > 1

    x = make(xp, rng, (8, 33), np.float32)
    y = make(xp, rng, (33,), np.float32)[::-1]  # a reversed view
    return maybe_fused(xp, f)(x, y, 0.5, np.float32(3)) + maybe_fused(xp, f)(x.T.copy().T, y, 2, 1.5)


@numpy_simt_allclose()
def test_fused_reduction_through_methods_and_numpy_functions(xp, rng):
    fns = (lambda a, b: (a * b).sum(axis=0), lambda a, b: np.max(a + b, axis=1),
           lambda a, b: (a > b).any(axis=0), lambda a, b: np.mean(a - b), lambda a, b: np.amin(a, 1, None, True))
    x, y = make(xp, rng, (12, 10), np.float64), make(xp, rng, (12, 10), np.float64)
    return tuple(maybe_fused(xp, fn)(x, y) for fn in fns)


def test_fused_sum_of_products_of_a_million_floats():
    # Long rows take several passes (partials of the fused first pass): a float64 reference.
    rng = np.random.default_rng()
    a = rng.standard_normal(1 << 20).astype(np.float32)
    b = rng.standard_normal(1 << 20).astype(np.float32)
    dot = simt.fuse(lambda x, y: simt.sum(x * y))
    norms = simt.fuse(lambda x: simt.sqrt(simt.sum(x * x, axis=1)))
    expected = np.dot(a.astype(np.float64), b.astype(np.float64))
    result = dot(simt.asarray(a), simt.asarray(b))
    assert result.shape == () and result.dtype == np.float32
    np.testing.assert_allclose(float(result), expected, rtol=1e-4, atol=1e-2)
    m = a.reshape(256, 4096)
    np.testing.assert_allclose(norms(simt.asarray(m)).get(), np.sqrt((m.astype(np.float64) ** 2).sum(axis=1)),
                               rtol=1e-5)


def test_fused_reduction_reads_the_operands_inside_the_reduction_kernel():
    fused = simt.fuse(lambda x, y: simt.sum(x * y + 2, axis=0))
    x = simt.asarray(np.random.default_rng().random((64, 3)))
    np.testing.assert_allclose(fused(x, x).get(), (x.get() ** 2 + 2).sum(axis=0))
    fused_kernels = [source for (name, source, *_) in _kernelgen._dispatchers
                     if "def _pre(x0, x1):" in source and "(x, x1, " in source.splitlines()[0]]
    assert fused_kernels, "the fused statements were not inlined into a reduction kernel over both operands"


@numpy_simt_allclose()
def test_fused_reductions_of_empty_and_zero_size_arrays(xp, rng):
    f = maybe_fused(xp, lambda x: (xp.sum(x * 2, axis=0)))
    g = maybe_fused(xp, lambda x: (xp.prod(x + 1, axis=1)))
    return f(make(xp, rng, (0, 3), np.float64)), g(make(xp, rng, (0, 3), np.float64))


def test_fused_max_of_nothing_raises_as_numpy():
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        simt.fuse(lambda x: simt.max(x * 2))(simt.zeros((0,)))


def test_fused_reductions_refuse_what_they_cannot_fuse():
    x = simt.ones((3, 4))
    with pytest.raises(TypeError, match="second reduction"):
        simt.fuse(lambda a: simt.sum(a) + simt.max(a))(x)
    with pytest.raises(TypeError, match="reduction's result with the arrays it reduces"):
        simt.fuse(lambda a: simt.sum(a, axis=0) + a)(x)
    with pytest.raises(TypeError, match="returns a value of the arrays it reduces"):
        simt.fuse(lambda a: (simt.sum(a), a * 2))(x)
    with pytest.raises(TypeError, match="out=, initial= and where="):
        simt.fuse(lambda a: simt.sum(a, initial=1.0))(x)
    with pytest.raises(TypeError, match=r"simt\.argmax\(\) is not supported inside a simt\.fuse"):
        simt.fuse(lambda a: simt.argmax(a * 2))(x)
    with pytest.raises(TypeError, match="computed from the fused function's array arguments"):
        simt.fuse(lambda a, s: simt.sum(s * 2) + a)(x, 2.0)
    with pytest.raises(np.exceptions.AxisError):
        simt.fuse(lambda a: simt.sum(a, axis=2))(x)


# ---- in-place updates of arguments -------------------------------------------------------------------
@numpy_simt_allclose()
def test_fused_in_place_update_of_an_argument(xp, rng):
    def f(z, x, y, s):
        z += x * y
        z *= s

    z = make(xp, rng, (7, 5), np.float32)
    x = make(xp, rng, (7, 5), np.float64)  # float64 values stored into float32 z, as NumPy's += does
    y = make(xp, rng, (5,), np.float32)
    assert maybe_fused(xp, f)(z, x, y, 2.5) is None
    return z


@numpy_simt_allclose()
def test_fused_in_place_update_and_returned_values(xp, rng):
    def f(acc, x):
        acc += x
        return acc * 2, x - acc

    acc = make(xp, rng, (4, 6), np.int64)
    x = make(xp, rng, (6,), np.int32)
    r = maybe_fused(xp, f)(acc, x)
    return r + (acc,)


def test_fused_in_place_update_errors():
    x = simt.ones(4, dtype=np.int32)
    with pytest.raises(TypeError, match="casting rule 'same_kind'"):
        simt.fuse(lambda a, b: a.__iadd__(b))(x, simt.ones(4) * 0.5)

    def updates_a_temporary(a):
        t = a * 2
        t += 1
        return t

    with pytest.raises(TypeError, match="only the fused function's array arguments"):
        simt.fuse(updates_a_temporary)(simt.ones(4))
    with pytest.raises(TypeError, match="returned None and updated no argument"):
        simt.fuse(lambda a: None)(x)


@numpy_simt_allclose()
def test_fused_reduction_uses_scalars_computed_before_it(xp, rng):
    def f(x, b, a):
        c = a * 2 + 1          # scalars only: needed after the reduction
        t = b * 3              # of an array, unused after the reduction
        s = xp.sum(x * c, axis=0)
        u = b - 1              # of an array, after the reduction, unused
        return s + c, xp.sqrt(abs(s)) * a

    x = make(xp, rng, (6, 4), np.float64)
    b = make(xp, rng, (4,), np.float64)
    return maybe_fused(xp, f)(x, b, 1.5)


@numpy_simt_allclose()
def test_fused_min_max_all_any_methods_take_numpys_positional_order(xp, rng):
    x = make(xp, rng, (5, 3), np.float32)
    fns = (lambda a: (a * 2).max(1, None, True), lambda a: (a - 1).min(0, None, False),
           lambda a: (a > 0).any(1, keepdims=True), lambda a: (a * 2).sum(0, np.float64, None, True))
    return tuple(maybe_fused(xp, fn)(x) for fn in fns)


def test_numpy_functions_on_traced_values_say_what_is_fused():
    x = simt.ones((3, 4))
    with pytest.raises(TypeError, match=r"simt\.argmax\(\) is not supported inside a simt\.fuse"):
        simt.fuse(lambda a: np.argmax(a * 2))(x)
    with pytest.raises(TypeError, match=r"numpy\.\w+ is not supported inside fused functions"):
        simt.fuse(lambda a: np.linalg.norm(a))(x)
