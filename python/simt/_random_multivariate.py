"""simt.random's vector-valued distributions: multinomial and dirichlet (one generated kernel, one
thread per drawn vector, its components from distant parts of the vector's counter stream, so
one seed gives the same vectors on every backend) and multivariate_normal (standard normals
times a factor of the covariance matrix, on the device)."""
import numbers
import operator
import warnings

import numpy as np

from . import _kernelgen as kg
from . import _random_samplers as samplers
from . import _simt
from ._random_state import state_lock

_KEY_SALT = 0x2B7E151628AED2A6  # keys these streams apart from the other distributions'

_SOURCES = {
    # Sequential binomials: category i takes Binomial(trials left, p_i / probability left); the
    # last takes what is left (NumPy's method; its last probability is never read).
    "multinomial": """def simt_random_multinomial(out, p, n, k, rows, k0, k1, base):
    r = cuda.grid(1)
    if r < rows:
        e = np.uint64(base) + np.uint64(r)
        left = np.float64(n)
        rest = 1.0
        for i in range(k - 1):
            x = np.int64(0)
            if left > 0.0 and rest > 0.0:
                q = min(1.0, max(0.0, p[i] / rest))
                x = _binomial(left, q, np.uint64(k0), np.uint64(k1), e, np.uint64(i) << np.uint64(40))
            out[r * k + i] = x
            left -= np.float64(x)
            rest -= p[i]
        out[r * k + k - 1] = np.int64(left)
""",
    # Gamma(alpha_i) variates normalized to sum 1, in logarithms so that tiny alphas (whose
    # gammas underflow to 0) still give a proper point of the simplex.
    "dirichlet": """def simt_random_dirichlet(out, alpha, k, rows, k0, k1, base):
    r = cuda.grid(1)
    if r < rows:
        e = np.uint64(base) + np.uint64(r)
        top = -math.inf
        for i in range(k):
            a = alpha[i]
            j = np.uint64(i) << np.uint64(40)
            if a < 1.0:
                lu = math.log(_open_uniform(np.uint64(k0), np.uint64(k1), e, j)) / a
                lg = math.log(_gamma(a + 1.0, np.uint64(k0), np.uint64(k1), e, j + np.uint64(1))) + lu
            else:
                lg = math.log(_gamma(a, np.uint64(k0), np.uint64(k1), e, j))
            out[r * k + i] = lg
            top = max(top, lg)
        total = 0.0
        for i in range(k):
            w = math.exp(out[r * k + i] - top)
            out[r * k + i] = w
            total += w
        for i in range(k):
            out[r * k + i] = out[r * k + i] / total
""",
}
_DEVICE_FUNCTIONS = {"_binomial": samplers.binomial, "_gamma": samplers.standard_gamma,
                     "_open_uniform": samplers.open_uniform}


def _kernel(name):
    source = _SOURCES[name]
    key = ("random", name, source)
    k = kg._dispatchers.get(key)
    if k is None:
        def resolve(ident):
            f = _DEVICE_FUNCTIONS.get(ident)
            return ("device", f) if f is not None else kg._resolve(ident)
        k = kg._dispatchers[key] = _simt.Dispatcher(f"simt_random_{name}", source, f"<simt random {name}>", 1, 0,
                                                    resolve, {"boundscheck": False})
    return k


def _size(size):
    if size is None:
        return ()
    if isinstance(size, numbers.Integral):
        return (operator.index(size),)
    return tuple(operator.index(s) for s in size)


def _host_vector(x, what):
    """A small distribution parameter (probabilities, concentrations) as a float64 host array: it
    shapes the result and NumPy checks it, so the host needs it anyway."""
    from ._ndarray import ndarray
    host = x.get() if isinstance(x, ndarray) else np.asarray(x)
    if host.dtype.kind not in "biuf":
        raise TypeError(f"{what} must be real numbers, not {host.dtype}")
    return host.astype(np.float64)


def _rows(name, params, rows_shape, k, out_dtype):
    """Launch `name`'s kernel for prod(rows_shape) vectors of k components."""
    from ._creation import empty
    out = empty(rows_shape + (k,), out_dtype)
    rows = out.size // k if k else 0
    with state_lock:
        seed, base = _simt.random_reserve(rows)
    if rows:
        key = (seed ^ _KEY_SALT) & 0xFFFFFFFFFFFFFFFF
        kg.launch_1d(_kernel(name), rows, kg.flat(out), *params, k, rows, key & 0xFFFFFFFF, key >> 32,
                     np.uint64(base))
    return out


