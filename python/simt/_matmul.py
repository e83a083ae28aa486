"""simt.matmul / simt.dot / the @ operator: NumPy's shape rules and errors, batched products as
strided 3-D views, cuBLAS on the cuda backend where it can take the operands, else a
register-tiled kernel (each thread accumulates a TM x TN tile of C in scalars)."""
import math
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from . import _simt
from ._host_numpy import host_call
from ._reduce_passes import require_array

# Per-backend tiling: threads per block (x, y) and the C tile per thread. On the GPU a thread's
# columns are interleaved by the block width so loads of B coalesce; on the CPU they are
# neighbours so the compiler can vectorize them. `host_blas` (cpu): float and complex products go
# to NumPy's matmul on the arrays' memory, that is to the BLAS NumPy links, as the cuda backend's
# go to cuBLAS (1024 x 1024 float32 on 2 cores: 12 GFLOP/s through the kernel, ~100 through BLAS).
TUNING = {
    "cuda": {"block": (16, 16), "tile": (4, 4), "interleaved": True},
    "cpu": {"block": (8, 8), "tile": (4, 8), "interleaved": False, "host_blas": True},
}
_BLAS_DTYPES = tuple(map(np.dtype, (np.float32, np.float64, np.complex64, np.complex128)))
_MAX_GRID_Z = 65535


def _acc_dtype(dt):
    return np.dtype(np.float32) if dt == np.float16 else dt


@lru_cache(maxsize=None)
def matmul_source(dt, tm, tn, interleaved):
    """c[z] = a[z] @ b[z] for 3-D views a (Z, M, K), b (Z, K, N), c (Z, M, N). Loads past the
    edges read 0 and stores there are dropped (masked array access), so edge tiles need no
    branches."""
    dt = np.dtype(dt)
    acc = kg.type_name(_acc_dtype(dt))
    out = kg.type_name(dt)
    boolean = dt == np.bool_
    L = ["def simt_matmul(a, b, c):",
         "    sy = cuda.blockDim.y",
         "    sx = cuda.blockDim.x",
         f"    j0 = cuda.blockIdx.x * (sx * {tn}) + cuda.threadIdx.x * {1 if interleaved else tn}",
         f"    row_blocks = (c.shape[1] + sy * {tm} - 1) // (sy * {tm})",
         "    for z in range(cuda.blockIdx.z, c.shape[0], cuda.gridDim.z):",
         "        for row_block in range(cuda.blockIdx.y, row_blocks, cuda.gridDim.y):",  # grids stop at 65535 in y
         f"            i0 = row_block * (sy * {tm}) + cuda.threadIdx.y"]
    ind = " " * 12
    rows = [f"i0 + {i} * sy" if i else "i0" for i in range(tm)]
    if interleaved:
        cols = [f"j0 + {j} * sx" if j else "j0" for j in range(tn)]
    else:
        cols = [f"j0 + {j}" if j else "j0" for j in range(tn)]
    zero = "False" if boolean else f"{acc}(0)"
    L += [f"{ind}c{i}_{j} = {zero}" for i in range(tm) for j in range(tn)]
    L.append(f"{ind}for k in range(a.shape[2]):")
    body = ind + "    "
    load = (lambda e: e) if boolean or acc == out else (lambda e: f"{acc}({e})")
    L += [f"{body}a{i} = {load(f'a[z, {rows[i]}, k]')}" for i in range(tm)]
    L += [f"{body}b{j} = {load(f'b[z, k, {cols[j]}]')}" for j in range(tn)]
    for i in range(tm):
        for j in range(tn):
            term = f"(a{i} and b{j})" if boolean else f"a{i} * b{j}"
            L.append(f"{body}c{i}_{j} = c{i}_{j} {'or' if boolean else '+'} {term}")
    for i in range(tm):
        for j in range(tn):
            L.append(f"{ind}c[z, {rows[i]}, {cols[j]}] = {out}(c{i}_{j})")
    return "\n".join(L) + "\n"


