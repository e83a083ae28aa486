"""for loops over enumerate(), zip(), 1-D arrays and tuples, divmod(), and the operator module's
functions in kernels, each against the same computation in Python/NumPy on fresh random data."""
import operator
from operator import add as plain_add, lt as plain_lt, neg as plain_neg

import numpy as np
import pytest

import simt
from simt import cuda

DTYPES = [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.float32, np.float64]


def random_array(rng, dtype, n, low=-50, high=50):
    if np.dtype(dtype).kind == "u":
        low = 0
    if np.dtype(dtype).kind == "f":
        return rng.uniform(low, high, n).astype(dtype)
    return rng.integers(low, high, n).astype(dtype)


# ---- enumerate ---------------------------------------------------------------------------------

@cuda.jit
def enumerate_array(x, out):
    for i, v in enumerate(x):
        out[i] = v * 2 + i


@cuda.jit
def enumerate_array_from(x, start, out):
    for i, v in enumerate(x, start):
        out[i - start] = v - i


@cuda.jit
def enumerate_ranges(lo, hi, step, out):
    k = 0
    for i, r in enumerate(range(lo, hi, step), 7):
        out[k] = i * 1000 + r
        k += 1
    for i, r in enumerate(range(hi)):
        out[k] = i * r
        k += 1
    out[k] = -1


@cuda.jit
def enumerate_unsigned_range(sizes, out):
    for i, r in enumerate(range(sizes[0])):
        out[i] = r + i  # r is uint64, as numba's unsigned range yields


@cuda.jit
def enumerate_tuple(x, out):
    t = (x[0], x[1], x[2], x[3])
    for i, v in enumerate(t, start=-2):
        out[i + 2] = v + i


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_enumerate_array_every_dtype(rng, dtype):
    n = int(rng.integers(1, 200))
    x = random_array(rng, dtype, n)
    out = simt.zeros(n, dtype=np.float64)
    enumerate_array[1, 1](simt.asarray(x), out)
    expected = [float(v) * 2 + i for i, v in enumerate(x.tolist())]
    if np.dtype(dtype).kind != "f":  # integers: v * 2 + i is int64 arithmetic
        expected = [int(v) * 2 + i for i, v in enumerate(x.tolist())]
    np.testing.assert_allclose(out.get(), np.array(expected, dtype=np.float64), rtol=1e-6)

    start = int(rng.integers(-30, 30))
    out = simt.zeros(n, dtype=np.float64)
    enumerate_array_from[1, 1](simt.asarray(x), start, out)
    expected = [float(v) - i for i, v in enumerate(x.tolist(), start)]
    np.testing.assert_allclose(out.get(), np.array(expected), rtol=1e-6)


def test_enumerate_over_ranges_with_start_and_steps(rng):
    for _ in range(4):
        lo, hi = (int(v) for v in rng.integers(-40, 40, 2))
        step = int(rng.choice([-7, -3, -1, 1, 2, 5]))
        out = simt.zeros(200, dtype=np.int64)
        enumerate_ranges[1, 1](lo, hi, step, out)
        expected = [i * 1000 + r for i, r in enumerate(range(lo, hi, step), 7)]
        expected += [i * r for i, r in enumerate(range(hi))] + [-1]
        np.testing.assert_array_equal(out.get()[:len(expected)], expected)


def test_enumerate_unsigned_range():
    sizes = simt.asarray(np.array([9], dtype=np.uint64))
    out = simt.zeros(9, dtype=np.uint64)
    enumerate_unsigned_range[1, 1](sizes, out)
    np.testing.assert_array_equal(out.get(), [2 * i for i in range(9)])


@pytest.mark.parametrize("dtype", [np.int16, np.float32], ids=lambda d: np.dtype(d).name)
def test_enumerate_tuple(rng, dtype):
    x = random_array(rng, dtype, 4)
    out = simt.zeros(4, dtype=np.float64)
    enumerate_tuple[1, 1](simt.asarray(x), out)
    expected = [float(v) + i for i, v in enumerate(x.tolist(), start=-2)]
    np.testing.assert_allclose(out.get(), expected, rtol=1e-6)