def multinomial(n, pvals, size=None):
    """Counts of n trials over len(pvals) categories (int64; shape size + (len(pvals),)). The last
    category takes the trials the others leave (its probability is not read)."""
    from ._creation import asarray
    if isinstance(n, (list, tuple)) or getattr(n, "ndim", 0):
        raise NotImplementedError("multinomial: simt takes one number of trials n (an int), not an array of them")
    try:
        n = operator.index(n)
    except TypeError:
        n = int(n)  # (NumPy truncates a float n)
    if n < 0:
        raise ValueError("n < 0")
    p = _host_vector(pvals, "multinomial: pvals")
    if p.ndim != 1:
        raise ValueError(f"multinomial: pvals must be a 1-d sequence of probabilities (got shape {p.shape})")
    if p.size == 0:
        raise ValueError("multinomial: pvals must have at least one entry")
    if np.any(p < 0) or np.any(p > 1) or np.any(np.isnan(p)):
        raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if p[:-1].sum() > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")
    return _rows("multinomial", (asarray(p), n), _size(size), p.size, np.int64)


def dirichlet(alpha, size=None, dtype=None):
    """Points of the simplex drawn with concentrations alpha (float64, or dtype; shape
    size + (len(alpha),))."""
    from ._creation import asarray
    a = _host_vector(alpha, "dirichlet: alpha")
    if a.ndim != 1:
        raise ValueError(f"dirichlet: alpha must be a 1-d sequence (got shape {a.shape})")
    if np.any(np.isnan(a)):
        raise ValueError("alpha contains NaNs")
    if np.any(a <= 0):
        raise ValueError("alpha <= 0")
    out = _rows("dirichlet", (asarray(a),), _size(size), a.size, np.float64)
    if dtype is not None and np.dtype(dtype) != out.dtype:
        if np.dtype(dtype) not in (np.float32, np.float64):
            raise TypeError(f"dirichlet: dtype must be float32 or float64, not {np.dtype(dtype)}")
        out = out.astype(dtype)
    return out


_FACTOR_METHODS = ("cholesky", "eigh", "svd")


def multivariate_normal(mean, cov, size=None, check_valid="ignore", tol=1e-08, method="cholesky", dtype=None):
    """Normal vectors with the given mean (length N) and covariance (N x N): shape size + (N,).
    The covariance is factored as A @ A.T = cov by `method` (simt.linalg, see its notes) and each
    vector is mean + A @ z for standard normal z. check_valid ('ignore', CuPy's default; 'warn';
    'raise') tests that cov is symmetric positive-semidefinite within tol."""
    from . import linalg
    from .random import standard_normal
    from ._comparison import allclose
    from ._creation import asarray
    from ._ndarray import ndarray
    if check_valid not in ("warn", "raise", "ignore"):
        raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
    if method not in _FACTOR_METHODS:
        raise ValueError(f"method must be one of {_FACTOR_METHODS}, not {method!r}")
    dt = np.dtype(np.float64 if dtype is None else dtype)
    if dt not in (np.float32, np.float64):
        raise TypeError(f"multivariate_normal: dtype must be float32 or float64, not {dt}")
    m = mean if isinstance(mean, ndarray) else asarray(np.asarray(mean))  # (host parameters: copied over)
    c = cov if isinstance(cov, ndarray) else asarray(np.asarray(cov))
    if m.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if c.ndim != 2 or c.shape[0] != c.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if m.shape[0] != c.shape[0]:
        raise ValueError("mean and cov must have same length")
    if m.dtype.kind == "c" or c.dtype.kind == "c":
        raise TypeError("multivariate_normal: mean and cov must be real")
    c = c.astype(np.float64)
    if check_valid != "ignore":  # NumPy's test: the SVD puts cov back together (so it is symmetric PSD)
        _, sv, vh = linalg.svd(c)
        if not allclose(linalg.matmul(vh.T * sv, vh), c, rtol=tol, atol=tol):
            if check_valid == "warn":
                warnings.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning, stacklevel=2)
            else:
                raise ValueError("covariance is not symmetric positive-semidefinite.")
    if method == "cholesky":
        factor = linalg.cholesky(c)
    elif method == "eigh":
        w, v = linalg.eigh(c)
        factor = v * abs(w) ** 0.5  # (NumPy takes |w|: tiny negative eigenvalues of a PSD matrix)
    else:
        _, sv, vh = linalg.svd(c)
        factor = vh.T * sv ** 0.5
    n = m.shape[0]
    z = standard_normal(_size(size) + (n,))
    out = linalg.matmul(z, factor.T) + m.astype(np.float64)
    return out.astype(dt, copy=False)
