"""simt.convolve and simt.correlate (NumPy's 1-D discrete convolution and cross-correlation,
modes 'full', 'same' and 'valid'): one thread per output element sums over the overlap of the
two sequences, in the operands' common dtype."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg

_MODES = ("full", "same", "valid")


@lru_cache(maxsize=None)
def _source(dt):
    t = kg.type_name(np.dtype(dt))
    # out[i] = sum over j of a[i + first - j] * v[j], for the j where that index lies in a
    return (f"def simt_convolve(a, v, out, first):\n"
            f"    i = cuda.grid(1)\n"
            f"    if i < out.size:\n"
            f"        k = i + first\n"
            f"        lo = max(0, k - a.size + 1)\n"
            f"        hi = min(v.size, k + 1)\n"
            f"        s = {t}(0)\n"
            f"        for j in range(lo, hi):\n"
            f"            s += a[k - j] * v[j]\n"
            f"        out[i] = s\n")


def _operand(x, name, fname):
    from ._creation import asarray
    from ._manipulation import _device_array
    a = asarray(x) if isinstance(x, (list, tuple, int, float, complex)) else _device_array(x, f"{fname}'s {name}")
    if a.ndim > 1:
        raise ValueError(f"{fname}: object too deep for desired array ({name} must be 1-D)")
    a = a.reshape(-1)  # (a 0-d operand is a sequence of one)
    if a.size == 0:
        raise ValueError(f"{fname}: {name} cannot be empty")
    return a


def convolve(a, v, mode="full"):
    """The discrete, linear convolution of 1-D sequences a and v."""
    a, v = _operand(a, "a", "convolve"), _operand(v, "v", "convolve")
    if mode not in _MODES:
        raise ValueError(f"convolve: mode must be one of {_MODES}, not {mode!r}")
    if v.size > a.size:  # (the result is symmetric in a and v; 'same' keeps the longer one's length)
        a, v = v, a
    from ._creation import empty
    dt = np.result_type(a.dtype, v.dtype)
    if dt == np.bool_:
        dt = np.dtype(np.bool_)
    n, m = a.size, v.size
    size, first = {"full": (n + m - 1, 0), "same": (n, (m - 1) // 2), "valid": (n - m + 1, m - 1)}[mode]
    work = np.dtype(np.int64) if dt == np.bool_ else dt
    a, v = a.astype(work), v.astype(work)
    out = empty(size, work)
    kg.launch_1d(kg.kernel("simt_convolve", _source(work)), size, a, v, out, first)
    return out.astype(np.bool_) if dt == np.bool_ else out


def correlate(a, v, mode="valid"):
    """The cross-correlation of 1-D sequences: sum over n of a[n + k] * conj(v[n])."""
    from ._ufuncs import conjugate
    a, v = _operand(a, "a", "correlate"), _operand(v, "v", "correlate")
    if mode not in _MODES:
        raise ValueError(f"correlate: mode must be one of {_MODES}, not {mode!r}")
    vc = conjugate(v[::-1]) if v.dtype.kind == "c" else v[::-1]
    if v.size > a.size:  # NumPy swaps and reverses the result so that the lags keep their order
        ac = conjugate(a[::-1]) if a.dtype.kind == "c" else a[::-1]
        r = convolve(v, ac, mode)[::-1]
        return conjugate(r) if r.dtype.kind == "c" else r.copy()
    return convolve(a, vc.copy(), mode)
