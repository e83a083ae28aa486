"""radix_sort / make_radix_sort and SortOrder: cuda.compute's radix sort of keys (and values),
ascending or descending, on a range of the keys' bits, through simt's device radix sort
(python/simt/_radix_sort.py). Stable; float keys sort by value with NaN last."""
import enum

from ._algorithm import NO_TEMP, Algorithm, cached, count, temp_bytes
from ._iterators import _ArrayIterator
from ._streams import on_stream


class SortOrder(enum.IntEnum):
    ASCENDING = 0
    DESCENDING = 1


class _RadixSort(Algorithm):
    name = "radix_sort"
    roles = ("d_in_keys", "d_out_keys", "d_in_values", "d_out_values")

    def __init__(self, d_in_keys, d_out_keys, d_in_values, d_out_values, order):
        super().__init__()
        if (d_in_values is None) != (d_out_values is None):
            raise ValueError("radix_sort: give both d_in_values and d_out_values, or neither")
        if not isinstance(order, SortOrder):
            raise TypeError(f"radix_sort: order must be SortOrder.ASCENDING or SortOrder.DESCENDING, got {order!r}")
        self.order = order
        self.has_values = d_in_values is not None
        for role, obj in zip(self.roles, (d_in_keys, d_out_keys, d_in_values, d_out_values)):
            if obj is None:
                continue
            it = self.bind(role, obj)
            if not isinstance(it, _ArrayIterator):  # (a radix sort reads its keys several times)
                raise TypeError(f"radix_sort: {role} must be a device array, not a {type(it).__name__}")
        kin, kout = self.built["d_in_keys"][0], self.built["d_out_keys"][0]
        if kin != kout:
            raise TypeError(f"radix_sort: d_in_keys holds {self.built['d_in_keys'][1]} but d_out_keys holds "
                            f"{self.built['d_out_keys'][1]}; they must match")
        if self.has_values and self.built["d_in_values"][0] != self.built["d_out_values"][0]:
            raise TypeError(f"radix_sort: d_in_values holds {self.built['d_in_values'][1]} but d_out_values holds "
                            f"{self.built['d_out_values'][1]}; they must match")

    def __call__(self, temp_storage, d_in_keys, d_out_keys, d_in_values, d_out_values, num_items, begin_bit=None,
                 end_bit=None, stream=None):
        from .._radix_sort import radix_sort
        if (d_in_values is not None) != self.has_values or (d_out_values is not None) != self.has_values:
            raise TypeError(f"radix_sort: this object was built {'with' if self.has_values else 'without'} values")
        objs = (d_in_keys, d_out_keys, d_in_values, d_out_values)
        arrays = [self.same(r, o).array if o is not None else None for r, o in zip(self.roles, objs)]
        n = count(num_items, "radix_sort: num_items")
        for role, a in zip(self.roles, arrays):
            if a is not None and a.shape[0] < n:
                raise ValueError(f"radix_sort: {role} holds {a.shape[0]} items, fewer than num_items={n}")
        kin, kout, vin, vout = (None if a is None else a[:n] for a in arrays)
        needed = n * (kin.dtype.itemsize + (vin.dtype.itemsize if vin is not None else 0))
        if temp_storage is None:
            return needed
        temp_bytes(temp_storage, needed, "radix_sort")
        if n == 0:
            return needed
        width = 8 * kin.dtype.itemsize
        with on_stream(stream, "radix_sort"):
            radix_sort(kin, vin, keys_out=kout, values_out=vout, descending=self.order == SortOrder.DESCENDING,
                       begin_bit=0 if begin_bit is None else begin_bit, end_bit=width if end_bit is None else end_bit)
        return needed


def make_radix_sort(d_in_keys, d_out_keys, d_in_values, d_out_values, order):
    """A reusable radix sort: obj(temp_storage, d_in_keys, d_out_keys, d_in_values, d_out_values,
    num_items, begin_bit=None, end_bit=None, stream=None); values None for keys only."""
    return _RadixSort(d_in_keys, d_out_keys, d_in_values, d_out_values, order)


def radix_sort(d_in_keys, d_out_keys, d_in_values, d_out_values, order, num_items, begin_bit=None, end_bit=None,
               stream=None):
    """Sorts num_items keys (bool, integer or float; and their values) into d_out_keys
    (d_out_values), stably, in `order` (a SortOrder), on bits [begin_bit, end_bit) of the keys'
    order-preserving unsigned form (all bits by default)."""
    s = cached(_RadixSort, d_in_keys, d_out_keys, d_in_values, d_out_values, order)
    s(NO_TEMP, d_in_keys, d_out_keys, d_in_values, d_out_values, num_items, begin_bit, end_bit, stream)
