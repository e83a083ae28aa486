"""unique_by_key / make_unique_by_key: keeps the first key (and its item) of every run of
consecutive keys that op calls equal, in order, and writes how many were kept. A flag per item
(first of its run), its exclusive prefix sum (the output positions) and a scatter."""
import numpy as np

from ._algorithm import NO_TEMP, Algorithm, cached, count, temp_bytes
from ._flags import Flags, positions
from ._iterators import _ArrayIterator, check_length, input_access, output_access
from ._kernels import KernelSource, launch
from ._ops import Op
from ._streams import on_stream

THREADS = 256


class _UniqueByKey(Algorithm):
    name = "unique_by_key"
    roles = ("d_in_keys", "d_in_items", "d_out_keys", "d_out_items", "d_out_num_selected")

    def __init__(self, d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op):
        super().__init__()
        its = [self.bind(r, o) for r, o in zip(self.roles, (d_in_keys, d_in_items, d_out_keys, d_out_items,
                                                          d_out_num_selected))]
        if not isinstance(its[-1], _ArrayIterator) or its[-1].value_type.dtype.kind not in "iu":
            raise TypeError(f"unique_by_key: d_out_num_selected must be an integer device array, not a "
                            f"{type(its[-1]).__name__} of {its[-1].value_type}")
        for a, b in ((0, 2), (1, 3)):
            va, vb = its[a].value_type, its[b].value_type
            if va is not None and vb is not None and va != vb:
                raise TypeError(f"unique_by_key: {self.roles[b]} holds {vb} but {self.roles[a]} holds {va}; "
                                "they must match")
        self.op = Op(op, 2, "unique_by_key: op")
        self._kernel = None

    def _flags(self, keys):
        op = self.op

        def expr(ks, accs, idx):
            k = accs[0]
            same = op.call(ks, k.load(f"{idx} - 1"), k.load(idx))
            return f"(np.int64(1) if {idx} == 0 else (np.int64(0) if {same} else np.int64(1)))"
        return Flags([keys], expr, op.key())

    def _compile(self, its):
        if self._kernel is None:
            ks = KernelSource("simt_compute_unique_by_key")
            keys, items = (input_access(it, ks, f"unique_by_key: {r}") for it, r in zip(its[:2], self.roles[:2]))
            out_keys, out_items, num = (output_access(it, ks, f"unique_by_key: {r}")
                                        for it, r in zip(its[2:], self.roles[2:]))
            pos = ks.param("pos")
            ks.params.append("n")
            L = ["    i = cuda.grid(1)",
                 "    if i < n:",
                 "        first = i == 0",
                 "        if not first:",
                 f"            first = not ({self.op.call(ks, keys.load('i - 1'), keys.load('i'))})",
                 "        if first:",
                 f"            kv = {keys.load('i')}",
                 f"            iv = {items.load('i')}"]
            L += out_keys.store(f"{pos}[i]", "kv", its[0].value_type, " " * 12)
            L += out_items.store(f"{pos}[i]", "iv", its[1].value_type, " " * 12)
            L += ["        if i == n - 1:",
                  f"            total = {pos}[i] + (np.int64(1) if first else np.int64(0))"]
            L += num.store("0", "total", None, " " * 12)
            ks.lines = L
            self._kernel = ks.compile()
        return self._kernel

    def __call__(self, temp_storage, d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected,
                 num_items, stream=None):
        objs = (d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected)
        its = [self.same(r, o) for r, o in zip(self.roles, objs)]
        n = count(num_items, "unique_by_key: num_items")
        for it, r in zip(its[:4], self.roles[:4]):
            check_length(it, n, f"unique_by_key: {r}")
        check_length(its[4], 1, "unique_by_key: d_out_num_selected", "1")
        needed = 8 * max(n, 1)
        if temp_storage is None:
            return needed
        temp_bytes(temp_storage, needed, "unique_by_key")
        with on_stream(stream, "unique_by_key"):
            if n == 0:
                its[4].array[:1] = 0
                return needed
            pos = positions(self._flags(its[0]), n)
            args = [v for it in its for v in it.state()] + [pos, np.int64(n)]
            launch(self._compile(its), -(-n // THREADS), THREADS, args)
        return needed


def make_unique_by_key(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op):
    """A reusable unique_by_key: obj(temp_storage, d_in_keys, d_in_items, d_out_keys, d_out_items,
    d_out_num_selected, num_items, stream=None)."""
    return _UniqueByKey(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op)


def unique_by_key(d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op, num_items, stream=None):
    """Keeps the first key and item of each run of consecutive keys equal under op (a binary
    equality); d_out_num_selected[0] = how many."""
    u = cached(_UniqueByKey, d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, op)
    u(NO_TEMP, d_in_keys, d_in_items, d_out_keys, d_out_items, d_out_num_selected, num_items, stream)
