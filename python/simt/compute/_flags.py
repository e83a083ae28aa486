"""Stream compaction's first step, shared by select, three_way_partition and unique_by_key: an
int64 flag per item computed from iterators (fused into the scan as an iterator) and its
exclusive prefix sum, each item's position in the output."""
import numpy as np

from ._iterators import Access, IteratorBase
from ._ops import OpKind
from ._values import ValueType


class Flags(IteratorBase):
    """An int64 per position, the text `make_expr(ks, accesses, idx)` over the given iterators."""
    value_type = ValueType.scalar(np.int64)

    def __init__(self, its, make_expr, key):
        self.its, self.make_expr, self._key = list(its), make_expr, key

    def key(self):
        return ("flags", self._key) + tuple(it.key() for it in self.its)

    def emit(self, ks):
        accs = [it.emit(ks) for it in self.its]
        return Access(lambda idx: self.make_expr(ks, accs, idx))

    def state(self):
        return [v for it in self.its for v in it.state()]


def positions(flags, n):
    """The exclusive prefix sum of `flags` over n items, as a new int64 simt array (current stream)."""
    from .._creation import empty
    from ._algorithm import NO_TEMP, cached
    from ._scan import _Scan
    out = empty((max(n, 1),), np.int64)
    scan = cached(_Scan, flags, out, OpKind.PLUS, np.int64(0), False)
    scan(NO_TEMP, flags, out, n, np.int64(0))
    return out
