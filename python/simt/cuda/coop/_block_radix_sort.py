"""coop.block.radix_sort_keys (and _descending): a stable sort of a blocked arrangement of keys
by their bits, one bit per pass. Keys become unsigned integers ordered as the keys are (sign bit
flipped; negative floats all bits flipped); each pass counts the thread's keys whose bit sorts
first, a block-wide exclusive sum of the counts (warp shuffles, one shared slot per warp) gives
every key its place, and the keys are exchanged through shared memory."""
import numpy as np

from . import _common as c
from ._text import BlockShape, warp_inclusive_scan

_SHARED_LIMIT = 48 * 1024


def _masks(dtype, U):
    """Kernel text of the sign bit, all bits and the top bit's index of the key's unsigned type."""
    bits = dtype.itemsize * 8
    return f"{U}({1 << (bits - 1)})", f"{U}({(1 << bits) - 1})", f"{U}({bits - 1})"


def _to_bits(dtype, U, key):
    """Kernel text of `key` as unsigned bits that order as the keys do (floats: their bits in b)."""
    sign, ones, top = _masks(dtype, U)
    if dtype.kind == "u":
        return f"{U}({key})"
    if dtype.kind == "i":
        return f"{U}({key}.view({U}) ^ {sign})"
    return f"{U}(b ^ {ones}) if b >> {top} else {U}(b ^ {sign})"  # negatives: every bit flipped


def _from_bits(dtype, U, u):
    sign, ones, top = _masks(dtype, U)
    T = c.type_name(dtype)
    if dtype.kind == "u":
        return f"{T}({u})"
    if dtype.kind == "i":
        return f"{U}({u} ^ {sign}).view({T})"
    return f"({U}({u} ^ {sign}) if {u} >> {top} else {U}({u} ^ {ones})).view({T})"


def _source(name, dtype, dims, k, descending):
    shape = BlockShape(dims)
    n, W = shape.threads, shape.warps
    U = f"np.uint{dtype.itemsize * 8}"
    first = f"{U}(1)" if descending else f"{U}(0)"  # the bit value that sorts first
    plus = c.Op("+", np.dtype(np.int32), "radix sort")
    L = [f"def {name}(keys, begin_bit=0, end_bit={dtype.itemsize * 8}):"]
    L += shape.preamble("    ")
    L += [f"    u = cuda.local.array({k}, {U})", f"    for i in range({k}):"]
    if dtype.kind == "f":
        L.append(f"        b = keys[i].view({U})")
    L += [f"        u[i] = {_to_bits(dtype, U, 'keys[i]')}",
          f"    sh = cuda.shared.array({n * k}, {U})"]
    if W > 1:
        L.append(f"    cnt = cuda.shared.array({W}, np.int32)")
    L += ["    cuda.syncthreads()",  # a previous call may still be reading sh
          "    for bit in range(begin_bit, end_bit):",
          f"        ub = {U}(bit)",
          "        z = 0",
          f"        for i in range({k}):",
          f"            if (u[i] >> ub) & {U}(1) == {first}:",
          "                z += 1",
          "        inc = np.int32(z)"]
    L += warp_inclusive_scan("inc", "lane", min(c.WARP, n), plus, np.dtype(np.int32), "mask", "        ")
    L.append("        zpre = inc - z")
    if W > 1:
        L += [f"        if {shape.last_lane_test()}:",
              "            cnt[warp] = inc",
              "        cuda.syncthreads()",
              "        total = 0",
              f"        for w in range({W}):",
              "            cw = cnt[w]",
              "            if w < warp:",
              "                zpre += cw",
              "            total += cw"]
    else:
        L.append(f"        total = cuda.shfl_sync(mask, inc, {n - 1})")
    L += ["        zi = zpre",
          f"        oi = total + rank * {k} - zpre",
          f"        for i in range({k}):",
          f"            if (u[i] >> ub) & {U}(1) == {first}:",
          "                sh[zi] = u[i]",
          "                zi += 1",
          "            else:",
          "                sh[oi] = u[i]",
          "                oi += 1",
          "        cuda.syncthreads()",
          f"        for i in range({k}):",
          f"            u[i] = sh[rank * {k} + i]"]
    # The next pass writes sh only after a barrier every thread reaches after reading it: the
    # count barrier when there are several warps, else this one.
    if W == 1:
        L.append("        cuda.syncthreads()")
    L += [f"    for i in range({k}):", f"        keys[i] = {_from_bits(dtype, U, 'u[i]')}"]
    return "\n".join(L) + "\n"


def _radix_sort(where, dtype, threads_per_block, items_per_thread, descending):
    dtype = c.normalize_dtype(dtype, where)
    dims = c.normalize_block(threads_per_block, where)
    items_per_thread = c.normalize_items(items_per_thread, where)
    threads = dims[0] * dims[1] * dims[2]
    warps = (threads + c.WARP - 1) // c.WARP
    storage = threads * items_per_thread * dtype.itemsize + (4 * warps if warps > 1 else 0)
    if storage > _SHARED_LIMIT:
        raise ValueError(f"{where}: sorting {threads} x {items_per_thread} keys of {dtype} exchanges {storage} bytes "
                         f"through shared memory, more than a block has ({_SHARED_LIMIT})")
    order = "descending" if descending else "ascending"
    name = f"coop_block_radix_sort_{order}_{dtype.name}_{c.block_of(dims)}_{items_per_thread}"
    return c.Primitive(where, name, _source(name, dtype, dims, items_per_thread, descending), {}, storage,
                       dtype.itemsize)


def radix_sort_keys(dtype, threads_per_block, items_per_thread):
    """An ascending block-wide sort of keys in a blocked arrangement. In a kernel:
    `block_radix_sort(keys)` with a local array of items_per_thread keys (sorted in place), or
    `block_radix_sort(keys, begin_bit, end_bit)` to sort by those bits of the keys only."""
    return _radix_sort("coop.block.radix_sort_keys", dtype, threads_per_block, items_per_thread, False)


def radix_sort_keys_descending(dtype, threads_per_block, items_per_thread):
    """A descending block-wide sort of keys in a blocked arrangement, called as radix_sort_keys."""
    return _radix_sort("coop.block.radix_sort_keys_descending", dtype, threads_per_block, items_per_thread, True)
