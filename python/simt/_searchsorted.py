"""simt.searchsorted (NumPy's signature): one thread per query, a binary search over the sorted
array's order-preserving keys (so NaN sorts last and -0.0 equals 0.0 as in NumPy)."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from ._sorting import device_array, key_list


def _less(nkeys, strict):
    """a's key at mid before v's (or equal too, when not strict): the last key is primary."""
    expr = "False" if strict else "True"
    for j in range(nkeys):
        expr = f"(a{j}[mid] < w{j} or (a{j}[mid] == w{j} and {expr}))"
    return expr


@lru_cache(maxsize=None)
def _search_source(nkeys, strict):
    a_args = "".join(f"a{j}, " for j in range(nkeys))
    v_args = "".join(f"v{j}, " for j in range(nkeys))
    L = [f"def simt_searchsorted({a_args}{v_args}out, na, nv):",
         "    t = cuda.grid(1)",
         "    if t < nv:"]
    L += [f"        w{j} = v{j}[t]" for j in range(nkeys)]
    L += ["        lo = np.int64(0)",
          "        hi = np.int64(na)",
          "        while lo < hi:",
          "            mid = lo + (hi - lo) // 2",
          f"            if {_less(nkeys, strict)}:",
          "                lo = mid + 1",
          "            else:",
          "                hi = mid",
          "        out[t] = lo"]
    return "\n".join(L) + "\n"


def searchsorted(a, v, side="left", sorter=None):
    """Where each element of `v` would go in the sorted 1-D array `a` to keep it sorted: the first
    such place (side='left') or the last (side='right'). `sorter`: indices that sort `a`."""
    from ._creation import empty
    from ._selection import take
    a = device_array(a, "searchsorted")
    if a.ndim != 1:
        raise ValueError(f"searchsorted: a must be 1-D (got an array of shape {a.shape})")
    if side not in ("left", "right"):
        raise ValueError(f"searchsorted: side must be 'left' or 'right' (got {side!r})")
    scalar_v = not hasattr(v, "dtype") and not isinstance(v, (list, tuple))
    v = device_array(v, "searchsorted's v")
    if sorter is not None:
        sorter = device_array(sorter, "searchsorted's sorter")
        if sorter.dtype.kind not in "iu":
            raise TypeError(f"searchsorted: sorter must be an array of integers (got {sorter.dtype})")
        if sorter.shape != a.shape:
            raise ValueError(f"searchsorted: sorter must have a's shape {a.shape} (got {sorter.shape})")
        a = take(a, sorter)
    common = np.result_type(a.dtype, v.dtype if not scalar_v else v.get().reshape(()).item())
    out = empty(v.shape, np.int64)
    if out.size == 0:
        return out
    a_keys, _ = key_list(a.astype(common) if a.dtype != common else a)
    vv = v.astype(common) if v.dtype != common else v
    v_keys, _ = key_list(vv.reshape(-1) if vv.ndim else vv.reshape(1))
    k = kg.kernel("simt_searchsorted", _search_source(len(a_keys), side == "left"), boundscheck=False)
    kg.launch_1d(k, v.size, *a_keys, *v_keys, kg.flat(out) if out.ndim != 1 else out, a.size, v.size)
    return out
