"""Bounds tests the compiler leaves out because they are proven elsewhere, and the results that
must not change. (1) Hoisted out of range() loops (src/simt/codegen/loop_bounds.h): a loop whose
accesses are loop-invariant or affine in its variable is written twice, once with those accesses
untested (taken when one test before the loop proves them in range) and once as written.
(2) Kept by an enclosing if (src/simt/codegen/guards.h): `if i < A.shape[0]: A[i] = ...` needs no
second extent test (the sign is still tested: it is negative only after an int64 overflow). Results follow the masked semantics either way: out-of-range loads give 0, stores are
dropped, a negative index wraps once. Each test runs cases on both sides, against NumPy."""
import numpy as np
import pytest

import simt
from simt import cuda


def generated(kernel):
    (source,) = kernel.inspect_source().values()
    return source


def masked_index(i, n):
    """Where simt's default bounds rule sends index i of an extent n (None: no element)."""
    if i < 0:
        i += n
    return i if 0 <= i < n else None


def masked_load(a, i):
    j = masked_index(i, a.shape[0])
    return 0.0 if j is None else a[j]


@cuda.jit
def strided_sum(A, out, m, s, o):
    # out[0] = sum over k < m of A[k*s + o]
    acc = 0.0
    for k in range(m):
        acc += A[k * s + o]
    out[0] = acc


@pytest.mark.parametrize("m, s, o", [
    (40, 3, 5),         # every index in range: the untested copy
    (40, 3, 8),         # the last index is the last element
    (40, 3, 9),         # the last index is one past the end: that load gives 0
    (40, 3, -1),        # k = 0 reads A[-1], the last element
    (0, 3, 5),          # the loop does not run
    (3, 2**40, 0),      # a coefficient too large for the test's arithmetic: tested copy
    (1, 0, 2**45),      # an offset far past the end
])
def test_affine_index_in_and_out_of_range(rng, m, s, o):
    a = rng.standard_normal(126)
    out = simt.zeros(1)
    strided_sum[1, 1](simt.asarray(a), out, m, s, o)
    expected = sum(masked_load(a, k * s + o) for k in range(m))
    np.testing.assert_allclose(out.get()[0], expected, rtol=1e-13, atol=1e-13)
    assert "simt_load_proven" in generated(strided_sum)


@cuda.jit
def row_sums(A, out, n):
    # out[r] = A[r, 0] + ... + A[r, n-1], one thread per row r of out
    r = cuda.grid(1)
    if r < out.shape[0]:
        acc = 0.0
        for k in range(n):
            acc += A[r, k]
        out[r] = acc


@pytest.mark.parametrize("n", [5, 17, 30])  # 30 > A.shape[1]: the columns past the end read 0
def test_row_sums_with_a_loop_longer_than_the_row(rng, n):
    a = rng.standard_normal((37, 17))
    out = simt.zeros(40)  # rows 37..39 are past A's end: their loads give 0
    row_sums[1, 64](simt.asarray(a), out, n)
    expected = np.zeros(40)
    expected[:37] = a[:, :min(n, 17)].sum(axis=1)
    np.testing.assert_allclose(out.get(), expected, rtol=1e-13, atol=1e-13)


@cuda.jit
def row_of(A, out, r, n):
    # out[k] = A[r, k]: r is loop-invariant and may be negative
    for k in range(n):
        out[k] = A[r, k]


@pytest.mark.parametrize("r", [0, 6, -1, -7, 7, -8])
def test_invariant_index_that_may_be_negative_wraps_once(rng, r):
    a = rng.standard_normal((7, 9))
    out = simt.full(9, 99.0)
    row_of[1, 1](simt.asarray(a), out, r, 9)
    j = masked_index(r, 7)
    np.testing.assert_array_equal(out.get(), np.zeros(9) if j is None else a[j])


@cuda.jit
def scatter(B, m, s, o, r):
    # B[r, k*s + o] = k + 1 and B[r, o] += 0.5 for k < m
    for k in range(m):
        B[r, k * s + o] = k + 1.0
        B[r, o] += 0.5


