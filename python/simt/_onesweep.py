"""One-sweep LSD radix sort of one long row of unsigned keys (values carried along): one launch
reads the keys once for the digit histograms of every pass, then each 8-bit digit pass is a
single launch in which every tile ranks its keys, learns from the tiles before it how many keys
of each digit precede it (decoupled look-back), and writes its keys out through shared memory,
so that the writes of one digit's run are contiguous.

A tile is `threads` x `items` keys; block b takes the next tile from an atomic counter, so every
tile it waits for belongs to a block that is already running (on a GPU and on the cpu backend's
thread pool alike). Each (pass, tile, digit) has a status word: 0 until published, then the
tile's count of that digit with the AGGREGATE flag, or the count of that digit over this and
every earlier tile with the INCLUSIVE flag. Flag and count share one 32-bit word, so one atomic
exchange publishes both (no fence), which limits a row to fewer than 2**30 keys."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from . import _radix_kernels as rk
from ._block_reduce_kernels import FULL_MASK

RADIX_BITS = 8
RADIX = 1 << RADIX_BITS
AGGREGATE, INCLUSIVE = 1 << 30, 2 << 30
COUNT_MASK = (1 << 30) - 1
MAX_KEYS = 1 << 30
SHARED_BYTES = 36 * 1024  # for the tile's keys and values (the digit counts take 8 KiB more)


def applies(nrows, n, tuning):
    """Whether one-sweep passes sort rows of `n` keys: turned on for the backend, a single row
    long enough, and few enough keys for a status word's count."""
    return nrows == 1 and tuning.get("onesweep_min", 0) > 0 and tuning["onesweep_min"] <= n < MAX_KEYS


