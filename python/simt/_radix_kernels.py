"""Kernel sources of the segmented LSD radix sort: per-tile digit histograms, the stable scatter of
one digit pass, and a one-thread-per-row insertion sort for rows too short to tile.

Keys are unsigned integers laid out as rows of `n` (row r at r * n); a tile is a block's share of
one row, so rows are sorted side by side in one launch. The digit of a key for a pass is
((key >> shift) & mask) ^ flip: `flip` = mask sorts descending."""
from functools import lru_cache

from . import _kernelgen as kg
from ._block_reduce_kernels import FULL_MASK


def digit_passes(begin_bit, end_bit, descending, bits):
    """(shift, mask, flip) of each LSD pass over bits [begin_bit, end_bit), `bits` at a time
    (the last pass may be narrower); flip = mask sorts descending."""
    steps = []
    for shift in range(begin_bit, end_bit, bits):
        mask = (1 << min(bits, end_bit - shift)) - 1
        steps.append((shift, mask, mask if descending else 0))
    return steps


def ping_pong(steps, keys, values, keys_out, values_out, tmp_k, tmp_v):
    """Per pass: (its index, its (shift, mask, flip), the keys it reads, the arrays its scatter
    takes: source keys [and values], destination keys [and values]). Passes alternate between
    the temporaries and the outputs so that the last one writes the outputs."""
    src = (keys, values)
    for p, step in enumerate(steps):
        dst = (keys_out, values_out) if (len(steps) - 1 - p) % 2 == 0 else (tmp_k, tmp_v)
        yield p, step, src[0], ((src[0], dst[0]) if values is None else (*src, *dst))
        src = dst


def _tile_prologue(tile):
    """Block -> (row, tile), the tile's element range [lo, hi) within its row, the row's base."""
    return ["    tid = cuda.threadIdx.x",
            "    b = np.int64(cuda.blockIdx.x)",
            "    row = b // tpr",
            "    tile = b - row * tpr",
            f"    lo = tile * {tile}",
            f"    hi = min(lo + {tile}, n)",
            "    rowbase = row * n",
            "    sh = np.uint64(shift)",
            "    m = np.uint64(mask)"]


def _digit(key):
    return f"(np.int32(({key} >> sh) & m) ^ flip)"


