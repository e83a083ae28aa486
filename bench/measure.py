"""Timing one operation of one library: warm-up, repetitions over rotated buffers, verification."""
import math
from dataclasses import dataclass
from typing import Callable, List

import numpy as np

from .libs import OPS_WITH_OUT, NotAvailable
from .model import Cell
from .stats import repetitions, summarize
from .timing import host_seconds

MAX_SETS = 64


def rotation_count(bytes_per_set, cache_bytes, max_sets=MAX_SETS):
    """How many buffer sets to cycle through so that together they exceed twice the cache; capped,
    since below that size a call is bound by launch latency, not by memory."""
    if bytes_per_set <= 0:
        return 1
    return max(1, min(max_sets, math.ceil(2 * cache_bytes / bytes_per_set)))


def time_calls(ctx, lib, call):
    """Warm-up calls, then the timed repetitions. call(i) runs repetition i. Returns (stats, last i)."""
    sync = lib.synchronize
    first = host_seconds(lambda: call(0), sync)        # includes compilation, first touch of memory
    estimate = host_seconds(lambda: call(1), sync)
    index = 2
    if estimate * ctx.min_reps < ctx.max_measure_s:   # cheap enough for the remaining warm-up calls
        while index < ctx.warmup:
            call(index)
            index += 1
        sync()
    reps = repetitions(estimate, ctx.budget_s, ctx.min_reps, ctx.max_reps)
    if estimate * reps > ctx.max_measure_s:
        reps = max(1, int(ctx.max_measure_s // max(estimate, 1e-9)))
    timer = lib.timer()
    samples = timer.measure(call, reps, first_index=index)
    stats = summarize(samples)
    stats["first_call_s"] = first
    stats["timer"] = timer.kind
    return stats, index + reps - 1


@dataclass
class ArrayCase:
    """One operation at one size: the host inputs every library gets, what to compute, how much
    work one call does (bytes or flops), and how to check the answer."""
    op: str
    inputs: List[np.ndarray]
    expected: object
    work: float
    rate: Callable                    # rate(work, seconds) -> value in the row's unit
    check: Callable                   # check(result_on_host, expected) -> None or what is wrong


def measure_case(ctx, lib, case):
    """One library's Cell for an ArrayCase: n/a, error, wrong (with the figure) or ok."""
    try:
        fn = lib.op(case.op)
    except NotAvailable as e:
        return Cell.na(str(e))
    takes_out = case.op in OPS_WITH_OUT
    in_bytes = sum(h.nbytes for h in case.inputs)
    out_bytes = 0 if case.op in ("sum", "algo_reduce") else case.inputs[0].nbytes   # the output (or the new result)
    sets_count = rotation_count(in_bytes + out_bytes, ctx.cache_bytes)
    reason = ctx.fits(host_bytes=2 * in_bytes, device_bytes=sets_count * (in_bytes + out_bytes) + out_bytes)
    if reason:
        return Cell.na(reason)
    try:
        sets = []
        for _ in range(sets_count):
            arrays = [lib.asarray(h) for h in case.inputs]
            if takes_out:
                arrays.append(lib.full(case.inputs[0].shape, np.nan, case.inputs[0].dtype))  # NaN: unwritten shows
            sets.append(arrays)
        lib.synchronize()
        results = [None] * sets_count

        def call(i):
            results[i % sets_count] = fn(*sets[i % sets_count])

        stats, last = time_calls(ctx, lib, call)
        # An operation with an output argument may return None (then the output holds the answer).
        result = results[last % sets_count]
        if result is None and takes_out:
            result = sets[last % sets_count][-1]
        host = lib.to_host(result)
        problem = case.check(host, case.expected)
        if stats["median_s"] <= 0:
            return Cell.error(f"the {stats['timer']} timer measured no time")
        value = case.rate(case.work, stats["median_s"])
        return Cell.wrong(value, problem, stats) if problem else Cell.ok(value, stats=stats)
    except NotAvailable as e:
        return Cell.na(str(e))
    except Exception as e:
        return Cell.error(f"{type(e).__name__}: {e}")
    finally:
        sets = results = result = None  # drop device arrays before the library's cache is emptied
        lib.release_memory()


def close_enough(result, expected, atol, rtol=0.0):
    """None when `result` matches `expected` within atol + rtol*|expected|, else what differs.
    Works in place on float64 copies only where needed: results reach 2 GiB."""
    result = np.asarray(result, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if result.shape != expected.shape:
        return f"wrong shape {result.shape}, expected {expected.shape}"
    if not np.isfinite(result).all():
        return "result has non-finite values (output not written?)"
    if result.ndim == 0:
        got, want = float(result), float(expected)
        bound = atol + rtol * abs(want)
        return None if abs(got - want) <= bound else f"got {got:.17g}, expected {want:.17g} (tolerance {bound:.3g})"
    err = np.subtract(result, expected)
    np.abs(err, out=err)
    if rtol:
        bound = np.abs(expected)
        bound *= rtol
        bound += atol
    else:
        bound = np.float64(atol)
    err -= bound
    if np.any(err > 0):
        worst = int(np.argmax(err))
        limit = bound.flat[worst] if bound.ndim else float(bound)
        return (f"got {result.flat[worst]:.17g}, expected {expected.flat[worst]:.17g} at flat index {worst} "
                f"(tolerance {limit:.3g})")
    return None
