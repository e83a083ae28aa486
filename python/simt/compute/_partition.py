"""three_way_partition and select (stream compaction), with their make_* objects. Each item's
part is decided by the predicates; an exclusive scan of packed per-part flags (first part in
the low 32 bits, second in the high) gives every item its output position; a last kernel
scatters the items and writes the counts. Every part keeps the input order."""
import numpy as np

from ._algorithm import NO_TEMP, Algorithm, cached, count, temp_bytes
from ._flags import Flags, positions
from ._iterators import DiscardIterator, _ArrayIterator, check_length, input_access, output_access
from ._kernels import KernelSource, launch
from ._ops import Op
from ._streams import on_stream

THREADS = 256
_MAX_ITEMS = (1 << 31) - 1  # the packed positions hold 31-bit counts


def _conditions(ks, ops, x):
    """Kernel text of (in first part, in second part) for item text x."""
    c1 = f"bool({ops[0].call(ks, x)})"
    if len(ops) == 1:
        return c1, "False"
    return c1, f"(not {c1} and bool({ops[1].call(ks, x)}))"


class _ThreeWayPartition(Algorithm):
    name = "three_way_partition"
    roles = ("d_in", "d_first_part_out", "d_second_part_out", "d_unselected_out", "d_num_selected_out")

    def __init__(self, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                 select_first_part_op, select_second_part_op):
        super().__init__()
        its = [self.bind(r, o) for r, o in zip(self.roles, (d_in, d_first_part_out, d_second_part_out,
                                                          d_unselected_out, d_num_selected_out))]
        if not isinstance(its[-1], _ArrayIterator) or its[-1].value_type.dtype.kind not in "iu":
            raise TypeError(f"{self.name}: d_num_selected_out must be an integer device array, not a "
                            f"{type(its[-1]).__name__} of {its[-1].value_type}")
        self.ops = [Op(select_first_part_op, 1, f"{self.name}: select_first_part_op")]
        if select_second_part_op is not None:
            self.ops.append(Op(select_second_part_op, 1, f"{self.name}: select_second_part_op"))
        self._kernel = None

    def _flags(self, in_it):
        ops = self.ops

        def expr(ks, accs, idx):
            c1, c2 = _conditions(ks, ops, accs[0].load(idx))
            return f"((np.int64(1) if {c1} else np.int64(0)) + (np.int64(4294967296) if {c2} else np.int64(0)))"
        return Flags([in_it], expr, tuple(op.key() for op in ops))

    def _compile(self, its):
        if self._kernel is None:
            ks = KernelSource(f"simt_compute_{self.name}")
            inp = input_access(its[0], ks, f"{self.name}: d_in")
            outs = [output_access(it, ks, f"{self.name}: {r}") for it, r in zip(its[1:], self.roles[1:])]
            pos = ks.param("pos")
            ks.params.append("n")
            vt = its[0].value_type
            c1, c2 = _conditions(ks, self.ops, "xv")
            L = ["    i = cuda.grid(1)",
                 "    if i < n:",
                 f"        xv = {inp.load('i')}",
                 f"        c1 = {c1}",
                 f"        c2 = {c2}",
                 f"        p = {pos}[i]",
                 "        p1 = p & np.int64(4294967295)",
                 "        p2 = p >> np.int64(32)",
                 "        if c1:"]
            L += outs[0].store("p1", "xv", vt, " " * 12) or ["            pass"]
            L += ["        elif c2:"]
            L += outs[1].store("p2", "xv", vt, " " * 12) or ["            pass"]
            L += ["        else:"]
            L += outs[2].store("i - p1 - p2", "xv", vt, " " * 12) or ["            pass"]
            L += ["        if i == n - 1:",
                  "            t1 = p1 + (np.int64(1) if c1 else np.int64(0))",
                  "            t2 = p2 + (np.int64(1) if c2 else np.int64(0))"]
            L += outs[3].store("0", "t1", None, " " * 12)
            if len(self.ops) > 1:
                L += outs[3].store("1", "t2", None, " " * 12)
            ks.lines = L
            self._kernel = ks.compile()
        return self._kernel

    def run(self, temp_storage, objs, num_items, stream):
        its = [self.same(r, o) for r, o in zip(self.roles, objs)]
        n = count(num_items, f"{self.name}: num_items")
        if n > _MAX_ITEMS:
            raise ValueError(f"{self.name}: num_items={n} is more than the {_MAX_ITEMS} items it handles")
        check_length(its[0], n, f"{self.name}: d_in")
        for it, r in zip(its[1:4], self.roles[1:4]):
            check_length(it, n, f"{self.name}: {r}")
        check_length(its[4], len(self.ops), f"{self.name}: d_num_selected_out", "its counts")
        needed = 8 * max(n, 1)
        if temp_storage is None:
            return needed
        temp_bytes(temp_storage, needed, self.name)
        with on_stream(stream, self.name):
            if n == 0:
                its[4].array[:len(self.ops)] = 0
                return needed
            pos = positions(self._flags(its[0]), n)
            k = self._compile(its)
            args = [v for it in its for v in it.state()] + [pos, np.int64(n)]
            launch(k, -(-n // THREADS), THREADS, args)
        return needed

    def __call__(self, temp_storage, d_in, d_first_part_out, d_second_part_out, d_unselected_out,
                 d_num_selected_out, num_items, stream=None):
        objs = (d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out)
        return self.run(temp_storage, objs, num_items, stream)


class _Select(_ThreeWayPartition):
    name = "select"

    def __init__(self, d_in, d_out, d_num_selected_out, cond):
        super().__init__(d_in, d_out, DiscardIterator(), DiscardIterator(), d_num_selected_out, cond, None)

    def __call__(self, temp_storage, d_in, d_out, d_num_selected_out, num_items, stream=None):
        objs = (d_in, d_out, DiscardIterator(), DiscardIterator(), d_num_selected_out)
        return self.run(temp_storage, objs, num_items, stream)


def make_three_way_partition(d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                             select_first_part_op, select_second_part_op):
    """A reusable three-way partition: obj(temp_storage, d_in, d_first_part_out, d_second_part_out,
    d_unselected_out, d_num_selected_out, num_items, stream=None)."""
    return _ThreeWayPartition(d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                              select_first_part_op, select_second_part_op)


def three_way_partition(d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
                        select_first_part_op, select_second_part_op, num_items, stream=None):
    """Items where select_first_part_op holds go to d_first_part_out; of the rest, those where
    select_second_part_op holds to d_second_part_out; the others to d_unselected_out (each in input
    order). d_num_selected_out[0] and [1] get the sizes of the first two parts."""
    p = cached(_ThreeWayPartition, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out,
               select_first_part_op, select_second_part_op)
    p(NO_TEMP, d_in, d_first_part_out, d_second_part_out, d_unselected_out, d_num_selected_out, num_items, stream)


def make_select(d_in, d_out, d_num_selected_out, cond):
    """A reusable selection: obj(temp_storage, d_in, d_out, d_num_selected_out, num_items, stream=None)."""
    return _Select(d_in, d_out, d_num_selected_out, cond)


def select(d_in, d_out, d_num_selected_out, cond, num_items, stream=None):
    """Copies the items where cond(item) holds to d_out, in order; their number to
    d_num_selected_out[0]."""
    cached(_Select, d_in, d_out, d_num_selected_out, cond)(NO_TEMP, d_in, d_out, d_num_selected_out, num_items,
                                                           stream)
