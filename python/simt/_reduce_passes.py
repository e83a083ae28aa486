"""Reductions on the device: axis handling, NumPy's result dtypes and empty-input rules, and the
multi-pass plan (split the reduced range over threads, store partials, reduce those again)."""
import math
import operator
import warnings
from functools import lru_cache

import numpy as np

from . import _kernelgen as kg
from ._launch_plan import Buf, Plan, PlanCache
from ._ndarray import ndarray
from ._reduce_kernels import ARG_OPS, ReduceSpec, reduce_source

# Per-backend shape of the passes; the lead tunes these on the GPU. `threads`: how many threads
# a pass aims for; `per_thread`: the fewest elements a split gets in a first pass,
# `partial_per_thread` in later passes over partials; `unroll`: accumulators per thread;
# `blocked`: splits are contiguous chunks (CPU caches) rather than strided (coalesced loads);
# `column_bytes`: in column reductions a thread owns this many bytes of neighbouring outputs.
# `block_threads` (0 or absent: off) turns on the block-cooperative path for whole arrays and
# contiguous rows of at least `block_min_row` elements: a grid of at most `max_blocks` blocks (None:
# `blocks_per_sm` per multiprocessor, halved for argmin/argmax and complex, whose kernels need
# more registers; registers are capped so that all of them are resident at once), a split of a
# row getting at least `block_per_thread` elements per thread and accumulators per thread enough
# for `block_unroll_bytes` of loads in flight (4 to 32 of them), then one block per output folding
# the partials. The cuda values were picked on an H200 with bench/probes/tune_reduce_scan.py
# (2026-11-30: 2 blocks of 256 threads per SM with 128 bytes of loads in flight per thread beat
# 4 blocks with 64 bytes by 2-3% on float32 and float64 sums of 2**26 and 2**28 elements).
TUNING = {
    "cuda": {"threads": 1 << 17, "per_thread": 32, "partial_per_thread": 256, "unroll": 4, "blocked": False,
             "column_bytes": 0, "block_threads": 256, "blocks_per_sm": 2, "max_blocks": None, "block_min_row": 2048,
             "block_per_thread": 64, "block_unroll_bytes": 128},
    "cpu": {"threads": None, "per_thread": 16384, "partial_per_thread": 4096, "unroll": 8, "blocked": True,
            "column_bytes": 128, "wide_sums": True},
}
# `wide_sums`: sums of float16/float32 (and complex64) accumulate in float64 (complex128). A CPU
# thread folds a contiguous chunk of millions of elements, and in float32 such a running sum
# drifts (10**7 times 0.1 gave 997297.6); the GPU's many threads each fold a few hundred.


def resolved_tuning(table):
    """A copy of a TUNING entry with its machine-dependent values filled in. (Plans are cached
    per entry: change a tuning by replacing the entry, not by editing it in place.)"""
    t = dict(table)
    if t.get("threads", 0) is None:
        t["threads"] = kg.cpu_cores() * 4
    return t


def require_array(a, fname):
    if isinstance(a, ndarray):
        return a
    from . import _interop
    foreign = _interop.device_view(a)
    if foreign is not None:
        return foreign
    if isinstance(a, np.ndarray):
        raise TypeError(f"simt.{fname}() got a NumPy array (host memory); copy it to the device first with "
                        "simt.asarray(x), or call numpy.{fname} on it")
    if hasattr(a, "_simt_fusion_trace"):  # a value simt.fuse is tracing (simt/_fusion.py)
        what = "matrix products" if fname in ("matmul", "dot") else "reductions and scans"
        raise TypeError(f"simt.{fname}() is not supported inside a simt.fuse function: a fused function compiles "
                        "to an elementwise kernel that may end in one reduction by sum, prod, min, max, all, any or "
                        f"mean, and other {what} are not fused; call simt.{fname}() on the fused function's result "
                        "instead")
    raise TypeError(f"simt.{fname}() needs a simt array, not {type(a).__module__}.{type(a).__qualname__} "
                    "(copy host data to the device with simt.asarray)")


def _complex_in_real_dtype(a, dtype):
    return dtype is not None and a.dtype.kind == "c" and np.dtype(dtype).kind != "c"