@lru_cache(maxsize=None)
def histogram_source(key_dt, threads, items, radix, count_dt):
    """counts[row, digit * tpr + tile] = how many keys of the tile have that digit (digit-major in
    the row, so an exclusive scan along the row gives each (digit, tile) its first position)."""
    T, R = threads, radix
    L = ["def simt_radix_histogram(keys, counts, n, tpr, shift, mask, flip):",
         f"    hist = cuda.shared.array({R}, np.int32)"] + _tile_prologue(T * items)
    L += [f"    for d in range(tid, {R}, {T}):",
          "        hist[d] = 0",
          "    cuda.syncthreads()",
          "    i = lo + tid",
          "    while i < hi:",
          f"        cuda.atomic.add(hist, {_digit('np.uint64(keys[rowbase + i])')}, 1)",
          f"        i += {T}",
          "    cuda.syncthreads()",
          f"    for d in range(tid, {R}, {T}):",
          f"        counts[row, d * tpr + tile] = {kg.type_name(count_dt)}(hist[d])"]
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def scatter_source(key_dt, val_dt, threads, items, radix):
    """One stable digit pass: each key (and value) of the tile goes to its row's start + the scanned
    offset of (digit, tile) + its rank among the tile's earlier keys of that digit. The tile is read
    in rounds of one element per thread; within a round a key's rank is its warp peers of lower
    lane (match_any) plus the same digit's count in lower warps."""
    T, I, R = threads, items, radix
    NW = T // 32
    vals = val_dt is not None
    L = [f"def simt_radix_scatter(keys, {'vals, ' if vals else ''}keys_out, {'vals_out, ' if vals else ''}"
         "counts, incl, n, tpr, shift, mask, flip):",
         f"    base = cuda.shared.array({R}, np.int64)",
         f"    wcnt = cuda.shared.array({NW * R}, np.int32)"] + _tile_prologue(T * I)
    L += ["    lane = tid % 32",
          "    warp = tid // 32",
          f"    for d in range(tid, {R}, {T}):",
          "        c = d * tpr + tile",
          "        base[d] = rowbase + np.int64(incl[row, c]) - np.int64(counts[row, c])",
          f"        for w in range({NW}):",
          f"            wcnt[w * {R} + d] = 0",
          "    cuda.syncthreads()",
          f"    for q in range({I}):",
          f"        if lo + q * {T} < hi:",  # the same test in every thread: barriers stay uniform
          f"            i = lo + q * {T} + tid",
          "            valid = i < hi",
          f"            d = {R}",  # lanes past the end form their own group and place nothing
          "            k = keys[rowbase]",
          "            if valid:",
          "                k = keys[rowbase + i]",
          f"                d = {_digit('np.uint64(k)')}",
          f"            peers = np.uint32(cuda.match_any_sync({FULL_MASK}, d))",
          "            rank = cuda.popc(peers & cuda.lanemask_lt())",
          "            if valid and (peers >> np.uint32(lane)) == np.uint32(1):",  # the warp's last key of this digit
          f"                wcnt[warp * {R} + d] = rank + 1",
          "            cuda.syncthreads()",
          "            if valid:",
          "                pos = base[d] + rank",
          "                for w in range(warp):",
          f"                    pos += wcnt[w * {R} + d]",
          "                keys_out[pos] = k"]
    if vals:
        L.append("                vals_out[pos] = vals[rowbase + i]")
    L += ["            cuda.syncthreads()",
          f"            for dd in range(tid, {R}, {T}):",
          "                s = np.int64(0)",
          f"                for w in range({NW}):",
          f"                    s += wcnt[w * {R} + dd]",
          f"                    wcnt[w * {R} + dd] = 0",
          "                base[dd] += s",
          "            cuda.syncthreads()"]
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def short_rows_source(key_dt, val_dt, max_len):
    """One thread per row of at most `max_len` keys: a stable insertion sort in local arrays on the
    (shifted, masked, flipped) key bits."""
    vals = val_dt is not None
    K = kg.type_name(key_dt)
    L = [f"def simt_sort_short_rows(keys, {'vals, ' if vals else ''}keys_out, {'vals_out, ' if vals else ''}"
         "nrows, n, shift, mask, flip):",
         "    r = np.int64(cuda.grid(1))",
         "    if r < nrows:",
         "        sh = np.uint64(shift)",
         "        m = np.uint64(mask)",
         "        f = np.uint64(flip)",
         f"        ks = cuda.local.array({max_len}, {K})",
         f"        ds = cuda.local.array({max_len}, np.uint64)"]
    if vals:
        L.append(f"        vs = cuda.local.array({max_len}, {kg.type_name(val_dt)})")
    L += ["        base = r * n",
          "        for i in range(n):",
          "            k = keys[base + i]",
          "            dk = ((np.uint64(k) >> sh) & m) ^ f"]
    if vals:
        L.append("            v = vals[base + i]")
    L += ["            j = i",
          "            while j > 0 and ds[j - 1] > dk:",  # strictly greater: equal keys keep their order
          "                ks[j] = ks[j - 1]",
          "                ds[j] = ds[j - 1]"]
    if vals:
        L.append("                vs[j] = vs[j - 1]")
    L += ["                j -= 1",
          "            ks[j] = k",
          "            ds[j] = dk"]
    if vals:
        L.append("            vs[j] = v")
    L += ["        for i in range(n):",
          "            keys_out[base + i] = ks[i]"]
    if vals:
        L.append("            vals_out[base + i] = vs[i]")
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def block_rows_source(val_dt, padded, threads):
    """One block per row of at most `padded` keys (a power of two): a bitonic sorting network in
    shared memory on (key bits, position) pairs, so equal keys keep their order, then a gather of
    the keys (and values) from their old positions. One launch, where the digit passes take a few
    per pass: the path for rows too short to fill tiles."""
    vals = val_dt is not None
    P, T = padded, threads
    L = [f"def simt_sort_block_rows(keys, {'vals, ' if vals else ''}keys_out, {'vals_out, ' if vals else ''}"
         "n, shift, mask, flip):",
         f"    sk = cuda.shared.array({P}, np.uint64)",
         f"    si = cuda.shared.array({P}, np.int32)",
         "    tid = cuda.threadIdx.x",
         "    base = np.int64(cuda.blockIdx.x) * n",
         "    sh = np.uint64(shift)",
         "    m = np.uint64(mask)",
         "    f = np.uint64(flip)",
         f"    for i in range(tid, {P}, {T}):",
         "        if i < n:",
         "            sk[i] = ((np.uint64(keys[base + i]) >> sh) & m) ^ f",
         "        else:",
         "            sk[i] = ~np.uint64(0)",  # (padding: last, after any real key of that value by position)
         "        si[i] = np.int32(i)",
         "    cuda.syncthreads()",
         "    k = 2",
         f"    while k <= {P}:",
         "        j = k // 2",
         "        while j > 0:",
         f"            for t in range(tid, {P // 2}, {T}):",
         "                lo = (t // j) * 2 * j + t % j",  # the pair (lo, lo + j), lo's bit j clear
         "                hi = lo + j",
         "                a = sk[lo]",
         "                b = sk[hi]",
         "                ia = si[lo]",
         "                ib = si[hi]",
         "                if (a > b or (a == b and ia > ib)) == ((lo & k) == 0):",
         "                    sk[lo] = b",
         "                    sk[hi] = a",
         "                    si[lo] = ib",
         "                    si[hi] = ia",
         "            cuda.syncthreads()",
         "            j //= 2",
         "        k *= 2",
         f"    for i in range(tid, n, {T}):",
         "        src = base + si[i]",
         "        keys_out[base + i] = keys[src]"]
    if vals:
        L.append("        vals_out[base + i] = vals[src]")
    return "\n".join(L) + "\n"
