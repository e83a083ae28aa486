"""coop.block.reduce and coop.block.sum: a block-wide fold whose result is valid in thread 0.
Each thread folds its items, each warp folds its lanes through shuffles, the warps' values meet
in shared memory (one slot per warp) and warp 0 folds them through shuffles."""
from . import _common as c
from ._text import FULL_MASK, BlockShape, publish_warp_values, thread_fold, warp_reduce

_ALGORITHMS = ("raking", "raking_commutative_only", "warp_reductions")


def _source(name, dtype, dims, items_per_thread, op):
    shape = BlockShape(dims)
    T = c.type_name(dtype)
    single = items_per_thread == 1
    L = [f"def {name}(item, num_valid=-1):" if single else f"def {name}(items):"]
    L += shape.preamble("    ")
    if single:
        L.append(f"    v = {T}(item)")
    else:
        L += thread_fold("v", "items", items_per_thread, op, dtype, "    ")
    count = None
    if single or shape.tail:
        L.append(f"    n = {shape.lanes_in_warp()}")
        count = "n"
        if single:  # only the first num_valid threads contribute
            L += ["    if num_valid >= 0:", f"        n = min(max(num_valid - warp * {c.WARP}, 0), n)"]
    L += warp_reduce("v", "lane", min(c.WARP, shape.threads), count, op, dtype, "mask", "    ")
    if shape.warps > 1:
        L += publish_warp_values(shape, "v", "lane == 0", "sh", dtype, "    ")
        L += ["    if warp == 0:", f"        nw = {shape.warps}"]
        if single:
            L += ["        if num_valid >= 0:", f"            nw = min((num_valid + {c.WARP - 1}) // {c.WARP}, nw)"]
        L += ["        if lane < nw:", f"            v = {T}(sh[lane])"]
        L += warp_reduce("v", "lane", shape.warps, "nw", op, dtype, FULL_MASK, "        ")
    L.append("    return v")
    return "\n".join(L) + "\n"


def _reduce(dtype, threads_per_block, items_per_thread, binary_op, algorithm, where):
    dtype = c.normalize_dtype(dtype, where)
    dims = c.normalize_block(threads_per_block, where)
    items_per_thread = c.normalize_items(items_per_thread, where)
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"{where}: algorithm must be one of {', '.join(map(repr, _ALGORITHMS))}, not {algorithm!r}")
    op = c.Op("+" if binary_op is None else binary_op, dtype, where)
    name = f"coop_block_{'sum' if binary_op is None else 'reduce'}_{dtype.name}_{c.block_of(dims)}_{items_per_thread}"
    warps = (dims[0] * dims[1] * dims[2] + c.WARP - 1) // c.WARP
    storage = c.shared_itemsize(dtype) * warps if warps > 1 else 0
    return c.Primitive(where, name, _source(name, dtype, dims, items_per_thread, op), op.names(), storage,
                       dtype.itemsize)


def reduce(dtype, threads_per_block, binary_op, items_per_thread=1, algorithm="warp_reductions", methods=None):
    """A block-wide reduction with `binary_op` (an associative function of two values, or an
    operator name such as 'max'), valid in thread 0 only. In a kernel: `block_reduce(item)`,
    `block_reduce(item, num_valid)` (only the first num_valid threads contribute) or, with
    items_per_thread > 1, `block_reduce(items)` with an array of that many items."""
    c.no_methods(methods, "coop.block.reduce")
    return _reduce(dtype, threads_per_block, items_per_thread, binary_op, algorithm, "coop.block.reduce")


def sum(dtype, threads_per_block, items_per_thread=1, algorithm="warp_reductions", methods=None):
    """A block-wide sum, valid in thread 0 only (called as `reduce`'s result is)."""
    c.no_methods(methods, "coop.block.sum")
    return _reduce(dtype, threads_per_block, items_per_thread, None, algorithm, "coop.block.sum")
