"""coop.block.exclusive_sum / inclusive_sum / exclusive_scan / inclusive_scan over a blocked
arrangement (thread r owns items r*k .. r*k+k-1). Each thread folds its items, each warp scans
its lanes' folds through shuffles, the warps' totals meet in shared memory (one slot per warp),
and each thread folds the totals of the warps before its own into its prefix."""
from . import _common as c
from ._text import BlockShape, publish_warp_values, thread_fold, warp_inclusive_scan

_ALGORITHMS = ("raking", "raking_memoize", "warp_scans")


def _prefix_lines(shape, items_per_thread, op, dtype, has_init):
    """Lines leaving in `pre` the fold of every item of the threads before this one (with the
    initial value first when there is one) and in `has` whether `pre` holds anything."""
    T = c.type_name(dtype)
    L = shape.preamble("    ")
    if items_per_thread == 1:
        L.append(f"    x = {c.type_name(dtype)}(item)")
        L.append("    inc = x")
    else:
        L += thread_fold("inc", "inp", items_per_thread, op, dtype, "    ")
    L += warp_inclusive_scan("inc", "lane", min(c.WARP, shape.threads), op, dtype, "mask", "    ")
    L += [f"    pre = {c.shuffle('up', 'mask', 'inc', 1, dtype)}", "    has = lane > 0"]
    if shape.warps > 1:
        L += publish_warp_values(shape, "inc", shape.last_lane_test(), "sh", dtype, "    ")
        L += ["    if warp > 0:",
              f"        wp = {T}(sh[0])",
              "        for w in range(1, warp):",
              f"            wp = {op.apply('wp', f'{T}(sh[w])', dtype)}",
              "        if has:",
              f"            pre = {op.apply('wp', 'pre', dtype)}",
              "        else:",
              "            pre = wp",
              "        has = True"]
    if has_init:
        L += ["    if has:", f"        pre = {op.apply('init', 'pre', dtype)}", "    else:", "        pre = init",
              "    has = True"]
    return L


def _source(name, dtype, dims, items_per_thread, op, inclusive, has_init):
    shape = BlockShape(dims)
    T = c.type_name(dtype)
    single = items_per_thread == 1
    L = [f"def {name}(item):" if single else f"def {name}(inp, out):"]
    L += _prefix_lines(shape, items_per_thread, op, dtype, has_init)
    if single and inclusive:
        L += ["    if has:", f"        return {op.apply('pre', 'x', dtype)}", "    return x"]
    elif single:
        L.append("    return pre")
    elif inclusive:
        L += ["    run = pre",
              f"    for i in range({items_per_thread}):",
              f"        x = {T}(inp[i])",
              "        if has or i > 0:",
              f"            run = {op.apply('run', 'x', dtype)}",
              "        else:",
              "            run = x",
              "        out[i] = run"]
    else:  # the input is read before the output is written: in place (inp is out) works
        L += ["    run = pre",
              f"    for i in range({items_per_thread}):",
              f"        x = {T}(inp[i])",
              "        out[i] = run",
              f"        run = {op.apply('run', 'x', dtype)}"]
    return "\n".join(L) + "\n"


def _scan(where, dtype, threads_per_block, items_per_thread, scan_op, initial_value, inclusive, prefix_op, algorithm,
          methods):
    c.no_methods(methods, where)
    dtype = c.normalize_dtype(dtype, where)
    dims = c.normalize_block(threads_per_block, where)
    items_per_thread = c.normalize_items(items_per_thread, where)
    if algorithm not in _ALGORITHMS:
        raise ValueError(f"{where}: algorithm must be one of {', '.join(map(repr, _ALGORITHMS))}, not {algorithm!r}")
    if prefix_op is not None:
        raise NotImplementedError(f"{where}: prefix_op (a block prefix callback) is not supported by simt; carry "
                                  "the running prefix between tiles in a variable and give it as initial_value")
    op = c.Op(scan_op, dtype, where, "scan_op")
    names = op.names()
    if op.is_sum and initial_value is None and not inclusive:
        initial_value = 0  # exclusive sums start from zero
    if initial_value is None and not inclusive:
        raise ValueError(f"{where}: an exclusive scan needs an initial_value (what the first item's output is)")
    if initial_value is not None:
        try:
            names["init"] = dtype.type(initial_value)
        except (TypeError, ValueError, OverflowError) as e:
            raise ValueError(f"{where}: initial_value {initial_value!r} is not a {dtype} ({e})") from None
    kind = ("inclusive_" if inclusive else "exclusive_") + ("sum" if op.is_sum else "scan")
    name = f"coop_block_{kind}_{dtype.name}_{c.block_of(dims)}_{items_per_thread}"
    warps = (dims[0] * dims[1] * dims[2] + c.WARP - 1) // c.WARP
    source = _source(name, dtype, dims, items_per_thread, op, inclusive, initial_value is not None)
    return c.Primitive(where, name, source, names, c.shared_itemsize(dtype) * warps if warps > 1 else 0, dtype.itemsize)


def exclusive_sum(dtype, threads_per_block, items_per_thread=1, prefix_op=None, algorithm="raking", methods=None):
    """A block-wide exclusive prefix sum (thread 0's first output is 0). In a kernel:
    `out = block_exclusive_sum(item)`, or with items_per_thread > 1
    `block_exclusive_sum(items_in, items_out)` (local arrays; the same array works)."""
    return _scan("coop.block.exclusive_sum", dtype, threads_per_block, items_per_thread, "+", None, False, prefix_op,
                 algorithm, methods)


def inclusive_sum(dtype, threads_per_block, items_per_thread=1, prefix_op=None, algorithm="raking", methods=None):
    """A block-wide inclusive prefix sum, called as exclusive_sum is."""
    return _scan("coop.block.inclusive_sum", dtype, threads_per_block, items_per_thread, "+", None, True, prefix_op,
                 algorithm, methods)


def exclusive_scan(dtype, threads_per_block, scan_op, initial_value=None, items_per_thread=1, prefix_op=None,
                   algorithm="raking", methods=None):
    """A block-wide exclusive scan with `scan_op` (associative; a function or a name such as
    'max'); initial_value is thread 0's first output and is folded in front of every prefix."""
    return _scan("coop.block.exclusive_scan", dtype, threads_per_block, items_per_thread, scan_op, initial_value,
                 False, prefix_op, algorithm, methods)


def inclusive_scan(dtype, threads_per_block, scan_op, initial_value=None, items_per_thread=1, prefix_op=None,
                   algorithm="raking", methods=None):
    """A block-wide inclusive scan with `scan_op`; an initial_value, if given, is folded in front."""
    return _scan("coop.block.inclusive_scan", dtype, threads_per_block, items_per_thread, scan_op, initial_value,
                 True, prefix_op, algorithm, methods)

