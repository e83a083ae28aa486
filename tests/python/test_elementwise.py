"""Operators on simt arrays against NumPy: every dtype, broadcasting, views, in-place and
reflected forms, NumPy's promotion with NEP 50 weak Python scalars, and errors."""
import operator

import numpy as np
import pytest

import simt
from xp_testing import (ALL, BOOL, COMPLEX, FLOATS, INTS, make, numpy_simt_allclose, numpy_simt_raises,
                        parametrize_dtypes)

BINARY = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "%": operator.mod, "**": operator.pow, "&": operator.and_, "|": operator.or_, "^": operator.xor,
    "<<": operator.lshift, ">>": operator.rshift, "<": operator.lt, "<=": operator.le, ">": operator.gt,
    ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}
IN_PLACE = {
    "+=": operator.iadd, "-=": operator.isub, "*=": operator.imul, "/=": operator.itruediv, "//=": operator.ifloordiv,
    "%=": operator.imod, "**=": operator.ipow, "&=": operator.iand, "|=": operator.ior, "^=": operator.ixor,
    "<<=": operator.ilshift, ">>=": operator.irshift,
}


def operands(xp, rng, op, shape_a, shape_b, dtype_a, dtype_b):
    """Random operands suited to the operator: small non-negative exponents and shift counts."""
    a = make(xp, rng, shape_a, dtype_a)
    if op in ("**", "<<", ">>", "**=", "<<=", ">>="):
        b = make(xp, rng, shape_b, dtype_b, low=0, high=5) if np.dtype(dtype_b).kind in "iu" else make(xp, rng, shape_b, dtype_b)
        if np.dtype(dtype_b).kind == "f":
            a = abs(a)  # real powers of negative numbers are NaN: fine, but keep values meaningful
    else:
        b = make(xp, rng, shape_b, dtype_b)
    return a, b


@parametrize_dtypes("dtype", ALL)
@pytest.mark.parametrize("op", list(BINARY))
@numpy_simt_allclose(accept_error=(TypeError,))
def test_binary_operators_every_dtype(xp, rng, op, dtype):
    a, b = operands(xp, rng, op, (3, 4), (3, 4), dtype, dtype)
    return BINARY[op](a, b)


PAIRS = [(np.int8, np.uint8), (np.int16, np.uint32), (np.int64, np.uint64), (np.uint64, np.int8), (np.bool_, np.int8),
         (np.float16, np.int8), (np.float16, np.int16), (np.float32, np.int32), (np.int64, np.float32),
         (np.float32, np.float64), (np.complex64, np.float64), (np.complex64, np.int32), (np.uint8, np.float16)]


@pytest.mark.parametrize("dtypes", PAIRS, ids=lambda p: f"{np.dtype(p[0]).name}-{np.dtype(p[1]).name}")
@pytest.mark.parametrize("op", ["+", "/", "<", "-"])
@numpy_simt_allclose(accept_error=(TypeError,))
def test_mixed_dtypes_promote_like_numpy(xp, rng, op, dtypes):
    a, b = operands(xp, rng, op, (5,), (5,), *dtypes)
    return BINARY[op](a, b), BINARY[op](b, a)


WEAK = [(np.int8, 1), (np.int8, 1.5), (np.int8, 2j), (np.uint8, 3), (np.float16, 2.0), (np.float32, 2.0),
        (np.float32, 1j), (np.bool_, 1), (np.bool_, 1.5), (np.bool_, True), (np.int64, 2 ** 40),
        (np.uint64, 2 ** 63 + 5), (np.float64, 2), (np.complex64, 2.5), (np.int16, -7), (np.uint16, 2.0 ** 70)]


@pytest.mark.parametrize("case", WEAK, ids=lambda c: f"{np.dtype(c[0]).name}-{c[1]!r}")
@pytest.mark.parametrize("op", ["-", "*", "/", "<"])
@numpy_simt_allclose(accept_error=(TypeError,))
def test_python_scalars_are_weak_nep50(xp, rng, op, case):
    dtype, scalar = case
    a = make(xp, rng, (2, 3), dtype)
    return BINARY[op](a, scalar), BINARY[op](scalar, a)


@pytest.mark.parametrize("case", [(np.int8, np.float32(2.5)), (np.float32, np.float64(2)), (np.int8, np.int64(3)),
                                  (np.float16, np.float16(1.5)), (np.uint8, np.bool_(True)), (np.int32, np.complex64(1j))],
                         ids=lambda c: f"{np.dtype(c[0]).name}-{type(c[1]).__name__}")
@numpy_simt_allclose()
def test_numpy_scalars_are_strong(xp, rng, case):
    dtype, scalar = case
    a = make(xp, rng, (4,), dtype)
    return a + scalar, scalar * a, a < scalar


