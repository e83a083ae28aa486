"""LSD radix sort for the cpu backend: each block is one thread that owns a contiguous tile of a
row and walks it in order, so a digit pass is plain loops (a histogram of the tile, then a
stable scatter through per-digit cursors) with no barriers or warp operations, which the cpu
backend would run on fibers. Rows are laid end to end (row r at r * n); tiles split long rows
so that every core has work, and short rows are one tile each.

Per pass: the tiles' digit counts go to counts[row, digit * tpr + tile] (digit-major, so a scan
along the row gives each (digit, tile) its first output position), then the scatter."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from . import _radix_kernels as rk
from . import _sort_keys

RADIX_BITS = 8
RADIX = 1 << RADIX_BITS


def _tile_lines():
    """Thread -> (row, tile, the tile's range [lo, hi) within the row, the row's base)."""
    return ["    b = np.int64(cuda.grid(1))",
            "    if b < ntiles:",
            "        row = b // tpr",
            "        t = b - row * tpr",
            "        lo = t * tile",
            "        hi = min(lo + tile, n)",
            "        base = row * n",
            "        sh = np.uint64(shift)",
            "        m = np.uint64(mask)",
            "        f = np.uint64(flip)"]


def _digit(u):
    # Unsigned: digits index local arrays, and unsigned indices skip Python's negative wrap-around.
    return f"((({u} >> sh) & m) ^ f)"


# Keys may arrive as the raw bits of the values being sorted (key_in: their dtype, transformed
# into keys as they are read, python/simt/_sort_keys.py) and leave as raw bits (key_out: the
# dtype to turn them back into), so that simt.sort needs no launches of its own for that.
def _read_key(key_in, ind):
    """Statements: u = the key (uint64) of value k just read."""
    return [f"{ind}u = np.uint64(k)"] + (_sort_keys.key_lines(key_in, "u", ind) if key_in is not None else [])


def _store_key(key_in, key_out, key_type, target, ind):
    """Statements storing key u (read as k) to `target`: as a key, or as raw bits for key_out."""
    if key_out is not None and key_in is not None:
        return [f"{ind}{target} = k"]  # read raw and written raw: the value itself
    if key_out is not None:
        return _sort_keys.unkey_lines(key_out, "u", ind) + [f"{ind}{target} = {key_type}(u)"]
    return [f"{ind}{target} = {key_type}(u)" if key_in is not None else f"{ind}{target} = k"]


@lru_cache(maxsize=None)
def histogram_source(count_dt, key_in=None):
    L = ["def simt_radix_serial_histogram(keys, counts, n, tpr, tile, ntiles, shift, mask, flip):"] + _tile_lines()
    L += [f"        h = cuda.local.array({RADIX}, np.uint64)",
          f"        for d in range({RADIX}):",
          "            h[d] = np.uint64(0)",
          "        for i in range(lo, hi):",
          "            k = keys[base + i]"]
    L += _read_key(key_in, " " * 12)
    L += [f"            h[{_digit('u')}] += np.uint64(1)",
          f"        for d in range({RADIX}):",
          f"            counts[row, d * tpr + t] = {kg.type_name(count_dt)}(h[d])"]
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def scatter_source(key_dt, val_dt, key_in=None, key_out=None):
    """The stable scatter of one pass; each tile finds its first output position of each digit
    from the counts itself (keys of smaller digits in the row, then of its digit in earlier
    tiles): a few thousand additions, where a separate scan would be launches of its own.
    (Counting the next pass's digits here, by each key's destination tile, measured no faster
    than the separate histogram: both are bound by the counters' dependency chains.)"""
    vals = val_dt is not None
    L = [f"def simt_radix_serial_scatter(keys, {'vals, ' if vals else ''}keys_out, {'vals_out, ' if vals else ''}"
         "counts, n, tpr, tile, ntiles, shift, mask, flip):"] + _tile_lines()
    L += [f"        pos = cuda.local.array({RADIX}, np.uint64)",
          "        o = np.uint64(base)",
          f"        for e in range({RADIX}):",
          "            mine = o",
          "            for w in range(tpr):",
          "                c = np.uint64(counts[row, e * tpr + w])",
          "                if w < t:",
          "                    mine += c",
          "                o += c",
          "            pos[e] = mine",
          "        for i in range(lo, hi):",
          "            k = keys[base + i]"]
    L += _read_key(key_in, " " * 12)
    L += [f"            d = {_digit('u')}",
          "            o = pos[d]",
          "            pos[d] = o + np.uint64(1)"]
    L += _store_key(key_in, key_out, kg.type_name(key_dt), "keys_out[o]", " " * 12)
    if vals:
        L.append("            vals_out[o] = vals[base + i]")
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def row_source(key_dt, val_dt, passes, key_in=None, key_out=None):
    """One thread sorts a whole row: the digit counts of every pass from one read (a row's counts
    do not depend on its order), then each pass's scatter, ping-ponging between `tmp` and the
    output so that the last pass writes the output. `passes`: (shift, mask, flip) of each."""
    vals = val_dt is not None
    P = len(passes)
    K = kg.type_name(key_dt)
    L = [f"def simt_radix_serial_rows(keys, {'vals, ' if vals else ''}tmp_k, {'tmp_v, ' if vals else ''}"
         f"keys_out, {'vals_out, ' if vals else ''}nrows, n):",
         "    r = np.int64(cuda.grid(1))",
         "    if r < nrows:",
         "        base = r * n",
         f"        h = cuda.local.array({P * RADIX}, np.int64)",
         f"        for d in range({P * RADIX}):",
         "            h[d] = 0",
         "        for i in range(n):",
         "            k = keys[base + i]"]
    L += _read_key(key_in, " " * 12)
    digits = [f"(((u >> np.uint64({sh})) & np.uint64({m})) ^ np.uint64({f}))" for sh, m, f in passes]
    L += [f"            h[np.uint64({p * RADIX}) + {d}] += 1" for p, d in enumerate(digits)]
    src_k, src_v = "keys", "vals"
    for p, d in enumerate(digits):
        dst_k, dst_v = ("keys_out", "vals_out") if (P - 1 - p) % 2 == 0 else ("tmp_k", "tmp_v")
        first, last = p == 0, p == P - 1
        L += ["        o = base",
              f"        for d in range({RADIX}):",  # h becomes each digit's next output position
              f"            c = h[{p * RADIX} + d]",
              f"            h[{p * RADIX} + d] = o",
              "            o += c",
              "        for i in range(n):",
              f"            k = {src_k}[base + i]"]
        L += _read_key(key_in if first else None, " " * 12)
        L += [f"            o = h[np.uint64({p * RADIX}) + {d}]",
              f"            h[np.uint64({p * RADIX}) + {d}] = o + 1"]
        L += _store_key(key_in if first else None, key_out if last else None, K, f"{dst_k}[o]", " " * 12)
        if vals:
            L.append(f"            {dst_v}[o] = {src_v}[base + i]")
        src_k, src_v = dst_k, dst_v
    return "\n".join(L) + "\n"


def tiles_per_row(nrows, n, tuning):
    """Tiles of each row: enough tiles in all for `serial_tiles_per_core` per core, none shorter
    than `serial_min_tile` keys."""
    wanted = -(-kg.cpu_cores() * tuning["serial_tiles_per_core"] // nrows)
    return max(1, min(wanted, n // tuning["serial_min_tile"]))


def sort_rows(keys, values, keys_out, values_out, n, begin_bit, end_bit, descending, tuning, raw_dtype=None):
    """Stable sort of each row of `n` keys of the 1-D contiguous unsigned `keys` on bits
    [begin_bit, end_bit) into keys_out, values (or None) along into values_out. With raw_dtype,
    `keys` and `keys_out` hold the bits of values of that dtype (not their keys): they are made
    keys as they are read and written back as values."""
    from ._creation import empty
    N = keys.size
    nrows = N // n
    passes = rk.digit_passes(begin_bit, end_bit, descending, RADIX_BITS)
    key_dt = np.dtype(keys.dtype)
    raw = None if raw_dtype is None else np.dtype(raw_dtype)
    val_dt = None if values is None else np.dtype(values.dtype)
    # Ping-pong between temporaries and the outputs, arranged so that the last pass writes the outputs.
    tmp_k = empty((N,), key_dt) if len(passes) > 1 else keys_out
    tmp_v = (empty((N,), val_dt) if len(passes) > 1 else values_out) if values is not None else None
    tpr = tiles_per_row(nrows, n, tuning)
    if tpr == 1:
        k = kg.kernel("simt_radix_serial_rows", row_source(key_dt, val_dt, tuple(passes), raw, raw), boundscheck=False)
        args = (keys, tmp_k, keys_out) if values is None else (keys, values, tmp_k, tmp_v, keys_out, values_out)
        kg.launch_1d(k, nrows, *args, nrows, n)
        return
    tile = -(-n // tpr)
    ntiles = nrows * tpr
    count_dt = np.dtype(np.int32) if N < 2 ** 31 else np.dtype(np.int64)
    counts = empty((nrows, RADIX * tpr), count_dt)
    for p, step, src_k, args in rk.ping_pong(passes, keys, values, keys_out, values_out, tmp_k, tmp_v):
        key_in, key_out = (raw if p == 0 else None), (raw if p == len(passes) - 1 else None)
        hist = kg.kernel("simt_radix_serial_histogram", histogram_source(count_dt, key_in), boundscheck=False)
        scatter = kg.kernel("simt_radix_serial_scatter", scatter_source(key_dt, val_dt, key_in, key_out),
                            boundscheck=False)
        kg.launch_1d(hist, ntiles, src_k, counts, n, tpr, tile, ntiles, *step)
        kg.launch_1d(scatter, ntiles, *args, counts, n, tpr, tile, ntiles, *step)
