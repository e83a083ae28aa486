"""simt.cumsum / simt.cumprod: a blocked multi-pass scan. Every line along the scan axis is cut
into tiles; a first pass folds each tile, a recursive scan of those tile totals gives each tile
its carry, and a last pass scans each tile from its carry. Long lines thus spread over many
threads; with many lines one pass (one thread per line) is enough."""
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from ._launch_plan import Buf, Plan, PlanCache
from ._reduce_passes import (axis_key, finish, normalize_axes, real_if_cast_from_complex, require_array,
                             resolved_tuning, result_dtypes)

# Per-backend: how many threads a scan aims for and the smallest tile worth a thread.
# `tile_threads` (0 or absent: off) turns on the single-pass look-back scan (_scan_lookback) for
# lines along the fastest axis of at least `tile_min_line` elements, tiles of tile_threads x
# tile_items elements, registers capped so that `tile_blocks_per_sm` blocks fit on a multiprocessor;
# `tile_by_itemsize` overrides those three by the accumulator's size in bytes.
# The cuda values were picked on an H200 with bench/probes/tune_reduce_scan.py (2026-11-30, cumsum
# of 2**26 and 2**28 elements: float32 2.29 -> 2.96 and 2.34 -> 3.15 TB/s against 256 x 16 tiles,
# float64 2.90 -> 3.15 and 3.02 -> 3.28 TB/s).
TUNING = {
    "cuda": {"threads": 1 << 16, "min_tile": 64, "tile_threads": 256, "tile_items": 16, "tile_min_line": 512,
             "tile_blocks_per_sm": 6,
             "tile_by_itemsize": {4: {"tile_threads": 256, "tile_items": 32, "tile_blocks_per_sm": 6},
                                  8: {"tile_threads": 128, "tile_items": 32, "tile_blocks_per_sm": 8}}},
    "cpu": {"threads": None, "min_tile": 16384},
}

_plans = PlanCache()


def _line_prologue(nother):
    """Statements mapping thread t to (line, tile) and the line to its indices k0.. (x, out
    have the scan axis last)."""
    L = ["    t = cuda.grid(1)",
         "    if t < nlines * ntiles:",
         "        if lines_fastest:",  # neighbouring threads take neighbouring lines
         "            tile_i = t // nlines",
         "            line = t - tile_i * nlines",
         "        else:",
         "            line = t // ntiles",
         "            tile_i = t - line * ntiles"]
    L += kg.unravel("line", "x", nother, " " * 8)
    L += [f"        j = tile_i * tile",
          f"        stop = min(j + tile, x.shape[{nother}])"]
    return L


def _combine(op, a, b):
    return f"{a} + {b}" if op == "sum" else f"{a} * {b}"


@lru_cache(maxsize=None)
def tile_totals_source(op, nother, in_dt, acc_dt):
    prefix = "".join(f"k{j}, " for j in range(nother))
    L = ["def simt_scan_totals(x, totals, nlines, ntiles, tile, lines_fastest):"] + _line_prologue(nother)
    L += [f"        acc = {kg.type_name(acc_dt)}({0 if op == 'sum' else 1})",
          "        while j < stop:",
          f"            acc = {_combine(op, 'acc', f'{kg.type_name(acc_dt)}(x[{prefix}j])')}",
          "            j += 1",
          "        totals[line, tile_i] = acc"]
    return "\n".join(L) + "\n"


@lru_cache(maxsize=None)
def scan_tiles_source(op, nother, in_dt, acc_dt, out_dt, has_carry):
    prefix = "".join(f"k{j}, " for j in range(nother))
    L = ["def simt_scan(x, out, carry, nlines, ntiles, tile, lines_fastest):"] + _line_prologue(nother)
    L.append(f"        acc = {kg.type_name(acc_dt)}({0 if op == 'sum' else 1})")
    if has_carry:  # carry holds the inclusive scan of the tile totals
        L += ["        if tile_i > 0:",
              "            acc = carry[line, tile_i - 1]"]
    L += ["        while j < stop:",
          f"            acc = {_combine(op, 'acc', f'{kg.type_name(acc_dt)}(x[{prefix}j])')}",
          f"            out[{prefix}j] = {kg.type_name(out_dt)}(acc)",
          "            j += 1"]
    return "\n".join(L) + "\n"