@pytest.mark.parametrize("expr", ["a + 1000", "a - 200", "1000 * a", "b + (-1)", "b - 2 ** 64", "c + 2 ** 70"])
@numpy_simt_raises(OverflowError)
def test_python_integers_out_of_range_raise_overflow(xp, expr):
    a = xp.ones(3, np.int8)
    b = xp.ones(3, np.uint8)
    c = xp.ones(3, np.int64)
    return eval(expr)


@pytest.mark.parametrize("expr", ["b < -1", "b == 300", "b >= 256", "-1 < b", "a != 2 ** 63", "u > -1", "a < 2 ** 70"])
@numpy_simt_allclose()
def test_comparisons_with_out_of_range_integers_compare_values(xp, rng, expr):
    a = make(xp, rng, (6,), np.int64)
    b = make(xp, rng, (6,), np.uint8)
    u = xp.asarray(np.array([0, 1, 2 ** 63, 2 ** 64 - 1], np.uint64))
    return eval(expr)


@parametrize_dtypes("dtype", ALL)
@pytest.mark.parametrize("op", [operator.neg, operator.pos, operator.abs, operator.invert], ids=["neg", "pos", "abs", "invert"])
@numpy_simt_allclose(accept_error=(TypeError,))
def test_unary_operators_every_dtype(xp, rng, op, dtype):
    return op(make(xp, rng, (7,), dtype))


@pytest.mark.parametrize("dtype", [np.int32, np.float32], ids=["int32", "float32"])
@pytest.mark.parametrize("shape", [(), (0,), (5,), (3, 4), (2, 3, 4), (2, 1, 3, 4)], ids=str)
@numpy_simt_allclose()
def test_every_dimensionality(xp, rng, shape, dtype):
    a, b = make(xp, rng, shape, dtype), make(xp, rng, shape, dtype)
    return a + b, a * 3, a < b, -a


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((4,), (2, 3, 4)), ((), (3,)), ((2, 1, 3), (4, 1)),
                                    ((0, 3), (1, 3)), ((5, 1, 1, 2), (3, 1)), ((1,), (2, 2))], ids=str)
@numpy_simt_allclose()
def test_broadcasting(xp, rng, shapes):
    a = make(xp, rng, shapes[0], np.float64)
    b = make(xp, rng, shapes[1], np.int16)
    return a + b, b - a, a >= b


VIEWS = {
    "step2": lambda a: a[::2],
    "reversed": lambda a: a[::-1],
    "transposed": lambda a: a.T,
    "mixed": lambda a: a[1:, ::-2],
    "column": lambda a: a[:, 1],
    "newaxis": lambda a: a[:, None, 2:],
}


@pytest.mark.parametrize("view", list(VIEWS))
@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.complex128], ids=["float32", "int64", "complex128"])
@numpy_simt_allclose()
def test_non_contiguous_operands(xp, rng, view, dtype):
    a = VIEWS[view](make(xp, rng, (6, 5), dtype))
    b = VIEWS[view](make(xp, rng, (6, 5), dtype))
    return a + b, a * b[::-1], a - 2, abs(a)


@numpy_simt_allclose()
def test_four_dimensional_transposes_and_broadcast_views(xp, rng):
    a = make(xp, rng, (2, 3, 4, 5), np.float64)
    b = xp.broadcast_to(make(xp, rng, (4, 1), np.float64), (2, 3, 4, 5))
    t = a.transpose(3, 1, 0, 2)
    return a + b, t * 2 + t, a[:, ::-1, 1:3] - b[:, ::-1, 1:3]


@parametrize_dtypes("dtype", INTS + FLOATS + COMPLEX + BOOL)
@pytest.mark.parametrize("op", list(IN_PLACE))
@numpy_simt_allclose(accept_error=(TypeError,))
def test_in_place_operators(xp, rng, op, dtype):
    a, b = operands(xp, rng, op, (3, 4), (3, 4), dtype, dtype)
    target = a
    result = IN_PLACE[op](a, b)
    assert result is target  # in place: the same object comes back
    return target


@pytest.mark.parametrize("dtype", [np.int32, np.float64], ids=["int32", "float64"])
@pytest.mark.parametrize("op", ["+=", "*=", "//=", "**="])
@numpy_simt_allclose()
def test_in_place_operators_broadcast_the_operand(xp, rng, op, dtype):
    a, b = operands(xp, rng, op, (4, 3), (3,), dtype, dtype)
    IN_PLACE[op](a, b)
    IN_PLACE[op](a.T, 2)
    return a


