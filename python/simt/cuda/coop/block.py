"""coop.block: primitives run by all threads of a block together (cuda.coop.block's names; the
make_* spellings are the same factories under cuda.coop's newer names)."""
from ._block_load_store import load, store
from ._block_radix_sort import radix_sort_keys, radix_sort_keys_descending
from ._block_reduce import reduce, sum
from ._block_scan import exclusive_scan, exclusive_sum, inclusive_scan, inclusive_sum

make_reduce, make_sum = reduce, sum
make_exclusive_sum, make_inclusive_sum = exclusive_sum, inclusive_sum
make_exclusive_scan, make_inclusive_scan = exclusive_scan, inclusive_scan
make_load, make_store = load, store
make_radix_sort_keys, make_radix_sort_keys_descending = radix_sort_keys, radix_sort_keys_descending

__all__ = ["reduce", "sum", "exclusive_sum", "inclusive_sum", "exclusive_scan", "inclusive_scan", "load", "store",
           "radix_sort_keys", "radix_sort_keys_descending", "make_reduce", "make_sum", "make_exclusive_sum",
           "make_inclusive_sum", "make_exclusive_scan", "make_inclusive_scan", "make_load", "make_store",
           "make_radix_sort_keys", "make_radix_sort_keys_descending"]
