"""Ufunc type resolution against NumPy for every ufunc and every combination of input dtypes
(no kernels are compiled: the C++ resolver is asked directly), and the ufunc objects' surface."""
import itertools

import numpy as np
import pytest

import simt
from simt import _simt
from xp_testing import ALL

UNARY = ["negative", "positive", "absolute", "fabs", "square", "reciprocal", "sign", "conjugate", "invert",
         "logical_not", "sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos", "tan",
         "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh", "arctanh", "deg2rad", "rad2deg",
         "floor", "ceil", "trunc", "rint", "isnan", "isinf", "isfinite", "signbit"]
BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "fmod", "power", "float_power",
          "maximum", "minimum", "fmax", "fmin", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
          "logical_and", "logical_or", "logical_xor", "less", "less_equal", "greater", "greater_equal", "equal",
          "not_equal", "arctan2", "hypot", "copysign", "logaddexp", "heaviside", "gcd", "lcm", "ldexp"]
# Complex loops of transcendental functions simt provides (through cmath), and those NumPy has that
# simt does not provide yet.
COMPLEX_PROVIDED = {"sqrt", "exp", "log", "log10", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
                    "tanh", "arcsinh", "arccosh", "arctanh"}
COMPLEX_MATH = (set(UNARY[UNARY.index("sqrt"):UNARY.index("rad2deg") + 1]) | {"rint", "float_power"}) - COMPLEX_PROVIDED


def numpy_result(name, dtypes):
    try:
        with np.errstate(all="ignore"):
            return getattr(np, name)(*(np.ones(1, d) for d in dtypes)).dtype
    except TypeError:
        return None


def simt_result(name, dtypes):
    try:
        return np.dtype(_simt._resolve_for_fusion(name, [np.dtype(d) for d in dtypes])[2])
    except TypeError:
        return None


@pytest.mark.parametrize("name", UNARY + BINARY)
def test_resolution_matches_numpy_for_every_dtype_combination(name):
    nin = 1 if name in UNARY else 2
    mismatches = []
    for dtypes in itertools.product(ALL, repeat=nin):
        expected = numpy_result(name, dtypes)
        if expected is not None and expected.kind == "c" and name in COMPLEX_MATH:
            continue
        got = simt_result(name, dtypes)
        if got != expected:
            mismatches.append((tuple(np.dtype(d).name for d in dtypes), expected, got))
    assert not mismatches, f"{name}: (inputs, numpy, simt): {mismatches[:10]}"


@pytest.mark.parametrize("name", sorted(COMPLEX_MATH))
def test_complex_math_is_refused_clearly(name):
    nin = 1 if name in UNARY else 2
    with pytest.raises(TypeError, match=f"ufunc '{name}' not supported for the input types"):
        _simt._resolve_for_fusion(name, [np.dtype(np.complex128)] * nin)


@pytest.mark.parametrize("cond", ALL, ids=lambda d: np.dtype(d).name)
def test_where_promotes_its_values_and_takes_any_condition(cond):
    for x, y in [(np.int8, np.uint8), (np.float32, np.int64), (np.bool_, np.complex64)]:
        expected = np.where(np.ones(1, cond), np.ones(1, x), np.ones(1, y)).dtype
        assert simt_result("where", (cond, x, y)) == expected


def test_ufunc_objects_look_like_numpys():
    assert simt.add.__name__ == "add" and simt.add.nin == 2 and simt.add.nout == 1 and simt.add.nargs == 3
    assert "float32,float32->float32" in simt.add.types
    assert repr(simt.sqrt) == "<ufunc 'sqrt'>"
    assert simt.divide.__name__ == "divide" and simt.abs.__name__ == "abs"
    assert simt.sqrt.__doc__
    for name in UNARY + BINARY + ["divide", "mod", "abs", "conj", "bitwise_not", "radians", "degrees"]:
        assert isinstance(getattr(simt, name), simt.ufunc), name
    with pytest.raises(TypeError, match="takes 2 positional arguments but 1 were given"):
        simt.add(simt.ones(2))
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        simt.add(simt.ones(2), 1, bogus=1)