def _complex_spread_in_real_dtype(fname, a, op, axis, dtype, keepdims, ddof):
    """var/std of complex values asked for in a real dtype, as NumPy computes them: only the mean
    is cast (to the real part's mean), so the deviations keep their imaginary parts and the
    variance is var(real part) + sum(imag**2) / (n - ddof)."""
    _warn_complex_to_real()
    axes = normalize_axes(axis, a.ndim)
    n = math.prod(a.shape[i] for i in axes)
    imag = a.imag.astype(dtype)
    spread = reduce(fname, a.real, "var", axis, dtype, None, keepdims, ddof)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = spread + reduce(fname, imag * imag, "sum", axis, dtype, None, keepdims) / max(n - ddof, 0)
    if op == "std":
        from ._ufuncs import sqrt
        spread = sqrt(spread)
    return spread


def real_if_cast_from_complex(a, dtype):
    """`a`, or its real part (warning as NumPy does) when complex values are to be reduced or
    scanned in a real dtype."""
    if _complex_in_real_dtype(a, dtype):
        _warn_complex_to_real()
        return a.real
    return a


def _warn_complex_to_real():
    # (stacklevel: the user's call, through simt.<reduction>, reduce() and its helper)
    warnings.warn("Casting complex values to real discards the imaginary part", np.exceptions.ComplexWarning,
                  stacklevel=5)


