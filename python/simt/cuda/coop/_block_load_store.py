"""coop.block.load / coop.block.store: a block's tile of threads*items_per_thread items between
an array and each thread's local items. 'direct' and 'vectorize' give thread r items r*k..r*k+k-1
of the tile (blocked); 'striped' gives it items r, r+T, r+2T, ...; the transposing algorithms
give the blocked arrangement but touch memory in the striped (coalesced) order, exchanging the
tile through shared memory."""
from . import _common as c
from ._text import BlockShape

_DIRECT = ("direct", "vectorize")
_TRANSPOSE = ("transpose", "warp_transpose", "warp_transpose_timesliced")
_ALGORITHMS = _DIRECT + ("striped",) + _TRANSPOSE
_SHARED_LIMIT = 48 * 1024  # static shared memory of one block


def _check(where, dtype, threads_per_block, items_per_thread, algorithm):
    dtype = c.normalize_dtype(dtype, where)
    dims = c.normalize_block(threads_per_block, where)
    items_per_thread = c.normalize_items(items_per_thread, where)
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"{where}: algorithm must be one of {', '.join(map(repr, _ALGORITHMS))}, not {algorithm!r}")
    tile = dims[0] * dims[1] * dims[2] * items_per_thread
    if algorithm in _TRANSPOSE and tile * c.shared_itemsize(dtype) > _SHARED_LIMIT:
        raise ValueError(f"{where}: algorithm {algorithm!r} exchanges the whole tile ({tile} x {dtype} = "
                         f"{tile * c.shared_itemsize(dtype)} bytes) through shared memory, more than a block has "
                         f"({_SHARED_LIMIT}); use 'direct' or 'striped'")
    return dtype, dims, items_per_thread


def _index(algorithm, threads, items_per_thread):
    """Kernel text of the tile index of the thread's item i as the algorithm touches memory."""
    return f"rank * {items_per_thread} + i" if algorithm in _DIRECT else f"i * {threads} + rank"


def _load_source(name, dtype, dims, items_per_thread, algorithm):
    shape = BlockShape(dims)
    T, k, n = c.type_name(dtype), items_per_thread, shape.threads
    S = c.shared_type(dtype)
    L = [f"def {name}(src, items, num_valid=-1, oob_default=0):", f"    rank = {c.rank_expr(dims)}"]
    valid = "num_valid < 0 or j < num_valid"
    if algorithm in _TRANSPOSE:
        L += [f"    sh = cuda.shared.array({n * k}, {S})",
              "    cuda.syncthreads()",  # a previous call may still be reading sh
              f"    for i in range({k}):",
              f"        j = i * {n} + rank",
              f"        sh[j] = {T}(src[j]) if {valid} else {T}(oob_default)",
              "    cuda.syncthreads()",
              f"    for i in range({k}):",
              f"        items[i] = {T}(sh[rank * {k} + i])"]
    else:
        L += [f"    for i in range({k}):",
              f"        j = {_index(algorithm, n, k)}",
              f"        items[i] = {T}(src[j]) if {valid} else {T}(oob_default)"]
    return "\n".join(L) + "\n"


def _store_source(name, dtype, dims, items_per_thread, algorithm):
    shape = BlockShape(dims)
    T, k, n = c.type_name(dtype), items_per_thread, shape.threads
    S = c.shared_type(dtype)
    L = [f"def {name}(dst, items, num_valid=-1):", f"    rank = {c.rank_expr(dims)}"]
    if algorithm in _TRANSPOSE:
        L += [f"    sh = cuda.shared.array({n * k}, {S})",
              "    cuda.syncthreads()",
              f"    for i in range({k}):",
              f"        sh[rank * {k} + i] = {T}(items[i])",
              "    cuda.syncthreads()",
              f"    for i in range({k}):",
              f"        j = i * {n} + rank",
              "        if num_valid < 0 or j < num_valid:",
              f"            dst[j] = {T}(sh[j])"]
    else:
        L += [f"    for i in range({k}):",
              f"        j = {_index(algorithm, n, k)}",
              "        if num_valid < 0 or j < num_valid:",
              f"            dst[j] = {T}(items[i])"]
    return "\n".join(L) + "\n"


def _make(kind, dtype, threads_per_block, items_per_thread, algorithm):
    where = f"coop.block.{kind}"
    dtype, dims, items_per_thread = _check(where, dtype, threads_per_block, items_per_thread, algorithm)
    name = f"coop_block_{kind}_{algorithm}_{dtype.name}_{c.block_of(dims)}_{items_per_thread}"
    make = _load_source if kind == "load" else _store_source
    tile = dims[0] * dims[1] * dims[2] * items_per_thread
    storage = tile * c.shared_itemsize(dtype) if algorithm in _TRANSPOSE else 0
    return c.Primitive(where, name, make(name, dtype, dims, items_per_thread, algorithm), {}, storage, dtype.itemsize)


def load(dtype, threads_per_block, items_per_thread=1, algorithm="direct"):
    """A block-wide load of a tile. In a kernel: `block_load(src, items)` where src is the
    tile's start (an array or a view such as a[tile_start:]) and items a local array of
    items_per_thread; `block_load(src, items, num_valid)` reads only the first num_valid items
    of the tile and sets the others to 0, `block_load(src, items, num_valid, oob_default)` to
    oob_default."""
    return _make("load", dtype, threads_per_block, items_per_thread, algorithm)


def store(dtype, threads_per_block, items_per_thread=1, algorithm="direct"):
    """A block-wide store of a tile: `block_store(dst, items)`, or `block_store(dst, items,
    num_valid)` to write only the first num_valid items of the tile."""
    return _make("store", dtype, threads_per_block, items_per_thread, algorithm)
