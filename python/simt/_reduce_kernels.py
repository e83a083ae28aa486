"""Source text of the reduction kernels. One generator covers every reduction: a thread owns one
output element `o` and one split `s` of the reduced index range, folds its elements into
`unroll` independent accumulators, and stores either a partial (out[s, o]) for a further pass or
the final value (out[o]). How splits partition the range (strided for coalesced GPU loads,
blocked for CPU caches) and how threads map to (o, s) are run-time arguments or one flag, so
the same few kernels serve every shape and both backends."""
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ._kernelgen import type_name

ARG_OPS = ("argmin", "argmax")
_INT64_MAX = "np.int64(9223372036854775807)"


@dataclass(frozen=True)
class ReduceSpec:
    op: str                  # sum prod min max all any argmin argmax sumsq
    in_dtype: np.dtype       # elements of x
    acc_dtype: np.dtype      # accumulators (and partials)
    out_dtype: np.dtype      # final results (ignored for partial passes)
    kept: int                # leading axes of x that index the output
    reduced: int             # trailing axes of x that are reduced; the last one is split
    partial_input: bool      # x holds partials of an earlier pass (plus xi: their indices)
    final: bool              # store final values out[o], else partials out[s, o]
    row_mapping: bool        # threads of one output are adjacent (the split axis is contiguous)
    unroll: int = 4          # accumulators along the split axis (one output per thread)
    outputs: int = 1         # neighbouring outputs per thread (column reductions)
    post: str = ""           # "", "mean" (divide), "std" (divide, square root)
    center_dtype: np.dtype = None  # sumsq: dtype of the mean array m subtracted from elements
    unit_step: bool = False  # the split's step is 1 (blocked splits, one split): a constant
    premap: tuple = ()       # simt.fuse: (body, operand kinds); an element is _pre(operands) (premap_lines)


def _kind(dt):
    return np.dtype(dt).kind


def _identity(op, dt):
    dt = np.dtype(dt)
    t = type_name(dt)
    if op in ("sum", "sumsq"):
        return f"{t}(0)"
    if op == "prod":
        return f"{t}(1)"
    if op == "all":
        return "True"
    if op == "any":
        return "False"
    smallest = op in ("min", "argmin")  # the identity is the largest value for min
    if dt == np.bool_:
        return "True" if smallest else "False"
    if dt.kind in "iu":
        info = np.iinfo(dt)
        value = info.max if smallest else info.min
        if value == np.iinfo(np.int64).min:
            return f"{t}(-9223372036854775807 - 1)"
        return f"{t}({value})"
    if dt.kind == "c":
        return f"{t}(complex(np.inf, np.inf))" if smallest else f"{t}(complex(-np.inf, -np.inf))"
    return f"{t}(np.inf)" if smallest else f"{t}(-np.inf)"


def _less(a, b, dt):
    if _kind(dt) == "c":
        return f"({a}.real < {b}.real or ({a}.real == {b}.real and {a}.imag < {b}.imag))"
    return f"{a} < {b}"


def _isnan(a, dt):
    if _kind(dt) == "c":
        return f"({a}.real != {a}.real or {a}.imag != {a}.imag)"
    if _kind(dt) == "f":
        return f"{a} != {a}"
    return None


def _replace_test(op, v, j, a, i, dt):
    """Whether candidate value v (index j) replaces accumulator a (index i). NaNs win over
    numbers and, for argmin/argmax, the first NaN (smallest index) wins over later ones."""
    smallest = op in ("min", "argmin")
    better = _less(v, a, dt) if smallest else _less(a, v, dt)
    nan_v, nan_a = _isnan(v, dt), _isnan(a, dt)
    if op in ("min", "max"):
        return f"not ({nan_a}) and ({better} or {nan_v})" if nan_v else better
    tie = f"({v} == {a} and {j} < {i})"  # equal values: the first index wins
    if nan_v:  # (complex order can hold for a NaN accumulator, so test NaN-ness first)
        return f"(not ({nan_a}) and ({better} or {tie} or {nan_v})) or ({nan_a} and {nan_v} and {j} < {i})"
    return f"({better}) or {tie}"


def _fold(spec, u, value, index, ind):
    """Statements folding `value` (with flat index `index`) into accumulator u."""
    op = "sum" if spec.op == "sumsq" and spec.partial_input else spec.op
    a, i, acc = f"a{u}", f"i{u}", spec.acc_dtype
    if op in ("sum", "sumsq"):
        return [f"{ind}{a} = {a} + {value}"]
    if op == "prod":
        return [f"{ind}{a} = {a} * {value}"]
    if op == "all":
        return [f"{ind}{a} = {a} and {value}"]
    if op == "any":
        return [f"{ind}{a} = {a} or {value}"]
    lines = [f"{ind}v{u} = {value}"]
    if op in ARG_OPS:
        lines += [f"{ind}j{u} = {index}",
                  f"{ind}if {_replace_test(op, f'v{u}', f'j{u}', a, i, acc)}:",
                  f"{ind}    {a} = v{u}",
                  f"{ind}    {i} = j{u}"]
    else:
        lines += [f"{ind}if {_replace_test(op, f'v{u}', None, a, None, acc)}:",
                  f"{ind}    {a} = v{u}"]
    return lines


