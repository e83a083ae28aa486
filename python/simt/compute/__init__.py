"""simt.compute: device-wide algorithms over arrays and iterators with built-in or Python operators,
with the API of NVIDIA's cuda.compute (formerly cuda.cccl.parallel)."""
from ._histogram import histogram_even, make_histogram_even
from ._iterators import (CacheModifiedInputIterator, ConstantIterator, CountingIterator, DiscardIterator,
                         IteratorBase, PermutationIterator, ReverseIterator, TransformIterator,
                         TransformOutputIterator, ZipIterator)
from ._merge_sort import make_merge_sort, merge_sort
from ._ops import OpKind
from ._partition import make_select, make_three_way_partition, select, three_way_partition
from ._radix_sort import SortOrder, make_radix_sort, radix_sort
from ._reduce import make_reduce_into, reduce_into
from ._scan import exclusive_scan, inclusive_scan, make_exclusive_scan, make_inclusive_scan
from ._segmented_reduce import make_segmented_reduce, segmented_reduce
from ._transform import binary_transform, make_binary_transform, make_unary_transform, unary_transform
from ._unique_by_key import make_unique_by_key, unique_by_key

__all__ = [
    "binary_transform", "CacheModifiedInputIterator", "ConstantIterator", "CountingIterator", "DiscardIterator",
    "exclusive_scan", "histogram_even", "inclusive_scan", "IteratorBase", "make_binary_transform",
    "make_exclusive_scan", "make_histogram_even", "make_inclusive_scan", "make_merge_sort", "make_radix_sort",
    "make_reduce_into",
    "make_segmented_reduce", "make_select", "make_three_way_partition", "make_unary_transform",
    "make_unique_by_key", "merge_sort", "OpKind", "PermutationIterator", "reduce_into", "ReverseIterator",
    "radix_sort", "segmented_reduce", "select", "SortOrder", "three_way_partition", "TransformIterator",
    "TransformOutputIterator",
    "unary_transform", "unique_by_key", "ZipIterator",
]