def _run_matmul(a3, b3, c3):
    """c3[z] = a3[z] @ b3[z] on non-empty 3-D views of one dtype (K > 0)."""
    Z, M, N = c3.shape
    stream = kg.current_stream()
    if kg.backend_kind() == "cuda" and _simt._cublas_matmul(a3, b3, c3, stream):
        return
    t = TUNING[kg.backend_kind()]
    if t.get("host_blas") and np.dtype(c3.dtype) in _BLAS_DTYPES:
        host_call(lambda a, b, c: np.matmul(a, b, out=c), a3, b3, c3)
        return
    (bx, by), (tm, tn) = t["block"], t["tile"]
    if np.dtype(c3.dtype).itemsize >= 16:  # complex128: fewer accumulators per thread
        tm, tn = max(1, tm // 2), max(1, tn // 2)
    k = kg.kernel("simt_matmul", matmul_source(np.dtype(c3.dtype), tm, tn, t["interleaved"]))
    grid = (-(-N // (bx * tn)), min(-(-M // (by * tm)), _MAX_GRID_Z), min(Z, _MAX_GRID_Z))
    kg.launch(k, grid, (bx, by), a3, b3, c3)


def _as_batch(x, batch_shape, trailing):
    """x broadcast to batch_shape + its last two axes, as a 3-D view (one merged batch axis);
    copied into a contiguous array first when the batch axes cannot merge."""
    from ._creation import empty
    nb = len(batch_shape)
    own = x.shape[:-2]
    pad = nb - len(own)
    strides = [0] * pad + [0 if n == 1 else s for n, s in zip(own, x.strides[:-2])]
    full_shape = tuple(batch_shape) + tuple(x.shape[-2:])
    full = kg.view(x, full_shape, tuple(strides) + tuple(x.strides[-2:]))
    zs = _merged_stride(batch_shape, strides)
    if zs is None:
        full = kg.copy_into(empty(full_shape, x.dtype), full)
        zs = x.shape[-1] * x.shape[-2] * x.itemsize
    return kg.view(full, (math.prod(batch_shape),) + trailing, (zs,) + tuple(full.strides[-2:]))


def _merged_stride(shape, strides):
    """The stride of the batch axes merged into one, or None if they do not merge."""
    dims = [(n, s) for n, s in zip(shape, strides) if n != 1]
    if not dims:
        return 0
    for (n0, s0), (n1, s1) in zip(dims, dims[1:]):
        if s0 != n1 * s1:
            return None
    return dims[-1][1]


def _check_operands(fname, a, b):
    a = require_array(a, fname)
    b = require_array(b, fname)
    dt = np.result_type(a.dtype, b.dtype)
    from ._dtypes import normalize
    dt = normalize(dt)
    if a.dtype != dt:
        a = kg.copy_into(_empty(a.shape, dt), a)
    if b.dtype != dt:
        b = kg.copy_into(_empty(b.shape, dt), b)
    return a, b, dt


def _empty(shape, dt):
    from ._creation import empty
    return empty(shape, dt)


_SIGNATURE = "(n?,k),(k,m?)->(n?,m?)"


def matmul(a, b, out=None):
    """Matrix product with NumPy's rules: 1-D operands are vectors, more dimensions are stacks
    of matrices broadcast against each other."""
    a, b, dt = _check_operands("matmul", a, b)
    for i, x in enumerate((a, b)):
        if x.ndim == 0:
            raise ValueError(f"matmul: Input operand {i} does not have enough dimensions (has 0, gufunc core with "
                             f"signature {_SIGNATURE} requires 1)")
    a2 = kg.view(a, (1,) + a.shape, (0,) + a.strides) if a.ndim == 1 else a
    b2 = kg.view(b, b.shape + (1,), b.strides + (0,)) if b.ndim == 1 else b
    if a2.shape[-1] != b2.shape[-2]:
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"{_SIGNATURE} (size {b2.shape[-2]} is different from {a2.shape[-1]})")
    try:
        batch = np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    except ValueError:
        raise ValueError(f"matmul: the stack dimensions of shapes {a.shape} and {b.shape} cannot be broadcast "
                         "together") from None
    M, K, N = a2.shape[-2], a2.shape[-1], b2.shape[-1]
    shape = tuple(batch) + ((M,) if a.ndim > 1 else ()) + ((N,) if b.ndim > 1 else ())
    result = _empty(tuple(batch) + (M, N), dt)
    nz = math.prod(batch)
    if K == 0:
        result._fill_bytes(np.zeros((), dt).tobytes())
    elif result.size:
        a3 = _as_batch(a2, batch, (M, K))
        b3 = _as_batch(b2, batch, (K, N))
        _run_matmul(a3, b3, kg.as_shape(result, (nz, M, N)))
    result = kg.as_shape(result, shape)
    return _store(result, out, "matmul")


def _store(result, out, fname):
    from ._reduce_passes import finish
    return finish(result, out, fname)


def dot(a, b, out=None):
    """NumPy's dot: inner product of vectors, matrix product of matrices, and for N-d operands
    the sum over a's last axis and b's second-to-last."""
    if isinstance(a, (int, float, complex, np.generic)) or isinstance(b, (int, float, complex, np.generic)):
        return _multiply(a, b, out)
    a, b, dt = _check_operands("dot", a, b)
    if a.ndim == 0 or b.ndim == 0:
        return _multiply(a, b, out)
    ka, kb = a.shape[-1], b.shape[-2] if b.ndim > 1 else b.shape[0]
    if ka != kb:
        raise ValueError(f"shapes {_shape_text(a.shape)} and {_shape_text(b.shape)} not aligned: {ka} "
                         f"(dim {a.ndim - 1}) != {kb} (dim {max(b.ndim - 2, 0)})")
    if a.ndim == 1 or b.ndim == 1 or (a.ndim == 2 and b.ndim == 2):
        if a.ndim > 2:  # (..., K) . (K,): a matrix-vector product over a's merged leading axes
            a2 = kg.as_shape(kg.contiguous(a), (math.prod(a.shape[:-1]), ka))
            return _store(kg.as_shape(matmul(a2, b), a.shape[:-1]), out, "dot")
        return _store(matmul(a, b), out, "dot")
    # a (..., K) and b (..., K, N): result a.shape[:-1] + b.shape[:-2] + (N,)
    P, Q, N = math.prod(a.shape[:-1]), math.prod(b.shape[:-2]), b.shape[-1]
    result = _empty(a.shape[:-1] + b.shape[:-2] + (N,), dt)
    if ka == 0:
        result._fill_bytes(np.zeros((), dt).tobytes())
    elif result.size:
        a2 = kg.as_shape(kg.contiguous(a), (P, ka))
        a3 = kg.view(a2, (Q, P, ka), (0,) + a2.strides)
        b3 = kg.as_shape(kg.contiguous(b), (Q, ka, N))
        item = result.itemsize
        c3 = kg.view(result, (Q, P, N), (N * item, Q * N * item, item))
        _run_matmul(a3, b3, c3)
    return _store(result, out, "dot")


def _shape_text(shape):
    return "(" + ",".join(str(n) for n in shape) + ("," if len(shape) == 1 else "") + ")"


def _multiply(a, b, out):
    import simt
    multiply = getattr(simt, "multiply", None)
    if multiply is None:
        raise NotImplementedError("simt.dot with a scalar operand needs simt.multiply (elementwise operations)")
    return multiply(a, b) if out is None else multiply(a, b, out=out)


def _attach_methods(ndarray):
    def __matmul__(self, other):
        from ._ndarray import ndarray as nd
        if not isinstance(other, nd) and not hasattr(other, "__cuda_array_interface__") and not hasattr(other, "__dlpack__"):
            return NotImplemented
        return matmul(self, other)

    def __rmatmul__(self, other):
        if isinstance(other, np.ndarray):
            raise TypeError("cannot multiply a NumPy array (host memory) by a simt array with @: copy it to the "
                            "device first with simt.asarray(x)")
        return NotImplemented

    def dot_method(self, b, out=None):
        return dot(self, b, out)

    ndarray.__matmul__ = __matmul__
    ndarray.__rmatmul__ = __rmatmul__
    ndarray.dot = dot_method


def outer(a, b, out=None):
    """Outer product of two vectors (inputs of other shapes are flattened first):
    out[i, j] = a[i] * b[j], one broadcast multiply."""
    from ._ufuncs import multiply
    a, b = require_array(a, "outer"), require_array(b, "outer")
    return multiply(a.ravel()[:, None], b.ravel()[None, :], out=out)
