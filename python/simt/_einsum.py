"""simt.einsum: NumPy's subscript notation (explicit `->` output or the implicit one, `...`
broadcasting, repeated labels for diagonals): labels one operand alone uses are summed out first,
and each pair becomes one batched matmul over the labels they share. Pairs are contracted left to
right, or, with `optimize`, in the order NumPy's einsum_path picks from the operands' shapes."""
import math
import string

import numpy as np

_LETTERS = set(string.ascii_letters)


def _check_spec(spec, where):
    if spec.count("...") > 1 or "." in spec.replace("...", ""):
        raise ValueError(f"einsum: {where} has an invalid ellipsis")
    bad = [c for c in spec.replace("...", "") if c not in _LETTERS]
    if bad:
        raise ValueError(f"einsum: invalid subscript '{bad[0]}' in {where}")


def _ellipsis_labels(n):
    """Labels for n broadcast axes, outside the alphabet and aligned from the right (an operand's
    last broadcast axis is U+0100 in every operand)."""
    return [chr(0x100 + k) for k in range(n - 1, -1, -1)]


def _parse(subscripts, operands):
    """(each operand's labels, the output's labels)."""
    subscripts = subscripts.replace(" ", "")
    explicit = "->" in subscripts
    inputs, output = subscripts.split("->") if explicit else (subscripts, None)
    specs = inputs.split(",")
    if len(specs) != len(operands):
        raise ValueError(f"einsum: {len(specs)} operand subscripts for {len(operands)} operands")
    labels = []
    for k, (spec, a) in enumerate(zip(specs, operands)):
        where = f"operand {k}'s subscripts '{spec}'"
        _check_spec(spec, where)
        if "..." in spec:
            head, tail = spec.split("...")
            n = a.ndim - len(head) - len(tail)
            if n < 0:
                raise ValueError(f"einsum: {where} name more axes than its {a.ndim}")
            labels.append(list(head) + _ellipsis_labels(n) + list(tail))
        else:
            if len(spec) != a.ndim:
                raise ValueError(f"einsum: {where} name {len(spec)} axes of an operand with {a.ndim}")
            labels.append(list(spec))
    broadcast = sorted({c for ls in labels for c in ls if ord(c) >= 0x100}, key=ord, reverse=True)
    if explicit:
        _check_spec(output, "the output")
        head, _, tail = output.partition("...")
        out = list(head) + (broadcast if "..." in output else []) + list(tail)
        for c in out:
            if not any(c in ls for ls in labels):
                raise ValueError(f"einsum: output subscript '{c}' does not appear in the inputs")
        if len(set(out)) != len(out):
            raise ValueError("einsum: an output subscript appears more than once")
        if broadcast and "..." not in output:
            raise ValueError("einsum: the output needs '...' where the inputs broadcast")
    else:  # the broadcast axes, then the labels used once, in alphabetical order
        counts = {}
        for ls in labels:
            for c in ls:
                counts[c] = counts.get(c, 0) + 1
        out = broadcast + sorted(c for c, n in counts.items() if n == 1 and ord(c) < 0x100)
    return labels, out


def _sizes(labels, operands):
    """Each label's extent (1 broadcasts against any other)."""
    sizes = {}
    for ls, a in zip(labels, operands):
        for c, n in zip(ls, a.shape):
            if c in sizes and n != sizes[c] and 1 not in (n, sizes[c]):
                raise ValueError(f"einsum: operands could not be broadcast together (subscript '{c}': {sizes[c]} "
                                 f"and {n})")
            sizes[c] = max(sizes.get(c, n), n)
    return sizes


def _take_diagonals(a, ls):
    """a with repeated labels reduced to their diagonal (one axis per distinct label)."""
    from ._matrix_shapes import diagonal
    ls = list(ls)
    while len(set(ls)) != len(ls):
        for i, c in enumerate(ls):
            j = ls.index(c, i + 1) if c in ls[i + 1:] else -1
            if j >= 0:
                if a.shape[i] != a.shape[j]:
                    raise ValueError(f"einsum: repeated subscript '{c}' spans axes of sizes {a.shape[i]} and "
                                     f"{a.shape[j]}")
                a = diagonal(a, 0, i, j)  # (the diagonal goes last)
                ls = [x for k, x in enumerate(ls) if k not in (i, j)] + [c]
                break
    return a, ls


def _sum_out(a, ls, keep):
    """a summed over the labels not in `keep`."""
    from ._reductions import sum as asum
    axes = tuple(i for i, c in enumerate(ls) if c not in keep)
    if axes:
        a = asum(a, axis=axes)
        ls = [c for c in ls if c in keep]
    return a, ls


def _arrange(a, ls, order, sizes):
    """a with axes in `order` (labels it lacks become axes of size 1)."""
    from ._manipulation import transpose
    perm = [ls.index(c) for c in order if c in ls]
    a = transpose(a, perm) if perm != list(range(a.ndim)) else a
    shape = tuple(sizes[c] if c in ls else 1 for c in order)
    return a.reshape(shape) if shape != a.shape else a