def premap_params(spec):
    """Parameters after x for a fused reduction's further operands (x1, x2, ...)."""
    if not spec.premap or spec.partial_input:
        return []
    return [f"x{k}" for k in range(1, len(spec.premap[1]))]


def premap_lines(spec, ind):
    """The nested function `_pre` of a fused reduction: simt.fuse's statements over the fused
    function's operands x0, x1, ... leaving the value to reduce in y0."""
    if not spec.premap or spec.partial_input:
        return []
    body, kinds = spec.premap
    lines = [f"{ind}def _pre({', '.join(f'x{k}' for k in range(len(kinds)))}):"]
    lines += [f"{ind}    {line}" for line in body.splitlines()]
    return lines + [f"{ind}    return y0"]


def _premapped(spec, subscript):
    """_pre applied to the operands at `subscript`: operand kinds "x" (the array read as x), "a"
    (a further array, read as x<k>) or "s" (a scalar argument x<k>)."""
    operands, k = [], 1
    for kind in spec.premap[1]:
        if kind == "x":
            operands.append(f"x[{subscript}]")
            continue
        operands.append(f"x{k}[{subscript}]" if kind == "a" else f"x{k}")
        k += 1
    return f"_pre({', '.join(operands)})"


def _element(spec, subscript, mean):
    """The value an element contributes (before folding)."""
    load = f"x[{subscript}]"
    if spec.partial_input:
        return load
    if spec.premap:
        load = _premapped(spec, subscript)
    if spec.op in ("all", "any"):
        return load if spec.in_dtype == np.bool_ else f"({load} != 0)"
    if spec.op == "sumsq":
        d = f"({type_name(spec.center_dtype)}({load}) - {mean})"
        if _kind(spec.center_dtype) == "c":
            return f"({d}.real * {d}.real + {d}.imag * {d}.imag)"
        return f"({d} * {d})"
    if spec.in_dtype == spec.acc_dtype:
        return load
    return f"{type_name(spec.acc_dtype)}({load})"


