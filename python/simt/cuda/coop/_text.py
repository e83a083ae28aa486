"""Kernel-language text shared by the generated primitives: the thread's place in its block and
warp, warp-wide reductions and scans through shuffles, and a block-wide exchange of one value per
warp through shared memory. Every function returns a list of source lines."""
from ._common import WARP, rank_expr, shared_type, shuffle, type_name

FULL_MASK = "0xffffffff"


def offsets(width):
    """Shuffle distances 1, 2, 4, ... below `width`: increasing, so lane 0 folds its lanes in
    order (operators need only be associative, not commutative)."""
    d, out = 1, []
    while d < width:
        out.append(d)
        d *= 2
    return out


class BlockShape:
    """A block of `dims` threads seen as warps of 32: how many, and what the last one lacks."""

    def __init__(self, dims):
        self.dims = dims
        self.threads = dims[0] * dims[1] * dims[2]
        self.warps = (self.threads + WARP - 1) // WARP
        self.tail = self.threads % WARP  # lanes of a partial last warp (0: every warp is full)

    def preamble(self, ind):
        """rank, lane, warp and the shuffle mask of the thread's warp (`mask`)."""
        lines = [f"{ind}rank = {rank_expr(self.dims)}", f"{ind}lane = rank % {WARP}", f"{ind}warp = rank // {WARP}"]
        if not self.tail:
            lines.append(f"{ind}mask = {FULL_MASK}")
        elif self.warps == 1:
            lines.append(f"{ind}mask = {hex((1 << self.tail) - 1)}")
        else:  # only the last warp is partial; a shuffle names exactly the lanes that exist
            lines.append(f"{ind}mask = {FULL_MASK} if warp < {self.warps - 1} else {hex((1 << self.tail) - 1)}")
        return lines

    def lanes_in_warp(self):
        """Kernel text of how many lanes the thread's warp has."""
        if not self.tail:
            return str(WARP)
        if self.warps == 1:
            return str(self.tail)
        return f"({WARP} if warp < {self.warps - 1} else {self.tail})"

    def last_lane_test(self):
        return f"lane == {WARP - 1}" if not self.tail else f"lane == {WARP - 1} or rank == {self.threads - 1}"


def warp_reduce(var, lane, width, count, op, dtype, mask, ind):
    """Folds `var` over the lanes of each group of `width` lanes into the group's first lane.
    `count`: kernel text of how many leading lanes hold values, or None when all of them do (then
    no test is needed: the lanes lane 0 reads from only ever read lanes inside the group)."""
    lines = []
    for d in offsets(width):
        lines.append(f"{ind}t = {shuffle('down', mask, var, d, dtype)}")
        if count is None:
            lines.append(f"{ind}{var} = {op.apply(var, 't', dtype)}")
        else:
            lines += [f"{ind}if {lane} + {d} < {count}:", f"{ind}    {var} = {op.apply(var, 't', dtype)}"]
    return lines


def warp_inclusive_scan(var, lane, width, op, dtype, mask, ind):
    """`var` becomes the in-order fold of the values of lanes 0..lane of its group of `width`."""
    lines = []
    for d in offsets(width):
        lines += [f"{ind}t = {shuffle('up', mask, var, d, dtype)}",
                  f"{ind}if {lane} >= {d}:",
                  f"{ind}    {var} = {op.apply('t', var, dtype)}"]
    return lines


def thread_fold(var, items, count, op, dtype, ind):
    """`var` = the in-order fold of items[0..count)."""
    T = type_name(dtype)
    lines = [f"{ind}{var} = {T}({items}[0])"]
    if count > 1:
        lines += [f"{ind}for i in range(1, {count}):", f"{ind}    {var} = {op.apply(var, f'{T}({items}[i])', dtype)}"]
    return lines


def publish_warp_values(shape, var, writer_test, sh, dtype, ind):
    """Each warp's `var` (taken from the lane passing `writer_test`) into shared `sh[warp]`, read
    after a barrier. The barrier before the writes keeps a previous call's readers of `sh` (this
    primitive called again, e.g. in a loop) from seeing the new values early."""
    return [f"{ind}{sh} = cuda.shared.array({shape.warps}, {shared_type(dtype)})",
            f"{ind}cuda.syncthreads()",
            f"{ind}if {writer_test}:",
            f"{ind}    {sh}[warp] = {var}",
            f"{ind}cuda.syncthreads()"]
