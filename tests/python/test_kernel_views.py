"""Views inside kernels, as numba-cuda has them: A[i] of a 2-D A, A[i, :], A[:, j], slices with
steps (negative ones too), A.T, views passed to device functions, atomics on views, views of
shared and local arrays, and assignment to views (A[a:b] = x, A[i] = B[j]). Each kernel body is
also run by Python on NumPy arrays: the same function gives the reference. Out-of-range integer
indices give an empty view (loads 0, stores dropped) or, with boundscheck=True, IndexError."""
import numpy as np
import pytest

import simt
from simt import cuda


def run_both(kernel, *host_arrays):
    """Runs `kernel` on one thread with device copies, and its Python body on the NumPy arrays;
    returns (simt results, NumPy results) for every argument."""
    device = [simt.asarray(a) if isinstance(a, np.ndarray) else a for a in host_arrays]
    kernel[1, 1](*device)
    expected = [a.copy() for a in host_arrays]
    kernel.py_func(*expected)
    return [d.get() if isinstance(d, simt.ndarray) else d for d in device], expected


@cuda.jit
def read_rows_columns_and_slices(A, out):
    i = 1
    out[0] = A[i][2]
    row = A[2]
    out[1] = row[3] + row.shape[0]
    col = A[:, 1]
    out[2] = col[2] + col.shape[0] * 1000
    part = A[i, 1:3]
    out[3] = part[1] + part.size * 1000
    out[4] = A.T[3, 0] + A.T.shape[0] * 1000
    rev = A[::-1, ::-2]
    out[5] = rev[0, 0] + rev.shape[1] * 1000 + rev[2, 1] * 10
    out[6] = A[-1][-1]
    tail = A[1:, -2:]
    out[7] = tail[1, 0] + tail.shape[0] * 1000 + tail.shape[1] * 100
    out[8] = A[5:, :].shape[0] + A[:, 10:20].shape[1] * 10 + A[2:-7].shape[0] * 100


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_reading_through_views_matches_numpy(rng, dtype):
    A = (rng.standard_normal((3, 4)) * 100).astype(dtype)
    (got_A, got), (_, want) = run_both(read_rows_columns_and_slices, A, np.zeros(9, np.float64))
    np.testing.assert_allclose(got, want, rtol=1e-6)


@cuda.jit
def sum_each_row(A, out):
    i = cuda.grid(1)
    if i < A.shape[0]:
        row = A[i]
        s = 0.0
        for j in range(row.shape[0]):
            s += row[j]
        out[i] = s


@pytest.mark.parametrize("order", ["C", "F"])
def test_rows_in_a_parallel_kernel(rng, order):
    A_h = np.asarray(rng.standard_normal((37, 19)), order=order)
    A = simt.asarray(A_h)
    out = simt.zeros(37)
    sum_each_row[2, 32](A, out)
    np.testing.assert_allclose(out.get(), A_h.sum(axis=1), rtol=1e-12, atol=1e-13)  # NumPy adds pairwise


@cuda.jit
def strided_and_dynamic_slices(A, out, start, stop, step):
    v = A[start:stop:step]
    out[0] = v.shape[0]
    for k in range(v.shape[0]):
        out[1 + k] = v[k]


@pytest.mark.parametrize("bounds", [(2, 17, 3), (-5, 40, 1), (15, 1, -2), (-1, -30, -4), (30, 2, 1), (0, 20, 25)])
def test_slice_bounds_follow_python(rng, bounds):
    A = rng.standard_normal(20)
    start, stop, step = bounds
    got_all, want_all = run_both(strided_and_dynamic_slices, A, np.zeros(24), np.int64(start), np.int64(stop),
                                 np.int64(step))
    got, want = got_all[1], want_all[1]
    np.testing.assert_array_equal(got, want)
    assert got[0] == len(A[start:stop:step])


@cuda.jit(device=True)
def dot(x, y):
    s = 0.0
    for k in range(x.shape[0]):
        s += x[k] * y[k]
    return s