@lru_cache(maxsize=None)
def reduce_source(spec):
    """Kernel source for `spec`. Arguments: x, [xi], [m], out, [outi], nout, nsplit, first_mul,
    span, step, divisor. Split s covers indices s*first_mul + k*step < min(s*first_mul + span, n)
    of the split axis (strided: first_mul=1, span=n, step=nsplit; blocked: first_mul=span=chunk,
    step=1). With outputs > 1 a thread owns that many neighbouring outputs along the last kept
    axis (one accumulator each: contiguous loads for column reductions), and `nout` counts
    those groups; else it owns one output and `unroll` accumulators along the split axis."""
    K, R = spec.kept, spec.reduced
    W = spec.outputs if K >= 1 else 1
    E = spec.unroll if W == 1 else 1
    is_arg = spec.op in ARG_OPS
    params = ["x"]
    if is_arg and spec.partial_input:
        params.append("xi")
    params += premap_params(spec)
    if spec.op == "sumsq" and not spec.partial_input:
        params.append("m")
    params.append("out")
    if is_arg and not spec.final:
        params.append("outi")
    params += ["nout", "nsplit", "first_mul", "span", "step", "divisor"]
    L = [f"def simt_reduce({', '.join(params)}):"] + premap_lines(spec, "    ") + [
         "    t = cuda.grid(1)",
         "    if t < nout * nsplit:"]
    ind = " " * 8
    step = "np.uint64(1)" if spec.unit_step else "ustep"  # (the split's step; uint64 positions below)
    if not spec.unit_step:
        L.append(f"{ind}ustep = np.uint64(step)")
    if spec.row_mapping:
        L += [f"{ind}g = t // nsplit", f"{ind}s = t - g * nsplit"]
    else:
        L += [f"{ind}s = t // nout", f"{ind}g = t - s * nout"]
    last = f"x.shape[{K - 1}]"
    if W > 1:  # group g: outputs kw .. kw + W - 1 of one row of the last kept axis
        L += [f"{ind}per_row = ({last} + {W - 1}) // {W}",
              f"{ind}kw = (g % per_row) * {W}",
              f"{ind}rem = g // per_row",
              f"{ind}o = rem * {last} + kw"]
        L += [f"{ind}c{w} = min(kw + {w}, {last} - 1)" for w in range(W)]
    elif K:
        L += [f"{ind}o = g", f"{ind}rem = g"]
    else:
        L.append(f"{ind}o = g")
    if K:
        for j in range(K - 1, 0 if W == 1 else -1, -1):
            if j == K - 1 and W > 1:
                continue
            L += [f"{ind}k{j} = rem % x.shape[{j}]", f"{ind}rem = rem // x.shape[{j}]"]
        if W == 1:
            L.append(f"{ind}k{K - 1} = rem" if K == 1 else f"{ind}k0 = rem")
    lanes = W if W > 1 else E
    if "m" in params:
        L += [f"{ind}mean{u} = m[o{f' + c{u} - kw' if W > 1 else ''}]" for u in range(W)]
    for u in range(lanes):
        L.append(f"{ind}a{u} = {_identity(spec.op, spec.acc_dtype)}")
        if is_arg:
            L.append(f"{ind}i{u} = {_INT64_MAX}")
    body = ind
    for j in range(R - 1):
        L.append(f"{body}for r{j} in range(x.shape[{K + j}]):")
        body += "    "
    index_base = ""
    if is_arg and not spec.partial_input and R > 1:
        base = "r0"
        for j in range(1, R - 1):
            base = f"({base}) * x.shape[{K + j}] + r{j}"
        L.append(f"{body}base = ({base}) * x.shape[{K + R - 1}]")
        index_base = "base + "
    # Positions are uint64 (never negative): loads skip the negative-index wrap-around, and with a
    # unit step the compiler sees consecutive loads (a float32 sum of 2**24 on 2 cpu cores went
    # from 5.8 to 15 GB/s, NumPy's speed).
    L += [f"{body}r = np.uint64(s * first_mul)",
          f"{body}stop = np.uint64(min(s * first_mul + span, x.shape[{K + R - 1}]))"]
    kept_idx = [f"k{j}" for j in range(K)]
    outer = [f"r{j}" for j in range(R - 1)]

    def fold_at(u, position, ind2):
        if W > 1:
            kept_idx[K - 1] = f"c{u}"
        sub = ", ".join(kept_idx + outer + [position])
        index = f"xi[{sub}]" if spec.partial_input else f"{index_base}np.int64({position})"
        return _fold(spec, u, _element(spec, sub, f"mean{u if W > 1 else 0}"), index, ind2)

    L += strided_loop(fold_at, E, W, "stop", body, literal=lambda v: f"np.uint64({v})", step=step)
    for u in range(1, E):  # combine the unrolled accumulators into a0
        if is_arg:
            L += _fold_acc(spec, u, ind)
        else:
            L += _fold(_as_partial(spec), 0, f"a{u}", None, ind)
    for u in range(W):
        store_ind = ind
        target = "o"
        if W > 1:
            L.append(f"{ind}if kw + {u} < {last}:")
            store_ind = ind + "    "
            target = f"o + {u}"
        L += store_result(spec, f"s, {target}", target, f"a{u}", f"i{u}", store_ind)
    return "\n".join(L) + "\n"


def strided_loop(fold_at, unroll, tail_lanes, stop, ind, literal=str, step="step"):
    """Statements folding positions r, r + step, ... below `stop`: `unroll` at a time into
    accumulators 0 .. unroll-1 (independent chains), the rest one at a time into each of the
    first `tail_lanes` accumulators. fold_at(u, position, indent) gives one fold's statements;
    `literal` spells the integer constants (in the type of r and step); `step` is its text."""
    L = []
    if unroll > 1:
        L.append(f"{ind}while r + {literal(unroll - 1)} * {step} < {stop}:")
        for u in range(unroll):
            L += fold_at(u, "r" if u == 0 else f"r + {literal(u)} * {step}", ind + "    ")
        L.append(f"{ind}    r += {literal(unroll)} * {step}")
    L.append(f"{ind}while r < {stop}:")
    for u in range(tail_lanes):
        L += fold_at(u, "r", ind + "    ")
    return L + [f"{ind}    r += {step}"]


def store_result(spec, partial_at, final_at, a, i, ind):
    """Statements storing accumulator a (index i): a partial out[partial_at] (and outi), or what
    a final pass stores at out[final_at]: the index for argmin/argmax, else the value after
    `post` (mean: / divisor, std: sqrt of that) in the result dtype."""
    if not spec.final:
        return [f"{ind}out[{partial_at}] = {a}"] + ([f"{ind}outi[{partial_at}] = {i}"] if spec.op in ARG_OPS else [])
    if spec.op in ARG_OPS:
        return [f"{ind}out[{final_at}] = {i}"]
    value = a
    if spec.post:
        value = f"{a} / divisor" if spec.post == "mean" else f"math.sqrt({a} / divisor)"
    return [f"{ind}out[{final_at}] = {type_name(spec.out_dtype)}({value})"]


def _as_partial(spec):
    from dataclasses import replace
    return replace(spec, partial_input=True)


def _fold_acc(spec, u, ind):
    """Folds argument accumulator u (a{u}, i{u}) into a0, i0."""
    test = _replace_test(spec.op, f"a{u}", f"i{u}", "a0", "i0", spec.acc_dtype)
    return [f"{ind}if {test}:", f"{ind}    a0 = a{u}", f"{ind}    i0 = i{u}"]