def tile_items(tuning, key_dt, val_dt):
    """Keys per thread: as many as the tile's keys and values fit in SHARED_BYTES, at most the
    tuning's `onesweep_items`."""
    per_key = np.dtype(key_dt).itemsize + (0 if val_dt is None else np.dtype(val_dt).itemsize)
    return max(1, min(tuning["onesweep_items"], SHARED_BYTES // (RADIX * per_key)))


def _digit(u, shift, mask, flip):
    return f"(np.int32(({u} >> {shift}) & {mask}) ^ {flip})"


@lru_cache(maxsize=None)
def histogram_source(passes, threads):
    """hist[p * RADIX + d] += how many keys have digit d in pass p, for every pass at once;
    `passes`: (shift, mask, flip) of each, baked in. Blocks stride over the row."""
    P, T = len(passes), threads
    L = ["def simt_onesweep_histogram(keys, hist, n):",
         f"    h = cuda.shared.array({P * RADIX}, np.int32)",
         "    tid = cuda.threadIdx.x",
         f"    for x in range(tid, {P * RADIX}, {T}):",
         "        h[x] = 0",
         "    cuda.syncthreads()",
         "    i = np.int64(cuda.grid(1))",
         "    stride = np.int64(cuda.gridsize(1))",
         "    while i < n:",
         "        u = np.uint64(keys[i])"]
    for p, (shift, mask, flip) in enumerate(passes):
        d = _digit("u", f"np.uint64({shift})", f"np.uint64({mask})", flip)
        L.append(f"        cuda.atomic.add(h, {p * RADIX} + {d}, 1)")
    L += ["        i += stride",
          "    cuda.syncthreads()",
          f"    for x in range(tid, {P * RADIX}, {T}):",
          "        c = h[x]",
          "        if c != 0:",
          "            cuda.atomic.add(hist, x, c)"]
    return "\n".join(L) + "\n"


def _block_exclusive_scans(names, NW):
    """Lines that give each thread `ex_<name>`: the sum of `<name>` over the threads before it
    (warp shuffles, then the warp totals in shared `wsum`, one row of NW per name)."""
    L = [f"    in_{v} = {v}" for v in names]
    for d in (1, 2, 4, 8, 16):
        L += [f"    up_{v} = cuda.shfl_up_sync({FULL_MASK}, in_{v}, {d})" for v in names]
        L += [f"    if lane >= {d}:"] + [f"        in_{v} += up_{v}" for v in names]
    L += ["    if lane == 31:"] + [f"        wsum[{r * NW} + warp] = in_{v}" for r, v in enumerate(names)]
    L += ["    cuda.syncthreads()"] + [f"    ex_{v} = in_{v} - {v}" for v in names]
    L += [f"    for w in range({NW}):", "        if w < warp:"]
    L += [f"            ex_{v} += wsum[{r * NW} + w]" for r, v in enumerate(names)]
    return L


@lru_cache(maxsize=None)
def pass_source(key_dt, val_dt, threads, items):
    """One digit pass over the row: keys (and values) to keys_out (and vals_out), stably by the
    digit ((key >> shift) & mask) ^ flip. `hist` holds the pass's digit counts over the row;
    `status` the (pass, tile, digit) words, then one tile counter per pass."""
    T, I = threads, items
    if T != RADIX:
        raise ValueError(f"internal: one-sweep passes take one thread per digit ({RADIX}), not {T}")
    NW, TILE = T // 32, T * items
    K = kg.type_name(key_dt)
    vals = val_dt is not None
    V = kg.type_name(val_dt) if vals else None
    digit = _digit("np.uint64({})", "sh", "m", "flip")
    L = [f"def simt_onesweep_pass(keys, {'vals, ' if vals else ''}keys_out, {'vals_out, ' if vals else ''}"
         "hist, status, n, ntiles, npasses, pass_index, shift, mask, flip):",
         f"    ks = cuda.shared.array({TILE}, {K})"]
    if vals:
        L.append(f"    vs = cuda.shared.array({TILE}, {V})")
    L += [f"    whist = cuda.shared.array({NW * RADIX}, np.int32)",  # per warp: keys of each digit so far
          f"    dstart = cuda.shared.array({RADIX}, np.int32)",      # the tile's first position of each digit
          f"    gbase = cuda.shared.array({RADIX}, np.int64)",       # output position minus tile position
          f"    wsum = cuda.shared.array({2 * NW}, np.int32)",
          "    tile_sh = cuda.shared.array(1, np.int32)",
          "    tid = cuda.threadIdx.x",
          "    lane = tid % 32",
          "    warp = tid // 32",
          "    if tid == 0:",
          f"        tile_sh[0] = np.int32(cuda.atomic.add(status, npasses * ntiles * {RADIX} + pass_index, np.uint32(1)))",
          f"    for x in range(tid, {NW * RADIX}, {T}):",
          "        whist[x] = 0",
          "    cuda.syncthreads()",
          "    tile = np.int64(tile_sh[0])",
          f"    start = tile * {TILE}",
          "    sh = np.uint64(shift)",
          "    m = np.uint64(mask)",
          f"    kr = cuda.local.array({I}, {K})",
          f"    dr = cuda.local.array({I}, np.int32)",
          f"    rr = cuda.local.array({I}, np.int32)"]
    if vals:
        L.append(f"    vr = cuda.local.array({I}, {V})")
    # Each warp ranks its own run of 32 x items keys, 32 at a time in order: a key's rank among
    # the warp's keys of its digit is the count before this round plus its lower-lane peers.
    L += [f"    wstart = start + warp * {32 * I}",
          f"    for j in range({I}):",
          "        i = wstart + j * 32 + lane",
          f"        d = np.int32({RADIX})",  # past the row's end: a group of its own that places nothing
          f"        k = {K}(0)"]
    if vals:
        L.append(f"        v = {V}(0)")
    L += ["        if i < n:",
          "            k = keys[i]",
          f"            d = {digit.format('k')}"]
    if vals:
        L.append("            v = vals[i]")
    L += [f"        peers = np.uint32(cuda.match_any_sync({FULL_MASK}, d))",
          "        below = cuda.popc(peers & cuda.lanemask_lt())",
          "        old = np.int32(0)",
          f"        if d < {RADIX}:",
          f"            old = whist[warp * {RADIX} + d]",
          f"        cuda.syncwarp({FULL_MASK})",
          f"        if d < {RADIX} and below == cuda.popc(peers) - 1:",
          f"            whist[warp * {RADIX} + d] = old + below + 1",
          f"        cuda.syncwarp({FULL_MASK})",
          "        kr[j] = k",
          "        dr[j] = d",
          "        rr[j] = old + below"]
    if vals:
        L.append("        vr[j] = v")
    # Thread `tid` now stands for digit `tid`: the warps' counts become exclusive offsets, the
    # tile's count is published, and two block-wide scans give the digit's first position in
    # the tile and (over the row's histogram) in the output.
    L += ["    cuda.syncthreads()",
          "    count = np.int32(0)",
          f"    for w in range({NW}):",
          f"        c = whist[w * {RADIX} + tid]",
          f"        whist[w * {RADIX} + tid] = count",
          "        count += c",
          f"    me = (np.int64(pass_index) * ntiles + tile) * {RADIX} + tid",
          "    if tile == 0:",
          f"        cuda.atomic.exch(status, me, np.uint32(count) | np.uint32({INCLUSIVE}))",
          "    else:",
          f"        cuda.atomic.exch(status, me, np.uint32(count) | np.uint32({AGGREGATE}))",
          f"    total = hist[pass_index * {RADIX} + tid]"]
    L += _block_exclusive_scans(("count", "total"), NW)
    L += ["    dstart[tid] = ex_count",
          "    before = np.int64(0)",
          "    if tile > 0:",
          f"        p = me - {RADIX}",
          "        done = False",
          "        while not done:",
          "            s = cuda.atomic.add(status, p, np.uint32(0))",  # an atomic read: never a stale line
          "            while s == np.uint32(0):",
          "                s = cuda.atomic.add(status, p, np.uint32(0))",
          f"            before += np.int64(s & np.uint32({COUNT_MASK}))",
          f"            done = s >= np.uint32({INCLUSIVE})",
          f"            p -= {RADIX}",
          f"        cuda.atomic.exch(status, me, np.uint32(before + count) | np.uint32({INCLUSIVE}))",
          "    gbase[tid] = np.int64(ex_total) + before - np.int64(ex_count)",
          "    cuda.syncthreads()",
          f"    for j in range({I}):",
          "        d = dr[j]",
          f"        if d < {RADIX}:",
          f"            q = dstart[d] + whist[warp * {RADIX} + d] + rr[j]",
          "            ks[q] = kr[j]"]
    if vals:
        L.append("            vs[q] = vr[j]")
    L += ["    cuda.syncthreads()",
          f"    valid = min(np.int64({TILE}), n - start)",
          f"    for j in range({I}):",
          f"        q = j * {T} + tid",
          "        if q < valid:",
          "            k = ks[q]",
          f"            o = gbase[{digit.format('k')}] + q",
          "            keys_out[o] = k"]
    if vals:
        L.append("            vals_out[o] = vs[q]")
    return "\n".join(L) + "\n"


def sort_row(keys, values, keys_out, values_out, begin_bit, end_bit, descending, tuning):
    """Stable sort of the 1-D contiguous unsigned `keys` (one row, fewer than 2**30 keys) on bits
    [begin_bit, end_bit) into keys_out, values (or None) along into values_out."""
    from ._creation import empty, zeros
    n = keys.size
    key_dt = np.dtype(keys.dtype)
    val_dt = None if values is None else np.dtype(values.dtype)
    passes = rk.digit_passes(begin_bit, end_bit, descending, RADIX_BITS)
    T = RADIX
    I = tile_items(tuning, key_dt, val_dt)
    ntiles = -(-n // (T * I))
    P = len(passes)
    hist = zeros((P * RADIX,), np.int32)
    status = zeros((P * ntiles * RADIX + P,), np.uint32)
    if kg.backend_kind() == "cpu":
        hist_blocks = kg.cpu_cores()
    else:
        hist_blocks = min(-(-n // (T * 16)), kg.multiprocessor_count() * 4)
    kg.launch(kg.kernel("simt_onesweep_histogram", histogram_source(tuple(passes), T), boundscheck=False),
              hist_blocks, T, keys, hist, n)
    k = kg.kernel("simt_onesweep_pass", pass_source(key_dt, val_dt, T, I), boundscheck=False)
    tmp_k = empty((n,), key_dt) if P > 1 else None
    tmp_v = empty((n,), val_dt) if P > 1 and values is not None else None
    for p, step, _, args in rk.ping_pong(passes, keys, values, keys_out, values_out, tmp_k, tmp_v):
        kg.launch(k, ntiles, T, *args, hist, status, n, ntiles, P, p, *step)
