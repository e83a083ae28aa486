"""What the hardware can do: the measured device copy bandwidth every bandwidth figure is read
against (cuBLAS, the matmul limit, is measured beside simt in the matmul workload)."""
from ..measure import ArrayCase, close_enough
from ..model import Cell, Row
from ..stats import gbps
from ..suite import workload
from .common import cells_for, size_label

METHOD = ("A device-to-device copy of one large float64 array (1 GiB on a GPU, 256 MiB on the cpu "
          "backend), read plus write bytes over the median time, through every library present; the "
          "best is the copy limit quoted beside the bandwidth workloads. simt has no copy-into yet, so "
          "its figure includes allocating the destination.")


def _copy_row(ctx):
    n = 2**27 if ctx.backend == "cuda" else 2**25
    a = ctx.rng.uniform(-1, 1, n)
    case = ArrayCase("copy", [a], a, 2 * a.nbytes, gbps, lambda r, e: close_enough(r, e, 0.0))
    row = Row(f"copy, {size_label(n)} float64 ({a.nbytes / 2**20:.0f} MiB)", "GB/s", True, params={"n": n})
    ctx.log("  copy bandwidth")
    row.cells = cells_for(ctx, ("simt", "cupy", "torch", "numpy"), case)
    return row


def copy_limit(ctx):
    """(name, Cell) of the best measured copy bandwidth; measured once per run."""
    if "copy_limit" not in ctx.shared:
        row = _copy_row(ctx)
        ctx.shared["copy_row"] = row
        best = max((c for c in row.cells.values() if c.usable), key=lambda c: c.value, default=None)
        if best is None:
            limit = Cell.na("no library could copy")
        else:
            who = next(name for name, c in row.cells.items() if c is best)
            limit = Cell.ok(best.value, note=f"measured with {who}")
        ctx.shared["copy_limit"] = limit
    return ctx.shared["copy_limit"]


@workload("limits", "Hardware limit: device copy bandwidth", METHOD)
def run(ctx):
    limit = copy_limit(ctx)
    row = ctx.shared["copy_row"]
    if not limit.usable:
        return [row], [limit.note]
    return [row], [f"copy limit quoted by the bandwidth workloads: {limit.value:.4g} GB/s, {limit.note}"]