@pytest.mark.parametrize("m, s, o, r", [(5, 2, 1, 1), (5, 2, 3, 2), (4, 3, -2, 0), (3, 1, 0, 3), (2, 1, 0, -4)])
def test_stores_and_updates_out_of_range_are_dropped(rng, m, s, o, r):
    b = rng.standard_normal((3, 10))
    expected = b.copy()
    row = masked_index(r, 3)
    for k in range(m):
        c = masked_index(k * s + o, 10)
        if row is not None and c is not None:
            expected[row, c] = k + 1.0
        c = masked_index(o, 10)
        if row is not None and c is not None:
            expected[row, c] += 0.5
    d = simt.asarray(b)
    scatter[1, 1](d, m, s, o, r)
    np.testing.assert_array_equal(d.get(), expected)
    source = generated(scatter)
    assert "simt_store_proven" in source and "simt_ref_proven" in source


def test_shared_memory_tiles_run_untested_and_match_numpy(rng):
    # numba's documented 16 x 16 shared-memory product (test_classic_kernels.py), 50 not a multiple of 16
    from test_classic_kernels import TPB, fast_matmul

    n = 50
    a = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    b = rng.uniform(-1, 1, (n, n)).astype(np.float32)
    c = simt.zeros((n, n), dtype=np.float32)
    blocks = (n + TPB - 1) // TPB
    fast_matmul[(blocks, blocks), (TPB, TPB)](simt.asarray(a), simt.asarray(b), c)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.get(), expected, rtol=1e-4, atol=1e-4)
    source = generated(fast_matmul)
    # The inner product's shared-memory loads (loop copy) untested; the guarded tile loads and the
    # result's store test only their sign.
    for access in ("simt_load_proven(ctx, sA", "simt_load_proven(ctx, sB", "simt_load_nonneg(ctx, A",
                   "simt_load_nonneg(ctx, B", "simt_store_nonneg(ctx, C"):
        assert access in source


@cuda.jit
def not_hoisted(A, out, n):
    t = cuda.threadIdx.x
    acc = 0.0
    for k in range(n):          # a barrier in the body: written once
        acc += A[k]
        cuda.syncthreads()
    for k in range(n):          # a nested loop: only the inner one is written twice
        for q in range(2):
            acc += A[q]
    B = A
    for k in range(n):          # the array is rebound in the body
        acc += B[k]
        B = out
    for k in range(n):          # an index that is neither invariant nor affine in k
        acc += A[(k * k) % n]
    if t == 0:
        out[0] = acc


def test_loops_that_do_not_qualify_keep_their_tests(rng):
    a = rng.standard_normal(12)
    out = simt.zeros(12)
    n = 12
    not_hoisted[1, 32](simt.asarray(a), out, n)
    expected = a.sum() + n * (a[0] + a[1]) + a[0] + 0.0 + a[(np.arange(n) ** 2) % n].sum()
    # the third loop reads A[0], then out[1], out[2] ... (zeros, out is only written at the end)
    np.testing.assert_allclose(out.get()[0], expected, rtol=1e-12)
    source = generated(not_hoisted)
    # A[q] in the inner loop of the nested pair (on the cpu backend the kernel is emitted twice)
    untested = [line for line in source.splitlines() if "_proven(" in line]
    assert untested and all("_proven(ctx, A, " in line and "(uint64_t)(q)" in line for line in untested)


def test_boundscheck_still_reports_the_first_failing_access(rng):
    @cuda.jit(boundscheck=True)
    def checked(A, out, n):
        acc = 0.0
        for k in range(n):
            acc += A[k]
        out[0] = acc

    a = simt.asarray(rng.standard_normal(8))
    out = simt.zeros(1)
    checked[1, 1](a, out, 8)
    np.testing.assert_allclose(out.get()[0], a.get().sum(), rtol=1e-13)
    assert "_proven(" not in generated(checked)
    checked[1, 1](a, out, 9)
    with pytest.raises(IndexError, match="index 8"):
        simt.synchronize()