@cuda.jit
def enumerate_index_past_output(x, out, start):
    for i, v in enumerate(x):
        out[i] = v          # out is shorter than x: the extra stores are dropped
    for i, v in enumerate(x, start):
        out[i] += 1.0       # i runs past out's end (and below 0 when start < 0): masked


def test_enumerate_counter_keeps_masked_indexing(rng):
    x = rng.uniform(-1, 1, 50)
    out = simt.zeros(20)
    start = int(rng.integers(-10, 10))
    enumerate_index_past_output[1, 1](simt.asarray(x), out, start)
    expected = x[:20].copy()
    for i in range(start, start + 50):
        if -20 <= i < 20:
            expected[i] += 1.0  # negative indices wrap once, as for any index
    np.testing.assert_array_equal(out.get(), expected)


# ---- zip -----------------------------------------------------------------------------------------

@cuda.jit
def zip_arrays(x, y, out):
    k = 0
    for a, b in zip(x, y):
        out[k] = a * b
        k += 1
    out[k] = -1


@cuda.jit
def zip_three_with_range(x, y, lo, out):
    k = 0
    for r, a, b in zip(range(lo, 1000, 3), x, y):
        out[k] = r + a - b
        k += 1
    out[k] = -1


@cuda.jit
def zip_tuples(x, out):
    t = (x[0], x[1], x[2])
    u = (x[3], x[4])
    k = 0
    for a, b in zip(t, u):
        out[k] = a * 10 + b
        k += 1
    for pair in zip(u, t, (1, 2, 3)):
        out[k] = pair[0] + pair[1] + pair[2]
        k += 1


@cuda.jit
def zip_ranges(n, m, out):
    k = 0
    for i, j in zip(range(n), range(m, 0, -2)):
        out[k] = i * 100 + j
        k += 1
    out[k] = -1


