"""Lambdas where numba takes functions: cuda.jit(device=True)(lambda ...) called from kernels,
simt.vectorize over a lambda (with signatures and lazily), two lambdas on one line told apart,
closures over variables, and the errors for lambdas the kernel language cannot take."""
import math

import numpy as np
import pytest

import simt
from simt import cuda


def test_device_function_from_a_lambda_with_a_closure(rng):
    scale = float(rng.uniform(1, 3))
    affine = cuda.jit(device=True)(lambda x, y: scale * x + y)

    @cuda.jit
    def k(a, b, out):
        i = cuda.grid(1)
        if i < out.size:
            out[i] = affine(a[i], b[i])

    a, b = rng.standard_normal(200), rng.standard_normal(200)
    out = simt.zeros(200)
    k[2, 128](simt.asarray(a), simt.asarray(b), out)
    np.testing.assert_allclose(out.get(), scale * a + b, rtol=1e-15)


def test_vectorize_over_lambdas(rng):
    x, y = rng.standard_normal(300), rng.standard_normal(300)
    pick = simt.vectorize(["float64(float64, float64)"])(lambda p, q: p * 2 + q if p > q else p - q)
    np.testing.assert_allclose(pick(simt.asarray(x), simt.asarray(y)).get(), np.where(x > y, x * 2 + y, x - y),
                               rtol=1e-15)
    lazy = simt.vectorize(lambda v: math.exp(-v * v) + (  # (a body over several lines)
        1.0))
    np.testing.assert_allclose(lazy(simt.asarray(x)).get(), np.exp(-x * x) + 1.0, rtol=1e-14)


def test_two_lambdas_on_one_line_are_told_apart(rng):
    add, mul = cuda.jit(device=True)(lambda p, q: p + q), cuda.jit(device=True)(lambda p, q: p * q)

    @cuda.jit
    def k(a, out):
        i = cuda.grid(1)
        if i < a.size:
            out[i] = add(a[i], 1.0) + mul(a[i], 3.0)

    a = rng.standard_normal(64)
    out = simt.zeros(64)
    k[1, 64](simt.asarray(a), out)
    np.testing.assert_allclose(out.get(), (a + 1.0) + a * 3.0, rtol=1e-15)


def test_lambdas_differing_only_in_names_on_one_line(rng):
    a_, b_ = 2.0, 5.0
    twice, five = simt.vectorize(lambda v: v * a_), simt.vectorize(lambda v: v * b_)
    x = rng.standard_normal(20)
    np.testing.assert_allclose(twice(simt.asarray(x)).get(), 2 * x, rtol=1e-15)
    np.testing.assert_allclose(five(simt.asarray(x)).get(), 5 * x, rtol=1e-15)


def test_errors_in_a_lambda_name_its_line():
    bad = simt.vectorize(lambda v: v.no_such_attribute)
    line = bad.py_func.__code__.co_firstlineno
    with pytest.raises(simt.cuda.TypingError, match=f'test_lambdas.py", line {line},'):
        bad(simt.ones(3))


def test_lambdas_the_kernel_language_cannot_take():
    with pytest.raises(simt.cuda.UnsupportedError, match="default, keyword-only or \\* arguments"):
        cuda.jit(device=True)(lambda x, y=2: x + y)
    made = eval("lambda x: x + 1")  # (no source file to read it from)
    with pytest.raises(simt.cuda.UnsupportedError, match="define it with def|source code is not available"):
        cuda.jit(device=True)(made)