def normalize_axes(axis, ndim, single=False):
    """Sorted tuple of distinct non-negative axes (NumPy's errors for bad ones)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, tuple) and not single:
        items = axis
    else:
        items = (axis,)
    out = []
    for ax in items:
        if isinstance(ax, bool):  # an int to operator.index, but NumPy refuses it as an axis
            raise TypeError("an integer is required for the axis")
        ax = operator.index(ax)
        if not -ndim <= ax < ndim:
            raise np.exceptions.AxisError(ax, ndim)
        ax %= max(ndim, 1)
        if ax in out:
            raise ValueError("duplicate value in 'axis'")
        out.append(ax)
    return tuple(sorted(out))


def axis_key(axis):
    """`axis` for a plan cache key: with its types, as 1.0 == 1 (and hashes alike) but only the
    integer is an axis."""
    if type(axis) is tuple:
        return axis, tuple(map(type, axis))
    return axis, type(axis)


_NUMPY_NAME = {"sumsq": "var"}


@lru_cache(maxsize=None)
def result_dtypes(op, dt, dtype):
    """(result dtype, accumulator dtype, mean dtype for var/std) as NumPy would compute them."""
    dt = np.dtype(dt)
    if op in ("min", "max"):
        res = dt
    elif op in ARG_OPS:
        res = np.dtype(np.int64)
    elif op in ("all", "any"):
        res = np.dtype(np.bool_)
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = getattr(np, op)(np.ones(2, dt), dtype=dtype).dtype
    from ._dtypes import normalize
    res = normalize(res)
    acc = np.dtype(np.float32) if res == np.float16 else res
    if op in ("min", "max") + ARG_OPS:
        acc = np.dtype(np.float32) if dt == np.float16 else dt
    center = None
    if op in ("var", "std"):
        center = np.result_type(acc, np.complex64) if dt.kind == "c" else acc
    return res, acc, center


def _widened(dt):
    """float64 (complex128) for narrower floating (complex) accumulators; others unchanged."""
    if dt.kind == "f" and dt.itemsize < 8:
        return np.dtype(np.float64)
    if dt.kind == "c" and dt.itemsize < 16:
        return np.dtype(np.complex128)
    return dt


def joint_layout(shape, strides_list, axes, keep_order=False):
    """Kept and reduced axes of operands of one shape (each with its byte strides): (extent,
    strides of each operand) after dropping unit axes and merging neighbours that every operand
    addresses as one axis. Reduced axes keep their order for argmin and argmax (flat indices),
    else go outermost-first by their largest stride."""
    dims = []
    for i, n in enumerate(shape):
        if n == 1:
            continue
        st = tuple(s[i] for s in strides_list)
        red = i in axes
        if dims and dims[-1][2] == red and all(outer == n * inner for outer, inner in zip(dims[-1][1], st)):
            dims[-1] = (dims[-1][0] * n, st, red)
        else:
            dims.append((n, st, red))
    kept = [(n, st) for n, st, red in dims if not red]
    reduced = [(n, st) for n, st, red in dims if red]
    if not keep_order:
        reduced.sort(key=lambda d: -max(abs(s) for s in d[1]))
    if not reduced:
        reduced = [(1, tuple(0 for _ in strides_list))]
    return kept, reduced


def _layout(a, axes, keep_order):
    """joint_layout of one array: (extent, byte stride) pairs."""
    kept, reduced = joint_layout(a.shape, [a.strides], axes, keep_order)
    return [(n, st[0]) for n, st in kept], [(n, st[0]) for n, st in reduced]


def _plan_splits(nout, n_split_axis, per_thread, tuning):
    """(nsplit, first_mul, span, step) for a pass over `nout` outputs."""
    if nout >= tuning["threads"]:
        nsplit = 1
    else:
        nsplit = min(-(-tuning["threads"] // nout), -(-n_split_axis // per_thread))
    nsplit = max(1, nsplit)
    if nsplit == 1:
        return 1, 0, n_split_axis, 1
    if tuning["blocked"]:
        chunk = -(-n_split_axis // nsplit)
        nsplit = -(-n_split_axis // chunk)
        return nsplit, chunk, chunk, 1
    return nsplit, 1, n_split_axis, nsplit


def _outputs(plan, args, final, out_flat, partial_shape, spec):
    """Appends a pass's outputs to its arguments: the result, or new partials (with their indices
    for argmin/argmax). Returns (partials, indices), None where absent."""
    if final:
        args.append(out_flat)
        return None, None
    part = plan.temp(partial_shape, spec.acc_dtype)
    part_i = plan.temp(partial_shape, np.int64) if spec.op in ARG_OPS else None
    args += [part] + ([part_i] if part_i is not None else [])
    return part, part_i


def _run_passes(plan, x, op, spec_common, nout, row_mapping, extra_inputs, out_flat, post, divisor, tuning):
    """Records passes until each output has one value, ending with the store into out_flat."""
    K = x.ndim - spec_common["reduced"]
    partial_input = False
    xi = None
    per_thread = tuning["per_thread"]
    while True:
        n_split_axis = x.shape[-1]
        outputs = 1
        if K and not row_mapping and tuning["column_bytes"]:
            outputs = max(1, min(32, tuning["column_bytes"] // x.itemsize))
        groups = nout if outputs == 1 else nout // x.shape[K - 1] * -(-x.shape[K - 1] // outputs)
        nsplit, first_mul, span, step = _plan_splits(groups, n_split_axis, per_thread, tuning)
        final = nsplit == 1
        premap = () if partial_input else spec_common.get("premap", ())
        spec = ReduceSpec(op=op, in_dtype=np.dtype(spec_common["in"] if premap else x.dtype),
                          acc_dtype=spec_common["acc"],
                          out_dtype=spec_common["out"], kept=K, reduced=spec_common["reduced"] if not partial_input else 1,
                          partial_input=partial_input, final=final,
                          row_mapping=bool(row_mapping and nsplit > 1 and nout > 1), unroll=tuning["unroll"],
                          outputs=outputs, post=post if final else "", center_dtype=spec_common.get("center"),
                          unit_step=step == 1, premap=premap)
        k = kg.kernel("simt_reduce", reduce_source(spec), boundscheck=False)
        args = [x]
        if xi is not None:
            args.append(xi)
        if not partial_input:
            args += extra_inputs
        is_arg = op in ARG_OPS
        part, part_i = _outputs(plan, args, final, out_flat, (nsplit, nout), spec)
        args += [groups, nsplit, first_mul, span, step, float(divisor)]
        plan.launch_1d(k, groups * nsplit, *args)
        if final:
            return
        # The partials (nsplit, nout) become the input: kept axis o, reduced axis s.
        K = 0 if nout == 1 else 1

        def transposed(p):
            item = p.itemsize
            return plan.view(p, (nsplit,), (item,)) if K == 0 else plan.view(p, (nout, nsplit), (item, nout * item))
        x = transposed(part)
        xi = transposed(part_i) if is_arg else None
        partial_input = True
        row_mapping = False
        per_thread = tuning["partial_per_thread"]


def _block_path(tuning, reduced, row_mapping, nout):
    """Whether the block-cooperative kernel serves this layout: one reduced axis, contiguous
    across the threads of a block: a whole array (of any length: a short one takes one launch of
    one block), or rows long enough to keep a block busy."""
    if not tuning.get("block_threads") or len(reduced) != 1:
        return False
    return nout == 1 or (row_mapping and reduced[0][0] >= tuning["block_min_row"])


def _block_unroll(tuning, dtype):
    """Accumulators per thread: `block_unroll` when given (the tuning probe sets it), else enough
    for `block_unroll_bytes` of loads in flight."""
    if tuning.get("block_unroll"):
        return tuning["block_unroll"]
    return max(4, min(32, tuning["block_unroll_bytes"] // np.dtype(dtype).itemsize))


def _run_block_passes(plan, x, op, spec_common, nout, row_mapping, extra_inputs, out_flat, post, divisor, tuning):
    """_run_passes for the block path: a bounded grid folds each row in `nsplit` block-sized
    interleaved splits into partials (nout, nsplit); one more launch folds those per output."""
    from dataclasses import replace

    from ._block_reduce_kernels import BlockSpec, block_reduce_source
    T = tuning["block_threads"]
    if T % 32:
        raise ValueError(f"internal: block reductions need whole warps, not {T} threads")
    n = x.shape[-1]
    per_sm = tuning["blocks_per_sm"]
    if op in ARG_OPS or np.dtype(spec_common["acc"]).kind == "c":
        per_sm = max(1, per_sm // 2)
    # All blocks resident at once: a grid-stride split leaves no second wave of late blocks.
    max_registers = kg.register_cap(T, per_sm)
    cap = tuning.get("max_blocks") or kg.multiprocessor_count() * per_sm
    nsplit = 1 if nout >= cap else max(1, min(cap // nout, -(-n // (T * tuning["block_per_thread"]))))
    final = nsplit == 1
    premap = spec_common.get("premap", ())
    spec = ReduceSpec(op=op, in_dtype=np.dtype(spec_common["in"] if premap else x.dtype), acc_dtype=spec_common["acc"],
                      out_dtype=spec_common["out"], kept=x.ndim - 1, reduced=1, partial_input=False, final=final,
                      row_mapping=True, unroll=_block_unroll(tuning, x.dtype), post=post if final else "",
                      center_dtype=spec_common.get("center"), premap=premap)
    def kernel(spec):
        return kg.kernel("simt_block_reduce", block_reduce_source(BlockSpec(spec, T)), boundscheck=False,
                         max_registers=max_registers)

    is_arg = op in ARG_OPS
    args = [x] + list(extra_inputs)
    part, part_i = _outputs(plan, args, final, out_flat, (nout, nsplit), spec)
    plan.launch(kernel(spec), min(nout * nsplit, cap), T, *args, nout, nsplit, float(divisor))
    if final:
        return
    spec = replace(spec, in_dtype=spec.acc_dtype, kept=1, partial_input=True, final=True, unroll=1, post=post,
                   premap=())
    args = [part] + ([part_i] if is_arg else []) + [out_flat, nout, 1, float(divisor)]
    plan.launch(kernel(spec), min(nout, cap), T, *args)


def _empty_result(op, fname, res_dt, nout, shape):
    from ._creation import full
    if op in ("min", "max"):
        name = "minimum" if op == "min" else "maximum"
        raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
    if op in ARG_OPS:
        raise ValueError(f"attempt to get {op} of an empty sequence")
    if op in ("mean", "var", "std"):
        if nout:
            warnings.warn("Mean of empty slice." if op == "mean" else "Degrees of freedom <= 0 for slice",
                          RuntimeWarning, stacklevel=4)
        return full(shape, np.nan, res_dt)
    fill = {"sum": 0, "prod": 1, "all": True, "any": False}[op]
    return full(shape, fill, res_dt)


def finish(result, out, fname, casting="unsafe"):
    """result, or result copied into `out` (same shape; its dtype reached by `casting`)."""
    if out is None:
        return result
    if not isinstance(out, ndarray):
        raise TypeError(f"simt.{fname}(): out must be a simt array, not {type(out).__name__}")
    if tuple(out.shape) != tuple(result.shape):
        raise ValueError(f"simt.{fname}(): out has shape {out.shape}, the result has shape {result.shape}")
    if not np.can_cast(result.dtype, out.dtype, casting):
        raise TypeError(f"simt.{fname}(): cannot cast the result from {result.dtype} to out's {out.dtype} "
                        f"(casting rule '{casting}')")
    kg.copy_into(out, result)
    return out


_plans = PlanCache()


def reduce(fname, a, op, axis=None, dtype=None, out=None, keepdims=False, ddof=0):
    """simt.<fname>(a, axis, dtype, out, keepdims) for op in sum prod min max all any argmin
    argmax mean var std. The launch plan is worked out once per input layout and arguments."""
    a = require_array(a, fname)
    if op in ("var", "std") and _complex_in_real_dtype(a, dtype):
        return finish(_complex_spread_in_real_dtype(fname, a, op, axis, dtype, keepdims, ddof), out, fname)
    a = real_if_cast_from_complex(a, dtype)
    table = TUNING[kg.backend_kind()]
    key = (fname, op, a.dtype, a.shape, a.strides, axis_key(axis), dtype, keepdims, ddof)
    plan = _plans.get_or_make(key, table, lambda: _plan(fname, a, op, axis, dtype, keepdims, ddof, table))
    if not isinstance(plan, Plan):
        return finish(_empty_result(*plan), out, fname)
    if plan.warning:
        warnings.warn(plan.warning, RuntimeWarning, stacklevel=3)
    return finish(plan.run(a), out, fname)


def _plan(fname, a, op, axis, dtype, keepdims, ddof, table):
    """The Plan of reduce(), or the arguments of _empty_result for a reduction over nothing."""
    axes = normalize_axes(axis, a.ndim, single=op in ARG_OPS)
    if op in ARG_OPS and axis is not None and isinstance(axis, tuple):
        raise TypeError(f"'tuple' object cannot be interpreted as an integer")
    res_dt, acc_dt, center_dt = result_dtypes(op, np.dtype(a.dtype), None if dtype is None else np.dtype(dtype))
    if table.get("wide_sums") and op in ("sum", "mean", "var", "std"):
        acc_dt, center_dt = _widened(acc_dt), center_dt and _widened(center_dt)
    shape = tuple((1 if i in axes else n) for i, n in enumerate(a.shape) if keepdims or i not in axes)
    nred = math.prod(a.shape[i] for i in axes)
    nout = math.prod(n for i, n in enumerate(a.shape) if i not in axes)
    if nred == 0:
        return (op, fname, res_dt, nout, shape)
    plan = Plan(shape, res_dt)
    if nout == 0:
        return plan
    result = Buf(1, shape, kg.c_strides(shape, res_dt.itemsize), res_dt)
    out_flat = plan.view(result, (nout,), (res_dt.itemsize,))
    tuning = resolved_tuning(table)
    kept, reduced = _layout(a, axes, keep_order=op in ARG_OPS)
    source = Buf(0, a.shape, a.strides, a.dtype)
    x = plan.view(source, [n for n, _ in kept + reduced], [st for _, st in kept + reduced])
    smallest = min(abs(st) for _, st in kept + reduced)
    row_mapping = reduced[-1][0] > 1 and abs(reduced[-1][1]) <= smallest
    common = {"acc": acc_dt, "out": res_dt, "reduced": len(reduced)}
    run_passes = _run_block_passes if _block_path(tuning, reduced, row_mapping, nout) else _run_passes
    if op in ("var", "std"):
        # Two passes over the data: the mean, then the sum of squared deviations from it.
        mean = plan.temp((nout,), center_dt)
        run_passes(plan, x, "sum", {"acc": center_dt, "out": center_dt, "reduced": len(reduced)}, nout, row_mapping,
                   [], mean, "mean", nred, tuning)
        divisor = max(nred - ddof, 0)
        if divisor == 0:
            plan.warning = "Degrees of freedom <= 0 for slice"
        common["center"] = center_dt
        run_passes(plan, x, "sumsq", common, nout, row_mapping, [mean], out_flat, "std" if op == "std" else "mean",
                   divisor, tuning)
    elif op == "mean":
        run_passes(plan, x, "sum", common, nout, row_mapping, [], out_flat, "mean", nred, tuning)
    else:
        run_passes(plan, x, op, common, nout, row_mapping, [], out_flat, "", 1, tuning)
    return plan
