"""Helpers shared by workloads: size labels, sweep sizes, the libraries each shows, cells per library."""
from ..measure import measure_case
from ..model import Cell

ARRAY_LIBS = ("simt", "cupy", "torch", "numpy")       # libraries with array operations
KERNEL_LIBS = ("simt", "numba", "cupy", "torch", "numpy")


def size_label(n):
    """'n = 2**20' for powers of two, 'n = 2**24 + 11' near one, else the number."""
    p = n.bit_length() - 1
    if n == 1 << p:
        return f"n = 2**{p}"
    if 0 < n - (1 << p) < max(16, (1 << p) >> 10):  # just above a power of two
        return f"n = 2**{p} + {n - (1 << p)}"
    return f"n = {n}"


def sweep_exponents(ctx, headline=False):
    """Vector sizes (as powers of two) of the bandwidth sweeps: 2**10 ... 2**28; the quick mode
    keeps five, and 2**28 on a GPU for headline workloads only (its host-side checks take time)."""
    if not ctx.quick:
        return list(range(10, 29, 2))
    return [10, 14, 18, 22, 26] + ([28] if headline and ctx.backend == "cuda" else [])


def cells_for(ctx, names, case):
    """Each library's cell for one ArrayCase, logging progress."""
    cells = {}
    for name in names:
        lib = ctx.libs[name]
        reason = lib.unavailable_reason()
        if reason:
            cells[name] = Cell.na(reason)
            continue
        cells[name] = measure_case(ctx, lib, case)
        c = cells[name]
        ctx.log(f"    {name:6s} {c.status:5s} {'' if c.value is None else f'{c.value:.4g}'} {c.note}")
    return cells