def _contract(a, la, b, lb, keep, sizes):
    """a (labels la) times b (labels lb), summed over the labels they share that `keep` lacks,
    as one batched matmul: batch labels (both, kept), then a's, the summed ones, b's."""
    from ._manipulation import broadcast_to
    from ._matmul import matmul
    shared = [c for c in la if c in lb]
    summed = [c for c in shared if c not in keep]
    batch = [c for c in shared if c in keep]
    only_a = [c for c in la if c not in lb]
    only_b = [c for c in lb if c not in la]
    A = _arrange(a, la, batch + only_a + summed, sizes)
    B = _arrange(b, lb, batch + summed + only_b, sizes)
    nb = [sizes[c] for c in batch]
    A = broadcast_to(A, tuple(nb) + A.shape[len(batch):]) if batch else A
    B = broadcast_to(B, tuple(nb) + B.shape[len(batch):]) if batch else B
    m, k, n = math.prod(sizes[c] for c in only_a), math.prod(sizes[c] for c in summed), math.prod(sizes[c] for c in only_b)
    A = A.reshape(tuple(nb) + (m, k))
    B = B.reshape(tuple(nb) + (k, n))
    C = matmul(A, B).reshape(tuple(nb) + tuple(sizes[c] for c in only_a + only_b))
    return C, batch + only_a + only_b


def _steps(subscripts, arrays, optimize):
    """The contractions, in order: each a tuple of positions in the list of pending operands
    (they leave it, their product goes last), as NumPy's einsum_path gives them; a step of more
    than two operands is contracted pair by pair."""
    n = len(arrays)
    if isinstance(optimize, (list, tuple)) and optimize and optimize[0] == "einsum_path":
        path = list(optimize[1:])
    elif optimize is False or optimize is None or n < 3:
        return [(0, 1)] * (n - 1)
    else:
        # Stand-ins of the operands' shapes that hold no memory: einsum_path looks at shapes only.
        stand_ins = [np.broadcast_to(np.zeros((), a.dtype), a.shape) for a in arrays]
        path = np.einsum_path(subscripts, *stand_ins, optimize="greedy" if optimize is True else optimize)[0][1:]
    steps, left = [], n
    for step in path:
        step = tuple(int(i) for i in step)
        if len(step) == 1:  # (a single operand's own reduction: done before the contractions)
            continue
        if len(step) < 2 or not all(0 <= i < left for i in step) or len(set(step)) != len(step):
            raise ValueError(f"einsum: the contraction path step {step} does not name distinct pending operands "
                             f"(there are {left})")
        steps.append(step)
        left -= len(step) - 1
    if left != 1:
        raise ValueError("einsum: the contraction path does not contract every operand")
    return steps


def einsum(subscripts, *operands, out=None, dtype=None, optimize=False, casting="safe", order="K"):
    """Einstein summation of simt arrays (NumPy's subscripts). `optimize` (True, 'greedy',
    'optimal', or an einsum_path list) contracts the operands in the order NumPy's einsum_path
    picks from their shapes; without it, left to right."""
    from ._manipulation import _device_array, broadcast_to
    from ._reduce_passes import finish
    if not isinstance(subscripts, str):
        raise TypeError("einsum: simt supports the subscripts-string form only")
    if not operands:
        raise ValueError("einsum: no operands given")
    arrays = [_device_array(a, f"einsum's operand {k}") if not np.isscalar(a) else _scalar(a)
              for k, a in enumerate(operands)]
    labels, output = _parse(subscripts, arrays)
    sizes = _sizes(labels, arrays)
    result_dtype = np.result_type(*[a.dtype for a in arrays]) if dtype is None else np.dtype(dtype)
    for a in arrays:
        if not np.can_cast(a.dtype, result_dtype, casting):
            raise TypeError(f"einsum: cannot cast array data from {a.dtype!r} to {result_dtype!r} according to the "
                            f"rule '{casting}'")
    arrays = [a.astype(result_dtype) if a.dtype != result_dtype else a for a in arrays]
    pending = []
    for k, (a, ls) in enumerate(zip(arrays, labels)):
        a, ls = _take_diagonals(a, ls)
        full = tuple(sizes[c] for c in ls)
        a = broadcast_to(a, full) if a.shape != full else a
        later = set(output).union(*[set(x) for j, x in enumerate(labels) if j != k])
        a, ls = _sum_out(a, ls, later)
        pending.append((a, ls))
    for step in _steps(subscripts, arrays, optimize):
        items = [pending[i] for i in step]
        pending = [p for k, p in enumerate(pending) if k not in step]
        a, la = items[0]
        for m in range(1, len(items)):
            b, lb = items[m]
            keep = set(output).union(*[set(ls) for _, ls in pending + items[m + 1:]])
            a, la = _contract(a, la, b, lb, keep, sizes)
        pending.append((a, la))
    a, la = pending[0]
    a, la = _sum_out(a, la, set(output))
    result = _arrange(a, la, output, sizes)
    result = broadcast_to(result, tuple(sizes[c] for c in output))
    return finish(result if result._c_contiguous else result.copy(), out, "einsum")


def _scalar(x):
    from ._creation import asarray
    return asarray(x)