@cuda.jit
def matvec_with_row_views(A, x, out):
    i = cuda.grid(1)
    if i < A.shape[0]:
        out[i] = dot(A[i], x)


def test_views_passed_to_device_functions(rng):
    A_h = rng.standard_normal((50, 33))
    x_h = rng.standard_normal(33)
    out = simt.zeros(50)
    matvec_with_row_views[2, 32](simt.asarray(A_h), simt.asarray(x_h), out)
    np.testing.assert_allclose(out.get(), A_h @ x_h, rtol=1e-12, atol=1e-13)


@cuda.jit
def column_dot_with_transpose(A, x, out):
    j = cuda.grid(1)
    if j < A.shape[1]:
        out[j] = dot(A.T[j], x)  # a column, through the transpose: strided


def test_transposed_rows_are_columns(rng):
    A_h = rng.standard_normal((21, 9))
    x_h = rng.standard_normal(21)
    out = simt.zeros(9)
    column_dot_with_transpose[1, 32](simt.asarray(A_h), simt.asarray(x_h), out)
    np.testing.assert_allclose(out.get(), A_h.T @ x_h, rtol=1e-12, atol=1e-13)


@cuda.jit
def histogram_rows(labels, counts):
    i = cuda.grid(1)
    if i < labels.shape[0]:
        cuda.atomic.add(counts[labels[i, 0]], labels[i, 1], 1)


def test_atomics_on_a_row_view(rng):
    labels_h = np.stack([rng.integers(0, 4, 300), rng.integers(0, 6, 300)], axis=1).astype(np.int64)
    counts = simt.zeros((4, 6), np.int64)
    histogram_rows[10, 32](simt.asarray(labels_h), counts)
    want = np.zeros((4, 6), np.int64)
    np.add.at(want, (labels_h[:, 0], labels_h[:, 1]), 1)
    np.testing.assert_array_equal(counts.get(), want)


@cuda.jit
def assign_to_views(A, B):
    A[1, 1:3] = 99.5
    A[0] = B[2]           # a row from another array
    A[2, 1:] = A[2, :-1]  # shifted within its own row: the old values move
    A[3, ::2] = B[0, ::2]
    A[:, 0] = B[:, 3]     # a column
    A[4] = 7              # an int stored into a float view
    A[5, :] = B[1, 0:1]   # one element broadcast along the row


def test_assigning_to_views_matches_numpy(rng):
    A = rng.standard_normal((6, 4))
    B = rng.standard_normal((6, 4))
    (got_A, _), (want_A, _) = run_both(assign_to_views, A, B)
    np.testing.assert_array_equal(got_A, want_A)


@cuda.jit
def assign_rows_backward_overlap(A):
    A[:-1] = A[1:]  # rows move up: a forward copy is right here


def test_overlapping_row_copy(rng):
    A = rng.standard_normal((5, 3))
    (got,), (want,) = run_both(assign_rows_backward_overlap, A)
    np.testing.assert_array_equal(got, want)


@cuda.jit
def float_view_into_int_view(A, B):
    A[0, :] = B[0, :]
    A[1] = B[1, ::-1]


def test_assignment_converts_as_stores_do(rng):
    A = np.zeros((2, 5), np.int32)
    B = rng.uniform(-1000, 1000, (2, 5))
    d = simt.asarray(A)
    float_view_into_int_view[1, 1](d, simt.asarray(B))
    np.testing.assert_array_equal(d.get(), np.stack([B[0], B[1, ::-1]]).astype(np.int32))


@cuda.jit
def views_of_shared_and_local(out):
    tile = cuda.shared.array((4, 8), np.float32)
    t = cuda.threadIdx.x
    for k in range(8):
        tile[t, k] = t * 10 + k
    cuda.syncthreads()
    buf = cuda.local.array((3, 3), np.float64)
    row = buf[t % 3]
    for k in range(3):
        row[k] = t + k
    mine = tile[t]
    other = tile[:, t]
    out[t, 0] = mine[7] + other[(t + 1) % 4] + buf[t % 3, 2]


