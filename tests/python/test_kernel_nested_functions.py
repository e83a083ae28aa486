"""Nested `def` and `name = lambda` inside kernels and device functions (numba's inner functions
that do not escape): closures over enclosing variables (their value at the call), default and
keyword arguments, inner functions calling each other and device functions, cuda.* inside them,
barriers, and the errors for what is not supported. Results are compared with the same kernel
body run as plain Python, thread by thread, on the NumPy data."""
import types

import numpy as np
import pytest

import simt
from simt import cuda


class _Atomic:
    @staticmethod
    def add(a, i, v):
        old = a[i]
        a[i] += v
        return old

    @staticmethod
    def max(a, i, v):
        old = a[i]
        a[i] = max(a[i], v)
        return old


class _FakeCuda:
    """The cuda names the kernels below use, for one thread of a 1-D launch."""
    atomic = _Atomic

    def __init__(self, i, block):
        self.i = i
        self.threadIdx = types.SimpleNamespace(x=i % block)
        self.blockIdx = types.SimpleNamespace(x=i // block)
        self.blockDim = types.SimpleNamespace(x=block)

    def grid(self, n):
        return self.i


def run_as_python(kernel_py, threads, block, args, **replace):
    """Runs the kernel's Python function once per thread (in order) on NumPy copies of `args`.
    `replace` maps global names (device functions) to plain Python functions."""
    args = [np.array(a.get(), copy=True) if isinstance(a, simt.ndarray) else a for a in args]
    for i in range(threads):
        g = dict(kernel_py.__globals__, cuda=_FakeCuda(i, block), **replace)
        types.FunctionType(kernel_py.__code__, g, kernel_py.__name__, kernel_py.__defaults__,
                           kernel_py.__closure__)(*args)
    return args


def compare_with_python(kernel_py, rng, dtype, n, out_shape, extra, **replace):
    """Launches kernel_py(x, out, *extra) over n threads on random x of `dtype` and compares `out`
    with the plain-Python run."""
    x = simt.asarray(random_array(rng, dtype, n))
    out = simt.zeros(out_shape, np.float64)
    _, expected, *_ = run_as_python(kernel_py, n, 32, [x, out, *extra], **replace)
    cuda.jit(kernel_py)[(n + 31) // 32, 32](x, out, *extra)
    np.testing.assert_allclose(out.get(), expected, **tolerance(dtype))


def random_array(rng, dtype, n):
    if np.issubdtype(dtype, np.integer):
        return rng.integers(-50, 50, n).astype(dtype)
    return rng.standard_normal(n).astype(dtype)


def tolerance(dtype):
    return dict(rtol=1e-5, atol=1e-5) if dtype in (np.float32,) else dict(rtol=1e-12, atol=0)


DTYPES = [np.float32, np.float64, np.int32, np.int64]


def _twice(v):
    return 2 * v


twice = cuda.jit(device=True)(_twice)


def closure_default_lambda(x, out, scale):
    def helper(v, w=2.0):  # reads the kernel's parameter `scale`
        return v * scale + w
    sq = lambda v: v * v  # noqa: E731
    i = cuda.grid(1)
    if i < x.size:
        out[i] = helper(x[i]) + sq(x[i])


@pytest.mark.parametrize("dtype", DTYPES)
def test_closure_default_argument_and_lambda(rng, dtype):
    compare_with_python(closure_default_lambda, rng, dtype, 100, 100, [float(rng.uniform(-3, 3))])


def lambdas_in_expressions(x, out, scale):
    i = cuda.grid(1)
    if i < x.size:
        shift = 0.5
        out[i] = (lambda v, w=2.0: v * scale * w + shift)(x[i]) + (lambda: shift)()


def nested_lambdas(x, out, scale):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = (lambda a: (lambda b: a * b + scale)(2.0))(x[i])  # the inner one reads the outer's a


@pytest.mark.parametrize("dtype", DTYPES)
def test_lambdas_inside_lambdas_see_their_parameters(rng, dtype):
    compare_with_python(nested_lambdas, rng, dtype, 100, 100, [float(rng.uniform(-3, 3))])


@pytest.mark.parametrize("dtype", DTYPES)
def test_lambdas_written_inside_expressions(rng, dtype):
    # Defined just before their statement, as inner functions: they read enclosing variables.
    compare_with_python(lambdas_in_expressions, rng, dtype, 100, 100, [float(rng.uniform(-3, 3))])


def keywords(x, out, k):
    def affine(v, a=1, b=0):
        return a * v + b
    i = cuda.grid(1)
    if i < x.size:
        out[i, 0] = affine(x[i])
        out[i, 1] = affine(x[i], 3)
        out[i, 2] = affine(x[i], b=k)
        out[i, 3] = affine(b=2, v=x[i], a=k)
        out[i, 4] = affine(x[i], k, k + 1)


@pytest.mark.parametrize("dtype", DTYPES)
def test_default_and_keyword_arguments(rng, dtype):
    compare_with_python(keywords, rng, dtype, 40, (40, 5), [int(rng.integers(-9, 9))])


def calls_each_other(x, out, scale):
    offset = scale * 0.5
    def base(v):
        return v + offset
    cube = lambda v: v * v * v  # noqa: E731
    def combined(v):
        return base(v) * 2 + cube(v) - twice(v)  # inner functions and a device function
    def outer(v):
        def inner(w):  # nested two levels: reads `scale` of the kernel and `v` of outer
            return w * scale + v + base(w)
        return inner(v + 1)
    i = cuda.grid(1)
    if i < x.size:
        out[i] = combined(x[i]) + outer(x[i])


@pytest.mark.parametrize("dtype", DTYPES)
def test_inner_functions_call_each_other_and_device_functions(rng, dtype):
    compare_with_python(calls_each_other, rng, dtype, 70, 70, [float(rng.uniform(-2, 2))], twice=_twice)


def late_binding(x, out):
    i = cuda.grid(1)
    if i < x.size:
        t = x[i]
        add_t = lambda v: v + t  # noqa: E731
        acc = 0.0
        for j in range(4):
            t = t * 2  # the lambda sees the value `t` has at each call
            acc += add_t(j)
        out[i] = acc


@pytest.mark.parametrize("dtype", [np.float64, np.int64])
def test_enclosing_variables_are_read_at_the_call(rng, dtype):
    compare_with_python(late_binding, rng, dtype, 33, 33, [])


def grid_and_atomics(x, hist, out):
    def index():
        return cuda.grid(1)
    def count(v):
        cuda.atomic.add(hist, v % hist.size, 1)  # hist: the kernel's array parameter
    def store(j, v):
        out[j] = v  # writes through the enclosing array
    i = index()
    if i < x.size:
        count(x[i])
        store(i, x[i] * 3)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint32])
