"""Generated kernels behind advanced indexing: gather (out = src[indices]), scatter
(dst[indices] = values) and the coordinates of nonzero elements (boolean compaction)."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg


@lru_cache(maxsize=None)
def _indexed_source(scatter, src_ndim, adv, scalar, b_offset, b_ndim, res_ndim):
    """Gather or scatter over the indexing result's shape. `adv`: the source dimensions taken
    by index arrays (x0, x1, ... broadcast to the result's dimensions b_offset..+b_ndim), in
    order; `scalar[k]`: x{k} is an integer argument, not an array; the other source dimensions
    follow the remaining result dimensions in order."""
    name = "simt_scatter" if scatter else "simt_gather"
    xs = "".join(f", x{k}" for k in range(len(adv)))
    grid = "vals" if scatter else "out"
    lines = [f"def {name}({'dst, vals' if scatter else 'out, src'}, n{xs}):",
             "    t = cuda.grid(1)",
             "    if t < n:"] + kg.unravel("t", grid, res_ndim, " " * 8, prefix="r")
    b_coords = ", ".join(f"r{b_offset + i}" for i in range(b_ndim))
    rest = iter([d for d in range(res_ndim) if not b_offset <= d < b_offset + b_ndim])
    src_coords = []
    for d in range(src_ndim):
        if d in adv:
            k = adv.index(d)
            lines.append(f"        j{k} = np.int64(x{k})" if scalar[k] else f"        j{k} = np.int64(x{k}[{b_coords}])")
            lines += [f"        if j{k} < 0:",  # negative indices count from the end (bounds checked before)
                      f"            j{k} += {'dst' if scatter else 'src'}.shape[{d}]"]
            src_coords.append(f"j{k}")
        else:
            src_coords.append(f"r{next(rest)}")
    res = ", ".join(f"r{d}" for d in range(res_ndim))
    src = ", ".join(src_coords)
    lines.append(f"        dst[{src}] = vals[{res}]" if scatter else f"        out[{res}] = src[{src}]")
    return "\n".join(lines) + "\n"


def run_indexed(scatter, data, other, adv, indices, b_offset, b_ndim):
    """Gather (`other` = result, `data` = source view) or scatter (`other` = values broadcast
    to the result shape, `data` = destination view); `indices` are ints or device arrays
    broadcast to the index shape, one per dimension in `adv`, already in range."""
    scalar = tuple(isinstance(x, int) for x in indices)
    source = _indexed_source(scatter, data.ndim, tuple(adv), scalar, b_offset, b_ndim, other.ndim)
    k = kg.kernel("simt_scatter" if scatter else "simt_gather", source, boundscheck=False)
    first = (data, other) if scatter else (other, data)
    kg.launch_1d(k, other.size, *first, other.size, *indices)


@lru_cache(maxsize=None)
def _coords_source(ndim):
    idx = ", ".join(f"i{j}" for j in range(ndim))
    lines = ["def simt_nonzero_coords(flags, ends, coords, n):",
             "    t = cuda.grid(1)",
             "    if t < n:"] + kg.unravel("t", "flags", ndim, " " * 8, prefix="i")
    lines += [f"        if flags[{idx}]:",
              "            pos = ends[t] - 1"]  # the inclusive count of nonzeros up to t gives t's slot
    lines += [f"            coords[{j}, pos] = i{j}" for j in range(ndim)]
    return "\n".join(lines) + "\n"


def nonzero_coords(x):
    """A (x.ndim, count) int64 array: the C-order coordinates of x's nonzero elements (x.ndim >= 1).
    A cumulative sum of the flags gives each element its output slot; learning the count
    synchronizes once."""
    from ._creation import empty
    from ._scan import cumsum
    flags = x if x.dtype == np.bool_ else x != 0  # (complex: either part nonzero)
    if x.size == 0:
        return empty((x.ndim, 0), np.int64)
    ends = cumsum(flags, dtype=np.int64)
    count = int(ends[-1].item())
    coords = empty((x.ndim, count), np.int64)
    if count:
        k = kg.kernel("simt_nonzero_coords", _coords_source(x.ndim), boundscheck=False)
        kg.launch_1d(k, x.size, flags, ends, coords, x.size)
    return coords


@lru_cache(maxsize=None)
def _masked_source(ndim, fill):
    """One pass over a mask the shape of the data: compaction (out gets the selected elements in
    C order, each at its inclusive count minus one) or a fill of the selected elements."""
    idx = ", ".join(f"i{j}" for j in range(ndim))
    name = "simt_masked_fill" if fill else "simt_compact"
    lines = [f"def {name}(flags, data, {'value' if fill else 'ends, out'}, n):",
             "    t = cuda.grid(1)",
             "    if t < n:"] + kg.unravel("t", "flags", ndim, " " * 8, prefix="i")
    lines.append(f"        if flags[{idx}]:")
    lines.append(f"            data[{idx}] = value[0]" if fill else f"            out[ends[t] - 1] = data[{idx}]")
    return "\n".join(lines) + "\n"


def compact(x, flags):
    """x[flags] for a boolean device array of x's shape (x.ndim >= 1): one synchronize."""
    from ._creation import empty
    from ._scan import cumsum
    if x.size == 0:
        return empty((0,), x.dtype)
    ends = cumsum(flags, dtype=np.int64)
    out = empty((int(ends[-1].item()),), x.dtype)
    if out.size:
        k = kg.kernel("simt_compact", _masked_source(x.ndim, False), boundscheck=False)
        kg.launch_1d(k, x.size, flags, x, ends, out, x.size)
    return out


def masked_fill(dst, flags, value):
    """dst[flags] = value (a 1-element device array of dst's dtype), with no synchronize."""
    if dst.size:
        k = kg.kernel("simt_masked_fill", _masked_source(dst.ndim, True), boundscheck=False)
        kg.launch_1d(k, dst.size, flags, dst, value, dst.size)