@pytest.mark.parametrize("dtype", [np.int32, np.uint8, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_zip_arrays_stops_at_the_shortest(rng, dtype):
    nx, ny = (int(v) for v in rng.integers(0, 60, 2))
    x, y = random_array(rng, dtype, nx), random_array(rng, dtype, ny)
    out = simt.zeros(100, dtype=np.float64)
    zip_arrays[1, 1](simt.asarray(x), simt.asarray(y), out)
    if np.dtype(dtype).kind == "f":
        expected = [a * b for a, b in zip(x, y)] + [-1]
    else:
        expected = [int(a) * int(b) for a, b in zip(x.tolist(), y.tolist())] + [-1]
    np.testing.assert_allclose(out.get()[:len(expected)], np.array(expected, dtype=np.float64), rtol=1e-6)


def test_zip_three_iterables_with_a_range(rng):
    x = rng.integers(-100, 100, int(rng.integers(5, 80)))
    y = rng.uniform(-1, 1, int(rng.integers(5, 80)))
    lo = int(rng.integers(900, 1000))  # the range may be the shortest
    out = simt.zeros(100)
    zip_three_with_range[1, 1](simt.asarray(x), simt.asarray(y), lo, out)
    expected = [r + a - b for r, a, b in zip(range(lo, 1000, 3), x.tolist(), y.tolist())] + [-1]
    np.testing.assert_allclose(out.get()[:len(expected)], expected, rtol=1e-15)


def test_zip_tuples(rng):
    x = rng.integers(-20, 20, 5)
    out = simt.zeros(4, dtype=np.int64)
    zip_tuples[1, 1](simt.asarray(x), out)
    t, u = tuple(x[:3].tolist()), tuple(x[3:].tolist())
    expected = [a * 10 + b for a, b in zip(t, u)] + [sum(p) for p in zip(u, t, (1, 2, 3))]
    np.testing.assert_array_equal(out.get(), expected)


def test_zip_ranges(rng):
    n, m = (int(v) for v in rng.integers(0, 30, 2))
    out = simt.zeros(40, dtype=np.int64)
    zip_ranges[1, 1](n, m, out)
    expected = [i * 100 + j for i, j in zip(range(n), range(m, 0, -2))] + [-1]
    np.testing.assert_array_equal(out.get()[:len(expected)], expected)


# ---- nested forms ----------------------------------------------------------------------------------

@cuda.jit
def enumerate_zip(x, y, out):
    for i, (a, b) in enumerate(zip(x, y)):
        out[i] = i + a * b


@cuda.jit
def zip_enumerate(x, y, out):
    for (i, a), b in zip(enumerate(x, 1), y):
        out[i - 1] = i * 100 + a - b


@cuda.jit
def enumerate_zip_as_one_value(x, y, out):
    for i, pair in enumerate(zip(x, y)):
        out[i] = pair[0] - pair[1]
    for item in enumerate(y, 5):
        out[item[0]] += item[1]


def test_nested_enumerate_and_zip(rng):
    n = int(rng.integers(10, 50))
    x, y = rng.integers(-50, 50, n), rng.uniform(-5, 5, n + int(rng.integers(0, 4)))
    out = simt.zeros(n + 10)
    enumerate_zip[1, 1](simt.asarray(x), simt.asarray(y), out)
    np.testing.assert_allclose(out.get()[:n], [i + a * b for i, (a, b) in enumerate(zip(x.tolist(), y.tolist()))])

    out = simt.zeros(n + 10)
    zip_enumerate[1, 1](simt.asarray(x), simt.asarray(y), out)
    np.testing.assert_allclose(out.get()[:n], [i * 100 + a - b for (i, a), b in zip(enumerate(x.tolist(), 1), y.tolist())])

    out = simt.zeros(len(y) + 10)
    enumerate_zip_as_one_value[1, 1](simt.asarray(x), simt.asarray(y), out)
    expected = np.zeros(len(y) + 10)
    for i, pair in enumerate(zip(x.tolist(), y.tolist())):
        expected[i] = pair[0] - pair[1]
    for item in enumerate(y.tolist(), 5):
        expected[item[0]] += item[1]
    np.testing.assert_allclose(out.get(), expected)


# ---- for v in array, break / continue / else -----------------------------------------------------------

@cuda.jit
def sum_elements(x, out):
    s = 0
    for v in x:
        s += v
    out[0] = s


def loop_control(x, y, limit, out):
    """Plain Python, run by Python for the expected values and compiled as a kernel."""
    # enumerate: skip negatives, stop at the first value above the limit
    s = 0.0
    last = -1
    for i, v in enumerate(x):
        if v < 0:
            continue
        if v > limit:
            last = i
            break
        s += v
    out[0] = s
    out[1] = last
    # zip with an else block: runs when no break happened
    found = 0.0
    for a, b in zip(x, y):
        if a + b > limit:
            found = a + b
            break
    else:
        found = -1.0
    out[2] = found
    # a plain array loop with continue and else
    n = 0
    for v in y:
        if v > 0:
            continue
        n += 1
    else:
        n += 1000
    out[3] = n


loop_control_kernel = cuda.jit(loop_control)


@pytest.mark.parametrize("dtype", [np.int16, np.int64, np.uint32, np.float32, np.float64],
                         ids=lambda d: np.dtype(d).name)
def test_for_over_array_elements(rng, dtype):
    x = random_array(rng, dtype, int(rng.integers(0, 300)), -9, 9)
    out = simt.zeros(1, dtype=np.float64)
    sum_elements[1, 1](simt.asarray(x), out)
    expected = sum(x.tolist())
    np.testing.assert_allclose(out.get()[0], expected, rtol=1e-5)


def test_break_continue_and_else(rng):
    for _ in range(5):
        x = rng.uniform(-3, 3, int(rng.integers(1, 40)))
        y = rng.uniform(-3, 3, int(rng.integers(1, 40)))
        limit = float(rng.uniform(1.5, 3.5))
        out, expected = simt.zeros(4), np.zeros(4)
        loop_control_kernel[1, 1](simt.asarray(x), simt.asarray(y), limit, out)
        loop_control(x.tolist(), y.tolist(), limit, expected)
        np.testing.assert_allclose(out.get(), expected)


@cuda.jit
def per_thread_enumerate(x, out):
    shared = cuda.shared.array(32, np.float64)
    t = cuda.threadIdx.x
    shared[t] = x[t]
    cuda.syncthreads()
    s = 0.0
    for i, v in enumerate(shared):
        s += v * ((i + t) % 3)
    out[t] = s


def test_enumerate_beside_a_barrier(rng):
    x = rng.uniform(-1, 1, 32)
    out = simt.zeros(32)
    per_thread_enumerate[1, 32](simt.asarray(x), out)
    expected = [sum(v * ((i + t) % 3) for i, v in enumerate(x.tolist())) for t in range(32)]
    np.testing.assert_allclose(out.get(), expected, rtol=1e-12)


# ---- divmod ------------------------------------------------------------------------------------------------

@cuda.jit
def divmod_arrays(a, b, q, r):
    i = cuda.grid(1)
    if i < a.size:
        q[i], r[i] = divmod(a[i], b[i])


@cuda.jit
def divmod_matches_operators(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        t = divmod(a[i], b[i])
        out[i] = t == (a[i] // b[i], a[i] % b[i])


@cuda.jit
def divmod_mixed(a, out):
    i = cuda.grid(1)
    if i < a.size:
        q, r = divmod(a[i], 2.5)
        out[i, 0] = q
        out[i, 1] = r
        q2, r2 = divmod(7, a[i])
        out[i, 2] = q2
        out[i, 3] = r2


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint16, np.uint64], ids=lambda d: np.dtype(d).name)
def test_divmod_integers_floor_like_python(rng, dtype):
    n = 500
    a = random_array(rng, dtype, n, -1000, 1000)
    b = random_array(rng, dtype, n, -30, 30)
    b[b == 0] = 7
    q, r = simt.zeros(n, dtype=np.int64), simt.zeros(n, dtype=np.int64)
    divmod_arrays[4, 128](simt.asarray(a), simt.asarray(b), q, r)
    expected = [divmod(int(x), int(y)) for x, y in zip(a.tolist(), b.tolist())]
    np.testing.assert_array_equal(q.get(), [e[0] for e in expected])
    np.testing.assert_array_equal(r.get(), [e[1] for e in expected])
    same = simt.zeros(n, dtype=np.bool_)
    divmod_matches_operators[4, 128](simt.asarray(a), simt.asarray(b), same)
    assert same.get().all()


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_divmod_floats_floor_like_python(rng, dtype):
    n = 500
    a = rng.uniform(-100, 100, n).astype(dtype)
    b = rng.uniform(-7, 7, n).astype(dtype)
    b[:4] = [1.5, -1.5, 2.0, -0.25]
    a[:4] = [-3.0, 3.0, 0.0, -0.0]
    q, r = simt.zeros(n, dtype=dtype), simt.zeros(n, dtype=dtype)
    divmod_arrays[4, 128](simt.asarray(a), simt.asarray(b), q, r)
    eq, er = np.divmod(a, b)  # NumPy's float divmod is Python's
    np.testing.assert_array_equal(q.get(), eq)
    np.testing.assert_array_equal(r.get(), er)
    np.testing.assert_array_equal(np.signbit(r.get()), np.signbit(er))  # -0.0 where Python gives it
    if dtype == np.float64:
        np.testing.assert_array_equal(q.get(), [divmod(x, y)[0] for x, y in zip(a.tolist(), b.tolist())])
    same = simt.zeros(n, dtype=np.bool_)
    divmod_matches_operators[4, 128](simt.asarray(a), simt.asarray(b), same)
    assert same.get().all()


def test_divmod_mixed_int_and_float(rng):
    a = rng.integers(-50, 50, 300)
    a[a == 0] = 3
    out = simt.zeros((300, 4))
    divmod_mixed[3, 128](simt.asarray(a), out)
    expected = [divmod(x, 2.5) + divmod(7, x) for x in a.tolist()]
    np.testing.assert_array_equal(out.get(), np.array(expected, dtype=np.float64))


# ---- the operator module ------------------------------------------------------------------------------------

BINARY = {"add": "+", "sub": "-", "mul": "*", "truediv": "/", "floordiv": "//", "mod": "%", "pow": "**",
          "lshift": "<<", "rshift": ">>", "and_": "&", "or_": "|", "xor": "^"}
INPLACE = {"i" + name.rstrip("_"): symbol for name, symbol in BINARY.items()}
COMPARE = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
UNARY = {"neg": "-", "pos": "+", "invert": "~", "not_": "not "}
INTEGER_ONLY = {"lshift", "rshift", "and_", "or_", "xor", "ilshift", "irshift", "iand", "ior", "ixor", "invert"}


def operator_kernel_source(names):
    """One kernel: column c of OUT gets operator.<names[c]>(a, b) and column c of REF the operator form."""
    lines = ["import operator", "from simt import cuda", "", "@cuda.jit", "def k(A, B, OUT, REF):",
             "    i = cuda.grid(1)", "    if i < A.size:", "        a = A[i]", "        b = B[i]"]
    for c, name in enumerate(names):
        if name in BINARY or name in COMPARE:
            symbol = BINARY.get(name) or COMPARE[name]
            lines += [f"        OUT[i, {c}] = operator.{name}(a, b)", f"        REF[i, {c}] = a {symbol} b"]
        elif name in INPLACE:  # the augmented assignment is the reference
            lines += [f"        OUT[i, {c}] = operator.{name}(a, b)", f"        x{c} = a", f"        x{c} {INPLACE[name]}= b",
                      f"        REF[i, {c}] = x{c}"]
        else:
            lines += [f"        OUT[i, {c}] = operator.{name}(a)", f"        REF[i, {c}] = {UNARY[name]}a"]
    return "\n".join(lines) + "\n"


def operator_operands(rng, dtype, n):
    a = random_array(rng, dtype, n, -60, 60)
    b = random_array(rng, dtype, n, 1, 9)  # non-zero divisors, small shifts and exponents
    return a, b


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.uint8, np.float32, np.float64], ids=lambda d: np.dtype(d).name)
def test_operator_functions_match_the_operators(rng, kernel_module, dtype):
    names = list(BINARY) + list(INPLACE) + list(COMPARE) + list(UNARY)
    if np.dtype(dtype).kind == "f":
        names = [n for n in names if n not in INTEGER_ONLY]
    k = kernel_module(operator_kernel_source(names), name=f"operators_{np.dtype(dtype).name}").k
    n = 300
    a, b = operator_operands(rng, dtype, n)
    out_dtype = np.float64 if np.dtype(dtype).kind == "f" else np.int64
    out, ref = simt.zeros((n, len(names)), dtype=out_dtype), simt.zeros((n, len(names)), dtype=out_dtype)
    k[3, 128](simt.asarray(a), simt.asarray(b), out, ref)
    got, want = out.get(), ref.get()
    np.testing.assert_array_equal(got, want)
    # And Python's operator module on the same numbers (Python ints and floats do not wrap, and
    # these operands stay far from the 64-bit limits; float32 rounds differently, so it is left out).
    if dtype in (np.int64, np.float64):
        for c, name in enumerate(names):
            fn = getattr(operator, name)
            py = [fn(x) if name in UNARY else fn(x, y) for x, y in zip(a.tolist(), b.tolist())]
            py = [np.nan if isinstance(v, complex) else v for v in py]  # negative ** fraction: NaN in numba
            stored = np.array(py, dtype=np.float64).astype(out_dtype)  # as the kernel stores it (/ truncates)
            np.testing.assert_allclose(got[:, c], stored, rtol=1e-15, err_msg=name)