# ---- accesses kept in range by an enclosing if ---------------------------------------------------

def untested_lines(kernel):
    """Lines with accesses whose extent test is left out (kept by an if: only the sign is tested)."""
    return [line.strip() for line in generated(kernel).splitlines() if "_nonneg(" in line]


@cuda.jit
def guarded_2d(A, B, C):
    x, y = cuda.grid(2)
    if x < C.shape[0] and y < C.shape[1]:
        C[x, y] = A[x, y] + 2 * B[y, x]


def test_a_guarded_store_is_untested_and_the_other_arrays_keep_their_tests(rng):
    a = rng.standard_normal((13, 7))
    b = rng.standard_normal((6, 13))  # B[y, x] runs past B's 6 rows when y = 6: that load gives 0
    c = simt.zeros((13, 7))
    guarded_2d[(2, 2), (8, 8)](simt.asarray(a), simt.asarray(b), c)
    bt = np.zeros((13, 7))
    bt[:, :6] = b.T
    np.testing.assert_allclose(c.get(), a + 2 * bt, rtol=1e-14)
    assert untested_lines(guarded_2d) and all("simt_store_nonneg(ctx, C, " in line and "simt_load(ctx, A, " in line
                                              for line in untested_lines(guarded_2d))


@cuda.jit
def guard_forms(A, out, which):
    i = cuda.grid(1)
    if which == 0:
        if 0 <= i < A.shape[0]:
            out[i] = A[i] + 1
    elif which == 1:
        if A.shape[0] > i:
            out[i] = A[i] + 2
    elif which == 2:
        if i < len(A):
            out[i] = A[i] + 3
    else:
        if i < A.size:
            out[i] = A[i] + 4


@pytest.mark.parametrize("which", [0, 1, 2, 3])
def test_each_form_of_guard(rng, which):
    a = rng.standard_normal(50)
    out = simt.full(64, -1.0)
    guard_forms[1, 64](simt.asarray(a), out, which)
    expected = np.full(64, -1.0)
    expected[:50] = a + which + 1
    np.testing.assert_allclose(out.get(), expected, rtol=1e-14)
    loads = [line for line in untested_lines(guard_forms) if "simt_load_nonneg(ctx, A, " in line]
    assert len(loads) % 4 == 0 and loads  # each form, once per emitted copy of the kernel


@cuda.jit
def neighbours(A, out):
    i = cuda.grid(1)
    if i < out.shape[0]:
        out[i] = 0.0
        if 0 <= i - 1 < A.shape[0]:      # the test states i - 1 >= 0, so A[i - 1] needs no test
            out[i] += A[i - 1]
        if i + 1 < A.shape[0]:
            out[i] += 10 * A[i + 1]


def test_a_lower_bound_stated_by_the_test_counts(rng):
    a = rng.standard_normal(30)
    out = simt.full(33, 5.0)
    neighbours[1, 64](simt.asarray(a), out)
    i = np.arange(33)
    expected = np.where((i >= 1) & (i - 1 < 30), a[np.clip(i - 1, 0, 29)], 0) + np.where(i + 1 < 30, 10 * a[np.clip(i + 1, 0, 29)], 0)
    np.testing.assert_allclose(out.get(), expected, rtol=1e-14)
    untested = untested_lines(neighbours)
    # (the cuda emitter writes signed arithmetic with the wrapping helpers)
    on_cuda = simt.backend() == "cuda"
    for index in ("simt_wrap_sub(i, 1L)", "simt_wrap_add(i, 1L)") if on_cuda else ("(i - 1L)", "(i + 1L)"):
        assert any("simt_load_nonneg(ctx, A, " in line and index in line for line in untested)


@cuda.jit
def guards_that_do_not_apply(A, out, shift):
    i = cuda.grid(1)
    if i < A.shape[0]:
        out[i] = 0.0
    else:
        out[i] = A[i] + 7.0            # the else branch: i is past A's end, so the load gives 0
    j = i - shift
    if j < A.shape[0]:
        out[i] += 10 * A[j]            # j may be negative: wraps once
    k = i
    if k < A.shape[0]:
        k = k + shift
        out[i] += 100 * A[k]           # k changed after the test


