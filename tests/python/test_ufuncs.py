"""simt's ufuncs against NumPy: values over each ufunc's dtypes (including NaN, inf and signed
zeros), out= and dtype=, NumPy's __array_ufunc__ protocol, where and clip."""
import numpy as np
import pytest

import simt
from xp_testing import COMPLEX, FLOATS, INTS, make, numpy_simt_allclose, numpy_simt_raises, parametrize_dtypes

SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 0.5, -2.5, 1e-3, 3.0, -1.0])

UNARY_MATH = {
    "sqrt": (0, 9), "cbrt": (-8, 8), "exp": (-5, 5), "exp2": (-5, 5), "expm1": (-2, 2), "log": (0.01, 9),
    "log2": (0.01, 9), "log10": (0.01, 9), "log1p": (-0.9, 9), "sin": (-4, 4), "cos": (-4, 4), "tan": (-1.2, 1.2),
    "arcsin": (-1, 1), "arccos": (-1, 1), "arctan": (-9, 9), "sinh": (-3, 3), "cosh": (-3, 3), "tanh": (-3, 3),
    "arcsinh": (-9, 9), "arccosh": (1, 9), "arctanh": (-0.99, 0.99), "deg2rad": (-360, 360), "rad2deg": (-7, 7),
    "floor": (-9, 9), "ceil": (-9, 9), "trunc": (-9, 9), "rint": (-9, 9), "fabs": (-9, 9), "absolute": (-9, 9),
    "sign": (-9, 9), "square": (-9, 9), "reciprocal": (0.5, 9), "negative": (-9, 9), "isnan": (-9, 9),
    "isinf": (-9, 9), "isfinite": (-9, 9), "signbit": (-9, 9),
}


@parametrize_dtypes("dtype", FLOATS)
@pytest.mark.parametrize("name", list(UNARY_MATH))
@numpy_simt_allclose()
def test_unary_float_ufuncs(xp, rng, name, dtype):
    lo, hi = UNARY_MATH[name]
    x = make(xp, rng, (50,), dtype, low=lo, high=hi)
    f = getattr(xp, name)
    return f(x), f(xp.asarray(SPECIAL.astype(dtype)))


@parametrize_dtypes("dtype", [np.int8, np.uint16, np.int64, np.bool_])
@pytest.mark.parametrize("name", ["sqrt", "exp", "sin", "floor", "ceil", "trunc", "absolute", "isnan", "isfinite",
                                  "square", "reciprocal", "log1p", "logical_not"])
@numpy_simt_allclose()
def test_unary_ufuncs_on_integers_follow_numpys_float_promotion(xp, rng, name, dtype):
    x = make(xp, rng, (20,), dtype, low=0 if np.dtype(dtype).kind == "u" else -9, high=9)
    if name in ("sqrt", "log1p"):
        x = abs(x)
    if name == "reciprocal" and x.dtype != np.bool_:
        x = xp.where(x == 0, 1, x)  # the integer reciprocal of 0 is platform-defined in NumPy
    return getattr(xp, name)(x)


BINARY_MATH = ["arctan2", "hypot", "copysign", "logaddexp", "heaviside", "fmod", "maximum", "minimum", "fmax", "fmin",
               "power", "float_power", "floor_divide", "remainder", "true_divide"]


@parametrize_dtypes("dtype", FLOATS)
@pytest.mark.parametrize("name", BINARY_MATH)
@numpy_simt_allclose()
def test_binary_float_ufuncs(xp, rng, name, dtype):
    a = make(xp, rng, (40,), dtype, low=0.1 if "power" in name else -5, high=5)
    b = make(xp, rng, (40,), dtype, low=-3, high=3)
    f = getattr(xp, name)
    special = xp.asarray(SPECIAL.astype(dtype))
    return f(a, b), f(special, special[::-1]), f(a[:10], 2.0)


@parametrize_dtypes("dtype", INTS)
@pytest.mark.parametrize("name", ["fmod", "maximum", "minimum", "fmax", "gcd_free_remainder", "bitwise_xor"])
@numpy_simt_allclose()
def test_binary_integer_ufuncs(xp, rng, name, dtype):
    a = make(xp, rng, (30,), dtype)
    b = make(xp, rng, (30,), dtype)
    name = "remainder" if name == "gcd_free_remainder" else name
    return getattr(xp, name)(a, b), getattr(xp, name)(b, a)


@parametrize_dtypes("dtype", COMPLEX)
@numpy_simt_allclose()
def test_complex_arithmetic_and_companions(xp, rng, dtype):
    a = make(xp, rng, (25,), dtype)
    b = make(xp, rng, (25,), dtype)
    return (a + b, a - b, a * b, a / b, a ** b, a ** 2, -a, abs(a), xp.conj(a), xp.sign(a), xp.square(a),
            xp.reciprocal(a), a == b, a != a, a < b, xp.maximum(a, b), xp.isfinite(a), a.real, a.imag)


COMPLEX_MATH = ["sqrt", "exp", "log", "log10", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
                "tanh", "arcsinh", "arccosh", "arctanh"]


