"""merge_sort / make_merge_sort: a stable sort of keys (and their items) by a comparison operator
op(a, b) (a before b). A first pass copies runs of RUN items and insertion-sorts each run; then
each pass merges neighbouring runs, every item finding its place by a binary search in the other
run (lower bound from the left run, upper bound from the right: equal keys keep their order).
Passes alternate between d_out and a temporary so that the last one lands in d_out."""
import numpy as np

from ._algorithm import NO_TEMP, Algorithm, cached, count, temp_bytes
from ._iterators import _ArrayIterator, _FieldArrays, check_length, input_access
from ._kernels import KernelSource, launch
from ._ops import Op
from ._streams import on_stream

RUN = 8
THREADS = 256


class _MergeSort(Algorithm):
    name = "merge_sort"
    roles = ("d_in_keys", "d_in_items", "d_out_keys", "d_out_items")

    def __init__(self, d_in_keys, d_in_items, d_out_keys, d_out_items, op):
        super().__init__()
        if (d_in_items is None) != (d_out_items is None):
            raise ValueError("merge_sort: give both d_in_items and d_out_items, or neither")
        self.has_items = d_in_items is not None
        objs = (d_in_keys, d_in_items, d_out_keys, d_out_items)
        its = {r: self.bind(r, o) for r, o in zip(self.roles, objs) if o is not None}
        self.vts = []
        for src, dst in (("d_in_keys", "d_out_keys"), ("d_in_items", "d_out_items")):
            if src not in its:
                continue
            out = its[dst]
            if not isinstance(out, _ArrayIterator):
                raise TypeError(f"merge_sort: {dst} must be a device array, not a {type(out).__name__}")
            vin = its[src].value_type
            if vin is not None and vin != out.value_type:
                raise TypeError(f"merge_sort: {src} holds {vin} but {dst} holds {out.value_type}; they must match")
            self.vts.append(out.value_type)
        self.op = Op(op, 2, "merge_sort: op")
        self._kernels = {}

    def _fields(self, ks):
        return [_FieldArrays(vt, [None]).emit(ks) for vt in self.vts]

    def _first_pass(self, ins):
        k = self._kernels.get("first")
        if k is None:
            ks = KernelSource("simt_compute_merge_sort_runs")
            srcs = [input_access(it, ks, f"merge_sort: {r}") for it, r in zip(ins, self.roles)]
            dsts = self._fields(ks)
            ks.params.append("n")
            L = [f"    i0 = np.int64(cuda.grid(1)) * {RUN}",
                 "    if i0 < n:",
                 f"        e = min(i0 + {RUN}, n)",
                 "        for j in range(i0, e):"]
            for src, dst, vt in zip(srcs, dsts, self.vts):
                L += [f"            x = {src.load('j')}"] + dst.store("j", vt.cast("x"), vt, " " * 12)
            key, vk = dsts[0], self.vts[0]
            L += ["        for j in range(i0 + 1, e):",
                  f"            kv = {key.load('j')}"]
            if self.has_items:
                L.append(f"            iv = {dsts[1].load('j')}")
            L += ["            h = j - 1",
                  f"            while h >= i0 and {self.op.call(ks, 'kv', key.load('h'))}:"]
            for dst, vt in zip(dsts, self.vts):
                L += dst.store("h + 1", dst.load("h"), vt, " " * 16)
            L += ["                h -= 1"] + key.store("h + 1", "kv", vk, " " * 12)
            if self.has_items:
                L += dsts[1].store("h + 1", "iv", self.vts[1], " " * 12)
            ks.lines = L
            k = self._kernels["first"] = ks.compile()
        return k

    def _merge_pass(self):
        k = self._kernels.get("merge")
        if k is None:
            ks = KernelSource("simt_compute_merge_sort_merge")
            srcs, dsts = self._fields(ks), self._fields(ks)
            ks.params += ["n", "w"]
            key = srcs[0]
            L = ["    i = np.int64(cuda.grid(1))",
                 "    if i < n:",
                 f"        kv = {key.load('i')}",
                 "        r = i // w",
                 "        base = (r // 2) * 2 * w",
                 "        if r % 2 == 0:",  # left run: after the right run's keys that are strictly before kv
                 "            lo = min(base + w, n)",
                 "            hi = min(base + 2 * w, n)",
                 "            ob = lo",
                 "            while lo < hi:",
                 "                mid = (lo + hi) // 2",
                 f"                if {self.op.call(ks, key.load('mid'), 'kv')}:",
                 "                    lo = mid + 1",
                 "                else:",
                 "                    hi = mid",
                 "            d = i + (lo - ob)",
                 "        else:",  # right run: after the left run's keys that kv is not before
                 "            lo = base",
                 "            hi = base + w",
                 "            while lo < hi:",
                 "                mid = (lo + hi) // 2",
                 f"                if {self.op.call(ks, 'kv', key.load('mid'))}:",
                 "                    hi = mid",
                 "                else:",
                 "                    lo = mid + 1",
                 "            d = i - w + (lo - base)"]
            for src, dst, vt in zip(srcs, dsts, self.vts):
                L += dst.store("d", src.load("i"), vt, " " * 8)
            ks.lines = L
            k = self._kernels["merge"] = ks.compile()
        return k

    def __call__(self, temp_storage, d_in_keys, d_in_items, d_out_keys, d_out_items, num_items, stream=None):
        if (d_in_items is not None) != self.has_items or (d_out_items is not None) != self.has_items:
            raise TypeError(f"merge_sort: this object was built {'with' if self.has_items else 'without'} items")
        objs = (d_in_keys, d_in_items, d_out_keys, d_out_items)
        its = [self.same(r, o) if o is not None else None for r, o in zip(self.roles, objs)]
        ins, outs = [it for it in its[:2] if it is not None], [it for it in its[2:] if it is not None]
        n = count(num_items, "merge_sort: num_items")
        for it, r in zip(ins + outs, [r for r, o in zip(self.roles, objs) if o is not None]):
            check_length(it, n, f"merge_sort: {r}")
        runs = -(-n // RUN)
        passes = max(0, (runs - 1).bit_length()) if runs > 1 else 0
        needed = n * sum(vt.itemsize for vt in self.vts) if passes else 0
        if temp_storage is None:
            return needed
        temp_bytes(temp_storage, needed, "merge_sort")
        if n == 0:
            return needed
        with on_stream(stream, "merge_sort"):
            out_bufs = [o.array for o in outs]
            tmp_bufs = [vt.alloc(n)[0] for vt in self.vts] if passes else out_bufs
            # Pass k writes d_out when passes - k is even, so that the last one does.
            bufs = [out_bufs, tmp_bufs]
            dst = bufs[passes % 2]
            launch(self._first_pass(ins), -(-runs // THREADS), THREADS,
                   [v for it in ins for v in it.state()] + dst + [np.int64(n)])
            w = RUN
            for k in range(1, passes + 1):
                src, dst = dst, bufs[(passes - k) % 2]
                launch(self._merge_pass(), -(-n // THREADS), THREADS, src + dst + [np.int64(n), np.int64(w)])
                w *= 2
        return needed


def make_merge_sort(d_in_keys, d_in_items, d_out_keys, d_out_items, op):
    """A reusable merge sort: obj(temp_storage, d_in_keys, d_in_items, d_out_keys, d_out_items,
    num_items, stream=None); items None for keys only."""
    return _MergeSort(d_in_keys, d_in_items, d_out_keys, d_out_items, op)


def merge_sort(d_in_keys, d_in_items, d_out_keys, d_out_items, op, num_items, stream=None):
    """Sorts num_items keys (and their items) stably into d_out_keys (d_out_items) by op(a, b):
    true when a goes before b (OpKind.LESS: ascending)."""
    s = cached(_MergeSort, d_in_keys, d_in_items, d_out_keys, d_out_items, op)
    s(NO_TEMP, d_in_keys, d_in_items, d_out_keys, d_out_items, num_items, stream)
