"""Kernel-language corners where simt disagreed with Python and numba: range() over uint64 with
negative bounds, shifts of unsigned values, forall() counts, integer literal arithmetic as Python
folds it, device functions returning their local arrays, user names that are also C names, and
launch configurations of the wrong type. Results are compared with Python / NumPy."""
import math

import numpy as np
import pytest

import simt
from simt import cuda


@cuda.jit
def count_with_uint64_bounds(out, n):
    c = 0
    for i in range(n, -1, -1):  # n, n - 1, ..., 0
        c += 1
    out[0] = c
    c = 0
    for i in range(-2, n):
        c += i
    out[1] = c
    c = 0
    for i in range(n):  # all unsigned: the loop variable stays uint64
        c += i
    out[2] = c


@pytest.mark.parametrize("dtype", [np.uint64, np.uint32, np.int64])
def test_range_mixing_unsigned_and_negative_bounds(rng, dtype):
    n = int(rng.integers(3, 40))
    out = simt.zeros(3, np.int64)
    count_with_uint64_bounds[1, 1](out, dtype(n))
    np.testing.assert_array_equal(out.get(), [len(range(n, -1, -1)), sum(range(-2, n)), sum(range(n))])


@cuda.jit
def shifts_of_unsigned(a, out):
    out[0] = a[0] >> 3
    out[1] = a[1] >> 60
    x = a[2]
    c = 0
    while x != 0:  # the popcount loop: x stays uint64 through >>=
        c += x & 1
        x >>= 1
    out[2] = c
    out[3] = a[0] << 2


def test_unsigned_values_shift_in_zeros(rng):
    a = np.array([2**64 - 8, 2**64 - 1, rng.integers(0, 2**63, dtype=np.uint64) * np.uint64(2) + np.uint64(1)],
                 np.uint64)
    out = simt.zeros(4, np.uint64)
    shifts_of_unsigned[1, 1](simt.asarray(a), out)
    expect = [a[0] >> np.uint64(3), a[1] >> np.uint64(60), bin(int(a[2])).count("1"), a[0] << np.uint64(2)]
    np.testing.assert_array_equal(out.get(), np.array(expect, np.uint64))


@cuda.jit
def add_one(a):
    i = cuda.grid(1)
    if i < a.size:
        a[i] += 1


def test_forall_counts(rng):
    values = rng.standard_normal(5)
    a = simt.asarray(values)
    add_one.forall(0)(a)  # no threads: nothing runs (numba launches nothing)
    np.testing.assert_array_equal(a.get(), values)
    add_one.forall(5)(a)
    np.testing.assert_array_equal(a.get(), values + 1)
    with pytest.raises(ValueError, match="non-negative"):
        add_one.forall(-5)
    with pytest.raises(TypeError):
        add_one.forall(3.5)


@cuda.jit
def folded_literals(f, i):
    f[0] = 2 ** -2
    f[1] = (-3) ** -1
    i[0] = 2 ** 62 + (1 << 61) - 7 // -2 + (-7) % 3
    i[1] = -2 ** 63
    i[2] = -9223372036854775808
    i[3] = 0x7FFF_FFFF_FFFF_FFFF