@parametrize_dtypes("dtype", COMPLEX)
@pytest.mark.parametrize("name", COMPLEX_MATH)
@numpy_simt_allclose()
def test_complex_math_ufuncs(xp, rng, name, dtype):
    # All four quadrants and both sides of the branch cuts on the axes (principal values).
    z = make(xp, rng, (60,), dtype, low=-2.5, high=2.5)
    return getattr(xp, name)(z)


@numpy_simt_allclose()
def test_logical_and_bitwise_ufuncs(xp, rng):
    a = make(xp, rng, (16,), np.int16)
    b = make(xp, rng, (16,), np.float32)
    c = make(xp, rng, (16,), np.bool_)
    return (xp.logical_and(a, b), xp.logical_or(c, a), xp.logical_xor(b, c), xp.logical_not(a),
            xp.bitwise_and(a, 7), xp.bitwise_or(c, c), xp.invert(c), xp.bitwise_not(a), xp.left_shift(a, 2),
            xp.right_shift(a, 1))


@numpy_simt_allclose()
def test_out_argument_and_dtype(xp, rng):
    a = make(xp, rng, (3, 4), np.float32)
    b = make(xp, rng, (4,), np.float32)
    out = xp.zeros((3, 4), np.float64)
    r = xp.add(a, b, out=out)
    assert r is out
    reversed_columns = xp.zeros((3, 4), np.float32)
    xp.multiply(a, 2, out=(reversed_columns[:, ::-1],))  # a tuple, into a view
    view = xp.zeros((6, 4), np.float32)[::2]
    xp.sqrt(abs(a), view)  # positional out
    return out, reversed_columns, view, xp.add(a, b, dtype=np.float64), xp.multiply(a, a, dtype=np.float16)


@pytest.mark.parametrize("case", ["cast", "shape"])
@numpy_simt_raises(TypeError, ValueError)
def test_out_argument_errors(xp, rng, case):
    a = make(xp, rng, (3, 4), np.float32)
    if case == "cast":
        xp.add(a, 1, out=xp.zeros((3, 4), np.int32))
    else:
        xp.add(a, 1, out=xp.zeros((4, 3), np.float32))


def test_numpy_ufuncs_dispatch_to_simt():
    d = simt.asarray(np.array([0.5, 1.5, -2.0]))
    e = simt.asarray(np.array([1.0, 2.0, 3.0]))
    for r, expected in [(np.sin(d), np.sin(d.get())), (np.add(d, e), d.get() + e.get()),
                        (np.maximum(d, 0), np.maximum(d.get(), 0)), (np.abs(d), np.abs(d.get())),
                        (np.float32(2) * d, np.float32(2) * d.get()), (np.divide(d, e), d.get() / e.get())]:
        assert isinstance(r, simt.ndarray)
        np.testing.assert_allclose(r.get(), expected)
    out = simt.empty(3)
    assert np.multiply(d, e, out=out) is out
    np.testing.assert_allclose(out.get(), d.get() * e.get())
    with pytest.raises(TypeError, match="asarray"):
        np.add(d, np.ones(3))
    with pytest.raises(TypeError, match="does not implement numpy.isnat"):
        np.isnat(simt.ones(3))


@pytest.mark.parametrize("case", ["arrays", "scalars", "broadcast", "int-condition"])
@numpy_simt_allclose()
def test_where(xp, rng, case):
    c = make(xp, rng, (4, 5), np.bool_)
    x = make(xp, rng, (4, 5), np.float32)
    y = make(xp, rng, (4, 5), np.int16)
    if case == "arrays":
        return xp.where(c, x, y)
    if case == "scalars":
        return xp.where(c, x, 0), xp.where(c, 1, 2.5), xp.where(c, 1j, y)
    if case == "broadcast":
        return xp.where(c[:, :1], x[0], y)
    return xp.where(y, x, -x)


@parametrize_dtypes("dtype", [np.int8, np.uint32, np.float16, np.float64])
@numpy_simt_allclose()
def test_clip(xp, rng, dtype):
    a = make(xp, rng, (30,), dtype, low=0 if np.dtype(dtype).kind == "u" else -9, high=9)
    lo = make(xp, rng, (30,), dtype, low=0, high=3)
    return xp.clip(a, 2, 6), xp.clip(a, lo, 7), xp.clip(a, None, 3), xp.clip(a, 1, None), a.clip(1, 4)


@parametrize_dtypes("dtype", [np.uint8, np.int8, np.int16])
@numpy_simt_allclose()
def test_clip_saturates_python_int_bounds_outside_the_dtype(xp, rng, dtype):
    # NumPy 2: clip(uint8 array, 10, 300) limits to 10..255 (the bound is not converted to uint8).
    a = make(xp, rng, (40,), dtype, low=0, high=120)
    info = np.iinfo(dtype)
    return (xp.clip(a, 10, int(info.max) + 45), xp.clip(a, int(info.min) - 7, 50), xp.clip(a, None, 100000),
            xp.clip(a, -100000, None))


@numpy_simt_allclose()
def test_clip_propagates_nan(xp):
    a = xp.asarray(np.array([np.nan, 1.0, 5.0, -np.inf]))
    return xp.clip(a, 0.0, 2.0), xp.clip(a, np.nan, 2.0)