@cuda.jit
def imported_operator_functions(a, b, out):
    i = cuda.grid(1)
    if i < a.size:
        out[i, 0] = plain_add(a[i], b[i])
        out[i, 1] = plain_lt(a[i], b[i])
        out[i, 2] = plain_neg(a[i])
        out[i, 3] = operator.not_(a[i] > 0) + operator.pow(2, 10) + operator.truediv(1, 4)


def test_operator_functions_imported_by_name(rng):
    a, b = rng.integers(-9, 9, 200), rng.integers(-9, 9, 200)
    out = simt.zeros((200, 4))
    imported_operator_functions[2, 128](simt.asarray(a), simt.asarray(b), out)
    expected = np.stack([a + b, a < b, -a, (~(a > 0)) + 1024.25], axis=1)
    np.testing.assert_array_equal(out.get(), expected)


@cuda.jit
def operator_on_tuples(x, out):
    t = operator.add((x[0], x[1]), (x[2],))
    out[0] = len(t) + t[2]
    out[1] = operator.eq(t, (x[0], x[1], x[2]))
    out[2] = operator.ne((1, 2), (1, 3))


def test_operator_functions_on_tuples(rng):
    x = rng.uniform(-1, 1, 3)
    out = simt.zeros(3)
    operator_on_tuples[1, 1](simt.asarray(x), out)
    np.testing.assert_array_equal(out.get(), [3 + x[2], 1, 1])