def test_views_of_shared_and_local_arrays():
    out = simt.zeros((4, 1))
    views_of_shared_and_local[1, 4](out)
    t = np.arange(4)
    np.testing.assert_array_equal(out.get()[:, 0], (t * 10 + 7) + (((t + 1) % 4) * 10 + t) + (t + 2))


@cuda.jit
def three_d_views(V, out):
    plane = V[1]
    out[0] = plane[2, 3]
    line = V[:, 2, 1:]
    out[1] = line[2, 1] + line.shape[0] * 100 + line.shape[1] * 10
    pencil = V[0, :, 4]
    out[2] = pencil[1]
    out[3] = V[1:, ::2][0, 1, 1]


def test_three_dimensional_views(rng):
    V = rng.standard_normal((3, 4, 5))
    (_, got), (_, want) = run_both(three_d_views, V, np.zeros(4))
    np.testing.assert_array_equal(got, want)


@cuda.jit
def unsigned_row_index(A, out, i):
    out[0] = A[i][0]
    out[1] = A[i].shape[0]


def test_out_of_range_row_is_an_empty_view(rng):
    A = simt.asarray(rng.standard_normal((3, 4)) + 10)
    out = simt.asarray(np.full(2, -1.0))
    unsigned_row_index[1, 1](A, out, np.uint64(5))
    np.testing.assert_array_equal(out.get(), [0.0, 0.0])  # no memory read: the view is empty
    unsigned_row_index[1, 1](A, out, np.int64(-2))  # negative indices wrap once
    np.testing.assert_array_equal(out.get(), [A.get()[1, 0], 4.0])


@cuda.jit(boundscheck=True)
def checked_row(A, out, i):
    r = A[i]
    out[0] = r[0]


def test_out_of_range_row_raises_with_boundscheck(rng):
    A = simt.asarray(rng.standard_normal((3, 4)))
    out = simt.zeros(1)
    checked_row[1, 1](A, out, 2)
    cuda.synchronize()
    with pytest.raises(IndexError, match=r"index 3 is out of bounds for axis 0 with size 3.*test_kernel_views.py"):
        checked_row[1, 1](A, out, 3)
        cuda.synchronize()


def test_view_errors_name_the_line(kernel_module):
    m = kernel_module("""
import numpy as np
from simt import cuda
C = np.arange(4.0)

@cuda.jit
def float_index(A, out):
    out[0] = A[1.5:3][0]

@cuda.jit
def zero_step(A, out):
    out[0] = A[::0][0]

@cuda.jit
def too_many(A, out):
    out[0] = A[1, :, 2]

@cuda.jit
def in_place_on_view(A, out):
    A[1:3] += 1.0

@cuda.jit
def store_into_constant(A, out):
    c = cuda.const.array_like(C)
    c[1:2] = 3.0

@cuda.jit
def wider_source(A, out):
    out[0:2] = A

@cuda.jit(device=True)
def local_rows():
    buf = cuda.local.array((2, 2), np.float64)
    return buf[0]

@cuda.jit
def returns_frame_view(A, out):
    r = local_rows()
    out[0] = r[0]
""", name="view_errors")
    import simt
    A = simt.zeros((3, 4))
    out = simt.zeros(2)
    cases = [
        (m.float_index, "slice start must be an integer or None, not float64"),
        (m.zero_step, "slice step cannot be zero"),
        (m.too_many, "too many indices for array: array is 2-dimensional, but 3 were indexed"),
        (m.in_place_on_view, "'\\+=' on a whole array"),
        (m.store_into_constant, "read-only"),
        (m.wider_source, "cannot assign a 2-D array to a 1-D view"),
        (m.returns_frame_view, "local"),
    ]
    for kernel, message in cases:
        with pytest.raises(Exception, match=message) as info:
            kernel[1, 1](A, out)
        assert "view_errors.py" in str(info.value), str(info.value)
