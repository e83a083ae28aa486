"""simt.linalg: numpy.linalg's and cupy.linalg's functions on simt arrays.

Norms, products (multi_dot, matrix_power, vecdot, outer, tensordot, cross), trace and diagonal
are simt's own kernels on either backend. The factorizations and solvers (det, slogdet, inv,
solve, cholesky, qr, eig, eigh, svd, lstsq, pinv, matrix_rank, cond, tensorinv, tensorsolve) run
NumPy's LAPACK on the host: on the cpu backend over the arrays' own memory; on the cuda backend
through a copy to the host and back (cuSOLVER is not used yet). Errors are NumPy's
(`simt.linalg.LinAlgError` is numpy.linalg.LinAlgError)."""
import functools
import math
import numbers

import numpy as np

from . import _ufuncs
from ._host_numpy import host_results as _host
from ._reduce_passes import finish, require_array

LinAlgError = np.linalg.LinAlgError


def _host_value(v):
    """A simt array among the plain arguments (pinv's rcond, matrix_rank's tol ...) on the host."""
    from ._ndarray import ndarray
    return v.get() if isinstance(v, ndarray) else v


def _lapack(name, doc, operands=("a",)):
    """simt.linalg.<name>: NumPy's function on the array operands named `operands` (simt arrays,
    positional or by keyword), the other arguments passed through."""
    fn = getattr(np.linalg, name)

    @functools.wraps(fn)
    def call(*args, **kwargs):
        arrays = list(args[:len(operands)])
        for key in operands[len(arrays):]:
            if key not in kwargs:
                raise TypeError(f"linalg.{name}() missing required argument '{key}'")
            arrays.append(kwargs.pop(key))
        rest = [_host_value(v) for v in args[len(operands):]]
        options = {k: _host_value(v) for k, v in kwargs.items()}
        return _host(f"linalg.{name}", lambda *hosts: fn(*hosts, *rest, **options), *arrays)
    call.__doc__ = doc + " (NumPy's LAPACK on the host; see simt.linalg's module notes.)"
    call.__module__ = __name__
    return call


det = _lapack("det", "Determinants of the last two axes' square matrices.")
slogdet = _lapack("slogdet", "(sign, log|det|) of the last two axes' square matrices.")
inv = _lapack("inv", "Inverses of the last two axes' square matrices.")
solve = _lapack("solve", "x with a @ x = b.", ("a", "b"))
cholesky = _lapack("cholesky", "Lower Cholesky factors of Hermitian positive-definite matrices.")
qr = _lapack("qr", "QR factorization (mode='reduced', 'complete', 'r', 'raw').")
eig = _lapack("eig", "Eigenvalues and right eigenvectors of square matrices.")
eigvals = _lapack("eigvals", "Eigenvalues of square matrices.")
eigh = _lapack("eigh", "Eigenvalues and eigenvectors of Hermitian matrices (UPLO='L' or 'U').")
eigvalsh = _lapack("eigvalsh", "Eigenvalues of Hermitian matrices.")
svd = _lapack("svd", "Singular value decomposition (full_matrices, compute_uv, hermitian).")
lstsq = _lapack("lstsq", "Least-squares solution of a @ x = b (x, residuals, rank, singular values).", ("a", "b"))
pinv = _lapack("pinv", "Moore-Penrose pseudo-inverse.")
matrix_rank = _lapack("matrix_rank", "Rank by the singular values above a tolerance.", ("A",))
cond = _lapack("cond", "Condition number in a given norm.", ("x",))
tensorinv = _lapack("tensorinv", "Inverse of an N-d array seen as a matrix (ind).")
tensorsolve = _lapack("tensorsolve", "x with tensordot(a, x, x.ndim) = b.", ("a", "b"))


def svdvals(x):
    """Singular values of the last two axes' matrices (the array API's svdvals)."""
    return svd(x, compute_uv=False)


# ---- simt's own kernels -------------------------------------------------------------------------
def _abs_power_sum(x, p, axis, keepdims):
    from ._reductions import sum as asum
    from ._ufuncs import absolute
    return asum(absolute(x) ** p, axis=axis, keepdims=keepdims)


def _empty_norm(x, axes, keepdims):
    """The norms of no elements: zeros (NumPy 2's answer for the orders that are sums or maxima)."""
    from ._creation import zeros
    axes = range(x.ndim) if axes is None else [a % x.ndim for a in axes]
    shape = tuple(1 if i in axes else n for i, n in enumerate(x.shape) if keepdims or i not in axes)
    return zeros(shape, _real_float(x.dtype))