@numpy_simt_allclose()
def test_in_place_into_views_and_overlapping_operands(xp, rng):
    a = make(xp, rng, (10,), np.float64)
    a[::2] *= 3
    a[1:] += a[:-1]  # overlapping: NumPy semantics are "as if the input were copied first"
    b = make(xp, rng, (4, 4), np.int32)
    b += b.T
    b[:, 1] -= 5
    return a, b


@pytest.mark.parametrize("expr", ["a += 1.5", "a *= f", "b -= c", "a //= 1j"])
@numpy_simt_raises(TypeError)
def test_in_place_casting_follows_same_kind(xp, rng, expr):
    a = make(xp, rng, (3,), np.int64)
    b = make(xp, rng, (3,), np.uint8)
    c = make(xp, rng, (3,), np.int8)
    f = make(xp, rng, (3,), np.float32)
    exec(expr)


@numpy_simt_allclose()
def test_in_place_downcast_within_a_kind(xp, rng):
    a = make(xp, rng, (5,), np.float32)
    a += make(xp, rng, (5,), np.float64)
    i = make(xp, rng, (5,), np.int8)
    i *= make(xp, rng, (5,), np.int64)
    return a, i


def test_shape_mismatch_messages_match_numpy():
    for shapes in [((2, 3), (4,)), ((5, 1, 3), (2, 4, 1)), ((3,), (4,))]:
        with pytest.raises(ValueError) as np_error:
            np.ones(shapes[0]) + np.ones(shapes[1])
        with pytest.raises(ValueError) as simt_error:
            simt.ones(shapes[0]) + simt.ones(shapes[1])
        assert str(simt_error.value) == str(np_error.value)
    a = simt.ones((3, 1))
    with pytest.raises(ValueError, match=r"non-broadcastable output operand with shape \(3,1\) doesn't match the "
                                         r"broadcast shape \(3,4\)"):
        a += simt.ones((3, 4))


def test_refusals_name_the_problem():
    b = simt.ones(3, bool)
    with pytest.raises(TypeError, match="boolean subtract"):
        b - b
    with pytest.raises(TypeError, match="boolean negative"):
        -b
    with pytest.raises(TypeError, match="ufunc 'bitwise_and' not supported for the input types"):
        simt.ones(3) & simt.ones(3)
    with pytest.raises(TypeError, match="modulus"):
        pow(simt.ones(3), 2, 5)


def test_numpy_arrays_never_mix_implicitly():
    d = simt.ones(3)
    h = np.ones(3)
    for f in (lambda: d + h, lambda: h + d, lambda: d < h, lambda: np.add(h, d), lambda: simt.add(d, h),
              lambda: d * [1, 2, 3]):
        with pytest.raises(TypeError, match=r"asarray"):
            f()


def test_unsupported_operand_types_defer_to_python():
    class Other:
        def __radd__(self, other):
            return "radd"

    assert simt.ones(2) + Other() == "radd"
    with pytest.raises(TypeError):
        simt.ones(2) + "text"


@numpy_simt_allclose()
def test_divmod_and_zero_division(xp, rng):
    a = make(xp, rng, (8,), np.int32)
    b = xp.asarray(np.array([0, 1, -3, 4, 0, -1, 7, 2], np.int32))
    f = make(xp, rng, (8,), np.float64)
    zeros = xp.zeros(8)
    q, r = divmod(a, b)
    return q, r, a // b, a % b, f / zeros, f // zeros, f % zeros, a / b


@numpy_simt_allclose()
def test_integer_extremes_wrap_like_numpy(xp):
    a = xp.asarray(np.array([np.iinfo(np.int64).min, -1, np.iinfo(np.int64).max], np.int64))
    m = xp.asarray(np.array([-1, -1, -1], np.int64))
    i8 = xp.asarray(np.array([-128, 127, 100], np.int8))
    return a // m, a % m, -a, i8 + i8, i8 * 3, abs(i8), i8 << 1, i8 >> 9


@numpy_simt_allclose()
def test_float_special_values(xp):
    a = xp.asarray(np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5], np.float32))
    b = xp.asarray(np.array([1.0, np.nan, 2.0, -0.0, np.inf, -np.inf], np.float32))
    return a + b, a < b, a == a, a != b, xp.maximum(a, b), xp.minimum(a, b), xp.fmax(a, b), xp.fmin(a, b)


def test_operators_return_simt_arrays_and_zero_d_results():
    d = simt.arange(6).reshape(2, 3)
    s = d[1, 2]
    assert isinstance(s, simt.ndarray) and s.shape == () and int(s) == 5 and float(s) == 5.0
    r = s * 2 + 1
    assert isinstance(r, simt.ndarray) and r.shape == () and r.item() == 11
    assert bool(d[0, 1] == 1)