def test_inner_functions_use_grid_atomics_and_write_arrays(rng, dtype):
    n = 300
    x = simt.asarray(rng.integers(0, 1000, n).astype(dtype))
    hist = simt.zeros(7, np.int64)
    out = simt.zeros(n, dtype)
    _, expected_hist, expected_out = run_as_python(grid_and_atomics, n, 32, [x, hist, out])
    cuda.jit(grid_and_atomics)[10, 32](x, hist, out)
    np.testing.assert_array_equal(hist.get(), expected_hist)
    np.testing.assert_array_equal(out.get(), expected_out)


def _device_with_inner(a, k):
    def mul(v):
        return v * k  # reads the device function's parameter
    square = lambda v: mul(v) * v  # noqa: E731
    return square(a) + mul(1)


device_with_inner = cuda.jit(device=True)(_device_with_inner)


def calls_device_with_inner(x, out, k):
    i = cuda.grid(1)
    if i < x.size:
        out[i] = device_with_inner(x[i], k) + device_with_inner(x[i], 2.5)


@pytest.mark.parametrize("dtype", DTYPES)
def test_inner_functions_inside_device_functions(rng, dtype):
    compare_with_python(calls_device_with_inner, rng, dtype, 50, 50, [int(rng.integers(-5, 5))],
                        device_with_inner=_device_with_inner)


@cuda.jit
def reverse_with_inner_barrier(a, out):
    s = cuda.shared.array(64, np.float64)
    t = cuda.threadIdx.x
    def load():
        s[t] = a[cuda.blockIdx.x * 64 + t]
    def sync():
        cuda.syncthreads()  # a barrier inside an inner function, as in a device function
    load()
    sync()
    out[cuda.blockIdx.x * 64 + t] = s[63 - t]


def test_barrier_inside_an_inner_function(rng):
    a = rng.standard_normal(256)
    out = simt.zeros(256)
    reverse_with_inner_barrier[4, 64](simt.asarray(a), out)
    np.testing.assert_array_equal(out.get(), a.reshape(4, 64)[:, ::-1].ravel())


# ---- errors: the message and the line ---------------------------------------------------------

ERRORS = [
    ("""
    def g(v):
        nonlocal x
        return v
    """, "nonlocal", 3),
    ("""
    global y
    """, "unsupported statement: global", 2),
    ("""
    def g(v):
        return g(v)
    x[0] = g(1.0)
    """, r"recursive device function calls are not supported \(k -> g -> g\)", 3),
    ("""
    def g(v):
        yield v
    """, "generators are not supported", 3),
    ("""
    def g(v):
        return v
    h = g
    """, "inner function 'g' can only be called", 4),
    ("""
    def g(v):
        return v
    return g
    """, "inner function 'g' can only be called", 4),
    ("""
    def g(v):
        return v
    x[0] = abs(g)
    """, "inner function 'g' can only be called", 4),
    ("""
    pair = (lambda v: v, 1.0)
    """, "a lambda can only be called, or given to a function that takes one", 2),
    ("""
    def g(v, h=lambda q: q):
        return v
    x[0] = g(1.0)
    """, "a parameter's default value must be a constant, not a lambda", 2),
    ("""
    x[0] = g(1.0)
    def g(v):
        return v
    """, r"inner function 'g' is called before its definition \(line 6\)", 2),
    ("""
    def g(v):
        return v
    g = 2
    """, "names an inner function and a variable", 2),
    ("""
    def g(v):
        return v + undefined_name
    x[0] = g(1.0)
    """, "name 'undefined_name' is not defined", 3),
    ("""
    def g(v):
        return v
    x[0] = g(1.0, 2.0)
    """, "g\\(\\) takes", 4),
]


@pytest.mark.parametrize("body, message, line", ERRORS)
def test_errors_name_the_problem_and_line(kernel_module, body, message, line):
    import textwrap
    source = "from simt import cuda\n\n@cuda.jit\ndef k(x):" + textwrap.indent(textwrap.dedent(body), "    ")
    mod = kernel_module(source)
    with pytest.raises((cuda.TypingError, cuda.UnsupportedError), match=message) as info:
        mod.k[1, 1](simt.zeros(4))
    # The kernel's `def` is on line 4 of the file: body line 1 is line 5.
    assert f'kernel_module.py", line {line + 3}' in str(info.value), str(info.value)
