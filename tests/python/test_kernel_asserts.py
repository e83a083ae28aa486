"""assert and raise in kernels, as numba-cuda has them: reported only with debug=True, where the
first failing thread's assertion (AssertionError) or raised builtin exception reaches the host at
the next synchronize, naming the message (or the failing line), the kernel, file:line, the thread
and the block. Without debug an assert costs nothing; a raise still ends the thread (in a device
function, returns from it)."""
import numpy as np
import pytest

import simt
from simt import cuda


@cuda.jit(debug=True)
def checked_sqrt(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        assert a[i] >= 0, "values must be non-negative"
        out[i] = a[i] ** 0.5


@cuda.jit
def unchecked_sqrt(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        assert a[i] >= 0, "values must be non-negative"
        out[i] = abs(a[i]) ** 0.5


def test_passing_asserts_change_nothing(rng):
    a_h = rng.uniform(0, 10, 300)
    out = simt.zeros(300)
    checked_sqrt[3, 128](simt.asarray(a_h), out)
    cuda.synchronize()
    np.testing.assert_allclose(out.get(), np.sqrt(a_h), rtol=1e-12)


def test_failing_assert_names_thread_block_and_line(rng):
    a_h = rng.uniform(0, 10, 300)
    bad = int(rng.integers(0, 300))
    a_h[bad] = -1.0
    out = simt.zeros(300)
    with pytest.raises(AssertionError) as info:
        checked_sqrt[3, 128](simt.asarray(a_h), out)
        cuda.synchronize()
    text = str(info.value)
    assert text.startswith("values must be non-negative (kernel 'checked_sqrt' at ")
    line = next(n for n, t in enumerate(open(__file__), 1) if 'assert a[i] >= 0, "values' in t)
    assert f"test_kernel_asserts.py:{line}," in text
    assert f"thread ({bad % 128}, 0, 0) of block ({bad // 128}, 0, 0)" in text
    # the error is reported once; the next launch runs normally
    a_h[bad] = 4.0
    checked_sqrt[3, 128](simt.asarray(a_h), out)
    cuda.synchronize()
    np.testing.assert_allclose(out.get(), np.sqrt(a_h), rtol=1e-12)


def test_without_debug_asserts_are_not_checked(rng):
    a_h = -rng.uniform(1, 10, 50)
    out = simt.zeros(50)
    unchecked_sqrt[1, 64](simt.asarray(a_h), out)
    cuda.synchronize()
    np.testing.assert_allclose(out.get(), np.sqrt(-a_h), rtol=1e-12)


@cuda.jit(device=True)
def checked_scale(x, s):
    assert s != 0
    return x / s


@cuda.jit(debug=True)
def scale_rows(a, scales, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        out[i] = checked_scale(a[i], scales[i])


def test_assert_in_a_device_function_quotes_its_line(rng):
    a_h = rng.standard_normal(40)
    s_h = rng.uniform(1, 2, 40)
    s_h[7] = 0.0
    out = simt.zeros(40)
    with pytest.raises(AssertionError, match=r"assertion failed: assert s != 0 \(kernel 'scale_rows' at .*"
                                             r"test_kernel_asserts.py:\d+ \(in device function 'checked_scale'\), "
                                             r"thread \(7, 0, 0\) of block \(0, 0, 0\)\)"):
        scale_rows[1, 64](simt.asarray(a_h), simt.asarray(s_h), out)
        cuda.synchronize()


@cuda.jit(debug=True)
def block_sum_with_check(a, out):
    tile = cuda.shared.array(64, np.float64)
    t = cuda.threadIdx.x
    tile[t] = a[cuda.grid(1)]
    cuda.syncthreads()
    if t == 0:
        s = 0.0
        for k in range(64):
            s += tile[k]
        assert s < 1000.0, "block sum too large"
        out[cuda.blockIdx.x] = s


def test_assert_in_a_kernel_with_barriers(rng):
    a_h = rng.uniform(0, 1, 256)
    out = simt.zeros(4)
    block_sum_with_check[4, 64](simt.asarray(a_h), out)
    cuda.synchronize()
    np.testing.assert_allclose(out.get(), a_h.reshape(4, 64).sum(axis=1), rtol=1e-12)
    a_h[130] = 5000.0
    with pytest.raises(AssertionError, match=r"block sum too large .*thread \(0, 0, 0\) of block \(2, 0, 0\)"):
        block_sum_with_check[4, 64](simt.asarray(a_h), out)
        cuda.synchronize()


def test_assert_message_must_be_a_constant_string(kernel_module):
    m = kernel_module("""
from simt import cuda

@cuda.jit(debug=True)
def k(a):
    assert a[0] > 0, a[0]
""", name="assert_message")
    with pytest.raises(cuda.TypingError, match=r"(?s)assert_message.py.*the message of an assert in a kernel must be a constant string"):
        m.k[1, 1](simt.zeros(1))


@cuda.jit(device=True)
def checked_half(x):
    if x < 0:
        raise ValueError("negative input")
    return x / 2


@cuda.jit(debug=True)
def halve_debug(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        if a[i] > 1000:
            raise OverflowError
        out[i] = checked_half(a[i])


@cuda.jit
def halve_quiet(a, out):
    i = cuda.grid(1)
    if i < a.shape[0]:
        if a[i] > 1000:
            raise OverflowError("too large")
        out[i] = a[i] / 2


def test_raise_reports_the_builtin_exception_with_debug(rng):
    a_h = rng.uniform(0, 10, 70)
    out = simt.zeros(70)
    halve_debug[1, 128](simt.asarray(a_h), out)
    cuda.synchronize()
    np.testing.assert_array_equal(out.get(), a_h / 2)
    a_h[33] = -1.0
    with pytest.raises(ValueError, match=r"^negative input \(kernel 'halve_debug' at .*test_kernel_asserts.py:\d+ "
                                         r"\(in device function 'checked_half'\), thread \(33, 0, 0\)"):
        halve_debug[1, 128](simt.asarray(a_h), out)
        cuda.synchronize()
    a_h[33] = 5000.0
    with pytest.raises(OverflowError, match=r"^\(kernel 'halve_debug' at .*, thread \(33, 0, 0\) of block \(0, 0, 0\)\)"):
        halve_debug[1, 128](simt.asarray(a_h), out)
        cuda.synchronize()


def test_raise_without_debug_ends_the_thread(rng):
    a_h = rng.uniform(0, 10, 70)
    big = rng.choice(70, 5, replace=False)
    a_h[big] = 5000.0
    out = simt.asarray(np.full(70, -1.0))
    halve_quiet[1, 128](simt.asarray(a_h), out)
    cuda.synchronize()
    want = a_h / 2
    want[big] = -1.0  # those threads stopped at the raise
    np.testing.assert_array_equal(out.get(), want)


def test_raise_errors_name_the_line(kernel_module):
    m = kernel_module("""
from simt import cuda

class MyError(Exception):
    pass

@cuda.jit(debug=True)
def bare(a):
    raise

@cuda.jit(debug=True)
def user_class(a):
    raise MyError("x")

@cuda.jit(debug=True)
def variable_message(a):
    raise ValueError(a[0])

@cuda.jit(debug=True)
def two_arguments(a):
    raise ValueError("a", "b")

@cuda.jit(debug=True)
def exception_as_value(a):
    e = ValueError("x")
""", name="raise_errors")
    cases = [(m.bare, cuda.UnsupportedError, "a bare 'raise'"),
             (m.user_class, Exception, "MyError"),
             (m.variable_message, cuda.TypingError, "must be a constant string"),
             (m.two_arguments, cuda.TypingError, "at most one argument"),
             (m.exception_as_value, cuda.TypingError, "ValueError can only be raised in a kernel")]
    for kernel, error, message in cases:
        with pytest.raises(error, match=message) as info:
            kernel[1, 1](simt.zeros(1))
        assert "raise_errors.py" in str(info.value), str(info.value)


@cuda.jit(debug=True)
def raise_before_barrier(a, out):
    t = cuda.threadIdx.x
    if a[t] < 0:
        raise ValueError("negative element")
    cuda.syncthreads()
    out[t] = a[t]


def test_raise_is_reported_before_the_barrier_it_skipped(rng):
    a_h = rng.uniform(0, 1, 64)
    a_h[int(rng.integers(0, 64))] = -1.0
    with pytest.raises(ValueError, match="negative element"):
        raise_before_barrier[1, 64](simt.asarray(a_h), simt.zeros(64))
        cuda.synchronize()
