"""Layouts shared by the sorting functions: the sort axis moved last, and a gather along that last
axis by per-row positions (what turns an argsort into sorted values)."""
import operator
from functools import lru_cache

from . import _kernelgen as kg
from . import _simt


def sort_axis(a, axis, fname):
    """(view of `a` with the sort axis last, the permutation that made it): axis=None sorts the
    flattened array (C order), a 0-d array sorts as one element."""
    if axis is None:
        flat = a.reshape(-1) if a._c_contiguous else a.ravel()
        return flat, None
    if not hasattr(type(axis), "__index__"):
        raise TypeError(f"{fname}: axis must be an integer or None, not {type(axis).__name__}")
    ax = _simt._normalize_axis(operator.index(axis), a.ndim)
    order = [d for d in range(a.ndim) if d != ax] + [ax]
    return a.transpose(order), order


@lru_cache(maxsize=None)
def _take_source(ndim, dst_dtype):
    sub = kg.index_names("i", ndim)
    lead = "".join(f"{s}, " for s in sub[:-1])
    L = ["def simt_take_along_rows(src, idx, out, n):",
         "    t = cuda.grid(1)",
         "    if t < n:"] + kg.unravel("t", "out", ndim, " " * 8, "i")
    L.append(f"        out[{', '.join(sub)}] = {kg.type_name(dst_dtype)}(src[{lead}idx[t]])")
    return "\n".join(L) + "\n"


def take_along_rows(src, idx, out):
    """out[..., j] = src[..., idx[t]] where t is (..., j)'s C-order position: `idx` is 1-D and
    holds positions along the last axis (src and out: same leading shape, any strides)."""
    if out.size:
        if out.ndim == 0:
            raise ValueError("internal: take_along_rows needs at least one axis")
        k = kg.kernel("simt_take_along_rows", _take_source(out.ndim, out.dtype), boundscheck=False)
        kg.launch_1d(k, out.size, src, idx, out, out.size)
    return out
