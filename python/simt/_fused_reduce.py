"""simt.fuse functions with a reduction (sum, prod, min/amin, max/amax, all, any, mean): the fused
statements before the reduction run inside the reduction's kernels on each element as it is read,
so `simt.sum(x * y)` reads x and y once and writes no temporary; statements after it run as one
small elementwise kernel over the reduced values. The reduction kernels are simt's own (the same
passes and tuning as simt.sum), given the fused statements as a nested function."""
import math

import numpy as np

from . import _kernelgen as kg
from . import _reduce_passes as rp
from ._launch_plan import Buf, Plan, PlanCache
from ._manipulation import broadcast_to
from ._ndarray import ndarray

# simt function name -> the reduction it runs ("mean" divides a sum by the count)
FUSABLE = {"sum": "sum", "prod": "prod", "min": "min", "max": "max", "amin": "min", "amax": "max", "all": "all",
           "any": "any", "mean": "mean"}


class FusedReduction:
    """The reduction of one traced fused function (one tuple of operand kinds and dtypes):
    `body` leaves the value to reduce in y0 from operands x0, x1, ...; in_dtype is its dtype."""

    def __init__(self, fname, axis, dtype, keepdims, body, in_dtype):
        self.fname, self.op = fname, FUSABLE[fname]
        self.axis, self.dtype, self.keepdims = axis, dtype, keepdims
        self.body, self.in_dtype = body, np.dtype(in_dtype)
        self.result_dtype, self._acc_dtype, _ = rp.result_dtypes(self.op, self.in_dtype,
                                                                 None if dtype is None else np.dtype(dtype))
        self._plans = PlanCache()

    def __call__(self, args, in_types):
        """The reduced values for the fused function's arguments (arrays, numbers); in_types are
        the dtypes the traced statements took the operands in."""
        arrays = [a for a in args if isinstance(a, ndarray)]
        table = rp.TUNING[kg.backend_kind()]
        key = tuple((a.shape, a.strides, a.dtype) if isinstance(a, ndarray) else None for a in args)
        plan = self._plans.get_or_make(key, table, lambda: self._plan(args, table))
        if not isinstance(plan, Plan):
            return rp._empty_result(*plan)
        scalars = [np.dtype(t).type(a) for a, t in zip(args, in_types) if not isinstance(a, ndarray)]
        return plan.run(arrays[0], *(arrays[1:] + scalars))

    def _plan(self, args, table):
        arrays = [a for a in args if isinstance(a, ndarray)]
        try:
            shape = np.broadcast_shapes(*(a.shape for a in arrays))
        except ValueError:
            raise ValueError(f"simt.fuse: operands could not be broadcast together with shapes "
                             f"{' '.join(str(a.shape) for a in arrays)}") from None
        axes = rp.normalize_axes(self.axis, len(shape))
        res_dt, acc_dt = self.result_dtype, self._acc_dtype
        if table.get("wide_sums") and self.op in ("sum", "mean"):
            acc_dt = rp._widened(acc_dt)
        out_shape = tuple((1 if i in axes else n) for i, n in enumerate(shape) if self.keepdims or i not in axes)
        nred = math.prod(shape[i] for i in axes)
        nout = math.prod(n for i, n in enumerate(shape) if i not in axes)
        if nred == 0:
            return (self.op, self.fname, res_dt, nout, out_shape)
        plan = Plan(out_shape, res_dt)
        if nout == 0:
            return plan
        result = Buf(1, out_shape, kg.c_strides(out_shape, res_dt.itemsize), res_dt)
        out_flat = plan.view(result, (nout,), (res_dt.itemsize,))
        kept, reduced = rp.joint_layout(shape, [broadcast_to(a, shape).strides for a in arrays], axes)
        extents = [n for n, _ in kept + reduced]

        def operand(buf, k):
            return plan.view(buf, extents, [st[k] for _, st in kept + reduced])

        x = operand(Buf(0, arrays[0].shape, arrays[0].strides, arrays[0].dtype), 0)
        further = [operand(plan.input(k - 1, a.shape, a.strides, a.dtype), k) for k, a in enumerate(arrays) if k]
        further += [plan.input(len(arrays) - 1 + j) for j in range(len(args) - len(arrays))]
        # The kernel's operands: x (the first array), then x1, x2, ...: the other arrays, then the
        # scalars (the body is renumbered to match).
        kinds = ("x",) + ("a",) * (len(arrays) - 1) + ("s",) * (len(args) - len(arrays))
        body = self._reordered_body(args)
        largest = [max(abs(s) for s in st) for _, st in kept + reduced]
        row_mapping = reduced[-1][0] > 1 and largest[len(kept) + len(reduced) - 1] <= min(largest)
        common = {"acc": acc_dt, "out": res_dt, "reduced": len(reduced), "in": self.in_dtype,
                  "premap": (body, kinds)}
        tuning = rp.resolved_tuning(table)
        block = rp._block_path(tuning, [(n, st[0]) for n, st in reduced], row_mapping, nout)
        run = rp._run_block_passes if block else rp._run_passes
        if self.op == "mean":
            run(plan, x, "sum", common, nout, row_mapping, further, out_flat, "mean", nred, tuning)
        else:
            run(plan, x, self.op, common, nout, row_mapping, further, out_flat, "", 1, tuning)
        return plan

    def _reordered_body(self, args):
        """The body with its operands renumbered as the kernel passes them: the first array x0,
        the other arrays next, then the scalars."""
        order = [i for i, a in enumerate(args) if isinstance(a, ndarray)]
        order += [i for i, a in enumerate(args) if not isinstance(a, ndarray)]
        return rename_operands(self.body, {f"x{i}": f"x{k}" for k, i in enumerate(order)})


def rename_operands(body, names):
    """body with whole-word operand names replaced (x3 -> x0 ...), all at once."""
    import re
    if all(k == v for k, v in names.items()):
        return body
    return re.sub(r"\b(" + "|".join(map(re.escape, names)) + r")\b", lambda m: names[m.group(1)], body)
