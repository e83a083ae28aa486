"""Order-preserving unsigned images of sort keys: the kernels that map bool/int/uint/float arrays to
unsigned integers whose unsigned order is NumPy's sort order (NaN last), and back."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from . import _simt

_UNSIGNED = {1: np.dtype(np.uint8), 2: np.dtype(np.uint16), 4: np.dtype(np.uint32), 8: np.dtype(np.uint64)}
_QUIET_NAN = {2: 0x7E00, 4: 0x7FC00000, 8: 0x7FF8000000000000}  # what NumPy's np.nan is, per width
_INF_BITS = {2: 0x7C00, 4: 0x7F800000, 8: 0x7FF0000000000000}


def key_dtype(dt):
    """The unsigned dtype of the keys of dtype `dt` (same width)."""
    dt = np.dtype(dt)
    if dt.kind not in "biuf":
        raise TypeError(f"internal: no single sort key for dtype {dt}")
    return _UNSIGNED[dt.itemsize]


def bits_view(a, dt=None):
    """`a`'s memory seen as unsigned integers of its width (or as dtype `dt` of the same width)."""
    dt = key_dtype(a.dtype) if dt is None else np.dtype(dt)
    if dt == a.dtype:
        return a
    return _simt._foreign_array(a._ptr, a.shape, a.strides, dt, a)


def _prologue(dt, header, strided, ndim):
    """(width, sign bit, all ones, unsigned type name, subscript of `strided`, the kernel's first
    lines: one thread per element t < n, t unravelled over `strided`'s shape)."""
    w = dt.itemsize
    lines = [header, "    t = cuda.grid(1)", "    if t < n:"] + kg.unravel("t", strided, ndim, " " * 8, "i")
    return (w, 1 << (8 * w - 1), (1 << (8 * w)) - 1, kg.type_name(_UNSIGNED[w]),
            ", ".join(kg.index_names("i", ndim)), lines)


def key_lines(dt, var, ind, canonical_zero=False):
    """Statements turning uint64 `var`, the bits of a `dt` value, into its key (in place)."""
    dt = np.dtype(dt)
    w = dt.itemsize
    sign, ones = 1 << (8 * w - 1), (1 << (8 * w)) - 1
    if dt.kind == "f":
        L = [f"{ind}mag = {var} & np.uint64({sign - 1})",
             f"{ind}if mag > np.uint64({_INF_BITS[w]}):",  # any NaN: one key, after +inf
             f"{ind}    {var} = np.uint64({ones})"]
        if canonical_zero:  # -0.0 == 0.0: one key, so a stable sort keeps their order
            L += [f"{ind}elif mag == np.uint64(0):",
                  f"{ind}    {var} = np.uint64({sign})"]
        return L + [f"{ind}elif ({var} & np.uint64({sign})) != np.uint64(0):",
                    f"{ind}    {var} = {var} ^ np.uint64({ones})",  # negative: larger magnitude sorts first
                    f"{ind}else:",
                    f"{ind}    {var} = {var} | np.uint64({sign})"]
    if dt.kind == "i":
        return [f"{ind}{var} = {var} ^ np.uint64({sign})"]
    return []


def unkey_lines(dt, var, ind):
    """Statements turning uint64 key `var` back into the bits of its `dt` value (every NaN key
    becomes the quiet NaN np.nan is)."""
    dt = np.dtype(dt)
    w = dt.itemsize
    sign, ones = 1 << (8 * w - 1), (1 << (8 * w)) - 1
    if dt.kind == "f":
        return [f"{ind}if {var} == np.uint64({ones}):",
                f"{ind}    {var} = np.uint64({_QUIET_NAN[w]})",
                f"{ind}elif ({var} & np.uint64({sign})) != np.uint64(0):",
                f"{ind}    {var} = {var} ^ np.uint64({sign})",
                f"{ind}else:",
                f"{ind}    {var} = {var} ^ np.uint64({ones})"]
    if dt.kind == "i":
        return [f"{ind}{var} = {var} ^ np.uint64({sign})"]
    return []


@lru_cache(maxsize=None)
def _to_keys_source(dt, ndim, canonical_zero, with_index):
    """keys[t] = image of x's element t in C order (x: the unsigned view of the data, any strides);
    idx[t] = t's position in its row (rows of `rowlen`) when `with_index`."""
    w, sign, ones, U, sub, L = _prologue(dt, "def simt_sort_keys(x, keys, idx, n, rowlen):", "x", ndim)
    L.append(f"        u = np.uint64(x[{sub}])")
    L += key_lines(dt, "u", " " * 8, canonical_zero)
    L.append(f"        keys[t] = {U}(u)")
    if with_index:
        L.append("        idx[t] = np.int64(t % rowlen)")
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def _from_keys_source(dt, ndim):
    w, sign, ones, U, sub, L = _prologue(dt, "def simt_sort_unkeys(keys, out, n):", "out", ndim)
    L.append("        u = np.uint64(keys[t])")
    L += unkey_lines(dt, "u", " " * 8)
    L.append(f"        out[{sub}] = {U}(u)")
    return "\n".join(L) + "\n"


def to_keys(x, rowlen=None, canonical_zero=True, with_index=False):
    """(keys, idx): the unsigned images of x's elements in C order as a new 1-D array, and with
    `with_index` each element's int64 position within its row of `rowlen` (else None).
    `canonical_zero`: -0.0 and 0.0 get one key (argsort, unique, searchsorted); without it -0.0
    sorts first, so that sorted values keep their sign bit."""
    from ._creation import empty
    dt = np.dtype(x.dtype)
    kdt = key_dtype(dt)
    keys = empty((x.size,), kdt)
    idx = empty((x.size,), np.int64) if with_index else None
    if x.size:
        src = bits_view(x)
        if src.ndim == 0:
            src = kg.view(src, (1,), (0,))
        k = kg.kernel("simt_sort_keys", _to_keys_source(dt, src.ndim, canonical_zero, with_index), boundscheck=False)
        kg.launch_1d(k, x.size, src, keys, idx if with_index else keys, x.size, rowlen or max(x.size, 1))
    return keys, idx


def from_keys(keys, out):
    """Writes the values whose images are `keys` (1-D, C order of `out`) into `out` (any strides).
    Every NaN comes back as the quiet NaN np.nan is."""
    if out.size:
        dst = bits_view(out)
        if dst.ndim == 0:
            dst = kg.view(dst, (1,), (0,))
        k = kg.kernel("simt_sort_unkeys", _from_keys_source(np.dtype(out.dtype), dst.ndim), boundscheck=False)
        kg.launch_1d(k, out.size, keys, dst, out.size)
    return out