def test_integer_literal_arithmetic_is_pythons():
    f, i = simt.zeros(2), simt.zeros(4, np.int64)
    folded_literals[1, 1](f, i)
    np.testing.assert_array_equal(f.get(), [2 ** -2, (-3) ** -1])
    np.testing.assert_array_equal(i.get(), [2 ** 62 + (1 << 61) - 7 // -2 + (-7) % 3, -2 ** 63, -2 ** 63, 2 ** 63 - 1])


@cuda.jit
def too_large_power(f):
    f[0] = 2 ** 70


@cuda.jit
def too_large_shift(f):
    f[0] = (1 << 64) - 1


@cuda.jit
def zero_to_negative(f):
    f[0] = 0 ** -1


@pytest.mark.parametrize("kernel, message", [(too_large_power, "does not fit in 64 bits"),
                                             (too_large_shift, "does not fit in 64 bits"),
                                             (zero_to_negative, "0 cannot be raised to a negative power")])
def test_integer_literals_python_cannot_fit_are_errors(kernel, message):
    with pytest.raises(cuda.TypingError, match=message) as info:
        kernel[1, 1](simt.zeros(1))
    assert "test_language_edge_cases.py" in str(info.value)  # the user's line is named


@cuda.jit(device=True)
def make_local():
    scratch = cuda.local.array(4, np.int64)
    for k in range(4):
        scratch[k] = 7
    return scratch


@cuda.jit
def uses_returned_local(out):
    g = make_local()
    out[0] = g[0] + g[1]


def test_device_function_cannot_return_its_local_array():
    with pytest.raises(cuda.TypingError, match="cannot return its cuda.local.array"):
        uses_returned_local[1, 1](simt.zeros(1, np.int64))


@cuda.jit
def shadowing_names(out, x, pow, launch, args):
    new = 1
    new_ = 2
    double = 3
    out[0] = math.pow(x, pow) + math.sqrt(x) + launch + args + new + new_ + double


@cuda.jit
def sqrt(x, out):  # a kernel named like a C math function
    out[0] = math.sqrt(x[0])


def test_user_names_that_are_c_names(rng):
    x, p = float(rng.uniform(1, 3)), float(rng.uniform(0, 2))
    out = simt.zeros(1)
    shadowing_names[1, 1](out, x, p, 4.0, 5.0)
    np.testing.assert_allclose(out.get(), [math.pow(x, p) + math.sqrt(x) + 4 + 5 + 1 + 2 + 3], rtol=1e-13)
    v = rng.uniform(1, 10, 1)
    sqrt[1, 1](simt.asarray(v), out)
    np.testing.assert_allclose(out.get(), np.sqrt(v), rtol=1e-15)


def test_dynamic_shared_memory_size_must_be_an_int():
    out = simt.zeros(1)
    for bad in (3.5, "64", None):
        with pytest.raises(TypeError, match="dynamic shared memory size must be an int"):
            add_one[1, 1, 0, bad](out)
    with pytest.raises(cuda.CUDAError, match="CUDA_ERROR_INVALID_VALUE"):
        add_one[1, 1, 0, 2**70](out)


@cuda.jit
def convert_floats(x, i8, u8, i32, u32, i64, u64):
    for k in range(x.size):
        i8[k] = x[k]
        u8[k] = x[k]
        i32[k] = x[k]
        u32[k] = x[k]
        i64[k] = int(x[k])
        u64[k] = x[k]


def saturated(values, dtype):
    """The GPU's cvt.rzi rule: toward zero, clamped to the type's range, NaN to 0."""
    info = np.iinfo(dtype)
    out = []
    for v in values:
        if math.isnan(v):
            out.append(0)
        elif v <= info.min:
            out.append(info.min)
        elif v >= info.max:
            out.append(info.max)
        else:
            out.append(int(v))
    return np.array(out, dtype=dtype)


def test_float_to_int_conversions_saturate_on_both_backends(rng):
    # C++ leaves these undefined: the cpu backend gave INT64_MIN where the GPU gives INT64_MAX or 0
    values = np.concatenate([[np.nan, np.inf, -np.inf, 1e30, -1e30, 5e9, -1.5, 300.7, 2.0**63, 2.0**64, -0.5],
                             rng.uniform(-3e9, 3e9, 20), rng.uniform(-300, 300, 20)])
    dtypes = (np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64)
    outs = [simt.zeros(values.size, dt) for dt in dtypes]
    convert_floats[1, 1](simt.asarray(values), *outs)
    for out, dt in zip(outs, dtypes):
        np.testing.assert_array_equal(out.get(), saturated(values, dt), err_msg=np.dtype(dt).name)
        for src in (np.float64, np.float32):  # astype takes the same rule
            as_src = values.astype(src)
            np.testing.assert_array_equal(simt.asarray(as_src).astype(dt).get(), saturated(as_src.astype(np.float64), dt))


@cuda.jit
def select_with_selp(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i] = cuda.selp(a[i] > b[i], a[i], b[i] * 2)  # int32 and int64 unify to int64


def test_selp_selects_as_numba(rng):
    a = rng.integers(-100, 100, 77).astype(np.int32)
    b = rng.integers(-100, 100, 77)
    out = simt.zeros(77, np.int64)
    select_with_selp[2, 64](simt.asarray(a), simt.asarray(b), out)
    np.testing.assert_array_equal(out.get(), np.where(a > b, a, b * 2))