def test_operator_functions_wrap_like_the_operators(kernel_module):
    m = kernel_module("import operator\nfrom simt import cuda\n\n@cuda.jit\ndef k(a, out):\n"
                      "    out[0] = operator.mul(a[0], a[0])\n    out[1] = a[0] * a[0]\n"
                      "    out[2] = operator.imul(a[1], a[1])\n", name="operator_wrap")
    big = 2**62 + 3
    out = simt.zeros(3, dtype=np.int64)
    m.k[1, 1](simt.asarray(np.array([big, -(2**40)], dtype=np.int64)), out)
    wrapped = (big * big) % 2**64
    wrapped -= 2**64 if wrapped >= 2**63 else 0
    np.testing.assert_array_equal(out.get(), [wrapped, wrapped, 0])  # int64 wraps; 2**80 wraps to 0


# ---- errors --------------------------------------------------------------------------------------------------

@cuda.jit
def zip_nothing(a, out):
    for t in zip():
        out[0] = 1


@cuda.jit
def enumerate_number(a, out):
    for i, v in enumerate(5):
        out[0] = v


@cuda.jit
def zip_number(a, out):
    for u, v in zip(a, 3.5):
        out[0] = v


@cuda.jit
def enumerate_float_start(a, out):
    for i, v in enumerate(a, 0.5):
        out[0] = v