def _vector_norm(x, ord, axis, keepdims):
    from ._reductions import amax, amin, sum as asum
    from ._selection import count_nonzero
    from ._ufuncs import absolute, sqrt
    if x.size == 0 and (ord is None or not isinstance(ord, str) and ord >= 0):  # (min-type orders raise, as NumPy's)
        return _empty_norm(x, None if axis is None else tuple(axis) if isinstance(axis, tuple) else (axis,), keepdims)
    if ord is None or ord == 2:
        a = absolute(x) if np.dtype(x.dtype).kind == "c" else x
        return sqrt(asum(a * a, axis=axis, keepdims=keepdims))
    if ord == np.inf:
        return amax(absolute(x), axis=axis, keepdims=keepdims)
    if ord == -np.inf:
        return amin(absolute(x), axis=axis, keepdims=keepdims)
    if ord == 0:
        r = count_nonzero(x, axis=axis, keepdims=keepdims)
        return r.astype(_real_float(x.dtype)) if hasattr(r, "astype") else _real_float(x.dtype).type(r)
    if ord == 1:
        return asum(absolute(x), axis=axis, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    return _abs_power_sum(x, float(ord), axis, keepdims) ** (1.0 / float(ord))


def _real_float(dt):
    """The float dtype of a norm of `dt` values (NumPy's: a float keeps its width)."""
    dt = np.dtype(dt)
    if dt.kind == "c":
        return np.dtype(np.float32) if dt == np.complex64 else np.dtype(np.float64)
    return dt if dt.kind == "f" else np.dtype(np.float64)


def _matrix_norm(x, ord, axes, keepdims):
    from ._reductions import amax, amin, sum as asum
    from ._ufuncs import absolute, sqrt
    r, c = (a % x.ndim for a in axes)
    if r == c:
        raise ValueError("Duplicate axes given.")
    if x.size == 0 and ord in (None, "fro", "nuc", 1, 2, np.inf):  # (min-type orders raise, as NumPy's)
        return _empty_norm(x, (r, c), keepdims)
    if ord is None or ord == "fro":
        a = absolute(x) if np.dtype(x.dtype).kind == "c" else x
        result = sqrt(asum(a * a, axis=(r, c), keepdims=keepdims))
    elif ord in (1, -1, np.inf, -np.inf):
        along, across = (r, c) if ord in (1, -1) else (c, r)  # 1: column sums (over rows)
        sums = asum(absolute(x), axis=along, keepdims=True)
        pick = amax if ord in (1, np.inf) else amin
        result = pick(sums, axis=across, keepdims=True)
        if not keepdims:
            result = result.reshape(tuple(n for i, n in enumerate(result.shape) if i not in (r, c)))
    elif ord in (2, -2, "nuc"):
        from ._manipulation import moveaxis
        s = svdvals(moveaxis(x, (r, c), (-2, -1)))
        result = amax(s, axis=-1) if ord == 2 else amin(s, axis=-1) if ord == -2 else asum(s, axis=-1)
        if keepdims:
            shape = list(x.shape)
            shape[r] = shape[c] = 1
            result = result.reshape(tuple(shape))
    else:
        raise ValueError("Invalid norm order for matrices.")
    return result


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms over one axis (or all, for 1-D input or ord=None), matrix
    norms over two ('fro', 'nuc', 1, -1, 2, -2, inf, -inf)."""
    x = require_array(x, "linalg.norm")
    if np.dtype(x.dtype).kind not in "fc":
        x = x.astype(np.float64)
    if axis is None:
        if ord is None:
            r = _vector_norm(x.reshape(-1), None, None, False)
            return r.reshape((1,) * x.ndim) if keepdims else r
        if x.ndim == 1:
            return _vector_norm(x, ord, 0, keepdims)
        if x.ndim == 2:
            return _matrix_norm(x, ord, (0, 1), keepdims)
        raise ValueError("Improper number of dimensions to norm.")
    if isinstance(axis, numbers.Integral):
        return _vector_norm(x, ord, int(axis), keepdims)
    axis = tuple(int(a) for a in axis)
    if len(axis) == 1:
        return _vector_norm(x, ord, axis[0], keepdims)
    if len(axis) == 2:
        return _matrix_norm(x, ord, axis, keepdims)
    raise ValueError("Improper number of dimensions to norm.")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """The array API's vector_norm (axis=None: over every element)."""
    x = require_array(x, "linalg.vector_norm")
    if np.dtype(x.dtype).kind not in "fc":
        x = x.astype(np.float64)
    if axis is None:
        r = _vector_norm(x.reshape(-1), ord, 0, False)
        return r.reshape((1,) * x.ndim) if keepdims else r
    return _vector_norm(x, ord, axis, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """The array API's matrix_norm over the last two axes."""
    x = require_array(x, "linalg.matrix_norm")
    if np.dtype(x.dtype).kind not in "fc":
        x = x.astype(np.float64)
    return _matrix_norm(x, ord, (-2, -1), keepdims)


def matrix_power(a, n):
    """a @ a @ ... (n times) by repeated squaring; n = 0 gives identities, n < 0 powers of inv(a)."""
    from ._manipulation import broadcast_to, eye
    from ._matmul import matmul
    a = require_array(a, "linalg.matrix_power")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional and square"
                          if a.ndim < 2 else "Last 2 dimensions of the array must be square")
    try:
        n = int(n) if isinstance(n, (numbers.Integral, np.integer)) else n.__index__()
    except (AttributeError, TypeError):
        raise TypeError("exponent must be an integer") from None
    if n == 0:
        return broadcast_to(eye(a.shape[-1], dtype=a.dtype), a.shape).copy()
    if n < 0:
        a, n = inv(a), -n
    result, square = None, a
    while n:
        if n & 1:
            result = square if result is None else matmul(result, square)
        n >>= 1
        if n:
            square = matmul(square, square)
    return result


def multi_dot(arrays, *, out=None):
    """The product of a chain of matrices (the first and last may be vectors), multiplied in the
    order that needs the fewest scalar multiplications."""
    from ._matmul import dot
    arrays = [require_array(a, "linalg.multi_dot") for a in arrays]
    if len(arrays) < 2:
        raise ValueError("Expecting at least two arrays.")
    first_vector, last_vector = arrays[0].ndim == 1, arrays[-1].ndim == 1
    mats = list(arrays)
    if first_vector:
        mats[0] = mats[0].reshape(1, -1)
    if last_vector:
        mats[-1] = mats[-1].reshape(-1, 1)
    for m in mats:
        if m.ndim != 2:
            raise ValueError(f"{m.ndim}-dimensional array given. Array must be two-dimensional")
    dims = [mats[0].shape[0]] + [m.shape[1] for m in mats]
    order = _chain_order(dims)

    def product(i, j):
        return mats[i] if i == j else dot(product(i, order[i][j]), product(order[i][j] + 1, j))
    result = product(0, len(mats) - 1)
    if first_vector and last_vector:
        result = result.reshape(())
    elif first_vector:
        result = result.reshape(-1)
    elif last_vector:
        result = result.reshape(-1)
    return finish(result, out, "linalg.multi_dot", "same_kind")


def _chain_order(dims):
    """split[i][j]: where the cheapest product of matrices i..j splits (matrix-chain order)."""
    n = len(dims) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = math.inf
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def vecdot(x1, x2, /, *, axis=-1, out=None):
    """Sum over `axis` of conj(x1) * x2 (the array API's vecdot), broadcasting the other axes."""
    from ._reductions import sum as asum
    from ._ufuncs import conjugate
    x1, x2 = require_array(x1, "linalg.vecdot"), require_array(x2, "linalg.vecdot")
    for x in (x1, x2):
        if x.ndim == 0 or not -x.ndim <= axis < x.ndim:
            raise ValueError(f"vecdot: axis {axis} is out of bounds for an array of dimension {x.ndim}")
    if x1.shape[axis] != x2.shape[axis]:  # the contracted axis is a core dimension: it never broadcasts
        raise ValueError(f"vecdot: the contracted axis has size {x1.shape[axis]} in x1 and {x2.shape[axis]} in x2")
    if np.dtype(x1.dtype).kind == "c":
        x1 = conjugate(x1)
    dt = np.result_type(x1.dtype, x2.dtype)  # (NumPy's vecdot keeps it: int8 wraps, bools are any-of-and)
    return finish(asum(x1 * x2, axis=axis, dtype=dt), out, "vecdot", "same_kind")


_ufuncs.FUNCTION_UFUNCS["vecdot"] = vecdot  # (np.vecdot is a ufunc in NumPy 2.2+: __array_ufunc__ finds this)


def matrix_transpose(x, /):
    """x with its last two axes swapped."""
    from ._manipulation import swapaxes
    x = require_array(x, "linalg.matrix_transpose")
    if x.ndim < 2:
        raise ValueError("matrix_transpose: the array needs at least two dimensions")
    return swapaxes(x, -1, -2)


def diagonal(x, /, *, offset=0):
    """The diagonals of the last two axes' matrices (the array API's linalg.diagonal)."""
    from ._matrix_shapes import diagonal as diag
    return diag(require_array(x, "linalg.diagonal"), offset, -2, -1)


def trace(x, /, *, offset=0, dtype=None):
    """Sums of the diagonals of the last two axes' matrices (the array API's linalg.trace)."""
    from ._matrix_shapes import trace as tr
    return tr(require_array(x, "linalg.trace"), offset, -2, -1, dtype=dtype)


def _reexport():
    from ._matmul import matmul, outer
    from ._numpy_extras import cross, tensordot
    return matmul, outer, cross, tensordot


matmul, outer, cross, tensordot = _reexport()
