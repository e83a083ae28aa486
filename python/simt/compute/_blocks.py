"""Kernel text shared by the simt.compute algorithms: applying an operator with a cast back to the
value type, and block-wide reduce and scan through shared memory. Neither needs an identity
element (user operators have none): threads past the valid count never contribute."""


def combine(ks, vt, op, target, a, b, ind):
    """Statements `target = op(a, b)` cast to value type vt."""
    expr = op.call(ks, a, b)
    if not vt.is_tuple:
        return [f"{ind}{target} = {vt.cast(expr)}"]
    r = ks.tmp("r")
    return [f"{ind}{r} = {expr}", f"{ind}{target} = {vt.cast(r)}"]


def load_cast(ks, vt, access, idx, target, ind):
    """Statements reading item `idx` of `access` into `target`, cast to vt."""
    x = ks.tmp("x")
    return [f"{ind}{x} = {access.load(idx)}", f"{ind}{target} = {vt.cast(x)}"]


def block_reduce(ks, vt, op, var, nvalid, threads, ind):
    """Statements leaving in thread 0's `var` the combination of `var` over threads 0..nvalid-1
    (a tree in shared memory; assumes a commutative operator, as reductions do). Every thread of
    the block runs them. Declares the shared arrays `red*`."""
    ks.prologue += vt.shared_decl("red", threads)
    other = ks.tmp("o")
    lines = [f"{ind}{other} = {vt.zero()}"]
    lines += vt.shared_store("red", "tid", var, ind)
    lines.append(f"{ind}cuda.syncthreads()")
    w = threads // 2
    while w >= 1:
        lines.append(f"{ind}if tid < {w} and tid + {w} < {nvalid}:")
        lines.append(f"{ind}    {other} = {vt.shared_load('red', f'tid + {w}')}")
        lines += combine(ks, vt, op, var, var, other, ind + "    ")
        lines += vt.shared_store("red", "tid", var, ind + "    ")
        lines.append(f"{ind}cuda.syncthreads()")
        w //= 2
    return lines


def block_scan(ks, vt, op, var, threads, ind):
    """Statements turning each thread's `var` into the inclusive scan of `var` over threads
    0..tid in thread order (Hillis-Steele in shared memory; keeps the operator's operand order).
    Threads past the valid ones only feed threads after them. Declares the shared arrays `tot*`;
    on exit tot holds the scanned values."""
    ks.prologue += vt.shared_decl("tot", threads)
    other = ks.tmp("o")
    lines = [f"{ind}{other} = {vt.zero()}"]
    lines += vt.shared_store("tot", "tid", var, ind)
    lines.append(f"{ind}cuda.syncthreads()")
    d = 1
    while d < threads:
        lines += [f"{ind}if tid >= {d}:",
                  f"{ind}    {other} = {vt.shared_load('tot', f'tid - {d}')}",
                  f"{ind}cuda.syncthreads()",
                  f"{ind}if tid >= {d}:"]
        lines += combine(ks, vt, op, var, other, var, ind + "    ")
        lines += vt.shared_store("tot", "tid", var, ind + "    ")
        lines.append(f"{ind}cuda.syncthreads()")
        d *= 2
    return lines