@cuda.jit
def enumerate_kept(a, out):
    e = enumerate(a)
    out[0] = 1


@cuda.jit
def unpack_too_many(a, out):
    for i, v, w in enumerate(a):
        out[0] = v


@cuda.jit
def divmod_complex(a, out):
    q, r = divmod(a[0], 1j)


@cuda.jit
def operator_wrong_arity(a, out):
    out[0] = operator.add(a[0])


@cuda.jit
def heterogeneous_tuple(a, out):
    for v in (a, 1):
        out[0] = 1


@pytest.mark.parametrize("kernel, error, message", [
    (zip_nothing, cuda.UnsupportedError, r"zip\(\) needs at least one iterable"),
    (enumerate_number, cuda.TypingError, "cannot iterate over a value of type int64"),
    (zip_number, cuda.TypingError, "cannot iterate over a value of type float64"),
    (enumerate_float_start, cuda.TypingError, r"enumerate\(\) start must be an integer, not float64"),
    (enumerate_kept, cuda.TypingError, r"cannot store a value of type enumerate\(array\(float64, 1d, C\)\)"),
    (unpack_too_many, cuda.TypingError, "cannot unpack a tuple of 2 values into 3 targets"),
    (divmod_complex, cuda.TypingError, r"unsupported operand types for divmod\(\): float64 and complex128"),
    (operator_wrong_arity, cuda.TypingError, r"operator.add\(\) takes exactly 2 arguments \(1 given\)"),
    (heterogeneous_tuple, cuda.TypingError, "iterating over a heterogeneous tuple"),
], ids=lambda v: v.__name__ if hasattr(v, "_name") else "")
def test_unsupported_forms_are_clear_errors(kernel, error, message):
    a = simt.zeros(3)
    with pytest.raises(error, match=message) as info:
        kernel[1, 1](a, simt.zeros(1))
    assert "test_kernel_iterables.py" in str(info.value) and "line" in str(info.value)  # the user's line is named


@cuda.jit
def row_sums_by_iteration(a, out):
    for i, row in enumerate(a):  # the rows of an N-d array are views, as a[i] is
        s = 0.0
        for v in row:
            s += v
        out[i] = s
    n = 0
    for plane in a.T:  # columns of the transpose: strided views
        out[a.shape[0] + n] = plane[0]
        n += 1


@pytest.mark.parametrize("order", ["C", "F"])
def test_iterating_an_nd_array_gives_its_rows(rng, order):
    a_h = np.asarray(rng.standard_normal((5, 7)), order=order)
    out = simt.zeros(12)
    row_sums_by_iteration[1, 1](simt.asarray(a_h), out)
    np.testing.assert_allclose(out.get()[:5], a_h.sum(axis=1), rtol=1e-12, atol=1e-13)
    np.testing.assert_array_equal(out.get()[5:], a_h[0, :])
