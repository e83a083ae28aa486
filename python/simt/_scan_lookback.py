"""cumsum/cumprod along a contiguous axis in one pass: a decoupled look-back scan. Each block takes
the next tile (threads x items elements of one line) from an atomic counter, so every tile it
waits for belongs to a block that is already running; it loads the tile coalesced into shared
memory, scans it (sequential runs per thread, warp shuffles across threads), publishes its
aggregate, lets warp 0 look back 32 predecessor tiles at a time for an inclusive prefix, then
publishes its own inclusive prefix and stores the tile coalesced."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from ._block_reduce_kernels import FULL_MASK, SHUFFLE_DTYPES

AGGREGATE, INCLUSIVE = 1, 2  # tile status flags (0: nothing published yet)


def applies(x, acc_dt, tuning):
    """Whether the look-back kernel serves a scan of x's last axis: turned on for this backend,
    an accumulator shuffles can move, the scan axis the fastest-varying one, lines long enough."""
    if not tuning.get("tile_threads") or np.dtype(acc_dt) not in SHUFFLE_DTYPES:
        return False
    step = abs(x.strides[-1])
    if any(abs(s) < step for n, s in zip(x.shape[:-1], x.strides[:-1]) if n > 1):
        return False
    return x.shape[-1] >= tuning["tile_min_line"]


def _padded(p):
    """Shared-memory slot of tile position `p` (uint64): one pad slot after every 32."""
    return f"{p} + {p} // np.uint64(32)"


def _op(op, a, b):
    return f"{a} + {b}" if op == "sum" else f"{a} * {b}"


@lru_cache(maxsize=None)
def lookback_source(op, nother, in_dt, acc_dt, out_dt, threads, items):
    T, I = threads, items
    tile = T * I
    NW = max(1, T // 32)
    acc = kg.type_name(acc_dt)
    ident = f"{acc}({0 if op == 'sum' else 1})"
    # Reading through an atomic keeps a stale L1 line from answering; adding -0.0 (or integer 0)
    # leaves every value as it is.
    zero = f"{acc}(-0.0)" if np.dtype(acc_dt).kind == "f" else f"{acc}(0)"
    kept = "".join(f"k{j}, " for j in range(nother))
    slot = _padded("p")
    L = ["def simt_scan_lookback(x, out, flags, agg, incl, tiles_per_line, ntiles):",
         f"    sh = cuda.shared.array({tile + tile // 32}, {acc})",
         f"    warp_total = cuda.shared.array({NW}, {acc})",
         "    tile_sh = cuda.shared.array(1, np.int32)",
         f"    carry_sh = cuda.shared.array(1, {acc})",
         "    tid = cuda.threadIdx.x",
         "    lane = tid % 32",
         "    warp = tid // 32",
         "    if tid == 0:",
         "        tile_sh[0] = cuda.atomic.add(flags, ntiles, 1)",
         "    cuda.syncthreads()",
         "    g = np.int64(tile_sh[0])",
         "    line = g // tiles_per_line",
         "    t = g - line * tiles_per_line"]
    # Element and shared-memory positions are uint64: indices that cannot be negative need no
    # wrap-around and no floor-division sign fix, a handful of instructions per access saved.
    L += kg.unravel("np.uint64(line)", "x", nother, "    ", unsigned=True)
    L += [f"    n = np.uint64(x.shape[{nother}])",
          f"    start = np.uint64(t) * {kg.u64(tile)}",
          "    utid = np.uint64(tid)",
          # Coalesced load: item q of the tile's stripe q; padding every 32 slots keeps the
          # per-thread runs below free of shared-memory bank conflicts. Full tiles load without
          # tests, so that all loads of a thread can be in flight together.
          f"    if start + {kg.u64(tile)} <= n:",
          f"        for q in range({I}):",
          f"            p = np.uint64(q) * {kg.u64(T)} + utid",
          f"            sh[{slot}] = {acc}(x[{kept}start + p])",
          "    else:",
          f"        for q in range({I}):",
          f"            p = np.uint64(q) * {kg.u64(T)} + utid",
          f"            v = {ident}",
          "            if start + p < n:",
          f"                v = {acc}(x[{kept}start + p])",
          f"            sh[{slot}] = v",
          "    cuda.syncthreads()",
          f"    run = {ident}",
          f"    for q in range({I}):",
          f"        p = utid * {kg.u64(I)} + np.uint64(q)",
          f"        run = {_op(op, 'run', f'sh[{slot}]')}",
          f"        sh[{slot}] = run",
          "    s = run"]
    for d in (1, 2, 4, 8, 16):
        L += [f"    y = cuda.shfl_up_sync({FULL_MASK}, s, {d})",
              f"    if lane >= {d}:",
              f"        s = {_op(op, 'y', 's')}"]
    L += [f"    before = cuda.shfl_up_sync({FULL_MASK}, s, 1)",
          "    if lane == 0:",
          f"        before = {ident}",
          "    if lane == 31:",
          "        warp_total[warp] = s",
          "    cuda.syncthreads()",
          f"    total = {ident}",
          f"    for w in range({NW}):",
          "        if w == warp:",
          f"            before = {_op(op, 'total', 'before')}",
          f"        total = {_op(op, 'total', 'warp_total[w]')}",
          # The last warp publishes the aggregate, so that its fence is off the path of warp 0's
          # look-back (with one warp, warp 0 publishes it first).
          f"    if t > 0 and warp == {NW - 1} and lane == 0:",
          "        agg[g] = total",
          "        cuda.threadfence()",
          f"        cuda.atomic.exch(flags, g, {AGGREGATE})",
          "    if warp == 0:",
          f"        prefix = {ident}",
          "        if t > 0:",
          "            back = np.int64(1)",
          "            done = False",
          "            while not done:",
          "                j = g - back - lane",
          f"                f = {INCLUSIVE}",  # before the line's first tile: an empty inclusive prefix
          f"                v = {ident}",
          "                if t - back - lane >= 0:",
          "                    f = cuda.atomic.add(flags, j, 0)",
          "                    while f == 0:",
          "                        f = cuda.atomic.add(flags, j, 0)",
          "                    cuda.threadfence()",
          f"                    if f == {INCLUSIVE}:",
          f"                        v = cuda.atomic.add(incl, j, {zero})",
          "                    else:",
          f"                        v = cuda.atomic.add(agg, j, {zero})",
          f"                found = cuda.ballot_sync({FULL_MASK}, f == {INCLUSIVE})",
          "                if (found & cuda.lanemask_lt()) != 0:",  # past the nearest inclusive prefix
          f"                    v = {ident}"]
    for d in (16, 8, 4, 2, 1):
        L.append(f"                v = {_op(op, 'v', f'cuda.shfl_xor_sync({FULL_MASK}, v, {d})')}")
    L += [f"                prefix = {_op(op, 'v', 'prefix')}",
          "                done = found != 0",
          "                back += 32",
          "        if lane == 0:",
          "            carry_sh[0] = prefix",
          "    cuda.syncthreads()",
          # Published after the barrier: the other threads go on while this one waits on its fence.
          "    if tid == 0:",
          f"        incl[g] = {_op(op, 'carry_sh[0]', 'total')}",
          "        cuda.threadfence()",
          f"        cuda.atomic.exch(flags, g, {INCLUSIVE})",
          f"    c = {_op(op, 'carry_sh[0]', 'before')}",
          f"    for q in range({I}):",
          f"        p = utid * {kg.u64(I)} + np.uint64(q)",
          f"        sh[{slot}] = {_op(op, 'c', f'sh[{slot}]')}",
          "    cuda.syncthreads()",
          f"    if start + {kg.u64(tile)} <= n:",
          f"        for q in range({I}):",
          f"            p = np.uint64(q) * {kg.u64(T)} + utid",
          f"            out[{kept}start + p] = {kg.type_name(out_dt)}(sh[{slot}])",
          "    else:",
          f"        for q in range({I}):",
          f"            p = np.uint64(q) * {kg.u64(T)} + utid",
          "            if start + p < n:",
          f"                out[{kept}start + p] = {kg.type_name(out_dt)}(sh[{slot}])"]
    return "\n".join(L) + "\n"


def tile_shape(tuning, acc_dt):
    """(threads, items, blocks per multiprocessor) of the tiles for accumulator dtype acc_dt."""
    t = {**tuning, **tuning.get("tile_by_itemsize", {}).get(np.dtype(acc_dt).itemsize, {})}
    T, I = t["tile_threads"], t["tile_items"]
    if T % 32 or I < 1:
        raise ValueError(f"internal: scan tiles need whole warps and items, not {T} threads x {I} items")
    return T, I, t.get("tile_blocks_per_sm", 1)


def scan_lines(plan, op, x, out, acc_dt, tuning):
    """Records out = scan of x along its last axis (views of the same shape), one launch of one
    block per tile."""
    T, I, blocks_per_sm = tile_shape(tuning, acc_dt)
    n = x.shape[-1]
    nlines = x.size // n
    tiles_per_line = -(-n // (T * I))
    ntiles = nlines * tiles_per_line
    flags = plan.temp((ntiles + 1,), np.int32, zeroed=True)  # one status per tile, then the tile counter
    agg = plan.temp((ntiles,), acc_dt)
    incl = plan.temp((ntiles,), acc_dt)
    src = lookback_source(op, x.ndim - 1, np.dtype(x.dtype), np.dtype(acc_dt), np.dtype(out.dtype), T, I)
    # Registers capped so that `blocks_per_sm` blocks fit on a multiprocessor together.
    k = kg.kernel("simt_scan_lookback", src, boundscheck=False, max_registers=kg.register_cap(T, blocks_per_sm))
    plan.launch(k, ntiles, T, x, out, flags, agg, incl, tiles_per_line, ntiles)
