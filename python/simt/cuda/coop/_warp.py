"""coop.warp.reduce / sum / exclusive_sum / inclusive_sum: one value per lane, combined across
each group of threads_in_warp lanes (the whole warp by default) through shuffles alone."""
from . import _common as c
from ._text import FULL_MASK, warp_inclusive_scan, warp_reduce


def _lane(threads_in_warp):
    return "cuda.laneid" if threads_in_warp == c.WARP else f"cuda.laneid % {threads_in_warp}"


def _mask(threads_in_warp):
    """The lanes of this lane's logical warp: a shuffle's mask may name only lanes that take part
    (a block of 16 threads has no lanes 16-31; CUDA leaves shuffles naming them undefined)."""
    if threads_in_warp == c.WARP:
        return FULL_MASK
    group = (1 << threads_in_warp) - 1
    return f"np.uint32({group} << (cuda.laneid // {threads_in_warp} * {threads_in_warp}))"


def _reduce(where, dtype, binary_op, threads_in_warp):
    dtype = c.normalize_dtype(dtype, where)
    threads_in_warp = c.normalize_warp_threads(threads_in_warp, where)
    op = c.Op("+" if binary_op is None else binary_op, dtype, where)
    name = f"coop_warp_{'sum' if binary_op is None else 'reduce'}_{dtype.name}_{threads_in_warp}"
    L = [f"def {name}(item):", f"    v = {c.type_name(dtype)}(item)"]
    L += warp_reduce("v", None, threads_in_warp, None, op, dtype, _mask(threads_in_warp), "    ")
    L.append("    return v")
    return c.Primitive(where, name, "\n".join(L) + "\n", op.names(), 0, dtype.itemsize)


def _sum_scan(where, dtype, threads_in_warp, inclusive):
    dtype = c.normalize_dtype(dtype, where)
    threads_in_warp = c.normalize_warp_threads(threads_in_warp, where)
    op = c.Op("+", dtype, where)
    name = f"coop_warp_{'inclusive' if inclusive else 'exclusive'}_sum_{dtype.name}_{threads_in_warp}"
    L = [f"def {name}(item):", f"    lane = {_lane(threads_in_warp)}", f"    v = {c.type_name(dtype)}(item)"]
    L += warp_inclusive_scan("v", "lane", threads_in_warp, op, dtype, _mask(threads_in_warp), "    ")
    if inclusive:
        L.append("    return v")
    else:
        L += [f"    t = {c.shuffle('up', _mask(threads_in_warp), 'v', 1, dtype)}", "    if lane == 0:",
              f"        return {c.type_name(dtype)}(0)", "    return t"]
    return c.Primitive(where, name, "\n".join(L) + "\n", {}, 0, dtype.itemsize)


def reduce(dtype, binary_op, threads_in_warp=32, methods=None):
    """A warp-wide reduction with `binary_op`, valid in the first lane of each group of
    threads_in_warp lanes. In a kernel: `warp_reduce(item)`."""
    c.no_methods(methods, "coop.warp.reduce")
    return _reduce("coop.warp.reduce", dtype, binary_op, threads_in_warp)


def sum(dtype, threads_in_warp=32):
    """A warp-wide sum, valid in the first lane of each group: `warp_sum(item)`."""
    return _reduce("coop.warp.sum", dtype, None, threads_in_warp)


def exclusive_sum(dtype, threads_in_warp=32):
    """A warp-wide exclusive prefix sum (0 in the first lane): `out = warp_exclusive_sum(item)`."""
    return _sum_scan("coop.warp.exclusive_sum", dtype, threads_in_warp, False)


def inclusive_sum(dtype, threads_in_warp=32):
    """A warp-wide inclusive prefix sum: `out = warp_inclusive_sum(item)`."""
    return _sum_scan("coop.warp.inclusive_sum", dtype, threads_in_warp, True)