def _scan_lines(plan, op, x, out, acc_dt, tuning):
    """Records out = scan of x along its last axis (both views of the same shape)."""
    from . import _scan_lookback
    if _scan_lookback.applies(x, acc_dt, tuning):
        return _scan_lookback.scan_lines(plan, op, x, out, acc_dt, tuning)
    nother = x.ndim - 1
    n = x.shape[-1]
    nlines = x.size // n
    lines_fastest = nother > 0 and abs(x.strides[-1]) > min((abs(s) for s in x.strides[:-1]), default=0)
    if nlines >= tuning["threads"] or n <= tuning["min_tile"]:
        ntiles, tile = 1, n
    else:
        ntiles = min(-(-tuning["threads"] // nlines), -(-n // tuning["min_tile"]))
        tile = -(-n // ntiles)
        ntiles = -(-n // tile)
    carry = None
    if ntiles > 1:
        totals = plan.temp((nlines, ntiles), acc_dt)
        k = kg.kernel("simt_scan_totals", tile_totals_source(op, nother, np.dtype(x.dtype), acc_dt), boundscheck=False)
        plan.launch_1d(k, nlines * ntiles, x, totals, nlines, ntiles, tile, lines_fastest)
        carry = plan.temp((nlines, ntiles), acc_dt)
        _scan_lines(plan, op, totals, carry, acc_dt, tuning)
    src = scan_tiles_source(op, nother, np.dtype(x.dtype), acc_dt, np.dtype(out.dtype), carry is not None)
    k = kg.kernel("simt_scan", src, boundscheck=False)
    plan.launch_1d(k, nlines * ntiles, x, out, carry if carry is not None else out, nlines, ntiles, tile,
                   lines_fastest)


def _scan(fname, op, a, axis, dtype, out):
    a = real_if_cast_from_complex(require_array(a, fname), dtype)
    table = TUNING[kg.backend_kind()]
    key = (op, a.dtype, a.shape, a.strides, axis_key(axis), dtype)
    plan = _plans.get_or_make(key, table, lambda: _plan(op, a, axis, dtype, table))
    return finish(plan.run(a), out, fname)


def _plan(op, a, axis, dtype, table):
    res_dt, acc_dt, _ = result_dtypes("sum" if op == "sum" else "prod", np.dtype(a.dtype),
                                      None if dtype is None else np.dtype(dtype))
    flattened = axis is None or a.ndim == 0  # NumPy scans a 0-d array as a 1-element vector
    if flattened:
        if axis is not None:
            normalize_axes(axis, 1, single=True)
        ax = 0
    else:
        (ax,) = normalize_axes(axis, a.ndim, single=True)
    shape = (a.size,) if flattened else tuple(a.shape)
    plan = Plan(shape, res_dt)
    x = source = Buf(0, a.shape, a.strides, a.dtype)
    if flattened:
        if not a._c_contiguous:  # a C-order copy first: the flat scan reads it in C order
            x = plan.temp(a.shape, a.dtype)
            plan.launch_1d(kg.copy_kernel(a.ndim, a.dtype), a.size, x, source, a.size)
        x = plan.view(x, (a.size,), (a.itemsize,))
    if a.size:
        result = Buf(1, shape, kg.c_strides(shape, res_dt.itemsize), res_dt)
        order = [i for i in range(x.ndim) if i != ax] + [ax]
        xv = plan.view(x, [x.shape[i] for i in order], [x.strides[i] for i in order])
        rv = plan.view(result, [result.shape[i] for i in order], [result.strides[i] for i in order])
        _scan_lines(plan, op, xv, rv, acc_dt, resolved_tuning(table))
    return plan


def cumsum(a, axis=None, dtype=None, out=None):
    """Cumulative sum along `axis` (None: over the flattened array, in C order)."""
    return _scan("cumsum", "sum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    """Cumulative product along `axis` (None: over the flattened array, in C order)."""
    return _scan("cumprod", "prod", a, axis, dtype, out)