def test_guards_do_not_apply_to_else_branches_negative_or_changed_indices(rng):
    n, shift = 20, 3
    a = rng.standard_normal(n)
    out = simt.full(24, 5.0)
    guards_that_do_not_apply[1, 24](simt.asarray(a), out, shift)
    expected = np.zeros(24)
    for i in range(24):
        expected[i] = 0.0 if i < n else 7.0
        j = i - shift
        if j < n:
            expected[i] += 10 * masked_load(a, j)
        if i < n:
            expected[i] += 100 * masked_load(a, i + shift)
    np.testing.assert_allclose(out.get(), expected, rtol=1e-14)
    assert untested_lines(guards_that_do_not_apply) == []  # (out is never the guarded array)


# ---- values that break the assumptions must stay masked (found by review) --------------------------

def window(rng):
    """A 10-element view into the middle of an 18-element array: writes past the view show up."""
    values = rng.standard_normal(18)
    big = simt.asarray(values)
    return values, big, big[4:14]


@cuda.jit
def stores_until(A, n):
    for v in range(n):          # n is a uint64 here: a stop of 2**64 - 1 is not a small loop
        if v >= 12:
            break
        A[v] = 7.0


def test_a_uint64_stop_past_int64_keeps_the_loop_tested(rng):
    values, big, view = window(rng)
    stores_until[1, 1](view, np.uint64(2**64 - 1))
    expected = values.copy()
    expected[4:14] = 7.0        # v = 10, 11 are past the view: dropped
    np.testing.assert_array_equal(big.get(), expected)


@cuda.jit
def overflowing_index(A):
    # Python's value is 4 * 2**62 + 4611686018427387902, far past the end; int64 wraps it to -2
    j = ((cuda.threadIdx.x + 3) << 62) + 4611686018427387902
    if j < A.shape[0]:
        A[j] = 7.0


@cuda.jit
def overflowing_start(A):
    s = ((cuda.threadIdx.x + 3) << 62) + 4611686018427387902
    for v in range(s, 5):        # v is proven non-negative, but int64 makes the start -2
        A[v] = 7.0


@pytest.mark.parametrize("kernel", [overflowing_index, overflowing_start])
def test_an_index_that_overflows_int64_never_writes_outside_the_array(rng, kernel):
    values, big, view = window(rng)
    kernel[1, 1](view)
    got = big.get()
    np.testing.assert_array_equal(np.concatenate([got[:4], got[14:]]), np.concatenate([values[:4], values[14:]]))
    # (inside the view, -2 as an unsigned index is past the end too: nothing is written there either)
    np.testing.assert_array_equal(got[4:14], values[4:14] if kernel is overflowing_index else
                                  np.where(np.arange(10) < 5, 7.0, values[4:14]))


ZERO_D_SCRIPT = r'''
import sys
import numpy as np
import simt
from simt import cuda

@cuda.jit
def count(A, B, n):
    for v in range(n):
        A[()] += 1.0
    B[()] = 2 * A[()]

start = float(sys.argv[1])
a, b = simt.asarray(np.array(start)), simt.asarray(np.array(0.0))
count[1, 1](a, b, 7)
expect = start
for _ in range(7):  # the kernel's own order of additions (start + 7 can round differently)
    expect += 1.0
print(float(a.get()) == expect and float(b.get()) == 2 * expect)
'''


def test_zero_dimensional_arrays_in_a_range_loop(tmp_path, rng):
    # In a subprocess: 0-d loads and stores read a wrong address and crashed the interpreter before,
    # and a loop over a 0-d access was emitted with an empty test, which did not compile.
    import subprocess
    import sys

    script = tmp_path / "zero_d.py"
    script.write_text(ZERO_D_SCRIPT)
    done = subprocess.run([sys.executable, str(script), repr(float(rng.standard_normal()))], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True"]
